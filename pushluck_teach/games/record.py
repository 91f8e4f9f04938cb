"""The game record: every game at every table written down as a small JSON document.

A record holds the rules (as a rule file writes them), the number of players, the integer seed
of the deal, the seats (a person, or a bot's policy text), the cards turned up before the first
move (``setup``) and each move in order: who moved, the action, and the cards or die faces the
move turned up (``drawn``).  ``docs/game-record.md`` describes the document; its JSON Schema is
:data:`RECORD_SCHEMA` (published as ``docs/game-record.schema.json``).

Nothing here names a game: a record reaches its game through :class:`GameSpec` and its
:class:`Engine`.  Loading a record replays it on a fresh engine dealt from the same seed, so a
record that no longer fits (rules changed, a card that cannot be in the deck, a move that is not
legal there, a card other than the one the deal turns up) is refused in one line
(:class:`RecordError`).  :class:`Replay` gives every position of a game, forwards and backwards;
:func:`record_to_token` / :func:`record_from_token` carry a record in a ``?game=`` link.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import (
    Engine,
    GameSpec,
    IllegalActionError,
    RulesError,
    TableView,
    Variant,
    get_game,
)
from pushluck_teach.games.rules_format import rules_from_data, rules_to_data
from pushluck_teach.quoting import one_line, quoted

RECORD_FORMAT = "pushluck-game-record"
RECORD_VERSION = 1
#: The longest record text read (a long Pig game between cautious players is ~30 kB).
MAX_RECORD_TEXT = 2_000_000
#: The longest ``?game=`` token read.
MAX_TOKEN_TEXT = 400_000
#: The largest seed a record holds (a 63-bit whole number).
MAX_SEED = 2 ** 63 - 1
#: The most moves a record may hold (far beyond any finished game of the app's games).
MAX_MOVES = 100_000

_NAME = {"type": "string", "maxLength": 200}
_FACE = {"type": "string", "minLength": 1, "maxLength": 8}
RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://pushluck-teach.example/game-record.schema.json",
    "title": "pushluck game record",
    "description": "One game at a table: rules, seed, seats, each card and each decision "
                   "(docs/game-record.md).",
    "type": "object",
    "required": ["format", "version", "game", "rules", "players", "seed", "seats", "setup",
                 "moves"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": RECORD_FORMAT},
        "version": {"type": "integer", "description": "the record format's version"},
        "game": {"type": "string", "maxLength": 60,
                 "description": "the game's name, as `pushluck games` lists it"},
        "rules": {"type": "object",
                  "description": "the rules as a rule file writes them (docs/rules-schema.json)"},
        "players": {"type": "integer", "minimum": 1, "maximum": 16},
        "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED,
                 "description": "the deal: the engine's random seed"},
        "seats": {
            "type": "array", "minItems": 1, "maxItems": 16,
            "items": {
                "type": "object", "required": ["name"], "additionalProperties": False,
                "properties": {
                    "name": _NAME,
                    "policy": {"type": ["string", "null"], "maxLength": 60,
                               "description": "a bot's policy (null: a person)"},
                },
            },
        },
        "setup": {"type": "array", "items": _FACE,
                  "description": "cards turned up before the first move (dealt hands)"},
        "moves": {
            "type": "array", "maxItems": MAX_MOVES,
            "items": {
                "type": "object", "required": ["player", "action"],
                "additionalProperties": False,
                "properties": {
                    "player": {"type": "integer", "minimum": 0, "maximum": 15},
                    "action": {"type": "string", "minLength": 1, "maxLength": 40},
                    "drawn": {"type": "array", "items": _FACE,
                              "description": "cards or die faces this move turned up"},
                },
            },
        },
        "finished": {"type": "boolean"},
        "scores": {"type": "array", "items": {"type": ["integer", "number", "string"]}},
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    },
}


class RecordError(RulesError):
    """A record or ``?game=`` link that cannot be used: one line saying what is wrong."""


@dataclass(frozen=True)
class Seat:
    """Who sat at a seat: a name, and a bot's policy text (``None``: a person)."""

    name: str
    policy: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.policy is not None


@dataclass(frozen=True)
class Move:
    """One decision: ``player`` chose ``action``; ``drawn`` is what the move turned up."""

    player: int
    action: str
    drawn: tuple[str, ...] = ()


def _number_json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    return value


@dataclass(frozen=True)
class GameRecord:
    """A game as played.  Build one with :class:`RecordBuilder` (at a table) or
    :meth:`from_json` (a file, a link); :meth:`replay` gives its positions."""

    game: str
    variant: Variant
    players: int
    seed: int
    seats: tuple[Seat, ...]
    setup: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()
    finished: bool = False
    scores: tuple[Any, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    def as_data(self) -> dict[str, Any]:
        """The JSON-ready object (:data:`RECORD_SCHEMA`)."""
        rules = rules_to_data(self.variant)
        if "game" in rules:  # the record's game, also for a variant class that names none
            rules["game"] = self.game
        if "options" in rules:  # every option, so a changed default cannot change the record
            rules["options"] = {k: list(v) if isinstance(v, tuple) else v
                                for k, v in self.variant.options().items()}
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "rules": rules,
            "players": self.players,
            "seed": self.seed,
            "seats": [{"name": s.name, "policy": s.policy} for s in self.seats],
            "setup": list(self.setup),
            "moves": [{"player": m.player, "action": m.action, "drawn": list(m.drawn)}
                      for m in self.moves],
            "finished": self.finished,
            "scores": [_number_json(s) for s in self.scores],
            "winners": list(self.winners),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text: one field a line and one seat or move a line, to read and
        compare by eye (``indent=None``: one compact line, for links)."""
        data = self.as_data()
        if indent is None:
            return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        pad = " " * indent

        def one(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False)

        fields = []
        for key, value in data.items():
            if key in ("seats", "moves") and value:
                items = f",\n{pad * 2}".join(one(item) for item in value)
                fields.append(f"{pad}{one(key)}: [\n{pad * 2}{items}\n{pad}]")
            else:
                fields.append(f"{pad}{one(key)}: {one(value)}")
        return "{\n" + ",\n".join(fields) + "\n}\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """A record from its JSON text, checked by replaying it (:class:`RecordError`)."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError("game record: not UTF-8 text") from None
        if not isinstance(text, str):
            raise RecordError("game record: expected JSON text")
        if len(text) > MAX_RECORD_TEXT:
            raise RecordError(f"game record: longer than {MAX_RECORD_TEXT:,} characters")
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"game record: not JSON ({exc.msg} at line {exc.lineno} column "
                              f"{exc.colno})") from None
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"game record: cannot be read ({one_line(str(exc))[:80]})"
                              ) from None
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """A record from its JSON object, checked by replaying it (:class:`RecordError`)."""
        validate_record_data(data)
        try:
            spec = get_game(data["game"])
        except RulesError as exc:
            raise RecordError(f"game record: {exc}") from None
        rules = data["rules"]
        if "game" in rules and rules["game"] != spec.name:
            raise RecordError(f"game record: the rules are {quoted(rules['game'])}'s but the "
                              f"game is {quoted(spec.name)}")
        try:
            variant = rules_from_data(rules)
        except RulesError as exc:
            raise RecordError("game record: its rules no longer fit this version of the app "
                              f"({exc})") from None
        if type(variant) is not spec.variant_cls:
            raise RecordError(f"game record: the rules are not {spec.name}'s rules")
        players = data["players"]
        if not spec.min_players <= players <= spec.max_players:
            raise RecordError(f"game record: {spec.name} takes {spec.min_players}-"
                              f"{spec.max_players} players, not {players}")
        if len(data["seats"]) != players:
            raise RecordError(f"game record: {len(data['seats'])} seats for {players} players")
        seats = tuple(Seat(s["name"], s.get("policy")) for s in data["seats"])
        moves = tuple(Move(m["player"], m["action"], tuple(m.get("drawn", ())))
                      for m in data["moves"])
        record = cls(spec.name, variant, players, data["seed"], seats, tuple(data["setup"]),
                     moves)
        engine = _replay_checked(record)
        claimed_scores = tuple(data.get("scores", ()))
        actual = tuple(_number_json(s) for s in engine.scores())
        if "scores" in data and claimed_scores != actual:
            raise RecordError(f"game record: it says the scores are {_list(claimed_scores)} "
                              f"but its moves give {_list(actual)}")
        if "finished" in data and bool(data["finished"]) != engine.is_over:
            said = "finished" if data["finished"] else "unfinished"
            raise RecordError(f"game record: it says the game is {said} but its moves "
                              f"{'end' if engine.is_over else 'do not end'} it")
        if "winners" in data and tuple(data["winners"]) != tuple(engine.winners()):
            raise RecordError(f"game record: it names the winners {_list(data['winners'])} but "
                              f"its moves give {_list(engine.winners())}")
        return record.with_result(engine)

    def with_result(self, engine: Engine) -> GameRecord:
        """This record with ``finished``, ``scores`` and ``winners`` read from ``engine``."""
        return GameRecord(self.game, self.variant, self.players, self.seed, self.seats,
                          self.setup, self.moves, engine.is_over, tuple(engine.scores()),
                          tuple(engine.winners()))

    def new_engine(self) -> Engine:
        """A fresh engine dealt from this record's seed (before any move)."""
        return self.spec.new_engine(self.variant, players=self.players, seed=self.seed)

    def truncated(self, moves: int) -> GameRecord:
        """The game up to its first ``moves`` moves (the game so far)."""
        if not 0 <= moves <= len(self.moves):
            raise RecordError(f"game record: no position after {moves} moves (it has "
                              f"{len(self.moves)})")
        cut = GameRecord(self.game, self.variant, self.players, self.seed, self.seats,
                         self.setup, self.moves[:moves])
        engine = cut.new_engine()
        for move in cut.moves:
            engine.act(move.action)
        return cut.with_result(engine)

    def replay(self) -> Replay:
        """Every position of the game (:class:`Replay`)."""
        return Replay.of(self)


def _list(values: Sequence[Any]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"game record: {name} is not a number JSON allows")


def validate_record_data(data: Any) -> None:
    """One :class:`RecordError` naming the first field that breaks :data:`RECORD_SCHEMA`
    (the version first: a record from another version of the format says so)."""
    if not isinstance(data, Mapping):
        raise RecordError("game record: expected a JSON object ({...})")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"game record: not a game record (\"format\" must be "
                          f"{json.dumps(RECORD_FORMAT)})")
    version = data.get("version")
    if version != RECORD_VERSION:
        raise RecordError(f"game record: version {quoted(version)} is not one this app reads "
                          f"(it reads version {RECORD_VERSION})")
    try:  # the static site's in-browser Python has no jsonschema: the replay checks the rest
        import jsonschema
    except ImportError:
        missing = [key for key in RECORD_SCHEMA["required"] if key not in data]
        if missing:
            raise RecordError(f"game record: field {missing[0]!r} is missing") from None
        return
    validator = jsonschema.Draft202012Validator(RECORD_SCHEMA)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    where = where.lstrip(".") or "the record"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        raise RecordError(f"game record: field {missing!r} is missing"
                          + (f" in {where}" if error.absolute_path else ""))
    if error.validator == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in error.instance if k not in allowed)
        raise RecordError(f"game record: unknown field {quoted(extra[0] if extra else '?')}"
                          + (f" in {where}" if error.absolute_path else ""))
    message = one_line(error.message)
    if len(message) > 100:
        message = f"{quoted(error.instance)} breaks the schema's {error.validator!r} rule"
    raise RecordError(f"game record: {where}: {message}")


def _deck_codes(spec: GameSpec, record: GameRecord) -> set[str] | None:
    """The codes of the cards the game's deck holds (``None``: dice, or not playing cards)."""
    if spec.deck is None or spec.draws_for(record.variant) != "cards":
        return None
    return {card.code for card in spec.deck(record.variant)}


def _canonical_card(code: str) -> str:
    from pushluck_teach.cards import parse_card

    try:
        return parse_card(code).code
    except CardError:
        return code


def _check_faces(recorded: Sequence[str], dealt: Sequence[str], where: str,
                 deck: set[str] | None, seed: int) -> None:
    for i, face in enumerate(recorded):
        shown = _canonical_card(face) if deck is not None else face
        if deck is not None and shown not in deck:
            raise RecordError(f"game record: {where} has the card {quoted(face)}, which cannot "
                              "be in this game's deck under its rules")
        if i >= len(dealt):
            raise RecordError(f"game record: {where} lists {len(recorded)} cards turned up but "
                              f"the deal turns up {len(dealt)}: the record does not fit these "
                              "rules or this version of the app")
        if shown != dealt[i]:
            raise RecordError(f"game record: {where} has {quoted(face)} where the deal of seed "
                              f"{seed} turns up {quoted(dealt[i])}: the record does not fit these "
                              "rules or this version of the app")
    if len(dealt) > len(recorded):
        raise RecordError(f"game record: {where} lists {len(recorded)} cards turned up but the "
                          f"deal turns up {len(dealt)}: the record does not fit these rules or "
                          "this version of the app")


def _replay_checked(record: GameRecord) -> Engine:
    """Replay ``record`` on a fresh engine, checking every move and card; the engine at the
    end."""
    spec = record.spec
    try:
        engine = record.new_engine()
    except RulesError as exc:
        raise RecordError(f"game record: {exc}") from None
    deck = _deck_codes(spec, record)
    _check_faces(record.setup, engine.revealed, "the deal (setup)", deck, record.seed)
    for number, move in enumerate(record.moves, start=1):
        where = f"move {number}"
        if engine.is_over:
            raise RecordError(f"game record: {where} comes after the game is over")
        mover = engine.current_player
        if move.player != mover:
            raise RecordError(f"game record: {where} is Player {move.player + 1}'s but Player "
                              f"{mover + 1} is to move there")
        legal = engine.legal_actions()
        if move.action not in legal:
            raise RecordError(f"game record: {where} ({quoted(move.action)}) is not legal there "
                              f"(legal: {', '.join(legal) or 'none'})")
        seen = len(engine.revealed)
        try:
            engine.act(move.action)
        except IllegalActionError as exc:
            raise RecordError(f"game record: {where}: {exc}") from None
        _check_faces(move.drawn, engine.revealed[seen:], where, deck, record.seed)
    return engine


class RecordBuilder:
    """Records a game as it is played: create it with a fresh engine (or :meth:`start`), then
    play through :meth:`act` (or call :meth:`record` after each ``engine.act``)."""

    def __init__(self, spec: GameSpec, engine: Engine, *, seats: Sequence[Seat | str],
                 seed: int) -> None:
        if len(seats) != engine.players:
            raise RecordError(f"game record: {len(seats)} seats for {engine.players} players")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise RecordError(f"game record: the seed must be a whole number 0-{MAX_SEED}, not "
                              f"{quoted(seed)}")
        self.spec = spec
        self.engine = engine
        self.seats = tuple(s if isinstance(s, Seat) else Seat(str(s)) for s in seats)
        self.seed = seed
        self.setup: tuple[str, ...] = tuple(engine.revealed)
        self.moves: list[Move] = []
        self._seen = len(engine.revealed)

    @classmethod
    def start(cls, spec: GameSpec, variant: Variant | None = None, *,
              seats: Sequence[Seat | str], seed: int) -> RecordBuilder:
        """A new game of ``spec`` with one engine per seat, recorded from the deal."""
        engine = spec.new_engine(variant, players=len(seats), seed=seed)
        return cls(spec, engine, seats=seats, seed=seed)

    def act(self, action: str) -> list[str]:
        """Play ``action`` for the player to move and record it; the engine's log lines."""
        player = self.engine.current_player
        lines = self.engine.act(action)
        self.record(player, action)
        return lines

    def record(self, player: int, action: str) -> None:
        """Record a move just played on the engine (``player`` moved before the act)."""
        drawn = tuple(self.engine.revealed[self._seen:])
        self._seen = len(self.engine.revealed)
        self.moves.append(Move(player, action, drawn))

    def to_record(self) -> GameRecord:
        """The game so far."""
        record = GameRecord(self.spec.name, self.engine.variant, self.engine.players,
                            self.seed, self.seats, self.setup, tuple(self.moves))
        return record.with_result(self.engine)


@dataclass(frozen=True)
class ReplayStep:
    """One position of a replayed game: ``index`` 0 is the deal, ``k`` the position after
    move ``k`` (``move``, which printed ``lines``)."""

    index: int
    move: Move | None
    lines: tuple[str, ...]
    view: TableView
    player_to_move: int | None


@dataclass(frozen=True)
class Replay:
    """Every position of a recorded game, to step through forwards and backwards."""

    record: GameRecord
    steps: tuple[ReplayStep, ...]

    @classmethod
    def of(cls, record: GameRecord) -> Replay:
        engine = record.new_engine()
        steps = [ReplayStep(0, None, tuple(engine.log), engine.view(), _to_move(engine))]
        for index, move in enumerate(record.moves, start=1):
            lines = engine.act(move.action)
            steps.append(ReplayStep(index, move, tuple(lines), engine.view(), _to_move(engine)))
        return cls(record, tuple(steps))

    def __len__(self) -> int:
        return len(self.steps)

    def engine_at(self, index: int) -> Engine:
        """A fresh engine at step ``index`` (after that many moves), yours to keep."""
        if not 0 <= index < len(self.steps):
            raise RecordError(f"game record: no step {index} (steps 0-{len(self.steps) - 1})")
        engine = self.record.new_engine()
        for move in self.record.moves[:index]:
            engine.act(move.action)
        return engine


def _to_move(engine: Engine) -> int | None:
    return None if engine.is_over else engine.current_player


def record_to_token(record: GameRecord) -> str:
    """A URL-safe token (``?game=TOKEN``): the compact JSON, zlib-compressed, base64url."""
    packed = zlib.compress(record.to_json(indent=None).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def record_from_token(token: str) -> GameRecord:
    """The record a ``?game=`` token holds; :class:`RecordError` ("game link: ...") when the
    token is damaged."""
    text = token.strip() if isinstance(token, str) else ""
    if not text:
        raise RecordError("game link: the game= part is empty (copy the whole link)")
    if len(text) > MAX_TOKEN_TEXT:
        raise RecordError("game link: the game= part is too long to be a game")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_RECORD_TEXT)
        if inflater.unconsumed_tail or not inflater.eof:
            raise ValueError("incomplete")
        json_text = raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise RecordError("game link: the game= part is damaged (copy the whole link)") from None
    try:
        return GameRecord.from_json(json_text)
    except RecordError as exc:
        raise RecordError("game link: " + str(exc).removeprefix("game record: ")) from None


def schema_text() -> str:
    """The JSON Schema as published in ``docs/game-record.schema.json``."""
    return json.dumps(RECORD_SCHEMA, indent=2, ensure_ascii=False) + "\n"


def copy_engine(engine: Engine) -> Engine:
    """An independent copy of an engine (deck, random state and all)."""
    return copy.deepcopy(engine)


__all__ = [
    "MAX_RECORD_TEXT", "RECORD_FORMAT", "RECORD_SCHEMA", "RECORD_VERSION", "GameRecord", "Move",
    "RecordBuilder", "RecordError", "Replay", "ReplayStep", "Seat", "copy_engine",
    "record_from_token", "record_to_token", "schema_text", "validate_record_data",
]
