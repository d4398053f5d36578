"""pandas tables and plain HTML of a game, as one player may see it (no hidden cards).

:func:`game_tables` backs :meth:`Game.tables`; :func:`game_html` backs ``Game._repr_html_``.
Both read only what the player's observer gives (:class:`~tokens_edu.game.observe.Observer`:
their observation and their log), so what they show is exactly what that player may know.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pandas as pd

from .observe import Observer

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["game_tables", "game_html", "PLAYERS_COLUMNS", "BOARD_COLUMNS", "HAND_COLUMNS", "LOG_COLUMNS"]

PLAYERS_COLUMNS = ["Player", "Name", "Tokens", "Hand", "Deck", "Discard", "Data ready", "Training Set", "Systems", "Tools"]
BOARD_COLUMNS = ["Owner", "Card", "Type", "CAP", "TRU", "Flags", "Sideways", "Can act", "New", "Can't Task", "Abilities lost"]
HAND_COLUMNS = ["Card", "Type", "Cost", "Trainable", "Color"]
LOG_COLUMNS = ["Turn", "Player", "Kind", "Text"]


def game_tables(game: "Game", player: int, obs=None, log_rows: int | None = None) -> dict[str, pd.DataFrame]:
    """The tables of ``game`` as ``player`` (0/1) sees them.

    ``obs``: ``game.observation(player)`` if the caller has it already (a page built from one
    observation passes it, so none is built twice). ``log_rows``: the log table keeps only
    its newest ``log_rows`` lines (None: all of them; a replay of a 10,000-move game has
    tens of thousands).

    Returns:
        dict with DataFrames:
        ``players`` (one row per player: Player, Name, Tokens, Hand, Deck, Discard counts,
        Data ready, Training Set, Systems, Tools counts),
        ``board`` (one row per System/Tool in play: Owner, Card, Type, CAP (current), TRU,
        Flags, Sideways, Can act, New, Can't Task, Abilities lost; CAP/TRU/Can act empty for Tools),
        ``hand`` (the viewer's own hand: Card, Type, Cost, Trainable, Color),
        ``log`` (Turn, Player, Kind, Text).
    """
    eyes = Observer(player)
    if obs is None or obs.player != player:
        obs = eyes.observation(game)
    players = pd.DataFrame(
        [
            {
                "Player": p,
                "Name": obs.names[p],
                "Tokens": obs.tokens[p],
                "Hand": obs.hand_sizes[p],
                "Deck": obs.deck_sizes[p],
                "Discard": len(obs.discards[p]),
                "Data ready": obs.data_ready[p],
                "Training Set": obs.training_set[p],
                "Systems": sum(1 for b in obs.board if b.owner == p and b.card.is_system),
                "Tools": sum(1 for b in obs.board if b.owner == p and b.card.is_tool),
            }
            for p in (0, 1)
        ],
        columns=PLAYERS_COLUMNS,
    )
    rows = []
    for b in obs.board:
        system = b.card.is_system
        rows.append({
            "Owner": b.owner,
            "Card": b.label,
            "Type": b.card.type,
            "CAP": b.cap if system else pd.NA,
            "TRU": b.tru if system else pd.NA,
            "Flags": b.flags,
            "Sideways": b.sideways,
            "Can act": b.can_act if system else pd.NA,
            "New": b.new,
            "Can't Task": b.no_task,
            "Abilities lost": b.abilities_lost,
        })
    board = pd.DataFrame(rows, columns=BOARD_COLUMNS)
    board = board.astype({"Owner": "int64", "CAP": "Int64", "TRU": "Int64", "Flags": "int64", "Sideways": "bool",
                          "Can act": "boolean", "New": "bool", "Can't Task": "bool", "Abilities lost": "bool"})
    hand = pd.DataFrame(
        [{"Card": c.name, "Type": c.type, "Cost": c.cost, "Trainable": c.trainable, "Color": c.color} for c in obs.hand],
        columns=HAND_COLUMNS,
    ).astype({"Cost": "int64", "Trainable": "bool"})
    log = pd.DataFrame(
        [{"Turn": e.turn, "Player": e.player if e.player is not None else pd.NA, "Kind": e.kind, "Text": e.text}
         for e in (_newest(eyes.log(game), log_rows) if log_rows != 0 else ())],
        columns=LOG_COLUMNS,
    ).astype({"Turn": "int64", "Player": "Int64"})
    return {"players": players, "board": board, "hand": hand, "log": log}


def _newest(events, rows: int | None):
    """The newest ``rows`` of ``events`` (all of them when ``rows`` is None)."""
    if rows is None:
        return events
    return events[len(events) - rows:] if 0 < rows < len(events) else (events if rows > 0 else ())


def _esc(x) -> str:
    return html.escape(str(x))


def game_html(game: "Game") -> str:
    """A plain HTML summary of the board for notebooks: Tokens, whose turn, Systems with
    CAP/TRU/Flags and sideways marks, Tools, and hand/deck counts. No hidden cards."""
    viewer = game.to_act if game.to_act is not None else 0
    obs = Observer(viewer).observation(game)
    if obs.over:
        head = (f"{_esc(obs.names[obs.winner])} wins!" if obs.winner is not None else "The game is a draw.")
    else:
        head = f"Turn {obs.turn}: {_esc(obs.names[obs.active])}'s turn"
        if obs.to_act != obs.active:
            head += f" ({_esc(obs.names[obs.to_act])} to decide)"
    parts = ['<div class="tokens-game-summary" style="font-family:sans-serif">',
             f"<p><b>{head}</b>" + (f" &middot; {_esc(game.title)}" if game.title else "") + "</p>"]
    if game.pending:
        parts.append(f"<p><i>{_esc(game.pending)}</i></p>")
    parts.append('<table style="border-collapse:collapse"><tr>')
    for p in (0, 1):
        rows = []
        for b in obs.board:
            if b.owner != p:
                continue
            turn = " &#8635; sideways" if b.sideways else ""
            if b.card.is_system:
                flags = "&#9873;" * b.flags
                extra = " (new)" if b.new else ""
                rows.append(f"<li><b>{_esc(b.label)}</b> CAP {b.cap} / TRU {b.tru} {flags}{turn}{extra}</li>")
            else:
                rows.append(f"<li>{_esc(b.label)} (Tool){turn}</li>")
        parts.append(
            '<td style="vertical-align:top;padding:4px 16px;border:1px solid #888">'
            f"<b>{_esc(obs.names[p])}</b>: {obs.tokens[p]} / 15 Tokens<br>"
            f"Data {obs.data_ready[p]} ready of {obs.training_set[p]} &middot; hand {obs.hand_sizes[p]} &middot; "
            f"deck {obs.deck_sizes[p]} &middot; discard {len(obs.discards[p])}"
            f"<ul>{''.join(rows) or '<li><i>nothing in play</i></li>'}</ul></td>"
        )
    parts.append("</tr></table></div>")
    return "".join(parts)
