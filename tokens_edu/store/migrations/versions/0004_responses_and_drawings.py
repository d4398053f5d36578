"""Predictions, exit questions, lesson results and drawings, kept with the answers.

* ``responses``: one row per saved prediction, exit question or lesson result (``kind``), by
  student, lesson and question id, with ``correct`` (true/false) when the question has a right
  answer; shown to the teacher beside the Discuss answers.
* ``drawings``: pictures a student drew and labelled (lesson 8's training data), ``pixels`` one
  byte per pixel, row by row.

* ``class_drawings``: a view of every drawing without names or times (``seq``, ``lesson``,
  ``label``, ``width``, ``height``, ``pixels``): the class's pictures are the lesson's training
  data, and a student may use them without learning who drew which.

On PostgreSQL, row-level security as for answers: a student's own login reads and adds only
their own responses and drawings, and reads the class's drawings through the view (which
belongs to the database's owner, so it shows every row); the teachers' login reads everything.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

STUDENTS = "tokens_edu_students"
TEACHERS = "tokens_edu_teachers"


def _seq() -> sa.Column:
    return sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(),
                     primary_key=True)


def _browser() -> sa.Column:
    return sa.Column("browser", sa.String(64), nullable=False, server_default="")


def upgrade() -> None:
    op.create_table(
        "responses",
        _seq(),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("student", sa.String(200), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("question", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=True),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        _browser(),
        sa.UniqueConstraint("id", name="uq_responses_id"),
    )
    op.create_index("ix_responses_student_lesson_question", "responses",
                    ["student", "lesson", "question", "saved_at"])
    op.create_index("ix_responses_lesson_question", "responses", ["lesson", "question"])
    op.create_table(
        "drawings",
        _seq(),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("student", sa.String(200), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("pixels", sa.LargeBinary, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        _browser(),
        sa.UniqueConstraint("id", name="uq_drawings_id"),
    )
    op.create_index("ix_drawings_lesson_label", "drawings", ["lesson", "label"])
    op.create_index("ix_drawings_student_lesson", "drawings", ["student", "lesson", "saved_at"])
    op.execute("CREATE VIEW class_drawings AS SELECT seq, lesson, label, width, height, pixels FROM drawings")
    if op.get_bind().dialect.name != "postgresql":
        return
    mine = "student = tokens_edu_student()"
    for stmt in (
        "REVOKE ALL ON responses FROM PUBLIC",
        f"GRANT SELECT, INSERT ON responses TO {STUDENTS}",
        f"GRANT SELECT ON responses TO {TEACHERS}",
        "ALTER TABLE responses ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own_rows ON responses FOR ALL TO {STUDENTS} USING ({mine}) WITH CHECK ({mine})",
        f"CREATE POLICY teachers_read ON responses FOR SELECT TO {TEACHERS} USING (true)",
        "REVOKE ALL ON drawings FROM PUBLIC",
        f"GRANT SELECT, INSERT ON drawings TO {STUDENTS}",
        f"GRANT SELECT ON drawings TO {TEACHERS}",
        "ALTER TABLE drawings ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own_rows ON drawings FOR ALL TO {STUDENTS} USING ({mine}) WITH CHECK ({mine})",
        f"CREATE POLICY teachers_read ON drawings FOR SELECT TO {TEACHERS} USING (true)",
        # the view belongs to the migration's login (the owner), so it shows every row
        "REVOKE ALL ON class_drawings FROM PUBLIC",
        f"GRANT SELECT ON class_drawings TO {STUDENTS}, {TEACHERS}",
    ):
        op.execute(stmt)


def downgrade() -> None:
    op.execute("DROP VIEW class_drawings")
    op.drop_table("drawings")
    op.drop_table("responses")
