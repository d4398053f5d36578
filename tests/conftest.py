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


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium (Debian's, driven by Playwright) for a whole test module; fails
    when CI is set and Chromium is missing, skips elsewhere (``teacher_helpers.launch``).
    A module that needs its server first asks for both (``def test(server, browser)``)."""
    from playwright.sync_api import sync_playwright
    from teacher_helpers import launch

    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()
