r"""Incan Gold's rules: the cards, the constants of the rules, the variant's options and
what a round's deck holds.

Cards.  13 **traps** ♠A-K; 16 **treasures**, both jokers and ♦♥ A 3 5 7 9 J K, worth A 1,
3 5 7 9 their rank, J 11, K 13, joker 15 gems (128 gems in all); 5 **artifacts** ♥4 6 8 10 Q
worth 4 6 8 10 12.  Every other card (♣, ♠ none, ♦ 2 4 6 8 10 Q, ♥2) is not in the game.

A round.  The deck is the traps and treasures still in the game plus the artifacts in the game:
round ``K`` adds the ``K``-th lowest artifact, and an artifact stays in the deck until it is
flipped.  Cards are flipped one at a time: a treasure's gems are split equally among the
explorers inside (the remainder goes to the path); an artifact goes to the path; trap ♠r
*springs* if a trap of rank r-1 or r+1 (a ring: A follows K) was flipped this round — everyone
inside loses what they carry this round, the round ends and that trap leaves the game.  After
each flip that did not end the round the explorers inside decide **at the same time** whether to
stay or leave; leavers split the path gems equally (the remainder stays) and bank what they carry;
a lone leaver also takes every artifact on the path.  Nobody inside: the round ends.  Flipped
artifacts leave the game after the round, taken or not.  After the last round the highest banked
gems plus artifact values wins.

Choices where docs/rules.md and the sheet are silent (options where a table could differ):

* ``rounds`` (5, any of 1-5; there are only 5 artifacts);
* ``remove_sprung_trap`` (True): the trap card that sprang leaves the game (docs/rules.md);
  off, every trap stays for the whole game;
* ``tie_break`` ("shared"): players tied for the highest total share the win; "artifacts": the
  tied player with the most artifact cards wins (the original Incan Gold rule), a further tie
  is shared;
* the first card of a round is flipped by an explicit ``draw`` ("Enter the temple") of the
  lowest seat; nobody decides before it (RULES: decisions follow a flip).  Staying explorers
  flip the next card automatically once the decisions are revealed;
* simultaneous decisions are asked in seat order and kept secret (the log only says "has
  decided") until every explorer inside has chosen, then revealed together;
* if the deck runs out after a flip that did not end the round, everyone still inside leaves at
  once, exactly as if all had chosen to leave (split of the path, a lone leaver takes the
  artifacts).  In a real game this never happens: at most 4 traps leave before the last round,
  so at least 9 of the 13 ring positions hold a trap, and 9 positions of a 13-ring always
  include two neighbours (the largest set of pairwise non-adjacent positions has 6); the 7th
  trap flipped in a round must spring.  Only hand-made positions can empty the deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pushluck_teach.cards import Card, CardError, Deck
from pushluck_teach.games.base import PositionError, Variant, option

GAME = "incan-gold"
ROUNDS_MAX = 5
#: Other explorers the group model takes (``others``).
OTHERS_MAX = 7
RING = 13
FULL_RING = (1 << RING) - 1
TREASURE_RANKS: tuple[str, ...] = ("A", "3", "5", "7", "9", "J", "K")
GEMS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 13, 15)  # gem classes; class 7 is the joker
JOKER_CLASS = 7
ARTIFACT_RANKS: tuple[str, ...] = ("4", "6", "8", "T", "Q")
ARTIFACT_VALUES: tuple[int, ...] = (4, 6, 8, 10, 12)
POW3: tuple[int, ...] = tuple(3**i for i in range(len(GEMS)))
FULL_TREASURES: tuple[int, ...] = (2,) * len(GEMS)


# --------------------------------------------------------------------------------------------
# Cards


def trap_card(rank: int) -> Card:
    """♠ of rank 1..13."""
    return Card(("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")[rank - 1], "s")


def artifact_card(index: int) -> Card:
    """The artifact of round ``index + 1`` (♥4, ♥6, ♥8, ♥10, ♥Q)."""
    return Card(ARTIFACT_RANKS[index], "h")


def treasure_cards() -> tuple[Card, ...]:
    cards = [Card(r, s) for s in ("d", "h") for r in TREASURE_RANKS]
    return (*cards, Card("JK"), Card("JK"))


def full_deck() -> tuple[Card, ...]:
    """All 34 cards of the game."""
    traps = tuple(trap_card(r) for r in range(1, RING + 1))
    return traps + treasure_cards() + tuple(artifact_card(i) for i in range(ROUNDS_MAX))


def classify(card: Card) -> tuple[str, int]:
    """``("trap", rank 1-13)``, ``("treasure", gem class 0-7)`` or ``("artifact", 0-4)``."""
    if card.is_joker:
        return "treasure", JOKER_CLASS
    if card.suit == "s":
        return "trap", card.rank_index
    if card.suit in ("d", "h") and card.rank in TREASURE_RANKS:
        return "treasure", TREASURE_RANKS.index(card.rank)
    if card.suit == "h" and card.rank in ARTIFACT_RANKS:
        return "artifact", ARTIFACT_RANKS.index(card.rank)
    raise CardError(
        f"card {card.code} is not in the Incan Gold deck (traps ♠A-K, treasures jokers and "
        f"♦♥ A 3 5 7 9 J K, artifacts ♥4 6 8 10 Q; clubs and other red even cards are unused)"
    )


def card_value(card: Card) -> int:
    """Gems of a treasure, value of an artifact, 0 for a trap."""
    kind, index = classify(card)
    if kind == "treasure":
        return GEMS[index]
    if kind == "artifact":
        return ARTIFACT_VALUES[index]
    return 0


def ring_neighbours(rank: int) -> tuple[int, int]:
    """The ranks next to ``rank`` in the ring (A follows K)."""
    return (rank - 2) % RING + 1, rank % RING + 1


def springs(rank: int, flipped_traps: Iterable[int]) -> bool:
    flipped = set(flipped_traps)
    return any(n in flipped for n in ring_neighbours(rank))


# --------------------------------------------------------------------------------------------
# Variant


@dataclass(frozen=True, kw_only=True)
class IncanGoldVariant(Variant):
    """Incan Gold's options (see the module docstring for why each exists)."""

    game = GAME
    rounds: int = option(5, "Rounds", "rounds in a game; each round adds one artifact (there "
                         "are five)", low=1, high=ROUNDS_MAX)
    remove_sprung_trap: bool = option(True, "Sprung traps leave", "the trap card that sprang "
                                      "leaves the game; off, every trap stays all game")
    tie_break: str = option("shared", "Tie break", "players tied for the most gems share the "
                            "win, or the one with more artifacts wins",
                            choices=("shared", "artifacts"))


# --------------------------------------------------------------------------------------------
# The round's deck


@dataclass(frozen=True)
class RoundDeck:
    """What a round's deck holds at its start: traps in the game (bit ``r-1`` for ♠r), the
    count of each treasure class, and the artifacts (indices 0-4) in the deck."""

    traps: int = FULL_RING
    treasures: tuple[int, ...] = FULL_TREASURES
    artifacts: tuple[int, ...] = (0,)

    def cards(self) -> tuple[Card, ...]:
        cards = [trap_card(r) for r in range(1, RING + 1) if self.traps >> (r - 1) & 1]
        for cls, count in enumerate(self.treasures):
            if cls == JOKER_CLASS:
                cards.extend([Card("JK")] * count)
            else:
                cards.extend(Card(TREASURE_RANKS[cls], s) for s in ("d", "h")[:count])
        cards.extend(artifact_card(i) for i in self.artifacts)
        return tuple(cards)

    def treasure_code(self) -> int:
        return sum(c * p for c, p in zip(self.treasures, POW3, strict=True))

    def artifact_values(self) -> tuple[int, ...]:
        return tuple(ARTIFACT_VALUES[i] for i in self.artifacts)

    def describe(self) -> str:
        arts = " ".join(artifact_card(i).label for i in self.artifacts) or "none"
        return (f"{bin(self.traps).count('1')} traps, {sum(self.treasures)} treasures, "
                f"artifacts {arts}")


@dataclass(frozen=True)
class Flipped:
    """Cards flipped this round, sorted by kind (after checking none sprang)."""

    trap_mask: int
    treasure_taken: tuple[int, ...]
    artifacts: tuple[int, ...]
    gems: int  # total treasure gems flipped
    artifact_value: int


def read_flips(deck: RoundDeck, flipped: Sequence[Card], *, check: bool = True) -> Flipped:
    """Sort ``flipped`` by kind; with ``check``, first check it against ``deck`` (each card held
    as often as flipped, no trap sprang).  The engine, which flips real cards, skips the check."""
    if check and flipped:  # nothing flipped: nothing to check (and a deck costs ~1 ms)
        Deck(deck.cards()).remove(flipped, what="Incan Gold deck this round")
    mask = 0
    taken = [0] * len(GEMS)
    artifacts: list[int] = []
    for card in flipped:
        kind, index = classify(card)
        if kind == "trap":
            if check and springs(index, (r for r in range(1, RING + 1) if mask >> (r - 1) & 1)):
                raise PositionError(
                    f"trap {card.code} springs (a neighbouring trap was flipped before it): "
                    f"the round is already over"
                )
            mask |= 1 << (index - 1)
        elif kind == "treasure":
            taken[index] += 1
        else:
            artifacts.append(index)
    gems = sum(GEMS[i] * c for i, c in enumerate(taken))
    return Flipped(mask, tuple(taken), tuple(artifacts), gems,
                   sum(ARTIFACT_VALUES[i] for i in artifacts))
