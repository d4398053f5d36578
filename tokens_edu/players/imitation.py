"""Learning from examples: the moves a person chose, as data a LearningBot can copy.

A LearningBot copies a person by fitting its weights so that the moves the person chose get
the most points (:meth:`~tokens_edu.players.LearningBot.learn_from_examples`, a *choice
model*). This module turns a played game into those examples (:func:`examples_from_game`) and
measures how many of them a set of weights would pick too. Each example keeps the position
from the person's own side: the bot imagines the cards that person could not see, as in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Example", "examples_from_game"]

_TIE = 1e-9  # two points closer than this are equal (as in LearningBot's choice)


@dataclass(frozen=True)
class Example:
    """One move a person chose: the position before it and the move.

    Attributes:
        game: a :class:`~tokens_edu.game.Game` at the position (the person to act).
        move: the move they chose, one of ``game.legal_moves()`` (an int).
        text: the move as text (``"task Chatbot"``), for tables.
    """

    game: object
    move: int
    text: str = ""


def examples_from_game(game, player: int = 0) -> list[Example]:
    """The moves ``player`` chose in ``game`` (played so far), as examples to learn from.

    Only decisions with two moves or more count (a forced move teaches nothing). The game is
    not changed.

    Args:
        game: a :class:`~tokens_edu.game.Game` with its moves (one played on screen, or
            ``Game.from_record(record)`` of a saved game).
        player: whose moves (0 or 1).

    Returns:
        list of :class:`Example`, in the order they were played (empty if the player made
        no real choice yet).

    Raises:
        ValueError: ``player`` is not 0 or 1.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player is 0 or 1, not {player!r:.40}.")
    texts = game.history
    g = game.copy()
    moves = [g.pop() for _ in texts][::-1]  # back to the start, remembering each move
    out = []
    for move, text in zip(moves, texts):
        if g.to_act == player and len(g.legal_moves()) > 1:
            out.append(Example(g.copy(), move, text))
        g.push(move)
    return out


def _example_data(bot, examples: list, seed: int) -> list:
    """Each example (with two moves or more) as ``(options, i)``: what the bot imagines after
    each move (one deal from ``seed``; see :meth:`LearningBot._imagine`) and the index of the
    person's move."""
    rng = random.Random(f"tokens-edu-examples/{seed}")
    out = []
    for k, ex in enumerate(examples):
        game, move = (ex.game, ex.move) if isinstance(ex, Example) else ex
        moves = game.legal_moves()
        if isinstance(move, str):
            i = game._lookup(move)
            if i < 0:
                raise ValueError(f"Example {k + 1}: '{move[:40]}' is not a legal move there.")
        elif move in moves:
            i = moves.index(move)
        else:
            raise ValueError(f"Example {k + 1}: its move is not one of the legal moves there.")
        if len(moves) > 1:
            out.append((bot._imagine(game, game.to_act, rng, moves), i))
    return out


def _to_fit(data: list) -> list:
    """The examples the weights decide, as ``(features of each option still open, index of
    the person's move among them)``: not those where an imagined game ends with a win (the
    bot takes it whatever its weights) or where the person's move loses its imagined game."""
    out = []
    for options, i in data:
        if any(r == 1.0 for r, _ in options) or options[i][0] is not None:
            continue
        alive = [j for j, (r, _) in enumerate(options) if r is None]
        if len(alive) > 1:
            out.append(([options[j][1] for j in alive], alive.index(i)))
    return out


def _agreement(w: list[float], data: list) -> float:
    """The share of the examples where the weights ``w`` pick the person's move, or a move it
    can't tell from it (the same imagined result, or a board with the same features); a tie
    counts as the chance of picking such a move, as :meth:`LearningBot.choose_move` picks."""
    if not data:
        return float("nan")
    total = 0.0
    for options, i in data:
        same = options[i]
        wins = [j for j, (r, _) in enumerate(options) if r == 1.0]
        if wins:
            total += options[wins[0]] == same
            continue
        alive = [j for j, (r, _) in enumerate(options) if r is None]
        if not alive:
            total += sum(o == same for o in options) / len(options)
            continue
        zs = {j: sum(a * b for a, b in zip(w, options[j][1])) for j in alive}
        top = max(zs.values())
        best = [j for j in alive if zs[j] >= top - _TIE]
        total += sum(options[j] == same for j in best) / len(best)
    return total / len(data)
