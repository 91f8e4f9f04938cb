r"""The rules of a built game: the parts (:class:`CardSet`, :class:`CountRule`), the frozen
:class:`RuleSet` that holds them, and its compiled layout (:func:`compile_rules`).

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

Card classes (:func:`compile_rules`).  Two cards are one class when they have the same value,
the same ally status, the same membership in every bust rule and, for ``per_rank`` rules, the
same rank (Captain Seven's 10 J Q K are one class).  A dice game whose turn might never end
(no bust face and no total limit) is a :class:`RulesError`.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pushluck_teach.cards import RANKS, SUITS, Card, CardError, parse_card
from pushluck_teach.games.base import OptionError, RulesError, Variant, option
from pushluck_teach.quoting import quoted

GAME = "custom"
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


def with_changes(rules: RuleSet, **changes: Any) -> RuleSet:
    """A copy with some fields changed (validated again; unknown fields are an error)."""
    names = {f.name for f in dataclasses.fields(rules)}
    for key in changes:
        if key not in names:
            raise OptionError(f"unknown rules field {quoted(key)}")
    return dataclasses.replace(rules, **changes)
