"""NewGamePanel: pick starter decks (and names), click Start, play on a :class:`GameView`.

Used by the lessons "Play the computer" (``seats=("human", "greedy")``) and "Hot seat"
(``seats=("human", "human")``). Moved here from ``game_view.py`` (which still exports it).

CSS classes: ``tokens-new-game`` (the panel), ``tokens-new-game-setup`` (the deck and name
choices), ``tokens-name-0`` / ``tokens-name-1`` (the name boxes), ``tokens-start``,
``tokens-new``, ``tokens-message``, ``tokens-page-note``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import ipywidgets as widgets

from ..content.decks import starter_decks
from ..game.game import Game
from ..players.match import Match, seat_bot
from ..present.page import short_name
from ..session import student_from_query
from .game_view import FRIENDLY_ERROR, GameView
from .keep import KEPT_NOTE, Keeping
from .panes import esc
from .who import given_session, journal_alias

__all__ = ["NewGamePanel", "PAGE_ONLY_NOTE", "COMPUTER_NAME"]

log = logging.getLogger(__name__)

#: Shown near Start: the game is not saved anywhere.
PAGE_ONLY_NOTE = ("This game lives only in this page. If you reload or close the page, "
                  "the game starts over.")
#: The least height of a control a student presses (WCAG 2.5.5 target size: 44x44 px, a fingertip).
TOUCH = "44px"
#: The setup's controls as large as a fingertip (ipywidgets draws its boxes and menus 28 px high).
_CSS = ("<style>.tokens-new-game .widget-text input, .tokens-new-game .widget-dropdown select"
        " { height: 44px; } .tokens-new-game .widget-text, .tokens-new-game .widget-dropdown"
        " { height: auto; }</style>")
#: A computer seat's name (its box is shown, locked).
COMPUTER_NAME = "Computer"


class NewGamePanel(widgets.VBox):
    """A "start a game" panel: pick starter decks (and names), click Start, play in a GameView.

    Used by the lessons "Play the computer" (``seats=("human", "greedy")``) and "Hot seat"
    (``seats=("human", "human")``). Starting again while a game is still going asks for a
    second click first, so one stray click never throws a game away.

    Args:
        seats: passed to :class:`GameView`.
        session: the page's :class:`~tokens_edu.session.PageSession`, passed to :class:`GameView`
            (Discuss boxes for deployed cards); ``journal=``: its old name (a DeprecationWarning
            until tokens-edu 0.4.0).
        lesson: passed to :class:`GameView`.
        allow_undo: passed to :class:`GameView`.
        seed: the game's seed (None: a new shuffle each time).
        undo, autoplay, delay_ms: passed to :class:`GameView` (undo policy, the computer's
            turn played by itself, its pause between moves).
        thinking, predict, hints, hint_bot: passed to :class:`GameView` (the "What was the
            computer thinking?" pane, guessing its moves, the Hint pane).

    After Start the deck and name choices fold away (the table then fits a 1366x768 window);
    "New game" shows them again. "Play again" at the end of a game deals the same decks again.

    With a session and a known student (login, class-roster code or ``?student=``), every game
    is saved on the server after each move, and a page opened again offers "Continue your
    game" (same position, same seat, same undo policy) or "New game" (see
    :mod:`tokens_edu.widgets.keep`; attribute ``keeping``, None when games are not kept).

    Attributes:
        deck_pickers: the two Dropdowns (value: index into ``starter_decks()``).
        name_boxes: the two Text boxes for the players' names.
        start_button: Start (CSS class ``tokens-start``).
        view: the GameView of the current game, or None before Start.
    """

    journal = journal_alias()

    def __init__(self, seats: Sequence = ("human", "greedy"), session=None, lesson: str = "",
                 allow_undo: bool = True, seed: int | None = None, *, undo: str | None = None,
                 autoplay: bool = True, delay_ms: int = 1500, thinking: bool | str = False,
                 predict: bool = False, hints: bool = False, hint_bot=None, journal=None):
        super().__init__()
        session = given_session(session, journal, "NewGamePanel")
        self.add_class("tokens-new-game")

        self.seats = tuple(seats)
        self.bots = [seat_bot(s, i) for i, s in enumerate(self.seats)]  # checks seats now
        self.session, self.lesson, self.allow_undo, self.seed = session, lesson, allow_undo, seed
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
                             description=f"{labels[i]} deck", style={"description_width": "initial"},
                             layout=widgets.Layout(max_width="100%", min_height=TOUCH))
            for i in (0, 1)
        ]
        me = self._student_name()  # the page's student (session or ?student=), for the first human seat
        first_human = next((i for i in (0, 1) if self.bots[i] is None), None)
        self.name_boxes = [
            widgets.Text(value=(COMPUTER_NAME if self.bots[i] is not None else (me if i == first_human else "")),
                         placeholder=defaults[i],
                         description=f"{'Computer' if self.bots[i] is not None else labels[i]} name",
                         disabled=self.bots[i] is not None, style={"description_width": "initial"},
                         layout=widgets.Layout(max_width="100%", min_height=TOUCH))
            for i in (0, 1)
        ]
        for i, box in enumerate(self.name_boxes):
            box.add_class(f"tokens-name-{i}")
        self.start_button = widgets.Button(description="Start", tooltip="Start a new game with these decks",
                                           button_style="primary", icon="play",
                                           layout=widgets.Layout(min_height=TOUCH, min_width="120px"))
        self.start_button.add_class("tokens-start")
        self.start_button.on_click(self._on_start)
        self.note = widgets.HTML()
        self.note.add_class("tokens-message")
        self.page_note = widgets.HTML(f'<span style="color:#555">{esc(PAGE_ONLY_NOTE)}</span>')
        self.page_note.add_class("tokens-page-note")
        self.slot = widgets.VBox()
        self.view: GameView | None = None
        self._confirm = False  # Start was clicked once while a game was still going
        wrap = dict(flex_flow="row wrap", align_items="center", max_width="100%")  # a phone: one under the other
        rows = [widgets.HBox([self.name_boxes[i], self.deck_pickers[i]], layout=widgets.Layout(**wrap)) for i in (0, 1)]
        self.setup = widgets.VBox(rows + [widgets.HBox([self.start_button, self.page_note], layout=widgets.Layout(**wrap))])
        self.setup.add_class("tokens-new-game-setup")
        self.new_button = widgets.Button(description="New game", tooltip="Choose decks and start a new game",
                                         icon="plus", layout=widgets.Layout(width="auto", display="none",
                                                                               min_height=TOUCH))
        self.new_button.add_class("tokens-new")
        self.new_button.on_click(self._on_new)
        self._style = widgets.HTML(_CSS, layout=widgets.Layout(display="none"))
        self.children = [self._style, self.setup, widgets.HBox([self.new_button, self.note], layout=widgets.Layout(**wrap)), self.slot]
        # Games kept on the server after each move, and "Continue your game" (widgets/keep.py)
        self.keeping = Keeping.for_panel(self)
        if self.keeping is not None:
            self.page_note.value = f'<span style="color:#555">{esc(KEPT_NOTE)}</span>'
            self.children = [self._style, self.keeping.box, *self.children[1:]]
            self.keeping.offer()

    def _policy(self) -> str:
        """The undo policy of this panel's games (as GameView works it out)."""
        if not self.allow_undo:
            return "off"
        return self.undo if self.undo is not None else "turn"

    def _show_match(self, match: Match) -> None:
        """Put ``match`` on the table: a new GameView the first time, then the same table."""
        if self.view is None:
            self.view = GameView(match, session=self.session, lesson=self.lesson, autoplay=self.autoplay,
                                 delay_ms=self.delay_ms, on_play_again=self._play_again, keep=False,
                                 **self.view_options)
            self.view.scroll_into_view = True
            self.view.redraw()
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
        """The student's name if the page knows it: the session's, else the ``?student=`` query.

        Returns "" when unknown (or when reading it fails: a name is only a convenience).
        """
        try:
            name = self.session.student if self.session is not None else None
            if not name:
                name = student_from_query()
            return short_name(name) if name and str(name).strip() else ""
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
            # a computer's seat is always "Computer" (its box is locked; the page can't rename it)
            names = tuple(COMPUTER_NAME if self.bots[i] is not None else short_name(box.value.strip() or box.placeholder)
                          for i, box in enumerate(self.name_boxes))
            if names[0] == names[1]:
                names = (names[0], names[1] + " 2")
            self._names = names
            self._decks = [self.decks[p.value] for p in self.deck_pickers]
            game = Game.new(self._decks[0], self._decks[1], seed=self.seed, names=names)
            match = Match(game, seats=self.seats, undo=self._policy())
            self._show_match(match)
            if self.keeping is not None:
                self.keeping.started(match)
            self.note.value = f"<span>New game: {esc(names[0])} against {esc(names[1])}. Have fun!</span>"
        except ValueError as exc:
            log.info("NewGamePanel: refused: %s", exc)
            self.note.value = f'<span style="color:#b00020">⚠ {esc(exc)}</span>'
        except Exception:  # noqa: BLE001
            log.exception("NewGamePanel: Start failed")
            self.note.value = f'<span style="color:#b00020">⚠ {esc(FRIENDLY_ERROR)}</span>'
