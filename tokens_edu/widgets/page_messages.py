"""The card table's messages from the page, and what the kernel checks before it answers one
(issue 18 part 4: a move by its index; issue 20 part 7: the kernel trusts nothing from the page).

The page (``widgets/static/table.js``) sends each message with ``v``, the version of the
table's state it drew (the kernel keeps the last drawings, :data:`~tokens_edu.widgets.game_view.KEPT_DRAWINGS`):

=========  ==========================  ===========================================================
type       more                        the page sends it when
=========  ==========================  ===========================================================
move       ``i``: index in ``moves``    a move (its button, a card's one-click button, a target)
step       (none)                      its timer (the computer plays by itself) or "Next computer move"
undo       (none)                      Undo (shown, not greyed out)
pause      ``paused``: bool            Pause / Play (the computer is to move, autoplay)
speed      ``ms``: 1000, 500 or 200     the speed menu (autoplay with a computer seat)
reveal     (none)                      hot seat: the cover's "show my cards"
again      (none)                      Play again (the game is over)
read       ``name``: a card name        "Read the whole card" (a card the page shows)
=========  ==========================  ===========================================================

A message the page could not have sent (not a dict, an unknown type, a version it was never
sent, a move it was not offered, Undo while greyed out, a cover that is not up, Play again
before the end, a card it may not read, a speed not on the menu...) changes nothing, draws
nothing and is logged once (:func:`~tokens_edu.widgets.trust.refuse`; the log line names no
card). A message from an older drawing is answered calmly: a move still offered is played (the
student changed the speed, opened a pane), one no longer offered gets a note saying why; an
older step, undo, reveal or Play again (a late timer, a double click) does nothing.
"""

from __future__ import annotations

from .trust import Refused, refuse

__all__ = ["answer", "SPEEDS"]

#: The computer speeds the page's menu offers (milliseconds between moves: slow, normal, fast;
#: static/table.js offers the same). Normal gives a student time to read each move's sentence
#: between the two sides and see its cards light up (issue 21: 500 ms flashed a turn by in 2 s).
SPEEDS = (2500, 1500, 600)


def _refused(view, what: str, detail: str = "") -> None:
    refuse(view.table, what, detail)
    raise Refused(what)


def answer(view, msg: dict) -> None:
    """Check one card-table message from the page against what ``view`` drew, then answer it
    with the view's handler.

    Args:
        view: the :class:`~tokens_edu.widgets.GameView`. msg: the message (a dict).

    Raises:
        Refused: the page could not have sent it (logged once; the view draws nothing), or it
            comes from an older drawing and there is nothing to do.
    """
    kind = msg.get("type")
    v = msg.get("v")
    if isinstance(v, bool) or not isinstance(v, int) or not 0 < v <= view._version:
        _refused(view, "a message with a version the page was never sent", str(kind)[:20])
    page = view._drawn.get(v)  # None: drawn too long ago to say
    current = v == view._version
    m = view.match
    if kind == "move":
        i = msg.get("i")
        if isinstance(i, bool) or not isinstance(i, int) or i < 0 or (page is not None and i >= len(page.moves)):
            _refused(view, "a move the page was not offered", f"index {str(i)[:12]}")
        if page is None:
            view._say("That move is not offered any more.")
            return
        view._move_from(page, i)
    elif kind == "step":
        if not current:
            raise Refused("an older step")  # a late timer: the page asks again for its drawing
        if not m.bot_to_act():
            _refused(view, "a computer move when none is to move")
        view._on_step(msg)
    elif kind == "undo":
        if not current:
            raise Refused("an older undo")  # a double click takes back once
        if m.undo_policy == "off" or m.undo_count() == 0:
            _refused(view, "Undo while it is greyed out")
        view._on_undo(msg)
    elif kind == "pause":
        if not isinstance(msg.get("paused"), bool) or not view.autoplay or \
                (current and not m.bot_to_act()) or not any(b is not None for b in m.bots):
            _refused(view, "Pause the page did not show")
        view._on_pause(msg)
    elif kind == "speed":
        if msg.get("ms") not in SPEEDS or isinstance(msg.get("ms"), bool) or not view.autoplay \
                or not any(b is not None for b in m.bots):
            _refused(view, "a speed the menu does not offer")
        view._on_speed(msg)
    elif kind == "reveal":
        if not current:
            raise Refused("an older reveal")
        if not m.covered():
            _refused(view, "show my cards without a cover")
        view._on_reveal(msg)
    elif kind == "again":
        if not current:
            raise Refused("an older Play again")
        if not view.match.finished:
            _refused(view, "Play again before the end")
        view._on_again(msg)
    elif kind == "read":
        name = msg.get("name")
        if page is None:
            raise Refused("a card from a drawing too old to say")
        if not isinstance(name, str) or name not in page.readable:
            _refused(view, "a card the page may not read")
        view._on_read(msg)
    else:
        _refused(view, "a message of no known type", str(kind)[:20])
