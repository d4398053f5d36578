"""Plots of simulation results, with words a student can read (matplotlib).

- :func:`balance_heatmap`: which deck beats which (from :func:`tokens_edu.balance_matrix`).
- :func:`win_rate`: a win rate as games add up, with a shaded band where the true rate likely
  is (from a :func:`tokens_edu.simulate` table, or any list of wins and losses: a learning curve).
- :func:`game_length`: how many turns games last (a histogram).
- :func:`matchups`: how one deck does against each other deck (from :func:`tokens_edu.matchups`).
- :func:`thinking`: the options a computer player weighed (from ``bot.explain(game)``).

Each function draws on ``ax`` (a matplotlib Axes) or on a new figure, and returns the Axes, so
you can change the title or save it: ``ax.figure.savefig("plot.png")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .stats import wilson_interval

__all__ = ["balance_heatmap", "win_rate", "game_length", "matchups", "thinking"]


def _axes(ax, size=(7, 4.5)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _short(name: str) -> str:
    return str(name).removesuffix(" starter")


def balance_heatmap(matrix, ax=None, title: str | None = None, numbers: bool = True):
    """A colored grid: how often the deck of each row beats the deck of each column.

    Args:
        matrix: a DataFrame from :func:`tokens_edu.balance_matrix` (win rates 0 to 1, NaN
            where a deck would meet itself).
        ax: a matplotlib Axes to draw on (None: a new figure).
        title: the title (default: "Which deck wins?" and the games per pair).
        numbers: write each win rate as a percentage in its square.

    Returns:
        the matplotlib Axes.

    Raises:
        ValueError: ``matrix`` is not a square table of numbers from 0 to 1.
    """
    import numpy as np
    import pandas as pd

    if not isinstance(matrix, pd.DataFrame) or matrix.shape[0] != matrix.shape[1] or matrix.empty:
        raise ValueError("Give the table from balance_matrix(...): one row and one column per deck.")
    values = matrix.to_numpy(dtype=float)
    if np.nanmin(values) < 0 or np.nanmax(values) > 1:
        raise ValueError("A balance matrix holds win rates from 0 to 1.")
    ax = _axes(ax, size=(1.1 * len(matrix) + 3, 0.9 * len(matrix) + 2))
    ax.set_facecolor("#d9d9d9")  # a deck against itself: grey, not played
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0, vmax=1)
    rows = [_short(n) for n in matrix.index]
    cols = [_short(n) for n in matrix.columns]
    ax.set_xticks(range(len(cols)), labels=cols, rotation=40, ha="right")
    ax.set_yticks(range(len(rows)), labels=rows)
    ax.set_xlabel("Opponent's deck")
    ax.set_ylabel("Deck")
    n = matrix.attrs.get("n")
    ax.set_title(title or ("Which deck wins?" + (f" ({n} games for each pair)" if n else "")))
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.85)
    bar.set_label("How often the deck wins (0.5 = half the time)")
    if numbers:
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                v = values[i, j]
                if np.isnan(v):
                    continue
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=9,
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    return ax


def _outcomes(data) -> tuple[list[float], str]:
    """(list of 1/0.5/0 per game, what it counts) from a simulate table or a list of results."""
    import pandas as pd

    if isinstance(data, pd.DataFrame) and "won" in data.columns and "winner" not in data.columns:
        return [float(v) for v in data["won"]], "learning bot"  # a tokens_edu.train table
    if isinstance(data, pd.DataFrame):
        if not {"first_player", "winner"} <= set(data.columns):
            raise ValueError("Give a table from simulate(...), or a list of wins (1) and losses (0).")
        out = [0.5 if pd.isna(w) else float(w == f) for f, w in zip(data["first_player"], data["winner"])]
        return out, "first player"
    if isinstance(data, (str, bytes, Mapping)) or not (isinstance(data, (Sequence, pd.Series)) or hasattr(data, "__array__")):
        raise ValueError("Give a table from simulate(...), or a list of wins (1) and losses (0).")
    out = []
    for v in list(data):
        f = float(v)
        if not 0.0 <= f <= 1.0:
            raise ValueError(f"Each result is a win (1), a loss (0) or a draw (0.5), not {v!r:.20}.")
        out.append(f)
    return out, ""


def win_rate(data, window: int | None = None, ax=None, confidence: float = 0.95, title: str | None = None,
             ylabel: str | None = None, label: str | None = None):
    """A win rate as the games add up, with a shaded band where the true rate likely is.

    Args:
        data: a table from :func:`tokens_edu.simulate` (then: how often the first player wins,
            a draw counting half), a table from :func:`tokens_edu.train` (how often the
            learning bot wins: a learning curve), or a list of results in order (1 win, 0 loss,
            0.5 draw), such as a learning agent's games.
        window: None: the rate over all games so far (the band narrows as games add up).
            A number: the rate over the last ``window`` games (a learning curve).
        ax: a matplotlib Axes (None: a new figure). confidence: of the band (Wilson interval).
        title, ylabel, label: words for the plot (sensible ones by default); ``label`` names
            this line in a legend when several are drawn on one ``ax``.

    Returns:
        the matplotlib Axes.

    Raises:
        ValueError: no games, or results that are not 0, 0.5 or 1 (or in between).
    """
    import numpy as np


    results, who = _outcomes(data)
    if not results:
        raise ValueError("There are no games to plot.")
    if window is not None and (isinstance(window, bool) or not isinstance(window, int) or window < 1):
        raise ValueError("window must be a whole number of games, like 50, or None.")
    x = np.arange(1, len(results) + 1)
    total = np.cumsum(results)
    if window is None:
        games = x
        wins = total
    else:
        earlier = np.concatenate([np.zeros(window), total])[: len(total)]  # wins before the window
        wins = total - earlier
        games = np.minimum(x, window)
    rate = wins / games
    band = np.array([wilson_interval(w, int(g), confidence) for w, g in zip(wins, games)])
    ax = _axes(ax)
    line, = ax.plot(x, rate, label=label or ("win rate" if not who else f"{who}'s win rate"))
    ax.fill_between(x, band[:, 0], band[:, 1], color=line.get_color(), alpha=0.2,
                    label=f"{round(confidence * 100)}% sure the true rate is in here" if label is None else None)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="half the games" if label is None else None)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    ax.set_xlabel("Games played" if window is None else f"Games played (rate over the last {window})")
    ax.set_ylabel(ylabel or (f"How often the {who} wins" if who else "Win rate"))
    ax.set_title(title or {"first player": "Does going first help?", "learning bot": "Is it learning?"}.get(who, "Win rate"))
    ax.legend(loc="lower right", fontsize=9)
    return ax


def game_length(games, ax=None, column: str = "turns", title: str | None = None):
    """A histogram: how many games lasted each number of turns.

    Args:
        games: a table from :func:`tokens_edu.simulate`, or a dict name -> table to compare
            several (drawn over each other, each with its name in the legend).
        ax: a matplotlib Axes (None: a new figure).
        column: ``"turns"`` (default), ``"rounds"`` or ``"actions"``.
        title: the title (default: "How long are games?").

    Returns:
        the matplotlib Axes.

    Raises:
        ValueError: not a simulate table, no games, or an unknown column.
    """
    import numpy as np
    import pandas as pd

    tables = dict(games) if isinstance(games, Mapping) else {None: games}
    words = {"turns": "Turns in the game", "rounds": "Rounds in the game (both players' turns)",
             "actions": "Actions in the game"}
    if column not in words:
        raise ValueError(f"column must be one of {', '.join(words)}, not {column!r:.30}.")
    for t in tables.values():
        if not isinstance(t, pd.DataFrame) or column not in t.columns:
            raise ValueError("Give a table from simulate(...) (or a dict of them).")
    values = {k: t[column].to_numpy() for k, t in tables.items()}
    if not any(len(v) for v in values.values()):
        raise ValueError("There are no games to plot.")
    low = min(int(v.min()) for v in values.values() if len(v))
    high = max(int(v.max()) for v in values.values() if len(v))
    step = max(1, (high - low + 1) // 40)
    bins = np.arange(low, high + step + 1, step) - 0.5
    ax = _axes(ax)
    several = len(values) > 1
    for name, v in values.items():
        ax.hist(v, bins=bins, alpha=0.6 if several else 0.9, label=name, edgecolor="white")
    ax.set_xlabel(words[column])
    ax.set_ylabel("Number of games")
    ax.set_title(title or "How long are games?")
    if several:
        ax.legend()
    return ax


def matchups(table, ax=None, title: str | None = None):
    """Bars: how often your deck beats each opponent, with a line where the true rate likely is.

    Args:
        table: a DataFrame from :func:`tokens_edu.matchups` (``win_rate``, ``low``, ``high``).
        ax: a matplotlib Axes (None: a new figure). title: the title (default: the deck's name).

    Returns:
        the matplotlib Axes.

    Raises:
        ValueError: not a matchups table, or an empty one.
    """
    import numpy as np
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or not {"win_rate", "low", "high"} <= set(table.columns) or table.empty:
        raise ValueError("Give the table from matchups(...): one row per opponent deck.")
    ax = _axes(ax, size=(7, 0.45 * len(table) + 1.8))
    y = np.arange(len(table))
    rate = table["win_rate"].to_numpy(dtype=float)
    err = np.vstack([rate - table["low"].to_numpy(dtype=float), table["high"].to_numpy(dtype=float) - rate])
    colors = ["#2166ac" if r >= 0.5 else "#b2182b" for r in rate]
    ax.barh(y, rate, xerr=err, color=colors, alpha=0.85, capsize=3)
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y, labels=[_short(n) for n in table.index])
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    ax.set_xlabel("How often your deck wins (the black line: where the true rate likely is)")
    ax.set_ylabel("Opponent's deck")
    deck = table.attrs.get("deck")
    ax.set_title(title or (f"How does {deck} do?" if deck else "How does your deck do?"))
    return ax


_MEASURES = {  # explain()'s measure column -> the x axis's words, and whether it is a chance
    "win_chance": ("Its chance to win after the move, in its imagined games", True),
    "value": ("Its guess of its chance to win after the move", True),
    "score": ("Its score for the move (more is better)", False),
}


def thinking(table, ax=None, title: str | None = None):
    """Bars: the options a computer player weighed, its pick on top (in orange).

    Args:
        table: a DataFrame from ``bot.explain(game)`` (:mod:`tokens_edu.players.thinking`). For a
            SearchBot the bars are its chance to win after each move, and each bar says its
            share of the thinking; for other bots, the table's ``measure``.
        ax: a matplotlib Axes (None: a new figure). title: the title (default: "What was
            the computer thinking?").

    Returns:
        the matplotlib Axes.

    Raises:
        ValueError: not an explain table, or an empty one.
    """
    import numpy as np
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or not {"option", "chosen", "score"} <= set(table.columns) or table.empty:
        raise ValueError("Give the table from bot.explain(game): one row per option.")
    measure = table.attrs.get("measure", "score")
    if measure not in table.columns:
        measure = "score"
    words, chance = _MEASURES.get(measure, _MEASURES["score"])
    ax = _axes(ax, size=(7, 0.5 * len(table) + 1.6))
    y = np.arange(len(table))[::-1]  # the first row (its pick) on top
    values = table[measure].to_numpy(dtype=float)
    colors = ["#e66101" if c else "#5e3c99" for c in table["chosen"]]
    ax.barh(y, np.nan_to_num(values), color=colors, alpha=0.85)
    labels = [o if len(o) <= 38 else o[:37] + "\u2026" for o in table["option"].astype(str)]
    ax.set_yticks(y, labels=labels)
    for yi, v, (_, row) in zip(y, values, table.iterrows()):
        note = f"{v:.0%}" if chance else f"{v:g}"
        if "share" in table.columns:
            note += f"  ({row['share']:.0%} of its thinking)"
        ax.annotate(note, (0 if np.isnan(v) else v, yi), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=9)
    if chance:
        ax.set_xlim(0, 1.3)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
        ax.xaxis.set_major_formatter(lambda v, _pos: f"{v:.0%}")
    else:
        top = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
        ax.set_xlim(min(0, np.nanmin(values)) if np.isfinite(values).any() else 0, 1.3 * (top or 1.0))
    ax.set_xlabel(words)
    bot = table.attrs.get("bot")
    ax.set_title(title or (f"What was the computer ({bot}) thinking?" if bot else "What was the computer thinking?"))
    return ax
