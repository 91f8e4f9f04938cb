"""The live table's "chance to win from here": one adapter from a running engine to its game's
whole-game solution (``GameSpec.whole_game``).

It reads the engine (whose turn, the scores, the turn position) into an immutable snapshot and
returns a function computing the chance, so the gauge may run it in a worker thread while play
goes on.  No game is named here: each solver's ``win_chance`` says which variants it covers.
"""

from __future__ import annotations

from collections.abc import Callable

from pushluck_teach.games.base import Engine, get_game
from pushluck_teach.solve.whole_game import solver_for

#: The whole-game solutions are for two players.
PLAYERS = 2


def win_chance_task(engine: Engine) -> Callable[[], float] | None:
    """A function computing the player to move's chance to win from the engine's current
    position, or ``None`` where no whole-game solution applies: no solver for the game, not two
    players, the game over, scores hidden (a secret stash: the gauge would reveal the other
    stash), or a variant the solver does not cover."""
    spec = get_game(engine.game)
    if (spec.whole_game is None or engine.is_over or engine.players != PLAYERS
            or engine.scores_hidden):
        return None
    me = engine.current_player
    scores = engine.scores()
    model, state = engine.turn_position()
    return solver_for(spec.name).win_chance(engine.variant, int(scores[me]),
                                            int(scores[1 - me]), model, state)


def action_win_chances_task(engine: Engine
                            ) -> Callable[[], dict[str, float | None]] | None:
    """A function computing the player to move's chance to win after each action now
    (``{"draw": p, "stop": p or None}``), or ``None`` where :func:`win_chance_task` would be
    ``None`` (the same conditions)."""
    spec = get_game(engine.game)
    if (spec.whole_game is None or engine.is_over or engine.players != PLAYERS
            or engine.scores_hidden):
        return None
    me = engine.current_player
    scores = engine.scores()
    model, state = engine.turn_position()
    if not model.actions(state):
        return None
    return solver_for(spec.name).action_win_chances(engine.variant, int(scores[me]),
                                                    int(scores[1 - me]), model, state)


def engine_win_probability(engine: Engine) -> float | None:
    """:func:`win_chance_task` computed now."""
    task = win_chance_task(engine)
    return None if task is None else task()


__all__ = ["action_win_chances_task", "engine_win_probability", "win_chance_task"]
