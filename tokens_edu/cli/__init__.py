"""The ``tokens-edu`` command: one module per command (:data:`COMMANDS`).

``tokens-edu serve`` serves the lessons to a class (:mod:`tokens_edu.server.launcher` says what
it adds to a plain ``voila``); ``tokens-edu today 03`` tells it today's lesson;
``tokens-edu teacher`` is the teacher's dashboard; ``tokens-edu export answers.csv`` writes the
saved Discuss answers as a CSV file that a spreadsheet opens safely; ``tokens-edu roster`` keeps
a class list with codes; ``tokens-edu simulate`` plays many games; ``tokens-edu check-scenario``
checks a scenario file; ``tokens-edu lessons copy DIR`` makes an editable copy of the lessons.

Examples::

    tokens-edu serve                         # the kit's lessons, port 8866
    tokens-edu serve --today 03              # today's lesson gets warm kernels for the class
    tokens-edu today 04                      # ... and later, while it runs, the next lesson
    tokens-edu serve --lessons my-lessons --port 9000 --data-dir /srv/answers
    tokens-edu export answers.csv --lesson 03-task-and-audit --data-dir /srv/answers
    tokens-edu lessons copy my-lessons       # an editable copy of the kit's lessons

Everything a command prints goes through :class:`~.common.EscapingStream`: control characters
from a file (a deck's card names, a class list) are shown escaped, never sent to the terminal.

Exit codes: 0 done (and after Ctrl-C or SIGTERM), 2 for a problem the user can fix (a busy port,
a missing lessons folder, a bad option, a file too big), 1 when Voila itself stopped with an
error (or a check found problems).
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
from . import check_scenario, export, lessons, roster, serve, simulate, teacher, today
from .common import EscapingStream

__all__ = ["main", "build_parser", "COMMANDS"]

#: The commands, one module each; each has ``add_command(subparsers)`` and sets ``args.run``.
COMMANDS = (serve, today, export, lessons, check_scenario, teacher, roster, simulate)


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
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before a command took charge of it: stop quietly
        print("Stopped.", flush=True)
        return 0
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str] | None) -> int:
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
