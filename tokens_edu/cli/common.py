"""What the ``tokens-edu`` commands share: the data folder option, number options, and a terminal
that shows control characters escaped."""

from __future__ import annotations

import argparse
import io
import os
from pathlib import Path

from ..content.inputs import printable

__all__ = ["use_data_dir", "port", "count", "shown", "EscapingStream"]


def shown(text) -> str:
    """``text`` quoted for a message, its control characters escaped (see :func:`printable`)."""
    return repr(str(text)) if not str(text).isprintable() else f"'{text}'"


class EscapingStream(io.TextIOBase):
    """A text stream (the terminal) that writes control characters escaped: a file's content
    (a deck's card names, a scenario's title, a class list's names) shown in a message cannot
    colour, retitle or clear the teacher's terminal. New lines, tabs and carriage returns (the
    progress bar's) pass unchanged.

    Args:
        stream: the stream written to (``sys.stdout`` or ``sys.stderr``).
    """

    def __init__(self, stream):
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text, keep="\n\t\r"))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self):
        return getattr(self._stream, "encoding", "utf-8")

    @property
    def buffer(self):
        return self._stream.buffer

    def __getattr__(self, name):
        return getattr(self._stream, name)


def use_data_dir(data_dir: Path | None) -> None:
    """Point the journal at ``data_dir`` (like ``serve --data-dir``); ValueError if unusable."""
    if data_dir is None:
        return
    folder = data_dir.expanduser().resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"Cannot make the data folder {folder}: {e.strerror or e}.") from None
    os.environ["TOKENS_EDU_DATA"] = str(folder)


def port(text: str) -> int:
    """A TCP port from the command line (1-65535), or argparse's plain error."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the port must be a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be between 1 and 65535, not {port}")
    return port


def count(low: int, high: int):
    """A parser of whole numbers from ``low`` to ``high`` for argparse's ``type=``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low} to {high}, not {n}")
        return n

    return parse
