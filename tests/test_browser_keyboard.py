"""Keyboard play and the screen reader's live region in a real browser (one app server for the
file, headless Debian Chromium via Playwright; a missing Chromium is a failure, not a skip).

* A Pig game played with the keyboard alone (no mouse click at all): D rolls, S holds, until the
  game ends or a fixed number of key presses; each sentence of the polite live region is read
  and its numbers compared with the page's visible numbers (the turn total, the coach's bust
  chance) and with a count by hand (a roll of 1 busts: 1 in 6).
* Captain Seven's draws by key: each sentence's card, turn total and "busts a in b" against the
  page and against a count made here from the cards seen (7s, jokers and the cards that make the
  total end in 7, out of the cards left in the 54-card deck).
* A Lost Cities turn by key: X then 1 discards the hand's first card, D draws from the deck.
* Tab reaches the action buttons, and the focused control shows a solid outline of 3 px or more.

Every page must show no traceback text and log no console or page error.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from test_browser import AppServer, PageWatch, assert_clean

TIMEOUT_MS = 180_000
#: key presses of the keyboard-only Pig game (a few turns of rolls and holds, the bot's between)
PIG_KEY_PRESSES = 16
#: Pig: the player holds at this turn total (a fixed plan; the keys are what is tested)
PIG_HOLD_AT = 12

pytestmark = pytest.mark.browser

SERIAL = """() => { const r = document.querySelector('.pushluck-live');
                    return r ? Number(r.dataset.serial) : -1; }"""
SENTENCE = "() => document.querySelector('.pushluck-live').textContent"
GAME_OVER = """() => { const over = document.querySelector('.pushluck-finished');
                       return Boolean(over && over.innerText.trim()); }"""
DECK = """() => Number(/deck (\\d+) cards/.exec(
    document.querySelector('.pushluck-cardtable .pushluck-status').innerText)[1])"""
BUST = re.compile(r"Next draw busts (\d+) in (\d+)\.")


@pytest.fixture(scope="module")
def server(shared_app: AppServer) -> AppServer:
    """The worker's shared server (tests/conftest.py), as other browser files use it."""
    return shared_app


RECORD = """() => { const region = document.querySelector('.pushluck-live');
  window.pushluckSaid = [];
  new MutationObserver(() => { const text = region.textContent.trim();
      if (text) window.pushluckSaid.push(text); })
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""


def open_table(browser, server: AppServer, notebook: str, ready: str):
    """A Play page at 1280x720, its live region's sentences recorded from the first one on."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    watch = PageWatch(page)
    page.goto(server.url(notebook), timeout=TIMEOUT_MS)
    page.wait_for_selector(ready, state="visible", timeout=TIMEOUT_MS)
    page.wait_for_function(f"({SERIAL})() > 0", timeout=TIMEOUT_MS)
    page.evaluate(RECORD)
    return page, watch


def said(page) -> list[str]:
    """Every sentence of the live region since the page was opened (the first excepted)."""
    return page.evaluate("() => window.pushluckSaid.slice()")


def key_and_sentences(page, key: str, settle: str = "") -> list[str]:
    """Press ``key`` (no mouse; the focus where the keyboard left it) and return the live
    region's sentences that follow, once one has come and ``settle`` (a JS condition) holds."""
    before = len(said(page))
    page.keyboard.press(key)
    page.wait_for_function(f"() => window.pushluckSaid.length > {before}", timeout=TIMEOUT_MS)
    if settle:
        page.wait_for_function(settle, timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)  # a sentence that follows (a bot's moves, the coach's best)
    return said(page)[before:]


def human_to_move(page) -> None:
    """Wait until no bot is thinking and a human's Draw button is enabled or the game is over."""
    page.wait_for_function(
        """() => { const over = document.querySelector('.pushluck-finished');
                   if (over && over.innerText.trim()) return true;
                   const b = document.querySelector('.pushluck-table .pushluck-action-draw');
                   const thinking = document.querySelector('.pushluck-bots-thinking');
                   const busy = thinking && thinking.offsetParent !== null;
                   return b && !b.disabled && !busy; }""", timeout=TIMEOUT_MS)


def visible_numbers(page) -> dict:
    """The turn total in the status line and the coach's bust chance, as the page shows them."""
    return page.evaluate("""() => {
        const status = document.querySelector('.pushluck-status').innerText;
        const total = /Turn total: (-?\\d+)/.exec(status);
        const bust = document.querySelector('.pushluck-headline .pushluck-p-bust');
        return {total: total ? Number(total[1]) : null,
                exact: bust ? bust.dataset.exact : null,
                shown: bust ? bust.innerText : null}; }""")


def assert_bust_matches(sentence: str, page_numbers: dict, by_hand: Fraction) -> None:
    found = BUST.search(sentence)
    assert found, f"no bust chance in {sentence!r}"
    said = Fraction(int(found.group(1)), int(found.group(2)))
    assert said == by_hand, f"{sentence!r}: the count by hand says {by_hand}"
    assert Fraction(page_numbers["exact"]) == said, (sentence, page_numbers)
    assert page_numbers["shown"].startswith(f"{said.numerator}/{said.denominator}"), (
        sentence, page_numbers)


def test_pig_game_with_the_keyboard_alone(server, browser):
    page, watch = open_table(browser, server, "Play_Pig.ipynb", ".pushluck-action-draw")
    line = page.locator(".pushluck-table .pushluck-keys-line").inner_text()
    assert "D Roll" in line and "S Hold" in line and "N New game" in line, line
    first = page.evaluate(SENTENCE)
    assert "New game of Pig" in first and "Next draw busts 1 in 6." in first, first
    human_to_move(page)
    rolls = 0
    for _ in range(PIG_KEY_PRESSES):
        if page.evaluate(GAME_OVER):
            break
        total = visible_numbers(page)["total"]
        key = "s" if total >= PIG_HOLD_AT else "d"
        heard = key_and_sentences(page, key)
        human_to_move(page)
        page.wait_for_timeout(500)
        sentence = page.evaluate(SENTENCE)
        assert heard, "a key press announced nothing"
        own_roll = re.match(r"Rolled (\d): turn total (\d+)\.", sentence)
        if key == "d" and own_roll:
            rolls += 1
            shown = visible_numbers(page)
            assert int(own_roll.group(2)) == shown["total"], (sentence, shown)
            assert own_roll.group(1) != "1", f"a roll of 1 busts: {sentence!r}"
            # by hand: one face of six busts, whatever the total
            assert_bust_matches(sentence, shown, Fraction(1, 6))
            assert sentence.endswith(("Best: Roll.", "Best: Hold.")), sentence
        else:
            assert sentence.strip(), "a key press announced nothing"
    assert rolls >= 3, "too few of the player's own rolls were announced"
    page.keyboard.press("Tab")
    for _ in range(40):  # Tab order reaches the action buttons
        on_action = page.evaluate(
            "() => document.activeElement.classList.contains('pushluck-action')")
        if on_action:
            break
        page.keyboard.press("Tab")
    assert on_action, "Tab never reached the action buttons"
    outline = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
    assert outline[0] == "solid" and outline[1] >= 3, f"focus outline {outline}"
    assert_clean(page, watch, "Play_Pig.ipynb")
    page.close()


RANK_VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10, "Joker": 0}


def captain_seven_bust_by_hand(drawn: list[str], total: int) -> Fraction:
    """Captain Seven's next-draw catch chance counted here: the 54-card deck less this turn's
    cards; a 7, a joker, or a card whose value makes the total end in 7 catches."""
    ranks = [str(n) for n in range(2, 11)] + ["A", "J", "Q", "K"]
    deck = [r for r in ranks for _ in range(4)] + ["Joker", "Joker"]
    for card in drawn:
        deck.remove("Joker" if card == "Joker" else card[:-1])
    catching = sum(1 for r in deck
                   if r in ("7", "Joker")
                   or (total + RANK_VALUE.get(r, int(r) if r.isdigit() else 0)) % 10 == 7)
    return Fraction(catching, len(deck))


def test_captain_seven_draw_sentences_match_the_page_and_a_hand_count(server, browser):
    page, watch = open_table(browser, server, "Play_Captain_Seven.ipynb",
                             ".pushluck-action-draw")
    human_to_move(page)
    drawn: list[str] = []
    for _ in range(3):
        key_and_sentences(page, "d")
        human_to_move(page)
        page.wait_for_timeout(500)
        sentence = page.evaluate(SENTENCE)
        own = re.match(r"(\S+): turn total (\d+)\.", sentence)
        if not own:  # caught: the turn passed to the bot and back
            assert "caught" in sentence.lower() or "Player 2" in sentence, sentence
            break
        drawn.append(own.group(1))
        shown = visible_numbers(page)
        assert int(own.group(2)) == shown["total"], (sentence, shown)
        cards = page.locator(".pushluck-table .pushluck-card").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert len(cards) == len(drawn), (cards, drawn)
        assert_bust_matches(sentence, shown,
                            captain_seven_bust_by_hand(drawn, int(own.group(2))))
        assert re.search(r"Best: (Draw|Stash)\.$", sentence), sentence
    assert drawn, "no draw was announced"
    assert_clean(page, watch, "Play_Captain_Seven.ipynb")
    page.close()


def test_lost_cities_turn_with_the_keyboard_alone(server, browser):
    page, watch = open_table(browser, server, "Play_Lost_Cities.ipynb",
                             ".pushluck-cardtable .pushluck-action")
    line = page.locator(".pushluck-cardtable .pushluck-keys-line").inner_text()
    assert re.search(r"P then 1-\d play", line) and re.search(r"X then 1-\d discard", line), line
    deck = page.evaluate(DECK)
    buttons = ".pushluck-cardtable .pl-cardtable-actions .jupyter-button"
    first_discard = page.locator(buttons).filter(has_text="Discard").first.inner_text()
    card = first_discard.removeprefix("Discard ").strip()
    heard = key_and_sentences(page, "x")
    assert heard[-1].startswith("Discard: press 1 ") and "Escape cancels" in heard[-1], heard
    assert f"1 {card}," in heard[-1], heard
    heard = key_and_sentences(page, "1", settle="""() => /Draw from the deck/.test(
        document.querySelector('.pushluck-cardtable .pl-cardtable-actions').innerText)""")
    assert any(f"Player 1 discards {card}." in s for s in heard), heard
    log = page.locator(".pushluck-cardtable .pl-log-newest").inner_text()
    assert f"discards {card}" in log, log
    line = page.locator(".pushluck-cardtable .pushluck-keys-line").inner_text()
    assert "D Draw from the deck" in line, line
    heard = key_and_sentences(page, "d", settle=f"""() => document.querySelectorAll(
        '{buttons}').length > 2""")
    assert any("Player 1 draws from the deck" in s for s in heard), heard
    page.wait_for_function("""() => /Coach, /.test(
        document.querySelector('.pushluck-live').textContent)""", timeout=TIMEOUT_MS)
    assert page.evaluate(DECK) <= deck - 1, "the player's draw came from the deck"
    assert page.locator(buttons).filter(has_text="Play ").count() >= 1
    assert_clean(page, watch, "Play_Lost_Cities.ipynb")
    page.close()
