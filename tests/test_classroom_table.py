"""Issue 13 at the table: the coach's objective, the command that reproduces the page, the dead
ends.  Expected values come from the rules (hand reasoning stated in each test), not from the
functions the page calls."""

from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction

import pytest

from pushluck_teach.cli import main
from pushluck_teach.games.base import get_game
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui.table import GameTable


def run_cli(*args: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def pig_table_at_total(target: int, at_least: int) -> GameTable:
    """Two humans at Pig to ``target``; the first player rolls (seeds tried in order) until the
    turn total reaches ``at_least`` without a 1.  Which seed is used does not matter."""
    table = GameTable("pig", seats=("human", "human"), options={"target": target},
                      background=False)
    for seed in range(1, 200):
        table.seed = seed
        while table.engine.turn_total < at_least and table.engine.current_player == 0:
            table.act("draw")
        if table.engine.current_player == 0 and table.engine.turn_total >= at_least:
            return table
    raise AssertionError("no seed reached the total")  # pragma: no cover


def test_pig_to_10_at_12_win_coach_says_hold():
    table = pig_table_at_total(10, 10)
    assert table.objective == "win"
    assert table.objective_toggle.layout.display == "flex"  # the switch is offered
    assert table.panel.objective_shown == "win"
    assert table.panel.recommended == "stop"
    headline = table.panel.headline.value
    assert "Recommended for the best chance to win: <strong>Hold</strong>" in headline
    # Holding reaches the target: a certain win.  Rolling: five faces of six also reach it
    # (hold next and win); a 1 hands a 0-0 game to the opponent, who wins it with some chance
    # strictly between 0 and 1.  So 5/6 < P(win | roll) < 5/6 + 1/6.
    assert "Hold now: 100 %" in headline
    roll = float(headline.split("Roll, then play to win: ")[1].split(" %")[0]) / 100
    assert 5 / 6 < roll < 1
    code = table.cli_html.value
    assert "--objective win" in code and "data-objective=\"win\"" in code
    assert "Chance to win (%)" in table.panel.fig_choice.layout.title.text


def test_pig_points_coach_never_counts_points_past_the_target():
    table = pig_table_at_total(10, 10)
    table.objective = "points"
    assert table.panel.objective_shown == "points"
    assert table.panel.recommended == "stop"
    # Hold banks min(total, 10 - 0) = 10, the most the turn can be worth: rolling can only lose.
    assert "optimal play: 10." in table.panel.headline.value
    assert "points past the target are worth nothing" in table.objective_note.value
    assert "--objective" not in table.cli_html.value


def test_pig_turn_value_is_capped_at_the_points_still_needed():
    spec = get_game("pig")
    variant = spec.variant({"die_sides": 20})
    model, state = spec.position(variant, drawn="17 12", score=80)
    analysis = TurnSolver(model, exact=True).analyse(state)
    # 80 banked, 20 needed: the turn (29 so far) is worth min(29, 20) = 20 whatever happens
    # next, so holding is best and nothing more can be gained (uncapped, a d20 turn is worth
    # far more than 20 on average from 29).
    assert analysis.ev_stop == 20 and analysis.ev_optimal == 20
    assert analysis.best_action == "stop"
    model, state = spec.position(spec.variant(), drawn="2 3", score=95)
    analysis = TurnSolver(model, exact=True).analyse(state)
    assert analysis.ev_stop == 5 and analysis.ev_optimal == 5 and analysis.best_action == "stop"


def test_captain_seven_win_and_points_objectives_disagree_on_a_final_turn():
    # The opponent has stashed 100 (the final round); we hold 90 and have drawn K A = 11.
    # Stashing makes 101 > 100: a certain win.  For the turn's points, 11 is early: draw on.
    win = run_cli("odds", "captain-seven", "--drawn", "Kh Ah", "--score", "90", "--opponent",
                  "100", "--objective", "win", "--json")
    assert win["best_action"] == "stop" and win["p_win_stop"] == pytest.approx(1.0)
    assert win["p_win_draw"] < 1.0
    points = run_cli("odds", "captain-seven", "--drawn", "Kh Ah", "--json")
    assert points["best_action"] == "draw"


def test_pig_win_command_matches_the_rules_at_the_target():
    answer = run_cli("odds", "pig", "--drawn", "6 6", "--option", "target=10", "--objective",
                     "win", "--json")
    assert answer["p_win_stop"] == 1.0 and answer["best_action"] == "stop"
    assert Fraction(5, 6) < Fraction(answer["p_win_draw"]) < 1


def test_a_finished_game_shows_no_empty_charts_and_no_n_a():
    table = GameTable("pig", seats=("threshold:20", "threshold:25"), background=False)
    assert table.engine.is_over  # bots only: the game is played out at once
    headline = table.panel.headline.value
    assert "n/a" not in headline.replace('data-exact="n/a"', "")
    assert "press New game" in headline
    assert table.panel.grid.layout.display == "none"  # no empty charts
    table.seats = ("human", "threshold:25")
    assert table.panel.grid.layout.display == "flex"  # a decision: the charts are back


def test_hit_list_pending_ace_command_reproduces_the_page():
    table = GameTable("hit-list", seats=("human", "human"), background=False,
                      objective="points")
    for seed in range(1, 300):
        table.seed = seed
        for _ in range(6):
            engine = table.engine
            if engine.pending_ace or engine.is_over or "draw" not in engine.legal_actions():
                break
            table.act("draw")
        if table.engine.pending_ace:
            break
    engine = table.engine
    assert engine.pending_ace
    flags = engine.position_flags()
    assert flags["ace_values"].endswith("?")
    assert f'--ace-values &quot;{flags["ace_values"]}&quot;' in table.cli_html.value
    args = ["odds", "hit-list"]
    for key, value in flags.items():
        args += [f"--{key.replace('_', '-')}", value]
    answer = run_cli(*args, "--json", "--exact")
    # the page recommends the same ace value, with the same optimal value, as the command
    assert answer["best_action"] == table.panel.recommended
    assert answer["best_action"] in ("ace:1", "ace:11")
    assert table.engine.action_label(answer["best_action"]) in table.panel.headline.value
    model, state = engine.turn_position()
    page_optimal = TurnSolver(model, exact=True).analyse(state).ev_optimal
    assert Fraction(answer["ev_optimal_exact"]) == page_optimal


@pytest.mark.slow  # ~55 s: `pushluck odds` solves a group round exactly
def test_incan_gold_page_and_command_describe_the_same_explorers():
    table = GameTable("incan-gold", seats=("human", "threshold:8", "cautious"),
                      background=False, objective="points")
    for seed in range(1, 300):
        table.seed = seed
        if table.engine.legal_actions() == ("draw",):
            table.act("draw")  # flip the first card
        if table.engine.others_in_turn() and not table.engine.is_over:
            break
    engine = table.engine
    flags, model, state = table._position(engine)  # noqa: SLF001 - what the page analyses
    assert flags["others"] == "8,10"  # threshold:8 and cautious (threshold 10), from the seats
    assert {"carried", "path", "artifacts", "drawn"} <= set(flags)
    assert "leaves once carrying 8" in table.objective_note.value
    args = ["odds", "incan-gold"]
    for key, value in flags.items():
        args += [f"--{key.replace('_', '-')}", value]
    answer = run_cli(*args, "--json")  # floats: an exact solve of a group round takes a minute
    page = TurnSolver(model, exact=False).analyse(state)
    assert answer["ev_optimal"] == pytest.approx(float(page.ev_optimal), rel=1e-12)
    assert answer["best_action"] == table.panel.recommended
    # Leaving now banks what the decider carries plus its share of the path: the others at
    # their thresholds decide at the same moment.  Here nobody carries 8 yet after one card
    # unless the card was rich, so check the stated rule directly.
    carried, path = int(flags["carried"]), int(flags["path"])
    leavers = 1 + sum(carried >= t for t in (8, 10))
    assert answer["ev_stop"] == carried + path // leavers + (
        int(flags["artifacts"]) if leavers == 1 else 0)
    # the page no longer treats the decider as alone
    solo = run_cli(*[a for a in args if a not in ("--others", flags["others"])], "--json")
    assert solo["ev_optimal"] != pytest.approx(float(page.ev_optimal))


def test_lands_uncharted_solo_with_two_seats_is_never_a_dead_end():
    table = GameTable("lands-uncharted", seats=("human", "optimal"), coach="off")
    table.options = {**table.options, "solo": True}
    # Solo is one player (rules): the table fits the seats and says so; a game is running.
    assert table.engine is not None and not table.message_is_error
    assert table.engine.players == 1 and len(table.seats) == 1
    assert "seats changed from 2 to 1" in table.message
    assert "No game running" not in table.status_html.value
    table.options = {**table.options, "solo": False}
    assert table.engine is not None and table.variant.solo is False


def test_numbers_are_written_for_people():
    from pushluck_teach.ui import figures as F
    from pushluck_teach.ui.analysis import percent_text

    assert F.probability_text(Fraction(0)) == "0 (impossible)"
    assert F.probability_text(Fraction(1)) == "1 (certain)"
    assert F.value_text(15.0) == "15" and F.short_value(10.0) == "10"
    assert F.value_text(Fraction(453, 50)) == "9.060 (= 453/50)"
    assert percent_text(100.0) == "100 %" and percent_text(88.176) == "88.2 %"


def test_the_command_is_labelled_for_a_terminal_with_a_copy_button():
    table = GameTable("lands-uncharted", seats=("human",), background=False)
    table.act("draw")
    html = table.cli_html.value
    assert "Command for a terminal" in html
    assert 'class="pushluck-copy"' in html and "navigator.clipboard" in html
    assert 'class="pushluck-cli"' in html  # the hook the browser test reads


def test_options_show_their_names_help_and_range_and_ask_before_ending_a_game():
    table = GameTable("pig", seats=("human", "optimal"), background=False)
    sides = table._option_widgets["die_sides"]  # noqa: SLF001
    assert sides.description == "Die sides"  # the human name, not die_sides
    helps = [row.children[1].value for row in table.option_box.children[1:]]
    assert any("Allowed: 2-20" in text for text in helps)
    table.act("draw")  # a game in progress
    engine = table.engine
    log = list(engine.log)
    sides.value = 8
    assert table.engine is engine and engine.log == log  # not ended yet
    assert table.option_confirm.layout.display == "flex"
    assert "ends the game in progress" in table.option_confirm_text.value
    table.option_cancel_button.click()
    assert table.engine is engine and table.variant.die_sides == 6 and sides.value == 6
    sides.value = 8
    table.option_apply_button.click()
    assert table.engine is not engine and table.variant.die_sides == 8
    assert table.option_confirm.layout.display == "none"


def test_set_up_a_position_with_the_command_syntax():
    table = GameTable("lands-uncharted", seats=("human",), background=False)
    engine = table.engine
    table.setup_position({"drawn": "5h 9s"})
    assert not table.message_is_error, table.message
    # three 5s and three 9s of the 50 cards left bust you (a first threat and an ally do not)
    assert table.panel.p_bust_exact == "3/25"
    assert '--drawn &quot;5h 9s&quot;' in table.cli_html.value
    assert not any(not b.disabled for b in table.action_buttons.values())  # the game waits
    table.setup_position({"drawn": "5h 5h"})  # bad input: a message, the set-up unchanged
    assert table.message_is_error and table.panel.p_bust_exact == "3/25"
    table.setup_back_button.click()
    assert table.engine is engine and "Set-up position" not in table.status_html.value
    pig = GameTable("pig", seats=("human", "optimal"), options={"target": 10},
                    background=False, objective="points")
    pig.setup_position({"drawn": "6 6"})
    assert pig.panel.recommended == "stop"  # 12 reaches the target of 10: hold
