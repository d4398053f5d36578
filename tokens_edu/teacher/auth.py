"""The dashboard's own login (when it does not run under JupyterHub): a token, or a password.

* The **token** is made when ``tokens-edu teacher`` starts and printed in a link to the login
  page (``login?token=...``). Only that page takes it (also typed in its form).
* A **password** the teacher chose (``--password-file`` or ``TOKENS_EDU_TEACHER_PASSWORD``) is
  taken only in the login form, never in an address.
* Every guess goes through one :class:`Throttle`: guesses are checked one at a time for the
  whole dashboard; each wrong guess makes the next check wait (longer for the same computer);
  a few wrong guesses from one computer lock it out for a while, and many from anywhere lock
  every login (the teacher who is logged in stays logged in). Secrets are compared in constant
  time, on their SHA-256 digests (so not even their length shows).

A logged-in browser holds a signed, HttpOnly, SameSite=Strict cookie for this dashboard only.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from .base import BaseHandler

__all__ = ["Throttle", "TokenAuth", "TokenAuthenticated", "LoginHandler", "LogoutHandler",
           "COOKIE", "OK", "WRONG", "LOCKED"]

#: The login cookie's name.
COOKIE = "tokens_teacher"
#: What :meth:`Throttle.attempt` answers.
OK, WRONG, LOCKED = "ok", "wrong", "locked"


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class Throttle:
    """Makes guessing a secret slow: one check at a time, a wait after every wrong guess, and
    a lock after a few.

    Args:
        delay: seconds a wrong guess costs: the next check by anyone waits this long; the n-th
            recent wrong guess from one computer is answered ``delay * 2**(n-1)`` seconds late,
            and its next guess is not checked before then.
        lock_after: wrong guesses from one computer within ``window`` seconds that lock it out.
        overall_lock_after: wrong guesses from all computers within ``window`` that lock every
            login.
        lock_for: seconds the first lock lasts; each further lock of the same computer (or of
            every login) within ``memory`` seconds lasts twice as long as the one before, up
            to ``longest_lock`` (a guesser who waits out each lock gets fewer guesses an hour,
            not the same number again and again).
        window: seconds a wrong guess is remembered.
        longest_lock: seconds the longest lock lasts.
        memory: seconds a lock is remembered for making the next one longer.
        clock: a monotonic clock (seconds); sleep: an async sleep (both for tests).

    The right secret forgets that computer's wrong guesses and locks (and, for every login,
    the earlier overall locks): the teacher who logs in starts afresh.
    """

    def __init__(self, delay: float = 1.0, lock_after: int = 5, overall_lock_after: int = 20,
                 lock_for: float = 300.0, window: float = 600.0, longest_lock: float = 3600.0,
                 memory: float = 86400.0,
                 clock: Callable[[], float] = time.monotonic, sleep=asyncio.sleep):
        self.delay, self.lock_after, self.overall_lock_after = delay, lock_after, overall_lock_after
        self.lock_for, self.window = lock_for, window
        self.longest_lock, self.memory = max(longest_lock, lock_for), memory
        self._locks: dict[str, deque] = {}  # when each computer was locked (within `memory`)
        self._all_locks: deque = deque()  # when every login was locked (within `memory`)
        self.clock, self.sleep = clock, sleep
        self._one_at_a_time: asyncio.Lock | None = None
        self._wrong: dict[str, deque] = {}
        self._all_wrong: deque = deque()
        self._locked_until: dict[str, float] = {}
        self._all_locked_until = 0.0
        self._next_check = 0.0
        self._next_for: dict[str, float] = {}

    def locked_for(self, client: str) -> float:
        """Seconds until ``client`` may guess again (0 when it may now)."""
        now = self.clock()
        return max(0.0, self._all_locked_until - now, self._locked_until.get(client, 0.0) - now)

    async def attempt(self, client: str, check: Callable[[], bool]) -> str:
        """Check a guess from ``client`` (an address) with ``check()``, in turn.

        Returns:
            :data:`OK`, :data:`WRONG` (after the wait a wrong guess costs) or :data:`LOCKED`
            (``check`` was not called).
        """
        if self.locked_for(client):
            return LOCKED
        if self._one_at_a_time is None:
            self._one_at_a_time = asyncio.Lock()
        async with self._one_at_a_time:
            if self.locked_for(client):
                return LOCKED
            wait = max(self._next_check, self._next_for.get(client, 0.0)) - self.clock()
            if wait > 0:
                await self.sleep(wait)
            if check():
                self._wrong.pop(client, None)
                self._next_for.pop(client, None)
                self._locks.pop(client, None)
                self._all_locks.clear()
                return OK
            cost = self._note_wrong(client)
        await self.sleep(cost)
        return WRONG

    def _note_wrong(self, client: str) -> float:
        """Remember a wrong guess; returns the seconds it costs its computer."""
        now = self.clock()
        mine = self._wrong.setdefault(client, deque())
        for q in (mine, self._all_wrong):
            q.append(now)
            while q and q[0] <= now - self.window:
                q.popleft()
        cost = min(self.delay * 2 ** (len(mine) - 1), self.lock_for)
        self._next_check = now + self.delay
        self._next_for[client] = now + cost
        if len(mine) >= self.lock_after:
            self._locked_until[client] = now + self._lock(self._locks.setdefault(client, deque()), now)
        if len(self._all_wrong) >= self.overall_lock_after:
            self._all_locked_until = now + self._lock(self._all_locks, now)
        for old in [c for c, q in self._wrong.items() if not q or q[-1] <= now - self.window]:
            self._wrong.pop(old, None)
            self._next_for.pop(old, None)
        for old in [c for c, t in self._locked_until.items() if t <= now]:
            self._locked_until.pop(old, None)
        for old in [c for c, q in self._locks.items() if not q or q[-1] <= now - self.memory]:
            self._locks.pop(old, None)
        return cost

    def _lock(self, locks: deque, now: float) -> float:
        """Note a lock starting ``now`` in ``locks`` (its earlier locks); returns its seconds:
        ``lock_for`` doubled for each earlier lock still remembered, at most ``longest_lock``."""
        while locks and locks[0] <= now - self.memory:
            locks.popleft()
        seconds = min(self.lock_for * 2 ** min(len(locks), 32), self.longest_lock)
        locks.append(now)
        return seconds


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
        throttle: the :class:`Throttle` every guess goes through (default: 1 s a wrong guess,
            5 wrong guesses lock a computer out for 5 minutes, 20 from anywhere lock all; each
            further lock twice as long, up to an hour).

    Attributes:
        token: the token (str). mixin: the handler mixin (:class:`TokenAuthenticated`).
    """

    mixin = TokenAuthenticated

    def __init__(self, token: str | None = None, password: str | None = None,
                 throttle: Throttle | None = None):
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
    form: the token or the password). Every guess goes through the :class:`Throttle`."""

    @property
    def auth(self) -> TokenAuth:
        return self.application.settings["auth"]

    def safe_next(self, nxt: str) -> str:
        """Where to go after logging in: a page of this dashboard only (never another site)."""
        parts = urlsplit(nxt)
        if parts.scheme or parts.netloc or not nxt.startswith(self.base) or "\\" in nxt:
            return self.base
        return nxt

    def login_page(self, problem: str = "", status: int = 200) -> None:
        self.set_status(status)
        nxt = self.safe_next(self.get_argument("next", self.base))
        self.finish(self.render_template("login.html", title="Teacher login", problem=problem,
                                         next=nxt, password=self.auth.password is not None))

    async def guess(self, check: Callable[[], bool]) -> None:
        outcome = await self.auth.throttle.attempt(self.request.remote_ip or "?", check)
        if outcome == OK:
            self.set_signed_cookie(COOKIE, "teacher", expires_days=None, httponly=True,
                                   samesite="Strict", path=self.base)
            self.redirect(self.safe_next(self.get_argument("next", self.base)))
        elif outcome == LOCKED:
            wait = self.auth.throttle.locked_for(self.request.remote_ip or "?")
            self.set_header("Retry-After", str(int(wait) + 1))
            self.login_page(f"Too many wrong tries. Wait {int(wait // 60) + 1} minutes, then try "
                            "again (or stop and restart tokens-edu teacher on its computer).", 429)
        else:
            self.login_page("That is not right. Look at the window where tokens-edu teacher "
                            "is running for the token.", 403)

    async def get(self):
        token = self.get_query_argument("token", "")
        if token:
            await self.guess(lambda: self.auth.is_token(token))
        elif self.current_user:
            self.redirect(self.safe_next(self.get_query_argument("next", self.base)))
        else:
            self.login_page()

    async def post(self):
        secret = self.get_body_argument("secret", "")
        # both compared, always: the time taken does not say which one was near
        await self.guess(lambda: self.auth.is_token(secret) | self.auth.is_password(secret))


class LogoutHandler(BaseHandler):
    """``GET`` or ``POST logout``: forget the login in this browser and say so."""

    def get(self):
        self.clear_cookie(COOKIE, path=self.base)
        self.finish(self.render_template("logged_out.html", title="Logged out", hub_logout=None))

    post = get
