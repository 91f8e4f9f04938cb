r"""Captain Seven's turn model: one turn as an exact MDP, and where stopping is proved optimal.

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
(a jack at total 120: about a million states).  It is solved level by level
(:mod:`~pushluck_teach.games.captain_seven.levels`).

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

Whole-game use (:mod:`pushluck_teach.solve.whole_game.captain_seven`):
:func:`~pushluck_teach.solve.whole_game.captain_seven.turn_outcome_distribution` gives the exact
distribution of the doubloons stashed in one turn under a policy;
:func:`~pushluck_teach.solve.whole_game.captain_seven.threshold_outcome_distributions` gives it
for many "stop once the total reaches T" rules in one pass: a state ``s`` with total ``t(s)`` is
reached under threshold ``T`` with its unrestricted reach probability ``p(s)`` whenever every
earlier total is below ``T``, i.e. whenever ``T > t(parent)``, because totals strictly increase
after the first card.  So ``P_T(result = x) = Σ_{edges u→s, t(s) = x ≥ T, t(u) < T} p(u)·P(u→s)``
(edges from the turn start count for every ``T``), and the rest of the mass is what caught turns
save (0 without the ace).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, PositionError, TurnModel
from pushluck_teach.games.captain_seven.levels import (
    _CAUGHT_NOTHING,
    _LAST_BITS,
    _LAST_SHIFT,
    _MASKS,
    _OUTV_SHIFT,
    _RELIC_BITS,
    _RELIC_CODES,
    _RELIC_SHIFT,
    _SAFE_STEPS,
    _SHIFTS,
    _STEPS,
    _TOTAL_SHIFT,
    HAS_LAST,
    LAST_FIRST,
    PENDING,
    RELIC_ACE,
    RELIC_JACK,
    RELIC_NONE,
    RELIC_QUEEN,
    STARTED,
    CaptainSevenLevels,
    _count,
    caught,
    encode_state,
    stopped,
)
from pushluck_teach.games.captain_seven.rules import (
    CAUGHT,
    CLASS_CAPS,
    CLASS_LABELS,
    CLASS_VALUES,
    FULL_POOL,
    GAME,
    JACK,
    JOKER_CLASS,
    NO_QUEEN,
    QUEEN,
    RELIC_RANKS,
    SEVEN,
    TEN,
    CaptainSevenVariant,
)
from pushluck_teach.quoting import quoted

try:  # gmpy2's rationals are much faster than fractions.Fraction
    from gmpy2 import mpq as _rational
except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
    _rational = Fraction

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
        # Imported here: the position module builds on this one (it makes turn models).
        from pushluck_teach.games.captain_seven.position import captain_seven_position

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
