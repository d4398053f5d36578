"""GameView: a live :class:`~tokens_edu.Game` played on a card table, for notebooks and Voila lessons.

A student plays a real game on it: against the computer (a bot in one seat; by default the
computer plays its whole turn by itself, one move at a time with a short pause, each move
highlighted on the table; Pause stops it and "Next computer move" steps), or against a
classmate on one screen ("hot seat", with a cover that hides the hand while the screen is
passed). Cards are drawn as small card faces (:class:`~tokens_edu.widgets.table.CardTable`,
an anywidget): click a move on a card ("Task", "Train", "Deploy": one click; "Audit…", then
the target card), or click a card to see all its moves beside the table; Escape cancels. Every card and move is a button with a label that reads the
move (Tab, Enter, screen readers), and "All my moves as a list" lists every move.

What is not drawing lives in :class:`~tokens_edu.match.Match` (seats, bots, undo policy, whose
view is shown, the hot-seat cover, what a prompt may say); the view draws the match and answers
the page's clicks. It holds no rules and calls only the engine's public surface.

Hidden information never reaches the browser: the table's state is built from
``game.observation(viewer)`` (the viewer's own hand, counts for everything else) and the
viewer's own legal moves; a look effect's prompt goes only to its chooser (others read "The
computer is choosing."); the computer's face-down Train moves are masked in the move list;
in hot seat nothing of a hand is on the page while the cover is up.

Panes open on demand under the table (buttons, reached with Tab): "Why can't I?", "What
happened" (the whole log), "Moves and replay", "State tables", "Read a card". Lessons and
later features add their own with :meth:`GameView.add_pane`. With ``thinking=True`` a
"What was the computer thinking?" pane follows each computer move, and with ``hints=True`` a
Hint pane asks a search bot about the student's own move (:mod:`tokens_edu.widgets.thinking_pane`).

Stable CSS classes: ``tokens-game`` (the whole view), the table's classes (see
:class:`~tokens_edu.widgets.table.CardTable`: ``tokens-table``, ``tt-card``, ``tokens-action``,
``tokens-next``, ``tokens-undo``, ``tokens-pause``, ``tokens-reveal``, ``tokens-again``,
``tt-banner``, ``tokens-status``, ``tokens-tick``...), ``tokens-pane-toggle`` and
``tokens-toggle-<key>`` (the pane buttons), ``tokens-pane-<key>`` (the panes: ``explain``,
``log``, ``replay``, ``tables``, ``read``), ``tokens-explain-text``, ``tokens-explain``,
``tokens-explain-answer``, ``tokens-log``, ``tokens-tables``, ``tokens-moves``,
``tokens-replay``, ``tokens-card-pick``, ``tokens-discuss-area``, and in NewGamePanel
``tokens-start``, ``tokens-new-game-setup``, ``tokens-page-note``.

Student-facing text carries no rule numbers ("(R8)"): those are for teachers and tests.

Example::

    from tokens_edu import Game
    from tokens_edu.widgets import GameView
    view = GameView(Game.from_scenario("scenarios/03-audit.yaml"), seats=("human", "greedy"))
    view                                   # shows itself in a notebook
    view.buttons["task Neural Network"].click()   # what a click on that move does
"""

from __future__ import annotations

import functools
import html
import logging
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from ..content.cards import load_cards
from ..content.decks import starter_decks
from ..game.game import Game
from ..players.match import Match, seat_bot
from ..present.render import render_card
from ..store.journal import student_from_query
from .discuss import DiscussBox
from .keep import KEPT_NOTE, Keeping, keep_match
from .table import HINTS, WIN_TOKENS, CardTable, plain, table_state
from .thinking_pane import HintPane, ThinkingPane, hints_allowed

__all__ = ["GameView", "NewGamePanel", "WIN_TOKENS", "MoveButton", "Control"]

log = logging.getLogger(__name__)

#: The Log pane shows this many of the newest events (a whole game has hundreds).
LOG_TABLE_ROWS = 40
#: The computer's pause between moves, in milliseconds (the speed menu offers 1000/500/200).
DEFAULT_DELAY_MS = 500

_FRIENDLY_ERROR = (
    "Oops, something went wrong with that click. Nothing was lost: the game is as it was. "
    "Try again, or ask your teacher."
)
_MAX_NAME = 30
#: Shown near Start: the game is not saved anywhere.
PAGE_ONLY_NOTE = ("This game lives only in this page. If you reload or close the page, "
                  "the game starts over.")
# The computer's moves whose cards are public (lit up on the table); a Train is face-down and a
# choice may name a card only the chooser saw, so those never light up a card.
_PUBLIC_KINDS = frozenset({"deploy", "task", "audit", "use"})
# Choices that say nothing about hidden cards; any other "choose ..." by the opponent is masked.
_PUBLIC_CHOICE = re.compile(r"^choose (yes|no|top|bottom|mode [ab]|\d+ flags?)$", re.IGNORECASE)
_CSS = ("<style>.tokens-game .widget-html-content { line-height: 1.35; }"
        " .tokens-game table.tokens-table { border-collapse: collapse; }"
        " .tokens-game table.tokens-table th, .tokens-game table.tokens-table td"
        " { text-align: left !important; padding: 2px 8px; vertical-align: top; }</style>")


def _esc(value: object) -> str:
    """``value`` as text, HTML-escaped (quotes too): every text that may come from a student."""
    return html.escape("" if value is None else str(value), quote=True)


_plain = plain


def _short(name: object, limit: int = _MAX_NAME) -> str:
    """A name cut to ``limit`` characters (long names break the layout), never empty."""
    text = " ".join(str(name if name is not None else "").split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text or "?"


def _int(value, default: int = 0) -> int:
    """``value`` as an int; ``default`` for None, NaN or text that is not a number."""
    try:
        if value is None or value != value:  # NaN
            return default
        return int(value)
    except (TypeError, ValueError):
        return default


_make_bot = seat_bot  # kept for old imports


def _table_html(df, empty: str, names: Sequence[str] = ()) -> str:
    """A DataFrame as escaped HTML (``to_html(escape=True)``), or a plain sentence if empty.

    With ``names``, the player numbers in a "Player" or "Owner" column become names (the
    Players table, which has a Name column already, drops its numbers).
    """
    if df is None or len(df) == 0:
        return f"<i>{_esc(empty)}</i>"
    if names:
        df = df.copy()
        if "Player" in df.columns and "Name" in df.columns:
            df = df.drop(columns=["Player"])
        for col in ("Player", "Owner"):
            if col in df.columns:
                df[col] = [names[i] if isinstance(i, int) and 0 <= i < len(names) else v
                           for i, v in ((_int(x, -1), x) for x in df[col])]
    return df.to_html(escape=True, index=False, border=0, classes="tokens-table", justify="left")




class MoveButton:
    """A move offered now, for Python code and tests: ``click()`` does what a click on that
    move does in the page (the same handler, the same checks).

    Attributes:
        description: the move's text (``"task Neural Network"``). tooltip: the text and a hint.
        action: the :class:`~tokens_edu.Action`.
    """

    __slots__ = ("_view", "description", "tooltip", "action")

    def __init__(self, view: "GameView", action, hint: str = ""):
        self._view = view
        self.action = action
        self.description = str(action)
        self.tooltip = f"{self.description}: {hint}".strip(": ")

    def click(self) -> None:
        """Play this move, as the page's button does (a stale move gets a calm note)."""
        self._view._handle({"type": "move", "text": self.description})

    def __repr__(self) -> str:
        return f"MoveButton({self.description!r})"


class Control:
    """A control of the table (Undo, Next computer move, Pause, Show my cards, Play again),
    for Python code and tests: ``click()`` does what the page's button does.

    Attributes:
        description: the button's words. shown: True when the page shows it now.
        disabled: True when it would do nothing now.
    """

    def __init__(self, view: "GameView", kind: str, description: str, shown: Callable[[], bool],
                 enabled: Callable[[], bool] | None = None):
        self._view, self.kind, self.description = view, kind, description
        self._shown, self._enabled = shown, enabled or shown

    @property
    def shown(self) -> bool:
        """Whether the page shows this control now."""
        return bool(self._shown())

    @property
    def disabled(self) -> bool:
        """Whether the control is greyed out now (shown but not usable)."""
        return not self._enabled()

    def click(self) -> None:
        """Press it, as in the page."""
        msg = {"type": self.kind}
        if self.kind == "pause":
            msg["paused"] = not self._view.paused
        self._view._handle(msg)

    def __repr__(self) -> str:
        return f"Control({self.description!r}, shown={self.shown}, disabled={self.disabled})"


class GameView(widgets.VBox):
    """A live Game on a card table: the viewer's hand and moves, the computer's turn played out.

    Args:
        game: a :class:`~tokens_edu.Game` (from ``Game.new`` or ``Game.from_scenario``), or a
            :class:`~tokens_edu.match.Match` (e.g. a resumed game: ``Match.from_record``).
            The view changes the game only through the match (``apply``, ``undo``).
        seats: a pair, one entry per player: ``"human"``, ``"greedy"``, ``"random"`` or a bot
            with ``choose(game) -> Action``. Two humans is hot seat. Ignored for a Match.
        allow_undo: False turns Undo off (same as ``undo="off"``).
        undo: the undo policy (see :class:`~tokens_edu.match.Match`): ``"turn"`` (default:
            only your own moves of this turn), ``"free"`` (a teacher's choice: take back your
            last decision and the computer's moves after it, again and again), ``"off"``.
        autoplay: True (default): the computer plays its whole turn by itself, one move every
            ``delay_ms``, with a Pause button. False: one "Next computer move" click per move.
        delay_ms: the pause between the computer's moves (int, milliseconds, 0 to 5000).
        journal: a :class:`~tokens_edu.journal.Journal`; when given, each card deployed in the
            game offers its Discuss question in a ``DiscussBox`` saved to it.
        lesson: a short title shown above the table (escaped).
        on_play_again: called with the view when "Play again" is pressed; by default the same
            start position is set up again (:meth:`Match.restart`).
        keep: with a journal and a known student (login, class-roster code or ``?student=``),
            save each game put on this table on the server after every move, for the teacher's
            dashboard (see :mod:`tokens_edu.widgets.keep`). NewGamePanel keeps its games itself
            (and offers to continue them), so it passes False.
        thinking: add the "What was the computer thinking?" pane (after each computer move,
            the options it weighed with bars; :class:`~tokens_edu.widgets.thinking_pane.ThinkingPane`):
            False (default), True (the pane starts closed) or ``"open"``.
        predict: with ``thinking``, ask the student to guess each computer move first.
        hints: add the Hint pane (a search bot's view of the student's own move) unless the
            teacher turned hints off (``TOKENS_EDU_HINTS=off`` on the server, or ``?hints=off``
            in the page's link; :func:`~tokens_edu.widgets.thinking_pane.hints_allowed`).
        hint_bot: the bot that gives hints (None: a SearchBot with a fixed number of games).

    Attributes (for tests, teachers and later features):
        match: the :class:`~tokens_edu.match.Match`. game: ``match.game``.
        table: the :class:`~tokens_edu.widgets.table.CardTable`.
        buttons: dict, move text -> :class:`MoveButton` for each move offered now (empty when
            it is not the viewer's decision).
        undo_button, next_button, pause_button, reveal_button, again_button: :class:`Control`.
        note: the latest message to the student (plain text). status: the status line.
        panes, pane_buttons: the panes under the table and their show/hide buttons.
        thinking, hint: the :class:`ThinkingPane` and :class:`HintPane`, or None.
        before_computer_move, after_computer_move, on_drawn: lists of hooks for panes:
            ``hook(view)`` before a computer move (the position it decides in),
            ``hook(view, player, action)`` after it, ``hook(view)`` after each drawing of the table.

    Raises:
        ValueError: bad seats, undo policy or delay (plain message).
        TypeError: ``game`` is neither a Game nor a Match.

    Rules: the view offers exactly ``game.legal_actions()`` (R7-R23 live in the engine); Tokens
    run to 15 (R25); hidden cards follow ``game.observation(player)``.
    """

    def __init__(self, game, seats: Sequence = ("human", "human"), allow_undo: bool = True,
                 journal=None, lesson: str = "", *, undo: str | None = None, autoplay: bool = True,
                 delay_ms: int = DEFAULT_DELAY_MS, on_play_again: Callable | None = None,
                 keep: bool = True, thinking: bool | str = False, predict: bool = False,
                 hints: bool = False, hint_bot=None):
        if isinstance(game, Match):
            match = game
        else:
            if not all(hasattr(game, a) for a in ("legal_actions", "apply", "observation")):
                raise TypeError("GameView needs a Game, e.g. Game.new(...) or Game.from_scenario(...).")
            policy = undo if undo is not None else ("turn" if allow_undo else "off")
            if not allow_undo:
                policy = "off"
            match = Match(game, seats=seats, undo=policy)
        if isinstance(delay_ms, bool) or not isinstance(delay_ms, int) or not 0 <= delay_ms <= 5000:
            raise ValueError("delay_ms must be a whole number of milliseconds from 0 to 5000.")
        super().__init__()
        self.add_class("tokens-game")
        self.journal = journal
        self.lesson = lesson or ""
        self.autoplay = bool(autoplay)
        self.delay_ms = delay_ms
        self.paused = False
        self.on_play_again = on_play_again
        #: bring the table into the window when a game starts (NewGamePanel sets it: a click
        #: started the game; a lesson page with several tables must not jump on load)
        self.scroll_into_view = False
        self.buttons: dict[str, MoveButton] = {}
        self.note = ""
        self._note_kind = "info"
        self.status = ""
        self._version = 0
        self._game_no = 0
        self._deployed: list[str] = []
        self._pending_deploys: list[str] = []
        self._discuss_boxes: dict[str, widgets.Widget] = {}
        self._quiet = False
        self._replay_step = 0
        self._replay_game = None
        self._shown_log = 0
        self.match: Match = match
        self._keep_games = bool(keep)
        self.before_computer_move: list[Callable] = []
        self.after_computer_move: list[Callable] = []
        self.on_drawn: list[Callable] = []
        self._build()

        self.thinking = ThinkingPane(self, open=thinking == "open", predict=predict) if thinking else None
        self.hint = HintPane(self, hint_bot) if hints and hints_allowed(True) else None
        self._attach(match)

    # -- the match ---------------------------------------------------------------------------
    @property
    def game(self):
        """The Game on the table (``match.game``)."""
        return self.match.game

    @property
    def bots(self) -> list:
        """Each seat's computer player, or None for a person (``match.bots``)."""
        return self.match.bots

    @property
    def humans(self) -> list[int]:
        """The seats (0/1) played by people (``match.humans``)."""
        return self.match.humans

    @property
    def hot_seat(self) -> bool:
        """True when two people share this screen (a cover hides each hand in turn)."""
        return self.match.hot_seat

    @property
    def allow_undo(self) -> bool:
        """True when this table offers Undo (its undo policy is not "off")."""
        return self.match.undo_policy != "off"

    def viewer(self) -> int | None:
        """Whose eyes the screen is for now (see :meth:`Match.viewer`)."""
        return self.match.viewer()

    def set_match(self, match: Match) -> None:
        """Put another game on this table (e.g. "Play again" or "Continue your game")."""
        self._attach(match)

    def _attach(self, match: Match) -> None:
        self.match = match
        if self._after_move not in match.on_move:
            match.on_move.append(self._after_move)
        if self._keep_games and self.journal is not None:

            keep_match(self, match)  # saved after each move, for the teacher; never raises
        self._game_no += 1
        self.paused = False
        self._replay_game = None
        self._replay_step = 0
        self._shown_log = len(self.game.log)
        self._refresh()
        self._push()

    def _name(self, player: int) -> str:
        return _short(self.match.name(player))

    # -- building ----------------------------------------------------------------------------
    def _build(self) -> None:
        self.table = CardTable()
        self.table.handlers.update({
            "move": self._guard(self._on_move), "step": self._guard(self._on_step),
            "undo": self._guard(self._on_undo), "pause": self._guard(self._on_pause),
            "speed": self._guard(self._on_speed), "reveal": self._guard(self._on_reveal),
            "again": self._guard(self._on_again), "read": self._guard(self._on_read),
        })
        m = lambda: self.match  # noqa: E731 (the controls follow the match on the table now)
        self.undo_button = Control(self, "undo", "Undo", lambda: m().undo_policy != "off",
                                   lambda: m().undo_count() > 0)
        self.next_button = Control(self, "step", "Next computer move",
                                   lambda: m().bot_to_act() and (not self.autoplay or self.paused),
                                   lambda: m().bot_to_act())
        self.pause_button = Control(self, "pause", "Pause", lambda: m().bot_to_act() and self.autoplay)
        self.reveal_button = Control(self, "reveal", "Show my cards", lambda: m().covered())
        self.again_button = Control(self, "again", "Play again", lambda: self.game.over)

        # Why can't I?
        self.explain_text = widgets.Text(placeholder="e.g. task Neural Network", description="Move:",
                                         continuous_update=False, style={"description_width": "initial"})
        self.explain_text.add_class("tokens-explain-text")
        self.explain_button = widgets.Button(description="Explain",
                                             tooltip="Explain whether this move is allowed now")
        self.explain_button.add_class("tokens-explain")
        self.explain_button.on_click(self._guard(self._on_explain))
        self.explain_text.observe(self._guard(lambda change: self._on_explain()), names="value")
        self.explain_out = widgets.HTML()
        self.explain_out.add_class("tokens-explain-answer")
        explain_box = widgets.VBox([
            widgets.HTML("<b>Why can't I?</b> Type a move, then click Explain."),
            widgets.HBox([self.explain_text, self.explain_button]), self.explain_out])
        # What happened: the whole log
        self.log_html = widgets.HTML()
        self.log_html.add_class("tokens-log")
        # State tables
        self.table_widgets = {k: widgets.HTML() for k in ("players", "board", "hand", "log")}
        self.tables_tab = widgets.Tab(children=list(self.table_widgets.values()),
                                      titles=["Players", "Board", "My hand", "Log"])
        self.tables_tab.add_class("tokens-tables")
        # Moves and replay: a second card table showing a copy rebuilt with Game.from_record
        self.moves_html = widgets.HTML()
        self.moves_html.add_class("tokens-moves")
        self.replay_start = widgets.Button(description="From the start", tooltip="Replay: go back to the start",
                                           icon="fast-backward")
        self.replay_back = widgets.Button(description="Back", tooltip="Replay: one move back", icon="step-backward")
        self.replay_fwd = widgets.Button(description="Forward", tooltip="Replay: one move forward",
                                         icon="step-forward")
        self.replay_end = widgets.Button(description="To now", tooltip="Replay: jump to the game as it is now",
                                         icon="fast-forward")
        for b, delta in ((self.replay_start, "start"), (self.replay_back, -1),
                         (self.replay_fwd, 1), (self.replay_end, "end")):
            b.add_class("tokens-replay-button")
            b.on_click(self._guard(functools.partial(self._on_replay, delta)))
        self.replay_label = widgets.HTML()
        self.replay_table = CardTable()
        self.replay_table.add_class("tokens-replay-board")
        replay_box = widgets.VBox([
            self.moves_html,
            widgets.HBox([self.replay_start, self.replay_back, self.replay_fwd, self.replay_end]),
            self.replay_label, self.replay_table])
        replay_box.add_class("tokens-replay")
        # Read a card
        self.card_pick = widgets.Dropdown(description="Card", options=[], value=None,
                                          style={"description_width": "initial"})
        self.card_pick.add_class("tokens-card-pick")
        self.card_pick.observe(self._guard(self._on_card_pick), names="value")
        self.card_html = widgets.HTML()
        self.card_html.add_class("tokens-card-view")
        read_box = widgets.VBox([widgets.HTML("Pick a card from your hand or the board to read it."),
                                 self.card_pick, self.card_html])

        self.panes: dict[str, widgets.Widget] = {}
        self.pane_titles: dict[str, str] = {}
        self.pane_buttons: dict[str, widgets.Button] = {}
        self._pane_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._pane_box = widgets.VBox()
        for key, title, pane in (("explain", "Why can't I?", explain_box), ("log", "What happened", self.log_html),
                                 ("replay", "Moves and replay", replay_box), ("tables", "State tables", self.tables_tab),
                                 ("read", "Read a card", read_box)):
            self.add_pane(key, title, pane)
        self.explain_box = explain_box

        self.discuss_pick = widgets.Dropdown(description="Card", options=[], style={"description_width": "initial"})
        self.discuss_pick.observe(self._guard(self._on_discuss_pick), names="value")
        self.discuss_slot = widgets.VBox()
        discuss_intro = "<b>Discuss</b>: a card was deployed. Read its question and write what you think."
        if self.hot_seat:  # one screen, two students: each saves under their own name
            discuss_intro += (" <b>Take turns:</b> type <b>your own name</b> in the name box,"
                              " then write your answer and click Save.")
        self.discuss_area = widgets.VBox([widgets.HTML(discuss_intro), self.discuss_pick, self.discuss_slot])
        self.discuss_area.add_class("tokens-discuss-area")
        self.discuss_area.layout.display = "none"
        self.children = [widgets.HTML(_CSS), self.table, self._pane_row, self._pane_box, self.discuss_area]

    def add_pane(self, key: str, title: str, widget: widgets.Widget, open: bool = False) -> widgets.Button:
        """Add a pane under the table with a show/hide button (reached with Tab).

        For lessons and later features (a "What was the computer thinking?" pane, a Hint).

        Args:
            key: a short id (letters, digits, dashes); the CSS classes are ``tokens-pane-<key>``
                and ``tokens-toggle-<key>``. title: the button's words. widget: the pane.
            open: show it at once.

        Returns:
            the show/hide Button.

        Raises:
            ValueError: ``key`` is already used or not a short id.
        """
        if not re.fullmatch(r"[a-z0-9-]{1,30}", str(key)) or key in self.panes:
            raise ValueError(f"Pane key {key!r} is taken or not a short id like 'thinking'.")
        widget.add_class(f"tokens-pane-{key}")
        button = widgets.Button(layout=widgets.Layout(width="auto"))
        button.add_class("tokens-pane-toggle")
        button.add_class(f"tokens-toggle-{key}")
        button.on_click(self._guard(functools.partial(self._on_toggle_pane, key)))
        self.panes[key], self.pane_titles[key], self.pane_buttons[key] = widget, title, button
        self._pane_row.children = tuple(self._pane_row.children) + (button,)
        self._pane_box.children = tuple(self._pane_box.children) + (widget,)
        self._set_pane(key, open)
        return button

    def _set_pane(self, key: str, show: bool) -> None:
        """Open or close one pane; an opened pane is drawn now (closed ones are not kept fresh)."""
        self.panes[key].layout.display = None if show else "none"
        title = self.pane_titles[key]
        button = self.pane_buttons[key]
        button.description = f"{'▾' if show else '▸'} {title}"  # ▾ open, ▸ closed
        button.tooltip = f"{'Hide' if show else 'Show'} {title}"
        button.button_style = "info" if show else ""
        if show:
            self._draw_panes()

    def pane_open(self, key: str) -> bool:
        """True when the pane ``key`` is shown."""
        return self.panes[key].layout.display != "none"

    # -- callbacks: every one catches its own errors ------------------------------------------
    def _guard(self, fn: Callable) -> Callable:
        """Wrap a callback: errors become a friendly note on the table and a log entry; the
        table is drawn again afterwards (its version grows, so the page knows it is done)."""
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ValueError as exc:  # IllegalAction, MatchError, RecordError are ValueErrors
                log.info("GameView: refused: %s", exc)
                self._say(str(exc), kind="error")
            except Exception:  # noqa: BLE001 (a click must never fail silently)
                log.exception("GameView callback %s failed", getattr(fn, "__name__", fn))
                self._say(_FRIENDLY_ERROR, kind="error")
            finally:
                try:
                    self._push()
                except Exception:  # noqa: BLE001
                    log.exception("GameView: redraw failed")
            return None

        return wrapped

    def _handle(self, msg: dict) -> None:
        """Answer one message as if it came from the page (used by MoveButton and Control)."""
        self.table._on_page_msg(self.table, msg)

    def _say(self, text: str, kind: str = "info") -> None:
        """Put ``text`` (rule numbers left out) in the table's note; ``kind``: info or error."""
        self.note = _plain(text)
        self._note_kind = kind

    def _stale(self, msg: dict) -> bool:
        """True for a message sent from an older drawing of the table (a double click)."""
        v = msg.get("v")
        return v is not None and v != self._version

    def _on_toggle_pane(self, key: str, _button=None) -> None:
        self._set_pane(key, not self.pane_open(key))

    def _on_move(self, msg: dict) -> None:
        """A move was clicked: play it if it is still offered, else a calm note."""
        text = " ".join(str(msg.get("text", "")).split())[:200]
        if self.game.over:
            self._say("The game is over. Click Play again for a new game.")
            return
        if text not in self.buttons:
            log.info("GameView: ignored a click on %r (no longer offered)", text)
            history = list(self.game.history)
            if history and str(history[-1]) == text:
                note = "That move was already made."
            elif self.match.bot_to_act():
                note = "Wait: the computer is playing its turn."
            elif self.viewer() is None:  # hot seat, cover up: an explanation would read the hand
                note = "Show your cards first (the button on the table)."
            else:
                note = f"'{text}' is not offered any more. " + _plain(self.game.explain(text))
            if note not in self.note:
                self.note = (self.note + " " + note).strip() if self._note_kind != "error" else note
                self._note_kind = "info"
            return
        action = self.buttons[text].action
        self.match.play(action)
        self._after_play(announce=True)

    def _after_move(self, match, player, action) -> None:
        """Match hook: a move was made (by anyone). A deployed card's Discuss box is offered
        once the table has been drawn (:meth:`_push`), so the page learns of the card from
        the table first."""
        if getattr(action, "kind", None) == "deploy" and getattr(action, "card", None):
            self._pending_deploys.append(action.card)

    def _offer_discuss(self) -> None:
        while self._pending_deploys:
            card = self._pending_deploys.pop(0)
            try:  # the move is made; a Discuss problem must not hide that
                self._note_deployed(card)
            except Exception:  # noqa: BLE001
                log.exception("GameView: could not offer the Discuss box for %s", card)

    def _after_play(self, announce: bool) -> None:
        self._refresh(announce=announce)

    def _on_step(self, msg: dict) -> None:
        """One computer move (the page's timer, or "Next computer move")."""
        if self._stale(msg):
            return
        if self.game.over:
            self._say("The game is over.")
            return
        if not self.match.bot_to_act():
            if msg.get("v") is None:
                self._say("It's your move, not the computer's.")
            return
        player = self.game.to_act
        self._run_hooks(self.before_computer_move)
        action = self.match.step()
        self._run_hooks(self.after_computer_move, player, action)
        self._refresh(announce=True)

    def _run_hooks(self, hooks: list, *args) -> None:
        """Run pane hooks; a failing hook is logged and never stops the game."""
        for hook in list(hooks):
            try:
                hook(self, *args)
            except Exception:  # noqa: BLE001
                log.exception("GameView hook %r failed", hook)

    def _on_undo(self, msg: dict | None = None) -> None:
        n = self.match.undo()
        self._replay_game = None
        self._shown_log = len(self.game.log)
        self._refresh()
        self._say(f"Took back {n} move{'s' if n != 1 else ''}. Your turn again.")

    def _on_pause(self, msg: dict) -> None:
        self.paused = bool(msg.get("paused", not self.paused))
        self._say("Paused: click Next computer move, or Play." if self.paused else "")
        self._refresh()

    def _on_speed(self, msg: dict) -> None:
        ms = _int(msg.get("ms"), DEFAULT_DELAY_MS)
        self.delay_ms = min(max(ms, 0), 5000)
        self._refresh()

    def _on_reveal(self, msg: dict | None = None) -> None:
        who = self.match.reveal()
        self._refresh()
        self._say(f"{self._name(who)}, these are your cards.")

    def _on_again(self, msg: dict | None = None) -> None:
        """Play again: the lesson's own callback, else the same start position again."""
        if not self.game.over:
            self._say("Finish this game first (or start a new one above).")
            return
        if self.on_play_again is not None:
            self.on_play_again(self)
        else:
            self.set_match(self.match.restart())
        self._say("A new game! Good luck.")

    def _on_read(self, msg: dict) -> None:
        """"Read the whole card": open Read a card with that card (if the viewer may see it)."""
        name = str(msg.get("name", ""))
        self._set_pane("read", True)
        if name in self.card_pick.options:
            self.card_pick.value = name

    def _on_explain(self, _button=None) -> None:
        """"Why can't I?": explain the typed move for the player to act."""
        text = (self.explain_text.value or "").strip()[:200]
        if not text:
            self.explain_out.value = "<i>Type a move first, for example: task Neural Network</i>"
            return
        if self.game.over:
            answer = "The game is over, so no move can be made."
        elif self.match.bot_to_act():
            answer = "It's the computer's move now. Ask again on your turn."
        elif self.viewer() is None:
            answer = "Show your cards first (the button on the table), then ask."
        else:
            answer = self.game.explain(text)
        self.explain_out.value = f"<b>{_esc(text)}</b>: {_esc(_plain(answer))}"

    def _on_replay(self, delta, _button=None) -> None:
        total = len(self.game.history)
        if delta == "start":
            step = 0
        elif delta == "end":
            step = total
        else:
            step = min(max(self._replay_step + int(delta), 0), total)
        self._replay_to(step)

    def _replay_to(self, step: int) -> None:
        """Show the game as it was after ``step`` actions, on a copy rebuilt from its record."""

        record = self.game.to_record()
        actions = list(record.get("actions", []))
        step = min(max(step, 0), len(actions))
        if self._replay_game is not None and step == self._replay_step + 1:
            self._replay_game.apply(actions[step - 1])  # one step forward: no rebuild needed
        else:
            self._replay_game = Game.from_record(dict(record, actions=actions[:step]))
        self._replay_step = step
        g = self._replay_game
        seat = self.match.seat_view()
        state = table_state(g, self.viewer(), seat=seat, names=(self._name(0), self._name(1)))
        state.update(v=step, status=f"Replay: after move {step} of {len(actions)}", step="", title="")
        self.replay_table.state = state
        self.replay_label.value = (f"<b>Replay: after move {step} of {len(actions)}</b> "
                                   f"(turn {_int(getattr(g, 'turn', 0))}). The real game is not changed.")

    def _on_card_pick(self, change) -> None:
        name = change.get("new") if isinstance(change, dict) else None
        if self._quiet:
            return
        if not name:
            self.card_html.value = ""
            return

        self.card_html.value = render_card(load_cards()[name], scale=0.9)

    def _on_discuss_pick(self, change) -> None:
        name = change.get("new") if isinstance(change, dict) else None
        if name and not self._quiet:
            self._show_discuss(name)

    # -- Discuss ----------------------------------------------------------------------------
    def _note_deployed(self, card_name: str) -> None:
        """Remember a deployed card and, with a journal, offer its Discuss question."""
        name = re.sub(r"\s*#\d+$", "", str(card_name))
        if name in self._deployed:
            self._deployed.remove(name)
        self._deployed.append(name)
        if self.journal is None:
            return
        self.discuss_area.layout.display = None
        self._quiet = True
        try:
            self.discuss_pick.options = list(reversed(self._deployed))
            self.discuss_pick.value = name
        finally:
            self._quiet = False
        self._show_discuss(name)

    def _show_discuss(self, name: str) -> None:
        if self.journal is None:
            return
        box = self._discuss_boxes.get(name)
        if box is None:

            box = DiscussBox(load_cards()[name], self.journal)
            self._discuss_boxes[name] = box
        if tuple(self.discuss_slot.children) != (box,):
            self.discuss_slot.children = [box]

    # -- drawing ----------------------------------------------------------------------------
    def _log_texts(self) -> list[str]:
        """The log lines the viewer may read (the engine's narration, without rule numbers)."""
        viewer = self.match.viewer()
        log = self.game.log_for(viewer) if viewer in (0, 1) else self.game.log
        return [_plain(e.text) for e in log]

    def _status_text(self) -> str:
        g, m = self.game, self.match
        viewer = m.viewer()
        if g.over:
            if g.winner is None:
                return "It's a draw: nobody reached 15 Tokens."
            if len(m.humans) == 1:
                return "You win!" if g.winner == m.humans[0] else f"{self._name(g.winner)} wins!"
            return f"{self._name(g.winner)} wins!"
        who = g.to_act
        if m.bots[who] is not None:
            if self.autoplay and not self.paused:
                return "The computer is playing…"
            return "The computer's move: click Next computer move."
        if len(m.humans) == 1:
            return "Your turn" if who == m.humans[0] else f"{self._name(who)}'s turn"
        if viewer is None:
            return f"Pass the screen to {self._name(who)}."
        return f"Your turn, {self._name(who)}"

    def _step_text(self, legal: list) -> str:
        g = self.game
        if g.over:
            return f"Game over after turn {_int(getattr(g, 'turn', 0))}."
        kinds = {a.kind for a in legal}
        phase = getattr(g, "phase", "main")
        who = self._name(g.to_act)
        moves = len(g.history)
        count = f" · {moves} move{'s' if moves != 1 else ''} so far"
        if phase == "order" or "order" in kinds:
            return f"Getting ready: {who} won the die roll and decides who goes first." + count
        if phase == "mulligan" or kinds & {"keep", "mulligan"}:
            return f"Getting ready: {who} keeps this hand or takes a new hand, once." + count
        return f"Turn {_int(getattr(g, 'turn', 0))}: {self._name(g.active)}'s turn" + count

    def _banner(self) -> dict | None:
        g, m = self.game, self.match
        if not g.over:
            return None
        score = f"Final Tokens: {self._name(0)} {g.tokens[0]}, {self._name(1)} {g.tokens[1]}."
        if g.winner is None:
            return {"title": "It's a draw", "detail": score, "won": False}
        if len(m.humans) == 1:
            won = g.winner == m.humans[0]
            return {"title": "You win!" if won else "The computer wins" if m.bots[g.winner] is not None
                    else f"{self._name(g.winner)} wins", "detail": score, "won": won}
        return {"title": f"{self._name(g.winner)} wins!", "detail": score, "won": True}

    def _cover(self) -> dict | None:
        if not self.match.covered():
            return None
        who, other = self._name(self.game.to_act), self._name(1 - self.game.to_act)
        return {"title": f"Pass the screen to {who}.",
                "text": f"{other}, please look away. {who}: click the button to see your cards.",
                "button": f"I'm {who}: show my cards"}

    def _refresh(self, announce: bool = False) -> None:
        """Work out everything the page shows from the match (one way: match -> state)."""
        g, m = self.game, self.match
        viewer = m.viewer()
        legal = m.legal_moves()

        self.buttons = {str(a): MoveButton(self, a, HINTS.get(a.kind, "")) for a in legal}
        highlight = []
        for mover, a in m.last_bot_moves[-3:]:
            kind = getattr(a, "kind", None)
            if kind in _PUBLIC_KINDS:  # cards in play: anyone sees them
                highlight += [x for x in (getattr(a, "card", None), getattr(a, "target", None)) if x]
            elif kind == "train":  # face-down: light up the Training Set, never a card of that name
                highlight.append(f"ts:{mover}")
        if m.covered():  # what the last player typed or was told may name their cards: clear it
            self.explain_text.value = ""
            self.explain_out.value = ""
        state = table_state(g, viewer, seat=m.seat_view(), moves=legal, highlight=highlight,
                            prompt=m.prompt(viewer), names=(self._name(0), self._name(1)))
        self.status = self._status_text()
        texts = self._log_texts()
        if announce and len(texts) > self._shown_log and self._note_kind != "error":
            self.note = " ".join(texts[self._shown_log:][-2:])
            self._note_kind = "info"
        self._shown_log = len(texts)
        undo_n = m.undo_count()
        state.update(
            status=self.status, step=_plain(self._step_text(legal)), title=self.lesson,
            banner=self._banner(), cover=self._cover(), bot=m.bot_to_act(), has_bot=any(m.bots),
            autoplay=self.autoplay, paused=self.paused, delay=self.delay_ms,
            undo=undo_n, undo_shown=m.undo_policy != "off",
            undo_hint=("Take back your own moves of this turn" if m.undo_policy == "turn"
                       else "Take back your last move and the computer's moves after it"),
            can_again=True, game=self._game_no, scroll=self.scroll_into_view)
        self._state = state
        self._log_lines = texts

    def _push(self) -> None:
        """Send the state to the page with a new version number (the page's tick)."""
        self._version += 1
        state = dict(getattr(self, "_state", {}) or {})
        state["v"] = self._version
        state["note"] = {"text": self.note, "kind": self._note_kind} if self.note else None
        self.table.state = state
        # the table first: the page learns of a card from the table before any pane names it
        texts = getattr(self, "_log_lines", [])
        self.log_html.value = ("<b>What happened</b><br>" + "<br>".join(_esc(t) for t in texts[-LOG_TABLE_ROWS:])
                               if texts else "<i>Nothing has happened yet.</i>")
        self._draw_panes()
        self._offer_discuss()
        self._run_hooks(self.on_drawn)

    def _draw_panes(self) -> None:
        """Draw the open panes (closed ones are drawn when they are opened)."""
        if not hasattr(self, "_state"):
            return
        viewer = self.viewer()
        if self.pane_open("tables"):
            tables = dict(self.game.tables(self.match.seat_view()))
            if viewer is None:
                tables["hand"] = None
            empty = {"players": "No players.", "board": "No Systems or Tools in play.",
                     "hand": "Hidden: the cover is up." if viewer is None else "Your hand is empty.",
                     "log": "Nothing has happened yet."}
            for key, w in self.table_widgets.items():
                df = tables.get(key)
                if key == "log" and df is not None and len(df) > LOG_TABLE_ROWS:
                    df = df.tail(LOG_TABLE_ROWS)
                w.value = _table_html(df, empty[key], names=(self._name(0), self._name(1)))
        if self.pane_open("replay"):
            self._draw_moves(viewer)
        if self.pane_open("read"):
            self._draw_card_pick()

    def _draw_card_pick(self) -> None:
        """Offer the cards the viewer may read now: their hand (if shown) and the board."""
        st = self._state
        names = [f["name"] for f in st.get("hand", [])] + [c["face"]["name"] for c in st.get("board", [])]
        options = sorted(dict.fromkeys(names))
        if list(self.card_pick.options) != options:
            keep = self.card_pick.value if self.card_pick.value in options else None
            self._quiet = True
            try:
                self.card_pick.options = options
                self.card_pick.value = keep
            finally:
                self._quiet = False
            if keep is None:
                self.card_html.value = ""

    def _draw_moves(self, viewer: int | None) -> None:
        """The numbered move list; the other player's secret moves are masked (:meth:`_mask`)."""
        lines = []
        for i, (mover, text) in enumerate(self.game.moves):
            shown = self._mask(str(text), mover, viewer)
            lines.append(f"{i + 1}. {_esc(self._name(mover))}: {_esc(shown)}")
        self.moves_html.value = ("<b>Moves so far</b><br>" + "<br>".join(lines[-60:])
                                 if lines else "<i>No moves yet.</i>")

    @staticmethod
    def _mask(text: str, mover: int | None, viewer: int | None) -> str:
        """An action text as ``viewer`` may read it: the opponent's face-down and secret picks hidden."""
        low = text.lower()
        if low == "mulligan":  # the words on screen for everyone, the mover too
            return "new hand"
        if mover is not None and mover == viewer:
            return text
        if low.startswith("train "):
            return "train a card (face-down)"
        if low.startswith("choose ") and not _PUBLIC_CHOICE.match(low):
            return "choose (a secret choice)"
        return text


class NewGamePanel(widgets.VBox):
    """A "start a game" panel: pick starter decks (and names), click Start, play in a GameView.

    Used by the lessons "Play the computer" (``seats=("human", "greedy")``) and "Hot seat"
    (``seats=("human", "human")``). Starting again while a game is still going asks for a
    second click first, so one stray click never throws a game away.

    Args:
        seats: passed to :class:`GameView`.
        journal: passed to :class:`GameView` (Discuss boxes for deployed cards).
        lesson: passed to :class:`GameView`.
        allow_undo: passed to :class:`GameView`.
        seed: the game's seed (None: a new shuffle each time).
        undo, autoplay, delay_ms: passed to :class:`GameView` (undo policy, the computer's
            turn played by itself, its pause between moves).
        thinking, predict, hints, hint_bot: passed to :class:`GameView` (the "What was the
            computer thinking?" pane, guessing its moves, the Hint pane).

    After Start the deck and name choices fold away (the table then fits a 1366x768 window);
    "New game" shows them again. "Play again" at the end of a game deals the same decks again.

    With a journal and a known student (login, class-roster code or ``?student=``), every game
    is saved on the server after each move, and a page opened again offers "Continue your
    game" (same position, same seat, same undo policy) or "New game" (see
    :mod:`tokens_edu.widgets.keep`; attribute ``keeping``, None when games are not kept).

    Attributes:
        deck_pickers: the two Dropdowns (value: index into ``starter_decks()``).
        name_boxes: the two Text boxes for the players' names.
        start_button: Start (CSS class ``tokens-start``).
        view: the GameView of the current game, or None before Start.
    """

    def __init__(self, seats: Sequence = ("human", "greedy"), journal=None, lesson: str = "",
                 allow_undo: bool = True, seed: int | None = None, *, undo: str | None = None,
                 autoplay: bool = True, delay_ms: int = 500, thinking: bool | str = False,
                 predict: bool = False, hints: bool = False, hint_bot=None):
        super().__init__()
        self.add_class("tokens-new-game")

        self.seats = tuple(seats)
        self.bots = [_make_bot(s, i) for i, s in enumerate(self.seats)]  # checks seats now
        self.journal, self.lesson, self.allow_undo, self.seed = journal, lesson, allow_undo, seed
        self.undo, self.autoplay, self.delay_ms = undo, autoplay, delay_ms
        self.view_options = dict(thinking=thinking, predict=predict, hints=hints, hint_bot=hint_bot)
        self.decks = starter_decks()
        options = [(d.name, i) for i, d in enumerate(self.decks)]
        defaults = ("Player 1", "Player 2")
        labels = []
        for i in (0, 1):
            labels.append("Computer" if self.bots[i] is not None else
                          ("Your" if sum(b is None for b in self.bots) == 1 else f"Player {i + 1}'s"))
        self.deck_pickers = [
            widgets.Dropdown(options=options, value=(0 if i == 0 else min(len(options) - 1, 7)),
                             description=f"{labels[i]} deck", style={"description_width": "initial"})
            for i in (0, 1)
        ]
        me = self._student_name()  # the page's student (journal or ?student=), for the first human seat
        first_human = next((i for i in (0, 1) if self.bots[i] is None), None)
        self.name_boxes = [
            widgets.Text(value=("Computer" if self.bots[i] is not None else (me if i == first_human else "")),
                         placeholder=defaults[i],
                         description=f"{'Computer' if self.bots[i] is not None else labels[i]} name",
                         disabled=self.bots[i] is not None, style={"description_width": "initial"})
            for i in (0, 1)
        ]
        for i, box in enumerate(self.name_boxes):
            box.add_class(f"tokens-name-{i}")
        self.start_button = widgets.Button(description="Start", tooltip="Start a new game with these decks",
                                           button_style="primary", icon="play")
        self.start_button.add_class("tokens-start")
        self.start_button.on_click(self._on_start)
        self.note = widgets.HTML()
        self.note.add_class("tokens-message")
        self.page_note = widgets.HTML(f'<span style="color:#555">{_esc(PAGE_ONLY_NOTE)}</span>')
        self.page_note.add_class("tokens-page-note")
        self.slot = widgets.VBox()
        self.view: GameView | None = None
        self._confirm = False  # Start was clicked once while a game was still going
        rows = [widgets.HBox([self.name_boxes[i], self.deck_pickers[i]]) for i in (0, 1)]
        self.setup = widgets.VBox(rows + [widgets.HBox([self.start_button, self.page_note])])
        self.setup.add_class("tokens-new-game-setup")
        self.new_button = widgets.Button(description="New game", tooltip="Choose decks and start a new game",
                                         icon="plus", layout=widgets.Layout(width="auto", display="none"))
        self.new_button.add_class("tokens-new")
        self.new_button.on_click(self._on_new)
        self.children = [self.setup, widgets.HBox([self.new_button, self.note]), self.slot]
        # Games kept on the server after each move, and "Continue your game" (widgets/keep.py)

        self.keeping = Keeping.for_panel(self)
        if self.keeping is not None:
            self.page_note.value = f'<span style="color:#555">{_esc(KEPT_NOTE)}</span>'
            self.children = [self.keeping.box, *self.children]
            self.keeping.offer()

    def _policy(self) -> str:
        """The undo policy of this panel's games (as GameView works it out)."""
        if not self.allow_undo:
            return "off"
        return self.undo if self.undo is not None else "turn"

    def _show_match(self, match: Match) -> None:
        """Put ``match`` on the table: a new GameView the first time, then the same table."""
        if self.view is None:
            self.view = GameView(match, journal=self.journal, lesson=self.lesson, autoplay=self.autoplay,
                                 delay_ms=self.delay_ms, on_play_again=self._play_again, keep=False,
                                 **self.view_options)
            self.view.scroll_into_view = True
            self.view._refresh()
            self.view._push()
            self.slot.children = [self.view]
        else:  # the same table, a new game on it (no new widgets to send)
            self.view.set_match(match)
        match.on_move.append(self._game_goes_on)
        self.setup.layout.display = "none"
        self.new_button.layout.display = None

    def _game_goes_on(self, *_) -> None:
        """A move was made: a "Click Start again" warning (e.g. from a double click on Start)
        is out of date, so it goes."""
        if self._confirm:
            self._confirm = False
            self.note.value = ""

    def _on_new(self, _button=None) -> None:
        """New game: show the deck and name choices again (the game goes on until Start)."""
        self.setup.layout.display = None
        self.new_button.layout.display = "none"

    def _play_again(self, view: "GameView") -> None:
        """Play again: the same decks and names, a new shuffle (or the same seed if one was given)."""

        game = Game.new(self._decks[0], self._decks[1], seed=self.seed, names=self._names)
        match = Match(game, seats=self.seats, undo=view.match.undo_policy)
        view.set_match(match)
        if self.keeping is not None:
            self.keeping.started(match)

    def _student_name(self) -> str:
        """The student's name if the page knows it: the journal's, else the ``?student=`` query.

        Returns "" when unknown (or when reading it fails: a name is only a convenience).
        """
        try:
            name = getattr(self.journal, "student", None) if self.journal is not None else None
            if not name:

                name = student_from_query()
            return _short(name) if name and str(name).strip() else ""
        except Exception:  # noqa: BLE001
            log.debug("NewGamePanel: no student name", exc_info=True)
            return ""

    def _on_start(self, _button=None) -> None:
        """Start: build a new Game from the chosen decks and names, shown in a GameView."""
        try:

            if self.view is not None and not self.view.game.over and not self._confirm:
                self._confirm = True
                self.note.value = ('<span style="color:#b00020">⚠ A game is still going. Click Start again '
                                   "to leave it and begin a new one.</span>")
                return
            self._confirm = False
            me = self._student_name()  # read again: with a preheated kernel the query comes late
            for i, box in enumerate(self.name_boxes):
                if self.bots[i] is None and not box.value.strip() and me and \
                        i == next(j for j in (0, 1) if self.bots[j] is None):
                    box.value = me
            names = tuple(_short(box.value.strip() or box.placeholder) for box in self.name_boxes)
            if names[0] == names[1]:
                names = (names[0], names[1] + " 2")
            self._names = names
            self._decks = [self.decks[p.value] for p in self.deck_pickers]
            game = Game.new(self._decks[0], self._decks[1], seed=self.seed, names=names)
            match = Match(game, seats=self.seats, undo=self._policy())
            self._show_match(match)
            if self.keeping is not None:
                self.keeping.started(match)
            self.note.value = f"<span>New game: {_esc(names[0])} against {_esc(names[1])}. Have fun!</span>"
        except ValueError as exc:
            log.info("NewGamePanel: refused: %s", exc)
            self.note.value = f'<span style="color:#b00020">⚠ {_esc(exc)}</span>'
        except Exception:  # noqa: BLE001
            log.exception("NewGamePanel: Start failed")
            self.note.value = f'<span style="color:#b00020">⚠ {_esc(_FRIENDLY_ERROR)}</span>'
