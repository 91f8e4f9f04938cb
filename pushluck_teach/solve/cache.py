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

A computed solution is written to the user cache atomically (a temporary file, then
``os.replace``); a cache directory that cannot be written is skipped silently, and a file that
cannot be read is recomputed.  Nothing here holds state between calls.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ENV_VAR = "PUSHLUCK_CACHE"
_DISABLED = {"off", "0", "none", "no", "false"}
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

Arrays = dict[str, np.ndarray]


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
    try:
        with np.load(path, allow_pickle=False) as data:
            if "_key" not in data.files or str(data["_key"]) != key.as_json():
                return None
            return {name: data[name] for name in data.files if name != "_key"}
    except (OSError, ValueError, KeyError, EOFError):
        return None


def locate(key: CacheKey) -> tuple[Path, Arrays] | None:
    """The first readable file for ``key`` (shipped data first, then the user cache)."""
    directories = [DATA_DIR]
    user = cache_dir()
    if user is not None:
        directories.append(user)
    for directory in directories:
        path = directory / key.filename
        if path.is_file():
            arrays = _read(path, key)
            if arrays is not None:
                return path, arrays
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
    except OSError:
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
