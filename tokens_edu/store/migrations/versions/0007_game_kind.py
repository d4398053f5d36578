"""A puzzle is not a game: ``games.kind`` says which a saved row is.

A lesson's puzzle (a scenario on a card table: lessons 2, 3, 4, 8 and 9) is kept like a game so
the teacher can replay what a student tried, but it is not one of the class's games: the
dashboard's Games and Progress pages list only ``kind = 'game'`` (issue 28 part 7). Rows saved
before this revision are games (the server default); puzzles saved by older kits stay listed.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("kind", sa.String(12), nullable=False, server_default="game"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("kind")
