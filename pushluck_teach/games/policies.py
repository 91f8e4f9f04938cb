"""The one policy vocabulary of tables, bots, solo modes and ``pushluck solve``.

A policy is written ``NAME`` or ``NAME:N``.  The names say what they optimise:

* ``turn-optimal`` — each turn maximises its own expected result (the turn solver's policy);
* ``win-optimal`` — maximise the chance to win the whole game (a whole-game solver's policy);
* ``threshold:N`` (also ``hold:N``, ``stash:N``) — stop once the turn total reaches ``N``;
* ``chase:N`` — ``threshold:N``, but on the final turn chase the leader (Captain Seven);
* ``keep-pace`` — Neller and Presser's "keep pace and end race" (Pig);
* ``cautious`` and ``greedy`` — thresholds 10 and 30;
* a game's own bots (``GameSpec.bots``), by name.

The bare old spelling ``optimal`` means what it meant where the README shows it: the win-optimal
policy in ``pushluck solve`` (``parse_policy(text, optimal=WIN_OPTIMAL)``), the turn-optimal
policy at a table seat and in the solo modes (the default).  Bad text raises
:class:`PolicyError`, a :class:`~pushluck_teach.games.base.RulesError` (one line).

It lives in ``games/`` (and registers no game) so that game modules may offer bots using it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pushluck_teach.games.base import RulesError, parse_whole_number
from pushluck_teach.quoting import quoted

TURN_OPTIMAL = "turn-optimal"
WIN_OPTIMAL = "win-optimal"
THRESHOLD = "threshold"
CHASE = "chase"
KEEP_PACE = "keep-pace"

#: Named thresholds.
PRESET_THRESHOLDS = {"cautious": 10, "greedy": 30}

#: Spelling -> canonical kind (the old spellings keep working).
ALIASES = {
    "turn-optimal": TURN_OPTIMAL, "optimal-turn": TURN_OPTIMAL, "optimal_turn": TURN_OPTIMAL,
    "turn_optimal": TURN_OPTIMAL,
    "win-optimal": WIN_OPTIMAL, "win_optimal": WIN_OPTIMAL,
    "threshold": THRESHOLD, "hold": THRESHOLD, "stash": THRESHOLD,
    "chase": CHASE,
    "keep-pace": KEEP_PACE, "keep_pace": KEEP_PACE, "keep-pace-end-race": KEEP_PACE,
}
#: Kinds that take a whole-number argument.
WITH_NUMBER = frozenset({THRESHOLD, CHASE})


class PolicyError(RulesError):
    """Bad policy text (a one-line message)."""


class UnknownPolicyError(PolicyError):
    """A policy name nobody knows (callers may restate it with their own list of names)."""


@dataclass(frozen=True)
class Policy:
    """A parsed policy: canonical ``kind`` and, for thresholds, ``number``.

    ``text`` is the spelling as written (shown in reports, so outputs keep their words); it does
    not take part in equality.
    """

    kind: str
    number: int | None = None
    text: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        """The spelling as written, or the canonical one."""
        return self.text or self.canonical

    @property
    def canonical(self) -> str:
        return self.kind if self.number is None else f"{self.kind}:{self.number}"


def unknown_policy(shown: str, who: str = "", names: str = "") -> UnknownPolicyError:
    """The one-line error for a policy name a caller does not know."""
    label = f"unknown {who} policy" if who else "unknown policy"
    return UnknownPolicyError(f"{label} {shown!r}" + (f" ({names})" if names else ""))


@dataclass(frozen=True)
class PolicyText:
    """A ``NAME[:ARG]`` policy as typed, before its name is looked up (the lexer of
    :func:`parse_policy`)."""

    name: str
    arg: str | None = None

    @classmethod
    def parse(cls, text: str) -> PolicyText:
        name, sep, arg = str(text).strip().partition(":")
        name = name.strip().lower()
        if not name:
            raise PolicyError(f"bad policy {quoted(text)}: write NAME or NAME:N")
        if sep and not arg.strip():
            raise PolicyError(f"bad policy {quoted(text)}: nothing after ':'")
        return cls(name, arg.strip() if sep else None)

    def int_arg(self, low: int = 1) -> int:
        """The argument as a whole number at least ``low``."""
        problem = PolicyError(
            f"bad policy {self.text!r}: write {self.name}:N with a whole number N >= {low}")
        if self.arg is None:
            raise problem
        try:
            value = parse_whole_number(self.arg, "policy", PolicyError)
        except PolicyError:
            raise problem from None
        if value < low:
            raise problem
        return value

    @property
    def text(self) -> str:
        return self.name if self.arg is None else f"{self.name}:{self.arg}"


def parse_policy(text: str | Policy, *, optimal: str = TURN_OPTIMAL,
                 extra: frozenset[str] | set[str] = frozenset(), who: str = "",
                 names: str = "") -> Policy:
    """Parse ``NAME`` or ``NAME:N``.  ``optimal`` says what the bare word ``optimal`` means here
    (``TURN_OPTIMAL`` or ``WIN_OPTIMAL``); ``extra`` lists further accepted names without an
    argument (a game's own bots).  Raises :class:`PolicyError` with a one-line message; an
    unknown name reads "unknown {who} policy 'x' ({names})" when the caller gives them."""
    if isinstance(text, Policy):
        return text
    typed = PolicyText.parse(text)
    name, shown = typed.name, typed.text
    if name in PRESET_THRESHOLDS and typed.arg is None:
        return Policy(THRESHOLD, PRESET_THRESHOLDS[name], name)
    if name in extra:
        if typed.arg is not None:
            raise PolicyError(f"policy {quoted(name)} takes no argument")
        return Policy(name, None, shown)
    kind = optimal if name == "optimal" else ALIASES.get(name)
    if kind is None:
        raise unknown_policy(shown, who, names)
    if kind in WITH_NUMBER:
        return Policy(kind, typed.int_arg(1), shown)
    if typed.arg is not None:
        raise PolicyError(f"policy {quoted(name)} takes no argument")
    return Policy(kind, None, shown)


__all__ = [
    "CHASE", "KEEP_PACE", "PRESET_THRESHOLDS", "THRESHOLD", "TURN_OPTIMAL", "WIN_OPTIMAL",
    "Policy", "PolicyError", "PolicyText", "UnknownPolicyError", "parse_policy",
    "unknown_policy",
]
