"""The README's Python examples run as written (from the project's root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for block in BLOCKS[: index + 1]:  # later examples may use names from earlier ones
        exec(compile(block, f"README.md example {index + 1}", "exec"), namespace)
    if index == 0:
        out = capsys.readouterr().out
        assert "wins on turn" in out and "Tokens" in out
        assert namespace["game"].over and namespace["game"].winner in (0, 1)
