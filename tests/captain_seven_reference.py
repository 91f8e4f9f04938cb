"""Captain Seven's Doubloons as a two-player whole game, solved again from the rules alone
(docs/rules.md, "Captain Seven's Doubloons" and "What the models simplify"), for tests.

Independent of :mod:`pushluck_teach` (no import of it), and deliberately plain:

* **one turn**: a forward walk over every set of cards a turn can hold (the non-catching
  values 1-6, 8, 9 with four cards each, the sixteen tens, and the six catchers: four 7s and two
  jokers), each reached with its probability of being drawn from the full 54-card deck.  The
  first card never catches; after it a 7, a joker or a total ending in 7 does.  Totals only grow
  after the first card, so "stash once the total reaches T" stashes ``x`` with the mass of the
  draws that take a total below ``T`` to ``x >= T``;
* **the whole game** to a target ``G`` (usually smaller than 100, to stay fast): the mover's
  win value ``W(a, b)`` (P(win) + P(tie)/2) under the policy class of docs/rules.md (a threshold
  picked at the start of each turn from both stashes; on a final turn the best threshold), by
  plain fixed-point iteration of each pair ``(a, b), (b, a)`` from the highest stash sum down;
* **a match** between two fixed rules (``threshold:T``, ``chase:T`` or the optimal table) by
  the same recursion with each player's choice in place of the maximum.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

VALUES = (1, 2, 3, 4, 5, 6, 8, 9, 10)
CAPS = (4, 4, 4, 4, 4, 4, 4, 4, 16)  # the tens: 10 J Q K of four suits
SEVENS, JOKERS = 4, 2
DECK = sum(CAPS) + SEVENS + JOKERS  # 54


@dataclass(frozen=True)
class TurnMasses:
    """``edge[x][y]``: the chance that a draw takes the turn from total ``y`` (``-1``: nothing
    drawn yet) to a total ``x`` without catching; ``lost[y]``: the chance of being caught by a
    draw made at total ``y``.  Walked for totals below ``top``."""

    edge: dict[int, dict[int, float]]
    lost: dict[int, float]
    top: int

    def distribution(self, threshold: int) -> dict[int, float]:
        """``{doubloons stashed: probability}`` (0: caught) when stashing at ``threshold``."""
        assert 1 <= threshold <= self.top
        out: dict[int, float] = {0: sum(m for y, m in self.lost.items() if y < threshold)}
        for x, row in self.edge.items():
            if x >= threshold:
                mass = sum(m for y, m in row.items() if y < threshold)
                if mass:
                    out[x] = out.get(x, 0.0) + mass
        return out


def turn_masses(top: int) -> TurnMasses:
    """Walk every turn whose totals stay below ``top`` (so thresholds ``1 .. top`` are known)."""
    edge: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    lost: dict[int, float] = defaultdict(float)
    # a state: (cards of each non-catching value drawn, catchers left, total) -> reach chance
    level: dict[tuple[tuple[int, ...], int, int], float] = defaultdict(float)
    empty = (0,) * len(VALUES)
    for c, (value, cap) in enumerate(zip(VALUES, CAPS, strict=True)):  # the first card
        counts = tuple(1 if i == c else 0 for i in range(len(VALUES)))
        level[(counts, SEVENS + JOKERS, value)] += cap / DECK
        edge[value][-1] += cap / DECK
    level[(empty, SEVENS + JOKERS - 1, 7)] += SEVENS / DECK  # a first 7 counts 7
    edge[7][-1] += SEVENS / DECK
    level[(empty, SEVENS + JOKERS - 1, 0)] += JOKERS / DECK  # a first joker counts 0
    edge[0][-1] += JOKERS / DECK
    while level:
        following: dict[tuple[tuple[int, ...], int, int], float] = defaultdict(float)
        for (counts, catchers, total), reach in level.items():
            if total >= top:
                continue
            left = DECK - sum(counts) - (SEVENS + JOKERS - catchers)
            lost[total] += reach * catchers / left
            for c, (value, cap) in enumerate(zip(VALUES, CAPS, strict=True)):
                if counts[c] == cap:
                    continue
                chance = reach * (cap - counts[c]) / left
                new_total = total + value
                if new_total % 10 == 7:
                    lost[total] += chance
                    continue
                edge[new_total][total] += chance
                grown = counts[:c] + (counts[c] + 1,) + counts[c + 1:]
                following[(grown, catchers, new_total)] += chance
        level = following
    return TurnMasses({x: dict(r) for x, r in edge.items()}, dict(lost), top)


# ------------------------------------------------------------------------------------------
# The whole game


def final_turn_value(dist: dict[int, float], behind: int) -> float:
    """A last turn that must pass ``behind`` doubloons: P(more) + P(exactly as many)/2."""
    return sum(p for x, p in dist.items() if x > behind) + 0.5 * dist.get(behind, 0.0)


@dataclass(frozen=True)
class Solution:
    target: int
    win: dict[tuple[int, int], float]  # W(a, b), mover first
    threshold: dict[tuple[int, int], int]  # the best threshold there (the smallest on a tie)
    final: dict[int, float]  # F(d): the best last turn when behind by d
    final_threshold: dict[int, int]


Choice = Callable[[int, int], int]  # (my stash, other stash) -> threshold


def ordinary_top(target: int, masses: TurnMasses) -> int:
    """The highest ordinary threshold whose every outcome leaves a final turn the walk covers:
    a stash of ``x <= T + 9`` from ``a <= G - 1`` against ``b >= 0`` leaves ``d <= top - 1``, and
    a final turn behind by ``d`` needs no threshold above ``d + 1`` (reaching it wins)."""
    return masses.top - target - 9


def solve(target: int, masses: TurnMasses, tol: float = 1e-14) -> Solution:
    """Optimal play of the policy class, by fixed-point iteration layer by layer (ordinary
    thresholds up to :func:`ordinary_top`: pick ``masses.top`` above the best ones)."""
    every = {t: masses.distribution(t) for t in range(1, masses.top + 1)}
    dists = {t: every[t] for t in range(1, ordinary_top(target, masses) + 1)}
    final: dict[int, float] = {}
    final_threshold: dict[int, int] = {}
    for d in range(1, masses.top):
        values = {t: final_turn_value(dist, d) for t, dist in every.items()}
        final[d] = max(values.values())
        final_threshold[d] = min(t for t, v in values.items() if v >= final[d] - 1e-12)
    win: dict[tuple[int, int], float] = {}
    threshold: dict[tuple[int, int], int] = {}

    def after(a: int, b: int, x: int) -> float | None:
        """The mover's value after stashing ``x`` (None: caught, handled by the caller)."""
        if a + x >= target:
            return 1 - final[a + x - b]  # a KeyError: masses.top is too low
        return 1 - win[(b, a + x)]

    for layer in range(2 * target - 2, -1, -1):
        pairs = [(a, layer - a) for a in range(max(0, layer - target + 1),
                                                min(layer, target - 1) + 1)]
        # the stashed part C_T(a, b) and the caught chance q_T of every threshold
        stashed = {p: {t: sum(m * after(*p, x) for x, m in dist.items() if x)
                       for t, dist in dists.items()} for p in pairs}
        value = {p: 0.5 for p in pairs}
        while True:
            new = {}
            for a, b in pairs:
                other = value[(b, a)]
                new[(a, b)] = max(stashed[(a, b)][t] + dists[t][0] * (1 - other)
                                  for t in dists)
            moved = max(abs(new[p] - value[p]) for p in pairs)
            value = new
            if moved < tol:
                break
        for a, b in pairs:
            win[(a, b)] = value[(a, b)]
            options = {t: stashed[(a, b)][t] + dists[t][0] * (1 - value[(b, a)]) for t in dists}
            best = max(options.values())
            threshold[(a, b)] = min(t for t, v in options.items() if v >= best - 1e-12)
    return Solution(target, win, threshold, final, final_threshold)


@dataclass(frozen=True)
class Rule:
    """A whole-game rule: ``ordinary(a, b)`` at the start of a turn, ``last(d)`` on a final
    turn behind by ``d``."""

    ordinary: Choice
    last: Callable[[int], int]


def threshold_rule(t: int) -> Rule:
    return Rule(lambda a, b: t, lambda d: t)


def chase_rule(t: int, solution: Solution) -> Rule:
    return Rule(lambda a, b: t, lambda d: solution.final_threshold[d])


def optimal_rule(solution: Solution) -> Rule:
    return Rule(lambda a, b: solution.threshold[(a, b)],
                lambda d: solution.final_threshold[d])


def first_player_value(target: int, masses: TurnMasses, first: Rule, second: Rule) -> float:
    """The first player's P(win) + P(tie)/2 when ``first`` plays ``second``."""
    cache: dict[int, dict[int, float]] = {}

    def dist(t: int) -> dict[int, float]:
        if t not in cache:
            cache[t] = masses.distribution(t)
        return cache[t]

    def last(rule: Rule, d: int) -> float:
        return final_turn_value(dist(rule.last(d)), d)

    # value[(who, a, b)]: the value to the mover ``who`` (0 first, 1 second) at a turn start
    value: dict[tuple[int, int, int], float] = {}
    rules = (first, second)
    for layer in range(2 * target - 2, -1, -1):
        for a in range(max(0, layer - target + 1), min(layer, target - 1) + 1):
            b = layer - a
            if (0, a, b) in value:
                continue
            # the pair (0, a, b) and (1, b, a) solve a 2x2 linear system: v0 = c0 + q0 (1 - v1),
            # v1 = c1 + q1 (1 - v0); and likewise (1, a, b) with (0, b, a)
            for who in (0, 1):
                parts = []
                for mover, (m, o) in ((who, (a, b)), (1 - who, (b, a))):
                    d = dist(rules[mover].ordinary(m, o))
                    c = 0.0
                    for x, p in d.items():
                        if not x:
                            continue
                        if m + x >= target:
                            c += p * (1 - last(rules[1 - mover], m + x - o))
                        else:
                            c += p * (1 - value[(1 - mover, o, m + x)])
                    parts.append((c, d[0]))
                (c0, q0), (c1, q1) = parts
                v0 = (c0 + q0 - q0 * c1 - q0 * q1) / (1 - q0 * q1)
                value[(who, a, b)] = v0
                value[(1 - who, b, a)] = c1 + q1 * (1 - v0)
    return value[(0, 0, 0)]
