"""Nothing in the kit uses an old name (issue 26 parts 1 and 5): the old module paths and old
attribute names of tokens_edu/_moved.py and the Journal facade are kept for users' notebooks until
tokens-edu 0.4.0, and the package, the lessons and the student notebooks use the new homes; no
docstring or comment of the package names an old path."""

from __future__ import annotations

import ast
import functools
import importlib
import json
import pkgutil
import re
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


def _old_names() -> dict[str, dict[str, str]]:
    """:data:`tokens_edu._moved.OLD_NAMES`, with every module imported (each adds its own)."""
    import tokens_edu

    for info in pkgutil.walk_packages(tokens_edu.__path__, "tokens_edu."):
        if not info.name.endswith("__main__") and ".migrations" not in info.name:
            importlib.import_module(info.name)
    return _moved.OLD_NAMES


def test_the_package_imports_no_old_module_path_and_not_the_journal():
    problems = []
    old_paths = set(_moved.MOVED)
    old_names = {f"{module}.{name}" for module, names in _old_names().items() for name in names}
    for path in _package_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, module, names in _imports(tree, _module_name(path)):
            full = {module, *(f"{module}.{n}" for n in names)}
            where = f"{path.relative_to(ROOT)}:{line}"
            if full & old_paths:
                problems.append(f"{where} imports the old path {sorted(full & old_paths)}")
            if full & old_names:
                problems.append(f"{where} imports the old name {sorted(full & old_names)}")
            if "Journal" in names:
                problems.append(f"{where} imports Journal")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Journal":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} makes a Journal")
    assert problems == []


@functools.cache
def _old_path_pattern() -> re.Pattern:
    """Any old module path (dotted, or as a file: ``tokens_edu/bots.py``), any old attribute
    name with its module (``tokens_edu.present.table.card_face``), and the Journal's old places
    and methods (``store.Journal``, ``store/journal.py``, ``Journal.save``)."""
    words = []
    for old in sorted(set(_moved.MOVED) - _moved.QUIET, key=len, reverse=True):
        words.append(re.escape(old) + r"\b(?!\.py)")
        words.append(re.escape(old.replace(".", "/")) + r"\.py")
    for module, names in _old_names().items():
        words += [re.escape(f"{module}.{name}") + r"\b" for name in names]
    words += [r"\bstore\.Journal\b", r"\bstore/journal\.py", r"\bstore/identity\.py", r"\bstore\.identity\b",
              r"\bstore\.journal\b", r"\bJournal\.[a-z_]+"]
    return re.compile(r"(?<![\w])(?:" + "|".join(words) + ")")


def test_no_docstring_or_comment_of_the_package_names_an_old_path():
    """(The files that define the old names say them, and nothing else does.)"""
    pattern = _old_path_pattern()
    problems = []
    for path in _package_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = pattern.search(line)
            if found:
                problems.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)}")
    assert problems == []


def test_the_old_path_check_finds_what_it_looks_for():
    pattern = _old_path_pattern()
    for text in ("see :mod:`tokens_edu.bots`", ":class:`~tokens_edu.cards.Card`", "tokens_edu/store/journal.py",
                 "tokens_edu.store.identity", ":meth:`Journal.save`", "tokens_edu.present.table.card_face"):
        assert pattern.search(text), text
    for text in ("tokens_edu.players.bots", "tokens_edu.plots", "tokens_edu.session.journal.Journal",
                 "tokens_edu.present.faces.card_face", "tokens_edu.present.table.table_state"):
        assert not pattern.search(text), text


@pytest.mark.parametrize("folder", ["lessons", "notebooks"])
def test_lessons_and_notebooks_use_the_page_session(folder):
    problems = []
    for path in sorted((ROOT / folder).glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            source = "".join(cell["source"]) if cell["cell_type"] == "code" else ""
            if "Journal" in source or "journal" in source:
                problems.append(f"{path.name}: {source.splitlines()[0][:80]}")
            found = _old_path_pattern().search(source)
            if found:
                problems.append(f"{path.name}: {found.group(0)}")
    assert problems == []
