"""Figures for the teacher tools: how soon the dashboard hears of a new answer, how long its
pages take, and what keeping a game costs per move.

Run: ``.venv/bin/python benchmarks/teacher_tools.py [--answers 20] [--students 30]``

1. **Live delay**: the dashboard (in this process, on a free port, a throwaway SQLite file)
   with one Server-Sent Events listener; answers are saved one by one from another thread; the
   time from each save returning to its event arriving (the dashboard looks at the database
   every ``POLL_SECONDS``, so this is about half of that on average, plus the page's fetch).
2. **Pages**: the Answers, Progress and Wall pages with ``--students`` students who each answered
   a few cards, and a replay step of a long game; median of several loads.
3. **Keeping a game**: the time to take a position (``snapshot``: in the move's own time) and
   to write it (``GameStore.save_position``: in the background thread), over a whole game.

Prints min / median / max of each. The machine may be shared: run it several times.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokens_edu import Game, starter_decks  # noqa: E402
from tokens_edu.players import GreedyBot, RandomBot  # noqa: E402
from tokens_edu.teacher.dashboard import TokenAuth, make_app  # noqa: E402
from tokens_edu.store.journal import Journal  # noqa: E402
from tokens_edu.store.games import GameStore, snapshot  # noqa: E402


def figures(name: str, values_ms: list[float]) -> None:
    v = sorted(values_ms)
    print(f"{name:48} n={len(v):4}  min {v[0]:8.1f} ms  median {statistics.median(v):8.1f} ms  "
          f"max {v[-1]:8.1f} ms")


def start_dashboard(url: str):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)

        async def go():
            make_app(url, auth=TokenAuth("bench")).listen(port, "127.0.0.1")
            ready.set()

        loop.run_until_complete(go())
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    ready.wait(30)
    return f"http://127.0.0.1:{port}/"


def opener(root: str):
    import http.cookiejar

    o = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    o.open(root + "?token=bench").read()
    return o


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=20)
    ap.add_argument("--students", type=int, default=30)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="tokens-bench-")
    url = f"sqlite:///{folder}/journal.sqlite"
    cards = ["Chatbot", "Neural Network", "Sensor", "GAN", "Deepfake"]
    for i in range(args.students):
        j = Journal(url, student=f"Student {i:02}", lesson="01-read-a-card")
        for card in cards[: 1 + i % len(cards)]:
            j.save(card, f"Answer of student {i} about {card}. " * 3)
    root = start_dashboard(url)
    o = opener(root)

    # 1. live delay
    stream = o.open(root + "events", timeout=30)
    stream.readline(), stream.readline()  # the first message comes at once
    delays = []
    for n in range(args.answers):
        time.sleep(0.37)  # not in step with the dashboard's polling
        Journal(url, student="Live", lesson="01-read-a-card").save("Chatbot", f"live answer {n}")
        t0 = time.perf_counter()
        line = stream.readline()
        while not line.startswith(b"data:"):
            line = stream.readline()
        delays.append((time.perf_counter() - t0) * 1000)
        stream.readline()
    figures("save -> dashboard event", delays)

    # 2. pages
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=3, names=("Student 00", "Computer"))
    bots = (GreedyBot(), RandomBot(seed=1))
    store = GameStore(url)
    gid = store.start(game, "Student 00", "05-play-the-computer", page="p")
    while not game.over and len(game.history) < 400:
        game.apply(bots[game.to_act].choose(game))
    store.save(gid, game, "p")
    for name, path in (("Answers page", ""), ("Progress page", "progress"), ("Wall page", "wall"),
                       (f"Replay step ({len(game.history)}-move game)", f"games/{gid}?fragment=1&step=17")):
        times = []
        for _ in range(8):
            t0 = time.perf_counter()
            o.open(root + path).read()
            times.append((time.perf_counter() - t0) * 1000)
        figures(name, times)

    # 3. keeping a game
    game2 = Game.new(decks[2], decks[5], seed=8, names=("Ana", "Computer"))
    gid2 = store.start(game2, "Ana", "05", page="p")
    snaps, writes = [], []
    while not game2.over and len(game2.history) < 400:
        game2.apply(bots[game2.to_act].choose(game2))
        t0 = time.perf_counter()
        pos = snapshot(game2)
        t1 = time.perf_counter()
        store.save_position(gid2, pos, "p")
        t2 = time.perf_counter()
        snaps.append((t1 - t0) * 1000)
        writes.append((t2 - t1) * 1000)
    figures(f"snapshot per move ({len(snaps)} moves)", snaps)
    figures("write per move (background thread)", writes)


if __name__ == "__main__":
    main()
