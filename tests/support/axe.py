"""axe-core in a real browser: inject the library from the local npm install and run it on a page.

axe-core (Deque's accessibility rules engine, https://github.com/dequelabs/axe-core) is installed
by ``make test`` with ``npm ci --prefix tests`` (``tests/package.json`` pins the version) into
``tests/node_modules/axe-core/axe.min.js``. Nothing is loaded from a CDN: the file is read from
disk and added to the page with Playwright's ``page.add_script_tag(content=...)``. The environment
variable ``TOKENS_EDU_AXE`` may name another ``axe.min.js``.

Used by the lesson pages' browser tests and by ``benchmarks/browser_latency.py``; the teacher
dashboard's tests can use it too::

    from axe import run_axe, serious
    result = run_axe(page)                   # axe.run() on the whole document
    assert not serious(result), describe(serious(result))

When the file is missing, :func:`axe_source` skips the test on a developer's machine and fails
it in CI (the environment variable ``CI`` set), like the Chromium check.
"""

from __future__ import annotations

import os
from collections import Counter
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that fail a page (axe-core's four levels: minor, moderate, serious, critical).
SERIOUS = ("serious", "critical")


def axe_path() -> Path:
    """Where axe.min.js is: ``$TOKENS_EDU_AXE`` or the npm install under ``tests/``."""
    return Path(os.environ.get("TOKENS_EDU_AXE") or AXE_JS)


@lru_cache(maxsize=2)
def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def axe_source(required: bool | None = None) -> str:
    """The text of axe.min.js. Missing: skip the calling test locally, fail it in CI
    (``required`` defaults to whether ``CI`` is set); outside pytest, raise FileNotFoundError."""
    path = axe_path()
    if path.is_file():
        return _read(str(path))
    message = (f"axe-core is not installed ({path} is missing): run `npm ci --prefix tests` "
               "(make test does it).")
    try:
        import pytest
    except ImportError:  # pragma: no cover
        raise FileNotFoundError(message) from None
    if required if required is not None else bool(os.environ.get("CI")):
        pytest.fail(message + " The accessibility checks must run in CI.")
    pytest.skip(message)
    raise AssertionError("unreachable")  # pragma: no cover


def run_axe(page, context: object = None, options: dict | None = None) -> dict:
    """Run ``axe.run`` in ``page`` (a Playwright page); inject axe-core first if needed.

    Args:
        page: a Playwright ``Page`` that has loaded what is to be checked.
        context: what to check (a CSS selector or an axe context dict); default the whole document.
        options: axe-core run options (default: the WCAG 2.0/2.1 A and AA rules and axe's best
            practices, ``resultTypes: ["violations"]``).

    Returns:
        dict: axe-core's results (``violations``: a list of rules, each with ``id``, ``impact``,
        ``help`` and ``nodes``, one per element that fails it).
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    opts = options or {"resultTypes": ["violations"],
                       "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                                             "best-practice"]}}
    return page.evaluate("([ctx, opts]) => axe.run(ctx || document, opts)", [context, opts])


def serious(result: dict) -> list[dict]:
    """The violations whose impact is serious or critical."""
    return [v for v in result.get("violations", []) if v.get("impact") in SERIOUS]


def counts(result: dict) -> dict[str, int]:
    """Violating elements by impact: ``{"critical": n, "serious": n, "moderate": n, "minor": n}``."""
    out = Counter({k: 0 for k in ("critical", "serious", "moderate", "minor")})
    for v in result.get("violations", []):
        out[v.get("impact") or "minor"] += len(v.get("nodes", []))
    return dict(out)


def describe(violations: list[dict], nodes: int = 3) -> str:
    """A readable list of violations: rule, impact, how many elements, the first few selectors."""
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])[:nodes]]
        lines.append(f"{v['id']} ({v.get('impact')}, {len(v.get('nodes', []))} elements): {v.get('help')}; "
                     f"e.g. {targets}")
    return "\n".join(lines)
