"""The "Read a card" pane: pick a card from your hand or the board and read the whole card.

It offers only what the presenter says the viewer may read (``page.readable``: their hand and
the cards in play; under a hot-seat cover, the cards in play only). "Read the whole card" on
the table opens it with that card. CSS classes: ``tokens-card-pick`` (the list),
``tokens-card-view`` (the card).
"""

from __future__ import annotations

import ipywidgets as widgets

from ...content.cards import load_cards
from ...present.render import SCREEN_SCALE, render_card
from . import Pane

__all__ = ["ReadPane"]


class ReadPane(Pane):
    """"Read a card". Attributes: ``pick`` (the ``Dropdown``), ``card`` (the card's ``HTML``)."""

    key = "read"
    title = "Read a card"

    def __init__(self, view):
        super().__init__(view)
        self._quiet = False
        self.pick = widgets.Dropdown(description="Card", options=[], value=None,
                                     style={"description_width": "initial"})
        self.pick.add_class("tokens-card-pick")
        self.pick.observe(view.guard(self._on_pick), names="value")
        self.card = widgets.HTML()
        self.card.add_class("tokens-card-view")
        self.box = widgets.VBox([widgets.HTML("Pick a card from your hand or the board to read it."),
                                 self.pick, self.card])

    def _set(self, options, value) -> None:
        self._quiet = True
        try:
            if list(self.pick.options) != list(options):
                self.pick.options = list(options)
            self.pick.value = value
        finally:
            self._quiet = False

    def draw(self, page) -> None:
        options = list(page.readable)
        if list(self.pick.options) != options:
            keep = self.pick.value if self.pick.value in options else None
            self._set(options, keep)
            if keep is None:
                self.card.value = ""

    def show(self, name: str) -> bool:
        """Show the card ``name`` if it is offered now. Returns True when it is."""
        if name in self.pick.options:
            self.pick.value = name
            return True
        return False

    def clear(self) -> None:
        self._set([], None)
        self.card.value = ""

    def _on_pick(self, change) -> None:
        name = change.get("new") if isinstance(change, dict) else None
        if self._quiet:
            return
        self.card.value = render_card(load_cards()[name], scale=SCREEN_SCALE) if name else ""
