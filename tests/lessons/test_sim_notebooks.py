"""Notebooks 02-05 for students who code (issue 12): seeded, ending with a saved Discuss
question; and `make lab`. The notebooks' code runs in tests/test_lessons.py and in nbval."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SIM_NOTEBOOKS = ["02-going-first", "03-which-colors-win", "04-build-your-deck", "05-an-rl-environment"]
# Calls that play games or draw random numbers: each must be given a seed.
RANDOM_CALLS = {"simulate", "balance_matrix", "matchups", "reset", "RandomBot", "default_rng"}


def _code(name: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("name", SIM_NOTEBOOKS)
def test_notebook_ends_with_a_discuss_box_saved_to_its_journal(name):
    cells = _code(name)
    assert f'PageSession("{name}")' in cells[0]
    assert cells[-1].lstrip().startswith("DiscussBox(") and "session" in cells[-1]


@pytest.mark.parametrize("name", SIM_NOTEBOOKS)
def test_everything_random_is_seeded(name):
    calls = 0
    for source in _code(name):
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if fname not in RANDOM_CALLS or (isinstance(f, ast.Attribute) and getattr(f.value, "id", "") == "plots"):
                continue
            calls += 1
            seeded = any(k.arg == "seed" for k in node.keywords) or (fname == "default_rng" and node.args)
            assert seeded, f"{name}: {ast.unparse(node)[:80]} is not seeded"
    assert calls >= 1


def test_make_lab_opens_jupyterlab_on_the_notebooks_with_the_projects_kernel():
    if shutil.which("make") is None:
        pytest.fail("make is needed for the README's commands")
    out = subprocess.run(["make", "--no-print-directory", "-n", "-W", "pyproject.toml", "lab"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "ipykernel install --sys-prefix --name python3" in out  # the venv's kernel, as for make test
    assert ".venv/bin/jupyter lab --notebook-dir=notebooks" in out
