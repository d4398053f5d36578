"""Today's lesson: how a teacher tells a running lesson server which lesson the class will open.

The server keeps warm kernels (kernels that have already run a lesson, so its page opens at
once) for the lesson the class is about to open. A teacher says which one in any of three ways:

* at start: ``tokens-edu serve --today 03`` (or ``make serve SERVE_ARGS="--today 03"``);
* while it runs, from a terminal: ``tokens-edu today 03`` (``tokens-edu today --clear`` to
  undo, ``tokens-edu today`` to see it);
* from another program (the teacher's dashboard): write the file :data:`FILE_NAME` in the
  server's data folder (its ``--data-dir``, or ``TOKENS_EDU_DATA``, or the per-user data
  folder), as :func:`write_today` does. It holds one JSON object::

      {"lesson": "03-task-and-audit.ipynb", "set_at": "2026-12-03T09:14:05Z", "day": "2026-12-03"}

  (``"lesson": null`` clears it). The server reads the file every few seconds; a lesson it
  does not know is said once in its console and otherwise ignored.

**Today's lesson lasts one day**: it ends at midnight (this computer's clock), or earlier with
``tokens-edu today --clear``. A file written on an earlier day names no lesson
(:func:`read_today`), and a server that runs past midnight stops warming kernels for it
(:mod:`.watch`); the server's first lines say which lesson is today's.

Standard library only: both the command line and the Voila process import this module.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path

__all__ = ["FILE_NAME", "read_today", "write_today", "resolve_lesson", "MAX_BYTES", "local_day",
           "today_info", "todays_line"]

#: The file in the data folder that names today's lesson.
FILE_NAME = "today.json"
#: The most bytes of that file that are read (it holds one short name).
MAX_BYTES = 4096


def resolve_lesson(want: str, names: list[str]) -> str | None:
    """The notebook of ``names`` that ``want`` means: its exact name, without ``.ipynb``, or just
    its number (``"3"``, ``"03"``). None when nothing (or more than one page) matches."""
    want = want.strip()
    if not want:
        return None
    for candidate in (want, want + ".ipynb"):
        if candidate in names:
            return candidate
    if re.fullmatch(r"\d{1,2}", want):
        hits = [n for n in names if re.match(rf"0*{int(want)}\D", Path(n).name) and "/" not in n]
        return hits[0] if len(hits) == 1 else None
    return None


def local_day(when: float | None = None) -> str:
    """The date on this computer's clock (``"2026-12-03"``) at ``when`` (seconds since the
    epoch; None: now). Today's lesson lasts until this changes (midnight)."""
    return time.strftime("%Y-%m-%d", time.localtime(when))


def write_today(folder: Path, lesson: str | None) -> Path:
    """Write :data:`FILE_NAME` in ``folder`` naming ``lesson`` (None clears it), atomically.

    Returns:
        Path: the file written.

    Raises:
        OSError: the folder cannot be made or written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    now = time.time()
    body = json.dumps({"lesson": lesson,
                       "set_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
                       "day": local_day(now)})
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".today-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(body + "\n")
        os.replace(tmp, folder / FILE_NAME)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return folder / FILE_NAME


def today_info(folder: Path, now: float | None = None) -> dict:
    """What :data:`FILE_NAME` in ``folder`` says, checked: ``{"lesson": str | None, "mtime":
    float | None, "day": str | None, "set_at": str | None, "expired": bool}``. ``expired`` is
    True when it names a lesson for an earlier day than ``now``'s (then ``lesson`` is None and
    the name is in ``"was"``). The day is the file's ``"day"``, else the local day of its
    ``"set_at"``, else of its modification time (files written before lessons had a day)."""
    info = {"lesson": None, "mtime": None, "day": None, "set_at": None, "expired": False,
            "was": None}
    path = folder / FILE_NAME
    try:
        mtime = path.stat().st_mtime
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError:
        return info
    info["mtime"] = mtime
    if len(raw) > MAX_BYTES:
        return info
    try:
        data = json.loads(raw.decode("utf-8"))
        lesson = data.get("lesson")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return info
    if not (isinstance(lesson, str) and lesson.strip()):
        return info
    day = data.get("day") if isinstance(data.get("day"), str) else None
    set_at = data.get("set_at") if isinstance(data.get("set_at"), str) else None
    if day is None and set_at:
        try:
            import calendar

            day = local_day(calendar.timegm(time.strptime(set_at, "%Y-%m-%dT%H:%M:%SZ")))
        except (ValueError, OverflowError):
            day = None
    info["day"], info["set_at"] = day or local_day(mtime), set_at
    if info["day"] != local_day(now):
        info["expired"], info["was"] = True, lesson
        return info
    info["lesson"] = lesson
    return info


def read_today(folder: Path, now: float | None = None) -> tuple[str | None, float | None]:
    """``(lesson, mtime)`` from :data:`FILE_NAME` in ``folder``: the lesson named (None when
    cleared, missing or unreadable) and the file's modification time (None when missing). A
    file naming a lesson on an earlier day than ``now``'s counts as missing: ``(None, None)``
    (today's lesson ends at midnight)."""
    info = today_info(folder, now)
    if info["expired"]:
        return None, None
    return info["lesson"], info["mtime"]


def todays_line(today: str | None, folder: Path | None, names: list[str]) -> str:
    """The server's first lines' word on today's lesson (:mod:`.launcher`): given with
    ``--today``, named earlier today with ``tokens-edu today`` (in ``folder``'s ``today.json``),
    ended with its day, or none. ``names``: the lessons served."""
    until = "until midnight, or: tokens-edu today --clear"
    if today:
        return f"Today's lesson: {today} ({until})."
    info = today_info(folder) if folder is not None else {}
    lesson = resolve_lesson(info["lesson"], names) if info.get("lesson") else None
    if lesson:
        at = ""
        if info.get("mtime"):
            at = time.strftime(" at %H:%M", time.localtime(info["mtime"]))
        return f"Today's lesson: {lesson} (named with tokens-edu today{at}; {until})."
    was = (f" ({str(info['was'])[:80]} was named on {info['day']}: a day's lesson ends at its "
           "midnight)" if info.get("expired") else "")
    return f"Today's lesson: none yet{was}. Name it with: tokens-edu today 03."
