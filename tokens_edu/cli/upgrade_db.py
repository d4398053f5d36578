"""``tokens-edu upgrade-db``: bring the answers database up to date with this tokens-edu, after
copying an SQLite file next to itself (as ``jupyterhub upgrade-db`` does; see
:mod:`tokens_edu.store.migrate`).

A lesson server, the dashboard and the lessons never change an older database by themselves:
they say to run this command (or ``tokens-edu serve --upgrade-db``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
from pathlib import Path

import sqlalchemy as sa

from ..errors import UsageProblem
from ..store.db import JournalUnavailable, data_folder, sqlite_path
from ..store.migrate import MigrationRefused, upgrade_database, upgraded_line

__all__ = ["add_command", "run", "database_url"]


def add_command(sub) -> None:
    """Add ``upgrade-db`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
    parser = sub.add_parser(
        "upgrade-db",
        help="bring the answers database up to date with this tokens-edu (after copying it)",
        description=(
            "Bring the answers database up to date with this version of tokens-edu. An answers "
            "file (journal.sqlite) is first copied next to itself with the date and time in the "
            "copy's name (journal-2026-12-02-095012.sqlite), and the command says where. "
            "Stop the lesson server and the dashboard first. A database that is already up to "
            "date is not touched. A PostgreSQL database is not copied: back it up with "
            "pg_dump first."),
    )
    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                        help="the folder given to 'tokens-edu serve --data-dir' (default: "
                             "TOKENS_EDU_DB_URL, else TOKENS_EDU_DATA, else the per-user data folder)")
    parser.add_argument("--db-url", metavar="URL", default=None,
                        help="a database URL instead (default: TOKENS_EDU_DB_URL); its password "
                             "comes from TOKENS_EDU_DB_PASSWORD")
    parser.set_defaults(run=run)


def database_url(data_dir: Path | None, db_url: str | None = None) -> str:
    """The database a command works on: ``db_url``; else ``journal.sqlite`` in ``data_dir``;
    else ``TOKENS_EDU_DB_URL``; else ``journal.sqlite`` in the data folder.

    Raises:
        UsageProblem: both given, or ``data_dir`` is a file.
    """
    if db_url and data_dir is not None:
        raise UsageProblem("Give --data-dir or --db-url, not both.")
    if db_url:
        return db_url
    if data_dir is None and os.environ.get("TOKENS_EDU_DB_URL", "").strip():
        return os.environ["TOKENS_EDU_DB_URL"].strip()
    folder = (data_dir if data_dir is not None else data_folder()).expanduser().resolve()
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"--data-dir {folder} is a file, not a folder.")
    return f"sqlite:///{folder / 'journal.sqlite'}"


def run(args: argparse.Namespace) -> int:
    """``tokens-edu upgrade-db``: copy, then bring up to date, and say so in one line (or two).
    Exit 0, or 2 with one plain line when it cannot be done (nothing was changed)."""
    url = database_url(args.data_dir, args.db_url)
    path = sqlite_path(url)
    if path is not None and not Path(path).exists():
        raise UsageProblem(f"There is no answers database at {path} yet: nothing to bring up to "
                           "date (a new one is made at the newest revision when it is first used).")
    try:
        before, after, copy = upgrade_database(url)
    except (JournalUnavailable, MigrationRefused, ImportError, OSError, sqlite3.Error) as e:
        raise UsageProblem(str(e)) from None
    except sa.exc.SQLAlchemyError as e:
        raise UsageProblem(f"The database refused, and nothing was changed: {str(e).splitlines()[0][:300]}") from None
    print(upgraded_line(url, before, after, copy), flush=True)
    return 0
