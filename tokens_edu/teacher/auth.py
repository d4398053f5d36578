"""The dashboard's own login (when it does not run under JupyterHub): a token, or a password.

* The **token** is made when ``tokens-edu teacher`` starts and printed in a link to the login
  page (``login?token=...``). Only that page takes it (also typed in its form). It is a long
  random secret (192 bits): nobody guesses it, so it is never held back, whatever others try.
* A **password** the teacher chose (``--password-file`` or ``TOKENS_EDU_TEACHER_PASSWORD``) is
  taken only in the login form, never in an address. It must be at least
  :data:`MIN_PASSWORD` characters (:func:`password_problem` says why when it is not).
* Every other guess goes through one :class:`Throttle`: each wrong guess makes **the computer
  that made it** wait longer before its next guess is checked (1, 2, 4... seconds, at most a
  minute); no other computer waits, and nothing is ever locked. The server's own computer
  (a request from this computer that no proxy passed on) never waits: the teacher can always
  log in there. Secrets are compared in constant time, on their SHA-256 digests (so not even
  their length shows).

Where the dashboard cannot tell computers apart (behind a proxy every request comes from the
proxy's address), all its users share one wait for passwords; the token still works at once.

A logged-in browser holds a signed, HttpOnly, SameSite=Strict cookie for this dashboard only.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import secrets
import time
from collections import deque
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from .. import _moved
from .base import BaseHandler

__all__ = ["Throttle", "TokenAuth", "TokenAuthenticated", "LoginHandler", "LogoutHandler",
           "COOKIE", "OK", "WRONG", "WAIT", "MIN_PASSWORD", "password_problem",
           "own_computer"]

#: The login cookie's name.
COOKIE = "tokens_teacher"
#: What :meth:`Throttle.attempt` answers (:data:`WAIT`: this computer must wait first; the
#: guess was not checked).
OK, WRONG, WAIT = "ok", "wrong", "wait"

# Old names of this module (LOCKED: WAIT), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)
#: The shortest teacher password taken. With the throttle a computer gets at most one guess a
#: minute once it has guessed wrong 7 times, so a class of 30 computers tries at most about
#: 30 * 60 * 24 = 43,200 passwords a day; 12 letters have over 10**16 possibilities.
MIN_PASSWORD = 12


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be the teacher's password, in plain words, or None when it can."""
    if len(password) < MIN_PASSWORD:
        return (f"The teacher password must have at least {MIN_PASSWORD} characters (this one has "
                f"{len(password)}). There is no lock-out, so a class of 30 computers could try "
                "about 43,000 passwords a day: a short one could be guessed. A few words in a row "
                "are long and easy to type, like 'purple kettle on the moon'.")
    return None


def own_computer(remote_ip: str | None, headers) -> bool:
    """True when a request comes from this computer itself and no proxy passed it on (no
    ``Forwarded``, ``X-Forwarded-For`` or ``X-Real-Ip`` header)."""
    try:
        loopback = ipaddress.ip_address(remote_ip or "").is_loopback
    except ValueError:
        return False
    return loopback and not any(headers.get(h) for h in ("Forwarded", "X-Forwarded-For", "X-Real-Ip"))


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class Throttle:
    """Makes guessing a password slow for the computer that guesses, and for no one else.

    Args:
        delay: seconds the first wrong guess from a computer costs it; the n-th wrong guess
            within ``window`` costs ``delay * 2**(n-1)`` seconds, at most ``longest``. The
            answer to a wrong guess comes that late, and the computer's next guess is not
            checked before then (it is told to wait, unchecked).
        longest: the longest wait, in seconds.
        window: seconds a wrong guess is remembered.
        clock: a monotonic clock (seconds); sleep: an async sleep (both for tests).

    One guess per computer is checked at a time. The right secret forgets that computer's
    wrong guesses. Memory: one small entry per computer that guessed wrong in ``window``.
    """

    def __init__(self, delay: float = 1.0, longest: float = 60.0, window: float = 600.0,
                 clock: Callable[[], float] = time.monotonic, sleep=asyncio.sleep):
        self.delay, self.longest, self.window = delay, max(longest, delay), window
        self.clock, self.sleep = clock, sleep
        self._wrong: dict[str, deque] = {}
        self._next_for: dict[str, float] = {}
        self._busy: set[str] = set()

    def wait_for(self, client: str) -> float:
        """Seconds until ``client``'s next guess is checked (0 when it may guess now)."""
        return max(0.0, self._next_for.get(client, 0.0) - self.clock())

    def locked_for(self, client: str) -> float:
        """The old name of :meth:`wait_for` (a DeprecationWarning; removed in tokens-edu 0.4.0)."""
        _moved.warn_moved("Throttle.locked_for", "Throttle.wait_for")
        return self.wait_for(client)

    async def attempt(self, client: str, check: Callable[[], bool], free: bool = False) -> str:
        """Check a guess from ``client`` (an address) with ``check()``.

        Args:
            free: True for the server's own computer: it never waits.

        Returns:
            :data:`OK`, :data:`WRONG` (after the wait this wrong guess costs) or :data:`WAIT`
            (``check`` was not called: this computer must wait, or has a guess being checked).
        """
        if not free and (client in self._busy or self.wait_for(client) > 0):
            return WAIT
        if check():
            self._wrong.pop(client, None)
            self._next_for.pop(client, None)
            return OK
        if free:
            return WRONG
        cost = self._note_wrong(client)
        self._busy.add(client)
        try:
            await self.sleep(cost)
        finally:
            self._busy.discard(client)
        return WRONG

    def _note_wrong(self, client: str) -> float:
        """Remember a wrong guess; returns the seconds it costs its computer."""
        now = self.clock()
        mine = self._wrong.setdefault(client, deque())
        mine.append(now)
        while mine and mine[0] <= now - self.window:
            mine.popleft()
        cost = min(self.delay * 2 ** min(len(mine) - 1, 32), self.longest)
        self._next_for[client] = now + cost
        for old in [c for c, q in self._wrong.items() if not q or q[-1] <= now - self.window]:
            self._wrong.pop(old, None)
            self._next_for.pop(old, None)
        return cost


class TokenAuthenticated:
    """The token login's part of every page handler (a mixin, like JupyterHub's
    ``HubOAuthenticated``): who is logged in, and where the login is."""

    def get_current_user(self):
        return "teacher" if self.get_signed_cookie(COOKIE, max_age_days=1) == b"teacher" else None

    def get_login_url(self) -> str:
        """The login page, back to this page afterwards. An old-style link with ``?token=`` on
        any page is sent to the login page with its token (only that page checks it), and the
        token is left out of the page to come back to."""
        query = {k: v[-1].decode("utf-8", "replace") for k, v in self.request.query_arguments.items()}
        token = query.pop("token", "")
        back = self.request.path + ("?" + urlencode(query) if query else "")
        args = {"token": token} if token else {}
        return self.application.settings["base_url"] + "login?" + urlencode(dict(args, next=back))


class TokenAuth:
    """The token-or-password login, for :func:`tokens_edu.teacher.dashboard.make_app`.

    Args:
        token: the token to accept; None makes a random one (``secrets.token_urlsafe(24)``).
        password: a password to accept in the login form as well (None: only the token).
        throttle: the :class:`Throttle` every guess that is not the token goes through
            (default: the first wrong guess costs its computer 1 s, each next one twice as
            long, up to a minute).

    Attributes:
        token: the token (str). mixin: the handler mixin (:class:`TokenAuthenticated`).

    Raises:
        ValueError: the password is too short (:func:`password_problem`, plain words).
    """

    mixin = TokenAuthenticated

    def __init__(self, token: str | None = None, password: str | None = None,
                 throttle: Throttle | None = None):
        if password and password_problem(password):
            raise ValueError(password_problem(password))
        self.token = token or secrets.token_urlsafe(24)
        self.password = password or None
        self.throttle = throttle or Throttle()
        self._token = _digest(self.token)
        self._password = _digest(self.password) if self.password else None
        self._nothing = _digest(secrets.token_hex(16))  # compared with when there is no password

    def is_token(self, secret: object) -> bool:
        """True when ``secret`` is the token (constant time)."""
        given = _digest(secret.strip()) if isinstance(secret, str) else b""
        return hmac.compare_digest(given, self._token)

    def is_password(self, secret: object) -> bool:
        """True when ``secret`` is the password (constant time); False when there is none."""
        given = _digest(secret.strip()) if isinstance(secret, str) else b""
        same = hmac.compare_digest(given, self._password or self._nothing)
        return same and self._password is not None

    def handlers(self) -> list:
        """The login's routes (relative to the base URL)."""
        return [(r"login", LoginHandler), (r"logout", LogoutHandler)]


class LoginHandler(BaseHandler):
    """``GET login?token=...`` (the printed link), ``GET login`` (the form), ``POST login`` (the
    form: the token or the password). The token is taken at once; every other guess goes
    through the :class:`Throttle`."""

    @property
    def auth(self) -> TokenAuth:
        return self.application.settings["auth"]

    def safe_next(self, nxt: str) -> str:
        """Where to go after logging in: a page of this dashboard only (never another site)."""
        if any(ord(c) < 32 or ord(c) == 127 for c in nxt) or "\\" in nxt:
            return self.base  # a control character cannot go in a redirect (it was a 500)
        parts = urlsplit(nxt)
        if parts.scheme or parts.netloc or not nxt.startswith(self.base):
            return self.base
        return nxt

    def login_page(self, problem: str = "", status: int = 200) -> None:
        self.set_status(status)
        nxt = self.safe_next(self.get_argument("next", self.base))
        self.finish(self.render_template("login.html", title="Teacher login", problem=problem,
                                         next=nxt, password=self.auth.password is not None))

    def logged_in(self) -> None:
        self.set_signed_cookie(COOKIE, "teacher", expires_days=None, httponly=True,
                               samesite="Strict", path=self.base)
        self.redirect(self.safe_next(self.get_argument("next", self.base)))

    async def guess(self, secret: str, password_too: bool) -> None:
        """Log in with ``secret``: the token at once, else (``password_too``) the password
        through the throttle."""
        if self.auth.is_token(secret):  # 192 random bits: never held back by anyone's guesses
            self.logged_in()
            return
        client = self.request.remote_ip or "?"
        check = (lambda: self.auth.is_password(secret)) if password_too else (lambda: False)
        outcome = await self.auth.throttle.attempt(
            client, check, free=own_computer(self.request.remote_ip, self.request.headers))
        if outcome == OK:
            self.logged_in()
        elif outcome == WAIT:
            wait = max(1, int(self.auth.throttle.wait_for(client) + 0.999))
            self.set_header("Retry-After", str(wait))
            self.login_page(f"Wait {wait} second{'s' if wait != 1 else ''}, then try again: each "
                            "wrong try from this computer makes the next one wait longer. (The "
                            "link that tokens-edu teacher printed always works.)", 429)
        else:
            self.login_page("That is not right. Look at the window where tokens-edu teacher "
                            "is running for the token.", 403)

    async def get(self):
        token = self.get_query_argument("token", "")
        if token:
            await self.guess(token, password_too=False)
        elif self.current_user:
            self.redirect(self.safe_next(self.get_query_argument("next", self.base)))
        else:
            self.login_page()

    async def post(self):
        await self.guess(self.get_body_argument("secret", ""), password_too=True)


class LogoutHandler(BaseHandler):
    """``GET`` or ``POST logout``: forget the login in this browser and say so."""

    def get(self):
        self.clear_cookie(COOKIE, path=self.base)
        self.finish(self.render_template("logged_out.html", title="Logged out", hub_logout=None))

    post = get
