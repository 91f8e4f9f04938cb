"""What both tables share (ui/table_parts.py): the command a student pastes into a terminal gives
back the very words the page meant; a failing click leaves one line and a playable game on
either table; the bots' runner says "idle" only once their last move is shown."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import get_game, table_game
from pushluck_teach.ui.card_table import CardTable
from pushluck_teach.ui.table import GameTable, action_class, play
from pushluck_teach.ui.table_parts import BotRunner, command_text, odds_arguments

#: values a flag may carry: spaces, both quotes, a shell's special characters, unicode
AWKWARD = ["5h 9s", "it's", 'say "hi"', "?", "*", "$HOME", "a;b", "`x`", "10♥ Q♠",
           "tab\there", "", "-", "--x", "back\\slash", "ü ß 中"]


def test_the_command_reads_as_written() -> None:
    """The words in order, as the rules of ``pushluck odds`` want them (written out by hand)."""
    words = odds_arguments("pig", {"drawn": "3 5", "score_now": 12}, {"die_sides": 8,
                           "suits": ("spades", "clubs"), "cap": None, "fast": True},
                           objective="win")
    assert words == ["pushluck", "odds", "pig", "--drawn", "3 5", "--score-now", "12",
                     "--option", "die_sides=8", "--option", "suits=spades,clubs",
                     "--option", "cap=off", "--option", "fast=true", "--objective", "win"]
    assert odds_arguments("lost-cities", {"colour": "R"}, exact=True)[-1] == "--exact"
    assert odds_arguments("x", {}, {"a": 1}, rules_file="RULES.json") == [
        "pushluck", "odds", "x", "--rules", "RULES.json", "--option", "a=1"]
    assert command_text(["pushluck", "odds", "pig", "--drawn", "3 5"]) == \
        "pushluck odds pig --drawn '3 5'"


@pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX shell here")
def test_a_real_shell_reads_back_every_word() -> None:
    """Pasted into ``sh`` (not shlex: an independent reader), the command gives each value
    back exactly, whatever quotes, spaces or unicode it holds."""
    flags = {f"flag_{i}": value for i, value in enumerate(AWKWARD)}
    words = odds_arguments("lands-uncharted", flags, {"name": 'O\'Brien "the" ♣'})
    shown = command_text(words)
    printed = subprocess.run(["sh", "-c", "printf '%s\\0' " + shown], check=True,
                             capture_output=True).stdout.decode()
    assert printed.split("\0")[:-1] == words


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True),
                       st.text(st.characters(exclude_characters="\0", exclude_categories=("Cs",)),
                               max_size=12), max_size=4))
def test_any_value_survives_a_paste(flags: dict[str, str]) -> None:
    import shlex

    words = odds_arguments("pig", flags)
    assert shlex.split(command_text(words)) == words


# ---- one error guard on both tables -------------------------------------------------------
class Boom:
    """Makes the engine's next action fail with ``error`` (then act normally again)."""

    def __init__(self, engine: Any, error: Exception) -> None:
        self.engine, self.error = engine, error
        self.real = engine.act

    def __enter__(self) -> Boom:
        def act(_action: str) -> list[str]:
            raise self.error

        self.engine.act = act
        return self

    def __exit__(self, *_exc: object) -> None:
        self.engine.act = self.real


FAILURES = [RuntimeError("disk\nfull"), KeyError("x"), CardError("bad card 'Zz'"),
            ValueError("two\nlines")]


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
def test_a_failing_click_on_the_draw_stop_table_leaves_one_line(
        error: Exception, caplog: pytest.LogCaptureFixture) -> None:
    table = GameTable("pig", seats=("human", "human"), background=False)
    log = list(table.engine.log)
    with caplog.at_level(logging.DEBUG), Boom(table.engine, error):
        table.action_buttons["draw"].click()
    _no_traceback(caplog)
    assert table.message_is_error and "\n" not in table.message and table.message
    if isinstance(error, ValueError):          # words meant for the student: shown as they are
        assert table.message == " ".join(str(error).split())
    else:                                      # no Python names on the page
        assert table.message.startswith("Something went wrong") and "Error" not in table.message
    assert "pushluck-message-error" in table.message_html.value
    assert table.engine.log == log
    table.act("draw")                          # the game goes on
    assert len(table.engine.log) > len(log) and not table.message_is_error


def _card_buttons(table: CardTable) -> dict[str, Any]:
    return {c: b for row in table.actions_box.children for b in row.children
            for c in b._dom_classes if c.startswith("pushluck-action-")}


@pytest.mark.parametrize("error", FAILURES, ids=lambda e: type(e).__name__)
def test_a_failing_click_on_the_card_table_leaves_one_line(
        error: Exception, caplog: pytest.LogCaptureFixture) -> None:
    table = CardTable("lost-cities", seats=("human", "human"), seed=3, background=False)
    table.show_hand.click()
    action = "discard:" + table.engine.hand(0)[0].code
    log = list(table.engine.log)
    with caplog.at_level(logging.DEBUG), Boom(table.engine, error):
        _card_buttons(table)[action_class(action)].click()
    _no_traceback(caplog)
    assert table.message and "\n" not in table.message
    assert "pushluck-message-error" in table.message_html.value
    if isinstance(error, ValueError):
        assert table.message == " ".join(str(error).split())
    else:
        assert table.message.startswith("Something went wrong") and "Error" not in table.message
    assert table.engine.log == log
    _card_buttons(table)[action_class(action)].click()   # the game goes on
    assert len(table.engine.log) == len(log) + 1
    assert "pushluck-message-error" not in table.message_html.value


class BrokenBot:
    def choose(self, _engine: Any) -> str:
        raise RuntimeError("the bot fell over")


def test_a_failing_bot_in_the_worker_leaves_one_line_and_new_game_works() -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=2)
    table.wait()
    real = table.bots[1]
    table.bots[1] = BrokenBot()
    hand = table.engine.hand(0)
    table.click("discard:" + hand[0].code)
    table.click("draw:deck")
    table.wait_for_bots()
    assert not table.thinking and table.message.startswith("Something went wrong")
    assert "pushluck-message-error" in table.message_html.value
    table.bots[1] = real
    table.new_game_button.click()                # New game: a clean, playable game
    table.wait()
    assert table.engine.log == [] and _card_buttons(table)


# ---- the bots' runner ----------------------------------------------------------------------
class Counter:
    """A stand-in engine: player 1 is the bot; each bot move counts down to the human's turn."""

    def __init__(self, bot_moves: int) -> None:
        self.left = bot_moves
        self.is_over = False

    @property
    def current_player(self) -> int:
        return 1 if self.left else 0

    def act(self, action: str) -> list[str]:
        self.left -= 1
        return [f"bot: {action}"]


class Echo:
    def choose(self, engine: Counter) -> str:
        return str(engine.left)


def test_the_runner_is_idle_only_after_the_last_position_is_shown() -> None:
    shown: list[list[str]] = []
    lock = threading.RLock()
    runner = BotRunner("test-bots", lock, show_error=pytest.fail)
    moves: list[tuple[int, str]] = []

    def on_done(lines: list[str]) -> None:
        time.sleep(0.2)                          # a slow refresh: wait() must wait for it
        shown.append(list(lines))

    engine = Counter(3)
    runner.start(engine, {1: Echo()}, ["human: draw"],  # type: ignore[arg-type]
                 on_move=lambda _e, player, action: moves.append((player, action)),
                 on_done=on_done)
    runner.wait(30)
    assert shown == [["human: draw", "bot: 3", "bot: 2", "bot: 1"]]
    assert moves == [(1, "3"), (1, "2"), (1, "1")] and not runner.thinking
    runner.close()


def test_a_superseded_chain_is_dropped() -> None:
    release = threading.Event()

    class Waits:
        def choose(self, engine: Counter) -> str:
            release.wait(30)
            return "late"

    runner = BotRunner("test-bots", threading.RLock(), show_error=pytest.fail)
    engine = Counter(1)
    done: list[list[str]] = []
    runner.start(engine, {1: Waits()}, [], on_move=lambda *_: None,  # type: ignore[arg-type]
                 on_done=done.append)
    assert runner.thinking
    runner.stop()                                # a new game
    assert not runner.thinking
    release.set()
    runner.wait(30)
    time.sleep(0.2)                              # time for a wrongly delivered move to land
    assert engine.left == 1 and done == []
    runner.close()


def test_a_table_opens_on_the_game_the_games_name() -> None:
    name = table_game()
    assert get_game(name).opens_table and get_game(name).has_turn_model
    assert GameTable(background=False).game == name
    assert play(background=False).game == name  # type: ignore[attr-defined]
