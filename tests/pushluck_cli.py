"""The ``pushluck`` command run inside the test process, as a classroom would type it.

Starting a new Python for each check costs a second or more of imports (numpy, the package)
and a browser test asks the command again on every retry while a page catches up; here the
command's own ``main`` runs with its output captured, and an answer for the same arguments
is reused (the solver is deterministic: the same command line prints the same thing).
"""

from __future__ import annotations

import contextlib
import functools
import io
from dataclasses import dataclass

from pushluck_teach.cli import main


@dataclass(frozen=True)
class CliRun:
    """What one ``pushluck`` command printed and its exit status."""

    status: int
    stdout: str
    stderr: str


def run_pushluck(*argv: str) -> CliRun:
    """Run ``pushluck ARGV...`` in this process (argparse's own exits become a status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as stop:  # --help, or argparse refusing an argument
            status = stop.code if isinstance(stop.code, int) else 2
    return CliRun(status, out.getvalue(), err.getvalue())


@functools.lru_cache(maxsize=512)
def pushluck_once(*argv: str) -> CliRun:
    """:func:`run_pushluck`, once per argument list (for arguments that name no file whose
    contents may change between calls)."""
    return run_pushluck(*argv)
