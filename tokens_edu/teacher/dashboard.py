"""The teacher dashboard: the class's answers, progress and games, live, in one browser page.

``tokens-edu teacher`` starts it (:func:`serve`). It reads the same database as the lessons
(:mod:`.data`) and writes to it only to hide a lesson 12 sentence or show it again, and to start a
new set of lesson 8's class data or delete a drawing or command. Pages (:mod:`.pages`, :mod:`.replay`):

* **Answers** (``/``): every answer by student, lesson and card, with filters and a search;
  each student's latest answer per card by default, every save on request.
* **Progress** (``/progress``): who has answered which question, and each student's latest game.
* **Answer wall** (``/wall``): the answers to one card in large type with **no names**.
* **Games** (``/games``) and a **replay** of any game (``/games/<id>``): both hands shown.
* **Sentences** (``/sentences``): what the class shared with lesson 12's model, with a button
  to hide a sentence from the model and the class, or show it again (:mod:`.sentences`).
* **Drawings** (``/drawings``): lesson 8's class data by class set (drawings and typed
  commands), with Delete, and Start a new set for a new class (:mod:`.class_data`).
* **Export** (``/export.csv``): the answers shown, as a spreadsheet file that is safe to open.

Every page updates by itself while the class works (:mod:`.live`: Server-Sent Events at
``/events``; the page fetches its new content, filters kept).

How it is made, as JupyterHub and Voila make theirs: Tornado handlers that render Jinja2
templates (``templates/``, autoescaped), with the page's script and style as files
(``static/``). The login is a mixin put in front of every handler: the token-or-password login
of :mod:`.auth` by default, or JupyterHub's ``HubOAuthenticated`` (:mod:`.hub_auth`) when it
runs as a Hub service.

Why a small Tornado app and not a Voila page: the dashboard is a view of a database, not a
notebook. A Voila page would start a Python kernel (about 55 MiB and seconds of CPU) for each
open dashboard tab and could offer the CSV only through a widget.

Safety: it listens on 127.0.0.1 by default; every page needs the teacher's login; everything a
student typed is escaped by the templates; pages run no script but the dashboard's own files
(a Content-Security-Policy says so) and send no Referer.
"""

from __future__ import annotations

import asyncio
import secrets

import tornado.web

from .. import _moved
from .auth import Throttle as _Throttle
from .auth import TokenAuth as _TokenAuth
from .base import STATIC, BaseHandler, template_env
from .data import ClassData as _ClassData
from .live import POLL_SECONDS as _POLL_SECONDS
from .live import EventsHandler, Watcher
from .pages import (
    AnswersHandler,
    ExportHandler,
    GamesHandler,
    ProgressHandler,
    QuestionsHandler,
    TodayHandler,
    WallHandler,
)
from .replay import RecordHandler, ReplayHandler
from .class_data import DeleteDrawingHandler, DrawingsHandler, NewSetHandler
from .sentences import HideSentenceHandler, SentencesHandler

__all__ = ["make_app", "serve", "DEFAULT_PORT"]

# Old names of this module (each lives in the module that uses it: .auth, .data, .pages,
# .lessons, .live), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

#: The dashboard's port (the lessons use 8866).
DEFAULT_PORT = 8867

#: The pages, relative to the base URL.
PAGES = [
    (r"", AnswersHandler), (r"export\.csv", ExportHandler), (r"progress", ProgressHandler),
    (r"wall", WallHandler), (r"games", GamesHandler), (r"games/([0-9a-f-]{36})", ReplayHandler),
    (r"games/([0-9a-f-]{36})\.json", RecordHandler), (r"events", EventsHandler),
    (r"today", TodayHandler), (r"questions", QuestionsHandler),
    (r"sentences", SentencesHandler), (r"sentences/hide", HideSentenceHandler),
    (r"drawings", DrawingsHandler), (r"drawings/delete", DeleteDrawingHandler),
    (r"drawings/new-set", NewSetHandler),
]


class _StaticFiles(tornado.web.StaticFileHandler):
    """The dashboard's script and style, and the lessons' card table (served without login:
    they hold no data)."""

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")


def _with_login(handler, mixin):
    """``handler`` with the login's mixin in front (JupyterHub's singleuser app does the same)."""
    if not issubclass(handler, BaseHandler) or issubclass(handler, mixin):
        return handler
    return type(handler.__name__, (mixin, handler), {"__doc__": handler.__doc__})


def make_app(url: str | None = None, auth=None, base_url: str = "/", poll: float = _POLL_SECONDS,
             login_delay: float | None = None, lessons=None, today=None) -> tornado.web.Application:
    """The dashboard as a Tornado application.

    Args:
        url: the database URL (None: the store's default, in the data folder).
        auth: the login: a :class:`~tokens_edu.teacher.auth.TokenAuth` (default: a random
            token, ``app.settings["auth"].token``) or a
            :class:`~tokens_edu.teacher.hub_auth.HubTeacherAuth`; any object with a ``mixin``
            (put in front of every handler) and ``handlers()`` (its routes) works.
        base_url: where the dashboard lives, e.g. ``"/"`` or ``"/services/teacher/"`` under
            JupyterHub (a leading and trailing ``/`` are added).
        poll: seconds between two looks at the database while a page is open.
        login_delay: seconds a wrong guess costs with the default login (None: 1 s).
        lessons: the lessons folder (each lesson's Discuss questions are the progress grid's
            columns before anyone answers); None: only the questions answered so far.
        today: a way to tell the lesson server today's lesson (an object with ``options()``,
            a list of (value, label), ``current()`` and ``set(value or None)``); None: the
            dashboard offers no such control.

    Returns:
        tornado.web.Application; ``listen(port, address)`` serves it.

    Raises:
        ValueError: the database cannot be opened (plain words).
    """
    base = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    if auth is None:
        auth = _TokenAuth(throttle=_Throttle(delay=1.0 if login_delay is None else login_delay))
    data = _ClassData(url, lessons=lessons)
    routes = []
    for path, handler, *kwargs in PAGES + list(auth.handlers()):
        routes.append((base + path, _with_login(handler, auth.mixin), *kwargs))
    routes.append((base + r"table/(table\.(?:js|css))", _StaticFiles,
                   {"path": str(STATIC.parents[1] / "widgets" / "static")}))
    if base != "/":
        routes.append((base.rstrip("/"), tornado.web.RedirectHandler, {"url": base}))
    return tornado.web.Application(
        routes, data=data, auth=auth, base_url=base, watcher=Watcher(data, poll), today=today,
        templates=template_env(), static_path=str(STATIC), static_url_prefix=base + "static/",
        static_handler_class=_StaticFiles, cookie_secret=secrets.token_bytes(32), xsrf_cookies=True,
        xsrf_cookie_kwargs={"httponly": True, "samesite": "Strict", "path": base})


def serve(port: int = DEFAULT_PORT, host: str = "127.0.0.1", url: str | None = None, auth=None,
          base_url: str = "/", ready=None, lessons=None, today=None) -> None:
    """Serve the dashboard until Ctrl-C (``tokens-edu teacher`` calls this).

    Args:
        port, host: where to listen (default 127.0.0.1:8867, this computer only).
        url, auth, base_url, lessons, today: as in :func:`make_app`.
        ready: called with the app once it listens (the command prints the address then).

    Raises:
        OSError: the port is taken or the address is not this computer's.
    """
    async def main():
        app = make_app(url, auth=auth, base_url=base_url, lessons=lessons, today=today)
        server = app.listen(port, host, xheaders=False)
        app.settings["watcher"].start()  # the first read of every answer, before the first page
        if ready is not None:
            ready(app)
        try:
            await asyncio.Event().wait()
        finally:
            server.stop()

    asyncio.run(main())
