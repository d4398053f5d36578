"""Click-to-pane time of Lesson 7's "What was the computer thinking?" pane and its Hint, in the kernel.

Builds the GameView exactly as Lesson 7 does (``SearchBot(iterations=200)`` in the computer's
seat, one computer move per "Next computer move", the thinking pane open, hints on), and plays
whole games: each computer move is a click on Next (the search, the move and the pane's table),
and before each of the student's moves the student asks for a Hint (``SearchBot`` with
:data:`~tokens_edu.widgets.thinking_pane.HINT_ITERATIONS` imagined games), then plays the hint's
move. It measures, for each click, the time from the click to the pane's HTML being ready in
the kernel (what the page then draws; a browser adds its own few tens of milliseconds, see
``tests/test_thinking_browser.py``, which prints the real-browser figures).

Usage::

    .venv/bin/python benchmarks/thinking_pane.py [--games 3] [--iterations 200] [--seed 0]

Prints min, median, p95 and max in milliseconds for both clicks. Timings on a shared machine
are noisy: run it a few times on a quiet one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _figures(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    if not ms:
        return f"{label}: no clicks"
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"{label}: {len(ms)} clicks, min {ms[0]:.0f} ms, median {statistics.median(ms):.0f} ms, "
            f"p95 {p95:.0f} ms, max {ms[-1]:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="whole games to play (default 3)")
    parser.add_argument("--iterations", type=int, default=200, help="the computer's imagined games a move")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    args = parser.parse_args(argv)

    from tokens_edu import Game, starter_decks
    from tokens_edu.players.search import SearchBot
    from tokens_edu.widgets import GameView

    decks = starter_decks()
    pane, hints, turns = [], [], []
    started = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        game = Game.new(decks[g % len(decks)], decks[(g + 7) % len(decks)], seed=seed, names=("You", "Computer"))
        view = GameView(game, seats=("human", SearchBot(iterations=args.iterations, seed=7)), autoplay=False,
                        thinking="open", predict=True, hints=True)
        for _ in range(3000):
            if view.game.over:
                break
            if view.match.bot_to_act():
                view.next_button.click()
            else:
                view.hint.button.click()
                pick = view.hint.table["option"].iloc[0]
                view.buttons[pick].click()
        pane += view.thinking.seconds
        hints += view.hint.seconds
        turns.append(view.game.turn)
        print(f"game {g + 1}: {view.game.turn} turns, winner {view.game.winner}, "
              f"{len(view.thinking.seconds)} computer moves, {len(view.hint.seconds)} hints", flush=True)
    print(_figures(f"Next -> thinking pane (SearchBot iterations={args.iterations})", pane))
    print(_figures("Show a hint -> hint", hints))
    print(f"{args.games} games in {time.perf_counter() - started:.0f} s (shared machines are noisy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
