"""Computer players benchmark (issue 11): SearchBot's speed and strength, LearningBot's learning.

Prints:
1. speed: SearchBot at its default budget (300 ms) on positions of seeded games: decisions per
   second, seconds per decision and imagined games (rollouts) per decision, min/median/max.
2. strength: SearchBot (default budget) against GreedyBot over ``--games`` seeded games (200),
   seats swapped every game, decks drawn at random from the starter decks: its win rate with a
   95% Wilson interval, and its seconds per decision (min/median/max, the largest of all).
   Targets: win rate >= 65%, every decision <= 0.5 s.
3. learning: LearningBot (all weights 0) against GreedyBot over ``--eval-games`` seat-swapped
   games, then after ``--train-seconds`` (120) of ``tokens_edu.train`` against GreedyBot, again.
   ``--repeat`` runs the learning part again from other seeds (min/median/max).

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

Usage: python benchmarks/bots.py [--part speed strength learning] [--games 200] [--processes 2]
       [--budget-ms 300] [--train-seconds 120] [--eval-games 200] [--repeat 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tokens_edu import Game, starter_decks, train
from tokens_edu.players import GreedyBot, LearningBot, SearchBot
from tokens_edu.lab.simulation import game_seed, wilson_interval


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
def speed(budget_ms: int, decisions: int, seed: int) -> None:
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


def strength(games: int, processes: int, budget_ms: int, iterations: int | None, seed: int) -> None:
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


def main() -> None:
    """Run the chosen parts and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", default=["speed", "strength", "learning"],
                    choices=["speed", "strength", "learning"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--budget-ms", type=int, default=300)
    ap.add_argument("--iterations", type=int, default=None, help="an iteration budget instead of time")
    ap.add_argument("--decisions", type=int, default=60, help="positions timed in the speed part")
    ap.add_argument("--train-seconds", type=float, default=120.0)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"benchmarks/bots.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}")
    if "speed" in args.part:
        speed(args.budget_ms, args.decisions, args.seed)
    if "strength" in args.part:
        strength(args.games, args.processes, args.budget_ms, args.iterations, args.seed)
    if "learning" in args.part:
        befores, afters, counts = [], [], []
        for r in range(args.repeat):
            b, a, n = learning(args.train_seconds, args.eval_games, args.seed + r)
            befores.append(b), afters.append(a), counts.append(n)
            print(f"learning run {r + 1} ({_load()}): LearningBot vs GreedyBot, {args.eval_games} games: "
                  f"{b:.1%} before, {a:.1%} after {args.train_seconds:.0f} s of training ({n} games)")
        if args.repeat > 1:
            print(f"  win rate before min/median/max {_mmm(befores, '{:.1%}')}, "
                  f"after {_mmm(afters, '{:.1%}')}, games trained {_mmm(counts, '{:.0f}')}")


if __name__ == "__main__":
    main()
