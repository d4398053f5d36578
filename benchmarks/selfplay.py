"""Self-play benchmark (issue 7): how fast the engine plays whole games on one core.

Prints, for the 45 pairings of the ten starter decks (each pairing played ``--rounds`` times,
seeded):

- Greedy-vs-Greedy and Random-vs-Random games/s on the fast path the simulations use
  (``bot.choose_move(game)`` + ``game.push(move)``), and Greedy-vs-Greedy through the public
  path (``game.apply(bot.choose(game))``, Actions and texts made every move);
- engine steps/s: ``legal_moves()`` + ``push()`` alone (bots' time left out);
- the bytes a finished Greedy game holds, full undo history included (cards and the effects
  table are shared by every game, so they are not counted);
- Greedy self-play's first-player win rate and average rounds (a round is both players' turns).

Games/s are measured in CPU time of this process (``time.process_time``), so other programs on
a busy machine slow them less; wall-clock figures are printed too. Targets: 2,000 Greedy games/s
(goal 4,000), 150,000 engine steps/s, under 40 KB per finished game.

Usage: python benchmarks/selfplay.py [--rounds N] [--repeat K] [--turn-limit T]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from itertools import combinations
from types import BuiltinFunctionType, FunctionType, ModuleType

from tokens_edu import Game, load_cards, starter_decks
from tokens_edu.players import GreedyBot, RandomBot
from tokens_edu.engine import EFFECTS


def pairings(rounds: int):
    """(deck_a, deck_b, seed) for every pairing of the starter decks, ``rounds`` times, seats
    swapped every other round."""
    decks = starter_decks()
    seed = 0
    for r in range(rounds):
        for a, b in combinations(range(10), 2):
            seed += 1
            yield (decks[a], decks[b], seed) if r % 2 == 0 else (decks[b], decks[a], seed)


def play_fast(kind: str, rounds: int, turn_limit: int) -> dict:
    """Play every pairing with ``choose_move`` + ``push``; return CPU and wall seconds and results."""
    games = list(pairings(rounds))
    results = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for d0, d1, seed in games:
        game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit)
        bots = (RandomBot(seed), RandomBot(seed + 1)) if kind == "random" else (GreedyBot(), GreedyBot())
        while not game.over:
            game.push(bots[game.to_act].choose_move(game))
        results.append((game.first_player, game.winner, game.turn))
    return {"games": len(games), "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0,
            "results": results}


def play_public(rounds: int, turn_limit: int) -> dict:
    """Greedy self-play through ``apply(choose(game))`` (every Action and text made)."""
    games = list(pairings(rounds))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for d0, d1, seed in games:
        game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit)
        bots = (GreedyBot(), GreedyBot())
        while not game.over:
            game.apply(bots[game.to_act].choose(game))
    return {"games": len(games), "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0}


def engine_steps(rounds: int, turn_limit: int) -> dict:
    """Time ``legal_moves()`` + ``push()`` only, along Random self-play (bots' time left out)."""
    steps, spent = 0, 0.0
    clock = time.process_time
    for d0, d1, seed in pairings(rounds):
        game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit)
        bots = (RandomBot(seed), RandomBot(seed + 1))
        while not game.over:
            t0 = clock()
            moves = game.legal_moves()
            t1 = clock()
            move = bots[game.to_act].choose_move(game)
            t2 = clock()
            game.push(move)
            spent += (t1 - t0) + (clock() - t2)
            steps += 1
        assert moves is not None
    return {"steps": steps, "cpu": spent}


def held_bytes(game: Game) -> int:
    """Bytes of every object the game holds (its position, undo trail, history, log), not
    counting what all games share: the cards, the effects table, code, small ints."""
    shared: set[int] = set()
    stack: list = [load_cards(), EFFECTS]
    while stack:  # everything reachable from the shared roots
        obj = stack.pop()
        if id(obj) in shared or isinstance(obj, (type, ModuleType)):
            continue
        shared.add(id(obj))
        stack.extend(gc.get_referents(obj))
    seen: set[int] = set()
    total = 0
    stack = [game]
    while stack:
        obj = stack.pop()
        i = id(obj)
        if i in seen or i in shared:
            continue
        seen.add(i)
        if isinstance(obj, (type, ModuleType, FunctionType, BuiltinFunctionType)) or obj is None \
                or isinstance(obj, bool) or (type(obj) is int and -5 <= obj <= 256):
            continue
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def main() -> None:
    """Run every measurement ``--repeat`` times and print min / median / max."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10, help="times each of the 45 pairings is played (default 10)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each measurement (default 5)")
    ap.add_argument("--turn-limit", type=int, default=60)
    args = ap.parse_args()
    n = 45 * args.rounds
    print(f"Self-play over the 45 starter-deck pairings x {args.rounds} ({n} games a run), turn limit "
          f"{args.turn_limit}, one core, {args.repeat} runs; figures are min / median / max")

    def line(label: str, values: list[float], unit: str) -> None:
        print(f"  {label:<44} {min(values):10,.0f} / {statistics.median(values):10,.0f} / {max(values):10,.0f} {unit}")

    greedy_cpu, greedy_wall, random_cpu, random_wall, public_cpu, steps = [], [], [], [], [], []
    results = None
    for _ in range(args.repeat):
        g = play_fast("greedy", args.rounds, args.turn_limit)
        greedy_cpu.append(g["games"] / g["cpu"])
        greedy_wall.append(g["games"] / g["wall"])
        results = g["results"]
        r = play_fast("random", args.rounds, args.turn_limit)
        random_cpu.append(r["games"] / r["cpu"])
        random_wall.append(r["games"] / r["wall"])
        pub = play_public(max(1, args.rounds // 5), args.turn_limit)
        public_cpu.append(pub["games"] / pub["cpu"])
        e = engine_steps(max(1, args.rounds // 5), args.turn_limit)
        steps.append(e["steps"] / e["cpu"])
    line("Greedy vs Greedy, fast path (CPU time)", greedy_cpu, "games/s")
    line("Greedy vs Greedy, fast path (wall clock)", greedy_wall, "games/s")
    line("Random vs Random, fast path (CPU time)", random_cpu, "games/s")
    line("Random vs Random, fast path (wall clock)", random_wall, "games/s")
    line("Greedy vs Greedy, apply(choose()) (CPU time)", public_cpu, "games/s")
    line("engine steps, legal_moves + push (CPU time)", steps, "steps/s")

    sizes, logged = [], []
    for d0, d1, seed in list(pairings(1))[:20]:
        game = Game.new(d0, d1, seed=seed, turn_limit=args.turn_limit)
        bots = (GreedyBot(), GreedyBot())
        while not game.over:
            game.push(bots[game.to_act].choose_move(game))
        sizes.append(held_bytes(game) / 1000)
        game.log  # a reader asked for the log: its sentences are kept from then on
        logged.append(held_bytes(game) / 1000)
    for label, values in (("finished Greedy game with undo history", sizes),
                          ("  ... after its log has been read", logged)):
        print(f"  {label:<44} {min(values):10,.1f} / {statistics.median(values):10,.1f} / "
              f"{max(values):10,.1f} KB")

    firsts = sum(1 for first, winner, _ in results if winner == first)
    decided = sum(1 for _, winner, _ in results if winner is not None)
    rounds = statistics.mean(turn / 2 for _, _, turn in results)
    print(f"Greedy self-play ({len(results)} games): first player wins {firsts / len(results):.1%} "
          f"({decided} decided, {len(results) - decided} draws), {rounds:.2f} rounds a game on average")


if __name__ == "__main__":
    main()
