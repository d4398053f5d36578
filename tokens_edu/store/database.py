"""The open database: one engine shared by the store's classes, and the one place that says, in
plain words, when the store cannot be used now.

Every store class that keeps a student's work (:class:`~tokens_edu.store.answers.Answers`,
:class:`~tokens_edu.store.responses.Responses`, :class:`~tokens_edu.store.drawings.Drawings`, and
those other concerns add) is made on a :class:`Database`, and saves and reads through it:

* :meth:`Database.transaction` runs one unit of work; a storage error becomes
  :class:`~tokens_edu.store.db.JournalUnavailable` with :data:`CANNOT_SAVE` (a full or read-only
  folder, a server that is down, a damaged file: :attr:`Database.problem` says why, and the next
  use tries again) or :data:`SAVE_FAILED` (a one-off, such as a busy lock);
* :meth:`Database.read` reads rows; a failure becomes JournalUnavailable(:data:`READ_FAILED`);
* :meth:`Database.save_row` stores one row of a student's work with its retry id and save limits
  (:mod:`tokens_edu.store.limits`).

Making a Database never fails because the store cannot be used (a lesson still opens and plays):
:attr:`Database.problem` says why, and each use raises in plain words. A teacher's reading tool
passes ``read_only=True`` and is told at once.

Example::

    >>> db = Database("sqlite:///:memory:")
    >>> db.available, db.problem
    (True, None)
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque

import sqlalchemy as sa

from . import limits, schema
from .db import JournalUnavailable, StoreDamaged, damaged, damaged_message, default_url, dialect_insert
from .db import make_engine, shown_url, storage_error
from .migrate import ensure_current
from .writer import Writer

__all__ = ["Database", "SAVE_FAILED", "CANNOT_SAVE", "READ_FAILED", "new_id"]

log = logging.getLogger(__name__)

#: What a student reads when one save failed (a busy or briefly unreachable database).
SAVE_FAILED = "Your answer couldn't be saved just now. It is still in the box: try Save again."
#: What a student reads when answers cannot be stored at all now (a full or read-only folder).
CANNOT_SAVE = ("Answers can't be saved right now: the lesson server cannot store them. Your text "
               "is still in the box: copy it somewhere safe, and tell your teacher.")
#: What a student reads when saved work cannot be read back just now.
READ_FAILED = "The saved answers cannot be read just now. Try again in a moment."


def new_id(given: object, what: str = "an id") -> tuple[str, bool]:
    """(id, retry) for a save: a new UUID when ``given`` is None, else ``given`` checked.

    Raises:
        ValueError: ``given`` is not a UUID (plain words naming ``what``).
    """
    import uuid

    if given is None:
        return str(uuid.uuid4()), False
    try:
        return str(uuid.UUID(str(given))), True
    except ValueError:
        raise ValueError(f"{given!r} is not {what} (a UUID).") from None


class Database:
    """The store's database: its engine, and whether it can be used now.

    Args:
        url: a SQLAlchemy database URL, e.g. ``"sqlite:////tmp/j.sqlite"`` or
            ``"postgresql+psycopg://..."``; None uses :func:`~tokens_edu.store.db.default_url`.
        read_only: True for a teacher's reading tools (export): a missing answers table is not
            made, and a store that cannot be read raises at once.

    Opening checks the database's revision (:func:`tokens_edu.store.migrate.ensure_current`).

    Attributes:
        url: the URL (str). problem: why the store cannot be used now (plain words), or None.

    Raises:
        JournalUnavailable: only with ``read_only=True``, when the store cannot be read
            (:class:`~tokens_edu.store.db.StoreDamaged` for a damaged file).
    """

    def __init__(self, url: str | None = None, read_only: bool = False):
        self.read_only = read_only
        self.problem: str | None = None
        self._engine: sa.Engine | None = None
        try:
            self.url = url or default_url()
        except ValueError as e:
            self.url = url or ""
            self._set_problem(str(e))
            if read_only:
                raise JournalUnavailable(str(e)) from None
            return
        self._open()
        if read_only and self.problem:
            if damaged_message(self.url) == self.problem:
                raise StoreDamaged(self.problem)
            raise JournalUnavailable(f"The saved answers cannot be read: {self.problem}.")

    def _set_problem(self, why: str) -> None:
        if why != self.problem:
            # Under ``tokens-edu serve`` the server watches the data folder and tells the
            # teacher once; thirty kernels saying it too would bury that line.
            level = logging.INFO if os.environ.get("TOKENS_EDU_STORAGE_WATCHED") else logging.WARNING
            log.log(level, "Answers cannot be saved: %s (store: %s)", why, shown_url(self.url))
        self.problem = why

    def _open(self) -> bool:
        """Make the engine and check the database; on failure set :attr:`problem` (never raises)."""
        try:
            if self._engine is None:
                self._engine = make_engine(self.url)
            if self.read_only:
                with self._engine.connect() as conn:
                    if not sa.inspect(conn).has_table(schema.answers.name):
                        raise sa.exc.OperationalError("inspect", {}, Exception("no such table: answers"))
            ensure_current(self._engine)
        except ImportError as e:  # the URL names a database driver that is not installed
            self._set_problem(f"the database driver for {shown_url(self.url)} is missing "
                              f"({e.name or e}): install tokens-edu[postgres]")
            return False
        except JournalUnavailable as e:  # damaged, older (UpgradeNeeded), newer, or not ours to make
            self._set_problem(str(e))
            return False
        except (sa.exc.SQLAlchemyError, OSError) as e:
            self._set_problem(damaged_message(self.url) if damaged(e) else
                              f"the store at {shown_url(self.url)} cannot be used "
                              f"({str(e).splitlines()[0][:200]})")
            return False
        if self.problem:
            log.warning("Answers can be saved again (store: %s).", shown_url(self.url))
        self.problem = None
        return True

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine.

        Raises:
            JournalUnavailable: the store cannot be used now (:data:`CANNOT_SAVE`).
        """
        if self.problem and not self._open():
            raise JournalUnavailable(CANNOT_SAVE)
        if self._engine is None:
            raise JournalUnavailable(CANNOT_SAVE)
        return self._engine

    @property
    def available(self) -> bool:
        """True when the store can be used (tries again when it could not before)."""
        return self.problem is None or self._open()

    def transaction(self, what: str, work):
        """``work(conn)`` in one transaction; returns what it returns.

        Args:
            what: what is being done, for the log ("Saving an answer").
            work: a function of an open connection.

        Raises:
            JournalUnavailable: a storage error (:data:`CANNOT_SAVE` when the store cannot take
                writes now, else :data:`SAVE_FAILED`).
            ValueError, sqlalchemy.exc.IntegrityError: raised by ``work``, passed on as they are.
        """
        engine = self.engine
        try:
            with engine.begin() as conn:
                return work(conn)
        except (sa.exc.IntegrityError, ValueError):
            raise
        except sa.exc.SQLAlchemyError as e:
            if storage_error(e):
                self._set_problem(damaged_message(self.url) if damaged(e) else
                                  f"{what} failed: {str(e).splitlines()[0][:200]}")
                raise JournalUnavailable(CANNOT_SAVE) from None
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200])
            raise JournalUnavailable(SAVE_FAILED) from None

    def write(self, statements: list, what: str) -> None:
        """Run ``statements`` in one transaction (see :meth:`transaction`)."""
        self.transaction(what, lambda conn: [conn.execute(stmt) for stmt in statements])

    def read(self, query, what: str, failed: str = READ_FAILED) -> list:
        """The rows of ``query`` (mappings).

        Raises:
            JournalUnavailable: the store cannot be read now (``failed``, plain words).
        """
        engine = self.engine
        try:
            with engine.connect() as conn:
                return conn.execute(query).mappings().all()
        except sa.exc.SQLAlchemyError as e:
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200])
            raise JournalUnavailable(failed) from None

    def frame(self, query, columns: list[str], what: str = "Reading saved work"):
        """The rows of ``query`` as a pandas DataFrame with ``columns``; ``saved_at`` as UTC.

        Raises:
            JournalUnavailable: as :meth:`read`.
        """
        import pandas as pd  # here, not at the top: a lesson kernel without tables saves ~45 MiB

        df = pd.DataFrame([dict(r) for r in self.read(query, what)], columns=columns)
        if "saved_at" in df:
            df["saved_at"] = pd.to_datetime(df["saved_at"], utc=True)
        return df

    def save_row(self, table: sa.Table, row: dict, writer: Writer, what: str, retry: bool,
                 save_limits, page_times: deque, then=()) -> bool:
        """Store one row of ``writer``'s work (with its ``id``) in one transaction.

        A retried id that is there already is stored once and not counted; else the save limits
        are checked (``save_limits``: (saves, seconds) pairs, counted for this page in
        ``page_times`` and for the writer's browser in the database: :mod:`.limits`), then the
        row is inserted. ``then``: statements run afterwards in the same transaction either way
        (removing the answer's draft).

        Returns:
            bool: True when a new row was stored (False: a retry of a row already there).

        Raises:
            TooFast: saving too often (a ValueError whose words say how long to wait).
            JournalUnavailable: as :meth:`transaction`.
        """
        insert = dialect_insert(self.engine)

        def work(conn) -> bool:
            stored = retry and conn.execute(sa.select(table.c.id).where(table.c.id == row["id"])).first()
            if not stored:
                limits.check_page(save_limits, page_times)
                limits.check_writer(conn, table, writer, save_limits)
                if insert is not None:  # a retry racing this one: the id is stored once
                    conn.execute(insert(table).values(**row).on_conflict_do_nothing(index_elements=["id"]))
                else:
                    conn.execute(table.insert().values(**row))
            for stmt in then:
                conn.execute(stmt)
            return not stored

        try:
            new = self.transaction(what, work)
        except sa.exc.IntegrityError:
            return False  # (a database without ON CONFLICT) the same id saved at the same moment: once
        if new:
            page_times.append(time.monotonic())
        return bool(new)

    def __repr__(self) -> str:
        return f"<Database {shown_url(self.url)!r}{' (read only)' if self.read_only else ''}>"
