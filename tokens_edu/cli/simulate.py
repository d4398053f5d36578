"""``tokens-edu simulate``: play many computer games between two decks and print a summary.

It loads the engine and the bots, not pandas (the games' rows are summed and written as they
are: :func:`~tokens_edu.lab.simulation.simulate_rows`, :func:`~tokens_edu.lab.stats.summary_lines`),
so ``tokens-edu simulate -n 1`` starts in well under a second (``benchmarks/startup.py``).
"""

from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

from ..errors import DeckError
from ..lab.simulation import COLUMNS, DEFAULT_TURN_LIMIT, simulate_rows
from ..lab.stats import summary_lines
from ..players.registry import BOTS

__all__ = ["add_command", "run", "write_csv"]


def add_command(subparsers) -> None:
    """Add ``tokens-edu simulate`` to the ``tokens-edu`` command's subparsers."""
    p = subparsers.add_parser(
        "simulate",
        help="play many computer games between two decks and print a summary",
        description=(
            "Play many games between two decks and print a short summary. A deck is a starter "
            "deck's name (e.g. Green-Blue, Black-Red) or a deck file (one card a line, '2x Chatbot' "
            "allowed). Games run on every core; the results are the same for a seed whatever "
            "the number of processes."),
    )
    p.add_argument("deck0", metavar="DECK", help="player 1's deck: a starter deck's name or a deck file")
    p.add_argument("deck1", metavar="DECK", help="player 2's deck")
    p.add_argument("-n", "--games", type=int, default=1000, metavar="N", help="how many games (default: 1000)")
    p.add_argument("--bots", nargs=2, default=["greedy", "greedy"], metavar=("BOT", "BOT"),
                   help=f"the two players' bots, from: {', '.join(sorted(BOTS))} (default: greedy greedy)")
    p.add_argument("--seed", type=int, default=0, help="seed of the games (default: 0)")
    p.add_argument("--processes", type=int, default=None, metavar="N",
                   help="processes to use (default: every core)")
    p.add_argument("--turn-limit", type=int, default=DEFAULT_TURN_LIMIT, metavar="T",
                   help=f"a game reaching T turns is a draw (default: {DEFAULT_TURN_LIMIT})")
    p.add_argument("--csv", type=Path, default=None, metavar="FILE",
                   help="also save one row per game in this CSV file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    """Run ``tokens-edu simulate`` with parsed ``args``; print the summary.

    Returns:
        0, or 2 for a problem the user can fix (an unknown deck, a bad number, an unwritable
        CSV file), with its plain message on standard error.
    """
    if args.csv is not None:  # say it before the games are played, not after
        folder = args.csv.expanduser().resolve().parent
        why = ("it is a folder" if args.csv.is_dir() else
               f"there is no folder {folder}" if not folder.is_dir() else
               "that folder is read-only" if not os.access(folder, os.W_OK) else "")
        if why:
            print(f"tokens-edu simulate: cannot write {args.csv}: {why}.", file=sys.stderr, flush=True)
            return 2
    try:
        rows, _ = simulate_rows(args.deck0, args.deck1, args.games, bots=tuple(args.bots), seed=args.seed,
                                processes=args.processes, turn_limit=args.turn_limit, progress=not args.no_progress)
    except (DeckError, ValueError) as e:
        print(f"tokens-edu simulate: {e}", file=sys.stderr, flush=True)
        return 2
    for what, result in summary_lines(rows):
        print(f"{what:<38} {result}")
    if args.csv is not None:
        try:
            write_csv(args.csv, rows)
        except OSError as e:
            print(f"tokens-edu simulate: cannot write {args.csv}: {e.strerror or e}.", file=sys.stderr, flush=True)
            return 2
        print(f"One row per game saved in {args.csv}.")
    return 0


def write_csv(path: Path, rows: list[dict]) -> None:
    """Save a simulation's rows as a CSV file, one row per game under a header of
    :data:`~tokens_edu.lab.simulation.COLUMNS`: the same text as ``simulate(...).to_csv(path,
    index=False)`` (a draw's ``winner`` empty, lines ending in ``\\n``).

    Raises:
        OSError: the file cannot be written.
    """
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(COLUMNS)
        for r in rows:
            out.writerow(["" if r[c] is None else r[c] for c in COLUMNS])
