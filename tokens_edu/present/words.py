"""Words every page shares, so a student's page and the teacher's dashboard say one thing one
way (issue 21 part 7): one clock (:func:`clock`, 24-hour, the same in the page's JavaScript) and
one word for a game's state (:func:`game_state`: ``playing``, ``over``, ``stopped``).

An answer's length is counted one way too, in characters (Unicode code points: Python's
``len``; the page counts the same, see ``widgets/static/discuss.js``): so an emoji is one.
"""

from __future__ import annotations

from datetime import datetime, timezone

__all__ = ["clock", "when_text", "game_state", "GAME_STATES", "CLOCK_FORMAT"]

#: How every page writes a time of day: 24-hour, with seconds ("19:05:07").
CLOCK_FORMAT = "%H:%M:%S"
#: The saved games' states and the one word each is shown with, on every page.
GAME_STATES = {"playing": "playing", "over": "over", "stopped": "stopped"}


def _local(when) -> datetime | None:
    if when is None or when != when:  # None or NaT
        return None
    if hasattr(when, "to_pydatetime"):
        when = when.to_pydatetime()
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)  # the store keeps UTC
    return when.astimezone()


def clock(when: datetime | None = None) -> str:
    """A time of day as every page writes it: ``"19:05:07"`` (24-hour, local time).

    Args:
        when: a datetime (naive ones are UTC, as the store keeps them; pandas Timestamps too),
            or None for now.

    Returns:
        str, or "" for a missing time (NaT).
    """
    if when is None:
        return datetime.now().strftime(CLOCK_FORMAT)
    t = _local(when)
    return t.strftime(CLOCK_FORMAT) if t is not None else ""


def when_text(when, now: datetime | None = None) -> str:
    """A moment as pages write it: :func:`clock` for today, ``"3 Mar 19:05:07"`` for another
    day; "" for a missing time."""
    t = _local(when)
    if t is None:
        return ""
    today = (now or datetime.now()).astimezone().date()
    return clock(t) if t.date() == today else f"{t.day} {t.strftime('%b')} {clock(t)}"


def game_state(status: str, winner: int | None = None, *, seat: int | None = None,
               names: tuple | None = None, turn: int | None = None) -> str:
    """A saved game's state in the one word every page uses, with its detail after a comma.

    Args:
        status: the store's ``"playing"``, ``"over"`` or ``"stopped"`` (the student started
            another game). winner: 0, 1 or None (a draw). seat: the student's seat, to say
            "won"/"lost" from their side. names: the two names, to say who won. turn: the turn
            a game being played is at.

    Returns:
        str: ``"playing, turn 7"``, ``"playing"``, ``"stopped"``, ``"over, won"``,
        ``"over, Ada won"``, ``"over, a draw"``.
    """
    word = GAME_STATES.get(status, str(status))
    if status == "playing":
        return f"{word}, turn {turn}" if turn is not None else word
    if status != "over":
        return word
    if winner is None:
        return f"{word}, a draw"
    if seat in (0, 1):
        return f"{word}, {'won' if winner == seat else 'lost'}"
    if names:
        return f"{word}, {names[winner]} won"
    return word
