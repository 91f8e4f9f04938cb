"""How good is the solo model?  Checks of :mod:`pushluck_teach.solve.whole_game.solo` by
simulation: a Monte Carlo of the model itself (a fresh deck each turn, walking the exact turn
models' transitions: a check of the chain) and the real game played by the engine with the
policy's bot (the deck carried over: a measure of the model's simplification)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pushluck_teach.games.base import STOP, RulesError, TurnModel, get_game
from pushluck_teach.games.lands_uncharted import SOLO_TURNS
from pushluck_teach.sim.bots import Bot, OptimalTurnBot, ThresholdBot
from pushluck_teach.sim.run import SimulationResult, simulate_games
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.solve.whole_game.solo import (
    BOTCH,
    BOTCHES_TO_DIE,
    GHOST_BONUS,
    HIT_LIST,
    HITS_TO_END,
    LANDS,
    MAX_ALLIES,
    SoloPolicy,
    SoloResult,
    hit_list_variant,
    hits_of,
    lands_variant,
    solo_result,
)


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
    spec = get_game(game)
    samples: list[float] = []
    if game == LANDS:
        variant = lands_variant(variant)
        setups = []
        for a in range(MAX_ALLIES + 1):
            model, start = spec.position(variant, allies=a if variant.allies_persist else 0)
            setups.append((model, start, rule.chooser(TurnSolver(model))))
        for _ in range(n):
            allies = score = 0
            for _turn in range(SOLO_TURNS):
                model, start, choose = setups[allies]
                last, terminal, action = _walk(model, start, choose, rng)
                score += int(model.payoff(terminal))
                allies = model.allies_held(last) if action == STOP and variant.allies_persist else 0
            samples.append(float(score))
        return SimulationResult.of(samples)
    if game != HIT_LIST:
        raise RulesError(f"no solo model for {game!r} (solo models: {LANDS}, {HIT_LIST})")
    variant = hit_list_variant(variant)
    setups = []
    for h in range(HITS_TO_END):
        model, start = spec.position(variant, hits=h)
        setups.append((model, start, rule.chooser(TurnSolver(model))))
    for _ in range(n):
        hits = botches = score = 0
        while hits < HITS_TO_END and botches < BOTCHES_TO_DIE:
            model, start, choose = setups[hits]
            _, terminal, _ = _walk(model, start, choose, rng)
            result = int(model.payoff(terminal))
            score += result
            if result == BOTCH:
                botches += 1
            else:
                hits += hits_of(variant, result)
        if botches >= BOTCHES_TO_DIE:
            score = 0
        elif variant.ghost and botches == 0:
            score += GHOST_BONUS
        samples.append(float(score))
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
    sim_scores: np.ndarray
    sim_probabilities: np.ndarray

    @property
    def mean_difference(self) -> float:
        return self.simulated.mean - self.model.mean

    @property
    def stderr(self) -> float:
        return self.simulated.stderr

    def _aligned(self) -> tuple[np.ndarray, np.ndarray]:
        support = np.union1d(self.model.scores, self.sim_scores)
        model = np.zeros(support.size)
        sim = np.zeros(support.size)
        model[np.searchsorted(support, self.model.scores)] = self.model.probabilities
        sim[np.searchsorted(support, self.sim_scores)] = self.sim_probabilities
        return model, sim

    @property
    def total_variation(self) -> float:
        """Half the L1 distance (includes sampling noise: many scores, few games each)."""
        model, sim = self._aligned()
        return float(0.5 * np.abs(model - sim).sum())

    @property
    def max_cdf_difference(self) -> float:
        """The Kolmogorov distance max |F_model - F_sim| (less noisy than ``total_variation``;
        about ``1.36 / sqrt(n)`` is the 95% noise level for ``n`` games)."""
        model, sim = self._aligned()
        return float(np.max(np.abs(np.cumsum(model) - np.cumsum(sim))))


def simulate_real_game(game: str, variant: Any = None,
                       policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                       seed: int = 0) -> SimulationResult:
    """Final scores of ``n`` real solo games (the engine, deck carried over) with the policy's
    bot."""
    rule = SoloPolicy.parse(policy)
    variant = lands_variant(variant) if game == LANDS else hit_list_variant(variant)
    games = simulate_games(get_game(game), [solo_bot(rule)], n, seed, variant=variant)
    return SimulationResult.of([scores[0] for _, scores in games])


def compare_with_engine(game: str, variant: Any = None,
                        policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                        seed: int = 0) -> SoloComparison:
    """The model's exact distribution next to ``n`` simulated real games."""
    model = solo_result(game, variant, policy)
    sim = simulate_real_game(game, model.variant, policy, n, seed)
    values, counts = np.unique(np.array(sim.samples), return_counts=True)
    return SoloComparison(model, sim, values.astype(np.int64), counts / counts.sum())


__all__ = [
    "SoloComparison", "compare_with_engine", "model_monte_carlo", "simulate_real_game",
    "solo_bot",
]
