"""Run engines with bots and report means with standard errors."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pushluck_teach.games.base import GameSpec, Variant
from pushluck_teach.sim.bots import Bot


@dataclass(frozen=True)
class SimulationResult:
    """Sample mean and its standard error over ``n`` independent samples."""

    n: int
    mean: float
    stderr: float
    samples: tuple[float, ...]

    @classmethod
    def of(cls, samples: Sequence[float]) -> SimulationResult:
        n = len(samples)
        mean = math.fsum(samples) / n
        var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1) if n > 1 else 0.0
        return cls(n, mean, math.sqrt(var / n), tuple(samples))

    def within(self, value: float, sigmas: float = 4.0) -> bool:
        """Whether ``value`` lies within ``sigmas`` standard errors of the mean."""
        return abs(self.mean - value) <= sigmas * max(self.stderr, 1e-12)


def simulate_turns(spec: GameSpec, bot: Bot, n: int, seed: int, *,
                   variant: Variant | None = None, players: int | None = None) -> SimulationResult:
    """Play the first turn of ``n`` fresh games (each its own shuffled deck) with ``bot`` and
    return the turn objective's mean: the simulation twin of the solver's from-turn-start
    ``ev_optimal``."""
    rng = random.Random(seed)
    results: list[float] = []
    for _ in range(n):
        engine = spec.new_engine(variant, players=players or spec.min_players,
                                 seed=rng.getrandbits(64))
        turns = len(engine.turn_records)
        while len(engine.turn_records) == turns and not engine.is_over:
            engine.act(bot.choose(engine))
        results.append(float(engine.turn_records[turns].result))
    return SimulationResult.of(results)


def simulate_games(spec: GameSpec, bots: Sequence[Bot], n: int, seed: int, *,
                   variant: Variant | None = None, max_actions: int = 100_000
                   ) -> list[tuple[tuple[int, ...], tuple[float, ...]]]:
    """Play ``n`` whole games with one bot per seat; return ``(winners, scores)`` per game."""
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        engine = spec.new_engine(variant, players=len(bots), seed=rng.getrandbits(64))
        for _step in range(max_actions):
            if engine.is_over:
                break
            engine.act(bots[engine.current_player].choose(engine))
        else:
            raise RuntimeError(f"{spec.name}: game did not end within {max_actions} actions")
        games.append((engine.winners(), tuple(float(s) for s in engine.scores())))
    return games
