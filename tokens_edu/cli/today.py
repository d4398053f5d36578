"""``tokens-edu today [LESSON]``: tell a running lesson server which lesson the class opens today.

The server then keeps warm kernels (kernels that have already run the lesson, so its page opens
at once) for the whole class on that lesson (see :mod:`tokens_edu.server.today`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..content.bundle import lessons_dir
from ..errors import UsageProblem
from ..server.launcher import lesson_names
from ..server.today import read_today, resolve_lesson, write_today
from ..store.db import data_folder
from .common import shown

__all__ = ["add_command", "run"]


def add_command(sub) -> None:
    """Add ``today`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
    today = sub.add_parser(
        "today",
        help="tell the running lesson server today's lesson (it warms kernels for the class)",
        description=(
            "Tell the lesson server (tokens-edu serve) which lesson the class opens today: it "
            "then keeps warm kernels for the whole class on it, so every student's page opens at "
            "once. Give the lesson's name or number (03). Without a lesson, say which lesson is "
            "today's. The server reads it within a few seconds. Use the same --data-dir as "
            "'tokens-edu serve'."
        ),
    )
    today.add_argument("lesson", nargs="?", default=None, metavar="LESSON",
                       help="the lesson: its notebook name, or just its number (e.g. 03)")
    today.add_argument("--clear", action="store_true",
                       help="no lesson is today's lesson: warm kernels follow the pages students open")
    today.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                       help="the server's data folder, as given to 'tokens-edu serve' (default: "
                            "TOKENS_EDU_DATA, or the per-user data folder)")
    today.add_argument("--lessons", metavar="DIR", type=Path, default=None,
                       help="the lessons folder, as given to 'tokens-edu serve' (default: the "
                            "kit's lessons)")
    today.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tokens-edu today``: write (or show, or clear) today's lesson. Exit 0, or 2 for a
    problem the teacher can fix (an unknown lesson, a data folder that cannot be written)."""
    folder = (args.data_dir.expanduser().resolve() if args.data_dir is not None else data_folder())
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"--data-dir {folder} is a file, not a folder.")
    if args.lesson is None and not args.clear:
        lesson, _ = read_today(folder)
        print(f"Today's lesson: {shown(lesson)}." if lesson else
              "No lesson is today's lesson: warm kernels follow the pages students open.")
        return 0
    lesson = None
    if not args.clear:
        lessons = (args.lessons or lessons_dir()).expanduser()
        names = lesson_names(lessons) if lessons.is_dir() else []
        lesson = resolve_lesson(args.lesson, names)
        if lesson is None:
            raise UsageProblem(f"There is no lesson {shown(args.lesson)} in {lessons}. The lessons "
                               f"are: {', '.join(names) or 'none'}.")
    try:
        write_today(folder, lesson)
    except OSError as e:
        raise UsageProblem(f"Cannot write today's lesson in {folder}: {e.strerror or e}.") from None
    print(f"Today's lesson is {lesson}: the lesson server warms kernels for the class within a "
          "few seconds." if lesson else
          "Cleared: warm kernels follow the pages students open.", flush=True)
    sys.stdout.flush()
    return 0
