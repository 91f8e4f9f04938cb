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
* the pool refills ``fill_delay`` seconds after a hand-out (the page's own cells run first), and
  a pooled kernel that dies is replaced.

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
from collections import deque
from dataclasses import dataclass

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Integer, Unicode

# An AF_UNIX socket path is limited to 108 bytes on Linux and 104 on macOS; jupyter_client adds
# "-<n>" to the kernel's IPC prefix.  Keep a margin.
IPC_PATH_LIMIT = 96
# How often a full pool checks that its kernels are still alive (seconds).
HEALTH_CHECK_PERIOD = 5.0

DEFAULT_WARMUP = """\
def _pushluck_warm_up():
    import importlib
    for name in ("ipywidgets", "plotly.graph_objects", "pushluck_teach.ui",
                 "pushluck_teach.ui.lessons"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
_pushluck_warm_up()
del _pushluck_warm_up
"""


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
        2.0,
        config=True,
        help="Seconds to wait after a kernel is handed out before warming its replacement.",
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
        if self.pool_size > 0:
            try:
                loop = asyncio.get_event_loop()
            except RuntimeError:
                loop = asyncio.new_event_loop()
                asyncio.set_event_loop(loop)
            self._fill_task = loop.create_task(self._keep_pool_filled())

    # ------------------------------------------------------------------ status

    def pool_status(self) -> PoolStatus:
        """Counts of ready and warming pool kernels, kernels served and dead ones replaced."""
        return PoolStatus(len(self._ready), len(self._warming), self._served, self._replaced)

    def is_pooled(self, kernel_id: str) -> bool:
        """True while ``kernel_id`` sits in the pool (ready or warming up)."""
        return kernel_id in self._ready or kernel_id in self._warming

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
                self.get_kernel(kernel_id).last_activity = utcnow()
                self._served += 1
                self.log.info("Serving warm pool kernel %s", kernel_id)
                self._refill.set()
                return kernel_id
            self._replaced += 1
            self.log.warning("Pool kernel %s died while waiting; discarding it", kernel_id)
            await self._discard(kernel_id)
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
                    await asyncio.sleep(self.fill_delay)  # the page's own cells run first
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
                path="", kernel_name=self._pool_kernel_name()
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
        if self._short_ipc_dir is not None:
            shutil.rmtree(self._short_ipc_dir, ignore_errors=True)
