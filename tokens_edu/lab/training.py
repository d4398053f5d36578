"""Training a :class:`~tokens_edu.players.learning.LearningBot`: many games, learning after each.

:func:`train` is an experiment like :func:`~tokens_edu.lab.simulation.simulate`: it plays games on
the engine's fast path, with each game's seed made from the training's seed and the game's
number, so the same seed and the same starting bot give the same training.

For a page that redraws while the bot learns (a live learning curve, the weights as bars),
:func:`train_batches` gives the same games in batches, one table per batch, and ``train``
takes an ``on_batch`` callback. ``train(bot, opp, 100, seed=0)`` and four batches of 25 from
``train_batches(bot, opp, batch_size=25, batches=4, seed=0)`` play the same games and leave
the bot with the same weights.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

from ..content.decks import resolve_deck, starter_decks
from ..game.game import Game
from ..players.learning import TRAIN_COLUMNS, LearningBot, _fraction
from ..players.registry import recipe as bot_recipe
from .simulation import _check_int, game_seed

__all__ = ["train", "train_batches", "TRAIN_COLUMNS"]


def _setup(bot, opponent, seed, explore, decks):
    if not isinstance(bot, LearningBot):
        raise ValueError(f"train() teaches a LearningBot, not {type(bot).__name__}.")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"The seed must be a whole number, not {seed!r:.40}.")
    explore = _fraction("explore", explore, 1.0)
    deck_list = starter_decks() if decks is None else [resolve_deck(d) for d in decks]
    if not deck_list:
        raise ValueError("Give at least one deck (or None for the starter decks).")
    selfplay = opponent is bot or (isinstance(opponent, str) and opponent.strip().casefold() == "self")
    recipe = bot_recipe("random" if selfplay else opponent)
    if selfplay:
        recipe = type(recipe)(factory=recipe.factory, label="itself")
    return explore, deck_list, selfplay, recipe


def _games(bot, recipe, selfplay, deck_list, seed, explore, turn_limit, count) -> Iterator[dict]:
    """Play and learn from games 0, 1, 2... (``count`` of them, or for ever); yield each row."""
    rng = random.Random(f"tokens-edu-train/{seed}")
    bot._rng = random.Random(f"tokens-edu-train-bot/{seed}/{bot.games_trained}")
    g = 0
    try:
        while count is None or g < count:
            gs = game_seed(seed, g)
            seat = g % 2
            a, b = rng.randrange(len(deck_list)), rng.randrange(len(deck_list))
            other = bot if selfplay else recipe.make(gs ^ 0x5EED) if recipe.instance is None else recipe.instance
            game = Game.new(deck_list[a], deck_list[b], seed=gs, turn_limit=turn_limit)
            players = (bot, other) if seat == 0 else (other, bot)
            bot.start_learning(explore)
            while not game.over:
                game.push(players[game.to_act].choose_move(game))
            bot.learn_from_game(game, players=(0, 1) if selfplay else (seat,))
            won = 0.5 if game.winner is None else (1.0 if game.winner == seat else 0.0)
            yield {"game": g, "seat": seat, "opponent": recipe.label, "won": won, "turns": game.turn,
                   "explore": explore}
            g += 1
    finally:
        bot._decisions = None
        bot._explore_now = 0.0


def train(bot: LearningBot, opponent="greedy", games: int = 200, seed: int = 0, progress: bool = True,
          explore: float = 0.0, window: int | None = None, decks=None, turn_limit: int = 100,
          batch_size: int = 25, on_batch: Callable | None = None):
    """Let ``bot`` play ``games`` games against ``opponent`` and learn after each one
    (reinforcement learning: see :mod:`tokens_edu.players.learning`).

    The bot changes (its ``weights``, ``games_trained`` and ``baseline``). Seats take turns
    (seat 0 in even games); each game's two decks are drawn at random from ``decks``.

    Args:
        bot: a :class:`LearningBot`.
        opponent: a bot, a bot class, a name (``"random"``, ``"greedy"``, ``"search"``...),
            or ``"self"`` (or the bot itself): it plays itself and learns from both seats.
        games: how many games (1 to 1,000,000). ``benchmarks/learning.py`` prints how many
            games a minute fit on one core (about 1,000 to 2,000 against ``"greedy"``).
        seed: the same seed (and the same starting bot) gives the same training.
        progress: show a progress bar (tqdm).
        explore: the chance of a random move while training, one it does not learn from (0
            to 1). Even at 0 it tries moves it likes less: its picks are drawn by their points.
        window: the ``win_rate`` column is the rate over the last ``window`` games
            (default: a tenth of the games, at least 10).
        decks: decks to draw from (as :func:`tokens_edu.simulate` takes them); None: the
            ten starter decks.
        turn_limit: a game reaching this many turns is a draw (R25).
        batch_size: games between two calls of ``on_batch`` (1 to 1,000,000).
        on_batch: None, or a function called after every ``batch_size`` games (and after the
            last game) with the rows so far as a DataFrame (columns :data:`TRAIN_COLUMNS`), so a
            page can redraw its curve and the bot's weights while it trains.

    Returns:
        pandas.DataFrame, one row per game (the learning curve), columns
        :data:`TRAIN_COLUMNS`: ``game``, ``seat`` (0/1), ``opponent``, ``won`` (1, 0, or 0.5
        for a draw), ``win_rate`` (over the last ``window`` games), ``turns``, ``explore``.
        ``attrs``: ``seed``, ``window``, ``opponent``, ``explore``, ``seconds``.
        Plot it with ``tokens_edu.plots.win_rate(table)`` (a learning curve).

    Raises:
        ValueError: ``bot`` is not a LearningBot; bad ``games``, ``seed``, ``explore``,
            ``window`` or ``batch_size``; an unknown opponent name. DeckError: a bad deck.
    """
    # pandas and tqdm load here, not at the top: `import tokens_edu` (every lesson kernel) stays
    # light, and a lesson that never trains a bot does not pay ~45 MiB for pandas.
    import pandas as pd
    from tqdm.auto import tqdm

    _check_int("games", games, 1, 1_000_000)
    _check_int("batch_size", batch_size, 1, 1_000_000)
    if window is None:
        window = max(10, games // 10)
    _check_int("window", window, 1, 1_000_000)
    explore, deck_list, selfplay, recipe = _setup(bot, opponent, seed, explore, decks)
    attrs = {"seed": seed, "window": window, "opponent": recipe.label, "explore": explore}
    rows: list[dict] = []
    started = time.perf_counter()
    results: list[float] = []
    bar = tqdm(total=games, disable=not progress, desc="Training games", unit="game")
    try:
        for row in _games(bot, recipe, selfplay, deck_list, seed, explore, turn_limit, games):
            results.append(row["won"])
            recent = results[-window:]
            row["win_rate"] = sum(recent) / len(recent)
            rows.append(row)
            bar.update(1)
            if on_batch is not None and (len(rows) % batch_size == 0 or len(rows) == games):
                so_far = pd.DataFrame(rows, columns=TRAIN_COLUMNS)
                so_far.attrs.update(attrs, seconds=time.perf_counter() - started)
                on_batch(so_far)
    finally:
        bar.close()
    table = pd.DataFrame(rows, columns=TRAIN_COLUMNS)
    table.attrs.update(attrs, seconds=time.perf_counter() - started)
    return table


def train_batches(bot: LearningBot, opponent="greedy", batch_size: int = 25, batches: int | None = None,
                  seed: int = 0, explore: float = 0.0, decks=None, turn_limit: int = 100) -> Iterator:
    """Train ``bot`` in batches of games, yielding after each batch: a page can redraw between
    two batches (the learning curve, ``bot.weights`` as bars) and stop whenever it likes.

    The games are the ones :func:`train` plays with the same arguments: game numbers go on
    from batch to batch. Keep one generator for a page's whole training (``next`` for each
    batch): a new call with the same seed deals the same games again (the bot's own random
    numbers differ, as its ``games_trained`` does), so give a new call another ``seed``.

    Args:
        bot, opponent, seed, explore, decks, turn_limit: as for :func:`train`.
        batch_size: games per batch (1 to 100,000; a lesson's batch: 20 to 50).
        batches: how many batches (1 to 1,000,000), or None: as many as the page asks for.

    Yields:
        pandas.DataFrame, one per batch: that batch's games (columns :data:`TRAIN_COLUMNS`;
        ``win_rate`` is the batch's win rate so far). ``attrs``: ``batch`` (1, 2...),
        ``win_rate`` (of the batch), ``seconds`` (the batch's time), ``games_trained`` (the
        bot's games so far) and ``weights`` (a copy of ``bot.weights`` after the batch).

    Raises:
        ValueError: as :func:`train`, or a bad ``batch_size`` or ``batches`` (raised at the
            first ``next``).
    """
    import pandas as pd

    _check_int("batch_size", batch_size, 1, 100_000)
    if batches is not None:
        _check_int("batches", batches, 1, 1_000_000)
    explore, deck_list, selfplay, recipe = _setup(bot, opponent, seed, explore, decks)
    games = _games(bot, recipe, selfplay, deck_list, seed, explore, turn_limit,
                   None if batches is None else batches * batch_size)
    number = 0
    try:
        while batches is None or number < batches:
            number += 1
            started = time.perf_counter()
            rows = []
            for row in games:
                rows.append(row)
                row["win_rate"] = sum(r["won"] for r in rows) / len(rows)
                if len(rows) == batch_size:
                    break
            if not rows:
                return
            table = pd.DataFrame(rows, columns=TRAIN_COLUMNS)
            table.attrs.update({"batch": number, "win_rate": rows[-1]["win_rate"],
                                "seconds": time.perf_counter() - started, "games_trained": bot.games_trained,
                                "weights": bot.weights.copy(), "opponent": recipe.label, "seed": seed})
            yield table
    finally:
        games.close()
