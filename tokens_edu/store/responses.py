"""Predictions, exit questions and lesson results: a student's answers to a lesson's questions.

``responses`` holds one row per saved answer to a question with an id (``question``), of a
``kind``: ``"prediction"`` (a guess before something happens), ``"exit"`` (an exit question at the
end of a lesson) or ``"result"`` (a lesson's measured result, e.g. lesson 10's accuracy), with
``correct`` (True/False) when the question has a right answer, else None.

As for Discuss answers (:mod:`tokens_edu.store.answers`), each call about a student's own work
takes a :class:`~tokens_edu.store.Writer` (a typed name reads back only its own browser's rows),
saves are limited per browser and per page (:data:`RESPONSE_LIMITS`), and the teacher's read
(:meth:`Responses.table`) takes no writer::

    responses.save(writer, "05-play-the-computer", "l05-bot-move", "The Audit", correct=True)
    responses.latest(writer, "05-play-the-computer", "l05-bot-move").text   # 'The Audit'
    responses.table()                                                       # the teacher's
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .database import Database, new_id
from .db import Saved, utc
from .writer import Writer, readable_by

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Responses", "MAX_LABEL", "RESPONSE_LIMITS", "checked_text"]

#: Longest question id or label (characters).
MAX_LABEL = 200
#: Most responses saved in a time window, as (saves, seconds) pairs (see the answers' limits).
RESPONSE_LIMITS = ((20, 60.0), (200, 3600.0))


def checked_text(value: object, what: str, longest: int) -> str:
    """``value`` when it is some text of at most ``longest`` characters that can be stored.

    Raises:
        ValueError: empty, not text, too long or a broken character (plain words naming ``what``).
    """
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"The {what} must be some text.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"The {what} has a broken character.") from None
    if len(value) > longest:
        raise ValueError(f"The {what} is too long: at most {longest:,} characters.")
    return value


class Responses:
    """Predictions, exit answers and lesson results, in one :class:`~tokens_edu.store.Database`.

    One object per page (it counts the page's saves for :data:`RESPONSE_LIMITS`).

    Args:
        database: the open database (shared with the other store classes).
    """

    def __init__(self, database: Database):
        self.database = database
        self._saves: deque[float] = deque()

    def save(self, writer: Writer, lesson: str, question: str, answer: str, kind: str = "prediction",
             correct: bool | None = None, response_id: str | None = None) -> str:
        """Save a student's answer to a prediction, an exit question or a lesson result.

        Args:
            writer: who saves. lesson: the lesson's name (at most :data:`MAX_LABEL` characters).
            question: the question's id in the lesson (e.g. ``"l05-bot-move"``), at most
                :data:`MAX_LABEL` characters; the same id each time the lesson asks it.
            answer: what the student chose or wrote, or the result (text, at most
                :data:`~tokens_edu.store.schema.MAX_ANSWER` characters).
            kind: ``"prediction"``, ``"exit"`` or ``"result"``.
            correct: True or False when the question has a right answer; None when it has not.
            response_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the response's id.

        Raises:
            ValueError: empty or too long text, an unknown kind, saving too often (plain words,
                with how long to wait). Nothing is saved then.
            JournalUnavailable: the store refused the save (plain words).
        """
        question = checked_text(question, "question's id", MAX_LABEL)
        answer = checked_text(answer, "answer", schema.MAX_ANSWER)
        if kind not in schema.KINDS:
            raise ValueError(f"A response's kind is one of {', '.join(schema.KINDS)}, not {kind!r}.")
        if correct is not None and not isinstance(correct, bool):
            raise ValueError("'correct' is True, False or None.")
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        if lesson:
            lesson = checked_text(lesson, "lesson's name", MAX_LABEL)
        response_id, retry = new_id(response_id)
        row = {"id": response_id, "student": writer.name, "lesson": lesson, "question": question,
               "kind": kind, "answer": answer, "correct": correct, "saved_at": datetime.now(timezone.utc),
               "browser": writer.browser}
        self.database.save_row(schema.responses, row, writer, "Saving a response", retry,
                               RESPONSE_LIMITS, self._saves)
        return response_id

    def latest(self, writer: Writer, lesson: str, question: str) -> Saved | None:
        """The latest response to ``question`` in ``lesson`` that ``writer`` may read back.

        Returns:
            Saved | None: its words (``text``) and time, or None.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        r = schema.responses
        q = (sa.select(r.c.answer, r.c.saved_at)
             .where(*readable_by(r, writer), r.c.question == question, r.c.lesson == lesson)
             .order_by(r.c.saved_at.desc(), r.c.seq.desc()).limit(1))
        rows = self.database.read(q, "Reading a response")
        return Saved(rows[0]["answer"], utc(rows[0]["saved_at"])) if rows else None

    def _query(self, writer: Writer | None, own: bool, lessons, kinds):
        r = schema.responses
        q = sa.select(*(r.c[c] for c in schema.RESPONSE_COLUMNS)).order_by(r.c.seq)
        if own:
            q = q.where(*readable_by(r, writer)) if writer is not None else q.where(sa.false())
        if lessons is not None:
            q = q.where(r.c.lesson.in_(list(lessons)))
        if kinds is not None:
            q = q.where(r.c.kind.in_(list(kinds)))
        return q

    def mine(self, writer: Writer | None, lessons: Iterable[str] | None = None,
             kinds: Iterable[str] | None = None) -> pd.DataFrame:
        """The responses ``writer`` may read back (none for None), as :meth:`table` gives them.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(writer, True, lessons, kinds), schema.RESPONSE_COLUMNS)

    def table(self, lessons: Iterable[str] | None = None, kinds: Iterable[str] | None = None) -> pd.DataFrame:
        """Every student's responses, oldest first (the teacher's table).

        Args:
            lessons, kinds: only these (None: all).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.RESPONSE_COLUMNS`
            (``correct`` is True, False or None; ``saved_at`` a UTC time).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(None, False, lessons, kinds), schema.RESPONSE_COLUMNS)

    def __repr__(self) -> str:
        return f"<Responses in {self.database!r}>"
