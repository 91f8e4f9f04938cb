"""Captain Seven's Doubloons: variant, turn model (known answers, pruning proofs checked against
unpruned solves, relics), engine (final round, shared wins, secret stash, relics), CLI."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.cards import CardError, parse_cards
from pushluck_teach.cli import main
from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, OptionError, PositionError
from pushluck_teach.games.captain_seven import (
    CAUGHT,
    JACK,
    KING,
    NO_QUEEN,
    PASS,
    QUEEN,
    CaptainSevenTurnModel,
    CaptainSevenVariant,
    captain_seven_position,
    card_value,
    caught,
    stopped,
)
from pushluck_teach.sim import OptimalTurnBot, ThresholdBot, simulate_games, simulate_turns
from pushluck_teach.solve.turn import TurnSolver, expectation
from pushluck_teach.solve.whole_game.captain_seven import (
    threshold_outcome_distributions,
    turn_outcome_distribution,
)

SPEC = get_game("captain-seven")
BASE = CaptainSevenVariant()
RELICS = CaptainSevenVariant(relics=True)


@dataclass(frozen=True)
class Unpruned(CaptainSevenTurnModel):
    """The same MDP without the proved stopping rule."""

    def stop_is_optimal(self, state: int) -> bool:
        return False


def unpruned(model: CaptainSevenTurnModel) -> Unpruned:
    return Unpruned(model.variant, model.relic, model.out, model.start_state)


def legal_order(text: str) -> str:
    """The cards in an order that never catches (depth-first search)."""
    cards = list(parse_cards(text))

    def search(total: int, left: list, seq: list) -> list | None:
        if not left:
            return seq
        for i, card in enumerate(left):
            new = total + card_value(card)
            if seq and (card.rank == "7" or card.is_joker or new % 10 == 7):
                continue
            found = search(new, left[:i] + left[i + 1:], [*seq, card])
            if found is not None:
                return found
        return None

    order = search(0, cards, [])
    assert order is not None
    return " ".join(c.code for c in order)


SMALL_CARDS = "Ah As Ad Ac 2h 2s 2d 2c 3h 3s 3d 3c 4h 4s 4d 4c"


def analyse(drawn: str = "", variant: CaptainSevenVariant = BASE, **kw):
    model, state = captain_seven_position(variant, drawn=drawn, **kw)
    return TurnSolver(model, exact=True).analyse(state)


def one_draw(drawn: str, variant: CaptainSevenVariant = BASE) -> tuple[Fraction, Fraction]:
    """(P(next draw catches), draw once then stash) without solving the whole turn."""
    model, state = captain_seven_position(variant, drawn=drawn)
    pairs = model.transitions(state, DRAW)
    weight = sum(w for w, _ in pairs)
    bust = sum(Fraction(w, weight) for w, s in pairs if s < 0)
    once = sum(Fraction(w, weight) * model.turn_total(s) for w, s in pairs)
    assert TurnSolver(model, exact=True).p_bust_next(state) == bust
    return bust, once


# ---- variant ---------------------------------------------------------------------------------


def test_variant_defaults_presets_and_validation() -> None:
    assert (BASE.target, BASE.secret_stash, BASE.relics) == (100, False, False)
    assert {n: v.target for n, v in SPEC.presets.items() if n != "relics"} == {
        "standard": 100, "short": 75, "long": 150, "marathon": 200, "atlantic": 1000,
        "secret-stash": 100,
    }
    assert SPEC.presets["relics"].relics and SPEC.presets["secret-stash"].secret_stash
    assert SPEC.variant(["target=37", "relics=on"]) == CaptainSevenVariant(target=37, relics=True)
    assert (SPEC.min_players, SPEC.max_players) == (1, 4)
    for bad in ({"target": 0}, {"target": "100"}, {"target": True}, {"relics": "yes"}):
        with pytest.raises(OptionError, match=next(iter(bad))):
            CaptainSevenVariant(**bad)
    with pytest.raises(OptionError, match="unknown option 'jokers'"):
        SPEC.variant(["jokers=0"])


# ---- turn model: known answers ---------------------------------------------------------------


def test_after_5h_9s_ten_of_52_unseen_cards_end_the_turn() -> None:
    # 4 sevens + 2 jokers + 4 threes (14 + 3 = 17) = 10 of 52.
    a = analyse("5h 9s")
    assert a.p_bust_next == Fraction(10, 52)
    assert a.ev_stop == 14
    # Safe cards: 4 A (15), 4 twos (16), 4 fours (18), 3 fives (19), 4 sixes (20),
    # 4 eights (22), 3 nines (23), 16 tens/faces (24): 874 / 52.
    assert a.ev_draw_once == Fraction(874, 52)
    assert a.best_action == DRAW and a.ev_optimal > a.ev_draw_once


FIRST_CARD_MEAN = Fraction(4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9) + 16 * 10, 54)


def test_turn_start_first_card_never_catches() -> None:
    model, state = captain_seven_position(BASE)
    assert model.actions(state) == (DRAW,)
    # One card, then stash: the mean card value, a joker 0 and a 7 counting 7.
    assert one_draw("") == (0, FIRST_CARD_MEAN)


def test_short_positions_by_hand() -> None:
    # Total 10: only the 6 sevens and jokers catch (10 + 7 ends in 7 anyway).
    assert one_draw("Kh") == (
        Fraction(6, 53), Fraction(4 * (11 + 12 + 13 + 14 + 15 + 16 + 18 + 19) + 15 * 20, 53))
    # A first 7 counts 7; now every ten or face card makes 17 too.
    assert one_draw("7c")[0] == Fraction(3 + 2 + 16, 53)
    # A first joker counts 0; the deck keeps 4 sevens and 1 joker, and a 7 catches anyway.
    bust, once = one_draw("JK")
    assert bust == Fraction(5, 53) and once == Fraction(4 * 38 + 16 * 10, 53)


@pytest.mark.slow
def test_turn_start_analysis_float_and_exact() -> None:
    model, state = captain_seven_position(BASE)
    exact = TurnSolver(model, exact=True).analyse(state)
    fast = TurnSolver(model).analyse(state)
    assert exact.p_bust_next == 0 and exact.ev_stop is None
    assert exact.ev_draw_once == FIRST_CARD_MEAN and exact.best_action == DRAW
    assert float(exact.ev_optimal) == pytest.approx(fast.ev_optimal, abs=1e-9)
    assert 15 < exact.ev_optimal < 16


def test_solver_merges_the_ten_class_and_float_matches_exact() -> None:
    model, state = captain_seven_position(BASE, drawn="Th Js Qd 4c")
    exact = TurnSolver(model, exact=True).analyse(state)
    fast = TurnSolver(model).analyse(state)
    assert float(exact.ev_optimal) == pytest.approx(fast.ev_optimal, abs=1e-9)
    assert exact.best_action == fast.best_action
    same, _ = captain_seven_position(BASE, drawn="Kh Ks Kd 4c")
    assert TurnSolver(same, exact=True).analyse(_).ev_optimal == exact.ev_optimal


# ---- positions -------------------------------------------------------------------------------


@pytest.mark.parametrize(("drawn", "token"), [("5h 9x", "9x"), ("5h 5h", "5h"), ("Zz", "Zz")])
def test_bad_cards_name_the_token(drawn: str, token: str) -> None:
    with pytest.raises(CardError, match=token):
        captain_seven_position(BASE, drawn=drawn)


@pytest.mark.parametrize(("drawn", "problem"), [
    ("5h 7s", "7s"), ("Kh JK", "JK"), ("5h 2s", "ends in 7"), ("9h 8s", "ends in 7"),
])
def test_caught_positions_are_errors(drawn: str, problem: str) -> None:
    with pytest.raises(PositionError, match=problem):
        captain_seven_position(BASE, drawn=drawn)


def test_first_card_seven_or_joker_is_a_position() -> None:
    for drawn in ("7h", "JK"):
        model, state = captain_seven_position(BASE, drawn=drawn)
        assert STOP in model.actions(state)
    with pytest.raises(PositionError, match="17"):  # a first 7, then a ten: 17
        captain_seven_position(BASE, drawn="7h Kh")


def test_relic_and_removed_need_the_relics_option() -> None:
    with pytest.raises(PositionError, match="relics option"):
        captain_seven_position(BASE, relic="A")
    with pytest.raises(PositionError, match="relics option"):
        captain_seven_position(BASE, removed="Qh")
    with pytest.raises(PositionError, match="bad relic"):
        captain_seven_position(RELICS, relic="7")


# ---- pruning ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("relic", "cards"), [
    (None, SMALL_CARDS), ("A", SMALL_CARDS.replace("Ah ", "")), ("K", SMALL_CARDS),
    ("J", SMALL_CARDS + " 5h 5s 5d 5c 6h 6s"), ("Q", SMALL_CARDS + " 5h 5s 5d 5c"),
])
def test_pruned_solve_equals_the_unpruned_solve(relic: str | None, cards: str) -> None:
    variant = RELICS if relic else BASE
    model, state = captain_seven_position(variant, drawn=legal_order(cards), relic=relic)
    pruned = TurnSolver(model, exact=True)
    full = TurnSolver(unpruned(model), exact=True)
    a, b = pruned.analyse(state), full.analyse(state)
    assert a == b
    assert pruned.states_solved() < full.states_solved()


def _walk(model: CaptainSevenTurnModel, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    state = model.start
    for _ in range(steps):
        acts = [a for a in model.actions(state) if a != STOP]
        if not acts:
            break
        pairs = [(w, s) for w, s in model.transitions(state, rng.choice(acts)) if s >= 0]
        if not pairs:
            break
        state = rng.choices([s for _, s in pairs], [w for w, _ in pairs])[0]
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 12),
       relic=st.sampled_from([None, "A", "Q", "J"]))
def test_pruned_states_satisfy_both_lemmas_of_the_proof(seed: int, steps: int,
                                                        relic: str | None) -> None:
    """Where stop is declared optimal: drawing once then stopping is no better than stopping
    (no relic / ace), and every state one draw away is declared too (the set is closed)."""
    model = CaptainSevenTurnModel(RELICS if relic else BASE, relic)
    state = _walk(model, seed, steps)
    while state >= 0 and model.actions(state) and not model.stop_is_optimal(state):
        acts = model.actions(state)
        if DRAW not in acts:
            state = model.transitions(state, acts[-1])[0][1]
            continue
        live = [s for _, s in model.transitions(state, DRAW) if s >= 0]
        if not live:
            return
        state = max(live, key=model.turn_total)
    if state < 0 or not model.actions(state):
        return
    total = model.turn_total(state)
    if relic in (None, "A"):
        pairs = model.transitions(state, DRAW)
        weight = sum(w for w, _ in pairs)
        once = sum(Fraction(w, weight) * model.turn_total(s) for w, s in pairs)
        assert once <= total
    for _, nxt in model.transitions(state, DRAW):
        while nxt >= 0 and STOP not in model.actions(nxt) and model.actions(nxt):
            nxt = model.transitions(nxt, model.actions(nxt)[0])[0][1]  # decline the queen
        if nxt >= 0 and model.actions(nxt):
            assert model.stop_is_optimal(nxt)


# ---- relics in the turn model ----------------------------------------------------------------


def test_ace_relic_saves_a_third_of_the_lost_total() -> None:
    # Total 30 with the ace relic (its card out of the deck): a 7 loses 37 and saves 12, a joker
    # loses 30 and saves 10; the deck holds 50 cards.  Same deck without the relic for contrast.
    ace = analyse("Th Js Qd", RELICS, relic="A")
    plain = analyse("Th Js Qd", RELICS, removed="Ah")
    assert ace.p_bust_next == plain.p_bust_next == Fraction(6, 50)
    assert ace.ev_draw_once - plain.ev_draw_once == Fraction(4 * 12 + 2 * 10, 50)
    assert ace.ev_optimal > plain.ev_optimal


def test_queen_relic_doubles_the_card_just_drawn() -> None:
    model, state = captain_seven_position(RELICS, drawn="Th 9s", relic="Q")
    assert model.actions(state) == (NO_QUEEN, QUEEN)
    [(_, doubled)] = model.transitions(state, QUEEN)
    assert model.turn_total(doubled) == 28 and model.actions(doubled) == (DRAW, STOP)
    model, state = captain_seven_position(RELICS, drawn="5h 6s", relic="Q")
    assert model.transitions(state, QUEEN) == [(1, caught(0))]  # 11 + 6 = 17: caught
    model, state = captain_seven_position(RELICS, drawn="7h", relic="Q")
    [(_, doubled)] = model.transitions(state, QUEEN)  # a first card never catches
    assert model.turn_total(doubled) == 14
    deep = legal_order(SMALL_CARDS + " 5h 5s 5d")
    solver_q = TurnSolver(captain_seven_position(RELICS, drawn=deep, relic="Q")[0], exact=True)
    solver_0 = TurnSolver(captain_seven_position(RELICS, drawn=deep, removed="Qh")[0],
                          exact=True)
    assert solver_q.value() > solver_0.value()


def test_jack_relic_rescues_a_catching_draw() -> None:
    deep = legal_order(SMALL_CARDS + " 5h 5s 5d")
    jack_model, jack_state = captain_seven_position(RELICS, drawn=deep, relic="J")
    plain_model, plain_state = captain_seven_position(RELICS, drawn=deep, removed="Jh")
    jack = TurnSolver(jack_model, exact=True).analyse(jack_state)
    plain = TurnSolver(plain_model, exact=True).analyse(plain_state)
    assert plain.p_bust_next > jack.p_bust_next
    assert jack.ev_optimal > plain.ev_optimal
    pending = [s for _, s in jack_model.transitions(jack_state, DRAW)
               if s >= 0 and jack_model.actions(s) == (CAUGHT, JACK)]
    assert pending
    assert jack_model.transitions(pending[0], CAUGHT) == [(1, caught(0))]
    assert JACK in jack_model.actions(jack_state)  # discarding a safe card is allowed too


def test_king_relic_does_not_change_the_turn() -> None:
    assert analyse("5h 9s", RELICS, relic="K").ev_optimal == analyse(
        "5h 9s", RELICS, removed="Kh").ev_optimal


# ---- outcome distributions -------------------------------------------------------------------


def test_threshold_distributions_match_the_generic_solver() -> None:
    table = threshold_outcome_distributions([0, 5, 12, 20])
    for threshold in (0, 5, 12):
        generic = turn_outcome_distribution(BASE, threshold)
        assert table[threshold] == generic
        assert sum(generic.values()) == 1
    assert table[0][0] == Fraction(2, 54)  # T = 0: stash the first card; a joker gives 0
    assert min(k for k in table[20] if k) >= 20


def test_optimal_distribution_mean_is_the_optimal_value() -> None:
    model, state = captain_seven_position(RELICS, drawn="Th Js Qd", relic="A")
    solver = TurnSolver(model, exact=True)
    dist = solver.distribution(state)
    assert expectation(dist) == solver.value(state) and sum(dist.values()) == 1
    assert any(0 < k < 30 for k in dist)  # only the ace's thirds stash less than 30 here


# ---- engine ----------------------------------------------------------------------------------


class Rigged:
    """Put cards on top of the engine's draw pile (the top is the end of the list)."""

    @staticmethod
    def top(engine, text: str) -> None:
        for card in reversed(parse_cards(text)):
            engine.pile.remove(card)
            engine.pile.append(card)


def test_engine_turn_rules_and_log() -> None:
    engine = SPEC.new_engine(BASE, players=2, seed=1)
    assert engine.legal_actions() == (DRAW,)
    Rigged.top(engine, "7h 5s 5d")
    engine.act(DRAW)
    assert engine.total == 7 and STOP in engine.legal_actions()  # a first 7 counts 7
    engine.act(DRAW)
    engine.act(DRAW)  # 17: caught
    record = engine.turn_records[-1]
    assert record.busted and record.result == 0 and engine.current_player == 1
    assert "ends in 7" in engine.log[-3] and len(engine.pile) == 54
    Rigged.top(engine, "JK Kh")
    engine.act(DRAW)
    engine.act(DRAW)
    assert engine.total == 10
    assert engine.action_label(STOP) == "Stash" and engine.action_label(DRAW) == "Draw"
    engine.act(STOP)
    assert engine.scores() == (0, 10) and engine.turn_records[-1].result == 10
    with pytest.raises(IllegalActionError):
        engine.act(STOP)


def test_final_round_everyone_below_target_plays_once_more() -> None:
    engine = SPEC.new_engine(CaptainSevenVariant(target=20), players=3, seed=2)
    engine.stashes[:] = [5, 25, 15]  # player 2 already past: no final turn for them
    Rigged.top(engine, "Kh Ks")
    engine.act(DRAW)
    engine.act(DRAW)
    engine.act(STOP)  # player 1 reaches 25: final round for player 3 only
    assert engine.final_round and engine.current_player == 2 and not engine.is_over
    Rigged.top(engine, "Kh")
    engine.act(DRAW)
    engine.act(STOP)
    assert engine.is_over and engine.scores() == (25, 25, 25)
    assert engine.winners() == (0, 1, 2)  # equal stashes share the win
    assert "share the win" in engine.log[-1]


def test_solo_game_ends_when_the_target_is_reached() -> None:
    engine = SPEC.new_engine(CaptainSevenVariant(target=10), players=1, seed=3)
    Rigged.top(engine, "Kh")
    engine.act(DRAW)
    engine.act(STOP)
    assert engine.is_over and engine.winners() == (0,)


def test_secret_stash_hides_other_stashes_until_the_target() -> None:
    engine = SPEC.new_engine(CaptainSevenVariant(secret_stash=True, target=20), players=2,
                             seed=4)
    engine.stashes[:] = [3, 4]
    view = engine.view()
    assert view.scores == (3, None) and view.player_lines[1] == ("stash hidden",)
    assert engine.view(viewer=1).scores == (None, 4)
    assert SPEC.new_engine(BASE, players=2).view().scores == (0, 0)
    Rigged.top(engine, "Kh Ks")
    engine.act(DRAW)
    engine.act(DRAW)
    engine.act(STOP)
    assert engine.view().scores == (23, 4)


def test_relics_keep_and_spend_in_the_engine() -> None:
    engine = SPEC.new_engine(RELICS, players=2, seed=5)
    Rigged.top(engine, "Qh 9s")
    engine.act(DRAW)
    engine.act(DRAW)
    assert "keep:Qh" in engine.legal_actions()
    engine.act("keep:Qh")
    assert engine.relics[0] is not None and engine.relics[0].code == "Qh"
    assert engine.action_label("keep:Qh") == "Stash, keep Q♥ as relic"
    engine.act(DRAW)
    engine.act(STOP)  # player 2
    assert len(engine.pile) == 53  # the relic is out of the deck
    Rigged.top(engine, "8h")
    engine.act(DRAW)
    assert engine.legal_actions() == (NO_QUEEN, QUEEN)
    engine.act(QUEEN)
    assert engine.total == 16 and engine.relics[0] is None
    engine.act(STOP)
    assert engine.scores()[0] == 19 + 16


def test_jack_ace_and_king_in_the_engine() -> None:
    engine = SPEC.new_engine(RELICS, players=2, seed=6)
    engine.relics[:] = [parse_cards("Jh")[0], parse_cards("Kh")[0]]
    engine._begin_turn()
    Rigged.top(engine, "5h 2s 4d")
    engine.act(DRAW)
    assert engine.current_player == 1 and engine.legal_actions() == (PASS, KING)
    engine.act(PASS)
    engine.act(DRAW)  # 7: caught, but the jack may discard the 2
    assert engine.legal_actions() == (CAUGHT, JACK)
    engine.act(JACK)  # the 4 comes instead
    assert engine.total == 9 and engine.relics[0] is None
    assert engine.current_player == 1
    engine.act(KING)  # player 2 makes player 1 throw the 4 back and draw again
    assert engine.relics[1] is None
    assert any("throws 4♦ back" in line for line in engine.log)
    engine = SPEC.new_engine(RELICS, players=1, seed=7)
    engine.relics[0] = parse_cards("As")[0]
    engine._begin_turn()
    Rigged.top(engine, "Kh Ks 7c")
    for _ in range(3):
        engine.act(DRAW)
    assert engine.turn_records[-1].busted and engine.turn_records[-1].result == 9  # 27 // 3
    assert engine.scores() == (9,) and engine.relics[0] is None


def test_position_flags_rebuild_the_engine_position() -> None:
    engine = SPEC.new_engine(RELICS, players=2, seed=8)
    engine.relics[:] = [parse_cards("Qh")[0], parse_cards("Ac")[0]]
    engine._begin_turn()
    Rigged.top(engine, "Th 9s")
    engine.act(DRAW)
    engine.act(NO_QUEEN)
    engine.act(DRAW)
    flags = engine.position_flags()
    assert flags == {"drawn": "Th 9s", "relic": "Q", "removed": "Ac"}
    model, state = SPEC.position(RELICS, **flags)
    engine_model, engine_state = engine.turn_position()
    assert state == engine_state and model.out == engine_model.out
    assert model.turn_total(state) == 19 and model.actions(state) == (NO_QUEEN, QUEEN)


def test_engine_and_turn_model_agree_on_every_step() -> None:
    """Random play with every relic: each engine step is an outcome the model lists."""
    for game in range(60):
        engine = SPEC.new_engine(CaptainSevenVariant(relics=True, target=40),
                                 players=1 + game % 4, seed=game)
        rng = random.Random(game)
        while not engine.is_over:
            legal = engine.legal_actions()
            action = rng.choice(legal)
            if action == DRAW and STOP in legal and rng.random() < 0.3:
                action = STOP
            model, state = engine.turn_position()
            covered = engine.phase in ("play", "pending", "queen") and action in model.actions(
                state)
            if covered:
                assert {a for a in legal if not a.startswith("keep:")} == set(
                    model.actions(state))
                nexts = {s for _, s in model.transitions(state, action)}
            turns = len(engine.turn_records)
            engine.act(action)
            if not covered or engine.phase == "king":
                continue
            if len(engine.turn_records) > turns:
                rec = engine.turn_records[turns]
                assert (caught(rec.result) if rec.busted else stopped(rec.result)) in nexts
            else:
                assert engine.turn_position()[1] in nexts


def test_seeded_games_are_reproducible_and_end() -> None:
    bots = [ThresholdBot(15), ThresholdBot(20), ThresholdBot(25)]
    a = simulate_games(SPEC, bots, 4, seed=11, variant=CaptainSevenVariant(target=75))
    assert a == simulate_games(SPEC, bots, 4, seed=11, variant=CaptainSevenVariant(target=75))
    for winners, scores in a:
        assert max(scores) >= 75 and all(scores[w] == max(scores) for w in winners)


# ---- CLI -------------------------------------------------------------------------------------


def test_cli_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "captain-seven", "--drawn", "5h 9s", "--json", "--exact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["p_bust_next_exact"] == "5/26" and out["ev_stop"] == 14
    assert out["ev_draw_once_exact"] == "437/26" and out["best_action"] == "draw"


def test_cli_table_and_relic_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "captain-seven", "--drawn", "Th Js Qd", "--relic", "A",
                 "--option", "relics=true"]) == 0
    text = capsys.readouterr().out
    assert "Captain Seven" in text and "3/25" in text  # P(caught) = 6/50


@pytest.mark.parametrize(("argv", "needle"), [
    (["--drawn", "5h 7s"], "7s"),
    (["--drawn", "5h 9q"], "9q"),
    (["--drawn", "5h 5h"], "5h"),
    (["--relic", "A"], "relics option"),
    (["--option", "relics=maybe"], "relics"),
    (["--allies", "1"], "--allies"),
])
def test_cli_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                         needle: str) -> None:
    assert main(["odds", "captain-seven", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


# ---- the solver against the engine -----------------------------------------------------------


@pytest.mark.slow
def test_optimal_turn_value_matches_simulated_turns() -> None:
    model, state = captain_seven_position(BASE)
    value = TurnSolver(model).value(state)
    sim = simulate_turns(SPEC, OptimalTurnBot(), 20_000, seed=77)
    assert sim.within(value, sigmas=4), (value, sim.mean, sim.stderr)


@pytest.mark.slow
def test_threshold_distribution_matches_simulated_turns() -> None:
    dist = threshold_outcome_distributions([25])[25]
    sim = simulate_turns(SPEC, ThresholdBot(25), 10_000, seed=78)
    assert sim.within(float(expectation(dist)), sigmas=4)
