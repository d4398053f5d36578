"""Issue 26.3, second half: the lesson server's settings are traitlets ``Configurable`` settings
(``tokens_edu/server/settings.py``), typed, with defaults and help, printed by
``tokens-edu serve --help-all``; nothing reads them as a dict's text with ``int(...)`` any more.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest

from tokens_edu import cli
from tokens_edu.server import launcher, state as st
from tokens_edu.server.settings import ServeSettings, defaults, parse_setting, settings_help

SERVER = Path(launcher.__file__).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_settings_are_typed_with_defaults_and_help():
    names = ServeSettings.class_trait_names(config=True)
    assert {"max_students", "student_tabs", "hello_timeout", "busy_share", "certfile", "pools"} <= set(names)
    for name in names:
        trait = ServeSettings.class_traits()[name]
        assert trait.help and len(trait.help) > 20, name  # every one says what it is
    settings = ServeSettings.of({"max_students": 6, "page_timeout": 30})
    assert settings.max_students == 6 and settings.page_timeout == 30.0
    assert settings["max_students"] == 6 and settings.get("nope", 1) == 1
    assert st.DEFAULTS == defaults() and st.DEFAULTS["class_size"] == 30
    for bad, words in (({"max_students": "6"}, "max_students"), ({"max_students": -1}, "max_students"),
                       ({"busy_share": "lots"}, "busy_share"), ({"nope": 1}, "Unknown server setting")):
        with pytest.raises(ValueError, match=words):
            ServeSettings.of(bad)
    with pytest.raises(ValueError):
        st.ServeState({"class_size": 0})  # a class has at least one student


def test_the_server_reads_typed_settings_not_text():
    """The JSON dict was read with int(...)/float(...) in about 25 places; now every part reads
    the typed settings' attributes."""
    found = []
    for path in sorted(SERVER.glob("*.py")):
        if path.name == "settings.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r'settings\[\s*"|(?:int|float)\(\s*(?:state\.|self\.)?settings[.\[]|state\.settings\.get\(', line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert found == []


def test_help_all_prints_every_setting(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["serve", "--help-all"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--certfile" in out and "Server settings" in out  # the options, then the settings
    for name in ServeSettings.class_trait_names(config=True):
        trait = ServeSettings.class_traits()[name]
        assert f"--setting {name}=<{type(trait).__name__}>" in out, name
    assert "--setting max_students=<Int>" in out and "Default: 0" in out
    assert "Default: 0.2" in settings_help()


def test_a_setting_given_on_the_command_line_is_checked_in_one_line(tmp_path, capsys):
    assert parse_setting("status_every=30") == ("status_every", 30)
    assert parse_setting("ServeSettings.hidden=[\"a\", \"b\"]") == ("hidden", ["a", "b"])
    assert parse_setting("today=03-lesson.ipynb") == ("today", "03-lesson.ipynb")
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for text, words in (("status_every=soon", "status_every"), ("nope=1", "Unknown server setting"),
                        ("status_every", "NAME=VALUE")):
        code = cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()),
                         "--data-dir", str(tmp_path / "data"), "--setting", text])
        err = capsys.readouterr().err
        assert code == 2 and words in err and err.count("\n") == 1, err
    cmd = launcher.voila_command(lessons, 8866, extra={"status_every": 30, "cold_starts": 3})
    sent = json.loads(cmd[3])
    assert sent["status_every"] == 30 and sent["cold_starts"] == 3
    assert ServeSettings.of(sent).cold_starts == 3  # what the Voila side makes of it
    with pytest.raises(ValueError, match="cold_starts"):
        launcher.voila_command(lessons, 8866, extra={"cold_starts": 0})
