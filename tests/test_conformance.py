"""One conformance test for every registered game and preset.

Every preset's first draw is from the deck (or die) that ``docs/rules.md`` describes, counted
card by card.  For random reachable positions of random variants: every action's outcome weights
are positive integers (so probabilities are exact), each card drawn leaves
one card fewer behind the next draw (a die keeps its faces), ``ev_optimal`` is at least
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


def draw_total(model: Any, state: Any) -> int:
    """How many equally likely cards (or die faces) stand behind a draw here."""
    return sum(w for w, _ in model.transitions(state, DRAW))


def random_position(spec: GameSpec, variant: Variant, seed: int, steps: int) -> tuple[Any, Any]:
    """Walk ``steps`` random chance outcomes (drawing, never stopping) from the turn start.
    Along the way, each draw leaves fewer cards behind the next one (Pig's die: as many faces)."""
    model, state = spec.position(variant)
    rng = random.Random(seed)
    last_draw: int | None = None
    for _ in range(steps):
        actions = model.actions(state)
        if not actions:
            break
        choices = [a for a in actions if a != STOP] or list(actions)
        action = rng.choice(choices)
        if action == DRAW:
            total = draw_total(model, state)
            if last_draw is not None:
                if variant_base(spec, variant) == "pig":
                    assert total == last_draw, "a die lost or gained a face"
                else:
                    assert total < last_draw, f"a drawn card is still in the deck ({total})"
            last_draw = total
        pairs = model.transitions(state, action)
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
    assert model.actions(state) == (DRAW,)  # a turn starts with a draw (or a roll)
    variant = spec.presets[preset]
    assert draw_total(model, state) == rules_deck_size(variant_base(spec, variant), variant)


def variant_base(spec: GameSpec, variant: Variant) -> str:
    """``pig`` for a die game (Pig, or a built game with a die), else the game's name."""
    if spec.name == "custom":
        return "pig" if getattr(variant, "dice", 0) else "custom"
    return spec.name


def rules_deck_size(game: str, variant: Variant) -> int:
    """The cards (or faces) of a turn's first draw, as docs/rules.md (and for a built game,
    its own deck options) count them."""
    if game == "custom" or getattr(variant, "dice", 0):
        assert not (variant.remove_ranks or variant.remove_suits or variant.remove_cards)
        return variant.dice or variant.decks * (52 + variant.jokers)
    if game == "pig":
        return int(getattr(variant, "die_sides", 6))
    if game == "hit-list":
        return 104 if getattr(variant, "long_haul", False) else 52
    return {"captain-seven": 52 + 2,  # a standard deck and both jokers
            "lands-uncharted": 52,
            "incan-gold": 13 + 16 + 1,  # traps, treasures, round 1's artifact
            }[game]


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 7))
def test_random_positions_conform(spec: GameSpec, data: st.DataObject, seed: int,
                                  steps: int) -> None:
    variant = random_variant(spec, data)
    model, state = random_position(spec, variant, seed, steps)
    assume(model.actions(state))
    check_position(model, state)
