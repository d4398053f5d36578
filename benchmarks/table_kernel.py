"""The kernel's side of a click on the card table: from a page's message to the table's new
state sent (issue 18 part 4: a move crosses the wire as its index, the page is built from one
observation).

Plays seeded games of lesson 5's table (a student against GreedyBot, ``GameView`` with
autoplay) by sending the page's messages to the widget's comm, as Voila delivers them; the
student picks a move as the browser test's student does. Every message the widgets send is
serialized to JSON as the kernel would (a recording comm), so the time includes building and
sending the state. Prints min/median/max milliseconds per student move and per computer move,
and how many Observations were built per student move, with the load average.

Usage: ``.venv/bin/python benchmarks/table_kernel.py [--games 5]``. To time older code, put it
first on the path: ``PYTHONPATH=/tmp/old .venv/bin/python benchmarks/table_kernel.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import comm
from comm.base_comm import BaseComm


class _Wire(BaseComm):
    sent = 0

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        _Wire.sent += len(json.dumps(data, default=str))


def _pick(texts: list[str]) -> str:
    pick = next((t for t in texts if t.startswith(("task ", "deploy ", "audit "))), None)
    pick = pick or next((t for t in texts if t != "end turn" and not t.startswith("train ")), None)
    return pick or next((t for t in texts if t.startswith("train ")), None) or "end turn"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args(argv)
    comm.create_comm = lambda **kw: _Wire(**kw)

    import tokens_edu
    from tokens_edu import Game, starter_decks
    from tokens_edu.widgets import GameView

    calls = [0]
    real = Game.observation

    def counted(self, p):
        calls[0] += 1
        return real(self, p)

    Game.observation = counted
    student, computer, observations, sizes = [], [], [], []
    decks = starter_decks()
    for g in range(args.games):
        game = Game.new(decks[(2 * g) % 10], decks[(2 * g + 5) % 10], seed=100 + g, names=("Ana", "Computer"))
        view = GameView(game, seats=("human", "greedy"), delay_ms=200)
        for _ in range(3000):
            if game.over:
                break
            st = view.table.state
            if view.match.bot_to_act():
                t0 = time.perf_counter()
                view.table._on_page_msg(view.table, {"type": "step", "v": st["v"]})
                computer.append(1000 * (time.perf_counter() - t0))
                continue
            texts = [m["t"] for m in st["moves"]]
            text = _pick(texts)
            msg = {"type": "move", "i": texts.index(text), "text": text, "v": st["v"]}  # old pages sent the text
            calls[0], before = 0, _Wire.sent
            t0 = time.perf_counter()
            view.table._on_page_msg(view.table, msg)
            student.append(1000 * (time.perf_counter() - t0))
            observations.append(calls[0])
            sizes.append(_Wire.sent - before)

    def line(name, xs, unit="ms"):
        return (f"{name:>16}: {len(xs):5d}, min {min(xs):7.2f} {unit}, median {statistics.median(xs):7.2f} {unit},"
                f" max {max(xs):7.2f} {unit}")

    print(f"code: {os.path.dirname(tokens_edu.__file__)}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.games} games")
    print(line("student move", student))
    print(line("computer move", computer))
    print(line("observations", observations, "per move"))
    print(line("bytes sent", sizes, "B"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
