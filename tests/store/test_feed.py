"""The teacher's reads, a little at a time (tokens_edu.store.feed): every answer given once, in the
order it arrived, with counts and each student's latest answer counted by the database."""

from __future__ import annotations

import multiprocessing as mp
import time

import pandas as pd
import pytest

from tokens_edu.store import AnswerFeed, answer_counts, answers, feed, latest_answers, latest_seq
from tokens_edu.session.journal import Journal
from tokens_edu.store import schema
from tokens_edu.store.feed import FEED_COLUMNS, answers_after


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def save(url, student, card, text, lesson="l1"):
    return Journal(url, student=student, lesson=lesson).save(card, text)


def test_each_poll_gives_only_what_arrived_since_the_last(url):
    teacher = Journal(url, student="teacher")
    f = AnswerFeed(teacher)
    assert f.poll().empty and latest_seq(teacher.engine) == 0
    save(url, "Ana", "Chatbot", "one")
    save(url, "Bo", "Chatbot", "two")
    first = f.poll()
    assert list(first.columns) == FEED_COLUMNS and list(first["answer"]) == ["one", "two"]
    assert list(first["seq"]) == [1, 2] and str(first["saved_at"].dt.tz) == "UTC"
    assert f.poll().empty  # nothing new: nothing given twice
    save(url, "Ana", "Neural Network", "three")
    assert list(f.poll()["answer"]) == ["three"] and f.seen == 3 and f.cursor == 3
    assert latest_seq(teacher.engine) == 3
    assert list(answers_after(teacher.engine, 1, limit=1)["answer"]) == ["two"]
    only = AnswerFeed(teacher.engine, lessons=["l2"])
    save(url, "Cy", "Chatbot", "in lesson 2", lesson="l2")
    assert list(only.poll()["answer"]) == ["in lesson 2"]


def test_counts_and_latest_answers_are_counted_by_the_database(url):
    for student, card, text in [("Ana", "Chatbot", "a1"), ("Ana", "Chatbot", "a2"), ("Bo", "Chatbot", "b1"),
                                ("Ana", "Neural Network", "n1")]:
        save(url, student, card, text)
    save(url, "Ana", "Chatbot", "other lesson", lesson="l2")
    engine = Journal(url).engine
    counts = answer_counts(engine)
    assert list(counts.columns) == feed.COUNT_COLUMNS
    got = {(r.lesson, r.card): (r.answers, r.students) for r in counts.itertuples()}
    assert got == {("l1", "Chatbot"): (3, 2), ("l1", "Neural Network"): (1, 1), ("l2", "Chatbot"): (1, 1)}
    assert list(answer_counts(engine, lessons=["l2"])["lesson"]) == ["l2"]
    latest = latest_answers(engine, lessons=["l1"])
    mine = {(r.student, r.card): (r.answer, r.saves) for r in latest.itertuples()}
    assert mine == {("Ana", "Chatbot"): ("a2", 2), ("Bo", "Chatbot"): ("b1", 1),
                    ("Ana", "Neural Network"): ("n1", 1)}
    assert list(latest["seq"]) == sorted(latest["seq"], reverse=True)  # newest first
    assert list(latest_answers(engine, cards=["Chatbot"], students=["Bo"])["answer"]) == ["b1"]


def test_a_row_that_commits_late_is_still_given_once(url, monkeypatch):
    """On PostgreSQL a row's number is given before its transaction commits, so number 3 may
    appear after 4 was read: the feed keeps reading from the last number it is sure of for
    ``settle`` seconds, and never gives a row twice."""
    j = Journal(url, student="Ana")
    rows = []

    def row(seq):
        return {"seq": seq, "id": f"00000000-0000-4000-8000-{seq:012d}", "student": "Ana", "lesson": "l1",
                "card": "Chatbot", "prompt": "", "answer": f"row {seq}",
                "saved_at": pd.Timestamp.now(tz="UTC").to_pydatetime()}

    with j.engine.begin() as conn:
        conn.execute(schema.answers.insert(), [row(1), row(2), row(4)])
    clock = [1000.0]
    monkeypatch.setattr(feed.time, "monotonic", lambda: clock[0])
    f = AnswerFeed(j, settle=5)
    rows += list(f.poll()["seq"])
    with j.engine.begin() as conn:  # the late one
        conn.execute(schema.answers.insert(), [row(3)])
    clock[0] += 1
    rows += list(f.poll()["seq"])
    clock[0] += 10  # past the settling time: the cursor moves on
    rows += list(f.poll()["seq"])
    assert rows == [1, 2, 4, 3] and f.cursor == 4
    plain = AnswerFeed(j, settle=0)  # (what a feed without settling would do: miss it)
    assert list(plain.poll()["seq"]) == [1, 2, 3, 4]


def _writer(url, name, n, start):
    journal = Journal(url, student=name, lesson="live")
    start.wait()
    for i in range(n):
        journal.save("Chatbot", f"{name} {i}")


def test_a_feed_polled_while_a_class_saves_misses_nothing_on_postgres(postgres, monkeypatch):
    monkeypatch.setattr(answers, "SAVE_LIMITS", ((10**6, 60.0),))  # many saves each, quickly
    name = postgres.create_database()
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", postgres.password)
    url = postgres.url(name)
    teacher = Journal(url, student="teacher")
    f = AnswerFeed(teacher, settle=3)
    ctx = mp.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(url, f"s{k}", 40, start)) for k in range(8)]
    for p in procs:
        p.start()
    start.set()
    given = []
    while any(p.is_alive() for p in procs):
        given += list(f.poll()["id"])
        time.sleep(0.05)
    assert [p.exitcode for p in procs] == [0] * 8
    time.sleep(3.2)
    given += list(f.poll()["id"])
    given += list(f.poll()["id"])
    assert len(given) == len(set(given)) == 320
    assert set(given) == set(teacher.answers(all_students=True)["id"])
