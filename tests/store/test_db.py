"""The database: its URL and folder, and plain words when it cannot be used (tokens_edu.store.db)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.dialects import postgresql

from tokens_edu.store import JournalUnavailable
from tokens_edu.session.journal import Journal
from tokens_edu.store.database import CANNOT_SAVE, SAVE_FAILED
from tokens_edu.store.db import default_url, dialect_insert
from tokens_edu.store.schema import answers


def _url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def test_default_url_uses_data_folder_then_env_url(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "d" / "e"))
    assert default_url() == f"sqlite:///{tmp_path / 'd' / 'e' / 'journal.sqlite'}"
    assert (tmp_path / "d" / "e").is_dir()
    j = Journal(student="Ana")
    j.save("Chatbot", "x")
    assert (tmp_path / "d" / "e" / "journal.sqlite").exists()
    monkeypatch.setenv("TOKENS_EDU_DB_URL", "postgresql+psycopg://u@db/x")
    assert default_url() == "postgresql+psycopg://u@db/x"


def test_default_url_falls_back_to_user_data_dir(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.delenv("TOKENS_EDU_DATA")
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "u" / app))
    assert default_url() == f"sqlite:///{tmp_path / 'u' / 'tokens-edu' / 'journal.sqlite'}"


def test_postgres_save_is_an_insert_on_conflict_do_nothing(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")

    class FakePG:
        dialect = postgresql.dialect()

    insert = dialect_insert(FakePG())
    stmt = insert(answers).values(id="x", student="Ana", lesson="", card="C", prompt="", answer="a",
                                  saved_at=None).on_conflict_do_nothing(index_elements=["id"])
    sql = str(stmt.compile(dialect=postgresql.dialect()))
    assert "ON CONFLICT (id) DO NOTHING" in sql
    assert j  # the SQLite journal still opens


def test_unopenable_database_never_stops_a_lesson_and_saving_says_so(tmp_path):
    (tmp_path / "adir").mkdir()
    j = Journal(f"sqlite:///{tmp_path / 'adir'}", student="Ana")  # a lesson's first cell: no error
    assert j.problem and not j.available
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "my words")
    assert str(e.value) == CANNOT_SAVE
    assert "Error" not in str(e.value)  # plain words, never an exception's name
    with pytest.raises(JournalUnavailable, match="cannot be read"):
        Journal(f"sqlite:///{tmp_path / 'adir'}", read_only=True)


def test_read_only_database_keeps_lessons_working(tmp_path):
    """SQLite opened read-only (as in a read-only folder): the journal opens, saving says so."""
    Journal(_url(tmp_path), student="Ana", lesson="l1").save("Chatbot", "from before")
    ro = f"sqlite:///file:{tmp_path / 'journal.sqlite'}?mode=ro&uri=true"
    j = Journal(ro, student="Ana", lesson="l1")  # no exception: the lesson's first cell runs
    assert j.answer_for("Chatbot") == "from before"  # reading still works
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "new words")
    assert str(e.value) == CANNOT_SAVE and "can't be saved right now" in CANNOT_SAVE
    assert "readonly" in j.problem.replace("-", "").replace(" ", "")
    with pytest.raises(JournalUnavailable):
        j.save_draft("Chatbot", "a draft")
    assert Journal(_url(tmp_path), student="Ana", lesson="l1").answer_for("Chatbot") == "from before"


def test_store_that_fails_every_write_says_cannot_save_then_recovers(tmp_path, monkeypatch):
    """A full or read-only store (as SQLite reports it): plain words, then saving works again."""
    import sqlalchemy as sa

    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    real_begin = j._engine.begin

    def full(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(j._engine, "begin", full)
    for attempt in range(2):
        with pytest.raises(JournalUnavailable) as e:
            j.save("Chatbot", "my words")
        assert str(e.value) == CANNOT_SAVE
    assert j.problem and "disk is full" in j.problem
    with pytest.raises(JournalUnavailable):
        j.save_draft("Chatbot", "a draft")
    monkeypatch.setattr(j._engine, "begin", real_begin)  # space was freed
    j.save("Chatbot", "my words")
    assert j.problem is None and j.answer_for("Chatbot") == "my words"


def test_one_off_database_error_says_try_again(tmp_path, monkeypatch):
    import sqlalchemy as sa

    j = Journal(_url(tmp_path), student="Ana")

    def locked(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(j._engine, "begin", locked)
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "words")
    assert str(e.value) == SAVE_FAILED == ("Your answer couldn't be saved just now. It is still "
                                           "in the box: try Save again.")
    assert j.problem is None  # a one-off: the store is not marked broken


# --- a damaged file (issue 20: "~95 traceback lines before the plain message") ------------------

def damaged_folder(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "journal.sqlite").write_bytes(bytes(range(256)) * 80)  # not a database any more
    return folder


def test_a_damaged_file_is_one_plain_line_that_says_what_to_do(tmp_path, caplog):
    import logging

    from tokens_edu.store import GameStore, Roster, StoreDamaged
    from tokens_edu.store.db import check, damaged_message

    folder = damaged_folder(tmp_path)
    url = f"sqlite:///{folder / 'journal.sqlite'}"
    message = damaged_message(url)
    assert "\n" not in message and str(folder / "journal.sqlite") in message
    assert "rename the file" in message and ".recover" in message
    with caplog.at_level(logging.DEBUG):
        lesson = Journal(url, student="Ana")  # a lesson still opens
        assert lesson.problem == message
        with pytest.raises(JournalUnavailable, match="can't be saved right now"):
            lesson.save("Chatbot", "words")  # the student is told in their words
        for opening in (lambda: Journal(url, read_only=True), lambda: GameStore(url), lambda: Roster(url),
                        lambda: GameStore(url, read_only=True), lambda: Roster(url, read_only=True)):
            with pytest.raises(StoreDamaged) as e:
                opening()
            assert str(e.value) == message
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert check(url) == message
    assert check(_url(tmp_path)) is None and not (tmp_path / "journal.sqlite").exists()  # not made
    Journal(_url(tmp_path), student="Ana").save("Chatbot", "fine")
    assert check(_url(tmp_path)) is None


@pytest.mark.parametrize("command", [["teacher"], ["export", "-"], ["roster", "list"]])
def test_the_teachers_commands_say_one_line_for_a_damaged_file(tmp_path, command):
    import os
    import socket
    import subprocess
    import sys

    if command == ["teacher"]:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            command = ["teacher", "--port", str(s.getsockname()[1])]
    folder = damaged_folder(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOKENS_EDU_", "JUPYTERHUB_"))}
    done = subprocess.run([sys.executable, "-m", "tokens_edu.cli", *command, "--data-dir", str(folder)],
                          capture_output=True, text=True, timeout=120, env=env)
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2 and len(said) == 1, said[:8]
    assert "is damaged" in said[0] and "rename the file" in said[0] and "Traceback" not in said[0]
