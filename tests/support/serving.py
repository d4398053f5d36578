"""``tokens-edu serve`` started for real in a test: a tiny lessons folder, the server process and
its console, and pages fetched over HTTP and the Voila websocket."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
import nbformat
import psutil


MARKER = "vnd.voila.cell-output+json"
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny_lessons(folder: Path) -> Path:
    """A lesson with a widget that reports its student and whether answers can be saved, and a
    notebook in a ``scenarios`` folder (which must not be browsable)."""
    folder.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell("import ipywidgets as w\nw.Button(description='hi')"),
        nbformat.v4.new_code_cell(
            "from tokens_edu.session import PageSession, student_from_query\n"
            "session = PageSession('tiny')\n"
            "print('student:', student_from_query())\n"
            "print('answers can be saved:', session.problem is None)"),
    ]
    nbformat.write(nb, folder / "tiny.ipynb")
    (folder / "scenarios").mkdir()
    nbformat.write(nb, folder / "scenarios" / "hidden.ipynb")
    return folder


class Serve:
    """``tokens-edu serve`` in its own session; output collected; stopped by its pid."""

    def __init__(self, args: list[str], env: dict, wrapper: list[str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.out: list[str] = []
        cmd = (wrapper or []) + [sys.executable, "-m", "tokens_edu.cli", "serve",
                                 "--port", str(self.port), *args]
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.out.append(line.rstrip("\n"))

    @property
    def log(self) -> str:
        return "\n".join(self.out)

    def wait_warm(self, timeout: float = 120) -> None:
        """Until the server answers and its warm kernel is ready."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"serve stopped:\n{self.log}"
            if "Warm kernels are ready" in self.log:
                return
            time.sleep(0.3)
        raise AssertionError(f"no warm kernel after {timeout} s:\n{self.log}")

    def kernels(self) -> dict[str, int]:
        """kernel id -> pid of every kernel under the server."""
        out = {}
        for p in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                cmd = " ".join(p.cmdline())
            except psutil.Error:
                continue
            m = re.search(r"kernel-([0-9a-f-]{36})\.json", cmd)
            if m and "ipykernel" in cmd:
                out[m.group(1)] = p.pid
        return out

    def stop(self) -> None:
        kids = []
        try:
            kids = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.Error:
            pass
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        _, alive = psutil.wait_procs(kids, timeout=20)
        for p in alive:
            p.kill()


class Page:
    """One page visit: its HTML, its kernel id and its cookies (as a browser keeps them).

    With ``connect=True`` it also connects to its kernel's websocket, as a browser's page does
    (a page whose browser never connects gives its kernel back after 20 s), until :meth:`close`
    or :meth:`drop`.
    """

    def __init__(self, server: Serve, path: str, timeout: float = 90, connect: bool = False):
        self.server = server
        self.socket_stop = threading.Event()
        self.socket_up = threading.Event()
        self.jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        t = time.monotonic()
        try:
            with opener.open(server.url + path, timeout=timeout) as r:
                self.status, self.html = r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            self.status, self.html = e.code, e.read().decode("utf-8", "replace")
        self.seconds = time.monotonic() - t
        m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', self.html)
        self.kernel_id = m.group(1) if m else None
        self.opener = opener
        if connect and self.kernel_id:
            threading.Thread(target=self._hold, daemon=True).start()
            assert self.socket_up.wait(30), "the kernel's websocket did not open"

    def _hold(self) -> None:
        import websockets.sync.client as wsc

        url = (self.server.url.replace("http://", "ws://")
               + f"/api/kernels/{self.kernel_id}/channels?session_id=test")
        try:
            with wsc.connect(url, open_timeout=20) as ws:
                self.socket_up.set()
                while not self.socket_stop.is_set():
                    try:
                        ws.recv(timeout=0.3)
                    except TimeoutError:
                        continue
        except Exception:  # noqa: BLE001 - the kernel was stopped: the socket closes
            self.socket_up.set()

    def drop(self) -> None:
        """The browser goes away without closing the page (a closed laptop, a crashed tab)."""
        self.socket_stop.set()

    def close(self) -> int:
        """What the page sends when its tab closes: the shutdown call with the _xsrf cookie."""
        self.socket_stop.set()
        xsrf = next((c.value for c in self.jar if c.name == "_xsrf"), "")
        req = urllib.request.Request(f"{self.server.url}/voila/api/shutdown/{self.kernel_id}",
                                     data=urllib.parse.urlencode({"_xsrf": xsrf}).encode(),
                                     method="POST")
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code


class KernelChannel:
    """A page's kernel websocket spoken to as a script would (the widget protocol on
    jupyter_server's JSON messages), without a browser. Voila passes on only the widget
    protocol's messages (``comm_*``, ``kernel_info_request``): :meth:`update` sets a widget's
    trait as its page does, :meth:`ask` waits for a reply, :meth:`send_raw` sends any text."""

    def __init__(self, server: Serve, kernel_id: str):
        import websockets.sync.client as wsc

        self.session = uuid.uuid4().hex
        url = (server.url.replace("http://", "ws://")
               + f"/api/kernels/{kernel_id}/channels?session_id={self.session}")
        self.ws = wsc.connect(url, open_timeout=30, max_size=None)  # closed in close()

    def message(self, msg_type: str, content: dict, channel: str = "shell") -> dict:
        return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": self.session,
                           "username": "script", "version": "5.3",
                           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                "parent_header": {}, "metadata": {}, "content": content, "channel": channel}

    def ask(self, msg_type: str = "kernel_info_request", content: dict | None = None,
            timeout: float = 60) -> dict:
        """Send a request; returns its reply's content (``kernel_info_request``: the kernel
        answers while it runs)."""
        msg = self.message(msg_type, content or {})
        self.ws.send(json.dumps(msg))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if (reply.get("parent_header", {}).get("msg_id") == msg["header"]["msg_id"]
                    and (reply.get("msg_type") or reply["header"]["msg_type"]).endswith("_reply")):
                return reply["content"]
        raise TimeoutError(f"no reply to {msg_type} in {timeout} s")

    def update(self, model_id: str, state: dict) -> None:
        """A widget's trait changed in the page (``comm_msg`` with ``method: update``)."""
        self.ws.send(json.dumps(self.message(
            "comm_msg", {"comm_id": model_id, "data": {"method": "update", "state": state,
                                                      "buffer_paths": []}})))

    def send_raw(self, text: str) -> None:
        self.ws.send(text)

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass


def model_ids(html: str) -> list[str]:
    """The widget model ids a page's HTML shows (its outputs), in order."""
    return re.findall(r'"model_id":\s*"([0-9a-f]{32})"', html)


def kernel_status(server: Serve, kernel_id: str) -> dict:
    """The page guard's question: ``{"state": ..., "connected": ...}`` (and ``why``)."""
    with urllib.request.urlopen(f"{server.url}/voila/api/kernel-status/{kernel_id}", timeout=30) as r:
        return json.loads(r.read())
