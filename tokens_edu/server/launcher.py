"""Starting the lesson server: plan memory, build Voila's command line, run it, watch the answers folder.

``tokens-edu serve`` (:mod:`tokens_edu.cli.serve`) calls :func:`serve`. What it adds to a plain
``voila`` (the Voila side is in :mod:`tokens_edu.server.voila`, which lists each change and the
Voila bug it works around):

* **Warm kernels sized from memory.** Each lesson keeps warm ("preheated") kernels that have
  already run the lesson, so a class opening a page at once waits about a second instead of half
  a minute. Without options every lesson gets up to :data:`CLASS_SIZE` of them when this
  computer's free memory allows (see :func:`plan_capacity`); they start one every
  :data:`START_STEP` seconds, the lessons taking turns, so each lesson soon has a few.
  ``--preheat-only LESSON`` warms only today's lesson (ready in a minute and a half).
* **A cap instead of running out of memory.** At most ``--max-students`` pages hold a kernel at
  once (default: what the free memory holds); past it a page says "The class is full right now:
  wait a minute and reload". Warm kernels of other lessons give way to students first.
* **Pages give their kernel back.** Closing or reloading a page stops its kernel within
  seconds; a page no browser opened (a script, a closed laptop) after 90 s; an idle kernel of a
  closed page after ``--cull-idle-timeout``.
* **A calm console.** One line says how many students the computer can hold; then a status
  line when something changes, at most once a minute, and one short line per bad request.
* **The answers folder is watched.** If it is read-only or full, the console says so once with
  its path; lessons still open and play, and saving tells students plainly.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ..content.bundle import lessons_dir
from ..errors import UsageProblem
from ..store.journal import data_folder

__all__ = ["serve", "voila_command", "plan_capacity", "Capacity", "storage_problem", "StorageWatch",
           "connection_root", "kernel_transport", "is_lesson", "lesson_names", "port_is_free",
           "DEFAULT_LESSONS", "DEFAULT_PORT", "START_PAGE", "CLASS_SIZE", "KERNEL_MIB", "HOST"]

#: The kit's lessons: inside the installed package (a wheel), or ``<repo>/lessons`` of a source
#: checkout (see :mod:`tokens_edu.content.bundle`). ``tokens-edu lessons copy DIR`` makes an editable copy.
DEFAULT_LESSONS = lessons_dir()
DEFAULT_PORT = 8866
#: The lessons' first page: a list of the lessons that keeps the student's ``?student=`` name.
START_PAGE = "00-start-here.ipynb"
#: Students in a class: the most warm kernels a lesson gets by default.
CLASS_SIZE = 30
#: Memory one lesson kernel uses, in MiB: measured as proportional set size (PSS, shared
#: pages split among users) with ``benchmarks/class_load.py``: lesson 03 with 30 students,
#: median 55.5 MiB; every lesson's warm kernels, median 55.6, most 57.8 MiB (December 2026,
#: Debian 12, Python 3.11). Rounded up.
KERNEL_MIB = 60
#: Memory kept free for the system, the Voila server and a browser, in MiB.
RESERVE_MIB = 1536
#: Seconds before the first replacement of a taken warm kernel starts. Voila's default is 1 s;
#: measured with 30 students opening lesson 01 at once on 2 cores, the 30 replacements starting
#: 1 s later pushed the page time from 1.2 s to 34 s (p95). Pages never wait for a replacement,
#: and replacements start :data:`START_STEP` s apart.
DEFAULT_REFILL_DELAY = 10
#: Seconds between two warm kernels starting (any lesson). A kernel takes about 2-3 s of CPU
#: to start and run a lesson on these 2-core machines, so this keeps up without piling up.
START_STEP = 3
#: The same when the server starts, while nobody is using it yet: 30 warm kernels for each of
#: 10 lessons are ready in about 8 minutes instead of 16 (measured: 8.3 minutes, 17.0 GiB PSS,
#: with ``class_load.py --defaults`` on the shared 2-core machine).
FIRST_STEP = 1.5
HOST = "127.0.0.1"

#: Folders of the lessons folder that are not listed or browsable (they hold data the lessons
#: read, not pages for students). Added to jupyter_server's usual hidden names.
HIDDEN_IN_LIST = ["scenarios"]
_USUAL_HIDE_GLOBS = ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~"]

#: ``python -c`` program that runs :func:`tokens_edu.server.voila.main`, loading that file by its
#: path (the Voila server does not need to import the ``tokens_edu`` package and its card data).
_VOILA_MAIN = (
    "import importlib.util, sys; "
    "spec = importlib.util.spec_from_file_location('_tokens_edu_voila', {path!r}); "
    "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); "
    "sys.exit(mod.main({settings!r}))"
)


@dataclass(frozen=True)
class Capacity:
    """How many kernels this computer can hold, and how they are shared out.

    Attributes:
        free_mib: memory free when the server started (MiB), or None when unknown.
        kernels: kernels that fit in that memory (students' pages and warm kernels together).
        max_students: pages that may hold a kernel at once (the cap).
        pool_size: warm kernels per lesson.
        lessons: lessons with warm kernels.
    """

    free_mib: float | None
    kernels: int
    max_students: int
    pool_size: int
    lessons: int

    @property
    def warm(self) -> int:
        """Warm kernels over every lesson."""
        return self.pool_size * self.lessons

    def warm_minutes(self, step: float = FIRST_STEP) -> float:
        """About how long until every warm kernel is ready, in minutes."""
        return self.warm * step / 60



def plan_capacity(lessons: int, pool_size: int | None = None, max_students: int | None = None,
                  free_mib: float | None = None, kernel_mib: float = KERNEL_MIB) -> Capacity:
    """Share this computer's memory between students' pages and warm kernels.

    ``kernels = (free - RESERVE_MIB) / kernel_mib``: what the free memory holds. Warm kernels per
    lesson default to ``min(CLASS_SIZE, kernels // lessons)``, and the cap on students to
    ``kernels``: students come first, because a student's page takes a warm kernel (which then
    is a page kernel), and when a page needs a kernel of its own or a lesson's warm kernels are
    replaced while the computer is full, warm kernels of other lessons are stopped to make room
    (:mod:`tokens_edu.server.voila`). So a class arriving at one lesson gets its warm kernels, and
    the warm kernels follow the class from lesson to lesson.

    Args:
        lessons: lessons that keep warm kernels (the start page counts).
        pool_size: warm kernels per lesson; None sizes it from memory; 0 turns them off.
        max_students: the cap on pages with a kernel; None: what memory holds.
        free_mib: free memory in MiB; None reads it (:func:`tokens_edu.server.voila.mem_available_mib`).
        kernel_mib: memory per kernel in MiB (:data:`KERNEL_MIB`).

    Returns:
        Capacity: the plan (at least 1 student and, unless turned off, 1 warm kernel a lesson).
    """
    if free_mib is None:
        from .voila import mem_available_mib  # one reading of free memory for both

        free_mib = mem_available_mib()
    memory = 8 * 1024 if free_mib is None else free_mib  # unknown: plan for a small laptop
    kernels = max(1, int((memory - RESERVE_MIB) // kernel_mib))
    lessons = max(0, lessons)
    if pool_size is None:
        pool_size = min(CLASS_SIZE, max(1, kernels // lessons)) if lessons else 0
    if max_students is None:
        max_students = kernels
    return Capacity(free_mib, kernels, max(1, max_students), pool_size, lessons)


def lesson_names(lessons: Path) -> list[str]:
    """The notebooks under ``lessons`` as paths relative to it, skipping checkpoints and
    hidden folders."""
    names = []
    for p in lessons.rglob("*.ipynb"):
        rel = p.relative_to(lessons)
        if ".ipynb_checkpoints" in rel.parts or any(part in HIDDEN_IN_LIST or part.startswith(".")
                                                   for part in rel.parts[:-1]):
            continue
        names.append(str(rel))
    return sorted(names)


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


def voila_command(lessons: Path, port: int, pool_size: int, cull_idle_timeout: int = 600,
                  preheat_only: list[str] | None = None,
                  refill_delay: int = DEFAULT_REFILL_DELAY, host: str = HOST,
                  max_students: int = 0, connection_dir: Path | None = None,
                  max_kernels: int = 0) -> list[str]:
    """The command line that starts Voila for ``serve`` (a list for ``subprocess``).

    Args:
        lessons: the folder of notebooks (absolute path).
        port: the TCP port.
        pool_size: warm kernels per lesson; 0 turns preheating off.
        cull_idle_timeout: seconds an unconnected, idle kernel lives; 0 keeps them forever.
        preheat_only: notebook names relative to ``lessons`` that get the pool (None: all).
        refill_delay: seconds before a taken warm kernel is replaced.
        host: the address to listen on (default 127.0.0.1).
        max_students: the most pages with a kernel at once; 0: no cap.
        max_kernels: the most kernels (pages and warm ones) this computer holds; 0: no limit.
        connection_dir: the folder for kernel connection files (default
            :func:`connection_root`).

    Returns:
        list[str]: ``[sys.executable, "-c", <tokens_edu.voila_server.main(...)>, lessons, ...]``.
    """
    pooled = (len(preheat_only) if preheat_only
              else len(lesson_names(lessons)) if lessons.is_dir() else 1)  # taking turns
    settings = {"step": float(START_STEP), "first_step": float(FIRST_STEP),
                "lessons": max(1, pooled) if pool_size else 1,
                "max_students": int(max_students), "max_kernels": int(max_kernels),
                "kernel_mib": KERNEL_MIB, "hidden": HIDDEN_IN_LIST}
    program = _VOILA_MAIN.format(path=str(Path(__file__).resolve().with_name("voila.py")),
                                 settings=json.dumps(settings))
    cmd = [
        sys.executable, "-c", program, str(lessons),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",  # never drift to another port: the printed URL must be right
        "--show_tracebacks=False",
        # Warnings and errors only: voila_server prints the teacher's status lines itself.
        "--Voila.log_level=WARN",
        f"--Voila.connection_dir_root={connection_dir or connection_root()}",
        # Kernels talk to the server over Unix sockets in that folder, not TCP ports that any
        # program on this computer could reach (and ipykernel warns about on every start),
        # unless the folder's path is too long for a socket's address.
        f"--KernelManager.transport={kernel_transport(connection_dir or connection_root())}",
        # A kernel that died is not restarted: its page's widgets are gone with it. The page
        # says it lost contact; a reload gives a new kernel with the saved answers.
        "--KernelManager.autorestart=False",
        # The culler (jupyter_server's MappingKernelManager, which Voila's kernel manager
        # extends). cull_connected stays False: a student who keeps the page open but thinks
        # for a long time must not lose the kernel that saves the answer. Voila never culls
        # the warm kernels still waiting in the pool.
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={max(10, min(60, cull_idle_timeout or 60))}",
        "--MappingKernelManager.cull_connected=False",
        # Warming many kernels at once keeps the server busy; nbclient's default 4 s wait for a
        # cell's last outputs can then run out and drop outputs from the page. Wait longer
        # (it only waits when the outputs are late).
        "--VoilaExecutor.iopub_timeout=30",
        # ?template= and ?theme= in a page's address are ignored (a bad one answered 500).
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.allow_theme_override=NO",
    ]
    # The lesson list at / shows the lessons only, not the scenarios folder. A list trait is
    # given one item per option on the command line (a "[...]" value would be one string).
    cmd += [f"--ContentsManager.hide_globs={g}" for g in _USUAL_HIDE_GLOBS + HIDDEN_IN_LIST]
    if pool_size > 0:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool_size}",
                f"--VoilaKernelManager.fill_delay={refill_delay}"]
        if preheat_only:
            pools = {"default": {"pool_size": 0}}
            pools.update({name: {"pool_size": pool_size} for name in preheat_only})
            cmd.append(f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")
        else:  # every lesson; one warm kernel for other pages; none in hidden folders
            names = lesson_names(lessons) if lessons.is_dir() else []
            hidden = [name for name in (_all_notebooks(lessons) if lessons.is_dir() else [])
                      if name not in names]
            others = [name for name in names if not is_lesson(name)]
            if hidden or others:
                pools = {"default": {"pool_size": pool_size}}
                pools.update({name: {"pool_size": min(1, pool_size)} for name in others})
                pools.update({name: {"pool_size": 0} for name in hidden})
                cmd.append(f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")
    return cmd


def is_lesson(name: str) -> bool:
    """True for a class's lesson page (a notebook whose name starts with two digits, like
    ``03-task-and-audit.ipynb``); other pages (``teacher-guide.ipynb``) keep one warm kernel."""
    return re.match(r"\d\d", Path(name).name) is not None


def _all_notebooks(lessons: Path) -> list[str]:
    return sorted(str(p.relative_to(lessons)) for p in lessons.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


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
    except Exception:
        pass


#: Less free space than this (MiB) in the answers folder counts as full.
LOW_SPACE_MIB = 20


def storage_problem(folder: Path) -> str | None:
    """Why answers cannot be saved in ``folder`` now, in plain words, or None when they can.

    Checks that the folder exists (or can be made), that a file can be written in it, that its
    ``journal.sqlite`` (when there) is writable, and that it has at least
    :data:`LOW_SPACE_MIB` MiB free.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"the folder {folder} cannot be made ({e.strerror or e})"
    db = folder / "journal.sqlite"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tokens-edu-check-"):
            pass
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            return f"the folder {folder} is full"
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return f"the folder {folder} is read-only"
        return f"the folder {folder} cannot be written ({e.strerror or e})"
    if db.exists() and not os.access(db, os.W_OK):
        return f"the file {db} is read-only"
    try:
        st = os.statvfs(folder)
        if st.f_bavail * st.f_frsize < LOW_SPACE_MIB * 2**20:
            return f"the folder {folder} is full (less than {LOW_SPACE_MIB} MiB left)"
    except (OSError, AttributeError):
        pass
    return None


class StorageWatch(threading.Thread):
    """Checks the answers folder every ``every`` seconds; says so once when saving stops or
    works again (a teacher's console must not fill with the same line)."""

    def __init__(self, folder: Path, every: float = 15.0, out=None):
        super().__init__(name="tokens-edu-storage-watch", daemon=True)
        self.folder, self.every, self.out = folder, every, out
        self.problem: str | None = None
        self.stopped = threading.Event()

    def check(self) -> str | None:
        """Check now; print a line when the state changed. Returns the problem or None."""
        problem = storage_problem(self.folder)
        if problem != self.problem:
            if problem:
                print(f"Answers cannot be saved: {problem}. Lessons still open and play, and "
                      "students are told that saving does not work right now. Free some space "
                      "or fix the folder's permissions; no restart is needed.",
                      file=self.out or sys.stdout, flush=True)
            elif self.problem is not None:
                print(f"Answers can be saved again in {self.folder}.",
                      file=self.out or sys.stdout, flush=True)
            self.problem = problem
        return problem

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                self.check()
            except Exception:  # a check must never stop the server
                pass


def _gib(mib: float) -> str:
    return f"{mib / 1024:.1f} GiB"


def serve(args: argparse.Namespace) -> int:
    """Serve the lessons until Ctrl-C or SIGTERM, as ``tokens-edu serve`` does.

    Args:
        args: the parsed options of ``tokens-edu serve`` (see :mod:`tokens_edu.cli.serve`):
            ``lessons``, ``port``, ``host``, ``pool_size``, ``max_students``, ``preheat_only``,
            ``refill_delay``, ``cull_idle_timeout``, ``data_dir``, ``no_hints``.

    Returns:
        0 after Ctrl-C (or SIGTERM), 1 when Voila itself stopped with an error.

    Raises:
        UsageProblem: a problem the teacher can fix (a busy port, a missing lessons folder).
    """
    lessons = args.lessons.expanduser().resolve()
    if not lessons.is_dir():
        what = "is a file, not a folder" if lessons.exists() else "does not exist"
        raise UsageProblem(f"There is no lessons folder at {lessons} (it {what}). "
                           "Give the folder of lesson notebooks with --lessons DIR.")
    names = lesson_names(lessons)
    if not names:
        print(f"Note: {lessons} holds no notebooks (.ipynb) yet.", flush=True)
    preheat_only = []
    for want in args.preheat_only:
        name = want if want.endswith(".ipynb") else want + ".ipynb"
        if name not in names:
            raise UsageProblem(f"--preheat-only: there is no lesson {want!r} in {lessons}. "
                               f"The lessons are: {', '.join(names) or 'none'}.")
        preheat_only.append(name)
    if not port_is_free(args.port, args.host):
        raise UsageProblem(f"Port {args.port} is already in use (maybe tokens-edu is already "
                           f"running). Stop the other server, or pick another port with --port.")
    env = dict(os.environ)
    if getattr(args, "no_hints", False):
        env["TOKENS_EDU_HINTS"] = "off"  # read by the lessons' GameView (widgets.thinking_pane)
    data = None
    if args.data_dir is not None:
        data = args.data_dir.expanduser().resolve()
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageProblem(f"Cannot make the data folder {data}: {e.strerror or e}.") from None
        env["TOKENS_EDU_DATA"] = str(data)
    elif not env.get("TOKENS_EDU_DB_URL", "").strip():
        data = data_folder()
    # The venv's kernelspec "python3" (shipped by ipykernel in <venv>/share/jupyter) wins over a
    # user-wide one in ~/.local/share/jupyter, so the kernels run this same Python and package.
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    # Python warnings from the kernels' imports would go to this console, once per kernel.
    env.setdefault("PYTHONWARNINGS", "ignore::DeprecationWarning,ignore::FutureWarning")

    pooled = len(preheat_only) if preheat_only else len([n for n in names if is_lesson(n)])
    plan = plan_capacity(pooled, args.pool_size, args.max_students)
    root = connection_root()
    try:
        root.mkdir(mode=0o700, exist_ok=True)
    except OSError as e:
        raise UsageProblem(f"Cannot make the folder for kernel files {root}: "
                           f"{e.strerror or e}.") from None

    # Voila runs as a child process of this same Python rather than in-process: Voila owns its
    # Tornado loop, traitlets config and signal handlers; the kernels inherit TOKENS_EDU_DATA
    # from the child's environment without touching ours; and this process can always stop it
    # cleanly (SIGTERM is forwarded; the child also gets SIGTERM if this process dies, so no
    # server is left behind).
    cmd = voila_command(lessons, args.port, plan.pool_size, args.cull_idle_timeout, preheat_only,
                        args.refill_delay, args.host, plan.max_students, root,
                        max_kernels=max(plan.kernels, plan.warm + 1))
    shown = HOST if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{shown}:{args.port}/"
    answers = (env.get("TOKENS_EDU_DB_URL") or env.get("TOKENS_EDU_DATA") or str(data))
    if "://" in answers:  # a database URL may hold a password: show only its kind
        answers = answers.split("://", 1)[0] + " database"
    start = lessons / START_PAGE
    begin = (f"Students start at {url.rstrip('/')}/voila/render/{START_PAGE}?student=THEIR-NAME\n"
             if start.is_file() else "")
    free = f"; {_gib(plan.free_mib)} free now" if plan.free_mib is not None else ""
    if plan.pool_size == 0:
        warm = "off (each page starts its own kernel: a few seconds, more when many start)"
    else:
        which = f" ({', '.join(preheat_only)})" if preheat_only else ""
        others = [] if preheat_only else [n for n in names if not is_lesson(n)]
        also = f" and 1 for each other page ({', '.join(others)})" if others else ""
        warm = (f"{plan.pool_size} for each of {plan.lessons} lesson(s){which}{also}, all "
                f"ready in about {max(1, round(plan.warm_minutes()))} minute(s)")
    print(f"Serving {len(names)} lesson(s) from {lessons}\n"
          f"Up to {plan.max_students} student{'s' if plan.max_students != 1 else ''} at once (about "
          f"{KERNEL_MIB} MiB each{free}).\n"
          f"Warm kernels: {warm}.\n"
          f"Answers are saved in {answers}.\n"
          f"Open {url} in a browser. {begin}Press Ctrl-C to stop.", flush=True)
    if plan.warm > plan.kernels and plan.pool_size:
        print(f"Note: {plan.warm} warm kernels need about {_gib(plan.warm * KERNEL_MIB)}, more "
              "than is free: they stop starting when memory runs short, and give way to "
              "students.", flush=True)
    if shown != args.host:
        print("Other computers open the same address with this computer's network address "
              f"instead of {HOST}.", flush=True)
    watch = None
    if data is not None and not env.get("TOKENS_EDU_DB_URL", "").strip():
        env["TOKENS_EDU_STORAGE_WATCHED"] = "1"  # the kernels leave telling the teacher to us
        watch = StorageWatch(data)
        watch.check()
        watch.start()
    # Its own session: a Ctrl-C in the terminal reaches only this process, which then asks Voila
    # to stop exactly once (a second signal during Voila's shutdown could leave kernels behind).
    proc = subprocess.Popen(cmd, env=env, start_new_session=True,
                            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)

    def forward(signum, _frame):
        if proc.poll() is None:
            proc.send_signal(signum)

    old_term = signal.signal(signal.SIGTERM, forward)
    stopping = False
    try:
        ready = False
        while proc.poll() is None:
            try:
                if not ready and answers_port(args.port, args.host):
                    ready = True
                    print(f"Ready: {url}", flush=True)
                proc.wait(timeout=None if ready else 0.3)
            except subprocess.TimeoutExpired:
                continue
            except KeyboardInterrupt:
                # Ctrl-C: ask Voila to stop once, and give it time to stop every kernel. A second
                # Ctrl-C (or a minute) stops it hard.
                stopping = True
                print("Stopping (this stops every lesson's kernel)...", flush=True)
                forward(signal.SIGTERM, None)
                try:
                    proc.wait(timeout=60)
                except (subprocess.TimeoutExpired, KeyboardInterrupt):
                    proc.kill()
                    proc.wait()
    finally:
        signal.signal(signal.SIGTERM, old_term)
        if watch is not None:
            watch.stopped.set()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    code = proc.returncode
    if stopping or code in (0, -signal.SIGTERM, -signal.SIGINT):
        print("Stopped.", flush=True)
        return 0
    print(f"Voila stopped with an error (exit code {code}). See the messages above.",
          file=sys.stderr, flush=True)
    return 1
