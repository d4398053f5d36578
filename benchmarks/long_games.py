"""Figures for long games (issue 29.6): a game at the 10,000-move cap opened by ``Replay``,
``ReplayView`` and the dashboard's replay page, and how fast other dashboard pages answer
meanwhile.

Run: ``.venv/bin/python benchmarks/long_games.py [--repeat 3] [--moves 10000]``

1. **Replay** (``tokens_edu.game.replay.Replay(record, at="end")``) and **ReplayView**
   (``ReplayView(record)``, at the start, and ``step="end"``) of a game of ``--moves`` moves in
   which both players end turn after turn (the longest a game can be: it stops at the cap).
2. **The dashboard** (in this process, on a free port, a throwaway SQLite file) with that
   game saved: the time to open its replay page (a fresh dashboard each time, so the replay is
   built, not taken from the dashboard's cache), a step's fragment, and meanwhile a second
   teacher loading the Games page again and again (its median while the replay opens, and
   alone before).

Prints min / median / max of each (wall clock, and for part 1 the CPU time too) and the
1-minute load. Goal: a capped game opens in under
2 s. The machine may be shared: run it several times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from teacher_tools import opener, start_dashboard  # noqa: E402

from tokens_edu import Game, starter_decks  # noqa: E402
from tokens_edu.store.games import GameStore  # noqa: E402


def figures(name: str, values: list[float], unit: str = "s") -> None:
    v = sorted(values)
    print(f"{name:52} n={len(v):3}  min {v[0]:7.2f} {unit}  median {statistics.median(v):7.2f} {unit}  "
          f"max {v[-1]:7.2f} {unit}", flush=True)


def endless_game(moves: int) -> Game:
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ana", "Bo"))
    while len(game.move_stack) < moves:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "end"), legal[0]))
    return game


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def both(name: str, fn, repeat: int) -> None:
    """Wall-clock and CPU seconds of ``fn`` (this process only runs it: on a shared machine
    the CPU time is what a quiet machine's wall clock would be)."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    figures(name + " (wall)", wall)
    figures(name + " (CPU)", cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--moves", type=int, default=10_000)
    args = ap.parse_args()
    from tokens_edu._compiled import COMPILED
    from tokens_edu.game.replay import Replay
    from tokens_edu.widgets import ReplayView

    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min), "
          f"{os.cpu_count()} cores, engine {'compiled' if COMPILED else 'pure Python'}", flush=True)
    game = endless_game(args.moves)
    record = game.to_record()
    print(f"a game of {len(record['actions']):,} moves, {len(game.log):,} log lines", flush=True)
    both("Replay(record, at='end')", lambda: Replay(record, at="end"), args.repeat)
    both("ReplayView(record)  (at the start)", lambda: ReplayView(record), args.repeat)
    both("ReplayView(record, step='end')", lambda: ReplayView(record, step="end"), args.repeat)
    view = ReplayView(record, step="end")
    both("ReplayView: one step back at the end", lambda: view.goto(view.step - 1), 5)

    opens, fragments, alone, meanwhile = [], [], [], []
    for _ in range(args.repeat):
        folder = tempfile.mkdtemp(prefix="tokens-bench-long-")
        url = f"sqlite:///{folder}/journal.sqlite"
        store = GameStore(url)
        gid = store.start(Game.from_record(dict(record, actions=[])), "Ana", "05-play",
                          ("human", "human"), page="p")
        store.save(gid, game, "p")
        root = start_dashboard(url)
        first, other = opener(root), opener(root)
        for _ in range(5):
            alone.append(timed(lambda: other.open(root + "games").read()))
        done = threading.Event()

        def other_teacher():
            while not done.is_set():
                meanwhile.append(timed(lambda: other.open(root + "games").read()))

        thread = threading.Thread(target=other_teacher, daemon=True)
        thread.start()
        opens.append(timed(lambda: first.open(root + f"games/{gid}").read()))
        done.set()
        thread.join(30)
        fragments.append(timed(lambda: first.open(root + f"games/{gid}?fragment=1&step=5000").read()))
    figures("dashboard: the replay page of the game (built)", opens)
    figures("dashboard: one step (fragment, step 5000)", fragments)
    figures("dashboard: another teacher's Games page, alone", [x * 1000 for x in alone], "ms")
    figures("dashboard: the same while the replay opens", [x * 1000 for x in meanwhile], "ms")
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)", flush=True)


if __name__ == "__main__":
    main()
