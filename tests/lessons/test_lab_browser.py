"""The card table works in JupyterLab too (not only in Voila): a real Chromium opens a notebook
in ``jupyter lab``, runs it, and plays on the table.

The card table is an anywidget whose front end ships inside the package (no CDN, no lab
extension to install). This test starts JupyterLab on a temporary folder holding one small
notebook (lesson 3's "Scoring exposes you" position on a GameView), runs all its cells from the
page, clicks "Task" on the student's card, ends the turn, and waits for the computer to play its
whole turn by itself and give the move back. Requests that leave this machine are aborted.

Like the other browser tests it fails (never skips) in CI when Chromium is missing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from teacher_helpers import need_chromium, free_port, launch, only_loopback
from pages import VIEWPORT

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "lessons" / "scenarios" / "03-task-exposes.yaml"


def notebook(path: Path) -> None:
    code = ("from tokens_edu import Game\n"
            "from tokens_edu.widgets import GameView\n"
            f"view = GameView(Game.from_scenario({str(SCENARIO)!r}), seats=('human', 'greedy'), delay_ms=200)\n"
            "view")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "table", "metadata": {},
                     "outputs": [], "source": code}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    need_chromium()
    folder = tmp_path_factory.mktemp("lab")
    notebook(folder / "table.ipynb")
    port = free_port()
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [str(jupyter) if jupyter.exists() else sys.executable, *([] if jupyter.exists() else ["-m", "jupyter"]),
           "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1", "--ServerApp.token=",
           "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
           f"--ServerApp.root_dir={folder}", "--ServerApp.open_browser=False"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(folder / "lab.log", "w")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(folder / "config"), JUPYTER_RUNTIME_DIR=str(folder / "runtime"))
    proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise AssertionError("jupyter lab stopped:\n" + (folder / "lab.log").read_text()[-3000:])
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=10):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise AssertionError("jupyter lab did not answer:\n" + (folder / "lab.log").read_text()[-3000:])
                time.sleep(0.5)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the group this test started
                proc.wait(timeout=10)
        log.close()


def test_the_card_table_plays_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        try:
            context = browser.new_context(viewport=VIEWPORT)
            context.route("**/*", only_loopback)
            page = context.new_page()
            page.set_default_timeout(240_000)  # JupyterLab's first load is slow on a busy 2-core machine
            page.goto(f"{lab}/lab/tree/table.ipynb")
            page.wait_for_function("() => window.jupyterapp && document.querySelector('.jp-Notebook .jp-Cell')")
            # run the notebook from the page (the run waits for the kernel to be ready)
            # once the kernel is up (the status bar says Idle); not awaited: the command's promise
            # ends only when the kernel has run the cell
            page.wait_for_function("() => /\\|\\s*Idle/.test(document.querySelector('.jp-StatusBar-Widget, #jp-main-statusbar')"
                                   " ? document.querySelector('#jp-main-statusbar').innerText : '')")
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); return true; }")
            table = page.locator(".jp-OutputArea .tokens-table")
            task = table.locator(".tt-slot:has(.tt-card[data-id='Classifier']) .tt-quick-task")
            task.wait_for(state="visible")
            assert "Your turn" in table.locator(".tokens-status").inner_text()
            assert table.locator(".tt-side-top .tt-hand-backs").count() == 1  # the computer's hand: backs
            task.click()  # one click: Classifier Runs a Task
            table.locator(".tt-card.tt-sideways[data-id='Classifier']").wait_for()
            # 6 + Classifier's 2 (the number counts up for up to 400 ms: expect waits for it)
            expect(table.locator(".tt-side-bottom .tt-tokens b")).to_have_text("8")
            assert table.locator(".tokens-step").inner_text().startswith("Turn 5")
            table.locator(".tt-panel .tt-end").click()
            # the computer plays its whole turn by itself (no Next click), then it is our move again
            page.wait_for_function(
                "() => { const t = document.querySelector('.jp-OutputArea .tokens-table');"
                " const step = (t.querySelector('.tokens-step') || {}).textContent || '';"
                " return t.querySelector('.tt-panel .tt-end') && !step.startsWith('Turn 5') &&"
                " (t.querySelector('.tokens-status') || {}).textContent === 'Your turn'; }")
            assert "Computer ends the turn" in table.locator(".tt-panel").inner_text()
            context.close()
        finally:
            browser.close()
