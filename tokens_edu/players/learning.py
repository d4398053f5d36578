"""LearningBot: a computer player that students train, and whose knowledge they can read.

How it picks a move
-------------------
For each move it could make, it **imagines** how the game might go on: it deals the cards it
cannot see at random (``game.imagine``: one made-up deal, the same for every move, so the
moves are compared fairly), makes the move, then plays the rest of its turn and the other
player's next turn with quick rules (GreedyBot's list, for both players). It measures the
board it imagined, at the start of its next turn, with 8 **features**
(:data:`~tokens_edu.players.features.LEARNING_FEATURES`: "more Tokens", "more Task power",
"more sideways Systems"..., each "mine minus theirs"). Each feature times its **weight**,
added up, gives the move's **points**; it plays the move with the most points. A move whose
imagined game it wins comes first; one whose imagined game it loses comes last.

Its whole knowledge is one weight per feature: ``bot.weights``, an 8-row table a student can
read and change (``bot.weights.loc["more Tokens", "weight"] = 3``). A new bot has every weight
at 0: every board is worth 0 points to it, so it picks at random.

How it learns from play (reinforcement learning)
-------------------------------------------------
While it trains (:func:`tokens_edu.train`), it does not always play its favourite: it picks
each move with a chance that grows with the move's points (equal points: equal chances; a
new bot plays at random). After each game it nudges every weight. If the game went better
than its games usually go (a win; a loss with more Tokens than usual), each weight moves
toward the features of the boards its moves led to, compared with the boards of the other
moves it could have made; if it went worse, away from them. So moves like the ones it made in
good games get more points next time. This is the *policy gradient* method (REINFORCE with
a baseline, Williams 1992). The size of each nudge is set per weight (Adam, Kingma and Ba
2015): no weight moves much more than ``learning_rate`` in one game.

How it learns from examples (copying a person)
----------------------------------------------
``bot.learn_from_examples(examples_from_game(game, player=0))`` (examples from
:mod:`tokens_edu.players.imitation`) changes the weights so that
the moves a person chose in a recorded game get the most points: the same nudge, toward the
board of the person's move and away from the others, repeated over all the examples (fitting
a *choice model*, conditional logit regression). Its table says, after each round, how many
of the person's moves the bot would now pick too.

Hidden cards stay hidden: it sees the game only through ``game.view(player)``,
``game.legal_moves()`` and ``game.imagine(player, rng)`` (an imagined deal depends only on its
random numbers and what its player sees).

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
from .bots import Bot, GreedyBot
from .features import LEARNING_FEATURES, LEARNING_MEANINGS, learning_features
from .. import _moved
from .imitation import _agreement, _example_data, _to_fit

__all__ = ["LearningBot", "LearningBotFileError", "TRAIN_COLUMNS",
           "EXAMPLE_COLUMNS", "FEATURES", "LOOKAHEAD_TURNS", "WIN_POINTS", "game_score"]

# Old names of this module (Example, examples_from_game: in .imitation), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

#: The features a LearningBot weighs (the rows of ``bot.weights``), in order.
FEATURES = LEARNING_FEATURES

#: The columns of :func:`tokens_edu.train`'s table (the learning curve), in order.
TRAIN_COLUMNS = ["game", "seat", "opponent", "won", "win_rate", "turns", "explore"]

#: The columns of :meth:`LearningBot.learn_from_examples`' table, in order.
EXAMPLE_COLUMNS = ["round", "agree", "examples"]

#: How many turns it imagines after a move, by default: the rest of its own turn and the other
#: player's next turn. Measured (benchmarks/learning.py, and while choosing): trained for the
#: same games against GreedyBot, 2 plays far better than 0 or 1 (the other player's reply, an
#: Audit of a sideways System, is what a board alone can't show); 0 copies a person's moves
#: best (:meth:`LearningBot.learn_from_examples`: about 8 of 10 of the moves it learned from,
#: 6 of 10 in games it did not see, against 6 and 5 of 10 with 2).
LOOKAHEAD_TURNS = 2

#: The points of a move whose imagined game it wins (one it loses: minus this).
WIN_POINTS = 100.0

#: How fast ``baseline`` (what its games are usually worth) follows its results.
BASELINE_RATE = 0.05

_QUICK = GreedyBot()  # plays both sides of an imagined turn (deterministic)
_TIE = 1e-9


class LearningBotFileError(TokensError):
    """A LearningBot file that cannot be read (the message says what is wrong, plainly)."""


def game_score(game, player: int) -> float:
    """What a finished game was worth to ``player`` when it learns: 1 for a win, 0.5 for a
    draw, and for a loss a little credit for the Tokens it got (up to :data:`LOSS_CREDIT`), so
    that a bot that loses every game still learns that more Tokens is better."""
    if game.winner == player:
        return 1.0
    if game.winner is None:
        return 0.5
    return LOSS_CREDIT * min(game.tokens[player], 15) / 15


#: What a lost game is worth at most when the bot learns (when it had 15 Tokens; 0 Tokens: 0).
LOSS_CREDIT = 0.6


class LearningBot(Bot):
    """A computer player that imagines each move's next two turns and scores the board with
    weights it learns (see the module's docs).

    Args:
        weights: its knowledge: None (every weight 0: it knows nothing yet and picks at
            random), a dict feature name -> weight (missing ones are 0), or a DataFrame like
            ``bot.weights`` (a ``weight`` column indexed by feature name).
        seed: int or None: where its random numbers come from (imagined deals, ties, its
            picks while training). The same seed and weights make the same moves.
        explore: chance (0 to 1) of playing a random move instead of its best one (while
            training: a move it does not learn from). 0 plays its best.
        learning_rate: about how far one game (or one round of examples) may move a weight
            (0 to 10; 0.25 by default).
        lookahead: turns it imagines after a move before it measures the board (0 to 4): 2
            (:data:`LOOKAHEAD_TURNS`, its turn and the other player's next) plays best; 0
            measures the board right after the move, which copies a person's moves best.

    Attributes:
        weights: pandas.DataFrame indexed by ``feature`` (the 8 of :data:`FEATURES`, in order),
            columns ``weight`` (float) and ``meaning`` (what the feature measures, in a
            student's words). Change the weights freely.
        games_trained: how many games it has learned from.
        examples_learned: how many examples (a person's moves) it has learned from.
        baseline: what its training games are usually worth (0 to 1; see :func:`game_score`),
            None before its first training game. A game worth more makes it like its moves more.

    Raises:
        ValueError: unknown feature names, weights that are not numbers, or a bad ``explore``
            or ``learning_rate`` (plain words).

    It reads only what its player may see (``game.view``, ``game.legal_moves``,
    ``game.imagine``): never the other player's hand or either deck's order.
    """

    name = "Learning"

    def __init__(self, weights=None, seed: int | None = None, explore: float = 0.0, learning_rate: float = 0.25,
                 lookahead: int = LOOKAHEAD_TURNS):
        if isinstance(lookahead, bool) or not isinstance(lookahead, int) or not 0 <= lookahead <= 4:
            raise ValueError(f"lookahead must be a whole number of turns from 0 to 4, not {lookahead!r:.40}.")
        self.lookahead = lookahead
        self.seed = seed
        self._rng = random.Random(seed)
        self.explore = _fraction("explore", explore, 1.0)
        self.learning_rate = _fraction("learning_rate", learning_rate, 10.0)
        self.weights = weights
        self.games_trained = 0
        self.examples_learned = 0
        self.baseline: float | None = None
        self._adam = None  # (first moments, second moments, steps) of its learning from play
        self._decisions = None  # while training: {player: [gradient of each sampled decision]}
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

    def _set_w(self, w: list[float]) -> None:
        self._weights["weight"] = [float(x) for x in w]

    def __repr__(self) -> str:
        look = "" if self.lookahead == LOOKAHEAD_TURNS else f", lookahead={self.lookahead}"
        return f"LearningBot(games_trained={self.games_trained}, seed={self.seed!r}{look})"

    def _explain_rows(self, game):
        return thinking._learning_rows(self, game)

    # -- imagining -------------------------------------------------------------------------------
    def _imagine(self, game, player: int, rng: random.Random, moves: list[int]) -> list:
        """For each move: ``(result, features)`` of the board :attr:`lookahead` turns on (2: at
        the start of ``player``'s next turn) in one imagined deal: result 1.0 or 0.0 when the
        imagined game ended with a winner (features None), else None and
        :func:`learning_features`."""
        world = game.imagine(player, random.Random(rng.getrandbits(64)))
        stop = game.turn + self.lookahead
        push, pop = world.push, world.pop
        quick = _QUICK.choose_move
        out = []
        for m in moves:
            push(m)
            k = 1
            while not world.over and world.turn < stop:
                push(quick(world))
                k += 1
            if world.over and world.winner is not None:
                out.append((1.0 if world.winner == player else 0.0, None))
            else:
                out.append((None, learning_features(world.view(player))))
            for _ in range(k):
                pop()
        return out

    @staticmethod
    def _points(w: list[float], options: list) -> list[float]:
        return [WIN_POINTS if r == 1.0 else -WIN_POINTS if r == 0.0 else sum(a * b for a, b in zip(w, f))
                for r, f in options]

    def _decide(self, game, rng: random.Random, explore: float, sample: bool):
        """``(move, options, points, gradient)``: the pick (random with chance ``explore``;
        ``sample``: drawn with chances that grow with the points, as in training; else the
        most points, ties at random), what it imagined per move, the points, and for a sampled
        pick the direction its learning nudges the weights (else None)."""
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0], None, None, None
        if explore and rng.random() < explore:
            return rng.choice(moves), None, None, None
        w = self._w()
        options = self._imagine(game, game.to_act, rng, moves)
        points = self._points(w, options)
        wins = [i for i, (r, _) in enumerate(options) if r == 1.0]
        if wins:
            return moves[wins[0]], options, points, None
        alive = [i for i, (r, _) in enumerate(options) if r is None]
        if not alive:  # every imagined game lost: any move
            return rng.choice(moves), options, points, None
        if not sample:
            top = max(points[i] for i in alive)
            best = [i for i in alive if points[i] >= top - _TIE]
            i = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
            return moves[i], options, points, None
        top = max(points[i] for i in alive)
        chances = [math.exp(points[i] - top) for i in alive]
        total = sum(chances)
        chances = [c / total for c in chances]
        j = rng.choices(range(len(alive)), weights=chances)[0]
        n = len(w)
        mean = [sum(c * options[i][1][k] for c, i in zip(chances, alive)) for k in range(n)]
        picked = options[alive[j]][1]
        return moves[alive[j]], options, points, [picked[k] - mean[k] for k in range(n)]

    # -- deciding -----------------------------------------------------------------------------
    def weigh(self, game) -> dict:
        """How it weighs every legal move of the player to act (what :meth:`explain` shows).

        Returns:
            dict: ``rows``, a list of ``(move, points, why)`` in the game's order (points: the
            weighted sum of the features of the board it imagines after the move, or
            ±:data:`WIN_POINTS` when that imagined game ends; why: the feature that gives the
            move more or fewer points than its other options, in words), and ``chosen``, the
            move :meth:`choose_move` will play next (it uses the same random numbers).

        Raises:
            IllegalAction: the game is over (R25).
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        peek = random.Random()
        peek.setstate(self._rng.getstate())  # its next pick, without using up its randomness
        moves = game.legal_moves()
        chosen, options, points, _ = self._decide(game, peek, self._explore(), sample=False)
        w = self._w()
        if len(moves) == 1:
            return {"rows": [(moves[0], 0.0, "its only choice")], "chosen": chosen}
        random_pick = options is None
        if random_pick:  # an exploring pick: what it would have thought of each move, all the same
            options = self._imagine(game, game.to_act, random.Random(0), moves)
            points = self._points(w, options)
        rows = []
        c = moves.index(chosen)
        ties = sum(1 for i, (r, _) in enumerate(options) if r is None and i != c and options[c][0] is None
                   and abs(points[i] - points[c]) < _TIE)
        for i, (m, p) in enumerate(zip(moves, points)):
            why = _why(w, options, i)
            if m == chosen and random_pick:
                why = "a random move: it is exploring"
            elif m == chosen and ties:
                why = "as many points as another move: it picked one of them at random"
            rows.append((m, p, why))
        return {"rows": rows, "chosen": chosen}

    def _explore(self) -> float:
        return self._explore_now if self._decisions is not None else self.explore

    def choose_move(self, game) -> int:
        """The move whose imagined board gets the most points (ties: one of them at random;
        with chance ``explore``, any legal move at random). While it trains, a move drawn
        with chances that grow with the points.

        Raises:
            IllegalAction: the game is over (R25).
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        learning = self._decisions
        move, _, _, gradient = self._decide(game, self._rng, self._explore(), sample=learning is not None)
        if gradient is not None:
            learning.setdefault(game.to_act, []).append(gradient)
        return move

    # -- learning from play -----------------------------------------------------------------------
    def start_learning(self, explore: float = 0.0) -> None:
        """Start a training game: from now on its picks are drawn (see the module) and
        remembered until :meth:`learn_from_game`. :func:`tokens_edu.train` calls both.

        Args:
            explore: the chance (0 to 1) of a random move, one it does not learn from.

        Raises:
            ValueError: ``explore`` is not a number from 0 to 1.
        """
        self._explore_now = _fraction("explore", explore, 1.0)
        self._decisions = {}

    def learn_from_game(self, game, players=None) -> dict:
        """Learn from a finished training game (after :meth:`start_learning`): nudge the weights
        by how the game went for each seat it played (see the module's docs).

        Args:
            game: the finished Game. players: the seats it played (None: every seat it made a
                drawn pick for; both in a game against itself).

        Returns:
            dict ``{seat: score}`` of :func:`game_score` per seat it learned from.
        """
        decisions = self._decisions or {}
        self._decisions = None
        self._explore_now = 0.0
        seats = sorted(decisions) if players is None else list(players)
        scores = {}
        w = self._w()
        n = len(w)
        for seat in seats:
            score = game_score(game, seat)
            scores[seat] = score
            if self.baseline is None:
                self.baseline = score
            advantage = score - self.baseline
            grads = decisions.get(seat, [])
            if grads and advantage:
                total = [advantage * sum(g[k] for g in grads) for k in range(n)]
                w = self._adam_step(w, total)
            self.baseline += BASELINE_RATE * (score - self.baseline)
        self._set_w(w)
        self.games_trained += 1
        return scores

    def _adam_step(self, w: list[float], gradient: list[float], state: list | None = None) -> list[float]:
        """One Adam step up ``gradient`` (the direction that makes good games likelier)."""
        if state is None:
            if self._adam is None or len(self._adam[0]) != len(w):
                self._adam = [[0.0] * len(w), [0.0] * len(w), 0]
            state = self._adam
        m, v = state[0], state[1]
        state[2] += 1
        t = state[2]
        b1, b2, lr = 0.9, 0.999, self.learning_rate
        out = list(w)
        for k, g in enumerate(gradient):
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            out[k] += lr * (m[k] / (1 - b1 ** t)) / (math.sqrt(v[k] / (1 - b2 ** t)) + 1e-8)
        return out

    # -- learning from examples -------------------------------------------------------------------
    def learn_from_examples(self, examples, rounds: int = 200, seed: int = 0, regularize: float = 0.001):
        """Change the weights so that the moves in ``examples`` get the most points: learning
        to copy a person (see the module's docs).

        Each example is imagined once (one made-up deal, from ``seed``); then every round moves
        the weights a step toward the person's moves and away from the other options, over
        all the examples together.

        Args:
            examples: a list of :class:`~tokens_edu.players.imitation.Example` (see
                :func:`~tokens_edu.players.imitation.examples_from_game`), or of
                ``(game, move)`` pairs where ``move`` is one of ``game.legal_moves()`` or its text.
            rounds: how many steps (1 to 10,000).
            seed: the imagined deals (the same seed: the same result).
            regularize: how strongly weights are pulled back toward 0 (0 to 1), so a few
                examples can't push them to huge numbers.

        Returns:
            pandas.DataFrame, one row per round, columns :data:`EXAMPLE_COLUMNS`: ``round``
            (1, 2...), ``agree`` (the share of the examples where the bot would now make the
            person's move, or one it can't tell from it: the same board in its imagination;
            0 to 1, a tie counting as the chance of picking such a move) and ``examples`` (how
            many examples it learned from). ``attrs["before"]``: ``agree`` before the first
            round. Use ``LearningBot(lookahead=0)`` to copy a person best.

        Raises:
            ValueError: no examples, an example whose move is not legal there, or bad
                ``rounds`` or ``regularize``.
        """
        import pandas as pd

        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10_000:
            raise ValueError(f"rounds must be a whole number from 1 to 10,000, not {rounds!r:.40}.")
        regularize = _fraction("regularize", regularize, 1.0)
        data = _example_data(self, list(examples), seed)
        if not data:
            raise ValueError("There are no examples to learn from: play some moves first "
                             "(a move counts when there were two moves or more to choose from).")
        fit = _to_fit(data)
        w = self._w()
        n = len(w)
        state = [[0.0] * n, [0.0] * n, 0]
        rows = []
        before = _agreement(w, data)
        for r in range(1, rounds + 1):
            if fit:
                grad = [-regularize * x for x in w]
                for feats, i in fit:
                    zs = [sum(a * b for a, b in zip(w, f)) for f in feats]
                    top = max(zs)
                    ex = [math.exp(z - top) for z in zs]
                    total = sum(ex)
                    for k in range(n):
                        mean = sum(e * f[k] for e, f in zip(ex, feats)) / total
                        grad[k] += (feats[i][k] - mean) / len(fit)
                w = self._adam_step(w, grad, state)
            rows.append({"round": r, "agree": _agreement(w, data), "examples": len(data)})
        self._set_w(w)
        self.examples_learned += len(data)
        table = pd.DataFrame(rows, columns=EXAMPLE_COLUMNS)
        table.attrs.update({"before": before, "examples": len(data), "seed": seed})
        return table

    # -- files ----------------------------------------------------------------------------------
    def save(self, path) -> Path:
        """Write the weights table as a CSV file (columns ``feature``, ``weight``, ``meaning``,
        ``lookahead``: its :attr:`lookahead`, the same on every row; it opens in a spreadsheet,
        and in pandas with ``pd.read_csv``). What it remembers only while training
        (``baseline``, its step sizes) is not saved.

        Returns:
            the path written.

        Raises:
            LearningBotFileError: the file can't be written (plain words).
        """
        path = Path(os.fspath(path)).expanduser()
        table = self._weights.reset_index()
        table["lookahead"] = self.lookahead
        try:
            table.to_csv(path, index=False)
        except OSError as e:
            raise LearningBotFileError(f"Can't save the bot to {str(path)[:80]}: {e.strerror or e}.") from None
        return path

    @classmethod
    def load(cls, path, seed: int | None = None) -> "LearningBot":
        """A LearningBot with the weights (and the ``lookahead``, if the file has it; else
        :data:`LOOKAHEAD_TURNS`) saved in a CSV file by :meth:`save`.

        Raises:
            LearningBotFileError: no such file, not a CSV table, no ``feature`` and ``weight``
                columns, an unknown or repeated feature (a file saved by the older LearningBot,
                whose features were "my Tokens", "their Tokens"..., is named as such), a
                missing feature, or a weight that is not a number (the message names what and
                where).
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
        if "my Tokens" in set(table["feature"]):
            raise LearningBotFileError(f"{path.name} was saved by an older LearningBot, which measured other "
                                       "features. Train a new bot and save it again.")
        lookahead = LOOKAHEAD_TURNS
        if "lookahead" in table.columns:
            values = set(table["lookahead"].dropna().tolist())
            if len(values) != 1 or not all(isinstance(v, (int, float)) and float(v).is_integer() for v in values):
                raise LearningBotFileError(f"{path.name}: the 'lookahead' column must hold one whole number "
                                           "(the same on every row).")
            lookahead = int(values.pop())
        try:
            bot = cls(weights=table.set_index("feature")[["weight"]], seed=seed, lookahead=lookahead)
        except ValueError as e:
            raise LearningBotFileError(f"{path.name}: {e}") from None
        return bot


def _why(w: list[float], options: list, i: int) -> str:
    """In words: what gives option ``i`` more (or fewer) points than the average of the
    others: its imagined game's end, or the feature whose weight times its difference from
    the average is largest."""
    r, f = options[i]
    if r == 1.0:
        return "it wins the game it imagines"
    if r == 0.0:
        return "it loses the game it imagines"
    others = [o[1] for o in options if o[1] is not None]
    if len(others) < 2:
        return "its only choice"
    mean = [sum(o[k] for o in others) / len(others) for k in range(len(f))]
    parts = [(w[k] * (f[k] - mean[k]), FEATURES[k]) for k in range(len(f))]
    size, name = max(parts, key=lambda x: abs(x[0]))
    if abs(size) < 0.005:
        return "about the same as its other options"
    return f"{name}: {size:+.2f} points compared with its other options"


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
    unknown = [k for k in given if k not in LEARNING_MEANINGS]
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
    df = pd.DataFrame({"weight": weights, "meaning": [LEARNING_MEANINGS[f] for f in FEATURES]},
                      index=pd.Index(list(FEATURES), name="feature"))
    return df
