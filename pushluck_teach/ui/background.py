"""Where the pages run slow computations: a worker thread, or later in the browser's event loop.

A Voilà kernel computes a turn's distribution or the win gauge in a worker thread, so a click
returns at once.  Pyodide (the static site, :mod:`scripts/build_site.sh`) has no threads; there
the same task runs on the event loop right after the click's handler returns, so the cheap
numbers and the "computing…" note reach the page first.  The kernel lives in a Web Worker, so
the tab itself never freezes, only later clicks wait.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def threads_available() -> bool:
    """False in Pyodide (``sys.platform == "emscripten"``), where a thread cannot start."""
    return sys.platform != "emscripten"


class EventLoopExecutor(Executor):
    """Runs each task on the current event loop (soon, in order), or at once without a loop."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the future's callbacks, as a thread would
                future.set_exception(exc)

        loop = _loop_for_later()
        if loop is None:
            run()
        else:
            loop.call_soon(run)
        return future


def _loop_for_later() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        if sys.platform == "emscripten":  # Pyodide's WebLoop runs callbacks without run_*()
            return asyncio.get_event_loop()
        return None


def worker_executor(name: str) -> Executor:
    """One worker for a widget's background tasks: a thread where possible."""
    if threads_available():
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    return EventLoopExecutor()
