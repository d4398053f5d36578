"""Who is at this page, and how sure the page is of it: :class:`PageSession`.

A lesson page learns a name in one of these ways (strongest first):

``login``   the JupyterHub login (``JUPYTERHUB_USER``): a real sign-in; the name is locked.
``code``    a class-roster code (the personal link's ``?code=``, or typed in the Discuss box):
            only the student holds it (:mod:`tokens_edu.store.roster`).
``given``   a name the lesson's own code gave (``PageSession(lesson, student="Ana")``, or
            :meth:`PageSession.identify`): whoever runs that code decided it.
``typed``   a name typed in a name box, or put in the link (``?student=Bo``): anyone can type
            any name, so it is **not a key** to anyone's saved work.

The first three are *trusted*: the page may show that student's saved answers, drafts and games.
With a typed name, the page shows only what **its own browser** wrote (:mod:`.browser`): typing
"Bo" in another browser saves under the name Bo (the teacher sees it), but never shows or
overwrites Bo's work.

The session hands the store a :class:`~tokens_edu.store.Writer` per call (:meth:`PageSession.writer`);
the store never asks who is at the page. Example (in a lesson's first cell)::

    from tokens_edu.session import PageSession
    session = PageSession("01-read-a-card")
    DiscussBox("Chatbot", session=session)

and in a widget that saves::

    session.store.responses.save(session.writer(), session.lesson, "l01-guess", "Yes")
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

import sqlalchemy as sa

from .. import _moved
from ..store import JournalUnavailable, Stores, Writer
from ..store.roster import normalize_code as _normalize_code
from ..store.roster import roster_name as _roster_name
from ..store.schema import CODE_LENGTH
from ..store.writer import check_name as _check_name
from .address import code_from_query as _code_from_query
from .browser import browser_hash as _browser_hash
from .address import client_address as _client_address

__all__ = ["PageSession", "CODE_NEEDED", "NO_NAME"]

log = logging.getLogger(__name__)

# An old module name is this module (tokens_edu/_moved.py: MOVED); its other names
# live here now, each with a DeprecationWarning until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__, {
    "PageIdentity": "tokens_edu.session.page:PageSession",
    "query_string": "tokens_edu.session.address", "query_known": "tokens_edu.session.address",
    "student_from_query": "tokens_edu.session.address", "code_from_query": "tokens_edu.session.address",
    "browser_hash": "tokens_edu.session.browser", "check_name": "tokens_edu.store.writer",
    "normalize_code": "tokens_edu.store.roster", "roster_name": "tokens_edu.store.roster",
})

#: What a student reads when the class uses a roster and the page has no student's code yet.
CODE_NEEDED = "This class uses codes: type the code from your slip (not a name), then save."
#: What a student reads when the page has no name at all.
NO_NAME = "Type your name first, then save."


class PageSession:
    """The page's student (who, and how the page knows: see the module's words), its browser,
    its lesson, and its open stores.

    Making one reads nothing from the page: in a warm (preheated) kernel the page's address is
    not known until a student opens the page, so the ``?code=`` of a roster's personal link is
    read when the student is first asked for (:attr:`student`, :meth:`writer`).

    Args:
        lesson: the lesson's name (``"01-read-a-card"``), stored with every row (``""`` when
            not in a lesson).
        url: a SQLAlchemy database URL; None uses the store's default
            (:func:`tokens_edu.store.default_url`).
        student: a name given by the lesson's code (trusted); None leaves it to the page (a name
            box, a roster code). Under a JupyterHub login (``JUPYTERHUB_USER``) the login is the
            name and this is ignored.
        store: open :class:`~tokens_edu.store.Stores` to use instead of opening ``url``.
        read_only: for a teacher's reading tool: the page's address is never read.

    Raises:
        ValueError: the name is unusable or the lesson is not text (plain words). A store that
            cannot be used never raises here: see :attr:`problem`.
    """

    def __init__(self, lesson: str = "", url: str | None = None, student: str | None = None, *,
                 store: Stores | None = None, read_only: bool = False):
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        self.lesson = lesson
        self._listeners: list[Callable[[str], None]] = []
        hub_user = os.environ.get("JUPYTERHUB_USER", "").strip()
        self._locked = bool(hub_user)
        self._student: str | None = None
        self._how = ""  # "login", "code", "given" or "typed" (see the module's words)
        if self._locked:
            self._student, self._how = _check_name(hub_user), "login"
            if student is not None and student != self._student:
                log.info("Ignoring student=%r: the JupyterHub login %r is used.", student, hub_user)
        elif student is not None and str(student).strip():
            self._student, self._how = _check_name(student), "given"
        self._code = ""  # the roster code this page signed in with
        self._roster_seen = False
        self._code_failures = 0
        self._code_problem = ""  # why the page's ?code= did not sign in
        self._browser = ""  # browser_hash of the page's browser ("" until its front end says)
        self._page_checked = bool(self._locked or self._student or read_only)
        self.store = store if store is not None else Stores(url, read_only=read_only)

    # --- the store ------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The store's database URL."""
        return self.store.url

    @property
    def problem(self) -> str | None:
        """Why the store cannot be used now (plain words), or None."""
        return self.store.problem

    # --- who -------------------------------------------------------------------------------

    def _check_page(self) -> None:
        """Once: sign in with the page's ``?code=`` when it has one (a roster's personal link)."""
        if self._page_checked:
            return
        self._page_checked = True
        if self._student is not None or self._locked:
            return
        try:
            code = _code_from_query()
        except Exception:  # the page's query cannot be read: no sign-in, never a crash
            log.info("Could not read the page's code.", exc_info=True)
            return
        if code:
            if not self.roster_in_use:  # a ?code= link with no class list: the name box stays
                log.info("The page's code is ignored: this class has no class list.")
                return
            try:
                self.sign_in(code)
            except ValueError as e:
                self._code_problem = str(e)

    @property
    def student_locked(self) -> bool:
        """True when the name comes from the JupyterHub login and cannot be changed."""
        return self._locked

    @property
    def student(self) -> str | None:
        """The student's name (str), or None when the page has no name yet. In a lesson page
        with a class roster, the first look signs in with the page's ``?code=``."""
        self._check_page()
        return self._student

    @student.setter
    def student(self, name: str) -> None:
        """Set the name to save under (cleaned), as a name box does: a *typed* name (not
        trusted). This does not tell :meth:`on_identify` listeners.

        Raises:
            ValueError: empty, too long, locked to a login, or the class uses codes.
        """
        name = _check_name(name)
        self._check_page()
        if self._locked and name != self._student:
            raise ValueError(f"You are logged in as {self._student}, so your answers are saved "
                             "under that name.")
        if name != self._student and self.roster_in_use:
            raise ValueError(CODE_NEEDED)  # with a class roster, only a code gives a name
        if name != self._student:
            self._how, self._code = "typed", ""
        self._student = name

    @property
    def trusted(self) -> bool:
        """True when the page's name is proven (a login, a roster code, or given by the lesson's
        code): the page may show that student's saved work from any browser. False for a typed
        name, or none: the page shows only what its own browser wrote (:attr:`browser`)."""
        self._check_page()
        return self._how in ("login", "code", "given")

    @property
    def browser(self) -> str:
        """The hash of the page's browser secret (:func:`~tokens_edu.session.browser.browser_hash`),
        ``""`` until the page's front end has sent it (:meth:`set_browser`)."""
        return self._browser

    def set_browser(self, secret: object) -> bool:
        """Remember the page's browser (from its secret, sent by a front end), bound to the
        page's computer when the server tells it (:func:`~.browser.browser_hash`). Returns True
        when ``secret`` was a browser's secret (else nothing changes and False is returned)."""
        try:
            computer = _client_address()
        except Exception:  # noqa: BLE001 (the page's request cannot be read: unbound)
            computer = ""
        try:
            self._browser = _browser_hash(secret, computer)
        except ValueError:
            log.info("A page sent something that is not a browser's secret.")
            return False
        return True

    def writer(self, name: str | None = None) -> Writer:
        """The :class:`~tokens_edu.store.Writer` a store call takes: the page's student, how sure
        the page is of it, and its browser.

        Args:
            name: another name to read as (a name box's text not set yet): trusted only when it
                is the page's proven name; None: the page's student.

        Raises:
            ValueError: in plain words, when the page has no name yet ("Type your name first,
                then save."), or the class uses codes and the name was typed (:data:`CODE_NEEDED`).
        """
        if name is not None:
            name = _check_name(name)
            trusted = name == self.student and self.trusted
            if not trusted and self.roster_in_use:
                raise ValueError(CODE_NEEDED)
            return Writer(name, trusted=trusted, browser=self._browser)
        if not self.student:  # (a lesson page's ?code= is read here at the latest)
            raise ValueError(CODE_NEEDED if self.roster_in_use else NO_NAME)
        if self._how == "typed" and self.roster_in_use:
            raise ValueError(CODE_NEEDED)
        return Writer(self._student, trusted=self.trusted, browser=self._browser)

    def identify(self, name: str) -> None:
        """The page now knows who its student is (a roster login checked a code, or the lesson's
        code says so): set :attr:`student` as trusted and tell every :meth:`on_identify`
        listener, so the page's Discuss boxes show that student's saved work.

        Raises:
            ValueError: as the :attr:`student` setter (empty, too long, a different login, a
                class that uses codes).
        """
        self.student = name
        if not self._locked and self._how != "code":
            self._how = "given"
        for listener in list(self._listeners):
            try:
                listener(self._student)
            except Exception:
                log.exception("A listener of the student's name failed")

    def on_identify(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(name)`` each time :meth:`identify` names the page's student."""
        self._listeners.append(callback)

    @property
    def roster_in_use(self) -> bool:
        """True when the class has a roster (``tokens-edu roster add``) and there is no
        JupyterHub login: a student's name then comes only from their code (:meth:`sign_in`).
        Once seen, a roster is remembered for this page; until then it is looked up each time
        (one small query), so a roster made during a lesson counts at once. False when the
        store cannot be read."""
        if self._locked:
            return False
        if not self._roster_seen:
            try:
                self._roster_seen = bool(_roster_name(self.store.engine))
            except Exception:  # noqa: BLE001 (a store problem shows when saving)
                log.info("Could not read the class roster.", exc_info=True)
                return False
        return self._roster_seen

    @property
    def code(self) -> str:
        """The roster code this page signed in with (``""`` when none): lesson links carry it."""
        self._check_page()
        return self._code

    @property
    def code_problem(self) -> str:
        """Why the page's ``?code=`` did not sign in (plain words), or ``""``."""
        self._check_page()
        return self._code_problem

    def sign_in(self, code: object) -> str:
        """Take the student's name from their class-roster code, and tell the page
        (:meth:`identify`). Another student on the same screen signs in with their own code.

        Args:
            code: the code from the student's slip (any case; spaces and dashes ignored).

        Returns:
            str: the student's name.

        Raises:
            ValueError: under a JupyterHub login, or the code is not on the class list (plain
                words). After three wrong codes, each further one waits two seconds first.
            JournalUnavailable: the store cannot be read now.
        """
        if self._locked:
            raise ValueError(f"You are logged in as {self._student}, so your answers are saved "
                             "under that name.")
        self._page_checked = True  # a code typed now wins over the page's link
        normalized = _normalize_code(code)
        try:
            name = _roster_name(self.store.engine, normalized) if len(normalized) == CODE_LENGTH else None
        except sa.exc.SQLAlchemyError:
            log.warning("Reading the class roster failed", exc_info=True)
            raise JournalUnavailable("The class list cannot be read just now. Try again in a "
                                     "moment.") from None
        if name is None:
            self._code_failures += 1
            if self._code_failures > 3:
                time.sleep(2)  # a slip's code is typed once or twice, not guessed
            raise ValueError("That code is not on the class list. Check the code on your slip "
                             "and type it again.")
        self._code_failures = 0
        self._student, self._code, self._how = _check_name(name), normalized, "code"
        self.identify(self._student)
        return self._student

    def __repr__(self) -> str:
        who = self._student or "no name yet"
        return f"<PageSession {self.lesson!r} student={who!r} store={self.store.database!r}>"
