"""The variant lab's widgets; they name no game.

* :class:`RuleSetForm` — build a push-your-luck game from parts, every field of
  :class:`~pushluck_teach.games.custom.rules.RuleSet` through a control; the state estimate is shown
  before anything is solved (too large: a message, never a freeze); "Play it" loads the rule set
  into a :class:`~pushluck_teach.ui.table.GameTable` (same table, same analysis panel); the
  rule set's JSON and ``?rules=`` link are shown for sharing, and JSON text can be imported.
* :class:`SideBySide` — any game, two variants A and B (every option through controls, the
  target too), compared: the turn's value, bust risk, readable stop rule, expected turns to
  reach the target alone, the first player's win chance where a whole-game solver covers the
  game; charts of the bust risk by draw and of the outcome distributions; differences in bold.
  Computed off the click path (a worker thread, latest request only).
* :class:`SweepPanel` — one whole-number option over a range, with a progress bar and a Stop
  button that keeps the points done (a worker thread; :func:`~pushluck_teach.solve.sweep.
  run_sweep`).
* :class:`QueryString` — the page address's query string, read in the browser (pooled Voilà
  kernels do not see the request), so a ``?rules=...`` link opens its game.
* :class:`VariantLab` — the four together in tabs.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import threading
import typing
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets
from traitlets import Unicode

from pushluck_teach.cards import RANKS, SUITS, CardError
from pushluck_teach.games import get_game
from pushluck_teach.games.base import (
    GameSpec,
    OptionError,
    RulesError,
    Variant,
    coerce_option,
    lab_game,
    parse_whole_number,
    turn_games,
)
from pushluck_teach.games.custom import (
    BUILT_GAMES,
    MAX_DICE_FACES,
    MAX_STATES,
    CardSet,
    CountRule,
    CustomTurnModel,
    RuleSet,
    estimate_states,
    start_state,
)
from pushluck_teach.games.rules_format import (
    rules_from_json,
    rules_from_token,
    rules_to_json,
    rules_to_token,
)
from pushluck_teach.solve.compare import Summary, summarise
from pushluck_teach.solve.sweep import (
    MAX_POINTS,
    SweepPoint,
    SweepResult,
    check_sweep,
    default_sweep,
    run_sweep,
    sweep_range,
    whole_number_options,
)
from pushluck_teach.ui.background import (
    EventLoopExecutor,
    LatestOnly,
    let_the_page_in,
    threads_available,
)
from pushluck_teach.ui.figures import live_figure, sync_widget_state
from pushluck_teach.ui.projector import ProjectorSwitch, QueryString, fold
from pushluck_teach.ui.table import GameTable

CARD_RANKS = (*RANKS, "JK")
#: The largest race target Compare A/B takes (expected turns to reach it alone).
MAX_RACE_TARGET = 5000
_ERROR = "<span style='color:#b00020'>{}</span>"


def _words(text: str) -> tuple[str, ...]:
    return tuple(part for part in text.replace(",", " ").split() if part)


def _message(text: str, error: bool = False, *, working: bool = False) -> str:
    """A status line: an error, a line saying the numbers are being worked out (marked
    ``pushluck-pending``, so a reader knows the charts below are not final), or plain words."""
    if error:
        return _ERROR.format(html.escape(text))
    if working:
        return f"<span class='pushluck-pending'>{html.escape(text)}</span>"
    return html.escape(text)


def _number_box(value: int, description: str, layout: widgets.Layout,
                **kwargs: Any) -> widgets.Text:
    """A whole-number box that keeps what was typed: a number box (``IntText``) in the browser
    drops what it cannot read ("1e9" became 19) and clamps silently; this one is read by
    :func:`_number` and a bad value is a message naming the field."""
    return widgets.Text(value=str(value), description=description, layout=layout,
                        continuous_update=False, **kwargs)


def _number(box: widgets.Text, field: str) -> int:
    """The whole number in ``box`` (an :class:`OptionError` naming ``field`` otherwise)."""
    return parse_whole_number(box.value, f"rules field {field!r}", OptionError)


# --------------------------------------------------------------------------------------------
# The query string


def rules_in_query(search: str) -> RuleSet | Variant | None:
    """The rule set a ``?rules=TOKEN`` query string carries (``None`` without one)."""
    values = parse_qs(search.lstrip("?")).get("rules")
    if not values:
        return None
    return rules_from_token(values[0])


# --------------------------------------------------------------------------------------------
# Build your own


class _CountRuleRow(widgets.HBox):
    """One bust rule "the n-th card of a kind"."""

    def __init__(self, rule: CountRule, on_change: Callable[[Any], None],
                 on_remove: Callable[[_CountRuleRow], None]) -> None:
        small = widgets.Layout(width="150px")
        self.ranks = widgets.Text(value=" ".join(rule.kind.ranks), description="ranks",
                                  layout=widgets.Layout(width="230px"), continuous_update=False)
        self.suits = widgets.Text(value=" ".join(rule.kind.suits), description="suits",
                                  layout=small, continuous_update=False)
        self.cards = widgets.Text(value=" ".join(rule.kind.cards), description="cards",
                                  layout=small, continuous_update=False)
        self.n = _number_box(rule.n, "n-th", widgets.Layout(width="120px"))
        self.per_rank = widgets.Checkbox(value=rule.per_rank, description="each rank apart",
                                         indent=False, layout=widgets.Layout(width="140px"))
        self.remove = widgets.Button(description="Remove", layout=widgets.Layout(width="80px"))
        self.remove.on_click(lambda _b: on_remove(self))
        for w in (self.ranks, self.suits, self.cards, self.n, self.per_rank):
            w.observe(on_change, names="value")
        super().__init__([self.ranks, self.suits, self.cards, self.n, self.per_rank,
                          self.remove], layout=widgets.Layout(flex_flow="row wrap"))

    def rule(self) -> CountRule:
        kind = CardSet(ranks=_words(self.ranks.value), suits=_words(self.suits.value),
                       cards=_words(self.cards.value))
        return CountRule(kind=kind, n=_number(self.n, "bust_counts.n"),
                         per_rank=self.per_rank.value)


class RuleSetForm(widgets.VBox):
    """Every part of a :class:`RuleSet` through a control (module docstring).

    ``rules`` is the last valid rule set; ``estimate`` its state estimate from the turn start;
    ``message`` says what is wrong while the controls do not make a valid game.
    """

    message = Unicode("")

    def __init__(self, rules: RuleSet | None = None, *,
                 on_play: Callable[[RuleSet], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("pushluck-lab-form")
        self.rules: RuleSet = rules or RuleSet()
        self.estimate: int = 0
        self.on_play = on_play
        self._loading = False
        self._build()
        self.load(self.rules)

    # ---- controls ---------------------------------------------------------------------------
    def _build(self) -> None:
        def wide() -> widgets.Layout:  # one Layout per control: hiding one hides only it
            return widgets.Layout(width="380px")

        style = {"description_width": "150px"}
        self.preset = widgets.Dropdown(options=[("(choose a model game)", "")]
                                       + [(r.name, k) for k, r in BUILT_GAMES.items()],
                                       description="Start from", style=style, layout=wide())
        self.preset.observe(self._on_preset, names="value")
        self.name = widgets.Text(description="Name", style=style, layout=wide(),
                                 continuous_update=False)
        self.use_dice = widgets.ToggleButtons(options=[("Cards", False), ("A die", True)],
                                              description="Draw from", style=style)
        self.dice = _number_box(6, "Faces", wide(), style=style)
        self.decks = _number_box(1, "Decks", wide(), style=style)
        self.jokers = _number_box(0, "Jokers per deck", wide(), style=style)
        self.remove_ranks = widgets.SelectMultiple(options=list(CARD_RANKS), rows=4,
                                                   description="Remove ranks", style=style)
        self.remove_suits = widgets.SelectMultiple(options=list(SUITS), rows=4,
                                                   description="Remove suits", style=style)
        self.remove_cards = widgets.Text(description="Remove cards", style=style, layout=wide(),
                                         continuous_update=False, placeholder="e.g. Qs Qh")
        self.values_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.rules_box = widgets.VBox()
        self.add_rule = widgets.Button(description="Add a bust rule")
        self.add_rule.on_click(lambda _b: self._add_rule_row(CountRule(
            kind=CardSet(ranks=("K",)), n=2)))
        self.bust_over = widgets.Text(description="Bust over total", style=style, layout=wide(),
                                      continuous_update=False, placeholder="none")
        self.bust_ending = widgets.Dropdown(options=[("none", None)] + [(str(d), d)
                                                                        for d in range(10)],
                                            description="Bust if total ends in", style=style)
        self.first_safe = widgets.Checkbox(description="First draw is always safe", indent=False)
        self.bank_minimum = _number_box(0, "Bank minimum", wide(), style=style)
        self.bonus_total = widgets.Text(description="Bonus at exact total", style=style,
                                        layout=wide(), continuous_update=False,
                                        placeholder="none")
        self.bonus = _number_box(0, "Bonus", wide(), style=style)
        self.allies = widgets.Text(description="Ally ranks", style=style, layout=wide(),
                                   continuous_update=False, placeholder="none, e.g. A")
        self.allies_persist = widgets.Checkbox(description="Allies stay between turns",
                                               indent=False)
        self.bust_penalty = _number_box(0, "A bust loses", wide(), style=style)
        self.reshuffle = widgets.Checkbox(description="Reshuffle every turn", indent=False)
        self.target = _number_box(100, "Target", wide(), style=style)
        self.status = widgets.HTML()
        self.play_button = widgets.Button(description="Play it", button_style="primary")
        self.play_button.add_class("pushluck-lab-play")
        self.preset.add_class("pushluck-lab-preset")
        self.name.add_class("pushluck-lab-name")
        self.play_button.on_click(lambda _b: self._play())
        self.json_text = widgets.Textarea(layout=widgets.Layout(width="560px", height="90px"),
                                          description="JSON")
        self.import_button = widgets.Button(description="Import JSON")
        self.import_button.on_click(lambda _b: self._import())
        self.link_html = widgets.HTML()
        for w in (self.name, self.use_dice, self.dice, self.decks, self.jokers,
                  self.remove_ranks, self.remove_suits, self.remove_cards, self.bust_over,
                  self.bust_ending, self.first_safe, self.bank_minimum, self.bonus_total,
                  self.bonus, self.allies, self.allies_persist, self.bust_penalty,
                  self.reshuffle, self.target):
            w.observe(self._changed, names="value")
        self.use_dice.observe(lambda _c: self._show_mode(), names="value")
        self.dice.observe(lambda _c: self._rebuild_values(), names="value")
        self.card_controls = widgets.VBox([self.decks, self.jokers, widgets.HBox(
            [self.remove_ranks, self.remove_suits]), self.remove_cards])
        section = functools.partial(widgets.HTML)
        self.children = [
            self.preset, self.name,
            section("<b>The deck or the die</b>"), self.use_dice, self.dice, self.card_controls,
            section("<b>Values</b>"), self.values_box,
            section("<b>Bust rules</b> (the n-th card of a kind in this turn busts)"),
            self.rules_box, self.add_rule, self.bust_over, self.bust_ending,
            section("<b>More rules</b>"), self.first_safe, self.bank_minimum, self.bonus_total,
            self.bonus, self.allies, self.allies_persist, self.bust_penalty, self.reshuffle,
            self.target,
            self.status, self.play_button,
            section("<b>Share</b>"), self.json_text, self.import_button, self.link_html,
        ]

    def _show_mode(self) -> None:
        dice = bool(self.use_dice.value)
        self.dice.layout.display = "flex" if dice else "none"
        self.card_controls.layout.display = "none" if dice else "flex"
        self.allies.layout.display = "none" if dice else "flex"
        self.allies_persist.layout.display = "none" if dice else "flex"
        self.reshuffle.layout.display = "none" if dice else "flex"
        self._rebuild_values()

    def _faces(self) -> int:
        """The die's faces as typed, or the last valid game's (while the box is being typed)."""
        try:
            faces = _number(self.dice, "dice")
        except RulesError:
            return self.rules.dice or 6
        return faces if 1 <= faces <= MAX_DICE_FACES else self.rules.dice or 6

    def _rebuild_values(self) -> None:
        labels = (tuple(str(i) for i in range(1, self._faces() + 1)) if self.use_dice.value
                  else CARD_RANKS)
        dice = bool(self.use_dice.value)
        current = {w.description: w.value for w in self.values_box.children}
        rows = []
        for label in labels:
            default = int(label) if dice else RuleSet().value_of(label)
            value = current.get(label, self.rules.value_of(label)
                                if bool(self.rules.dice) == dice else default)
            w = _number_box(value, label, widgets.Layout(width="100px"),
                            style={"description_width": "28px"})
            w.observe(self._changed, names="value")
            rows.append(w)
        self.values_box.children = rows
        self._changed()

    def _add_rule_row(self, rule: CountRule) -> None:
        row = _CountRuleRow(rule, self._changed, self._remove_rule_row)
        self.rules_box.children = (*self.rules_box.children, row)
        self._changed()

    def _remove_rule_row(self, row: _CountRuleRow) -> None:
        self.rules_box.children = tuple(r for r in self.rules_box.children if r is not row)
        self._changed()

    # ---- reading and writing ------------------------------------------------------------------
    def _optional_int(self, text: str, field: str) -> int | None:
        text = text.strip()
        if text.lower() in ("", "none", "-"):
            return None
        return parse_whole_number(text, f"rules field {field!r} (a whole number, or empty)",
                                  OptionError)

    def read(self) -> RuleSet:
        """The rule set the controls describe (a RulesError names a bad field)."""
        dice = _number(self.dice, "dice") if self.use_dice.value else 0
        allies = _words(self.allies.value)
        fields: dict[str, Any] = {
            "name": self.name.value or "My game",
            "dice": dice,
            "values": tuple((w.description, _number(w, f"values.{w.description}"))
                            for w in self.values_box.children),
            "bust_counts": tuple(row.rule() for row in self.rules_box.children),
            "bust_over": self._optional_int(self.bust_over.value, "bust_over"),
            "bust_ending": self.bust_ending.value,
            "first_draw_safe": self.first_safe.value,
            "bank_minimum": _number(self.bank_minimum, "bank_minimum"),
            "bonus_total": self._optional_int(self.bonus_total.value, "bonus_total"),
            "bonus": _number(self.bonus, "bonus"),
            "bust_penalty": _number(self.bust_penalty, "bust_penalty"),
            "target": _number(self.target, "target"),
        }
        if not dice:
            fields.update(decks=_number(self.decks, "decks"),
                          jokers=_number(self.jokers, "jokers"),
                          remove_ranks=tuple(self.remove_ranks.value),
                          remove_suits=tuple(self.remove_suits.value),
                          remove_cards=_words(self.remove_cards.value),
                          allies=CardSet(ranks=allies) if allies else None,
                          allies_persist=self.allies_persist.value,
                          reshuffle_each_turn=self.reshuffle.value)
        return RuleSet(**fields)

    def load(self, rules: RuleSet) -> None:
        """Set every control from ``rules``."""
        self._loading = True
        try:
            self.name.value = rules.name
            self.use_dice.value = bool(rules.dice)
            self.dice.value = str(rules.dice or 6)
            self.decks.value = str(rules.decks)
            self.jokers.value = str(rules.jokers)
            self.remove_ranks.value = tuple(rules.remove_ranks)
            self.remove_suits.value = tuple(rules.remove_suits)
            self.remove_cards.value = " ".join(rules.remove_cards)
            self.bust_over.value = "" if rules.bust_over is None else str(rules.bust_over)
            self.bust_ending.value = rules.bust_ending
            self.first_safe.value = rules.first_draw_safe
            self.bank_minimum.value = str(rules.bank_minimum)
            self.bonus_total.value = "" if rules.bonus_total is None else str(rules.bonus_total)
            self.bonus.value = str(rules.bonus)
            self.allies.value = " ".join(rules.allies.ranks) if rules.allies else ""
            self.allies_persist.value = rules.allies_persist
            self.bust_penalty.value = str(rules.bust_penalty)
            self.reshuffle.value = rules.reshuffle_each_turn
            self.target.value = str(rules.target)
            self.rules = rules
            self.values_box.children = ()
            self.rules_box.children = ()
            for rule in rules.bust_counts:
                self._add_rule_row(rule)
            self._show_mode()
        finally:
            self._loading = False
        self._changed()

    def _say(self, text: str, error: bool = False) -> None:
        self.message = text if error else ""
        self.status.value = _message(text, error)

    def _changed(self, _change: Any = None) -> None:
        if self._loading:
            return
        try:
            rules = self.read()
            shell = CustomTurnModel(rules, 0)
            estimate = estimate_states(shell, start_state(rules))
        except (RulesError, CardError, ValueError) as exc:
            self.play_button.disabled = True
            self._say(str(exc), True)
            return
        self.rules = rules
        self.estimate = estimate
        self.json_text.value = rules_to_json(rules, indent=None)
        token = rules_to_token(rules)
        self.link_html.value = (f"Link: <code>?rules={html.escape(token)}</code> "
                                "(add it to this page's address)")
        if estimate > MAX_STATES:
            self.play_button.disabled = True
            self._say(f"This game is too large to solve on the page: about {estimate:,} states "
                      f"from the turn start (the limit is {MAX_STATES:,}). Make busts likelier "
                      "or the deck smaller.", True)
            return
        self.play_button.disabled = False
        self._say(f"A valid game: about {estimate:,} states from the turn start (an upper "
                  "bound, counted before solving).")

    def _on_preset(self, change: Any) -> None:
        if change["new"]:
            self.load(BUILT_GAMES[change["new"]])

    def _import(self) -> None:
        try:
            rules = rules_from_json(self.json_text.value)
        except RulesError as exc:
            self._say(str(exc), True)
            return
        if not isinstance(rules, RuleSet):
            self._say("this JSON is a variant of a registered game: open it in Compare A/B",
                      True)
            return
        self.load(rules)

    def _play(self) -> None:
        if self.message or self.on_play is None:
            return
        self.on_play(self.rules)


# --------------------------------------------------------------------------------------------
# Side by side


class VariantEditor(widgets.VBox):
    """A preset and one control per option of a game's variant class."""

    def __init__(self, spec: GameSpec, label: str, on_change: Callable[[], None]) -> None:
        super().__init__(layout=widgets.Layout(width="470px", margin="4px"))
        self.spec = spec
        self.variant: Variant = next(iter(spec.presets.values()), spec.variant_cls())
        self.error = ""
        self._on_change = on_change
        self._syncing = False
        self.preset = widgets.Dropdown(options=[("(own)", "")] + [(spec.preset_title(n), n)
                                                                for n in spec.presets],
                                       description="Preset")
        self.preset.observe(self._on_preset, names="value")
        self.controls: dict[str, widgets.Widget] = {}
        hints = typing.get_type_hints(spec.variant_cls)
        rows = []
        for f in dataclasses.fields(spec.variant_cls):
            hint = hints.get(f.name, str)
            common = {"description": f.name, "style": {"description_width": "150px"}}
            if hint is bool:
                w: widgets.Widget = widgets.Checkbox(indent=False, **common)
            elif hint is int:  # Text, not IntText: a number box drops what it cannot read
                w = widgets.Text(continuous_update=False, layout=widgets.Layout(width="300px"),
                                 **common)
            elif hint in (str, int | None) or typing.get_origin(hint) is tuple and all(
                    a in (str, Ellipsis) for a in typing.get_args(hint)):
                w = widgets.Text(continuous_update=False, layout=widgets.Layout(width="420px"),
                                 **common)
            else:
                continue  # nested parts (a built game's bust rules...): the rule file sets them
            w.observe(functools.partial(self._on_control, f.name, hint), names="value")
            self.controls[f.name] = w
            rows.append(w)
        self.rule_text = widgets.Textarea(description="Rule file",
                                          layout=widgets.Layout(width="440px", height="70px"))
        self.rule_button = widgets.Button(description="Load rule file")
        self.rule_button.on_click(lambda _b: self._load_rule_text())
        extra = ([self.rule_text, self.rule_button] if spec.variant_from_text is not None
                 else [])
        self.children = [widgets.HTML(f"<b>{html.escape(label)}</b>"), self.preset, *rows,
                         *extra]
        self.set_variant(self.variant, notify=False)

    def set_variant(self, variant: Variant, *, notify: bool = True) -> None:
        self.variant = variant
        self.error = ""
        self._syncing = True
        try:
            for name, w in self.controls.items():
                value = getattr(variant, name)
                if isinstance(w, widgets.Checkbox):
                    w.value = bool(value)
                else:
                    w.value = ("" if value is None else ",".join(value)
                               if isinstance(value, tuple) else str(value))
            self.preset.value = next((n for n, v in self.spec.presets.items() if v == variant),
                                     "")
            if self.spec.variant_from_text is not None:
                self.rule_text.value = rules_to_json(variant)
        finally:
            self._syncing = False
        if notify:
            self._on_change()

    def _on_preset(self, change: Any) -> None:
        if not self._syncing and change["new"]:
            self.set_variant(self.spec.presets[change["new"]])

    def _on_control(self, name: str, hint: Any, change: Any) -> None:
        if self._syncing:
            return
        value = change["new"]
        try:
            if isinstance(value, str):
                value = (None if value.strip() == "" and hint == int | None
                         else coerce_option(name, value, hint))
            variant = self.variant.replace(**{name: value})
        except (RulesError, ValueError, TypeError) as exc:
            self.error = str(exc)
            self._on_change()
            return
        self.set_variant(variant)

    def _load_rule_text(self) -> None:
        try:
            variant = self.spec.variant(rules=self.rule_text.value)
        except RulesError as exc:
            self.error = str(exc)
            self._on_change()
            return
        self.set_variant(variant)


def _cell(a: float | None, b: float | None, digits: int = 4) -> tuple[str, str]:
    def show(x: float | None) -> str:
        return "—" if x is None else f"{x:.{digits}f}"

    if a is None or b is None or abs(a - b) < 10 ** -digits:
        return show(a), show(b)
    return f"<b>{show(a)}</b>", f"<b>{show(b)}</b> ({b - a:+.{digits}f})"


def comparison_html(a: Summary, b: Summary, race_target: int) -> str:
    """The A/B table; rows whose values differ are in bold with B − A."""
    rows = [
        ("Turn value (optimal play)", *_cell(a.turn_value, b.turn_value)),
        ("Bust risk of a turn", *_cell(a.bust_risk, b.bust_risk)),
        ("Best single threshold", *_cell(a.stop_rule.threshold, b.stop_rule.threshold, 0)),
        (f"Expected turns to reach {race_target} alone", *_cell(a.race_turns, b.race_turns, 2)),
        ("First player's win chance", *_cell(a.win_chance, b.win_chance)),
    ]
    text_a, text_b = a.stop_rule.text, b.stop_rule.text
    if text_a != text_b:
        text_a, text_b = f"<b>{html.escape(text_a)}</b>", f"<b>{html.escape(text_b)}</b>"
    else:
        text_a = text_b = html.escape(text_a)
    rows.append(("Stop rule", text_a, text_b))
    body = "".join(f"<tr><td>{n}</td><td>{x}</td><td>{y}</td></tr>" for n, x, y in rows)
    notes = "".join(f"<div><small>{html.escape(n)}</small></div>" for n in (*a.notes, *b.notes))
    return (f"<table class='pushluck-compare'><tr><th></th><th>A</th><th>B</th></tr>{body}"
            f"</table>{notes}")


class _StatusPanel(widgets.VBox):
    """A lab panel with one status line: ``status`` holds its words (a trait others watch),
    ``status_html`` shows them (:func:`_message`)."""

    status = Unicode("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.status_html = widgets.HTML()

    def _say(self, text: str, error: bool = False, *, working: bool = False) -> None:
        self.status = text
        self.status_html.value = _message(text, error, working=working)


class SideBySide(_StatusPanel):
    """Two variants of any game compared (module docstring)."""

    def __init__(self, game: str | None = None, *, race_target: int = 100,
                 variants: tuple[str, str] | None = None, background: bool = True,
                 **kwargs: Any) -> None:
        """``game``: the game shown first (default: the one whose spec opens Compare A/B,
        :func:`~pushluck_teach.games.base.lab_game`); ``variants``: the names of two presets
        of ``game`` for columns A and B (default: the first two presets)."""
        super().__init__(**kwargs)
        game = game or lab_game("compare")
        self.background = background
        self._initial = (game, variants)
        self.summaries: tuple[Summary, Summary] | None = None
        self._task: LatestOnly[Any] = LatestOnly("pushluck-compare")
        self.game = widgets.Dropdown(options=[(s.title, s.name) for s in turn_games()],
                                     value=game, description="Game")
        self.game.observe(lambda _c: self._load_game(), names="value")
        self.race_target = _number_box(race_target, "Race target", widgets.Layout(),
                                       style={"description_width": "initial"})
        self.race_target.observe(lambda _c: self.compare(), names="value")
        self.compare_button = widgets.Button(description="Compare", button_style="primary")
        self.compare_button.on_click(lambda _b: self.compare())
        self.editors_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.table_html = widgets.HTML()
        self.fig_bust = live_figure(layout={"title": "Bust risk of the k-th draw (optimal "
                                            "play)", "height": 320,
                                            "xaxis": {"title": "draw"},
                                            "yaxis": {"title": "P(bust)"}})
        self.fig_dist = live_figure(layout={"title": "Result of one turn", "height": 320,
                                            "barmode": "group",
                                            "xaxis": {"title": "result"},
                                            "yaxis": {"title": "probability"}},
                                    carry_bundle=False)
        self.children = [
            widgets.HBox([self.game, self.race_target, self.compare_button]),
            self.editors_box, self.status_html, self.table_html,
            widgets.HBox([self.fig_bust, self.fig_dist],
                         layout=widgets.Layout(flex_flow="row wrap")),
        ]
        self._load_game()

    def _load_game(self) -> None:
        spec = get_game(self.game.value)
        self.spec = spec
        self.a = VariantEditor(spec, "A", self.compare)
        self.b = VariantEditor(spec, "B", self.compare)
        game, names = self._initial
        if names is not None and game == spec.name:
            for editor, name in zip((self.a, self.b), names, strict=True):
                if name not in spec.presets:
                    raise RulesError(f"no preset {name!r} for {spec.name} "
                                     f"(presets: {', '.join(spec.presets)})")
                editor.set_variant(spec.presets[name], notify=False)
        elif len(spec.presets) > 1:
            self.b.set_variant(list(spec.presets.values())[1], notify=False)
        self.editors_box.children = [self.a, self.b]
        self.compare()

    def compare(self) -> None:
        """Recompute both columns off the click path (the latest request wins)."""
        for side, editor in (("A", self.a), ("B", self.b)):
            if editor.error:
                self._say(f"{side}: {editor.error}", True)
                return
        try:
            target = parse_whole_number(self.race_target.value, "race target", OptionError)
        except RulesError as exc:
            self._say(str(exc), True)
            return
        if not 1 <= target <= MAX_RACE_TARGET:
            self._say(f"the race target must be 1-{MAX_RACE_TARGET}, not {target}", True)
            return
        spec, a, b = self.spec, self.a.variant, self.b.variant

        def work() -> tuple[Summary, Summary]:
            return (summarise(spec, a, race_target=target),
                    summarise(spec, b, race_target=target))

        self._say("Computing A and B…", working=True)
        if not self.background:
            try:
                self._show(work(), target)
            except (RulesError, CardError, ValueError) as exc:
                self._say(str(exc), True)
            return
        self._task.supersede()
        self._task.submit(work, functools.partial(self._done, target))

    def _done(self, target: int, future: Any) -> None:
        try:
            self._show(future.result(), target)
        except (RulesError, CardError, ValueError) as exc:
            self._say(str(exc), True)
        except Exception as exc:  # never a traceback on the page
            self._say(f"unexpected error ({type(exc).__name__}): {exc}", True)

    def _show(self, summaries: tuple[Summary, Summary], target: int) -> None:
        self.summaries = summaries
        a, b = summaries
        self.table_html.value = comparison_html(a, b, target)
        with self.fig_bust.batch_update():
            self.fig_bust.data = ()
            for name, s in (("A", a), ("B", b)):
                self.fig_bust.add_scatter(x=list(range(1, len(s.bust_by_draw) + 1)),
                                          y=list(s.bust_by_draw), name=name, mode="lines+markers")
        with self.fig_dist.batch_update():
            self.fig_dist.data = ()
            for name, s in (("A", a), ("B", b)):
                self.fig_dist.add_bar(x=list(s.distribution), y=list(s.distribution.values()),
                                      name=name)
        sync_widget_state(self.fig_bust, self.fig_dist)
        self._say("A and B computed exactly (floats shown).")


# --------------------------------------------------------------------------------------------
# Sweeps


class SweepPanel(_StatusPanel):
    """One whole-number option of a game over a range, stoppable (module docstring)."""

    def __init__(self, game: str | None = None, variant: Variant | None = None,
                 **kwargs: Any) -> None:
        """``game``: the game swept first (default: the one whose spec opens the Sweep panel,
        :func:`~pushluck_teach.games.base.lab_game`)."""
        super().__init__(**kwargs)
        game = game or lab_game("sweep")
        self.result: SweepResult | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._later: Future[None] | None = None  # the sweep where threads are missing (Pyodide)
        self.game = widgets.Dropdown(options=[(s.title, s.name) for s in turn_games()], value=game,
                                     description="Game")
        self.option = widgets.Dropdown(description="Option")
        # Text, not IntText: a number box drops what it cannot read ("1e9" became 19)
        self.start = widgets.Text(value="50", description="from", continuous_update=False,
                                  layout=widgets.Layout(width="160px"))
        self.stop_at = widgets.Text(value="100", description="to", continuous_update=False,
                                    layout=widgets.Layout(width="160px"))
        self.step = widgets.Text(value="10", description="step", continuous_update=False,
                                 layout=widgets.Layout(width="160px"))
        self.whole_game = widgets.Checkbox(description="win chance too", indent=False)
        self.run_button = widgets.Button(description="Run", button_style="primary")
        self.stop_button = widgets.Button(description="Stop", disabled=True)
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="0 / 0")
        self.table_html = widgets.HTML()
        self.fig = live_figure(layout={"title": "Turn value and bust risk", "height": 340,
                                       "yaxis2": {"overlaying": "y", "side": "right",
                                                  "range": [0, 1]}},
                               carry_bundle=False)  # the lab's Compare charts bring it
        self.run_button.on_click(lambda _b: self.run())
        self.stop_button.on_click(lambda _b: self.stop())
        self.game.observe(lambda _c: self.load_game(variant=None), names="value")
        self.option.observe(self._on_option, names="value")
        self.children = [
            widgets.HBox([self.game, self.option, self.whole_game]),
            widgets.HBox([self.start, self.stop_at, self.step, self.run_button,
                          self.stop_button]),
            self.progress, self.status_html, self.table_html, self.fig,
        ]
        self.load_game(variant)

    def load_game(self, variant: Variant | None) -> None:
        """The game's whole-number options, with its own sweep chosen (the spec's ``sweep``)
        and a range within that option's allowed values."""
        same_game = getattr(self, "spec", None) is not None and self.spec.name == self.game.value
        self.spec = get_game(self.game.value)
        self.variant = variant or self.spec.variant_cls()
        chosen = self.option.value
        self.option.options = list(whole_number_options(type(self.variant)))
        if not same_game or chosen not in self.option.options:  # its own sweep and range
            start = default_sweep(self.spec, self.variant)
            self.option.value = None if start is None else start[0]
            self._on_option()

    def _on_option(self, _change: Any = None) -> None:
        if self.option.value:
            start, stop, step = sweep_range(self.variant, self.option.value)
            self.start.value, self.stop_at.value, self.step.value = \
                str(start), str(stop), str(step)

    def values(self) -> list[int]:
        """The points the range boxes give (an :class:`OptionError` names a bad box, a range
        with no points or too many, or a value the option does not take)."""
        start = parse_whole_number(self.start.value, "'from'", OptionError)
        stop = parse_whole_number(self.stop_at.value, "'to'", OptionError)
        step = parse_whole_number(self.step.value, "'step'", OptionError)
        if step < 1:
            raise OptionError(f"'step' must be 1 or more, not {step}")
        span = range(start, stop + 1, step)
        if not span:
            raise OptionError("no values: 'from' must be at most 'to'")
        if len(span) > MAX_POINTS:
            raise OptionError(f"{len(span):,} points: a sweep solves at most {MAX_POINTS} "
                              "(a larger step, or a shorter range)")
        values = list(span)
        check_sweep(self.variant, self.option.value, values)
        return values

    @property
    def running(self) -> bool:
        return ((self._thread is not None and self._thread.is_alive())
                or (self._later is not None and not self._later.done()))

    def run(self, *, wait: bool = False) -> None:
        """Start the sweep in a worker thread (``wait``: return when it is over)."""
        if self.running:
            self._say("A sweep is running: stop it first.", True)
            return
        if not self.option.value:
            self._say("This game has no whole-number option to sweep.", True)
            return
        try:
            values = self.values()
        except RulesError as exc:
            self._say(str(exc), True)
            return
        self._stop = threading.Event()
        self.progress.max = len(values)
        self.progress.value = 0
        self.progress.description = f"0 / {len(values)}"
        self.run_button.disabled = True
        self.stop_button.disabled = False
        self._say(f"Solving {len(values)} points…", working=True)
        spec, variant, key = self.spec, self.variant, self.option.value
        whole = self.whole_game.value

        def progress(done: int, total: int, point: SweepPoint) -> None:
            self.progress.value = done
            self.progress.description = f"{done} / {total}"
            let_the_page_in()  # Pyodide: the progress shows and a Stop click gets in

        def work() -> None:
            try:
                result = run_sweep(spec, variant, key, values, whole_game=whole,
                                   progress=progress, stop=self._stop)
                self._show(result)
            except (RulesError, ValueError) as exc:
                self._say(str(exc), True)
            except Exception as exc:  # never a silent stop: the page says what went wrong
                self._say(f"unexpected error ({type(exc).__name__}): {exc}", True)
            finally:
                self.run_button.disabled = False
                self.stop_button.disabled = True

        if not threads_available():  # Pyodide: on the event loop, after this click returns
            if wait:
                work()
            else:
                self._later = EventLoopExecutor().submit(work)
            return
        self._thread = threading.Thread(target=work, name="pushluck-sweep", daemon=True)
        self._thread.start()
        if wait:
            self._thread.join()

    def stop(self) -> None:
        """Stop after the point being solved; the points done are kept."""
        self._stop.set()
        self._say("Stopping after the point being solved…", working=True)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _show(self, result: SweepResult) -> None:
        self.result = result
        rows = "".join(
            f"<tr><td>{p.value}</td><td>{'' if p.turn_value is None else f'{p.turn_value:.4f}'}"
            f"</td><td>{'' if p.threshold is None else f'{p.threshold:g}'}</td>"
            f"<td>{'' if p.bust_risk is None else f'{p.bust_risk:.4f}'}</td>"
            f"<td>{'' if p.win_chance is None else f'{p.win_chance:.4f}'}</td>"
            f"<td>{html.escape(p.error or '')}</td></tr>" for p in result.points)
        self.table_html.value = (f"<table><tr><th>{html.escape(result.key)}</th><th>turn value"
                                 "</th><th>threshold</th><th>bust risk</th><th>win chance</th>"
                                 f"<th></th></tr>{rows}</table>")
        good = [p for p in result.points if p.error is None]
        with self.fig.batch_update():
            self.fig.data = ()
            self.fig.add_scatter(x=[p.value for p in good], y=[p.turn_value for p in good],
                                 name="turn value", mode="lines+markers")
            self.fig.add_scatter(x=[p.value for p in good], y=[p.bust_risk for p in good],
                                 name="bust risk", mode="lines+markers", yaxis="y2")
        sync_widget_state(self.fig)
        done = len(result.points)
        self._say(f"Stopped: {done} of {len(result.values)} points kept." if result.stopped
                  else f"Done: {done} points in {result.seconds:.1f} s.")


# --------------------------------------------------------------------------------------------
# The lab


class VariantLab(widgets.VBox):
    """Build your own game and play it, compare A/B, sweep an option (module docstring).

    ``query`` is a :class:`QueryString`; a ``?rules=TOKEN`` in the page address loads its rule
    set into the form (or, for a registered game's variant, into Compare's column A), and
    ``?projector`` switches ``projector_switch`` (a :class:`ProjectorSwitch`) on."""

    def __init__(self, *, compare_game: str | None = None, background: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the game the form builds (``GameSpec.lab``: ``"build"``), played and swept here
        self.built_game = lab_game("build")
        self.add_class("pushluck-lab")
        self.table: GameTable | None = None
        self.table_box = widgets.VBox()
        self.form = RuleSetForm(on_play=self.play)
        self.side_by_side = SideBySide(compare_game, background=background)
        self.sweep = SweepPanel(self.built_game, variant=self.form.rules)
        self.projector_switch = ProjectorSwitch(charts=(self.side_by_side.fig_bust,
                                                        self.side_by_side.fig_dist,
                                                        self.sweep.fig))
        fold(self.side_by_side.table_html, self.sweep.table_html)
        self.query = self.projector_switch.query
        self.query_html = widgets.HTML()
        self.query_html.add_class("pushluck-lab-link")
        self.query.observe(self._on_query, names="search")
        self.background = background
        self.tabs = widgets.Tab(children=[
            widgets.VBox([self.form, self.table_box]), self.side_by_side, self.sweep,
        ])
        for index, title in enumerate(("Build your own", "Compare A/B", "Sweep")):
            self.tabs.set_title(index, title)
        self.children = [self.projector_switch, self.query_html, self.tabs]

    def play(self, rules: RuleSet) -> None:
        """Play ``rules`` in the table (one human seat against the turn-optimal bot)."""
        if self.table is None:
            self.table = GameTable(self.built_game, options=rules.options(),
                                   seats=("human", "optimal"), background=self.background)
            self.table_box.children = [self.table]
        else:
            self.table.options = rules.options()
        if self.sweep.game.value == self.built_game:
            self.sweep.load_game(rules)

    def open_link(self, search: str) -> None:
        """Load the rule set of a ``?rules=`` query string."""
        try:
            rules = rules_in_query(search)
        except RulesError as exc:
            self.query_html.value = _message(f"The link's rules: {exc}", True)
            return
        if rules is None:
            return
        if isinstance(rules, RuleSet):
            self.form.load(rules)
            self.play(rules)
            self.query_html.value = _message(f"Opened the game from the link: {rules.name}.")
        else:
            game = type(rules).game
            self.side_by_side.game.value = game
            self.side_by_side.a.set_variant(rules)
            self.tabs.selected_index = 1
            self.query_html.value = _message(f"Opened a {game} variant from the link (column A).")

    def _on_query(self, change: Any) -> None:
        self.open_link(change["new"])


__all__ = [
    "QueryString", "RuleSetForm", "SideBySide", "SweepPanel", "VariantEditor", "VariantLab",
    "comparison_html", "rules_in_query",
]
