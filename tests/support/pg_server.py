"""A throwaway PostgreSQL server for the tests (Debian's PostgreSQL, on loopback).

``PostgresServer.start()`` makes a new data directory in a temporary folder, starts
``postgres`` on a free port of 127.0.0.1 (password logins only over TCP; the Unix socket lives in
the data directory), and ``stop()`` stops it and deletes the folder. ``deploy/install-test-needs.sh`` installs
Debian's ``postgresql`` package when it is missing; the binaries are found in
``TOKENS_EDU_PG_BINDIR``, on ``PATH``, or in ``/usr/lib/postgresql/<version>/bin``.

PostgreSQL refuses to run as root, so as root (CI) the server runs as the ``postgres`` user
that the Debian package makes.

A missing part fails the test, naming the command that installs it (see :func:`need`).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from needs import missing

SUPERUSER = "postgres"


def need(ok: bool, what: str) -> None:
    """Fail the test when a part it needs is missing, naming the command (``needs.missing``)."""
    if not ok:
        missing(what)


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    candidates = []
    if os.environ.get("TOKENS_EDU_PG_BINDIR"):
        candidates.append(Path(os.environ["TOKENS_EDU_PG_BINDIR"]))

    def version(path: str) -> float:
        try:
            return float(Path(path).parent.name)
        except ValueError:
            return 0.0

    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version,
                                           reverse=True)]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(os.path.realpath(on_path)).parent)
    for folder in candidates:
        if all((folder / exe).is_file() for exe in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One running PostgreSQL server for a test session.

    Attributes:
        port: its TCP port on 127.0.0.1.
        password: the superuser's password (the superuser is ``postgres``).
    """

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.password = secrets.token_urlsafe(16)
        self.port = 0
        self.root = Path(tempfile.mkdtemp(prefix="tokens-edu-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._user = None
        if os.geteuid() == 0:
            try:
                self._user = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.root, ignore_errors=True)
                raise RuntimeError("Running as root, and there is no 'postgres' user to run "
                                   "PostgreSQL as (Debian's postgresql package makes it).") from None
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._user is not None:
            cmd = ["runuser", "-u", self._user.pw_name, "--", *cmd]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=self.root)
        if check and out.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {out.stdout}\n{out.stderr}\n{log}")
        return out

    def start(self) -> PostgresServer:
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if self._user is not None:
            os.chown(pwfile, self._user.pw_uid, self._user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, f"--pwfile={pwfile}",
                  "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        pwfile.unlink()
        last = None
        for _ in range(5):  # another process may take the free port first: try another one
            self.port = free_port()
            opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} "
                    "-c max_connections=300 -c fsync=off -c full_page_writes=off")
            out = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                            "-o", opts, "start", check=False)
            if out.returncode == 0:
                return self
            last = out.stdout + out.stderr + (self.log.read_text(errors="replace")[-2000:]
                                                if self.log.exists() else "")
            time.sleep(0.5)
        raise RuntimeError(f"PostgreSQL did not start: {last}")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        """A SQLAlchemy URL (psycopg 3) for ``database`` as ``user``, with no password in it."""
        return f"postgresql+psycopg://{user}@127.0.0.1:{self.port}/{database}"

    def admin_engine(self, database: str = "postgres"):
        """A SQLAlchemy Engine logged in as the superuser (autocommit, no pooling)."""
        import sqlalchemy as sa
        from sqlalchemy.pool import NullPool

        return sa.create_engine(self.url(database), poolclass=NullPool,
                                isolation_level="AUTOCOMMIT",
                                connect_args={"password": self.password})

    def create_database(self, name: str | None = None) -> str:
        """Make a new empty database; returns its name."""
        import sqlalchemy as sa

        name = name or f"t_{secrets.token_hex(6)}"
        engine = self.admin_engine()
        with engine.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        engine.dispose()
        return name


def start_server() -> PostgresServer:
    """Start a server, or fail/skip (see :func:`need`) when PostgreSQL or psycopg is missing."""
    bindir = find_bindir()
    need(bindir is not None, "PostgreSQL's server programs (initdb, pg_ctl, postgres) are not installed")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        need(False, "the psycopg package is not installed (pip install 'tokens-edu[postgres]')")
    return PostgresServer(bindir).start()
