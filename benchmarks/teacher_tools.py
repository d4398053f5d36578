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
4. **A big class** (``--big 20000``): every page with that many answers (30 students, 9
   lessons), a new answer saved before each load so each load also reads what is new; the
   first load (which reads them all once) is given apart. Goal: under 300 ms a page.
5. **Guessing the login**: how many wrong guesses one computer, and twenty computers, get
   checked with the default throttle in an hour and in a school day, and when a 100-word list
   would be through (a fake clock).
6. **Guessing over HTTP** (``--guess-seconds 40``): a real dashboard with the default throttle,
   and ``--guessers`` parallel requests of wrong tokens for that long, first at the token route
   (``GET login?token=``), then at the form (``POST login``), from one computer and from twenty
   (the benchmark's server reads the guesser's address from ``X-Real-Ip``; the real one never
   does). Prints the wrong guesses checked per second and how many were refused unchecked.

Prints min / median / max of each. The machine may be shared: run it several times.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
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
from tokens_edu.teacher.auth import Throttle  # noqa: E402
from tokens_edu.teacher.auth import TokenAuth  # noqa: E402
from tokens_edu.teacher.dashboard import make_app  # noqa: E402
from tokens_edu.store import Journal  # noqa: E402
from tokens_edu.store.games import GameStore, snapshot  # noqa: E402


def figures(name: str, values_ms: list[float]) -> None:
    v = sorted(values_ms)
    print(f"{name:48} n={len(v):4}  min {v[0]:8.1f} ms  median {statistics.median(v):8.1f} ms  "
          f"max {v[-1]:8.1f} ms")


def start_dashboard(url: str, xheaders: bool = False):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)

        async def go():
            make_app(url, auth=TokenAuth("bench")).listen(port, "127.0.0.1", xheaders=xheaders)
            ready.set()

        loop.run_until_complete(go())
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    ready.wait(30)
    return f"http://127.0.0.1:{port}/"


def opener(root: str):
    import http.cookiejar

    o = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    o.open(root + "login?token=bench").read()
    return o


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=20)
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--big", type=int, default=20000, help="answers for the big-class pages (0: skip)")
    ap.add_argument("--only-big", action="store_true", help="run parts 4 to 6 only")
    ap.add_argument("--only-guessing", action="store_true", help="run parts 5 and 6 only")
    ap.add_argument("--guess-seconds", type=float, default=40.0, help="part 6: seconds per attack (0: skip)")
    ap.add_argument("--guessers", type=int, default=20, help="part 6: parallel requests")
    args = ap.parse_args()
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # a line per refused guess otherwise
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"(1, 5, 15 min), {os.cpu_count()} cores")
    if not (args.only_big or args.only_guessing):
        small(args)
    if args.big and not args.only_guessing:
        big_class(args.big)
    guessing()
    if args.guess_seconds:
        for route in ("token", "form"):
            for computers in (1, 20):
                guessing_over_http(route, computers, args.guessers, args.guess_seconds)


def big_class(n: int) -> None:
    """Part 4: every page at ``n`` answers."""
    import datetime as dt
    import uuid

    import sqlalchemy as sa

    from tokens_edu.store.schema import answers as answers_table

    folder = tempfile.mkdtemp(prefix="tokens-bench-big-")
    url = f"sqlite:///{folder}/journal.sqlite"
    Journal(url, student="Student 00", lesson="01-read-a-card").save("GPT", "first")
    cards = ["GPT", "Bias in Data", "AI Career Path", "Deepfake", "Decision Tree", "Privacy Shield",
             "Explainability", "AI in Daily Life", "Environmental Footprint"]
    now = dt.datetime.now(dt.timezone.utc)
    rows = [{"id": str(uuid.uuid4()), "student": f"Student {i % 30:02}", "lesson": f"{1 + i % 9:02}-lesson",
             "card": cards[i % 9], "prompt": "What do you think?",
             "answer": f"Answer {i}: I think the AI learned this from examples. " * 3,
             "saved_at": now - dt.timedelta(seconds=n - i)} for i in range(n - 1)]
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.insert(answers_table), rows)
    engine.dispose()
    root = start_dashboard(url)
    t0 = time.perf_counter()
    o = opener(root)  # logs in, then the first page (which reads every answer once)
    print(f"Big class: {n:,} answers; the login and first page (reads them all once): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    saved = 0  # each new answer from a student of its own (the store limits how often one may save)
    for name, path in (("Answers (latest per card)", ""), ("Answers (every save, 1,000 shown)", "?every=1"),
                       ("Answers, searched", "?q=examples"), ("Progress", "progress"),
                       ("Answer wall", "wall"), ("Games", "games"), ("Export CSV (all)", "export.csv?every=1"),
                       ("Live update (fragment)", "?fragment=1")):
        times = []
        for k in range(10):
            Journal(url, student=f"Late {saved:02}", lesson="03-lesson").save(
                "AI Career Path", f"a new answer {k} for {name}")
            saved += 1
            t0 = time.perf_counter()
            o.open(root + path).read()
            times.append((time.perf_counter() - t0) * 1000)
        figures(f"{name} at {n:,}", times)


def guessing() -> None:
    """Part 5: the default throttle against a guesser who never stops (asking again 100 times
    a second while told to wait), on a fake clock (no real waiting): wrong guesses checked in the
    first hour and in a 6-hour school day, and when the 100th (a 100-word list) is checked."""
    for clients in (1, 20):
        fake = {"now": 0.0}

        async def sleep(s):
            fake["now"] += s

        th = Throttle(clock=lambda: fake["now"], sleep=sleep)

        async def attack() -> list[float]:
            checked: list[float] = []
            g = 0
            while fake["now"] < 24 * 3600 and len(checked) < 1000:
                out = await th.attempt(f"10.0.0.{g % clients}", lambda: False)
                g += 1
                if out == "wait":
                    fake["now"] += 0.01
                else:
                    checked.append(fake["now"])
            return checked

        at = asyncio.run(attack())
        hour = sum(t <= 3600 for t in at)
        day = sum(t <= 6 * 3600 for t in at)
        hundredth = f"{at[99] / 3600:.1f} h" if len(at) >= 100 else "not within 24 h"
        print(f"Guessing from {clients:2} computer(s) without stopping: {hour} wrong guesses checked in "
              f"the first hour ({hour / 3600:.4f} a second), {day} in 6 hours; the 100th after {hundredth}")


def guessing_over_http(route: str, computers: int, parallel: int, seconds: float) -> None:
    """Part 6: ``parallel`` requests at a time of wrong guesses for ``seconds``, at a fresh
    dashboard with the default throttle (a wrong guess costs its computer 1 s, doubling up to 60 s)."""
    import http.cookiejar
    import urllib.error
    import urllib.parse
    from concurrent.futures import ThreadPoolExecutor

    folder = tempfile.mkdtemp(prefix="tokens-bench-guess-")
    root = start_dashboard(f"sqlite:///{folder}/journal.sqlite", xheaders=True)
    jar = http.cookiejar.CookieJar()
    o = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    o.open(root + "login").read()  # the form's _xsrf cookie, as a browser would get it
    xsrf = next(c.value for c in jar if c.name == "_xsrf")
    counts = {"checked": 0, "refused": 0, "other": 0}
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def one(n: int) -> None:
        guess = f"wrong-{n}"
        headers = {"X-Real-Ip": f"10.0.0.{n % computers + 1}"}
        if route == "token":
            req = urllib.request.Request(root + "login?" + urllib.parse.urlencode({"token": guess}), headers=headers)
        else:
            body = urllib.parse.urlencode({"secret": guess, "_xsrf": xsrf}).encode()
            req = urllib.request.Request(root + "login", data=body, headers=headers)
        try:
            o.open(req, timeout=seconds + 30).read()
            code = 200
        except urllib.error.HTTPError as e:
            code = e.code
        key = {403: "checked", 429: "refused"}.get(code, "other")
        with lock:
            counts[key] += 1

    def worker(w: int) -> None:
        n = w
        while time.monotonic() < end:
            one(n)
            n += parallel

    t0 = time.monotonic()
    with ThreadPoolExecutor(parallel) as pool:
        list(pool.map(worker, range(parallel)))
    took = time.monotonic() - t0
    where = "GET login?token=" if route == "token" else "POST login (the form)"
    print(f"Guessing over HTTP, {where}, {computers} computer(s), {parallel} at a time, {took:.0f} s: "
          f"{counts['checked']} wrong guesses checked ({counts['checked'] / took:.2f} a second), "
          f"{counts['refused']} refused unchecked (429), {counts['other']} other answers")


def small(args) -> None:
    """Parts 1-3."""
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
        Journal(url, student=f"Live {n % 10}", lesson="01-read-a-card").save("Chatbot", f"live answer {n}")
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
