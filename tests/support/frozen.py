"""Frozen games: a canonical digest of a whole position, for the recorded-games fixtures.

The digest covers everything that decides what can happen next, hidden cards included: both
hands, both decks in order, Training Sets with their ready/sideways state, discard piles, the
board as :class:`~tokens_edu.BoardCard` rows, Tokens, whose turn and decision, the pending
prompt, the legal actions' texts, and the log's events (turn, player, kind; not the wording of
its sentences, which may be reworded for students without changing a rule).

It reads the hidden zones through :func:`hidden_zones`, the one place that knows the engine's
internals, so the digest itself stays the same when the inside of the engine changes.
"""

from __future__ import annotations

import hashlib

from tokens_edu import Game


def hidden_zones(game: Game) -> tuple:
    """Per player: deck names top first, Training Set as (name, sideways) oldest first, Actions
    being resolved, cards trained this turn; and the extra Trains allowed this turn."""
    s = game._s
    name = game.card_of
    out = []
    for p in (0, 1):
        out.append((
            tuple(name(i).name for i in reversed(s.deck[p])),
            tuple((name(i).name, ex) for i, ex in zip(s.ts[p], s.ts_ex[p])),
            tuple(name(i).name for i in s.resolving[p]),
            s.trained[p] if s.trained_turn[p] == s.turn else 0,
        ))
    extra = s.extra_trains if s.extra_trains_turn == s.turn else 0
    return tuple(out), extra


def position(game: Game) -> tuple:
    """The whole position as a tuple of plain values (names, numbers, texts)."""
    views = []
    for p in (0, 1):
        o = game.observation(p)
        views.append((
            tuple(c.name for c in o.hand),
            tuple(tuple(c.name for c in pile) for pile in o.discards),
            o.hand_sizes, o.deck_sizes, o.data_ready, o.training_set, o.systems_count,
            tuple((b.owner, b.label, b.card.name, b.cap, b.tru, b.flags, b.sideways, b.can_act, b.new,
                   b.no_task, b.no_audit, b.abilities_lost) for b in o.board),
            o.model_card_used, o.pending,
        ))
    return (
        game.turn, game.active, game.to_act, game.phase, game.over, game.winner, game.tokens,
        game.first_player if game.phase != "order" else None, game.pending,
        tuple(str(a) for a in game.legal_actions()),
        tuple(views), hidden_zones(game),
        tuple((e.turn, e.player, e.kind) for e in game.log),
    )


def digest(game: Game) -> str:
    """A short hex digest of :func:`position` (16 hex digits)."""
    return hashlib.blake2b(repr(position(game)).encode(), digest_size=8).hexdigest()
