r"""Captain Seven's chance to win at one position, from the stored solution, in plain Python.

The win gauge and the win coach of the Captain Seven table ask for the mover's chance to win
(P(win) + P(tie)/2) at a turn position, and for the chances after stashing or drawing on now.
:mod:`pushluck_teach.solve.whole_game.captain_seven` computes them with NumPy from

* the solution of the target (``start[a, b]``, the win value at a turn start, and
  ``thresholds[a, b]``, the threshold chosen there: a ``G×G`` float64 and int16 pair, shipped in
  ``pushluck_teach/data/`` for the sheet's lengths 75, 100, 150 and 200);
* the turn table from the turn start (edge masses, ``320 × 321`` float64, shipped), from which
  the final-turn values ``F[d]`` follow;
* within a turn, the turn table from the current state: the ordering-trick dynamic programme
  over the multisets of the non-tens left in the deck (at most ``5^8 = 390,625`` of them).

This module does the same computations for the one position asked, with the same float64
operations in the same order (cumulative sums in sequence, NumPy's pairwise summation for a
dot product, the multiset programme in one pass in the order NumPy's repeated sweeps settle
to), so it gives the NumPy path's numbers bit for bit (the tests compare them over many
positions).  It needs no NumPy:

* in the Voilà app the NumPy solver answers (``captain_seven_win_probability``);
* on the static site (no NumPy in the browser) the tables are read from the shipped ``.npz``
  files by :mod:`pushluck_teach.solve.plain_arrays`; a target without a shipped solution is
  computed in the Voilà app (:class:`TableNotShipped`, one line on the gauge).

The cache keys of the stored tables live here, so both paths name the same files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, PositionError, RulesError
from pushluck_teach.games.captain_seven import (
    CLASS_VALUES,
    SEVEN,
    STARTED,
    TEN,
    CaptainSevenTurnModel,
    CaptainSevenVariant,
    captain_seven_position,
)
from pushluck_teach.solve import cache
from pushluck_teach.solve.whole_game.pig_chances import TableNotShipped

GAME = "captain-seven"
#: Bump when any stored number could change.
SOLVER_VERSION = 1
#: Largest turn total: 7 (a first 7) + 312 (all 48 non-catching cards).
MAX_TOTAL = 319
#: Thresholds 1 .. MAX_THRESHOLD cover every distinct stash rule (320 never stashes).
MAX_THRESHOLD = MAX_TOTAL + 1
#: Largest target the whole-game solver accepts.
MAX_TARGET = 400
#: The sheet's game lengths solved and shipped (1000 is beyond MAX_TARGET).
SHIPPED_TARGETS = (75, 100, 150, 200)
#: A threshold is changed only when another is better by more than this.
TIE = 1e-13
#: The rules compared by default (and shipped for the sheet's lengths).
GIVE_AWAY_THRESHOLDS = tuple(range(10, 46))
GIVE_AWAY_KINDS = ("threshold", "chase")
#: One line for the gauge and the review: how the chances are computed.
DESCRIPTION = "Captain Seven: the best threshold per pair of stashes"

_SIZE = MAX_TOTAL + 1  # totals 0 .. MAX_TOTAL
_FINAL_SPAN = 2 * _SIZE + 1  # final-turn values F[d], d = 0 .. 2 * _SIZE
_NONTEN_VALUES = CLASS_VALUES[:8]


def table_key() -> cache.CacheKey:
    """The cache key of the turn table from the turn start (no relics)."""
    return cache.CacheKey(GAME, "turn-table", {"relics": False}, {"max_total": MAX_TOTAL},
                          SOLVER_VERSION)


def solution_key(target: int) -> cache.CacheKey:
    """The cache key of the optimised policy's ``start`` and ``thresholds`` for a target."""
    return cache.CacheKey(GAME, "optimal", {"target": target, "relics": False},
                          {"tie": TIE, "max_threshold": MAX_THRESHOLD}, SOLVER_VERSION)


def give_away_key(g: int, thresholds: Sequence[int], kinds: Sequence[str]) -> cache.CacheKey:
    """The cache key of the fixed rules' chances against the optimal player."""
    return cache.CacheKey(GAME, "give-away", {"target": g, "relics": False},
                          {"thresholds": [int(t) for t in thresholds], "kinds": list(kinds),
                           "tie": TIE}, SOLVER_VERSION)


@dataclass(frozen=True)
class GiveAway:
    """What fixed rules give away against the optimal player, averaged over both seats.

    ``chances[i]`` is rule ``labels[i]``'s win value against the optimal player (half moving
    first, half second); the optimal player against itself gets exactly 1/2, so a rule gives
    away ``0.5 - chance``.  ``best`` is the best rule of each kind (``threshold``, ``chase``).
    """

    target: int
    labels: tuple[str, ...]
    chances: tuple[float, ...]
    best: dict[str, tuple[str, float]]

    @classmethod
    def from_table(cls, target: int, thresholds: Sequence[int], kinds: Sequence[str],
                   chances: Any) -> GiveAway:
        """From ``chances[i, j]``: rule ``kinds[i]:thresholds[j]``'s chance."""
        labels: list[str] = []
        values: list[float] = []
        best: dict[str, tuple[str, float]] = {}
        for i, kind in enumerate(kinds):
            for j, t in enumerate(thresholds):
                chance = float(chances[i, j])
                labels.append(f"{kind}:{t}")
                values.append(chance)
                if kind not in best or chance > best[kind][1]:
                    best[kind] = (f"{kind}:{t}", chance)
        return cls(target, tuple(labels), tuple(values), best)

    def give_away(self, kind: str = "threshold") -> float:
        return 0.5 - self.best[kind][1]

    def chance(self, rule: str) -> float:
        """One rule's chance against the optimal player (both seats), e.g. ``"chase:25"``."""
        try:
            return self.chances[self.labels.index(rule)]
        except ValueError:
            raise RulesError(f"{rule!r} is not among the rules compared "
                             f"({self.labels[0]} .. {self.labels[-1]})") from None

    def series(self) -> tuple[list[int], dict[str, list[float]]]:
        """``(thresholds, {kind: chances})`` for :func:`~pushluck_teach.ui.whole_game.
        threshold_rule_chart`."""
        out: dict[str, list[float]] = {}
        thresholds: list[int] = []
        for label, chance in zip(self.labels, self.chances, strict=True):
            kind, _, t = label.partition(":")
            out.setdefault(kind, []).append(chance)
            if len(out) == 1:
                thresholds.append(int(t))
        return thresholds, out


# --------------------------------------------------------------------------------------------
# Sums as NumPy does them


def pairwise_sum(values: Sequence[float]) -> float:
    """``numpy.sum`` of a contiguous float64 vector, bit for bit: NumPy's pairwise summation
    (eight running sums over blocks of at most 128, halves above)."""
    n = len(values)
    if n < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        r = list(values[:8])
        i, end = 8, n - n % 8
        while i < end:
            for j in range(8):
                r[j] += values[i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[end:]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def _cumulative(values: Sequence[float]) -> list[float]:
    """``numpy.cumsum`` of a vector (a running sum, in order)."""
    out: list[float] = []
    running = 0.0
    for i, value in enumerate(values):
        running = value if i == 0 else running + value
        out.append(running)
    return out


# --------------------------------------------------------------------------------------------
# One turn's table


@dataclass(frozen=True, eq=False)
class PlainTurnTable:
    """The edge masses of one turn from a root state (``captain_seven.TurnTable``), as lists:
    ``edges[x][y + 1]``, ``lost[y + 1]``; rows of the threshold matrix on demand."""

    edges: list[list[float]]
    lost: list[float]
    root_total: int = -1
    started: bool = False

    @property
    def _cumulative(self) -> tuple[list[list[float]], list[float]]:
        return _cumulative_tables(self)

    def threshold_row(self, threshold: int) -> list[float]:
        """``D[T, x]``: the distribution of the doubloons stashed under "stash once the turn
        total reaches T" (``x = 0``: caught), as ``TurnTable.threshold_matrix()[T]``."""
        row = [0.0] * _SIZE
        if self.started and self.root_total >= threshold:
            row[self.root_total] = 1.0
            return row
        cum_edges, cum_lost = self._cumulative
        j = min(threshold, _SIZE)
        for x in range(threshold, _SIZE):
            row[x] = cum_edges[x][j]
        row[0] = cum_lost[j]
        return row


@lru_cache(maxsize=4)
def _cumulative_tables(table: PlainTurnTable) -> tuple[list[list[float]], list[float]]:
    return [_cumulative(row) for row in table.edges], _cumulative(table.lost)


def _falling(n: int, k: int) -> float:
    out = 1.0
    for i in range(k):
        out *= n - i
    return out


@lru_cache(maxsize=16)
def _valid_weight_sums(caps: tuple[int, ...], offset: int
                       ) -> tuple[list[float], list[list[float]]]:
    """``V(N) w(N)`` of every multiset ``N`` of the non-tens left (``captain_seven.
    _valid_weights``: one pass in order of size gives the numbers its repeated sweeps settle
    to), summed by ``(size, total)`` (``a``) and weighted by the cards of each class left after
    ``N`` (``b[c]``), in the order of ``numpy.bincount`` over the dense lattice (class 0 the
    slowest digit).  Both are flat lists indexed by ``size * (s_max + 1) + total`` (read only).
    Only ``offset % 10`` matters: a ten drawn leaves the table of the cards before it."""
    radix = [cap + 1 for cap in caps]
    strides = [1] * 8
    for c in range(6, -1, -1):
        strides[c] = strides[c + 1] * radix[c + 1]
    width = sum(v * cap for v, cap in zip(_NONTEN_VALUES, caps, strict=True)) + 1
    bins = (sum(caps) + 1) * width
    sums = [0.0] * bins
    by_class = [[0.0] * bins for _ in range(8)]
    weights = [0.0] * (strides[0] * radix[0])
    last_cap, last_value, last_sums = caps[7], _NONTEN_VALUES[7], by_class[7]
    index = 0
    for prefix in product(*(range(r) for r in radix[:7])):
        base_total = sum(v * n for v, n in zip(_NONTEN_VALUES, prefix, strict=False))
        base_size = sum(prefix)
        terms = [(float(caps[c] - n + 1), strides[c]) for c, n in enumerate(prefix) if n]
        lefts = [(by_class[c], caps[c] - n) for c, n in enumerate(prefix) if caps[c] - n]
        for j in range(last_cap + 1):
            total = base_total + last_value * j
            if index == 0:
                weight = 1.0
            elif (total + offset) % 10 == 7:
                index += 1
                continue  # V(N) = 0: every order passes a total ending in 7
            else:
                weight = 0.0  # NumPy's sum starts from zero too
                for factor, stride in terms:
                    weight += factor * weights[index - stride]
                if j:
                    weight += float(last_cap - j + 1) * weights[index - 1]
                if weight == 0.0:
                    index += 1
                    continue
            weights[index] = weight
            key = (base_size + j) * width + total
            sums[key] += weight
            for part, left in lefts:
                part[key] += weight * left
            if last_cap - j:
                last_sums[key] += weight * (last_cap - j)
            index += 1
    return sums, by_class


def _add_run(edges: list[list[float]], lost: list[float], *, caps: Sequence[int], tens: int,
             catchers: int, deck: int, offset: int, prob: float) -> None:
    """``captain_seven._add_run`` from a started state (``skip_root=False``): the edge masses
    of every state reached, added in the same order."""
    sums, by_class = _valid_weight_sums(tuple(caps), offset % 10)
    seven_rule = offset % 10 == 7  # tens catch until the first non-ten
    n_max = sum(caps)
    width = len(sums) // (n_max + 1)
    for n in range(n_max + 1):
        live = [(s, sums[n * width + s]) for s in range(width) if sums[n * width + s]]
        if not live:
            continue
        for k in range(tens + 1):
            if n == 0 and k > 0 and seven_rule:
                continue
            left = deck - n - k
            if left <= 0:
                continue
            inter = comb(n - 1 + k, k) if seven_rule and n > 0 else comb(n + k, k)
            g = prob * inter * _falling(tens, k) / _falling(deck, n + k) / left
            for s, weight in live:
                row = weight * g
                if row == 0:
                    continue
                y = offset + s + 10 * k
                yi = y + 1
                lost[yi] += row * catchers
                if tens - k:
                    if n == 0 and seven_rule:
                        lost[yi] += row * (tens - k)
                    else:
                        edges[y + 10][yi] += row * (tens - k)
                for c in range(8):
                    col = by_class[c][n * width + s] * g
                    if col == 0:
                        continue
                    value = _NONTEN_VALUES[c]
                    if (offset + s + value) % 10 != 7:
                        edges[y + value][yi] += col
                    else:
                        lost[yi] += col


def _check_model(model: CaptainSevenTurnModel, state: int) -> None:
    if model.variant.relics or model.relic is not None:
        raise PositionError("the whole-game analysis covers captain-seven without relics")
    if state < 0:
        raise PositionError("the turn is over: nothing to analyse")


def turn_table_from_state(model: CaptainSevenTurnModel, state: int) -> PlainTurnTable:
    """The exact turn table from a decision state of a turn (no relics), as
    ``captain_seven.turn_table_from_state``: the shipped one at the turn start, else the
    multiset programme from the cards left."""
    _check_model(model, state)
    if not state & STARTED:
        return turn_start_table()
    return _table_after(model.deck_counts(state), int(model.turn_total(state)))


@lru_cache(maxsize=8)
def _table_after(left: tuple[int, ...], total: int) -> PlainTurnTable:
    edges = [[0.0] * (_SIZE + 1) for _ in range(_SIZE)]
    lost = [0.0] * (_SIZE + 1)
    _add_run(edges, lost, caps=left[:8], tens=left[TEN],
             catchers=left[SEVEN] + left[SEVEN + 1], deck=sum(left), offset=total, prob=1.0)
    return PlainTurnTable(edges, lost, total, True)


@lru_cache(maxsize=1)
def turn_start_table() -> PlainTurnTable:
    """The shipped turn table from the turn start, read without NumPy."""
    arrays = cache.load_plain(table_key())
    if arrays is None:
        raise TableNotShipped("computed in the Voilà app (scripts/run_app.sh): this site lacks "
                              "Captain Seven's turn table.")
    edges, lost = arrays["edges"].tolist(), arrays["lost"].tolist()
    return PlainTurnTable([list(map(float, row)) for row in edges], [float(v) for v in lost])


@lru_cache(maxsize=1)
def final_turn_table() -> tuple[tuple[float, ...], tuple[int, ...]]:
    """``(F[d], T_F[d])`` for ``d = 0 .. 2 * 320``, as ``captain_seven.final_turn_table``: the
    best final-turn win value when the last player must pass ``d`` more doubloons than they
    have, and the smallest threshold within :data:`TIE` of it."""
    table = turn_start_table()
    wins: list[list[float]] = []
    for t in range(1, MAX_THRESHOLD + 1):
        row = table.threshold_row(t)
        tail = list(reversed(_cumulative(list(reversed(row)))))  # tail[d] = P(x >= d)
        win = [(tail[d + 1] if d + 1 < _SIZE else 0.0) + 0.5 * row[d] for d in range(_SIZE)]
        wins.append(win + [0.0] * (_FINAL_SPAN - _SIZE))
    best = tuple(max(win[d] for win in wins) for d in range(_FINAL_SPAN))
    choice = tuple(next(t for t, win in enumerate(wins, 1) if win[d] >= best[d] - TIE)
                   for d in range(_FINAL_SPAN))
    return best, choice


# --------------------------------------------------------------------------------------------
# The whole game's solution for a target


@dataclass(frozen=True, eq=False)
class PlainSolution:
    """``start[a, b]`` and ``thresholds[a, b]`` of the optimised policy for a target, read
    without NumPy, with the final-turn values (``captain_seven.CaptainSevenSolution``)."""

    target: int
    start: Any
    thresholds: Any

    def win_probability(self, a: int, b: int) -> float:
        if b >= self.target:
            final_value, _ = final_turn_table()
            return float(final_value[min(b - a, _FINAL_SPAN - 1)])
        return float(self.start[a, b])

    def threshold(self, a: int, b: int) -> int:
        if b >= self.target:
            _, final_threshold = final_turn_table()
            return int(final_threshold[min(b - a, _FINAL_SPAN - 1)])
        return int(self.thresholds[a, b])


@lru_cache(maxsize=4)
def plain_solution(target: int) -> PlainSolution:
    """The stored solution for ``target`` (shipped, or in the user cache), or
    :class:`TableNotShipped`."""
    arrays = cache.load_plain(solution_key(target))
    if arrays is None:
        lengths = ", ".join(str(g) for g in SHIPPED_TARGETS)
        raise TableNotShipped(
            "computed in the Voilà app (scripts/run_app.sh) for these rules; this site has it "
            f"for targets {lengths}.")
    return PlainSolution(target, arrays["start"], arrays["thresholds"])


def check_stashes(target: int, my_stash: Any, opp_stash: Any) -> tuple[int, int]:
    """The stashes as plain ints, or a :class:`PositionError` naming what is wrong."""
    for name, value in (("my stash", my_stash), ("opponent's stash", opp_stash)):
        if isinstance(value, bool) or not hasattr(value, "__index__") or value < 0:
            raise PositionError(f"{name} must be a whole number >= 0, not {value!r}")
    a, b = int(my_stash), int(opp_stash)
    if a >= target:
        raise PositionError(
            f"my stash {a} has reached the target {target}: my game is over (no turn to play)"
        )
    return a, b


def _values_after(solution: PlainSolution, a: int, b: int, final: bool) -> list[float]:
    """The mover's win value of ending the turn with ``x`` more doubloons (``x = 0``: caught;
    on a final turn: beating, tying or losing to the stash to pass)."""
    if final:
        d = b - a
        return [1.0 if x > d else (0.5 if x == d else 0.0) for x in range(_SIZE)]
    g = solution.target
    final_value, _ = final_turn_table()
    after = [0.0] * _SIZE
    for x in range(_SIZE):
        y = a + x
        value = (float(solution.start[b, y]) if y < g
                 else final_value[min(max(y - b, 0), _FINAL_SPAN - 1)])
        after[x] = 1.0 - value
    after[0] = 1.0 - float(solution.start[b, a])
    return after


def _expected(row: Sequence[float], after: Sequence[float]) -> float:
    return pairwise_sum([p * v for p, v in zip(row, after, strict=True)])


def win_chance(variant: CaptainSevenVariant, my_stash: int, opp_stash: int,
               model: CaptainSevenTurnModel, state: int) -> float:
    """The mover's chance to win from here (P(win) + P(tie)/2), both playing the optimised
    threshold policy (``captain_seven.captain_seven_win_probability``)."""
    solution = plain_solution(variant.target)
    a, b = check_stashes(solution.target, my_stash, opp_stash)
    if not state & STARTED:
        return solution.win_probability(a, b)
    table = turn_table_from_state(model, state)
    threshold = solution.threshold(a, b)
    after = _values_after(solution, a, b, b >= solution.target)
    return _expected(table.threshold_row(threshold), after)


def action_chances(variant: CaptainSevenVariant, my_stash: int, opp_stash: int,
                   model: CaptainSevenTurnModel, state: int) -> dict[str, float | None]:
    """The mover's chance to win if it stashes now, and if it draws on and then stashes at the
    best threshold above the turn total (``captain_seven.captain_seven_action_win_chances``)."""
    solution = plain_solution(variant.target)
    a, b = check_stashes(solution.target, my_stash, opp_stash)
    table = turn_table_from_state(model, state)
    after = _values_after(solution, a, b, b >= solution.target)
    total = int(model.turn_total(state)) if state & STARTED else 0
    stash: float | None = None
    if state & STARTED and STOP in model.actions(state):
        point = [0.0] * _SIZE
        point[min(total, _SIZE - 1)] = 1.0
        stash = _expected(point, after)
    draw = max(_expected(table.threshold_row(t), after)
               for t in range(max(total + 1, 1), MAX_THRESHOLD + 1))
    return {DRAW: draw, STOP: stash}


# --------------------------------------------------------------------------------------------
# What the whole-game lesson reads (the NumPy solver's where present, else the stored tables)


@dataclass(frozen=True, eq=False)
class StoredSolution(PlainSolution):
    """:class:`PlainSolution` with what the lesson shows of ``CaptainSevenSolution``."""

    @property
    def p_win_first(self) -> float:
        return float(self.start[0, 0])


def optimal_solution(variant: CaptainSevenVariant | None = None) -> Any:
    """The optimised policy for ``variant``'s target: the NumPy solver's
    (``captain_seven.optimal_solution``) where NumPy is present, else the stored one
    (:class:`TableNotShipped` for a target without one)."""
    variant = variant or CaptainSevenVariant()
    solver = _numpy_solver()
    if solver is not None:
        return solver.optimal_solution(variant)
    _check_variant(variant)
    stored = plain_solution(variant.target)
    return StoredSolution(stored.target, stored.start, stored.thresholds)


def threshold_give_away(variant: CaptainSevenVariant | None = None) -> GiveAway:
    """Every ``threshold:T`` and ``chase:T`` rule (T = 10 .. 45) against the optimal player,
    both seats: the NumPy solver's (``captain_seven.threshold_give_away``) where NumPy is
    present, else the stored comparison (shipped for the sheet's lengths)."""
    variant = variant or CaptainSevenVariant()
    solver = _numpy_solver()
    if solver is not None:
        return solver.threshold_give_away(variant)
    g = _check_variant(variant)
    arrays = cache.load_plain(give_away_key(g, GIVE_AWAY_THRESHOLDS, GIVE_AWAY_KINDS))
    if arrays is None:
        raise TableNotShipped("the fixed rules' chances are computed in the Voilà app "
                              "(scripts/run_app.sh) for these rules.")
    return GiveAway.from_table(g, GIVE_AWAY_THRESHOLDS, GIVE_AWAY_KINDS, arrays["chances"])


def captain_seven_win_probability(variant: CaptainSevenVariant, my_stash: int, opp_stash: int,
                                  turn_total: int = 0, *, drawn: Any = None) -> float:
    """The mover's chance to win from here (P(win) + P(tie)/2) after this turn's cards
    ``drawn`` (none: the turn start), both playing the optimised policy: the NumPy solver's
    where present, else :func:`win_chance` (the same number)."""
    solver = _numpy_solver()
    if solver is not None:
        return solver.captain_seven_win_probability(variant, my_stash, opp_stash, turn_total,
                                                    drawn=drawn)
    _check_variant(variant)
    model, state = captain_seven_position(variant, drawn=drawn)
    if turn_total and int(model.turn_total(state)) != int(turn_total):
        raise PositionError(f"turn total {turn_total} does not match the cards drawn "
                            f"({model.turn_total(state)})")
    return win_chance(variant, my_stash, opp_stash, model, state)


def _check_variant(variant: Any) -> int:
    if not isinstance(variant, CaptainSevenVariant):
        raise RulesError(f"not a captain-seven variant: {type(variant).__name__}")
    if not _covered(variant):
        raise RulesError("the captain-seven whole-game solution covers the game without relics "
                         f"and targets up to {MAX_TARGET}")
    return variant.target


def _covered(variant: Any) -> bool:
    return (isinstance(variant, CaptainSevenVariant) and not variant.relics
            and variant.target <= MAX_TARGET)


def _numpy_solver() -> Any | None:
    """The NumPy solver module where NumPy is present (the Voilà app), else ``None``."""
    try:
        from pushluck_teach.solve.whole_game import captain_seven
    except ImportError:  # the static site's in-browser Python
        return None
    return captain_seven


class CaptainSevenChances:
    """The gauge's and the win coach's part of Captain Seven's whole-game solver (no NumPy
    needed): the NumPy solver where it is present, else the stored tables read here."""

    game = GAME
    description = DESCRIPTION

    def win_chance(self, variant: Any, my_score: int, opp_score: int, model: Any, state: Any
                   ) -> Callable[[], float] | None:
        """The gauge (``None`` with relics: the solution covers the game without them)."""
        if not _covered(variant):
            return None
        solver = _numpy_solver()
        if solver is not None:
            return lambda: solver.captain_seven_win_probability(
                variant, my_score, opp_score, state=state, model=model)
        plain_solution(variant.target)  # rules without a shipped table: TableNotShipped now
        return lambda: win_chance(variant, my_score, opp_score, model, state)

    def action_win_chances(self, variant: Any, my_score: int, opp_score: int, model: Any,
                           state: Any) -> Callable[[], dict[str, float | None]] | None:
        """The win coach: the chance to win if the mover stashes now or draws on."""
        if not _covered(variant):
            return None
        solver = _numpy_solver()
        if solver is not None:
            return lambda: solver.captain_seven_action_win_chances(
                variant, my_score, opp_score, model, state)
        plain_solution(variant.target)
        return lambda: action_chances(variant, my_score, opp_score, model, state)


CHANCES = CaptainSevenChances()

__all__ = ["CHANCES", "DESCRIPTION", "CaptainSevenChances", "GiveAway", "PlainSolution",
           "PlainTurnTable", "StoredSolution", "action_chances", "captain_seven_win_probability",
           "check_stashes", "final_turn_table", "give_away_key", "optimal_solution",
           "pairwise_sum", "plain_solution", "solution_key", "table_key", "threshold_give_away",
           "turn_start_table", "turn_table_from_state", "win_chance"]
