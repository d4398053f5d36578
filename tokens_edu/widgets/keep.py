"""Games kept on the server for :class:`~tokens_edu.widgets.NewGamePanel`: save and resume.

With a page session and a known student (a JupyterHub login, a class-roster code, or the page's
``?student=`` link when the class has no roster), every game started in a lesson's NewGamePanel
is saved in the answers' database after each move and each Undo (:mod:`tokens_edu.store.games`,
through the session's store). When the page is
opened again (a reload, a new tab, a kernel the server stopped), the panel offers
**Continue your game** (the same position, the same seat, the lesson's undo policy) or
**New game**. The saved record stays on the server; the page gets only the game's table as the
student may see it, and a one-line summary (turn, Tokens, number of moves).

Without a student name there is nothing to find a game by, so the game is not kept and the page
says, as before, that the game lives only in the page.

A name that is only typed or in the link (``?student=Bo``, no class list, no login) is not proof
of who is at the page: **Continue your game** then offers only a game this browser started (the
panel's invisible :class:`~tokens_edu.widgets.browser.BrowserKey` tells the kernel which browser
it is; each kept game stores a hash of its secret). Opening a classmate's link elsewhere never
takes their game over or shows their hand. The teacher still sees every game.

A :class:`~tokens_edu.widgets.GameView` made directly in a lesson (a scenario puzzle, or each
puzzle of a ``PuzzlePicker``) keeps its games the same way (:func:`keep_match`), so the teacher
can replay what each student tried; a puzzle is short, so a reopened page starts it afresh
instead of offering to continue. A puzzle is not a game (issue 28 part 7): it is saved only from
the student's first move in it (opening a lesson with five puzzles saves nothing), as
``kind="puzzle"`` (the dashboard's Games and Progress pages list games only), and its row names
the student in the student's seat, not the scenario's player ("Ada").

CSS classes: ``tokens-resume`` (the offer), ``tokens-continue`` (Continue your game),
``tokens-resume-new`` (New game), ``tokens-keep-note`` (a saving problem, in the panel's note).
"""

from __future__ import annotations

import html
import logging
import uuid

import ipywidgets as widgets

from ..content.decks import Deck
from ..players.match import Match
from ..present.words import clock
from ..session import PageSession, query_known, student_from_query
from ..store.games import GameKeeper
from .browser import BrowserKey

__all__ = ["Keeping", "KEPT_NOTE", "keep_match", "page_student", "is_puzzle"]

log = logging.getLogger(__name__)

#: Shown near Start when the game is kept.
KEPT_NOTE = ("Your game is saved after every move. If you reload or close the page, you can "
             "continue it when you open this lesson again.")


def _esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def page_student(session: PageSession, query_name=None) -> str:
    """Whose games this page keeps: the session's student (a JupyterHub login, a class-roster
    code, or a name given in code), else the page's ``?student=`` link; never a link's name
    when the class uses a roster (only a code names a student then). ``""`` when unknown.

    Args:
        session: the page's PageSession.
        query_name: a callable giving the ``?student=`` name (default:
            :func:`tokens_edu.session.student_from_query`).
    """
    if session.student:
        return session.student
    if session.roster_in_use:
        return ""
    try:
        if query_name is None:
            query_name = student_from_query
        return query_name() or ""
    except Exception:  # noqa: BLE001 (a name is only a convenience here)
        log.debug("Keeping games: no student name", exc_info=True)
        return ""


def _when(dt) -> str:
    try:
        return clock(dt)  # one clock on every page (present/words.py)
    except Exception:  # noqa: BLE001
        return ""


class Keeping:
    """Saves a NewGamePanel's games and offers to continue the last one.

    Made by :meth:`for_panel`; the panel calls :meth:`offer` once it is built and
    :meth:`started` whenever a new game is on its table.

    Attributes:
        store: the :class:`~tokens_edu.store.GameStore`. student, lesson: whose games.
        page: this page's id (a page that continues a game takes it over from another tab).
        keeper: the :class:`~tokens_edu.store.GameKeeper` of the game on the table, or None.
        box: the "Continue your game" offer (hidden when there is nothing to continue).
        browser_key: the invisible :class:`~tokens_edu.widgets.browser.BrowserKey` (in
            :attr:`box`): when the page says which browser it is, the offer is looked for again.
    """

    def __init__(self, panel, store, student: str, lesson: str):
        self.panel = panel
        self.store = store
        self.student = student
        self.lesson = lesson
        self.page = str(uuid.uuid4())
        self.keeper = None
        self.saved = None
        self._declined = False  # the student chose New game instead of the offer
        self.summary = widgets.HTML()
        self.continue_button = widgets.Button(description="Continue your game", button_style="primary",
                                              icon="play", layout=widgets.Layout(width="auto", min_height="44px"),
                                              tooltip="Go on from where your game stopped")
        self.continue_button.add_class("tokens-continue")
        self.continue_button.on_click(self._guard(self._on_continue))
        self.new_button = widgets.Button(description="New game", icon="plus",
                                         layout=widgets.Layout(width="auto", min_height="44px"),
                                         tooltip="Choose decks and start a new game")
        self.new_button.add_class("tokens-resume-new")
        self.new_button.on_click(self._guard(self._on_new))
        self.browser_key = BrowserKey(on_browser=self._on_browser)
        self.box = widgets.VBox([self.summary, widgets.HBox([self.continue_button, self.new_button],
                                                                layout=widgets.Layout(flex_flow="row wrap")),
                                 self.browser_key], layout=widgets.Layout(display="none"))
        self.box.add_class("tokens-resume")

    @classmethod
    def for_panel(cls, panel) -> "Keeping | None":
        """The keeping of ``panel`` (a NewGamePanel), or None when its games cannot be kept (no
        session, no student name, or the database cannot be opened: the game then lives in the
        page only, as before)."""
        session = panel.session
        if session is None:
            return None
        student = page_student(session)
        if not student:
            return None
        try:
            store = session.store.games
        except Exception:  # noqa: BLE001 (a lesson must open even when saving is impossible)
            log.warning("Keeping games: the store cannot be opened", exc_info=True)
            return None
        # the session's lesson is the lesson's id ("05-play-the-computer"); the panel's is a title
        return cls(panel, store, student, session.lesson or panel.lesson or "")

    # -- the offer -------------------------------------------------------------------------
    def _session(self) -> PageSession:
        return self.panel.session

    def _browser_filter(self) -> str | None:
        """None when the page's name is proven (any of the student's games); else the page's
        browser hash (``""`` until the page has said which browser it is: nothing matches)."""
        session = self._session()
        if session.trusted and session.student == self.student:
            return None
        return session.browser

    def _on_browser(self, secret: str) -> None:
        """The page said which browser it is: look for this browser's game (unless a game is
        already on the table)."""
        if self._session().set_browser(secret) and self.keeper is None and not self._declined:
            self.offer()

    def offer(self) -> bool:
        """Show "Continue your game" when the student has an unfinished game of this lesson
        (with a typed name: one this browser started). Returns True when it is offered."""
        try:
            saved = self.store.unfinished(self.student, self.lesson, browser=self._browser_filter())
        except Exception:  # noqa: BLE001
            log.warning("Keeping games: could not look for a saved game", exc_info=True)
            return False
        if saved is None:
            self.box.layout.display = "none"
            return False
        self.saved = saved
        when = _when(saved.updated_at)
        self.summary.value = (
            '<div style="font-size:15px;margin:4px 0"><b>You have a game that is not finished</b>'
            f'{" (saved at " + _esc(when) + ")" if when else ""}: {_esc(saved.summary())}.</div>')
        self.box.layout.display = None
        self.panel.setup.layout.display = "none"
        return True

    def _on_continue(self, _button=None) -> None:

        if self.saved is None:
            return
        saved = self.store.claim(self.saved.id, self.page)
        record = saved.record
        panel = self.panel
        policy = panel.undo if panel.undo is not None else ("turn" if panel.allow_undo else "off")
        if not panel.allow_undo:
            policy = "off"
        match = Match.from_record(record, seats=panel.seats, undo=policy)
        if "decks" in record:  # for "Play again": the same decks and names
            panel._decks = [Deck.from_names(names, name=f"Deck {i + 1}")
                            for i, names in enumerate(record["decks"])]
        panel._names = tuple(match.game.names)
        self.box.layout.display = "none"
        self.saved = None
        panel._show_match(match)
        self._keep(saved.id, match)
        panel.note.value = "<span>Here is your game, just as you left it.</span>"

    def _on_new(self, _button=None) -> None:
        self._declined = True
        self.box.layout.display = "none"
        self.panel.setup.layout.display = None  # the decks and names; Start begins a new game

    # -- saving ----------------------------------------------------------------------------
    def started(self, match) -> None:
        """A new game is on the table: stop the one it replaces (kept for the teacher) and keep
        this one from now on. Never raises (the game goes on without saving)."""
        try:
            if self.keeper is not None:
                self.store.stop(self.keeper.game_id)
            elif self.saved is not None:  # a new game instead of the offered one
                self.store.stop(self.saved.id)
                self.saved = None
                self.box.layout.display = "none"
            gid = self.store.start(match.game, self.student, self.lesson, self.panel.seats,
                                   match.undo_policy, page=self.page,
                                   browser=self._session().browser)
        except Exception as e:  # noqa: BLE001
            log.warning("Keeping games: could not start keeping a game", exc_info=True)
            self._problem(str(e) if isinstance(e, ValueError) else
                          "Your game can't be saved right now. You can still play it here.")
            self.keeper = None
            return
        self._keep(gid, match)

    def _keep(self, game_id: str, match) -> None:

        keeper = GameKeeper(self.store, game_id, self.page)
        keeper.on_problem = self._problem  # said as soon as a save fails (e.g. another tab took over)
        self.keeper = keeper

        def save(m, *_):
            if keeper is not self.keeper:  # an older game of this page: no longer kept
                return
            keeper.save(m.game)  # written in the background; a problem shows at the next move
            if keeper.problem:
                self._problem(keeper.problem)

        match.on_move.append(save)
        match.on_undo.append(save)

    def _problem(self, text: str) -> None:
        if text:
            self.panel.note.value = (f'<span class="tokens-keep-note" style="color:#b00020">'
                                     f"⚠ {_esc(text)}</span>")

    def _guard(self, fn):
        def wrapped(*args):
            try:
                fn(*args)
            except ValueError as e:
                self._problem(str(e))
            except Exception:  # noqa: BLE001 (Voila shows no tracebacks)
                log.exception("Keeping games: a click failed")
                self._problem("Sorry, that did not work. Try again, or start a new game.")
        return wrapped


def is_puzzle(game) -> bool:
    """True when ``game`` was set up from a scenario (a lesson's puzzle), not dealt from two decks."""
    try:
        return "scenario" in game.to_record()
    except Exception:  # noqa: BLE001 (a game that cannot say is a game)
        return False


def keep_match(view, match, page_known: bool = False) -> None:
    """Save ``match``'s game on the server after each move and Undo (a GameView's game).

    Does nothing when the view has no session or the student is not known, or when this match
    is already kept (a puzzle shown again keeps its one saved game). Never raises: a lesson
    plays on when saving is impossible. In a warm kernel whose page is not asked for yet
    (``page_known`` False and :func:`tokens_edu.session.query_known` False), keeping starts
    at the game's first move, when a student is surely there. A puzzle (a game from a
    scenario) always starts at its first move: a puzzle nobody touched is not saved, and it is
    saved as ``kind="puzzle"`` with the student's name in the student's seat.
    """
    if getattr(match, "_tokens_keeper", None) is not None:
        return
    session = view.session
    if session is None:
        return
    try:
        puzzle = is_puzzle(match.game)
        if not page_known and (puzzle or not query_known()):
            # A warm kernel running the lesson before its page is asked for: reading the
            # query now (a ?student= name or a roster ?code=) would make every later cell run
            # while the student waits (lesson 3 went from 2 s to 9 s for a class). Start
            # keeping at the first move instead.
            def first_move(m, *_):
                m.on_move.remove(first_move)
                keep_match(view, m, page_known=True)

            match.on_move.append(first_move)
            return
        student = page_student(session)
        if not student:
            return
        store = session.store.games
        page = getattr(view, "_tokens_page", None) or str(uuid.uuid4())
        view._tokens_page = page
        lesson = session.lesson or view.lesson or ""
        names = None
        if puzzle:  # the student's seat is theirs in the teacher's lists, not the scenario's "Ada"
            names = [student if s is None or (isinstance(s, str) and s.lower() == "human") else n
                     for n, s in zip(match.game.names, match.seats)]
        game_id = store.start(match.game, student, lesson, match.seats, match.undo_policy, page=page,
                              browser=session.browser, kind="puzzle" if puzzle else "game", names=names)
        match._tokens_keeper = GameKeeper(store, game_id, page).attach(match)
    except Exception:  # noqa: BLE001 (never break a lesson for this)
        log.warning("Keeping games: a game of a GameView cannot be kept", exc_info=True)
