"""The server's watch: every few seconds it gives back kernels no page uses, sizes the warm kernels
to the demand, measures what a kernel uses, reads today's lesson and tells the teacher.

Kernels given back (each counted, said in the next status line, never one line per kernel):

* a page whose browser never connected to its kernel, ``unopened_timeout`` s (20) after its
  HTML was sent (a script, a link checker, a browser closed while loading), or
  ``hello_timeout`` s (60) after its first script said hello (a slow laptop's page says it
  could not reach its lesson after 30 s, and to reload);
* a page whose browser went away without closing it (a closed laptop lid: its connection
  drops when its pings go unanswered), ``gone_timeout`` s (120) after its last connection
  closed; a page that comes back finds its kernel gone and says so (:mod:`.pages`);
* a kernel that stopped by itself;
* a page's kernel whose memory passed ``kernel_stop_mib`` (:mod:`.limits`): its page says why.

This replaces jupyter_server's idle culler, which logged a warning and, for a warm kernel
whose entry had failed, a traceback, and held a closed laptop's kernel for ten minutes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

from .cpu import CpuShare
from .limits import over_memory
from .memory import mem_available_mib, remember_kernel_mib
from .pools import is_ready, stop_quietly
from .state import ServeState
from .today import local_day, read_today, resolve_lesson

__all__ = ["watch", "check_unopened", "Watch"]

log = logging.getLogger("tokens-edu")


def _connections(km, kernel_id: str) -> int:
    return int(getattr(km, "_kernel_connections", {}).get(kernel_id, 0))


def _ran(content: dict) -> bool:
    """Whether a warm kernel has run its whole lesson (its pre-render ended; the start page's
    waits for its page's request, so its kernels are measured once students have them)."""
    task = content.get("task")
    return task is not None and task.done()


async def _alive(km, kernel_id: str) -> bool:
    """Whether ``kernel_id``'s process still runs (a kernel that crashed or was killed stays in
    the kernel manager, with its page still connected to the server)."""
    try:
        alive = km.get_kernel(kernel_id).is_alive()
        if asyncio.iscoroutine(alive):
            alive = await alive
        return bool(alive)
    except Exception:  # noqa: BLE001 (gone meanwhile)
        return False


async def check_unopened(state: ServeState, kernel_id: str) -> bool:
    """Give back ``kernel_id`` when its page's browser never connected within
    ``unopened_timeout`` s of the page being sent. Returns True when it was stopped."""
    km, page = state.km, state.pages.get(kernel_id)
    if (km is None or page is None or page.opened or page.hello is not None
            or page.served is None or state.stopping):
        return False
    if _connections(km, kernel_id) > 0:
        page.opened = True
        return False
    waited = asyncio.get_event_loop().time() - page.served
    if waited < float(state.settings["unopened_timeout"]):
        return False
    state.forget(kernel_id)
    state.count("unopened")
    await stop_quietly(km, kernel_id)
    return True


class Watch:
    """One round of the watch (:meth:`round`), and what it remembers between rounds."""

    MEASURE_EVERY = 30.0
    TODAY_EVERY = 3.0

    def __init__(self, state: ServeState):
        self.state = state
        self.last_measure = -1e9
        self.last_today = -1e9
        self.today_mtime = None
        self.last_status: tuple | None = None
        self.said_size = False
        self.said_ready = False
        self.said_today: str | None = None
        self.cpu = CpuShare(float(state.settings["busy_share"]))

    async def round(self) -> None:
        """Check every page kernel, the pools, the memory figure, today's lesson; then a status
        line when the numbers changed."""
        state, km = self.state, self.state.km
        if km is None or state.stopping:
            return
        now = asyncio.get_event_loop().time()
        await self.memory(now)
        await self.pages(now)
        self.share_cpu()
        if time.monotonic() - self.last_today >= self.TODAY_EVERY:
            self.last_today = time.monotonic()
            self.today()
        if hasattr(km, "fill_all"):
            km.trim()
            km.fill_all()
        self.status()
        if (not self.said_size or time.monotonic() - self.last_measure >= self.MEASURE_EVERY):
            self.last_measure = time.monotonic()
            self.measure()

    async def pages(self, now: float) -> None:
        state, km = self.state, self.state.km
        gone_after = float(state.settings["gone_timeout"])
        for kernel_id, page in list(state.pages.items()):
            if kernel_id not in km:
                state.forget(kernel_id)
                continue
            if not await _alive(km, kernel_id):
                state.forget(kernel_id)
                state.count("stopped by itself")
                await stop_quietly(km, kernel_id)
                continue
            if _connections(km, kernel_id) > 0:
                page.opened, page.gone_since = True, None
                continue
            if not page.opened and page.hello is None:
                await check_unopened(state, kernel_id)
                continue
            if not page.opened and now - page.hello > float(state.settings["hello_timeout"]):
                # its browser said hello but never reached its kernel: the page itself says
                # "could not reach its lesson" by now (a script's hello holds nothing longer)
                state.forget(kernel_id)
                state.count("unopened")
                await stop_quietly(km, kernel_id)
                continue
            if page.gone_since is None:  # went away, or its browser never connected
                page.gone_since = now if page.opened else page.hello
            elif gone_after and now - page.gone_since > gone_after:
                state.forget(kernel_id)
                state.count("went away")
                await stop_quietly(km, kernel_id)

    def share_cpu(self) -> None:
        """Every kernel below the server, and a page's kernel busy since the last round behind
        the others (:mod:`.cpu`): a page flooding its kernel slows its own page."""
        state, km = self.state, self.state.km
        if not float(state.settings["busy_share"]) or not hasattr(km, "kernel_pid"):
            return
        pids = {kid: km.kernel_pid(kid) for kid in list(km.list_kernel_ids())}
        opened = [pid for kid, pid in pids.items()
                  if pid and kid in state.pages and state.pages[kid].opened]
        self.cpu.look([pid for pid in pids.values() if pid], opened)

    async def memory(self, now: float) -> None:
        """Stop page kernels whose resident memory passed ``kernel_stop_mib`` (:mod:`.limits`):
        the page says why, with a Reload button; the console says so once per kernel."""
        state, km = self.state, self.state.km
        stop = float(state.settings.get("kernel_stop_mib") or 0)
        if not stop:
            return
        for kernel_id in over_memory(km, list(state.pages), stop):
            page = state.pages.get(kernel_id)
            state.memory_stopped[kernel_id] = now
            while len(state.memory_stopped) > 500:
                state.memory_stopped.pop(next(iter(state.memory_stopped)))
            state.forget(kernel_id)
            state.count("too much memory")
            log.warning("A page of %s used more than %.0f MiB of memory: its kernel was stopped. "
                        "Its page says so, with a Reload button; the other pages go on.",
                        (page.notebook if page is not None and page.notebook else "a lesson"), stop)
            await stop_quietly(km, kernel_id)

    def today(self) -> None:
        """Read today's lesson from the data folder's ``today.json`` when it changed; at
        midnight, today's lesson ends (the file's, or the one given with ``--today``)."""
        state = self.state
        if state.demand.today and state.today_day and state.today_day != local_day():
            log.info("Today's lesson %s ended at midnight: warm kernels follow the pages students "
                     "open. Name the next one with: tokens-edu today LESSON.", state.demand.today)
            state.demand.today = state.today_day = None
        folder = state.settings.get("today_folder")
        if not folder:
            return
        lesson, mtime = read_today(Path(folder))
        if mtime == self.today_mtime:
            return
        self.today_mtime = mtime
        names = [n for n, kind in state.demand.kinds.items() if kind != "hidden"]
        chosen = resolve_lesson(lesson, names) if lesson else None
        if lesson and chosen is None:
            log.warning("today.json names %r, which is not a lesson here; today's lesson is "
                        "unchanged.", lesson[:80])
            return
        if mtime is None and state.demand.today is not None:
            return  # no file: the lesson given with --today stays
        if chosen != state.demand.today:
            state.demand.today = chosen
            state.today_day = local_day() if chosen else None
            if chosen:
                log.info("Today's lesson: %s. Its warm kernels are starting (up to %d).", chosen,
                         state.demand.class_size)
                if hasattr(state.km, "fill_all"):
                    state.km.fill_if_needed(0, chosen)
            else:
                log.info("No lesson is today's lesson any more: warm kernels follow the pages "
                         "students open.")

    def measure(self) -> None:
        """Measure the memory of up to 20 kernels that have run their lesson: students' pages,
        and warm kernels whose lesson has run to its end (when there are none, the warm kernels
        as they are). Said once on the console, when every warm kernel is first ready."""
        state, km = self.state, self.state.km
        kernel_ids = [kid for kid, page in state.pages.items() if page.opened]
        ready = [t.result() for pool in getattr(km, "_pools", {}).values() for t in pool if is_ready(t)]
        kernel_ids += [c["kernel_id"] for c in ready if _ran(c)]
        if not kernel_ids:  # every lesson here waits for its page: what the warm kernels use
            kernel_ids = [c["kernel_id"] for c in ready]
        pids = [pid for pid in (km.kernel_pid(kid) for kid in kernel_ids[:20]) if pid]
        if not state.kernel_size.measure(pids) or not self.said_ready:
            return
        folder = state.settings.get("memo_folder")
        if folder:
            remember_kernel_mib(Path(folder), state.kernel_size.mib)
        if not self.said_size:
            self.said_size = True
            free = mem_available_mib()
            cap = int(state.settings["max_students"])
            fits = ""
            if free is not None:
                more = int((free - float(state.settings["min_free_mib"])) // state.kernel_size.mib)
                fits = (f"; the free memory ({free / 1024:.1f} GiB) holds about "
                        f"{max(0, more) + state.kernels() + state.warm()} kernels")
            log.info("A lesson kernel uses about %.0f MiB here (measured)%s%s.", state.kernel_size.mib,
                     fits, f"; at most {cap} students at once (--max-students)" if cap else "")

    def class_ready(self) -> None:
        """Say once (for each today's lesson) when the start page and today's lesson both have
        all their warm kernels, or as many as the warm kernels' budget holds: the class can come."""
        state, km = self.state, self.state.km
        today = state.demand.today
        if not today or today == self.said_today or not hasattr(km, "_pools"):
            return
        budget = state.warm_budget()
        full = budget is not None and km.warm_counts()[0] >= budget  # the budget is used up
        counts = {}
        for name, kind in state.demand.kinds.items():
            if name == today or kind == "start":
                counts[name] = sum(1 for t in km._pools.get(name, []) if is_ready(t))
                if counts[name] < state.demand.target(name) and not full:
                    return
        self.said_today = today
        parts = [f"the start page ({n} warm)" for name, n in counts.items() if name != today]
        parts.append(f"today's lesson {today} ({counts.get(today, 0)} warm)")
        log.info("Ready for the class: %s.", " and ".join(parts))

    def status(self) -> None:
        """A status line for the teacher when the numbers changed (at most one every
        ``status_every`` s), and once when the warm kernels are first all ready."""
        state = self.state
        every = float(state.settings["status_every"])
        if not every:
            return
        ready, wanted = state.km.warm_counts()
        if wanted and ready >= wanted and not self.said_ready:
            self.said_ready = True
            log.info("Warm kernels are ready: %d.", ready)
        self.class_ready()
        counters = tuple(sorted(state.counters.items()))
        numbers = (len(state.pages), ready, wanted, counters)
        now = time.monotonic()
        last = self.last_status
        if last is not None and (last[1] == numbers or now - last[0] < every):
            return
        self.last_status = (now, numbers)
        cap = int(state.settings["max_students"])
        free = mem_available_mib()
        given = ", ".join(f"{n} {why}" for why, n in counters)
        log.info("%d student page(s) open%s; warm kernels ready: %d of %d%s%s.", len(state.pages),
                 f" (at most {cap})" if cap else "", ready, wanted,
                 f"; free memory {free / 1024:.1f} GiB" if free is not None else "",
                 f"; kernels given back so far: {given}" if given else "")


async def watch(state: ServeState, every: float = 5.0) -> None:
    """Run :meth:`Watch.round` every ``every`` seconds until the server stops."""
    rounds = Watch(state)
    while not state.stopping:
        await asyncio.sleep(every)
        try:
            await rounds.round()
        except Exception:  # noqa: BLE001 (the watch must never stop the server)
            log.debug("The watch failed", exc_info=True)
