"""Run a widget's slow computation off the click path, latest request only.

A click must return at once, so a widget hands its slow part (a distribution, a whole-game
chance) to :class:`LatestOnly`: one worker per widget, a generation counter that every new
request (or :meth:`LatestOnly.supersede`) advances, and a completion callback that runs only for
the latest request, so an older answer never overwrites a newer one.

The worker is a thread in a Voilà kernel.  Pyodide (the static site, ``scripts/build_site.sh``)
has no threads; there the same task runs on the event loop right after the click's handler
returns (:class:`EventLoopExecutor`), so the cheap numbers and the "computing…" note reach the
page first.  The kernel lives in a Web Worker, so the tab itself never freezes, only later
clicks wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Executor, Future, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

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


def let_the_page_in() -> bool:
    """In Pyodide, let the event loop run in the middle of a long synchronous computation (so
    progress reaches the page and a newer click is handled, e.g. to supersede this one); a
    no-op elsewhere, where the computation runs in a thread.  True when it yielded.

    Uses JSPI stack switching (``pyodide.ffi.run_sync``; Chromium has it: checked in the site
    with Pyodide 0.29.0, also inside event-loop callbacks).  Call it only where no lock is held:
    a click handler that waits for a lock held by the suspended computation would wait forever.
    """
    if sys.platform != "emscripten":
        return False
    from pyodide.ffi import can_run_sync, run_sync  # only exists in Pyodide

    if not can_run_sync():
        return False
    run_sync(asyncio.sleep(0))
    return True


def interpreter_exiting() -> bool:
    """True while Python waits for worker threads before exiting (a kernel shut down while a
    computation runs): the main thread has stopped, the page's connection is closed, so a
    result delivered now could only fail and print a traceback into the server's log.

    CPython marks this moment only in a private flag (``threading._SHUTTING_DOWN``, set before
    the thread pools are joined); where it is missing, a stopped main thread says the same."""
    return bool(getattr(threading, "_SHUTTING_DOWN", False)) or not threading.main_thread(
    ).is_alive()


def worker_executor(name: str) -> Executor:
    """One worker for a widget's background tasks: a thread where possible."""
    if threads_available():
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    return EventLoopExecutor()


class LatestOnly(Generic[T]):
    """One worker (a thread where possible); each :meth:`submit` supersedes the previous request.

    ``generation`` counts requests; a result is delivered to its ``on_done`` callback (in the
    worker thread) only while its generation is still the latest and it was not cancelled,
    and never while the interpreter exits (:func:`interpreter_exiting`).
    Submitting cancels the previous computation if it has not started yet (a running one
    finishes, and its result is dropped).
    """

    def __init__(self, thread_name: str) -> None:
        self._thread_name = thread_name
        self._generation = 0
        self._executor: Executor | None = None
        self._future: Future[T] | None = None
        self._delivered: threading.Event | None = None  # set once the latest ``on_done`` ran

    @property
    def generation(self) -> int:
        """The number of the latest request."""
        return self._generation

    @property
    def future(self) -> Future[T] | None:
        """The latest submitted computation (None before the first)."""
        return self._future

    def supersede(self) -> int:
        """Start a new request (the previous one's result will be dropped); its number."""
        self._generation += 1
        return self._generation

    def is_latest(self, generation: int) -> bool:
        return generation == self._generation

    def submit(self, work: Callable[[], T], on_done: Callable[[Future[T]], None]) -> Future[T]:
        """Run ``work()`` in the worker thread for the current generation; when it finishes,
        call ``on_done(future)`` if that generation is still the latest."""
        generation = self._generation
        if self._executor is None:
            self._executor = worker_executor(self._thread_name)
        if self._future is not None:
            self._future.cancel()  # only stops a computation that has not started yet
        delivered = threading.Event()
        future = self._executor.submit(work)
        self._future, self._delivered = future, delivered

        def deliver(done: Future[T]) -> None:
            try:
                if (not done.cancelled() and self.is_latest(generation)
                        and not interpreter_exiting()):
                    on_done(done)
            finally:
                delivered.set()

        future.add_done_callback(deliver)
        return future

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the latest computation has finished and its ``on_done`` has run, and so
        on for any computation that ``on_done`` submitted (tests, benchmarks); an error is left
        to ``on_done``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (future := self._future) is not None:
            delivered = self._delivered
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            with contextlib.suppress(CancelledError):
                future.exception(timeout=left)
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if delivered is not None and not future.cancelled():
                delivered.wait(left)  # the callback runs just after the result, in the worker
            if future is self._future or (deadline is not None
                                          and time.monotonic() >= deadline):
                return

    def close(self) -> None:
        """Stop the worker thread (pending computations are cancelled)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
