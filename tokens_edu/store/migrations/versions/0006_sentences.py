"""Lesson 12's sentences: what each student shared with the class's next-word model.

* ``sentences``: one row per shared sentence: ``seq``, ``id`` (a UUID made by the writer, so a
  retried save is stored once), ``student``, ``lesson``, ``text`` (the sentence as shared, at most
  200 characters), ``saved_at`` (UTC), ``browser`` (a hash of the writing browser's secret),
  ``hidden`` (true when the teacher has hidden it from the model and the class) and ``hidden_at``.
* ``class_sentences``: a view of the sentences the teacher has not hidden, without names or times
  (``seq``, ``id``, ``lesson``, ``text``): the class's model learns from them, and a student may
  read them without learning who wrote which.

On PostgreSQL, row-level security as for drawings: a student's own login reads and adds only
their own sentences, and reads the class's through the view (which belongs to the database's
owner, so it shows every visible row); the teachers' login reads every sentence and may change
``hidden`` and ``hidden_at`` (nothing else).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STUDENTS = "tokens_edu_students"
TEACHERS = "tokens_edu_teachers"


def upgrade() -> None:
    op.create_table(
        "sentences",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(), primary_key=True),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("student", sa.String(200), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("browser", sa.String(64), nullable=False, server_default=""),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("id", name="uq_sentences_id"),
    )
    op.create_index("ix_sentences_lesson_hidden", "sentences", ["lesson", "hidden", "seq"])
    op.create_index("ix_sentences_student_lesson", "sentences", ["student", "lesson", "saved_at"])
    op.create_index("ix_sentences_browser_saved_at", "sentences", ["browser", "saved_at"])
    op.execute("CREATE VIEW class_sentences AS SELECT seq, id, lesson, text FROM sentences WHERE NOT hidden")
    if op.get_bind().dialect.name != "postgresql":
        return
    mine = "student = tokens_edu_student()"
    for stmt in (
        "REVOKE ALL ON sentences FROM PUBLIC",
        f"GRANT SELECT, INSERT ON sentences TO {STUDENTS}",
        f"GRANT SELECT ON sentences TO {TEACHERS}",
        f"GRANT UPDATE (hidden, hidden_at) ON sentences TO {TEACHERS}",
        "ALTER TABLE sentences ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY own_rows ON sentences FOR ALL TO {STUDENTS} USING ({mine}) WITH CHECK ({mine})",
        f"CREATE POLICY teachers_read ON sentences FOR SELECT TO {TEACHERS} USING (true)",
        f"CREATE POLICY teachers_hide ON sentences FOR UPDATE TO {TEACHERS} USING (true) WITH CHECK (true)",
        # the view belongs to the migration's login (the owner), so it shows every visible row
        "REVOKE ALL ON class_sentences FROM PUBLIC",
        f"GRANT SELECT ON class_sentences TO {STUDENTS}, {TEACHERS}",
    ):
        op.execute(stmt)


def downgrade() -> None:
    op.execute("DROP VIEW class_sentences")
    op.drop_table("sentences")
