"""Fixtures shared by several test modules."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL server for the whole test session (see ``tests/pg_server.py``);
    fails when CI is set and PostgreSQL is missing, skips elsewhere. Stopped at the end."""
    from pg_server import start_server

    server = start_server()
    try:
        yield server
    finally:
        server.stop()
