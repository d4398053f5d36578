"""Voila's other handlers, each with the change a class needs (the page handler is in :mod:`.pages`).

=====================================  =============================================================
Change                                 Why (Voila 0.5.13 behaviour)
=====================================  =============================================================
:func:`query_socket_handler`           ``RequestInfoSocketHandler.on_close`` deletes the *last*
                                       waiter when the closing socket is not registered (two sockets
                                       for one made-up id), so a warm kernel never got its page's
                                       request and the page hung. Also: unknown kernel ids and a
                                       second socket for a waiting kernel are refused.
:func:`shutdown_handler`               The page's "I am closing" call for an unknown kernel raised
                                       (a traceback); now a plain 404.
:func:`template_file_handler`          ``/voila/templates/..%2f..`` raised AssertionError (500).
:func:`hiding_handler`                 ``hide_globs`` hides a folder from the list only; its own
                                       address still listed it (``/voila/tree/scenarios``). The list
                                       page also loaded Font Awesome from a CDN.
:class:`PlainErrors`                   Error pages rendered a Jupyter template that needs a setting
                                       Voila lacks: ~45 traceback lines per bad request. Now one
                                       short log line (the access log) and a short plain page.
:class:`LogoutHandler`                 ``GET /logout`` rendered that same template (500). There is
                                       no login here: it goes to the lesson list.
:class:`KernelStatusHandler`           New: ``/voila/api/kernel-status/<id>`` says whether a page's
                                       kernel still runs (the page guard of :mod:`.pages` asks).
:func:`kernel_socket_handler`          What a page sends on its kernel's websocket was written to
                                       the teacher's console as it came (a refused message type:
                                       7,000 lines in 5 s, escape codes and fake ``[tokens-edu]``
                                       lines included); now lines it causes go through
                                       :class:`~.console.PageVoice`.
=====================================  =============================================================
"""

from __future__ import annotations

import asyncio
import logging
import os
import re

import tornado.web

from .console import from_page
from .pages import hidden_path, local_only, render
from .state import SEAT_COOKIE, ServeState, seat_of

__all__ = ["query_socket_handler", "kernel_socket_handler", "shutdown_handler", "template_file_handler", "hiding_handler",
           "PlainErrors", "LogoutHandler", "KernelStatusHandler", "KERNEL_ID"]

log = logging.getLogger("tokens-edu")

#: A kernel id in an address (jupyter_server's form).
KERNEL_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def query_socket_handler(base: type, state: ServeState) -> type:
    """Voila's ``RequestInfoSocketHandler`` (a warm kernel waits there for its page's request)
    without the close bug, for kernels of this server only, one socket per kernel."""

    class QuerySocketHandler(base):
        def open(self, kernel_id: str) -> None:
            km = state.km
            known = km is not None and kernel_id in km
            waiting = base._waiters.get(kernel_id)
            if not known or (waiting is not None and waiting is not self
                             and waiting.ws_connection is not None):
                log.debug("Refused a query socket for %s", kernel_id)
                self.close(4404 if not known else 4409)
                return
            super().open(kernel_id)
            base._cache.pop(kernel_id, None)  # sent once; Voila keeps it forever

        def on_close(self) -> None:
            # Voila 0.5.13 deletes the last entry it looked at when this socket is not in the
            # table, i.e. another kernel's waiter. Delete this socket's own entries only.
            for kernel_id, waiter in list(base._waiters.items()):
                if waiter is self:
                    del base._waiters[kernel_id]

    return QuerySocketHandler


def kernel_socket_handler(base: type) -> type:
    """The kernel websocket handler (``/api/kernels/<id>/channels``) whose log lines, while it
    opens and while it handles a page's message, are marked as the page's
    (:func:`~.console.from_page`), so :class:`~.console.PageVoice` keeps them plain and rare."""

    class KernelSocketHandler(base):
        async def get(self, kernel_id, *args, **kwargs):
            with from_page(kernel_id):
                return await super().get(kernel_id, *args, **kwargs)

        def on_message(self, message):
            with from_page(getattr(self, "kernel_id", None)):
                return super().on_message(message)

    return KernelSocketHandler


def shutdown_handler(base: type) -> type:
    """The page's "I am closing" call: an unknown kernel is a plain 404, never a traceback."""

    class ShutdownHandler(base):
        async def post(self, kernel_id):
            if kernel_id not in self.kernel_manager:
                raise tornado.web.HTTPError(404)
            return await super().post(kernel_id)

    return ShutdownHandler


_TEMPLATE_PATH = re.compile(r"^[A-Za-z0-9_.-]+/static/[A-Za-z0-9_./@-]+$")


def template_file_handler(base: type) -> type:
    """Template static files: an odd path is a 404 (Voila 0.5.13 raised AssertionError: 500)."""

    class TemplateFileHandler(base):
        def parse_url_path(self, path):
            norm = os.path.normpath(path).replace(os.sep, "/")
            if not _TEMPLATE_PATH.match(path) or norm != path or ".." in norm.split("/"):
                raise tornado.web.HTTPError(404)
            return super().parse_url_path(path)

    return TemplateFileHandler


def hiding_handler(base: type, state: ServeState) -> type:
    """A tree or contents handler that answers 404 for hidden folders (``scenarios``), and
    whose pages load nothing from another computer."""

    class HidingHandler(base):
        async def get(self, path=""):
            if hidden_path(path or "", state.settings["hidden"]):
                raise tornado.web.HTTPError(404)
            return await super().get(path)

        def render_template(self, name, **ns):  # the lesson list asks no other computer either
            return local_only(super().render_template(name, **ns))

    return HidingHandler


_REASONS = {404: "Not found", 403: "Forbidden", 400: "Bad request", 405: "Not allowed",
            503: "Busy"}
_WORDS = {404: "There is no page at this address. Check the link, or start again from the "
               "lesson list.",
          403: "This page is not open to you.",
          400: "This address is not one the lessons understand.",
          405: "This address is not one the lessons understand."}


class PlainErrors:
    """Mixed into every handler: a short plain error page, no traceback in the log.

    Jupyter's error page needs a ``static_path`` setting that Voila's app does not have, so
    each error logged "Uncaught exception in write_error" with two tracebacks. The access log
    line (one per request) says what happened.
    """

    def write_error(self, status_code: int, **kwargs) -> None:
        reason = _REASONS.get(status_code, self._reason)
        words = _WORDS.get(status_code, "Something went wrong on the lesson server. Reload the "
                                        "page; if it happens again, tell your teacher.")
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(render("notice.html", title=f"{status_code}: {reason}", lines=[words],
                           css_class=None, note=None, home=self._home()))

    def _home(self) -> str:
        try:  # under JupyterHub the lessons live under the student's own prefix
            return str(self.base_url or "/")
        except Exception:  # noqa: BLE001 (an error page must not fail)
            return "/"

    def log_exception(self, typ, value, tb) -> None:
        if isinstance(value, tornado.web.HTTPError):
            return  # the access log has the line
        logging.getLogger("tornado.application").error(
            "%s: %s: %s", self._request_summary(), type(value).__name__, value)
        log.debug("Traceback", exc_info=(typ, value, tb))


def logout_handler(base: type) -> type:
    """``/logout``: there is no login on the lesson server; go to the lesson list."""

    class LogoutHandler(base):
        def get(self):
            self.redirect(str(self.base_url or "/"))

        post = get

    return LogoutHandler


LogoutHandler = logout_handler(tornado.web.RequestHandler)


class KernelStatusHandler(tornado.web.RequestHandler):
    """``GET <base>voila/api/kernel-status/<kernel id>``: ``{"state": "running", "connected":
    true}`` while that kernel runs (``connected``: a browser has reached it), else ``{"state":
    "gone", ...}`` (always HTTP 200, never cached; ``"why": "memory"`` when the server stopped
    it for its memory, :mod:`.limits`). Kernel ids are
    random and say nothing about a student. With ``?hello=1`` (the page's first script, run by
    a browser as soon as it reads the page) it also records that a browser has the page, which
    then keeps its kernel while its browser connects (up to ``hello_timeout`` s: a script that
    says hello and never connects holds nothing longer), and which browser it is (the header
    ``X-Tokens-Browser``: its secret), so that browser's tabs count as one student at the class
    cap; the answer then sets the :data:`~.state.SEAT_COOKIE` its next pages carry."""

    def initialize(self, state: ServeState) -> None:
        self.state = state

    async def get(self, kernel_id: str) -> None:
        page = self.state.pages.get(kernel_id)
        if page is not None and page.hello is None and self.get_query_argument("hello", ""):
            page.hello = asyncio.get_event_loop().time()
            seat = seat_of(self.request.headers.get("X-Tokens-Browser"))
            if seat is not None:
                if page.student is None:  # a class-list code in the address says more
                    page.student = f"browser:{seat}"
                self.set_cookie(SEAT_COOKIE, seat, path=str(self.settings.get("base_url") or "/"),
                                httponly=True, samesite="Strict")
        km = self.state.km
        running = km is not None and kernel_id in km and not self.state.stopping
        if running:  # a kernel that crashed or was killed is still in the kernel manager
            try:
                alive = km.get_kernel(kernel_id).is_alive()
                running = bool(await alive if asyncio.iscoroutine(alive) else alive)
            except Exception:  # noqa: BLE001 (stopped meanwhile)
                running = False
        connected = running and (page is None or page.opened
                                 or getattr(km, "_kernel_connections", {}).get(kernel_id, 0) > 0)
        self.set_header("Cache-Control", "no-store")
        answer = {"state": "running" if running else "gone", "connected": bool(connected)}
        if not running and kernel_id in self.state.memory_stopped:
            answer["why"] = "memory"  # stopped for its memory (.limits): the page says so
        self.finish(answer)
