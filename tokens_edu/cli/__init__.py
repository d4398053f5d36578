"""The ``tokens-edu`` command.

``tokens-edu serve`` starts the lessons for a class: Voila serves the ``lessons/`` folder at
http://127.0.0.1:8866/. What it adds to a plain ``voila`` (the Voila side is in
:mod:`tokens_edu.server.voila`, which lists each change and the Voila bug it works around):

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

``tokens-edu export answers.csv`` writes the saved Discuss answers as a CSV file that a
spreadsheet opens safely (see :func:`tokens_edu.journal.write_csv`).

Examples::

    tokens-edu serve                         # the project's lessons/, port 8866, sized from memory
    tokens-edu serve --preheat-only 03-task-and-audit
    tokens-edu serve --lessons my-lessons --port 9000 --data-dir /srv/answers
    tokens-edu export answers.csv --lesson 03-task-and-audit --data-dir /srv/answers
    tokens-edu lessons copy my-lessons       # an editable copy of the kit's lessons

Exit codes: 0 after Ctrl-C (or SIGTERM), 2 for a problem the user can fix (a busy port, a
missing lessons folder, a bad option), 1 when Voila itself stopped with an error.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import UsageProblem
from ..server.launcher import (  # noqa: F401 (old names of tokens_edu.cli)
    DEFAULT_LESSONS,
    DEFAULT_PORT,
    Capacity,
    plan_capacity,
    voila_command,
)
from . import check_scenario, export, lessons, roster, serve, simulate, teacher

__all__ = ["main", "build_parser", "COMMANDS"]

#: The commands, one module each; each has ``add_command(subparsers)`` and sets ``args.run``.
COMMANDS = (serve, export, lessons, check_scenario, teacher, roster, simulate)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tokens-edu``: one subcommand per module of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="tokens-edu",
        description="Tokens TCG teaching kit: serve the Jupyter lessons to a class.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_command(sub)
    return parser


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
        return args.run(args)
    except UsageProblem as e:
        print(f"tokens-edu: {e}", file=sys.stderr, flush=True)
        return 2
    except BrokenPipeError:  # `tokens-edu ... | head` closed the pipe: stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout at exit
        return 1
