"""Chances to win at a live engine's position (the table's "chance to win from here" gauge and
the win coach): one adapter from a running engine to its game's whole-game solution
(``GameSpec.whole_game``).

It reads the engine (whose turn, the scores, the turn position) into an immutable snapshot and
returns a function computing the chance, so the gauge may run it in a worker thread while play
goes on.  No game is named here: each solver's ``win_chance`` says which variants it covers.
The chances come from :func:`~pushluck_teach.solve.whole_game.chances_for` (plain Python where
the game has a NumPy-free companion: the static site uses the same code).  On the static site a
variant whose table is not shipped raises an :class:`ImportError` whose message says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import Engine, TurnModel, Variant, get_game
from pushluck_teach.solve.whole_game import WinChances, chances_for

#: The whole-game solutions are for two players.
PLAYERS = 2


@dataclass(frozen=True)
class Snapshot:
    """What a whole-game solver needs of a live two-player table, read once."""

    solver: WinChances
    variant: Variant
    my_score: int
    opp_score: int
    model: TurnModel[Any]
    state: Any


def snapshot(engine: Engine) -> Snapshot | None:
    """The engine's position for its whole-game solver, or ``None`` where no whole-game solution
    applies: no solver for the game, not two players, the game over, or scores hidden (a secret
    stash: a gauge would reveal the other stash)."""
    spec = get_game(engine.game)
    if (spec.whole_game is None or engine.is_over or engine.players != PLAYERS
            or engine.scores_hidden):
        return None
    me = engine.current_player
    scores = engine.scores()
    model, state = engine.turn_position()
    return Snapshot(chances_for(spec.name), engine.variant, int(scores[me]),
                    int(scores[1 - me]), model, state)


def win_chance_task(engine: Engine) -> Callable[[], float] | None:
    """A function computing the player to move's chance to win from the engine's current
    position, or ``None`` where :func:`snapshot` is ``None`` or the solver does not cover the
    variant."""
    at = snapshot(engine)
    if at is None:
        return None
    return at.solver.win_chance(at.variant, at.my_score, at.opp_score, at.model, at.state)


def action_win_chances_task(engine: Engine
                            ) -> Callable[[], dict[str, float | None]] | None:
    """A function computing the player to move's chance to win after each action now
    (``{"draw": p, "stop": p or None}``), or ``None`` where :func:`win_chance_task` would be
    ``None`` (the same conditions) or the turn is over."""
    at = snapshot(engine)
    if at is None or not at.model.actions(at.state):
        return None
    return at.solver.action_win_chances(at.variant, at.my_score, at.opp_score, at.model,
                                        at.state)


def engine_win_probability(engine: Engine) -> float | None:
    """:func:`win_chance_task` computed now."""
    task = win_chance_task(engine)
    return None if task is None else task()


__all__ = ["action_win_chances_task", "engine_win_probability", "win_chance_task"]
