"""``tokens-edu check-scenario FILE...``: every problem of a scenario file, each with its line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..content.inputs import InputTooLarge
from ..game.scenario_check import check_scenario, describe

__all__ = ["add_command", "run"]


def add_command(sub) -> None:
    """Add ``check-scenario`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
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
    check.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tokens-edu check-scenario FILE...``: print every problem; exit 0 (all good), 1
    (problems found) or 2 (a file cannot be read)."""
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
        except InputTooLarge as e:
            print(f"{shown}: {e}", file=sys.stderr)
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
