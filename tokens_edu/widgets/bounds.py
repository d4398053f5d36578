"""What a page may set on a widget, and the type and range each value must have (issue 29 part 1).

A page changes a widget by sending a state update ("the student typed this"). Anyone can send
any update from the browser's console, with any value: lesson 8's drawing grid once took a page's
``size`` of 9000 and grew its kernel to 2.1 GB. So every trait a page may set is listed here with
a :class:`Bound` (its type and range), checked in the kernel before the value is taken
(:mod:`tokens_edu.widgets.trust`); a trait not listed is not the page's to set at all.

* ipywidgets' own inputs: :data:`PAGE_BOUNDS` (a text box's ``value``: text up to
  :data:`TEXT_CHARS` characters; a slider's: a number between its ``min`` and ``max``; a
  choice list's ``index``: one of its options...).
* our widgets say it in a ``_page_may_set`` attribute: a dict of trait name to :class:`Bound`
  (an empty one when the page sets nothing and only sends messages).

The limits are well above what a student can type or draw, so a real page is never refused:
a refused value is sent back as the kernel's, which would undo what the student did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping

import ipywidgets as widgets

__all__ = ["Bound", "Text", "Flag", "Number", "Choice", "Bits", "Outputs", "PAGE_BOUNDS",
           "page_bounds", "TEXT_CHARS", "LONG_TEXT_CHARS", "NUMBER_LIMIT"]

#: The most characters a one-line text box takes from the page (names, guesses, searches).
TEXT_CHARS = 2_000
#: The most characters a multi-line text box takes (the store keeps answers up to 5,000 and
#: says so itself; this only stops a page from sending megabytes).
LONG_TEXT_CHARS = 20_000
#: The largest number (either sign) a number box takes from the page.
NUMBER_LIMIT = 1e9


class Bound:
    """The type and range of one trait's value from the page.

    Subclasses answer :meth:`problem`: None when ``value`` may be taken, else a short phrase
    for the log (it names no value: a value may be anything a page typed).
    """

    def problem(self, widget, value) -> str | None:  # pragma: no cover - abstract
        """Why ``value`` (as the page sent it) cannot be set on ``widget``, or None."""
        raise NotImplementedError


class Text(Bound):
    """Text of at most ``max_chars`` characters."""

    def __init__(self, max_chars: int = TEXT_CHARS):
        self.max_chars = int(max_chars)

    def problem(self, widget, value) -> str | None:
        if not isinstance(value, str):
            return "not text"
        if len(value) > self.max_chars:
            return f"text over {self.max_chars:,} characters"
        return None


class Flag(Bound):
    """True or False."""

    def problem(self, widget, value) -> str | None:
        return None if isinstance(value, bool) else "not true or false"


def _limit(widget, limit) -> float | None:
    if callable(limit):
        return limit(widget)
    if isinstance(limit, str):
        return getattr(widget, limit, None)
    return limit


class Number(Bound):
    """A number from ``low`` to ``high`` (each a number, the name of one of the widget's traits
    such as ``"min"``, or a function of the widget); ``whole``: an integer."""

    def __init__(self, low=-NUMBER_LIMIT, high=NUMBER_LIMIT, whole: bool = False):
        self.low, self.high, self.whole = low, high, whole

    def problem(self, widget, value) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "not a number"
        if self.whole and not isinstance(value, int):
            return "not a whole number"
        if isinstance(value, float) and not math.isfinite(value):
            return "not a number"
        low, high = _limit(widget, self.low), _limit(widget, self.high)
        if (low is not None and value < low) or (high is not None and value > high):
            return "a number out of range"
        return None


class Choice(Bound):
    """The position of one of the widget's ``among`` (``"options"``, or ``"children"`` for
    tabs), or None when ``none`` is allowed; ``multiple``: a list of distinct positions."""

    def __init__(self, among: str = "options", none: bool = True, multiple: bool = False):
        self.among, self.none, self.multiple = among, none, multiple

    def _one(self, value, count: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count

    def problem(self, widget, value) -> str | None:
        count = len(getattr(widget, self.among, ()) or ())
        if self.multiple:
            if not isinstance(value, (list, tuple)) or len(value) > count:
                return "not a list of choices"
            if not all(self._one(v, count) for v in value) or len(set(value)) != len(value):
                return "a choice that is not offered"
            return None
        if value is None:
            return None if self.none else "no choice"
        return None if self._one(value, count) else "a choice that is not offered"


class Bits(Bound):
    """A list of exactly ``count(widget)`` numbers, each 0 or 1 (a drawing's squares)."""

    def __init__(self, count: Callable[[object], int]):
        self.count = count

    def problem(self, widget, value) -> str | None:
        if not isinstance(value, (list, tuple)) or len(value) != self.count(widget):
            return "not a picture of the grid's size"
        if not all(v in (0, 1) and not isinstance(v, float) for v in value):
            return "not a picture of 0s and 1s"
        return None


class Outputs(Bound):
    """An Output widget's outputs as its front end sends them back (what it captured): at most
    ``max_items`` output dicts, ``max_chars`` characters of JSON in all."""

    def __init__(self, max_items: int = 500, max_chars: int = 4_000_000):
        self.max_items, self.max_chars = max_items, max_chars

    def problem(self, widget, value) -> str | None:
        if not isinstance(value, (list, tuple)) or len(value) > self.max_items:
            return "not a list of outputs"
        if not all(isinstance(v, dict) for v in value):
            return "not a list of outputs"
        try:
            size = len(json.dumps(value))
        except (TypeError, ValueError):
            return "not a list of outputs"
        return None if size <= self.max_chars else "outputs too large"


_TEXT = {"value": Text()}
_LONG_TEXT = {"value": Text(LONG_TEXT_CHARS)}
_FLAG = {"value": Flag()}
_INDEX = {"index": Choice()}
_TABS = {"selected_index": Choice("children")}
_BETWEEN = {"value": Number("min", "max")}

#: The traits a page may set, per ipywidgets class, with their bounds (the first class found
#: along a widget's MRO decides). A class not found here, and without ``_page_may_set``, takes
#: nothing from the page.
PAGE_BOUNDS: dict[type, dict[str, Bound]] = {
    widgets.Text: _TEXT, widgets.Password: _TEXT, widgets.Combobox: _TEXT,
    widgets.Textarea: _LONG_TEXT,
    widgets.Checkbox: _FLAG, widgets.ToggleButton: _FLAG,
    widgets.IntSlider: {"value": Number("min", "max", whole=True)},
    widgets.BoundedIntText: {"value": Number("min", "max", whole=True)},
    widgets.FloatSlider: _BETWEEN, widgets.BoundedFloatText: _BETWEEN,
    widgets.IntText: {"value": Number(whole=True)}, widgets.FloatText: {"value": Number()},
    widgets.Dropdown: _INDEX, widgets.RadioButtons: _INDEX, widgets.ToggleButtons: _INDEX,
    widgets.Select: _INDEX, widgets.SelectionSlider: {"index": Choice(none=False)},
    widgets.SelectMultiple: {"index": Choice(multiple=True)},
    widgets.Tab: _TABS, widgets.Accordion: _TABS,
    widgets.Output: {"outputs": Outputs()},
    widgets.HTML: {}, widgets.HTMLMath: {}, widgets.Label: {}, widgets.Button: {},
    widgets.Box: {}, widgets.Layout: {},
}


def page_bounds(widget) -> dict[str, Bound]:
    """The traits a page may set on ``widget`` (an instance or a class), each with its
    :class:`Bound`; ``{}`` when the page may set none.

    Raises:
        TypeError: a widget class's ``_page_may_set`` is not a mapping of names to bounds
            (or an empty collection).
    """
    cls = widget if isinstance(widget, type) else type(widget)
    own = getattr(cls, "_page_may_set", None)
    if own is not None:
        if not own:
            return {}
        if not isinstance(own, Mapping) or not all(isinstance(b, Bound) for b in own.values()):
            raise TypeError(f"{cls.__name__}._page_may_set must map trait names to Bounds.")
        return dict(own)
    for base in cls.__mro__:
        if base in PAGE_BOUNDS:
            return dict(PAGE_BOUNDS[base])
    return {}
