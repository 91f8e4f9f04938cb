"""How good is the solo model?  Checks of :mod:`pushluck_teach.solve.whole_game.solo` by
simulation: a Monte Carlo of the model itself (a fresh deck each turn, walking the exact turn
models' transitions: a check of the chain) and the real game played by the engine with the
policy's bot (the deck carried over: a measure of the model's simplification)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from pushluck_teach.games.base import TurnModel
from pushluck_teach.sim.bots import Bot, OptimalTurnBot, ThresholdBot
from pushluck_teach.sim.run import SimulationResult, simulate_games
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.solve.whole_game.solo import SoloPolicy, SoloResult, solo_mode, solo_result


def solo_bot(policy: SoloPolicy) -> Bot:
    """The engine bot playing a solo policy."""
    if policy.kind == "threshold":
        return ThresholdBot(policy.threshold or 1)
    return OptimalTurnBot()


def _walk(model: TurnModel[Any], start: Any, choose: Callable[[Any], str],
          rng: random.Random) -> tuple[Any, Any, str]:
    """Sample one turn of the model: ``(last decision state, terminal, last action)``."""
    state = start
    while True:
        action = choose(state)
        pairs = model.transitions(state, action)
        pick = rng.random() * sum(w for w, _ in pairs)
        nxt = pairs[-1][1]
        for weight, candidate in pairs:
            pick -= weight
            if pick < 0:
                nxt = candidate
                break
        if not model.actions(nxt):
            return state, nxt, action
        state = nxt


def model_monte_carlo(game: str, variant: Any = None, policy: str | SoloPolicy = "threshold:20",
                      n: int = 2000, seed: int = 0) -> SimulationResult:
    """Final scores sampled from the *model* (a fresh deck each turn), walking the exact turn
    models' transitions: a check of the chain, not of the simplification."""
    rule = SoloPolicy.parse(policy)
    rng = random.Random(seed)
    spec, mode = solo_mode(game)
    variant = mode.prepare(variant)
    setups: dict[tuple[tuple[str, Any], ...], tuple[TurnModel[Any], Any, Callable[[Any], str]]] = {}
    samples: list[float] = []
    for _ in range(n):
        carry, score = mode.start, 0
        while not mode.finished(variant, carry):
            position = tuple(sorted(mode.turn_position(variant, carry).items()))
            if position not in setups:
                model, start = spec.position(variant, **dict(position))
                setups[position] = (model, start, rule.chooser(TurnSolver(model)))
            model, start, choose = setups[position]
            last, terminal, action = _walk(model, start, choose, rng)
            outcome = mode.turn_outcome(variant, model, last, terminal, action)
            points, carry = mode.advance(variant, carry, outcome)
            score += points
        bonus = mode.end_bonus(variant, carry)
        samples.append(0.0 if bonus is None else float(score + bonus))
    return SimulationResult.of(samples)


@dataclass(frozen=True, eq=False)
class SoloComparison:
    """The exact model against simulating the real game (deck carried over) with the engine.

    ``simulated`` holds the engine's final scores; ``mean_difference`` = simulated mean - model
    mean (``stderr`` its standard error); ``total_variation`` and ``max_cdf_difference`` compare
    the model's distribution with the simulated frequencies.
    """

    model: SoloResult
    simulated: SimulationResult
    sim_scores: tuple[int, ...]
    sim_probabilities: tuple[float, ...]

    @property
    def mean_difference(self) -> float:
        return self.simulated.mean - self.model.mean

    @property
    def stderr(self) -> float:
        return self.simulated.stderr

    def _aligned(self) -> tuple[list[float], list[float]]:
        model = self.model.distribution()
        sim = dict(zip(self.sim_scores, self.sim_probabilities, strict=True))
        support = sorted(set(model) | set(sim))
        return [model.get(s, 0.0) for s in support], [sim.get(s, 0.0) for s in support]

    @property
    def total_variation(self) -> float:
        """Half the L1 distance (includes sampling noise: many scores, few games each)."""
        model, sim = self._aligned()
        return 0.5 * sum(abs(a - b) for a, b in zip(model, sim, strict=True))

    @property
    def max_cdf_difference(self) -> float:
        """The Kolmogorov distance max |F_model - F_sim| (less noisy than ``total_variation``;
        about ``1.36 / sqrt(n)`` is the 95% noise level for ``n`` games)."""
        model, sim = self._aligned()
        return max(abs(a - b) for a, b in zip(accumulate(model), accumulate(sim), strict=True))


def simulate_real_game(game: str, variant: Any = None,
                       policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                       seed: int = 0) -> SimulationResult:
    """Final scores of ``n`` real solo games (the engine, deck carried over) with the policy's
    bot."""
    rule = SoloPolicy.parse(policy)
    spec, mode = solo_mode(game)
    games = simulate_games(spec, [solo_bot(rule)], n, seed, variant=mode.prepare(variant))
    return SimulationResult.of([scores[0] for _, scores in games])


def compare(model: SoloResult, simulated: SimulationResult) -> SoloComparison:
    """The model's exact distribution next to the simulated games' frequencies."""
    counts = Counter(int(score) for score in simulated.samples)
    scores = tuple(sorted(counts))
    total = len(simulated.samples)
    return SoloComparison(model, simulated, scores, tuple(counts[s] / total for s in scores))


def compare_with_engine(game: str, variant: Any = None,
                        policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                        seed: int = 0) -> SoloComparison:
    """The model's exact distribution next to ``n`` simulated real games."""
    model = solo_result(game, variant, policy)
    return compare(model, simulate_real_game(game, model.variant, policy, n, seed))


__all__ = [
    "SoloComparison", "compare", "compare_with_engine", "model_monte_carlo", "simulate_real_game",
    "solo_bot",
]
