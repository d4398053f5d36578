"""ReplayView: step through a whole game, forward and back, in a notebook or a Voila page.

``ReplayView(record_or_game)`` shows one position of a game at a time: buttons (start, back,
forward, end), a slider over every move, the position on the card table (the same
:class:`~tokens_edu.widgets.table.CardTable` the lessons play on) seen from either player, the
other player's hand beside it (so **both** hands are shown), the log lines of the move that led
there, and the state tables. It is a view of :class:`tokens_edu.game.replay.Replay`,
which moves with the engine's ``apply`` (forward) and ``undo`` (back), so each step is exactly
the position the record reached there.

A replay shows everything (both hands, every secret choice): it is for a teacher, or for a game
that is over. The view says so at the top. Do not put a replay of a live game in front of one
of its players.

Stable CSS classes: ``tokens-replay-view`` (the whole view), ``tokens-replay-note``,
``tokens-replay-start`` / ``-back`` / ``-forward`` / ``-end`` (the buttons),
``tokens-replay-slider``, ``tokens-replay-seat`` (seen from), ``tokens-replay-caption``,
``tokens-replay-lines``, ``tokens-replay-other-hand``, ``tokens-replay-table`` (the card
table), ``tokens-replay-tables``.

Example::

    from tokens_edu.widgets import ReplayView
    view = ReplayView(game)        # a Game, a record dict, or a record .json path
    view.goto(12)                  # or click the buttons, drag the slider
"""

from __future__ import annotations

import logging

import ipywidgets as widgets

from ..game.observe import TEACHER
from ..game.replay import Replay
from ..present import REPLAY, present
from .panes import esc as _esc
from .panes.log import LOG_TABLE_ROWS
from .panes.tables import table_html
from .table import CardTable

__all__ = ["ReplayView", "TEACHER_NOTE"]

log = logging.getLogger(__name__)

#: Shown at the top of every replay.
TEACHER_NOTE = ("Replay of the whole game: you see both players' hands and every secret choice. "
                "Show it to players only after their game is over.")


class ReplayView(widgets.VBox):
    """Step through a game forward and back: buttons, a slider, the board and the tables.

    Args:
        record_or_game: a :class:`~tokens_edu.Game` (its record is taken now), a record dict
            from ``Game.to_record()``, or the path of a record ``.json`` file.
        step: the position to show first: 0 (the start, default), a move number, or
            ``"end"``.
        seat: the player drawn at the bottom of the table, whose hand is on the table (0 or 1;
            default 0). The other hand is shown above the table. "Seen from" switches it.

    Attributes:
        replay: the :class:`~tokens_edu.game.replay.Replay` being shown (``replay.game`` is the
            position now; do not change it).
        slider: the ``IntSlider`` over the moves (0 = the start). buttons: dict with
            ``"start"``, ``"back"``, ``"forward"``, ``"end"``.
        caption, lines: the ``HTML`` widgets with the move's caption ("Move 12 of 80: Ana:
            task Neural Network (turn 5)") and its log lines.
        table: the :class:`~tokens_edu.widgets.table.CardTable` showing the position from
            ``seat``. other_hand: the ``HTML`` with the other player's hand. seat_pick: the
            "Seen from" ``ToggleButtons`` (value 0 or 1).
        tables: the ``Tab`` with the Players, Board, both hands and Log tables at this step.

    Raises:
        RecordError: the record is damaged (names the bad move).
        TypeError: ``record_or_game`` is not a Game, a record or a path.
    """

    def __init__(self, record_or_game, step=0, seat: int = 0):
        # built once at the end of the game, then moved to ``step`` (issue 29.6: a game at the
        # 10,000-move cap opens in about a second, not minutes)
        self.replay = Replay(record_or_game, at="end" if step == "end" else step)
        r = self.replay
        super().__init__()
        self.add_class("tokens-replay-view")
        self.note = widgets.HTML(f'<div style="background:#fff3cd;border:1px solid #e0c36a;'
                                 f'padding:6px 10px;border-radius:6px">{_esc(TEACHER_NOTE)}</div>')
        self.note.add_class("tokens-replay-note")
        self.title = widgets.HTML(f"<b>{_esc(r.names[0])}</b> against <b>{_esc(r.names[1])}</b> "
                                  f"&middot; {r.length} move{'s' if r.length != 1 else ''}")
        self.buttons = {}
        for key, label, tip in (("start", "Start", "Go to the start of the game"),
                                ("back", "Back", "One move back"),
                                ("forward", "Forward", "One move forward"),
                                ("end", "End", "Go to the end of the game")):
            icon = {"start": "fast-backward", "back": "step-backward", "forward": "step-forward",
                    "end": "fast-forward"}[key]
            b = widgets.Button(description=label, tooltip=tip, icon=icon,
                               layout=widgets.Layout(width="auto"))
            b.add_class(f"tokens-replay-{key}")
            b.on_click(self._guard(lambda _b, k=key: self._on_button(k)))
            self.buttons[key] = b
        self.slider = widgets.IntSlider(value=0, min=0, max=r.length, description="Move",
                                        continuous_update=True, readout=True,
                                        layout=widgets.Layout(width="100%"))
        self.slider.add_class("tokens-replay-slider")
        self.slider.observe(self._guard(self._on_slider), names="value")
        self.caption = widgets.HTML()
        self.caption.add_class("tokens-replay-caption")
        self.lines = widgets.HTML()
        self.lines.add_class("tokens-replay-lines")
        self.seat_pick = widgets.ToggleButtons(
            options=[(str(r.names[0]), 0), (str(r.names[1]), 1)], value=1 if seat == 1 else 0,
            description="Seen from", style={"description_width": "initial", "button_width": "auto"})
        self.seat_pick.add_class("tokens-replay-seat")
        self.seat_pick.observe(self._guard(lambda _c: self._draw()), names="value")
        self.other_hand = widgets.HTML()
        self.other_hand.add_class("tokens-replay-other-hand")
        self.table = CardTable()
        self.table.add_class("tokens-replay-table")
        self.message = widgets.HTML()
        self._table_keys = ("players", "board", "hand0", "hand1", "log")
        self.table_widgets = {k: widgets.HTML() for k in self._table_keys}
        self.tables = widgets.Tab(children=[self.table_widgets[k] for k in self._table_keys],
                                  titles=["Players", "Board", f"{r.names[0]}'s hand",
                                          f"{r.names[1]}'s hand", "Log"])
        self.tables.add_class("tokens-replay-tables")
        controls = widgets.HBox(list(self.buttons.values()))
        self.children = [self.note, self.title, controls, self.slider, self.caption, self.lines,
                         self.seat_pick, self.other_hand, self.table, self.message, self.tables]
        self._quiet = False
        self._draw()

    # -- moving ----------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """The position shown: how many moves have been made (0 = the start)."""
        return self.replay.step

    def goto(self, step) -> None:
        """Show the position after ``step`` moves (clamped to the game) and redraw."""
        self.replay.goto(step)
        self._draw()

    def _on_button(self, key: str) -> None:
        r = self.replay
        target = {"start": 0, "back": r.step - 1, "forward": r.step + 1, "end": r.length}[key]
        self.goto(target)

    def _on_slider(self, change) -> None:
        if not self._quiet:
            self.goto(change["new"])

    def _guard(self, fn):
        """A callback that never raises: a problem becomes a plain line under the board."""
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:  # noqa: BLE001 (Voila shows no tracebacks)
                log.exception("ReplayView: a callback failed")
                self.message.value = ('<span style="color:#8a1c1c">Sorry, that step could not be '
                                      "shown. Try another one.</span>")
            return None
        return wrapped

    # -- drawing ---------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The player drawn at the bottom of the table (0/1)."""
        return int(self.seat_pick.value)

    def _draw(self) -> None:
        r = self.replay
        self._quiet = True
        try:
            self.slider.value = r.step
        finally:
            self._quiet = False
        self.buttons["start"].disabled = self.buttons["back"].disabled = r.step == 0
        self.buttons["forward"].disabled = self.buttons["end"].disabled = r.step == r.length
        caption = r.caption()
        self.caption.value = f"<b>{_esc(caption)}</b>"
        m = r.move()
        lines = m.lines if m is not None else r.start_lines()
        self.lines.value = "<br>".join(_esc(t) for t in lines) or "<i>Nothing to say.</i>"
        seat = self.seat
        other = 1 - seat
        hand = [c.name for c in TEACHER.observation(r.game, other).hand]  # the teacher's eyes: both hands
        chips = " ".join(f'<span style="display:inline-block;border:1px solid #888;border-radius:4px;'
                         f'padding:1px 6px;margin:1px;background:#fafafa">{_esc(n)}</span>' for n in hand)
        self.other_hand.value = (f"<b>{_esc(r.names[other])}'s hand</b> ({len(hand)}): "
                                 + (chips or "<i>empty</i>"))
        state = present(r.game, seat, REPLAY, log_lines=list(lines)).table_state()
        state.update(v=r.step, status=caption, step="", title="")
        self.table.state = state
        self.message.value = ""
        tables = r.tables(log_rows=LOG_TABLE_ROWS)  # the newest lines: a long game has thousands
        empty = {"players": "No players.", "board": "No Systems or Tools in play.",
                 "hand0": "The hand is empty.", "hand1": "The hand is empty.",
                 "log": "Nothing has happened yet."}
        for key, w in self.table_widgets.items():
            w.value = table_html(tables.get(key), empty[key])
        shown, total = len(tables["log"]), r.log_size()
        if shown < total:
            self.table_widgets["log"].value = (f"<p><i>The newest {shown} of {total:,} lines.</i></p>"
                                               + self.table_widgets["log"].value)

    def __repr__(self) -> str:
        return f"<ReplayView step {self.replay.step} of {self.replay.length}>"
