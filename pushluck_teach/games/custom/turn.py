r"""The turn model of a built game: one turn as an exact MDP (:class:`CustomTurnModel`).

Turn model (:class:`CustomTurnModel`, the same exact MDP interface as every game, solved by the
generic turn solver).  Cards fall in *classes*
(:func:`~pushluck_teach.games.custom.rules.compile_rules`).  A decision state holds
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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, TurnModel
from pushluck_teach.games.custom.levels import CustomLevelGraph
from pushluck_teach.games.custom.rules import GAME, RuleSet, compile_rules

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
