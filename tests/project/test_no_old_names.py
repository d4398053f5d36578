"""Nothing in the kit uses an old name (issue 26 parts 1 and 5): the old module paths of
tokens_edu/_moved.py and the Journal facade are kept for users' notebooks until tokens-edu 0.4.0,
and the package, the lessons and the student notebooks use the new homes."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tokens_edu import _moved

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tokens_edu"
#: The files that define the old names (and nothing else may use them).
KEEPERS = {PACKAGE / "_moved.py", PACKAGE / "session" / "journal.py"}


def _imports(tree: ast.AST, module: str):
    """(line, imported module, names) of every import in ``tree`` (relative ones resolved
    against ``module``, the file's dotted name)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[:-node.level]
                base = ".".join(parts + ([base] if base else []))
            yield node.lineno, base, [a.name for a in node.names]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.append("x")  # a package's relative imports start from the package itself
    return ".".join(parts)


def _package_files():
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p not in KEEPERS and "migrations" not in p.parts]


def test_the_package_imports_no_old_module_path_and_not_the_journal():
    problems = []
    old_paths = set(_moved.MOVED)
    for path in _package_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, module, names in _imports(tree, _module_name(path)):
            full = {module, *(f"{module}.{n}" for n in names)}
            where = f"{path.relative_to(ROOT)}:{line}"
            if full & old_paths:
                problems.append(f"{where} imports the old path {sorted(full & old_paths)}")
            if "Journal" in names:
                problems.append(f"{where} imports Journal")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Journal":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} makes a Journal")
    assert problems == []


@pytest.mark.parametrize("folder", ["lessons", "notebooks"])
def test_lessons_and_notebooks_use_the_page_session(folder):
    problems = []
    for path in sorted((ROOT / folder).glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            source = "".join(cell["source"]) if cell["cell_type"] == "code" else ""
            if "Journal" in source or "journal" in source:
                problems.append(f"{path.name}: {source.splitlines()[0][:80]}")
    assert problems == []
