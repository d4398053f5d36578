"""Many games at once: ask the game a question and answer it with data.

:func:`simulate` plays ``n`` games between two decks and returns a pandas table with one row
per game. :func:`balance_matrix` plays every pair of decks and says how often each one wins;
:func:`first_player_advantage` says whether going first helps, with a confidence interval.

Games run on every core of this computer by default. Each game's seed comes from the seed you
give and the game's number, so the table is the same for a seed whatever the number of
processes (or the executor) used, and any row can be played again with :func:`play_game`.

Bots are given by name (``"random"``, ``"greedy"``; see :data:`BOTS` and :func:`register_bot`),
as a class (made fresh for every game, with ``seed=`` when it takes one) or as an instance
(copied fresh for every game). Decks are given as a :class:`~tokens_edu.Deck`, a starter deck's
name (``"Green-Blue"``), a deck file's path, or a list of card names.

Running on a cluster
--------------------
Any :class:`concurrent.futures.Executor` can run the games instead of this computer's
processes: pass it as ``executor=`` (it is used, not shut down). A school with a cluster can
pass Dask's or Ray's executor; tokens_edu does not depend on either::

    from dask.distributed import Client            # pip install "dask[distributed]"
    client = Client("tcp://scheduler:8786")
    table = simulate("Green-Blue", "Black-Red", 100_000, executor=client.get_executor())

``client.get_executor()`` is Dask's ``concurrent.futures`` executor. For Ray, pass a
``concurrent.futures.Executor`` that runs on Ray (recent Ray releases include one; check the
name in your Ray version's documentation). The workers need ``tokens_edu`` installed, and the
bots must be picklable (Dask and Ray use cloudpickle, which also sends a bot class written in
a notebook). The table is the same as on this computer: each game's seed comes from its number.
"""

from __future__ import annotations

import concurrent.futures as cf
import copy
import hashlib
import importlib
import inspect
import math
import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from .decks import Deck, starter_decks
from .errors import DeckError

__all__ = [
    "simulate", "balance_matrix", "matchups", "first_player_advantage", "play_game", "play_one",
    "resolve_deck", "make_bot", "register_bot", "BOTS", "COLUMNS", "DEFAULT_TURN_LIMIT",
    "game_seed", "wilson_interval", "summary", "add_simulate_command", "simulate_command",
]

#: The columns of :func:`simulate`'s table, in order.
COLUMNS = ["game", "seed", "deck0", "deck1", "first_player", "winner", "turns", "rounds",
           "tokens0", "tokens1", "actions", "reason"]

#: Turns before a simulated game stops as a draw (R25). Greedy games last 10-30 turns.
DEFAULT_TURN_LIMIT = 100

#: Bots by name: name -> ``"module:Class"`` (or a callable). The class is made with
#: ``seed=<a seed for this game and seat>`` when its constructor takes a ``seed``, else with no
#: arguments. Issue 11's bots add themselves here (``"search"``, ``"learning"``).
BOTS: dict[str, str | Callable] = {
    "random": "tokens_edu.bots:RandomBot",
    "greedy": "tokens_edu.bots:GreedyBot",
    "search": "tokens_edu.search:SearchBot",
    "learning": "tokens_edu.learning:LearningBot",
}

#: With ``processes=None``, one process per this many games at most (starting a process costs
#: more than a few games).
GAMES_PER_PROCESS = 50

_MAX_GAMES = 10_000_000


def register_bot(name: str, factory: str | Callable) -> None:
    """Make a bot usable by name in :func:`simulate` and the ``tokens-edu simulate`` command.

    Args:
        name: a short name, any case (``"mybot"``).
        factory: a bot class, a function ``seed -> bot``, or ``"module:Class"``. For other
            processes to use it, it must be importable (defined in a ``.py`` file).

    Raises:
        ValueError: the name is empty or the factory is not callable or a ``"module:Class"`` text.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError("A bot's name must be some text, like 'mybot'.")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError("A bot factory is a class, a function seed -> bot, or 'module:Class'.")
    BOTS[name.strip().casefold()] = factory


# -- seeds ----------------------------------------------------------------------------------------
def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a simulation with ``seed``: a 63-bit int that
    depends only on those two numbers (so it is the same in any process, in any order)."""
    digest = hashlib.blake2b(f"tokens-edu/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# -- decks ----------------------------------------------------------------------------------------
def _starter_names() -> dict[str, Deck]:
    out = {}
    for d in starter_decks():
        key = d.name.casefold()
        out[key] = d
        out[key.removesuffix(" starter")] = d
    return out


def resolve_deck(deck) -> Deck:
    """A legal :class:`Deck` from a Deck, a starter deck's name, a deck file or card names.

    Args:
        deck: a :class:`Deck`; a starter deck's name, any case, with or without "starter"
            (``"Green-Blue"``, ``"black-red starter"``); a path to a deck file (``.txt`` or
            ``.yaml``, see :meth:`Deck.from_file`); or a list of card names.

    Returns:
        the Deck, checked against the deck rule R1.

    Raises:
        DeckError: not a starter deck nor a readable file, or the deck breaks R1 (in plain
            words, naming every problem).
    """
    if isinstance(deck, Deck):
        return deck.validate()
    if isinstance(deck, os.PathLike) or isinstance(deck, str):
        text = os.fspath(deck)
        if isinstance(deck, str):
            hit = _starter_names().get(" ".join(text.split()).casefold().replace(" - ", "-"))
            if hit is not None:
                return hit
        path = Path(text).expanduser()
        if path.is_file():
            return Deck.from_file(path).validate()
        names = ", ".join(d.name.removesuffix(" starter") for d in starter_decks())
        raise DeckError(f"'{text[:80]}' is not a starter deck or a deck file. "
                        f"The starter decks are: {names}.")
    if isinstance(deck, (list, tuple)):
        return Deck.from_names(list(deck)).validate()
    raise DeckError(f"A deck is a Deck, a starter deck's name or a deck file, not {type(deck).__name__}.")


# -- bots -------------------------------------------------------------------------------------------
def _takes_seed(factory: Callable) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


@dataclass(frozen=True)
class _BotRecipe:
    """How to make one seat's bot for each game: a factory (called with seed= if it takes
    one) or an instance (deep-copied). Picklable when its parts are."""

    factory: Callable | None = None
    instance: object = None
    label: str = ""
    seeded: bool = False  # the factory takes seed= (worked out once: inspect is slow)

    def __post_init__(self):
        if self.factory is not None:
            object.__setattr__(self, "seeded", _takes_seed(self.factory))

    def make(self, seed: int):
        if self.instance is not None:
            return copy.deepcopy(self.instance)
        if self.seeded:
            return self.factory(seed=seed)
        return self.factory()


def _load(ref: str) -> Callable:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def _recipe(spec) -> _BotRecipe:
    """A :class:`_BotRecipe` from a bot name, class, factory function or instance."""
    if isinstance(spec, str):
        key = spec.strip().casefold()
        factory = BOTS.get(key)
        if factory is None:
            raise ValueError(f"There is no bot called '{spec[:40]}'. "
                             f"The bots are: {', '.join(sorted(BOTS))}.")
        return _BotRecipe(factory=_load(factory) if isinstance(factory, str) else factory, label=key)
    if isinstance(spec, type) or (callable(spec) and not hasattr(spec, "choose")):
        return _BotRecipe(factory=spec, label=getattr(spec, "__name__", "bot"))
    if hasattr(spec, "choose"):
        return _BotRecipe(instance=spec, label=type(spec).__name__)
    raise ValueError(f"A bot is a name like 'greedy', a bot class or a bot, not {type(spec).__name__}.")


def make_bot(spec, seed: int | None = None):
    """One bot from a name (``"greedy"``), a class, a function ``seed -> bot`` or an instance
    (copied). ``seed`` goes to bots that take one.

    Raises:
        ValueError: an unknown name (the message lists the known ones) or not a bot.
    """
    return _recipe(spec).make(seed)


def _recipes(bots) -> tuple[_BotRecipe, _BotRecipe]:
    if isinstance(bots, (str, type)) or hasattr(bots, "choose"):
        bots = (bots, bots)
    if not isinstance(bots, Sequence) or len(bots) != 2:
        raise ValueError("bots must be two bots, one per player, like ('greedy', 'random').")
    return _recipe(bots[0]), _recipe(bots[1])


# -- one game -----------------------------------------------------------------------------------------
def _bot_seed(seed: int, seat: int) -> int:
    return game_seed(seed, -1 - seat)


def _step(bot) -> Callable:
    """A function ``game -> None`` that plays ``bot``'s move: by ``choose_move`` and
    :meth:`Game.push` when the bot has it (the engine's fast path), else ``choose`` and apply."""
    from .bots import Bot

    choose_move = getattr(bot, "choose_move", None)
    # Bot.choose_move is an interface only: a subclass that overrides just choose uses choose
    if callable(choose_move) and getattr(type(bot), "choose_move", None) is not Bot.choose_move:
        return lambda game: game.push(choose_move(game))
    return lambda game: game.apply(bot.choose(game))


def play_one(deck0: Deck, deck1: Deck, seed: int, bots, turn_limit: int | None) -> dict:
    """Play one whole game between ``bots`` (two bots, made for this game) and return its
    row of :func:`simulate`'s table (without ``game``, ``deck0``, ``deck1``).

    This is the one loop every simulation runs. It is on the engine's fast path: a bot with
    ``choose_move`` (every :class:`~tokens_edu.bots.Bot`) gives a small-int move that
    :meth:`Game.push` plays, with no :class:`Action` made or parsed; a bot with only
    ``choose`` is asked for an Action, which :meth:`Game.apply` plays.
    """
    from .game import Game

    game = Game.new(deck0, deck1, seed=seed, turn_limit=turn_limit)
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
        deck0, deck1: decks as :func:`resolve_deck` takes them.
        seed: the game's seed: the table's ``seed`` column.
        bots: as in :func:`simulate` (both bots get the seeds simulate gives them).
        turn_limit: as in :func:`simulate`. names: the players' names.

    Returns:
        the finished Game.
    """
    from .game import Game

    d0, d1 = resolve_deck(deck0), resolve_deck(deck1)
    r0, r1 = _recipes(bots)
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
    if executor is not None and not isinstance(executor, cf.Executor):
        raise ValueError("executor must be a concurrent.futures.Executor (or None for this computer's cores).")
    if turn_limit is not None:
        _check_int("turn_limit", turn_limit, 1, 100_000)


def _run(batch: _Batch, jobs: list[tuple[int, int, int]], processes, executor, progress, desc: str):
    """Play ``jobs`` in this process, in a process pool or on ``executor``; rows by game index."""
    from tqdm.auto import tqdm

    n = len(jobs)
    if executor is None:
        workers = processes if processes is not None else min(_cores(), math.ceil(n / GAMES_PER_PROCESS))
        workers = max(1, min(workers, n))
    else:
        workers = max(1, getattr(executor, "_max_workers", None) or _cores())
    chunk = max(1, min(200, math.ceil(n / (workers * 8)))) if n else 1
    chunks = [jobs[i:i + chunk] for i in range(0, n, chunk)]
    rows: list[dict] = []
    with tqdm(total=n, disable=not progress, desc=desc, unit="game", leave=True) as bar:
        if executor is None and workers == 1:
            for c in chunks:
                rows.extend(_play_chunk(batch, c))
                bar.update(len(c))
        else:
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
        bots: two bots (player 0's, player 1's), each a name from :data:`BOTS` (``"greedy"``,
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
    _check_int("n", n, 0, _MAX_GAMES)
    _check_common(seed, processes, executor, turn_limit)
    d0, d1 = resolve_deck(deck0), resolve_deck(deck1)
    recipes = _recipes(bots)
    batch = _Batch((d0, d1), recipes, seed, turn_limit)
    rows = _run(batch, [(i, 0, 1, 0, 1) for i in range(n)], processes, executor, progress, "Games")
    return _frame(rows, {"seed": seed, "bots": (recipes[0].label, recipes[1].label), "turn_limit": turn_limit})


# -- questions ------------------------------------------------------------------------------------------
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
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def balance_matrix(decks=None, n: int = 100, bots=("greedy", "greedy"), seed: int = 0,
                   processes: int | None = None, executor: cf.Executor | None = None,
                   turn_limit: int | None = DEFAULT_TURN_LIMIT, progress: bool = True, games: bool = False):
    """How often each deck beats each other deck: every pair plays ``n`` games.

    Seats are swapped half the time (deck A is player 0 in the first ``n // 2`` games of a
    pair, deck B in the rest), so going first or second is shared fairly. A draw counts as half
    a win. A deck does not play itself (the diagonal is empty).

    Args:
        decks: a list of decks (as :func:`resolve_deck` takes them); None: the ten starter decks.
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
    deck_list = starter_decks() if decks is None else [resolve_deck(d) for d in decks]
    names = [d.name for d in deck_list]
    if len(deck_list) < 2:
        raise ValueError("A balance matrix needs at least two decks.")
    if len(set(names)) != len(names):
        raise ValueError("Two decks have the same name: give each deck its own name (deck.name = '...').")
    ra, rb = _recipes(bots)
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
        deck: your deck (as :func:`resolve_deck` takes it: a Deck, a file, a starter's name).
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
    mine = resolve_deck(deck)
    others = starter_decks() if opponents is None else [resolve_deck(d) for d in opponents]
    if not others:
        raise ValueError("Give at least one opponent deck.")
    ra, rb = _recipes(bots)
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
        low, high = wilson_interval(wins + 0.5 * draws, n)
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

    A draw counts as half a win. The interval (Wilson, :func:`wilson_interval`) is where the
    true rate likely is: if it holds 50%, these games cannot tell going first from second.

    Returns:
        pandas.Series: ``games``, ``first_wins``, ``second_wins``, ``draws``, ``win_rate``
        (the first player's, 0 to 1), ``low``, ``high`` (the interval), ``confidence``, and
        ``verdict`` (one sentence for students; a second one warns when ``games`` came from two
        different bots, whose skill then mixes with the seat: ``games.attrs["bots"]``).

    Raises:
        ValueError: ``games`` is not a simulate table; bad settings (as :func:`simulate`).
    """
    import pandas as pd

    if games is None:
        if deck0 is None or deck1 is None:
            decks = starter_decks()
            deck0 = deck0 if deck0 is not None else decks[0]
            deck1 = deck1 if deck1 is not None else decks[1]
        games = simulate(deck0, deck1, n, bots=bots, seed=seed, processes=processes, executor=executor,
                         turn_limit=turn_limit, progress=progress)
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


# -- the command line: tokens-edu simulate -----------------------------------------------------------
def summary(games) -> "pandas.DataFrame":
    """A short table of a :func:`simulate` table for people: per deck its wins and win rate,
    then draws, the first player's win rate and the average game length.

    Returns:
        pandas.DataFrame with columns ``what`` and ``result`` (text), one line per figure.
    """
    import pandas as pd

    n = len(games)
    lines = [("games", f"{n:,}")]
    if n:
        for seat in (0, 1):
            name = games[f"deck{seat}"].iloc[0]
            wins = int((games["winner"] == seat).sum())
            lo, hi = wilson_interval(wins, n)
            lines.append((f"player {seat + 1} wins ({name})", f"{wins:,} ({wins / n:.1%}, 95% interval {lo:.1%}-{hi:.1%})"))
        draws = int(games["winner"].isna().sum())
        lines.append(("draws (turn limit)", f"{draws:,} ({draws / n:.1%})"))
        fp = first_player_advantage(games)
        lines.append(("first player wins", f"{fp['win_rate']:.1%} (95% interval {fp['low']:.1%}-{fp['high']:.1%})"))
        lines.append(("turns per game", f"average {games['turns'].mean():.1f}, "
                      f"shortest {games['turns'].min()}, longest {games['turns'].max()}"))
    return pd.DataFrame(lines, columns=["what", "result"])


def add_simulate_command(subparsers) -> None:
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
    p.set_defaults(run=simulate_command)


def simulate_command(args) -> int:
    """Run ``tokens-edu simulate`` with parsed ``args``; print the summary.

    Returns:
        0, or 2 for a problem the user can fix (an unknown deck, a bad number, an unwritable
        CSV file), with its plain message on standard error.
    """
    import sys

    if args.csv is not None:  # say it before the games are played, not after
        folder = args.csv.expanduser().resolve().parent
        why = ("it is a folder" if args.csv.is_dir() else
               f"there is no folder {folder}" if not folder.is_dir() else
               "that folder is read-only" if not os.access(folder, os.W_OK) else "")
        if why:
            print(f"tokens-edu simulate: cannot write {args.csv}: {why}.", file=sys.stderr, flush=True)
            return 2
    try:
        games = simulate(args.deck0, args.deck1, args.games, bots=tuple(args.bots), seed=args.seed,
                         processes=args.processes, turn_limit=args.turn_limit, progress=not args.no_progress)
    except (DeckError, ValueError) as e:
        print(f"tokens-edu simulate: {e}", file=sys.stderr, flush=True)
        return 2
    for what, result in summary(games).itertuples(index=False):
        print(f"{what:<38} {result}")
    if args.csv is not None:
        try:
            games.to_csv(args.csv, index=False)
        except OSError as e:
            print(f"tokens-edu simulate: cannot write {args.csv}: {e.strerror or e}.", file=sys.stderr, flush=True)
            return 2
        print(f"One row per game saved in {args.csv}.")
    return 0
