"""Whole-game Captain Seven's Doubloons: exact turn tables, the layered solver, fixed policies,
the optimised threshold policy, the gauge, cache, CLI, views, and the play engine."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from pushluck_teach.cli import main
from pushluck_teach.games.base import PositionError, RulesError, get_game
from pushluck_teach.games.captain_seven import (
    CaptainSevenVariant,
    captain_seven_position,
)
from pushluck_teach.sim import SimulationResult, ThresholdBot, simulate_games
from pushluck_teach.sim.policy_bots import policy_bot
from pushluck_teach.solve import cache
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.solve.whole_game import has_solver, solver_for
from pushluck_teach.solve.whole_game.captain_seven import (
    MAX_THRESHOLD,
    C7Policy,
    captain_seven_win_probability,
    evaluate_match,
    evaluate_match_uncached,
    final_turn_table,
    optimal_solution,
    solution_key,
    solve_optimal,
    threshold_give_away,
    threshold_matrix,
    threshold_outcome_distributions,
    turn_distribution,
    turn_table_from_state,
)
from pushluck_teach.solve.whole_game.captain_seven import (
    SHIPPED_TARGETS as SHEET_TARGETS,
)
from pushluck_teach.solve.whole_game.engine_chances import (
    engine_win_probability as captain_seven_engine_win_probability,
)
from pushluck_teach.ui.whole_game import (
    hold_boundary_heatmap,
    threshold_rule_chart,
    win_probability_heatmap,
)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Never write to the user's cache from the tests (shipped data is still read)."""
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))


# --------------------------------------------------------------------------------------------
# One turn


def test_threshold_1_by_hand() -> None:
    # stash the first card; a first joker (total 0) draws again from 53 cards, 5 of them catch
    dist = turn_distribution(1)
    assert dist[0] == pytest.approx(2 / 54 * 5 / 53, abs=1e-16)
    assert dist[7] == pytest.approx(4 / 54, abs=1e-16)
    assert dist[1] == pytest.approx(4 / 54 + 2 / 54 * 4 / 53, abs=1e-16)
    assert dist[10] == pytest.approx(16 / 54 + 2 / 54 * 16 / 53, abs=1e-16)
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-15)


def test_turn_table_equals_the_exact_rational_forward_pass() -> None:
    exact = threshold_outcome_distributions(range(1, 19))
    matrix = threshold_matrix()
    for t, dist in exact.items():
        for x in range(matrix.shape[1]):
            assert matrix[t, x] == pytest.approx(float(dist.get(x, Fraction(0))), abs=1e-15)


def test_every_threshold_row_is_a_distribution_on_its_band() -> None:
    matrix = threshold_matrix()
    assert matrix.shape[0] == MAX_THRESHOLD + 1
    assert np.allclose(matrix[1:].sum(axis=1), 1.0, atol=1e-13)
    for t in (1, 5, 17, 40, 120, 300):
        support = np.nonzero(matrix[t])[0]
        assert support[0] == 0 and support[1] >= t and support[-1] <= t + 9
    assert matrix[MAX_THRESHOLD, 0] == pytest.approx(1.0)  # never stashes: always caught


@pytest.mark.parametrize("drawn,threshold", [("5h 9s", 25), ("Jd 2c 4h", 30), ("7h", 12),
                                             ("JK", 8)])
def test_turn_table_from_a_state_equals_the_turn_solver(drawn: str, threshold: int) -> None:
    model, state = captain_seven_position(CaptainSevenVariant(), drawn=drawn)
    solver = TurnSolver(model)
    expected = solver.distribution(state, solver.threshold_policy(threshold))
    row = turn_table_from_state(model, state).threshold_matrix(threshold)[threshold]
    for x, p in expected.items():
        assert row[int(x)] == pytest.approx(p, abs=1e-14)
    assert row.sum() == pytest.approx(1.0, abs=1e-14)


def test_a_started_turn_at_its_threshold_stashes_now() -> None:
    model, state = captain_seven_position(CaptainSevenVariant(), drawn="Kh Qd")
    row = turn_table_from_state(model, state).threshold_matrix(20)[20]
    assert row[20] == 1.0


# --------------------------------------------------------------------------------------------
# The whole game against an independent plain recursion


def _plain_match(target: int, first: int, second: int, sweeps: int = 150
                 ) -> tuple[float, float]:
    """(p_win_first, p_tie) for threshold:first vs threshold:second by plain fixed-point sweeps
    over every state, written independently of the layered solver."""
    dists = {t: turn_distribution(t) for t in (first, second)}
    ts = (first, second)
    win = [dict.fromkeys(((a, b) for a in range(target) for b in range(target)), 0.5)
           for _ in range(2)]
    tie = [dict.fromkeys(win[0], 0.0) for _ in range(2)]

    def final(me: int, d: int) -> tuple[float, float]:
        dist = dists[ts[me]]
        return (sum(p for x, p in dist.items() if x > d) + 0.5 * dist.get(d, 0.0),
                dist.get(d, 0.0))

    for _ in range(sweeps):
        for me in (0, 1):
            other = 1 - me
            for (a, b) in win[me]:
                w = z = 0.0
                for x, p in dists[ts[me]].items():
                    if x == 0:
                        w += p * (1 - win[other][(b, a)])
                        z += p * tie[other][(b, a)]
                    elif a + x < target:
                        w += p * (1 - win[other][(b, a + x)])
                        z += p * tie[other][(b, a + x)]
                    else:
                        fw, fz = final(other, a + x - b)
                        w += p * (1 - fw)
                        z += p * fz
                win[me][(a, b)] = w
                tie[me][(a, b)] = z
    return win[0][(0, 0)], tie[0][(0, 0)]


@pytest.mark.parametrize("target,first,second", [(1, 1, 1), (9, 8, 15), (16, 20, 12)])
def test_layered_evaluation_equals_a_plain_recursion(target: int, first: int,
                                                     second: int) -> None:
    match = evaluate_match_uncached(CaptainSevenVariant(target=target), f"threshold:{first}",
                                    f"threshold:{second}")
    p_win, p_tie = _plain_match(target, first, second)
    assert match.p_win_first == pytest.approx(p_win, abs=1e-12)
    assert match.p_tie == pytest.approx(p_tie, abs=1e-12)


def test_target_1_optimum_by_hand() -> None:
    # one state (0, 0): W = max_T (C_T + q_T) / (1 + q_T), C_T = sum_x P_T(x) (1 - F(x))
    final, _ = final_turn_table()
    matrix = threshold_matrix()
    best = max((sum(matrix[t, x] * (1 - final[x]) for x in range(1, matrix.shape[1]))
                + matrix[t, 0]) / (1 + matrix[t, 0]) for t in range(1, MAX_THRESHOLD + 1))
    assert solve_optimal(CaptainSevenVariant(target=1)).p_win_first == pytest.approx(best,
                                                                                     abs=1e-14)


def test_final_turn_is_beat_or_tie() -> None:
    value, choice = final_turn_table()
    matrix = threshold_matrix()
    for d in (1, 5, 13, 40, 90):
        assert choice[d] in (d, d + 1)
        for t in (d, d + 1):
            row = matrix[t]
            chance = row[d + 1:].sum() + 0.5 * row[d]
            assert value[d] >= chance - 1e-15
    assert np.all(np.diff(value[1:200]) <= 1e-15)  # further behind, smaller chance


def test_a_match_of_two_thresholds_against_the_reference_solver() -> None:
    """Threshold 20 against threshold 25 to 60: the first seat's chance (a tie counted half) as
    the rules-only reference walks it, and ties happen (both reach the target on one round)."""
    from captain_seven_reference import first_player_value, threshold_rule, turn_masses

    match = evaluate_match(CaptainSevenVariant(target=60), "threshold:20", "threshold:25")
    expected = first_player_value(60, turn_masses(25), threshold_rule(20), threshold_rule(25))
    assert match.p_win_first == pytest.approx(expected, abs=1e-12)
    assert 0 < match.p_tie < 0.1


def test_optimal_self_play_evaluated_as_a_match_equals_the_solution() -> None:
    variant = CaptainSevenVariant()
    solution = optimal_solution(variant)
    assert solution.residual < 1e-13
    match = evaluate_match(variant, "optimal", "optimal")
    assert match.p_win_first == pytest.approx(solution.p_win_first, abs=1e-13)
    assert match.p_win_first == pytest.approx(0.54131727, abs=1e-8)


@pytest.mark.parametrize("target,thresholds", [(30, (8, 15, 22, 27, 31, 36, 50)),
                                               (100, (20, 31, 45))])
def test_the_optimised_policy_is_an_equilibrium_of_its_class(target: int,
                                                             thresholds: tuple[int, ...]
                                                             ) -> None:
    """Moving first it wins at least its value against every rule, and no rule moving first
    gains against it: the optimum is no worse than any threshold in either seat."""
    variant = CaptainSevenVariant(target=target)
    value = optimal_solution(variant).p_win_first
    for t in thresholds:
        for kind in ("threshold", "chase"):
            rule = f"{kind}:{t}"
            assert evaluate_match(variant, "optimal", rule).p_win_first >= value - 1e-12
            assert evaluate_match(variant, rule, "optimal").p_win_first <= value + 1e-12


def test_best_threshold_gives_away_winning_chances() -> None:
    away = threshold_give_away(CaptainSevenVariant())  # shipped
    assert away.best["threshold"][0].startswith("threshold:")
    assert 0.05 < away.give_away("threshold") < 0.15  # pure thresholds misplay the final turn
    assert 0.0 < away.give_away("chase") < 0.05
    assert max(away.chances) < 0.5


def test_optimal_thresholds_react_to_the_stashes() -> None:
    solution = optimal_solution(CaptainSevenVariant())
    assert 20 <= solution.threshold(0, 0) <= 40
    assert solution.threshold(0, 95) > solution.threshold(0, 0)  # far behind: push on
    assert solution.threshold(95, 0) <= 10  # five to go and far ahead: stash early
    assert solution.threshold(40, 130) in (90, 91)  # final turn: beat or tie 130


def test_shipped_solution_equals_a_fresh_solve() -> None:
    variant = CaptainSevenVariant(target=75)
    fresh = solve_optimal(variant)
    shipped = optimal_solution(variant)
    assert np.allclose(fresh.start, shipped.start, atol=1e-15)
    assert np.array_equal(fresh.thresholds, shipped.thresholds)
    for g in SHEET_TARGETS:  # the sheet's lengths ship precomputed
        found = cache.locate(solution_key(g))
        assert found is not None and found[0].parent == cache.DATA_DIR


# --------------------------------------------------------------------------------------------
# Policies, gauge


@pytest.mark.parametrize("text", ["bogus", "threshold", "threshold:0", "chase:x", "optimal:3",
                                  f"threshold:{MAX_THRESHOLD + 1}"])
def test_bad_policies_are_one_line_errors(text: str) -> None:
    with pytest.raises(RulesError) as info:
        C7Policy.parse(text)
    assert "\n" not in str(info.value)


def test_policies_need_stashes_and_no_relics() -> None:
    with pytest.raises(RulesError, match="secret_stash"):
        evaluate_match_uncached(CaptainSevenVariant(target=20, secret_stash=True), "optimal",
                                "threshold:20")
    with pytest.raises(RulesError, match="without relics"):
        optimal_solution(CaptainSevenVariant(relics=True))


def test_gauge_at_turn_start_and_within_a_turn() -> None:
    variant = CaptainSevenVariant()
    solution = optimal_solution(variant)
    assert captain_seven_win_probability(variant, 30, 55) == pytest.approx(solution.start[30, 55])
    assert captain_seven_win_probability(variant, 30, 120) == pytest.approx(
        solution.final_value[90])
    # within a turn: the exact turn distribution from the cards, under this turn's threshold
    drawn = "9h 5c Kd"
    model, state = captain_seven_position(variant, drawn=drawn)
    t = solution.threshold(30, 55)
    solver = TurnSolver(model)
    dist = solver.distribution(state, solver.threshold_policy(t))
    by_hand = sum(p * ((1 - solution.start[55, 30]) if x == 0 else
                       (1 - solution.start[55, 30 + int(x)]) if 30 + x < 100 else
                       (1 - solution.final_value[30 + int(x) - 55]))
                  for x, p in dist.items())
    gauge = captain_seven_win_probability(variant, 30, 55, 24, drawn=drawn)
    assert gauge == pytest.approx(by_hand, abs=1e-13)
    with pytest.raises(PositionError, match="cards"):
        captain_seven_win_probability(variant, 30, 55, 24)
    with pytest.raises(PositionError, match="does not match"):
        captain_seven_win_probability(variant, 30, 55, 23, drawn=drawn)
    with pytest.raises(PositionError):
        captain_seven_win_probability(variant, 100, 5)


def test_engine_gauge_follows_the_table() -> None:
    spec = get_game("captain-seven")
    engine = spec.new_engine(CaptainSevenVariant(), players=2, seed=3)
    assert captain_seven_engine_win_probability(engine) == pytest.approx(
        optimal_solution(CaptainSevenVariant()).start[0, 0])
    assert captain_seven_engine_win_probability(spec.new_engine(players=3)) is None


@pytest.mark.slow
def test_mid_turn_gauge_matches_the_real_game_played_on() -> None:
    """The gauge after two draws against a second method: the real engine, copied at that
    moment with its undrawn cards reshuffled, played to the end 3,000 times by both players
    following the optimal threshold table (what the gauge assumes); wins + half the ties
    must lie within 4 standard errors of the gauge."""
    import copy
    import random

    from pushluck_teach.sim import SimulationResult
    from pushluck_teach.sim.policy_bots import policy_bot

    variant = CaptainSevenVariant(target=75)
    spec = get_game("captain-seven")
    engine = spec.new_engine(variant, players=2, seed=3)
    engine.act("draw")
    engine.act("draw")
    assert not engine.is_over and engine.current_player == 0 and engine.view().turn_total > 0
    gauge = captain_seven_engine_win_probability(engine)
    assert gauge is not None and 0.0 < gauge < 1.0
    bot = policy_bot("captain-seven", "optimal")
    rng = random.Random(20261201)
    outcomes = []
    for _ in range(3000):
        game = copy.deepcopy(engine)
        game.rng = random.Random(rng.getrandbits(64))
        game.rng.shuffle(game.pile)
        while not game.is_over:
            game.act(bot.choose(game))
        winners = game.winners()
        outcomes.append(1.0 if winners == (0,) else 0.5 if 0 in winners else 0.0)
    sim = SimulationResult.of(outcomes)
    assert sim.within(gauge, sigmas=4), (gauge, sim.mean, sim.stderr)


# --------------------------------------------------------------------------------------------
# CLI, registry, views


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_optimal_and_thresholds(capsys) -> None:
    code, out, _ = run(capsys, "solve", "captain-seven", "--json")
    data = json.loads(out)
    assert code == 0 and data["p_win_first"] == pytest.approx(0.5413172742, abs=1e-9)
    assert data["p_first_wins"] + data["p_tie"] + data["p_second_wins"] == pytest.approx(1.0)
    code, out, _ = run(capsys, "solve", "captain-seven", "--json", "--target", "75",
                       "--policy", "threshold:20", "--policy", "chase:25")
    data = json.loads(out)
    expected = evaluate_match(CaptainSevenVariant(target=75), "threshold:20", "chase:25")
    assert data["p_win_first"] == pytest.approx(expected.p_win_first, abs=1e-14)
    assert data["policies"] == ["threshold:20", "chase:25"]
    code, out, _ = run(capsys, "solve", "captain-seven", "--option", "target=75")
    assert code == 0 and "p_win_first" in out


@pytest.mark.parametrize("argv,message", [
    (["--policy", "bogus", "--policy", "optimal"], "unknown captain-seven policy"),
    (["--policy", "optimal"], "one --policy per player"),
    (["--players", "3"], "2 players"),
    (["--option", "relics=true"], "without relics"),
    (["--target", "0"], "target"),
    (["--target", "5000"], "1-1000"),
    (["--exact"], "--exact"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, message) -> None:
    code, out, err = run(capsys, "solve", "captain-seven", *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_registry() -> None:
    assert has_solver("captain-seven")
    assert solver_for("captain-seven").game == "captain-seven"


def test_views_show_the_solution() -> None:
    solution = optimal_solution(CaptainSevenVariant(target=75))
    heat = win_probability_heatmap(solution.start)
    assert np.allclose(np.asarray(heat.data[0].z), solution.start)
    boundary = hold_boundary_heatmap(solution.thresholds, zmax=60)
    assert np.array_equal(np.asarray(boundary.data[0].z), solution.thresholds)
    chart = threshold_rule_chart([10, 20], {"threshold": [0.3, 0.4], "chase": [0.45, 0.47]})
    assert [t.name for t in chart.data] == ["threshold", "chase"]
    assert list(chart.data[1].y) == [0.45, 0.47]


# --------------------------------------------------------------------------------------------
# Agreement with the play engine


def _first_wins(variant: CaptainSevenVariant, bots: list, n: int, seed: int) -> SimulationResult:
    games = simulate_games(get_game("captain-seven"), bots, n, seed, variant=variant)
    return SimulationResult.of([1.0 if w == (0,) else 0.5 if len(w) == 2 else 0.0
                                for w, _ in games])


@pytest.mark.slow
@pytest.mark.parametrize("target,first,second,n", [
    (100, 20, 30, 10000),
    (50, 15, 25, 10000),
])
def test_threshold_pairs_agree_with_the_engine(target, first, second, n) -> None:
    variant = CaptainSevenVariant(target=target)
    exact = evaluate_match(variant, f"threshold:{first}", f"threshold:{second}").p_win_first
    result = _first_wins(variant, [ThresholdBot(first), ThresholdBot(second)], n,
                         seed=target + first)
    assert result.within(exact, 4.0), (result.mean, result.stderr, exact)


@pytest.mark.slow
@pytest.mark.parametrize("first,second", [("optimal", "threshold:25"), ("chase:20", "optimal")])
def test_optimal_policy_agrees_with_the_engine(first: str, second: str) -> None:
    variant = CaptainSevenVariant()
    exact = evaluate_match(variant, first, second).p_win_first
    bots = [policy_bot("captain-seven", first), policy_bot("captain-seven", second)]
    result = _first_wins(variant, bots, 10000, seed=len(first) * 7)
    assert result.within(exact, 4.0), (result.mean, result.stderr, exact)
