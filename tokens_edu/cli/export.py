"""``tokens-edu export FILE``: the saved Discuss answers as a CSV file a spreadsheet opens safely."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from ..errors import UsageProblem
from ..store import JournalUnavailable, Stores, data_folder

__all__ = ["add_command", "run"]


def add_command(sub) -> None:
    """Add ``export`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
    export = sub.add_parser(
        "export",
        help="write the saved Discuss answers to a CSV file for a spreadsheet",
        description=(
            "Write the saved Discuss answers (not drafts) to a CSV file, oldest first, one line "
            "per answer: id, student, lesson, card, prompt, answer, saved_at (UTC). Text that "
            "a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a "
            "carriage return) is written with a leading apostrophe, so it shows as text. "
            "The file is replaced if it exists. Answers come from the same place serve saves "
            "them: --data-dir, else TOKENS_EDU_DB_URL or TOKENS_EDU_DATA, else the per-user "
            "data folder."),
    )
    export.add_argument("file", metavar="FILE", type=Path,
                        help="the CSV file to write, e.g. answers.csv ('-' writes to the screen)")
    export.add_argument("--lesson", action="append", default=[], metavar="LESSON",
                        help="only this lesson's answers (e.g. 03-task-and-audit); repeat for more")
    export.add_argument("--student", action="append", default=[], metavar="NAME",
                        help="only this student's answers; repeat for more")
    export.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                        help="the folder given to serve --data-dir")
    export.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tokens-edu export FILE [--lesson L] [--student S]``: the answers as a safe CSV file."""
    url = None
    if args.data_dir is not None or not os.environ.get("TOKENS_EDU_DB_URL", "").strip():
        # A file database: look before opening it (opening would create an empty one).
        data = (args.data_dir if args.data_dir is not None else data_folder()).expanduser().resolve()
        if not data.is_dir():
            if args.data_dir is None:
                raise UsageProblem(f"There are no saved answers yet (no data folder at {data}).")
            raise UsageProblem(f"There is no data folder at {data}. Give the folder that "
                               "serve --data-dir used.")
        db = data / "journal.sqlite"
        if not db.exists() or not _has_answers_table(db):
            raise UsageProblem(f"There are no saved answers in {data} yet.")
        url = f"sqlite:///{db}"
    if args.lesson:  # lesson names are kept without ".ipynb"; accept both
        args.lesson = [name.removesuffix(".ipynb") for name in args.lesson]
    try:
        answers = Stores(url, read_only=True).answers
        to_stdout = str(args.file) == "-"
        count = answers.export_csv(sys.stdout if to_stdout else args.file.expanduser(),
                                   lessons=args.lesson or None, students=args.student or None)
    except (ValueError, JournalUnavailable) as e:
        raise UsageProblem(str(e)) from None
    what = []
    if args.lesson:
        what.append("lesson " + ", ".join(args.lesson))
    if args.student:
        what.append("student " + ", ".join(args.student))
    if not to_stdout:
        print(f"Wrote {count} answer{'s' if count != 1 else ''}"
              f"{' (' + '; '.join(what) + ')' if what else ''} to {args.file}.", flush=True)
    elif count == 0 and what:
        print(f"tokens-edu: no saved answers match {'; '.join(what)}. Check the spelling "
              "(tokens-edu export - lists everything).", file=sys.stderr, flush=True)
    return 0


def _has_answers_table(db) -> bool:
    """Whether the SQLite file ``db`` holds any saved answer (read-only look; the store's
    migrations make every table, so a file with only a class list has an empty answers table)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            if con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='answers'").fetchone() is None:
                return False
            return con.execute("SELECT 1 FROM answers LIMIT 1").fetchone() is not None
    except sqlite3.Error:
        return True  # let the journal say what is wrong with the file
