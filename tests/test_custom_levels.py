"""The variant lab's built games: the NumPy level graph of a card turn against the
model's own transitions, state by state, and the level-by-level solve against the pure-Python
recursion (``levels=False``) and today's plain recursion (``benchmarks/baseline_turn_solver``)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from reachable_states import solver_states

from pushluck_teach.games.base import STOP
from pushluck_teach.games.custom import (
    BUILT_GAMES,
    CardSet,
    CountRule,
    CustomTurnModel,
    RuleSet,
    custom_position,
)
from pushluck_teach.solve.turn import TurnSolver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import baseline_turn_solver as baseline  # noqa: E402

FACES = CardSet(ranks=("J", "Q", "K"))
MIXED = RuleSet(  # every part at once: a total limit, an ending, counts, allies, a penalty
    name="Mixed", jokers=1, bust_over=40, bust_ending=3, first_draw_safe=True,
    bust_counts=(CountRule(kind=FACES, n=2),
                 CountRule(kind=CardSet(suits=("h",)), n=4),
                 CountRule(kind=CardSet(ranks=("2", "3", "4", "5")), n=2, per_rank=True)),
    allies=CardSet(ranks=("A",)), bank_minimum=8, bonus_total=21, bonus=5, bust_penalty=3,
    reshuffle_each_turn=False,
)
POSITIONS: list[Any] = [
    (BUILT_GAMES["hit-list"], {"drawn": "3c"}),
    (BUILT_GAMES["hit-list"], {}),
    pytest.param(BUILT_GAMES["captain-seven"], {"drawn": "Kh Qs 9c 5d"}, marks=pytest.mark.slow),
    # (earlier in these turns the lab refuses the mix: hundreds of millions of states)
    pytest.param(MIXED, {"drawn": "2h 10c 9d 8s 7c"}, marks=pytest.mark.slow),
    pytest.param(MIXED, {"removed": "Ah As 10c 10d 10h 10s Kc Kd 9c 9d", "allies": 1,
                         "drawn": "2h 9h 8s"}, marks=pytest.mark.slow),
    pytest.param(BUILT_GAMES["captain-seven"], {"drawn": "Kh 2c"}, marks=pytest.mark.slow),
]


def reachable(model: CustomTurnModel, start: Any) -> list[Any]:
    return solver_states(model, start, lambda state: type(state) is not tuple)


# The mixed rule set's states do not fit the graph's 62 bits (the solve falls back to the
# recursion: test_level_solve_equals_the_recursion covers it); the graph is compared where used.
GRAPH_POSITIONS = [p for p in POSITIONS if getattr(p, "values", p)[0] is not MIXED]


@pytest.mark.parametrize(("rules", "where"), GRAPH_POSITIONS)
def test_level_graph_agrees_with_the_model(rules: RuleSet, where: dict[str, Any]) -> None:
    model, start = custom_position(rules, **where)
    graph = model.level_graph()
    states = reachable(model, start)
    assert len(states) > 200
    codes = np.array([graph.code(s) for s in states], dtype=np.int64)
    terminal = graph.is_terminal(codes)
    stop_values, proved = graph.stop_value(codes), graph.stop_is_optimal(codes)
    payoffs = graph.payoff(codes)
    levels = graph.level(codes)
    legal, weights, successors = graph.transitions(codes, "draw")
    for i, state in enumerate(states):
        actions = model.actions(state)
        assert bool(terminal[i]) == (not actions)
        if not actions:
            assert payoffs[i] == model.payoff(state)
            continue
        if STOP in actions:
            (_, banked), = model.transitions(state, STOP)
            assert stop_values[i] == banked[0]
            assert bool(proved[i]) == model.stop_is_optimal(state)
        else:
            assert math.isnan(stop_values[i])
        assert bool(legal[i]) == ("draw" in actions)
        if legal[i]:
            slots = [(int(w), int(c)) for w, c in zip(weights[i], successors[i], strict=True)
                     if w > 0]
            assert [(w, graph.state(c)) for w, c in slots] == model.transitions(state, "draw")
            assert all(graph.level(c) > levels[i] for _, c in slots if c >= 0)


@pytest.mark.parametrize(("rules", "where"), POSITIONS)
def test_level_solve_equals_the_recursion(rules: RuleSet, where: dict[str, Any]) -> None:
    model, start = custom_position(rules, **where)
    arrays, plain = TurnSolver(model), TurnSolver(model, levels=False)
    assert arrays.analyse(start) == plain.analyse(start)
    assert arrays.analyse(start).as_dict() == baseline.TurnSolver(model).analyse(start).as_dict()
    states = reachable(model, start)
    for state in states[:: max(1, len(states) // 2000)]:
        assert arrays.value(state) == pytest.approx(plain.value(state), rel=1e-9, abs=1e-12)
        assert arrays.best_action(state) == plain.best_action(state)


def test_dice_wide_states_and_no_numpy_keep_the_recursion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert custom_position(BUILT_GAMES["pig"])[0].level_graph() is None
    # the built Lands Uncharted packs its state in 72 bits and more: no int64 code
    wide, where = custom_position(BUILT_GAMES["lands-uncharted"], drawn="5h Ac 9d")
    assert wide.level_graph().code(where) is None
    assert TurnSolver(wide).analyse(where) == TurnSolver(wide, levels=False).analyse(where)
    model, start = custom_position(BUILT_GAMES["hit-list"], drawn="3c 9d")
    expected = TurnSolver(model).analyse(start)
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert model.level_graph() is None
    assert TurnSolver(model).analyse(start) == expected
