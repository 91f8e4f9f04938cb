"""The solver and the engine are independent implementations of the same rules: for every game,
the solver's from-turn-start optimal value must lie within 4 standard errors of the mean result
of 20,000 turns that the real engine deals, played by the solver's policy."""

from __future__ import annotations

import pytest

from pushluck_teach.games import turn_games
from pushluck_teach.games.base import GameSpec
from pushluck_teach.sim import OptimalTurnBot, ThresholdBot, simulate_turns
from pushluck_teach.solve.turn import TurnSolver, expectation

GAMES = turn_games()
TURNS = 20_000


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_optimal_turn_value_matches_the_engine(spec: GameSpec) -> None:
    model, state = spec.position(spec.variant_cls())
    exact = TurnSolver(model).value(state)
    sim = simulate_turns(spec, OptimalTurnBot(), TURNS, seed=20261129)
    assert sim.n == TURNS
    assert sim.within(float(exact), sigmas=4), (exact, sim.mean, sim.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_threshold_policy_distribution_mean_matches_the_engine(spec: GameSpec) -> None:
    model, state = spec.position(spec.variant_cls())
    solver = TurnSolver(model)
    threshold = 12
    mean = expectation(solver.distribution(state, solver.threshold_policy(threshold)))
    sim = simulate_turns(spec, ThresholdBot(threshold), TURNS // 2, seed=7)
    assert sim.within(float(mean), sigmas=4), (mean, sim.mean, sim.stderr)


def test_simulation_is_reproducible_from_its_seed() -> None:
    spec = GAMES[0]
    a = simulate_turns(spec, OptimalTurnBot(), 200, seed=3)
    b = simulate_turns(spec, OptimalTurnBot(), 200, seed=3)
    assert a.samples == b.samples
