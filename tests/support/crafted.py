"""Messages a page sends to the kernel, written out by hand: the way a real page sends them
(through the widget's comm, as Jupyter's websocket delivers them), for tests of what the kernel
accepts from a page it cannot trust.

Use with the ``wire`` fixture (widgets then have a comm that records what they send).
"""

from __future__ import annotations


def _deliver(widget, data: dict) -> None:
    widget.comm.handle_msg({"content": {"comm_id": widget.comm.comm_id, "data": data}, "buffers": []})


def page_update(widget, **state) -> None:
    """A state update from the page (what a page sends when a student changes a widget)."""
    _deliver(widget, {"method": "update", "state": state, "buffer_paths": []})


def page_custom(widget, content: dict) -> None:
    """A custom message from the page (a card table's click, a Discuss box's save...)."""
    _deliver(widget, {"method": "custom", "content": content})


def page_click(button) -> None:
    """A click on an ipywidgets Button, as the page sends it."""
    page_custom(button, {"event": "click"})
