"""Keyboard play and the live region's sentences, without a browser: which key clicks which
button (and that a key does nothing where a click would do nothing), the card tables' row keys,
and the sentences' numbers against counts made here by hand."""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets
import pytest

from pushluck_teach.ui.announce import (
    Announcer,
    LiveRegion,
    bust_words,
    coach_sentence,
    table_sentence,
)
from pushluck_teach.ui.card_table import CardTable
from pushluck_teach.ui.keyboard import KeyListener, RowKeys, press, row_letters, table_bindings
from pushluck_teach.ui.table import GameTable


def counting_button(description: str, clicks: list[str]) -> widgets.Button:
    button = widgets.Button(description=description)
    button.on_click(lambda b: clicks.append(b.description))
    return button


# ---- the key -> button mapping ---------------------------------------------------------------

def test_table_keys_are_d_s_digits_and_n_in_button_order():
    clicks: list[str] = []
    draw, stop = counting_button("Draw", clicks), counting_button("Stash", clicks)
    jack, queen = counting_button("Jack relic", clicks), counting_button("Queen relic", clicks)
    new = counting_button("New game", clicks)
    bindings = table_bindings(draw, stop, [jack, queen], new)
    assert [(b.key, b.label) for b in bindings] == [
        ("d", "Draw"), ("s", "Stash"), ("1", "Jack relic"), ("2", "Queen relic"),
        ("n", "New game")]
    for key in "ds21n":
        assert press(bindings, key)
    assert clicks == ["Draw", "Stash", "Queen relic", "Jack relic", "New game"]
    assert not press(bindings, "3") and not press(bindings, "q")
    assert clicks == ["Draw", "Stash", "Queen relic", "Jack relic", "New game"]


def test_a_disabled_or_hidden_buttons_key_does_nothing():
    clicks: list[str] = []
    draw, stop = counting_button("Draw", clicks), counting_button("Stop", clicks)
    stop.disabled = True
    draw.layout.display = "none"
    bindings = table_bindings(draw, stop, [])
    assert not press(bindings, "d") and not press(bindings, "s")
    assert clicks == []


def test_row_letters_prefer_the_usual_letters_and_never_take_n_or_h():
    assert row_letters(["play", "discard", "draw"]) == {"play": "p", "discard": "x",
                                                         "draw": "d"}
    letters = row_letters(["hold", "nudge", "dance"])
    assert letters == {"hold": "o", "nudge": "u", "dance": "d"}
    assert not {"n", "h"} & set(letters.values())


def test_row_keys_pick_a_row_then_a_button_and_escape_cancels():
    clicks: list[str] = []
    plays = [counting_button(f"Play {c}", clicks) for c in ("R5", "B3", "WH")]
    draw = counting_button("Draw from the deck", clicks)
    new = counting_button("New game", clicks)
    keys = RowKeys()
    keys.set_rows({"play": plays, "draw": [draw]}, {"n": new})
    assert set(keys.keys()) == {"n", "p", "d"}
    said = keys.press("p")
    assert said == "Play: press 1 R5, 2 B3, 3 WH; Escape cancels."
    assert set(keys.keys()) == {"n", "p", "d", "1", "2", "3", "Escape"}
    assert keys.press("2") == "" and clicks == ["Play B3"]
    assert keys.press("2") == "" and clicks == ["Play B3"]  # a digit alone picks nothing
    keys.press("p")
    assert keys.press("Escape") == "Choice cancelled." and keys.pending is None
    keys.press("3")
    assert clicks == ["Play B3"]
    keys.press("d")  # a row of one button acts at once
    assert clicks == ["Play B3", "Draw from the deck"]
    keys.press("p")
    keys.press("9")  # past the row's end: nothing
    assert clicks == ["Play B3", "Draw from the deck"]
    line = keys.line_html()
    assert "P then 1-3</kbd> play" in line and "<kbd>D</kbd> Draw from the deck" in line


def test_the_widgets_open_with_a_complete_state():
    """Voilà refuses a widget whose state lacks its model module (a trait named ``keys``
    once replaced the list of synced traits)."""
    for widget in (KeyListener(lambda _key: None), LiveRegion()):
        state = widget.get_state()
        assert state["_model_module"] == "anywidget", state


def test_the_listener_passes_only_bound_keys():
    got: list[str] = []
    listener = KeyListener(got.append)
    listener.bound_keys = ["d", "s"]
    for key in ("d", "x", "s", "Escape"):
        listener._message(listener, {"key": key}, [])
    listener._message(listener, "not a dict", [])
    assert got == ["d", "s"]


# ---- the sentences -------------------------------------------------------------------------

@pytest.mark.parametrize(("exact", "words"), [
    ("3/25", "Next draw busts 3 in 25."),
    ("1/6", "Next draw busts 1 in 6."),
    ("0", "Next draw cannot bust."),
    ("0/1", "Next draw cannot bust."),
    ("1", "Next draw busts for sure."),
    ("1/12345", "Next draw busts 0.0 percent of the time."),
    ("n/a", ""),
    ("none", ""),
])
def test_bust_words(exact, words):
    assert bust_words(exact) == words


def test_the_issue_example_sentence():
    assert table_sentence("7♥: turn total 19.", "3/25", "Stop") == (
        "7♥: turn total 19. Next draw busts 3 in 25. Best: Stop.")
    assert table_sentence("Player 2 holds 20: score 20") == "Player 2 holds 20: score 20."
    assert coach_sentence("n/a", "") == ""


def test_the_announcer_says_each_moment_once_and_a_late_best():
    announcer = Announcer()
    announcer.moment(("game", 1), "7♥: turn total 19.", "3/25", "", coach_on=True)
    announcer.moment(("game", 1), "7♥: turn total 19.", "3/25", "", coach_on=True)
    assert announcer.region.serial == 1
    assert announcer.region.text == "7♥: turn total 19. Next draw busts 3 in 25."
    announcer.best_known("Stop")
    announcer.best_known("Stop")
    assert announcer.region.serial == 2 and announcer.region.text == "Best: Stop."
    announcer.moment(("game", 2), "Player 2 holds 20.", "1/6", "Roll", coach_on=False)
    assert announcer.region.text == "Player 2 holds 20."


# ---- at the tables ---------------------------------------------------------------------------

def captain_seven_catch_by_hand(drawn: list[str], total: int) -> Fraction:
    """The chance the next card catches, counted here: 54 cards less this turn's; a 7, a joker,
    or a card whose value makes the total end in 7."""
    value = {"A": 1, "J": 10, "Q": 10, "K": 10}
    deck = [r for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for _ in range(4)]
    deck += ["Joker", "Joker"]
    for card in drawn:
        deck.remove("Joker" if card == "Joker" else card[:-1])
    caught = sum(1 for r in deck if r in ("7", "Joker")
                 or (total + value.get(r, int(r) if r.isdigit() else 0)) % 10 == 7)
    return Fraction(caught, len(deck))


def test_captain_seven_draw_sentences_by_key():
    table = GameTable("captain-seven", background=False, objective="points")
    drawn: list[str] = []
    for _ in range(3):
        table.press_key("d")
        sentence = table.announcer.region.text
        view = table.engine.view()
        if table.engine.current_player != 0 or not view.turn_cards:
            break
        card = view.turn_cards[-1].label
        drawn.append(card)
        assert sentence.startswith(f"{card}: turn total {view.turn_total}. "), sentence
        chance = captain_seven_catch_by_hand(drawn, view.turn_total)
        assert f"Next draw busts {chance.numerator} in {chance.denominator}." in sentence
        best = table.engine.action_label(table.panel.recommended)
        assert sentence.endswith(f"Best: {best}."), sentence
    assert drawn


def test_pig_keys_at_the_table():
    table = GameTable("pig", background=False, seed=1)
    assert "Next draw busts 1 in 6. Best: Roll." in table.announcer.region.text
    assert "<kbd>D</kbd> Roll" in table.keys_html.value
    assert table.key_listener.bound_keys == ["d", "s", "n"]
    assert table.action_buttons["draw"].tooltip.startswith("Roll (key D")
    assert table.action_buttons["stop"].tooltip.startswith("Hold (key S")
    said = table.announcer.region.serial
    table.press_key("s")  # Hold is disabled at turn total 0: nothing happens
    assert table.announcer.region.serial == said and len(table.engine.log) == 0
    table.press_key("d")
    assert table.engine.log[-1].startswith("Player 1 rolls")
    for _ in range(30):  # fast repeated keys: each one a click, the game always consistent
        table.press_key("d")
        assert not table.message_is_error, table.message
    seed_before = table.seed
    table.press_key("n")
    assert table.seed == seed_before and len(table.engine.log) == 0


def test_keys_do_nothing_on_a_bots_turn():
    table = GameTable("pig", seats=("optimal", "human"), background=True, seed=3)
    try:
        table.wait_for_bots()
        log = list(table.engine.log)
        table._show_thinking(0)  # as while the bot thinks: the buttons are disabled
        table._render_buttons(())
        table.press_key("d")
        table.press_key("s")
        assert table.engine.log == log
    finally:
        table._show_thinking(None)
        table.panel.close()


def test_lost_cities_turn_by_key():
    table = CardTable("lost-cities", background=False)
    hand = [b.description for row in table.actions_box.children for b in row.children
            if b.description.startswith("Discard ")]
    table.press_key("x")
    assert table.announcer.region.text.startswith(f"Discard: press 1 {hand[0][8:]},")
    table.press_key("1")
    assert table.engine.log[-1] == f"Player 1 {hand[0].lower().split()[0]}s {hand[0][8:]}."
    assert "Coach, yellow:" in table.announcer.region.text
    assert "<kbd>D</kbd> Draw from the deck" in table.keys_html.value
    table.press_key("p")  # no Play row in the draw phase: nothing
    deck = table.engine.view(0).draw_pile
    table.press_key("d")
    assert any(line.startswith("Player 1 draws from the deck") for line in table.engine.log)
    assert table.engine.view(0).draw_pile < deck
