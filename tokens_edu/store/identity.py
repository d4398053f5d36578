"""Who the page's student is, and how sure the page is of it.

A lesson page learns a name in one of these ways (strongest first):

``login``   the JupyterHub login (``JUPYTERHUB_USER``): a real sign-in; the name is locked.
``code``    a class-roster code (the personal link's ``?code=``, or typed in the Discuss box):
            only the student holds it (:mod:`tokens_edu.store.roster`).
``given``   a name the lesson's own code gave (``Journal(student="Ana")``, or
            :meth:`PageIdentity.identify`): whoever runs that code decided it.
``typed``   a name typed in a name box, or put in the link (``?student=Bo``): anyone can type
            any name, so it is **not a key** to anyone's saved work.

The first three are *trusted*: the page may show that student's saved answers, drafts and games.
With a typed name, the page shows only what **its own browser** wrote: each browser keeps a
random secret (the Discuss box's and the game keeper's front end make it once, keep it in the
browser's ``localStorage`` and send it to the kernel), and every answer, draft and game is stored
with a hash of it (:func:`browser_hash`). Typing "Bo" in another browser saves under the name Bo
(the teacher sees it), but never shows or overwrites Bo's work. What this does not cover: two
students sharing one browser profile share its secret, and a private window forgets it when
closed. A class list (or JupyterHub) closes both gaps, because the name is then proven.

Also here: reading the page's query (``?student=``, ``?code=``) from Voila, also in a warm
(preheated) kernel that runs the lesson before anyone asks for the page.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from collections.abc import Callable
from urllib.parse import parse_qs

import sqlalchemy as sa

from ..content.names import clean_name
from . import schema
from .db import JournalUnavailable

__all__ = ["PageIdentity", "CODE_NEEDED", "query_string", "query_known", "student_from_query",
           "code_from_query", "normalize_code", "check_name", "browser_hash", "roster_name"]

log = logging.getLogger(__name__)

#: What a student reads when the class uses a roster and the page has no student's code yet.
CODE_NEEDED = "This class uses codes: type the code from your slip (not a name), then save."

#: A browser's secret as its front end makes it: 22 to 128 letters, digits, ``-`` or ``_``.
_SECRET = re.compile(r"[A-Za-z0-9_-]{22,128}")

_query_cache: str | None = None


def _voila_ws_url() -> str:
    """Where a preheated kernel asks Voila for its page's request (as ``voila.utils`` does)."""
    env = os.environ.get
    server_url = env("VOILA_SERVER_URL", "/")
    base = env("VOILA_WS_BASE_URL", server_url)
    return (f"{env('VOILA_WS_PROTOCOL', 'ws')}://{env('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env('VOILA_APP_PORT', '8866')}{base}voila/query/{env('VOILA_KERNEL_ID', '')}")


def _wait_for_voila_request() -> None:
    """Block until Voila sends this preheated kernel its page request; copy it to os.environ.

    The same protocol as ``voila.utils.wait_for_request`` (Voila 0.5): one JSON message on the
    ``voila/query/<kernel id>`` websocket, holding ``QUERY_STRING`` and the other request
    variables. Done here with the small ``websockets`` client (a Voila dependency) because
    importing ``voila.utils`` in every kernel costs seconds and about 50 MiB (it imports the
    whole Jupyter server). Runs in a thread: the kernel's own event loop is already running.

    A warm kernel waits here, before any page asks for it, for as long as it stays in the pool.
    The server limits how long a page may take once it has taken the kernel; a lost connection
    ends the wait with an error (no name prefilled).
    """
    import asyncio  # only a warm kernel gets here: the others never load the websocket client
    import json
    import threading

    import websockets

    box: dict = {}

    async def receive():
        async with websockets.connect(_voila_ws_url(), open_timeout=5) as ws:
            return await ws.recv()

    def run():
        try:
            box["msg"] = asyncio.run(receive())
        except Exception as e:  # reported below, in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=run, name="voila-request-info", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    for key, value in json.loads(box["msg"]).items():
        os.environ[key] = str(value)


def query_string() -> str:
    """The query part of the Voila page's address (``"student=ana&x=1"``), or ``""``.

    Voila gives the page's query to the kernel as ``os.environ["QUERY_STRING"]``. With
    preheated kernels (``VOILA_PREHEAT=True`` in the kernel) the kernel runs the notebook
    *before* anyone asks for the page, so that variable is not there yet; this waits for the
    page's request (:func:`_wait_for_voila_request`, falling back to Voila's own helper). A
    kernel is sent its request once, so the answer is remembered.

    Returns:
        str: the query string without the leading ``?`` (may be empty).
    """
    global _query_cache
    if _query_cache is not None:
        return _query_cache
    if os.environ.get("VOILA_PREHEAT", "False") == "True":
        try:
            try:
                _wait_for_voila_request()
                _query_cache = os.environ.get("QUERY_STRING") or ""
            except ImportError:
                from voila.utils import get_query_string  # only without the websockets client

                _query_cache = get_query_string() or ""
        except Exception:  # the server went away: no prefill, never a crash
            log.info("Could not read the page's query from Voila.", exc_info=True)
            _query_cache = ""
        return _query_cache.lstrip("?")
    return (os.environ.get("QUERY_STRING") or "").lstrip("?")


def query_known() -> bool:
    """True when the page's query can be read at once; False in a preheated (warm) kernel whose
    page has not been asked for yet, where :func:`query_string` would wait for it.

    Code that only *may* need the student's name (keeping a game, say) should wait for a later
    moment when this is False: everything after the first reading runs while the student waits.
    """
    return os.environ.get("VOILA_PREHEAT", "False") != "True" or _query_cache is not None


def check_name(name: object) -> str:
    """A student's name cleaned (:func:`tokens_edu.content.names.clean_name`).

    Raises:
        ValueError: in plain words when it is not text, empty, too long (over
            :data:`~tokens_edu.store.schema.MAX_NAME` characters) or has a broken character.
    """
    if not isinstance(name, str):
        raise ValueError("Your name must be written as text.")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("That name has a broken character. Type it again.") from None
    name = clean_name(name)
    if not name:
        raise ValueError("Type your name first, then save.")
    if len(name) > schema.MAX_NAME:
        raise ValueError(f"That name is too long. Use at most {schema.MAX_NAME} letters.")
    return name


def student_from_query(query: str | None = None) -> str:
    """The ``student=`` value of the page's query, to prefill the name box (not a login).

    Args:
        query: a query string like ``"?student=ana"``; None reads it from the page
            (:func:`query_string`).

    Returns:
        str: the first ``student`` value cleaned as every typed name is, at most
        :data:`~tokens_edu.store.schema.MAX_NAME` characters; ``""`` when there is none.
    """
    if query is None:
        query = query_string()
    values = parse_qs(query.lstrip("?")).get("student", [])
    if not values:
        return ""
    return clean_name(values[0])[:schema.MAX_NAME].strip()


def normalize_code(text: object) -> str:
    """A class-roster code as stored: upper case, without spaces and dashes (``"kt4-pxm"`` ->
    ``"KT4PXM"``). Returns ``""`` for anything that is not text."""
    if not isinstance(text, str):
        return ""
    return "".join(ch for ch in text.upper() if ch not in " -_\t\r\n")[:32]


def code_from_query(query: str | None = None) -> str:
    """The ``code=`` value of the page's query (``"?code=KT4PXM"``), normalized; ``""`` if none.

    Args:
        query: a query string; None reads the page's own (:func:`query_string`, which waits
            for Voila's request in a preheated kernel).
    """
    if query is None:
        query = query_string()
    values = parse_qs((query or "").lstrip("?")).get("code", [])
    return normalize_code(values[0]) if values else ""


def browser_hash(secret: object) -> str:
    """What is stored for a browser's secret: its SHA-256, 64 hex digits.

    Args:
        secret: the secret the page's front end sent (22 to 128 of ``A-Z a-z 0-9 - _``).

    Raises:
        ValueError: ``secret`` is not such a string (nothing is stored then).
    """
    if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
        raise ValueError("That is not a browser's secret.")
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def roster_name(engine: sa.Engine, code: str | None = None):
    """With ``code``: the class list's name for it (None if none); without: whether the class
    list has anyone. A database without the table has an empty class list."""
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table(schema.roster.name):
            return None if code is not None else False
        if code is None:
            return conn.execute(sa.select(schema.roster.c.code).limit(1)).first() is not None
        return conn.execute(sa.select(schema.roster.c.name).where(schema.roster.c.code == code)).scalar()


class PageIdentity:
    """The page's student: who it is, how the page knows (see the module's words), and the
    page's browser. A part of :class:`~tokens_edu.store.Journal` (which gives :attr:`engine`).

    Attributes read by the store: :attr:`student`, :attr:`trusted`, :attr:`browser`.
    """

    engine: sa.Engine  # given by the Journal

    def _init_identity(self, student: str | None, read_only: bool) -> None:
        self._listeners: list[Callable[[str], None]] = []
        hub_user = os.environ.get("JUPYTERHUB_USER", "").strip()
        self._locked = bool(hub_user)
        self._student: str | None = None
        self._how = ""  # "login", "code", "given" or "typed" (see the module's words)
        if self._locked:
            self._student, self._how = check_name(hub_user), "login"
            if student is not None and student != self._student:
                log.info("Ignoring student=%r: the JupyterHub login %r is used.", student, hub_user)
        elif student is not None and str(student).strip():
            self._student, self._how = check_name(student), "given"
        self._code = ""  # the roster code this page signed in with
        self._roster_seen = False
        self._code_failures = 0
        self._code_problem = ""  # why the page's ?code= did not sign in
        self._browser = ""  # browser_hash of the page's browser ("" until its front end says)
        # The page's ?code= is read when the page's student is first asked for (not here): a
        # warm kernel waits for its page's address at that moment, so the lesson's cells
        # before it are ready before a student opens the page.
        self._page_checked = bool(self._locked or self._student or read_only)

    def _check_page(self) -> None:
        """Once: sign in with the page's ``?code=`` when it has one (a roster's personal link)."""
        if self._page_checked:
            return
        self._page_checked = True
        if self._student is not None or self._locked:
            return
        try:
            code = code_from_query()
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
        """The student's name (str), or None when the page has not asked for it yet. In a
        lesson page with a class roster, the first look signs in with the page's ``?code=``."""
        self._check_page()
        return self._student

    @student.setter
    def student(self, name: str) -> None:
        """Set the name to save under (cleaned), as a name box does: a *typed* name (not
        trusted; see :attr:`trusted`). This does not tell :meth:`on_identify` listeners.

        Raises:
            ValueError: empty, too long, locked to a login, or the class uses codes.
        """
        name = check_name(name)
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
        """The hash of the page's browser secret (:func:`browser_hash`), ``""`` until the page's
        front end has sent it (:meth:`set_browser`)."""
        return self._browser

    def set_browser(self, secret: object) -> bool:
        """Remember the page's browser (from its secret, sent by a front end). Returns True when
        ``secret`` was a browser's secret (else nothing changes and False is returned)."""
        try:
            self._browser = browser_hash(secret)
        except ValueError:
            log.info("A page sent something that is not a browser's secret.")
            return False
        return True

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
                self._roster_seen = bool(roster_name(self.engine))
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
        normalized = normalize_code(code)
        try:
            name = roster_name(self.engine, normalized) if len(normalized) == schema.CODE_LENGTH else None
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
        self._student, self._code, self._how = check_name(name), normalized, "code"
        self.identify(self._student)
        return self._student

    def _check_roster(self) -> None:
        """With a class roster, refuse a name that was typed rather than signed in with a code."""
        if self._how == "typed" and self.roster_in_use:
            raise ValueError(CODE_NEEDED)
