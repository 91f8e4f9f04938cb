"""Two bots on mirrored deals: each deal played twice with the seats swapped.

Any two-player game whose engine ends by itself works: ``spec.new_engine(variant, seed=s)``
deals the same cards for the same seed, so swapping the seats on the same seed cancels the luck
of the deal within a pair.  The pairs are the independent units of the confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import Bot, GameSpec, RulesError, Variant

#: A match of sane bots ends long before this many actions; more means the bots loop.
MAX_ACTIONS = 5_000

BotFactory = Callable[[int], Bot]


def play_to_end(spec: GameSpec, variant: Variant, bots: Sequence[Bot], seed: int
                ) -> tuple[Any, ...]:
    """Play one game (``bots[i]`` in seat ``i``) on the deal ``seed``; the final scores."""
    engine = spec.new_engine(variant, players=len(bots), seed=seed)
    for _ in range(MAX_ACTIONS):
        if engine.is_over:
            return engine.scores()
        engine.act(bots[engine.current_player].choose(engine))
    raise RulesError(f"{spec.name}, deal {seed}: no end after {MAX_ACTIONS} actions")


def mirrored_pair(spec: GameSpec, variant: Variant, make_a: BotFactory, make_b: BotFactory,
                  seed: int) -> tuple[float, float]:
    """A's points minus B's in the deal ``seed`` with A first, then with B first."""
    first = play_to_end(spec, variant, (make_a(seed), make_b(seed)), seed)
    second = play_to_end(spec, variant, (make_b(seed), make_a(seed)), seed)
    return float(first[0] - first[1]), float(second[1] - second[0])


@dataclass(frozen=True)
class DuelResult:
    """Bot A against bot B over mirrored deals.

    ``differences`` are A's points minus B's, two per deal (A first, then B first).  The 95 %
    interval of the mean difference is ``mean ± 1.96 s / sqrt(n)`` with ``s`` the standard
    deviation of the ``n`` pairs' means (normal approximation).
    """

    a: str
    b: str
    differences: tuple[float, ...]

    @property
    def pairs(self) -> int:
        return len(self.differences) // 2

    @property
    def pair_means(self) -> tuple[float, ...]:
        d = self.differences
        return tuple((d[i] + d[i + 1]) / 2 for i in range(0, len(d), 2))

    @property
    def mean_difference(self) -> float:
        return math.fsum(self.differences) / len(self.differences)

    @property
    def half_width(self) -> float:
        means = self.pair_means
        n = len(means)
        if n < 2:
            return math.inf
        mean = math.fsum(means) / n
        return 1.96 * math.sqrt(math.fsum((x - mean) ** 2 for x in means) / (n - 1) / n)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mean_difference - self.half_width, self.mean_difference + self.half_width)

    @property
    def match_sd(self) -> float:
        """The standard deviation of one match's difference (the luck of a single match)."""
        d = self.differences
        mean = math.fsum(d) / len(d)
        return math.sqrt(math.fsum((x - mean) ** 2 for x in d) / (len(d) - 1))

    @property
    def a_wins(self) -> int:
        return sum(1 for d in self.differences if d > 0)

    @property
    def b_wins(self) -> int:
        return sum(1 for d in self.differences if d < 0)

    @property
    def ties(self) -> int:
        return sum(1 for d in self.differences if d == 0)

    @property
    def win_rate(self) -> float:
        """A's share of the matches, a tie counting half."""
        return (self.a_wins + self.ties / 2) / len(self.differences)

    def matches_to_tell_apart(self, z: float = 1.96) -> int | None:
        """Independent matches (not mirrored) needed before a mean edge as large as this one is
        ``z`` standard errors from 0 (``None`` without an edge): :func:`matches_needed`."""
        if self.mean_difference <= 0:
            return None
        return matches_needed(self.mean_difference, self.match_sd, z)

    def merged(self, other: DuelResult) -> DuelResult:
        return DuelResult(self.a, self.b, self.differences + other.differences)


def matches_needed(edge: float, sd: float, z: float = 1.96) -> int:
    """Matches before a mean edge of ``edge`` points a match is ``z`` standard errors from 0
    when one match's difference has standard deviation ``sd``: ``n`` with
    ``edge = z sd / sqrt(n)``, i.e. ``ceil((z sd / edge)^2)``."""
    if edge <= 0 or sd < 0:
        raise ValueError("an edge must be positive and a standard deviation not negative")
    return max(1, math.ceil((z * sd / edge) ** 2))


def duel(spec: GameSpec, variant: Variant, make_a: BotFactory, make_b: BotFactory, pairs: int,
         first_seed: int = 0) -> DuelResult:
    """``pairs`` mirrored deals with seeds ``first_seed, first_seed + 1, ...``."""
    differences: list[float] = []
    for seed in range(first_seed, first_seed + pairs):
        differences.extend(mirrored_pair(spec, variant, make_a, make_b, seed))
    return DuelResult(make_a(0).name, make_b(0).name, tuple(differences))
