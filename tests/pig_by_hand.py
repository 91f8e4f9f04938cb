"""Pig as a whole game, solved again from the rules alone (docs/rules.md, "Pig"), for tests.

Independent of :mod:`pushluck_teach` (no import of it): a second method for the numbers the
lessons state.  ``scripts/teaching_answers.py`` covers a match of two "hold at N" players; this
module adds the optimal policy (value iteration, Neller and Presser 2004) and a match between
any two policies given as hold masks, which Lesson 6's "keep pace" claim needs.
"""

from __future__ import annotations

import math

import numpy as np

SIDES = 6


def _turn_values(hold: np.ndarray | None, other: np.ndarray, target: int) -> np.ndarray:
    """``value[k, i, j]``: the mover's chance to win at turn total ``k`` with score ``i`` against
    ``j``, given the opponent's start-of-turn chances ``other[j, i]``; ``hold[k, i, j]`` is the
    mover's policy (None: the better of rolling and holding)."""
    scores = np.arange(target)
    value = np.ones((target + SIDES, target, target))
    mirrored = other.T  # mirrored[i, j] = other[j, i]
    for k in range(target - 1, -1, -1):
        reached = (scores + k >= target)[:, None]
        banked = np.minimum(scores + k, target - 1)
        holding = 1 - mirrored[banked, :]  # the opponent moves at (j, i + k)
        rolling = (1 - mirrored) / SIDES + value[k + 2:k + SIDES + 1].sum(axis=0) / SIDES
        if k == 0:
            chosen = rolling  # a turn starts with a roll
        elif hold is None:
            chosen = np.maximum(rolling, holding)
        else:
            chosen = np.where(hold[k], holding, rolling)
        value[k] = np.where(reached, 1.0, chosen)
    return value


def optimal(target: int = 100, tol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """``(start, hold)``: the start-of-turn chances ``start[i, j]`` under optimal play and the
    optimal policy's hold mask ``hold[k, i, j]`` (ties hold)."""
    start = np.zeros((target, target))
    while True:
        value = _turn_values(None, start, target)
        done = np.abs(value[0] - start).max() < tol
        start = value[0]
        if done:
            break
    mirrored = start.T
    scores = np.arange(target)
    hold = np.zeros((target + SIDES, target, target), dtype=bool)
    for k in range(1, target):
        banked = np.minimum(scores + k, target - 1)
        holding = 1 - mirrored[banked, :]
        rolling = (1 - mirrored) / SIDES + value[k + 2:k + SIDES + 1].sum(axis=0) / SIDES
        hold[k] = holding >= rolling - 1e-12
    return start, hold


def keep_pace(target: int = 100) -> np.ndarray:
    """Neller and Presser's "keep pace and end race" as a hold mask: with 71 or more on either
    side roll for the goal, else hold at 21 + round((j - i) / 8) (halves rounded up)."""
    hold = np.zeros((target + SIDES, target, target), dtype=bool)
    for i in range(target):
        for j in range(target):
            if max(i, j) >= 71:
                continue
            at = 21 + math.floor((j - i) / 8 + 0.5)
            hold[max(at, 1):, i, j] = True
    return hold


def hold_at(total: int, target: int = 100) -> np.ndarray:
    hold = np.zeros((target + SIDES, target, target), dtype=bool)
    hold[total:] = True
    return hold


def first_player_wins(first: np.ndarray, second: np.ndarray, target: int = 100,
                      tol: float = 1e-12) -> float:
    """The chance that the player moving first (policy ``first``) beats ``second``."""
    win_first = np.full((target, target), 0.5)
    win_second = np.full((target, target), 0.5)
    while True:
        new_first = _turn_values(first, win_second, target)[0]
        new_second = _turn_values(second, new_first, target)[0]
        delta = max(np.abs(new_first - win_first).max(), np.abs(new_second - win_second).max())
        win_first, win_second = new_first, new_second
        if delta < tol:
            return float(win_first[0, 0])
