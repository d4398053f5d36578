"""Issue 29, parts 2 and 5, on a real ``tokens-edu serve``: fair shares of the class cap for pages
that connect, and a teacher's console no page can write to.

Computers are told apart by their address: on Linux every 127.x.y.z address reaches this
computer, so a test "computer" is a client socket bound to its own loopback address
(127.0.0.2, 127.0.0.3...).

* The cap counts students, not tabs: one browser's three tabs (its secret told by each page's
  first script, then a cookie) count as one student, and a classmate still gets in.
* Each computer's share: a script on one computer holding pages (each saying hello, with
  made-up secrets) gives its oldest back when a classmate on another computer asks; a page
  whose hello was never followed by a connection gives its kernel back within a minute.
* What a page sends (a refused message type full of escape codes and fake ``[tokens-edu]``
  lines, 300 times) gives at most one plain line on the console.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from serving import MARKER, Serve, free_port, tiny_lessons

pytestmark = pytest.mark.slow

CAP = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fair")
    lessons = tiny_lessons(tmp / "lessons")
    tmpdir = Path(tempfile.mkdtemp(prefix="tf-", dir="/tmp"))
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        env.pop(var, None)
    who = nbformat.v4.new_notebook()  # a lesson that shows which computer its kernel was told
    who.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                  "language": "python"}
    who.cells = [nbformat.v4.new_code_cell(
        "from tokens_edu.session.address import client_address\n"
        "print(f'computer=[{client_address()}]')")]
    nbformat.write(who, lessons / "who.ipynb")
    srv = Serve(["--lessons", str(lessons), "--pool-size", "1", "--preheat-only", "tiny",
                 "--max-students", str(CAP), "--data-dir", str(tmp / "data")], env)
    srv.data, srv.lessons, srv.env = tmp / "data", lessons, env
    try:
        srv.wait_warm()
        yield srv
    finally:
        srv.stop()
        shutil.rmtree(tmpdir, ignore_errors=True)


def _secret() -> str:
    return secrets.token_urlsafe(24)


class Tab:
    """One lesson page asked for from the computer at ``source`` (a loopback address), with the
    cookies a browser would send; ``hello()`` is what its first script sends, ``connect()`` its
    widgets' websocket."""

    def __init__(self, server: Serve, source: str, cookies: dict | None = None,
                 path: str = "/voila/render/tiny.ipynb?student=x"):
        self.server, self.source = server, source
        self.cookies = dict(cookies or {})
        self.status, self.html, got = self._request("GET", path)
        self.cookies.update(got)
        m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', self.html)
        self.kernel_id = m.group(1) if m else None
        self.stop = threading.Event()
        self.up = threading.Event()

    def _request(self, method: str, path: str, body: bytes | None = None,
                 headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=90,
                                          source_address=(self.source, 0))
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            got = {}
            for line in r.msg.get_all("Set-Cookie") or []:
                name, _, rest = line.partition("=")
                got[name.strip()] = rest.split(";", 1)[0]
            return r.status, text, got
        finally:
            conn.close()

    def hello(self, secret: str | None) -> dict:
        headers = {"X-Tokens-Browser": secret} if secret else {}
        status, text, got = self._request(
            "GET", f"/voila/api/kernel-status/{self.kernel_id}?hello=1", headers=headers)
        assert status == 200, text
        self.cookies.update(got)
        return got

    def connect(self) -> None:
        threading.Thread(target=self._hold, daemon=True).start()
        assert self.up.wait(30), "the kernel's websocket did not open"

    def _hold(self) -> None:
        import websockets.sync.client as wsc

        url = (f"ws://127.0.0.1:{self.server.port}/api/kernels/{self.kernel_id}/channels"
               "?session_id=test")
        try:
            with wsc.connect(url, open_timeout=20, source_address=(self.source, 0)) as ws:
                self.up.set()
                while not self.stop.is_set():
                    try:
                        ws.recv(timeout=0.3)
                    except TimeoutError:
                        continue
        except Exception:  # noqa: BLE001 - the kernel was stopped: the socket closes
            self.up.set()

    def close(self) -> None:
        self.stop.set()
        if self.kernel_id:
            body = f"_xsrf={self.cookies.get('_xsrf', '')}".encode()
            self._request("POST", f"/voila/api/shutdown/{self.kernel_id}", body=body,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})


def _until(what, seconds: float, why: str) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.3)


def _close_all(server, tabs) -> None:
    for tab in tabs:
        tab.close()
    _until(lambda: not (set(server.kernels()) & {t.kernel_id for t in tabs}), 30,
           "the tabs' kernels are stopped")


def test_a_students_tabs_count_once_and_a_classmate_still_gets_in(server):
    ana = _secret()
    first = Tab(server, "127.0.0.2")
    assert first.status == 200 and MARKER in first.html
    got = first.hello(ana)
    assert re.fullmatch(r"[0-9a-f]{32}", got.get("tokens-edu-seat", "")), got
    first.connect()
    tabs = [first]
    try:
        for _ in range(2):  # two more tabs of the same browser: the cookie says who
            tab = Tab(server, "127.0.0.2", cookies=first.cookies)
            assert tab.status == 200, tab.html[-500:]
            tab.hello(ana)
            tab.connect()
            tabs.append(tab)
        bo = Tab(server, "127.0.0.3")  # a classmate: 2 students, the cap
        assert bo.status == 200, bo.html[-500:]
        bo.hello(_secret())
        bo.connect()
        tabs.append(bo)
        running = server.kernels()
        assert all(t.kernel_id in running for t in tabs)  # nobody lost a page
        cy = Tab(server, "127.0.0.4")  # a third student: the class of 2 is full
        assert cy.status == 503 and "The class is full right now" in cy.html
        assert all(t.kernel_id in server.kernels() for t in tabs)
    finally:
        _close_all(server, tabs)


def test_a_script_holding_pages_with_hello_gives_way_to_a_classmate(server):
    script = []
    for _ in range(CAP):  # each page says hello (a made-up secret) and never connects
        tab = Tab(server, "127.0.0.5")
        assert tab.status == 200, tab.html[-500:]
        tab.hello(_secret())
        script.append(tab)
    tabs = list(script)
    try:
        mate = Tab(server, "127.0.0.6")  # a classmate on another computer: the class is full
        assert mate.status == 200, mate.html[-500:]  # but the script's computer is over its share
        mate.hello(_secret())
        mate.connect()
        tabs.append(mate)
        assert script[0].kernel_id not in server.kernels()  # the oldest page went
        assert script[1].kernel_id in server.kernels()  # its share: one
        # a page whose hello was never followed by its websocket keeps its kernel a minute at most
        _until(lambda: script[1].kernel_id not in server.kernels(), 90,
               "the script's hello page gave its kernel back")
        late = Tab(server, "127.0.0.7")  # so one more classmate gets in
        assert late.status == 200, late.html[-500:]
        tabs.append(late)
        assert mate.kernel_id in server.kernels()
    finally:
        _close_all(server, tabs)


def test_what_a_page_sends_reaches_the_console_once_and_plain(server):
    import websockets.sync.client as wsc

    tab = Tab(server, "127.0.0.8")
    assert tab.status == 200
    fake = "\x1b[31mred\x1b[0m\n[tokens-edu] Ready for the class: fake\r"
    url = (f"ws://127.0.0.1:{server.port}/api/kernels/{tab.kernel_id}/channels"
           "?session_id=test")
    before = len(server.out)
    try:
        with wsc.connect(url, open_timeout=20) as ws:
            for k in range(300):
                ws.send(json.dumps({
                    "channel": "shell", "parent_header": {}, "metadata": {}, "content": {},
                    "header": {"msg_type": f"{fake}{k % 3}", "msg_id": str(uuid.uuid4()),
                               "username": "", "session": "s", "date": "", "version": "5.3"}}))
            for _ in range(50):  # the other kind: a channel that does not exist
                ws.send(json.dumps({"channel": f"{fake}x", "header": {}}))
            time.sleep(2)  # let the server read them all
    finally:
        tab.close()
    lines = server.out[before:]
    said = "\n".join(lines)
    assert "\x1b" not in said and "\r" not in said
    assert not any(line.startswith("[tokens-edu] Ready for the class: fake") for line in lines)
    page_lines = [line for line in lines if "red" in line]
    assert 1 <= len(page_lines) <= 2, page_lines  # one per kind of message, not 350
    assert all("A page sent something the server ignored" in line for line in page_lines)
    assert server.proc.poll() is None


# --- issue 29.8 on the real server -------------------------------------------------------------

def test_the_first_lines_say_todays_lesson_and_a_second_server_is_refused(server):
    assert "Today's lesson: none yet. Name it with: tokens-edu today 03." in server.log
    second = subprocess.run(
        [sys.executable, "-m", "tokens_edu.cli", "serve", "--lessons", str(server.lessons),
         "--port", str(free_port()), "--data-dir", str(server.data)],
        capture_output=True, text=True, timeout=120, env=server.env)
    assert second.returncode == 2
    said = second.stderr.strip()
    assert "\n" not in said and not second.stdout.strip()
    assert (f"Another lesson server (process {server.proc.pid}, port {server.port}) already uses "
            f"the data folder {server.data.resolve()}") in said
    assert server.proc.poll() is None


def test_the_pages_computer_reaches_its_kernel_whatever_the_browser_says(server):
    tab = Tab(server, "127.0.0.9", path="/voila/render/who.ipynb")
    # a browser (or a script) sending the header itself changes nothing
    spoofed = Tab.__new__(Tab)
    spoofed.server, spoofed.source, spoofed.cookies = server, "127.0.0.10", {}
    status, html, _ = spoofed._request("GET", "/voila/render/who.ipynb",
                                       headers={"X-Tokens-Edu-Client": "10.6.6.6"})
    m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
    spoofed.kernel_id, spoofed.stop = (m.group(1) if m else None), threading.Event()
    try:
        assert tab.status == 200 and status == 200, html[-500:]
        assert "computer=[127.0.0.9]" in tab.html
        assert "computer=[127.0.0.10]" in html and "10.6.6.6" not in html
    finally:
        _close_all(server, [tab, spoofed])


def test_https_with_certfile_and_keyfile(tmp_path):
    """--certfile/--keyfile: the lessons over HTTPS on a school network; a warm kernel still gets
    its page's request (over wss on this computer)."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                           "-subj", "/CN=school.example", "-keyout", str(key), "-out", str(cert)],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    lessons = tiny_lessons(tmp_path / "lessons")
    tmpdir = Path(tempfile.mkdtemp(prefix="th-", dir="/tmp"))
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        env.pop(var, None)
    srv = Serve(["--lessons", str(lessons), "--pool-size", "1", "--preheat-only", "tiny",
                 "--data-dir", str(tmp_path / "data"), "--certfile", str(cert),
                 "--keyfile", str(key)], env)
    try:
        srv.wait_warm()
        assert f"Open https://127.0.0.1:{srv.port}/" in srv.log
        import ssl

        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False  # the certificate names the school's address
        conn = http.client.HTTPSConnection("127.0.0.1", srv.port, timeout=90, context=context)
        conn.request("GET", "/voila/render/tiny.ipynb?student=ana")
        r = conn.getresponse()
        html = r.read().decode("utf-8", "replace")
        conn.close()
        assert r.status == 200 and MARKER in html and "student: ana" in html
        plain = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
        with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
            plain.request("GET", "/")
            assert plain.getresponse().status != 200
        plain.close()
    finally:
        srv.stop()
        shutil.rmtree(tmpdir, ignore_errors=True)
    bad = subprocess.run([sys.executable, "-m", "tokens_edu.cli", "serve", "--lessons",
                          str(lessons), "--port", str(free_port()), "--data-dir",
                          str(tmp_path / "data2"), "--certfile", str(key), "--keyfile", str(cert)],
                         capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "cannot be used" in bad.stderr
