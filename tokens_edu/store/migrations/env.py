"""Alembic's environment for the store's migrations (run by Alembic, never imported by the package).

:func:`tokens_edu.store.migrate.upgrade` passes an open connection (``config.attributes
["connection"]``) that already holds the database's write lock (SQLite: ``BEGIN IMMEDIATE``;
PostgreSQL: an advisory lock), so every migration of one upgrade runs in that one transaction,
and many kernels opening a new database at once upgrade it once. Run from the ``alembic``
command instead, the URL is the ``sqlalchemy.url`` option or the store's default
(:func:`tokens_edu.store.db.default_url`).
"""

from __future__ import annotations

from alembic import context

from tokens_edu.store.db import default_url, make_engine
from tokens_edu.store.schema import metadata

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      transaction_per_migration=False, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if context.is_offline_mode():
    raise SystemExit("The store's migrations look at the database as they go (an old database "
                     "may hold some tables already): run them on a database, not as SQL text.")
elif connection is not None:
    _run(connection)
else:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or default_url())
    with engine.begin() as conn:
        _run(conn)
