"""Features: a position measured as a few numbers, from one player's side, for computer players.

A **feature** is one number a computer player measures about the game, like "my Tokens" or
"their Task power". :class:`~tokens_edu.bots.LearningBot` weighs them to pick a move (its
knowledge is one weight per feature), and :class:`~tokens_edu.bots.SearchBot` turns them into
a chance of winning where its imagined games stop.

Every feature reads only what that player may see (:class:`~tokens_edu.game.PlayerView`: the
board, both Token counts, hand and Training Set sizes); none reads the opponent's hand or
either deck's order. :data:`FEATURES` names them, in order, with a meaning in a student's words.
"""

from __future__ import annotations

import math

from ..engine.rules import WINNING_TOKENS

__all__ = ["FEATURES", "MEANINGS", "features", "win_chance", "EVAL_WEIGHTS"]

#: (name, meaning) of each feature, in the order :func:`features` returns them.
FEATURES_AND_MEANINGS = (
    ("my Tokens", "My Tokens, out of 15."),
    ("their Tokens", "The other player's Tokens, out of 15."),
    ("my Task power", "Tokens my Systems can earn in one turn, if each Runs a Task."),
    ("their Task power", "Tokens their Systems can earn in one turn."),
    ("my Systems", "How many Systems I have."),
    ("their Systems", "How many Systems they have."),
    ("my Data", "Cards in my Training Set: Data to pay for cards."),
    ("their Data", "Cards in their Training Set."),
    ("my hand", "Cards in my hand: choices for later."),
    ("their hand", "Cards in their hand."),
    ("my Flags", "How close my Systems are to being Deprecated (Flags out of Trust)."),
    ("their Flags", "How close their Systems are to being Deprecated."),
    ("my sideways Systems", "My sideways Systems: they can be Audited."),
    ("their sideways Systems", "Their sideways Systems: I could Audit them."),
    ("I can win soon", "My Tokens plus my Task power reach 15."),
    ("they can win soon", "Their Tokens plus their Task power reach 15."),
    ("my turn", "It is my turn now."),
    ("always 1", "Always 1: a starting guess before anything is measured."),
)
FEATURES = tuple(name for name, _ in FEATURES_AND_MEANINGS)
MEANINGS = dict(FEATURES_AND_MEANINGS)


def features(view) -> list[float]:
    """The features of a position as ``view.player`` sees it, in the order of :data:`FEATURES`.

    Args:
        view: a :class:`~tokens_edu.game.PlayerView` (``game.view(player)``).

    Returns:
        list of floats, most of them between 0 and 1 (Tokens and powers are out of 15, counts
        out of 5 or 10), so that weights of the same size matter about as much.
    """
    p = view.player
    q = 1 - p
    card = view.card
    out = []
    power = [0, 0]
    systems = [None, None]
    for o in (p, q):
        mine = view.systems(o)
        systems[o] = mine
        power[o] = sum(card(x).tokens for x in mine)
    tp, tq = view.tokens(p), view.tokens(q)
    out.append(tp / WINNING_TOKENS)
    out.append(tq / WINNING_TOKENS)
    out.append(power[p] / WINNING_TOKENS)
    out.append(power[q] / WINNING_TOKENS)
    out.append(len(systems[p]) / 5)
    out.append(len(systems[q]) / 5)
    out.append(view.training_set_size(p) / 10)
    out.append(view.training_set_size(q) / 10)
    out.append(view.hand_size(p) / 10)
    out.append(view.hand_size(q) / 10)
    for o in (p, q):
        out.append(sum(view.flags(x) / card(x).tru for x in systems[o]) / 3)
    for o in (p, q):
        out.append(sum(1 for x in systems[o] if view.sideways(x)) / 5)
    out.append(1.0 if tp + power[p] >= WINNING_TOKENS else 0.0)
    out.append(1.0 if tq + power[q] >= WINNING_TOKENS else 0.0)
    out.append(1.0 if view.active == p else 0.0)
    out.append(1.0)
    return out


#: The weights :func:`win_chance` gives each feature (same order as :data:`FEATURES`): a
#: logistic regression of who won on the features, fitted on positions at the start of turns
#: of GreedyBot-against-GreedyBot games over the starter decks. SearchBot uses them to judge
#: an imagined game it stops before the end.
EVAL_WEIGHTS = (4.67, -4.67, 6.8, -6.8, 2.56, -2.56, 2.54, -2.54, 1.8, -1.8, 0.44, -0.44,
                -3.42, 3.42, 1.59, -1.59, 0.65, -0.33)


def win_chance(view, weights=EVAL_WEIGHTS) -> float:
    """The chance (0 to 1) that ``view.player`` wins from here, by the weights of the features
    (logistic: ``1 / (1 + exp(-sum(weight * feature)))``).

    Args:
        view: a :class:`~tokens_edu.game.PlayerView`. weights: one number per feature.
    """
    z = sum(w * f for w, f in zip(weights, features(view)))
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))
