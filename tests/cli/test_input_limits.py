"""Every input has a limit (issue 20): files are read up to a size, records up to a number of
moves, JSON up to a depth, each with a plain one-line error, and control characters from a file
are shown escaped on the teacher's terminal.

Before: ``check-scenario /dev/zero`` and ``teacher --password-file /dev/zero`` read until
MemoryError; a record of a million moves was accepted after 190 s and 486 MB; deeply nested JSON
gave a raw RecursionError in ReplayView; escape codes in a deck file reached the terminal raw.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tokens_edu import Game, starter_decks
from tokens_edu.content import inputs
from tokens_edu.errors import RecordError

ROOT = Path(__file__).resolve().parents[2]
ZERO = "/dev/zero"
# every POSIX system has it: the tests fail, not skip, where it is missing


#: Run first in every child process: at most 1 GiB of memory, so reading an endless file fails
#: the test with MemoryError instead of filling the (shared) machine.
LIMIT = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30)); "


def _cli(*args, timeout=120, **kw) -> subprocess.CompletedProcess:
    """``tokens-edu ARGS`` in a child process with at most 1 GiB of memory."""
    return subprocess.run([sys.executable, "-c", LIMIT + "import sys; from tokens_edu.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args],
                          capture_output=True, text=True, timeout=timeout, **kw)


def _one_plain_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text and "Error:" not in text, text
    return lines[0]


def test_check_scenario_of_an_endless_file_is_one_line():
    out = _cli("check-scenario", ZERO)
    assert out.returncode == 2, out.stderr[-2000:]
    line = _one_plain_line(out.stdout + out.stderr)
    assert "too big" in line and "256 KB" in line


def test_a_password_file_that_never_ends_is_one_line():
    out = _cli("teacher", "--password-file", ZERO, "--port", "1")
    assert out.returncode == 2
    assert "too big" in _one_plain_line(out.stderr)


def test_a_class_list_file_that_never_ends_is_one_line(tmp_path):
    out = _cli("roster", "add", "--file", ZERO, "--data-dir", str(tmp_path))
    assert out.returncode == 2
    assert "too big" in _one_plain_line(out.stderr)


def test_scenario_deck_and_record_readers_have_limits():
    program = LIMIT + """
from tokens_edu import Deck, Game
from tokens_edu.errors import DeckError, RecordError, ScenarioError
for read, error in ((Game.from_scenario, ScenarioError), (Deck.from_file, DeckError),
                    (Game.from_record, RecordError)):
    try:
        read("/dev/zero")
    except error as e:
        print(type(e).__name__, e)
"""
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == 3, out.stderr[-2000:]
    assert [line.split()[0] for line in lines] == ["ScenarioError", "DeckError", "RecordError"]
    assert all("too big" in line for line in lines)


def test_a_record_of_a_million_moves_is_refused_at_once():
    record = Game.new(*starter_decks()[:2], seed=1).to_record()
    record["actions"] = ["end turn"] * 1_000_000
    with pytest.raises(RecordError, match="at most 10,000"):  # before replaying any move
        Game.from_record(record)
    record["actions"] = ["end turn " + "x" * 10_000]
    with pytest.raises(RecordError, match="longer than 500 characters"):
        Game.from_record(record)


def test_deeply_nested_json_is_a_plain_record_error(tmp_path):
    from tokens_edu.game.replay import Replay
    from tokens_edu.widgets import ReplayView

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for make in (Game.from_record, ReplayView, Replay):
        with pytest.raises(RecordError, match="nested too deep"):
            make(str(deep))
    nested: dict = {}
    inner = nested
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(RecordError, match="nested too deep"):
        ReplayView(nested)
    not_json = tmp_path / "bad.json"
    not_json.write_text("{nope")
    with pytest.raises(RecordError, match="it is not JSON"):
        Game.from_record(not_json)
    # a real record still replays
    game = Game.new(*starter_decks()[:2], seed=2)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    good = tmp_path / "game.json"
    good.write_text(json.dumps(game.to_record()))
    assert Game.from_record(good).to_record() == game.to_record()


def test_json_depth_is_counted_without_parsing():
    assert inputs.json_depth('{"a": [1, {"b": "[[[[["}], "c": "]]"}') == 3
    assert inputs.json_depth("7") == 0
    with pytest.raises(inputs.InputTooLarge):
        inputs.loads_json("[" * 40 + "]" * 40, "game record")


def test_escape_codes_in_a_deck_file_reach_the_terminal_escaped(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("2x Chatbot\n1x \x1b]0;pwned\x07\x1b[2J\x1b[31mEvil\u202eCard\n", encoding="utf-8")
    out = _cli("simulate", str(deck), "Green-Blue", "-n", "2", "--no-progress")
    assert out.returncode == 2
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr and "\u202e" not in out.stderr
    assert "\\x1b[31mEvil\\u202eCard" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_printable_escapes_control_characters_only():
    assert inputs.printable("Ana Li\tÉlodie\n") == "Ana Li\tÉlodie\n"
    assert inputs.printable("a\x1b[2Jb\x00c\u202ed") == "a\\x1b[2Jb\\x00c\\u202ed"
    assert inputs.printable("a\rb", keep="\n\t\r") == "a\rb"
