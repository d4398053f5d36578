"""Reading a simulation's table: win rates with their confidence intervals, and short summaries.

:func:`wilson_interval` says where a true win rate likely is; :func:`first_player_stats` answers
"does going first help?" from a :func:`~tokens_edu.lab.simulation.simulate` table; :func:`summary`
is the short table ``tokens-edu simulate`` prints. Nothing here plays a game.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["wilson_interval", "first_player_stats", "summary", "summary_lines"]


def wilson_interval(wins: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a win rate: where the true rate likely is.

    Args:
        wins: games won (a draw may count 0.5). games: games played (0 gives (0.0, 1.0)).
        confidence: 0.95 means 95 of 100 such intervals hold the true rate.

    Returns:
        (low, high), both between 0 and 1.
    """
    if games <= 0:
        return (0.0, 1.0)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def first_player_stats(games, confidence: float = 0.95):
    """The first player's win rate in a :func:`~tokens_edu.lab.simulation.simulate` table, with a
    confidence interval and a verdict in a student's words. A draw counts as half a win; who went
    first was decided in each game by the die roll (R2).

    Args:
        games: a simulate table (columns ``first_player`` and ``winner``; ``attrs["bots"]``
            when it has them). confidence: between 0 and 1, like 0.95.

    Returns:
        pandas.Series as :func:`~tokens_edu.lab.simulation.first_player_advantage` returns it.

    Raises:
        ValueError: not a simulate table, or a confidence outside (0, 1).
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    if not isinstance(games, pd.DataFrame) or not {"first_player", "winner"} <= set(games.columns):
        raise ValueError("Give a table from simulate(...): it needs the columns first_player and winner.")
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1, like 0.95.")
    total = len(games)
    draws = int(games["winner"].isna().sum())
    decided = games[games["winner"].notna()]
    first = int((decided["winner"] == decided["first_player"]).sum())
    second = len(decided) - first
    wins = first + 0.5 * draws
    rate = wins / total if total else float("nan")
    low, high = wilson_interval(wins, total, confidence)
    pct = round(confidence * 100)
    if total == 0:
        verdict = "No games were played."
    elif low > 0.5:
        verdict = (f"Going first wins {rate:.0%} of games. With {pct}% confidence the true rate is between "
                   f"{low:.0%} and {high:.0%}: the first player has an advantage.")
    elif high < 0.5:
        verdict = (f"Going first wins only {rate:.0%} of games. With {pct}% confidence the true rate is "
                   f"between {low:.0%} and {high:.0%}: the second player has an advantage.")
    else:
        verdict = (f"Going first wins {rate:.0%} of games. With {pct}% confidence the true rate is between "
                   f"{low:.0%} and {high:.0%}. That range holds 50%, so these games cannot tell: play more.")
    bots_used = games.attrs.get("bots")
    if total and isinstance(bots_used, (tuple, list)) and len(set(map(str, bots_used))) > 1:
        # A bot that plays better (or always chooses to go first) wins more games going first.
        verdict += (f" Careful: the two players were different computer players ({bots_used[0]} and "
                    f"{bots_used[1]}), so this also measures which one plays better. Give both the "
                    "same bot to test going first.")
    return pd.Series({"games": total, "first_wins": first, "second_wins": second, "draws": draws,
                      "win_rate": rate, "low": low, "high": high, "confidence": confidence,
                      "verdict": verdict}, name="first player")


def summary(games) -> "pandas.DataFrame":
    """A short table of a :func:`simulate` table for people: per deck its wins and win rate,
    then draws, the first player's win rate and the average game length.

    Returns:
        pandas.DataFrame with columns ``what`` and ``result`` (text), one line per figure
        (:func:`summary_lines`).
    """
    import pandas as pd  # the table's own library: `import tokens_edu.lab.stats` stays light

    rows = [{"deck0": d0, "deck1": d1, "first_player": int(f), "winner": None if pd.isna(w) else int(w),
             "turns": int(t)}
            for d0, d1, f, w, t in zip(games["deck0"], games["deck1"], games["first_player"], games["winner"],
                                       games["turns"])]
    return pd.DataFrame(summary_lines(rows), columns=["what", "result"])


def summary_lines(rows: list[dict]) -> list[tuple[str, str]]:
    """:func:`summary`'s lines from a simulation's rows (dicts with ``deck0``, ``deck1``,
    ``first_player``, ``winner`` (0, 1 or None for a draw) and ``turns``), without pandas:
    what ``tokens-edu simulate`` prints.

    Returns:
        list of ``(what, result)`` pairs of text: games; each player's wins with the rate and
        its 95% Wilson interval; draws; the first player's win rate (a draw counting half) and
        its interval; turns per game (average, shortest, longest).
    """
    n = len(rows)
    lines = [("games", f"{n:,}")]
    if n:
        for seat in (0, 1):
            name = rows[0][f"deck{seat}"]
            wins = sum(1 for r in rows if r["winner"] == seat)
            lo, hi = wilson_interval(wins, n)
            lines.append((f"player {seat + 1} wins ({name})", f"{wins:,} ({wins / n:.1%}, 95% interval {lo:.1%}-{hi:.1%})"))
        draws = sum(1 for r in rows if r["winner"] is None)
        lines.append(("draws (turn limit)", f"{draws:,} ({draws / n:.1%})"))
        first = sum(1 for r in rows if r["winner"] is not None and r["winner"] == r["first_player"])
        rate = (first + 0.5 * draws) / n  # as first_player_stats counts it
        lo, hi = wilson_interval(first + 0.5 * draws, n)
        lines.append(("first player wins", f"{rate:.1%} (95% interval {lo:.1%}-{hi:.1%})"))
        turns = [r["turns"] for r in rows]
        lines.append(("turns per game", f"average {sum(turns) / n:.1f}, shortest {min(turns)}, longest {max(turns)}"))
    return lines
