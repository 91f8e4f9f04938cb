"""A table for card-play games (a game without a draw/stop turn, such as Lost Cities).

:class:`CardTable` names no game.  It draws what the engine's :meth:`view` lists in
``TableView.zones``: the zones of one colour (each side's expeditions, the shared discard piles)
in that colour's column, a row per owner under a heading that also shows the owner's zones
without a colour (a hidden hand, the deck), and the hand of the player who looks at the table
large below.  One button per legal action
(``Engine.legal_actions`` / ``Engine.action_label``), the scores, and the log newest first; the
game's own bots (``GameSpec.bots``) move at once after a human.  The opponent is chosen on the
page: each of the game's bots or a classmate (hot seat: each hand stays hidden until its player
presses "Show my hand"); changing it during a game asks first, then deals a new game.

Beside the table, the analysis panel asks the engine about one subject at a time
(``Engine.analysis_subjects()``, ``Engine.analysis(subject)``, a report with ``headline``,
``text_lines()`` and ``chart_bars()``) and shows two Plotly figures updated in place (number
labels on a number axis with even ticks, chances on an axis from 0 to 1, a distribution's
probabilities from 0 to a round top above its largest bar), plus the shell
command that prints the same numbers (``Engine.position_flags(subject)``).  The report and the
bots' moves are computed in worker threads unless ``background=False`` (tests); a click while a
bot plays is refused with a message.  Every handler is guarded: a bad click leaves a one-line
message and the game unchanged.

Keyboard: a letter per row of action buttons, then the button's number (P then 1-8 plays the
hand's card, X discards, D draws; :class:`pushluck_teach.ui.keyboard.RowKeys`), N New game, H
Show my hand, stated under the buttons; a polite live region announces the moves and the
coach's headline (:mod:`pushluck_teach.ui.announce`).
"""

from __future__ import annotations

import contextlib
import math
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
from pushluck_teach.ui.keyboard import RowKeys, keys_area
from pushluck_teach.ui.projector import ProjectorSwitch, chart_row, fold
from pushluck_teach.ui.recording import RecordingArea, table_seats
from pushluck_teach.ui.review_panel import ReviewPanel
from pushluck_teach.ui.table import action_class
from pushluck_teach.ui.table_parts import (
    HUMAN,
    BotRunner,
    ClickGuard,
    command_text,
    odds_arguments,
)
from pushluck_teach.ui.theme import FONT_STACK, OKABE_ITO, STYLESHEET

#: the log's lines kept on the page (newest first; the box scrolls for the older ones)
LOG_LINES_SHOWN = 60
#: at most this many bars (of a chart of names) carry their value as text: more would overlap
#: or shrink below a readable size; the axis and the pointer read them
MAX_BAR_TEXTS = 6
#: chart title size: normal mode, projector mode (two charts share half a projector screen)
CHART_TITLE_SIZE = (14, 16)

#: the charts' titles while they show no position (a bot playing, a hidden hand, game over)
EMPTY_CHART_TITLES = ("Final score", "Chance of each missing card")

#: Suit colours by suit index (a face also carries its suit's name, never colour alone);
#: each text colour is at least 4.5:1 against its suit's colour.
SUIT_COLOURS: tuple[tuple[str, str], ...] = (
    (OKABE_ITO["yellow"], "#1B1B1B"),
    (OKABE_ITO["blue"], "#FFFFFF"),
    ("#FFFFFF", "#1B1B1B"),
    (OKABE_ITO["bluish_green"], "#000000"),
    (OKABE_ITO["vermillion"], "#000000"),
    (OKABE_ITO["reddish_purple"], "#000000"),
    (OKABE_ITO["sky_blue"], "#1B1B1B"),
    (OKABE_ITO["orange"], "#1B1B1B"),
)

CARD_TABLE_CSS = f"""
<style>
.pushluck-cardtable {{ font-family: {FONT_STACK}; }}
.pl-cardtable-top {{ align-items: center; column-gap: 12px; }}
.pl-cardtable-top .widget-dropdown {{ width: auto; }}
.pl-cardtable-top .widget-dropdown > select {{ font-size: 16px; min-width: 300px; }}
.pl-cardtable-top .widget-dropdown > label {{ font-size: 16px; width: auto;
  padding-right: 6px; }}
.pl-cardtable-confirm {{ align-items: center; column-gap: 8px; padding: 4px 8px;
  background: #FFF3C4; border: 1px solid #C9A227; border-radius: 6px; }}
.pl-cardtable-confirm .widget-html-content {{ font-size: 17px; }}
.pushluck-cardtable .jupyter-button {{ width: auto; padding: 0 12px; font-size: 16px; }}
.pushluck-cardtable .pushluck-action {{ width: auto !important; min-width: 0;
  padding: 0 12px; white-space: nowrap; font-size: 17px; }}
.pl-cardtable-actions .widget-hbox {{ gap: 4px; flex-wrap: wrap; }}
/* the board: one column per colour, one row per owner */
.pl-board {{ display: grid; column-gap: 4px; row-gap: 4px; align-items: start;
  margin: 4px 0; }}
.pl-board-head {{ font-size: 16px; font-weight: 700; text-align: center; border-radius: 5px;
  padding: 1px 2px; border: 1px solid #333; }}
.pl-board-title {{ font-size: 16px; line-height: 1.2; display: flex; flex-wrap: wrap;
  align-items: center; column-gap: 14px; row-gap: 2px; margin-top: 3px; }}
.pl-board-title > span[data-zone] {{ display: inline-flex; align-items: center; gap: 4px; }}
.pl-board-row-you {{ background: #FFF8DC; }}
.pl-board-cell {{ display: flex; flex-wrap: wrap; gap: 5px; min-height: 30px;
  align-content: flex-start; padding: 3px; border-radius: 5px; background: #F4F4F4; }}
.pl-board-cell.pl-board-row-you {{ background: #FFF3C4; }}
.pl-chip-top {{ outline: 3px solid #1B1B1B; outline-offset: 1px; }}
.pl-chip {{ box-sizing: border-box; min-width: 26px; height: 28px; padding: 0 2px;
  border: 1.5px solid #333; border-radius: 4px; display: inline-flex; align-items: center;
  justify-content: center; font-weight: 700; font-size: 16px; }}
.pl-board-none {{ color: #595959; font-size: 16px; padding-left: 4px; }}
.pl-back {{ box-sizing: border-box; min-width: 34px; height: 26px; padding: 0 4px;
  border: 1.5px solid #333; border-radius: 4px; display: inline-flex; align-items: center;
  justify-content: center; font-weight: 700; font-size: 16px; color: #fff;
  background: repeating-linear-gradient(45deg, #555, #555 4px, #777 4px, #777 8px); }}
.pushluck-zone {{ display: inline-flex; flex-direction: column; margin: 4px 8px 4px 0;
  vertical-align: top; min-width: 64px; }}
.pushluck-zone-label {{ font-size: 16px; color: #222; }}
.pushluck-zone-cards {{ display: flex; gap: 4px; flex-wrap: wrap; min-height: 62px; }}
.pushluck-face {{ box-sizing: border-box; width: 58px; height: 62px; border: 2px solid #333;
  border-radius: 7px; display: flex; flex-direction: column; align-items: center;
  justify-content: center; font-weight: 700; font-size: 22px; line-height: 1.1; }}
.pushluck-face .pl-suit {{ font-size: 13px; font-weight: 400; }}
.pushluck-back {{ background: repeating-linear-gradient(45deg, #555, #555 4px, #777 4px,
  #777 8px); color: #fff; }}
.pushluck-cardtable .pushluck-scores td, .pushluck-cardtable .pushluck-scores th {{
  font-size: 16px; padding: 1px 8px; }}
.pushluck-cardtable .pushluck-status {{ font-size: 19px; }}
.pushluck-cardtable .pushluck-log {{ font-size: 15px; max-height: 190px; }}
.pushluck-cardtable .pushluck-log .pl-log-newest {{ font-weight: 700; }}
/* the board and the odds side by side where they fit (charts as wide as the panel) */
.pl-cardtable-main {{ flex-wrap: wrap; column-gap: 16px; }}
.pl-cardtable-main > .pl-cardtable-play {{ flex: 1 1 560px; min-width: 0; }}
.pl-cardtable-main > .pushluck-analysis {{ flex: 1 1 460px; min-width: 0; }}
/* projector mode (ProjectorSwitch): board | odds with the two charts side by side, every
   text a student reads at least 16 px, the board compact so the hand and the expeditions fit
   1280x720 without scrolling */
.pl-projector-table .pl-cardtable-main {{ flex-wrap: nowrap; column-gap: 12px; }}
.pl-projector-table .pl-cardtable-main > .pl-cardtable-play {{ flex: 11 1 0; }}
.pl-projector-table .pl-cardtable-main > .pushluck-analysis {{ flex: 10 1 0; }}
.pl-projector-table .pl-cardtable-top .widget-dropdown > select {{ min-width: 260px; }}
.pl-projector-table .pushluck-status {{ font-size: 18px; line-height: 1.25; }}
.pl-projector-table .pushluck-scores td, .pl-projector-table .pushluck-scores th {{
  font-size: 16px; padding: 0 8px; line-height: 1.25; }}
.pl-projector-table .pl-board {{ margin: 2px 0; row-gap: 3px; }}
.pl-projector-table .pl-chip {{ font-size: 17px; }}
.pl-projector-table .pushluck-zone {{ margin: 0; }}
.pl-projector-table .pushluck-zone-cards {{ min-height: 0; }}
.pl-projector-table .pushluck-face {{ width: 56px; height: 58px; font-size: 22px; }}
.pl-projector-table .pushluck-face .pl-suit {{ font-size: 16px; }}
.pl-projector-table .pushluck-message {{ font-size: 17px; line-height: 1.25;
  min-height: 0; }}
.pl-projector-table .pushluck-action {{ height: 32px; padding: 0 8px; font-size: 17px; }}
.pl-projector-table .pushluck-headline {{ font-size: 19px; line-height: 1.3; }}
.pl-projector-table .pushluck-analysis .widget-toggle-buttons .widget-label {{
  font-size: 16px; }}
</style>
"""


def _suit_style(suit: int) -> str:
    background, ink = SUIT_COLOURS[suit % len(SUIT_COLOURS)]
    return f"background:{background};color:{ink}"


def face_html(face: CardFace) -> str:
    """One card face: its code large, its suit's name small; read aloud as its label."""
    label = escape(face.label)
    return (f'<div class="pushluck-face" role="img" aria-label="{label}" title="{label}" '
            f'data-card="{escape(face.code)}" style="{_suit_style(face.suit)}">'
            f'<span aria-hidden="true">{escape(face.code)}</span>'
            f'<span class="pl-suit" aria-hidden="true">{escape(face.suit_name)}</span></div>')


def chip_html(face: CardFace, *, top: bool = False, in_column: bool = False) -> str:
    """A card on the board: its code on its suit's colour, or ``in_column`` (its suit's column
    names the suit) its rank alone when the game gives one; ``top``: a pile's top card,
    outlined."""
    label = escape(face.label + (" (top)" if top else ""))
    css = "pl-chip pl-chip-top" if top else "pl-chip"
    shown = face.rank if in_column and face.rank else face.code
    return (f'<span class="{css}" role="img" aria-label="{label}" title="{label}" '
            f'data-card="{escape(face.code)}" style="{_suit_style(face.suit)}">'
            f'{escape(shown)}</span>')


def _back_html(count: int, css: str) -> str:
    return (f'<div class="{css}" role="img" aria-label="{count} cards face down">'
            f'{count}</div>')


def zone_html(zone: CardZone) -> str:
    """A zone: its label and its cards (face down: a back with the number of cards)."""
    if zone.hidden:
        body = _back_html(zone.count, "pushluck-face pushluck-back")
    elif zone.faces:
        body = "".join(face_html(face) for face in zone.faces)
    elif zone.cards:
        body = " ".join(escape(code) for code in zone.cards)
    else:
        body = '<span class="pl-board-none">empty</span>'
    return (f'<div class="pushluck-zone" role="group" aria-label="{escape(zone.label)}" '
            f'data-zone="{escape(zone.key)}"><span class="pushluck-zone-label">'
            f'{escape(zone.label)} ({zone.count})</span>'
            f'<div class="pushluck-zone-cards">{body}</div></div>')


def _cell_html(zone: CardZone, extra_class: str) -> str:
    """One colour's zone on the board: its cards as chips, a dash when empty.  A shared pile's
    last card is its top (the one a player may take): outlined, and said so."""
    pile = zone.owner is None
    if zone.hidden:
        body = _back_html(zone.count, "pl-back")
    elif zone.faces:
        last = len(zone.faces) - 1
        body = "".join(chip_html(face, top=pile and i == last, in_column=True)
                       for i, face in enumerate(zone.faces))
    elif zone.cards:
        body = " ".join(escape(code) for code in zone.cards)
    else:
        body = '<span class="pl-board-none" aria-hidden="true">–</span>'
    cards = [f.label for f in zone.faces]
    if pile and cards:
        cards[-1] += " (top)"
    label = f"{zone.label}: " + (", ".join(cards) if cards
                                 else f"{zone.count} cards" if zone.count else "empty")
    return (f'<div class="pl-board-cell {extra_class}" role="group" '
            f'aria-label="{escape(label)}" data-zone="{escape(zone.key)}">{body}</div>')


def _owner_prefix(owner: int | None) -> str:
    return "" if owner is None else f"Player {owner + 1}'s "


def _short_label(zone: CardZone) -> str:
    """A zone's label without its owner ("Player 2's hand" → "hand") and its colour."""
    label = zone.label
    prefix = _owner_prefix(zone.owner)
    if label.startswith(prefix):
        label = label[len(prefix):]
    if zone.suit_name:
        label = " ".join(w for w in label.split() if w != zone.suit_name)
    return label


def _other_html(zone: CardZone) -> str:
    """A zone without a colour at a row's end: its short name and its cards (a hand face
    down: a back with the count)."""
    cards = _back_html(zone.count, "pl-back") if zone.hidden else \
        "".join(chip_html(face) for face in zone.faces)
    return (f'<span role="group" aria-label="{escape(zone.label)} ({zone.count})" '
            f'data-zone="{escape(zone.key)}">{escape(_short_label(zone))} {cards}</span>')


def _row_title(zones: Sequence[CardZone], owner: int | None, names: Sequence[str]) -> str:
    """The row's heading: whose it is and what its zones are (``expeditions``, ``discard
    piles``): the zones' labels without their colour, when they agree."""
    kinds = {_short_label(z) for z in zones}
    kind = (kinds.pop() + "s") if len(kinds) == 1 else ""
    if owner is None:
        return f"<b>{escape(kind[:1].upper() + kind[1:] or 'Shared')}</b>"
    return f"<b>{escape(names[owner])}</b>" + (f": {escape(kind)}" if kind else "")


def board_html(zones: Sequence[CardZone], players: int, viewer: int | None,
               names: Sequence[str] | None = None) -> str:
    """The table seen from ``viewer``: a column per colour, a row per owner (the others on top,
    the shared zones in the middle, the viewer's at the bottom, Player 1's when nobody looks)
    under a heading that also shows the owner's zones without a colour (a hand face down, the
    deck), and the viewer's own hand large below.  ``names``: how the rows name each player."""
    names = list(names or [f"Player {p + 1}" for p in range(players)])
    bottom = viewer if viewer is not None else 0
    owners: list[int | None] = [p for p in range(players) if p != bottom] + [None, bottom]
    colours: list[tuple[str, int, str]] = []
    for zone in zones:
        if zone.colour is not None and zone.colour not in [c for c, _, _ in colours]:
            suit = zone.suit if zone.suit is not None else len(colours)
            colours.append((zone.colour, suit, zone.suit_name or zone.colour))
    below = [z for z in zones if z.owner == bottom and z.colour is None and not z.hidden]
    parts = [f'<div class="pl-board-head" style="{_suit_style(suit)}">{escape(name)}</div>'
             for _, suit, name in colours]
    for owner in owners:
        row = [z for z in zones if z.owner == owner and z not in below]
        coloured = {z.colour: z for z in row if z.colour is not None}
        others = [z for z in row if z.colour is None]
        if not row:
            continue
        you = " pl-board-row-you" if owner == viewer and viewer is not None else ""
        parts.append(f'<div class="pl-board-title" style="grid-column: 1 / -1">'
                     f'<span>{_row_title(list(coloured.values()), owner, names)}</span>'
                     + "".join(_other_html(z) for z in others) + "</div>")
        for colour, _, _ in colours:
            zone = coloured.get(colour)
            parts.append(_cell_html(zone, you) if zone is not None
                         else '<div class="pl-board-empty-cell"></div>')
    grid = (f'<div class="pl-board" style="grid-template-columns: '
            f'repeat({len(colours)}, minmax(0, 1fr))">{"".join(parts)}</div>')
    return grid + "".join(zone_html(z) for z in below)


def even_step(low: float, high: float, most_ticks: int = 6) -> float:
    """The smallest whole tick step (1, 2, 5, 10, 20, 25, 50, 100 ...) that puts at most
    ``most_ticks`` ticks (multiples of the step) between ``low`` and ``high``."""
    power = 1.0
    while True:
        for factor in ((1, 2, 5) if power < 10 else (1, 2, 2.5, 5)):
            step = factor * power
            if math.floor(high / step) - math.ceil(low / step) + 1 <= most_ticks:
                return step
        power *= 10


def number_axis(values: Sequence[float]) -> tuple[dict[str, Any], float]:
    """A linear axis for bars at the numbers ``values``: (axis settings with a range and at
    most six even ticks through 0, the bars' width)."""
    ordered = sorted(set(values))
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
    width = min(gaps) if gaps else 1.0
    low, high = ordered[0] - width, ordered[-1] + width
    if high - low < 10:
        middle = (low + high) / 2
        low, high = middle - 5, middle + 5
    step = even_step(low, high)      # at most six: room for "-20" under half a screen
    return ({"type": "linear", "range": [low, high], "tick0": 0, "dtick": step,
             "tickmode": "linear", "autorange": False}, 0.8 * width)


#: the probability axis: 0 to 1, a line every 0.2
PROBABILITY_AXIS: dict[str, Any] = {"range": [0, 1], "autorange": False, "tick0": 0,
                                    "dtick": 0.2, "tickmode": "linear"}
#: the tops (and tick steps) a distribution's probability axis may take
DISTRIBUTION_TOPS = ((0.05, 0.01), (0.1, 0.02), (0.25, 0.05), (0.5, 0.1), (1.0, 0.2))


def distribution_axis(values: Sequence[float]) -> dict[str, Any]:
    """The probability axis of a distribution over many outcomes (bars that add up to 1): from
    0 to the first round top (0.05, 0.1, 0.25, 0.5, 1) above its largest bar, so a score spread
    over a hundred values does not lie flat along a 0-1 axis; never above 1."""
    largest = max(values, default=0.0)
    top, step = next(((t, d) for t, d in DISTRIBUTION_TOPS if largest * 1.05 <= t),
                     DISTRIBUTION_TOPS[-1])
    return {**PROBABILITY_AXIS, "range": [0, top], "dtick": step}


def seat_label(seat: str, spec: GameSpec) -> str:
    """How the seat menu names a seat: a bot with what its game says of it, or a classmate."""
    if seat == HUMAN:
        return "a classmate (hot seat: take turns at this screen)"
    summary = getattr(spec.bots[seat](), "summary", "")
    return f"{seat} bot ({summary})" if summary else f"{seat} bot"


def seat_name(seat: str, humans: int) -> str:
    """A seat as the scores and the board name it: ``you``, ``classmate``, ``odds bot``."""
    if seat == HUMAN:
        return "you" if humans == 1 else "hot seat"
    return f"{seat} bot"


class CardTable(widgets.VBox):
    """A card-play game against the game's bots or a classmate (see the module docstring).

    Traitlets: ``game``, ``seats`` (``"human"`` or one of the game's bot names, per seat),
    ``seed`` (the deal), ``options`` (rule options), ``subject`` (what the analysis panel
    shows) and ``message`` (the last message on the page).
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
        self.add_class("pushluck-keys-scope")
        self.spec: GameSpec = get_game(game)
        if self.spec.has_turn_model:
            raise RulesError(f"{game} has a draw/stop turn: play it on the GameTable")
        seats = self._checked_seats(seats)
        self.background = background
        self._worker: LatestOnly[Any] = LatestOnly("pushluck-card-analysis")
        # one lock for the clicks and the bots' moves applied in the worker (ui/table_parts.py)
        self._lock = threading.RLock()
        self._guard = ClickGuard(self._show_error, self._lock)
        self._bot_runner = BotRunner("pushluck-card-bots", self._lock,
                                     show_error=self._bots_failed)
        self.human_moves = 0                # the humans' actions in this game
        self.replaying = False              # a loaded record's position is shown
        self.pending_opponent: str | None = None
        self._title_width = 40
        self._key_lock = threading.RLock()
        self.header = widgets.HTML(STYLESHEET + CARD_TABLE_CSS)
        self.status = widgets.HTML()
        self.table_html = widgets.HTML()
        self.message_html = widgets.HTML()
        self.show_hand = widgets.Button(description="Show my hand",
                                        tooltip="Hot seat: the next player looks at the hand")
        self.show_hand.add_class("pushluck-show-hand")
        self.show_hand.on_click(lambda _: self._guard.run(self._reveal))
        self.actions_box = widgets.VBox()
        # the opponent: the game's bots and a classmate at the same screen
        choices = [(seat_label(name, self.spec), name) for name in self.spec.bots]
        choices.append((seat_label(HUMAN, self.spec), HUMAN))
        self.opponent_menu = widgets.Dropdown(
            options=choices, value=seats[1] if len(seats) > 1 else None,
            description="Opponent" if seats[0] == HUMAN else "Player 2",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"))
        self.opponent_menu.add_class("pl-opponent-menu")
        self.opponent_menu.observe(self._on_opponent_menu, names="value")
        self.confirm_text = widgets.HTML()
        self.confirm_new = widgets.Button(description="Start a new game",
                                          tooltip="The game in progress ends")
        self.confirm_new.add_class("pl-confirm-new")
        self.confirm_new.on_click(lambda _: self._guard.run(self._confirm_opponent))
        self.confirm_keep = widgets.Button(description="Keep playing")
        self.confirm_keep.add_class("pl-confirm-keep")
        self.confirm_keep.on_click(lambda _: self._guard.run(self._keep_opponent))
        self.confirm_box = widgets.HBox([self.confirm_text, self.confirm_new, self.confirm_keep],
                                        layout=widgets.Layout(flex_flow="row wrap",
                                                              display="none"))
        self.confirm_box.add_class("pl-cardtable-confirm")
        self.new_game_button = widgets.Button(description="New game",
                                              tooltip="Deal new cards (the next deal)")
        self.new_game_button.add_class("pl-new-game")
        self.new_game_button.on_click(lambda _: self._guard.run(self.next_deal))
        self.log_html = widgets.HTML()
        # keyboard play and the screen reader's live region (ui/keyboard.py, ui/announce.py)
        self.row_keys = RowKeys()
        keys = keys_area(self._on_key)
        self.keys_html, self.key_listener = keys.keys_html, keys.listener
        self.announcer, self.keys_box = keys.announcer, keys.box
        self.subject_buttons = widgets.ToggleButtons(description="Odds for")
        self.subject_buttons.observe(self._on_subject, names="value")
        self.headline = widgets.HTML()
        self.numbers = widgets.HTML()
        self.cli_html = widgets.HTML()

        def chart_layout(title: str) -> dict[str, Any]:
            layout = base_layout(title, margin=TWO_LINE_TITLE_MARGIN)
            layout["title"]["font"] = {"size": CHART_TITLE_SIZE[0]}
            layout["yaxis"] = dict(PROBABILITY_AXIS)
            return layout

        self.score_figure = live_figure([go.Bar(x=[], y=[], text=[], textposition="outside",
                                                cliponaxis=False, constraintext="none",
                                                marker={"color": OKABE_ITO["blue"],
                                                        "line": {"width": 0}})],
                                        chart_layout(EMPTY_CHART_TITLES[0]))
        self.card_figure = live_figure([go.Bar(x=[], y=[], text=[], textposition="outside",
                                               cliponaxis=False, constraintext="none",
                                               marker={"color": OKABE_ITO["bluish_green"],
                                                       "line": {"width": 0}})],
                                       chart_layout(EMPTY_CHART_TITLES[1]),
                                       carry_bundle=False)
        panel = widgets.VBox([self.subject_buttons, self.headline,
                              chart_row(self.score_figure, self.card_figure), self.numbers,
                              self.cli_html])
        panel.add_class("pushluck-analysis")
        play = widgets.VBox([self.status, self.table_html, self.message_html, self.show_hand,
                             self.actions_box, self.keys_box, self.log_html])
        play.add_class("pl-cardtable-play")
        self.status.add_class("pushluck-status-box")
        self.message_html.add_class("pl-cardtable-message")
        self.actions_box.add_class("pl-cardtable-actions")
        self._play, self._panel = play, panel
        main = widgets.HBox([play, panel])
        main.add_class("pl-cardtable-main")
        # projector mode: the log, the number lines and the command fold away (one click)
        fold(self.log_html, self.numbers, self.cli_html)
        self.projector_switch = ProjectorSwitch(
            on=projector, charts=(self.score_figure, self.card_figure),
            on_change=[self._projector_changed])
        top = widgets.HBox([self.projector_switch, self.opponent_menu, self.new_game_button],
                           layout=widgets.Layout(flex_flow="row wrap"))
        top.add_class("pl-cardtable-top")
        self.recording = RecordingArea(self)
        self.review = ReviewPanel(self.recording, background=background)
        self.projector_switch.query.observe(
            lambda change: self.recording.open_query(change["new"]), names="search")
        self.children = [self.header, top, self.confirm_box, main, self.recording, self.review]
        self.game, self.seats, self.seed = game, seats, seed
        self.options = dict(options or {})
        if self.projector_switch.on:
            self._projector_changed(True)
        self.new_game()

    def _projector_changed(self, on: bool) -> None:
        if on:
            self.add_class("pl-projector-table")
        else:
            self.remove_class("pl-projector-table")
        # the last moves' message: under the board, or in projector mode atop the odds (the
        # board and the buttons fill the left half of the screen)
        play = [c for c in self._play.children if c is not self.message_html]
        panel = [c for c in self._panel.children if c is not self.message_html]
        if on:
            panel.insert(0, self.message_html)
        else:
            play.insert(play.index(self.table_html) + 1, self.message_html)
        self._play.children, self._panel.children = tuple(play), tuple(panel)
        self._title_width = 28 if on else 40
        size = CHART_TITLE_SIZE[1] if on else CHART_TITLE_SIZE[0]
        for fig in (self.score_figure, self.card_figure):
            with fig.batch_update():
                fig.layout.title.font.size = size
                if fig.layout.title.text:
                    fig.layout.title.text = wrapped_title(
                        fig.layout.title.text.replace("<br>", " "), self._title_width)
            sync_widget_state(fig)

    # -- seats ---------------------------------------------------------------------------------

    def _checked_seats(self, seats: Sequence[str]) -> tuple[str, ...]:
        """The seats in lower case; a one-line RulesError for a wrong count or an unknown
        seat."""
        chosen = tuple(str(s).strip().lower() for s in seats)
        if not self.spec.min_players <= len(chosen) <= self.spec.max_players:
            raise RulesError(f"{self.spec.name} takes {self.spec.min_players}-"
                             f"{self.spec.max_players} players, not {len(chosen)}")
        for seat in chosen:
            if seat != HUMAN and seat not in self.spec.bots:
                raise RulesError(f"unknown seat {seat!r} (human, {', '.join(self.spec.bots)})")
        return chosen

    def seat_names(self) -> list[str]:
        """Each player as the page names them: ``Player 2 (odds bot)``."""
        humans = sum(seat == HUMAN for seat in self.seats)
        return [f"Player {p + 1} ({seat_name(seat, humans)})" for p, seat in enumerate(self.seats)]

    def _opponent_words(self, seat: str) -> str:
        return "a classmate (hot seat)" if seat == HUMAN else f"the {seat} bot"

    def choose_opponent(self, seat: str) -> None:
        """What choosing ``seat`` in the opponent menu does: at once before the first move or
        after the game, else once the player confirms (see :meth:`_on_opponent_menu`)."""
        self.opponent_menu.value = seat

    def _on_opponent_menu(self, change: dict[str, Any]) -> None:
        if change["new"] is None or change["new"] == change["old"]:
            return
        self._guard.run(lambda: self._opponent_chosen(change["new"]))

    def _opponent_chosen(self, seat: str) -> None:
        if seat == self.seats[1]:
            self._hide_confirm()
            return
        if self.human_moves and not self.engine.is_over:
            self.pending_opponent = seat
            self.confirm_text.value = (
                f"Start a new game against {escape(self._opponent_words(seat))}? "
                "The game in progress ends.")
            self.confirm_keep.description = \
                f"Keep playing against {self._opponent_words(self.seats[1])}"
            self.confirm_box.layout.display = "flex"
            return
        self._start_against(seat)

    def _start_against(self, seat: str) -> None:
        self._hide_confirm()
        seats = list(self.seats)
        seats[1] = seat
        self.seats = self._checked_seats(seats)
        self.new_game(f"New game against {self._opponent_words(seat)}, deal {self.seed}.")

    def _confirm_opponent(self) -> None:
        if self.pending_opponent is None:
            raise RulesError("no new opponent was chosen")
        self._start_against(self.pending_opponent)

    def _keep_opponent(self) -> None:
        self._hide_confirm()
        self._set_menu_quietly(self.seats[1])
        self.message = f"Still playing against {self._opponent_words(self.seats[1])}."
        self._render_message()

    def _hide_confirm(self) -> None:
        self.pending_opponent = None
        self.confirm_box.layout.display = "none"

    def _set_menu_quietly(self, seat: str) -> None:
        self.opponent_menu.unobserve(self._on_opponent_menu, names="value")
        try:
            self.opponent_menu.value = seat
        finally:
            self.opponent_menu.observe(self._on_opponent_menu, names="value")

    # -- game flow -----------------------------------------------------------------------------

    def next_deal(self) -> None:
        """The New game button: the next deal, the same seats."""
        self.seed += 1
        self.new_game()

    def new_game(self, first_line: str | None = None) -> None:
        """Deal a new game with the current seats, seed and options."""
        seats = self._checked_seats(self.seats)
        variant = self.spec.variant(self.options)
        engine: Engine = self.spec.new_engine(variant, players=len(seats), seed=self.seed)
        self._bot_runner.stop()             # a bot still thinking about the old game is ignored
        self._hide_confirm()
        self.seats = seats
        if len(seats) > 1:
            self._set_menu_quietly(seats[1])
        self.engine = engine
        self.replaying = False
        self.recording.start(self.spec, engine, seats, self.seed)
        self.review.stop()
        self.review.clear()
        self.bots = {i: self.spec.bots[s]() for i, s in enumerate(seats) if s != HUMAN}
        self.humans = [i for i, s in enumerate(seats) if s == HUMAN]
        self.human_moves = 0
        self.revealed = len(self.humans) < 2
        subjects = engine.analysis_subjects()
        self.subject_buttons.unobserve(self._on_subject, names="value")
        self.subject_buttons.options = [(label, key) for label, key in subjects]
        self.subject = self.subject if self.subject in {k for _, k in subjects} else \
            (subjects[0][1] if subjects else "")
        self.subject_buttons.value = self.subject or None
        self.subject_buttons.observe(self._on_subject, names="value")
        self._let_bots_move([first_line or f"New game, deal {self.seed}: "
                             f"{' against '.join(self.seat_names())}."])

    def viewer(self) -> int | None:
        """Whose hand is face up: the only human; with two, the mover once revealed."""
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            return self.engine.current_player if self.revealed else None
        return None

    def click(self, action: str) -> None:
        """A human's action (what a button does)."""
        self._guard.run(lambda: self._act(action))

    def _act(self, action: str) -> None:
        engine = self.engine
        if self.replaying:
            raise RulesError("this is a replay of a record: press New game to play")
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
        self.recording.moved(engine, before, action)
        self.human_moves += 1
        if len(self.humans) >= 2 and (engine.current_player != before or engine.is_over):
            self.revealed = False
        self._let_bots_move(lines)

    def _let_bots_move(self, lines: list[str]) -> None:
        """The bots' moves until a human is to move: at once without ``background``, else off
        the click path (:class:`~pushluck_teach.ui.table_parts.BotRunner`: a search bot may
        take longer than a click should), the page showing the human's move meanwhile."""
        engine, bots = self.engine, self.bots
        if not self.background or not self._bot_runner.bot_to_move(engine, bots):
            lines = lines + self._bot_runner.play_now(engine, bots, self.recording.moved)
            self.message = " ".join(lines[-3:])
            self.render()
            return
        with self._lock:  # the bots' moves wait for the page to show the human's first
            self.message = " ".join(lines[-3:]
                                    + [f"Player {engine.current_player + 1} is playing…"])
            self.render()
            self._bot_runner.start(engine, bots, list(lines), on_move=self.recording.moved,
                                   on_done=self._bots_done)

    def _bots_done(self, lines: list[str]) -> None:
        self.message = " ".join(lines[-3:])
        self.render()

    def _bots_failed(self, line: str) -> None:
        """A bot's move failed: the position as it is, and the one line."""
        self.message = line
        with contextlib.suppress(Exception):  # the line shows even if the board cannot
            self.render()
        self._render_message(error=True)

    @property
    def thinking(self) -> bool:
        """Whether a bot is choosing its move in the worker (a click meanwhile is refused)."""
        return self._bot_runner.thinking

    # -- game records (pushluck_teach.ui.recording) ----------------------------------------------

    def show_record(self, record: Any) -> None:
        """Take a loaded record's rules, seats and seed (no new game: a replay follows)."""
        self._bot_runner.stop()
        seats = self._checked_seats(table_seats(record))
        self.seats, self.seed = seats, record.seed
        self.options = dict(record.variant.options())
        if len(seats) > 1:
            self._set_menu_quietly(seats[1])

    def show_replay_position(self, engine: Engine, note: str) -> None:
        """A replayed position, seen by the player to move; nobody plays it."""
        self._bot_runner.stop()
        self.engine = engine
        self.bots = {}
        self.humans = list(range(engine.players))
        self.revealed = True
        self.replaying = True
        self.message = note
        self.render()

    def _reveal(self) -> None:
        self.revealed = True
        self.message = f"Player {self.engine.current_player + 1}'s hand is shown."
        self.render()

    def _show_error(self, line: str) -> None:
        """A failed click's one line (ui/table_parts.py: ClickGuard); the game as it was."""
        self.message = line
        self._render_message(error=True)

    def _on_subject(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.subject = change["new"]
            self._guard.run(self._render_analysis)

    # -- rendering -----------------------------------------------------------------------------

    def render(self) -> None:
        engine = self.engine
        viewer = self.viewer()
        view = engine.view(viewer)
        mover = engine.current_player
        names = self.seat_names()
        rows = "".join(
            f'<tr class="{"pl-to-move" if p == mover and not engine.is_over else ""}">'
            f"<td>{escape(names[p])}</td><td>{view.scores[p]}</td>"
            f"<td>{escape('; '.join(view.player_lines[p]) if view.player_lines else '')}</td>"
            "</tr>" for p in range(engine.players))
        state = view.finished_text or (f"Player {mover + 1} to move: "
                                       f"{escape(' '.join(view.turn_lines))}")
        self.status.value = (
            f'<div class="pushluck-status">{escape(view.round_text)} · deck '
            f'{view.draw_pile} cards · {state}</div><div class="pushluck-scores"><table>'
            f"<tr><th>player</th><th>game score</th><th>this match</th></tr>{rows}</table></div>")
        self.table_html.value = board_html(view.zones, engine.players, viewer,
                                           names)
        self.show_hand.layout.display = "" if (len(self.humans) >= 2 and not self.revealed
                                               and not engine.is_over) else "none"
        self.show_hand.description = f"Player {mover + 1}: show my hand"
        self._render_actions(viewer)
        self._render_message()
        newest_first = list(reversed(engine.log[-LOG_LINES_SHOWN:]))
        self.log_html.value = (
            '<div class="pushluck-log" role="log" aria-label="moves, newest first">'
            '<div class="pl-log-title">Moves, newest first:</div>' + "".join(
                f'<div class="{"pl-log-newest" if i == 0 else "pl-log-line"}">'
                f"{escape(line)}</div>" for i, line in enumerate(newest_first)) + "</div>")
        self._render_analysis()

    def _render_actions(self, viewer: int | None) -> None:
        engine = self.engine
        legal = engine.legal_actions()
        if (engine.is_over or engine.current_player not in self.humans or viewer is None
                or self.replaying):
            self.actions_box.children = ()
            self._bind_keys({})
            return
        groups: dict[str, list[widgets.Button]] = {}
        for action in legal:
            label = engine.action_label(action)
            button = widgets.Button(description=label, tooltip=label,
                                    layout=widgets.Layout(width="auto"))
            button.add_class("pushluck-action")
            button.add_class(action_class(action))
            button.on_click(lambda _, a=action: self.click(a))
            groups.setdefault(action.partition(":")[0], []).append(button)
        self.actions_box.children = tuple(widgets.HBox(row, layout={"flex_flow": "row wrap"})
                                          for row in groups.values())
        self._bind_keys(groups)

    def _bind_keys(self, groups: dict[str, list[widgets.Button]]) -> None:
        """The keys of the buttons on the table now, and the line that states them."""
        with self._key_lock:
            self.row_keys.set_rows(groups, {"n": self.new_game_button, "h": self.show_hand})
            self.keys_html.value = self.row_keys.line_html()
            self.key_listener.bound_keys = self.row_keys.keys()

    def press_key(self, key: str) -> None:
        """What a key press on the page does: the click of the button it picks (see
        :class:`~pushluck_teach.ui.keyboard.RowKeys`), announcing a row's numbered choices."""
        with self._key_lock:
            said = self.row_keys.press(key)
            self.key_listener.bound_keys = self.row_keys.keys()
        if said:
            self.announcer.say(said)

    def _on_key(self, key: str) -> None:
        self.press_key(key)

    def _render_message(self, error: bool = False) -> None:
        cls = "pushluck-message pushluck-message-error" if error else "pushluck-message"
        self.message_html.value = f'<div class="{cls}" role="status">{escape(self.message)}</div>'
        if error:
            self.announcer.say(self.message)

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
        self.headline.value = ('<div class="pushluck-headline pushluck-pending">Computing the '
                               'exact odds…</div>')

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
        self.announcer.parts(self.message, note if report is None else
                             f"Coach, {self._subject_words()}: {report.headline}")
        if report is None:
            self.headline.value = f'<div class="pushluck-headline">{escape(note)}</div>'
            self.numbers.value = self.cli_html.value = ""
            for fig, title in zip(figures, EMPTY_CHART_TITLES, strict=True):
                with fig.batch_update():      # no stale title or axis of an earlier position
                    fig.data[0].x, fig.data[0].y, fig.data[0].text = [], [], []
                    fig.layout.title.text = title
                    fig.layout.xaxis.update(type="category", autorange=True, range=None,
                                            tickmode=None, dtick=None, tick0=None)
            sync_widget_state(*figures)
            return
        self.headline.value = f'<div class="pushluck-headline">{escape(report.headline)}</div>'
        for fig, chart in zip(figures, report.chart_bars(), strict=False):
            self._draw_chart(fig, chart)
        sync_widget_state(*figures)
        self.numbers.value = ('<div class="pushluck-numbers">' + "<br>".join(
            escape(line) for line in report.text_lines()) + "</div>")
        if flags is not None:
            command = command_text(odds_arguments(self.spec.name, flags, exact=True))
            self.cli_html.value = ('<div>Check it yourself in a terminal:<br><code class='
                                   f'"pushluck-cli">{escape(command)}'
                                   "</code></div>")

    def _subject_words(self) -> str:
        """The subject the coach's headline is about, as its button says."""
        return next((label for label, key in self.subject_buttons.options
                     if key == self.subject), self.subject)

    def _draw_chart(self, fig: Any, chart: Any) -> None:
        """One report chart into ``fig``: number labels (a distribution over scores) on a linear
        axis with even ticks, its probabilities from 0 to a round top (:func:`distribution_axis`);
        names side by side otherwise, their chances from 0 to 1, each bar's value as text when
        the bars are few enough for the texts not to overlap."""
        values = [float(v) for v in chart.values]
        texts = list(chart.texts)
        with fig.batch_update():
            bar = fig.data[0]
            if getattr(chart, "numeric_labels", False) and chart.labels:
                numbers = [float(label) for label in chart.labels]
                axis, width = number_axis(numbers)
                bar.x, bar.width = numbers, width
                fig.layout.xaxis.update(axis)
            else:
                bar.x, bar.width = list(chart.labels), None
                fig.layout.xaxis.update(type="category", autorange=True, range=None,
                                        tickmode=None, dtick=None, tick0=None)
            bar.y = values
            named = not getattr(chart, "numeric_labels", False)
            bar.text = texts if named and len(values) <= MAX_BAR_TEXTS else []
            bar.hovertext = texts
            bar.hovertemplate = "%{x}: %{hovertext}<extra></extra>"
            if getattr(chart, "probability", True) and not named:
                fig.layout.yaxis.update(distribution_axis(values))
            elif getattr(chart, "probability", True):
                fig.layout.yaxis.update(PROBABILITY_AXIS)
            else:
                fig.layout.yaxis.update(autorange=True, range=None, tickmode=None, dtick=None)
            fig.layout.title.text = wrapped_title(chart.title, self._title_width)
            fig.layout.xaxis.title.text = chart.x_title
            fig.layout.yaxis.title.text = chart.y_title

    def wait_for_bots(self, timeout: float = 120.0) -> None:
        """Block until the bots have finished moving and the position after their last move
        is shown (tests, benchmarks)."""
        self._bot_runner.wait(timeout)

    def wait(self) -> None:
        """Block until the bots' moves and the panel's computation have finished (tests)."""
        self._bot_runner.wait()
        self._worker.wait()
