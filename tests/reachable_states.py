"""The decision states a turn solver can visit from a position (shared by the level tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pushluck_teach.games.base import STOP, TurnModel


def solver_states(model: TurnModel[Any], start: Any,
                  is_decision: Callable[[Any], bool]) -> list[Any]:
    """Every decision state reachable from ``start`` by drawing, without going past a state
    where stopping is proved optimal (the solver values those without looking further)."""
    seen, stack = {start}, [start]
    while stack:
        state = stack.pop()
        actions = model.actions(state)
        if STOP in actions and model.stop_is_optimal(state):
            continue
        for action in actions:
            if action == STOP:
                continue
            for _, nxt in model.transitions(state, action):
                if is_decision(nxt) and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return list(seen)
