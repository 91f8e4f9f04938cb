"""The games.  Every module or package here registers one game (Pig is one module; a larger
game is a package of its rules, turn model, level graph, position reading and engine:
docs/app.md); importing this package loads them all, so adding a game means adding its module
or package here (and its notebook)."""

from __future__ import annotations

import importlib
import pkgutil

from pushluck_teach.games.base import all_games, get_game, turn_games

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["all_games", "get_game", "turn_games"]
