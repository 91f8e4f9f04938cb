""""Check it yourself": every table shows its position as `pushluck odds` flags.  For every game,
the position those flags rebuild must give the same exact numbers as the engine's own view of
the turn, all through real seeded games."""

from __future__ import annotations

import random

import pytest

from pushluck_teach.cli import POSITION_FLAGS
from pushluck_teach.games.base import DRAW, GameSpec, turn_games
from pushluck_teach.solve.turn import TurnSolver

GAMES = turn_games()  # the games with a draw/stop turn model
FLAG_KWARGS = {flag: name for name, flag in POSITION_FLAGS.items()}


def kwargs_from_flags(flags: dict[str, str]) -> dict[str, object]:
    """The position factory's keyword arguments, converted as the CLI converts them."""
    kwargs: dict[str, object] = {}
    for name, value in flags.items():
        assert name in POSITION_FLAGS, f"{name} is not a `pushluck odds` flag"
        numeric = name in ("allies", "round", "hits", "score")
        kwargs[name] = int(value) if numeric else value
    return kwargs


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_position_flags_rebuild_the_engines_position(spec: GameSpec) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        engine = spec.new_engine(players=1 if spec.min_players == 1 else spec.min_players,
                                 seed=seed)
        for _ in range(40):
            if engine.is_over:
                break
            model, state = engine.turn_position()
            if DRAW in model.actions(state) and not model.is_forced(state):
                flags = engine.position_flags()
                cli_model, cli_state = spec.position(engine.variant, **kwargs_from_flags(flags))
                ours = TurnSolver(model, exact=True)
                theirs = TurnSolver(cli_model, exact=True)
                assert theirs.p_bust_next(cli_state) == ours.p_bust_next(state), flags
                assert (cli_model.turn_total(cli_state) == model.turn_total(state)), flags
                checked += 1
            legal = engine.legal_actions()
            engine.act(DRAW if DRAW in legal and rng.random() < 0.7 else rng.choice(legal))
    assert checked >= 10
