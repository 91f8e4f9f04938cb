"""Suite-wide settings: hypothesis profiles, an isolated solver cache, and a check that the
browser tests and every notebook really ran.

* Hypothesis: ``HYPOTHESIS_PROFILE=ci|dev|thorough`` picks a profile; without it, ``ci`` when
  the ``CI`` environment variable is set, else ``dev``.  ``ci`` is derandomised (the same
  examples on every run, so a red CI is reproducible) and has no deadline (a shared 2-core
  machine has slow moments); ``thorough`` runs many more examples for a local hunt.
* The user's solver cache (``~/.cache/pushluck_teach``) is never read or written by the tests:
  ``PUSHLUCK_CACHE`` points at a fresh temporary directory for the whole session (subprocesses
  and Voilà kernels inherit it).
* nbval's notebook kernels talk over IPC sockets in a private directory, not TCP ports: two
  xdist workers each starting kernels can pick the same free port between its choice and the
  kernel's bind, and the kernel then dies before its first reply ("Kernel died before replying
  to kernel_info"); the app's kernels use IPC too.  The race is jupyter_client's, still open
  upstream (jupyter/jupyter_client#154: ports are chosen, released, then bound by the kernel),
  and nbval has no option for the transport, so its ``KernelManager`` name is replaced.
* Tests marked ``soak`` (long random fuzzing beyond the fixed budgets, tests that need the
  network) are left out of a run unless ``PUSHLUCK_SOAK=1`` is set or the ``-m`` expression
  names ``soak``: the scheduled CI job runs ``PUSHLUCK_SOAK=1 .ci/run`` (docs/testing.md).
* A glob that finds nothing must not pass silently: when the browser tests or the notebooks are
  part of the run, the session fails unless each notebook ran at least one cell and every
  selected browser test and notebook cell really ran (not skipped).  The counts are printed in
  the terminal summary.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent
NOTEBOOKS = ROOT / "notebooks"

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=500,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI")
                                                               else "dev"))

_CACHE_DIR = tempfile.mkdtemp(prefix="pushluck-test-cache-")
os.environ["PUSHLUCK_CACHE"] = _CACHE_DIR


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE_DIR, ignore_errors=True)
    shutil.rmtree(_SOCKET_DIR, ignore_errors=True)


_SOCKET_DIR = tempfile.mkdtemp(prefix="plk-", dir="/tmp" if os.path.isdir("/tmp") else None)


def _ipc_kernels_for_nbval(sockets: str) -> None:
    """Make nbval start its kernels with IPC transport, each under a short private path in
    ``sockets`` (a socket's path has a limit of about 100 bytes)."""
    try:
        import nbval.kernel
    except ImportError:
        return
    from jupyter_client.manager import KernelManager

    def ipc_kernel_manager(**kwargs: Any) -> KernelManager:
        return KernelManager(transport="ipc", ip=os.path.join(sockets, uuid.uuid4().hex[:12]),
                             **kwargs)

    nbval.kernel.KernelManager = ipc_kernel_manager


_ipc_kernels_for_nbval(_SOCKET_DIR)


@pytest.fixture(autouse=True)
def _isolated_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test sees the session's temporary cache (a test may still point it elsewhere)."""
    monkeypatch.setenv("PUSHLUCK_CACHE", _CACHE_DIR)


# ---- did the browser tests and the notebooks run? -----------------------------------------------

@dataclass(frozen=True)
class _Entry:
    """What the checks need of a collected test: its id, whether it is a browser test, and
    the notebook it runs a cell of (None for a test module)."""

    nodeid: str
    browser: bool
    notebook: str | None


_selected: dict[str, _Entry] = {}
_deselected: dict[str, _Entry] = {}
_ran: Counter[str] = Counter()  # node id -> 1 when its call phase ran (passed or failed)
_skipped: set[str] = set()


def _entry(item: pytest.Item) -> _Entry:
    path = Path(str(item.path))
    return _Entry(item.nodeid, item.get_closest_marker("browser") is not None,
                  str(path) if path.suffix == ".ipynb" else None)


def soak_wanted(config: pytest.Config) -> bool:
    """Whether this run includes the ``soak`` tests."""
    return os.environ.get("PUSHLUCK_SOAK") == "1" or "soak" in (config.option.markexpr or "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if soak_wanted(config):
        return
    soak = [item for item in items if item.get_closest_marker("soak") is not None]
    if soak:
        items[:] = [item for item in items if item.get_closest_marker("soak") is None]
        config.hook.pytest_deselected(items=soak)


def pytest_deselected(items: list[pytest.Item]) -> None:
    _deselected.update((item.nodeid, _entry(item)) for item in items)


def pytest_collection_finish(session: pytest.Session) -> None:
    _selected.update((item.nodeid, _entry(item)) for item in session.items)


# Under pytest-xdist the workers collect and the controller only sees reports: each worker
# hands its collection to the controller, which merges them (every worker collects the same).
@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    data = json.loads(getattr(node, "workeroutput", {}).get("pushluck_items", "{}") or "{}")
    for key, target in (("selected", _selected), ("deselected", _deselected)):
        target.update((nodeid, _Entry(nodeid, browser, notebook))
                      for nodeid, browser, notebook in data.get(key, []))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and not report.skipped:
        _ran[report.nodeid] = 1
    if report.skipped:
        _skipped.add(report.nodeid)


def _code_cells(path: Path) -> int:
    """Code cells in a notebook (a page of text alone, like the landing page, has none)."""
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    return sum(1 for cell in cells if cell.get("cell_type") == "code")


def _in_scope(config: pytest.Config, path: Path) -> bool:
    """Whether the run was asked to collect ``path`` (directly or through a parent)."""
    for arg in config.args:
        target = Path(arg.split("::")[0])
        if not target.is_absolute():
            target = Path(config.invocation_params.dir) / target
        target = target.resolve()
        if target == path or target in path.parents:
            return True
    return False


def ran_everything_problems(config: pytest.Config) -> tuple[list[str], str]:
    """What went unrun (each a one-line problem), and the summary line of counts."""
    problems: list[str] = []
    nbval = bool(config.getoption("nbval", False) or config.getoption("nbval_lax", False))
    browser_items = [i for i in _selected.values() if i.browser]
    notebook_items = [i for i in _selected.values() if i.notebook is not None]
    for item in [*browser_items, *notebook_items]:
        if item.nodeid in _skipped:
            problems.append(f"{item.nodeid} was skipped: it must run")
    if nbval and _in_scope(config, NOTEBOOKS):
        notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
        if not notebooks:
            problems.append("no notebook found in notebooks/")
        seen = {i.notebook for i in [*_selected.values(), *_deselected.values()]}
        for path in notebooks:
            if str(path) not in seen and _code_cells(path):
                problems.append(f"notebook {path.name} was not collected: no cell ran")
    browser_file = ROOT / "tests" / "test_browser.py"
    collected_browser = [i for i in [*_selected.values(), *_deselected.values()] if i.browser]
    if _in_scope(config, browser_file) and browser_file.exists() and not collected_browser:
        problems.append("tests/test_browser.py collected no browser test")
    browser_ran = sum(_ran[i.nodeid] for i in browser_items)
    cells_ran = sum(_ran[i.nodeid] for i in notebook_items)
    books = len({i.notebook for i in notebook_items if _ran[i.nodeid]})
    summary = (f"pushluck checks: {browser_ran} browser tests ran, {cells_ran} notebook cells "
               f"ran in {books} notebooks")
    return problems, summary


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller checks
        workeroutput["pushluck_items"] = json.dumps({
            key: [[e.nodeid, e.browser, e.notebook] for e in entries.values()]
            for key, entries in (("selected", _selected), ("deselected", _deselected))})
        return
    if session.config.option.collectonly or exitstatus not in (0, 1):
        return
    if getattr(session.config.option, "last_failed", False) or session.config.option.keyword:
        return  # a deliberately partial run
    problems, _ = ran_everything_problems(session.config)
    if problems:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if getattr(config, "workeroutput", None) is not None:  # an xdist worker: the controller says
        return
    problems, summary = ran_everything_problems(config)
    if not any(i.browser or i.notebook for i in _selected.values()) and not problems:
        return
    terminalreporter.write_line(summary)
    for problem in problems:
        terminalreporter.write_line(f"NOT RUN: {problem}", red=True)
