"""The app's kernels: the warm pool, idle culling, IPC transport and the "kernel stopped" notice.

Each test starts the app with the README's command (``scripts/run_app.sh --no-install``) on a
private loopback port and reads Voilà's log.  Reproduced here:

* a pool kernel that sat idle past the cull timeout (3 s in the test) is still served to the
  next page, which renders and stays alive after another timeout has passed;
* a served kernel's idle time counts from the hand-out: a page fetched without a browser keeps
  its kernel for the timeout, then the culler frees it;
* a pool kernel killed while it waits is never handed to a page: the page gets a live kernel;
* the app's full pool starts 20 times over (two servers at once each time, so kernels of two
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


def kernel_environment(kernel_id: str) -> dict[str, str]:
    """The environment the kernel ``kernel_id`` was started with (/proc/<pid>/environ)."""
    (pid,) = kernel_pids(kernel_id)
    pairs = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


def served_kernels(log: str) -> list[str]:
    return re.findall(r"Serving warm pool kernel (\S+)", log)


def started_kernels(log: str) -> list[str]:
    return re.findall(r"Kernel started: (\S+)", log)


def assert_no_kernel_died(log: str) -> None:
    """No line of the app's log says a kernel died or a handler failed; a failure quotes each
    such line with the ten lines after it (a traceback's frames and its error)."""
    lines = log.splitlines()
    bad = [i for i, line in enumerate(lines) if any(m in line for m in DEATH_MARKERS)]
    assert not bad, "\n---\n".join("\n".join(lines[i:i + 11]) for i in bad)


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
        # every kernel the app starts caps glibc's heap arenas (kernel memory)
        from pushluck_teach import kernel_pool

        bundle = kernel_pool.PLOTLY_BUNDLE_PATH
        for kernel_id in started_kernels(app.log)[1:]:
            environment = kernel_environment(kernel_id)
            assert environment["MALLOC_ARENA_MAX"] == os.environ.get("MALLOC_ARENA_MAX", "2")
            assert environment[kernel_pool.BUNDLE_URL_ENV].endswith(bundle)


@pytest.mark.slow
@pytest.mark.parametrize("rounds", [2, pytest.param(10, marks=pytest.mark.soak)])
def test_full_pool_starts_many_times_without_a_kernel_dying(rounds):
    """Full pools started two apps at once (each round both servers' kernels warming at the
    same moment): 2 rounds in every run, 10 rounds (20 pools) in the soak run, the hunt for
    a kernel that dies while a pool warms."""
    seen, seconds = [], []
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
def test_page_whose_widgets_never_load_reloads_once_then_says_so(browser):
    """The kernel's answers to the page's widget manager are dropped (as if they never came):
    the page reloads by itself once and renders on a fresh kernel; when the widgets stall on
    the reloaded page too, it says so and offers the reload button."""
    with App(PORTS[0], "--pool", "0") as app:
        app.wait_for_log(r"Voil. is running at")
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.add_init_script("window.pushluckWidgetsLoadMs = 6000")
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        stall = {"loads": 1}  # how many page loads get a kernel connection that never answers
        connections: list[str] = []

        def route(ws) -> None:
            server = ws.connect_to_server()
            connections.append(ws.url)
            if len(connections) <= stall["loads"]:
                server.on_message(lambda message: None)  # the kernel's replies never arrive

        page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), route)
        page.goto(app.url("Play_Pig.ipynb"), timeout=180_000)
        first_kernel = page.evaluate("window.pushluckKernelId")
        # the page reloads by itself and renders on a fresh kernel
        page.wait_for_function("(k) => window.pushluckKernelId && window.pushluckKernelId !== k",
                               arg=first_kernel, timeout=180_000)
        page.wait_for_selector(".pushluck-table", state="visible", timeout=180_000)
        assert page.locator(NOTICE).is_hidden()
        assert page.evaluate("window.pushluckStalledWidgets()") == 0
        # stalled again right after a reload: no second automatic reload, the notice instead
        stall["loads"] = len(connections) + 1
        page.evaluate("sessionStorage.setItem('pushluck-reloaded:' + location.pathname, '1')")
        page.reload(timeout=180_000)
        page.wait_for_selector(NOTICE, state="visible", timeout=120_000)
        assert page.get_attribute(NOTICE, "data-reason") == "widgets"
        assert "did not load" in page.locator(NOTICE).inner_text()
        page.close()
        assert not errors, errors


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


def test_the_bundle_url_has_one_name_in_the_server_and_the_kernel():
    from pushluck_teach import kernel_pool
    from pushluck_teach.ui import figures

    assert kernel_pool.BUNDLE_URL_ENV == figures.BUNDLE_URL_ENV


@pytest.mark.slow
def test_server_serves_plotly_bundle_and_its_kernels_carry_only_the_url(tmp_path):
    """The file served is the package's plotly bundle, byte for byte; a kernel of the app (pooled
    or started for a page with the pool empty) knows its URL, and a chart made there carries the
    URL instead of the 1.8 MB bundle."""
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                   "outputs": [], "source": [
                       "import os\n",
                       "from pushluck_teach.ui.figures import live_figure\n",
                       "fig = live_figure([], {})\n",
                       "print('url=' + os.environ.get('PUSHLUCK_PLOTLY_BUNDLE_URL', 'none'),\n",
                       "      'carried=%d' % len(fig._plotly_esm), 'named=' + fig._plotly_esm_url)",
                   ]}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    (tmp_path / "Url.ipynb").write_text(json.dumps(notebook))
    from pushluck_teach.ui.figures import PLOTLY_BUNDLE_FILE

    plotly_file = PLOTLY_BUNDLE_FILE
    url = "/voila/labextensions/pushluck-plotly/plotly-pushluck.min.js"
    with App(PORTS[0], "--WarmKernelPool.pool_size=1", notebooks=tmp_path) as app:
        app.wait_for_pool(1)
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{url}", timeout=60) as response:
            assert response.read() == plotly_file.read_bytes()
        for _ in range(2):  # the pooled kernel, then one started for the page (pool empty)
            with urllib.request.urlopen(app.url("Url.ipynb"), timeout=180) as response:
                html = response.read().decode()
            assert f"url={url} carried=0 named={url}" in html, html[-3000:]
        assert len(served_kernels(app.log)) == 1


@pytest.mark.slow
def test_pool_refills_only_after_fill_delay_without_a_hand_out():
    """Two pages taken 2 s apart: the pool warms its first replacement no sooner than
    ``fill_delay`` (5 s here) after the second hand-out, not after the first."""
    import threading

    def fetch() -> None:
        with urllib.request.urlopen(app.url("Play_Pig.ipynb"), timeout=180) as response:
            response.read()

    with App(PORTS[0], "--pool", "2", "--", "--WarmKernelPool.fill_delay=5") as app:
        app.wait_for_pool(2)
        before = len(started_kernels(app.log))
        fetches = [threading.Thread(target=fetch) for _ in range(2)]
        fetches[0].start()
        app.wait_for_log(r"Serving warm pool kernel", count=1)
        time.sleep(2)
        fetches[1].start()
        app.wait_for_log(r"Serving warm pool kernel", count=2)
        second = time.monotonic()
        while len(started_kernels(app.log)) == before and time.monotonic() - second < 60:
            time.sleep(0.05)
        refill = time.monotonic() - second
        for thread in fetches:
            thread.join(timeout=180)
        assert len(started_kernels(app.log)) > before
        assert refill >= 5 - 0.5, refill  # the log is polled every 0.25 s
        app.wait_for_pool(2, times=2)


def test_a_page_kernel_still_starting_counts_as_activity_now():
    """Seen in a full run: a page's kernel whose start had not finished has no
    ``last_activity`` yet (reading it raises), and the pool's quiet check died on it with a
    traceback in the app's log.  A starting kernel is a page opening: activity now; a kernel
    gone meanwhile is no activity."""
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    from pushluck_teach.kernel_pool import WarmKernelPool

    # No pool and no bundle: a pool queues its fill on this worker's event loop, which ran it
    # in this test's teardown: a kernel started that outlived the suite and left its
    # kernel-<id>.json in the working directory (seen in every full run).
    pool = WarmKernelPool(pool_size=0, serve_plotly_bundle=False)
    assert pool._fill_task is None
    assert pool._last_page_activity() == 0.0
    pool._kernels["starting"] = ServerKernelManager()  # not started: last_activity unset
    before = time.monotonic()
    assert before - 1 <= pool._last_page_activity() <= time.monotonic() + 1
    assert pool._activity_of("gone") is None
