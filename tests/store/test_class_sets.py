"""Lesson 8's class data belongs to a class and a day (issue 28.4): the teacher starts a new set
for each class, the lesson adds to and learns from its newest set only (a new class's model
starts knowing nothing), the teacher deletes a drawing, and the command lab's typed commands are
saved like the drawings. On PostgreSQL, students read the sets and add only their own commands;
the teachers' login starts sets and deletes drawings and commands."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tokens_edu.store import Stores, Writer, schema
from tokens_edu.store.drawings import FIRST_SET

LESSON = "08-how-ai-senses"
ANA = Writer("Ana", trusted=True)
BO = Writer("Bo", trusted=True)
TYPED = Writer("Cy", browser="a" * 64)
PIC = [[0, 255], [255, 0]]


@pytest.fixture
def stores(tmp_path) -> Stores:
    return Stores(f"sqlite:///{tmp_path / 'journal.sqlite'}")


def test_a_new_set_starts_from_nothing_and_the_old_one_stays_for_the_teacher(stores):
    drawings = stores.drawings
    assert drawings.current_set(LESSON) == FIRST_SET and drawings.sets(LESSON) == [FIRST_SET]
    drawings.save(ANA, LESSON, "Flag", PIC)
    drawings.save(BO, LESSON, "Token", PIC)
    assert list(drawings.for_class(LESSON)["label"]) == ["Flag", "Token"]
    seven_b = drawings.start_set(LESSON, "  7B ")
    current = drawings.current_set(LESSON)
    assert current["id"] == seven_b and current["name"] == "7B" and str(current["started_at"].tzinfo) == "UTC"
    assert drawings.for_class(LESSON).empty  # the new class's model starts knowing nothing
    assert drawings.current_set("another-lesson") == FIRST_SET  # sets are per lesson
    drawings.save(ANA, LESSON, "Data", PIC)
    assert list(drawings.for_class(LESSON)["label"]) == ["Data"]
    assert list(drawings.for_class(LESSON, set_id="")["label"]) == ["Flag", "Token"]  # the first class's
    table = drawings.table([LESSON])
    assert list(table.columns) == schema.DRAWING_COLUMNS
    assert list(table["set_id"]) == ["", "", seven_b]  # nothing lost: the teacher sees every set
    assert [s["name"] for s in drawings.sets(LESSON)] == ["First set", "7B"]


def test_the_teacher_deletes_one_drawing(stores):
    drawings = stores.drawings
    bad = drawings.save(ANA, LESSON, "Flag", PIC)
    drawings.save(BO, LESSON, "Token", PIC)
    assert drawings.delete(bad) is True and drawings.delete(bad) is False
    assert list(drawings.for_class(LESSON)["label"]) == ["Token"] and len(drawings.table()) == 1


@pytest.mark.parametrize("name", ["", "   ", "x" * 201, 7])
def test_a_set_needs_a_class_name(stores, name):
    with pytest.raises(ValueError):
        stores.drawings.start_set(LESSON, name)
    assert stores.drawings.sets(LESSON) == [FIRST_SET]


def test_commands_are_saved_like_drawings_by_student_set_and_browser(stores):
    drawings = stores.drawings
    first = drawings.save_command(ANA, LESSON, "score   with my chatbot", "Task")
    assert drawings.save_command(ANA, LESSON, "score with my chatbot", "Task", command_id=first) == first
    drawings.save_command(BO, LESSON, "check their robot", "Audit")
    drawings.save_command(TYPED, LESSON, "stop now", "End turn")
    assert drawings.my_commands(ANA, LESSON) == [("score with my chatbot", "Task")]
    assert drawings.my_commands(Writer("Cy"), LESSON) == []  # a typed name without its browser
    assert drawings.my_commands(TYPED, LESSON) == [("stop now", "End turn")] and drawings.my_commands(None, LESSON) == []
    table = drawings.commands_table([LESSON])
    assert list(table.columns) == schema.COMMAND_COLUMNS and list(table["student"]) == ["Ana", "Bo", "Cy"]
    drawings.start_set(LESSON, "7C")
    assert drawings.my_commands(ANA, LESSON) == []  # a new class: a new page starts empty
    assert drawings.delete_command(first) is True and drawings.delete_command(first) is False
    assert len(drawings.commands_table()) == 2
    with pytest.raises(ValueError, match="too long"):
        drawings.save_command(ANA, LESSON, "x" * (schema.MAX_COMMAND + 1), "Task")
    with pytest.raises(ValueError):
        drawings.save_command(ANA, LESSON, "   ", "Task")


def test_on_postgres_students_add_their_own_and_the_teacher_starts_sets_and_deletes(postgres, monkeypatch):
    import secrets

    from sqlalchemy.pool import NullPool

    from tokens_edu.store import logins, migrate

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
    hub = sa.create_engine(postgres.url(name, user="tokens_hub"), poolclass=NullPool,
                           connect_args={"password": password})
    assert logins.prepare_database(hub) == migrate.HEAD

    def login_as(role_password):
        role, pw = role_password
        monkeypatch.setenv("TOKENS_EDU_DB_PASSWORD", pw)
        return Stores(postgres.url(name, user=role)), sa.create_engine(
            postgres.url(name, user=role), poolclass=NullPool, connect_args={"password": pw})

    ana_stores, _ = login_as(logins.student_login(hub, "ana"))
    old = ana_stores.drawings.save(Writer("ana", trusted=True), LESSON, "Flag", PIC)
    ana_stores.drawings.save_command(Writer("ana", trusted=True), LESSON, "score with my chatbot", "Task")
    bo_stores, bo_engine = login_as(logins.student_login(hub, "bo"))
    bo = Writer("bo", trusted=True)
    bo_stores.drawings.save_command(bo, LESSON, "check their robot", "Audit")
    assert list(bo_stores.drawings.commands_table()["student"]) == ["bo"]  # only his own rows
    assert bo_stores.drawings.my_commands(bo, LESSON) == [("check their robot", "Audit")]
    for stmt in ("DELETE FROM drawings", "DELETE FROM commands", "UPDATE commands SET text = 'forged'",
                 "INSERT INTO class_sets (id, lesson, name, started_at) VALUES ('x', 'l', 'n', now())"):
        with pytest.raises(sa.exc.ProgrammingError):
            with bo_engine.begin() as conn:
                conn.execute(sa.text(stmt))
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with bo_engine.begin() as conn:
            conn.execute(schema.commands.insert().values(
                id="00000000-0000-4000-8000-000000000003", student="ana", lesson=LESSON, text="forged",
                label="Task", saved_at=sa.func.now()))
    teacher_stores, teacher_engine = login_as(logins.teacher_login(hub))
    assert sorted(teacher_stores.drawings.commands_table()["student"]) == ["ana", "bo"]
    seven_b = teacher_stores.drawings.start_set(LESSON, "7B")
    assert bo_stores.drawings.current_set(LESSON)["id"] == seven_b  # students read the sets
    assert bo_stores.drawings.for_class(LESSON).empty
    bo_stores.drawings.save(bo, LESSON, "Token", PIC)
    assert list(bo_stores.drawings.for_class(LESSON)["label"]) == ["Token"]
    assert teacher_stores.drawings.delete(old) is True
    with pytest.raises(sa.exc.ProgrammingError):
        with teacher_engine.begin() as conn:
            conn.execute(sa.text("UPDATE drawings SET label = 'forged'"))
    with hub.connect() as conn:
        assert conn.execute(sa.text("SELECT label FROM drawings")).scalars().all() == ["Token"]
