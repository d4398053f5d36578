"""Issue 29.8, plain states, without a server (fast): one lesson server per data folder (a lock
with its process id; a lock left by a server that is gone is no obstacle), today's lesson ends
with its day (the file's, and one given at start), the first lines say which lesson is today's,
and a browser's secret counts only from its own computer where the server can tell.

The same on a real server (a second server refused in one line, the page's computer reaching its
kernel, HTTPS) is in ``test_serve_fair.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tokens_edu.errors import UsageProblem
from tokens_edu.server import state as st, today
from tokens_edu.server.lock import LOCK_NAME, ServerLock
from tokens_edu.server.watch import Watch

DAY = 24 * 3600


def test_a_second_server_on_one_data_folder_is_refused_naming_the_first(tmp_path):
    first = ServerLock(tmp_path)
    assert first.take(8866)
    assert (tmp_path / LOCK_NAME).read_text().split() == [str(os.getpid()), "8866"]
    with pytest.raises(UsageProblem) as e:
        ServerLock(tmp_path).take(8867)
    said = str(e.value)
    assert f"process {os.getpid()}, port 8866" in said and str(tmp_path) in said
    assert "--data-dir" in said and "\n" not in said
    first.release()
    again = ServerLock(tmp_path)
    assert again.take(8867)  # the first stopped: the next one starts
    again.release()


def test_a_lock_left_by_a_server_that_is_gone_is_taken_over(tmp_path):
    # a server killed hard (a power cut) leaves its file; the system let its lock go
    holder = subprocess.run(
        [sys.executable, "-c",
         "import sys; sys.path[:0] = [sys.argv[2]];"
         "from pathlib import Path; from tokens_edu.server.lock import ServerLock;"
         "ServerLock(Path(sys.argv[1])).take(9000); import os; os._exit(0)",
         str(tmp_path), os.getcwd()], capture_output=True, text=True, timeout=60)
    assert holder.returncode == 0, holder.stderr
    left = (tmp_path / LOCK_NAME).read_text().split()
    assert left[1] == "9000" and left[0] != str(os.getpid())
    lock = ServerLock(tmp_path)
    assert lock.take(8866)
    assert (tmp_path / LOCK_NAME).read_text().split() == [str(os.getpid()), "8866"]
    lock.release()


def test_todays_lesson_ends_with_its_day(tmp_path):
    today.write_today(tmp_path, "03-task-and-audit.ipynb")
    body = json.loads((tmp_path / today.FILE_NAME).read_text())
    assert body["day"] == today.local_day()
    assert today.read_today(tmp_path)[0] == "03-task-and-audit.ipynb"
    tomorrow = time.time() + DAY
    assert today.read_today(tmp_path, now=tomorrow) == (None, None)  # as if there were no file
    info = today.today_info(tmp_path, now=tomorrow)
    assert info["expired"] and info["was"] == "03-task-and-audit.ipynb" and info["lesson"] is None
    # a file written before lessons had a day: its set_at says when
    old = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 3 * DAY))
    (tmp_path / today.FILE_NAME).write_text(json.dumps({"lesson": "03-task-and-audit.ipynb",
                                                        "set_at": old}))
    assert today.read_today(tmp_path) == (None, None)


def test_the_first_lines_say_which_lesson_is_todays(tmp_path):
    names = ["00-start-here.ipynb", "03-task-and-audit.ipynb"]
    line = today.todays_line(None, tmp_path, names)
    assert line == "Today's lesson: none yet. Name it with: tokens-edu today 03."
    assert today.todays_line("03-task-and-audit.ipynb", tmp_path, names) == (
        "Today's lesson: 03-task-and-audit.ipynb (until midnight, or: tokens-edu today --clear).")
    today.write_today(tmp_path, "03-task-and-audit.ipynb")
    line = today.todays_line(None, tmp_path, names)
    assert line.startswith("Today's lesson: 03-task-and-audit.ipynb (named with tokens-edu today at ")
    yesterday = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - DAY))
    (tmp_path / today.FILE_NAME).write_text(json.dumps({"lesson": "03-task-and-audit.ipynb",
                                                        "set_at": yesterday,
                                                        "day": "2026-01-01"}))
    line = today.todays_line(None, tmp_path, names)
    assert line.startswith("Today's lesson: none yet (03-task-and-audit.ipynb was named on "
                           "2026-01-01: a day's lesson ends at its midnight).")


def test_a_server_running_past_midnight_lets_todays_lesson_go(tmp_path):
    import logging

    state = st.ServeState({"today": "02-b.ipynb", "today_folder": str(tmp_path),
                           "pages": {"02-b.ipynb": "lesson"}, "status_every": 0})
    assert state.demand.today == "02-b.ipynb" and state.today_day == today.local_day()
    watch = Watch(state)
    watch.today()
    assert state.demand.today == "02-b.ipynb"  # given with --today: no file needed
    state.today_day = "2026-01-01"  # the clock passed midnight
    said: list[str] = []
    catch = logging.Handler()
    catch.emit = lambda record: said.append(record.getMessage())
    server_log = logging.getLogger("tokens-edu")
    level = server_log.level
    server_log.addHandler(catch)
    server_log.setLevel(logging.INFO)
    try:
        watch.today()
    finally:
        server_log.removeHandler(catch)
        server_log.setLevel(level)
    assert state.demand.today is None
    assert any("ended at midnight" in line for line in said)
    # yesterday's file is not read back either (it counts as no file)
    (tmp_path / today.FILE_NAME).write_text(json.dumps({"lesson": "02-b.ipynb",
                                                        "day": "2026-01-01"}))
    watch.today()
    assert state.demand.today is None
    today.write_today(tmp_path, "02-b.ipynb")  # named again today
    watch.today_mtime = -1  # (the file's time may equal the last one's)
    watch.today()
    assert state.demand.today == "02-b.ipynb" and state.today_day == today.local_day()


def test_a_copied_browser_secret_counts_only_from_its_own_computer(monkeypatch, tmp_path):
    from tokens_edu.session import PageSession
    from tokens_edu.session.address import CLIENT_ENV
    from tokens_edu.session.browser import browser_hash

    secret = "b" * 32
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    url = f"sqlite:///{tmp_path / 'j.sqlite'}"

    def seen_from(address: str | None) -> str:
        if address is None:
            monkeypatch.delenv(CLIENT_ENV, raising=False)
        else:
            monkeypatch.setenv(CLIENT_ENV, address)
        session = PageSession("l1", url)
        assert session.set_browser(secret)
        return session.browser

    bo = seen_from("10.0.4.17")
    assert seen_from("10.0.4.17") == bo  # Bo's own computer, another page
    assert seen_from("10.0.4.99") != bo  # copied to another computer: not Bo's browser there
    assert seen_from(None) == browser_hash(secret)  # not under tokens-edu serve: as before
    assert seen_from("x\n10.0.4.17") == browser_hash(secret)  # not an address: unbound
    assert bo == browser_hash(secret, "10.0.4.17") != browser_hash(secret)


def test_the_kernel_status_hello_counts_a_browser_once(tmp_path):
    """The cap's key for a browser is made from its secret but is not what the answers keep."""
    from tokens_edu.session.browser import browser_hash

    secret = "c" * 30
    seat = st.seat_of(secret)
    assert seat is not None and len(seat) == 32 and seat not in browser_hash(secret)
    assert st.seat_of("short") is None and st.seat_of(None) is None
    assert st.seat_from_cookie(seat) == f"browser:{seat}"
    assert st.seat_from_cookie("nope") is None and st.seat_from_cookie(None) is None
    assert st.code_seat("student=x&code=kt4-pxm") == "code:KT4PXM"
    assert st.code_seat("student=x") is None
    state = st.ServeState({"student_tabs": 3})
    for k in range(4):
        state.pages[f"ana-{k}"] = st.Page("01.ipynb", "10.0.0.2", "browser:a")
    state.pages["bo"] = st.Page("01.ipynb", "10.0.0.3", None)
    assert state.students() == 3  # ana's 4 tabs: 2 (3 count once), bo 1
    assert state.students("browser:a", new=True) == 3  # a 5th tab of ana's: still 2 for ana
    assert state.students(None, new=True) == 4 and state.kernels() == 5
