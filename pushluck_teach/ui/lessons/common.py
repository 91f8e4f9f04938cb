"""What every lesson shares: a solved position, the lessons' chart layout, in-place figure
updates, the message line, and which registered games fit a lesson.

Nothing here names a game: a lesson reads what it needs from the game's
:class:`~pushluck_teach.games.base.GameSpec` (its deck, whether a turn draws cards or rolls dice,
its presets); a lesson's default game and example positions come from its notebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

import plotly.graph_objects as go
from IPython.display import display

from pushluck_teach.cards import CardError, Deck, parse_cards
from pushluck_teach.games import turn_games
from pushluck_teach.games.base import (
    CARDS,
    DRAW,
    GameSpec,
    RulesError,
    TurnModel,
    Variant,
    get_game,
)
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui.figures import base_layout, live_figure, png_config
from pushluck_teach.ui.theme import TEXT_ERROR_COLOUR

Number = Fraction | float | int
#: What bad input raises on the way to a position (the lesson shows it as one line).
BAD_INPUT = (RulesError, CardError, ValueError)


# ---------------------------------------------------------------------------------------------
# positions


@dataclass(frozen=True)
class LessonPosition:
    """A solved position: the game's model and state and the exact solver for it."""

    game: str
    variant: Variant
    model: TurnModel[Any]
    state: Any
    solver: TurnSolver[Any]
    drawn: str

    @property
    def title(self) -> str:
        return get_game(self.game).title


def lesson_position(game: str, drawn: str = "", variant: Variant | str | None = None
                    ) -> LessonPosition:
    """Build and solve (exactly) ``game``'s position after ``drawn`` under ``variant`` (a preset
    name or a :class:`Variant`; default rules when None)."""
    spec = get_game(game)
    if isinstance(variant, str):
        if variant not in spec.presets:
            raise RulesError(f"unknown preset {variant!r} (presets: {', '.join(spec.presets)})")
        variant = spec.presets[variant]
    variant = variant or spec.variant_cls()
    kwargs = {"drawn": drawn} if drawn.strip() else {}
    model, state = spec.position(variant, **kwargs)
    return LessonPosition(game, variant, model, state, TurnSolver(model, exact=True), drawn)


@dataclass(frozen=True)
class StopFacts:
    """Stop now, draw once then stop, and optimal play at one position (exact)."""

    ev_stop: Fraction | None
    ev_draw_once: Fraction | None
    ev_optimal: Fraction
    best_action: str
    lookahead_action: str
    description: str


def lesson_when_to_stop(position: LessonPosition) -> StopFacts:
    """The three values of Lessons 2 and 5, and what a one-step lookahead would do."""
    return stop_facts(position.solver, position.model, position.state)


def stop_facts(solver: TurnSolver[Any], model: TurnModel[Any], state: Any) -> StopFacts:
    a = solver.analyse(state)
    stop = None if a.ev_stop is None else Fraction(a.ev_stop)
    once = None if a.ev_draw_once is None else Fraction(a.ev_draw_once)
    if stop is None:
        look = DRAW
    elif once is None:
        look = "stop"
    else:
        look = DRAW if once > stop else "stop"
    return StopFacts(stop, once, Fraction(a.ev_optimal), a.best_action, look,
                     model.describe(state))


# ---------------------------------------------------------------------------------------------
# which games a lesson offers


def game_choices(games: Iterable[str] | None = None,
                 keep: Callable[[GameSpec], bool] = lambda spec: True
                 ) -> list[tuple[str, str]]:
    """``(title, name)`` of the registered games a lesson offers: ``games`` in that order (the
    notebook's list; names not registered are left out) or every registered game, keeping
    those ``keep`` accepts."""
    specs = ([spec for spec in turn_games() if spec.name in set(games)] if games is not None
             else list(turn_games()))
    if games is not None:
        order = {name: k for k, name in enumerate(games)}
        specs.sort(key=lambda spec: order[spec.name])
    return [(spec.title, spec.name) for spec in specs if keep(spec)]


def draws_cards(spec: GameSpec) -> bool:
    """Whether a turn of the game draws cards from a deck (rather than rolling dice)."""
    return spec.draws == CARDS and spec.deck is not None


def remaining_cards(game: str, drawn: str, variant: Variant | None = None) -> list[str]:
    """The codes of the cards of ``game``'s full deck (under ``variant``; default rules when
    None) not yet drawn this turn, with repeats, in a fixed order."""
    spec = get_game(game)
    if spec.deck is None:
        raise RulesError(f"{spec.title} is not played with cards")
    deck = Deck(spec.deck(variant or spec.variant_cls()))
    return [card.code for card in deck.remove(parse_cards(drawn)).cards()]


def example_drawn(game: str) -> str:
    """The cards (or rolls) of the game's example position (its spec's ``example``), or ""."""
    return get_game(game).example.get("drawn", "")


def pick(value: str | None, choices: list[tuple[str, str]]) -> str:
    """``value`` when it is one of the choices' names, else the first choice's name."""
    names = [name for _, name in choices]
    if not names:
        raise RulesError("no registered game fits this lesson")
    return value if value in names else names[0]


# ---------------------------------------------------------------------------------------------
# figures and messages


def lesson_layout(title: str, *, height: int = 340, **extra: Any) -> dict[str, Any]:
    """The table charts' layout, sized for a lesson (a closer legend, less bottom margin); the
    width follows the chart's box on the page."""
    lesson = {"margin": {"l": 60, "r": 20, "t": 55, "b": 60},
              "legend": {"orientation": "h", "y": -0.22, "x": 0}}
    return base_layout(title, height=height, **{**lesson, **extra})


def as_widget(fig: go.Figure, filename: str) -> go.FigureWidget:
    """A lesson's live figure (see :mod:`pushluck_teach.ui.figures`, Browser views) whose
    camera button saves ``filename``.png."""
    widget = live_figure(fig)
    widget.config = png_config(filename)
    return widget


def replace_figure(target: go.FigureWidget, source: go.Figure) -> None:
    """Rewrite ``target``'s traces and layout from ``source`` in place (same trace count)."""
    with target.batch_update():
        for old, new in zip(target.data, source.data, strict=True):
            old.update(new.to_plotly_json(), overwrite=True)
        target.layout.update(layout_changes(source), overwrite=False)


def replace_figure_and_shapes(target: go.FigureWidget, source: go.Figure) -> None:
    """:func:`replace_figure` for a one-trace figure whose layout shapes change too."""
    with target.batch_update():
        target.data[0].update(source.data[0].to_plotly_json(), overwrite=True)
        target.layout.shapes = source.layout.shapes
        target.layout.update(layout_changes(source), overwrite=False)


def layout_changes(source: go.Figure) -> dict[str, Any]:
    """The parts of a layout an update may change: the template, the size and the type size
    are set once, at creation (projector mode then owns the height and type size; the width
    follows the page)."""
    layout = source.layout.to_plotly_json()
    for fixed in ("template", "width", "height", "font"):
        layout.pop(fixed, None)
    return layout


def figures_of(owner: Any) -> list[go.FigureWidget]:
    """The figure widgets a lesson holds as attributes."""
    return [v for v in vars(owner).values() if isinstance(v, go.FigureWidget)]


def message_html(text: str, error: bool = False) -> str:
    """The lesson's one-line message (vermillion for an error)."""
    colour = TEXT_ERROR_COLOUR if error else "#333"
    return f'<div class="pushluck-lesson-message" style="color:{colour}">{escape(text)}</div>'


@dataclass(frozen=True)
class LessonView:
    """Text lines and charts, shown in that order (the lines as printed text)."""

    lines: tuple[str, ...] = ()
    figures: tuple[Any, ...] = ()
    values: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return "\n".join(self.lines)

    @property
    def chart(self) -> Any:
        """The view's (first) chart."""
        return self.figures[0]

    def _ipython_display_(self) -> None:
        if self.lines:
            print("\n".join(self.lines))
        for figure in self.figures:
            display(figure)
