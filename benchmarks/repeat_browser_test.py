"""Run one browser test (or any test) N times in a row, optionally under a CPU load, and count passes.

A browser test must pass every time, also on a busy computer (issue 26: each browser test
passes 20 runs in a row at a 1-minute load of 6 on 2 cores). This script runs the chosen
test(s) ``--runs`` times (default 20), each run a fresh ``python -m pytest`` process, while
``--load N`` busy processes (a tight loop each, at the test's priority) keep the CPUs loaded. On a
computer already busy with other work, give no ``--load`` and read the load it prints.
It prints each run's result and time, then the pass count, the run times (min / median / max)
and the 1-minute load average (min / median / max, read after each run). The first failure's
last lines are printed too; ``--stop`` ends at the first failure.

Usage::

    .venv/bin/python benchmarks/repeat_browser_test.py tests/widgets/test_browser.py::test_x [--runs 20] [--load 6]

Anything after ``--`` goes to pytest (e.g. ``-- -p no:randomly``). Exits 1 unless every run passed.
Run it from the project's folder; ``PYTHONPATH`` and ``TOKENS_EDU_PURE_PYTHON`` are passed on.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUSY = "import os, sys\nos.nice(int(sys.argv[1]))\nwhile True:\n    pass\n"


def start_load(n: int, nice: int = 0) -> list[subprocess.Popen]:
    """``n`` processes that each keep one CPU busy, at the same priority as the test (``nice``
    0): the test gets its share of the CPUs as on a computer doing other work."""
    return [subprocess.Popen([sys.executable, "-c", BUSY, str(nice)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for _ in range(n)]


def stop_load(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def triple(values: list[float], fmt: str = "{:.1f}") -> str:
    """min / median / max of ``values``."""
    if not values:
        return "-"
    return " / ".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="test ids, e.g. tests/widgets/test_browser.py::test_name")
    parser.add_argument("--runs", type=int, default=20, help="how many runs (default 20)")
    parser.add_argument("--load", type=int, default=0, help="busy processes to start for the whole time (default 0)")
    parser.add_argument("--nice", type=int, default=0, help="the busy processes' niceness (default 0: as the test)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one run may take (default 1800)")
    parser.add_argument("--stop", action="store_true", help="stop at the first failure")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.load < 0:
        parser.error("--runs must be at least 1 and --load at least 0")

    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist", *args.tests, *extra]
    print(f"== {args.runs} runs of: {' '.join(cmd[1:])}")
    print(f"== load: {args.load} busy processes; {os.cpu_count()} CPUs; 1-minute load now {os.getloadavg()[0]:.1f}")
    load = start_load(args.load, args.nice)
    passed, times, loads, first_failure = 0, [], [], None
    try:
        if args.load:
            time.sleep(5)  # let the busy processes start
        for run in range(1, args.runs + 1):
            t0 = time.monotonic()
            try:
                out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=args.timeout)
                ok, tail = out.returncode == 0, (out.stdout + out.stderr).strip().splitlines()[-25:]
                why = f"exit {out.returncode}"
            except subprocess.TimeoutExpired:
                ok, tail, why = False, [], f"took over {args.timeout:.0f} s"
            took = time.monotonic() - t0
            times.append(took)
            loads.append(os.getloadavg()[0])
            passed += ok
            print(f"run {run:2d}: {'pass' if ok else 'FAIL (' + why + ')'} in {took:.1f} s, load {loads[-1]:.1f}",
                  flush=True)
            if not ok and first_failure is None:
                first_failure = tail
                print("   " + "\n   ".join(tail))
                if args.stop:
                    break
    finally:
        stop_load(load)
    print(f"== passed {passed} of {len(times)} runs")
    print(f"== run time s (min / median / max): {triple(times)}")
    print(f"== 1-minute load (min / median / max): {triple(loads)} on {os.cpu_count()} CPUs, {args.load} busy processes")
    return 0 if passed == len(times) == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
