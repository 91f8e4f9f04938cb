"""Widget fuzzing: random sequences of legal and illegal clicks on every game's table.

A hypothesis state machine drives a :class:`~pushluck_teach.ui.GameTable` the way a class of
students would: actions (legal ones and nonsense), rule options (presets and bad ones), seats,
seeds, the coach switch and New game.  After every step:

* no exception escaped and no "unexpected error" reached the page;
* a refused step (an error message) left the game exactly as it was;
* the deck is conserved: the places the engine says its cards are (``card_locations``) hold
  exactly the game's deck;
* the coach's numbers are the exact solver's for the position the page states (its "check it
  yourself" flags where other players enter the model, else ``engine.turn_position()``),
  computed here by this test's own :class:`~pushluck_teach.solve.turn.TurnSolver` (not by the
  panel's call); with the coach aiming at the turn's points, the optimal value too (over the
  exact solver's state budget, against the plain float recursion: the page uses level arrays).

The quick run covers the games whose first decisions solve in milliseconds; the others run
under ``slow`` with a fixed budget: a few short click sequences, and in each at most
:data:`OVER_BUDGET_CHECKS` optimal values checked by the float recursion over a position the
exact solver refuses (a multi-explorer temple round: tens of seconds each; its chance to go
bust is still checked at every step), and a result chart that stops its walk early.  The
``soak`` run (a scheduled CI job, docs/testing.md) fuzzes every game with many longer sequences
and no cap.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from html import unescape
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from pushluck_teach.games.base import DRAW, STOP, GameSpec, turn_games
from pushluck_teach.numbers import fraction_text
from pushluck_teach.solve.turn import TooManyStates, TurnSolver
from pushluck_teach.ui import GameTable

# First decisions of these take seconds to solve exactly (a 54-card deck, a temple round, a
# 52-card turn with a discard pile): they are fuzzed in the slow run.
HEAVY = {"captain-seven", "incan-gold", "lands-uncharted"}
#: Per click sequence, how many optimal values of over-budget positions the quick and slow runs
#: check against the plain float recursion (None: every one, in the soak run).
OVER_BUDGET_CHECKS = 1
#: In the slow run a heavy table's result chart walks at most this many positions, then shows
#: its "too many ways" note (a temple round's walk takes tens of seconds; the soak run walks
#: every one): the chart is not what this test checks, the table's state and numbers are.
HEAVY_DISTRIBUTION_STATES = 20_000
NONSENSE_ACTIONS = (DRAW, STOP, "ace:11", "declare", "bogus", "")
SEAT_CHOICES = (("human", "human"), ("human", "optimal"), ("optimal", "human"),
                ("human", "cautious"), ("human",), ("human", "greedy", "human"),
                ("robot", "human"), ())


def snapshot(table: GameTable) -> Any:
    engine = table.engine
    if engine is None:
        return None
    return (id(engine), len(engine.log), engine.view(), engine.legal_actions(), engine.is_over)


def page_position(table: GameTable) -> tuple[Any, Any]:
    """The position the page says it analyses: its "check it yourself" command's flags, built
    by the game's position factory (where other players' choices enter the model), else the
    engine's own turn position."""
    engine = table.engine
    match = re.search(r'data-flags="([^"]*)"', table.cli_html.value)
    flags = json.loads(unescape(match.group(1))) if match else {}
    if "others" in flags:
        return table.spec.position_from_flags(engine.variant, flags)
    return engine.turn_position()


def machine_for(spec: GameSpec, over_budget_checks: int | None = OVER_BUDGET_CHECKS,
                distribution_states: int | None = None) -> type[RuleBasedStateMachine]:
    class TableMachine(RuleBasedStateMachine):
        @initialize(seed=st.integers(0, 10_000))
        def open_table(self, seed: int) -> None:
            self.table = GameTable(spec.name, seats=("human", "human"), seed=seed,
                                   background=False)
            if hasattr(self.table, "objective"):
                self.table.objective = "points"  # the turn's numbers (a rule switches it)
            if distribution_states is not None:  # the result chart's walk: its refusal instead
                self.table.panel.distribution_state_limit = distribution_states
            self.solvers: dict[Any, TurnSolver[Any]] = {}  # this test's own, by (model, exact)
            self.over_budget_left = over_budget_checks
            self.over_budget_models: set[Any] = set()  # models the exact solver refused

        def _step(self, change: Any) -> None:
            """Run one click; a refusal must leave the game as it was."""
            before = snapshot(self.table)
            change()
            message = self.table.message
            assert not message.startswith("unexpected error"), message
            if self.table.message_is_error:
                assert snapshot(self.table) == before, message

        @rule(data=st.data())
        def click_a_legal_action(self, data: st.DataObject) -> None:
            engine = self.table.engine
            if engine is None or engine.is_over:
                return
            action = data.draw(st.sampled_from(engine.legal_actions()), label="action")
            self._step(lambda: self.table.act(action))

        @rule(action=st.sampled_from(NONSENSE_ACTIONS))
        def click_anything(self, action: str) -> None:
            self._step(lambda: self.table.act(action))

        @rule(data=st.data())
        def play_on(self, data: st.DataObject) -> None:
            """A second legal-click rule: play is most of what happens at a table."""
            self.click_a_legal_action(data)

        @rule(data=st.data(), change=st.sampled_from(
            ("new game", "seed", "coach", "seats", "options", "objective")))
        def change_the_setup(self, data: st.DataObject, change: str) -> None:
            """New game, a seed, the coach switch, the seats or the rule options (presets and a
            bad one): every one of them may start a new game, so they share one rule."""
            table = self.table
            if change == "new game":
                self._step(table.new_game)
            elif change == "seed":
                seed = data.draw(st.integers(0, 10_000), label="seed")
                self._step(lambda: setattr(table, "seed", seed))
            elif change == "coach":
                coach = data.draw(st.sampled_from(("off", "after", "always")), label="coach")
                self._step(lambda: setattr(table, "coach", coach))
            elif change == "objective":
                if hasattr(table, "objective"):
                    aim = data.draw(st.sampled_from(("points", "win")), label="objective")
                    self._step(lambda: setattr(table, "objective", aim))
            elif change == "seats":
                seats = data.draw(st.sampled_from(SEAT_CHOICES), label="seats")
                self._step(lambda: setattr(table, "seats", seats))
            else:
                choice = data.draw(st.sampled_from([*sorted(spec.presets), "bad"]),
                                   label="options")
                options = ({"no_such_option": 1} if choice == "bad"
                           else dict(spec.presets[choice].options()))
                self._step(lambda: setattr(table, "options", options))

        @invariant()
        def deck_is_conserved(self) -> None:
            engine = self.table.engine
            if engine is None or spec.deck is None:
                return
            where = engine.card_locations()
            if where is None:
                return
            held = Counter(card for cards in where.values() for card in cards)
            assert held == Counter(spec.deck(engine.variant)), {
                "missing": Counter(spec.deck(engine.variant)) - held,
                "extra": held - Counter(spec.deck(engine.variant))}

        def _solver(self, model: Any, *, exact: bool) -> TurnSolver[Any]:
            """This test's own solver for ``model``: exact within the default budget, or the
            float recursion (no level arrays) without a budget."""
            key = (model, exact)
            if key not in self.solvers:
                self.solvers[key] = (TurnSolver(model, exact=True) if exact else
                                     TurnSolver(model, max_states=None, levels=False))
            return self.solvers[key]

        @invariant()
        def coach_shows_the_solvers_numbers(self) -> None:
            table = self.table
            engine = table.engine
            if (engine is None or engine.is_over or table.coach != "always"
                    or table.seats[engine.current_player] != "human"):
                return
            model, state = page_position(table)
            if not model.actions(state):
                return
            exact = self._solver(model, exact=True)
            assert table.panel.p_bust_exact == fraction_text(exact.p_bust_next(state), "n/a")
            if getattr(table, "objective", "points") != "points":
                return  # the chart shows chances to win (checked against pushluck solve elsewhere)
            choice = table.panel.fig_choice.data[0]
            values = dict(zip(choice.x, choice.y, strict=True))
            expected = None
            if model not in self.over_budget_models:
                try:
                    expected = float(Fraction(exact.value(state)))
                except TooManyStates:  # a solve that outgrew the budget: not tried again
                    self.over_budget_models.add(model)
            if expected is None:  # a multi-explorer temple round over the exact budget (the
                # page solves it level by level in float arrays): checked against the plain
                # float recursion, another algorithm, without a budget (about 10x cheaper
                # than fractions over a million states), up to the run's budget of such checks
                if self.over_budget_left is not None:
                    if self.over_budget_left <= 0:
                        return
                    self.over_budget_left -= 1
                expected = self._solver(model, exact=False).value(state)
            assert values["optimal play"] == pytest.approx(expected, rel=1e-9, abs=1e-12)

    TableMachine.__name__ = f"TableMachine_{spec.name.replace('-', '_')}"
    return TableMachine


GAMES = turn_games()


def run_machine(spec: GameSpec, examples: int, steps: int,
                over_budget_checks: int | None = OVER_BUDGET_CHECKS,
                distribution_states: int | None = None) -> None:
    machine = machine_for(spec, over_budget_checks, distribution_states)
    machine.TestCase.settings = settings(
        max_examples=examples, stateful_step_count=steps, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    machine.TestCase().runTest()


@pytest.mark.parametrize("spec", [s for s in GAMES if s.name not in HEAVY],
                         ids=[s.name for s in GAMES if s.name not in HEAVY])
def test_random_clicks_on_a_light_table(spec: GameSpec) -> None:
    run_machine(spec, examples=4, steps=20)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [s for s in GAMES if s.name in HEAVY],
                         ids=[s.name for s in GAMES if s.name in HEAVY])
def test_random_clicks_on_a_heavy_table(spec: GameSpec) -> None:
    run_machine(spec, examples=2, steps=12, distribution_states=HEAVY_DISTRIBUTION_STATES)


@pytest.mark.soak
@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_random_clicks_soak(spec: GameSpec) -> None:
    """Many longer click sequences on every table, every over-budget value checked."""
    run_machine(spec, examples=25, steps=40, over_budget_checks=None)
