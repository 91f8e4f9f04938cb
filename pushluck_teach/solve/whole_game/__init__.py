"""Whole-game solvers: winning the game, not the turn.

A game with a whole-game solver names its module in its spec (``GameSpec.whole_game``, a dotted
path such as ``"pushluck_teach.solve.whole_game.pig"``, because ``games/`` does not import
``solve/``); that module exposes ``SOLVER``, an object with the :class:`WholeGameSolver`
interface.  The ``pushluck solve GAME`` command, the gauge, the cache and the shipped data go
through :func:`solver_for` only, so adding a solver is one module plus one field of its spec.

The live gauge and the win coach go through :func:`chances_for`: a solver module ``M`` may have a
companion ``M_chances`` exposing ``CHANCES`` (:class:`WinChances`) that needs no NumPy, reading
the solver's stored tables in plain Python, so that the static site (no NumPy in the browser)
shows the same chances as the Voilà app by the same code.

``python -m pushluck_teach.solve.whole_game`` recomputes the precomputed defaults shipped in
``pushluck_teach/data/`` (each solver's ``build_shipped``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pushluck_teach.games.base import Engine, RulesError, TurnModel, Variant, all_games
from pushluck_teach.games.policies import PolicyText


class WinChances(Protocol):
    """What the win gauge and the win coach need: the chance to win at a turn position."""

    game: str
    #: one line saying how the solution is computed (the gauge's note)
    description: str

    def win_chance(self, variant: Variant, my_score: int, opp_score: int,
                   model: TurnModel[Any], state: Any) -> Callable[[], float] | None:
        """A function computing the chance that the player to move (``my_score``) beats the
        other (``opp_score``) from this turn position, both playing optimally; ``None`` where
        the solution does not cover the variant (relics, a target too long...)."""
        ...

    def action_win_chances(self, variant: Variant, my_score: int, opp_score: int,
                           model: TurnModel[Any], state: Any
                           ) -> Callable[[], dict[str, float | None]] | None:
        """A function computing the mover's chance to win after each action now (``"draw"``,
        ``"stop"``; None for an action not allowed), both playing optimally afterwards; ``None``
        where the solution does not cover the variant.  The coach's "best chance to win"."""
        ...


class WholeGameSolver(WinChances, Protocol):
    """What ``pushluck solve``, the bots and the review need from a game's whole-game solver."""

    #: one line listing the policy names, for error messages and ``--help``
    policy_help: str

    def report(self, variant: Variant, players: int, policies: Sequence[str], *,
               exact: bool = False) -> WholeGameReport:
        """The answer for ``players`` players using ``policies`` (one per player; empty means
        the defaults).  Raises :class:`RulesError` on bad input."""
        ...

    def build_shipped(self, directory: Path) -> list[Path]:
        """Compute the defaults and write them to ``directory``; the files written."""
        ...

    def policy_chooser(self, policy: Any) -> PolicyChooser:
        """``policy`` (a name of the shared vocabulary, or the solver's own policy object) as
        a bot plays it in the real engine.  Raises :class:`RulesError` on a bad name."""
        ...


@dataclass(frozen=True)
class PolicyChooser:
    """A whole-game policy in the real engine: ``choose(engine)`` gives the action at a
    decision where stopping is allowed, or ``None`` for the turn-optimal action (the turn
    solver's); ``name`` names the policy."""

    name: str
    choose: Callable[[Engine], str | None]


@dataclass(frozen=True)
class WholeGameReport:
    """A whole-game answer: ``items`` in the order shown (JSON-ready values; dict values are
    shown only in JSON)."""

    game: str
    variant: Mapping[str, Any]
    items: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> WholeGameReport:
        """From a dict holding ``game``, ``variant`` and the items in order."""
        items = tuple((k, v) for k, v in answer.items() if k not in ("game", "variant"))
        return cls(answer["game"], answer["variant"], items)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "variant": dict(self.variant), **dict(self.items)}

    def __getitem__(self, key: str) -> Any:
        return self.as_json()[key]


def solver_modules() -> dict[str, str]:
    """``{game: module}`` for every registered game with a whole-game solver."""
    return {spec.name: spec.whole_game for spec in all_games() if spec.whole_game}


def has_solver(game: str) -> bool:
    return game in solver_modules()


def solver_for(game: str) -> WholeGameSolver:
    """The registered solver of ``game`` (a registered game's name)."""
    module = solver_modules().get(game)
    if module is None:
        raise RulesError(f"no whole-game solver for {game} yet")
    return importlib.import_module(module).SOLVER


def plain_chances(game: str) -> WinChances | None:
    """The NumPy-free companion of ``game``'s solver module (``<module>_chances``'s
    ``CHANCES``), or ``None`` where it has none."""
    module = solver_modules().get(game)
    if module is None:
        raise RulesError(f"no whole-game solver for {game} yet")
    companion = f"{module}_chances"
    try:
        return importlib.import_module(companion).CHANCES
    except ModuleNotFoundError as exc:
        if exc.name != companion:
            raise
    return None


def chances_for(game: str) -> WinChances:
    """The gauge's and the win coach's chances for ``game``: the NumPy-free companion of its
    solver module where there is one (:func:`plain_chances`), else the solver."""
    return plain_chances(game) or solver_for(game)


def build_all_shipped(directory: Path | None = None) -> list[Path]:
    """Recompute every solver's shipped defaults (into ``pushluck_teach/data`` by default)."""
    from pushluck_teach.solve.cache import DATA_DIR

    directory = directory or DATA_DIR
    written: list[Path] = []
    for game in solver_modules():
        written.extend(solver_for(game).build_shipped(directory))
    return written


__all__ = [
    "PolicyChooser", "PolicyText", "WholeGameReport", "WholeGameSolver", "WinChances",
    "build_all_shipped", "chances_for", "has_solver", "plain_chances", "solver_for",
    "solver_modules",
]
