"""Notebooks 06-08 (issue 11): inside the computer's head, train your own AI, class tournament.

Stored without outputs and run cell by cell in ``tests/test_lessons.py`` (and by nbval in
``make test``); here: each is seeded, plays no moves itself (it calls the package), shows
what it promises, and ends with a Discuss question saved to its own journal.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BOT_NOTEBOOKS = ["06-inside-the-computer", "07-train-your-own-ai", "08-class-tournament"]
# Calls that play games or draw random numbers: each must be given a seed.
SEEDED = {"SearchBot", "LearningBot", "RandomBot", "train", "tournament", "simulate", "new", "load"}


def _code(name: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("name", BOT_NOTEBOOKS)
def test_notebook_ends_with_a_discuss_box_saved_to_its_journal(name):
    cells = _code(name)
    assert f'PageSession("{name}")' in cells[0]
    assert cells[-1].lstrip().startswith("DiscussBox(") and "session" in cells[-1]


@pytest.mark.parametrize("name", BOT_NOTEBOOKS)
def test_everything_random_is_seeded_and_no_moves_are_played_by_hand(name):
    calls = 0
    for source in _code(name):
        assert ".apply(" not in source and ".push(" not in source and ".undo(" not in source
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if fname not in SEEDED:
                continue
            if fname == "LearningBot" and not node.args and not node.keywords:
                continue  # LearningBot() only to read its weights' meanings: it plays no game
            calls += 1
            assert any(k.arg == "seed" for k in node.keywords), f"{name}: {ast.unparse(node)[:80]} is not seeded"
    assert calls >= 2


def test_the_notebooks_call_what_issue_11_names():
    text = {name: "\n".join(_code(name)) for name in BOT_NOTEBOOKS}
    assert ".explain(game)" in text["06-inside-the-computer"] and "plots.thinking" in text["06-inside-the-computer"]
    assert 'thinking="open"' in text["06-inside-the-computer"] and "hints=True" in text["06-inside-the-computer"]
    nb07 = text["07-train-your-own-ai"]
    assert "train(bot" in nb07 and "plots.win_rate" in nb07 and "GameView(" in nb07 and ".save(" in nb07
    assert "tournament(" in text["08-class-tournament"] and "head_to_head" in text["08-class-tournament"]


def test_notebook_06_shows_the_search_does_not_depend_on_hidden_cards(tmp_path, monkeypatch, capsys):
    from notebooks import run_notebook

    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    shown = run_notebook(ROOT / "notebooks" / "06-inside-the-computer.ipynb")
    assert "Same table: True" in capsys.readouterr().out
    tables = [x for x in shown if hasattr(x, "attrs") and x.attrs.get("bot") == "Search"]
    assert tables and 1 <= len(tables[0]) <= 5 and tables[0]["chosen"].iloc[0]


def test_notebook_07_training_improves_the_bot(tmp_path, monkeypatch):
    """The notebook's claim: after training, its bot does better against GreedyBot."""
    from notebooks import run_notebook

    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    shown = run_notebook(ROOT / "notebooks" / "07-train-your-own-ai.ipynb")
    standings = [x for x in shown if hasattr(x, "columns") and "win_rate" in x.columns and "rank" in x.columns]
    before, after = standings[0].loc["My bot", "win_rate"], standings[1].loc["My bot", "win_rate"]
    assert after > before, (before, after)
