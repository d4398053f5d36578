"""A test that needs a missing tool fails, with one plain message naming the command to run.

The tools are Debian's Chromium, PostgreSQL's server programs, configurable-http-proxy and
axe-core: ``deploy/install-test-needs.sh`` installs them all (``make test`` and ``.ci/run`` run
it). Nothing is skipped: a run without them is not green. ``make test-fast`` deselects the tests
that need them (markers ``browser``, ``postgres``, ``hub``, ``slow``: ``tests/conftest.py``).
"""

from __future__ import annotations

from typing import NoReturn

import pytest

#: The one command that installs every tool the tests use.
INSTALL = "sudo deploy/install-test-needs.sh"


def missing(what: str) -> NoReturn:
    """Fail the calling test: ``what`` is missing (a sentence without a full stop), and how to fix it."""
    pytest.fail(f"{what}. Install what the tests need with `{INSTALL}` (or run `make test-fast`, which "
                "leaves out the browser, PostgreSQL and JupyterHub tests).", pytrace=False)


def need(ok: bool, what: str) -> None:
    """Fail the calling test with :func:`missing` unless ``ok``."""
    if not ok:
        missing(what)
