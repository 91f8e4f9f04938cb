r"""The rules of High-Stakes Hit List: their constants, the turn model's card classes, the small
rule functions shared by the turn model and the engine, and the variant (every option, off by
default).

Rules as played here (docs/rules.md wins over the sheet; where both are silent the table
reading is stated and marked *table reading*):

* One 52-card deck (104 with ``long_haul``), shuffled once and never reshuffled; 1-3 players.
  2-10 are worth their rank, J Q K are security threats worth 0, an ace is worth 1 or 11.
* A job (a turn): draw a card; after each draw that did not botch, execute the hit (legal only
  when the job's value is 15 or more) or draw again.
* Ace choice (default): the player picks 1 or 11 the moment the ace is drawn and it stays so.
  The engine's only legal actions right after an ace are ``"ace:1"`` and ``"ace:11"``.
  *Table reading*: 11 is offered even when it takes the job over 21 (that botches the job:
  the choice is the player's); an ace drawn on a job total of 21 botches at once, since even
  counted 1 it goes over 21.
* ``soft_aces``: aces count like a blackjack hand: the job's *hard* total counts every ace 1,
  and its value is ``hard + 10`` when the job holds an ace and ``hard + 10 <= 21``, else
  ``hard``.  So an ace counted 11 silently drops back to 1 when a later card would take the job
  over 21 (a "soft" total); the job botches only when the hard total goes over 21.  At most one
  ace ever counts 11.  When a soft job is executed, its ace is recorded at the value it had then.
* Botch: the total goes over 21, or a second face card is drawn in this job.  The job's cards
  go to the botched pile, -10 each at the end.
* Deck out.  *Table reading* of "the game ends at once when the deck runs out": the card that
  empties the deck is resolved like any other (it can botch the job; if the job survives with a
  value that may be executed, the player may still execute).  The deck has run out when a card
  is needed and none is left: the job in progress then counts as neither a hit nor a botch
  (its turn record's result is 0) and the game ends at once.
* End: the first player to reach 5 hits triggers the last round: the players after them in
  this round's turn order (seat order from player 1) take one more job.  ``long_haul``: the game
  ends only when the deck runs out (5 hits trigger nothing).  ``solo`` (Lone Gunman, exactly one
  player): the game ends at 5 hits, at the end of the deck, or at the 6th botched job (score 0).
  One player without ``solo`` plays the standard rules: the 5th hit ends the game (nobody plays
  after them) and there is no death at 6 botches unless ``bad_life`` is on.
* Score: the values of the cards in the player's hit piles (aces as counted, faces 0), +15 for
  each silent-assassin hit, -10 per botched job, +20 with ``ghost`` and no botched job; a player
  who is out (``bad_life`` or ``solo``: 6 botched jobs) scores 0 and cannot win.  Ties: fewest
  botched jobs, then most hits, then the highest single hit (a job's result when executed,
  bonus included); players still tied share the win.
* ``silent_assassin``: executing at exactly 21 counts 2 hits and +15.
* ``rival_interference``: drawing a number card (2-10) whose rank is already in the job, when
  that draw does not botch the job, takes one random card (with its counted value) from the hit
  piles of a random rival who has any, into the player's own hit piles.  It moves a card, not a
  hit: hit counts do not change.  *Table reading*: a botching draw steals nothing ("gaining
  nothing this turn"); the steal is always taken (it never lowers the player's score).
* ``one_last_job``: the job that would give the player their 5th hit (hits before it below 5,
  after it 5 or more; a silent-assassin 21 adds 2) must hold at least 3 cards to be executed.
* ``bad_life``: a player with 6 botched jobs is out (skips every later job) and scores 0; if
  every player is out the game ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pushluck_teach.cards import Card, CardError, Deck
from pushluck_teach.games.base import Variant, option

GAME = "hit-list"
ACE_ONE = "ace:1"
ACE_ELEVEN = "ace:11"
ACE_ACTIONS = (ACE_ONE, ACE_ELEVEN)
ACE_VALUE = {ACE_ONE: 1, ACE_ELEVEN: 11}

MIN_TO_EXECUTE = 15
LIMIT = 21
BOTCH_PENALTY = -10
SILENT_BONUS = 15
GHOST_BONUS = 20
HITS_TO_WIN = 5
BOTCHES_TO_DIE = 6
LAST_JOB_CARDS = 3

# Card classes of the turn model.
ACE, FACE = 0, 10
CLASS_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0)
CLASS_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J/Q/K")


_RANK_CLASS = {rank: min(i, FACE) for i, rank in enumerate("A23456789TJQK")}


def card_class(card: Card) -> int:
    """The turn model's class of a card: A=0, 2..10 → 1..9, J/Q/K → 10."""
    try:
        return _RANK_CLASS[card.rank]
    except KeyError:
        raise CardError(f"card {card.code} is not in this game's deck") from None


def card_value(card: Card) -> int:
    """The value of a non-ace card (faces 0)."""
    return CLASS_VALUES[card_class(card)]


def deck_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    counts = [0] * 11
    for card in cards:
        counts[card_class(card)] += 1
    return tuple(counts)


def hit_gain(variant: HitListVariant, value: int) -> int:
    """Hits an execution at ``value`` counts: 2 for a silent-assassin 21, else 1."""
    return 2 if variant.silent_assassin and value == LIMIT else 1


def execute_result(variant: HitListVariant, value: int) -> int:
    """The turn objective of executing a job of value ``value``."""
    return value + (SILENT_BONUS if variant.silent_assassin and value == LIMIT else 0)


def may_execute(variant: HitListVariant, value: int, cards: int, hits: int) -> bool:
    """Execution is legal at value ≥ 15, and with ``one_last_job`` the job that would give the
    5th hit needs at least 3 cards."""
    if value < MIN_TO_EXECUTE:
        return False
    if variant.one_last_job and cards < LAST_JOB_CARDS:
        return not hits < HITS_TO_WIN <= hits + hit_gain(variant, value)
    return True


def soft_value(hard: int, has_ace: bool) -> int:
    """Blackjack value: one ace counts 11 while that keeps the job at 21 or under."""
    return hard + 10 if has_ace and hard + 10 <= LIMIT else hard


# --------------------------------------------------------------------------------------------
# Variant


@dataclass(frozen=True, kw_only=True)
class HitListVariant(Variant):
    """Every option of docs/rules.md for High-Stakes Hit List (all off by default)."""

    game = GAME
    soft_aces: bool = option(False, "Soft aces", "aces count like blackjack: 11 unless that "
                             "takes the job over 21, then 1")
    silent_assassin: bool = option(False, "Silent assassin", "executing at exactly 21 counts "
                                   "2 hits and +15 points")
    ghost: bool = option(False, "Ghost", "+20 points at the end for a player who never botched "
                         "a job")
    rival_interference: bool = option(False, "Rival interference", "drawing a pair (without "
                                      "botching) steals a random card from a rival's hit piles")
    one_last_job: bool = option(False, "One last job", "the job that gives your 5th hit needs "
                                "at least 3 cards")
    long_haul: bool = option(False, "The long haul", "two decks, and the game ends only when "
                             "the deck runs out")
    bad_life: bool = option(False, "Bad life", "a player who botches 6 jobs is out and "
                            "scores 0")
    solo: bool = option(False, "Lone gunman (solo)", "one player: the game ends at 5 hits, "
                        "the 6th botched job or the end of the deck")

    @property
    def decks(self) -> int:
        return 2 if self.long_haul else 1

    def full_deck(self) -> Deck:
        return Deck.standard(decks=self.decks)
