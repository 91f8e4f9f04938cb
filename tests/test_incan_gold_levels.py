"""Incan Gold in company on the level path: the decisions where another explorer leaves now
are valued inline from a chance node shared by every path and artifact value that leaves the
same (module docstring, "Merged decisions").  Checked against the plain recursion, which knows
nothing of the merge: every state it solves has the same float value bit for bit and the same
best action, on hard positions (thresholds 1-7 and 5, 10, 15; rounds 1-2; 2-8 explorers) and on
random small ones, and the exact fractions agree with the floats."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pushluck_teach.games.base import DRAW, PositionError
from pushluck_teach.games.incan_gold import (
    IncanGoldVariant,
    incan_gold_position,
    round_deck,
)
from pushluck_teach.solve.turn import TurnSolver

V = IncanGoldVariant()


def assert_level_solve_is_the_recursion(position: dict) -> int:
    """Every state the plain recursion solves has the level path's value, bit for bit, and
    its best action; returns how many states were compared.  The level path's answers are read
    for all the states at once (``LevelTable.answers``: stored states from the table, proved
    stops and inline decisions as the solve values them), and for a sample one by one through
    the solver, as a page reads them; the codes decode to the states they came from."""
    model, state = incan_gold_position(V, **position)
    graph = model.level_graph()
    assert graph is not None
    arrays = TurnSolver(model, max_states=None)
    plain = TurnSolver(model, max_states=None, levels=False)
    assert arrays._solve_levels(state)  # noqa: SLF001 - on arrays whatever its size
    assert arrays.analyse(state).as_dict() == plain.analyse(state).as_dict()
    solved = plain.solved_values()
    states = [s for s in solved if s[0] != "end"]
    codes = np.array([graph.code(s) for s in states], dtype=np.int64)
    assert [graph.state(int(code)) for code in codes] == states
    table = arrays.level_table(state)
    assert table is not None
    values, best = table.answers(graph, codes)
    wrong = [(s, solved[s], value) for s, value in zip(states, values.tolist(), strict=True)
             if value != solved[s]]  # the same sums in the same order
    assert wrong == [], wrong[:3]
    wrong = [(s, plain.best_action(s)) for s, action in zip(states, best.tolist(), strict=True)
             if graph.actions[action] != plain.best_action(s)]
    assert wrong == [], wrong[:3]
    for s in states[::max(1, len(states) // 2_000)]:
        assert arrays.value(s) == solved[s], s
        assert arrays.best_action(s) == plain.best_action(s), s
    return len(states)


QUICK_POSITIONS = [
    {"drawn": "Ad Kd", "others": "1,2,3"},
    {"drawn": "Ad 5d 7s 9d", "others": "2,4,6"},
    {"round": 2, "drawn": "Kd Jh 4h 9s", "others": "5,10"},
]
HARD_POSITIONS = [
    {"round": 2, "drawn": "Kd Jh", "others": "5,10"},
    {"drawn": "3d 5s 9h Ah", "others": "1,3,5,7"},
    {"drawn": "Ad 3d 5d 7d 9d", "others": "1,2,3,4,5,6,7"},
    {"drawn": "Ad 9h 3s 5d", "others": "5,10,15"},
    {"round": 2, "drawn": "6h JK 3d 7d", "others": "5,10,15"},
]


@pytest.mark.parametrize("position", QUICK_POSITIONS, ids=lambda p: " ".join(
    f"{k}={v}" for k, v in p.items()))
def test_small_positions_in_company_are_the_recursion(position: dict) -> None:
    assert assert_level_solve_is_the_recursion(position) > 1000


@pytest.mark.slow
@pytest.mark.parametrize("position", HARD_POSITIONS, ids=lambda p: " ".join(
    f"{k}={v}" for k, v in p.items()))
def test_hard_positions_in_company_are_the_recursion(position: dict) -> None:
    assert assert_level_solve_is_the_recursion(position) > 10_000


def test_exact_fractions_agree_with_the_level_floats() -> None:
    """Exact mode solves by the recursion in fractions; the level path's floats are those
    values rounded (within a few units in the last place)."""
    model, state = incan_gold_position(V, drawn="Ad 5d 7s 9d", others="2,4,6")
    exact = TurnSolver(model, exact=True, max_states=None).analyse(state)
    arrays = TurnSolver(model, max_states=None)
    assert arrays._solve_levels(state)  # noqa: SLF001
    floats = arrays.analyse(state)
    assert floats.ev_optimal == pytest.approx(float(exact.ev_optimal), rel=1e-12)
    for action, value in exact.action_values.items():
        assert floats.action_values[action] == pytest.approx(float(value), rel=1e-12)
    assert floats.best_action == exact.best_action


def test_path_and_artifacts_matter_only_through_what_leaving_banks() -> None:
    """The merge's claim, on the plain recursion alone: at a decision where the explorer at 10
    leaves now (carrying 10) and the one at 15 stays, the path and the artifacts on it matter
    only through what leaving together banks (half the path, rounded down; the lone leaver
    takes the artifacts if you stay).  Paths 2 and 3 (with or without an artifact of 4) have
    one value (staying is worth more than the 11 leaving banks); a path of 30 makes leaving
    (25) worth more than staying, and that is the value."""
    model, start = incan_gold_position(V, drawn="Kd 5s", others="10,15")
    plain = TurnSolver(model, exact=True, max_states=None, levels=False)
    struct, tcode, amask = start[1:4]

    def value(path: int, arts: int) -> object:
        return plain.value(("in", struct, tcode, amask, 10, 0b11, path, arts))

    assert value(2, 0) == value(3, 0) == value(3, 4) == value(2, 4)
    assert 11 < value(2, 0) < 25 == value(30, 4)


@st.composite
def small_positions(draw: st.DrawFn) -> dict:
    """A round 1-2 after 3-6 random flips, with 1-3 other explorers at thresholds 0-15 (the
    others still inside after a few flips: most thresholds above what they carry)."""
    round_no = draw(st.integers(1, 2))
    cards = list(round_deck(V, (), round_no).cards())
    random.Random(draw(st.integers(0, 10**6))).shuffle(cards)
    flips = cards[:draw(st.integers(3, 6))]
    thresholds = draw(st.lists(st.integers(0, 15), min_size=1, max_size=3))
    return {"round": round_no, "drawn": " ".join(card.code for card in flips),
            "others": ",".join(map(str, thresholds))}


# (many draws spring a trap or are too large: most examples are filtered out)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_positions())
def test_random_small_positions_in_company_are_the_recursion(position: dict) -> None:
    try:
        model, state = incan_gold_position(V, **position)
    except PositionError:  # a trap sprang among the flips: the round is over
        assume(False)
        return
    assume(state[0] != "end" and model.estimated_states(state) < 60_000)
    assume(DRAW in model.actions(state))
    assert_level_solve_is_the_recursion(position)
