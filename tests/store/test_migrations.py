"""The store's migrations (tokens_edu/store/migrations): a new database gets exactly the tables of
tokens_edu/store/schema.py, and a database made by the code before migrations (commit d60bab8,
with a school's answers, drafts, games and class list in it) is brought up to date when asked
(``tokens-edu upgrade-db``; a lesson opening it changes nothing) and loses nothing: on SQLite
and on PostgreSQL (where the JupyterHub deploy's row-level security stays).

The old databases are in tests/fixtures/store_d60bab8 (made by running that commit's code:
see make.py there): ``journal.sql`` is the old SQLite journal, ``postgres.json`` every statement
the old code sent to PostgreSQL, ``expected.json`` every row they held.
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing as mp
import secrets
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.pool import NullPool

from tokens_edu import Game
from tokens_edu.store import GameStore, Roster, logins, migrate, schema
from tokens_edu.session.journal import Journal
from tokens_edu.store.db import make_engine

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "store_d60bab8"
EXPECTED = json.loads((OLD / "expected.json").read_text(encoding="utf-8"))


def _when(text: str) -> datetime:
    at = datetime.fromisoformat(text)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def differences(engine: sa.Engine) -> list:
    """What Alembic would change to make the database match schema.py (empty: they agree); on
    PostgreSQL with its table of logins."""
    expected = sa.MetaData()
    for table in schema.metadata.tables.values():
        table.to_metadata(expected)
    if engine.dialect.name == "postgresql":
        schema.logins.to_metadata(expected)
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), expected)


def old_sqlite(tmp_path) -> str:
    """A journal.sqlite exactly as the old code left it."""
    path = tmp_path / "journal.sqlite"
    con = sqlite3.connect(path)
    con.executescript((OLD / "journal.sql").read_text(encoding="utf-8"))
    con.close()
    return f"sqlite:///{path}"


def _dump(path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def answers_as_saved(rows: list[dict]) -> list[tuple]:
    return sorted((r["id"], r["student"], r["lesson"], r["card"], r["prompt"], r["answer"],
                   _when(r["saved_at"])) for r in rows)


def check_nothing_lost(engine: sa.Engine, url: str, old: dict) -> None:
    """Every answer, draft, game and roster entry of ``old`` is there, read through the new API."""
    teacher = Journal(url, student="teacher")
    now = teacher.answers(all_students=True)
    got = sorted(zip(now["id"], now["student"], now["lesson"], now["card"], now["prompt"], now["answer"],
                     (t.to_pydatetime() for t in now["saved_at"])))
    assert got == answers_as_saved(old["answers"]) and len(got) == len(old["answers"]) > 50
    with engine.connect() as conn:
        rows = conn.execute(sa.select(schema.answers.c.seq, schema.answers.c.saved_at, schema.answers.c.id,
                                      schema.answers.c.browser)).all()
        drafts = conn.execute(sa.select(schema.drafts)).mappings().all()
    # numbered in the order they were saved, from 1; written before browsers were kept
    assert [r.seq for r in sorted(rows, key=lambda r: (r.saved_at, r.id))] == list(range(1, len(rows) + 1))
    assert {r.browser for r in rows} == {""}
    assert sorted((d["student"], d["lesson"], d["card"], d["text"], d["browser"]) for d in drafts) == \
        sorted((d["student"], d["lesson"], d["card"], d["text"], "") for d in old["drafts"])
    for d in old["drafts"]:  # a proven name still finds the draft it left
        assert Journal(url, student=d["student"], lesson=d["lesson"]).draft_for(d["card"]).text == d["text"]
    store = GameStore(url)
    for g in old["games"]:
        saved = store.get(g["id"])
        assert saved.record == json.loads(g["record"]) and saved.status == g["status"]
        assert (saved.student, saved.moves, saved.tokens, saved.winner) == \
            (g["student"], g["moves"], (g["tokens0"], g["tokens1"]), g["winner"])
        Game.from_record(saved.record)  # the game can be replayed and continued
    playing = [g for g in old["games"] if g["status"] == "playing"]
    assert playing and store.unfinished(playing[0]["student"], playing[0]["lesson"]).id == playing[0]["id"]
    if "roster" in old:
        assert sorted((e.name, e.code) for e in Roster(url).entries()) == \
            sorted((r["name"], r["code"]) for r in old["roster"])


def test_the_migration_files_are_the_ones_the_store_knows():
    scripts = ScriptDirectory(str(migrate.MIGRATIONS))
    chain = [s.revision for s in scripts.walk_revisions()][::-1]
    assert tuple(chain) == migrate.REVISIONS and scripts.get_current_head() == migrate.HEAD


def test_a_new_database_gets_exactly_the_tables_of_the_schema_module(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert migrate.revision(engine) is None
    assert migrate.upgrade(engine) == migrate.HEAD
    assert differences(engine) == []
    assert migrate.upgrade(engine) == migrate.HEAD  # again: nothing to do


def test_an_sqlite_journal_made_by_the_old_code_is_brought_up_to_date_when_asked_and_loses_nothing(tmp_path):
    url = old_sqlite(tmp_path)
    engine = make_engine(url)
    assert migrate.revision(engine) is None  # made before migrations
    old_file = _dump(url[len("sqlite:///"):])
    journal = Journal(url, lesson="x")  # a lesson opening it changes nothing, and says what to run
    assert "tokens-edu upgrade-db" in journal.problem and migrate.revision(engine) is None
    before, after, copy = migrate.upgrade_database(url)  # tokens-edu upgrade-db
    assert (before, after) == (None, migrate.HEAD) and copy.parent == tmp_path
    assert migrate.revision(engine) == migrate.HEAD and differences(engine) == []
    check_nothing_lost(engine, url, EXPECTED["sqlite"])
    assert _dump(copy) == old_file  # the copy is the file as it was, every row
    # and it goes on working: a new answer, the feed, the class list's codes
    dee = Journal(url, student="Dee", lesson="01-read-a-card")  # (not one of the old rows' students:
    dee.save("Chatbot", "after the upgrade")                    # their saves are recent in the file)
    assert dee.answer_for("Chatbot") == "after the upgrade"
    code = next(r["code"] for r in EXPECTED["sqlite"]["roster"] if r["name"] == "Bo")
    assert Roster(url).name_for(code) == "Bo"


def _upgrade(url: str, start) -> None:
    start.wait()
    migrate.upgrade(make_engine(url))


def _open_journal(url: str, start) -> None:
    start.wait()
    journal = Journal(url, student="kernel", lesson="x")
    assert journal.problem is None, journal.problem


@pytest.mark.parametrize("target", [_upgrade, _open_journal], ids=["upgrades-of-an-old-file", "kernels-on-a-new-file"])
def test_many_processes_at_once_change_the_database_once(tmp_path, target):
    """Ten upgrades of the old journal at once, or ten kernels opening a new database at once:
    the migrations run once (the others wait for the write lock, then find nothing to do)."""
    url = old_sqlite(tmp_path) if target is _upgrade else f"sqlite:///{tmp_path / 'new.sqlite'}"
    ctx = mp.get_context("fork")
    start = ctx.Event()
    procs = [ctx.Process(target=target, args=(url, start)) for _ in range(10)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0] * 10
    engine = make_engine(url)
    assert migrate.revision(engine) == migrate.HEAD and differences(engine) == []
    if target is _upgrade:
        check_nothing_lost(engine, url, EXPECTED["sqlite"])


def test_an_upgrade_that_fails_half_way_changes_nothing(tmp_path):
    """All migrations run in one transaction: a failure in the last one leaves the old journal
    exactly as it was (its answers table not yet rebuilt by the third)."""
    url = old_sqlite(tmp_path)
    path = url[len("sqlite:///"):]
    con = sqlite3.connect(path)
    con.execute("CREATE VIEW class_drawings AS SELECT 1 AS x")  # the 4th migration makes this view
    con.commit()
    before = con.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    rows = con.execute("SELECT * FROM answers ORDER BY id").fetchall()
    con.close()
    with pytest.raises(sa.exc.OperationalError, match="already exists"):
        migrate.upgrade(make_engine(url))
    journal = Journal(url, student="Ana")  # a lesson still opens; saving says why not
    assert journal.problem and "tokens-edu upgrade-db" in journal.problem
    con = sqlite3.connect(path)
    assert con.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == before
    assert con.execute("SELECT * FROM answers ORDER BY id").fetchall() == rows


def test_a_database_from_a_newer_tokens_edu_is_refused_in_plain_words(tmp_path):
    url = f"sqlite:///{tmp_path / 'j.sqlite'}"
    Journal(url)
    with make_engine(url).begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    journal = Journal(url, student="Ana")
    assert "newer tokens-edu" in journal.problem and "pip install -U tokens-edu" in journal.problem
    with pytest.raises(ValueError, match="can.t be saved right now"):
        journal.save("Chatbot", "words")


def test_the_migrate_command_says_what_it_did(tmp_path, capsys):
    url = old_sqlite(tmp_path)
    assert migrate.main([url]) == 0
    out = capsys.readouterr().out
    assert f"is now up to date (revision {migrate.HEAD}; it was from before migrations)" in out
    assert f"The file as it was is kept at {tmp_path}" in out
    assert migrate.main([url]) == 0
    assert "was already up to date" in capsys.readouterr().out
    (tmp_path / "bad.sqlite").write_bytes(b"not a database at all" * 100)
    assert migrate.main([f"sqlite:///{tmp_path / 'bad.sqlite'}"]) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and len(err.strip().splitlines()) == 1


# --- PostgreSQL -------------------------------------------------------------------------------

def _decode(value):
    if isinstance(value, dict):
        if set(value) == {"$dt"}:
            return datetime.fromisoformat(value["$dt"])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


@pytest.fixture
def hub_owned(postgres):
    """A new database owned by a Hub login that may create roles; (postgres, db, engine)."""
    name = postgres.create_database()
    password = secrets.token_urlsafe(12)
    with postgres.admin_engine().connect() as conn:
        conn.execute(sa.text(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokens_hub') "
            "THEN CREATE ROLE tokens_hub LOGIN CREATEROLE; END IF; END $$"))
        conn.execute(sa.text(f"ALTER ROLE tokens_hub PASSWORD '{password}'"))
        conn.execute(sa.text(f'ALTER DATABASE "{name}" OWNER TO tokens_hub'))
    with postgres.admin_engine(name).connect() as conn:
        conn.execute(sa.text("ALTER SCHEMA public OWNER TO tokens_hub"))
    engine = sa.create_engine(postgres.url(name, user="tokens_hub"), poolclass=NullPool,
                              connect_args={"password": password})
    engine.hub_password = password
    return postgres, name, engine


def replay_old_hub(engine: sa.Engine) -> None:
    """Every statement the old Hub and the old students' kernels sent, as the Hub's login (the
    old Hub made the tables and row rules; each kernel's rows are the same rows)."""
    with engine.connect() as conn:
        for step in json.loads((OLD / "postgres.json").read_text(encoding="utf-8")):
            sql, params = step["sql"], _decode(step["params"])
            if sql.startswith("CREATE ROLE "):  # roles belong to the server: a test may have made it
                role = sql.split('"')[1]
                if conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first():
                    continue
            if step["many"]:
                conn.exec_driver_sql(sql, [tuple(p) if isinstance(p, list) else p for p in params])
            elif params:
                conn.exec_driver_sql(sql, params)
            else:
                conn.exec_driver_sql(sql)
            conn.commit()


def test_a_new_postgres_database_gets_exactly_the_tables_of_the_schema_module(hub_owned):
    postgres, db, hub = hub_owned
    assert logins.prepare_database(hub) == migrate.HEAD
    assert differences(hub) == []


def test_the_hubs_old_postgres_database_is_brought_up_to_date_and_loses_nothing(hub_owned, monkeypatch):
    postgres, db, hub = hub_owned
    replay_old_hub(hub)
    old = EXPECTED["postgres"]
    with hub.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM answers")).scalar() == len(old["answers"])
    assert migrate.revision(hub) is None
    assert logins.prepare_database(hub) == migrate.HEAD  # the new Hub's start
    assert differences(hub) == []
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", hub.hub_password)
    check_nothing_lost(hub, postgres.url(db, user="tokens_hub"), old)
    # the row rules are still there: a student's new login reads only their own old answers
    role, password = logins.student_login(hub, "Bo")
    monkeypatch.setenv("JUPYTERHUB_USER", "Bo")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", password)
    bo = Journal(postgres.url(db, user=role), lesson="01-read-a-card")
    mine = bo.answers(all_students=True)
    assert set(mine["student"]) == {"Bo"} and len(mine) == sum(r["student"] == "Bo" for r in old["answers"])
    bo.save_draft("Chatbot", "Bo after the upgrade")
    assert bo.draft_for("Chatbot").text == "Bo after the upgrade"
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with sa.create_engine(postgres.url(db, user=role), poolclass=NullPool,
                              connect_args={"password": password}).begin() as conn:
            conn.execute(schema.answers.insert().values(id="00000000-0000-4000-8000-00000000000b",
                                                        student="Ana", lesson="", card="Chatbot",
                                                        prompt="", answer="forged", saved_at=sa.func.now()))


def _migration(name: str):
    spec = importlib.util.spec_from_file_location(name, migrate.MIGRATIONS / "versions" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_login_that_may_not_make_roles_is_told_who_must(postgres, monkeypatch):
    """Row-level security needs two group roles; a login without CREATEROLE cannot make them,
    and the message says the two statements a database administrator runs once."""
    security = _migration("0002_row_security")
    suffix = secrets.token_hex(4)
    monkeypatch.setattr(security, "STUDENTS", f"tokens_edu_students_{suffix}")
    monkeypatch.setattr(security, "TEACHERS", f"tokens_edu_teachers_{suffix}")
    name = postgres.create_database()
    with postgres.admin_engine().connect() as conn:
        conn.execute(sa.text(f"CREATE ROLE plain_{suffix} LOGIN PASSWORD 'pw-{suffix}'"))
    plain = sa.create_engine(postgres.url(name, user=f"plain_{suffix}"), poolclass=NullPool,
                             connect_args={"password": f"pw-{suffix}"})
    with plain.connect() as conn, pytest.raises(migrate.MigrationRefused) as refused:
        security._groups(conn)
    text = str(refused.value)
    assert f"CREATE ROLE tokens_edu_students_{suffix} NOLOGIN;" in text and "CREATEROLE" in text
    assert "administrator" in text
