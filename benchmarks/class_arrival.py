"""A class that arrives at once, measured without the browsers' CPU (issue 29.9).

``tokens-edu serve --today LESSON`` starts as a teacher starts it (the kit's lessons, a
throwaway answers folder, a free port); once it says "Ready for the class", ``--students`` (30)
students open today's lesson at the same moment with a **widget-protocol client**: no browser,
no rendering, the messages a page's front end sends over jupyter_server's kernel websocket
through Voila, each student in a thread:

1. the page (HTTP GET ``/voila/render/LESSON?student=sNN``, cookies kept) and its first
   script's hello (``kernel-status?hello=1``);
2. the kernel websocket; the widget manager's ``request_states`` on a
   ``jupyter.widget.control`` comm, answered with every widget's state: **the table's state
   received** (the first ``CardTable`` of the page, with its moves);
3. a click on the table's first move (the card table's ``{"type": "move", "i": 0, "v": V}``),
   answered by a new table state: **a move answered** = the page is usable.

Beside them, ``--browsers`` (3) real Chromium pages open the same lesson at the same moment
(one browser, a context each, 1366x768), usable when every widget is drawn
(``class_load.USABLE``): the browser's side.

Prints per run: p50 / p95 / max of each time, the warm kernels and memory before the class,
CPU seconds of the server and of the kernels during the arrival, the 1-minute load before and
when the pages opened; then min / median / max over the runs. Goal: p95 <= 3 s (a usable page).

Usage::

    .venv/bin/python benchmarks/class_arrival.py [--runs 1] [--students 30] [--browsers 3]
        [--lesson 03-task-and-audit]

Needs Linux (``/proc``) and, for ``--browsers``, Debian's Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from class_load import (  # noqa: E402
    ROOT, Server, cpu_split, cpu_used, free_port, kernels_of, load1, mmm, open_pages_usable,
    percentiles, settle, tree_pss_mib, wait_line,
)

TARGET_P95_S = 3.0


def _frames(ws, deadline: float):
    """The kernel's messages as dicts (text frames, and binary ones with buffers: jupyter_server's
    legacy format, a count, offsets, the JSON message, then the buffers)."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        data = ws.recv(timeout=left)
        if isinstance(data, bytes):
            n = struct.unpack("!I", data[:4])[0]
            offsets = struct.unpack("!" + "I" * n, data[4:4 + 4 * n])
            end = offsets[1] if n > 1 else len(data)
            data = data[offsets[0]:end].decode("utf-8")
        yield json.loads(data)


class Student:
    """One student's page, driven over the widget protocol. Times are seconds from ``t0``."""

    def __init__(self, base: str, lesson: str, k: int):
        self.base, self.lesson, self.k = base, lesson, k
        self.html_s = self.state_s = self.move_s = None
        self.error = ""
        self.kernel_id = None
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.ws = None

    def message(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type,
                                      "session": self.session, "username": "", "version": "5.3",
                                      "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                           "parent_header": {}, "metadata": metadata or {}, "content": content,
                           "channel": "shell"})

    def run(self, t0: float, timeout: float) -> None:
        import websockets.sync.client as wsc

        deadline = t0 + timeout
        try:
            url = f"{self.base}/voila/render/{urllib.parse.quote(self.lesson)}?student=s{self.k:02d}"
            with self.opener.open(url, timeout=timeout) as r:
                html = r.read().decode("utf-8", "replace")
            self.html_s = time.monotonic() - t0
            m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
            if not m:
                self.error = "no kernel (class full?)"
                return
            self.kernel_id = m.group(1)
            self.opener.open(f"{self.base}/voila/api/kernel-status/{self.kernel_id}?hello=1",
                             timeout=timeout).read()
            self.session = uuid.uuid4().hex
            self.ws = wsc.connect(self.base.replace("http://", "ws://")
                                  + f"/api/kernels/{self.kernel_id}/channels?session_id={self.session}",
                                  open_timeout=timeout, max_size=None)
            control = uuid.uuid4().hex
            self.ws.send(self.message("comm_open", {"comm_id": control, "target_name":
                                                    "jupyter.widget.control", "data": {}},
                                      {"version": "1.0.0"}))  # ipywidgets' control protocol
            self.ws.send(self.message("comm_msg", {"comm_id": control,
                                                   "data": {"method": "request_states"}}))
            table = version = None
            for msg in _frames(self.ws, deadline):
                data = msg.get("content", {}).get("data", {})
                if msg.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
                    for model_id, entry in data.get("states", {}).items():
                        st = entry.get("state", {}).get("state")
                        if isinstance(st, dict) and st.get("moves"):
                            table, version = model_id, st.get("v")
                            break
                    break
            self.state_s = time.monotonic() - t0
            if table is None:
                self.error = "no card table with moves"
                return
            self.ws.send(self.message("comm_msg", {"comm_id": table, "data": {
                "method": "custom", "content": {"type": "move", "i": 0, "v": version}}}))
            for msg in _frames(self.ws, deadline):
                content = msg.get("content", {})
                data = content.get("data", {})
                if (msg.get("msg_type") == "comm_msg" and content.get("comm_id") == table
                        and data.get("method") == "update"):
                    st = data.get("state", {}).get("state")
                    if isinstance(st, dict) and st.get("v") != version:
                        break
            self.move_s = time.monotonic() - t0
        except Exception as e:  # noqa: BLE001 - a failed page is a figure
            self.error = f"{type(e).__name__}: {str(e)[:80]}"

    def close(self) -> None:
        """The page closes (its tab's shutdown call), so its kernel is given back."""
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:  # noqa: BLE001
                pass
        if self.kernel_id:
            xsrf = next((c.value for c in self.jar if c.name == "_xsrf"), "")
            req = urllib.request.Request(f"{self.base}/voila/api/shutdown/{self.kernel_id}",
                                         data=urllib.parse.urlencode({"_xsrf": xsrf}).encode(),
                                         method="POST")
            try:
                self.opener.open(req, timeout=30).read()
            except Exception:  # noqa: BLE001
                pass


def one_run(args, lessons: Path, tmp: Path) -> dict:
    port, data = free_port(), tmp / "data"
    out: dict = {"load_start": load1()}
    t0 = time.monotonic()
    server = Server(["--lessons", str(lessons), "--today", args.lesson,
                     "--class-size", str(args.class_size or args.students)], port, data)
    try:
        server.wait_answering(120)
        wait_line(server, "Ready for the class", args.timeout)
        out["ready_s"] = time.monotonic() - t0
        out["ready_line"] = next(x for x in server.lines if "Ready for the class" in x)
        settle(server.proc.pid)
        out["kernels"] = len(kernels_of(server.proc.pid))
        out["gib"] = tree_pss_mib(server.proc.pid) / 1024
        base = f"http://127.0.0.1:{port}"
        students = [Student(base, args.lesson, k) for k in range(args.students)]
        browsers: list = []
        cpu0 = cpu_split(server.proc.pid)
        own0 = time.process_time()
        out["load_pages"] = load1()
        start = time.monotonic() + 1.0
        threads = [threading.Thread(target=lambda s=s: (time.sleep(max(0.0, start - time.monotonic())),
                                                        s.run(start, args.timeout)), daemon=True)
                   for s in students]
        if args.browsers:
            url = f"{base}/voila/render/{urllib.parse.quote(args.lesson)}"
            threads.append(threading.Thread(target=lambda: (
                time.sleep(max(0.0, start - time.monotonic() - 0.5)),  # 0.5 s: its own start
                browsers.extend(open_pages_usable(url, args.browsers, args.timeout))), daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.timeout + 120)
        out["cpu"] = cpu_used(cpu0, cpu_split(server.proc.pid))
        out["client_cpu"] = time.process_time() - own0
        out["load_after"] = load1()
        out["gib_after"] = tree_pss_mib(server.proc.pid) / 1024
        out["kernels_after"] = len(kernels_of(server.proc.pid))
        out["students"] = [(s.html_s, s.state_s, s.move_s, s.error) for s in students]
        out["browsers"] = browsers
        for s in students:
            s.close()
    finally:
        if server.proc.poll() is None:
            server.proc.send_signal(signal.SIGINT)
            try:
                server.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.proc.kill()
        out["log"] = list(server.lines)
    return out


def p(values) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "none"
    p50, p95, top = percentiles(values)
    return f"p50 {p50:.2f} s, p95 {p95:.2f} s, max {top:.2f} s (n={len(values)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--browsers", type=int, default=3)
    ap.add_argument("--class-size", type=int, default=0, help="the server's --class-size (default: --students)")
    ap.add_argument("--lesson", default="03-task-and-audit")
    ap.add_argument("--lessons", type=Path, default=ROOT / "lessons")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--log", action="store_true", help="print the server's console")
    args = ap.parse_args()
    if not args.lesson.endswith(".ipynb"):
        args.lesson += ".ipynb"  # the page's address names the notebook file
    import psutil

    print(f"'tokens-edu serve --today {args.lesson}'; {args.students} students over the widget "
          f"protocol and {args.browsers} Chromium pages at once; {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.0f} GiB ({psutil.virtual_memory().available / 2**30:.1f} "
          f"available).", flush=True)
    runs = []
    for k in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="tokens-arrival-") as tmp:
            r = one_run(args, args.lessons, Path(tmp))
        runs.append(r)
        failed = [(i, e) for i, (_, _, _, e) in enumerate(r["students"]) if e]
        if failed or args.log:
            print("  the server's console:\n    " + "\n    ".join(r["log"][-40:]), flush=True)
        usable = [m for _, _, m, e in r["students"] if m is not None and not e]
        r["p95"] = percentiles(usable)[1] if usable else float("inf")
        b_ok = [t for t, ok, _ in r["browsers"] if ok]
        print(f"Run {k + 1} (load {r['load_start']:.1f} at the start, {r['load_pages']:.1f} when the "
              f"pages opened, {r['load_after']:.1f} after):\n"
              f"  ready for the class after {r['ready_s']:.0f} s: {r['ready_line'].replace('[tokens-edu] ', '')}\n"
              f"  before the class: {r['kernels']} kernels, {r['gib']:.2f} GiB (PSS)\n"
              f"  page HTML:              {p(h for h, _, _, _ in r['students'])}\n"
              f"  table's state received: {p(s for _, s, _, _ in r['students'])}\n"
              f"  a move answered:        {p(usable)}  <- usable\n"
              f"  {len(usable)} of {args.students} usable" + (f"; failed: {failed[:5]}" if failed else "") + "\n"
              f"  {args.browsers} Chromium pages, every widget drawn: "
              f"{p(b_ok) if b_ok else 'none usable'} {[w for _, ok, w in r['browsers'] if not ok] or ''}\n"
              f"  with the class in: {r['kernels_after']} kernels, {r['gib_after']:.2f} GiB (PSS)\n"
              f"  CPU during the arrival: server {r['cpu']['server']:.1f} s, kernels "
              f"{r['cpu']['kernels']:.1f} s, this client {r['client_cpu']:.1f} s", flush=True)
    if len(runs) > 1:
        print(f"\nOver {len(runs)} runs (min / median / max): usable p95 {mmm(r['p95'] for r in runs)} s; "
              f"load when the pages opened {mmm(r['load_pages'] for r in runs)}")
    ok = all(r["p95"] <= TARGET_P95_S for r in runs)
    print(f"Goal p95 <= {TARGET_P95_S:.0f} s: {'met' if ok else 'NOT met'}.")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
