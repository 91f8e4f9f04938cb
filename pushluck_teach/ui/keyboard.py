"""Keyboard play: one key for each action button of a table, stated on the page.

ipywidgets has no key bindings, so :class:`KeyListener` (a small anywidget, the same in Voilà
and on the static site) listens for ``keydown`` on the page and sends the key to Python.  It
ignores a key typed into a text box or a menu, a key held down (auto-repeat) and any key with
Ctrl, Alt or Cmd, and sends only the keys the table handles now (``bound_keys``).  With two tables
on one page, the table that holds the focus gets the key (the first table when none does); a
table that is not shown (on a tab not open) gets none.

Python then *clicks the button* (:func:`press`): a key does exactly what a click does, with the
same guards — a disabled or hidden button's key does nothing, a bot's turn refuses as a click
would, and fast repeated keys are handled one after another like fast clicks.

Two schemes, both derived from the buttons on the table (nothing here names a game):

* :func:`table_bindings` (draw/stop tables): D the draw button, S the stop button (whatever the
  game calls them: Roll, Stash, Leave...), 1-9 the other choices in the order of their buttons
  (relics, ace values...), N New game.
* :class:`RowKeys` (card tables: a row of buttons per kind of action): a letter picks a row
  (P play, X discard, D draw, else the kind's first free letter); a row of one button acts at
  once, a longer row waits for the button's number (1-9, in the row's order; Escape cancels).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

import anywidget
import ipywidgets as widgets
from traitlets import List, Unicode

from pushluck_teach.ui.announce import Announcer

#: the letters of common kinds of card-table actions (other kinds take their first free letter)
ROW_LETTERS = {"play": "p", "discard": "x", "draw": "d", "take": "t"}
#: letters never given to a row: N (New game) and H (Show my hand) mean the same on every table
RESERVED_LETTERS = frozenset("nh")
DIGITS = tuple("123456789")
ESCAPE = "Escape"

#: a clear focus ring on every control (two tones: visible on light and dark buttons), wider in
#: projector mode
FOCUS_CSS = """<style>
.pushluck-table :focus-visible, .pushluck-cardtable :focus-visible,
.jupyter-widgets :focus-visible, .jp-OutputArea :focus-visible {
  outline: 3px solid #0b3d91 !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 5px #ffffff !important; }
/* a button's ring is drawn inside it: a row of buttons that clips its overflow keeps it */
.jupyter-widgets .jupyter-button:focus-visible { outline-offset: -3px !important;
  box-shadow: inset 0 0 0 5px #ffffff !important; }
body:has(.pl-projector-on) :focus-visible { outline-width: 4px !important; }
.pushluck-keys-line { font-size: 14px; color: #1a1a1a; margin: 2px 4px; line-height: 1.4; }
.pushluck-keys-line kbd { border: 1px solid #5a5a5a; border-radius: 3px; padding: 0 4px;
  background: #f4f4f4; font-family: inherit; font-size: inherit; font-weight: bold; }
body:has(.pl-projector-on) .pushluck-keys-line { font-size: 16px; }
</style>"""

_LISTENER_JS = """
const TEXT_TYPES = new Set(["", "text", "number", "search", "email", "password", "url",
                            "tel", "date", "time"]);
function typing(node) {
  if (!node || !node.tagName) { return false; }
  if (node.isContentEditable) { return true; }
  if (node.tagName === "TEXTAREA" || node.tagName === "SELECT") { return true; }
  return node.tagName === "INPUT"
    && TEXT_TYPES.has((node.getAttribute("type") || "").toLowerCase());
}
function initialize({ model }) {
  const onKey = (event) => {
    if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey
        || event.altKey || event.isComposing) { return; }
    if (typing(event.target) || typing(document.activeElement)) { return; }
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (!model.get("bound_keys").includes(key)) { return; }
    const mine = document.querySelector(
      '[data-pushluck-keys="' + model.get("scope") + '"]');
    if (!mine) { return; }
    // a table on a tab not shown (the Variant Lab's) takes no keys
    const shown = (node) => {
      const table = node.closest(".pushluck-keys-scope");
      return Boolean(table) && table.getClientRects().length > 0;
    };
    const listeners = Array.from(document.querySelectorAll("[data-pushluck-keys]"))
      .filter(shown);
    if (!listeners.includes(mine)) { return; }
    const active = document.activeElement;
    const holding = listeners.find((node) => {
      const table = node.closest(".pushluck-keys-scope");
      return table && active && table.contains(active);
    });
    if ((holding || listeners[0]) !== mine) { return; }
    event.preventDefault();
    model.send({ key });
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
function render({ model, el }) {
  el.dataset.pushluckKeys = model.get("scope");
}
export default { initialize, render };
"""


class KeyListener(anywidget.AnyWidget):
    """Sends the page's key presses to ``on_key`` (see the module docstring).  ``bound_keys``:
    the keys handled now (lower-case letters, digits, ``Escape``); the table it sits in should have
    the class ``pushluck-keys-scope``."""

    _esm = _LISTENER_JS
    bound_keys = List(Unicode()).tag(sync=True)
    scope = Unicode("").tag(sync=True)

    def __init__(self, on_key: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scope = f"keys-{self.model_id}"
        self.layout.display = "none"
        self._on_key = on_key
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        key = content.get("key") if isinstance(content, dict) else None
        if isinstance(key, str) and key in self.bound_keys:
            self._on_key(key)


@dataclasses.dataclass(frozen=True)
class KeysArea:
    """What a table shows keyboard and screen-reader users, in one box: the line stating the
    keys, the page's key listener and the live region (with its :class:`Announcer`)."""

    keys_html: widgets.HTML
    listener: KeyListener
    announcer: Announcer
    box: widgets.VBox


def keys_area(on_key: Callable[[str], None]) -> KeysArea:
    """A table's :class:`KeysArea`; ``on_key`` gets every bound key pressed on the page."""
    keys_html = widgets.HTML()
    listener = KeyListener(on_key)
    announcer = Announcer()
    focus_css = widgets.HTML(FOCUS_CSS)
    focus_css.layout.display = "none"
    box = widgets.VBox([focus_css, keys_html, announcer.region, listener])
    box.add_class("pushluck-keys")
    return KeysArea(keys_html, listener, announcer, box)


@dataclasses.dataclass(frozen=True)
class KeyBinding:
    """One key of a table: ``key`` (``"d"``, ``"1"``) clicks ``button``, whose words
    ``label`` are stated on the page."""

    key: str
    label: str
    button: widgets.Button


def usable(button: widgets.Button) -> bool:
    """Whether a click on ``button`` would do anything: enabled and shown."""
    return not button.disabled and button.layout.display != "none"


def press(bindings: Iterable[KeyBinding], key: str) -> bool:
    """Click the button bound to ``key`` if it is usable; whether it was clicked."""
    for binding in bindings:
        if binding.key == key:
            if not usable(binding.button):
                return False
            binding.button.click()
            return True
    return False


def table_bindings(draw: widgets.Button, stop: widgets.Button,
                   others: Sequence[widgets.Button],
                   new_game: widgets.Button | None = None) -> tuple[KeyBinding, ...]:
    """The keys of a draw/stop table: D draw, S stop, 1-9 the other choices in button order,
    N New game (see the module docstring)."""
    bindings = [KeyBinding("d", draw.description, draw),
                KeyBinding("s", stop.description, stop)]
    bindings += [KeyBinding(digit, button.description, button)
                 for digit, button in zip(DIGITS, others, strict=False)]
    if new_game is not None:
        bindings.append(KeyBinding("n", new_game.description, new_game))
    return tuple(bindings)


def keys_line_html(bindings: Iterable[KeyBinding], *, note: str = "") -> str:
    """The short visible line that states the keys: ``Keys: D Draw · S Stop · N New game``."""
    parts = [f"<kbd>{escape(b.key.upper())}</kbd> {escape(b.label)}" for b in bindings]
    extra = f" {escape(note)}" if note else ""
    return "<div class='pushluck-keys-line'>Keys: " + " · ".join(parts) + extra + "</div>"


def row_letters(kinds: Sequence[str]) -> dict[str, str]:
    """A letter for each kind of action: :data:`ROW_LETTERS`, else the kind's first letter not
    taken (then any free letter)."""
    letters: dict[str, str] = {}
    taken = set(RESERVED_LETTERS)
    for kind in kinds:
        wanted = ROW_LETTERS.get(kind)
        if wanted is None or wanted in taken:
            wanted = next((c for c in itertools.chain(kind.lower(), "abcdefgijklmoqruvwyz")
                           if c.isalpha() and c not in taken), None)
        if wanted is None:
            continue
        letters[kind] = wanted
        taken.add(wanted)
    return letters


class RowKeys:
    """Keys for rows of action buttons (a card table): a letter picks a row, a digit the
    button in it (see the module docstring).  :meth:`press` returns what to announce."""

    def __init__(self) -> None:
        self.rows: dict[str, list[widgets.Button]] = {}
        self.letters: dict[str, str] = {}
        self.fixed: dict[str, widgets.Button] = {}
        self.pending: str | None = None

    def set_rows(self, rows: dict[str, list[widgets.Button]],
                 fixed: dict[str, widgets.Button]) -> None:
        """The buttons on the table now: ``rows`` by kind (in their order on the page) and
        ``fixed`` single-key buttons (``{"n": New game, "h": Show my hand}``); a row chosen
        before is forgotten."""
        self.rows = {kind: list(buttons) for kind, buttons in rows.items() if buttons}
        self.letters = row_letters(list(self.rows))
        self.fixed = dict(fixed)
        self.pending = None

    def keys(self) -> list[str]:
        """The keys that do something now."""
        keys = [k for k, b in self.fixed.items() if usable(b)] + list(self.letters.values())
        if self.pending is not None:
            keys += list(DIGITS[:len(self.rows[self.pending])]) + [ESCAPE]
        return keys

    def press(self, key: str) -> str:
        """Handle ``key``; the sentence to announce ("" when the click says it itself)."""
        if key == ESCAPE:
            self.pending = None
            return "Choice cancelled."
        if key in DIGITS and self.pending is not None:
            buttons = self.rows[self.pending]
            index = DIGITS.index(key)
            self.pending = None
            if index < len(buttons) and usable(buttons[index]):
                buttons[index].click()
            return ""
        if key in self.fixed:
            self.pending = None
            if usable(self.fixed[key]):
                self.fixed[key].click()
            return ""
        kind = next((k for k, letter in self.letters.items() if letter == key), None)
        if kind is None:
            return ""
        buttons = [b for b in self.rows[kind] if usable(b)]
        if len(self.rows[kind]) == 1:
            self.pending = None
            if buttons:
                self.rows[kind][0].click()
            return ""
        self.pending = kind
        listed = ", ".join(f"{n} {self._short(kind, b.description)}"
                           for n, b in zip(DIGITS, self.rows[kind], strict=False))
        return f"{kind.capitalize()}: press {listed}; Escape cancels."

    @staticmethod
    def _short(kind: str, words: str) -> str:
        """A button's words without its row's verb: ``YH`` for "Discard YH"."""
        head, _, rest = words.partition(" ")
        return rest if head.lower() == kind.lower() and rest else words

    def bindings(self) -> list[tuple[str, str]]:
        """``(keys, what they do)`` for the visible keys line."""
        out = []
        for kind, letter in self.letters.items():
            buttons = self.rows[kind]
            if len(buttons) == 1:
                out.append((letter.upper(), buttons[0].description))
            else:
                out.append((f"{letter.upper()} then 1-{min(len(buttons), 9)}", kind))
        names = {"n": "New game", "h": "Show my hand"}
        out += [(k.upper(), names.get(k, b.description)) for k, b in self.fixed.items()
                if usable(b)]
        return out

    def line_html(self) -> str:
        """The visible keys line of the rows now."""
        parts = [f"<kbd>{escape(keys)}</kbd> {escape(words)}" for keys, words in self.bindings()]
        numbered = any(len(buttons) > 1 for buttons in self.rows.values())
        return ("<div class='pushluck-keys-line'>Keys: " + " · ".join(parts)
                + (" (1 = the row's first button)" if numbered else "") + "</div>")
