"""The teacher dashboard: the class's answers, progress and games, live, in one browser page.

``tokens-edu teacher`` starts it (see :func:`serve`). It reads the same database as the lessons
(the Discuss answers of :mod:`tokens_edu.journal`, the class list of :mod:`tokens_edu.roster`,
the games of :mod:`tokens_edu.saved_games`) and never writes to it. Pages:

* **Answers** (``/``): every answer by student, lesson and card, with filters and a search;
  each student's latest answer per card by default, every save on request. Beside them, the
  same students' **concept checks** (predictions, exit questions and lesson results, with how
  many are right: :mod:`tokens_edu.teacher.checks`).
* **Progress** (``/progress``): a grid of who has answered which prompt, and each student's
  latest game (playing now at what score, won, lost).
* **Answer wall** (``/wall``): the answers to one card in large type with **no names**, to
  project for the class.
* **Games** (``/games``) and a **replay** of any game (``/games/<id>``): step forward and back
  with buttons, a slider or the arrow keys. The teacher sees both hands; the page says so.
* **Export** (``/export.csv``): the answers shown, as a spreadsheet file that is safe to open
  (text that would start a formula is written as text).

Every page updates by itself while the class works: the server checks the database about once
a second while a dashboard is open, and tells the page over Server-Sent Events (``/events``)
when something changed; the page then fetches its new content (no reload, filters kept).

Why a small Tornado app and not a Voila page: the dashboard is a view of a database, not a
notebook. A Voila page would start a Python kernel (about 55 MiB and seconds of CPU) for each
open dashboard tab and could only offer the CSV through a widget; Tornado is already installed
(Jupyter and Voila run on it), serves a download as a plain link, pushes updates with
Server-Sent Events, and is what JupyterHub's service authentication
(``jupyterhub.services.auth.HubOAuthenticated``) is written for, so the dashboard can later run
as a JupyterHub service with its own login.

Safety: the dashboard listens on 127.0.0.1 by default. Every page needs the teacher's secret:
the token printed at start (``?token=...`` in the first link, then a signed cookie), or a
password the teacher chose (``--password-file`` or ``TOKENS_EDU_TEACHER_PASSWORD``). A wrong
secret waits a second before the answer. Everything a student typed is HTML-escaped; pages send
no script but the dashboard's own (a Content-Security-Policy says so) and no Referer.

Pluggable for hosting: :func:`make_app` takes a ``base_url`` (e.g. JupyterHub's
``JUPYTERHUB_SERVICE_PREFIX``) and an ``auth`` object (:class:`TokenAuth` by default; any object
with the same three methods works, e.g. one built on JupyterHub's OAuth).
"""

from __future__ import annotations

import asyncio
import hmac
import html
import io
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from datetime import datetime, timezone
from urllib.parse import urlencode

import tornado.iostream
import tornado.web

from ..content.cards import load_cards
from ..game.replay import Replay
from ..present.render import COLOR_STYLES
from ..present import REPLAY, present
from ..present.words import clock, game_state, when_text
from ..store.games import GameStore, games_table
from ..store.journal import (
    COLUMNS,
    Journal,
    answers_table,
    default_url,
    spreadsheet_safe,
    write_csv,
)
from ..store.roster import Roster, roster_table
from ..store.schema import responses as responses_table
from .checks import checks_html

__all__ = ["make_app", "serve", "TokenAuth", "DashboardData", "safe_cell", "answers_csv",
           "DEFAULT_PORT"]

log = logging.getLogger(__name__)

#: The dashboard's port (the lessons use 8866).
DEFAULT_PORT = 8867
#: Rows shown on the Answers page at most (the export has them all).
MAX_ROWS = 1000
#: Seconds between two looks at the database while a dashboard is open.
POLL_SECONDS = 1.0



# ------------------------------------------------------------------------------------------------
# Data
# ------------------------------------------------------------------------------------------------
def safe_cell(value):
    """A value a spreadsheet shows as text, never as a formula (the journal's rule,
    :func:`tokens_edu.journal.spreadsheet_safe`: text starting with ``=``, ``+``, ``-``, ``@``,
    their full-width forms, a tab or a carriage return gets a leading apostrophe)."""

    return spreadsheet_safe(value)


def answers_csv(df) -> str:
    """The answers table ``df`` as CSV text that a spreadsheet opens safely: the same writer
    as ``tokens-edu export`` (:func:`tokens_edu.journal.write_csv`: every text cell through
    :func:`safe_cell`, CRLF line ends so a line break inside an answer stays in its cell)."""

    out = io.StringIO(newline="")
    write_csv(df, out)
    return out.getvalue()


_JOURNAL_LESSON = re.compile(r"""Journal\(\s*(?:[^()]*?,\s*)?lesson\s*=\s*["']([^"']+)["']""")
_DISCUSS_CARD = re.compile(r"""DiscussBox\(\s*(?:cards|load_cards\(\))\[\s*(?:"([^"]+)"|'([^']+)')\s*\]"""
                           r"""|DiscussBox\(\s*(?:"([^"]+)"|'([^']+)')""")


def lesson_prompts(folder) -> list[tuple[str, str]]:
    """The Discuss prompts each lesson asks, read from the lesson notebooks: (lesson, card) pairs.

    A lesson's name is its ``Journal(lesson="...")``; its prompts are its
    ``DiscussBox(cards["Card"], ...)`` cells (also ``load_cards()["Card"]`` or ``"Card"``). The
    progress grid shows these columns before anyone has answered. Prompts that appear only in
    a game (a deployed card's Discuss box) are added once someone answers them. Unreadable
    notebooks and unknown card names are skipped.

    Args:
        folder: the lessons folder (Path or str); None or a missing folder gives ``[]``.
    """
    from pathlib import Path

    if folder is None or not Path(folder).is_dir():
        return []

    pool = load_cards()
    out: list[tuple[str, str]] = []
    for path in sorted(Path(folder).glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
            code = "\n".join("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code")
        except (OSError, ValueError, AttributeError):
            continue
        found = _JOURNAL_LESSON.search(code)
        if not found:
            continue
        for m in _DISCUSS_CARD.finditer(code):
            card = pool.get_card(next(g for g in m.groups() if g))
            if card is not None and (found.group(1), card.name) not in out:
                out.append((found.group(1), card.name))
    return out


class DashboardData:
    """What the dashboard reads: answers, the class list and games, from one database.

    Args:
        url: a SQLAlchemy database URL; None uses :func:`tokens_edu.journal.default_url`.
        lessons: the lessons folder, to know each lesson's Discuss prompts before anyone
            answers (:func:`lesson_prompts`); None: only the prompts answered so far.

    Raises:
        ValueError: the database cannot be opened (plain words).
    """

    def __init__(self, url: str | None = None, lessons=None):

        self.url = url or default_url()
        self.journal = Journal(self.url)
        engine = self.journal._engine
        self.roster = Roster(self.url, engine=engine, read_only=True)
        self.games = GameStore(self.url, engine=engine, read_only=True)
        self._engine = engine
        self._replays: OrderedDict = OrderedDict()
        self.lesson_prompts = lesson_prompts(lessons)

    def version(self) -> tuple:
        """A cheap signature of the data: it changes when an answer, a game or the class list
        changes (counts and latest times of each table)."""
        import sqlalchemy as sa


        with self._engine.connect() as conn:
            a = conn.execute(sa.select(sa.func.count(), sa.func.max(answers_table.c.saved_at))).first()
            g = (conn.execute(sa.select(sa.func.count(), sa.func.max(games_table.c.updated_at),
                                        sa.func.sum(games_table.c.moves))).first()
                 if self.games._ready() else ())
            r = (conn.execute(sa.select(sa.func.count(), sa.func.max(roster_table.c.code))).first()
                 if self.roster._ready() else ())
            c = (conn.execute(sa.select(sa.func.count(), sa.func.max(responses_table.c.saved_at))).first()
                 if sa.inspect(conn).has_table(responses_table.name) else ())
        return tuple(str(x) for x in (*a, *g, *r, *c))

    def answers(self, student: str = "", lesson: str = "", card: str = "", search: str = "",
                every_save: bool = False):
        """The answers as a DataFrame (newest first), filtered.

        Args:
            student, lesson, card: keep only rows with exactly this value ("" keeps all).
            search: keep rows whose answer contains this text (any case).
            every_save: False keeps each student's latest answer per lesson and card (with a
                ``saves`` count); True keeps every save.
        """
        df = self.journal.answers(all_students=True)
        if student:
            df = df[df["student"] == student]
        if lesson:
            df = df[df["lesson"] == lesson]
        if card:
            df = df[df["card"] == card]
        if search:
            df = df[df["answer"].str.contains(search, case=False, regex=False, na=False)]
        counts = df.groupby(["student", "lesson", "card"])["id"].transform("count") if len(df) else None
        df = df.assign(saves=counts if counts is not None else 0)
        if not every_save and len(df):
            df = df.sort_values("saved_at").drop_duplicates(["student", "lesson", "card"], keep="last")
        return df.sort_values("saved_at", ascending=False)

    def responses(self, student: str = "", lesson: str = ""):
        """Predictions, exit questions and lesson results (every save, oldest first), for the
        concept checks beside the answers (:mod:`tokens_edu.teacher.checks`).

        Args:
            student, lesson: keep only rows with exactly this value ("" keeps all).
        """
        df = self.journal.responses(all_students=True)
        if student:
            df = df[df["student"] == student]
        if lesson:
            df = df[df["lesson"] == lesson]
        return df

    def choices(self) -> dict:
        """The values the filters offer: ``students``, ``lessons``, ``cards``, ``prompts``
        (list of (lesson, card) pairs that have answers, in lesson then card order)."""
        df = self.journal.answers(all_students=True)
        games = self.games.games()
        roster = [e.name for e in self.roster.entries()]
        others = sorted((set(df["student"]) | set(games["student"])) - set(roster), key=str.casefold)
        answered = {(r.lesson, r.card) for r in df[["lesson", "card"]].itertuples()}
        known = list(self.lesson_prompts)
        rank = {pair: i for i, pair in enumerate(known)}
        # by lesson; in a lesson, its own prompts in page order, then prompts met in games
        pairs = sorted(set(known) | answered,
                       key=lambda p: (p[0], 0 if p in rank else 1, rank.get(p, 0), p[1]))
        return {"students": roster + others, "roster": roster,
                "lessons": sorted(set(df["lesson"]) | set(games["lesson"]) | {p[0] for p in known}),
                "cards": sorted(set(df["card"])), "prompts": pairs}

    def replay(self, game_id: str):
        """A :class:`~tokens_edu.replay.Replay` of a saved game (cached while its record does
        not change), and the :class:`~tokens_edu.saved_games.SavedGame`; (None, None) if there
        is no such game."""

        saved = self.games.get(game_id)
        if saved is None:
            return None, None
        key = (game_id, saved.moves, saved.updated_at)
        hit = self._replays.get(game_id)
        if hit is not None and hit[0] == key:
            self._replays.move_to_end(game_id)
            return hit[1], saved
        replay = Replay(saved.record)
        if hit is not None:  # keep the step the teacher was looking at
            replay.goto(min(hit[1].step, replay.length))
        self._replays[game_id] = (key, replay)
        while len(self._replays) > 20:
            self._replays.popitem(last=False)
        return replay, saved


# ------------------------------------------------------------------------------------------------
# Who may look
# ------------------------------------------------------------------------------------------------
class TokenAuth:
    """Teacher login with a secret: a token (made at start and printed) or a chosen password.

    Any object with :meth:`current_user`, :meth:`login_handlers` and :attr:`login_path` can
    replace this one in :func:`make_app` (for example a JupyterHub OAuth login).

    Args:
        token: the token to accept; None makes a random one (``secrets.token_urlsafe(24)``).
        password: a password to accept as well (None: only the token).

    Attributes:
        token: the token (str).
    """

    cookie = "tokens_teacher"
    login_path = "login"

    def __init__(self, token: str | None = None, password: str | None = None):
        self.token = token or secrets.token_urlsafe(24)
        self.password = password or None

    def check(self, secret: object) -> bool:
        """True when ``secret`` is the token or the password (compared in constant time)."""
        if not isinstance(secret, str) or not secret:
            return False
        given = secret.strip().encode("utf-8", "replace")
        ok = hmac.compare_digest(given, self.token.encode())
        if self.password:
            ok = hmac.compare_digest(given, self.password.encode("utf-8")) or ok
        return ok

    def current_user(self, handler: tornado.web.RequestHandler) -> str | None:
        """"teacher" when the request has a valid login cookie, or a valid ``?token=`` (which
        then sets the cookie), else None."""
        value = handler.get_signed_cookie(self.cookie, max_age_days=1)
        if value == b"teacher":
            return "teacher"
        token = handler.get_query_argument("token", "")
        if token and self.check(token):
            self.sign_in(handler)
            return "teacher"
        return None

    def sign_in(self, handler: tornado.web.RequestHandler) -> None:
        """Set the login cookie on ``handler``'s response (HttpOnly, SameSite=Strict)."""
        handler.set_signed_cookie(self.cookie, "teacher", expires_days=None, httponly=True,
                                  samesite="Strict", path=handler.application.settings["base_url"])

    def sign_out(self, handler: tornado.web.RequestHandler) -> None:
        handler.clear_cookie(self.cookie, path=handler.application.settings["base_url"])

    def login_handlers(self) -> list:
        """The handlers that log a teacher in and out (paths relative to the base URL)."""
        return [(r"login", LoginHandler), (r"logout", LogoutHandler)]


# ------------------------------------------------------------------------------------------------
# Pages
# ------------------------------------------------------------------------------------------------
def _e(value) -> str:
    """HTML-escaped text (quotes too): every value that may come from a student."""
    return html.escape("" if value is None else str(value), quote=True)


def _json_for_html(value) -> str:
    """``value`` as JSON that is safe inside a ``<script type="application/json">`` element."""
    return (json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def _local(ts) -> datetime | None:
    if ts is None or ts != ts:  # NaT
        return None
    if hasattr(ts, "to_pydatetime"):
        ts = ts.to_pydatetime()
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone()


def _when(ts) -> str:
    return when_text(ts)  # one clock on every page (present/words.py)


def _winner(value) -> int | None:
    """A games table's winner as 0, 1 or None (pandas reads a column with draws as floats, NaN)."""
    return None if value is None or value != value else int(value)


def _ago(ts) -> str:
    t = _local(ts)
    if t is None:
        return ""
    s = int((datetime.now().astimezone() - t).total_seconds())
    if s < 60:
        return "just now"
    if s < 3600:
        return f"{s // 60} min ago"
    return _when(ts)


class BaseHandler(tornado.web.RequestHandler):
    """Common parts: the login check, security headers, the page layout, plain error pages."""

    @property
    def data(self) -> DashboardData:
        return self.application.settings["data"]

    @property
    def base(self) -> str:
        return self.application.settings["base_url"]

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy",
                        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                        "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Cache-Control", "no-store")

    def get_current_user(self):
        return self.application.settings["auth"].current_user(self)

    def get_login_url(self) -> str:
        return self.base + self.application.settings["auth"].login_path

    async def prepare(self):
        # a valid ?token= logs in, then the address is cleaned so the token is not left in
        # the browser's history or on a projected screen
        if self.request.method == "GET" and self.get_query_argument("token", "") and self.current_user:
            args = {k: v[-1].decode("utf-8", "replace") for k, v in self.request.query_arguments.items()
                    if k != "token"}
            self.redirect(self.request.path + ("?" + urlencode(args) if args else ""))

    async def run(self, fn, *args):
        """Run a blocking database read in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    def page(self, title: str, body: str, active: str = "", live: bool = True,
             controls: str = "") -> None:
        """Write a whole page: the menu, ``controls`` (filters), and ``body`` in the live area."""
        nav = "".join(
            f'<a href="{self.base}{path}" class="{"on" if key == active else ""}">{_e(label)}</a>'
            for key, path, label in (("answers", "", "Answers"), ("progress", "progress", "Progress"),
                                     ("wall", "wall", "Answer wall"), ("games", "games", "Games")))
        logout = (f'<form method="post" action="{self.base}logout" class="logout">'
                  f'{self.xsrf_form_html()}<button type="submit">Log out</button></form>')
        live_attr = ' data-live="1"' if live else ""
        self.write(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}: Tokens teacher dashboard</title>"
            f'<link rel="stylesheet" href="{self.base}static/dashboard.css">'
            + (f'<link rel="stylesheet" href="{self.base}static/table.css">' if active == "games" else "")
            + f'<script src="{self.base}static/dashboard.js" defer></script></head>'
            f'<body data-base="{_e(self.base)}" class="page-{_e(active)}">'
            f'<header><b class="brand">Tokens: teacher</b><nav>{nav}</nav>'
            f'<span id="live-status" class="live-status" aria-live="polite"></span>{logout}</header>'
            f'<main><h1>{_e(title)}</h1>{controls}'
            f'<div id="live"{live_attr}>{body}</div></main></body></html>')

    def fragment_or_page(self, title: str, body: str, active: str, controls: str = "") -> None:
        """The live part only when the page asks for an update (``?fragment=1``), else the page."""
        if self.get_query_argument("fragment", ""):
            self.write(body)
        else:
            self.page(title, body, active, controls=controls)

    def write_error(self, status_code: int, **kwargs) -> None:
        messages = {403: "This page needs the teacher's login.", 404: "There is no such page.",
                    405: "That is not allowed here."}
        text = messages.get(status_code, "Something went wrong. The answers are safe; try again.")
        self.write(f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status_code}"
                   f"</title></head><body><h1>{status_code}</h1><p>{_e(text)}</p>"
                   f'<p><a href="{self.base}">Back to the dashboard</a></p></body></html>')

    def select(self, name: str, label: str, options, value: str, all_label: str = "All") -> str:
        opts = [f'<option value="">{_e(all_label)}</option>'] + [
            f'<option value="{_e(o)}"{" selected" if o == value else ""}>{_e(o)}</option>' for o in options]
        return (f'<label>{_e(label)} <select name="{_e(name)}" class="auto-submit">{"".join(opts)}'
                "</select></label>")


class LoginHandler(BaseHandler):
    """The login form (GET) and its check (POST). A wrong secret waits one second."""

    def get(self):
        if self.current_user:
            self.redirect(self.safe_next(self.get_query_argument("next", self.base)))
            return
        self.login_page()

    def safe_next(self, nxt: str) -> str:
        """Where to go after logging in: a page of this dashboard only (never another site)."""
        if not nxt.startswith(self.base) or nxt.startswith("//") or "\\" in nxt:
            return self.base
        return nxt

    def login_page(self, problem: str = "") -> None:
        nxt = self.safe_next(self.get_argument("next", self.base))
        note = f'<p class="problem" role="alert">{_e(problem)}</p>' if problem else ""
        self.write(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Teacher login</title>"
            f'<link rel="stylesheet" href="{self.base}static/dashboard.css"></head>'
            '<body class="page-login"><main class="login"><h1>Tokens: teacher dashboard</h1>'
            "<p>This page shows every student's answers. Type the token that "
            "<code>tokens-edu teacher</code> printed when it started, or your teacher password.</p>"
            f'{note}<form method="post" action="{self.base}login">{self.xsrf_form_html()}'
            f'<input type="hidden" name="next" value="{_e(nxt)}">'
            '<label>Token or password <input type="password" name="secret" autofocus '
            'autocomplete="current-password"></label> <button type="submit">Log in</button>'
            "</form></main></body></html>")

    async def post(self):
        auth = self.application.settings["auth"]
        if auth.check(self.get_body_argument("secret", "")):
            auth.sign_in(self)
            self.redirect(self.safe_next(self.get_body_argument("next", self.base)))
            return
        await asyncio.sleep(self.application.settings.get("login_delay", 1.0))
        self.set_status(403)
        self.login_page("That token or password is not right. Look at the window where "
                        "tokens-edu teacher is running.")


class LogoutHandler(BaseHandler):
    def post(self):
        self.application.settings["auth"].sign_out(self)
        self.redirect(self.base + "login")


class AnswersHandler(BaseHandler):
    """Answers by student, lesson and card, with filters; the latest per card unless ``every``."""

    @tornado.web.authenticated
    async def get(self):
        f = {k: self.get_query_argument(k, "") for k in ("student", "lesson", "card", "q")}
        every = bool(self.get_query_argument("every", ""))
        df = await self.run(lambda: self.data.answers(f["student"], f["lesson"], f["card"], f["q"], every))
        checks = await self.run(lambda: self.data.responses(f["student"], f["lesson"]))
        choices = await self.run(self.data.choices)
        query = {k: v for k, v in f.items() if v}
        if every:
            query["every"] = "1"
        export = f'{self.base}export.csv' + ("?" + urlencode(query) if query else "")
        controls = (
            f'<form method="get" action="{self.base}" class="filters">'
            + self.select("student", "Student", choices["students"], f["student"])
            + self.select("lesson", "Lesson", choices["lessons"], f["lesson"])
            + self.select("card", "Card", choices["cards"], f["card"])
            + f'<label>Search <input type="search" name="q" value="{_e(f["q"])}"></label>'
            + '<label><input type="checkbox" name="every" value="1" class="auto-submit"'
            + f'{" checked" if every else ""}> every save</label>'
            + '<button type="submit">Show</button>'
            + f'<a class="button" href="{_e(export)}" download>Download CSV</a></form>')
        rows = []
        for r in df.head(MAX_ROWS).itertuples():
            saves = f' <span class="saves">({int(r.saves)} saves)</span>' if not every and r.saves > 1 else ""
            rows.append(
                f'<tr class="answer-row"><td class="when">{_e(_when(r.saved_at))}</td>'
                f'<td class="student">{_e(r.student)}</td><td>{_e(r.lesson)}</td>'
                f'<td>{_e(r.card)}</td><td class="answer">{_e(r.answer)}{saves}</td></tr>')
        more = (f'<p class="note">Showing the newest {MAX_ROWS} of {len(df)}. The CSV has them all.</p>'
                if len(df) > MAX_ROWS else "")
        what = "saves" if every else "answers (each student's latest per card)"
        body = (f'<p class="count">{len(df)} {what}</p>{more}'
                + ('<table class="answers"><thead><tr><th>Saved</th><th>Student</th><th>Lesson</th>'
                   '<th>Card</th><th>Answer</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
                   if rows else '<p class="empty">No answers yet. They appear here as students save them.</p>'))
        # beside the Discuss answers: what the same students predicted and measured (concept checks)
        body = (f'<div class="beside"><section class="discuss-answers">{body}</section>'
                f"{checks_html(checks, when=_when)}</div>")
        self.fragment_or_page("Answers", body, "answers", controls)


class ExportHandler(BaseHandler):
    """The answers shown on the Answers page (same filters) as a formula-safe CSV file."""

    @tornado.web.authenticated
    async def get(self):
        f = {k: self.get_query_argument(k, "") for k in ("student", "lesson", "card", "q")}
        every = bool(self.get_query_argument("every", ""))

        def build():

            df = self.data.answers(f["student"], f["lesson"], f["card"], f["q"], every)
            df = df.sort_values("saved_at")[COLUMNS]
            return answers_csv(df)

        text = await self.run(build)
        stamp = datetime.now().strftime("%Y-%m-%d-%H%M")
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="answers-{stamp}.csv"')
        self.write("\ufeff" + text)  # the BOM makes spreadsheet programs read UTF-8 names right


class ProgressHandler(BaseHandler):
    """Who has answered which prompt, and each student's latest game."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", "")

        def build():
            answers = self.data.answers(lesson=lesson)
            games = self.data.games.games(lesson=lesson or None)
            return answers, games, self.data.choices()

        answers, games, choices = await self.run(build)
        prompts = [p for p in choices["prompts"] if not lesson or p[0] == lesson]
        done = {(r.student, r.lesson, r.card): r.saved_at for r in answers.itertuples()}
        latest_game = {}
        for g in games.itertuples():  # newest first
            latest_game.setdefault(g.student, g)
        students = [s for s in choices["students"]
                    if not lesson or s in choices["roster"] or s in set(answers["student"]) or s in latest_game]
        head = "".join(f'<th class="prompt"><span>{_e(c)}</span><small>{_e(lsn)}</small></th>'
                       for lsn, c in prompts)
        rows = []
        now = datetime.now(timezone.utc)
        for s in students:
            cells = []
            for lsn, c in prompts:
                t = done.get((s, lsn, c))
                cells.append(f'<td class="done" title="saved {_e(_when(t))}">&#10003;</td>' if t is not None
                             else '<td class="todo"></td>')
            n = sum(1 for lsn, c in prompts if (s, lsn, c) in done)
            rows.append(f'<tr><th class="student">{_e(s)}</th><td class="num">{n}/{len(prompts)}</td>'
                        f'{"".join(cells)}<td class="game">{self.game_cell(latest_game.get(s), now)}</td></tr>')
        controls = (f'<form method="get" action="{self.base}progress" class="filters">'
                    + self.select("lesson", "Lesson", choices["lessons"], lesson, "All lessons")
                    + '<button type="submit">Show</button></form>')
        if not students:
            body = ('<p class="empty">Nobody yet. Students appear here when they save an answer or '
                    "start a game (or when you add a class list: tokens-edu roster add).</p>")
        else:
            body = (f'<div class="grid-wrap"><table class="progress"><thead><tr><th>Student</th>'
                    f'<th>Answered</th>{head}<th>Latest game</th></tr></thead><tbody>{"".join(rows)}'
                    "</tbody></table></div>")
        self.fragment_or_page("Progress", body, "progress", controls)

    def game_cell(self, g, now) -> str:
        if g is None:
            return ""
        me, other = (g.name0, g.name1) if g.seat == 0 else (g.name1, g.name0)
        mine, theirs = (g.tokens0, g.tokens1) if g.seat == 0 else (g.tokens1, g.tokens0)
        score = f"{mine}&ndash;{theirs} vs {_e(other)}"
        state = game_state(g.status, _winner(g.winner), seat=g.seat, turn=g.turn)  # the word Games and Replay use
        kind = state.split(", ")[-1].replace("a draw", "draw") if g.status == "over" else g.status
        return (f'<span class="state state-{_e(kind)}">{_e(state)}</span> {score} '
                f'<small>{_e(_ago(g.updated_at))}</small> '
                f'<a href="{self.base}games/{_e(g.id)}">replay</a>')


class WallHandler(BaseHandler):
    """The answers to one card, large and without names, to project for the class."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", "")
        card = self.get_query_argument("card", "")

        def build():
            choices = self.data.choices()
            pick_lesson, pick_card = lesson, card
            if not pick_card and choices["prompts"]:  # the card answered most recently
                latest = self.data.answers()
                if len(latest):
                    top = latest.iloc[0]
                    pick_lesson, pick_card = top["lesson"], top["card"]
            df = self.data.answers(lesson=pick_lesson, card=pick_card) if pick_card else None
            return choices, pick_lesson, pick_card, df

        choices, lesson, card, df = await self.run(build)
        options = []
        for lsn, c in choices["prompts"]:
            value = urlencode({"lesson": lsn, "card": c})
            chosen = " selected" if (lsn, c) == (lesson, card) else ""
            options.append(f'<option value="{_e(value)}"{chosen}>{_e(c)} ({_e(lsn or "no lesson")})</option>')
        controls = (f'<form method="get" action="{self.base}wall" class="filters wall-pick">'
                    f'<label>Card <select name="pick" class="wall-select">{"".join(options)}</select></label>'
                    '<button type="button" class="bigger" aria-label="Bigger text">A+</button>'
                    '<button type="button" class="smaller" aria-label="Smaller text">A&minus;</button>'
                    '<button type="button" class="fullscreen">Full screen</button></form>')
        if df is None:
            body = '<p class="empty">No answers yet. The wall fills in as students save.</p>'
        elif not len(df):
            body = (f'<div class="wall"><h2 class="wall-card">{_e(card)}</h2>'
                    '<p class="empty">No answers to this card yet. They appear here as students '
                    "save them.</p></div>")
        else:
            question = df["prompt"].iloc[0] if len(df) else ""
            tiles = "".join(f'<div class="tile">{_e(a)}</div>'
                            for a in df.sort_values(["saved_at", "id"])["answer"])
            body = (f'<div class="wall"><h2 class="wall-card">{_e(card)}</h2>'
                    f'<p class="wall-question">{_e(question)}</p>'
                    f'<p class="wall-count">{len(df)} answer{"s" if len(df) != 1 else ""}</p>'
                    f'<div class="tiles">{tiles}</div></div>')
        self.fragment_or_page("Answer wall", body, "wall", controls)


class GamesHandler(BaseHandler):
    """Every saved game: who, which lesson, the score, and a link to its replay."""

    @tornado.web.authenticated
    async def get(self):
        student = self.get_query_argument("student", "")
        lesson = self.get_query_argument("lesson", "")
        df = await self.run(lambda: self.data.games.games(student or None, lesson or None))
        choices = await self.run(self.data.choices)
        controls = (f'<form method="get" action="{self.base}games" class="filters">'
                    + self.select("student", "Student", choices["students"], student)
                    + self.select("lesson", "Lesson", choices["lessons"], lesson)
                    + '<button type="submit">Show</button></form>')
        rows = []
        for g in df.itertuples():
            status = game_state(g.status, _winner(g.winner), names=(g.name0, g.name1))
            rows.append(
                f'<tr class="game-row"><td>{_e(_ago(g.updated_at))}</td><td class="student">{_e(g.student)}</td>'
                f'<td>{_e(g.lesson)}</td><td>{_e(g.name0)} {g.tokens0}&ndash;{g.tokens1} {_e(g.name1)}</td>'
                f'<td>{_e(status)}</td><td class="num">{g.turn}</td><td class="num">{g.moves}</td>'
                f'<td><a href="{self.base}games/{_e(g.id)}">Replay</a></td></tr>')
        body = (('<table class="games"><thead><tr><th>Saved</th><th>Student</th><th>Lesson</th>'
                 '<th>Score</th><th>Status</th><th>Turn</th><th>Moves</th><th></th></tr></thead><tbody>'
                 + "".join(rows) + "</tbody></table>") if rows else
                '<p class="empty">No games yet. Lesson games are saved here after every move.</p>')
        self.fragment_or_page("Games", body, "games", controls)


class ReplayHandler(BaseHandler):
    """One game's replay page; ``?step=N&fragment=1`` gives the position after N moves as JSON."""

    @tornado.web.authenticated
    async def get(self, game_id: str):
        replay, saved = await self.run(self.data.replay, game_id)
        if replay is None:
            raise tornado.web.HTTPError(404)
        step_arg = self.get_query_argument("step", "")
        seat_arg = self.get_query_argument("seat", "")
        seat = int(seat_arg) if seat_arg in ("0", "1") else None
        if self.get_query_argument("fragment", ""):
            step = replay.length if step_arg in ("", "end") else step_arg
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.write(json.dumps(await self.run(self.step_json, replay, saved, step, seat)))
            return
        state = await self.run(self.step_json, replay, saved, step_arg or replay.length, seat)
        moves = "".join(
            f'<li><a href="#" data-step="{i}">{i}. {_e(replay.names[m.player])}: {_e(m.text)}</a></li>'
            for i, m in ((i, replay.move(i)) for i in range(1, replay.length + 1)))
        title = f"Replay: {saved.student}, {saved.lesson or 'no lesson'}"
        seats = "".join(
            f'<button type="button" data-seat="{p}" aria-pressed="{"true" if p == state["seat"] else "false"}">'
            f"{_e(replay.names[p])}</button>" for p in (0, 1))
        body = (
            f'<div class="replay" data-game="{_e(game_id)}" data-step="{state["step"]}" '
            f'data-length="{state["length"]}" data-seat="{state["seat"]}">'
            '<p class="teacher-note" role="note"><b>Teacher view:</b> you see both players\' hands '
            "and every secret choice. Students never see this page.</p>"
            f'<p class="replay-who">{_e(saved.names[0])} against {_e(saved.names[1])} &middot; '
            f'started {_e(_when(saved.started_at))} &middot; <span class="replay-status">'
            f'{_e(state["status"])}</span></p>'
            '<div class="replay-controls">'
            '<button type="button" data-go="start" aria-label="To the start">&laquo; Start</button>'
            '<button type="button" data-go="back" aria-label="One move back">&#9664; Back</button>'
            '<button type="button" data-go="forward" aria-label="One move forward">Forward &#9654;</button>'
            '<button type="button" data-go="end" aria-label="To the end">End &raquo;</button>'
            f'<input type="range" class="replay-slider" min="0" max="{state["length"]}" '
            f'value="{state["step"]}" aria-label="Move number">'
            f'<span class="replay-seat">Seen from: {seats}</span></div>'
            f'<p class="replay-caption" aria-live="polite">{_e(state["caption"])}</p>'
            f'<div class="replay-lines">{state["lines_html"]}</div>'
            f'<div class="replay-other-hand">{state["other_hand_html"]}</div>'
            f'<div class="replay-board"></div>'
            f'<script type="application/json" class="replay-state">{_json_for_html(state)}</script>'
            f'<details class="replay-moves"><summary>Every move</summary><ol>{moves}</ol></details>'
            f'<p class="note"><a href="{self.base}games/{_e(game_id)}.json" download>Download this game</a> '
            "(a record file: open it in a notebook with <code>ReplayView(\"game.json\")</code> from "
            "<code>tokens_edu.widgets</code>).</p></div>")
        self.page(title, body, "games")

    def step_json(self, replay, saved, step, seat=None) -> dict:
        """The position after ``step`` moves: the card table's state seen from ``seat`` (the
        student's seat by default), the other player's hand, the caption and log lines."""

        replay.goto(replay.length if step == "end" else step)
        m = replay.move()
        lines = m.lines if m is not None else replay.start_lines()
        seat = saved.seat if seat not in (0, 1) else seat
        other = 1 - seat
        caption = replay.caption()
        state = present(replay.game, seat, REPLAY, log_lines=list(lines)).table_state()
        state.update(v=replay.step, status=caption, step="", title="")
        hand = [c.name for c in replay.game.observation(other).hand]
        other_hand = (f"<b>{_e(replay.names[other])}&#x27;s hand</b> ({len(hand)}): "
                      + (" ".join(f'<span class="chip">{_e(n)}</span>' for n in hand) or "<i>empty</i>"))
        status = game_state(saved.status, saved.winner, names=saved.names)
        if saved.status == "playing":
            status += f" (saved {_ago(saved.updated_at)})"
        return {"step": replay.step, "length": replay.length, "caption": caption, "seat": seat,
                "lines_html": "".join(f"<div>{_e(t)}</div>" for t in lines),
                "state": state, "palette": {k: dict(v) for k, v in COLOR_STYLES.items()},
                "other_hand_html": other_hand, "status": status}


class RecordHandler(BaseHandler):
    """A saved game's record as a ``.json`` file (for ``ReplayView`` in a notebook)."""

    @tornado.web.authenticated
    async def get(self, game_id: str):
        saved = await self.run(self.data.games.get, game_id)
        if saved is None:
            raise tornado.web.HTTPError(404)
        safe = "".join(ch if ch.isalnum() else "-" for ch in saved.student)[:40] or "game"
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="{safe}-{game_id[:8]}.json"')
        self.write(json.dumps(saved.record, indent=1))


class EventsHandler(BaseHandler):
    """Server-Sent Events: a message each time the data changes (and a comment every 15 s)."""

    @tornado.web.authenticated
    async def get(self):
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-store")
        hub: _Watcher = self.application.settings["watcher"]
        seen = None
        last_write = time.monotonic()
        hub.clients += 1
        try:
            if hub.version is None:  # the first look at the database: wait for it
                await hub.changed(timeout=10)
            while True:
                version = hub.version
                if version is not None and version != seen:
                    seen = version
                    self.write(f"data: {json.dumps(str(hash(version)))}\n\n")
                    await self.flush()
                    last_write = time.monotonic()
                elif time.monotonic() - last_write > 15:
                    self.write(": still here\n\n")
                    await self.flush()
                    last_write = time.monotonic()
                await hub.changed(timeout=5)
        except tornado.iostream.StreamClosedError:
            pass
        finally:
            hub.clients -= 1


class _Watcher:
    """Looks at the database every :data:`POLL_SECONDS` while a dashboard page is open."""

    def __init__(self, data: DashboardData, poll: float):
        self.data = data
        self.poll = poll
        self.version = None
        self.clients = 0
        self._event = asyncio.Event()
        self._task = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def changed(self, timeout: float) -> None:
        self.start()
        try:
            await asyncio.wait_for(asyncio.shield(self._event.wait()), timeout)
        except asyncio.TimeoutError:
            pass

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.clients or self.version is None:
                try:
                    version = await loop.run_in_executor(None, self.data.version)
                except Exception:  # noqa: BLE001 (a database hiccup: try again next time)
                    log.warning("Dashboard: could not read the database", exc_info=True)
                    version = self.version
                if version != self.version:
                    self.version = version
                    self._event.set()
                    self._event = asyncio.Event()
            await asyncio.sleep(self.poll)


class StaticHandler(tornado.web.RequestHandler):
    """The dashboard's own script and style (served without login: they hold no data)."""

    def get(self, name: str):
        if name in ("table.js", "table.css"):  # the lessons' card table, for the replay page
            path = Path(__file__).resolve().parents[1] / "widgets" / "static" / name
            kind = "text/javascript" if name.endswith(".js") else "text/css"
            self.set_header("Content-Type", f"{kind}; charset=utf-8")
            self.write(path.read_text(encoding="utf-8"))
        elif name == "dashboard.js":
            self.set_header("Content-Type", "text/javascript; charset=utf-8")
            self.write(_JS)
        elif name == "dashboard.css":
            self.set_header("Content-Type", "text/css; charset=utf-8")
            self.write(_CSS)
        else:
            raise tornado.web.HTTPError(404)
        self.set_header("Cache-Control", "no-cache")
        self.set_header("X-Content-Type-Options", "nosniff")


def make_app(url: str | None = None, auth=None, base_url: str = "/", poll: float = POLL_SECONDS,
             login_delay: float = 1.0, lessons=None) -> tornado.web.Application:
    """The dashboard as a Tornado application.

    Args:
        url: the database URL (None: :func:`tokens_edu.journal.default_url`).
        auth: the login to use; None makes a :class:`TokenAuth` with a random token
            (``app.settings["auth"].token``).
        base_url: where the dashboard lives on the server, e.g. ``"/"`` or
            ``"/services/teacher/"`` under JupyterHub (a leading and trailing ``/`` are added).
        poll: seconds between two looks at the database while a page is open.
        login_delay: seconds a wrong secret waits (for tests; keep 1 s or more for a class).
        lessons: the lessons folder (its Discuss prompts are the progress grid's columns
            before anyone answers); None: only the prompts answered so far.

    Returns:
        tornado.web.Application; ``listen(port, address)`` serves it.

    Raises:
        ValueError: the database cannot be opened (plain words).
    """
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    auth = auth or TokenAuth()
    data = DashboardData(url, lessons=lessons)
    handlers = [
        (r"", AnswersHandler), (r"export\.csv", ExportHandler), (r"progress", ProgressHandler),
        (r"wall", WallHandler), (r"games", GamesHandler), (r"games/([0-9a-f-]{36})", ReplayHandler),
        (r"games/([0-9a-f-]{36})\.json", RecordHandler),
        (r"events", EventsHandler), (r"static/((?:dashboard|table)\.(?:js|css))", StaticHandler),
    ] + list(auth.login_handlers())
    routes = [(base + path, handler) for path, handler in handlers]
    if base != "/":
        routes.append((base.rstrip("/"), tornado.web.RedirectHandler, {"url": base}))
    return tornado.web.Application(
        routes, data=data, auth=auth, base_url=base, watcher=_Watcher(data, poll),
        cookie_secret=secrets.token_bytes(32), xsrf_cookies=True, login_delay=login_delay,
        xsrf_cookie_kwargs={"httponly": True, "samesite": "Strict", "path": base})


def serve(port: int = DEFAULT_PORT, host: str = "127.0.0.1", url: str | None = None, auth=None,
          base_url: str = "/", ready=None, lessons=None) -> None:
    """Serve the dashboard until Ctrl-C (``tokens-edu teacher`` calls this).

    Args:
        port, host: where to listen (default 127.0.0.1:8867, this computer only).
        url, auth, base_url, lessons: as in :func:`make_app`.
        ready: called with the app once it listens (the command prints the address then).

    Raises:
        OSError: the port is taken or the address is not this computer's.
    """
    async def main():
        app = make_app(url, auth=auth, base_url=base_url, lessons=lessons)
        server = app.listen(port, host, xheaders=False)
        if ready is not None:
            ready(app)
        try:
            await asyncio.Event().wait()
        finally:
            server.stop()

    asyncio.run(main())


# ------------------------------------------------------------------------------------------------
# The page's own script and style (no outside files: works on an offline school network)
# ------------------------------------------------------------------------------------------------
_JS = r"""
"use strict";
(function () {
  const base = document.body.dataset.base || "/";
  const live = document.getElementById("live");
  const status = document.getElementById("live-status");
  // One clock on every page: 24-hour with seconds, as present/words.py's clock() writes it.
  const two = n => String(n).padStart(2, "0");
  const clock = d => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

  // Filters: a changed select submits its form at once.
  document.querySelectorAll("select.auto-submit, input.auto-submit").forEach(el =>
    el.addEventListener("change", () => el.form.submit()));
  const wallSelect = document.querySelector("select.wall-select");
  if (wallSelect) wallSelect.addEventListener("change", () => {
    window.location.href = base + "wall?" + wallSelect.value;
  });

  // Answer wall: bigger or smaller text (kept in this browser), full screen.
  const size = () => parseFloat(localStorage.getItem("tokens-wall-size") || "1.6");
  const setSize = s => {
    s = Math.max(0.8, Math.min(4, s));
    localStorage.setItem("tokens-wall-size", String(s));
    document.documentElement.style.setProperty("--wall-size", s + "rem");
  };
  if (document.body.classList.contains("page-wall")) setSize(size());
  const click = (sel, fn) => { const b = document.querySelector(sel); if (b) b.addEventListener("click", fn); };
  click("button.bigger", () => setSize(size() * 1.2));
  click("button.smaller", () => setSize(size() / 1.2));
  click("button.fullscreen", () => {
    const el = document.querySelector("main");
    if (document.fullscreenElement) document.exitFullscreen(); else if (el.requestFullscreen) el.requestFullscreen();
  });

  // Replay: buttons, slider, arrow keys, the move list; the position drawn by the lessons'
  // own card table (static/table.js) through a small stand-in for the widget's model.
  const replay = document.querySelector(".replay");
  if (replay) {
    const slider = replay.querySelector(".replay-slider");
    let step = parseInt(replay.dataset.step, 10), length = parseInt(replay.dataset.length, 10);
    let seat = parseInt(replay.dataset.seat, 10);
    const first = JSON.parse(replay.querySelector(".replay-state").textContent);
    const handlers = {};
    const model = {
      values: {state: first.state, palette: first.palette},
      get(key) { return this.values[key]; },
      set(key, value) { this.values[key] = value; (handlers["change:" + key] || []).forEach(f => f()); },
      on(event, f) { (handlers[event] = handlers[event] || []).push(f); },
      off() {}, send() {}, save_changes() {},
    };
    const board = replay.querySelector(".replay-board");
    import(base + "static/table.js").then(m => m.default.render({model, el: board}))
      .catch(() => { board.textContent = "The table could not be drawn in this browser."; });
    const show = s => {
      step = s.step; length = s.length; seat = s.seat;
      replay.dataset.step = step; replay.dataset.length = length;
      slider.max = length; slider.value = step;
      replay.querySelector(".replay-caption").textContent = s.caption;
      replay.querySelector(".replay-lines").innerHTML = s.lines_html;
      replay.querySelector(".replay-other-hand").innerHTML = s.other_hand_html;
      replay.querySelector(".replay-status").textContent = s.status;
      replay.querySelectorAll("button[data-seat]").forEach(b =>
        b.setAttribute("aria-pressed", String(parseInt(b.dataset.seat, 10) === seat)));
      model.set("state", s.state);
    };
    let busy = Promise.resolve();
    const showStep = (want, follow) => {
      busy = busy.then(() => fetch(window.location.pathname + "?fragment=1&seat=" + seat + "&step=" +
                                   encodeURIComponent(want), {credentials: "same-origin"}))
        .then(r => { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(s => {
          const atEnd = step === length;
          if (follow && atEnd && s.step < s.length) { step = s.step; length = s.length; return showStep("end"); }
          show(s);
        })
        .catch(() => { if (status) status.textContent = "Could not load that move. Try again."; });
      return busy;
    };
    replay.querySelectorAll("button[data-go]").forEach(b => b.addEventListener("click", () => {
      const go = b.dataset.go;
      showStep(go === "start" ? 0 : go === "end" ? "end" : step + (go === "forward" ? 1 : -1));
    }));
    replay.querySelectorAll("button[data-seat]").forEach(b => b.addEventListener("click", () => {
      seat = parseInt(b.dataset.seat, 10); showStep(step);
    }));
    slider.addEventListener("input", () => showStep(slider.value));
    document.addEventListener("keydown", e => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") && e.target !== slider) return;
      if (e.key === "ArrowRight") { showStep(step + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { showStep(step - 1); e.preventDefault(); }
    });
    replay.querySelectorAll("a[data-step]").forEach(a => a.addEventListener("click", e => {
      e.preventDefault(); showStep(a.dataset.step);
    }));
    replay.refresh = () => showStep(step, true);
  }

  // Live updates: the server says when the data changed; the page fetches its new content.
  if (!live || !live.dataset.live || !window.EventSource) return;
  let loading = false, again = false;
  const refresh = () => {
    if (replay) { replay.refresh(); return; }
    if (loading) { again = true; return; }
    loading = true;
    const url = new URL(window.location.href);
    url.searchParams.set("fragment", "1");
    fetch(url, {credentials: "same-origin"})
      .then(r => { if (r.redirected || !r.ok) throw new Error("login"); return r.text(); })
      .then(html => {
        live.innerHTML = html;
        if (status) status.textContent = "Live \u00b7 updated " + clock(new Date());
      })
      .catch(() => { if (status) status.textContent = "Not updating: log in again."; })
      .finally(() => { loading = false; if (again) { again = false; refresh(); } });
  };
  // The first message comes at once: refresh then too, in case something changed between
  // the page being made and the connection opening.
  const source = new EventSource(base + "events");
  source.onmessage = () => refresh();
  source.onerror = () => { if (status) status.textContent = "Reconnecting\u2026"; };
  source.onopen = () => { if (status) status.textContent = "Live"; };
})();
"""

_CSS = """
:root { --wall-size: 1.6rem; }
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #f6f6f4; }
header { display: flex; align-items: center; gap: 18px; padding: 8px 16px; background: #20313b; color: #fff; flex-wrap: wrap; }
header a { color: #dfe9ee; text-decoration: none; padding: 4px 8px; border-radius: 4px; }
header a.on, header a:hover { background: #3d5a68; color: #fff; }
header .brand { margin-right: 8px; }
.live-status { margin-left: auto; font-size: 13px; color: #bfe3c0; }
.logout button { font-size: 13px; }
main { padding: 12px 16px 40px; }
h1 { font-size: 22px; margin: 4px 0 10px; }
.filters { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; margin-bottom: 12px; }
.filters label { font-size: 14px; }
button, .button { font-size: 14px; padding: 4px 10px; border: 1px solid #888; border-radius: 4px; background: #fff; color: #111; text-decoration: none; cursor: pointer; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #ddd; padding: 5px 8px; text-align: left; vertical-align: top; font-size: 14px; }
td.answer { white-space: pre-wrap; max-width: 60ch; overflow-wrap: anywhere; }
td.when, td.num { white-space: nowrap; }
.beside { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.beside > .discuss-answers { flex: 3 1 560px; min-width: 0; }
.beside > .checks { flex: 2 1 420px; min-width: 0; }
.checks h2 { font-size: 18px; margin: 0 0 6px; } .checks h3 { font-size: 15px; margin: 12px 0 4px; }
.checks .right { color: #1d5e20; font-weight: bold; } .checks .wrong { color: #8a1c1c; font-weight: bold; }
.checks .open { color: #666; } .checks td.question { max-width: 28ch; } .checks td.score { white-space: nowrap; }
.saves { color: #666; font-size: 12px; }
.count, .note, .empty { color: #444; }
.grid-wrap { overflow: auto; max-height: 75vh; }
table.progress th.prompt { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: normal; }
table.progress th.prompt small { color: #777; margin-top: 4px; }
table.progress td.done { background: #d9f2d9; text-align: center; color: #1d5e20; }
table.progress td.todo { background: #fff; }
table.progress th.student { position: sticky; left: 0; background: #fff; }
.state { font-weight: bold; }
.state-playing { color: #a05a00; } .state-won { color: #1d5e20; } .state-lost { color: #8a1c1c; }
.wall h2 { font-size: calc(var(--wall-size) * 1.3); margin: 4px 0; }
.wall-question { font-size: var(--wall-size); margin: 4px 0 10px; }
.wall-count { color: #555; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(calc(var(--wall-size) * 14), 1fr)); gap: 14px; }
.tile { background: #fffbe6; border: 1px solid #e2d58a; border-radius: 10px; padding: 14px 16px; font-size: var(--wall-size); line-height: 1.3; white-space: pre-wrap; overflow-wrap: anywhere; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
main:fullscreen { background: #fff; overflow: auto; }
.teacher-note { background: #fff3cd; border: 1px solid #e0c36a; padding: 8px 12px; border-radius: 6px; }
.replay-controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
.replay-slider { flex: 1; min-width: 200px; }
.replay-caption { font-weight: bold; }
.replay-lines { color: #333; margin-bottom: 8px; }
.replay-moves ol { columns: 2; font-size: 13px; }
.replay-seat button[aria-pressed="true"] { background: #20313b; color: #fff; }
.replay-other-hand { margin: 6px 0; }
.chip { display: inline-block; border: 1px solid #888; border-radius: 4px; padding: 1px 6px; margin: 1px; background: #fafafa; }
main.login { max-width: 560px; margin: 40px auto; background: #fff; padding: 20px 24px; border-radius: 8px; }
.problem { color: #8a1c1c; font-weight: bold; }
"""
