r"""One turn of Lands Uncharted as an exact MDP (:class:`LandsUnchartedTurnModel`).

Turn objective.  The change of the player's score this turn: the treasure banked (+5 buried
treasure bonus at exactly 21), 0 on a bust, and on a declared double-or-nothing turn the bank
``target - score`` or, on a bust, ``max(0, target - 20) - score`` (negative).  On an ordinary
turn this is exactly docs/rules.md's "treasure banked this turn".  When double or nothing is on
and the player is eligible, the turn model offers ``declare`` at the turn start, so the solver
compares the two kinds of turn by the same objective.

Turn model (an exact finite MDP).  Cards count by their *classes* (:mod:`.rules`: class ``c``
of 1..9 is rank ``c + 1``).  A decision state is the tuple
``(pile, mask, threat, allies, phase, declared)``:

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

from dataclasses import dataclass

from pushluck_teach.games.base import DRAW, STOP, IllegalActionError, TurnModel
from pushluck_teach.games.lands_uncharted.levels import LandsUnchartedLevelGraph
from pushluck_teach.games.lands_uncharted.rules import (
    ACE,
    BURIED_BONUS,
    BURIED_TOTAL,
    CLASS_LABEL,
    CURSED_CLUBS,
    CURSED_DIAMONDS,
    CURSED_HEARTS,
    CURSED_SPADES,
    DECLARE,
    DIAMOND,
    FORCED_PHASES,
    FREE,
    GAME,
    HEART1,
    HEART2,
    N_CLASSES,
    NUMBER_CLASSES,
    START,
    THREAT,
    LandsUnchartedVariant,
)
from pushluck_teach.games.lands_uncharted.state import (
    _NEXT_PHASE,
    DEAD,
    DEAD_SHIFT,
    HAUL_BITS,
    THREAT_CLASSES,
    THREAT_FIELDS,
    TOTAL,
    LUState,
    _bank_table,
    _count,
    _dying_table,
    _full_deck_counts,
    _kept_ranks,
)

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

