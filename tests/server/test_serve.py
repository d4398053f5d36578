"""``tokens-edu serve`` holds up to a class and to a visitor's mischief (issues 8 and 20), over HTTP.

One real server (Voila with ``tokens_edu/server/``) on a tiny lessons folder serves the module: a page sets the ``_xsrf`` cookie its shutdown call needs and that call frees the kernel;
past ``--max-students`` a page says the class is full and the server stays up; two websockets
to ``/voila/query/<made-up id>`` cannot hang the next page; odd template paths and hidden
folders answer 404 with one short log line each; connection files of a dead server are removed
at start. A second server, whose answers folder is a read-only mount, shows lessons still work
and that the console says why once. Browser-side behaviour is in ``test_serve_browser.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
from serving import MARKER, Page, ROOT, Serve, free_port, tiny_lessons  # noqa: F401

pytestmark = pytest.mark.slow


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    lessons = tiny_lessons(tmp / "lessons")
    # this server's temp folder: its connection files (and kernel sockets) live under it, so
    # its path must stay short (a Unix socket's address holds about 100 characters)
    tmpdir = Path(tempfile.mkdtemp(prefix="te-", dir="/tmp"))
    uid = os.getuid() if hasattr(os, "getuid") else 0
    stale = tmpdir / f"tokens-edu-{uid}" / "voila_stale"
    stale.mkdir(parents=True)
    (stale / "server.pid").write_text(f"{_dead_pid()}\n")
    (stale / "kernel-0000.json").write_text("{}")
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        env.pop(var, None)
    srv = Serve(["--lessons", str(lessons), "--pool-size", "1", "--preheat-only", "tiny",
                 "--max-students", "3", "--data-dir", str(tmp / "data")], env)
    srv.stale = stale
    srv.conn_root = stale.parent
    try:
        srv.wait_warm()
        yield srv
    finally:
        srv.stop()
        shutil.rmtree(tmpdir, ignore_errors=True)


def _page_ok(page: Page, student: str) -> None:
    assert page.status == 200, page.html[-2000:]
    assert MARKER in page.html and f"student: {student}" in page.html
    assert "answers can be saved: True" in page.html


def test_start_line_says_how_many_students_and_stale_files_are_removed(server):
    assert re.search(r"Up to 3 students at once \(about \d+ MiB each", server.log)
    assert not server.stale.exists()  # the dead server's connection folder
    mine = [p for p in server.conn_root.glob("voila_*")]
    assert len(mine) == 1 and (mine[0] / "server.pid").read_text().strip()
    assert "without encryption" not in server.log and "not trusted" not in server.log
    assert "Traceback" not in server.log


def test_closing_a_page_frees_its_kernel(server):
    page = Page(server, "/voila/render/tiny.ipynb?student=ana", connect=True)
    _page_ok(page, "ana")
    assert any(c.name == "_xsrf" for c in page.jar)  # voila#1458: the page sets the cookie
    assert page.kernel_id in server.kernels()
    assert page.close() == 204
    deadline = time.monotonic() + 10
    while page.kernel_id in server.kernels() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert page.kernel_id not in server.kernels()


def test_past_the_cap_a_page_says_the_class_is_full_and_the_server_stays_up(server):
    pages = [Page(server, f"/voila/render/tiny.ipynb?student=s{k}", connect=True) for k in range(3)]
    try:
        for k, page in enumerate(pages):
            _page_ok(page, f"s{k}")
        full = Page(server, "/voila/render/tiny.ipynb?student=late")
        assert full.status == 503 and full.seconds < 10
        assert "The class is full right now: wait a minute and reload." in full.html
        assert full.kernel_id is None
        assert pages[0].close() == 204  # a student leaves: there is room again
        time.sleep(0.5)
        late = Page(server, "/voila/render/tiny.ipynb?student=late", connect=True)
        _page_ok(late, "late")
        pages.append(late)
        # A student moving on (Back, a link) asks for the new page a moment before the old
        # page's close frees its kernel: the new page waits for it, never "class is full".
        import threading

        leaving = pages[1]
        threading.Timer(1.0, leaving.close).start()
        moved = Page(server, "/voila/render/tiny.ipynb?student=s1", connect=True)
        _page_ok(moved, "s1")
        pages.append(moved)
    finally:
        for page in pages[2:]:
            page.close()
    assert server.proc.poll() is None
    assert "The class is full (3 students)" in server.log  # the teacher is told, once


def test_query_socket_mischief_does_not_hang_the_next_page(server):
    """Two websockets to /voila/query/<made-up id>, both closed: in Voila 0.5.13 the close
    removed the warm kernel's waiter and the next page never finished."""
    import websockets

    made_up = str(uuid.uuid4())
    ws_url = f"ws://127.0.0.1:{server.port}/voila/query/{made_up}"

    async def mischief():
        outcomes = []
        for _ in range(2):
            try:
                async with websockets.connect(ws_url, open_timeout=10) as ws:
                    await asyncio.wait_for(ws.recv(), 2)
                    outcomes.append("message")
            except Exception as e:  # refused or closed by the server: what we want
                outcomes.append(type(e).__name__)
        return outcomes

    outcomes = asyncio.run(mischief())
    assert "message" not in outcomes
    page = Page(server, "/voila/render/tiny.ipynb?student=zed", timeout=120)
    try:
        _page_ok(page, "zed")
        assert page.seconds < 60
    finally:
        page.close()


@pytest.mark.parametrize("path", [
    "/voila/templates/..%2f..%2fetc%2fpasswd",
    "/voila/templates/lab/static/..%2f..%2f..%2fetc%2fpasswd",
    "/voila/tree/scenarios",
    "/voila/api/contents/scenarios",
    "/voila/render/scenarios/hidden.ipynb",
    "/api/kernels/0b3c5a2e-7d41-4f0e-9a6c-2f1e8d5b4c39/channels",  # a made-up kernel id (fixed: pytest-xdist workers must collect the same ids)
    "/voila/render/x.ipynb%00.txt",  # was a 500 (Voila's redirect raised on the NUL)
    "/voila/render/%1b%5b2J.ipynb",
])
def test_odd_paths_are_a_404_with_one_short_log_line(server, path):
    before = len(server.out)
    try:
        with urllib.request.urlopen(server.url + path, timeout=30) as r:
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    assert status == 404
    time.sleep(0.5)
    new = server.out[before:]
    assert len([line for line in new if path.split("?")[0] in line]) == 1, new
    assert len(new) <= 2 and not any("Traceback" in line for line in new), new


def test_a_made_up_lesson_address_says_so_plainly_with_a_way_back(server):
    try:
        urllib.request.urlopen(server.url + "/voila/render/99-nope.ipynb?student=Ana", timeout=30)
        raise AssertionError("a made-up lesson was served")
    except urllib.error.HTTPError as e:
        body = e.read().decode()
        assert e.code == 404
    assert "There is no page at this address" in body and "Go to the lesson list</a>" in body


def test_logout_is_no_error(server):
    """GET /logout answered 500 (Voila's logout page needs a setting it lacks). There is no
    login on the lesson server: it goes to the lesson list."""
    before = len(server.out)
    req = urllib.request.Request(server.url + "/logout")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=30) as r:
            status, where = r.status, r.headers.get("Location")
    except urllib.error.HTTPError as e:
        status, where = e.code, e.headers.get("Location")
    assert status == 302 and where == "/"
    time.sleep(0.5)
    assert not any("Traceback" in line or "500" in line for line in server.out[before:])


def test_widgets_carry_no_python_text_and_the_page_can_tell_its_kernel_is_gone(server):
    """A page whose kernel is gone showed its widgets' Python text (``Button(description=...``);
    widget outputs no longer carry it, and the page's guard asks the server whether its kernel
    still runs (the browser side is in test_serve_browser.py)."""
    page = Page(server, "/voila/render/tiny.ipynb?student=gus", connect=True)
    try:
        _page_ok(page, "gus")
        assert "application/vnd.jupyter.widget-view+json" in page.html
        # a widget's Python text, e.g. Button(description='Start', ...) (not the guard's own
        # reloadButton() function)
        assert not re.search(r"\bButton\(|ButtonStyle", page.html)
        assert "tokens-page-gone" in page.html and "/voila/api/kernel-status/" in page.html
        status = f"{server.url}/voila/api/kernel-status/{page.kernel_id}"
        with urllib.request.urlopen(status, timeout=30) as r:
            assert json.loads(r.read()) == {"state": "running", "connected": True}  # this page reached it
    finally:
        page.close()
    deadline = time.monotonic() + 10
    while page.kernel_id in server.kernels() and time.monotonic() < deadline:
        time.sleep(0.2)
    with urllib.request.urlopen(status, timeout=30) as r:
        assert json.loads(r.read()) == {"state": "gone", "connected": False}


def test_template_and_theme_in_the_address_are_ignored(server):
    page = Page(server, "/voila/render/tiny.ipynb?student=tia&template=../../etc&theme=x")
    try:
        _page_ok(page, "tia")
    finally:
        page.close()


def test_lesson_list_hides_the_scenarios_folder(server):
    with urllib.request.urlopen(server.url + "/voila/api/contents/", timeout=30) as r:
        names = [item["name"] for item in json.loads(r.read())["content"]]
    assert "tiny.ipynb" in names and "scenarios" not in names


def test_lesson_list_asks_nothing_from_another_computer(server):
    """Voila's lesson list linked Font Awesome from a CDN (newcomer review): offline schools."""
    with urllib.request.urlopen(server.url + "/", timeout=30) as r:
        html = r.read().decode()
    assert "voila-tree-main" in html  # the list page itself (its list is drawn by its script)
    assert not re.search(r'(?:href|src)\s*=\s*"(?:https?:)?//', html), html[:2000]


def _unshare() -> list[str] | None:
    tool = shutil.which("unshare")
    if tool is None:
        return None
    ok = subprocess.run([tool, "-rm", "true"], capture_output=True).returncode == 0
    return [tool, "-rm"] if ok else None


def test_read_only_answers_folder_keeps_lessons_working(tmp_path):
    """The answers folder is a read-only mount (a private mount namespace of this server):
    lessons still open and play, the journal says answers cannot be saved, and the console
    says why once, with the folder's path."""
    wrapper = _unshare()
    if wrapper is None:  # util-linux's unshare, and user namespaces allowed (a container may forbid them)
        pytest.fail("unshare -rm (a private mount namespace, util-linux) is not available here: the read-only "
                    "folder test needs it", pytrace=False)
    lessons = tiny_lessons(tmp_path / "lessons")
    data = tmp_path / "data"
    data.mkdir()
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"')
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        env.pop(var, None)
    srv = Serve(["--lessons", str(lessons), "--pool-size", "1", "--preheat-only", "tiny",
                 "--data-dir", str(data)], env,
                wrapper=wrapper + ["sh", "-c", script, "sh", str(data)])
    try:
        srv.wait_warm()
        page = Page(srv, "/voila/render/tiny.ipynb?student=ana")
        assert page.status == 200 and MARKER in page.html and "student: ana" in page.html
        assert "answers can be saved: False" in page.html  # the journal knows, the page works
        second = Page(srv, "/voila/render/tiny.ipynb?student=bo")
        assert second.status == 200 and "student: bo" in second.html
        said = [line for line in srv.out if line.startswith("Answers cannot be saved")]
        assert said == [f"Answers cannot be saved: the folder {data} is read-only. Lessons still "
                        "open and play, and students are told that saving does not work right "
                        "now. Free some space or fix the folder's permissions; no restart is "
                        "needed."]
        assert "Traceback" not in srv.log
    finally:
        srv.stop()
