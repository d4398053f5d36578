"""The Hub's side of tokens-edu: each student's own PostgreSQL login, under row-level security.

Why (see docs/deploy.md): a student's lesson page runs in a kernel that must be able to save
answers. Whatever database login that kernel holds, assume the student can get it. So each
student gets a login of their own, made (or given a new password) by the Hub just before their
server starts, and the database itself allows that login to read and add only the rows whose
``student`` is that student's JupyterHub name. Holding it, nobody can write as someone else.

Objects this module keeps in the answers database (all made by :func:`prepare_database`, which
is safe to run at every Hub start):

* ``answers``: the journal's table (the same columns as ``tokens_edu.store.journal``), and ``games``,
  the saved games' table (as ``tokens_edu.store.games``), both with row-level security on;
* ``drafts``: the journal's drafts (text typed but not saved yet, so a reload brings it back),
  each student reading and writing only their own (teachers never see drafts);
* ``tokens_edu_logins``: which database login belongs to which JupyterHub name (students cannot
  read it);
* ``tokens_edu_student()``: the JupyterHub name of the login that calls it (``SECURITY DEFINER``,
  the only way students see that table);
* the group roles ``tokens_edu_students`` (SELECT, INSERT on their own rows) and
  ``tokens_edu_teachers`` (SELECT on every row, for the teacher dashboard).

Only SQLAlchemy is needed (any PostgreSQL driver: psycopg 3, or psycopg2 as in Zero to
JupyterHub's hub image), so the Hub does not need the tokens-edu package itself. Passwords are
sent to PostgreSQL only as SCRAM-SHA-256 verifiers (never the password itself), so not even the
database server's statement log can show one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets

import sqlalchemy as sa

__all__ = ["prepare_database", "student_login", "teacher_login", "role_for", "scram_verifier",
           "answers_table", "drafts_table", "games_table", "STUDENTS", "TEACHERS"]

STUDENTS = "tokens_edu_students"
TEACHERS = "tokens_edu_teachers"
LOGINS = "tokens_edu_logins"
#: Longest name the journal accepts (tokens_edu.store.journal.MAX_NAME).
MAX_NAME = 60

# The journal's table, as tokens_edu.store.journal makes it (tests/test_hub_db.py checks they agree).
_metadata = sa.MetaData()
answers_table = sa.Table(
    "answers",
    _metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False, default=""),
    sa.Column("card", sa.String(200), nullable=False),
    sa.Column("prompt", sa.Text, nullable=False, default=""),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
)
_by_student = sa.Index("ix_answers_student_lesson_card", answers_table.c.student,
                       answers_table.c.lesson, answers_table.c.card, answers_table.c.saved_at)
drafts_table = sa.Table(
    "drafts",
    _metadata,
    sa.Column("student", sa.String(200), primary_key=True),
    sa.Column("lesson", sa.String(200), primary_key=True),
    sa.Column("card", sa.String(200), primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
)


# The saved games' table, as tokens_edu.store.games makes it (also checked by the tests).
games_table = sa.Table(
    "games",
    _metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("name0", sa.String(200), nullable=False),
    sa.Column("name1", sa.String(200), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("seats", sa.String(200), nullable=False),
    sa.Column("undo", sa.String(12), nullable=False),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("tokens0", sa.Integer, nullable=False),
    sa.Column("tokens1", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("page", sa.String(64), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
_games_by_student = sa.Index("ix_games_student_lesson", games_table.c.student,
                             games_table.c.lesson, games_table.c.status, games_table.c.updated_at)


def student_name(username: str) -> str:
    """The name the journal stores for a JupyterHub user (spaces collapsed, as it does)."""
    return " ".join(str(username).split())


def role_for(username: str, kind: str = "s") -> str:
    """The database login of a JupyterHub user: ``tokens_s_<hash>`` (ASCII, never a real role
    name such as ``postgres``, whatever the username)."""
    digest = hashlib.sha256(student_name(username).encode("utf-8")).hexdigest()[:24]
    return f"tokens_{kind}_{digest}"


def scram_verifier(password: str, iterations: int = 4096) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL stores for ``password`` (RFC 5802/7677), made
    here so the password itself is never sent in a statement."""
    salt = os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    b64 = lambda b: base64.b64encode(b).decode("ascii")  # noqa: E731
    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def _group(conn, name: str) -> None:
    conn.execute(sa.text(
        f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{name}') "
        f"THEN CREATE ROLE {name} NOLOGIN; END IF; END $$"))


def prepare_database(engine: sa.Engine) -> None:
    """Make (or bring up to date) the answers table, its row-level rules and the group roles.

    Args:
        engine: logged in as the database's owner, a login that may create roles
            (``CREATEROLE``).
    """
    with engine.begin() as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(7301402)"))  # one Hub at a time
        _metadata.create_all(conn, checkfirst=True)
        conn.execute(sa.text(
            f"CREATE TABLE IF NOT EXISTS {LOGINS} (role_name text PRIMARY KEY, "
            "student varchar(200) NOT NULL UNIQUE)"))
        _group(conn, STUDENTS)
        _group(conn, TEACHERS)
        conn.execute(sa.text(
            f"CREATE OR REPLACE FUNCTION tokens_edu_student() RETURNS text "
            f"LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS "
            f"$$ SELECT student FROM public.{LOGINS} WHERE role_name = session_user $$"))
        for stmt in (
            f"REVOKE ALL ON {LOGINS} FROM PUBLIC",
            "REVOKE ALL ON FUNCTION tokens_edu_student() FROM PUBLIC",
            f"GRANT EXECUTE ON FUNCTION tokens_edu_student() TO {STUDENTS}",
            "REVOKE ALL ON answers FROM PUBLIC",
            f"GRANT SELECT, INSERT ON answers TO {STUDENTS}",
            f"GRANT SELECT ON answers TO {TEACHERS}",
            f"GRANT USAGE ON SCHEMA public TO {STUDENTS}, {TEACHERS}",
            "ALTER TABLE answers ENABLE ROW LEVEL SECURITY",
            "DROP POLICY IF EXISTS own_rows ON answers",
            f"CREATE POLICY own_rows ON answers FOR ALL TO {STUDENTS} "
            "USING (student = tokens_edu_student()) WITH CHECK (student = tokens_edu_student())",
            "DROP POLICY IF EXISTS teachers_read ON answers",
            f"CREATE POLICY teachers_read ON answers FOR SELECT TO {TEACHERS} USING (true)",
            # drafts: a student keeps, replaces and removes their own; nobody else sees them
            "REVOKE ALL ON drafts FROM PUBLIC",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON drafts TO {STUDENTS}",
            "ALTER TABLE drafts ENABLE ROW LEVEL SECURITY",
            "DROP POLICY IF EXISTS own_rows ON drafts",
            f"CREATE POLICY own_rows ON drafts FOR ALL TO {STUDENTS} "
            "USING (student = tokens_edu_student()) WITH CHECK (student = tokens_edu_student())",
            # saved games: a student keeps and updates their own games (never deletes them)
            "REVOKE ALL ON games FROM PUBLIC",
            f"GRANT SELECT, INSERT, UPDATE ON games TO {STUDENTS}",
            f"GRANT SELECT ON games TO {TEACHERS}",
            "ALTER TABLE games ENABLE ROW LEVEL SECURITY",
            "DROP POLICY IF EXISTS own_games ON games",
            f"CREATE POLICY own_games ON games FOR ALL TO {STUDENTS} "
            "USING (student = tokens_edu_student()) WITH CHECK (student = tokens_edu_student())",
            "DROP POLICY IF EXISTS teachers_read_games ON games",
            f"CREATE POLICY teachers_read_games ON games FOR SELECT TO {TEACHERS} USING (true)",
        ):
            conn.execute(sa.text(stmt))


def _login(engine: sa.Engine, role: str, group: str, student: str | None) -> str:
    password = secrets.token_urlsafe(24)
    verifier = scram_verifier(password)
    with engine.begin() as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(7301403)"))  # role changes in turn
        exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"),
                              {"r": role}).first()
        if not exists:
            conn.execute(sa.text(f'CREATE ROLE "{role}" LOGIN INHERIT IN ROLE {group}'))
        # The verifier is a literal (a role's password cannot be a bound parameter); it holds
        # only base64 and '$:' characters, checked here.
        assert all(ch.isalnum() or ch in "+/=$:-" for ch in verifier)
        conn.exec_driver_sql(f"ALTER ROLE \"{role}\" WITH LOGIN PASSWORD '{verifier}' "
                             "CONNECTION LIMIT 20")
        if student is not None:
            conn.execute(sa.text(
                f"INSERT INTO {LOGINS} (role_name, student) VALUES (:r, :s) "
                "ON CONFLICT (role_name) DO UPDATE SET student = EXCLUDED.student"),
                {"r": role, "s": student})
    return password


def student_login(engine: sa.Engine, username: str) -> tuple[str, str]:
    """A fresh password for the database login of JupyterHub user ``username`` (made if new).

    Run by the Hub just before the student's server starts (``pre_spawn_hook``); the previous
    password stops working, so a stopped server's login is dead.

    Returns:
        (role, password): the login name and its new password.

    Raises:
        ValueError: the name is empty or longer than the journal allows.
    """
    student = student_name(username)
    if not student or len(student) > MAX_NAME:
        raise ValueError(f"The name {username!r} cannot be used to save answers "
                         f"(1 to {MAX_NAME} characters).")
    role = role_for(student)
    return role, _login(engine, role, STUDENTS, student)


def teacher_login(engine: sa.Engine, name: str = "dashboard") -> tuple[str, str]:
    """A fresh password for the teachers' read-only login (for the teacher dashboard service).

    Returns:
        (role, password).
    """
    return role_for(name, kind="t"), _login(engine, role_for(name, kind="t"), TEACHERS, None)
