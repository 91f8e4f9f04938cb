"""Lands Uncharted's decision states packed in ints, and the look-up tables of the draw.

A draw pile is its counts per card class, 4 bits per class (:func:`pack_counts`), with the
count of dead cards in a field above them; a haul is a mask of its ranks, whose treasure is a
table look-up (``TOTAL``).  What the state's fields mean and when a card is dead: the turn
model's docstring (:mod:`.turn`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from pushluck_teach.cards import Card, standard_cards
from pushluck_teach.games.lands_uncharted.rules import (
    BURIED_TOTAL,
    CURSED_CLUBS,
    CURSED_DIAMONDS,
    CURSED_HEARTS,
    CURSED_SPADES,
    DIAMOND,
    FREE,
    HEART1,
    HEART2,
    N_CLASSES,
    NUMBER_CLASSES,
    THREAT,
    card_class,
)

TOTAL = tuple(sum(c + 1 for c in NUMBER_CLASSES if m >> c & 1) for m in range(1 << 10))
HAUL_BITS = tuple(sum(1 << (4 * c) for c in NUMBER_CLASSES if m >> c & 1) for m in range(1 << 10))
# Merged states count the dead cards of the draw pile (turn.py's docstring) in an 8-bit field
# above the 15 class fields.
DEAD_SHIFT = 4 * N_CLASSES
DEAD = 1 << DEAD_SHIFT
THREAT_CLASSES = (THREAT, CURSED_SPADES, CURSED_CLUBS, CURSED_HEARTS, CURSED_DIAMONDS)
NINE_TEN = (1 << 8) | (1 << 9)
THREAT_FIELDS = sum(15 << (4 * c) for c in THREAT_CLASSES)

LUState = tuple[int, ...]


def _count(pile: int, cls: int) -> int:
    return (pile >> (4 * cls)) & 15


def _next_phase(phase: int, cls: int) -> int:
    """The phase after drawing a card of class ``cls`` (before the card's own effect)."""
    if phase == HEART2:
        return HEART1
    if phase == DIAMOND:
        return FREE if cls in (8, 9) else DIAMOND
    return FREE


_NEXT_PHASE = tuple(tuple(_next_phase(p, c) for c in range(N_CLASSES)) for p in range(5))


def pack_counts(cards: Iterable[Card], cursed_suits: Iterable[str] = ()) -> int:
    """Cards as counts per class, 4 bits per class."""
    suits = tuple(cursed_suits)
    packed = 0
    for card in cards:
        packed += 1 << (4 * card_class(card, suits))
    return packed


def _kept_ranks(mask: int, threat: bool, phase: int, spades: bool, diamonds: bool) -> int:
    """The haul ranks whose pile copies keep their own counts in a merged state
    (:mod:`.turn`'s docstring, "Dead cards"): with Q♦ in use the 9s and 10s while no threat
    is held or while Q♦ forces; with Q♠ in use and no threat held, the highest rank of the
    haul."""
    kept = 0
    if diamonds and (not threat or phase == DIAMOND):
        kept = mask & NINE_TEN  # a 9 or 10 ends (or would end) the Q♦ draws
    if spades and not threat and mask:
        kept |= 1 << (mask.bit_length() - 1)  # a Q♠ would give this rank back
    return kept


@functools.cache
def _dying_table(symmetric: bool, spades: bool, diamonds: bool) -> tuple[int, ...] | None:
    """For the draw's look-ups: at index ``(phase * 2 + threat held) << 10 | mask`` the haul
    ranks of ``mask`` that are dead (not kept) in that phase, i.e. ``mask & ~kept``; ``None``
    when no rank is ever kept (a raw model, or neither Q♠ nor Q♦ in use).  A rank that dies
    on a step is one dead after it and not before (both looked up here)."""
    if not symmetric or not (spades or diamonds):
        return None
    return tuple(
        mask & ~_kept_ranks(mask, bool(held), phase, spades, diamonds)
        for phase in range(5) for held in (0, 1) for mask in range(1 << 10)
    )


@functools.cache
def _full_deck_counts(cursed_suits: tuple[str, ...]) -> int:
    """:func:`pack_counts` of the whole deck (a model is built at every turn of a game)."""
    return pack_counts(standard_cards(), cursed_suits)


@functools.cache
def _bank_table(bonus: int) -> tuple[int, ...]:
    """What leaving banks, by haul total index: ``TOTAL`` with the buried-treasure bonus."""
    return tuple(total + bonus if total == BURIED_TOTAL else total for total in TOTAL)

