"""Sweeps: vary one option (or the target) of any game over a range and solve every point.

Per point (a variant with ``key = value``) :func:`compute_point` computes, from the turn start
built by the game's own ``GameSpec.position``:

* the **turn value**: the expected result of the turn under optimal play (the generic turn
  solver, float mode);
* the **stop rule** summarising the optimal policy and its **threshold** ("stop at T or more",
  :mod:`pushluck_teach.solve.stop_rule`), and the **bust risk**: the chance the turn ends in a
  bust under optimal play;
* with ``whole_game=True``, where the game has a whole-game solver, the first player's **win
  chance** with both players optimal (two players), from the solver's own report.

Before anything is solved :func:`run_sweep` refuses values the option does not take (a range
over a yes/no or a word, a number outside the option's range: :func:`check_sweep`); a point that
still cannot be solved (a game too large for the page, a position the rules refuse) is kept
with its one-line ``error``.  Points are independent, so :func:`run_sweep` runs them
serially, in parallel on local cores (``workers > 1``: a process pool), or on a
``dask.distributed`` cluster (``scheduler``: an address such as ``tcp://host:8786`` or a
``distributed.Client``; the optional extra ``pushluck_teach[lab]``).  A ``progress`` callback
hears of every finished point; a ``stop`` flag (anything with ``is_set()``, e.g. a
:class:`threading.Event`) ends the sweep early, keeping the points already done (points still
queued are cancelled; a point already running on a worker is abandoned).  Nothing here names a
game.
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
import time
import types
import typing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol

from pushluck_teach.games.base import (
    GameSpec,
    OptionError,
    RulesError,
    Variant,
    coerce_option,
    get_game,
    parse_whole_number,
)
from pushluck_teach.quoting import one_line, quoted
from pushluck_teach.solve.stop_rule import describe_stop_rule
from pushluck_teach.solve.turn import TurnSolver

MAX_POINTS = 1000


class StopFlag(Protocol):
    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class SweepPoint:
    """The numbers of one point of a sweep (``None`` where not asked for or not available)."""

    value: Any
    turn_value: float | None = None
    threshold: float | None = None
    stop_rule: str | None = None
    bust_risk: float | None = None
    win_chance: float | None = None
    seconds: float = 0.0
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class SweepResult:
    """A sweep's points in the order of ``values`` (only the points done when stopped)."""

    game: str
    key: str
    values: tuple[Any, ...]
    points: tuple[SweepPoint, ...]
    stopped: bool
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "option": self.key, "values": list(self.values),
                "stopped": self.stopped, "seconds": self.seconds,
                "points": [p.as_json() for p in self.points]}


Progress = Callable[[int, int, SweepPoint], None]


# --------------------------------------------------------------------------------------------
# Ranges


def parse_sweep_option(text: str) -> tuple[str, tuple[Any, ...]]:
    """``KEY=A..B[:STEP]`` (whole numbers, both ends included) or ``KEY=V1,V2,...`` (values as
    typed; the variant converts them).  Errors are :class:`OptionError` naming the problem; the
    number of points is checked before any is made."""
    key, sep, spec = text.partition("=")
    key = key.strip()
    if not sep or not key or not spec.strip():
        raise OptionError(f"bad sweep {quoted(text)}: write KEY=A..B[:STEP] or KEY=V1,V2,...")
    spec = spec.strip()
    if ".." in spec:
        span, _, step_text = spec.partition(":")
        low_text, _, high_text = span.partition("..")
        what = f"sweep range {quoted(spec)}"
        low = parse_whole_number(low_text, f"{what} start", OptionError)
        high = parse_whole_number(high_text, f"{what} end", OptionError)
        step = parse_whole_number(step_text, f"{what} step", OptionError) if step_text else 1
        if step < 1 or high < low:
            raise OptionError(f"bad {what}: need A <= B and STEP >= 1")
        span_range = range(low, high + 1, step)
        if len(span_range) > MAX_POINTS:
            raise OptionError(f"sweep of {len(span_range):,} points: at most {MAX_POINTS}")
        values: tuple[Any, ...] = tuple(span_range)
    else:
        parts = spec.split(",")
        if len(parts) > MAX_POINTS:
            raise OptionError(f"sweep of {len(parts):,} points: at most {MAX_POINTS}")
        values = tuple(v.strip() for v in parts)
        if any(not v for v in values):
            raise OptionError(f"bad sweep {quoted(text)}: an empty value between commas")
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise OptionError(f"bad sweep {quoted(text)}: {quoted(repeated[0])} given twice")
    if not values:
        raise OptionError(f"bad sweep {quoted(text)}: no values")
    return key, values


def point_variant(variant: Variant, key: str, value: Any) -> Variant:
    """``variant`` with ``key = value`` (text converted to the option's type)."""
    if key not in variant.options():
        raise OptionError(f"unknown option {quoted(key)} (options: "
                          f"{', '.join(variant.options())})")
    if isinstance(value, str):
        value = coerce_option(key, value, typing.get_type_hints(type(variant))[key])
    return variant.replace(**{key: value})


def check_sweep(variant: Variant, key: str, values: Sequence[Any]) -> None:
    """Refuse a sweep before solving anything when its values cannot all be points: an option
    that is not a whole number swept over numbers (a yes/no or a word), or a value the option
    does not allow (an :class:`OptionError` naming the first)."""
    if key not in variant.options():
        raise OptionError(f"unknown option {quoted(key)} (options: "
                          f"{', '.join(variant.options())})")
    hint = typing.get_type_hints(type(variant))[key]
    whole = hint is int or (typing.get_origin(hint) in (typing.Union, types.UnionType)
                            and int in typing.get_args(hint) and bool not in typing.get_args(hint))
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if numbers and not whole:
        info = type(variant).option_info(key)
        kind = ("yes/no (true or false)" if hint is bool else
                f"a word ({info.allowed(hint)})" if info.choices else "text")
        raise OptionError(f"option {quoted(key)} is {kind}, not a whole number: a range A..B "
                          "sweeps whole-number options only")
    for value in values:
        try:
            point_variant(variant, key, value)
        except OptionError as exc:
            raise OptionError(f"sweep of {key}: {exc}") from None


def whole_number_options(variant_cls: type[Variant]) -> tuple[str, ...]:
    """The options of a variant class a range can sweep (whole numbers)."""
    hints = typing.get_type_hints(variant_cls)
    return tuple(name for name in variant_cls.option_names() if hints[name] is int)


def default_sweep(spec: GameSpec, variant: Variant) -> tuple[str, int, int, int] | None:
    """What a sweep of ``spec`` starts with: the option (the spec's ``sweep``, else its first
    whole-number option) and its :func:`sweep_range`.  ``None``: no whole-number option."""
    names = whole_number_options(type(variant))
    if not names:
        return None
    key = spec.sweep if spec.sweep in names else names[0]
    return (key, *sweep_range(variant, key))


def sweep_range(variant: Variant, key: str) -> tuple[int, int, int]:
    """A range ``(start, stop, step)`` for whole-number option ``key`` within its allowed
    values: all of them when there are at most 21, else around the variant's value (half to one
    and a half times it, about ten steps; from 0: 0-20 by 2)."""
    info = type(variant).option_info(key)
    value = getattr(variant, key)
    low = info.low if info.low is not None else 0
    high = info.high if info.high is not None else max(2 * value, low + 20)
    if high - low <= 20:
        return low, high, 1
    if value <= low:
        return low, min(high, low + 20), 2
    start, stop = max(low, value // 2), min(high, value + value // 2)
    return start, stop, max(1, (stop - start) // 10)


# --------------------------------------------------------------------------------------------
# One point


def whole_game_solver(spec: GameSpec) -> Any | None:
    """The game's whole-game solver object, or ``None`` where it has none."""
    path = getattr(spec, "whole_game", None)
    if path:
        return importlib.import_module(path).SOLVER
    from pushluck_teach.solve import whole_game

    return whole_game.solver_for(spec.name) if whole_game.has_solver(spec.name) else None


def win_chance(spec: GameSpec, variant: Variant) -> float | None:
    """The first player's win chance (ties half) with both players optimal, two players, to the
    15 significant digits ``pushluck solve`` prints.  A game whose solver has a NumPy-free
    companion (:func:`~pushluck_teach.solve.whole_game.plain_chances`) takes it at the opening
    (the same number as the solver's report); where this Python cannot compute the chance (the
    static site: no NumPy, no table shipped for these rules) a :class:`RulesError` says so."""
    from pushluck_teach.solve import whole_game

    if not whole_game.has_solver(spec.name):
        return None
    try:
        chances = whole_game.plain_chances(spec.name)
        if chances is not None:
            model, state = spec.position(variant)
            task = chances.win_chance(variant, 0, 0, model, state)
            if task is not None:
                return float(f"{task():.15g}")
        solver = whole_game_solver(spec)
    except ImportError as exc:
        from pushluck_teach.pyodide_site import elsewhere_message

        raise RulesError(elsewhere_message(exc)) from None
    if solver is None:
        return None
    report = solver.report(variant, 2, [])
    data = report.as_json() if hasattr(report, "as_json") else report
    value = data.get("p_win_first")
    return None if value is None else float(value)


def compute_point(spec: GameSpec | str, variant: Variant, key: str, value: Any, *,
                  turn: bool = True, whole_game: bool = False) -> SweepPoint:
    """The numbers of one point (module docstring); a refused point keeps its error.
    ``spec`` may be a registered game's name (what crosses to another process: a spec holds
    functions that need not pickle)."""
    started = time.perf_counter()
    if isinstance(spec, str):
        spec = get_game(spec)
    try:
        chosen = point_variant(variant, key, value)
        fields: dict[str, Any] = {}
        if turn:
            model, state = spec.position(chosen)
            solver = TurnSolver(model)
            rule = describe_stop_rule(model, solver, state)
            fields.update(turn_value=float(solver.value(state)), threshold=rule.threshold,
                          stop_rule=rule.text, bust_risk=rule.bust_risk)
        if whole_game:
            fields["win_chance"] = win_chance(spec, chosen)
        return SweepPoint(value, seconds=time.perf_counter() - started, **fields)
    except (RulesError, ValueError) as exc:
        return SweepPoint(value, seconds=time.perf_counter() - started, error=str(exc))


# --------------------------------------------------------------------------------------------
# Running


def _is_set(stop: StopFlag | None) -> bool:
    return stop is not None and stop.is_set()


def run_sweep(spec: GameSpec, variant: Variant, key: str, values: Sequence[Any], *,
              turn: bool = True, whole_game: bool = False, workers: int = 1,
              scheduler: Any = None, progress: Progress | None = None,
              stop: StopFlag | None = None) -> SweepResult:
    """Solve every point of ``key`` over ``values`` (module docstring for the ways to run)."""
    values = tuple(itertools.islice(values, MAX_POINTS + 1))
    if not values:
        raise OptionError("a sweep needs at least one value")
    if len(values) > MAX_POINTS:
        raise OptionError(f"a sweep of more than {MAX_POINTS} points")
    if key not in variant.options():
        raise OptionError(f"unknown option {quoted(key)} for {spec.name} "
                          f"(options: {', '.join(variant.options())})")
    check_sweep(variant, key, values)
    started = time.perf_counter()
    try:  # a registered game travels by name; a spec may hold lambdas
        name_or_spec: GameSpec | str = spec.name if get_game(spec.name) is spec else spec
    except RulesError:
        name_or_spec = spec
    job = (name_or_spec, variant, key)
    flags = {"turn": turn, "whole_game": whole_game}
    if scheduler is not None:
        done, stopped = _run_dask(scheduler, job, flags, values, progress, stop)
    elif workers > 1:
        done, stopped = _run_processes(workers, job, flags, values, progress, stop)
    else:
        done, stopped = {}, False
        for index, value in enumerate(values):
            if _is_set(stop):
                stopped = True
                break
            done[index] = compute_point(*job, value, **flags)
            if progress is not None:
                progress(len(done), len(values), done[index])
    points = tuple(done[i] for i in sorted(done))
    return SweepResult(spec.name, key, values, points, stopped,
                       time.perf_counter() - started)


def _run_processes(workers: int, job: tuple[Any, ...], flags: dict[str, Any],
                   values: tuple[Any, ...], progress: Progress | None,
                   stop: StopFlag | None) -> tuple[dict[int, SweepPoint], bool]:
    # forkserver: safe from a process with threads (a Jupyter kernel), cheaper than spawn
    context = multiprocessing.get_context("forkserver")
    done: dict[int, SweepPoint] = {}
    stopped = False
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        pending: dict[Future[SweepPoint], int] = {
            pool.submit(compute_point, *job, value, **flags): i for i, value in enumerate(values)
        }
        while pending:
            if _is_set(stop):
                stopped = True
                break
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                done[index] = future.result()
                if progress is not None:
                    progress(len(done), len(values), done[index])
    finally:
        pool.shutdown(wait=not stopped, cancel_futures=True)
    return done, stopped


#: How long a sweep waits for a dask scheduler to answer before it says it cannot reach it.
SCHEDULER_SECONDS = 5


def check_scheduler_address(address: Any) -> None:
    """Refuse a scheduler address that names no port (``host:port``, ``tcp://host:port``,
    ``tls://host:port``; the port 1-65535) before any connection is tried."""
    text = str(address).strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in ("tcp", "tls"):
        return  # another transport (inproc, ucx...): dask reads it
    host, colon, port = rest.rpartition(":")
    if (not colon or not host.strip("[]") or not (port.isascii() and port.isdigit())
            or len(port) > 5 or not 1 <= int(port) <= 65535):
        raise OptionError(f"bad scheduler address {quoted(text)}: write host:port with a port "
                          "1-65535, e.g. tcp://127.0.0.1:8786")


def _run_dask(scheduler: Any, job: tuple[Any, ...], flags: dict[str, Any],
              values: tuple[Any, ...], progress: Progress | None,
              stop: StopFlag | None) -> tuple[dict[int, SweepPoint], bool]:
    try:
        from distributed import Client
    except ImportError:
        raise OptionError("a scheduler needs dask.distributed: pip install "
                          "'pushluck_teach[lab]'") from None
    own = not isinstance(scheduler, Client)
    if own:
        check_scheduler_address(scheduler)
    try:
        client = Client(scheduler, timeout=SCHEDULER_SECONDS) if own else scheduler
    except (OSError, TimeoutError, ValueError) as exc:
        raise OptionError(f"cannot reach the dask scheduler {quoted(scheduler)}: "
                          f"{one_line(str(exc))}") from None
    done: dict[int, SweepPoint] = {}
    stopped = False
    try:
        pending = {client.submit(compute_point, *job, value, pure=False, **flags): i
                   for i, value in enumerate(values)}
        while pending:
            if _is_set(stop):
                stopped = True
                client.cancel(list(pending))
                break
            finished = [future for future in pending if future.done()]
            if not finished:
                time.sleep(0.05)
            for future in finished:
                index = pending.pop(future)
                done[index] = future.result()
                if progress is not None:
                    progress(len(done), len(values), done[index])
    finally:
        if own:
            client.close()
    return done, stopped


__all__ = [
    "SweepPoint", "SweepResult", "check_sweep", "compute_point", "default_sweep",
    "parse_sweep_option", "point_variant", "run_sweep", "sweep_range", "whole_game_solver",
    "whole_number_options", "win_chance",
]
