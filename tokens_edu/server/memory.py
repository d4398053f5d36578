"""Memory: what this computer can still give out, and what one lesson kernel really uses.

Both sides of ``tokens-edu serve`` read these: the launcher for its first lines, the Voila side
(:mod:`.pools`, :mod:`.capacity`) to decide how many kernels fit. Standard library only: the
Voila process imports this module.

The memory a kernel uses is **measured** on this computer's own kernels, as proportional set
size (PSS: each shared page split among the processes that share it), the figure that adds up
to what the kernels take from the computer. Before the first measurement the server plans with
:data:`ESTIMATE_MIB`; the last figure measured is kept (:func:`remember_kernel_mib`) for the
next start's first lines.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

__all__ = ["mem_available_mib", "pss_mib", "KernelSize", "ESTIMATE_MIB", "remember_kernel_mib",
           "remembered_kernel_mib"]

#: What a lesson kernel is planned at before this computer's kernels have been measured (MiB).
#: Measured December 2026 on Debian 12, Python 3.11: lesson 01's kernel 58 MiB PSS (74 MiB
#: RSS), a played game of lesson 05 about 75 MiB; the larger one, so no plan is too hopeful.
ESTIMATE_MIB = 75.0


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


def pss_mib(pid: int) -> float | None:
    """Proportional set size of process ``pid`` in MiB (Linux ``/proc/PID/smaps_rollup``), or
    None when it cannot be read (another system, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class KernelSize:
    """The memory one kernel uses, from the latest measurement of this server's kernels.

    Args:
        estimate: MiB to plan with until a kernel has been measured.
    """

    def __init__(self, estimate: float = ESTIMATE_MIB):
        self.estimate = float(estimate)
        self.samples: list[float] = []

    def measure(self, pids) -> int:
        """Measure the kernels with these process ids (those that can be read); when at least
        one could be, they replace the last measurement. Returns how many were measured."""
        samples = [mib for mib in (pss_mib(pid) for pid in pids) if mib is not None and mib > 1]
        if samples:
            self.samples = samples
        return len(samples)

    @property
    def measured(self) -> bool:
        """True once at least one kernel has been measured."""
        return bool(self.samples)

    @property
    def mib(self) -> float:
        """The median of the recent measurements in MiB, or the estimate before any."""
        return statistics.median(self.samples) if self.samples else self.estimate


def _memo_file(folder: Path) -> Path:
    return folder / "kernel-size.json"


def remember_kernel_mib(folder: Path, mib: float) -> None:
    """Keep the measured figure in ``folder`` (the user's kernel-files folder) for the next
    start's first lines. Never raises."""
    try:
        _memo_file(folder).write_text(json.dumps({"kernel_mib": round(mib, 1), "at": time.time()}))
    except OSError:
        pass


def remembered_kernel_mib(folder: Path) -> float | None:
    """The figure :func:`remember_kernel_mib` kept, or None (never measured, or unreadable)."""
    try:
        value = float(json.loads(_memo_file(folder).read_text())["kernel_mib"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if 1 < value < 10_000 else None
