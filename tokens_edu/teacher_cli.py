"""The teacher's commands of ``tokens-edu``: ``check-scenario``, ``teacher`` (the dashboard)
and ``roster`` (the class list with codes).

:func:`add_commands` adds them to the ``tokens-edu`` parser of :mod:`tokens_edu.cli`; each sets
``args.run``, a function ``run(args) -> exit code``. Exit codes follow ``tokens-edu``: 0 done,
1 a check found problems, 2 a problem the user can fix before the command can run (a missing
file, a bad option).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

__all__ = ["add_commands"]


def add_commands(sub) -> None:
    """Add the teacher's subcommands to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
    check = sub.add_parser(
        "check-scenario",
        help="check a scenario file and list every problem with its line number",
        description=(
            "Check one or more scenario files (YAML, the format of Game.from_scenario) and list "
            "every problem at once, each with its line number, in plain words. A good file is "
            "then really set up as a game, and a short summary is printed. See docs/scenarios.md "
            "for how to write a 'find the best move' puzzle."
        ),
    )
    check.add_argument("files", nargs="+", metavar="FILE", type=Path, help="scenario file(s), .yaml")
    check.add_argument("--moves", action="store_true",
                       help="also list every move the player to act can make in a good scenario")
    check.add_argument("--quiet", "-q", action="store_true",
                       help="print only the problems (nothing for a good file)")
    check.set_defaults(run=run_check_scenario)
    add_teacher_command(sub)
    add_roster_command(sub)


def run_check_scenario(args: argparse.Namespace) -> int:
    """``tokens-edu check-scenario FILE...``: print every problem; exit 0 (all good), 1
    (problems found) or 2 (a file cannot be read)."""
    from .scenario_check import check_scenario, describe

    worst = 0
    for path in args.files:
        shown = str(path)
        try:
            problems = check_scenario(path.expanduser())
        except IsADirectoryError:
            print(f"{shown}: this is a folder, not a scenario file.", file=sys.stderr)
            worst = 2
            continue
        except FileNotFoundError:
            print(f"{shown}: there is no such file.", file=sys.stderr)
            worst = 2
            continue
        except OSError as e:
            print(f"{shown}: cannot read it ({e.strerror or e}).", file=sys.stderr)
            worst = 2
            continue
        if problems:
            for p in problems:
                print(p.text(shown))
            n = len(problems)
            print(f"{shown}: {n} problem{'s' if n != 1 else ''} found. Fix "
                  f"{'them' if n != 1 else 'it'}, then check again.")
            worst = max(worst, 1)
            continue
        if args.quiet:
            continue
        print(f"{shown}: OK, no problems found.")
        try:
            for line in describe(path.expanduser(), moves=args.moves):
                print(f"  {line}")
        except ValueError as e:  # the check passed, so this is unexpected; still in plain words
            print(f"{shown}: {e}")
            worst = max(worst, 1)
    sys.stdout.flush()
    return worst


def add_teacher_command(sub) -> None:
    """``tokens-edu teacher``: the live dashboard (see :mod:`tokens_edu.dashboard`)."""
    from .dashboard import DEFAULT_PORT

    teacher = sub.add_parser(
        "teacher",
        help="the teacher dashboard: answers, progress, answer wall, games (updates live)",
        description=(
            "Serve the teacher dashboard at http://127.0.0.1:PORT/: every student's answers by "
            "student, lesson and card, a progress grid, an answer wall without names to project, "
            "saved games with replays, and a CSV download that spreadsheets open safely. It "
            "updates by itself while the class works. It reads the same answers as "
            "'tokens-edu serve' (give the same --data-dir). Every page needs the token printed "
            "at start, or your password (--password-file, or the environment variable "
            "TOKENS_EDU_TEACHER_PASSWORD). Press Ctrl-C to stop."
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
                         help="a file whose first line is a teacher password (accepted as well "
                              "as the token)")
    teacher.add_argument("--lessons", metavar="DIR", type=Path, default=None,
                         help="the lessons folder, as given to 'tokens-edu serve' (its Discuss "
                              "questions are the progress grid's columns; default: the "
                              "project's lessons)")
    teacher.add_argument("--base-url", default="/", metavar="PATH",
                         help="serve under this path, e.g. /teacher/ behind a proxy (default: /)")
    teacher.set_defaults(run=run_teacher)


def _data_dir_env(data_dir: Path | None) -> None:
    """Point the journal at ``data_dir`` (like ``serve --data-dir``); ValueError if unusable."""
    import os

    if data_dir is None:
        return
    folder = data_dir.expanduser().resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"Cannot make the data folder {folder}: {e.strerror or e}.") from None
    os.environ["TOKENS_EDU_DATA"] = str(folder)


def run_teacher(args: argparse.Namespace) -> int:
    """``tokens-edu teacher``: serve the dashboard until Ctrl-C. Exit 0, or 2 for a problem
    the teacher can fix (a busy port, an unreadable password file, a bad data folder)."""
    import errno
    import os
    import socket

    from .dashboard import TokenAuth, serve

    if not 1 <= args.port <= 65535:
        print(f"tokens-edu: the port must be between 1 and 65535, not {args.port}.", file=sys.stderr)
        return 2
    password = os.environ.get("TOKENS_EDU_TEACHER_PASSWORD", "").strip() or None
    if args.password_file is not None:
        try:
            lines = args.password_file.expanduser().read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            print(f"tokens-edu: cannot read the password file {args.password_file}: "
                  f"{getattr(e, 'strerror', None) or e}.", file=sys.stderr)
            return 2
        password = lines[0].strip() if lines and lines[0].strip() else None
        if password is None:
            print(f"tokens-edu: the password file {args.password_file} is empty.", file=sys.stderr)
            return 2
    if password is not None and len(password) < 8:
        print("tokens-edu: the teacher password must have at least 8 characters.", file=sys.stderr)
        return 2
    try:
        _data_dir_env(args.data_dir)
        from .journal import default_url

        url = default_url()
    except ValueError as e:
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    auth = TokenAuth(token=os.environ.get("TOKENS_EDU_TEACHER_TOKEN", "").strip() or None,
                     password=password)
    from .hub_auth import running_as_hub_service

    if running_as_hub_service():  # started by JupyterHub as a service: the Hub's login instead
        from urllib.parse import urlsplit

        from .hub_auth import HubTeacherAuth

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
              f"Open this link (it logs you in):\n\n    {address}?token={auth.token}\n\n"
              f"or open {address}login and type the token {auth.token}"
              + (" or your password" if password else "") + ".\n"
              "Keep the link to yourself: it shows every student's answers. Press Ctrl-C to stop.",
              flush=True)
        if shown_host != args.host:
            print("Other computers use this computer's network address instead of 127.0.0.1.",
                  flush=True)

    try:
        from .bundle import lessons_dir  # the kit's lessons, as `tokens-edu serve` finds them

        serve(port=args.port, host=args.host, url=url, auth=auth, base_url=args.base_url, ready=ready,
              lessons=args.lessons.expanduser() if args.lessons else lessons_dir())
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



def add_roster_command(sub) -> None:
    """``tokens-edu roster``: the class list with each student's code (see :mod:`tokens_edu.roster`)."""
    roster = sub.add_parser(
        "roster",
        help="the class list: a short code and a personal link for each student",
        description=(
            "Keep a class list so that students' names are safe without logins: each student "
            "gets a short code and a personal link (...?code=XXXXXX). With a class list, a lesson "
            "takes the student's name from the code (there is no name box), and nobody can save "
            "an answer under a classmate's name without that classmate's code. Without a class "
            "list, the lessons ask for a name as before. Under JupyterHub the login is used."
        ),
    )
    roster.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                        help="folder of the saved answers, as given to 'tokens-edu serve'")
    actions = roster.add_subparsers(dest="roster_action", metavar="ACTION")
    common = argparse.ArgumentParser(add_help=False)  # --data-dir also after the action
    common.add_argument("--data-dir", metavar="DIR", type=Path, default=argparse.SUPPRESS,
                        help="folder of the saved answers, as given to 'tokens-edu serve'")
    add = actions.add_parser("add", parents=[common], help="add students (each gets a new code)",
                             description="Add students to the class list; each gets a new code.")
    add.add_argument("names", nargs="*", metavar="NAME", help='a student\'s name, e.g. "Ana Li"')
    add.add_argument("--file", type=Path, metavar="FILE",
                     help="also add the names in this text file, one per line")
    actions.add_parser("list", parents=[common], help="show every student with their code",
                       description="Show every student on the class list with their code.")
    slips = actions.add_parser(
        "slips", parents=[common], help="write a printable page of slips (name, code, personal link)",
        description="Write a page to print and cut: one slip per student with their name, code "
                    "and personal link.")
    slips.add_argument("--url", default=None, metavar="ADDRESS",
                       help="the address students open the lessons at, as seen from their "
                            "computers, e.g. http://192.168.1.20:8866 (default: http://127.0.0.1:8866, "
                            "which works only on this computer)")
    slips.add_argument("--out", type=Path, default=Path("slips.html"), metavar="FILE",
                       help="the page to write (default: slips.html)")
    slips.add_argument("--class-name", default="", metavar="TEXT", help="a heading for the page")
    remove = actions.add_parser("remove", parents=[common], help="take a student off the list (their answers stay)",
                                description="Take students off the class list. Their saved answers stay.")
    remove.add_argument("who", nargs="+", metavar="NAME_OR_CODE")
    new = actions.add_parser("new-code", parents=[common], help="give a student a new code (the old one stops working)",
                             description="Give a student a new code, for a lost slip or a code "
                                         "a classmate has seen. The old code stops working.")
    new.add_argument("who", nargs="+", metavar="NAME_OR_CODE")
    clear = actions.add_parser("clear", parents=[common], help="remove everyone (the lessons ask for names again)",
                               description="Remove every student from the class list.")
    clear.add_argument("--yes", action="store_true", help="really remove everyone")
    roster.set_defaults(run=run_roster, roster_parser=roster)


def run_roster(args: argparse.Namespace) -> int:
    """``tokens-edu roster ACTION``: exit 0 done, 2 a problem the teacher can fix."""
    from .roster import Roster, check_base_url, slips_html

    action = getattr(args, "roster_action", None)
    if action is None:
        args.roster_parser.print_help(sys.stderr)
        return 2
    try:
        _data_dir_env(args.data_dir)
        r = Roster()
        if action == "add":
            names = list(args.names)
            if args.file is not None:
                try:
                    text = args.file.expanduser().read_text(encoding="utf-8-sig")
                except (OSError, UnicodeDecodeError) as e:
                    raise ValueError(f"Cannot read {args.file}: {getattr(e, 'strerror', None) or e}.") from None
                names += [line for line in text.splitlines() if line.strip()]
            if not names:
                raise ValueError('Give the names to add, e.g. tokens-edu roster add "Ana" "Bo", '
                                 "or --file names.txt (one name per line).")
            added = r.add(names)
            for e in added:
                print(f"{e.code}  {e.name}")
            where = f" --data-dir {shlex.quote(str(args.data_dir))}" if args.data_dir is not None else ""
            print(f"Added {len(added)} student{'s' if len(added) != 1 else ''}. Print their slips "
                  f"with: tokens-edu roster slips{where} --url http://THIS-COMPUTER:8866")
        elif action == "list":
            entries = r.entries()
            for e in entries:
                print(f"{e.code}  {e.name}")
            print(f"{len(entries)} student{'s' if len(entries) != 1 else ''} on the class list."
                  + ("" if entries else " Names come from the name box in the lessons."))
        elif action == "slips":
            entries = r.entries()
            if not entries:
                raise ValueError('The class list is empty. Add students first: tokens-edu roster add "Ana" "Bo"')
            url = check_base_url(args.url) if args.url else "http://127.0.0.1:8866"
            out = args.out.expanduser()
            try:
                out.write_text(slips_html(entries, url, args.class_name), encoding="utf-8")
            except OSError as e:
                raise ValueError(f"Cannot write {out}: {e.strerror or e}.") from None
            print(f"Wrote {len(entries)} slips to {out}. Open it in a browser and print it.")
            if not args.url:
                print("The links point to http://127.0.0.1:8866, which opens only on this computer. "
                      "For the class, give --url with this computer's network address, e.g. "
                      "--url http://192.168.1.20:8866")
        elif action == "remove":
            for who in args.who:
                e = r.remove(who)
                print(f"Removed {e.name} ({e.code}). Their saved answers stay.")
        elif action == "new-code":
            for who in args.who:
                e = r.new_code(who)
                print(f"{e.code}  {e.name} (new code; the old one no longer works)")
        elif action == "clear":
            if not args.yes:
                raise ValueError("This removes everyone from the class list. Add --yes to do it.")
            n = r.clear()
            print(f"Removed {n} student{'s' if n != 1 else ''}. The lessons ask for names again.")
    except ValueError as e:
        print(f"tokens-edu: {e}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    return 0
