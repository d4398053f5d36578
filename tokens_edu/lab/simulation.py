"""Many games at once: ask the game a question and answer it with data.

:func:`simulate` plays ``n`` games between two decks and returns a pandas table with one row
per game. :func:`balance_matrix` plays every pair of decks and says how often each one wins;
:func:`first_player_advantage` says whether going first helps, with a confidence interval.

Games run on every core of this computer by default. Each game's seed comes from the seed you
give and the game's number, so the table is the same for a seed whatever the number of
processes (or the executor) used, and any row can be played again with :func:`play_game`.

Bots are given by name (``"random"``, ``"greedy"``; see :data:`~tokens_edu.players.registry.BOTS` and :func:`~tokens_edu.players.registry.register_bot`),
as a class (made fresh for every game, with ``seed=`` when it takes one) or as an instance
(copied fresh for every game). Decks are given as a :class:`~tokens_edu.Deck`, a starter deck's
name (``"Green-Blue"``), a deck file's path, or a list of card names.

Running on a cluster
--------------------
Any :class:`concurrent.futures.Executor` can run the games instead of this computer's
processes: pass it as ``executor=`` (it is used, not shut down). A school with a cluster can
pass Dask's (the ``cluster`` extra; ``docs/cluster.md`` has a study too big for a laptop) or
Ray's executor::

    from dask.distributed import Client            # pip install "tokens-edu[cluster]"
    client = Client("tcp://scheduler:8786")
    table = simulate("Green-Blue", "Black-Red", 100_000, executor=client.get_executor())

``client.get_executor()`` is Dask's ``concurrent.futures`` executor. For Ray, pass a
``concurrent.futures.Executor`` that runs on Ray (recent Ray releases include one; check the
name in your Ray version's documentation). The workers need ``tokens_edu`` installed, and the
bots must be picklable (Dask and Ray use cloudpickle, which also sends a bot class written in
a notebook). The table is the same as on this computer: each game's seed comes from its number
(``tests/lab/test_cluster.py`` checks it on a local Dask cluster of worker processes).
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import _moved
from ..content.decks import Deck, starter_decks
from ..content.decks import resolve_deck as _resolve_deck
from ..game.game import Game
from ..players.bots import Bot, play_out
from ..players.registry import recipes
from .stats import first_player_stats
from .stats import wilson_interval as _wilson_interval

if TYPE_CHECKING:  # (loaded when other processes play: one process needs neither)
    import concurrent.futures as cf

__all__ = [
    "simulate", "simulate_rows", "balance_matrix", "matchups", "first_player_advantage", "play_game", "play_one",
    "COLUMNS", "DEFAULT_TURN_LIMIT", "game_seed",
]

# Old names of this module (imported from their homes until tokens-edu 0.4.0, with a warning).
__getattr__ = _moved.moved_names(__name__)

#: The columns of :func:`simulate`'s table, in order.
COLUMNS = ["game", "seed", "deck0", "deck1", "first_player", "winner", "turns", "rounds",
           "tokens0", "tokens1", "actions", "reason"]

#: Turns before a simulated game stops as a draw (R25). Greedy games last 10-30 turns.
DEFAULT_TURN_LIMIT = 100

#: With ``processes=None``, one process per this many games at most (starting a process costs
#: more than a few games).
GAMES_PER_PROCESS = 50

_MAX_GAMES = 10_000_000

#: Workers assumed behind an executor that does not say how many it has (a Dask cluster's):
#: the games go out in at least 8 chunks per worker, so a big cluster is kept busy.
CLUSTER_WORKERS = 64


# -- seeds ----------------------------------------------------------------------------------------
def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a simulation with ``seed``: a 63-bit int that
    depends only on those two numbers (so it is the same in any process, in any order)."""
    digest = hashlib.blake2b(f"tokens-edu/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# -- one game -----------------------------------------------------------------------------------------
def _bot_seed(seed: int, seat: int) -> int:
    return game_seed(seed, -1 - seat)


def _fast(bot) -> bool:
    """True when ``bot`` chooses by ``choose_move`` (the engine's fast path, see :func:`_step`)."""
    choose_move = getattr(bot, "choose_move", None)
    return callable(choose_move) and getattr(type(bot), "choose_move", None) is not Bot.choose_move


def _step(bot) -> Callable:
    """A function ``game -> None`` that plays ``bot``'s move: by ``choose_move`` and
    :meth:`Game.push` when the bot has it (the engine's fast path), else ``choose`` and apply."""
    # Bot.choose_move is an interface only: a subclass that overrides just choose uses choose
    if _fast(bot):
        choose_move = bot.choose_move
        return lambda game: game.push(choose_move(game))
    return lambda game: game.apply(bot.choose(game))


def play_one(deck0: Deck, deck1: Deck, seed: int, bots, turn_limit: int | None) -> dict:
    """Play one whole game between ``bots`` (two bots, made for this game) and return its
    row of :func:`simulate`'s table (without ``game``, ``deck0``, ``deck1``).

    This is the one loop every simulation runs. It is on the engine's fast path: a bot with
    ``choose_move`` (every :class:`~tokens_edu.players.Bot`) gives a small-int move that
    :meth:`Game.push` plays, with no :class:`Action` made or parsed; a bot with only
    ``choose`` is asked for an Action, which :meth:`Game.apply` plays.
    """
    game = Game.new(deck0, deck1, seed=seed, turn_limit=turn_limit)
    if _fast(bots[0]) and _fast(bots[1]):  # the loop compiled with the engine (players.bots.play_out)
        actions = play_out(game, bots)
    else:
        actions = 0
        steps = (_step(bots[0]), _step(bots[1]))
        while not game.over:
            steps[game.to_act](game)
            actions += 1
    winner = game.winner
    t0, t1 = game.tokens
    return {"seed": seed, "first_player": game.first_player, "winner": winner, "turns": game.turn,
            "rounds": (game.turn + 1) // 2, "tokens0": t0, "tokens1": t1, "actions": actions,
            "reason": "win" if winner is not None else "turn limit"}


def play_game(deck0, deck1, seed: int, bots=("greedy", "greedy"), turn_limit: int | None = DEFAULT_TURN_LIMIT,
              names: Sequence[str] = ("Player 1", "Player 2")):
    """Play one game to the end the way :func:`simulate` does, and return the :class:`Game`
    (so a row of the table can be looked at move by move: ``game.tables()["log"]``).

    Args:
        deck0, deck1: decks as :func:`~tokens_edu.content.decks.resolve_deck` takes them.
        seed: the game's seed: the table's ``seed`` column.
        bots: as in :func:`simulate` (both bots get the seeds simulate gives them).
        turn_limit: as in :func:`simulate`. names: the players' names.

    Returns:
        the finished Game.
    """
    d0, d1 = _resolve_deck(deck0), _resolve_deck(deck1)
    r0, r1 = recipes(bots)
    players = (r0.make(_bot_seed(seed, 0)), r1.make(_bot_seed(seed, 1)))
    game = Game.new(d0, d1, seed=seed, turn_limit=turn_limit, names=names)
    steps = (_step(players[0]), _step(players[1]))
    while not game.over:
        steps[game.to_act](game)
    return game


# -- many games -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Batch:
    """What every worker needs: the decks, the two bot recipes, the seed, the turn limit."""

    decks: tuple
    recipes: tuple
    seed: int
    turn_limit: int | None


def _play_chunk(batch: _Batch, jobs: list[tuple[int, int, int, int, int]]) -> list[dict]:
    """Play the games ``jobs`` = [(game index, deck of seat 0, deck of seat 1, bot of seat 0,
    bot of seat 1), ...], decks and bots given by their index in ``batch``."""
    rows = []
    for index, a, b, ba, bb in jobs:
        seed = game_seed(batch.seed, index)
        bots = (batch.recipes[ba].make(_bot_seed(seed, 0)), batch.recipes[bb].make(_bot_seed(seed, 1)))
        row = {"game": index}
        row.update(play_one(batch.decks[a], batch.decks[b], seed, bots, batch.turn_limit))
        row["deck0"], row["deck1"] = batch.decks[a].name, batch.decks[b].name
        rows.append(row)
    return rows


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r:.40}.")
    return value


def _check_common(seed, processes, executor, turn_limit) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"The seed must be a whole number, not {seed!r:.40}.")
    if processes is not None:
        _check_int("processes", processes, 1, 1024)
    if executor is not None and not _is_executor(executor):
        raise ValueError("executor must be a concurrent.futures.Executor (or None for this computer's cores).")
    if turn_limit is not None:
        _check_int("turn_limit", turn_limit, 1, 100_000)


def _is_executor(executor) -> bool:
    import concurrent.futures as cf

    return isinstance(executor, cf.Executor)


def _run(batch: _Batch, jobs: list[tuple[int, int, int]], processes, executor, progress, desc: str):
    """Play ``jobs`` in this process, in a process pool or on ``executor``; rows by game index."""
    n = len(jobs)
    if executor is None:
        workers = processes if processes is not None else min(_cores(), math.ceil(n / GAMES_PER_PROCESS))
        workers = max(1, min(workers, n))
    else:  # a pool says its size; a cluster's executor (Dask's) does not: plan for many workers
        workers = max(1, getattr(executor, "_max_workers", None) or CLUSTER_WORKERS)
    chunk = max(1, min(200, math.ceil(n / (workers * 8)))) if n else 1
    chunks = [jobs[i:i + chunk] for i in range(0, n, chunk)]
    rows: list[dict] = []
    with _progress_bar(n, progress, desc) as bar:
        if executor is None and workers == 1:
            for c in chunks:
                rows.extend(_play_chunk(batch, c))
                bar.update(len(c))
        else:
            import concurrent.futures as cf  # (not loaded for games in this process: a quicker start)
            from concurrent.futures.process import BrokenProcessPool

            own = executor is None
            if own or isinstance(executor, cf.ProcessPoolExecutor):
                _check_picklable(batch)  # (Dask and Ray pickle in their own way)
            ex = cf.ProcessPoolExecutor(max_workers=workers) if own else executor
            futures = []
            try:
                futures = [ex.submit(_play_chunk, batch, c) for c in chunks]
                for f in cf.as_completed(futures):
                    part = f.result()
                    rows.extend(part)
                    bar.update(len(part))
            except (ImportError, AttributeError, pickle.UnpicklingError, BrokenProcessPool) as e:
                for f in futures:
                    f.cancel()
                if not own or (isinstance(e, AttributeError) and "Can't get attribute" not in str(e)):
                    raise  # a bot's own mistake, not a transfer to the other processes
                raise ValueError("The games could not run in other processes "
                                 f"({type(e).__name__}: {str(e)[:160]}). If you made your own bot in a "
                                 "notebook, use processes=1, or put the bot in a .py file and import it.") from e
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
            finally:
                if own:
                    ex.shutdown(wait=True, cancel_futures=True)
    rows.sort(key=lambda r: r["game"])
    return rows


class _NoBar:
    """A progress bar that shows nothing (``progress=False``: tqdm is not even loaded)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int) -> None:
        """Nothing to show."""


def _progress_bar(n: int, progress: bool, desc: str):
    """tqdm's bar for ``n`` games (a widget in a notebook, text in a terminal), or :class:`_NoBar`.

    What ``tqdm.auto`` gives, without the asyncio it also loads (0.1-0.2 s of a command's start).
    """
    if not progress:
        return _NoBar()
    import warnings

    from tqdm import TqdmExperimentalWarning

    with warnings.catch_warnings():  # as tqdm.auto does: the notebook bar is not experimental here
        warnings.simplefilter("ignore", category=TqdmExperimentalWarning)
        from tqdm.autonotebook import tqdm
    return tqdm(total=n, desc=desc, unit="game", leave=True)


def _check_picklable(batch: _Batch) -> None:
    try:
        pickle.loads(pickle.dumps(batch))
    except Exception as e:
        raise ValueError("These bots cannot be sent to other processes "
                         f"({type(e).__name__}: {str(e)[:120]}). Use processes=1, or define the "
                         "bot in a .py file and import it.") from None


def _frame(rows: list[dict], attrs: dict):
    import pandas as pd

    df = pd.DataFrame(rows, columns=COLUMNS)
    df["winner"] = df["winner"].astype("Int64")
    for col in ("game", "first_player", "turns", "rounds", "tokens0", "tokens1", "actions"):
        df[col] = df[col].astype("int64")
    df["seed"] = df["seed"].astype("int64")
    df.attrs.update(attrs)
    return df


def simulate(deck0, deck1, n: int, bots=("greedy", "greedy"), seed: int = 0, processes: int | None = None,
             executor: cf.Executor | None = None, turn_limit: int | None = DEFAULT_TURN_LIMIT,
             progress: bool = True):
    """Play ``n`` games of ``deck0`` (player 0) against ``deck1`` (player 1); one row per game.

    Args:
        deck0, deck1: a :class:`~tokens_edu.Deck`, a starter deck's name (``"Green-Blue"``), a
            deck file's path, or a list of card names; each must be legal (R1).
        n: how many games (0 to 10,000,000).
        bots: two bots (player 0's, player 1's), each a name from :data:`~tokens_edu.players.registry.BOTS` (``"greedy"``,
            ``"random"``), a bot class (made fresh each game, with ``seed=`` if it takes one),
            or a bot (copied fresh each game). One bot alone plays both seats.
        seed: any whole number. Game ``i`` uses :func:`game_seed` ``(seed, i)``, and each bot a
            seed made from that, so the table is the same for a seed however the games are run.
        processes: how many processes to use; None uses every core (one per
            :data:`GAMES_PER_PROCESS` games at most); 1 plays in this process.
        executor: any :class:`concurrent.futures.Executor` (Dask, Ray: see the module docs) to
            run the games instead; it is used and left open.
        turn_limit: a game reaching this many turns ends as a draw (R25); None for no limit.
        progress: show a progress bar (tqdm, in notebooks and terminals).

    Returns:
        pandas.DataFrame with the columns of :data:`COLUMNS`, one row per game, by ``game``:
        ``game`` (0..n-1), ``seed`` (the game's seed, for :func:`play_game`), ``deck0``,
        ``deck1`` (deck names), ``first_player`` (0/1, who took turn 1), ``winner`` (0, 1, or
        ``<NA>`` for a draw: pandas' nullable integer), ``turns``, ``rounds`` (turns of both
        players: ``(turns + 1) // 2``), ``tokens0``, ``tokens1`` (Tokens at the end),
        ``actions`` (actions taken, setup included), ``reason`` (``"win"`` or ``"turn limit"``).
        ``df.attrs`` holds the settings (seed, bots, turn_limit).

    Raises:
        DeckError: a deck is unknown, unreadable or illegal (plain words).
        ValueError: a bad ``n``, ``bots``, ``seed``, ``processes``, ``executor`` or
            ``turn_limit``; bots that cannot go to other processes.
    """
    return _frame(*simulate_rows(deck0, deck1, n, bots, seed, processes, executor, turn_limit, progress))


def simulate_rows(deck0, deck1, n: int, bots=("greedy", "greedy"), seed: int = 0, processes: int | None = None,
                  executor: cf.Executor | None = None, turn_limit: int | None = DEFAULT_TURN_LIMIT,
                  progress: bool = True) -> tuple[list[dict], dict]:
    """:func:`simulate`'s games without pandas: ``(rows, settings)``, one dict per game with the
    keys of :data:`COLUMNS` (``winner`` None for a draw), by ``game``, and the settings simulate
    keeps in ``df.attrs``. ``tokens-edu simulate`` uses it (pandas takes longer to load than a
    thousand games take to play). Arguments and errors as :func:`simulate`."""
    _check_int("n", n, 0, _MAX_GAMES)
    _check_common(seed, processes, executor, turn_limit)
    d0, d1 = _resolve_deck(deck0), _resolve_deck(deck1)
    bot_recipes = recipes(bots)
    batch = _Batch((d0, d1), bot_recipes, seed, turn_limit)
    rows = _run(batch, [(i, 0, 1, 0, 1) for i in range(n)], processes, executor, progress, "Games")
    return [{c: r[c] for c in COLUMNS} for r in rows], \
        {"seed": seed, "bots": (bot_recipes[0].label, bot_recipes[1].label), "turn_limit": turn_limit}


# -- questions ------------------------------------------------------------------------------------------
def balance_matrix(decks=None, n: int = 100, bots=("greedy", "greedy"), seed: int = 0,
                   processes: int | None = None, executor: cf.Executor | None = None,
                   turn_limit: int | None = DEFAULT_TURN_LIMIT, progress: bool = True, games: bool = False):
    """How often each deck beats each other deck: every pair plays ``n`` games.

    Seats are swapped half the time (deck A is player 0 in the first ``n // 2`` games of a
    pair, deck B in the rest), so going first or second is shared fairly. A draw counts as half
    a win. A deck does not play itself (the diagonal is empty).

    Args:
        decks: a list of decks (as :func:`~tokens_edu.content.decks.resolve_deck` takes them); None: the ten starter decks.
        n: games per pair (1 to 100,000). Ten decks make 45 pairs: ``n=100`` is 4,500 games.
        bots, seed, processes, executor, turn_limit, progress: as in :func:`simulate` (the
            first bot plays deck A, the second deck B, whichever seat they sit in).
        games: also return every game's row (the table :func:`simulate` gives, with a
            ``pair`` column).

    Returns:
        pandas.DataFrame, rows and columns named by deck: the row deck's win rate (0 to 1)
        against the column deck; ``NaN`` on the diagonal. With ``games=True``: (matrix, games).

    Raises:
        DeckError, ValueError: as :func:`simulate`; fewer than two decks, or two decks with
            the same name.
    """
    import numpy as np
    import pandas as pd

    _check_int("n", n, 1, 100_000)
    _check_common(seed, processes, executor, turn_limit)
    deck_list = starter_decks() if decks is None else [_resolve_deck(d) for d in decks]
    names = [d.name for d in deck_list]
    if len(deck_list) < 2:
        raise ValueError("A balance matrix needs at least two decks.")
    if len(set(names)) != len(names):
        raise ValueError("Two decks have the same name: give each deck its own name (deck.name = '...').")
    ra, rb = recipes(bots)
    pairs = [(i, j) for i in range(len(deck_list)) for j in range(i + 1, len(deck_list))]
    batch = _Batch(tuple(deck_list), (ra, rb), seed, turn_limit)
    jobs = []
    for p, (i, j) in enumerate(pairs):
        for g in range(n):  # deck A (with the first bot) in seat 0 for the first half, then B
            k = p * n + g
            jobs.append((k, j, i, 1, 0) if g >= n // 2 else (k, i, j, 0, 1))
    rows = _run(batch, jobs, processes, executor, progress, "Games")
    table = _frame(rows, {"seed": seed, "bots": (ra.label, rb.label), "turn_limit": turn_limit, "n": n})
    table.insert(1, "pair", table["game"] // n)
    score = np.full((len(names), len(names)), np.nan)
    played = np.zeros_like(score)
    won = np.zeros_like(score)
    idx = {name: i for i, name in enumerate(names)}
    for a, b, w in zip(table["deck0"], table["deck1"], table["winner"]):
        ia, ib = idx[a], idx[b]
        played[ia, ib] += 1
        played[ib, ia] += 1
        if pd.isna(w):
            won[ia, ib] += 0.5
            won[ib, ia] += 0.5
        else:
            won[(ia, ib) if w == 0 else (ib, ia)] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(played > 0, won / played, np.nan)
    matrix = pd.DataFrame(score, index=pd.Index(names, name="deck"), columns=pd.Index(names, name="against"))
    matrix.attrs.update({"n": n, "seed": seed, "bots": (ra.label, rb.label), "turn_limit": turn_limit})
    return (matrix, table) if games else matrix


def matchups(deck, opponents=None, n: int = 50, bots=("greedy", "greedy"), seed: int = 0,
             processes: int | None = None, executor: cf.Executor | None = None,
             turn_limit: int | None = DEFAULT_TURN_LIMIT, progress: bool = True):
    """How ``deck`` does against each opponent deck: ``n`` games each, seats swapped half the time.

    Args:
        deck: your deck (as :func:`~tokens_edu.content.decks.resolve_deck` takes it: a Deck, a file, a starter's name).
        opponents: a list of decks; None: the ten starter decks.
        n: games against each opponent (1 to 100,000).
        bots: (your deck's bot, the opponents' bot), as in :func:`simulate`.
        seed, processes, executor, turn_limit, progress: as in :func:`simulate`.

    Returns:
        pandas.DataFrame, one row per opponent (index: its name): ``games``, ``wins``,
        ``losses``, ``draws``, ``win_rate`` (a draw counting half), ``low``, ``high`` (the 95%
        Wilson interval of the win rate), worst opponent first.

    Raises:
        DeckError, ValueError: as :func:`simulate`; no opponents.
    """
    import pandas as pd

    _check_int("n", n, 1, 100_000)
    _check_common(seed, processes, executor, turn_limit)
    mine = _resolve_deck(deck)
    others = starter_decks() if opponents is None else [_resolve_deck(d) for d in opponents]
    if not others:
        raise ValueError("Give at least one opponent deck.")
    ra, rb = recipes(bots)
    batch = _Batch(tuple([mine] + others), (ra, rb), seed, turn_limit)
    jobs = []
    for o in range(len(others)):
        for g in range(n):  # your deck in seat 0 for the first half of the games, then seat 1
            k = o * n + g
            jobs.append((k, o + 1, 0, 1, 0) if g >= n // 2 else (k, 0, o + 1, 0, 1))
    rows = _run(batch, jobs, processes, executor, progress, "Games")
    out = []
    for o, other in enumerate(others):
        wins = losses = draws = 0
        for r in rows[o * n:(o + 1) * n]:
            seat = 0 if r["game"] % n < n // 2 else 1  # where your deck sat in this game
            if r["winner"] is None:
                draws += 1
            elif r["winner"] == seat:
                wins += 1
            else:
                losses += 1
        low, high = _wilson_interval(wins + 0.5 * draws, n)
        out.append({"opponent": other.name, "games": n, "wins": wins, "losses": losses, "draws": draws,
                    "win_rate": (wins + 0.5 * draws) / n, "low": low, "high": high})
    table = pd.DataFrame(out).set_index("opponent").sort_values("win_rate", kind="stable")
    table.attrs.update({"deck": mine.name, "n": n, "seed": seed, "bots": (ra.label, rb.label),
                        "turn_limit": turn_limit})
    return table


def first_player_advantage(games=None, *, deck0=None, deck1=None, n: int = 1000, bots=("greedy", "greedy"),
                           seed: int = 0, processes: int | None = None, executor: cf.Executor | None = None,
                           turn_limit: int | None = DEFAULT_TURN_LIMIT, progress: bool = True,
                           confidence: float = 0.95):
    """Does going first help? The first player's win rate, with a confidence interval.

    Give a table from :func:`simulate` (``games``), or decks to play ``n`` new games (``deck0``
    and ``deck1`` as :func:`simulate` takes them; None: the first and second starter decks).
    Who goes first is decided in each game by the die roll (R2).

    A draw counts as half a win. The interval (Wilson, :func:`~tokens_edu.lab.stats.wilson_interval`) is where the
    true rate likely is: if it holds 50%, these games cannot tell going first from second.

    Returns:
        pandas.Series: ``games``, ``first_wins``, ``second_wins``, ``draws``, ``win_rate``
        (the first player's, 0 to 1), ``low``, ``high`` (the interval), ``confidence``, and
        ``verdict`` (one sentence for students; a second one warns when ``games`` came from two
        different bots, whose skill then mixes with the seat: ``games.attrs["bots"]``).

    Raises:
        ValueError: ``games`` is not a simulate table; bad settings (as :func:`simulate`).
    """
    if games is None:
        if deck0 is None or deck1 is None:
            decks = starter_decks()
            deck0 = deck0 if deck0 is not None else decks[0]
            deck1 = deck1 if deck1 is not None else decks[1]
        games = simulate(deck0, deck1, n, bots=bots, seed=seed, processes=processes, executor=executor,
                         turn_limit=turn_limit, progress=progress)
    return first_player_stats(games, confidence)
