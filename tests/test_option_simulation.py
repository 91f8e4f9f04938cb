"""Exact against the engine under every option, not only the defaults.

For every preset and every yes/no option switched on alone, the solver's optimal turn value
from the turn start must lie within 4 standard errors of the mean result of turns the real
engine deals (fixed seeds), played by the solver's policy; likewise from positions only later
turns reach (Lands Uncharted's double or nothing from a score of 92).  The solver and the
engine are independent implementations of the rules, so a disagreement in any option shows.

A bot must never hide a disagreement: when the model's best action is not legal in the engine,
``OptimalTurnBot`` must fail loudly (that bot change is in ``sim/``; the test is written now).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.games.base import Engine, GameSpec, Variant
from pushluck_teach.sim import OptimalTurnBot
from pushluck_teach.sim.run import SimulationResult
from pushluck_teach.solve.turn import TurnSolver

TURNS = 2000
Setup = Callable[[Engine], None]


def option_variants() -> list[tuple[GameSpec, str, Variant]]:
    out = []
    for spec in turn_games():
        for name, variant in sorted(spec.presets.items()):
            out.append((spec, name, variant))
        default = spec.variant_cls()
        for key, value in default.options().items():
            if value is False:
                out.append((spec, f"{key}", default.replace(**{key: True})))
    return out


CASES = option_variants()


def exact_and_simulated(spec: GameSpec, variant: Variant, seed: int, n: int = TURNS,
                        setup: Setup | None = None) -> tuple[float, SimulationResult]:
    """The solver's optimal value of the first turn (after ``setup``) and the engine's mean."""
    first = spec.new_engine(variant, players=1, seed=0)
    if setup:
        setup(first)
    model, state = first.turn_position()
    exact = float(TurnSolver(model).value(state))
    bot = OptimalTurnBot()
    rng = random.Random(seed)
    results = []
    for _ in range(n):
        engine = spec.new_engine(variant, players=1, seed=rng.getrandbits(64))
        if setup:
            setup(engine)
        while not engine.turn_records and not engine.is_over:
            engine.act(bot.choose(engine))
        results.append(float(engine.turn_records[0].result))
    return exact, SimulationResult.of(results)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "label", "variant"), CASES,
                         ids=[f"{s.name}-{label}" for s, label, _ in CASES])
def test_first_turn_value_matches_the_engine_under_each_option(spec: GameSpec, label: str,
                                                               variant: Variant) -> None:
    exact, sim = exact_and_simulated(spec, variant, seed=20261201)
    assert sim.n == TURNS
    assert sim.within(exact, sigmas=4), (label, exact, sim.mean, sim.stderr)


def _score(points: int) -> Setup:
    def setup(engine: Engine) -> None:
        engine._scores[0] = points  # a score reached in earlier turns (test set-up)

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("score", [90, 92, 97])
def test_double_or_nothing_from_the_declare_window_matches_the_engine(score: int) -> None:
    spec = get_game("lands-uncharted")
    variant = spec.variant_cls(double_or_nothing=True)
    exact, sim = exact_and_simulated(spec, variant, seed=score, setup=_score(score))
    assert sim.within(exact, sigmas=4), (score, exact, sim.mean, sim.stderr)
    # The declare choice is really offered and really matters here.
    engine = spec.new_engine(variant, players=1, seed=0)
    _score(score)(engine)
    assert "declare" in engine.legal_actions()


class _MismatchedEngine:
    """An engine whose turn model recommends an action the engine does not allow."""

    game = "pig"

    def __init__(self) -> None:
        spec = get_game("pig")
        self._engine = spec.new_engine(players=1, seed=0)
        self._engine.act("draw")  # now the model says: roll (draw) or hold (stop)

    def turn_position(self):  # noqa: ANN201 - mirrors Engine
        return self._engine.turn_position()

    def legal_actions(self) -> tuple[str, ...]:
        return ("pass",)  # neither of the model's actions

    def decision_in_turn_model(self) -> bool:
        return True  # the decision is a turn decision: the model covers it


def test_optimal_bot_fails_loudly_on_a_model_engine_disagreement() -> None:
    with pytest.raises(Exception, match="not legal|disagree"):
        OptimalTurnBot().choose(_MismatchedEngine())  # type: ignore[arg-type]


def _hits(count: int) -> Setup:
    def setup(engine: Engine) -> None:
        engine.hits[0] = count  # hits completed in earlier jobs (test set-up)

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("hits", [3, 4])
def test_one_last_job_with_earlier_hits_matches_the_engine(hits: int) -> None:
    spec = get_game("hit-list")
    variant = spec.variant_cls(one_last_job=True, silent_assassin=True)
    exact, sim = exact_and_simulated(spec, variant, seed=hits, setup=_hits(hits))
    assert sim.within(exact, sigmas=4), (hits, exact, sim.mean, sim.stderr)


def _relic(code: str) -> Setup:
    def setup(engine: Engine) -> None:
        from pushluck_teach.cards import parse_card

        engine.relics[0] = parse_card(code)  # kept in an earlier turn (test set-up)
        engine.log.clear()
        engine._begin_turn()  # the turn starts again with the relic out of the deck

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("relic", ["Ks", "As"])
def test_captain_seven_turn_with_a_relic_held_matches_the_engine(relic: str) -> None:
    spec = get_game("captain-seven")
    variant = spec.variant_cls(relics=True)
    exact, sim = exact_and_simulated(spec, variant, seed=7, setup=_relic(relic))
    assert sim.within(exact, sigmas=4), (relic, exact, sim.mean, sim.stderr)
