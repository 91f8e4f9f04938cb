r"""Pig's chance to win at one position, from the stored whole-game table, in plain Python.

The live gauge and the win coach of the Pig table ask for :math:`P(i, j, k)` (the mover's
chance to win with score :math:`i`, the opponent's :math:`j`, turn total :math:`k`) and for the
chances after rolling or holding now.  :mod:`pushluck_teach.solve.whole_game.pig` solves the
game with NumPy and stores :math:`V(i, j) = P(i, j, 0)` (``start``, ``G×G`` float64: 80 KB
for Pig to 100, shipped for the defaults in ``pushluck_teach/data/``); its whole table is one
sweep from that :math:`V`.  This module does the same sweep for the one pair :math:`(i, j)`
asked about (a column of ``G`` totals: the same sums in the same order, so the same float64
numbers bit for bit — the tests compare them with the NumPy table), so it needs no NumPy:

* in the Voilà app :math:`V` comes from the NumPy solver (shipped, cached, or solved now);
* on the static site (no NumPy in the browser) it is read from the shipped ``.npz`` file by
  :mod:`pushluck_teach.solve.plain_arrays`; for a small target without one it is solved by
  the same value iteration in plain Python (:func:`solve_start_plain`, each sweep a
  :func:`turn_column` per pair); for other rules the gauge says in one line that the Voilà app
  computes it (:class:`TableNotShipped`).

The game's chance structure (:class:`PigModel`) and the cache key of the stored solution live
here too, so both paths name the same file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from pushluck_teach.games.base import DRAW, STOP, PositionError, RulesError
from pushluck_teach.games.pig import PigVariant
from pushluck_teach.games.policies import (
    KEEP_PACE,
    THRESHOLD,
    WIN_OPTIMAL,
    Policy,
    parse_policy,
    unknown_policy,
)
from pushluck_teach.solve import cache

GAME = "pig"
#: Bump when any stored number could change.
SOLVER_VERSION = 1
#: Largest goal the float solvers accept (the table has about G³ entries).
MAX_TARGET = 200
#: Value iteration stops when a sweep changes no value by more than this.
TOLERANCE = 1e-13
#: Value iteration gives up after this many sweeps.
MAX_SWEEPS = 100_000
#: The largest target solved in plain Python where no table is shipped and NumPy is missing
#: (the static site): under a second in CPython with any die (a two-sided one needs the most
#: sweeps).
PLAIN_SOLVE_MAX_TARGET = 20
#: One line for the gauge and the review: how the chances are computed.
DESCRIPTION = "Pig: Neller and Presser's optimal policy (value iteration)"


@dataclass(frozen=True)
class PigModel:
    """What the whole-game solvers need: the goal, the die, and the faces that score.

    Each of the ``sides`` faces has probability ``1/sides``; the faces in ``faces`` add their
    value to the turn total, every other face busts.  :meth:`from_variant` gives the rules of
    :class:`~pushluck_teach.games.pig.PigVariant` (faces ``2..die_sides``); :meth:`piglet` gives
    Neller and Presser's Piglet, a coin whose head scores 1 (goal 2).  The ``piglet`` preset of
    ``games/pig.py`` (a two-sided die, goal 2) scores 2 per head, so it is Piglet with goal 1;
    Piglet in the engine's rules is ``die_sides=2, target=4`` (every score doubled).
    """

    target: int
    sides: int = 6
    faces: tuple[int, ...] = (2, 3, 4, 5, 6)

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or self.target < 1:
            raise RulesError(f"target must be a positive whole number, not {self.target!r}")
        if self.target > MAX_TARGET:
            raise RulesError(
                f"target {self.target} is too large for the whole-game solver (at most "
                f"{MAX_TARGET})"
            )
        if not self.faces or len(self.faces) >= self.sides or min(self.faces) < 1:
            raise RulesError("a Pig die needs at least one scoring face and one bust face")

    @classmethod
    def from_variant(cls, variant: PigVariant) -> PigModel:
        return cls(variant.target, variant.die_sides, tuple(range(2, variant.die_sides + 1)))

    @classmethod
    def piglet(cls, target: int = 2) -> PigModel:
        """Neller and Presser's Piglet: a coin, heads scores 1, tails busts."""
        return cls(target, 2, (1,))

    @property
    def p_bust(self) -> float:
        return (self.sides - len(self.faces)) / self.sides

    @property
    def depth(self) -> int:
        """Rows of the table: turn totals ``0 .. G + max face - 1``."""
        return self.target + max(self.faces)

    def key_options(self) -> dict[str, Any]:
        return {"target": self.target, "sides": self.sides, "faces": list(self.faces)}

    def reachable_totals(self) -> Any:
        """``reach[k]`` (a NumPy bool array): whether turn total ``k < G`` can occur (0, or a
        sum of faces)."""
        import numpy as np  # only the NumPy solver's views ask

        reach = [True] + [False] * (self.target - 1)
        for k in range(1, self.target):
            reach[k] = any(k >= f and reach[k - f] for f in self.faces)
        return np.array(reach, dtype=bool)


def optimal_key(model: PigModel) -> cache.CacheKey:
    """The cache key of the optimal solution's stored ``start`` table."""
    return cache.CacheKey(GAME, "optimal", model.key_options(), {"tol": TOLERANCE},
                          SOLVER_VERSION)


@dataclass(frozen=True)
class PigPolicy:
    """A whole-game policy: ``optimal``, ``hold`` (with ``hold_at``) or ``keep-pace``."""

    kind: str
    hold_at: int | None = None

    KINDS = ("optimal", "hold", "keep-pace")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise RulesError(f"unknown Pig policy {self.kind!r} ({POLICY_HELP})")
        if (self.kind == "hold") != (self.hold_at is not None):
            raise RulesError("hold needs a turn total: hold:N")
        if self.hold_at is not None and self.hold_at < 1:
            raise RulesError(f"bad policy hold:{self.hold_at}: N must be at least 1")

    @property
    def name(self) -> str:
        return f"hold:{self.hold_at}" if self.kind == "hold" else self.kind

    @classmethod
    def parse(cls, text: str | PigPolicy | Policy) -> PigPolicy:
        """From the shared vocabulary (:func:`~pushluck_teach.games.policies.parse_policy`;
        ``optimal`` is ``win-optimal`` here)."""
        if isinstance(text, PigPolicy):
            return text
        policy = parse_policy(text, optimal=WIN_OPTIMAL, who="Pig", names=POLICY_HELP)
        if policy.kind == THRESHOLD:
            return cls("hold", policy.number)
        kind = _PIG_KINDS.get(policy.kind)
        if kind is None:
            raise unknown_policy(policy.name, "Pig", POLICY_HELP)
        return cls(kind)

    def hold_mask(self, game: PigModel | PigVariant) -> Any:
        """``[k, i, j]`` (a NumPy bool array): this policy holds (always once holding wins;
        never at ``k = 0``)."""
        from pushluck_teach.solve.whole_game.pig import _policy_mask, as_model

        return _policy_mask(self, as_model(game))


POLICY_HELP = "policies: win-optimal (or optimal), hold:N, keep-pace"
#: The shared vocabulary's kinds -> this solver's.
_PIG_KINDS = {WIN_OPTIMAL: "optimal", KEEP_PACE: "keep-pace"}


def match_key(model: PigModel, first: PigPolicy, second: PigPolicy) -> cache.CacheKey:
    """The cache key of a match's stored tables (``first`` moves first)."""
    return cache.CacheKey(GAME, "match", model.key_options(),
                          {"first": first.name, "second": second.name, "tol": TOLERANCE},
                          SOLVER_VERSION)


class StartTable(Protocol):
    """``V[i, j]``: a NumPy array or a :class:`~pushluck_teach.solve.plain_arrays.PlainArray`."""

    def __getitem__(self, index: tuple[int, int]) -> Any: ...


class TableNotShipped(ImportError):
    """No NumPy to solve these rules and no shipped table for them (the static site)."""


def check_position(model: PigModel, my_score: int, opp_score: int, turn_total: int
                   ) -> tuple[int, int, int]:
    """The position as plain ints, or a :class:`PositionError` naming what is wrong."""
    g = model.target
    for name, value in (("my score", my_score), ("opponent's score", opp_score),
                        ("turn total", turn_total)):
        if not hasattr(value, "__index__") or value < 0:  # an int or a NumPy integer
            raise PositionError(f"{name} must be a whole number >= 0, not {value!r}")
    if my_score >= g or opp_score >= g:
        raise PositionError(f"a score of {g} or more has already won: the game is over")
    return int(my_score), int(opp_score), int(turn_total)


def turn_column(model: PigModel, start: StartTable, i: int, j: int) -> list[float]:
    """``[P(i, j, k) for k in 0 .. depth - 1]``: the NumPy solver's sweep
    (``pig._sweep``) for the one pair ``(i, j)``, with the same operations in the same order
    (so the same float64 numbers)."""
    g = model.target
    column = [1.0] * model.depth  # rows k >= G stay 1, as the NumPy table's
    bust = model.p_bust * (1.0 - float(start[j, i]))
    scale = 1.0 / model.sides
    first, rest = model.faces[0], model.faces[1:]
    for k in range(g - 1, -1, -1):
        acc = column[k + first]
        for face in rest:
            acc += column[k + face]
        acc *= scale
        acc += bust
        if k == 0:
            column[0] = acc
        else:
            hold = 1.0 - (float(start[j, i + k]) if i + k < g else 0.0)
            column[k] = acc if acc >= hold else hold  # numpy.maximum of two numbers
    return column


def win_chance(model: PigModel, start: StartTable, my_score: int, opp_score: int,
               turn_total: int = 0) -> float:
    """The mover's chance to win, both playing optimally (``PigSolution.win_probability``)."""
    i, j, k = check_position(model, my_score, opp_score, turn_total)
    if i + k >= model.target:
        return 1.0
    return turn_column(model, start, i, j)[k]


def _roll_hold(model: PigModel, start: StartTable, i: int, j: int, k: int
               ) -> tuple[float, float]:
    """The NumPy solution's ``roll_values[k, i, j]`` and ``hold_values[k, i, j]`` (its
    ``start`` is the table's first row, whose entries are swept from ``start`` here)."""
    def first_row(a: int, b: int) -> float:
        return turn_column(model, start, a, b)[0]

    column = turn_column(model, start, i, j)
    roll = sum(column[k + face] for face in model.faces) / model.sides
    roll = roll + model.p_bust * (1.0 - first_row(j, i))
    hold = 1.0 - first_row(j, i + k) if i + k < model.target else 1.0
    return float(roll), float(hold)


def action_chances(model: PigModel, start: StartTable, my_score: int, opp_score: int,
                   turn_total: int = 0) -> dict[str, float | None]:
    """The mover's chance to win if it rolls (``"draw"``) or holds (``"stop"``; None before the
    first roll) now, playing optimally afterwards (``pig_action_win_probabilities``, whose
    ``start`` is the table's first row: here that row's entries are swept from ``start``)."""
    i, j, k = check_position(model, my_score, opp_score, turn_total)

    def first_row(a: int, b: int) -> float:  # the NumPy solution's ``start[a, b]``
        return turn_column(model, start, a, b)[0]

    if i + k >= model.target:
        roll_on = model.p_bust * (1.0 - first_row(j, i)) + len(model.faces) / model.sides
        return {DRAW: float(roll_on), STOP: 1.0}
    roll, hold = _roll_hold(model, start, i, j, k)
    return {DRAW: roll, STOP: None if k == 0 else hold}


@dataclass(frozen=True, eq=False)
class _Rows:
    """``V[i, j]`` over a list of rows (what the plain value iteration builds)."""

    rows: list[list[float]]

    def __getitem__(self, index: tuple[int, int]) -> float:
        return self.rows[index[0]][index[1]]

    def tolist(self) -> list[list[float]]:
        return [list(row) for row in self.rows]


def solve_start_plain(model: PigModel) -> StartTable:
    """``V`` by the NumPy solver's value iteration (``pig.solve_optimal``: sweeps from
    ``V = 0``, each a :func:`turn_column` for every pair, until no value changes by more than
    :data:`TOLERANCE`), in plain Python: the same numbers, for small targets
    (:data:`PLAIN_SOLVE_MAX_TARGET`) where no table is shipped and NumPy is missing."""
    g = model.target
    rows = [[0.0] * g for _ in range(g)]
    for _sweep in range(MAX_SWEEPS):
        start = _Rows(rows)
        new = [[turn_column(model, start, i, j)[0] for j in range(g)] for i in range(g)]
        delta = max(abs(a - b) for old, now in zip(rows, new, strict=True)
                    for a, b in zip(now, old, strict=True))
        rows = new
        if delta <= TOLERANCE:
            return _Rows(rows)
    raise RuntimeError(f"Pig value iteration did not converge in {MAX_SWEEPS} sweeps")


def shipped_start(model: PigModel) -> StartTable | None:
    """The stored ``start`` table read without NumPy (shipped, or in the user cache), or
    ``None``."""
    arrays = cache.load_plain(optimal_key(model))
    return None if arrays is None else arrays.get("start")


@lru_cache(maxsize=4)
def plain_start(model: PigModel) -> StartTable:
    """``V`` without NumPy: the stored table, else for a small target solved in plain Python
    (:func:`solve_start_plain`), else :class:`TableNotShipped`."""
    stored = shipped_start(model)
    if stored is not None:
        return stored
    if model.target <= PLAIN_SOLVE_MAX_TARGET:
        return solve_start_plain(model)
    raise TableNotShipped(
        "computed in the Voilà app (scripts/run_app.sh) for these rules; this site has it for "
        f"targets up to {PLAIN_SOLVE_MAX_TARGET}, and for 50 and 100 with a six-sided die.")


def start_source(model: PigModel) -> Callable[[], StartTable]:
    """A function giving ``V`` for ``model``: the NumPy solver's (loaded, or solved when it is
    called: in the gauge's worker thread) where NumPy is present, else :func:`plain_start`
    (the table read now, so rules without one raise :class:`TableNotShipped` at once; a small
    target solved when called)."""
    try:
        from pushluck_teach.solve.whole_game.pig import stored_start
    except ImportError:  # the static site's in-browser Python
        if model.target <= PLAIN_SOLVE_MAX_TARGET:
            return lambda: plain_start(model)
        table = plain_start(model)
        return lambda: table
    return lambda: stored_start(model)


def _start_now(model: PigModel) -> StartTable:
    return start_source(model)()


@dataclass(frozen=True)
class ActionTable:
    """``table[k, i, j]``: the mover's chance to win on rolling (``action="roll"``) or holding
    now at turn total ``k``, score ``i`` against ``j``, as the NumPy solution's
    ``roll_values``/``hold_values`` (computed for the position asked)."""

    model: PigModel
    action: str

    def __getitem__(self, index: tuple[int, int, int]) -> float:
        k, i, j = index
        i, j, k = check_position(self.model, i, j, k)
        roll, hold = _roll_hold(self.model, _start_now(self.model), i, j, k)
        return roll if self.action == "roll" else hold


@dataclass(frozen=True)
class OptimalPositions:
    """What lessons read of Pig's optimal solution at single positions (no NumPy needed):
    ``roll_values[k, i, j]``, ``hold_values[k, i, j]`` and :meth:`win_probability`."""

    model: PigModel

    @property
    def roll_values(self) -> ActionTable:
        return ActionTable(self.model, "roll")

    @property
    def hold_values(self) -> ActionTable:
        return ActionTable(self.model, "hold")

    def win_probability(self, my_score: int, opp_score: int, turn_total: int = 0) -> float:
        return win_chance(self.model, _start_now(self.model), my_score, opp_score, turn_total)


def optimal_positions(variant: PigVariant | PigModel) -> OptimalPositions:
    """Pig's optimal solution at single positions, in the Voilà app and on the static site."""
    model = variant if isinstance(variant, PigModel) else PigModel.from_variant(variant)
    start_source(model)  # rules this Python cannot solve: TableNotShipped now
    return OptimalPositions(model)


@dataclass(frozen=True)
class StoredMatch:
    """A match read from its stored tables: ``p_win_first``, the first player's chance."""

    p_win_first: float


def evaluate_match(variant: PigVariant | PigModel, first: str | PigPolicy,
                   second: str | PigPolicy) -> Any:
    """``first`` against ``second``: the NumPy solver's evaluation (``pig.evaluate_match``)
    where NumPy is present, else the stored match read in plain Python (those shipped:
    ``pig.SHIPPED_MATCHES``), else :class:`TableNotShipped`."""
    model = variant if isinstance(variant, PigModel) else PigModel.from_variant(variant)
    a, b = PigPolicy.parse(first), PigPolicy.parse(second)
    try:
        from pushluck_teach.solve.whole_game.pig import evaluate_match as numpy_match
    except ImportError:  # the static site's in-browser Python
        arrays = cache.load_plain(match_key(model, a, b))
        if arrays is None or "first_start" not in arrays:
            raise TableNotShipped(
                f"{a.name} against {b.name} is computed in the Voilà app (scripts/run_app.sh) "
                "for these rules.") from None
        return StoredMatch(float(arrays["first_start"][0, 0]))
    return numpy_match(model, a, b)


class PigChances:
    """The gauge's and the win coach's part of Pig's whole-game solver (no NumPy needed)."""

    game = GAME
    description = DESCRIPTION

    def win_chance(self, variant: Any, my_score: int, opp_score: int, model: Any, state: Any
                   ) -> Callable[[], float] | None:
        """The gauge: ``state`` is Pig's ``("turn", turn total)``."""
        if not isinstance(variant, PigVariant) or variant.target > MAX_TARGET:
            return None
        pig = PigModel.from_variant(variant)
        source, total = start_source(pig), int(state[1])
        return lambda: win_chance(pig, source(), my_score, opp_score, total)

    def action_win_chances(self, variant: Any, my_score: int, opp_score: int, model: Any,
                           state: Any) -> Callable[[], dict[str, float | None]] | None:
        """The win coach: the chance to win if the mover rolls or holds now."""
        if not isinstance(variant, PigVariant) or variant.target > MAX_TARGET:
            return None
        pig = PigModel.from_variant(variant)
        source, total = start_source(pig), int(state[1])
        return lambda: action_chances(pig, source(), my_score, opp_score, total)


CHANCES = PigChances()


# --------------------------------------------------------------------------------------------
# What the whole-game lesson reads of the optimal solution (no NumPy needed)

#: Hold is chosen when it is within this of rolling (ties go to hold).
TIE = 1e-12


@dataclass(frozen=True, eq=False)
class PlainSolution:
    """What Lesson 6 shows of ``pig.PigSolution``, computed in plain Python from ``V`` (one
    :func:`turn_column` per pair of scores: the NumPy table's numbers bit for bit):
    ``start[i, j]``, ``hold_boundary[i, j]``, ``roll_values``/``hold_values`` and
    :attr:`p_win_first`."""

    model: PigModel
    columns: tuple[tuple[tuple[float, ...], ...], ...]  # columns[i][j][k] = P(i, j, k)

    @property
    def start(self) -> _Rows:
        """``[i, j]``: the mover's chance to win at the start of a turn (the table's row 0)."""
        return _Rows([[column[0] for column in row] for row in self.columns])

    @property
    def p_win_first(self) -> float:
        return self.columns[0][0][0]

    def win_probability(self, my_score: int, opp_score: int, turn_total: int = 0) -> float:
        i, j, k = check_position(self.model, my_score, opp_score, turn_total)
        return 1.0 if i + k >= self.model.target else self.columns[i][j][k]

    def roll_hold(self, i: int, j: int, k: int) -> tuple[float, float]:
        """``pig._roll_hold_values`` at one position: the chance to win on rolling and on
        holding at turn total ``k`` (``v_opp`` the table's row 0)."""
        model, column, g = self.model, self.columns[i][j], self.model.target
        roll = 0.0
        for face in model.faces:  # Python's sum over the faces' rows, as NumPy's
            roll = roll + column[k + face]
        roll = roll / model.sides
        roll = roll + model.p_bust * (1.0 - self.columns[j][i][0])
        hold = 1.0 - (self.columns[j][i + k][0] if i + k < g else 0.0)
        return roll, hold

    @property
    def roll_values(self) -> _SolutionTable:
        return _SolutionTable(self, 0)

    @property
    def hold_values(self) -> _SolutionTable:
        return _SolutionTable(self, 1)

    @property
    def hold_boundary(self) -> _Rows:
        """``[i, j]``: the smallest reachable turn total at which the optimal player holds
        (ties go to hold; ``G - i`` when it rolls on until holding wins), as
        ``pig.PigSolution.hold_boundary``."""
        g = self.model.target
        reach = _reachable(self.model)
        out = [[g - i] * g for i in range(g)]
        for i in range(g):
            for j in range(g):
                for k in range(1, g):
                    if not reach[k]:
                        continue
                    if i + k >= g:
                        out[i][j] = k
                        break
                    roll, hold = self.roll_hold(i, j, k)
                    if hold >= roll - TIE:
                        out[i][j] = k
                        break
        return _Rows(out)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _SolutionTable:
    """``table[k, i, j]`` of :class:`PlainSolution`'s roll (``which`` 0) or hold (1) values."""

    solution: PlainSolution
    which: int

    def __getitem__(self, index: tuple[int, int, int]) -> float:
        k, i, j = index
        return self.solution.roll_hold(i, j, k)[self.which]


def _reachable(model: PigModel) -> list[bool]:
    """Whether turn total ``k < G`` can occur (0, or a sum of faces)."""
    reach = [True] + [False] * (model.target - 1)
    for k in range(1, model.target):
        reach[k] = any(k >= f and reach[k - f] for f in model.faces)
    return reach


@lru_cache(maxsize=2)
def plain_solution(model: PigModel) -> PlainSolution:
    """Every pair's turn column from ``V`` (:func:`plain_start`)."""
    start = plain_start(model)
    g = model.target
    return PlainSolution(model, tuple(tuple(tuple(turn_column(model, start, i, j))
                                            for j in range(g)) for i in range(g)))


def optimal_solution(variant: PigVariant | PigModel) -> Any:
    """Pig's optimal solution for the lesson: the NumPy solver's (``pig.optimal_solution``)
    where NumPy is present, else :class:`PlainSolution` (the same numbers)."""
    model = variant if isinstance(variant, PigModel) else PigModel.from_variant(variant)
    try:
        from pushluck_teach.solve.whole_game import pig
    except ImportError:  # the static site's in-browser Python
        return plain_solution(model)
    return pig.optimal_solution(model)


# --------------------------------------------------------------------------------------------
# Solitaire: turns to reach the goal alone (no SciPy needed)

#: The solitaire turn distribution is followed until this much mass is left...
TAIL_MASS = 1e-12
#: ... or for this many turns.
MAX_TURNS = 100_000


def turn_outcomes(model: PigModel, hold_at: int) -> tuple[list[float], list[dict[int, float]]]:
    """One turn from each score ``i`` under hold-at-``hold_at``: ``(bust[i], held[i])``, the
    chance of busting and ``{t: chance of holding exactly t}`` (``pig.turn_outcomes``, the same
    operations per score)."""
    g = model.target
    scale = 1.0 / model.sides
    bust: list[float] = []
    held: list[dict[int, float]] = []
    for i in range(g):
        stop = min(hold_at, g - i)  # hold once k >= stop (holding wins at G - i)
        mass = [0.0] * (model.depth + g)
        mass[0] = 1.0
        lost, kept = 0.0, {}
        for k in range(model.depth):
            here = mass[k]
            if not here:
                continue
            if k >= stop and k > 0:
                kept[k] = here
                continue
            lost += model.p_bust * here
            for face in model.faces:
                mass[k + face] += scale * here
        bust.append(lost)
        held.append(kept)
    return bust, held


@dataclass(frozen=True, eq=False)
class PlainSolitaireTurns:
    """``pig.SolitaireTurns`` in plain Python: the number of turns to reach the goal alone,
    holding at ``hold_at``.  The chain only moves up (or stays, on a bust), so the expected
    turns and their second moment are back substitutions from the top score (equal to SciPy's
    sparse solve to about 1e-13); ``distribution[n - 1] = P(T = n)`` is computed when asked."""

    model: PigModel
    hold_at: int
    bust: tuple[float, ...]
    held: tuple[dict[int, float], ...]
    expected_from: tuple[float, ...]
    variance: float

    @property
    def expected(self) -> float:
        return self.expected_from[0]

    @property
    def sd(self) -> float:
        return max(self.variance, 0.0) ** 0.5

    @property
    def distribution(self) -> list[float]:
        return self._distribution()[0]

    @property
    def tail(self) -> float:
        return self._distribution()[1]

    def _distribution(self) -> tuple[list[float], float]:
        return _turns_distribution(self)


@lru_cache(maxsize=64)
def _turns_distribution(alone: PlainSolitaireTurns) -> tuple[list[float], float]:
    g = alone.model.target
    state = [0.0] * g
    state[0] = 1.0
    dist: list[float] = []
    left = 1.0
    while left > TAIL_MASS and len(dist) < MAX_TURNS:
        now, following = 0.0, [0.0] * g
        for i, p in enumerate(state):
            if not p:
                continue
            following[i] += p * alone.bust[i]
            for t, q in alone.held[i].items():
                if i + t >= g:
                    now += p * q
                else:
                    following[i + t] += p * q
        dist.append(now)
        state = following
        left = sum(state)
    return dist, max(left, 0.0)


def _back_substitute(bust: Sequence[float], held: Sequence[dict[int, float]],
                     right: Sequence[float]) -> list[float]:
    """``x`` with ``(I - Q) x = right`` for the solitaire chain (``Q``: stay on a bust, move up
    by a held total), from the top score down."""
    g = len(bust)
    x = [0.0] * g
    for i in range(g - 1, -1, -1):
        acc = right[i]
        for t, q in held[i].items():
            if i + t < g:
                acc += q * x[i + t]
        x[i] = acc / (1.0 - bust[i])
    return x


def solitaire_turns(variant: PigVariant | PigModel, hold_at: int) -> Any:
    """Turns to reach the goal alone holding at ``hold_at``: the NumPy/SciPy solver's
    (``pig.solitaire_turns``) where present, else :class:`PlainSolitaireTurns`."""
    model = variant if isinstance(variant, PigModel) else PigModel.from_variant(variant)
    try:
        from pushluck_teach.solve.whole_game import pig
    except ImportError:  # the static site's in-browser Python
        return plain_solitaire_turns(model, hold_at)
    return pig.solitaire_turns(model, hold_at)


@lru_cache(maxsize=64)
def plain_solitaire_turns(model: PigModel, hold_at: int) -> PlainSolitaireTurns:
    """:class:`PlainSolitaireTurns` for ``model`` holding at ``hold_at``."""
    if hold_at < 1:
        raise RulesError(f"bad policy hold:{hold_at}: N must be at least 1")
    bust, held = turn_outcomes(model, hold_at)
    expected = _back_substitute(bust, held, [1.0] * model.target)
    moment = _back_substitute(bust, held, expected)
    second = 2.0 * moment[0] - expected[0]
    return PlainSolitaireTurns(model, hold_at, tuple(bust), tuple(held), tuple(expected),
                               second - expected[0] ** 2)


__all__ = ["CHANCES", "DESCRIPTION", "POLICY_HELP", "ActionTable", "OptimalPositions",
           "PigChances", "PigModel", "PigPolicy", "PlainSolitaireTurns", "PlainSolution",
           "StoredMatch", "TableNotShipped", "evaluate_match", "match_key", "optimal_positions",
           "action_chances", "check_position", "optimal_key", "optimal_solution",
           "plain_solitaire_turns", "plain_solution", "plain_start", "shipped_start",
           "solitaire_turns", "solve_start_plain", "start_source", "turn_column",
           "turn_outcomes", "win_chance"]
