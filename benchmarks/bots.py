"""Computer players benchmark (issues 11 and 22): SearchBot's speed and strength, the Hint's
delay, LearningBot's learning; compiled and pure Python side by side.

By default every part runs twice at the same time, in two fresh processes: one with the compiled
engine core, one with ``TOKENS_EDU_PURE_PYTHON=1`` (the same source as plain Python), so both see
the same load; then the two are printed side by side. More imagined games in the same 300 ms
should win more games. ``--engine compiled`` or ``pure`` runs one only (in this process).

Prints:
1. speed: SearchBot at its default budget (300 ms) on positions of seeded games: decisions per
   second, seconds per decision and imagined games (rollouts) per decision, min/median/max.
2. strength: SearchBot (default budget) against GreedyBot over ``--games`` seeded games (200),
   seats swapped every game, decks drawn at random from the starter decks: its win rate with a
   95% Wilson interval, and its seconds per decision (min/median/max, the largest of all).
   Targets: win rate >= 65%, every decision <= 0.5 s.
3. learning: LearningBot (all weights 0) against GreedyBot over ``--eval-games`` seat-swapped
   games, then after ``--train-seconds`` (120) of ``tokens_edu.train`` against GreedyBot, again.
   ``--repeat`` runs the learning part again from other seeds (min/median/max). Training speed
   is printed as games trained per minute.
4. hint: the delay from "Show a hint" to the hint in the kernel, as Lesson 7's GameView gives
   it (``benchmarks/thinking_pane.py``, ``--hint-games`` whole games; SearchBot with
   ``HINT_ITERATIONS`` imagined games), min/median/max in milliseconds.

The machine is shared while we develop: time-budget figures depend on the load (fewer imagined
games fit in 300 ms on a busy machine). The load average is printed with each part.

Measured 2026-12-01 on the shared 2-core machine (load average 3 to 400 from other work):
speed (4 runs, 30-60 positions each): 3.2 decisions/s; 0.30/0.30/0.51 s per decision
(min/median/max of the last run); median imagined games per decision 98, 136, 206 (load
16-74) and 780 (load 24, falling).
Strength (4 runs of 200 games, seeds 0-3): 82.0% / 84.0% / 85.5% (min/median/max; 95%
intervals 76.1-86.7%, 78.8-88.9%, 77.7-88.0%, 80.0-89.7%); decisions over 0.5 s: 45, 42, 92
of about 6,100 at load 20-400 (max 0.9-1.7 s: the process waited for a core), 10 of 6,138 at
load 2-4 (max 0.65 s).
Learning (3 runs, 100 games each): 0% before every time; after 120 s 17% / 27% / 29%
(min/median/max; 3,480, 6,580 and 13,500 games trained, by the load); that was the
LearningBot before issue 19: benchmarks/learning.py measures the one that replaced it).

Usage: python benchmarks/bots.py [--part speed strength learning hint] [--games 200] [--processes 2]
       [--budget-ms 300] [--train-seconds 120] [--eval-games 200] [--repeat 1] [--seed 0]
       [--engine both|compiled|pure] [--hint-games 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tokens_edu import Game, starter_decks, train
from tokens_edu.players import GreedyBot, LearningBot, SearchBot
from tokens_edu.lab.simulation import game_seed
from tokens_edu.lab.stats import wilson_interval


def _load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load unknown"


def _mmm(values, fmt="{:.3f}") -> str:
    if not values:
        return "n/a"
    return "/".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


def _deal(seed: int, g: int):
    decks = starter_decks()
    r = random.Random(f"tokens-edu-bench-bots/{seed}/{g // 2}")  # games 2k, 2k+1: same decks, seats swapped
    a, b = r.randrange(len(decks)), r.randrange(len(decks))
    return (decks[a], decks[b]) if g % 2 == 0 else (decks[b], decks[a])


# -- 1. speed -----------------------------------------------------------------------------------------
def speed(budget_ms: int, decisions: int, seed: int) -> dict:
    """Time SearchBot on ``decisions`` positions of seeded Greedy-vs-Greedy games."""
    positions = []
    g = 0
    while len(positions) < decisions:
        d0, d1 = _deal(seed, g)
        game = Game.new(d0, d1, seed=game_seed(seed, g), turn_limit=60)
        greedy = GreedyBot()
        n = 0
        while not game.over:
            if len(game.legal_moves()) > 1 and n % 3 == 0:
                positions.append(game.copy())
            game.push(greedy.choose_move(game))
            n += 1
        g += 1
    positions = positions[:decisions]
    bot = SearchBot(budget_ms=budget_ms, seed=seed)
    secs, rollouts, worlds = [], [], []
    start = time.perf_counter()
    for game in positions:
        t0 = time.perf_counter()
        t = bot.think(game)
        secs.append(time.perf_counter() - t0)
        rollouts.append(t.iterations)
        worlds.append(t.worlds)
    wall = time.perf_counter() - start
    print(f"speed ({_load()}): SearchBot(budget_ms={budget_ms}) on {len(positions)} positions with 2+ moves: "
          f"{len(positions) / wall:.2f} decisions/s")
    print(f"  seconds per decision min/median/max {_mmm(secs)}")
    print(f"  imagined games (rollouts) per decision min/median/max {_mmm(rollouts, '{:.0f}')}, "
          f"imagined deals per decision {_mmm(worlds, '{:.0f}')}")
    return {"secs": secs, "rollouts": rollouts, "per_s": len(positions) / wall}


# -- 2. strength ------------------------------------------------------------------------------------------
def _one_game(args):
    """One Search-vs-Greedy game: (search's points, its decision seconds, its rollouts)."""
    seed, g, budget_ms, iterations = args
    d0, d1 = _deal(seed, g)
    gs = game_seed(seed, g)
    search = SearchBot(budget_ms=budget_ms, iterations=iterations, seed=gs)
    seat = g % 2
    players = (search, GreedyBot()) if seat == 0 else (GreedyBot(), search)
    game = Game.new(d0, d1, seed=gs, turn_limit=100)
    secs, rollouts = [], []
    while not game.over:
        if game.to_act == seat:
            t0 = time.perf_counter()
            move = search.choose_move(game)
            secs.append(time.perf_counter() - t0)
            rollouts.append(search.last.iterations)
        else:
            move = players[game.to_act].choose_move(game)
        game.push(move)
    points = 0.5 if game.winner is None else float(game.winner == seat)
    return points, secs, rollouts


def strength(games: int, processes: int, budget_ms: int, iterations: int | None, seed: int) -> dict:
    """Search vs Greedy over ``games`` seat-swapped games; prints the win rate and interval."""
    jobs = [(seed, g, budget_ms, iterations) for g in range(games)]
    start = time.perf_counter()
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(_one_game, jobs, chunksize=1))
    else:
        results = [_one_game(j) for j in jobs]
    wall = time.perf_counter() - start
    points = sum(r[0] for r in results)
    secs = [s for r in results for s in r[1]]
    rolls = [x for r in results for x in r[2] if x]
    low, high = wilson_interval(points, games)
    over = sum(s > 0.5 for s in secs)
    budget = f"iterations={iterations}" if iterations else f"budget_ms={budget_ms}"
    print(f"strength ({_load()} at the end; {wall:.0f} s on {processes} process(es)): "
          f"SearchBot({budget}) vs GreedyBot, {games} games, seats swapped")
    print(f"  SearchBot win rate {points / games:.1%} (95% interval {low:.1%} to {high:.1%}); "
          f"target >= 65%")
    print(f"  its seconds per decision min/median/max {_mmm(secs)}; decisions over 0.5 s: {over} of {len(secs)}")
    print(f"  its rollouts per searched decision min/median/max {_mmm(rolls, '{:.0f}')}")
    return {"points": points, "games": games, "low": low, "high": high, "secs": secs, "rollouts": rolls,
            "over": over}


# -- 3. learning ----------------------------------------------------------------------------------------
def _match(bot, games: int, seed: int) -> float:
    points = 0.0
    for g in range(games):
        d0, d1 = _deal(seed + 7919, g)
        game = Game.new(d0, d1, seed=game_seed(seed + 7919, g), turn_limit=100)
        seat = g % 2
        players = (bot, GreedyBot()) if seat == 0 else (GreedyBot(), bot)
        while not game.over:
            game.push(players[game.to_act].choose_move(game))
        points += 0.5 if game.winner is None else float(game.winner == seat)
    return points / games


def learning(train_seconds: float, eval_games: int, seed: int) -> tuple[float, float, int]:
    """(win rate before, after, games trained) of a LearningBot against GreedyBot."""
    bot = LearningBot(seed=seed)
    before = _match(bot, eval_games, seed)
    start = time.perf_counter()
    trained = 0
    while time.perf_counter() - start < train_seconds:
        train(bot, "greedy", games=20, seed=seed * 100_000 + trained, progress=False)
        trained += 20
    after = _match(bot, eval_games, seed)
    return before, after, trained


def hint(games: int) -> dict:
    """The Hint's delay in Lesson 7's GameView, from benchmarks/thinking_pane.py (this engine)."""
    script = Path(__file__).resolve().with_name("thinking_pane.py")
    out = subprocess.run([sys.executable, str(script), "--games", str(games)], capture_output=True, text=True,
                         check=True, env=os.environ.copy()).stdout
    line = next(x for x in out.splitlines() if x.startswith("Show a hint"))
    print(f"hint ({_load()}): {line}")
    ms = dict(re.findall(r"(min|median|p95|max) (\d+) ms", line))
    return {"line": line, **{k: float(v) for k, v in ms.items()}}


def _run_parts(args) -> dict:
    """Run the chosen parts with the engine this process runs; print and return their figures."""
    import tokens_edu.engine

    out: dict = {"compiled": tokens_edu.engine.COMPILED}
    if "speed" in args.part:
        out["speed"] = speed(args.budget_ms, args.decisions, args.seed)
    if "strength" in args.part:
        out["strength"] = strength(args.games, args.processes, args.budget_ms, args.iterations, args.seed)
    if "learning" in args.part:
        befores, afters, counts = [], [], []
        for r in range(args.repeat):
            b, a, n = learning(args.train_seconds, args.eval_games, args.seed + r)
            befores.append(b), afters.append(a), counts.append(n)
            print(f"learning run {r + 1} ({_load()}): LearningBot vs GreedyBot, {args.eval_games} games: "
                  f"{b:.1%} before, {a:.1%} after {args.train_seconds:.0f} s of training ({n} games, "
                  f"{n / args.train_seconds * 60:,.0f} games a minute)")
        if args.repeat > 1:
            print(f"  win rate before min/median/max {_mmm(befores, '{:.1%}')}, "
                  f"after {_mmm(afters, '{:.1%}')}, games trained {_mmm(counts, '{:.0f}')}")
        out["learning"] = {"before": befores, "after": afters, "per_minute": [n / args.train_seconds * 60 for n in counts]}
    if "hint" in args.part:
        out["hint"] = hint(args.hint_games)
    return out


def _side_by_side(results: dict) -> None:
    """Print the compiled and pure figures of each part next to each other."""
    c, p = results["compiled"], results["pure"]

    def row(label: str, a: str, b: str) -> None:
        print(f"  {label:<52} {a:>24} {b:>24}")

    print(f"compiled and pure side by side ({_load()} now); min/median/max where three numbers")
    row("", "compiled", "pure")
    if "speed" in c:
        row("SearchBot 300 ms: imagined games per decision", _mmm(c["speed"]["rollouts"], "{:.0f}"),
            _mmm(p["speed"]["rollouts"], "{:.0f}"))
        row("  seconds per decision", _mmm(c["speed"]["secs"]), _mmm(p["speed"]["secs"]))
    if "strength" in c:
        fmt = lambda r: f"{r['points'] / r['games']:.1%} ({r['low']:.0%}-{r['high']:.0%})"  # noqa: E731
        row(f"SearchBot vs GreedyBot, {c['strength']['games']} games: win rate (95%)", fmt(c["strength"]),
            fmt(p["strength"]))
        row("  imagined games per searched decision", _mmm(c["strength"]["rollouts"], "{:.0f}"),
            _mmm(p["strength"]["rollouts"], "{:.0f}"))
        row("  decisions over 0.5 s", f"{c['strength']['over']} of {len(c['strength']['secs'])}",
            f"{p['strength']['over']} of {len(p['strength']['secs'])}")
    if "learning" in c:
        row("LearningBot: training games a minute", _mmm(c["learning"]["per_minute"], "{:,.0f}"),
            _mmm(p["learning"]["per_minute"], "{:,.0f}"))
        row("  win rate vs GreedyBot after training", _mmm(c["learning"]["after"], "{:.1%}"),
            _mmm(p["learning"]["after"], "{:.1%}"))
    if "hint" in c:
        row("Hint delay, ms (min/median/max)", f"{c['hint']['min']:.0f}/{c['hint']['median']:.0f}/{c['hint']['max']:.0f}",
            f"{p['hint']['min']:.0f}/{p['hint']['median']:.0f}/{p['hint']['max']:.0f}")


def main() -> None:
    """Run the chosen parts and print their figures (both engines at once by default)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", default=["speed", "strength", "learning", "hint"],
                    choices=["speed", "strength", "learning", "hint"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--processes", type=int, default=None,
                    help="processes for the strength part (default: 1 per engine when both run, else 2)")
    ap.add_argument("--budget-ms", type=int, default=300)
    ap.add_argument("--iterations", type=int, default=None, help="an iteration budget instead of time")
    ap.add_argument("--decisions", type=int, default=60, help="positions timed in the speed part")
    ap.add_argument("--train-seconds", type=float, default=120.0)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--hint-games", type=int, default=2, help="whole games of Hints in the hint part")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engine", choices=["both", "compiled", "pure"], default="both")
    ap.add_argument("--json", help=argparse.SUPPRESS)
    args = ap.parse_args()
    print(f"benchmarks/bots.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}", flush=True)
    if args.engine != "both":
        import tokens_edu.engine

        if tokens_edu.engine.COMPILED != (args.engine == "compiled"):
            raise SystemExit(f"asked for the {args.engine} engine, but this process runs the other one "
                             "(set or unset TOKENS_EDU_PURE_PYTHON; 'make build' compiles)")
        if args.processes is None:
            args.processes = min(2, os.cpu_count() or 1)
        results = _run_parts(args)
        if args.json:
            Path(args.json).write_text(json.dumps(results), encoding="utf-8")
        return
    # both: one process per engine, at the same time, so both see the same load
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        procs = {}
        for engine in ("compiled", "pure"):
            env = {k: v for k, v in os.environ.items() if k != "TOKENS_EDU_PURE_PYTHON"}
            if engine == "pure":
                env["TOKENS_EDU_PURE_PYTHON"] = "1"
            argv = [a for a in sys.argv[1:]]
            argv += ["--engine", engine, "--json", str(Path(tmp) / f"{engine}.json"),
                     "--processes", str(args.processes or 1)]
            log = open(Path(tmp) / f"{engine}.log", "w", encoding="utf-8")
            procs[engine] = (subprocess.Popen([sys.executable, str(Path(__file__).resolve()), *argv], env=env,
                                              stdout=log, stderr=subprocess.STDOUT), log)
        results = {}
        for engine, (proc, log) in procs.items():
            code = proc.wait()
            log.close()
            text = (Path(tmp) / f"{engine}.log").read_text(encoding="utf-8")
            print(f"== {engine}\n{text.rstrip()}", flush=True)
            if code:
                raise SystemExit(f"the {engine} run failed (exit {code})")
            results[engine] = json.loads((Path(tmp) / f"{engine}.json").read_text(encoding="utf-8"))
    _side_by_side(results)


if __name__ == "__main__":
    main()
