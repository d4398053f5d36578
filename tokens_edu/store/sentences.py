"""Sentences: what each student shared with the class's next-word model (lesson 12).

A sentence is one line of text (at most :data:`~tokens_edu.store.schema.MAX_SENTENCE`
characters) saved with the student's name; the class's model learns from the sentences the
teacher has not hidden, read without names (:meth:`Sentences.shared`, through the
``class_sentences`` view, which a student's own PostgreSQL login may read too). The teacher reads
every sentence with its name (:meth:`Sentences.table`) and can hide one from the model and the
class, or show it again (:meth:`Sentences.hide`).

As for answers, saving takes a :class:`~tokens_edu.store.Writer`, saves are limited per browser
and per page (:data:`SENTENCE_LIMITS`), and the teacher's reads take no writer::

    sentences.save(writer, "12-finish-my-sentence", "I like to swim.")
    sentences.shared("12-finish-my-sentence")      # [{"id": ..., "text": "I like to swim."}]
    sentences.hide(sentence_id)                     # gone from shared() until hide(id, False)

No pandas in a lesson kernel: :meth:`~Sentences.save`, :meth:`~Sentences.mine` and
:meth:`~Sentences.shared` use plain lists; only the teacher's :meth:`~Sentences.table` is a
DataFrame.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .database import Database, new_id
from .responses import MAX_LABEL, checked_text
from .writer import Writer, readable_by

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Sentences", "SENTENCE_LIMITS"]

#: Most sentences saved in a time window, as (saves, seconds) pairs: a few a minute is plenty.
SENTENCE_LIMITS = ((10, 60.0), (100, 3600.0))


class Sentences:
    """Students' shared sentences, in one :class:`~tokens_edu.store.Database`.

    One object per page (it counts the page's saves for :data:`SENTENCE_LIMITS`).

    Args:
        database: the open database (shared with the other store classes).
    """

    def __init__(self, database: Database):
        self.database = database
        self._saves: deque[float] = deque()

    def save(self, writer: Writer, lesson: str, text: str, sentence_id: str | None = None) -> str:
        """Save a sentence the student shares with the class.

        Args:
            writer: who shares. lesson: the lesson's name.
            text: the sentence (spaces are tidied; at most :data:`~tokens_edu.store.schema.MAX_SENTENCE`
                characters after that).
            sentence_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the sentence's id.

        Raises:
            ValueError: an empty or too long sentence, a bad lesson name, saving too often
                (plain words; the wait is said).
            JournalUnavailable: the store refused the save.
        """
        text = checked_text(" ".join(str(text).split()) if isinstance(text, str) else text, "sentence",
                            schema.MAX_SENTENCE)
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        if lesson:
            lesson = checked_text(lesson, "lesson's name", MAX_LABEL)
        sentence_id, retry = new_id(sentence_id)
        row = {"id": sentence_id, "student": writer.name, "lesson": lesson, "text": text,
               "saved_at": datetime.now(timezone.utc), "browser": writer.browser, "hidden": False}
        self.database.save_row(schema.sentences, row, writer, "Saving a sentence", retry, SENTENCE_LIMITS,
                               self._saves)
        return sentence_id

    def mine(self, writer: Writer | None, lesson: str | None = None) -> list[dict]:
        """The sentences ``writer`` may read back (none for None), oldest first: dicts with
        ``id``, ``lesson``, ``text``, ``saved_at`` and ``hidden``.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        if writer is None:
            return []
        s = schema.sentences
        q = (sa.select(s.c.id, s.c.lesson, s.c.text, s.c.saved_at, s.c.hidden)
             .where(*readable_by(s, writer)).order_by(s.c.seq))
        if lesson is not None:
            q = q.where(s.c.lesson == lesson)
        return [dict(r) for r in self.database.read(q, "Reading a student's sentences")]

    def shared(self, lesson: str) -> list[dict]:
        """The class's sentences of ``lesson`` the teacher has not hidden, oldest first, without
        names or times: dicts with ``id`` and ``text`` (what the class's model learns from).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        v = schema.class_sentences
        q = sa.select(v.c.id, v.c.text).where(v.c.lesson == lesson).order_by(v.c.seq)
        return [dict(r) for r in self.database.read(q, "Reading the class's sentences")]

    def table(self, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """Every sentence with its student's name, oldest first, hidden ones too (the teacher's
        table): the columns of :data:`~tokens_edu.store.schema.SENTENCE_COLUMNS`.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        s = schema.sentences
        q = sa.select(*(s.c[c] for c in schema.SENTENCE_COLUMNS)).order_by(s.c.seq)
        if lessons is not None:
            q = q.where(s.c.lesson.in_(list(lessons)))
        return self.database.frame(q, schema.SENTENCE_COLUMNS, "Reading the sentences")

    def hide(self, sentence_id: str, hidden: bool = True) -> bool:
        """Hide a sentence from the model and the class (``hidden=False``: show it again). The
        teacher's action: it takes no writer. The sentence stays in the teacher's table.

        Returns:
            bool: True when the sentence exists (hidden or shown now); False for an unknown id.

        Raises:
            ValueError: ``hidden`` is not True or False.
            JournalUnavailable: the store cannot take the change now.
        """
        if not isinstance(hidden, bool):
            raise ValueError("Hidden is True or False.")
        s = schema.sentences
        stmt = (sa.update(s).where(s.c.id == str(sentence_id))
                .values(hidden=hidden, hidden_at=datetime.now(timezone.utc) if hidden else None))
        changed = self.database.transaction("Hiding a sentence", lambda conn: conn.execute(stmt).rowcount)
        return bool(changed)

    def __repr__(self) -> str:
        return f"<Sentences in {self.database!r}>"
