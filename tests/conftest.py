"""Fixtures and markers shared by the whole suite.

The tests mirror the package (``tests/engine/`` tests ``tokens_edu/engine/``...); helpers they
share are in ``tests/support/`` (on ``sys.path`` from here, so a test says ``from scenarios import
...``). Markers are given by what a test uses, so they cannot drift from the code:

- ``browser``: drives Debian's Chromium (the ``browser`` fixture; modules that launch their own
  say ``pytestmark = pytest.mark.browser``, single tests ``@pytest.mark.browser``);
- ``postgres``: starts a throwaway PostgreSQL server (the ``postgres`` fixture);
- ``hub``: starts a real JupyterHub (``tests/project/test_hub.py``);
- ``slow``: starts servers, builds packages or runs notebooks (marked in the module).

``make test-fast`` runs ``-m "not browser and not postgres and not hub and not slow"``. A test
that needs a missing tool (Chromium, PostgreSQL, configurable-http-proxy, axe-core) fails with
the command that installs it (``tests/support/needs.py``); nothing is skipped.

No test uses the machine's own answers folder: ``TOKENS_EDU_DATA`` is a new, empty folder for
the run (for each pytest-xdist worker) unless it is set; the servers a test starts inherit it.
An answers file left by another checkout's tests at another revision would otherwise make
``tokens-edu serve`` refuse to start.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
if not os.environ.get("TOKENS_EDU_DATA", "").strip():
    os.environ["TOKENS_EDU_DATA"] = tempfile.mkdtemp(prefix="tokens-edu-tests-")
    atexit.register(shutil.rmtree, os.environ["TOKENS_EDU_DATA"], True)


#: Fixture scopes shared by several tests of a module: a server, a browser, a build.
SHARED_SCOPES = ("module", "class", "package")


def _shares_a_fixture(item) -> bool:
    """True when ``item`` uses a fixture made once for its module (or class, or package)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for name in getattr(item, "fixturenames", ()):
        defs = info.name2fixturedefs.get(name)
        if defs and str(getattr(defs[-1], "scope", "")) in SHARED_SCOPES:
            return True
    return False


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Mark each test ``browser`` or ``postgres`` by the shared fixtures it uses.

    ``make test`` runs ``-n auto --dist loadscope``: a module's tests on one worker. For ``--dist
    loadgroup`` (which did not honour the marks with pytest 9 and xdist 3.8), a test that uses a fixture
    made once per module (a server, a browser, a build) joins its module's ``xdist_group``, so
    the module's tests run on one worker and the fixture is made once; the other tests are
    spread one by one. A module that must run alone for another reason says
    ``pytestmark = pytest.mark.xdist_group("...")`` itself.
    """
    grouping = config.pluginmanager.hasplugin("xdist")
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if "postgres" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if grouping and item.get_closest_marker("xdist_group") is None and _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


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
