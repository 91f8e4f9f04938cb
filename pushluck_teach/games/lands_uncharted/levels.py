"""Lands Uncharted's turn as int64 codes, every draw of a level at once with NumPy, for the
level-by-level solver (protocol: solve/levels.py): the speed path of large positions (the turn
model's docstring, "Speed": :mod:`.turn`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, PositionError
from pushluck_teach.games.lands_uncharted.rules import (
    ACE,
    CURSED_DIAMONDS,
    CURSED_HEARTS,
    CURSED_SPADES,
    DECLARE,
    DIAMOND,
    FREE,
    HEART2,
    N_CLASSES,
    NUMBER_CLASSES,
    START,
    THREAT,
)
from pushluck_teach.games.lands_uncharted.state import (
    _NEXT_PHASE,
    DEAD_SHIFT,
    THREAT_CLASSES,
    TOTAL,
    LUState,
    _count,
    _dying_table,
)

if TYPE_CHECKING:  # the graph reads its model; the model builds its graph
    from pushluck_teach.games.lands_uncharted.turn import LandsUnchartedTurnModel

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
