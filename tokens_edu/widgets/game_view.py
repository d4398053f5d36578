"""GameView: a live :class:`~tokens_edu.Game` played on a card table, for notebooks and Voila lessons.

A student plays a real game on it: against the computer (a bot in one seat; by default the
computer plays its whole turn by itself, one move at a time with a short pause, each move
highlighted on the table; Pause stops it and "Next computer move" steps), or against a
classmate on one screen ("hot seat", with a cover that hides the hand while the screen is
passed). Cards are drawn as small card faces (:class:`~tokens_edu.widgets.table.CardTable`,
an anywidget): click a move on a card ("Task", "Train", "Deploy": one click; "Audit…", then
the target card), or click a card to see all its moves beside the table; Escape cancels. Every
card and move is a button with a label that reads the move (Tab, Enter, screen readers), and
"All my moves as a list" lists every move.

The view is a small composition:

- the **match** (:class:`~tokens_edu.players.match.Match`: seats, bots, undo policy, the
  hot-seat cover) holds what is not drawing;
- the **presenter** (:func:`tokens_edu.present.present`) decides everything the page may show
  (board, hand, moves, prompt, status, banner, cover, masking) into one
  :class:`~tokens_edu.present.Page` per change, built from one observation;
- the **card table** draws the page's state; the **panes** under it
  (:mod:`tokens_edu.widgets.panes`: "Why can't I?", "What happened", "Moves and replay",
  "State tables", "Read a card") and the Discuss area draw from the same page;
- this class answers the page's messages and puts the parts together.

The page sends the kernel small messages, each with the version of the state it drew (a move
by its index in the moves it was sent); the kernel trusts none of them
(:mod:`tokens_edu.widgets.page_messages`).

Hidden information never reaches the browser: every state, pane and note comes from the
presenter's page for the viewer (see :mod:`tokens_edu.present.page`); in hot seat nothing of a
hand is in the page while the cover is up, not even in a closed pane.

Lessons and later features add panes with :meth:`GameView.add_pane`. With ``thinking=True`` a
"What was the computer thinking?" pane follows each computer move, and with ``hints=True`` a
Hint pane asks a search bot about the student's own move (:mod:`tokens_edu.widgets.thinking_pane`).

Stable CSS classes: ``tokens-game`` (the whole view), the table's classes (see
:class:`~tokens_edu.widgets.table.CardTable`: ``tokens-table``, ``tt-card``, ``tokens-action``,
``tokens-next``, ``tokens-undo``, ``tokens-pause``, ``tokens-reveal``, ``tokens-again``,
``tt-banner``, ``tokens-status``, ``tokens-tick``...), ``tokens-pane-toggle`` and
``tokens-toggle-<key>`` (the pane buttons), ``tokens-pane`` and ``tokens-pane-<key>`` (the
panes: ``explain``, ``log``, ``replay``, ``tables``, ``read``; inside them the classes listed
in each pane's module), ``tokens-discuss-area`` (:mod:`tokens_edu.widgets.panes.discuss`), and
in :class:`~tokens_edu.widgets.new_game.NewGamePanel` ``tokens-start``,
``tokens-new-game-setup``, ``tokens-page-note``.

Student-facing text carries no rule numbers ("(R8)"): those are for teachers and tests.

Example::

    from tokens_edu import Action, Game
    from tokens_edu.widgets import GameView
    view = GameView(Game.from_scenario("scenarios/03-audit.yaml"), seats=("human", "greedy"))
    view                                   # shows itself in a notebook
    view.buttons[Action.parse("task Neural Network")].click()   # what a click on that move does
"""

from __future__ import annotations

import functools
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from .. import _moved
from ..players.match import CAP_MESSAGE, Match
from ..present import Page, Seating, mask, present
from ..present.faces import plain
from .controls import Control as _Control
from .controls import MoveButton as _MoveButton
from .controls import MoveButtons
from .keep import keep_match
from .panes import NOBODY, Pane
from .panes.discuss import DiscussArea
from .panes.explain import ExplainPane
from .panes.log import LogPane
from .panes.read import ReadPane
from .panes.replay import ReplayPane
from .panes.tables import TablesPane
from .table import CardTable
from .thinking_pane import HintPane, ThinkingPane, hints_allowed
from .page_messages import answer
from .trust import Refused
from .who import given_session, journal_alias

__all__ = ["GameView", "FRIENDLY_ERROR", "DEFAULT_DELAY_MS"]

log = logging.getLogger(__name__)

#: The computer's pause between moves, in milliseconds ("normal" in the speed menu: each move
#: stays long enough to read; see :data:`tokens_edu.widgets.page_messages.SPEEDS`).
DEFAULT_DELAY_MS = 1500
#: How many drawings back a page's click is still understood (older ones get a calm note).
KEPT_DRAWINGS = 16
FRIENDLY_ERROR = (
    "Oops, something went wrong with that click. Nothing was lost: the game is as it was. "
    "Try again, or ask your teacher."
)
_CSS = ("<style>.tokens-game .widget-html-content { line-height: 1.35; }"
        " .tokens-game table.tokens-table { border-collapse: collapse; }"
        " .tokens-game table.tokens-table th, .tokens-game table.tokens-table td"
        " { text-align: left !important; padding: 2px 8px; vertical-align: top; }</style>")

# Old names of this module (Control, MoveButton: .controls; LOG_TABLE_ROWS: .panes.log;
# WIN_TOKENS: tokens_edu.present.faces; _make_bot: seat_bot; NewGamePanel, PAGE_ONLY_NOTE:
# .new_game), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)


class GameView(widgets.VBox):
    """A live Game on a card table: the viewer's hand and moves, the computer's turn played out.

    Args:
        game: a :class:`~tokens_edu.Game` (from ``Game.new`` or ``Game.from_scenario``), or a
            :class:`~tokens_edu.players.match.Match` (e.g. a resumed game:
            ``Match.from_record``). The view changes the game only through the match.
        seats: a pair, one entry per player: ``"human"``, ``"greedy"``, ``"random"`` or a bot
            with ``choose(game) -> Action``. Two humans is hot seat. Ignored for a Match.
        allow_undo: False turns Undo off (same as ``undo="off"``).
        undo: the undo policy (see :class:`~tokens_edu.players.match.Match`): ``"turn"``
            (default: only your own moves of this turn), ``"free"`` (take back your last decision
            and the computer's moves after it), ``"off"``.
        autoplay: True (default): the computer plays its whole turn by itself, one move every
            ``delay_ms``, with a Pause button. False: one "Next computer move" click per move.
        delay_ms: the pause between the computer's moves (int, milliseconds, 0 to 5000).
        session: the page's :class:`~tokens_edu.session.PageSession`; when given, each card
            deployed in the game offers its Discuss question (:mod:`tokens_edu.widgets.panes.discuss`).
            ``journal=`` is its old name (a DeprecationWarning until tokens-edu 0.4.0).
        lesson: a short title shown above the table (escaped).
        on_play_again: called with the view when "Play again" is pressed; by default the same
            start position is set up again (:meth:`Match.restart`).
        keep: with a session and a known student, save each game put on this table on the
            server after every move (:mod:`tokens_edu.widgets.keep`). NewGamePanel passes False.
        thinking: add the "What was the computer thinking?" pane: False (default), True (the
            pane starts closed), ``"open"``, or ``"beside"`` (open, beside the table on a wide
            screen, under it on a narrow one: :meth:`add_pane` ``beside=True``). predict: with ``thinking``, guess each move first.
        hints: add the Hint pane unless the teacher turned hints off
            (:func:`~tokens_edu.widgets.thinking_pane.hints_allowed`). hint_bot: its bot.

    Attributes (for tests, teachers and later features):
        match: the Match. game: ``match.game``. page: the presenter's :class:`Page` drawn now.
        table: the :class:`~tokens_edu.widgets.table.CardTable`.
        buttons: :class:`~tokens_edu.widgets.controls.MoveButtons`, Action ->
            :class:`~tokens_edu.widgets.controls.MoveButton`
            for each move offered now (``view.buttons[action].click()``).
        undo_button, next_button, pause_button, reveal_button, again_button:
            :class:`~tokens_edu.widgets.controls.Control`.
        note: the latest message to the student (plain text). status: the status line.
        panes, pane_titles, pane_buttons: the panes' widgets, titles and show/hide buttons by key.
        explain, log_pane, replay, tables, read: the built-in :class:`Pane` objects; discuss:
            the :class:`~tokens_edu.widgets.panes.discuss.DiscussArea`.
        thinking, hint: the :class:`ThinkingPane` and :class:`HintPane`, or None.
        before_computer_move, after_computer_move, on_drawn: lists of hooks for panes:
            ``hook(view)`` before a computer move, ``hook(view, player, action)`` after it,
            ``hook(view)`` after each drawing of the table.
        (Older names kept: ``explain_text``, ``explain_button``, ``explain_out``, ``log_html``,
        ``table_widgets``, ``tables_tab``, ``moves_html``, ``replay_start`` / ``_back`` /
        ``_fwd`` / ``_end``, ``replay_label``, ``replay_table``, ``card_pick``, ``card_html``,
        ``discuss_pick``, ``discuss_slot``, ``discuss_offer``, ``discuss_area``.)

    Raises:
        ValueError: bad seats, undo policy or delay (plain message).
        TypeError: ``game`` is neither a Game nor a Match.

    Rules: the view offers exactly ``game.legal_actions()`` (R7-R23 live in the engine); Tokens
    run to 15 (R25); hidden cards follow the viewer's observer (:class:`~tokens_edu.game.observe.Observer`).
    """

    journal = journal_alias()

    def __init__(self, game, seats: Sequence = ("human", "human"), allow_undo: bool = True,
                 session=None, lesson: str = "", *, undo: str | None = None, autoplay: bool = True,
                 delay_ms: int = DEFAULT_DELAY_MS, on_play_again: Callable | None = None,
                 keep: bool = True, thinking: bool | str = False, predict: bool = False,
                 hints: bool = False, hint_bot=None, journal=None):
        session = given_session(session, journal, "GameView")
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
        self.session = session
        self.lesson = lesson or ""
        self.autoplay = bool(autoplay)
        self.delay_ms = delay_ms
        self.paused = False
        self.on_play_again = on_play_again
        #: bring the table into the window when a game starts (NewGamePanel sets it: a click
        #: started the game; a lesson page with several tables must not jump on load)
        self.scroll_into_view = False
        self.buttons = MoveButtons()
        self.note = ""
        self._note_kind = "info"
        self.status = ""
        self.page: Page | None = None
        self._version = 0
        self._drawn: OrderedDict[int, Page] = OrderedDict()  # version -> the page drawn then
        self._game_no = 0
        self._shown_log = 0
        self._quiet = False  # kept for panes that set a widget without its callback running
        self.match: Match = match
        self._keep_games = bool(keep)
        self.before_computer_move: list[Callable] = []
        self.after_computer_move: list[Callable] = []
        self.on_drawn: list[Callable] = []
        self._build()
        self.thinking = (ThinkingPane(self, open=thinking in ("open", "beside"), predict=predict, beside=thinking == "beside")
                         if thinking else None)
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
        if self._keep_games and self.session is not None:
            keep_match(self, match)  # saved after each move, for the teacher; never raises
        self._game_no += 1
        self.paused = False
        self.replay.reset()
        self._shown_log = len(self.game.log)
        self.redraw()

    # -- building ----------------------------------------------------------------------------
    def _build(self) -> None:
        self.table = CardTable()
        self.table.handlers.update({kind: self._from_page for kind in
                                    ("move", "step", "undo", "pause", "speed", "reveal", "again", "read")})
        self._controls = {"step": self._on_step, "undo": self._on_undo, "pause": self._on_pause,
                          "reveal": self._on_reveal, "again": self._on_again}
        m = lambda: self.match  # noqa: E731 (the controls follow the match on the table now)
        self.undo_button = _Control(self, "undo", "Undo", lambda: m().undo_policy != "off",
                                   lambda: m().undo_count() > 0)
        self.next_button = _Control(self, "step", "Next computer move",
                                   lambda: m().bot_to_act() and (not self.autoplay or self.paused),
                                   lambda: m().bot_to_act())
        self.pause_button = _Control(self, "pause", "Pause", lambda: m().bot_to_act() and self.autoplay)
        self.reveal_button = _Control(self, "reveal", "Show my cards", lambda: m().covered())
        self.again_button = _Control(self, "again", "Play again", lambda: self.match.finished)

        self.panes: dict[str, widgets.Widget] = {}
        self.pane_titles: dict[str, str] = {}
        self.pane_buttons: dict[str, widgets.Button] = {}
        self._pane_objects: dict[str, Pane] = {}
        self._beside: set[str] = set()  # the keys of the panes beside the table
        self._pane_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._pane_box = widgets.VBox()
        # panes asked for beside the table (add_pane(..., beside=True)): to its right on a wide
        # screen, under it on a narrow one (the row wraps); hidden while it holds none
        self._side_box = widgets.VBox(layout=widgets.Layout(flex="1 1 320px", max_width="460px", min_width="0",
                                                            display="none"))
        self.table.layout = widgets.Layout(flex="3 1 860px", min_width="0", max_width="100%")
        self._table_row = widgets.HBox([self.table, self._side_box],
                                       layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                             width="100%", grid_gap="8px"))
        self.explain, self.log_pane, self.replay = ExplainPane(self), LogPane(self), ReplayPane(self)
        self.tables, self.read = TablesPane(self), ReadPane(self)
        for pane in (self.explain, self.log_pane, self.replay, self.tables, self.read):
            self._pane_objects[pane.key] = pane
            self.add_pane(pane.key, pane.title, pane.box)
        self.discuss = DiscussArea(self, self.session, hot_seat=self.hot_seat)
        self._older_names()
        self.children = [widgets.HTML(_CSS), self._table_row, self._pane_row, self._pane_box, self.discuss.box]

    def _older_names(self) -> None:
        """The names the panes' widgets had when they lived in this class (tests, lessons)."""
        e, r, t, rd, d = self.explain, self.replay, self.tables, self.read, self.discuss
        self.explain_text, self.explain_button, self.explain_out, self.explain_box = e.text, e.button, e.out, e.box
        self.log_html = self.log_pane.html
        self.table_widgets, self.tables_tab = t.widgets, t.tab
        self.moves_html, self.replay_label, self.replay_table = r.moves, r.label, r.board
        self.replay_start, self.replay_back, self.replay_fwd, self.replay_end = r.start, r.back, r.forward, r.end
        self.card_pick, self.card_html = rd.pick, rd.card
        self.discuss_pick, self.discuss_slot, self.discuss_offer, self.discuss_area = d.pick, d.slot, d.offer, d.box

    def add_pane(self, key: str, title: str, widget: widgets.Widget, open: bool = False,
                 beside: bool = False) -> widgets.Button:
        """Add a pane under the table with a show/hide button (reached with Tab).

        For lessons and later features (a "What was the computer thinking?" pane, a Hint).

        Args:
            key: a short id (letters, digits, dashes); the CSS classes are ``tokens-pane-<key>``
                and ``tokens-toggle-<key>``. title: the button's words. widget: the pane.
            open: show it at once.
            beside: put the pane beside the table, to its right, when the window is wide enough
                for both (the table at least 860 px, the pane 320 to 460 px: a 1366 px
                Chromebook); on a narrower screen it goes under the table. Its button stays
                with the others under the table.

        Returns:
            the show/hide Button.

        Raises:
            ValueError: ``key`` is already used or not a short id.
        """
        if not re.fullmatch(r"[a-z0-9-]{1,30}", str(key)) or key in self.panes:
            raise ValueError(f"Pane key {key!r} is taken or not a short id like 'thinking'.")
        widget.add_class("tokens-pane")
        widget.add_class(f"tokens-pane-{key}")
        button = widgets.Button(layout=widgets.Layout(width="auto", min_height="44px"))  # a fingertip (WCAG 2.5.5)
        button.add_class("tokens-pane-toggle")
        button.add_class(f"tokens-toggle-{key}")
        button.on_click(self.guard(functools.partial(self._on_toggle_pane, key)))
        self.panes[key], self.pane_titles[key], self.pane_buttons[key] = widget, title, button
        self._pane_row.children = tuple(self._pane_row.children) + (button,)
        if beside:
            self._beside.add(key)
            self._side_box.children = tuple(self._side_box.children) + (widget,)
        else:
            self._pane_box.children = tuple(self._pane_box.children) + (widget,)
        self._set_pane(key, open)
        return button

    def _set_pane(self, key: str, show: bool) -> None:
        """Open or close one pane. An opened pane is drawn before it is shown (so it never
        shows, even for a moment, what it held before)."""
        pane = self._pane_objects.get(key)
        if show and pane is not None and self.page is not None:
            pane.draw(self.page)
            pane.drawn_for = self.page.viewer
        self.panes[key].layout.display = None if show else "none"
        if key in self._beside:  # the space beside the table only while a pane there is open
            self._side_box.layout.display = None if any(self.pane_open(k) for k in self._beside) else "none"
        title = self.pane_titles[key]
        button = self.pane_buttons[key]
        button.description = f"{'▾' if show else '▸'} {title}"  # ▾ open, ▸ closed
        button.tooltip = f"{'Hide' if show else 'Show'} {title}"
        button.button_style = "primary" if show else ""  # "info" (teal) is 3.5:1 with white text

    def pane_open(self, key: str) -> bool:
        """True when the pane ``key`` is shown."""
        return self.panes[key].layout.display != "none"

    # -- callbacks: every one catches its own errors ------------------------------------------
    def guard(self, fn: Callable) -> Callable:
        """Wrap a callback: errors become a friendly note on the table and a log entry; the
        table is drawn again afterwards (its version grows, so the page knows it is done). A
        message the page could not have sent draws nothing."""
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                fn(*args, **kwargs)
            except Refused:
                return None
            except ValueError as exc:  # IllegalAction, MatchError, RecordError are ValueErrors
                log.info("GameView: refused: %s", exc)
                self._say(str(exc), kind="error")
            except Exception:  # noqa: BLE001 (a click must never fail silently)
                log.exception("GameView callback %s failed", getattr(fn, "__name__", fn))
                self._say(FRIENDLY_ERROR, kind="error")
            try:
                self._push()
            except Exception:  # noqa: BLE001
                log.exception("GameView: redraw failed")
            return None

        return wrapped

    _guard = guard  # the older name (panes of other modules use it)

    def _say(self, text: str, kind: str = "info") -> None:
        """Put ``text`` (rule numbers left out) in the table's note; ``kind``: info or error."""
        self.note = plain(text)
        self._note_kind = kind

    def _on_toggle_pane(self, key: str, _button=None) -> None:
        self._set_pane(key, not self.pane_open(key))

    # -- messages from the page ----------------------------------------------------------------
    def _from_page(self, msg: dict) -> None:
        """Every card-table message from the page: checked against what the page was sent
        (:func:`tokens_edu.widgets.page_messages.answer`), then answered."""
        self.guard(answer)(self, msg)

    def _move_from(self, page: Page, i: int) -> None:
        """Play move ``i`` of the moves ``page`` offered (an Action), if the game still offers it."""
        if self.match.capped():
            self._say(self._cap_message())
            return
        if self.game.over:
            self._say("The game is over. Click Play again for a new game.")
            return
        action = page.moves[i]
        if page is self.page:  # the drawing the student saw is the one now: no lookup
            self.match.play(action)
            self._refresh(announce=True)
            return
        offered = self.buttons.get(action)
        if offered is not None:  # drawn again since (a pane opened...), still offered
            self.match.play(offered.action)
            self._refresh(announce=True)
            return
        log.info("GameView: a click on a move no longer offered")
        played = self.game.move_stack
        if played and played[-1] == action:
            note = "That move was already made."
        elif self.match.bot_to_act():
            note = "Wait: the computer is playing its turn."
        elif self.viewer() is None:  # hot seat, cover up: an explanation would read the hand
            note = "Show your cards first (the button on the table)."
        else:
            note = f"'{action}' is not offered any more. " + plain(self.game.explain(action))
        if note not in self.note:
            self.note = (self.note + " " + note).strip() if self._note_kind != "error" else note
            self._note_kind = "info"

    # -- what each message does (also for Python's Control.click) -----------------------------
    def _after_move(self, match, player, action) -> None:
        """Match hook: a move was made (by anyone). A deployed card's Discuss question is
        offered once the table has been drawn, so the page learns of the card from the table."""
        if getattr(action, "kind", None) == "deploy" and getattr(action, "card", None):
            self.discuss.deployed_card(action.card)

    def _on_step(self, msg: dict | None = None) -> None:
        """One computer move (the page's timer, or "Next computer move")."""
        if self.match.capped():
            self._say(self._cap_message())
            return
        if self.game.over:
            self._say("The game is over.")
            return
        if not self.match.bot_to_act():
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
        self.replay.reset()
        self._shown_log = len(self.game.log)
        self._refresh()
        self._say(f"Took back {n} move{'s' if n != 1 else ''}. Your turn again.")

    def _on_pause(self, msg: dict) -> None:
        self.paused = bool(msg.get("paused", not self.paused))
        self._say("Paused: click Next computer move, or Play." if self.paused else "")
        self._refresh()

    def _on_speed(self, msg: dict) -> None:
        ms = msg.get("ms")
        self.delay_ms = min(max(ms, 0), 5000) if isinstance(ms, int) else DEFAULT_DELAY_MS
        self._refresh()

    def _on_reveal(self, msg: dict | None = None) -> None:
        who = self.match.reveal()
        self._refresh()
        self._say(f"{self.page.names[who]}, these are your cards.")

    def _on_again(self, msg: dict | None = None) -> None:
        """Play again: the lesson's own callback, else the same start position again."""
        if not self.match.finished:
            self._say("Finish this game first (or start a new one above).")
            return
        if self.on_play_again is not None:
            self.on_play_again(self)
        else:
            self.set_match(self.match.restart())
        self._say("A new game! Good luck.")

    @staticmethod
    def _cap_message() -> str:
        return CAP_MESSAGE

    def _on_read(self, msg: dict) -> None:
        """"Read the whole card": open Read a card with that card (if the viewer may see it)."""
        self._set_pane("read", True)
        self.read.show(str(msg.get("name", "")))

    # -- drawing ----------------------------------------------------------------------------
    @staticmethod
    def _mask(action, mover: int | None, viewer: int | None) -> str:
        """A move played (an Action) by ``mover`` as ``viewer`` may read it: the observer's
        words (:func:`tokens_edu.present.mask`)."""
        return mask(action, mover, viewer)

    def _refresh(self, announce: bool = False) -> None:
        """Ask the presenter for the page (one way: match -> page) and the moves it offers."""
        m = self.match
        page = present(m.game, m.viewer(), Seating.of(
            m, autoplay=self.autoplay, paused=self.paused, delay_ms=self.delay_ms, title=self.lesson,
            game_no=self._game_no, scroll=self.scroll_into_view))
        self.page = page
        self.buttons = MoveButtons({a: _MoveButton(self, page, i) for i, a in enumerate(page.moves)})
        self.status = page.status
        if page.covered and self._note_kind == "error":
            self.note = ""  # what went wrong for the last player is not for the next one's eyes
        if announce and len(page.log) > self._shown_log and self._note_kind != "error":
            self.note = " ".join(page.log[self._shown_log:][-2:])
            self._note_kind = "info"
        if announce and m.capped():  # the move that reached the cap: say why the game stops
            self.note, self._note_kind = self._cap_message(), "info"
        self._shown_log = len(page.log)

    def redraw(self) -> None:
        """Work out the page again from the match and send it (after a change made outside the
        view, e.g. moves played on ``view.match`` in Python)."""
        self._refresh()
        self._push()

    def _push(self) -> None:
        """Send the page to the browser with a new version number (the page's tick), then the
        panes and the Discuss area (the table first: the page learns of a card from it)."""
        if self.page is None:
            return
        self._version += 1
        self._drawn[self._version] = self.page
        while len(self._drawn) > KEPT_DRAWINGS:
            self._drawn.popitem(last=False)
        note = {"text": self.note, "kind": self._note_kind} if self.note else None
        self.table.state = self.page.state(self._version, note)
        self._draw_panes(self.page)
        self.discuss.offer_pending()
        self._run_hooks(self.on_drawn)

    def _draw_panes(self, page: Page) -> None:
        """Draw the open panes; empty a closed one drawn for other eyes (hot seat)."""
        for key, pane in self._pane_objects.items():
            if self.pane_open(key) or pane.drawn_when_closed:
                pane.draw(page)
                pane.drawn_for = page.viewer
            elif pane.drawn_for is not NOBODY and (pane.drawn_for != page.viewer or page.covered):
                pane.clear()
                pane.drawn_for = NOBODY
