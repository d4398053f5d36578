"""What a page may show, with no widgets: card faces and print sheets (:mod:`.render`) and the
card table's state for one viewer (:mod:`.table`). The widgets, the teacher's dashboard and
replays all draw from here, so a hidden card is kept out in one place.
"""

from .render import print_sheet, render_card
from .table import table_state

__all__ = ["render_card", "print_sheet", "table_state"]
