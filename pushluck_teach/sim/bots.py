"""Bots that play an :class:`~pushluck_teach.games.base.Engine` turn by turn."""

from __future__ import annotations

from dataclasses import dataclass, field

from pushluck_teach.games.base import DRAW, STOP, Bot, Engine, GameSpec, RulesError
from pushluck_teach.games.policies import (
    PRESET_THRESHOLDS,
    THRESHOLD,
    TURN_OPTIMAL,
    UnknownPolicyError,
    parse_policy,
)
from pushluck_teach.solve.turn import cached_solver


def _fallback(engine: Engine) -> str:
    legal = engine.legal_actions()
    return STOP if STOP in legal else legal[0]


@dataclass
class OptimalTurnBot:
    """Plays each turn to maximise the turn's expected result (the solver's optimal policy)."""

    name: str = "optimal-turn"

    def choose(self, engine: Engine) -> str:
        model, state = engine.turn_position()
        action = cached_solver(model).best_action(state)
        return action if action in engine.legal_actions() else _fallback(engine)


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
        action = cached_solver(model).best_action(state)
        return action if action in legal else _fallback(engine)


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


__all__ = ["BOT_HELP", "Bot", "OptimalTurnBot", "ThresholdBot", "make_bot"]
