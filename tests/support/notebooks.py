"""The lessons and notebooks as files, and running one top to bottom in this Python (for tests)."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

from IPython.display import display


ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
SCENARIOS = LESSONS / "scenarios"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*.ipynb"))
START_PAGE = LESSONS / "00-start-here.ipynb"  # the list of lessons a student opens first
GUIDE_PAGE = LESSONS / "teacher-guide.ipynb"  # the teacher's guide, linked from the start page
LESSON_PAGES = sorted(p for p in LESSONS.glob("*.ipynb") if p not in (START_PAGE, GUIDE_PAGE))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb: dict) -> list[str]:
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


def run_notebook(path: Path, each=None) -> list:
    """Run a notebook's code cells in order, in this process, with cwd = its folder.

    Args:
        path: the notebook.
        each: called after each code cell as ``each(cell)`` (the cell's dict), if given.

    Returns:
        the value of each cell's last expression (what the notebook would display), in order.
    """
    shown = []
    namespace = {"__name__": "__main__", "display": display}
    old = os.getcwd()
    os.chdir(path.parent)
    try:
        cells = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
        for cell, source in zip(cells, code_cells({"cells": cells})):
            tree = ast.parse(source)
            last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            if last is not None:
                tree.body = tree.body[:-1]
            exec(compile(tree, str(path), "exec"), namespace)  # noqa: S102: our own notebooks
            if last is not None:
                shown.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
            if each is not None:
                each(cell)
    finally:
        os.chdir(old)
    return shown
