"""The store: everything saved for a class, in SQLite or PostgreSQL.

- :mod:`.journal`: students' Discuss answers and drafts (:class:`Journal`), the database URL and
  data folder, the page's student name, CSV export.
- :mod:`.games`: games kept after every move, to continue after a reload (:class:`GameStore`).
- :mod:`.roster`: the class list with codes (:class:`Roster`).
"""

from .games import GameKeeper, GameStore
from .journal import Journal, JournalUnavailable, data_folder, default_url
from .roster import Roster

__all__ = ["Journal", "JournalUnavailable", "data_folder", "default_url", "GameStore", "GameKeeper", "Roster"]
