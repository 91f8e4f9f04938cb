"""Run a notebook's own code cells in the test process, as its kernel would.

The lesson tests build each lesson from its notebook's cells (not from arguments copied by
hand from them): when a page's example changes, the test checks the new one against its
independent reference, and a reference that no longer fits fails.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@dataclass(frozen=True)
class NotebookRun:
    """A notebook's namespace after its code cells ran, and what each cell shows (the value
    of its last line when that line is an expression, else None), in cell order."""

    namespace: dict[str, Any]
    shown: tuple[Any, ...]


def code_cells(notebook: str) -> list[str]:
    """The source of each code cell of ``notebooks/<notebook>``."""
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def run_notebook(notebook: str, *, cells: int | None = None,
                 skip: Collection[int] = ()) -> NotebookRun:
    """Run the first ``cells`` code cells (all by default) of ``notebook`` in one namespace,
    less those whose 0-based index is in ``skip`` (a simulation the check does not need)."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    shown: list[Any] = []
    for index, source in enumerate(code_cells(notebook)[:cells]):
        if index in skip:
            shown.append(None)
            continue
        tree = ast.parse(source, filename=f"{notebook} cell {index + 1}")
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
        exec(compile(body, f"{notebook} cell {index + 1}", "exec"), namespace)  # noqa: S102
        shown.append(eval(compile(ast.Expression(last.value), notebook, "eval"), namespace)  # noqa: S307
                     if last else None)
    return NotebookRun(namespace, tuple(shown))


def shown_by(notebook: str, cell: int = 0) -> Any:
    """What code cell ``cell`` (0-based) of ``notebook`` shows, after the cells before it ran."""
    return run_notebook(notebook, cells=cell + 1).shown[cell]
