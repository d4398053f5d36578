"""``tokens-edu check-scenario``: every problem of a scenario file, each at its line, in plain words.

The checker must agree with the engine: a scenario it passes is one ``Game.from_scenario``
builds, and one it refuses is one the engine refuses (checked on many generated variants of a
good scenario). Line numbers are checked against files where the line of each mistake is known.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokens_edu import Game, ScenarioError
from tokens_edu import cli
from tokens_edu.game.scenario_check import (Problem, _Checker, _Marks, _walk, check_scenario,
                                       check_scenario_text, describe)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "lessons" / "scenarios").glob("*.yaml"))

BROKEN = """\
title: Test
seed: 3
active: 0
turn: 5
players:
  - name: Ada
    tokens: 6
    hand: [Sensor, Nueral Network]
    deck: [Neuron, Embedding, Sensor, Bias in Data]
    training_set: {ready: 2, exerted: 0}
    systems:
      - {card: Neural Network, flags: 2, exerted: false, new: false}
      - {card: Python}
    tool:
      - Python
  - name: Computer
    tokens: 8
    tokens: 9
    hand: [Bias Audit]
    deck: [Accountability, Model Card, Bias Audit, Bias Audit]
    training_set: {ready: 2, exerted: 0}
    systems:
      - {card: Explainability, flags: 0, exerted: yes please, new: true}
"""


def lines_and_words(problems: list[Problem]) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in problems]


def test_every_lesson_scenario_is_good():
    assert SCENARIOS, "the lessons have scenario files"
    for path in SCENARIOS:
        assert check_scenario(path) == [], path.name


def test_every_problem_is_reported_at_its_line():
    got = lines_and_words(check_scenario_text(BROKEN, "t.yaml"))
    expected = [
        (8, "There is no card called 'Nueral Network'"),
        (12, "Neural Network has 2 Flags, but its Trust is 2"),
        (13, "Python is a Tool, not a System: list it under tools"),
        (14, "'tool' is not a key a player knows. Did you mean 'tools'?"),
        (18, "'tokens' is written twice here (also on line 17)"),
        (20, "Computer has 3 copies of Bias Audit"),
        (23, "exerted (sideways) must be true or false, not 'yes please'"),
        (23, "Only the cards of the player whose turn it is can be new"),
    ]
    assert len(got) == len(expected), got
    for (line, text), (want_line, want) in zip(got, expected):
        assert line == want_line and want in text, (line, text)
    # plain words: no Python names or rule numbers in what a teacher reads
    for _, text in got:
        assert "Error" not in text and "(R" not in text and "players[" not in text


def test_problem_text_names_file_and_line():
    p = Problem(9, "There is no card called 'X'.")
    assert p.text("puzzle.yaml") == "puzzle.yaml, line 9: There is no card called 'X'."
    assert Problem(0, "Empty.").text("a.yaml") == "a.yaml: Empty."


@pytest.mark.parametrize("text, line, words", [
    ("title: a\nplayers:\n\t- name: Ada\n", 3, "tab character"),
    ("title: a: b\n", 1, "colon"),
    ("title: x\nplayers: [a, b\n", 3, "not closed"),
    ("title: x\n  seed: 3\nturn: 1\n", 2, "colon"),
])
def test_yaml_mistakes_are_explained_at_their_line(text, line, words):
    problems = check_scenario_text(text)
    assert len(problems) == 1
    assert problems[0].line == line and words in problems[0].message


def test_empty_and_comment_only_files():
    assert "empty" in check_scenario_text("  \n")[0].message
    assert "only comments" in check_scenario_text("# nothing\n")[0].message
    assert "key: value" in check_scenario_text("- 1\n- 2\n")[0].message


def test_missing_players_and_wrong_count():
    assert "no 'players'" in check_scenario_text("title: x\nturn: 3\n")[0].message
    one = check_scenario_text("turn: 3\nplayers:\n  - name: Ada\n")
    assert one[0].line == 3 and "exactly two players" in one[0].message and "(it has 1)" in one[0].message


def test_same_names_and_bad_turn_order():
    text = ("active: 0\nturn: 4\nfirst_player: 0\nplayers:\n  - name: Ada\n  - name: Ada\n")
    got = lines_and_words(check_scenario_text(text))
    assert got[0][0] == 3 and "does not fit" in got[0][1]
    assert got[1][0] == 6 and "Both players are called 'Ada'" in got[1][1]


def test_engine_refusal_is_reported_at_the_entry_it_names(monkeypatch):
    """If the engine refuses something the checks let through, its words come out, at a line."""
    import tokens_edu.game.scenario_check as sc

    monkeypatch.setattr(sc._Checker, "run", lambda self: [])
    text = (ROOT / "lessons" / "scenarios" / "03-audit.yaml").read_text().replace(
        "{card: Neural Network, flags: 0", "{card: Neural Network, flags: 5")
    problems = check_scenario_text(text)
    assert len(problems) == 1
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "flags: 5" in t)
    assert problems[0].line == line and "Flags must stay below Trust" in problems[0].message
    assert "R15" not in problems[0].message


def test_describe_lists_the_moves():
    lines = describe(ROOT / "lessons" / "scenarios" / "03-audit.yaml", moves=True)
    assert any("Ada to play" in line for line in lines)
    assert "  audit Neural Network -> Explainability" in lines


# -- the checker agrees with the engine --------------------------------------------------------
BASE = yaml.safe_load((ROOT / "lessons" / "scenarios" / "03-audit.yaml").read_text())

_PATHS = [
    ("active",), ("turn",), ("seed",), ("title",), ("first_player",),
    ("players", 0, "tokens"), ("players", 1, "tokens"), ("players", 0, "name"),
    ("players", 0, "hand"), ("players", 0, "hand", 0), ("players", 1, "deck", 1),
    ("players", 0, "training_set"), ("players", 0, "training_set", "ready"),
    ("players", 0, "systems", 0, "card"), ("players", 0, "systems", 0, "flags"),
    ("players", 0, "systems", 0, "new"), ("players", 1, "systems", 0, "new"),
    ("players", 1, "systems", 0, "exerted"), ("players", 0, "tools"), ("players", 1, "discard"),
    ("players", 0, "trained_this_turn"), ("players", 0, "model_card_used"), ("players",),
    ("players", 0, "bogus"), ("bogus",), ("players", 1, "systems", 0, "bogus"),
]
_VALUES = st.sampled_from([
    0, 1, 2, 3, 5, 14, 15, -1, 99, True, False, None, "Neural Network", "Python", "Bias Audit",
    "Nueral Network", "Ada", "Computer", "", "x" * 50, 2.5, [], ["Python"], ["Sensor", "Sensor"],
    ["Bias Audit", "Bias Audit"], [{"card": "Python"}], [{"card": "Neural Network"}], ["Chatbot"],
    {"ready": 2, "exerted": 1}, {"ready": 70}, {"card": "Sensor"}, ["Neuron", "Neuron", "Neuron"],
])


def _set(data, path, value):
    node = data
    for part in path[:-1]:
        if isinstance(node, list):
            if not isinstance(part, int) or part >= len(node):
                return False
        elif not isinstance(node, dict):
            return False
        elif part not in node:
            node[part] = {} if isinstance(path[path.index(part) + 1], str) else []
            if isinstance(node[part], list):
                return False
        node = node[part]
    last = path[-1]
    if isinstance(node, list):
        if not isinstance(last, int) or last >= len(node):
            return False
    elif not isinstance(node, dict):
        return False
    node[last] = value
    return True


def _checks_only(text: str) -> list[Problem]:
    """The checker's own findings, without the engine's confirmation."""
    loader = yaml.SafeLoader(text)
    node = loader.get_single_node()
    data = loader.construct_document(node)
    loader.dispose()
    marks, problems = _Marks(), []
    _walk(node, (), marks, problems)
    return problems + _Checker(data, marks).run()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _VALUES), min_size=1, max_size=3))
@pytest.mark.slow
def test_checker_agrees_with_the_engine(changes):
    data = copy.deepcopy(BASE)
    for path, value in changes:
        _set(data, path, copy.deepcopy(value))
    text = yaml.safe_dump(data, sort_keys=False)
    try:
        Game.from_scenario(yaml.safe_load(text))
        engine_ok = True
    except ScenarioError:
        engine_ok = False
    own = _checks_only(text)
    assert (own == []) == engine_ok, (text, own)
    full = check_scenario_text(text)
    assert (full == []) == engine_ok
    for p in full:  # every problem points at a real line of the file
        assert 1 <= p.line <= len(text.splitlines()), (p, text)


# -- the command ---------------------------------------------------------------------------------
def test_command_exit_codes_and_output(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    good = ROOT / "lessons" / "scenarios" / "03-audit.yaml"
    assert cli.main(["check-scenario", str(good), "--moves"]) == 0
    out = capsys.readouterr().out
    assert "OK, no problems found" in out and "audit Neural Network -> Explainability" in out
    assert cli.main(["check-scenario", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}, line 8: There is no card called 'Nueral Network'." in out
    assert "8 problems found" in out
    assert cli.main(["check-scenario", str(tmp_path / "nope.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert cli.main(["check-scenario", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert cli.main(["check-scenario", "-q", str(binary), str(good)]) == 1
    out = capsys.readouterr().out
    assert "not a text file in UTF-8" in out and "OK" not in out


def test_console_script_runs_check_scenario(tmp_path):
    exe = Path(sys.executable).with_name("tokens-edu")
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN)
    out = subprocess.run([str(exe), "check-scenario", str(bad)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1 and "line 23" in out.stdout


# -- files made to hurt: refused at once with a line number, never a traceback or a hang -----------
@pytest.mark.parametrize("text, words", [
    ("a: &a [*a]\n", "Anchors and aliases"),
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deep"),
    ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
     + "".join(f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi")),
     "Anchors and aliases"),
])
def test_self_referring_deep_or_exploding_yaml_is_refused_plainly(tmp_path, text, words):
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    problems = check_scenario(path)
    assert len(problems) == 1 and words in problems[0].message and problems[0].line == 1
    with pytest.raises(ScenarioError, match=words):
        Game.from_scenario(str(path))
