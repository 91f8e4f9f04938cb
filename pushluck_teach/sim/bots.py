"""Bots that play an :class:`~pushluck_teach.games.base.Engine` turn by turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pushluck_teach.games.base import DRAW, STOP, Engine, RulesError
from pushluck_teach.solve.turn import cached_solver


class Bot(Protocol):
    name: str

    def choose(self, engine: Engine) -> str: ...


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


PRESET_THRESHOLDS = {"cautious": 10, "greedy": 30}


def make_bot(spec: str) -> Bot:
    """``optimal``, ``threshold:T``, ``cautious`` or ``greedy``."""
    name, _, arg = spec.partition(":")
    if name in ("optimal", "optimal-turn"):
        return OptimalTurnBot()
    if name in PRESET_THRESHOLDS:
        return ThresholdBot(PRESET_THRESHOLDS[name], name=name)
    if name in ("threshold", "hold"):
        if not arg.lstrip("-").isdigit():
            raise RulesError(f"bad bot {spec!r}: write threshold:T with a whole number T")
        return ThresholdBot(int(arg))
    raise RulesError(f"unknown bot {spec!r} (bots: optimal, threshold:T, cautious, greedy)")
