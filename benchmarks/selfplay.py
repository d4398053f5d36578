"""Self-play benchmark (issues 7, 22 and 31): how fast the engine plays whole games on one core,
compiled and pure Python side by side, and beside the game author's JavaScript simulator.

Each run is a fresh process, once with the compiled engine core and once with
``TOKENS_EDU_PURE_PYTHON=1`` (the same source as plain Python), one after the other, so both
see the same load on a shared machine. For the 45 pairings of the ten starter decks (each
played ``--rounds`` times, seeded) a run measures:

- Greedy-vs-Greedy and Random-vs-Random games/s on the fast path the simulations use
  (``bot.choose_move(game)`` + ``game.push(move)``), and Greedy-vs-Greedy through the public
  path (``game.apply(bot.choose(game))``, Actions and texts made every move);
- engine steps/s: ``legal_moves()`` + ``push()`` alone (bots' time left out);
- the bytes a finished Greedy game holds, full undo history included, before and after its
  log is read (the cards, the effects table and the card tables a deck pairing's games share
  are not counted: every game of the pairing uses the same ones);
- Greedy self-play's first-player win rate and average rounds (the same both ways: the same
  games are played).

- Greedy-vs-Greedy games/s with the loop compiled too (``players.bots.play_out``, what
  ``simulate`` runs).

Each of our runs first plays one round of the pairings untimed (a warm-up: the card tables of
each pairing are made once).

``--js DIR``: the game author's simulator (JavaScript, run by node) is measured in the same
runs, interleaved: its rule-of-thumb bot against itself over the 45 pairings of its ten
two-color decks (``benchmarks/js_selfplay.js``; its own warm-up first: node optimises only
after many games). DIR is a checkout of the author's public repository (the simulator is not
part of this project: https://github.com/mrenne/tokenstcg, which holds ``tools/sim/quickplay.js``,
``tools/sim/load-cards.js``, ``tools/common.js`` and ``design/pilot-deck-60-cards.md``). The
JS bot changes the state directly and keeps no legal-move list, undo trail or events; ours
keeps all three (lessons, search and replays need them).

Games/s are measured in CPU time of the process (``time.process_time``; node's
``process.cpuUsage``), so other programs on a busy machine slow them less; the 1-minute load
average is printed beside every run. Figures are min / median / max over ``--repeat`` runs;
"compiled / pure" and "compiled / JS" are the ratios of each run's pair.
Targets (issue 22): Greedy fast path at least 3x pure Python (goal 5x), at least 300,000
engine steps/s, a finished game under 40 KB with its log read. Issue 31: at least as fast as
the JS simulator (goal 2x) at the median of 5 interleaved runs.

Usage: python benchmarks/selfplay.py [--rounds N] [--repeat K] [--turn-limit T] [--only compiled|pure]
       [--js DIR] [--js-warmup SECONDS]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, ModuleType


def pairings(rounds: int):
    """(deck_a, deck_b, seed) for every pairing of the starter decks, ``rounds`` times, seats
    swapped every other round."""
    from tokens_edu import starter_decks

    decks = starter_decks()
    seed = 0
    for r in range(rounds):
        for a, b in combinations(range(10), 2):
            seed += 1
            yield (decks[a], decks[b], seed) if r % 2 == 0 else (decks[b], decks[a], seed)


def play_compiled_loop(rounds: int, turn_limit: int) -> dict:
    """Greedy self-play with the loop compiled too (``play_out``, as ``simulate`` plays)."""
    from tokens_edu import Game
    from tokens_edu.players import GreedyBot
    from tokens_edu.players.bots import play_out

    games = list(pairings(rounds))
    results = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for d0, d1, seed in games:
        game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit)
        play_out(game, (GreedyBot(), GreedyBot()))
        results.append((game.first_player, game.winner, game.turn))
    return {"games": len(games), "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0,
            "results": results}


def play_fast(kind: str, rounds: int, turn_limit: int) -> dict:
    """Play every pairing with ``choose_move`` + ``push``; return CPU and wall seconds and results."""
    from tokens_edu import Game
    from tokens_edu.players import GreedyBot, RandomBot

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
    from tokens_edu import Game
    from tokens_edu.players import GreedyBot

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
    from tokens_edu import Game
    from tokens_edu.players import RandomBot

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


def held_bytes(game) -> int:
    """Bytes of every object the game holds (its position, undo trail, history, log), not
    counting what all games of its decks share: the cards, the effects table, the engine's card
    tables (``GameCards``, ``CardFacts``), code, small ints."""
    from tokens_edu import engine, load_cards

    shared: set[int] = set()
    stack: list = [load_cards(), engine.EFFECTS, engine._TABLES, engine._FACTS]
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


def memory(turn_limit: int) -> dict:
    """KB held by the first 20 pairings' finished Greedy games, before and after the log is read."""
    from tokens_edu import Game
    from tokens_edu.players import GreedyBot

    sizes, logged = [], []
    for d0, d1, seed in list(pairings(1))[:20]:
        game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit)
        bots = (GreedyBot(), GreedyBot())
        while not game.over:
            game.push(bots[game.to_act].choose_move(game))
        sizes.append(held_bytes(game) / 1000)
        game.log  # a reader asked for the log: its sentences are kept from then on
        logged.append(held_bytes(game) / 1000)
    return {"game": sizes, "logged": logged}


def worker(args) -> None:
    """One run in this process (compiled or pure, as ``import tokens_edu`` chose): print JSON."""
    import tokens_edu.engine

    play_fast("greedy", 1, args.turn_limit)  # warm-up, not counted
    g = play_fast("greedy", args.rounds, args.turn_limit)
    loop = play_compiled_loop(args.rounds, args.turn_limit)
    if loop["results"] != g["results"]:
        raise SystemExit("play_out played other games than choose_move + push: that is a bug.")
    r = play_fast("random", args.rounds, args.turn_limit)
    pub = play_public(max(1, args.rounds // 5), args.turn_limit)
    e = engine_steps(max(1, args.rounds // 5), args.turn_limit)
    out = {"compiled": tokens_edu.engine.COMPILED,
           "greedy_cpu": g["games"] / g["cpu"], "greedy_wall": g["games"] / g["wall"],
           "random_cpu": r["games"] / r["cpu"], "random_wall": r["games"] / r["wall"],
           "public_cpu": pub["games"] / pub["cpu"], "steps": e["steps"] / e["cpu"], "results": g["results"],
           "loop_cpu": loop["games"] / loop["cpu"], "load": _load()}
    if args.memory:
        out.update(memory(args.turn_limit))
    print(json.dumps(out))


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main() -> None:
    """Run ``--repeat`` pairs of runs (compiled, then pure) and print min / median / max."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10, help="times each of the 45 pairings is played (default 10)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each engine (default 5)")
    ap.add_argument("--turn-limit", type=int, default=60)
    ap.add_argument("--only", choices=("compiled", "pure"), help="measure one engine only")
    ap.add_argument("--js", metavar="DIR", type=Path,
                    help="also time the game author's JavaScript simulator from this checkout of its repository")
    ap.add_argument("--js-warmup", type=float, default=4.0, metavar="SECONDS",
                    help="CPU seconds of JS games played before the JS timing (default 4)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--memory", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    engines = [args.only] if args.only else ["compiled", "pure"]
    js_script = Path(__file__).resolve().with_name("js_selfplay.js")
    if args.js is not None and not (args.js / "tools" / "sim" / "quickplay.js").is_file():
        raise SystemExit(f"{args.js} holds no tools/sim/quickplay.js: give a checkout of the game author's "
                         "repository (git clone https://github.com/mrenne/tokenstcg).")
    n = 45 * args.rounds
    print(f"Self-play over the 45 starter-deck pairings x {args.rounds} ({n} games a run), turn limit "
          f"{args.turn_limit}, one core, {args.repeat} runs of each engine, each a fresh process; figures are "
          f"min / median / max. {os.cpu_count()} cores, load average {_load():.1f} at the start.", flush=True)
    runs: dict[str, list[dict]] = {e: [] for e in engines}
    js_runs: list[dict] = []
    for i in range(args.repeat):
        for engine in engines:
            env = {k: v for k, v in os.environ.items() if k != "TOKENS_EDU_PURE_PYTHON"}
            if engine == "pure":
                env["TOKENS_EDU_PURE_PYTHON"] = "1"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--rounds", str(args.rounds),
                   "--turn-limit", str(args.turn_limit)] + (["--memory"] if i == 0 else [])
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            result = json.loads(done.stdout.strip().splitlines()[-1])
            if result["compiled"] != (engine == "compiled"):
                raise SystemExit(f"asked for the {engine} engine, but the run was "
                                 f"{'compiled' if result['compiled'] else 'pure'}: build it with make build")
            runs[engine].append(result)
            print(f"  run {i + 1}, {engine}: Greedy {result['greedy_cpu']:,.0f} games per CPU second "
                  f"(compiled loop {result['loop_cpu']:,.0f}); load average {result['load']:.1f}", flush=True)
        if args.js is not None:
            done = subprocess.run(["node", str(js_script), str(args.js), str(args.rounds), str(args.js_warmup)],
                                  capture_output=True, text=True, check=True)
            result = json.loads(done.stdout.strip().splitlines()[-1])
            result["load"] = _load()
            js_runs.append(result)
            print(f"  run {i + 1}, JS: {result['games_cpu']:,.0f} games per CPU second ({result['games']} games "
                  f"after {result['warmup_games']:,} warm-up games, node {result['node']}); load average "
                  f"{result['load']:.1f}", flush=True)

    def mmm(values: list[float], digits: int = 0) -> str:
        return " / ".join(f"{v:,.{digits}f}" for v in (min(values), statistics.median(values), max(values)))

    rows = [("Greedy vs Greedy, fast path (CPU time)", "greedy_cpu", "games/s"),
            ("Greedy vs Greedy, compiled loop (CPU time)", "loop_cpu", "games/s"),
            ("Greedy vs Greedy, fast path (wall clock)", "greedy_wall", "games/s"),
            ("Random vs Random, fast path (CPU time)", "random_cpu", "games/s"),
            ("Random vs Random, fast path (wall clock)", "random_wall", "games/s"),
            ("Greedy vs Greedy, apply(choose()) (CPU time)", "public_cpu", "games/s"),
            ("engine steps, legal_moves + push (CPU time)", "steps", "steps/s")]
    print(f"{'':46}" + "".join(f"{e:>30}" for e in engines) + ("   compiled / pure" if len(engines) == 2 else ""))
    for label, key, unit in rows:
        line = f"  {label:<44}" + "".join(f"{mmm([r[key] for r in runs[e]]):>30}" for e in engines)
        if len(engines) == 2:
            ratios = [c[key] / p[key] for c, p in zip(runs["compiled"], runs["pure"])]
            line += f"   {mmm(ratios, 2)}"
        print(f"{line} {unit}")
    if js_runs:
        js = [r["games_cpu"] for r in js_runs]
        print(f"  {'JS simulator, its bot vs itself (CPU time)':<44}{mmm(js):>30} games/s   "
              f"(first player wins {js_runs[0]['first_wins']:.1%}, {js_runs[0]['rounds']:.2f} rounds a game)")
        if "compiled" in runs:
            for label, key in (("compiled fast path / JS", "greedy_cpu"), ("compiled loop / JS", "loop_cpu")):
                ratios = [c[key] / j["games_cpu"] for c, j in zip(runs["compiled"], js_runs)]
                print(f"  {label:<44}{mmm(ratios, 2):>30}   (each run's pair)")
        print(f"  load average during the runs: {min(r['load'] for r in js_runs):.1f} to "
              f"{max(r['load'] for r in js_runs):.1f}")
    for label, key in (("finished Greedy game with undo history", "game"), ("  ... after its log has been read", "logged")):
        print(f"  {label:<44}" + "".join(f"{mmm(runs[e][0][key], 1):>30}" for e in engines) + "   KB")
    results = runs[engines[0]][0]["results"]
    if len(engines) == 2 and runs["compiled"][0]["results"] != runs["pure"][0]["results"]:
        raise SystemExit("The compiled and pure engines played different games: that is a bug.")
    firsts = sum(1 for first, winner, _ in results if winner == first)
    decided = sum(1 for _, winner, _ in results if winner is not None)
    rounds = statistics.mean(turn / 2 for _, _, turn in results)
    same = " (the same games compiled and pure)" if len(engines) == 2 else ""
    print(f"Greedy self-play ({len(results)} games): first player wins {firsts / len(results):.1%} "
          f"({decided} decided, {len(results) - decided} draws), {rounds:.2f} rounds a game on average{same}")
    print(f"load average {_load():.1f} at the end")


if __name__ == "__main__":
    main()
