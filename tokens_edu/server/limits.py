"""Limits that keep one page from growing without bound (issue 29.1): the size of a websocket
message, and the memory of one kernel.

* **A websocket message** from a page is at most :data:`WS_MAX_BYTES` (1 MiB): Tornado closes a
  connection that sends a bigger one (code 1009, "message too big") before reading it into
  memory. The largest message a lesson's widgets send is far smaller: a Discuss answer is at
  most 20,000 characters (:mod:`tokens_edu.widgets.bounds`), about 80 KB even in four-byte
  characters. Jupyter's default is 10 MiB a message, read whole into the server's memory.
* **A kernel's memory** is capped twice. Its data segment is limited by the operating system
  (``RLIMIT_DATA``, :data:`KERNEL_DATA_MIB`, set in the kernel's process before it starts: a
  bigger allocation fails with ``MemoryError`` instead of taking the computer's memory), and
  the server's watch stops a kernel whose resident memory passes :data:`KERNEL_STOP_MIB`
  (:func:`over_memory`), counting it and saying so once on the console. Its page then says
  :data:`MEMORY_TEXT` with a Reload button (the page guard, :mod:`.pages`); the other
  students' pages go on.

A lesson kernel uses about 60-75 MiB (:mod:`.memory`); lesson 10's training, the largest, stays
under 300 MiB. Standard library only: the Voila process imports this module.
"""

from __future__ import annotations

import logging
import os

__all__ = ["WS_MAX_BYTES", "KERNEL_DATA_MIB", "KERNEL_STOP_MIB", "MEMORY_TEXT",
           "limit_kernel_memory", "rss_mib", "over_memory"]

log = logging.getLogger("tokens-edu")

#: The biggest websocket message a page may send (bytes).
WS_MAX_BYTES = 1024 * 1024
#: A kernel's data segment at most (MiB, ``RLIMIT_DATA``): allocations past it fail. It counts
#: reserved memory too (each thread's stack, a maths library's buffers per core), so it sits well
#: above what a kernel really uses; the watch's :data:`KERNEL_STOP_MIB` is the working limit.
KERNEL_DATA_MIB = 2048
#: A kernel whose resident memory passes this (MiB) is stopped by the server's watch.
KERNEL_STOP_MIB = 768
#: What a page whose kernel was stopped for its memory says (with a Reload button).
MEMORY_TEXT = ("This page used too much of the computer's memory, so it was stopped. Your saved "
               "answers are kept: press Reload to get a new page. If you typed something that is "
               "not saved yet, copy it first.")


def limit_kernel_memory(mib: int = KERNEL_DATA_MIB):
    """A ``preexec_fn`` for a kernel's process: its data segment is limited to ``mib`` MiB.

    Runs in the new process before the kernel starts (Linux ``RLIMIT_DATA`` counts the heap and
    private memory maps: a NumPy array, a Python list); elsewhere it does nothing.

    Returns:
        a function of no arguments, or None when there is no such limit here.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    limit = getattr(resource, "RLIMIT_DATA", None)
    if limit is None or not mib:
        return None
    size = int(mib) * 1024 * 1024

    def apply() -> None:  # pragma: no cover - runs in the child process
        try:
            soft, hard = resource.getrlimit(limit)
            top = size if hard == resource.RLIM_INFINITY else min(size, hard)
            resource.setrlimit(limit, (top, hard if hard != resource.RLIM_INFINITY else top))
        except (ValueError, OSError):
            pass

    return apply


def rss_mib(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB (Linux ``/proc/PID/statm``), or None."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


def over_memory(km, kernel_ids, stop_mib: float = KERNEL_STOP_MIB) -> list[str]:
    """The kernels among ``kernel_ids`` whose resident memory is above ``stop_mib`` MiB."""
    over = []
    for kernel_id in kernel_ids:
        pid = km.kernel_pid(kernel_id) if hasattr(km, "kernel_pid") else None
        mib = rss_mib(pid) if pid else None
        if mib is not None and mib > stop_mib:
            over.append(kernel_id)
    return over
