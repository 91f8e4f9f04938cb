"""Lesson 6: winning the game, not the turn.  Views over the whole-game solvers' answers.

Each view runs the loops of one step of the lesson (rules against the optimal player in both
seats, turns to reach the target alone, what fixed rules give away, how it changes with the
target, the solo model against the real game) and returns a :class:`LessonView`: the lines it
prints and the charts it shows, built by :mod:`pushluck_teach.ui.whole_game`.

Nothing here names a game or imports a game's solver: the notebook passes the solver's
functions (``evaluate_match``, ``solitaire_turns``, ``threshold_give_away``...) and the
variants, so every number is the solver's own.  A chance "against the optimal player (both
seats)" is the average of the rule's chance moving first and moving second; a shared win counts
as half a win (the solvers' convention).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from IPython.display import display

from pushluck_teach.games.base import Variant
from pushluck_teach.ui.whole_game import (
    expected_turns_chart,
    policy_comparison_chart,
    solo_distribution_chart,
    threshold_rule_chart,
    turns_distribution_chart,
)

#: ``evaluate_match(variant, first, second)``: a match result with ``p_win_first``.
MatchFunction = Callable[[Variant, Any, Any], Any]


@dataclass(frozen=True)
class LessonView:
    """Text lines and charts, shown in that order (the lines as printed text)."""

    lines: tuple[str, ...] = ()
    figures: tuple[Any, ...] = ()
    values: dict[str, Any] = dataclasses.field(default_factory=dict)

    def _ipython_display_(self) -> None:
        if self.lines:
            print("\n".join(self.lines))
        for figure in self.figures:
            display(figure)


def both_seats(evaluate_match: MatchFunction, variant: Variant, rule: Any,
               against: Any = "optimal") -> tuple[float, float, float]:
    """``rule``'s chance to win against ``against``: moving first, moving second, and their
    average (both seats)."""
    first = float(evaluate_match(variant, rule, against).p_win_first)
    second = 1 - float(evaluate_match(variant, against, rule).p_win_first)
    return first, second, (first + second) / 2


def rules_against_optimal(evaluate_match: MatchFunction, variant: Variant, rules: Sequence[str],
                          *, against: str = "optimal",
                          title: str = "Chance to beat the optimal player (both seats)"
                          ) -> LessonView:
    """Each rule against ``against`` in both seats: a line per rule and a bar chart of the
    averages (``values``: rule -> average)."""
    labels, chances, lines = [], [], []
    values: dict[str, Any] = {}
    for rule in rules:
        first, second, average = both_seats(evaluate_match, variant, rule, against)
        labels.append(f"{rule} vs {against}")
        chances.append(average)
        values[rule] = average
        lines.append(f"{rule:>10}: wins {first:.4f} moving first, {second:.4f} moving second, "
                     f"{average:.4f} on average")
    return LessonView(tuple(lines), (policy_comparison_chart(labels, chances, title=title),),
                      values)


def turns_alone(solitaire_turns: Callable[[Variant, int], Any], variant: Variant, hold_at: int,
                *, shown: int = 40) -> LessonView:
    """Turns needed to reach the target alone holding at ``hold_at``: the mean, the standard
    deviation and the distribution of the first ``shown`` turn counts."""
    alone = solitaire_turns(variant, hold_at)
    line = f"Holding at {hold_at}: {alone.expected:.3f} turns on average (sd {alone.sd:.3f})"
    chart = turns_distribution_chart(alone.distribution[:shown], mean=alone.expected)
    return LessonView((line,), (chart,), {"expected": alone.expected, "sd": alone.sd})


def turns_by_hold_total(solitaire_turns: Callable[[Variant, int], Any], variant: Variant,
                        hold_totals: Iterable[int]) -> LessonView:
    """Expected turns to reach the target alone (± one standard deviation) for each hold
    total."""
    totals = list(hold_totals)
    runs = [solitaire_turns(variant, n) for n in totals]
    chart = expected_turns_chart(totals, [r.expected for r in runs], sd=[r.sd for r in runs])
    return LessonView((), (chart,), {"expected": [r.expected for r in runs]})


def rules_give_away(threshold_give_away: Callable[[Variant], Any], variant: Variant
                    ) -> LessonView:
    """Every fixed rule of each kind against the optimal player (both seats): the best of each
    kind, what it gives away (1/2 minus its chance), and the chart of every rule."""
    away = threshold_give_away(variant)
    thresholds, chances = away.series()
    lines = tuple(f"best {kind:>9} rule: {rule:<13} wins {chance:.4f}, gives away "
                  f"{0.5 - chance:.4f}" for kind, (rule, chance) in away.best.items())
    return LessonView(lines, (threshold_rule_chart(thresholds, chances),), {"best": away.best})


def give_away_by_target(optimal_solution: Callable[[Variant], Any],
                        threshold_give_away: Callable[[Variant], Any], variant: Variant,
                        targets: Iterable[int]) -> LessonView:
    """For each target: the first player's chance under optimal play and what the best single
    threshold and the best chase rule give away."""
    lines = []
    for target in targets:
        game = dataclasses.replace(variant, target=target)
        away = threshold_give_away(game)
        lines.append(f"to {target:>3}: first player {optimal_solution(game).p_win_first:.4f}; "
                     f"best single threshold gives away {away.give_away('threshold'):.4f}, "
                     f"best chase rule {away.give_away('chase'):.4f}")
    return LessonView(tuple(lines))


def solo_model_vs_game(comparison: Any, label: str, *, title: str,
                       out_word: str | None = None) -> LessonView:
    """A solo model's final-score distribution against the real game simulated with the engine
    (``comparison`` from the model-vs-engine check); ``out_word`` names the model's chance of
    ending early ("executed"), shown when given."""
    model, simulated = comparison.model, comparison.simulated
    out = f" ({out_word} {model.p_out:.2%})" if out_word else ""
    line = (f"{label}: model mean {model.mean:.2f}{out}, real game {simulated.mean:.2f} "
            f"± {comparison.stderr:.2f} ({simulated.n} games)")
    chart = solo_distribution_chart(model.scores, model.probabilities, comparison.sim_scores,
                                    comparison.sim_probabilities, mean=model.mean,
                                    sim_mean=simulated.mean, title=title)
    return LessonView((line,), (chart,), {"model_mean": model.mean,
                                          "simulated_mean": simulated.mean})


__all__ = [
    "LessonView", "both_seats", "give_away_by_target", "rules_against_optimal",
    "rules_give_away", "solo_model_vs_game", "turns_alone", "turns_by_hold_total",
]
