"""The package's structure: layers checked by import-linter (contracts in pyproject.toml), imports
at the top of modules, and every card's mechanic in one table (issues 7 and 18)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tokens_edu"
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"]


def lint(cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run(LINT + ["--no-cache"], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_hold():
    done = lint(ROOT, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and "Each layer imports only the layers below it KEPT" in done.stdout


@pytest.mark.parametrize("where,line,contract", [
    ("engine/moves.py", "from ..widgets import table", "Each layer imports only the layers below it"),
    ("content/cards.py", "from ..game import game", "Each layer imports only the layers below it"),
    ("store/roster.py", "from ..players import bots", "Each layer imports only the layers below it"),
    ("teacher/hub_auth.py", "import ipywidgets", "The teacher's dashboard never imports the widgets"),
    ("engine/rules.py", "import pandas", "The engine holds no text tools, tables or views"),
    ("present/page.py", "import ipywidgets", "What a page may show is decided without widgets"),
])
def test_a_deliberate_upward_import_breaks_a_contract(tmp_path, where, line, contract):
    """The contracts are not decoration: one import against them makes lint-imports fail."""
    shutil.copytree(PACKAGE, tmp_path / "tokens_edu", ignore=shutil.ignore_patterns("__pycache__", "_bundle"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = tmp_path / "tokens_edu" / where
    text = module.read_text(encoding="utf-8")
    module.write_text(text.replace("from __future__ import annotations\n",
                                   f"from __future__ import annotations\n\n{line}  # noqa\n", 1), encoding="utf-8")
    done = lint(tmp_path, tmp_path)
    assert done.returncode != 0, done.stdout
    assert f"{contract} BROKEN" in done.stdout


def _hidden_imports(path: Path) -> list[tuple[int, str]]:
    """Imports of the package's own modules inside functions, without a comment saying why."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for func in ast.walk(ast.parse(text)):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            own = (isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("tokens_edu"))
                   or isinstance(node, ast.Import) and any(a.name.startswith("tokens_edu") for a in node.names))
            if own:
                said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].strip().startswith("#")
                if not said:
                    found.append((node.lineno, lines[node.lineno - 1].strip()))
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_import_the_package_at_the_top(path):
    """An import of the package's own modules inside a function needs its reason in a comment
    (a heavy dependency it would load, such as pandas or Tornado)."""
    assert _hidden_imports(path) == []


def test_cards_effects_live_only_in_the_effects_table():
    from tokens_edu import load_cards
    from tokens_edu.engine.effects import EFFECTS

    names = set(load_cards())
    assert set(EFFECTS) <= names
    for path in PACKAGE.rglob("*.py"):
        if path.name == "effects.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "def _tensor" not in text and "def _feature_vector" not in text


def test_no_package_name_hides_one_of_its_modules():
    """``tokens_edu.lab.simulation`` is a module and ``tokens_edu.lab.simulate`` a function: a
    package that exported a function named like its module would make ``import a.b as m`` give
    the function (an easy mistake when the two share a name)."""
    import importlib
    import pkgutil

    import tokens_edu

    for info in pkgutil.walk_packages(tokens_edu.__path__, "tokens_edu."):
        if info.name.endswith("__main__") or "._bundle" in info.name:
            continue
        module = importlib.import_module(info.name)
        parent, _, name = info.name.rpartition(".")
        assert getattr(importlib.import_module(parent), name) is module, info.name


#: Issue 18: no module in the package is over this many lines (a file that grows past it holds
#: more than one job: split it by job, as game/records.py and players/imitation.py were).
MAX_MODULE_LINES = 600


def test_no_module_in_the_package_is_over_600_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in PACKAGE.rglob("*.py")}
    assert len(sizes) > 50  # the walk found the package
    too_long = {path: n for path, n in sizes.items() if n > MAX_MODULE_LINES}
    assert too_long == {}, f"split these modules by job: {too_long}"
