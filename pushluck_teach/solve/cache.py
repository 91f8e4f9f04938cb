"""A disk cache for whole-game solutions, and the precomputed defaults shipped with the package.

A solution is a dict of named numpy arrays.  It is identified by a :class:`CacheKey`: the game,
the kind of solution (``"optimal"``, ``"match"``...), the variant's options, the solver's
parameters (policies, tolerance...) and the solver's version.  The key's SHA-256 digest names
the file, ``<game>-<kind>-<digest16>.npz`` (``np.savez_compressed``); the key itself is stored in
the file as JSON (array ``_key``) and checked on loading, so a stale or foreign file is never
used.  Bump a solver's version whenever its numbers could change.

Where files are looked up, in order:

1. the package's ``pushluck_teach/data/`` directory: the defaults, computed once by
   ``python -m pushluck_teach.solve.whole_game`` and shipped as package data, so a notebook
   opens instantly (on Binder too) without solving anything;
2. the user cache directory: ``$PUSHLUCK_CACHE`` if set, else ``~/.cache/pushluck_teach``.
   ``PUSHLUCK_CACHE=off`` (or ``0``, ``none``) disables the user cache.

Without NumPy (the static site's in-browser Python) :func:`load_plain` reads the same files
with :mod:`pushluck_teach.solve.plain_arrays` (the same numbers, bit for bit); nothing is solved
or written then.

A computed solution is written to the user cache atomically (a temporary file, then
``os.replace``); a cache directory that cannot be written is skipped silently, and a file that
cannot be read is recomputed.  Nothing here holds state between calls.

In memory (a kernel that plays every game stays under 400 MB): :func:`memo_bytes`
estimates what a turn solver's memos hold (per state: a sampled key and value, a dict entry; a
level memo's arrays by their size), and :class:`MemorySolverCache` keeps the most recently used
solvers while those estimates stay within a byte budget (:data:`DEFAULT_MAX_BYTES`) and a count.
:func:`release_memory` hands the C heap's free pages back to the system (glibc keeps what a
large solve freed: measured); the cache calls it after it evicts a solver.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # the in-browser build may lack NumPy: the memory bound below does not need it
    import numpy as np
except ImportError:  # pragma: no cover
    np = None  # type: ignore[assignment]

ENV_VAR = "PUSHLUCK_CACHE"
_DISABLED = {"off", "0", "none", "no", "false"}
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

Arrays = dict[str, Any]  # name -> numpy array


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


@dataclass(frozen=True)
class CacheKey:
    """What identifies one cached solution."""

    game: str
    kind: str
    variant: Mapping[str, Any]
    params: Mapping[str, Any] = field(default_factory=dict)
    version: int = 1

    def as_json(self) -> str:
        return json.dumps({
            "game": self.game, "kind": self.kind, "variant": _jsonable(self.variant),
            "params": _jsonable(self.params), "version": self.version,
        }, sort_keys=True)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.as_json().encode()).hexdigest()[:16]

    @property
    def filename(self) -> str:
        return f"{self.game}-{self.kind}-{self.digest}.npz"


def cache_dir() -> Path | None:
    """The user cache directory (not created here), or None when disabled."""
    value = os.environ.get(ENV_VAR)
    if value is not None:
        if value.strip().lower() in _DISABLED or not value.strip():
            return None
        return Path(value).expanduser()
    return Path.home() / ".cache" / "pushluck_teach"


def _read(path: Path, key: CacheKey) -> Arrays | None:
    """The arrays of a cache file, or ``None`` when it is not a whole, matching file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if "_key" not in data.files or str(data["_key"]) != key.as_json():
                return None
            return {name: data[name] for name in data.files if name != "_key"}
    except Exception:  # noqa: BLE001 - truncated or foreign (BadZipFile, zlib.error...): recompute
        return None


def _files_for(key: CacheKey) -> Iterator[Path]:
    """The existing files that may hold ``key``: shipped data first, then the user cache (a
    path too long or otherwise unusable is skipped)."""
    user = cache_dir()
    for directory in (DATA_DIR, *([user] if user is not None else [])):
        path = directory / key.filename
        try:
            found = path.is_file()
        except (OSError, ValueError):
            found = False
        if found:
            yield path


def locate(key: CacheKey) -> tuple[Path, Arrays] | None:
    """The first readable file for ``key`` (shipped data first, then the user cache); ``None``
    without NumPy (the in-browser build: callers then solve instead of loading)."""
    if np is None:
        return None
    for path in _files_for(key):
        arrays = _read(path, key)
        if arrays is not None:
            return path, arrays
    return None


def load_plain(key: CacheKey) -> dict[str, Any] | None:
    """The arrays for ``key`` read without NumPy (:mod:`~pushluck_teach.solve.plain_arrays`:
    the static site's in-browser Python), from the shipped data or the user cache; ``None``
    where no whole, matching file is found.  The numbers are the file's, bit for bit."""
    from pushluck_teach.solve.plain_arrays import read_npz

    for path in _files_for(key):
        try:
            arrays = read_npz(path)
        except Exception:  # noqa: BLE001 - unreadable, truncated or foreign: not used
            continue
        if arrays.pop("_key", None) == key.as_json():
            return arrays
    return None


def load(key: CacheKey) -> Arrays | None:
    """The cached arrays for ``key``, or None."""
    found = locate(key)
    return None if found is None else found[1]


def save(key: CacheKey, arrays: Mapping[str, np.ndarray], directory: Path | None = None
         ) -> Path | None:
    """Write ``arrays`` for ``key`` to ``directory`` (default: the user cache); the path
    written, or None when there is no writable cache."""
    directory = directory if directory is not None else cache_dir()
    if directory is None:
        return None
    payload = {name: np.asarray(value) for name, value in arrays.items()}
    payload["_key"] = np.array(key.as_json())
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, tmp_name = tempfile.mkstemp(prefix=".tmp-", suffix=".npz", dir=directory)
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez_compressed(out, **payload)
            os.chmod(tmp_name, 0o644)  # mkstemp makes 0600; shipped data must be readable
            path = directory / key.filename
            os.replace(tmp_name, path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
    except (OSError, ValueError):  # not writable, a path too long, a NUL in it: skipped
        return None
    return path


def cached_arrays(key: CacheKey, compute: Callable[[], Mapping[str, np.ndarray]]) -> Arrays:
    """The arrays for ``key``: loaded if cached (or shipped), else computed and saved."""
    found = load(key)
    if found is not None:
        return found
    arrays = {name: np.asarray(value) for name, value in compute().items()}
    save(key, arrays)
    return arrays


# --------------------------------------------------------------------------------------------
# Memory: solver memos bounded in bytes

#: What the shared solvers' memos may hold together (estimated): with the interpreter, the
#: libraries and one solve in progress a kernel stays under 400 MB (150 MiB: a peak of 422 MB
#: in ``benchmarks/bench_kernel_rss.py --clicks 30``; 120 MiB: 382 MB, no more CPU time).
DEFAULT_MAX_BYTES = 120 * 2**20
_SAMPLE = 32
_FALLBACK_ITEM_BYTES = 200  # a tuple key and a float, when no sample could be taken
# The memos of a turn solver; the first one's keys are counted (the others share them).
_MEMO_NAMES = ("_values", "_best", "_bust", "_draw_once")


def object_bytes(value: Any) -> int:
    """About the bytes of one memo key or value: the object, and the items of a tuple (shared
    strings such as action names count nothing)."""
    if isinstance(value, str):
        return 0
    size = sys.getsizeof(value)
    if isinstance(value, tuple):
        size += sum(object_bytes(item) for item in value)
    return size


def mapping_bytes(memo: Any, *, keys: bool = True) -> int:
    """Estimated bytes held by one memo: a dict's table and entries (their mean key and value
    size from a sample of the first :data:`_SAMPLE` items), a level memo's arrays
    (``tables``, by their size) plus its ``base``, or a shipped table's arrays (``nbytes``)
    plus its dict.  ``keys=False``: keys shared with
    another memo are not counted again."""
    tables = getattr(memo, "tables", None)
    if tables is not None:
        arrays = sum(int(getattr(part, "nbytes", 0)) for table in tables
                     for trio in table.levels.values() for part in trio)
        return arrays + mapping_bytes(getattr(memo, "base", {}), keys=keys)
    if not isinstance(memo, dict):  # a shipped table's arrays, or a view over another memo
        base = getattr(memo, "base", None)  # (a level memo's best actions)
        held = int(getattr(memo, "nbytes", 0))
        return held + (mapping_bytes(base, keys=keys) if base is not None else 0)
    if not memo:
        return 0
    sample: list[tuple[Any, Any]] = []
    for _ in range(3):  # another thread (a solve in the worker) may be writing to it
        try:
            sample = list(itertools.islice(memo.items(), _SAMPLE))
            break
        except RuntimeError:
            continue
    if not sample:
        return sys.getsizeof(memo) + len(memo) * _FALLBACK_ITEM_BYTES
    per_item = sum((object_bytes(k) if keys else 0) + object_bytes(v) for k, v in sample)
    return sys.getsizeof(memo) + len(memo) * per_item // len(sample)  # the dict's table


def memo_bytes(solver: Any) -> int:
    """Estimated bytes a turn solver's memos hold (values, best actions, the bust and
    draw-once chains); a memo shared with a shipped table counts in full."""
    total = 0
    for i, name in enumerate(_MEMO_NAMES):
        memo = getattr(solver, name, None)
        if memo is not None:
            total += mapping_bytes(memo, keys=i == 0)
    return total


@functools.cache
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim`` (looked up once), or None where the C library has none."""
    if not sys.platform.startswith("linux"):  # ctypes is imported only here (not in Pyodide)
        return None
    import ctypes
    import ctypes.util

    try:
        trim = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"),
                       "malloc_trim", None)
    except OSError:
        return None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_memory() -> bool:
    """Return the C heap's free memory to the system: glibc's ``malloc_trim(0)`` (freed NumPy
    arrays and dict tables of a large solve otherwise stay in the process's resident memory);
    a no-op where the C library has no such call (macOS, Pyodide, musl).  True when trimmed."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def memo_counts(solver: Any) -> tuple[int, int]:
    """``(states in level tables, entries in dicts)`` of a solver's memos: what its
    :func:`memo_bytes` grows with (a dict entry costs 10-20 times a table's state, so a memo
    whose dict grows beside a large table is estimated again)."""
    tables = entries = 0
    for name in _MEMO_NAMES:
        memo = getattr(solver, name, None)
        if memo is None:
            continue
        tables += sum(table.size for table in getattr(memo, "tables", ()))
        base = getattr(memo, "base", memo)
        entries += len(base) if isinstance(base, dict) else 0
    return tables, entries


class MemorySolverCache:
    """Solvers by (model, mode), least recently used first out, bounded by the bytes their
    memos hold together (:func:`memo_bytes`, ``max_bytes``) and by their number.

    ``factory(model, exact=...)`` makes a solver (the turn solver; this module does not import
    it).  The solver just asked for is never evicted, even alone above the budget (its own
    state budget bounds it).  A solver's estimate is taken again when its dict entries or its
    level tables' states (:func:`memo_counts`) have grown by half since it was taken, and the
    estimates' sum is kept as it changes; :meth:`get` looks again only at the solver asked for
    and the one asked for before it, so asking costs little however many are cached.  A
    solver's memo grows after it was asked for: :meth:`shrink` (called after a large solve)
    looks at every estimate again and applies the budget.  After an eviction the freed memory is
    handed back to the system (:func:`release_memory`)."""

    def __init__(self, factory: Callable[..., Any], max_bytes: int = DEFAULT_MAX_BYTES,
                 max_solvers: int = 64) -> None:
        self.factory = factory
        self.max_bytes = max_bytes
        self.max_solvers = max_solvers
        self._solvers: OrderedDict[tuple[Hashable, bool], Any] = OrderedDict()
        # key: (memo_counts, bytes) when last estimated; ``_held`` is the sum of those bytes
        self._sizes: dict[tuple[Hashable, bool], tuple[tuple[int, int], int]] = {}
        self._held = 0
        self._lock = threading.Lock()  # the UI asks from its kernel thread and a worker

    def get(self, model: Hashable, exact: bool = False) -> Any:
        """The cached solver for ``model`` (made on a miss).  Only two estimates are looked at
        again: the solver asked for and the one asked for before it (a memo grows while its
        solver is in use, which is after it was asked for), so asking costs the same however
        many solvers are cached (a simulation asks at every decision).  A missing solver is
        made outside the lock: making one may load a shipped table and solve its check
        position, which makes room in this very cache (:meth:`make_room`)."""
        key = (model, exact)
        with self._lock:
            made = self._solvers.get(key)
        if made is None:
            made = self.factory(model, exact=exact)
        with self._lock:
            # another thread may have made one meanwhile (keep that one), or evicted it
            solver = self._solvers.pop(key, None)
            if solver is None:
                solver = made
            previous = next(reversed(self._solvers), None)
            self._solvers[key] = solver  # most recently used last
            if previous is not None:
                self._refresh(previous)
            self._refresh(key)
            evicted = self._trim(keep=key)
        if evicted:
            release_memory()
        return solver

    def shrink(self) -> int:
        """Apply the budget again, keeping the most recently used solver (its memo may have
        grown since it was asked for), with every estimate looked at again; the number of
        solvers evicted."""
        with self._lock:
            self._refresh_all()
            evicted = self._trim(keep=next(reversed(self._solvers))) if self._solvers else 0
        if evicted:
            release_memory()
        return evicted

    def make_room(self, nbytes: int, keep: Any) -> int:
        """Before a solve expected to add about ``nbytes``: evict the least recently used
        solvers (never the solver ``keep``) until the budget also holds those bytes, so the
        solve's peak is not on top of a full cache; the number evicted."""
        with self._lock:
            self._refresh_all()
            evicted = 0
            for key in list(self._solvers):
                if self._held + nbytes <= self.max_bytes:
                    break
                if self._solvers[key] is keep:
                    continue
                del self._solvers[key]
                known = self._sizes.pop(key, None)
                if known is not None:
                    self._held -= known[1]
                evicted += 1
        if evicted:
            release_memory()
        return evicted

    def _refresh(self, key: tuple[Hashable, bool]) -> int:
        """One solver's estimated bytes, estimated again when its memo has grown by half (or
        shrunk) since the last estimate; ``_held`` follows."""
        solver = self._solvers[key]
        counts = memo_counts(solver)
        known = self._sizes.get(key)
        if known is None or any(now > then * 3 // 2 or now < then
                                for now, then in zip(counts, known[0], strict=True)):
            before = 0 if known is None else known[1]
            known = (counts, memo_bytes(solver))
            self._sizes[key] = known
            self._held += known[1] - before
        return known[1]

    def _refresh_all(self) -> None:
        for key in list(self._solvers):
            self._refresh(key)

    def bytes(self) -> int:
        """Estimated bytes held by every cached solver's memos."""
        with self._lock:
            self._refresh_all()
            return self._held

    def states(self) -> int:
        """States held by every cached solver's memos."""
        return sum(len(getattr(s, "_values", ())) for s in list(self._solvers.values()))

    def __len__(self) -> int:
        return len(self._solvers)

    def _trim(self, keep: tuple[Hashable, bool]) -> int:
        """Evict the least recently used solvers (never ``keep``) until within the budget;
        how many were evicted."""
        evicted = 0
        while len(self._solvers) > 1 and (len(self._solvers) > self.max_solvers
                                          or self._held > self.max_bytes):
            oldest = next(iter(self._solvers))
            if oldest == keep:
                break
            del self._solvers[oldest]
            known = self._sizes.pop(oldest, None)
            if known is not None:
                self._held -= known[1]
            evicted += 1
        return evicted

    def clear(self) -> None:
        with self._lock:
            self._solvers.clear()
            self._sizes.clear()
            self._held = 0
        release_memory()
