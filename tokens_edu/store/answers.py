"""Discuss answers and drafts: every answer a student saves, and the text typed but not saved yet.

``answers`` holds one row per saved answer (:data:`~tokens_edu.store.schema.COLUMNS`: ``id``,
``student``, ``lesson``, ``card``, ``prompt``, ``answer``, ``saved_at``; also ``seq`` and
``browser``). ``drafts`` keeps, for each student, lesson, card and browser, the text typed but
not saved yet (the Discuss box writes it a moment after typing stops, so a reload brings it
back). A draft is not an answer: :meth:`Answers.table`, the exports and the teacher's views never
show drafts. Saving an answer removes its draft.

Every call about a student's own work takes a :class:`~tokens_edu.store.Writer` (name, trusted,
browser), given by the page's session (:mod:`tokens_edu.session`): a trusted writer reads back
every row of its name, a typed name only the rows its own browser wrote. The teacher's reads
(:meth:`Answers.table`, :meth:`Answers.export_csv`) take no writer.

Saves are rate limited (:data:`SAVE_LIMITS`, counted per browser and per page:
:mod:`tokens_edu.store.limits`); past that, saving says how long to wait and the text stays in
the box.

When the store cannot be used (a full or read-only data folder, a database server that is down,
a damaged file), saving raises :class:`~tokens_edu.store.db.JournalUnavailable` with words a
student can act on (:mod:`tokens_edu.store.database`).

Example::

    >>> from tokens_edu.store import Database, Writer
    >>> answers = Answers(Database("sqlite:///:memory:"))
    >>> ana = Writer("Ana", trusted=True)
    >>> row_id = answers.save(ana, "lesson-1", "Neural Network", "It learns from examples.")
    >>> answers.latest(ana, "lesson-1", "Neural Network").text
    'It learns from examples.'
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from .. import _moved
from ..content.cards import Card, load_cards
from ..content.names import clean_name
from . import schema
from .database import Database, new_id
from .db import Draft, Saved, dialect_insert, utc
from .export import write_csv
from .limits import too_fast_message
from .writer import Writer, readable_by

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Answers", "TOO_FAST", "SAVE_LIMITS", "DRAFTS_PER_MINUTE", "too_long_message", "storable",
           "card_name_and_prompt"]

# Old names of this module (SAVE_FAILED, CANNOT_SAVE, READ_FAILED: in .database), until
# tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

#: What a student reads after about ten saves in a few seconds (the one-minute wait of
#: :func:`tokens_edu.store.limits.too_fast_message`; other waits say their own time).
TOO_FAST = too_fast_message(60)
#: Most saves allowed in a time window, as (saves, seconds) pairs, counted per browser (and per
#: writer without a browser) and per page (:mod:`tokens_edu.store.limits`).
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


def _lesson(lesson: object) -> str:
    if not isinstance(lesson, str):
        raise ValueError("The lesson's name must be text.")
    return lesson


class Answers:
    """Students' Discuss answers and drafts, in one :class:`~tokens_edu.store.Database`.

    One object per page (a :class:`tokens_edu.session.PageSession` makes it): it also counts the
    page's own saves and drafts for the limits.

    Args:
        database: the open database (shared with the other store classes).
    """

    def __init__(self, database: Database):
        self.database = database
        self._saves: deque[float] = deque()  # this page's save times (time.monotonic)
        self._drafts: deque[float] = deque()

    # --- writing ------------------------------------------------------------------------

    def save(self, writer: Writer, lesson: str, card, text: str, prompt: str | None = None,
             answer_id: str | None = None) -> str:
        """Save one answer, exactly as typed, and return its id; this card's draft (that the
        writer may read back) is removed.

        Saving again with the same ``answer_id`` (a retry after a hiccup) stores nothing new:
        the first row with that id stays, and it does not count towards the save limits.

        Args:
            writer: who saves (:class:`~tokens_edu.store.Writer`).
            lesson: the lesson's name (``""`` outside a lesson).
            card: a :class:`~tokens_edu.content.cards.Card` or a card's name (any case).
            text: the student's words, at most :data:`~tokens_edu.store.schema.MAX_ANSWER`
                characters; an empty or all-space answer is refused.
            prompt: the question asked; None uses the card's Discuss question.
            answer_id: a UUID string for this save; None makes a new one.

        Returns:
            str: the answer's id (a UUID string).

        Raises:
            ValueError: an empty or too long answer, an unknown card, a bad id, or saving too
                often (:class:`~tokens_edu.store.limits.TooFast`, saying how long to wait).
                Nothing is saved then.
            JournalUnavailable: the store refused the save (:data:`.database.SAVE_FAILED` for a
                one-off, :data:`.database.CANNOT_SAVE` when it cannot store anything now). Nothing
                is saved then.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError("Your answer is empty. Write a few words, then save.")
        if len(text) > schema.MAX_ANSWER:
            raise ValueError(too_long_message(len(text)))
        if not storable(text):
            raise ValueError("Your answer has a broken character (maybe half of an emoji) that "
                             "cannot be saved. Delete it, then save again.")
        name, card_prompt = card_name_and_prompt(card)
        prompt = card_prompt if prompt is None else prompt
        lesson = _lesson(lesson)
        if not isinstance(prompt, str):
            raise ValueError("The question and the lesson's name must be text.")
        if not (storable(prompt) and storable(lesson)):
            raise ValueError("The question or the lesson's name has a broken character.")
        answer_id, retry = new_id(answer_id, "an answer id")
        row = {"id": answer_id, "student": writer.name, "lesson": lesson, "card": name, "prompt": prompt,
               "answer": text, "saved_at": datetime.now(timezone.utc), "browser": writer.browser}
        d = schema.drafts
        draft = d.delete().where(*readable_by(d, writer), d.c.lesson == lesson, d.c.card == name)
        self.database.save_row(schema.answers, row, writer, "Saving an answer", retry, SAVE_LIMITS,
                               self._saves, then=[draft])
        return answer_id

    def save_draft(self, writer: Writer, lesson: str, card, text: str) -> bool:
        """Keep ``text`` as the writer's draft for ``card`` (replacing this browser's last one).

        A draft is not an answer: no teacher's view or export shows it. An empty or all-space
        ``text`` removes the draft. Text over :data:`~tokens_edu.store.schema.MAX_ANSWER`
        characters is kept cut to that. Drafts are kept per browser, so a classmate typing the
        same name elsewhere never overwrites this one. More than :data:`DRAFTS_PER_MINUTE` in a
        minute from one page are skipped.

        Args:
            writer: who writes. lesson: the lesson's name. card: a Card or a card's name.
            text: the words in the box now.

        Returns:
            bool: True when a draft is kept now; False when ``text`` was empty (the draft was
            removed) or the draft was skipped (too many this minute).

        Raises:
            ValueError: an unknown card, or text that is not a str.
            JournalUnavailable: the store refused it (see :meth:`save`).
        """
        if not isinstance(text, str):
            raise ValueError("A draft must be text.")
        name, _ = card_name_and_prompt(card)
        lesson = _lesson(lesson)
        d = schema.drafts
        key = (d.c.student == writer.name, d.c.lesson == lesson, d.c.card == name,
               d.c.browser == writer.browser)
        if not text.strip():
            self.database.write([d.delete().where(*key)], "Removing a draft")
            return False
        now = time.monotonic()
        while self._drafts and now - self._drafts[0] > 60:
            self._drafts.popleft()
        if len(self._drafts) >= DRAFTS_PER_MINUTE:
            return False
        self._drafts.append(now)
        text = text[:schema.MAX_ANSWER].encode("utf-8", "replace").decode("utf-8", "replace")
        row = {"student": writer.name, "lesson": lesson, "card": name, "browser": writer.browser,
               "text": text, "saved_at": datetime.now(timezone.utc)}
        insert = dialect_insert(self.database.engine)
        if insert is not None:
            stmt = insert(d).values(**row).on_conflict_do_update(
                index_elements=["student", "lesson", "card", "browser"],
                set_={"text": text, "saved_at": row["saved_at"]})
            self.database.write([stmt], "Keeping a draft")
        else:
            self.database.write([d.delete().where(*key), d.insert().values(**row)], "Keeping a draft")
        return True

    # --- reading a writer's own work ----------------------------------------------------

    def latest(self, writer: Writer, lesson: str, card) -> Saved | None:
        """The latest saved answer about ``card`` in ``lesson`` that ``writer`` may read back.

        Returns:
            Saved | None: the words and time, or None when there is none.

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = card_name_and_prompt(card)
        a = schema.answers
        q = (sa.select(a.c.answer, a.c.saved_at)
             .where(*readable_by(a, writer), a.c.card == name, a.c.lesson == _lesson(lesson))
             .order_by(a.c.saved_at.desc(), a.c.seq.desc()).limit(1))
        rows = self.database.read(q, "Reading an answer")
        return Saved(rows[0]["answer"], utc(rows[0]["saved_at"])) if rows else None

    def draft(self, writer: Writer, lesson: str, card) -> Draft | None:
        """The newest draft of ``card`` in ``lesson`` that ``writer`` may read back.

        Returns:
            Draft | None: the draft, or None when there is none.

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = card_name_and_prompt(card)
        d = schema.drafts
        q = (sa.select(d.c.text, d.c.saved_at)
             .where(*readable_by(d, writer), d.c.card == name, d.c.lesson == _lesson(lesson))
             .order_by(d.c.saved_at.desc()).limit(1))
        rows = self.database.read(q, "Reading a draft")
        return Draft(rows[0]["text"], utc(rows[0]["saved_at"])) if rows else None

    def mine(self, writer: Writer | None, lessons: Iterable[str] | None = None,
             students: Iterable[str] | None = None, since: datetime | None = None) -> pd.DataFrame:
        """The answers ``writer`` may read back, oldest first, as :meth:`table` gives them
        (none when ``writer`` is None: a page without a name yet).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(writer, True, lessons, students, since), schema.COLUMNS,
                                   "Reading answers")

    # --- the teacher's reads (no writer) ------------------------------------------------

    def _query(self, writer: Writer | None, own: bool, lessons, students, since):
        a = schema.answers
        q = sa.select(*(a.c[c] for c in schema.COLUMNS)).order_by(a.c.saved_at, a.c.seq)
        if own:
            q = q.where(*readable_by(a, writer)) if writer is not None else q.where(sa.false())
        if lessons:
            q = q.where(a.c.lesson.in_(list(lessons)))
        if students:  # a teacher's filter: "ana" finds Ana
            q = q.where(sa.func.lower(a.c.student).in_([clean_name(s).lower() for s in students]))
        if since is not None:
            q = q.where(a.c.saved_at > since)
        return q

    def table(self, lessons: Iterable[str] | None = None, students: Iterable[str] | None = None,
              since: datetime | None = None) -> pd.DataFrame:
        """Every student's saved answers (never drafts), oldest first: the teacher's table.

        This reads every matching row. A live teacher's view reads only what is new
        (:class:`tokens_edu.store.feed.AnswerFeed`).

        Args:
            lessons: only these lessons' rows (None: every lesson).
            students: only these students' rows, in any case ("ana" finds Ana; None: all).
            since: only rows saved after this time (an aware datetime).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.COLUMNS`;
            ``saved_at`` is a UTC time.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(None, False, lessons, students, since), schema.COLUMNS,
                                   "Reading answers")

    def export_csv(self, path, lessons: Iterable[str] | None = None,
                   students: Iterable[str] | None = None, writer: Writer | None = None,
                   own: bool = False) -> int:
        """Write the answers (never drafts) to a CSV file a spreadsheet opens safely.

        See :func:`tokens_edu.store.export.write_csv` (UTF-8 with a byte order mark, one line
        per answer, formulas written as text).

        Args:
            path: the file to write (str or Path; replaced if it exists) or an open text file.
            lessons: only these lessons (None: all). students: only these students (None: all).
            writer, own: with ``own=True``, only the rows ``writer`` may read back (none when
                ``writer`` is None); else everyone's (the teacher's export).

        Returns:
            int: how many answers were written.

        Raises:
            ValueError: the file cannot be written (the message names it).
            JournalUnavailable: the store cannot be read now.
        """
        rows = self.database.read(self._query(writer, own, lessons, students, None), "Reading answers")
        return write_csv([dict(r) for r in rows], path, columns=schema.COLUMNS)

    def __repr__(self) -> str:
        return f"<Answers in {self.database!r}>"
