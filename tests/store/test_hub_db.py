"""Per-student database logins under row-level security (deploy/jupyterhub/tokens_edu_hub.py),
on a real PostgreSQL server: a student's login, which their kernel holds, can read and add only
their own answers; the teachers' login reads all and writes none."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.pool import NullPool
from sqlalchemy.schema import CreateIndex, CreateTable

from tokens_edu.store import journal as journal_mod
from tokens_edu.store.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("tokens_edu_hub", ROOT / "deploy" / "jupyterhub" / "tokens_edu_hub.py")
hubdb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hubdb)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "TOKENS_EDU_DB_PASSWORD", "PGPASSWORD"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def school(postgres):
    """A prepared answers database and the admin engine."""
    name = postgres.create_database()
    admin = postgres.admin_engine(name)
    hubdb.prepare_database(admin)
    hubdb.prepare_database(admin)  # safe to run at every Hub start
    return postgres, name, admin


def _as(postgres, db, role, password):
    return sa.create_engine(postgres.url(db, user=role), poolclass=NullPool,
                            connect_args={"password": password})


def test_the_hub_makes_the_same_table_as_the_journal():
    d = postgresql.dialect()
    assert str(CreateTable(hubdb.answers_table).compile(dialect=d)) == \
        str(CreateTable(journal_mod.answers_table).compile(dialect=d))
    assert str(CreateIndex(hubdb._by_student).compile(dialect=d)) == \
        str(CreateIndex(journal_mod._by_student).compile(dialect=d))
    assert str(CreateTable(hubdb.drafts_table).compile(dialect=d)) == \
        str(CreateTable(journal_mod.drafts_table).compile(dialect=d))


def test_each_student_keeps_only_their_own_drafts(school, monkeypatch):
    postgres, db, admin = school
    ana_role, ana_pw = hubdb.student_login(admin, "ana")
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", ana_pw)
    ana = Journal(postgres.url(db, user=ana_role), lesson="l1")
    assert ana.save_draft("Chatbot", "half a thought")
    assert ana.save_draft("Chatbot", "half a thought, longer")  # replaced (an upsert)
    assert ana.draft_for("Chatbot").text == "half a thought, longer"
    ana.save("Chatbot", "a whole thought")
    assert ana.draft_for("Chatbot") is None  # saving removed it
    ana.save_draft("Chatbot", "next")
    eng = _as(postgres, db, ana_role, ana_pw)
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with eng.begin() as conn:
            conn.execute(hubdb.drafts_table.insert().values(
                student="bo", lesson="l1", card="Chatbot", text="forged", saved_at=sa.func.now()))
    teacher_role, teacher_pw = hubdb.teacher_login(admin)
    with pytest.raises(sa.exc.ProgrammingError):  # drafts are not for the teacher's eyes
        with _as(postgres, db, teacher_role, teacher_pw).connect() as conn:
            conn.execute(sa.text("SELECT * FROM drafts"))


def test_the_hub_makes_the_same_games_table_as_the_saved_games():
    from tokens_edu.store import games as saved_games

    d = postgresql.dialect()
    assert str(CreateTable(hubdb.games_table).compile(dialect=d)) == \
        str(CreateTable(saved_games.games_table).compile(dialect=d)), (
        "tokens_edu/saved_games.py changed its table: make the same change in "
        "deploy/jupyterhub/tokens_edu_hub.py (games_table), which makes it on JupyterHub")
    assert str(CreateIndex(hubdb._games_by_student).compile(dialect=d)) == \
        str(CreateIndex(saved_games._by_student).compile(dialect=d))


def test_saved_games_are_each_students_own(school, monkeypatch):
    from tokens_edu import Game, starter_decks
    from tokens_edu.store.games import GameStore

    postgres, db, admin = school
    ana_role, ana_pw = hubdb.student_login(admin, "ana")
    hubdb.student_login(admin, "bo")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", ana_pw)
    store = GameStore(postgres.url(db, user=ana_role))  # opens without creating anything
    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=3, names=("ana", "Computer"))
    gid = store.start(game, "ana", lesson="05")
    assert gid
    with pytest.raises(ValueError):
        store.start(game, "bo", lesson="05")  # a game under another name is refused
    with admin.connect() as conn:
        assert [tuple(r) for r in conn.execute(sa.text("SELECT student FROM games"))] == [("ana",)]


def test_each_student_reads_and_writes_only_their_own_rows(school, monkeypatch):
    postgres, db, admin = school
    ana_role, ana_pw = hubdb.student_login(admin, "ana")
    bo_role, bo_pw = hubdb.student_login(admin, "bo")
    assert ana_role != bo_role and ana_role.startswith("tokens_s_")
    url = postgres.url(db, user=ana_role)
    assert ana_pw not in url

    # ana's kernel: JUPYTERHUB_USER=ana, her own login; the journal works as usual
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", ana_pw)
    ana = Journal(url, lesson="l1")
    ana.save("Chatbot", "Ana's words")
    assert ana.answer_for("Chatbot") == "Ana's words"
    monkeypatch.setenv("JUPYTERHUB_USER", "bo")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", bo_pw)
    bo = Journal(postgres.url(db, user=bo_role), lesson="l1")
    bo.save("Chatbot", "Bo's words")
    # each sees only their own answers, even when asking for everyone's
    assert list(bo.answers(all_students=True)["answer"]) == ["Bo's words"]
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", ana_pw)
    assert list(Journal(url).answers(all_students=True)["student"]) == ["ana"]

    # with ana's login, the database itself refuses a row under bo's name
    eng = _as(postgres, db, ana_role, ana_pw)
    row = {"id": "00000000-0000-4000-8000-000000000001", "student": "bo", "lesson": "l1",
           "card": "Chatbot", "prompt": "", "answer": "forged", "saved_at": sa.func.now()}
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with eng.begin() as conn:
            conn.execute(hubdb.answers_table.insert().values(**row))
    # ...cannot change or delete anyone's answers, nor read the table of logins, nor make tables
    for stmt in ("UPDATE answers SET answer = 'x'", "DELETE FROM answers",
                 f"SELECT * FROM {hubdb.LOGINS}", "CREATE TABLE mine (x int)",
                 "SET ROLE tokens_edu_teachers"):
        with pytest.raises(sa.exc.ProgrammingError):
            with eng.begin() as conn:
                conn.execute(sa.text(stmt))
    with admin.connect() as conn:
        rows = conn.execute(sa.text("SELECT student, answer FROM answers ORDER BY student")).all()
    assert [tuple(r) for r in rows] == [("ana", "Ana's words"), ("bo", "Bo's words")]


def test_a_new_server_start_gives_a_new_password_and_the_old_one_stops(school):
    postgres, db, admin = school
    role, first = hubdb.student_login(admin, "cy")
    role2, second = hubdb.student_login(admin, "cy")
    assert role == role2 and first != second
    with _as(postgres, db, role, second).connect() as conn:
        assert conn.execute(sa.text("SELECT tokens_edu_student()")).scalar() == "cy"
    with pytest.raises(sa.exc.OperationalError, match="password authentication failed"):
        with _as(postgres, db, role, first).connect():
            pass


def test_teachers_login_reads_everyone_and_writes_nothing(school, monkeypatch):
    postgres, db, admin = school
    for name in ("ana", "bo"):
        role, pw = hubdb.student_login(admin, name)
        monkeypatch.setenv("JUPYTERHUB_USER", name)
        monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", pw)
        Journal(postgres.url(db, user=role)).save("Chatbot", f"{name} says")
    monkeypatch.delenv("JUPYTERHUB_USER")
    role, pw = hubdb.teacher_login(admin)
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", pw)
    teacher = Journal(postgres.url(db, user=role), student="teacher")
    assert sorted(teacher.answers(all_students=True)["student"]) == ["ana", "bo"]
    with pytest.raises(ValueError, match="can.t be saved right now"):
        teacher.save("Chatbot", "a teacher cannot write answers")


def test_names_that_cannot_be_used_and_names_that_look_like_roles(school):
    postgres, db, admin = school
    with pytest.raises(ValueError, match="cannot be used"):
        hubdb.student_login(admin, "x" * 61)
    role, _ = hubdb.student_login(admin, "postgres")  # never touches the real superuser
    assert role != "postgres" and role.startswith("tokens_s_")
    with postgres.admin_engine(db).connect() as conn:
        assert conn.execute(sa.text("SELECT 1")).scalar() == 1  # superuser password unchanged
    assert hubdb.scram_verifier("pw").startswith("SCRAM-SHA-256$4096:")
