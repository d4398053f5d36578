"""The dashboard's watcher (tokens_edu.teacher.live): a database it cannot read is said in one
plain line, not a traceback every second (issue 20 part 8: a damaged database gives one plain
line), and once more when it can be read again."""

from __future__ import annotations

import asyncio
import logging

import sqlalchemy.exc

from tokens_edu.teacher.live import Watcher


class Flaky:
    """A ClassData stand-in: refresh fails for the first ``bad`` looks, then works."""

    def __init__(self, bad: int):
        self.bad, self.looks = bad, 0

    def refresh(self) -> int:
        self.looks += 1
        if self.looks <= self.bad:
            raise sqlalchemy.exc.OperationalError("SELECT", {}, Exception("database disk image is malformed"))
        return self.looks


def test_an_unreadable_database_is_said_once_in_plain_words(caplog):
    async def run():
        watcher = Watcher(Flaky(bad=6), poll=0.01)
        watcher.clients = 1
        watcher.start()
        while watcher.version is None:
            await asyncio.sleep(0.01)
        watcher._task.cancel()
        return watcher

    with caplog.at_level(logging.WARNING, logger="tokens_edu.teacher.live"):
        watcher = asyncio.run(run())
    lines = [r for r in caplog.records if r.name == "tokens_edu.teacher.live"]
    assert [r.exc_info for r in lines] == [None, None]  # no traceback
    assert "cannot read the class's answers now" in lines[0].getMessage()
    assert "malformed" in lines[0].getMessage() and "\n" not in lines[0].getMessage()
    assert "can be read again" in lines[1].getMessage()
    assert watcher.problem is None and watcher.version == 7
