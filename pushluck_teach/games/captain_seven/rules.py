r"""Captain Seven's Doubloons: the rules, the cards and the variant.

Rules (docs/rules.md, "Captain Seven's Doubloons"; seed 002).  A 54-card deck with both jokers;
values A 1, 2-10 their rank, J Q K 10.  A turn: draw a card.  The first card of a turn never
catches you (a first 7 counts 7, a first joker 0).  After it you are *caught* when you draw a 7
or a joker, or when the turn total ends in 7 (7, 17, 27, ...).  After each draw that did not
catch you: *stash* (``stop``: the turn total joins your stash) or draw again.  Caught: the turn
total is lost.  Every card drawn is shuffled back when the turn ends, so each turn starts from
the full deck.  A stash of ``target`` (default 100) or more triggers the final round: every
player whose stash is below the target gets one more turn; the highest stash wins and equal
stashes share the win.  1 player is a solo practice mode.

Options.  ``target`` (any positive whole number; 75/100/150/200/1000 are the sheet's lengths,
presets ``short``/``standard``/``long``/``marathon``/``atlantic``).  ``secret_stash``:
:meth:`~pushluck_teach.games.captain_seven.engine.CaptainSevenEngine.view` hides the other
players' stashes (``None``) until someone reaches the target (the log then omits stash totals
too).  ``relics``: when you stash you may keep one of the turn's A, J, Q or K as your relic
(engine action ``keep:<card>``; at most one, a new one replaces the old).  Readings of the relic
rules where docs/rules.md is silent:

* a relic is the physical card: it is out of the deck while held (and for the rest of the turn
  in which it is spent); the turn model takes them through ``relic`` and ``removed``;
* **ace**: used automatically when you are caught (the engine only when it saves at least one
  doubloon); ``floor(lost / 3)`` goes to the stash, where the lost total includes the catching
  card (a 7 counts 7, a joker 0; a total ending in 7 counts as it stands);
* **jack** (``relic:jack``): after any draw, even a catching one, discard that card (it stays
  out for the rest of the turn), take back its value, and draw again; a discarded first card is
  replaced by a new first card (which cannot catch you);
* **queen** (``relic:queen``, or ``no-queen``): right after a draw that did not catch you (and
  before drawing or stashing) you decide whether to add the value of the card just drawn once
  more; the doubled total is checked again: a total ending in 7 catches
  you (a doubled first card never does, its double is even);
* **king** (``king``): it never acts in its holder's own turn, so the turn model ignores it.
  In the engine, after an opponent's draw that did not catch them, each king holder in turn
  order may ``king`` (the card goes back into the deck, which is reshuffled, and the drawer
  draws again) or ``pass``; a catching card is never offered (throwing it back only helps the
  drawer).  Bots always pass, and bots never keep relics (``stop`` stashes without keeping).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pushluck_teach.cards import Card, Deck, standard_cards
from pushluck_teach.games.base import Variant, option

GAME = "captain-seven"
SHEET_TARGETS = (75, 100, 150, 200, 1000)
#: Largest target a game may be played to (the longest sheet length).
MAX_TARGET = 1000

JACK = "relic:jack"
QUEEN = "relic:queen"
CAUGHT = "caught"
NO_QUEEN = "no-queen"
KING = "king"
PASS = "pass"
KEEP = "keep:"

# ---- value classes -------------------------------------------------------------------------
# Classes 0-8: non-catching values 1 2 3 4 5 6 8 9 10 (10 holds 10/J/Q/K); 9: sevens; 10: jokers.
CLASS_VALUES = (1, 2, 3, 4, 5, 6, 8, 9, 10, 7, 0)
CLASS_CAPS = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4, 2)
CLASS_LABELS = ("A", "2", "3", "4", "5", "6", "8", "9", "10/J/Q/K", "7", "joker")
SEVEN, JOKER_CLASS, TEN = 9, 10, 8
FULL_POOL = sum(v * k for v, k in zip(CLASS_VALUES[:9], CLASS_CAPS[:9], strict=True))  # 312
DECK_SIZE = 54
_ALL_CARDS = standard_cards(jokers=2)
RELIC_RANKS = ("A", "J", "Q", "K")


def card_value(card: Card) -> int:
    """A 1, 2-10 their rank, J Q K 10, a joker 0 (it only counts as a first card)."""
    if card.is_joker:
        return 0
    return min(card.rank_index, 10)


def card_class(card: Card) -> int:
    if card.is_joker:
        return JOKER_CLASS
    if card.rank == "7":
        return SEVEN
    return (0, 1, 2, 3, 4, 5, -1, 6, 7, 8, 8, 8, 8)[card.rank_index - 1]


def full_deck() -> Deck:
    return Deck.standard(jokers=2)


def _class_counts(cards: Iterable[Card]) -> list[int]:
    out = [0] * 11
    for card in cards:
        out[card_class(card)] += 1
    return out


# ---- variant ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CaptainSevenVariant(Variant):
    """Captain Seven's options: the stash that ends the game, secret stashes, relics."""

    game = GAME
    target: int = option(100, "Target stash", "a stash this large triggers the final round "
                         "(the sheet's lengths: 75, 100, 150, 200, 1000)", low=1, high=MAX_TARGET)
    secret_stash: bool = option(False, "Secret stashes", "the other players' stashes stay hidden "
                                "until someone reaches the target")
    relics: bool = option(False, "Relics", "when you stash you may keep one of the turn's A, J, Q "
                          "or K as a relic with a special power")
