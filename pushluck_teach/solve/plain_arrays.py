"""Reading the cache's ``.npz`` files without NumPy (the static site's in-browser Python).

The whole-game solvers compute with NumPy and store their results with
``numpy.savez_compressed`` (:mod:`pushluck_teach.solve.cache`): a zip of ``.npy`` files.  An
``.npy`` file is a short header (a Python dict literal: ``descr``, ``fortran_order``, ``shape``)
followed by the array's bytes (NumPy's "NPY format", versions 1-3).  This module reads the kinds
the cache writes (little-endian float64 and int64/32/16 arrays, and a unicode string) into
:class:`PlainArray`, whose numbers are the file's float64 values bit for bit: nothing is
computed here, the solver's output is only read.
"""

from __future__ import annotations

import ast
import math
import struct
import sys
import zipfile
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAGIC = b"\x93NUMPY"
#: ``descr`` -> the :mod:`array` type code of the same item, and its size in bytes
_NUMBERS = {"<f8": ("d", 8), "<i8": ("q", 8), "<i4": ("i", 4), "<i2": ("h", 2)}


class PlainArrayError(ValueError):
    """A file this reader does not take (not an ``.npy``, another dtype, Fortran order...)."""


@dataclass(frozen=True, eq=False)
class PlainArray:
    """An n-dimensional array of numbers in C order: ``array[i, j]`` (as many indices as
    dimensions; each from 0), ``float(array)`` for a 0-d one."""

    shape: tuple[int, ...]
    values: array

    def _offset(self, index: tuple[int, ...]) -> int:
        if len(index) != len(self.shape):
            raise IndexError(f"{len(index)} indices for an array of shape {self.shape}")
        offset = 0
        for i, size in zip(index, self.shape, strict=True):
            if not 0 <= i < size:
                raise IndexError(f"index {index} out of range for shape {self.shape}")
            offset = offset * size + i
        return offset

    def __getitem__(self, index: int | tuple[int, ...]) -> float | int:
        return self.values[self._offset(index if isinstance(index, tuple) else (index,))]

    def __float__(self) -> float:
        return float(self.values[self._offset(())])

    def __int__(self) -> int:
        return int(self.values[self._offset(())])

    def tolist(self) -> Any:
        """Nested lists (a number for a 0-d array), as ``numpy.ndarray.tolist``."""
        if not self.shape:
            return self.values[0]
        def nest(flat: list, shape: tuple[int, ...]) -> list:  # type: ignore[type-arg]
            if len(shape) <= 1:
                return flat
            step = len(flat) // shape[0] if shape[0] else 0
            return [nest(flat[n * step:(n + 1) * step], shape[1:]) for n in range(shape[0])]

        return nest(list(self.values), self.shape)


def _header(data: bytes) -> tuple[dict, int]:  # type: ignore[type-arg]
    """The ``.npy`` header's dict and where the array's bytes start."""
    if not data.startswith(MAGIC) or len(data) < 10:
        raise PlainArrayError("not an .npy array")
    major = data[6]
    if major == 1:
        (length,), start = struct.unpack("<H", data[8:10]), 10
    elif major in (2, 3):
        (length,), start = struct.unpack("<I", data[8:12]), 12
    else:
        raise PlainArrayError(f".npy format version {major} is not read here")
    text = data[start:start + length].decode("utf-8" if major == 3 else "latin1")
    header = ast.literal_eval(text)
    if not isinstance(header, dict) or {"descr", "fortran_order", "shape"} - header.keys():
        raise PlainArrayError("an .npy header without descr, fortran_order and shape")
    return header, start + length


def read_npy(data: bytes) -> PlainArray | str:
    """One ``.npy`` file's contents: a :class:`PlainArray`, or the text of a 0-d unicode
    array (how the cache stores its key)."""
    header, start = _header(data)
    descr, shape = header["descr"], tuple(header["shape"])
    if header["fortran_order"] and len(shape) > 1:
        raise PlainArrayError("Fortran-ordered arrays are not read here")
    count = math.prod(shape)
    body = data[start:]
    if isinstance(descr, str) and descr.startswith("<U") and shape == ():
        return body[:4 * int(descr[2:])].decode("utf-32-le").rstrip("\x00")
    kind = _NUMBERS.get(descr) if isinstance(descr, str) else None
    if kind is None:
        raise PlainArrayError(f"arrays of {descr!r} are not read here")
    code, size = kind
    values = array(code)
    if values.itemsize != size:  # pragma: no cover - a C int or short of another size
        raise PlainArrayError(f"arrays of {descr!r} are not read on this machine")
    values.frombytes(body[:size * count])
    if len(values) != count:
        raise PlainArrayError("the .npy file is shorter than its shape")
    if sys.byteorder != "little":  # pragma: no cover - every Pyodide and CI machine is little
        values.byteswap()
    return PlainArray(shape, values)


def read_npz(path: Path) -> dict[str, PlainArray | str]:
    """Every array of an ``.npz`` file by name (the file's names without ``.npy``)."""
    with zipfile.ZipFile(path) as archive:
        return {name.removesuffix(".npy"): read_npy(archive.read(name))
                for name in archive.namelist()}


__all__ = ["PlainArray", "PlainArrayError", "read_npy", "read_npz"]
