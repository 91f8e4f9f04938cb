"""Number text shared by every layer that prints numbers (the CLI and the UI).

It sits in the base layer beside :mod:`pushluck_teach.cards` so that any layer may import it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import overload

Number = int | Fraction


@overload
def fraction_text(value: Number) -> str: ...
@overload
def fraction_text(value: Number | None) -> str | None: ...
@overload
def fraction_text(value: Number | None, missing: str) -> str: ...


def fraction_text(value: Number | None, missing: str | None = None) -> str | None:
    """``"p/q"`` for a rational, reduced (``"14/1"`` and ``"0/1"`` included); ``missing`` (by
    default ``None``) when there is no value."""
    if value is None:
        return missing
    frac = value if isinstance(value, Fraction) else Fraction(value)
    return f"{frac.numerator}/{frac.denominator}"


__all__ = ["fraction_text"]
