"""docs/scenarios.md stays true: its example puzzle, its checker output and its code all work."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

from tokens_edu.game.scenario_check import check_scenario

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
EXAMPLES = ROOT / "docs" / "examples"


def blocks(lang: str) -> list[str]:
    """The fenced code blocks of the page in ``lang`` ("" for plain ones), indentation removed."""
    out, body, fence_lang = [], None, None
    for line in DOC.splitlines(keepends=True):
        stripped = line.strip()
        if body is None and stripped.startswith("```"):
            body, fence_lang = [], stripped[3:]
        elif body is not None and stripped == "```":
            if fence_lang == lang:
                out.append(textwrap.dedent("".join(body)))
            body = None
        elif body is not None:
            body.append(line)
    return out


def test_the_example_in_the_text_is_the_example_file():
    shown = blocks("yaml")[0]
    assert shown == (EXAMPLES / "stop-the-win.yaml").read_text(encoding="utf-8")
    assert check_scenario(EXAMPLES / "stop-the-win.yaml") == []


def test_the_mistakes_shown_are_what_the_command_prints():
    shown = next(b for b in blocks("") if "4 problems found" in b)
    exe = Path(sys.executable).with_name("tokens-edu")
    out = subprocess.run([str(exe), "check-scenario", "puzzle-with-mistakes.yaml"], cwd=EXAMPLES,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert out.stdout == shown


def test_the_best_move_code_finds_the_audits(tmp_path, capsys):
    code = next(b for b in blocks("python") if "GreedyBot" in b)
    scenarios = tmp_path / "lessons" / "scenarios"
    scenarios.mkdir(parents=True)
    shutil.copy(EXAMPLES / "stop-the-win.yaml", scenarios / "stop-the-win.yaml")
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, "docs/scenarios.md", "exec"), {})
    finally:
        os.chdir(here)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    below = [line.split("Tokens")[0].strip() for line in lines
             if int(re.search(r", (\d+)\)$", line).group(1)) < 15]
    assert sorted(below) == ["audit Neural Network -> Large Language Model",
                             "audit Supervised Learning -> Large Language Model"]
    # and the file says so for teachers
    desc = yaml.safe_load((EXAMPLES / "stop-the-win.yaml").read_text())["description"]
    assert "audit" in desc


def test_the_lesson_cells_run_from_a_lessons_folder(tmp_path, monkeypatch):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    shutil.copy(EXAMPLES / "stop-the-win.yaml", scenarios / "stop-the-win.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    cells = [b for b in blocks("python") if "GameView" in b or "DiscussBox" in b]
    assert len(cells) == 2
    env: dict = {}
    for cell in cells:
        exec(compile(cell, "docs/scenarios.md", "exec"), env)
    view = env["GameView"](env["Game"].from_scenario("scenarios/stop-the-win.yaml"),
                           seats=("human", "greedy"), journal=env["journal"])
    assert view.game.title == "Stop the win"
    assert view.game.to_act == 0


def test_the_good_output_shown_is_what_the_command_prints(tmp_path):
    shown = next(b for b in blocks("") if "OK, no problems found" in b)
    scenarios = tmp_path / "lessons" / "scenarios"
    scenarios.mkdir(parents=True)
    shutil.copy(EXAMPLES / "stop-the-win.yaml", scenarios / "stop-the-win.yaml")
    exe = Path(sys.executable).with_name("tokens-edu")
    out = subprocess.run([str(exe), "check-scenario", "lessons/scenarios/stop-the-win.yaml", "--moves"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    real = out.stdout.splitlines()
    for line in shown.splitlines():
        if line.strip() != "...":
            assert line in real, line
