"""The teacher's console: our own short lines, without the chatty ones of Jupyter and Voila.

Lines start with ``[tokens-edu]``. The status lines are written by :mod:`.watch`; a bad request
gives one access-log line (:class:`~.handlers.PlainErrors`). :class:`DropKnownNoise` drops
lines that say nothing a teacher can act on.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["DropKnownNoise", "quiet_logs", "silence", "log"]

log = logging.getLogger("tokens-edu")


class DropKnownNoise(logging.Filter):
    """Lines that say nothing a teacher can act on, dropped from the console."""

    NOISE = (
        # jupyter_server 2 asks Tornado 6.5+ for a websocket ping timeout longer than the ping
        # interval; Tornado warns at the first page. Nothing is wrong for the class.
        "cannot be longer than the websocket_ping_interval",
        # After a restart every student's browser still holds the old server's login cookie;
        # the server clears it and goes on (one WARNING per student, nothing to act on).
        "Clearing invalid/expired login cookie",
        # A closed laptop's page stops answering its websocket's pings and is closed: its kernel
        # is given back later by the watch, which counts it in its status line.
        "WebSocket ping timeout",
        # nbclient waited 30 s for a cell's last outputs while warm kernels were starting on a
        # busy computer; nothing to act on (the page still opens; a reload re-runs the lesson).
        "Timeout waiting for IOPub output",
        # A warm kernel given back while it still runs its lesson (nobody needs it any more),
        # or a student's kernel stopped by the server: nbclient and jupyter_client say so.
        "Kernel died while waiting for execute reply",
        "Could not destroy zmq context",
    )

    #: Exceptions that, logged with "Error at server while executing cell", only say that the
    #: kernel running the cell was stopped (a warm kernel given back while it pre-rendered its
    #: lesson: ~20 traceback lines each on the teacher's console, seen in benchmarks/class_load.py).
    STOPPED_KERNEL = ("DeadKernelError",)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(text in message for text in self.NOISE):
            return False
        if record.exc_info and "while executing cell" in message:
            kind = getattr(record.exc_info[0], "__name__", "")
            return kind not in self.STOPPED_KERNEL
        return True


def quiet_logs() -> None:
    """Our own short lines on stderr; known noise dropped from Tornado's and the app's loggers."""
    noise = DropKnownNoise()
    for name in ("tornado.general", "tornado.application", "tornado.access", "ServerApp", "Voila"):
        logging.getLogger(name).addFilter(noise)
    if not any(getattr(h, "_tokens_edu", False) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("[tokens-edu] %(message)s"))
        handler._tokens_edu = True
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def silence() -> None:
    """From now on nothing but our own lines (the server is stopping: requests cut short,
    kernels stopped mid-cell and tasks cancelled are expected, not news for the teacher)."""
    logging.disable(logging.CRITICAL)
    # The app's own logger writes through the root logger's handlers too.
    for handler in logging.getLogger().handlers:
        handler.setLevel(logging.CRITICAL + 1)
