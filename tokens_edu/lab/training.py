"""Training a :class:`~tokens_edu.players.learning.LearningBot`: many games, learning after each.

:func:`train` is an experiment like :func:`~tokens_edu.lab.simulation.simulate`: it plays games on
the engine's fast path, with each game's seed made from the training's seed and the game's
number, so the same seed and the same starting weights give the same training.
"""

from __future__ import annotations

import random

from ..content.decks import resolve_deck, starter_decks
from ..game.game import Game
from ..players.features import features
from ..players.learning import TRAIN_COLUMNS, LearningBot, _fraction, game_score
from ..players.registry import recipe as bot_recipe
from .simulation import _check_int, game_seed

__all__ = ["train", "TRAIN_COLUMNS"]


def train(bot: LearningBot, opponent="greedy", games: int = 200, seed: int = 0, progress: bool = True,
          explore: float = 0.1, window: int | None = None, decks=None, turn_limit: int = 100):
    """Let ``bot`` play ``games`` games against ``opponent`` and learn after each one.

    The bot changes (its ``weights`` and ``games_trained``). Seats take turns (seat 0 in even
    games); each game's two decks are drawn at random from ``decks``.

    Args:
        bot: a :class:`LearningBot`.
        opponent: a bot, a bot class, or a name (``"random"``, ``"greedy"``, ``"search"``...).
        games: how many games (1 to 1,000,000). About 20 games a second on a laptop against
            ``"greedy"``.
        seed: the same seed (and the same starting weights) gives the same training.
        progress: show a progress bar (tqdm).
        explore: the chance of trying a random move while training (0 to 1).
        window: the ``win_rate`` column is the rate over the last ``window`` games
            (default: a tenth of the games, at least 10).
        decks: decks to draw from (as :func:`tokens_edu.simulate` takes them); None: the
            ten starter decks.
        turn_limit: a game reaching this many turns is a draw (R25).

    Returns:
        pandas.DataFrame, one row per game (the learning curve), columns
        :data:`TRAIN_COLUMNS`: ``game``, ``seat`` (0/1), ``opponent``, ``won`` (1, 0, or 0.5
        for a draw), ``win_rate`` (over the last ``window`` games), ``turns``, ``explore``.
        Plot it with ``tokens_edu.plots.win_rate(table)`` (a learning curve).

    Raises:
        ValueError: ``bot`` is not a LearningBot; bad ``games``, ``seed``, ``explore`` or
            ``window``; an unknown opponent name. DeckError: a bad deck.
    """
    # pandas and tqdm load here, not at the top: `import tokens_edu` (every lesson kernel) stays
    # light, and a lesson that never trains a bot does not pay ~45 MiB for pandas.
    import pandas as pd
    from tqdm.auto import tqdm

    if not isinstance(bot, LearningBot):
        raise ValueError(f"train() teaches a LearningBot, not {type(bot).__name__}.")
    _check_int("games", games, 1, 1_000_000)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"The seed must be a whole number, not {seed!r:.40}.")
    explore = _fraction("explore", explore, 1.0)
    if window is None:
        window = max(10, games // 10)
    _check_int("window", window, 1, 1_000_000)
    deck_list = starter_decks() if decks is None else [resolve_deck(d) for d in decks]
    if not deck_list:
        raise ValueError("Give at least one deck (or None for the starter decks).")
    selfplay = opponent is bot or (isinstance(opponent, str) and opponent.strip().casefold() == "self")
    recipe = bot_recipe("random" if selfplay else opponent)
    if selfplay:
        recipe = type(recipe)(factory=recipe.factory, label="itself")
    rng = random.Random(f"tokens-edu-train/{seed}")
    bot._rng = random.Random(f"tokens-edu-train-bot/{seed}/{bot.games_trained}")
    rows = []
    results: list[float] = []
    try:
        bot._explore_now = explore
        for g in tqdm(range(games), disable=not progress, desc="Training games", unit="game"):
            gs = game_seed(seed, g)
            seat = g % 2
            a, b = rng.randrange(len(deck_list)), rng.randrange(len(deck_list))
            other = bot if selfplay else recipe.make(gs ^ 0x5EED) if recipe.instance is None else recipe.instance
            game = Game.new(deck_list[a], deck_list[b], seed=gs, turn_limit=turn_limit)
            players = (bot, other) if seat == 0 else (other, bot)
            trace = ([], [])  # both players' positions after each of their moves: it learns from both
            bot._trace = trace
            while not game.over:
                mover = game.to_act
                game.push(players[mover].choose_move(game))
                trace[mover].append(features(game.view(mover)))
            bot._trace = None
            won = 0.5 if game.winner is None else (1.0 if game.winner == seat else 0.0)
            bot.learn(trace[seat] + trace[1 - seat], None, scores=[game_score(game, seat)] * len(trace[seat])
                      + [game_score(game, 1 - seat)] * len(trace[1 - seat]))
            results.append(won)
            recent = results[-window:]
            rows.append({"game": g, "seat": seat, "opponent": recipe.label, "won": won,
                         "win_rate": sum(recent) / len(recent), "turns": game.turn, "explore": explore})
    finally:
        bot._trace = None
    table = pd.DataFrame(rows, columns=TRAIN_COLUMNS)
    table.attrs.update({"seed": seed, "window": window, "opponent": recipe.label, "explore": explore})
    return table
