"""The store: everything saved for a class, in SQLite or PostgreSQL.

The store never asks who is at a page (that is :mod:`tokens_edu.session`): each call about a
student's work takes a :class:`Writer` (name, trusted, browser). One module per concern:

- :mod:`.db`: the database URL and data folder, the engine, plain problems
  (:class:`JournalUnavailable`, :class:`StoreDamaged`).
- :mod:`.database`: :class:`Database`, the open database shared by the store classes, and the
  one place that says when the store cannot be used now.
- :mod:`.writer`: :class:`Writer`, who writes and how sure the page is of it.
- :mod:`.limits`: save limits per browser, with a truthful wait.
- :mod:`.schema`: every table, written once.
- :mod:`.migrate` and ``migrations/``: Alembic migrations that make and change the tables
  (also the row-level security of PostgreSQL); :func:`upgrade`.
- :mod:`.answers`: Discuss answers and drafts (:class:`Answers`).
- :mod:`.responses`: predictions, exit questions and lesson results (:class:`Responses`).
- :mod:`.drawings`: labelled drawings, lesson 8's training data (:class:`Drawings`).
- :mod:`.stores`: :class:`Stores`, every store class on one database.
- :mod:`.feed`: the teacher's reads, a little at a time (:class:`AnswerFeed`, counts).
- :mod:`.export`: CSV files a spreadsheet opens safely.
- :mod:`.games`: games kept after every move, to continue after a reload (:class:`GameStore`).
- :mod:`.roster`: the class list with codes (:class:`Roster`).
- :mod:`.logins`: each student's own PostgreSQL login, for JupyterHub.

The old one-object journal is :class:`tokens_edu.session.journal.Journal`, a facade kept for
notebooks until tokens-edu 0.4.0 (the store's old name for it warns).

The store's log messages go to the ``tokens_edu.store`` loggers; the library shows none by
itself (a lesson kernel's stderr is the student's page): the lesson server and the commands
decide where they go.
"""

import logging

from .. import _moved
from .answers import Answers
from .database import Database
from .db import JournalUnavailable, StoreDamaged, data_folder, default_url
from .drawings import Drawings
from .feed import AnswerFeed, answer_counts, latest_answers, latest_seq
from .games import GameKeeper, GameStore
from .migrate import upgrade
from .responses import Responses
from .roster import Roster
from .stores import Stores
from .writer import Writer

__all__ = ["Writer", "Database", "Stores", "Answers", "Responses", "Drawings", "JournalUnavailable",
           "StoreDamaged", "data_folder", "default_url", "GameStore", "GameKeeper", "Roster", "AnswerFeed",
           "answer_counts", "latest_answers", "latest_seq", "upgrade"]

# Old names that moved up to the session layer: imported by name when first used (the store
# never imports the session layer), with a DeprecationWarning.
__getattr__ = _moved.moved_names(__name__, {"Journal": "tokens_edu.session.journal"})

# Python's advice for a library: no handler but NullHandler, so that without the application's
# own logging set-up nothing is printed (Python's last-resort handler would print warnings on
# stderr, which in a lesson kernel is the student's page).
logging.getLogger(__name__).addHandler(logging.NullHandler())
