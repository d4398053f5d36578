"""``tokens-edu teacher``: the teacher's live dashboard (see :mod:`tokens_edu.teacher`)."""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from pathlib import Path

from ..content.bundle import lessons_dir
from ..content.inputs import InputTooLarge, read_text_limited
from ..server import today as today_file
from ..store.db import data_folder, default_url
from ..store.migrate import start_problem
from ..teacher.auth import TokenAuth, password_problem
from ..teacher.dashboard import DEFAULT_PORT, serve
from ..teacher.hub_auth import HubTeacherAuth, running_as_hub_service
from .common import use_data_dir

__all__ = ["add_command", "run", "TodayFile"]


class TodayFile:
    """Today's lesson for the dashboard's control (``make_app(today=...)``): the file the lesson
    server reads (:mod:`tokens_edu.server.today`) in the data folder both use.

    Args:
        folder: the data folder (``--data-dir``, as given to ``tokens-edu serve``).
        lessons: the lessons folder (the lessons offered).
    """

    def __init__(self, folder: Path, lessons: Path):
        self.folder, self.lessons = folder, lessons

    def options(self) -> list[tuple[str, str]]:
        """(notebook name, what the menu shows) of every numbered lesson."""
        return [(p.name, p.stem) for p in sorted(self.lessons.glob("[0-9][0-9]-*.ipynb"))
                if not p.name.startswith("00-")]

    def current(self) -> str | None:
        """The lesson set now, or None."""
        return today_file.read_today(self.folder)[0]

    def set(self, lesson: str | None) -> None:
        """Set today's lesson (None clears it). Raises OSError when the file cannot be written."""
        today_file.write_today(self.folder, lesson)


def add_command(sub) -> None:
    """``tokens-edu teacher``: the live dashboard (see :mod:`tokens_edu.teacher.dashboard`)."""
    teacher = sub.add_parser(
        "teacher",
        help="the teacher dashboard: answers, progress, answer wall, games (updates live)",
        description=(
            "Serve the teacher dashboard at http://127.0.0.1:PORT/: every student's answers by "
            "student, lesson and card, a progress grid, an answer wall without names to project, "
            "saved games with replays, and a CSV download that spreadsheets open safely. It "
            "updates by itself while the class works. It reads the same answers as "
            "'tokens-edu serve' (give the same --data-dir). Every page needs the token printed "
            "at start (in a link that logs you in), or your password in the login form "
            "(--password-file, or the environment variable TOKENS_EDU_TEACHER_PASSWORD). "
            "Each wrong guess makes the computer that made it wait longer (up to a minute) before "
            "its next one; the token link always works, and so does this computer. A password "
            "has at least 12 characters. Press Ctrl-C to stop."
        ),
    )
    teacher.add_argument("--port", type=int, default=DEFAULT_PORT,
                         help=f"port to listen on (default: {DEFAULT_PORT})")
    teacher.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                         help="address to listen on (default: 127.0.0.1, this computer only). "
                              "Another address lets other computers open the dashboard: the "
                              "token then travels unencrypted, so do that only on a network you trust")
    teacher.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                         help="folder of the saved answers, as given to 'tokens-edu serve' "
                              "(default: TOKENS_EDU_DATA, or the per-user data folder)")
    teacher.add_argument("--password-file", metavar="FILE", type=Path, default=None,
                         help="a file whose first line is a teacher password (typed in the login "
                              "form, as well as the token)")
    teacher.add_argument("--lessons", metavar="DIR", type=Path, default=None,
                         help="the lessons folder, as given to 'tokens-edu serve' (its Discuss "
                              "questions are the progress grid's columns; default: the "
                              "project's lessons)")
    teacher.add_argument("--base-url", default="/", metavar="PATH",
                         help="serve under this path, e.g. /teacher/ behind a proxy (default: /)")
    teacher.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tokens-edu teacher``: serve the dashboard until Ctrl-C. Exit 0, or 2 for a problem
    the teacher can fix (a busy port, an unreadable password file, a bad data folder, an
    answers database at a wrong revision)."""
    if not 1 <= args.port <= 65535:
        print(f"tokens-edu: the port must be between 1 and 65535, not {args.port}.", file=sys.stderr)
        return 2
    password = os.environ.get("TOKENS_EDU_TEACHER_PASSWORD", "").strip() or None
    if args.password_file is not None:
        try:
            lines = read_text_limited(args.password_file.expanduser(), "password").splitlines()
        except InputTooLarge as e:
            print(f"tokens-edu: {e}", file=sys.stderr)
            return 2
        except (OSError, UnicodeDecodeError) as e:
            print(f"tokens-edu: cannot read the password file {args.password_file}: "
                  f"{getattr(e, 'strerror', None) or e}.", file=sys.stderr)
            return 2
        password = lines[0].strip() if lines and lines[0].strip() else None
        if password is None:
            print(f"tokens-edu: the password file {args.password_file} is empty.", file=sys.stderr)
            return 2
    if password is not None and password_problem(password):
        print(f"tokens-edu: {password_problem(password)}", file=sys.stderr)
        return 2
    try:
        use_data_dir(args.data_dir)

        url = default_url()
    except ValueError as e:
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    problem = start_problem(url, str(args.data_dir) if args.data_dir is not None else None)
    if problem:  # an older database, or a revision this tokens-edu does not know: one line
        print(f"tokens-edu: {problem}", file=sys.stderr)
        return 2
    auth = TokenAuth(token=os.environ.get("TOKENS_EDU_TEACHER_TOKEN", "").strip() or None,
                     password=password)

    if running_as_hub_service():  # started by JupyterHub as a service: the Hub's login instead
        from urllib.parse import urlsplit


        try:
            auth = HubTeacherAuth()
        except ValueError as e:
            print(f"tokens-edu: {e}", file=sys.stderr)
            return 2
        service = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
        if service.port:
            args.host, args.port = service.hostname or args.host, service.port
        args.base_url = os.environ.get("JUPYTERHUB_SERVICE_PREFIX") or args.base_url
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    base = "/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/"
    address = f"http://{shown_host}:{args.port}{base}"
    where = url.split("://", 1)[0] + " database" if not url.startswith("sqlite:") else url[len("sqlite:///"):]

    def ready(app) -> None:
        if auth.token is None:  # the Hub's login (hub_auth.HubTeacherAuth)
            print(f"Teacher dashboard for the answers in {where}, at {base} on JupyterHub "
                  "(teachers log in there).", flush=True)
            return
        print(f"Teacher dashboard for the answers in {where}\n"
              f"Open this link (it logs you in):\n\n    {address}login?token={auth.token}\n\n"
              f"or open {address}login and type the token {auth.token}"
              + (" or your password" if password else "") + ".\n"
              "Keep the link to yourself: it shows every student's answers. Press Ctrl-C to stop.",
              flush=True)
        if shown_host != args.host:
            print("Other computers use this computer's network address instead of 127.0.0.1.",
                  flush=True)

    lessons = args.lessons.expanduser() if args.lessons else lessons_dir()
    # under JupyterHub each student has a lesson server of their own: nothing to tell
    today = (TodayFile(data_folder(), lessons)
             if auth.token is not None and url.startswith("sqlite:") else None)
    try:
        serve(port=args.port, host=args.host, url=url, auth=auth, base_url=args.base_url, ready=ready,
              lessons=lessons, today=today)
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
        return 0
    except ValueError as e:  # the database cannot be opened
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    except socket.gaierror:
        print(f"tokens-edu: {args.host!r} is not an address this computer knows. Use 127.0.0.1.",
              file=sys.stderr)
        return 2
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            print(f"tokens-edu: port {args.port} is already in use (maybe the dashboard is "
                  "already running). Stop it, or pick another port with --port.", file=sys.stderr)
        elif e.errno == errno.EADDRNOTAVAIL:
            print(f"tokens-edu: {args.host} is not an address of this computer. Use 127.0.0.1.",
                  file=sys.stderr)
        else:
            print(f"tokens-edu: cannot listen on {args.host}:{args.port}: {e.strerror or e}.",
                  file=sys.stderr)
        return 2
    return 0
