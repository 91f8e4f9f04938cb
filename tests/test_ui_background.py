"""ui.background.LatestOnly: a newer request supersedes an older one; results arrive once."""

from __future__ import annotations

import threading

from pushluck_teach.ui.background import LatestOnly


def test_only_the_latest_request_is_delivered() -> None:
    task: LatestOnly[str] = LatestOnly("test-latest")
    release_first = threading.Event()
    delivered: list[str] = []
    done = threading.Event()

    def record(future) -> None:
        delivered.append(future.result())
        done.set()

    task.supersede()
    task.submit(lambda: (release_first.wait(5), "first")[1], record)
    task.supersede()
    task.submit(lambda: "second", record)  # queued behind the first, which is still running
    release_first.set()
    task.wait(5)
    assert done.wait(5)
    task.close()
    assert delivered == ["second"]


def test_superseding_without_a_new_request_drops_the_running_result() -> None:
    task: LatestOnly[int] = LatestOnly("test-latest")
    release = threading.Event()
    delivered: list[int] = []
    task.submit(lambda: (release.wait(5), 1)[1], lambda f: delivered.append(f.result()))
    generation = task.supersede()  # e.g. the widget was cleared
    release.set()
    task.wait(5)
    task.close()
    assert delivered == [] and task.is_latest(generation)


def test_an_error_reaches_the_callback_of_the_latest_request() -> None:
    task: LatestOnly[int] = LatestOnly("test-latest")
    errors: list[str] = []
    got = threading.Event()

    def fail() -> int:
        raise ValueError("no solution here")

    def record(future) -> None:
        errors.append(str(future.exception()))
        got.set()

    task.submit(fail, record)
    task.wait(5)
    assert got.wait(5)
    task.close()
    assert errors == ["no solution here"]


def test_wait_returns_after_the_callback_and_what_it_started() -> None:
    """``wait`` covers the callback (it runs in the worker just after the result) and a
    follow-up computation the callback submits (values, then the distribution)."""
    task: LatestOnly[str] = LatestOnly("test-latest")
    seen: list[str] = []

    def second_done(future) -> None:
        threading.Event().wait(0.2)  # a slow callback: wait must not return before it ends
        seen.append(future.result())

    def first_done(future) -> None:
        threading.Event().wait(0.2)
        seen.append(future.result())
        task.submit(lambda: "follow-up", second_done)

    task.submit(lambda: "first", first_done)
    task.wait(10)
    task.close()
    assert seen == ["first", "follow-up"]


def test_a_result_finishing_while_the_kernel_exits_is_dropped_quietly() -> None:
    """A kernel shut down mid-computation: Python waits for the worker thread before exiting,
    and the result's callback (which would update widgets of a closed page) must not run and
    print a traceback into the server's log.  The same script without the exit delivers."""
    import subprocess
    import sys

    script = """
import sys, time
from pushluck_teach.ui.background import LatestOnly
job = LatestOnly("exit-test")
def on_done(future):
    print("delivered", flush=True)
    raise RuntimeError("the page's connection is closed")
job.submit(lambda: time.sleep(0.5), on_done)
if sys.argv[1] == "wait":
    job.wait()
"""
    exiting = subprocess.run([sys.executable, "-c", script, "exit"], capture_output=True,
                             text=True, timeout=60)
    assert exiting.returncode == 0
    assert "delivered" not in exiting.stdout
    assert "Traceback" not in exiting.stderr, exiting.stderr
    waiting = subprocess.run([sys.executable, "-c", script, "wait"], capture_output=True,
                             text=True, timeout=60)
    assert "delivered" in waiting.stdout  # the control: a living kernel gets its result
