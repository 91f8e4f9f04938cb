"""Card notation and an immutable deck multiset.

Notation (docs/rules.md, "Card notation"): a card is rank + suit, ranks
``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for ``T``), suits ``s h d c`` (also
``♠ ♥ ♦ ♣``), case-insensitive.  A joker is ``JK``.
A list of cards is separated by spaces or commas.  Every parse error is a :class:`CardError`
whose message names the bad token.

A :class:`Deck` is a frozen multiset of cards: hashable, comparable, and every removal that asks
for a card the deck does not hold (or holds fewer times) is an error naming that card.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pushluck_teach.quoting import quoted

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
JOKER_RANK = "JK"
SUIT_SYMBOLS: dict[str, str] = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES: dict[str, str] = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_NAMES: dict[str, str] = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# Variation selector U+FE0F sometimes follows a suit emoji (♠️); it is dropped when parsing.
_VARIATION_SELECTOR = "\ufe0f"


class CardError(ValueError):
    """Bad card notation, or a card the deck does not hold."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.  ``rank`` is one of :data:`RANKS` or ``"JK"``; a joker's suit is ``""``."""

    rank: str
    suit: str = ""

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit:
                raise CardError(f"a joker has no suit: {self.rank}{self.suit}")
        elif self.rank not in RANKS or self.suit not in SUITS:
            raise CardError(f"not a card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def rank_index(self) -> int:
        """A=1, 2..10, J=11, Q=12, K=13; a joker is 0."""
        return 0 if self.is_joker else RANKS.index(self.rank) + 1

    @property
    def is_face(self) -> bool:
        return self.rank in ("J", "Q", "K")

    @property
    def is_red(self) -> bool:
        return self.suit in ("h", "d")

    @property
    def code(self) -> str:
        """Canonical short notation, e.g. ``Th``, ``JK``."""
        return self.rank + self.suit

    @property
    def label(self) -> str:
        """Notation with a suit symbol and ``10`` for tens, e.g. ``10♥``."""
        if self.is_joker:
            return "Joker"
        rank = "10" if self.rank == "T" else self.rank
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Spoken name for screen readers, e.g. ``Ten of hearts``."""
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def parse_card(token: str) -> Card:
    """Parse one card token such as ``Ah``, ``10d``, ``T♦``, ``jk``."""
    raw = token
    text = token.strip().replace(_VARIATION_SELECTOR, "")
    if not text:
        raise CardError("empty card token")
    if text.upper() == JOKER_RANK:
        return Card(JOKER_RANK)
    if len(text) > 3:  # no card is longer than 10♦
        raise CardError(f"bad card {quoted(raw)}: a card is a rank and a suit, like 5h, 10♦ "
                        "or JK")
    suit_char = text[-1]
    suit = _SYMBOL_TO_SUIT.get(suit_char, suit_char.lower())
    rank = text[:-1].upper()
    if rank == "10":
        rank = "T"
    if rank not in RANKS:
        raise CardError(
            f"bad card {quoted(raw)}: unknown rank {quoted(text[:-1])} (use A 2-9 T/10 J Q K "
            "or JK)"
        )
    if suit not in SUITS:
        raise CardError(f"bad card {quoted(raw)}: unknown suit {suit_char!r} (use s h d c or "
                        "♠ ♥ ♦ ♣)")
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str | Card] | None) -> tuple[Card, ...]:
    """Parse a list of cards separated by spaces or commas (or an iterable of tokens/cards)."""
    if text is None:
        return ()
    tokens: Iterable[str | Card]
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,]+", text) if t]
    elif isinstance(text, Iterable) and not isinstance(text, (bytes, bytearray)):
        tokens = list(text)
    else:
        raise CardError(f"cards {quoted(text)}: give text such as 'Ah 5s' or a list of cards")
    for token in tokens:
        if not isinstance(token, (str, Card)):
            raise CardError(f"bad card {quoted(token)}: a card is text such as 'Ah' or '10♦'")
    return tuple(t if isinstance(t, Card) else parse_card(t) for t in tokens)


def standard_cards(*, jokers: int = 0) -> tuple[Card, ...]:
    """The 52 cards of one standard deck (suits ♠♥♦♣ in rank order), plus ``jokers`` jokers."""
    cards = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    cards.extend(Card(JOKER_RANK) for _ in range(jokers))
    return tuple(cards)


class Deck:
    """An immutable multiset of cards.

    >>> deck = Deck.standard()
    >>> len(deck), deck.count(parse_card("Ah"))
    (52, 1)
    >>> len(deck.remove(parse_cards("Ah 2s")))
    50
    """

    __slots__ = ("_counts", "_hash", "_size")

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        counts = Counter(cards)
        self._counts: tuple[tuple[Card, int], ...] = tuple(sorted(counts.items()))
        self._size = sum(counts.values())
        self._hash = hash(self._counts)

    @classmethod
    def standard(cls, *, jokers: int = 0, decks: int = 1) -> Deck:
        return cls(standard_cards(jokers=jokers) * decks)

    def count(self, card: Card) -> int:
        for c, n in self._counts:
            if c == card:
                return n
        return 0

    def counts(self) -> dict[Card, int]:
        return dict(self._counts)

    def distinct(self) -> tuple[Card, ...]:
        return tuple(c for c, _ in self._counts)

    def cards(self) -> tuple[Card, ...]:
        """Every card, with repeats, in a fixed (sorted) order."""
        return tuple(c for c, n in self._counts for _ in range(n))

    def remove(self, cards: Iterable[Card], *, what: str = "deck") -> Deck:
        """The deck without ``cards``; an error names the first card it cannot remove."""
        held = dict(self._counts)
        counts = Counter(held)
        for card in cards:
            if counts[card] <= 0:
                if card not in held:
                    raise CardError(f"card {card.code} is not in this game's {what}")
                copies = "1 copy" if held[card] == 1 else f"{held[card]} copies"
                raise CardError(
                    f"card {card.code} appears more often than the {what} holds it ({copies})"
                )
            counts[card] -= 1
        return Deck(counts.elements())

    def add(self, cards: Iterable[Card]) -> Deck:
        return Deck([*self.cards(), *cards])

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self.count(card) > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._counts == other._counts

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Deck({len(self)} cards)"
