"""Whole-game Pig: published values, exact vs float, policies, solitaire, cache, CLI, views,
and agreement with simulating the play engine."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pushluck_teach.cli import main
from pushluck_teach.games.base import PositionError, RulesError, get_game
from pushluck_teach.games.pig import PigVariant
from pushluck_teach.sim import SimulationResult, simulate_games
from pushluck_teach.sim.policy_bots import policy_bot
from pushluck_teach.solve import cache
from pushluck_teach.solve.whole_game import PolicyText, has_solver, solver_for
from pushluck_teach.solve.whole_game.pig import (
    SHIPPED_VARIANTS,
    PigModel,
    PigPolicy,
    evaluate_match,
    evaluate_match_uncached,
    exact_expected_turns,
    exact_match,
    exact_optimal,
    keep_pace_threshold,
    optimal_solution,
    pig_action_win_probabilities,
    pig_win_probability,
    race_line,
    solitaire_turns,
    solve_optimal,
)
from pushluck_teach.ui.whole_game import (
    answer_reveal,
    expected_turns_chart,
    hold_boundary_heatmap,
    policy_comparison_chart,
    position_explorer,
    roll_hold_chart,
    turns_distribution_chart,
    update_win_gauge,
    win_gauge,
    win_gauge_html,
    win_probability_heatmap,
)

PIGLET = {  # Neller and Presser (2004): P_ijk for Piglet (a coin, heads 1, goal 2)
    (0, 0, 0): Fraction(4, 7), (0, 0, 1): Fraction(5, 7), (0, 1, 0): Fraction(2, 5),
    (0, 1, 1): Fraction(3, 5), (1, 0, 0): Fraction(4, 5), (1, 1, 0): Fraction(2, 3),
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Never write to the user's cache from the tests."""
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))


# --------------------------------------------------------------------------------------------
# Published values


def test_piglet_exact_fractions_match_neller_presser() -> None:
    exact = exact_optimal(PigModel.piglet())
    for state, value in PIGLET.items():
        assert exact.values[state] == value


def test_piglet_value_iteration_floats_match_neller_presser() -> None:
    solution = solve_optimal(PigModel.piglet())
    for (i, j, k), value in PIGLET.items():
        assert solution.table[k, i, j] == pytest.approx(float(value), abs=1e-12)


def test_piglet_in_engine_rules_is_die_sides_2_target_4_with_doubled_scores() -> None:
    exact = exact_optimal(PigVariant(die_sides=2, target=4))
    for (i, j, k), value in PIGLET.items():
        assert exact.values[(2 * i, 2 * j, 2 * k)] == value


def test_two_sided_die_to_2_is_piglet_to_1() -> None:
    # a head scores 2, so one head wins: P = 1/2 + 1/2 (1 - P), P = 2/3
    exact = exact_optimal(PigVariant(die_sides=2, target=2))
    assert exact.p_win_first == Fraction(2, 3)


def test_pig_to_100_first_player_wins_53_06_percent() -> None:
    solution = optimal_solution(PigVariant())
    assert solution.p_win_first == pytest.approx(0.5306, abs=5e-5)
    assert pig_win_probability(PigVariant(), 0, 0, 0) == pytest.approx(0.530593, abs=1e-6)


def test_optimal_player_at_0_0_never_holds_below_21() -> None:
    solution = optimal_solution(PigVariant())
    assert not solution.hold_mask[1:21, 0, 0].any()
    assert solution.hold_boundary[0, 0] >= 21


def test_rolling_at_turn_start_is_never_worse_than_passing() -> None:
    # so forbidding a hold before the first roll leaves Neller and Presser's values unchanged
    v = optimal_solution(PigVariant()).start
    assert np.all(v >= 1.0 - v.T - 1e-12)


def test_pig_to_100_policy_is_not_a_pure_threshold_near_the_goal() -> None:
    solution = optimal_solution(PigVariant())
    assert not solution.is_threshold_policy()
    # 77 against 10: hold at 9, but at 13 the goal is near enough to roll for it
    assert solution.hold_mask[9, 77, 10] and not solution.hold_mask[13, 77, 10]


# --------------------------------------------------------------------------------------------
# Exact vs float, policies


@pytest.mark.parametrize("target,sides", [(10, 6), (15, 4), (12, 3)])
def test_value_iteration_agrees_with_exact_fractions(target: int, sides: int) -> None:
    variant = PigVariant(target=target, die_sides=sides)
    exact = exact_optimal(variant)
    solution = solve_optimal(variant)
    worst = max(abs(float(v) - solution.table[k, i, j]) for (i, j, k), v in exact.values.items())
    assert worst < 1e-11


@pytest.mark.parametrize("first,second", [("hold:5", "keep-pace"), ("optimal", "hold:3"),
                                          ("keep-pace", "optimal"), ("hold:30", "hold:1")])
def test_policy_evaluation_agrees_with_exact_fractions(first: str, second: str) -> None:
    variant = PigVariant(target=14)
    exact = exact_match(variant, first, second)
    match = evaluate_match_uncached(variant, first, second)
    assert match.p_win_first == pytest.approx(float(exact.p_win_first), abs=1e-11)
    for (i, j), value in exact.first_start.items():
        assert match.first_start[i, j] == pytest.approx(float(value), abs=1e-11)


def test_roll_for_the_goal_on_a_coin_by_hand() -> None:
    # goal 2 with heads scoring 1, never holding before the goal: a turn wins with 1/4.
    # P = 1/4 + 3/4 (1 - P') with P' = P  =>  P = 4/7 (the optimal Piglet value, by chance)
    exact = exact_match(PigModel.piglet(), "hold:2", "hold:2")
    assert exact.p_win_first == Fraction(4, 7)


def test_optimal_self_play_evaluated_as_a_match_equals_the_solution() -> None:
    variant = PigVariant(target=40)
    match = evaluate_match_uncached(variant, "optimal", "optimal")
    assert match.p_win_first == pytest.approx(optimal_solution(variant).p_win_first, abs=1e-12)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.integers(3, 25), sides=st.integers(2, 6), hold_at=st.integers(1, 30),
       keep_pace=st.booleans())
def test_optimal_guarantees_the_game_value_against_any_rule(target: int, sides: int,
                                                            hold_at: int,
                                                            keep_pace: bool) -> None:
    """Minimax: the optimal policy wins at least V(0,0) moving first and lets the rule win at
    most V(0,0) moving first, whatever the rule."""
    variant = PigVariant(target=target, die_sides=sides)
    value = optimal_solution(variant).p_win_first
    rule = "keep-pace" if keep_pace else f"hold:{hold_at}"
    assert evaluate_match_uncached(variant, "optimal", rule).p_win_first >= value - 1e-10
    assert evaluate_match_uncached(variant, rule, "optimal").p_win_first <= value + 1e-10


def test_keep_pace_and_end_race_definition() -> None:
    model = PigModel.from_variant(PigVariant())
    assert race_line(model) == 71
    assert keep_pace_threshold(model, 0, 0) == 21
    assert keep_pace_threshold(model, 0, 4) == 22  # round(1/2) rounds up
    assert keep_pace_threshold(model, 10, 0) == 20  # round(-10/8) = -1
    assert keep_pace_threshold(model, 70, 0) == 21 + round(-70 / 8)
    assert keep_pace_threshold(model, 71, 0) is None
    assert keep_pace_threshold(model, 3, 80) is None
    assert race_line(PigModel.from_variant(PigVariant(target=50))) == 36  # 35.5 rounds up
    mask = PigPolicy.parse("keep-pace").hold_mask(model)
    assert not mask[20, 0, 0] and mask[21, 0, 0]
    assert not mask[28, 71, 0] and mask[29, 71, 0]  # 71 + 29 = 100: holding wins


def test_hold_at_n_mask() -> None:
    model = PigModel.from_variant(PigVariant())
    mask = PigPolicy.parse("hold:20").hold_mask(model)
    assert not mask[19, 0, 0] and mask[20, 0, 0]
    assert mask[5, 95, 0]  # holding reaches the goal
    assert not mask[0].any()  # a turn starts with a roll


@pytest.mark.parametrize("text", ["bogus", "hold", "hold:0", "hold:x", "optimal:3",
                                  "keep-pace:2", ":3"])
def test_bad_policies_are_one_line_errors(text: str) -> None:
    with pytest.raises(RulesError) as info:
        PigPolicy.parse(text)
    assert "\n" not in str(info.value)


def test_policy_text_parsing() -> None:
    assert PolicyText.parse(" Hold:20 ") == PolicyText("hold", "20")
    assert PolicyText.parse("keep-pace").arg is None
    assert PigPolicy.parse("keep-pace-end-race") == PigPolicy("keep-pace")


# --------------------------------------------------------------------------------------------
# Win probability for tables


def test_pig_win_probability_positions() -> None:
    variant = PigVariant()
    assert pig_win_probability(variant, 95, 99, 5) == 1.0
    assert pig_win_probability(variant, 50, 50, 0) == pytest.approx(
        optimal_solution(variant).start[50, 50])
    actions = pig_action_win_probabilities(variant, 30, 40, 12)
    assert max(actions["draw"], actions["stop"]) == pytest.approx(
        pig_win_probability(variant, 30, 40, 12), abs=1e-12)
    assert pig_action_win_probabilities(variant, 0, 0, 0)["stop"] is None
    assert pig_action_win_probabilities(variant, 98, 0, 2)["stop"] == 1.0
    with pytest.raises(PositionError):
        pig_win_probability(variant, 100, 0, 0)
    with pytest.raises(PositionError):
        pig_win_probability(variant, 0, -1, 0)


@pytest.mark.parametrize("variant", [PigVariant(target=20), PigVariant(target=30, die_sides=8)],
                         ids=["to-20", "to-30-d8"])
def test_pig_action_chances_at_one_position_equal_the_whole_arrays(variant: PigVariant) -> None:
    """The gauge's per-position roll/hold chances are the whole-array values to the last bit,
    and the better of the two is the table's win chance (the Bellman equation) everywhere."""
    solution = optimal_solution(variant)
    g = variant.target
    for i in range(g):
        for j in range(g):
            for k in range(g - i):
                chances = pig_action_win_probabilities(variant, i, j, k)
                assert chances["draw"] == float(solution.roll_values[k, i, j])
                if k == 0:
                    assert chances["stop"] is None
                    continue
                assert chances["stop"] == float(solution.hold_values[k, i, j])
                assert max(chances["draw"], chances["stop"]) == pytest.approx(
                    pig_win_probability(variant, i, j, k), abs=1e-12)


# --------------------------------------------------------------------------------------------
# Solitaire


def test_solitaire_geometric_by_hand() -> None:
    # two-sided die, goal 2: each turn succeeds with 1/2 -> T ~ Geometric(1/2)
    turns = solitaire_turns(PigVariant(die_sides=2, target=2), 1)
    assert turns.expected == pytest.approx(2.0)
    assert turns.variance == pytest.approx(2.0)
    assert turns.distribution[:5] == pytest.approx([0.5, 0.25, 0.125, 0.0625, 0.03125])
    assert turns.tail < 1e-12


def test_solitaire_negative_binomial_by_hand() -> None:
    # goal 4, hold at 2: two successes of probability 1/2 each -> mean 4, P(T=2) = 1/4
    turns = solitaire_turns(PigVariant(die_sides=2, target=4), 2)
    assert turns.expected == pytest.approx(4.0)
    assert turns.distribution[1] == pytest.approx(0.25)
    assert exact_expected_turns(PigVariant(die_sides=2, target=4), 2) == 4


def test_solitaire_chain_agrees_with_exact_and_its_own_distribution() -> None:
    variant = PigVariant(target=25)
    turns = solitaire_turns(variant, 10)
    assert turns.expected == pytest.approx(float(exact_expected_turns(variant, 10)), rel=1e-12)
    n = np.arange(1, len(turns.distribution) + 1)
    assert turns.distribution.sum() + turns.tail == pytest.approx(1.0, abs=1e-12)
    assert (n * turns.distribution).sum() == pytest.approx(turns.expected, rel=1e-9)


# --------------------------------------------------------------------------------------------
# Cache


def test_cache_round_trip_and_key_check(tmp_path) -> None:
    key = cache.CacheKey("pig", "test", {"target": 5}, {"x": 1})
    arrays = {"a": np.arange(6.0).reshape(2, 3)}
    path = cache.save(key, arrays, tmp_path)
    assert path is not None and path.name == key.filename
    loaded = cache._read(path, key)
    assert loaded is not None and np.array_equal(loaded["a"], arrays["a"])
    other = cache.CacheKey("pig", "test", {"target": 6}, {"x": 1})
    assert cache._read(path, other) is None
    path.write_bytes(b"not a zip file")
    assert cache._read(path, key) is None


def test_cached_arrays_computes_once_then_loads(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    key = cache.CacheKey("pig", "test", {"target": 7})
    calls = []

    def compute():
        calls.append(1)
        return {"v": np.array([1.5, 2.5])}

    first = cache.cached_arrays(key, compute)
    second = cache.cached_arrays(key, compute)
    assert calls == [1] and np.array_equal(first["v"], second["v"])
    assert (tmp_path / key.filename).is_file()


def test_cache_can_be_switched_off(monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    assert cache.cache_dir() is None
    assert cache.save(cache.CacheKey("pig", "t", {}), {"a": np.zeros(1)}) is None


def test_shipped_defaults_are_small_and_equal_a_fresh_solve() -> None:
    files = sorted(cache.DATA_DIR.glob("pig-*.npz"))
    assert files and sum(f.stat().st_size for f in files) < 3 * 2**20
    variant = SHIPPED_VARIANTS[1]  # Pig to 50
    model = PigModel.from_variant(variant)
    from pushluck_teach.solve.whole_game.pig import optimal_key

    assert cache.locate(optimal_key(model))[0].parent == cache.DATA_DIR
    shipped = optimal_solution(variant)
    fresh = solve_optimal(variant)
    assert np.max(np.abs(shipped.table - fresh.table)) < 1e-12


def test_match_is_cached_on_disk(tmp_path) -> None:
    variant = PigVariant(target=12)
    evaluate_match(variant, "hold:4", "hold:6")
    assert list((tmp_path / "cache").glob("pig-match-*.npz"))


# --------------------------------------------------------------------------------------------
# CLI


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_two_players_optimal(capsys) -> None:
    code, out, err = run(capsys, "solve", "pig", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["p_win_first"] == pytest.approx(0.5306, abs=5e-5)
    assert data["policies"] == ["optimal", "optimal"]


def test_cli_policies_and_exact(capsys) -> None:
    code, out, _ = run(capsys, "solve", "pig", "--target", "10", "--policy", "hold:4",
                       "--policy", "keep-pace", "--exact", "--json")
    assert code == 0
    data = json.loads(out)
    exact = exact_match(PigVariant(target=10), "hold:4", "keep-pace").p_win_first
    assert data["p_win_first_exact"] == f"{exact.numerator}/{exact.denominator}"
    assert data["p_win_first"] == pytest.approx(float(exact), abs=1e-12)


def test_cli_solitaire(capsys) -> None:
    code, out, _ = run(capsys, "solve", "pig", "--players", "1", "--policy", "hold:1",
                       "--option", "die_sides=2", "--target", "2", "--json", "--exact")
    assert code == 0
    data = json.loads(out)
    assert data["expected_turns"] == pytest.approx(2.0)
    assert data["expected_turns_exact"] == "2/1"
    assert data["distribution"]["3"] == pytest.approx(0.125)


def test_cli_text_output(capsys) -> None:
    code, out, _ = run(capsys, "solve", "pig", "--players", "1")
    assert code == 0 and "expected_turns" in out and "hold:20" in out


def test_cli_game_without_a_solver(capsys) -> None:
    code, out, err = run(capsys, "solve", "incan-gold", "--json")
    assert code == 2 and out == ""
    assert err.strip() == "pushluck: error: no whole-game solver for incan-gold yet"


@pytest.mark.parametrize("argv,message", [
    (["solve", "nosuchgame"], "unknown game"),
    (["solve", "pig", "--policy", "bogus", "--policy", "optimal"], "unknown Pig policy"),
    (["solve", "pig", "--policy", "optimal"], "one --policy per player"),
    (["solve", "pig", "--target", "0"], "target"),
    (["solve", "pig", "--target", "1000"], "1-200"),
    (["solve", "pig", "--target", "x"], "invalid whole number"),
    (["solve", "pig", "--players", "3"], "1 or 2 players"),
    (["solve", "pig", "--players", "1", "--policy", "keep-pace"], "hold:N"),
    (["solve", "pig", "--target", "100", "--exact"], "exact fractions only"),
    (["solve", "pig", "--target", "50", "--option", "target=40"], "contradicts"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_registry() -> None:
    assert has_solver("pig") and not has_solver("no-such-game")
    assert solver_for("pig").game == "pig"
    with pytest.raises(RulesError, match="no whole-game solver for no-such-game yet"):
        solver_for("no-such-game")


# --------------------------------------------------------------------------------------------
# Views


def test_views_show_the_arrays_they_are_given() -> None:
    solution = optimal_solution(PigVariant(target=20))
    heat = win_probability_heatmap(solution.start)
    assert np.allclose(np.asarray(heat.data[0].z), solution.start)
    boundary = hold_boundary_heatmap(solution.hold_boundary)
    assert np.array_equal(np.asarray(boundary.data[0].z), solution.hold_boundary)
    gauge = win_gauge(0.25, reference=0.5)
    assert gauge.data[0].value == pytest.approx(25.0)
    update_win_gauge(gauge, 0.75)
    assert gauge.data[0].value == pytest.approx(75.0)
    assert 'aria-valuenow="42.0"' in win_gauge_html(0.42)
    assert "n/a" in win_gauge_html(None)
    chart = roll_hold_chart([1, 2], [0.3, 0.4], [0.2, 0.5], current=2)
    assert list(chart.data[1].y) == [0.2, 0.5]
    bars = policy_comparison_chart(["a", "b"], [0.4, 0.6])
    assert list(bars.data[0].text) == ["40.00%", "60.00%"]
    dist = turns_distribution_chart([0.5, 0.5], mean=1.5)
    assert list(dist.data[0].x) == [1, 2]
    line = expected_turns_chart([10, 20], [14.0, 12.6], sd=[4.0, 4.5])
    assert list(line.data[0].error_y.array) == [4.0, 4.5]
    box = answer_reveal("<b>42%</b>")
    assert box.children[1].value == ""
    box.children[0].click()
    assert box.children[1].value == "<b>42%</b>" and box.children[0].disabled


def test_position_explorer_follows_the_sliders() -> None:
    solution = optimal_solution(PigVariant())
    box = position_explorer(solution.start, solution.roll_values, solution.hold_values,
                            target=100, min_total=2)
    sliders, advice = box.children[0].children, box.children[1]
    assert "<b>21</b>" in advice.value
    sliders[0].value, sliders[1].value = 77, 10
    assert "<b>9</b>" in advice.value and "rolling for the goal" in advice.value
    gauge = box.children[2].children[0]
    assert gauge.data[0].value == pytest.approx(100 * solution.start[77, 10])


# --------------------------------------------------------------------------------------------
# Agreement with the play engine


def _simulated_first_wins(variant: PigVariant, first: str, second: str, n: int, seed: int
                          ) -> SimulationResult:
    bots = [policy_bot("pig", first), policy_bot("pig", second)]
    games = simulate_games(get_game("pig"), bots, n, seed, variant=variant)
    return SimulationResult.of([1.0 if winners == (0,) else 0.0 for winners, _ in games])


@pytest.mark.slow
@pytest.mark.parametrize("target,first,second,n", [
    (100, "optimal", "optimal", 3000),
    (100, "optimal", "hold:20", 3000),
    (100, "keep-pace", "optimal", 3000),
    (100, "hold:25", "keep-pace", 3000),
    (30, "hold:10", "optimal", 4000),
    (20, "keep-pace", "hold:5", 4000),
])
def test_policy_evaluation_agrees_with_simulation(target, first, second, n) -> None:
    variant = PigVariant(target=target)
    exact = evaluate_match(variant, first, second).p_win_first
    result = _simulated_first_wins(variant, first, second, n, seed=target + len(first + second))
    assert result.within(exact, 4.0), (result.mean, result.stderr, exact)


@pytest.mark.slow
@pytest.mark.parametrize("target,hold_at", [(100, 20), (50, 30)])
def test_solitaire_turns_agree_with_simulation(target: int, hold_at: int) -> None:
    variant = PigVariant(target=target)
    turns = solitaire_turns(variant, hold_at)
    spec = get_game("pig")
    bot = policy_bot("pig", PigPolicy("hold", hold_at))
    rng = random.Random(target * 1000 + hold_at)
    counts = []
    for _ in range(3000):
        engine = spec.new_engine(variant, players=1, seed=rng.getrandbits(64))
        while not engine.is_over:
            engine.act(bot.choose(engine))
        counts.append(float(engine.turns_taken[0]))
    result = SimulationResult.of(counts)
    assert result.within(turns.expected, 4.0), (result.mean, result.stderr, turns.expected)
    sd = math.sqrt(sum((c - result.mean) ** 2 for c in counts) / (len(counts) - 1))
    assert sd == pytest.approx(turns.sd, rel=0.1)
