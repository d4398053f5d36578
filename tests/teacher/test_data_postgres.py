"""The dashboard's reader of new rows (the store's RowFeed, tokens_edu/store/feed.py) on a real PostgreSQL
server: a row numbered before one already read, whose transaction commits later, is still
read once (PostgreSQL gives a row its number when it is written and shows it when it commits);
nothing is read twice, and each look after the first reads only the new rows."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
import sqlalchemy as sa

from tokens_edu.store.feed import RowFeed
from tokens_edu.teacher.data import ANSWER_COLUMNS, _answer


def table(metadata: sa.MetaData) -> sa.Table:
    """The answers table as the store's schema has it (a ``seq`` identity column first)."""
    return sa.Table("answers", metadata,
                    sa.Column("seq", sa.BigInteger, sa.Identity(), primary_key=True),
                    sa.Column("id", sa.String(36), nullable=False, unique=True),
                    *(sa.Column(c, sa.Text, nullable=False) for c in ("student", "lesson", "card", "prompt", "answer")),
                    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False))


def row(text: str) -> dict:
    return {"id": str(uuid.uuid4()), "student": "Ana", "lesson": "01", "card": "GPT", "prompt": "",
            "answer": text, "saved_at": datetime.now(timezone.utc)}


def new(reader: RowFeed) -> list:
    """The dashboard's rows from the feed's new rows, as ClassData.refresh makes them."""
    return [_answer(*row) for row in reader.poll_rows()]


def test_a_row_that_commits_late_is_read_once(postgres):
    engine = sa.create_engine(postgres.url(postgres.create_database()), connect_args={"password": postgres.password})
    try:
        answers = table(meta := sa.MetaData())
        meta.create_all(engine)
        now = {"t": 0.0}
        reader = RowFeed(engine, "answers", ANSWER_COLUMNS, clock=lambda: now["t"])
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("one"), row("two")])
        assert [a.answer for a in new(reader)] == ["one", "two"]
        late = engine.connect()
        slow = late.begin()
        late.execute(answers.insert(), [row("late")])  # number 3, not committed yet
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("four")])  # number 4, committed
        assert [(a.seq, a.answer) for a in new(reader)] == [(4, "four")]
        assert reader.gaps.keys() == {3}
        slow.commit()
        late.close()
        now["t"] += 2  # within the wait for skipped numbers
        assert [(a.seq, a.answer) for a in new(reader)] == [(3, "late")]
        assert new(reader) == [] and reader.gaps == {}
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("five")])
        assert [a.answer for a in new(reader)] == ["five"]
        assert reader.seen == 5
    finally:
        engine.dispose()
