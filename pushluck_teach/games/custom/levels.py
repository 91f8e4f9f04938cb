"""The level-by-level (NumPy) graph of a built card game's turn, the solver's speed path.

With NumPy a card game whose states fit in 62 bits is solved level by level
(:class:`CustomLevelGraph`, the same states and outcomes in the model's order: the recursion's
values bit for bit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError

if TYPE_CHECKING:  # annotations only: the turn model imports this module to build its graph
    from pushluck_teach.games.custom.turn import CustomState, CustomTurnModel

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
