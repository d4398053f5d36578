"""The "What happened" pane: the game's log as the viewer reads it (the newest lines).

The lines are the presenter's (``page.log``): the viewer's own secret choices read "You make a
secret choice.", the other player's never name a hidden card. CSS class: ``tokens-log``.
"""

from __future__ import annotations

import ipywidgets as widgets

from . import Pane, esc

__all__ = ["LogPane", "LOG_TABLE_ROWS"]

#: The pane shows this many of the newest lines (a whole game has hundreds).
LOG_TABLE_ROWS = 40


class LogPane(Pane):
    """"What happened": the newest :data:`LOG_TABLE_ROWS` log lines. Attribute ``html``."""

    key = "log"
    title = "What happened"
    drawn_when_closed = True  # lessons read it in Python; it is a few lines of the page's own log

    def __init__(self, view):
        super().__init__(view)
        self.html = widgets.HTML()
        self.html.add_class("tokens-log")
        self.box = self.html

    def draw(self, page) -> None:
        lines = page.log
        self.html.value = ("<b>What happened</b><br>" + "<br>".join(esc(t) for t in lines[-LOG_TABLE_ROWS:])
                           if lines else "<i>Nothing has happened yet.</i>")

    def clear(self) -> None:
        self.html.value = ""
