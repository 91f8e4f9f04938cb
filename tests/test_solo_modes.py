"""Solo modes: Lands Uncharted's 10-turn solo and Hit List's Lone Gunman in the fresh-deck model
(exact Markov chains), checked by hand, by a Monte Carlo of the model itself, and against the
real game played by the engine (deck carried over)."""

from __future__ import annotations

import math

import pytest

from pushluck_teach.games.base import RulesError, get_game
from pushluck_teach.games.hit_list import HitListVariant
from pushluck_teach.games.lands_uncharted import LandsUnchartedVariant
from pushluck_teach.sim.solo_checks import compare_with_engine, model_monte_carlo
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.solve.whole_game.solo import SoloPolicy, solo_result, turn_outcomes
from pushluck_teach.ui.whole_game import solo_distribution_chart

LANDS = LandsUnchartedVariant(solo=True)


def lands_uncharted_solo(variant, policy="threshold:20", turns=None):
    return solo_result("lands-uncharted", variant, policy, turns=turns)


def lone_gunman(variant, policy="optimal-turn"):
    return solo_result("hit-list", variant, policy)


def lands_turn_outcomes(variant, policy, allies):
    return turn_outcomes("lands-uncharted", variant, policy, (0, allies))


def hit_list_job_outcomes(variant, policy, hits):
    return turn_outcomes("hit-list", variant, policy, (hits, 0))


SOFT_GUNMAN = HitListVariant(solo=True, soft_aces=True)  # no ace choices: quick to walk


def test_one_turn_of_the_chain_is_the_turn_solvers_distribution() -> None:
    result = lands_uncharted_solo(LANDS, "threshold:20", turns=1)
    model, start = get_game("lands-uncharted").position(LANDS)
    solver = TurnSolver(model)
    expected = solver.distribution(start, solver.threshold_policy(20))
    assert result.distribution() == pytest.approx({int(k): v for k, v in expected.items()},
                                                  abs=1e-14)


def test_allies_carried_over_are_tracked() -> None:
    outcomes = lands_turn_outcomes(LANDS, SoloPolicy.parse("threshold:20"), 0)
    assert sum(outcomes.values()) == pytest.approx(1.0, abs=1e-14)
    assert any(allies > 0 for (_, allies) in outcomes)
    assert all(allies == 0 for (banked, allies) in outcomes if banked == 0)  # a bust spends all
    leave = lands_turn_outcomes(LandsUnchartedVariant(solo=True, allies_persist=False),
                                SoloPolicy.parse("threshold:20"), 0)
    assert all(allies == 0 for (_, allies) in leave)
    keep = lands_uncharted_solo(LANDS, "threshold:20")
    lose = lands_uncharted_solo(LandsUnchartedVariant(solo=True, allies_persist=False),
                                "threshold:20")
    assert keep.mean > lose.mean  # allies kept for later turns are worth something


def test_solo_results_are_distributions() -> None:
    for result in (lands_uncharted_solo(LANDS, "threshold:25"),
                   lone_gunman(HitListVariant(solo=True), "threshold:17")):
        assert sum(result.probabilities) == pytest.approx(1.0, abs=1e-12)
        assert all(p > 0 for p in result.probabilities)
        assert list(result.scores) == sorted(result.scores)
        assert result.sd > 0 and result.cdf_at_least(min(result.scores)) == pytest.approx(1)


def test_lone_gunman_execution_chance_is_negative_binomial() -> None:
    """Jobs are independent in the model: executed (6 botches before 5 hits) with probability
    sum_h C(h + 5, h) p_hit^h p_botch^6."""
    variant = HitListVariant(solo=True)
    jobs = hit_list_job_outcomes(variant, SoloPolicy.parse("threshold:19"), 0)
    botch = jobs[-10]
    hit = 1.0 - botch
    by_hand = sum(math.comb(h + 5, h) * hit ** h * botch ** 6 for h in range(5))
    result = lone_gunman(variant, "threshold:19")
    assert result.p_out == pytest.approx(by_hand, abs=1e-14)
    assert result.probability(0) >= result.p_out


def test_lone_gunman_ghost_bonus_shifts_clean_games() -> None:
    plain = lone_gunman(HitListVariant(solo=True), "threshold:17")
    ghost = lone_gunman(HitListVariant(solo=True, ghost=True), "threshold:17")
    jobs = hit_list_job_outcomes(HitListVariant(solo=True), SoloPolicy.parse("threshold:17"), 0)
    clean = (1.0 - jobs[-10]) ** 5  # five hits in a row
    assert ghost.mean - plain.mean == pytest.approx(20 * clean, abs=1e-10)


def test_silent_assassin_counts_two_hits() -> None:
    variant = HitListVariant(solo=True, silent_assassin=True)
    jobs = hit_list_job_outcomes(variant, SoloPolicy.parse("threshold:21"), 0)
    assert 36 in jobs  # 21 + 15
    result = lone_gunman(variant, "threshold:21")
    assert sum(result.probabilities) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("text", ["bogus", "threshold", "threshold:x", "optimal-turn:3"])
def test_bad_policies_are_one_line_errors(text: str) -> None:
    with pytest.raises(RulesError) as info:
        SoloPolicy.parse(text)
    assert "\n" not in str(info.value)


def test_unsupported_options_are_one_line_errors() -> None:
    with pytest.raises(RulesError, match="double_or_nothing"):
        lands_uncharted_solo(LandsUnchartedVariant(solo=True, double_or_nothing=True))
    with pytest.raises(RulesError, match="long_haul"):
        lone_gunman(HitListVariant(solo=True, long_haul=True))
    with pytest.raises(RulesError, match="no solo model"):
        solo_result("pig")


@pytest.mark.parametrize("game,variant,policy,n", [
    ("lands-uncharted", LANDS, "threshold:20", 600),
    ("hit-list", SOFT_GUNMAN, "threshold:17", 1500),
])
def test_the_chain_is_exact_within_its_model(game, variant, policy, n) -> None:
    """A Monte Carlo of the model itself (a fresh deck each turn) agrees within 4 SE."""
    exact = solo_result(game, variant, policy)
    sampled = model_monte_carlo(game, variant, policy, n=n, seed=11)
    assert sampled.within(exact.mean, 4.0), (sampled.mean, sampled.stderr, exact.mean)


def test_solo_chart_shows_model_and_simulation() -> None:
    result = lands_uncharted_solo(LANDS, "threshold:20", turns=2)
    chart = solo_distribution_chart(result.scores, result.probabilities, [10, 20], [0.5, 0.5],
                                    mean=result.mean, sim_mean=15.0)
    assert list(chart.data[0].x) == list(result.scores)
    assert list(chart.data[1].y) == [0.5, 0.5]
    assert len(chart.layout.shapes) == 2


# --------------------------------------------------------------------------------------------
# Slow: the model itself, and the real game


@pytest.mark.slow
@pytest.mark.parametrize("game,variant,policy", [
    ("hit-list", HitListVariant(solo=True), "optimal-turn"),
    ("lands-uncharted", LandsUnchartedVariant(solo=True, buried_treasure=True), "threshold:21"),
])
def test_the_chain_is_exact_within_its_model_more(game, variant, policy) -> None:
    exact = solo_result(game, variant, policy)
    sampled = model_monte_carlo(game, variant, policy, n=3000, seed=5)
    assert sampled.within(exact.mean, 4.0), (sampled.mean, sampled.stderr, exact.mean)


@pytest.mark.slow
@pytest.mark.parametrize("game,policy,n,mean_gap,ks", [
    ("lands-uncharted", "threshold:20", 2000, 5.0, 0.1),
    ("hit-list", "threshold:17", 1000, 5.0, 0.1),
])
def test_model_against_the_real_game(game, policy, n, mean_gap, ks) -> None:
    """The fresh-deck model is not the real game (the deck carries over), so the difference is
    shown and bounded, not asserted to vanish: the means within a few points, the CDFs close."""
    comparison = compare_with_engine(game, None, policy, n=n, seed=3)
    print(f"{game} {policy}: model {comparison.model.mean:.2f}, real game "
          f"{comparison.simulated.mean:.2f} ± {comparison.stderr:.2f}, "
          f"KS {comparison.max_cdf_difference:.3f}, TV {comparison.total_variation:.3f}")
    assert abs(comparison.mean_difference) < mean_gap + 4 * comparison.stderr
    assert comparison.max_cdf_difference < ks
