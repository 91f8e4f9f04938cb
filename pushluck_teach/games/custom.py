r"""Build your own push-your-luck game: a :class:`RuleSet` defines a game from parts.

The parts (every field of :class:`RuleSet`, all keyword-only, validated on construction):

* **the deck**: ``decks`` standard 52-card decks with ``jokers`` jokers each, without the ranks
  in ``remove_ranks``, the suits in ``remove_suits`` and the cards in ``remove_cards``; or, when
  ``dice`` is set, one die with faces ``1 .. dice`` rolled with replacement (the deck fields are
  then unused);
* **the values**: ``values`` overrides the default value of a rank (A 1, 2-10 their rank,
  J Q K 10, a joker ``JK`` 0; a die face its number);
* **bust conditions**, any combination: ``bust_counts`` (a :class:`CountRule` per kind: the
  ``n``-th card of a kind in this turn's haul busts, a kind being ranks, suits or particular
  cards (a :class:`CardSet`); ``per_rank`` counts each rank of the kind apart, so ``n=2`` is "a
  repeated rank"; ``n=1`` makes particular cards bust), ``bust_over`` (the turn total goes over
  N), ``bust_ending`` (the turn total ends in a digit);
* ``first_draw_safe`` (the first card of a turn never busts), ``bank_minimum`` (stopping needs a
  turn total at least this), ``bonus_total``/``bonus`` (banking exactly that total scores the
  bonus on top), ``allies`` (cards that go to the player's ally area instead of the haul; a
  held ally cancels one bust: the ally and the busting card are discarded and the turn goes on),
  ``allies_persist``, ``bust_penalty`` (points a bust loses, 0 or more), ``reshuffle_each_turn``
  (every turn starts from the full deck; otherwise the draw pile carries over and the turn model
  is told the cards out of it), ``target`` (the score that triggers the final round).

Every turn must draw at least once.  When the draw pile runs out during a turn the player must
stop (if the bank minimum allows; otherwise the turn ends with nothing, neither a bank nor a
bust: Hit List's deck-out rule).  *Limitation*: Lands Uncharted instead shuffles its discard pile
back in the middle of a turn; built games do not, so the two agree whenever the pile cannot run
out during the turn (19 cards or more).  Captain Seven's relics, Lands Uncharted's cursed idol
and double or nothing, Hit List's free choice of an ace's value and Incan Gold's shared path are
not parts.

Turn model (:class:`CustomTurnModel`, the same exact MDP interface as every game, solved by the
generic turn solver).  Cards fall in *classes*: two cards are one class when they have the same
value, the same ally status, the same membership in every bust rule and, for ``per_rank`` rules,
the same rank (Captain Seven's 10 J Q K are one class).  A decision state holds
``(total, started, allies, dead, progress, deck)``: the turn total, whether a card was drawn,
allies held, the number of *dead* cards left, the haul's count per counted kind (``progress``:
one entry per ``n >= 2`` rule, or per rank of a ``per_rank`` rule), and the draw pile's count
per class (empty for dice), packed in one int of bit fields (with the live cards' value sum,
a function of the pile, for the stop proof); terminal states are tuples ``(payoff, busted)``.
From the turn start the built Captain Seven visits the same 361,805 states as the
hand-written model, at about the same speed.

Dead cards (exact merging).  After the first draw (or from the start without first-draw
safety) a card is *dead* when drawing it busts now and in every later state of the turn: a card
of an ``n = 1`` rule, a card whose kind already has ``n - 1`` cards in the haul (haul counts
never fall), a card worth more than ``bust_over - total`` (values are never negative, so totals
never fall).  Dead cards all do the same thing (a bust, cancelled by an ally with no other
effect), so a state keeps only their number.  A total-ending rule never kills a card: the total
moves on.

Pruning (proved, :meth:`CustomTurnModel.stop_is_optimal`).  Let a started state with total
``t >= bank_minimum`` hold no ally and have no ally card left to draw, let ``bonus`` be zero or
``t > bonus_total``, and let the pile hold ``c`` dead cards (dice: dead faces) and live cards
worth ``pool`` in all.  One draw then changes the expected result by at most
``(pool - c·(t - b)) / n`` (``b = -bust_penalty <= 0``; a live card pays ``t + v`` or, if a total
rule busts it, ``b <= t + v``; a dead card pays ``b``).  If ``pool <= c·(t - b)`` this holds in
every state a non-busting draw leads to (``pool`` falls by at least ``v`` or stays for dice,
``c`` never falls, ``t`` grows by ``v``), stopping stays legal and no bonus can be reached, so
the result is a supermartingale under any policy and by optional stopping (the turn is finite)
stopping now is optimal.  For Captain Seven this is its own rule ``pool <= c·t``; for Pig with a
six-sided die it is "hold at 20".

Size.  :func:`estimate_states` bounds the reachable states before anything is solved (haul
multisets up to the largest total an unpruned state can hold, times the ally and dead-card
variations); :func:`check_size` raises :class:`PositionError` naming the estimate when it is
above :data:`MAX_STATES`, so a page never freezes on a game too big to solve.  With NumPy a
card game whose states fit in 62 bits is solved level by level (:class:`CustomLevelGraph`, the
same states and outcomes in the model's order: the recursion's values bit for bit).  A dice
game whose turn might never end (no bust face and no total limit) is a :class:`RulesError`.
"""

from __future__ import annotations

import dataclasses
import random
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

from pushluck_teach.cards import RANKS, SUITS, Card, CardError, Deck, parse_card, parse_cards
from pushluck_teach.games.base import (
    CARDS,
    DICE,
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
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    option,
    register,
    whole_number,
)
from pushluck_teach.quoting import quoted

GAME = "custom"
#: ``--allies N`` of a built game: N ally cards from earlier turns, out of the draw pile.
BUILT_ALLIES = Flag("allies", "allies held from earlier turns: that many ally cards sit in your "
                    "ally area, out of the draw pile (built games with ally cards)",
                    whole_number)
JOKER = "JK"
#: Built games whose estimated state count is above this are refused before solving.
MAX_STATES = 2_000_000
MAX_DICE_FACES = 30
MAX_DECKS = 4
MAX_VALUE = 100
DEFAULT_CARD_VALUES: Mapping[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10,
    "J": 10, "Q": 10, "K": 10, JOKER: 0,
}
_SUIT_ALIASES = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "spades": "s", "hearts": "h",
                 "diamonds": "d", "clubs": "c"}


# --------------------------------------------------------------------------------------------
# Parts


def _printable(text: str) -> bool:
    """No control characters (a newline, NUL...) and no lone surrogate (text that cannot be
    written as UTF-8 to a page or a terminal)."""
    return all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in text)


def _rank_token(token: Any, where: str, dice: int) -> str:
    text = str(token).strip().upper()
    if dice:
        if not text.isdigit() or not 1 <= int(text) <= dice:
            raise OptionError(f"rules field {where!r}: {quoted(token)} is not a face of the "
                              f"{dice}-sided die (1-{dice})")
        return str(int(text))
    text = "T" if text == "10" else text
    if text not in (*RANKS, JOKER):
        raise OptionError(f"rules field {where!r}: {quoted(token)} is not a rank "
                          "(A 2-9 T/10 J Q K, JK for a joker)")
    return text


def _suit_token(token: Any, where: str) -> str:
    text = str(token).strip()
    suit = _SUIT_ALIASES.get(text.lower(), _SUIT_ALIASES.get(text, text.lower()))
    if suit not in SUITS:
        raise OptionError(f"rules field {where!r}: {quoted(token)} is not a suit (s h d c)")
    return suit


def _ordered(items: Iterable[str], order: Sequence[str]) -> tuple[str, ...]:
    seen = set(items)
    return tuple(x for x in order if x in seen)


@dataclass(frozen=True, kw_only=True)
class CardSet:
    """A kind of cards: every card whose rank is in ``ranks`` and suit in ``suits`` (an empty
    list allows any; both empty: none), plus the particular ``cards`` (codes such as ``Qs``).
    ``ranks`` may name ``JK`` (jokers) or, for dice, faces ``"1"`` ... ``"N"``."""

    ranks: tuple[str, ...] = ()
    suits: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    def normalised(self, where: str, dice: int) -> CardSet:
        ranks = tuple(_rank_token(r, f"{where}.ranks", dice) for r in _as_tuple(self.ranks,
                                                                               where + ".ranks"))
        order = tuple(str(i) for i in range(1, dice + 1)) if dice else (*RANKS, JOKER)
        suits = tuple(_suit_token(s, f"{where}.suits") for s in _as_tuple(self.suits,
                                                                          where + ".suits"))
        if dice and (suits or self.cards):
            raise OptionError(f"rules field {where!r}: dice have faces only (no suits or cards)")
        cards = []
        for token in _as_tuple(self.cards, where + ".cards"):
            try:
                cards.append(parse_card(str(token)).code)
            except CardError as exc:
                raise OptionError(f"rules field {where + '.cards'!r}: {exc}") from None
        if not (ranks or suits or cards):
            raise OptionError(f"rules field {where!r}: name at least one rank, suit or card")
        return CardSet(ranks=_ordered(ranks, order), suits=_ordered(suits, SUITS),
                       cards=tuple(sorted(set(cards))))

    def holds(self, rank: str, suit: str) -> bool:
        if (rank + suit) in self.cards:
            return True
        if not (self.ranks or self.suits):
            return False
        return (not self.ranks or rank in self.ranks) and (not self.suits or suit in self.suits)


@dataclass(frozen=True, kw_only=True)
class CountRule:
    """The ``n``-th card of a kind in this turn's haul busts (``per_rank``: of one rank of the
    kind).  ``n = 1``: every card of the kind busts (a 7 in Captain Seven, a 1 in Pig)."""

    kind: CardSet
    n: int = 2
    per_rank: bool = False


def _as_tuple(value: Any, where: str) -> tuple[Any, ...]:
    if isinstance(value, str):
        return tuple(p for p in value.replace(",", " ").split() if p)
    if isinstance(value, (list, tuple)):
        return tuple(value)
    raise OptionError(f"rules field {where!r}: expected a list, not {quoted(value)}")


def _whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"rules field {where!r}: expected a whole number, not {quoted(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise OptionError(f"rules field {where!r}: {value} is out of range ({span})")
    return value


# --------------------------------------------------------------------------------------------
# The rule set


@dataclass(frozen=True, kw_only=True)
class RuleSet(Variant):
    """A push-your-luck game defined from parts (module docstring).  Frozen and hashable; every
    bad field is an :class:`OptionError` naming it."""

    game = GAME
    decks: int = option(1, "Decks", "standard 52-card decks shuffled together",
                        low=1, high=MAX_DECKS)
    jokers: int = option(0, "Jokers", "jokers per deck", low=0, high=2)
    remove_ranks: tuple[str, ...] = option((), "Ranks removed", "ranks taken out of the deck")
    remove_suits: tuple[str, ...] = option((), "Suits removed", "suits taken out of the deck")
    remove_cards: tuple[str, ...] = option((), "Cards removed", "cards taken out of the deck")
    dice: int = option(0, "Die faces", "play with a die of this many faces (0: with cards)",
                       low=0, high=MAX_DICE_FACES)
    values: tuple[tuple[str, int], ...] = option(
        (), "Values", "what a rank (or face) is worth, where it differs from the usual")
    bust_counts: tuple[CountRule, ...] = option(
        (), "Bust rules", "the n-th card of a kind in this turn's haul busts")
    bust_over: int | None = option(21, "Bust over", "a turn total over this busts (none: off)",
                                   low=0, high=10_000)
    bust_ending: int | None = option(None, "Bust ending",
                                     "a turn total ending in this digit busts (none: off)",
                                     low=0, high=9)
    first_draw_safe: bool = option(False, "First draw safe", "the first card never busts")
    bank_minimum: int = option(0, "Bank minimum", "the least turn total that may be banked",
                               low=0, high=10_000)
    bonus_total: int | None = option(21, "Bonus total",
                                     "banking exactly this total scores the bonus",
                                     low=0, high=10_000)
    bonus: int = option(0, "Bonus", "points added for banking exactly the bonus total",
                        low=0, high=1000)
    allies: CardSet | None = option(None, "Allies",
                                    "cards that cancel one bust (kept in an ally area)")
    allies_persist: bool = option(True, "Allies stay", "unused allies stay between turns")
    bust_penalty: int = option(0, "Bust penalty", "points a bust loses", low=0, high=1000)
    reshuffle_each_turn: bool = option(True, "Reshuffle", "every turn starts from the full deck")
    target: int = option(100, "Target", "the score that triggers the final round",
                         low=1, high=100_000)
    name: str = option("My game", "Name", "the game's name")

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.name, str) or not 1 <= len(self.name.strip()) <= 60:
            raise OptionError("rules field 'name': a name of 1-60 characters")
        if not _printable(self.name):
            raise OptionError(f"rules field 'name': {quoted(self.name)} holds a control "
                              "character or half a character pair (write plain text)")
        set_(self, "name", self.name.strip())
        dice = _whole(self.dice, "dice", 0, MAX_DICE_FACES)
        _whole(self.decks, "decks", 1, MAX_DECKS)
        _whole(self.jokers, "jokers", 0, 2)
        for name in ("first_draw_safe", "allies_persist", "reshuffle_each_turn"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"rules field {quoted(name)}: expected true or false, "
                                  f"not {getattr(self, name)!r}")
        set_(self, "remove_ranks", _ordered(
            (_rank_token(r, "remove_ranks", 0) for r in _as_tuple(self.remove_ranks,
                                                                  "remove_ranks")),
            (*RANKS, JOKER)))
        set_(self, "remove_suits", _ordered(
            (_suit_token(s, "remove_suits") for s in _as_tuple(self.remove_suits,
                                                              "remove_suits")), SUITS))
        removed: list[str] = []
        for token in _as_tuple(self.remove_cards, "remove_cards"):
            try:
                code = parse_card(str(token)).code
            except CardError as exc:
                raise OptionError(f"rules field 'remove_cards': {exc}") from None
            if code == JOKER:
                raise OptionError("rules field 'remove_cards': JK is not one card to remove "
                                  "(set jokers to 0, or remove the rank JK)")
            if code in removed:
                raise OptionError(f"rules field 'remove_cards': {code} named twice (name each "
                                  "card once: it leaves every deck)")
            removed.append(code)
        set_(self, "remove_cards", tuple(sorted(removed)))
        # values: a mapping or pairs; stored as the sorted pairs that differ from the default
        raw = self.values
        pairs = raw.items() if isinstance(raw, Mapping) else raw
        if not isinstance(pairs, Iterable) or isinstance(pairs, str):
            raise OptionError("rules field 'values': expected rank: value pairs, "
                              f"not {quoted(raw)}")
        values: dict[str, int] = {}
        for item in pairs:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise OptionError(f"rules field 'values': bad entry {quoted(item)}")
            rank = _rank_token(item[0], "values", dice)
            values[rank] = _whole(item[1], f"values.{rank}", 0, MAX_VALUE)
        order = self.faces if dice else (*RANKS, JOKER)
        set_(self, "values", tuple((r, values[r]) for r in order
                                   if r in values and values[r] != self._default_value(r)))
        rules = []
        for i, rule in enumerate(_as_tuple(self.bust_counts, "bust_counts")):
            if isinstance(rule, Mapping):
                rule = _count_rule_from_mapping(rule, f"bust_counts[{i}]")
            if not isinstance(rule, CountRule):
                raise OptionError(f"rules field 'bust_counts[{i}]': expected a count rule")
            if not isinstance(rule.kind, CardSet):
                raise OptionError(f"rules field 'bust_counts[{i}].kind': expected a card set")
            n = _whole(rule.n, f"bust_counts[{i}].n", 1, 20)
            if not isinstance(rule.per_rank, bool):
                raise OptionError(f"rules field 'bust_counts[{i}].per_rank': true or false")
            rules.append(CountRule(kind=rule.kind.normalised(f"bust_counts[{i}].kind", dice),
                                   n=n, per_rank=rule.per_rank))
        set_(self, "bust_counts", tuple(rules))
        if self.bust_over is not None:
            _whole(self.bust_over, "bust_over", 0, 10_000)
        if self.bust_ending is not None:
            _whole(self.bust_ending, "bust_ending", 0, 9)
        _whole(self.bank_minimum, "bank_minimum", 0, 10_000)
        if self.bonus_total is not None:
            _whole(self.bonus_total, "bonus_total", 0, 10_000)
        _whole(self.bonus, "bonus", 0, 1000)
        _whole(self.bust_penalty, "bust_penalty", 0, 1000)
        _whole(self.target, "target", 1, 100_000)
        if self.allies is not None:
            if isinstance(self.allies, Mapping):
                set_(self, "allies", _card_set_from_mapping(self.allies, "allies"))
            if not isinstance(self.allies, CardSet):
                raise OptionError("rules field 'allies': expected a card set")
            if dice:
                raise OptionError("rules field 'allies': allies need a deck of cards, not dice")
            set_(self, "allies", self.allies.normalised("allies", dice))
        layout = compile_rules(self)
        if not layout.weights or sum(layout.weights) == 0:
            raise OptionError("rules field 'remove_ranks': the deck has no cards left")
        if dice:
            _check_dice_end(self, layout)

    # ---- facts ------------------------------------------------------------------------------
    @property
    def faces(self) -> tuple[str, ...]:
        return tuple(str(i) for i in range(1, self.dice + 1))

    def _default_value(self, rank: str) -> int:
        return int(rank) if self.dice else DEFAULT_CARD_VALUES[rank]

    def value_of(self, rank: str) -> int:
        """The value of a rank (or die face)."""
        for r, v in self.values:
            if r == rank:
                return v
        return self._default_value(rank)

    def deck_cards(self) -> tuple[Card, ...]:
        """The full deck as cards (empty for dice)."""
        if self.dice:
            return ()
        cards = [Card(rank, suit) for _ in range(self.decks) for suit in SUITS for rank in RANKS
                 if rank not in self.remove_ranks and suit not in self.remove_suits
                 and rank + suit not in self.remove_cards]
        if JOKER not in self.remove_ranks:
            cards.extend(Card(JOKER) for _ in range(self.jokers * self.decks))
        return tuple(cards)

    def is_ally(self, rank: str, suit: str) -> bool:
        return self.allies is not None and self.allies.holds(rank, suit)


def _card_set_from_mapping(data: Mapping[str, Any], where: str) -> CardSet:
    unknown = set(data) - {"ranks", "suits", "cards"}
    if unknown:
        raise OptionError(f"rules field {where!r}: unknown key {sorted(unknown)[0]!r}")
    return CardSet(ranks=tuple(data.get("ranks", ())), suits=tuple(data.get("suits", ())),
                   cards=tuple(data.get("cards", ())))


def _count_rule_from_mapping(data: Mapping[str, Any], where: str) -> CountRule:
    unknown = set(data) - {"kind", "n", "per_rank"}
    if unknown:
        raise OptionError(f"rules field {where!r}: unknown key {sorted(unknown)[0]!r}")
    if "kind" not in data or not isinstance(data["kind"], Mapping):
        raise OptionError(f"rules field {where + '.kind'!r}: required, a card set")
    return CountRule(kind=_card_set_from_mapping(data["kind"], where + ".kind"),
                     n=data.get("n", 2), per_rank=data.get("per_rank", False))


# --------------------------------------------------------------------------------------------
# Compiled layout: card classes and counters


@dataclass(frozen=True)
class CardClass:
    """Cards that behave alike in every rule (module docstring)."""

    value: int
    ally: bool
    unconditional: bool
    counters: tuple[int, ...]
    ranks: tuple[str, ...]
    codes: tuple[str, ...]

    @property
    def label(self) -> str:
        names = ["10" if r == "T" else ("joker" if r == JOKER else r) for r in self.ranks]
        return "/".join(names)


@dataclass(frozen=True)
class Layout:
    """The card classes of a rule set, their full-deck counts (``weights``; faces for dice),
    and the counters of the ``n >= 2`` rules with their limits."""

    classes: tuple[CardClass, ...]
    weights: tuple[int, ...]
    limits: tuple[int, ...]
    class_of: Mapping[str, int]
    counter_labels: tuple[str, ...] = ()
    counter_kinds: tuple[bool, ...] = ()

    def class_of_card(self, code: str) -> int:
        try:
            return self.class_of[code]
        except KeyError:
            raise CardError(f"card {code} is not in this game's deck") from None


@lru_cache(maxsize=256)
def compile_rules(rules: RuleSet) -> Layout:
    """Group the deck (or the die's faces) in classes of equivalent cards."""
    items: list[tuple[str, str, str]] = []  # (rank, suit, code) with repeats
    if rules.dice:
        items = [(face, "", face) for face in rules.faces]
    else:
        items = [(c.rank, c.suit, c.code) for c in rules.deck_cards()]
    counter_keys: list[tuple[int, str]] = []
    limits: list[int] = []
    for index, rule in enumerate(rules.bust_counts):
        if rule.n < 2:
            continue
        if rule.per_rank:
            ranks = sorted({r for r, s, _ in items if rule.kind.holds(r, s)},
                           key=lambda r: (len(r), r))
            for rank in ranks:
                counter_keys.append((index, rank))
                limits.append(rule.n)
        else:
            counter_keys.append((index, ""))
            limits.append(rule.n)
    signatures: dict[tuple[Any, ...], list[Any]] = {}
    for rank, suit, code in items:
        ally = rules.is_ally(rank, suit)
        member = tuple(i for i, rule in enumerate(rules.bust_counts)
                       if not ally and rule.kind.holds(rank, suit))
        unconditional = any(rules.bust_counts[i].n == 1 for i in member)
        counters = tuple(k for k, (i, r) in enumerate(counter_keys)
                         if i in member and (not r or r == rank))
        key = (rules.value_of(rank), ally, unconditional, counters)
        entry = signatures.setdefault(key, [0, [], []])
        entry[0] += 1
        if rank not in entry[1]:
            entry[1].append(rank)
        if code not in entry[2]:
            entry[2].append(code)
    classes = []
    weights = []
    class_of: dict[str, int] = {}
    for (value, ally, unconditional, counters), (count, ranks, codes) in signatures.items():
        class_of.update({code: len(classes) for code in codes})
        classes.append(CardClass(value, ally, unconditional, counters, tuple(ranks),
                                 tuple(codes)))
        weights.append(count)
    labels = tuple(_kind_label(rules.bust_counts[i].kind) if not r else
                   ("10" if r == "T" else r) for i, r in counter_keys)
    kinds = tuple(not r for _, r in counter_keys)
    return Layout(tuple(classes), tuple(weights), tuple(limits), class_of, labels, kinds)


def _kind_label(kind: CardSet) -> str:
    parts = []
    if kind.ranks:
        parts.append("/".join("10" if r == "T" else r for r in kind.ranks))
    if kind.suits:
        parts.append("/".join(kind.suits))
    text = " of ".join(parts) if len(parts) == 2 else "".join(parts)
    return ", ".join(filter(None, [text, *kind.cards]))


def _check_dice_end(rules: RuleSet, layout: Layout) -> None:
    """A dice turn must end: a safe face must move the total or a haul count, and the total
    must be bounded (a bust face, whose prune bounds it, or ``bust_over``) unless every face is
    counted."""
    for c in layout.classes:
        if not c.unconditional and c.value == 0 and not c.counters:
            raise RulesError(f"rules field 'values': face {c.label} is worth 0 and never busts, "
                             "so a turn could roll it forever")
    if any(c.unconditional for c in layout.classes) or rules.bust_over is not None:
        return
    if all(c.counters or c.unconditional for c in layout.classes):
        return
    raise RulesError("rules field 'bust_counts': a dice turn could go on forever: make a face "
                     "bust (n = 1) or set bust_over")


# --------------------------------------------------------------------------------------------
# Turn model

#: A decision state is an int (bit fields); a terminal, the tuple (payoff, busted).
CustomState = int | tuple[int, bool]


@dataclass(frozen=True)
class CustomTurnModel(TurnModel[CustomState]):
    """One turn of a built game as an exact MDP (states and proofs: module docstring).

    A decision state is one int of bit fields, from the low bits up: started (1 bit), allies
    held, dead cards, the live cards' value sum (``pool``, a function of the pile kept for the
    stop proof), one field per counter, one per card class (cards in the pile), and the turn
    total in the high bits.  :meth:`unpack` and :meth:`pack` convert to and from
    ``(total, started, allies, dead, progress, deck)``.  Terminal states are tuples
    ``(payoff, busted)``."""

    game = GAME
    rules: RuleSet
    start_state: CustomState

    def __post_init__(self) -> None:
        layout = compile_rules(self.rules)
        rules = self.rules
        set_ = object.__setattr__
        dice = bool(rules.dice)
        classes = layout.classes
        set_(self, "_layout", layout)
        set_(self, "_dice", dice)
        set_(self, "_info", tuple((c.value, c.ally, c.unconditional, c.counters) for c in classes))
        set_(self, "_edges", tuple(limit - 1 for limit in layout.limits))
        set_(self, "_over", rules.bust_over)
        set_(self, "_ending", rules.bust_ending)
        set_(self, "_class_values", tuple(c.value for c in classes))
        set_(self, "_ally_classes", tuple(i for i, c in enumerate(classes) if c.ally))
        # classes that can die: the others never bust for good
        set_(self, "_mortal", tuple(
            i for i, c in enumerate(classes)
            if not c.ally and (c.unconditional or c.counters or rules.bust_over is not None)))
        # bit fields
        cards = 0 if dice else sum(layout.weights)
        ally_cards = 0 if dice else sum(w for w, c in zip(layout.weights, classes, strict=True)
                                        if c.ally)
        pool = 0 if dice else sum(w * c.value for w, c in zip(layout.weights, classes,
                                                                strict=True))
        shift = 1
        fields = {}
        for name, width in (("allies", ally_cards.bit_length() or 1),
                            ("dead", cards.bit_length() or 1),
                            ("pool", pool.bit_length() or 1)):
            fields[name] = (shift, (1 << width) - 1)
            shift += width
        counters = []
        for limit in layout.limits:
            counters.append((shift, (1 << limit.bit_length()) - 1))
            shift += limit.bit_length()
        deck_shift = shift
        slots = []
        for weight in ([] if dice else layout.weights):
            slots.append((shift, (1 << weight.bit_length()) - 1))
            shift += weight.bit_length()
        set_(self, "_allies", fields["allies"])
        set_(self, "_deadf", fields["dead"])
        set_(self, "_poolf", fields["pool"])
        set_(self, "_counters", tuple(counters))
        set_(self, "_slots", tuple(slots))
        set_(self, "_pile_bits", (deck_shift, (1 << (shift - deck_shift)) - 1))
        set_(self, "_tshift", shift)
        set_(self, "_steps", tuple(
            (c.value << shift) + sum(1 << counters[k][0] for k in c.counters)
            for c in classes))
        set_(self, "_units", tuple(
            ((1 << slots[i][0]) + (c.value << fields["pool"][0])) if not dice else 0
            for i, c in enumerate(classes)))

    @property
    def start(self) -> CustomState:
        return self.start_state

    # ---- packing -----------------------------------------------------------------------------
    def pack(self, total: int, started: bool, allies: int, dead: int,
             progress: Sequence[int], deck: Sequence[int]) -> int:
        """The int of a decision state."""
        state = (total << self._tshift) | int(bool(started))
        state |= allies << self._allies[0]
        state |= dead << self._deadf[0]
        pool = sum(k * v for k, v in zip(deck, self._class_values, strict=False))
        state |= pool << self._poolf[0]
        for (shift, _), count in zip(self._counters, progress, strict=True):
            state |= count << shift
        for (shift, _), count in zip(self._slots, deck, strict=True):
            state |= count << shift
        return state

    def unpack(self, state: int) -> tuple[int, bool, int, int, tuple[int, ...], tuple[int, ...]]:
        """``(total, started, allies, dead, progress, deck)`` of a decision state."""
        return (state >> self._tshift, bool(state & 1),
                (state >> self._allies[0]) & self._allies[1],
                (state >> self._deadf[0]) & self._deadf[1],
                tuple((state >> s) & m for s, m in self._counters),
                tuple((state >> s) & m for s, m in self._slots))

    # ---- rules on classes -------------------------------------------------------------------
    def _count_reached(self, counters: tuple[int, ...], state: int) -> bool:
        """Whether one of the count rules a class feeds has reached its bust count."""
        fields, edges = self._counters, self._edges
        for k in counters:
            shift, mask = fields[k]
            if (state >> shift) & mask >= edges[k]:
                return True
        return False

    def _busts(self, cls: int, state: int, total: int) -> bool:
        """Whether a non-first draw of class ``cls`` busts (before any ally)."""
        value, ally, unconditional, counters = self._info[cls]
        if ally:
            return False
        if unconditional:
            return True
        if self._count_reached(counters, state):
            return True
        new = total + value
        if self._over is not None and new > self._over:
            return True
        return self._ending is not None and new % 10 == self._ending

    def _dead(self, cls: int, state: int, total: int) -> bool:
        """Busts now and in every later state of the turn (module docstring)."""
        value, ally, unconditional, counters = self._info[cls]
        if ally:
            return False
        if unconditional:
            return True
        if self._count_reached(counters, state):
            return True
        return self._over is not None and total + value > self._over

    def normalise(self, state: int) -> int:
        """The state with every dead card of the pile merged into the dead count."""
        if self._dice or (not state & 1 and self.rules.first_draw_safe):
            return state
        total = state >> self._tshift
        dead_unit = 1 << self._deadf[0]
        pool_shift = self._poolf[0]
        for cls in self._mortal:
            shift, mask = self._slots[cls]
            count = (state >> shift) & mask
            if count and self._dead(cls, state, total):
                state += count * dead_unit - (count << shift) - (
                    count * self._class_values[cls] << pool_shift)
        return state

    def pile_size(self, state: int) -> int:
        return sum(self.unpack(state)[5]) + ((state >> self._deadf[0]) & self._deadf[1])

    def may_stop(self, state: int) -> bool:
        return bool(state & 1) and state >> self._tshift >= self.rules.bank_minimum

    # ---- the MDP ----------------------------------------------------------------------------
    def actions(self, state: CustomState) -> tuple[str, ...]:
        if type(state) is tuple:
            return ()
        stop = state & 1 and state >> self._tshift >= self.rules.bank_minimum
        if not self._dice:
            shift, mask = self._pile_bits
            if not (state >> shift) & mask and not (state >> self._deadf[0]) & self._deadf[1]:
                return (STOP,) if stop else ()
        return (DRAW, STOP) if stop else (DRAW,)

    def transitions(self, state: CustomState, action: str) -> list[tuple[int, CustomState]]:
        if type(state) is tuple:
            raise IllegalActionError("the turn is over")
        if action == STOP and self.may_stop(state):
            return [(1, (self.bank_value(state >> self._tshift), False))]
        if action == DRAW and DRAW in self.actions(state):
            return self._draw(state)
        raise IllegalActionError(f"action {action!r} is not legal in {self.describe(state)}")

    def bank_value(self, total: int) -> int:
        rules = self.rules
        return total + rules.bonus if total == rules.bonus_total else total

    def stop_payoff(self, state: CustomState) -> int | None:
        if type(state) is not tuple and state & 1:
            total = state >> self._tshift
            if total >= self.rules.bank_minimum:
                return self.bank_value(total)
        return None

    def _draw(self, state: int, only: int | None = None) -> list[tuple[int, CustomState]]:
        total = state >> self._tshift
        started = state & 1
        ally_unit = 1 << self._allies[0]
        allies = (state >> self._allies[0]) & self._allies[1]
        dead_unit = 1 << self._deadf[0]
        dead = (state >> self._deadf[0]) & self._deadf[1]
        dice = self._dice
        safe_first = not started and self.rules.first_draw_safe
        info, steps, units, slots = self._info, self._steps, self._units, self._slots
        weights = self._layout.weights
        busts = self._busts
        normalise = self.normalise
        # after the first draw only counters and the total limit can kill more cards
        check_deaths = not started or self._over is not None
        out: list[tuple[int, CustomState]] = []
        bust_weight = 0
        for cls in range(len(info)) if only is None else (only,):
            if dice:
                k = weights[cls]
                base = state
            else:
                shift, mask = slots[cls]
                k = (state >> shift) & mask
                if not k:
                    continue
                base = state - units[cls]
            _, ally, _, counters = info[cls]
            if ally:
                nxt = (base + ally_unit) | 1
                out.append((k, normalise(nxt) if not started else nxt))
                continue
            if not safe_first and busts(cls, state, total):
                if allies:
                    out.append((k, (base - ally_unit) | 1))
                else:
                    bust_weight += k
                continue
            nxt = (base + steps[cls]) | 1
            if counters or check_deaths:
                nxt = normalise(nxt)
            out.append((k, nxt))
        if dead and only is None:
            if allies:
                out.append((dead, (state - dead_unit - ally_unit) | 1))
            else:
                bust_weight += dead
        if bust_weight:
            out.append((bust_weight, (-self.rules.bust_penalty, True)))
        return out

    def payoff(self, terminal: CustomState) -> int:
        if type(terminal) is tuple:
            return terminal[0]
        return 0  # the pile ran out and the turn may not bank: nothing

    def is_bust(self, terminal: CustomState) -> bool:
        return type(terminal) is tuple and bool(terminal[1])

    def turn_total(self, state: CustomState) -> int:
        return state[0] if type(state) is tuple else state >> self._tshift

    def stop_is_optimal(self, state: CustomState) -> bool:
        """The supermartingale rule of the module docstring ("Pruning"), proved there."""
        if type(state) is tuple or not state & 1:
            return False
        total = state >> self._tshift
        rules = self.rules
        if total < rules.bank_minimum or (state >> self._allies[0]) & self._allies[1]:
            return False
        if rules.bonus and (rules.bonus_total is None or total <= rules.bonus_total):
            return False
        dead = (state >> self._deadf[0]) & self._deadf[1]
        if self._dice:
            pool = 0
            layout = self._layout
            for cls, w in enumerate(layout.weights):
                if self._dead(cls, state, total):
                    dead += w
                else:
                    pool += w * layout.classes[cls].value
        else:
            for cls in self._ally_classes:
                shift, mask = self._slots[cls]
                if (state >> shift) & mask:
                    return False
            pool = (state >> self._poolf[0]) & self._poolf[1]
        return pool <= dead * (total + rules.bust_penalty)

    def level_graph(self) -> CustomLevelGraph | None:
        """A card game's turn for the level-by-level solver (:class:`CustomLevelGraph`);
        ``None`` for dice (their turns are small) or without NumPy."""
        if self._dice:
            return None
        try:
            import numpy  # noqa: F401
        except ImportError:  # the browser build: the recursion alone
            return None
        return CustomLevelGraph(self)

    # ---- text --------------------------------------------------------------------------------
    def rule_features(self, state: CustomState) -> tuple[tuple[str, str], ...]:
        """What a readable stop rule may condition on (:mod:`pushluck_teach.solve.stop_rule`):
        the allies held, and how many cards of each counted kind (not a single rank) the haul
        holds."""
        if type(state) is tuple:
            return ()
        _, _, allies, _, progress, _ = self.unpack(state)
        features = []
        if self.rules.allies is not None:
            features.append(("allies", "no ally" if not allies else
                             f"{allies} {'ally' if allies == 1 else 'allies'}"))
        for label, count, kind in zip(self._layout.counter_labels, progress,
                                      self._layout.counter_kinds, strict=True):
            if kind:
                features.append((label, f"{count if count > 1 else 'a' if count else 'no'} "
                                        f"{label} held"))
        return tuple(features)

    def describe(self, state: CustomState) -> str:
        if type(state) is tuple:
            return f"bust: {state[0]}" if state[1] else f"banked {state[0]}"
        total, started, allies, _, progress, _ = self.unpack(state)
        text = "turn start" if not started else f"turn total {total}"
        held = [f"{label} x{count}" if count > 1 else label
                for label, count in zip(self._layout.counter_labels, progress, strict=True)
                if count]
        if held:
            text += f" (holding {', '.join(held)})"
        if allies:
            text += f", {allies} {'ally' if allies == 1 else 'allies'}"
        if not self._dice:
            text += f", {self.pile_size(state)} cards in the pile"
        if not self.actions(state):
            text += ": the pile ran out, nothing banked"
        return text

    def outcome_label(self, state: CustomState, next_state: CustomState) -> str:
        if type(next_state) is tuple:
            return "bust"
        before, after = self.unpack(state), self.unpack(next_state)
        if after[2] < before[2]:
            return "bust stopped by an ally"
        gained = after[0] - before[0]
        bumped = {k for k, (a, b) in enumerate(zip(before[4], after[4], strict=True)) if b > a}
        for cls, c in enumerate(self._layout.classes):
            if after[2] > before[2]:
                if c.ally and (self._dice or after[5][cls] < before[5][cls]):
                    return c.label
                continue
            if c.ally or c.value != gained or set(c.counters) != bumped:
                continue
            if self._dice or after[5][cls] < before[5][cls]:
                return c.label
        return self.describe(next_state)


# --------------------------------------------------------------------------------------------
# Level-by-level (NumPy) graph of a card turn (protocol: solve/levels.py)

_TERMINAL_OFFSET = 1 << 20
_CODE_LIMIT = 1 << 62  # codes stay clear of int64 overflow


class CustomLevelGraph:
    """A built card game's turn for the level-by-level solver: the decision states are the
    model's own ints (codes), terminals ``(payoff, busted)`` negative codes, and every draw of
    a batch of states is computed at once (NumPy), class by class in the model's order, then
    the dead cards, then the merged bust, so the outcomes with a weight read left to right are
    exactly :meth:`CustomTurnModel.transitions` (tested).  Level: ``4096 -`` the cards in the
    pile (every draw takes one).  A state whose turn could overflow 62 bits has no code (the
    recursion solves it)."""

    def __init__(self, model: CustomTurnModel) -> None:
        import numpy as np

        self._np = np
        self.model = model
        rules = model.rules
        self.actions = (STOP, DRAW)
        self._rules = rules
        self._slots = len(model._info) + 2
        self._pile_mask = model._pile_bits[1] << model._pile_bits[0]
        self._vmax = max(model._class_values, default=0)
        self._bust = -1 - (2 * (-rules.bust_penalty + _TERMINAL_OFFSET) + 1)

    # ---- codes -----------------------------------------------------------------------------
    def code(self, state: CustomState) -> int | None:
        if type(state) is tuple:
            return -1 - (2 * (state[0] + _TERMINAL_OFFSET) + int(bool(state[1])))
        model = self.model
        top = (state >> model._tshift) + self._vmax * (model.pile_size(state) + 1)
        if (top + 1) << model._tshift >= _CODE_LIMIT:
            return None
        return state

    def state(self, code: int) -> CustomState:
        code = int(code)
        if code < 0:
            index = -1 - code
            return ((index >> 1) - _TERMINAL_OFFSET, bool(index & 1))
        return code

    def _pile_size(self, codes: Any) -> Any:
        model = self.model
        size = (codes >> model._deadf[0]) & model._deadf[1]
        for shift, mask in model._slots:
            size = size + ((codes >> shift) & mask)
        return size

    def level(self, codes: Any) -> Any:
        return 4096 - self._pile_size(codes)

    def _no_cards(self, codes: Any) -> Any:
        model = self.model
        return ((codes & self._pile_mask) == 0) & (((codes >> model._deadf[0])
                                                    & model._deadf[1]) == 0)

    def _may_stop(self, codes: Any) -> Any:
        return ((codes & 1) == 1) & ((codes >> self.model._tshift) >= self._rules.bank_minimum)

    def is_terminal(self, codes: Any) -> Any:
        return (codes < 0) | (self._no_cards(codes) & ~self._may_stop(codes))

    def payoff(self, codes: Any) -> Any:
        np = self._np
        return np.where(codes < 0, ((-1 - codes) >> 1) - _TERMINAL_OFFSET, 0).astype(np.float64)

    def stop_value(self, codes: Any) -> Any:
        np = self._np
        rules = self._rules
        total = codes >> self.model._tshift
        bank = total + (rules.bonus if rules.bonus_total is not None else 0) * (
            total == (rules.bonus_total if rules.bonus_total is not None else -1))
        return np.where(self._may_stop(codes), bank.astype(np.float64), np.nan)

    def stop_is_optimal(self, codes: Any) -> Any:
        """:meth:`CustomTurnModel.stop_is_optimal` (cards), row by row at once."""
        model, rules = self.model, self._rules
        total = codes >> model._tshift
        ok = self._may_stop(codes) & (((codes >> model._allies[0]) & model._allies[1]) == 0)
        if rules.bonus:
            if rules.bonus_total is None:
                return ok & False
            ok &= total > rules.bonus_total
        for cls in model._ally_classes:
            shift, mask = model._slots[cls]
            ok &= ((codes >> shift) & mask) == 0
        dead = (codes >> model._deadf[0]) & model._deadf[1]
        pool = (codes >> model._poolf[0]) & model._poolf[1]
        return ok & (pool <= dead * (total + rules.bust_penalty))

    # ---- transitions -----------------------------------------------------------------------
    def _normalise(self, states: Any) -> Any:
        """:meth:`CustomTurnModel.normalise` of started states (every successor of a draw)."""
        np = self._np
        model = self.model
        total = states >> model._tshift
        reached = self._reached(states)
        dead_unit = 1 << model._deadf[0]
        pool_shift = model._poolf[0]
        for cls in model._mortal:
            value, _, unconditional, counters = model._info[cls]
            if unconditional:
                dies: Any = True
            else:
                dies = False
                for k in counters:
                    dies = dies | reached[k]
                if model._over is not None:
                    dies = dies | (total + value > model._over)
            shift, mask = model._slots[cls]
            count = (states >> shift) & mask
            move = (count > 0) & dies
            states = np.where(move, states + count * dead_unit - (count << shift)
                              - ((count * value) << pool_shift), states)
        return states

    def _reached(self, codes: Any) -> list[Any]:
        model = self.model
        return [((codes >> shift) & mask) >= edge
                for (shift, mask), edge in zip(model._counters, model._edges, strict=True)]

    def transitions(self, codes: Any, action: str) -> tuple[Any, Any, Any]:
        np = self._np
        if action != DRAW:
            raise IllegalActionError(f"action {action!r} has no level transitions")
        codes = np.asarray(codes, dtype=np.int64)
        legal = (codes >= 0) & ~self._no_cards(codes)
        weights = np.zeros((len(codes), self._slots), dtype=np.int64)
        succ = np.zeros((len(codes), self._slots), dtype=np.int64)
        rows = np.flatnonzero(legal)
        if len(rows):
            w, s = self._draw(codes[rows])
            weights[rows] = w
            succ[rows] = s
        return legal, weights, succ

    def _draw(self, codes: Any) -> tuple[Any, Any]:
        np = self._np
        model, rules = self.model, self._rules
        n_rows = len(codes)
        total = codes >> model._tshift
        started = (codes & 1) == 1
        ally_unit = 1 << model._allies[0]
        has_ally = ((codes >> model._allies[0]) & model._allies[1]) > 0
        dead_unit = 1 << model._deadf[0]
        dead = (codes >> model._deadf[0]) & model._deadf[1]
        safe_first = ~started if rules.first_draw_safe else np.zeros(n_rows, dtype=bool)
        check_deaths = ~started if model._over is None else np.ones(n_rows, dtype=bool)
        reached = self._reached(codes)
        weights = np.zeros((n_rows, self._slots), dtype=np.int64)
        succ = np.zeros((n_rows, self._slots), dtype=np.int64)
        bust_weight = np.zeros(n_rows, dtype=np.int64)
        for cls, (value, ally, unconditional, counters) in enumerate(model._info):
            shift, mask = model._slots[cls]
            k = (codes >> shift) & mask
            if not k.any():
                continue
            base = codes - model._units[cls]
            if ally:
                nxt = (base + ally_unit) | 1
                weights[:, cls] = k
                succ[:, cls] = np.where(started, nxt, self._normalise(nxt))
                continue
            if unconditional:
                busts = np.ones(n_rows, dtype=bool)
            else:
                busts = np.zeros(n_rows, dtype=bool)
                for c in counters:
                    busts |= reached[c]
                if model._over is not None:
                    busts |= total + value > model._over
                if model._ending is not None:
                    busts |= (total + value) % 10 == model._ending
            busts &= ~safe_first & (k > 0)
            nxt = (base + model._steps[cls]) | 1
            if counters:
                nxt = self._normalise(nxt)
            elif check_deaths.any():
                nxt = np.where(check_deaths, self._normalise(nxt), nxt)
            weights[:, cls] = np.where(busts & ~has_ally, 0, k)
            succ[:, cls] = np.where(busts, (base - ally_unit) | 1, nxt)
            bust_weight += np.where(busts & ~has_ally, k, 0)
        slot = len(model._info)
        stopped = (dead > 0) & has_ally
        weights[:, slot] = np.where(stopped, dead, 0)
        succ[:, slot] = (codes - dead_unit - ally_unit) | 1
        bust_weight += np.where(has_ally, 0, dead)
        weights[:, slot + 1] = bust_weight
        succ[:, slot + 1] = self._bust
        return weights, succ


# --------------------------------------------------------------------------------------------
# Positions


def start_state(rules: RuleSet, pile: Sequence[int] | None = None, allies: int = 0) -> CustomState:
    """The turn-start state with ``pile`` counts per class (default: the full deck)."""
    layout = compile_rules(rules)
    deck: tuple[int, ...] = () if rules.dice else tuple(layout.weights if pile is None else pile)
    shell = CustomTurnModel(rules, 0)
    return shell.normalise(shell.pack(0, False, allies, 0, (0,) * len(layout.limits), deck))


def custom_position(rules: RuleSet, *, drawn: Any = None, removed: Any = None,
                    allies: int | None = None, check: bool = True
                    ) -> tuple[CustomTurnModel, CustomState]:
    """The turn after ``drawn`` (this turn's cards, or die faces, in order).

    ``removed``: cards out of the draw pile before the turn (only when the deck is not
    reshuffled each turn); ``allies``: allies held from earlier turns (ally cards out of the
    pile).  A card the deck does not hold is a :class:`CardError`; a position that has already
    busted is a :class:`PositionError`; with ``check`` a game too large to solve from here is a
    :class:`PositionError` naming the estimate (:func:`check_size`)."""
    layout = compile_rules(rules)
    held = 0 if allies is None else allies
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise PositionError(f"allies must be a whole number of at least 0, not {quoted(allies)}")
    if held and rules.allies is None:
        raise PositionError("allies: this game has no ally cards")
    if held and not rules.allies_persist:
        raise PositionError(f"allies {held}: allies held from earlier turns need allies_persist "
                            "(without it unused allies are discarded when a turn ends)")
    if rules.dice:
        if removed:
            raise PositionError("removed: a die has no cards to remove")
        tokens = drawn.replace(",", " ").split() if isinstance(drawn, str) else list(drawn or ())
        faces = []
        for token in tokens:
            text = str(token).strip()
            if text not in rules.faces:
                raise PositionError(f"bad roll {quoted(text)}: a roll is a face 1-{rules.dice}")
            faces.append(layout.class_of[text])
        pile: list[int] = []
        drawn_classes = faces
        names = [str(t) for t in tokens]
    else:
        removed_cards = parse_cards(removed)
        drawn_cards = parse_cards(drawn)
        if removed_cards and rules.reshuffle_each_turn:
            raise PositionError("removed: every turn starts from the full deck in this game "
                                "(reshuffle_each_turn)")
        Deck(rules.deck_cards()).remove((*removed_cards, *drawn_cards), what="deck")
        pile = list(layout.weights)
        for card in (*removed_cards, *drawn_cards):
            pile[layout.class_of_card(card.code)] -= 1
        for card in drawn_cards:
            pile[layout.class_of[card.code]] += 1  # back: replayed below
        if held:
            ally_classes = [i for i, c in enumerate(layout.classes) if c.ally]
            left = held
            for cls in ally_classes:
                take = min(left, pile[cls] - sum(1 for c in drawn_cards
                                                 if layout.class_of[c.code] == cls))
                pile[cls] -= max(take, 0)
                left -= max(take, 0)
            if left:
                raise PositionError(f"allies {held}: not that many ally cards are left")
        drawn_classes = [layout.class_of[c.code] for c in drawn_cards]
        names = [c.code for c in drawn_cards]
    state = start_state(rules, pile, held)
    model = CustomTurnModel(rules, state)
    for i, cls in enumerate(drawn_classes):
        state = _replay(model, state, cls, names[i], names[:i])
    model = CustomTurnModel(rules, state)
    if not model.actions(state):
        raise PositionError("the pile is empty and the turn may not bank: the turn is over")
    if check:
        check_size(model)
    return model, state


def _replay(model: CustomTurnModel, state: CustomState, cls: int, name: str,
            before: Sequence[str]) -> CustomState:
    _, _, _, dead, _, deck = model.unpack(state)
    if deck and not deck[cls]:
        if not dead:
            raise PositionError(f"card {name} is not left in the draw pile")
        outcomes = [(w, s) for w, s in model._draw(state)
                    if type(s) is tuple or model.unpack(s)[3] < dead]
    else:
        outcomes = model._draw(state, only=cls)
    if not outcomes or type(outcomes[0][1]) is tuple:
        shown = " ".join(before) or "nothing"
        raise PositionError(f"{name} busts the turn after {shown}: the position is already over")
    return outcomes[0][1]


# --------------------------------------------------------------------------------------------
# Size estimate


def estimate_states(model: CustomTurnModel, state: CustomState | None = None) -> int:
    """An upper bound on the states the solver can visit from ``state`` (module docstring)."""
    state = model.start if state is None else state
    rules = model.rules
    layout = compile_rules(rules)
    total0, _, allies0, dead0, progress, deck = model.unpack(state)
    values = [c.value for c in layout.classes]
    vmax = max(values, default=0)
    weights = layout.weights if rules.dice else deck
    ally_cards = 0 if rules.dice else sum(k for k, c in zip(deck, layout.classes, strict=True)
                                          if c.ally)
    live_pool = sum(k * c.value for k, c in zip(weights, layout.classes, strict=True)
                    if not c.unconditional and not c.ally)
    catchers = dead0 + sum(k for k, c in zip(weights, layout.classes, strict=True)
                           if c.unconditional)
    caps = [rules.bust_over] if rules.bust_over is not None else []
    if catchers and not (allies0 or ally_cards):
        prune = max(live_pool // catchers - rules.bust_penalty + 1, rules.bank_minimum,
                    (rules.bonus_total or 0) + 1 if rules.bonus else 0)
        caps.append(max(prune, total0) + vmax)
    if rules.dice:
        top = sum((lim - 1) * vmax for lim in layout.limits) + total0 if not caps else min(caps)
        combos = 1
        for lim in layout.limits:
            combos *= lim
        return (max(top - total0, 0) + 2) * combos
    top = min(caps) if caps else total0 + live_pool
    budget = max(top - total0, 0)
    # multisets of the pile's non-ally classes drawn with value sum <= budget
    counts = [0] * (budget + 1)
    counts[0] = 1
    for cls, k in enumerate(deck):
        c = layout.classes[cls]
        if c.ally or c.unconditional or not k:
            continue
        cap = k
        for counter in c.counters:
            cap = min(cap, layout.limits[counter] - 1 - progress[counter])
        new = [0] * (budget + 1)
        for s, ways in enumerate(counts):
            if not ways:
                continue
            for j in range(cap + 1):
                t = s + j * c.value
                if t > budget:
                    break
                new[t] += ways
        counts = new
    hauls = sum(counts)
    if allies0 or ally_cards:
        classes = len(deck) + 1
        spare = allies0 + ally_cards
        if rules.bust_ending is None:  # every bust is a dead card: only the dead count moves
            hauls *= (ally_cards + 1) * (spare + 1)
        else:  # a cancelled card may be of any class
            hauls *= (ally_cards + 1) * sum(comb(classes + j - 1, j) for j in range(spare + 1))
    return 2 * hauls + 2


def check_size(model: CustomTurnModel, state: CustomState | None = None,
               limit: int = MAX_STATES) -> int:
    """The estimate of :func:`estimate_states`; a :class:`PositionError` naming it when above
    ``limit``."""
    estimate = estimate_states(model, state)
    if estimate > limit:
        raise PositionError(
            f"this game is too large to solve on the page: about {estimate:,} states from here "
            f"(the limit is {limit:,}); draw some cards first, or make busts likelier"
        )
    return estimate


# --------------------------------------------------------------------------------------------
# Engine


class CustomEngine(Engine):
    """A whole built game for 1-6 players with a real shuffled deck or a die.

    A turn follows the rule set card by card (independently of the turn model's classes).  A
    score of ``target`` or more on banking triggers the final round (every player below the
    target gets one more turn); the highest score wins and equal scores share the win."""

    game = GAME

    def __init__(self, variant: RuleSet, players: int, rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        if not 1 <= players <= 6:
            raise RulesError(f"custom games take 1-6 players, not {players}")
        self.rules: RuleSet = variant
        self._scores = [0] * players
        self._allies: list[list[Card]] = [[] for _ in range(players)]
        self._player = 0
        self._over = False
        self._final: list[int] | None = None
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        if not variant.dice and not variant.reshuffle_each_turn:
            self.pile = list(variant.deck_cards())
            self.rng.shuffle(self.pile)
        self._begin_turn()

    # ---- turn ------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        rules = self.rules
        self.haul: list[Any] = []  # cards (or die faces) in the haul, in order
        self.cancelled: list[Any] = []
        self.ally_drawn: list[Card] = []
        self.total = 0
        self.started = False
        if rules.dice:
            self.turn_pile: tuple[Card, ...] = ()
            return
        if rules.reshuffle_each_turn:
            held = [c for allies in self._allies for c in allies]
            pile = list(rules.deck_cards())
            for card in held:
                pile.remove(card)
            self.pile, self.discard = pile, []
            self.rng.shuffle(self.pile)
        elif not self.pile:
            self.pile, self.discard = self.discard, []
            self.rng.shuffle(self.pile)
        self.turn_pile = tuple(self.pile)
        self.turn_allies = tuple(self._allies[self._player])  # held when the turn began
        self.allies_at_start = len(self.turn_allies)

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        stop = self.started and self.total >= self.rules.bank_minimum
        if not self.rules.dice and not self.pile:
            return (STOP,) if stop else ()
        return (DRAW, STOP) if stop else (DRAW,)

    def _card_busts(self, rank: str, suit: str, value: int) -> str:
        """Why drawing this card busts now (empty: it does not)."""
        rules = self.rules
        if not self.started and rules.first_draw_safe:
            return ""
        kept = [(c.rank, c.suit) if isinstance(c, Card) else (str(c), "") for c in self.haul]
        for rule in rules.bust_counts:
            if not rule.kind.holds(rank, suit):
                continue
            same = [x for x in kept if rule.kind.holds(*x)
                    and (not rule.per_rank or x[0] == rank)]
            if len(same) + 1 >= rule.n:
                return "a bust card" if rule.n == 1 else f"card number {rule.n} of its kind"
        new = self.total + value
        if rules.bust_over is not None and new > rules.bust_over:
            return f"the total {new} goes over {rules.bust_over}"
        if rules.bust_ending is not None and new % 10 == rules.bust_ending:
            return f"the total {new} ends in {rules.bust_ending}"
        return ""

    def act(self, action: str) -> list[str]:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{action!r} is not legal now (legal: {', '.join(legal) or 'none'})")
        out: list[str] = []
        me = f"Player {self._player + 1}"
        rules = self.rules
        if action == STOP:
            banked = self.total + (rules.bonus if self.total == rules.bonus_total else 0)
            self._scores[self._player] += banked
            self._say(f"{me} banks {banked}: score {self._scores[self._player]}.", out)
            self._end_turn(banked, False, out)
            return out
        if rules.dice:
            face = str(self.rng.randint(1, rules.dice))
            self._turned_up(face)
            rank, suit, item, label = face, "", face, f"rolls {face}"
        else:
            card = self.pile.pop()
            self._turned_up(card.code)
            rank, suit, item, label = card.rank, card.suit, card, f"draws {card.label}"
        value = rules.value_of(rank)
        if rules.is_ally(rank, suit):
            self._allies[self._player].append(item)
            self.ally_drawn.append(item)
            self.started = True
            self._say(f"{me} {label}: an ally.", out)
            return self._pile_out(out)
        why = self._card_busts(rank, suit, value)
        if why:
            if self._allies[self._player]:
                ally = self._allies[self._player].pop()
                self.cancelled.append(item)
                self.discard.extend([ally, item])
                self.started = True
                self._say(f"{me} {label}: {why}, but an ally cancels the bust.", out)
                return self._pile_out(out)
            self._say(f"{me} {label}: {why}, bust!", out)
            self.haul.append(item)
            self._scores[self._player] -= rules.bust_penalty
            self._end_turn(-rules.bust_penalty, True, out)
            return out
        self.haul.append(item)
        self.total += value
        self.started = True
        self._say(f"{me} {label}: turn total {self.total}.", out)
        return self._pile_out(out)

    def _pile_out(self, out: list[str]) -> list[str]:
        """The pile ran out and the turn may not bank: it ends with nothing."""
        if not self.rules.dice and not self.pile and not self.legal_actions():
            self._say(f"Player {self._player + 1}: the pile ran out, the turn ends with "
                      "nothing.", out)
            self._end_turn(0, False, out)
        return out

    def _end_turn(self, result: int, busted: bool, out: list[str]) -> None:
        player = self._player
        cards = tuple(c for c in (*self.haul, *self.cancelled) if isinstance(c, Card))
        self.turn_records.append(TurnRecord(player, result, busted, cards,
                                            note=" ".join(str(c) for c in self.haul)))
        if not self.rules.dice:
            self.discard.extend(c for c in self.haul if isinstance(c, Card))
            if not self.rules.allies_persist:
                self.discard.extend(self._allies[player])
                self._allies[player] = []
        target = self.rules.target
        if self._final is None and self._scores[player] >= target:
            order = [(player + k) % self.players for k in range(1, self.players)]
            self._final = [p for p in order if self._scores[p] < target]
            self._say(f"Player {player + 1} reaches {target}: final round.", out)
        elif self._final is not None and self._final and self._final[0] == player:
            self._final.pop(0)
        if self._final is not None and not self._final:
            self._over = True
            names = " and ".join(f"Player {w + 1}" for w in self.winners())
            self._say(f"{names} {'share the win' if len(self.winners()) > 1 else 'wins'}.", out)
            return
        self._player = self._final[0] if self._final else (player + 1) % self.players
        self._begin_turn()

    # ---- accessors ---------------------------------------------------------------------------
    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The draw pile, this turn's haul, every player's allies and the discard pile (a dice
        game has no cards)."""
        if self.rules.dice:
            return {}
        return {"draw pile": tuple(self.pile),
                # the last turn's haul went to the discard pile when the game ended
                "haul": () if self._over else tuple(c for c in self.haul if isinstance(c, Card)),
                "allies": tuple(c for allies in self._allies for c in allies),
                "discard pile": tuple(self.discard)}

    def turn_position(self) -> tuple[CustomTurnModel, CustomState]:
        """The mover's turn: the pile at the turn start, the allies held then, this turn's
        draws replayed in order.  The model is the turn's (its ``start`` is the turn start), so
        every decision of a turn shares one model and one cached solver."""
        rules = self.rules
        layout = compile_rules(rules)
        allies0 = 0 if rules.dice else self.allies_at_start
        if rules.dice:
            pile: list[int] = []
        else:
            pile = [0] * len(layout.classes)
            for card in self.turn_pile:
                pile[layout.class_of[card.code]] += 1
        state = start_state(rules, pile, allies0)
        model = CustomTurnModel(rules, state)
        for item in self._draw_order():
            state = _replay(model, state, layout.class_of[str(item)], str(item), ())
        return model, state

    def _draw_order(self) -> list[Any]:
        return list(self._drawn)

    @property
    def _drawn(self) -> list[Any]:
        pile = self.turn_pile
        if self.rules.dice:
            return list(self.haul)
        taken = len(pile) - len(self.pile)
        return list(reversed(pile[len(pile) - taken:]))

    def view(self) -> TableView:
        rules = self.rules
        lines = tuple((f"score {s}",) + ((f"{len(a)} allies",) if rules.allies else ())
                      for s, a in zip(self._scores, self._allies, strict=True))
        finished = ""
        if self._over:
            finished = ", ".join(f"Player {w + 1}" for w in self.winners()) + " won."
        return TableView(
            scores=self.scores(), current_player=self._player,
            turn_cards=tuple(c for c in self.haul if isinstance(c, Card)),
            turn_dice=tuple(int(c) for c in self.haul) if rules.dice else (),
            turn_total=self.total,
            turn_lines=(f"This turn: {' '.join(str(c) for c in self.haul) or 'nothing yet'}",),
            player_lines=lines,
            draw_pile=None if rules.dice else len(self.pile),
            discard_pile=None if rules.dice else len(self.discard),
            round_text=f"First to {rules.target} triggers the final round",
            finished_text=finished,
        )

    def position_flags(self) -> dict[str, str]:
        flags: dict[str, str] = {}
        drawn = self._drawn
        if drawn:
            flags["drawn"] = " ".join(str(c) for c in drawn)
        if not self.rules.dice and not self.rules.reshuffle_each_turn:
            full = list(self.rules.deck_cards())
            for card in self.turn_pile:
                full.remove(card)
            held = list(self.turn_allies)
            for card in held:
                full.remove(card)
            if full:
                flags["removed"] = " ".join(c.code for c in full)
            if held:
                flags["allies"] = str(len(held))
        elif self.rules.allies and self.allies_at_start:
            flags["allies"] = str(self.allies_at_start)
        return flags


# --------------------------------------------------------------------------------------------
# The four games of the repository, built from parts (their turn rules)

FACES = CardSet(ranks=("J", "Q", "K"))

CAPTAIN_SEVEN_RULES = RuleSet(
    name="Captain Seven (built)", jokers=2, bust_over=None,
    bust_counts=(CountRule(kind=CardSet(ranks=("7", JOKER)), n=1),),
    bust_ending=7, first_draw_safe=True, reshuffle_each_turn=True,
)
LANDS_UNCHARTED_RULES = RuleSet(
    name="Lands Uncharted (built)", bust_over=None,
    values=(("A", 0), ("J", 0), ("Q", 0), ("K", 0)),
    bust_counts=(CountRule(kind=FACES, n=2),
                 CountRule(kind=CardSet(ranks=("2", "3", "4", "5", "6", "7", "8", "9", "T")),
                           n=2, per_rank=True)),
    allies=CardSet(ranks=("A",)), allies_persist=True, reshuffle_each_turn=False,
)
HIT_LIST_RULES = RuleSet(
    name="Hit List, aces 1 (built)",
    values=(("J", 0), ("Q", 0), ("K", 0)),
    bust_counts=(CountRule(kind=FACES, n=2),), bust_over=21, bank_minimum=15,
    bust_penalty=10, reshuffle_each_turn=False,
)
PIG_RULES = RuleSet(
    name="Pig (built)", dice=6, bust_over=None,
    bust_counts=(CountRule(kind=CardSet(ranks=("1",)), n=1),),
)
BUILT_GAMES: Mapping[str, RuleSet] = {
    "captain-seven": CAPTAIN_SEVEN_RULES,
    "lands-uncharted": LANDS_UNCHARTED_RULES,
    "hit-list": HIT_LIST_RULES,
    "pig": PIG_RULES,
}


def _deck(rules: RuleSet) -> tuple[Card, ...] | None:
    return None if rules.dice else rules.deck_cards()


def _draws(rules: RuleSet) -> str:
    return DICE if rules.dice else CARDS


def rule_set_from_text(text: str) -> RuleSet:
    """A built game's rule set from a rule file's JSON text (``pushluck ... --rules FILE``)."""
    from pushluck_teach.games.rules_format import rules_from_json  # it imports this module

    rules = rules_from_json(text)
    if not isinstance(rules, RuleSet):
        game = type(rules).game
        raise RulesError(f"this rule file is a variant of {game}: use it with the game {game}")
    return rules


SPEC = register(GameSpec(
    name=GAME,
    title="Build your own",
    variant_cls=RuleSet,
    engine_cls=CustomEngine,
    position=custom_position,
    min_players=1,
    max_players=6,
    presets=dict(BUILT_GAMES),
    blurb="A push-your-luck game built from parts: deck or die, values, bust rules, allies.",
    deck=_deck,
    draws=_draws,
    position_flags=(DRAWN, REMOVED, BUILT_ALLIES),
    example={"drawn": "Kh 5d"},
    variant_from_text=rule_set_from_text,
    sweep="bank_minimum",
    lab=("build",),
))


def with_changes(rules: RuleSet, **changes: Any) -> RuleSet:
    """A copy with some fields changed (validated again; unknown fields are an error)."""
    names = {f.name for f in dataclasses.fields(rules)}
    for key in changes:
        if key not in names:
            raise OptionError(f"unknown rules field {quoted(key)}")
    return dataclasses.replace(rules, **changes)


__all__ = [
    "BUILT_GAMES", "CAPTAIN_SEVEN_RULES", "HIT_LIST_RULES", "LANDS_UNCHARTED_RULES", "MAX_STATES",
    "PIG_RULES", "SPEC", "CardClass", "CardSet", "CountRule", "CustomEngine", "CustomTurnModel",
    "Layout", "RuleSet", "check_size", "compile_rules", "custom_position", "estimate_states",
    "start_state", "with_changes",
]
