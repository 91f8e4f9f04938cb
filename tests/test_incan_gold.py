"""Incan Gold: cards, the solo turn model (hand-computed fractions, trap ring, proved pruning),
the position factory's errors, the engine (splits, remainders, artifacts, traps across rounds,
five rounds, winners, options), the group model, and the CLI."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_incan_gold_levels import assert_level_solve_is_the_recursion

from pushluck_teach.cards import CardError, parse_card, parse_cards
from pushluck_teach.cli import main
from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, OptionError, PositionError
from pushluck_teach.games.incan_gold import (
    FULL_RING,
    RING,
    IncanGoldEngine,
    IncanGoldGroupModel,
    IncanGoldTurnModel,
    IncanGoldVariant,
    card_value,
    classify,
    incan_gold_position,
    struct_danger,
    struct_moves,
    trap_structure,
)
from pushluck_teach.solve.turn import TurnSolver

SPEC = get_game("incan-gold")
V = IncanGoldVariant()


def analyse(drawn: str | None = None, **kwargs: object):
    model, state = incan_gold_position(V, drawn=drawn, **kwargs)
    return TurnSolver(model, exact=True).analyse(state)


def one_flip(drawn: str | None = None, **kwargs: object) -> tuple[Fraction, Fraction]:
    """``(p_bust_next, ev_draw_once)`` from the solver's one-step query and, independently,
    from the model's outcome weights (no full solve: fast in any round)."""
    model, state = incan_gold_position(V, drawn=drawn, **kwargs)
    pairs = model.transitions(state, DRAW)
    total = sum(w for w, _ in pairs)
    ev = sum(Fraction(w * model.turn_total(s), total) for w, s in pairs
             if model.actions(s) or not model.is_bust(s))
    p_bust = TurnSolver(model, exact=True).p_bust_next(state)
    assert isinstance(p_bust, Fraction)
    return p_bust, ev


# ---- cards ----------------------------------------------------------------------------------


def test_card_kinds_and_values() -> None:
    assert classify(parse_card("As")) == ("trap", 1)
    assert classify(parse_card("Ks")) == ("trap", 13)
    assert card_value(parse_card("JK")) == 15
    assert card_value(parse_card("Ah")) == 1
    assert card_value(parse_card("Jd")) == 11
    assert card_value(parse_card("Kh")) == 13
    assert card_value(parse_card("Qh")) == 12
    assert card_value(parse_card("Th")) == 10


@pytest.mark.parametrize("token", ["2h", "2d", "4d", "Qd", "5c", "Ac"])
def test_unused_cards_are_card_errors_naming_the_card(token: str) -> None:
    with pytest.raises(CardError, match=token):
        incan_gold_position(V, drawn=f"Kd {token}")


# ---- hand-computed fractions ----------------------------------------------------------------


def test_round_one_after_a_trap() -> None:
    # 30 cards: 13 traps, 16 treasures (128 gems), artifact 4h.  After 5s: 29 left; 4s and 6s
    # spring; one flip then leaving gains (128 + 4)/29 with nothing carried.
    a = analyse("5s")
    assert a.p_bust_next == Fraction(2, 29)
    assert a.ev_stop == 0
    assert a.ev_draw_once == Fraction(132, 29)
    assert a.best_action == DRAW


def test_trap_ranks_form_a_ring() -> None:
    assert one_flip("As") == (Fraction(2, 29), Fraction(132, 29))  # Ks and 2s
    # Ks then Js: Qs (next to both), As (next to K) and Ts (next to J): 3 of 28.
    assert one_flip("Ks Js")[0] == Fraction(3, 28)
    assert one_flip("Ks Jd Js 3h")[0] == Fraction(3, 26)
    with pytest.raises(PositionError, match="springs"):
        incan_gold_position(V, drawn="Ks Jd As")


def test_treasures_then_one_flip() -> None:
    a = analyse("Kd 7h")  # carry 20; 28 cards left with 108 gems and the 4-artifact; no danger
    assert a.p_bust_next == 0
    assert a.ev_stop == 20
    assert a.ev_draw_once == 20 + Fraction(108 + 4, 28)
    b = analyse("As Kd")  # carry 13; 2 of 28 spring: 13 + (115 + 4 - 2*13)/28
    assert b.p_bust_next == Fraction(2, 28)
    assert b.ev_draw_once == 13 + Fraction(93, 28)


def test_round_start_only_draws() -> None:
    model, state = incan_gold_position(V)
    assert model.actions(state) == (DRAW,)
    weights = model.transitions(state, DRAW)
    assert sum(w for w, _ in weights) == 30


def test_later_round_deck() -> None:
    # Round 3 after 4h and 5s left the game: 12 traps, 16 treasures, artifacts 6h 8h = 30 cards.
    # After 4s: 29 cards, only 3s springs (5s is gone).
    assert one_flip("4s", removed="4h 5s", round=3) == (Fraction(1, 29), Fraction(142, 29))
    # The round is inferred from the cards when not given: 8h flipped means round 3 at least.
    model, _ = incan_gold_position(V, drawn="8h")
    assert model.deck.artifacts == (0, 1, 2)


# ---- the pruning is exact and the trap structures are right ---------------------------------


@dataclass(frozen=True)
class _Unpruned(IncanGoldTurnModel):
    def stop_is_optimal(self, state):  # type: ignore[no-untyped-def]
        return False


def test_pruning_changes_nothing() -> None:
    for drawn in ("As 3s 5s Kd Kh JK 9d", "7s Jd Jh 9s Kd 5h JK"):
        model, state = incan_gold_position(V, drawn=drawn)
        bare = _Unpruned(model.variant, model.deck, model.drawn)
        pruned, full = TurnSolver(model, exact=True), TurnSolver(bare, exact=True)
        assert pruned.value(state) == full.value(state)
        assert pruned.best_action(state) == full.best_action(state)
        assert pruned.states_solved() < full.states_solved()


def test_leaving_is_optimal_once_the_deck_is_worth_less_than_the_risk() -> None:
    model, state = incan_gold_position(V, drawn="Kd Kh JK JK Jd Jh 9d 9h As")
    n, sigma, danger = model.deck_summary(state)
    assert (n, sigma, danger, state[4]) == (21, 36, 2, 96)
    assert model.stop_is_optimal(state)
    assert TurnSolver(model).best_action(state) == STOP


def _naive(in_game: int, flipped: int) -> tuple[int, dict[tuple, int]]:
    """Springing traps and the structures after each safe flip, from the raw masks."""
    danger = 0
    moves: dict[tuple, int] = {}
    for p in range(RING):
        if not in_game >> p & 1 or flipped >> p & 1:
            continue
        if flipped >> ((p - 1) % RING) & 1 or flipped >> ((p + 1) % RING) & 1:
            danger += 1
        else:
            after = trap_structure(in_game, flipped | 1 << p)
            moves[after] = moves.get(after, 0) + 1
    return danger, moves


@settings(max_examples=300, deadline=None)
@given(st.integers(0, FULL_RING), st.integers(0, FULL_RING))
def test_trap_structures_match_the_ring(in_game: int, picks: int) -> None:
    # Flipped traps: a subset of the traps in the game with no two neighbours.
    flipped = 0
    for p in range(RING):
        if picks >> p & 1 and in_game >> p & 1 and not flipped >> ((p - 1) % RING) & 1 \
                and not (p == RING - 1 and flipped & 1):
            flipped |= 1 << p
    struct = trap_structure(in_game, flipped)
    danger, moves = _naive(in_game, flipped)
    assert struct_danger(struct) == danger
    assert dict((s, w) for w, s in struct_moves(struct)) == moves


# ---- position factory errors ----------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"drawn": "6h", "round": 1}, "round 2"),
    ({"removed": "Kd"}, "cannot have left"),
    ({"removed": "4h", "round": 1}, "cannot have left"),
    ({"removed": "5s 9s", "round": 2}, "at most one trap"),
    ({"round": 6}, "round must be"),
    ({"drawn": "5s 4s"}, "springs"),
])
def test_impossible_positions(kwargs: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        incan_gold_position(V, **kwargs)


def test_card_flipped_twice_or_removed_and_flipped() -> None:
    with pytest.raises(CardError, match="Kd"):
        incan_gold_position(V, drawn="Kd Kd")
    with pytest.raises(CardError, match="5s"):
        incan_gold_position(V, drawn="5s", removed="5s", round=2)


def test_variant_validation() -> None:
    with pytest.raises(OptionError, match="rounds"):
        IncanGoldVariant(rounds=6)
    with pytest.raises(OptionError, match="tie_break"):
        IncanGoldVariant(tie_break="coin")
    with pytest.raises(OptionError, match="unknown option"):
        IncanGoldVariant.from_options(["gems=3"])
    with pytest.raises(PositionError, match="remove_sprung_trap"):
        incan_gold_position(IncanGoldVariant(remove_sprung_trap=False), removed="5s", round=2)


# ---- engine ---------------------------------------------------------------------------------


def engine(players: int, deck: str, **options: object) -> IncanGoldEngine:
    eng = SPEC.new_engine(IncanGoldVariant(**options), players=players, seed=1)
    assert isinstance(eng, IncanGoldEngine)
    eng.deck = list(parse_cards(deck))
    return eng


def play(eng: IncanGoldEngine, *actions: str) -> None:
    for action in actions:
        eng.act(action)


def test_treasure_split_with_remainder_and_path_split() -> None:
    eng = engine(3, "Kd 7h 5s As")
    play(eng, DRAW)  # Kd: 13 gems, 4 each, 1 on the path
    assert eng.carried == [4, 4, 4] and eng.path_gems == 1
    play(eng, DRAW, DRAW, DRAW)  # all stay: 7h, 2 each, path 2
    assert eng.carried == [6, 6, 6] and eng.path_gems == 2
    play(eng, STOP, STOP, DRAW)  # two leave: path 2 split 1 each; then 5s flips
    assert eng.banked[:2] == [7, 7] and eng.path_gems == 0
    assert [r.result for r in eng.turn_records] == [7, 7]
    assert eng.current_player == 2 and eng.carried[2] == 6


def test_decisions_are_secret_until_all_have_chosen() -> None:
    eng = engine(2, "Kd 7h 5s")
    play(eng, DRAW, STOP)
    assert eng.log[-1] == "Player 1 has decided."
    assert "leaves" not in " ".join(eng.log)
    assert eng.view().player_lines[0][1] == "inside (decided)"
    play(eng, DRAW)
    assert any("Player 1 leaves, Player 2 stays" in line for line in eng.log)


def test_lone_leaver_takes_the_artifacts_two_leavers_do_not() -> None:
    eng = engine(2, "4h Kd 3d")
    play(eng, DRAW, STOP, DRAW)  # artifact on the path; player 1 leaves alone
    assert [c.code for c in eng.artifacts_taken[0]] == ["4h"]
    assert eng.turn_records[0].result == 4
    eng2 = engine(2, "4h Kd 3d")
    play(eng2, DRAW, STOP, STOP)  # both leave: nobody takes it, and it leaves the game
    assert eng2.artifacts_taken == [[], []]
    assert parse_card("4h") in eng2.removed and eng2.round_no == 2
    assert 0 not in eng2.artifacts_in_game


def test_unflipped_artifact_stays_for_the_next_round() -> None:
    eng = engine(1, "5s 6s")
    play(eng, DRAW, DRAW)  # 6s springs: round 1 lost, 6s leaves the game, 4h was never flipped
    assert eng.turn_records[0].busted and eng.turn_records[0].result == 0
    assert eng.round_no == 2 and eng.artifacts_in_game == [0, 1]
    cards = {c.code for c in eng.deck}
    assert {"4h", "6h", "5s"} <= cards and "6s" not in cards and len(eng.deck) == 12 + 16 + 2


def test_traps_stay_with_the_option_off() -> None:
    eng = engine(1, "5s 6s", remove_sprung_trap=False)
    play(eng, DRAW, DRAW)
    assert "6s" in {c.code for c in eng.deck} and len(eng.deck) == 13 + 16 + 2


def test_trap_springs_on_everyone_inside() -> None:
    eng = engine(3, "Kd 5s 4s")
    play(eng, DRAW, STOP, DRAW, DRAW)  # P1 leaves with 4 + 1 path; 5s flips
    play(eng, DRAW, DRAW)  # 4s springs on P2 and P3
    results = [(r.player, r.result, r.busted) for r in eng.turn_records]
    assert results == [(0, 5, False), (1, 0, True), (2, 0, True)]
    assert eng.scores() == (5, 0, 0)


def test_five_rounds_and_the_winner() -> None:
    eng = engine(2, "Kd 5s 4s")
    play(eng, DRAW, STOP, DRAW, DRAW)  # P1 banks 6 + 1 from the path; 4s springs on P2
    for traps in ("9s 8s", "Js Qs", "2s 3s", "7s 6s"):
        eng.deck = list(parse_cards(f"Kd {traps}"))
        play(eng, DRAW, DRAW, DRAW, DRAW, DRAW)  # both stay: caught every round
    assert eng.is_over and eng.round_no == 5 and len(eng.turn_records) == 10
    assert eng.scores() == (7, 0) and eng.winners() == (0,)
    assert eng.legal_actions() == ()
    assert "Player 1 wins" in eng.log[-1]
    assert {c.code for c in eng.removed} >= {"4s", "8s", "Qs", "3s", "6s"}


def test_tie_break_by_artifacts() -> None:
    # P1 takes 4h alone (4); P2 stays, flips Ah (1), 3d (3) and 5s, then leaves with 4 gems.
    deck = "4h Ah 3d 5s 4s"
    for tie_break, winners in (("shared", (0, 1)), ("artifacts", (0,))):
        eng = engine(2, deck, rounds=1, tie_break=tie_break)
        play(eng, DRAW, STOP, DRAW, DRAW, DRAW, STOP)
        assert eng.scores() == (4, 4)
        assert eng.winners() == winners


def test_short_game_has_three_rounds() -> None:
    eng = engine(1, "5s 6s", rounds=3)
    for traps in ("9s Ts", "Js Qs", None):
        play(eng, DRAW, DRAW)  # a trap, then its neighbour springs
        if traps:
            eng.deck = list(parse_cards(traps))
    assert eng.is_over and eng.round_no == 3 and len(eng.turn_records) == 3


def test_turn_position_matches_the_factory_and_labels() -> None:
    eng = engine(1, "Kd 5s 7h 9d")
    assert eng.action_label(DRAW) == "Enter the temple"
    model, state = eng.turn_position()
    assert model.actions(state) == (DRAW,)
    play(eng, DRAW, DRAW, DRAW)
    model, state = eng.turn_position()
    ref_model, ref_state = incan_gold_position(V, drawn="Kd 5s 7h")
    assert state == ref_state and model.deck == ref_model.deck
    assert (eng.action_label(DRAW), eng.action_label(STOP)) == ("Stay", "Leave")
    view = eng.view()
    assert [c.code for c in view.turn_cards] == ["Kd", "5s", "7h"]
    assert view.turn_total == 20 and view.draw_pile == 1
    assert view.round_text == "Round 1 of 5"


def test_deck_running_out_everyone_walks_out() -> None:
    eng = engine(2, "Kd")  # a hand-made one-card deck
    play(eng, DRAW)
    assert [r.result for r in eng.turn_records] == [6, 6]
    assert eng.round_no == 2 and eng.banked == [6, 6]


# ---- several explorers ----------------------------------------------------------------------


def test_group_model_shares_and_leaving_together() -> None:
    # One other explorer who never leaves: after Kd both carry 6, 1 gem on the path.
    model, state = incan_gold_position(V, drawn="Kd", others="1000")
    assert isinstance(model, IncanGoldGroupModel)
    assert model.leave_value(state) == 7  # 6 carried + the path, alone
    # One other who leaves at once: leaving together splits the path 1 -> 0 each.
    model, state = incan_gold_position(V, drawn="Kd", others="0")
    assert model.leave_value(state) == 6
    # Then it has left: the next decision is a solo one carrying 6 (the path went to it).
    model, state = incan_gold_position(V, drawn="Kd 3d", others="0")
    assert state == ("in", *state[1:4], 9)


def test_group_model_labels_name_the_flipped_card() -> None:
    # After Kd with one other explorer who never leaves (both carry 6, 1 gem on the path), of
    # the 29 cards left: a 3-gem treasure gives each explorer 1 (one more on the path: leaving
    # alone banks 7 + 2), the 4-artifact goes on the path, the 13 traps are all safe so far.
    # The labels are short, like the solo model's: a chart's category axis shows them.
    model, state = incan_gold_position(V, drawn="Kd", others="1000")
    outcomes = {o.label: o for o in TurnSolver(model, exact=True).next_outcomes(state)}
    assert outcomes["treasure 3 gems (+1 each)"].probability == Fraction(2, 29)
    assert outcomes["treasure 3 gems (+1 each)"].total_after == 9
    assert outcomes["treasure 1 gem (+0 each)"].total_after == 8
    assert outcomes["artifact worth 4"].total_after == 7 + 4
    assert outcomes["safe trap"].probability == Fraction(13, 29)
    assert sum(o.probability for o in outcomes.values()) == 1
    assert max(len(label) for label in outcomes) <= 30
    # A second trap of a kind springs; alone again once the other has left (the solo labels).
    model, state = incan_gold_position(V, drawn="Kd 5s", others="1000")
    labels = {o.label for o in TurnSolver(model, exact=True).next_outcomes(state)}
    assert "trap springs" in labels
    model, state = incan_gold_position(V, drawn="Kd 3d", others="0")
    labels = {o.label for o in TurnSolver(model, exact=True).next_outcomes(state)}
    assert "treasure 3 gems" in labels and "treasure 1 gem" in labels


@dataclass(frozen=True)
class _UnprunedGroup(IncanGoldGroupModel):
    def stop_is_optimal(self, state):  # type: ignore[no-untyped-def]
        return False


def test_group_model_is_exact_deep_in_a_round() -> None:
    model, state = incan_gold_position(V, drawn="Kd Kh JK As 5s 9s", others="20,40")
    fast, exact = TurnSolver(model), TurnSolver(model, exact=True)
    a, b = fast.analyse(state), exact.analyse(state)
    assert a.ev_optimal == pytest.approx(float(b.ev_optimal), abs=1e-9)
    assert b.p_bust_next == Fraction(6, 24)  # Ks 2s 4s 6s 8s Ts of 24 cards
    # Everyone carries 4 + 4 + 5 = 13 (< 20: the others stay); path 1 + 1 + 0; leaving alone.
    assert b.ev_stop == 15 and b.best_action == STOP


def test_group_pruning_changes_nothing() -> None:
    for drawn, others in (("Kd Kh JK JK Jd As 5s 9s Js", "12,40"), ("Kd JK Jh As 5s 9s Js", "0")):
        model, state = incan_gold_position(V, drawn=drawn, others=others)
        assert isinstance(model, IncanGoldGroupModel)
        bare = _UnprunedGroup(model.variant, model.others, model.deck, model.drawn)
        pruned, full = TurnSolver(model, exact=True), TurnSolver(bare, exact=True)
        assert pruned.value(state) == full.value(state)
        assert pruned.best_action(state) == full.best_action(state)


def test_group_thresholds_are_validated() -> None:
    with pytest.raises(PositionError, match="threshold"):
        incan_gold_position(V, others="5,x")
    with pytest.raises(PositionError, match="1-7 other"):
        incan_gold_position(V, others="1,2,3,4,5,6,7,8")
    model, _ = incan_gold_position(V, drawn="Kd", others="1,2,3,4,5,6,7")  # eight explorers
    assert isinstance(model, IncanGoldGroupModel) and len(model.others) == 7


# ---- CLI ------------------------------------------------------------------------------------


def test_cli_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "incan-gold", "--drawn", "5♠", "--json", "--exact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["p_bust_next_exact"] == "2/29"
    assert out["ev_stop_exact"] == "0/1"
    assert out["ev_draw_once_exact"] == "132/29"
    assert out["best_action"] == "draw"


def test_cli_round_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    # Round 3 after 4h and 5s left: 30 cards; 7 flipped, 23 left, only 3s springs; carrying 78
    # with 64 left in the deck (50 gems, 6h, 8h) and one springing trap: leave.
    argv = ["odds", "incan-gold", "--drawn", "4s Kd Kh JK JK Jd Jh", "--removed", "4h 5s",
            "--round", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "1/23" in out and "Incan Gold" in out and "stop" in out


def test_cli_round_start_has_no_stop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "incan-gold", "--drawn", "Kd Kh JK JK Jd Jh 9d 9h As", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best_action"] == "stop" and out["ev_stop"] == 96.0


@pytest.mark.parametrize("argv, needle", [
    (["--drawn", "2h"], "2h"),
    (["--drawn", "5s 6s"], "springs"),
    (["--drawn", "Qh", "--round", "2"], "round 5"),
    (["--allies", "2"], "--allies"),
    (["--option", "rounds=9"], "rounds"),
])
def test_cli_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                         needle: str) -> None:
    assert main(["odds", "incan-gold", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


# ---- simulation agreement -------------------------------------------------------------------


@pytest.mark.slow
def test_optimal_round_matches_simulation_of_the_engine() -> None:
    from pushluck_teach.sim import OptimalTurnBot, simulate_turns

    model, state = SPEC.position(V)
    ev = TurnSolver(model).value(state)
    result = simulate_turns(SPEC, OptimalTurnBot(), 20_000, 2024, players=1)
    assert result.within(ev, 4.0), (ev, result.mean, result.stderr)


# ---- the level-by-level (NumPy) solve is the recursion's, state by state ----------


LEVEL_POSITIONS = [
    {"round": 1},
    {"drawn": "Kd 5s"},
    {"drawn": "9s Jd 4h 7s", "round": 1},
    {"round": 2, "removed": "4h 5s", "drawn": "6h Qs"},
    {"round": 4, "removed": "4h 5s 9s", "drawn": "Jd 6h"},
    {"round": 5, "removed": "As 4s 7s Ts", "drawn": "Kd Kh JK 3d"},
    {"drawn": "Kd 7h 4h", "others": "0,3,20"},
    {"drawn": "Kd 4h", "carried": "3", "path": "1", "artifacts": "4", "others": "10,10,10"},
    {"drawn": "9d 3s", "others": "10,10,10,10,10,10,10"},
    {"drawn": "Ad 5s Kd", "others": "4,12"},
    {"round": 2, "drawn": "6h 4h JK", "others": "2,4"},
    {"round": 3, "removed": "6h 2s", "drawn": "Kd 8h 3s", "others": "10,10"},
    {"drawn": "Kd Kh JK As 5s 9s", "others": "20,40"},
    {"round": 5, "removed": "4h 6h", "drawn": "Jh Jd 9h 8h", "others": "1,7,30"},
    # Hard positions: the table's four explorers (bots at 10, 10, 30) at a round's first
    # decision, and three distinct low thresholds a card later.
    {"round": 2, "drawn": "JK", "carried": "3", "path": "3", "artifacts": "0",
     "others": "10,10,30"},
    {"round": 2, "drawn": "Ad 9h", "others": "2,5,8"},
]


@pytest.mark.slow
@pytest.mark.parametrize("position", LEVEL_POSITIONS, ids=lambda p: " ".join(
    f"{k}={v}" for k, v in p.items()))
def test_level_solve_equals_the_recursion_everywhere(position: dict) -> None:
    """Every state the plain recursion solves has the same float value (bit for bit: the
    outcomes are summed in the same order) and the same best action on the array path
    (``assert_level_solve_is_the_recursion``, tests/test_incan_gold_levels.py)."""
    assert assert_level_solve_is_the_recursion(position) > 0


# Those whose walks take under three seconds (the others add half a minute, nothing new).
DISTRIBUTION_POSITIONS = [p for p in LEVEL_POSITIONS[:-2]
                          if p.get("round") not in (3, 4) and p.get("others") != "4,12"]


@pytest.mark.parametrize("position", DISTRIBUTION_POSITIONS, ids=lambda p: " ".join(
    f"{k}={v}" for k, v in p.items()))
def test_result_distribution_on_arrays_is_the_walks(position: dict) -> None:
    """The turn's result distribution pushed forward on arrays (optimal play, and stopping at
    3, 8 and 15 gems) has the results of the recursion's walk of the policy's graph, each with
    its chance to 1e-12; under optimal play its mean is the solver's value."""
    from pushluck_teach.solve.levels import level_distribution

    model, state = incan_gold_position(V, **position)
    graph = model.level_graph()
    code = graph.code(state)
    solver = TurnSolver(model, max_states=None)
    assert solver._solve_levels(state)  # noqa: SLF001 - on arrays whatever its size
    table = solver._level_table_holding(code)  # noqa: SLF001
    pairs = [(level_distribution(graph, code, table=table),
              solver.distribution(state, solver.best_action))]  # a plain policy: the walk
    for threshold in (3, 8, 15):
        policy = solver.threshold_policy(threshold)
        pairs.append((level_distribution(graph, code, stop_at=threshold),
                      solver.distribution(state, lambda s, p=policy: p(s))))
    for arrays, walk in pairs:
        assert list(arrays) == list(walk)
        assert all(arrays[r] == pytest.approx(walk[r], abs=1e-12) for r in walk)
    optimal = pairs[0][0]
    assert sum(r * p for r, p in optimal.items()) == pytest.approx(solver.value(state),
                                                                  rel=1e-12)


def test_a_round_start_in_company_has_its_result_chart_on_arrays() -> None:
    """Round 2 of a variant nothing ships (sprung traps stay in), one explorer beside you
    leaving at 10: the optimal policy reaches about 1.8 million states, a walk of minutes; the
    distribution comes from the arrays (its mean is the turn's value; stopping at 10 never
    banks 1 to 9 gems)."""
    from pushluck_teach.solve.turn import watching

    model, state = get_game("incan-gold").position(
        get_game("incan-gold").variant(["remove_sprung_trap=false"]), round=2, others=(10,))
    solver = TurnSolver(model)
    calls: list[int] = []
    with watching(calls.append):
        optimal = solver.distribution(state, max_states=300_000)
        by_threshold = solver.distribution(state, solver.threshold_policy(10),
                                           max_states=300_000)
    assert sum(optimal.values()) == pytest.approx(1, abs=1e-12)
    assert sum(r * p for r, p in optimal.items()) == pytest.approx(solver.value(state),
                                                                  rel=1e-12)
    assert sum(by_threshold.values()) == pytest.approx(1, abs=1e-12)
    assert not [r for r in by_threshold if 0 < r < 10]
    assert len(calls) < 1000  # level by level, not state by state


def test_level_graph_outcomes_are_the_models() -> None:
    """The arrays' outcomes of a flip, slot by slot, are the model's ``transitions`` (weights
    and states, in order), for decisions alone and in company (fast: no solve)."""
    import numpy as np

    for position in LEVEL_POSITIONS:
        model, state = incan_gold_position(V, **position)
        graph = model.level_graph()
        frontier = [state]
        for _ in range(3):  # three flips deep
            nxt = []
            codes = np.array([graph.code(s) for s in frontier], dtype=np.int64)
            legal, weights, successors = graph.transitions(codes, DRAW)
            assert legal.all()
            for s, w_row, s_row in zip(frontier, weights, successors, strict=True):
                slots = [(int(w), graph.state(int(c))) for w, c in zip(w_row, s_row,
                                                                         strict=True) if w > 0]
                assert slots == list(model.transitions(s, DRAW))
                nxt.extend(t for _, t in slots if t[0] != "end")
            frontier = nxt[:40]
            if not frontier:
                break


def test_estimated_states_is_the_right_size() -> None:
    """The estimate is within a factor 8 of the states a solve really reaches."""
    for position in ({"round": 1}, {"drawn": "Ad", "others": "10,10"},
                     {"round": 4, "removed": "4h 5s 9s", "drawn": "Jd 6h"}):
        model, state = incan_gold_position(V, **position)
        solver = TurnSolver(model, max_states=None)
        solver.value(state)
        assert model.estimated_states(state) / 8 <= solver.states_solved() \
            <= 8 * model.estimated_states(state)


def test_a_level_solve_in_company_is_sized_by_its_own_share_of_the_estimate() -> None:
    """Float mode's level solve with others inside is sized (progress, refusal up front) at
    ``GROUP_LEVEL_SHARE`` of the model's estimate, which the recursion and exact mode keep;
    alone, the two are the same.  Four different thresholds after a first A♦: refused up
    front in exact mode (its memo's budget), and within the level budget in float mode."""
    from pushluck_teach.games.incan_gold import GROUP_LEVEL_SHARE
    from pushluck_teach.solve.levels import LEVEL_MAX_STATES
    from pushluck_teach.solve.turn import TooManyStates

    model, state = incan_gold_position(V, drawn="Ad", others="4,8,12,16")
    estimate = model.estimated_states(state)
    assert TurnSolver(model).estimated_states(state) == int(estimate * GROUP_LEVEL_SHARE)
    assert int(estimate * GROUP_LEVEL_SHARE) < LEVEL_MAX_STATES < estimate
    with pytest.raises(TooManyStates, match="exact mode"):
        TurnSolver(model, exact=True).analyse(state)
    solo, alone = incan_gold_position(V, round=3)
    assert TurnSolver(solo).estimated_states(alone) == solo.estimated_states(alone)


@pytest.mark.slow
def test_four_different_thresholds_are_answered_in_float_mode() -> None:
    """Refused up front before (its estimate, 6.3 million states, over the 5 million of the
    level budget): the level solve stores 1.6 million, so its share of the estimate was too
    high.  The value is the Bellman equation over the first flip, each next
    state read from the solved table, and the stored states are the share measured."""
    model, state = incan_gold_position(V, drawn="Ad", others="4,8,12,16")
    solver = TurnSolver(model)
    analysis = solver.analyse(state)
    stored = solver.states_solved()
    assert 0.5 < stored / solver.estimated_states(state) < 1.0
    pairs = model.transitions(state, DRAW)
    mean = sum(w * solver.value(nxt) for w, nxt in pairs) / sum(w for w, _ in pairs)
    assert abs(max(mean, analysis.ev_stop) - analysis.ev_optimal) < 1e-9
    assert solver.states_solved() == stored  # read from the table, nothing solved again


def test_the_round_start_in_company_is_the_group_model() -> None:
    """At the entrance every explorer enters, so the position the page and its command
    analyse names every other explorer (the group model), and its value is below the lone
    explorer's: a shared round never gives more than a lone one (each treasure is split)."""
    engine = SPEC.new_engine(V, players=4, seed=3)
    assert engine.legal_actions() == (DRAW,)
    assert engine.others_in_turn() == (1, 2, 3)
    flags = {**engine.position_flags(), "others": "10,10,30"}
    model, state = SPEC.position_from_flags(V, flags)
    assert isinstance(model, IncanGoldGroupModel) and state[0] == "start"
    assert state[5] == 0b111  # all three inside
    solo, alone = engine.turn_position()
    together = TurnSolver(model).value(state)
    assert 0 < together < TurnSolver(solo).value(alone)
    solo_engine = SPEC.new_engine(V, players=1, seed=3)
    assert solo_engine.others_in_turn() == ()


def test_large_rounds_in_company_are_tried_not_refused_up_front() -> None:
    """The table's four explorers (bots at 10, 10, 30) in round 5 with four traps out and all
    five artifacts in: the model's estimate (35 million) is over every budget, yet the level
    solve is tried (within its own budget) and sized at its share of the estimate;
    seven distinct low thresholds there (estimated at 494 million) are refused at once, in
    float and exact mode."""
    from pushluck_teach.games.incan_gold import GROUP_LEVEL_MAX_STATES, GROUP_LEVEL_SHARE
    from pushluck_teach.solve.turn import TooManyStates

    model, state = incan_gold_position(V, round=5, removed="5s 9s Ks 2s", drawn="Ad",
                                       others="10,10,30")
    solver = TurnSolver(model)
    assert model.estimated_states(state) > GROUP_LEVEL_MAX_STATES
    assert solver.estimated_states(state) == min(
        GROUP_LEVEL_MAX_STATES, int(model.estimated_states(state) * GROUP_LEVEL_SHARE))
    assert solver.level_max_states == GROUP_LEVEL_MAX_STATES
    assert solver._over_budget(state)[1] is None  # noqa: SLF001 - not refused up front
    huge, start = incan_gold_position(V, round=5, removed="5s 9s Ks 2s", drawn="Ad",
                                      others="1,2,3,4,5,6,7")
    for exact in (False, True):
        with pytest.raises(TooManyStates):
            TurnSolver(huge, exact=exact).analyse(start)


def test_group_positions_are_described_in_plain_words() -> None:
    """The coach's description of a group position names the others' rule, not symbols."""
    model, state = incan_gold_position(V, others="10,10,30")
    assert model.describe(state) == ("round start: you and 3 other explorers enter; they leave "
                                     "once carrying 10, 10 and 30 gems")
    model, state = incan_gold_position(V, drawn="Kd 9d JK", others="5,30")
    # K♦ 13 among three: 4 each, 1 on the path; 9♦: 3 each (7 carried); the explorer at 5
    # leaves alone and takes the path; the joker 15 between two: 7 each (14), 1 on the path
    assert model.describe(state) == (
        "you and another explorer (1 left before) are inside carrying 14 gems each; it leaves "
        "once carrying 30 gems; path 1 gem, artifacts on the path worth 0")
