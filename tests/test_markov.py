"""The turn as an absorbing Markov chain: hand-checked answers and agreement with the solver."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel, turn_games
from pushluck_teach.games.pig import PigTurnModel, PigVariant
from pushluck_teach.solve.markov import (
    absorbing_analysis,
    absorbing_analysis_exact,
    build_chain,
    chain_summary,
    threshold_policy,
)
from pushluck_teach.solve.turn import TurnSolver


@dataclass(frozen=True)
class ThreeCards(TurnModel):
    """A toy card turn: a deck of 1, 2 and a bust card X, drawn without replacement."""

    @property
    def start(self):
        return ("turn", frozenset({"1", "2", "X"}), 0)

    def actions(self, state):
        if state[0] == "end":
            return ()
        return (DRAW, STOP) if state[2] > 0 else (DRAW,)

    def transitions(self, state, action):
        _, deck, total = state
        if action == STOP:
            return [(1, ("end", total, False))]
        out = []
        for card in sorted(deck):
            if card == "X":
                out.append((1, ("end", 0, True)))
            else:
                out.append((1, ("turn", deck - {card}, total + int(card))))
        return out

    def payoff(self, terminal):
        return terminal[1]

    def is_bust(self, terminal):
        return terminal[2]

    def turn_total(self, state):
        return state[2] if state[0] == "turn" else state[1]


def test_three_cards_by_hand():
    # Draw while the total is below 3.  X first (1/3) busts; 1 or 2 first (2/3) needs one more
    # draw, which busts with probability 1/2.  So E[draws] = 1 + 2/3 = 5/3,
    # P(bust) = 1/3 + 2/3 * 1/2 = 2/3, and the turn banks 3 with probability 1/3.
    model = ThreeCards()
    chain = build_chain(model, threshold_policy(model, 3))
    exact = absorbing_analysis_exact(chain)
    assert chain.n_transient == 4 and chain.n_absorbing == 2
    assert exact.expected_draws[0] == Fraction(5, 3)
    assert exact.expected_steps[0] == Fraction(2)  # 5/3 draws + 1/3 "bank" steps
    assert exact.p_bust == Fraction(2, 3)
    assert exact.distribution == {0: Fraction(2, 3), 3: Fraction(1, 3)}
    # The start's row of N: the start once, each later transient state with probability 1/3.
    assert exact.fundamental[0] == (1, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    floats = absorbing_analysis(chain)
    assert floats.expected_draws[0] == pytest.approx(5 / 3)
    assert floats.p_bust == pytest.approx(2 / 3)


def test_piglet_hold_at_4_by_hand():
    # Two-sided die: each roll busts with probability 1/2; hold at 4 needs two 2s.
    model = PigTurnModel(PigVariant(die_sides=2, target=10))
    exact = absorbing_analysis_exact(build_chain(model, threshold_policy(model, 4)))
    assert exact.expected_draws[0] == Fraction(3, 2)
    assert exact.p_bust == Fraction(3, 4)
    assert exact.distribution == {0: Fraction(3, 4), 4: Fraction(1, 4)}


def pig_expected_rolls(threshold: int, sides: int = 6) -> Fraction:
    """Independent recursion: e(t) = 0 for t >= T, else 1 + (1/sides) * sum_k e(t + k)."""
    e: dict[int, Fraction] = {}
    for t in range(threshold + sides, -1, -1):
        if t >= threshold:
            e[t] = Fraction(0)
        else:
            e[t] = 1 + sum((e[t + k] for k in range(2, sides + 1)), Fraction(0)) / sides
    return e[0]


def test_pig_hold_at_20_expected_rolls():
    model = PigTurnModel(PigVariant())
    chain = build_chain(model, threshold_policy(model, 20))
    exact = absorbing_analysis_exact(chain)
    assert exact.expected_draws[0] == pig_expected_rolls(20) == Fraction(9440899, 2519424)
    # Hold at 20 is optimal for one Pig turn: its mean is the solver's optimal value.
    assert exact.expected_result == TurnSolver(model, exact=True).value()
    floats = absorbing_analysis(chain)
    assert floats.expected_draws[0] == pytest.approx(float(exact.expected_draws[0]), rel=1e-12)
    assert np.allclose(floats.fundamental, np.array(exact.fundamental, dtype=float))
    assert np.allclose(floats.absorption.sum(axis=1), 1.0)
    assert np.allclose(floats.fundamental @ np.ones(chain.n_transient), floats.expected_steps)


@settings(max_examples=25, deadline=None)
@given(sides=st.integers(2, 8), threshold=st.integers(1, 30), start=st.integers(0, 12))
def test_pig_absorption_equals_solver_distribution(sides, threshold, start):
    model = PigTurnModel(PigVariant(die_sides=sides), 0)
    state = ("turn", start)
    solver = TurnSolver(model, exact=True)
    policy = solver.threshold_policy(threshold)
    exact = absorbing_analysis_exact(build_chain(model, policy, state))
    assert exact.distribution == solver.distribution(state, policy)
    if start == 0:
        assert exact.expected_draws[0] == pig_expected_rolls(threshold, sides)
    floats = absorbing_analysis(build_chain(model, policy, state))
    for result, p in exact.distribution.items():
        assert floats.distribution[result] == pytest.approx(float(p), abs=1e-12)


def small_chains(name: str, *, seeds: int, limit: int):
    """Chains of real positions: a seeded engine draws until the optimal chain from the
    position has at most ``limit`` states (small card positions)."""
    spec = get_game(name)
    for seed in range(seeds):
        engine = spec.new_engine(players=max(spec.min_players, 2), seed=seed)
        for _ in range(60):
            if engine.is_over:
                break
            model, state = engine.turn_position()
            if model.actions(state):
                def greedy(s, model=model):  # draws up to 40: a cheap size probe, no solver
                    acts = model.actions(s)
                    if STOP in acts and (DRAW not in acts or model.turn_total(s) >= 40):
                        return STOP
                    return DRAW if DRAW in acts else acts[0]
                try:
                    build_chain(model, greedy, state, max_states=limit)
                except PositionError:
                    pass
                else:
                    solver = TurnSolver(model, exact=True)
                    yield solver, state, build_chain(model, solver.best_action, state)
                    break
            legal = engine.legal_actions()
            engine.act(DRAW if DRAW in legal else legal[0])


def check_against_solver(solver, state, chain):
    exact = absorbing_analysis_exact(chain, matrix_limit=0)
    assert exact.distribution == solver.distribution(state)
    assert exact.expected_result == solver.value(state)
    floats = absorbing_analysis(chain, dense_limit=0)
    assert floats.p_bust == pytest.approx(float(exact.p_bust), abs=1e-9)
    assert float(exact.expected_draws[0]) == pytest.approx(floats.expected_draws[0])


@pytest.mark.parametrize("name", [spec.name for spec in turn_games()])
def test_every_game_absorption_equals_solver(name):
    found = list(small_chains(name, seeds=1, limit=2_000))
    assert found, f"no small position found for {name}"
    for solver, state, chain in found:
        check_against_solver(solver, state, chain)


@pytest.mark.slow
@pytest.mark.parametrize("name", [spec.name for spec in turn_games()])
def test_every_game_absorption_equals_solver_larger(name):
    found = list(small_chains(name, seeds=2, limit=10_000))
    assert found
    for solver, state, chain in found:
        check_against_solver(solver, state, chain)


def test_matrix_blocks_and_exact_matrix():
    model = ThreeCards()
    chain = build_chain(model, threshold_policy(model, 3))
    P = chain.transition_matrix().toarray()
    assert np.allclose(P.sum(axis=1), 1.0)
    assert np.allclose(np.array(chain.exact_matrix(), dtype=float), P)
    Q, R = chain.blocks()
    assert Q.shape == (4, 4) and R.shape == (4, 2)
    summary = chain_summary(absorbing_analysis_exact(chain))
    assert summary["expected draws"] == Fraction(5, 3)


def test_bad_input():
    model = PigTurnModel(PigVariant())
    with pytest.raises(PositionError, match="turn is over"):
        build_chain(model, state=("end", 0, True))
    with pytest.raises(PositionError, match="not legal"):
        build_chain(model, lambda s: STOP)  # cannot hold before the first roll
    with pytest.raises(PositionError, match="too large"):
        build_chain(model, threshold_policy(model, 50), max_states=10)


@pytest.mark.parametrize("threshold, start", [(20, 0), (7, 3), (35, 10)])
def test_python_floats_equal_scipy_lu(threshold, start):
    """The static site's path (no SciPy: back substitution in Python floats) gives SciPy's
    sparse-LU numbers: expected steps and draws, the start's visits and absorption, N and B."""
    from pushluck_teach.solve.markov import absorbing_analysis_floats

    model = PigTurnModel(PigVariant(), 0)
    chain = build_chain(model, threshold_policy(model, threshold), ("turn", start))
    scipy_lu = absorbing_analysis(chain)
    plain = absorbing_analysis_floats(chain)
    assert (scipy_lu.solver, plain.solver) == ("SciPy", "Python floats")
    for name in ("expected_steps", "expected_draws", "visits_from_start",
                 "absorption_from_start", "fundamental", "absorption"):
        assert np.allclose(np.array(getattr(plain, name)), getattr(scipy_lu, name),
                           rtol=1e-12, atol=1e-15), name
    assert plain.distribution == pytest.approx(scipy_lu.distribution, abs=1e-12)
    assert absorbing_analysis_floats(chain, dense_limit=0).fundamental is None
