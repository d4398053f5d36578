"""Where the class's data lives: the database URL, the data folder, and the engine.

Where the rows live is a SQLAlchemy URL (:func:`default_url`):

1. ``TOKENS_EDU_DB_URL`` when set (for example a PostgreSQL server for a whole school:
   ``postgresql+psycopg://ana@db.school.example/tokens``, with ``pip install tokens-edu[postgres]``);
2. else an SQLite file ``journal.sqlite`` in the folder ``TOKENS_EDU_DATA``;
3. else the same file in the per-user data folder (``platformdirs.user_data_dir("tokens-edu")``).

A database password is never part of the URL: it comes from ``TOKENS_EDU_DB_PASSWORD`` (or
PostgreSQL's own ``PGPASSWORD`` / ``~/.pgpass``), so it shows on no command line, page or log
line. Log lines and messages show the URL with any password masked (:func:`shown_url`).

SQLite runs in WAL mode with a busy timeout, and writes take the write lock up front
(``BEGIN IMMEDIATE``), so many Voila kernels (one per student page) can save at the same moment
without losing a row. No connection is kept open between saves (``NullPool``): a class of 30,
or a school of 1,000 kernels, holds no idle database connections; each save opens one for a
few milliseconds. Against PostgreSQL, server-side prepared statements are off
(``prepare_threshold=None``), so a pooler such as PgBouncer in transaction mode can sit in front
of the database and share a few server connections among all kernels (see ``docs/deploy.md``).

Problems are told in plain words: :class:`JournalUnavailable` (the store cannot be used now) and
:class:`StoreDamaged` (an SQLite file that is not a database any more: one line that says what to
do, :func:`damaged_message`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import platformdirs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.pool import NullPool, StaticPool

__all__ = ["JournalUnavailable", "StoreDamaged", "Saved", "Draft", "BUSY_TIMEOUT_MS", "CONNECT_TIMEOUT_S",
           "data_folder", "default_url", "shown_url", "make_engine", "dialect_insert",
           "storage_error", "damaged", "damaged_message", "sqlite_path", "check", "utc"]

#: How long (milliseconds) a writer waits for another writer to finish before giving up.
BUSY_TIMEOUT_MS = 30_000

#: Seconds a kernel waits for the database server to accept a connection.
CONNECT_TIMEOUT_S = 10


class JournalUnavailable(ValueError):
    """The store cannot be used now; the message is plain words for a student or a teacher.

    A ``ValueError``, so code that shows a ValueError's words shows it."""


class StoreDamaged(JournalUnavailable):
    """The SQLite file is damaged (not a database any more). The message is one line that says
    which file and what to do (:func:`damaged_message`)."""


@dataclass(frozen=True)
class Saved:
    """Saved words and their time, as read back (an answer, a response).

    Attributes:
        text: the words as typed.
        saved_at: when it was written (an aware UTC datetime).
    """

    text: str
    saved_at: datetime


@dataclass(frozen=True)
class Draft(Saved):
    """Text a student typed but has not saved (see :meth:`tokens_edu.store.answers.Answers.draft`)."""


def data_folder() -> Path:
    """The folder of ``journal.sqlite``: ``TOKENS_EDU_DATA``, else the per-user data folder.

    Returns:
        Path: the folder (it may not exist yet).
    """
    folder = os.environ.get("TOKENS_EDU_DATA", "").strip()
    if not folder:
        folder = platformdirs.user_data_dir("tokens-edu")
    return Path(folder).expanduser()


def default_url() -> str:
    """The database URL to use when none is given.

    Returns:
        str: ``TOKENS_EDU_DB_URL`` when set; else ``sqlite:///<folder>/journal.sqlite`` where the
        folder is :func:`data_folder`. The folder is created when missing.

    Raises:
        ValueError: the folder cannot be created (the message names it).
    """
    url = os.environ.get("TOKENS_EDU_DB_URL", "").strip()
    if url:
        return url
    path = data_folder()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"Cannot make the folder for saved answers ({path}): {e.strerror or e}.") from None
    return f"sqlite:///{(path / 'journal.sqlite').resolve()}"


def shown_url(url: str) -> str:
    """``url`` with any password masked (``***``), for log lines and messages."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: show only its kind
        return url.split("://", 1)[0] + "://..." if "://" in url else "(a database URL)"


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL (``"sqlite:////srv/a/journal.sqlite"`` -> ``"/srv/a/journal.sqlite"``),
    or None for another database, an in-memory one or a string that is not a URL."""
    try:
        parsed = sa.engine.make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    name = parsed.database
    return name[len("file:"):].split("?", 1)[0] if name.startswith("file:") else name


def _set_sqlite_pragmas(dbapi_connection, connection_record) -> None:
    """``connect`` listener: wait for other writers, and use the write-ahead log (WAL)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
    finally:
        cursor.close()


def make_engine(url: str, pooled: bool = False) -> sa.Engine:
    """An Engine for ``url``: no pooled connections; SQLite set up for many writers.

    For a server database (PostgreSQL), the password comes from ``TOKENS_EDU_DB_PASSWORD`` when
    set (never from the command line); no connection is pooled in the kernel (``NullPool``),
    connecting waits at most :data:`CONNECT_TIMEOUT_S` s, and psycopg never prepares statements
    on the server (so PgBouncer's transaction pooling works). An in-memory SQLite URL gives one
    shared connection (tests, doctests).

    Args:
        url: a SQLAlchemy URL (str).
        pooled: True for one long-running reader, such as the teacher's dashboard polling every
            second: on a server database it keeps up to two connections open (checked before
            use), which saves the login of each look (about 17 ms of SCRAM here). Lesson
            kernels keep the default (a school of 1,000 kernels holds no idle connection).

    Raises:
        sqlalchemy.exc.ArgumentError: ``url`` is not a database URL.
        ImportError: the URL names a database driver that is not installed.
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        password = os.environ.get("TOKENS_EDU_DB_PASSWORD")
        if password:
            parsed = parsed.set(password=password)
        connect_args: dict = {}
        if parsed.get_backend_name() == "postgresql":
            connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
            connect_args["application_name"] = "tokens-edu"
            if parsed.get_driver_name() == "psycopg":
                connect_args["prepare_threshold"] = None
        if pooled:
            return sa.create_engine(parsed, pool_size=2, max_overflow=2, pool_pre_ping=True,
                                    pool_recycle=300, connect_args=connect_args)
        return sa.create_engine(parsed, poolclass=NullPool, connect_args=connect_args)
    memory = parsed.database in (None, "", ":memory:")
    # isolation_level="IMMEDIATE": the sqlite3 driver starts each INSERT's transaction with
    # BEGIN IMMEDIATE, taking the write lock at once (waiting up to the busy timeout) instead of
    # failing half-way. Reads stay in autocommit.
    connect_args = {"isolation_level": "IMMEDIATE", "timeout": BUSY_TIMEOUT_MS / 1000}
    if memory:  # one shared in-memory database; nothing to share between processes
        connect_args["check_same_thread"] = False
        engine = sa.create_engine(url, poolclass=StaticPool, connect_args=connect_args)
    else:
        engine = sa.create_engine(url, poolclass=NullPool, connect_args=connect_args)
    sa.event.listen(engine, "connect", _set_sqlite_pragmas)
    return engine


def dialect_insert(engine):
    """The ``insert()`` of the engine's dialect that knows ``ON CONFLICT`` (SQLite, PostgreSQL),
    or None for another database."""
    backend = engine.dialect.name
    if backend == "sqlite":
        return sqlite_dialect.insert
    if backend == "postgresql":
        return pg_dialect.insert
    return None


#: Words in a database error that mean "the store cannot take writes now" (not a one-off).
_STORAGE_WORDS = ("readonly", "read-only", "read only", "disk is full", "no space",
                  "unable to open", "permission denied", "disk i/o", "could not connect",
                  "connection refused", "no such table", "no such column",
                  "authentication failed", "could not translate host name", "timeout expired")

#: Words SQLite uses for a file that is not (or no longer) a database.
_DAMAGED_WORDS = ("file is not a database", "database disk image is malformed",
                  "malformed database schema", "file is encrypted or is not a database")


def storage_error(e: BaseException) -> bool:
    """True when the database error ``e`` means the store cannot take writes now (a full,
    read-only or missing store, a server that is down), not a one-off such as a busy lock."""
    text = str(e).lower()
    return any(w in text for w in _STORAGE_WORDS) or damaged(e)


def damaged(e: BaseException) -> bool:
    """True when ``e`` says the SQLite file is damaged (not a database any more)."""
    text = str(e).lower()
    return any(w in text for w in _DAMAGED_WORDS)


def damaged_message(url: str) -> str:
    """One line for a teacher: which file is damaged and what to do.

    Args:
        url: the database URL (an SQLite file).
    """
    where = sqlite_path(url) or shown_url(url)
    return (f"The answers file {where} is damaged (it is not a database any more). Stop the "
            "lesson server and the dashboard, rename the file (for example to "
            "journal-damaged.sqlite) and start again: a new, empty file is made. Keep the "
            "damaged file: 'sqlite3 journal-damaged.sqlite .recover' may get the answers back.")


def check(url: str) -> str | None:
    """Whether the database at ``url`` can be opened and read, for a server's start-up check.

    An SQLite file that is not there yet is fine (it is made at the first save) and is not
    created here. An SQLite file is checked with ``PRAGMA quick_check`` (a few milliseconds for
    a class's answers).

    Returns:
        str | None: None when it can be used; else one line in plain words for the teacher
        (:func:`damaged_message` for a damaged file).
    """
    path = sqlite_path(url)
    if path is not None and not Path(path).exists():
        return None
    try:
        engine = make_engine(url)
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                found = conn.exec_driver_sql("PRAGMA quick_check").scalar()
                if found != "ok":
                    return damaged_message(url)
            else:
                conn.execute(sa.text("SELECT 1"))
    except ImportError as e:
        return f"The database driver for {shown_url(url)} is missing ({e.name or e}): install tokens-edu[postgres]."
    except sa.exc.SQLAlchemyError as e:
        if damaged(e):
            return damaged_message(url)
        return f"The answers database {shown_url(url)} cannot be used: {str(e).splitlines()[0][:200]}"
    return None


def utc(at: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives times back without a zone; the
    store writes UTC). None stays None."""
    if at is not None and getattr(at, "tzinfo", None) is None:
        return at.replace(tzinfo=timezone.utc)
    return at
