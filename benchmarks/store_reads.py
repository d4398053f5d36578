"""Figures for the store's reads at a school's size: what a teacher's view costs at 20,000 answers,
reading the whole table (what the dashboard did on every view) against reading incrementally
(tokens_edu.store.feed), and what one save costs with its rate-limit count. Reads use one
pooled engine (``make_engine(url, pooled=True)``), as a long-running dashboard should.

Run: ``.venv/bin/python benchmarks/store_reads.py [--answers 20000] [--repeat 15] [--postgres URL]``

The answers: 30 students, 10 lessons, 9 cards, saved several times each, texts of 20 to 2,000
characters (median about 150), written straight into a throwaway SQLite file (or the given
PostgreSQL database, which must be empty; its password from ``TOKENS_EDU_DB_PASSWORD``).

Each figure is min / median / max over ``--repeat`` runs, with the machine's load average (the
machine may be shared: run it several times).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokens_edu.store import AnswerFeed, Journal, answer_counts, latest_answers, latest_seq, schema  # noqa: E402
from tokens_edu.store.db import make_engine  # noqa: E402

CARDS = ["Chatbot", "Neural Network", "Explainability", "Sensor", "Training Data", "Predictor",
         "AI Isn't Magic", "Python", "CUDA"]


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def figures(name: str, values_ms: list[float]) -> None:
    v = sorted(values_ms)
    print(f"{name:52} n={len(v):3}  min {v[0]:8.1f} ms  median {statistics.median(v):8.1f} ms  "
          f"max {v[-1]:8.1f} ms", flush=True)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def fill(journal: Journal, n: int) -> None:
    rng = random.Random(7)
    start = datetime.now(timezone.utc) - timedelta(days=30)
    rows = []
    for i in range(n):
        length = min(2000, max(20, int(rng.lognormvariate(5.0, 0.8))))
        rows.append({"id": str(uuid.UUID(int=rng.getrandbits(128))), "student": f"Student {rng.randrange(30):02d}",
                     "lesson": f"{rng.randrange(10):02d}-lesson", "card": rng.choice(CARDS),
                     "prompt": "What do you think?", "answer": "w" * length,
                     "saved_at": start + timedelta(seconds=i * 60)})
    with journal.engine.begin() as conn:
        for k in range(0, n, 2000):
            conn.execute(schema.answers.insert(), rows[k:k + 2000])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database instead of SQLite")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    url = args.postgres or f"sqlite:///{tmp.name}/journal.sqlite"
    teacher = Journal(url, student="teacher")
    t = time.perf_counter()
    fill(teacher, args.answers)
    print(f"{args.answers:,} answers in {url.split(':')[0]}, written in {time.perf_counter() - t:.1f} s; "
          f"{load()}", flush=True)
    r = args.repeat
    # as the dashboard would read: one long-running process, its connections kept (a server
    # database; SQLite opens its file in microseconds either way)
    engine = make_engine(url, pooled=True)
    teacher_reads = Journal(url, student="teacher")
    teacher_reads._engine = engine

    figures("whole table: journal.answers(all_students=True)", timed(lambda: teacher_reads.answers(all_students=True), r))
    first = []
    for _ in range(r):
        feed = AnswerFeed(engine)
        t = time.perf_counter()
        rows = feed.poll()
        first.append((time.perf_counter() - t) * 1000)
    assert len(rows) == args.answers
    figures("feed: first poll (every answer)", first)
    figures("feed: a poll with nothing new", timed(feed.poll, r))
    students = [Journal(url, student=f"Live {k}", lesson="live") for k in range(r)]
    new_rows = []
    for j in students:
        for _ in range(3):
            j.save("Chatbot", "a new answer " * 10)
        t = time.perf_counter()
        got = feed.poll()
        new_rows.append((time.perf_counter() - t) * 1000)
        assert len(got) == 3
    figures("feed: a poll with 3 new answers", new_rows)
    figures("latest_seq (did anything change?)", timed(lambda: latest_seq(engine), r))
    figures("answer_counts (progress grid)", timed(lambda: answer_counts(engine), r))
    figures("latest_answers (each student's latest per card)", timed(lambda: latest_answers(engine), r))
    figures("latest_answers, one lesson", timed(lambda: latest_answers(engine, lessons=["03-lesson"]), r))
    saver = Journal(url, student="Saver", lesson="live")
    saves = []
    for i in range(min(r, 10)):  # within the rate limit
        t = time.perf_counter()
        saver.save("Chatbot", f"answer {i}")
        saves.append((time.perf_counter() - t) * 1000)
    figures("one save (retry check, rate count, insert, draft)", saves)
    if engine.dialect.name != "sqlite":
        figures("latest_seq, a new connection each time (a kernel)", timed(lambda: latest_seq(teacher.engine), r))
    print(load(), flush=True)


if __name__ == "__main__":
    main()
