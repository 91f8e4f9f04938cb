"""The accessibility pieces that need no browser: every page's switch carries the page's
accessibility helper, a chart is paired with its number table, and the text colours meet WCAG
2.1 AA's 4.5:1 (computed here from the WCAG definition of contrast, not by the package)."""

from __future__ import annotations

import re

import pytest

from pushluck_teach.ui.accessibility import PageAccessibility, describe_chart
from pushluck_teach.ui.card_table import SUIT_COLOURS
from pushluck_teach.ui.figures import make_next_card_figure
from pushluck_teach.ui.projector import ProjectorSwitch
from pushluck_teach.ui.theme import OKABE_ITO, STYLESHEET, TEXT_ERROR_COLOUR, TEXT_OK_COLOUR


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of ``#RRGGBB`` or ``#RGB``."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula_against_known_pairs():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)  # the AA grey


def test_every_switch_carries_the_page_helper():
    switch = ProjectorSwitch(on=False)
    helpers = [c for c in switch.children if isinstance(c, PageAccessibility)]
    assert len(helpers) == 1 and helpers[0].layout.display == "none"


def test_a_chart_is_paired_with_its_table():
    import ipywidgets as widgets

    chart, table = make_next_card_figure(carry_bundle=False), widgets.HTML("<table></table>")
    describe_chart(chart, table)
    chart_key = [c for c in chart._dom_classes if c.startswith("pl-chart-")]
    table_key = [c for c in table._dom_classes if c.startswith("pl-numbers-for-")]
    assert chart_key and table_key
    assert chart_key[0].removeprefix("pl-chart-") == table_key[0].removeprefix("pl-numbers-for-")


@pytest.mark.parametrize(("background", "text"), SUIT_COLOURS)
def test_lost_cities_suit_labels_are_readable(background, text):
    assert contrast(background, text) >= 4.5


@pytest.mark.parametrize("colour", [TEXT_ERROR_COLOUR, TEXT_OK_COLOUR])
def test_feedback_text_on_white(colour):
    assert contrast(colour, "#FFFFFF") >= 4.5


def test_action_buttons_text():
    safe = re.search(r"\.pushluck-safe:not\(:disabled\) \{ background: (#\w+);\s+color: (#\w+)",
                     STYLESHEET)
    risky = re.search(r"\.pushluck-risky:not\(:disabled\) \{ background: (#\w+);\s+color: (#\w+)",
                      STYLESHEET)
    assert safe and risky
    assert safe.group(1) == OKABE_ITO["bluish_green"]
    for found in (safe, risky):
        assert contrast(found.group(1), found.group(2)) >= 4.5, found.group(0)
