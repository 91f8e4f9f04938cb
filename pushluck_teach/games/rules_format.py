"""The share format of rule sets: short JSON text, a JSON Schema, and a URL-safe token.

Two kinds of rule file, both JSON objects with ``"format": "pushluck-rules/1"``:

* a **built game**: the fields of :class:`~pushluck_teach.games.custom.rules.RuleSet` that differ
  from their defaults (``{"format": ..., "name": "Sevens", "jokers": 2, "bust_ending": 7,
  ...}``); ``bust_counts`` is a list of ``{"kind": {"ranks": [...], "suits": [...],
  "cards": [...]}, "n": 2, "per_rank": false}`` and ``values`` an object ``{"J": 0}``;
* a **variant of a registered game**: ``{"format": ..., "game": "captain-seven", "options":
  {"target": 150}}`` (the options that differ from the defaults).

:data:`RULES_SCHEMA` is the JSON Schema of both (published as ``docs/rules-schema.json``; a
test keeps the two equal).  :func:`rules_from_json` checks a text against it and then against
the rules' own checks, after refusing nesting deeper than :data:`MAX_DEPTH`, a field given twice
and ``NaN``; every error is a :class:`~pushluck_teach.games.base.RulesError` naming the field
and why.  :func:`read_rules_file` reads a rule file safely (a regular file only, at most
:data:`MAX_TEXT` characters, UTF-8).  :func:`rules_to_token` / :func:`rules_from_token` pack the
JSON in a URL-safe token for ``?rules=...`` links (zlib, then unpadded base64url).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import stat
import zlib
from collections.abc import Mapping
from typing import Any

from pushluck_teach.games.base import RulesError, Variant, get_game
from pushluck_teach.games.custom import CardSet, RuleSet
from pushluck_teach.quoting import one_line, quoted

FORMAT = "pushluck-rules/1"
MAX_TEXT = 20_000

_RANK = {"type": "string", "pattern": "^([Aa2-9TtJjQqKk]|10|[Jj][Kk]|[0-9]{1,2})$"}
_SUIT = {"type": "string", "enum": ["s", "h", "d", "c"]}
_CARD = {"type": "string", "pattern": "^(([Aa2-9TtJjQqKk]|10)[SsHhDdCc♠♥♦♣]|[Jj][Kk])$"}
_CARD_SET = {
    "type": "object",
    "description": "cards whose rank is in ranks and suit in suits (an empty list allows any), "
                   "plus particular cards",
    "properties": {
        "ranks": {"type": "array", "items": _RANK, "uniqueItems": True},
        "suits": {"type": "array", "items": _SUIT, "uniqueItems": True},
        "cards": {"type": "array", "items": _CARD, "uniqueItems": True},
    },
    "additionalProperties": False,
    "minProperties": 1,
}


def _int(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


def _int_or_null(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": ["integer", "null"], "minimum": low, "maximum": high,
            "description": description}


_BUILT = {
    "type": "object",
    "title": "A push-your-luck game built from parts",
    "properties": {
        "format": {"const": FORMAT},
        "name": {"type": "string", "minLength": 1, "maxLength": 60},
        "decks": _int(1, 4, "standard 52-card decks shuffled together"),
        "jokers": _int(0, 2, "jokers per deck"),
        "remove_ranks": {"type": "array", "items": _RANK, "uniqueItems": True},
        "remove_suits": {"type": "array", "items": _SUIT, "uniqueItems": True},
        "remove_cards": {"type": "array", "items": _CARD, "uniqueItems": True},
        "dice": {"type": "integer", "minimum": 0, "maximum": 30,
                 "description": "faces of the die (0: play with cards)"},
        "values": {"type": "object", "propertyNames": _RANK,
                   "additionalProperties": _int(0, 100, "the value of a rank or face")},
        "bust_counts": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "kind": _CARD_SET,
                "n": _int(1, 20, "the n-th card of the kind busts"),
                "per_rank": {"type": "boolean", "description": "count each rank apart"},
            },
            "required": ["kind"],
            "additionalProperties": False,
        }},
        "bust_over": _int_or_null(0, 10_000, "a turn total over this busts"),
        "bust_ending": _int_or_null(0, 9, "a turn total ending in this digit busts"),
        "first_draw_safe": {"type": "boolean"},
        "bank_minimum": _int(0, 10_000, "the least turn total that may be banked"),
        "bonus_total": _int_or_null(0, 10_000, "banking exactly this total scores the bonus"),
        "bonus": _int(0, 1000, "the bonus for banking exactly bonus_total"),
        "allies": {"oneOf": [_CARD_SET, {"type": "null"}]},
        "allies_persist": {"type": "boolean"},
        "bust_penalty": _int(0, 1000, "the points a bust loses"),
        "reshuffle_each_turn": {"type": "boolean"},
        "target": _int(1, 100_000, "the score that triggers the final round"),
    },
    "required": ["format"],
    "not": {"required": ["game"]},
    "additionalProperties": False,
}
_VARIANT = {
    "type": "object",
    "title": "A variant of a registered game",
    "properties": {
        "format": {"const": FORMAT},
        "game": {"type": "string", "minLength": 1},
        "options": {"type": "object"},
    },
    "required": ["format", "game"],
    "additionalProperties": False,
}
RULES_SCHEMA: Mapping[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://pushluck-teach.example/rules-schema.json",
    "title": "pushluck_teach rule file",
    "description": "A rule set for the variant lab: a game built from parts, or a variant of a "
                   "registered game (docs/app.md, 'Variant lab').",
    "oneOf": [_BUILT, _VARIANT],
}


# --------------------------------------------------------------------------------------------
# Export


def _card_set_data(cards: CardSet) -> dict[str, list[str]]:
    return {k: list(v) for k, v in (("ranks", cards.ranks), ("suits", cards.suits),
                                    ("cards", cards.cards)) if v}


def rules_to_data(rules: Variant) -> dict[str, Any]:
    """The JSON-ready object of a rule set (only what differs from the defaults)."""
    if not isinstance(rules, RuleSet):
        return {"format": FORMAT, "game": type(rules).game,
                "options": {k: list(v) if isinstance(v, tuple) else v
                            for k, v in rules.changed_options().items()}}
    default = RuleSet()
    data: dict[str, Any] = {"format": FORMAT}
    for key, value in rules.options().items():
        if value == getattr(default, key):
            continue
        if key == "values":
            data[key] = dict(value)
        elif key == "bust_counts":
            data[key] = [
                {"kind": _card_set_data(rule.kind),
                 **({"n": rule.n} if rule.n != 2 else {}),
                 **({"per_rank": True} if rule.per_rank else {})}
                for rule in value
            ]
        elif key == "allies":
            data[key] = _card_set_data(value) if value is not None else None
        elif isinstance(value, tuple):
            data[key] = list(value)
        else:
            data[key] = value
    return data


def rules_to_json(rules: Variant, *, indent: int | None = None) -> str:
    """The short JSON text of a rule set."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(rules_to_data(rules), ensure_ascii=False, indent=indent,
                      separators=separators)


def rules_to_token(rules: Variant) -> str:
    """A URL-safe token (``?rules=TOKEN``) holding the JSON text."""
    packed = zlib.compress(rules_to_json(rules).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


# --------------------------------------------------------------------------------------------
# Import


def _path_text(path: Any) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(the rule file)"


def _error_text(error: Any) -> str:
    where = _path_text(error.absolute_path)
    instance = error.instance
    if not error.absolute_path and not isinstance(instance, Mapping):
        return "rule file: expected a JSON object ({...})"
    if error.validator == "additionalProperties" and isinstance(instance, Mapping):
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in instance if k not in allowed)
        if extra:
            name = f"{where}.{extra[0]}" if error.absolute_path else extra[0]
            return f"rules field {quoted(name)}: unknown field"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        name = f"{where}.{missing}" if error.absolute_path else missing
        hint = f' (write "format": "{FORMAT}")' if missing == "format" else ""
        return f"rules field {name!r}: missing{hint}"
    if error.validator == "pattern":
        what = "card (like Qs, 10h, JK)" if error.schema is _CARD else \
            "rank (A 2-9 T/10 J Q K, JK) or die face"
        return f"rules field {quoted(where)}: {quoted(instance)} is not a {what}"
    if error.validator in ("oneOf", "anyOf", "minProperties") and where.endswith(
            ("allies", "kind")):
        return (f"rules field {quoted(where)}: {quoted(json.dumps(instance))} is not a card set "
                "(give ranks, suits or cards)")
    if error.validator == "const":
        return f"rules field {where!r}: must be {json.dumps(error.validator_value)}"
    message = one_line(error.message)
    if len(message) > 100:  # the schema's message repeats the whole value
        message = (f"{quoted(instance)} breaks the schema's {error.validator!r} rule "
                   f"({quoted(error.validator_value, 40)})")
    return f"rules field {quoted(where)}: {message}"


def _best_error(data: Any) -> Any:
    """The most specific schema error: within the branch the object means (a ``game`` key: a
    variant; otherwise a built game)."""
    try:  # imported here: the static site's in-browser Python has no jsonschema (rpds-py)
        import jsonschema
    except ImportError:
        raise RulesError("checking a rule file needs the jsonschema package, which this "
                         "Python does not have (the static site's in-browser Python)") from None

    validator = jsonschema.Draft202012Validator(RULES_SCHEMA)
    if validator.is_valid(data):
        return None
    if isinstance(data, Mapping):
        branch = _VARIANT if "game" in data else _BUILT
        errors = sorted(jsonschema.Draft202012Validator(branch).iter_errors(data),
                        key=lambda e: (-len(e.absolute_path), str(list(e.absolute_path))))
        if errors:
            return errors[0]
    return jsonschema.exceptions.best_match(validator.iter_errors(data))


def validate_data(data: Any) -> None:
    """A :class:`RulesError` naming the first bad field when ``data`` breaks the schema.

    Without the ``jsonschema`` package (the in-browser build) only the shape is checked here
    (an object, the format, known field names); the rule set's own checks name the rest."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        _check_shape(data)
        return
    error = _best_error(data)
    if error is not None:
        raise RulesError(_error_text(error))


def _check_shape(data: Any) -> None:
    if not isinstance(data, Mapping):
        raise RulesError("rule file: expected a JSON object ({...})")
    if "format" not in data:
        raise RulesError(f'rules field \'format\': missing (write "format": "{FORMAT}")')
    if data["format"] != FORMAT:
        raise RulesError(f"rules field 'format': must be {json.dumps(FORMAT)}")
    branch = _VARIANT if "game" in data else _BUILT
    for key in data:
        if key not in branch["properties"]:
            raise RulesError(f"rules field {quoted(key)}: unknown field")


def rules_from_data(data: Any) -> Variant:
    """A rule set (or a registered game's variant) from its JSON object; errors name the field."""
    validate_data(data)
    if "game" in data:
        spec = get_game(data["game"])
        options = dict(data.get("options", {}))
        return spec.variant_cls.from_options(
            {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()})
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key == "format":
            continue
        # the rule set reads nested parts (values, bust rules, allies) from plain mappings
        fields[key] = tuple(value) if isinstance(value, list) else value
    try:
        return RuleSet(**fields)
    except (TypeError, AttributeError) as exc:  # reached only without jsonschema
        raise RulesError(f"rule file: a field has the wrong type ({exc})") from None


#: How deep a rule file's objects and lists may nest (the schema needs four levels).
MAX_DEPTH = 20


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's fields, refusing a field given twice (JSON would keep the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise RulesError(f"rules field {quoted(key)}: given twice ({json.dumps(data[key])} "
                             f"and {json.dumps(value)}): give it once")
        data[key] = value
    return data


def _refuse_constant(name: str) -> Any:
    raise RulesError(f"rule file: {name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused when it overflows (``1e999``
    would be read as infinity)."""
    value = float(text)
    if math.isinf(value):
        raise RulesError(f"rule file: the number {quoted(text)} is far too large")
    return value


def _nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest (outside strings), counted without parsing."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def rules_from_json(text: str) -> Variant:
    """A rule set from its JSON text; a :class:`RulesError` names what is wrong.

    Refused besides the schema: a text over :data:`MAX_TEXT` characters, nesting deeper than
    :data:`MAX_DEPTH`, a field given twice in one object, ``NaN``/``Infinity``."""
    if not isinstance(text, str):
        raise RulesError("rule file: expected JSON text")
    if len(text) > MAX_TEXT:
        raise RulesError(f"rule file: longer than {MAX_TEXT:,} characters")
    if _nesting(text) > MAX_DEPTH:
        raise RulesError(f"rule file: nested more than {MAX_DEPTH} deep (a rule file needs 4)")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys,
                          parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise RulesError(f"rule file: not JSON ({exc.msg} at line {exc.lineno} column "
                         f"{exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, RulesError):
            raise
        if "digits" in str(exc):  # Python reads at most sys.get_int_max_str_digits() digits
            raise RulesError("rule file: a number with thousands of digits is far too large"
                             ) from None
        raise RulesError(f"rule file: cannot be read ({one_line(str(exc))[:80]})") from None
    return rules_from_data(data)


def read_regular_file(path: str | os.PathLike[str], *, what: str, max_bytes: int,
                      limit: str) -> bytes:
    """The bytes of the file ``what`` (say ``"rule file"``) at ``path``, read safely: only a
    regular file (not a directory, a device such as ``/dev/zero`` or a pipe that may never
    end), at most ``max_bytes``.  Every refusal is a one-line :class:`RulesError` naming the
    path; ``limit`` says how long such a file can be."""
    shown = quoted(os.fspath(path), tail=True)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "bad path"
        raise RulesError(f"cannot read {what} {shown}: {reason}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise RulesError(f"cannot read {what} {shown}: {kind} (give a .json file)")
    if info.st_size > max_bytes:
        raise RulesError(f"{what} {shown}: {info.st_size:,} bytes, longer than a {what} can be "
                         f"({limit})")
    try:
        # O_NONBLOCK: a path swapped for a pipe after the check cannot block the read
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as source:
            raw = source.read(max_bytes + 1)
    except OSError as exc:
        raise RulesError(f"cannot read {what} {shown}: {exc.strerror or exc}") from None
    if raw is None or len(raw) > max_bytes:
        raise RulesError(f"{what} {shown}: longer than a {what} can be ({limit})")
    return raw


def read_rules_file(path: str | os.PathLike[str]) -> str:
    """The text of a rule file (:func:`read_regular_file`: at most :data:`MAX_TEXT`
    characters), UTF-8."""
    raw = read_regular_file(path, what="rule file", max_bytes=4 * MAX_TEXT,
                            limit=f"{MAX_TEXT:,} characters")
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (Windows Notepad) is dropped
    except UnicodeDecodeError:
        raise RulesError(f"rule file {quoted(os.fspath(path), tail=True)} is not UTF-8 "
                         "text") from None


def rules_from_token(token: str) -> Variant:
    """A rule set from a ``?rules=`` token; a :class:`RulesError` when it is damaged."""
    text = token.strip()
    if not text or len(text) > MAX_TEXT:
        raise RulesError("rules link: empty or too long")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        raw = zlib.decompressobj().decompress(packed, MAX_TEXT)
        json_text = raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise RulesError("rules link: the rules= part is damaged (copy the whole link)") from None
    return rules_from_json(json_text)


def schema_text() -> str:
    """The JSON Schema as published in ``docs/rules-schema.json``."""
    return json.dumps(RULES_SCHEMA, indent=2, ensure_ascii=False) + "\n"


__all__ = [
    "FORMAT", "MAX_DEPTH", "RULES_SCHEMA", "read_rules_file", "rules_from_data",
    "rules_from_json", "rules_from_token",
    "rules_to_data", "rules_to_json", "rules_to_token", "schema_text", "validate_data",
]
