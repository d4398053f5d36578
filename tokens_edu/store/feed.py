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

Why a feed also asks for a few missing numbers on PostgreSQL: there a number is given when the
row is written, but the row becomes visible when its transaction commits, so number 41 may
appear just after number 42 was read. The feed therefore also asks, for
:attr:`AnswerFeed.settle` seconds, for the numbers it skipped (a skipped number may also never
come: a save that was rolled back, or a retry stored once). On SQLite writes take turns, so the
numbers appear in order. Either way no row is given twice.

Measured at 20,000 answers: ``benchmarks/store_reads.py``.
"""

from __future__ import annotations

import time
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
        settle: seconds a missing number is waited for (a row that commits late; None: 10 on
            PostgreSQL, 0 on SQLite; see the module's words).

    Attributes:
        seen: how many answers the polls have given so far.

    Example::

        feed = AnswerFeed(journal)
        table = feed.poll()                                   # every answer so far
        table = pd.concat([table, feed.poll()])               # then only the new ones
    """

    #: Most missing numbers waited for at once (a burst of rolled-back saves leaves many).
    MAX_GAPS = 1000

    def __init__(self, source, lessons: Iterable[str] | None = None, settle: float | None = None):
        self._engine = source.engine if hasattr(source, "engine") else source
        self.lessons = list(lessons) if lessons is not None else None
        self.settle = (10.0 if self._engine.dialect.name == "postgresql" else 0.0) if settle is None else settle
        self._top = 0  # the highest number given
        self._gaps: dict[int, float] = {}  # numbers below _top not seen yet -> when first missed
        self.seen = 0

    @property
    def cursor(self) -> int:
        """The number up to which every answer has been given, or waited for long enough (the
        next poll reads after it, and the few numbers still awaited)."""
        return min(self._gaps) - 1 if self._gaps else self._top

    def poll(self):
        """The answers that arrived since the last poll (all of them at the first), oldest first.

        Reads the rows numbered after the highest one given, and the few missing numbers below
        it that may still commit (PostgreSQL); never a row twice.

        Returns:
            pandas.DataFrame with the columns of :data:`FEED_COLUMNS`; empty when nothing is new.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read (the feed is unchanged:
                poll again later).
        """
        a = schema.answers
        now = time.monotonic()
        self._gaps = {n: t for n, t in self._gaps.items() if now - t < self.settle}
        where = a.c.seq > self._top
        if self._gaps:
            where = sa.or_(where, a.c.seq.in_(sorted(self._gaps)))
        query = _filtered(sa.select(*_feed_columns()).where(where).order_by(a.c.seq), self.lessons)
        df = _frame(_rows(self._engine, query), FEED_COLUMNS)
        if len(df):
            numbers = [int(n) for n in df["seq"]]
            for n in numbers:
                self._gaps.pop(n, None)
            top = max(numbers)
            if self.settle > 0 and top > self._top:
                got = set(numbers)
                missing = [n for n in range(self._top + 1, top) if n not in got]
                self._gaps.update((n, now) for n in missing[-self.MAX_GAPS:])
                if len(self._gaps) > self.MAX_GAPS:
                    self._gaps = dict(sorted(self._gaps.items())[-self.MAX_GAPS:])
            self._top = max(self._top, top)
        self.seen += len(df)
        return df
