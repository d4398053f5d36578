"""The kernel trusts nothing from the page (issue 20 part 7).

A page talks to the kernel through each widget's comm: state updates ("the student typed
this") and custom messages ("this button was clicked", the card table's moves). Anyone can
open the browser's console and send any of them, so ipywidgets' own rule, "the front end sets
what it likes", is not enough for a classroom: out of the box a page can change a widget the
kernel has disabled (a locked name, a prediction already checked) or click a greyed-out button.

:func:`install` (done when :mod:`tokens_edu.widgets` is imported) adds one check in front of
every widget's messages, for our widgets and ipywidgets' alike:

- a state update to a **disabled** widget is refused whole (the page can't type in a disabled
  box or pick in a locked list);
- a state update to a trait **the page never sets** is refused whole: a widget class says which
  traits its page may set in ``_page_may_set`` (our card table and answer box: none; ipywidgets'
  inputs: ``value``, its choice lists: ``index``, tabs: ``selected_index``, display widgets:
  none; see :data:`PAGE_MAY_SET`); a class not listed is trusted except when disabled;
- a click on a **disabled** or hidden (``layout.display == "none"``) button is refused.

A refused message changes nothing (the page is sent the kernel's values back, so a page that
raced a lock shows the truth) and is logged by :func:`refuse`: once at WARNING per widget and
kind, then at DEBUG (a page that sends the same thing a thousand times fills no log). Custom
messages are checked by the widget that answers them (:class:`~tokens_edu.widgets.GameView`
checks every move against what it drew; it calls :func:`refuse` too).

Python code is trusted: ``button.click()`` or ``widget.value = ...`` in a notebook or a test
goes straight through; only messages from a page are checked.
"""

from __future__ import annotations

import logging
import weakref

import ipywidgets as widgets

__all__ = ["install", "refuse", "page_may_set", "PAGE_MAY_SET", "Refused"]

log = logging.getLogger(__name__)

#: The traits a page may set, per ipywidgets class (the first class found along a widget's
#: MRO decides). Our own widgets say it themselves with a ``_page_may_set`` attribute.
PAGE_MAY_SET: dict[type, frozenset] = {
    widgets.Text: frozenset({"value"}), widgets.Textarea: frozenset({"value"}),
    widgets.Password: frozenset({"value"}), widgets.Combobox: frozenset({"value"}),
    widgets.Checkbox: frozenset({"value"}), widgets.ToggleButton: frozenset({"value"}),
    widgets.IntSlider: frozenset({"value"}), widgets.FloatSlider: frozenset({"value"}),
    widgets.IntText: frozenset({"value"}), widgets.FloatText: frozenset({"value"}),
    widgets.BoundedIntText: frozenset({"value"}), widgets.BoundedFloatText: frozenset({"value"}),
    widgets.Dropdown: frozenset({"index"}), widgets.RadioButtons: frozenset({"index"}),
    widgets.ToggleButtons: frozenset({"index"}), widgets.Select: frozenset({"index"}),
    widgets.SelectionSlider: frozenset({"index"}), widgets.SelectMultiple: frozenset({"index"}),
    widgets.Tab: frozenset({"selected_index"}), widgets.Accordion: frozenset({"selected_index"}),
    widgets.HTML: frozenset(), widgets.HTMLMath: frozenset(), widgets.Label: frozenset(),
    widgets.Button: frozenset(), widgets.Box: frozenset(), widgets.Layout: frozenset(),
}

class Refused(Exception):
    """Raised inside a handler for a message the page could not have sent (after :func:`refuse`
    logged it): the handler stops, nothing changes and nothing is drawn."""


_told: "weakref.WeakKeyDictionary[object, set]" = weakref.WeakKeyDictionary()
_installed = False


def page_may_set(widget) -> frozenset | None:
    """The traits a page may set on ``widget`` (None: any, the class is not known here)."""
    own = getattr(type(widget), "_page_may_set", None)
    if own is not None:
        return frozenset(own)
    for cls in type(widget).__mro__:
        if cls in PAGE_MAY_SET:
            return PAGE_MAY_SET[cls]
    return None


def refuse(widget, what: str, detail: str = "") -> None:
    """Log that a message from the page was refused: at WARNING the first time for this widget
    and ``what`` (a short fixed phrase, e.g. "a change to a disabled widget"), at DEBUG after.

    ``detail`` may say more (a message's type, a trait's name); it must never carry a card
    name or anything the page may not know (log lines are read by people).
    """
    key = widget if widget is not None else refuse
    try:
        told = _told.setdefault(key, set())
    except TypeError:  # an object that cannot be weakly referenced: tell every time at DEBUG
        told = {what}
    name = type(widget).__name__
    if what in told:
        log.debug("Refused from the page (again): %s on %s %s", what, name, detail)
        return
    told.add(what)
    log.warning("Refused from the page: %s on %s%s. Nothing was changed.", what, name,
                f" ({detail})" if detail else "")


def _hidden(widget) -> bool:
    layout = getattr(widget, "layout", None)
    return getattr(layout, "display", None) == "none" or getattr(layout, "visibility", None) == "hidden"


def _checked_handle_msg(original):
    def _handle_msg(self, msg):
        try:
            data = msg["content"]["data"]
            method = data.get("method")
        except (KeyError, TypeError, AttributeError):
            return original(self, msg)
        if method == "update" and isinstance(data.get("state"), dict):
            state = data["state"]
            if getattr(self, "disabled", False) is True:
                refuse(self, "a change to a disabled widget", ", ".join(sorted(map(str, state)))[:80])
                self.send_state(key=[k for k in state if k in self.keys])
                return None
            allowed = page_may_set(self)
            if allowed is not None and not set(state) <= allowed:
                bad = sorted(str(k) for k in set(state) - allowed)
                refuse(self, "a change the page never makes", ", ".join(bad)[:80])
                self.send_state(key=[k for k in state if k in self.keys])
                return None
        return original(self, msg)

    _handle_msg.__wrapped__ = original
    _handle_msg.__doc__ = original.__doc__
    return _handle_msg


def _checked_button_msg(original):
    def _handle_button_msg(self, _widget, content, buffers):
        if isinstance(content, dict) and content.get("event") == "click":
            if self.disabled:
                refuse(self, "a click on a disabled button", str(self.description)[:40])
                return None
            if _hidden(self):
                refuse(self, "a click on a hidden button", str(self.description)[:40])
                return None
        return original(self, _widget, content, buffers)

    _handle_button_msg.__wrapped__ = original
    _handle_button_msg.__doc__ = original.__doc__
    return _handle_button_msg


def install() -> None:
    """Put the checks in front of every widget's messages from the page (once per process)."""
    global _installed
    if _installed:
        return
    widgets.Widget._handle_msg = _checked_handle_msg(widgets.Widget._handle_msg)
    widgets.Button._handle_button_msg = _checked_button_msg(widgets.Button._handle_button_msg)
    _installed = True
