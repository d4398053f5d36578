"""LearningBot: a computer player that students train, and whose knowledge they can read.

The bot looks at each move it could make, and measures the position that move would leave as
a few **features** (:data:`tokens_edu.features.FEATURES`: "my Tokens", "their Task power",
"my sideways Systems"...). It multiplies each feature by its **weight**, adds them up, and
turns the sum into a guess of its chance of winning (0 to 1). It plays the move with the best
guess. Its whole knowledge is one weight per feature: ``bot.weights``, a pandas table a student
can read and change (``bot.weights.loc["my Tokens", "weight"] = 3``).

It learns from games (:func:`train`): after each game it knows who won, so it nudges every
weight a little, so that its guesses along the way would have been closer to the result
(logistic regression on the positions it chose, one small step per position: *Monte Carlo*
learning, the simplest kind of reinforcement learning). While training it sometimes tries a
random move (``explore``), to find out about moves it would not pick.

``bot.save("my-bot.csv")`` writes the table (it opens in a spreadsheet);
``LearningBot.load("my-bot.csv")`` reads it back, with a plain message for a bad file.
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

from ..errors import IllegalAction, TokensError
from . import thinking
from .bots import Bot
from .features import FEATURES, MEANINGS, features

__all__ = ["LearningBot", "LearningBotFileError", "TRAIN_COLUMNS", "game_score"]

#: The columns of :func:`train`'s table, in order.
TRAIN_COLUMNS = ["game", "seat", "opponent", "won", "win_rate", "turns", "explore"]


class LearningBotFileError(TokensError):
    """A LearningBot file that cannot be read (the message says what is wrong, plainly)."""


def _squash(z: float) -> float:
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


class LearningBot(Bot):
    """A computer player that weighs features of each move with weights it learns.

    Args:
        weights: its knowledge: None (every weight 0: it knows nothing yet and picks among
            equal moves at random), a dict feature name -> weight (missing ones are 0), or a
            DataFrame like ``bot.weights`` (a ``weight`` column indexed by feature name).
        seed: int or None: where its random picks come from (ties, exploring).
        explore: chance (0 to 1) of trying a random move instead of its best one. ``train``
            uses its own (``explore=0.1`` by default) while training; 0 plays its best.
        learning_rate: how big each nudge of the weights is when it learns (0 to 10).

    Attributes:
        weights: pandas.DataFrame indexed by ``feature`` (in the order of
            :data:`~tokens_edu.features.FEATURES`), columns ``weight`` (float) and ``meaning``
            (what the feature measures, in a student's words). Change the weights freely.
        games_trained: how many games it has learned from.

    Raises:
        ValueError: unknown feature names, weights that are not numbers, or a bad ``explore``
            or ``learning_rate`` (plain words).

    It reads only what its player may see: for each move it plays the move on the game, reads
    the features from ``game.view(player)`` (counts and the board, never a hidden card), and
    takes the move back.
    """

    name = "Learning"

    def __init__(self, weights=None, seed: int | None = None, explore: float = 0.0, learning_rate: float = 0.05):
        self.seed = seed
        self._rng = random.Random(seed)
        self.explore = _fraction("explore", explore, 1.0)
        self.learning_rate = _fraction("learning_rate", learning_rate, 10.0)
        self.weights = weights
        self.games_trained = 0
        self._trace: list | None = None  # features of the positions it chose, while learning
        self._explore_now = 0.0  # train()'s explore while it runs

    # -- its knowledge --------------------------------------------------------------------------
    @property
    def weights(self):
        """The weights table (see the class docs). Assign a dict or DataFrame to replace it."""
        return self._weights

    @weights.setter
    def weights(self, value) -> None:
        self._weights = _weights_table(value)

    def _w(self) -> list[float]:
        w = self._weights["weight"]
        if list(w.index) != list(FEATURES):  # a student rebuilt the table in another order
            self._weights = _weights_table(self._weights)
            w = self._weights["weight"]
        values = [float(v) for v in w.tolist()]
        if not all(math.isfinite(v) for v in values):
            raise ValueError("Every weight must be a number (no blanks, no infinity).")
        return values

    def __repr__(self) -> str:
        return f"LearningBot(games_trained={self.games_trained}, seed={self.seed!r})"

    def _explain_rows(self, game):
        return thinking._learning_rows(self, game)

    # -- deciding -----------------------------------------------------------------------------
    def weigh(self, game) -> dict:
        """How it weighs every legal move of the player to act.

        Returns:
            dict: ``rows``, a list of ``(move, value, why)`` (value: its guessed chance of
            winning after the move, 0 to 1; why: the feature that changed the guess most, in
            words), and ``chosen``, the move :meth:`choose_move` would play next (the same
            pick among equal moves; with ``explore`` above 0 it may be a random one).

        Raises:
            IllegalAction: the game is over (R25).
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        w = self._w()
        player = game.to_act
        now = features(game.view(player))
        moves = game.legal_moves()
        rows, zs = [], []
        for m in moves:
            f = self._after(game, m, player)
            z = sum(a * b for a, b in zip(w, f))
            changes = [(a * (b - c), name) for a, b, c, name in zip(w, f, now, FEATURES)]
            top = max(changes, key=lambda x: abs(x[0]))
            why = (f"{top[1]} {'goes up' if top[0] > 0 else 'goes down'} in its eyes ({top[0]:+.2f})"
                   if abs(top[0]) > 1e-9 else "no feature changes")
            rows.append((m, _squash(z), why))
            zs.append(z)
        peek = random.Random()
        peek.setstate(self._rng.getstate())  # its next pick, without using up its randomness
        return {"rows": rows, "chosen": self._pick(moves, zs, peek, self._explore())}

    @staticmethod
    def _after(game, move: int, player: int) -> list[float]:
        game.push(move)
        try:
            return features(game.view(player))
        finally:
            game.pop()

    def _explore(self) -> float:
        return self._explore_now if self._trace is not None else self.explore

    @staticmethod
    def _pick(moves: list[int], zs: list[float] | None, rng: random.Random, explore: float) -> int:
        """The move with the best sum (ties: one of them at random; with chance ``explore``
        any move at random). ``zs`` may be None when there is one move."""
        if len(moves) == 1:
            return moves[0]
        if explore and rng.random() < explore:
            return rng.choice(moves)
        top = max(zs)
        best = [m for m, z in zip(moves, zs) if z >= top - 1e-12]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def choose_move(self, game) -> int:
        """The move with the best weighted sum of features (ties: one of them at random;
        with chance ``explore``, any legal move at random).

        Raises:
            IllegalAction: the game is over (R25).
        """
        moves = game.legal_moves()
        if not moves:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        if len(moves) == 1:
            return moves[0]
        player = game.to_act
        w = self._w()
        explore = self._explore()
        if explore and self._rng.random() < explore:  # the same draws as _pick, without weighing
            return self._rng.choice(moves)
        zs = [sum(a * b for a, b in zip(w, self._after(game, m, player))) for m in moves]
        return self._pick(moves, zs, self._rng, 0.0)

    # -- learning -----------------------------------------------------------------------------
    def learn(self, trace: list[list[float]], result: float | None, scores: list[float] | None = None) -> None:
        """Nudge the weights toward ``result`` (1 won, 0 lost, 0.5 draw) for every position in
        ``trace`` (features of positions of one game, each as its player saw it; ``scores``:
        one result per position instead): for each, every weight moves by
        ``learning_rate * (result - guess) * feature``."""
        w = self._w()
        lr = self.learning_rate
        if scores is None:
            scores = [result] * len(trace)
        for f, target in zip(trace, scores):
            err = target - _squash(sum(a * b for a, b in zip(w, f)))
            for j, x in enumerate(f):
                w[j] += lr * err * x
        self._weights["weight"] = w
        self.games_trained += 1

    # -- files ----------------------------------------------------------------------------------
    def save(self, path) -> Path:
        """Write the weights table as a CSV file (columns ``feature``, ``weight``, ``meaning``;
        it opens in a spreadsheet, and in pandas with ``pd.read_csv``).

        Returns:
            the path written.

        Raises:
            LearningBotFileError: the file can't be written (plain words).
        """
        path = Path(os.fspath(path)).expanduser()
        table = self._weights.reset_index()
        try:
            table.to_csv(path, index=False)
        except OSError as e:
            raise LearningBotFileError(f"Can't save the bot to {str(path)[:80]}: {e.strerror or e}.") from None
        return path

    @classmethod
    def load(cls, path, seed: int | None = None) -> "LearningBot":
        """A LearningBot with the weights saved in a CSV file by :meth:`save`.

        Raises:
            LearningBotFileError: no such file, not a CSV table, no ``feature`` and ``weight``
                columns, an unknown or repeated feature, a missing feature, or a weight that is
                not a number (the message names what and where).
        """
        import pandas as pd

        path = Path(os.fspath(path)).expanduser()
        if not path.is_file():
            raise LearningBotFileError(f"There is no file {str(path)[:80]}. Check the name and the folder.")
        try:
            table = pd.read_csv(path, dtype={"feature": str})
        except (ValueError, UnicodeDecodeError, OSError) as e:
            raise LearningBotFileError(f"{path.name} is not a table the bot can read ({str(e)[:80]}).") from None
        if not {"feature", "weight"} <= set(table.columns):
            raise LearningBotFileError(f"{path.name} needs the columns 'feature' and 'weight' "
                                       "(save a bot with bot.save(...) to see the layout).")
        try:
            bot = cls(weights=table.set_index("feature")[["weight"]], seed=seed)
        except ValueError as e:
            raise LearningBotFileError(f"{path.name}: {e}") from None
        return bot


def _fraction(name: str, value, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
        raise ValueError(f"{name} must be a number from 0 to {high:g}, not {value!r:.40}.")
    return float(value)


def _weights_table(value):
    """A weights DataFrame (index feature in FEATURES order; weight, meaning) from None, a dict,
    a DataFrame or a Series; ValueError in plain words for anything else."""
    import pandas as pd

    if value is None:
        given = {}
    elif isinstance(value, pd.DataFrame):
        if "weight" not in value.columns:
            raise ValueError("The weights table needs a 'weight' column.")
        frame = value
        if "feature" in frame.columns:
            frame = frame.set_index("feature")
        index = [str(k) for k in frame.index]
        if len(set(index)) != len(index):
            dup = next(k for k in index if index.count(k) > 1)
            raise ValueError(f"The feature '{dup[:40]}' is there twice.")
        given = dict(zip(index, frame["weight"].tolist()))
        missing = [f for f in FEATURES if f not in given]
        if missing:
            raise ValueError(f"The weights table has no row for: {', '.join(missing)}.")
    elif isinstance(value, pd.Series):
        given = {str(k): v for k, v in value.items()}
    elif isinstance(value, dict):
        given = dict(value)
    else:
        raise ValueError(f"weights are a dict (feature -> weight) or a table like bot.weights, not {type(value).__name__}.")
    unknown = [k for k in given if k not in MEANINGS]
    if unknown:
        raise ValueError(f"'{str(unknown[0])[:40]}' is not a feature. The features are: {', '.join(FEATURES)}.")
    weights = []
    for f in FEATURES:
        v = given.get(f, 0.0)
        try:
            x = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"The weight of '{f}' must be a number, not {str(v)[:20]!r}.") from None
        if not math.isfinite(x):
            raise ValueError(f"The weight of '{f}' must be a number, not {str(v)[:20]!r}.")
        weights.append(x)
    df = pd.DataFrame({"weight": weights, "meaning": [MEANINGS[f] for f in FEATURES]},
                      index=pd.Index(list(FEATURES), name="feature"))
    return df


# -- training ---------------------------------------------------------------------------------------
#: What a lost game is worth at most when the bot learns (when it had 15 Tokens; 0 Tokens: 0).
LOSS_CREDIT = 0.4


def game_score(game, player: int) -> float:
    """What a finished game taught ``player``: 1 for a win, 0.5 for a draw, and for a loss a
    little credit for the Tokens it got (up to :data:`LOSS_CREDIT`), so that a bot that loses
    every game still learns that more Tokens is better."""
    if game.winner == player:
        return 1.0
    if game.winner is None:
        return 0.5
    return LOSS_CREDIT * min(game.tokens[player], 15) / 15
