"""Each student's own PostgreSQL login, under row-level security (for JupyterHub).

Why (see ``docs/deploy.md``): a student's lesson page runs in a kernel that must be able to save
answers. Whatever database login that kernel holds, assume the student can get it. So each
student gets a login of their own, made (or given a new password) by the Hub just before their
server starts, and the database itself allows that login to read and add only the rows whose
``student`` is that student's JupyterHub name. Holding it, nobody can write as someone else.

The tables, the row rules, the group roles (:data:`STUDENTS`, :data:`TEACHERS`), the table of
logins (:data:`LOGINS`) and the function ``tokens_edu_student()`` are made by the store's
migrations (revision 0002 and later; :func:`prepare_database` runs them). This module makes the
logins:

* :func:`student_login`: a student's own login (in :data:`STUDENTS`), with a fresh password;
* :func:`teacher_login`: the teachers' read-only login (in :data:`TEACHERS`), for the dashboard.

Passwords are sent to PostgreSQL only as SCRAM-SHA-256 verifiers (never the password itself),
so not even the database server's statement log can show one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets

import sqlalchemy as sa

from .migrate import upgrade
from .schema import MAX_NAME
from .schema import logins as logins_table

__all__ = ["prepare_database", "student_login", "teacher_login", "role_for", "student_name",
           "scram_verifier", "STUDENTS", "TEACHERS", "LOGINS"]

#: The group role of students' logins (made by migration 0002).
STUDENTS = "tokens_edu_students"
#: The group role of the teachers' read-only login (made by migration 0002).
TEACHERS = "tokens_edu_teachers"
#: The table of which login belongs to which student (made by migration 0002).
LOGINS = logins_table.name


def prepare_database(engine: sa.Engine) -> str | None:
    """Bring the answers database up to date: tables, row-level security and group roles (the
    store's migrations, :func:`tokens_edu.store.migrate.upgrade`). Safe at every Hub start.

    Args:
        engine: logged in as the database's owner, a login that may create roles
            (``CREATEROLE``) the first time.

    Returns:
        str | None: the database's revision.

    Raises:
        tokens_edu.store.migrate.MigrationRefused: the login may not make the group roles.
        sqlalchemy.exc.SQLAlchemyError: the database refused (nothing was changed).
    """
    return upgrade(engine)


def student_name(username: str) -> str:
    """The name the journal stores for a JupyterHub user (spaces collapsed, as it does)."""
    return " ".join(str(username).split())


def role_for(username: str, kind: str = "s") -> str:
    """The database login of a JupyterHub user: ``tokens_s_<hash>`` (ASCII, never a real role
    name such as ``postgres``, whatever the username); ``kind="t"`` for a teachers' login."""
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

    def b64(b: bytes) -> str:
        return base64.b64encode(b).decode("ascii")

    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def _login(engine: sa.Engine, role: str, group: str, student: str | None) -> str:
    password = secrets.token_urlsafe(24)
    verifier = scram_verifier(password)
    with engine.begin() as conn:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(7301403)"))  # role changes in turn
        exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
        if not exists:
            conn.execute(sa.text(f'CREATE ROLE "{role}" LOGIN INHERIT IN ROLE {group}'))
        # The verifier is a literal (a role's password cannot be a bound parameter); it holds
        # only base64 and '$:' characters, checked here.
        if not all(ch.isalnum() or ch in "+/=$:-" for ch in verifier):
            raise ValueError("A password verifier had an unexpected character.")
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

    Args:
        engine: the database's owner (as for :func:`prepare_database`).
        username: the JupyterHub name.

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
    role = role_for(name, kind="t")
    return role, _login(engine, role, TEACHERS, None)
