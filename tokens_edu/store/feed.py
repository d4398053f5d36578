"""Reading the class's answers a little at a time, for the teacher's live views.

Every answer gets a number as it arrives (``seq``: SQLite's rowid, a PostgreSQL identity column;
see :mod:`tokens_edu.store.schema`), so a live view reads "the answers after number N" through
the primary key instead of the whole table every second. What is here, for the dashboard:

* :class:`AnswerFeed`: ``feed.poll()`` gives the answers saved since its last poll (the first
  poll gives them all), never one twice, never one missed. Keep the rows you are shown (a
  DataFrame you append to) and draw the views from them.
* :func:`latest_seq`: the newest answer's number, one index look-up (0 when there is none): a
  cheap "did anything change?" for a page that polls.
* :func:`answers_after`: one page of rows after a number (what the feed reads).
* :func:`answer_counts`: answers and students per lesson and card (a progress grid), counted by
  the database.
* :func:`latest_answers`: each student's latest answer per lesson and card with its number of
  saves (the dashboard's default table), chosen by the database.

All take an engine (``journal.engine``; the teachers' read-only login under JupyterHub can read
them) and return pandas DataFrames whose ``saved_at`` is a UTC time. None of them reads drafts.

Why a feed re-reads a few seconds of rows on PostgreSQL: there a number is given when the row
is written, but rows become visible when their transaction commits, so number 41 may appear
just after number 42 was read. The feed therefore keeps reading from the last number it is sure
of (:attr:`AnswerFeed.settle` seconds behind), and skips the rows it gave already. On SQLite
writes take turns, so the numbers appear in order and nothing is read twice.

Measured at 20,000 answers: ``benchmarks/store_reads.py``.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable

import sqlalchemy as sa

from . import schema

__all__ = ["AnswerFeed", "FEED_COLUMNS", "COUNT_COLUMNS", "latest_seq", "answers_after",
           "answer_counts", "latest_answers"]

#: The columns of the feed's rows: ``seq`` then :data:`tokens_edu.store.schema.COLUMNS`.
FEED_COLUMNS = ["seq", *schema.COLUMNS]
#: The columns of :func:`answer_counts`.
COUNT_COLUMNS = ["lesson", "card", "answers", "students", "last_saved_at"]


def _frame(rows, columns: list[str]):
    import pandas as pd  # here, not at the top: the store is used by lesson kernels without tables

    df = pd.DataFrame([tuple(r) for r in rows], columns=columns)
    for col in ("saved_at", "last_saved_at"):
        if col in df:
            df[col] = pd.to_datetime(df[col], utc=True)
    return df


def _rows(engine: sa.Engine, query):
    with engine.connect() as conn:
        return conn.execute(query).all()


def _feed_columns():
    return [schema.answers.c[c] for c in FEED_COLUMNS]


def _filtered(query, lessons=None, cards=None, students=None):
    a = schema.answers
    if lessons is not None:
        query = query.where(a.c.lesson.in_(list(lessons)))
    if cards is not None:
        query = query.where(a.c.card.in_(list(cards)))
    if students is not None:
        query = query.where(a.c.student.in_(list(students)))
    return query


def latest_seq(engine: sa.Engine) -> int:
    """The number of the newest answer (0 when there is none): one look-up of the primary key.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.max(schema.answers.c.seq))).scalar() or 0)


def answers_after(engine: sa.Engine, after: int = 0, limit: int | None = None,
                  lessons: Iterable[str] | None = None):
    """The answers numbered after ``after``, in the order they arrived.

    Args:
        engine: the database.
        after: a ``seq`` (0: from the first answer).
        limit: at most this many rows (None: all).
        lessons: only these lessons (None: all).

    Returns:
        pandas.DataFrame with the columns of :data:`FEED_COLUMNS`.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    a = schema.answers
    q = _filtered(sa.select(*_feed_columns()).where(a.c.seq > after).order_by(a.c.seq), lessons)
    if limit is not None:
        q = q.limit(limit)
    return _frame(_rows(engine, q), FEED_COLUMNS)


def answer_counts(engine: sa.Engine, lessons: Iterable[str] | None = None):
    """How many answers, and from how many students, each lesson's cards have.

    Args:
        engine: the database.
        lessons: only these lessons (None: all).

    Returns:
        pandas.DataFrame with the columns of :data:`COUNT_COLUMNS` (``answers`` counts every
        save, ``students`` each student once), by lesson then card.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    a = schema.answers
    q = _filtered(sa.select(a.c.lesson, a.c.card, sa.func.count(), sa.func.count(sa.distinct(a.c.student)),
                            sa.func.max(a.c.saved_at))
                  .group_by(a.c.lesson, a.c.card).order_by(a.c.lesson, a.c.card), lessons)
    return _frame(_rows(engine, q), COUNT_COLUMNS)


def latest_answers(engine: sa.Engine, lessons: Iterable[str] | None = None,
                   cards: Iterable[str] | None = None, students: Iterable[str] | None = None):
    """Each student's latest answer per lesson and card, newest first, with how many times
    they saved it.

    Args:
        engine: the database.
        lessons, cards, students: only these (exact values; None: all).

    Returns:
        pandas.DataFrame with the columns of :data:`FEED_COLUMNS` and ``saves``.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    a = schema.answers
    last = _filtered(sa.select(sa.func.max(a.c.seq).label("last"), sa.func.count().label("saves"))
                     .group_by(a.c.student, a.c.lesson, a.c.card), lessons, cards, students).subquery()
    q = (sa.select(*_feed_columns(), last.c.saves).join(last, a.c.seq == last.c.last)
         .order_by(a.c.seq.desc()))
    return _frame(_rows(engine, q), [*FEED_COLUMNS, "saves"])


class AnswerFeed:
    """Everyone's answers, a little at a time: :meth:`poll` gives what arrived since the last poll.

    Args:
        source: a :class:`~tokens_edu.store.Journal` (its engine is used) or an engine.
        lessons: only these lessons (None: all).
        settle: seconds a number stays open for a row that commits late (None: 10 on
            PostgreSQL, 0 on SQLite; see the module's words).

    Attributes:
        seen: how many answers the polls have given so far.

    Example::

        feed = AnswerFeed(journal)
        table = feed.poll()                                   # every answer so far
        table = pd.concat([table, feed.poll()])               # then only the new ones
    """

    def __init__(self, source, lessons: Iterable[str] | None = None, settle: float | None = None):
        self._engine = source.engine if hasattr(source, "engine") else source
        self.lessons = list(lessons) if lessons is not None else None
        self.settle = (10.0 if self._engine.dialect.name == "postgresql" else 0.0) if settle is None else settle
        self._safe = 0  # every row numbered up to this has been given
        self._top = 0  # the highest number seen
        self._given: set[int] = set()  # numbers above _safe already given
        self._marks: deque[tuple[float, int]] = deque()  # (when, _top then)
        self.seen = 0

    @property
    def cursor(self) -> int:
        """The number up to which every answer has been given (the next poll reads after it)."""
        return self._safe

    def poll(self):
        """The answers that arrived since the last poll (all of them at the first), oldest first.

        Returns:
            pandas.DataFrame with the columns of :data:`FEED_COLUMNS`; empty when nothing is new.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read (the feed is unchanged:
                poll again later).
        """
        df = answers_after(self._engine, self._safe, lessons=self.lessons)
        if self._given and len(df):
            df = df[~df["seq"].isin(self._given)].reset_index(drop=True)
        now = time.monotonic()
        if len(df):
            self._top = max(self._top, int(df["seq"].max()))
        if self.settle <= 0:
            self._safe, self._given = self._top, set()
        else:
            self._given.update(int(s) for s in df["seq"])
            self._marks.append((now, self._top))
            while self._marks and now - self._marks[0][0] >= self.settle:
                self._safe = max(self._safe, self._marks.popleft()[1])
            self._given = {s for s in self._given if s > self._safe}
        self.seen += len(df)
        return df
