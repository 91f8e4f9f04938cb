"""The check-yourself answers of docs/teaching.md, computed WITHOUT the pushluck_teach package.

Each answer is worked out from the rules alone (docs/rules.md), by hand counts or by a small
solver written here for the purpose, so that it is an independent check of what the lessons
show.  Run: ``python scripts/teaching_answers.py`` (needs NumPy for Lesson 6; about 10 s).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from functools import cache

# ------------------------------------------------------------------ Lesson 1: Lands Uncharted
# Haul 5h 9s, no ally: a 5 or a 9 (three of each left) busts; a threat (J/Q/K) is the first one,
# an ace is an ally, any other number is new.  50 cards left.


def lesson1() -> Fraction:
    return Fraction(3 + 3, 50)


# ------------------------------------------------------------------ Lesson 2: Hit List
# Job 9h 6c (15), one more card, then execute (15+ is always executable here).


def lesson2() -> Fraction:
    left = {rank: 4 for rank in range(1, 11)}  # 1 = ace, 10 = ten
    left[9] -= 1
    left[6] -= 1
    faces = 12
    total, cards = 15, 49 + 1  # 52 - 2
    value = Fraction(0)
    for rank, count in left.items():
        best = total + (1 if rank == 1 else rank)  # an ace as 11 would bust: take 1
        if rank == 1 and total + 11 <= 21:
            best = total + 11
        value += count * (best if best <= 21 else -10)
    value += faces * total  # the first face of the job: worth 0, no bust
    return value / cards


# ------------------------------------------------------------------ Lessons 3 and 4: Pig turns


def pig_turn(threshold: int | None) -> tuple[Fraction, Fraction]:
    """(expected rolls, expected points) of one Pig turn from 0: hold at ``threshold``, or
    turn-optimal (maximise the points of the turn) when ``threshold`` is None."""

    horizon = 200  # from 200 on the turn-optimal player holds (a roll loses 200/6 > 20/6)

    @cache
    def value(total: int) -> tuple[Fraction, Fraction]:
        if (threshold is not None and total >= threshold) or total >= horizon:
            return Fraction(0), Fraction(total)
        roll_points = sum((value(total + r)[1] for r in range(2, 7)), Fraction(0)) / 6
        if threshold is None and roll_points <= total:  # holding is at least as good
            return Fraction(0), Fraction(total)
        rolls = 1 + sum((value(total + r)[0] for r in range(2, 7)), Fraction(0)) / 6
        return rolls, roll_points

    return value(0)


def pig_turn_distribution(threshold: int) -> dict[int, Fraction]:
    """Exact distribution of the points banked by one Pig turn held at ``threshold``
    (0 = the turn busted), by pushing probability forward through the turn totals."""
    at = {0: Fraction(1)}
    banked: dict[int, Fraction] = {}
    for total in range(threshold):
        p = at.pop(total, Fraction(0))
        if not p:
            continue
        banked[0] = banked.get(0, Fraction(0)) + p / 6
        for r in range(2, 7):
            at[total + r] = at.get(total + r, Fraction(0)) + p / 6
    for total, p in at.items():
        banked[total] = banked.get(total, Fraction(0)) + p
    return banked


# ------------------------------------------------------------------ Lesson 5: Lands Uncharted


def lands_uncharted_turn(haul: list[int], buried_treasure: bool) -> Fraction:
    """Optimal expected treasure banked this turn; ``haul`` holds number ranks (2-10), threats
    as 0; no ally held; the deck is 52 cards minus the haul."""
    counts = {rank: 4 for rank in range(2, 11)}
    threats, aces = 12, 4
    for card in haul:
        if card == 0:
            threats -= 1
        else:
            counts[card] -= 1
    ranks = tuple(sorted(card for card in haul if card))
    threat_held = sum(1 for card in haul if card == 0)

    def banked(ranks: tuple[int, ...]) -> int:
        treasure = sum(ranks)
        return treasure + 5 if buried_treasure and treasure == 21 else treasure

    @cache
    def best(ranks, threat_held, allies, deck, threats, aces) -> Fraction:
        stop = Fraction(banked(ranks))
        cards = sum(deck) + threats + aces
        if cards == 0:
            return stop
        draw = Fraction(0)
        for index, count in enumerate(deck):
            if count == 0:
                continue
            rank = index + 2
            rest = deck[:index] + (count - 1,) + deck[index + 1:]
            if rank in ranks:  # a repeated number: bust, unless an ally stops it
                outcome = (best(ranks, threat_held, allies - 1, rest, threats, aces)
                           if allies else Fraction(0))
            else:
                outcome = best(tuple(sorted(ranks + (rank,))), threat_held, allies, rest,
                               threats, aces)
            draw += count * outcome
        if threats:
            if threat_held:  # a second threat: bust, unless an ally stops it
                outcome = (best(ranks, threat_held, allies - 1, deck, threats - 1, aces)
                           if allies else Fraction(0))
            else:
                outcome = best(ranks, 1, allies, deck, threats - 1, aces)
            draw += threats * outcome
        if aces:
            draw += aces * best(ranks, threat_held, allies + 1, deck, threats, aces - 1)
        return max(stop, draw / cards)

    deck = tuple(counts[rank] for rank in range(2, 11))
    return best(ranks, threat_held, 0, deck, threats, aces)


# ------------------------------------------------------------------ Lesson 6: Pig, both hold at 20


def pig_match_hold(first: int, second: int, target: int = 100, tol: float = 1e-14) -> float:
    """P(first player wins) when the players hold at ``first`` / ``second`` (or when holding
    wins), by iterating the start-of-turn win chances to their fixed point."""
    import numpy as np

    win = {h: np.full((target, target), 0.5) for h in {first, second}}  # W_h(i, j) at k = 0

    def turn(hold_at: int, other: np.ndarray) -> np.ndarray:
        """Start-of-turn win chances [i, j] of the player holding at ``hold_at`` (score i,
        opponent j), given the opponent's start-of-turn win chances ``other[j, i]``."""
        scores = np.arange(target)
        mirrored = other.T  # mirrored[i, j] = other[j, i]
        values: dict[int, np.ndarray] = {}
        for k in range(hold_at + 5, -1, -1):
            reached = (scores + k >= target)[:, None]  # holding now wins
            banked = np.minimum(scores + k, target - 1)
            hold = 1 - mirrored[banked, :]  # the opponent moves at (j, i + k)
            if k >= hold_at:
                values[k] = np.where(reached, 1.0, hold)
            else:
                roll = (1 - mirrored) / 6 + sum(values[k + r] for r in range(2, 7)) / 6
                values[k] = np.where(reached, 1.0, roll)
        return values[0]

    for _ in range(20000):
        new_first = turn(first, win[second])
        new_second = turn(second, new_first) if first != second else new_first
        delta = max(abs(new_first - win[first]).max(), abs(new_second - win[second]).max())
        win[first], win[second] = new_first, new_second
        if delta < tol:
            break
    return float(win[first][0, 0])


# ------------------------------------------------------------------ Lesson 7: Lost Cities
def lost_cities_check() -> Fraction:
    """Deck 3, red expedition 2 3 4 5, R6 in hand, no other red card seen.  The unseen cards
    are the 3 of the deck and the opponent's 8: 11, of them RH x3 and R7-R10.  Both players draw
    from the deck: you draw deck cards 1 and 3, the opponent card 2; only your first draw comes
    before your last play.  Every order of the 11 cards is equally likely: count the orders."""
    from itertools import permutations

    unseen = ["RH", "RH", "RH", "R7", "R8", "R9", "R10", "x1", "x2", "x3", "x4"]
    above, total = 0, 0
    for order in permutations(range(len(unseen)), 3):  # the deck, top first
        first = unseen[order[0]]
        score = 20 + int(first[1:]) - 20 if first in ("R7", "R8", "R9", "R10") else 0
        above += score > 0
        total += 1
    return Fraction(above, total)


def main() -> None:
    sys.setrecursionlimit(10_000)
    print(f"Lesson 1  P(bust) after 5h 9s:            {lesson1()} = {float(lesson1()):.4f}")
    print(f"Lesson 2  draw once then stop, 9h 6c:     {lesson2()} = {float(lesson2()):.4f}")
    rolls, points = pig_turn(20)
    print(f"Lesson 3  Pig hold at 20, expected rolls: {rolls} = {float(rolls):.4f}")
    print(f"          (expected points {points} = {float(points):.4f})")
    turn = pig_turn_distribution(20)
    print(f"          P(the turn busts) = {turn[0]} = {float(turn[0]):.4f}")
    means = {t: sum(k * p for k, p in pig_turn_distribution(t).items()) for t in range(15, 31)}
    print("          expected points by T: "
          + ", ".join(f"{t}: {float(m):.4f}" for t, m in means.items()))
    rolls, points = pig_turn(None)
    print(f"Lesson 4  Pig turn-optimal points:        {points} = {float(points):.4f}")
    variance = sum(k * k * p for k, p in turn.items()) - points**2
    sd = float(variance) ** 0.5
    print(f"          sd of one turn {sd:.4f}; turns for a 95% half-width of 0.005: "
          f"{(2 * sd / 0.005) ** 2:,.0f}; of 0.05: {(2 * sd / 0.05) ** 2:,.0f}")
    print(f"          Lands Uncharted 5h 9s, draw once then stop: {Fraction(776, 50)}"
          " (by hand: (16*14 + 28*14 + 4*40)/50)")
    for haul, label in (([5, 9, 7], "5h 9s 7c"), ([5, 9], "5h 9s")):
        a = lands_uncharted_turn(haul, False)
        b = lands_uncharted_turn(haul, True)
        print(f"Lesson 5  {label}: standard {a} = {float(a):.4f}, buried {b} = {float(b):.4f},"
              f" B - A = {b - a} = {float(b - a):.4f}")
    print(f"Lesson 6  Pig, both hold at 20, first wins {pig_match_hold(20, 20):.6f}")
    print(f"Lesson 7  Lost Cities, P(red ends above 0): {lost_cities_check()}")


if __name__ == "__main__":
    main()
