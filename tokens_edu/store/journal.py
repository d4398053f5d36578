"""The old ``tokens_edu.journal`` names, in one place (kept for one release).

The journal was one module of 1,200 lines; it is now the store's modules, one per concern:

* :mod:`.db`: the database URL, the data folder, the engine, plain problems
  (``default_url``, ``data_folder``, ``JournalUnavailable``, ``Saved``, ``Draft``);
* :mod:`.schema`: every table, once (``metadata``, ``COLUMNS``, ``MAX_ANSWER``, ``MAX_NAME``...);
* :mod:`.migrate` and ``migrations/``: Alembic migrations, which make and change the tables;
* :mod:`.answers`: the :class:`Journal` of answers and drafts (``SAVE_FAILED``, ``CANNOT_SAVE``);
* :mod:`.identity`: who the page's student is (``student_from_query``, ``query_string``,
  ``query_known``, ``code_from_query``, ``normalize_code``, ``CODE_NEEDED``);
* :mod:`.export`: safe CSV files (``write_csv``, ``spreadsheet_safe``).

``import tokens_edu.journal`` gives this module (with a DeprecationWarning); new code imports
from :mod:`tokens_edu.store` or the modules above. One behaviour changed: adding a table to
``metadata`` no longer makes it; tables come from the migrations.
"""

from __future__ import annotations

from .answers import CANNOT_SAVE, SAVE_FAILED, Journal, too_long_message
from .db import BUSY_TIMEOUT_MS, CONNECT_TIMEOUT_S, Draft, JournalUnavailable, Saved, data_folder, default_url
from .export import spreadsheet_safe, write_csv
from .identity import CODE_NEEDED, code_from_query, normalize_code, query_known, query_string, student_from_query
from .schema import CODE_LENGTH, COLUMNS, MAX_ANSWER, MAX_NAME, metadata
from .schema import answers as answers_table
from .schema import drafts as drafts_table
from .schema import roster as roster_table

__all__ = ["Journal", "JournalUnavailable", "Saved", "Draft", "COLUMNS", "MAX_ANSWER", "MAX_NAME",
           "SAVE_FAILED", "CANNOT_SAVE", "default_url", "data_folder", "student_from_query",
           "query_string", "query_known", "write_csv", "spreadsheet_safe", "metadata",
           "CODE_NEEDED", "CODE_LENGTH", "normalize_code", "code_from_query", "roster_table",
           "answers_table", "drafts_table", "too_long_message", "BUSY_TIMEOUT_MS", "CONNECT_TIMEOUT_S"]
