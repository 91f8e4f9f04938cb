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

from collections.abc import Callable
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

__all__ = ["CHANCES", "DESCRIPTION", "POLICY_HELP", "ActionTable", "OptimalPositions",
           "PigChances", "PigModel", "PigPolicy", "StoredMatch", "TableNotShipped",
           "evaluate_match", "match_key", "optimal_positions",
           "action_chances", "check_position", "optimal_key", "plain_start", "shipped_start",
           "solve_start_plain", "start_source", "turn_column", "win_chance"]
