"""A class opens a lesson at once: page time (p50/p95) and memory per kernel (PSS).

Starts ``tokens-edu serve`` on a free port with a warm kernel pool as big as the class (only for
the chosen lesson), waits until the pool is warm, then N simulated students open the lesson
page at the same moment (threads with urllib, each with its own ``?student=``). A page is
"usable" when its HTML with the widget outputs (``vnd.voila.cell-output+json``) has arrived.
With ``--browser`` the students are real Chromium pages instead (Playwright with Debian's
``/usr/bin/chromium``), usable when the first widget is drawn. All those pages then run on this
one machine, so their times include Chromium's own work for every page (a class has one
computer per student): use a few students there (measured on 2 busy cores: 5 pages ~16 s).

Then it reads the proportional memory (PSS, from ``/proc/<pid>/smaps_rollup``) of every kernel
process under the server, prints everything, and stops the server.

Targets: p95 <= 3 s per page, PSS <= 90 MiB per kernel. Exit code 1 when one is missed.

``--all-lessons`` serves like a plain ``tokens-edu serve`` (a pool for every lesson, not only the
chosen one; the pool size is serve's default unless ``--pool-size`` is given); ``--no-wait`` opens
the pages as soon as the server answers, while the pools are still warming (a class that arrives
right after the teacher starts the server); ``--cli FILE`` runs another copy of ``cli.py`` (to
compare with an older version: ``git show REV:tokens_edu/cli.py > /tmp/old_cli.py``).

Usage::

    .venv/bin/python benchmarks/class_load.py [--students 30] [--lesson 01-read-a-card]
        [--lessons DIR] [--browser] [--all-lessons] [--no-wait] [--cli FILE]

Default lesson: the first ``.ipynb`` in ``lessons/``; with none, a tiny one-widget notebook in a
temporary folder. Needs Linux (``/proc``).
"""

from __future__ import annotations

import argparse
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
    for p in psutil.Process(server_pid).children(recursive=True):
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


class Server:
    """``tokens-edu serve`` in a child process; its stderr is collected line by line."""

    def __init__(self, lessons: Path, lesson: str, pool: int | None, port: int, data: Path,
                 refill_delay: int | None = None, all_lessons: bool = False,
                 cli: Path | None = None):
        self.port = port
        self.lines: list[str] = []
        program = ["-m", "tokens_edu.cli"] if cli is None else [str(cli)]
        self.proc = subprocess.Popen(
            [sys.executable, *program, "serve", "--lessons", str(lessons),
             "--port", str(port), "--data-dir", str(data)]
            + ([] if pool is None else ["--pool-size", str(pool)])
            + ([] if all_lessons else ["--preheat-only", lesson])
            + ([] if refill_delay is None else ["--refill-delay", str(refill_delay)]),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line.rstrip())

    def wait_answering(self, timeout: float) -> float:
        """Wait until the server answers on its port; seconds waited."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise SystemExit("The server stopped:\n" + "\n".join(self.lines[-20:]))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return time.monotonic() - t0
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"The server did not answer after {timeout:.0f} s.")

    def wait_warm(self, lesson: str, pool: int, timeout: float, lessons: int = 1) -> float:
        """Wait until ``pool`` kernels exist for each of ``lessons`` lessons and the server and
        kernels have stopped using CPU.

        Returns:
            float: seconds waited.
        """
        t0 = time.monotonic()
        want = f"Kernel pool of {lesson} is filled"
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise SystemExit("The server stopped:\n" + "\n".join(self.lines[-20:]))
            if (any(want in line for line in self.lines)
                    and len(kernels_of(self.proc.pid)) >= pool * lessons):
                break
            time.sleep(0.5)
        else:
            raise SystemExit(f"The pool was not warm after {timeout:.0f} s.")
        # pre-rendering goes on after the kernels start, in the kernels and in the server (which
        # reads every widget message): wait until their CPU time stops growing
        last = -1.0
        while time.monotonic() - t0 < timeout:
            total = 0.0
            for k in psutil.Process(self.proc.pid).children(recursive=True):
                try:
                    total += sum(k.cpu_times()[:2])
                except psutil.Error:
                    pass
            if last >= 0 and total - last < 0.05:
                break
            last = total
            time.sleep(2)
        return time.monotonic() - t0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


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
        except OSError as e:
            print(f"student {k}: {e}")
            ok = False
        results[k] = (time.monotonic() - t, ok)

    threads = [threading.Thread(target=student, args=(k,)) for k in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def open_pages_browser(url: str, n: int, timeout: float) -> list[tuple[float, bool]]:
    """``n`` Chromium pages open ``url`` at once; usable when a widget is drawn."""
    import asyncio

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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print page times and kernel memory; 0 when the targets are met."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30, help="students opening at once (30)")
    ap.add_argument("--pool-size", type=int, default=None, help="warm kernels (default: students)")
    ap.add_argument("--lessons", type=Path, default=ROOT / "lessons", help="lessons folder")
    ap.add_argument("--lesson", default=None, help="lesson notebook name (default: the first)")
    ap.add_argument("--refill-delay", type=int, default=None,
                    help="seconds before a taken warm kernel is replaced (default: serve's)")
    ap.add_argument("--browser", action="store_true", help="use real Chromium pages")
    ap.add_argument("--all-lessons", action="store_true",
                    help="a pool for every lesson, as a plain 'tokens-edu serve' (pool size: "
                         "serve's default unless --pool-size is given)")
    ap.add_argument("--no-wait", action="store_true",
                    help="open the pages as soon as the server answers (pools still warming)")
    ap.add_argument("--cli", type=Path, default=None,
                    help="run this cli.py instead of tokens_edu.cli (compare versions)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds to wait for the pool")
    args = ap.parse_args(argv)
    n = args.students
    if args.all_lessons and args.pool_size is None:
        from tokens_edu.cli import DEFAULT_POOL

        pool = DEFAULT_POOL if args.cli is None else int(re.search(
            r"^DEFAULT_POOL = (\d+)", args.cli.read_text(), re.M).group(1))
        pool_arg = None
    else:
        pool = pool_arg = args.pool_size if args.pool_size is not None else n

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
        port = free_port()
        print(f"Lesson {lesson} from {lessons}; {n} students; pool {pool}"
              f"{' for every lesson' if args.all_lessons else ''}; port {port}"
              f"{'; cli ' + str(args.cli) if args.cli else ''}")
        server = Server(lessons, lesson, pool_arg, port, Path(tmp) / "data", args.refill_delay,
                        args.all_lessons, args.cli)
        try:
            if args.no_wait:
                up = server.wait_answering(args.timeout)
                print(f"Server answering after {up:.1f} s; opening the pages now "
                      f"({len(kernels_of(server.proc.pid))} kernels so far)")
            else:
                warm = server.wait_warm(lesson, pool, args.timeout,
                                        len(names) if args.all_lessons else 1)
                print(f"Pool warm after {warm:.1f} s ({len(kernels_of(server.proc.pid))} kernels)")
            url = f"http://127.0.0.1:{port}/voila/render/{urllib.parse.quote(lesson)}"
            opener = open_pages_browser if args.browser else open_pages_http
            results = opener(url, n, 120)
            time.sleep(2)  # let the served kernels finish their last cells before measuring
            pss = {k.pid: pss_mib(k.pid) for k in kernels_of(server.proc.pid)}
            server_pss = pss_mib(server.proc.pid)
            voila_pids = [c.pid for c in psutil.Process(server.proc.pid).children()]
            voila_pss = pss_mib(voila_pids[0]) if voila_pids else None
        finally:
            server.stop()

    print("Each page (s): " + ", ".join(f"{t:.1f}" if ok else "failed" for t, ok in results))
    times = sorted(t for t, ok in results if ok)
    failed = sum(1 for _, ok in results if not ok)
    kernel_pss = [v for v in pss.values() if v is not None]
    print(f"Usable pages: {len(times)} of {n}" + (f" ({failed} failed)" if failed else ""))
    ok = failed == 0 and bool(times)
    if times:
        p50 = statistics.median(times)
        p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]
        print(f"Page time: p50 {p50:.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s "
              f"(target p95 <= {TARGET_P95_S:.0f} s)")
        ok = ok and p95 <= TARGET_P95_S
    if kernel_pss:
        print(f"PSS per kernel: median {statistics.median(kernel_pss):.1f} MiB, "
              f"max {max(kernel_pss):.1f} MiB over {len(kernel_pss)} kernels "
              f"(target <= {TARGET_PSS_MIB:.0f} MiB)")
        ok = ok and max(kernel_pss) <= TARGET_PSS_MIB
    if voila_pss is not None:
        print(f"PSS of the Voila server: {voila_pss:.1f} MiB; of the tokens-edu wrapper: "
              f"{server_pss or 0:.1f} MiB")
    print("Targets met." if ok else "Targets NOT met.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
