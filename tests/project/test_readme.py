"""The README's and docs/engine.md's Python examples run as written (from the project's root) and
do what their text says; the README's layer picture is the one import-linter checks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from tokens_edu import Action, Game

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ENGINE_DOC = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")


def blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def run(code: list[str], monkeypatch) -> dict:
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for i, block in enumerate(code):  # later examples may use names from earlier ones
        exec(compile(block, f"example {i + 1}", "exec"), namespace)
    return namespace


def test_quick_start_plays_a_seeded_game_to_a_win_and_shows_adas_tables(monkeypatch, capsys):
    ns = run(blocks(README)[:1], monkeypatch)
    game = ns["game"]
    assert game.over and game.winner in (0, 1) and max(game.tokens) >= 15
    out = capsys.readouterr().out
    assert f"{game.names[game.winner]} wins on turn {game.turn} with {game.tokens}" in out
    assert list(ns["tables"]["players"]["Name"]) == ["Ada", "Bo"]
    assert set(ns["tables"]) >= {"players", "board", "hand", "log"}


def test_play_by_hand_example_undoes_the_audit_and_rebuilds_from_its_record(monkeypatch):
    ns = run(blocks(README)[:2], monkeypatch)
    game = ns["game"]
    fresh = Game.from_scenario(ROOT / "lessons" / "scenarios" / "03-audit.yaml")
    assert Action.parse("audit Neural Network -> Explainability") in fresh.legal_actions()
    assert game.history == fresh.history  # the audit was taken back
    fresh.apply("audit Neural Network -> Explainability")  # the README's comment: why not?
    assert "Neural Network is sideways" in fresh.explain("task Neural Network")
    assert Game.from_record(ns["record"]).to_record() == ns["record"]


def test_simulate_example_gives_one_row_per_game_and_a_verdict(monkeypatch, capsys):
    ns = run(blocks(README)[:3], monkeypatch)
    games = ns["games"]
    assert isinstance(games, pd.DataFrame) and len(games) == 200
    assert set(games["winner"].dropna()) <= {0, 1}
    assert "Going first" in capsys.readouterr().out


def test_thinking_bots_example_explains_trains_and_ranks(monkeypatch):
    ns = run(blocks(README)[:4], monkeypatch)
    table = ns["thinker"].explain(ns["game"])
    assert {"option", "chosen", "share", "win_chance", "reason"} <= set(table.columns)
    assert bool(table["chosen"].iloc[0])
    assert len(ns["curve"]) == 10 and ns["learner"].games_trained == 10
    assert len(ns["learner"].weights) > 0


def test_engine_fast_path_example_finishes_a_game_with_its_history(monkeypatch, capsys):
    ns = run(blocks(ENGINE_DOC)[:1], monkeypatch)
    game = ns["game"]
    assert game.over and len(game.history) > 10
    assert capsys.readouterr().out.split()[0] in ("0", "1", "None")


def test_every_python_example_is_tested():
    """A new example needs its own test above (what it claims, not only that it runs)."""
    assert len(blocks(README)) == 4 and len(blocks(ENGINE_DOC)) == 1


def test_the_layer_picture_is_the_checked_one():
    """The README's picture of the layers lists the layers of the import-linter contract, in order."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    picture = README[README.index("## How the code is laid out"):]
    rows = re.findall(r"^\s{6,}([a-z]+(?:\s+\|\s+[a-z]+)*)\s{3,}\S", picture.split("```")[1], flags=re.M)
    assert [" | ".join(r.split()[::2]) for r in rows] == layers
