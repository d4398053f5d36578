"""The words and times the dashboard shows: the kit's one clock and one word for a game's state
(:mod:`tokens_edu.present.words`, shared with the students' pages, issue 21 part 7), and what
only the dashboard says ("how long ago", a CSS class for a game's state).

The dashboard's own script writes its "updated" time with the same 24-hour clock
(``static/dashboard.js``, ``clock()``).
"""

from __future__ import annotations

from datetime import datetime, timezone

from ..present.words import GAME_STATES, clock, game_state, when_text

__all__ = ["GAME_STATES", "clock", "local_time", "when", "ago", "game_state", "state_class"]


def local_time(ts) -> datetime | None:
    """A stored time (naive UTC, aware, or a pandas Timestamp; None or NaT) as this computer's
    local time, or None."""
    if ts is None or ts != ts:  # NaT
        return None
    if hasattr(ts, "to_pydatetime"):
        ts = ts.to_pydatetime()
    return (ts.replace(tzinfo=timezone.utc) if ts.tzinfo is None else ts).astimezone()


def when(ts, now: datetime | None = None) -> str:
    """A time as every page writes it: ``14:03:22`` today, else ``12 Nov 14:03:22`` ("" for none)."""
    return when_text(ts, now)


def ago(ts, now: datetime | None = None) -> str:
    """How long ago: "just now", "12 min ago", then the time as :func:`when` writes it."""
    t = local_time(ts)
    if t is None:
        return ""
    now = now or datetime.now().astimezone()
    s = int((now - t).total_seconds())
    if s < 60:
        return "just now"
    if s < 3600:
        return f"{s // 60} min ago"
    return when(ts, now)


def state_class(status: str, winner, seat: int | None) -> str:
    """The CSS class a game's state is drawn with (``state-<this>``): ``playing``, ``stopped``,
    and for a game that is over ``won`` or ``lost`` (from ``seat``; ``over`` without one) or
    ``draw``.

    Args:
        status: the store's ``"playing"``, ``"over"`` or ``"stopped"``.
        winner: 0, 1, or None/NaN (a draw). seat: the student's seat (0/1) or None.
    """
    if status != "over":
        return status if status in GAME_STATES else "stopped"
    if winner is None or winner != winner:
        return "draw"
    return ("won" if int(winner) == seat else "lost") if seat in (0, 1) else "over"
