"""``Journal``: the old one-object journal, kept as a thin facade for notebooks until tokens-edu 0.4.0.

It is a :class:`~tokens_edu.session.PageSession` (who is at the page) with the old methods, each
one call of a store class with the page's writer::

    journal.save(card, text)             ->  session.store.answers.save(session.writer(), lesson, card, text)
    journal.answers(all_students=True)   ->  session.store.answers.table()
    journal.save_response(q, a)          ->  session.store.responses.save(session.writer(), lesson, q, a)
    journal.class_drawings()             ->  session.store.drawings.for_class(lesson)

New code uses :class:`~tokens_edu.session.PageSession` in a lesson and the store classes
(:mod:`tokens_edu.store`) in a tool; nothing in the package uses this facade. Making a Journal
gives a :class:`DeprecationWarning`.

The old module paths ``tokens_edu.journal`` and ``tokens_edu.store.journal`` are this module
(with a warning, :mod:`tokens_edu._moved`); the names they held are answered here too, each with a
warning that names its new home.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from .. import _moved
from ..store import Stores, Writer
from ..store.answers import card_name_and_prompt
from ..store.db import shown_url
from .page import PageSession

if TYPE_CHECKING:
    import pandas as pd

    from ..store.db import Draft, Saved

__all__ = ["Journal"]

#: The names the old ``tokens_edu.journal`` module held, and their homes now.
_OLD = {
    "JournalUnavailable": "tokens_edu.store.db", "Saved": "tokens_edu.store.db",
    "Draft": "tokens_edu.store.db", "default_url": "tokens_edu.store.db",
    "data_folder": "tokens_edu.store.db", "BUSY_TIMEOUT_MS": "tokens_edu.store.db",
    "CONNECT_TIMEOUT_S": "tokens_edu.store.db",
    "COLUMNS": "tokens_edu.store.schema", "MAX_ANSWER": "tokens_edu.store.schema",
    "MAX_NAME": "tokens_edu.store.schema", "metadata": "tokens_edu.store.schema",
    "CODE_LENGTH": "tokens_edu.store.schema", "roster_table": "tokens_edu.store.schema:roster",
    "answers_table": "tokens_edu.store.schema:answers", "drafts_table": "tokens_edu.store.schema:drafts",
    "SAVE_FAILED": "tokens_edu.store.database", "CANNOT_SAVE": "tokens_edu.store.database",
    "too_long_message": "tokens_edu.store.answers",
    "write_csv": "tokens_edu.store.export", "spreadsheet_safe": "tokens_edu.store.export",
    "normalize_code": "tokens_edu.store.roster",
    "student_from_query": "tokens_edu.session.address", "query_string": "tokens_edu.session.address",
    "query_known": "tokens_edu.session.address", "code_from_query": "tokens_edu.session.address",
    "CODE_NEEDED": "tokens_edu.session.page",
}

__getattr__ = _moved.moved_names(__name__, _OLD)


class Journal(PageSession):
    """The old journal: a :class:`~tokens_edu.session.PageSession` with the old methods (see the
    module's words). Kept for notebooks until tokens-edu 0.4.0.

    Args:
        url: a SQLAlchemy database URL; None uses the store's default.
        student: a name given by the lesson's code (trusted); None leaves it to the page.
        lesson: the lesson's name, stored with every row.
        read_only: for a teacher's reading tool (export): a store that cannot be read raises at
            once, and the page's address is never read.

    Raises:
        ValueError: the name is unusable or the lesson is not text.
        JournalUnavailable: only with ``read_only=True``, when the store cannot be read.
    """

    def __init__(self, url: str | None = None, student: str | None = None, lesson: str = "",
                 read_only: bool = False):
        warnings.warn("Journal is replaced by tokens_edu.session.PageSession (in a lesson) and the "
                      "store classes of tokens_edu.store (in a tool). Journal will be removed in "
                      f"tokens-edu {_moved.REMOVAL}.", DeprecationWarning, stacklevel=2)
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        super().__init__(lesson, url=url, student=student,
                         store=Stores(url, read_only=read_only), read_only=read_only)
        self.read_only = read_only

    # --- the store, as the old journal showed it ------------------------------------------

    @property
    def engine(self):
        """The SQLAlchemy engine (JournalUnavailable when the store cannot be used now)."""
        return self.store.engine

    @property
    def _engine(self):
        return self.store.database._engine

    @property
    def available(self) -> bool:
        """True when the store can be used (tries again when it could not before)."""
        return self.store.database.available

    def _reader(self, student: str | None) -> Writer | None:
        """The writer whose rows the page may read: ``student``'s (trusted only when it is the
        page's proven name), or the page's own; None when there is no name."""
        who = student if student is not None else self.student
        if not who:
            return None
        own = who == self._student
        return Writer(who, trusted=own and self.trusted, browser=self.browser)

    def _lesson_or(self, lesson: str | None) -> str:
        return self.lesson if lesson is None else lesson

    # --- answers and drafts --------------------------------------------------------------

    def save(self, card, answer: str, prompt: str | None = None, answer_id: str | None = None,
             lesson: str | None = None) -> str:
        """:meth:`tokens_edu.store.answers.Answers.save` with the page's writer."""
        return self.store.answers.save(self.writer(), self._lesson_or(lesson), card, answer,
                                       prompt=prompt, answer_id=answer_id)

    def save_draft(self, card, text: str, lesson: str | None = None) -> bool:
        """:meth:`tokens_edu.store.answers.Answers.save_draft` with the page's writer."""
        return self.store.answers.save_draft(self.writer(), self._lesson_or(lesson), card, text)

    def answers(self, all_students: bool = False, lessons: Iterable[str] | None = None,
                students: Iterable[str] | None = None, since: datetime | None = None) -> pd.DataFrame:
        """Everyone's answers (``all_students``: :meth:`~tokens_edu.store.answers.Answers.table`),
        else the ones this page may read back (:meth:`~tokens_edu.store.answers.Answers.mine`)."""
        if all_students:
            return self.store.answers.table(lessons, students, since)
        return self.store.answers.mine(self._reader(None), lessons, students, since)

    def latest(self, card, lesson: str | None = None, student: str | None = None) -> Saved | None:
        """:meth:`tokens_edu.store.answers.Answers.latest` for the page (or ``student``)."""
        card_name_and_prompt(card)  # an unknown card is refused even without a name
        reader = self._reader(student)
        return self.store.answers.latest(reader, self._lesson_or(lesson), card) if reader else None

    def answer_for(self, card, lesson: str | None = None) -> str | None:
        """The page's student's latest saved answer about ``card`` (its words), or None."""
        found = self.latest(card, lesson=lesson) if self.student else None
        return found.text if found else None

    def draft_for(self, card, lesson: str | None = None, student: str | None = None) -> Draft | None:
        """:meth:`tokens_edu.store.answers.Answers.draft` for the page (or ``student``)."""
        card_name_and_prompt(card)
        reader = self._reader(student)
        return self.store.answers.draft(reader, self._lesson_or(lesson), card) if reader else None

    def export_csv(self, path, all_students: bool = False, lessons: Iterable[str] | None = None,
                   students: Iterable[str] | None = None) -> int:
        """:meth:`tokens_edu.store.answers.Answers.export_csv` (everyone's, or the page's own)."""
        return self.store.answers.export_csv(path, lessons, students, writer=self._reader(None),
                                             own=not all_students)

    # --- responses and drawings -----------------------------------------------------------

    def save_response(self, question: str, answer: str, kind: str = "prediction",
                      correct: bool | None = None, lesson: str | None = None,
                      response_id: str | None = None) -> str:
        """:meth:`tokens_edu.store.responses.Responses.save` with the page's writer."""
        return self.store.responses.save(self.writer(), self._lesson_or(lesson), question, answer,
                                         kind=kind, correct=correct, response_id=response_id)

    def response_for(self, question: str, lesson: str | None = None, student: str | None = None):
        """:meth:`tokens_edu.store.responses.Responses.latest` for the page (or ``student``)."""
        reader = self._reader(student)
        return self.store.responses.latest(reader, self._lesson_or(lesson), question) if reader else None

    def responses(self, all_students: bool = False, lessons: Iterable[str] | None = None,
                  kinds: Iterable[str] | None = None) -> pd.DataFrame:
        """Everyone's responses, or the ones this page may read back."""
        if all_students:
            return self.store.responses.table(lessons, kinds)
        return self.store.responses.mine(self._reader(None), lessons, kinds)

    def save_drawing(self, label: str, pixels, lesson: str | None = None,
                     drawing_id: str | None = None) -> str:
        """:meth:`tokens_edu.store.drawings.Drawings.save` with the page's writer."""
        return self.store.drawings.save(self.writer(), self._lesson_or(lesson), label, pixels,
                                        drawing_id=drawing_id)

    def drawings(self, all_students: bool = False, lessons: Iterable[str] | None = None) -> pd.DataFrame:
        """Everyone's drawings, or the ones this page may read back."""
        if all_students:
            return self.store.drawings.table(lessons)
        return self.store.drawings.mine(self._reader(None), lessons)

    def class_drawings(self, lesson: str | None = None, labels: Iterable[str] | None = None) -> pd.DataFrame:
        """:meth:`tokens_edu.store.drawings.Drawings.for_class` (the lesson's, without names)."""
        return self.store.drawings.for_class(self._lesson_or(lesson), labels)

    def __repr__(self) -> str:
        who = self._student or "no name yet"
        return f"<Journal {shown_url(self.url)!r} student={who!r} lesson={self.lesson!r}>"
