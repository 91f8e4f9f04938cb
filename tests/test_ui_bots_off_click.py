"""Never frozen: bot seats think off the click path.

With ``background=True`` a human action whose bot reply is slow returns at once, the table says
who is thinking and disables the action buttons, New game supersedes the bots' work (the stale
choice is dropped and a running solve stops at its next checkpoint), and when the bot answers
the game goes on exactly as a synchronous table (``background=False``) plays it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import STOP, Engine
from pushluck_teach.sim.bots import OptimalTurnBot
from pushluck_teach.solve.turn import Cancelled, TurnSolver
from pushluck_teach.ui import table as table_module
from pushluck_teach.ui.table import GameTable

GAME = "lands-uncharted"
SEED = 3


class SlowBot:
    """The turn-optimal bot, but each choice waits until the test releases it.  After the
    wait, its first choice also runs a cold exact solve of a whole turn (15,395 states), so
    that a superseded choice is caught in the middle of a solve."""

    name = "slow optimal"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.stopped: list[BaseException] = []
        self.calls = 0
        self.answered = 0

    def choose(self, engine: Engine) -> str:
        self.calls += 1
        action = OptimalTurnBot().choose(engine)  # chosen first: waiting is all that is slow
        self.entered.set()
        assert self.release.wait(60), "the test never released the bot"
        if self.calls == 1:
            spec = get_game(GAME)
            model, state = spec.position(spec.variant_cls())
            try:
                TurnSolver(model, exact=True).analyse(state)
            except Cancelled as exc:
                self.stopped.append(exc)
                raise
        self.answered += 1
        return action


def human_turn(table: GameTable) -> None:
    """The scripted human: draw once, then stop if the turn is still ours and stopping is
    allowed (otherwise draw again until the turn passes)."""
    engine = table.engine
    turns = len(engine.turn_records)  # grows when the human's turn ends (stop or bust)
    table.act("draw")
    while not engine.is_over and len(engine.turn_records) == turns:
        table.act(STOP if STOP in engine.legal_actions() else "draw")
        assert not table.message_is_error, table.message


def deck_conserved(engine: Engine) -> bool:
    spec = get_game(GAME)
    held = Counter(c for cards in engine.card_locations().values() for c in cards)
    return held == Counter(spec.deck(engine.variant))


def reference_log(turns: int) -> tuple[list[str], Any]:
    """The same game played by a synchronous table: ``turns`` human turns, each answered by
    the turn-optimal bot."""
    table = GameTable(GAME, seats=("human", "optimal"), seed=SEED, coach="off",
                      background=False)
    for _ in range(turns):
        human_turn(table)
    return list(table.engine.log), table.engine.scores()


@pytest.fixture()
def slow_bot(monkeypatch: pytest.MonkeyPatch) -> SlowBot:
    bot = SlowBot()
    real = table_module.make_bot

    def make(seat: str, spec: Any) -> Any:
        return bot if seat == "optimal" else real(seat, spec)

    monkeypatch.setattr(table_module, "make_bot", make)
    return bot


def test_a_slow_bot_thinks_off_the_click_and_new_game_supersedes_it(slow_bot: SlowBot) -> None:
    table = GameTable(GAME, seats=("human", "optimal"), seed=SEED, coach="always")
    fresh_log = list(table.engine.log)
    first_engine = table.engine
    begun = time.monotonic()
    human_turn(table)  # ends with Stop: the bot is to move, and it blocks
    assert time.monotonic() - begun < 5  # the click returned, the bot did not answer yet
    assert slow_bot.entered.wait(10)
    assert table.bots_thinking and first_engine.current_player == 1
    assert all(b.disabled for b in table.action_buttons.values())
    assert table.thinking_box.layout.display == "flex"
    assert "Player 2 (bot: optimal) is thinking" in table.thinking_html.value
    # a click on an action while the bot thinks is refused, the game unchanged
    log_while_thinking = list(first_engine.log)
    table.act("draw")
    assert table.message_is_error and "is still thinking" in table.message
    assert first_engine.log == log_while_thinking
    # New game, the seed and the coach stay usable
    assert not table.new_game_button.disabled and not table.coach_toggle.disabled
    table.coach = "after"
    table.coach = "always"
    table.new_game_button.click()
    assert not table.message_is_error, table.message
    assert table.engine is not first_engine and not table.bots_thinking
    assert table.thinking_box.layout.display == "none"
    assert table.engine.log == fresh_log
    new_log = list(table.engine.log)
    # the stale choice: released now, its solve stops at the first checkpoint, nothing applied
    slow_bot.release.set()
    deadline = time.monotonic() + 30
    while not slow_bot.stopped and time.monotonic() < deadline:
        time.sleep(0.02)
    assert slow_bot.stopped and isinstance(slow_bot.stopped[0], Cancelled)
    table.wait_for_bots()
    time.sleep(0.2)  # give a (wrongly) delivered stale result the time to show up
    assert table.engine.log == new_log  # the new game is untouched
    assert first_engine.log == log_while_thinking  # and so is the old one
    assert not table.action_buttons["draw"].disabled  # the human may play
    # the new game goes on: three human turns, each answered by the (released) bot
    for _ in range(3):
        human_turn(table)
        table.wait_for_bots()
        assert not table.message_is_error, table.message
        assert deck_conserved(table.engine)
    log, scores = reference_log(3)
    assert table.engine.log == log and table.engine.scores() == scores
    # after the bots, the panel and the buttons are those of the human's decision
    assert not table.bots_thinking and table.engine.current_player == 0
    assert any(not b.disabled for b in table.action_buttons.values())
    assert "Player 1" in table.status_html.value
    table.panel.wait()
    assert table.panel.recommended in table.engine.legal_actions()
    # a stale choice that completes (no solve to stop) is dropped too
    slow_bot.release.clear()
    slow_bot.entered.clear()
    answered = slow_bot.answered
    old_engine = table.engine
    human_turn(table)
    assert slow_bot.entered.wait(10) and table.bots_thinking
    old_log = list(old_engine.log)
    table.next_seed_button.click()  # the seed changes: a new game supersedes the bot
    assert table.seed == SEED + 1 and table.engine is not old_engine
    started = list(table.engine.log)
    slow_bot.release.set()
    deadline = time.monotonic() + 30
    while slow_bot.answered == answered and time.monotonic() < deadline:
        time.sleep(0.02)
    assert slow_bot.answered == answered + 1  # it chose, uncancelled...
    time.sleep(0.2)  # (the time for a wrongly delivered result to show up)
    assert old_engine.log == old_log and table.engine.log == started  # and nothing applied


def test_the_synchronous_table_still_moves_bots_inside_the_click(slow_bot: SlowBot) -> None:
    slow_bot.release.set()
    table = GameTable(GAME, seats=("human", "optimal"), seed=SEED, coach="off",
                      background=False)
    human_turn(table)
    assert not table.bots_thinking and slow_bot.calls >= 1
    assert table.engine.current_player == 0 or table.engine.is_over
    assert slow_bot.stopped == []  # nobody superseded the synchronous solve


def test_a_bots_only_game_plays_out_in_the_worker_and_new_game_restarts_it() -> None:
    table = GameTable("pig", seats=("cautious", "greedy"), seed=8, options={"target": 40})
    table.wait_for_bots()
    sync = GameTable("pig", seats=("cautious", "greedy"), seed=8, options={"target": 40},
                     background=False)
    assert table.engine.is_over and table.engine.log == sync.engine.log
    assert "New game of" in table.message and table.engine.winners() == sync.engine.winners()
    table.new_game_button.click()
    table.new_game_button.click()  # the first new game's bots are superseded by the second
    table.wait_for_bots()
    assert table.engine.is_over and table.engine.log == sync.engine.log
