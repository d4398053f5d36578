"""Lesson pages: the page handler (the class cap, page bookkeeping) and what every page carries.

What changes from Voila 0.5's page (``/voila/render/<notebook>``), and why:

* **The ``_xsrf`` cookie is set.** Pages never set it, so the shutdown call a page sends when
  it closes was refused (``403 '_xsrf' argument missing``, voila-dashboards/voila#1458) and
  every reload or closed tab kept its kernel until the culler ran.
* **The class cap** (:mod:`.capacity`): past it a page says "The class is full right now"
  (HTTP 503) instead of starting a kernel the computer cannot hold.
* **No raw Python text.** A widget's output also carries its ``text/plain`` form
  (``GameView(children=...)``); when the page cannot reach its kernel, Voila's page shows that
  text. It is taken out of widget outputs (:func:`rewrite`), and every page carries a small
  guard (``templates/page_guard.html``) that asks the server whether its kernel still runs and,
  when it is gone (stopped, or never connected), says so in plain words with a Reload button.
* **Pages end instead of hanging** (:class:`GuardedRenderer`): a page whose rendering raised or
  stalled stayed open forever; now it ends with a plain "reload" message and its kernel stops.
* **Pages ask no other computer for anything** (:func:`local_only`): the lab template loads
  Font Awesome from a CDN (the page's widget bundle already has it); offline that request fails.
* **The page's computer reaches its kernel**: the header :data:`~.state.CLIENT_HEADER` is set
  to the address the page was asked from (whatever the browser sent under that name), and
  Voila gives it to the kernel as ``HTTP_X_TOKENS_EDU_CLIENT``: a browser's secret counts only
  from that computer (:mod:`tokens_edu.session.browser`).
* **Odd addresses are a plain 404**: a control character in the path (``x.ipynb%00.txt``) made
  Voila's redirect raise (500).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from pathlib import Path

import jinja2
import tornado.web
from jinja2.utils import htmlsafe_json_dumps

from .capacity import FULL_GRACE_S, is_full
from .limits import MEMORY_TEXT
from .pools import stop_quietly
from .state import CLIENT_HEADER, SEAT_COOKIE, ServeState, code_seat, seat_from_cookie
from .watch import check_unopened

__all__ = ["page_handler", "guarded_renderer", "guarded", "rewrite", "local_only", "render",
           "class_full_html", "page_failed_html", "hidden_path", "odd_path"]

log = logging.getLogger("tokens-edu")

#: ``<link>`` and ``<script>`` tags that load from another computer.
_OUTSIDE = re.compile(r'<(?:link|script)\b[^>]*\b(?:href|src)\s*=\s*"(?:https?:)?//[^"]*"[^>]*>(?:\s*</script>)?',
                      re.IGNORECASE)
#: One cell output of a Voila page: ``<script type="application/vnd.voila.cell-output+json">``.
_OUTPUT = re.compile(r'(<script type="application/vnd\.voila\.cell-output\+json">)(.*?)(</script>)', re.S)
_WIDGET = "application/vnd.jupyter.widget-view+json"
#: Seconds after the page loaded that its guard first asks whether its kernel runs, and then
#: how often (more often would only cost requests: a class of 30 asks 1.5 times a second).
GUARD_FIRST_MS, GUARD_EVERY_MS = 4000, 10000
#: Milliseconds after the page loaded that a page whose browser has not reached its kernel says
#: it could not (the kernel is kept meanwhile: a busy laptop may take that long).
GUARD_STUCK_MS = 30000
GONE_TEXT = ("This page has lost its lesson. Your saved answers are kept: press Reload to get a "
             "working page. If you typed something that is not saved yet, copy it first.")
AWAY_TEXT = ("The lesson server does not answer right now. When it is back, press Reload. If you "
             "typed something that is not saved yet, copy it first.")
STUCK_TEXT = ("This page could not reach its lesson. Press Reload to try again. If you typed "
              "something that is not saved yet, copy it first.")


@functools.lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).with_name("templates"))),
                              autoescape=True, keep_trailing_newline=True)


def render(name: str, **values) -> str:
    """The page template ``templates/<name>`` filled in with ``values`` (HTML-escaped)."""
    return _templates().get_template(name).render(**values)


@functools.lru_cache(maxsize=4)
def _guard(base_url: str) -> str:
    return render("page_guard.html", status_url=f"{base_url.rstrip('/')}/voila/api/kernel-status/",
                  first_ms=GUARD_FIRST_MS, every_ms=GUARD_EVERY_MS, stuck_ms=GUARD_STUCK_MS,
                  gone_text=GONE_TEXT, away_text=AWAY_TEXT, stuck_text=STUCK_TEXT,
                  memory_text=MEMORY_TEXT)


def class_full_html() -> str:
    """What a page shows when the class is full (served with HTTP 503, ``Retry-After: 60``)."""
    return render("notice.html", title="The class is full right now", css_class="tokens-class-full",
                  lines=["The class is full right now: wait a minute and reload."],
                  note="Tell your teacher if this happens again.", home=None)


def page_failed_html() -> str:
    """The end of a page whose rendering failed or took too long (its kernel is stopped)."""
    return render("page_failed.html")


def local_only(snippet: str) -> str:
    """``snippet`` (page HTML) without tags that load anything from another computer."""
    return _OUTSIDE.sub("", snippet) if "//" in snippet else snippet


def _plain_widget_output(match: re.Match) -> str:
    try:
        output = json.loads(match.group(2))
        data = output.get("data")
    except (ValueError, AttributeError):
        return match.group(0)
    if not isinstance(data, dict) or _WIDGET not in data or "text/plain" not in data:
        return match.group(0)
    del data["text/plain"]
    return f"{match.group(1)}\n    {htmlsafe_json_dumps(output)}\n  {match.group(3)}"


_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


#: The page's first script: it tells the server a browser has the page (``?hello=1``) and which
#: browser it is (its secret, as ``widgets/static/browser.js`` keeps it in ``localStorage``,
#: made here when the page is the browser's first), so a student's tabs count as one student at
#: the class cap (:mod:`.capacity`). ``URL`` is replaced by the kernel's status address.
_HELLO_JS = (
    "<script>try{var k='tokens-edu-browser',s=null;try{s=localStorage.getItem(k);"
    "if(!/^[A-Za-z0-9_-]{22,128}$/.test(s||'')){var b=new Uint8Array(24);"
    "crypto.getRandomValues(b);s=btoa(String.fromCharCode.apply(null,b)).replace(/[+]/g,'-')"
    ".replace(/[/]/g,'_').replace(/=+$/,'');localStorage.setItem(k,s)}}catch(e){s=null}"
    "fetch(URL,{cache:'no-store',credentials:'same-origin',"
    "headers:s?{'X-Tokens-Browser':s}:{}})}catch(e){}</script>")


def _hello(base_url: str, kernel_id: str) -> str:
    url = f"{base_url.rstrip('/')}/voila/api/kernel-status/{kernel_id}?hello=1"
    return _HELLO_JS.replace("URL", str(htmlsafe_json_dumps(url)), 1)


def rewrite(snippet: str, base_url: str = "/", kernel_id: str | None = None) -> str:
    """A piece of page HTML as served: nothing loaded from another computer, widget outputs
    without their ``text/plain`` form, and in the ``<head>``: first a one-line script that tells
    the server a browser has the page (``?hello=1``, see :mod:`.handlers`), last the page guard."""
    snippet = local_only(snippet)
    if _WIDGET in snippet:
        snippet = _OUTPUT.sub(_plain_widget_output, snippet)
    if kernel_id and "<head" in snippet:
        snippet = _HEAD.sub(lambda m: m.group(0) + _hello(base_url, kernel_id), snippet, count=1)
    if "</head>" in snippet:
        snippet = snippet.replace("</head>", _guard(base_url) + "</head>", 1)
    return snippet


async def guarded(agen, renderer, kernel_id, state: ServeState):
    """Yield ``agen``'s items (rewritten, :func:`rewrite`); end with :func:`page_failed_html` on
    an error or past the time limit.

    The limit (``page_timeout`` s) counts from ``renderer.requested_at``: for a page's own kernel
    from its first cell, for a warm kernel from the moment a page takes it (before that, a warm
    kernel may wait for its page as long as it likes).
    """
    limit = float(state.settings["page_timeout"])
    loop = asyncio.get_running_loop()
    base_url = getattr(renderer, "base_url", None) or "/"
    if getattr(renderer, "requested_at", None) is None and not renderer.warm:
        renderer.requested_at = loop.time()
    it = agen.__aiter__()
    while True:
        step = asyncio.ensure_future(it.__anext__())
        try:
            while True:
                done, _ = await asyncio.wait({step}, timeout=1.0)
                if done:
                    break
                started = getattr(renderer, "requested_at", None)
                if started is not None and loop.time() - started > limit:
                    step.cancel()
                    raise TimeoutError(f"the page took more than {limit:.0f} s")
            item = step.result()
        except StopAsyncIteration:
            return
        except (asyncio.CancelledError, GeneratorExit):
            step.cancel()
            raise
        except Exception as e:  # noqa: BLE001 (any failure ends the page in plain words)
            if not state.stopping:
                log.warning("A page of %s did not finish loading (%s); its kernel is stopped.",
                            renderer.notebook_path, e if isinstance(e, TimeoutError) else type(e).__name__)
                log.debug("Page failure", exc_info=True)
            if state.km is not None and kernel_id:
                asyncio.ensure_future(stop_quietly(state.km, kernel_id))
            yield page_failed_html(), None
            return
        if isinstance(item, tuple) and item and isinstance(item[0], str):
            item = (rewrite(item[0], base_url, kernel_id),) + tuple(item[1:])
        yield item


def guarded_renderer(base: type, state: ServeState) -> type:
    """Voila's ``NotebookRenderer`` whose page generator is :func:`guarded`."""

    class GuardedRenderer(base):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            # A page's own kernel: the handler makes the renderer. A warm one: the pool does.
            self.warm = kwargs.get("request_handler") is None
            self.requested_at = None

        def generate_content_generator(self, kernel_id=None, kernel_future=None):
            return guarded(super().generate_content_generator(kernel_id, kernel_future),
                           self, kernel_id, state)

    GuardedRenderer.__name__ = GuardedRenderer.__qualname__ = base.__name__
    return GuardedRenderer


def hidden_path(path: str, hidden: list[str]) -> bool:
    """True when ``path`` is in a hidden folder (``scenarios``) or names a hidden file."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    return any(p in hidden or p.startswith(".") for p in parts)


def odd_path(path: str) -> bool:
    """True when ``path`` holds a control character (no page has one; ``%00`` made Voila fail)."""
    return any(ord(c) < 32 or ord(c) == 127 for c in path)


def page_handler(base: type, state: ServeState) -> type:
    """Voila's page handler with the ``_xsrf`` cookie, the class cap and page bookkeeping."""

    class PageHandler(base):
        """A lesson page: ``/voila/render/<notebook>``."""

        async def get(self, path=None):
            # voila-dashboards/voila#1458: the page's shutdown beacon sends the _xsrf cookie's
            # value, but notebook pages never set the cookie (only templated pages do). Asking
            # for the token sets it on this response. Drop when Voila sets it itself.
            self.xsrf_token  # noqa: B018 (a property that sets the cookie)
            if path and (odd_path(path) or hidden_path(path, state.settings["hidden"])):
                raise tornado.web.HTTPError(404)
            if state.stopping:
                return self._notice(503, "The lesson server is stopping",
                                    "The lesson server is stopping. Wait a minute, then reload.")
            self._tokens_notebook = path
            km = state.km
            if path in state.demand.kinds:
                state.demand.note(path)
                if hasattr(km, "fill_all"):  # a page students are opening gets more warm kernels
                    km.fill_if_needed(None, path)
            client = self.request.remote_ip
            # The page's computer reaches its kernel (Voila's http_header_envs, set by the
            # launcher): set here, whatever the browser sent under that name.
            self.request.headers[CLIENT_HEADER] = str(client or "")
            student = code_seat(self.request.query) or seat_from_cookie(self.get_cookie(SEAT_COOKIE))
            why = is_full(state, path, client, student)
            waited = 0.0
            while why == "cap" and waited < FULL_GRACE_S:
                # A student moving on (Back, a link, a typed address) asks for the new page a
                # moment before their old page's close frees its kernel: give that a chance.
                await asyncio.sleep(0.25)
                waited += 0.25
                why = is_full(state, path, client, student)
            if why:
                self._said_full(why)
                self.set_header("Retry-After", "60")
                return self._notice(503, html=class_full_html())
            state.waiting[id(self)] = student
            with ServeState.serving(self):
                return await super().get(path)

        def _said_full(self, why: str) -> None:
            state.full_count += 1
            if state.full_count == 1 or state.full_count % 10 == 0:
                log.warning("The class is full (%s): a page was asked to wait (%d so far). %s",
                            f"{state.students()} students" if why == "cap" else "little memory left",
                            state.full_count,
                            "Raise --max-students if this computer has room." if why == "cap"
                            else "Close other programs on this computer.")

        def _notice(self, status: int, title: str = "", line: str = "", html: str | None = None):
            self.set_status(status)
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(html or render("notice.html", title=title, lines=[line], css_class=None,
                                       note=None, home=None))

        def should_use_rendered_notebook(self, notebook_data, pool_size, template_name, theme,
                                         request_args):
            # ?template= and ?theme= are ignored (overrides are off), so they must not send a
            # page past the warm kernels to start one of its own.
            return pool_size > 0 and len(notebook_data) > 0

        def on_finish(self):
            state.waiting.pop(id(self), None)
            kernel_id = getattr(self, "_tokens_kernel_id", None)
            page = state.pages.get(kernel_id)
            if page is not None:
                loop = asyncio.get_event_loop()
                page.served = loop.time()
                loop.call_later(float(state.settings["unopened_timeout"]) + 0.5,
                                lambda: asyncio.ensure_future(check_unopened(state, kernel_id)))
            self._release_cold()
            super().on_finish()

        def on_connection_close(self):
            # The browser left while the page was loading: free the start slot now.
            self._release_cold()
            super().on_connection_close()

        def _release_cold(self) -> None:
            if getattr(self, "_tokens_cold", False):
                self._tokens_cold = False
                state.cold.release()

    return PageHandler
