"""The store: everything saved for a class, in SQLite or PostgreSQL.

One module per concern:

- :mod:`.db`: the database URL and data folder, the engine, plain problems
  (:class:`JournalUnavailable`, :class:`StoreDamaged`).
- :mod:`.schema`: every table, written once.
- :mod:`.migrate` and ``migrations/``: Alembic migrations that make and change the tables
  (also the row-level security of PostgreSQL); :func:`upgrade`.
- :mod:`.answers`: students' Discuss answers and drafts (:class:`Journal`), with rate limits.
- :mod:`.responses`: predictions, exit questions, lesson results and drawings (methods of
  :class:`Journal`).
- :mod:`.identity`: who the page's student is (JupyterHub login, class-roster code, a name given
  in code, or a typed name that shows only what its own browser wrote).
- :mod:`.feed`: the teacher's reads, a little at a time (:class:`AnswerFeed`, counts).
- :mod:`.export`: CSV files a spreadsheet opens safely.
- :mod:`.games`: games kept after every move, to continue after a reload (:class:`GameStore`).
- :mod:`.roster`: the class list with codes (:class:`Roster`).
- :mod:`.logins`: each student's own PostgreSQL login, for JupyterHub.
- :mod:`.journal`: the old ``tokens_edu.journal`` names, kept for one release.

The store's log messages go to the ``tokens_edu.store`` loggers; the library shows none by
itself (a lesson kernel's stderr is the student's page): the lesson server and the commands
decide where they go.
"""

import logging

from .answers import Journal
from .db import JournalUnavailable, StoreDamaged, data_folder, default_url
from .feed import AnswerFeed, answer_counts, latest_answers, latest_seq
from .games import GameKeeper, GameStore
from .migrate import upgrade
from .roster import Roster

__all__ = ["Journal", "JournalUnavailable", "StoreDamaged", "data_folder", "default_url",
           "GameStore", "GameKeeper", "Roster", "AnswerFeed", "answer_counts", "latest_answers",
           "latest_seq", "upgrade"]

# Python's advice for a library: no handler but NullHandler, so that without the application's
# own logging set-up nothing is printed (Python's last-resort handler would print warnings on
# stderr, which in a lesson kernel is the student's page).
logging.getLogger(__name__).addHandler(logging.NullHandler())
