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


Choice = tuple[float, str, float, Any, str]  # total, optimal action, reach mass, state, group


def _best_threshold(choices: list[Choice]) -> tuple[float, float]:
    """The threshold minimising the disagreeing mass over ``choices``, and that mass."""
    totals = sorted({c[0] for c in choices})
    best_t, best_d = totals[0], float("inf")
    for threshold in [*totals, totals[-1] + 1]:
        d = sum(p for t, a, p, _, _ in choices if (t >= threshold) == (a != STOP))
        if d < best_d - 1e-15:
            best_t, best_d = threshold, d
    return best_t, best_d


def _rule_phrase(threshold: float, totals: list[float]) -> str:
    if threshold > totals[-1]:
        return "keep drawing whenever you may stop"
    if threshold <= totals[0]:
        return "stop as soon as you may"
    return f"stop at {_number(threshold)} or more"


def _split(choices: list[Choice], model: TurnModel[Any], whole: float, base: float
           ) -> tuple[str, dict[str, float], float] | None:
    """The model's feature (``rule_features``, optional) whose per-value thresholds agree best
    with the optimum, when that beats one threshold by at least 2% of the decisions."""
    features = getattr(model, "rule_features", None)
    if features is None:
        return None
    by_feature: dict[str, dict[str, list[Choice]]] = {}
    for choice in choices:
        for name, value in features(choice[3]):
            by_feature.setdefault(name, {}).setdefault(value, []).append(choice)
    best: tuple[str, dict[str, float], float] | None = None
    for name, groups in by_feature.items():
        if sum(len(g) for g in groups.values()) != len(choices) or len(groups) < 2:
            continue
        thresholds = {}
        missed = 0.0
        for value, group in groups.items():
            thresholds[value], d = _best_threshold(group)
            missed += d
        if missed < base - 0.02 * whole and (best is None or missed < best[2]):
            best = (name, thresholds, missed)
    return best


def describe_stop_rule(model: TurnModel[Any], solver: TurnSolver[Any] | None = None,
                       start: Any = None, *, max_exceptions: int = 2,
                       policy: Callable[[Any], str] | None = None,
                       graph: PolicyGraph | None = None) -> StopRule:
    """The stop rule of the optimal policy (or ``policy``) from ``start`` (module docstring).

    A model may offer ``rule_features(state) -> ((name, condition), ...)`` (say, name "faces",
    conditions "a J/Q/K held" / "no J/Q/K held"); the rule then may use one feature's values,
    each with its own threshold, when that agrees with the optimum clearly better than a single
    threshold.  ``graph``: the optimal policy's graph from ``start``, when the caller has it."""
    start = model.start if start is None else start
    solver = solver or TurnSolver(model)
    choose = policy or solver.best_action
    if graph is None or policy is not None:
        graph = policy_graph(model, start, choose)
    mass = reach_probabilities(graph, start)
    choices: list[Choice] = []
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
            choices.append((float(model.turn_total(node)), move[0], p, node, ""))
    if not choices:
        return StopRule(None, 1.0, (), bust, "No choice to make: every draw is forced or the "
                        "turn ends by itself.")
    totals = sorted({c[0] for c in choices})
    whole = sum(c[2] for c in choices)
    best_t, best_d = _best_threshold(choices)
    threshold_of: Callable[[Any], float] = lambda state: best_t  # noqa: E731
    split = _split(choices, model, whole, best_d)
    if split is None:
        text = _rule_phrase(best_t, totals).capitalize()
    else:
        name, thresholds, best_d = split

        def group_of(state: Any) -> str:
            return dict(model.rule_features(state))[name]  # type: ignore[attr-defined]

        mass_of: dict[str, float] = {}
        for choice in choices:
            mass_of[group_of(choice[3])] = mass_of.get(group_of(choice[3]), 0.0) + choice[2]
        usual = max(mass_of, key=mass_of.__getitem__)
        best_t = thresholds[usual]
        alike: dict[float, list[str]] = {}
        for value, t in thresholds.items():
            if t != best_t:
                alike.setdefault(t, []).append(value)
        others = [f"{' or '.join(values)}: {_rule_phrase(t, totals)}"
                  for t, values in alike.items()]
        text = _rule_phrase(best_t, totals).capitalize() + ", unless with " + "; with ".join(
            others)

        def threshold_of(state: Any) -> float:
            return thresholds[group_of(state)]
    exceptions: list[Departure] = []
    for action in (DRAW, STOP):
        found = [(t, p, s) for t, a, p, s, _ in choices if a == action
                 and (t >= threshold_of(s)) == (action == DRAW)]
        if not found:
            continue
        share = sum(p for _, p, _ in found) / whole
        example = max(found, key=lambda x: x[1])[2]
        exceptions.append(Departure(action, min(t for t, _, _ in found),
                                    max(t for t, _, _ in found), share,
                                    model.describe(example)))
    exceptions.sort(key=lambda e: -e.share)
    agreement = 1.0 - best_d / whole
    shown = exceptions[:max_exceptions]
    if shown:
        parts = []
        for e in shown:
            verb = "draw on" if e.action == DRAW else "stop"
            parts.append(f"{verb} at {_span(e.low, e.high)} in {e.share:.1%} of the decisions "
                         f"(e.g. {e.example})")
        text += ("; also " if split else ", unless: ") + "; ".join(parts)
    text += f". Agrees with the optimum on {agreement:.1%} of the decisions reached."
    return StopRule(None if best_t > totals[-1] else best_t, agreement, tuple(exceptions), bust,
                    text)


__all__ = ["Departure", "StopRule", "describe_stop_rule", "reach_probabilities"]
