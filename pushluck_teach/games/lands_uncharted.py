r"""Lands Uncharted (seed 000, first half; docs/rules.md, "Lands Uncharted").

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

Turn objective.  The change of the player's score this turn: the treasure banked (+5 buried
treasure bonus at exactly 21), 0 on a bust, and on a declared double-or-nothing turn the bank
``target - score`` or, on a bust, ``max(0, target - 20) - score`` (negative).  On an ordinary
turn this is exactly docs/rules.md's "treasure banked this turn".  When double or nothing is on
and the player is eligible, the turn model offers ``declare`` at the turn start, so the solver
compares the two kinds of turn by the same objective.

Turn model (an exact finite MDP).  Suits matter only for the cursed queens, so cards fall in
*classes*: 0 = ace, 1..9 = the number ranks 2..10 (class ``c`` is rank ``c + 1``), 10 = plain
threats (J, K and queens not in use), 11..14 = the cursed Q♠, Q♣, Q♥, Q♦.  A decision state is
the tuple ``(pile, mask, threat, allies, phase, declared)``:

* ``pile``: the draw pile as counts per class, 4 bits per class packed in one int, plus the
  count of dead cards (below);
* ``mask``: bit ``c`` set when rank ``c + 1`` lies in the haul (the turn total is a table look-up);
* ``threat``: 0 for none, else the class of the haul's threat (``THREAT`` once merged);
* ``allies``: allies held; ``phase``: turn start, free choice, Q♥ two/one forced draws left, Q♦
  forced; ``declared``: a double-or-nothing turn.

Terminal states are ``(payoff, busted)``.  Drawing from state ``s`` gives one outcome per class
with weight = its count in the pile; busts without an ally are merged into one terminal.  If the
pile is empty, the new pile is the discard pile, which is derived rather than stored: every card
not in the pile, the haul, the player's allies or other players' ally areas
(``aces_elsewhere``).  A position built from ``--removed`` treats every removed card as the
discard pile except ``--allies-elsewhere N`` of its aces, other players' allies, which are never
reshuffled (the engine's flags say how many).  Allies held from earlier turns (``--allies N``)
are N aces out of the draw pile besides ``--removed``.

Dead cards (exact state merging).  A card of the draw pile is *dead* when drawing it can only
bust: a copy of a rank in the haul, or any threat once the haul holds one.  For the rest of the
turn every dead card has the same effect (a bust, stopped by an ally if one is held, with no
other effect: a cursed queen busting as a second threat does nothing), so the state keeps only
their number, in an 8-bit field above the class fields, and the rank fields of haul ranks and
the threat fields are then zero.  Two exceptions keep a haul rank's own count, because its
identity can still matter: with Q♦ in use, the 9s and 10s while no threat is held or while Q♦
forces (a 9 or 10 ends the forced draws, even a busting one); with Q♠ in use and no threat held,
the highest rank of the haul (a Q♠ would give it back).  The threat field then only says whether
a threat is held.  A reshuffle needs the discard pile's composition, which never depends on the
merged details: it is the full deck minus the haul, the allies and the (empty) pile.  Merged
and raw models (``symmetric=False``) give identical exact answers (tested); from a full deck the
default turn has 15,395 states instead of 257,152 (all options on: about 162,000; the Q♠'s
returned rank, with its own value and count, is what multiplies them).

Pruning.  One proved rule (:meth:`LandsUnchartedTurnModel.stop_is_optimal`): on a declared
double-or-nothing turn with score + haul exactly ``target``, stopping banks ``target - score``
and no terminal of the turn pays more (a bank is always exactly ``target - score``, a bust pays
less), so stopping is optimal.  Nothing else is pruned: measured with the solved values, even an
oracle that knew every state where stopping is optimal would skip under 2% of the states of a
default turn, because with an ally held drawing stays optimal up to turn totals of 52.

Speed.  The draw reads the kept and dead haul ranks from a table and banking's payoff
from another (:meth:`LandsUnchartedTurnModel.stop_payoff`); with NumPy the solver takes a large
position level by level (:class:`LandsUnchartedLevelGraph`: the same merged states as int64
codes, every draw of a level at once, outcomes in the model's order, so the float values are
those of the recursion bit for bit).  The hardest positions are turn starts where double or
nothing may be declared: the turn then holds both kinds of turn (every option, score 90:
about 276,000 states).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pushluck_teach.cards import Card, CardError, Deck, parse_cards, standard_cards
from pushluck_teach.games.base import (
    ALLIES,
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

TOTAL = tuple(sum(c + 1 for c in NUMBER_CLASSES if m >> c & 1) for m in range(1 << 10))
HAUL_BITS = tuple(sum(1 << (4 * c) for c in NUMBER_CLASSES if m >> c & 1) for m in range(1 << 10))
# Merged states count the dead cards of the draw pile (module docstring) in an 8-bit field
# above the 15 class fields.
DEAD_SHIFT = 4 * N_CLASSES
DEAD = 1 << DEAD_SHIFT
THREAT_CLASSES = (THREAT, CURSED_SPADES, CURSED_CLUBS, CURSED_HEARTS, CURSED_DIAMONDS)
NINE_TEN = (1 << 8) | (1 << 9)
THREAT_FIELDS = sum(15 << (4 * c) for c in THREAT_CLASSES)

LUState = tuple[int, ...]


def _count(pile: int, cls: int) -> int:
    return (pile >> (4 * cls)) & 15


def _next_phase(phase: int, cls: int) -> int:
    """The phase after drawing a card of class ``cls`` (before the card's own effect)."""
    if phase == HEART2:
        return HEART1
    if phase == DIAMOND:
        return FREE if cls in (8, 9) else DIAMOND
    return FREE


_NEXT_PHASE = tuple(tuple(_next_phase(p, c) for c in range(N_CLASSES)) for p in range(5))


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


def pack_counts(cards: Iterable[Card], cursed_suits: Iterable[str] = ()) -> int:
    """Cards as counts per class, 4 bits per class."""
    suits = tuple(cursed_suits)
    packed = 0
    for card in cards:
        packed += 1 << (4 * card_class(card, suits))
    return packed


def _kept_ranks(mask: int, threat: bool, phase: int, spades: bool, diamonds: bool) -> int:
    """The haul ranks whose pile copies keep their own counts in a merged state (module
    docstring, "Dead cards"): with Q♦ in use the 9s and 10s while no threat is held or while
    Q♦ forces; with Q♠ in use and no threat held, the highest rank of the haul."""
    kept = 0
    if diamonds and (not threat or phase == DIAMOND):
        kept = mask & NINE_TEN  # a 9 or 10 ends (or would end) the Q♦ draws
    if spades and not threat and mask:
        kept |= 1 << (mask.bit_length() - 1)  # a Q♠ would give this rank back
    return kept


@functools.cache
def _dying_table(symmetric: bool, spades: bool, diamonds: bool) -> tuple[int, ...] | None:
    """For the draw's look-ups: at index ``(phase * 2 + threat held) << 10 | mask`` the haul
    ranks of ``mask`` that are dead (not kept) in that phase, i.e. ``mask & ~kept``; ``None``
    when no rank is ever kept (a raw model, or neither Q♠ nor Q♦ in use).  A rank that dies
    on a step is one dead after it and not before (both looked up here)."""
    if not symmetric or not (spades or diamonds):
        return None
    return tuple(
        mask & ~_kept_ranks(mask, bool(held), phase, spades, diamonds)
        for phase in range(5) for held in (0, 1) for mask in range(1 << 10)
    )


@functools.cache
def _full_deck_counts(cursed_suits: tuple[str, ...]) -> int:
    """:func:`pack_counts` of the whole deck (a model is built at every turn of a game)."""
    return pack_counts(standard_cards(), cursed_suits)


@functools.cache
def _bank_table(bonus: int) -> tuple[int, ...]:
    """What leaving banks, by haul total index: ``TOTAL`` with the buried-treasure bonus."""
    return tuple(total + bonus if total == BURIED_TOTAL else total for total in TOTAL)


# --------------------------------------------------------------------------------------------
# Turn model


@dataclass(frozen=True)
class LandsUnchartedTurnModel(TurnModel[LUState]):
    """One turn of Lands Uncharted as an exact MDP (states and proofs: module docstring).

    ``start_state`` is the position the model was built for; ``aces_elsewhere`` counts aces in
    other players' ally areas (never reshuffled); ``score`` is the player's score when double or
    nothing may be or has been declared this turn, else ``None``.  ``symmetric=False`` keeps
    every state raw (per-rank counts, queens unfolded): the same MDP with more states, used to
    replay positions and to test the merging.
    """

    game = GAME
    variant: LandsUnchartedVariant
    start_state: LUState
    aces_elsewhere: int = 0
    score: int | None = None
    symmetric: bool = True

    def __post_init__(self) -> None:
        suits = self.variant.cursed_suits
        full = _full_deck_counts(tuple(suits))
        object.__setattr__(self, "_full", full)
        object.__setattr__(self, "_classes", tuple(c for c in range(N_CLASSES) if _count(full, c)))
        object.__setattr__(self, "_spades_active", "s" in suits)
        object.__setattr__(self, "_clubs", CURSED_CLUBS if "c" in suits else -1)
        object.__setattr__(self, "_diamonds", "d" in suits)
        # without Q♠ and Q♦ no haul rank ever keeps its own count
        object.__setattr__(self, "_keeps_ranks", self.symmetric and bool({"s", "d"} & set(suits)))
        can_declare = self.score is not None and self.variant.may_declare(self.score)
        object.__setattr__(self, "_can_declare", can_declare)
        limit = None
        if self.score is not None:
            limit = self.variant.target - self.score
        object.__setattr__(self, "_limit", limit)
        bonus = BURIED_BONUS if self.variant.buried_treasure else 0
        object.__setattr__(self, "_bonus", bonus)
        # Look-up tables of the hot draw: shared by every model of the same rules.
        object.__setattr__(self, "_dying_after", _dying_table(
            self.symmetric, "s" in suits, "d" in suits))
        object.__setattr__(self, "_bank", _bank_table(bonus))

    @classmethod
    def build(cls, variant: LandsUnchartedVariant, raw_state: LUState, *,
              aces_elsewhere: int = 0, score: int | None = None,
              symmetric: bool = True) -> tuple[LandsUnchartedTurnModel, LUState]:
        """The model of a raw position (per-class pile, the threat's own class) and its state."""
        shell = cls(variant, raw_state, aces_elsewhere, score, symmetric)
        state = shell.make_state(*raw_state[:5], bool(raw_state[5]))
        return cls(variant, state, aces_elsewhere, score, symmetric), state

    # ---- states ----------------------------------------------------------------------------
    @property
    def start(self) -> LUState:
        return self.start_state

    def _kept(self, mask: int, threat: int, phase: int) -> int:
        """The haul ranks whose pile copies keep their own counts (module docstring)."""
        if not self.symmetric:
            return mask
        return _kept_ranks(mask, bool(threat), phase, self._spades_active, self._diamonds)

    @staticmethod
    def _kill(pile: int, ranks: int, threats: bool) -> int:
        """Move the pile's copies of ``ranks`` (and of the threats) to the dead count."""
        while ranks:
            cls = ranks.bit_length() - 1
            ranks &= ~(1 << cls)
            n = (pile >> (4 * cls)) & 15
            pile += n * DEAD - (n << (4 * cls))
        if threats:
            for cls in THREAT_CLASSES:
                n = (pile >> (4 * cls)) & 15
                pile += n * DEAD - (n << (4 * cls))
        return pile

    def make_state(self, pile: int, mask: int = 0, threat: int = 0, allies: int = 0,
                   phase: int = START, declared: bool = False) -> LUState:
        """A decision state from a raw one (per-class pile counts, the threat's own class)."""
        if self.symmetric:
            pile = self._kill(pile, mask & ~self._kept(mask, threat, phase), bool(threat))
            threat = THREAT if threat else 0
        return (pile, mask, threat, allies, phase, int(declared))

    @staticmethod
    def pile_size(pile: int) -> int:
        """The number of cards in a (packed) draw pile."""
        return sum(_count(pile, c) for c in range(N_CLASSES)) + (pile >> DEAD_SHIFT)

    def discard_pile(self, state: LUState) -> int:
        """The discard pile implied by a state with an empty draw pile (module docstring)."""
        mask, threat, allies = state[1], state[2], state[3]
        discard = self._full - HAUL_BITS[mask] - allies - self.aces_elsewhere
        if threat:  # merged: the threat's own class is unknown but all threats are dead alike
            discard -= 1 << (4 * threat)
        if self.symmetric:
            discard = self._kill(discard, mask & ~self._kept(mask, threat, state[4]),
                                 bool(threat))
        return discard

    def bank_value(self, total: int) -> int:
        return total + self._bonus if total == BURIED_TOTAL else total

    def bust_payoff(self, declared: int) -> int:
        if declared and self.score is not None:
            return self.variant.double_or_nothing_reset - self.score
        return 0

    # ---- the MDP ---------------------------------------------------------------------------
    def actions(self, state: LUState) -> tuple[str, ...]:
        if len(state) == 2:
            return ()
        phase = state[4]
        if phase == START:
            if self._can_declare and not state[5]:
                return (DRAW, DECLARE)
            return (DRAW,)
        if phase != FREE:
            return (DRAW,)
        if state[5] and self._limit is not None and TOTAL[state[1]] != self._limit:
            return (DRAW,)
        return (DRAW, STOP)

    def transitions(self, state: LUState, action: str) -> list[tuple[int, LUState]]:
        if action == DRAW and len(state) == 6:
            return self._draw(state)
        if action == STOP and len(state) == 6 and STOP in self.actions(state):
            return [(1, (self._bank[state[1]], False))]
        if action == DECLARE and DECLARE in self.actions(state):
            pile, mask, threat, allies, phase, _ = state
            return [(1, (pile, mask, threat, allies, phase, 1))]
        raise IllegalActionError(f"action {action!r} is not legal in {self.describe(state)}")

    def _draw(self, state: LUState, only: int | None = None) -> list[tuple[int, LUState]]:
        """The outcomes of a draw (of class ``only`` alone when given: used to replay).

        The solver's hot loop: the kept and dead haul ranks come from a table
        (:func:`_dying_table`) and a single dying rank (the usual case) is moved to the dead
        count inline; the outcomes and their order are those of the rules as stated in the
        module docstring (tests compare with a verbatim copy of the plain version)."""
        pile, mask, threat, allies, phase, declared = state
        if not pile:
            pile = self.discard_pile(state)
        symmetric = self.symmetric
        dying_after = self._dying_after
        held = 1024 if threat else 0
        dead_before = 0 if dying_after is None else dying_after[(phase << 11) | held | mask]
        threats_left = 0
        if symmetric and not threat:
            threats_left = ((pile >> 40) & 15) + ((pile >> 44) & 15) + ((pile >> 48) & 15) \
                + ((pile >> 52) & 15) + ((pile >> 56) & 15) - 1
        out: list[tuple[int, LUState]] = []
        append = out.append
        bust_weight = 0
        limit = self._limit if declared else None
        phases = _NEXT_PHASE[phase]
        for cls in self._classes if only is None else (only,):
            shift = cls << 2
            n = (pile >> shift) & 15
            if not n:
                continue
            rest = pile - (1 << shift)
            nph = phases[cls]
            if cls == ACE:
                append((n, (rest, mask, threat, allies + 1, nph, declared)))
                continue
            if cls < THREAT:
                bit = 1 << cls
                if not mask & bit:
                    new_mask = mask | bit
                    if limit is None or TOTAL[new_mask] <= limit:
                        if dying_after is None:  # the other copies of the rank die
                            if symmetric:
                                rest += (n - 1) * DEAD - ((n - 1) << shift)
                        else:
                            dying = dying_after[(nph << 11) | held | new_mask] & ~dead_before
                            if dying:
                                if dying & (dying - 1):
                                    rest = self._kill(rest, dying, False)
                                else:
                                    at = (dying.bit_length() - 1) << 2
                                    k = (rest >> at) & 15
                                    rest += k * DEAD - (k << at)
                        append((n, (rest, new_mask, threat, allies, nph, declared)))
                        continue
            elif not threat and cls != self._clubs:
                new_mask = mask
                if cls == CURSED_SPADES and mask:
                    new_mask = mask & ~(1 << (mask.bit_length() - 1))
                elif cls == CURSED_HEARTS:
                    nph = HEART2
                elif cls == CURSED_DIAMONDS:
                    nph = DIAMOND
                if symmetric:  # every threat left dies
                    rest = (rest & ~THREAT_FIELDS) + threats_left * DEAD
                    if dying_after is not None:
                        dying = dying_after[(nph << 11) | 1024 | new_mask] & ~dead_before
                        if dying:
                            rest = self._kill(rest, dying, False)
                    append((n, (rest, new_mask, THREAT, allies, nph, declared)))
                else:
                    append((n, (rest, new_mask, cls, allies, nph, declared)))
                continue
            # A bust: an ally stops it (ally and card discarded), else the turn is lost.
            if allies:
                if dying_after is not None and nph != phase:  # a 9 or 10 ends the Q♦ draws
                    dying = dying_after[(nph << 11) | held | mask] & ~dead_before
                    if dying:
                        rest = self._kill(rest, dying, False)
                append((n, (rest, mask, threat, allies - 1, nph, declared)))
            else:
                bust_weight += n
        dead = pile >> DEAD_SHIFT
        if dead and only is None:
            # A dead card busts and has no other effect (it is no 9 or 10 while Q♦ forces).
            if allies:
                append((dead, (pile - DEAD, mask, threat, allies - 1, phases[THREAT],
                               declared)))
            else:
                bust_weight += dead
        if bust_weight:
            append((bust_weight, (self.bust_payoff(declared), True)))
        return out

    def payoff(self, terminal: LUState) -> int:
        return terminal[0]

    def is_bust(self, terminal: LUState) -> bool:
        return bool(terminal[1])

    def stop_payoff(self, state: LUState) -> int | None:
        """Banking's payoff where banking is legal (the shortcut of ``transitions(state,
        STOP)``: the solver then builds no terminal state), else ``None``."""
        if len(state) == 6 and state[4] == FREE and (
                not state[5] or self._limit is None or TOTAL[state[1]] == self._limit):
            return self._bank[state[1]]
        return None

    def turn_total(self, state: LUState) -> int:
        if len(state) == 2:
            return state[0]
        return TOTAL[state[1]]

    def is_forced(self, state: LUState) -> bool:
        return len(state) == 6 and state[4] in FORCED_PHASES

    def allies_held(self, state: LUState) -> int:
        """The ace allies held in a decision state (what a player keeps on stopping there)."""
        return int(state[3])

    def level_graph(self) -> LandsUnchartedLevelGraph | None:
        """The turn as int64 codes with batched draws, for the level-by-level solver
        (:class:`LandsUnchartedLevelGraph`); ``None`` without NumPy or for a raw model."""
        if not self.symmetric:
            return None
        try:
            import numpy  # noqa: F401
        except ImportError:  # the browser build: the recursion alone
            return None
        return LandsUnchartedLevelGraph(self)

    def stop_is_optimal(self, state: LUState) -> bool:
        """Double or nothing at the mark (module docstring, "Pruning": proved there)."""
        return (state[4] == FREE and bool(state[5]) and self._limit is not None
                and TOTAL[state[1]] == self._limit)

    # ---- text ------------------------------------------------------------------------------
    def describe(self, state: LUState) -> str:
        if len(state) == 2:
            if state[1]:
                return f"bust (score change {state[0]})" if state[0] else "bust: nothing banked"
            return f"banked {state[0]}"
        pile, mask, threat, allies, phase, declared = state
        ranks = [str(c + 1) for c in NUMBER_CLASSES if mask >> c & 1]
        parts = [f"haul {' '.join(ranks) or 'empty'} (treasure {TOTAL[mask]})"]
        if threat:
            parts.append("threat " + CLASS_LABEL[threat].split(" ")[0])
        parts.append(f"{allies} {'ally' if allies == 1 else 'allies'}")
        parts.append(f"{self.pile_size(pile)} cards in the draw pile")
        if phase == START:
            parts.append("before the first draw")
        elif phase in (HEART2, HEART1):
            parts.append(f"Q♥ forces {4 - phase} more draw{'s' if phase == HEART2 else ''}")
        elif phase == DIAMOND:
            parts.append("Q♦ forces draws until a 9 or 10")
        if declared:
            parts.append("double or nothing declared")
        return ", ".join(parts)

    def outcome_label(self, state: LUState, next_state: LUState) -> str:
        if len(next_state) == 2:
            return "bust"
        if next_state[3] > state[3]:
            return CLASS_LABEL[ACE]
        if next_state[3] < state[3]:
            return "bust stopped by an ally"
        if next_state[2] != state[2]:
            if next_state[4] == HEART2:
                return CLASS_LABEL[CURSED_HEARTS]
            if next_state[4] == DIAMOND and state[4] != DIAMOND:
                return CLASS_LABEL[CURSED_DIAMONDS]
            if next_state[1] != state[1]:
                return CLASS_LABEL[CURSED_SPADES]
            return CLASS_LABEL[next_state[2]]
        gained = next_state[1] & ~state[1]
        if gained:
            return CLASS_LABEL[gained.bit_length() - 1]
        return self.describe(next_state)


# --------------------------------------------------------------------------------------------
# Level-by-level (NumPy) graph of a turn (protocol: solve/levels.py)

# A merged decision state as one int64 code (``LevelGraph.code``): the draw pile's counts in
# narrow fields (aces and numbers 0-4: 3 bits; plain threats 0-12: 4 bits; each cursed queen:
# 1 bit; dead cards 0-52: 6 bits), then the haul's ranks, the threat flag, the allies, the
# phase, the declared flag and a flag set on the states after a reshuffle (their draw pile is
# a new one, so the level restarts above every level before it).
_CODE_OFFSET = (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 34, 35, 36, 37)
_CODE_WIDTH = (7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 15, 1, 1, 1, 1)
_C_DEAD, _C_MASK, _C_THREAT, _C_ALLIES, _C_PHASE, _C_DECLARED, _C_RESHUFFLED = (
    38, 44, 53, 54, 57, 60, 61)
_C_PILE = (1 << _C_MASK) - 1
_C_THREAT_FIELDS = sum(_CODE_WIDTH[c] << _CODE_OFFSET[c] for c in THREAT_CLASSES)
_C_PHASE_FIELD = 7 << _C_PHASE
_TERMINAL_OFFSET = 4096


def _terminal_code(payoff: int, busted: bool) -> int:
    return -1 - (2 * (payoff + _TERMINAL_OFFSET) + int(busted))


def _pile_size_code(code: Any) -> Any:
    """Cards in a code's draw pile (on ints and on int64 arrays alike)."""
    size = (code >> _C_DEAD) & 63
    for cls in range(N_CLASSES):
        size = size + ((code >> _CODE_OFFSET[cls]) & _CODE_WIDTH[cls])
    return size


@dataclass(frozen=True)
class _LevelTables:
    """The look-up arrays of :class:`LandsUnchartedLevelGraph` (the same for every model)."""

    total: Any  # a haul mask's treasure
    drop_high: Any  # a haul mask without its highest rank (what Q♠ leaves)
    next_phase: Any  # [phase, class]: the phase after drawing the class
    size_low: Any  # cards in 15 bits of code (five 3-bit number fields)
    size_threats: Any  # cards in the threat fields (code bits 30-37)
    rank_fields: Any  # a haul mask's number fields in a code (3 bits per rank)


@functools.cache
def _level_tables() -> _LevelTables:
    import numpy as np

    def array(values: Iterable[int]) -> Any:
        return np.array(list(values), dtype=np.int64)

    return _LevelTables(
        total=array(TOTAL),
        drop_high=array(m & ~(1 << (m.bit_length() - 1)) if m else 0 for m in range(1 << 10)),
        next_phase=np.array(_NEXT_PHASE, dtype=np.int64),
        size_low=_pile_size_code(np.arange(1 << 15, dtype=np.int64)),
        size_threats=_pile_size_code(np.arange(256, dtype=np.int64) << 30),
        rank_fields=array(sum(7 << _CODE_OFFSET[c] for c in NUMBER_CLASSES if m >> c & 1)
                          for m in range(1 << 10)),
    )


@functools.cache
def _dying_array(symmetric: bool, spades: bool, diamonds: bool) -> Any:
    import numpy as np

    table = _dying_table(symmetric, spades, diamonds)
    return None if table is None else np.array(table, dtype=np.int64)


class LandsUnchartedLevelGraph:
    """The turn of a :class:`LandsUnchartedTurnModel` as int64 codes, with every draw of a
    batch of states computed at once (NumPy), for the level-by-level solver.

    The draw mirrors :meth:`LandsUnchartedTurnModel._draw` field by field, one slot per card
    class in the model's order, then the dead cards, then the merged bust: the outcomes with
    a weight, read left to right, are exactly the model's transitions (tested), so the solver's
    sums run in the recursion's order.  A draw from an empty pile (a reshuffle) is computed by
    the model itself, row by row (rare).  Level: ``2 × cards drawn + declared``, plus 256 after
    a reshuffle; it grows on every draw and on declaring."""

    def __init__(self, model: LandsUnchartedTurnModel) -> None:
        import numpy as np

        self._np = np
        self.model = model
        self.actions = (STOP, DRAW, DECLARE) if model._can_declare else (STOP, DRAW)
        self._classes = model._classes
        self._slots = len(self._classes) + 2
        limit = model._limit
        self._limit = limit
        tables = _level_tables()
        self._tables = tables
        self._bank = np.array(model._bank, dtype=np.float64)
        self._dying = _dying_array(model.symmetric, model._spades_active, model._diamonds)
        self._bust = {d: _terminal_code(model.bust_payoff(d), True) for d in (0, 1)}

    # ---- codes -----------------------------------------------------------------------------
    def code(self, state: LUState) -> int | None:
        """The code of a model state (``None`` outside the encoding: never for merged states
        of the app's positions)."""
        if len(state) == 2:
            return _terminal_code(state[0], bool(state[1]))
        pile, mask, threat, allies, phase, declared = state
        code = 0
        for cls in range(N_CLASSES):
            n = _count(pile, cls)
            if n > _CODE_WIDTH[cls]:
                return None
            code |= n << _CODE_OFFSET[cls]
        dead = pile >> DEAD_SHIFT
        if dead > 63 or threat not in (0, THREAT) or allies > 7 or mask & 1:
            return None
        return (code | dead << _C_DEAD | (mask >> 1) << _C_MASK | int(bool(threat)) << _C_THREAT
                | allies << _C_ALLIES | phase << _C_PHASE | int(declared) << _C_DECLARED)

    def state(self, code: int) -> LUState:
        """The model state of a code (the inverse of :meth:`code`)."""
        code = int(code)
        if code < 0:
            index = -1 - code
            return ((index >> 1) - _TERMINAL_OFFSET, bool(index & 1))
        pile = ((code >> _C_DEAD) & 63) << DEAD_SHIFT
        for cls in range(N_CLASSES):
            pile |= ((code >> _CODE_OFFSET[cls]) & _CODE_WIDTH[cls]) << (4 * cls)
        return (pile, ((code >> _C_MASK) & 511) << 1, THREAT if code >> _C_THREAT & 1 else 0,
                (code >> _C_ALLIES) & 7, (code >> _C_PHASE) & 7, (code >> _C_DECLARED) & 1)

    def level(self, codes: Any) -> Any:
        if isinstance(codes, int):
            size = _pile_size_code(codes)
        else:  # four look-ups instead of fifteen fields
            low = self._tables.size_low
            size = (low[codes & 32767] + low[(codes >> 15) & 32767]
                    + self._tables.size_threats[(codes >> 30) & 255] + ((codes >> _C_DEAD) & 63))
        return (((codes >> _C_RESHUFFLED) & 1) * 256 + 2 * (63 - size)
                + ((codes >> _C_DECLARED) & 1))

    def is_terminal(self, codes: Any) -> Any:
        return codes < 0

    def payoff(self, codes: Any) -> Any:
        return (((-1 - codes) >> 1) - _TERMINAL_OFFSET).astype(self._np.float64)

    def _fields(self, codes: Any) -> tuple[Any, ...]:
        mask = ((codes >> _C_MASK) & 511) << 1
        return (mask, (codes >> _C_THREAT) & 1, (codes >> _C_ALLIES) & 7,
                (codes >> _C_PHASE) & 7, (codes >> _C_DECLARED) & 1)

    def _may_stop(self, mask: Any, phase: Any, declared: Any) -> Any:
        free = phase == FREE
        if self._limit is None:
            return free
        return free & ((declared == 0) | (self._tables.total[mask] == self._limit))

    def stop_value(self, codes: Any) -> Any:
        np = self._np
        mask, _, _, phase, declared = self._fields(codes)
        return np.where(self._may_stop(mask, phase, declared), self._bank[mask], np.nan)

    def stop_is_optimal(self, codes: Any) -> Any:
        mask, _, _, phase, declared = self._fields(codes)
        if self._limit is None:
            return self._np.zeros(len(codes), dtype=bool)
        return (phase == FREE) & (declared == 1) & (self._tables.total[mask] == self._limit)

    # ---- transitions -----------------------------------------------------------------------
    def transitions(self, codes: Any, action: str) -> tuple[Any, Any, Any]:
        np = self._np
        codes = np.asarray(codes, dtype=np.int64)
        n_rows = len(codes)
        if action == DECLARE:
            _, _, _, phase, declared = self._fields(codes)
            legal = (phase == START) & (declared == 0) & (codes >= 0)
            if not self.model._can_declare:
                legal[:] = False
            return (legal, legal.astype(np.int64)[:, None],
                    (codes | (1 << _C_DECLARED))[:, None])
        if action != DRAW:
            raise IllegalActionError(f"action {action!r} has no level transitions")
        legal = codes >= 0
        weights = np.zeros((n_rows, self._slots), dtype=np.int64)
        succ = np.zeros((n_rows, self._slots), dtype=np.int64)
        empty = legal & ((codes & _C_PILE) == 0)
        rows = np.flatnonzero(legal & ~empty)
        if len(rows):
            w, s = self._draw(codes[rows])
            weights[rows] = w
            succ[rows] = s
        for row in np.flatnonzero(empty):  # a reshuffle: the model's own draw
            outcomes = self.model._draw(self.state(int(codes[row])))
            for slot, (weight, nxt) in enumerate(outcomes):
                nxt_code = self.code(nxt)
                if nxt_code is None:
                    raise PositionError("a reshuffled pile outside the level encoding")
                if len(nxt) == 6:
                    if codes[row] >> _C_RESHUFFLED & 1:
                        raise PositionError("a second reshuffle in one turn")
                    nxt_code |= 1 << _C_RESHUFFLED
                weights[row, slot] = weight
                succ[row, slot] = nxt_code
        return legal, weights, succ

    def _kill(self, rest: Any, ranks: Any) -> Any:
        """Move the pile copies of the ``ranks`` (a haul mask per row) to the dead count: the
        selected 3-bit fields are cleared and their sum (two look-ups) added to the dead."""
        tables = self._tables
        chosen = rest & tables.rank_fields[ranks]
        size = tables.size_low
        return rest - chosen + (size[chosen & 32767] + size[(chosen >> 15) & 32767]) * (
            1 << _C_DEAD)

    def _draw(self, codes: Any) -> tuple[Any, Any]:
        np = self._np
        tables = self._tables
        mask, threat, allies, phase, declared = self._fields(codes)
        dying_table = self._dying
        rows = len(codes)
        held = threat << 10
        if dying_table is not None:
            alive_before = ~dying_table[(phase << 11) | held | mask]
        dead_unit = 1 << _C_DEAD
        ally_unit = 1 << _C_ALLIES
        has_ally = allies > 0
        weights = np.zeros((rows, self._slots), dtype=np.int64)
        succ = np.zeros((rows, self._slots), dtype=np.int64)
        bust_weight = np.zeros(rows, dtype=np.int64)
        bare = codes & ~_C_PHASE_FIELD
        # The phase after a draw: one for a 9 or 10, one for every other class.
        next_phase = tables.next_phase
        nph_other = next_phase[phase, 1]
        nph_nine_ten = next_phase[phase, 8]
        phase_field = {False: nph_other << _C_PHASE, True: nph_nine_ten << _C_PHASE}
        key = {False: (nph_other << 11) | held, True: (nph_nine_ten << 11) | held}
        change = {False: nph_other != phase, True: nph_nine_ten != phase}
        over = None
        if self._limit is not None:
            over = declared == 1

        def ally_stop(slot: int, busts: Any, rest: Any, n: Any, nine_ten: bool) -> None:
            """A bust on the rows ``busts``: stopped by an ally where one is held (the ally and
            the card are discarded), else merged into the bust."""
            lost = busts & ~has_ally
            if lost.any():
                bust_weight[lost] += n[lost]
            at = np.flatnonzero(busts & has_ally)
            if not len(at):
                return
            rest = rest[at]
            if dying_table is not None:
                moved = change[nine_ten][at]
                if moved.any():
                    dying = dying_table[key[nine_ten][at] | mask[at]] & alive_before[at]
                    rest = np.where(moved, self._kill(rest, dying), rest)
            weights[at, slot] = n[at]
            succ[at, slot] = (rest - ally_unit) | phase_field[nine_ten][at]

        for slot, cls in enumerate(self._classes):
            off = _CODE_OFFSET[cls]
            n = (codes >> off) & _CODE_WIDTH[cls]
            present = n > 0
            if not present.any():
                continue
            rest = bare - (1 << off)
            nine_ten = cls in (8, 9)
            if cls == ACE:
                weights[:, slot] = n
                succ[:, slot] = (rest + ally_unit) | phase_field[False]
                continue
            if cls < THREAT:
                bit = 1 << cls
                fine = present & ((mask & bit) == 0)
                if over is not None:
                    fine &= ~over | (tables.total[mask | bit] <= self._limit)
                gained = rest + (1 << (_C_MASK + cls - 1))
                if dying_table is None:
                    gained = gained + (n - 1) * (dead_unit - (1 << off))
                else:
                    dying = dying_table[key[nine_ten] | mask | bit] & alive_before
                    gained = self._kill(gained, dying)
                weights[:, slot] = np.where(fine, n, 0)
                succ[:, slot] = gained | phase_field[nine_ten]
                busts = present & ~fine
                if busts.any():
                    ally_stop(slot, busts, rest, n, nine_ten)
                continue
            takes = present & (threat == 0)
            if cls == self.model._clubs:
                takes[:] = False
            if takes.any():
                new_mask = tables.drop_high[mask] if cls == CURSED_SPADES else mask
                if cls in (CURSED_HEARTS, CURSED_DIAMONDS):
                    tph = HEART2 if cls == CURSED_HEARTS else DIAMOND
                    new_phase: Any = tph << _C_PHASE
                    tkey: Any = (tph << 11) | 1024
                else:
                    new_phase = phase_field[False]
                    tkey = (nph_other << 11) | 1024
                threats_left = sum((codes >> _CODE_OFFSET[c]) & _CODE_WIDTH[c]
                                   for c in THREAT_CLASSES) - 1
                taken = (rest & ~_C_THREAT_FIELDS) + threats_left * dead_unit
                if dying_table is not None:
                    taken = self._kill(taken, dying_table[tkey | new_mask] & alive_before)
                if cls == CURSED_SPADES:
                    taken = (taken & ~(511 << _C_MASK)) | ((new_mask >> 1) << _C_MASK)
                weights[:, slot] = np.where(takes, n, 0)
                succ[:, slot] = taken | (1 << _C_THREAT) | new_phase
            busts = present & ~takes
            if busts.any():
                ally_stop(slot, busts, rest, n, nine_ten)
        dead = (codes >> _C_DEAD) & 63
        slot = len(self._classes)
        stopped = (dead > 0) & has_ally
        weights[:, slot] = np.where(stopped, dead, 0)
        succ[:, slot] = (bare - dead_unit - ally_unit) | phase_field[False]
        bust_weight += np.where(has_ally, 0, dead)
        weights[:, slot + 1] = bust_weight
        succ[:, slot + 1] = np.where(declared == 1, self._bust[1], self._bust[0])
        return weights, succ


# --------------------------------------------------------------------------------------------
# Position factory


def lands_uncharted_position(
    variant: LandsUnchartedVariant, *, drawn: str | Iterable[str | Card] | None = None,
    removed: str | Iterable[str | Card] | None = None, allies: int | None = None,
    score: int | None = None, symmetric: bool = True, allies_elsewhere: int | None = None,
) -> tuple[LandsUnchartedTurnModel, LUState]:
    """A turn model and state from what the player knows.

    ``drawn``: this turn's cards in order (an ace is an ally; a bust is allowed only when an
    ally held at that moment stops it); ``removed``: cards out of the draw pile (treated as the
    discard pile, module docstring); ``allies``: allies held from earlier turns (aces out of the
    draw pile besides ``removed``); ``score``: the player's score on a *declared*
    double-or-nothing turn (needs the option and a score in the declare window);
    ``allies_elsewhere``: how many of the removed aces other players hold as allies (out of the
    draw pile and never reshuffled into it); ``symmetric=False`` gives the raw, unmerged
    model of the same position (for checks).
    """
    drawn_cards = parse_cards(drawn)
    removed_cards = parse_cards(removed)
    Deck.standard().remove(removed_cards, what="52-card deck")
    Deck.standard().remove(dict.fromkeys(drawn_cards), what="52-card deck")
    held = 0 if allies is None else allies
    if isinstance(held, str):
        held = parse_whole_number(held, "allies", PositionError)
    if isinstance(score, str):
        score = parse_whole_number(score, "score", PositionError)
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise PositionError(f"allies must be a whole number of at least 0, not {allies!r}")
    if held and not variant.allies_persist:
        raise PositionError(f"allies {held}: with allies_persist off unused allies are discarded "
                            "at the end of every turn, so none are held from earlier turns")
    elsewhere = _allies_elsewhere(variant, allies_elsewhere, removed_cards)
    aces_out = sum(1 for c in {*removed_cards, *drawn_cards} if c.rank == "A")
    if held > 4 - aces_out:
        raise PositionError(
            f"allies {held}: only {4 - aces_out} aces are left outside the removed and drawn "
            "cards"
        )
    if score is not None:
        if not variant.double_or_nothing:
            raise PositionError("score applies to a declared double-or-nothing turn: "
                                "switch the option double_or_nothing on")
        if isinstance(score, bool) or not isinstance(score, int) or not variant.may_declare(score):
            low, high = variant.declare_window
            raise PositionError(
                f"score {score!r}: double or nothing is declared from a score of {low}-{high}"
            )
    suits = variant.cursed_suits
    pile = pack_counts(standard_cards(), suits) - pack_counts(removed_cards, suits) - held
    raw_state: LUState = (pile, 0, 0, held, START, int(score is not None))
    raw = LandsUnchartedTurnModel(variant, raw_state, elsewhere, score=score, symmetric=False)
    # A card may be out (removed) and then drawn, or drawn twice, only after the draw pile ran
    # out and the discard pile became the new draw pile during this turn.
    seen = Counter(removed_cards)
    reshuffled = False
    for i, card in enumerate(drawn_cards):
        reshuffled = reshuffled or not LandsUnchartedTurnModel.pile_size(raw_state[0])
        if seen[card] and not reshuffled:
            raise CardError(f"card {card.code} appears more often than the 52-card deck holds "
                            "it (1 copy), and the draw pile has not run out this turn")
        seen[card] += 1
        outcomes = raw._draw(raw_state, only=card_class(card, suits))
        if not outcomes or len(outcomes[0][1]) == 2:
            raise PositionError(_bust_reason(card, drawn_cards[:i], raw_state, variant))
        raw_state = outcomes[0][1]
    return LandsUnchartedTurnModel.build(variant, raw_state, aces_elsewhere=elsewhere,
                                         score=score, symmetric=symmetric)


def _allies_elsewhere(variant: LandsUnchartedVariant, given: int | str | None,
                      removed: tuple[Card, ...]) -> int:
    """The ``allies_elsewhere`` flag checked: other players' allies are among the removed
    aces, and exist only when allies stay between turns in a game of several players."""
    if given is None:
        return 0
    count = parse_whole_number(given, "allies_elsewhere", PositionError) if isinstance(
        given, str) else given
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise PositionError(
            f"allies_elsewhere must be a whole number of at least 0, not {given!r}")
    if count and variant.solo:
        raise PositionError(f"allies_elsewhere {count}: a solo game has no other players")
    if count and not variant.allies_persist:
        raise PositionError(f"allies_elsewhere {count}: with allies_persist off every player's "
                            "unused allies are discarded at the end of their turn")
    removed_aces = sum(1 for card in set(removed) if card.rank == "A")
    if count > removed_aces:
        raise PositionError(
            f"allies_elsewhere {count}: only {removed_aces} aces are among the removed cards "
            "(list other players' allies in --removed too)")
    return count


def _bust_reason(card: Card, before: tuple[Card, ...], state: LUState,
                 variant: LandsUnchartedVariant) -> str:
    shown = " ".join(c.code for c in before) or "nothing"
    if card.is_face and card.rank == "Q" and card.suit == "c" and "c" in variant.cursed_suits:
        why = "the cursed Q♣ busts at once"
    elif card.is_face:
        why = "a second threat"
    elif state[1] >> card_class(card) & 1:
        why = f"a second {card.rank if card.rank != 'T' else '10'} in the haul"
    else:
        why = f"score + haul passes {variant.target} on a double-or-nothing turn"
    return (f"card {card.code} busts the turn ({why}, no ally left after {shown}): "
            "the position is already over")


# --------------------------------------------------------------------------------------------
# Engine


class LandsUnchartedEngine(Engine):
    """A whole game of Lands Uncharted with a real shuffled deck (rules: module docstring).

    Player 1 (index 0) starts every round.  ``turn_records[i].result`` is the change of score of
    the turn: the treasure banked (+5 buried treasure), 0 on a bust, and on a declared
    double-or-nothing turn the bank or the drop to 80.
    """

    game = GAME

    def __init__(self, variant: LandsUnchartedVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: LandsUnchartedVariant = variant
        if not 1 <= players <= 4:
            raise RulesError(f"{GAME} takes 1-4 players, not {players}")
        if variant.solo and players != 1:
            raise RulesError(f"solo mode is for exactly 1 player, not {players}")
        self._suits = variant.cursed_suits
        deck = list(standard_cards())
        self.rng.shuffle(deck)
        self.draw_pile: list[Card] = deck  # the top card is the last one
        self.discard_pile: list[Card] = []
        self.allies: list[list[Card]] = [[] for _ in range(players)]
        self._scores = [0] * players
        self.banks = [0] * players
        self.turns_taken = [0] * players
        self.round = 1
        self.final_round_by: int | None = None
        self._player = 0
        self._over = False
        self._winners: tuple[int, ...] = ()
        self._finish_text = ""
        self._new_turn()

    # ---- turn state ------------------------------------------------------------------------
    def _new_turn(self) -> None:
        self.turn_cards: list[Card] = []
        self.haul: list[Card] = []
        self.threat: Card | None = None
        self.phase = START
        self.declared = False
        self._model: LandsUnchartedTurnModel | None = None
        self._turn_start = self._raw_state()
        # What the player knows at the start of the turn, as `pushluck odds` flags.
        self._turn_start_outside = tuple(self.discard_pile) + tuple(
            card for p, area in enumerate(self.allies) if p != self._player for card in area
        )
        self._turn_start_allies = len(self.allies[self._player])
        self._turn_start_elsewhere = len(self._turn_start_outside) - len(self.discard_pile)

    def _raw_state(self) -> LUState:
        mask = 0
        for card in self.haul:
            if not card.is_face:
                mask |= 1 << (card.rank_index - 1)
        threat = card_class(self.threat, self._suits) if self.threat else 0
        pile = pack_counts(self.draw_pile, self._suits)
        return (pile, mask, threat, len(self.allies[self._player]), self.phase,
                int(self.declared))

    @property
    def treasure(self) -> int:
        return sum(c.rank_index for c in self.haul if not c.is_face)

    def winners(self) -> tuple[int, ...]:
        return self._winners

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self.phase == START:
            if not self.declared and self.variant.may_declare(self._scores[self._player]):
                return (DRAW, DECLARE)
            return (DRAW,)
        if self.phase != FREE:
            return (DRAW,)
        if self.declared and self._scores[self._player] + self.treasure != self.variant.target:
            return (DRAW,)
        return (DRAW, STOP)

    def action_label(self, action: str) -> str:
        return {DRAW: "Draw", STOP: "Bank", DECLARE: "Declare double or nothing"}.get(
            action, action
        )

    # ---- actions ---------------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        who = f"Player {self._player + 1}"
        if action == DECLARE:
            self.declared = True
            v = self.variant
            self._say(f"{who} declares double or nothing: bank only at exactly {v.target}; "
                      f"a bust sets the score to {v.double_or_nothing_reset}.", out)
        elif action == STOP:
            self._bank(out)
        else:
            self._draw(out)
        return out

    def _draw(self, out: list[str]) -> None:
        who = f"Player {self._player + 1}"
        if not self.draw_pile:
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.draw_pile)
            self._say(f"The draw pile is empty: the discard pile ({len(self.draw_pile)} cards) "
                      "is shuffled into a new draw pile.", out)
        card = self.draw_pile.pop()
        self._turned_up(card.code)
        self.turn_cards.append(card)
        phase_before = self.phase
        if phase_before == HEART2:
            self.phase = HEART1
        elif phase_before == DIAMOND:
            self.phase = FREE if card.rank in ("9", "T") else DIAMOND
        else:
            self.phase = FREE
        cursed = card.rank == "Q" and card.suit in self._suits
        if card.rank == "A":
            self.allies[self._player].append(card)
            self._say(f"{who} draws {card.label}: an ally joins "
                      f"({len(self.allies[self._player])} held).", out)
        elif card.is_face:
            if cursed and card.suit == "c":
                self._bust(card, "the cursed Q♣ strikes", out)
            elif self.threat is not None:
                self._bust(card, f"a second threat after {self.threat.label}", out)
            else:
                self.threat = card
                self.haul.append(card)
                self._say(f"{who} draws {card.label}: a threat.", out)
                if cursed:
                    self._curse(card, out)
        else:
            rank = card.rank_index
            if any(c.rank_index == rank for c in self.haul):
                self._bust(card, f"a second {card.label[:-1]}", out)
            elif (self.declared
                  and self._scores[self._player] + self.treasure + rank > self.variant.target):
                self._bust(card, f"the haul would pass {self.variant.target}", out)
            else:
                self.haul.append(card)
                self._say(f"{who} draws {card.label}: treasure {self.treasure}.", out)

    def _curse(self, queen: Card, out: list[str]) -> None:
        if queen.suit == "s":
            numbers = [c for c in self.haul if not c.is_face]
            if numbers:
                top = max(numbers, key=lambda c: c.rank_index)
                self.haul.remove(top)
                self.discard_pile.append(top)
                self._say(f"The cursed Q♠ discards {top.label}, the highest number in the haul: "
                          f"treasure {self.treasure}.", out)
        elif queen.suit == "h":
            self.phase = HEART2
            self._say("The cursed Q♥ forces two more draws.", out)
        elif queen.suit == "d":
            self.phase = DIAMOND
            self._say("The cursed Q♦ forces draws until a 9 or 10.", out)

    def _bust(self, card: Card, why: str, out: list[str]) -> None:
        who = f"Player {self._player + 1}"
        allies = self.allies[self._player]
        if allies:
            ally = allies.pop()
            self.discard_pile.extend((ally, card))
            self._say(f"{who} draws {card.label}: bust ({why}) — an ally steps in: "
                      f"{ally.label} and {card.label} are discarded and the turn goes on.", out)
            return
        player = self._player
        if self.declared:
            reset = self.variant.double_or_nothing_reset
            change = reset - self._scores[player]
            self._scores[player] = reset
            self._say(f"{who} draws {card.label}: bust ({why})! Double or nothing fails: "
                      f"the score falls to {reset}.", out)
        else:
            change = 0
            self._say(f"{who} draws {card.label}: bust ({why})! "
                      f"The haul of {self.treasure} is lost.", out)
        self.discard_pile.append(card)
        self._end_turn(change, True, out)

    def _bank(self, out: list[str]) -> None:
        player = self._player
        treasure = self.treasure
        gain = treasure
        extra = ""
        if self.variant.buried_treasure and treasure == BURIED_TOTAL:
            gain += BURIED_BONUS
            extra = f" (+{BURIED_BONUS} buried treasure)"
        self._scores[player] += gain
        self.banks[player] += 1
        self._say(f"Player {player + 1} banks {treasure}{extra}: score {self._scores[player]}.",
                  out)
        self._end_turn(gain, False, out)

    def _end_turn(self, change: int, busted: bool, out: list[str]) -> None:
        player = self._player
        self.discard_pile.extend(self.haul)
        if not self.variant.allies_persist and self.allies[player]:
            self.discard_pile.extend(self.allies[player])
            self._say(f"Player {player + 1}'s unused allies leave.", out)
            self.allies[player] = []
        note = "declared double or nothing" if self.declared else ""
        self.turn_records.append(
            TurnRecord(player, change, busted, tuple(self.turn_cards), note)
        )
        self.turns_taken[player] += 1
        v = self.variant
        if v.solo:
            if self.turns_taken[player] >= SOLO_TURNS:
                self._finish(out)
                return
        elif not busted and self._scores[player] >= v.target and self.final_round_by is None:
            self.final_round_by = player
            if player < self.players - 1:
                self._say(f"Player {player + 1} reaches {v.target}: the others finish the "
                          "round.", out)
        if not v.solo and self.final_round_by is not None and player == self.players - 1:
            self._finish(out)
            return
        self._player = (player + 1) % self.players
        if self._player == 0:
            self.round += 1
        self._new_turn()

    def _finish(self, out: list[str]) -> None:
        self._over = True
        self._new_turn()
        scores = self._scores
        if self.variant.solo:
            self._winners = (0,)
            self._finish_text = (f"Solo game over: {scores[0]} in {SOLO_TURNS} turns — "
                                 "the score to beat.")
            self._say(self._finish_text, out)
            return
        best = max(scores)
        top = [p for p in range(self.players) if scores[p] == best]
        fewest = min(self.banks[p] for p in top)
        winners = tuple(p for p in top if self.banks[p] == fewest)
        self._winners = winners
        names = " and ".join(f"Player {p + 1}" for p in winners)
        if len(top) == 1:
            text = f"Player {winners[0] + 1} wins with {best}."
        elif len(winners) == 1:
            others = ", ".join(f"Player {p + 1} ({self.banks[p]} banks)"
                               for p in top if p != winners[0])
            text = (f"Player {winners[0] + 1} wins the tie on {best} by banking fewest times "
                    f"({fewest} banks, against {others}).")
        else:
            text = (f"{names} share the win: {best} each, banked {fewest} times each "
                    "(the tie-break on fewest banks does not separate them).")
        self._finish_text = text
        self._say(text, out)

    # ---- what the table shows, and the turn for the solver ---------------------------------
    def view(self) -> TableView:
        lines = []
        haul = " ".join(c.label for c in self.haul) or "empty"
        lines.append(f"Haul: {haul} (treasure {self.treasure})")
        lines.append(f"Allies held: {len(self.allies[self._player])}")
        if self.phase in (HEART2, HEART1):
            lines.append(f"Q♥: {4 - self.phase} forced draw(s) left")
        elif self.phase == DIAMOND:
            lines.append("Q♦: forced draws until a 9 or 10")
        if self.declared:
            lines.append(f"Double or nothing: bank only at exactly {self.variant.target}")
        if self.variant.solo:
            turn = min(self.turns_taken[0] + 1, SOLO_TURNS)
            round_text = f"Solo: turn {turn} of {SOLO_TURNS}"
        elif self.final_round_by is not None:
            round_text = (f"Final round: Player {self.final_round_by + 1} reached "
                          f"{self.variant.target}")
        else:
            round_text = f"Round {self.round} — first to {self.variant.target} ends the game"
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_cards=tuple(self.turn_cards),
            turn_total=self.treasure,
            turn_lines=tuple(lines),
            player_lines=tuple(
                (f"{len(self.allies[p])} allies held", f"{self.banks[p]} banks")
                for p in range(self.players)
            ),
            draw_pile=len(self.draw_pile),
            discard_pile=len(self.discard_pile),
            round_text=round_text,
            finished_text=self._finish_text,
        )

    def position_flags(self) -> dict[str, str]:
        """This turn as `pushluck odds` flags: the turn's cards, the cards out of the draw pile
        at the turn's start (discard pile and other players' allies), the allies held then, and
        the score on a declared double-or-nothing turn.  The command treats every removed card
        but the ``allies_elsewhere`` aces as the discard pile, as the table does."""
        flags: dict[str, str] = {}
        if self.turn_cards:
            flags["drawn"] = " ".join(card.code for card in self.turn_cards)
        if self._turn_start_outside:
            flags["removed"] = " ".join(card.code for card in self._turn_start_outside)
        if self._turn_start_allies:
            flags["allies"] = str(self._turn_start_allies)
        if self._turn_start_elsewhere:
            flags["allies_elsewhere"] = str(self._turn_start_elsewhere)
        if self.declared:
            flags["score"] = str(self._scores[self._player])
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The draw pile, the discard pile, every player's allies and this turn's haul."""
        return {
            "draw pile": tuple(self.draw_pile),
            "discard pile": tuple(self.discard_pile),
            "allies": tuple(card for area in self.allies for card in area),
            "haul": tuple(self.haul),
        }

    def turn_position(self) -> tuple[LandsUnchartedTurnModel, LUState]:
        if self._over:
            raise RulesError("the game is over: there is no turn to analyse")
        if self._model is None:
            score = self._scores[self._player]
            relevant = self.declared or self.variant.may_declare(score)
            elsewhere = sum(len(a) for p, a in enumerate(self.allies) if p != self._player)
            self._model, _ = LandsUnchartedTurnModel.build(
                self.variant, self._turn_start, aces_elsewhere=elsewhere,
                score=score if relevant else None,
            )
        model = self._model
        pile, mask, threat, allies, phase, declared = self._raw_state()
        return model, model.make_state(pile, mask, threat, allies, phase, bool(declared))


# --------------------------------------------------------------------------------------------
# Solo: ten turns as a chain of turns from a fresh deck (solved by solve/whole_game/solo.py)


def _solo_variant(variant: LandsUnchartedVariant | None) -> LandsUnchartedVariant:
    variant = variant or LandsUnchartedVariant(solo=True)
    if not isinstance(variant, LandsUnchartedVariant):
        raise OptionError(f"not a Lands Uncharted variant: {type(variant).__name__}")
    if variant.double_or_nothing:
        raise RulesError("the solo model covers Lands Uncharted without double_or_nothing")
    return variant if variant.solo else variant.replace(solo=True)


def _solo_turn_outcome(variant: LandsUnchartedVariant, model: LandsUnchartedTurnModel,
                       last: LUState, terminal: LUState, action: str) -> tuple[int, int]:
    """(treasure banked, allies kept for the next turn): a bust leaves no ally (an ally would
    have stopped it); without ``allies_persist`` allies leave at the turn's end."""
    held = model.allies_held(last) if action == STOP and variant.allies_persist else 0
    return int(model.payoff(terminal)), held


#: The carry between turns is (turns played, allies held).  Without allies_persist no ally is
#: ever held at a turn start (the position factory refuses it).
SOLO_MODE = SoloMode(
    title=f"{SOLO_TURNS}-turn solo",
    model=("fresh 52-card deck each turn (minus the aces held as allies); allies carried over "
           "exactly; Markov chain over (turn, allies, score)"),
    start=(0, 0),
    prepare=_solo_variant,
    turn_position=lambda variant, carry: {
        "allies": carry[1] if variant.allies_persist else 0},
    turn_outcome=_solo_turn_outcome,
    advance=lambda variant, carry, outcome: (outcome[0], (carry[0] + 1, outcome[1])),
    finished=lambda variant, carry: carry[0] >= SOLO_TURNS,
)


# --------------------------------------------------------------------------------------------
# Registration

SPEC = register(GameSpec(
    name=GAME,
    title="Lands Uncharted",
    variant_cls=LandsUnchartedVariant,
    engine_cls=LandsUnchartedEngine,
    position=lands_uncharted_position,
    deck=lambda variant: standard_cards(),
    position_flags=(
        DRAWN, REMOVED,
        ALLIES,
        Flag("score", "the score on a declared double-or-nothing turn", whole_number),
        Flag("allies_elsewhere", "how many of the removed aces other players hold as allies",
             whole_number),
    ),
    example={"drawn": "5h 9s"},
    min_players=1,
    max_players=4,
    presets={
        "standard": LandsUnchartedVariant(),
        "buried-treasure": LandsUnchartedVariant(buried_treasure=True),
        "double-or-nothing": LandsUnchartedVariant(double_or_nothing=True),
        "cursed-idol": LandsUnchartedVariant(cursed_idol=CURSED_NAMES),
        "allies-leave": LandsUnchartedVariant(allies_persist=False),
        "solo": LandsUnchartedVariant(solo=True),
        "all-options": LandsUnchartedVariant(
            buried_treasure=True, double_or_nothing=True, cursed_idol=CURSED_NAMES
        ),
    },
    blurb="Draw treasure 2-10; a second threat or a repeated rank busts, unless an ace ally "
          "steps in.",
    solo=SOLO_MODE,
))

__all__ = [
    "DECLARE", "LandsUnchartedEngine", "LandsUnchartedTurnModel", "LandsUnchartedVariant",
    "card_class", "lands_uncharted_position",
]
