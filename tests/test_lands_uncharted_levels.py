"""Lands Uncharted: the table-driven draw and the NumPy level graph against second
methods.  The draw is compared, state by state, with the plain draw kept verbatim in
``tests/lands_uncharted_reference.py``; the level graph's batched transitions with the model's
own; and the level-by-level solve with the pure-Python recursion (``levels=False``) and with
today's plain memoised recursion (``benchmarks/baseline_turn_solver.py``)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lands_uncharted_reference import reference_draw
from reachable_states import solver_states

from pushluck_teach.cards import parse_cards, standard_cards
from pushluck_teach.games.base import STOP
from pushluck_teach.games.lands_uncharted import (
    CURSED_NAMES,
    START,
    LandsUnchartedTurnModel,
    LandsUnchartedVariant,
    pack_counts,
)
from pushluck_teach.solve.turn import TurnSolver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import baseline_turn_solver as baseline  # noqa: E402

ALL = {"buried_treasure": True, "double_or_nothing": True, "cursed_idol": CURSED_NAMES}
# 36 cards out (in the discard pile): a 16-card draw pile, so turns reshuffle.
SHORT = ("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Kh Qs 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Kc Ac "
         "2d 3d 4d 5d 6d 7d 8d 9d 10d Jd Kd Ad")
# 25 cards out: a 27-card pile, and with allies held a long turn can still reshuffle.
MIDDLE = "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Kh 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Kc 2d 3d 4d"


def turn(options: dict[str, Any], *, allies: int = 0, score: int | None = None,
         removed: str = "", elsewhere: int = 0) -> tuple[LandsUnchartedTurnModel, Any]:
    """A turn start as the engine builds it (``score``: double or nothing may be declared)."""
    variant = LandsUnchartedVariant(**options)
    suits = variant.cursed_suits
    pile = (pack_counts(standard_cards(), suits) - pack_counts(parse_cards(removed), suits)
            - allies - elsewhere)
    return LandsUnchartedTurnModel.build(variant, (pile, 0, 0, allies, START, 0),
                                         aces_elsewhere=elsewhere, score=score)


def reachable(model: LandsUnchartedTurnModel, start: Any) -> list[Any]:
    """Every decision state the solver can visit from ``start``."""
    return solver_states(model, start, lambda state: len(state) == 6)


SLOW = pytest.mark.slow  # each solves a large turn with two solvers
POSITIONS = [
    ({}, {"removed": SHORT, "allies": 1}),
    ({"cursed_idol": ("clubs",), "buried_treasure": True}, {"removed": SHORT, "allies": 2}),
    (ALL, {"removed": SHORT, "allies": 1, "elsewhere": 1}),
    pytest.param({"cursed_idol": ("spades",)}, {"removed": MIDDLE, "allies": 2}, marks=SLOW),
    pytest.param({"cursed_idol": ("diamonds", "hearts")}, {"removed": MIDDLE, "allies": 1},
                 marks=SLOW),
    pytest.param(ALL, {"removed": MIDDLE + " Qh Qd Qc", "score": 95, "allies": 1}, marks=SLOW),
    pytest.param(ALL, {"removed": MIDDLE, "score": 93, "allies": 2}, marks=SLOW),
    pytest.param({"cursed_idol": ("spades",), "double_or_nothing": True},
                 {"removed": MIDDLE, "score": 90}, marks=SLOW),
]


@pytest.mark.parametrize(("options", "where"), POSITIONS)
def test_draw_and_level_graph_agree_with_the_plain_draw(options: dict[str, Any],
                                                        where: dict[str, Any]) -> None:
    model, start = turn(options, **where)
    graph = model.level_graph()
    states = reachable(model, start)
    assert len(states) > 500
    codes = np.array([graph.code(s) for s in states], dtype=np.int64)
    assert [graph.state(int(c)) for c in codes] == states
    stop_values = graph.stop_value(codes)
    proved = graph.stop_is_optimal(codes)
    levels = graph.level(codes)
    for i, state in enumerate(states):
        for action in model.actions(state):
            if action != STOP:
                continue
            (_, banked), = model.transitions(state, STOP)
            assert model.stop_payoff(state) == banked[0] == stop_values[i]
            assert bool(proved[i]) == model.stop_is_optimal(state)
        if STOP not in model.actions(state):
            assert model.stop_payoff(state) is None and math.isnan(stop_values[i])
        assert model._draw(state) == reference_draw(model, state)
        assert graph.level(int(codes[i])) == levels[i]
    for action in graph.actions[1:]:
        legal, weights, successors = graph.transitions(codes, action)
        for i, state in enumerate(states):
            assert bool(legal[i]) == (action in model.actions(state))
            if not legal[i]:
                continue
            slots = [(int(w), int(c)) for w, c in zip(weights[i], successors[i], strict=True)
                     if w > 0]
            assert [(w, graph.state(c)) for w, c in slots] == model.transitions(state, action)
            assert all(graph.level(c) > levels[i] for _, c in slots if c >= 0)


@pytest.mark.parametrize(("options", "where"), POSITIONS)
def test_level_solve_equals_the_recursion(options: dict[str, Any],
                                          where: dict[str, Any]) -> None:
    model, start = turn(options, **where)
    arrays = TurnSolver(model)
    plain = TurnSolver(model, levels=False)
    assert arrays.analyse(start) == plain.analyse(start)
    old = baseline.TurnSolver(model).analyse(start)
    assert arrays.analyse(start).as_dict() == old.as_dict()
    states = reachable(model, start)
    for state in states[:: max(1, len(states) // 3000)]:
        a, b = arrays.value(state), plain.value(state)
        assert a == pytest.approx(b, rel=1e-9, abs=1e-12)
        assert arrays.best_action(state) == plain.best_action(state)


def test_the_pure_python_path_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser build has no NumPy: no level graph, the recursion answers alone."""
    model, start = turn(ALL, removed=SHORT, allies=1)
    expected = TurnSolver(model).analyse(start)
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert model.level_graph() is None
    assert TurnSolver(model).analyse(start) == expected
