"""``tokens-edu roster``: the class list, with a short code and a personal link for each student."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..content.inputs import InputTooLarge, read_text_limited
from ..store.roster import Roster, check_base_url, slips_html
from .common import use_data_dir

__all__ = ["add_command", "run"]


def add_command(sub) -> None:
    """``tokens-edu roster``: the class list with each student's code (see :mod:`tokens_edu.store.roster`)."""
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
    roster.set_defaults(run=run, roster_parser=roster)


def run(args: argparse.Namespace) -> int:
    """``tokens-edu roster ACTION``: exit 0 done, 2 a problem the teacher can fix."""
    action = getattr(args, "roster_action", None)
    if action is None:
        args.roster_parser.print_help(sys.stderr)
        return 2
    try:
        use_data_dir(args.data_dir)
        r = Roster()
        if action == "add":
            names = list(args.names)
            if args.file is not None:
                try:
                    text = read_text_limited(args.file.expanduser(), "class list")
                except InputTooLarge as e:
                    raise ValueError(str(e)) from None
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
