r"""Captain Seven's Doubloons: draw cards, stash the total, and never let it end in 7.

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
:meth:`CaptainSevenEngine.view` hides the other players' stashes (``None``) until someone
reaches the target (the log then omits stash totals too).  ``relics``: when you stash you may
keep one of the turn's A, J, Q or K as your relic (engine action ``keep:<card>``; at most one,
a new one replaces the old).  Readings of the relic rules where docs/rules.md is silent:

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

Turn model (:class:`CaptainSevenTurnModel`).  Objective: doubloons stashed this turn
(docs/rules.md); with the ace, a caught turn still stashes a third.  Suits never matter and
10/J/Q/K all count 10,
so a state is the number of cards out of the deck per value class ``1 2 3 4 5 6 8 9 10 7 joker``
(this turn's cards, discarded cards and relics held) together with the turn total, whether a
counting card has been drawn yet (the first card cannot catch), and, only while a jack or queen
relic is unspent, the value of the card just drawn and a "caught, jack still in hand" flag.
With an unspent queen a draw leads first to a small choice state (``no-queen`` or
``relic:queen``, nothing else) and then to the usual draw-or-stash state; splitting the choice
this way is the same game, and it lets the proved stopping rule below prune the second state.
(The A/J/Q/K identity of a 10 matters only for which relic one keeps at the end, which does not
change this turn's result, so 10/J/Q/K stay one class even with relics.)  States are ints (bit
fields, :func:`encode_state`); terminal states are negative: ``-(2p+1)`` stashed ``p``,
``-(2p+2)`` caught with ``p`` saved.  From the turn start without relics the solver visits
361,864 states (163,804 of them expanded, the rest proved stops), against billions of
card-by-card sequences; an unspent ace relic needs about 1.1 million.  Relics that are free to
use keep drawing worthwhile much longer: with an unspent queen drawing pays up to totals near
78, with an unspent jack near 200, so those turns are only quick to solve from deep positions
(a jack at total 120: about a million states).  Solved level by level
(:class:`CaptainSevenLevels`), the choices right after a draw are not stored: a queen choice is
the better of its two successors, and a jack choice after a safe card is the better of the
draw-or-stash state of the same cards (whose draw is the choice's draw) and the jack's redraw,
a closed-form mean wherever all the redraw's outcomes are proved stops.  From the turn start
the queen then stores 2.06 million states (13.5 million with its choices), a jack after a
first card about 2.8 million, and a jack from the turn start 12.4 million (more than 60
million with its choices): too many to solve at a click, so the values of the jack's turn
starts ship (:meth:`CaptainSevenTurnModel.start_values_key`).

Pruning (proved; :meth:`CaptainSevenTurnModel.stop_is_optimal`).  In a state with total ``t``
let the deck hold ``n`` cards, ``c`` of them 7s and jokers, and let ``pool`` be the value sum of
the others.  *No relic (or a king, or a spent relic).*  One more draw changes the expected
result by ``(Σ_safe (t+v) − n·t)/n ≤ (pool − c·t)/n``, because the safe cards are among the
``n − c`` others and a catch pays 0.  So a draw cannot gain when ``pool ≤ c·t``.  That set is
closed under non-catching draws: ``pool − v ≤ c·t − v ≤ c·(t+v)``.  From such a state the
result is a supermartingale under any policy, so by optional stopping (the turn is finite) no
policy beats stopping now: stop is optimal.  *Ace unspent.*  A catch now pays at most a third
of ``t+v`` (``t+7`` for a 7, ``t`` for a joker), so a draw changes the mean by at most
``(pool − c·t + (c·t + 7·c₇)/3)/n``: stop when ``3·pool + 7·c₇ ≤ 2·c·t`` (``c₇`` the 7s in
the deck), a set closed in the same way.  *Queen unspent*, in a draw-or-stash state (the
queen can no longer double a card already passed): let ``D`` be the face value drawn from here
on; the queen adds at most one card, so every result is at most
``Z = t + 2·D`` (0 when caught); one draw changes ``E[Z]`` by at most ``(2·pool_now − c·Z)/n``
and ``2·(pool − D) ≤ c·(t + 2·D)`` whenever ``2·pool ≤ c·t``: ``Z`` is a supermartingale and
stop is optimal.  *Jack unspent*: if ``pool ≤ (c−1)·(t−10)`` every state the jack can lead to
(a redraw after discarding a catching card, or a card worth at most 10) satisfies the no-relic
condition, so after the jack the result is worth at most the redraw's mean
``≤ ((n−c)·t + pool)/(n−1)``; hence one draw is worth at most ``((n−c)·t + pool)(n−1+c) /
(n(n−1))``, which is ``≤ t`` iff ``(c·t − pool)(n−1+c) ≥ c·n·t``.  Both conditions survive a
non-catching draw (``c·t − pool`` grows by ``(c+1)·v``; the difference of the two sides grows
by at least ``pool + v·(c² + n − 2) ≥ 0``), so the same supermartingale argument applies.
A jack is free insurance for this objective, so it keeps drawing worthwhile to totals near 200:
with a jack in hand only deep positions are quick to solve.  *Jack on a safe card* (not the
first): discarding a card of value ``v ≥ 1`` that did not catch you redraws from total
``t = T − v`` with the same deck; where that base satisfies ``pool ≤ c·t`` every outcome of the
redraw is a proved stop, so the redraw is worth ``Σ_safe left·(t+v')/n ≤ ((n−c)·t + pool)/n ≤
t < T``, less than stashing now: there the level solver never values the redraw (in the
recursion it is computed and loses; the results are the same).

Whole-game use: :func:`turn_outcome_distribution` gives the exact distribution of the
doubloons stashed in one turn under a policy; :func:`threshold_outcome_distributions` gives it
for many "stop once the total reaches T" rules in one pass: a state ``s`` with total ``t(s)`` is
reached under threshold ``T`` with its unrestricted reach probability ``p(s)`` whenever every
earlier total is below ``T``, i.e. whenever ``T > t(parent)``, because totals strictly increase
after the first card.  So ``P_T(result = x) = Σ_{edges u→s, t(s) = x ≥ T, t(u) < T} p(u)·P(u→s)``
(edges from the turn start count for every ``T``), and the rest of the mass is what caught turns
save (0 without the ace).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pushluck_teach.cards import (
    JOKER_RANK,
    Card,
    Deck,
    parse_card,
    parse_cards,
    standard_cards,
)
from pushluck_teach.games.base import (
    DRAW,
    DRAWN,
    REMOVED,
    STOP,
    Engine,
    Flag,
    GameSpec,
    IllegalActionError,
    OutsideChoice,
    PositionError,
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    option,
    register,
    whole_number,
)
from pushluck_teach.quoting import quoted

try:  # gmpy2's rationals are much faster than fractions.Fraction
    from gmpy2 import mpq as _rational
except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
    _rational = Fraction

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

# ---- value classes and the state encoding ----------------------------------------------------
# Classes 0-8: non-catching values 1 2 3 4 5 6 8 9 10 (10 holds 10/J/Q/K); 9: sevens; 10: jokers.
CLASS_VALUES = (1, 2, 3, 4, 5, 6, 8, 9, 10, 7, 0)
CLASS_CAPS = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4, 2)
CLASS_LABELS = ("A", "2", "3", "4", "5", "6", "8", "9", "10/J/Q/K", "7", "joker")
SEVEN, JOKER_CLASS, TEN = 9, 10, 8
_SHIFTS = (0, 3, 6, 9, 12, 15, 18, 21, 24, 29, 32)
_MASKS = (7, 7, 7, 7, 7, 7, 7, 7, 31, 7, 3)
STARTED = 1 << 34
_RELIC_SHIFT = 35
HAS_LAST = 1 << 37
LAST_FIRST = 1 << 38
_LAST_SHIFT = 39
PENDING = 1 << 43
_OUTV_SHIFT = 44
_TOTAL_SHIFT = 53
_LAST_BITS = HAS_LAST | LAST_FIRST | (15 << _LAST_SHIFT)
_RELIC_BITS = 3 << _RELIC_SHIFT
FULL_POOL = sum(v * k for v, k in zip(CLASS_VALUES[:9], CLASS_CAPS[:9], strict=True))  # 312
DECK_SIZE = 54
_ALL_CARDS = standard_cards(jokers=2)
# Per class: (class, shift, mask, cap, value, the state increment of drawing it).
_STEPS = tuple(
    (c, _SHIFTS[c], _MASKS[c], CLASS_CAPS[c], CLASS_VALUES[c],
     (1 << _SHIFTS[c]) + (CLASS_VALUES[c] << _TOTAL_SHIFT)
     + ((CLASS_VALUES[c] << _OUTV_SHIFT) if c < SEVEN else 0))
    for c in range(11)
)

RELIC_NONE, RELIC_ACE, RELIC_JACK, RELIC_QUEEN = 0, 1, 2, 3
_RELIC_CODES = {None: RELIC_NONE, "K": RELIC_NONE, "A": RELIC_ACE, "J": RELIC_JACK,
                "Q": RELIC_QUEEN}
_RELIC_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
RELIC_RANKS = ("A", "J", "Q", "K")

# Relics whose turn starts ship their float values (``solve.turn_tables``), and the deep
# position of each family solved again when its table is loaded.
_START_VALUE_KEYS = {"J": "jack-relic-turn-starts-v1", "Q": "queen-relic-turn-starts-v3"}
# How many draws into the turn each table reaches (``TurnModel.start_values_draws``).
_START_VALUE_DRAWS = {"J": 2, "Q": 4}
_START_VALUE_CHECKS = {"J": "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd", "Q": "Kh Kd Ks Kc"}

_DRAW_STOP = (DRAW, STOP)
_DRAW_ONLY = (DRAW,)
_PENDING_ACTIONS = (CAUGHT, JACK)
_JACK_ACTIONS = (DRAW, STOP, JACK)
_QUEEN_ACTIONS = (NO_QUEEN, QUEEN)


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


def _count(state: int, cls: int) -> int:
    return (state >> _SHIFTS[cls]) & _MASKS[cls]


def encode_state(out: Sequence[int], total: int, *, started: bool, relic: int = RELIC_NONE,
                 last: int | None = None, last_first: bool = False,
                 pending: bool = False) -> int:
    """The int of a decision state: ``out`` = cards out of the deck per class (11 counts)."""
    state = 0
    outv = 0
    for cls, n in enumerate(out):
        if not 0 <= n <= CLASS_CAPS[cls]:
            raise PositionError(f"more {CLASS_LABELS[cls]} cards out than the deck holds")
        state |= n << _SHIFTS[cls]
        if cls < SEVEN:
            outv += n * CLASS_VALUES[cls]
    state |= outv << _OUTV_SHIFT
    state |= total << _TOTAL_SHIFT
    state |= relic << _RELIC_SHIFT
    if started:
        state |= STARTED
    if last is not None and (relic == RELIC_JACK or (relic == RELIC_QUEEN and last > 0)):
        state |= HAS_LAST | (last << _LAST_SHIFT) | (LAST_FIRST if last_first else 0)
    if pending:
        state |= PENDING
    return state


def stopped(payoff: int) -> int:
    return -(2 * payoff + 1)


def caught(saved: int = 0) -> int:
    return -(2 * saved + 2)


def _class_counts(cards: Iterable[Card]) -> list[int]:
    out = [0] * 11
    for card in cards:
        out[card_class(card)] += 1
    return out


_CAUGHT_NOTHING = caught(0)
# Per turn total modulo 10: the non-catching classes as (shift, mask, cap, increment), and the
# class whose value would make the total end in 7 (None when that value is 7 itself).
_SAFE_STEPS = tuple(
    (
        tuple(st[1:4] + st[5:] for st in _STEPS[:SEVEN] if (r + st[4]) % 10 != 7),
        next((st[0] for st in _STEPS[:SEVEN] if (r + st[4]) % 10 == 7), None),
    )
    for r in range(10)
)


# ---- the turn model, vectorised (NumPy optional) ---------------------------------------------


class CaptainSevenLevels:
    """:class:`CaptainSevenTurnModel`'s transitions on arrays of state codes, for the level
    solver (:mod:`pushluck_teach.solve.levels`, whose docstring gives the protocol).  Codes are
    the model's int states.  Each draw fills 15 outcome slots: a leading caught terminal (no
    relic), the 11 value classes in class order, and three trailing caught terminals (the
    queen's one, or the ace's three: the class ending the total in 7, the 7s, the jokers, merged
    where they save the same amount), so the slots of positive weight are, in order, exactly
    :meth:`CaptainSevenTurnModel.transitions`.  The level is twice the cards out, plus one
    unless the state is a queen choice (which leads to the draw-or-stash state of the same
    cards): it grows along every transition."""

    actions = (STOP, DRAW, CAUGHT, NO_QUEEN, QUEEN, JACK)

    def __init__(self, numpy: Any, model: CaptainSevenTurnModel | None = None) -> None:
        self.np = numpy
        self.model = model
        self._bad_class = numpy.array(
            [next((c for c in range(SEVEN) if (r + CLASS_VALUES[c]) % 10 == 7), -1)
             for r in range(10)], numpy.int64)
        self._class_values = numpy.array(CLASS_VALUES, numpy.int64)
        self._class_steps = numpy.array([st[5] for st in _STEPS], numpy.int64)
        # cards out per bit pattern: classes 0-5 (bits 0-17) and classes 6-10 (bits 18-33)
        low = numpy.arange(1 << 18, dtype=numpy.int64)
        high = numpy.arange(1 << 16, dtype=numpy.int64) << 18
        self._cards_low = sum((low >> _SHIFTS[c]) & _MASKS[c] for c in range(6))
        self._cards_high = sum((high >> _SHIFTS[c]) & _MASKS[c] for c in range(6, 11))
        self._last_kinds: tuple[Any, Any] = (None, None)

    def code(self, state: Any) -> int | None:
        return state if isinstance(state, int) else None

    def estimated_states(self, state: int) -> int | None:
        """The states a level solve from ``state`` stores
        (:meth:`CaptainSevenTurnModel.estimated_states` with ``stored``)."""
        return None if self.model is None else self.model.estimated_states(state, stored=True)

    def _cards_out(self, codes: Any) -> Any:
        """Cards out of the deck per code (every class), as ``int64``."""
        return self._cards_low[codes & 0x3FFFF] + self._cards_high[(codes >> 18) & 0xFFFF]

    def level(self, codes: Any) -> Any:
        cards = self._cards_out(codes)
        choice = ((codes >> 37) & 1) * (((codes >> _RELIC_SHIFT) & 3) == RELIC_QUEEN)
        return 2 * cards + 1 - choice

    def is_terminal(self, codes: Any) -> Any:
        return codes < 0

    def inline(self, codes: Any) -> Any:
        """The choices right after a draw, valued where they occur and never stored:
        a queen choice (the best of two successors: from the turn start 11.4 of 13.5 million
        states), and with an unspent jack the choice after a card that did not catch you and
        the one after a card that did (most of the 60 million states of a jack turn)."""
        relic = (codes >> _RELIC_SHIFT) & 3
        after_draw = ((codes & (HAS_LAST | STARTED)) == (HAS_LAST | STARTED)) & (
            (relic == RELIC_QUEEN) | (relic == RELIC_JACK))
        return (codes >= 0) & (after_draw | ((codes & PENDING) != 0))

    def _inline_kinds(self, codes: Any) -> tuple[Any, Any, Any]:
        """Masks of inline codes: queen choices, jack choices after a safe card, pending."""
        pending = (codes & PENDING) != 0
        queen = ~pending & (((codes >> _RELIC_SHIFT) & 3) == RELIC_QUEEN)
        return queen, ~pending & ~queen, pending

    def _jack_bases(self, codes: Any) -> Any:
        """The state the jack's redraw draws from: the last card out, its value taken back
        (a discarded first card: the turn starts again), the jack spent."""
        np = self.np
        last = (codes >> _LAST_SHIFT) & 15
        redraw = (codes & ~(_RELIC_BITS | _LAST_BITS)) - (last << _TOTAL_SHIFT)
        redraw = np.where((codes & LAST_FIRST) != 0, redraw & ~STARTED, redraw)
        return np.where((codes & PENDING) != 0,
                        codes & ~(PENDING | _RELIC_BITS | _LAST_BITS), redraw)

    def inline_successors(self, codes: Any) -> Any:
        """What :meth:`inline_values` reads: a queen choice's two successors; a jack choice's
        draw-or-stash state of the same cards (its draw is the choice's draw: see
        :meth:`inline_values`); and the redraw's outcomes where they are not all proved stops
        (:meth:`_redraw_values`)."""
        np = self.np
        queen, jack, _ = self._inline_kinds(codes)
        parts = [codes[queen | jack] & ~_LAST_BITS]
        if queen.any():
            parts.append(self.transitions(codes[queen], QUEEN)[2][:, 0])
        bases = self._jack_bases(codes[~queen])
        general = bases[~self._redraw_stops(bases)]
        if len(general):
            weights, successors = self._draw(general)
            parts.append(successors[weights > 0])
        return np.concatenate(parts)

    def _redraw_stops(self, bases: Any) -> Any:
        """Where every outcome of a draw from ``bases`` (no relic) is a turn end or a proved
        stop: stopping is proved at the base itself (``pool ≤ c·t``; a safe card of value ``v``
        leaves ``pool − v ≤ c·(t + v)``: module docstring, "Pruning")."""
        pool = FULL_POOL - ((bases >> _OUTV_SHIFT) & 511)
        catchers = 6 - ((bases >> 29) & 7) - ((bases >> 32) & 3)
        return ((bases & STARTED) != 0) & (pool <= catchers * (bases >> _TOTAL_SHIFT))

    def _redraw_values(self, bases: Any, context: Any) -> Any:
        """``Q`` of the jack's redraw from each base (the spent-jack state it draws from).
        Where every outcome is a turn end or a proved stop the mean is ``Σ left·(t+v) / n``
        over the safe classes (exact integers: the same float as the slot-by-slot sum);
        elsewhere the draw's slots are read through ``context``."""
        np = self.np
        values = np.empty(len(bases), dtype=np.float64)
        closed = self._redraw_stops(bases)
        if closed.any():
            known = bases[closed]
            total = known >> _TOTAL_SHIFT
            ending = total % 10
            acc = np.zeros(len(known), np.int64)
            for _, shift, mask, cap, value, _step in _STEPS[:SEVEN]:
                left = (cap - ((known >> shift) & mask)) * (total + value)
                left[ending == (17 - value) % 10] = 0  # the class that ends the total in 7
                acc += left
            values[closed] = acc / (DECK_SIZE - self._cards_out(known))
        general = ~closed
        if general.any():
            weights, successors = self._draw(bases[general])
            values[general] = context.expect(weights, successors)
        return values

    def inline_values(self, codes: Any, context: Any) -> Any:
        """``V`` of inline codes, as the recursion takes the best action in tie order.
        A queen choice: ``no-queen`` (the draw-or-stash state), then ``relic:queen``.  A jack
        choice after a safe card: ``stop``, ``draw``, ``relic:jack``; its draw has the same
        outcomes as the draw of the draw-or-stash state ``P`` of the same cards (the last card
        only matters to the jack), and ``V(P)`` is the better of ``stop`` and that draw under
        the same tie rule, so ``V(P)`` stands for the draw.  After a catching card: ``caught``
        (0), then ``relic:jack``."""
        np = self.np
        values = np.empty(len(codes), dtype=np.float64)
        better = context.better
        queen, jack, pending = self._inline_kinds(codes)
        if queen.any():
            rows = codes[queen]
            keep = context.value_of(rows & ~_LAST_BITS)
            doubled = context.value_of(self.transitions(rows, QUEEN)[2][:, 0])
            values[queen] = np.where(better(doubled, keep), doubled, keep)
        if jack.any():
            rows = codes[jack]
            value = (rows >> _TOTAL_SHIFT).astype(np.float64)
            # P: neither a turn end nor inline, nor a proved stop (its numbers are the choice's)
            drawn = context.lookup(rows & ~_LAST_BITS)
            value = np.where(better(drawn, value), drawn, value)
            # The redraw never beats stopping where its base is a proved stop (module
            # docstring, "Pruning"): it is only valued elsewhere.
            bases = self._jack_bases(rows)
            open_ = ~self._redraw_stops(bases)
            if open_.any():
                redraw = self._redraw_values(bases[open_], context)
                kept = value[open_]
                value[open_] = np.where(better(redraw, kept), redraw, kept)
            values[jack] = value
        if pending.any():
            rows = codes[pending]
            redraw = self._redraw_values(self._jack_bases(rows), context)
            values[pending] = np.where(better(redraw, 0.0), redraw, 0.0)
        return values

    def payoff(self, codes: Any) -> Any:
        return ((-codes - 1) // 2).astype(self.np.float64)

    def _kinds(self, codes: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Masks: pending jack choice, not started, draw-or-stash, jack decision, queen
        choice (the branches of :meth:`CaptainSevenTurnModel.actions`).  The level solver asks
        for the same array's masks once per action: the last answer is kept (with its array,
        so a new array is never mistaken for it)."""
        last_codes, last_kinds = self._last_kinds
        if last_codes is codes:
            return last_kinds
        pending = (codes & PENDING) != 0
        started = ~pending & ((codes & STARTED) != 0)
        last = (codes & HAS_LAST) != 0
        jack = ((codes >> _RELIC_SHIFT) & 3) == RELIC_JACK
        kinds = (pending, ~pending & ~started, started & ~last, started & last & jack,
                 started & last & ~jack)
        self._last_kinds = (codes, kinds)  # one assignment: a reader on another thread sees
        return kinds                        # the old pair or the new one, never half of each

    def stop_value(self, codes: Any) -> Any:
        np = self.np
        _, _, plain, jack, _ = self._kinds(codes)
        return np.where(plain | jack, (codes >> _TOTAL_SHIFT).astype(np.float64), np.nan)

    def stop_is_optimal(self, codes: Any) -> Any:
        """:meth:`CaptainSevenTurnModel.stop_is_optimal`, row by row (same integers)."""
        np = self.np
        total = codes >> _TOTAL_SHIFT
        pool = FULL_POOL - ((codes >> _OUTV_SHIFT) & 511)
        sevens_out = (codes >> 29) & 7
        catchers = 6 - sevens_out - ((codes >> 32) & 3)
        relic = (codes >> _RELIC_SHIFT) & 3
        # Each relic's rule only where it is held (a level mostly holds one kind, or a relic
        # and the states where it is spent); the no-relic rule (a king, a spent relic) is
        # left out when every row holds one relic.
        rule: Any = None
        for kind in (RELIC_ACE, RELIC_QUEEN, RELIC_JACK):
            rows = relic == kind
            held_rows = int(np.count_nonzero(rows))
            if not held_rows:
                continue
            every = held_rows == len(codes)
            if rule is None and not every:
                rule = pool <= catchers * total
            part: Any = slice(None) if every else rows
            t, p, c = total[part], pool[part], catchers[part]
            if kind == RELIC_JACK:  # its rule needs the cards left: on its rows only
                n = DECK_SIZE - self._cards_out(codes[part])
                # (c·t − p)(n − 1 + c) ≥ c·n·t  ⟺  n·p ≤ (c − 1)(c·t − p)
                held = (p <= (c - 1) * (t - 10)) & (n * p <= (c - 1) * (c * t - p))
            elif kind == RELIC_ACE:
                held = 3 * p + 7 * (4 - sevens_out[part]) <= 2 * c * t
            else:
                held = 2 * p <= c * t  # the queen
            if every:
                rule = held
            else:
                rule[rows] = held
        if rule is None:
            rule = pool <= catchers * total  # no relic (or a king, or a spent one)
        return ((codes & (PENDING | STARTED)) == STARTED) & rule  # live: started, not pending

    def transitions(self, codes: Any, action: str) -> tuple[Any, Any, Any]:
        np = self.np
        pending, fresh, plain, jack, queen = self._kinds(codes)
        n = len(codes)
        if action == DRAW:
            legal = fresh | plain | jack
            if not legal.any():  # a level of queen choices, say: no draw arrays to build
                return legal, np.zeros((n, 1), np.int64), np.zeros((n, 1), np.int64)
            return legal, *self._draw(codes)
        if action == CAUGHT:
            return pending, np.ones((n, 1), np.int64), np.full((n, 1), _CAUGHT_NOTHING, np.int64)
        if action == NO_QUEEN:
            return queen, np.ones((n, 1), np.int64), (codes & ~_LAST_BITS)[:, None]
        if action == QUEEN:
            last = (codes >> _LAST_SHIFT) & 15
            total = (codes >> _TOTAL_SHIFT) + last
            doubled = (codes & ~(_RELIC_BITS | _LAST_BITS)) + (last << _TOTAL_SHIFT)
            caught_now = ((codes & LAST_FIRST) == 0) & (total % 10 == 7)
            nxt = np.where(caught_now, _CAUGHT_NOTHING, doubled)
            return queen, np.ones((n, 1), np.int64), nxt[:, None]
        if action == JACK:
            last = (codes >> _LAST_SHIFT) & 15
            redraw = (codes & ~(_RELIC_BITS | _LAST_BITS)) - (last << _TOTAL_SHIFT)
            redraw = np.where((codes & LAST_FIRST) != 0, redraw & ~STARTED, redraw)
            base = np.where(pending, codes & ~(PENDING | _RELIC_BITS | _LAST_BITS), redraw)
            return pending | jack, *self._draw(base)
        raise IllegalActionError(f"action {action!r} is not a Captain Seven action")

    def _draw(self, codes: Any) -> tuple[Any, Any]:
        """:meth:`CaptainSevenTurnModel._draw` on every code: ``(weights, successors)`` of
        shape ``(n, 15)`` (views of ``(15, n)`` arrays: each slot is contiguous)."""
        np = self.np
        relic = (codes >> _RELIC_SHIFT) & 3
        started = (codes & STARTED) != 0
        kinds = [(kind, started & (relic == kind)) for kind in range(4)]
        kinds.append((None, ~started))
        weights = successors = None
        for kind, rows in kinds:
            if not rows.any():
                continue
            if rows.all():
                return tuple(a.T for a in self._draw_kind(kind, codes))  # type: ignore[return-value]
            if weights is None:
                weights = np.zeros((15, len(codes)), np.int64)
                successors = np.zeros((15, len(codes)), np.int64)
            w, nxt = self._draw_kind(kind, codes[rows])
            weights[:, rows] = w
            successors[:, rows] = nxt
        if weights is None:
            weights = successors = np.zeros((15, 0), np.int64)
        return weights.T, successors.T

    def _draw_kind(self, kind: int | None, codes: Any) -> tuple[Any, Any]:
        """One draw from codes of one kind (``None``: the first card; else the unspent relic
        after the first card), as ``(15, m)`` weights and successors."""
        np = self.np
        m = len(codes)
        weights = np.empty((15, m), np.int64)
        successors = np.zeros((15, m), np.int64)
        base = codes & ~_LAST_BITS
        for cls, shift, mask, cap, _, step in _STEPS:
            weights[1 + cls] = cap - ((codes >> shift) & mask)
            successors[1 + cls] = base + step
        if kind is None:  # the first card never catches; a jack or queen remembers it
            relic = (codes >> _RELIC_SHIFT) & 3
            successors[1:12] += STARTED
            for cls in range(11):
                value = CLASS_VALUES[cls]
                marked = (relic == RELIC_JACK) | ((relic == RELIC_QUEEN) & (value > 0))
                successors[1 + cls] += np.where(
                    marked, HAS_LAST | LAST_FIRST | (value << _LAST_SHIFT), 0)
            weights[0] = weights[12] = weights[13] = weights[14] = 0
            return weights, successors
        total = codes >> _TOTAL_SHIFT
        bad = self._bad_class[total % 10]  # the class ending the total in 7, -1: none
        rows = np.flatnonzero(bad >= 0)
        slot = bad[rows] + 1
        left_bad = weights[slot, rows]
        if kind in (RELIC_JACK, RELIC_QUEEN):
            for cls in range(SEVEN):
                successors[1 + cls] += HAS_LAST | (CLASS_VALUES[cls] << _LAST_SHIFT)
        if kind == RELIC_JACK:  # a catching card waits for the jack, its value not counted
            for cls in (SEVEN, JOKER_CLASS):
                successors[1 + cls] += PENDING - (CLASS_VALUES[cls] << _TOTAL_SHIFT)
            value = self._class_values[slot - 1]
            successors[slot, rows] = (base[rows] + self._class_steps[slot - 1]
                                      - (value << _TOTAL_SHIFT)) | PENDING
            weights[0] = weights[12] = weights[13] = weights[14] = 0
            return weights, successors
        sevens = weights[1 + SEVEN].copy()
        jokers = weights[1 + JOKER_CLASS].copy()
        weights[1 + SEVEN] = weights[1 + JOKER_CLASS] = 0
        weights[slot, rows] = 0
        weights[0] = weights[12] = weights[13] = weights[14] = 0
        successors[0] = successors[12] = _CAUGHT_NOTHING
        if kind != RELIC_ACE:
            lost = sevens + jokers
            lost[rows] += left_bad
            weights[0 if kind == RELIC_NONE else 12] = lost
            return weights, successors
        # the ace: a third of the lost total, by catching card, merged where equal (in the
        # order the model's dict meets them: the class ending the total in 7, 7s, jokers)
        w_bad = np.zeros(m, np.int64)
        w_bad[rows] = left_bad
        bad_value = np.zeros(m, np.int64)
        bad_value[rows] = self._class_values[slot - 1]
        keys = (caught_codes(total + bad_value), caught_codes(total + 7), caught_codes(total))
        seven_to_bad = (w_bad > 0) & (keys[1] == keys[0])
        joker_to_bad = (w_bad > 0) & (keys[2] == keys[0])
        joker_to_seven = ~joker_to_bad & (sevens > 0) & (keys[2] == keys[1])
        weights[12] = w_bad + np.where(seven_to_bad, sevens, 0) + np.where(joker_to_bad, jokers, 0)
        weights[13] = np.where(seven_to_bad, 0, sevens) + np.where(joker_to_seven, jokers, 0)
        weights[14] = np.where(joker_to_bad | joker_to_seven, 0, jokers)
        successors[12], successors[13], successors[14] = keys
        return weights, successors


def caught_codes(lost: Any) -> Any:
    """The caught terminal saving a third of ``lost`` (an int or an array)."""
    return -(2 * (lost // 3) + 2)


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


# ---- turn model ------------------------------------------------------------------------------


def _parse_relic(relic: str | None) -> str | None:
    if relic is None:
        return None
    text = str(relic).strip().upper()
    if text in ("", "NONE", "-"):
        return None
    names = {"ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K", "1": "A"}
    text = names.get(text, text)
    if text not in RELIC_RANKS:
        raise PositionError(f"bad relic {quoted(relic)}: a relic is A, J, Q or K")
    return text


@dataclass(frozen=True)
class CaptainSevenTurnModel(TurnModel[int]):
    """One Captain Seven turn as an exact MDP over int-encoded states (module docstring).

    ``relic`` is the relic held at the turn start (``None``, ``"A"``, ``"J"``, ``"Q"`` or
    ``"K"``); ``out`` counts the cards out of the deck before the turn's first draw, per class
    (relics held, yours included); ``start_state`` is the position the model was built for.
    """

    game = GAME
    variant: CaptainSevenVariant = field(default_factory=CaptainSevenVariant)
    relic: str | None = None
    out: tuple[int, ...] = (0,) * 11
    start_state: int | None = None

    def __post_init__(self) -> None:
        relic = _parse_relic(self.relic)
        if relic is not None and not self.variant.relics:
            raise PositionError("a relic needs the relics option (--option relics=true)")
        object.__setattr__(self, "relic", relic)
        if len(self.out) != 11:
            raise PositionError("out must count 11 value classes")

    @property
    def relic_code(self) -> int:
        return _RELIC_CODES[self.relic]

    @property
    def start(self) -> int:
        if self.start_state is not None:
            return self.start_state
        return encode_state(self.out, 0, started=False, relic=self.relic_code)

    # ---- the MDP ------------------------------------------------------------------------
    def actions(self, state: int) -> tuple[str, ...]:
        if state < 0:
            return ()
        if state & PENDING:
            return _PENDING_ACTIONS
        if not state & STARTED:
            return _DRAW_ONLY
        if not state & HAS_LAST:
            return _DRAW_STOP
        if (state >> _RELIC_SHIFT) & 3 == RELIC_JACK:
            return _JACK_ACTIONS
        return _QUEEN_ACTIONS

    def transitions(self, state: int, action: str) -> list[tuple[int, int]]:
        if state < 0:
            raise IllegalActionError("the turn is over")
        if action == DRAW and not state & PENDING:
            return self._draw(state)
        total = state >> _TOTAL_SHIFT
        if action == STOP and state & STARTED and not state & PENDING:
            return [(1, stopped(total))]
        if action == CAUGHT and state & PENDING:
            return [(1, caught(0))]
        if action == JACK and (state >> _RELIC_SHIFT) & 3 == RELIC_JACK:
            if state & PENDING:
                base = state & ~(PENDING | _RELIC_BITS | _LAST_BITS)
                return self._draw(base)
            if state & HAS_LAST:
                last = (state >> _LAST_SHIFT) & 15
                base = state & ~(_RELIC_BITS | _LAST_BITS)
                base -= last << _TOTAL_SHIFT
                if state & LAST_FIRST:
                    base &= ~STARTED
                return self._draw(base)
        if action == NO_QUEEN and state & HAS_LAST and (state >> _RELIC_SHIFT) & 3 == RELIC_QUEEN:
            return [(1, state & ~_LAST_BITS)]
        if action == QUEEN and state & HAS_LAST and (state >> _RELIC_SHIFT) & 3 == RELIC_QUEEN:
            last = (state >> _LAST_SHIFT) & 15
            new_total = total + last
            if not state & LAST_FIRST and new_total % 10 == 7:
                return [(1, caught(0))]
            base = state & ~(_RELIC_BITS | _LAST_BITS)
            return [(1, base + (last << _TOTAL_SHIFT))]
        raise IllegalActionError(f"action {action!r} is not legal in this Captain Seven state")

    def _draw(self, state: int) -> list[tuple[int, int]]:
        total = state >> _TOTAL_SHIFT
        relic = (state >> _RELIC_SHIFT) & 3
        if state & STARTED and relic == RELIC_NONE:
            # The hot path: the 7s, the jokers and the one value class that would make the
            # total end in 7 all lead to the same caught terminal.
            steps, bad = _SAFE_STEPS[total % 10]
            lost = 6 - ((state >> 29) & 7) - ((state >> 32) & 3)
            if bad is not None:
                lost += CLASS_CAPS[bad] - ((state >> _SHIFTS[bad]) & _MASKS[bad])
            out: list[tuple[int, int]] = [(lost, _CAUGHT_NOTHING)] if lost else []
            for shift, mask, cap, step in steps:
                left = cap - ((state >> shift) & mask)
                if left:
                    out.append((left, state + step))
            return out
        if state & STARTED and relic == RELIC_ACE:
            return self._draw_with_ace(state, total)
        jack = relic == RELIC_JACK
        queen = relic == RELIC_QUEEN
        base = state & ~_LAST_BITS
        first = not state & STARTED
        out = []
        lost: dict[int, int] = {}
        for cls, shift, mask, cap, value, step in _STEPS:
            left = cap - ((state >> shift) & mask)
            if not left:
                continue
            if first:
                nxt = (base + step) | STARTED
                if jack or (queen and value):
                    nxt |= HAS_LAST | LAST_FIRST | (value << _LAST_SHIFT)
                out.append((left, nxt))
            elif cls >= SEVEN or (total + value) % 10 == 7:
                if relic == RELIC_JACK:
                    out.append((left, (base + step - (value << _TOTAL_SHIFT)) | PENDING))
                else:
                    terminal = caught((total + value) // 3 if relic == RELIC_ACE else 0)
                    lost[terminal] = lost.get(terminal, 0) + left
            else:
                nxt = base + step
                if jack or (queen and value):
                    nxt |= HAS_LAST | (value << _LAST_SHIFT)
                out.append((left, nxt))
        out.extend((w, terminal) for terminal, w in lost.items())
        return out

    def _draw_with_ace(self, state: int, total: int) -> list[tuple[int, int]]:
        """The general draw below, specialised to an unspent ace after the first card (its
        hot path: about a million states from the turn start).  Same outcomes in the same
        order: the safe classes in class order, then the caught terminals in the order the
        general loop meets them (the class ending the total in 7, the 7s, the jokers), each
        saving a third of the lost total."""
        steps, bad = _SAFE_STEPS[total % 10]
        out: list[tuple[int, int]] = []
        for shift, mask, cap, step in steps:
            left = cap - ((state >> shift) & mask)
            if left:
                out.append((left, state + step))
        lost: dict[int, int] = {}
        if bad is not None:
            left = CLASS_CAPS[bad] - ((state >> _SHIFTS[bad]) & _MASKS[bad])
            if left:
                lost[caught((total + CLASS_VALUES[bad]) // 3)] = left
        sevens = 4 - ((state >> _SHIFTS[SEVEN]) & 7)
        if sevens:
            terminal = caught((total + 7) // 3)
            lost[terminal] = lost.get(terminal, 0) + sevens
        jokers = 2 - ((state >> _SHIFTS[JOKER_CLASS]) & 3)
        if jokers:
            terminal = caught(total // 3)
            lost[terminal] = lost.get(terminal, 0) + jokers
        out.extend((w, terminal) for terminal, w in lost.items())
        return out

    def payoff(self, terminal: int) -> int:
        return (-terminal - 1) // 2

    def is_bust(self, terminal: int) -> bool:
        """Caught (even when an ace relic saved a third)."""
        return terminal % 2 == 0

    def stop_payoff(self, state: int) -> int | None:
        """Stashing banks the turn total (the shortcut of ``transitions(state, STOP)``)."""
        if state >= 0 and state & STARTED and not state & PENDING:
            return state >> _TOTAL_SHIFT
        return None

    def turn_total(self, state: int) -> int:
        if state < 0:
            return self.payoff(state)
        return state >> _TOTAL_SHIFT

    def stop_is_optimal(self, state: int) -> bool:
        """Proved in the module docstring ("Pruning"), one condition per relic."""
        if state < 0 or state & PENDING or not state & STARTED:
            return False
        total = state >> _TOTAL_SHIFT
        pool = FULL_POOL - ((state >> _OUTV_SHIFT) & 511)
        sevens = 4 - ((state >> 29) & 7)
        catchers = 6 - ((state >> 29) & 7) - ((state >> 32) & 3)
        relic = (state >> _RELIC_SHIFT) & 3
        if relic == RELIC_NONE:
            return pool <= catchers * total
        if relic == RELIC_ACE:
            return 3 * pool + 7 * sevens <= 2 * catchers * total
        if relic == RELIC_QUEEN:
            return 2 * pool <= catchers * total
        others = sum(CLASS_CAPS[c] - _count(state, c) for c in range(9))
        n = others + catchers
        return (pool <= (catchers - 1) * (total - 10)
                and (catchers * total - pool) * (n - 1 + catchers) >= catchers * n * total)

    def level_graph(self) -> Any:
        """The vectorised description of this turn (:class:`CaptainSevenLevels`) for the level
        solver (:mod:`pushluck_teach.solve.levels`); ``None`` without NumPy."""
        try:
            import numpy
        except ImportError:  # pragma: no cover - the in-browser build may lack NumPy
            return None
        return CaptainSevenLevels(numpy, self)

    def shared_table_key(self) -> str | None:
        """Without a relic every turn starts from the full deck, so all such turns share one
        state space (the target and secret stashes do not change a turn): its float solution
        ships with the package (``solve.turn_tables``).  Bump the version with the encoding."""
        if self.relic is None and not any(self.out):
            return "no-relic-full-deck-v1"
        return None

    def shipped_values_model(self) -> CaptainSevenTurnModel:
        return CaptainSevenTurnModel()

    def start_values_key(self) -> str | None:
        """A jack relic's turn start stores 12.4 million states and a queen's 2.06 million
        (seconds each): too many to solve at a click, so the values of their starts ship
        (:meth:`start_value_models`)."""
        return _START_VALUE_KEYS.get(self.relic or "")

    def start_values_draws(self) -> int:
        """The jack: the start and every first card are answered from the table (the first
        card's analysis reads the second card's values: about 440 states a start); from the
        second card on a position is solved (1.5-2.1 million stored states, seconds: the jack's
        turns stay deep, so a deeper table would not bring it under a second).  The queen:
        the start and every position to the third card (its analysis reads the fourth card's
        values: about 6,300 states a start); from the fourth card on a position is solved
        (at most 0.33 million stored states, under a second)."""
        return _START_VALUE_DRAWS.get(self.relic or "", 1)

    def start_value_families(self) -> tuple[CaptainSevenTurnModel, ...]:
        """One model per relic whose turn starts ship their values (the jack, the queen)."""
        variant = CaptainSevenVariant(relics=True)
        return tuple(CaptainSevenTurnModel(variant, relic) for relic in _START_VALUE_KEYS)

    def start_value_models(self) -> tuple[CaptainSevenTurnModel, ...]:
        """This relic's turn starts with up to three other players' relics held (aces and
        10-class cards out of the deck): every one a game of 1-4 players meets."""
        if self.relic not in _START_VALUE_KEYS:
            return ()
        variant = CaptainSevenVariant(relics=True)
        models = []
        for aces in range(4):
            for tens in range(4 - aces):
                out = [0] * 11
                out[0], out[TEN] = aces, 1 + tens  # the jack or queen itself is a 10-class card
                models.append(CaptainSevenTurnModel(variant, self.relic, tuple(out)))
        return tuple(models)

    def start_values_check(self) -> tuple[CaptainSevenTurnModel, int] | None:
        """A deep position of the same relic: the jack at total 120 (37,000 stored states: a
        tenth of a second), the queen at total 40 after four kings (a twentieth)."""
        drawn = _START_VALUE_CHECKS.get(self.relic or "")
        if drawn is None:
            return None
        return captain_seven_position(CaptainSevenVariant(relics=True), relic=self.relic,
                                      drawn=drawn)

    def estimated_states(self, state: int, *, stored: bool = False) -> int | None:
        """About how many states a solve from ``state`` visits (for a refusal up front);
        ``stored``: how many a level solve stores (:class:`CaptainSevenLevels`: its inline
        queen and jack choices are not stored).

        Drawing is worthwhile only while the proved stopping rule of the state's relic
        (:meth:`stop_is_optimal`) fails, i.e. while the value ``d`` drawn from here on stays
        below ``d*`` (no relic: ``(pool − c·t)/(c+1)``; ace: ``(3·pool + 7·c₇ − 2·c·t)/(2c+3)``;
        queen: ``(2·pool − c·t)/(c+2)``; jack: the whole pool).  The solver's states are then
        about the sub-multisets of the non-catching cards left with value sum ``≤ d* + 10``,
        counted exactly by a small dynamic programme, times a factor calibrated on measured
        solves (3.3 from the turn start; after the first card 8.4 without a relic,
        6 with the ace, 5.2 with the queen, 0.7 with the jack; stored by a level solve, 0.8
        with the queen, and 2.0 from a jack's turn start).  Within a factor of about 3.
        """
        if state < 0:
            return 0
        left = self.deck_counts(state)
        total = state >> _TOTAL_SHIFT
        pool = sum(CLASS_VALUES[c] * left[c] for c in range(SEVEN))
        catchers = left[SEVEN] + left[JOKER_CLASS]
        relic = (state >> _RELIC_SHIFT) & 3
        if relic == RELIC_NONE:
            reach = (pool - catchers * total) / (catchers + 1)
        elif relic == RELIC_ACE:
            reach = (3 * pool + 7 * left[SEVEN] - 2 * catchers * total) / (2 * catchers + 3)
        elif relic == RELIC_QUEEN:
            reach = (2 * pool - catchers * total) / (catchers + 2)
        else:
            reach = pool
        limit = max(0, int(reach) + 10)
        ways = [1] + [0] * limit  # ways[s]: sub-multisets with value sum s
        for cls in range(SEVEN):
            value, count = CLASS_VALUES[cls], left[cls]
            new = [0] * (limit + 1)
            for base, w in enumerate(ways):
                if w:
                    for k in range(min(count, (limit - base) // value) + 1):
                        new[base + k * value] += w
            ways = new
        if state & STARTED:
            factor = (8.4, 6.0, 0.7, 0.8 if stored else 5.2)[relic]
        else:
            factor = 2.0 if stored and relic == RELIC_JACK else 3.3
        return int(factor * sum(ways))

    # ---- descriptions ---------------------------------------------------------------------
    def deck_counts(self, state: int) -> tuple[int, ...]:
        """Cards left in the deck per class (``CLASS_LABELS`` order)."""
        return tuple(CLASS_CAPS[c] - _count(state, c) for c in range(11))

    def describe(self, state: int) -> str:
        if state < 0:
            payoff = self.payoff(state)
            if self.is_bust(state):
                return f"caught: {payoff} saved by the ace" if payoff else "caught: turn lost"
            return f"stashed {payoff}"
        left = sum(self.deck_counts(state))
        total = state >> _TOTAL_SHIFT
        if not state & STARTED:
            text = f"turn start, deck {left} cards"
        elif state & PENDING:
            text = f"caught at total {total}; jack relic in hand"
        else:
            text = f"turn total {total}, deck {left} cards"
        relic = (state >> _RELIC_SHIFT) & 3
        if relic:
            text += f", {('', 'ace', 'jack', 'queen')[relic]} relic unspent"
        return text

    def outcome_label(self, state: int, next_state: int) -> str:
        if next_state < 0:
            return "caught (7, joker or a total ending in 7)"
        for cls in range(11):
            if _count(next_state, cls) != _count(state, cls):
                label = CLASS_LABELS[cls]
                # caught, but the unspent jack discards it and draws again: not a bust (the
                # redraw's own risk is in the bust chance)
                return f"{label}: jack redraws" if next_state & PENDING else label
        return self.describe(next_state)


# ---- positions -------------------------------------------------------------------------------

def _doubled_index(doubled: str | None, cards: Sequence[Card], gone: Sequence[Card],
                   relic_rank: str | None) -> int | None:
    """The index in ``cards`` of the card a spent queen relic doubled (``None``: none)."""
    if doubled is None or not str(doubled).strip():
        return None
    named = parse_cards(str(doubled))
    if len(named) != 1:
        raise PositionError(f"--doubled names the one card your queen relic doubled, not "
                            f"{len(named)} cards ({quoted(str(doubled))})")
    card = named[0]
    if card not in cards:
        raise PositionError(f"doubled card {card.code} is not among the drawn cards")
    if relic_rank is not None or not any(c.rank == "Q" for c in gone):
        raise PositionError("a doubled card needs your spent queen relic in --removed (and no "
                            "--relic: you hold none after spending it)")
    if card_value(card) == 0:
        raise PositionError(f"the queen doubles a card worth something, not {card.code}")
    return list(cards).index(card)


#: Relics the other players can hold at once (4 players, one relic each).
OTHER_RELICS_MAX = 3


def _check_removed(gone: Sequence[Card], relic_rank: str | None) -> None:
    """Refuse a ``removed`` list no game can produce (:class:`PositionError`, with the reason).

    With relics, a card is out of the deck during a turn only as a relic held by another player
    (at most :data:`OTHER_RELICS_MAX`, each an A, J, Q or K), as your own relic spent this turn
    (then you hold none, so no ``relic``), or as the one card a spent jack discarded this turn.
    """
    if not gone:
        return
    others = [c for c in gone if c.rank not in RELIC_RANKS]
    jack_spent = relic_rank is None and any(c.rank == "J" for c in gone)
    limit = OTHER_RELICS_MAX + (0 if relic_rank is not None else 1 + int(jack_spent))
    if len(gone) > limit:
        why = ("the other players' relics (3 at most)" if relic_rank is not None else
               "the other players' relics (3 at most), your spent relic and one card a jack "
               "discarded")
        raise PositionError(f"{len(gone)} cards removed, but only {why} can be out of the deck "
                            f"(at most {limit} here)")
    if not others:
        return
    listed = " ".join(c.code for c in others)
    if len(others) > 1:
        raise PositionError(f"cards {listed} cannot all be out of the deck: besides relics "
                            "(A, J, Q, K) only the one card a jack discarded is")
    if not jack_spent:
        raise PositionError(f"card {listed} cannot be out of the deck: it is not a relic (A, J, "
                            "Q, K), and only a spent jack relic (listed in --removed, with no "
                            "--relic) discards a card")



def captain_seven_position(variant: CaptainSevenVariant, *, drawn: Any = None,
                           relic: str | None = None, removed: Any = None,
                           doubled: str | None = None,
                           score: int | None = None, opponent: int | None = None,
                           ) -> tuple[CaptainSevenTurnModel, int]:
    """The turn after ``drawn`` (this turn's cards, in order).

    ``relic`` (``A``/``J``/``Q``/``K``, relics option only) is the relic you hold; its card is
    out of the deck, and a jack or queen is still unspent.  ``removed`` (relics option only):
    cards out of the deck for other reasons: relics held by the other players (or your own,
    spent this turn) and a card a jack discarded this turn.  A card the deck does
    not hold is a :class:`CardError`; a position in which you are already caught is a
    :class:`PositionError`.  ``doubled`` (relics only): the card of ``drawn`` that your queen
    relic doubled this turn (the spent queen is then in ``removed``, and you hold no relic).
    """
    for what, stash in (("score", score), ("opponent", opponent)):
        if stash is not None and (isinstance(stash, bool) or not isinstance(stash, int)
                                  or stash < 0):
            raise PositionError(f"bad {what} {quoted(stash)}: a stash is a whole number 0 or "
                                "more")
    cards = parse_cards(drawn)
    gone = parse_cards(removed)
    relic_rank = _parse_relic(relic)
    if (gone or relic_rank) and not variant.relics:
        raise PositionError(
            "--removed and --relic apply to captain-seven only with the relics option "
            "(each turn starts from the full deck)"
        )
    _check_removed(gone, relic_rank)
    deck = full_deck()
    deck = deck.remove(gone, what="deck (54 cards with 2 jokers)")
    deck = deck.remove(cards, what="deck (54 cards with 2 jokers)")
    out = _class_counts(gone)
    if relic_rank is not None:
        own = next((c for c in deck.distinct() if c.rank == relic_rank), None)
        if own is None:
            raise PositionError(f"no {relic_rank} is left for your relic: all are drawn or removed")
        out[card_class(own)] += 1
    model = CaptainSevenTurnModel(variant, relic_rank, tuple(out))
    doubled_at = _doubled_index(doubled, cards, gone, relic_rank)
    total = 0
    for index, card in enumerate(cards):
        value = card_value(card)
        if index > 0:
            if card.is_joker or card.rank == "7":
                raise PositionError(
                    f"card {card.code} catches you (a 7 or joker after the first card): "
                    "the turn is already over"
                )
            if (total + value) % 10 == 7:
                raise PositionError(
                    f"card {card.code} makes the total {total + value}, which ends in 7: "
                    "you are caught, the turn is already over"
                )
        total += value
        out[card_class(card)] += 1
        if index == doubled_at:
            total += value
            if index > 0 and total % 10 == 7:
                raise PositionError(f"the queen doubles {card.code} to a total of {total}, which "
                                    "ends in 7: you are caught, the turn is already over")
    state = encode_state(
        out, total, started=bool(cards), relic=model.relic_code,
        last=card_value(cards[-1]) if cards else None, last_first=len(cards) == 1,
    )
    model = CaptainSevenTurnModel(variant, relic_rank, model.out, state)
    return model, state


# ---- engine ----------------------------------------------------------------------------------


class CaptainSevenEngine(Engine):
    """Captain Seven for 1-4 players (1 = solo practice), every option of docs/rules.md."""

    game = GAME

    def __init__(self, variant: CaptainSevenVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: CaptainSevenVariant = variant
        self.stashes = [0] * players
        self.relics: list[Card | None] = [None] * players
        self.turns_taken = [0] * players
        self._player = 0
        self._actor = 0
        self.final_round = False
        self._final_queue: list[int] = []
        self._over = False
        self._begin_turn()

    # ---- turn state ---------------------------------------------------------------------
    def _begin_turn(self, out: list[str] | None = None) -> None:
        held = [c for c in self.relics if c is not None]
        self.relics_at_start = tuple(held)
        self._turn_out = tuple(_class_counts(held))
        self.pile = list(full_deck().remove(held).cards()) if held else list(_ALL_CARDS)
        self.rng.shuffle(self.pile)
        self.hand: list[Card] = []
        self.discarded: list[Card] = []
        self.doubled: Card | None = None  # the card the queen relic doubled this turn
        self.drawn_log: list[Card] = []
        self.total = 0
        self.started = False
        self.last: tuple[int, bool] | None = None  # (value, was the first card)
        self.pending: Card | None = None
        self.caught_by: Card | None = None  # the card that caught this turn, once it has
        self.phase = "play"
        self._king_queue: list[int] = []
        self._actor = self._player
        self.turn_relic = self.relics[self._player]
        self.relic_live = self.turn_relic is not None and self.turn_relic.rank in ("A", "J", "Q")
        self._say(f"Player {self._player + 1}'s turn.", [] if out is None else out)

    @property
    def current_player(self) -> int:
        return self._actor

    def scores(self) -> tuple[int, ...]:
        return tuple(self.stashes)

    def _live_rank(self) -> str | None:
        if self.relic_live and self.turn_relic is not None:
            return self.turn_relic.rank
        return None

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self.phase == "king":
            return (PASS, KING)
        if self.phase == "pending":
            return (CAUGHT, JACK)
        if self.phase == "queen":
            return (NO_QUEEN, QUEEN)
        if not self.started:
            return (DRAW,)
        actions = [DRAW, STOP]
        rank = self._live_rank()
        if rank == "J" and self.last is not None:
            actions.append(JACK)
        if self.variant.relics:
            seen = set()
            for card in self.hand:
                if card.rank in RELIC_RANKS and card.code not in seen:
                    seen.add(card.code)
                    actions.append(KEEP + card.code)
        return tuple(actions)

    def action_label(self, action: str) -> str:
        if action.startswith(KEEP):
            return f"Stash, keep {parse_card(action[len(KEEP):]).label} as relic"
        return {
            DRAW: "Draw", STOP: "Stash", JACK: "Jack relic: discard and redraw",
            QUEEN: "Queen relic: double that card", NO_QUEEN: "Keep the queen",
            CAUGHT: "Accept: caught",
            KING: "King relic: throw it back", PASS: "Pass",
        }.get(action, action)

    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        me = f"Player {self._player + 1}"
        if action == DRAW:
            self._draw(out)
        elif action == STOP or action.startswith(KEEP):
            keep = None
            if action.startswith(KEEP):
                keep = next(c for c in self.hand if c.code == action[len(KEEP):])
            self._stash(keep, out)
        elif action == CAUGHT:
            assert self.pending is not None
            self._caught(self.total + card_value(self.pending), out)
        elif action == JACK:
            self.relic_live = False
            self.relics[self._player] = None
            if self.phase == "pending":
                assert self.pending is not None
                card = self.pending
                self.pending = None
            else:
                card = self.hand.pop()
                assert self.last is not None
                self.total -= self.last[0]
                if self.last[1]:
                    self.started = False
            self.discarded.append(card)
            self.last = None
            self.phase = "play"
            self._say(f"{me} plays the jack relic: discards {card.label} and draws again.", out)
            self._draw(out)
        elif action == QUEEN:
            assert self.last is not None
            value, first = self.last
            self.relic_live = False
            self.relics[self._player] = None
            self.total += value
            self.doubled = self.hand[-1]
            self.last = None
            self.phase = "play"
            self._say(f"{me} plays the queen relic: the card counts twice, total {self.total}.",
                      out)
            if not first and self.total % 10 == 7:
                self._say(f"{me}'s total ends in 7: caught!", out)
                self._caught(self.total, out)
        elif action == NO_QUEEN:
            self.last = None
            self.phase = "play"
        elif action == PASS:
            self._king_queue.pop(0)
            self._next_king_or_play()
        elif action == KING:
            holder = self._king_queue.pop(0)
            self.relics[holder] = None
            card = self.hand.pop()
            assert self.last is not None
            self.total -= self.last[0]
            if self.last[1]:
                self.started = False
            self.last = None
            self.pile.append(card)
            self.rng.shuffle(self.pile)
            self._say(f"Player {holder + 1} plays the king relic: {me} throws {card.label} back "
                      "and draws again.", out)
            self.phase = "play"
            self._actor = self._player
            self._draw(out)
        return out

    def _draw(self, out: list[str]) -> None:
        card = self.pile.pop()
        self._turned_up(card.code)
        self.drawn_log.append(card)
        value = card_value(card)
        me = f"Player {self._player + 1}"
        first = not self.started
        if not first and (card.rank in ("7", JOKER_RANK) or (self.total + value) % 10 == 7):
            reason = "a seven" if card.rank == "7" else (
                "a joker" if card.is_joker else f"the total {self.total + value} ends in 7")
            self._say(f"{me} draws {card.label}: {reason}, caught!", out)
            if self._live_rank() == "J":
                self.pending = card
                self.last = None
                self.phase = "pending"
                return
            self.caught_by = card
            self._caught(self.total + value, out)
            return
        self.hand.append(card)
        self.total += value
        self.started = True
        self.last = (value, first)
        self._say(f"{me} draws {card.label}: turn total {self.total}.", out)
        self._king_queue = []
        if self.variant.relics:
            for k in range(1, self.players):
                other = (self._player + k) % self.players
                held = self.relics[other]
                if held is not None and held.rank == "K":
                    self._king_queue.append(other)
        self._next_king_or_play()

    def _next_king_or_play(self) -> None:
        if self._king_queue:
            self.phase = "king"
            self._actor = self._king_queue[0]
        else:
            queen = self._live_rank() == "Q" and self.last is not None and self.last[0] > 0
            self.phase = "queen" if queen else "play"
            self._actor = self._player

    def _caught(self, lost: int, out: list[str]) -> None:
        me = f"Player {self._player + 1}"
        saved = 0
        if self._live_rank() == "A" and lost // 3 >= 1:
            saved = lost // 3
            self.relics[self._player] = None
            self.relic_live = False
            self.stashes[self._player] += saved
            self._say(f"{me} plays the ace relic: {saved} of the lost {lost} still go to the "
                      "stash.", out)
        else:
            self._say(f"{me} loses {lost} doubloons.", out)
        self._end_turn(saved, True, out)

    def _stash(self, keep: Card | None, out: list[str]) -> None:
        me = f"Player {self._player + 1}"
        banked = self.total
        self.stashes[self._player] += banked
        shown = "" if self._secret() else f": stash {self.stashes[self._player]}"
        self._say(f"{me} stashes {banked}{shown}.", out)
        if keep is not None:
            old = self.relics[self._player]
            self.relics[self._player] = keep
            swap = f" ({old.label} goes back to the deck)" if old is not None else ""
            self._say(f"{me} keeps {keep.label} as relic{swap}.", out)
        self._end_turn(banked, False, out)

    def _secret(self) -> bool:
        return self.variant.secret_stash and not self.final_round

    def _end_turn(self, result: int, busted: bool, out: list[str]) -> None:
        player = self._player
        cards = tuple(self.drawn_log)
        self.turn_records.append(TurnRecord(player, result, busted, cards,
                                            note=" ".join(c.code for c in cards)))
        self.turns_taken[player] += 1
        target = self.variant.target
        if self.final_round:
            if self._final_queue and self._final_queue[0] == player:
                self._final_queue.pop(0)
        elif self.stashes[player] >= target:
            self.final_round = True
            order = [(player + k) % self.players for k in range(1, self.players)]
            self._final_queue = [q for q in order if self.stashes[q] < target]
            self._say(f"Player {player + 1} reaches {target} with {self.stashes[player]}: "
                      "final round.", out)
        if self.final_round and not self._final_queue:
            self._over = True
            best = max(self.stashes)
            names = " and ".join(f"Player {w + 1}" for w in self.winners())
            verb = "share the win" if len(self.winners()) > 1 else "wins"
            self._say(f"{names} {verb} with {best}.", out)
            return
        self._player = self._final_queue[0] if self.final_round else (player + 1) % self.players
        self._begin_turn(out)

    # ---- views ----------------------------------------------------------------------------
    def view(self, viewer: int | None = None) -> TableView:
        """The table as ``viewer`` (default: the player to move) sees it.  With the secret stash
        option the other players' stashes are ``None`` until someone reaches the target."""
        viewer = self._actor if viewer is None else viewer
        secret = self._secret()
        scores: tuple[Any, ...] = tuple(
            None if secret and i != viewer else s for i, s in enumerate(self.stashes)
        )
        lines = []
        for i in range(self.players):
            row = ["stash hidden" if secret and i != viewer else f"stash {self.stashes[i]}"]
            if self.variant.relics:
                relic = self.relics[i]
                row.append(f"relic {relic.label}" if relic is not None else "no relic")
            lines.append(tuple(row))
        turn_lines = [f"Cards this turn: {' '.join(c.label for c in self.hand) or 'none yet'}"]
        if self.discarded:
            turn_lines.append(f"Discarded: {' '.join(c.label for c in self.discarded)}")
        if self.pending is not None:
            turn_lines.append(f"Caught by {self.pending.label}: accept, or play the jack")
        if self.phase == "king":
            turn_lines.append(f"Player {self._actor + 1} may play the king relic on "
                              f"Player {self._player + 1}'s card")
        finished = ""
        if self._over:
            names = ", ".join(f"Player {w + 1}" for w in self.winners())
            finished = f"{names} {'share the win' if len(self.winners()) > 1 else 'wins'} " \
                       f"with {max(self.stashes)}."
        rounds = f"First to {self.variant.target} triggers the final round"
        if self.final_round:
            rounds = "Final round"
        return TableView(
            scores=scores,
            current_player=self._actor,
            turn_cards=tuple(self.hand),
            turn_total=self.total,
            turn_lines=tuple(turn_lines),
            player_lines=tuple(lines),
            draw_pile=len(self.pile),
            discard_pile=len(self.discarded),
            round_text=rounds,
            finished_text=finished,
        )

    def position_flags(self) -> dict[str, str]:
        """``pushluck odds`` flags for the turn: ``drawn`` (the cards counting now) and, with
        relics, ``relic`` (yours, if unspent) and ``removed`` (the other relics held at the turn
        start, your spent relic, a card a jack discarded) and ``doubled`` (the card your queen
        relic doubled this turn).  A pending queen or jack choice on the last card is shown as
        still open."""
        flags: dict[str, str] = {}
        if self.hand:
            flags["drawn"] = " ".join(c.code for c in self.hand)
        if self.variant.relics:
            own = self.turn_relic
            gone = [c for c in self.relics_at_start if c is not own]
            if own is not None and not self.relic_live:
                gone.append(own)
            gone.extend(self.discarded)
            if self.relic_live and own is not None:
                flags["relic"] = own.rank  # an A, J or Q not spent yet (a king is never live)
            if gone:
                flags["removed"] = " ".join(c.code for c in gone)
            if self.doubled is not None and self.doubled in self.hand:
                flags["doubled"] = self.doubled.code
        return flags

    @property
    def scores_hidden(self) -> bool:
        return bool(self.variant.secret_stash)

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The deck this turn: the draw pile, this turn's cards, a card awaiting a relic choice,
        the cards a jack discarded, the card that caught the turn (seen once the game ends on
        it) and the relics held at the turn start (out all turn)."""
        return {
            "draw pile": tuple(self.pile),
            "this turn": tuple(self.hand),
            "pending": (self.pending,) if self.pending is not None else (),
            "discarded": tuple(self.discarded),
            "caught the turn": (self.caught_by,) if self.caught_by is not None else (),
            "relics held at the turn start": tuple(self.relics_at_start),
        }

    def decision_in_turn_model(self) -> bool:
        """The king window (another player may play a king relic) is outside the turn model."""
        return self.phase != "king"

    @property
    def turn_player(self) -> int:
        """The drawer (in a king window the player to move is a king holder)."""
        return self._player

    def turn_position(self) -> tuple[CaptainSevenTurnModel, int]:
        """The mover's turn as ``(model, state)``.  In a king window this is the drawer's turn
        (the model does not cover king play)."""
        relic_rank = self.turn_relic.rank if self.turn_relic is not None else None
        # Relics held at the turn start stay out of the deck all turn, even once spent.
        model = CaptainSevenTurnModel(self.variant, relic_rank, self._turn_out)
        last, first = self.last if self.last is not None else (None, False)
        state = self._encode(self.hand, self.total, self.started, last, first)
        return model, state

    def _encode(self, hand: Sequence[Card], total: int, started: bool, last: int | None,
                first: bool) -> int:
        relic_rank = self.turn_relic.rank if self.turn_relic is not None else None
        turn = _class_counts([*hand, *self.discarded,
                              *([self.pending] if self.pending is not None else [])])
        out = [a + b for a, b in zip(self._turn_out, turn, strict=True)]
        code = _RELIC_CODES[relic_rank] if self.relic_live else RELIC_NONE
        return encode_state(out, total, started=started, relic=code, last=last,
                            last_first=first, pending=self.pending is not None)

    def outside_choices(self) -> tuple[OutsideChoice, ...]:
        """The king window: ``pass`` leaves the drawer at the position now; ``king`` puts the
        card back (the position before it) and the drawer must draw."""
        if self.phase != "king" or self.last is None:
            return ()
        _model, now = self.turn_position()
        value, first = self.last
        before = self._encode(self.hand[:-1], self.total - value, not first, None, False)
        return (OutsideChoice(PASS, now), OutsideChoice(KING, before, DRAW))


SPEC = register(GameSpec(
    name=GAME,
    title="Captain Seven's Doubloons",
    variant_cls=CaptainSevenVariant,
    engine_cls=CaptainSevenEngine,
    position=captain_seven_position,
    deck=lambda variant: _ALL_CARDS,
    position_flags=(DRAWN, REMOVED, Flag("relic", "the relic held (A, J, Q or K), with relics"),
                    Flag("doubled", "the card your queen relic doubled this turn, with relics"),
                    Flag("score", "your stash (for --objective win)", whole_number),
                    Flag("opponent", "the other player's stash (for --objective win)",
                         whole_number)),
    whole_game="pushluck_teach.solve.whole_game.captain_seven",
    example={"drawn": "Kh Tc 5d"},
    lab=("compare",),
    min_players=1,
    max_players=4,
    presets={
        "standard": CaptainSevenVariant(),
        "short": CaptainSevenVariant(target=75),
        "long": CaptainSevenVariant(target=150),
        "marathon": CaptainSevenVariant(target=200),
        "atlantic": CaptainSevenVariant(target=1000),
        "relics": CaptainSevenVariant(relics=True),
        "secret-stash": CaptainSevenVariant(secret_stash=True),
    },
    blurb="Draw cards for doubloons; a 7, a joker or a total ending in 7 loses the turn.",
))
