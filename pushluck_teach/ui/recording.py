"""The "Game record" area of a table: the game written down as it is played, to download, load
back, replay step by step and share as a ``?game=`` link.

A table hands every new engine to :meth:`RecordingArea.start` and reports each move just played
with :meth:`RecordingArea.moved` (``player`` is who moved, read before the move); the area keeps a
:class:`~pushluck_teach.games.record.RecordBuilder`.  The record itself (its JSON, its checks,
its link token) is :mod:`pushluck_teach.games.record`'s; this module only shows it:

* **Download**: a ``data:`` link holding the JSON (it works in Voilà and in the static site,
  where there is no server to fetch a file from);
* **Load**: a file (``FileUpload``) or pasted text (the JSON, a ``?game=`` link or its token);
  the table then shows the record's positions, **◀ Back** / **Forward ▶** step through them;
* **Copy link**: the page's address with ``?game=TOKEN``; a page opened with one loads it (the
  address is read in the browser, as the Variant Lab reads ``?rules=``).

A record that cannot be used (damaged, another game's, rules that no longer fit) leaves one line
under the buttons; the game on the table is not touched.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from html import escape
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import ipywidgets as widgets

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import Engine, GameSpec, RulesError
from pushluck_teach.games.record import (
    GameRecord,
    RecordBuilder,
    RecordError,
    Replay,
    Seat,
    record_from_token,
    record_to_token,
)
from pushluck_teach.ui.projector import fold
from pushluck_teach.ui.table_parts import HUMAN

#: what the area shows while nothing is recorded (a seed the record cannot hold)
NOT_RECORDED = "This game is not recorded"
#: the Download link drawn as a button (the page's buttons are 1px-bordered boxes)
LINK_BUTTON_STYLE = ("display:inline-block;padding:2px 10px;border:1px solid #0072b2;"
                     "border-radius:3px;color:#0072b2;text-decoration:underline;"
                     "font-weight:600;margin:0 6px")


class ReplayHost(Protocol):
    """What the area needs of its table."""

    spec: GameSpec

    def show_record(self, record: GameRecord) -> None:
        """Take the record's rules, seats and seed (the table's settings follow the record)."""

    def show_replay_position(self, engine: Engine, note: str) -> None:
        """Show ``engine``'s position, nobody to play it (a replay)."""


def seats_for_record(seats: tuple[str, ...]) -> list[Seat]:
    """The table's seat texts as record seats: a person, or a bot with its policy."""
    return [Seat(f"Player {i + 1}") if seat == HUMAN else
            Seat(f"Player {i + 1} (bot: {seat})", seat) for i, seat in enumerate(seats)]


def table_seats(record: GameRecord) -> tuple[str, ...]:
    """The record's seats as the table's seat texts."""
    return tuple(HUMAN if seat.policy is None else seat.policy for seat in record.seats)


def data_link(text: str, filename: str, label: str) -> str:
    """An ``<a download>`` link that saves ``text`` (JSON) as ``filename`` without a server."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a class="pushluck-record-download" download="{escape(filename, quote=True)}" '
            f'href="data:application/json;base64,{payload}" style="{LINK_BUTTON_STYLE}" '
            f'title="Save the record as a file ({escape(filename)})">{escape(label)}</a>')


def token_from_text(text: str) -> str | None:
    """The ``game`` token in a pasted link or query string (``…?game=TOKEN``), else None."""
    stripped = text.strip()
    query = urlsplit(stripped).query if "://" in stripped else stripped.lstrip("?")
    values = parse_qs(query).get("game")
    if values:
        return values[-1]
    return None


def record_from_text(text: str) -> GameRecord:
    """A record from pasted text: its JSON, a ``?game=`` link, or the link's token alone."""
    stripped = text.strip()
    if not stripped:
        raise RecordError("game record: nothing to load (choose a file or paste a record)")
    if stripped.startswith("{"):
        return GameRecord.from_json(stripped)
    token = token_from_text(stripped)
    return record_from_token(token if token is not None else stripped)


def copy_link_button(token: str) -> str:
    """A button that copies this page's address with ``?game=TOKEN`` (built in the browser,
    which alone knows the address); where the clipboard is refused, the link is shown beside
    it to copy by hand."""
    script = ("const u = new URL(window.location.href); u.search = '?game=' + "
              "this.dataset.token; const t = u.toString(); "
              "const done = () => { this.textContent = 'Copied'; "
              "setTimeout(() => { this.textContent = 'Copy link'; }, 1500); }; "
              "if (navigator.clipboard) { navigator.clipboard.writeText(t).then(done, "
              "() => { this.nextElementSibling.textContent = t; }); } "
              "else { this.nextElementSibling.textContent = t; }")
    return (f'<button type="button" class="pushluck-copy pushluck-record-link" '
            f'data-token="{escape(token, quote=True)}" title="Copy a link that opens this game" '
            f'onclick="{escape(script, quote=True)}">Copy link</button>'
            '<code class="pushluck-record-token"></code>')


class RecordingArea(widgets.VBox):
    """The "Game record" area under a table (see the module docstring)."""

    def __init__(self, host: ReplayHost, *, on_record: Callable[[GameRecord], None] | None = None
                 ) -> None:
        self.host = host
        self.on_record = on_record
        self.builder: RecordBuilder | None = None
        self.replay: Replay | None = None
        self.step = 0
        self.title = widgets.HTML("<b>Game record</b>")
        self.download_html = widgets.HTML()
        self.download_html.add_class("pushluck-record-links")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description="Load a file")
        self.upload.add_class("pushluck-record-upload")
        self.paste = widgets.Text(description="or paste", placeholder="a record or a game link",
                                  style={"description_width": "initial"},
                                  layout=widgets.Layout(width="300px"))
        self.paste.add_class("pushluck-record-paste")
        self.load_button = widgets.Button(description="Load",
                                          tooltip="Load the pasted record or link")
        self.load_button.add_class("pushluck-record-load")
        self.back_button = widgets.Button(description="◀ Back", tooltip="One move back")
        self.back_button.add_class("pushluck-replay-back")
        self.forward_button = widgets.Button(description="Forward ▶",
                                             tooltip="One move forward")
        self.forward_button.add_class("pushluck-replay-forward")
        self.step_html = widgets.HTML()
        self.step_html.add_class("pushluck-replay-step")
        self.message_html = widgets.HTML()
        self.message_html.add_class("pushluck-record-message")
        self.replay_box = widgets.HBox([self.back_button, self.forward_button, self.step_html],
                                       layout=widgets.Layout(display="none",
                                                             flex_flow="row wrap"))
        self.replay_box.add_class("pushluck-replay")
        self.upload.observe(lambda _: self._guard(self._on_upload), names="value")
        self.load_button.on_click(lambda _: self._guard(self._on_paste))
        self.back_button.on_click(lambda _: self._guard(lambda: self.go(self.step - 1)))
        self.forward_button.on_click(lambda _: self._guard(lambda: self.go(self.step + 1)))
        super().__init__([
            widgets.HBox([self.title, self.download_html],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self.upload, self.paste, self.load_button],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.replay_box, self.message_html])
        self.add_class("pushluck-record")
        fold(self)  # projector mode: folded away with the number tables (one click opens)

    # ---- recording ----------------------------------------------------------------------
    def start(self, spec: GameSpec, engine: Engine, seats: tuple[str, ...], seed: int) -> None:
        """A new game on the table: record it from the deal."""
        self.replay = None
        self.replay_box.layout.display = "none"
        try:
            self.builder = RecordBuilder(spec, engine, seats=seats_for_record(seats), seed=seed)
        except RecordError as exc:
            self.builder = None
            self.download_html.value = f"<i>{escape(NOT_RECORDED)}: {escape(str(exc))}</i>"
            return
        self._show_links()

    def moved(self, engine: Engine, player: int, action: str) -> None:
        """``player`` just played ``action`` on ``engine`` (ignored if not the recorded game)."""
        if self.builder is not None and self.builder.engine is engine:
            self.builder.record(player, action)
            self._show_links()

    def current_record(self) -> GameRecord | None:
        """The record shown: the replayed one, else the game being played."""
        if self.replay is not None:
            return self.replay.record
        return None if self.builder is None else self.builder.to_record()

    def _show_links(self) -> None:
        record = self.current_record()
        if record is None:
            return
        text = record.to_json()
        name = f"{record.game}-seed-{record.seed}.json"
        moves = len(record.moves)
        self.download_html.value = (
            data_link(text, name, "Download") + " "
            + copy_link_button(record_to_token(record))
            + f' <span class="pushluck-record-size">{moves} move{"s" if moves != 1 else ""}'
            + (", finished" if record.finished else "") + "</span>")
        if self.on_record is not None:
            self.on_record(record)

    # ---- loading ------------------------------------------------------------------------
    def _guard(self, work: Callable[[], Any]) -> None:
        try:
            work()
        except (RulesError, CardError, ValueError) as exc:
            self.say(str(exc), error=True)
        except Exception as exc:  # never a traceback on the page
            detail = str(exc).strip()
            self.say("The record could not be read" + (f" ({detail})" if detail else "")
                     + ".", error=True)

    def say(self, text: str, *, error: bool = False) -> None:
        css = "pushluck-message pushluck-message-error" if error else "pushluck-message"
        self.message_html.value = f'<div class="{css}" role="status">{escape(text)}</div>'

    def _on_upload(self) -> None:
        files = self.upload.value
        if not files:
            return
        content = files[0]["content"]
        self.load(GameRecord.from_json(bytes(content)))

    def _on_paste(self) -> None:
        self.load(record_from_text(self.paste.value))

    def open_query(self, search: str) -> bool:
        """Load the record of a ``?game=`` query string; False when it has none."""
        token = token_from_text(search or "")
        if token is None:
            return False
        self._guard(lambda: self.load(record_from_token(token)))
        return True

    def load(self, record: GameRecord) -> None:
        """Show ``record`` on the table from its last position (a replay)."""
        if record.game != self.host.spec.name:
            raise RecordError(f"game record: this is a game of {record.spec.title}, not of "
                              f"{self.host.spec.title}: open its Play page to load it")
        replay = Replay.of(record)
        self.host.show_record(record)
        self.replay = replay
        self.builder = None
        self.replay_box.layout.display = "flex"
        self._show_links()
        self.go(len(replay) - 1)
        self.say(f"Loaded: {record.spec.title}, seed {record.seed}, {len(record.moves)} moves. "
                 "Step through it with ◀ Back and Forward ▶; New game plays again.")

    # ---- replay -------------------------------------------------------------------------
    def go(self, step: int) -> None:
        """Show the replay's position after ``step`` moves."""
        replay = self.replay
        if replay is None:
            raise RecordError("no record loaded: load one first")
        step = max(0, min(step, len(replay) - 1))
        self.step = step
        last = len(replay) - 1
        info = replay.steps[step]
        said = " ".join(info.lines[-3:]) if step else "The deal."
        note = f"Replay: move {step} of {last}. {said}".strip()
        self.host.show_replay_position(replay.engine_at(step), note)
        self.back_button.disabled = step == 0
        self.forward_button.disabled = step == last
        self.step_html.value = (f'<span class="pushluck-replay-count">move <b>{step}</b> of '
                                f"{last}</span>")


__all__ = [
    "RecordingArea", "ReplayHost", "copy_link_button", "data_link", "record_from_text",
    "seats_for_record", "table_seats", "token_from_text",
]
