"""One long job at a time per page, run in the background: :class:`OneAtATime`.

Lesson 10's buttons play games for a second or more (a batch of training, a test, the copy's
games). Run in the click's own handler, every click a page sends is queued by the kernel and
each one then runs in turn: six queued clicks are six batches, and a script flooding a page's
button keeps the lesson server busy for as long as it likes (issue 29 part 7). Here the work runs
in a background thread, so the kernel reads the next message at once, and a click that arrives
while a job runs is ignored: one job at a time per page, whatever the page sends.

Every lab of a page shares the page's runner (:func:`page_runner`: one per kernel, and a kernel
is one page), so a test started while a batch plays is ignored too.

Widgets may be changed from the job's thread: ipywidgets sends each change to the page as it is
made (the kernel's output channel takes messages from any thread).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["OneAtATime", "page_runner"]

log = logging.getLogger(__name__)


class OneAtATime:
    """Runs one job at a time, in a background thread (or in the caller's, for scripts).

    Args:
        background: False runs each job in the caller's thread (a script, a notebook cell
            that wants the result at once); the one-at-a-time rule still holds.

    Attributes:
        ignored: how many jobs were refused because another one was running.
        runs: how many jobs were started.
    """

    def __init__(self, background: bool = True):
        self.background = background
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.ignored = 0
        self.runs = 0

    @property
    def running(self) -> bool:
        """True while a job runs."""
        return self._lock.locked()

    def start(self, work: Callable[[], object], done: Callable[[object], None] | None = None,
              failed: Callable[[BaseException], None] | None = None) -> bool:
        """Run ``work()`` unless a job is running; then ``done(result)``, or ``failed(error)``
        when it raised (both in the job's thread; an error in them is logged).

        Returns:
            True when the job was started (in the background it may still be running), False
            when another job was running: nothing was done.
        """
        if not self._lock.acquire(blocking=False):
            self.ignored += 1
            return False
        self.runs += 1

        def run() -> None:
            try:
                try:
                    result = work()
                except Exception as error:  # noqa: BLE001 (reported to failed, never lost)
                    log.exception("A page's background job failed")
                    if failed is not None:
                        failed(error)
                else:
                    if done is not None:
                        done(result)
            except Exception:  # noqa: BLE001 (a callback's own error)
                log.exception("A page's background job: its callback failed")
            finally:
                self._lock.release()

        if not self.background:
            run()
            return True
        self._thread = threading.Thread(target=run, name="tokens-edu-page-job", daemon=True)
        self._thread.start()
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running job (tests, scripts). Returns True when none is running."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not self.running


_PAGE_RUNNER: OneAtATime | None = None
_MADE = threading.Lock()


def page_runner() -> OneAtATime:
    """The kernel's runner, shared by every lab of its page (one kernel serves one page)."""
    global _PAGE_RUNNER
    with _MADE:
        if _PAGE_RUNNER is None:
            _PAGE_RUNNER = OneAtATime()
        return _PAGE_RUNNER
