"""The app in a real browser: Voilà on a loopback port, headless Debian Chromium via Playwright.

The shared harness of the browser tests (servers, readers of the page, the command-line
checks) and the landing page's own tests.  What a draw/stop ``Play_*`` page must show
(:func:`play_and_check_numbers`): at the opening, the visible headline and the chart bars (each
bar's label and value, read from the Plotly figure in the page) against hand counts and the
tests' own solvers, which import nothing of the package; then, played by clicking, after every
action its numbers against ``pushluck odds`` for the position the page states (run in this
process: ``tests/pushluck_cli.py``).  ``tests/test_browser_pages.py`` runs it, and the lesson
pages' checks (``tests/lesson_checks.py``), in its one visit of each page.  Screenshots go to
``test-artifacts/screenshots/``.  The page may not request anything from a host other than
the loopback (classrooms are offline).

Chromium must be installed at ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run``
installs it).  A missing browser is a failure, not a skip.  Never ``playwright install``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlparse

import pytest
from pushluck_cli import pushluck_once

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("PUSHLUCK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}
LANDING = "00_Start_Here.ipynb"


def draw_stop_page(path: Path) -> bool:
    """Whether a Play page's game has a draw/stop turn (a card-play game's page, such as Lost
    Cities', is checked by its own browser test)."""
    found = re.search(r'play\(\\?"([a-z0-9-]+)', path.read_text(encoding="utf-8"))
    if not found:
        return True
    from pushluck_teach.games import get_game

    return get_game(found.group(1)).has_turn_model


PLAY_PAGES = sorted(p.name for p in NOTEBOOKS.glob("Play_*.ipynb") if draw_stop_page(p))
GAUGE_PAGES = {"Play_Pig.ipynb", "Play_Captain_Seven.ipynb"}
LESSON_PAGES = sorted(p.name for p in NOTEBOOKS.glob("Lesson_*.ipynb"))
PAGE_TIMEOUT_MS = 180_000
WIDGET_ERRORS = ("unexpected error", "display error", "could not compute")
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "Error in callback", "Exception in")

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def voila_command(port: int, *extra: str) -> list[str]:
    """The app's command (as scripts/run_app.sh runs it), on ``port``."""
    voila = Path(sys.executable).with_name("voila")
    exe = [str(voila)] if voila.exists() else [sys.executable, "-m", "voila"]
    return [*exe, "notebooks/", "--template=pushluck", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--no-browser", *extra]


def voila_env() -> dict[str, str]:
    env = dict(os.environ)
    share = str(ROOT / "share" / "jupyter")
    env["JUPYTER_PATH"] = share + (os.pathsep + env["JUPYTER_PATH"] if env.get("JUPYTER_PATH")
                                   else "")
    return env


def wait_until_serving(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Voilà exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    raise RuntimeError(f"Voilà did not answer {url} within {timeout} s")


class VoilaServer:
    """A Voilà process serving ``notebooks/`` with the repository's config (voila.json)."""

    def __init__(self, *extra: str, log_path: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or ROOT / "test-artifacts" / f"voila-{self.port}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(voila_command(self.port, *extra), cwd=ROOT, env=voila_env(),
                                     stdout=self._log, stderr=subprocess.STDOUT)
        try:
            wait_until_serving(self.base + "/", self.proc)
        except Exception:
            self.stop()
            raise

    def url(self, notebook: str) -> str:
        return f"{self.base}/voila/render/{notebook}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._log.close()

    def log_problems(self) -> list[str]:
        """Tracebacks and ERROR lines in the server's log, each traceback whole (with the line
        before it, which says where it came from), so a failure in CI can be read."""
        return log_problems(self.log_path.read_text(errors="replace"))

    def wait_for_log(self, pattern: str, timeout: float = 240) -> None:
        """Wait until the log has a line matching ``pattern`` (say, the warm pool is ready)."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.log_path.read_text(errors="replace")):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server's log never said {pattern!r}: "
                                     f"{self.log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)


_HANDLER_ERROR = "[IPKernelApp] ERROR | Exception in message handler:"
_CLOSED_SOCKET = "zmq.error.ZMQError: Socket operation on non-socket"


_STREAM_ERROR = "ERROR:tornado.general:Uncaught exception in ZMQStream callback"

#: A known problem: what matches its traceback, and the bare line logged just before it (None:
#: no such line).
KnownProblem = tuple[Callable[[str], bool], str | None]


def _less_known(problems: list[str], known: list[KnownProblem]) -> list[str]:
    """``problems`` less each one matching a ``known`` problem, with its bare line before it."""
    kept: list[str] = []
    for index, problem in enumerate(problems):
        following = problems[index + 1] if index + 1 < len(problems) else ""
        if any(matches(problem) or (problem == line and matches(following))
               for matches, line in known):
            continue
        kept.append(problem)
    return kept


#: What the server's stopping does to kernels that are still busy (each seen once in CI): the
#: KeyboardInterrupt of a (warm pool) kernel still importing ipykernel, and a kernel whose reply
#: to a cell it was running found its sockets already closed (the handler's error line and its
#: traceback).
_WRITTEN_BY_THE_SHUTDOWN: list[KnownProblem] = [
    (lambda problem: problem.endswith("KeyboardInterrupt") and "ipykernel_launcher.py" in problem
     and "Kernel shutdown" in problem, None),
    (lambda problem: problem.startswith(_HANDLER_ERROR) and problem.endswith(_CLOSED_SOCKET),
     _HANDLER_ERROR),
]
#: What ipykernel itself logs when a kernel is shut down (a closed tab's, culled): its reply to
#: the shutdown request publishes "idle" on the control channel after its sockets are closed
#: (the stream error line and its traceback, which ends in the closed-socket error).
_KERNEL_SHUT_DOWN: list[KnownProblem] = [
    (lambda problem: problem.startswith(_STREAM_ERROR) and problem.endswith(_CLOSED_SOCKET)
     and "process_control" in problem and '"idle", "control"' in problem, _STREAM_ERROR),
]


def stop_and_check_log(server: VoilaServer) -> None:
    """Stop the server; fail if its log holds a traceback or an ERROR line, except what
    shutting down a kernel does in ipykernel (:data:`_KERNEL_SHUT_DOWN`) and what the server's
    own stopping does to busy kernels (:data:`_WRITTEN_BY_THE_SHUTDOWN`)."""
    before = len(server.log_problems())
    server.stop()
    problems = server.log_problems()
    problems = _less_known(problems[:before], _KERNEL_SHUT_DOWN) + \
        _less_known(problems[before:], _KERNEL_SHUT_DOWN + _WRITTEN_BY_THE_SHUTDOWN)
    assert problems == [], f"the server's log ({server.log_path.name}): {problems[:5]}"


def launch_chromium(playwright):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: install it with "
                    "`apt-get install -y chromium` (CI's .ci/run does); the browser test "
                    "must not be skipped", pytrace=False)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                      headless=True)


class AppServer(VoilaServer):
    """The app started exactly as the README says (``scripts/run_app.sh``), on a free port;
    ``extra`` are more of that script's flags (say ``--pool 1``)."""

    def __init__(self, *extra: str) -> None:  # noqa: D107 - same attributes as VoilaServer
        self.port = int(os.environ.get("PUSHLUCK_TEST_PORT") or free_port())
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = ROOT / "test-artifacts" / f"run_app-{self.port}.log"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}"
                   f"{os.environ.get('PATH', '')}")
        self.proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "run_app.sh"), "--no-install", "--port",
             str(self.port), *extra], cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            wait_until_serving(self.base + "/", self.proc, timeout=240)
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait(timeout=10)
        self._log.close()


def log_problems(text: str) -> list[str]:
    """Each traceback (the line before it, its frames, its exception line) and each ERROR line
    in a server log, one string each (lines joined by " | ")."""
    lines = text.splitlines()
    problems, index = [], 0
    while index < len(lines):
        line = lines[index]
        if "Traceback" in line:
            end = index + 1
            while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end]):
                end += 1
            block = lines[max(0, index - 1):end + 1]
            problems.append(" | ".join(part.strip() for part in block if part.strip()))
            index = end + 1
            continue
        if "[E " in line or " ERROR" in line or line.startswith("ERROR"):
            problems.append(line)
        index += 1
    return problems


@pytest.fixture(scope="module")
def server(shared_app: AppServer) -> AppServer:
    """The worker's app server (tests/conftest.py), shared with the other browser files."""
    return shared_app


class PageWatch:
    """Requests the page makes, and console errors."""

    def __init__(self, page) -> None:
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("console", lambda msg: msg.type == "error" and self.console_errors.append(msg.text))

    def outside_hosts(self) -> list[str]:
        bad = []
        for url in self.requests:
            parsed = urlparse(url)
            if parsed.scheme in ("data", "blob", "about"):
                continue
            if parsed.hostname not in LOOPBACK:
                bad.append(url)
        return bad


def open_page(browser, server: VoilaServer, notebook: str, ready: str):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    watch = PageWatch(page)
    page.goto(server.url(notebook), timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(ready, state="visible", timeout=PAGE_TIMEOUT_MS)
    return page, watch


def assert_no_errors(text: str, watch: PageWatch, where: str) -> None:
    """No traceback and no widget error in the page's ``text``, and no page or console error
    seen by ``watch`` (any uncaught one fails the page, not only a known message)."""
    for marker in TRACEBACK_MARKERS:
        assert marker not in text, f"{where}: the page shows {marker!r}"
    for marker in WIDGET_ERRORS:
        assert marker not in text.lower(), f"{where}: a widget shows {marker!r}"
    assert watch.page_errors == [], f"{where}: page errors {watch.page_errors[:3]}"
    assert watch.console_errors == [], f"{where}: console errors {watch.console_errors[:3]}"


def assert_clean(page, watch: PageWatch, notebook: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Voilà scrolls inside its own container, so a tall viewport shows the whole page.
    page.set_viewport_size({"width": 1400, "height": 3000})
    page.wait_for_timeout(500)
    page.screenshot(path=str(SCREENSHOTS / f"{Path(notebook).stem}.png"), full_page=True)
    assert_no_errors(page.inner_text("body"), watch, notebook)
    assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0, (
        f"{notebook}: a cell wrote to stderr")
    assert watch.outside_hosts() == [], f"{notebook} requested: {watch.outside_hosts()[:5]}"
    # plotly.js reaches the page once, as the widgets' bundle: plotly's own JupyterLab mime
    # extension (a second 4.7 MB copy no page output uses) is on voila.json's denylist
    second_plotly = [url for url in watch.requests if "labextensions/jupyterlab-plotly" in url]
    assert second_plotly == [], f"{notebook} loaded plotly's mime extension: {second_plotly[:2]}"


def cli_odds(game: str, flags: dict[str, str], options: dict[str, str],
             objective: str = "points", exact: bool = True) -> dict:
    """``pushluck odds GAME ... --json`` for the position a page reports (with ``--exact``
    unless ``exact`` is False, and ``--objective win`` when the page's command has it), run in
    this process once per position (:mod:`pushluck_cli`)."""
    args = ["odds", game, "--json"] + (["--exact"] if exact else [])
    if objective == "win":
        args += ["--objective", "win"]
    for key, value in flags.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    done = pushluck_once(*args)
    assert done.status == 0, f"{' '.join(args)}: {done.stderr.strip()}"
    return json.loads(done.stdout)


READ_POSITION = """() => {
  const cli = document.querySelector('.pushluck-cli');
  const bust = document.querySelector('.pushluck-p-bust');
  if (!cli || !bust) return null;
  return {game: cli.dataset.game, flags: cli.dataset.flags, options: cli.dataset.options || '{}',
          exact: bust.dataset.exact};
}"""


CHART_DATA = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(
  d => JSON.stringify((d.data || []).map(t => [t.x || [], t.y || []])))"""
CHARTS_WITH_DATA = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).filter(
  d => (d.data || []).some(t => (t.y || []).length > 0)).length"""


def wait_for_chart_change(page, before: list[str], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(CHART_DATA) != before:
            return True
        page.wait_for_timeout(250)
    return False


def shown_position(page, timeout: float = 30.0) -> dict:
    """The position and bust probability on the page, once they have stopped changing."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        now = page.evaluate(READ_POSITION)
        if now is not None and now == last:
            return now
        last = now
        page.wait_for_timeout(400)
    raise AssertionError(f"the page's position did not settle: {last}")


def check_against_cli(page, timeout: float = 60.0) -> dict:
    """Wait until the page's ``data-exact`` equals ``pushluck odds`` for its ``data-flags``."""
    deadline = time.monotonic() + timeout
    while True:
        shown = shown_position(page)
        flags = json.loads(shown["flags"])
        odds = cli_odds(shown["game"], flags, json.loads(shown["options"]))
        expected = odds["p_bust_next_exact"]
        if shown["exact"] == (expected if expected is not None else "n/a"):
            return {"flags": flags, "exact": shown["exact"], "game": shown["game"]}
        if time.monotonic() > deadline:
            raise AssertionError(f"page shows P(bust next) = {shown['exact']} for {flags}, "
                                 f"pushluck odds says {expected}")
        page.wait_for_timeout(500)


def test_notebooks_exist():
    assert (NOTEBOOKS / LANDING).exists()


def test_log_problems_keeps_each_traceback_whole():
    log = ("[Voila] Kernel started: 1\nexception calling callback for <Future>\n"
           "Traceback (most recent call last):\n  File \"x.py\", line 1, in f\n    g()\n"
           "ValueError: boom\n[Voila] fine\n[E 10:00 Voila] broken\n")
    assert log_problems(log) == [
        'exception calling callback for <Future> | Traceback (most recent call last): | '
        'File "x.py", line 1, in f | g() | ValueError: boom',
        "[E 10:00 Voila] broken"]
    assert log_problems("[Voila] Kernel shutdown: 1\n") == []


def test_landing_page_links_every_notebook(server, browser):
    page, watch = open_page(browser, server, LANDING, "a[href*='Lesson_1']")
    hrefs = page.eval_on_selector_all("a[href$='.ipynb']", "els => els.map(e => e.href)")
    targets = {urlparse(h).path.rsplit("/", 1)[-1] for h in hrefs}
    for href in hrefs:
        assert urlparse(href).path.startswith("/voila/render/"), href
    expected = {p.name for p in NOTEBOOKS.glob("*.ipynb")} - {LANDING}
    assert expected <= targets, f"not linked from the landing page: {sorted(expected - targets)}"
    for target in targets:
        assert (NOTEBOOKS / target).exists(), f"the landing page links a missing {target}"
    assert_clean(page, watch, LANDING)
    page.close()


READ_NUMBERS = """() => {
  const cli = document.querySelector('.pushluck-cli');
  const hook = document.querySelector('.pushluck-numbers-hook');
  if (!cli || !hook) return null;
  return Object.assign({game: cli.dataset.game, flags: cli.dataset.flags,
                        options: cli.dataset.options || '{}',
                        command_objective: cli.dataset.objective || 'points'}, hook.dataset);
}"""
ODDS_KEYS = {"pBust": "p_bust_next", "evStop": "ev_stop", "evDrawOnce": "ev_draw_once",
             "evOptimal": "ev_optimal"}


def test_anywidget_models_get_time_to_start_on_a_loaded_machine(server, browser):
    """The template makes anywidget's 2 s model deadline (``AbortSignal.timeout(2000)``) 60 s:
    two of four full runs failed on "[anywidget] Failed to initialize model" without it.
    Other timeouts are untouched."""
    page = browser.new_page()
    page.goto(server.url(LANDING), timeout=PAGE_TIMEOUT_MS)
    aborted = page.evaluate("""async () => {
        const model = AbortSignal.timeout(2000), other = AbortSignal.timeout(100);
        await new Promise((resolve) => setTimeout(resolve, 2600));
        return [model.aborted, other.aborted];
    }""")
    page.close()
    assert aborted == [False, True]


def numbers_disagree(shown: dict, odds: dict) -> list[str]:
    """The panel's numbers against ``pushluck odds --json`` (exact fractions, or floats
    to 1e-9 where the panel shows floats); the names of those that differ."""
    wrong = []
    for key, name in ODDS_KEYS.items():
        page_value = shown.get(key, "none")
        exact = odds.get(f"{name}_exact")
        if key == "pBust" or shown.get("exactValues") == "true":
            if page_value != (exact if exact is not None else "none"):
                wrong.append(f"{name}: page {page_value}, command {exact}")
        elif (page_value == "none") != (odds[name] is None) or (
                odds[name] is not None and abs(float(page_value) - odds[name])
                > 1e-9 * max(1.0, abs(odds[name]))):
            wrong.append(f"{name}: page {page_value}, command {odds[name]}")
    if shown.get("best") != odds["best_action"]:
        wrong.append(f"best action: page {shown.get('best')}, command {odds['best_action']}")
    return wrong


def check_numbers(page, timeout: float = 90.0) -> dict | None:
    """Wait until every number of the panel equals the page's own "check it yourself" command
    run through the CLI; ``None`` when the panel shows no decision (a bot to move, game over)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = shown_numbers(page)
        if shown.get("best", "none") == "none":
            return None
        flags = json.loads(shown["flags"])
        # Fractions where the page shows fractions (the next card's chance always is one);
        # where it shows decimals, the command's decimals, without seconds of fractions.
        odds = cli_odds(shown["game"], flags, json.loads(shown["options"]),
                        objective=shown.get("command_objective", "points"),
                        exact=shown.get("exactValues") == "true")
        if shown.get("objective") == "win":  # the coach aims at winning the game
            wrong = ([] if odds.get("objective") == "win" else ["the command is not --objective"
                                                                " win"])
            if shown.get("best") != odds["best_action"]:
                wrong.append(f"best action: page {shown.get('best')}, command "
                             f"{odds['best_action']}")
        else:
            wrong = numbers_disagree(shown, odds)
        if not wrong:
            return {**shown, "flags": flags}
        if time.monotonic() > deadline:
            raise AssertionError(f"{shown['game']} {flags}: {wrong}")
        page.wait_for_timeout(500)


def shown_numbers(page, timeout: float = 60.0) -> dict:
    """The panel's numbers and the page's command, once they have stopped changing."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        now = page.evaluate(READ_NUMBERS)
        if now is not None and now == last:
            return now
        last = now
        page.wait_for_timeout(400)
    raise AssertionError(f"the page's numbers did not settle: {last}")


def click_and_wait(page, locator) -> bool:
    """Click, then wait for the page's own state (its numbers hook, its command line, the
    table's text) to change; False when nothing changed within a minute."""
    before = page.evaluate(f"() => JSON.stringify(({READ_NUMBERS})()) + "
                           "document.querySelector('.pushluck-table').innerText")
    locator.click()
    try:
        page.wait_for_function(
            f"(before) => JSON.stringify(({READ_NUMBERS})()) + "
            "document.querySelector('.pushluck-table').innerText !== before",
            arg=before, timeout=60_000)
    except Exception:  # noqa: BLE001 - reported by the caller
        return False
    return True


def enabled(page, css: str):
    found = page.locator(f"{css}:not([disabled])")
    return found.first if found.count() else None


#: The actions each Play page goes through: draws, a Bank/Stop (bots then move), the coach
#: switched to "after you decide" and back, a rule option changed through the options panel
#: (refused once with Cancel, then applied: a new game under the new rules), New game, and
#: draws in the new game.
SCRIPT = ("draw", "draw", "stop", "draw", "draw", "coach:after", "draw", "coach:always",
          "option", "draw", "draw", "new-game", "draw", "draw", "stop")

#: The option each page changes mid-game (name, new value); a yes/no option is switched.
#: Pig and Captain Seven keep their whole-game solution (the gauge) under the new target.
OPTION_CHANGES = {"Play_Pig.ipynb": ("target", "50"),
                  "Play_Captain_Seven.ipynb": ("target", "75")}
OPTION_READ = """(name) => {
  const cli = document.querySelector('.pushluck-cli');
  return cli ? JSON.parse(cli.dataset.options || '{}')[name] : undefined;
}"""


def option_widget(page, name: str):
    """The input of rule option ``name``: the options panel's row that starts with the
    option's label (the game's own ``option_info``)."""
    from pushluck_teach.games import get_game

    game = page.evaluate("() => document.querySelector('.pushluck-cli').dataset.game")
    label = get_game(game).variant_cls.option_info(name).label
    row = page.locator(".pushluck-option").filter(has_text=label)
    return row.locator("input").first


def turn_option_on(page, name: str) -> None:
    """Yes/no rule option ``name`` on through the options panel (a game in progress gives way
    to a new one under the new rules: Apply); returns once the page's command carries it."""
    page.get_by_text("Rule options", exact=True).first.click()
    option_widget(page, name).click()
    apply = page.get_by_role("button", name="Apply: start a new game")
    page.wait_for_timeout(1000)
    if apply.is_visible():
        apply.click()
    page.wait_for_function(
        "(name) => ((document.querySelector('.pushluck-cli') || {dataset: {}}).dataset.options"
        " || '').includes(name)", arg=name, timeout=60_000)


def first_yes_no_option(page) -> str:
    """The name of the page's game's first yes/no option."""
    from pushluck_teach.games import get_game

    game = page.evaluate("() => document.querySelector('.pushluck-cli').dataset.game")
    options = get_game(game).variant_cls().options()
    return next(name for name, value in options.items() if isinstance(value, bool))


def change_option(page, name: str, value: str | None) -> None:
    """Set option ``name`` in the page (``None``: switch a yes/no option)."""
    widget = option_widget(page, name)
    if value is None:
        widget.click()
    else:
        widget.fill(value)
        widget.press("Enter")


def change_option_with_confirmation(page, notebook: str) -> str:
    """Change a rule option through the page's options panel while a game is on: the page asks
    first; Cancel keeps the game and its rules, Apply starts a new game under the new rules
    (the page's command then carries the option).  Returns a description for the log."""
    page.get_by_text("Rule options", exact=True).first.click()
    name, value = OPTION_CHANGES.get(notebook, (None, None))
    name = name or first_yes_no_option(page)
    try:
        option_widget(page, name).wait_for(state="visible", timeout=30_000)
    except Exception as exc:  # noqa: BLE001 - say what the panel holds
        rows = page.evaluate("() => Array.from(document.querySelectorAll('.pushluck-option'))"
                             ".map(r => [r.innerText.slice(0, 60), r.offsetParent !== null])")
        raise AssertionError(f"{notebook}: option {name} not found; rows: {rows[:6]}") from exc
    confirm = page.locator(".pushluck-option-confirm")
    before = page.evaluate(OPTION_READ, name)
    position_before = shown_numbers(page)["flags"]
    change_option(page, name, value)
    confirm.wait_for(state="visible", timeout=30_000)
    page.get_by_role("button", name="Cancel: keep this game").click()
    confirm.wait_for(state="hidden", timeout=30_000)
    page.wait_for_timeout(500)
    assert page.evaluate(OPTION_READ, name) == before, f"{notebook}: Cancel changed {name}"
    assert shown_numbers(page)["flags"] == position_before, f"{notebook}: Cancel ended the game"
    change_option(page, name, value)
    confirm.wait_for(state="visible", timeout=30_000)
    page.get_by_role("button", name="Apply: start a new game").click()
    page.wait_for_function(f"(name) => ({OPTION_READ})(name) !== undefined && "
                           f"({OPTION_READ})(name) !== {json.dumps(before)}",
                           arg=name, timeout=60_000)
    return f"{name}={page.evaluate(OPTION_READ, name)}"


def cli_win_chances(game: str, flags: dict[str, str], options: dict[str, str]) -> dict:
    """``pushluck odds GAME ... --objective win --json``: the chance to win after each action."""
    return cli_odds(game, flags, options, objective="win")


def cli_solve(game: str, options: dict[str, str]) -> float:
    """``pushluck solve GAME --json``: the first player's chance under optimal play."""
    args = ["solve", game, "--json"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    done = pushluck_once(*args)
    assert done.status == 0, f"{' '.join(args)}: {done.stderr.strip()}"
    return json.loads(done.stdout)["p_win_first"]


GAUGE_READ = """() => {
  const g = document.querySelector('.pushluck-win-gauge[role=meter]');
  return g ? g.getAttribute('aria-valuenow') : null;
}"""


def expected_gauge(checked: dict) -> float:
    """The chance to win under optimal play from a checked position, by the command line: the
    better of ``pushluck odds ... --objective win``'s chances after each action (and, at 0-0
    before any card, ``pushluck solve``'s first-player chance, which must agree)."""
    flags = checked["flags"]
    options = json.loads(checked["options"])
    chances = cli_win_chances(checked["game"], flags, options)
    expected = max(p for p in (chances["p_win_draw"], chances["p_win_stop"]) if p is not None)
    if not flags.get("drawn") and int(flags.get("score", 0)) == int(flags.get("opponent", 0)) == 0:
        assert cli_solve(checked["game"], options) == pytest.approx(expected, abs=1e-9)
    return expected


def check_gauge(page, checked: dict, timeout: float = 90.0) -> float:
    """Wait until the win gauge shows (a percentage to one decimal) the command line's chance to
    win from the position the page shows.  When the page moves on meanwhile (bots play, a new
    game starts), the position it shows now is checked again and the gauge held to that one."""
    deadline = time.monotonic() + timeout
    expected = expected_gauge(checked)
    while True:
        shown = page.evaluate(GAUGE_READ)
        if shown is not None and abs(float(shown) - 100 * expected) <= 0.05 + 1e-9:
            return expected
        now = check_numbers(page)
        if now is not None and (now["flags"], now["options"]) != (checked["flags"],
                                                                   checked["options"]):
            checked, expected = now, expected_gauge(now)
            continue
        if time.monotonic() > deadline:
            label = page.evaluate("() => (document.querySelector('.pushluck-win-chance') "
                                  "|| {}).innerText")
            table = page.inner_text(".pushluck-table")
            raise AssertionError(f"{checked['game']} {checked['flags']}: the gauge shows "
                                 f"{shown}%, the command says {100 * expected:.3f}% ({label!r};"
                                 f" table: {table[:400]!r})")
        page.wait_for_timeout(500)


# ---- what a student sees at the opening, against hand counts and solvers of the tests' own -----

CHARTS_SHOWN = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(d => ({
  title: (d.layout && d.layout.title && d.layout.title.text) || '',
  traces: (d.data || []).map(t => ({name: t.name || '', x: Array.from(t.x || []),
                                    y: Array.from(t.y || []), text: t.text}))}))"""


def _same_each(labels: list[str], chance: Fraction) -> dict[str, Fraction]:
    return dict.fromkeys(labels, chance)


#: The next-draw chart at a turn's opening (nothing drawn), counted by hand from docs/rules.md:
#: each bar's label and chance (its bar text is the fraction).  Busting bars are named.
OPENING_NEXT_DRAW: dict[str, tuple[dict[str, Fraction], set[str]]] = {
    "Play_Pig.ipynb": (_same_each(["1 (bust)", "2", "3", "4", "5", "6"], Fraction(1, 6)),
                       {"1 (bust)"}),
    # 54 cards: four of each of A-9 (a first 7 does not catch), 16 tens and faces, 2 jokers
    "Play_Captain_Seven.ipynb": ({**_same_each([*"A23456789"], Fraction(4, 54)),
                                  "10/J/Q/K": Fraction(16, 54), "joker": Fraction(2, 54)},
                                 set()),
    "Play_Hit_List.ipynb": ({**_same_each([*"A23456789", "10"], Fraction(4, 52)),
                             "J/Q/K": Fraction(12, 52)}, set()),
    "Play_Lands_Uncharted.ipynb": ({"A (ally)": Fraction(4, 52),
                                    **_same_each([str(r) for r in range(2, 11)], Fraction(4, 52)),
                                    "J/K/Q (threat)": Fraction(12, 52)}, set()),
    # round 1: 13 traps (the first of each kind is safe), two of each treasure 1-15 gems split
    # between two explorers, the round's artifact worth 4: 30 cards
    "Play_Incan_Gold.ipynb": ({"treasure 1 gem (+0 each)": Fraction(2, 30),
                               **{f"treasure {v} gems (+{v // 2} each)": Fraction(2, 30)
                                  for v in range(3, 16, 2)},
                               "artifact worth 4": Fraction(1, 30),
                               "safe trap": Fraction(13, 30)}, set()),
}


def opening_choice_reference(notebook: str) -> tuple[dict[str, float], list[str]]:
    """The value-of-the-choice bars at the opening (label: value) and texts the headline must
    show, by the tests' own solvers (no import of the package): Pig's chance to win by value
    iteration (``pig_by_hand``), Hit List's optimal turn (``lessons_reference``), Lands
    Uncharted's draw-once value by hand (36 numbers bank their rank, 54 x 4 / 52)."""
    if notebook == "Play_Pig.ipynb":
        import pig_by_hand

        chance = 100 * float(pig_by_hand.optimal()[0][0, 0])
        return ({"Roll,<br>then play to win": chance},
                ["Chance that the next draw busts: 1/6", f"{chance:.1f} %"])
    if notebook == "Play_Hit_List.ipynb":
        import lessons_reference

        value = float(lessons_reference.hit_list_turn([])[0])
        return ({"optimal play": value},
                ["next draw busts: 0 (impossible)",
                 f"Expected result of the turn with optimal play: {value:.3f}"])
    if notebook == "Play_Lands_Uncharted.ipynb":
        return ({"Draw once,<br>then stop": 54 * 4 / 52},
                ["next draw busts: 0 (impossible)"])
    return {}, ["next draw busts: 0 (impossible)"]


def shown_charts(page) -> dict[str, list[dict]]:
    """Each chart's traces by the start of its title (before a colon)."""
    return {chart["title"].split(":")[0]: chart["traces"] for chart in page.evaluate(CHARTS_SHOWN)}


def check_opening_as_a_student_sees_it(page, notebook: str, timeout: float = 120.0) -> None:
    """The page's visible headline and chart bars at the turn's opening against the references
    above (waiting while the page still computes)."""
    bars, busting = OPENING_NEXT_DRAW[notebook]
    choices, headline_texts = opening_choice_reference(notebook)
    deadline = time.monotonic() + timeout
    while True:
        problems: list[str] = []
        charts = shown_charts(page)
        next_draw = charts.get("Next draw", [])
        shown = {label: (y, text, trace["name"]) for trace in next_draw
                 for label, y, text in zip(trace["x"], trace["y"], trace["text"] or [],
                                           strict=False)}
        if set(shown) != set(bars):
            problems.append(f"next-draw bars {sorted(shown)}, by hand {sorted(bars)}")
        for label, chance in bars.items():
            y, text, name = shown.get(label, (None, None, None))
            if y is None or abs(y - float(chance)) > 1e-12 or text != str(chance):
                problems.append(f"next draw {label!r}: page {y} ({text}), by hand {chance}")
            elif (name == "bust") != (label in busting):
                problems.append(f"next draw {label!r} drawn as {name}")
        choice = {label: y for trace in charts.get("Value of the choice",
                                                   charts.get("Chance to win (%)", []))
                  for label, y in zip(trace["x"], trace["y"], strict=False)}
        for label, value in choices.items():
            if label not in choice or abs(choice[label] - value) > 1e-9 * max(1, abs(value)):
                problems.append(f"choice {label!r}: page {choice.get(label)}, reference {value}")
        headline = page.locator(".pushluck-headline").first.inner_text()
        problems += [f"the headline does not say {text!r}: {headline!r}"
                     for text in headline_texts if text not in headline]
        if not problems:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{notebook} at the opening: {problems[:4]}")
        page.wait_for_timeout(500)


def play_and_check_numbers(page, notebook: str) -> None:
    """A draw/stop Play page from its opening, played as a student would (:data:`SCRIPT`:
    draws, stops, the coach's modes, a rule option changed, a new game): the opening's
    headline and chart bars against the references above, then after every action the panel's
    numbers against ``pushluck odds`` for the position the page states, and (Pig, Captain
    Seven) the win gauge against the command's chance to win.  ``tests/test_browser_pages.py``
    runs it in its one visit of each Play page."""
    page.wait_for_selector(".pushluck-table .pushluck-action", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".pushluck-numbers-hook", state="attached", timeout=PAGE_TIMEOUT_MS)
    check_opening_as_a_student_sees_it(page, notebook)
    checked = [check_numbers(page)]
    # The charts fill in once the opening position's numbers are shown (asserted just below).
    with contextlib.suppress(Exception):
        page.wait_for_function(f"() => ({CHARTS_WITH_DATA})() > 0", timeout=60_000)
    assert page.evaluate(CHARTS_WITH_DATA) > 0, f"{notebook}: the charts are empty on opening"
    done: list[str] = []
    after_option: list[dict | None] = []
    gauges: list[float] = []
    coach = "always"
    for step in SCRIPT:
        if step == "draw":
            target = (enabled(page, ".pushluck-table .pushluck-action-draw")
                      or enabled(page, ".pushluck-table .pushluck-action"))
        elif step == "stop":
            target = enabled(page, ".pushluck-table .pushluck-action-stop")
        elif step.startswith("coach:"):
            label = {"after": "After you decide", "always": "Always"}[step.split(":")[1]]
            target = page.locator(".pushluck-coach button", has_text=label).first
        elif step == "option":
            changed = change_option_with_confirmation(page, notebook)
            done.append(f"option {changed}")
            checked.append(check_numbers(page))
            after_option.append(checked[-1])
            continue
        else:
            target = page.locator(".pushluck-new-game").first
        if target is None:
            continue
        if click_and_wait(page, target):
            done.append(step)
        if not step.startswith("coach:"):
            checked.append(check_numbers(page))
            if after_option and step == "draw" and "new-game" not in done:
                after_option.append(checked[-1])
        if step.startswith("coach:"):
            coach = step.split(":")[1]
        # the gauge shows while the coach shows (always), for the position the panel shows
        if notebook in GAUGE_PAGES and coach == "always":
            now = checked[-1] if not step.startswith("coach:") else check_numbers(page)
            if now is not None and now.get("command_objective") == "win":
                gauges.append(check_gauge(page, now))
    positions = [c for c in checked if c is not None]
    assert {"draw", "new-game"} <= set(done), f"{notebook}: actions taken {done}"
    assert any(d.startswith("option ") for d in done), f"{notebook}: actions taken {done}"
    # positions under the changed rule, checked against the command (which carries it)
    assert [c for c in after_option if c is not None and c["options"] != "{}"], (
        f"{notebook}: no position checked under the changed option")
    assert len(positions) >= 4, f"{notebook}: only {len(positions)} positions checked"
    assert any(c["flags"].get("drawn") for c in positions), (
        f"{notebook}: never a position with cards")
    if notebook in GAUGE_PAGES:  # the exact whole-game "chance to win from here" gauge
        assert len(gauges) >= 3, f"{notebook}: the gauge was checked {len(gauges)} times"


# Every Play page's numbers (play_and_check_numbers) and every lesson page's own rendering
# (charts with data, no console error, no widget error text), its hidden answers, its numbers
# (Lesson 1's count among them) and the plotly bundle Lesson 6 loads, with every page's layout,
# projector fit and accessibility, are checked by test_browser_pages.py (with lesson_checks.py),
# in one visit per page.
