"""Lesson 12's sentences (tokens_edu.store.sentences): saved by student with the writer per call,
read back with the same privacy as answers, shared with the class without names, hidden and shown
again by the teacher; on PostgreSQL each student's own login adds only their own sentences and
reads the class's through the view, and the teachers' login may hide but not rewrite one."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tokens_edu.store import Stores, Writer, schema
from tokens_edu.store.sentences import SENTENCE_LIMITS

LESSON = "12-finish-my-sentence"
ANA = Writer("Ana", trusted=True)
BO = Writer("Bo", trusted=True)
TYPED = Writer("Cy", browser="a" * 64)
OTHER = Writer("Cy", browser="b" * 64)


@pytest.fixture
def stores(tmp_path) -> Stores:
    return Stores(f"sqlite:///{tmp_path / 'journal.sqlite'}")


def test_sentences_are_saved_by_student_and_shared_without_names(stores):
    sentences = stores.sentences
    first = sentences.save(ANA, LESSON, "  I like to   swim. ")
    sentences.save(BO, LESSON, "I like to draw.")
    sentences.save(ANA, "other-lesson", "Not this lesson.")
    assert sentences.save(ANA, LESSON, "I like to swim.", sentence_id=first) == first  # a retry: once
    assert sentences.shared(LESSON) == [{"id": first, "text": "I like to swim."},
                                        {"id": sentences.shared(LESSON)[1]["id"], "text": "I like to draw."}]
    mine = sentences.mine(ANA, LESSON)
    assert [m["text"] for m in mine] == ["I like to swim."] and mine[0]["hidden"] is False
    assert [m["lesson"] for m in sentences.mine(ANA)] == [LESSON, "other-lesson"]
    table = sentences.table([LESSON])
    assert list(table.columns) == schema.SENTENCE_COLUMNS
    assert list(table["student"]) == ["Ana", "Bo"] and str(table["saved_at"].dt.tz) == "UTC"


def test_a_typed_name_reads_back_only_its_own_browsers_sentences(stores):
    stores.sentences.save(TYPED, LESSON, "I like to hop.")
    stores.sentences.save(OTHER, LESSON, "I like to skip.")  # someone typing the same name elsewhere
    assert [m["text"] for m in stores.sentences.mine(TYPED, LESSON)] == ["I like to hop."]
    assert [m["text"] for m in stores.sentences.mine(OTHER, LESSON)] == ["I like to skip."]
    assert stores.sentences.mine(Writer("Cy"), LESSON) == [] and stores.sentences.mine(None) == []
    assert len(stores.sentences.shared(LESSON)) == 2  # both are the class's


def test_the_teacher_hides_a_sentence_and_shows_it_again(stores):
    sentences = stores.sentences
    bad = sentences.save(ANA, LESSON, "Bo smells.")
    good = sentences.save(BO, LESSON, "I like to run.")
    assert sentences.hide(bad) is True
    assert [s["id"] for s in sentences.shared(LESSON)] == [good]
    table = sentences.table()
    assert list(table["hidden"]) == [True, False] and list(table["text"]) == ["Bo smells.", "I like to run."]
    assert sentences.mine(ANA, LESSON)[0]["hidden"] is True  # the student still sees their own
    assert sentences.hide(bad, hidden=False) is True
    assert [s["id"] for s in sentences.shared(LESSON)] == [bad, good]
    assert sentences.hide("00000000-0000-4000-8000-000000000000") is False
    with pytest.raises(ValueError, match="True or False"):
        sentences.hide(bad, hidden="yes")


@pytest.mark.parametrize("text,words", [("", "sentence must be some text"), ("   ", "sentence must be some text"),
                                        ("x" * (schema.MAX_SENTENCE + 1), "too long"),
                                        (42, "sentence must be some text")])
def test_bad_sentences_are_refused_in_plain_words_and_nothing_is_saved(stores, text, words):
    with pytest.raises(ValueError, match=words):
        stores.sentences.save(ANA, LESSON, text)
    assert stores.sentences.table().empty


def test_saving_too_often_says_how_long_to_wait(stores):
    most, _seconds = SENTENCE_LIMITS[0]
    for i in range(most):
        stores.sentences.save(ANA, LESSON, f"I like to count to {i}.")
    with pytest.raises(ValueError, match=r"(?i)wait"):
        stores.sentences.save(ANA, LESSON, "One too many.")
    assert len(stores.sentences.table()) == most


def test_on_postgres_each_student_adds_their_own_and_the_teacher_may_only_hide(postgres, monkeypatch):
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
    ana_id = ana_stores.sentences.save(Writer("ana", trusted=True), LESSON, "I like to swim.")
    bo_stores, bo_engine = login_as(logins.student_login(hub, "bo"))
    bo_stores.sentences.save(Writer("bo", trusted=True), LESSON, "I like to draw.")
    # Bo reads the class's sentences (no names), and only his own rows of the table
    assert [s["text"] for s in bo_stores.sentences.shared(LESSON)] == ["I like to swim.", "I like to draw."]
    assert list(bo_stores.sentences.table()["student"]) == ["bo"]
    for stmt in ("UPDATE sentences SET text = 'forged'", "UPDATE sentences SET hidden = true",
                 "DELETE FROM sentences"):
        with pytest.raises(sa.exc.ProgrammingError):
            with bo_engine.begin() as conn:
                conn.execute(sa.text(stmt))
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with bo_engine.begin() as conn:
            conn.execute(schema.sentences.insert().values(
                id="00000000-0000-4000-8000-000000000003", student="ana", lesson=LESSON, text="forged",
                saved_at=sa.func.now()))
    # the teachers' login reads every sentence and may hide one, but not rewrite it
    teacher_stores, teacher_engine = login_as(logins.teacher_login(hub))
    assert sorted(teacher_stores.sentences.table()["student"]) == ["ana", "bo"]
    assert teacher_stores.sentences.hide(ana_id) is True
    assert [s["text"] for s in bo_stores.sentences.shared(LESSON)] == ["I like to draw."]
    with pytest.raises(sa.exc.ProgrammingError):
        with teacher_engine.begin() as conn:
            conn.execute(sa.text("UPDATE sentences SET text = 'forged'"))
    with hub.connect() as conn:
        assert sorted(conn.execute(sa.text("SELECT text FROM sentences")).scalars()) == \
            ["I like to draw.", "I like to swim."]
