"""Start-up benchmark (issue 26 part 4, issue 31 part 2): the CPU time a fresh process takes for
``import tokens_edu``, ``tokens-edu --help`` and ``tokens-edu simulate DECK DECK -n 1``.

Each command runs ``--repeat`` times in a fresh process, the commands interleaved; a run's CPU
time is the child's user + system time (``resource.getrusage(RUSAGE_CHILDREN)``), so other work
on a shared machine slows it less than the wall clock (it still costs a busy machine's caches
something). Figures are min / median / max, with the 1-minute load average beside each line.
Target (issue 31): ``tokens-edu simulate -n 1`` under 0.3 s of CPU. The bare Python start
(``python -c pass``) is printed too, for scale.

Python's bytecode cache (``__pycache__/*.pyc``) is used, as an installed package has it (pip
writes it at install; the first run of a source checkout writes it): the children run without
``PYTHONDONTWRITEBYTECODE``, after one uncounted run of each command. ``--no-bytecode-cache``
measures the worst case: no cache at all (an empty ``PYTHONPYCACHEPREFIX``, never written), so
every module, the standard library's too, is compiled from its source at each start.

Usage: python benchmarks/startup.py [--repeat 5] [--no-bytecode-cache]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

CLI = "import sys; from tokens_edu.cli import main; sys.exit(main())"
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import tokens_edu": [sys.executable, "-c", "import tokens_edu"],
    "tokens-edu --help": [sys.executable, "-c", CLI, "--help"],
    "tokens-edu simulate -n 1": [sys.executable, "-c", CLI, "simulate", "Green-Blue", "Black-Red", "-n", "1"],
    "tokens-edu simulate -n 1 --no-progress": [sys.executable, "-c", CLI, "simulate", "Green-Blue", "Black-Red",
                                               "-n", "1", "--no-progress"],
}


def cpu_of(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one run of ``cmd`` in a child process (environment ``env``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Run every command ``--repeat`` times, interleaved, and print min / median / max CPU."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="compile every module from its source at each start (no __pycache__ read or written)")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.no_bytecode_cache:  # an empty cache folder, never written: every start compiles
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="tokens-edu-no-pyc-")
    import tokens_edu._compiled as compiled  # (which engine the children run, as they decide it)

    engine = "pure Python" if compiled.pure_requested() else "compiled engine if built"
    cache = "no bytecode cache" if args.no_bytecode_cache else "with Python's bytecode cache"
    print(f"CPU seconds of a fresh process, {args.repeat} runs each, interleaved ({engine}, {cache}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start)", flush=True)
    runs: dict[str, list[float]] = {name: [] for name in COMMANDS}
    loads: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for name, cmd in COMMANDS.items():  # once, not counted: the files in the page cache, .pyc written
        cpu_of(cmd, env)
    for _ in range(args.repeat):
        for name, cmd in COMMANDS.items():
            runs[name].append(cpu_of(cmd, env))
            loads[name].append(os.getloadavg()[0])
    for name, values in runs.items():
        mmm = " / ".join(f"{v:.3f}" for v in (min(values), statistics.median(values), max(values)))
        print(f"  {name:<40} {mmm} s CPU   (load {min(loads[name]):.1f}-{max(loads[name]):.1f})")


if __name__ == "__main__":
    main()
