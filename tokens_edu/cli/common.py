"""What the ``tokens-edu`` commands share: the data folder option."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

__all__ = ["use_data_dir", "port", "count"]


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
