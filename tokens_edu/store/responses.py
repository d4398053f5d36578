"""Predictions, exit questions, lesson results and drawings: a student's other lesson work.

These are methods of :class:`~tokens_edu.store.Journal` (the part of it kept here), so a lesson
saves them with the page's student, lesson and browser as it saves Discuss answers, with the same
privacy (a typed name reads back only its own browser's rows) and the same plain messages::

    journal.save_response("l05-bot-move", "The Audit", kind="prediction", correct=True)
    journal.response_for("l05-bot-move").text           # 'The Audit'
    journal.responses(all_students=True)                 # the teacher's table
    journal.save_drawing("cat", [[0, 255], [255, 0]])    # a 2 x 2 picture
    journal.class_drawings(lesson="08-how-ai-senses")    # everyone's, without names

``responses``: one row per saved answer to a question with an id (``question``), of a ``kind``:
``"prediction"`` (a guess before something happens), ``"exit"`` (an exit question at the end of
a lesson) or ``"result"`` (a lesson's measured result, e.g. lesson 10's accuracy), with
``correct`` (True/False) when the question has a right answer, else None.

``drawings``: a picture as ``width`` x ``height`` pixels, each 0 (white) to 255 (black), at most
:data:`MAX_SIDE` on a side, with the label the student gave it. The class's drawings are the
training data of lesson 8: :meth:`LessonWork.class_drawings` gives them without names.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .db import Saved, utc

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["LessonWork", "MAX_SIDE", "MAX_LABEL", "RESPONSE_LIMITS", "DRAWING_LIMITS", "as_rows"]

#: Longest side of a drawing (pixels).
MAX_SIDE = 64
#: Longest question id or label (characters).
MAX_LABEL = 200
#: Most responses saved in a time window, as (saves, seconds) pairs (see the answers' limits).
RESPONSE_LIMITS = ((20, 60.0), (200, 3600.0))
#: Most drawings saved in a time window: drawing many quick pictures is the point of lesson 8.
DRAWING_LIMITS = ((30, 60.0), (300, 3600.0))


def _text(value: object, what: str, longest: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"The {what} must be some text.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"The {what} has a broken character.") from None
    if len(value) > longest:
        raise ValueError(f"The {what} is too long: at most {longest:,} characters.")
    return value


def _pixels(rows: object) -> tuple[int, int, bytes]:
    """(width, height, bytes) of a picture given as rows of 0-255 numbers."""
    if hasattr(rows, "tolist"):  # a numpy array
        rows = rows.tolist()
    if not isinstance(rows, Sequence) or isinstance(rows, (str, bytes)) or not rows:
        raise ValueError("A drawing is a list of rows of numbers from 0 to 255.")
    height, width = len(rows), len(rows[0]) if isinstance(rows[0], Sequence) else 0
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"A drawing is 1 to {MAX_SIDE} pixels on each side.")
    flat = []
    for row in rows:
        if not isinstance(row, Sequence) or len(row) != width:
            raise ValueError("Every row of a drawing must have the same number of pixels.")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 255:
                raise ValueError("Each pixel of a drawing is a number from 0 to 255.")
            flat.append(int(v))
    return width, height, bytes(flat)


def as_rows(pixels: bytes, width: int, height: int) -> list[list[int]]:
    """A stored drawing's ``pixels`` back as ``height`` rows of ``width`` numbers (0-255)."""
    return [list(pixels[r * width:(r + 1) * width]) for r in range(height)]


class LessonWork:
    """Saving and reading responses and drawings: a part of :class:`~tokens_edu.store.Journal`
    (which gives ``engine``, ``lesson``, the page's student and browser, and its writers)."""

    def _save_work(self, table: sa.Table, row: dict, limits, what: str, row_id) -> str:
        who = self._writer()
        retry = row_id is not None
        if row_id is None:
            row_id = str(uuid.uuid4())
        else:
            try:
                row_id = str(uuid.UUID(str(row_id)))
            except ValueError:
                raise ValueError(f"{row_id!r} is not an id (a UUID).") from None
        row = dict(row, id=row_id, student=who, saved_at=datetime.now(timezone.utc), browser=self._browser)
        self._save_row(table, row, what, retry, limits(), self._work_saves[table.name])
        return row_id

    def save_response(self, question: str, answer: str, kind: str = "prediction",
                      correct: bool | None = None, lesson: str | None = None,
                      response_id: str | None = None) -> str:
        """Save a student's answer to a prediction, an exit question or a lesson result.

        Args:
            question: the question's id in the lesson (e.g. ``"l05-bot-move"``), at most
                :data:`MAX_LABEL` characters; the same id each time the lesson asks it.
            answer: what the student chose or wrote, or the result (text, at most
                :data:`~tokens_edu.store.schema.MAX_ANSWER` characters).
            kind: ``"prediction"``, ``"exit"`` or ``"result"``.
            correct: True or False when the question has a right answer; None when it has not.
            lesson: the lesson's name; None uses this journal's ``lesson``.
            response_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the response's id.

        Raises:
            ValueError: no name yet, empty or too long text, an unknown kind, saving too often
                (plain words). Nothing is saved then.
            JournalUnavailable: the store refused the save (plain words).
        """
        question = _text(question, "question's id", MAX_LABEL)
        answer = _text(answer, "answer", schema.MAX_ANSWER)
        if kind not in schema.KINDS:
            raise ValueError(f"A response's kind is one of {', '.join(schema.KINDS)}, not {kind!r}.")
        if correct is not None and not isinstance(correct, bool):
            raise ValueError("'correct' is True, False or None.")
        row = {"lesson": self.lesson if lesson is None else _text(lesson, "lesson's name", MAX_LABEL),
               "question": question, "kind": kind, "answer": answer, "correct": correct}
        return self._save_work(schema.responses, row, lambda: RESPONSE_LIMITS, "Saving a response",
                               response_id)

    def response_for(self, question: str, lesson: str | None = None, student: str | None = None):
        """The latest response to ``question`` this page may read back (as
        :meth:`~tokens_edu.store.Journal.latest`).

        Returns:
            Saved | None: its words (``text``) and time, or None.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        who = student if student is not None else self.student
        if not who:
            return None
        r = schema.responses
        q = (sa.select(r.c.answer, r.c.saved_at)
             .where(*self._mine(r, who), r.c.question == question,
                    r.c.lesson == (self.lesson if lesson is None else lesson))
             .order_by(r.c.saved_at.desc(), r.c.seq.desc()).limit(1))
        rows = self._read(q, "Reading a response")
        return Saved(rows[0]["answer"], utc(rows[0]["saved_at"])) if rows else None

    def responses(self, all_students: bool = False, lessons: Iterable[str] | None = None,
                  kinds: Iterable[str] | None = None) -> pd.DataFrame:
        """Saved responses, oldest first.

        Args:
            all_students: False: the rows this page may read back; True: everyone's (teacher).
            lessons, kinds: only these (None: all).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.RESPONSE_COLUMNS`
            (``correct`` is True, False or None; ``saved_at`` a UTC time).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        r = schema.responses
        q = sa.select(*(r.c[c] for c in schema.RESPONSE_COLUMNS)).order_by(r.c.seq)
        q = self._whose(q, r, all_students)
        if lessons is not None:
            q = q.where(r.c.lesson.in_(list(lessons)))
        if kinds is not None:
            q = q.where(r.c.kind.in_(list(kinds)))
        return self._table(q, schema.RESPONSE_COLUMNS)

    def save_drawing(self, label: str, pixels, lesson: str | None = None,
                     drawing_id: str | None = None) -> str:
        """Save a picture the student drew and labelled.

        Args:
            label: what the picture shows (text, at most :data:`MAX_LABEL` characters).
            pixels: rows of numbers from 0 (white) to 255 (black), all rows the same length, at
                most :data:`MAX_SIDE` x :data:`MAX_SIDE` (a list of lists or a 2-D numpy array).
            lesson: the lesson's name; None uses this journal's ``lesson``.
            drawing_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the drawing's id.

        Raises:
            ValueError: no name yet, a bad label or picture, saving too often (plain words).
            JournalUnavailable: the store refused the save.
        """
        label = _text(label, "label", MAX_LABEL)
        width, height, data = _pixels(pixels)
        row = {"lesson": self.lesson if lesson is None else _text(lesson, "lesson's name", MAX_LABEL),
               "label": label, "width": width, "height": height, "pixels": data}
        return self._save_work(schema.drawings, row, lambda: DRAWING_LIMITS, "Saving a drawing",
                               drawing_id)

    def drawings(self, all_students: bool = False, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """Saved drawings with their students, oldest first.

        Args:
            all_students: False: the rows this page may read back; True: everyone's (teacher).
            lessons: only these lessons (None: all).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.DRAWING_COLUMNS`
            (``pixels`` is bytes: :func:`as_rows` gives the rows back).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        d = schema.drawings
        q = self._whose(sa.select(*(d.c[c] for c in schema.DRAWING_COLUMNS)).order_by(d.c.seq), d,
                        all_students)
        if lessons is not None:
            q = q.where(d.c.lesson.in_(list(lessons)))
        return self._table(q, schema.DRAWING_COLUMNS)

    def class_drawings(self, lesson: str | None = None, labels: Iterable[str] | None = None) -> pd.DataFrame:
        """Every student's drawings of a lesson without names or times: the class's training
        data. A student's own login may read these under JupyterHub too.

        Args:
            lesson: the lesson's name; None uses this journal's ``lesson``.
            labels: only these labels (None: all).

        Returns:
            pandas.DataFrame with the columns ``label``, ``width``, ``height``, ``pixels``
            (bytes), in the order they were saved.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        v = schema.class_drawings
        q = (sa.select(v.c.label, v.c.width, v.c.height, v.c.pixels)
             .where(v.c.lesson == (self.lesson if lesson is None else lesson)).order_by(v.c.seq))
        if labels is not None:
            q = q.where(v.c.label.in_(list(labels)))
        return self._table(q, ["label", "width", "height", "pixels"])

    def _whose(self, query, table: sa.Table, all_students: bool):
        if all_students:
            return query
        return query.where(*self._mine(table, self.student)) if self.student else query.where(sa.false())

    def _table(self, query, columns: list[str]) -> pd.DataFrame:
        import pandas as pd  # here, not at the top: a lesson kernel without tables saves ~45 MiB

        df = pd.DataFrame([dict(r) for r in self._read(query, "Reading lesson work")], columns=columns)
        if "saved_at" in df:
            df["saved_at"] = pd.to_datetime(df["saved_at"], utc=True)
        return df
