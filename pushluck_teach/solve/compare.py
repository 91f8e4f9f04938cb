"""What the variant lab shows of one rule set, side by side with another (naming no game).

:func:`summarise` computes, from the turn start the game's own ``GameSpec.position`` builds:
the turn's optimal value, its readable stop rule and bust risk (:mod:`.stop_rule`), the
distribution of the turn's result, the **bust risk by number of draws** (under optimal play,
the chance that the ``k``-th draw of a turn busts, among turns that make a ``k``-th draw: one
forward pass of probability mass over ``(state, draws made)``), and, on request, the expected
number of turns to reach a target alone (:mod:`.race`: turn-optimal play that stops once the
target is covered, every turn from the same start: exact for
games whose deck is reshuffled each turn or dice, "a fresh deck each turn" otherwise) and the
first player's win chance where a whole-game solver covers the variant (:mod:`.sweep`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pushluck_teach.games.base import DRAW, GameSpec, RulesError, TurnModel, Variant
from pushluck_teach.solve.race import expected_turns_to_target
from pushluck_teach.solve.stop_rule import StopRule, describe_stop_rule
from pushluck_teach.solve.sweep import win_chance
from pushluck_teach.solve.turn import PolicyGraph, TurnSolver


@dataclass(frozen=True)
class Summary:
    """One rule set's numbers (floats; ``None`` where not asked for or not available)."""

    turn_value: float
    stop_rule: StopRule
    distribution: Mapping[float, float]
    bust_by_draw: tuple[float, ...]
    race_turns: float | None = None
    win_chance: float | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def bust_risk(self) -> float:
        return self.stop_rule.bust_risk


def bust_by_draw(model: TurnModel[Any], start: Any, solver: TurnSolver[Any],
                 graph: PolicyGraph | None = None) -> tuple[float, ...]:
    """``h[k-1]`` = P(the ``k``-th draw busts | a ``k``-th draw is made), optimal play
    (``graph``: optimal play's graph from ``start``, when the caller has it)."""
    graph = graph or solver.optimal_graph(start)
    mass: dict[Any, dict[int, float]] = {start: {0: 1.0}}
    drawing: dict[int, float] = {}
    busting: dict[int, float] = {}
    for node in graph.order:
        move = graph.moves.get(node)
        arrivals = mass.pop(node, None)
        if move is None or not arrivals:
            continue
        action, pairs = move
        total = sum(w for w, _ in pairs)
        for k, p in arrivals.items():
            step = k + 1 if action == DRAW else k
            if action == DRAW:
                drawing[step] = drawing.get(step, 0.0) + p
            for weight, nxt in pairs:
                share = p * weight / total
                if model.actions(nxt):
                    row = mass.setdefault(nxt, {})
                    row[step] = row.get(step, 0.0) + share
                elif action == DRAW and model.is_bust(nxt):
                    busting[step] = busting.get(step, 0.0) + share
    top = max(drawing, default=0)
    return tuple(busting.get(k, 0.0) / drawing[k] if drawing.get(k) else 0.0
                 for k in range(1, top + 1))


def summarise(spec: GameSpec, variant: Variant, *, race_target: int | None = None,
              whole_game: bool = True) -> Summary:
    """The lab's numbers for one variant (module docstring); bad rules raise RulesError."""
    model, state = spec.position(variant)
    solver = TurnSolver(model)
    value = float(solver.value(state))
    graph = solver.optimal_graph(state)  # one walk for the rule, the hazard and the race
    rule = describe_stop_rule(model, solver, state, graph=graph)
    dist = {float(k): float(p) for k, p in solver.distribution(state).items()}
    hazard = bust_by_draw(model, state, solver, graph)
    notes = []
    race = None
    if race_target is not None:
        try:
            race = float(expected_turns_to_target(model, race_target, None, start=state,
                                                  solver=solver, graph=graph))
        except RulesError as exc:
            notes.append(str(exc))
    chance = None
    if whole_game:
        try:
            chance = win_chance(spec, variant)
        except RulesError as exc:
            notes.append(f"win chance: {exc}")
    return Summary(value, rule, dist, hazard, race, chance, tuple(notes))


__all__ = ["Summary", "bust_by_draw", "summarise"]
