"""Projector mode for every page: one switch, the same on a Play table, a lesson, the lab.

A :class:`ProjectorSwitch` is a "Projector mode" button.  Switched on, it marks itself with the
class ``pl-projector-on``, and the page's stylesheet (:data:`pushluck_teach.ui.theme.PAGE_CSS`,
rules of the form ``body:has(.pl-projector-on) …``) then restyles the *whole page*, whatever
cell an output came from: large type, the page's text folded away (its title stays), every
element marked with :func:`fold` (the number tables) folded behind one button ("Show the text
and number tables"), and the charts of a row side by side.  The charts the switch is given
(``charts``) get a projector height and larger chart type; their width follows their container
in both modes (:mod:`pushluck_teach.ui.figures`: no fixed width, the browser view re-sizes the
plot whenever its box changes), so a wide screen's width is used and 1280x720 does not overflow.

The page's address can ask for the mode: ``?projector`` (or ``?projector=1``; ``=0``, ``=off``
or ``=no`` ask for it off).  Voilà hands a kernel it starts for a page the address's query
string in ``QUERY_STRING``; a kernel taken from the app's warm pool was started before the
request, and the static site has no server at all, so the switch also reads ``location.search``
from the browser (:class:`QueryString`) once it is shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

import anywidget
import ipywidgets as widgets
from traitlets import Bool, Unicode, observe

from pushluck_teach.ui.accessibility import PageAccessibility
from pushluck_teach.ui.figures import sync_widget_state
from pushluck_teach.ui.theme import STYLESHEET

#: chart height (px) and chart font size in projector mode, for the charts a switch is given
PROJECTOR_CHART_HEIGHT = 300
PROJECTOR_CHART_FONT = 16
#: the class of a page's key content (checked to be in the first 1280x720 screen)
KEY_CLASS = "pushluck-key"
#: what projector mode does with a page's own text (ProjectorSwitch ``text``): the class that
#: tells the page's stylesheet
_TEXT_MODES = {"fold": "", "tables": "pl-keep-tables", "keep": "pl-keep-text"}
_OFF_WORDS = frozenset({"0", "off", "no", "false"})


class QueryString(anywidget.AnyWidget):
    """The page's ``location.search``, sent from the browser when the widget is shown."""

    _esm = """
    function render({ model, el }) {
      model.set("search", window.location.search || "");
      model.save_changes();
    }
    export default { render };
    """
    search = Unicode("").tag(sync=True)


def projector_requested(search: str | None = None) -> bool | None:
    """What a query string says about projector mode: True for ``?projector`` or
    ``?projector=1``, False for ``?projector=0`` (or ``off``, ``no``, ``false``), None when it
    does not mention it.  ``search`` defaults to the kernel's ``QUERY_STRING`` (Voilà)."""
    if search is None:
        search = os.environ.get("QUERY_STRING", "")
    values = parse_qs(search.lstrip("?"), keep_blank_values=True).get("projector")
    if values is None:
        return None
    return values[-1].strip().lower() not in _OFF_WORDS


def fold(*parts: widgets.Widget) -> None:
    """Mark ``parts`` (number tables, long explanations) as folded away in projector mode; the
    switch's "Show the text and number tables" button opens them."""
    for part in parts:
        part.add_class("pl-fold")


def mark_key(*parts: widgets.Widget) -> None:
    """Mark ``parts`` as the page's key content: in projector mode they must be inside the
    first 1280x720 screen (``tests/test_browser_pages.py`` checks it), and a switch made
    with ``fold_outputs=True`` keeps only the outputs that hold them."""
    for part in parts:
        part.add_class(KEY_CLASS)


def fold_tables(*parts: widgets.Widget) -> None:
    """Fold away only the tables inside ``parts`` (HTML widgets whose first lines state the
    answer and whose tables list every number) in projector mode."""
    for part in parts:
        part.add_class("pl-fold-tables")


def chart_row(*charts: widgets.Widget, **kwargs: Any) -> widgets.HBox:
    """Charts side by side, each as wide as the row allows (they wrap below one another when a
    chart would be narrower than about 380 px)."""
    row = widgets.HBox(list(charts), **kwargs)
    row.add_class("pl-charts")
    return row


class ProjectorSwitch(widgets.HBox):
    """The "Projector mode" button of a page (see the module docstring).

    Traits: ``on`` (projector mode), ``tables_open`` (the folded text and number tables shown
    again).  ``charts`` are the figure widgets whose height and type size change with the mode;
    ``on_change`` callbacks get the new mode.  ``on=None`` takes the mode from the page's
    address (``?projector``), else starts off.  ``details=False`` leaves out the "Show the text
    and number tables" button (a page that has its own, such as a Play table).
    ``text`` says what projector mode does with the page's own text: ``"fold"`` folds all but
    the title away, ``"tables"`` keeps its headings and tables (the start page: its links),
    ``"keep"`` keeps it all, in large type (a page that is its text, such as the teacher's
    guide).  ``fold_outputs=True`` also folds away every output that holds no key content
    (:func:`mark_key`; the charts the switch is given are key content), for a long page whose
    one key chart should fill the screen (:meth:`key_chart`)."""

    on = Bool(False)
    tables_open = Bool(False)

    def __init__(self, *, on: bool | None = None, charts: Iterable[Any] = (),
                 on_change: Iterable[Callable[[bool], None]] = (), details: bool = True,
                 projector_height: int = PROJECTOR_CHART_HEIGHT, text: str = "fold",
                 fold_outputs: bool = False) -> None:
        if text not in _TEXT_MODES:
            raise ValueError(f"text must be one of {', '.join(_TEXT_MODES)}, not {text!r}")
        self.toggle = widgets.ToggleButton(
            value=False, description="Projector mode",
            tooltip="Large type, the key charts side by side, the text and number tables "
                    "folded away (for 1280x720 and wider); ?projector in the address opens "
                    "the page this way",
            layout=widgets.Layout(width="auto"))
        self.toggle.add_class("pushluck-projector-toggle")
        self.details_toggle = widgets.ToggleButton(
            value=False, description="Show the text and number tables",
            tooltip="Projector mode folds the page's text and its number tables away; this "
                    "opens them", layout=widgets.Layout(width="auto"))
        self.details_toggle.add_class("pl-tables-toggle")
        self.query = QueryString()
        self.query.layout.display = "none"
        style = widgets.HTML(STYLESHEET)
        style.layout.display = "none"
        # every page has a switch: it carries the page's accessibility helper too
        self.accessibility = PageAccessibility()
        children: list[widgets.Widget] = [style, self.toggle, self.query, self.accessibility]
        if details:
            children.insert(2, self.details_toggle)
        super().__init__(children, layout=widgets.Layout(flex_flow="row wrap",
                                                         align_items="center"))
        self.add_class("pl-projector-switch")
        if _TEXT_MODES[text]:
            self.add_class(_TEXT_MODES[text])
        if fold_outputs:
            self.add_class("pl-fold-outputs")
        self._charts: list[Any] = []
        self._normal: dict[int, tuple[Any, Any]] = {}
        self._callbacks: list[Callable[[bool], None]] = list(on_change)
        self.projector_height = projector_height
        self.add_charts(*charts)
        self.toggle.observe(lambda change: setattr(self, "on", change["new"]), names="value")
        self.details_toggle.observe(lambda change: setattr(self, "tables_open", change["new"]),
                                    names="value")
        self.query.observe(self._on_query, names="search")
        requested = projector_requested() if on is None else on
        if requested:
            self.on = True

    def add_charts(self, *charts: Any) -> None:
        """Figure widgets that take the projector height and type size with the mode."""
        for chart in charts:
            mark_key(chart)
            self._charts.append(chart)
            self._normal[id(chart)] = (chart.layout.height, chart.layout.font.size)
            if self.on:
                self._size(chart, True)

    def key_chart(self, chart: Any) -> Any:
        """:meth:`add_charts` for one chart, which is returned (a notebook cell's last line
        shows it): ``switch.key_chart(page_chart(...))``."""
        self.add_charts(chart)
        return chart

    def on_change(self, callback: Callable[[bool], None]) -> None:
        """Call ``callback(on)`` whenever the mode changes."""
        self._callbacks.append(callback)

    def _on_query(self, change: Any) -> None:
        requested = projector_requested(change["new"])
        if requested is not None:
            self.on = requested

    def _size(self, chart: Any, on: bool) -> None:
        height, font = self._normal[id(chart)]
        with chart.batch_update():
            chart.layout.height = self.projector_height if on else height
            chart.layout.font.size = PROJECTOR_CHART_FONT if on else font
        sync_widget_state(chart)

    @observe("on")
    def _on_changed(self, change: Any) -> None:
        on = bool(change["new"])
        self.toggle.value = on
        if on:
            self.add_class("pl-projector-on")
        else:
            self.remove_class("pl-projector-on")
        for chart in self._charts:
            self._size(chart, on)
        for callback in self._callbacks:
            callback(on)

    @observe("tables_open")
    def _on_tables(self, change: Any) -> None:
        self.details_toggle.value = bool(change["new"])
        if change["new"]:
            self.add_class("pl-tables-open")
        else:
            self.remove_class("pl-tables-open")


def add_projector_switch(page: widgets.Box, charts: Iterable[Any] = (), *,
                         on: bool | None = None, folded: Iterable[widgets.Widget] = (),
                         tables: Iterable[widgets.Widget] = (),
                         projector_height: int = PROJECTOR_CHART_HEIGHT,
                         columns: bool = False) -> ProjectorSwitch:
    """Put a :class:`ProjectorSwitch` first on ``page`` (a lesson, a panel): ``charts`` take
    ``projector_height``, ``folded`` fold away whole, ``tables`` fold their tables away.
    ``columns=True``: in projector mode the page's rows that hold a chart share the screen two
    to a row (a chart row fills the gap beside the one before it), every other row spans the
    width, so a page with its charts one below another fits 1280x720."""
    switch = ProjectorSwitch(on=on, charts=charts, projector_height=projector_height)
    if columns:
        page.add_class("pl-columns")
    fold(*folded)
    fold_tables(*tables)
    page.children = (switch, *page.children)
    return switch


__all__ = [
    "add_projector_switch", "fold_tables", "KEY_CLASS", "mark_key",
    "PROJECTOR_CHART_FONT", "PROJECTOR_CHART_HEIGHT", "ProjectorSwitch", "QueryString",
    "chart_row", "fold", "projector_requested",
]
