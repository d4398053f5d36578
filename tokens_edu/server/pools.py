"""Warm kernels: kernels that have already run a lesson, so its page opens at once.

Voila 0.5 keeps a pool of them per notebook (``voila.voila_kernel_manager``): a list of tasks,
each ``wait_before(delay, start_and_prerender())``, a page taking the first one. What
:func:`kernel_manager` changes, and why:

* **The sizes follow demand** (:class:`~.state.Demand`): today's lesson and the start page get
  warm kernels, a lesson students are opening gets more, a lesson nobody opened keeps one or
  none. Pools below their size are filled; pools above it give back what they do not need
  (:meth:`trim`), so the memory used is what the class uses.
* **One start at a time, most wanted first** (:class:`StartQueue`): Voila starts every warm
  kernel of every notebook at once (301 kernels climbing 1.3 GiB every 30 s on 2 cores); here
  they start ``step`` seconds apart, today's lesson and the start page first.
* **A page takes a ready kernel**: Voila takes the first entry even while it still waits for
  its start; here a page takes a ready one, else one already starting, else starts its own.
* **Memory decides** (:meth:`room`): a kernel starts only when the free memory holds it (at
  the size measured on this computer's kernels, :class:`~.memory.KernelSize`) and the warm
  kernels together stay in their budget (``warm_mib``, 1.5 GiB: a kernel a page took no longer
  counts, so the memory grows with the class, not before it); past that, warm kernels of pages
  less wanted give way (:meth:`make_room`).
* **The kernels' own output** (their warnings and tracebacks, e.g. a kernel stopped while a
  cell runs) goes to a log file, not the teacher's console.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import weakref

from .limits import limit_kernel_memory
from .memory import mem_available_mib
from .state import ServeState, current_page

__all__ = ["StartQueue", "kernel_manager", "is_ready"]

log = logging.getLogger("tokens-edu")


def is_ready(task) -> bool:
    """True for a pool entry whose kernel started and pre-rendered without an error."""
    return task.done() and not task.cancelled() and task.exception() is None


class StartQueue:
    """Warm kernels start one at a time, ``step`` seconds apart, the most wanted first.

    ``voila.voila_kernel_manager.wait_before`` is replaced by :meth:`wait_before`; the kernel
    manager sets :attr:`current` to the notebook whose entries it is making. An entry waits its
    ``delay`` (Voila's refill delay), then its turn: the waiting entry of the lowest
    :meth:`~.state.Demand.rank` goes first, then the oldest.

    Args:
        state: the server's state (its demand ranks, and whether it is stopping).
        step: seconds between two starts while students have pages.
        first_step: the same while nobody has a page yet.
    """

    def __init__(self, state: ServeState, step: float, first_step: float | None = None):
        self.state = state
        self.step = float(step)
        self.first_step = self.step if first_step is None else float(first_step)
        self.current: str | None = None
        self.started: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # task -> loop time
        self._inner: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # coroutine -> its aw
        self._waiting: list[tuple[int, asyncio.Future, str | None]] = []
        self._seq = itertools.count()
        self._next_free = 0.0
        self._timer = None

    def waiting(self) -> int:
        """Entries waiting for their turn."""
        return sum(1 for _, fut, _ in self._waiting if not fut.done())

    def wait_before(self, delay: float, aw):
        """Voila's ``wait_before(delay, aw)``: sleep ``delay``, wait for a turn, then run ``aw``."""
        notebook = self.current

        async def later():
            task = asyncio.current_task()
            try:
                if delay:
                    await asyncio.sleep(delay)
                await self.turn(notebook)
            except BaseException:
                self._inner.pop(task.get_coro(), None)
                if hasattr(aw, "close"):
                    aw.close()  # never started: no "coroutine was never awaited" warning
                raise
            self._inner.pop(task.get_coro(), None)
            self.started[task] = asyncio.get_running_loop().time()
            return await aw

        coro = later()
        self._inner[coro] = aw
        return coro

    def forget(self, task) -> None:
        """A pool entry's done callback: one cancelled before it ever ran closes the coroutine it
        held (else Python warns "coroutine ... was never awaited" on the teacher's console)."""
        aw = self._inner.pop(task.get_coro(), None)
        if aw is not None and hasattr(aw, "close"):
            aw.close()

    async def turn(self, notebook: str | None) -> None:
        """Wait until ``notebook``'s entry may start its kernel (CancelledError when stopping)."""
        if self.state.stopping:
            raise asyncio.CancelledError
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._waiting.append((next(self._seq), fut, notebook))
        self._arm(loop)
        try:
            await fut
        finally:
            if not fut.done():
                fut.cancel()

    def _arm(self, loop) -> None:
        if self._timer is None and self._waiting:
            self._timer = loop.call_at(max(loop.time(), self._next_free), self._release)

    def _release(self) -> None:
        self._timer = None
        self._waiting = [w for w in self._waiting if not w[1].done()]
        if not self._waiting or self.state.stopping:
            for _, fut, _ in self._waiting:
                fut.cancel()
            self._waiting = []
            return
        demand = self.state.demand
        best = min(self._waiting, key=lambda w: (demand.rank(w[2]) if w[2] else 2, w[0]))
        self._waiting.remove(best)
        best[1].set_result(None)
        loop = asyncio.get_event_loop()
        self._next_free = loop.time() + (self.step if self.state.pages else self.first_step)
        self._arm(loop)


def kernel_manager(cls: type, preheat: bool, queue: StartQueue | None, state: ServeState) -> type:
    """A subclass of Voila 0.5's kernel manager ``cls`` for a class of students.

    Always: page kernels are tracked in ``state`` (:meth:`start_kernel` is only called for a
    page's own kernel: Voila's warm pool starts its kernels through the base class), at most
    ``cold_starts`` of them start at once, and the kernels' output goes to ``kernel_log``.

    With warm kernels (``preheat``), see the module's notes. Voila's handler takes a warm
    kernel only when :meth:`get_pool_size` is above 0, else it starts the page's own kernel.

    Args:
        cls: the class ``voila.voila_kernel_manager.voila_kernel_manager_factory`` made.
        preheat: whether warm kernels are on.
        queue: the start queue, whose ``wait_before`` must be the one Voila's pool calls
            (:func:`tokens_edu.server.voila.main` arranges it).
        state: the server's state.
    """
    queue = queue or StartQueue(state, float(state.settings["step"]))

    class TokensKernelManager(cls):
        def __init__(self, **kwargs):
            state.km = self
            self._tokens_output = None
            super().__init__(**kwargs)

        def _output(self) -> dict:
            """What a new kernel's process is started with: ``stdout``/``stderr`` to the
            kernels' log file, when there is one, and its memory limit (``preexec_fn``, see
            :mod:`.limits`)."""
            path = state.settings.get("kernel_log")
            if path and self._tokens_output is None:
                try:
                    self._tokens_output = open(path, "ab", buffering=0)  # noqa: SIM115 (kept open)
                except OSError:
                    self._tokens_output = False
            out = self._tokens_output
            given = {"stdout": out, "stderr": out} if out else {}
            limit = limit_kernel_memory(int(state.settings.get("kernel_data_mib") or 0))
            if limit is not None:
                given["preexec_fn"] = limit
            return given

        # --- page kernels --------------------------------------------------------------
        async def start_kernel(self, *args, **kwargs):
            if state.stopping:
                raise asyncio.CancelledError
            page = current_page()
            if page is not None and not getattr(page, "_tokens_cold", False):
                await state.cold.acquire()  # released when the page is done
                page._tokens_cold = True
            for key, value in self._output().items():
                kwargs.setdefault(key, value)
            kernel_id = await super().start_kernel(*args, **kwargs)
            if page is not None:
                state.add_page_kernel(kernel_id)
            return kernel_id

        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            state.forget(kernel_id)
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)

        def notify_connect(self, kernel_id):
            """A browser connected to ``kernel_id`` (jupyter_server's websocket): its page is
            open, at once (the watch's rounds could miss a connection shorter than a round)."""
            super().notify_connect(kernel_id)
            page = state.pages.get(kernel_id)
            if page is not None:
                page.opened, page.gone_since = True, None

        def notify_disconnect(self, kernel_id):
            """A browser's connection to ``kernel_id`` closed: when it was the last, the page's
            browser went away from now (unless it comes back)."""
            super().notify_disconnect(kernel_id)
            page = state.pages.get(kernel_id)
            if page is not None and not getattr(self, "_kernel_connections", {}).get(kernel_id, 0):
                page.gone_since = asyncio.get_event_loop().time()

        def kernel_pid(self, kernel_id: str) -> int | None:
            """The process id of ``kernel_id``'s kernel, or None."""
            try:
                return getattr(self.get_kernel(kernel_id).provisioner, "pid", None)
            except (KeyError, AttributeError):
                return None

        if not preheat:
            def get_pool_size(self, notebook_name: str) -> int:
                return 0

            def warm_counts(self) -> tuple[int, int]:
                return 0, 0

            def trim(self) -> int:
                return 0

            def make_room(self, count: int, keep: str | None = None) -> int:
                return 0

        else:
            # --- which entries a page may take -----------------------------------------
            def _takeable(self, notebook_name: str) -> list[int]:
                """Indexes of the pool entries a page may take, best first: ready ones, then
                ones already starting (the earliest first); never one still waiting its turn."""
                pool = self._pools.get(notebook_name, [])
                done = [i for i, t in enumerate(pool) if is_ready(t)]
                starting = sorted((queue.started[t], i) for i, t in enumerate(pool)
                                  if not t.done() and t in queue.started)
                return done + [i for _, i in starting]

            def get_pool_size(self, notebook_name: str) -> int:
                return 0 if state.stopping else len(self._takeable(notebook_name))

            async def get_rendered_notebook(self, notebook_name, extra_kernel_env_variables={},
                                            **kwargs):
                pool = self._pools.get(notebook_name, [])
                best = self._takeable(notebook_name)
                if best and best[0]:  # move it to the front, where Voila takes from
                    pool.insert(0, pool.pop(best[0]))
                if pool and is_ready(pool[0]):  # the page's time limit starts now
                    renderer = pool[0].result().get("renderer")
                    if renderer is not None:
                        renderer.requested_at = asyncio.get_event_loop().time()
                result = await super().get_rendered_notebook(
                    notebook_name, extra_kernel_env_variables, **kwargs)
                state.add_page_kernel(result[2], notebook_name)
                return result

            # --- sizes ---------------------------------------------------------------
            def _unstarted(self, pool=None) -> int:
                pools = [pool] if pool is not None else self._pools.values()
                return sum(1 for p in pools for t in p if not t.done() and t not in queue.started)

            def room(self, notebook_name: str, missing: int) -> int:
                """How many of ``missing`` new warm kernels of ``notebook_name`` fit now: in the
                kernel limit, the warm kernels' budget (``warm_mib``) and the free memory (less
                what entries not started yet will take), after warm kernels of pages less wanted
                give way."""
                settings = state.settings
                room = missing
                limit = int(settings["max_kernels"])
                if limit:
                    room = min(room, limit - state.kernels() - state.warm())
                budget = state.warm_budget()
                if budget is not None:
                    room = min(room, budget - state.warm())
                free = mem_available_mib()
                if free is not None:
                    mib = max(1.0, state.kernel_size.mib)
                    by_memory = int((free - float(settings["min_free_mib"])) // mib) - self._unstarted()
                    room = min(room, by_memory)
                if room < missing:
                    room += self.make_room(missing - max(room, 0), keep=notebook_name,
                                           below=state.demand.rank(notebook_name))
                return max(0, min(missing, room))

            def make_room(self, count: int, keep: str | None = None, below: int = -1) -> int:
                """Stop up to ``count`` warm kernels of pages other than ``keep`` whose rank is
                above ``below`` (-1: any page), the least wanted and biggest pool first; entries
                not started yet go first (they cost nothing).

                Returns:
                    int: how many were stopped.
                """
                demand = state.demand
                freed = 0
                while freed < count:
                    order = sorted(((demand.rank(name), len(pool), name)
                                    for name, pool in self._pools.items()
                                    if name != keep and pool and demand.rank(name) > below),
                                   reverse=True)
                    victim = None
                    for _, _, name in order:
                        pool = self._pools[name]
                        waiting = [i for i, t in enumerate(pool) if not t.done() and t not in queue.started]
                        ready = [i for i, t in enumerate(pool) if is_ready(t)]
                        if waiting or ready:
                            victim = (name, (waiting or ready)[-1])
                            break
                    if victim is None:
                        break
                    self._drop(self._pools[victim[0]].pop(victim[1]))
                    freed += 1
                if freed:
                    state.count("gave way", freed)
                return freed

            def _drop(self, task) -> None:
                """Stop a pool entry taken out of its pool: cancel it, or stop its kernel."""
                if task.done():
                    if is_ready(task):
                        content = task.result()
                        if content.get("task") is not None:
                            content["task"].cancel()  # its pre-render waits for a page
                        asyncio.ensure_future(stop_quietly(self, content["kernel_id"]))
                else:
                    task.cancel()

            def trim(self, at_most: int = 10) -> int:
                """Give back warm kernels that pages no longer need: entries still waiting
                beyond their page's size, and ready ones more than 2 beyond it (any, when the
                page needs none). Returns how many were given back."""
                given = 0
                for name, pool in list(self._pools.items()):
                    target = state.demand.target(name)
                    extra = len(pool) - target
                    while extra > 0 and given < at_most:
                        waiting = [i for i, t in enumerate(pool) if not t.done() and t not in queue.started]
                        ready = [i for i, t in enumerate(pool) if is_ready(t)]
                        if waiting:
                            index = waiting[-1]
                        elif ready and (extra > 2 or target == 0):
                            index = ready[-1]
                        else:
                            break
                        self._drop(pool.pop(index))
                        extra -= 1
                        given += 1
                if given:
                    state.count("not needed", given)
                return given

            def _wanted_size(self, notebook_name) -> int:
                return state.demand.target(notebook_name)

            def fill_if_needed(self, delay=None, notebook_name=None,
                               extra_kernel_env_variables={}, **kwargs):
                pool = self._pools.setdefault(notebook_name, [])
                if state.stopping:
                    return None
                delay = self.fill_delay if delay is None else delay
                allowed = self.room(notebook_name, max(0, self._wanted_size(notebook_name) - len(pool)))
                if not allowed:
                    return None
                for key, value in self._output().items():
                    kwargs.setdefault(key, value)
                config = self.kernel_pools_config
                had = notebook_name in config
                old = config.get(notebook_name)
                base = old or config.get("default", {})
                config[notebook_name] = {**base, "pool_size": len(pool) + allowed}
                queue.current = notebook_name
                before = set(pool)
                try:  # Voila makes `allowed` entries, each through queue.wait_before
                    return super().fill_if_needed(delay, notebook_name, extra_kernel_env_variables,
                                                  **kwargs)
                finally:
                    queue.current = None
                    for task in self._pools.get(notebook_name, []):
                        if task not in before:
                            task.add_done_callback(queue.forget)
                    if had:
                        config[notebook_name] = old
                    else:
                        config.pop(notebook_name, None)

            def fill_all(self, delay=None) -> None:
                """Fill every pool below its size (the watch calls this)."""
                names = set(self._pools) | set(state.demand.kinds)
                for name in sorted(names, key=state.demand.rank):
                    if len(self._pools.get(name, [])) < state.demand.target(name):
                        self.fill_if_needed(delay, name)

            def warm_counts(self) -> tuple[int, int]:
                """(warm kernels ready, warm kernels wanted) over every page."""
                ready = sum(1 for pool in self._pools.values() for t in pool if is_ready(t))
                names = set(self._pools) | set(state.demand.kinds)
                wanted = sum(state.demand.target(name) for name in names)
                budget = state.warm_budget()
                return ready, wanted if budget is None else min(wanted, budget)

    TokensKernelManager.__name__ = TokensKernelManager.__qualname__ = cls.__name__
    return TokensKernelManager


async def stop_quietly(km, kernel_id: str, now: bool = True) -> None:
    """Stop ``kernel_id`` if it still runs; a failure is logged (debug), never raised."""
    try:
        if kernel_id in km:
            await km.shutdown_kernel(kernel_id, now=now)
    except Exception:  # noqa: BLE001 (a kernel that is already gone is no problem)
        log.debug("Could not stop kernel %s", kernel_id, exc_info=True)
