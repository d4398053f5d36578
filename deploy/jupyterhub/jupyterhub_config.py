"""JupyterHub for tokens-edu on one machine: student logins, each student's own lesson server.

Start it (see docs/deploy.md for the whole set-up):

    TOKENS_EDU_DB_URL=postgresql+psycopg://tokens_hub@127.0.0.1:5432/tokens \\
    TOKENS_EDU_DB_PASSWORD_FILE=/etc/tokens-edu/db-password \\
    TOKENS_EDU_TEACHERS=ms_rivera,mr_chen \\
    jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

What it sets up:

* Each student's server is **Voila on the lessons only**, started by jupyter-server-proxy's
  standalone proxy (``jupyter-standaloneproxy``) instead of ``jupyterhub-singleuser``: there
  is no JupyterLab, code console, terminal or file browser to reach. The proxy checks each
  request's Hub login (OAuth), so only the server's own student gets in.
* Identity: the kernel has ``JUPYTERHUB_USER``; the Discuss box uses that login as the name and
  ignores the name box and ``?student=``.
* Answers go to PostgreSQL: ``TOKENS_EDU_DB_URL`` names the database (no password in it). At
  every start the Hub brings the database up to date with the store's migrations (tables,
  row-level security, group roles: ``tokens_edu.store.logins.prepare_database``), so the Hub's
  Python needs tokens-edu installed (the same environment as the students' servers here). Just
  before a student's server starts, the Hub gives that student's own database login a new
  password (``tokens_edu.store.logins.student_login``) and passes it in the server's environment
  (``TOKENS_EDU_DB_PASSWORD``), never on a command line. Row-level security lets that login
  read and add only that student's rows.
* The idle culler (jupyterhub-idle-culler) stops servers idle for ``TOKENS_EDU_IDLE_TIMEOUT``
  seconds (default 1800), freeing their memory.
* The teacher dashboard (``tokens-edu teacher``) runs as a Hub service at
  ``/services/teacher/`` with the Hub's login (``tokens_edu.teacher.hub_auth``), open only to the
  ``teachers`` group (``TOKENS_EDU_TEACHERS``), reading answers with a read-only teachers' login.

Settings (environment variables of the Hub process):

``TOKENS_EDU_DB_URL``            the answers database as a login that owns it and may create
                                 roles (``CREATEROLE``), e.g. ``postgresql+psycopg://tokens_hub@127.0.0.1/tokens``.
``TOKENS_EDU_DB_PASSWORD_FILE``  a file (mode 600) holding that login's password; or
``TOKENS_EDU_DB_PASSWORD``       the password itself.
``TOKENS_EDU_DB_HOST_FOR_USERS`` the database host as the students' servers reach it
                                 (default: the host in the URL).
``TOKENS_EDU_PYTHON``            the Python of the students' environment (default: this one).
``TOKENS_EDU_LESSONS``           the lessons folder (default: the lessons installed with tokens-edu).
``TOKENS_EDU_TEACHERS``          comma-separated logins of the teachers.
``TOKENS_EDU_ADMINS``            comma-separated logins of Hub admins (default: the teachers).
``TOKENS_EDU_IDLE_TIMEOUT``      seconds before an idle student server is stopped (default 1800).
``TOKENS_EDU_HUB_URL``           where the Hub listens (default ``http://127.0.0.1:8000``; put
                                 HTTPS in front of it, e.g. nginx or Caddy, for a real school).

The authenticator is left to the school (LDAP, OAuth with the school's Google or Microsoft
accounts, or the Native Authenticator for a small class): set ``c.JupyterHub.authenticator_class``
below or in a second config file. The spawner is ``LocalProcessSpawner`` (one Unix account per
student; use ``SystemdSpawner`` to cap each student's memory).
"""

import importlib.util
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

try:
    from tokens_edu.store import logins, migrate
except ImportError:
    raise SystemExit("tokens-edu is not installed in the Hub's Python: pip install 'tokens-edu[hub]' "
                     "there (the Hub makes and updates the answers database with it).") from None

c = get_config()  # noqa: F821 - given by JupyterHub when it loads this file
env = os.environ


def _split(name):
    return [x.strip() for x in env.get(name, "").split(",") if x.strip()]


def _password():
    path = env.get("TOKENS_EDU_DB_PASSWORD_FILE", "").strip()
    if path:
        return Path(path).read_text(encoding="utf-8").strip()
    return env.get("TOKENS_EDU_DB_PASSWORD") or None


def _bundled_lessons():
    """The lessons installed with tokens-edu, found without importing the package."""
    spec = importlib.util.find_spec("tokens_edu")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("tokens-edu is not installed in the Hub's Python: set "
                         "TOKENS_EDU_LESSONS to the lessons folder.")
    package = Path(list(spec.submodule_search_locations)[0])
    inside = package / "_bundle" / "lessons"
    return inside if inside.is_dir() else package.parent / "lessons"


PYTHON = env.get("TOKENS_EDU_PYTHON", sys.executable)
BIN = Path(PYTHON).parent
LESSONS = Path(env.get("TOKENS_EDU_LESSONS") or _bundled_lessons()).resolve()
TEACHERS = _split("TOKENS_EDU_TEACHERS")
ADMINS = _split("TOKENS_EDU_ADMINS") or TEACHERS
IDLE_TIMEOUT = int(env.get("TOKENS_EDU_IDLE_TIMEOUT", "1800"))

DB_URL = env.get("TOKENS_EDU_DB_URL", "").strip()
if not DB_URL.startswith("postgresql"):
    raise SystemExit("Set TOKENS_EDU_DB_URL to the answers database, e.g. "
                     "postgresql+psycopg://tokens_hub@127.0.0.1:5432/tokens (no password in it).")
_url = sa.engine.make_url(DB_URL)
if _url.password:
    raise SystemExit("TOKENS_EDU_DB_URL holds a password: remove it from the URL and put it in "
                     "TOKENS_EDU_DB_PASSWORD_FILE.")
_admin = sa.create_engine(_url.set(password=_password()), poolclass=NullPool)
_before = migrate.revision(_admin)
_after = logins.prepare_database(_admin)  # the store's migrations: tables, row-level security, roles
if _before != _after:  # a Hub start that changes the database says so, in one line
    print(f"[tokens-edu] The answers database is now at revision {_after} (it was "
          f"{_before or 'new or from before migrations'}); back up PostgreSQL with pg_dump before "
          "upgrading tokens-edu.", flush=True)
# What the students' servers use: their own login (set per server), the same database.
_users_url = _url.set(username="STUDENT", host=env.get("TOKENS_EDU_DB_HOST_FOR_USERS") or _url.host)

# --- the Hub -----------------------------------------------------------------------------
hub_url = urlsplit(env.get("TOKENS_EDU_HUB_URL", "http://127.0.0.1:8000"))
c.JupyterHub.bind_url = f"{hub_url.scheme}://{hub_url.netloc}"
c.JupyterHub.cleanup_servers = True
c.Authenticator.admin_users = set(ADMINS)
c.JupyterHub.load_groups = {"teachers": {"users": TEACHERS}}
c.JupyterHub.allow_named_servers = False  # one server per student, one database login

# --- each student's server: Voila on the lessons, behind the standalone proxy ------------
c.Spawner.cmd = [str(BIN / "jupyter-standaloneproxy")]
c.Spawner.args = [
    "--absolute-url",          # Voila gets the full /user/<name>/... path (its base_url below)
    "--activity-interval=0",   # the proxy's own "still running" pings would keep every server
                               # alive forever; the Hub sees real activity through its proxy
    "--timeout=90",            # Voila may take more than the default 5 s to start on a busy machine
    "--",
    PYTHON, "-m", "voila", str(LESSONS),
    "--no-browser", "--port={port}", "--Voila.ip=127.0.0.1",
    "--Voila.base_url={base_url}/",
    "--show_tracebacks=False",
    "--MappingKernelManager.cull_idle_timeout=600",
    "--MappingKernelManager.cull_interval=60",
    "--MappingKernelManager.cull_connected=False",
    "--VoilaExecutor.iopub_timeout=30",
    # kernels talk to Voila over Unix sockets, not TCP ports: many servers starting kernels at
    # once picked the same free port (measured: "ZMQError: Address already in use", a page
    # stuck for 5 minutes), and other users of the machine cannot reach a kernel's sockets
    "--KernelManager.transport=ipc",
    "--ContentsManager.hide_globs=scenarios",
    "--ContentsManager.hide_globs=__pycache__",
]
c.Spawner.default_url = "/"
c.Spawner.http_timeout = 60
c.Spawner.start_timeout = 120
c.Spawner.environment = {"JUPYTER_PREFER_ENV_PATH": "1"}


async def _student_database_login(spawner):
    """pre_spawn_hook: a fresh password for this student's own database login, given to the
    server in its environment (not its command line)."""
    import asyncio

    role, password = await asyncio.to_thread(logins.student_login, _admin,
                                             spawner.user.name)
    spawner.environment = dict(spawner.environment)
    spawner.environment["TOKENS_EDU_DB_URL"] = _users_url.set(username=role).render_as_string(
        hide_password=False)
    spawner.environment["TOKENS_EDU_DB_PASSWORD"] = password


c.Spawner.pre_spawn_hook = _student_database_login

# --- services: the idle culler and the teacher dashboard ----------------------------------
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                    f"--timeout={IDLE_TIMEOUT}", "--cull-every=60"],
    },
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    },
    {   # only the teachers group may open the dashboard
        "name": "teacher-dashboard",
        "scopes": ["access:services!service=teacher"],
        "groups": ["teachers"],
    },
]

_teacher_role, _teacher_password = logins.teacher_login(_admin)
_dashboard_port = int(env.get("TOKENS_EDU_DASHBOARD_PORT", "8899"))
c.JupyterHub.services.append({
    "name": "teacher",
    "display": True,
    "url": f"http://127.0.0.1:{_dashboard_port}",
    "oauth_no_confirm": True,
    # `tokens-edu teacher` sees it was started by the Hub (JUPYTERHUB_SERVICE_NAME, its OAuth
    # client) and uses the Hub's login instead of its token: only users holding
    # access:services!service=teacher (the teachers group, above) get in; others get 403.
    # It listens on the service's url and serves under /services/teacher/.
    "command": [str(BIN / "tokens-edu"), "teacher"],
    "environment": {
        "TOKENS_EDU_DB_URL": _users_url.set(username=_teacher_role).render_as_string(
            hide_password=False),
        "TOKENS_EDU_DB_PASSWORD": _teacher_password,
        "JUPYTER_PREFER_ENV_PATH": "1",
    },
})
