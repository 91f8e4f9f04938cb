"""How an error line shows a value a person typed (or a file held): quoted, one line, short.

It sits in the base layer beside :mod:`pushluck_teach.cards` so that every layer that refuses
input (cards, games, solve, the CLI, the pages) shows values the same way.
"""

from __future__ import annotations

from typing import Any

#: The most characters of a value an error line repeats.
QUOTE_LIMIT = 60


def quoted(value: Any, limit: int = QUOTE_LIMIT, *, tail: bool = False) -> str:
    """``value`` as an error line shows it: ``repr`` of a text (so newlines and other control
    characters are escaped and the line stays one line), cut to about ``limit`` characters with
    ``…`` and the full length when longer: ``'xxxx…' (5,000 characters)``.  ``tail`` keeps the
    end instead (a path's file name): ``'…/rules.json' (300 characters)``."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        if tail:
            shown = repr(value[-limit:])
            return f"{shown[0]}…{shown[1:]} ({len(value):,} characters)"
        shown = repr(value[:limit])
        return f"{shown[:-1]}…{shown[-1]} ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def one_line(text: str) -> str:
    """``text`` with its line breaks written as ``\\n`` (a message must stay one line)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


__all__ = ["QUOTE_LIMIT", "one_line", "quoted"]
