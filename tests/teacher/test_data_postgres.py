"""The dashboard's reader of new rows (tokens_edu.teacher.data._NewRows) on a real PostgreSQL
server: a row numbered before one already read, whose transaction commits later, is still
read once (PostgreSQL gives a row its number when it is written and shows it when it commits);
nothing is read twice, and each look after the first reads only the new rows."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
import sqlalchemy as sa

from tokens_edu.teacher.data import ANSWER_COLUMNS, _answer, _NewRows


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


def test_a_row_that_commits_late_is_read_once(postgres):
    engine = sa.create_engine(postgres.url(postgres.create_database()), connect_args={"password": postgres.password})
    try:
        answers = table(meta := sa.MetaData())
        meta.create_all(engine)
        now = {"t": 0.0}
        reader = _NewRows(engine, "answers", ANSWER_COLUMNS, _answer, clock=lambda: now["t"])
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("one"), row("two")])
        assert [a.answer for a in reader.poll()] == ["one", "two"]
        late = engine.connect()
        slow = late.begin()
        late.execute(answers.insert(), [row("late")])  # number 3, not committed yet
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("four")])  # number 4, committed
        assert [(a.seq, a.answer) for a in reader.poll()] == [(4, "four")]
        assert reader.gaps.keys() == {3}
        slow.commit()
        late.close()
        now["t"] += 2  # within the wait for skipped numbers
        assert [(a.seq, a.answer) for a in reader.poll()] == [(3, "late")]
        assert reader.poll() == [] and reader.gaps == {}
        with engine.begin() as conn:
            conn.execute(answers.insert(), [row("five")])
        assert [a.answer for a in reader.poll()] == ["five"]
        assert reader.count == 5
    finally:
        engine.dispose()
