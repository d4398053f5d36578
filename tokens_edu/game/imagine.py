"""Imagined games for computer players that think ahead (SearchBot, the Hint).

:func:`imagined_state` copies a position and deals again everything one player may not see, so a
bot that plays imagined games forward never uses where the true hidden cards lie (R22, R23).
:meth:`Game.imagine <tokens_edu.game.game.Game.imagine>` wraps it in a :class:`Game`.
"""

from __future__ import annotations

from ..engine.state import State

__all__ = ["imagined_state"]


def imagined_state(state: State, player: int, rng) -> State:
    """A copy of ``state`` (no undo trail) in which what ``player`` (0/1) may not see is dealt
    again from the same cards: the opponent's hand, deck and face-down Training Set (same sizes,
    same ready/sideways Training Set), and ``player``'s own deck shuffled, except the cards of a
    look in progress, which stay on top in order (R22); future shuffles get a new seed.

    Each pile is put in order by name before it is shuffled, so the result depends only on
    ``rng`` (a ``random.Random``) and what ``player`` sees, never on where the true hidden cards
    lie.
    """
    s = state.copy(trail=False)
    q = 1 - player
    # Each pile is sorted by name before it is shuffled, so where the true hidden cards lie
    # can't change what is imagined (a search bot's choice must not depend on it).
    card = s.card
    by_name = lambda x: (card[x].name, x)  # noqa: E731
    hidden = sorted(s.hand[q] + s.deck[q] + s.ts[q], key=by_name)
    rng.shuffle(hidden)
    nh, nd = len(s.hand[q]), len(s.deck[q])
    s.hand[q][:] = hidden[:nh]
    s.deck[q][:] = hidden[nh:nh + nd]
    s.ts[q][:] = hidden[nh + nd:]
    deck = s.deck[player]
    seen = _seen_on_top(s, player)  # a look in progress (R22): the player knows those cards
    rest = sorted(deck[:len(deck) - seen], key=by_name)
    rng.shuffle(rest)
    deck[:len(deck) - seen] = rest
    s.seed = rng.getrandbits(62)
    return s


def _seen_on_top(s, player: int) -> int:
    """How many cards on top of ``player``'s deck their own decision in progress shows them
    (a look, R22: pick one, top or bottom, the order of two); 0 when there is none."""
    d = s.decision
    if d is None or d.player != player or d.labels not in ("pick", "top-bottom", "order"):
        return 0
    shown = set(d.data)
    for option in d.options:
        if isinstance(option, tuple):
            shown.update(option)
    deck = s.deck[player]
    k = 0
    while k < len(deck) and deck[-1 - k] in shown:
        k += 1
    return k
