"""The game table: play any registered game against bots or classmates, with a live coach.

:class:`GameTable` is an ``ipywidgets.VBox`` whose public API is its traitlets:

* ``game`` — the registered game's name (``pig``, ``hit-list``...); changing it loads that game;
* ``seats`` — one entry per player: ``"human"`` (hot-seat: humans share the screen) or a bot
  spec of :func:`pushluck_teach.sim.bots.make_bot` (``optimal``, ``cautious``, ``greedy``,
  ``threshold:T``);
* ``seed`` — the deal: the same seed replays the same game (for the same choices);
* ``options`` — the rule options (a dict of the variant dataclass fields);
* ``coach`` — ``off`` / ``after`` (numbers for the decision you just made) / ``always`` (live);
* ``message`` — the last message shown to the user (what happened, or what was wrong).

``background=False`` computes the distribution chart and the bots' moves inside the click
(tests); by default a worker thread does both, so the click returns as soon as the other three
charts are updated, and bot seats think off the click path (see :meth:`GameTable._start_bots`).

Everything the page shows comes from the engine (``Engine.view()``, ``Engine.log``,
``Engine.legal_actions()``, ``Engine.action_label()``) and from the exact solver through the
:class:`~pushluck_teach.ui.analysis.AnalysisPanel`; the table holds no game logic.  Bots move
after a human action or a new game (in the worker, with "… is thinking" and the action
buttons disabled meanwhile), and the log shows what they did.  Every handler is
guarded: bad input or an illegal click leaves a one-line message and the game unchanged.

Keyboard: every control is a native button, checkbox or text box, reachable with Tab and
activated with Enter or Space; on top, one key per action button (D draw, S stop, 1-9 the other
choices, N New game: :mod:`pushluck_teach.ui.keyboard`), stated under the buttons.  A polite
live region announces each move and the coach's numbers (:mod:`pushluck_teach.ui.announce`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
import typing
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets
from traitlets import Bool, Dict, Enum, Int, Tuple, Unicode, observe

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import (
    DICE,
    DRAW,
    STOP,
    Engine,
    GameSpec,
    OptionError,
    RulesError,
    Variant,
    coerce_option,
    get_game,
    table_game,
)
from pushluck_teach.games.policies import THRESHOLD, parse_policy
from pushluck_teach.games.rules_format import rules_to_json
from pushluck_teach.sim.bots import Bot, make_bot
from pushluck_teach.solve.whole_game.engine_chances import action_win_chances_task
from pushluck_teach.ui.analysis import COACH_MODES, AnalysisPanel, OutsideWindow
from pushluck_teach.ui.announce import draw_sentence
from pushluck_teach.ui.cards_html import cards_row_html, dice_row_html
from pushluck_teach.ui.gauge import WinChanceGauge
from pushluck_teach.ui.keyboard import (
    KeyBinding,
    keys_area,
    keys_line_html,
    press,
    table_bindings,
)
from pushluck_teach.ui.projector import ProjectorSwitch, projector_requested
from pushluck_teach.ui.recording import RecordingArea, table_seats
from pushluck_teach.ui.review_panel import ReviewPanel
from pushluck_teach.ui.table_parts import (
    HUMAN,
    BotRunner,
    ClickGuard,
    command_text,
    format_option,
    odds_arguments,
    unexpected_text,
)
from pushluck_teach.ui.theme import STYLESHEET

OBJECTIVES = ("win", "points")
#: the leave threshold assumed for another explorer whose rule is not a threshold (a human, a
#: turn-optimal bot): stated on the page and in the command
ASSUMED_THRESHOLD = 10
SEAT_CHOICES = (
    ("human (hot-seat)", "human"),
    ("bot: optimal turn", "optimal"),
    ("bot: cautious (stop at 10)", "cautious"),
    ("bot: greedy (stop at 30)", "greedy"),
    ("bot: stop at threshold T", "threshold"),
)
LOG_LINES_SHOWN = 200
ACTION_BUTTON_STYLE = {"font_size": "18px", "font_weight": "bold"}


def action_class(action: str) -> str:
    """The CSS class of an action's button: ``pushluck-action-ace-11`` for ``ace:11``."""
    return "pushluck-action-" + action.replace(":", "-")


def normalise_seat(seat: str, spec: GameSpec | None = None) -> str:
    """``human`` or a valid bot spec (``spec``'s own bots included); a one-line RulesError
    otherwise."""
    text = str(seat).strip().lower()
    if text in (HUMAN, "hot-seat", "hotseat"):
        return HUMAN
    make_bot(text, spec)
    return text


#: copies the command next to it (a click on the command also selects all of it)
COPY_BUTTON = (
    '<button type="button" class="pushluck-copy" title="Copy the command" '
    "onclick=\"const c = this.parentElement.querySelector('code.pushluck-cli'); "
    "const done = () => { this.textContent = 'Copied'; "
    "setTimeout(() => { this.textContent = 'Copy'; }, 1500); }; "
    "if (navigator.clipboard) { navigator.clipboard.writeText(c.innerText).then(done); } "
    "else { const r = document.createRange(); r.selectNodeContents(c); "
    "const s = getSelection(); s.removeAllRanges(); s.addRange(r); }\">Copy</button>"
)


def cli_line_html(game: str, flags: dict[str, str], options: dict[str, Any],
                  objective: str = "points", rules: str | None = None) -> str:
    """The "check it yourself" command for a position, as the DOM hook
    ``<code class="pushluck-cli" data-game=... data-flags=JSON data-objective=...>``;
    ``objective="win"`` adds ``--objective win`` (the coach's chance-to-win numbers).  With
    ``rules`` (a rule file's JSON text, for games whose variants come from rule files) the
    command reads ``--rules RULES.json`` and the text is shown (and kept in ``data-rules``) to
    save as that file."""
    if rules is not None:
        options = {}
    command = command_text(odds_arguments(
        game, flags, options, rules_file=None if rules is None else "RULES.json",
        objective="win" if objective == "win" else None))
    data_flags = escape(json.dumps(flags), quote=True)
    data_options = escape(json.dumps({k: format_option(v) for k, v in options.items()}),
                          quote=True)
    data_rules = "" if rules is None else f' data-rules="{escape(rules, quote=True)}"'
    saved = ("" if rules is None else
             f"<div>with RULES.json holding: <code>{escape(rules)}</code></div>")
    return (
        "<div class='pushluck-command'><span>Command for a terminal (check these numbers "
        "yourself):</span> "
        f'<code class="pushluck-cli" data-game="{escape(game, quote=True)}" '
        f'data-flags="{data_flags}" data-options="{data_options}"{data_rules} '
        f'data-objective="{escape(objective, quote=True)}">{escape(command)}</code> '
        f"{COPY_BUTTON}</div>{saved}"
    )


@dataclasses.dataclass(frozen=True)
class _Decision:
    """A human decision position captured before acting (coach "after")."""

    model: Any
    state: Any
    flags: dict[str, str]
    step_label: str | None
    turn_key: Any
    who: str
    label: str
    win_chances: dict[str, float | None] | None = None
    window: OutsideWindow | None = None


class GameTable(widgets.VBox):
    """A playable table for one registered game, with the exact coach beside it."""

    game = Unicode("")
    seed = Int(1)
    coach = Enum(COACH_MODES, default_value="always")
    #: what the coach optimises: "win" (the chance to win the game, where a whole-game solution
    #: covers the table) or "points" (this turn's points, capped where the game caps them)
    objective = Enum(OBJECTIVES, default_value="win")
    #: projector / focus mode: large type, the table and the two key charts side by side
    projector = Bool(False)
    message = Unicode("")
    seats = Tuple(default_value=(HUMAN, "optimal"))
    options = Dict()

    def __init__(self, game: str | None = None, *, seats: typing.Sequence[str] | None = None,
                 seed: int = 1, coach: str = "always",
                 options: dict[str, Any] | None = None, background: bool = True,
                 projector: bool | None = False, **kwargs: Any) -> None:
        """``projector``: start in projector mode (True), not (False), or as the page's
        address says (None: ``?projector``, see :mod:`pushluck_teach.ui.projector`)."""
        super().__init__(**kwargs)
        self._ready = False
        self._syncing = False
        self._message_is_error = False
        self.spec: GameSpec = get_game(game or table_game())
        self.variant: Variant = self.spec.variant(options or {})
        self.engine: Engine | None = None
        self._bots: list[Bot | None] = []
        self._decision: _Decision | None = None
        self._log_at_start = 0
        self._buttons: dict[str, widgets.Button] = {}
        self._background = background
        # one lock for every change of the engine and every handler that reads it: a click on
        # the kernel's thread and a bot's move applied in the worker never interleave
        self._lock = threading.RLock()
        self._click_guard = ClickGuard(self._error, self._lock)
        self._bot_runner = BotRunner("pushluck-bots", self._lock,
                                     show_thinking=self._show_thinking,
                                     show_error=self._error,
                                     show_progress=self._show_progress)
        self._replaying = False
        self.add_class("pushluck-table")
        self.add_class("pushluck-keys-scope")
        self._key_bindings: tuple[KeyBinding, ...] = ()
        self._announced: tuple[int, int, int] = (0, 0, -1)  # engine, log length, steps
        self._build_widgets()
        self.objective_toggle.value = self.objective
        if projector is None:  # the page's address (?projector) decides
            projector = bool(projector_requested())
            self.projector_switch.query.observe(self._guarded(self._on_query), names="search")
        self.projector = bool(projector) or self.projector
        if self.projector:
            self._projector_changed({"new": True})
        self.panel.background = background
        self.game = self.spec.name
        self.seed = int(seed)
        self.coach = coach
        chosen = seats or (HUMAN, "optimal")
        self.seats = self._fit_seats(tuple(normalise_seat(s, self.spec) for s in chosen))
        self.options = self.variant.options()
        self.seed_text.value = str(self.seed)
        self._ready = True
        self._load_game(keep_variant=True)

    # ---- construction ---------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.title_html = widgets.HTML()
        self.seed_text = widgets.Text(
            description="Seed", continuous_update=False, layout=widgets.Layout(width="180px"),
            tooltip="The same seed deals the same game",
        )
        self.seed_text.observe(self._guarded(self._on_seed_text), names="value")
        self.new_game_button = widgets.Button(description="New game",
                                              tooltip="Start again with this seed")
        self.new_game_button.on_click(self._guarded(lambda _b: self._on_new_game()))
        self.new_game_button.add_class("pushluck-new-game")  # a stable hook for browser tests
        self.next_seed_button = widgets.Button(description="Next seed",
                                               tooltip="Seed + 1 and a new game")
        self.next_seed_button.on_click(self._guarded(lambda _b: self._on_next_seed()))
        self.coach_toggle = widgets.ToggleButtons(
            options=[("Coach off", "off"), ("After you decide", "after"), ("Always", "always")],
            value="always", description="Coach", style={"button_width": "auto"},
        )
        self.coach_toggle.observe(self._guarded(self._on_coach_toggle), names="value")
        self.coach_toggle.add_class("pushluck-coach")
        self.objective_toggle = widgets.ToggleButtons(
            options=[("Best chance to win", "win"), ("Most points this turn", "points")],
            value="win", description="Coach aims for", style={"button_width": "auto",
                                                                "description_width": "initial"},
            tooltips=["The chance to win the whole game, from the exact whole-game solution",
                      "The points this turn brings, on average"],
        )
        self.objective_toggle.add_class("pushluck-objective")
        self.objective_toggle.layout.display = "none"
        self.objective_toggle.observe(self._guarded(self._on_objective_toggle), names="value")
        self.objective_note = widgets.HTML()
        # the shared projector switch (ui/projector.py); the panel has its own "show every
        # chart and number table" button, so the switch's is left out
        self.projector_switch = ProjectorSwitch(on=False, details=False)
        self.projector_toggle = self.projector_switch.toggle
        self.projector_switch.observe(self._guarded(self._on_projector_toggle), names="on")
        controls = widgets.HBox(
            [self.seed_text, self.new_game_button, self.next_seed_button, self.coach_toggle,
             self.objective_toggle, self.projector_switch],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        controls.add_class("pl-controls")
        self.seat_box = widgets.VBox()
        self.add_seat_button = widgets.Button(description="Add seat")
        self.add_seat_button.on_click(self._guarded(lambda _b: self._change_seat_count(+1)))
        self.remove_seat_button = widgets.Button(description="Remove seat")
        self.remove_seat_button.on_click(self._guarded(lambda _b: self._change_seat_count(-1)))
        seats_panel = widgets.VBox([
            self.seat_box, widgets.HBox([self.add_seat_button, self.remove_seat_button]),
        ])
        self.preset_dropdown = widgets.Dropdown(description="Preset")
        self.preset_dropdown.observe(self._guarded(self._on_preset), names="value")
        self.option_box = widgets.VBox()
        self._pending_variant: Variant | None = None
        self.option_confirm_text = widgets.HTML()
        self.option_apply_button = widgets.Button(description="Apply: start a new game",
                                                  button_style="warning")
        self.option_apply_button.on_click(self._guarded(lambda _b: self._confirm_options(True)))
        self.option_cancel_button = widgets.Button(description="Cancel: keep this game")
        self.option_cancel_button.on_click(
            self._guarded(lambda _b: self._confirm_options(False)))
        self.option_confirm = widgets.VBox(
            [self.option_confirm_text,
             widgets.HBox([self.option_apply_button, self.option_cancel_button])])
        self.option_confirm.add_class("pushluck-option-confirm")
        self.option_confirm.layout.display = "none"
        options_panel = widgets.VBox([self.preset_dropdown, self.option_box])
        self.setup_fields_box = widgets.VBox()
        self._setup_fields: dict[str, widgets.Text] = {}
        self.setup_button = widgets.Button(description="Show this position",
                                           button_style="primary")
        self.setup_button.on_click(self._guarded(lambda _b: self._on_setup()))
        self.setup_back_button = widgets.Button(description="Back to the game")
        self.setup_back_button.on_click(self._guarded(lambda _b: self._leave_setup()))
        setup_panel = widgets.VBox([
            widgets.HTML("<div class='pushluck-note'>Type a position as the <code>pushluck "
                         "odds</code> command writes it (cards such as <code>5h 9s</code>, "
                         "rolls such as <code>3 5</code>); the coach jumps there, the game "
                         "waits.</div>"),
            self.setup_fields_box,
            widgets.HBox([self.setup_button, self.setup_back_button]),
        ])
        self._study: tuple[dict[str, str], Any, Any] | None = None
        self.settings = widgets.Accordion(children=[seats_panel, options_panel, setup_panel])
        self.settings.set_title(0, "Players and bots")
        self.settings.set_title(1, "Rule options")
        self.settings.set_title(2, "Set up a position")
        self.settings.selected_index = None

        self.status_html = widgets.HTML()
        self.cards_html = widgets.HTML()
        self.action_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.message_html = widgets.HTML()
        self.thinking_progress = widgets.FloatProgress(
            value=0.0, min=0.0, max=1.0, bar_style="info",
            layout=widgets.Layout(width="200px"))
        self.thinking_html = widgets.HTML()
        self.thinking_box = widgets.HBox([self.thinking_progress, self.thinking_html])
        self.thinking_box.add_class("pushluck-bots-thinking")
        self.thinking_box.layout.display = "none"
        self.finished_html = widgets.HTML()
        # keyboard play and the screen reader's live region (ui/keyboard.py, ui/announce.py)
        keys = keys_area(self._on_key)
        self.keys_html, self.key_listener = keys.keys_html, keys.listener
        self.announcer, self.keys_box = keys.announcer, keys.box
        self.scores_html = widgets.HTML()
        self.cli_html = widgets.HTML()
        self.log_html = widgets.HTML()
        self.log_html.add_class("pl-log")
        self.panel = AnalysisPanel()
        self.gauge = WinChanceGauge()
        self.recording = RecordingArea(self)
        self.review = ReviewPanel(self.recording, background=self._background)
        self.projector_switch.query.observe(
            lambda change: self.recording.open_query(change["new"]), names="search")
        widgets.link((self, "coach"), (self.panel, "coach"))
        self.panel.observe(self._on_recommended, names="recommended")
        left = widgets.VBox(
            [self.status_html, self.cards_html, self.action_box, self.keys_box,
             self.thinking_box, self.message_html,
             self.finished_html, self.gauge, self.cli_html],
            layout=widgets.Layout(width="560px", margin="0 12px 0 0"),
        )
        left.add_class("pl-left")
        right = widgets.VBox([self.scores_html, self.log_html],
                             layout=widgets.Layout(width="440px"))
        right.add_class("pl-right")
        main = widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap"))
        main.add_class("pl-main")
        style = widgets.HTML(STYLESHEET)
        style.add_class("pl-style")
        self.title_html.add_class("pl-title")
        self.settings.add_class("pl-settings")
        self.objective_note.add_class("pl-note")
        self.panel.add_class("pl-panel")
        self.children = [
            style, self.title_html, controls, self.settings, main, self.objective_note,
            self.panel, self.recording, self.review,
        ]

    def _guarded(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """Wrap a handler: bad input or an unexpected error becomes a one-line message."""
        return self._click_guard.wrap(fn)

    # ---- messages -------------------------------------------------------------------------
    @property
    def message_is_error(self) -> bool:
        """Whether ``message`` reports something wrong (an illegal click, a bad seed...)."""
        return self._message_is_error

    def _say(self, text: str) -> None:
        self._message_is_error = False
        self.message = text
        self._render_message()

    def _error(self, text: str) -> None:
        self._message_is_error = True
        self.message = text
        self._render_message()
        self._refresh_safely()

    @observe("message")
    def _message_changed(self, _change: Any) -> None:
        self._render_message()

    def _render_message(self) -> None:
        if not hasattr(self, "message_html"):
            return
        css = "pushluck-message pushluck-message-error" if self._message_is_error else (
            "pushluck-message")
        self.message_html.value = (f'<div class="{css}" role="status" aria-live="polite">'
                                   f"{escape(self.message)}</div>")

    # ---- traits ---------------------------------------------------------------------------
    @observe("game")
    def _game_changed(self, change: Any) -> None:
        if not self._ready or self._syncing:
            return
        try:
            self.spec = get_game(change["new"])
        except RulesError as exc:
            self._syncing = True
            self.game = change["old"]
            self._syncing = False
            self._error(str(exc))
            return
        self.variant = self.spec.variant_cls()
        self._guarded(self._load_game)()

    @observe("seed")
    def _seed_changed(self, _change: Any) -> None:
        self.seed_text.value = str(self.seed)
        if self._ready and not self._syncing:
            self._guarded(self._new_game)()

    @observe("seats")
    def _seats_changed(self, change: Any) -> None:
        if not self._ready or self._syncing:
            return
        try:
            seats = tuple(normalise_seat(s, self.spec) for s in change["new"])
            if not self.spec.min_players <= len(seats) <= self.spec.max_players:
                raise RulesError(f"{self.spec.name} takes {self.spec.min_players}-"
                                 f"{self.spec.max_players} players, not {len(seats)}")
        except RulesError as exc:
            self._set_seats_quietly(change["old"])
            self._error(str(exc))
            return
        if seats != change["new"]:
            self._set_seats_quietly(seats)
        self._sync_seat_widgets()
        self._guarded(self._new_game_or_old_seats)(change["old"])

    def _new_game_or_old_seats(self, old: tuple[str, ...]) -> None:
        """A new game for the new seats; seats the rules cannot start a game with (Hit List's
        solo rules: one player) are refused and the seats and the game in progress stay."""
        try:
            self._new_game()
        except (RulesError, CardError, ValueError):
            self._set_seats_quietly(old)
            self._sync_seat_widgets()
            raise

    @observe("options")
    def _options_changed(self, change: Any) -> None:
        if not self._ready or self._syncing:
            return
        with self._lock:  # may replace the engine: never while a bot's move is applied
            self._change_options(change)

    def _change_options(self, change: Any) -> None:
        try:
            variant = self.spec.variant(change["new"])
            # rules that can seat nobody are refused before the game in progress is replaced,
            # so a refusal leaves it as it was (rules for fewer seats fit the seats instead)
            if not self._players_allowed(variant):
                raise OptionError("these rules cannot start a game with any number of players")
        except (RulesError, CardError, ValueError, TypeError) as exc:
            self._set_options_quietly(self.variant.options())
            self._error(f"bad options: {exc}")
            return
        self._apply_variant(variant)

    @observe("coach")
    def _coach_changed(self, _change: Any) -> None:
        if hasattr(self, "coach_toggle") and self.coach_toggle.value != self.coach:
            self.coach_toggle.value = self.coach
        if self._ready:
            self._decision = None
            self._refresh_safely()

    def _on_coach_toggle(self, change: Any) -> None:
        self.coach = change["new"]

    @observe("objective")
    def _objective_changed(self, _change: Any) -> None:
        if hasattr(self, "objective_toggle") and self.objective_toggle.value != self.objective:
            self.objective_toggle.value = self.objective
        if getattr(self, "_ready", False):
            self._decision = None
            self._refresh_safely()

    def _on_objective_toggle(self, change: Any) -> None:
        self.objective = change["new"]

    @observe("projector")
    def _projector_changed(self, change: Any) -> None:
        if hasattr(self, "projector_switch") and self.projector_switch.on != change["new"]:
            self.projector_switch.on = change["new"]
        if change["new"]:
            self.add_class("pushluck-projector")
        else:
            self.remove_class("pushluck-projector")
        if hasattr(self, "panel"):
            self.panel.set_projector(bool(change["new"]))

    def _on_projector_toggle(self, change: Any) -> None:
        self.projector = change["new"]

    def _on_query(self, change: Any) -> None:
        requested = projector_requested(change["new"])
        if requested is not None:
            self.projector = requested

    def _win_task(self, engine: Engine) -> Any:
        """The chance-to-win computation for the position now, or None where no whole-game
        solution covers the table (the toggle is then hidden and the coach aims for points)."""
        try:
            return action_win_chances_task(engine)
        except (RulesError, CardError, ValueError, ImportError):
            # ImportError: the static site's in-browser Python has no NumPy for the
            # whole-game solvers (the gauge says so); the coach then aims for points
            return None

    def _objective_flags(self, engine: Engine, flags: dict[str, str]) -> dict[str, str]:
        """The command's flags for the win objective: the two scores added."""
        scores = engine.scores()
        me = engine.current_player
        return {**flags, "score": str(int(scores[me])),
                "opponent": str(int(scores[1 - me]))}

    # ---- seats ----------------------------------------------------------------------------
    def _fit_seats(self, seats: tuple[str, ...]) -> tuple[str, ...]:
        lo, hi = self.spec.min_players, self.spec.max_players
        seats = seats[:hi]
        while len(seats) < lo:
            seats = (*seats, "optimal")
        return seats

    def _sync_seat_widgets(self) -> None:
        rows = []
        for index, seat in enumerate(self.seats):
            kind, _, arg = seat.partition(":")
            kind = "threshold" if kind in ("threshold", "hold") else kind
            dropdown = widgets.Dropdown(options=SEAT_CHOICES, value=kind,
                                        description=f"Player {index + 1}",
                                        layout=widgets.Layout(width="320px"))
            # Text, not IntText: a number box drops what it cannot read ("1e9" became 19);
            # the seat parser refuses a bad threshold with one line
            t_box = widgets.Text(value=arg if arg.lstrip("-").isdigit() else "20",
                                 description="T", continuous_update=False,
                                 layout=widgets.Layout(width="140px"))
            t_box.layout.display = "flex" if kind == "threshold" else "none"
            dropdown.observe(self._guarded(self._on_seat_widget), names="value")
            t_box.observe(self._guarded(self._on_seat_widget), names="value")
            rows.append(widgets.HBox([dropdown, t_box]))
        self.seat_box.children = rows
        self.add_seat_button.disabled = len(self.seats) >= self.spec.max_players
        self.remove_seat_button.disabled = len(self.seats) <= self.spec.min_players

    def _seats_from_widgets(self) -> tuple[str, ...]:
        seats = []
        for row in self.seat_box.children:
            dropdown, t_box = row.children
            seats.append(f"threshold:{t_box.value}" if dropdown.value == "threshold"
                         else dropdown.value)
        return tuple(seats)

    def _on_seat_widget(self, _change: Any) -> None:
        self.seats = self._seats_from_widgets()

    def _change_seat_count(self, delta: int) -> None:
        seats = self.seats
        if delta > 0:
            if len(seats) >= self.spec.max_players:
                raise RulesError(f"{self.spec.title} takes at most {self.spec.max_players} "
                                 "players")
            seats = (*seats, "optimal")
        else:
            if len(seats) <= self.spec.min_players:
                raise RulesError(f"{self.spec.title} needs at least {self.spec.min_players} "
                                 f"player{'s' if self.spec.min_players > 1 else ''}")
            seats = seats[:-1]
        self.seats = seats

    # ---- options --------------------------------------------------------------------------
    def _build_option_widgets(self) -> None:
        cls = type(self.variant)
        hints = typing.get_type_hints(cls)
        rows: list[widgets.Widget] = []
        self._option_widgets: dict[str, widgets.Widget] = {}
        for f in dataclasses.fields(cls):
            hint = hints.get(f.name, str)
            value = getattr(self.variant, f.name)
            try:
                info = cls.option_info(f.name)
                label, help_text = info.label, info.help
                allowed = cls.option_allowed(f.name)
            except (RulesError, AttributeError):
                label, help_text, allowed = f.name, "", ""
            common = {"description": label, "style": {"description_width": "initial"},
                      "tooltip": f"{f.name}: {help_text}"}
            if hint is bool:
                w: widgets.Widget = widgets.Checkbox(value=bool(value), indent=False, **common)
            elif hint is int:  # read as typed (see the seats' T box), checked by coerce_option
                w = widgets.Text(value=str(value), continuous_update=False,
                                 layout=widgets.Layout(width="260px"), **common)
            else:
                w = widgets.Text(value=format_option(value), continuous_update=False,
                                 layout=widgets.Layout(width="420px"), **common)
            w.observe(self._guarded(functools.partial(self._on_option_widget, f.name, hint)),
                      names="value")
            self._option_widgets[f.name] = w
            note = escape(help_text) + (
                f" <span class='pl-allowed'>Allowed: {escape(allowed)}.</span>"
                if allowed and hint is not bool else "")
            explanation = widgets.HTML(f"<div class='pushluck-option-help'>{note}</div>")
            row = widgets.VBox([w, explanation])
            row.add_class("pushluck-option")
            rows.append(row)
        self.option_box.children = [self.option_confirm, *rows]
        presets = [("(custom)", "")] + [(name, name) for name in self.spec.presets]
        self._syncing = True
        try:
            self.preset_dropdown.options = presets
            self.preset_dropdown.value = self._matching_preset()
        finally:
            self._syncing = False

    # ---- set up a position -----------------------------------------------------------------
    def _build_setup_fields(self) -> None:
        self._study = None
        self._setup_fields = {}
        rows = []
        for flag in self.spec.position_flags:
            if flag.positional:
                continue
            text = widgets.Text(description=flag.flag, placeholder=flag.help,
                                continuous_update=False, style={"description_width": "initial"},
                                layout=widgets.Layout(width="520px"))
            self._setup_fields[flag.name] = text
            rows.append(text)
        self.setup_fields_box.children = rows

    def setup_position(self, flags: dict[str, str]) -> None:
        """Jump the coach to a position given as ``pushluck odds`` flags (the game waits)."""
        for name, widget in self._setup_fields.items():
            widget.value = flags.get(name, "")
        self._guarded(self._on_setup)()

    def _on_setup(self) -> None:
        flags = {name: w.value.strip() for name, w in self._setup_fields.items()
                 if w.value.strip()}
        model, state = self.spec.position_from_flags(self.variant, flags)
        if not model.actions(state):
            raise RulesError("that position is already over: nothing to decide")
        self._study = (flags, model, state)
        self._say(f"Set-up position: {model.describe(state)}. The game waits: press Back to "
                  "the game to play on.")
        self._refresh()

    def _leave_setup(self) -> None:
        self._study = None
        self._say("Back to the game.")
        self._refresh()

    def _matching_preset(self) -> str:
        for name, preset in self.spec.presets.items():
            if preset == self.variant:
                return name
        return ""

    def _sync_option_widgets(self) -> None:
        self._syncing = True
        try:
            for name, w in self._option_widgets.items():
                value = getattr(self.variant, name)
                w.value = (bool(value) if isinstance(w, widgets.Checkbox) else
                           format_option(value))
            self.preset_dropdown.value = self._matching_preset()
        finally:
            self._syncing = False

    def _set_options_quietly(self, options: dict[str, Any]) -> None:
        self._syncing = True
        try:
            self.options = options
        finally:
            self._syncing = False

    def _set_seats_quietly(self, seats: tuple[str, ...]) -> None:
        """Set the seats trait without its observer starting a new game."""
        self._syncing = True
        try:
            self.seats = seats
        finally:
            self._syncing = False

    def _on_option_widget(self, name: str, hint: Any, change: Any) -> None:
        if self._syncing:
            return
        value = change["new"]
        try:
            if isinstance(value, str):
                value = coerce_option(name, value, hint)
            variant = self.variant.replace(**{name: value})
        except (RulesError, CardError, ValueError, TypeError) as exc:
            self._sync_option_widgets()
            message = str(exc)
            if not isinstance(exc, RulesError):
                message = f"bad value {change['new']!r} for option {name!r}: {exc}"
            raise OptionError(message) from None
        self._request_variant(variant)

    def _request_variant(self, variant: Variant) -> None:
        """New rules from the option widgets: at once, or after Apply when a game is on."""
        if self._game_in_progress():
            self._pending_variant = variant
            shown = ", ".join(f"{k}={format_option(v)}" for k, v in
                              variant.changed_options().items()) or "the defaults"
            self.option_confirm_text.value = (
                "<div class='pushluck-message pushluck-message-error'>Changing the rules ("
                f"{escape(shown)}) ends the game in progress and starts a new one.</div>")
            self.option_confirm.layout.display = "flex"
            self._say("Rules not changed yet: Apply starts a new game, Cancel keeps this one.")
            return
        self._apply_variant(variant)

    def _game_in_progress(self) -> bool:
        """A game someone has played in (more than the bots' opening moves)."""
        engine = self.engine
        return (engine is not None and not engine.is_over
                and len(engine.log) > self._log_at_start)

    def _confirm_options(self, apply: bool) -> None:
        variant, self._pending_variant = self._pending_variant, None
        self.option_confirm.layout.display = "none"
        if apply and variant is not None:
            self._apply_variant(variant)
        else:
            self._sync_option_widgets()
            self._say("Rules unchanged: the game goes on.")

    def _on_preset(self, change: Any) -> None:
        if self._syncing or not change["new"]:
            return
        self._request_variant(self.spec.presets[change["new"]])

    def _players_allowed(self, variant: Variant) -> list[int]:
        """The player counts these rules can seat (``solo`` rules: one)."""
        allowed = []
        for players in range(self.spec.min_players, self.spec.max_players + 1):
            try:
                self.spec.new_engine(variant, players=players, seed=self.seed)
            except (RulesError, ValueError):
                continue
            allowed.append(players)
        return allowed

    def _apply_variant(self, variant: Variant) -> None:
        """New rules: a new game.  Rules that cannot seat the current players change the seats
        (and say so); rules that can seat nobody are refused with the game unchanged."""
        seats_note = ""
        self._pending_variant = None
        self.option_confirm.layout.display = "none"
        allowed = self._players_allowed(variant)
        if not allowed:
            self._sync_option_widgets()
            raise OptionError("these rules cannot start a game: the rules are unchanged")
        if len(self.seats) not in allowed:
            count = min(allowed, key=lambda n: abs(n - len(self.seats)))
            seats = tuple(self.seats[:count])
            while len(seats) < count:
                seats = (*seats, "optimal")
            seats_note = (f" These rules take {', '.join(map(str, allowed))} player"
                          f"{'s' if allowed != [1] else ''}: seats changed from "
                          f"{len(self.seats)} to {count}.")
            self._set_seats_quietly(seats)
            self._sync_seat_widgets()
        self.variant = variant
        self._set_options_quietly(variant.options())
        self._sync_option_widgets()
        self._new_game()
        if self.engine is not None:
            changed = variant.changed_options()
            shown = ", ".join(f"{k}={format_option(v)}" for k, v in changed.items())
            self._say(f"Rules changed ({shown or 'the defaults'}): new game, re-solved."
                      + seats_note)

    # ---- game flow ------------------------------------------------------------------------
    def _load_game(self, keep_variant: bool = False) -> None:
        if not keep_variant:
            self.variant = self.spec.variant_cls()
        self._syncing = True
        try:
            self.game = self.spec.name
            self.seats = self._fit_seats(tuple(self.seats))
            self.options = self.variant.options()
        finally:
            self._syncing = False
        self.title_html.value = (
            f"<h2 style='margin:4px 0'>{escape(self.spec.title)}</h2>"
            f"<div class='pl-blurb'>{escape(self.spec.blurb)}</div>"
        )
        self._sync_seat_widgets()
        self._build_option_widgets()
        self._build_setup_fields()
        self._new_game()

    def _on_seed_text(self, change: Any) -> None:
        seed = self._parse_seed(change["new"])
        if seed is not None and seed != self.seed:
            self.seed = seed

    def _parse_seed(self, text: str) -> int | None:
        try:
            return int(str(text).strip())
        except ValueError:
            self._error(f"bad seed {text!r}: type a whole number such as 1 or 2024")
            return None

    def _on_new_game(self) -> None:
        seed = self._parse_seed(self.seed_text.value)
        if seed is None:
            return
        if seed != self.seed:
            self.seed = seed  # starts the new game through the trait observer
        else:
            self._new_game()

    def _on_next_seed(self) -> None:
        self.seed = self.seed + 1

    def new_game(self) -> None:
        """Start a new game with the current seed, seats and options."""
        self._guarded(self._new_game)()

    def _new_game(self) -> None:
        # Built first: seats or rules that cannot start a game are refused before the game in
        # progress is replaced, so a refusal leaves it as it was.
        bots = [None if seat == HUMAN else make_bot(seat, self.spec) for seat in self.seats]
        engine = self.spec.new_engine(self.variant, players=len(self.seats), seed=self.seed)
        self._stop_bots()
        self._study = None
        self.engine = None
        self._decision = None
        self.panel.reset_turn()
        self._bots = bots
        self.engine = engine
        self._replaying = False
        self.recording.start(self.spec, engine, tuple(self.seats), self.seed)
        self.review.stop()
        self.review.clear()
        self._refresh_safely()
        humans = sum(bot is None for bot in self._bots)
        who = f"{humans} human seat{'s' if humans != 1 else ''}" if humans else "bots only"
        intro = f"New game of {self.spec.title}, seed {self.seed}, {who}."
        self._log_at_start = len(self.engine.log)
        if self._background and self._bot_to_move(self.engine):
            self._start_bots([], lambda lines: intro + (
                f" {lines[-1]}" if lines and self.engine is not None and self.engine.is_over
                else ""), opening=True)
            return
        lines = self._run_bots()
        self._log_at_start = len(self.engine.log)
        self._say(intro + (f" {lines[-1]}" if lines and self.engine.is_over else ""))
        self._refresh()

    def _run_bots(self) -> list[str]:
        """Let bot seats move until a human is to move or the game is over."""
        engine = self.engine
        if engine is None:
            return []
        return self._bot_runner.play_now(engine, self._bot_seats(), self.recording.moved)

    # ---- bots off the click path (ui/table_parts.py: BotRunner) ------------------------------
    def _bot_seats(self) -> dict[int, Bot]:
        return {player: bot for player, bot in enumerate(self._bots) if bot is not None}

    def _bot_to_move(self, engine: Engine) -> bool:
        return not engine.is_over and self._bots[engine.current_player] is not None

    @property
    def bots_thinking(self) -> bool:
        """Whether bot seats are choosing their moves in the worker (buttons disabled)."""
        return self._bot_runner.thinking

    def wait_for_bots(self, timeout: float = 120.0) -> None:
        """Block until the bots have finished moving and the position after their last move
        is shown (tests, benchmarks); a no-op when they are not thinking or
        ``background=False``."""
        self._bot_runner.wait(timeout)

    def _stop_bots(self) -> None:
        """Supersede the bots' work in progress: its result is dropped, a running solve stops
        at its next checkpoint (:class:`~pushluck_teach.solve.turn.Cancelled`)."""
        self._bot_runner.stop()

    def _show_thinking(self, player: int | None) -> None:
        """Show who is thinking (the action buttons disabled meanwhile), or (``None``)
        nobody."""
        if player is None:
            self.thinking_box.layout.display = "none"
            self.thinking_html.value = ""
            return
        self.thinking_progress.value = 0.0
        self.thinking_html.value = (f"<span class='pushluck-progress'>"
                                    f"{escape(self._seat_name(player))} is thinking…</span>")
        self.thinking_box.layout.display = "flex"
        self._render_buttons(())

    def _show_progress(self, fraction: float) -> None:
        self.thinking_progress.value = fraction

    def _start_bots(self, lines: list[str], say: Callable[[list[str]], str],
                    opening: bool = False) -> None:
        """Let the bot seats move off the click path (:class:`BotRunner`); when a human is to
        move or the game is over, the table says ``say(lines)`` and refreshes as a synchronous
        run would.  ``opening``: the bots' moves before anyone else's count as the game's
        start (changing the rules then asks nothing)."""
        engine = self.engine
        assert engine is not None

        def moved(engine: Engine, player: int, action: str) -> None:
            self.recording.moved(engine, player, action)
            if opening:
                self._log_at_start = len(engine.log)

        def done(lines: list[str]) -> None:
            self._say(say(lines))
            self._refresh()

        self._bot_runner.start(engine, self._bot_seats(), lines, on_move=moved, on_done=done)

    def _seat_name(self, player: int) -> str:
        seat = self.seats[player] if player < len(self.seats) else HUMAN
        return f"Player {player + 1}" + ("" if seat == HUMAN else f" (bot: {seat})")

    def act(self, action: str) -> None:
        """Play ``action`` for the human to move (what a button click does)."""
        self._guarded(self._act)(action)

    def _act(self, action: str) -> None:
        engine = self.engine
        if engine is None:
            raise RulesError("no game is running: press New game")
        if engine.is_over:
            raise RulesError("the game is over: press New game to play again")
        player = engine.current_player
        if self._bot_runner.thinking:
            raise RulesError(f"{self._seat_name(player)} is still thinking: wait for its move")
        if self._replaying:
            raise RulesError("this is a replay of a record: press New game to play")
        if self._bots[player] is not None:
            raise RulesError(f"it is {self._seat_name(player)}'s move, not a human's")
        legal = engine.legal_actions()
        label = engine.action_label(action)
        if action not in legal:
            shown = ", ".join(engine.action_label(a) for a in legal) or "none"
            raise RulesError(f"{label} is not possible now (possible: {shown})")
        decision = self._capture_decision(engine, label) if self.coach == "after" else None
        lines = engine.act(action)
        self.recording.moved(engine, player, action)
        if self._background and self._bot_to_move(engine):
            self._decision = decision
            self._say(" ".join(lines[-4:]) if lines else f"{label}.")
            self._refresh()
            self._start_bots(lines, lambda done: " ".join(done[-4:]) if done else f"{label}.")
            return
        lines.extend(self._run_bots())
        self._decision = decision
        self._say(" ".join(lines[-4:]) if lines else f"{label}.")
        self._refresh()

    def _capture_decision(self, engine: Engine, label: str) -> _Decision | None:
        try:
            flags, model, state = self._position(engine)
            if not model.actions(state):
                return None
            view = engine.view()
            window = self._window(engine, view)
            if window is None and not engine.decision_in_turn_model():
                return None
            chances = None
            task = (self._win_task(engine) if self.objective == "win" and window is None
                    else None)
            if task is not None:
                chances = task()
                flags = self._objective_flags(engine, flags)
            return _Decision(model, state, flags, self._step_label(view),
                             self._turn_key(engine), self._seat_name(engine.current_player),
                             label, chances, window)
        except (RulesError, CardError, ValueError):
            return None

    @staticmethod
    def _turn_key(engine: Engine) -> tuple[int, int, int]:
        return (id(engine), len(engine.turn_records), engine.current_player)

    @staticmethod
    def _step_label(view: Any) -> str | None:
        return view.turn_cards[-1].label if view.turn_cards else None

    # ---- rendering ------------------------------------------------------------------------
    def _refresh_safely(self) -> None:
        try:
            with self._lock:
                self._refresh()
        except Exception as exc:  # rendering must never raise into a click
            self._message_is_error = True
            self.message = unexpected_text(exc)
            self._render_message()

    def _refresh(self) -> None:
        if not self._ready:
            return
        engine = self.engine
        if engine is None:
            self.status_html.value = "<div class='pushluck-status'>No game running.</div>"
            self.cards_html.value = ""
            self._render_buttons(())
            self.finished_html.value = ""
            self.cli_html.value = ""
            self.scores_html.value = ""
            self.log_html.value = ""
            self.panel.show_nothing("No game running.")
            self.gauge.clear()
            return
        if self._study is not None:
            self._render_study(engine)
            return
        view = engine.view()
        legal = () if engine.is_over else engine.legal_actions()
        human_to_move = not engine.is_over and self._bots[engine.current_player] is None
        self._render_buttons(legal if human_to_move and not self._bot_runner.thinking
                             and not self._replaying else ())
        self._render_status(engine, view)
        self._render_cards(engine, view)
        self._render_scores(engine, view)
        self._render_log(engine)
        self._render_finished(engine, view)
        self._render_analysis(engine, view, human_to_move)
        try:
            self._announce(engine, view, human_to_move)
        except Exception:  # an announcement never breaks the page it describes
            self.announcer.say(self.message)

    def _render_study(self, engine: Engine) -> None:
        """A set-up position: the coach and the command describe it; the game waits."""
        flags, model, state = self._study
        self._render_buttons(())
        self.status_html.value = (
            "<div class='pushluck-status'><strong>Set-up position</strong> (the game waits): "
            f"{escape(model.describe(state))}</div>")
        self.cards_html.value = ""
        self.gauge.clear()
        self.objective_note.value = ("<div class='pushluck-note'>The coach aims for the most "
                                     "points this turn in a set-up position.</div>")
        self.cli_html.value = cli_line_html(self.spec.name, flags,
                                            self.variant.changed_options(),
                                            rules=self._rules_text())
        if self.coach == "off":
            return
        self.panel.show(model, state, turn_key=("setup", tuple(sorted(flags.items()))),
                        who="Set-up position", action_label=engine.action_label)

    def _button(self, action: str, label: str) -> widgets.Button:
        button = self._buttons.get(action)
        if button is None:
            button = widgets.Button(description=label, style=ACTION_BUTTON_STYLE,
                                    layout=widgets.Layout(min_width="120px", height="48px",
                                                          margin="4px"))
            button.add_class("pushluck-action")
            button.add_class(action_class(action))
            if action == DRAW:
                button.add_class("pushluck-risky")
            elif action == STOP:
                button.add_class("pushluck-safe")
            button.on_click(lambda _b, a=action: self.act(a))
            self._buttons[action] = button
        if button.description != label:
            button.description = label
        return button

    def _render_buttons(self, legal: tuple[str, ...]) -> None:
        engine = self.engine
        label = engine.action_label if engine is not None else (
            lambda a: {DRAW: "Draw", STOP: "Stop"}.get(a, a))
        shown = [self._button(DRAW, label(DRAW)), self._button(STOP, label(STOP))]
        shown += [self._button(a, label(a)) for a in legal if a not in (DRAW, STOP)]
        for action, button in self._buttons.items():
            button.disabled = action not in legal
        if tuple(self.action_box.children) != tuple(shown):
            self.action_box.children = shown
        self._key_bindings = table_bindings(shown[0], shown[1], shown[2:],
                                            self.new_game_button)
        for binding in self._key_bindings[:-1]:  # the action buttons say their key too
            tip = f"{binding.label} (key {binding.key.upper()}, or Tab to it and Enter)"
            if binding.button.tooltip != tip:
                binding.button.tooltip = tip
        line = keys_line_html(self._key_bindings)
        if self.keys_html.value != line:
            self.keys_html.value = line
        keys = [b.key for b in self._key_bindings]
        if self.key_listener.bound_keys != keys:
            self.key_listener.bound_keys = keys

    # ---- keyboard and live region ----------------------------------------------------------
    def press_key(self, key: str) -> None:
        """What a key press on the page does (``d``, ``s``, ``1``, ``n``): the click of the
        button bound to it, if that button is usable now; nothing otherwise."""
        self._guarded(lambda: press(self._key_bindings, key))()

    def _on_key(self, key: str) -> None:
        self.press_key(key)

    def _announce(self, engine: Engine, view: Any, human_to_move: bool) -> None:
        """Say what changed in the live region: one's own draw as "7♥: turn total 19.", else
        the message (bots' moves, a bust, a stop); then, for a human to move with the coach
        on, the coach's bust chance and recommendation as the panel shows them."""
        steps = len(view.turn_cards) + len(view.turn_dice)
        before_engine, before_log, before_steps = self._announced
        same_turn = before_engine == id(engine) and steps == before_steps + 1
        self._announced = (id(engine), len(engine.log), steps)
        if (same_turn and human_to_move and not self._message_is_error
                and len(engine.log) == before_log + 1):
            step = (view.turn_cards[-1].label if view.turn_cards
                    else f"Rolled {view.turn_dice[-1]}")
            lead = draw_sentence(step, view.turn_total)
        else:
            lead = self.message
            if engine.is_over:
                names = ", ".join(self._seat_name(p) for p in engine.winners()) or "nobody"
                lead += f" Game over. Winner: {names}."
            elif human_to_move and not self._bot_runner.thinking:
                lead += (f" {self._seat_name(engine.current_player)} to move, turn total "
                         f"{view.turn_total}.")
        coach_on = (self.coach == "always" and human_to_move and not self._bot_runner.thinking
                    and not engine.is_over)
        best = self.panel.recommended
        self.announcer.moment((id(engine), len(engine.log), self.message, coach_on), lead,
                              self.panel.p_bust_exact,
                              engine.action_label(best) if best else "", coach_on)

    def _on_recommended(self, change: Any) -> None:
        """The coach's recommendation worked out after the sentence: said then."""
        engine = self.engine
        try:
            if engine is not None and change["new"]:
                self.announcer.best_known(engine.action_label(change["new"]))
        except Exception:  # an announcement is never worth a failure
            return

    @property
    def action_buttons(self) -> dict[str, widgets.Button]:
        """The buttons on the table now, by engine action (``draw``, ``stop``, ``ace:11``...)."""
        shown = set(self.action_box.children)
        return {a: b for a, b in self._buttons.items() if b in shown}

    def _render_status(self, engine: Engine, view: Any) -> None:
        lines = []
        owner = None if engine.is_over else engine.turn_player
        if engine.is_over:
            lines.append("<strong>Game over.</strong>")
        elif owner != view.current_player:
            lines.append(f"<strong>{escape(self._seat_name(view.current_player))}</strong> "
                         f"to decide, during Player {owner + 1}'s turn.")
        else:
            lines.append(f"<strong>{escape(self._seat_name(view.current_player))}</strong> "
                         "to move.")
        if view.round_text:
            lines.append(escape(view.round_text))
        whose = ("Turn total" if owner is None or owner == view.current_player
                 else f"Player {owner + 1}'s turn total")
        lines.append(f"{escape(whose)}: <strong>{escape(str(view.turn_total))}</strong>")
        lines.extend(escape(t) for t in view.turn_lines)
        piles = []
        if view.draw_pile is not None:
            piles.append(f"draw pile {view.draw_pile}")
        if view.discard_pile is not None:
            piles.append(f"discard pile {view.discard_pile}")
        if piles:
            lines.append("Cards: " + ", ".join(piles))
        self.status_html.value = ("<div class='pushluck-status'>" + "<br>".join(lines)
                                  + "</div>")

    def _render_cards(self, engine: Engine, view: Any) -> None:
        if self.spec.draws_for(engine.variant) == DICE:
            html = dice_row_html(view.turn_dice)
        else:
            html = cards_row_html(view.turn_cards)
        self.cards_html.value = html

    def _render_scores(self, engine: Engine, view: Any) -> None:
        winners = set(engine.winners()) if engine.is_over else set()
        rows = []
        for player, score in enumerate(view.scores):
            extra = view.player_lines[player] if player < len(view.player_lines) else ()
            to_move = not engine.is_over and player == view.current_player
            mark = " ← to move" if to_move else (" (winner)" if player in winners else "")
            css = " class='pl-to-move'" if to_move else ""
            rows.append(
                f"<tr{css}><td>{escape(self._seat_name(player))}{mark}</td>"
                f"<td>{escape(str(score))}</td><td>{escape('; '.join(extra))}</td></tr>"
            )
        self.scores_html.value = (
            "<div class='pushluck-scores'><table><caption>Scores</caption><thead><tr>"
            "<th scope='col'>player</th><th scope='col'>score</th><th scope='col'>notes</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def _render_log(self, engine: Engine) -> None:
        lines = engine.log[-LOG_LINES_SHOWN:]
        items = "".join(f"<li>{escape(line)}</li>" for line in reversed(lines))
        self.log_html.value = (
            "<div><strong>Turn log</strong> (newest first)</div>"
            f"<div class='pushluck-log' role='log'><ul>{items}</ul></div>"
        )

    def _render_finished(self, engine: Engine, view: Any) -> None:
        if not engine.is_over:
            self.finished_html.value = ""
            return
        names = ", ".join(self._seat_name(p) for p in engine.winners()) or "nobody"
        text = view.finished_text or f"Winner: {names}."
        self.finished_html.value = (f"<div class='pushluck-finished' role='status'>"
                                    f"{escape(text)}<br>Winner: {escape(names)}.</div>")

    def _render_analysis(self, engine: Engine, view: Any, human_to_move: bool) -> None:
        if self.coach == "always" and not engine.is_over:
            self.gauge.show(engine, self._seat_name(engine.current_player))
        else:
            self.gauge.clear()
        options = self.variant.changed_options()
        task = None if engine.is_over else self._win_task(engine)
        if not engine.is_over:
            self.objective_toggle.layout.display = "flex" if task is not None else "none"
        win = self.objective == "win" and task is not None
        self._render_objective_note(engine, win)
        if self.coach == "after":
            decision = self._decision
            if decision is None:
                self.panel.show_nothing("Coach: decide first; the numbers for your decision "
                                        "appear right after.")
                self.cli_html.value = self._current_cli(engine, options, win)
                return
            self.panel.show(decision.model, decision.state, turn_key=decision.turn_key,
                            who=decision.who, step_label=decision.step_label,
                            decided=decision.label, action_label=engine.action_label,
                            win_chances=decision.win_chances, window=decision.window)
            self.cli_html.value = cli_line_html(
                self.spec.name, decision.flags, options,
                "win" if decision.win_chances is not None else "points", self._rules_text())
            return
        self.cli_html.value = self._current_cli(engine, options, win)
        if self.coach == "off":
            return
        if engine.is_over:
            self.panel.show_nothing("Game over: press New game to play again.")
            return
        if not human_to_move:
            self.panel.show_nothing(f"{self._seat_name(engine.current_player)} is moving; "
                                    "the coach waits for your turn.")
            return
        if not self.spec.has_turn_model:
            self.panel.show_nothing("This game has no draw/stop turn to analyse.")
            return
        _flags, model, state = self._position(engine)
        if not model.actions(state):
            self.panel.show_nothing("The turn is over.")
            return
        window = self._window(engine, view)
        if window is None and not engine.decision_in_turn_model():
            legal = ", ".join(engine.action_label(a) for a in engine.legal_actions())
            self.panel.show_nothing(f"Player {engine.current_player + 1} decides during "
                                    f"Player {engine.turn_player + 1}'s turn ({legal}); "
                                    "the coach does not weigh this choice.")
            return
        self.panel.show(model, state, turn_key=self._turn_key(engine),
                        who=self._seat_name(engine.current_player),
                        step_label=self._step_label(view), action_label=engine.action_label,
                        win_chances=(task() if win and task is not None and window is None
                                     else None),
                        window=window)

    def _window(self, engine: Engine, view: Any) -> OutsideWindow | None:
        """The decision outside the turn model now (a king window), or None."""
        if engine.is_over or engine.decision_in_turn_model():
            return None
        choices = engine.outside_choices()
        legal = set(engine.legal_actions())
        if not choices or {c.action for c in choices} != legal:
            return None
        return OutsideWindow(decider=f"Player {engine.current_player + 1}",
                             owner=f"Player {engine.turn_player + 1}",
                             card=self._step_label(view) or "", choices=tuple(choices))

    def _render_objective_note(self, engine: Engine, win: bool) -> None:
        """One line saying what the coach optimises (and whether points past the target
        count)."""
        if self.coach == "off" or engine.is_over:
            self.objective_note.value = ""
            return
        if not engine.decision_in_turn_model():
            text = (f"At this decision the coach compares what each choice leaves Player "
                    f"{engine.turn_player + 1}'s turn worth: the points that turn brings on "
                    "average.")
        elif win:
            text = ("The coach aims for the best chance to win the game (exact whole-game "
                    "solution); the charts of the next draw and of this turn's result describe "
                    "this turn's points.")
        else:
            model, _ = engine.turn_position()
            if getattr(model, "cap", None) is not None:
                text = ("The coach aims for the most points this turn; points past the target "
                        "are worth nothing, so it never counts them.")
            else:
                text = ("The coach aims for the most points this turn; it does not look at the "
                        "scores (in this game points past the target still count).")
        others = self._others_note(engine)
        if others:
            text += " " + others
        self.objective_note.value = f"<div class='pushluck-note'>{escape(text)}</div>"

    def _position(self, engine: Engine) -> tuple[dict[str, str], Any, Any]:
        """The position the coach analyses, with the flags of its command.  Where other
        players' choices change this turn (``engine.others_in_turn()``) their behaviour is
        stated as leave thresholds (bots: their own; humans and turn-optimal bots: an
        assumption, :data:`ASSUMED_THRESHOLD`) and the page and its command build the same
        model from the same flags."""
        flags = dict(engine.position_flags())
        others = engine.others_in_turn()
        takes = {flag.name for flag in self.spec.position_flags}
        if not others or "others" not in takes:
            model, state = engine.turn_position()
            return flags, model, state
        flags["others"] = ",".join(str(self._assumed_threshold(p)) for p in others)
        try:
            model, state = self.spec.position_from_flags(self.variant, flags)
        except RulesError:  # more explorers than the model covers: the decider alone
            del flags["others"]
            model, state = self.spec.position_from_flags(self.variant, flags)
        return flags, model, state

    def _assumed_threshold(self, player: int) -> int:
        return self._threshold_of(player)[0]

    def _threshold_of(self, player: int) -> tuple[int, bool]:
        """``(threshold, assumed)``: a threshold bot's own leave threshold, or the assumption."""
        seat = self.seats[player] if player < len(self.seats) else HUMAN
        if seat != HUMAN:
            try:
                policy = parse_policy(seat)
            except RulesError:
                policy = None
            if policy is not None and policy.kind == THRESHOLD and policy.number is not None:
                return policy.number, False
        return ASSUMED_THRESHOLD, True

    def _others_note(self, engine: Engine) -> str:
        others = engine.others_in_turn()
        if not others or "others" not in {f.name for f in self.spec.position_flags}:
            return ""
        parts = []
        for p in others:
            threshold, assumed = self._threshold_of(p)
            parts.append(f"{self._seat_name(p)} leaves once carrying {threshold}"
                         + (" (assumed)" if assumed else ""))
        return ("Model: the other explorers inside share the gems and each leaves at a "
                "threshold: " + "; ".join(parts) + ".")

    def _current_cli(self, engine: Engine, options: dict[str, Any], win: bool = False) -> str:
        if engine.is_over:
            return ""
        flags, _model, _state = self._position(engine)
        if win:
            return cli_line_html(self.spec.name, self._objective_flags(engine, flags), options,
                                 "win", self._rules_text())
        return cli_line_html(self.spec.name, flags, options, rules=self._rules_text())

    # ---- game records (pushluck_teach.ui.recording) -----------------------------------------
    def show_record(self, record: Any) -> None:
        """Take a loaded record's rules, seats and seed (no new game: a replay follows)."""
        self._stop_bots()
        self.variant = record.variant
        self._set_options_quietly(self.variant.options())
        self._set_seats_quietly(tuple(self._fit_seats(table_seats(record))))
        self._syncing = True
        try:
            self.seed = record.seed
            self.seed_text.value = str(record.seed)
        finally:
            self._syncing = False
        self._sync_seat_widgets()
        self._sync_option_widgets()

    def show_replay_position(self, engine: Engine, note: str) -> None:
        """A replayed position: the table and the coach show it; nobody plays it."""
        self._stop_bots()
        self._study = None
        self._decision = None
        self.panel.reset_turn()
        self.engine = engine
        self._bots = [None] * engine.players
        self._replaying = True
        self._log_at_start = 0
        self._say(note)
        self._refresh()

    def _rules_text(self) -> str | None:
        """The variant as a rule file, for games whose variants come from rule files."""
        if self.spec.variant_from_text is None:
            return None
        return rules_to_json(self.variant)


def play(game: str | None = None, *, title: bool = False, **kwargs: Any) -> widgets.VBox:
    """A table for ``game`` (by default the one the games name,
    :func:`~pushluck_teach.games.base.table_game`): a :class:`GameTable` (one human seat
    against the optimal-turn bot by default), or for a game without a draw/stop turn a
    :class:`~pushluck_teach.ui.card_table.CardTable` (one human against the game's bot).  A Play
    page has its own title, so the table shows its title only in projector mode (where the
    page's text is folded away) unless ``title=True``.  Projector mode starts as the page's
    address says (``?projector``) unless ``projector`` is given."""
    kwargs.setdefault("projector", None)
    game = game or table_game()
    if not get_game(game).has_turn_model:
        from pushluck_teach.ui.card_table import CardTable  # it builds on this module

        return CardTable(game, **kwargs)
    table = GameTable(game, **kwargs)
    if not title:
        table.title_html.add_class("pl-only-projector")
    return table
