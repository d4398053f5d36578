"""axe-core (Deque's accessibility rules engine, from npm) run on a Playwright page, for any
browser test: the lessons' pages, the teacher's dashboard and ``benchmarks/browser_latency.py``.

axe.min.js is found at ``$TOKENS_EDU_AXE``, else in ``tests/node_modules`` (``npm ci --prefix
tests``: ``tests/package.json`` and its lock pin the version; ``deploy/install-test-needs.sh`` does it), else in npm's
global folder (``npm install -g axe-core``). Nothing is loaded from a CDN. Like Chromium, a
missing axe-core fails the test, naming the command that installs it (``needs.missing``). The script is run with
Playwright's ``evaluate`` (the DevTools protocol), which a page's Content-Security-Policy (the
dashboard's blocks inline scripts) does not block, unlike an added ``<script>`` tag::

    from axe import run_axe, serious, describe
    result = run_axe(page)                   # axe.run() on the whole document
    assert not serious(result), describe(serious(result))
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter
from functools import lru_cache
from pathlib import Path

__all__ = ["AXE_JS", "SERIOUS", "axe_path", "axe_source", "axe_script", "run_axe", "axe_violations",
           "serious", "counts", "describe"]

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that fail a page (axe-core's four levels: minor, moderate, serious, critical).
SERIOUS = ("serious", "critical")
#: The rule sets run by default: WCAG 2.0/2.1 A and AA, and axe's best practices.
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice")


@lru_cache(maxsize=1)
def axe_path() -> Path | None:
    """Where axe.min.js is (see the module's docs), or None."""
    given = os.environ.get("TOKENS_EDU_AXE")
    if given:
        return Path(given)
    if AXE_JS.is_file():
        return AXE_JS
    npm = shutil.which("npm")
    if npm:
        try:
            root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            root = ""
        if root and (Path(root) / "axe-core" / "axe.min.js").is_file():
            return Path(root) / "axe-core" / "axe.min.js"
    return None


@lru_cache(maxsize=2)
def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def axe_source() -> str:
    """The text of axe.min.js. Missing: fail the calling test, naming the command that installs
    it (``needs.missing``); outside pytest, raise FileNotFoundError."""
    path = axe_path()
    if path is not None and path.is_file():
        return _read(str(path))
    message = "axe-core is not installed (`npm ci --prefix tests`, or set TOKENS_EDU_AXE)"
    try:
        from needs import missing
    except ImportError:  # pragma: no cover - outside the test suite
        raise FileNotFoundError(message) from None
    missing(message)


axe_script = axe_source  # the dashboard tests' name for it


def run_axe(page, context: object = None, options: dict | None = None) -> dict:
    """Run ``axe.run`` in ``page`` (a Playwright page); inject axe-core first if needed.

    Args:
        page: a Playwright ``Page`` that has loaded what is to be checked.
        context: what to check (a CSS selector or an axe context dict); default the whole document.
        options: axe-core run options (default: :data:`TAGS`, ``resultTypes: ["violations"]``).

    Returns:
        dict: axe-core's results (``violations``: a list of rules, each with ``id``, ``impact``,
        ``help`` and ``nodes``, one per element that fails it).
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate("(source) => { (0, eval)(source); }", axe_source())
    opts = options or {"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": list(TAGS)}}
    return page.evaluate("([ctx, opts]) => axe.run(ctx || document, opts)", [context, opts])


def axe_violations(page, tags=TAGS, exclude=()) -> list[dict]:
    """Run axe-core on ``page`` and return its violations (axe's dicts: ``id``, ``impact``,
    ``help``, ``nodes``...).

    Args:
        tags: the rule sets to run.
        exclude: CSS selectors of parts to leave out (say why where you use it).
    """
    context = {"exclude": [[s] for s in exclude]} if exclude else None
    return run_axe(page, context, {"runOnly": {"type": "tag", "values": list(tags)}})["violations"]


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
