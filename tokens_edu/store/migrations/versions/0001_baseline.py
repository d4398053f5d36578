"""The tables as tokens-edu 0.2 made them, before migrations (commit d60bab8).

Until then each part of the package made its own table with ``CREATE TABLE IF NOT EXISTS``
(the journal: ``answers`` and ``drafts``; saved games: ``games``; the class list: ``roster``), and
the JupyterHub deploy made the same tables from a second copy of their definitions. A school's
database may therefore hold any of these tables already, with a year of answers in them: this
migration makes only the tables and indexes that are missing, and changes nothing that exists.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_metadata = sa.MetaData()
_tables = [
    sa.Table(
        "answers", _metadata,
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("student", sa.String(200), nullable=False),
        sa.Column("lesson", sa.String(200), nullable=False),
        sa.Column("card", sa.String(200), nullable=False),
        sa.Column("prompt", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    ),
    sa.Table(
        "drafts", _metadata,
        sa.Column("student", sa.String(200), primary_key=True),
        sa.Column("lesson", sa.String(200), primary_key=True),
        sa.Column("card", sa.String(200), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    ),
    sa.Table(
        "games", _metadata,
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
    ),
    sa.Table(
        "roster", _metadata,
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    ),
]
_indexes = {
    "answers": ("ix_answers_student_lesson_card", ["student", "lesson", "card", "saved_at"]),
    "games": ("ix_games_student_lesson", ["student", "lesson", "status", "updated_at"]),
}


def upgrade() -> None:
    bind = op.get_bind()
    for table in _tables:
        if not sa.inspect(bind).has_table(table.name):
            table.create(bind)
        if table.name in _indexes:
            name, columns = _indexes[table.name]
            if name not in {ix["name"] for ix in sa.inspect(bind).get_indexes(table.name)}:
                op.create_index(name, table.name, columns)


def downgrade() -> None:
    raise NotImplementedError("The first tables are not taken away: answers would be lost.")
