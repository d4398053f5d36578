"""The ``tokens-edu`` command.

``tokens-edu serve`` starts the lessons for a class: Voila serves the ``lessons/`` folder at
http://127.0.0.1:8866/ with a pool of warm ("preheated") kernels, so thirty students opening a
page at once wait a moment instead of half a minute, and an idle-kernel culler, so pages that
were closed (or fetched by a script) give their memory back.

How the pool is used (a small change to Voila 0.5's preheat pool, see :func:`ready_first_pool`):
Voila keeps ``pool_size`` entries per lesson, and a page takes the *first* one and waits for it
even when that entry is a replacement still sleeping its ``fill_delay``. So once the warm
kernels were taken, every further page waited the whole refill delay (30 s here) plus a kernel
start. ``serve`` makes a page take a kernel that is ready, and when none is ready, start its own
kernel at once (Voila's normal path) instead of waiting for a sleeping one.

Warm kernels also start one at a time, :data:`START_STEP` seconds apart, both when the server
starts (taking turns between the lessons) and when the pool refills (``fill_delay`` after a page
took one). Voila starts them all at the same moment: measured on 2 cores, a page opened while
60 warm kernels were starting took 68 s; started one by one, the CPU has room for the pages.

Examples::

    tokens-edu serve                         # the project's lessons/, port 8866, 4 warm kernels per page
    tokens-edu serve --pool-size 30 --preheat-only 03-task-and-audit
    tokens-edu serve --lessons my-lessons --port 9000 --data-dir /srv/answers
    tokens-edu lessons copy my-lessons       # an editable copy of the kit's lessons

Exit codes: 0 after Ctrl-C (or SIGTERM), 2 for a problem the user can fix (a busy port, a
missing lessons folder, a bad option), 1 when Voila itself stopped with an error.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

try:
    from .bundle import copy_lessons, lessons_dir
except ImportError:  # loaded by its path inside the Voila process (see _VOILA_MAIN_READY_FIRST)
    copy_lessons = lessons_dir = None

__all__ = ["main", "build_parser", "voila_command", "DEFAULT_LESSONS", "DEFAULT_PORT"]

#: The kit's lessons: inside the installed package (a wheel), or ``<repo>/lessons`` of a source
#: checkout (see :mod:`tokens_edu.bundle`). ``tokens-edu lessons copy DIR`` makes an editable copy.
DEFAULT_LESSONS = lessons_dir() if lessons_dir else None
DEFAULT_PORT = 8866
#: The lessons' first page: a list of the lessons that keeps the student's ``?student=`` name.
START_PAGE = "00-start-here.ipynb"
#: Warm kernels per page. Each uses ~55 MiB (PSS), so 7 pages x 4 = 28 kernels is ~1.5 GiB
#: and takes about a minute and a half to warm on 2 cores (one every START_STEP s): light enough
#: for a teacher's laptop. For a class, give the class size and today's lesson:
#: ``--pool-size 30 --preheat-only 03-task-and-audit``.
DEFAULT_POOL = 4
#: Seconds before the first replacement of a taken warm kernel starts. Voila's default is 1 s;
#: measured with 30 students opening lesson 01 at once on 2 cores, the 30 replacements starting
#: 1 s later pushed the page time from 1.2 s to 34 s (p95). Pages never wait for a replacement
#: (see the module docs), and replacements start :data:`START_STEP` s apart.
DEFAULT_REFILL_DELAY = 10
#: Seconds between two warm kernels starting (any lesson). A kernel takes about 2-3 s of CPU
#: to start and run a lesson on these 2-core machines, so this keeps up without piling up.
START_STEP = 3
HOST = "127.0.0.1"

#: Folders of the lessons folder that the lesson list at ``/`` does not show (they hold data the
#: lessons read, not pages for students). Added to jupyter_server's usual hidden names.
HIDDEN_IN_LIST = ["scenarios"]
_USUAL_HIDE_GLOBS = ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~"]

#: ``python -c`` program equal to ``python -m voila`` but without one traitlets warning and with
#: the ready-first pool (this file is loaded by its path: the Voila server does not need to import
#: the ``tokens_edu`` package and its card data).
_VOILA_MAIN_READY_FIRST = (
    "import importlib.util, sys, warnings; from voila.app import main; "
    "warnings.filterwarnings('ignore', message='--kernel_pools_config=', category=DeprecationWarning); "
    "spec = importlib.util.spec_from_file_location('_tokens_edu_serve', {path!r}); "
    "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); "
    "mod.use_ready_first_pool({step!r}, {lessons!r}); sys.exit(main())"
)


class _StartSchedule:
    """When each warm kernel may start (event loop time): one every ``step`` seconds.

    ``voila.voila_kernel_manager.wait_before`` is replaced by :meth:`wait_before`, which takes
    the next planned time from :attr:`planned` (set by ``fill_if_needed`` just before Voila
    makes its tasks) and sleeps until then.
    """

    def __init__(self, step: float, lessons: int):
        self.step = step
        self.lessons = max(1, lessons)
        self.next_free = 0.0
        self.first_fills = 0  # lessons whose pools were filled at start (they take turns)
        self.planned: list[float] = []

    def plan(self, now: float, delay: float, count: int, at_start: bool) -> list[float]:
        """Start times for ``count`` new warm kernels of one lesson."""
        if at_start and count:  # the server starts: each pooled lesson gets one kernel a round
            turn = self.first_fills
            self.first_fills += 1
            times = [now + delay + (k * self.lessons + turn) * self.step for k in range(count)]
        else:  # a refill (or a lesson without a pool): after every start already planned
            times = []
            for _ in range(count):
                at = max(now + delay, self.next_free)
                times.append(at)
                self.next_free = at + self.step
        if times:
            self.next_free = max(self.next_free, max(times) + self.step)
        return times

    def wait_before(self, delay: float, aw):
        """Voila's ``wait_before(delay, aw)``, sleeping until the planned time when there is one."""
        import asyncio

        at = self.planned.pop(0) if self.planned else None

        async def later():
            loop = asyncio.get_running_loop()
            try:
                await asyncio.sleep(delay if at is None else max(0.0, at - loop.time()))
            except asyncio.CancelledError:  # stopped while waiting: the kernel never starts
                if hasattr(aw, "close"):
                    aw.close()
                raise
            return await aw

        return later()


def ready_first_pool(cls: type, schedule: _StartSchedule | None = None) -> type:
    """A subclass of Voila 0.5's preheating kernel manager ``cls`` that never makes a page wait
    for a warm kernel that has not started yet.

    * :meth:`get_pool_size` counts the warm kernels a page may take: ready ones, and ones already
      starting (not those still waiting for their start time). Voila's handler takes a warm
      kernel only when this is above 0, else it starts a kernel for the page at once.
    * :meth:`get_rendered_notebook` takes a ready kernel first, else the one that began
      starting first, never a waiting one (Voila takes the first entry, whatever it is).
    * :meth:`fill_if_needed` plans when each new warm kernel starts (see :class:`_StartSchedule`;
      the schedule's ``wait_before`` must be the one Voila calls, as :func:`use_ready_first_pool`
      arranges).
    """
    import asyncio
    import weakref

    if schedule is None:
        schedule = _StartSchedule(START_STEP, 1)

    def ready(task) -> bool:
        return task.done() and not task.cancelled() and task.exception() is None

    class ReadyFirstKernelManager(cls):
        def _starts(self) -> weakref.WeakKeyDictionary:
            """When each pool entry begins starting its kernel (event loop time)."""
            if "_tokens_starts" not in self.__dict__:
                self.__dict__["_tokens_starts"] = weakref.WeakKeyDictionary()
            return self.__dict__["_tokens_starts"]

        def _takeable(self, notebook_name: str) -> list[int]:
            """Indexes of the pool entries a page may take, best first."""
            pool = self._pools.get(notebook_name, [])
            now = asyncio.get_event_loop().time()
            starts = self._starts()
            done = [i for i, t in enumerate(pool) if ready(t)]
            starting = sorted((starts.get(t, 0.0), i) for i, t in enumerate(pool)
                              if not t.done() and starts.get(t, 0.0) <= now)
            return done + [i for _, i in starting]

        def get_pool_size(self, notebook_name: str) -> int:
            return len(self._takeable(notebook_name))

        async def get_rendered_notebook(self, notebook_name, extra_kernel_env_variables={},
                                        **kwargs):
            pool = self._pools.get(notebook_name, [])
            best = self._takeable(notebook_name)
            if best and best[0]:  # move it to the front, where Voila takes from
                pool.insert(0, pool.pop(best[0]))
            return await super().get_rendered_notebook(
                notebook_name, extra_kernel_env_variables, **kwargs)

        def _wanted_size(self, notebook_name) -> int:
            config = self.kernel_pools_config
            default = config.get("default", {})
            return config.get(notebook_name, default).get("pool_size",
                                                          default.get("pool_size", 1))

        def fill_if_needed(self, delay=None, notebook_name=None, extra_kernel_env_variables={},
                           **kwargs):
            pool = self._pools.get(notebook_name, [])
            at_start = delay is not None  # Voila passes 0 at start, None for a refill
            delay = self.fill_delay if delay is None else delay
            now = asyncio.get_event_loop().time()
            missing = max(0, self._wanted_size(notebook_name) - len(pool))
            times = schedule.plan(now, delay, missing, at_start)
            schedule.planned = list(times)
            before = set(pool)
            try:
                result = super().fill_if_needed(delay, notebook_name,
                                                extra_kernel_env_variables, **kwargs)
            finally:
                schedule.planned = []
            starts = self._starts()
            new = [t for t in self._pools.get(notebook_name, []) if t not in before]
            for task, at in zip(new, times):
                starts[task] = at
            return result

    ReadyFirstKernelManager.__name__ = ReadyFirstKernelManager.__qualname__ = cls.__name__
    return ReadyFirstKernelManager


def use_ready_first_pool(step: float = START_STEP, lessons: int = 1) -> None:
    """In the Voila process: make ``voila.app`` build its preheat pool with
    :func:`ready_first_pool`, warm kernels starting ``step`` s apart (``lessons`` take turns)."""
    import voila.app
    import voila.voila_kernel_manager

    schedule = _StartSchedule(step, lessons)
    voila.voila_kernel_manager.wait_before = schedule.wait_before
    factory = voila.app.voila_kernel_manager_factory

    def ready_first_factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs):
        cls = factory(base_class, preheat_kernel, default_pool_size, *args, **kwargs)
        return ready_first_pool(cls, schedule) if preheat_kernel else cls

    voila.app.voila_kernel_manager_factory = ready_first_factory


class UsageProblem(Exception):
    """A problem the user can fix (exit code 2); the message says how, in plain words."""


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the port must be a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be between 1 and 65535, not {port}")
    return port


def _count(low: int, high: int):
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low} to {high}, not {n}")
        return n

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tokens-edu`` (subcommands ``serve`` and ``lessons copy``)."""
    parser = argparse.ArgumentParser(
        prog="tokens-edu",
        description="Tokens TCG teaching kit: serve the Jupyter lessons to a class.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve = sub.add_parser(
        "serve",
        help="serve the lessons with Voila (one page per student)",
        description=(
            "Serve the lessons folder with Voila at http://127.0.0.1:PORT/. Each lesson gets a "
            "pool of warm kernels so a class can open it at once: a page with a warm kernel "
            "shows in a few seconds; when none is ready, the page starts its own kernel at "
            "once (several seconds, longer when many start together). Set --pool-size to the "
            "class size and --preheat-only to today's lesson, e.g. --pool-size 30 "
            "--preheat-only 03-task-and-audit (each warm kernel uses about 55 MiB and a couple "
            "of seconds of CPU to start; warm kernels start one every 3 s, so 30 are ready "
            "after about 90 s. The pool is per lesson: the default 10 for six lessons is 60 "
            "kernels, about 3.3 GiB, ready about 3 minutes after the start). Kernels of pages "
            "nobody has open are "
            "stopped after --cull-idle-timeout seconds. Press Ctrl-C to stop."
        ),
    )
    serve.add_argument("--lessons", metavar="DIR", type=Path, default=DEFAULT_LESSONS,
                       help=f"folder of lesson notebooks (default: {DEFAULT_LESSONS})")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT,
                       help=f"port to listen on (default: {DEFAULT_PORT})")
    serve.add_argument("--host", default=HOST, metavar="ADDRESS",
                       help=f"address to listen on (default: {HOST}, this computer only). "
                            "0.0.0.0 lets other computers on the network open the lessons: "
                            "there is no login, so do that only on a school network you trust")
    serve.add_argument("--pool-size", type=_count(0, 500), default=DEFAULT_POOL, metavar="N",
                       help=f"warm kernels kept ready per lesson: set it to the class size "
                            f"(with --preheat-only for today's lesson); 0 turns warm kernels "
                            f"off (default: {DEFAULT_POOL})")
    serve.add_argument("--preheat-only", action="append", default=[], metavar="LESSON",
                       help="keep warm kernels only for this lesson (a notebook name, .ipynb "
                            "optional); repeat for more. Other lessons start a kernel per page.")
    serve.add_argument("--refill-delay", type=_count(0, 3600), default=DEFAULT_REFILL_DELAY,
                       metavar="SECONDS",
                       help="wait this long after a warm kernel is taken before starting its "
                            f"replacement (then one more every {START_STEP} s), so a class "
                            "arriving together is not slowed down by new kernels starting; "
                            "no page ever waits for a replacement "
                            f"(default: {DEFAULT_REFILL_DELAY})")
    serve.add_argument("--cull-idle-timeout", type=_count(0, 7 * 24 * 3600), default=600,
                       metavar="SECONDS",
                       help="stop a kernel whose page is closed and that has been idle this "
                            "long; 0 never stops them (default: 600)")
    serve.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                       help="folder for saved Discuss answers (sets TOKENS_EDU_DATA for the "
                            "lessons; default: TOKENS_EDU_DATA or the per-user data folder)")
    lessons = sub.add_parser(
        "lessons", help="copy the kit's lessons to a folder, to change them",
        description="The kit's lessons are installed with it. Copy them to a folder of your "
                    "own to change them, then serve that folder: tokens-edu serve --lessons DIR")
    lessons_sub = lessons.add_subparsers(dest="lessons_command", metavar="ACTION", required=True)
    copy = lessons_sub.add_parser(
        "copy", help="copy the lessons (notebooks and scenarios) into DIR",
        description="Copy the kit's lessons (the notebooks and their scenarios folder) into "
                    "DIR, made if missing. Files already in DIR are kept as they are, so your "
                    "changes are never lost, unless you add --overwrite.")
    copy.add_argument("dir", metavar="DIR", type=Path, help="the folder to copy the lessons into")
    copy.add_argument("--overwrite", action="store_true",
                      help="replace files that are already in DIR with the kit's versions")
    from .teacher_cli import add_commands  # check-scenario, teacher, roster (teacher_cli.py)

    add_commands(sub)
    from .simulation import add_simulate_command  # simulate (simulation.py)

    add_simulate_command(sub)
    return parser


def _lessons_copy(args: argparse.Namespace) -> int:
    try:
        copied, kept = copy_lessons(args.dir, overwrite=args.overwrite)
    except ValueError as e:
        raise UsageProblem(str(e)) from None
    dest = args.dir.expanduser().resolve()
    print(f"Copied {len(copied)} file(s) into {dest}.", flush=True)
    if kept:
        print(f"Kept {len(kept)} file(s) that were already there (add --overwrite to replace "
              f"them): {', '.join(str(p.relative_to(dest)) for p in kept)}", flush=True)
    print(f"Serve them with: tokens-edu serve --lessons {dest}", flush=True)
    return 0


def _lesson_names(lessons: Path) -> list[str]:
    """The notebooks under ``lessons`` as paths relative to it, skipping checkpoints."""
    return sorted(str(p.relative_to(lessons)) for p in lessons.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


def voila_command(lessons: Path, port: int, pool_size: int, cull_idle_timeout: int = 600,
                  preheat_only: list[str] | None = None,
                  refill_delay: int = DEFAULT_REFILL_DELAY, host: str = HOST) -> list[str]:
    """The command line that starts Voila for ``serve`` (a list for ``subprocess``).

    Args:
        lessons: the folder of notebooks (absolute path).
        port: the TCP port.
        pool_size: warm kernels per lesson; 0 turns preheating off.
        cull_idle_timeout: seconds an unconnected, idle kernel lives; 0 keeps them forever.
        preheat_only: notebook names relative to ``lessons`` that get the pool (None: all).
        refill_delay: seconds before a taken warm kernel is replaced.
        host: the address to listen on (default 127.0.0.1).

    Returns:
        list[str]: ``[sys.executable, "-m", "voila", ...]`` without a pool, else
        ``[sys.executable, "-c", <voila main with the ready-first pool>, ...]``.
    """
    cmd = [
        sys.executable, "-m", "voila", str(lessons),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",  # never drift to another port: the printed URL must be right
        "--show_tracebacks=False",
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
        # traitlets warns that a {...} dict on the command line is old style, but it is the
        # only way to give nested values there. Importing Voila resets the warning filters
        # (so ``-W`` cannot help): run Voila's own ``main`` after adding the filter, and after
        # switching on the ready-first pool.
        pooled = (len(preheat_only) if preheat_only
                  else len(_lesson_names(lessons)) if lessons.is_dir() else 1)
        cmd[1:3] = ["-c", _VOILA_MAIN_READY_FIRST.format(
            path=str(Path(__file__).resolve()), step=float(START_STEP), lessons=max(1, pooled))]
    return cmd


def _port_is_free(port: int, host: str = HOST) -> bool:
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


def _answers_port(port: int, host: str = HOST) -> bool:
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


def _serve(args: argparse.Namespace) -> int:
    lessons = args.lessons.expanduser().resolve()
    if not lessons.is_dir():
        what = "is a file, not a folder" if lessons.exists() else "does not exist"
        raise UsageProblem(f"There is no lessons folder at {lessons} (it {what}). "
                           "Give the folder of lesson notebooks with --lessons DIR.")
    names = _lesson_names(lessons)
    if not names:
        print(f"Note: {lessons} holds no notebooks (.ipynb) yet.", flush=True)
    preheat_only = []
    for want in args.preheat_only:
        name = want if want.endswith(".ipynb") else want + ".ipynb"
        if name not in names:
            raise UsageProblem(f"--preheat-only: there is no lesson {want!r} in {lessons}. "
                               f"The lessons are: {', '.join(names) or 'none'}.")
        preheat_only.append(name)
    if not _port_is_free(args.port, args.host):
        raise UsageProblem(f"Port {args.port} is already in use (maybe tokens-edu is already "
                           f"running). Stop the other server, or pick another port with --port.")
    env = dict(os.environ)
    if args.data_dir is not None:
        data = args.data_dir.expanduser().resolve()
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageProblem(f"Cannot make the data folder {data}: {e.strerror or e}.") from None
        env["TOKENS_EDU_DATA"] = str(data)
    # The venv's kernelspec "python3" (shipped by ipykernel in <venv>/share/jupyter) wins over a
    # user-wide one in ~/.local/share/jupyter, so the kernels run this same Python and package.
    env["JUPYTER_PREFER_ENV_PATH"] = "1"

    # Voila runs as a child process of this same Python (sys.executable -m voila) rather than
    # in-process: Voila owns its Tornado loop, traitlets config and signal handlers; the kernels
    # inherit TOKENS_EDU_DATA from the child's environment without touching ours; and this
    # process can always stop it cleanly (SIGTERM is forwarded; the child also gets SIGTERM if
    # this process dies, so no server is left behind).
    cmd = voila_command(lessons, args.port, args.pool_size, args.cull_idle_timeout, preheat_only,
                        args.refill_delay, args.host)
    shown = HOST if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{shown}:{args.port}/"
    warm = "off" if args.pool_size == 0 else f"{args.pool_size} per lesson"
    if args.pool_size and preheat_only:
        warm += f" ({', '.join(preheat_only)})"
    answers = (env.get("TOKENS_EDU_DB_URL") or env.get("TOKENS_EDU_DATA")
               or "the per-user data folder")
    if "://" in answers:  # a database URL may hold a password: show only its kind
        answers = answers.split("://", 1)[0] + " database"
    start = lessons / START_PAGE
    begin = (f"Students start at {url.rstrip('/')}/voila/render/{START_PAGE}?student=THEIR-NAME\n"
             if start.is_file() else "")
    print(f"Serving {len(names)} lesson(s) from {lessons}\n"
          f"Warm kernels: {warm}. Answers are saved in {answers}.\n"
          f"Open {url} in a browser. {begin}Press Ctrl-C to stop.", flush=True)
    if shown != args.host:
        print("Other computers open the same address with this computer's network address "
              f"instead of {HOST}.", flush=True)
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
                if not ready and _answers_port(args.port, args.host):
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


def main(argv: list[str] | None = None) -> int:
    """Run ``tokens-edu`` with ``argv`` (default: the command line's arguments).

    Args:
        argv: the arguments after the program name, e.g. ``["serve", "--port", "9000"]``.

    Returns:
        int: the exit code (0 done, 1 Voila failed, 2 a problem the user can fix). Bad options
        make argparse print its message and exit with code 2 (``SystemExit``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "lessons":
            return _lessons_copy(args)
        if getattr(args, "run", None) is not None:  # the commands of teacher_cli.py and simulation.py
            return args.run(args)
    except UsageProblem as e:
        print(f"tokens-edu: {e}", file=sys.stderr, flush=True)
        return 2
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover - argparse stops first
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
