"""The pixel grid: a square grid a student draws on (an anywidget custom widget).

Press and drag to paint squares (mouse, pen or finger). A **Draw / Rub out** switch above the grid
says what a stroke does (:attr:`PixelGrid.erase`): Draw makes squares dark wherever the stroke
starts, Rub out makes them light. The points of a fast stroke are joined into a line (Bresenham's
line between successive points, in the page), so no square is skipped. With the keyboard: Tab to
the switch or into the grid, arrows move, Space or Enter draws (or rubs out) a square. When
a stroke ends, the page sends the whole picture to the kernel (:attr:`PixelGrid.pixels`);
:meth:`PixelGrid.on_drawn` callbacks then run (lesson 8 labels the drawing live). The front end
is ``static/pixelgrid.js`` and ``static/pixelgrid.css``, shipped in the package (no CDN).

Stable CSS classes: ``tokens-pixelgrid`` (the widget), ``tpg-modes`` (the switch), ``tpg-mode-draw``
and ``tpg-mode-rub`` (its buttons, ``aria-pressed`` true when chosen), ``tpg-grid``, ``tpg-cell`` (each square,
``data-i`` its number, row by row), ``tpg-on`` (a dark square), ``tpg-tick`` (hidden: the
kernel's :attr:`~PixelGrid.version` and the number of dark squares, for browser tests).

Example::

    grid = PixelGrid(size=12)
    grid.on_drawn(lambda g: print(g.grid()))
    grid                                   # draw on it in the page
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets

from .bounds import Bits, Flag

__all__ = ["PixelGrid"]

log = logging.getLogger(__name__)

_STATIC = Path(__file__).resolve().parent / "static"


class PixelGrid(anywidget.AnyWidget):
    """A ``size`` x ``size`` grid of squares to draw on.

    Args:
        size: squares on each side (4 to 32; 12 by default, the size of the kit's sketches).
        cell: the width of one square on screen, in CSS pixels (10 to 48).
        label: what a screen reader says the grid is.

    Traits (synced): ``pixels`` (list of ``size * size`` ints, 0 light and 1 dark, row by row),
    ``size``, ``cell``, ``label``, ``disabled`` (True: no drawing), ``erase`` (False: a stroke
    draws; True: it rubs out; the switch sets it), ``version`` (grows each time the kernel has
    taken in a new picture). The page sets ``pixels`` (only a picture of the grid's own size)
    and ``erase`` (True or False) only (:mod:`tokens_edu.widgets.bounds`): the size is the lesson's.

    Raises:
        ValueError: a bad ``size`` or ``cell`` (plain words).
    """

    _esm = _STATIC / "pixelgrid.js"
    _css = _STATIC / "pixelgrid.css"

    #: The page sends its picture; every other trait is the kernel's (widgets/trust.py).
    _page_may_set = {"pixels": Bits(lambda grid: grid.size * grid.size), "erase": Flag()}

    pixels = traitlets.List(traitlets.Int()).tag(sync=True)
    size = traitlets.Int(12, min=4, max=32).tag(sync=True)
    cell = traitlets.Int(22, min=10, max=48).tag(sync=True)
    label = traitlets.Unicode("Drawing grid").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    erase = traitlets.Bool(False).tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)

    def __init__(self, size: int = 12, cell: int = 22, label: str = "Drawing grid", **kwargs):
        for name, value, low, high in (("size", size, 4, 32), ("cell", cell, 10, 48)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} is a whole number from {low} to {high}, not {value!r:.40}.")
        super().__init__(size=size, cell=cell, label=label, pixels=[0] * (size * size), **kwargs)
        self.add_class("tokens-pixelgrid")
        self._callbacks: list[Callable] = []
        self._quiet = False
        self.observe(self._changed, names="pixels")

    @traitlets.validate("pixels")
    def _valid(self, proposal):
        value = proposal["value"]
        n = self.size * self.size
        if len(value) != n:  # a page that sends a wrong length is answered with a clean grid
            log.info("PixelGrid: %d squares sent, %d expected", len(value), n)
            return [0] * n
        return [1 if v else 0 for v in value]

    def on_drawn(self, callback: Callable[["PixelGrid"], None]) -> None:
        """Call ``callback(grid)`` after each new picture from the page (a stroke ended). A
        callback that raises is logged; the grid goes on working."""
        self._callbacks.append(callback)

    def _changed(self, _change) -> None:
        if self._quiet:
            return
        for callback in list(self._callbacks):
            try:
                callback(self)
            except Exception:  # on Voila an error in a callback shows nowhere: log it
                log.exception("PixelGrid: a drawing callback failed")
        self.version += 1

    def grid(self) -> list[list[int]]:
        """The picture as ``size`` rows of ``size`` numbers (0 light, 1 dark)."""
        s = self.size
        return [list(self.pixels[r * s:(r + 1) * s]) for r in range(s)]

    @property
    def empty(self) -> bool:
        """True when no square is dark."""
        return not any(self.pixels)

    def show(self, rows) -> None:
        """Put a picture on the grid (rows of 0/1, or 0-255 with 128 and above dark) without
        calling the :meth:`on_drawn` callbacks.

        Raises:
            ValueError: not ``size`` rows of ``size`` numbers.
        """
        flat = [v for row in rows for v in row]
        if len(rows) != self.size or len(flat) != self.size * self.size:
            raise ValueError(f"A picture for this grid is {self.size} rows of {self.size} squares.")
        cut = 1 if max(flat, default=0) <= 1 else 128
        self._quiet = True
        try:
            self.pixels = [1 if v >= cut else 0 for v in flat]
        finally:
            self._quiet = False
        self.version += 1

    def clear(self) -> None:
        """Make every square light (without calling the :meth:`on_drawn` callbacks)."""
        self.show([[0] * self.size for _ in range(self.size)])
