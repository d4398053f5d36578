"""N students log in to JupyterHub and open a lesson at the same moment; how long until the
page is usable, and how much memory each student's server takes.

Runs the real stack on this machine, as tests/test_hub.py does: a throwaway PostgreSQL, the
school's deploy/jupyterhub/jupyterhub_config.py (with the DummyAuthenticator and the
SimpleLocalProcessSpawner), configurable-http-proxy, and Chromium.

For each student, timed from the moment all start together:
  login     the Hub's login form is sent (the Hub then starts the student's server)
  usable    the lesson page shows its Discuss box (widgets drawn, the kernel connected)
It prints p50/p95/max of "usable", and the memory of each student's processes (the standalone
proxy, Voila and the lesson's kernel) as PSS (shared pages split between the processes that
share them), per student, plus the Hub and its proxy once.

    .venv/bin/python benchmarks/hub_load.py              # 20 students, lesson 01
    .venv/bin/python benchmarks/hub_load.py -n 30 --lesson 03-task-and-audit.ipynb
    .venv/bin/python benchmarks/hub_load.py --http       # no browser: time to the full HTML

With --http, "usable" is the whole lesson page received (Voila has run every cell); a browser
then needs about 1-3 s more to draw the widgets.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hub_harness import Hub, missing_parts  # noqa: E402
from pg_server import find_bindir, PostgresServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-dev-shm-usage"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


async def one_student_browser(browser, hub, name, lesson, start, results):
    context = await browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(600_000)  # a crowded machine is slow, not broken

    async def only_loopback(route):
        from urllib.parse import urlparse

        if (urlparse(route.request.url).hostname or "") in ("127.0.0.1", "localhost"):
            await route.continue_()
        else:
            await route.abort()

    await context.route("**/*", only_loopback)
    page = await context.new_page()
    await start.wait()
    t0 = time.monotonic()
    try:
        await page.goto(f"{hub.url}/hub/login", timeout=600_000)
        await page.fill("input[name=username]", name)
        await page.fill("input[name=password]", hub.password)
        await page.click("[type=submit]")  # the Hub starts the server ("spawn pending" page)
        # then the lesson's address, as a student would reload it until it opens (the spawn
        # page's own refresh can be missed on a crowded machine)
        lesson_url = f"{hub.url}/user/{name}/voila/render/{lesson}"
        while True:
            await page.goto(lesson_url, timeout=600_000)
            if re.match(rf".*/user/{name}/voila/render/", page.url):
                break
            if time.monotonic() - t0 > 600:
                raise TimeoutError(f"still at {page.url}")
            await asyncio.sleep(2)
        await page.wait_for_selector(".tokens-discuss-answer textarea", timeout=600_000)
        results[name] = time.monotonic() - t0
    except Exception as e:  # a page that never became usable is reported, not hidden
        results[name] = None
        print(f"  {name}: no usable page ({type(e).__name__}: {str(e)[:120]})", flush=True)
    return context


async def run_browser(hub, n, lesson):
    from playwright.async_api import async_playwright

    results: dict = {}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        start = asyncio.Event()
        tasks = [asyncio.create_task(one_student_browser(browser, hub, f"s{k:03d}", lesson, start,
                                                         results)) for k in range(n)]
        await asyncio.sleep(1)
        start.set()
        contexts = await asyncio.gather(*tasks)
        mem = measure_memory(hub)  # while every page is open
        for c in contexts:
            await c.close()
        await browser.close()
    return results, mem


def one_student_http(hub, name, lesson, start, results):
    import requests

    s = requests.Session()
    start.wait()
    t0 = time.monotonic()
    try:
        s.get(f"{hub.url}/hub/login", timeout=600)
        s.post(f"{hub.url}/hub/login?next=", timeout=600,
               data={"username": name, "password": hub.password, "_xsrf": s.cookies.get("_xsrf")})
        deadline = t0 + 600
        while time.monotonic() < deadline:
            r = s.get(f"{hub.url}/user/{name}/voila/render/{lesson}", timeout=600)
            if r.status_code == 200 and "vnd.voila.cell-output" in r.text:
                results[name] = time.monotonic() - t0
                return
            time.sleep(0.5)
        results[name] = None
    except Exception as e:
        results[name] = None
        print(f"  {name}: {type(e).__name__}: {e}", flush=True)


def run_http(hub, n, lesson):
    import threading

    results: dict = {}
    start = threading.Event()
    threads = [threading.Thread(target=one_student_http, args=(hub, f"s{k:03d}", lesson, start,
                                                               results)) for k in range(n)]
    for t in threads:
        t.start()
    time.sleep(1)
    start.set()
    for t in threads:
        t.join()
    return results, measure_memory(hub)


def measure_memory(hub) -> dict:
    """PSS (MiB) of each student's process tree, and of the Hub, its proxy and services."""
    import psutil

    per_student: dict[str, float] = {}
    cpu: dict[str, float] = {}
    hub_side = 0.0
    for proc in psutil.Process(hub.proc.pid).children(recursive=True) + [psutil.Process(hub.proc.pid)]:
        try:
            pss = proc.memory_full_info().pss / 2**20
            env = proc.environ()
            times = proc.cpu_times()
            cmd = " ".join(proc.cmdline())
        except psutil.Error:
            continue
        user = env.get("JUPYTERHUB_USER")
        if user and "JUPYTERHUB_SERVER_NAME" in env:  # a student's server or its kernels
            per_student[user] = per_student.get(user, 0.0) + pss
            kind = ("kernel" if "ipykernel" in cmd else "proxy" if "standaloneproxy" in cmd
                    else "voila" if "-m voila" in cmd else "other")
            cpu[kind] = cpu.get(kind, 0.0) + times.user + times.system
        else:
            hub_side += pss
    return {"per_student": per_student, "hub_side": hub_side, "cpu": cpu}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--students", type=int, default=20)
    ap.add_argument("--lesson", default="01-read-a-card.ipynb")
    ap.add_argument("--http", action="store_true", help="no browser: time to the whole page HTML")
    args = ap.parse_args(argv)

    missing = missing_parts()
    bindir = find_bindir()
    if bindir is None:
        missing.append("PostgreSQL (apt-get install postgresql)")
    if not args.http and not Path(CHROMIUM).exists():
        missing.append(f"Chromium at {CHROMIUM} (or use --http)")
    if missing:
        print("Cannot run: missing " + "; ".join(missing), file=sys.stderr)
        return 2

    pg = PostgresServer(bindir).start()
    root = Path(tempfile.mkdtemp(prefix="tokens-edu-hubload-"))
    hub = Hub(pg, root, idle_timeout=3600)
    try:
        hub.start()
        print(f"{args.students} students log in and open {args.lesson} at once "
              f"({'whole page HTML' if args.http else 'Chromium, Discuss box drawn'})...", flush=True)
        t0 = time.monotonic()
        if args.http:
            results, mem = run_http(hub, args.students, args.lesson)
        else:
            results, mem = asyncio.run(run_browser(hub, args.students, args.lesson))
        wall = time.monotonic() - t0
        ok = [v for v in results.values() if v is not None]
        failed = args.students - len(ok)
        print(f"usable pages: {len(ok)} of {args.students} (all done after {wall:.1f} s)")
        if ok:
            print(f"time to a usable page: p50 {statistics.median(ok):.1f} s, "
                  f"p95 {pct(ok, 95):.1f} s, min {min(ok):.1f} s, max {max(ok):.1f} s")
        per = list(mem["per_student"].values())
        if per:
            print(f"memory per student (PSS of proxy + Voila + kernel): median "
                  f"{statistics.median(per):.0f} MiB, max {max(per):.0f} MiB, "
                  f"all students {sum(per):.0f} MiB")
        print(f"the Hub, its proxy and its services (once): {mem['hub_side']:.0f} MiB")
        if per and mem["cpu"]:
            n = len(per)
            parts = ", ".join(f"{k} {v / n:.1f} s" for k, v in sorted(mem["cpu"].items()))
            print(f"CPU time per student so far: {sum(mem['cpu'].values()) / n:.1f} s ({parts})")
        return 0 if failed == 0 else 1
    finally:
        hub.stop()
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
