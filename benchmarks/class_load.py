"""A class opens a lesson at once, and a class reloads: page times, kernels and memory.

Starts ``tokens-edu serve`` on a free port (a temporary answers folder), waits until its warm
kernels are ready, then plays one of these:

* **open** (the default): N students open the lesson page at the same moment (threads with
  urllib, each with its own ``?student=``). A page is usable when its HTML with the widget
  outputs (``vnd.voila.cell-output+json``) has arrived. Prints p50/p95/max page time.
* **storm** (``--storm``): N students open the page, then each reloads it ``--reloads`` times at
  random moments within ``--minute`` seconds, as a browser does: the page's shutdown call (the
  ``beforeunload`` beacon, with the page's ``_xsrf`` cookie), then the page again; each open page
  also holds its kernel's websocket, as a browser does. Prints p50/p95/max of every page load,
  pages that failed or arrived without widgets, the peak number of kernels and the peak memory of
  the server and its kernels (PSS), and the kernels left 30 s after the storm (the pool plus the
  pages still open, when nothing leaks).

How the server is started:

* by default with a warm pool as big as the class for the chosen lesson only
  (``--pool-size N --preheat-only LESSON``), the way a teacher who knows today's lesson starts it;
* ``--defaults``: a plain ``tokens-edu serve`` with no pool options at all (the server sizes its
  pools from memory); the benchmark waits until every warm kernel of every lesson is ready;
* ``--all-lessons``: a pool for every lesson, ``--pool-size`` each (serve's default when not given).

``--no-wait`` opens the pages as soon as the server answers (a class arriving right after the
teacher starts the server). To compare with another version, run the benchmark from that
version's folder so ``-m tokens_edu.cli`` finds it first: ``git archive REV | tar -x -C /tmp/old``,
then ``cd /tmp/old && PYTHONPATH=/tmp/old /path/to/.venv/bin/python /path/to/benchmarks/class_load.py
--lessons /tmp/old/lessons``. ``--cli FILE`` runs an older ``cli.py`` written as a script (one that
uses relative imports fails that way). ``--browser`` (open mode only) uses real Chromium pages, usable when
the first widget is drawn; they all run on this one machine, so use a few students there.

Targets (issue 8): open p95 <= 3 s; storm: peak kernels <= students + warm pool, no page missing
its widgets; PSS <= 90 MiB per kernel. Exit code 1 when one is missed.

Usage::

    .venv/bin/python benchmarks/class_load.py [--students 30] [--lesson 03-task-and-audit]
        [--defaults | --all-lessons | --pool-size N] [--storm [--reloads 3] [--minute 60]]
        [--no-wait] [--cli FILE] [--lessons DIR] [--browser]

Needs Linux (``/proc``). The machine's other work shows in the figures: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
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
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
MARKER = "vnd.voila.cell-output+json"
TARGET_P95_S = 3.0
TARGET_PSS_MIB = 90.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny_lessons(folder: Path) -> Path:
    """Write a one-widget notebook ``tiny.ipynb`` in ``folder``; return the folder."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import ipywidgets as w\nw.Button(description='Hello')")]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / "tiny.ipynb")
    return folder


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


class Server:
    """``tokens-edu serve`` in a child process; its output is collected line by line."""

    def __init__(self, args: list[str], port: int, data: Path, cli: Path | None = None):
        self.port = port
        self.lines: list[str] = []
        program = ["-m", "tokens_edu.cli"] if cli is None else [str(cli)]
        self.proc = subprocess.Popen(
            [sys.executable, *program, "serve", "--port", str(port), "--data-dir", str(data),
             *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the figures; 0 when the targets are met."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30, help="students (30)")
    ap.add_argument("--pool-size", type=int, default=None,
                    help="warm kernels per lesson (default: students, or serve's own sizing "
                         "with --defaults / --all-lessons)")
    ap.add_argument("--lessons", type=Path, default=ROOT / "lessons", help="lessons folder")
    ap.add_argument("--lesson", default=None, help="lesson notebook name (default: the first)")
    ap.add_argument("--refill-delay", type=int, default=None,
                    help="seconds before a taken warm kernel is replaced (default: serve's)")
    ap.add_argument("--defaults", action="store_true",
                    help="a plain 'tokens-edu serve' with no pool options")
    ap.add_argument("--all-lessons", action="store_true",
                    help="a pool for every lesson (--pool-size each, or serve's default)")
    ap.add_argument("--storm", action="store_true", help="the reload storm instead")
    ap.add_argument("--reloads", type=int, default=3, help="reloads per student (storm; 3)")
    ap.add_argument("--minute", type=float, default=60.0,
                    help="seconds the reloads are spread over (storm; 60)")
    ap.add_argument("--browser", action="store_true", help="open mode with real Chromium pages")
    ap.add_argument("--no-wait", action="store_true",
                    help="open the pages as soon as the server answers (pools still warming)")
    ap.add_argument("--cli", type=Path, default=None,
                    help="run this cli.py instead of tokens_edu.cli (compare versions)")
    ap.add_argument("--timeout", type=float, default=1200, help="seconds to wait for the pool")
    args = ap.parse_args(argv)
    n = args.students

    with tempfile.TemporaryDirectory(prefix="tokens-class-load-") as tmp:
        lessons = args.lessons.resolve() if args.lessons.is_dir() else None
        names = sorted(p.name for p in lessons.glob("*.ipynb")) if lessons else []
        if not names:
            lessons, names = tiny_lessons(Path(tmp) / "lessons"), ["tiny.ipynb"]
        lesson = args.lesson or names[0]
        if not lesson.endswith(".ipynb"):
            lesson += ".ipynb"
        if lesson not in names:
            print(f"No lesson {lesson!r} in {lessons}. The lessons are: {', '.join(names)}.")
            return 2
        serve_args = ["--lessons", str(lessons)]
        expected = None
        if args.defaults:
            how = "plain 'tokens-edu serve' (pools sized by serve)"
            if args.cli is not None:  # an older serve: a fixed pool per lesson, said in its file
                m = re.search(r"^DEFAULT_POOL = (\d+)", args.cli.read_text(), re.M)
                if m:
                    expected = int(m.group(1)) * len(names)
                    how += f": {m.group(1)} per lesson"
        elif args.all_lessons:
            if args.pool_size is not None:
                serve_args += ["--pool-size", str(args.pool_size)]
                expected = args.pool_size * len(names)
            how = f"a pool of {args.pool_size or 'serve default'} for every lesson"
        else:
            pool = args.pool_size if args.pool_size is not None else n
            serve_args += ["--pool-size", str(pool), "--preheat-only", lesson]
            expected = pool
            how = f"a pool of {pool} for {lesson} only"
        if args.refill_delay is not None:
            serve_args += ["--refill-delay", str(args.refill_delay)]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        mode = f"storm ({args.reloads} reloads each within {args.minute:.0f} s)" if args.storm else "open at once"
        print(f"Lesson {lesson}; {n} students, {mode}; server: {how}; port {port}"
              f"{'; cli ' + str(args.cli) if args.cli else ''}", flush=True)
        load = open("/proc/loadavg").read().split()[:3]
        print(f"Machine load before: {' '.join(load)} (1, 5, 15 min); "
              f"{psutil.virtual_memory().available / 2**30:.1f} GiB available", flush=True)
        server = Server(serve_args, port, Path(tmp) / "data", args.cli)
        try:
            server.wait_answering(120)
            for line in server.lines[:6]:
                if "can hold" in line or "Warm kernels:" in line:
                    print("  serve: " + line, flush=True)
            if args.no_wait:
                print(f"Opening the pages now ({len(kernels_of(server.proc.pid))} kernels so far)")
            else:
                warm = server.wait_warm(expected, args.timeout)
                print(f"Pool warm after {warm:.1f} s ({len(kernels_of(server.proc.pid))} kernels; "
                      f"{tree_pss_mib(server.proc.pid) / 1024:.2f} GiB PSS)", flush=True)
            url = f"{base}/voila/render/{urllib.parse.quote(lesson)}"
            if args.storm:
                figures = storm(base, url, n, args.reloads, args.minute, server.proc.pid, 300)
                results = [(t, outcome == "ok") for t, outcome in figures["loads"]]
            else:
                opener = open_pages_browser if args.browser else open_pages_http
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


if __name__ == "__main__":
    sys.exit(main())
