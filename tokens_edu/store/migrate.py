"""Bringing a database up to date with the store's Alembic migrations.

Tables are made and changed only by the migrations in ``tokens_edu/store/migrations/versions``
(never by ``CREATE TABLE IF NOT EXISTS``), so a school's database with a year of answers is
changed in place and loses nothing. Who runs them:

* a lesson's :class:`~tokens_edu.store.Journal`, the saved games, the class list and the teacher's
  dashboard call :func:`ensure_current` when they open a database: one small query when it is up
  to date (the usual case; Alembic is not even imported), else :func:`upgrade`;
* the JupyterHub deploy runs :func:`upgrade` at every Hub start, as the database's owner
  (students' own logins may not change tables; see :mod:`tokens_edu.store.logins`);
* an administrator may run ``python -m tokens_edu.store.migrate [URL]``.

An upgrade runs every migration it needs in **one transaction that holds the database's write
lock** (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so 30 kernels opening a new
database at the same moment upgrade it once, and an upgrade that fails half-way leaves the
database exactly as it was.
"""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

import sqlalchemy as sa

from .db import JournalUnavailable, StoreDamaged, damaged, damaged_message, default_url, make_engine, shown_url

__all__ = ["HEAD", "REVISIONS", "MIGRATIONS", "MigrationRefused", "upgrade", "ensure_current",
           "revision", "alembic_config", "main"]

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
            if sa.inspect(conn).has_table("alembic_version"):
                raise  # there, but unreadable (permissions): say so
            return None


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


def ensure_current(engine: sa.Engine) -> None:
    """Make sure the database is up to date: nothing to do (one query, which also shows that
    the database can be reached) or :func:`upgrade`.

    Raises:
        StoreDamaged: an SQLite file that is not a database any more (one line: what to do).
        JournalUnavailable: the database was made by a newer tokens-edu, or cannot be brought
            up to date with this login (plain words for the teacher; nothing was changed).
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached.
    """
    key = str(engine.url)
    try:
        found = revision(engine)
        if found == HEAD:
            return
        if found is not None and found not in REVISIONS:
            raise JournalUnavailable(
                f"The answers database {shown_url(key)} was brought up to date by a newer "
                f"tokens-edu (its revision is {found}; this one knows up to {HEAD}). Install that "
                "version (pip install -U tokens-edu) to use it.")
        upgrade(engine)
    except MigrationRefused as e:
        raise JournalUnavailable(str(e)) from None
    except sa.exc.SQLAlchemyError as e:
        if damaged(e):
            raise StoreDamaged(damaged_message(key)) from None
        if isinstance(e, sa.exc.ProgrammingError) and "permission denied" in str(e).lower():
            raise JournalUnavailable(
                f"The answers database {shown_url(key)} is older than this tokens-edu, and this "
                "login may not bring it up to date. Restart the server that owns it (JupyterHub "
                "brings it up to date at its start), or run: python -m tokens_edu.store.migrate") from None
        raise


def main(argv: list[str] | None = None) -> int:
    """``python -m tokens_edu.store.migrate [URL]``: bring a database up to date and say so.

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
        engine = make_engine(url)
        before = revision(engine)
        after = upgrade(engine)
    except (ValueError, MigrationRefused, ImportError) as e:
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    except sa.exc.SQLAlchemyError as e:
        message = damaged_message(url) if damaged(e) else str(e).splitlines()[0]
        print(f"tokens-edu: {message}", file=sys.stderr)
        return 2
    said = "was already" if before == after else f"is now (it was {before or 'from before migrations'})"
    print(f"The database {shown_url(url)} {said} up to date (revision {after}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
