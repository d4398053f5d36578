"""Reading the class's answers a little at a time, for the teacher's live views.

Every answer gets a number as it arrives (``seq``: SQLite's rowid, a PostgreSQL identity column;
see :mod:`tokens_edu.store.schema`), so a live view reads "the answers after number N" through
the primary key instead of the whole table every second. What is here, for the dashboard:

* :class:`AnswerFeed`: ``feed.poll()`` gives the answers saved since its last poll (the first
  poll gives them all), never one twice, never one missed. Keep the rows you are shown (a
  DataFrame you append to) and draw the views from them.
* :class:`RowFeed`: the same for any of the store's tables of work (``answers``, ``responses``)
  as plain tuples, without pandas: what the teacher's dashboard reads
  (:mod:`tokens_edu.teacher.data`). AnswerFeed is a RowFeed.
* :func:`latest_seq`: the newest answer's number, one index look-up (0 when there is none): a
  cheap "did anything change?" for a page that polls.
* :func:`answers_after`: one page of rows after a number (what the feed reads).
* :func:`answer_counts`: answers and students per lesson and card (a progress grid), counted by
  the database.
* :func:`latest_answers`: each student's latest answer per lesson and card with its number of
  saves (the dashboard's default table), chosen by the database.

All take an engine (``stores.database.engine``; the teachers' read-only login under JupyterHub can read
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
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa

from . import schema

__all__ = ["AnswerFeed", "RowFeed", "FEED_COLUMNS", "COUNT_COLUMNS", "latest_seq", "answers_after",
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


def _aware(at) -> datetime:
    """A stored time as an aware UTC datetime (SQLite may give it back as text, or without a zone)."""
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    return at.replace(tzinfo=timezone.utc) if at.tzinfo is None else at.astimezone(timezone.utc)


class RowFeed:
    """The rows of one of the store's tables saved since the last :meth:`poll_rows`: the one
    reader of new rows (the dashboard's answers and responses, and :class:`AnswerFeed`).

    Rows are read by the number the database gave each as it arrived, so "after number N" is one
    look-up of the table's key: the store's ``seq`` column, or SQLite's rowid on a table made
    before there was one. A number skipped may still come for :attr:`settle` seconds (see the
    module's words) and is asked for again meanwhile. A table with neither (PostgreSQL before the
    store's migrations) is read by the time rows were saved, re-reading the last ``settle``
    seconds (at least :data:`TIME_SETTLE`) and skipping the rows already given. The table is
    looked up by name when it exists: before the migrations make it there is nothing to read.

    Args:
        source: an engine, or an object with an ``engine`` (a :class:`~tokens_edu.store.Database`).
        name: the table's name (``"answers"``, ``"responses"``).
        columns: the columns to read, ``id`` and ``saved_at`` among them.
        lessons: only these lessons (None: all).
        settle: seconds a skipped number is waited for (None: 10 on PostgreSQL, 0 on SQLite,
            whose writers take turns).
        clock: a monotonic clock in seconds (None: :func:`time.monotonic`; for tests).

    Attributes:
        seen: how many rows the polls have given so far.
        gaps: numbers below the highest given, not seen yet -> when first missed.
    """

    #: Most skipped numbers waited for at once (a burst of rolled-back saves leaves many).
    MAX_GAPS = 1000
    #: Seconds re-read by a feed that reads by time (no numbers).
    TIME_SETTLE = 10.0

    def __init__(self, source, name: str, columns: Iterable[str], lessons: Iterable[str] | None = None,
                 settle: float | None = None, clock=None):
        self._engine = source.engine if hasattr(source, "engine") else source
        self.name, self.columns = name, tuple(columns)
        self.lessons = list(lessons) if lessons is not None else None
        sqlite = self._engine.dialect.name == "sqlite"
        self.settle = (0.0 if sqlite else 10.0) if settle is None else settle
        self._clock = clock
        self._table: sa.Table | None = None
        self._numbered = False  # rows have a number (seq, or SQLite's rowid)
        self._top = 0  # the highest number given
        self.gaps: dict[int, float] = {}
        self._since: datetime | None = None  # by time: the newest time given
        self._recent: dict[str, datetime] = {}  # by time: ids given within the settle time
        self.seen = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else time.monotonic()

    @property
    def cursor(self) -> int:
        """The number up to which every row has been given, or waited for long enough (the
        next poll reads after it, and the few numbers still awaited)."""
        return min(self.gaps) - 1 if self.gaps else self._top

    def _query(self):
        t = self._table
        cols = [t.c[c] for c in self.columns]
        if self._numbered:
            number = t.c.seq if "seq" in t.c else sa.literal_column(f"{self.name}.rowid")
            now = self._now()
            self.gaps = {n: at for n, at in self.gaps.items() if now - at < self.settle}
            where = number > self._top
            if self.gaps:
                where = sa.or_(where, number.in_(sorted(self.gaps)))
            q = sa.select(number, *cols).where(where).order_by(number)
        else:
            q = sa.select(sa.literal(0), *cols).order_by(t.c.saved_at)
            if self._since is not None:
                back = max(self.settle, self.TIME_SETTLE)
                q = q.where(t.c.saved_at >= self._since - timedelta(seconds=back))
        if self.lessons is not None:
            q = q.where(t.c.lesson.in_(self.lessons))
        return q

    def poll_rows(self) -> list[tuple]:
        """The new rows, oldest first (all of them at the first call): tuples
        ``(number, *columns)``, ``saved_at`` an aware UTC datetime; never a row twice.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read (the feed is unchanged:
                poll again later).
        """
        if self._table is None:
            with self._engine.connect() as conn:
                if not sa.inspect(conn).has_table(self.name):
                    return []
            table = sa.Table(self.name, sa.MetaData(), autoload_with=self._engine)
            self._numbered = self._engine.dialect.name == "sqlite" or "seq" in table.c
            self._table = table
        with self._engine.connect() as conn:
            rows = conn.execute(self._query()).all()
        at, ident = self.columns.index("saved_at") + 1, self.columns.index("id") + 1
        out = []
        for row in rows:
            if not self._numbered:
                if row[ident] in self._recent:
                    continue
                row = (self.seen + len(out) + 1, *row[1:])
            out.append((int(row[0]), *row[1:at], _aware(row[at]), *row[at + 1:]))
        if out and self._numbered:
            now = self._now()
            numbers = [r[0] for r in out]
            for n in numbers:
                self.gaps.pop(n, None)
            top = max(numbers)
            if self.settle > 0 and top > self._top:
                got = set(numbers)
                missing = [n for n in range(self._top + 1, top) if n not in got]
                self.gaps.update((n, now) for n in missing[-self.MAX_GAPS:])
                if len(self.gaps) > self.MAX_GAPS:
                    self.gaps = dict(sorted(self.gaps.items())[-self.MAX_GAPS:])
            self._top = max(self._top, top)
        elif out:
            self._since = max(self._since or out[-1][at], *(r[at] for r in out))
            edge = self._since - timedelta(seconds=max(self.settle, self.TIME_SETTLE))
            self._recent.update((r[ident], r[at]) for r in out)
            self._recent = {i: t for i, t in self._recent.items() if t >= edge}
        self.seen += len(out)
        return out


class AnswerFeed(RowFeed):
    """Everyone's answers, a little at a time: :meth:`poll` gives what arrived since the last
    poll, as a table (a :class:`RowFeed` of the ``answers`` table).

    Args:
        source: an engine, or an object with an ``engine`` (a :class:`~tokens_edu.store.Database`).
        lessons: only these lessons (None: all).
        settle: seconds a missing number is waited for (a row that commits late; None: 10 on
            PostgreSQL, 0 on SQLite; see the module's words).

    Attributes:
        seen: how many answers the polls have given so far.

    Example::

        feed = AnswerFeed(stores.database)
        table = feed.poll()                                   # every answer so far
        table = pd.concat([table, feed.poll()])               # then only the new ones
    """

    def __init__(self, source, lessons: Iterable[str] | None = None, settle: float | None = None):
        super().__init__(source, schema.answers.name, schema.COLUMNS, lessons, settle)

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
        return _frame(self.poll_rows(), FEED_COLUMNS)
