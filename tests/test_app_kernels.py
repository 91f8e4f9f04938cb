"""The app's kernels: the warm pool, idle culling, IPC transport and the "kernel stopped" notice.

Each test starts the app with the README's command (``scripts/run_app.sh --no-install``) on a
private loopback port and reads Voilà's log.  Reproduced here:

* a pool kernel that sat idle past the cull timeout (3 s in the test) is still served to the
  next page, which renders and stays alive after another timeout has passed;
* a served kernel's idle time counts from the hand-out: a page fetched without a browser keeps
  its kernel for the timeout, then the culler frees it;
* a pool kernel killed while it waits is never handed to a page: the page gets a live kernel;
* the app's full pool starts 10 times over (two servers at once each time, so kernels of two
  processes start together) with no kernel dying and every kernel on IPC sockets;
* a page whose kernel dies (killed from outside, or dying while the page is rendered) shows the
  notice with a reload button, and the reload brings a working page back.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("PUSHLUCK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]
# Private ports of this test file (the suite's other servers use free ports).
PORTS = (8892, 8893, 8894)
WIDGET = ".jupyter-widgets"
NOTICE = "#pushluck-kernel-lost"
DEATH_MARKERS = ("died", "Address already in use", "Could not warm", "restart failed",
                 "Traceback", "kernel_info")


class App:
    """``scripts/run_app.sh --no-install`` on a loopback port, its log in a temporary file."""

    def __init__(self, port: int, *args: str, notebooks: Path | None = None) -> None:
        self.port = port
        self.log_file = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            prefix="pushluck-voila-", suffix=".log", delete=False)
        env = dict(os.environ)
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"]
                                         if env.get("PYTHONPATH") else "")
        if notebooks is None:
            command = ["bash", str(ROOT / "scripts" / "run_app.sh"), "--no-install",
                       "--port", str(port), *args]
        else:  # the app's configuration and template on another notebook directory
            env["JUPYTER_PATH"] = str(ROOT / "share" / "jupyter")
            command = [str(Path(sys.executable).parent / "voila"), str(notebooks),
                       "--template=pushluck", f"--port={port}", "--no-browser", *args]
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def log(self) -> str:
        return Path(self.log_file.name).read_text(errors="replace")

    def url(self, notebook: str) -> str:
        return f"http://127.0.0.1:{self.port}/voila/render/{notebook}"

    def wait_for_log(self, pattern: str, timeout: float = 180, count: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(re.findall(pattern, self.log)) >= count:
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"the app exited ({self.proc.returncode}):\n{self.log}")
            time.sleep(0.25)
        raise AssertionError(f"{pattern!r} not seen {count}x within {timeout} s:\n{self.log}")

    def wait_for_pool(self, size: int, timeout: float = 180, times: int = 1) -> None:
        """Wait until the pool has been full ``times`` times (the log says so)."""
        self.wait_for_log(rf"Warm pool: {size} of {size} kernels ready", timeout, times)

    def kernel_model(self, kernel_id: str) -> dict | None:
        """The server's record of a kernel, or None when it no longer exists."""
        url = f"http://127.0.0.1:{self.port}/api/kernels/{kernel_id}"
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return None
            raise

    def connection_dir(self) -> Path:
        match = re.search(r"Storing connection files in (\S+?)\.?\n", self.log)
        assert match, self.log
        return Path(match.group(1))

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log_file.close()

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        os.unlink(self.log_file.name)


def kernel_pids(kernel_id: str) -> list[int]:
    """Process ids of the kernel started with ``kernel-<id>.json`` (read from /proc)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}.json".encode() in cmdline:
                pids.append(int(entry.name))
    return pids


def served_kernels(log: str) -> list[str]:
    return re.findall(r"Serving warm pool kernel (\S+)", log)


def started_kernels(log: str) -> list[str]:
    return re.findall(r"Kernel started: (\S+)", log)


def assert_no_kernel_died(log: str) -> None:
    bad = [line for line in log.splitlines() if any(m in line for m in DEATH_MARKERS)]
    assert not bad, "\n".join(bad)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
        yield chromium
        chromium.close()


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=180_000)
    page.wait_for_selector(WIDGET, state="visible", timeout=180_000)
    return page, errors


@pytest.mark.browser
def test_pool_kernel_idle_past_cull_timeout_is_served_and_page_renders(browser):
    with App(PORTS[0], "--pool", "1", "--", "--WarmKernelPool.cull_idle_timeout=3",
             "--WarmKernelPool.cull_interval=1") as app:
        app.wait_for_pool(1)
        pooled = started_kernels(app.log)[0]
        time.sleep(7)  # the pooled kernel is idle for more than twice the timeout, 7 sweeps
        assert "Culling '" not in app.log
        assert app.kernel_model(pooled) is not None

        page, errors = open_page(browser, app.url("Play_Pig.ipynb"))
        assert served_kernels(app.log) == [pooled]
        assert page.evaluate("window.pushluckKernelId") == pooled
        time.sleep(7)  # past the timeout again, now counted from the hand-out
        model = app.kernel_model(pooled)
        assert model is not None, app.log
        assert model["connections"] >= 1
        assert page.locator(NOTICE).is_hidden()
        assert page.locator(WIDGET).first.is_visible()
        assert f"Culling 'idle' kernel 'python3' ({pooled})" not in app.log
        assert not errors
        page.close()
        assert_no_kernel_died(app.log)


@pytest.mark.slow
def test_served_kernel_idle_time_counts_from_the_hand_out():
    with App(PORTS[0], "--pool", "1", "--", "--WarmKernelPool.cull_idle_timeout=4",
             "--WarmKernelPool.cull_interval=1") as app:
        app.wait_for_pool(1)
        pooled = started_kernels(app.log)[0]
        time.sleep(6)  # idle in the pool past the timeout: still there
        assert app.kernel_model(pooled) is not None
        with urllib.request.urlopen(app.url("Play_Pig.ipynb"), timeout=180) as response:
            assert b"application/vnd.jupyter.widget-view+json" in response.read()
        handed_out = time.monotonic()
        assert served_kernels(app.log) == [pooled]
        time.sleep(2)  # no browser connects; the kernel is kept for the timeout after hand-out
        assert app.kernel_model(pooled) is not None
        app.wait_for_log(rf"Culling .*\({re.escape(pooled)}\)", timeout=20)
        assert time.monotonic() - handed_out >= 3  # not culled by the first sweep
        deadline = time.monotonic() + 30
        while app.kernel_model(pooled) is not None and time.monotonic() < deadline:
            time.sleep(0.5)  # the shutdown follows the log line
        assert app.kernel_model(pooled) is None
        assert not kernel_pids(pooled)


@pytest.mark.slow
def test_pool_kernel_that_died_is_never_served():
    with App(PORTS[0], "--pool", "1") as app:
        app.wait_for_pool(1)
        dead = started_kernels(app.log)[0]
        for pid in kernel_pids(dead):
            os.kill(pid, signal.SIGKILL)
        with urllib.request.urlopen(app.url("Play_Pig.ipynb"), timeout=180) as response:
            html = response.read().decode()
        assert "application/vnd.jupyter.widget-view+json" in html
        served = re.search(r'window.pushluckKernelId = "([^"]+)"', html).group(1)
        assert served != dead
        assert app.kernel_model(served)["execution_state"] in {"idle", "busy"}
        assert app.kernel_model(dead) is None
        app.wait_for_pool(1, times=2)  # the pool was refilled with a live kernel
        assert not kernel_pids(dead)


@pytest.mark.slow
def test_full_pool_starts_ten_times_without_a_kernel_dying():
    rounds, seen, seconds = 5, [], []
    for _ in range(rounds):
        start = time.monotonic()
        apps = [App(PORTS[1]), App(PORTS[2])]  # the README's command, default pool, twice
        try:
            for app in apps:
                app.wait_for_pool(2)
            seconds.append(time.monotonic() - start)
            for app in apps:
                assert_no_kernel_died(app.log)
                files = sorted(app.connection_dir().glob("kernel-*.json"))
                assert len(files) == 2
                for file in files:
                    assert json.loads(file.read_text())["transport"] == "ipc"
                kernel_ids = started_kernels(app.log)
                assert len(kernel_ids) == 2
                for kernel_id in kernel_ids:
                    assert app.kernel_model(kernel_id)["execution_state"] == "idle"
                seen.extend(kernel_ids)
        finally:
            for app in apps:
                app.__exit__(None, None, None)
        leftover = [kernel_id for kernel_id in seen if kernel_pids(kernel_id)]
        assert not leftover, f"kernels still running after the app stopped: {leftover}"
    assert len(set(seen)) == 2 * 2 * rounds
    print(f"pool of 2 ready in {min(seconds):.1f}-{max(seconds):.1f} s, two apps at once")


@pytest.mark.browser
def test_page_whose_kernel_dies_says_so_and_reload_recovers(browser):
    with App(PORTS[0], "--pool", "1") as app:
        app.wait_for_pool(1)
        page, errors = open_page(browser, app.url("Play_Pig.ipynb"))
        kernel_id = page.evaluate("window.pushluckKernelId")
        assert page.locator(NOTICE).is_hidden()
        pids = kernel_pids(kernel_id)
        assert len(pids) == 1
        os.kill(pids[0], signal.SIGKILL)

        page.wait_for_selector(NOTICE, state="visible", timeout=30_000)
        assert "kernel has stopped" in page.locator(NOTICE).inner_text()
        assert page.get_attribute(NOTICE, "data-reason") == "stopped"
        page.click("#pushluck-reload")
        page.wait_for_selector(WIDGET, state="visible", timeout=180_000)
        assert page.locator(NOTICE).is_hidden()
        new_kernel = page.evaluate("window.pushluckKernelId")
        assert new_kernel != kernel_id
        assert app.kernel_model(new_kernel)["execution_state"] in {"idle", "busy"}
        page.close()
        assert not errors


@pytest.mark.browser
def test_page_whose_kernel_dies_while_rendering_says_so(browser, tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# A page that loses its kernel"]},
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": ["import os, signal\n", "os.kill(os.getpid(), signal.SIGKILL)"]},
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": ["print('never printed')"]},
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    (tmp_path / "Dies.ipynb").write_text(json.dumps(notebook))
    with App(PORTS[0], "--WarmKernelPool.pool_size=0", notebooks=tmp_path) as app:
        app.wait_for_log(r"Voil. is running at")
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app.url("Dies.ipynb"), timeout=180_000)
        page.wait_for_selector(NOTICE, state="visible", timeout=60_000)
        assert page.locator("#pushluck-reload").is_visible()
        assert "never printed" not in page.content()
        page.close()
