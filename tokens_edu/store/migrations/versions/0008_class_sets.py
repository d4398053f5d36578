"""Lesson 8's class data belongs to a class and a day: sets of drawings, and the typed commands.

* ``class_sets``: one row each time the teacher starts a new set of lesson 8's class data for a
  class: ``seq``, ``id`` (a UUID), ``lesson``, ``name`` (which class, as the teacher typed it,
  e.g. "7B"), ``started_at`` (UTC: the day). A lesson's newest set is the one its pages add to
  and learn from; a lesson with no set yet uses the first set, whose id is ``""``.
* ``drawings`` gains ``set_id`` (the set the drawing was added to; ``""`` for the first set, so
  every drawing saved before this migration belongs to it).
* ``commands``: the typed commands of lesson 8's command lab with their labels, saved like the
  drawings: ``seq``, ``id``, ``student``, ``lesson``, ``set_id``, ``text`` (at most 200
  characters), ``label``, ``saved_at`` (UTC), ``browser``.
* ``class_drawings`` (the view of every drawing without names or times) gains ``set_id``.

On PostgreSQL: students read the sets (to know which is the newest) and add and read only their
own commands, as for drawings; the teachers' login starts sets, reads every command, and may
delete a drawing or a command (the dashboard's Delete).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

STUDENTS = "tokens_edu_students"
TEACHERS = "tokens_edu_teachers"


def _seq() -> sa.Column:
    return sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "class_sets",
        _seq(),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("id", name="uq_class_sets_id"),
    )
    op.create_index("ix_class_sets_lesson", "class_sets", ["lesson", "seq"])
    op.add_column("drawings", sa.Column("set_id", sa.String(36), nullable=False, server_default=""))
    op.create_index("ix_drawings_lesson_set", "drawings", ["lesson", "set_id", "seq"])
    op.create_table(
        "commands",
        _seq(),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("student", sa.String(200), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("set_id", sa.String(36), nullable=False, server_default=""),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("browser", sa.String(64), nullable=False, server_default=""),
        sa.UniqueConstraint("id", name="uq_commands_id"),
    )
    op.create_index("ix_commands_lesson_set", "commands", ["lesson", "set_id", "seq"])
    op.create_index("ix_commands_student_lesson", "commands", ["student", "lesson", "saved_at"])
    op.create_index("ix_commands_browser_saved_at", "commands", ["browser", "saved_at"])
    op.execute("DROP VIEW class_drawings")
    op.execute("CREATE VIEW class_drawings AS SELECT seq, lesson, set_id, label, width, height, pixels "
               "FROM drawings")
    if op.get_bind().dialect.name != "postgresql":
        return
    mine = "student = tokens_edu_student()"
    for stmt in (
        "REVOKE ALL ON class_sets FROM PUBLIC",
        f"GRANT SELECT ON class_sets TO {STUDENTS}",
        f"GRANT SELECT, INSERT ON class_sets TO {TEACHERS}",
        f"GRANT DELETE ON drawings TO {TEACHERS}",
        f"CREATE POLICY teachers_delete ON drawings FOR DELETE TO {TEACHERS} USING (true)",
        "REVOKE ALL ON commands FROM PUBLIC",
        f"GRANT SELECT, INSERT ON commands TO {STUDENTS}",
        f"GRANT SELECT, DELETE ON commands TO {TEACHERS}",
        "ALTER TABLE commands ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own_rows ON commands FOR ALL TO {STUDENTS} USING ({mine}) WITH CHECK ({mine})",
        f"CREATE POLICY teachers_read ON commands FOR SELECT TO {TEACHERS} USING (true)",
        f"CREATE POLICY teachers_delete ON commands FOR DELETE TO {TEACHERS} USING (true)",
        # the view belongs to the migration's login (the owner), so it shows every row
        "REVOKE ALL ON class_drawings FROM PUBLIC",
        f"GRANT SELECT ON class_drawings TO {STUDENTS}, {TEACHERS}",
    ):
        op.execute(stmt)


def downgrade() -> None:
    op.execute("DROP VIEW class_drawings")
    op.execute("CREATE VIEW class_drawings AS SELECT seq, lesson, label, width, height, pixels FROM drawings")
    op.drop_table("commands")
    op.drop_index("ix_drawings_lesson_set", "drawings")
    with op.batch_alter_table("drawings") as batch:
        batch.drop_column("set_id")
    op.drop_table("class_sets")
