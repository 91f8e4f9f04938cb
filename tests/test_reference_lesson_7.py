"""Lesson 7's luck-versus-skill figures, recomputed from the matches' raw differences with the
standard library's statistics (not the duel's own properties) and read off the page's text."""

from __future__ import annotations

import math
import re
import statistics

import pytest

from pushluck_teach.ui.lessons.investing import LuckVersusSkill


@pytest.mark.slow  # ten deals of the search bot against the simple one: about 5 s
def test_luck_versus_skill_figures_from_the_raw_differences() -> None:
    worth = 3.6
    pairs = 10  # the fewest deal pairs the page gives an interval for
    widget = LuckVersusSkill("lost-cities", "search", "simple", options={"matches": 1},
                             batch=2, first_batch=pairs, background=False,
                             decision_worth=worth)
    differences = list(widget.result.differences)
    assert len(differences) == 2 * pairs  # each deal played with the seats both ways
    mean = statistics.fmean(differences)
    sd = statistics.stdev(differences)
    pair_means = [(differences[i] + differences[i + 1]) / 2
                  for i in range(0, len(differences), 2)]
    half = 1.96 * statistics.stdev(pair_means) / math.sqrt(len(pair_means))
    weak_wins = ((sum(d < 0 for d in differences) + sum(d == 0 for d in differences) / 2)
                 / len(differences))
    text = re.sub(r"<[^>]+>", "", widget.summary.value)
    assert f"scores {mean:+.1f} points a match more" in text
    assert f"interval {mean - half:+.1f} to {mean + half:+.1f}" in text
    assert f"standard deviation of {sd:.1f} points" in text
    assert f"still wins {weak_wins:.0%} of single matches" in text
    if mean > 0:
        needed = math.ceil((1.96 * sd / mean) ** 2)
        assert f"takes about {max(1, needed)} ordinary" in text
    assert f"about {max(1, math.ceil((1.96 * sd / worth) ** 2))} matches to show" in text
    assert sorted(widget.figure.data[0].x) == sorted(differences)
