"""Sweeps and readable stop rules."""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import OptionError
from pushluck_teach.games.custom import HIT_LIST_RULES, PIG_RULES, SPEC, custom_position
from pushluck_teach.solve.stop_rule import describe_stop_rule
from pushluck_teach.solve.sweep import (
    compute_point,
    parse_sweep_option,
    point_variant,
    run_sweep,
)
from pushluck_teach.solve.turn import TurnSolver

NO_ACE_HIT_LIST = HIT_LIST_RULES.replace(remove_ranks=("A",))


def _pig_reach(threshold: int, sides: int = 6) -> Fraction:
    """P(a Pig turn reaches ``threshold``), by the recursion r(t) = Σ_{k≥2} r(t + k) / sides."""
    reach = {t: Fraction(1) for t in range(threshold, threshold + sides + 1)}
    for t in range(threshold - 1, -1, -1):
        reach[t] = sum((reach[t + k] for k in range(2, sides + 1)), Fraction(0)) / sides
    return reach[0]


def test_pig_stop_rule_is_hold_at_20() -> None:
    """Neller and Presser: the turn-optimal Pig rule is "hold at 20"; the bust risk of that
    rule is 1 - P(reaching 20), counted here by a separate recursion."""
    model, state = custom_position(PIG_RULES)
    rule = describe_stop_rule(model, start=state)
    assert rule.threshold == 20
    assert rule.agreement == 1.0
    assert rule.text.startswith("Stop at 20 or more.")
    assert rule.bust_risk == pytest.approx(float(1 - _pig_reach(20)), abs=1e-12)


def test_stop_rule_of_a_hand_written_game_and_its_exceptions() -> None:
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(), drawn="Kh Tc 5d")
    rule = describe_stop_rule(model, start=state)
    # agreement is the share of optimal decisions the threshold rule matches
    assert 0.5 < rule.agreement <= 1.0
    assert rule.threshold is not None and "Stop at" in rule.text
    for departure in rule.exceptions:
        if departure.action == "draw":
            assert departure.low >= rule.threshold
        else:
            assert departure.high < rule.threshold
    assert round(sum(d.share for d in rule.exceptions), 9) == round(1 - rule.agreement, 9)


def test_parse_sweep_option() -> None:
    assert parse_sweep_option("target=50..240:10") == ("target", tuple(range(50, 241, 10)))
    assert parse_sweep_option("bank_minimum=12..14") == ("bank_minimum", (12, 13, 14))
    assert parse_sweep_option("relics=false,true") == ("relics", ("false", "true"))
    for bad in ["target", "target=", "target=9..3", "target=a..b", "target=1..5:0"]:
        with pytest.raises(OptionError):
            parse_sweep_option(bad)


def test_point_variant_converts_text_and_refuses_unknown_options() -> None:
    spec = get_game("captain-seven")
    assert point_variant(spec.variant_cls(), "relics", "true").relics is True
    with pytest.raises(OptionError, match="unknown option"):
        point_variant(spec.variant_cls(), "colour", 3)


def test_sweep_points_match_direct_solves() -> None:
    result = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", [12, 16, 20])
    assert [p.value for p in result.points] == [12, 16, 20]
    for point in result.points:
        model, state = custom_position(NO_ACE_HIT_LIST.replace(bank_minimum=point.value))
        assert point.turn_value == pytest.approx(float(TurnSolver(model, exact=True).value(
            state)), abs=1e-12)
        assert point.error is None and point.threshold >= point.value


def test_a_refused_point_keeps_its_error() -> None:
    pig = get_game("pig")
    point = compute_point(pig, pig.variant_cls(), "die_sides", 1)
    assert point.error and "die_sides" in point.error


def test_whole_game_win_chance_in_a_sweep() -> None:
    pig = get_game("pig")
    result = run_sweep(pig, pig.variant_cls(), "target", [10, 20], turn=False, whole_game=True)
    chances = [p.win_chance for p in result.points]
    # the first player's edge shrinks as the game gets longer
    assert 0.5 < chances[1] < chances[0] < 1


def test_stop_half_way_keeps_the_points_done() -> None:
    stop = threading.Event()
    seen = []

    def progress(done: int, total: int, point) -> None:
        seen.append((done, total))
        if done == 3:
            stop.set()

    result = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", range(10, 20), progress=progress,
                       stop=stop)
    assert result.stopped
    assert [p.value for p in result.points] == [10, 11, 12]
    assert seen == [(1, 10), (2, 10), (3, 10)]


def test_local_cluster_returns_the_serial_numbers() -> None:
    import distributed  # the test extra installs dask[distributed]

    values = [12, 14, 16, 18]
    serial = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", values)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        remote = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", values,
                           scheduler=cluster.scheduler_address)
    strip = [(p.value, p.turn_value, p.threshold, p.stop_rule, p.bust_risk)
             for p in serial.points]
    assert [(p.value, p.turn_value, p.threshold, p.stop_rule, p.bust_risk)
            for p in remote.points] == strip
    assert not remote.stopped


@pytest.mark.slow
def test_process_pool_returns_the_serial_numbers() -> None:
    values = [13, 15, 17]
    serial = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", values)
    pooled = run_sweep(SPEC, NO_ACE_HIT_LIST, "bank_minimum", values, workers=2)
    assert [p.turn_value for p in pooled.points] == [p.turn_value for p in serial.points]


def test_a_stop_rule_may_split_on_a_feature_the_model_offers() -> None:
    """Lands Uncharted without allies (built): holding a face, a second one busts, so the
    optimum stops much earlier; the split rule says so and agrees with the optimum more often
    than the best single threshold (computed here directly from the optimal policy)."""
    from pushluck_teach.games.custom import LANDS_UNCHARTED_RULES
    from pushluck_teach.solve.stop_rule import reach_probabilities
    from pushluck_teach.solve.turn import policy_graph

    rules = LANDS_UNCHARTED_RULES.replace(allies=None)
    model, state = custom_position(rules)
    solver = TurnSolver(model)
    rule = describe_stop_rule(model, solver, state)
    assert "unless with a J/Q/K held: stop at" in rule.text
    graph = policy_graph(model, state, solver.best_action)
    mass = reach_probabilities(graph, state)
    choices = [(model.turn_total(s), a, mass[s]) for s, (a, _) in graph.moves.items()
               if len(model.actions(s)) == 2]
    whole = sum(p for _, _, p in choices)
    single = max(sum(p for t, a, p in choices if (t >= threshold) == (a == "stop"))
                 for threshold in range(0, 80)) / whole
    assert rule.agreement > single + 0.02


def test_expected_turns_to_a_target_matches_the_pig_chain() -> None:
    """The race alone in the built Pig equals the whole-game module's own exact Pig chain
    (hold at min(20, what is missing)), as fractions."""
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.race import expected_turns_to_target
    from pushluck_teach.solve.whole_game.pig import PigModel, exact_expected_turns

    model, state = custom_position(PIG_RULES)
    for target, hold in [(30, 20), (25, 12)]:
        got = expected_turns_to_target(model, target, hold, start=state, exact=True)
        assert got == exact_expected_turns(PigModel.from_variant(PigVariant(target=target)),
                                           hold)


@pytest.mark.slow
def test_process_pool_sweep_of_a_game_whose_spec_holds_lambdas() -> None:
    """A registered spec travels to the workers by name (specs may hold lambdas)."""
    pig = get_game("pig")
    serial = run_sweep(pig, pig.variant_cls(), "target", [10, 20], turn=False, whole_game=True)
    pooled = run_sweep(pig, pig.variant_cls(), "target", [10, 20], turn=False, whole_game=True,
                       workers=2)
    assert [p.win_chance for p in pooled.points] == [p.win_chance for p in serial.points]
    assert all(p.error is None for p in pooled.points)
