"""The ``tokens-edu`` command: one module per command (:data:`COMMANDS`).

``tokens-edu serve`` serves the lessons to a class (:mod:`tokens_edu.server.launcher` says what
it adds to a plain ``voila``); ``tokens-edu today 03`` tells it today's lesson;
``tokens-edu teacher`` is the teacher's dashboard; ``tokens-edu export answers.csv`` writes the
saved Discuss answers as a CSV file that a spreadsheet opens safely; ``tokens-edu roster`` keeps
a class list with codes; ``tokens-edu simulate`` plays many games; ``tokens-edu check-scenario``
checks a scenario file; ``tokens-edu lessons copy DIR`` makes an editable copy of the lessons;
``tokens-edu upgrade-db`` brings an older answers database up to date (after copying it).

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
import importlib
import os
import sys

from .. import __version__, _compiled, _moved
from ..errors import UsageProblem

__all__ = ["main", "build_parser", "COMMANDS", "COMMAND_HELP"]

#: Each command: its module in this package (``add_command(subparsers)`` sets ``args.run``) and
#: its one line in ``tokens-edu --help``. A command's module is imported only when that command
#: runs (or ``tokens-edu COMMAND --help`` is asked for), so a command loads only what it needs:
#: ``tokens-edu simulate`` no Voila, SQLAlchemy or pandas, ``tokens-edu --help`` none of them
#: (issue 26; tests/cli/test_startup.py checks each line against the module's own help).
COMMAND_HELP = {
    "serve": ("serve", "serve the lessons with Voila (one page per student)"),
    "today": ("today", "tell the running lesson server today's lesson (it warms kernels for the class)"),
    "export": ("export", "write the saved Discuss answers to a CSV file for a spreadsheet"),
    "lessons": ("lessons", "copy the kit's lessons to a folder, to change them"),
    "check-scenario": ("check_scenario", "check a scenario file and list every problem with its line number"),
    "teacher": ("teacher", "the teacher dashboard: answers, progress, answer wall, games (updates live)"),
    "roster": ("roster", "the class list: a short code and a personal link for each student"),
    "simulate": ("simulate", "play many computer games between two decks and print a summary"),
    "upgrade-db": ("upgrade_db", "bring the answers database up to date with this tokens-edu (after copying it)"),
}

#: The old names of this module, which live in :mod:`tokens_edu.server.launcher` (it loads the
#: store): imported when first read, with a DeprecationWarning (``tokens_edu._moved.OLD_NAMES``).
_old_name = _moved.moved_names(__name__)


def __getattr__(name: str):
    """:data:`COMMANDS` (every command's module, imported now), or an old name of this module
    (from :mod:`tokens_edu.server.launcher`, with a DeprecationWarning until tokens-edu 0.4.0)."""
    if name == "COMMANDS":
        return tuple(_command_module(command) for command in COMMAND_HELP)
    return _old_name(name)


def _command_module(command: str):
    """The module of ``command`` (a key of :data:`COMMAND_HELP`), imported now."""
    return importlib.import_module(f"{__name__}.{COMMAND_HELP[command][0]}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``tokens-edu``: one subcommand per entry of :data:`COMMAND_HELP`.

    Args:
        only: a command's name: only that command's module is imported and its options read;
            the others are listed with their one line of help. None: every command in full.
    """
    parser = argparse.ArgumentParser(
        prog="tokens-edu",
        description="Tokens TCG teaching kit: serve the Jupyter lessons to a class.",
    )
    parser.add_argument("--version", action="version", version=version_line(),
                        help="say the version, and whether the compiled engine runs or its pure-Python source")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command, (_, line) in COMMAND_HELP.items():
        if only is None or command == only:
            _command_module(command).add_command(sub)
        else:
            sub.add_parser(command, help=line)
    return parser


def version_line() -> str:
    """``tokens-edu 0.2.0; engine: compiled with mypyc 2.4.1 ...``: the version and which engine
    runs (``tokens_edu.engine.COMPILED``; ``TOKENS_EDU_PURE_PYTHON=1`` asks for the source)."""
    return f"tokens-edu {__version__}; {_compiled.describe()}"


def main(argv: list[str] | None = None) -> int:
    """Run ``tokens-edu`` with ``argv`` (default: the command line's arguments).

    Args:
        argv: the arguments after the program name, e.g. ``["serve", "--port", "9000"]``.

    Returns:
        int: the exit code (0 done, 1 Voila failed, 2 a problem the user can fix). Bad options
        make argparse print its message and exit with code 2 (``SystemExit``). Ctrl-C at any
        moment, while a command starts too, prints one line (``Stopped.``) and gives 0.
    """
    streams = sys.stdout, sys.stderr
    try:
        # (here, not at the top: it loads the card data's modules, and a Ctrl-C while they load
        # is then one line too)
        from .common import EscapingStream

        sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before a command took charge of it: stop quietly
        print("Stopped.", file=streams[0], flush=True)
        return 0
    finally:
        sys.stdout, sys.stderr = streams


def _chosen(argv: list[str]) -> str | None:
    """The command named in ``argv`` (its first word that is not an option), or None."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMAND_HELP else None
    return None


def _main(argv: list[str] | None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_chosen(args_in) or "")
    args = parser.parse_args(args_in)
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
