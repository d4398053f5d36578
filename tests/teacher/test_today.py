"""The dashboard's "Today's lesson" control writes the lesson server's own file
(tokens_edu.server.today, landed on main): what the dashboard sets, the server reads."""

from __future__ import annotations

from tokens_edu.cli.teacher import TodayFile
from tokens_edu.content.bundle import lessons_dir
from tokens_edu.server import today


def test_todays_lesson_set_on_the_dashboard_is_the_servers(tmp_path):
    t = TodayFile(tmp_path, lessons_dir())
    names = [value for value, _ in t.options()]
    assert "01-read-a-card.ipynb" in names and not any(n.startswith("00-") for n in names)
    assert t.current() is None
    t.set("03-task-and-audit.ipynb")
    assert today.read_today(tmp_path)[0] == "03-task-and-audit.ipynb" == t.current()
    t.set(None)
    assert t.current() is None and today.read_today(tmp_path)[0] is None
