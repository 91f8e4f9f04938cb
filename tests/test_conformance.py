"""One conformance test for every registered game and preset.

For random reachable positions of random variants: every action's outcome weights are positive
integers (so probabilities are exact and sum to exactly 1), ``ev_optimal`` is at least
``ev_stop`` and ``ev_draw_once``, the best action's value is the optimal value, and the float and
exact modes agree to 1e-9 with the same best action.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pushluck_teach.games.base import DRAW, STOP, GameSpec, RulesError, Variant, turn_games
from pushluck_teach.solve.turn import TurnSolver

GAMES = turn_games()  # the games with a draw/stop turn model
PRESETS = [(spec, name) for spec in GAMES for name in spec.presets]
# Exact solves of shallow positions of the biggest games take seconds; the conformance check
# compares float and exact modes wherever the position's state space is at most this large.
EXACT_STATE_LIMIT = 20_000


def test_the_expected_games_are_registered() -> None:
    names = {spec.name for spec in GAMES}
    # The rules' five games, named independently of the registry (a new game adds itself).
    assert {"pig", "captain-seven", "hit-list", "incan-gold", "lands-uncharted"} <= names
    for spec in GAMES:
        assert spec.presets, f"{spec.name} has no presets"
        assert spec.min_players <= spec.max_players


def random_variant(spec: GameSpec, data: st.DataObject) -> Variant:
    """A preset with a random subset of its boolean options switched."""
    preset = data.draw(st.sampled_from(sorted(spec.presets)), label="preset")
    variant = spec.presets[preset]
    hints = typing.get_type_hints(type(variant))
    flips = {
        f.name: not getattr(variant, f.name)
        for f in dataclasses.fields(variant)
        if hints[f.name] is bool and data.draw(st.booleans(), label=f"flip {f.name}")
    }
    try:
        return variant.replace(**flips)
    except RulesError:
        assume(False)
        raise


def random_position(spec: GameSpec, variant: Variant, seed: int, steps: int) -> tuple[Any, Any]:
    """Walk ``steps`` random chance outcomes (drawing, never stopping) from the turn start."""
    model, state = spec.position(variant)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = model.actions(state)
        if not actions:
            break
        choices = [a for a in actions if a != STOP] or list(actions)
        pairs = model.transitions(state, rng.choice(choices))
        live = [(w, s) for w, s in pairs if model.actions(s)]
        if not live:
            break
        weights = [w for w, _ in live]
        state = rng.choices([s for _, s in live], weights=weights)[0]
    return model, state


def check_position(model: Any, state: Any) -> None:
    actions = model.actions(state)
    assert actions, "a decision state must have actions"
    for action in actions:
        pairs = model.transitions(state, action)
        assert pairs, f"{action} has no outcomes"
        for weight, _ in pairs:
            assert isinstance(weight, int) and weight > 0
        total = sum(w for w, _ in pairs)
        assert sum(Fraction(w, total) for w, _ in pairs) == 1
    shortcut = model.stop_payoff(state)
    if shortcut is not None:
        ((_, stopped),) = model.transitions(state, STOP)
        assert shortcut == model.payoff(stopped)
    fast = TurnSolver(model)
    a = fast.analyse(state)
    tol = 1e-9 * max(1.0, abs(a.ev_optimal))
    if a.ev_stop is not None:
        assert a.ev_optimal >= a.ev_stop - tol
    if a.ev_draw_once is not None:
        assert a.ev_optimal >= a.ev_draw_once - tol
    assert a.action_values[a.best_action] == pytest.approx(a.ev_optimal, abs=tol)
    if a.p_bust_next is not None:
        assert 0 <= a.p_bust_next <= 1
    assert (STOP in actions) == (a.ev_stop is not None)
    assert (DRAW in actions) == (a.ev_draw_once is not None)
    if fast.states_solved() <= EXACT_STATE_LIMIT:
        e = TurnSolver(model, exact=True).analyse(state)
        for name in ("p_bust_next", "ev_stop", "ev_draw_once", "ev_optimal"):
            exact_value, float_value = getattr(e, name), getattr(a, name)
            assert (exact_value is None) == (float_value is None), name
            if exact_value is not None:
                assert isinstance(exact_value, Fraction)
                assert float(exact_value) == pytest.approx(float_value, abs=1e-9), name
        assert e.best_action == a.best_action
        dist = TurnSolver(model, exact=True).distribution(state)
        assert sum(dist.values()) == 1


@pytest.mark.parametrize(("spec", "preset"), PRESETS, ids=[f"{s.name}-{p}" for s, p in PRESETS])
def test_preset_turn_start_is_a_valid_position(spec: GameSpec, preset: str) -> None:
    model, state = spec.position(spec.presets[preset])
    assert model.actions(state)
    assert hash(model) == hash(spec.position(spec.presets[preset])[0])


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 7))
def test_random_positions_conform(spec: GameSpec, data: st.DataObject, seed: int,
                                  steps: int) -> None:
    variant = random_variant(spec, data)
    model, state = random_position(spec, variant, seed, steps)
    assume(model.actions(state))
    check_position(model, state)
