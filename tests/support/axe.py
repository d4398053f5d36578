"""axe-core (Deque's accessibility checker, from npm) run on a Playwright page, for any browser
test: ``from axe import axe_violations``.

axe.min.js is found at ``TOKENS_EDU_AXE`` or in npm's global folder (``npm install -g axe-core``;
``.ci/run`` installs it). Like Chromium, a missing axe-core fails a test when ``CI`` is set and
skips it elsewhere. The script is run with Playwright's ``evaluate`` (the DevTools protocol),
which a page's Content-Security-Policy does not block, unlike an added ``<script>`` tag.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

__all__ = ["axe_script", "axe_violations", "describe"]


@lru_cache(maxsize=1)
def _find() -> Path | None:
    given = os.environ.get("TOKENS_EDU_AXE")
    if given:
        return Path(given)
    npm = shutil.which("npm")
    if npm:
        try:
            root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            root = ""
        if root and (Path(root) / "axe-core" / "axe.min.js").exists():
            return Path(root) / "axe-core" / "axe.min.js"
    return None


def axe_script() -> str:
    """axe.min.js's text; skips the test (fails it in CI) when axe-core is not installed."""
    path = _find()
    if path is None or not path.exists():
        message = "axe-core is not installed (npm install -g axe-core, or set TOKENS_EDU_AXE)."
        if os.environ.get("CI"):
            pytest.fail(message + " The accessibility checks must run in CI.")
        pytest.skip(message)
    return path.read_text(encoding="utf-8")


def axe_violations(page, tags=("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"),
                   exclude=()) -> list[dict]:
    """Run axe-core on ``page`` (a Playwright Page) and return its violations (axe's dicts:
    ``id``, ``impact``, ``help``, ``nodes``...).

    Args:
        tags: the rule sets to run (WCAG 2.1 A and AA, and axe's best practices).
        exclude: CSS selectors of parts to leave out (say why where you use it).
    """
    if not page.evaluate("() => !!window.axe"):
        # evaluated through the DevTools protocol: a page's Content-Security-Policy (which
        # blocks inline scripts, as the dashboard's does) does not apply
        page.evaluate("(source) => { (0, eval)(source); }", axe_script())
    options = {"runOnly": {"type": "tag", "values": list(tags)}}
    context = {"exclude": [[s] for s in exclude]} if exclude else None
    result = page.evaluate("([context, options]) => axe.run(context || document, options)",
                           [context, options])
    return result["violations"]


def describe(violations: list[dict]) -> str:
    """The violations in a few readable lines (for an assertion message)."""
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']} -- "
                     + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                                 for n in v["nodes"][:4])
                     for v in violations)
