"""The Discuss journal: every answer a student saves, and drafts.

``answers`` holds one row per saved answer (:data:`~tokens_edu.store.schema.COLUMNS`: ``id``,
``student``, ``lesson``, ``card``, ``prompt``, ``answer``, ``saved_at``; also ``seq`` and
``browser``). ``drafts`` keeps, for each student, lesson, card and browser, the text typed but
not saved yet (the Discuss box writes it a moment after typing stops, so a reload brings it
back). A draft is not an answer: :meth:`Journal.answers`, the exports and the teacher's views
never show drafts. Saving an answer removes its draft.

Whose saved work a page may read back is decided by :mod:`tokens_edu.store.identity`: a proven
name (a JupyterHub login, a class-roster code, a name given by the lesson's code) reads that
student's rows; a typed name (a name box, ``?student=``) reads only the rows its own browser
wrote.

Saves are rate limited (:data:`SAVE_LIMITS`): a student (by name, across all their pages) may
save at most 10 answers a minute and 60 an hour, a page at most as many whatever name it types;
past that, saving says so in plain words and the text stays in the box.

When the store cannot be used (a full or read-only data folder, a database server that is down,
a damaged file), a lesson still opens and plays: making a :class:`Journal` never fails for that
reason. Saving then raises :class:`~tokens_edu.store.db.JournalUnavailable` with words a student
can act on (the Discuss box shows them and keeps the text), and the journal tries again at the
next save.

Example::

    >>> j = Journal("sqlite:///:memory:", student="Ana", lesson="lesson-1")
    >>> row_id = j.save("Neural Network", "It learns from examples.")
    >>> j.answer_for("Neural Network")
    'It learns from examples.'
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections import deque
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from ..content.cards import Card, load_cards
from ..content.names import clean_name
from . import schema
from .db import Draft, JournalUnavailable, Saved, StoreDamaged, damaged, damaged_message, dialect_insert, make_engine
from .db import default_url, shown_url, storage_error, utc
from .export import write_csv
from .identity import CODE_NEEDED, PageIdentity
from .migrate import ensure_current
from .responses import LessonWork

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Journal", "Saved", "Draft", "SAVE_FAILED", "CANNOT_SAVE", "READ_FAILED", "TOO_FAST", "SAVE_LIMITS",
           "too_long_message"]

log = logging.getLogger(__name__)

#: What a student reads when one save failed (a busy or briefly unreachable database).
SAVE_FAILED = "Your answer couldn't be saved just now. It is still in the box: try Save again."
#: What a student reads when answers cannot be stored at all now (a full or read-only folder).
CANNOT_SAVE = ("Answers can't be saved right now: the lesson server cannot store them. Your text "
               "is still in the box: copy it somewhere safe, and tell your teacher.")
#: What a student reads when saved work cannot be read back just now.
READ_FAILED = "The saved answers cannot be read just now. Try again in a moment."
#: What a student reads when saving too often (see :data:`SAVE_LIMITS`).
TOO_FAST = ("You are saving very often. Wait a minute, then press Save again. Your words are "
            "still in the box.")
#: Most saves allowed in a time window, as (saves, seconds) pairs: a student (by name, across
#: their pages) and a page (whatever name it types) each stay within every pair.
SAVE_LIMITS = ((10, 60.0), (60, 3600.0))
#: Most drafts a page writes a minute (more are skipped: a draft is only a safety net).
DRAFTS_PER_MINUTE = 60


def too_long_message(length: int) -> str:
    """The plain words for an answer of ``length`` characters that is over
    :data:`~tokens_edu.store.schema.MAX_ANSWER`."""
    return (f"Your answer is too long to save: {length:,} characters. The most is "
            f"{schema.MAX_ANSWER:,}. Make it shorter, then save.")


def storable(text: str) -> bool:
    """True when ``text`` can be written as UTF-8 (no lone surrogate halves of an emoji)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def card_name_and_prompt(card: object) -> tuple[str, str]:
    """(printed name, Discuss question) of a Card or a card name.

    Raises:
        ValueError: an unknown name (the message suggests close names), or not a card.
    """
    if isinstance(card, Card):
        return card.name, card.discuss
    if isinstance(card, str):
        pool = load_cards()
        found = pool.get_card(card)
        if found is None:
            raise ValueError(pool.unknown_message(card))
        return found.name, found.discuss
    raise ValueError("Say which card this answer is about: a card or its name.")


class Journal(PageIdentity, LessonWork):
    """Where a student's Discuss answers (and drafts, predictions, drawings) are saved and read.

    Args:
        url: a SQLAlchemy database URL, e.g. ``"sqlite:////tmp/j.sqlite"`` or
            ``"postgresql+psycopg://..."``; None uses :func:`~tokens_edu.store.db.default_url`.
        student: the student's name, given by the lesson's code (trusted: see
            :mod:`tokens_edu.store.identity`); None leaves it for the page to ask (a name box).
            When ``JUPYTERHUB_USER`` is set, that login is the name and this is ignored.
        lesson: the lesson's name, stored with every answer (``""`` when not in a lesson).
        read_only: True for a teacher's reading tools (export): a missing answers table is not
            made, and a store that cannot be read raises at once.

    Opening brings the database up to date (:func:`tokens_edu.store.migrate.ensure_current`).

    Raises:
        ValueError: the name is unusable or the lesson is not text.
        JournalUnavailable: only with ``read_only=True``, when the store cannot be read
            (:class:`~tokens_edu.store.db.StoreDamaged` for a damaged file). A lesson's
            journal never raises for a store problem: see :attr:`problem`.
    """

    def __init__(self, url: str | None = None, student: str | None = None, lesson: str = "",
                 read_only: bool = False):
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        self.lesson = lesson
        self.read_only = read_only
        self._init_identity(student, read_only)
        self._saves: deque[float] = deque()  # this page's save times (time.monotonic)
        self._drafts: deque[float] = deque()
        # this page's save times of responses and drawings (tokens_edu.store.responses)
        self._work_saves: dict[str, deque[float]] = {"responses": deque(), "drawings": deque()}
        self.problem: str | None = None
        self._engine: sa.Engine | None = None
        try:
            self.url = url or default_url()
        except ValueError as e:
            self.url = url or ""
            self._set_problem(str(e))
            if read_only:
                raise JournalUnavailable(str(e)) from None
            return
        self._open()
        if read_only and self.problem:
            if damaged_message(self.url) == self.problem:
                raise StoreDamaged(self.problem)
            raise JournalUnavailable(f"The saved answers cannot be read: {self.problem}.")

    # --- the store ----------------------------------------------------------------------

    def _set_problem(self, why: str) -> None:
        if why != self.problem:
            # Under ``tokens-edu serve`` the server watches the data folder and tells the
            # teacher once; thirty kernels saying it too would bury that line.
            level = logging.INFO if os.environ.get("TOKENS_EDU_STORAGE_WATCHED") else logging.WARNING
            log.log(level, "Answers cannot be saved: %s (store: %s)", why, shown_url(self.url))
        self.problem = why

    def _open(self) -> bool:
        """Make the engine and bring the database up to date; on failure set :attr:`problem`
        (never raises)."""
        try:
            if self._engine is None:
                self._engine = make_engine(self.url)
            if self.read_only:
                with self._engine.connect() as conn:
                    if not sa.inspect(conn).has_table(schema.answers.name):
                        raise sa.exc.OperationalError("inspect", {}, Exception("no such table: answers"))
            ensure_current(self._engine)
        except ImportError as e:  # the URL names a database driver that is not installed
            self._set_problem(f"the database driver for {shown_url(self.url)} is missing "
                              f"({e.name or e}): install tokens-edu[postgres]")
            return False
        except JournalUnavailable as e:  # damaged, newer, or not ours to bring up to date
            self._set_problem(str(e))
            return False
        except (sa.exc.SQLAlchemyError, OSError) as e:
            self._set_problem(damaged_message(self.url) if damaged(e) else
                              f"the store at {shown_url(self.url)} cannot be used "
                              f"({str(e).splitlines()[0][:200]})")
            return False
        if self.problem:
            log.warning("Answers can be saved again (store: %s).", shown_url(self.url))
        self.problem = None
        return True

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine (for other parts of the store).

        Raises:
            JournalUnavailable: the store cannot be used now.
        """
        if self.problem and not self._open():
            raise JournalUnavailable(CANNOT_SAVE)
        if self._engine is None:
            raise JournalUnavailable(CANNOT_SAVE)
        return self._engine

    @property
    def available(self) -> bool:
        """True when the store can be used (tries again when it could not before)."""
        return self.problem is None or self._open()

    def _transaction(self, what: str, work):
        """``work(conn)`` in one transaction; returns what it returns. Storage errors become
        JournalUnavailable (:data:`CANNOT_SAVE` when the store cannot take writes now, else
        :data:`SAVE_FAILED`); ValueErrors (plain words) and IntegrityErrors pass as they are."""
        engine = self.engine
        try:
            with engine.begin() as conn:
                return work(conn)
        except (sa.exc.IntegrityError, ValueError):
            raise
        except sa.exc.SQLAlchemyError as e:
            if storage_error(e):
                self._set_problem(damaged_message(self.url) if damaged(e) else
                                  f"{what} failed: {str(e).splitlines()[0][:200]}")
                raise JournalUnavailable(CANNOT_SAVE) from None
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200])
            raise JournalUnavailable(SAVE_FAILED) from None

    def _write(self, statements: list, what: str) -> None:
        """Run ``statements`` in one transaction (see :meth:`_transaction`)."""
        self._transaction(what, lambda conn: [conn.execute(stmt) for stmt in statements])

    def _read(self, query, what: str, failed: str = READ_FAILED):
        """Rows of ``query`` (mappings); storage errors become JournalUnavailable(``failed``)."""
        engine = self.engine
        try:
            with engine.connect() as conn:
                return conn.execute(query).mappings().all()
        except sa.exc.SQLAlchemyError as e:
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200])
            raise JournalUnavailable(failed) from None

    def _writer(self) -> str:
        """The name to write under; ValueError in plain words when there is none yet, or when
        the class uses codes and the name was typed."""
        if not self.student:  # (a lesson page's ?code= is read here at the latest)
            raise ValueError(CODE_NEEDED if self.roster_in_use else "Type your name first, then save.")
        self._check_roster()
        return self._student

    def _mine(self, table: sa.Table, who: str) -> list:
        """Conditions for the rows of ``who`` this page may read back: all of them when ``who``
        is the page's proven name, else only what this page's browser wrote."""
        conditions = [table.c.student == who]
        if not (self.trusted and who == self._student):
            conditions.append(table.c.browser == self._browser if self._browser else sa.false())
        return conditions

    def _save_row(self, table: sa.Table, row: dict, what: str, retry: bool, limits=None,
                  times: deque | None = None, then=()) -> None:
        """Store ``row`` (with an ``id``) in one transaction: a retried id that is there already
        is stored once and not counted; else the rate limit (``limits``, see :meth:`_check_rate`),
        then the insert. ``then``: statements run afterwards in the same transaction either way
        (removing the answer's draft).

        Raises:
            ValueError: saving too often (:data:`TOO_FAST`).
            JournalUnavailable: as :meth:`_transaction`.
        """
        limits = SAVE_LIMITS if limits is None else limits
        times = self._saves if times is None else times
        insert = dialect_insert(self.engine)

        def work(conn) -> bool:
            stored = retry and conn.execute(sa.select(table.c.id).where(table.c.id == row["id"])).first()
            if not stored:
                self._check_page_rate(limits, times)
                self._check_rate(conn, table, row["student"], limits)
                if insert is not None:  # a retry racing this one: the id is stored once
                    conn.execute(insert(table).values(**row).on_conflict_do_nothing(index_elements=["id"]))
                else:
                    conn.execute(table.insert().values(**row))
            for stmt in then:
                conn.execute(stmt)
            return not stored

        try:
            if self._transaction(what, work):
                times.append(time.monotonic())
        except sa.exc.IntegrityError:
            pass  # (a database without ON CONFLICT) the same id saved at the same moment: once

    @staticmethod
    def _check_page_rate(limits, times: deque) -> None:
        """Refuse a save over ``limits`` ((saves, seconds) pairs) by this page (``times``: its
        saves' monotonic times) with :data:`TOO_FAST`."""
        now = time.monotonic()
        longest = max(seconds for _, seconds in limits)
        while times and now - times[0] > longest:
            times.popleft()
        for most, seconds in limits:
            if sum(1 for t in times if now - t <= seconds) >= most:
                raise ValueError(TOO_FAST)

    @staticmethod
    def _check_rate(conn, table: sa.Table, who: str, limits) -> None:
        """Refuse a save over ``limits`` by ``who`` (their rows of ``table`` over all their
        pages, counted by the database) with :data:`TOO_FAST`."""
        at = datetime.now(timezone.utc)
        longest = max(seconds for _, seconds in limits)
        counts = [sa.func.coalesce(sa.func.sum(sa.case((table.c.saved_at > at - timedelta(seconds=s), 1),
                                                       else_=0)), 0) for _, s in limits]
        found = conn.execute(sa.select(*counts).where(
            table.c.student == who, table.c.saved_at > at - timedelta(seconds=longest))).one()
        if any(n >= most for n, (most, _) in zip(tuple(found), limits)):
            raise ValueError(TOO_FAST)

    # --- writing ------------------------------------------------------------------------

    def save(self, card, answer: str, prompt: str | None = None, answer_id: str | None = None,
             lesson: str | None = None) -> str:
        """Save one answer, exactly as typed, and return its id; this card's draft is removed.

        Saving again with the same ``answer_id`` (a retry after a hiccup) stores nothing new:
        the first row with that id stays, and it does not count towards the rate limit.

        Args:
            card: a :class:`~tokens_edu.content.cards.Card` or a card's name (any case).
            answer: the student's words (str), at most
                :data:`~tokens_edu.store.schema.MAX_ANSWER` characters; an empty or all-space
                answer is refused.
            prompt: the question asked; None uses the card's Discuss question.
            answer_id: a UUID string for this save; None makes a new one.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            str: the answer's id (a UUID string).

        Raises:
            ValueError: no student name yet ("Type your name first, then save."), an empty
                or too long answer, an unknown card, a bad id, or saving too often
                (:data:`TOO_FAST`). Nothing is saved then.
            JournalUnavailable: the store refused the save (:data:`SAVE_FAILED` for a one-off,
                :data:`CANNOT_SAVE` when it cannot store anything now). Nothing is saved then.
        """
        who = self._writer()
        if not isinstance(answer, str) or not answer.strip():
            raise ValueError("Your answer is empty. Write a few words, then save.")
        if len(answer) > schema.MAX_ANSWER:
            raise ValueError(too_long_message(len(answer)))
        if not storable(answer):
            raise ValueError("Your answer has a broken character (maybe half of an emoji) that "
                             "cannot be saved. Delete it, then save again.")
        name, card_prompt = card_name_and_prompt(card)
        prompt = card_prompt if prompt is None else prompt
        lesson = self.lesson if lesson is None else lesson
        if not isinstance(prompt, str) or not isinstance(lesson, str):
            raise ValueError("The question and the lesson's name must be text.")
        if not (storable(prompt) and storable(lesson)):
            raise ValueError("The question or the lesson's name has a broken character.")
        retry = answer_id is not None
        if answer_id is None:
            answer_id = str(uuid.uuid4())
        else:
            try:
                answer_id = str(uuid.UUID(str(answer_id)))
            except ValueError:
                raise ValueError(f"{answer_id!r} is not an answer id (a UUID).") from None
        row = {"id": answer_id, "student": who, "lesson": lesson, "card": name, "prompt": prompt,
               "answer": answer, "saved_at": datetime.now(timezone.utc), "browser": self._browser}
        d = schema.drafts
        draft = d.delete().where(*self._mine(d, who), d.c.lesson == lesson, d.c.card == name)
        self._save_row(schema.answers, row, "Saving an answer", retry, then=[draft])
        return answer_id

    def save_draft(self, card, text: str, lesson: str | None = None) -> bool:
        """Keep ``text`` as this student's draft for ``card`` (replacing this browser's last one).

        A draft is not an answer: no teacher's view or export shows it. An empty or all-space
        ``text`` removes the draft. Text over :data:`~tokens_edu.store.schema.MAX_ANSWER`
        characters is kept cut to that. Drafts are kept per browser, so a classmate typing the
        same name elsewhere never overwrites this one. More than :data:`DRAFTS_PER_MINUTE` in a
        minute are skipped.

        Args:
            card: a Card or a card's name.
            text: the words in the box now.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            bool: True when a draft is kept now; False when ``text`` was empty (the draft was
            removed) or the draft was skipped (too many this minute).

        Raises:
            ValueError: no student name yet, an unknown card, or text that is not a str.
            JournalUnavailable: the store refused it (see :meth:`save`).
        """
        who = self._writer()
        if not isinstance(text, str):
            raise ValueError("A draft must be text.")
        name, _ = card_name_and_prompt(card)
        lesson = self.lesson if lesson is None else lesson
        d = schema.drafts
        key = (d.c.student == who, d.c.lesson == lesson, d.c.card == name, d.c.browser == self._browser)
        if not text.strip():
            self._write([d.delete().where(*key)], "Removing a draft")
            return False
        now = time.monotonic()
        while self._drafts and now - self._drafts[0] > 60:
            self._drafts.popleft()
        if len(self._drafts) >= DRAFTS_PER_MINUTE:
            return False
        self._drafts.append(now)
        text = text[:schema.MAX_ANSWER].encode("utf-8", "replace").decode("utf-8", "replace")
        row = {"student": who, "lesson": lesson, "card": name, "browser": self._browser,
               "text": text, "saved_at": datetime.now(timezone.utc)}
        insert = dialect_insert(self.engine)
        if insert is not None:
            stmt = insert(d).values(**row).on_conflict_do_update(
                index_elements=["student", "lesson", "card", "browser"],
                set_={"text": text, "saved_at": row["saved_at"]})
            self._write([stmt], "Keeping a draft")
        else:
            self._write([d.delete().where(*key), d.insert().values(**row)], "Keeping a draft")
        return True

    # --- reading ------------------------------------------------------------------------

    def _frame(self, query) -> pd.DataFrame:
        import pandas as pd  # here, not at the top: a lesson kernel without tables saves ~45 MiB

        rows = self._read(query, "Reading answers")
        df = pd.DataFrame([dict(r) for r in rows], columns=schema.COLUMNS)
        df["saved_at"] = pd.to_datetime(df["saved_at"], utc=True)
        return df

    def _answers_query(self, all_students: bool, lessons, students, since):
        a = schema.answers
        q = sa.select(*(a.c[c] for c in schema.COLUMNS)).order_by(a.c.saved_at, a.c.seq)
        if not all_students:
            q = q.where(*self._mine(a, self._student or "")) if self._student else q.where(sa.false())
        if lessons:
            q = q.where(a.c.lesson.in_(list(lessons)))
        if students:  # a teacher's filter: "ana" finds Ana
            q = q.where(sa.func.lower(a.c.student).in_([clean_name(s).lower() for s in students]))
        if since is not None:
            q = q.where(a.c.saved_at > since)
        return q

    def answers(self, all_students: bool = False, lessons: Iterable[str] | None = None,
                students: Iterable[str] | None = None, since: datetime | None = None) -> pd.DataFrame:
        """The saved answers as a table, oldest first (never drafts).

        This reads every matching row. A live teacher's view reads only what is new
        (:class:`tokens_edu.store.feed.AnswerFeed`).

        Args:
            all_students: False (the default) gives only the rows this page may read back (its
                student's, or with a typed name only its browser's; none without a name); True
                gives everyone's (for the teacher).
            lessons: only these lessons' rows (None: every lesson).
            students: only these students' rows, in any case ("ana" finds Ana; None: every
                student allowed above).
            since: only rows saved after this time (an aware datetime).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.COLUMNS`;
            ``saved_at`` is a UTC time.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self._frame(self._answers_query(all_students, lessons, students, since))

    def latest(self, card, lesson: str | None = None, student: str | None = None) -> Saved | None:
        """The latest saved answer about ``card`` in ``lesson`` this page may read back.

        Args:
            card: a Card or a card's name.
            lesson: the lesson's name; None uses this journal's ``lesson``.
            student: whose (None: this journal's student). With a typed name, only this page's
                browser's rows count (:attr:`trusted`).

        Returns:
            Saved | None: the words and time, or None when there is none (or no name).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = card_name_and_prompt(card)
        who = student if student is not None else self._student
        if not who:
            return None
        a = schema.answers
        q = (sa.select(a.c.answer, a.c.saved_at)
             .where(*self._mine(a, who), a.c.card == name,
                    a.c.lesson == (self.lesson if lesson is None else lesson))
             .order_by(a.c.saved_at.desc(), a.c.seq.desc()).limit(1))
        rows = self._read(q, "Reading an answer")
        return Saved(rows[0]["answer"], utc(rows[0]["saved_at"])) if rows else None

    def answer_for(self, card, lesson: str | None = None) -> str | None:
        """This student's latest saved answer about ``card`` in ``lesson`` (as :meth:`latest`).

        Returns:
            str | None: the answer as typed, or None when there is none (or no name yet).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        found = self.latest(card, lesson=lesson) if self.student else None
        return found.text if found else None

    def draft_for(self, card, lesson: str | None = None, student: str | None = None) -> Draft | None:
        """The newest draft of ``card`` in ``lesson`` this page may read back (this student's,
        or ``student``'s; with a typed name only this browser's).

        Returns:
            Draft | None: the draft, or None when there is none (or no name).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = card_name_and_prompt(card)
        who = student if student is not None else self._student
        if not who:
            return None
        d = schema.drafts
        q = (sa.select(d.c.text, d.c.saved_at)
             .where(*self._mine(d, who), d.c.card == name,
                    d.c.lesson == (self.lesson if lesson is None else lesson))
             .order_by(d.c.saved_at.desc()).limit(1))
        rows = self._read(q, "Reading a draft")
        return Draft(rows[0]["text"], utc(rows[0]["saved_at"])) if rows else None

    def export_csv(self, path, all_students: bool = False, lessons: Iterable[str] | None = None,
                   students: Iterable[str] | None = None) -> int:
        """Write the answers (never drafts) to a CSV file a spreadsheet opens safely.

        See :func:`tokens_edu.store.export.write_csv` (UTF-8 with a byte order mark, one line
        per answer, formulas written as text).

        Args:
            path: the file to write (str or Path; replaced if it exists) or an open text file.
            all_students: as in :meth:`answers` (False: only the rows this page may read).
            lessons: only these lessons (None: all).
            students: only these students (None: all allowed by ``all_students``).

        Returns:
            int: how many answers were written.

        Raises:
            ValueError: the file cannot be written (the message names it).
            JournalUnavailable: the store cannot be read now.
        """
        rows = self._read(self._answers_query(all_students, lessons, students, None), "Reading answers")
        return write_csv([dict(r) for r in rows], path, columns=schema.COLUMNS)

    def __repr__(self) -> str:
        who = self._student or "no name yet"
        return f"<Journal {shown_url(self.url)!r} student={who!r} lesson={self.lesson!r}>"
