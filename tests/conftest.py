"""Fixtures shared by several test modules."""

from __future__ import annotations

import json

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


@pytest.fixture
def wire(monkeypatch):
    """Record everything widgets send to the browser (comm opens and state updates): a list
    of JSON texts, one a message, for tests that check no hidden card is ever sent."""
    import comm
    from comm.base_comm import BaseComm

    sent: list[str] = []

    class WireComm(BaseComm):
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            sent.append(json.dumps(data, default=str))

    monkeypatch.setattr(comm, "create_comm", lambda **kw: WireComm(**kw))
    return sent
