"""A class on a bare ``make serve``: memory, warm-up, and 30 students opening today's lesson.

The default run does, ``--runs`` times (3), what a teacher and a class do:

1. start ``tokens-edu serve`` with no options at all (what a bare ``make serve`` runs: the
   kit's lessons, a temporary answers folder, a free port), and wait until its warm kernels are
   ready: **memory before the teacher names the lesson** (PSS of the server and its kernels);
2. say today's lesson from the command line (``tokens-edu today LESSON``), as a teacher does,
   and wait until the server says "Ready for the class" (the start page and today's lesson
   warm): **time until the start page and one lesson are warm** (from the start) and **memory
   before any student**;
3. open today's lesson in ``--students`` (30) real Chromium pages at the same moment (one
   browser, a context each, 1366x768), each usable when every widget of the page is drawn from
   its kernel (no widget output left empty, no "lost its lesson" message): **page times p50/p95**;
4. stop the server with Ctrl-C (SIGINT): **seconds to stop** and the lines it printed.

It prints each run's figures and min / median / max over the runs, with the machine's load
(the 1-minute load average before and after each run: the machine is shared, and every figure
moves with it). ``--memory-minutes M`` instead watches a bare ``tokens-edu serve`` for M minutes
and prints its memory every 30 s (issue 20: a bare serve climbed 1.3 GiB every 30 s to 13.4 GiB).

``--install`` first installs the kit into a new venv with no extras (what docs/deploy.md tells a
school's server to do, and what ``make serve`` installs), prints how long that took, and runs
everything above from that install: the figures are then the start after an install.

The older measurements stay available: ``--pool N`` (a warm pool of N for the lesson only, the
way a teacher started the server before), with ``--http`` (pages fetched over HTTP instead of a
browser) or ``--storm`` (every student reloads a few times: peak kernels and memory).

Targets (issue 20): memory before any student < 2 GiB; 30 students p95 <= 3 s with every widget
working. Exit code 1 when one is missed.

Usage::

    .venv/bin/python benchmarks/class_load.py [--runs 3] [--students 30] [--lesson 01-read-a-card]
    .venv/bin/python benchmarks/class_load.py --install      # the same, from a new plain install
    .venv/bin/python benchmarks/class_load.py --memory-minutes 10
    .venv/bin/python benchmarks/class_load.py --pool 30 [--http | --storm] [--students 30]

Needs Linux (``/proc``) and Debian's Chromium (``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
MARKER = "vnd.voila.cell-output+json"
TARGET_P95_S = 3.0
TARGET_PSS_MIB = 90.0
TARGET_MEMORY_GIB = 2.0
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-dev-shm-usage"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kernels_of(server_pid: int) -> list[psutil.Process]:
    """The ipykernel processes under the ``tokens-edu serve`` process."""
    out = []
    try:
        kids = psutil.Process(server_pid).children(recursive=True)
    except psutil.Error:
        return out
    for p in kids:
        try:
            if "ipykernel" in " ".join(p.cmdline()):
                out.append(p)
        except psutil.Error:
            pass
    return out


def pss_mib(pid: int) -> float | None:
    """Proportional set size of ``pid`` in MiB (shared pages split among their users)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def tree_pss_mib(server_pid: int) -> float:
    """PSS of the server, Voila and every kernel together (MiB)."""
    total = pss_mib(server_pid) or 0.0
    try:
        kids = psutil.Process(server_pid).children(recursive=True)
    except psutil.Error:
        return total
    return total + sum(pss_mib(k.pid) or 0.0 for k in kids)


def command(cli: Path | None) -> list[str]:
    """How to run ``tokens-edu``: this checkout's (``python -m tokens_edu.cli``), or the
    command ``cli`` of an install (``--install``)."""
    return [sys.executable, "-m", "tokens_edu.cli"] if cli is None else [str(cli)]


def fresh_install(folder: Path) -> tuple[Path, float]:
    """Install the kit as a school's server would (docs/deploy.md: a plain ``pip install`` of this
    folder into a new venv, no extras; then the venv's kernel, as ``make serve`` does).

    Returns:
        (the venv's ``tokens-edu`` command, seconds the install took).
    """
    t0 = time.monotonic()
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    pip = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                          str(ROOT)], capture_output=True, text=True)
    if pip.returncode:  # pip's own lines only when it failed (this machine's mirror warns a lot)
        raise SystemExit("The install failed:\n" + pip.stdout + pip.stderr)
    subprocess.run([str(py), "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
                   check=True, capture_output=True)
    return venv / "bin" / "tokens-edu", time.monotonic() - t0


def _ctrl_c_reaches() -> None:
    """In the server's process: Ctrl-C (SIGINT) stops it, as in a teacher's terminal. A
    benchmark started in the background (``... &`` from a script) has SIGINT ignored, and a
    child inherits that: the Ctrl-C this benchmark sends would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Server:
    """``tokens-edu serve`` in a child process; its output is collected line by line."""

    def __init__(self, args: list[str], port: int, data: Path, cli: Path | None = None):
        self.port = port
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [*command(cli), "serve", "--port", str(port), "--data-dir", str(data), *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=_ctrl_c_reaches)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())

    def _check(self) -> None:
        if self.proc.poll() is not None:
            raise SystemExit("The server stopped:\n" + "\n".join(self.lines[-20:]))

    def wait_answering(self, timeout: float) -> float:
        """Wait until the server answers on its port; seconds waited."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            self._check()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return time.monotonic() - t0
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"The server did not answer after {timeout:.0f} s.")

    def wait_warm(self, expected: int | None, timeout: float) -> float:
        """Wait until the warm kernels are ready, then until the server and kernels have stopped
        using CPU. ``expected``: how many kernels an older server (whose log does not say when
        they are ready) will have.

        Returns:
            float: seconds waited.
        """
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            self._check()
            if any("Warm kernels are ready" in line for line in self.lines):
                break
            if expected is not None and len(kernels_of(self.proc.pid)) >= expected and any(
                    "is filled with" in line for line in self.lines):
                break
            time.sleep(0.5)
        else:
            raise SystemExit(f"The pool was not warm after {timeout:.0f} s.")
        # pre-rendering goes on after the kernels start, in the kernels and in the server (which
        # reads every widget message): wait until their CPU time stops growing
        # (idle, each process still uses a little: heartbeats, the server's watch; measured 0.19 s
        # of CPU per 2 s for a server with 271 idle warm kernels, so a fixed 0.1 s never settled)
        last = -1.0
        while time.monotonic() - t0 < timeout:
            total = 0.0
            procs = [psutil.Process(self.proc.pid)] + psutil.Process(self.proc.pid).children(recursive=True)
            for k in procs:
                try:
                    total += sum(k.cpu_times()[:2])
                except psutil.Error:
                    pass
            if last >= 0 and total - last < 0.1 + 0.002 * len(procs):
                break
            last = total
            time.sleep(2)
        return time.monotonic() - t0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def cpu_split(pid: int) -> dict[int, tuple[str, float]]:
    """CPU seconds (user + system) used so far by each process of the server: pid -> (kind,
    seconds), kind ``"server"`` (``serve`` and Voila) or ``"kernels"``."""
    out: dict[int, tuple[str, float]] = {}
    try:
        procs = [psutil.Process(pid)] + psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return out
    for p in procs:
        try:
            kind = "kernels" if "ipykernel" in " ".join(p.cmdline()) else "server"
            out[p.pid] = (kind, sum(p.cpu_times()[:2]))
        except psutil.Error:
            pass
    return out


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds used between two :func:`cpu_split` readings, by kind (processes that
    stopped in between are left out: their last reading is unknown)."""
    used = {"server": 0.0, "kernels": 0.0}
    for pid, (kind, seconds) in after.items():
        used[kind] += seconds - before.get(pid, (kind, 0.0))[1]
    return used


def open_pages_http(url: str, n: int, timeout: float) -> list[tuple[float, bool]]:
    """``n`` threads fetch ``url?student=sK`` at the same moment: (seconds, usable) each."""
    results: list[tuple[float, bool]] = [(float("nan"), False)] * n
    start = threading.Barrier(n)

    def student(k: int) -> None:
        start.wait()
        t = time.monotonic()
        ok = False
        try:
            with urllib.request.urlopen(f"{url}?student=s{k:02d}", timeout=timeout) as r:
                ok = MARKER in r.read().decode("utf-8", "replace")
        except Exception as e:  # noqa: BLE001 - a failed page is a figure, not a crash
            print(f"student {k}: {type(e).__name__}: {e}")
        results[k] = (time.monotonic() - t, ok)

    threads = [threading.Thread(target=student, args=(k,)) for k in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def open_pages_browser(url: str, n: int, timeout: float) -> list[tuple[float, bool]]:
    """``n`` Chromium pages open ``url`` at once; usable when a widget is drawn."""
    from playwright.async_api import async_playwright

    async def run() -> list[tuple[float, bool]]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu",
                      "--disable-background-networking", "--disable-dev-shm-usage"])

            async def student(k: int) -> tuple[float, bool]:
                context = await browser.new_context()
                page = await context.new_page()

                async def only_loopback(route):
                    host = urllib.parse.urlparse(route.request.url).hostname
                    if host in ("127.0.0.1", "localhost"):
                        await route.continue_()
                    else:
                        await route.abort()

                await page.route("**/*", only_loopback)
                t = time.monotonic()
                try:
                    await page.goto(f"{url}?student=s{k:02d}", timeout=timeout * 1000)
                    await page.wait_for_selector(".jupyter-widgets", timeout=timeout * 1000)
                    ok = True
                except Exception as e:
                    print(f"student {k}: {type(e).__name__}: {str(e).splitlines()[0]}")
                    ok = False
                took = time.monotonic() - t
                await context.close()
                return took, ok

            try:
                return await asyncio.gather(*(student(k) for k in range(n)))
            finally:
                await browser.close()

    return asyncio.run(run())


class StormStudent:
    """One student in a reload storm, speaking the page's protocol over HTTP and a websocket."""

    def __init__(self, base: str, url: str, k: int, timeout: float):
        self.base, self.url, self.k, self.timeout = base, url, k, timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.kernel_id: str | None = None
        self.loads: list[tuple[float, str]] = []  # (seconds, "ok" | "no widgets" | "failed")
        self.ws_task = None

    def open(self) -> None:
        t = time.monotonic()
        outcome = "failed"
        try:
            with self.opener.open(f"{self.url}?student=s{self.k:02d}", timeout=self.timeout) as r:
                html = r.read().decode("utf-8", "replace")
            outcome = "ok" if MARKER in html else "no widgets"
            m = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
            self.kernel_id = m.group(1) if m else None
        except Exception as e:  # noqa: BLE001
            print(f"student {self.k}: {type(e).__name__}: {e}")
            self.kernel_id = None
        self.loads.append((time.monotonic() - t, outcome))

    def leave(self) -> None:
        """What a page does in ``beforeunload``: the shutdown call with the _xsrf cookie."""
        if not self.kernel_id:
            return
        xsrf = next((c.value for c in self.jar if c.name == "_xsrf"), "")
        req = urllib.request.Request(f"{self.base}/voila/api/shutdown/{self.kernel_id}",
                                     data=urllib.parse.urlencode({"_xsrf": xsrf}).encode(),
                                     method="POST")
        try:
            self.opener.open(req, timeout=10).close()
        except Exception:  # noqa: BLE001 - an old server refuses it (403): that is the figure
            pass


def kernel_socket(base: str, kernel_id: str, stop: threading.Event) -> None:
    """Hold the page's kernel websocket open (as a browser does) until ``stop`` or the page goes."""
    import websockets.sync.client as wsc

    url = base.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?session_id=bench"
    try:
        with wsc.connect(url, open_timeout=10) as ws:
            while not stop.is_set():
                try:
                    ws.recv(timeout=0.5)
                except TimeoutError:
                    continue
    except Exception:  # noqa: BLE001 - the kernel was stopped: the socket closes
        pass


def storm(base: str, url: str, n: int, reloads: int, minute: float, pid: int,
          timeout: float) -> dict:
    """The reload storm; returns the figures."""
    rnd = random.Random(7)
    students = [StormStudent(base, url, k, timeout) for k in range(n)]
    peak = {"kernels": 0, "pss": 0.0}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak["kernels"] = max(peak["kernels"], len(kernels_of(pid)))
            peak["pss"] = max(peak["pss"], tree_pss_mib(pid))
            time.sleep(0.5)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    sockets: dict[int, threading.Event] = {}

    def hold(s: StormStudent) -> None:
        if s.kernel_id:
            ev = threading.Event()
            sockets[s.k] = ev
            threading.Thread(target=kernel_socket, args=(base, s.kernel_id, ev), daemon=True).start()

    def life(s: StormStudent) -> None:
        time.sleep(rnd.uniform(0, 5))  # the class arrives within a few seconds
        s.open()
        hold(s)
        moments = sorted(rnd.uniform(5, minute) for _ in range(reloads))
        t0 = time.monotonic()
        for at in moments:
            time.sleep(max(0.0, at - (time.monotonic() - t0)))
            s.leave()  # the old page's beforeunload
            if s.k in sockets:
                sockets.pop(s.k).set()
            s.open()
            hold(s)

    threads = [threading.Thread(target=life, args=(s,)) for s in students]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    time.sleep(30)  # what is still running half a minute later
    left = len(kernels_of(pid))
    done.set()
    watcher.join()
    for ev in sockets.values():
        ev.set()
    loads = [x for s in students for x in s.loads]
    return {"loads": loads, "peak_kernels": peak["kernels"], "peak_pss": peak["pss"],
            "left": left}



#: True once the page is usable: its cells are all there and every widget output is drawn from
#: its kernel; "told: ..." (the page's words) when the page tells the student to reload: its
#: kernel is gone, it has not reached its kernel after 30 s, or it failed to load.
USABLE = """() => {
  const told = document.querySelector('.tokens-page-gone, .tokens-page-failed, .tokens-lost-contact');
  if (told) { return 'told: ' + (told.textContent || '').trim().slice(0, 60); }
  if (document.readyState !== 'complete') { return false; }
  const panels = [...document.querySelectorAll('.jp-OutputArea-output.lm-Panel')];
  return panels.length > 0 && panels.every(p => p.querySelector('.jupyter-widgets'));
}"""


def load1() -> float:
    """The machine's 1-minute load average."""
    return float(open("/proc/loadavg").read().split()[0])


def wait_line(server: "Server", text: str, timeout: float, after: int = 0) -> float:
    """Wait until the server printed a line containing ``text`` (from line ``after``); seconds."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        server._check()
        if any(text in line for line in server.lines[after:]):
            return time.monotonic() - t0
        time.sleep(0.2)
    raise SystemExit(f"No line {text!r} after {timeout:.0f} s:\n" + "\n".join(server.lines[-20:]))


def settle(pid: int, timeout: float = 120) -> None:
    """Wait until the server and its kernels stop using CPU (pre-rendering is done)."""
    last, t0 = -1.0, time.monotonic()
    while time.monotonic() - t0 < timeout:
        split = cpu_split(pid)
        total = sum(seconds for _, seconds in split.values())
        if last >= 0 and total - last < 0.1 + 0.002 * len(split):
            return
        last = total
        time.sleep(2)


def open_pages_usable(url: str, n: int, timeout: float) -> list[tuple[float, bool, str]]:
    """``n`` Chromium pages (one browser, a context each) open ``url`` at the same moment:
    (seconds until usable, usable, why not) each. See :data:`USABLE`."""
    from playwright.async_api import async_playwright

    async def run():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            contexts = []
            for k in range(n):
                context = await browser.new_context(viewport={"width": 1366, "height": 768})

                async def only_loopback(route):
                    host = urllib.parse.urlparse(route.request.url).hostname
                    await (route.continue_() if host in ("127.0.0.1", "localhost") else route.abort())

                await context.route("**/*", only_loopback)
                contexts.append((context, await context.new_page()))
            start = asyncio.Event()

            async def student(k: int, page) -> tuple[float, bool, str]:
                await start.wait()
                t = time.monotonic()
                try:
                    await page.goto(f"{url}?student=s{k:02d}", wait_until="commit",
                                    timeout=timeout * 1000)
                    handle = await page.wait_for_function(USABLE, polling=100, timeout=timeout * 1000)
                    state = await handle.json_value()
                    return time.monotonic() - t, state is True, "" if state is True else str(state)
                except Exception as e:  # noqa: BLE001 - a failed page is a figure
                    return time.monotonic() - t, False, type(e).__name__

            tasks = [asyncio.ensure_future(student(k, page)) for k, (_, page) in enumerate(contexts)]
            await asyncio.sleep(0.5)
            start.set()
            try:
                return await asyncio.gather(*tasks)
            finally:
                for context, _ in contexts:
                    await context.close()
                await browser.close()

    return asyncio.run(run())


def percentiles(times: list[float]) -> tuple[float, float, float]:
    """(p50, p95, max) of ``times`` (p95 by the inclusive method: 30 pages -> between the
    28th and 29th slowest)."""
    times = sorted(times)
    p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]
    return statistics.median(times), p95, times[-1]


def bare_run(args, lessons: Path, lesson: str, tmp: Path) -> dict:
    """One run of the default measurement (see the module docs). Returns its figures."""
    port, data = free_port(), tmp / "data"
    load_before = load1()
    t0 = time.monotonic()
    server = Server(["--lessons", str(lessons)], port, data, args.cli)
    out: dict = {"load_before": load_before}
    try:
        server.wait_answering(120)
        out["answering_s"] = time.monotonic() - t0
        wait_line(server, "Warm kernels are ready", args.timeout)
        out["bare_warm_s"] = time.monotonic() - t0
        settle(server.proc.pid)
        out["bare_gib"] = tree_pss_mib(server.proc.pid) / 1024
        out["bare_kernels"] = len(kernels_of(server.proc.pid))
        said = len(server.lines)
        subprocess.run([*command(args.cli), "today", lesson, "--lessons",
                        str(lessons), "--data-dir", str(data)], check=True, capture_output=True,
                       timeout=120)
        told = time.monotonic()
        wait_line(server, "Ready for the class", args.timeout, after=said)
        out["class_ready_s"] = time.monotonic() - t0
        out["class_ready_after_today_s"] = time.monotonic() - told
        settle(server.proc.pid)
        out["before_students_gib"] = tree_pss_mib(server.proc.pid) / 1024
        out["before_students_kernels"] = len(kernels_of(server.proc.pid))
        sizes = [pss_mib(k.pid) for k in kernels_of(server.proc.pid)]
        out["kernel_mib"] = [v for v in sizes if v is not None]
        measured = [line for line in server.lines if "(measured)" in line]
        out["kernel_line"] = measured[-1] if measured else ""
        url = f"http://127.0.0.1:{port}/voila/render/{urllib.parse.quote(lesson)}"
        out["load_pages"] = load1()
        pages = open_pages_usable(url, args.students, 300)
        out["pages"] = pages
        out["after_students_gib"] = tree_pss_mib(server.proc.pid) / 1024
    finally:
        lines = len(server.lines)
        t = time.monotonic()
        if server.proc.poll() is None:
            server.proc.send_signal(signal.SIGINT)
            try:
                server.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.proc.kill()
        out["stop_s"] = time.monotonic() - t
        time.sleep(0.5)
        out["stop_lines"] = [line for line in server.lines[lines:] if line.strip()]
    out["load_after"] = load1()
    out["log"] = list(server.lines)
    return out


def mmm(values) -> str:
    """min / median / max of ``values``."""
    values = list(values)
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def bare_main(args, lessons: Path, lesson: str) -> int:
    """The default measurement, ``args.runs`` times; prints every run and the summary."""
    print(f"Bare 'tokens-edu serve' ({lessons}); today's lesson {lesson}; {args.students} students "
          f"in Chromium pages; {args.runs} run(s). {psutil.cpu_count()} cores, "
          f"{psutil.virtual_memory().available / 2**30:.1f} GiB available.", flush=True)
    if args.install_s is not None:
        print(f"Installed into a new venv (pip install of this folder, no extras) in "
              f"{args.install_s:.0f} s; the runs use its {args.cli}.", flush=True)
    runs = []
    for k in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="tokens-class-load-") as tmp:
            r = bare_run(args, lessons, lesson, Path(tmp))
        times = [t for t, ok, _ in r["pages"] if ok]
        failed = [(round(t, 1), why) for t, ok, why in r["pages"] if not ok]
        r["usable"] = len(times)
        r["p50"], r["p95"], r["max"] = percentiles(times) if times else (float("nan"),) * 3
        runs.append(r)
        if failed or args.log:
            print("  the server's console:\n    " + "\n    ".join(r["log"]), flush=True)
        print(f"Run {k + 1} (load {r['load_before']:.1f} before, {r['load_pages']:.1f} when the "
              f"pages opened, {r['load_after']:.1f} after):\n"
              f"  answering after {r['answering_s']:.1f} s; bare warm kernels ready after "
              f"{r['bare_warm_s']:.1f} s: {r['bare_kernels']} kernels, {r['bare_gib']:.2f} GiB\n"
              f"  start page and {lesson} warm after {r['class_ready_s']:.1f} s "
              f"({r['class_ready_after_today_s']:.1f} s after 'tokens-edu today'): "
              f"{r['before_students_kernels']} kernels, {r['before_students_gib']:.2f} GiB before any student\n"
              f"  server's figure: {r['kernel_line'].replace('[tokens-edu] ', '')}\n"
              f"  PSS per warm kernel here (min / median / max): {mmm(r['kernel_mib'])} MiB\n"
              f"  {r['usable']} of {args.students} pages usable, every widget drawn: p50 "
              f"{r['p50']:.2f} s, p95 {r['p95']:.2f} s, max {r['max']:.2f} s"
              + (f"; failed: {failed}" if failed else "") + "\n"
              f"  {r['after_students_gib']:.2f} GiB with the class in; stopped in "
              f"{r['stop_s']:.1f} s, printing {r['stop_lines']}", flush=True)
    print(f"\nOver {len(runs)} runs (min / median / max):\n"
          f"  memory, bare server warm:              {mmm(r['bare_gib'] for r in runs)} GiB\n"
          f"  memory before any student (today set): {mmm(r['before_students_gib'] for r in runs)} GiB"
          f" (target < {TARGET_MEMORY_GIB:.0f})\n"
          f"  PSS per warm kernel (median of a run): {mmm(statistics.median(r['kernel_mib']) for r in runs)} MiB\n"
          f"  answering after the start:             {mmm(r['answering_s'] for r in runs)} s\n"
          f"  start page + today's lesson warm after: {mmm(r['class_ready_s'] for r in runs)} s\n"
          f"  {args.students} students, page p50:           {mmm(r['p50'] for r in runs)} s\n"
          f"  {args.students} students, page p95:           {mmm(r['p95'] for r in runs)} s"
          f" (target <= {TARGET_P95_S:.0f})\n"
          f"  usable pages:                          {mmm(r['usable'] for r in runs)} of {args.students}\n"
          f"  stop after Ctrl-C:                     {mmm(r['stop_s'] for r in runs)} s\n"
          f"  load (1 min) when the pages opened:    {mmm(r['load_pages'] for r in runs)}")
    ok = all(r["usable"] == args.students and r["p95"] <= TARGET_P95_S
             and r["before_students_gib"] < TARGET_MEMORY_GIB for r in runs)
    print("Targets met." if ok else "Targets NOT met.")
    return 0 if ok else 1


def memory_main(args, lessons: Path) -> int:
    """A bare ``tokens-edu serve`` left alone ``args.memory_minutes`` minutes: memory every 30 s."""
    with tempfile.TemporaryDirectory(prefix="tokens-class-load-") as tmp:
        port = free_port()
        print(f"Bare 'tokens-edu serve' ({lessons}) for {args.memory_minutes} minutes; load "
              f"{load1():.1f}.", flush=True)
        server = Server(["--lessons", str(lessons)], port, Path(tmp) / "data", args.cli)
        t0 = time.monotonic()
        peak = 0.0
        try:
            while time.monotonic() - t0 < args.memory_minutes * 60:
                server._check()
                gib = tree_pss_mib(server.proc.pid) / 1024
                peak = max(peak, gib)
                print(f"  {(time.monotonic() - t0) / 60:4.1f} min: {gib:.2f} GiB (PSS of the server "
                      f"and {len(kernels_of(server.proc.pid))} kernels); load {load1():.1f}",
                      flush=True)
                time.sleep(30)
        finally:
            server.stop()
    print(f"Peak: {peak:.2f} GiB (target < {TARGET_MEMORY_GIB:.0f} GiB).")
    return 0 if peak < TARGET_MEMORY_GIB else 1


def pool_main(args, lessons: Path, lesson: str) -> int:
    """The older measurement: ``tokens-edu serve --pool-size N --preheat-only LESSON``, then the
    class opens the page at once (``--http`` over HTTP, else in Chromium) or reloads (``--storm``)."""
    n = args.students

    with tempfile.TemporaryDirectory(prefix="tokens-class-load-") as tmp:
        serve_args = ["--lessons", str(lessons)]
        pool = args.pool if args.pool is not None else n
        serve_args += ["--pool-size", str(pool), "--preheat-only", lesson]
        expected = pool
        how = f"a pool of {pool} for {lesson} only"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        mode = f"storm ({args.reloads} reloads each within {args.minute:.0f} s)" if args.storm else "open at once"
        print(f"Lesson {lesson}; {n} students, {mode}; server: {how}; port {port}", flush=True)
        load = open("/proc/loadavg").read().split()[:3]
        print(f"Machine load before: {' '.join(load)} (1, 5, 15 min); "
              f"{psutil.virtual_memory().available / 2**30:.1f} GiB available", flush=True)
        server = Server(serve_args, port, Path(tmp) / "data", args.cli)
        try:
            server.wait_answering(120)
            for line in server.lines[:6]:
                if "can hold" in line or "Warm kernels:" in line:
                    print("  serve: " + line, flush=True)
            warm = server.wait_warm(expected, args.timeout)
            print(f"Pool warm after {warm:.1f} s ({len(kernels_of(server.proc.pid))} kernels; "
                  f"{tree_pss_mib(server.proc.pid) / 1024:.2f} GiB PSS)", flush=True)
            url = f"{base}/voila/render/{urllib.parse.quote(lesson)}"
            if args.storm:
                figures = storm(base, url, n, args.reloads, args.minute, server.proc.pid, 300)
                results = [(t, outcome == "ok") for t, outcome in figures["loads"]]
            else:
                opener = open_pages_http if args.http else open_pages_browser
                cpu_before = cpu_split(server.proc.pid)
                results = opener(url, n, 300)
                cpu_after = cpu_split(server.proc.pid)
                figures = None
                cpu = cpu_used(cpu_before, cpu_after)
            time.sleep(2)  # let the served kernels finish their last cells before measuring
            pss = {k.pid: pss_mib(k.pid) for k in kernels_of(server.proc.pid)}
        finally:
            server.stop()

    times = sorted(t for t, ok in results if ok)
    failed = sum(1 for _, ok in results if not ok)
    if not args.storm:
        print("Each page (s): " + ", ".join(f"{t:.1f}" if ok else "failed" for t, ok in results))
        print(f"CPU used while the pages loaded: server {cpu['server']:.2f} s, kernels "
              f"{cpu['kernels']:.2f} s (the part of the figures that a shared machine does not change;"
              f" warm kernels starting meanwhile count too, --refill-delay keeps them out; kernels"
              f" stopped meanwhile do not)")
    print(f"Usable pages: {len(times)} of {len(results)}" + (f" ({failed} failed or without widgets)"
                                                              if failed else ""))
    ok = failed == 0 and bool(times)
    if times:
        p50 = statistics.median(times)
        p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]
        print(f"Page time: p50 {p50:.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s"
              + ("" if args.storm else f" (target p95 <= {TARGET_P95_S:.0f} s)"))
        ok = ok and (args.storm or p95 <= TARGET_P95_S)
    if figures is not None:
        pool = expected if expected is not None else None
        print(f"Peak kernels: {figures['peak_kernels']}; peak memory (PSS of server and kernels): "
              f"{figures['peak_pss'] / 1024:.2f} GiB; kernels 30 s after the storm: {figures['left']}"
              + (f" (target: peak <= students + pool = {n + pool})" if pool is not None else ""))
        if pool is not None:
            ok = ok and figures["peak_kernels"] <= n + pool
    kernel_pss = [v for v in pss.values() if v is not None]
    if kernel_pss:
        print(f"PSS per kernel: median {statistics.median(kernel_pss):.1f} MiB, "
              f"max {max(kernel_pss):.1f} MiB over {len(kernel_pss)} kernels "
              f"(target <= {TARGET_PSS_MIB:.0f} MiB)")
        ok = ok and max(kernel_pss) <= TARGET_PSS_MIB
    print("Targets met." if ok else "Targets NOT met.")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the figures; 0 when the targets are met."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of the default measurement (3)")
    ap.add_argument("--students", type=int, default=30, help="students (30)")
    ap.add_argument("--lessons", type=Path, default=ROOT / "lessons", help="lessons folder")
    ap.add_argument("--lesson", default="01-read-a-card", help="today's lesson (01-read-a-card)")
    ap.add_argument("--memory-minutes", type=float, default=None,
                    help="watch a bare serve's memory this many minutes instead")
    ap.add_argument("--pool", type=int, default=None,
                    help="the older measurement: a warm pool of N for the lesson only")
    ap.add_argument("--http", action="store_true", help="(with --pool) pages over HTTP, no browser")
    ap.add_argument("--storm", action="store_true", help="(with --pool) the reload storm")
    ap.add_argument("--reloads", type=int, default=3, help="reloads per student (storm; 3)")
    ap.add_argument("--minute", type=float, default=60.0,
                    help="seconds the reloads are spread over (storm; 60)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds to wait for warm kernels")
    ap.add_argument("--log", action="store_true", help="print the server's console after each run")
    ap.add_argument("--install", action="store_true",
                    help="first install the kit into a new venv (no extras) and serve from it: "
                         "the start figures are then the start after an install")
    ap.add_argument("--cli", type=Path, default=None,
                    help="the tokens-edu command of an install to measure (default: this checkout)")
    args = ap.parse_args(argv)
    args.install_s = None
    lessons = args.lessons.resolve()
    lesson = args.lesson if args.lesson.endswith(".ipynb") else args.lesson + ".ipynb"
    if not (lessons / lesson).is_file():
        print(f"No lesson {lesson!r} in {lessons}.")
        return 2
    if args.install:
        with tempfile.TemporaryDirectory(prefix="tokens-class-install-") as tmp:
            args.cli, args.install_s = fresh_install(Path(tmp))
            return run(args, lessons, lesson)
    return run(args, lessons, lesson)


def run(args, lessons: Path, lesson: str) -> int:
    """The measurement the options ask for."""
    if args.memory_minutes:
        return memory_main(args, lessons)
    if args.pool is not None or args.http or args.storm:
        return pool_main(args, lessons, lesson)
    return bare_main(args, lessons, lesson)


if __name__ == "__main__":
    sys.exit(main())
