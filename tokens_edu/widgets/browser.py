"""The page's browser, told to the kernel: a secret kept by the browser (front end ``static/browser.js``).

Without a class list or a login, a name typed on a lesson page (or put in its link,
``?student=Bo``) is not proof of who is at the page. So the store lets such a page read back only
what its own browser wrote (:mod:`tokens_edu.session.browser`): each browser makes a random
secret once, keeps it in its ``localStorage``, and this widget sends it to the kernel when it is
drawn; the store keeps only a hash of it with each answer, draft and game.

The Discuss box and the game keeper each hold one (invisible) :class:`BrowserKey`.
"""

from __future__ import annotations

import logging
from pathlib import Path

import anywidget

__all__ = ["BrowserKey"]

log = logging.getLogger(__name__)


class BrowserKey(anywidget.AnyWidget):
    """An invisible widget whose front end sends the browser's secret once it is drawn.

    Args:
        on_browser: ``on_browser(secret)``, called with the secret (a str) each time the page
            sends it (once per drawing of the widget). Errors in it are logged, never raised.
        **kwargs: passed to ``anywidget.AnyWidget``.

    The message from the page is ``{"type": "browser", "browser": secret}``; :meth:`handle` takes
    it (tests play the page's part with it).
    """

    _esm = Path(__file__).resolve().parent / "static" / "browser.js"

    def __init__(self, on_browser=None, **kwargs):
        super().__init__(**kwargs)
        self._on_browser = on_browser
        self.layout.display = "none"
        self.on_msg(lambda _w, content, _buffers: self.handle(content))

    def handle(self, content: dict) -> None:
        """Act on one message from the page (never raises)."""
        if not isinstance(content, dict) or content.get("type") != "browser":
            return
        secret = content.get("browser")
        if not isinstance(secret, str) or self._on_browser is None:
            return
        try:
            self._on_browser(secret)
        except Exception:
            log.exception("BrowserKey: the page's browser could not be used")
