"""What every game module provides: variants, turn models, play engines, and the registry.

A game module (one file in ``games/``) defines three things and registers them with
:func:`register`:

* a **variant**: a frozen, keyword-only dataclass subclassing :class:`Variant`, holding every
  option docs/rules.md lists for the game with its default, validated in ``__post_init__``;
* a **turn model**: a :class:`TurnModel`, the rules of one turn as an explicit finite Markov
  decision process.  States are hashable; ``actions(state)`` lists the legal actions (empty for
  a terminal state); ``transitions(state, action)`` lists ``(weight, next_state)`` pairs with
  positive integer weights, so that the probability of each outcome is ``weight / total weight``
  exactly (a deterministic action has one pair of weight 1).  ``payoff(terminal)`` is the turn
  objective of docs/rules.md.  The canonical actions are :data:`DRAW` and :data:`STOP`; a game
  may add others (the ace's value in Hit List, say);
* a **play engine**: an :class:`Engine`, the whole multi-player game with a real shuffled deck
  driven by a seeded ``random.Random``.

The generic solver in :mod:`pushluck_teach.solve.turn` serves every turn model.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pushluck_teach.cards import Card
from pushluck_teach.quoting import quoted

DRAW = "draw"
STOP = "stop"

State = TypeVar("State", bound=Hashable)
Number = int | Fraction


class RulesError(ValueError):
    """Base class for one-line errors about bad input to a game."""


class OptionError(RulesError):
    """An unknown option or a bad option value."""


class PositionError(RulesError):
    """A position that cannot arise under the rules (busted, impossible, inconsistent)."""


class IllegalActionError(RulesError):
    """An action that is not legal in the current state of a game."""


# --------------------------------------------------------------------------------------------
# Variants


@dataclass(frozen=True)
class OptionInfo:
    """What a person needs to know about one rule option: its name for people, a one-line
    explanation, and the values it allows (``low``-``high`` for whole numbers, ``choices`` for
    words; booleans allow true/false).  Attached to a variant field by :func:`option`."""

    label: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def allowed(self, kind: Any) -> str:
        """The allowed values as a short text: ``"2-20"``, ``"true or false"``, ``"shared or
        artifacts"``..."""
        if kind is bool:
            return "true or false"
        if self.choices:
            return " or ".join(self.choices) if len(self.choices) <= 2 else \
                ", ".join(self.choices[:-1]) + " or " + self.choices[-1]
        if self.low is not None and self.high is not None:
            return f"{self.low}-{self.high}"
        if self.low is not None:
            return f"{self.low} or more"
        return "any value"


def option(default: Any, label: str, help: str, *, low: int | None = None,
           high: int | None = None, choices: tuple[str, ...] = ()) -> Any:
    """A variant field with its :class:`OptionInfo` (``label``, one-line ``help``, allowed
    values).  :class:`Variant` validates every such field generically."""
    info = OptionInfo(label, help, low, high, choices)
    return field(default=default, metadata={"option": info})


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """A variant class's resolved field types (resolving them costs ~0.4 ms; a simulation
    builds a variant per turn)."""
    return typing.get_type_hints(cls)


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Base class of the rule-variant dataclasses.  Subclasses are frozen and keyword-only.

    Every field is declared with :func:`option`, so it carries a label, a one-line explanation
    and its allowed values (:meth:`option_info`); ``__post_init__`` checks each value against
    them (:class:`OptionError`, one line naming the option and what it allows).  A subclass that
    normalises a value first calls ``super().__post_init__()`` afterwards.  ``game`` names the
    game whose rules these are (a rule file's ``"game"``; empty for a game without rule files).
    """

    game: ClassVar[str] = ""

    def __post_init__(self) -> None:
        hints = _type_hints(type(self))
        for f in dataclasses.fields(self):
            check_option_value(type(self), f.name, getattr(self, f.name), hints[f.name])

    def replace(self, **changes: Any) -> Variant:
        """A copy with some options changed (validated again)."""
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise OptionError(unknown_option_message(type(self), key))
        return dataclasses.replace(self, **changes)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def option_info(cls, name: str) -> OptionInfo:
        """The label, explanation and allowed values of option ``name``."""
        for f in dataclasses.fields(cls):
            if f.name == name:
                return f.metadata.get("option") or OptionInfo(name, "")
        raise OptionError(unknown_option_message(cls, name))

    @classmethod
    def option_allowed(cls, name: str) -> str:
        """The allowed values of option ``name`` as a short text (``"2-20"``)."""
        return cls.option_info(name).allowed(typing.get_type_hints(cls)[name])

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | Iterable[str] = ()) -> Variant:
        """Build a variant from ``{"key": value}`` or ``["key=value", ...]`` strings.

        String values are converted to the field's type (``true/false/on/off/1/0`` for booleans,
        whole numbers written with the digits 0-9 (:func:`parse_whole_number`), comma lists for
        tuples).
        """
        pairs: dict[str, Any] = {}
        if isinstance(options, Mapping):
            pairs.update(options)
        else:
            for item in options:
                key, sep, value = item.partition("=")
                if not sep or not key.strip():
                    raise OptionError(f"bad option {quoted(item)}: write it as KEY=VALUE")
                key = key.strip()
                if key in pairs:
                    raise OptionError(f"option {quoted(key)} given twice ({quoted(pairs[key])} "
                                      f"and {quoted(value.strip())}): give it once")
                pairs[key] = value.strip()
        hints = typing.get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in pairs.items():
            if key not in fields:
                raise OptionError(unknown_option_message(cls, key))
            kwargs[key] = coerce_option(key, value, hints[key]) if isinstance(value, str) else value
        return cls(**kwargs)

    def options(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.options().items() if getattr(default, k) != v}

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{self.option_info(k).label}</td><td><code>{k}</code></td><td>{v}</td>"
            f"<td>{self.option_info(k).help}</td></tr>"
            for k, v in self.options().items()
        )
        return f"<table><caption>{type(self).__name__}</caption>{rows}</table>"


def unknown_option_message(cls: type, key: str) -> str:
    names = ", ".join(f.name for f in dataclasses.fields(cls)) or "none"
    game = getattr(cls, "game", cls.__name__)
    return f"unknown option {quoted(key)} for {game} (options: {names})"


def check_option_value(cls: type[Variant], name: str, value: Any, hint: Any) -> None:
    """Check one option value against its type and allowed values (one-line :class:`OptionError`).

    Booleans must be ``bool``; whole numbers ``int`` (not ``bool``) within ``low``-``high``;
    words one of ``choices``; tuples of words each one of ``choices``; ``X | None`` also ``None``.
    """
    info = cls.option_info(name)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None and len(args) < len(typing.get_args(hint)):
            return
        hint = args[0] if len(args) == 1 else hint
        origin = typing.get_origin(hint)
    allowed = info.allowed(hint)
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionError(f"option {name!r} ({info.label}) must be true or false, "
                              f"not {quoted(value)}")
        return
    if hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and info.low is not None and value < info.low:
            ok = False
        if ok and info.high is not None and value > info.high:
            ok = False
        if not ok:
            raise OptionError(f"option {name!r} ({info.label}) must be a whole number "
                              f"{allowed}, not {quoted(value)}")
        return
    if hint is str:
        if not isinstance(value, str) or (info.choices and value not in info.choices):
            raise OptionError(f"option {name!r} ({info.label}) must be {allowed}, "
                              f"not {quoted(value)}")
        return
    if origin is tuple:
        if not isinstance(value, tuple) or any(
                not isinstance(v, str) or (info.choices and v not in info.choices) for v in value):
            raise OptionError(f"option {name!r} ({info.label}) must be a list of {allowed}, "
                              f"not {quoted(value)}")
        return


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}
#: Longest whole number accepted from text (far above every range; keeps int() instant).
MAX_DIGITS = 12


def parse_whole_number(text: str, what: str, error: type[RulesError] = RulesError) -> int:
    """The one reader of whole numbers typed by a person (options, rolls, rounds, counts...).

    Accepted: optional spaces, an optional sign, then the ASCII digits 0-9 (at most
    :data:`MAX_DIGITS`).  Everything else is refused with a one-line error of class ``error``
    naming ``what`` — deliberately including other Unicode digits: ``"²"`` (which
    ``str.isdigit`` accepts but ``int`` refuses) and full-width ``"１２"`` (which ``int`` would
    accept), so a value means the same wherever it is typed and is shown back exactly as read.
    """
    raw = text
    text = text.strip()
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise error(f"bad {what}: {quoted(raw)} is not a whole number (write it with the "
                    "digits 0-9)")
    if len(body) > MAX_DIGITS:
        raise error(f"bad {what}: a number of {len(body)} digits is far too large")
    return int(text)


def whole_number(text: str) -> int:
    """A whole-number flag's type (``Flag(..., whole_number)``, ``argparse`` ``type=``): the one
    reader :func:`parse_whole_number`; a refusal is a :class:`RulesError` (a ``ValueError``,
    which ``argparse`` reports as "invalid whole number value: '²'")."""
    return parse_whole_number(text, "number")


whole_number.__name__ = "whole number"  # argparse names the type in its one-line error


def coerce_option(key: str, text: str, hint: Any) -> Any:
    """Convert an option's string value to ``hint`` (bool, int, str, tuple[str, ...], unions)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arg in typing.get_args(hint):
            if arg is type(None):
                if text.lower() in ("none", "off", "false", ""):
                    return None
                continue
            try:
                return coerce_option(key, text, arg)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(errors[0] if errors else f"bad value {quoted(text)} for option {key!r}")
    if hint is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionError(f"bad value {quoted(text)} for option {key!r}: expected true or "
                          "false")
    if hint is int:
        return parse_whole_number(text, f"option {key!r}", OptionError)
    if hint is str:
        return text
    if origin is tuple:
        return comma_list(text, f"option {key!r}", OptionError)
    raise OptionError(f"option {key!r} cannot be set from text")


def comma_list(text: str, what: str, error: type[RulesError]) -> tuple[str, ...]:
    """The entries of a comma-separated list (``"a, b"``; empty text: no entries).  An empty
    entry (``"a,,b"``, ``","``, ``"a,"``) is refused with ``error`` naming ``what``: a value
    left out is a mistake, not a shorter list."""
    if not text.strip():
        return ()
    parts = tuple(part.strip() for part in text.split(","))
    if not all(parts):
        raise error(f"{what}: {quoted(text)} has an empty entry (write the entries with one "
                    "comma between them, e.g. a,b)")
    return parts


# --------------------------------------------------------------------------------------------
# Turn models


class TurnModel(ABC, Generic[State]):
    """One turn of a game as a finite MDP with enumerable, exactly weighted chance outcomes.

    Subclasses must be hashable value objects (frozen dataclasses), so that solvers can be cached
    per model.  ``start`` is the position the model was built for.  This is everything a game
    says about its turn; what a model may offer the solver for speed alone (an estimate of a
    solve's size, the turn on arrays, shipped values) is described in
    :mod:`pushluck_teach.solve.speedups`.
    """

    game: ClassVar[str] = ""

    @property
    @abstractmethod
    def start(self) -> State:
        """The position this model was built for (a decision state)."""

    @abstractmethod
    def actions(self, state: State) -> tuple[str, ...]:
        """Legal actions; the empty tuple for a terminal state."""

    @abstractmethod
    def transitions(self, state: State, action: str) -> Sequence[tuple[int, State]]:
        """``(weight, next_state)`` pairs with positive integer weights."""

    @abstractmethod
    def payoff(self, terminal: State) -> Number:
        """The turn objective of a terminal state (docs/rules.md, "The turn objective used for
        analysis")."""

    @abstractmethod
    def is_bust(self, terminal: State) -> bool:
        """Whether a terminal state is a bust (the turn ended with nothing, or a botch)."""

    @abstractmethod
    def turn_total(self, state: State) -> Number:
        """What the turn holds now: what stopping banks, or the running total where stopping is
        not yet allowed (used by threshold policies and charts)."""

    def stop_payoff(self, state: State) -> Number | None:
        """What stopping in ``state`` pays, where the model can say so without building the
        terminal state (an optional shortcut for speed; ``None``: use ``transitions``).  It must
        equal the payoff of ``transitions(state, STOP)``."""
        return None

    def is_forced(self, state: State) -> bool:
        """True while a rule forces draws (a queen of hearts, say): part of the previous draw."""
        return False

    def stop_is_optimal(self, state: State) -> bool:
        """A *proved* sufficient condition for stopping being optimal in ``state``.

        The solver trusts it and does not expand the state, so each override must carry its proof
        in its docstring.  The default proves nothing.
        """
        return False

    def assumed(self) -> dict[str, Any]:
        """What the position factory assumed because the caller left it out, as position flag
        name → value (Incan Gold: ``{"round": 1}`` when no round was given), so a report can say
        so.  Default: nothing assumed."""
        return {}

    def describe(self, state: State) -> str:
        """A short human description of a state."""
        return repr(state)

    def outcome_label(self, state: State, next_state: State) -> str:
        """A short label for the draw leading from ``state`` to ``next_state``."""
        return self.describe(next_state)


# --------------------------------------------------------------------------------------------
# Engines


@dataclass(frozen=True)
class TurnRecord:
    """How one finished turn went: ``result`` is the turn objective of docs/rules.md."""

    player: int
    result: Number
    busted: bool
    cards: tuple[Card, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class CardFace:
    """How a table draws one card of any game: its code, the text a screen reader says
    (``"red 4"``), its suit as a palette index and a name, and optionally its ``rank`` alone
    (``"4"``, ``"H"``: what a column of its suit shows)."""

    code: str
    label: str
    suit: int
    suit_name: str
    rank: str = ""


@dataclass(frozen=True)
class CardZone:
    """One place cards lie on a card-play table: a hand, an expedition, a discard pile, the deck.

    ``owner`` is the player it belongs to (``None``: shared); ``cards`` are card codes in order
    (any game's notation; a pile's top last) and ``faces`` the same cards to draw (when the game
    gives them); a ``hidden`` zone lists no cards but still ``count``s them.  ``key`` is stable
    (``hand:0``, ``discard:R``, ``deck``); ``colour`` is the zone's colour or suit code, if any,
    with its palette index ``suit`` and name ``suit_name`` (as a :class:`CardFace` has them), so
    a table can set the zones of one colour in a column even while they are empty.
    """

    key: str
    label: str
    owner: int | None
    cards: tuple[str, ...]
    count: int
    hidden: bool = False
    colour: str | None = None
    faces: tuple[CardFace, ...] = ()
    suit: int | None = None
    suit_name: str = ""


@dataclass(frozen=True)
class OutsideChoice:
    """One choice at a decision outside the turn model (a king window): after ``action`` the
    turn of the player whose turn it is reaches ``state`` of that turn's model, where that
    player must play ``then`` (None: they play on as they like).  A coach compares what each
    choice leaves that turn worth."""

    action: str
    state: Any
    then: str | None = None


@dataclass(frozen=True)
class TableView:
    """What a table shows of a game in progress, for any player to see (used by the UI).

    ``turn_cards`` are the cards of the current turn in the order drawn (for Incan Gold: the
    cards flipped this round; for Pig: empty, with the rolls in ``turn_dice``).  ``zones`` are
    the hands, expeditions and piles of a card-play game (empty for draw/stop games), as seen by
    ``viewer`` (the player whose hand is shown; ``None``: no hand shown).
    ``turn_lines`` and ``player_lines`` are short texts (allies held, relics, gems carried, hits,
    botches...).
    """

    scores: tuple[Number, ...]
    current_player: int
    turn_cards: tuple[Card, ...] = ()
    turn_total: Number = 0
    turn_lines: tuple[str, ...] = ()
    player_lines: tuple[tuple[str, ...], ...] = ()
    draw_pile: int | None = None
    discard_pile: int | None = None
    round_text: str = ""
    finished_text: str = ""
    turn_dice: tuple[int, ...] = ()
    zones: tuple[CardZone, ...] = ()
    viewer: int | None = None


class Engine(ABC):
    """A whole game with a real, seeded deck.

    Players are numbered ``0..n-1``.  ``legal_actions()`` are the actions of ``current_player``;
    ``act(action)`` applies one and returns the new log lines.  ``turn_records`` lists finished
    turns; ``log`` is the readable event log; ``revealed`` lists every card code or die face
    the game has turned up, in order (each engine calls :meth:`_turned_up` where it draws): what
    is what a game record writes down (:mod:`pushluck_teach.games.record`).
    """

    game: ClassVar[str] = ""

    def __init__(self, variant: Variant, players: int, rng: random.Random | int | None) -> None:
        self.variant = variant
        self.players = players
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.log: list[str] = []
        self.turn_records: list[TurnRecord] = []
        self.revealed: list[str] = []
        #: the trivial accessors below read these; an engine keeping other books overrides them
        self._player = 0
        self._over = False
        self._scores: list[Number] = [0] * players

    @property
    def current_player(self) -> int:
        return self._player

    @property
    def is_over(self) -> bool:
        return self._over

    @abstractmethod
    def legal_actions(self) -> tuple[str, ...]: ...

    @abstractmethod
    def act(self, action: str) -> list[str]: ...

    def scores(self) -> tuple[Number, ...]:
        return tuple(self._scores)

    def winners(self) -> tuple[int, ...]:
        """The winning players once the game is over (several on a shared win): by default
        everyone with the highest score."""
        if not self.is_over:
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple(p for p, score in enumerate(scores) if score == best)

    def turn_position(self) -> tuple[TurnModel[Any], Any]:
        """The current turn as ``(model, state)``, from what the player to move knows.

        The model's action names equal the engine's for every action the model covers.  A game
        without a draw/stop turn model (its spec has ``odds``) keeps this default, which says so
        in one line; nothing generic calls it for such a game (``GameSpec.has_turn_model``).
        """
        raise PositionError(f"{self.game} has no draw/stop turn to analyse")

    @abstractmethod
    def view(self) -> TableView:
        """What the table shows now (scores, this turn's cards, allies, pile sizes...)."""

    def position_flags(self) -> dict[str, str]:
        """The current position as ``pushluck odds`` flags (``{"drawn": "5h 9s", ...}``), so a
        learner can check any number on the page from a shell.  Games whose turn depends on more
        than this turn's cards (a discard pile, allies, a round) override it."""
        cards = self.view().turn_cards
        return {"drawn": " ".join(card.code for card in cards)} if cards else {}

    def card_locations(self) -> Mapping[str, Sequence[Card]] | None:
        """Where every card of the game's deck is now (draw pile, this turn, discards, allies,
        relics...), each card in exactly one place, so that together they are the deck
        (``GameSpec.deck``); ``None`` for a game without a deck of cards."""
        return None

    def decision_in_turn_model(self) -> bool:
        """Whether the decision now is one the turn model of :meth:`turn_position` covers (it is
        not, say, when another player may play a king relic on this turn).  A bot following the
        model must find its action legal in every covered decision."""
        return True

    @property
    def turn_player(self) -> int:
        """Whose turn it is (the player to move, except in a decision outside the turn model,
        such as another player's king relic)."""
        return self.current_player

    def outside_choices(self) -> tuple[OutsideChoice, ...]:
        """At a decision outside the turn model, each legal action with the position it leaves
        the turn in (:class:`OutsideChoice`, in the model of :meth:`turn_position`); ``()``
        where there is no such decision or the game does not describe it."""
        return ()

    def others_in_turn(self) -> tuple[int, ...]:
        """The other players whose choices change the result of this turn (Incan Gold's
        explorers still inside); a table describes their behaviour to the position (its
        ``others`` flag).  Default: nobody."""
        return ()

    @property
    def scores_hidden(self) -> bool:
        """Whether players' scores are secret (a secret stash): then nothing shown to the player
        to move may depend on the others' scores."""
        return False

    def action_label(self, action: str) -> str:
        """The button text of an action (``draw`` → "Draw", ``stop`` → "Bank"...)."""
        return {DRAW: "Draw", STOP: "Stop"}.get(action, action)

    def _check_legal(self, action: str) -> None:
        """Refuse an action the rules do not allow now, naming the legal ones."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{action!r} is not legal now (legal: {', '.join(legal) or 'none'})")

    def _turned_up(self, *faces: str) -> None:
        """Note cards (codes) or die faces just turned up by chance (for the game record)."""
        self.revealed.extend(faces)

    def _say(self, line: str, out: list[str]) -> None:
        self.log.append(line)
        out.append(line)


# --------------------------------------------------------------------------------------------
# What a game offers the layers above: bots, command-line flags, reports


class Bot(Protocol):
    """Anything that plays an :class:`Engine`: ``choose`` returns one of its legal actions."""

    name: str

    def choose(self, engine: Engine) -> str: ...


class Report(Protocol):
    """A game's own command-line answer (odds of a game whose turn is not draw/stop, a score):
    the CLI prints ``text_lines()`` or ``json.dumps(as_json(exact))``."""

    def as_json(self, exact: bool = False) -> dict[str, Any]: ...

    def text_lines(self) -> list[str]: ...


@dataclass(frozen=True)
class Flag:
    """One command-line flag a game takes: ``name`` is the keyword passed on (``ace_values`` is
    typed ``--ace-values``); ``type`` converts the text (``int`` for counts)."""

    name: str
    help: str
    type: Callable[[str], Any] = str
    metavar: str | None = None
    positional: bool = False

    @property
    def flag(self) -> str:
        return self.name if self.positional else "--" + self.name.replace("_", "-")


#: The flags every card game's position takes.
DRAWN = Flag("drawn", "this turn's cards, in order")
REMOVED = Flag("removed", "cards out of the draw pile for other reasons")
#: A dice game's ``drawn``.
ROLLS = Flag("drawn", "this turn's rolls, in order")
#: Aces held as allies from earlier turns (Lands Uncharted, built games with allies).
ALLIES = Flag("allies", "allies held from earlier turns", whole_number)


@dataclass(frozen=True)
class GameCommand:
    """An extra ``pushluck`` subcommand a game offers (``pushluck score lost-cities ...``):
    ``run(variant, values)`` gets the flags given (by name) and returns a :class:`Report`."""

    name: str
    help: str
    flags: tuple[Flag, ...]
    run: Callable[[Variant, Mapping[str, Any]], Report]


# --------------------------------------------------------------------------------------------
# Registry


PositionFactory = Callable[..., tuple[TurnModel[Any], Any]]
CARDS = "cards"
DICE = "dice"


@dataclass(frozen=True)
class SoloMode:
    """A one-player game as a chain of turns, each turn played from a fresh deck (the stated
    simplification of :mod:`pushluck_teach.solve.whole_game.solo`, which solves it exactly).

    Between turns the game carries a small state ``carry`` (allies held, hits and botches,
    the turn number: whatever the next turn and the game's end depend on), starting at
    ``start``:

    * ``prepare(variant)``: the variant in solo play (``None``: the default), or a
      :class:`RulesError` naming an option the model does not cover;
    * ``turn_position(variant, carry)``: the keywords of ``GameSpec.position`` for the turn
      played from ``carry`` (turns with the same keywords have the same outcomes);
    * ``turn_outcome(variant, model, last, terminal, action)``: what a finished turn hands on
      (hashable), from its last decision state, its terminal state and the last action;
    * ``advance(variant, carry, outcome)``: ``(points scored, the next carry)``;
    * ``finished(variant, carry)``: the game is over at ``carry``;
    * ``end_bonus(variant, carry)``: points added to the final score when the game ends at
      ``carry``; ``None``: the game is lost there and scores 0 (``can_lose``);
    * ``model``: the model in one line, as the page and the report state it.
    """

    title: str
    model: str
    start: Hashable
    prepare: Callable[[Any], Any]
    turn_position: Callable[[Any, Any], Mapping[str, Any]]
    turn_outcome: Callable[[Any, Any, Any, Any, str], Hashable]
    advance: Callable[[Any, Any, Any], tuple[int, Hashable]]
    finished: Callable[[Any, Any], bool]
    end_bonus: Callable[[Any, Any], int | None] = lambda variant, carry: 0
    can_lose: bool = False
    default_policy: str = "threshold:20"


@dataclass(frozen=True)
class GameSpec:
    """Everything the CLI, solver, simulator and UI need to know about one game.

    ``position(variant, drawn=..., removed=..., ...)`` builds a turn model and its start state
    from what is known, raising :class:`RulesError` (or :class:`~pushluck_teach.cards.CardError`)
    on bad input; it takes exactly the keywords of ``position_flags``.

    * ``deck(variant)``: the full deck of standard cards under a variant (``None`` for dice,
      or for a game whose cards are not standard playing cards); ``draws``: ``"cards"`` or
      ``"dice"``, or a function of the variant saying which (:meth:`draws_for`);
    * ``whole_game``: the dotted path of the solve-side module exposing ``SOLVER`` (a string,
      because games do not import ``solve``), or ``None``;
    * ``odds``: for a game whose analysis is not the generic draw/stop turn, a function
      ``(variant, flags) -> Report`` that ``pushluck odds`` prints instead;
    * ``commands``: extra subcommands; ``bots``: the game's own bots by name;
    * ``example``: a position that leaves a decision, as position flags (``{"drawn": "5h 9s"}``),
      for lessons and docs;
    * ``variant_from_text``: builds a variant from a rule file's text (``pushluck ... --rules
      FILE``), raising :class:`RulesError` naming the bad field; ``None``: no rule files;
    * ``sweep``: the whole-number option a sweep starts with (the lab's Sweep tab); ``None``:
      the first whole-number option;
    * ``solo``: the game's solo mode as a chain of turns (:class:`SoloMode`), or ``None``;
    * ``lab``: the variant lab's tabs that open on this game: ``"build"`` (the game the form
      builds, played and swept there), ``"compare"`` (Compare A/B), ``"sweep"`` (the Sweep
      panel on its own); the first registered game naming a tab wins;
    * ``opens_table``: the game a table opens on when none is named (``play()``); the first
      registered game saying so wins (:func:`table_game`);
    * ``decision_values``: for a game without a draw/stop turn model, each legal action's value
      now under a stated model (``engine -> {action: value}``; only differences between the
      actions of one decision mean anything), for the post-game review; ``decision_model``
      says in one line what that model assumes.  ``None``: the review lists the moves unvalued.
    """

    name: str
    title: str
    variant_cls: type[Variant]
    engine_cls: type[Engine]
    position: PositionFactory
    min_players: int
    max_players: int
    presets: Mapping[str, Variant] = field(default_factory=dict)
    blurb: str = ""
    deck: Callable[[Any], tuple[Card, ...]] | None = None
    draws: str | Callable[[Any], str] = CARDS
    position_flags: tuple[Flag, ...] = (DRAWN, REMOVED)
    whole_game: str | None = None
    odds: Callable[[Variant, Mapping[str, Any]], Report] | None = None
    commands: tuple[GameCommand, ...] = ()
    bots: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)
    example: Mapping[str, str] = field(default_factory=dict)
    variant_from_text: Callable[[str], Variant] | None = None
    sweep: str | None = None
    solo: SoloMode | None = None
    lab: tuple[str, ...] = ()
    opens_table: bool = False
    decision_values: Callable[[Engine], Mapping[str, float]] | None = None
    decision_model: str = ""

    def variant(self, options: Mapping[str, Any] | Iterable[str] = (), *,
                rules: str | None = None) -> Variant:
        """A variant from options (``{"key": value}`` or ``["key=value"]``); with ``rules``
        (a rule file's text) the rule file's variant with the options applied on top."""
        if rules is None:
            return self.variant_cls.from_options(options)
        if self.variant_from_text is None:
            raise RulesError(f"--rules does not apply to {self.name}")
        base = self.variant_from_text(rules)
        given = (list(options) if isinstance(options, Mapping)
                 else [item.partition("=")[0].strip() for item in options])
        if not given:
            return base
        overrides = type(base).from_options(options)
        return base.replace(**{key: getattr(overrides, key) for key in given})

    @property
    def has_turn_model(self) -> bool:
        """Whether the game's analysis is the generic draw/stop turn (``odds`` not set): only
        then do ``position`` and ``Engine.turn_position`` answer."""
        return self.odds is None

    def preset_title(self, preset: str) -> str:
        """A preset in words: the labels of the options it changes ("Buried treasure"), or
        "standard rules"."""
        variant = self.presets[preset]
        changed = variant.changed_options()
        if not changed:
            return "standard rules"
        cls = type(variant)

        def words(name: str, value: Any) -> str:
            label = cls.option_info(name).label
            if value is True:
                return label
            if value is False:
                return f"{label}: off"
            shown = ", ".join(map(str, value)) if isinstance(value, tuple | list) else value
            return f"{label}: {shown}"

        return ", ".join(words(name, value) for name, value in changed.items())

    def draws_for(self, variant: Variant) -> str:
        """``"cards"`` or ``"dice"`` under ``variant``."""
        return self.draws(variant) if callable(self.draws) else self.draws

    def position_from_flags(self, variant: Variant, flags: Mapping[str, str]
                            ) -> tuple[TurnModel[Any], Any]:
        """The position given as flag texts (``{"drawn": "5s Kh", "round": "2"}``, as
        ``pushluck odds`` and ``Engine.position_flags`` write them), each converted by its
        :class:`Flag`'s type; a flag the game does not take is a :class:`PositionError`."""
        known = {flag.name: flag for flag in self.position_flags}
        kwargs: dict[str, Any] = {}
        for name, text in flags.items():
            flag = known.get(name)
            if flag is None:
                raise PositionError(f"--{name.replace('_', '-')} does not apply to {self.name}")
            try:
                kwargs[name] = flag.type(text) if isinstance(text, str) else text
            except ValueError:
                raise PositionError(f"bad value {quoted(text)} for {flag.flag}") from None
        return self.position(variant, **kwargs)

    def new_engine(self, variant: Variant | None = None, *, players: int = 2,
                   seed: int | random.Random | None = 0) -> Engine:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.name} takes {self.min_players}-{self.max_players} players, not {players}"
            )
        return self.engine_cls(variant or self.variant_cls(), players, seed)


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register a game module's spec (once, at import)."""
    _REGISTRY[spec.name] = spec
    return spec


@contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """Register ``spec`` for the duration of a ``with`` block (tests, throw-away games); the
    registry is restored on exit.  A name already taken is refused."""
    from pushluck_teach import games  # noqa: F401  (the real games first)

    if spec.name in _REGISTRY:
        raise RulesError(f"a game named {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    try:
        yield spec
    finally:
        _REGISTRY.pop(spec.name, None)


def get_game(name: str) -> GameSpec:
    from pushluck_teach import games  # noqa: F401  (importing the package registers the games)

    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise RulesError(f"unknown game {quoted(name)} (games: {known})") from None


def all_games() -> tuple[GameSpec, ...]:
    from pushluck_teach import games  # noqa: F401

    return tuple(_REGISTRY[k] for k in sorted(_REGISTRY))


def lab_game(tab: str) -> str:
    """The game the variant lab's ``tab`` opens on (``GameSpec.lab``): the first registered
    game naming it, else the first game with a draw/stop turn."""
    games = turn_games()
    return next((spec.name for spec in games if tab in spec.lab), games[0].name)


def table_game() -> str:
    """The game a table opens on when none is named (``GameSpec.opens_table``): the first
    registered game saying so, else the first game with a draw/stop turn."""
    games = turn_games()
    return next((spec.name for spec in games if spec.opens_table), games[0].name)


def turn_games() -> tuple[GameSpec, ...]:
    """The games whose analysis is the draw/stop turn (what tables' analysis panels, the
    conformance test and the turn lessons cover)."""
    return tuple(spec for spec in all_games() if spec.has_turn_model)
