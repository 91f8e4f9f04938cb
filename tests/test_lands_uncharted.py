"""Lands Uncharted: variant, turn model (hand-computed fractions, every option), position
factory errors, the play engine (whole games, final round, tie-break, reshuffle, solo, every
option), engine/model agreement on every draw, the CLI, and exact-vs-simulation agreement."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pushluck_teach.cards import Card, CardError, parse_cards, standard_cards
from pushluck_teach.cli import main
from pushluck_teach.games import get_game
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    IllegalActionError,
    OptionError,
    PositionError,
    RulesError,
)
from pushluck_teach.games.lands_uncharted import (
    DECLARE,
    LandsUnchartedEngine,
    LandsUnchartedTurnModel,
    LandsUnchartedVariant,
    lands_uncharted_position,
)
from pushluck_teach.sim import OptimalTurnBot, ThresholdBot, simulate_turns
from pushluck_teach.solve.turn import TurnSolver

SPEC = get_game("lands-uncharted")
V = LandsUnchartedVariant
F = Fraction


def analyse(variant: LandsUnchartedVariant | None = None, **kwargs: Any) -> Any:
    model, state = lands_uncharted_position(variant or V(), **kwargs)
    return TurnSolver(model, exact=True).analyse(state)


def all_but(*codes: str) -> str:
    """Every card of the deck except ``codes`` (to build small, hand-checkable draw piles)."""
    keep = set(parse_cards(" ".join(codes)))
    return " ".join(c.code for c in standard_cards() if c not in keep)


# ---- variant --------------------------------------------------------------------------------

def test_defaults_follow_rules_md() -> None:
    v = V()
    assert (v.allies_persist, v.target, v.buried_treasure, v.double_or_nothing,
            v.cursed_idol, v.solo) == (True, 100, False, False, (), False)
    assert v.declare_window == (90, 99) and v.double_or_nothing_reset == 80


@pytest.mark.parametrize(("text", "queens"), [
    ("true", ("spades", "clubs", "hearts", "diamonds")),
    ("all", ("spades", "clubs", "hearts", "diamonds")),
    ("off", ()),
    ("false", ()),
    ("hearts,spades", ("spades", "hearts")),
    ("♦,c", ("clubs", "diamonds")),
])
def test_cursed_idol_from_text(text: str, queens: tuple[str, ...]) -> None:
    assert V.from_options([f"cursed_idol={text}"]).cursed_idol == queens


def test_cursed_idol_from_python_values() -> None:
    assert V(cursed_idol=True).cursed_idol == ("spades", "clubs", "hearts", "diamonds")
    assert V(cursed_idol=["h"]).cursed_idol == ("hearts",)
    assert V.from_options({"cursed_idol": False}).cursed_idol == ()


@pytest.mark.parametrize(("options", "needle"), [
    (["cursed_idol=spades,rubies"], "'rubies'"),
    (["target=0"], "target"),
    (["target=many"], "target"),
    (["solo=maybe"], "solo"),
    (["jokers=2"], "'jokers'"),
])
def test_bad_options_name_the_problem(options: list[str], needle: str) -> None:
    with pytest.raises(OptionError, match=needle):
        V.from_options(options)


def test_presets_are_registered() -> None:
    assert SPEC.title == "Lands Uncharted" and (SPEC.min_players, SPEC.max_players) == (1, 4)
    assert SPEC.presets["standard"] == V()
    everything = SPEC.presets["all-options"]
    assert everything.buried_treasure and everything.double_or_nothing
    assert len(everything.cursed_idol) == 4


# ---- turn model: hand-computed positions -----------------------------------------------------

def test_after_5h_9s_from_a_full_deck() -> None:
    a = analyse(drawn="5h 9s")
    assert a.p_bust_next == F(6, 50)  # three 5s and three 9s of 50 cards
    assert a.ev_stop == 14
    # stop after one more card: 28 safe numbers add 2+3+4+6+7+8+10 = 40 (4 copies each);
    # 4 aces and 12 threats keep 14; 6 busts give 0.
    assert a.ev_draw_once == F(28 * 14 + 4 * 40 + 16 * 14, 50)
    assert a.best_action == DRAW and a.ev_optimal > a.ev_draw_once


def test_an_ally_held_makes_the_next_draw_safe() -> None:
    a = analyse(drawn="5h 9s", allies=1)  # the ally's ace is out of the 49-card pile
    assert a.p_bust_next == 0
    assert a.ev_draw_once == F(49 * 14 + 4 * 40, 49)
    assert a.ev_optimal > analyse(drawn="5h 9s").ev_optimal


def test_a_drawn_ace_stops_a_later_bust() -> None:
    # Ah is an ally; Qd is a second threat, stopped by it: K stays, the ally is gone.
    a = analyse(drawn="Ah Kh Qd")
    assert a.p_bust_next == F(10, 49)  # the 10 other threats of 49
    assert a.ev_stop == 0
    b = analyse(drawn="Ah 5h 9s 5d")  # the second 5 used the ally
    assert b.p_bust_next == F(2 + 3, 48)


def test_a_threat_in_the_haul() -> None:
    a = analyse(drawn="Kh 7c")
    assert a.p_bust_next == F(11 + 3, 50) and a.ev_stop == 7


def test_empty_draw_pile_reshuffles_the_discards() -> None:
    removed = all_but("5h", "2h", "3h")
    assert analyse(drawn="5h", removed=removed).p_bust_next == 0  # only 2h and 3h are left
    # Nothing left: the 49 removed cards become the pile; 3 fives, 3 twos, 3 threes bust.
    a = analyse(drawn="5h 2h 3h", removed=removed)
    assert a.p_bust_next == F(9, 49) and a.ev_stop == 10


def test_aces_elsewhere_are_not_reshuffled() -> None:
    removed = all_but("5h", "2h", "3h")
    model, state = lands_uncharted_position(V(), drawn="5h 2h 3h", removed=removed)
    other = LandsUnchartedTurnModel(V(), state, aces_elsewhere=2)
    assert TurnSolver(other, exact=True).p_bust_next(state) == F(9, 47)


def test_the_allies_elsewhere_flag_keeps_them_out_of_the_reshuffle() -> None:
    # By hand: 49 cards out, two of them aces that another player holds. After 5h 2h 3h the
    # pile is empty; the 47 discards come back, and the other 5s, 2s and 3s (9 cards) bust.
    removed = all_but("5h", "2h", "3h")
    assert analyse(drawn="5h 2h 3h", removed=removed).p_bust_next == F(9, 49)
    held = analyse(drawn="5h 2h 3h", removed=removed, allies_elsewhere=2)
    assert held.p_bust_next == F(9, 47)
    assert analyse(drawn="5h 2h 3h", removed=removed, allies_elsewhere="2") == held


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"removed": "5h As", "allies_elsewhere": 2}, "only 1 aces are among the removed"),
    ({"allies_elsewhere": 1}, "only 0 aces"),
    ({"removed": "As", "allies_elsewhere": -1}, "at least 0"),
    ({"removed": "As", "allies_elsewhere": "one"}, "'one'"),
    ({"removed": "As", "allies_elsewhere": 1.0}, "1.0"),
])
def test_impossible_allies_elsewhere_are_refused(kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(PositionError, match=needle):
        lands_uncharted_position(V(), **kwargs)
    with pytest.raises(PositionError, match="solo game"):
        lands_uncharted_position(V(solo=True), removed="As", allies_elsewhere=1)
    with pytest.raises(PositionError, match="allies_persist"):
        lands_uncharted_position(V(allies_persist=False), removed="As", allies_elsewhere=1)


def test_engine_flags_rebuild_the_table_when_the_pile_runs_out_with_allies_elsewhere() -> None:
    """Seeded four-player games, played on until the draw pile runs out during a turn while
    another player holds allies: the command's flags give the table's exact numbers there."""
    rng = random.Random(5)
    checked = mattered = 0
    for seed in range(40):
        engine = SPEC.new_engine(V(), players=4, seed=seed)
        while not engine.is_over and checked < 12:
            legal = engine.legal_actions()
            elsewhere = sum(len(a) for p, a in enumerate(engine.allies)
                            if p != engine.current_player)
            if DRAW in legal and STOP in legal and elsewhere and len(engine.draw_pile) <= 2:
                flags = engine.position_flags()
                # other players' allies change only on their own turns
                assert flags["allies_elsewhere"] == str(elsewhere)
                model, state = engine.turn_position()
                table = TurnSolver(model, exact=True).analyse(state)
                model1, state1 = SPEC.position_from_flags(V(), flags)
                assert TurnSolver(model1, exact=True).analyse(state1) == table, flags
                without = {k: v for k, v in flags.items() if k != "allies_elsewhere"}
                model2, state2 = SPEC.position_from_flags(V(), without)
                mattered += TurnSolver(model2, exact=True).analyse(state2) != table
                checked += 1
            engine.act(DRAW if DRAW in legal and rng.random() < 0.7 else rng.choice(legal))
        if checked >= 12:
            break
    assert checked >= 12 and mattered >= 1, (checked, mattered)


def test_buried_treasure_scores_26_for_exactly_21() -> None:
    assert analyse(drawn="Th 9s 2c").ev_stop == 21
    assert analyse(V(buried_treasure=True), drawn="Th 9s 2c").ev_stop == 26
    assert analyse(V(buried_treasure=True), drawn="Th 9s 3c").ev_stop == 22
    plain = analyse(drawn="Th 9s").ev_optimal
    assert analyse(V(buried_treasure=True), drawn="Th 9s").ev_optimal > plain


def test_allies_persist_does_not_change_a_single_turn() -> None:
    a = analyse(drawn="5h 9s")
    assert analyse(V(allies_persist=False), drawn="5h 9s").ev_optimal == a.ev_optimal


def test_double_or_nothing_turn() -> None:
    dn = V(double_or_nothing=True)
    a = analyse(dn, drawn="3h", score=95)
    # must reach exactly 100: only a 2 fits; a 3 again or anything from 4 up busts.
    assert a.ev_stop is None and a.p_bust_next == F(3 + 7 * 4, 51)
    b = analyse(dn, drawn="3h 2c", score=95)
    assert b.ev_stop == 5 and b.best_action == STOP  # nothing pays more than the mark
    assert analyse(dn, drawn="3h 2c", score=95, allies=1).ev_optimal == 5
    # a bust costs the drop to 80: the turn's score change is -15 with probability 1 here
    removed = all_but("3h", "2c", "9s")
    c = analyse(dn, drawn="3h", removed=removed, score=95)
    assert c.p_bust_next == F(1, 2) and c.ev_optimal == F(5 - 15, 2)


def test_declare_is_an_action_at_the_turn_start_when_eligible() -> None:
    dn = V(double_or_nothing=True)
    model, state = lands_uncharted_position(dn)
    raw = model.start_state
    eligible = LandsUnchartedTurnModel(dn, raw, score=92)
    assert eligible.actions(raw) == (DRAW, DECLARE)
    (_, declared), = eligible.transitions(raw, DECLARE)
    assert eligible.actions(declared) == (DRAW,)
    assert LandsUnchartedTurnModel(dn, raw, score=80).actions(raw) == (DRAW,)
    assert model.actions(state) == (DRAW,)


def test_cursed_clubs_and_hearts_from_the_turn_start() -> None:
    model, state = lands_uncharted_position(V(cursed_idol="clubs,hearts"))
    a = TurnSolver(model, exact=True)
    # Q♣ first: bust.  Q♥ first: two forced draws from 51 cards holding 11 dead threats;
    # after a number the second draw meets 11 threats + 3 copies of it of 50.
    after_heart = F(11, 51) + F(36, 51) * F(14, 50)
    assert a.p_bust_next(state) == F(1, 52) + F(1, 52) * after_heart


def test_cursed_clubs_busts_unless_an_ally_stops_it() -> None:
    with pytest.raises(PositionError, match="Qc"):
        lands_uncharted_position(V(cursed_idol="clubs"), drawn="5h Qc")
    a = analyse(V(cursed_idol="clubs"), drawn="Ah 5h Qc")
    assert a.ev_stop == 5 and a.p_bust_next == F(3, 49)  # 3 fives; no threat is held
    assert analyse(drawn="5h Qc").p_bust_next == F(3 + 11, 50)  # Qc is a plain threat


def test_cursed_spades_discards_the_highest_number() -> None:
    a = analyse(V(cursed_idol="spades"), drawn="5h 9s Qs")
    assert a.ev_stop == 5
    assert a.p_bust_next == F(3 + 11, 49)  # the 9s may come again; 3 fives, 11 threats bust
    assert analyse(drawn="5h 9s Qs").ev_stop == 14


def test_cursed_hearts_forces_two_draws() -> None:
    hearts = V(cursed_idol="hearts")
    model, state = lands_uncharted_position(hearts, drawn="5c Qh")
    assert model.actions(state) == (DRAW,) and model.is_forced(state)
    model, state = lands_uncharted_position(hearts, drawn="5c Qh 6c")
    assert model.actions(state) == (DRAW,)
    a = analyse(hearts, drawn="5c Qh 6c 7c")
    assert a.ev_stop == 18
    # one forced draw left: a bust is 11 threats + 3 fives + 3 sixes of 49
    model, state = lands_uncharted_position(hearts, drawn="5c Qh 6c")
    assert TurnSolver(model, exact=True).p_bust_next(state) == F(17, 49)


def test_cursed_diamonds_forces_draws_until_a_nine_or_ten() -> None:
    diamonds = V(cursed_idol="diamonds")
    model, state = lands_uncharted_position(diamonds, drawn="Qd 5h 2h")
    assert model.actions(state) == (DRAW,)
    assert analyse(diamonds, drawn="Qd 5h 2h 9c").ev_stop == 16
    assert analyse(diamonds, drawn="Ah 9h Qd 9c").ev_stop == 9  # a stopped 9 also ends it
    # 5h Qd with 5d 9h 2h left: stopping at 5 is gone; draws go on until the 9h.
    removed = all_but("5h", "Qd", "5d", "9h", "2h")
    assert analyse(drawn="5h Qd", removed=removed).ev_stop == 5
    forced = analyse(diamonds, drawn="5h Qd", removed=removed)
    assert forced.ev_stop is None and forced.p_bust_next == F(1, 3) + F(1, 3) * F(1, 2)
    # 9h first (1/3): stop at 14 or draw on; 2h first: 7, then 5d busts or 9h ends at 16.
    assert forced.ev_optimal == F(1, 3) * max(14, F(16, 2)) + F(1, 3) * F(16, 2)


def test_every_option_changes_the_start_of_a_turn_where_it_applies() -> None:
    def start(variant: LandsUnchartedVariant) -> Fraction:
        model, state = lands_uncharted_position(variant, removed=all_but(
            "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Kh", "Qs", "Qh", "Qd", "Qc",
            "Ah", "9s", "2s"))
        return TurnSolver(model, exact=True).value(state)

    base = start(V())
    assert start(V(buried_treasure=True)) > base
    for queen in ("spades", "clubs", "hearts", "diamonds"):
        assert start(V(cursed_idol=queen)) != base, queen


# ---- merged states are exact ---------------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), queens=st.sampled_from(
    ["", "all", "spades", "diamonds", "hearts,clubs", "spades,diamonds"]),
    buried=st.booleans(), double=st.booleans(), allies=st.integers(0, 1))
def test_merged_states_equal_the_raw_model(seed: int, queens: str, buried: bool, double: bool,
                                           allies: int) -> None:
    variant = V(cursed_idol=queens or (), buried_treasure=buried, double_or_nothing=double)
    rng = random.Random(seed)
    deck = list(standard_cards())
    rng.shuffle(deck)
    cut = rng.randint(34, 42)
    removed = deck[:cut]
    if sum(c.rank == "A" for c in removed) == 4:
        allies = 0  # no ace left to hold
    score = rng.randint(90, 99) if double else None
    drawn: list[Card] = []
    for card in deck[cut:cut + rng.randint(0, 5)]:
        try:
            lands_uncharted_position(variant, drawn=[*drawn, card], removed=removed,
                                     allies=allies, score=score)
        except PositionError:
            break
        drawn.append(card)
    kwargs = {"drawn": drawn, "removed": removed, "allies": allies, "score": score}
    merged, state = lands_uncharted_position(variant, **kwargs)
    raw, raw_state = lands_uncharted_position(variant, symmetric=False, **kwargs)
    a, b = TurnSolver(merged, exact=True), TurnSolver(raw, exact=True)
    assert a.analyse(state).as_dict() == b.analyse(raw_state).as_dict()
    assert a.distribution(state) == b.distribution(raw_state)
    assert a.states_solved() <= b.states_solved()


# ---- position errors -------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "error", "needle"), [
    ({"drawn": "5x"}, CardError, "5x"),
    ({"drawn": "5h 5h"}, CardError, "5h"),
    ({"drawn": "5h", "removed": "5h"}, CardError, "5h"),
    ({"drawn": "JK"}, CardError, "JK"),
    ({"drawn": "5h 9s 5d"}, PositionError, "5d"),
    ({"drawn": "Kh Qd"}, PositionError, "second threat"),
    ({"drawn": "Kh Qd Ah"}, PositionError, "Qd"),  # an ace drawn later cannot help
    ({"allies": 5}, PositionError, "allies"),
    ({"allies": 1, "removed": "Ah As Ad Ac"}, PositionError, "allies"),
    ({"allies": -1}, PositionError, "allies"),
    ({"score": 95}, PositionError, "double_or_nothing"),
])
def test_bad_positions_name_the_problem(kwargs: dict[str, Any], error: type, needle: str
                                        ) -> None:
    with pytest.raises(error, match=needle):
        lands_uncharted_position(V(), **kwargs)


def test_double_or_nothing_score_outside_the_window() -> None:
    with pytest.raises(PositionError, match="90-99"):
        lands_uncharted_position(V(double_or_nothing=True), score=85)
    with pytest.raises(PositionError, match="passes 100"):
        lands_uncharted_position(V(double_or_nothing=True), drawn="9h", score=95)


# ---- engine ----------------------------------------------------------------------------------

def stack(engine: LandsUnchartedEngine, codes: str) -> None:
    """Put ``codes`` (from the draw or discard pile) on top of the draw pile, first drawn first."""
    cards = parse_cards(codes)
    for card in cards:
        assert card in engine.draw_pile or card in engine.discard_pile, card
    engine.discard_pile = [c for c in engine.discard_pile if c not in cards]
    rest = [c for c in engine.draw_pile if c not in cards]
    engine.draw_pile = rest + list(reversed(cards))


def play(engine: LandsUnchartedEngine, actions: str) -> list[str]:
    out: list[str] = []
    for action in actions.split():
        out += engine.act(action)
    return out


def test_engine_turn_basics_and_labels() -> None:
    e = SPEC.new_engine(V(), players=2, seed=1)
    assert e.legal_actions() == (DRAW,)
    assert e.action_label(DRAW) == "Draw" and e.action_label(STOP) == "Bank"
    assert e.action_label(DECLARE) == "Declare double or nothing"
    stack(e, "5h 9s Ac Kd Js 5d 2c")
    play(e, "draw draw")
    assert e.legal_actions() == (DRAW, STOP) and e.treasure == 14
    play(e, "draw draw draw")  # ace, K, J: the J busts, the ally stops it
    assert e.current_player == 0 and e.allies[0] == [] and e.treasure == 14
    lines = play(e, "draw")  # the second 5 busts with no ally left
    assert "bust" in lines[-1] and e.current_player == 1
    rec = e.turn_records[-1]
    assert (rec.player, rec.result, rec.busted) == (0, 0, True)
    assert [c.code for c in rec.cards] == ["5h", "9s", "Ac", "Kd", "Js", "5d"]
    with pytest.raises(IllegalActionError):
        e.act(STOP)
    view = e.view()
    assert view.current_player == 1 and view.draw_pile == 52 - 6
    assert view.discard_pile == 6 and "Round 1" in view.round_text


def test_allies_persist_across_turns_or_leave() -> None:
    for persist in (True, False):
        e = SPEC.new_engine(V(allies_persist=persist), players=1, seed=2)
        stack(e, "Ah 5h")
        play(e, "draw draw stop")
        assert len(e.allies[0]) == (1 if persist else 0)
        model, state = e.turn_position()
        assert state[3] == (1 if persist else 0)


def test_buried_treasure_in_the_engine() -> None:
    e = SPEC.new_engine(V(buried_treasure=True), players=1, seed=3)
    stack(e, "Th 9s 2c")
    lines = play(e, "draw draw draw stop")
    assert e.scores() == (26,) and e.turn_records[-1].result == 26 and "buried" in lines[-1]


def test_double_or_nothing_in_the_engine() -> None:
    v = V(double_or_nothing=True, target=20, solo=True)  # window 10-19, a bust resets to 0
    e = SPEC.new_engine(v, players=1, seed=4)
    stack(e, "Th 2h 9c 8d")
    play(e, "draw draw stop")
    assert e.scores() == (12,) and e.legal_actions() == (DRAW, DECLARE)
    play(e, "declare")
    assert e.legal_actions() == (DRAW,)
    lines = play(e, "draw")  # 12 + 9 passes 20: a bust, the score falls to 0
    assert e.scores() == (0,) and e.turn_records[-1].result == -12 and "falls" in lines[-1]
    e = SPEC.new_engine(v, players=1, seed=4)
    stack(e, "Th 2h 3c 5d")
    play(e, "draw draw stop declare draw")
    assert e.legal_actions() == (DRAW,)  # 15: not yet exactly 20
    play(e, "draw")
    assert e.legal_actions() == (DRAW, STOP)
    play(e, "stop")
    assert e.scores() == (20,)


def test_cursed_queens_in_the_engine() -> None:
    e = SPEC.new_engine(V(cursed_idol="all"), players=1, seed=5)
    stack(e, "5h 9s Qs 9d")
    lines = play(e, "draw draw draw")
    assert "9♠" in lines[-1] and e.treasure == 5
    play(e, "draw")
    assert e.treasure == 14  # the 9 came back
    play(e, "stop")
    stack(e, "Qh 2c 3c 4c")
    play(e, "draw")
    assert e.legal_actions() == (DRAW,)
    play(e, "draw")
    assert e.legal_actions() == (DRAW,)
    play(e, "draw")
    assert e.legal_actions() == (DRAW, STOP) and e.treasure == 5
    play(e, "stop")
    stack(e, "Qd 2d 3d Td")
    play(e, "draw draw draw")
    assert e.legal_actions() == (DRAW,)
    play(e, "draw")
    assert e.legal_actions() == (DRAW, STOP)
    play(e, "stop")
    stack(e, "Qc")
    play(e, "draw")
    assert e.turn_records[-1].busted and len(e.turn_records) == 4


def test_reshuffle_when_the_draw_pile_runs_out() -> None:
    e = SPEC.new_engine(V(), players=2, seed=6)
    stack(e, "Ah 2h 3h")
    e.discard_pile, e.draw_pile = e.draw_pile[:-3], e.draw_pile[-3:]
    play(e, "draw draw draw")  # the ally and the haul 2h 3h stay out of the new pile
    lines = play(e, "draw")
    assert "shuffled into a new draw pile" in lines[0]
    assert len(e.draw_pile) == 49 - 1 and not {Card("A", "h"), Card("2", "h")} & set(
        e.draw_pile)
    bot = ThresholdBot(15)
    for _ in range(300):
        e.act(bot.choose(e))
        held = len(e.haul) + sum(len(a) for a in e.allies)
        assert len(e.draw_pile) + len(e.discard_pile) + held == 52
        if e.is_over:
            break


def test_a_seeded_game_finishes_the_round() -> None:
    e = SPEC.new_engine(V(), players=3, seed=11)
    bots = [ThresholdBot(20), ThresholdBot(25), ThresholdBot(15)]
    while not e.is_over:
        e.act(bots[e.current_player].choose(e))
    trigger = e.final_round_by
    assert trigger is not None and e.scores()[trigger] >= 100
    assert e.turns_taken == [e.round] * 3  # every player had the same number of turns
    best = max(e.scores())
    assert all(e.scores()[w] == best for w in e.winners())
    assert f"Player {e.winners()[0] + 1} wins" in e.view().finished_text
    assert e.legal_actions() == ()


def test_tie_goes_to_fewest_banks() -> None:
    e = SPEC.new_engine(V(target=20), players=2, seed=7)
    stack(e, "6h Kh Ks Th 4h Td 8d 2d")
    play(e, "draw stop")  # P1: 6 (one bank)
    play(e, "draw draw")  # P2: two threats, bust
    play(e, "draw draw stop")  # P1: 14 -> 20 (two banks): the final round starts
    assert e.final_round_by == 0 and not e.is_over
    play(e, "draw draw draw stop")  # P2: 20 in one bank
    assert e.is_over and e.scores() == (20, 20) and e.winners() == (1,)
    text = e.view().finished_text
    assert "Player 2" in text and "fewest" in text


def test_shared_win_when_banks_tie_too() -> None:
    e = SPEC.new_engine(V(target=10), players=2, seed=8)
    stack(e, "Th Td")
    play(e, "draw stop draw stop")
    assert e.winners() == (0, 1) and "share" in e.view().finished_text


def test_solo_mode_is_ten_turns() -> None:
    with pytest.raises(RulesError, match="solo"):
        SPEC.new_engine(V(solo=True), players=2, seed=0)
    e = SPEC.new_engine(V(solo=True), players=1, seed=9)
    bot = ThresholdBot(12)
    while not e.is_over:
        e.act(bot.choose(e))
    assert len(e.turn_records) == 10 and e.winners() == (0,)
    assert e.scores()[0] == sum(r.result for r in e.turn_records)
    assert "score to beat" in e.view().finished_text


def outcome_counts(engine: LandsUnchartedEngine) -> Counter[Any]:
    """Draw every card of the pile in turn (on copies) and see where the engine goes."""
    counts: Counter[Any] = Counter()
    for i in range(len(engine.draw_pile)):
        e = copy.deepcopy(engine)
        e.draw_pile.append(e.draw_pile.pop(i))
        records = len(e.turn_records)
        e.act(DRAW)
        if len(e.turn_records) > records:
            rec = e.turn_records[-1]
            counts[(rec.result, rec.busted)] += 1
        else:
            counts[e.turn_position()[1]] += 1
    return counts


@pytest.mark.parametrize("preset", sorted(SPEC.presets))
def test_engine_and_model_agree_on_every_draw(preset: str) -> None:
    variant = SPEC.presets[preset]
    rng = random.Random(preset)
    players = 1 if variant.solo else 3
    e = SPEC.new_engine(variant, players=players, seed=rng.getrandbits(32))
    checked = 0
    while not e.is_over and checked < 8:
        model, state = e.turn_position()
        assert set(model.actions(state)) == set(e.legal_actions())
        if DRAW in e.legal_actions() and e.draw_pile:
            expected: Counter[Any] = Counter()
            for weight, nxt in model.transitions(state, DRAW):
                expected[nxt] += weight
            assert outcome_counts(e) == expected
            checked += 1
        legal = e.legal_actions()
        e.act(STOP if STOP in legal and rng.random() < 0.3 else rng.choice(legal))
    assert checked


# ---- CLI -------------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_with_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "lands-uncharted", "--drawn", "Kh 7c 9d", "--json",
                         "--exact")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["p_bust_next_exact"] == "17/49" and data["ev_stop_exact"] == "16/1"
    assert data["best_action"] in ("draw", "stop")
    assert data["ev_optimal"] >= data["ev_stop"] and data["ev_optimal"] >= data["ev_draw_once"]


def test_cli_allies_options_and_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "lands-uncharted", "--drawn", "Kh 7c", "--allies", "1",
                       "--json", "--exact")
    assert code == 0 and json.loads(out)["p_bust_next_exact"] == "0/1"
    code, out, _ = run(capsys, "odds", "lands-uncharted", "--drawn", "3h 2c", "--score", "95",
                       "--option", "double_or_nothing=true", "--json")
    data = json.loads(out)
    assert code == 0 and data["ev_stop"] == 5.0 and data["best_action"] == "stop"
    code, out, _ = run(capsys, "odds", "lands-uncharted", "--drawn", "5h 9s Qs",
                       "--option", "cursed_idol=spades", "--removed", all_but("5h", "9s", "Qs",
                                                                               "9d", "Kd"))
    assert code == 0 and "P(next draw busts)" in out and "1/2" in out


@pytest.mark.parametrize(("argv", "needle"), [
    (["--drawn", "5h 9z"], "9z"),
    (["--drawn", "5h 5h"], "5h"),
    (["--drawn", "5h 9s 5d"], "busts"),
    (["--option", "cursed_idol=rubies"], "rubies"),
    (["--option", "treasure=1"], "treasure"),
    (["--score", "95"], "double_or_nothing"),
    (["--ace-values", "11"], "--ace-values"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                              argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, "odds", "lands-uncharted", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


# ---- exact vs simulation (the engine plays, not the model) -----------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "all-options"])
def test_optimal_turn_value_matches_the_engine(preset: str) -> None:
    variant = SPEC.presets[preset]
    model, state = SPEC.position(variant)
    exact = TurnSolver(model).value(state)
    sim = simulate_turns(SPEC, OptimalTurnBot(), 20_000, seed=20261129, variant=variant)
    assert sim.within(float(exact), sigmas=4), (exact, sim.mean, sim.stderr)
