"""Simulation benchmark (issues 12 and 22): Greedy-vs-Greedy games per second on one process,
on this computer's process pool, and on a local Dask cluster of worker processes.

Plays the same seeded games with ``tokens_edu.simulate`` in one process, with ``processes=2``,
and through a Dask cluster's ``concurrent.futures`` executor (``LocalCluster`` with
``--workers`` worker processes, one thread each: the code path of a school's cluster, on this
computer), checks the tables are identical, and prints games/s for each, the ratios to one
process, and the CPU time this process and its pool used ("cores used" below the process count
means the machine did not give the run that many cores: other work, not the code). The Dask
workers' CPU is not in this process's count; their games/s is wall clock. The load average is
printed before and after each run. On a shared machine the figures are noisy: read the median
of ``--repeat 3``.

Targets: issue 12, ratio >= 1.7 with 2 processes on a 2-core machine; issue 22, 100,000 games
on a local cluster of 2 workers, printed against 1 process.

Usage: python benchmarks/simulate.py [--games 100000] [--repeat 1] [--workers 2]
       [--modes one pool dask] [--decks Green-Blue Black-Red]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from tokens_edu import simulate
from tokens_edu.engine import COMPILED


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the pool's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def timed(decks, games: int, seed: int, processes: int | None = None, executor=None):
    """One run: (wall seconds, CPU seconds of this process and its children, table)."""
    start, cpu = time.perf_counter(), _cpu()
    table = simulate(decks[0], decks[1], games, bots=("greedy", "greedy"), seed=seed,
                     processes=processes, executor=executor, progress=False)
    return time.perf_counter() - start, _cpu() - cpu, table


def main() -> None:
    """Run the benchmark and print one line per run, a summary per mode, then the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per mode (min/median/max shown)")
    ap.add_argument("--workers", type=int, default=2, help="Dask worker processes (default 2)")
    ap.add_argument("--modes", nargs="+", default=["one", "pool", "dask"], choices=["one", "pool", "dask"])
    ap.add_argument("--decks", nargs=2, default=["Green-Blue", "Black-Red"], metavar="DECK")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"simulate: {args.games:,} Greedy-vs-Greedy games, {args.decks[0]} vs {args.decks[1]}, "
          f"{args.repeat} run(s) per mode; engine {'compiled' if COMPILED else 'pure Python'}; "
          f"{os.cpu_count()} cores, load average {_load():.1f} at the start", flush=True)
    rates: dict[str, list[float]] = {}
    tables = {}
    labels = {"one": "1 process", "pool": "2 processes (this computer's pool)",
              "dask": f"Dask LocalCluster, {args.workers} worker processes"}
    for mode in args.modes:
        client = cluster = None
        if mode == "dask":
            from distributed import Client, LocalCluster

            started = time.perf_counter()
            cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
            print(f"  Dask cluster of {args.workers} workers up in {time.perf_counter() - started:.1f} s "
                  "(not counted below)", flush=True)
        try:
            for run in range(args.repeat):
                load0 = _load()
                if mode == "one":
                    seconds, cpu, table = timed(args.decks, args.games, args.seed, processes=1)
                elif mode == "pool":
                    seconds, cpu, table = timed(args.decks, args.games, args.seed, processes=2)
                else:
                    seconds, cpu, table = timed(args.decks, args.games, args.seed, executor=client.get_executor())
                rates.setdefault(mode, []).append(args.games / seconds)
                tables[mode] = table
                used = "" if mode == "dask" else f", {args.games / cpu:,.0f} games per CPU second, {cpu / seconds:.2f} cores used"
                print(f"  run {run + 1}, {labels[mode]}: {args.games / seconds:,.0f} games/s ({seconds:.1f} s{used}; "
                      f"load average {load0:.1f} before, {_load():.1f} after)", flush=True)
        finally:
            if client is not None:
                client.close()
                cluster.close()
        r = sorted(rates[mode])
        print(f"{labels[mode]}: {statistics.median(r):,.0f} games/s (min {r[0]:,.0f}, max {r[-1]:,.0f}); "
              f"{args.games / statistics.median(r):.1f} s for the games", flush=True)
    modes = list(tables)
    same = all(tables[m].equals(tables[modes[0]]) for m in modes)
    if "one" in rates:
        base = statistics.median(rates["one"])
        for m in modes:
            if m != "one":
                print(f"ratio {labels[m]} / 1 process: {statistics.median(rates[m]) / base:.2f}")
    print(f"tables identical across {', '.join(labels[m] for m in modes)}: {same}; load average {_load():.1f} at the end")
    if not same:
        raise SystemExit("The tables differ between runs: that is a bug.")


if __name__ == "__main__":
    main()
