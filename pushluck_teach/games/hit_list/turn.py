r"""Turn model of High-Stakes Hit List (one job as an exact finite MDP).

Card classes ``A, 2, ..., 9, 10, F`` (F = any of J Q K: suits and the face's rank never matter
to one job; 10 and the faces differ, a face is a 0-valued threat).  A state is

* ``("job", d, t)``: the deck ``d`` as an 11-tuple of counts per class and the job total ``t``
  (aces as chosen; with ``soft_aces`` the hard total);
* ``("ace", d, t)``: an ace was just drawn (already out of ``d``) onto total ``t``; the actions
  are ``ace:1`` and ``ace:11`` (deterministic);
* ``("end", value, kind, c)``: terminal, ``kind`` is ``"hit"`` or ``"botch"``, ``c`` the class
  of the card that botched the job (-1 for a hit).

Everything else about the job is a function of ``d`` and the model's deck ``d0`` before the job's
first card: the number of cards in the job is ``|d0| - |d|``, a face is in the job when
``d[F] < d0[F]``, an ace when ``d[A] < d0[A]``.  Drawing from ``("job", d, t)`` gives class ``c``
with weight ``d[c]`` (exact probability ``d[c] / |d|``).  The objective (docs/rules.md) is the job's
value ``v`` when executed (``v + 15`` with ``silent_assassin`` at ``v = 21``) and -10 when
botched.  A job state whose deck is empty and whose value may not be executed is terminal with
value 0 (the deck ran out: neither hit nor botch); with an empty deck and a legal execution,
executing is the only action.  ``rival_interference``, ``ghost``, ``bad_life``, ``solo`` and the
end-of-game rules do not change the value of one job (a steal moves a rival's card, not this
job's value), so the model ignores them; ``long_haul`` enters only through ``d0``.
``one_last_job`` needs the hits completed before this job (the ``hits`` field).

Size: every non-terminal state's drawn cards have a hard total of at most 21 with at most one
face, so a job from a full 52-card deck has 7,272 reachable states (4,056 with ``soft_aces``,
10,402 with ``long_haul``); the solver expands them all, no pruning is needed or used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, PositionError, TurnModel
from pushluck_teach.games.hit_list.rules import (
    ACE,
    ACE_ACTIONS,
    ACE_VALUE,
    BOTCH_PENALTY,
    CLASS_LABELS,
    CLASS_VALUES,
    FACE,
    GAME,
    LIMIT,
    HitListVariant,
    execute_result,
    may_execute,
    soft_value,
)

HitState = tuple[Any, ...]


@dataclass(frozen=True)
class HitListTurnModel(TurnModel[HitState]):
    """One job as an exact MDP (see the module docstring for states and objective).

    ``deck``: counts per class (A, 2..9, 10, J/Q/K) of the draw pile before the job's first
    card; ``hits``: hits the player completed before this job (only ``one_last_job`` uses it);
    ``opening``: ``(class, counted value)`` of the job's cards already drawn, in order (an ace's
    counted value is 1 or 11; with ``soft_aces`` it is ignored).  Rival interference never
    changes the job's value, so it is not modelled.
    """

    game = GAME
    variant: HitListVariant
    deck: tuple[int, ...]
    hits: int = 0
    opening: tuple[tuple[int, int], ...] = ()

    @cached_property
    def _size0(self) -> int:
        return sum(self.deck)

    @property
    def start(self) -> HitState:
        return self.state_after(self.opening)

    def state_after(self, cards: Sequence[tuple[int, int | None]],
                    names: Sequence[str] | None = None) -> HitState:
        """The state after drawing ``cards`` (class, counted value; ``None`` for an ace whose
        value is still to be chosen, which must be the last card).  A botched or impossible
        sequence raises :class:`PositionError` naming the card (``names``: card tokens)."""
        soft = self.variant.soft_aces
        deck = list(self.deck)
        total = 0
        faces = 0
        for i, (cls, value) in enumerate(cards):
            name = names[i] if names else CLASS_LABELS[cls]
            if deck[cls] <= 0:
                raise PositionError(f"card {name} is not left in the deck")
            deck[cls] -= 1
            if cls == ACE and value is None and not soft:
                if i != len(cards) - 1:
                    raise PositionError(f"the ace {name} needs a value (1 or 11)")
                if total + 1 > LIMIT:
                    raise PositionError(f"the position is botched: {name} takes the job over 21")
                return ("ace", tuple(deck), total)
            if cls == FACE:
                faces += 1
                if faces > 1:
                    raise PositionError(
                        f"the position is botched: {name} is a second face card in the job"
                    )
                continue
            add = 1 if cls == ACE and soft else (value if cls == ACE else CLASS_VALUES[cls])
            if add not in ((1, 11) if cls == ACE else (CLASS_VALUES[cls],)):
                raise PositionError(f"bad value {add!r} for {name}: an ace counts 1 or 11")
            total += add
            if total > LIMIT:
                raise PositionError(
                    f"the position is botched: {name} takes the job to {total}, over 21"
                )
        return ("job", tuple(deck), total)

    # ---- derived facts --------------------------------------------------------------------
    def cards_in_job(self, deck: tuple[int, ...]) -> int:
        return self._size0 - sum(deck)

    def job_value(self, deck: tuple[int, ...], total: int) -> int:
        if self.variant.soft_aces:
            return soft_value(total, deck[ACE] < self.deck[ACE])
        return total

    def can_execute(self, deck: tuple[int, ...], total: int) -> bool:
        return may_execute(self.variant, self.job_value(deck, total), self.cards_in_job(deck),
                           self.hits)

    # ---- the MDP --------------------------------------------------------------------------
    def actions(self, state: HitState) -> tuple[str, ...]:
        tag = state[0]
        if tag == "end":
            return ()
        if tag == "ace":
            return ACE_ACTIONS
        _, deck, total = state
        stop = self.can_execute(deck, total)
        if not any(deck):
            return (STOP,) if stop else ()
        return (DRAW, STOP) if stop else (DRAW,)

    def transitions(self, state: HitState, action: str) -> list[tuple[int, HitState]]:
        tag = state[0]
        if tag == "ace":
            if action not in ACE_VALUE:
                raise IllegalActionError(
                    f"after an ace the action is ace:1 or ace:11, not {action!r}")
            _, deck, total = state
            new = total + ACE_VALUE[action]
            if new > LIMIT:
                return [(1, ("end", BOTCH_PENALTY, "botch", ACE))]
            return [(1, ("job", deck, new))]
        if tag != "job":
            raise IllegalActionError("the job is over")
        _, deck, total = state
        if action == STOP:
            value = self.job_value(deck, total)
            return [(1, ("end", execute_result(self.variant, value), "hit", -1))]
        if action != DRAW:
            raise IllegalActionError(f"unknown Hit List action {action!r}")
        face_in_job = deck[FACE] < self.deck[FACE]
        choose_ace = not self.variant.soft_aces
        out: list[tuple[int, HitState]] = []
        for cls, count in enumerate(deck):
            if not count:
                continue
            rest = deck[:cls] + (count - 1,) + deck[cls + 1:]
            nxt: HitState
            if cls == FACE:
                nxt = ("end", BOTCH_PENALTY, "botch", FACE) if face_in_job else ("job", rest, total)
            elif cls == ACE and choose_ace:
                nxt = ("end", BOTCH_PENALTY, "botch", ACE) if total >= LIMIT else (
                    "ace", rest, total)
            else:
                new = total + CLASS_VALUES[cls]
                nxt = ("end", BOTCH_PENALTY, "botch", cls) if new > LIMIT else ("job", rest, new)
            out.append((count, nxt))
        return out

    def payoff(self, terminal: HitState) -> int:
        if terminal[0] == "end":
            return terminal[1]
        return 0  # a job state with an empty deck and no legal execution: the deck ran out

    def is_bust(self, terminal: HitState) -> bool:
        return terminal[0] == "end" and terminal[2] == "botch"

    def turn_total(self, state: HitState) -> int:
        if state[0] == "end":
            return state[1]
        if state[0] == "ace":
            return state[2]
        return self.job_value(state[1], state[2])

    def describe(self, state: HitState) -> str:
        if state[0] == "end":
            if state[2] == "botch":
                return f"botched by a {CLASS_LABELS[state[3]]}: -10"
            return f"hit executed: {state[1]}"
        _, deck, total = state
        left = sum(deck)
        cards = self.cards_in_job(deck)
        face = ", a face card in the job" if deck[FACE] < self.deck[FACE] else ""
        if state[0] == "ace":
            return (f"an ace drawn onto a job total of {total}: count it 1 or 11? "
                    f"({cards} cards{face}; {left} cards in the deck)")
        value = self.job_value(deck, total)
        soft = " (soft)" if self.variant.soft_aces and value != total else ""
        if not left and not self.can_execute(deck, total):
            return f"job total {value}: the deck ran out, the job counts as neither"
        can = "may execute" if self.can_execute(deck, total) else "may not execute yet"
        return f"job total {value}{soft}, {cards} cards{face}, {can}; {left} cards in the deck"

    def outcome_label(self, state: HitState, next_state: HitState) -> str:
        if next_state[0] == "end":
            return CLASS_LABELS[next_state[3]] if next_state[3] >= 0 else "execute"
        before, after = state[1], next_state[1]
        for cls in range(11):
            if after[cls] != before[cls]:
                return CLASS_LABELS[cls]
        return self.describe(next_state)
