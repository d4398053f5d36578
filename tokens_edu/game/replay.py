"""Replay: step through a finished or saved game, forward and back, without widgets.

:class:`Replay` is what :class:`tokens_edu.widgets.ReplayView` and the teacher dashboard's
replay page both drive: a game rebuilt from its record, moved to any step with the engine's
own ``apply`` (forward) and ``undo`` (back), so every step is exactly the position the record
reached there (``Game.from_record`` of the first *n* moves gives the same position).

A replay shows the whole game: **both hands** and what each player chose in secret (the
teacher's eyes: :data:`~tokens_edu.game.observe.TEACHER`). It is for the teacher, or for a game
that is over; the pages that show it say so. Never show a replay of a live game to a player of
that game (a player's replay is drawn through their own observer, as the "Moves and replay"
pane does).

Example::

    from tokens_edu import Game, starter_decks
    from tokens_edu.game.replay import Replay
    r = Replay(game)            # a Game, a record dict, or the path of a record .json
    r.goto(10)                  # the position after 10 moves (r.game)
    r.move(10)                  # who made move 10, its text, and the log lines it caused
    r.back(); r.forward()
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass

from ..content.inputs import MAX_JSON_DEPTH, data_depth
from ..errors import RecordError
from .actions import Action, IllegalAction
from .game import Game
from .observe import TEACHER
from .records import read_record

__all__ = ["Replay", "ReplayMove", "replay_board_html"]


@dataclass(frozen=True)
class ReplayMove:
    """One move of a replay.

    Attributes:
        number: 1 for the first move.
        player: who made it (0/1).
        text: the action's text (``"audit Neural Network -> Explainability"``), hidden parts
            included (``"train Sensor"``).
        lines: the log lines it caused, in order (tuple of str).
        turn: the turn it was made in.
        action: the move itself (the :class:`~tokens_edu.Action`, with its engine move).
    """

    number: int
    player: int
    text: str
    lines: tuple
    turn: int
    action: Action | None = None


class Replay:
    """A game's record, to step through forward and back.

    Args:
        record_or_game: a :class:`~tokens_edu.Game` (its record is taken now), a record dict
            (``Game.to_record()``), or the path of a record ``.json`` file.
        at: the position to start at: 0 (the start, default), a move number, or ``"end"``
            (the replay is built at the end, so ``"end"`` costs no extra moves).

    Attributes:
        record: the record (dict). length: how many moves it has. step: the position shown
            now (0 = the start, ``length`` = the end). game: the Game at ``step`` (do not
            change it: move with :meth:`goto`). names: the two players' names.

    Raises:
        RecordError: the record is damaged or a move cannot be played (from ``Game.from_record``).
        TypeError: ``record_or_game`` is none of the above.
    """

    def __init__(self, record_or_game, at: int | str = 0):
        import json


        if isinstance(record_or_game, Game):
            record = record_or_game.to_record()
        elif isinstance(record_or_game, dict):
            if data_depth(record_or_game, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
                raise RecordError(f"This game record is nested too deep to be one (more than "
                                  f"{MAX_JSON_DEPTH} levels of lists and dicts).")
            record = json.loads(json.dumps(record_or_game))  # a private copy
        elif isinstance(record_or_game, (str, os.PathLike)):
            record = read_record(record_or_game)[0]  # read once, with the file's limits
        else:
            raise TypeError("Replay needs a Game, a record from Game.to_record(), or a record file.")
        # One pass over the moves, checking each one (as ``Game.from_record`` does) and noting
        # where each move's log lines start and its turn. The log's length is read from the
        # engine's event list: ``Game.log`` builds every line each time it is read, so reading
        # it after each move made a 10,000-move replay take minutes (issue 29.6).
        record, texts = read_record(record)
        game = Game.from_record(dict(record, actions=[]))
        log_at, turns = [], []
        for i, text in enumerate(texts):
            log_at.append(_log_size(game))
            turns.append(game.turn)
            try:
                game.apply(text)
            except IllegalAction as e:
                raise RecordError(f"Move {i + 1} of the record ('{text[:60]}') cannot be played: "
                                  f"{e}") from None
        log_at.append(_log_size(game))
        self.record = dict(record)
        self.actions: list[str] = list(texts)
        self.length = len(self.actions)
        self.names = tuple(game.names)
        self._events = game.log
        self._played = game.move_stack  # the moves as values: each step applies one
        self._log_at = log_at
        self._turns = turns
        self.game = game
        self.step = self.length
        self.goto(self.length if at == "end" else at)

    # -- moving ------------------------------------------------------------------------------
    def goto(self, step: int):
        """Show the position after ``step`` moves (clamped to 0..length). Returns the Game.

        Forward uses ``apply`` with the recorded moves (Action values), back uses ``undo``:
        each step is the position the record reached there.
        """
        try:
            step = int(step)
        except (TypeError, ValueError):
            step = self.step
        step = max(0, min(self.length, step))
        while self.step > step:
            self.game.undo()
            self.step -= 1
        while self.step < step:
            self.game.apply(self._played[self.step])
            self.step += 1
        return self.game

    def forward(self):
        """One move forward (nothing at the end). Returns the Game."""
        return self.goto(self.step + 1)

    def back(self):
        """One move back (nothing at the start). Returns the Game."""
        return self.goto(self.step - 1)

    def to_start(self):
        """Back to the start. Returns the Game."""
        return self.goto(0)

    def to_end(self):
        """To the last position. Returns the Game."""
        return self.goto(self.length)

    # -- reading -----------------------------------------------------------------------------
    def move(self, number: int | None = None) -> ReplayMove | None:
        """Move ``number`` (1-based; None: the move that led to the current step), or None
        at the start."""
        n = self.step if number is None else int(number)
        if not 1 <= n <= self.length:
            return None
        lines = tuple(e.text for e in self._events[self._log_at[n - 1]:self._log_at[n]])
        action = self._played[n - 1]
        return ReplayMove(n, action.player, self.actions[n - 1], lines, self._turns[n - 1], action)

    def log_size(self) -> int:
        """How many log lines the game has at the current step."""
        return self._log_at[self.step]

    def start_lines(self) -> tuple:
        """The log lines before the first move (the die roll, a scenario's title)."""
        return tuple(e.text for e in self._events[:self._log_at[0]])

    def caption(self) -> str:
        """A line for the current step: "Move 12 of 80: Ana: task Neural Network (turn 5)"."""
        m = self.move()
        if m is None:
            return f"Start of the game ({self.length} move{'s' if self.length != 1 else ''} in all)"
        return (f"Move {m.number} of {self.length}: {self.names[m.player]}: {m.text} "
                f"(turn {m.turn})")

    def tables(self, log_rows: int | None = None) -> dict:
        """The position's tables with **both** hands (the teacher's eyes): ``players``,
        ``board``, ``log`` (up to this step), ``hand0`` and ``hand1`` (pandas DataFrames, as in
        ``Game.tables``).

        Args:
            log_rows: keep only the newest ``log_rows`` lines of the log (None: every line).
        """
        from .tables import game_tables  # here: the tables module loads pandas

        t0 = game_tables(self.game, 0, log_rows=log_rows)
        hand1 = game_tables(self.game, 1, log_rows=0)["hand"]
        return {"players": t0["players"], "board": t0["board"], "log": t0["log"],
                "hand0": t0["hand"], "hand1": hand1}

    def __repr__(self) -> str:
        return f"<Replay {self.names[0]} vs {self.names[1]}, step {self.step} of {self.length}>"


def _log_size(game: Game) -> int:
    """How many log events ``game`` has so far (``len(game.log)`` without building them)."""
    return len(game._s.events)


def _esc(x) -> str:
    return html.escape("" if x is None else str(x), quote=True)


_COLORS = {"green": "#2e7d32", "blue": "#1565c0", "black": "#333", "white": "#9e9e9e",
           "red": "#c62828", "any": "#6a1b9a"}


def _mini(card, extra: str = "", sideways: bool = False) -> str:
    """A small card: name band in the card's color; drawn wide (sideways) when exerted."""
    color = _COLORS.get(str(getattr(card, "color", "")).lower(), "#555")
    cls = "tokens-mini tokens-sideways" if sideways else "tokens-mini"
    size = "width:132px;min-height:50px;background:#eee;" if sideways else "width:96px;min-height:72px;background:#fff;"
    state = '<br><i>sideways</i>' if sideways else ""
    return (f'<div class="{cls}" style="display:inline-block;vertical-align:top;{size}margin:3px;'
            f'padding:3px 5px;border:2px solid {color};border-radius:6px;font-size:11px;line-height:1.25">'
            f'<div style="background:{color};color:#fff;margin:-3px -5px 3px;padding:1px 5px;'
            f'font-weight:bold">{_esc(card.name)}</div>{extra}{state}</div>')


def replay_board_html(game, names=None) -> str:
    """The whole position as HTML for a teacher: both players' hands, boards, Data and piles.

    Built from the teacher's observations of each seat (:data:`~tokens_edu.game.observe.TEACHER`:
    each hand from its owner's view); every name is escaped. For a teacher's replay only: it
    shows both hands.

    Returns:
        str: an HTML fragment (``<div class="tokens-replay-table">``).
    """
    obs = [TEACHER.observation(game, 0), TEACHER.observation(game, 1)]
    names = names or obs[0].names
    parts = ['<div class="tokens-replay-table" style="font-family:sans-serif">']
    for p in (1, 0):
        o = obs[p]
        turn = ""
        if not o.over and o.to_act == p:
            turn = ' <span style="color:#a60">&#9654; to play</span>'
        elif o.over and o.winner == p:
            turn = ' <span style="color:#1d5e20">wins</span>'
        parts.append(
            f'<div class="tokens-replay-side tokens-replay-side-{p}" style="border:1px solid #bbb;'
            'border-radius:8px;padding:6px;margin:4px 0">'
            f'<b>{_esc(names[p])}</b>{turn} &middot; <b>{o.tokens[p]}</b> Tokens &middot; Data '
            f'{o.data_ready[p]} ready of {o.training_set[p]} &middot; Deck {o.deck_sizes[p]} '
            f'&middot; Discard {len(o.discards[p])}<br>')
        board = [b for b in obs[p].board if b.owner == p]
        if board:
            for b in board:
                if b.card.is_system:
                    flags = "&#9873;" * min(b.flags, 10)
                    extra = (f"CAP {b.cap} &middot; TRU {b.tru}<br>Flags {b.flags} "
                             f'<span style="color:#c00">{flags}</span>'
                             + ("<br><i>new</i>" if b.new else ""))
                else:
                    extra = "Tool"
                parts.append(_mini(b.card, extra, b.sideways))
        else:
            parts.append('<i style="color:#777">No Systems or Tools in play.</i>')
        hand = o.hand
        parts.append(f'<div class="tokens-replay-hand tokens-replay-hand-{p}" style="margin-top:4px">'
                     f'<small>Hand ({len(hand)}):</small> '
                     + (" ".join(f'<span class="tokens-replay-card" style="display:inline-block;'
                                 f'border:1px solid #888;border-radius:4px;padding:1px 5px;margin:1px;'
                                 f'background:#fafafa">{_esc(c.name)}</span>' for c in hand)
                        or "<i>empty</i>") + "</div></div>")
    parts.append("</div>")
    return "".join(parts)
