r"""Incan Gold's turn models: one round as an exact MDP, for a solo explorer
(:class:`IncanGoldTurnModel`) and for explorer 0 among other explorers with stated
behaviour (:class:`IncanGoldGroupModel`).

Turn objective (solo explorer, docs/rules.md): gems banked this round plus artifacts taken.

Turn model.  One round for a single explorer as an exact MDP.  Nothing else matters to the
future than *which* cards are still in the deck and what leaving now would bank, so a state is

* the **trap structure**: the traps of the game not flipped this round as segments
  (:mod:`pushluck_teach.games.incan_gold.structures`: 25 structures for the 521 trap masks
  of a full ring);
* the treasures left, as a count 0-2 for each of the 8 gem values (a base-3 number);
* the artifacts left (a bit mask of the round's artifacts);
* ``C``, what leaving now banks: gems carried plus path gems plus artifacts on the path
  (alone, the explorer gets every gem and takes every artifact).

Pruning (proved).  Let ``n`` be the cards in the deck, ``Σ`` the treasure gems plus artifact
values in it and ``s`` the number of traps that would spring.  One flip and then leaving changes
the expected result by ``(Σ - s·C) / n``: a treasure or artifact adds its value, a safe trap adds
0, a springing trap loses ``C``.  The set ``{Σ ≤ s·C}`` is closed under flips that do not spring:
a flip adding ``x`` gives ``Σ' = Σ - x`` and ``C' = C + x``, and ``s`` never decreases (a flipped
trap only makes its neighbours dangerous), so ``s'·C' ≥ s·C ≥ Σ ≥ Σ'``.  Inside that set the
result of any policy is a supermartingale (each step's expected change ≤ 0; a trap gives 0 ≤ C),
the round has at most 34 flips, and by optional stopping no policy beats leaving now.  Hence
:meth:`IncanGoldTurnModel.stop_is_optimal` exactly when ``Σ ≤ s·C``.

Several explorers.  :class:`IncanGoldGroupModel` is the same round for explorer 0
among 1-7 other explorers (the table's 2-8 players) with stated behaviour: other explorer ``j``
leaves at the first decision where it carries at least ``T_j`` gems (``T_j = 0``: it leaves
after the first flip).
See its docstring.

Both models' level graphs (the solver's speed path) and :func:`estimate_states` are in
:mod:`pushluck_teach.games.incan_gold.levels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pushluck_teach.cards import Card
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    IllegalActionError,
    PositionError,
    TurnModel,
)
from pushluck_teach.games.incan_gold.levels import (
    IncanGoldLevelGraph,
    _level_graph,
    estimate_states,
)
from pushluck_teach.games.incan_gold.rules import (
    ARTIFACT_VALUES,
    GAME,
    GEMS,
    OTHERS_MAX,
    POW3,
    IncanGoldVariant,
    RoundDeck,
    classify,
    read_flips,
)
from pushluck_teach.games.incan_gold.structures import (
    Struct,
    struct_danger,
    struct_moves,
    struct_size,
    trap_structure,
)

IGState = tuple[Any, ...]


# --------------------------------------------------------------------------------------------
# Turn model (solo explorer)


@dataclass(frozen=True)
class IncanGoldTurnModel(TurnModel[IGState]):
    """One round for a solo explorer.

    States: ``("start", struct, tcode, amask, 0)`` before the first flip (only ``draw``),
    ``("in", struct, tcode, amask, C)`` at a decision, ``("end", result, busted)`` terminal.
    ``tcode`` is the treasures left in base 3, ``amask`` bit ``j`` = ``deck.artifacts[j]`` still
    in the deck.  ``drawn`` are the cards flipped this round for :attr:`start`.
    """

    game = GAME
    variant: IncanGoldVariant
    deck: RoundDeck = RoundDeck()
    drawn: tuple[Card, ...] = ()
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False,
                                   compare=False, hash=False)
    assumed_round: int | None = field(default=None, repr=False, compare=False)

    def assumed(self) -> dict[str, Any]:
        """``{"round": N}`` when the position's round was inferred, not given."""
        return {} if self.assumed_round is None else {"round": self.assumed_round}

    @property
    def start(self) -> IGState:
        flips = read_flips(self.deck, self.drawn)
        return self.state_for(self.drawn, flips.gems + flips.artifact_value)

    def state_for(self, flipped: Sequence[Card], take: int, *, check: bool = True) -> IGState:
        """The state after ``flipped`` (this round, in order) where leaving now banks ``take``
        (``check``: see :func:`read_flips`)."""
        flips = read_flips(self.deck, flipped, check=check)
        struct = trap_structure(self.deck.traps, flips.trap_mask)
        tcode = sum((self.deck.treasures[i] - flips.treasure_taken[i]) * POW3[i]
                    for i in range(len(GEMS)))
        amask = 0
        for j, art in enumerate(self.deck.artifacts):
            if art not in flips.artifacts:
                amask |= 1 << j
        if not flipped:
            return ("start", struct, tcode, amask, 0)
        if not struct and not tcode and not amask:
            return ("end", take, False)
        return ("in", struct, tcode, amask, take)

    # ---- cached pieces ------------------------------------------------------------------
    def _treasure_info(self, tcode: int) -> tuple[int, int]:
        key = ("t", tcode)
        info = self._cache.get(key)
        if info is None:
            count = gems = 0
            code = tcode
            for g in GEMS:
                c = code % 3
                code //= 3
                count += c
                gems += c * g
            info = (count, gems)
            self._cache[key] = info
        return info

    def _artifact_info(self, amask: int) -> tuple[int, int]:
        count = value = 0
        for j, art in enumerate(self.deck.artifacts):
            if amask >> j & 1:
                count += 1
                value += ARTIFACT_VALUES[art]
        return count, value

    def _struct_info(self, struct: Struct) -> tuple[int, int, tuple[tuple[int, Struct], ...]]:
        key = ("s", struct)
        info = self._cache.get(key)
        if info is None:
            info = (struct_size(struct), struct_danger(struct), struct_moves(struct))
            self._cache[key] = info
        return info

    def deck_summary(self, state: IGState) -> tuple[int, int, int]:
        """``(n, Σ, s)``: cards in the deck, gems plus artifact values in it, springing traps."""
        _, struct, tcode, amask, _ = state
        size, danger, _ = self._struct_info(struct)
        t_count, t_gems = self._treasure_info(tcode)
        a_count, a_value = self._artifact_info(amask)
        return size + t_count + a_count, t_gems + a_value, danger

    # ---- the MDP ------------------------------------------------------------------------
    def actions(self, state: IGState) -> tuple[str, ...]:
        kind = state[0]
        if kind == "end":
            return ()
        return (DRAW,) if kind == "start" else (DRAW, STOP)

    def _after(self, struct: Struct, tcode: int, amask: int, take: int) -> IGState:
        if not struct and not tcode and not amask:
            return ("end", take, False)
        return ("in", struct, tcode, amask, take)

    def transitions(self, state: IGState, action: str) -> list[tuple[int, IGState]]:
        if state[0] == "end":
            raise IllegalActionError("the round is over")
        _, struct, tcode, amask, take = state
        if action == STOP:
            if state[0] == "start":
                raise IllegalActionError("nobody can leave before the first card is flipped")
            return [(1, ("end", take, False))]
        if action != DRAW:
            raise IllegalActionError(f"unknown Incan Gold action {action!r}")
        out: list[tuple[int, IGState]] = []
        code = tcode
        for i, gems in enumerate(GEMS):
            count = code % 3
            code //= 3
            if count:
                out.append((count, self._after(struct, tcode - POW3[i], amask, take + gems)))
        for j, art in enumerate(self.deck.artifacts):
            if amask >> j & 1:
                out.append((1, self._after(struct, tcode, amask & ~(1 << j),
                                           take + ARTIFACT_VALUES[art])))
        _, danger, moves = self._struct_info(struct)
        if danger:
            out.append((danger, ("end", 0, True)))
        for weight, after in moves:
            out.append((weight, self._after(after, tcode, amask, take)))
        return out

    def payoff(self, terminal: IGState) -> int:
        return terminal[1]

    def is_bust(self, terminal: IGState) -> bool:
        return bool(terminal[2])

    def turn_total(self, state: IGState) -> int:
        return state[-1] if state[0] != "end" else state[1]

    def level_graph(self) -> IncanGoldLevelGraph | None:
        """The round on arrays for the level-by-level solver (``None`` without NumPy)."""
        return _level_graph(self._cache, self.deck, (), self)

    def estimated_states(self, state: IGState) -> int | None:
        """About how many states a solve from ``state`` reaches (:func:`estimate_states`)."""
        return estimate_states(self, state, ())

    def stop_is_optimal(self, state: IGState) -> bool:
        """Leaving is optimal once ``Σ ≤ s·C`` (proved in the module docstring)."""
        if state[0] != "in":
            return False
        _, sigma, danger = self.deck_summary(state)
        return sigma <= danger * state[4]

    def describe(self, state: IGState) -> str:
        if state[0] == "end":
            if state[2]:
                return "a trap sprang: the round is lost"
            return f"left the temple with {state[1]}"
        n, sigma, danger = self.deck_summary(state)
        where = "round start" if state[0] == "start" else f"leaving now banks {state[4]}"
        return (f"{where}; deck {n} cards ({danger} traps would spring, {sigma} gems and artifact"
                f" value in it)")

    def outcome_label(self, state: IGState, next_state: IGState) -> str:
        if next_state[0] == "end" and next_state[2]:
            return "trap springs"
        if next_state[0] == "end":  # deck exhausted: find what was added
            gain = next_state[1] - state[4]
        else:
            if next_state[2] != state[2]:
                return f"treasure {_gems(next_state[4] - state[4])}"
            if next_state[3] != state[3]:
                return f"artifact worth {next_state[4] - state[4]}"
            return "safe trap"
        return f"last card (+{gain})"


def _gems(count: int) -> str:
    return "1 gem" if count == 1 else f"{count} gems"


def _and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------------------------
# Several explorers


@dataclass(frozen=True)
class IncanGoldGroupModel(TurnModel[IGState]):
    """One round for explorer 0 among 1-7 other explorers with stated threshold behaviour.

    ``others[j]`` is the threshold ``T_j`` of other explorer ``j``: at every decision it leaves
    if it carries at least ``T_j`` gems this round, else it stays.  Explorer 0's choice and the
    others' are simultaneous: explorer 0's ``stop`` leaves together with the others who leave at
    the same decision.  A treasure's gems are split equally among the explorers inside (the
    remainder on the path); leavers split the path gems equally (the remainder stays); a lone
    leaver takes every artifact on the path; if the deck runs out everyone inside leaves
    together.  Once all others have left, explorer 0 is a solo explorer and the state becomes
    the solo model's state (leaving then banks carried + path + artifacts).  The objective is
    explorer 0's gems banked plus artifacts taken.

    Everyone inside entered together and received the same shares, so all carry the same ``c``.
    Group state ``("in", struct, tcode, amask, c, inside, path, arts)``: ``inside`` bit ``j`` =
    other ``j`` still inside, ``path`` the path gems, ``arts`` the artifact value on the path;
    ``("start", ...)`` before the first flip.

    Pruning (each a proof that ``Q(stay) ≤ L``, what leaving now banks; no closure needed).
    Alone: the solo rule (module docstring).  In company, let ``C' = c + path + arts``:

    * *Solo domination.*  Take any continuation policy; it is a stopping time of the card
      sequence, so it can be played by a solo explorer holding ``C'`` on the same cards.  On
      every sequence the group result is at most the solo one (the solo explorer gets every gem
      flipped, the whole path and every artifact; both get 0 on a trap).  So
      ``Q(stay) ≤ Q_solo(draw; C')``.  If the solo state is in the stop set ``Σ ≤ s·C'``, every
      non-springing successor is too (closure), where the solo value is its ``C``; hence
      ``Q_solo(draw; C') = C' + (Σ - s·C')/n``, and ``L ≥`` that proves leaving optimal.
    * *Crude bound.*  The next flip springs with probability ``s/n`` (result 0) and explorer 0
      can never bank more than ``C' + Σ``, so ``Q(stay) ≤ (n - s)/n · (C' + Σ)``.
    """

    game = GAME
    variant: IncanGoldVariant
    others: tuple[int, ...] = (5,)
    deck: RoundDeck = RoundDeck()
    drawn: tuple[Card, ...] = ()
    _solo: IncanGoldTurnModel = field(init=False, repr=False, compare=False, hash=False)
    assumed_round: int | None = field(default=None, repr=False, compare=False)

    def assumed(self) -> dict[str, Any]:
        """``{"round": N}`` when the position's round was inferred, not given."""
        return {} if self.assumed_round is None else {"round": self.assumed_round}

    def __post_init__(self) -> None:
        if not 1 <= len(self.others) <= OTHERS_MAX:
            raise PositionError(f"the group model takes 1-{OTHERS_MAX} other explorers "
                                f"(2-{OTHERS_MAX + 1} in all)")
        if any(not isinstance(t, int) or t < 0 for t in self.others):
            raise PositionError(f"thresholds of other explorers must be whole numbers ≥ 0, "
                                f"not {self.others!r}")
        object.__setattr__(self, "_solo", IncanGoldTurnModel(self.variant, self.deck))

    @property
    def start(self) -> IGState:
        """Replays ``drawn`` with the others' stated behaviour and explorer 0 staying."""
        read_flips(self.deck, self.drawn)
        _, struct, tcode, amask, _ = self._solo.state_for((), 0)
        full = (1 << len(self.others)) - 1
        state: IGState = ("start", struct, tcode, amask, 0, full, 0, 0)
        mask = 0
        for k, card in enumerate(self.drawn):
            if k:
                state = self._others_decide(state)
            kind, index = classify(card)
            if kind == "trap":
                mask |= 1 << (index - 1)
            state = self._flip_card(state, kind, index, mask)
        return state

    def _flip_card(self, state: IGState, kind: str, index: int, trap_mask: int) -> IGState:
        struct, tcode, amask = state[1:4]
        gain = 0
        if kind == "treasure":
            tcode -= POW3[index]
            gain = GEMS[index]
        elif kind == "artifact":
            amask &= ~(1 << self.deck.artifacts.index(index))
        else:
            struct = trap_structure(self.deck.traps, trap_mask)
        if len(state) == 5:  # alone
            value = ARTIFACT_VALUES[index] if kind == "artifact" else gain
            return self._solo._after(struct, tcode, amask, state[4] + value)
        _, _, _, _, c, inside, path, arts = state
        if kind == "artifact":
            arts += ARTIFACT_VALUES[index]
        share, rem = divmod(gain, 1 + inside.bit_count())
        return self._after(struct, tcode, amask, c + share, inside, path + rem, arts)

    def _leavers(self, c: int, inside: int) -> int:
        return sum(1 << j for j, t in enumerate(self.others) if inside >> j & 1 and c >= t)

    def _others_decide(self, state: IGState) -> IGState:
        """The others at their threshold leave while explorer 0 stays."""
        if len(state) == 5:
            return state
        _, struct, tcode, amask, c, inside, path, arts = state
        leavers = self._leavers(c, inside)
        if not leavers:
            return ("in", *state[1:])
        path %= leavers.bit_count()
        if leavers.bit_count() == 1:
            arts = 0
        inside &= ~leavers
        if not inside:
            return ("in", struct, tcode, amask, c + path + arts)
        return ("in", struct, tcode, amask, c, inside, path, arts)

    def leave_value(self, state: IGState) -> int:
        """What explorer 0 banks by leaving now, with the others who leave at this decision."""
        if len(state) == 5:
            return state[4]
        _, _, _, _, c, inside, path, arts = state
        leavers = 1 + self._leavers(c, inside).bit_count()
        return c + path // leavers + (arts if leavers == 1 else 0)

    def _after(self, struct: Struct, tcode: int, amask: int, c: int, inside: int, path: int,
               arts: int) -> IGState:
        if not struct and not tcode and not amask:  # deck exhausted: everyone inside leaves
            leavers = 1 + inside.bit_count()
            return ("end", c + path // leavers + (arts if leavers == 1 else 0), False)
        return ("in", struct, tcode, amask, c, inside, path, arts)

    def actions(self, state: IGState) -> tuple[str, ...]:
        if state[0] == "end":
            return ()
        return (DRAW,) if state[0] == "start" else (DRAW, STOP)

    def transitions(self, state: IGState, action: str) -> list[tuple[int, IGState]]:
        if state[0] == "end":
            raise IllegalActionError("the round is over")
        if action == STOP:
            if state[0] == "start":
                raise IllegalActionError("nobody can leave before the first card is flipped")
            return [(1, ("end", self.leave_value(state), False))]
        if action != DRAW:
            raise IllegalActionError(f"unknown Incan Gold action {action!r}")
        if state[0] == "in":
            state = self._others_decide(state)
        if len(state) == 5:
            return self._solo.transitions(state, DRAW)
        _, struct, tcode, amask, c, inside, path, arts = state
        k = 1 + inside.bit_count()
        out: list[tuple[int, IGState]] = []
        code = tcode
        for i, gems in enumerate(GEMS):
            count = code % 3
            code //= 3
            if count:
                share, rem = divmod(gems, k)
                out.append((count, self._after(struct, tcode - POW3[i], amask, c + share,
                                               inside, path + rem, arts)))
        for j, art in enumerate(self.deck.artifacts):
            if amask >> j & 1:
                out.append((1, self._after(struct, tcode, amask & ~(1 << j), c, inside, path,
                                           arts + ARTIFACT_VALUES[art])))
        _, danger, moves = self._solo._struct_info(struct)
        if danger:
            out.append((danger, ("end", 0, True)))
        for weight, after in moves:
            out.append((weight, self._after(after, tcode, amask, c, inside, path, arts)))
        return out

    def payoff(self, terminal: IGState) -> int:
        return terminal[1]

    def is_bust(self, terminal: IGState) -> bool:
        return bool(terminal[2])

    def turn_total(self, state: IGState) -> int:
        if state[0] == "end":
            return state[1]
        return self.leave_value(state) if state[0] == "in" else 0

    def level_graph(self) -> IncanGoldLevelGraph | None:
        """The round on arrays for the level-by-level solver (``None`` without NumPy)."""
        return _level_graph(self._solo._cache, self.deck, self.others, self._solo)

    def estimated_states(self, state: IGState) -> int | None:
        """About how many states a solve from ``state`` reaches (:func:`estimate_states`)."""
        return estimate_states(self._solo, state, self.others)

    def stop_is_optimal(self, state: IGState) -> bool:
        """Alone: the solo rule; in company: the two bounds of the class docstring."""
        if state[0] != "in":
            return False
        if len(state) == 5:
            return self._solo.stop_is_optimal(state)
        _, struct, tcode, amask, c, _, path, arts = state
        n, sigma, danger = self._solo.deck_summary(("in", struct, tcode, amask, 0))
        leave = self.leave_value(state)
        alone = c + path + arts
        if sigma <= danger * alone and n * leave >= n * alone + sigma - danger * alone:
            return True
        return (n - danger) * (alone + sigma) <= n * leave

    def describe(self, state: IGState) -> str:
        if state[0] == "end":
            return "a trap sprang: the round is lost" if state[2] else f"left with {state[1]}"
        if len(state) == 5:
            return "the others have left: " + self._solo.describe(state)
        _, _, _, _, c, inside, path, arts = state
        staying = [t for j, t in enumerate(self.others) if inside >> j & 1]
        gone = len(self.others) - len(staying)
        one = len(staying) == 1
        names = "another explorer" if one else f"{len(staying)} other explorers"
        rule = (f"{'it leaves' if one else 'they leave'} once carrying "
                f"{_and_list([str(t) for t in staying])} gems")
        if state[0] == "start":
            return f"round start: you and {names} enter; {rule}"
        left = f" ({gone} left before)" if gone else ""
        return (f"you and {names}{left} are inside carrying {_gems(c)} each; {rule}; path "
                f"{_gems(path)}, artifacts on the path worth {arts}")

    def outcome_label(self, state: IGState, next_state: IGState) -> str:
        """The flipped card, as short as the solo model's labels (a chart's category axis
        shows them): a treasure with each explorer's share, an artifact, a safe trap."""
        before = self._others_decide(state) if state[0] == "in" else state
        if len(before) == 5:  # the others have all left: explorer 0 flips alone
            return self._solo.outcome_label(before, next_state)
        if next_state[0] == "end":
            if next_state[2]:
                return "trap springs"
            return f"last card (leave with {next_state[1]})"
        if next_state[2] != before[2]:
            share = next_state[4] - before[4]
            gems = share * (1 + before[5].bit_count()) + next_state[6] - before[6]
            return f"treasure {_gems(gems)} (+{share} each)"
        if next_state[3] != before[3]:
            return f"artifact worth {next_state[7] - before[7]}"
        return "safe trap"
