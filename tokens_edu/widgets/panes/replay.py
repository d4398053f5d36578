"""The "Moves and replay" pane: every move so far (the other player's secrets masked), and a
second card table that steps through the game without changing it.

The move list is the presenter's (``page.move_lines()``: the other player's face-down Trains
read "train a card (face-down)", their secret picks "choose (a secret choice)"). The replay
board is a :class:`~tokens_edu.game.replay.Replay` of the game (the engine's own apply and
undo) drawn by the presenter for the page's viewer, so a past position shows only what that
viewer could see then. When the viewer changes (hot seat), the replay board is emptied.

CSS classes: ``tokens-replay`` (the pane's box), ``tokens-moves`` (the list),
``tokens-replay-button`` (From the start, Back, Forward, To now), ``tokens-replay-board``.
"""

from __future__ import annotations

import functools

import ipywidgets as widgets

from ...game.replay import Replay
from ...present import Seating, present
from ..table import CardTable
from . import NOBODY, Pane, esc

__all__ = ["ReplayPane", "MOVE_LINES"]

#: The move list shows this many of the newest moves.
MOVE_LINES = 60


class ReplayPane(Pane):
    """"Moves and replay".

    Attributes:
        moves: the ``HTML`` move list. start, back, forward, end: the replay buttons.
        label: the ``HTML`` line over the replay board. board: the replay's
            :class:`~tokens_edu.widgets.table.CardTable`. step: the move shown on it.
    """

    key = "replay"
    title = "Moves and replay"

    def __init__(self, view):
        super().__init__(view)
        self.moves = widgets.HTML()
        self.moves.add_class("tokens-moves")
        self.start = widgets.Button(description="From the start", tooltip="Replay: go back to the start",
                                    icon="fast-backward")
        self.back = widgets.Button(description="Back", tooltip="Replay: one move back", icon="step-backward")
        self.forward = widgets.Button(description="Forward", tooltip="Replay: one move forward", icon="step-forward")
        self.end = widgets.Button(description="To now", tooltip="Replay: jump to the game as it is now",
                                  icon="fast-forward")
        for b, where in ((self.start, "start"), (self.back, -1), (self.forward, 1), (self.end, "end")):
            b.add_class("tokens-replay-button")
            b.on_click(view.guard(functools.partial(self.go, where)))
        self.label = widgets.HTML()
        self.board = CardTable()
        self.board.add_class("tokens-replay-board")
        self.box = widgets.VBox([self.moves, widgets.HBox([self.start, self.back, self.forward, self.end]),
                                 self.label, self.board])
        self.box.add_class("tokens-replay")
        self.step = 0
        self._replay: Replay | None = None
        self._replay_of: tuple | None = None  # (game id, its moves) the replay was made from
        self._board_for = NOBODY  # the viewer the board was drawn for

    def draw(self, page) -> None:
        lines = page.move_lines()
        self.moves.value = ("<b>Moves so far</b><br>" + "<br>".join(esc(t) for t in lines[-MOVE_LINES:])
                            if lines else "<i>No moves yet.</i>")
        if self._board_for is not NOBODY and self._board_for != page.viewer:
            self._clear_board()  # other eyes now: the board is drawn again at the next click

    def clear(self) -> None:
        self.moves.value = ""
        self._clear_board()

    def reset(self) -> None:
        """Forget the replay (another game on the table, or moves taken back)."""
        self._replay, self._replay_of, self.step = None, None, 0

    def _clear_board(self) -> None:
        self.board.state = {}
        self.label.value = ""
        self._board_for = NOBODY

    def go(self, where, _button=None) -> None:
        """Show the game after a move: ``"start"``, ``"end"`` (now), or one move back (-1) or on (1)."""
        game = self.view.game
        played = game.move_stack
        total = len(played)
        if where == "start":
            step = 0
        elif where == "end":
            step = total
        else:
            step = min(max(self.step + int(where), 0), total)
        key = (id(game), played)
        if self._replay is None or self._replay_of != key:
            self._replay, self._replay_of = Replay(game), key
        replay = self._replay
        replay.goto(step)
        self.step = step
        page = self.view.page
        past = present(replay.game, page.viewer, Seating(live=False, seat=page.seat, names=page.names))
        state = past.table_state()
        state.update(v=step, status=f"Replay: after move {step} of {total}", step="", title="")
        self.board.state = state
        self._board_for = page.viewer
        self.label.value = (f"<b>Replay: after move {step} of {total}</b> "
                            f"(turn {int(replay.game.turn)}). The real game is not changed.")
