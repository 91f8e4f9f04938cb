r"""High-Stakes Hit List (seed 001; docs/rules.md, "High-Stakes Hit List"): blackjack with a
body count.

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

Turn model (one job as an exact finite MDP).  Card classes ``A, 2, ..., 9, 10, F`` (F = any of
J Q K: suits and the face's rank never matter to one job; 10 and the faces differ, a face is a
0-valued threat).  A state is

* ``("job", d, t)``: the deck ``d`` as an 11-tuple of counts per class and the job total ``t``
  (aces as chosen; with ``soft_aces`` the hard total);
* ``("ace", d, t)``: an ace was just drawn (already out of ``d``) onto total ``t``; the actions
  are ``ace:1`` and ``ace:11`` (deterministic);
* ``("end", value, kind, c)``: terminal, ``kind`` is ``"hit"`` or ``"botch"``, ``c`` the class
  of the card that botched the job (-1 for a hit).

Everything else about the job is a function of ``d`` and the model's deck ``d0`` before the job's
first card: the number of cards in the job is ``|d0| - |d|``, a face is in the job when
``d[F] < d0[F]``, an ace when ``d[A] < d0[A]``.  Drawing from ``("job", d, t)`` gives class ``c``
with weight ``d[c]`` (exact probability ``d[c] / |d|``).  The objective (docs/rules.md) is the job's
value ``v`` when executed (``v + 15`` with ``silent_assassin`` at ``v = 21``) and -10 when
botched.  A job state whose deck is empty and whose value may not be executed is terminal with
value 0 (the deck ran out: neither hit nor botch); with an empty deck and a legal execution,
executing is the only action.  ``rival_interference``, ``ghost``, ``bad_life``, ``solo`` and the
end-of-game rules do not change the value of one job (a steal moves a rival's card, not this
job's value), so the model ignores them; ``long_haul`` enters only through ``d0``.
``one_last_job`` needs the hits completed before this job (the ``hits`` field).

Size: every non-terminal state's drawn cards have a hard total of at most 21 with at most one
face, so a job from a full 52-card deck has 7,272 reachable states (4,056 with ``soft_aces``,
10,402 with ``long_haul``); the solver expands them all, no pruning is needed or used.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pushluck_teach.cards import Card, CardError, Deck, parse_cards, standard_cards
from pushluck_teach.games.base import (
    DRAW,
    DRAWN,
    REMOVED,
    STOP,
    Engine,
    Flag,
    GameSpec,
    IllegalActionError,
    OptionError,
    PositionError,
    RulesError,
    SoloMode,
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    comma_list,
    option,
    parse_whole_number,
    register,
    whole_number,
)
from pushluck_teach.quoting import quoted

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

HitState = tuple[Any, ...]


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


# --------------------------------------------------------------------------------------------
# Turn model


@dataclass(frozen=True)
class HitListTurnModel(TurnModel[HitState]):
    """One job as an exact MDP (see the module docstring for states and objective).

    ``deck``: counts per class (A, 2..9, 10, J/Q/K) of the draw pile before the job's first
    card; ``hits``: hits the player completed before this job (only ``one_last_job`` uses it);
    ``opening``: ``(class, counted value)`` of the job's cards already drawn, in order (an ace's
    counted value is 1 or 11; with ``soft_aces`` it is ignored).  Rival interference never
    changes the job's value, so it is not modelled.
    """

    game = GAME
    variant: HitListVariant
    deck: tuple[int, ...]
    hits: int = 0
    opening: tuple[tuple[int, int], ...] = ()

    @cached_property
    def _size0(self) -> int:
        return sum(self.deck)

    @property
    def start(self) -> HitState:
        return self.state_after(self.opening)

    def state_after(self, cards: Sequence[tuple[int, int | None]],
                    names: Sequence[str] | None = None) -> HitState:
        """The state after drawing ``cards`` (class, counted value; ``None`` for an ace whose
        value is still to be chosen, which must be the last card).  A botched or impossible
        sequence raises :class:`PositionError` naming the card (``names``: card tokens)."""
        soft = self.variant.soft_aces
        deck = list(self.deck)
        total = 0
        faces = 0
        for i, (cls, value) in enumerate(cards):
            name = names[i] if names else CLASS_LABELS[cls]
            if deck[cls] <= 0:
                raise PositionError(f"card {name} is not left in the deck")
            deck[cls] -= 1
            if cls == ACE and value is None and not soft:
                if i != len(cards) - 1:
                    raise PositionError(f"the ace {name} needs a value (1 or 11)")
                if total + 1 > LIMIT:
                    raise PositionError(f"the position is botched: {name} takes the job over 21")
                return ("ace", tuple(deck), total)
            if cls == FACE:
                faces += 1
                if faces > 1:
                    raise PositionError(
                        f"the position is botched: {name} is a second face card in the job"
                    )
                continue
            add = 1 if cls == ACE and soft else (value if cls == ACE else CLASS_VALUES[cls])
            if add not in ((1, 11) if cls == ACE else (CLASS_VALUES[cls],)):
                raise PositionError(f"bad value {add!r} for {name}: an ace counts 1 or 11")
            total += add
            if total > LIMIT:
                raise PositionError(
                    f"the position is botched: {name} takes the job to {total}, over 21"
                )
        return ("job", tuple(deck), total)

    # ---- derived facts --------------------------------------------------------------------
    def cards_in_job(self, deck: tuple[int, ...]) -> int:
        return self._size0 - sum(deck)

    def job_value(self, deck: tuple[int, ...], total: int) -> int:
        if self.variant.soft_aces:
            return soft_value(total, deck[ACE] < self.deck[ACE])
        return total

    def can_execute(self, deck: tuple[int, ...], total: int) -> bool:
        return may_execute(self.variant, self.job_value(deck, total), self.cards_in_job(deck),
                           self.hits)

    # ---- the MDP --------------------------------------------------------------------------
    def actions(self, state: HitState) -> tuple[str, ...]:
        tag = state[0]
        if tag == "end":
            return ()
        if tag == "ace":
            return ACE_ACTIONS
        _, deck, total = state
        stop = self.can_execute(deck, total)
        if not any(deck):
            return (STOP,) if stop else ()
        return (DRAW, STOP) if stop else (DRAW,)

    def transitions(self, state: HitState, action: str) -> list[tuple[int, HitState]]:
        tag = state[0]
        if tag == "ace":
            if action not in ACE_VALUE:
                raise IllegalActionError(
                    f"after an ace the action is ace:1 or ace:11, not {action!r}")
            _, deck, total = state
            new = total + ACE_VALUE[action]
            if new > LIMIT:
                return [(1, ("end", BOTCH_PENALTY, "botch", ACE))]
            return [(1, ("job", deck, new))]
        if tag != "job":
            raise IllegalActionError("the job is over")
        _, deck, total = state
        if action == STOP:
            value = self.job_value(deck, total)
            return [(1, ("end", execute_result(self.variant, value), "hit", -1))]
        if action != DRAW:
            raise IllegalActionError(f"unknown Hit List action {action!r}")
        face_in_job = deck[FACE] < self.deck[FACE]
        choose_ace = not self.variant.soft_aces
        out: list[tuple[int, HitState]] = []
        for cls, count in enumerate(deck):
            if not count:
                continue
            rest = deck[:cls] + (count - 1,) + deck[cls + 1:]
            nxt: HitState
            if cls == FACE:
                nxt = ("end", BOTCH_PENALTY, "botch", FACE) if face_in_job else ("job", rest, total)
            elif cls == ACE and choose_ace:
                nxt = ("end", BOTCH_PENALTY, "botch", ACE) if total >= LIMIT else (
                    "ace", rest, total)
            else:
                new = total + CLASS_VALUES[cls]
                nxt = ("end", BOTCH_PENALTY, "botch", cls) if new > LIMIT else ("job", rest, new)
            out.append((count, nxt))
        return out

    def payoff(self, terminal: HitState) -> int:
        if terminal[0] == "end":
            return terminal[1]
        return 0  # a job state with an empty deck and no legal execution: the deck ran out

    def is_bust(self, terminal: HitState) -> bool:
        return terminal[0] == "end" and terminal[2] == "botch"

    def turn_total(self, state: HitState) -> int:
        if state[0] == "end":
            return state[1]
        if state[0] == "ace":
            return state[2]
        return self.job_value(state[1], state[2])

    def describe(self, state: HitState) -> str:
        if state[0] == "end":
            if state[2] == "botch":
                return f"botched by a {CLASS_LABELS[state[3]]}: -10"
            return f"hit executed: {state[1]}"
        _, deck, total = state
        left = sum(deck)
        cards = self.cards_in_job(deck)
        face = ", a face card in the job" if deck[FACE] < self.deck[FACE] else ""
        if state[0] == "ace":
            return (f"an ace drawn onto a job total of {total}: count it 1 or 11? "
                    f"({cards} cards{face}; {left} cards in the deck)")
        value = self.job_value(deck, total)
        soft = " (soft)" if self.variant.soft_aces and value != total else ""
        if not left and not self.can_execute(deck, total):
            return f"job total {value}: the deck ran out, the job counts as neither"
        can = "may execute" if self.can_execute(deck, total) else "may not execute yet"
        return f"job total {value}{soft}, {cards} cards{face}, {can}; {left} cards in the deck"

    def outcome_label(self, state: HitState, next_state: HitState) -> str:
        if next_state[0] == "end":
            return CLASS_LABELS[next_state[3]] if next_state[3] >= 0 else "execute"
        before, after = state[1], next_state[1]
        for cls in range(11):
            if after[cls] != before[cls]:
                return CLASS_LABELS[cls]
        return self.describe(next_state)


# --------------------------------------------------------------------------------------------
# Position factory


PENDING_ACE = "?"


def parse_ace_values(text: str | Iterable[int | str] | None, aces: int, soft: bool
                     ) -> tuple[int | None, ...]:
    """The value chosen for each ace drawn (``"11,1"``); default 1 each.  ``?`` as the last
    value (``"1,?"``) means the last ace's value is still to be chosen (None here)."""
    if text is None:
        return (1,) * aces
    if soft:
        raise PositionError(
            "--ace-values does not apply with soft_aces (aces count like blackjack)")
    if isinstance(text, str) and "," in text:
        tokens: list[int | str] = list(comma_list(text, "--ace-values", PositionError))
    elif isinstance(text, str):
        tokens = text.split()
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    else:
        raise PositionError(f"--ace-values {quoted(text)}: give text such as '11,1' or a list "
                            "of 1s and 11s")
    values: list[int | None] = []
    for index, token in enumerate(tokens):
        if str(token).strip() == PENDING_ACE and index == len(tokens) - 1:
            values.append(None)
            continue
        if str(token).strip() not in ("1", "11"):
            raise PositionError(f"bad ace value {quoted(str(token))}: an ace counts 1 or 11 (or ?, "
                                "for the last ace, while its value is still to be chosen)")
        values.append(int(token))
    if len(values) != aces:
        raise PositionError(
            f"--ace-values gives {len(values)} value(s) but the drawn cards hold {aces} ace(s)"
        )
    return tuple(values)


def _check_hits(variant: HitListVariant, hits: int) -> None:
    """Refuse hit counts no game reaches before a job (:class:`PositionError` with the reason).

    Without ``long_haul`` a player with 5 hits never takes another job (the 5th hit ends the
    game or starts the last round, in which only the players after them play).  (Each earlier
    hit also took at least 2 cards out of the deck; that is not required of ``removed``, because
    the solo model deliberately asks for a job with hits from a fresh deck.)
    """
    if not variant.long_haul and hits >= HITS_TO_WIN:
        raise PositionError(f"hits {hits}: a player with {HITS_TO_WIN} hits takes no more jobs "
                            "(only long_haul plays on)")


def hit_list_position(variant: HitListVariant, *, drawn: str | Iterable[Any] | None = None,
                      removed: str | Iterable[Any] | None = None,
                      ace_values: str | Iterable[int | str] | None = None,
                      hits: int | str | None = None) -> tuple[HitListTurnModel, HitState]:
    """A job in progress: ``drawn`` this job's cards in order, ``removed`` every other card out
    of the deck, ``ace_values`` the value chosen for each ace in ``drawn`` (default 1),
    ``hits`` the hits completed before this job (default 0; used by ``one_last_job``)."""
    if not isinstance(variant, HitListVariant):
        raise OptionError(f"not a Hit List variant: {type(variant).__name__}")
    drawn_cards = parse_cards(drawn)
    removed_cards = parse_cards(removed)
    full = variant.full_deck()
    full.remove([*removed_cards, *drawn_cards], what="deck")  # names a card held too few times
    deck0 = full.remove(removed_cards, what="deck")
    if hits is None:
        hits = 0
    elif isinstance(hits, str):
        hits = parse_whole_number(hits, "hits", PositionError)
    if not isinstance(hits, int) or isinstance(hits, bool) or hits < 0:
        raise PositionError(f"bad --hits {hits!r}: the hits completed must be 0 or more")
    _check_hits(variant, hits)
    aces = sum(1 for c in drawn_cards if c.rank == "A")
    chosen = parse_ace_values(ace_values, aces, variant.soft_aces)
    if chosen and chosen[-1] is None and drawn_cards[-1].rank != "A":
        raise PositionError("--ace-values ends with ? (a value still to choose) but the last "
                            "card drawn is not an ace")
    values = iter(chosen)
    opening = tuple(
        (card_class(c), next(values) if c.rank == "A" and not variant.soft_aces else
         card_value(c) if c.rank != "A" else 1)
        for c in drawn_cards
    )
    model = HitListTurnModel(variant, deck_counts(deck0), hits, opening)
    state = model.state_after(opening, names=[c.code for c in drawn_cards])
    if not model.actions(state):
        raise PositionError("the deck is empty and this job may not be executed: the game is over")
    return model, state


# --------------------------------------------------------------------------------------------
# Engine


class HitListEngine(Engine):
    """A whole game of Hit List for 1-3 players with a seeded shuffle (or a stacked ``deck``:
    the draw pile top card first, any part of the game's deck; for teaching and tests)."""

    game = GAME

    def __init__(self, variant: HitListVariant, players: int, rng: random.Random | int | None,
                 *, deck: str | Sequence[Card] | None = None) -> None:
        super().__init__(variant, players, rng)
        self.variant: HitListVariant = variant
        if not 1 <= players <= 3:
            raise RulesError(f"hit-list takes 1-3 players, not {players}")
        if variant.solo and players != 1:
            raise RulesError(f"solo (Lone Gunman) is for one player, not {players}")
        if deck is None:
            cards = list(standard_cards() * variant.decks)
            self.rng.shuffle(cards)
        else:
            cards = list(parse_cards(deck))
            variant.full_deck().remove(cards, what="deck")
        self._deck: list[Card] = cards[::-1]  # the top card is the last one (pop)
        self._player = 0
        self._job: list[Card] = []
        self._values: list[int] = []  # counted value of each job card (soft aces: 1)
        self._pending_ace = False
        self._job_deck = deck_counts(self._deck)
        self.hits = [0] * players
        self.piles: list[list[list[tuple[Card, int]]]] = [[] for _ in range(players)]
        self.stolen: list[list[tuple[Card, int]]] = [[] for _ in range(players)]
        self.botched: list[list[tuple[Card, ...]]] = [[] for _ in range(players)]
        self.bonus = [0] * players
        self.best_hit = [0] * players
        self.out = [False] * players
        self._final: set[int] | None = None
        #: The cards of a job the end of the deck cut short (neither a hit nor a botch).
        self.unfinished_job: tuple[Card, ...] = ()
        self._over = False
        self.end_reason = ""
        if not self._deck:
            self._finish("the deck is empty", [])

    # ---- read-only facts ------------------------------------------------------------------
    @property
    def deck_left(self) -> int:
        return len(self._deck)

    @property
    def job_cards(self) -> tuple[Card, ...]:
        return tuple(self._job)

    @property
    def pending_ace(self) -> bool:
        return self._pending_ace

    @property
    def last_round(self) -> bool:
        return self._final is not None

    def _hard(self) -> int:
        return sum(self._values)

    def job_value(self) -> int:
        """The job's value now (a pending ace not counted yet)."""
        values = self._values[:-1] if self._pending_ace else self._values
        total = sum(values)
        if self.variant.soft_aces:
            return soft_value(total, any(c.rank == "A" for c in self._job))
        return total

    def _can_execute(self) -> bool:
        return bool(self._job) and not self._pending_ace and may_execute(
            self.variant, self.job_value(), len(self._job), self.hits[self._player])

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self._pending_ace:
            return ACE_ACTIONS
        actions = []
        if self._deck:
            actions.append(DRAW)
        if self._can_execute():
            actions.append(STOP)
        return tuple(actions)

    def card_points(self, player: int) -> int:
        """The value of every card in the player's hit piles (stolen cards included)."""
        return (sum(v for pile in self.piles[player] for _, v in pile)
                + sum(v for _, v in self.stolen[player]))

    def scores(self) -> tuple[int, ...]:
        result = []
        for p in range(self.players):
            if self.out[p]:
                result.append(0)
                continue
            botches = len(self.botched[p])
            score = self.card_points(p) + self.bonus[p] + BOTCH_PENALTY * botches
            if self.variant.ghost and botches == 0:
                score += GHOST_BONUS
            result.append(score)
        return tuple(result)

    def tiebreak_key(self, player: int) -> tuple[int, int, int, int]:
        """Score, then fewest botched jobs, most hits, highest single hit."""
        return (self.scores()[player], -len(self.botched[player]), self.hits[player],
                self.best_hit[player])

    def winners(self) -> tuple[int, ...]:
        if not self._over:
            return ()
        alive = [p for p in range(self.players) if not self.out[p]]
        if not alive:
            return ()
        best = max(self.tiebreak_key(p) for p in alive)
        return tuple(p for p in alive if self.tiebreak_key(p) == best)

    # ---- actions --------------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        if action == DRAW:
            self._draw(out)
        elif action in ACE_VALUE:
            self._choose_ace(ACE_VALUE[action], out)
        else:
            self._execute(out)
        if not self._over:
            self._check_deck(out)
        return out

    def _draw(self, out: list[str]) -> None:
        p = self._player
        card = self._deck.pop()
        self._turned_up(card.code)
        before = list(self._job)
        self._job.append(card)
        who = f"Player {p + 1}"
        if card.is_face:
            self._values.append(0)
            if any(c.is_face for c in before):
                self._say(f"{who} draws {card.label}: a second face card, security is alerted.",
                          out)
                self._botch(out)
                return
            self._say(f"{who} draws {card.label}: a security threat (worth 0). "
                      f"Job total {self.job_value()}.", out)
            return
        if card.rank == "A":
            if self.variant.soft_aces:
                self._values.append(1)
                if self._hard() > LIMIT:
                    self._say(f"{who} draws {card.label}: the job goes over 21.", out)
                    self._botch(out)
                    return
                self._say(f"{who} draws {card.label}. Job total {self.job_value()}.", out)
                return
            self._values.append(1)
            if sum(self._values) > LIMIT:
                self._say(f"{who} draws {card.label}: even counted 1 it takes the job over 21.",
                          out)
                self._botch(out)
                return
            self._pending_ace = True
            self._say(f"{who} draws {card.label}: count it 1 or 11?", out)
            return
        value = card_value(card)
        self._values.append(value)
        total = self._hard() if self.variant.soft_aces else sum(self._values)
        if total > LIMIT:
            self._say(f"{who} draws {card.label}: the job goes to {total}, over 21.", out)
            self._botch(out)
            return
        self._say(f"{who} draws {card.label}. Job total {self.job_value()}.", out)
        if self.variant.rival_interference and any(c.rank == card.rank for c in before):
            self._steal(out)

    def _choose_ace(self, value: int, out: list[str]) -> None:
        self._pending_ace = False
        self._values[-1] = value
        who = f"Player {self._player + 1}"
        if sum(self._values) > LIMIT:
            self._say(f"{who} counts the ace {value}: the job goes to {sum(self._values)}, "
                      "over 21.", out)
            self._botch(out)
            return
        self._say(f"{who} counts the ace {value}. Job total {self.job_value()}.", out)

    def _steal(self, out: list[str]) -> None:
        p = self._player
        rivals = [q for q in range(self.players)
                  if q != p and not self.out[q] and (any(self.piles[q]) or self.stolen[q])]
        who = f"Player {p + 1}"
        if not rivals:
            self._say(f"{who} drew a pair: rival interference, but no rival has a hit to raid.",
                      out)
            return
        rival = self.rng.choice(rivals)
        spots = [(i, j) for i, pile in enumerate(self.piles[rival]) for j in range(len(pile))]
        spots += [(-1, j) for j in range(len(self.stolen[rival]))]
        i, j = self.rng.choice(spots)
        taken = self.piles[rival][i].pop(j) if i >= 0 else self.stolen[rival].pop(j)
        self.stolen[p].append(taken)
        self._say(f"{who} drew a pair: rival interference takes {taken[0].label} "
                  f"(worth {taken[1]}) from player {rival + 1}.", out)

    def _execute(self, out: list[str]) -> None:
        p = self._player
        value = self.job_value()
        result = execute_result(self.variant, value)
        gain = hit_gain(self.variant, value)
        values = list(self._values)
        if self.variant.soft_aces and value != sum(self._values):
            values[next(i for i, c in enumerate(self._job) if c.rank == "A")] = 11
        self.piles[p].append(list(zip(self._job, values, strict=True)))
        before = self.hits[p]
        self.hits[p] += gain
        if result > value:
            self.bonus[p] += result - value
        self.best_hit[p] = max(self.best_hit[p], result)
        silent = " Silent assassin: 2 hits and +15." if result > value else ""
        self._say(f"Player {p + 1} executes the hit for {value}.{silent} "
                  f"Hits: {self.hits[p]}.", out)
        self.turn_records.append(TurnRecord(p, result, False, tuple(self._job), "hit"))
        self._job, self._values = [], []  # the cards are in the hit pile now
        if before < HITS_TO_WIN <= self.hits[p] and not self.variant.long_haul:
            if self.variant.solo:
                self._finish(f"Player {p + 1} completes {HITS_TO_WIN} hits", out)
                return
            if self._final is None:
                self._final = {q for q in range(p + 1, self.players) if not self.out[q]}
                self._say(f"Player {p + 1} has {HITS_TO_WIN} hits: the last round begins.", out)
        self._next_job(out)

    def _botch(self, out: list[str]) -> None:
        p = self._player
        self._pending_ace = False
        self.botched[p].append(tuple(self._job))
        self.turn_records.append(TurnRecord(p, BOTCH_PENALTY, True, tuple(self._job), "botched"))
        self._job, self._values = [], []  # the cards are in the botched pile now
        self._say(f"Player {p + 1} botches the job (-10). Botched jobs: {len(self.botched[p])}.",
                  out)
        if (self.variant.bad_life or self.variant.solo) and len(self.botched[p]) >= BOTCHES_TO_DIE:
            self.out[p] = True
            self._say(f"Player {p + 1} has botched {BOTCHES_TO_DIE} jobs and is executed "
                      "(scores 0).", out)
            if self.variant.solo or all(self.out):
                self._finish("no assassin is left", out)
                return
        self._next_job(out)

    def _next_job(self, out: list[str]) -> None:
        p = self._player
        self._job, self._values = [], []
        if self._final is not None:
            self._final.discard(p)
            if not self._final:
                self._finish("the last round is over", out)
                return
        nxt = p
        for _ in range(self.players):
            nxt = (nxt + 1) % self.players
            if not self.out[nxt]:
                break
        self._player = nxt
        self._job_deck = deck_counts(self._deck)

    def _check_deck(self, out: list[str]) -> None:
        """The deck has run out when a card is needed and none is left."""
        if self._deck or self._pending_ace:
            return
        if self._job and self._can_execute():
            return  # executing is still legal (and the only action)
        if self._job:
            p = self._player
            self.turn_records.append(TurnRecord(p, 0, False, tuple(self._job), "deck ran out"))
            self._say(f"The deck runs out during player {p + 1}'s job: it counts as neither "
                      "a hit nor a botch.", out)
            self.unfinished_job = tuple(self._job)
            self._job, self._values = [], []
        self._finish("the deck ran out", out)

    def _finish(self, reason: str, out: list[str]) -> None:
        self._over = True
        self.end_reason = reason
        scores = self.scores()
        self._say(f"Game over ({reason}). Scores: "
                  + ", ".join(f"player {i + 1} {s}" for i, s in enumerate(scores)) + ".", out)
        winners = self.winners()
        if winners:
            self._say("Winner: " + ", ".join(f"player {w + 1}" for w in winners) + ".", out)

    # ---- table view -----------------------------------------------------------------------
    def view(self) -> TableView:
        lines: list[str] = []
        if self._job:
            lines.append(f"Job total: {self.job_value()}")
            if self._pending_ace:
                lines.append("Ace drawn: count it 1 or 11")
            elif not self._can_execute():
                if self.job_value() >= MIN_TO_EXECUTE:
                    lines.append("One last job: 3 cards needed to execute")
                else:
                    lines.append(f"Execute from {MIN_TO_EXECUTE}")
            if any(c.is_face for c in self._job):
                lines.append("A face card is in the job: a second one botches it")
        player_lines = []
        for p in range(self.players):
            row = [f"{self.hits[p]} hits", f"{len(self.botched[p])} botched",
                   f"{self.card_points(p)} in hit piles"]
            if self.stolen[p]:
                row.append(f"{len(self.stolen[p])} stolen cards")
            if self.out[p]:
                row.append("executed (out)")
            player_lines.append(tuple(row))
        if self.variant.long_haul:
            round_text = "The Long Haul: the game ends when the deck runs out"
        elif self._final is not None:
            round_text = "Last round"
        else:
            round_text = f"First to {HITS_TO_WIN} hits triggers the last round"
        finished = ""
        if self._over:
            winners = self.winners()
            names = " and ".join(f"Player {w + 1}" for w in winners) or "Nobody"
            finished = f"{names} {'wins' if len(winners) <= 1 else 'share the win'} " \
                       f"({self.end_reason})."
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_cards=tuple(self._job),
            turn_total=self.job_value(),
            turn_lines=tuple(lines),
            player_lines=tuple(player_lines),
            draw_pile=len(self._deck),
            discard_pile=None,
            round_text=round_text,
            finished_text=finished,
        )

    def action_label(self, action: str) -> str:
        return {DRAW: "Draw", STOP: "Execute the hit", ACE_ONE: "Ace = 1",
                ACE_ELEVEN: "Ace = 11"}.get(action, action)

    def position_flags(self) -> dict[str, str]:
        """The job as ``pushluck odds hit-list`` flags: ``drawn`` (this job's cards), ``removed``
        (every other card out of the deck), ``ace_values`` and ``hits`` (with ``one_last_job``).
        While the last ace's value is still to be chosen its value is ``?``."""
        flags: dict[str, str] = {}
        job = [c.code for c in self._job]
        if job:
            flags["drawn"] = " ".join(job)
        remaining = Counter(self._deck)
        remaining.update(self._job)
        out = Counter(self.variant.full_deck().cards())
        out.subtract(remaining)
        removed = sorted(out.elements())
        if removed:
            flags["removed"] = " ".join(c.code for c in removed)
        aces = [PENDING_ACE if self._pending_ace and i == len(self._job) - 1 else v
                for i, (c, v) in enumerate(zip(self._job, self._values, strict=True))
                if c.rank == "A"]
        if aces and not self.variant.soft_aces:
            flags["ace_values"] = ",".join(map(str, aces))
        if self.variant.one_last_job and self.hits[self._player]:
            flags["hits"] = str(self.hits[self._player])
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The deck, the job in progress (or the one the deck cut short), the hit piles, the
        stolen hits and the botched jobs."""
        hits = tuple(card for player in range(self.players)
                     for pile in self.piles[player] for card, _ in pile)
        stolen = tuple(card for player in range(self.players)
                       for card, _ in self.stolen[player])
        botched = tuple(card for player in range(self.players)
                        for job in self.botched[player] for card in job)
        return {"deck": tuple(self._deck), "job": self.job_cards,
                "job cut short": tuple(self.unfinished_job), "hits": hits, "stolen": stolen,
                "botched": botched}

    def turn_position(self) -> tuple[HitListTurnModel, HitState]:
        model = HitListTurnModel(self.variant, self._job_deck, self.hits[self._player])
        cards: list[tuple[int, int | None]] = [
            (card_class(c), v) for c, v in zip(self._job, self._values, strict=True)
        ]
        if self._pending_ace:
            cards[-1] = (ACE, None)
        return model, model.state_after(cards)


def _presets() -> dict[str, HitListVariant]:
    return {
        "standard": HitListVariant(),
        "recommended": HitListVariant(ghost=True),
        "high-stakes": HitListVariant(silent_assassin=True, ghost=True, rival_interference=True,
                                      one_last_job=True, bad_life=True),
        "soft-aces": HitListVariant(soft_aces=True),
        "lone-gunman": HitListVariant(solo=True),
        "long-haul": HitListVariant(long_haul=True),
    }


# --------------------------------------------------------------------------------------------
# Lone Gunman as a chain of jobs from a fresh deck (solved by solve/whole_game/solo.py)


def _solo_variant(variant: HitListVariant | None) -> HitListVariant:
    variant = variant or HitListVariant(solo=True)
    if not isinstance(variant, HitListVariant):
        raise OptionError(f"not a Hit List variant: {type(variant).__name__}")
    if variant.long_haul:
        raise RulesError("the Lone Gunman model covers Hit List without long_haul (with it the "
                         "game ends only when the deck runs out)")
    return variant if variant.solo else variant.replace(solo=True)


def _solo_advance(variant: HitListVariant, carry: tuple[int, int], result: int
                  ) -> tuple[int, tuple[int, int]]:
    """A job's result moves (hits, botches): a botch costs 10 points, a silent-assassin 21
    (21 + 15) counts two hits."""
    hits, botches = carry
    if result == BOTCH_PENALTY:
        return result, (hits, botches + 1)
    silent = variant.silent_assassin and result == LIMIT + SILENT_BONUS
    return result, (hits + (2 if silent else 1), botches)


def _solo_end_bonus(variant: HitListVariant, carry: tuple[int, int]) -> int | None:
    """Executed at the sixth botch (score 0); ``ghost``: +20 for five hits without a botch."""
    _hits, botches = carry
    if botches >= BOTCHES_TO_DIE:
        return None
    return GHOST_BONUS if variant.ghost and botches == 0 else 0


#: The carry between jobs is (hits, botches); every job raises one of them, so at most ten
#: jobs are chained.
SOLO_MODE = SoloMode(
    title="Lone Gunman",
    model=("fresh 52-card deck each job (the deck never runs out); Markov chain over "
           "(hits, botches, score)"),
    start=(0, 0),
    prepare=_solo_variant,
    turn_position=lambda variant, carry: {"hits": carry[0]},
    turn_outcome=lambda variant, model, last, terminal, action: int(model.payoff(terminal)),
    advance=_solo_advance,
    finished=lambda variant, carry: carry[0] >= HITS_TO_WIN or carry[1] >= BOTCHES_TO_DIE,
    end_bonus=_solo_end_bonus,
    can_lose=True,
)


SPEC = register(GameSpec(
    name=GAME,
    title="High-Stakes Hit List",
    variant_cls=HitListVariant,
    engine_cls=HitListEngine,
    position=hit_list_position,
    deck=lambda variant: variant.full_deck().cards(),
    position_flags=(
        DRAWN, REMOVED,
        Flag("ace_values", "value chosen for each ace drawn (11,1; ? for the last ace while its "
             "value is still to be chosen)"),
        Flag("hits", "hits completed before this job (for one_last_job)", whole_number),
    ),
    example={"drawn": "9h 6c"},
    min_players=1,
    max_players=3,
    presets=_presets(),
    blurb="Draw to a job total of 15-21 and execute; over 21 or a second face card botches it.",
    solo=SOLO_MODE,
))
