"""A real JupyterHub on loopback with deploy/jupyterhub/jupyterhub_config.py, for the tests and
benchmarks/hub_load.py.

The school's config is loaded as is; a small config on top swaps only what a test machine
cannot have: the DummyAuthenticator (any password; the Hub's own test authenticator) and
the SimpleLocalProcessSpawner (every student's server runs as this Unix user, in a home folder
of its own), free ports, and a throwaway Hub database. The proxy is configurable-http-proxy
from npm (``deploy/install-test-needs.sh`` installs it). Answers go to the PostgreSQL server given.
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

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def missing_parts() -> list[str]:
    """What this machine lacks to run the Hub (empty when all is there)."""
    missing = []
    if not shutil.which("configurable-http-proxy"):
        missing.append("configurable-http-proxy (npm install -g configurable-http-proxy)")
    for exe in ("jupyterhub", "jupyter-standaloneproxy"):
        if not (BIN / exe).exists():
            missing.append(f"{exe} (pip install 'tokens-edu[hub]')")
    try:
        import jupyterhub_idle_culler  # noqa: F401
    except ImportError:
        missing.append("jupyterhub-idle-culler (pip install 'tokens-edu[hub]')")
    return missing


class Hub:
    """One JupyterHub process (and its proxy, its services and the students' servers).

    Args:
        postgres: a running tests/pg_server.PostgresServer.
        root: an empty folder for the Hub's files.
        teachers: logins in the ``teachers`` group.
        idle_timeout: the idle culler's timeout (seconds).
    """

    def __init__(self, postgres, root: Path, teachers=("ms_t",), idle_timeout: int = 1800,
                 last_activity_interval: int = 300):
        from pg_server import SUPERUSER  # noqa: F401  (tests/ is on sys.path)

        import sqlalchemy as sa

        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.password = "pw-" + os.urandom(6).hex()  # the Hub login's password (ignored by Dummy)
        # the school's answers database, owned by a Hub login that may create roles
        self.db = postgres.create_database()
        self.hub_db_password = os.urandom(12).hex()
        admin = postgres.admin_engine()
        with admin.connect() as conn:
            conn.execute(sa.text(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokens_hub') "
                "THEN CREATE ROLE tokens_hub LOGIN CREATEROLE; END IF; END $$"))
            conn.execute(sa.text(f"ALTER ROLE tokens_hub PASSWORD '{self.hub_db_password}'"))
            conn.execute(sa.text(f'ALTER DATABASE "{self.db}" OWNER TO tokens_hub'))
        with postgres.admin_engine(self.db).connect() as conn:
            conn.execute(sa.text("ALTER SCHEMA public OWNER TO tokens_hub"))
        admin.dispose()
        self.postgres = postgres
        pwfile = root / "db-password"
        pwfile.write_text(self.hub_db_password)
        pwfile.chmod(0o600)
        (root / "homes").mkdir()
        test_config = root / "test_config.py"
        test_config.write_text(
            "c = get_config()\n"
            f"load_subconfig({str(CONFIG)!r})\n"
            "c.JupyterHub.authenticator_class = 'dummy'\n"
            "c.JupyterHub.spawner_class = 'simple'\n"
            f"c.SimpleLocalProcessSpawner.home_dir_template = {str(root / 'homes' / '{username}')!r}\n"
            f"c.JupyterHub.hub_port = {free_port()}\n"
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{free_port()}'\n"
            f"c.JupyterHub.db_url = 'sqlite:///{root / 'hub.sqlite'}'\n"
            f"c.JupyterHub.cookie_secret_file = {str(root / 'cookie_secret')!r}\n"
            f"c.ConfigurableHTTPProxy.pid_file = {str(root / 'proxy.pid')!r}\n"
            f"c.JupyterHub.last_activity_interval = {last_activity_interval}\n"
        )
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("JUPYTERHUB_", "TOKENS_EDU_", "VOILA_")) and k != "PGPASSWORD"}
        self.env.update({
            "TOKENS_EDU_DB_URL": postgres.url(self.db, user="tokens_hub"),
            "TOKENS_EDU_DB_PASSWORD_FILE": str(pwfile),
            "TOKENS_EDU_HUB_URL": self.url,
            "TOKENS_EDU_TEACHERS": ",".join(teachers),
            "TOKENS_EDU_IDLE_TIMEOUT": str(idle_timeout),
            "TOKENS_EDU_DASHBOARD_PORT": str(free_port()),
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        })
        self.log_path = root / "hub.log"
        self.proc = None

    def start(self, timeout: float = 90) -> Hub:
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen([str(BIN / "jupyterhub"), "-f", str(self.root / "test_config.py")],
                                     cwd=self.root, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"JupyterHub stopped:\n{self.log()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/api", timeout=10) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        raise AssertionError(f"JupyterHub did not answer in {timeout} s:\n{self.log()[-4000:]}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """Stop the Hub (it stops the proxy, the services and every student's server)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this harness started
                self.proc.wait(timeout=10)
        self._log.close()
