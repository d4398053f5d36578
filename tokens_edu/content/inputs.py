"""Limits on what the kit reads from outside: files up to a size, JSON up to a depth, and text
shown on a terminal with its control characters escaped.

Every file a teacher or student hands the kit (a scenario, a deck, a class list, a password
file, a game record) is read through :func:`read_limited`: a file that is too big (or endless,
like ``/dev/zero``) is refused with one plain line, never read until the memory runs out. JSON
is checked for depth before it is parsed (:func:`json_depth`), so a deeply nested file gives a
plain error, not Python's ``RecursionError``.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

__all__ = ["InputTooLarge", "read_limited", "read_text_limited", "loads_json", "json_depth",
           "data_depth", "printable", "size_words", "LIMITS", "MAX_JSON_DEPTH"]

#: The most bytes read of each kind of file. Each is far above a real one: a scenario is a
#: page of YAML, a deck 40 lines, a class list a few hundred names, a password one line, a
#: game record of 10,000 moves about 400 KB.
LIMITS = {
    "scenario": 256 * 1024,
    "deck": 64 * 1024,
    "class list": 1024 * 1024,
    "password": 4 * 1024,
    "game record": 4 * 1024 * 1024,
}
#: The deepest nesting of lists and objects in a JSON file the kit reads (a game record is 3
#: levels deep).
MAX_JSON_DEPTH = 32


class InputTooLarge(ValueError):
    """A file or text is bigger, or nested deeper, than the kit reads. The message is one plain
    line."""


def size_words(limit: int) -> str:
    """``limit`` bytes in words: ``"64 KB"``, ``"4 MB"``."""
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"


def read_limited(path, what: str, limit: int | None = None) -> bytes:
    """The bytes of file ``path``, at most ``limit`` (default ``LIMITS[what]``).

    Args:
        path: the file (str or PathLike).
        what: what the file is, for the message (a key of :data:`LIMITS`).
        limit: the most bytes read.

    Raises:
        InputTooLarge: the file holds more than ``limit`` bytes (or never ends).
        OSError: the file cannot be opened or read (missing, a folder, no permission).
    """
    limit = LIMITS[what] if limit is None else limit
    with open(os.fspath(path), "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(f"The {what} file {Path(path).name} is too big: a {what} file holds "
                            f"at most {size_words(limit)}.")
    return data


def read_text_limited(path, what: str, limit: int | None = None, encoding: str = "utf-8-sig") -> str:
    """:func:`read_limited`, decoded (a byte-order mark is dropped with the default encoding).

    Raises:
        InputTooLarge, OSError: as :func:`read_limited`.
        UnicodeDecodeError: the file is not text in ``encoding``.
    """
    return read_limited(path, what, limit).decode(encoding)


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_JSON_OPEN_CLOSE = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply lists and objects nest in JSON ``text`` (0 for a plain value), counted without
    parsing it (strings are skipped), so it is quick and safe on any input."""
    depth = deepest = 0
    for m in _JSON_OPEN_CLOSE.finditer(_JSON_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads_json(text: str, what: str, max_depth: int = MAX_JSON_DEPTH):
    """``json.loads(text)`` for a ``what`` file, refusing nesting deeper than ``max_depth``.

    Raises:
        InputTooLarge: nested deeper than ``max_depth``.
        ValueError: not JSON (``json.JSONDecodeError``).
    """
    if json_depth(text) > max_depth:
        raise InputTooLarge(f"The {what} is nested too deep to be one (more than {max_depth} "
                            "levels of lists and objects).")
    return json.loads(text)


def data_depth(data, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply lists, tuples and dicts nest in ``data``, counting no further than
    ``limit + 1`` (so a self-containing or very deep object is cheap to check)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


_BIDI = {"\u200e", "\u200f", "\u061c"} | {chr(c) for c in range(0x202A, 0x202F)} \
    | {chr(c) for c in range(0x2066, 0x206A)}


def printable(text: str, keep: str = "\n\t") -> str:
    """``text`` with its control characters escaped (``\\x1b`` for the escape character, ``\\u202e``
    for a direction override), so a file's content shown on a terminal cannot change the
    terminal (colours, the title, the cursor) or hide text. ``keep`` lists the ones left as they
    are."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch in keep:
            out.append(ch)
        elif ch in _BIDI or unicodedata.category(ch) == "Cc":
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)
