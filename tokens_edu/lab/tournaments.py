"""A class tournament: every bot plays every other bot, and a table of standings says who won.

:func:`tournament` runs a round robin with :func:`tokens_edu.simulate`'s machinery (the same
games for a seed however many processes play them). Every pair of bots plays ``games`` games:
in each two games in a row the bots swap seats on the same two decks, so neither gets the
better seat or the better deck more often. :func:`head_to_head` says how each bot did against
each other bot.

Example::

    from tokens_edu import tournament
    from tokens_edu.players import GreedyBot, RandomBot, SearchBot
    tournament({"Greedy": GreedyBot(), "Random": RandomBot(), "Search": SearchBot(iterations=60)},
               games=10, seed=1)

(The module is ``tokens_edu.lab.tournaments``; ``tokens_edu.tournament`` is the function.)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping

from ..content.decks import resolve_deck, starter_decks
from ..players.registry import recipe
from .simulation import (
    DEFAULT_TURN_LIMIT,
    _Batch,
    _check_common,
    _check_int,
    _frame,
    _run,
)
from .stats import wilson_interval

__all__ = ["tournament", "head_to_head", "STANDINGS_COLUMNS"]

#: The columns of :func:`tournament`'s standings, in order (the index is the bot's name).
STANDINGS_COLUMNS = ["rank", "games", "wins", "draws", "losses", "points", "win_rate", "low", "high"]


def tournament(bots: Mapping, games: int = 20, seed: int = 0, processes: int | None = None, decks=None,
               turn_limit: int | None = DEFAULT_TURN_LIMIT, progress: bool = True, executor=None,
               return_games: bool = False):
    """A round robin between ``bots``: every pair plays ``games`` games; the standings.

    Args:
        bots: a dict, name -> bot: a bot object (copied fresh for every game), a bot class
            (made fresh, with ``seed=`` when it takes one) or a bot's name from
            :data:`tokens_edu.players.registry.BOTS` (``"greedy"``, ``"random"``, ``"search"``,
            ``"learning"``). At least two; names are 1-40 characters.
        games: games per pair of bots (2 to 100,000; an odd number plays one more game with
            the first bot of the pair in the first seat).
        seed: any whole number: the same seed gives the same tournament.
        processes: processes to play on (None: every core; 1: this process, needed for bots
            written in a notebook). executor: a ``concurrent.futures.Executor`` instead (as in
            :func:`tokens_edu.simulate`).
        decks: the decks games are played with (a list of decks, starter deck names or deck
            files); None: the ten starter decks. Each two games draw a pair of them at random.
        turn_limit: a game reaching this many turns is a draw (R25).
        progress: show a progress bar.
        return_games: also return the table of every game (:func:`tokens_edu.simulate`'s
            columns plus ``bot0``, ``bot1``, the names of the bots in each seat).

    Returns:
        pandas.DataFrame, one row per bot (index ``bot``), best first, with the columns of
        :data:`STANDINGS_COLUMNS`: ``rank`` (1 is the winner; equal points share a rank),
        ``games``, ``wins``, ``draws``, ``losses``, ``points`` (a win 1, a draw 1/2),
        ``win_rate`` (points per game), ``low``, ``high`` (the 95% Wilson interval of the win
        rate). With ``return_games``: ``(standings, games)``.

    Raises:
        ValueError: fewer than two bots, a bad name or bot, bad ``games``, ``seed``,
            ``processes`` or ``turn_limit``; bots that cannot go to other processes (use
            ``processes=1``). DeckError: a bad deck.
    """
    if not isinstance(bots, Mapping) or len(bots) < 2:
        raise ValueError("A tournament needs a dict of at least two bots, like {'Ana': GreedyBot(), 'Bo': RandomBot()}.")
    names = []
    for name in bots:
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 40:
            raise ValueError(f"Each bot needs a name of 1 to 40 characters, not {name!r:.50}.")
        names.append(name.strip())
    if len(set(names)) != len(names):
        raise ValueError("Two bots have the same name: give each bot its own name.")
    _check_int("games", games, 2, 100_000)
    _check_common(seed, processes, executor, turn_limit)
    recipes = tuple(recipe(_Fresh(spec) if hasattr(spec, "choose") else spec) for spec in bots.values())
    deck_list = starter_decks() if decks is None else [resolve_deck(d) for d in decks]
    if not deck_list:
        raise ValueError("Give at least one deck (or None for the starter decks).")
    rng = random.Random(f"tokens-edu-tournament/{seed}")
    deals = [(rng.randrange(len(deck_list)), rng.randrange(len(deck_list))) for _ in range((games + 1) // 2)]
    pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    jobs = []
    for p, (a, b) in enumerate(pairs):
        for g in range(games):  # games 2k and 2k+1: the same two decks, the bots in swapped seats
            da, db = deals[g // 2]
            k = p * games + g
            jobs.append((k, da, db, a, b) if g % 2 == 0 else (k, db, da, b, a))
    batch = _Batch(tuple(deck_list), recipes, seed, turn_limit)
    rows = _run(batch, jobs, processes, executor, progress, "Tournament games")
    for row, job in zip(rows, jobs):  # _run returns the rows in game order, as jobs are
        row["bot0"], row["bot1"] = names[job[3]], names[job[4]]
    table = _frame(rows, {"seed": seed, "turn_limit": turn_limit, "games_per_pair": games})
    table["bot0"] = [r["bot0"] for r in rows]
    table["bot1"] = [r["bot1"] for r in rows]
    standings = _standings(table, names)
    standings.attrs.update({"seed": seed, "games_per_pair": games, "turn_limit": turn_limit,
                            "bots": list(names)})
    return (standings, table) if return_games else standings


class _Fresh:
    """Makes a bot object fresh for each game: a copy, its randomness seeded from the game's
    seed (mixed with its own seed, if it has one), so a tournament repeats for its seed even
    for bots made with ``seed=None``. Picklable when the bot is."""

    def __init__(self, bot):
        self.bot = bot
        self.__name__ = type(bot).__name__

    def __call__(self, seed: int):
        bot = copy.deepcopy(self.bot)
        own = None if getattr(bot, "_random_seed", False) else getattr(bot, "seed", None)
        mixed = seed if not isinstance(own, int) else hash((seed, own)) & (2 ** 62 - 1)
        if hasattr(bot, "_rng"):
            bot._rng = random.Random(mixed)
        if type(bot).__name__ == "SearchBot":
            bot.seed, bot.last = mixed, None
        return bot


def _results(table):
    """Per game: (bot of seat 0, bot of seat 1, points of seat 0)."""
    import pandas as pd

    out = []
    for b0, b1, w in zip(table["bot0"], table["bot1"], table["winner"]):
        out.append((b0, b1, 0.5 if pd.isna(w) else (1.0 if w == 0 else 0.0)))
    return out


def _standings(table, names):
    import pandas as pd

    stats = {n: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for n in names}
    for b0, b1, pts in _results(table):
        for bot, mine in ((b0, pts), (b1, 1.0 - pts)):
            s = stats[bot]
            s["games"] += 1
            s["wins" if mine == 1.0 else "losses" if mine == 0.0 else "draws"] += 1
    rows = []
    for n in names:
        s = stats[n]
        points = s["wins"] + 0.5 * s["draws"]
        low, high = wilson_interval(points, s["games"])
        rows.append({"bot": n, **s, "points": points, "win_rate": points / s["games"] if s["games"] else float("nan"),
                     "low": low, "high": high})
    df = pd.DataFrame(rows).set_index("bot")
    df = df.sort_values(["points", "wins"], ascending=False, kind="stable")
    df.insert(0, "rank", df["points"].rank(method="min", ascending=False).astype("int64"))
    return df[STANDINGS_COLUMNS]


def head_to_head(games):
    """How each bot did against each other bot, from ``tournament(..., return_games=True)``'s
    table of games.

    Returns:
        pandas.DataFrame, rows and columns named by bot: the row bot's points per game (a win
        1, a draw 1/2) against the column bot; NaN where a bot would meet itself.

    Raises:
        ValueError: ``games`` is not a tournament's table of games.
    """
    import pandas as pd

    if not isinstance(games, pd.DataFrame) or not {"bot0", "bot1", "winner"} <= set(games.columns):
        raise ValueError("Give the games table from tournament(..., return_games=True).")
    names = list(dict.fromkeys(list(games["bot0"]) + list(games["bot1"])))
    won = pd.DataFrame(0.0, index=names, columns=names)
    played = pd.DataFrame(0, index=names, columns=names)
    for b0, b1, pts in _results(games):
        won.loc[b0, b1] += pts
        won.loc[b1, b0] += 1.0 - pts
        played.loc[b0, b1] += 1
        played.loc[b1, b0] += 1
    out = (won / played.where(played > 0)).astype(float)
    out.index.name, out.columns.name = "bot", "against"
    return out
