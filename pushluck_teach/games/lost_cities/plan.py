r"""Lost Cities' expedition plan: the model of one colour's future and its exact and fast
solutions (part of the Lost Cities game, :mod:`pushluck_teach.games.lost_cities`; the report
built on it is :mod:`~pushluck_teach.games.lost_cities.odds`).

Exact expedition odds (:func:`~pushluck_teach.games.lost_cities.odds.expedition_odds`)
--------------------------------------------------------------------------------------
You look at one colour ``c`` at the start of your turn (or after your play, before your draw).
Known: your hand, your expedition of ``c``, every other face-up card of colour ``c`` (the
opponent's expedition, the discard pile) and the number ``N`` of cards left in the deck.  The
*unseen* cards are the deck and the opponent's 8 cards, ``u = N + 8`` of them; by symmetry of
the shuffle every arrangement of them is equally likely, so the opponent's hand is a uniform
8-subset and the deck a uniform random order of the rest.  Only the unseen cards of colour ``c``
(the set ``U_c``) matter; the other ``u - |U_c|`` are interchangeable.

*Model of the draws (stated, not derived from play).*  Both players draw from the deck on every
turn, so the deck loses one card per turn.  At the start of your turn with ``N`` cards you have
``T = ceil(N/2)`` turns left (the opponent ``floor(N/2)``); each of your turns but the last ends
with a draw you can still play, so ``D = T - 1`` of your draws are *in time*.  (After your play,
before your draw: ``D = T = floor((N-1)/2)`` more turns; the opponent ``ceil((N-1)/2)``.)  Your
draws sit at fixed places in a uniformly shuffled deck, so they are a uniform random sequence
drawn without replacement from the ``u`` unseen cards.  Hence, for each unseen card ``x``:

    P(you draw x in time) = D / u,        P(the opponent holds x now) = 8 / u.

*The plan* "open it now and play every card of that colour you get in rising order" means: on
each of your turns you play the lowest card of colour ``c`` you hold that may still be played
(handshakes first), one card a turn; a card drawn when a higher number is already on the
expedition (or a handshake after the first number) can never be played and is dead.  The state
of the plan is ``(top, handshakes, sum, count, pending, available, draws made)`` where
``pending`` are the playable cards held and ``available`` the unseen cards of ``c`` above the
top.  A play moves the lowest pending card to the expedition; a draw takes each available card
(a rank ``r`` held ``k`` times unseen) with probability ``k / (u - draws made)`` and any other
card with the rest.  Forward propagation of these exact probabilities over the ``2T - 1`` steps
gives the distribution of the final ``(handshakes, sum, count)``, hence of the score, and the
chance that each card ends up on the expedition.  "With one more handshake" is the same plan
when an unseen handshake of ``c`` is in your hand in place of a card of another colour (so the
unseen count stays ``u``); it is played first, costs a turn, and needs the expedition to have no
number yet and a handshake of ``c`` still unseen.

The break-even: an expedition pays off once its numbers exceed 20; the report gives the points
already on the expedition, the playable points in your hand and the points still needed to reach
20.  All figures are exact :class:`~fractions.Fraction`\ s (integer masses over a common
denominator while propagating).  The bots use the plan's mean through :class:`PlanMeans`, a
backward recursion in floating point checked against the exact distribution.  The opponent's
later plays and discards of ``c`` are not modelled: a card the opponent holds is simply not
yours.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import PositionError
from pushluck_teach.games.lost_cities.rules import (
    BONUS,
    BONUS_CARDS,
    DRAW_FROM,
    EXPEDITION_COST,
    HANDSHAKE,
    PLAY,
    score_from_counts,
)


def turns_left(deck_left: int, phase: str = PLAY) -> tuple[int, int, int]:
    """``(your turns, your draws in time, the opponent's turns)`` when both draw from the deck.

    At the start of your turn (``phase="play"``) with ``N`` cards: ``ceil(N/2)`` turns for you,
    ``floor(N/2)`` for the opponent, and every draw but your last is in time to be played.
    After your play (``phase="draw"``): your draw now and ``floor((N-1)/2)`` more turns.
    """
    if deck_left < 1:
        raise PositionError("the deck is empty: the match is over")
    if phase == PLAY:
        mine = (deck_left + 1) // 2
        return mine, mine - 1, deck_left // 2
    if phase == DRAW_FROM:
        mine = (deck_left - 1) // 2
        return mine, mine, deck_left // 2
    raise PositionError(f"bad phase {phase!r}: play or draw")


def _schedule(deck_left: int, phase: str) -> str:
    """Your steps left: ``P`` a play, ``D`` a draw in time (the useless last draw left out)."""
    mine, _, _ = turns_left(deck_left, phase)
    return "PD" * (mine - 1) + "P" if phase == PLAY else "DP" * mine


PlanState = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]


def _playable(rank: int, top: int) -> bool:
    return rank > top or (rank == HANDSHAKE and top <= HANDSHAKE)


def plan_distribution(*, top: int, handshakes: int, numbers_sum: int, count: int,
                      pending: Sequence[int], available: Sequence[int], pool: int,
                      schedule: str
                      ) -> tuple[dict[int, Fraction], dict[tuple[int, bool], Fraction]]:
    """Run the plan of the module docstring exactly.

    ``top`` is the expedition's top rank (-1 empty, 0 handshakes only); ``pending`` the
    playable ranks you hold; ``available`` the unseen ranks of the colour (handshake 0 repeated);
    ``pool`` the number of unseen cards; ``schedule`` a string of ``P`` (play) and ``D`` (draw).
    Returns the exact score distribution and the probability of playing each ``(rank, drawn)``
    (``drawn``: the card came from the unseen ones, not from your hand).  The masses are kept
    as integers over a common denominator (the product of the pools drawn from so far).
    """
    # A pending card is coded 2 * rank + drawn, so sorting keeps the rank order.
    start: PlanState = (top, handshakes, numbers_sum, count,
                        tuple(sorted(2 * r for r in pending)),
                        tuple(sorted(r for r in available if _playable(r, top))))
    states: dict[PlanState, int] = {start: 1}
    denominator = 1
    played: dict[tuple[int, bool], Fraction] = {}
    draws = 0
    for step in schedule:
        nxt: dict[PlanState, int] = {}
        if step == "P":
            this_step: dict[tuple[int, bool], int] = {}
            for state, mass in states.items():
                _, hs, total, n, pend, avail = state
                if pend:
                    rank, drawn = divmod(pend[0], 2)
                    key = (rank, bool(drawn))
                    this_step[key] = this_step.get(key, 0) + mass
                    if rank == HANDSHAKE:
                        state = (HANDSHAKE, hs + 1, total, n + 1, pend[1:], avail)
                    else:
                        state = (rank, hs, total + rank, n + 1, pend[1:],
                                 avail[bisect.bisect_right(avail, rank):])
                nxt[state] = nxt.get(state, 0) + mass
            for key, mass in this_step.items():
                played[key] = played.get(key, Fraction(0)) + Fraction(mass, denominator)
        else:
            remaining = pool - draws
            if remaining <= 0:
                raise PositionError("more draws than unseen cards: check the deck count")
            for state, mass in states.items():
                top_, hs, total, n, pend, avail = state
                other = remaining - len(avail)
                if other:
                    nxt[state] = nxt.get(state, 0) + mass * other
                for rank, k in Counter(avail).items():
                    i = avail.index(rank)
                    new = (top_, hs, total, n, tuple(sorted(pend + (2 * rank + 1,))),
                           avail[:i] + avail[i + 1:])
                    nxt[new] = nxt.get(new, 0) + mass * k
            denominator *= remaining
            draws += 1
        states = nxt
    scores: dict[int, int] = {}
    for (_, hs, total, n, _, _), mass in states.items():
        score = score_from_counts(hs, total, n)
        scores[score] = scores.get(score, 0) + mass
    return {score: Fraction(mass, denominator) for score, mass in sorted(scores.items())}, played


Moments = tuple[float, float, float, float, float]
_OUT_OF_REACH = 99


class PlanMeans:
    """The plan's *expected* final score, fast, for the bots (floating point).

    The plan's moves depend only on ``(steps left, unseen cards left, top, pending,
    available)``, not on the points already scored, so a backward recursion over those states
    gives the future's added sum ``s``, added handshakes ``h`` and added cards ``c`` through
    ``E[s]``, ``E[h]``, ``E[s h]``, ``P(c = 0)`` and ``P(c >= k)``; the mean score of an
    expedition with ``S, H, C`` already on it is then
    ``E[(S + s - 20)(1 + H + h); C + c > 0] + 20 P(C + c >= 8)`` with ``k = 8 - C``.  Schedules
    alternate and end with a play, so the steps left fix the rest of the schedule: one instance
    remembers its states across positions.
    """

    def __init__(self, max_states: int = 400_000) -> None:
        self.max_states = max_states
        self._memo: dict[tuple[Any, ...], Moments] = {}

    def mean(self, *, top: int, handshakes: int, numbers_sum: int, count: int,
             pending: Sequence[int], available: Sequence[int], pool: int,
             schedule: str) -> float:
        if schedule and (schedule[-1] != "P" or "PP" in schedule or "DD" in schedule):
            raise PositionError(f"a schedule alternates plays and draws and ends with a play: "
                                f"{schedule!r}")
        if len(self._memo) > self.max_states:
            self._memo.clear()
        avail = tuple(sorted(r for r in available if _playable(r, top)))
        es, eh, esh, p_none, p_bonus = self._future(
            max(0, BONUS_CARDS - count), len(schedule), pool, top, tuple(sorted(pending)), avail)
        base = numbers_sum - EXPEDITION_COST
        product = base * (1 + handshakes) + base * eh + (1 + handshakes) * es + esh
        if count == 0:
            product -= p_none * base * (1 + handshakes)
        return product + BONUS * p_bonus

    def _future(self, need: int, steps: int, pool: int, top: int, pend: tuple[int, ...],
                avail: tuple[int, ...]) -> Moments:
        if need > min(len(pend) + len(avail), (steps + 1) // 2):
            need = _OUT_OF_REACH     # the bonus can no longer be reached: merge these states
        key = (need, steps, pool, top, pend, avail)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result: Moments
        if steps == 0:
            result = (0.0, 0.0, 0.0, 1.0, 1.0 if need <= 0 else 0.0)
        elif steps % 2:                      # a play (odd steps left: P, then D P D ... P)
            if not pend:
                result = self._future(need, steps - 1, pool, top, pend, avail)
            else:
                rank = pend[0]
                if rank == HANDSHAKE:
                    es, eh, esh, _, pb = self._future(max(need - 1, 0), steps - 1, pool,
                                                      HANDSHAKE, pend[1:], avail)
                    result = (es, eh + 1, esh + es, 0.0, pb)
                else:
                    es, eh, esh, _, pb = self._future(
                        max(need - 1, 0), steps - 1, pool, rank, pend[1:],
                        avail[bisect.bisect_right(avail, rank):])
                    result = (es + rank, eh, esh + rank * eh, 0.0, pb)
        else:                                # a draw
            if pool <= 0:
                raise PositionError("more draws than unseen cards: check the deck count")
            es = eh = esh = p_none = p_bonus = 0.0
            other = pool - len(avail)
            if other:
                ps, ph, psh, pn, pb = self._future(need, steps - 1, pool - 1, top, pend, avail)
                w = other / pool
                es, eh, esh, p_none, p_bonus = w * ps, w * ph, w * psh, w * pn, w * pb
            previous = None
            for j, rank in enumerate(avail):
                if rank == previous:
                    continue
                previous = rank
                w = avail.count(rank) / pool
                i = bisect.bisect_right(pend, rank)
                ps, ph, psh, pn, pb = self._future(
                    need, steps - 1, pool - 1, top, pend[:i] + (rank,) + pend[i:],
                    avail[:j] + avail[j + 1:])
                es += w * ps
                eh += w * ph
                esh += w * psh
                p_none += w * pn
                p_bonus += w * pb
            result = (es, eh, esh, p_none, p_bonus)
        self._memo[key] = result
        return result
