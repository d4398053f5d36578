"""Simulation benchmark: Greedy-vs-Greedy games per second with 1 and with 2 processes.

Plays the same seeded games with ``tokens_edu.simulate`` in one process and in two, checks the
two tables are identical, and prints games/s for each and the ratio (2 processes / 1), with the
CPU time used: "cores used" below 2 with 2 processes means the machine did not give the run two
cores (other work; Linux shares the CPU per session when autogroup is on), not that the games
ran badly in parallel.
Targets (issue 12) on a 2-core machine: ratio >= 1.7, and 10,000 games in <= 5 s once the
engine plays >= 2,000 Greedy games/s on one core. On a shared machine the figures are noisy:
run with --repeat 3 and read the median.

Usage: python benchmarks/simulate.py [--games 10000] [--repeat 1] [--decks Green-Blue Black-Red]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from tokens_edu import simulate


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the pool's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(decks, games: int, processes: int, seed: int):
    """One run: (wall seconds, CPU seconds, table)."""
    start, cpu = time.perf_counter(), _cpu()
    table = simulate(decks[0], decks[1], games, bots=("greedy", "greedy"), seed=seed,
                     processes=processes, progress=False)
    return time.perf_counter() - start, _cpu() - cpu, table


def main() -> None:
    """Run the benchmark and print one line per process count, then the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per process count (min/median/max shown)")
    ap.add_argument("--decks", nargs=2, default=["Green-Blue", "Black-Red"], metavar="DECK")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"simulate: {args.games:,} Greedy-vs-Greedy games, {args.decks[0]} vs {args.decks[1]}, "
          f"{args.repeat} run(s) each; {os.cpu_count()} cores, load average {load:.1f} at the start")
    rates: dict[int, list[float]] = {}
    per_cpu: dict[int, list[float]] = {}
    tables = {}
    for processes in (1, 2):
        for run in range(args.repeat):
            seconds, cpu, table = timed(args.decks, args.games, processes, args.seed)
            rates.setdefault(processes, []).append(args.games / seconds)
            per_cpu.setdefault(processes, []).append(args.games / cpu)
            tables[processes] = table
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            # cores used = CPU seconds / wall seconds: below the process count, the machine
            # did not give the run that many cores (other work, or CPU shared per session)
            print(f"  run {run + 1}, {processes} process{'es' if processes > 1 else ''}: {args.games / seconds:8.1f} games/s "
                  f"({seconds:.1f} s, {args.games / cpu:.1f} games per CPU second, {cpu / seconds:.2f} cores used; "
                  f"load average {load:.1f} now)", flush=True)
        r = sorted(rates[processes])
        print(f"{processes} process{'es' if processes > 1 else '  '}: {statistics.median(r):8.1f} games/s "
              f"(min {r[0]:.1f}, max {r[-1]:.1f}); {args.games / statistics.median(r):6.1f} s for the games")
    same = tables[1].equals(tables[2])
    ratio = statistics.median(rates[2]) / statistics.median(rates[1])
    print(f"ratio 2/1 processes: {ratio:.2f} (target >= 1.7); tables identical: {same}")
    # On a shared machine the wall-clock ratio measures the other work, not this code. The
    # games per CPU second do not depend on how many cores the run got: two processes that each
    # play as many games per CPU second as one would reach 2x on two free cores, so this
    # estimate says what the parallel part costs (pool start-up, sending decks and rows).
    cpu1, cpu2 = statistics.median(per_cpu[1]), statistics.median(per_cpu[2])
    print(f"games per CPU second: 1 process {cpu1:.0f}, 2 processes {cpu2:.0f} (medians); "
          f"ratio on two free cores, estimated from them: {2 * cpu2 / cpu1:.2f}")
    if not same:
        raise SystemExit("The tables differ between 1 and 2 processes: that is a bug.")


if __name__ == "__main__":
    main()
