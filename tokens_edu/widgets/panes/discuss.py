"""The Discuss area under the card table: each card deployed in the game offers its Discuss
question, saved through the page session (a :class:`~tokens_edu.widgets.DiscussBox` per card).

Nothing a student writes is discarded or hidden by the game (issue 21 part 3): a newly deployed
card is **offered, not forced**, while the box on screen holds words that are not saved (typed
just now, which the page says at once, or kept as a draft). The new card goes into the list
and a line under it says so, with a button to open its question; the student's box stays. With
no unsaved words, the new card's question is shown at once. A box the student leaves stays in
the page (hidden), so words typed in it are there again when they come back to it.

The question is offered only after the table was drawn (the page learns of a card from the
table before any pane names it).

CSS classes: ``tokens-discuss-area``, ``tokens-discuss-pick`` (the list of deployed cards),
``tokens-discuss-offer`` (the line offering a new card) and ``tokens-discuss-offer-button``.
"""

from __future__ import annotations

import logging
import re

import ipywidgets as widgets

from ...content.cards import load_cards
from ..discuss import DiscussBox
from . import esc

__all__ = ["DiscussArea"]

log = logging.getLogger(__name__)

_INTRO = "<b>Discuss</b>: a card was deployed. Read its question and write what you think."
_TAKE_TURNS = (" <b>Take turns:</b> type <b>your own name</b> in the name box,"
               " then write your answer and click Save.")


class DiscussArea:
    """The Discuss questions of the cards deployed in a game.

    Args:
        view: the GameView (for ``guard``). session: the page's
            :class:`~tokens_edu.session.PageSession` answers go through; None: no Discuss area
            (nothing is shown). hot_seat: two students share the screen.

    Attributes:
        box: the area (hidden until a card is deployed). pick: the ``Dropdown`` of deployed
            cards, newest first. slot: the ``VBox`` of the boxes made so far (one is shown).
        offer: the ``HBox`` offering a new card (``offer.children``: the line, the button).
        boxes: card name -> :class:`DiscussBox`. shown: the card whose box is shown, or None.
        deployed: the cards deployed, oldest first (each once).
    """

    def __init__(self, view, session, hot_seat: bool = False):
        self.view, self.session = view, session
        self.boxes: dict[str, DiscussBox] = {}
        self.deployed: list[str] = []
        self.shown: str | None = None
        self._pending: list[str] = []
        self._offered: str | None = None
        self._quiet = False
        self.pick = widgets.Dropdown(description="Card", options=[], style={"description_width": "initial"})
        self.pick.add_class("tokens-discuss-pick")
        self.pick.observe(view.guard(self._on_pick), names="value")
        self.offer_line = widgets.HTML()
        self.offer_button = widgets.Button(layout=widgets.Layout(width="auto"), button_style="primary")
        self.offer_button.add_class("tokens-discuss-offer-button")
        self.offer_button.on_click(view.guard(self._on_offer))
        self.offer = widgets.HBox([self.offer_line, self.offer_button], layout=widgets.Layout(display="none"))
        self.offer.add_class("tokens-discuss-offer")
        self.slot = widgets.VBox()
        self.box = widgets.VBox([widgets.HTML(_INTRO + (_TAKE_TURNS if hot_seat else "")), self.pick,
                                 self.offer, self.slot])
        self.box.add_class("tokens-discuss-area")
        self.box.layout.display = "none"

    # -- from the view ---------------------------------------------------------------------
    def deployed_card(self, card_name: str) -> None:
        """A card was deployed: its question is offered once the table is drawn (:meth:`offer_pending`)."""
        self._pending.append(card_name)

    def offer_pending(self) -> None:
        """Offer the questions of the cards deployed since the last drawing (never raises)."""
        while self._pending:
            card = self._pending.pop(0)
            try:  # the move is made; a Discuss problem must not hide that
                self._arrived(card)
            except Exception:  # noqa: BLE001
                log.exception("Discuss: could not offer the question of %s", card)

    # -- inside ----------------------------------------------------------------------------
    def _arrived(self, card_name: str) -> None:
        name = re.sub(r"\s*#\d+$", "", str(card_name))
        if name in self.deployed:
            self.deployed.remove(name)
        self.deployed.append(name)
        if self.session is None:
            return
        self.box.layout.display = None
        keep = self.shown is not None and self.boxes[self.shown].unsaved and self.shown != name
        self._set_pick(self.shown if keep else name)
        if keep:
            self._offer(name)
        else:
            self.show(name)

    def _set_pick(self, value: str | None) -> None:
        self._quiet = True
        try:
            options = list(reversed(self.deployed))
            if list(self.pick.options) != options:
                self.pick.options = options
            self.pick.value = value
        finally:
            self._quiet = False

    def _offer(self, name: str) -> None:
        self._offered = name
        mine = self.shown or "your card"
        self.offer_line.value = (f"<b>{esc(name)}</b> was just deployed. Your answer about {esc(mine)} "
                                 "is not saved yet, so it stays here.")
        self.offer_button.description = f"Show {name}'s question"
        self.offer.layout.display = None

    def show(self, name: str) -> None:
        """Show the question of ``name`` (a deployed card); the other boxes stay in the page, hidden."""
        if self.session is None:
            return
        box = self.boxes.get(name)
        if box is None:
            box = DiscussBox(load_cards()[name], self.session)
            self.boxes[name] = box
            self.slot.children = tuple(self.slot.children) + (box,)
        for other in self.boxes.values():
            other.layout.display = None if other is box else "none"
        self.shown = name
        if self.pick.value != name:
            self._set_pick(name)
        if self._offered == name:
            self._offered = None
            self.offer.layout.display = "none"

    def _on_offer(self, _button=None) -> None:
        if self._offered is not None:
            self.show(self._offered)

    def _on_pick(self, change) -> None:
        name = change.get("new") if isinstance(change, dict) else None
        if name and not self._quiet:
            self.show(name)
