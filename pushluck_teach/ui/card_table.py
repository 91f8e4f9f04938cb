"""A table for card-play games (a game without a draw/stop turn, such as Lost Cities).

:class:`CardTable` names no game.  It draws what the engine's :meth:`view` lists in
``TableView.zones`` (hands, each side's piles, shared piles, the deck), one button per legal
action (``Engine.legal_actions`` / ``Engine.action_label``), the scores and the log; the game's
own bots (``GameSpec.bots``) move at once after a human.  Hot seat: with two human seats each
hand stays hidden until its player presses "Show my hand".

Beside the table, the analysis panel asks the engine about one subject at a time
(``Engine.analysis_subjects()``, ``Engine.analysis(subject)``, a report with ``headline``,
``text_lines()`` and ``chart_bars()``) and shows two Plotly figures updated in place, plus the
shell command that prints the same numbers (``Engine.position_flags(subject)``).  The report and
the bots' moves are computed in worker threads unless ``background=False`` (tests); a click
while a bot plays is refused with a message.  Every handler is guarded: a bad click leaves a
one-line message and the game unchanged.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
from traitlets import Dict, Int, Tuple, Unicode

from pushluck_teach.games.base import (
    CardFace,
    CardZone,
    Engine,
    GameSpec,
    RulesError,
    get_game,
)
from pushluck_teach.ui.background import LatestOnly
from pushluck_teach.ui.figures import (
    TWO_LINE_TITLE_MARGIN,
    base_layout,
    live_figure,
    sync_widget_state,
    wrapped_title,
)
from pushluck_teach.ui.projector import ProjectorSwitch, chart_row, fold
from pushluck_teach.ui.table import action_class
from pushluck_teach.ui.theme import FONT_STACK, OKABE_ITO, STYLESHEET

HUMAN = "human"
LOG_LINES_SHOWN = 12

#: Suit colours by suit index (a face also carries its suit's name, never colour alone).
SUIT_COLOURS: tuple[tuple[str, str], ...] = (
    (OKABE_ITO["yellow"], "#1B1B1B"),
    (OKABE_ITO["blue"], "#FFFFFF"),
    ("#FFFFFF", "#1B1B1B"),
    (OKABE_ITO["bluish_green"], "#FFFFFF"),
    (OKABE_ITO["vermillion"], "#FFFFFF"),
    (OKABE_ITO["reddish_purple"], "#FFFFFF"),
    (OKABE_ITO["sky_blue"], "#1B1B1B"),
    (OKABE_ITO["orange"], "#1B1B1B"),
)

CARD_TABLE_CSS = f"""
<style>
.pushluck-cardtable {{ font-family: {FONT_STACK}; }}
.pushluck-zone {{ display: inline-flex; flex-direction: column; margin: 4px 8px 4px 0;
  vertical-align: top; min-width: 64px; }}
.pushluck-zone-label {{ font-size: 13px; color: #333; }}
.pushluck-zone-cards {{ display: flex; gap: 4px; flex-wrap: wrap; min-height: 58px; }}
.pushluck-face {{ box-sizing: border-box; width: 52px; height: 58px; border: 2px solid #333;
  border-radius: 7px; display: flex; flex-direction: column; align-items: center;
  justify-content: center; font-weight: 700; font-size: 18px; line-height: 1.1; }}
.pushluck-face .pl-suit {{ font-size: 10px; font-weight: 400; }}
.pushluck-back {{ background: repeating-linear-gradient(45deg, #555, #555 4px, #777 4px,
  #777 8px); color: #fff; }}
.pushluck-zone-row {{ margin: 6px 0; }}
.pushluck-zone-row-title {{ font-weight: 700; font-size: 15px; }}
/* the board and the odds side by side where they fit (charts as wide as the panel) */
.pl-cardtable-main {{ flex-wrap: wrap; column-gap: 16px; }}
.pl-cardtable-main > .pl-cardtable-play {{ flex: 1 1 560px; min-width: 0; }}
.pl-cardtable-main > .pushluck-analysis {{ flex: 1 1 460px; min-width: 0; }}
/* projector mode (ProjectorSwitch): board | odds with the two charts side by side */
.pl-projector-table .pl-cardtable-main {{ flex-wrap: nowrap; }}
.pl-projector-table .pl-cardtable-main > .pl-cardtable-play {{ flex: 5 1 0; }}
.pl-projector-table .pl-cardtable-main > .pushluck-analysis {{ flex: 6 1 0; }}
/* the buttons above the board (no scrolling to play); the board compact */
.pl-projector-table .pl-cardtable-play > .pl-cardtable-actions {{ order: -1; }}
.pl-projector-table .pl-cardtable-play > .pushluck-status-box {{ order: -2; }}
.pl-projector-table .pl-cardtable-play > .pl-cardtable-message {{ order: -1; }}
.pl-projector-table .pushluck-action {{ width: auto !important; padding: 0 10px; }}
.pl-projector-table .pushluck-zone-row {{ margin: 0; }}
.pl-projector-table .pushluck-zone {{ margin: 1px 8px 1px 0; }}
.pl-projector-table .pushluck-zone-label {{ font-size: 14px; }}
.pl-projector-table .pushluck-zone-cards {{ min-height: 0; }}
.pl-projector-table .pushluck-face {{ width: 46px; height: 54px; font-size: 19px; }}
.pl-projector-table .pushluck-status {{ font-size: 20px; }}
.pl-projector-table .pushluck-headline {{ font-size: 21px; line-height: 1.35; }}
</style>
"""


def face_html(face: CardFace) -> str:
    """One card face: its code large, its suit's name small; read aloud as its label."""
    background, ink = SUIT_COLOURS[face.suit % len(SUIT_COLOURS)]
    label = escape(face.label)
    return (f'<div class="pushluck-face" role="img" aria-label="{label}" title="{label}" '
            f'data-card="{escape(face.code)}" style="background:{background};color:{ink}">'
            f'<span aria-hidden="true">{escape(face.code)}</span>'
            f'<span class="pl-suit" aria-hidden="true">{escape(face.suit_name)}</span></div>')


def zone_html(zone: CardZone) -> str:
    """A zone: its label and its cards (face down: a back with the number of cards)."""
    if zone.hidden:
        body = (f'<div class="pushluck-face pushluck-back" role="img" '
                f'aria-label="{zone.count} cards face down">{zone.count}</div>')
    elif zone.faces:
        body = "".join(face_html(face) for face in zone.faces)
    elif zone.cards:
        body = " ".join(escape(code) for code in zone.cards)
    else:
        body = '<span class="pushluck-empty" style="font-size:13px">empty</span>'
    return (f'<div class="pushluck-zone" role="group" aria-label="{escape(zone.label)}" '
            f'data-zone="{escape(zone.key)}"><span class="pushluck-zone-label">'
            f'{escape(zone.label)} ({zone.count})</span>'
            f'<div class="pushluck-zone-cards">{body}</div></div>')


def zones_html(zones: Sequence[CardZone], players: int, viewer: int | None) -> str:
    """The table seen from ``viewer``: the others' zones on top, the shared ones in the middle,
    the viewer's own zones at the bottom."""
    order = [p for p in range(players) if p != viewer] + ([viewer] if viewer is not None else [])
    rows = []
    for player in order[:-1] if viewer is not None else order:
        rows.append((f"Player {player + 1}", [z for z in zones if z.owner == player]))
    rows.append(("Shared", [z for z in zones if z.owner is None]))
    if viewer is not None:
        rows.append((f"Player {viewer + 1} (you)", [z for z in zones if z.owner == viewer]))
    return "".join(
        f'<div class="pushluck-zone-row"><div class="pushluck-zone-row-title">{escape(title)}'
        f'</div>{"".join(zone_html(z) for z in row)}</div>' for title, row in rows if row)


def command_line(game: str, flags: dict[str, str]) -> str:
    """The ``pushluck odds`` command that prints the panel's numbers."""
    parts = ["pushluck", "odds", game]
    for name, value in flags.items():
        parts += ["--" + name.replace("_", "-"), value]
    return " ".join(shlex.quote(part) for part in parts) + " --exact"


class CardTable(widgets.VBox):
    """A card-play game against the game's bots or a classmate (see the module docstring).

    Traitlets: ``game``, ``seats`` (``"human"`` or one of the game's bot names, per seat),
    ``seed``, ``options`` (rule options), ``subject`` (what the analysis panel shows) and
    ``message`` (the last message on the page).
    """

    game = Unicode("")
    seats = Tuple()
    seed = Int(0)
    options = Dict()
    subject = Unicode("")
    message = Unicode("")

    def __init__(self, game: str, *, seats: Sequence[str] = (HUMAN, "odds"), seed: int = 0,
                 options: dict[str, Any] | None = None, background: bool = True,
                 projector: bool | None = False) -> None:
        """``projector``: start in projector mode (True), not (False), or as the page's address
        says (None: ``?projector``; see :mod:`pushluck_teach.ui.projector`)."""
        super().__init__()
        self.add_class("pushluck-cardtable")
        self.spec: GameSpec = get_game(game)
        if self.spec.has_turn_model:
            raise RulesError(f"{game} has a draw/stop turn: play it on the GameTable")
        self.background = background
        self._worker: LatestOnly[Any] = LatestOnly("pushluck-card-analysis")
        self._bot_worker: LatestOnly[list[str]] = LatestOnly("pushluck-card-bots")
        self.thinking = False
        self._settled = threading.Event()   # set whenever no bot move is pending
        self._settled.set()
        self.header = widgets.HTML(STYLESHEET + CARD_TABLE_CSS)
        self.status = widgets.HTML()
        self.table_html = widgets.HTML()
        self.message_html = widgets.HTML()
        self.show_hand = widgets.Button(description="Show my hand",
                                        tooltip="Hot seat: the next player looks at the hand")
        self.show_hand.add_class("pushluck-show-hand")
        self.show_hand.on_click(lambda _: self._guard(self._reveal))
        self.actions_box = widgets.VBox()
        self.new_game_button = widgets.Button(description="New game")
        self.new_game_button.on_click(lambda _: self._guard(self.new_game))
        self.log_html = widgets.HTML()
        self.subject_buttons = widgets.ToggleButtons(description="Odds for")
        self.subject_buttons.observe(self._on_subject, names="value")
        self.headline = widgets.HTML()
        self.numbers = widgets.HTML()
        self.cli_html = widgets.HTML()
        def chart_layout(title: str) -> dict[str, Any]:
            # a smaller title on two lines: the two charts share half a projector screen
            layout = base_layout(title, margin=TWO_LINE_TITLE_MARGIN)
            layout["title"]["font"] = {"size": 13}
            return layout

        self.score_figure = live_figure([go.Bar(x=[], y=[], text=[], textposition="outside",
                                                marker={"color": OKABE_ITO["blue"]})],
                                        chart_layout("Final score"))
        self.card_figure = live_figure([go.Bar(x=[], y=[], text=[], textposition="outside",
                                               marker={"color": OKABE_ITO["bluish_green"]})],
                                       chart_layout("Chance of each missing card"),
                                       carry_bundle=False)
        panel = widgets.VBox([self.subject_buttons, self.headline,
                              chart_row(self.score_figure, self.card_figure), self.numbers,
                              self.cli_html])
        panel.add_class("pushluck-analysis")
        play = widgets.VBox([self.status, self.table_html, self.message_html, self.show_hand,
                             self.actions_box, self.new_game_button, self.log_html])
        play.add_class("pl-cardtable-play")
        self.status.add_class("pushluck-status-box")
        self.message_html.add_class("pl-cardtable-message")
        self.actions_box.add_class("pl-cardtable-actions")
        main = widgets.HBox([play, panel])
        main.add_class("pl-cardtable-main")
        # projector mode: the log, the number lines and the command fold away (one click)
        fold(self.log_html, self.numbers, self.cli_html)
        self.projector_switch = ProjectorSwitch(
            on=projector, charts=(self.score_figure, self.card_figure),
            on_change=[self._projector_changed])
        if self.projector_switch.on:
            self._projector_changed(True)
        self.children = [self.header, self.projector_switch, main]
        self.game, self.seats, self.seed = game, tuple(seats), seed
        self.options = dict(options or {})
        self.new_game()

    def _projector_changed(self, on: bool) -> None:
        if on:
            self.add_class("pl-projector-table")
        else:
            self.remove_class("pl-projector-table")

    # -- game flow -----------------------------------------------------------------------------

    def new_game(self) -> None:
        """Deal a new game with the current seats, seed and options."""
        seats = tuple(str(s).strip().lower() for s in self.seats)
        if len(seats) < self.spec.min_players or len(seats) > self.spec.max_players:
            raise RulesError(f"{self.spec.name} takes {self.spec.min_players}-"
                             f"{self.spec.max_players} players, not {len(seats)}")
        for seat in seats:
            if seat != HUMAN and seat not in self.spec.bots:
                raise RulesError(f"unknown seat {seat!r} (human, {', '.join(self.spec.bots)})")
        variant = self.spec.variant(self.options)
        self.engine: Engine = self.spec.new_engine(variant, players=len(seats), seed=self.seed)
        self.bots = {i: self.spec.bots[s]() for i, s in enumerate(seats) if s != HUMAN}
        self.humans = [i for i, s in enumerate(seats) if s == HUMAN]
        self.revealed = len(self.humans) < 2
        subjects = self.engine.analysis_subjects()
        self.subject_buttons.unobserve(self._on_subject, names="value")
        self.subject_buttons.options = [(label, key) for label, key in subjects]
        self.subject = self.subject if self.subject in {k for _, k in subjects} else \
            (subjects[0][1] if subjects else "")
        self.subject_buttons.value = self.subject or None
        self.subject_buttons.observe(self._on_subject, names="value")
        self._bot_worker.supersede()
        self.thinking = False
        self._settled.set()
        self._let_bots_move([f"New game, seed {self.seed}."])

    def viewer(self) -> int | None:
        """Whose hand is face up: the only human; with two, the mover once revealed."""
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            return self.engine.current_player if self.revealed else None
        return None

    def click(self, action: str) -> None:
        """A human's action (what a button does)."""
        self._guard(lambda: self._act(action))

    def _act(self, action: str) -> None:
        engine = self.engine
        if engine.is_over:
            raise RulesError("the game is over: press New game")
        if self.thinking:
            raise RulesError("wait: the bot is playing")
        if engine.current_player not in self.humans:
            raise RulesError(f"it is Player {engine.current_player + 1}'s (a bot's) turn")
        if not self.revealed:
            raise RulesError(f"Player {engine.current_player + 1}: show your hand first")
        before = engine.current_player
        lines = engine.act(action)
        if len(self.humans) >= 2 and (engine.current_player != before or engine.is_over):
            self.revealed = False
        self._let_bots_move(lines)

    def _let_bots_move(self, lines: list[str]) -> None:
        """The bots' moves until a human is to move: at once without ``background``, else in a
        worker thread (a search bot may take longer than a click should), the page showing
        the human's move meanwhile."""
        engine = self.engine
        if not self.background or engine.is_over or engine.current_player not in self.bots:
            lines = lines + self._run_bots()
            self.message = " ".join(lines[-3:])
            self.render()
            return
        self.thinking = True
        self._settled.clear()
        self.message = " ".join(lines[-3:] + [f"Player {engine.current_player + 1} is playing…"])
        self.render()

        def done(future: Future[list[str]]) -> None:
            try:
                self.message = " ".join((lines + future.result())[-3:])
            except RulesError as exc:
                self.message = str(exc)
            self.thinking = False
            self.render()
            self._settled.set()

        self._bot_worker.submit(self._run_bots, done)

    def _run_bots(self) -> list[str]:
        lines: list[str] = []
        engine = self.engine
        while not engine.is_over and engine.current_player in self.bots:
            lines += engine.act(self.bots[engine.current_player].choose(engine))
        return lines

    def _reveal(self) -> None:
        self.revealed = True
        self.message = f"Player {self.engine.current_player + 1}'s hand is shown."
        self.render()

    def _guard(self, work: Any) -> None:
        try:
            work()
        except RulesError as exc:
            self.message = str(exc)
            self._render_message(error=True)

    def _on_subject(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.subject = change["new"]
            self._guard(self._render_analysis)

    # -- rendering -----------------------------------------------------------------------------

    def render(self) -> None:
        engine = self.engine
        viewer = self.viewer()
        view = engine.view(viewer)
        mover = engine.current_player
        rows = "".join(
            f'<tr class="{"pl-to-move" if p == mover and not engine.is_over else ""}">'
            f"<td>Player {p + 1} ({escape(self.seats[p])})</td><td>{view.scores[p]}</td>"
            f"<td>{escape('; '.join(view.player_lines[p]) if view.player_lines else '')}</td>"
            "</tr>" for p in range(engine.players))
        state = view.finished_text or (f"Player {mover + 1} to move: "
                                       f"{escape(' '.join(view.turn_lines))}")
        self.status.value = (
            f'<div class="pushluck-status">{escape(view.round_text)} · deck '
            f'{view.draw_pile} cards · {state}</div><div class="pushluck-scores"><table>'
            f"<tr><th>player</th><th>game score</th><th>this match</th></tr>{rows}</table></div>")
        self.table_html.value = zones_html(view.zones, engine.players, viewer)
        self.show_hand.layout.display = "" if (len(self.humans) >= 2 and not self.revealed
                                               and not engine.is_over) else "none"
        self._render_actions(viewer)
        self._render_message()
        self.log_html.value = ('<div class="pushluck-log">' + "<br>".join(
            escape(line) for line in engine.log[-LOG_LINES_SHOWN:]) + "</div>")
        self._render_analysis()

    def _render_actions(self, viewer: int | None) -> None:
        engine = self.engine
        legal = engine.legal_actions()
        if engine.is_over or engine.current_player not in self.humans or viewer is None:
            self.actions_box.children = ()
            return
        groups: dict[str, list[widgets.Button]] = {}
        for action in legal:
            button = widgets.Button(description=engine.action_label(action),
                                    tooltip=engine.action_label(action))
            button.add_class("pushluck-action")
            button.add_class(action_class(action))
            button.on_click(lambda _, a=action: self.click(a))
            groups.setdefault(action.partition(":")[0], []).append(button)
        self.actions_box.children = tuple(widgets.HBox(row, layout={"flex_flow": "row wrap"})
                                          for row in groups.values())

    def _render_message(self, error: bool = False) -> None:
        cls = "pushluck-message pushluck-message-error" if error else "pushluck-message"
        self.message_html.value = f'<div class="{cls}" role="status">{escape(self.message)}</div>'

    def _render_analysis(self) -> None:
        engine = self.engine
        if engine.is_over or not self.subject:
            self._show_report(None, "The game is over." if engine.is_over else "")
            return
        if engine.current_player in self.bots:
            self._show_report(None, f"Player {engine.current_player + 1} (a bot) is playing.")
            return
        if self.viewer() != engine.current_player:
            self._show_report(None, "The odds show the hand of the player to move: "
                                    "show your hand first.")
            return
        subject = self.subject
        flags = engine.position_flags(subject)
        self._worker.supersede()
        if not self.background:
            self._show_report(engine.analysis(subject), "", flags)
            return
        self.headline.value = '<div class="pushluck-headline">Computing the exact odds…</div>'

        def work() -> Any:
            return engine.analysis(subject)

        def done(future: Future[Any]) -> None:
            try:
                self._show_report(future.result(), "", flags)
            except RulesError as exc:
                self._show_report(None, str(exc))

        self._worker.submit(work, done)

    def _show_report(self, report: Any, note: str, flags: dict[str, str] | None = None
                     ) -> None:
        figures = (self.score_figure, self.card_figure)
        if report is None:
            self.headline.value = f'<div class="pushluck-headline">{escape(note)}</div>'
            self.numbers.value = self.cli_html.value = ""
            for fig in figures:
                with fig.batch_update():
                    fig.data[0].x, fig.data[0].y, fig.data[0].text = [], [], []
            sync_widget_state(*figures)
            return
        self.headline.value = f'<div class="pushluck-headline">{escape(report.headline)}</div>'
        for fig, chart in zip(figures, report.chart_bars(), strict=False):
            with fig.batch_update():
                fig.data[0].x = list(chart.labels)
                fig.data[0].y = [float(v) for v in chart.values]
                fig.data[0].text = list(chart.texts)
                fig.layout.title.text = wrapped_title(chart.title)
                fig.layout.xaxis.title.text = chart.x_title
                fig.layout.yaxis.title.text = chart.y_title
                fig.layout.xaxis.type = "category"
        sync_widget_state(*figures)
        self.numbers.value = ('<div class="pushluck-numbers">' + "<br>".join(
            escape(line) for line in report.text_lines()) + "</div>")
        if flags is not None:
            self.cli_html.value = ('<div>Check it yourself in a terminal:<br><code class='
                                   f'"pushluck-cli">{escape(command_line(self.spec.name, flags))}'
                                   "</code></div>")

    def wait(self) -> None:
        """Block until the bots' moves and the panel's computation have finished (tests)."""
        self._bot_worker.wait()
        self._settled.wait(timeout=60)
        self._worker.wait()
