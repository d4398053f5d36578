"""The engine's structure (issue 7): no import cycles among tokens_edu modules, the engine
holds no text or pandas, and every card's mechanic is in one table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tokens_edu"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """tokens_edu modules that ``path`` imports anywhere (functions included), leaving out
    imports under ``if TYPE_CHECKING:`` (they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("tokens_edu"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("tokens_edu"):
                for alias in node.names:  # "from . import engine" imports a module
                    sub = f"{target}.{alias.name}"
                    found.add(sub if (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists()
                              or (PACKAGE.parent / Path(*sub.split("."))).is_dir() else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(me)
    return found


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {m: {i for i in imports_of(p) if i in MODULES} for m, p in MODULES.items()}


def _parents(m: str) -> set[str]:
    """A module's packages run their __init__ first; a package importing its own submodule is not a cycle."""
    parts = m.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts))}


def test_no_import_cycles_among_tokens_edu_modules():
    edges = {m: {i for i in deps if i not in _parents(m) and m not in _parents(i)} for m, deps in GRAPH.items()}
    cycles = []
    state: dict[str, int] = {}

    def walk(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                cycles.append(path[path.index(n):] + [n] if n in path else [m, n])
            elif n not in state:
                walk(n, path + [n])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m, [m])
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("tokens_edu.engine")))
def test_the_engine_imports_only_cards_errors_and_itself(module):
    allowed = ("tokens_edu.engine", "tokens_edu.cards", "tokens_edu.errors")
    assert all(i.startswith(allowed) for i in GRAPH[module]), GRAPH[module]
    source = MODULES[module].read_text(encoding="utf-8")
    assert "import pandas" not in source and "import ipywidgets" not in source


def test_cards_effects_live_only_in_the_effects_table():
    from tokens_edu import load_cards
    from tokens_edu.engine.effects import EFFECTS

    names = set(load_cards())
    assert set(EFFECTS) <= names
    for path in MODULES.values():
        if path.name == "effects.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "def _tensor" not in text and "def _feature_vector" not in text
