"""What both game tables share: the bots' runner, the click guard and the command line.

The draw/stop table (:class:`~pushluck_teach.ui.table.GameTable`) and the card table
(:class:`~pushluck_teach.ui.card_table.CardTable`) draw different games, but they let bots
move the same way (:class:`BotRunner`), turn a failed click into one line the same way
(:class:`ClickGuard`) and write the "check it yourself" command the same way
(:func:`odds_arguments`, :func:`command_text`).
"""

from __future__ import annotations

import contextlib
import functools
import shlex
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import Engine, RulesError
from pushluck_teach.solve.turn import Cancelled, watching
from pushluck_teach.ui.background import LatestOnly

#: a seat a person plays (every other seat is a bot)
HUMAN = "human"
#: errors that say in words what was wrong with a click (shown as they are); anything else is
#: a failure nobody planned for (:func:`unexpected_text`)
KNOWN_ERRORS: tuple[type[Exception], ...] = (RulesError, CardError, ValueError)
#: the most moves the bots make in a row before the table gives up (a game that never ends)
BOT_MOVE_LIMIT = 100_000


# ---- the error guard ---------------------------------------------------------------------------
def unexpected_text(exc: BaseException) -> str:
    """A failure nobody planned for, in words a student can pass on to the teacher (no
    Python names on the page)."""
    detail = str(exc).strip()
    return ("Something went wrong on this page" + (f" ({detail})" if detail else "")
            + ": press New game to start again, and tell your teacher.")


def error_line(exc: BaseException) -> str:
    """The one line a failed click leaves on the page: a known error's own words, else
    :func:`unexpected_text`."""
    known = isinstance(exc, KNOWN_ERRORS) and str(exc).strip()
    return " ".join((str(exc) if known else unexpected_text(exc)).split())


@dataclass(frozen=True)
class ClickGuard:
    """Runs a handler so that a click never leaves a traceback: any error becomes one line
    handed to ``show_error`` (:func:`error_line`), and the game stays as the handler left it.
    With a ``lock``, the handler runs holding it (a table's engine never changes under a
    bot's move applied in a worker thread)."""

    show_error: Callable[[str], None]
    lock: contextlib.AbstractContextManager[Any] | None = None

    def run(self, work: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """``work(*args, **kwargs)``, its error shown as one line."""
        try:
            with self.lock if self.lock is not None else contextlib.nullcontext():
                work(*args, **kwargs)
        except Exception as exc:  # never a traceback on the page
            self.show_error(error_line(exc))

    def wrap(self, handler: Callable[..., Any]) -> Callable[..., None]:
        """``handler`` run through :meth:`run` (for ``on_click`` and ``observe``)."""

        @functools.wraps(handler)
        def guarded(*args: Any, **kwargs: Any) -> None:
            self.run(handler, *args, **kwargs)

        return guarded


# ---- the command line --------------------------------------------------------------------------
def format_option(value: Any) -> str:
    """An option value as the text a learner would type for it."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list | frozenset | set):
        return ",".join(str(v) for v in value)
    return str(value)


def odds_arguments(game: str, flags: Mapping[str, Any],
                   options: Mapping[str, Any] | None = None, *, rules_file: str | None = None,
                   objective: str | None = None, exact: bool = False) -> list[str]:
    """The words of the ``pushluck odds`` command for a position: ``flags`` as ``--name
    value`` (``drawn_cards`` → ``--drawn-cards``), then ``--rules FILE``, each option as
    ``--option key=value``, ``--objective``, ``--exact``."""
    words = ["pushluck", "odds", game]
    for name, value in flags.items():
        words += [f"--{name.replace('_', '-')}", str(value)]
    if rules_file is not None:
        words += ["--rules", rules_file]
    for key, value in (options or {}).items():
        words += ["--option", f"{key}={format_option(value)}"]
    if objective is not None:
        words += ["--objective", objective]
    if exact:
        words.append("--exact")
    return words


def command_text(words: Sequence[str]) -> str:
    """The command as a terminal takes it: each word quoted only where a shell needs it, so
    that pasting it gives back exactly ``words`` (spaces, quotes, ``?`` and all)."""
    return shlex.join(words)


# ---- the bots' runner --------------------------------------------------------------------------
class Chooser(Protocol):
    """A bot: picks the action of the player to move."""

    def choose(self, engine: Any) -> str: ...


class BotRunner:
    """Plays the bots' moves off the click path, one move per job in a worker thread.

    Why this is safe: the worker only *chooses*.  ``bot.choose(engine)`` reads the engine while
    nothing changes it: whenever a bot is to move the table refuses a human's action, and a new
    game (or a replay) does not touch this engine, it replaces the table's engine and calls
    :meth:`stop`, which supersedes the job (a running solve stops at its next checkpoint with
    :class:`~pushluck_teach.solve.turn.Cancelled`).  The engine is changed in one place only,
    :meth:`_apply`, holding ``lock`` (which the table's click guard also holds) and only if the
    job is still the latest; a stale choice is dropped.  The next bot's job starts from there,
    so the bots of one chain never overlap.

    The table is told through callbacks: ``show_thinking(player)`` as each bot starts (``None``
    when nobody thinks any more), ``show_progress(fraction)`` while a solve runs,
    ``on_move(engine, player, action)`` after each move, ``on_done(lines)`` once a human is to
    move or the game is over, ``show_error(line)`` if a bot fails.  :meth:`wait` returns only
    after ``on_done`` (or ``show_error``) has run: the position after the bots' last move is
    shown by then.
    """

    def __init__(self, thread_name: str, lock: contextlib.AbstractContextManager[Any], *,
                 show_error: Callable[[str], None],
                 show_thinking: Callable[[int | None], None] | None = None,
                 show_progress: Callable[[float], None] | None = None,
                 move_limit: int = BOT_MOVE_LIMIT) -> None:
        self._jobs: LatestOnly[str] = LatestOnly(thread_name)
        self._lock = lock
        self._show_thinking = show_thinking
        self._show_error = show_error
        self._show_progress = show_progress
        self._move_limit = move_limit
        self._thinking = False
        self._idle = threading.Event()  # set once no bot thinks and the result is shown
        self._idle.set()

    @property
    def thinking(self) -> bool:
        """Whether a bot is choosing its move in the worker."""
        return self._thinking

    @staticmethod
    def bot_to_move(engine: Engine, bots: Mapping[int, Chooser]) -> bool:
        return not engine.is_over and engine.current_player in bots

    def play_now(self, engine: Engine, bots: Mapping[int, Chooser],
                 on_move: Callable[[Engine, int, str], None]) -> list[str]:
        """The bots' moves inside the call (a table without ``background``), until a human is
        to move or the game is over; the log lines they wrote."""
        lines: list[str] = []
        for _ in range(self._move_limit):
            if not self.bot_to_move(engine, bots):
                return lines
            player = engine.current_player
            action = bots[player].choose(engine)
            lines.extend(engine.act(action))
            on_move(engine, player, action)
        if self.bot_to_move(engine, bots):
            raise RulesError(f"the bots stopped after {self._move_limit} moves")
        return lines

    def start(self, engine: Engine, bots: Mapping[int, Chooser], lines: list[str], *,
              on_move: Callable[[Engine, int, str], None],
              on_done: Callable[[list[str]], None], moves: int = 0) -> None:
        """Let the bot to move choose in the worker; its move and the next bots' follow, then
        ``on_done(lines)`` with their log lines added to ``lines``."""
        player = engine.current_player
        bot = bots[player]
        generation = self._jobs.supersede()
        self._thinking = True
        self._idle.clear()
        if self._show_thinking is not None:
            self._show_thinking(player)
        begun = time.monotonic()

        def check(_solved: int) -> None:
            if not self._jobs.is_latest(generation):
                raise Cancelled("a newer game was started")
            if self._show_progress is not None:
                self._show_progress(((time.monotonic() - begun) % 2.0) / 2.0)

        def choose() -> str:
            with watching(check):
                return bot.choose(engine)

        def apply(done: Future[str]) -> None:
            self._apply(generation, engine, bots, done, lines, on_move, on_done, moves)

        self._jobs.submit(choose, apply)

    def _apply(self, generation: int, engine: Engine, bots: Mapping[int, Chooser],
               done: Future[str], lines: list[str],
               on_move: Callable[[Engine, int, str], None],
               on_done: Callable[[list[str]], None], moves: int) -> None:
        """Play a bot's chosen move if its job is still the latest (the one place a bot changes
        the engine), then the next bot's job, or ``on_done`` and only then idle."""
        try:
            with self._lock:
                if not self._jobs.is_latest(generation):
                    return  # superseded while it thought: dropped
                try:
                    action = done.result()
                except Cancelled:
                    return
                except Exception:
                    self._stop_thinking()
                    raise
                player = engine.current_player
                lines.extend(engine.act(action))
                on_move(engine, player, action)
                if self.bot_to_move(engine, bots) and moves + 1 < self._move_limit:
                    self.start(engine, bots, lines, on_move=on_move, on_done=on_done,
                               moves=moves + 1)
                    return
                self._stop_thinking()  # idle only once the position is shown (finally)
                if self.bot_to_move(engine, bots):
                    raise RulesError(f"the bots stopped after {self._move_limit} moves")
                on_done(lines)
        except Exception as exc:  # never a traceback on the page, nor a silent worker
            if self._jobs.is_latest(generation) and self._thinking:
                self._stop_thinking()
            self._show_error(error_line(exc))
        finally:
            if not self._thinking:
                self._idle.set()

    def _stop_thinking(self) -> None:
        self._thinking = False
        if self._show_thinking is not None:
            self._show_thinking(None)

    def stop(self) -> None:
        """Supersede the bots' work in progress: its result is dropped, a running solve stops
        at its next checkpoint."""
        self._jobs.supersede()
        self._stop_thinking()
        self._idle.set()

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the bots have finished moving and the position after their last move
        is shown (tests, benchmarks); at once when no bot is thinking."""
        if not self._idle.wait(timeout):
            raise TimeoutError(f"the bots were still thinking after {timeout} s")

    def close(self) -> None:
        """Stop the worker thread (a pending choice is cancelled)."""
        self._jobs.close()
