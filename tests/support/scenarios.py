"""Helpers for the rules tests: build a position, read numbers back out of a game.

Tests import this as ``from scenarios import ...`` (each test file puts ``tests/`` on
``sys.path`` first, so ``pytest tests`` works from the repo root without a conftest).

A position is a scenario dict in the format of API.md::

    game = start(
        p0=player(hand=["Bias in Data"], training_set={"ready": 1},
                  systems=[sys_("Neural Network")]),
        p1=player(systems=[sys_("Chatbot", exerted=True)]),
    )

By default it is turn 3, player 0 is active (and went first), in the main phase.
Everything read back goes through the public surface: ``game.tables()``,
``game.legal_actions()``, ``game.to_act`` / ``game.active`` / ``game.tokens``.
"""

from __future__ import annotations

import json
import random
import re

import pandas as pd

from tokens_edu import Game, IllegalAction

__all__ = [
    "player", "sys_", "tool", "scenario", "start", "play",
    "players", "stat", "board", "row", "on_board", "flags", "cap", "sideways", "can_act",
    "hand", "legal", "is_legal", "snapshot", "illegal", "IllegalAction",
]


# -- building positions ---------------------------------------------------------------------
def sys_(card: str, flags: int = 0, exerted: bool = False, new: bool = False) -> dict:
    """A System in play: ``{card, flags, exerted, new}`` (``new``: deployed this turn)."""
    return {"card": card, "flags": flags, "exerted": exerted, "new": new}


def tool(card: str, exerted: bool = False) -> dict:
    """A Tool in play: ``{card, exerted}``."""
    return {"card": card, "exerted": exerted}


def player(name: str | None = None, tokens: int = 0, hand=(), deck=(), discard=(),
           training_set=None, trained_this_turn: bool = False, systems=(), tools=()) -> dict:
    """One player's part of a scenario. ``deck`` is top card first.

    ``training_set`` is ``{"ready": N, "exerted": M}`` (filler cards) or a list of names.
    """
    p = {
        "tokens": tokens,
        "hand": list(hand),
        "deck": list(deck),
        "discard": list(discard),
        "training_set": dict(training_set) if isinstance(training_set, dict)
        else list(training_set or []),
        "trained_this_turn": trained_this_turn,
        "systems": [dict(s) if isinstance(s, dict) else sys_(s) for s in systems],
        "tools": [dict(t) if isinstance(t, dict) else tool(t) for t in tools],
    }
    if name is not None:
        p["name"] = name
    return p


def scenario(p0: dict | None = None, p1: dict | None = None, active: int = 0, turn: int = 3,
             seed: int = 1, title: str = "rules test", **kw) -> dict:
    """A minimal valid scenario dict: turn 3, player 0 active, both players empty by default."""
    p0 = dict(p0 or player())
    p1 = dict(p1 or player())
    p0.setdefault("name", "Ada")
    p1.setdefault("name", "Bo")
    d = {"title": title, "seed": seed, "active": active, "turn": turn, "players": [p0, p1]}
    d.update(kw)
    return d


def start(p0: dict | None = None, p1: dict | None = None, **kw) -> Game:
    """``Game.from_scenario(scenario(p0, p1, **kw))``."""
    return Game.from_scenario(scenario(p0, p1, **kw))


def play(game: Game, *texts: str) -> Game:
    """Apply action texts in order; returns the game (for chaining)."""
    for t in texts:
        game.apply(t)
    return game


# -- reading numbers back -------------------------------------------------------------------
def players(game: Game) -> pd.DataFrame:
    """The ``players`` table indexed by ``Player`` (0/1)."""
    return game.tables()["players"].set_index("Player")


def stat(game: Game, p: int, column: str) -> int:
    """One number of the ``players`` table, e.g. ``stat(g, 1, "Discard")``."""
    return int(players(game).loc[p, column])


def board(game: Game) -> pd.DataFrame:
    """The ``board`` table: one row per System and Tool in play."""
    return game.tables()["board"]


def _fold(s: str) -> str:
    return " ".join(str(s).split()).casefold()


def _card_name(label: str) -> str:
    """The card's name from a board label: ``"Chatbot #2"`` -> ``"chatbot"`` (folded)."""
    return re.sub(r"\s*#\d+$", "", _fold(label))


def on_board(game: Game, card: str, owner: int | None = None) -> pd.DataFrame:
    """Board rows of ``card`` (any case; a ``#2`` label counts as the card), optionally only
    those of ``owner``."""
    b = board(game)
    rows = b[b["Card"].map(_card_name) == _card_name(card)]
    if owner is not None:
        rows = rows[rows["Owner"] == owner]
    return rows


def row(game: Game, card: str, owner: int):
    """The single board row of ``owner``'s ``card`` (fails if it is not exactly one)."""
    rows = on_board(game, card, owner)
    assert len(rows) == 1, f"expected one {card} of player {owner} in play, found {len(rows)}"
    return rows.iloc[0]


def flags(game: Game, card: str, owner: int) -> int:
    return int(row(game, card, owner)["Flags"])


def cap(game: Game, card: str, owner: int) -> int:
    return int(row(game, card, owner)["CAP"])


def sideways(game: Game, card: str, owner: int) -> bool:
    return bool(row(game, card, owner)["Sideways"])


def can_act(game: Game, card: str, owner: int) -> bool:
    return bool(row(game, card, owner)["Can act"])


def hand(game: Game, p: int) -> list[str]:
    """Player ``p``'s hand as card names, as ``p`` sees it."""
    return [str(c) for c in game.tables(p)["hand"]["Card"]]


def legal(game: Game) -> set[str]:
    """The legal action texts, folded (case and spaces) so tests compare plain words."""
    return {_fold(str(a)) for a in game.legal_actions()}


def is_legal(game: Game, text: str) -> bool:
    return _fold(text) in legal(game)


def snapshot(game: Game) -> tuple:
    """Everything a test can see of a game, to compare before and after an illegal attempt."""
    tables = {k: df.to_json(orient="split") for k, df in game.tables().items()}
    tables0 = {k: df.to_json(orient="split") for k, df in game.tables(0).items()}
    tables1 = {k: df.to_json(orient="split") for k, df in game.tables(1).items()}
    return (
        json.dumps(game.to_record(), sort_keys=True, default=str),
        tables, tables0, tables1,
        sorted(str(a) for a in game.legal_actions()),
        game.to_act, game.active, game.turn, game.over, game.winner, tuple(game.tokens),
        game.pending, len(game.log),
    )


def illegal(game: Game, action) -> IllegalAction:
    """Apply ``action``, expect ``IllegalAction``, check the game is unchanged; return the error."""
    before = snapshot(game)
    try:
        game.apply(action)
    except IllegalAction as err:
        after = snapshot(game)
        assert after == before, f"the illegal {action!r} changed the game"
        return err
    raise AssertionError(f"{action!r} was accepted but should be illegal")


def shuffle_hidden(game: Game, p: int, rng: random.Random) -> Game:
    """A copy where what player p may not see is different: the opponent's hand swapped with
    cards of their deck, and both decks in another order (same counts everywhere)."""
    g = game.copy()
    s = g._s
    q = 1 - p
    pool = s.hand[q] + s.deck[q]
    rng.shuffle(pool)
    s.hand[q][:] = pool[:len(s.hand[q])]
    s.deck[q][:] = pool[len(s.hand[q]):]
    rng.shuffle(s.deck[p])
    g._forget()
    return g
