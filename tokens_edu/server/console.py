"""The teacher's console: our own short lines, without the chatty ones of Jupyter and Voila.

Lines start with ``[tokens-edu]``. The status lines are written by :mod:`.watch`; a bad request
gives one access-log line (:class:`~.handlers.PlainErrors`). :class:`DropKnownNoise` drops
lines that say nothing a teacher can act on. :class:`PageVoice` keeps what pages send (a
message type Jupyter refuses, a channel that does not exist...) from taking over the console:
at most one line per kind per page per minute, control characters escaped, never shaped like
the server's own lines.
"""

from __future__ import annotations

import contextvars
import logging
import sys
import time

__all__ = ["DropKnownNoise", "PageVoice", "from_page", "plain_text", "quiet_logs", "silence",
           "log", "VOICE"]

log = logging.getLogger("tokens-edu")

#: The page (its kernel id) whose message the server is handling now, or None.
_from_page: contextvars.ContextVar = contextvars.ContextVar("tokens_edu_from_page", default=None)


def from_page(kernel_id: str | None):
    """Context: lines logged meanwhile carry what the page of ``kernel_id`` sent
    (:class:`PageVoice` treats them so). ``with from_page(kid): ...``"""
    return _FromPage(kernel_id)


class _FromPage:
    def __init__(self, kernel_id):
        self.kernel_id, self.token = kernel_id, None

    def __enter__(self):
        self.token = _from_page.set(self.kernel_id or "?")

    def __exit__(self, *exc):
        _from_page.reset(self.token)
        return False


#: How many characters of a page's text one line shows at most.
PAGE_TEXT_MAX = 160


def plain_text(text: object, limit: int = PAGE_TEXT_MAX) -> str:
    """``text`` as one safe console line: control characters (escape codes, new lines, carriage
    returns, ...) written as ``\\x1b``, ``\\n``..., ``[tokens-edu]`` written ``(tokens-edu)``, cut to
    ``limit`` characters."""
    out = []
    for ch in str(text):
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif code < 32 or code == 127 or 0x80 <= code < 0xA0 or ch in "\u2028\u2029":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, f"\\x{code:02x}" if code < 256
                                                                else f"\\u{code:04x}"))
        else:
            out.append(ch)
    line = "".join(out).replace("[tokens-edu]", "(tokens-edu)")
    return line if len(line) <= limit else line[: limit - 3] + "..."


class PageVoice(logging.Filter):
    """Lines logged while the server handles what a page sent (:func:`from_page`): at most one
    per kind (the line of code that logs it) per page per ``every`` seconds, with the page's
    text made plain (:func:`plain_text`) and said to come from a page.

    One instance is shared by every logger and handler it is added to; a line is judged once.
    """

    def __init__(self, every: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.every, self.clock = float(every), clock
        self.last: dict[tuple, float] = {}
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        judged = getattr(record, "_tokens_voice", None)
        if judged is not None:
            return judged
        page = _from_page.get()
        if page is None:
            record._tokens_voice = True
            return True
        now = self.clock()
        key = (page, record.name, record.pathname, record.lineno)
        last = self.last.get(key)
        keep = last is None or now - last >= self.every
        if keep:
            if len(self.last) > 5000:  # old pages: forget what is past its minute
                self.last = {k: t for k, t in self.last.items() if now - t < self.every}
            self.last[key] = now
            text = plain_text(record.getMessage())
            record.msg, record.args = "A page sent something the server ignored (page %s): %s", (
                str(page)[:8], text)
            record.exc_info = record.exc_text = None
        else:
            self.dropped += 1
        record._tokens_voice = keep
        return keep


#: The one :class:`PageVoice` of this process.
VOICE = PageVoice()


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
        logging.getLogger(name).addFilter(VOICE)
    for handler in logging.getLogger().handlers:
        handler.addFilter(VOICE)
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
