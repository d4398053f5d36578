"""Save limits count per browser: an index on each saved table's ``(browser, saved_at)``.

The save limits (:mod:`tokens_edu.store.limits`) count a writer's saves of the last minute and
hour by the browser that wrote them, not by the name typed (issue 29 part 3: Eve saving under
"Bo" must not block Bo's own saves). Each save counts them, so ``answers``, ``responses`` and
``drawings`` get an index on ``(browser, saved_at)``: the count reads only the index, as it did by
name with ``(student, saved_at)``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-10
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLES = ("answers", "responses", "drawings")


def upgrade() -> None:
    for table in TABLES:
        op.create_index(f"ix_{table}_browser_saved_at", table, ["browser", "saved_at"])


def downgrade() -> None:
    for table in TABLES:
        op.drop_index(f"ix_{table}_browser_saved_at", table_name=table)
