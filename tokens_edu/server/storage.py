"""The answers folder's watch: when answers cannot be saved there (read-only, full), the teacher's
console says so once, with the folder's path, and again once it works. And the answers
database's check at start (:func:`database_at_start`).

Runs in the ``tokens-edu serve`` process (:mod:`.launcher`); the lesson kernels leave telling
the teacher to it (``TOKENS_EDU_STORAGE_WATCHED=1``) and tell the students themselves.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

from ..errors import UsageProblem
from ..store.db import data_folder

__all__ = ["storage_problem", "StorageWatch", "LOW_SPACE_MIB", "database_at_start"]

#: Less free space than this (MiB) in the answers folder counts as full.
LOW_SPACE_MIB = 20


def storage_problem(folder: Path) -> str | None:
    """Why answers cannot be saved in ``folder`` now, in plain words, or None when they can.

    Checks that the folder exists (or can be made), that a file can be written in it, that its
    ``journal.sqlite`` (when there) is writable, and that it has at least
    :data:`LOW_SPACE_MIB` MiB free.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"the folder {folder} cannot be made ({e.strerror or e})"
    db = folder / "journal.sqlite"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tokens-edu-check-"):
            pass
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            return f"the folder {folder} is full"
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return f"the folder {folder} is read-only"
        return f"the folder {folder} cannot be written ({e.strerror or e})"
    if db.exists() and not os.access(db, os.W_OK):
        return f"the file {db} is read-only"
    try:
        st = os.statvfs(folder)
        if st.f_bavail * st.f_frsize < LOW_SPACE_MIB * 2**20:
            return f"the folder {folder} is full (less than {LOW_SPACE_MIB} MiB left)"
    except (OSError, AttributeError):
        pass
    return None


class StorageWatch(threading.Thread):
    """Checks the answers folder every ``every`` seconds; says so once when saving stops or
    works again (a teacher's console must not fill with the same line)."""

    def __init__(self, folder: Path, every: float = 15.0, out=None):
        super().__init__(name="tokens-edu-storage-watch", daemon=True)
        self.folder, self.every, self.out = folder, every, out
        self.problem: str | None = None
        self.stopped = threading.Event()

    def check(self) -> str | None:
        """Check now; print a line when the state changed. Returns the problem or None."""
        problem = storage_problem(self.folder)
        if problem != self.problem:
            if problem:
                print(f"Answers cannot be saved: {problem}. Lessons still open and play, and "
                      "students are told that saving does not work right now. Free some space "
                      "or fix the folder's permissions; no restart is needed.",
                      file=self.out or sys.stdout, flush=True)
            elif self.problem is not None:
                print(f"Answers can be saved again in {self.folder}.",
                      file=self.out or sys.stdout, flush=True)
            self.problem = problem
        return problem

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                self.check()
            except Exception:  # a check must never stop the server
                pass


def database_at_start(args, env: dict, data: Path | None) -> None:
    """Refuse to start on an answers database at a wrong revision (older than this tokens-edu
    and not brought up to date, or one it does not know), in one line; with ``--upgrade-db``
    bring an older one up to date first (an SQLite file is copied next to itself) and say so
    in one line. A new or missing database is fine: the first page makes it.

    Args:
        args: ``tokens-edu serve``'s options (``upgrade_db``, ``data_dir``).
        env: the server's environment (``TOKENS_EDU_DB_URL``).
        data: the answers folder, or None when answers go to ``TOKENS_EDU_DB_URL``.

    Raises:
        UsageProblem: the one line (nothing was changed).
    """
    import sqlalchemy as sa  # the launcher's process only, at start

    from ..store import migrate  # Alembic: only when the server starts
    from ..store.db import JournalUnavailable, sqlite_path  # (with it)

    url = env.get("TOKENS_EDU_DB_URL", "").strip() or f"sqlite:///{(data or data_folder()) / 'journal.sqlite'}"
    if getattr(args, "upgrade_db", False):
        path = sqlite_path(url)
        if path is None or Path(path).exists():
            try:
                before, after, copy = migrate.upgrade_database(url)
            except (JournalUnavailable, migrate.MigrationRefused, ImportError, OSError, sqlite3.Error) as e:
                raise UsageProblem(str(e)) from None
            except sa.exc.SQLAlchemyError as e:
                raise UsageProblem("The answers database refused to be brought up to date, and nothing "
                                   f"was changed: {str(e).splitlines()[0][:300]}") from None
            if before != after:
                print(migrate.upgraded_line(url, before, after, copy), flush=True)
    problem = migrate.start_problem(url, str(args.data_dir) if args.data_dir is not None else None)
    if problem:
        raise UsageProblem(problem + (" Or start with: tokens-edu serve --upgrade-db."
                                      if migrate.UPGRADE_COMMAND in problem else ""))
