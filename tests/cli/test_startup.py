"""Imports that cost only what is used (issue 26 part 4, issue 31 part 2): ``import tokens_edu``
and ``tokens-edu --help`` load none of pandas, SQLAlchemy, Tornado or ipywidgets; each command
loads its own needs; Ctrl-C while a command starts prints one line. ``benchmarks/startup.py``
prints the CPU time these take; here only what is imported is checked (no timed asserts).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

#: Libraries a lesson kernel or a command must not pay for unless it uses them.
HEAVY = ("pandas", "numpy", "sqlalchemy", "tornado", "ipywidgets", "matplotlib", "voila", "jupyter_server",
         "alembic", "anywidget", "traitlets", "asyncio")


def _modules_after(code: str) -> set[str]:
    """The modules loaded in a fresh Python after running ``code`` (which may raise SystemExit)."""
    probe = (f"import sys, json\ntry:\n    exec({code!r})\nexcept SystemExit:\n    pass\n"
             "sys.stdout = sys.__stdout__\nprint(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={**os.environ, "COLUMNS": "100"})
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(h for h in HEAVY if h in modules)


def test_import_tokens_edu_loads_no_heavy_library_and_no_game():
    loaded = _modules_after("import tokens_edu")
    assert _heavy(loaded) == []
    ours = sorted(m for m in loaded if m.startswith("tokens_edu"))
    # With the compiled engine, _compiled.activate() loads the compiled group's shared library
    # (tokens_edu._core__mypyc) to check that it works; it runs no game module's code.
    expected = ["tokens_edu", "tokens_edu._compiled", "tokens_edu._moved", "tokens_edu.errors"]
    import tokens_edu._compiled as compiled

    if compiled.activate():
        expected = sorted([*expected, compiled.GROUP + "__mypyc"])
    assert ours == expected
    assert not any(m in loaded for m in compiled.MODULES), "import tokens_edu ran the game's modules"


def test_every_public_name_is_still_there_and_loads_when_read():
    import importlib

    import tokens_edu

    for name in tokens_edu.__all__:
        value = getattr(tokens_edu, name)
        if name in tokens_edu._LAZY:  # the very object of the module it comes from
            module = importlib.import_module(f"tokens_edu.{tokens_edu._LAZY[name]}")
            assert value is getattr(module, name), name
    assert set(tokens_edu._LAZY) <= set(tokens_edu.__all__)
    assert "Game" in dir(tokens_edu) and "simulate" in dir(tokens_edu)
    with pytest.raises(AttributeError):
        tokens_edu.no_such_name  # noqa: B018


def test_from_import_of_a_public_name_loads_only_its_module():
    loaded = _modules_after("from tokens_edu import Game")
    assert "tokens_edu.game.game" in loaded
    assert _heavy(loaded) == []
    assert "tokens_edu.lab.simulation" not in loaded and "tokens_edu.store" not in loaded


@pytest.mark.parametrize("argv", [["--help"], ["--version"], []], ids=["help", "version", "nothing"])
def test_tokens_edu_help_loads_no_command(argv):
    loaded = _modules_after(f"from tokens_edu.cli import main; main({argv!r})")
    assert _heavy(loaded) == []
    commands = {m for m in loaded if m.startswith("tokens_edu.cli.")} - {"tokens_edu.cli.common"}
    assert commands == set()
    assert not any(m.startswith(("tokens_edu.store", "tokens_edu.server", "tokens_edu.teacher", "tokens_edu.game"))
                   for m in loaded)


def test_simulate_loads_the_engine_but_no_pandas_store_or_server(tmp_path):
    loaded = _modules_after("from tokens_edu.cli import main; "
                            f"main(['simulate', 'Green-Blue', 'Black-Red', '-n', '2', '--csv', {str(tmp_path / 'g.csv')!r}])")
    assert "tokens_edu.engine.flow" in loaded and "tokens_edu.lab.simulation" in loaded
    assert _heavy(loaded) == []
    assert not any(m.startswith(("tokens_edu.store", "tokens_edu.server", "tokens_edu.teacher", "tokens_edu.widgets"))
                   for m in loaded)
    assert (tmp_path / "g.csv").read_text().startswith("game,seed,deck0,deck1")


def test_simulate_in_one_process_loads_only_what_it_plays_with():
    """Issue 31 part 2: one game in this process needs the engine, GreedyBot and the table's
    sums; not the other bots, matches, tournaments or training, nor the process
    pool (loaded only when other processes play)."""
    loaded = _modules_after("from tokens_edu.cli import main; "
                            "main(['simulate', 'Green-Blue', 'Black-Red', '-n', '1', '--no-progress'])")
    assert {"tokens_edu.players.bots", "tokens_edu.lab.simulation"} <= loaded
    unused = {"tokens_edu.players.search", "tokens_edu.players.learning", "tokens_edu.players.match",
              "tokens_edu.lab.tournaments", "tokens_edu.lab.training", "tokens_edu.game.replay",
              "concurrent.futures.process", "multiprocessing", "importlib.abc"}
    assert sorted(unused & loaded) == []


def test_a_package_s_names_load_their_module_when_read():
    """``tokens_edu.players``, ``.lab``, ``.game`` and ``.content`` name their modules' public
    names lazily (``tokens_edu/_lazy.py``): each name is its module's own object, and a
    submodule read as an attribute loads too."""
    import importlib

    for package in ("tokens_edu.players", "tokens_edu.lab", "tokens_edu.game", "tokens_edu.content"):
        pkg = importlib.import_module(package)
        assert set(pkg._LAZY) == set(pkg.__all__), package
        for name, module in pkg._LAZY.items():
            assert getattr(pkg, name) is getattr(importlib.import_module(f"{package}.{module}"), name)
        assert set(pkg.__all__) <= set(dir(pkg))
        with pytest.raises(AttributeError):
            getattr(pkg, "no_such_name")
    loaded = _modules_after("import tokens_edu.players as p; p.search.SearchBot")
    assert "tokens_edu.players.search" in loaded


def test_a_command_s_help_loads_only_that_command():
    loaded = _modules_after("from tokens_edu.cli import main; main(['simulate', '--help'])")
    assert "tokens_edu.cli.simulate" in loaded
    assert not {"tokens_edu.cli.serve", "tokens_edu.cli.teacher", "tokens_edu.cli.export"} & loaded


def test_the_help_lines_are_each_command_s_own():
    """``tokens-edu --help`` lists the commands from a table (their modules are not imported):
    each line is the one the command's own parser gives."""
    import argparse

    from tokens_edu.cli import COMMAND_HELP, build_parser

    full = build_parser()
    sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    own = {choice.dest: choice.help for choice in sub._choices_actions}
    assert own == {name: line for name, (_, line) in COMMAND_HELP.items()}


def test_old_names_of_the_cli_module_still_work_with_a_warning():
    import tokens_edu.cli as cli
    from tokens_edu.server import launcher

    with pytest.warns(DeprecationWarning, match=r"tokens_edu\.cli\.voila_command has moved.*0\.4\.0"):
        assert cli.voila_command is launcher.voila_command
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        assert cli.DEFAULT_PORT == launcher.DEFAULT_PORT
    assert {m.__name__.rsplit(".", 1)[1] for m in cli.COMMANDS} == {m for m, _ in cli.COMMAND_HELP.values()}


def test_simulate_csv_is_the_table_s_own_csv(tmp_path):
    """The command writes its CSV without pandas: the same text as simulate(...).to_csv()."""
    from tokens_edu import simulate
    from tokens_edu.cli import main

    path = tmp_path / "games.csv"
    assert main(["simulate", "Green-Blue", "Black-Red", "-n", "30", "--turn-limit", "14", "--seed", "3",
                 "--processes", "1", "--no-progress", "--csv", str(path)]) == 0
    table = simulate("Green-Blue", "Black-Red", 30, seed=3, processes=1, turn_limit=14, progress=False)
    assert table["winner"].isna().any() and table["winner"].notna().any()  # draws and wins both written
    assert path.read_text(encoding="utf-8") == table.to_csv(index=False)


def test_simulate_summary_is_the_table_s_summary(capsys):
    from tokens_edu import simulate
    from tokens_edu.cli import main
    from tokens_edu.lab.stats import summary

    assert main(["simulate", "Black-Red", "White-Red", "-n", "25", "--turn-limit", "16", "--processes", "1",
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out.splitlines()
    table = simulate("Black-Red", "White-Red", 25, processes=1, turn_limit=16, progress=False)
    assert printed == [f"{what:<38} {result}" for what, result in summary(table).itertuples(index=False)]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is a POSIX thing")
@pytest.mark.parametrize("after", [0.0, 0.05, 0.2, 0.6])
def test_ctrl_c_while_a_command_starts_prints_one_line(after):
    """Ctrl-C at any moment of ``tokens-edu simulate`` once ``main`` runs (its command's imports,
    the decks, the games): one line, no traceback. (Before ``main``, Python itself starts and
    imports the few small modules of ``tokens_edu/__init__.py`` and ``tokens_edu/cli``.)"""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from tokens_edu.cli import main; "
                             "print('ready', flush=True); sys.exit(main())",
                             "simulate", "Green-Blue", "Black-Red", "-n", "200000", "--processes", "1",
                             "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "ready\n"
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert "Traceback" not in out + err
    assert lines == ["Stopped."], lines
    assert proc.returncode == 0
