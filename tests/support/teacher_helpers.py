"""Helpers for the teacher tools' browser and command tests: servers in subprocesses, Chromium.

Tests import this as ``from teacher_helpers import ...`` (pytest puts ``tests/`` on
``sys.path``). Chromium is Debian's (``/usr/bin/chromium``, or ``TOKENS_EDU_CHROMIUM``); a test
that needs it fails when it is missing, naming the command that installs it (``needs.missing``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
from needs import missing

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TOKENS_EDU_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-dev-shm-usage"]


def need_chromium() -> str:
    """The Chromium path; fail the calling test when it is missing (``needs.missing``)."""
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return CHROMIUM
    missing(f"Chromium is not at {CHROMIUM} (Debian's chromium package)")


def launch(playwright):
    return playwright.chromium.launch(executable_path=need_chromium(), args=LAUNCH_ARGS)


def only_loopback(route) -> None:
    """Abort every request that does not go to this machine."""
    host = urlparse(route.request.url).hostname or ""
    if host in ("127.0.0.1", "localhost", "::1"):
        route.continue_()
    else:
        route.abort()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tokens_edu_command() -> list[str]:
    """How to run ``tokens-edu``: the console script next to this Python, else ``-c``."""
    script = Path(sys.executable).with_name("tokens-edu")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from tokens_edu.cli import main; sys.exit(main())"]


def clean_env(data_dir: Path, **extra) -> dict:
    env = dict(os.environ, TOKENS_EDU_DATA=str(data_dir), **extra)
    env.pop("JUPYTERHUB_USER", None)
    env.pop("TOKENS_EDU_DB_URL", None)
    return env


class Proc:
    """A ``tokens-edu`` command in a subprocess (its own session); stopped by its own pid."""

    def __init__(self, args: list[str], env: dict, log_path: Path):
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(tokens_edu_command() + args, cwd=ROOT, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def text(self) -> str:
        return self.log_path.read_text()

    def wait_for_url(self, url: str, timeout: float = 120) -> None:
        """Wait until ``url`` answers (any HTTP status)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the command stopped:\n{self.text()[-3000:]}")
            try:
                with urllib.request.urlopen(url, timeout=30):
                    return
            except urllib.error.HTTPError:
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        raise AssertionError(f"{url} did not answer in {timeout} s:\n{self.text()[-3000:]}")

    def stop(self, sig=signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this test started
                self.proc.wait(timeout=10)
        self.log.close()
        return self.proc.returncode
