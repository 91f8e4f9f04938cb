"""The classroom at the table: the coach's objective, the command that reproduces the page, the dead
ends.  Expected values come from the rules (hand reasoning stated in each test), not from the
functions the page calls."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import shlex
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


def pasted_command(page_html: str) -> list[str]:
    """The words a shell reads from the page's command (as a student pastes it)."""
    code = re.search(r'<code class="pushluck-cli"[^>]*>(.*?)</code>', page_html).group(1)
    return shlex.split(html.unescape(code))


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
    words = pasted_command(table.cli_html.value)
    assert words[words.index("--ace-values") + 1] == flags["ace_values"]
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


@pytest.mark.slow  # `pushluck odds` solves a group round exactly
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
    sides.value = "8"
    assert table.engine is engine and engine.log == log  # not ended yet
    assert table.option_confirm.layout.display == "flex"
    assert "ends the game in progress" in table.option_confirm_text.value
    table.option_cancel_button.click()
    assert table.engine is engine and table.variant.die_sides == 6 and sides.value == "6"
    sides.value = "8"
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
    words = pasted_command(table.cli_html.value)
    assert words[words.index("--drawn") + 1] == "5h 9s"
    assert not any(not b.disabled for b in table.action_buttons.values())  # the game waits
    table.setup_position({"drawn": "5h 5h"})  # bad input: a message, the set-up unchanged
    assert table.message_is_error and table.panel.p_bust_exact == "3/25"
    table.setup_back_button.click()
    assert table.engine is engine and "Set-up position" not in table.status_html.value
    pig = GameTable("pig", seats=("human", "optimal"), options={"target": 10},
                    background=False, objective="points")
    pig.setup_position({"drawn": "6 6"})
    assert pig.panel.recommended == "stop"  # 12 reaches the target of 10: hold


# ---- the coach tells the truth in plain words ------------------------------------------------

def _text(html: str) -> str:
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def king_decision_table() -> GameTable:
    """Captain Seven, seed 1, relics on, Player 1 (human) against the optimal bot: draw
    9♠ J♦ K♣, stash keeping K♣; the bot's first card 3♠ opens Player 1's king decision."""
    table = GameTable("captain-seven", seats=("human", "optimal"), seed=1,
                      options={"relics": True}, background=False)
    for action in ("draw", "draw", "draw", "keep:Kc"):
        table.action_buttons[action].click()
    assert table.engine.legal_actions() == ("pass", "king")
    return table


def test_the_king_relic_decision_names_whose_turn_it_is_and_recommends_a_legal_action() -> None:
    table = king_decision_table()
    status = _text(table.status_html.value)
    assert "Player 1 to decide, during Player 2's turn" in status
    assert "Player 2's turn total: 3" in status and "3♠" in status
    headline = _text(table.panel.headline.value)
    assert "Player 1 decides during Player 2's turn: Player 2 drew 3♠" in headline
    # only Pass and the king can be clicked; the coach recommends one of them
    clickable = {a for a, b in table.action_buttons.items() if not b.disabled}
    assert clickable == {"pass", "king"}
    assert table.panel.recommended in clickable
    # Independent values, from the command's positions (flags, not the engine's state): Player
    # 2's turn after a first 3♠ (pass) against a first card drawn again (the king), with
    # Player 1's K♣ out of the deck; the coach leaves the drawer the smaller expected result.
    spec = get_game("captain-seven")
    variant = spec.variant({"relics": True})
    model, after_pass = spec.position_from_flags(variant, {"drawn": "3s", "removed": "Kc"})
    _, redraw = spec.position_from_flags(variant, {"removed": "Kc"})
    solver = TurnSolver(model, shipped=False)
    pass_value, king_value = solver.value(after_pass), solver.value(redraw)
    best = "pass" if pass_value <= king_value else "king"
    assert table.panel.recommended == best
    assert f"Recommended: {table.engine.action_label(best)}" in headline
    assert "Recommended: Draw" not in headline and "Recommended: Stash" not in headline


def test_after_you_decide_at_the_king_decision_judges_that_choice() -> None:
    table = king_decision_table()
    table.coach = "after"
    table.action_buttons["pass"].click()
    headline = _text(table.panel.headline.value)
    assert "Player 1 chose Pass" in headline and "Player 2's turn" in headline


def test_a_card_the_jack_would_discard_is_a_redraw_not_a_gain_nor_a_bust() -> None:
    """After 5♥ with the jack relic unspent: 2 (total 7), 7 and joker catch you, but the jack
    discards that card and you draw again, so none is a bust; the bust chance is that of the
    redraw after one.  By hand: 52 cards left (54 - 5♥ - the jack); 4 twos + 4 sevens + 2
    jokers = 10 catch; after discarding one of them 51 cards hold 9 catching cards, and the
    jack is spent: P(bust) = 10/52 * 9/51 = 15/442."""
    from pushluck_teach.ui.analysis import AnalysisPanel

    spec = get_game("captain-seven")
    model, state = spec.position_from_flags(spec.variant({"relics": True}),
                                            {"drawn": "5h", "relic": "J"})
    panel = AnalysisPanel(background=False)
    numbers = panel.show(model, state)
    assert numbers.p_bust == Fraction(10, 52) * Fraction(9, 51) == Fraction(15, 442)
    redraws = [o for o in numbers.outcomes if "jack redraws" in o.label]
    assert sorted(o.label.split(":")[0] for o in redraws) == ["2", "7", "joker"]
    assert sum(o.probability for o in redraws) == Fraction(10, 52)
    assert not any("(caught)" in o.label for o in numbers.outcomes)
    busted_bars, safe_bars = panel.fig_next.data  # bust colour: only a real bust
    assert not busted_bars.x and all(o.label in safe_bars.x for o in redraws)
    rows = _text(panel.text_next.value)
    assert "2: jack redraws no gain" in rows and "7: jack redraws no gain" in rows
    panel.close()


def test_draw_once_then_stop_is_not_offered_where_stopping_is_not_allowed() -> None:
    """Hit List: a job of 5 (2♥ 3♦) cannot be executed below 15, so "draw once, then stop"
    is impossible; Pig can always hold after a roll that is not a 1."""
    from pushluck_teach.ui.analysis import analyse_position

    spec = get_game("hit-list")
    model, state = spec.position_from_flags(spec.variant({}), {"drawn": "2h 3d"})
    labels = [c.label for c in analyse_position(model, state, threshold=15,
                                                distributions=False).choices]
    assert "Draw, then stop as soon as allowed" in labels
    assert not any("once, then stop" in label for label in labels)
    pig = get_game("pig")
    model, state = pig.position_from_flags(pig.variant({}), {"drawn": "3 4"})
    labels = [c.label for c in analyse_position(model, state, threshold=20,
                                                distributions=False).choices]
    assert "Draw once, then stop" in labels


def test_after_you_decide_shows_no_empty_charts_before_the_first_decision() -> None:
    table = GameTable("pig", seats=("human", "optimal"), seed=3, coach="after",
                      background=False)
    assert table.panel.grid_box.layout.display == "none"
    assert table.panel.details_toggle.layout.display == "none"
    assert "decide first" in table.panel.headline.value
    table.act("draw")
    assert table.panel.grid_box.layout.display == "flex"


def test_chances_to_win_show_the_digits_that_separate_them() -> None:
    from pushluck_teach.ui.analysis import separating_percents

    assert separating_percents([82.8125, 82.84]) == ["82.81 %", "82.84 %"]
    assert separating_percents([82.81251, 82.81249]) == ["82.813 %", "82.812 %"]
    assert separating_percents([50.0, 100 / 3]) == ["50 %", "33.3 %"]
    assert separating_percents([None, 40.0]) == ["n/a", "40 %"]


def test_refusals_and_progress_read_in_plain_words() -> None:
    from pushluck_teach.solve.turn import TooManyStates
    from pushluck_teach.ui.analysis import plain_words

    refusal = TooManyStates("this position needs about 12,500,000 solver states (the budget "
                            "is 5,000,000): ask later, or solve without the budget "
                            "(TurnSolver(model, max_states=None))")
    text = plain_words(refusal)
    for jargon in ("states", "budget", "TurnSolver", "max_states", "solver"):
        assert jargon not in text
    assert plain_words(RuntimeError("the turn is over")) == "The turn is over."


def test_the_result_chart_answers_at_an_incan_gold_round_start() -> None:
    """One explorer at a round start: about 49,000 positions under optimal play, once over the
    live chart's old limit; the chart now lists the results, whose probabilities sum to 1."""
    table = GameTable("incan-gold", seats=("human",), seed=2, background=False)
    dist = table.panel.fig_dist.data[0]
    assert dist.x and abs(sum(dist.y) - 1) < 1e-9
    assert "not drawn" not in table.panel.text_dist.value


def test_a_failed_result_chart_never_stays_on_working_out(monkeypatch) -> None:
    from pushluck_teach.ui import analysis

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(analysis, "turn_distributions", broken)
    table = GameTable("pig", seats=("human",), seed=2)
    table.act("draw")
    table.panel.wait(30)
    text = table.panel.text_dist.value
    assert "could not be drawn" in text and "Working out" not in text
    assert "RuntimeError" not in text and "boom" not in text
    table.panel.close()


def test_a_newer_position_stops_the_result_chart_of_the_last_one() -> None:
    """Captain Seven's turn start (its chart takes seconds) is superseded by the next card:
    the walk stops, the worker is free, and the newer chart is drawn."""
    from pushluck_teach.solve.turn import clear_solver_cache

    clear_solver_cache()
    table = GameTable("captain-seven", seats=("human",), seed=4)
    first = table.panel._task.future
    table.act("draw")
    table.act("draw")
    table.panel.wait(60)
    assert first is not None and first.done()
    text = table.panel.text_dist.value
    assert "Working out" not in text and "follows" not in text
    table.panel.close()


def test_expected_values_that_differ_never_read_the_same() -> None:
    from pushluck_teach.ui.figures import ChoiceBar, choice_html

    html = choice_html([ChoiceBar("stop", "stop now (Hold)", 8.33331),
                        ChoiceBar("optimal", "optimal play", 8.33349)], "Roll", exact=False)
    assert "8.3333" in html and "8.3335" in html
    html = choice_html([ChoiceBar("stop", "stop now (Hold)", Fraction(25, 3)),
                        ChoiceBar("optimal", "optimal play", Fraction(9))], "Hold")
    assert "8.333 (= 25/3)" in html and ">9<" in html


def test_the_king_decision_still_recommends_while_its_values_are_refused(monkeypatch) -> None:
    """If Player 2's turn were too large to work out, a quick guide decides: after Pass,
    Player 2 can stash the 3♠ at once (3); after the king, a new first card from 53 cards (K♣
    is out) stashed at once is worth (4*(1+2+3+4+5+6+8+9) + 4*7 + 15*10 + 2*0)/53 = 330/53,
    about 6.2: Pass leaves the turn worth less."""
    from pushluck_teach.solve.turn import TooManyStates

    table = king_decision_table()

    def refused(*_args, **_kwargs):
        raise TooManyStates("this position needs about 9,999,999 solver states")

    monkeypatch.setattr(table.panel, "_analyse", refused)
    table._refresh()
    headline = _text(table.panel.headline.value)
    assert table.panel.recommended == "pass"
    assert "Recommended by a quick guide" in headline and "Pass" in headline
    assert "states" not in headline and "solver" not in headline
