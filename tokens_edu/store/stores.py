"""The open stores of one page (or one tool): every store class on one shared database.

:class:`Stores` opens one :class:`~tokens_edu.store.database.Database` and gives each concern's
store class on it, made when first used::

    >>> from tokens_edu.store import Stores, Writer
    >>> stores = Stores("sqlite:///:memory:")
    >>> ana = Writer("Ana", trusted=True)
    >>> _ = stores.answers.save(ana, "01-read-a-card", "Chatbot", "It talks.")
    >>> stores.answers.latest(ana, "01-read-a-card", "Chatbot").text
    'It talks.'

A lesson page gets its Stores from its session (``session.store``, :mod:`tokens_edu.session`). A
new kind of saved work adds one store class (taking a :class:`~tokens_edu.store.Writer` per call)
and one property here.
"""

from __future__ import annotations

from functools import cached_property

import sqlalchemy as sa

from .answers import Answers
from .database import Database
from .drawings import Drawings
from .games import GameStore
from .responses import Responses
from .roster import Roster
from .sentences import Sentences

__all__ = ["Stores"]


class Stores:
    """Every store class on one database.

    Args:
        url: a SQLAlchemy database URL; None uses :func:`~tokens_edu.store.db.default_url`.
        read_only: True for a teacher's reading tools (see :class:`~tokens_edu.store.database.Database`).
        database: an open Database to use instead of ``url`` and ``read_only``.

    Raises:
        JournalUnavailable: only with ``read_only=True``, when the store cannot be read.
    """

    def __init__(self, url: str | None = None, read_only: bool = False, database: Database | None = None):
        self.database = database if database is not None else Database(url, read_only=read_only)

    @property
    def url(self) -> str:
        """The database's URL."""
        return self.database.url

    @property
    def problem(self) -> str | None:
        """Why the store cannot be used now (plain words), or None."""
        return self.database.problem

    @property
    def engine(self) -> sa.Engine:
        """The shared engine (JournalUnavailable when the store cannot be used now)."""
        return self.database.engine

    @cached_property
    def answers(self) -> Answers:
        """Discuss answers and drafts (:class:`~tokens_edu.store.answers.Answers`)."""
        return Answers(self.database)

    @cached_property
    def responses(self) -> Responses:
        """Predictions, exit answers and results (:class:`~tokens_edu.store.responses.Responses`)."""
        return Responses(self.database)

    @cached_property
    def drawings(self) -> Drawings:
        """Labelled drawings (:class:`~tokens_edu.store.drawings.Drawings`)."""
        return Drawings(self.database)

    @cached_property
    def sentences(self) -> Sentences:
        """Sentences shared with lesson 12's model (:class:`~tokens_edu.store.sentences.Sentences`)."""
        return Sentences(self.database)

    @cached_property
    def games(self) -> GameStore:
        """Saved games (:class:`~tokens_edu.store.games.GameStore`) on the same engine.

        Raises:
            JournalUnavailable, ValueError: the store cannot be used now (plain words).
        """
        return GameStore(self.url, engine=self.engine, read_only=self.database.read_only)

    @cached_property
    def roster(self) -> Roster:
        """The class list (:class:`~tokens_edu.store.roster.Roster`), read only.

        Raises:
            JournalUnavailable, ValueError: the store cannot be used now (plain words).
        """
        return Roster(self.url, engine=self.engine, read_only=True)

    def __repr__(self) -> str:
        return f"<Stores {self.database!r}>"
