"""Whole-game solvers: winning the game, not the turn.

Each game with a whole-game solver has one module here exposing ``SOLVER``, an object with the
:class:`WholeGameSolver` interface, and one line in :data:`SOLVER_MODULES`.  The ``pushluck
solve GAME`` command, the cache and the shipped data go through this registry only, so adding a
game (Captain Seven's Doubloons, say) is one module plus one line here.

``python -m pushluck_teach.solve.whole_game`` recomputes the precomputed defaults shipped in
``pushluck_teach/data/`` (each solver's ``build_shipped``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from pushluck_teach.games.base import Engine, RulesError, Variant

#: game name -> module defining ``SOLVER``.  Register a new whole-game solver here.
SOLVER_MODULES = MappingProxyType({
    "pig": "pushluck_teach.solve.whole_game.pig",
    "captain-seven": "pushluck_teach.solve.whole_game.captain_seven",
})


class WholeGameSolver(Protocol):
    """What ``pushluck solve`` needs from a game's whole-game solver."""

    game: str
    #: one line listing the policy names, for error messages and ``--help``
    policy_help: str

    def report(self, variant: Variant, players: int, policies: Sequence[str], *,
               exact: bool = False) -> dict[str, Any]:
        """The JSON-ready answer for ``players`` players using ``policies`` (one per player;
        empty means the defaults).  Raises :class:`RulesError` on bad input."""
        ...

    def build_shipped(self, directory: Path) -> list[Path]:
        """Compute the defaults and write them to ``directory``; the files written."""
        ...


def win_chance_task(engine: Engine) -> Callable[[], float] | None:
    """For a live table's "chance to win from here" gauge: a function computing the player to
    move's chance to win from the engine's current position, built from an immutable snapshot
    (so it may run in a worker thread while play goes on), or ``None`` where no whole-game
    solution applies (no solver for the game, not two players, game over, hidden stashes...)."""
    module = SOLVER_MODULES.get(engine.game)
    if module is None:
        return None
    return importlib.import_module(module).win_chance_task(engine)


def has_solver(game: str) -> bool:
    return game in SOLVER_MODULES


def solver_for(game: str) -> WholeGameSolver:
    """The registered solver of ``game`` (a registered game's name)."""
    module = SOLVER_MODULES.get(game)
    if module is None:
        raise RulesError(f"no whole-game solver for {game} yet")
    return importlib.import_module(module).SOLVER


@dataclass(frozen=True)
class PolicyText:
    """A ``NAME[:ARG]`` policy as typed on the command line."""

    name: str
    arg: str | None = None

    @classmethod
    def parse(cls, text: str) -> PolicyText:
        name, sep, arg = text.strip().partition(":")
        name = name.strip().lower()
        if not name:
            raise RulesError(f"bad policy {text!r}: write NAME or NAME:ARG")
        if sep and not arg.strip():
            raise RulesError(f"bad policy {text!r}: nothing after ':'")
        return cls(name, arg.strip() if sep else None)

    def int_arg(self, low: int = 1) -> int:
        """The argument as a whole number at least ``low``."""
        if self.arg is None or not self.arg.lstrip("-").isdigit() or int(self.arg) < low:
            raise RulesError(
                f"bad policy {self.text!r}: write {self.name}:N with a whole number N >= {low}"
            )
        return int(self.arg)

    @property
    def text(self) -> str:
        return self.name if self.arg is None else f"{self.name}:{self.arg}"


def build_all_shipped(directory: Path | None = None) -> list[Path]:
    """Recompute every solver's shipped defaults (into ``pushluck_teach/data`` by default)."""
    from pushluck_teach.solve.cache import DATA_DIR

    directory = directory or DATA_DIR
    written: list[Path] = []
    for game in SOLVER_MODULES:
        written.extend(solver_for(game).build_shipped(directory))
    return written


__all__ = [
    "SOLVER_MODULES", "PolicyText", "WholeGameSolver", "build_all_shipped", "has_solver",
    "solver_for",
]
