"""Lesson answers computed again from the rules alone (docs/rules.md), for tests; nothing of
:mod:`pushluck_teach` is imported.

* :func:`pig_seat_wins`: a Pig match (any die, any target) between two hold rules, the chance
  that a *given seat* wins, computed directly for that seat (not as 1 - the other's);
  :func:`pig_optimal_hold` gives the optimal player's hold rule by value iteration.
* :func:`hit_list_turn` and :func:`captain_seven_turn`: one turn from a position under optimal
  play for the turn's result (the "turn objective" table), with the expected number of cards
  drawn, the chance to bust and the result's distribution: Lesson 3's chains for the card games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache

Hold = Callable[[int, int, int], bool]  # (my score, other score, turn total) -> hold?


def pig_optimal_hold(target: int, sides: int, tol: float = 1e-14) -> Hold:
    """The optimal player's rule: hold where holding is at least as good as rolling."""
    scores = range(target)
    win = {(i, j, k): 0.5 for i in scores for j in scores for k in range(target - i)}

    def hold_value(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= target else 1 - win[(j, i + k, 0)]

    def roll_value(i: int, j: int, k: int) -> float:
        value = (1 - win[(j, i, 0)]) / sides
        for face in range(2, sides + 1):
            value += (hold_value(i, j, k + face) if i + k + face >= target
                      else win[(i, j, k + face)]) / sides
        return value

    while True:
        moved = 0.0
        for (i, j, k), old in win.items():
            new = roll_value(i, j, k) if k == 0 else max(roll_value(i, j, k), hold_value(i, j, k))
            win[(i, j, k)] = new
            moved = max(moved, abs(new - old))
        if moved < tol:
            break
    return lambda i, j, k: i + k >= target or (k > 0 and hold_value(i, j, k)
                                               >= roll_value(i, j, k) - 1e-12)


def pig_seat_wins(first: Hold, second: Hold, seat: int, target: int, sides: int,
                  tol: float = 1e-14) -> float:
    """The chance that ``seat`` (0: moves first, 1: second) wins the match."""
    rules = (first, second)
    scores = range(target)
    # p[(mover, s0, s1, k)]: the chance that ``seat`` wins from there
    p = {(m, a, b, k): 0.5 for m in (0, 1) for a in scores for b in scores
         for k in range(target - (a if m == 0 else b) + sides)}

    def after_hold(m: int, a: int, b: int, k: int) -> float:
        mine = (a if m == 0 else b) + k
        if mine >= target:
            return 1.0 if m == seat else 0.0
        return p[(1, mine, b, 0)] if m == 0 else p[(0, a, mine, 0)]

    while True:
        moved = 0.0
        for (m, a, b, k), old in p.items():
            mine, theirs = (a, b) if m == 0 else (b, a)
            if k > 0 and rules[m](mine, theirs, k):
                new = after_hold(m, a, b, k)
            else:
                new = p[(1 - m, a, b, 0)] / sides
                for face in range(2, sides + 1):
                    new += p[(m, a, b, k + face)] / sides if (m, a, b, k + face) in p else \
                        after_hold(m, a, b, k + face) / sides
            p[(m, a, b, k)] = new
            moved = max(moved, abs(new - old))
        if moved < tol:
            return p[(0, 0, 0, 0)]


# ------------------------------------------------------------------------------------------
# One turn of a card game under optimal play: (expected result, expected draws,
# {result: probability}, P(bust)) from a position.

TurnFacts = tuple[Fraction, Fraction, dict[Fraction, Fraction], Fraction]


def _combine(parts: list[tuple[Fraction, TurnFacts]]) -> TurnFacts:
    value = sum((w * f[0] for w, f in parts), Fraction(0))
    draws = sum((w * f[1] for w, f in parts), Fraction(0))
    dist: Counter = Counter()
    for w, f in parts:
        for result, q in f[2].items():
            dist[result] += w * q
    bust = sum((w * f[3] for w, f in parts), Fraction(0))
    return value, draws, dict(dist), bust


def _stopped(result: int) -> TurnFacts:
    return Fraction(result), Fraction(0), {Fraction(result): Fraction(1)}, Fraction(0)


def _bust(result: int) -> TurnFacts:
    return Fraction(result), Fraction(0), {Fraction(result): Fraction(1)}, Fraction(1)


def _draw_then(parts: list[tuple[Fraction, TurnFacts]]) -> TurnFacts:
    value, draws, dist, bust = _combine(parts)
    return value, draws + 1, dist, bust


def hit_list_turn(job: list[str]) -> TurnFacts:
    """High-Stakes Hit List, standard rules, a job holding ``job`` (ranks: ``"5"``, ``"T"``,
    ``"K"``; no ace): execute at 15 or more for the job's value, a botch is -10."""
    values = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
    deck = Counter({rank: 4 for rank in [*values, "A"]})
    deck["face"] = 12
    total, faces = 0, 0
    for rank in job:
        key = "face" if rank in "JQK" else rank
        deck[key] -= 1
        total += values.get(rank, 0)
        faces += key == "face"

    @cache
    def best(total: int, face: bool, left: tuple[tuple[str, int], ...]) -> TurnFacts:
        options = [draw(total, face, left)]
        if total >= 15:
            options.append(_stopped(total))
        return max(options, key=lambda f: f[0])

    def draw(total: int, face: bool, left: tuple[tuple[str, int], ...]) -> TurnFacts:
        size = sum(n for _, n in left)
        parts = []
        for rank, n in left:
            if not n:
                continue
            rest = tuple((r, m - (r == rank)) for r, m in left)
            chance = Fraction(n, size)
            if rank == "face":
                parts.append((chance, _bust(-10) if face else best(total, True, rest)))
            elif rank == "A":  # 1 or 11, the player's choice; over 21 botches
                outcomes = [best(total + v, face, rest) if total + v <= 21 else _bust(-10)
                            for v in (1, 11)]
                parts.append((chance, max(outcomes, key=lambda f: f[0])))
            else:
                new = total + values[rank]
                parts.append((chance, _bust(-10) if new > 21 else best(new, face, rest)))
        return _draw_then(parts)

    return best(total, bool(faces), tuple(sorted(deck.items())))


def captain_seven_turn(drawn: list[str]) -> TurnFacts:
    """Captain Seven's Doubloons, no relics, after ``drawn`` (ranks, no 7 or joker among them
    after the first): stash the turn total, or draw; caught pays 0."""
    values = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
    deck = Counter({v: 4 for v in range(1, 10)})
    deck[10] = 16
    deck[0] = 2  # the jokers
    total = 0
    assert "7" not in drawn, "after a first 7 five catchers are left: not covered here"
    for rank in drawn:
        deck[values[rank]] -= 1
        total += values[rank]

    @cache
    def best(total: int, left: tuple[tuple[int, int], ...]) -> TurnFacts:
        stash = _stopped(total)
        size = sum(n for _, n in left)
        # With all six catchers still in the deck (none can have been drawn: the turn would be
        # over), a draw changes the expected result by at most 10 - 6 (10 + total) / size;
        # once that is <= 0 it stays so (the total grows, the deck shrinks): stash.
        if 6 * (10 + total) >= 10 * size:
            return stash
        drawing = draw(total, left)
        return drawing if drawing[0] > stash[0] else stash

    def draw(total: int, left: tuple[tuple[int, int], ...]) -> TurnFacts:
        size = sum(n for _, n in left)
        parts = []
        for value, n in left:
            if not n:
                continue
            chance = Fraction(n, size)
            if value in (0, 7) or (total + value) % 10 == 7:
                parts.append((chance, _bust(0)))
            else:
                rest = tuple((v, m - (v == value)) for v, m in left)
                parts.append((chance, best(total + value, rest)))
        return _draw_then(parts)

    return best(total, tuple(sorted(deck.items())))
