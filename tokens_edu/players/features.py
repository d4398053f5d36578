"""Features: a position measured as a few numbers, from one player's side, for computer players.

A **feature** is one number a computer player measures about the game, like "my Tokens" or
"their Task power".

- :data:`FEATURES` (18, "my ..." and "their ..." apart) and :func:`features`:
  :class:`~tokens_edu.players.search.SearchBot` turns them into a guessed chance of winning
  where its imagined games stop (:func:`win_chance`, :data:`EVAL_WEIGHTS`).
- :data:`LEARNING_FEATURES` (8, each "mine minus theirs") and :func:`learning_features`:
  :class:`~tokens_edu.players.learning.LearningBot` weighs them; its knowledge is one weight
  per feature, a table short enough for a student to read.

Every feature reads only what that player may see (:class:`~tokens_edu.game.PlayerView`: the
board, both Token counts, hand and Training Set sizes); none reads the opponent's hand or
either deck's order. Each name comes with a meaning in a student's words.
"""

from __future__ import annotations

import math

from ..engine.rules import WINNING_TOKENS

__all__ = ["FEATURES", "MEANINGS", "features", "win_chance", "EVAL_WEIGHTS",
           "LEARNING_FEATURES", "LEARNING_MEANINGS", "learning_features"]

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


#: (name, meaning) of each of LearningBot's features, in the order :func:`learning_features`
#: returns them. Each is "mine minus theirs": above 0 when the player has more of it.
LEARNING_FEATURES_AND_MEANINGS = (
    ("more Tokens", "My Tokens minus the other player's (out of 15). Above 0: I am ahead."),
    ("more Task power", "Tokens my Systems can earn in one turn, minus what theirs can earn (out of 15)."),
    ("more Systems", "How many Systems I have, minus how many they have (out of 5)."),
    ("more Data", "Cards in my Training Set (Data to pay for cards), minus theirs (out of 10)."),
    ("more cards in hand", "Cards in my hand, minus cards in theirs (out of 10)."),
    ("more Flags", "How close my Systems are to being Deprecated, minus how close theirs are."),
    ("more sideways Systems", "My sideways Systems (they can be Audited), minus theirs (out of 5)."),
    ("closer to winning", "1 when my Tokens plus my Task power reach 15 and theirs don't; -1 the other "
                          "way round; else 0."),
)
LEARNING_FEATURES = tuple(name for name, _ in LEARNING_FEATURES_AND_MEANINGS)
LEARNING_MEANINGS = dict(LEARNING_FEATURES_AND_MEANINGS)


def learning_features(view) -> list[float]:
    """LearningBot's features of a position as ``view.player`` sees it, in the order of
    :data:`LEARNING_FEATURES`: each is "mine minus theirs" (``features`` paired up).

    Args:
        view: a :class:`~tokens_edu.game.PlayerView` (``game.view(player)``).

    Returns:
        list of 8 floats, most between -1 and 1 (Tokens and powers out of 15, counts out of 5
        or 10, Flags as a share of Trust), so that weights of the same size matter about as much.
    """
    p = view.player
    q = 1 - p
    card = view.card
    mine, theirs = view.systems(p), view.systems(q)
    power_p = sum(card(x).tokens for x in mine)
    power_q = sum(card(x).tokens for x in theirs)
    tp, tq = view.tokens(p), view.tokens(q)
    flags = view.flags
    sideways = view.sideways
    return [
        (tp - tq) / WINNING_TOKENS,
        (power_p - power_q) / WINNING_TOKENS,
        (len(mine) - len(theirs)) / 5,
        (view.training_set_size(p) - view.training_set_size(q)) / 10,
        (view.hand_size(p) - view.hand_size(q)) / 10,
        (sum(flags(x) / card(x).tru for x in mine) - sum(flags(x) / card(x).tru for x in theirs)) / 3,
        (sum(1 for x in mine if sideways(x)) - sum(1 for x in theirs if sideways(x))) / 5,
        float(tp + power_p >= WINNING_TOKENS) - float(tq + power_q >= WINNING_TOKENS),
    ]
