"""High-Stakes Hit List: hand-computed fractions, the ace choice as an action, every option,
whole games with stacked decks, the CLI, and exact-vs-simulation agreement."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.cards import SUITS, Card, CardError, standard_cards
from pushluck_teach.cli import main
from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, OptionError, PositionError
from pushluck_teach.games.hit_list import (
    ACE,
    ACE_ELEVEN,
    ACE_ONE,
    HitListEngine,
    HitListTurnModel,
    HitListVariant,
    hit_list_position,
)
from pushluck_teach.sim import OptimalTurnBot, simulate_turns
from pushluck_teach.solve.turn import TurnSolver

SPEC = get_game("hit-list")
STANDARD = HitListVariant()


def analyse(variant: HitListVariant = STANDARD, **position):
    model, state = hit_list_position(variant, **position)
    return TurnSolver(model, exact=True).analyse(state)


def stack(ranks: str, copies: int = 1) -> tuple[Card, ...]:
    """Cards of the given ranks, top card first, each rank's suits used in turn (s h d c)."""
    used: dict[str, int] = {}
    cards = []
    for rank in ranks.split():
        n = used.get(rank, 0)
        used[rank] = n + 1
        assert n < 4 * copies, f"too many {rank}"
        cards.append(Card(rank, SUITS[n % 4]))
    return tuple(cards)


def play(engine: HitListEngine, actions: str) -> None:
    """Apply a script of actions: d = draw, s = execute, 1 / 11 = ace value."""
    names = {"d": DRAW, "s": STOP, "1": ACE_ONE, "11": ACE_ELEVEN}
    for token in actions.split():
        engine.act(names[token])


def test_registered_spec() -> None:
    assert SPEC.title == "High-Stakes Hit List"
    assert (SPEC.min_players, SPEC.max_players) == (1, 3)
    assert {"standard", "recommended", "lone-gunman", "long-haul"} <= set(SPEC.presets)
    assert SPEC.presets["recommended"].ghost
    assert SPEC.presets["lone-gunman"].solo


# ---- variant ---------------------------------------------------------------------------------


def test_variant_defaults_and_validation() -> None:
    assert not any(STANDARD.options().values())
    assert set(STANDARD.options()) == {
        "soft_aces", "silent_assassin", "ghost", "rival_interference", "one_last_job",
        "long_haul", "bad_life", "solo",
    }
    assert HitListVariant.from_options(["ghost=on"]).ghost
    with pytest.raises(OptionError, match="'ghost'"):
        HitListVariant(ghost="yes")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="unknown option 'jokers'"):
        HitListVariant.from_options(["jokers=true"])
    with pytest.raises(OptionError, match="expected true or false"):
        HitListVariant.from_options(["solo=maybe"])


# ---- hand-computed fractions ------------------------------------------------------------------


def test_ten_nine_is_nineteen_and_a_card_over_two_busts() -> None:
    # 50 cards left.  Bust: 3-9 (7 ranks x 4, less the 9 drawn) = 27, tens 3: 30 cards.
    # Safe: 4 aces (counted 1: 20), 4 twos (21), 12 faces (first face: worth 0).
    a = analyse(drawn="Ts 9h")
    assert a.p_bust_next == Fraction(30, 50)
    assert a.ev_stop == 19
    # Draw once then stop: ace 20, two 21, face 19, bust -10.
    assert a.ev_draw_once == Fraction(4 * 20 + 4 * 21 + 12 * 19 - 30 * 10, 50)
    assert a.ev_optimal == 19 and a.best_action == STOP


def test_a_face_busts_only_when_a_face_is_already_in_the_job() -> None:
    # Js 9h: total 9, any of the 11 faces left is a second face; no number takes 9 over 21.
    assert analyse(drawn="Js 9h").p_bust_next == Fraction(11, 50)
    # Js Ts 9h: total 19 with a face: 11 faces + 3-8 (24) + 9s (3) + tens (3) of 49.
    assert analyse(drawn="Js Ts 9h").p_bust_next == Fraction(41, 49)


def test_removed_cards_change_the_fractions() -> None:
    # Take every 3-9 and ten out of the deck: nothing left can bust Ts 9h.
    removed = " ".join(f"{r}{s}" for r in "345678" for s in "shdc") + " 9s 9d 9c Th Td Tc"
    a = analyse(drawn="Ts 9h", removed=removed)
    assert a.p_bust_next == 0
    # Left: 4 aces (20), 4 twos (21), 12 faces (19): draw once = (80 + 84 + 228) / 20.
    assert a.ev_draw_once == Fraction(392, 20)


def test_execute_only_from_fifteen() -> None:
    a = analyse(drawn="Ts 4h")
    assert a.ev_stop is None and a.best_action == DRAW
    assert analyse(drawn="Ts 5h").ev_stop == 15


def test_rule_sheet_two_face_cards_alert_security() -> None:
    # "If they draw two face cards in one job, security is alerted": a busted position.
    with pytest.raises(PositionError, match="Kh is a second face card"):
        hit_list_position(STANDARD, drawn="Qs 5d Kh")
    # "If a player's job total exceeds 21, the hit goes wrong".
    with pytest.raises(PositionError, match="5c takes the job to 24"):
        hit_list_position(STANDARD, drawn="Ts 9h 5c")


def test_ace_value_eleven_that_goes_over_21_is_a_botched_position() -> None:
    with pytest.raises(PositionError, match="Ah takes the job to 26"):
        hit_list_position(STANDARD, drawn="Ts 5h Ah", ace_values="11")
    assert analyse(drawn="Ts 5h Ah", ace_values="1").ev_stop == 16


# ---- the ace choice is an action ------------------------------------------------------------


def ace_state(drawn: str, variant: HitListVariant = STANDARD):
    """The decision state right after drawing an ace onto ``drawn``."""
    model, state = hit_list_position(variant, drawn=drawn)
    for _, nxt in model.transitions(state, DRAW):
        if nxt[0] == "ace":
            return model, nxt
    raise AssertionError("no ace outcome")


def test_ace_choice_is_a_decision_with_both_values_analysed() -> None:
    model, state = ace_state("5s 4h")
    assert model.actions(state) == (ACE_ONE, ACE_ELEVEN)
    solver = TurnSolver(model, exact=True)
    a = solver.analyse(state)
    assert a.ev_stop is None and a.ev_draw_once is None and a.p_bust_next is None
    # 11 makes 20 with 49 cards left: drawing busts on every 2-10 and most cards, so stop: 20.
    assert a.action_values[ACE_ELEVEN] == 20
    # 1 makes 10 and must draw on; its value is what the solver finds from the same state.
    after_one = model.transitions(state, ACE_ONE)[0][1]
    assert after_one == ("job", state[1], 10)
    assert a.action_values[ACE_ONE] == solver.value(after_one) < 20
    assert a.best_action == ACE_ELEVEN and a.ev_optimal == 20
    # Onto 14, 11 botches (25) and 1 makes 15.
    model, state = ace_state("Ts 4h")
    a = TurnSolver(model, exact=True).analyse(state)
    assert a.action_values[ACE_ELEVEN] == -10 and a.best_action == ACE_ONE


def test_ace_values_enter_the_position_in_order() -> None:
    # A counted 11, then A counted 1: 11 + 1 + 5 = 17.
    a = analyse(drawn="Ah Ad 5s", ace_values="11,1")
    assert a.turn_total == 17 and a.ev_stop == 17
    assert analyse(drawn="Ah Ad 5s").turn_total == 7  # default: 1 each


def test_an_ace_onto_21_botches_at_once() -> None:
    model, state = hit_list_position(STANDARD, drawn="Ts 9h 2c")
    outcomes = {o.label: o for o in TurnSolver(model).next_outcomes(state)}
    assert outcomes["A"].busted and not outcomes["J/Q/K"].busted


# ---- every option ----------------------------------------------------------------------------


def test_soft_aces_count_like_blackjack() -> None:
    soft = HitListVariant(soft_aces=True)
    # Ah 5s: soft 16, may execute.  Nothing busts it: a ten makes hard 16.
    a = analyse(soft, drawn="Ah 5s")
    assert a.ev_stop == 16 and a.p_bust_next == 0
    # The fixed choice: the ace counted 11 stays 11, so 6-9 and tens bust: 16 + 4 of 50.
    b = analyse(drawn="Ah 5s", ace_values="11")
    assert b.ev_stop == 16 and b.p_bust_next == Fraction(20, 50)
    # After a ten the soft job is worth hard 16 (the ace dropped to 1).
    assert analyse(soft, drawn="Ah 5s Td").turn_total == 16
    with pytest.raises(PositionError, match="soft_aces"):
        hit_list_position(soft, drawn="Ah 5s", ace_values="11")
    # Soft aces are automatic: no ace decision state exists.
    model, state = hit_list_position(soft, drawn="5s 4h")
    assert all(nxt[0] != "ace" for _, nxt in model.transitions(state, DRAW))


def test_silent_assassin_makes_21_worth_36() -> None:
    sa = HitListVariant(silent_assassin=True)
    assert analyse(sa, drawn="Ts 6h 5d").ev_stop == 36
    a = analyse(sa, drawn="Ts 9h")
    assert a.ev_draw_once == Fraction(4 * 20 + 4 * 36 + 12 * 19 - 30 * 10, 50)


def test_one_last_job_needs_three_cards_for_the_fifth_hit() -> None:
    olj = HitListVariant(one_last_job=True)
    # Earlier hits took their cards out of the deck: 2 cards per hit at least.
    gone = "2c 3c 4c 5c 6c 8c 9c Tc"
    assert analyse(olj, drawn="Ts 7h", hits=4, removed=gone).ev_stop is None
    assert analyse(olj, drawn="Ts 7h", hits=3, removed=gone).ev_stop == 17
    assert analyse(olj, drawn="Ts 5h 2d", hits=4, removed=gone).ev_stop == 17
    assert analyse(STANDARD, drawn="Ts 7h", hits=4, removed=gone).ev_stop == 17
    # With silent assassin a 21 counts 2 hits: from 3 hits it would give the 5th.
    both = HitListVariant(one_last_job=True, silent_assassin=True)
    assert analyse(both, drawn="Ts Ah", ace_values="11", hits=3, removed=gone).ev_stop is None
    assert analyse(both, drawn="Ts Ah", ace_values="11", hits=2, removed=gone).ev_stop == 36
    with pytest.raises(PositionError, match="hits"):
        hit_list_position(olj, hits=-1)


def test_long_haul_doubles_the_deck() -> None:
    lh = HitListVariant(long_haul=True)
    # 102 cards left; bust on 3-9 (7 x 8 - 1) and tens (7): 62.
    assert analyse(lh, drawn="Ts 9h").p_bust_next == Fraction(62, 102)
    model, _ = hit_list_position(lh, drawn="Ts Ts")  # two copies of every card
    assert sum(model.deck) == 104


def test_options_that_do_not_change_one_job() -> None:
    base = analyse(drawn="5s 8h")
    for name in ("ghost", "rival_interference", "bad_life", "solo"):
        other = analyse(HitListVariant(**{name: True}), drawn="5s 8h")
        assert other == base, name


# ---- position errors -------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "message"), [
    ({"drawn": "Ah", "ace_values": "1,11"}, "2 value"),
    ({"drawn": "Ts 5h", "ace_values": "1"}, "0 ace"),
    ({"drawn": "Ah", "ace_values": "5"}, "bad ace value '5'"),
    ({"drawn": "Ah Ah"}, "Ah appears more often"),
    ({"drawn": "Ts", "removed": "Ts"}, "Ts appears more often"),
    ({"drawn": "JK"}, "JK is not in this game's deck"),
    ({"drawn": "Zs"}, "'Zs'"),
])
def test_bad_positions_are_one_line_errors(position: dict, message: str) -> None:
    with pytest.raises((PositionError, CardError), match=message) as info:
        hit_list_position(STANDARD, **position)
    assert "\n" not in str(info.value)


def test_an_empty_deck_with_no_legal_execution_is_over() -> None:
    everything = " ".join(c.code for c in standard_cards() if c.code not in ("Ts", "4h"))
    with pytest.raises(PositionError, match="deck is empty"):
        hit_list_position(STANDARD, drawn="Ts 4h", removed=everything)
    model, state = hit_list_position(STANDARD, drawn="Ts 5h", removed=everything.replace(
        "5h", "4h"))
    assert model.actions(state) == (STOP,)


def test_deck_running_out_mid_job_is_worth_zero() -> None:
    # Ts 2h (12) with only the 2d left in the deck: the draw is forced, makes 14 and empties
    # the deck, so the job can neither be executed nor go on: it counts as neither, value 0.
    left = {"2d"}
    removed = " ".join(c.code for c in standard_cards() if c.code not in ({"Ts", "2h"} | left))
    model, state = hit_list_position(STANDARD, drawn="Ts 2h", removed=removed)
    a = TurnSolver(model, exact=True).analyse(state)
    assert a.ev_optimal == 0 and a.p_bust_next == 0 and a.ev_stop is None


# ---- property: p_bust_next by direct count ---------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 5))
def test_p_bust_next_is_the_count_of_busting_cards(seed: int, n: int) -> None:
    cards = list(standard_cards())
    random.Random(seed).shuffle(cards)
    drawn: list[Card] = []
    total, faces = 0, 0
    for card in cards[:n]:
        value = 0 if card.is_face else 1 if card.rank == "A" else card.rank_index
        if total + value > 21 or (card.is_face and faces):
            break
        drawn.append(card)
        total += value
        faces += card.is_face
    model, state = hit_list_position(STANDARD, drawn=[c.code for c in drawn])
    rest = [c for c in cards if c not in drawn]
    busting = sum(
        1 for c in rest
        if (c.is_face and faces) or (not c.is_face and total + (1 if c.rank == "A" else
                                                                 c.rank_index) > 21)
    )
    assert TurnSolver(model, exact=True).p_bust_next(state) == Fraction(busting, len(rest))


# ---- engine: whole games with stacked decks ----------------------------------------------------


def engine(ranks: str, variant: HitListVariant = STANDARD, players: int = 2, seed: int = 0,
           copies: int = 1) -> HitListEngine:
    return HitListEngine(variant, players, seed, deck=stack(ranks, copies))


def test_engine_actions_labels_and_ace_choice() -> None:
    e = engine("5 A 9 T")
    assert e.legal_actions() == (DRAW,)
    play(e, "d d")
    assert e.legal_actions() == (ACE_ONE, ACE_ELEVEN)
    assert [e.action_label(a) for a in (DRAW, STOP, ACE_ONE, ACE_ELEVEN)] == [
        "Draw", "Execute the hit", "Ace = 1", "Ace = 11"]
    model, state = e.turn_position()
    assert model.actions(state) == (ACE_ONE, ACE_ELEVEN) and state[0] == "ace"
    play(e, "11")
    assert e.job_value() == 16 and e.legal_actions() == (DRAW, STOP)
    play(e, "s")
    assert e.piles[0] == [[(Card("5", "s"), 5), (Card("A", "s"), 11)]]
    assert e.turn_records[-1].result == 16 and e.current_player == 1
    view = e.view()
    assert view.scores == (16, 0) and view.draw_pile == 2
    with pytest.raises(IllegalActionError):
        e.act(STOP)


@pytest.mark.parametrize("preset", ["high-stakes", "soft-aces", "long-haul"])
def test_position_flags_give_the_engine_position(preset: str) -> None:
    """``pushluck odds`` with the engine's flags analyses the same job (mid-job positions)."""
    variant = SPEC.presets[preset]
    e = SPEC.new_engine(variant, players=2, seed=11)
    checked = 0
    while not e.is_over and checked < 10:
        model, state = e.turn_position()
        if e.job_cards and DRAW in model.actions(state):
            m2, s2 = hit_list_position(variant, **e.position_flags())
            assert TurnSolver(m2).analyse(s2) == TurnSolver(model).analyse(state)
            checked += 1
        e.act(scripted_choice(e))
    assert checked == 10


def test_engine_ace_eleven_over_21_botches() -> None:
    e = engine("T 5 A 9")
    play(e, "d d d 11")
    assert e.botched[0] and e.turn_records[-1].result == -10 and e.turn_records[-1].busted


def test_turn_position_matches_the_engine() -> None:
    e = engine("T 2 3 4 5 6")
    play(e, "d d")
    model, state = e.turn_position()
    assert model.turn_total(state) == 12 and model.actions(state) == (DRAW,)
    assert sum(state[1]) == 4 and sum(model.deck) == 6


def test_last_round_after_five_hits_and_a_shared_win() -> None:
    # P1 and P2 alternate two-card jobs worth 15; P1's 5th hit starts the last round,
    # P2 takes one more job (its 5th hit), and the deck's remaining cards are never drawn.
    jobs = "T 5 T 5 T 5 T 5 9 6 9 6 9 6 9 6 8 7 8 7 2 2"
    e = engine(jobs)
    for _ in range(9):
        play(e, "d d s")
    assert e.last_round and not e.is_over and e.hits == [5, 4]
    play(e, "d d s")
    assert e.is_over and e.deck_left == 2
    assert e.scores() == (75, 75) and e.winners() == (0, 1)


def test_the_last_seat_reaching_five_hits_ends_at_once() -> None:
    # P1 botches its first job (two faces), so P2, the last seat, reaches 5 hits first.
    e = engine("J Q T 5 T 5 T 5 T 5 9 6 9 6 9 6 9 6 8 7 2 2")
    play(e, "d d")
    for _ in range(9):
        play(e, "d d s")
    assert e.is_over and e.hits == [4, 5] and e.deck_left == 2
    assert e.end_reason == "the last round is over"
    assert e.scores() == (60 - 10, 75) and e.winners() == (1,)


def test_tie_break_fewest_botches() -> None:
    # P1: T 8 2 (20), Q J botched, 9 7 5 (21): 31.  P2: T 5 (15), T 6 (16): 31, then the
    # deck runs out during P2's job (a 3): neither hit nor botch.
    e = engine("T 8 2 T 5 Q J T 6 9 7 5 3")
    play(e, "d d d s  d d s  d d  d d s  d d d s  d")
    assert e.is_over and e.scores() == (31, 31)
    assert e.winners() == (1,)
    assert e.turn_records[-1].result == 0 and not e.turn_records[-1].busted
    assert e.turn_records[-1].note == "deck ran out"


def test_tie_break_most_hits_then_highest_hit() -> None:
    e = engine("T 5 T 6")
    play(e, "d d s d d s")
    assert e.is_over  # the deck ran out
    # Same score and botches: more hits win, then the highest single hit.
    e.hits = [3, 2]
    e.piles = [[[(Card("T", "s"), 10)]], [[(Card("T", "h"), 10)]]]
    e.best_hit = [15, 21]
    assert e.winners() == (0,)
    e.hits = [2, 2]
    assert e.winners() == (1,)
    e.best_hit = [21, 21]
    assert e.winners() == (0, 1)


def test_deck_out_after_the_last_card_may_still_execute() -> None:
    e = engine("T 5")
    play(e, "d d")
    assert e.legal_actions() == (STOP,)
    play(e, "s")
    assert e.is_over and e.scores() == (15, 0) and e.winners() == (0,)
    e = engine("T 4")
    play(e, "d d")
    assert e.is_over and e.turn_records[-1].result == 0


def test_ghost_adds_twenty_without_botches() -> None:
    script = "d d s d d d"
    plain, ghost = engine("T 5 9 8 7"), engine("T 5 9 8 7", HitListVariant(ghost=True))
    play(plain, script)
    play(ghost, script)
    assert plain.scores() == (15, -10) and ghost.scores() == (35, -10)


def test_silent_assassin_in_the_engine() -> None:
    e = engine("T A 2 3", HitListVariant(silent_assassin=True))
    play(e, "d d 11 s")
    assert e.hits[0] == 2 and e.scores()[0] == 36 and e.turn_records[0].result == 36


def test_rival_interference_steals_a_card() -> None:
    ri = HitListVariant(rival_interference=True)
    e = engine("T 5 5 5 2 3 4", ri, seed=3)
    play(e, "d d s d")
    play(e, "d")  # P2 draws a second 5: a pair, steals from P1
    assert len(e.stolen[1]) == 1 and e.card_points(0) + e.card_points(1) == 15
    assert e.hits == [1, 0]
    e2 = engine("T 5 5 5 2 3 4", seed=3)
    play(e2, "d d s d d")
    assert not e2.stolen[1] and e2.card_points(0) == 15


def test_one_last_job_in_the_engine() -> None:
    e = engine("T 5 T 5 T 5 T 5 9 6 3 9 6 9 6 9 6 8 7 8 7 2 2", HitListVariant(
        one_last_job=True), players=1)
    for _ in range(4):
        play(e, "d d s")
    play(e, "d d")
    assert e.job_value() == 15 and e.legal_actions() == (DRAW,)
    play(e, "d s")
    assert e.is_over and e.hits == [5]


def test_soft_aces_in_the_engine() -> None:
    e = engine("A 5 T 2", HitListVariant(soft_aces=True))
    play(e, "d d")
    assert e.job_value() == 16 and e.legal_actions() == (DRAW, STOP)
    play(e, "d")
    assert e.job_value() == 16
    play(e, "s")
    assert e.piles[0][0][0] == (Card("A", "s"), 1)
    e = engine("A 5 2", HitListVariant(soft_aces=True))
    play(e, "d d s")
    assert e.piles[0][0][0] == (Card("A", "s"), 11) and e.scores()[0] == 16


def test_bad_life_executes_the_sixth_botch() -> None:
    deck = ("J Q T 5 J Q T 5 J Q T 5 J Q T 5 K K 9 8 7 K K 9 8 6 7 6 2")
    e = engine(deck, HitListVariant(bad_life=True))
    for _ in range(4):
        play(e, "d d  d d s")
    play(e, "d d  d d d")
    play(e, "d d")
    assert e.out == [True, False] and e.current_player == 1
    play(e, "d d d")
    assert e.current_player == 1  # player 1 is skipped
    play(e, "d d d s")
    assert e.is_over and e.scores()[0] == 0 and e.winners() == (1,)
    plain = engine(deck)
    for _ in range(4):
        play(plain, "d d  d d s")
    play(plain, "d d  d d d  d d")
    assert plain.out == [False, False] and plain.current_player == 1


def test_lone_gunman() -> None:
    solo = HitListVariant(solo=True)
    with pytest.raises(Exception, match="one player"):
        HitListEngine(solo, 2, 0)
    e = engine("J Q J Q J Q J Q K K K K T 5", solo, players=1)
    play(e, "d d " * 6)
    assert e.is_over and e.scores() == (0,) and e.winners() == ()
    e = engine("T 5 T 5 T 5 T 5 9 6 9 6", solo, players=1)
    for _ in range(5):
        play(e, "d d s")
    assert e.is_over and e.deck_left == 2 and e.scores() == (75,)


def test_long_haul_game_ends_only_when_the_deck_runs_out() -> None:
    lh = HitListVariant(long_haul=True)
    e = engine("T 5 " * 6 + "9 6", lh, players=1, copies=2)
    for _ in range(6):
        play(e, "d d s")
    assert not e.is_over and e.hits == [6]
    play(e, "d d s")
    assert e.is_over
    shuffled = HitListEngine(lh, 2, 1)
    assert shuffled.deck_left == 104


def scripted_choice(e: HitListEngine) -> str:
    legal = e.legal_actions()
    if ACE_ELEVEN in legal:
        return ACE_ELEVEN if e.job_value() + 11 <= 21 else ACE_ONE
    return STOP if STOP in legal and e.job_value() >= 17 else (DRAW if DRAW in legal else STOP)


@pytest.mark.parametrize("preset", sorted(SPEC.presets))
def test_seeded_whole_games_keep_every_card(preset: str) -> None:
    variant = SPEC.presets[preset]
    players = 1 if variant.solo else 3
    for seed in range(4):
        e = SPEC.new_engine(variant, players=players, seed=seed)
        for _ in range(2000):
            if e.is_over:
                break
            e.act(scripted_choice(e))
        assert e.is_over and e.end_reason
        size = 104 if variant.long_haul else 52
        held = sum(len(p) for ps in e.piles for p in ps) + sum(map(len, e.stolen)) + sum(
            len(b) for bs in e.botched for b in bs)
        interrupted = sum(len(r.cards) for r in e.turn_records if r.note == "deck ran out")
        assert held + interrupted + e.deck_left == size
        for p in range(players):
            if not e.out[p]:
                assert e.scores()[p] == e.card_points(p) + e.bonus[p] - 10 * len(e.botched[p]) \
                    + (20 if variant.ghost and not e.botched[p] else 0)
        again = SPEC.new_engine(variant, players=players, seed=seed)
        while not again.is_over:
            again.act(scripted_choice(again))
        assert again.log == e.log


# ---- CLI -------------------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", "hit-list", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--drawn", "Ts 9h", "--json", "--exact")
    data = json.loads(out)
    assert code == 0
    assert data["p_bust_next_exact"] == "3/5" and data["ev_stop"] == 19.0
    assert data["ev_draw_once_exact"] == "46/25" and data["best_action"] == "stop"


def test_cli_ev_stop_is_null_under_fifteen(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--drawn", "Ts 4h", "--json")
    data = json.loads(out)
    assert code == 0 and data["ev_stop"] is None and data["best_action"] == "draw"
    code, out, _ = run_cli(capsys, "--drawn", "5s Ah", "--ace-values", "11", "--json")
    assert json.loads(out)["ev_stop"] == 16.0


def test_cli_hits_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--drawn", "Ts 7h", "--removed", "2c 3c 4c 5c 6c 8c 9c Tc", "--option",
            "one_last_job=true", "--json")
    assert json.loads(run_cli(capsys, *args, "--hits", "4")[1])["ev_stop"] is None
    assert json.loads(run_cli(capsys, *args, "--hits", "3")[1])["ev_stop"] == 17.0


def test_cli_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--drawn", "Ts 4h")
    assert code == 0 and "High-Stakes Hit List" in out and "n/a" in out and "job total 14" in out


@pytest.mark.parametrize(("args", "message"), [
    (("--drawn", "Ts 9h 5c"), "5c"),
    (("--drawn", "Qs Kh"), "second face"),
    (("--drawn", "Ah", "--ace-values", "1,11"), "ace"),
    (("--drawn", "Xs"), "'Xs'"),
    (("--drawn", "Ah Ah"), "Ah"),
    (("--allies", "1"), "--allies"),
    (("--option", "ghost=maybe"), "ghost"),
    (("--option", "jokers=1"), "jokers"),
    (("--hits", "-1"), "hits"),
])
def test_cli_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: tuple,
                                        message: str) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


# ---- exact vs simulation -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("variant", [STANDARD, HitListVariant(soft_aces=True,
                                                              silent_assassin=True)],
                         ids=["standard", "soft-silent"])
def test_optimal_job_value_matches_the_engine(variant: HitListVariant) -> None:
    model, state = SPEC.position(variant)
    exact = TurnSolver(model, exact=True).value(state)
    sim = simulate_turns(SPEC, OptimalTurnBot(), 20_000, seed=2026, variant=variant)
    assert sim.within(float(exact), sigmas=4), (float(exact), sim.mean, sim.stderr)


def test_model_is_hashable_and_start_matches_position() -> None:
    model, state = hit_list_position(STANDARD, drawn="5s Ah", ace_values="11")
    same, _ = hit_list_position(STANDARD, drawn="5s Ah", ace_values="11")
    # solvers are cached by model: an equal position must find the entry, and a position
    # with other cards out (or other rules) must not
    other_cards, _ = hit_list_position(STANDARD, drawn="5s Ah", ace_values="11", removed="Kd")
    other_rules, _ = hit_list_position(HitListVariant(soft_aces=True), drawn="5s Ah")
    cache = {model: "5s Ah"}
    assert cache.get(same) == "5s Ah" and model.start == state
    assert cache.get(other_cards) is None and cache.get(other_rules) is None
    assert isinstance(model, HitListTurnModel) and state[2] == 16
    assert model.deck[ACE] == 4
