"""A saved game's replay page and its record file.

The page draws each position with the lessons' own card table (``widgets/static/table.js``,
served as a file: the dashboard never imports the widgets), fed with what the kit's one
presenter (:func:`tokens_edu.present.present`, as ``ReplayView`` uses it) shows from either
seat. The teacher sees both hands; the page says so.
"""

from __future__ import annotations

import json

import tornado.web

from ..present import REPLAY, present
from ..present.faces import table_pictures
from ..present.render import COLOR_STYLES
from . import words
from .base import BaseHandler

__all__ = ["ReplayHandler", "RecordHandler", "step_state", "MOVES_PAGE", "moves_window"]

#: The "Every move" list shows this many moves at a time (a game may have 10,000: the whole
#: list made the page 1 MB and its drawing slow), with links to the earlier and later ones.
MOVES_PAGE = 200


def moves_window(replay, first=None) -> dict:
    """One page of the "Every move" list: :data:`MOVES_PAGE` moves from move ``first + 1``
    (None or out of range: the page that holds the step shown now).

    Returns:
        dict: ``moves`` (a list of ``(number, name, text)``), ``first`` (moves before the
        page), ``last`` (the last move on it), ``earlier`` and ``later`` (the ``first`` of the
        page before and after, or None), ``length``.
    """
    length = replay.length
    try:
        first = int(first)
    except (TypeError, ValueError):
        first = None
    if first is None or not 0 <= first < max(length, 1):
        first = max(replay.step - 1, 0)
    first -= first % MOVES_PAGE
    last = min(first + MOVES_PAGE, length)
    moves = [(i, replay.names[m.player], m.text)
             for i, m in ((i, replay.move(i)) for i in range(first + 1, last + 1))]
    return {"moves": moves, "first": first, "last": last, "length": length,
            "earlier": first - MOVES_PAGE if first > 0 else None,
            "later": last if last < length else None}


def step_state(replay, saved, step, seat=None) -> dict:
    """The position after ``step`` moves (a number, its text, or ``"end"``; out of range is
    brought into range), as the replay page draws it.

    Returns:
        dict: ``step``, ``length``, ``seat`` (0/1: the student's seat unless asked), ``caption``,
        ``lines`` (what happened, as text), ``state`` (the card table's state from ``seat``),
        ``palette``, ``other`` (``name`` and ``hand``, the other player's cards), ``status``.
    """
    replay.goto(replay.length if step == "end" else step)
    m = replay.move()
    lines = list(m.lines if m is not None else replay.start_lines())
    seat = saved.seat if seat not in (0, 1) else seat
    caption = replay.caption()
    table = present(replay.game, seat, REPLAY, log_lines=lines).table_state()
    table.update(v=replay.step, status=caption, step="", title="")
    other = 1 - seat
    status = words.game_state(saved.status, saved.winner, names=saved.names)  # as on Games
    if saved.status == "playing":
        status += f" (saved {words.ago(saved.updated_at)})"
    return {"step": replay.step, "length": replay.length, "caption": caption, "seat": seat,
            "lines": lines, "state": table, "palette": {k: dict(v) for k, v in COLOR_STYLES.items()},
            "other": {"name": replay.names[other],
                      "hand": [c.name for c in replay.game.observation(other).hand]},
            "status": status}


class ReplayHandler(BaseHandler):
    """One game's replay page; ``?step=N&fragment=1`` gives the position after N moves as JSON;
    ``?moves=K`` shows the "Every move" list from move K + 1 (:func:`moves_window`)."""

    @tornado.web.authenticated
    async def get(self, game_id: str):
        replay, saved = await self.run(self.data.replay, game_id)
        if replay is None:
            raise tornado.web.HTTPError(404)
        step = self.get_query_argument("step", "") or "end"
        seat_arg = self.get_query_argument("seat", "")
        seat = int(seat_arg) if seat_arg in ("0", "1") else None
        state = await self.run(self.locked_step, replay, saved, step, seat)
        if self.get_query_argument("fragment", ""):
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.finish(json.dumps(state))
            return
        # the page draws every card's picture as the lessons' table does: the Alpha Set's
        # pictures, sent once with the page (about 40 kB; public, the same for every game)
        state = dict(state, pictures=table_pictures())
        window = moves_window(replay, self.get_query_argument("moves", "") or None)
        self.finish(self.render_template(
            "replay.html", title=f"Replay: {saved.student}, {saved.lesson or 'no lesson'}",
            active="games", game_id=game_id, saved=saved, names=replay.names, state=state,
            moves=window["moves"], window=window))

    def locked_step(self, replay, saved, step, seat):
        """:func:`step_state`, one at a time: a replay is one game moved to each asked step
        (two tabs on the same game would otherwise move it under each other)."""
        with self.data.replay_lock:
            return step_state(replay, saved, step, seat)


class RecordHandler(BaseHandler):
    """A saved game's record as a ``.json`` file (``ReplayView`` opens it in a notebook)."""

    @tornado.web.authenticated
    async def get(self, game_id: str):
        saved = await self.run(self.data.record, game_id)
        if saved is None:
            raise tornado.web.HTTPError(404)
        safe = "".join(ch if ch.isalnum() else "-" for ch in saved.student)[:40] or "game"
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="{safe}-{game_id[:8]}.json"')
        self.finish(json.dumps(saved.record, indent=1))
