"""The panes under the card table of a :class:`~tokens_edu.widgets.GameView`, one module each.

A pane is a box the student opens and closes with a button under the table ("Why can't I?",
"What happened", "Moves and replay", "State tables", "Read a card"). Every pane draws from the
presenter's :class:`~tokens_edu.present.Page` (what the viewer may see now), never from the
game behind it, so a pane can't show what the table would not:

- :meth:`Pane.draw` is called with the page while the pane is open, after every change (and
  while closed too for a pane with ``drawn_when_closed``, e.g. "What happened");
- :meth:`Pane.clear` empties a closed pane that was drawn for other eyes (hot seat: when the
  cover goes up, nothing of the last player's hand stays in the page, not even in a closed
  pane, issue 21 part 6).

A pane's widgets carry stable CSS classes (``tokens-pane`` and ``tokens-pane-<key>`` on the box,
more inside, listed in each module) for browser tests, teachers' stylesheets and the table's
redesign. The Discuss area under the panes is :mod:`.discuss`.
"""

from __future__ import annotations

import html

__all__ = ["Pane", "esc", "NOBODY"]

#: ``Pane.drawn_for`` before a pane was drawn (no viewer's eyes yet).
NOBODY = object()


def esc(value: object) -> str:
    """``value`` as text, HTML-escaped (quotes too): every text that may come from a student."""
    return html.escape("" if value is None else str(value), quote=True)


class Pane:
    """A pane under the card table, drawn from the presenter's :class:`~tokens_edu.present.Page`.

    A subclass sets :attr:`key` (a short id: the CSS class ``tokens-pane-<key>``) and
    :attr:`title` (the button's words), builds its widgets and :attr:`box` in ``__init__``, and
    implements :meth:`draw` and :meth:`clear`. Callbacks go through ``view.guard`` (errors become
    a friendly note; the table is drawn again after).

    Attributes:
        view: the GameView. box: the pane's one widget. drawn_for: the viewer (0, 1, None) the
            pane was last drawn for, or :data:`NOBODY`.
    """

    key = ""
    title = ""
    #: drawn after every change even while closed (cheap panes that lessons read in Python);
    #: it is still drawn from the page, so under a cover it holds only what the cover allows
    drawn_when_closed = False

    def __init__(self, view):
        self.view = view
        self.box = None
        self.drawn_for = NOBODY

    def draw(self, page) -> None:
        """Show ``page`` (the viewer's page now). Called while the pane is open."""
        raise NotImplementedError

    def clear(self) -> None:
        """Forget everything shown (a closed pane drawn for other eyes)."""
        raise NotImplementedError
