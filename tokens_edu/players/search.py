"""SearchBot: a computer player that imagines games before it moves.

Tokens hides cards: nobody sees the other player's hand or the order of a deck. So the search
bot does what a person does. For each move it could make, it **imagines** the hidden cards
(``game.imagine(player, rng)``: the opponent's hand, their face-down Training Set and both
decks dealt again at random, from the cards it cannot see), makes the move, and plays the game
forward in its head with quick rule-of-thumb players (:class:`~tokens_edu.players.GreedyBot`) for
both sides, for a few turns (:data:`HORIZON`). Where an imagined game stops before its end, it
guesses the chance of winning from what the board looks like
(:func:`tokens_edu.players.features.win_chance`). The move whose imagined games went best is its move.
This is *determinized rollouts* (perfect-information Monte Carlo), the simplest kind of Monte
Carlo search for games with hidden cards.

Most imagined games are stopped after :data:`HORIZON` turns, before anyone has 15 Tokens. So
a move's **win chance** is the average of its imagined games' results, where a game someone
won counts 1 (a win) or 0 (a loss), a draw 0.5, and a game still going counts the chance of
winning guessed from its board. ``Thinking.finished`` counts the imagined games that really
ended.

It thinks harder about the moves that look good: every move gets the same imagined worlds at
first, then the worse half is dropped, again and again (*sequential halving*, Karnin et al.
2013). A dropped move keeps the win chance of its few games, which can be higher than the
chosen move's over many more games; but on the very same imagined games the chosen move did
at least as well (that is why the other was dropped). Moves whose imagined games come out
exactly the same (training one card or another it never plays in those turns, two copies of
a card, or two moves in another order) are **twins**: it thinks about them as one move, and
among twins, or moves with equal results, it picks the one its quick rules (GreedyBot's
list) put first. :meth:`SearchBot.explain` shows all this, and says in one sentence why it
picked a move when the bars alone don't show it (:mod:`tokens_edu.players.thinking`).

It never reads the true hidden cards: it sees the game only through ``game.view(player)``,
``game.legal_moves()`` and ``game.imagine(player, rng)``, and an imagined game depends only on
the random generator and what the player sees (``Game.imagine`` puts each hidden pile in order
by name before dealing it). So for a seed and an iteration budget its choice is the same
however the hidden cards lie.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from dataclasses import dataclass, field

from ..errors import IllegalAction
from . import thinking
from .bots import Bot, GreedyBot
from .features import EVAL_WEIGHTS, features

__all__ = ["SearchBot", "Thinking", "HORIZON", "position_key"]

#: How many turns an imagined game is played forward (counting the turn in progress), before
#: its chance of winning is guessed from the board. Measured against GreedyBot with 200
#: imagined games a decision: 4 turns won 38 of 40 seat-swapped games (95%).
#: ``benchmarks/bots.py`` prints the figures for the default budget.
HORIZON = 4

_ROLLOUT = GreedyBot()  # the quick player of both sides in imagined games (deterministic)


@dataclass
class Thinking:
    """What a :class:`SearchBot` worked out for one decision (its last one: ``bot.last``).

    Attributes:
        player: who was deciding (0/1). key: :func:`position_key` of the position.
        moves: the legal moves (ints, the game's order). games: imagined games played after
            each move. value: the summed results of those games (1 a win, 0 a loss, 0.5 a
            draw, between: the chance of winning guessed where an imagined game stopped).
        chosen: the move picked.
        results: per move, the result of each of its imagined games, in the order of the
            imagined deals (every move that played ``k`` games played the first ``k`` deals).
        finished: per move, how many of its imagined games ended (a winner or a draw) before
            the :data:`HORIZON`; the others' results are guesses from the board.
        twin_of: per move, the index of the move it was found to be a twin of (the same
            results on every deal both played, at least one a guess from the same board), or -1.
        rank: per move, its place in the quick rules' order (0 first: GreedyBot's pick), which
            breaks ties.
        final: the indices of the moves compared last (the pick is the best of them); every
            other move tried was dropped at a cut, when it and the pick had played the same deals.
        worlds: imagined deals used. iterations: imagined games in all. seconds: time spent.
        greedy: GreedyBot's pick.
    """

    player: int
    key: tuple
    moves: list
    games: list
    value: list
    chosen: int
    worlds: int = 0
    iterations: int = 0
    seconds: float = 0.0
    greedy: int = -1
    results: list = field(default_factory=list)
    finished: list = field(default_factory=list)
    twin_of: list = field(default_factory=list)
    rank: list = field(default_factory=list)
    final: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def win_chance(self, i: int) -> float:
        """The estimated chance of winning after move number ``i``: the mean result of its
        imagined games (NaN if it was never tried)."""
        return self.value[i] / self.games[i] if self.games[i] else float("nan")

    def mean_of_first(self, i: int, k: int) -> float:
        """The mean result of move number ``i`` over the first ``k`` imagined deals (the deals
        another move that played ``k`` games played too), NaN if ``k`` is 0."""
        k = min(k, len(self.results[i]))
        return sum(self.results[i][:k]) / k if k else float("nan")

    def twins(self, i: int) -> list[int]:
        """Indices of the moves found to be twins of move ``i`` (see :attr:`twin_of`)."""
        return [j for j, rep in enumerate(self.twin_of) if rep == i]


def position_key(game, player: int) -> tuple:
    """A summary of everything ``player`` may see of ``game`` (no hidden card), equal for
    equal positions: it names a decision, so a search can be reused and seeded by it."""
    view = game.view(player)
    s_tokens = (view.tokens(0), view.tokens(1))
    board = []
    for o in (0, 1):
        board.append(tuple((x, view.flags(x), view.sideways(x), view.cap(x), view.can_act(x), view.task_barred(x))
                           for x in view.systems(o)))
        board.append(tuple((x, view.sideways(x)) for x in view.tools(o)))
    counts = tuple((view.hand_size(o), view.deck_size(o), view.training_set_size(o), view.data_ready(o))
                   for o in (0, 1))
    decision = view.decision()
    return (game.turn, game.active, game.to_act, game.phase, s_tokens, tuple(view.hand()), tuple(board), counts,
            tuple(view.discard(0)), tuple(view.discard(1)), decision, tuple(game.legal_moves()))


def _seed_of(seed: int, key: tuple) -> int:
    digest = hashlib.blake2b(repr((seed, key)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class SearchBot(Bot):
    """A computer player that imagines how the game could go before each move (Monte Carlo
    search over imagined hidden cards; see the module's docs).

    Args:
        budget_ms: thinking time per decision, in milliseconds (1 to 60,000), used when
            ``iterations`` is None. About 100 to 500 imagined games fit in the default (fewer
            on a busy computer); a decision may overrun by one imagined game.
        iterations: imagined games per decision (1 to 1,000,000) instead of a time budget:
            then the bot is repeatable (the same choice for the same position and seed, on any
            computer).
        seed: int for repeatable thinking; None picks one at random (kept in ``bot.seed``).
        horizon: turns an imagined game is played forward before the board is judged
            (:data:`HORIZON`; 1 to 100).

    Attributes:
        last: the :class:`Thinking` of its latest decision (None before the first), which
            :meth:`explain` reuses when asked about the same position.

    Raises:
        ValueError: a budget, iteration count, seed or horizon that is not a whole number in
            range (plain words).

    It sees the game only as its player may (``game.view``, ``game.legal_moves``,
    ``game.imagine``): never the opponent's hand or either deck's order.
    """

    name = "Search"

    def __init__(self, budget_ms: int = 300, iterations: int | None = None, seed: int | None = None,
                 horizon: int = HORIZON):
        self.budget_ms = _whole("budget_ms", budget_ms, 1, 60_000)
        self.iterations = None if iterations is None else _whole("iterations", iterations, 1, 1_000_000)
        self._random_seed = seed is None  # a tournament reseeds such a bot from its own seed
        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        self.seed = _whole("seed", seed, -(2 ** 63), 2 ** 63)
        self.horizon = _whole("horizon", horizon, 1, 100)
        self.last: Thinking | None = None

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations is not None else f"budget_ms={self.budget_ms}"
        return f"SearchBot({budget}, seed={self.seed})"

    _explains_for_reader = True  # its rows come masked and merged for the reader (thinking.explain)

    def _explain_rows(self, game, reader: int):
        return thinking._search_rows(self, game, reader)

    # -- deciding ----------------------------------------------------------------------------
    def choose_move(self, game) -> int:
        """The move whose imagined games went best (one of ``game.legal_moves()``).

        Raises:
            IllegalAction: the game is over (R25).
        """
        return self.think(game).chosen

    def think(self, game) -> Thinking:
        """Search the decision of the player to act and return what it found (also kept in
        :attr:`last`). A position it has just searched is not searched again.

        Raises:
            IllegalAction: the game is over (R25).
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        player = game.to_act
        key = position_key(game, player)
        config = (self.seed, self.iterations, self.budget_ms, self.horizon)
        if self.last is not None and self.last.key == key and self.last.extra.get("config") == config:
            return self.last
        moves = list(game.legal_moves())
        greedy = _ROLLOUT.choose_move(game)
        n = len(moves)
        thinking = Thinking(player, key, moves, [0] * n, [0.0] * n, greedy, greedy=greedy,
                            results=[[] for _ in moves], finished=[0] * n, twin_of=[-1] * n,
                            rank=_rule_ranks(game, moves, greedy), extra={"seed": self.seed, "config": config})
        if len(moves) > 1:
            self._search(game, thinking)
        self.last = thinking
        return thinking

    def _search(self, game, t: Thinking) -> None:
        """Sequential halving over the moves: in each of ``ceil(log2(moves))`` rounds, the moves
        still in the running are played on the same newly imagined worlds (so they are compared
        on the same deals); then twins (the same result on every deal so far) are folded into
        the one the quick rules put first, and the worse half of the rest is dropped (ties: the
        quick rules' order). With an iteration budget each round gets its share of the imagined
        games; with a time budget, its share of the time. When one move is left, it stops."""
        start = time.perf_counter()
        rng = random.Random(_seed_of(self.seed, t.key))
        player, moves = t.player, t.moves
        n = len(moves)
        rank = t.rank
        order = sorted(range(n), key=lambda i: rank[i])  # the quick rules' order: ties go its way
        alive = order
        rounds = max(1, math.ceil(math.log2(n)))
        budget = self.iterations
        seconds = self.budget_ms / 1000
        stop_turn = game.turn + self.horizon
        deadline = start + seconds
        used = worlds = 0
        final = alive
        stopped = False

        def mean(i: int) -> float:  # a move never tried (out of time) ranks last
            return t.value[i] / t.games[i] if t.games[i] else -1.0

        for r in range(rounds):
            if len(alive) == 1:
                break  # the halving has left one move
            if budget is not None and used >= budget:
                break  # a budget smaller than the moves: the last round's leaders decide
            if budget is not None:
                per_move = max(1, (budget - used) // (len(alive) * (rounds - r)))
            end = start + seconds * (r + 1) / rounds
            k = 0
            while not stopped:
                if budget is not None:
                    if k >= per_move or used + len(alive) > budget and k > 0:
                        break
                elif k > 0 and time.perf_counter() >= end:
                    break
                world = game.imagine(player, random.Random(rng.getrandbits(64)))
                worlds += 1
                for i in alive:
                    if budget is None and used and time.perf_counter() >= deadline:
                        stopped = True  # out of time: the moves not played on this deal keep what they had
                        break
                    out = _rollout(world, moves[i], player, stop_turn, deadline if budget is None and used else None)
                    if out is None:  # out of time in the middle of an imagined game: not counted
                        stopped = True
                        break
                    value, ended = out
                    t.value[i] += value
                    t.games[i] += 1
                    t.results[i].append(value)
                    t.finished[i] += ended
                    used += 1
                k += 1
            if stopped:
                final = alive
                break
            alive = _fold_twins(t, alive)
            final = alive
            if len(alive) == 1:
                break  # every move left came out the same: nothing more to compare
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda i: (-mean(i), rank[i]))
                keep = set(ranked[:max(1, math.ceil(len(alive) / 2))])
                alive = [i for i in order if i in keep]
        best = max(final, key=lambda i: (mean(i), -rank[i]))
        t.chosen = moves[best]
        t.final = sorted(final)
        t.worlds, t.iterations = worlds, used
        t.seconds = time.perf_counter() - start


def _fold_twins(t: Thinking, alive: list[int]) -> list[int]:
    """``alive`` without the twins: a move whose results are the same as those of a move
    before it in ``alive`` (the quick rules' order) on every deal both played, one of them at
    least a guess from the board, is folded into it (``t.twin_of``; its own twins follow it)."""
    first: dict[tuple, int] = {}
    out = []
    for i in alive:
        key = tuple(t.results[i])
        # a guess from the board (a value other than a win, a loss or a draw) is the same only
        # when the boards are: results that are all wins or losses are equally good, not the
        # same games (another deal might tell them apart), so those moves stay apart
        if not key or all(v in (0.0, 0.5, 1.0) for v in key):
            out.append(i)
            continue
        rep = first.get(key)
        if rep is None:
            first[key] = i
            out.append(i)
            continue
        t.twin_of[i] = rep
        for j, of in enumerate(t.twin_of):
            if of == i:
                t.twin_of[j] = rep
    return out


def _rule_ranks(game, moves: list[int], greedy: int) -> list[int]:
    """Each move's place in the quick rules' order: GreedyBot's pick first, then by its score
    (higher first; a question's answers and "end turn" score alike), then the game's order."""
    view = game.view(game.to_act)
    scores = [_ROLLOUT.score(view, m) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: (moves[i] != greedy, -scores[i], i))
    rank = [0] * len(moves)
    for place, i in enumerate(order):
        rank[i] = place
    return rank


def _rollout(world, move: int, player: int, stop_turn: int, deadline: float | None = None) -> tuple | None:
    """Play ``move`` in ``world``, then both sides' quick moves until ``stop_turn`` or the end;
    ``(result, ended)``: the result for ``player`` (1 win, 0 loss, 0.5 draw, else the guessed
    chance) and whether the imagined game ended; then take every move back, leaving ``world``
    as it was. None when ``deadline`` (a ``time.perf_counter()`` value) passes before the
    imagined game stops."""
    world.push(move)
    k = 1
    choose = _ROLLOUT.choose_move
    clock = time.perf_counter
    while not world.over and world.turn < stop_turn:
        if deadline is not None and clock() >= deadline:
            for _ in range(k):
                world.pop()
            return None
        world._push(choose(world), None)  # (GreedyBot's pick is legal: no check, no second list)
        k += 1
    ended = world.over
    if ended:
        w = world.winner
        value = 0.5 if w is None else (1.0 if w == player else 0.0)
    else:
        z = 0.0
        for w_, f in zip(EVAL_WEIGHTS, features(world.view(player))):
            z += w_ * f
        value = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    for _ in range(k):
        world.pop()
    return value, ended


def _whole(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r:.40}.")
    return value
