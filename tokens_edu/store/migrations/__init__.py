"""Alembic migrations of the store: every change to a table, in order (see ``versions/``).

Run them with :func:`tokens_edu.store.migrate.upgrade` (a lesson, the dashboard and the
JupyterHub deploy do it when they open a database that is not up to date). ``env.py`` is
Alembic's environment: it runs the migrations on the connection that ``upgrade`` gives it, in
one transaction that holds the database's write lock.
"""
