"""LearningBot benchmark (issue 19, part 5): what a class can train in 5 minutes on one core.

Prints:
1. five-minute training: a new LearningBot (every weight 0) trains against GreedyBot with
   ``tokens_edu.train_batches`` until it has used ``--train-seconds`` (300) of CPU time on one
   core; then it plays ``--eval-games`` (200) games against GreedyBot, seats swapped every game
   (the same two decks for games 2k and 2k+1, drawn from the starter decks): its win rate with
   a 95% Wilson interval, before and after training. Floor: 50%; goal: 60%.
   Also: games trained per minute of training (CPU time, and wall time with the load).
2. lesson batch: a new LearningBot trains in ``--batches`` (10) batches of ``--batch-size``
   (25) games against GreedyBot, as a lesson page would (one batch per click or redraw): each
   batch's seconds and win rate (the live win-rate curve), and the bot's weights at the end.
``--repeat N`` runs part 1 N times from other seeds (min/median/max).

The machine is shared while we develop: CPU time measures the training budget whatever the
load; wall times and the load average are printed beside it.

Measured 2026-12-01 (see the commit message of the latest change for the figures).

Usage: python benchmarks/learning.py [--part five-minutes batches] [--train-seconds 300]
       [--eval-games 200] [--batch-size 25] [--batches 10] [--repeat 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bots import _load, _match, _mmm  # the same helpers and deals as benchmarks/bots.py

from tokens_edu import train_batches
from tokens_edu.lab.stats import wilson_interval
from tokens_edu.players import LearningBot


def against_greedy(bot, games: int, seed: int) -> float:
    """Points per game of ``bot`` against GreedyBot over ``games`` games, seats swapped every
    game on the same two decks (``benchmarks/bots.py``'s match)."""
    return _match(bot, games, seed)


def five_minutes(train_seconds: float, eval_games: int, seed: int, batch_size: int = 50) -> dict:
    """Train a new bot for ``train_seconds`` of CPU time; its win rate before and after."""
    bot = LearningBot(seed=seed)
    before = against_greedy(LearningBot(seed=seed), min(eval_games, 50), 1_000 + seed)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    curve = []
    for batch in train_batches(bot, "greedy", batch_size=batch_size, seed=seed):
        curve.append(batch.attrs["win_rate"])
        if time.process_time() - cpu0 >= train_seconds:
            break
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    load = _load()
    points = against_greedy(bot, eval_games, 1_000 + seed) * eval_games
    low, high = wilson_interval(points, eval_games)
    return {"bot": bot, "before": before, "after": points / eval_games, "low": low, "high": high,
            "games": bot.games_trained, "cpu": cpu, "wall": wall, "load": load, "curve": curve}


def lesson_batches(batch_size: int, batches: int, seed: int) -> None:
    """A lesson page's training: batch by batch, with the time and win rate of each."""
    bot = LearningBot(seed=seed)
    print(f"lesson batches ({_load()}): a new LearningBot against GreedyBot, {batches} batches of "
          f"{batch_size} games")
    secs = []
    for batch in train_batches(bot, "greedy", batch_size=batch_size, batches=batches, seed=seed):
        secs.append(batch.attrs["seconds"])
        print(f"  batch {batch.attrs['batch']:2d}: {batch.attrs['seconds']:5.2f} s, "
              f"won {batch.attrs['win_rate']:.0%} of its games ({_load()})")
    print(f"  seconds per batch min/median/max {_mmm(secs, '{:.2f}')}")
    print("  its weights at the end: " + ", ".join(f"{f} {w:+.1f}" for f, w in bot.weights["weight"].items()))


def main() -> None:
    """Run the chosen parts and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", nargs="+", default=["five-minutes", "batches"], choices=["five-minutes", "batches"])
    ap.add_argument("--train-seconds", type=float, default=300.0, help="CPU seconds of training (one core)")
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--batch-size", type=int, default=25)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"benchmarks/learning.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}")
    if "five-minutes" in args.part:
        runs = []
        for r in range(args.repeat):
            res = five_minutes(args.train_seconds, args.eval_games, args.seed + r)
            runs.append(res)
            print(f"five minutes, run {r + 1} (seed {args.seed + r}; training at {res['load']}, now {_load()}): "
                  f"{res['games']} games in {res['cpu']:.0f} s of CPU ({res['wall']:.0f} s wall): "
                  f"{res['games'] / res['cpu'] * 60:.0f} games per CPU minute, "
                  f"{res['games'] / res['wall'] * 60:.0f} per wall minute")
            print(f"  against GreedyBot, {args.eval_games} seat-swapped games: {res['before']:.1%} before "
                  f"(50 games), {res['after']:.1%} after (95% interval {res['low']:.1%} to {res['high']:.1%}); "
                  f"floor 50%, goal 60%")
            print("  win rate of its training batches (50 games each): "
                  + " ".join(f"{x:.0%}" for x in res["curve"][:: max(1, len(res["curve"]) // 12)]))
            print("  weights: " + ", ".join(f"{f} {w:+.1f}" for f, w in res["bot"].weights["weight"].items()))
        if args.repeat > 1:
            print(f"  after training, min/median/max: {_mmm([x['after'] for x in runs], '{:.1%}')}; "
                  f"games per CPU minute {_mmm([x['games'] / x['cpu'] * 60 for x in runs], '{:.0f}')}")
    if "batches" in args.part:
        lesson_batches(args.batch_size, args.batches, args.seed)


if __name__ == "__main__":
    main()
