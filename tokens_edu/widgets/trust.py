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
  traits its page may set in ``_page_may_set`` (our card table and answer box: none; the
  drawing grid: its ``pixels``; ipywidgets' inputs: ``value``, its choice lists: ``index``,
  tabs: ``selected_index``, display widgets: none; see :mod:`tokens_edu.widgets.bounds`); a
  class not listed takes nothing from the page;
- a state update whose value has the **wrong type or is out of range** is refused whole: each
  trait a page may set has a :class:`~tokens_edu.widgets.bounds.Bound` (text up to a length, a
  number in its range, a choice that is offered, a picture of the grid's own size);
- a **new widget made by the page** (a ``comm_open`` to ``jupyter.widget``, which ipywidgets
  would build with whatever state the page sends) is refused: our pages never make one; and
  the page's widget-control channel is kept to one (a page opening it again and again would
  pile up channels in the kernel);
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

from .. import _moved
from .bounds import PAGE_BOUNDS
from .bounds import page_bounds as _page_bounds

__all__ = ["install", "refuse", "page_may_set", "PAGE_MAY_SET", "Refused"]

# Old names of this module (page_bounds: in .bounds), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

log = logging.getLogger(__name__)

#: The traits a page may set, per ipywidgets class (names only; their bounds are
#: :data:`tokens_edu.widgets.bounds.PAGE_BOUNDS`).
PAGE_MAY_SET: dict[type, frozenset] = {cls: frozenset(b) for cls, b in PAGE_BOUNDS.items()}

class Refused(Exception):
    """Raised inside a handler for a message the page could not have sent (after :func:`refuse`
    logged it): the handler stops, nothing changes and nothing is drawn."""


_told: "weakref.WeakKeyDictionary[object, set]" = weakref.WeakKeyDictionary()
_installed = False


def page_may_set(widget) -> frozenset:
    """The names of the traits a page may set on ``widget`` (empty: none; see
    :func:`tokens_edu.widgets.bounds.page_bounds` for their bounds)."""
    return frozenset(_page_bounds(widget))


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
    name = type(widget).__name__ if widget is not None else "the kernel"
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
            bounds = _page_bounds(self)
            if not set(state) <= set(bounds):
                bad = sorted(str(k) for k in set(state) - set(bounds))
                refuse(self, "a change the page never makes", ", ".join(bad)[:80])
                self.send_state(key=[k for k in state if k in self.keys])
                return None
            if data.get("buffer_paths"):  # our pages send no binary values
                refuse(self, "a change with binary data", ", ".join(sorted(map(str, state)))[:80])
                self.send_state(key=[k for k in state if k in self.keys])
                return None
            for name, value in state.items():
                problem = bounds[name].problem(self, value)
                if problem is not None:
                    refuse(self, f"a value out of range ({problem})", str(name)[:40])
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


def refuse_page_widget(comm, msg) -> None:
    """The ``jupyter.widget`` comm target: a page asking the kernel to make a widget. Our pages
    never do (the kernel makes every widget), and ipywidgets would build any registered class
    with the page's state, one more for every message. Refused: the comm is closed."""
    refuse(None, "a new widget made by the page")
    try:
        comm.close()
    except Exception:  # noqa: BLE001 (already closed)
        pass


def _one_control_comm(original):
    def handle_control_comm_opened(comm, msg):
        old = getattr(widgets.Widget, "_control_comm", None)
        if old is not None and old is not comm:
            try:
                old.close()  # a page reconnecting replaces its channel: never more than one
            except Exception:  # noqa: BLE001
                pass
        return original(comm, msg)

    handle_control_comm_opened.__wrapped__ = original
    return handle_control_comm_opened


def _register_targets() -> None:
    """Point the kernel's comm targets at the checked handlers (when there is a kernel)."""
    try:
        from ipywidgets import comm as widget_comm

        manager = widget_comm.get_comm_manager()
    except Exception:  # noqa: BLE001 (no kernel: nothing is registered)
        return
    if manager is None or not hasattr(manager, "register_target"):
        return
    manager.register_target("jupyter.widget", refuse_page_widget)
    manager.register_target("jupyter.widget.control", widgets.Widget.handle_control_comm_opened)


def install() -> None:
    """Put the checks in front of every widget's messages from the page (once per process)."""
    global _installed
    if _installed:
        return
    widgets.Widget._handle_msg = _checked_handle_msg(widgets.Widget._handle_msg)
    widgets.Button._handle_button_msg = _checked_button_msg(widgets.Button._handle_button_msg)
    widgets.Widget.handle_comm_opened = staticmethod(refuse_page_widget)
    widgets.Widget.handle_control_comm_opened = staticmethod(
        _one_control_comm(widgets.Widget.handle_control_comm_opened))
    _register_targets()
    _installed = True
