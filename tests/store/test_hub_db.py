"""Per-student database logins under row-level security (tokens_edu.store.logins, and the store's
migrations that make the row rules), on a real PostgreSQL server, as the JupyterHub deploy uses
them: a student's login, which their kernel holds, can read and add only their own answers,
drafts, games, responses and drawings; the teachers' login reads all and writes none. The Hub
makes the database with the same migrations as everyone (no second copy of the tables)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from tokens_edu.store import logins, migrate, schema
from tokens_edu.session.journal import Journal

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def school(postgres):
    """A database owned by a Hub login that may create roles (as docs/deploy.md sets it up),
    prepared twice as the Hub does at every start; returns (postgres, database, hub engine)."""
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
    hub = _as(postgres, name, "tokens_hub", password)
    assert logins.prepare_database(hub) == migrate.HEAD
    assert logins.prepare_database(hub) == migrate.HEAD  # safe at every Hub start
    return postgres, name, hub


def _as(postgres, db, role, password):
    return sa.create_engine(postgres.url(db, user=role), poolclass=NullPool,
                            connect_args={"password": password})


def _student(monkeypatch, postgres, db, hub, name, lesson="l1") -> Journal:
    """``name``'s lesson kernel: JUPYTERHUB_USER and their own login, as the Hub starts it."""
    role, password = logins.student_login(hub, name)
    monkeypatch.setenv("JUPYTERHUB_USER", name)
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", password)
    return Journal(postgres.url(db, user=role), lesson=lesson)


def test_the_deploy_files_hold_no_second_copy_of_the_tables():
    """The Hub's set-up is the store's migrations: the deploy files define no table."""
    for path in (ROOT / "deploy").rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "sa.Table(" not in text and "CREATE TABLE" not in text, path
    config = (ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py").read_text(encoding="utf-8")
    values = (ROOT / "deploy" / "z2jh" / "values.yaml").read_text(encoding="utf-8")
    for text in (config, values):
        assert "from tokens_edu.store import logins" in text
        assert "logins.prepare_database(_admin)" in text and "logins.student_login" in text


def test_the_hubs_part_of_the_store_needs_no_lesson_packages():
    """The Hub's image installs tokens-edu without its dependencies (deploy/z2jh/Dockerfile.hub):
    the store's logins and migrations must import without pandas, Jupyter, Voila or widgets."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in {'pandas', 'numpy', 'ipywidgets', 'anywidget', 'voila',\n"
        "                                  'jupyter_server', 'jupyterlab', 'tornado', 'matplotlib',\n"
        "                                  'IPython', 'ipykernel', 'tqdm', 'websockets'}:\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from tokens_edu.store import logins, migrate\n"
        "import alembic.command\n"
        "print(logins.prepare_database.__name__, migrate.HEAD)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["prepare_database", migrate.HEAD]


def test_each_student_keeps_only_their_own_drafts(school, monkeypatch):
    postgres, db, hub = school
    ana = _student(monkeypatch, postgres, db, hub, "ana")
    assert ana.save_draft("Chatbot", "half a thought")
    assert ana.save_draft("Chatbot", "half a thought, longer")  # replaced (an upsert)
    assert ana.draft_for("Chatbot").text == "half a thought, longer"
    ana.save("Chatbot", "a whole thought")
    assert ana.draft_for("Chatbot") is None  # saving removed it
    ana.save_draft("Chatbot", "next")
    role, password = logins.student_login(hub, "ana")
    eng = _as(postgres, db, role, password)
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with eng.begin() as conn:
            conn.execute(schema.drafts.insert().values(
                student="bo", lesson="l1", card="Chatbot", text="forged", saved_at=sa.func.now()))
    teacher_role, teacher_pw = logins.teacher_login(hub)
    with pytest.raises(sa.exc.ProgrammingError):  # drafts are not for the teacher's eyes
        with _as(postgres, db, teacher_role, teacher_pw).connect() as conn:
            conn.execute(sa.text("SELECT * FROM drafts"))


def test_saved_games_are_each_students_own(school, monkeypatch):
    from tokens_edu import Game, starter_decks
    from tokens_edu.store.games import GameStore

    postgres, db, hub = school
    ana_role, ana_pw = logins.student_login(hub, "ana")
    logins.student_login(hub, "bo")
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", ana_pw)
    store = GameStore(postgres.url(db, user=ana_role))  # opens without creating anything
    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=3, names=("ana", "Computer"))
    gid = store.start(game, "ana", lesson="05")
    assert gid
    with pytest.raises(ValueError):
        store.start(game, "bo", lesson="05")  # a game under another name is refused
    with hub.connect() as conn:
        assert [tuple(r) for r in conn.execute(sa.text("SELECT student FROM games"))] == [("ana",)]


def test_each_student_reads_and_writes_only_their_own_rows(school, monkeypatch):
    postgres, db, hub = school
    ana_role, ana_pw = logins.student_login(hub, "ana")
    bo_role, _ = logins.student_login(hub, "bo")
    assert ana_role != bo_role and ana_role.startswith("tokens_s_")
    assert ana_pw not in postgres.url(db, user=ana_role)

    ana = _student(monkeypatch, postgres, db, hub, "ana")
    ana.save("Chatbot", "Ana's words")
    assert ana.answer_for("Chatbot") == "Ana's words"
    bo = _student(monkeypatch, postgres, db, hub, "bo")
    bo.save("Chatbot", "Bo's words")
    # each sees only their own answers, even when asking for everyone's
    assert list(bo.answers(all_students=True)["answer"]) == ["Bo's words"]
    ana = _student(monkeypatch, postgres, db, hub, "ana")
    assert list(ana.answers(all_students=True)["student"]) == ["ana"]

    # with ana's login, the database itself refuses a row under bo's name
    ana_role, ana_pw = logins.student_login(hub, "ana")
    eng = _as(postgres, db, ana_role, ana_pw)
    row = {"id": "00000000-0000-4000-8000-000000000001", "student": "bo", "lesson": "l1",
           "card": "Chatbot", "prompt": "", "answer": "forged", "saved_at": sa.func.now()}
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with eng.begin() as conn:
            conn.execute(schema.answers.insert().values(**row))
    # ...cannot change or delete anyone's answers, nor read the logins or the class list, nor
    # make tables, nor change the database's version
    for stmt in ("UPDATE answers SET answer = 'x'", "DELETE FROM answers",
                 f"SELECT * FROM {logins.LOGINS}", "SELECT * FROM roster", "CREATE TABLE mine (x int)",
                 "UPDATE alembic_version SET version_num = '9999'", "SET ROLE tokens_edu_teachers"):
        with pytest.raises(sa.exc.ProgrammingError):
            with eng.begin() as conn:
                conn.execute(sa.text(stmt))
    with hub.connect() as conn:
        rows = conn.execute(sa.text("SELECT student, answer FROM answers ORDER BY student")).all()
    assert [tuple(r) for r in rows] == [("ana", "Ana's words"), ("bo", "Bo's words")]


def test_responses_and_drawings_are_each_students_own_and_the_class_drawings_have_no_names(school, monkeypatch):
    postgres, db, hub = school
    ana = _student(monkeypatch, postgres, db, hub, "ana", lesson="08")
    ana.save_response("q1", "The Audit", kind="prediction", correct=True)
    ana.save_drawing("cat", [[0, 255], [255, 0]])
    bo = _student(monkeypatch, postgres, db, hub, "bo", lesson="08")
    bo.save_response("q1", "The Task", kind="prediction", correct=False)
    bo.save_drawing("dog", [[9]])
    assert list(bo.responses(all_students=True)["answer"]) == ["The Task"]
    assert list(bo.drawings(all_students=True)["label"]) == ["dog"]
    assert bo.response_for("q1").text == "The Task"
    # the class's drawings, without names: everyone's pictures are the lesson's training data
    shared = bo.class_drawings()
    assert list(shared["label"]) == ["cat", "dog"] and list(shared.columns) == ["label", "width", "height", "pixels"]
    role, password = logins.student_login(hub, "bo")
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with _as(postgres, db, role, password).begin() as conn:
            conn.execute(schema.responses.insert().values(
                id="00000000-0000-4000-8000-000000000002", student="ana", lesson="08", question="q1",
                kind="exit", answer="forged", saved_at=sa.func.now()))
    monkeypatch.delenv("JUPYTERHUB_USER")
    role, password = logins.teacher_login(hub)
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", password)
    teacher = Journal(postgres.url(db, user=role), student="teacher", lesson="08")
    assert sorted(teacher.responses(all_students=True)["student"]) == ["ana", "bo"]
    assert sorted(teacher.drawings(all_students=True)["student"]) == ["ana", "bo"]
    with pytest.raises(ValueError, match="can.t be saved right now"):
        teacher.save_response("q1", "a teacher cannot write")


def test_a_new_server_start_gives_a_new_password_and_the_old_one_stops(school):
    postgres, db, hub = school
    role, first = logins.student_login(hub, "cy")
    role2, second = logins.student_login(hub, "cy")
    assert role == role2 and first != second
    with _as(postgres, db, role, second).connect() as conn:
        assert conn.execute(sa.text("SELECT tokens_edu_student()")).scalar() == "cy"
    with pytest.raises(sa.exc.OperationalError, match="password authentication failed"):
        with _as(postgres, db, role, first).connect():
            pass


def test_teachers_login_reads_everyone_and_writes_nothing(school, monkeypatch):
    postgres, db, hub = school
    for name in ("ana", "bo"):
        _student(monkeypatch, postgres, db, hub, name).save("Chatbot", f"{name} says")
    monkeypatch.delenv("JUPYTERHUB_USER")
    role, pw = logins.teacher_login(hub)
    monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", pw)
    teacher = Journal(postgres.url(db, user=role), student="teacher")
    assert sorted(teacher.answers(all_students=True)["student"]) == ["ana", "bo"]
    with pytest.raises(ValueError, match="can.t be saved right now"):
        teacher.save("Chatbot", "a teacher cannot write answers")


def test_a_student_login_does_not_bring_an_old_database_up_to_date(school, monkeypatch):
    """A students' server newer than the Hub (the database one migration behind): saving says
    so in plain words, and nothing is changed; the Hub's next start brings it up to date."""
    postgres, db, hub = school
    with hub.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0003'"))
    ana = _student(monkeypatch, postgres, db, hub, "ana")
    assert ana.problem and "older than this tokens-edu" in ana.problem and "restart the Hub" in ana.problem
    assert migrate.revision(hub) == "0003"  # nothing was changed
    with pytest.raises(ValueError, match="can.t be saved right now"):
        ana.save("Chatbot", "words")
    with hub.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = :v"), {"v": migrate.HEAD})


def test_names_that_cannot_be_used_and_names_that_look_like_roles(school):
    postgres, db, hub = school
    with pytest.raises(ValueError, match="cannot be used"):
        logins.student_login(hub, "x" * 61)
    role, _ = logins.student_login(hub, "postgres")  # never touches the real superuser
    assert role != "postgres" and role.startswith("tokens_s_")
    with postgres.admin_engine(db).connect() as conn:
        assert conn.execute(sa.text("SELECT 1")).scalar() == 1  # superuser password unchanged
    assert logins.scram_verifier("pw").startswith("SCRAM-SHA-256$4096:")
