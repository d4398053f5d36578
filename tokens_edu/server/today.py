"""Today's lesson: how a teacher tells a running lesson server which lesson the class will open.

The server keeps warm kernels (kernels that have already run a lesson, so its page opens at
once) for the lesson the class is about to open. A teacher says which one in any of three ways:

* at start: ``tokens-edu serve --today 03`` (or ``make serve SERVE_ARGS="--today 03"``);
* while it runs, from a terminal: ``tokens-edu today 03`` (``tokens-edu today --clear`` to
  undo, ``tokens-edu today`` to see it);
* from another program (the teacher's dashboard): write the file :data:`FILE_NAME` in the
  server's data folder (its ``--data-dir``, or ``TOKENS_EDU_DATA``, or the per-user data
  folder), as :func:`write_today` does. It holds one JSON object::

      {"lesson": "03-task-and-audit.ipynb", "set_at": "2026-12-03T09:14:05Z"}

  (``"lesson": null`` clears it). The server reads the file every few seconds; a lesson it
  does not know is said once in its console and otherwise ignored.

Standard library only: both the command line and the Voila process import this module.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path

__all__ = ["FILE_NAME", "read_today", "write_today", "resolve_lesson", "MAX_BYTES"]

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


def write_today(folder: Path, lesson: str | None) -> Path:
    """Write :data:`FILE_NAME` in ``folder`` naming ``lesson`` (None clears it), atomically.

    Returns:
        Path: the file written.

    Raises:
        OSError: the folder cannot be made or written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"lesson": lesson,
                       "set_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
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


def read_today(folder: Path) -> tuple[str | None, float | None]:
    """``(lesson, mtime)`` from :data:`FILE_NAME` in ``folder``: the lesson named (None when
    cleared, missing or unreadable) and the file's modification time (None when missing)."""
    path = folder / FILE_NAME
    try:
        mtime = path.stat().st_mtime
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError:
        return None, None
    if len(raw) > MAX_BYTES:
        return None, mtime
    try:
        lesson = json.loads(raw.decode("utf-8")).get("lesson")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None, mtime
    return (lesson if isinstance(lesson, str) and lesson.strip() else None), mtime
