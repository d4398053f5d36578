"""The card table: a game position drawn as cards on a table (an anywidget custom widget).

Two parts:

- the presenter (:func:`tokens_edu.present.present`) turns one position, as one player may see
  it, into a small JSON-able dict (``Page.state()``; :func:`~tokens_edu.present.table.table_state`
  for a replay): both sides (Tokens, hand size, deck and discard piles, Training Set as face-down
  cards), the Systems and Tools in play with their card faces, the viewer's own hand, and the
  viewer's legal moves tied to the cards they use and aim at. No widgets.
- :class:`CardTable` is the widget that draws such a dict in the browser (``static/table.js``
  and ``static/table.css``, shipped inside the package; no CDN). A student clicks a card to see
  its moves, clicks a move, and for a move that needs a target clicks the target card; Escape
  cancels. Every card and move is a real button with a label that reads the move, so Tab,
  Enter and screen readers work, and "All my moves" lists every move as a button. For the
  mouse and touch, a playable card also carries its moves as one-click buttons ("Task",
  "Train", "Deploy"; "Audit…" then asks for the target card), so most moves are one click.

The browser tells the kernel what was clicked with small messages, each with ``v``, the version
of the state it drew: ``{"type": "move", "i": index, "v": version}`` (a move by its index in
``state["moves"]``), ``"step"``, ``"undo"``, ``"pause"``, ``"speed"``, ``"reveal"``, ``"again"``,
``"read"``; :class:`~tokens_edu.widgets.GameView` answers them and trusts none of them. The
widget's synced state is only ``state`` (the dict above), ``palette`` (card colors) and
``pictures`` (every Alpha Set card's picture, the same for every game: it tells nothing
hidden); the page sets none of them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets

from .. import _moved
from ..present.faces import table_pictures as _table_pictures
from ..present.render import COLOR_STYLES
from .trust import refuse

__all__ = ["CardTable"]

# Old names of this module: the table's state and parts live in tokens_edu.present (until
# tokens-edu 0.4.0).
__getattr__ = _moved.moved_names(__name__)

log = logging.getLogger(__name__)

_STATIC = Path(__file__).resolve().parent / "static"


class CardTable(anywidget.AnyWidget):
    """The card table widget: draws a :func:`~tokens_edu.present.table.table_state` dict plus the
    view's controls.

    Traits (synced to the browser, so they hold only what the viewer may see):
        state: the dict the page draws (see :func:`~tokens_edu.present.table.table_state`;
            :class:`GameView` adds ``v`` (a version number that grows with every answer), ``status``, ``step``,
            ``note``, ``banner``, ``cover``, ``bot``, ``autoplay``, ``paused``, ``delay``,
            ``undo``, ``title``).
        palette: card colors per card color (from :data:`tokens_edu.present.render.COLOR_STYLES`).
        pictures: each card picture by icon name (a face's ``icon``), an ``<svg>`` string from
            :func:`tokens_edu.card_picture` inked ``currentColor``: the Alpha Set's pictures
            (:func:`~tokens_edu.present.faces.table_pictures`), sent once (about 40 kB of JSON).
            A face whose icon is not in it is drawn without a picture.

    Messages from the page go to the callables in :attr:`handlers` (one per message type); a
    message that is not a dict or of a type with no handler is refused and logged once
    (:func:`tokens_edu.widgets.trust.refuse`). The handler checks the rest (GameView checks
    every message against what it drew).

    CSS classes in the page (stable, for tests and teachers' stylesheets): ``tokens-table``
    (the whole table), ``tt-side-top`` / ``tt-side-bottom``, ``tt-board``, ``tt-hand``,
    ``tt-card`` (every card; ``data-id`` holds its board label or ``hand:<name>``), ``tt-pic``
    (a card's picture),
    ``tt-playable``, ``tt-target``, ``tt-sideways``, ``tt-hl``, ``tt-slot`` (a playable card
    with its one-click buttons), ``tt-quick-btn`` and ``tt-quick-<kind>`` (those buttons; a
    move without a choice has ``data-quick`` = the move, ``tt-quick-aim`` asks for a target,
    ``tt-quick-more`` opens the card's moves), ``tt-panel`` (the moves beside
    the table), ``tokens-action`` (every move button; its text is the move), ``tt-movelist``,
    ``tokens-next``, ``tokens-undo``, ``tokens-pause``, ``tokens-reveal``, ``tokens-again``,
    ``tt-banner``, ``tt-cover``, ``tokens-status``, ``tokens-tick`` (hidden; the state's
    version once the page has drawn it).
    """

    _esm = _STATIC / "table.js"
    _css = _STATIC / "table.css"
    #: The page sets none of the traits: it only draws them and sends messages (widgets/trust.py).
    _page_may_set = ()
    state = traitlets.Dict().tag(sync=True)
    palette = traitlets.Dict().tag(sync=True)
    pictures = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_class("tokens-card-table")
        self.palette = {k: dict(v) for k, v in COLOR_STYLES.items()}
        self.pictures = _table_pictures()
        self.handlers: dict[str, Callable[[dict], None]] = {}
        self.on_msg(self._on_page_msg)

    def _on_page_msg(self, _widget, content, _buffers=None) -> None:
        if not isinstance(content, dict):
            refuse(self, "a message that is not a message")
            return
        handler = self.handlers.get(str(content.get("type", "")))
        if handler is None:
            refuse(self, "a message of no known type", str(content.get("type"))[:20])
            return
        handler(content)
