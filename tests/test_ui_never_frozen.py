"""Never frozen: a click shows the cheap numbers at once, a long computation runs in
the worker with a progress bar while the table stays usable, a newer click cancels it (the
solver stops at its next checkpoint, freeing the thread), and a position over the solver's
budget shows the cheap numbers and the refusal."""

from __future__ import annotations

import re
import time
from fractions import Fraction

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.numbers import fraction_text
from pushluck_teach.solve.turn import (
    Cancelled,
    TurnSolver,
    cached_solver,
    clear_solver_cache,
    watching,
)
from pushluck_teach.ui.analysis import AnalysisPanel
from pushluck_teach.ui.table import GameTable


def test_a_cancelled_solve_keeps_a_consistent_memo_and_resumes() -> None:
    """A checkpoint that raises stops the solve; finishing it later gives exactly the answer
    of an uninterrupted solve (only finished states are stored)."""
    spec = get_game("lands-uncharted")
    model, state = spec.position(spec.variant_cls())  # 15,395 states
    calls: list[int] = []

    def stop_at_the_third(solved: int) -> None:
        calls.append(solved)
        if len(calls) == 3:
            raise Cancelled("enough")

    solver = TurnSolver(model, exact=True)
    with pytest.raises(Cancelled), watching(stop_at_the_third):
        solver.analyse(state)
    assert calls == [4096, 8192, 12288] and solver.states_solved() == 12288
    assert solver.analyse(state) == TurnSolver(model, exact=True).analyse(state)


def test_a_long_computation_leaves_the_table_usable_and_a_newer_click_supersedes_it() -> None:
    """The panel is asked about Incan Gold's round-5 start (618,135 states, seconds of work);
    meanwhile the table's buttons still play, and the click's new position cancels it."""
    table = GameTable("incan-gold", seats=("human",), seed=5)
    panel = table.panel
    panel.wait()  # the opening position's work done: the worker is free for the next job
    clear_solver_cache()  # a cold solver
    spec = get_game("incan-gold")
    model, state = spec.position(spec.variant_cls(), round=5)
    panel.show(model, state)
    # the cheap numbers are there at once, the values are being computed in the worker
    assert panel.computing and panel.progress_box.layout.display == "flex"
    assert "takes a while to work out — computing…" in panel.headline.value
    # ... and the panel says its numbers are not final yet (a reader and the page checks wait)
    assert "pushluck-pending" in panel.text_choice.value
    # a round's first card never springs a trap (no trap is out yet): counted by hand, 0
    assert panel.p_bust_exact == fraction_text(Fraction(0))
    first = panel._task.future
    assert first is not None and not first.done()
    # the table stays usable: a click plays the move while the worker computes
    log_before = len(table.engine.log)
    table.action_buttons["draw"].click()
    assert not table.message_is_error, table.message
    assert len(table.engine.log) > log_before
    # the newer position supersedes the stale computation: it stops (Cancelled), fast
    assert isinstance(first.exception(timeout=30), Cancelled)
    assert cached_solver(model, False).states_solved() < 618_135  # it did not run to the end
    panel.wait(120)
    assert not panel.computing and panel.progress_box.layout.display == "none"
    model, state = table.engine.turn_position()
    if model.actions(state):
        analysis = cached_solver(model, False).analyse(state)
        best = table.engine.action_label(analysis.best_action)
        assert f"Recommended: <strong>{best}</strong>" in panel.headline.value


def test_a_position_over_the_budget_shows_the_cheap_numbers_and_the_refusal() -> None:
    spec = get_game("incan-gold")  # seven low thresholds, the largest deck: refused
    model, state = spec.position(spec.variant_cls(), round=5, removed="5s 9s Ks 2s",
                                 drawn="Ad", others="1,2,3,4,5,6,7")
    panel = AnalysisPanel()
    numbers = panel.show(model, state)
    # plain words on the page (the command keeps the state counts and the budget)
    assert "too many ways to work out here" in numbers.pending
    assert "too many ways to work out here" in panel.headline.value
    assert "states" not in panel.headline.value and "budget" not in panel.headline.value
    # a refusal is final: not marked as numbers still being worked out
    assert "too many ways" in panel.text_choice.value
    assert "pushluck-pending" not in panel.text_choice.value
    # the coach still recommends a legal action: stopping now against one more card
    assert panel.recommended in model.actions(state)
    assert "Recommended by a quick guide" in panel.headline.value
    # only a treasure (the ♦A) is out this round: no trap can spring on the next flip
    assert numbers.p_bust == 0 and panel.p_bust_exact == fraction_text(Fraction(0))
    assert len(panel.fig_next.data[0].y) + len(panel.fig_next.data[1].y) == len(numbers.outcomes)
    assert not panel.computing
    panel.close()


@pytest.mark.slow
def test_a_relic_turn_after_two_cards_is_solved_in_the_worker_with_a_growing_bar() -> None:
    """A jack relic after a 5 and a 9 (about 1.9 million stored states, seconds of work;
    positions to the first card ship): the cheap numbers at once, then a bar that only grows,
    sized by what the level solve stores, and the values of a separate solver."""
    clear_solver_cache()
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(relics=True), relic="J", drawn="5h 9h")
    panel = AnalysisPanel()
    panel.show(model, state)
    assert panel.computing and panel.progress_box.layout.display == "flex"
    # by hand: 51 cards left (54, minus the 5 and the 9, minus the held jack); the catchers
    # are four 7s, two jokers and four 3s (14 + 3 = 17): 10 of 51.  The jack then throws the
    # catcher away and draws again from 50, of which 9 catch: 10/51 x 9/50 = 3/85.
    assert panel.p_bust_exact == fraction_text(Fraction(10, 51) * Fraction(9, 50)) == "3/85"
    seen: list[float] = []
    texts: set[str] = set()
    future = panel._task.future
    assert future is not None
    while not future.done():
        seen.append(panel.progress.value)
        texts.add(panel.progress_text.value)
        time.sleep(0.2)
    panel.wait(120)
    assert seen == sorted(seen) and len(set(seen)) > 3  # it moved, never backwards
    estimate = TurnSolver(model).estimated_states(state)
    # the bar's text in plain words: the share of the estimate done, no state counts
    shown = [text for text in texts if "takes a while to work out" in text]
    assert shown and all("states" not in text and f"{estimate:,}" not in text for text in texts)
    shares = [int(m.group(1)) for text in shown for m in [re.search(r"(\d+) %", text)] if m]
    assert shares and max(shares) > 0 and all(0 <= share <= 99 for share in shares)
    solved = cached_solver(model, False).states_solved()
    assert estimate / 2 < solved < 2 * estimate
    assert not panel.computing and panel.progress_box.layout.display == "none"
    expected = TurnSolver(model, shipped=False).analyse(state)
    assert f'data-ev-optimal="{expected.ev_optimal!r}"' in panel.headline.value
    assert "Recommended: <strong>" in panel.headline.value
    panel.close()


@pytest.mark.parametrize("relic", ["J", "Q"])
def test_a_relic_turn_start_shows_its_shipped_value_at_once(relic: str) -> None:
    """The jack's and the queen's turn starts are answered from the shipped start values
    (their turns, 12.4 and 2.06 million stored states, are not solved at the click): the
    shipped value on the click path (above the no-relic start's), the best action, and the
    distribution chart left for a later position with a note (both refused up front: their
    walks would take minutes)."""
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(relics=True), relic=relic)
    # A click budget a loaded machine keeps; what shows the value is read from the shipped
    # table, not solved: the click's solver stores next to nothing beyond the seeded states.
    panel = AnalysisPanel(click_budget_ms=3000)
    numbers = panel.show(model, state)
    assert not numbers.pending  # not left to the worker
    floats = cached_solver(model, False)
    assert floats.states_seeded() > 0
    assert floats.states_solved() - floats.states_seeded() < 50_000
    panel.wait(60)
    # the shipped start value (a solve from scratch gives the same: the slow test below);
    # a relic only adds choices, so the value is above the no-relic turn start's
    expected = TurnSolver(model).analyse(state)
    assert f'data-ev-optimal="{expected.ev_optimal!r}"' in panel.headline.value
    plain_model, plain_state = spec.position(spec.variant_cls())
    assert expected.ev_optimal > TurnSolver(plain_model).analyse(plain_state).ev_optimal
    assert "Recommended: <strong>" in panel.headline.value
    assert "not drawn here" in panel.text_dist.value  # refused up front, in plain words
    assert "states" not in panel.text_dist.value
    assert not panel.computing
    panel.close()


@pytest.mark.slow
def test_the_queen_s_shipped_start_value_is_what_a_solve_from_scratch_gives() -> None:
    """The shipped file against a solve that does not read it (about 30 s)."""
    spec = get_game("captain-seven")
    model, state = spec.position(spec.variant_cls(relics=True), relic="Q")
    shipped = TurnSolver(model).analyse(state)
    scratch = TurnSolver(model, shipped=False).analyse(state)
    assert shipped.ev_optimal == pytest.approx(scratch.ev_optimal, abs=1e-12)
    assert shipped.best_action == scratch.best_action
