"""The turn solver without unbounded recursion, its state budget and refusals, its
bounded cache, and exact agreement with today's solver (the plain memoised recursion kept in
``benchmarks/baseline_turn_solver.py``, a second implementation) on many positions."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel
from pushluck_teach.solve import speedups
from pushluck_teach.solve.turn import TooManyStates, TurnSolver

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import baseline_turn_solver as baseline  # noqa: E402

# (game, variant options, position keywords): turn starts and positions of every game and
# option family; random walks from each add the positions the test compares.
SLOW = pytest.mark.slow  # the bigger turns: about 4 minutes together on a loaded machine
STARTS: list[Any] = [
    ("pig", {}, {}),
    ("pig", {"die_sides": 10}, {"drawn": "4 9"}),
    ("captain-seven", {}, {"drawn": "5h 9s"}),
    pytest.param("captain-seven", {}, {"drawn": "Kh 2c"}, marks=SLOW),
    pytest.param("captain-seven", {"relics": True}, {"relic": "A", "drawn": "Kh Qd 6c"},
                 marks=SLOW),
    ("captain-seven", {"relics": True}, {"relic": "K", "drawn": "9h 9d"}),
    ("captain-seven", {"relics": True}, {"relic": "Q", "drawn": "Kh Kd Ks Kc Jh Jd"}),
    pytest.param("captain-seven", {"relics": True},
                 {"relic": "J", "drawn": "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd Qs 9h"},
                 marks=SLOW),
    ("incan-gold", {}, {"drawn": "5h Ks"}),
    pytest.param("incan-gold", {}, {"drawn": "Ah 3s Kh 9d", "round": 3}, marks=SLOW),
    pytest.param("incan-gold", {}, {"drawn": "9d 5h Ks 3h", "others": "5,10"}, marks=SLOW),
    ("hit-list", {}, {}),
    ("hit-list", {"soft_aces": True, "ghost": True}, {"drawn": "Ah"}),
    ("hit-list", {"long_haul": True, "one_last_job": True, "bad_life": True}, {"drawn": "9c"}),
    ("lands-uncharted", {}, {"drawn": "5h"}),
    ("lands-uncharted", {"buried_treasure": True, "double_or_nothing": True},
     {"drawn": "7h 2c"}),
    pytest.param("lands-uncharted", {"cursed_idol": ("spades", "hearts", "diamonds", "clubs")},
                 {"drawn": "9h 3c", "allies": 1}, marks=SLOW),
]


def _walk_positions(model: TurnModel[Any], start: Any, rng: random.Random, walks: int
                    ) -> list[Any]:
    """Decision states met on random walks from ``start`` (random actions other than stop,
    outcomes drawn with their weights)."""
    found = [start]
    for _ in range(walks):
        state = start
        while True:
            actions = model.actions(state)
            moves = [a for a in actions if a != STOP]
            if not moves:
                break
            pairs = model.transitions(state, rng.choice(moves))
            state = rng.choices([s for _, s in pairs], [w for w, _ in pairs])[0]
            if model.actions(state):
                found.append(state)
    return list(dict.fromkeys(found))


def _answers(solver: Any, state: Any) -> tuple[Any, ...]:
    analysis = solver.analyse(state)
    outcomes = tuple((o.probability, o.label, o.busted, o.total_after)
                     for o in solver.next_outcomes(state))
    return (analysis.as_dict(), dict(analysis.action_values), analysis.turn_total,
            solver.p_bust_next(state), outcomes)


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
@pytest.mark.parametrize(("game", "options", "position"), STARTS,
                         ids=[f"start{i}" for i in range(len(STARTS))])
def test_new_solver_equals_todays_solver_everywhere(game: str, options: dict[str, Any],
                                                    position: dict[str, Any],
                                                    exact: bool) -> None:
    """Every answer, float or exact, is identical (not approximately: equal) to the plain
    memoised recursion's, at the start and at every position of 25 random walks; so is the
    turn's result distribution, except that a float one pushed forward on arrays adds its
    chances in another order (the same results, each chance to 1e-12)."""
    spec = get_game(game)
    model, start = spec.position(spec.variant_cls(**options), **position)
    new, old = TurnSolver(model, exact=exact), baseline.TurnSolver(model, exact=exact)
    states = _walk_positions(model, start, random.Random(9), walks=25)
    assert len(states) > 3
    for state in states:
        assert _answers(new, state) == _answers(old, state), model.describe(state)
    distribution, walked = new.distribution(start), old.distribution(start)
    if exact:
        assert distribution == walked
    else:
        assert list(distribution) == list(walked)
        assert all(distribution[r] == pytest.approx(walked[r], abs=1e-12) for r in walked)


# ---- no recursion limit ------------------------------------------------------------------------


@dataclass(frozen=True)
class Ladder(TurnModel[int]):
    """A turn of ``rungs`` forced draws, each from rung k to rung k+1; the last rung busts
    (payoff 0) with weight 1 and banks ``rungs`` with weight 3.  Hand count: the start is worth
    ``3/4 · rungs`` and busts with probability 1/4; every draw before the last is forced."""

    rungs: int = 25_000

    @property
    def start(self) -> int:
        return 0

    def actions(self, state: int) -> tuple[str, ...]:
        return () if state < 0 else (DRAW,)

    def transitions(self, state: int, action: str) -> list[tuple[int, int]]:
        if state + 1 < self.rungs:
            return [(1, state + 1)]
        return [(1, -1), (3, -2)]

    def payoff(self, terminal: int) -> int:
        return 0 if terminal == -1 else self.rungs

    def is_bust(self, terminal: int) -> bool:
        return terminal == -1

    def turn_total(self, state: int) -> int:
        return 0

    def is_forced(self, state: int) -> bool:
        return state > 0


@pytest.mark.parametrize("exact", [False, True])
def test_a_turn_far_deeper_than_the_recursion_limit_is_solved(exact: bool) -> None:
    model = Ladder()
    assert model.rungs > 2 * sys.getrecursionlimit()
    with pytest.raises(RecursionError):  # today's solver (its limit is 20,000 frames)
        baseline.TurnSolver(model, exact=exact).value()
    solver = TurnSolver(model, exact=exact)
    analysis = solver.analyse()
    assert analysis.ev_optimal == Fraction(3, 4) * model.rungs
    assert analysis.p_bust_next == Fraction(1, 4)  # forced draws all the way to the last rung
    assert analysis.ev_draw_once == Fraction(3, 4) * model.rungs
    assert solver.states_solved() == model.rungs + 2


# ---- budget and refusal with an estimate -----------------------------------------------------


def test_a_huge_position_is_refused_up_front_with_an_estimate() -> None:
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(relics=True), drawn="7h", relic="Q")
    solver = TurnSolver(model, exact=True)
    begin = time.perf_counter()
    with pytest.raises(TooManyStates) as refused:
        solver.analyse(state)
    assert time.perf_counter() - begin < 0.5
    assert solver.states_solved() == 0  # nothing was attempted
    message = str(refused.value)
    assert "about" in message and " s in exact mode" in message
    assert "later in the turn" in message and "max_states=None" in message
    assert isinstance(refused.value, PositionError)


def test_the_cli_answers_the_jack_relic_turn_start_at_once_and_refuses_a_larger_turn() -> None:
    """The jack relic's turn start (12.4 million stored states) is answered from the shipped
    start values; an Incan Gold position with seven other explorers at seven low thresholds
    in round 5 with the largest deck (estimated at 309 million stored states, twenty times the
    group's budget) is refused in one line, at once."""
    def odds(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
        begin = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", "odds", *args],
                              capture_output=True, text=True, check=False, timeout=60)
        return done, time.perf_counter() - begin

    done, seconds = odds("captain-seven", "--relic", "J", "--option", "relics=true")
    assert done.returncode == 0 and seconds < 60, done.stderr  # start-up on a loaded machine
    assert "EV under optimal play            34.80989" in done.stdout
    refused, seconds = odds("incan-gold", "--round", "5", "--removed", "5s 9s Ks 2s",
                            "--drawn", "Ad", "--others", "1,2,3,4,5,6,7")
    assert refused.returncode == 2 and seconds < 60
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "solver states" in lines[0] and "Traceback" not in refused.stderr


def test_a_solve_larger_than_the_budget_stops_at_the_budget() -> None:
    """A model without an estimate (Lands Uncharted: 15,395 states from the turn start)."""
    spec = get_game("lands-uncharted")
    model, state = spec.position(spec.variant_cls())
    assert speedups.estimated_states(model, state) is None
    # The recursion's backstop (a level graph stops at the budget itself: tests/test_levels.py)
    solver = TurnSolver(model, max_states=2_000, levels=False)  # stopped at four times that
    with pytest.raises(TooManyStates, match="more than 8,000 solver states"):
        solver.value(state)
    assert solver.states_solved() <= 8_001


def test_estimates_are_within_a_factor_three_of_measured_solves() -> None:
    """The estimates behind the refusals, against solves counted here (from the turn start,
    and with a queen relic at total 50)."""
    spec = get_game("captain-seven")
    cases = [(spec.variant_cls(), {}),
             (spec.variant_cls(relics=True), {"relic": "Q", "drawn": "Kh Kd Ks Kc Jh"})]
    for variant, position in cases:
        model, state = spec.position(variant, **position)
        solver = TurnSolver(model, levels=False, shipped=False)  # the recursion's count
        solver.value(state)
        estimate = model.estimated_states(state)
        assert estimate is not None
        assert solver.states_solved() / 3 <= estimate <= 3 * solver.states_solved()


# ---- the shipped Captain Seven table -------------------------------------------------------


def test_the_shipped_captain_seven_table_gives_exactly_a_solves_answers() -> None:
    """Every no-relic Captain Seven turn (any target, relics option on or off) starts from the
    shipped values; the answers equal a solve without the table, bit for bit."""
    spec = get_game("captain-seven")
    for options, drawn in (({}, None), ({"target": 150}, "5h 9s"), ({"relics": True}, "Kh 2c")):
        model, start = spec.position(spec.variant_cls(**options), drawn=drawn)
        seeded = TurnSolver(model)
        assert seeded.states_seeded() >= 361_805  # the shared table grows as solvers add states
        solved = TurnSolver(model, shipped=False)
        for state in _walk_positions(model, start, random.Random(3), walks=10):
            assert _answers(seeded, state) == _answers(solved, state)
    relic_model, _ = spec.position(spec.variant_cls(relics=True), relic="A")
    assert TurnSolver(relic_model).states_seeded() == 0  # another state space: no table


def test_a_table_that_breaks_the_bellman_equation_is_not_used() -> None:
    from pushluck_teach.solve.turn_tables import ShippedTable, _bellman_holds

    spec = get_game("captain-seven")
    model, start = spec.position(spec.variant_cls())
    table = TurnSolver(model).solved_values()  # the shipped table, as loaded
    assert isinstance(table, ShippedTable)
    assert _bellman_holds(model, start, table)
    broken = ShippedTable(table.states, table.values.copy())
    broken.values[int(broken.states.searchsorted(start))] += 1e-9
    assert not _bellman_holds(model, start, broken)
    assert not _bellman_holds(model, start, table.without(start))  # a table without its start


def test_a_start_values_table_whose_check_position_fails_is_not_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The jack relic's shipped start values are used only if the family's check position
    (total 120, solved again on loading) gives its shipped value bit for bit."""
    from pushluck_teach.solve import cache, turn_tables

    spec = get_game("captain-seven")
    model, _ = spec.position(spec.variant_cls(relics=True), relic="J")
    assert turn_tables.shipped_start_values(model) is not None
    key = speedups.start_values_key(model)
    assert key is not None
    check_model, _ = speedups.start_values_check(model)
    located = cache.locate(turn_tables._cache_key(check_model, key))
    assert located is not None
    arrays = dict(located[1])
    arrays["check_value"] = arrays["check_value"] + 1e-9
    monkeypatch.setattr(cache, "locate", lambda _key: (located[0], arrays))
    turn_tables._load_starts.cache_clear()
    try:
        assert turn_tables.shipped_start_values(model) is None
    finally:
        turn_tables._load_starts.cache_clear()


def test_start_values_whose_check_solve_is_cancelled_load_at_the_next_ask() -> None:
    """The check solve on loading runs under the asking thread's checkpoint: a click whose
    time is up cancels it.  That is no verdict on the table: the next ask loads it (it was
    once remembered as missing, and the jack's turn start refused for the kernel's life)."""
    from pushluck_teach.solve import turn_tables
    from pushluck_teach.solve.turn import Cancelled, watching

    spec = get_game("captain-seven")
    model, start = spec.position(spec.variant_cls(relics=True), relic="J")

    def time_is_up(_solved: int) -> None:
        raise Cancelled("the click's time is up")

    turn_tables._load_starts.cache_clear()
    try:
        with watching(time_is_up), pytest.raises(Cancelled):
            turn_tables.shipped_start_values(model)
        table = turn_tables.shipped_start_values(model)
        assert table is not None and table.get(start) is not None
    finally:
        turn_tables._load_starts.cache_clear()


def test_the_first_cached_jack_solver_loads_its_start_values_without_a_deadlock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Making the first jack-relic solver through the shared cache loads the start values and
    solves their check position, which makes room in that same cache: the cache must make a
    solver outside its lock (it once waited on itself for ever)."""
    import threading

    from pushluck_teach.solve import cache, turn, turn_tables

    monkeypatch.setattr(turn, "_SHARED", cache.MemorySolverCache(TurnSolver))
    spec = get_game("captain-seven")
    model, start = spec.position(spec.variant_cls(relics=True), relic="J")
    turn_tables._load_starts.cache_clear()
    answers: list[float] = []
    worker = threading.Thread(
        target=lambda: answers.append(turn.cached_solver(model).value(start)), daemon=True)
    try:
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "the shared cache waited on its own lock"
    finally:
        turn_tables._load_starts.cache_clear()
    assert answers == [pytest.approx(34.809893, abs=1e-6)]


def test_the_shipped_table_holds_its_values_in_arrays_not_a_dict() -> None:
    """Captain Seven's table: 16 bytes a state (it was a 39 MB dict), every shipped value
    the one the file holds, written states kept apart and counted by the cache's estimate."""
    from pushluck_teach.solve.cache import mapping_bytes
    from pushluck_teach.solve.turn_tables import ShippedTable

    spec = get_game("captain-seven")
    model, start = spec.position(spec.variant_cls())
    table = TurnSolver(model).solved_values()
    assert isinstance(table, ShippedTable)
    assert table.nbytes == 16 * len(table.states) < 8 * 2**20
    assert mapping_bytes(table) < 8 * 2**20
    shipped = dict(zip(table.states.tolist(), table.values.tolist(), strict=True))
    for state in random.Random(5).sample(sorted(shipped), 2000):
        value = table[state]
        assert type(value) is float and value == shipped[state]
    missing = max(shipped) + 1
    assert missing not in table and table.get(missing) is None and table.get("x") is None
    held = len(table)  # other tests' solvers may have added states already
    table[missing] = 1.5
    try:
        assert table[missing] == 1.5 and len(table) == held + 1
    finally:
        del table[missing]
    with pytest.raises(KeyError):
        del table[start]  # the shipped states are read-only


def test_without_numpy_the_solver_solves_instead_of_loading() -> None:
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from pushluck_teach.games import get_game\n"
            "from pushluck_teach.solve.turn import TurnSolver\n"
            "spec = get_game('captain-seven')\n"
            "m, s = spec.position(spec.variant_cls(), drawn='5h 9s')\n"
            "t = TurnSolver(m)\n"
            "print(repr(t.value(s)), t.states_seeded())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(), drawn="5h 9s")
    assert done.stdout.split() == [repr(TurnSolver(model).value(state)), "0"]
