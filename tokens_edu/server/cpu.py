"""A fair share of the processor for each page: a page that floods its kernel with work (lesson
10's Train button pressed a hundred times, a script) slows its own page, not the class.

Every student's kernel runs on the same few cores. Linux shares them out among *threads* by
their weight (their nice value), so what this module does is give each kernel the right weight
and the right number of threads:

* **One thread of number crunching per kernel** (:func:`kernel_env`): NumPy's and PyTorch's
  maths libraries start a thread per core in every process; 30 kernels on 2 cores each asking for
  both cores is what let six training pages slow a classmate's batch threefold. The variables
  ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``... are set to 1 for the kernels (a teacher's own
  value is kept).
* **Kernels below the server** (:data:`KERNEL_NICE`): every kernel runs at nice 5, so the server
  (which sends every page its pages and messages) is served first.
* **A busy kernel drops to the back** (:class:`CpuShare`, run by the watch every few seconds):
  a kernel that used more than ``busy_share`` (a fifth) of one core since the last look goes to nice 15
  (:data:`BUSY_NICE`): it weighs about a tenth of a quiet kernel, so while it works the others
  are barely slowed, and alone on the computer it still runs at full speed.

What the system cannot do here, and why (Linux, as a normal user):

* **A kernel never comes back from the back.** Lowering a nice value needs administrator rights
  (``CAP_SYS_NICE``, or ``RLIMIT_NICE``), so a kernel that was busy stays at nice 15 until its
  page closes. That costs it nothing while the computer is idle.
* **No hard cap.** A nice value shares the processor; it never reserves a part of it. A hard
  per-kernel limit needs cgroups (``systemd-run --user --scope -p CPUQuota=50%``, or JupyterHub's
  ``SystemdSpawner``), which need a systemd user session; ``RLIMIT_CPU`` would *kill* a kernel
  after some seconds of work, which loses the page. ``os.sched_setaffinity`` only moves the
  problem to another core.
* **Other systems.** On macOS the same calls work; on Windows there are no nice values and this
  module does nothing.

Standard library only: the Voila process imports this module.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable

__all__ = ["CpuShare", "kernel_env", "cpu_seconds", "nice_of", "renice", "THREAD_VARS",
           "KERNEL_NICE", "BUSY_NICE", "BUSY_SHARE"]

log = logging.getLogger("tokens-edu")

#: The maths libraries' thread counts, for every kernel.
THREAD_VARS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "NUMEXPR_NUM_THREADS": "1", "VECLIB_MAXIMUM_THREADS": "1"}
#: Every kernel's nice value (the server's is 0: it goes first).
KERNEL_NICE = 5
#: A kernel that was busy (see :class:`CpuShare`).
BUSY_NICE = 15
#: A kernel using more than this share of one core between two looks is busy.
#: Six pages flooding 2 cores get about a third of a core each on a quiet server (half a core
#: caught none of them); with other work running they get less: at a load of 7-10,
#: benchmarks/cpu_share.py saw each get under a fifth, and none was moved (a known limit).
BUSY_SHARE = 0.2

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def kernel_env(env: dict) -> dict:
    """``env`` (the server's environment, which its kernels inherit) with one maths thread per
    kernel (:data:`THREAD_VARS`), unless the teacher set a value. Changes and returns ``env``."""
    for name, value in THREAD_VARS.items():
        env.setdefault(name, value)
    return env


def cpu_seconds(pid: int) -> float | None:
    """The processor time process ``pid`` has used (all its threads, user and system), in
    seconds, or None when it cannot be read (gone, or not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def _threads(pid: int) -> list[int]:
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except (OSError, ValueError):
        return [pid]


def nice_of(pid: int) -> int | None:
    """The nice value of process ``pid``'s main thread, or None when it is gone."""
    try:
        return os.getpriority(os.PRIO_PROCESS, pid)
    except (OSError, AttributeError):
        return None


def renice(pid: int, value: int) -> bool:
    """Set the nice value of every thread of process ``pid`` to ``value`` (Linux keeps one per
    thread; threads started later inherit their starter's). Never lowers one (a normal user
    cannot). Returns True when the process's threads are at ``value`` or above now."""
    ok = True
    for tid in _threads(pid):
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < value:
                os.setpriority(os.PRIO_PROCESS, tid, value)
        except (OSError, AttributeError):
            ok = False
    return ok


class CpuShare:
    """Each look (:meth:`look`) puts new kernels at :data:`KERNEL_NICE` and kernels that were busy
    since the last look at :data:`BUSY_NICE` (see the module's words).

    Args:
        busy_share: the share of one core above which a kernel is busy (0.2: a fifth of a core).
        base: every kernel's nice value.
        busy: a busy kernel's nice value.
        clock: seconds, for the time between looks.
    """

    def __init__(self, busy_share: float = BUSY_SHARE, base: int = KERNEL_NICE,
                 busy: int = BUSY_NICE, clock=time.monotonic):
        self.busy_share, self.base, self.busy, self.clock = float(busy_share), base, busy, clock
        self.seen: dict[int, tuple[float, float]] = {}  # pid -> (clock, cpu seconds) last look
        self.known: set[int] = set()  # kernels put at the base nice value
        self.slowed: set[int] = set()

    def look(self, kernels: Iterable[int], watched: Iterable[int] | None = None) -> list[int]:
        """Look at the kernels' processes (ids): new ones go to :data:`KERNEL_NICE`; those of
        ``watched`` (default: all) that were busy since their last look go to the back.
        Returns the ones moved to the back this time.

        Only kernels of pages a student has open should be watched: a warm kernel running its
        lesson, or a page's kernel before its page is served, works hard for good reason.
        """
        now = self.clock()
        kernels = list(kernels)
        watched = set(kernels if watched is None else watched)
        moved = []
        alive = set()
        for pid in set(kernels) | watched:
            used = cpu_seconds(pid)
            if used is None:
                continue
            alive.add(pid)
            if pid not in self.seen and pid not in self.known:
                renice(pid, self.base)
                self.known.add(pid)
            if pid not in watched:
                self.seen.pop(pid, None)
                continue
            last = self.seen.get(pid)
            self.seen[pid] = (now, used)
            if pid in self.slowed:
                renice(pid, self.busy)  # threads it started since
                continue
            wall = now - last[0] if last is not None else 0.0
            if wall > 0 and (used - last[1]) / wall > self.busy_share:
                renice(pid, self.busy)
                self.slowed.add(pid)
                moved.append(pid)
        for pid in list(self.known):
            if pid not in alive:
                self.known.discard(pid)
                self.seen.pop(pid, None)
                self.slowed.discard(pid)
        if moved:
            log.debug("Kernels busy since the last look, now behind the others: %s", moved)
        return moved
