"""The answers database changes only when asked (issue 26 part 5, issue 29 part 8):

* ``tokens-edu upgrade-db`` copies an answers file next to itself (the time in the copy's name),
  says where, then brings the database up to date, as ``jupyterhub upgrade-db`` does;
* ``tokens-edu serve`` and ``tokens-edu teacher`` refuse, in one plain line, a database whose
  version row is wrong: older than the code and not brought up to date, or a revision this
  tokens-edu does not know (before, the server started and every save then failed);
  ``serve --upgrade-db`` brings an older one up to date at the start and says so in one line;
* a lesson opening an older database changes nothing; a new, empty one is made at the newest
  revision.
"""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from tokens_edu import cli
from tokens_edu.server import launcher
from tokens_edu.store import Stores, migrate
from tokens_edu.store.writer import Writer

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "store_d60bab8" / "journal.sql"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "TOKENS_EDU_DB_PASSWORD", "QUERY_STRING"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "elsewhere"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _version(path: Path) -> str | None:
    with sqlite3.connect(path) as con:
        try:
            return con.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        except sqlite3.OperationalError:
            return None


def _copies(folder: Path) -> list[Path]:
    """The copies ``upgrade-db`` made in ``folder`` (``journal-<time>.sqlite``)."""
    return sorted(p for p in folder.iterdir() if p.name.startswith("journal-"))


def _dump(path: Path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.fixture
def data(tmp_path) -> Path:
    """A data folder whose answers file is up to date and holds one answer."""
    folder = tmp_path / "answers"
    folder.mkdir()
    stores = Stores(f"sqlite:///{folder / 'journal.sqlite'}")
    stores.answers.save(Writer("Ana", trusted=True, browser="b" * 64), "01-read-a-card", "Chatbot", "words")
    assert _version(folder / "journal.sqlite") == migrate.HEAD
    return folder


def _set_version(folder: Path, version: str) -> None:
    with sqlite3.connect(folder / "journal.sqlite") as con:
        con.execute("UPDATE alembic_version SET version_num = ?", (version,))


@pytest.fixture
def old_data(tmp_path) -> Path:
    """A data folder with the answers file tokens-edu 0.2 left (made before migrations)."""
    folder = tmp_path / "old"
    folder.mkdir()
    con = sqlite3.connect(folder / "journal.sqlite")
    con.executescript(OLD.read_text(encoding="utf-8"))
    con.close()
    return folder


@pytest.fixture
def lessons(tmp_path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "tiny.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    return folder


@pytest.fixture
def started(monkeypatch):
    """Stands in for Voila: records that the server would have started, and starts nothing."""
    runs = []
    monkeypatch.setattr(launcher, "_run", lambda cmd, env, args, watch: runs.append(cmd) or 0)
    return runs


# --- a wrong version row is refused at start (issue 29 part 8) -----------------------------------

@pytest.mark.parametrize("version,words", [
    ("0099", "which this tokens-edu does not know"),
    ("0004", "is at revision 0004, older than this tokens-edu"),
], ids=["unknown", "older"])
def test_serve_refuses_a_wrong_version_row_in_one_line(data, lessons, started, version, words, capsys):
    _set_version(data, version)
    before = _dump(data / "journal.sqlite")
    code = cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()), "--data-dir", str(data)])
    out, err = capsys.readouterr()
    assert code == 2 and started == []
    assert len(err.strip().splitlines()) == 1 and words in err and str(data / "journal.sqlite") in err
    if version == "0004":
        assert f"tokens-edu upgrade-db --data-dir {data}" in err and "serve --upgrade-db" in err
    assert _dump(data / "journal.sqlite") == before  # nothing changed
    assert _copies(data) == []  # and nothing copied


@pytest.mark.parametrize("version", ["0099", "0004"])
def test_the_dashboard_refuses_a_wrong_version_row_in_one_line(data, version, monkeypatch, capsys):
    from tokens_edu.cli import teacher

    served = []
    monkeypatch.setattr(teacher, "serve", lambda **kw: served.append(kw))
    _set_version(data, version)
    code = cli.main(["teacher", "--port", str(_free_port()), "--data-dir", str(data)])
    err = capsys.readouterr().err
    assert code == 2 and served == []
    assert len(err.strip().splitlines()) == 1 and f"revision {version}" in err
    assert _version(data / "journal.sqlite") == version


def test_serve_starts_on_an_up_to_date_a_new_or_no_database(data, tmp_path, lessons, started, capsys):
    assert cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()), "--data-dir", str(data)]) == 0
    empty = tmp_path / "empty"
    assert cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()), "--data-dir", str(empty)]) == 0
    assert len(started) == 2
    assert not (empty / "journal.sqlite").exists()  # the check makes no file


def test_a_lesson_opening_an_older_database_changes_nothing_and_says_what_to_run(data):
    _set_version(data, "0004")
    before = _dump(data / "journal.sqlite")
    stores = Stores(f"sqlite:///{data / 'journal.sqlite'}")
    assert not stores.database.available
    assert "tokens-edu upgrade-db" in stores.database.problem
    with pytest.raises(ValueError, match="can.t be saved right now"):
        stores.answers.save(Writer("Bo", trusted=True, browser="c" * 64), "01-read-a-card", "Chatbot", "x")
    assert _dump(data / "journal.sqlite") == before


def test_a_new_empty_database_is_made_at_the_newest_revision(tmp_path):
    path = tmp_path / "new" / "journal.sqlite"
    path.parent.mkdir()
    stores = Stores(f"sqlite:///{path}")
    assert stores.database.available and _version(path) == migrate.HEAD


# --- tokens-edu upgrade-db -----------------------------------------------------------------------

def test_upgrade_db_copies_the_file_first_says_where_then_brings_it_up_to_date(old_data, capsys):
    db = old_data / "journal.sqlite"
    before = _dump(db)
    assert cli.main(["upgrade-db", "--data-dir", str(old_data)]) == 0
    out = capsys.readouterr().out.strip()
    copies = _copies(old_data)
    assert len(copies) == 1 and copies[0].suffix == ".sqlite"
    stamp = copies[0].stem[len("journal-"):]  # e.g. 2026-12-02-095012
    assert len(stamp) == 17 and stamp[4] == stamp[7] == stamp[10] == "-", stamp
    assert out == (f"The database {db} is now up to date (revision {migrate.HEAD}; it was from before "
                   f"migrations). The file as it was is kept at {copies[0]}.")
    assert _dump(copies[0]) == before  # the copy is the old file, every row
    assert _version(db) == migrate.HEAD
    # again: nothing to do, no second copy
    assert cli.main(["upgrade-db", "--data-dir", str(old_data)]) == 0
    assert capsys.readouterr().out.strip() == f"The database {db} was already up to date (revision {migrate.HEAD})."
    assert _copies(old_data) == copies
    # and the lesson server starts on it
    stores = Stores(f"sqlite:///{db}")
    assert stores.database.available


def test_upgrade_db_takes_the_database_url_like_the_other_commands(old_data, monkeypatch, capsys):
    url = f"sqlite:///{old_data / 'journal.sqlite'}"
    monkeypatch.setenv("TOKENS_EDU_DB_URL", url)
    assert cli.main(["upgrade-db"]) == 0
    assert f"revision {migrate.HEAD}" in capsys.readouterr().out
    monkeypatch.delenv("TOKENS_EDU_DB_URL")
    assert cli.main(["upgrade-db", "--db-url", url]) == 0
    assert "already up to date" in capsys.readouterr().out


def test_upgrade_db_refuses_an_unknown_revision_and_a_missing_file(data, tmp_path, capsys):
    _set_version(data, "0099")
    before = _dump(data / "journal.sqlite")
    assert cli.main(["upgrade-db", "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "revision 0099" in err
    assert _dump(data / "journal.sqlite") == before and _copies(data) == []
    assert cli.main(["upgrade-db", "--data-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "There is no answers database" in err and len(err.strip().splitlines()) == 1


def test_an_upgrade_that_fails_keeps_the_copy_and_changes_nothing(old_data, capsys):
    db = old_data / "journal.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE VIEW class_drawings AS SELECT 1 AS x")  # the 4th migration makes this view
    before = _dump(db)
    assert cli.main(["upgrade-db", "--data-dir", str(old_data)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "nothing was changed" in err
    assert _dump(db) == before and _version(db) is None


def test_serve_upgrade_db_brings_it_up_to_date_and_says_so_in_one_line(old_data, lessons, started, capsys):
    assert cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()), "--data-dir",
                     str(old_data), "--upgrade-db"]) == 0
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if "up to date" in line]
    assert len(said) == 1 and "it was from before migrations" in said[0] and "kept at" in said[0]
    assert _version(old_data / "journal.sqlite") == migrate.HEAD and len(started) == 1
    # an up-to-date database: nothing said
    assert cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()), "--data-dir",
                     str(old_data), "--upgrade-db"]) == 0
    assert "up to date" not in capsys.readouterr().out


def test_backup_names_never_collide(tmp_path):
    from datetime import datetime

    db = tmp_path / "journal.sqlite"
    sqlite3.connect(db).close()
    at = datetime(2026, 12, 2, 9, 50, 12)
    first, second = migrate.backup_sqlite(db, now=at), migrate.backup_sqlite(db, now=at)
    assert first.name == "journal-2026-12-02-095012.sqlite"
    assert second.name == "journal-2026-12-02-095012-2.sqlite"


def test_upgrade_db_in_a_read_only_folder_says_so_plainly_and_changes_nothing(old_data, monkeypatch, capsys):
    """A folder this user may not write in (a read-only disk, another user's files): before,
    the line was SQLite's "(sqlite3.OperationalError) unable to open database file"."""
    db = old_data / "journal.sqlite"
    before = _dump(db)
    real_access = migrate.os.access
    # root may write anywhere, so the read-only folder is told by os.access as a read-only disk would
    monkeypatch.setattr(migrate.os, "access", lambda p, mode: False if mode == migrate.os.W_OK else real_access(p, mode))
    for argv in (["upgrade-db", "--data-dir", str(old_data)],
                 ["serve", "--lessons", str(old_data), "--data-dir", str(old_data), "--upgrade-db"]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        assert f"may not write in {old_data}" in err and "Nothing was changed" in err
        assert "sqlite3" not in err and "OperationalError" not in err
        assert _dump(db) == before and _copies(old_data) == []


def test_upgrade_db_on_a_folder_named_like_the_answers_file_says_so(tmp_path, capsys):
    (tmp_path / "journal.sqlite").mkdir()
    assert cli.main(["upgrade-db", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is a folder, not an answers file" in err
    assert "OperationalError" not in err and [p.name for p in tmp_path.iterdir()] == ["journal.sqlite"]
