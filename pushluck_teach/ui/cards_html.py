"""Card faces (and Pig's die faces) as self-contained HTML.

A face is a ``<div role="img" aria-label="Ten of hearts">``: screen readers read the card's
name (:attr:`pushluck_teach.cards.Card.name`) and skip the decorative glyphs inside, which are
``aria-hidden``.  Sizes and colours come from :data:`pushluck_teach.ui.theme.STYLESHEET`, which
must be on the page once (the table includes it); faces are large enough for a projector.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from pushluck_teach.cards import SUIT_SYMBOLS, Card


def _rank_text(card: Card) -> str:
    return "10" if card.rank == "T" else card.rank


def card_face_html(card: Card) -> str:
    """One card face: rank in two corners, the suit symbol large in the middle."""
    name = escape(card.name)
    if card.is_joker:
        return (
            f'<div class="pushluck-card pushluck-card-joker" role="img" aria-label="{name}" '
            f'title="{name}" data-card="{card.code}">'
            '<span class="pl-corner pl-top" aria-hidden="true">JK</span>'
            '<span class="pl-centre" aria-hidden="true"><span>★</span>'
            '<span class="pl-word">JOKER</span></span>'
            '<span class="pl-corner pl-bottom" aria-hidden="true">JK</span></div>'
        )
    colour = "red" if card.is_red else "black"
    rank = _rank_text(card)
    suit = SUIT_SYMBOLS[card.suit]
    corner = f"{rank}<br>{suit}"
    return (
        f'<div class="pushluck-card pushluck-card-{colour}" role="img" aria-label="{name}" '
        f'title="{name}" data-card="{card.code}">'
        f'<span class="pl-corner pl-top" aria-hidden="true">{corner}</span>'
        f'<span class="pl-centre" aria-hidden="true">{suit}</span>'
        f'<span class="pl-corner pl-bottom" aria-hidden="true">{corner}</span></div>'
    )


def die_face_html(value: int) -> str:
    """A die showing ``value`` (Pig's rolls are dice, not cards)."""
    return (
        f'<div class="pushluck-die" role="img" aria-label="Die showing {value}" '
        f'title="Die showing {value}" data-die="{value}"><span aria-hidden="true">{value}</span>'
        "</div>"
    )


def cards_row_html(cards: Iterable[Card], *, empty_text: str = "No cards yet this turn.",
                   label: str = "Cards this turn") -> str:
    """A row of card faces (or a short text when there are none)."""
    faces = "".join(card_face_html(card) for card in cards)
    body = faces or f'<span class="pushluck-empty">{escape(empty_text)}</span>'
    return f'<div class="pushluck-cards" role="group" aria-label="{escape(label)}">{body}</div>'


def dice_row_html(values: Sequence[int], *, empty_text: str = "No rolls yet this turn.") -> str:
    """A row of die faces."""
    faces = "".join(die_face_html(v) for v in values)
    body = faces or f'<span class="pushluck-empty">{escape(empty_text)}</span>'
    return f'<div class="pushluck-cards" role="group" aria-label="Rolls this turn">{body}</div>'
