"""The app's kernel manager: a small pool of warm kernels that never serves a dead or culled one.

Voilà (configured in ``voila.json``) asks this manager for a kernel each time a page opens.
Voilà's own pre-heated pool keeps one pre-rendered kernel *per notebook*: twelve kernels started
at the same moment on a two-core machine, a kernel that sat in the pool past the idle-cull
timeout is culled seconds after it is handed to a page (the page then hangs), and a kernel that
died in the pool is still handed out.  This manager replaces it (``preheat_kernel`` is off):

* ``pool_size`` kernels (any page may take one) are started **one at a time**, each waited on
  until it answers and has imported the app's modules (``warmup_code``), so a page only runs its
  own cells;
* a page's request takes a pooled kernel only after checking that its process is alive, and
  marks it active at that moment, so the idle culler counts from the hand-out, never from the
  warm-up; pooled kernels are never culled;
* the pool refills once the pages' kernels have been quiet for ``fill_delay`` seconds (no
  hand-out, no message to or from a page's kernel; at most ``QUIET_WAIT_LIMIT`` after the last
  hand-out): the page being opened, and every page of a burst of openings, gets the CPU first;
  a pooled kernel that dies is replaced;
* the server serves the package's plotly bundle (plotly.js with only the trace types the
  pages draw, ``pushluck_teach/ui/static/``) as a file (``PLOTLY_BUNDLE_PATH`` under Voilà's
  ``/voila/labextensions/``) and tells every kernel it starts where
  (``$PUSHLUCK_PLOTLY_BUNDLE_URL``): the page's template preloads the bundle while the server
  runs the notebook, and the figures' widget state carries only its URL (see
  :mod:`pushluck_teach.ui.figures`).

Kernels talk to the server over IPC (Unix sockets in Voilà's private connection directory:
``KernelManager.transport = "ipc"`` in ``voila.json``), so no two kernels can race for a TCP
port.  This module imports nothing from the rest of the package: it runs in the Voilà server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.ioloop import IOLoop
from traitlets import Bool, Float, Integer, TraitError, Unicode

# An AF_UNIX socket path is limited to 108 bytes on Linux and 104 on macOS; jupyter_client adds
# "-<n>" to the kernel's IPC prefix.  Keep a margin.
IPC_PATH_LIMIT = 96
# How often a full pool checks that its kernels are still alive (seconds).
HEALTH_CHECK_PERIOD = 5.0
# The longest the refill waits for the pages' kernels to fall quiet after a hand-out (seconds).
QUIET_WAIT_LIMIT = 30.0

#: The environment variable that tells a kernel the URL at which the server serves the plotly
#: bundle (read by ``pushluck_teach.ui.figures``; this module imports nothing of the
#: package, so the name is written in both places and a test checks they agree).
BUNDLE_URL_ENV = "PUSHLUCK_PLOTLY_BUNDLE_URL"
#: Where the bundle is served, under Voilà's ``/voila/labextensions/`` (the page template
#: ``share/jupyter/voila/templates/pushluck`` preloads the same path).
PLOTLY_BUNDLE_PATH = "pushluck-plotly/plotly-pushluck.min.js"

# What a page's first cell would otherwise do for the first time (measured in a pool kernel,
# benchmarks/bench_ui_kernel.py --page): import the modules the pages import lazily (the
# whole-game solvers pull in scipy.sparse, ~0.5 s) and build one Plotly figure widget (Plotly
# builds and caches its "plotly_white" template and loads its validators, ~0.3 s).  About
# 50 MB more per kernel; no game table is built, so no solver cache is filled.
DEFAULT_WARMUP = """\
def _pushluck_warm_up():
    import importlib
    for name in ("ipywidgets", "plotly.graph_objects", "pushluck_teach.ui",
                 "pushluck_teach.ui.lessons", "pushluck_teach.ui.card_table",
                 "pushluck_teach.ui.gauge", "pushluck_teach.ui.whole_game"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    try:
        from pushluck_teach.solve.whole_game import solver_modules
        for module in solver_modules().values():
            importlib.import_module(module)
        from pushluck_teach.ui.figures import base_layout, live_figure
        live_figure([], base_layout("warm-up"), carry_bundle=False).close()
    except ImportError:
        pass
_pushluck_warm_up()
del _pushluck_warm_up
"""


def plotly_bundle_file() -> Path | None:
    """The package's plotly bundle (``pushluck_teach/ui/static/plotly-pushluck.min.js``, built by
    ``scripts/build_plotly_bundle.sh``); None when it is missing."""
    bundle = Path(__file__).parent / "ui" / "static" / Path(PLOTLY_BUNDLE_PATH).name
    return bundle if bundle.is_file() else None


@dataclass(frozen=True)
class PoolStatus:
    """What the pool holds right now (for logs and tests)."""

    ready: int
    warming: int
    served: int
    replaced: int


class WarmKernelPool(AsyncMappingKernelManager):
    """Voilà's multi-kernel manager with a staggered, checked pool of warm kernels."""

    pool_size = Integer(
        2,
        config=True,
        help="Warm kernels kept ready for the next page (any page). 0 disables the pool.",
    )
    fill_delay = Float(
        5.0,
        config=True,
        help="Seconds without a hand-out or any page-kernel message before the pool warms "
        "replacements (a page, or a burst of pages, opens without a warming kernel taking the "
        "CPU).",
    )
    serve_plotly_bundle = Bool(
        True,
        config=True,
        help="Serve the package's plotly bundle under /voila/labextensions/ and tell kernels "
        "its URL, so pages load it as a file instead of through the widgets' state.",
    )
    warmup_timeout = Float(
        180.0, config=True, help="Seconds a pool kernel may take to start and warm up."
    )
    warmup_code = Unicode(
        DEFAULT_WARMUP,
        config=True,
        help="Code run (silently, no history) in each pool kernel before it is handed out.",
    )
    pool_kernel_name = Unicode(
        "", config=True, help="Kernel spec of pool kernels (default: the default kernel)."
    )
    malloc_arena_max = Integer(
        2,
        config=True,
        help="MALLOC_ARENA_MAX for every kernel this manager starts (glibc; 0: leave it to the "
        "environment).  A page's solves run in a worker thread, and glibc gives each thread "
        "its own heap arena that keeps what a large solve freed: with 2 arenas a kernel that "
        "has played every game holds about 180 MB less (benchmarks/bench_kernel_rss.py).",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._ready: deque[str] = deque()
        self._warming: set[str] = set()
        self._served = 0
        self._replaced = 0
        self._closing = False
        self._refill = asyncio.Event()
        self._fill_task: asyncio.Task | None = None
        self._short_ipc_dir: str | None = None
        self._last_hand_out = 0.0
        self._bundle_dir: str | None = None
        self._bundle_url = self._serve_plotly_bundle() if self.serve_plotly_bundle else ""
        if self.pool_size > 0:
            # Voilà builds its kernel manager before it starts its event loop: the fill starts
            # as one of that loop's first callbacks, on the loop that serves the pages.
            IOLoop.current().add_callback(self._start_filling)

    def _start_filling(self) -> None:
        """Start the task that keeps the pool filled (on the running loop; once)."""
        if self._fill_task is None and not self._closing:
            self._fill_task = asyncio.get_running_loop().create_task(self._keep_pool_filled())

    # ------------------------------------------------------------------ status

    def pool_status(self) -> PoolStatus:
        """Counts of ready and warming pool kernels, kernels served and dead ones replaced."""
        return PoolStatus(len(self._ready), len(self._warming), self._served, self._replaced)

    def is_pooled(self, kernel_id: str) -> bool:
        """True while ``kernel_id`` sits in the pool (ready or warming up)."""
        return kernel_id in self._ready or kernel_id in self._warming

    @property
    def plotly_bundle_url(self) -> str:
        """The URL path at which the server serves the plotly bundle ("" when it does not)."""
        return self._bundle_url

    # ------------------------------------------------------------ plotly bundle

    def _serve_plotly_bundle(self) -> str:
        """Put the plotly bundle where Voilà's labextension handler serves it; its URL.

        The handler serves files from every labextension path; a private directory holding
        ``PLOTLY_BUNDLE_PATH`` (a copy of the package's file: tornado refuses a symbolic link
        that leads out of the served directory) is added to Voilà's
        ``extra_labextensions_path`` before Voilà builds its handlers (it creates this manager
        first).  Outside a Voilà app, or without the bundle, nothing is served ("")."""
        configuration = getattr(self.parent, "voila_configuration", None)
        bundle = plotly_bundle_file()
        if configuration is None or bundle is None:
            return ""
        directory = tempfile.mkdtemp(prefix="pushluck-plotly-")
        target = Path(directory, PLOTLY_BUNDLE_PATH)
        target.parent.mkdir(parents=True)
        shutil.copyfile(bundle, target)
        self._bundle_dir = directory
        configuration.extra_labextensions_path = [
            *configuration.extra_labextensions_path, directory]
        base = getattr(self.parent, "server_url", None) or getattr(self.parent, "base_url", "/")
        url = base.rstrip("/") + "/voila/labextensions/" + PLOTLY_BUNDLE_PATH
        self.log.info("Serving the plotly bundle at %s", url)
        return url

    def _kernel_env(self, kwargs: dict) -> dict:
        """A new kernel's start arguments with its environment completed: the bundle's URL
        (when the bundle is served) and the heap-arena cap (``malloc_arena_max``; a value the
        server's own environment sets wins)."""
        extra = {}
        if self._bundle_url:
            extra[BUNDLE_URL_ENV] = self._bundle_url
        env = kwargs.get("env")
        env = os.environ if env is None else env
        if self.malloc_arena_max > 0 and "MALLOC_ARENA_MAX" not in env:
            extra["MALLOC_ARENA_MAX"] = str(self.malloc_arena_max)
        if extra:
            kwargs["env"] = {**env, **extra}
        return kwargs

    # ---------------------------------------------------------- kernel start

    def pre_start_kernel(self, kernel_name, kwargs):
        """Create the kernel's manager; keep its IPC socket paths short enough for the OS."""
        km, kernel_name, kernel_id = super().pre_start_kernel(kernel_name, kwargs)
        if km.transport == "ipc":
            if sys.platform == "win32":  # no Unix sockets: fall back to loopback TCP
                km.transport = "tcp"
            elif len(km.ip) > IPC_PATH_LIMIT:
                if self._short_ipc_dir is None:
                    self._short_ipc_dir = tempfile.mkdtemp(prefix="pushluck-", dir="/tmp")
                km.ip = os.path.join(self._short_ipc_dir, kernel_id)
        return km, kernel_name, kernel_id

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs):
        """A kernel for a page: a live pooled one when it fits the request, else a new one."""
        if kernel_id is None and self._fits_pool(path, kwargs.get("kernel_name")):
            pooled = await self._take_live_pooled_kernel()
            if pooled is not None:
                return pooled
        if kernel_id is None:  # a new kernel (an existing id is only looked up)
            kwargs = self._kernel_env(kwargs)
        return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)

    def _pool_kernel_name(self) -> str:
        return self.pool_kernel_name or self.default_kernel_name

    def _fits_pool(self, path, kernel_name) -> bool:
        same_dir = path in (None, "") or os.path.normpath(
            self.cwd_for_path(path)
        ) == os.path.normpath(self.root_dir)
        return same_dir and (kernel_name or self.default_kernel_name) == self._pool_kernel_name()

    async def _take_live_pooled_kernel(self) -> str | None:
        """Pop ready kernels until a live one is found; mark it active now; refill."""
        while self._ready:
            kernel_id = self._ready.popleft()
            if kernel_id in self and await self._is_alive(kernel_id):
                # The idle culler measures from last_activity: count from the hand-out.
                self.get_kernel(kernel_id).last_activity = _utc_now()
                self._last_hand_out = time.monotonic()
                self._served += 1
                self.log.info("Serving warm pool kernel %s", kernel_id)
                self._refill.set()
                return kernel_id
            self._replaced += 1
            self.log.warning("Pool kernel %s died while waiting; discarding it", kernel_id)
            await self._discard(kernel_id)
        self._last_hand_out = time.monotonic()
        self._refill.set()
        return None

    async def _is_alive(self, kernel_id: str) -> bool:
        try:
            return bool(await self.get_kernel(kernel_id).is_alive())
        except Exception:  # a kernel being torn down
            return False

    async def _discard(self, kernel_id: str) -> None:
        if kernel_id in self:
            try:
                await self.shutdown_kernel(kernel_id, now=True)
            except Exception as error:  # already gone: nothing to clean
                self.log.debug("Discarding kernel %s: %s", kernel_id, error)

    # ------------------------------------------------------------- the pool

    async def _keep_pool_filled(self) -> None:
        """Warm kernels one at a time until the pool is full; wait for a hand-out; repeat."""
        failures = 0
        while not self._closing:
            try:
                await self._drop_dead_pooled_kernels()
                if len(self._ready) >= self.pool_size:
                    self._refill.clear()
                    try:  # wake on a hand-out, or every few seconds to check the pool's health
                        await asyncio.wait_for(self._refill.wait(), timeout=HEALTH_CHECK_PERIOD)
                    except TimeoutError:
                        continue
                await self._wait_for_quiet()
                if len(self._ready) >= self.pool_size:
                    continue
                if await self._warm_one():
                    failures = 0
                    continue
            except asyncio.CancelledError:
                raise
            except Exception:  # the pool must outlive any one failure
                self.log.exception("Warm pool: unexpected error; carrying on")
            failures += 1
            await asyncio.sleep(min(60.0, 2.0**failures))

    async def _wait_for_quiet(self) -> None:
        """Sleep until the pages' kernels have been quiet for ``fill_delay`` seconds: no
        kernel handed out and no message to or from a page's kernel (a page still opening, or
        a burst of pages, gets the CPU first); at most ``QUIET_WAIT_LIMIT`` seconds after the
        last hand-out, so a class that keeps clicking still gets its pool back."""
        while not self._closing:
            now = time.monotonic()
            if now - self._last_hand_out >= QUIET_WAIT_LIMIT:
                return
            remaining = max(self._last_hand_out, self._last_page_activity()) + self.fill_delay - now
            if remaining <= 0:
                return
            await asyncio.sleep(min(remaining, 1.0))

    def _last_page_activity(self) -> float:
        """The latest activity of any kernel not in the pool, on the ``time.monotonic`` clock
        (0 when there is none)."""
        latest = None
        for kernel_id in self.list_kernel_ids():
            if self.is_pooled(kernel_id):
                continue
            activity = self._activity_of(kernel_id)
            if activity is not None and (latest is None or activity > latest):
                latest = activity
        if latest is None:
            return 0.0
        return time.monotonic() - (_utc_now() - latest).total_seconds()

    def _activity_of(self, kernel_id: str) -> datetime | None:
        """A page kernel's last activity: now while it is still starting (the server sets
        ``last_activity`` only once it has started, and reading it before raises), None once it
        is gone."""
        if kernel_id not in self:  # the server's look-up answers HTTP 404 for it
            return None
        try:
            return self.get_kernel(kernel_id).last_activity
        except TraitError:
            return _utc_now()

    async def _drop_dead_pooled_kernels(self) -> None:
        for kernel_id in list(self._ready):
            if kernel_id not in self or not await self._is_alive(kernel_id):
                if kernel_id not in self._ready:  # a page took it meanwhile (and checked it)
                    continue
                self._ready.remove(kernel_id)
                self._replaced += 1
                self.log.warning("Pool kernel %s died while waiting; replacing it", kernel_id)
                await self._discard(kernel_id)

    async def _warm_one(self) -> bool:
        """Start one kernel, wait until it answers and has run the warm-up; pool it."""
        kernel_id = None
        try:
            kernel_id = await super().start_kernel(
                path="", **self._kernel_env({"kernel_name": self._pool_kernel_name()})
            )
            self._warming.add(kernel_id)
            await asyncio.wait_for(self._run_warmup(kernel_id), timeout=self.warmup_timeout)
        except Exception as error:
            self.log.warning("Could not warm a pool kernel (%s); retrying", error)
            if kernel_id is not None:
                self._warming.discard(kernel_id)
                await self._discard(kernel_id)
            return False
        self._warming.discard(kernel_id)
        if self._closing:
            await self._discard(kernel_id)
            return False
        self._ready.append(kernel_id)
        self.log.info("Warm pool: %d of %d kernels ready", len(self._ready), self.pool_size)
        return True

    async def _run_warmup(self, kernel_id: str) -> None:
        client = self.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=self.warmup_timeout)
            if self.warmup_code.strip():
                msg_id = client.execute(self.warmup_code, silent=True, store_history=False)
                while True:
                    reply = await client.get_shell_msg(timeout=self.warmup_timeout)
                    if reply["parent_header"].get("msg_id") == msg_id:
                        break
                if reply["content"].get("status") != "ok":
                    raise RuntimeError(f"warm-up failed: {reply['content'].get('ename')}")
        finally:
            client.stop_channels()

    # ---------------------------------------------------------------- culling

    async def cull_kernel_if_idle(self, kernel_id):
        """Never cull a pooled kernel; others as configured (idle time counts from hand-out)."""
        if self.is_pooled(kernel_id):
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    # --------------------------------------------------------------- shutdown

    async def shutdown_all(self, now=False):
        """Stop refilling, then shut every kernel down (pooled ones included)."""
        self._closing = True
        if self._fill_task is not None and not self._fill_task.done():
            self._fill_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._fill_task
        self._ready.clear()
        self._warming.clear()
        await super().shutdown_all(now=now)
        for directory in (self._short_ipc_dir, self._bundle_dir):
            if directory is not None:
                shutil.rmtree(directory, ignore_errors=True)


def _utc_now() -> datetime:
    """Now, timezone-aware in UTC (as the server's ``last_activity`` stamps are)."""
    return datetime.now(UTC)
