"""Self-play benchmark: how fast the engine plays whole games on one core.

Prints games/s, actions/s and microseconds per ``legal_actions() + apply()`` step for
RandomBot and GreedyBot self-play over seeded games with the ten starter decks.
Targets (issue 2): 20,000 steps/s and 300 Greedy-vs-Greedy games/s on one core.

Usage: python benchmarks/selfplay.py [--games N] [--turn-limit T]
"""

from __future__ import annotations

import argparse
import random
import time

from tokens_edu import Game, starter_decks
from tokens_edu.bots import GreedyBot, RandomBot


def play(kind: str, games: int, turn_limit: int) -> dict:
    """Play ``games`` seeded games of ``kind`` self-play; return timing figures."""
    decks = starter_decks()
    steps = 0
    step_time = 0.0
    start = time.perf_counter()
    for seed in range(games):
        r = random.Random(seed)
        game = Game.new(decks[r.randrange(10)], decks[r.randrange(10)], seed=seed, turn_limit=turn_limit)
        bots = (RandomBot(seed), RandomBot(seed + 1)) if kind == "random" else (GreedyBot(), GreedyBot())
        while not game.over:
            t0 = time.perf_counter()
            legal = game.legal_actions()
            t1 = time.perf_counter()
            action = bots[game.to_act].choose(game)
            t2 = time.perf_counter()
            game.apply(action)
            step_time += (t1 - t0) + (time.perf_counter() - t2)
            steps += 1
        assert legal is not None
    total = time.perf_counter() - start
    return {"games/s": games / total, "actions/s": steps / total, "engine steps/s": steps / step_time,
            "us/step": 1e6 * step_time / steps, "actions/game": steps / games}


def main() -> None:
    """Run both self-play kinds and print one line of figures each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--turn-limit", type=int, default=60)
    args = ap.parse_args()
    print(f"Self-play, {args.games} seeded games each, turn limit {args.turn_limit}, one core")
    for kind in ("random", "greedy"):
        f = play(kind, args.games, args.turn_limit)
        print(f"{kind:>6} vs {kind:<6}: {f['games/s']:7.1f} games/s  {f['actions/s']:8.0f} actions/s (bots included)  "
              f"{f['engine steps/s']:8.0f} legal_actions+apply steps/s  {f['us/step']:6.1f} us/step  "
              f"{f['actions/game']:5.1f} actions/game")


if __name__ == "__main__":
    main()
