"""Bots that play an :class:`~pushluck_teach.games.base.Engine` turn by turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, Bot, Engine, GameSpec, RulesError, TurnModel
from pushluck_teach.games.policies import (
    PRESET_THRESHOLDS,
    THRESHOLD,
    TURN_OPTIMAL,
    UnknownPolicyError,
    parse_policy,
)
from pushluck_teach.solve.turn import cached_solver


class ModelEngineMismatch(RuntimeError):
    """A turn model's action that its engine does not allow in a decision the model covers: a
    bug in the game module, never hidden by a bot."""


def _outside_model(engine: Engine) -> str:
    """A decision the turn model does not cover (a king window): stop if allowed, else the
    engine's first legal action."""
    legal = engine.legal_actions()
    return STOP if STOP in legal else legal[0]


def checked(engine: Engine, model: TurnModel[Any], state: Any, action: str) -> str:
    """``action`` if the engine allows it; outside the model, the documented choice of
    :func:`_outside_model`; otherwise :class:`ModelEngineMismatch` naming game, state and
    action."""
    legal = engine.legal_actions()
    if action in legal:
        return action
    if not engine.decision_in_turn_model():
        return _outside_model(engine)
    raise ModelEngineMismatch(
        f"{engine.game}: the turn model and the engine disagree: the model chooses {action!r} "
        f"at {model.describe(state)}, which is not legal in the engine "
        f"(legal: {', '.join(legal) or 'none'})")


@dataclass
class OptimalTurnBot:
    """Plays each turn to maximise the turn's expected result (the solver's optimal policy)."""

    name: str = "optimal-turn"

    def choose(self, engine: Engine) -> str:
        model, state = engine.turn_position()
        return checked(engine, model, state, cached_solver(model).best_action(state))


@dataclass
class ThresholdBot:
    """Stops once the turn total reaches ``threshold``; other choices are made optimally."""

    threshold: int
    name: str = field(default="")

    def __post_init__(self) -> None:
        self.name = self.name or f"threshold {self.threshold}"

    def choose(self, engine: Engine) -> str:
        model, state = engine.turn_position()
        legal = engine.legal_actions()
        actions = model.actions(state)
        if STOP in legal and STOP in actions and model.turn_total(state) >= self.threshold:
            return STOP
        if DRAW in legal:
            return DRAW
        return checked(engine, model, state, cached_solver(model).best_action(state))


BOT_HELP = "bots: turn-optimal (or optimal), threshold:T, cautious, greedy"


def make_bot(spec: str, game: GameSpec | None = None) -> Bot:
    """A bot from the policy vocabulary (:mod:`pushluck_teach.games.policies`): ``optimal``
    (turn-optimal at a table), ``turn-optimal``, ``threshold:T`` / ``hold:T``, ``cautious``,
    ``greedy``, or one of ``game``'s own bots (``GameSpec.bots``)."""
    own = dict(game.bots) if game is not None else {}
    try:
        policy = parse_policy(spec, extra=set(own))
    except UnknownPolicyError:
        names = BOT_HELP + "".join(f", {name}" for name in own)
        raise RulesError(f"unknown bot {spec!r} ({names})") from None
    if policy.kind in own:
        return own[policy.kind]()
    if policy.kind == TURN_OPTIMAL:
        return OptimalTurnBot()
    if policy.kind == THRESHOLD:
        if policy.name in PRESET_THRESHOLDS:
            return ThresholdBot(policy.number or 1, name=policy.name)
        return ThresholdBot(policy.number or 1)
    raise RulesError(f"bot {spec!r} needs a whole-game solution; a table seat takes "
                     f"({BOT_HELP})")


__all__ = [
    "BOT_HELP", "Bot", "ModelEngineMismatch", "OptimalTurnBot", "ThresholdBot", "checked",
    "make_bot",
]
