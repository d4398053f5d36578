"""``tokens-edu lessons copy DIR``: an editable copy of the kit's lessons."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..content.bundle import copy_lessons
from ..errors import UsageProblem

__all__ = ["add_command", "run"]


def add_command(sub) -> None:
    """Add ``lessons`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
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
    lessons.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Copy the lessons into ``args.dir``; exit 0, or UsageProblem for a folder that cannot be used."""
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
