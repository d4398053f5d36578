"""Save limits that cannot be aimed at a classmate, with a wait that is told truthfully.

A student (or a script) pressing Save as fast as possible must not fill the database, so each
kind of work has limits, as (saves, seconds) pairs (e.g. 10 a minute and 60 an hour). They count:

* **per browser** (the hash of the page's browser secret, :class:`~tokens_edu.store.Writer`'s
  ``browser``), whatever name it types: Eve saving under "Bo" ten times a minute is refused
  herself, and Bo's own saves from his browser go on (issue 29 part 3). Before, the limits
  counted per name, so Eve could block Bo for an hour;
* for a writer without a browser (a notebook, a page whose front end has not spoken yet): the
  rows of that name written without a browser;
* and per page (one store object), in memory, whatever names it types.

When a limit is reached the student reads :func:`too_fast_message`: how long to wait, rounded
up, computed from the saves that fill the window (the oldest of them must leave it).
"""

from __future__ import annotations

import math
import time
from collections import deque
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa

from .writer import Writer

__all__ = ["TooFast", "too_fast_message", "check_page", "check_writer"]


class TooFast(ValueError):
    """Saving too often; the message says how long to wait. ``wait`` is that time in seconds."""

    def __init__(self, wait: float):
        self.wait = max(0.0, float(wait))
        super().__init__(too_fast_message(self.wait))


def too_fast_message(wait: float) -> str:
    """What a student reads when saving too often: the wait in words, rounded up.

    Args:
        wait: seconds until a save is allowed again (>= 0).

    Returns:
        str: e.g. "You are saving very often. Wait 15 seconds, then press Save again. Your
        words are still in the box." (up to 50 seconds: to the next 5 seconds; then whole
        minutes, rounded up: "a minute", "12 minutes").
    """
    if wait <= 50:
        words = f"{max(5, 5 * math.ceil(wait / 5))} seconds"
    else:
        minutes = math.ceil(wait / 60)
        words = "a minute" if minutes == 1 else f"{minutes} minutes"
    return (f"You are saving very often. Wait {words}, then press Save again. Your words are "
            "still in the box.")


def check_page(limits, times: deque, now: float | None = None) -> None:
    """Refuse a save over ``limits`` by one page.

    Args:
        limits: (saves, seconds) pairs.
        times: the page's earlier saves' :func:`time.monotonic` times, oldest first (old ones are
            dropped here).
        now: the monotonic time now (None: :func:`time.monotonic`).

    Raises:
        TooFast: a limit is reached; ``wait`` is until the save that fills it leaves its window.
    """
    now = time.monotonic() if now is None else now
    longest = max(seconds for _, seconds in limits)
    while times and now - times[0] > longest:
        times.popleft()
    waits = []
    for most, seconds in limits:
        inside = [t for t in times if now - t <= seconds]
        if len(inside) >= most:
            waits.append(inside[len(inside) - most] + seconds - now)
    if waits:
        raise TooFast(max(waits))


def check_writer(conn, table: sa.Table, writer: Writer, limits) -> None:
    """Refuse a save over ``limits`` by ``writer``'s browser (see the module's words), counted
    by the database over every page and kernel.

    Args:
        conn: an open connection (the save's own transaction).
        table: the table saved to (``saved_at``, ``browser``, ``student`` columns).
        writer: who saves.
        limits: (saves, seconds) pairs.

    Raises:
        TooFast: a limit is reached, with the true wait.
    """
    at = datetime.now(timezone.utc)
    longest = max(seconds for _, seconds in limits)
    if writer.browser:
        mine = [table.c.browser == writer.browser]
    else:
        mine = [table.c.browser == "", table.c.student == writer.name]
    counts = [sa.func.coalesce(sa.func.sum(sa.case((table.c.saved_at > at - timedelta(seconds=s), 1),
                                                   else_=0)), 0) for _, s in limits]
    found = conn.execute(sa.select(*counts).where(*mine, table.c.saved_at > at - timedelta(seconds=longest))).one()
    waits = []
    for n, (most, seconds) in zip(tuple(found), limits):
        if n >= most:
            # the save that fills the window: the most-th newest; the window frees when it leaves
            edge = conn.execute(sa.select(table.c.saved_at)
                                .where(*mine, table.c.saved_at > at - timedelta(seconds=seconds))
                                .order_by(table.c.saved_at.desc()).offset(most - 1).limit(1)).scalar()
            if edge is not None and edge.tzinfo is None:
                edge = edge.replace(tzinfo=timezone.utc)
            waits.append((edge + timedelta(seconds=seconds) - at).total_seconds() if edge else seconds)
    if waits:
        raise TooFast(max(waits))
