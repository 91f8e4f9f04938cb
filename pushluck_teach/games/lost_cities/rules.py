"""Lost Cities' rules: the cards, the constants of the rules, an expedition's score and the
variant (part of the Lost Cities game, :mod:`pushluck_teach.games.lost_cities`).

Rules as implemented (the project's reading of the rule sheet; ``docs/lost-cities.md``)
-------------------------------------------------------------------------------------------
* 60 cards: five colours ``Y B W G R`` (yellow, blue, white, green, red), each with the numbers
  2-10 and three identical handshakes ``H``.  Notation: colour + rank, ``R4``, ``GH``, ``B10``
  (case-insensitive; in an expedition string the colour may be left out: ``"H H 4 5 10"``).
* Two players, hands of 8 from a seeded shuffle.  A turn is two actions: first ``play:R4`` (to
  your own expedition of that colour) or ``discard:R4`` (face up on that colour's pile), then
  ``draw:deck`` or ``draw:R`` (the top of a discard pile), never the card you just discarded.
* Within an expedition numbers rise (not necessarily consecutively); handshakes only before
  that colour's first number.
* The match ends as soon as the deck's last card is drawn.  Each expedition with at least one
  card scores ``(sum of numbers - 20) x (1 + handshakes)``, plus 20 (not multiplied) when it has
  8 or more cards; an expedition never started scores 0.
* A game is ``matches`` matches (option, 1-9, default 3); the totals decide.  Player 1 starts
  match 1 and the players take turns starting the next matches (the sheet is silent; a table
  alternating the start is the usual reading).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import PositionError, Variant, option
from pushluck_teach.quoting import quoted

GAME = "lost-cities"
COLOURS: tuple[str, ...] = ("Y", "B", "W", "G", "R")
COLOUR_NAMES: dict[str, str] = {
    "Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red",
}
HANDSHAKE = 0
NUMBERS: tuple[int, ...] = tuple(range(2, 11))
HANDSHAKES_PER_COLOUR = 3
HAND_SIZE = 8
EXPEDITION_COST = 20
BONUS_CARDS = 8
BONUS = 20
MAX_MATCHES = 9
DECK_SIZE = len(COLOURS) * (len(NUMBERS) + HANDSHAKES_PER_COLOUR)
PLAY, DISCARD, DRAW_FROM = "play", "discard", "draw"
DECK = "deck"


# --------------------------------------------------------------------------------------------
# Cards


@dataclass(frozen=True, order=True, slots=True)
class LCCard:
    """One Lost Cities card: a colour (``Y B W G R``) and a rank (0 = handshake, 2-10)."""

    colour_index: int
    rank: int

    def __post_init__(self) -> None:
        if not 0 <= self.colour_index < len(COLOURS):
            raise PositionError(f"not a Lost Cities colour index: {self.colour_index!r}")
        if self.rank != HANDSHAKE and self.rank not in NUMBERS:
            raise PositionError(f"not a Lost Cities rank: {self.rank!r}")

    @classmethod
    def of(cls, colour: str, rank: int) -> LCCard:
        return cls(COLOURS.index(colour), rank)

    @property
    def colour(self) -> str:
        return COLOURS[self.colour_index]

    @property
    def is_handshake(self) -> bool:
        return self.rank == HANDSHAKE

    @property
    def rank_code(self) -> str:
        return "H" if self.rank == HANDSHAKE else str(self.rank)

    @property
    def code(self) -> str:
        """``R4``, ``GH``, ``B10``."""
        return self.colour + self.rank_code

    @property
    def label(self) -> str:
        """A text label for a card face: ``red 4``, ``green handshake``."""
        what = "handshake" if self.is_handshake else str(self.rank)
        return f"{COLOUR_NAMES[self.colour]} {what}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"LCCard({self.code})"


def full_deck() -> tuple[LCCard, ...]:
    """The 60 cards, colour by colour, handshakes first."""
    return tuple(LCCard(c, r) for c in range(len(COLOURS))
                 for r in (HANDSHAKE,) * HANDSHAKES_PER_COLOUR + NUMBERS)


def _parse_rank(text: str, token: str) -> int:
    if text.upper() == "H":
        return HANDSHAKE
    if text.isascii() and text.isdigit() and int(text) in NUMBERS:
        return int(text)
    raise PositionError(f"bad card {quoted(token)}: write colour (Y B W G R) + rank (H, 2-10), "
                        f"e.g. R4, GH, B10 (in an expedition the colour may be left out)")


def parse_card(token: str, colour: str | None = None) -> LCCard:
    """``R4``, ``gh``, ``B10``; with ``colour`` given a bare rank (``4``, ``H``) is allowed."""
    text = token.strip()
    if not text:
        raise PositionError("empty card")
    head = text[0].upper()
    if head in COLOURS and len(text) > 1:
        card = LCCard.of(head, _parse_rank(text[1:], token))
        if colour is not None and card.colour != colour:
            raise PositionError(
                f"card {quoted(token)} is {COLOUR_NAMES[card.colour]}, not {COLOUR_NAMES[colour]}"
            )
        return card
    if colour is not None:
        return LCCard.of(colour, _parse_rank(text, token))
    raise PositionError(
        f"bad card {quoted(token)}: write colour (Y B W G R) + rank (H, 2-10), e.g. R4, GH, B10"
    )


def parse_cards(text: str | Iterable[str | LCCard] | None, colour: str | None = None
                ) -> tuple[LCCard, ...]:
    """A list of cards separated by spaces or commas; ``None`` or ``""`` is no card."""
    if text is None:
        return ()
    tokens: Iterable[str | LCCard] = text.replace(",", " ").split() if isinstance(text, str) \
        else text
    return tuple(t if isinstance(t, LCCard) else parse_card(t, colour) for t in tokens)


def parse_colour(text: str) -> str:
    """``R``, ``red``, ``r`` → ``R``."""
    low = text.strip().lower()
    for code, name in COLOUR_NAMES.items():
        if low in (code.lower(), name):
            return code
    raise PositionError(f"bad colour {quoted(text)}: one of Y B W G R")


def cards_text(cards: Iterable[LCCard]) -> str:
    return " ".join(card.code for card in cards)


def check_card_counts(groups: Mapping[str, Sequence[LCCard]]) -> None:
    """Refuse cards named more often than the deck holds them (numbers once, handshakes 3x)."""
    seen: Counter[LCCard] = Counter()
    where: dict[LCCard, list[str]] = {}
    for name, cards in groups.items():
        for card in cards:
            seen[card] += 1
            where.setdefault(card, []).append(name)
    for card, count in seen.items():
        limit = HANDSHAKES_PER_COLOUR if card.is_handshake else 1
        if count > limit:
            places = ", ".join(sorted(set(where[card])))
            times = "three times" if card.is_handshake else "once"
            raise PositionError(
                f"card {card.code} is named {count} times ({places}); the deck holds it {times}"
            )


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class ExpeditionScore:
    """The score of one expedition with its breakdown."""

    cards: tuple[LCCard, ...]
    handshakes: int
    numbers_sum: int
    card_count: int
    multiplier: int
    base: int          # numbers_sum - 20 (0 for an empty expedition)
    multiplied: int    # base x multiplier
    bonus: int         # 20 for 8 or more cards, not multiplied
    total: int

    def as_json(self, exact: bool = False) -> dict[str, Any]:
        return {
            "cards": [card.code for card in self.cards],
            "handshakes": self.handshakes,
            "numbers_sum": self.numbers_sum,
            "card_count": self.card_count,
            "multiplier": self.multiplier,
            "base": self.base,
            "multiplied": self.multiplied,
            "bonus": self.bonus,
            "score": self.total,
        }

    def text_lines(self) -> list[str]:
        if not self.cards:
            return ["0", "an expedition never started scores 0"]
        lines = [str(self.total),
                 f"numbers {self.numbers_sum} - {EXPEDITION_COST} = {self.base}",
                 f"x {self.multiplier} ({self.handshakes} handshake"
                 f"{'' if self.handshakes == 1 else 's'}) = {self.multiplied}"]
        if self.bonus:
            lines.append(f"+ {self.bonus} bonus for {self.card_count} cards = {self.total}")
        return lines


def expedition_problem(cards: Sequence[LCCard]) -> str | None:
    """Why ``cards`` (in the order played) cannot be an expedition, or ``None`` if they can."""
    if not cards:
        return None
    colours = sorted({card.colour for card in cards}, key=COLOURS.index)
    if len(colours) > 1:
        return f"an expedition has one colour, these mix {' and '.join(colours)}"
    counts = Counter(cards)
    for card, count in counts.items():
        if not card.is_handshake and count > 1:
            return f"card {card.code} appears twice"
        if card.is_handshake and count > HANDSHAKES_PER_COLOUR:
            return f"{count} handshakes, but a colour has only {HANDSHAKES_PER_COLOUR}"
    top = -1
    for card in cards:
        if card.is_handshake and top > HANDSHAKE:
            return f"handshake {card.code} after a number (handshakes come first)"
        if not card.is_handshake and card.rank <= top:
            return f"{card.code} after {card.colour}{top}: numbers must rise"
        top = max(top, card.rank)
    return None


def score_expedition(cards: str | Iterable[str | LCCard], colour: str | None = None
                     ) -> ExpeditionScore:
    """Score an expedition given in the order played (``"H H 4 5 6 7 8 10"`` → 80).

    A bare rank (no colour) is read in ``colour`` (red if not given: the colour does not change
    the score).  A bad expedition raises :class:`PositionError` naming the problem.
    """
    parsed = parse_expedition(cards, colour) if isinstance(cards, str) else \
        parse_cards(cards, colour)
    problem = expedition_problem(parsed)
    if problem:
        raise PositionError(f"not an expedition: {problem}")
    if not parsed:
        return ExpeditionScore((), 0, 0, 0, 1, 0, 0, 0, 0)
    handshakes = sum(card.is_handshake for card in parsed)
    numbers = sum(card.rank for card in parsed)
    multiplier = 1 + handshakes
    base = numbers - EXPEDITION_COST
    bonus = BONUS if len(parsed) >= BONUS_CARDS else 0
    return ExpeditionScore(parsed, handshakes, numbers, len(parsed), multiplier, base,
                           base * multiplier, bonus, base * multiplier + bonus)


def parse_expedition(text: str, colour: str | None = None) -> tuple[LCCard, ...]:
    """Cards of an expedition: ``"R4 R6"`` or bare ranks ``"H 4 6"`` (read in ``colour``, or in
    the colour of the other cards, or red).  Colours are not checked here (see
    :func:`expedition_problem`)."""
    tokens = text.replace(",", " ").split()
    coloured = [t for t in tokens if len(t) > 1 and t[0].upper() in COLOURS]
    default = colour or (coloured[0][0].upper() if coloured else "R")
    return tuple(parse_card(t) if t in coloured else parse_card(t, default) for t in tokens)


def score_from_counts(handshakes: int, numbers_sum: int, count: int) -> int:
    """The score of an expedition from its handshakes, sum of numbers and number of cards."""
    if count == 0:
        return 0
    bonus = BONUS if count >= BONUS_CARDS else 0
    return (numbers_sum - EXPEDITION_COST) * (1 + handshakes) + bonus


# --------------------------------------------------------------------------------------------
# Variant


@dataclass(frozen=True, kw_only=True)
class LostCitiesVariant(Variant):
    """Lost Cities' option: the number of matches in a game (1-9, default 3)."""

    game = GAME
    matches: int = option(3, "Matches", "matches in a game; the totals of all matches decide",
                          low=1, high=MAX_MATCHES)
