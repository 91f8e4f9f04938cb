r"""Solo modes as whole games: the distribution of the final score under a turn policy.

A game with a solo mode describes it in its spec (``GameSpec.solo``, a
:class:`~pushluck_teach.games.base.SoloMode`): what a turn carries over to the next (allies
held, hits and botches, the turn number), where a turn starts from a carry, what a finished turn
hands on, and when and how the game ends.  This module turns that description into numbers;
it names no game.  The solo modes today (docs/rules.md): Lands Uncharted's ten-turn solo and Hit
List's Lone Gunman.

**The model (a simplification, stated).**  In the real games the deck carries over from turn to
turn, so the exact state of a whole solo game includes the whole deck: far too large.  The model
gives **every turn a fresh, full deck** and tracks only the carry exactly (the mode's ``model``
line says what that is for each game).

Within the model everything is exact (no sampling): one turn's outcome distribution comes from
the exact turn model (:meth:`TurnSolver.distribution`, a forward pass of probability mass under
the policy), and the game is a Markov chain over ``(carry, score)``:
:math:`P_{k+1}(c', s + x) \mathrel{+}= P_k(c, s)\,P(x, c' \mid c)`, absorbing where the mode says
the game is over (with its end bonus, or a score of 0 where the game is lost).

Arithmetic is float64 in plain Python (exact up to rounding; no NumPy, so the static site
runs it too).  Policies: ``threshold:T`` (stop once the turn
total reaches ``T``; other choices, such as an ace's value, optimal) and ``optimal-turn`` (each
turn maximises its own expected result, the turn solver's policy; it is blind to the game's
state, like the simulation bots).

**How good is the model?**  That is simulation's job (:mod:`pushluck_teach.sim.solo_checks`):
``compare_with_engine`` plays the real game with the engine (the same policy as a bot;
``optimal-turn`` then optimises each turn for the *real* deck) and reports the difference of
the means (with its standard error) and the total variation distance between the two
distributions; ``model_monte_carlo`` samples the *model itself* (a fresh deck each turn, by
walking the turn model's exact transitions), which checks the chain, not the simplification.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pushluck_teach.games.base import GameSpec, RulesError, SoloMode, all_games, get_game
from pushluck_teach.games.policies import (
    THRESHOLD,
    TURN_OPTIMAL,
    Policy,
    parse_policy,
    unknown_policy,
)
from pushluck_teach.solve.turn import TurnSolver

POLICY_HELP = "policies: threshold:T, turn-optimal (or optimal)"


@dataclass(frozen=True)
class SoloPolicy:
    """``threshold`` (with ``threshold``) or ``optimal-turn``."""

    kind: str
    threshold: int | None = None

    @property
    def name(self) -> str:
        return f"threshold:{self.threshold}" if self.kind == "threshold" else self.kind

    @classmethod
    def parse(cls, text: str | SoloPolicy | Policy) -> SoloPolicy:
        """From the shared vocabulary (``optimal`` is ``turn-optimal`` here)."""
        if isinstance(text, SoloPolicy):
            return text
        policy = parse_policy(text, optimal=TURN_OPTIMAL, who="solo", names=POLICY_HELP)
        if policy.kind == THRESHOLD:
            return cls("threshold", policy.number)
        if policy.kind != TURN_OPTIMAL:
            raise unknown_policy(policy.name, "solo", POLICY_HELP)
        return cls("optimal-turn")

    def chooser(self, solver: TurnSolver[Any]) -> Callable[[Any], str]:
        if self.kind == "threshold":
            return solver.threshold_policy(self.threshold or 1)
        return solver.best_action



@dataclass(frozen=True, eq=False)
class SoloResult:
    """The exact distribution of the final score within the stated model.

    ``scores[i]`` (ascending) has probability ``probabilities[i]`` (only scores with positive
    probability).  ``p_out``: the chance that the game is lost (score 0; Hit List: executed at
    the sixth botched job); None for a mode that cannot be lost.
    """

    game: str
    variant: Any
    policy: str
    model: str
    scores: tuple[int, ...]
    probabilities: tuple[float, ...]
    p_out: float | None = None

    @property
    def mean(self) -> float:
        return math.fsum(s * p for s, p in zip(self.scores, self.probabilities, strict=True))

    @property
    def sd(self) -> float:
        second = math.fsum(s * s * p for s, p in zip(self.scores, self.probabilities,
                                                      strict=True))
        return math.sqrt(max(second - self.mean ** 2, 0.0))

    def distribution(self) -> dict[int, float]:
        return dict(zip(self.scores, self.probabilities, strict=True))

    def probability(self, score: int) -> float:
        return self.distribution().get(score, 0.0)

    def cdf_at_least(self, score: int) -> float:
        """P(final score >= ``score``)."""
        return math.fsum(p for s, p in zip(self.scores, self.probabilities, strict=True)
                         if s >= score)


def solo_mode(game: str) -> tuple[GameSpec, SoloMode]:
    """The spec and solo mode of ``game``, or a one-line :class:`RulesError`."""
    spec = get_game(game)
    if spec.solo is None:
        names = ", ".join(s.name for s in all_games() if s.solo is not None)
        raise RulesError(f"no solo model for {game!r} (solo models: {names})")
    return spec, spec.solo


def prepared_variant(game: str, variant: Any = None) -> Any:
    """``variant`` (``None``: the default) in solo play, checked by the game's solo mode."""
    return solo_mode(game)[1].prepare(variant)


@lru_cache(maxsize=64)
def _turn_outcomes(game: str, variant: Any, policy: SoloPolicy,
                   position: tuple[tuple[str, Any], ...]) -> Mapping[Hashable, float]:
    spec, mode = solo_mode(game)
    model, start = spec.position(variant, **dict(position))
    solver = TurnSolver(model)

    def outcome(last: Any, terminal: Any, action: str) -> Hashable:
        return mode.turn_outcome(variant, model, last, terminal, action)

    return solver.distribution(start, policy.chooser(solver), outcome=outcome)


def turn_outcomes(game: str, variant: Any, policy: str | SoloPolicy, carry: Hashable
                  ) -> Mapping[Hashable, float]:
    """``{what the turn hands on: probability}`` for one turn from a fresh deck with ``carry``
    (Lands Uncharted: ``(banked, allies after)``; Hit List: the job's result, -10 a botch)."""
    _spec, mode = solo_mode(game)
    variant = mode.prepare(variant)
    position = tuple(sorted(mode.turn_position(variant, carry).items()))
    return _turn_outcomes(game, variant, SoloPolicy.parse(policy), position)


def solo_result(game: str, variant: Any = None, policy: str | SoloPolicy = "threshold:20", *,
                turns: int | None = None) -> SoloResult:
    """The exact final-score distribution of ``game``'s solo mode in the fresh-deck model (the
    module docstring); ``turns``: end the game after at most that many turns.  Each carry's
    scores are a ``{score: probability}`` row (plain Python: the static site has no NumPy)."""
    _spec, mode = solo_mode(game)
    variant = mode.prepare(variant)
    rule = SoloPolicy.parse(policy)
    live: dict[Hashable, dict[int, float]] = {mode.start: {0: 1.0}}
    final: dict[int, float] = {}
    lost: list[float] = []
    played = 0
    while live:
        new: dict[Hashable, dict[int, float]] = {}
        for carry, row in live.items():
            for outcome, p in turn_outcomes(game, variant, rule, carry).items():
                x, after = mode.advance(variant, carry, outcome)
                moved = new.setdefault(after, {})
                for score, mass in row.items():
                    moved[score + x] = moved.get(score + x, 0.0) + p * mass
        played += 1
        live = {}
        for carry, row in new.items():
            if not (mode.finished(variant, carry) or (turns is not None and played >= turns)):
                live[carry] = row
                continue
            bonus = mode.end_bonus(variant, carry)
            if bonus is None:  # lost: the score is 0
                mass = math.fsum(row.values())
                final[0] = final.get(0, 0.0) + mass
                lost.append(mass)
            else:
                for score, p in row.items():
                    final[score + bonus] = final.get(score + bonus, 0.0) + p
        if played > 10_000:  # pragma: no cover - a mode whose games never end
            raise RulesError(f"{game}'s solo game does not end within 10,000 turns")
    scores = tuple(sorted(s for s, p in final.items() if p > 0))
    return SoloResult(game, variant, rule.name, mode.model, scores,
                      tuple(final[s] for s in scores),
                      math.fsum(lost) if mode.can_lose else None)


__all__ = ["SoloPolicy", "SoloResult", "prepared_variant", "solo_mode", "solo_result",
           "turn_outcomes"]
