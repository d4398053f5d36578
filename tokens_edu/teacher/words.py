"""The words and times the dashboard shows, in one place: the clock, "how long ago", and what a
game's state is called.

One clock for the whole kit: 24-hour time, as the students' pages show it ("Saved at 14:03:22"
in the Discuss box). The dashboard's own script writes its "updated at" time the same way
(``static/dashboard.js``, ``clock()``).

One word for a game's state, on every page (Progress and Games used to disagree: "left" on one,
"playing" on the other, for the same game). :func:`game_state` decides it.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

__all__ = ["CLOCK", "CLOCK_SECONDS", "DATE_CLOCK", "IDLE_GAME", "GAME_STATES", "local_time", "when",
           "ago", "game_state"]

#: The clock: 24-hour hours and minutes (what the students' pages show).
CLOCK = "%H:%M"
#: The clock with seconds, for a time today.
CLOCK_SECONDS = "%H:%M:%S"
#: A time on another day.
DATE_CLOCK = "%d %b " + CLOCK

#: A game not saved for this long is no longer "playing now".
IDLE_GAME = timedelta(minutes=20)

#: What each state of a game is called (key: the CSS class ``state-<key>``).
GAME_STATES = {
    "playing": "playing now",        # saved in the last IDLE_GAME
    "paused": "not finished",        # still open, but no move for IDLE_GAME
    "won": "won",                    # over: the student won
    "lost": "lost",                  # over: the other side won
    "draw": "draw",                  # over, nobody won (a turn limit)
    "stopped": "stopped",            # the student started a new game instead
}


def local_time(ts) -> datetime | None:
    """A stored time (naive UTC, aware, or a pandas Timestamp; None or NaT) as this computer's
    local time, or None."""
    if ts is None or ts != ts:  # NaT
        return None
    if hasattr(ts, "to_pydatetime"):
        ts = ts.to_pydatetime()
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone()


def when(ts, now: datetime | None = None) -> str:
    """A time as the dashboard writes it: ``14:03:22`` today, else ``12 Nov 14:03`` ("" for none)."""
    t = local_time(ts)
    if t is None:
        return ""
    now = now or datetime.now().astimezone()
    return t.strftime(CLOCK_SECONDS) if t.date() == now.date() else t.strftime(DATE_CLOCK)


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


def game_state(status: str, winner, seat: int, updated_at, now: datetime | None = None) -> str:
    """The key of :data:`GAME_STATES` for a saved game, seen from the student's seat.

    Args:
        status: the store's ``"playing"``, ``"over"`` or ``"stopped"``.
        winner: 0, 1 or None; seat: the student's seat (0/1).
        updated_at: when the game was last saved (UTC).
        now: the time to compare with (default: now).
    """
    if status == "over":
        return "draw" if winner is None or winner != winner else ("won" if int(winner) == seat else "lost")
    if status == "playing":
        t = local_time(updated_at)
        now = now or datetime.now(timezone.utc)
        return "playing" if t is not None and now - t < IDLE_GAME else "paused"
    return "stopped"
