"""The compiled engine core and its pure-Python source (issue 22): which one runs, that a
compiled module never runs against a newer source, and that both play the same games.

`make test` runs this file twice: compiled, then with TOKENS_EDU_PURE_PYTHON=1.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tokens_edu
import tokens_edu.engine
from tokens_edu import _compiled

ROOT = Path(__file__).resolve().parents[2]
EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
PURE = _compiled.pure_requested()
RECORD = _compiled.read_record()
BUILT = bool(RECORD and RECORD.get("compiled"))
CURRENT = BUILT and _compiled.problem(RECORD)[0] is None  # built from today's sources


def _can_compile() -> bool:
    """A C compiler and Python's headers are here (then the install must have compiled)."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return headers.is_file() and any(shutil.which(cc) for cc in ("gcc", "cc", "clang"))


def _run(code: str, pure: bool, cwd: Path = ROOT, path: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != _compiled.PURE_ENV}
    if pure:
        env[_compiled.PURE_ENV] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)


def test_compiled_says_which_engine_runs():
    assert tokens_edu.engine.COMPILED is _compiled.COMPILED
    for name in _compiled.MODULES:
        module = importlib.import_module(name)  # (packages load their modules lazily)
        assert str(module.__file__).endswith(EXTENSIONS) is tokens_edu.engine.COMPILED, module.__file__
    line = _compiled.describe()
    assert line.startswith("engine: compiled with mypyc" if tokens_edu.engine.COMPILED else "engine: pure Python, because")


def test_the_environment_variable_gives_the_pure_source():
    if PURE:
        assert not tokens_edu.engine.COMPILED
        assert _compiled.REASON == "TOKENS_EDU_PURE_PYTHON is set"
    out = _run("import tokens_edu.engine as e, tokens_edu.engine.state as s; print(e.COMPILED, s.__file__)", pure=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", str(ROOT / "tokens_edu" / "engine" / "state.py")]


def test_an_install_with_a_compiler_runs_compiled():
    """Where a C compiler and Python's headers are, the install compiled the engine (mypy is
    a build requirement) and, unless asked otherwise, the compiled modules run."""
    if not _can_compile():
        assert not BUILT or RECORD.get("python") == sys.implementation.cache_tag
        return  # nothing to compile with here: the install is pure Python, as the record says
    assert BUILT, f"the engine was not compiled: {RECORD}"
    assert set(RECORD["modules"]) == set(_compiled.MODULES)
    assert tokens_edu.engine.COMPILED is (not PURE)


def test_a_build_older_than_its_source_is_refused_and_says_how_to_rebuild():
    digests = _compiled.source_digests()
    record = {"format": 1, "compiled": True, "mypy": "2.4.1", "python": sys.implementation.cache_tag,
              "modules": dict(digests)}
    record["modules"]["tokens_edu.engine.rules"] = "0" * 64
    reason, stale = _compiled.problem(record, digests)
    assert stale and "tokens_edu/engine/rules.py changed" in reason and "make build" in reason
    reason, stale = _compiled.problem({**record, "python": "cpython-39"}, digests)
    assert stale and "cpython-39" in reason
    reason, stale = _compiled.problem({**record, "modules": {"tokens_edu.engine.state": "x"}}, digests)
    assert stale and "list of compiled modules changed" in reason
    reason, stale = _compiled.problem(None, digests)
    assert not stale and "not compiled" in reason
    reason, stale = _compiled.problem({"compiled": False, "reason": "there was no working C compiler"}, digests)
    assert not stale and reason == "there was no working C compiler"


def test_a_changed_source_runs_pure_with_a_warning(tmp_path):
    """A copy of the package whose rules.py changed after the build: the import checks the
    build record, runs the pure source and warns how to rebuild. The unchanged copy runs
    compiled (when this install is)."""
    for name in ("tokens_edu", "cards"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "_bundle"))
    code = "import tokens_edu.engine as e, tokens_edu.engine.rules as r; print(e.COMPILED, r.__file__)"
    same = _run(code, pure=False, cwd=tmp_path, path=tmp_path)
    assert same.returncode == 0, same.stderr
    assert same.stdout.split()[0] == str(CURRENT)
    rules = tmp_path / "tokens_edu" / "engine" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8")
    changed = _run(code, pure=False, cwd=tmp_path, path=tmp_path)
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.split() == ["False", str(rules)]
    if CURRENT:
        assert "older than its source" in changed.stderr and "make build" in changed.stderr


_GAMES = """
import hashlib, json
from tokens_edu import Game, starter_decks, simulate
from tokens_edu.bots import GreedyBot, RandomBot
decks = starter_decks()
out = []
for i in range(12):
    g = Game.new(decks[i % 10], decks[(3 * i + 1) % 10], seed=i, turn_limit=40)
    bots = (GreedyBot(), RandomBot(seed=i)) if i % 2 else (RandomBot(seed=i), GreedyBot())
    while not g.over:
        g.push(bots[g.to_act].choose_move(g))
    out.append([g.winner, g.turn, list(g.tokens), list(g.history), [e.text for e in g.log]])
table = simulate(decks[0], decks[7], 30, bots=("greedy", "random"), seed=5, processes=1, progress=False)
print(json.dumps({"games": out, "table": table.to_csv()}))
"""


def test_compiled_and_pure_play_the_same_games():
    """Seeded games (histories, logs) and a seeded simulate table, both ways, in fresh processes."""
    compiled = _run(_GAMES, pure=False)
    pure = _run(_GAMES, pure=True)
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    a, b = json.loads(compiled.stdout), json.loads(pure.stdout)
    assert a["games"] == b["games"]
    assert a["table"] == b["table"]
    assert len(a["games"]) == 12 and all(len(g[3]) > 10 for g in a["games"])
