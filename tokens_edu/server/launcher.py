"""Starting the lesson server: check the options, say what will happen, run Voila, stop cleanly.

``tokens-edu serve`` (:mod:`tokens_edu.cli.serve`) calls :func:`serve`. What it adds to a plain
``voila`` (the Voila side is :mod:`tokens_edu.server.voila`, which lists each change):

* **Warm kernels that follow the class.** A warm kernel has already run a lesson, so its page
  opens at once. The start page keeps a few, today's lesson a class's worth, a lesson students
  are opening more as they come, a lesson nobody opened one (or none when memory is short);
  warm kernels nobody needs are given back. The teacher names today's lesson with
  ``--today 03`` or, while the server runs, ``tokens-edu today 03`` (:mod:`.today`).
  ``--pool-size N`` and ``--preheat-only LESSON`` fix the sizes instead.
* **Memory measured, not assumed.** The server measures what its kernels use and starts a
  kernel only when the free memory holds it; the first lines give the figure measured last
  time (or an estimate the first time).
* **A cap instead of running out of memory.** Past ``--max-students`` pages, or when memory
  would run out, a page says "The class is full right now: wait a minute and reload".
* **Pages give their kernel back.** Closing or reloading a page stops its kernel within
  seconds; a page no browser opened after 20 s; a page whose browser went away (a closed
  laptop) within about three minutes.
* **A calm console**, and **Ctrl-C** (or SIGTERM) stops everything within 10 s with one line.
* **The answers folder is watched** (:mod:`.storage`).
* **The answers database is checked once**: a database older than this tokens-edu, or at a
  revision it does not know, is refused in one line (``--upgrade-db`` brings an older one up to
  date first, after copying it; see :mod:`tokens_edu.store.migrate`).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from .. import _moved
from ..content.bundle import lessons_dir
from ..errors import UsageProblem
from ..store import migrate
from ..store.db import JournalUnavailable, data_folder, sqlite_path
from .memory import ESTIMATE_MIB, mem_available_mib, remembered_kernel_mib
from .storage import StorageWatch as _StorageWatch
from .cpu import kernel_env
from .lock import ServerLock
from .state import CLIENT_HEADER
from .tls import certificate
from .today import resolve_lesson, todays_line, write_today

__all__ = ["serve", "voila_command", "plan_capacity", "Capacity",
           "connection_root", "kernel_transport", "is_lesson", "lesson_names", "page_kinds",
           "port_is_free", "DEFAULT_LESSONS", "DEFAULT_PORT", "START_PAGE", "CLASS_SIZE",
           "KERNEL_MIB", "HOST", "STOP_WAIT_S"]

# Old names of this module (StorageWatch, storage_problem: in .storage), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

#: The kit's lessons: inside the installed package (a wheel), or ``<repo>/lessons`` of a source
#: checkout (see :mod:`tokens_edu.content.bundle`). ``tokens-edu lessons copy DIR`` makes an editable copy.
DEFAULT_LESSONS = lessons_dir()
DEFAULT_PORT = 8866
#: The lessons' first page: a list of the lessons that keeps the student's ``?student=`` name.
START_PAGE = "00-start-here.ipynb"
#: Students in a class: the most warm kernels one page gets.
CLASS_SIZE = 30
#: Warm kernels the start page keeps while nobody is arriving.
START_WARM = 10
#: What a kernel is planned at before one is measured (see :mod:`.memory`).
KERNEL_MIB = ESTIMATE_MIB
#: Memory kept free for the system, the Voila server and a browser, in MiB.
RESERVE_MIB = 1536
#: Seconds before the first replacement of a taken warm kernel starts. Voila's default is 1 s;
#: measured with 30 students opening lesson 01 at once on 2 cores, the 30 replacements starting
#: 1 s later pushed the page time from 1.2 s to 34 s (p95). Pages never wait for a replacement.
DEFAULT_REFILL_DELAY = 10
#: Seconds between two warm kernels starting while students work (a kernel takes about 2-3 s
#: of CPU to start and run a lesson on these 2-core machines, so this keeps up without piling up).
START_STEP = 3
#: The same while no student has a page yet.
FIRST_STEP = 1.5
#: Seconds a page whose browser went away (no connection) keeps its kernel.
GONE_TIMEOUT = 120
#: Seconds ``tokens-edu`` waits for Voila to stop after Ctrl-C before stopping it hard (the
#: Voila side stops every kernel within :data:`tokens_edu.server.voila.STOP_BUDGET_S`).
STOP_WAIT_S = 9.0
HOST = "127.0.0.1"

#: Folders of the lessons folder that are not listed or browsable (they hold data the lessons
#: read, not pages for students). Added to jupyter_server's usual hidden names.
HIDDEN_IN_LIST = ["scenarios"]
_USUAL_HIDE_GLOBS = ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~"]


@dataclass(frozen=True)
class Capacity:
    """About how many kernels this computer holds.

    Attributes:
        free_mib: memory free when the server started (MiB), or None when unknown.
        kernels: kernels that fit in that memory (students' pages and warm kernels together).
        max_students: pages that may hold a kernel at once.
        pool_size: warm kernels per lesson (fixed sizes), or None when they follow demand.
        lessons: lessons with warm kernels.
        kernel_mib: the memory of one kernel this plan used (MiB).
    """

    free_mib: float | None
    kernels: int
    max_students: int
    pool_size: int | None
    lessons: int
    kernel_mib: float = KERNEL_MIB


def plan_capacity(lessons: int, pool_size: int | None = None, max_students: int | None = None,
                  free_mib: float | None = None, kernel_mib: float = KERNEL_MIB) -> Capacity:
    """About how many kernels fit: ``kernels = (free - RESERVE_MIB) / kernel_mib``.

    The Voila side decides for real, page by page, from the free memory and the measured size
    of its kernels; this is the figure the first lines give.

    Args:
        lessons: lessons that keep warm kernels.
        pool_size: fixed warm kernels per lesson, or None (they follow demand); 0 turns them off.
        max_students: the cap on pages with a kernel; None: what memory holds.
        free_mib: free memory in MiB; None reads it (:func:`.memory.mem_available_mib`).
        kernel_mib: memory per kernel in MiB.

    Returns:
        Capacity: the plan (at least 1 student).
    """
    if free_mib is None:
        free_mib = mem_available_mib()
    memory = 8 * 1024 if free_mib is None else free_mib  # unknown: plan for a small laptop
    kernels = max(1, int((memory - RESERVE_MIB) // kernel_mib))
    return Capacity(free_mib, kernels, max(1, max_students or kernels), pool_size, max(0, lessons),
                    kernel_mib)


def lesson_names(lessons: Path) -> list[str]:
    """The notebooks under ``lessons`` as paths relative to it, skipping checkpoints and
    hidden folders."""
    return [name for name, kind in page_kinds(lessons).items() if kind != "hidden"]


def page_kinds(lessons: Path) -> dict[str, str]:
    """Every notebook under ``lessons`` -> ``"start"`` (the start page), ``"lesson"`` (a name
    that starts with two digits), ``"other"`` (the teacher's guide) or ``"hidden"`` (in a
    hidden folder such as ``scenarios``, or a checkpoint)."""
    kinds = {}
    for p in sorted(lessons.rglob("*.ipynb")):
        rel = p.relative_to(lessons)
        name = str(rel)
        if ".ipynb_checkpoints" in rel.parts or any(part in HIDDEN_IN_LIST or part.startswith(".")
                                                   for part in rel.parts[:-1]):
            kinds[name] = "hidden"
        elif name == START_PAGE:
            kinds[name] = "start"
        else:
            kinds[name] = "lesson" if is_lesson(name) else "other"
    return kinds


def is_lesson(name: str) -> bool:
    """True for a class's lesson page (a notebook whose name starts with two digits, like
    ``03-task-and-audit.ipynb``); other pages (``teacher-guide.ipynb``) are not."""
    return re.match(r"\d\d", Path(name).name) is not None


def connection_root() -> Path:
    """This user's folder for kernel connection files (one subfolder per running server)."""
    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return Path(tempfile.gettempdir()) / f"tokens-edu-{uid}"


#: Longest path of a Unix socket (``sun_path`` holds 108 bytes on Linux, 104 on macOS).
_SOCKET_PATH_MAX = 100
#: What Voila and the kernel add after the folder: ``/voila_xxxxxxxx/kernel-<uuid>-ipc-12345``.
_SOCKET_TAIL = len("/voila_xxxxxxxx/kernel-") + 36 + len("-ipc-65535")


def kernel_transport(root: Path) -> str:
    """``"ipc"`` (Unix sockets in ``root``: only this user's programs can reach the kernels) when
    the socket paths fit, else ``"tcp"`` (ports on 127.0.0.1), e.g. under a long TMPDIR."""
    if sys.platform.startswith("win") or len(str(root)) + _SOCKET_TAIL > _SOCKET_PATH_MAX:
        return "tcp"
    return "ipc"


def voila_command(lessons: Path, port: int, pool_size: int | None = None,
                  cull_idle_timeout: int = GONE_TIMEOUT, preheat_only: list[str] | None = None,
                  refill_delay: int = DEFAULT_REFILL_DELAY, host: str = HOST,
                  max_students: int = 0, connection_dir: Path | None = None,
                  max_kernels: int = 0, today: str | None = None, class_size: int = CLASS_SIZE,
                  today_folder: Path | None = None, kernel_log: Path | None = None,
                  certfile: Path | None = None, keyfile: Path | None = None) -> list[str]:
    """The command line that starts Voila for ``serve`` (a list for ``subprocess``).

    Args:
        lessons: the folder of notebooks (absolute path).
        port: the TCP port.
        pool_size: warm kernels per lesson, fixed; None: they follow demand; 0: none.
        cull_idle_timeout: seconds a page whose browser went away keeps its kernel; 0: forever.
        preheat_only: notebook names relative to ``lessons`` that get warm kernels (fixed sizes).
        refill_delay: seconds before a taken warm kernel is replaced.
        host: the address to listen on (default 127.0.0.1).
        max_students: the most pages with a kernel at once; 0: what the memory holds.
        connection_dir: the folder for kernel connection files (default :func:`connection_root`).
        max_kernels: the most kernels (pages and warm ones); 0: what the memory holds.
        today: today's lesson (a notebook name), or None.
        class_size: students in the class (the most warm kernels of one page).
        today_folder: the folder whose ``today.json`` may name today's lesson later.
        kernel_log: the file the kernels' own output goes to (None: the console).
        certfile: the HTTPS certificate (PEM), or None for plain HTTP.
        keyfile: its private key (PEM; None: in ``certfile``).

    Returns:
        list[str]: ``[sys.executable, "-m", "tokens_edu.server", SETTINGS, lessons, ...]``.
    """
    kinds = page_kinds(lessons) if lessons.is_dir() else {}
    root = connection_dir or connection_root()
    fixed: dict[str, int] = {}
    demand = pool_size is None and not preheat_only
    if not demand and pool_size != 0:
        size = class_size if pool_size is None else pool_size
        if preheat_only:
            fixed = {name: size for name in preheat_only}
        else:
            fixed = {name: (size if kind in ("lesson", "start") else 1)
                     for name, kind in kinds.items() if kind != "hidden"}
    settings = {"step": float(START_STEP), "first_step": float(FIRST_STEP),
                "max_students": int(max_students), "max_kernels": int(max_kernels),
                "kernel_mib": remembered_kernel_mib(root) or KERNEL_MIB, "hidden": HIDDEN_IN_LIST,
                "demand": demand, "pools": fixed, "pages": kinds, "class_size": int(class_size),
                "start_warm": min(START_WARM, int(class_size)), "today": today,
                "today_folder": str(today_folder) if today_folder else None,
                "kernel_log": str(kernel_log) if kernel_log else None, "memo_folder": str(root),
                "gone_timeout": int(cull_idle_timeout),
                "certfile": str(certfile) if certfile else None,
                "keyfile": str(keyfile) if keyfile else None}
    cmd = [
        sys.executable, "-m", "tokens_edu.server", json.dumps(settings), str(lessons),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",  # never drift to another port: the printed URL must be right
        "--show_tracebacks=False",
        # Warnings and errors only: the server prints the teacher's status lines itself.
        "--Voila.log_level=WARN",
        f"--Voila.connection_dir_root={root}",
        # Kernels talk to the server over Unix sockets in that folder, not TCP ports that any
        # program on this computer could reach, unless the folder's path is too long for one.
        f"--KernelManager.transport={kernel_transport(root)}",
        # A kernel that died is not restarted: its page's widgets are gone with it. The page
        # says so; a reload gives a new kernel with the saved answers.
        "--KernelManager.autorestart=False",
        # A student's kernel asked to stop has this long to save what it keeps, then is stopped.
        "--KernelManager.shutdown_wait_time=4",
        # jupyter_server's culler is off: the server's watch gives back the kernels of pages
        # that went away (tokens_edu.server.watch), in plain lines.
        "--MappingKernelManager.cull_idle_timeout=0",
        # Warming kernels keeps the server busy; nbclient's default 4 s wait for a cell's last
        # outputs can then run out and drop outputs from the page. Wait longer (only when late).
        "--VoilaExecutor.iopub_timeout=30",
        # ?template= and ?theme= in a page's address are ignored (a bad one answered 500).
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.allow_theme_override=NO",
        # The page's computer (its address, as the server sees it) reaches its kernel as
        # HTTP_X_TOKENS_EDU_CLIENT: the server sets this header itself (tokens_edu.server.pages),
        # and a page's browser secret counts only from that computer (tokens_edu.session.browser).
        f"--VoilaConfiguration.http_header_envs={CLIENT_HEADER}",
    ]
    # The lesson list at / shows the lessons only, not the scenarios folder. A list trait is
    # given one item per option on the command line (a "[...]" value would be one string).
    cmd += [f"--ContentsManager.hide_globs={g}" for g in _USUAL_HIDE_GLOBS + HIDDEN_IN_LIST]
    if demand or fixed:
        cmd += ["--preheat_kernel=True", "--pool_size=1",
                f"--VoilaKernelManager.fill_delay={refill_delay}"]
    return cmd


def port_is_free(port: int, host: str = HOST) -> bool:
    """True when nothing listens on ``host:port`` (bound like Tornado does, SO_REUSEADDR on).

    Raises:
        UsageProblem: ``host`` is not an address of this computer.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise UsageProblem(f"{host!r} is not an address this computer knows. "
                           "Use 127.0.0.1 (this computer) or 0.0.0.0 (the network).") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            if e.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            if e.errno == errno.EADDRNOTAVAIL:
                raise UsageProblem(f"{host} is not an address of this computer. "
                                   "Use 127.0.0.1 (this computer) or 0.0.0.0 (the network).") from None
            raise
    return True


def answers_port(port: int, host: str = HOST) -> bool:
    """True when something answers on ``host:port`` (the server has started)."""
    try:
        with socket.create_connection((HOST if host in ("0.0.0.0", "::", "") else host, port),
                                      timeout=0.5):
            return True
    except OSError:
        return False


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, Linux only
    """In the Voila child: get SIGTERM if the ``tokens-edu`` process dies (no orphan server)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001
        pass


def _gib(mib: float) -> str:
    return f"{mib / 1024:.1f} GiB"


def _data_folder(args: argparse.Namespace, env: dict) -> Path | None:
    """The answers folder (made if missing), or None when answers go to a database."""
    if args.data_dir is not None:
        data = args.data_dir.expanduser().resolve()
        if data.exists() and not data.is_dir():
            raise UsageProblem(f"--data-dir {data} is a file, not a folder. Give a folder for the "
                               "answers (it is made if it does not exist).")
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageProblem(f"Cannot make the data folder {data}: {e.strerror or e}.") from None
        env["TOKENS_EDU_DATA"] = str(data)
        return data
    if env.get("TOKENS_EDU_DB_URL", "").strip():
        return None
    return data_folder()


def _database_at_start(args: argparse.Namespace, env: dict, data: Path | None) -> None:
    """Refuse to start on an answers database at a wrong revision (older than this tokens-edu
    and not brought up to date, or one it does not know), in one line; with ``--upgrade-db``
    bring an older one up to date first (an SQLite file is copied next to itself) and say so
    in one line. A new or missing database is fine: the first page makes it.

    Raises:
        UsageProblem: the one line (nothing was changed).
    """
    url = env.get("TOKENS_EDU_DB_URL", "").strip() or f"sqlite:///{(data or data_folder()) / 'journal.sqlite'}"
    if getattr(args, "upgrade_db", False):
        path = sqlite_path(url)
        if path is None or Path(path).exists():
            try:
                before, after, copy = migrate.upgrade_database(url)
            except (JournalUnavailable, migrate.MigrationRefused, ImportError, OSError, sqlite3.Error) as e:
                raise UsageProblem(str(e)) from None
            except sa.exc.SQLAlchemyError as e:
                raise UsageProblem("The answers database refused to be brought up to date, and nothing "
                                   f"was changed: {str(e).splitlines()[0][:300]}") from None
            if before != after:
                print(migrate.upgraded_line(url, before, after, copy), flush=True)
    problem = migrate.start_problem(url, str(args.data_dir) if args.data_dir is not None else None)
    if problem:
        raise UsageProblem(problem + (" Or start with: tokens-edu serve --upgrade-db."
                                      if migrate.UPGRADE_COMMAND in problem else ""))


class _Stop(Exception):
    """SIGTERM reached ``tokens-edu serve``: stop like Ctrl-C."""


def _raise_stop(signum, frame):
    raise _Stop


def serve(args: argparse.Namespace) -> int:
    """Serve the lessons until Ctrl-C or SIGTERM, as ``tokens-edu serve`` does.

    Args:
        args: the parsed options of ``tokens-edu serve`` (see :mod:`tokens_edu.cli.serve`):
            ``lessons``, ``port``, ``host``, ``pool_size``, ``max_students``, ``preheat_only``,
            ``today``, ``class_size``, ``refill_delay``, ``cull_idle_timeout``, ``data_dir``,
            ``no_hints``, ``upgrade_db``.

    Returns:
        0 after Ctrl-C (or SIGTERM), 1 when Voila itself stopped with an error.

    Raises:
        UsageProblem: a problem the teacher can fix (a busy port, a missing lessons folder, a
            data folder that is a file, an unknown lesson, an answers database at a wrong
            revision: :func:`_database_at_start`).
    """
    lessons = args.lessons.expanduser().resolve()
    if not lessons.is_dir():
        what = "is a file, not a folder" if lessons.exists() else "does not exist"
        raise UsageProblem(f"There is no lessons folder at {lessons} (it {what}). "
                           "Give the folder of lesson notebooks with --lessons DIR.")
    names = lesson_names(lessons)
    if not names:
        print(f"Note: {lessons} holds no notebooks (.ipynb) yet.", flush=True)

    def known(option: str, want: str) -> str:
        name = resolve_lesson(want, names)
        if name is None:
            raise UsageProblem(f"{option}: there is no lesson {want!r} in {lessons}. "
                               f"The lessons are: {', '.join(names) or 'none'}.")
        return name

    preheat_only = [known("--preheat-only", want) for want in args.preheat_only]
    today = known("--today", args.today) if getattr(args, "today", None) else None
    if today and (preheat_only or args.pool_size is not None):
        raise UsageProblem("--today sizes the warm kernels by itself: leave out --pool-size and "
                           "--preheat-only (or use those without --today).")
    if not port_is_free(args.port, args.host):
        raise UsageProblem(f"Port {args.port} is already in use (maybe tokens-edu is already "
                           f"running). Stop the other server, or pick another port with --port.")
    certfile, keyfile = certificate(args)
    env = dict(os.environ)
    if certfile:
        env["VOILA_WS_PROTOCOL"] = "wss"  # a warm kernel asks for its page's request over HTTPS
    if getattr(args, "no_hints", False):
        env["TOKENS_EDU_HINTS"] = "off"  # read by the lessons' GameView (widgets.thinking_pane)
    data = _data_folder(args, env)
    lock = ServerLock(data) if data is not None else None
    if lock is not None:
        lock.take(args.port)  # a second server on this data folder: UsageProblem, one line
    try:
        return _serve(args, env, lessons, names, preheat_only, today, data, certfile, keyfile)
    finally:
        if lock is not None:
            lock.release()


def _serve(args, env, lessons, names, preheat_only, today, data, certfile, keyfile) -> int:
    """:func:`serve` once the options are checked and the data folder is this server's."""
    _database_at_start(args, env, data)  # (this server holds the data folder now)
    # The venv's kernelspec "python3" (shipped by ipykernel in <venv>/share/jupyter) wins over a
    # user-wide one in ~/.local/share/jupyter, so the kernels run this same Python and package.
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    # One maths thread per kernel: 30 kernels each asking for every core slowed the class
    # (tokens_edu.server.cpu, which also keeps a busy kernel behind the others).
    kernel_env(env)
    # Python warnings from the kernels' imports would go to the kernels' log, once per kernel.
    env.setdefault("PYTHONWARNINGS", "ignore::DeprecationWarning,ignore::FutureWarning")
    root = connection_root()
    try:
        root.mkdir(mode=0o700, exist_ok=True)
    except OSError as e:
        raise UsageProblem(f"Cannot make the folder for kernel files {root}: "
                           f"{e.strerror or e}.") from None
    kernel_log = root / f"kernels-{args.port}.log"
    try:
        kernel_log.write_bytes(b"")  # this run's only
    except OSError:
        kernel_log = None
    class_size = getattr(args, "class_size", None) or CLASS_SIZE
    measured = remembered_kernel_mib(root)
    plan = plan_capacity(len(names), args.pool_size, args.max_students,
                         kernel_mib=measured or KERNEL_MIB)
    today_folder = data or data_folder()
    if today:  # named at start: the file says so too (and yesterday's is gone)
        try:
            write_today(today_folder, today)
        except OSError:
            pass
    cmd = voila_command(lessons, args.port, args.pool_size, args.cull_idle_timeout, preheat_only,
                        args.refill_delay, args.host, args.max_students or 0, root, today=today,
                        class_size=class_size, today_folder=today_folder,
                        kernel_log=kernel_log, certfile=certfile, keyfile=keyfile)
    _say_plan(args, lessons, names, plan, measured, preheat_only, today, class_size, data, env,
              today_folder, bool(certfile))
    watch = None
    if data is not None and not env.get("TOKENS_EDU_DB_URL", "").strip():
        env["TOKENS_EDU_STORAGE_WATCHED"] = "1"  # the kernels leave telling the teacher to us
        watch = _StorageWatch(data)
        watch.check()
        watch.start()
    return _run(cmd, env, args, watch)


def _say_plan(args, lessons, names, plan, measured, preheat_only, today, class_size, data, env,
              today_folder=None, https=False):
    """The first lines: what is served, the warm kernels, today's lesson, memory, answers,
    where to go."""
    shown = HOST if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"{'https' if https else 'http'}://{shown}:{args.port}/"
    answers = env.get("TOKENS_EDU_DB_URL") or str(data)
    if "://" in answers:  # a database URL may hold a password: show only its kind
        answers = answers.split("://", 1)[0] + " database"
    begin = (f"Students start at {url.rstrip('/')}/voila/render/{START_PAGE}?student=THEIR-NAME\n"
             if (lessons / START_PAGE).is_file() else "")
    if args.pool_size == 0:
        warm = "off (each page starts its own kernel: a few seconds, more when many start)"
    elif preheat_only or args.pool_size is not None:
        which = ", ".join(preheat_only) if preheat_only else "each lesson"
        size = args.pool_size if args.pool_size is not None else class_size
        warm = f"{size} for {which} (fixed)"
    else:
        start = f"{min(START_WARM, class_size)} for the start page, " if START_PAGE in names else ""
        if today:
            warm = (f"{start}{class_size} for today's lesson ({today}), and for other lessons "
                    f"as students open them")
        else:
            warm = (f"{start}1 for each lesson, more for a lesson students are opening; name "
                    f"today's lesson to warm {class_size} for it: tokens-edu today 03 (or serve "
                    f"--today 03)")
    mib = plan.kernel_mib
    size = (f"about {mib:.0f} MiB each, measured last time" if measured else
            f"about {mib:.0f} MiB each until this computer's kernels are measured")
    free = f"; {_gib(plan.free_mib)} free now" if plan.free_mib is not None else ""
    who = (f"Up to {plan.max_students} student{'s' if plan.max_students != 1 else ''} at once"
           if args.max_students else f"Memory for about {plan.kernels} pages at once")
    print(f"Serving {len(names)} lesson page(s) from {lessons}\n"
          f"{who} ({size}{free}).\n"
          f"Warm kernels: {warm}.\n"
          f"{todays_line(today, today_folder, names)}\n"
          f"Answers are saved in {answers}.\n"
          f"Open {url} in a browser. {begin}Press Ctrl-C to stop.", flush=True)
    if shown != args.host:
        print("Other computers open the same address with this computer's network address "
              f"instead of {HOST}.", flush=True)


def _run(cmd: list[str], env: dict, args, watch) -> int:
    """Run Voila until it stops, or until Ctrl-C / SIGTERM (then stop it, with one line)."""
    # Voila runs in a child process with its own session: Voila owns its Tornado loop, config
    # and signal handlers; a Ctrl-C in the terminal reaches only this process, which asks Voila
    # to stop exactly once; the child also gets SIGTERM if this process dies (no orphan server).
    old_term = signal.signal(signal.SIGTERM, _raise_stop)
    proc = None
    stopping = False
    try:
        proc = subprocess.Popen(cmd, env=env, start_new_session=True,
                                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        ready = False
        while proc.poll() is None:
            try:
                if not ready and answers_port(args.port, args.host):
                    ready = True
                    scheme = "https" if getattr(args, "certfile", None) else "http"
                    print(f"Ready: {scheme}://{HOST if args.host in ('0.0.0.0', '::', '') else args.host}"
                          f":{args.port}/", flush=True)
                proc.wait(timeout=None if ready else 0.3)
            except subprocess.TimeoutExpired:
                continue
    except (KeyboardInterrupt, _Stop):
        stopping = True
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        print("Stopping the lesson server...", end="", flush=True)
        hard = _stop(proc)
        print(" Stopped." + (" (Some kernels were stopped hard.)" if hard else ""), flush=True)
    finally:
        signal.signal(signal.SIGTERM, old_term)
        if watch is not None:
            watch.stopped.set()
        if proc is not None and proc.poll() is None:
            _stop(proc)
    if stopping:
        return 0
    code = proc.returncode if proc is not None else 1
    if code in (0, -signal.SIGTERM, -signal.SIGINT):
        print("Stopped.", flush=True)
        return 0
    print(f"Voila stopped with an error (exit code {code}). See the messages above.",
          file=sys.stderr, flush=True)
    return 1


def _stop(proc) -> bool:
    """Ask Voila to stop; past :data:`STOP_WAIT_S` stop it hard. Returns True when it had to be
    stopped hard (its kernels then stop themselves: they watch their parent)."""
    if proc is None or proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_WAIT_S)
        return False
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return True
