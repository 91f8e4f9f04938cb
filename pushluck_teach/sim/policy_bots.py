"""Bots that play the whole-game solvers' policies in the real engines (simulation checks of
the exact whole-game answers).  A bot reads the live engine; which action a policy takes comes
from the game's whole-game solver (:meth:`WholeGameSolver.policy_chooser`, reached through the
game's spec), so this module names no game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, Engine
from pushluck_teach.sim.bots import checked
from pushluck_teach.solve.turn import cached_solver
from pushluck_teach.solve.whole_game import PolicyChooser, solver_for


@dataclass
class WholeGamePolicyBot:
    """Draws while stopping is not legal, else plays its whole-game policy (the turn-optimal
    action where the policy says so)."""

    chooser: PolicyChooser
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or self.chooser.name

    def choose(self, engine: Engine) -> str:
        if STOP not in engine.legal_actions():
            return DRAW
        action = self.chooser.choose(engine)
        if action is None:
            model, state = engine.turn_position()
            return checked(engine, model, state, cached_solver(model).best_action(state))
        return action


def policy_bot(game: str, policy: Any, name: str = "") -> WholeGamePolicyBot:
    """The bot playing ``policy`` (a name such as ``"hold:20"``, or the solver's own policy
    object) of ``game``'s whole-game solver; a :class:`RulesError` on a bad name or a game
    without a whole-game solver."""
    return WholeGamePolicyBot(solver_for(game).policy_chooser(policy), name)


__all__ = ["WholeGamePolicyBot", "policy_bot"]
