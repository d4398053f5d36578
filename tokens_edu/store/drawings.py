"""Drawings: pictures a student drew and labelled, the class's training data of lesson 8.

A drawing is ``width`` x ``height`` pixels, each 0 (white) to 255 (black), at most
:data:`MAX_SIDE` on a side, with the label the student gave it (stored as ``pixels``, one byte per
pixel, row by row). The class's drawings come back without names or times
(:meth:`Drawings.for_class`, read through the ``class_drawings`` view, which a student's own
PostgreSQL login may read too).

As for answers, saving takes a :class:`~tokens_edu.store.Writer`, saves are limited per browser
and per page (:data:`DRAWING_LIMITS`: drawing many quick pictures is the point of the lesson),
and the teacher's read (:meth:`Drawings.table`) takes no writer::

    drawings.save(writer, "08-how-ai-senses", "cat", [[0, 255], [255, 0]])   # a 2 x 2 picture
    drawings.for_class("08-how-ai-senses")                                   # without names
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .database import Database, new_id
from .responses import MAX_LABEL, checked_text
from .writer import Writer, readable_by

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Drawings", "MAX_SIDE", "DRAWING_LIMITS", "as_rows", "pixels_of"]

#: Longest side of a drawing (pixels).
MAX_SIDE = 64
#: Most drawings saved in a time window: drawing many quick pictures is the point of lesson 8.
DRAWING_LIMITS = ((30, 60.0), (300, 3600.0))


def pixels_of(rows: object) -> tuple[int, int, bytes]:
    """(width, height, bytes) of a picture given as rows of 0-255 numbers.

    Args:
        rows: a list of equal-length rows of numbers from 0 to 255 (or a 2-D numpy array), at
            most :data:`MAX_SIDE` x :data:`MAX_SIDE`.

    Raises:
        ValueError: not such a picture (plain words).
    """
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


class Drawings:
    """Students' labelled drawings, in one :class:`~tokens_edu.store.Database`.

    One object per page (it counts the page's saves for :data:`DRAWING_LIMITS`).

    Args:
        database: the open database (shared with the other store classes).
    """

    def __init__(self, database: Database):
        self.database = database
        self._saves: deque[float] = deque()

    def save(self, writer: Writer, lesson: str, label: str, pixels, drawing_id: str | None = None) -> str:
        """Save a picture the student drew and labelled.

        Args:
            writer: who saves. lesson: the lesson's name.
            label: what the picture shows (text, at most :data:`MAX_LABEL` characters).
            pixels: rows of numbers from 0 (white) to 255 (black) (see :func:`pixels_of`).
            drawing_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the drawing's id.

        Raises:
            ValueError: a bad label or picture, saving too often (plain words).
            JournalUnavailable: the store refused the save.
        """
        label = checked_text(label, "label", MAX_LABEL)
        width, height, data = pixels_of(pixels)
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        if lesson:
            lesson = checked_text(lesson, "lesson's name", MAX_LABEL)
        drawing_id, retry = new_id(drawing_id)
        row = {"id": drawing_id, "student": writer.name, "lesson": lesson, "label": label,
               "width": width, "height": height, "pixels": data,
               "saved_at": datetime.now(timezone.utc), "browser": writer.browser}
        self.database.save_row(schema.drawings, row, writer, "Saving a drawing", retry,
                               DRAWING_LIMITS, self._saves)
        return drawing_id

    def _query(self, writer: Writer | None, own: bool, lessons):
        d = schema.drawings
        q = sa.select(*(d.c[c] for c in schema.DRAWING_COLUMNS)).order_by(d.c.seq)
        if own:
            q = q.where(*readable_by(d, writer)) if writer is not None else q.where(sa.false())
        if lessons is not None:
            q = q.where(d.c.lesson.in_(list(lessons)))
        return q

    def mine(self, writer: Writer | None, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """The drawings ``writer`` may read back (none for None), as :meth:`table` gives them.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(writer, True, lessons), schema.DRAWING_COLUMNS)

    def table(self, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """Every student's drawings with their names, oldest first (the teacher's table).

        Returns:
            pandas.DataFrame with the columns of :data:`~tokens_edu.store.schema.DRAWING_COLUMNS`
            (``pixels`` is bytes: :func:`as_rows` gives the rows back).

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self.database.frame(self._query(None, False, lessons), schema.DRAWING_COLUMNS)

    def for_class(self, lesson: str, labels: Iterable[str] | None = None) -> pd.DataFrame:
        """Every student's drawings of ``lesson`` without names or times: the class's training
        data. A student's own login may read these under JupyterHub too.

        Args:
            lesson: the lesson's name.
            labels: only these labels (None: all).

        Returns:
            pandas.DataFrame with the columns ``label``, ``width``, ``height``, ``pixels``
            (bytes), in the order they were saved.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        v = schema.class_drawings
        q = (sa.select(v.c.label, v.c.width, v.c.height, v.c.pixels)
             .where(v.c.lesson == lesson).order_by(v.c.seq))
        if labels is not None:
            q = q.where(v.c.label.in_(list(labels)))
        return self.database.frame(q, ["label", "width", "height", "pixels"])

    def __repr__(self) -> str:
        return f"<Drawings in {self.database!r}>"
