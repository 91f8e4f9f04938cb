"""Solver memos estimated in bytes, and a solver cache bounded by a byte budget
(behaviour: which solvers it keeps and evicts; no timings)."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.captain_seven import CaptainSevenVariant
from pushluck_teach.games.pig import PigTurnModel, PigVariant
from pushluck_teach.solve import cache as solver_cache
from pushluck_teach.solve import levels, turn
from pushluck_teach.solve.cache import MemorySolverCache, mapping_bytes, memo_bytes
from pushluck_teach.solve.turn import TurnSolver


def pig(sides: int) -> PigTurnModel:
    return PigTurnModel(PigVariant(die_sides=sides))


def test_the_estimate_is_near_what_the_allocator_measures() -> None:
    """A memo of tuple keys and float values: the estimate is within a factor of two of the
    bytes tracemalloc sees allocated for it (a second method)."""
    gc.collect()
    tracemalloc.start()
    memo = {(i << 70, i % 7, "x", i): float(i) + 0.5 for i in range(50_000)}
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    estimate = mapping_bytes(memo)
    assert held / 2 < estimate < held * 2
    assert mapping_bytes(memo, keys=False) < estimate / 2  # the keys are most of it
    assert mapping_bytes({}) == 0


def test_memo_bytes_grows_with_the_states_solved() -> None:
    small, large = TurnSolver(pig(6), shipped=False), TurnSolver(pig(20), shipped=False)
    assert memo_bytes(small) == 0
    small.analyse()
    large.analyse()
    assert 0 < memo_bytes(small) < memo_bytes(large)
    assert memo_bytes(large) > 50 * large.states_solved()  # a key, a value, two dict entries


def test_the_cache_evicts_the_least_recently_used_above_its_byte_budget() -> None:
    first, second = pig(10), pig(12)
    sizes = []
    for model in (first, second):
        probe = TurnSolver(model, shipped=False)
        probe.analyse()
        sizes.append(memo_bytes(probe))
    budget = int(max(sizes) * 1.2)
    assert sum(sizes) > budget  # each fits alone, not both
    cache = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                              max_bytes=budget)
    cache.get(first).analyse()
    assert cache.bytes() == sizes[0]
    cache.get(second).analyse()  # both memos now exceed the budget together
    kept = cache.get(second)  # the next request trims: the oldest (first) goes
    assert len(cache) == 1 and cache.get(second) is kept
    assert cache.bytes() <= memo_bytes(kept)
    again = cache.get(first)  # a new, cold solver for the evicted model
    assert again.states_solved() == 0
    assert len(cache) == 2  # the cold one holds nothing yet: both fit


def test_the_solver_asked_for_stays_even_alone_above_the_budget() -> None:
    cache = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                              max_bytes=1)
    solver = cache.get(pig(8))
    solver.analyse()
    assert cache.get(pig(8)) is solver
    cache.get(pig(9))
    assert len(cache) == 1 and cache.get(pig(9)) is not solver


def test_the_cache_is_bounded_by_count_too() -> None:
    cache = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                              max_solvers=3)
    for sides in range(4, 10):
        cache.get(pig(sides))
    assert len(cache) == 3
    cache.clear()
    assert len(cache) == 0 and cache.bytes() == 0


def _count_releases(monkeypatch: pytest.MonkeyPatch, module: object) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(module, "release_memory", lambda: calls.append(1) or True)
    return calls


def test_shrink_applies_the_budget_to_a_memo_grown_after_it_was_asked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve fills its memo after ``get``: ``shrink`` evicts the older solvers then (the most
    recent stays) and hands the freed memory back; within the budget it evicts nothing."""
    calls = _count_releases(monkeypatch, solver_cache)
    cache = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                              max_bytes=10**9)
    older = cache.get(pig(10))
    older.analyse()
    newest = cache.get(pig(12))
    newest.analyse()
    assert cache.shrink() == 0 and len(cache) == 2 and calls == []
    cache.max_bytes = memo_bytes(newest) + memo_bytes(older) // 2  # both no longer fit
    assert cache.shrink() == 1
    assert len(cache) == 1 and cache.get(pig(12)) is newest
    assert cache.bytes() <= cache.max_bytes
    assert calls == [1]  # released once, after the eviction


def test_an_eviction_by_get_releases_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_releases(monkeypatch, solver_cache)
    cache = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                              max_bytes=1)
    cache.get(pig(8)).analyse()
    assert calls == []
    cache.get(pig(9))
    assert len(cache) == 1 and calls == [1]


def test_release_memory_is_safe_to_call() -> None:
    """glibc's malloc_trim where the C library has it, else a no-op: either way it returns."""
    assert solver_cache.release_memory() in (True, False)


def test_a_level_solve_shrinks_the_shared_cache_and_releases_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a level-by-level solve the shared cache applies its budget again (the new table
    may have taken it over) and the solve's freed arrays are handed back."""
    model, state = get_game("captain-seven").position(CaptainSevenVariant(relics=True),
                                                      relic="K", drawn="3h")
    assert model.estimated_states(state) >= levels.LEVEL_MIN_STATES  # the array path is used
    shared = MemorySolverCache(TurnSolver, max_bytes=10**9)
    monkeypatch.setattr(turn, "_SHARED", shared)
    releases = _count_releases(monkeypatch, turn)
    shrinks: list[int] = []
    real_shrink = shared.shrink
    monkeypatch.setattr(shared, "shrink", lambda: shrinks.append(1) or real_shrink())
    solver = turn.cached_solver(model)
    solver.analyse(state)
    assert isinstance(solver.solved_values(), levels.LevelMemo)
    assert shrinks == [1] and releases == [1]  # nothing evicted: released by the solver
    solver.analyse(state)  # answered from the table: no second solve, nothing to release
    assert shrinks == [1] and releases == [1]


def test_a_dict_growing_beside_a_level_table_is_estimated_again() -> None:
    """A level memo's dict entries cost far more than its table's states: the cache's estimate
    follows the dict's growth even while the memo's state count grew by less than half."""
    import numpy as np

    memo = levels.LevelMemo(graph=None)
    codes = np.arange(10_000, dtype=np.int64)
    memo.add(levels.LevelTable(("stop", "draw"), {0: (codes, codes * 0.5,
                                                      np.zeros(10_000, np.int8))}))
    memo[("a", 0)] = 0.5
    solver = TurnSolver(pig(6), shipped=False, seed=memo)
    cache = MemorySolverCache(lambda m, exact: solver)
    cache.get(pig(6))
    before = cache.bytes()
    for i in range(4_000):  # 40 % more states in all, 4,000 times more dict entries
        memo[("a", i)] = i + 0.5
    assert cache.bytes() == memo_bytes(solver) > before + 4_000 * 50


def test_a_level_solve_makes_room_in_the_shared_cache_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before a level solve the shared cache evicts its least recently used solvers until the
    budget also holds the solve's expected peak (estimate x LEVEL_PEAK_BYTES_PER_STATE), so
    the peak is not on top of a full cache; the solver that solves stays."""
    model, state = get_game("captain-seven").position(CaptainSevenVariant(relics=True),
                                                      relic="K", drawn="3h")
    old, recent = pig(10), pig(12)
    sizes = []
    for pig_model in (old, recent):
        probe = TurnSolver(pig_model, shipped=False)
        probe.analyse()
        sizes.append(memo_bytes(probe))
    needed = TurnSolver(model).estimated_states(state) * levels.LEVEL_PEAK_BYTES_PER_STATE
    # room for the solve and the recent Pig memo, not both Pig memos
    shared = MemorySolverCache(lambda m, exact: TurnSolver(m, exact=exact, shipped=False),
                               max_bytes=needed + sizes[1] + sizes[0] // 2)
    monkeypatch.setattr(turn, "_SHARED", shared)
    monkeypatch.setattr(shared, "shrink", lambda: 0)  # only the room made before is seen
    shared.get(old).analyse()
    shared.get(recent).analyse()
    solver = shared.get(model)
    assert len(shared) == 3  # nothing solved for it yet: all three fit
    solver.analyse(state)
    assert isinstance(solver.solved_values(), levels.LevelMemo)
    kept = list(shared._solvers)  # noqa: SLF001
    assert (old, False) not in kept and (recent, False) in kept and (model, False) in kept
    assert shared.make_room(10**12, keep=solver) == 1  # all but the solver itself
    assert list(shared._solvers) == [(model, False)]  # noqa: SLF001
