"""The variant lab's widgets: build through the form, play, compare, sweep, links."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from pushluck_teach.games.base import RulesError
from pushluck_teach.games.custom import (
    BUILT_GAMES,
    HIT_LIST_RULES,
    PIG_RULES,
    RuleSet,
    custom_position,
)
from pushluck_teach.games.rules_format import rules_to_token
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui.variant_lab import RuleSetForm, SideBySide, SweepPanel, VariantLab


def _pig_reach(threshold: int) -> Fraction:
    reach = {t: Fraction(1) for t in range(threshold, threshold + 7)}
    for t in range(threshold - 1, -1, -1):
        reach[t] = sum((reach[t + k] for k in range(2, 7)), Fraction(0)) / 6
    return reach[0]


def test_build_a_game_through_the_form_and_play_a_turn() -> None:
    """Kings of hearts: two decks of A 2 3 K of hearts (8 cards), a second king busts, no total
    limit. Built by setting the form's controls; the table's first decision is checked against
    a hand count: with a king in the haul the next card busts with chance (kings left) /
    (cards left), else never."""
    lab = VariantLab(compare_game="pig", background=False)
    form = lab.form
    form.name.value = "Kings of hearts"
    form.decks.value = "2"
    form.remove_suits.value = ("s", "d", "c")
    form.remove_ranks.value = ("4", "5", "6", "7", "8", "9", "T", "J", "Q")
    form.bust_over.value = ""
    form.add_rule.click()  # the new row: the 2nd king busts
    assert form.message == "", form.status.value
    assert form.rules.name == "Kings of hearts"
    assert len(form.rules.deck_cards()) == 8
    assert "states from the turn start" in form.status.value
    form.play_button.click()
    table = lab.table
    assert table is not None and table.variant == form.rules
    table.seats = ("human",)
    table._buttons["draw"].click()
    engine = table.engine
    drawn = engine.view().turn_cards
    assert len(drawn) == 1
    kings_held = sum(card.rank == "K" for card in drawn)
    kings_left = 2 - kings_held
    expected = Fraction(kings_left, 7) if kings_held else Fraction(0)
    assert Fraction(table.panel.p_bust_exact) == expected


def test_a_game_too_large_is_refused_before_solving() -> None:
    form = RuleSetForm()
    form.bust_over.value = ""  # no bust rule at all: the whole deck could be drawn
    assert form.message and "too large to solve on the page" in form.message
    assert form.play_button.disabled


def test_a_bad_control_value_is_a_message_and_the_last_game_stays() -> None:
    form = RuleSetForm(PIG_RULES)
    form.bonus_total.value = "twelve"
    assert "bonus_total" in form.message
    assert form.rules == PIG_RULES
    form.bonus_total.value = "12"
    assert form.message == "" and form.rules.bonus_total == 12


def test_import_json_and_links_open_the_game() -> None:
    lab = VariantLab(compare_game="pig", background=False)
    rules = HIT_LIST_RULES.replace(name="No aces", remove_ranks=("A",))
    lab.open_link(f"?rules={rules_to_token(rules)}&x=1")
    assert lab.form.rules == rules
    assert lab.table is not None and lab.table.variant == rules
    lab.open_link("?rules=garbage!!")
    assert "damaged" in lab.query_html.value
    lab.form.json_text.value = '{"format": "pushluck-rules/1", "decks": 9}'
    lab.form.import_button.click()
    assert "'decks'" in lab.form.message


def test_side_by_side_numbers_and_highlights() -> None:
    """Pig standard (A) against a die with no 6 worth... B = sides changed: the A column is
    checked against Neller and Presser's "hold at 20" (an independent recursion)."""
    panel = SideBySide("pig", race_target=100, background=False)
    a, b = panel.summaries
    assert a.stop_rule.threshold == 20
    assert a.bust_risk == pytest.approx(float(1 - _pig_reach(20)), abs=1e-12)
    panel.b.controls["target"].value = "100"  # B starts as another preset; a turn's points are
    panel.b.controls["die_sides"].value = "8"  # capped at the target, so compare at A's target
    a, b = panel.summaries
    assert b.stop_rule.threshold > 20  # a bigger die: a 1 is rarer, keep rolling longer
    assert "<b>" in panel.table_html.value and "(+" in panel.table_html.value
    panel.b.controls["die_sides"].value = "1"
    assert "die_sides" in panel.status


def test_sweep_stopped_half_way_keeps_the_points_done() -> None:
    rules = HIT_LIST_RULES.replace(remove_ranks=("A",))
    panel = SweepPanel("custom", variant=rules)
    panel.option.value = "bank_minimum"
    panel.start.value, panel.stop_at.value, panel.step.value = "2", "21", "1"
    panel.run()
    deadline = time.monotonic() + 120
    while panel.progress.value < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "pushluck-pending" in panel.status_html.value  # the chart is not final yet
    panel.stop()
    panel.join(120)
    result = panel.result
    assert result is not None and result.stopped
    assert 3 <= len(result.points) < 20
    assert [p.value for p in result.points] == list(range(2, 2 + len(result.points)))
    first = result.points[0]
    model, state = custom_position(rules.replace(bank_minimum=2))
    assert first.turn_value == pytest.approx(float(TurnSolver(model, exact=True).value(state)))
    assert "Stopped" in panel.status and "pushluck-pending" not in panel.status_html.value
    assert not panel.run_button.disabled and panel.stop_button.disabled


def test_a_comparison_being_computed_says_its_charts_are_not_final() -> None:
    """While A and B are worked out off the click path, the status line is marked as work in
    progress (what a page check or a reader waits on); once computed, it is plain words."""
    panel = SideBySide("hit-list", variants=("standard", "soft-aces"))
    lines: list[str] = []
    panel.status_html.observe(lambda change: lines.append(change["new"]), "value")
    deadline = time.monotonic() + 120
    for _ in range(2):  # the opening comparison, then one asked for again
        while panel.status.startswith("Computing") and time.monotonic() < deadline:
            time.sleep(0.05)
        panel.compare()
    while panel.status.startswith("Computing") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sum("Computing" in line for line in lines) == 2, lines
    assert all(("Computing" in line) == ("pushluck-pending" in line) for line in lines), lines
    assert panel.status.startswith("A and B computed"), panel.status
    assert len(panel.fig_bust.data) == 2


def test_the_form_loads_every_model_game_unchanged() -> None:
    form = RuleSetForm()
    for key, rules in BUILT_GAMES.items():
        form.preset.value = key
        assert form.rules == rules, key
        assert isinstance(form.read(), RuleSet) and form.read() == rules


def test_the_tables_cli_line_of_a_built_game_gives_the_pages_numbers(tmp_path, capsys) -> None:
    """The "check it yourself" line of a built game names a rule file; running the CLI on that
    file and the line's flags gives the panel's bust chance."""
    import html as html_lib
    import json
    import re

    from pushluck_teach.cli import main
    from pushluck_teach.games.custom import CAPTAIN_SEVEN_RULES
    from pushluck_teach.ui.table import GameTable

    table = GameTable("custom", options=CAPTAIN_SEVEN_RULES.options(), seats=("human",),
                      background=False)
    table._buttons["draw"].click()
    line = table.cli_html.value
    rules = html_lib.unescape(re.search(r'data-rules="([^"]*)"', line).group(1))
    flags = json.loads(html_lib.unescape(re.search(r'data-flags="([^"]*)"', line).group(1)))
    path = tmp_path / "RULES.json"
    path.write_text(rules, encoding="utf-8")
    argv = ["odds", "custom", "--rules", str(path), "--json", "--exact"]
    for key, value in flags.items():
        argv += [f"--{key.replace('_', '-')}", value]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["p_bust_next_exact"]) == Fraction(table.panel.p_bust_exact)


def test_switching_to_a_die_hides_only_the_card_controls() -> None:
    form = RuleSetForm()
    form.preset.value = "pig"
    assert form.allies.layout.display == "none" and form.card_controls.layout.display == "none"
    for control in (form.name, form.bust_over, form.bank_minimum, form.target, form.dice):
        assert control.layout.display != "none", control.description


def test_side_by_side_starts_from_two_named_presets() -> None:
    from pushluck_teach.games import get_game

    spec = get_game("hit-list")
    panel = SideBySide("hit-list", variants=("standard", "soft-aces"), background=False)
    assert panel.a.variant == spec.presets["standard"]
    assert panel.b.variant == spec.presets["soft-aces"]
    with pytest.raises(RulesError, match="no preset 'nope'"):
        SideBySide("hit-list", variants=("standard", "nope"), background=False)


@pytest.mark.parametrize(("removed", "named"), [
    ("7h 7h 7h 7h 7h", "7h named twice"),
    (" ".join(["Ks"] * 167), "Ks named twice"),
    ("JK", "JK is not one card"),
])
def test_an_impossible_deck_is_refused_with_one_line(removed: str, named: str) -> None:
    """Five 7♥ out of a one-deck game, or 167 removed cards, is not "a valid game"."""
    form = RuleSetForm()
    before = form.rules
    form.remove_cards.value = removed
    assert named in form.message and "\n" not in form.message
    assert "remove_cards" in form.message and len(form.message) < 160
    assert form.play_button.disabled and form.rules == before


@pytest.mark.parametrize(("game", "option", "points"), [
    ("pig", "die_sides", list(range(2, 21))),   # every die the option allows
    ("custom", "bank_minimum", list(range(0, 21, 2))),
    ("incan-gold", "rounds", [1, 2, 3, 4, 5]),
    ("captain-seven", "target", list(range(50, 151, 10))),
])
def test_the_sweep_tab_starts_with_an_option_of_the_chosen_game(game: str, option: str,
                                                                points: list[int]) -> None:
    panel = SweepPanel("custom")
    panel.game.value = game
    assert panel.option.value == option
    assert panel.values() == points


def test_a_pig_sweep_runs_from_the_start_values() -> None:
    panel = SweepPanel("pig")
    panel.run(wait=True)
    result = panel.result
    assert result is not None and result.key == "die_sides"
    assert [p.value for p in result.points] == list(range(2, 21))
    assert all(p.error is None for p in result.points) and "Done" in panel.status


@pytest.mark.parametrize(("box", "text", "named"), [
    ("stop_at", "1e9", "'1e9' is not a whole number"),
    ("stop_at", "100000000", "points: a sweep solves at most 1000"),
    ("step", "0", "'step' must be 1 or more"),
    ("start", "30", "'from' must be at most 'to'"),
])
def test_a_bad_sweep_range_is_one_line_before_anything_runs(box: str, text: str,
                                                           named: str) -> None:
    panel = SweepPanel("pig")
    getattr(panel, box).value = text
    panel.run()
    assert named in panel.status and "\n" not in panel.status
    assert panel.result is None and not panel.running


@pytest.mark.parametrize(("box", "text", "named"), [
    ("target", "1e9", "rules field 'target': '1e9' is not a whole number"),
    ("decks", "9", "decks"),
    ("bonus", "１２", "'１２'"),
])
def test_a_bad_number_in_the_form_is_named_not_clamped(box: str, text: str, named: str) -> None:
    form = RuleSetForm()
    before = form.rules
    getattr(form, box).value = text
    assert named in form.message and "\n" not in form.message
    assert form.play_button.disabled and form.rules == before


def test_a_typed_exponent_is_refused_not_read_as_other_digits() -> None:
    """A number box in the browser dropped the "e" of "1e9" and sent 19; the option boxes are
    text, so the value is read (or refused) as typed."""
    panel = SideBySide("pig", background=False)
    panel.a.controls["target"].value = "1e9"
    assert "'1e9' is not a whole number" in panel.status
    panel.a.controls["target"].value = "60"
    assert panel.a.variant.target == 60 and not panel.a.error
    panel.race_target.value = "1e3"
    assert "race target: '1e3' is not a whole number" in panel.status
    panel.race_target.value = "0"
    assert "race target must be 1-5000, not 0" in panel.status
    panel.race_target.value = "60"
    assert "computed" in panel.status
