r"""Incan Gold with a standard deck (docs/rules.md, "Incan Gold (standard deck)"; seed 004).

Cards.  13 **traps** ♠A-K; 16 **treasures**, both jokers and ♦♥ A 3 5 7 9 J K, worth A 1,
3 5 7 9 their rank, J 11, K 13, joker 15 gems (128 gems in all); 5 **artifacts** ♥4 6 8 10 Q
worth 4 6 8 10 12.  Every other card (♣, ♠ none, ♦ 2 4 6 8 10 Q, ♥2) is not in the game.

A round.  The deck is the traps and treasures still in the game plus the artifacts in the game:
round ``K`` adds the ``K``-th lowest artifact, and an artifact stays in the deck until it is
flipped.  Cards are flipped one at a time: a treasure's gems are split equally among the
explorers inside (the remainder goes to the path); an artifact goes to the path; trap ♠r
*springs* if a trap of rank r-1 or r+1 (a ring: A follows K) was flipped this round — everyone
inside loses what they carry this round, the round ends and that trap leaves the game.  After
each flip that did not end the round the explorers inside decide **at the same time** whether to
stay or leave; leavers split the path gems equally (the remainder stays) and bank what they carry;
a lone leaver also takes every artifact on the path.  Nobody inside: the round ends.  Flipped
artifacts leave the game after the round, taken or not.  After the last round the highest banked
gems plus artifact values wins.

Choices where docs/rules.md and the sheet are silent (options where a table could differ):

* ``rounds`` (5, any of 1-5; there are only 5 artifacts);
* ``remove_sprung_trap`` (True): the trap card that sprang leaves the game (docs/rules.md);
  off, every trap stays for the whole game;
* ``tie_break`` ("shared"): players tied for the highest total share the win; "artifacts": the
  tied player with the most artifact cards wins (the original Incan Gold rule), a further tie
  is shared;
* the first card of a round is flipped by an explicit ``draw`` ("Enter the temple") of the
  lowest seat; nobody decides before it (RULES: decisions follow a flip).  Staying explorers
  flip the next card automatically once the decisions are revealed;
* simultaneous decisions are asked in seat order and kept secret (the log only says "has
  decided") until every explorer inside has chosen, then revealed together;
* if the deck runs out after a flip that did not end the round, everyone still inside leaves at
  once, exactly as if all had chosen to leave (split of the path, a lone leaver takes the
  artifacts).  In a real game this never happens: at most 4 traps leave before the last round,
  so at least 9 of the 13 ring positions hold a trap, and 9 positions of a 13-ring always
  include two neighbours (the largest set of pairwise non-adjacent positions has 6); the 7th
  trap flipped in a round must spring.  Only hand-made positions can empty the deck.

Turn objective (solo explorer, docs/rules.md): gems banked this round plus artifacts taken.

Turn model.  One round for a single explorer as an exact MDP.  Nothing else matters to the
future than *which* cards are still in the deck and what leaving now would bank, so a state is

* the **trap structure**: the traps of the game not flipped this round, cut at every flipped
  trap and at every ring position whose trap left the game, form *segments*; a segment is
  ``(L, a, b)`` with ``L`` traps in a row and ``a``/``b`` = 1 when the position beyond that end
  holds a trap flipped this round (0: a wall, a trap out of the game).  A trap at an end whose
  flag is 1 springs; so does a lone trap (``L = 1``) with any flag 1.  Flipping a safe trap at
  place ``i`` splits ``(L, a, b)`` into ``(i-1, a, 1)`` and ``(L-i, 1, b)`` (empty parts
  dropped).  Before the first trap of a round with no trap out of the game, the 13 traps are a
  *ring*; any first flip turns it into ``(12, 1, 1)``.  Segments are kept as a sorted multiset
  with ``a ≥ b`` (a mirror image has the same future), so the 521 trap masks of a full ring
  collapse into 25 structures;
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

Solving.  Both models offer :meth:`~IncanGoldTurnModel.level_graph`: the same round
with its states coded as integers (:class:`IncanGoldLevelGraph`), which the float solver expands
a level (cards flipped) at a time with NumPy (:mod:`pushluck_teach.solve.levels`), with values
equal bit for bit to the recursion's.  Exact mode and the in-browser build (no NumPy) use the
recursion.  :func:`estimate_states` sizes a solve before it starts.

Merged decisions (the level path in company).  At a decision where a set ``L`` of the other
explorers inside carries at least its thresholds, those leave whatever explorer 0 chooses, so
the decision's two actions read only:

* ``stop``: explorer 0 leaves with them and banks ``c + ⌊p / (1 + |L|)⌋`` (two or more leave:
  the artifacts stay on the path);
* ``draw``: the leavers split the path, ``p' = p mod |L|``, and take its artifacts if ``|L| =
  1`` (``a' = 0``; else ``a' = a``); then the next card is flipped for explorer 0 and the
  stayers ``S``.  Its ``Q`` is the value of the *chance node* ``N = (deck, c, S, p', a')``
  before that flip (draw only, nobody decides before it, like a round's start; with ``S``
  empty, the solo state holding ``C = c + p' + a'``): ``N``'s outcomes are the model's
  outcomes of the decision's draw, weight for weight and in the same order (the model's
  ``transitions`` lets the others decide, then flips).

So ``V`` is the stop value unless ``V(N)`` beats it under the solver's tie rule (then ``V =
V(N)``), and every decision with the same ``N`` and the same ``⌊p / (1 + |L|)⌋`` has the same
value and best action.  With one leaver every ``(p, a)`` reaches the same ``N = (deck, c, S,
0, 0)``.  The level graph therefore stores ``N`` once and values such a decision where it
occurs as a successor (an *inline* state of :mod:`pushluck_teach.solve.levels`) from its stop
value and ``V(N)``, once an explorer has left before (while every other explorer is inside,
the cards flipped fix ``c``, ``p`` and ``a``: nothing merges, and the decision stays stored).
``V(N)`` is the same sum of the same outcome values in the same order as the decision's
``Q(draw)``, so every value is the recursion's bit for bit (tests compare them).  At round 2's
start with others at 5, 10 and 15, 5.7 of the 9.3 million states a solve stored were such
decisions; it now stores 4.6 million.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pushluck_teach.cards import Card, CardError, Deck, parse_cards
from pushluck_teach.games.base import (
    DRAW,
    DRAWN,
    REMOVED,
    STOP,
    Engine,
    Flag,
    GameSpec,
    IllegalActionError,
    PositionError,
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    option,
    parse_whole_number,
    register,
    whole_number,
)
from pushluck_teach.quoting import quoted

GAME = "incan-gold"
ROUNDS_MAX = 5
#: Other explorers the group model takes (``others``).
OTHERS_MAX = 7
RING = 13
FULL_RING = (1 << RING) - 1
TREASURE_RANKS: tuple[str, ...] = ("A", "3", "5", "7", "9", "J", "K")
GEMS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 13, 15)  # gem classes; class 7 is the joker
JOKER_CLASS = 7
ARTIFACT_RANKS: tuple[str, ...] = ("4", "6", "8", "T", "Q")
ARTIFACT_VALUES: tuple[int, ...] = (4, 6, 8, 10, 12)
POW3: tuple[int, ...] = tuple(3**i for i in range(len(GEMS)))
FULL_TREASURES: tuple[int, ...] = (2,) * len(GEMS)

Segment = tuple[int, int, int]  # (L, a, b); a ring is (L, -1, -1)
Struct = tuple[Segment, ...]
IGState = tuple[Any, ...]


# --------------------------------------------------------------------------------------------
# Cards


def trap_card(rank: int) -> Card:
    """♠ of rank 1..13."""
    return Card(("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")[rank - 1], "s")


def artifact_card(index: int) -> Card:
    """The artifact of round ``index + 1`` (♥4, ♥6, ♥8, ♥10, ♥Q)."""
    return Card(ARTIFACT_RANKS[index], "h")


def treasure_cards() -> tuple[Card, ...]:
    cards = [Card(r, s) for s in ("d", "h") for r in TREASURE_RANKS]
    return (*cards, Card("JK"), Card("JK"))


def full_deck() -> tuple[Card, ...]:
    """All 34 cards of the game."""
    traps = tuple(trap_card(r) for r in range(1, RING + 1))
    return traps + treasure_cards() + tuple(artifact_card(i) for i in range(ROUNDS_MAX))


def classify(card: Card) -> tuple[str, int]:
    """``("trap", rank 1-13)``, ``("treasure", gem class 0-7)`` or ``("artifact", 0-4)``."""
    if card.is_joker:
        return "treasure", JOKER_CLASS
    if card.suit == "s":
        return "trap", card.rank_index
    if card.suit in ("d", "h") and card.rank in TREASURE_RANKS:
        return "treasure", TREASURE_RANKS.index(card.rank)
    if card.suit == "h" and card.rank in ARTIFACT_RANKS:
        return "artifact", ARTIFACT_RANKS.index(card.rank)
    raise CardError(
        f"card {card.code} is not in the Incan Gold deck (traps ♠A-K, treasures jokers and "
        f"♦♥ A 3 5 7 9 J K, artifacts ♥4 6 8 10 Q; clubs and other red even cards are unused)"
    )


def card_value(card: Card) -> int:
    """Gems of a treasure, value of an artifact, 0 for a trap."""
    kind, index = classify(card)
    if kind == "treasure":
        return GEMS[index]
    if kind == "artifact":
        return ARTIFACT_VALUES[index]
    return 0


def ring_neighbours(rank: int) -> tuple[int, int]:
    """The ranks next to ``rank`` in the ring (A follows K)."""
    return (rank - 2) % RING + 1, rank % RING + 1


def springs(rank: int, flipped_traps: Iterable[int]) -> bool:
    flipped = set(flipped_traps)
    return any(n in flipped for n in ring_neighbours(rank))


# --------------------------------------------------------------------------------------------
# Variant


@dataclass(frozen=True, kw_only=True)
class IncanGoldVariant(Variant):
    """Incan Gold's options (see the module docstring for why each exists)."""

    game = GAME
    rounds: int = option(5, "Rounds", "rounds in a game; each round adds one artifact (there "
                         "are five)", low=1, high=ROUNDS_MAX)
    remove_sprung_trap: bool = option(True, "Sprung traps leave", "the trap card that sprang "
                                      "leaves the game; off, every trap stays all game")
    tie_break: str = option("shared", "Tie break", "players tied for the most gems share the "
                            "win, or the one with more artifacts wins",
                            choices=("shared", "artifacts"))


# --------------------------------------------------------------------------------------------
# Trap structures


def trap_structure(in_game: int, flipped: int) -> Struct:
    """The segments of the traps in the game (bit ``r-1`` for ♠r) not flipped this round."""
    free = in_game & ~flipped
    if free == 0:
        return ()
    if free == FULL_RING:
        return ((RING, -1, -1),)
    start = next(p for p in range(RING) if not free >> p & 1)
    segments: list[Segment] = []
    length = 0
    left = 0
    for step in range(1, RING + 1):
        p = (start + step) % RING
        if free >> p & 1:
            if length == 0:
                prev = (p - 1) % RING
                left = 1 if flipped >> prev & 1 else 0
            length += 1
        elif length:
            right = 1 if flipped >> p & 1 else 0
            segments.append(_segment(length, left, right))
            length = 0
    if length:  # the run ends at the start position, which is not free
        right = 1 if flipped >> start & 1 else 0
        segments.append(_segment(length, left, right))
    return tuple(sorted(segments))


def _segment(length: int, a: int, b: int) -> Segment:
    return (length, max(a, b), min(a, b))


def struct_size(struct: Struct) -> int:
    return sum(seg[0] for seg in struct)


def struct_danger(struct: Struct) -> int:
    """How many traps in the deck would spring if flipped now."""
    total = 0
    for length, a, b in struct:
        if a < 0:
            continue
        total += (1 if a or b else 0) if length == 1 else a + b
    return total


def struct_moves(struct: Struct) -> tuple[tuple[int, Struct], ...]:
    """Every safe trap flip as ``(number of such traps, structure after)``, merged."""
    moves: dict[Struct, int] = {}
    for index, (length, a, b) in enumerate(struct):
        rest = struct[:index] + struct[index + 1:]
        if a < 0:  # an intact ring: every flip is alike and safe
            after = tuple(sorted((*rest, (length - 1, 1, 1)))) if length > 1 else rest
            moves[after] = moves.get(after, 0) + length
            continue
        for i in range(1, length + 1):
            if (i == 1 and a) or (i == length and b):
                continue
            parts = [seg for seg in ((i - 1, a, 1), (length - i, 1, b)) if seg[0] > 0]
            after = tuple(sorted((*rest, *(_segment(*seg) for seg in parts))))
            moves[after] = moves.get(after, 0) + 1
    return tuple((w, st) for st, w in moves.items())


# --------------------------------------------------------------------------------------------
# The round's deck


@dataclass(frozen=True)
class RoundDeck:
    """What a round's deck holds at its start: traps in the game (bit ``r-1`` for ♠r), the
    count of each treasure class, and the artifacts (indices 0-4) in the deck."""

    traps: int = FULL_RING
    treasures: tuple[int, ...] = FULL_TREASURES
    artifacts: tuple[int, ...] = (0,)

    def cards(self) -> tuple[Card, ...]:
        cards = [trap_card(r) for r in range(1, RING + 1) if self.traps >> (r - 1) & 1]
        for cls, count in enumerate(self.treasures):
            if cls == JOKER_CLASS:
                cards.extend([Card("JK")] * count)
            else:
                cards.extend(Card(TREASURE_RANKS[cls], s) for s in ("d", "h")[:count])
        cards.extend(artifact_card(i) for i in self.artifacts)
        return tuple(cards)

    def treasure_code(self) -> int:
        return sum(c * p for c, p in zip(self.treasures, POW3, strict=True))

    def artifact_values(self) -> tuple[int, ...]:
        return tuple(ARTIFACT_VALUES[i] for i in self.artifacts)

    def describe(self) -> str:
        arts = " ".join(artifact_card(i).label for i in self.artifacts) or "none"
        return (f"{bin(self.traps).count('1')} traps, {sum(self.treasures)} treasures, "
                f"artifacts {arts}")


@dataclass(frozen=True)
class Flipped:
    """Cards flipped this round, sorted by kind (after checking none sprang)."""

    trap_mask: int
    treasure_taken: tuple[int, ...]
    artifacts: tuple[int, ...]
    gems: int  # total treasure gems flipped
    artifact_value: int


def read_flips(deck: RoundDeck, flipped: Sequence[Card], *, check: bool = True) -> Flipped:
    """Sort ``flipped`` by kind; with ``check``, first check it against ``deck`` (each card held
    as often as flipped, no trap sprang).  The engine, which flips real cards, skips the check."""
    if check and flipped:  # nothing flipped: nothing to check (and a deck costs ~1 ms)
        Deck(deck.cards()).remove(flipped, what="Incan Gold deck this round")
    mask = 0
    taken = [0] * len(GEMS)
    artifacts: list[int] = []
    for card in flipped:
        kind, index = classify(card)
        if kind == "trap":
            if check and springs(index, (r for r in range(1, RING + 1) if mask >> (r - 1) & 1)):
                raise PositionError(
                    f"trap {card.code} springs (a neighbouring trap was flipped before it): "
                    f"the round is already over"
                )
            mask |= 1 << (index - 1)
        elif kind == "treasure":
            taken[index] += 1
        else:
            artifacts.append(index)
    gems = sum(GEMS[i] * c for i, c in enumerate(taken))
    return Flipped(mask, tuple(taken), tuple(artifacts), gems,
                   sum(ARTIFACT_VALUES[i] for i in artifacts))


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


# --------------------------------------------------------------------------------------------
# The round as arrays: states as integers, a level of the round at a time


# Fields of a state's integer code, lowest bits first: (name, bits).  ``kind`` 0 is a decision
# after a flip, 1 a draw-only node (the round's start, or a merged decision's chance node:
# module docstring), 2 a terminal (``carried`` its payoff, bit 0 of ``inside`` set when a trap
# sprang).  ``inside`` = 0 is a solo state (its ``carried`` field holds ``C``).
CODE_FIELDS: tuple[tuple[str, int], ...] = (
    ("tcode", 13), ("amask", 5), ("struct", 7), ("carried", 11), ("inside", 7), ("path", 12),
    ("arts", 6), ("kind", 2),
)
#: The most a coded decision state may hold (carried, path and artifacts): a round adds at most
#: 168 (128 gems, 40 of artifacts), and a payoff must fit the ``carried`` field.
CARRIED_MAX = (1 << 11) - 1 - 168
#: Cards in the largest deck (13 traps, 16 treasures, 5 artifacts): levels count cards flipped.
DECK_MAX = RING + 2 * len(GEMS) + ROUNDS_MAX
_SHIFT: dict[str, int] = {}
_WIDTH: dict[str, int] = {}
_at = 0
for _name, _bits in CODE_FIELDS:
    _SHIFT[_name], _WIDTH[_name] = _at, _bits
    _at += _bits
del _at, _name, _bits
_KIND_START = 1 << _SHIFT["kind"]
_KIND_END = 2 << _SHIFT["kind"]


def reachable_structs(start: Struct) -> tuple[Struct, ...]:
    """Every trap structure a round reaches from ``start`` by safe flips (at most 114 from any
    deck of the game: 25 from the full ring), ``start`` first."""
    found = {start: None}
    todo = [start]
    while todo:
        for _, after in struct_moves(todo.pop()):
            if after not in found:
                found[after] = None
                todo.append(after)
    return tuple(found)


#: A level solve of a position with other explorers inside stores about this share of
#: :func:`estimate_states` or less (the states of a round 1 after A♦ unless said; measured,
#: with the merged decisions of the module docstring): others at 10: 0.47; at 5 and 10: 0.26
#: (round 3: 0.36); 3, 6, 9: 0.24; 4, 8, 12, 16: 0.25; seven from 1-7: 0.22; round 2's start
#: with 5, 10, 15: 0.44.  Thresholds the remaining gems seldom reach store fewer (3-21 by
#: threes: 0.11; the table's bots at 10, 10, 30 in round 2 after a joker: 0.13), which the
#: estimate does not see: hence :data:`GROUP_REFUSAL_FACTOR`.
GROUP_LEVEL_SHARE = 3 / 8
#: The level budget of a round with other explorers (``max_states`` of its level graph, in
#: place of the 5 million of other games): the table's 4-explorer game (bots at 10, 10 and 30)
#: in round 5 with four traps out and all five artifacts in stores 14.5 million states (about
#: 24 s of CPU and 515 MB at its peak on the 2-core machine), so a page with the largest deck
#: answers, slowly and with its progress bar, instead of refusing.
GROUP_LEVEL_MAX_STATES = 16_000_000
#: A round in company is refused up front only when :data:`GROUP_LEVEL_SHARE` of its estimate
#: is this many times the budget: a solve stores 0.1-0.5 of the estimate (measured above), so
#: a position whose estimate is over the budget is still tried, and the solve's own count
#: stops one that really is larger.
GROUP_REFUSAL_FACTOR = 4


def _field(codes: Any, name: str) -> Any:
    return codes >> _SHIFT[name] & ((1 << _WIDTH[name]) - 1)


class IncanGoldLevelGraph:
    """One round of a model (solo: ``others=()``) for the level-by-level NumPy solver
    (:mod:`pushluck_teach.solve.levels`, whose docstring gives the protocol).  States are coded
    as integers (:data:`CODE_FIELDS`); a level is the number of cards flipped.  The transitions,
    payoffs and proved pruning are those of :class:`IncanGoldTurnModel` and
    :class:`IncanGoldGroupModel`, written on arrays, with the outcomes in the models' order (so
    the float sums, and the values, are the recursion's bit for bit: tests/test_incan_gold.py
    compares them).  A flip moves a code by a fixed amount per outcome and per number of
    explorers inside, so each outcome of a whole level is one addition.  NumPy is imported here
    only: without it the models answer ``level_graph() = None`` and the recursion solves.
    In company, a decision where another explorer leaves now is inline, valued from its
    chance node (module docstring, "Merged decisions"): a code of kind 1 (draw only), as a
    round's start is."""

    actions = (STOP, DRAW)

    def __init__(self, deck: RoundDeck, others: tuple[int, ...] = (), *,
                 solo: IncanGoldTurnModel | None = None) -> None:
        import numpy as np

        self.deck = deck
        self.others = others
        self._solo = solo  # the round's solo model: its deck summaries size the estimate
        if others:
            self.max_states = GROUP_LEVEL_MAX_STATES  # the level solver's budget (levels.py)
        self.structs = reachable_structs(trap_structure(deck.traps, 0))
        self.struct_id = {s: i for i, s in enumerate(self.structs)}
        moves = [struct_moves(s) for s in self.structs]
        width = max(1, max(len(m) for m in moves))
        self.move_weight = np.zeros((len(self.structs), width), np.int64)
        self.move_to = np.zeros((len(self.structs), width), np.int64)
        for i, outcomes in enumerate(moves):
            for k, (w, after) in enumerate(outcomes):
                self.move_weight[i, k] = w
                self.move_to[i, k] = self.struct_id[after]
        self.struct_size = np.array([struct_size(s) for s in self.structs], np.int64)
        self.struct_danger = np.array([struct_danger(s) for s in self.structs], np.int64)
        codes = np.arange(3 ** len(GEMS), dtype=np.int64)
        self.digits = np.stack([codes // p % 3 for p in POW3])
        self.t_count = self.digits.sum(axis=0)
        self.t_gems = (self.digits * np.array(GEMS, np.int64)[:, None]).sum(axis=0)
        # Indexed by the whole amask field (unused high bits are never set).
        masks = np.arange(1 << _WIDTH["amask"], dtype=np.int64)
        self.artifact_values = tuple(ARTIFACT_VALUES[a] for a in deck.artifacts)
        self.a_count = np.array([int(m).bit_count() for m in masks], np.int64)
        self.a_value = np.array([sum(v for j, v in enumerate(self.artifact_values) if m >> j & 1)
                                 for m in masks], np.int64)
        self.popcount = np.array([i.bit_count() for i in range(1 << _WIDTH["inside"])], np.int64)
        # Bit j set where other j's threshold is reached, per amount carried (a look-up instead
        # of a pass per explorer: the leavers are ``inside & reached[carried]``).
        carried = np.arange(1 << _WIDTH["carried"], dtype=np.int64)
        self._reached = carried * 0
        for j, threshold in enumerate(others):
            self._reached |= (carried >= threshold).astype(np.int64) << j
        assert _SHIFT["struct"] == _SHIFT["amask"] + _WIDTH["amask"]
        self._mask_struct_bits = (1 << (_WIDTH["amask"] + _WIDTH["struct"])) - 1
        both = np.arange(self._mask_struct_bits + 1, dtype=np.int64)
        sizes = np.zeros(1 << _WIDTH["struct"], np.int64)
        sizes[:len(self.structs)] = self.struct_size
        self._mask_struct_cards = (self.a_count[both & ((1 << _WIDTH["amask"]) - 1)]
                                   + sizes[both >> _WIDTH["amask"]])
        self._last_leave: tuple[Any, Any] | None = None
        self._everyone = (1 << len(others)) - 1
        # What a treasure of class i adds to a code with k explorers inside (k = 1..8): one
        # fewer of the class, gems // k carried, the remainder on the path.
        ks = np.arange(OTHERS_MAX + 2, dtype=np.int64)
        ks[0] = 1
        self._treasure_shift = [
            (gems // ks << _SHIFT["carried"]) + (gems % ks << _SHIFT["path"]) - POW3[i]
            for i, gems in enumerate(GEMS)]

    def estimated_states(self, state: IGState) -> int | None:
        """About how many states a level solve from ``state`` stores: :func:`estimate_states`,
        times :data:`GROUP_LEVEL_SHARE` while other explorers are inside, at most the budget
        (:data:`GROUP_LEVEL_MAX_STATES`: the solve's own count stops a larger one) unless it
        is :data:`GROUP_REFUSAL_FACTOR` times the budget (refused up front).  (The model's
        estimate sizes the recursion's memo, exact mode's above all, and stays as it is.)
        ``None`` without the round's solo model: no estimate, the solve's own count
        decides."""
        if self._solo is None:
            return None
        estimate = estimate_states(self._solo, state, self.others)
        if estimate is None or state[0] == "end" or len(state) == 5 or not self.others:
            return estimate
        inside = state[5] if state[0] == "in" else 1
        if not inside:
            return estimate
        share = max(1, int(estimate * GROUP_LEVEL_SHARE))
        if share > GROUP_REFUSAL_FACTOR * GROUP_LEVEL_MAX_STATES:
            return share
        return min(share, GROUP_LEVEL_MAX_STATES)

    # ---- codes ---------------------------------------------------------------------------
    def code(self, state: IGState) -> int | None:
        """The integer code of a state (``None``: a value too large for its field; the
        recursion then answers)."""
        kind = state[0]
        if kind == "end":
            payoff = state[1]
            if not 0 <= payoff < 1 << _WIDTH["carried"]:
                return None
            return _KIND_END | payoff << _SHIFT["carried"] | int(bool(state[2])) << \
                _SHIFT["inside"]
        sid = self.struct_id.get(state[1])
        if sid is None:
            return None
        if len(state) == 5:
            fields = {"carried": state[4], "inside": 0, "path": 0, "arts": 0}
        else:
            fields = dict(zip(("carried", "inside", "path", "arts"), state[4:], strict=True))
        if fields["carried"] + fields["path"] + fields["arts"] > CARRIED_MAX:
            return None
        fields.update(tcode=state[2], amask=state[3], struct=sid, kind=int(kind == "start"))
        code = 0
        for name, value in fields.items():
            if not 0 <= value < 1 << _WIDTH[name]:
                return None
            code |= value << _SHIFT[name]
        return code

    def state(self, code: int) -> IGState:
        """The state of an integer code (:meth:`code` inverted)."""
        f = {name: _field(code, name) for name, _ in CODE_FIELDS}
        if f["kind"] == 2:
            return ("end", f["carried"], bool(f["inside"] & 1))
        head = ("start" if f["kind"] else "in", self.structs[f["struct"]], f["tcode"],
                f["amask"])
        if f["inside"] == 0:
            return (*head, f["carried"])
        return (*head, f["carried"], f["inside"], f["path"], f["arts"])

    @staticmethod
    def _compose(**fields: Any) -> Any:
        code = 0
        for name, value in fields.items():
            code = code | value << _SHIFT[name]
        return code

    def cards_left(self, codes: Any) -> Any:
        # ``amask`` and ``struct`` are neighbouring fields: one look-up counts their cards.
        return (self._mask_struct_cards[codes >> _SHIFT["amask"] & self._mask_struct_bits]
                + self.t_count[_field(codes, "tcode")])

    def level(self, codes: Any) -> Any:
        """Cards flipped (of the largest deck): grows by one along every flip."""
        return DECK_MAX - self.cards_left(codes)

    def is_terminal(self, codes: Any) -> Any:
        return _field(codes, "kind") == 2

    def payoff(self, codes: Any) -> Any:
        return _field(codes, "carried").astype(float)

    # ---- leaving ---------------------------------------------------------------------------
    def _leavers(self, carried: Any, inside: Any) -> Any:
        return inside & self._reached[carried]

    def _leave(self, codes: Any) -> tuple[Any, Any]:
        """``(what leaving banks as floats, NaN where it is not legal; leaving is legal and
        provably optimal)``: the models' ``leave_value`` and ``stop_is_optimal`` (their
        docstrings prove the rules).  The solver asks for both of the same array in turn: the
        last answer is kept (keyed by the array object itself)."""
        import numpy as np

        last = self._last_leave
        if last is not None and last[0] is codes:
            return last[1]
        c = _field(codes, "carried")
        t, m, sid = _field(codes, "tcode"), _field(codes, "amask"), _field(codes, "struct")
        sigma = self.t_gems[t] + self.a_value[m]
        danger = self.struct_danger[sid]
        decision = codes >> _SHIFT["kind"] == 0
        # Alone: leaving banks C (the solo rule); in company: the group model's leave value
        # and its two bounds, computed on the codes in company only (all of them: no copy).
        leave = c
        optimal = sigma <= danger * c
        inside = _field(codes, "inside") if self.others else None
        company = np.flatnonzero(inside) if inside is not None else ()
        if len(company):
            every = len(company) == len(codes)
            pick = slice(None) if every else company
            rows = codes[pick]
            c, inside = c[pick], inside[pick]
            path, arts = _field(rows, "path"), _field(rows, "arts")
            t, m, sid, sigma, danger = t[pick], m[pick], sid[pick], sigma[pick], danger[pick]
            leavers = self.popcount[inside & self._reached[c]]
            in_company = c + path // (1 + leavers) + np.where(leavers == 0, arts, 0)
            n = self.struct_size[sid] + self.t_count[t] + self.a_count[m]
            total = c + path + arts
            optimal_company = (((sigma <= danger * total)
                                & (n * in_company >= n * total + sigma - danger * total))
                               | ((n - danger) * (total + sigma) <= n * in_company))
            if every:
                leave, optimal = in_company, optimal_company
            else:
                leave = leave.copy()
                leave[company] = in_company
                optimal[company] = optimal_company
        value = np.where(decision, leave, np.nan)
        result = (value, optimal & decision)
        self._last_leave = (codes, result)
        return result

    def stop_value(self, codes: Any) -> Any:
        return self._leave(codes)[0]

    def stop_is_optimal(self, codes: Any) -> Any:
        return self._leave(codes)[1]

    def turn_total(self, codes: Any) -> Any:
        """The models' ``turn_total`` where leaving is legal: what leaving now takes home."""
        import numpy as np

        return np.nan_to_num(self._leave(codes)[0], nan=0.0)

    # ---- decisions where another explorer leaves: inline ----------------------------------
    def inline(self, codes: Any) -> Any:
        """The decisions in company where another explorer leaves now (module docstring,
        "Merged decisions"): valued where they occur from their leave value and their draw's
        chance node, never stored."""
        import numpy as np

        if not self.others:
            return np.zeros(len(codes), bool)
        inside = _field(codes, "inside")
        leavers = self._leavers(_field(codes, "carried"), inside)
        # While every other explorer is inside, the cards flipped fix the gems carried, the
        # path and the artifacts: such a decision is alone with its chance node (kept stored).
        return (_field(codes, "kind") == 0) & (leavers != 0) & (inside != self._everyone)

    def inline_successors(self, codes: Any) -> Any:
        """The chance node of each inline decision: the state once the others at their
        threshold have left, before the flip (a draw-only code, like a round's start)."""
        c, inside = _field(codes, "carried"), _field(codes, "inside")
        path, arts = _field(codes, "path"), _field(codes, "arts")

        c, inside, path, arts, _ = self._after_leaving(self._leavers(c, inside), c, inside,
                                                      path, arts)
        return _KIND_START | self._compose(
            tcode=_field(codes, "tcode"), amask=_field(codes, "amask"),
            struct=_field(codes, "struct"), carried=c, inside=inside, path=path, arts=arts)

    def _after_leaving(self, leavers: Any, c: Any, inside: Any, path: Any, arts: Any
                       ) -> tuple[Any, Any, Any, Any, Any]:
        """``leavers`` (a mask per code) leave: they split the path, a lone one takes the
        artifacts; once nobody else is inside, explorer 0 carries it all.  The new ``carried``,
        ``inside``, ``path`` and ``arts``, and whether explorer 0 is now alone."""
        import numpy as np

        count = self.popcount[leavers]
        path = np.where(count > 0, path % np.maximum(count, 1), path)
        arts = np.where(count == 1, 0, arts)
        inside = inside & ~leavers
        solo = inside == 0
        c = np.where(solo, c + path + arts, c)
        return c, inside, np.where(solo, 0, path), np.where(solo, 0, arts), solo

    def inline_values(self, codes: Any, context: Any) -> Any:
        """``V`` of inline decisions as the recursion takes it: ``stop`` (leave with the others
        who leave now), then ``draw`` if it beats that (the chance node's value is the draw's
        ``Q``, the same sum of the same outcomes)."""
        import numpy as np

        stop = self._leave(codes)[0]
        draw = context.value_of(self.inline_successors(codes))
        return np.where(context.better(draw, stop), draw, stop)

    # ---- a flip ----------------------------------------------------------------------------
    def transitions(self, codes: Any, action: str) -> tuple[Any, Any, Any]:
        """The outcomes of a flip from each code (one level), in the models' order: treasures
        by class, artifacts, the springing traps, the safe trap flips."""
        import numpy as np

        if action != DRAW:
            raise IllegalActionError(f"unknown Incan Gold action {action!r}")
        t, m, sid = _field(codes, "tcode"), _field(codes, "amask"), _field(codes, "struct")
        c, inside = _field(codes, "carried"), _field(codes, "inside")
        path, arts = _field(codes, "path"), _field(codes, "arts")
        group = bool(self.others) and bool(inside.any())
        if group:
            # The others decide (not before the first flip): leavers split the path, a lone
            # one takes the artifacts; once nobody else is inside, explorer 0 has it all.
            leavers = self._leavers(c, inside) * (_field(codes, "kind") == 0)
            c, inside, path, arts, solo = self._after_leaving(leavers, c, inside, path, arts)
            k = 1 + self.popcount[inside]
        else:
            solo = np.ones(len(codes), bool)
            k = np.ones(len(codes), np.int64)
        base = self._compose(tcode=t, amask=m, struct=sid, carried=c, inside=inside, path=path,
                             arts=arts)
        rows = len(GEMS) + len(self.artifact_values) + 1 + self.move_weight.shape[1]
        weights = np.empty((rows, len(codes)), np.int64)
        shift = np.empty((rows, len(codes)), np.int64)
        row = 0
        for i in range(len(GEMS)):
            weights[row] = self.digits[i][t]
            shift[row] = self._treasure_shift[i][k] if group else self._treasure_shift[i][1]
            row += 1
        for j, value in enumerate(self.artifact_values):
            weights[row] = m >> j & 1
            gain = np.where(solo, value << _SHIFT["carried"], value << _SHIFT["arts"]) \
                if group else value << _SHIFT["carried"]
            shift[row] = gain - (1 << (j + _SHIFT["amask"]))
            row += 1
        bust = row
        weights[bust] = self.struct_danger[sid]
        shift[bust] = 0
        row += 1
        for q in range(self.move_weight.shape[1]):
            weights[row] = self.move_weight[sid, q]
            shift[row] = (self.move_to[sid, q] - sid) << _SHIFT["struct"]
            row += 1
        nxt = base + shift
        nxt[bust] = _KIND_END | 1 << _SHIFT["inside"]
        final = self.struct_size[sid] + self.t_count[t] + self.a_count[m] == 1
        if final.any():
            # The deck runs out: everyone inside leaves together.
            last = (weights > 0) & final
            last[bust] = False
            after = np.where(last, nxt, 0)
            alone = np.where(k == 1, _field(after, "arts"), 0)
            payoff = _field(after, "carried") + _field(after, "path") // k + alone
            nxt = np.where(last, _KIND_END | payoff << _SHIFT["carried"], nxt)
        return np.ones(len(codes), bool), weights.T, nxt.T


def _level_graph(cache: dict[Any, Any], deck: RoundDeck, others: tuple[int, ...],
                 solo: IncanGoldTurnModel) -> IncanGoldLevelGraph | None:
    """The level graph of ``deck`` with ``others``, built once per model."""
    key = ("graph", others)
    if key not in cache:
        try:
            cache[key] = IncanGoldLevelGraph(deck, others, solo=solo)
        except ImportError:  # pragma: no cover - the in-browser build may lack NumPy
            cache[key] = None
    return cache[key]


def deck_states(solo: IncanGoldTurnModel, state: IGState) -> int:
    """How many decks a round reaches from ``state``'s deck: the trap structures reachable
    from its structure times the treasure and artifact sets within it (each subset)."""
    struct, tcode, amask = state[1:4]
    key = ("reach", struct)
    structs = solo._cache.get(key)  # noqa: SLF001 - the model's own cache
    if structs is None:
        structs = solo._cache[key] = len(reachable_structs(struct))  # noqa: SLF001
    treasures = 1
    for _ in GEMS:
        treasures *= tcode % 3 + 1
        tcode //= 3
    return structs * treasures * 2 ** amask.bit_count()


def estimate_states(solo: IncanGoldTurnModel, state: IGState,
                    others: tuple[int, ...]) -> int | None:
    """About how many states a solve from ``state`` reaches (it sizes the progress bar and
    refuses absurd positions up front; measured within 0.2-7x, mostly above).

    Alone, the proved stop rule leaves about 15 % of :func:`deck_states` to solve (0.13-0.15
    from round starts, fewer later in a round).  Each other explorer who leaves at a positive
    threshold multiplies that: the gems left behind by the shares and path splits make the
    amount explorer 0 carries differ between orders of the same cards (measured: one threshold
    10 about x15, thresholds 5 and 10 about x33, seven different thresholds about x170;
    explorers sharing a threshold leave together and add less)."""
    if state[0] == "end":
        return 1
    solo_states = max(1, deck_states(solo, state) * 15 // 100)
    if len(state) == 5 or not others:
        return solo_states
    inside = state[5] if state[0] == "in" else (1 << len(others)) - 1
    thresholds = [t for j, t in enumerate(others) if inside >> j & 1]
    distinct = len({t for t in thresholds if t > 0})
    factor = 12 * distinct ** 2 / (1 + 0.15 * (len(thresholds) - distinct))
    return int(solo_states * max(1.0, factor))


def parse_others(text: str | Sequence[int] | None) -> tuple[int, ...]:
    """``"5,10"`` → ``(5, 10)``: each other explorer's leaving threshold."""
    if text is None:
        return ()
    if isinstance(text, str):
        if not text.strip():
            raise PositionError("others is empty: give each other explorer's threshold "
                                "(e.g. others=5,10), or leave others out to play alone")
        tokens: list[Any] = re.split(r"\s*,\s*|\s+", text.strip())
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    else:
        raise PositionError(f"others {quoted(text)}: give the thresholds as text such as "
                            "'5,10' or a list of whole numbers")
    values = []
    for token in tokens:
        if isinstance(token, str):
            if not token.strip():
                raise PositionError(f"others {quoted(text)} has an empty threshold between "
                                    "commas (e.g. others=5,10)")
            token = parse_whole_number(token, "threshold in others (e.g. others=5,10)",
                                       PositionError)
        if isinstance(token, bool) or not isinstance(token, int) or token < 0:
            raise PositionError(f"bad threshold {quoted(token)} in others: a threshold is a whole "
                                "number of gems, 0 or more")
        values.append(token)
    if len(values) > OTHERS_MAX:
        raise PositionError(f"others gives {len(values)} explorers: the model takes 1-"
                            f"{OTHERS_MAX} other explorers")
    return tuple(values)


# --------------------------------------------------------------------------------------------
# Position factory


def round_deck(variant: IncanGoldVariant, removed: Sequence[Card], round_no: int) -> RoundDeck:
    """The deck of round ``round_no`` after ``removed`` left the game in earlier rounds."""
    if not 1 <= round_no <= variant.rounds:
        raise PositionError(f"round must be 1-{variant.rounds}, not {round_no}")
    Deck(full_deck()).remove(removed, what="Incan Gold deck")
    traps = FULL_RING
    gone_artifacts = set()
    for card in removed:
        kind, index = classify(card)
        if kind == "treasure":
            raise PositionError(f"treasure {card.code} cannot have left the game: only traps "
                                f"that sprang and flipped artifacts leave")
        if kind == "trap":
            traps &= ~(1 << (index - 1))
        else:
            if index + 1 >= round_no:
                raise PositionError(
                    f"artifact {card.code} joins in round {index + 1}: it cannot have left the "
                    f"game before round {round_no}"
                )
            gone_artifacts.add(index)
    traps_gone = RING - bin(traps).count("1")
    if traps_gone and not variant.remove_sprung_trap:
        raise PositionError("with remove_sprung_trap off no trap ever leaves the game")
    if traps_gone > round_no - 1:
        raise PositionError(
            f"{traps_gone} traps removed, but at most one trap leaves per round "
            f"({round_no - 1} before round {round_no})"
        )
    artifacts = tuple(i for i in range(round_no) if i not in gone_artifacts)
    return RoundDeck(traps, FULL_TREASURES, artifacts)


def infer_round(drawn: Sequence[Card], removed: Sequence[Card]) -> int:
    """The earliest round consistent with the cards (the default of ``--round``)."""
    round_no = 1
    traps_gone = 0
    for card in drawn:
        kind, index = classify(card)
        if kind == "artifact":
            round_no = max(round_no, index + 1)
    for card in removed:
        kind, index = classify(card)
        if kind == "artifact":
            round_no = max(round_no, index + 2)
        elif kind == "trap":
            traps_gone += 1
    return max(round_no, traps_gone + 1)


def incan_gold_position(variant: IncanGoldVariant, *, drawn: str | Sequence[Card] | None = None,
                        removed: str | Sequence[Card] | None = None, round: int | None = None,
                        others: str | Sequence[int] | None = None,
                        carried: int | None = None, path: int | None = None,
                        artifacts: int | None = None,
                        ) -> tuple[TurnModel[IGState], IGState]:
    """A solo explorer's position (or, with ``others="5,10"``, explorer 0's among explorers
    who leave once carrying 5 and 10 gems).  ``drawn``: cards flipped this round, in order;
    ``removed``: cards out of the game from earlier rounds; ``round``: 1-5 (default: the
    earliest round the cards allow).

    Without ``carried`` the round is replayed from ``drawn`` (everyone in ``others`` inside
    from the start, leaving at their thresholds).  With ``carried`` (the gems the decider
    carries now), ``path`` (gems left on the path) and ``artifacts`` (the value of the
    artifacts on the path) the position is the table's state as it is, whoever left before:
    ``others`` then lists the explorers still inside."""
    flips = parse_cards(drawn)
    gone = parse_cards(removed)
    for card in (*flips, *gone):
        classify(card)
    Deck(full_deck()).remove(gone, what="Incan Gold deck")  # before the round is inferred
    if isinstance(round, str):
        round = parse_whole_number(round, "round", PositionError)
    round_no = infer_round(flips, gone) if round is None else round
    if isinstance(round_no, bool) or not isinstance(round_no, int) \
            or not 1 <= round_no <= variant.rounds:
        raise PositionError(f"round must be 1-{variant.rounds}, not {round_no!r}")
    for card in flips:
        kind, index = classify(card)
        if kind == "artifact" and index + 1 > round_no:
            raise PositionError(f"artifact {card.code} joins in round {index + 1}, after round "
                                f"{round_no}")
    deck = round_deck(variant, gone, round_no)
    assumed = round_no if round is None else None
    thresholds = parse_others(others)
    model: TurnModel[IGState]
    if carried is not None or path is not None or artifacts is not None:
        return _state_position(variant, deck, flips, thresholds, carried, path, artifacts)
    if thresholds:
        model = IncanGoldGroupModel(variant, thresholds, deck, flips, assumed_round=assumed)
    else:
        model = IncanGoldTurnModel(variant, deck, flips, assumed_round=assumed)
    return model, model.start


def _state_position(variant: IncanGoldVariant, deck: RoundDeck, flips: Sequence[Card],
                    thresholds: tuple[int, ...], carried: int | None, path: int | None,
                    artifacts: int | None) -> tuple[TurnModel[IGState], IGState]:
    """The position from the table's state (see :func:`incan_gold_position`)."""
    counts: dict[str, int] = {}
    for what, value in (("carried", carried), ("path", path), ("artifacts", artifacts)):
        if isinstance(value, str):
            value = parse_whole_number(value, f"--{what}", PositionError)
        value = 0 if value is None else value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PositionError(f"bad --{what} {quoted(value)}: a whole number of gems, 0 or more")
        counts[what] = value
    if not flips:
        raise PositionError("--carried, --path and --artifacts describe a round in progress: "
                            "give the cards flipped (--drawn)")
    _check_table_state(flips, len(thresholds) + 1 if thresholds else None, counts)
    solo = IncanGoldTurnModel(variant, deck)
    total = counts["carried"] + counts["path"] + counts["artifacts"]
    state = solo.state_for(flips, total)
    if not thresholds or state[0] != "in":
        return solo, state
    group = IncanGoldGroupModel(variant, thresholds, deck)
    full = (1 << len(thresholds)) - 1
    return group, ("in", *state[1:4], counts["carried"], full, counts["path"],
                   counts["artifacts"])


def _table_states(flips: Sequence[Card], inside: int | None) -> set[tuple[int, int, int]]:
    """Every ``(carried, path, artifacts)`` the flips can leave (the decider's gems, the gems
    and artifact value on the path), over every table of 1-8 explorers and every way they can
    have left between flips, with ``inside`` explorers (the decider too) inside now (``None``:
    any number).  Shares follow the engine: a treasure splits evenly among those inside, the
    remainder to the path; leavers split the path, a lone leaver takes its artifacts."""
    least = inside or 1
    states = {(n, 0, 0, 0) for n in range(least, OTHERS_MAX + 2)}
    for step, card in enumerate(flips):
        if step:
            for n, carried, path, arts in list(states):
                for leavers in range(1, n - least + 1):
                    states.add((n - leavers, carried, path % leavers,
                                0 if leavers == 1 else arts))
        kind, index = classify(card)
        if kind == "treasure":
            states = {(n, c + GEMS[index] // n, p + GEMS[index] % n, a)
                      for n, c, p, a in states}
        elif kind == "artifact":
            states = {(n, c, p, a + ARTIFACT_VALUES[index]) for n, c, p, a in states}
    return {(c, p, a) for n, c, p, a in states if inside is None or n == inside}


def _check_table_state(flips: Sequence[Card], inside: int | None,
                       counts: Mapping[str, int]) -> None:
    """A :class:`PositionError` when ``--carried``, ``--path`` and ``--artifacts`` cannot
    follow from the flips (:func:`_table_states`)."""
    states = _table_states(flips, inside)
    given = (counts["carried"], counts["path"], counts["artifacts"])
    if given in states:
        return
    who = "with nobody else inside" if inside == 1 else (
        f"with {inside} explorers inside" if inside else "with any table of 1-8 explorers")
    arts = sorted({a for _, _, a in states})
    if counts["artifacts"] not in arts:
        flipped = [c.code for c in flips if classify(c)[0] == "artifact"]
        raise PositionError(
            f"--artifacts {counts['artifacts']}: the artifacts flipped this round "
            f"({' '.join(flipped) or 'none'}) can leave only {_listed(arts)} on the path")
    carried = sorted({c for c, p, a in states if a == counts["artifacts"]
                      and p == counts["path"]})
    hint = (f"with that path you could carry {_listed(carried)}" if carried
            else f"no split leaves {counts['path']} on the path")
    raise PositionError(f"--carried {counts['carried']} and --path {counts['path']} cannot "
                        f"follow these flips {who} ({hint})")


def _listed(values: Sequence[int]) -> str:
    shown = ", ".join(map(str, values[:8]))
    return shown + (", ..." if len(values) > 8 else "")


# --------------------------------------------------------------------------------------------
# Engine


def _names(cards: Iterable[Card]) -> str:
    return " ".join(c.label for c in cards) or "none"


class IncanGoldEngine(Engine):
    """A whole game of Incan Gold for 1-8 explorers (1 = solo).

    ``deck`` is the round's face-down deck, next card first (tests may arrange it).  Phases:
    ``"enter"`` (seat 0 flips the first card with ``draw``), ``"decide"`` (each explorer inside,
    in seat order, chooses ``draw`` = stay or ``stop`` = leave; hidden until all have chosen),
    ``"over"``.
    """

    game = GAME

    def __init__(self, variant: IncanGoldVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: IncanGoldVariant = variant
        self.round_no = 0
        self.traps_in_game = FULL_RING
        self.artifacts_in_game: list[int] = []  # indices added to the game and not yet flipped
        self.removed: list[Card] = []
        self.banked = [0] * players
        self.artifacts_taken: list[list[Card]] = [[] for _ in range(players)]
        self.deck: list[Card] = []
        self.flipped: list[Card] = []
        self.inside = [False] * players
        self.carried = [0] * players
        self.path_gems = 0
        self.path_artifacts: list[Card] = []
        self.decisions: dict[int, str] = {}
        self.phase = "enter"
        self.round_deck = RoundDeck()
        self._start_round([])

    # ---- state ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "decide":
            return next(p for p in range(self.players)
                        if self.inside[p] and p not in self.decisions)
        return 0

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> tuple[str, ...]:
        if self.phase == "enter":
            return (DRAW,)
        if self.phase == "decide":
            return (DRAW, STOP)
        return ()

    def scores(self) -> tuple[int, ...]:
        return tuple(self.banked[p] + sum(card_value(c) for c in self.artifacts_taken[p])
                     for p in range(self.players))

    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        if self.variant.tie_break == "artifacts" and len(tied) > 1:
            most = max(len(self.artifacts_taken[p]) for p in tied)
            tied = [p for p in tied if len(self.artifacts_taken[p]) == most]
        return tuple(tied)

    # ---- rounds -----------------------------------------------------------------------
    def _start_round(self, out: list[str]) -> None:
        self.round_no += 1
        self.artifacts_in_game.append(self.round_no - 1)
        self.round_deck = RoundDeck(self.traps_in_game, FULL_TREASURES,
                                    tuple(sorted(self.artifacts_in_game)))
        self.deck = list(self.round_deck.cards())
        self.rng.shuffle(self.deck)
        self.flipped = []
        self.inside = [True] * self.players
        self.carried = [0] * self.players
        self.path_gems = 0
        self.path_artifacts = []
        self.decisions = {}
        self.phase = "enter"
        self._say(f"Round {self.round_no} of {self.variant.rounds}: the deck holds "
                  f"{len(self.deck)} cards ({self.round_deck.describe()}).", out)

    def _end_round(self, out: list[str]) -> None:
        for card in self.flipped:
            kind, index = classify(card)
            if kind == "artifact":
                self.artifacts_in_game.remove(index)
                self.removed.append(card)
        self.inside = [False] * self.players
        if self.round_no >= self.variant.rounds:
            self.phase = "over"
            scores = ", ".join(f"Player {p + 1} {s}" for p, s in enumerate(self.scores()))
            self._say(f"Game over: {scores}. {self._winner_text()}", out)
        else:
            self._start_round(out)

    def _winner_text(self) -> str:
        won = self.winners()
        names = " and ".join(f"Player {p + 1}" for p in won)
        return f"{names} {'wins' if len(won) == 1 else 'share the win'}."

    def _record(self, player: int, result: int, busted: bool, note: str) -> None:
        self.turn_records.append(TurnRecord(player, result, busted, tuple(self.flipped), note))

    # ---- actions ----------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        if self.phase == "enter":
            self._say(f"The explorers enter the temple (round {self.round_no}).", out)
            self._flip(out)
            return out
        player = self.current_player
        self.decisions[player] = action
        self._say(f"Player {player + 1} has decided.", out)
        if all(self.decisions.get(p) for p in range(self.players) if self.inside[p]):
            self._reveal(out)
        return out

    def _reveal(self, out: list[str]) -> None:
        choices = ", ".join(
            f"Player {p + 1} {'stays' if a == DRAW else 'leaves'}"
            for p, a in sorted(self.decisions.items())
        )
        self._say(f"Decisions revealed: {choices}.", out)
        leavers = [p for p, a in sorted(self.decisions.items()) if a == STOP]
        self.decisions = {}
        self._leave(leavers, out)
        if any(self.inside):
            self._flip(out)
        else:
            self._say("Nobody is inside: the round ends.", out)
            self._end_round(out)

    def _leave(self, leavers: list[int], out: list[str]) -> None:
        if not leavers:
            return
        share, self.path_gems = divmod(self.path_gems, len(leavers))
        taken: list[Card] = []
        if len(leavers) == 1 and self.path_artifacts:
            taken, self.path_artifacts = self.path_artifacts, []
        for p in leavers:
            gems = self.carried[p] + share
            self.banked[p] += gems
            self.artifacts_taken[p].extend(taken)
            extra = f" and takes {_names(taken)}" if taken else ""
            self._say(f"Player {p + 1} leaves with {gems} gems ({self.carried[p]} carried + "
                      f"{share} from the path){extra}: banked {self.banked[p]}.", out)
            self.carried[p] = 0
            self.inside[p] = False
            value = gems + sum(card_value(c) for c in taken)
            self._record(p, value, False, f"left with {gems} gems" + extra)

    def _flip(self, out: list[str]) -> None:
        card = self.deck.pop(0)
        self._turned_up(card.code)
        inside = [p for p in range(self.players) if self.inside[p]]
        kind, index = classify(card)
        flipped_traps = [classify(c)[1] for c in self.flipped if classify(c)[0] == "trap"]
        self.flipped.append(card)
        if kind == "treasure":
            share, rem = divmod(GEMS[index], len(inside))
            for p in inside:
                self.carried[p] += share
            self.path_gems += rem
            self._say(f"Flip {card.label}: {GEMS[index]} gems, {share} to each of {len(inside)} "
                      f"inside, {rem} to the path (path {self.path_gems}).", out)
        elif kind == "artifact":
            self.path_artifacts.append(card)
            self._say(f"Flip {card.label}: an artifact worth {ARTIFACT_VALUES[index]} is left "
                      f"on the path.", out)
        elif springs(index, flipped_traps):
            self._say(f"Flip {card.label}: the trap springs! Everyone inside loses what they "
                      f"carry.", out)
            for p in inside:
                self._record(p, 0, True, f"caught by {card.label}, lost {self.carried[p]}")
                self.carried[p] = 0
            if self.variant.remove_sprung_trap:
                self.traps_in_game &= ~(1 << (index - 1))
                self.removed.append(card)
                self._say(f"{card.label} leaves the game.", out)
            self._end_round(out)
            return
        else:
            self._say(f"Flip {card.label}: a trap, but nothing happens yet.", out)
        if not self.deck:
            self._say("The deck is exhausted: everyone inside walks out together.", out)
            self._leave(inside, out)
            self._end_round(out)
            return
        self.phase = "decide"

    # ---- views ------------------------------------------------------------------------
    def take(self, player: int) -> int:
        """What ``player`` would bank leaving alone now."""
        return (self.carried[player] + self.path_gems
                + sum(card_value(c) for c in self.path_artifacts))

    def position_flags(self) -> dict[str, str]:
        """This round as `pushluck odds` flags: the cards flipped, the cards out of the game
        from earlier rounds, the round and, once cards are flipped, the round's state as it is:
        the gems the decider carries, the gems and artifact value left on the path.  Alone (or
        without ``others``) this is :meth:`turn_position`'s solo model; the table adds the
        other explorers still inside (:meth:`others_in_turn`) with their thresholds."""
        flags = {"round": str(self.round_no)}
        if self.flipped:
            flags["drawn"] = " ".join(card.code for card in self.flipped)
        if self.removed:
            flags["removed"] = " ".join(card.code for card in self.removed)
        if self.phase == "decide" and self.flipped:
            flags["carried"] = str(self.carried[self.current_player])
            flags["path"] = str(self.path_gems)
            flags["artifacts"] = str(sum(card_value(c) for c in self.path_artifacts))
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The round's deck, the path (cards flipped this round; artifacts still lying there),
        the artifacts taken, the cards out of the game (sprung traps, artifacts lost with a
        round) and the artifacts of rounds to come."""
        taken = tuple(card for cards in self.artifacts_taken for card in cards)
        on_path = tuple(self.path_artifacts)
        path = tuple(c for c in self.flipped
                     if classify(c)[0] != "artifact" and c not in self.removed) + on_path
        out = tuple(c for c in self.removed
                    if classify(c)[0] != "artifact" or (c not in taken and c not in on_path))
        to_come = tuple(artifact_card(i) for i in range(self.round_no, ROUNDS_MAX))
        return {"deck": tuple(self.deck), "path": path, "taken": taken,
                "out of the game": out, "artifacts to come": to_come}

    def others_in_turn(self) -> tuple[int, ...]:
        """The other explorers in this round with the decider (their choices share its gems):
        at a decision those still inside; at the entrance every other explorer (all enter)."""
        if self.phase == "enter":
            return tuple(range(1, self.players))
        if self.phase != "decide":
            return ()
        me = self.current_player
        return tuple(p for p in range(self.players) if self.inside[p] and p != me)

    def turn_position(self) -> tuple[IncanGoldTurnModel, IGState]:
        """The solo model of this round (built at its start, so solvers are reused) at the
        current decider's state: the position of a lone explorer.  With other explorers in the
        round the table analyses the group model instead (:meth:`others_in_turn`,
        :meth:`position_flags` and ``--others``); the bots' own round solve uses this one."""
        model = IncanGoldTurnModel(self.variant, self.round_deck)
        if self.phase == "over":
            raise PositionError("the game is over")
        if self.phase == "enter":
            return model, model.state_for((), 0)
        return model, model.state_for(self.flipped, self.take(self.current_player), check=False)

    def view(self) -> TableView:
        current = self.current_player
        lines = []
        for p in range(self.players):
            if self.phase == "decide" and self.inside[p]:
                status = "decided" if p in self.decisions else "deciding"
                where = f"inside ({status})"
            elif self.phase == "enter":
                where = "at the entrance"
            else:
                where = "left" if self.phase != "over" else "game over"
            arts = _names(self.artifacts_taken[p])
            lines.append((f"carrying {self.carried[p]}", where, f"banked {self.banked[p]} gems",
                          f"artifacts: {arts}"))
        finished = self._winner_text() if self.is_over else ""
        traps = [c.label for c in self.flipped if c.suit == "s"]
        return TableView(
            scores=self.scores(),
            current_player=current,
            turn_cards=tuple(self.flipped),
            turn_total=self.carried[current] if self.phase == "decide" else 0,
            turn_lines=(f"Path: {self.path_gems} gems",
                        f"Artifacts on the path: {_names(self.path_artifacts)}",
                        f"Traps flipped this round: {' '.join(traps) or 'none'}"),
            player_lines=tuple(lines),
            draw_pile=len(self.deck),
            discard_pile=len(self.removed),
            round_text=f"Round {self.round_no} of {self.variant.rounds}",
            finished_text=finished,
        )

    def action_label(self, action: str) -> str:
        if self.phase == "enter" and action == DRAW:
            return "Enter the temple"
        return {DRAW: "Stay", STOP: "Leave"}.get(action, action)


SPEC = register(GameSpec(
    name=GAME,
    title="Incan Gold (standard deck)",
    variant_cls=IncanGoldVariant,
    engine_cls=IncanGoldEngine,
    position=incan_gold_position,
    deck=lambda variant: full_deck(),
    position_flags=(
        DRAWN, REMOVED,
        Flag("round", "the round, 1-5", whole_number),
        Flag("others", "other explorers' leave thresholds, e.g. 5,10"),
        Flag("carried", "gems you carry this round (with --path, --artifacts: the round as it "
             "is)", whole_number),
        Flag("path", "gems left on the path this round", whole_number),
        Flag("artifacts", "value of the artifacts on the path", whole_number),
    ),
    example={"drawn": "5s Kh", "round": "2"},
    min_players=1,
    max_players=8,
    presets={
        "standard": IncanGoldVariant(),
        "short": IncanGoldVariant(rounds=3),
        "traps-stay": IncanGoldVariant(remove_sprung_trap=False),
        "artifact-tiebreak": IncanGoldVariant(tie_break="artifacts"),
    },
    blurb="Explore a temple together; two neighbouring spades spring a trap. Stay or leave?",
))

__all__ = [
    "IncanGoldEngine", "IncanGoldGroupModel", "IncanGoldTurnModel", "IncanGoldVariant",
    "RoundDeck", "classify", "incan_gold_position",
]
