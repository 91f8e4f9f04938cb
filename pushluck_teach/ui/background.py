"""Run a widget's slow computation in a worker thread, latest request only.

A click must return at once, so a widget hands its slow part (a distribution, a whole-game
chance) to :class:`LatestOnly`: one worker thread per widget, a generation counter that every new
request (or :meth:`LatestOnly.supersede`) advances, and a completion callback that runs only for
the latest request, so an older answer never overwrites a newer one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from typing import Generic, TypeVar

T = TypeVar("T")


class LatestOnly(Generic[T]):
    """One worker thread; each :meth:`submit` supersedes the previous request.

    ``generation`` counts requests; a result is delivered to its ``on_done`` callback (in the
    worker thread) only while its generation is still the latest and it was not cancelled.
    Submitting cancels the previous computation if it has not started yet (a running one
    finishes, and its result is dropped).
    """

    def __init__(self, thread_name: str) -> None:
        self._thread_name = thread_name
        self._generation = 0
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future[T] | None = None

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
            self._executor = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix=self._thread_name)
        if self._future is not None:
            self._future.cancel()  # only stops a computation that has not started yet
        future = self._executor.submit(work)
        self._future = future

        def deliver(done: Future[T]) -> None:
            if not done.cancelled() and self.is_latest(generation):
                on_done(done)

        future.add_done_callback(deliver)
        return future

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the latest computation has finished (tests, benchmarks); its error, if
        any, is left to ``on_done``."""
        future = self._future
        if future is not None:
            with contextlib.suppress(CancelledError):
                future.exception(timeout=timeout)

    def close(self) -> None:
        """Stop the worker thread (pending computations are cancelled)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
