r"""Lands Uncharted's rules: the constants of the rules, the card classes and the options
(:class:`LandsUnchartedVariant`).

Rules.  One 52-card deck, 1-4 players.  2-10 are treasure worth their rank, J/Q/K are threats
worth 0, an ace is an ally worth 0.  A turn draws a card; after every draw that did not bust the
player banks (the turn's treasure is added to the score) or draws again.  A *bust* is a second
threat in this turn's haul, or a number whose rank already lies in the haul: the turn ends with
nothing.  A drawn ace goes to the ally area; at the first bust it can stop, an ally is used
automatically: the ally and the busting card are discarded and the turn goes on (the first
threat stays in the haul).  Unused allies stay across turns (``allies_persist``) or are
discarded at the end of the turn.  The deck is not reshuffled between turns; when a card must be
drawn from an empty draw pile, the discard pile is shuffled into a new draw pile (haul and ally
cards stay).  When a score reaches ``target`` on banking, the round is finished (player 1 starts
every round) and the highest score wins; a tie goes to the player who banked fewest times
(a further tie is a shared win).  Options:

* ``buried_treasure``: banking exactly 21 in one turn scores 26.
* ``double_or_nothing``: at the start of a turn, before the first draw, a player whose score is
  from ``target - 10`` to ``target - 1`` (90-99) may *declare*.  On that turn they may bank only
  when score + haul is exactly ``target``; a number that takes score + haul past ``target`` is a
  bust (an ally can stop it, like any bust), and any bust on that turn sets the score to
  ``max(0, target - 20)`` (80).
* ``cursed_idol``: the queens in use (any of spades, clubs, hearts, diamonds).  A cursed queen is
  still a threat; when it enters the haul as the turn's first threat, Q♠ discards the highest
  number card of the haul, Q♥ forces two more draws before the next choice, and Q♦ forces draws
  until a 9 or 10 is drawn.  Q♣ is a bust at once (an ally can stop it).  A queen that busts as a
  second threat has no effect (an ally that stops it discards it unused).  Busts during forced
  draws end the turn as usual; a 9 or 10 ends the Q♦ draws even when it busts and an ally stops
  it.  Forced draws cannot nest: the forcing queen is the haul's threat, so a later queen busts.
* ``solo``: one player, ten turns; the total is the score to beat.

Card classes.  Suits matter only for the cursed queens, so cards fall in *classes*: 0 = ace,
1..9 = the number ranks 2..10 (class ``c`` is rank ``c + 1``), 10 = plain threats (J, K and
queens not in use), 11..14 = the cursed Q♠, Q♣, Q♥, Q♦ (:func:`card_class`).  The turn model
(:mod:`.turn`) counts cards by class.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pushluck_teach.cards import Card
from pushluck_teach.games.base import OptionError, Variant, comma_list, option
from pushluck_teach.quoting import quoted

GAME = "lands-uncharted"
DECLARE = "declare"
SOLO_TURNS = 10
BURIED_TOTAL = 21
BURIED_BONUS = 5
#: Largest target a game may be played to.
MAX_TARGET = 1000

# Card classes.
ACE = 0
THREAT = 10
CURSED_SPADES, CURSED_CLUBS, CURSED_HEARTS, CURSED_DIAMONDS = 11, 12, 13, 14
N_CLASSES = 15
NUMBER_CLASSES = tuple(range(1, 10))
QUEEN_CLASS = {"s": CURSED_SPADES, "c": CURSED_CLUBS, "h": CURSED_HEARTS, "d": CURSED_DIAMONDS}
CURSED_NAMES = ("spades", "clubs", "hearts", "diamonds")
_NAME_TO_SUIT = {
    "spades": "s", "spade": "s", "s": "s", "♠": "s",
    "clubs": "c", "club": "c", "c": "c", "♣": "c",
    "hearts": "h", "heart": "h", "h": "h", "♥": "h",
    "diamonds": "d", "diamond": "d", "d": "d", "♦": "d",
}
_ALL_WORDS = {"true", "all", "on", "yes", "1"}
_OFF_WORDS = {"false", "off", "none", "no", "0", ""}
CLASS_LABEL = {ACE: "A (ally)", THREAT: "J/K/Q (threat)", CURSED_SPADES: "Q♠ (cursed)",
               CURSED_CLUBS: "Q♣ (cursed)", CURSED_HEARTS: "Q♥ (cursed)",
               CURSED_DIAMONDS: "Q♦ (cursed)"}
CLASS_LABEL.update({c: str(c + 1) for c in NUMBER_CLASSES})

# Phases of a turn.
START, FREE, HEART2, HEART1, DIAMOND = 0, 1, 2, 3, 4
FORCED_PHASES = (HEART2, HEART1, DIAMOND)


# --------------------------------------------------------------------------------------------
# Variant


def _normalise_cursed(value: Any) -> tuple[str, ...]:
    """``cursed_idol`` as a tuple of suit names in docs/rules.md's order; errors name the bad
    value."""
    if value is None or value is False:
        return ()
    if value is True:
        return CURSED_NAMES
    if isinstance(value, str):
        value = comma_list(value, "option 'cursed_idol'", OptionError)
    if not isinstance(value, (tuple, list, set, frozenset)):
        raise OptionError(
            f"option 'cursed_idol' must be off, all, or a list of queens "
            f"({', '.join(CURSED_NAMES)}), not {quoted(value)}"
        )
    words = [str(v).strip().lower() for v in value]
    if len(words) == 1 and words[0] in _ALL_WORDS:
        return CURSED_NAMES
    if len(words) == 1 and words[0] in _OFF_WORDS:
        return ()
    suits = set()
    for word in words:
        if word not in _NAME_TO_SUIT:
            raise OptionError(
                f"bad queen {quoted(word)} in option 'cursed_idol': use {', '.join(CURSED_NAMES)}, "
                "all, or off"
            )
        suits.add(_NAME_TO_SUIT[word])
    return tuple(name for name in CURSED_NAMES if name[0] in suits)


@dataclass(frozen=True, kw_only=True)
class LandsUnchartedVariant(Variant):
    """Lands Uncharted's options (docs/rules.md), with their defaults.

    ``cursed_idol`` is ``()`` when off, else the queens in use, e.g. ``("spades", "hearts")``;
    ``True``, ``"all"`` or ``"true"`` mean all four, ``"off"``/``False`` none.
    """

    game = GAME
    allies_persist: bool = option(True, "Allies stay", "unused allies (aces) stay with you for "
                                  "later turns; off, they are discarded at the end of the turn")
    target: int = option(100, "Target score", "a score this large on banking finishes the "
                         "round, and the highest score wins", low=1, high=MAX_TARGET)
    buried_treasure: bool = option(False, "Buried treasure", "banking exactly 21 in one turn "
                                   "scores 26")
    double_or_nothing: bool = option(False, "Double or nothing", "from 10 below the target you "
                                     "may declare: bank only at exactly the target, a bust "
                                     "drops you to 20 below it")
    cursed_idol: tuple[str, ...] = option((), "Cursed idols", "the queens with a curse when they "
                                          "enter the haul (all, off, or a list)",
                                          choices=CURSED_NAMES)
    solo: bool = option(False, "Solo", "one player, ten turns: the total is the score to beat")

    def __post_init__(self) -> None:
        object.__setattr__(self, "cursed_idol", _normalise_cursed(self.cursed_idol))
        super().__post_init__()

    @property
    def cursed_suits(self) -> tuple[str, ...]:
        """The suit letters (``s c h d``) of the cursed queens in use."""
        return tuple(name[0] for name in self.cursed_idol)

    @property
    def declare_window(self) -> tuple[int, int]:
        """Scores (inclusive) from which double or nothing may be declared: 90-99 by default."""
        return max(0, self.target - 10), self.target - 1

    @property
    def double_or_nothing_reset(self) -> int:
        """The score after a bust on a declared turn: 80 by default."""
        return max(0, self.target - 20)

    def may_declare(self, score: int) -> bool:
        low, high = self.declare_window
        return self.double_or_nothing and low <= score <= high


def card_class(card: Card, cursed_suits: Iterable[str] = ()) -> int:
    """The class of a card in the turn model (see the module docstring)."""
    index = card.rank_index
    if index == 1:
        return ACE
    if 2 <= index <= 10:
        return index - 1
    if card.rank == "Q" and card.suit in tuple(cursed_suits):
        return QUEEN_CLASS[card.suit]
    return THREAT
