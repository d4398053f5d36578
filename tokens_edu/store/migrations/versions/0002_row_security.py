"""PostgreSQL: row-level security, so a student's own database login sees only their own rows.

(Nothing on SQLite: one lesson server holds the file, and a name there is not a login.)

What it sets up (the JupyterHub deploy gives each student a login of their own; see
:mod:`tokens_edu.store.logins` and ``docs/deploy.md``):

* the group roles ``tokens_edu_students`` and ``tokens_edu_teachers`` (made when missing: the
  login that runs this needs ``CREATEROLE``, or a database administrator makes the two roles
  first; the message says so);
* ``tokens_edu_logins`` (which login belongs to which student; students cannot read it) and
  ``tokens_edu_student()``, the student name of the login that calls it (``SECURITY DEFINER``,
  the only way students see that table);
* on ``answers``, ``drafts`` and ``games``: students may read and add (drafts and games: also
  change) only the rows whose ``student`` is their own name; teachers read every answer and game,
  never a draft; the class list (``roster``) is for teachers only;
* both groups may read ``alembic_version`` (to see that the database is up to date).

Until tokens-edu 0.2 the Hub made all of this at every start; the statements here are the same,
and safe to run on a database that has them already.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

STUDENTS = "tokens_edu_students"
TEACHERS = "tokens_edu_teachers"
LOGINS = "tokens_edu_logins"


def _groups(bind) -> None:
    """Make the two group roles, or say in plain words who must make them."""
    missing = [name for name in (STUDENTS, TEACHERS)
               if bind.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": name}).first() is None]
    if not missing:
        return
    may = bind.execute(sa.text("SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user")).scalar()
    if not may:
        from tokens_edu.store.migrate import MigrationRefused  # (only on this rare path)

        raise MigrationRefused(
            "The database login may not make the roles tokens-edu needs. A database administrator "
            "should run once: " + " ".join(f"CREATE ROLE {name} NOLOGIN;" for name in missing)
            + " (or give this login CREATEROLE), then open tokens-edu again.")
    for name in missing:
        op.execute(f"CREATE ROLE {name} NOLOGIN")


def own_rows(table: str, policy: str, rights: str, teachers_read: str | None) -> list[str]:
    """The grants and policies that let students use only their own rows of ``table``."""
    out = [f"REVOKE ALL ON {table} FROM PUBLIC",
           f"GRANT {rights} ON {table} TO {STUDENTS}",
           f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
           f"DROP POLICY IF EXISTS {policy} ON {table}",
           f"CREATE POLICY {policy} ON {table} FOR ALL TO {STUDENTS} "
           "USING (student = tokens_edu_student()) WITH CHECK (student = tokens_edu_student())"]
    if teachers_read:
        out += [f"GRANT SELECT ON {table} TO {TEACHERS}",
                f"DROP POLICY IF EXISTS {teachers_read} ON {table}",
                f"CREATE POLICY {teachers_read} ON {table} FOR SELECT TO {TEACHERS} USING (true)"]
    return out


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    _groups(bind)
    statements = [
        f"CREATE TABLE IF NOT EXISTS {LOGINS} (role_name text PRIMARY KEY, "
        "student varchar(200) NOT NULL UNIQUE)",
        "CREATE OR REPLACE FUNCTION tokens_edu_student() RETURNS text "
        "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS "
        f"$$ SELECT student FROM public.{LOGINS} WHERE role_name = session_user $$",
        f"REVOKE ALL ON {LOGINS} FROM PUBLIC",
        "REVOKE ALL ON FUNCTION tokens_edu_student() FROM PUBLIC",
        f"GRANT EXECUTE ON FUNCTION tokens_edu_student() TO {STUDENTS}",
        f"GRANT USAGE ON SCHEMA public TO {STUDENTS}, {TEACHERS}",
        f"GRANT SELECT ON alembic_version TO {STUDENTS}, {TEACHERS}",
        *own_rows("answers", "own_rows", "SELECT, INSERT", "teachers_read"),
        # drafts: a student keeps, replaces and removes their own; nobody else sees them
        *own_rows("drafts", "own_rows", "SELECT, INSERT, UPDATE, DELETE", None),
        # saved games: a student keeps and updates their own games (never deletes them)
        *own_rows("games", "own_games", "SELECT, INSERT, UPDATE", "teachers_read_games"),
        # the class list: codes are secrets; only the teachers' dashboard reads it
        "REVOKE ALL ON roster FROM PUBLIC",
        f"GRANT SELECT ON roster TO {TEACHERS}",
    ]
    for stmt in statements:
        op.execute(stmt)


def downgrade() -> None:
    raise NotImplementedError("Row-level security is not taken away: students' rows would be open.")
