"""Drawings: pictures a student drew and labelled, the class's training data of lesson 8.

A drawing is ``width`` x ``height`` pixels, each 0 (white) to 255 (black), at most
:data:`MAX_SIDE` on a side, with the label the student gave it (stored as ``pixels``, one byte per
pixel, row by row). The class's drawings come back without names or times
(:meth:`Drawings.for_class`, read through the ``class_drawings`` view, which a student's own
PostgreSQL login may read too).

The class data belongs to a class and a day: the teacher starts a new **set** for each class
(:meth:`Drawings.start_set`, from the dashboard). A drawing is added to its lesson's newest set,
and the class learns only from that set (:meth:`Drawings.for_class`): a new class's model starts
knowing nothing, and another class's drawings stay in the teacher's table. Before the teacher
starts a set, a lesson uses the first set (id ``""``). The teacher can delete one drawing
(:meth:`Drawings.delete`).

The typed commands of the lesson's command lab are saved the same way, with their labels
(:meth:`Drawings.save_command`, :meth:`Drawings.my_commands`, :meth:`Drawings.commands_table`,
:meth:`Drawings.delete_command`).

As for answers, saving takes a :class:`~tokens_edu.store.Writer`, saves are limited per browser
and per page (:data:`DRAWING_LIMITS`: drawing many quick pictures is the point of the lesson),
and the teacher's reads and actions take no writer::

    drawings.save(writer, "08-how-ai-senses", "cat", [[0, 255], [255, 0]])   # a 2 x 2 picture
    drawings.for_class("08-how-ai-senses")                                   # without names
    drawings.start_set("08-how-ai-senses", "7B")                             # 7B starts from nothing
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .database import Database, new_id
from .db import utc
from .responses import MAX_LABEL, checked_text
from .writer import Writer, readable_by

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Drawings", "MAX_SIDE", "DRAWING_LIMITS", "FIRST_SET", "as_rows", "pixels_of"]

#: Longest side of a drawing (pixels).
MAX_SIDE = 64
#: Most drawings saved in a time window: drawing many quick pictures is the point of lesson 8.
DRAWING_LIMITS = ((30, 60.0), (300, 3600.0))
#: The set a lesson uses before the teacher starts one (every drawing saved before sets existed).
FIRST_SET = {"id": "", "name": "First set", "started_at": None}


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
        self._command_saves: deque[float] = deque()

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
               "saved_at": datetime.now(timezone.utc), "browser": writer.browser,
               "set_id": self.current_set(lesson)["id"]}
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

    def for_class(self, lesson: str, labels: Iterable[str] | None = None,
                  set_id: str | None = None) -> pd.DataFrame:
        """Every student's drawings of ``lesson`` in its newest set, without names or times: the
        class's training data. A student's own login may read these under JupyterHub too.

        Args:
            lesson: the lesson's name.
            labels: only these labels (None: all).
            set_id: another set's id (None: the lesson's newest set, :meth:`current_set`).

        Returns:
            pandas.DataFrame with the columns ``label``, ``width``, ``height``, ``pixels``
            (bytes), in the order they were saved.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        if set_id is None:
            set_id = self.current_set(lesson)["id"]
        v = schema.class_drawings
        q = (sa.select(v.c.label, v.c.width, v.c.height, v.c.pixels)
             .where(v.c.lesson == lesson, v.c.set_id == set_id).order_by(v.c.seq))
        if labels is not None:
            q = q.where(v.c.label.in_(list(labels)))
        return self.database.frame(q, ["label", "width", "height", "pixels"])

    # -- sets: a class and a day ------------------------------------------------------------------
    def sets(self, lesson: str) -> list[dict]:
        """The sets of ``lesson``'s class data, oldest first: dicts with ``id``, ``name`` and
        ``started_at`` (UTC), the first set (:data:`FIRST_SET`) first.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        c = schema.class_sets
        q = sa.select(c.c.id, c.c.name, c.c.started_at).where(c.c.lesson == lesson).order_by(c.c.seq)
        return [dict(FIRST_SET)] + [{**r, "started_at": utc(r["started_at"])}
                                    for r in self.database.read(q, "Reading the class sets")]

    def current_set(self, lesson: str) -> dict:
        """``lesson``'s newest set (what its pages add to and learn from): a dict with ``id``,
        ``name`` and ``started_at``; :data:`FIRST_SET` before the teacher started one.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        c = schema.class_sets
        q = (sa.select(c.c.id, c.c.name, c.c.started_at).where(c.c.lesson == lesson)
             .order_by(c.c.seq.desc()).limit(1))
        rows = self.database.read(q, "Reading the class sets")
        return {**rows[0], "started_at": utc(rows[0]["started_at"])} if rows else dict(FIRST_SET)

    def start_set(self, lesson: str, name: str) -> str:
        """Start a new set of ``lesson``'s class data for a class (the teacher's action: it takes
        no writer). From now on the lesson's pages add to it and learn only from it, so the
        model starts knowing nothing; the older sets stay in the teacher's table.

        Args:
            lesson: the lesson's name. name: which class (e.g. "7B"; at most 200 characters).

        Returns:
            str: the new set's id.

        Raises:
            ValueError: an empty or too long name or lesson (plain words).
            JournalUnavailable: the store cannot take the change now.
        """
        name = checked_text(" ".join(str(name).split()) if isinstance(name, str) else name, "class's name",
                            MAX_LABEL)
        if not isinstance(lesson, str) or not lesson:
            raise ValueError("The lesson's name must be text.")
        lesson = checked_text(lesson, "lesson's name", MAX_LABEL)
        set_id, _retry = new_id(None)
        row = {"id": set_id, "lesson": lesson, "name": name, "started_at": datetime.now(timezone.utc)}
        self.database.transaction("Starting a new class set",
                                  lambda conn: conn.execute(sa.insert(schema.class_sets).values(**row)))
        return set_id

    def delete(self, drawing_id: str) -> bool:
        """Delete one drawing (the teacher's action: it takes no writer). The class's model no
        longer learns from it, the next time a page learns.

        Returns:
            bool: True when it existed; False for an unknown id.

        Raises:
            JournalUnavailable: the store cannot take the change now.
        """
        d = schema.drawings
        stmt = sa.delete(d).where(d.c.id == str(drawing_id))
        return bool(self.database.transaction("Deleting a drawing", lambda conn: conn.execute(stmt).rowcount))

    # -- the command lab's typed commands -----------------------------------------------------------
    def save_command(self, writer: Writer, lesson: str, text: str, label: str,
                     command_id: str | None = None) -> str:
        """Save a command the student typed and labelled in the lesson's command lab, in the
        lesson's newest set.

        Args:
            writer: who saves. lesson: the lesson's name. text: the command (spaces tidied; at
                most :data:`~tokens_edu.store.schema.MAX_COMMAND` characters). label: its move.
            command_id: a UUID for this save (a retry with the same id stores nothing new).

        Returns:
            str: the command's id.

        Raises:
            ValueError: an empty or too long command or label, saving too often (plain words).
            JournalUnavailable: the store refused the save.
        """
        text = checked_text(" ".join(text.split()) if isinstance(text, str) else text, "command",
                            schema.MAX_COMMAND)
        label = checked_text(label, "label", MAX_LABEL)
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        if lesson:
            lesson = checked_text(lesson, "lesson's name", MAX_LABEL)
        command_id, retry = new_id(command_id)
        row = {"id": command_id, "student": writer.name, "lesson": lesson, "text": text, "label": label,
               "saved_at": datetime.now(timezone.utc), "browser": writer.browser,
               "set_id": self.current_set(lesson)["id"]}
        self.database.save_row(schema.commands, row, writer, "Saving a command", retry, DRAWING_LIMITS,
                               self._command_saves)
        return command_id

    def my_commands(self, writer: Writer | None, lesson: str) -> list[tuple[str, str]]:
        """The commands ``writer`` may read back in ``lesson``'s newest set, oldest first, as
        ``(text, label)`` pairs (none for None): what a reloaded page starts from.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        if writer is None:
            return []
        c = schema.commands
        q = (sa.select(c.c.text, c.c.label)
             .where(*readable_by(c, writer), c.c.lesson == lesson, c.c.set_id == self.current_set(lesson)["id"])
             .order_by(c.c.seq))
        return [(r["text"], r["label"]) for r in self.database.read(q, "Reading a student's commands")]

    def commands_table(self, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """Every student's typed commands with their names, oldest first (the teacher's table):
        the columns of :data:`~tokens_edu.store.schema.COMMAND_COLUMNS`.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        c = schema.commands
        q = sa.select(*(c.c[k] for k in schema.COMMAND_COLUMNS)).order_by(c.c.seq)
        if lessons is not None:
            q = q.where(c.c.lesson.in_(list(lessons)))
        return self.database.frame(q, schema.COMMAND_COLUMNS, "Reading the commands")

    def delete_command(self, command_id: str) -> bool:
        """Delete one typed command (the teacher's action). Returns True when it existed.

        Raises:
            JournalUnavailable: the store cannot take the change now.
        """
        c = schema.commands
        stmt = sa.delete(c).where(c.c.id == str(command_id))
        return bool(self.database.transaction("Deleting a command", lambda conn: conn.execute(stmt).rowcount))

    def __repr__(self) -> str:
        return f"<Drawings in {self.database!r}>"
