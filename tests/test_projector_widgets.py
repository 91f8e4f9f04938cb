"""Projector mode at widget level (no browser): the switch of a lesson, the Lost Cities card
table and the variant lab changes the layout as the page's stylesheet expects (the classes the
CSS keys on, the charts' height and type size) and folds / unfolds the number tables; the page
address (``?projector``) switches it on.

The stylesheet's rules are checked in a real browser by ``tests/test_browser_pages.py``; here the
rules it depends on are read from the stylesheet itself, so a renamed class fails here.
"""

from __future__ import annotations

import pytest

from pushluck_teach.ui import play
from pushluck_teach.ui.figures import FIGURE_FONT, base_layout, live_figure
from pushluck_teach.ui.lessons import MarkovChainLesson, NextCardLesson, WhenToStopLesson
from pushluck_teach.ui.lessons.investing import OddsExplorer
from pushluck_teach.ui.projector import (
    PROJECTOR_CHART_FONT,
    PROJECTOR_CHART_HEIGHT,
    ProjectorSwitch,
    projector_requested,
)
from pushluck_teach.ui.theme import STYLESHEET
from pushluck_teach.ui.variant_lab import VariantLab

ON, OPEN, FOLD, FOLD_TABLES = "pl-projector-on", "pl-tables-open", "pl-fold", "pl-fold-tables"


def classes(widget) -> set[str]:
    return set(widget._dom_classes)


def sizes(figures) -> list[tuple[int | None, int | None]]:
    return [(fig.layout.height, fig.layout.font.size) for fig in figures]


def test_the_stylesheet_folds_what_the_switch_marks():
    """The page-wide rules the switch relies on are in the one stylesheet every page carries."""
    assert f"body:has(.{ON}:not(.{OPEN})) .{FOLD}" in STYLESHEET
    assert f".{FOLD_TABLES} table" in STYLESHEET
    assert ".jp-MarkdownOutput > :not(h1) { display: none; }" in STYLESHEET
    # charts side by side, and no fixed chart width anywhere in the page's rules
    assert f"body:has(.{ON}) .pl-charts" in STYLESHEET


@pytest.mark.parametrize(("search", "expected"), [
    ("", None), ("?x=1", None), ("?projector", True), ("projector=1", True),
    ("?rules=abc&projector", True), ("?projector=0", False), ("?projector=off", False),
    ("?projector=no", False), ("?projector=yes", True),
])
def test_the_address_asks_for_projector_mode(search, expected):
    assert projector_requested(search) is expected


def test_lesson_switch_resizes_its_charts_and_folds_and_unfolds(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    lesson = NextCardLesson(game="lands-uncharted", drawn="5h 9s")
    switch = lesson.projector_switch
    assert lesson.children[0] is switch  # the first thing on the page
    figures = (lesson.outcome_fig, lesson.path_fig)
    normal = sizes(figures)
    assert normal == [(340, FIGURE_FONT)] * 2
    assert not switch.on and ON not in classes(switch)
    assert all(fig.layout.width is None for fig in figures)  # the width follows the page

    switch.toggle.value = True  # the click
    assert switch.on and ON in classes(switch)
    assert sizes(figures) == [(PROJECTOR_CHART_HEIGHT, PROJECTOR_CHART_FONT)] * 2
    lesson.drawn.value = "5h 9s 3c"  # an update keeps the projector size
    assert sizes(figures) == [(PROJECTOR_CHART_HEIGHT, PROJECTOR_CHART_FONT)] * 2
    assert lesson.outcome_fig._widget_layout["height"] == PROJECTOR_CHART_HEIGHT

    switch.details_toggle.value = True  # "Show the text and number tables"
    assert OPEN in classes(switch)
    switch.details_toggle.value = False
    assert OPEN not in classes(switch)

    switch.toggle.value = False
    assert ON not in classes(switch)
    assert sizes(figures) == normal


def test_lesson_3_folds_its_absorption_table_but_not_its_answer(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    lesson = MarkovChainLesson(game="pig", threshold=20)
    assert FOLD_TABLES in classes(lesson.summary)
    assert "<table>" in lesson.summary.value and "Expected draws" in lesson.summary.value
    lesson.projector_switch.on = True
    # taller than elsewhere (the matrix's state labels take room), still inside 1280x720
    assert sizes((lesson.heatmap, lesson.graph)) == [(400, PROJECTOR_CHART_FONT)] * 2
    lesson.projector_switch.on = False
    assert sizes((lesson.heatmap, lesson.graph)) == [(520, FIGURE_FONT)] * 2


def test_lessons_start_in_projector_mode_from_the_address(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "projector")
    lesson = WhenToStopLesson(game="hit-list", drawn="9h 6c", totals_game="pig")
    assert lesson.projector_switch.on
    assert lesson.bars.layout.height == PROJECTOR_CHART_HEIGHT
    assert lesson.totals_fig.layout.height == PROJECTOR_CHART_HEIGHT


def test_lesson_7_charts_side_by_side_and_its_lines_fold(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    explorer = OddsExplorer("lost-cities", {"colour": "R", "hand": "R4 R6 R9",
                                            "deck_left": "30"})
    assert "pl-charts" in classes(explorer.figure_box)
    assert len(explorer.figure_box.children) >= 2
    assert FOLD in classes(explorer.lines)
    explorer.projector_switch.on = True
    assert {fig.layout.height for fig in explorer.figures} == {PROJECTOR_CHART_HEIGHT}


def test_card_table_switch_lays_out_the_board_and_folds_its_tables(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    table = play("lost-cities", background=False)
    switch = table.projector_switch
    figures = (table.score_figure, table.card_figure)
    normal = sizes(figures)
    assert "pl-projector-table" not in classes(table)
    for folded in (table.log_html, table.numbers, table.cli_html):
        assert FOLD in classes(folded)
    assert "pl-cardtable-actions" in classes(table.actions_box)

    switch.toggle.value = True
    assert "pl-projector-table" in classes(table)
    assert sizes(figures) == [(PROJECTOR_CHART_HEIGHT, PROJECTOR_CHART_FONT)] * 2
    table.click(table.engine.legal_actions()[0])  # the panel re-draws in projector size
    table.wait()
    assert sizes(figures) == [(PROJECTOR_CHART_HEIGHT, PROJECTOR_CHART_FONT)] * 2
    switch.tables_open = True
    assert OPEN in classes(switch) and switch.details_toggle.value

    switch.toggle.value = False
    assert "pl-projector-table" not in classes(table)
    assert sizes(figures) == normal


def test_card_table_from_the_address(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "projector=1")
    assert "pl-projector-table" in classes(play("lost-cities", background=False))
    monkeypatch.setenv("QUERY_STRING", "projector=0")
    assert "pl-projector-table" not in classes(play("lost-cities", background=False))


def test_lab_switch_and_its_link(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    lab = VariantLab(compare_game="pig", background=False)
    switch = lab.projector_switch
    compare = lab.side_by_side
    assert lab.children[0] is switch
    assert FOLD in classes(compare.table_html) and FOLD in classes(lab.sweep.table_html)
    assert not switch.on
    lab.query.search = "?projector"  # what the browser sends once the page is shown
    assert switch.on and ON in classes(switch)
    assert compare.fig_bust.layout.height == PROJECTOR_CHART_HEIGHT
    assert lab.sweep.fig.layout.height == PROJECTOR_CHART_HEIGHT
    lab.query.search = "?projector=off"
    assert not switch.on
    assert compare.fig_bust.layout.height == 320


def test_play_table_follows_the_address_and_the_shared_switch(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    table = play("pig", background=False)
    assert not table.projector
    assert isinstance(table.projector_switch, ProjectorSwitch)
    table.projector_switch.query.search = "?projector"
    assert table.projector and "pushluck-projector" in classes(table)
    assert "pl-projector" in classes(table.panel)
    assert table.panel.fig_next.layout.height == PROJECTOR_CHART_HEIGHT
    assert table.panel.fig_next.layout.width is None
    table.projector_toggle.value = False  # the button
    assert not table.projector and table.panel.fig_next.layout.height == 360
    monkeypatch.setenv("QUERY_STRING", "projector")
    assert play("pig", background=False).projector


def test_the_switch_says_what_happens_to_the_page_text():
    """The start page keeps its links (headings and tables), the guide its text; a long page can
    fold every output that holds no key content; a mode it does not know is refused."""
    from pushluck_teach.ui.projector import KEY_CLASS, ProjectorSwitch

    assert "pl-keep-tables" in classes(ProjectorSwitch(on=False, text="tables"))
    assert "pl-keep-text" in classes(ProjectorSwitch(on=False, text="keep"))
    plain = classes(ProjectorSwitch(on=False))
    assert not plain & {"pl-keep-tables", "pl-keep-text", "pl-fold-outputs"}
    assert "pl-fold-outputs" in classes(ProjectorSwitch(on=False, fold_outputs=True))
    chart = live_figure([], base_layout("a chart"))
    ProjectorSwitch(on=False, charts=[chart])
    assert KEY_CLASS in classes(chart)
    with pytest.raises(ValueError, match="text must be one of"):
        ProjectorSwitch(on=False, text="hide")
