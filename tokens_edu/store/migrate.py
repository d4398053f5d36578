"""Bringing a database up to date with the store's Alembic migrations, only when asked.

Tables are made and changed only by the migrations in ``tokens_edu/store/migrations/versions``
(never by ``CREATE TABLE IF NOT EXISTS``), so a school's database with a year of answers is
changed in place and loses nothing. A database is changed only when someone asks, as
JupyterHub does (``jupyterhub upgrade-db``):

* a **new, empty** database is made at the newest revision (:data:`HEAD`) by whoever opens it
  first (a lesson's kernel, the class list, the saved games: :func:`ensure_current`);
* a database at an **older** revision (or made before migrations, tokens-edu 0.2) is not
  changed by opening it: :func:`ensure_current` raises :class:`UpgradeNeeded`, whose one line
  says to run ``tokens-edu upgrade-db``; ``tokens-edu serve`` and ``tokens-edu teacher`` refuse
  to start on it in that line (:func:`start_problem`); ``tokens-edu serve --upgrade-db`` brings
  it up to date at the start and says so;
* a database whose revision this tokens-edu does not know (a newer tokens-edu, or a wrong
  version row) is refused the same way, and never changed;
* :func:`upgrade_database` (``tokens-edu upgrade-db``, ``python -m tokens_edu.store.migrate``)
  first copies an SQLite file next to itself with the time in its name (:func:`backup_sqlite`),
  then runs the migrations; the JupyterHub deploy runs :func:`upgrade` at every Hub start, as
  the database's owner (students' own logins may not change tables; see
  :mod:`tokens_edu.store.logins`), and PostgreSQL is backed up by its own tools.

An upgrade runs every migration it needs in **one transaction that holds the database's write
lock** (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so 30 kernels opening a new
database at the same moment make it once, and an upgrade that fails half-way leaves the
database exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import sys
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

from .db import JournalUnavailable, StoreDamaged, damaged, damaged_message, default_url, make_engine, shown_url
from .db import sqlite_path

__all__ = ["HEAD", "REVISIONS", "MIGRATIONS", "MigrationRefused", "UpgradeNeeded", "upgrade", "ensure_current",
           "revision", "alembic_config", "backup_sqlite", "upgrade_database", "start_problem",
           "UPGRADE_COMMAND", "main"]

#: The folder of Alembic's environment and the migration files.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def _chain(folder: Path) -> tuple[str, ...]:
    """The revisions of the migration files in ``folder``, oldest first, read from their
    ``revision = "..."`` and ``down_revision = ...`` lines (Alembic itself is not imported: a
    lesson kernel checks the revision at every open). A new migration is one new file.

    Raises:
        RuntimeError: the files do not form one line of revisions (two heads, a gap).
    """
    found = {}
    for path in sorted(folder.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        rev = re.search(r"^revision\s*=\s*[\"']([^\"']+)[\"']", text, re.M)
        down = re.search(r"^down_revision\s*=\s*(?:[\"']([^\"']+)[\"']|None)", text, re.M)
        if rev and down:
            found[rev.group(1)] = down.group(1)
    children = {down: rev for rev, down in found.items()}
    if len(children) != len(found):
        raise RuntimeError(f"The store's migrations have more than one head: {sorted(found)}. "
                           "Point the newest one's down_revision at the one before it.")
    chain, at = [], None
    while at in children:
        at = children[at]
        chain.append(at)
    if len(chain) != len(found):
        raise RuntimeError(f"The store's migrations do not form one line: {sorted(found)}.")
    return tuple(chain)


#: Every migration, oldest first, from the files in ``migrations/versions``.
REVISIONS = _chain(MIGRATIONS / "versions")
#: The newest migration (what :mod:`tokens_edu.store.schema` describes).
HEAD = REVISIONS[-1]

#: PostgreSQL advisory lock held while migrating (the number the Hub used before migrations).
_LOCK_KEY = 7301402


#: What a teacher runs to bring an older database up to date (said in every message about it).
UPGRADE_COMMAND = "tokens-edu upgrade-db"


class UpgradeNeeded(JournalUnavailable):
    """The database is older than this tokens-edu (or was made before migrations) and has not
    been brought up to date: it is not used until someone runs :data:`UPGRADE_COMMAND`. The
    message is one line that says so; nothing was changed.

    Attributes:
        found: the database's revision (None: made before migrations).
    """

    def __init__(self, message: str, found: str | None):
        super().__init__(message)
        self.found = found


class MigrationRefused(RuntimeError):
    """A migration cannot run with this database login; the message says, in plain words, who
    must do what (e.g. "A database administrator should run once: CREATE ROLE ...")."""


def alembic_config(connection=None):
    """Alembic's configuration for the store's migrations (an ``alembic.config.Config``).

    Args:
        connection: an open SQLAlchemy Connection the migrations run on (None: ``env.py`` makes
            one from the ``sqlalchemy.url`` option, else :func:`~tokens_edu.store.db.default_url`).
    """
    from alembic.config import Config  # heavy (Mako, Alembic's operations): only when migrating

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def revision(engine: sa.Engine) -> str | None:
    """The database's migration revision (``"0004"``), or None when it has none yet (a new
    database, or one made before migrations: tokens-edu 0.2 and older).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    with engine.connect() as conn:
        try:
            return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        except sa.exc.DBAPIError:
            conn.rollback()
            if not sa.inspect(conn).has_table("alembic_version"):
                return None
            # There now: another kernel made this new database a moment ago (read it again), or
            # it is unreadable (permissions: this raises, and says so).
            return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


@contextlib.contextmanager
def _locked(engine: sa.Engine):
    """A connection in one transaction that holds the database's write lock."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # waits for other writers (busy timeout)
        elif engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        try:
            yield conn
        except BaseException:
            conn.rollback()
            raise
        conn.commit()


def upgrade(engine: sa.Engine, to: str = "head") -> str | None:
    """Run the migrations the database needs, in one locked transaction (all or nothing).

    Args:
        engine: the database, logged in as a login that may create and change its tables (on
            PostgreSQL the owner; for the first upgrade also ``CREATEROLE``, see
            :mod:`tokens_edu.store.migrations.versions` 0002).
        to: the revision to reach (default: the newest).

    Returns:
        str | None: the database's revision afterwards.

    Raises:
        MigrationRefused: this login may not do what a migration needs (plain words).
        sqlalchemy.exc.SQLAlchemyError: the database refused (nothing was changed).
    """
    from alembic import command  # heavy: only when a database needs changing

    with _locked(engine) as conn:
        command.upgrade(alembic_config(conn), to)
        return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _has_tables(engine: sa.Engine) -> bool:
    """Whether the database holds any of the store's tables (a database made before migrations
    has some; a new, empty one none)."""
    from .schema import metadata  # (the tables' names; schema imports nothing of ours back)

    with engine.connect() as conn:
        names = set(sa.inspect(conn).get_table_names())
    return bool(names & set(metadata.tables))


def _where(url: str) -> str:
    """The database as a teacher reads it: an SQLite file's path, else its URL (no password)."""
    return sqlite_path(url) or shown_url(url)


def _unknown_message(url: str, found: str) -> str:
    return (f"The answers database {_where(url)} says it is at revision {found}, which this "
            f"tokens-edu does not know (it knows {REVISIONS[0]} to {HEAD}): it was made by a newer "
            "tokens-edu, or its version row was changed. Install that version (pip install -U "
            "tokens-edu), or use another --data-dir. Nothing was changed.")


def _older_message(url: str, found: str | None, data_dir: str | None = None) -> str:
    was = f"at revision {found}" if found else "from before migrations (tokens-edu 0.2)"
    option = f" --data-dir {data_dir}" if data_dir else ""
    return (f"The answers database {_where(url)} is {was}, older than this tokens-edu "
            f"({HEAD}): stop the lesson server and the dashboard, then run: "
            f"{UPGRADE_COMMAND}{option} (it keeps a copy of the file first; under JupyterHub, "
            "restart the Hub). Nothing was changed.")


def state(engine: sa.Engine) -> str | None:
    """The database's revision when it is :data:`HEAD`; else raises why it may not be used.

    Returns:
        str | None: :data:`HEAD`, or None for a new, empty database (nothing of ours in it).

    Raises:
        UpgradeNeeded: an older revision, or tables made before migrations.
        JournalUnavailable: a revision this tokens-edu does not know.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    key = str(engine.url)
    found = revision(engine)
    if found == HEAD:
        return found
    if found is not None and found not in REVISIONS:
        raise JournalUnavailable(_unknown_message(key, found))
    if found is None and _has_tables(engine):
        found = revision(engine)  # another kernel may have just made this new database
        if found == HEAD:
            return found
    elif found is None:
        return None
    raise UpgradeNeeded(_older_message(key, found), found)


def ensure_current(engine: sa.Engine) -> None:
    """Make sure the database may be used as it is: up to date (one query; Alembic is not even
    imported), or new and empty (then made at :data:`HEAD` with :func:`upgrade`). A database
    at an older or unknown revision is never changed here.

    Raises:
        UpgradeNeeded: an older revision, or tables made before migrations (one line: run
            ``tokens-edu upgrade-db``).
        StoreDamaged: an SQLite file that is not a database any more (one line: what to do).
        JournalUnavailable: a revision this tokens-edu does not know, or a new database this
            login may not make (plain words for the teacher; nothing was changed).
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
    """
    key = str(engine.url)
    try:
        if state(engine) is None:
            upgrade(engine)  # a new database: made at the newest revision (locked: made once)
    except MigrationRefused as e:
        raise JournalUnavailable(str(e)) from None
    except sa.exc.SQLAlchemyError as e:
        if damaged(e):
            raise StoreDamaged(damaged_message(key)) from None
        if isinstance(e, sa.exc.ProgrammingError) and "permission denied" in str(e).lower():
            raise JournalUnavailable(
                f"The answers database {shown_url(key)} is new, and this login may not make its "
                "tables. Start the server that owns it first (JupyterHub makes them at its "
                f"start), or run: {UPGRADE_COMMAND}") from None
        raise


def backup_sqlite(path: str | Path, now: datetime | None = None) -> Path:
    """Copy the SQLite file ``path`` next to itself, the time in the copy's name:
    ``journal.sqlite`` -> ``journal-2026-12-02-095012.sqlite`` (``-2``, ``-3``... when that
    name is taken). The copy is made with SQLite's backup API, so answers still in the
    write-ahead log are in it, and a writer at the same moment cannot tear it.

    Args:
        path: the database file.
        now: the time to put in the name (default: now, local time).

    Returns:
        Path: the copy.

    Raises:
        OSError, sqlite3.Error: the copy cannot be made (then the database is not upgraded).
    """
    path = Path(path)
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    copy = path.with_name(f"{path.stem}-{stamp}{path.suffix}")
    n = 1
    while copy.exists():
        n += 1
        copy = path.with_name(f"{path.stem}-{stamp}-{n}{path.suffix}")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    return copy


def _cannot_write(path: Path) -> str | None:
    """Why the SQLite file ``path`` cannot be copied and brought up to date here, in one plain
    line (nothing was changed), or None: it is a folder, or this user may not write in its
    folder or the file (a read-only folder or disk, another user's files)."""
    if path.is_dir():
        return f"{path} is a folder, not an answers file. Nothing was changed."
    if path.exists() and not (os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)):
        return (f"This user may not write in {path.parent} (the folder or the answers file in it "
                "is read-only), so the answers file cannot be copied and brought up to date. "
                "Run the command as the user who runs the lesson server. Nothing was changed.")
    return None


def upgrade_database(url: str, backup: bool = True) -> tuple[str | None, str | None, Path | None]:
    """Bring the database at ``url`` up to date, as ``tokens-edu upgrade-db`` does: nothing when
    it is already; else (SQLite, ``backup``) copy the file first (:func:`backup_sqlite`), then
    :func:`upgrade`. A database at a revision this tokens-edu does not know is never changed.

    Args:
        url: a SQLAlchemy URL (a password comes from ``TOKENS_EDU_DB_PASSWORD``).
        backup: copy an SQLite file first (other databases are backed up by their own tools).

    Returns:
        (revision before, revision after, the copy or None).

    Raises:
        JournalUnavailable: a revision this tokens-edu does not know, or an SQLite file this
            user may not write (or a folder in its place), in plain words.
        StoreDamaged: a damaged SQLite file.
        MigrationRefused: this login may not do what a migration needs.
        OSError, sqlite3.Error: the copy cannot be made (nothing was changed).
        sqlalchemy.exc.SQLAlchemyError: the database refused (nothing was changed).
    """
    path = sqlite_path(url)
    problem = _cannot_write(Path(path)) if path is not None else None
    if problem and Path(path).is_dir():
        raise JournalUnavailable(problem)
    engine = make_engine(url)
    try:
        try:
            before = revision(engine)
        except sa.exc.OperationalError:
            if problem:  # SQLite cannot even read it in a read-only folder (its journal files)
                raise JournalUnavailable(problem) from None
            raise
        if before == HEAD:
            return before, before, None
        if before is not None and before not in REVISIONS:
            raise JournalUnavailable(_unknown_message(url, before))
        if problem:
            raise JournalUnavailable(problem)
        copy = None
        if backup and path is not None and Path(path).exists() and (before or _has_tables(engine)):
            copy = backup_sqlite(path)
        return before, upgrade(engine), copy
    except sa.exc.SQLAlchemyError as e:
        if damaged(e):
            raise StoreDamaged(damaged_message(url)) from None
        raise
    finally:
        engine.dispose()


def start_problem(url: str, data_dir: str | None = None) -> str | None:
    """Why a server (``tokens-edu serve``, ``tokens-edu teacher``) may not start on the database
    at ``url``, in one line, or None when it may: up to date, new, or not there yet (an SQLite
    file that is missing is not made here). Only a wrong revision is a reason: a database that
    cannot be reached now is told by the pages that use it.

    Args:
        url: the database's URL.
        data_dir: the folder to name in the command the line gives (``--data-dir DIR``).
    """
    path = sqlite_path(url)
    if path is not None and not Path(path).exists():
        return None
    try:
        engine = make_engine(url)
    except (ImportError, ValueError, sa.exc.SQLAlchemyError):
        return None
    try:
        state(engine)
    except UpgradeNeeded as e:
        return _older_message(url, e.found, data_dir)
    except JournalUnavailable as e:
        return str(e)
    except sa.exc.SQLAlchemyError as e:
        return damaged_message(url) if damaged(e) else None
    finally:
        engine.dispose()
    return None


def main(argv: list[str] | None = None) -> int:
    """``python -m tokens_edu.store.migrate [URL]``: bring a database up to date (an SQLite file
    is copied first) and say so; the same as ``tokens-edu upgrade-db``.

    The URL defaults to the store's (``TOKENS_EDU_DB_URL``, else ``journal.sqlite`` in the data
    folder); a password comes from ``TOKENS_EDU_DB_PASSWORD``. Exit 0 when up to date, 2 with a
    plain message when not.
    """
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(main.__doc__.split("\n\n")[0].strip())
        return 0
    try:
        url = args[0] if args else default_url()
        print(upgraded_line(url, *upgrade_database(url)))
    except (ValueError, MigrationRefused, ImportError, OSError, sqlite3.Error) as e:
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    except sa.exc.SQLAlchemyError as e:
        print(f"tokens-edu: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    return 0


def upgraded_line(url: str, before: str | None, after: str | None, copy: Path | None) -> str:
    """One line that says what :func:`upgrade_database` did (and where the copy is)."""
    if before == after:
        return f"The database {_where(url)} was already up to date (revision {after})."
    was = before or "from before migrations"
    kept = f" The file as it was is kept at {copy}." if copy else ""
    return f"The database {_where(url)} is now up to date (revision {after}; it was {was}).{kept}"


if __name__ == "__main__":
    raise SystemExit(main())
