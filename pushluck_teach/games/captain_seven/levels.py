r"""Captain Seven's state codes and its level graph (the level solver's NumPy path).

A state of :class:`~pushluck_teach.games.captain_seven.turn.CaptainSevenTurnModel` is an int of
bit fields: the layout below, written by :func:`encode_state` (what a state holds, and its
negative terminal codes: :mod:`~pushluck_teach.games.captain_seven.turn`).
:class:`CaptainSevenLevels` runs the model's transitions on arrays of these codes.

Solved level by level (:class:`CaptainSevenLevels`), the choices right after a draw are not
stored: a queen choice is the better of its two successors, and a jack choice after a safe card
is the better of the draw-or-stash state of the same cards (whose draw is the choice's draw) and
the jack's redraw, a closed-form mean wherever all the redraw's outcomes are proved stops.  From
the turn start the queen then stores 2.06 million states (13.5 million with its choices), a
jack after a first card about 2.8 million, and a jack from the turn start 12.4 million (more
than 60 million with its choices): too many to solve at a click, so the values of the jack's
turn starts ship (:meth:`CaptainSevenTurnModel.start_values_key`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, PositionError
from pushluck_teach.games.captain_seven.rules import (
    CAUGHT,
    CLASS_CAPS,
    CLASS_LABELS,
    CLASS_VALUES,
    DECK_SIZE,
    FULL_POOL,
    JACK,
    JOKER_CLASS,
    NO_QUEEN,
    QUEEN,
    SEVEN,
)

if TYPE_CHECKING:
    from pushluck_teach.games.captain_seven.turn import CaptainSevenTurnModel

# ---- the state encoding ------------------------------------------------------------------------
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
        leaves ``pool − v ≤ c·(t + v)``: :mod:`~pushluck_teach.games.captain_seven.turn`,
        "Pruning")."""
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
            # The redraw never beats stopping where its base is a proved stop (the turn
            # module's docstring, "Pruning"): it is only valued elsewhere.
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
