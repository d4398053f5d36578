"""What every dashboard page shares: the Jinja2 templates (autoescaped), security headers,
plain error pages, and running blocking reads off the event loop.

Pages are Tornado handlers (like JupyterHub's and Voila's) that render templates from
``templates/``; the page's script and style are files in ``static/``. Who may look is not
decided here: :func:`tokens_edu.teacher.dashboard.make_app` puts the login's mixin (the token
login of :mod:`.auth`, or JupyterHub's ``HubOAuthenticated`` of :mod:`.hub_auth`) in front of
each handler, so ``get_current_user`` and ``get_login_url`` come from it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import jinja2
import tornado.web

from . import words

__all__ = ["BaseHandler", "TEMPLATES", "STATIC", "template_env", "NAV"]

#: The folders of the dashboard's templates and static files (shipped in the package).
TEMPLATES = Path(__file__).resolve().parent / "templates"
STATIC = Path(__file__).resolve().parent / "static"

#: The menu: (key, path under the base URL, label).
NAV = (("answers", "", "Answers"), ("progress", "progress", "Progress"),
       ("questions", "questions", "Questions"), ("wall", "wall", "Answer wall"),
       ("games", "games", "Games"), ("sentences", "sentences", "Sentences"),
       ("drawings", "drawings", "Drawings"))

#: What the error pages say (other codes: a generic "try again").
ERRORS = {400: "That address has something this dashboard cannot read.",
          403: "This page needs the teacher's login.", 404: "There is no such page.",
          405: "That is not allowed here.",
          429: "Too many wrong tries. Wait a few minutes, then try again.",
          503: "The lesson server could not be told: is its data folder writable? Try again."}

#: The Content-Security-Policy of every page: no script but the dashboard's own files. Styles
#: may be inline: the replay's card table (the lessons' table.js) colours cards that way.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def template_env() -> jinja2.Environment:
    """The dashboard's Jinja2 environment: every value escaped unless marked safe, and an
    undefined name is an error (not an empty string)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(when=words.when, ago=words.ago)
    env.globals.update(nav=NAV)
    return env


class BaseHandler(tornado.web.RequestHandler):
    """Common parts of every page: templates, headers, error pages, the data, blocking reads."""

    @property
    def data(self):
        """The :class:`~tokens_edu.teacher.data.ClassData` of this dashboard."""
        return self.application.settings["data"]

    @property
    def base(self) -> str:
        """The dashboard's base URL (``/`` or e.g. ``/services/teacher/``)."""
        return self.application.settings["base_url"]

    @property
    def teacher(self) -> str:
        """The logged-in teacher's name ("teacher" for the token login)."""
        user = self.current_user
        return user.get("name", "") if isinstance(user, dict) else str(user or "")

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", CSP)
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Cache-Control", "no-store")

    async def run(self, fn, *args):
        """Run a blocking read (the database, a replay) in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def fresh(self) -> None:
        """Bring the data up to date (only what is new is read)."""
        await self.run(self.data.refresh)

    def render_template(self, name: str, **ns) -> str:
        """The template ``name`` filled in with ``ns`` and what every page uses."""
        env: jinja2.Environment = self.application.settings["templates"]
        ns.setdefault("active", "")
        return env.get_template(name).render(
            base=self.base, static=self.static_url, xsrf_form_html=self.xsrf_form_html,
            today=self.application.settings.get("today"), **ns)

    def show(self, page: str, title: str, live: str, **ns) -> None:
        """Write a whole page (``<page>.html``), or only its live part (the template ``live``)
        when the page's script asks for an update (``?fragment=1``)."""
        ns.update(title=title, active=page, live_template=live)
        name = live if self.get_query_argument("fragment", "") else f"{page}.html"
        self.finish(self.render_template(name, **ns))

    def _request_summary(self) -> str:
        """The access log's words for this request: the method and the path, never the query
        (a login link's query holds the token)."""
        return f"{self.request.method} {self.request.path[:200]!r} ({self.request.remote_ip})"

    def log_exception(self, typ, value, tb) -> None:
        """One line for an error (its kind only: its text or the request could name the token)."""
        if isinstance(value, tornado.web.HTTPError):
            return super().log_exception(typ, value, tb)
        import logging

        logging.getLogger("tornado.application").error("%s failed: %s", self._request_summary(),
                                                       typ.__name__ if typ else "error")

    def write_error(self, status_code: int, **kwargs) -> None:
        text = ERRORS.get(status_code, "Something went wrong. The answers are safe; try again.")
        self.finish(self.render_template("error.html", status=status_code, message=text,
                                         title=str(status_code)))
