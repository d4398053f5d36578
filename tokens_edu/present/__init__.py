"""What a page may show, with no widgets: the presenter (:func:`present`: one player's
:class:`Page` of a game, :mod:`.page`), the card table's parts (:mod:`.faces`, :mod:`.table`),
card faces and print sheets (:mod:`.render`) and the words every page shares (:mod:`.words`).
The widgets, the teacher's dashboard and replays all draw from here, so a hidden card is kept
out in one place.
"""

from .page import REPLAY, Page, Seating, mask, present
from .render import print_sheet, render_card
from .table import table_state

__all__ = ["present", "Page", "Seating", "REPLAY", "mask", "render_card", "print_sheet", "table_state"]
