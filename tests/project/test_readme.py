"""The README stays short and true: under 120 lines, its commands run, its links lead to files.
The Python examples of docs/python.md (moved there from the README) and docs/engine.md run as
written (from the project's root) and do what their text says; docs/development.md's layer
picture is the one import-linter checks."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from tokens_edu import Action, Game

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PYTHON_DOC = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
DEVELOPMENT_DOC = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
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
    ns = run(blocks(PYTHON_DOC)[:1], monkeypatch)
    game = ns["game"]
    assert game.over and game.winner in (0, 1) and max(game.tokens) >= 15
    out = capsys.readouterr().out
    assert f"{game.names[game.winner]} wins on turn {game.turn} with {game.tokens}" in out
    assert list(ns["tables"]["players"]["Name"]) == ["Ada", "Bo"]
    assert set(ns["tables"]) >= {"players", "board", "hand", "log"}


def test_play_by_hand_example_undoes_the_audit_and_rebuilds_from_its_record(monkeypatch):
    ns = run(blocks(PYTHON_DOC)[:2], monkeypatch)
    game = ns["game"]
    fresh = Game.from_scenario(ROOT / "lessons" / "scenarios" / "03-audit.yaml")
    assert Action.parse("audit Neural Network -> Explainability") in fresh.legal_actions()
    assert game.history == fresh.history  # the audit was taken back
    fresh.apply("audit Neural Network -> Explainability")  # the README's comment: why not?
    assert "Neural Network is sideways" in fresh.explain("task Neural Network")
    assert Game.from_record(ns["record"]).to_record() == ns["record"]


def test_simulate_example_gives_one_row_per_game_and_a_verdict(monkeypatch, capsys):
    ns = run(blocks(PYTHON_DOC)[:3], monkeypatch)
    games = ns["games"]
    assert isinstance(games, pd.DataFrame) and len(games) == 200
    assert set(games["winner"].dropna()) <= {0, 1}
    assert "Going first" in capsys.readouterr().out


def test_thinking_bots_example_explains_trains_and_ranks(monkeypatch):
    ns = run(blocks(PYTHON_DOC)[:4], monkeypatch)
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
    """A new example needs its own test above (what it claims, not only that it runs). The README
    has none: its Python moved to docs/python.md."""
    assert len(blocks(PYTHON_DOC)) == 4 and len(blocks(ENGINE_DOC)) == 1 and blocks(README) == []


def test_the_layer_picture_is_the_checked_one():
    """docs/development.md's picture of the layers lists the layers of the import-linter contract, in order."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    picture = DEVELOPMENT_DOC[DEVELOPMENT_DOC.index("## How the code is laid out"):]
    rows = re.findall(r"^\s{6,}([a-z]+(?:\s+\|\s+[a-z]+)*)\s{3,}\S", picture.split("```")[1], flags=re.M)
    assert [" | ".join(r.split()[::2]) for r in rows] == layers


def test_the_readme_is_read_in_two_minutes():
    """Under 120 lines: what it is, who it is for, the two commands, a picture, links."""
    lines = README.splitlines()
    assert len(lines) < 120, len(lines)
    assert "## Two commands" in README and "## Who it is for" in README
    assert re.search(r"!\[[^\]]+\]\(docs/img/[^)]+\.png\)", README), "the README shows a picture"


def test_every_link_and_path_in_the_readme_exists():
    """Each Markdown link, and each `docs/...`, `tests/...` or `cards/...` path the README names, is a file."""
    targets = set(re.findall(r"\]\(([^)#]+)\)", README))
    targets |= set(re.findall(r"`((?:docs|tests|cards|lessons|benchmarks|deploy)/[^`\s]+)`", README))
    assert len(targets) >= 8, targets
    for target in sorted(targets):
        assert (ROOT / target).exists(), f"the README names {target}, which is not there"


def readme_commands() -> list[list[str]]:
    """The commands of the README's bash blocks, one per line, comments dropped."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            words = shlex.split(line.split("#", 1)[0])
            if words:
                found.append(words)
    return found


def test_the_readmes_make_commands_are_targets_that_run_the_right_thing():
    """Every ``make X`` of the README is a target of the Makefile, and ``make -n`` (what make would
    run, without running it) shows the command the README's comment promises."""
    if shutil.which("make") is None:
        pytest.fail("make is needed for the README's commands: apt-get install -y make")
    commands = readme_commands()
    targets = [words[1] for words in commands if words[0] == "make"]
    assert targets[:2] == ["serve", "test"] and {"teacher", "lab", "test-fast"} <= set(targets), targets
    promised = {"serve": ".venv/bin/tokens-edu serve", "test": "-m pytest tests",
                "teacher": ".venv/bin/tokens-edu teacher", "lab": ".venv/bin/jupyter lab --notebook-dir=notebooks",
                "test-fast": '-m "not browser and not postgres and not hub and not slow"'}
    for target in targets:
        # -W pyproject.toml: as if the venv were out of date, so the install steps show too
        out = subprocess.run(["make", "--no-print-directory", "-n", "-W", "pyproject.toml", target], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, (target, out.stderr)
        assert promised[target] in out.stdout, (target, out.stdout)
        assert "pip install" in out.stdout, (target, out.stdout)  # it builds .venv if needed


def test_the_readmes_server_options_are_real():
    """``make serve SERVE_ARGS="--today 03"`` and ``tokens-edu serve --help``: the option is listed."""
    assert 'make serve SERVE_ARGS="--today 03"' in README
    out = subprocess.run([sys.executable, "-m", "tokens_edu.cli", "serve", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "--today" in out.stdout and "--class-size" in out.stdout
