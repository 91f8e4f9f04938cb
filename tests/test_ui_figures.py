"""Pure chart builders, the text beside them, card faces and the DOM hooks (no browser)."""

from __future__ import annotations

import json
import re
import shlex
from fractions import Fraction
from html import unescape

import pytest

from pushluck_teach.cards import Card, parse_card
from pushluck_teach.games import get_game
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui import figures as F
from pushluck_teach.ui.analysis import analyse_position, p_bust_span, turn_distributions
from pushluck_teach.ui.cards_html import card_face_html, cards_row_html, dice_row_html
from pushluck_teach.ui.table import action_class, cli_line_html, format_option
from pushluck_teach.ui.theme import BUST_COLOUR, GAIN_COLOUR, OKABE_ITO


def pig_position(total: int = 0):
    spec = get_game("pig")
    drawn = " ".join(["5"] * (total // 5)) if total else None
    return spec.position(spec.variant(), drawn=drawn)


# ---- numbers as text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(1, 6), "1/6"), (Fraction(2, 4), "1/2"), (Fraction(0), "0/1"), (Fraction(1), "1/1"),
     (None, "n/a"), (3, "3/1")],
)
def test_fraction_text_is_reduced_p_over_q(value, text) -> None:
    assert F.fraction_text(value) == text


def test_value_and_probability_texts_show_exact_and_decimal() -> None:
    assert F.value_text(Fraction(35, 3)) == "11.667 (= 35/3)"
    assert F.value_text(Fraction(20)) == "20"
    assert F.value_text(None) == "n/a"
    assert F.value_text(8.25) == "8.250"
    assert F.probability_text(Fraction(1, 6)) == "1/6 ≈ 0.1667"
    huge = Fraction(1, 10**9 + 7)
    assert "/" not in F.probability_text(huge)
    assert F.short_probability(Fraction(3, 13)) == "3/13"


# ---- card faces -----------------------------------------------------------------------------


def test_card_face_names_the_card_for_screen_readers_and_colours_the_suit() -> None:
    html = card_face_html(parse_card("Th"))
    assert 'role="img"' in html
    assert 'aria-label="Ten of hearts"' in html
    assert "pushluck-card-red" in html and "10" in html and "♥" in html
    black = card_face_html(parse_card("Qs"))
    assert 'aria-label="Queen of spades"' in black and "pushluck-card-black" in black


def test_joker_face_and_empty_row() -> None:
    html = card_face_html(Card("JK"))
    assert 'aria-label="Joker"' in html and "pushluck-card-joker" in html
    assert "No cards yet" in cards_row_html(())
    assert cards_row_html([parse_card("5h"), parse_card("9s")]).count('role="img"') == 2
    assert 'aria-label="Die showing 4"' in dice_row_html([4])


def test_page_assets_load_nothing_from_the_network() -> None:
    from pushluck_teach.ui.theme import STYLESHEET

    for html in (STYLESHEET, card_face_html(Card("JK")), card_face_html(parse_card("Ac"))):
        assert "http" not in html and "@import" not in html and "url(" not in html


# ---- DOM hooks ------------------------------------------------------------------------------


def test_p_bust_span_carries_the_exact_fraction() -> None:
    assert 'class="pushluck-p-bust" data-exact="1/6"' in p_bust_span(Fraction(1, 6))
    assert 'data-exact="n/a"' in p_bust_span(None)


def test_cli_line_carries_game_and_json_flags() -> None:
    flags = {"drawn": "5h 9s", "removed": "Qd \"x\""}
    html = cli_line_html("lands-uncharted", flags, {"buried_treasure": True})
    match = re.search(r'<code class="pushluck-cli" data-game="([^"]*)" data-flags="([^"]*)"', html)
    assert match is not None
    assert match.group(1) == "lands-uncharted"
    assert json.loads(unescape(match.group(2))) == flags
    code = re.search(r'<code class="pushluck-cli"[^>]*>(.*?)</code>', html).group(1)
    assert shlex.split(unescape(code)) == [  # what a shell reads when the command is pasted
        "pushluck", "odds", "lands-uncharted", "--drawn", "5h 9s", "--removed", 'Qd "x"',
        "--option", "buried_treasure=true"]


def test_action_classes_and_option_text() -> None:
    assert action_class("ace:11") == "pushluck-action-ace-11"
    assert action_class("draw") == "pushluck-action-draw"
    assert format_option(("spades", "clubs")) == "spades,clubs"
    assert format_option(None) == "off" and format_option(True) == "true"


# ---- figures --------------------------------------------------------------------------------


def test_png_download_is_configured_on_every_figure() -> None:
    for make in (F.make_next_card_figure, F.make_bust_line_figure, F.make_choice_figure,
                 F.make_distribution_figure):
        fig = make()
        options = fig.config["toImageButtonOptions"]
        assert options["format"] == "png" and options["filename"].startswith("pushluck-")
        assert fig.config["displayModeBar"] == "hover"


def test_next_card_update_in_place_matches_outcomes() -> None:
    fig = F.make_next_card_figure()
    trace_ids = [id(t) for t in fig.data]
    outcomes = [
        F.OutcomeBar("1 (bust)", Fraction(1, 6), True, 0),
        F.OutcomeBar("2", Fraction(1, 6), False, 12),
        F.OutcomeBar("3", Fraction(1, 6), False, 13),
    ]
    F.update_next_card(fig, outcomes, Fraction(1, 6))
    assert [id(t) for t in fig.data] == trace_ids
    bust, gain = fig.data
    assert bust.x == ("1 (bust)",) and bust.y == (1 / 6,) and bust.text == ("1/6",)
    assert gain.x == ("2", "3") and gain.customdata[0][0] == "1/6 ≈ 0.1667"
    assert fig.layout.title.text.endswith("chance to bust 1/6")
    assert bust.marker.color == BUST_COLOUR and gain.marker.color == GAIN_COLOUR
    assert {BUST_COLOUR, GAIN_COLOUR} <= set(OKABE_ITO.values())


def test_choice_figure_outlines_the_best_and_skips_unavailable() -> None:
    fig = F.make_choice_figure()
    bars = [F.ChoiceBar("stop", "stop now", None), F.ChoiceBar("draw_once", "draw once", 5.0),
            F.ChoiceBar("optimal", "optimal play", Fraction(49, 6))]
    F.update_choice(fig, bars, "optimal", "best: draw")
    trace = fig.data[0]
    assert trace.x == ("draw once", "optimal play")
    assert trace.text == ("5", "8.167")  # a whole number without decimals
    assert trace.y == (5.0, 49 / 6)
    assert trace.marker.line.width == (0, 4)
    assert "n/a" in F.choice_html(bars, "Draw")


def test_pig_numbers_match_hand_computed_values() -> None:
    # Pig at turn total 10: stop 10, roll once then stop 5/6 * (10 + 4) = 35/3, bust 1/6.
    model, state = pig_position(10)
    numbers = analyse_position(model, state, threshold=20, exact_values=True)
    assert numbers.p_bust == Fraction(1, 6)
    by_key = {c.key: c.value for c in numbers.choices}
    assert by_key["stop"] == 10 and by_key["draw_once"] == Fraction(35, 3)
    assert numbers.best_action == "draw"
    assert [o.probability for o in numbers.outcomes] == [Fraction(1, 6)] * 6
    assert [o.busted for o in numbers.outcomes] == [True] + [False] * 5
    # at 20 a roll gains nothing on average (5/6 * 24 = 20): the solver holds on the tie
    model, state = pig_position(20)
    numbers = analyse_position(model, state, threshold=20, exact_values=True)
    assert {c.key: c.value for c in numbers.choices}["draw_once"] == 20
    assert numbers.best_action == "stop"


def test_distribution_figure_and_text_match_the_solver() -> None:
    model, state = pig_position(15)
    optimal, by_threshold = turn_distributions(model, state, 20)
    solver = TurnSolver(model)
    assert optimal == solver.distribution(state)
    assert by_threshold == solver.distribution(state, solver.threshold_policy(20))
    fig = F.make_distribution_figure()
    F.update_distribution(fig, optimal, by_threshold, 20)
    assert fig.data[0].x == tuple(float(k) for k in optimal)
    assert fig.data[1].y == tuple(float(v) for v in by_threshold.values())
    assert fig.data[1].name == "stop at 20"
    mean = sum(k * v for k, v in optimal.items())
    assert f"optimal play {mean:.3f}" in F.distribution_html(optimal, by_threshold, 20)


def test_outcome_labels_made_unique_on_the_category_axis() -> None:
    fig = F.make_next_card_figure()
    F.update_next_card(fig, [F.OutcomeBar("K", Fraction(1, 2), True, 0),
                             F.OutcomeBar("K", Fraction(1, 2), False, 5)], Fraction(1, 2))
    assert fig.data[0].x[0] != fig.data[1].x[0]


def test_distribution_state_cap_raises_a_position_error() -> None:
    from pushluck_teach.games.base import PositionError

    model, state = pig_position(0)
    solver = TurnSolver(model)
    assert solver.distribution(state, max_states=10_000) == solver.distribution(state)
    with pytest.raises(PositionError, match="more than 5 states"):
        solver.distribution(state, max_states=5)


def test_probability_axes_stay_inside_zero_to_one():
    """Every y-axis titled as a probability (or a chance) is bounded by the shared helpers: by
    hand, [0, 1] for a probability, [0, 100] for a chance in percent, other axes untouched."""
    from pushluck_teach.ui.figures import base_layout, live_figure, probability_axis

    assert probability_axis("P(bust)", range=[0, 1.05])["range"] == [0, 1]
    assert probability_axis("probability")["autorangeoptions"] == {"clipmin": 0, "clipmax": 1}
    layout = base_layout("t", yaxis={"title": {"text": "chance to win (%)"}},
                         yaxis2={"title": "expected points"})
    assert layout["yaxis"]["autorangeoptions"] == {"clipmin": 0, "clipmax": 100}
    assert "autorangeoptions" not in layout["yaxis2"]
    figure = live_figure([], {"yaxis": {"title": {"text": "P(next draw busts)"},
                                        "range": [-0.1, 1.2]}})
    assert tuple(figure.layout.yaxis.range) == (0, 1)
    bars = live_figure([], {"yaxis": {"title": "probability"}})
    assert bars.layout.yaxis.autorangeoptions.clipmax == 1
