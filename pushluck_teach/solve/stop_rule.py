r"""The optimal play of a turn as a rule a person can read: "stop at 20 or more unless ...".

Take the optimal policy ``π`` of a turn model and the states it reaches from the turn start,
with their reach probabilities ``p(s)`` (one forward pass in topological order).  At each
*choice* state (both ``draw`` and ``stop`` legal) a threshold rule "stop once the turn total is
``T`` or more" agrees or disagrees with ``π``.  The threshold shown is the ``T`` that minimises
the disagreeing mass

.. math::

    D(T) = \sum_{s:\,t(s) \ge T,\ \pi(s) = \text{draw}} p(s)
         + \sum_{s:\,t(s) < T,\ \pi(s) = \text{stop}} p(s)

(ties: the smallest ``T``); ``agreement`` is ``1 - D(T) / Σ p(s)`` over the choice states, the
share of the decisions a player meets in optimal play on which the rule does what the optimum
does.  The exceptions are the disagreeing states, grouped by direction and totals, each with
the likeliest state as an example (the model's own description of it).  Nothing here names a
game: it reads only ``actions``, ``transitions``, ``turn_total``, ``is_bust`` and ``describe``.
The same pass gives the turn's bust risk under optimal play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, TurnModel
from pushluck_teach.solve.turn import PolicyGraph, TurnSolver, policy_graph


@dataclass(frozen=True)
class Departure:
    """States where the optimum departs from the threshold rule."""

    action: str            # what the optimum does there: "draw" (above T) or "stop" (below T)
    low: float
    high: float
    share: float           # of the choice-state mass
    example: str


@dataclass(frozen=True)
class StopRule:
    """A readable summary of an optimal turn policy."""

    threshold: float | None
    agreement: float
    exceptions: tuple[Departure, ...]
    bust_risk: float
    text: str

    def as_json(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold, "agreement": self.agreement, "bust_risk": self.bust_risk,
            "text": self.text,
            "exceptions": [e.__dict__ for e in self.exceptions],
        }


def reach_probabilities(graph: PolicyGraph, start: Any) -> dict[Any, float]:
    """The probability that a turn from ``start`` passes through each state of ``graph``."""
    mass: dict[Any, float] = {start: 1.0}
    for node in graph.order:
        p = mass.get(node, 0.0)
        move = graph.moves.get(node)
        if move is None or not p:
            continue
        pairs = move[1]
        total = sum(w for w, _ in pairs)
        for weight, nxt in pairs:
            mass[nxt] = mass.get(nxt, 0.0) + p * weight / total
    return mass


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _span(low: float, high: float) -> str:
    return _number(low) if low == high else f"{_number(low)}-{_number(high)}"


def describe_stop_rule(model: TurnModel[Any], solver: TurnSolver[Any] | None = None,
                       start: Any = None, *, max_exceptions: int = 2,
                       policy: Callable[[Any], str] | None = None) -> StopRule:
    """The stop rule of the optimal policy (or ``policy``) from ``start`` (module docstring)."""
    start = model.start if start is None else start
    solver = solver or TurnSolver(model)
    choose = policy or solver.best_action
    graph = policy_graph(model, start, choose)
    mass = reach_probabilities(graph, start)
    choices: list[tuple[float, str, float, Any]] = []
    bust = 0.0
    for node in graph.order:
        p = mass.get(node, 0.0)
        move = graph.moves.get(node)
        if move is None:
            if model.is_bust(node):
                bust += p
            continue
        actions = model.actions(node)
        if DRAW in actions and STOP in actions and p > 0:
            choices.append((float(model.turn_total(node)), move[0], p, node))
    if not choices:
        return StopRule(None, 1.0, (), bust, "No choice to make: every draw is forced or the "
                        "turn ends by itself.")
    totals = sorted({t for t, _, _, _ in choices})
    candidates = [*totals, totals[-1] + 1]
    whole = sum(p for _, _, p, _ in choices)
    best_t, best_d = candidates[0], None
    for threshold in candidates:
        d = sum(p for t, a, p, _ in choices if (t >= threshold) == (a != STOP))
        if best_d is None or d < best_d - 1e-15:
            best_t, best_d = threshold, d
    assert best_d is not None
    exceptions: list[Departure] = []
    for action, wrong in ((DRAW, lambda t: t >= best_t), (STOP, lambda t: t < best_t)):
        found = [(t, p, s) for t, a, p, s in choices if a == action and wrong(t)]
        if not found:
            continue
        share = sum(p for _, p, _ in found) / whole
        example = max(found, key=lambda x: x[1])[2]
        exceptions.append(Departure(action, min(t for t, _, _ in found),
                                     max(t for t, _, _ in found), share,
                                     model.describe(example)))
    exceptions.sort(key=lambda e: -e.share)
    agreement = 1.0 - best_d / whole
    if best_t > totals[-1]:
        text = "Keep drawing whenever you may stop"
    elif best_t <= totals[0]:
        text = "Stop as soon as you may"
    else:
        text = f"Stop at {_number(best_t)} or more"
    shown = exceptions[:max_exceptions]
    if shown:
        parts = []
        for e in shown:
            verb = "draw on" if e.action == DRAW else "stop"
            parts.append(f"{verb} at {_span(e.low, e.high)} in {e.share:.1%} of the decisions "
                         f"(e.g. {e.example})")
        text += ", unless: " + "; ".join(parts)
    text += f". Agrees with the optimum on {agreement:.1%} of the decisions reached."
    return StopRule(None if best_t > totals[-1] else best_t, agreement, tuple(exceptions), bust,
                    text)


__all__ = ["Departure", "StopRule", "describe_stop_rule", "reach_probabilities"]
