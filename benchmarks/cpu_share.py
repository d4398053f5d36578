"""A classmate's batch beside flooding kernels (issue 29.7): what ``tokens_edu/server/cpu.py``
changes, with plain processes (no server, no browser).

A "batch" is a fixed piece of CPU work in its own process (a loop of ``--work`` million
additions, about what one lesson-10 training batch costs). It is timed three ways, ``--runs``
times each:

1. alone;
2. beside ``--floods`` processes spinning without end, everyone at the same priority (before);
3. the same, but as the lesson server now arranges it: the batch's kernel at nice 5
   (:data:`~tokens_edu.server.cpu.KERNEL_NICE`), the flooding kernels moved behind by
   :class:`~tokens_edu.server.cpu.CpuShare` (nice 15) after its first look.

Prints min/median/max seconds for each and the 1-minute load average before and after. The
machine is shared while we develop: compare the three rows of one run, not runs of two days.

Usage: python benchmarks/cpu_share.py [--floods 6] [--runs 5] [--work 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from tokens_edu.server import cpu

SPIN = "while True: pass\n"


def batch(work: int, nice: int) -> float:
    code = (f"import os, time\nos.nice({nice})\nt = time.perf_counter()\n"
            f"s = 0\nfor i in range({work} * 1_000_000): s += i\n"
            "print(time.perf_counter() - t)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def figures(values: list[float]) -> str:
    return (f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f} s "
            "(min / median / max)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floods", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=int, default=20)
    args = parser.parse_args()
    print(f"load average (1 min) before: {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    rows = {"alone": [], "beside floods, same priority": [],
            "beside floods, server's CPU share": []}
    for _ in range(args.runs):
        rows["alone"].append(batch(args.work, 0))
    floods = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.floods)]
    try:
        time.sleep(1)
        for _ in range(args.runs):
            rows["beside floods, same priority"].append(batch(args.work, 0))
        share = cpu.CpuShare()
        pids = [p.pid for p in floods]
        share.look(pids)
        time.sleep(1)
        share.look(pids)  # each spinner used a core's share: behind the others now
        print(f"flooding processes moved behind: {len(share.slowed)} of {len(pids)}")
        for _ in range(args.runs):
            rows["beside floods, server's CPU share"].append(batch(args.work, cpu.KERNEL_NICE))
    finally:
        for p in floods:
            p.kill()
            p.wait()
    for name, values in rows.items():
        print(f"{name}: {figures(values)}")
    print(f"load average (1 min) after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
