"""The Voila server that ``tokens-edu serve`` runs, with the changes a class needs.

This module runs inside the Voila process (``tokens-edu serve`` starts it as a child process and
loads this file by its path, so the server never imports the ``tokens_edu`` package and its card
data). Everything here is a small subclass or a named swap of one Voila 0.5 part, each with the
reason and the upstream issue, so that a Voila upgrade can drop the ones it fixes:

=====================================  =============================================================
Change                                 Why (Voila 0.5.13 behaviour)
=====================================  =============================================================
:class:`PageHandler` sets ``_xsrf``    Pages never set the ``_xsrf`` cookie, so the shutdown call a
                                       page sends when it closes is refused (``403 '_xsrf' argument
                                       missing from POST``, voila-dashboards/voila#1458) and every
                                       reload or closed tab kept its kernel until the culler ran.
:class:`QuerySocketHandler`            ``RequestInfoSocketHandler.on_close`` deletes the *last*
                                       waiter when the closing socket is not registered (two sockets
                                       for one made-up id), so a warm kernel never got its page's
                                       request and the page hung. Also: unknown kernel ids and a
                                       second socket for a waiting kernel are refused.
:class:`GuardedRenderer`               A page whose rendering raised or stalled stayed open forever
                                       (heartbeats, no end). Now every page render has a time limit
                                       after the page is asked for; past it, or on an error, the page
                                       ends with a plain "reload" message and its kernel is stopped.
:class:`PageHandler` cap               No limit on kernels: past ``max_students`` pages (or when the
                                       computer is nearly out of memory) a page gets "The class is
                                       full right now" (HTTP 503) instead of a new kernel.
:func:`kernel_manager`                 Warm kernels: a page takes a *ready* one (Voila 0.5 waits for
                                       the first entry even while it sleeps its refill delay), they
                                       start one at a time, and page kernels are tracked (cap, pages
                                       no browser opened, dead kernels). At the kernel limit or short
                                       of memory, warm kernels of other lessons give way to a
                                       student's page or a lesson's refill (``make_room``).
:func:`local_only`                     The lab template loads Font Awesome from a CDN (the page's
                                       widget bundle already has it): offline that request fails.
                                       Pages never ask another computer for anything.
:class:`TemplateFileHandler`           ``/voila/templates/..%2f..`` raised AssertionError (500).
:class:`TreeHandler`, contents         ``hide_globs`` hides a folder from the list only; its own
                                       address still listed it (``/voila/tree/scenarios``).
:class:`PlainErrors`                   Error pages rendered a Jupyter template that needs a setting
                                       Voila lacks: ~45 traceback lines per bad request. Now one
                                       short log line (the access log) and a short plain page.
contents manager trust                 Every page logged "Notebook ... is not trusted" (trust is a
                                       JupyterLab notion; Voila runs the notebook either way).
:class:`_DropKnownNoise`               jupyter_server asks Tornado 6.5+ for a websocket ping timeout
                                       longer than its interval; Tornado warns once per server.
                                       After a restart, a WARNING per student clearing the old
                                       server's login cookie.
:meth:`TokensVoila.init_settings`      Connection files of a killed server stayed in the temp
                                       folder; each server now has its own folder, and folders of
                                       servers that are gone are removed at start.
:func:`share_template_bytecode`        Each page makes a new exporter, so a new Jinja environment
                                       that parsed and compiled every page template again (a
                                       quarter of the server's time in a class opening a lesson at
                                       once, profiled with py-spy). Compiled templates are now kept
                                       in one in-memory cache (keyed by each template's source).
:data:`HEARTBEAT_S`                    Every warm kernel's client pinged its kernel once a second
                                       from a thread of its own (271 threads waking in the server
                                       for 271 warm kernels); the answer is never read for a kernel
                                       this server started (its process is asked instead).
=====================================  =============================================================

One more Voila workaround lives in the page, in the Discuss box's front end
(``tokens_edu/widgets/static/discuss.js``): Voila's own ``beforeunload`` listener stops the
kernel before the browser asks "leave this page?", so a student who chose to stay had a dead
page. While a box holds unsaved text, that shutdown call and the kernel connection's ``dispose``
are held back until the page really goes (``pagehide``).

The settings come as one JSON object (:data:`DEFAULTS` lists them); see :func:`main`.
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import json
import logging
import os
import re
import shutil
import sys
import time
import weakref
from pathlib import Path

import tornado.web

__all__ = ["main", "DEFAULTS", "StartSchedule", "kernel_manager", "ServeState", "mem_available_mib",
           "share_template_bytecode", "HEARTBEAT_S"]

log = logging.getLogger("tokens-edu")

#: The settings ``tokens-edu serve`` passes (JSON) and their defaults.
DEFAULTS = {
    "step": 3.0,  # seconds between two warm kernels starting (refills, while students work)
    "first_step": 1.5,  # the same when the server starts (nobody is using it yet)
    "lessons": 1,  # lessons with warm kernels (they take turns at start)
    "max_students": 0,  # pages with a kernel at once; 0: no cap
    "max_kernels": 0,  # kernels this computer holds (pages and warm ones); 0: no limit
    "kernel_mib": 90,  # memory one kernel uses (MiB), for refills when memory is short
    "min_free_mib": 300,  # below this much free memory a new page gets "the class is full"
    "hidden": ["scenarios"],  # folders of the lessons folder that are not browsable
    "page_timeout": 90,  # seconds a page may take to render once asked for
    "unopened_timeout": 90,  # a served page's kernel that no browser connected to is stopped after
    "cold_starts": 2,  # pages starting their own kernel at the same time (the others wait)
    "status_every": 60,  # seconds between status lines (only when something changed); 0: never
}

#: What a page shows when the class is full (HTTP 503, ``Retry-After: 60``).
CLASS_FULL_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The class is full right now</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; font-size: 20px; margin: 3em auto; max-width: 34em; line-height: 1.5">
<h1 style="font-size: 26px">The class is full right now</h1>
<p class="tokens-class-full">The class is full right now: wait a minute and reload.</p>
<p style="color: #444">Tell your teacher if this happens again.</p>
</body></html>
"""

#: ``<link>`` and ``<script>`` tags that load from another computer. Voila's lab template asks a
#: CDN for Font Awesome (the page's own widget bundle already carries it): offline, on a school
#: network, that request hangs or fails. They are taken out of every page.
_OUTSIDE = re.compile(r'<(?:link|script)\b[^>]*\b(?:href|src)\s*=\s*"(?:https?:)?//[^"]*"[^>]*>(?:\s*</script>)?',
                      re.IGNORECASE)


def local_only(snippet: str) -> str:
    """``snippet`` (page HTML) without tags that load anything from another computer."""
    return _OUTSIDE.sub("", snippet) if "//" in snippet else snippet


#: Seconds a page asked for at the class cap waits for a kernel to be freed before it is told
#: the class is full (the student's own previous page is usually closing at that moment).
FULL_GRACE_S = 3.0

#: The end of a page whose rendering failed or took too long (its kernel is stopped).
PAGE_FAILED_HTML = (
    '<div class="tokens-page-failed" role="alert" style="font-family: sans-serif; font-size: 18px;'
    ' margin: 1em; padding: 1em; border: 2px solid #8a1c1c; background: #fff4f4">'
    "This lesson did not finish loading. Reload the page to try again.</div>\n"
)

_page = contextvars.ContextVar("tokens_edu_page", default=None)


#: Seconds between two heartbeat pings of a kernel client (``HBChannel.time_to_dead``, 1 s in
#: jupyter_client 8). Clients made by this server's kernel manager ask the manager whether the
#: kernel runs (``KernelClient._async_is_alive``), never the heartbeat, so the pings only cost
#: CPU: a thread per warm kernel waking every second.
HEARTBEAT_S = 30.0


class _TemplateBytecode:
    """A Jinja bytecode cache in memory, shared by every page's exporter (see
    :func:`share_template_bytecode`). Keys hold each template's name and source checksum, so a
    changed template file is compiled again."""

    def __init__(self):
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()


def share_template_bytecode(exporter_class: type) -> None:
    """Make every Jinja environment ``exporter_class`` creates use one shared bytecode cache.

    Voila makes a ``VoilaExporter`` (and with it a Jinja environment) for every page, so each
    page parsed and compiled the lab template's files again. Only compiled code is shared; each
    page keeps its own environment, filters and globals.
    """
    import jinja2

    if getattr(exporter_class, "_tokens_bytecode", None) is not None:
        return
    cache = type("TemplateBytecode", (_TemplateBytecode, jinja2.BytecodeCache), {})()
    create = exporter_class._create_environment

    def _create_environment(self):
        environment = create(self)
        environment.bytecode_cache = cache
        return environment

    exporter_class._create_environment = _create_environment
    exporter_class._tokens_bytecode = cache


def mem_available_mib() -> float | None:
    """The memory the system can still give out, in MiB (Linux ``MemAvailable``; elsewhere the
    free physical pages), or None when it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (ValueError, OSError, AttributeError):
        return None


# --- shared state ---------------------------------------------------------------------------


class ServeState:
    """What the handlers and the kernel manager share: page kernels, the cap, the start queue.

    Attributes:
        settings: the merged settings (see :data:`DEFAULTS`).
        km: the kernel manager, once made.
        pages: page kernel id -> ``{"served": loop time or None, "opened": bool}``.
        waiting: requests that passed the cap check and have no kernel yet.
    """

    def __init__(self, settings: dict):
        self.settings = {**DEFAULTS, **settings}
        self.km = None
        self.pages: dict[str, dict] = {}
        self.waiting: set[int] = set()
        self._cold: asyncio.Semaphore | None = None
        self.full_count = 0
        self._last_status = None
        self._all_ready_said = False

    @property
    def cold(self) -> asyncio.Semaphore:
        if self._cold is None:
            self._cold = asyncio.Semaphore(max(1, int(self.settings["cold_starts"])))
        return self._cold

    def students(self) -> int:
        """Pages that hold a kernel now, plus pages that are getting one."""
        return len(self.pages) + len(self.waiting)

    def warm(self) -> int:
        """Warm kernels (ready, starting or planned) over every lesson."""
        pools = getattr(self.km, "_pools", None) or {}
        return sum(len(pool) for pool in pools.values())

    def is_full(self, notebook: str | None = None) -> str | None:
        """Why a new page of ``notebook`` cannot get a kernel now ("cap" or "memory"), or None.

        When the page will start a kernel of its own and this computer is at its kernel limit
        (or short of memory), warm kernels of other lessons give way first (they are stopped
        to make room: students come before warm kernels).
        """
        cap = int(self.settings["max_students"])
        if cap and self.students() >= cap:
            return "cap"
        km = self.km
        own = not (km is not None and notebook and km.get_pool_size(notebook) > 0)
        limit = int(self.settings["max_kernels"])
        free = mem_available_mib()
        short = free is not None and free < float(self.settings["min_free_mib"])
        over = bool(limit) and self.students() + self.warm() >= limit
        if own and (short or over) and hasattr(km, "make_room"):
            if km.make_room(1, keep=notebook):
                return None
        if short:
            return "memory"
        return None

    def add_page_kernel(self, kernel_id: str) -> None:
        """A page got ``kernel_id`` (a warm one or its own)."""
        self.pages[kernel_id] = {"served": None, "opened": False}
        page = _page.get()
        if page is not None:
            self.waiting.discard(id(page))
            page._tokens_kernel_id = kernel_id

    def forget(self, kernel_id: str) -> None:
        self.pages.pop(kernel_id, None)


STATE = ServeState({})


# --- warm kernels: one at a time, ready ones first --------------------------------------------


class StartSchedule:
    """When each warm kernel may start (event loop time): one every ``step`` seconds.

    ``voila.voila_kernel_manager.wait_before`` is replaced by :meth:`wait_before`, which takes
    the next planned time from :attr:`planned` (set by ``fill_if_needed`` just before Voila
    makes its tasks) and sleeps until then. At start, the lessons take turns (one kernel each a
    round), so every lesson soon has a few warm kernels.
    """

    def __init__(self, step: float, lessons: int, first_step: float | None = None):
        self.step = step
        self.first_step = step if first_step is None else first_step
        self.lessons = max(1, lessons)
        self.next_free = 0.0
        self.first_fills = 0  # lessons whose pools were filled at start (they take turns)
        self.planned: list[float] = []

    def plan(self, now: float, delay: float, count: int, at_start: bool) -> list[float]:
        """Start times for ``count`` new warm kernels of one lesson."""
        if at_start and count:  # the server starts: each pooled lesson gets one kernel a round
            turn = self.first_fills
            self.first_fills += 1
            times = [now + delay + (k * self.lessons + turn) * self.first_step for k in range(count)]
        else:  # a refill (or a lesson without a pool): after every start already planned
            times = []
            for _ in range(count):
                at = max(now + delay, self.next_free)
                times.append(at)
                self.next_free = at + self.step
        if times:
            self.next_free = max(self.next_free, max(times) + self.step)
        return times

    def wait_before(self, delay: float, aw):
        """Voila's ``wait_before(delay, aw)``, sleeping until the planned time when there is one."""
        at = self.planned.pop(0) if self.planned else None

        async def later():
            loop = asyncio.get_running_loop()
            try:
                await asyncio.sleep(delay if at is None else max(0.0, at - loop.time()))
            except asyncio.CancelledError:  # stopped while waiting: the kernel never starts
                if hasattr(aw, "close"):
                    aw.close()
                raise
            return await aw

        return later()


def _ready(task) -> bool:
    return task.done() and not task.cancelled() and task.exception() is None


def kernel_manager(cls: type, preheat: bool, schedule: StartSchedule | None = None,
                   state: ServeState | None = None) -> type:
    """A subclass of Voila 0.5's kernel manager ``cls`` for a class of students.

    Always: page kernels are tracked in ``state`` (:meth:`start_kernel` is only called for a
    page's own kernel: Voila's warm pool starts its kernels through the base class), and a
    stopped kernel leaves the count at once.

    With warm kernels (``preheat``):

    * :meth:`get_pool_size` counts the warm kernels a page may take: ready ones, and ones already
      starting (not those still waiting for their start time). Voila's handler takes a warm
      kernel only when this is above 0, else it starts a kernel for the page at once.
    * :meth:`get_rendered_notebook` takes a ready kernel first, else the one that began
      starting first, never a waiting one (Voila takes the first entry, whatever it is), and
      starts the page's time limit (:class:`GuardedRenderer`).
    * :meth:`fill_if_needed` plans when each new warm kernel starts (see :class:`StartSchedule`;
      the schedule's ``wait_before`` must be the one Voila calls, as :func:`main` arranges).
    """
    schedule = schedule or StartSchedule(DEFAULTS["step"], 1)
    state = state or STATE

    class TokensKernelManager(cls):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            state.km = self

        # --- page kernels --------------------------------------------------------------
        async def start_kernel(self, *args, **kwargs):
            page = _page.get()
            if page is not None and not getattr(page, "_tokens_cold", False):
                await state.cold.acquire()  # released when the page is done
                page._tokens_cold = True
            kernel_id = await super().start_kernel(*args, **kwargs)
            if page is not None:
                state.add_page_kernel(kernel_id)
            return kernel_id

        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            state.forget(kernel_id)
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)

        if not preheat:
            def get_pool_size(self, notebook_name: str) -> int:
                return 0

        else:
            # --- warm kernels ----------------------------------------------------------
            def _starts(self) -> weakref.WeakKeyDictionary:
                """When each pool entry begins starting its kernel (event loop time)."""
                if "_tokens_starts" not in self.__dict__:
                    self.__dict__["_tokens_starts"] = weakref.WeakKeyDictionary()
                return self.__dict__["_tokens_starts"]

            def _takeable(self, notebook_name: str) -> list[int]:
                """Indexes of the pool entries a page may take, best first."""
                pool = self._pools.get(notebook_name, [])
                now = asyncio.get_event_loop().time()
                starts = self._starts()
                done = [i for i, t in enumerate(pool) if _ready(t)]
                starting = sorted((starts.get(t, 0.0), i) for i, t in enumerate(pool)
                                  if not t.done() and starts.get(t, 0.0) <= now)
                return done + [i for _, i in starting]

            def get_pool_size(self, notebook_name: str) -> int:
                return len(self._takeable(notebook_name))

            async def get_rendered_notebook(self, notebook_name, extra_kernel_env_variables={},
                                            **kwargs):
                pool = self._pools.get(notebook_name, [])
                best = self._takeable(notebook_name)
                if best and best[0]:  # move it to the front, where Voila takes from
                    pool.insert(0, pool.pop(best[0]))
                if pool and _ready(pool[0]):  # the page's time limit starts now
                    renderer = pool[0].result().get("renderer")
                    if renderer is not None:
                        renderer.requested_at = asyncio.get_event_loop().time()
                result = await super().get_rendered_notebook(
                    notebook_name, extra_kernel_env_variables, **kwargs)
                render_task, rendered_cache, kernel_id = result
                state.add_page_kernel(kernel_id)
                return result

            def _wanted_size(self, notebook_name) -> int:
                config = self.kernel_pools_config
                default = config.get("default", {})
                return config.get(notebook_name, default).get("pool_size",
                                                              default.get("pool_size", 1))

            def _room(self, notebook_name, missing: int) -> int:
                """How many of ``missing`` new warm kernels fit (stopping other lessons' warm
                kernels when this computer is at its kernel limit or short of memory)."""
                settings = state.settings
                limit = int(settings["max_kernels"])
                room = missing if not limit else limit - state.students() - state.warm()
                free = mem_available_mib()
                if free is not None:
                    by_memory = int((free - float(settings["min_free_mib"]))
                                    // max(1.0, float(settings["kernel_mib"])))
                    room = min(room, by_memory)
                if room < missing:
                    room += self.make_room(missing - max(room, 0), keep=notebook_name)
                return max(0, min(missing, room))

            def make_room(self, count: int, keep: str | None = None) -> int:
                """Stop up to ``count`` warm kernels of lessons other than ``keep``, from the
                lesson with the most first; ones not started yet go first (they cost nothing).

                Returns:
                    int: how many were stopped.
                """
                now = asyncio.get_event_loop().time()
                starts = self._starts()
                freed = 0
                while freed < count:
                    lessons = sorted(((len(pool), name) for name, pool in self._pools.items()
                                      if name != keep and pool), reverse=True)
                    victim = None
                    for _, name in lessons:
                        pool = self._pools[name]
                        waiting = [i for i, t in enumerate(pool)
                                   if not t.done() and starts.get(t, 0.0) > now]
                        ready = [i for i, t in enumerate(pool) if _ready(t)]
                        if waiting or ready:
                            victim = (name, (waiting or ready)[-1])
                            break
                    if victim is None:
                        break
                    task = self._pools[victim[0]].pop(victim[1])
                    if task.done():
                        content = task.result()
                        if content.get("task") is not None:
                            content["task"].cancel()  # its pre-render waits for a page
                        asyncio.ensure_future(_stop_quietly(self, content["kernel_id"]))
                    else:
                        task.cancel()
                    freed += 1
                if freed:
                    log.info("Stopped %d warm kernel(s) of other lessons to make room.", freed)
                return freed

            def fill_if_needed(self, delay=None, notebook_name=None,
                               extra_kernel_env_variables={}, **kwargs):
                pool = self._pools.get(notebook_name, [])
                at_start = delay is not None  # Voila passes 0 at start, None for a refill
                delay = self.fill_delay if delay is None else delay
                now = asyncio.get_event_loop().time()
                missing = max(0, self._wanted_size(notebook_name) - len(pool))
                allowed = missing if at_start else self._room(notebook_name, missing)
                times = schedule.plan(now, delay, allowed, at_start)
                schedule.planned = list(times)
                before = set(pool)
                try:
                    result = super().fill_if_needed(delay, notebook_name,
                                                    extra_kernel_env_variables, **kwargs)
                finally:
                    schedule.planned = []
                starts = self._starts()
                pool = self._pools.get(notebook_name, [])
                new = [t for t in pool if t not in before]
                for task in new[allowed:]:  # no room for these: they never start
                    task.cancel()
                    pool.remove(task)
                for task, at in zip(new, times):
                    starts[task] = at
                return result

            def warm_counts(self) -> tuple[int, int]:
                """(warm kernels ready, warm kernels wanted) over every lesson."""
                ready = sum(1 for pool in self._pools.values() for t in pool if _ready(t))
                wanted = sum(self._wanted_size(name) for name in self._pools)
                return ready, wanted

    TokensKernelManager.__name__ = TokensKernelManager.__qualname__ = cls.__name__
    return TokensKernelManager


# --- pages that end instead of hanging -------------------------------------------------------


async def _guarded(agen, renderer, kernel_id):
    """Yield ``agen``'s items; end with :data:`PAGE_FAILED_HTML` on an error or past the limit.

    The limit (``page_timeout`` s) counts from ``renderer.requested_at``: for a page's own kernel
    from its first cell, for a warm kernel from the moment a page takes it (before that, a warm
    kernel may wait for its page as long as it likes).
    """
    limit = float(STATE.settings["page_timeout"])
    loop = asyncio.get_running_loop()
    if getattr(renderer, "requested_at", None) is None and not renderer.warm:
        renderer.requested_at = loop.time()
    it = agen.__aiter__()
    while True:
        step = asyncio.ensure_future(it.__anext__())
        try:
            while True:
                done, _ = await asyncio.wait({step}, timeout=1.0)
                if done:
                    break
                started = getattr(renderer, "requested_at", None)
                if started is not None and loop.time() - started > limit:
                    step.cancel()
                    raise TimeoutError(f"the page took more than {limit:.0f} s")
            item = step.result()
        except StopAsyncIteration:
            return
        except (asyncio.CancelledError, GeneratorExit):
            step.cancel()
            raise
        except Exception as e:
            log.warning("A page of %s did not finish loading (%s); its kernel is stopped.",
                        renderer.notebook_path, e if isinstance(e, TimeoutError) else type(e).__name__)
            log.debug("Page failure", exc_info=True)
            if STATE.km is not None and kernel_id:
                asyncio.ensure_future(_stop_quietly(STATE.km, kernel_id))
            yield PAGE_FAILED_HTML, None
            return
        if isinstance(item, tuple) and item and isinstance(item[0], str):
            item = (local_only(item[0]),) + tuple(item[1:])
        yield item


async def _stop_quietly(km, kernel_id: str) -> None:
    try:
        if kernel_id in km:
            await km.shutdown_kernel(kernel_id, now=True)
    except Exception:
        log.debug("Could not stop kernel %s", kernel_id, exc_info=True)


def guarded_renderer(base: type) -> type:
    """Voila's ``NotebookRenderer`` whose page generator ends instead of hanging."""

    class GuardedRenderer(base):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            # A page's own kernel: the handler makes the renderer. A warm one: the pool does.
            self.warm = kwargs.get("request_handler") is None
            self.requested_at = None

        def generate_content_generator(self, kernel_id=None, kernel_future=None):
            return _guarded(super().generate_content_generator(kernel_id, kernel_future),
                            self, kernel_id)

    GuardedRenderer.__name__ = GuardedRenderer.__qualname__ = base.__name__
    return GuardedRenderer


# --- handlers -----------------------------------------------------------------------------


class PlainErrors:
    """Mixed into every handler: a short plain error page, no traceback in the log.

    Jupyter's error page needs a ``static_path`` setting that Voila's app does not have, so
    each error logged "Uncaught exception in write_error" with two tracebacks. The access log
    line (one per request) says what happened.
    """

    def write_error(self, status_code: int, **kwargs) -> None:
        reason = {404: "Not found", 403: "Forbidden", 400: "Bad request",
                  503: "Busy"}.get(status_code, self._reason)
        words = {404: "There is no page at this address. Check the link, or start again from the "
                      "lesson list.",
                 403: "This page is not open to you.",
                 400: "This address is not one the lessons understand."}.get(status_code, "")
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{status_code}"
                    f"</title></head><body style='font-family: sans-serif; font-size: 20px; margin: 3em auto;"
                    f" max-width: 34em; line-height: 1.5'><h1 style='font-size: 26px'>{status_code}: "
                    f"{html.escape(reason)}</h1>{f'<p>{words}</p>' if words else ''}"
                    f"<p><a href='{html.escape(self._home())}'>Go to the lesson list</a></p></body></html>")

    def _home(self) -> str:
        try:  # under JupyterHub the lessons live under the student's own prefix
            return str(self.base_url or "/")
        except Exception:  # noqa: BLE001 (an error page must not fail)
            return "/"

    def log_exception(self, typ, value, tb) -> None:
        if isinstance(value, tornado.web.HTTPError):
            return  # the access log has the line
        logging.getLogger("tornado.application").error(
            "%s: %s: %s", self._request_summary(), type(value).__name__, value)
        log.debug("Traceback", exc_info=(typ, value, tb))


def _hidden(path: str, hidden: list[str]) -> bool:
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    return any(p in hidden or p.startswith(".") for p in parts)


def page_handler(base: type, state: ServeState | None = None) -> type:
    """Voila's page handler with the ``_xsrf`` cookie, the class cap and page bookkeeping."""
    state = state or STATE

    class PageHandler(base):
        """A lesson page: ``/voila/render/<notebook>``."""

        async def get(self, path=None):
            # voila-dashboards/voila#1458: the page's shutdown beacon sends the _xsrf cookie's
            # value, but notebook pages never set the cookie (only templated pages do). Asking
            # for the token sets it on this response. Drop when Voila sets it itself.
            self.xsrf_token  # noqa: B018 (a property that sets the cookie)
            if path and _hidden(path, state.settings["hidden"]):
                raise tornado.web.HTTPError(404)
            why = state.is_full(path)
            waited = 0.0
            while why == "cap" and waited < FULL_GRACE_S:
                # A student moving on (Back, a link, a typed address) asks for the new page a
                # moment before their old page's close frees its kernel: give that a chance.
                await asyncio.sleep(0.25)
                waited += 0.25
                why = state.is_full(path)
            if why:
                state.full_count += 1
                if state.full_count == 1 or state.full_count % 10 == 0:
                    log.warning("The class is full (%s): a page was asked to wait (%d so far). %s",
                                f"{state.students()} students" if why == "cap"
                                else "little memory left", state.full_count,
                                "Raise --max-students if this computer has room."
                                if why == "cap" else "Close other programs on this computer.")
                self.set_status(503)
                self.set_header("Retry-After", "60")
                self.set_header("Cache-Control", "no-store")
                self.finish(CLASS_FULL_HTML)
                return
            state.waiting.add(id(self))
            token = _page.set(self)
            try:
                return await super().get(path)
            finally:
                _page.reset(token)

        def should_use_rendered_notebook(self, notebook_data, pool_size, template_name, theme,
                                         request_args):
            # ?template= and ?theme= are ignored (overrides are off), so they must not send a
            # page past the warm kernels to start one of its own.
            return pool_size > 0 and len(notebook_data) > 0

        def on_finish(self):
            state.waiting.discard(id(self))
            kernel_id = getattr(self, "_tokens_kernel_id", None)
            if kernel_id in state.pages:
                state.pages[kernel_id]["served"] = asyncio.get_event_loop().time()
            if getattr(self, "_tokens_cold", False):
                self._tokens_cold = False
                state.cold.release()
            super().on_finish()

        def on_connection_close(self):
            # The browser left while the page was loading: free the start slot now.
            if getattr(self, "_tokens_cold", False):
                self._tokens_cold = False
                state.cold.release()
            super().on_connection_close()

    return PageHandler


def query_socket_handler(base: type, state: ServeState | None = None) -> type:
    """Voila's ``RequestInfoSocketHandler`` (a warm kernel waits there for its page's request)
    without the close bug, for kernels of this server only, one socket per kernel."""
    state = state or STATE

    class QuerySocketHandler(base):
        def open(self, kernel_id: str) -> None:
            km = state.km
            known = km is not None and kernel_id in km
            waiting = base._waiters.get(kernel_id)
            if not known or (waiting is not None and waiting is not self
                             and waiting.ws_connection is not None):
                log.debug("Refused a query socket for %s", kernel_id)
                self.close(4404 if not known else 4409)
                return
            super().open(kernel_id)
            base._cache.pop(kernel_id, None)  # sent once; Voila keeps it forever

        def on_close(self) -> None:
            # Voila 0.5.13 deletes the last entry it looked at when this socket is not in the
            # table, i.e. another kernel's waiter. Delete this socket's own entries only.
            for kernel_id, waiter in list(base._waiters.items()):
                if waiter is self:
                    del base._waiters[kernel_id]

    return QuerySocketHandler


def shutdown_handler(base: type) -> type:
    """The page's "I am closing" call: an unknown kernel is a plain 404, never a traceback."""

    class ShutdownHandler(base):
        async def post(self, kernel_id):
            km = self.kernel_manager
            if kernel_id not in km:
                raise tornado.web.HTTPError(404)
            return await super().post(kernel_id)

    return ShutdownHandler


_TEMPLATE_PATH = re.compile(r"^[A-Za-z0-9_.-]+/static/[A-Za-z0-9_./@-]+$")


def template_file_handler(base: type) -> type:
    """Template static files: an odd path is a 404 (Voila 0.5.13 raised AssertionError: 500)."""

    class TemplateFileHandler(base):
        def parse_url_path(self, path):
            norm = os.path.normpath(path).replace(os.sep, "/")
            if not _TEMPLATE_PATH.match(path) or norm != path or ".." in norm.split("/"):
                raise tornado.web.HTTPError(404)
            return super().parse_url_path(path)

    return TemplateFileHandler


def hiding_handler(base: type, state: ServeState | None = None) -> type:
    """A tree or contents handler that answers 404 for hidden folders (``scenarios``), and
    whose pages load nothing from another computer (:func:`local_only`)."""
    state = state or STATE

    class HidingHandler(base):
        async def get(self, path=""):
            if _hidden(path or "", state.settings["hidden"]):
                raise tornado.web.HTTPError(404)
            return await super().get(path)

        def render_template(self, name, **ns):  # the lesson list asks no other computer either
            return local_only(super().render_template(name, **ns))

    return HidingHandler


# --- the application --------------------------------------------------------------------------


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_connection_dirs(root: Path, keep: Path | None = None) -> list[Path]:
    """Remove ``voila_*`` folders under ``root`` left by servers that are gone.

    A folder is a server's when it holds ``server.pid``; it is removed when that process is not
    running, or when it has no such file and is older than a day (an older version's).

    Returns:
        list[Path]: the folders removed.
    """
    removed = []
    for folder in sorted(root.glob("voila_*")):
        if keep is not None and folder.resolve() == keep.resolve():
            continue
        try:
            pid = int((folder / "server.pid").read_text().split()[0])
            gone = not _pid_alive(pid)
        except (OSError, ValueError, IndexError):
            try:
                gone = time.time() - folder.stat().st_mtime > 24 * 3600
            except OSError:
                gone = False
        if gone:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


async def _watch_pages(state: ServeState) -> None:
    """Every few seconds: stop kernels of pages no browser opened, and kernels that died."""
    loop = asyncio.get_running_loop()
    every = 5.0
    while True:
        await asyncio.sleep(every)
        km = state.km
        if km is None:
            continue
        try:
            connections = getattr(km, "_kernel_connections", {})
            for kernel_id, info in list(state.pages.items()):
                if kernel_id not in km:
                    state.forget(kernel_id)
                    continue
                if connections.get(kernel_id, 0) > 0:
                    info["opened"] = True
                    continue
                served = info["served"]
                if (not info["opened"] and served is not None
                        and loop.time() - served > float(state.settings["unopened_timeout"])):
                    log.info("Stopping kernel %s: no browser opened its page.", kernel_id)
                    await _stop_quietly(km, kernel_id)
                    continue
                kernel = km.get_kernel(kernel_id)
                alive = kernel.is_alive()
                if asyncio.iscoroutine(alive):
                    alive = await alive
                if not alive:
                    log.info("Kernel %s stopped by itself; removing it.", kernel_id)
                    await _stop_quietly(km, kernel_id)
            _status(state)
        except Exception:
            log.debug("Page watch failed", exc_info=True)


def _status(state: ServeState) -> None:
    """A status line for the teacher when the numbers changed (at most one a ``status_every``)."""
    every = float(state.settings["status_every"])
    if not every:
        return
    now = time.monotonic()
    ready, wanted = state.km.warm_counts() if hasattr(state.km, "warm_counts") else (0, 0)
    if wanted and ready >= wanted and not state._all_ready_said:
        state._all_ready_said = True
        log.info("Warm kernels are ready: %d.", ready)
    counts = (len(state.pages), ready)
    last = state._last_status
    if last is not None and (last[1] == counts or now - last[0] < every):
        return
    state._last_status = (now, counts)
    cap = int(state.settings["max_students"])
    free = mem_available_mib()
    log.info("%d student page(s) open%s; warm kernels ready: %d of %d%s.", counts[0],
             f" (at most {cap})" if cap else "", ready, wanted,
             f"; free memory {free / 1024:.1f} GiB" if free is not None else "")


def make_app_class(voila_app_module, state: ServeState) -> type:
    """``Voila`` with the handlers above swapped in (by class, so nothing else changes)."""
    import voila.app as va
    from voila.request_info_handler import RequestInfoSocketHandler
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
    from voila.static_file_handler import TemplateStaticFileHandler
    from voila.tornado.contentshandler import VoilaContentsHandler
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    swaps = {
        TornadoVoilaHandler: page_handler(TornadoVoilaHandler, state),
        RequestInfoSocketHandler: query_socket_handler(RequestInfoSocketHandler, state),
        VoilaShutdownKernelHandler: shutdown_handler(VoilaShutdownKernelHandler),
        TemplateStaticFileHandler: template_file_handler(TemplateStaticFileHandler),
        TornadoVoilaTreeHandler: hiding_handler(TornadoVoilaTreeHandler, state),
        VoilaContentsHandler: hiding_handler(VoilaContentsHandler, state),
    }
    plain: dict[type, type] = {}

    def with_plain_errors(cls: type) -> type:
        if not (isinstance(cls, type) and issubclass(cls, tornado.web.RequestHandler)):
            return cls
        if cls not in plain:
            plain[cls] = type(cls.__name__, (PlainErrors, cls), {})
        return plain[cls]

    class TokensVoila(va.Voila):
        """Voila for ``tokens-edu serve`` (see the module docs for each change)."""

        def init_settings(self):
            # Runs in start(), right after Voila made this server's connection folder.
            folder = Path(self.connection_dir)
            try:
                (folder / "server.pid").write_text(f"{os.getpid()}\n")
            except OSError:
                pass
            for old in clean_stale_connection_dirs(folder.parent, keep=folder):
                log.info("Removed connection files left by a stopped server: %s", old)
            self.log.addFilter(_DropKnownNoise())  # the app's own logger (see _DropKnownNoise)
            settings = super().init_settings()
            cm = self.contents_manager
            # Trust is JupyterLab's idea (whether to show a notebook's HTML outputs); Voila runs
            # the notebook either way. Skip the signature check and its warning on every page.
            cm.mark_trusted_cells = lambda nb, path="": cm.notary.mark_cells(nb, True)
            return settings

        def init_handlers(self):
            handlers = []
            for spec in super().init_handlers():
                spec = list(spec)
                spec[1] = with_plain_errors(swaps.get(spec[1], spec[1]))
                handlers.append(tuple(spec))
            return handlers

        def listen(self):
            asyncio.get_event_loop().call_soon(lambda: asyncio.ensure_future(_watch_pages(state)))
            return super().listen()

    return TokensVoila


class _DropKnownNoise(logging.Filter):
    """Lines that say nothing a teacher can act on, dropped from the console."""

    NOISE = (
        # jupyter_server 2 asks Tornado 6.5+ for a websocket ping timeout (90 s) longer than
        # the ping interval (30 s); Tornado warns at the first page and uses 30 s for its own
        # pings, while jupyter_server keeps its 90 s check. Nothing is wrong for the class.
        "cannot be longer than the websocket_ping_interval",
        # After a restart every student's browser still holds the old server's login cookie;
        # the server clears it and goes on (one WARNING per student, nothing to act on).
        "Clearing invalid/expired login cookie",
    )

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(text in message for text in self.NOISE)


def _quiet_logs() -> None:
    """Our own short lines on stderr; the chatty ones of Jupyter and Voila stay out."""
    logging.getLogger("tornado.general").addFilter(_DropKnownNoise())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[tokens-edu] %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def main(settings: dict | str | None = None, argv: list[str] | None = None) -> int:
    """Run Voila with this module's changes (the ``python -c`` program of ``tokens-edu serve``).

    Args:
        settings: a dict or a JSON text with keys of :data:`DEFAULTS`.
        argv: Voila's command line (default: ``sys.argv[1:]``).

    Returns:
        int: Voila's exit code.
    """
    import warnings

    if isinstance(settings, str):
        settings = json.loads(settings)
    STATE.settings = {**DEFAULTS, **(settings or {})}
    _quiet_logs()
    import jupyter_client.channels
    import voila.app
    import voila.exporter
    import voila.handler
    import voila.voila_kernel_manager as vkm

    jupyter_client.channels.HBChannel.time_to_dead = HEARTBEAT_S
    share_template_bytecode(voila.exporter.VoilaExporter)

    # traitlets warns that a {...} dict on the command line is old style, but it is the only
    # way to give nested values there.
    warnings.filterwarnings("ignore", message="--kernel_pools_config=", category=DeprecationWarning)

    schedule = StartSchedule(float(STATE.settings["step"]), int(STATE.settings["lessons"]),
                             float(STATE.settings["first_step"]))
    vkm.wait_before = schedule.wait_before
    factory = voila.app.voila_kernel_manager_factory

    def tokens_factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs):
        cls = factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs)
        return kernel_manager(cls, bool(preheat_kernel), schedule, STATE)

    voila.app.voila_kernel_manager_factory = tokens_factory
    renderer = guarded_renderer(voila.handler.NotebookRenderer)
    voila.handler.NotebookRenderer = renderer  # a page's own kernel
    vkm.NotebookRenderer = renderer  # warm kernels
    app_class = make_app_class(voila.app, STATE)
    app_class.launch_instance(argv=argv)
    return 0
