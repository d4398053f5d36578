"""Live updates: while a dashboard page is open, the data is brought up to date about once a
second (only what is new is read), and each open page is told over Server-Sent Events
(``events``) when something changed; the page then fetches its new content.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

import tornado.iostream
import tornado.web

from .base import BaseHandler

__all__ = ["Watcher", "EventsHandler", "POLL_SECONDS", "KEEPALIVE_SECONDS"]

log = logging.getLogger(__name__)

#: Seconds between two looks at the database while a dashboard page is open.
POLL_SECONDS = 1.0
#: Seconds between two "still here" comments on a quiet event stream.
KEEPALIVE_SECONDS = 15.0


class Watcher:
    """Looks at the database every ``poll`` seconds while a page listens (:attr:`clients`).

    Args:
        data: the dashboard's :class:`~tokens_edu.teacher.data.ClassData`.
        poll: seconds between two looks.

    Attributes:
        version: what :meth:`ClassData.refresh` last said (None before the first look).
        clients: how many pages listen now.
        problem: why the database could not be read at the last look (one line), or None.
    """

    def __init__(self, data, poll: float = POLL_SECONDS):
        self.data = data
        self.poll = poll
        self.version = None
        self.clients = 0
        self.problem: str | None = None  # the database problem last said, if any
        self._event = asyncio.Event()
        self._task = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def changed(self, timeout: float) -> None:
        """Wait until the data changes, or ``timeout`` seconds."""
        self.start()
        try:
            await asyncio.wait_for(asyncio.shield(self._event.wait()), timeout)
        except asyncio.TimeoutError:
            pass

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.clients or self.version is None:
                try:
                    version = await loop.run_in_executor(None, self.data.refresh)
                except Exception as e:  # noqa: BLE001 (a database hiccup: try again next time)
                    self._problem(e)
                    version = self.version
                else:
                    self._problem(None)
                if version != self.version:
                    self.version = version
                    self._event.set()
                    self._event = asyncio.Event()
            await asyncio.sleep(self.poll)

    def _problem(self, error: Exception | None) -> None:
        """Say in one plain line (no traceback) when the database cannot be read, once until
        the problem changes, and one line when it can be read again."""
        said = None if error is None else f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        if said == self.problem:
            return
        if said is not None:
            log.warning("Dashboard: cannot read the class's answers now (%s); trying again every "
                        "%g s. The pages show what was read before.", said[:200], self.poll)
        else:
            log.warning("Dashboard: the class's answers can be read again.")
        self.problem = said


class EventsHandler(BaseHandler):
    """Server-Sent Events: a message each time the data changes (and a comment every 15 s)."""

    @tornado.web.authenticated
    async def get(self):
        self.set_header("Content-Type", "text/event-stream")
        watcher: Watcher = self.application.settings["watcher"]
        seen = None
        last_write = time.monotonic()
        watcher.clients += 1
        try:
            if watcher.version is None:  # the first look at the database: wait for it
                await watcher.changed(timeout=10)
            while True:
                version = watcher.version
                if version is not None and version != seen:
                    seen = version
                    self.write(f"data: {json.dumps(str(version))}\n\n")
                    await self.flush()
                    last_write = time.monotonic()
                elif time.monotonic() - last_write > KEEPALIVE_SECONDS:
                    self.write(": still here\n\n")
                    await self.flush()
                    last_write = time.monotonic()
                await watcher.changed(timeout=5)
        except tornado.iostream.StreamClosedError:
            pass
        finally:
            watcher.clients -= 1
