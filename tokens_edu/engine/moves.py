"""Moves: every decision of a player as one small int (as OpenSpiel's actions are).

A move packs a kind and up to three numbers: ``kind | (a + 1) << 4 | (b + 1) << 16 | (c + 1) << 28``,
where ``a``, ``b``, ``c`` are card ids (the game's numbering of its card instances, 0..4094) or
-1 for "none". Ints are cheap to make, compare and hash, so the rules generate them by the dozen
and only a reader who asks gets an :class:`~tokens_edu.Action` with its text
(:mod:`tokens_edu.game.notation`).

=========  =============  ===============  ==================  ============
kind       a              b                c                   rule
=========  =============  ===============  ==================  ============
CHOOSE     option index   -                -                   R2, R3, R16, R23
TRAIN      card in hand   -                -                   R8
DEPLOY     card in hand   target or -1     Big Data payer/-1   R9-R11, R17, R18
TASK       System         -                -                   R13
AUDIT      System         opponent System  -                   R14
USE        Tool           target or -1     -                   R17
END        -              -                -                   R7
=========  =============  ===============  ==================  ============
"""

from __future__ import annotations

from typing import Final

__all__ = ["CHOOSE", "TRAIN", "DEPLOY", "TASK", "AUDIT", "USE", "END", "KIND_NAMES",
           "encode", "kind_of", "decode", "choose"]

# The kinds (Final: compiled code reads them as constants, not module look-ups).
CHOOSE: Final = 0
TRAIN: Final = 1
DEPLOY: Final = 2
TASK: Final = 3
AUDIT: Final = 4
USE: Final = 5
END: Final = 6
#: The kind of each move kind as a word (an :class:`~tokens_edu.Action`'s ``kind`` for most).
KIND_NAMES: Final = ("choose", "train", "deploy", "task", "audit", "use", "end")

_MASK: Final = 0xFFF


def encode(kind: int, a: int = -1, b: int = -1, c: int = -1) -> int:
    """The move of ``kind`` with numbers ``a``, ``b``, ``c`` (-1 for none; each below 4095)."""
    return kind | (a + 1) << 4 | (b + 1) << 16 | (c + 1) << 28


def kind_of(move: int) -> int:
    """The move's kind (``CHOOSE`` ... ``END``)."""
    return move & 15


def decode(move: int) -> tuple[int, int, int, int]:
    """``(kind, a, b, c)`` of a move; absent numbers are -1."""
    return move & 15, ((move >> 4) & _MASK) - 1, ((move >> 16) & _MASK) - 1, ((move >> 28) & _MASK) - 1


def choose(index: int) -> int:
    """The move that picks option ``index`` (0-based) of the decision in progress."""
    return CHOOSE | (index + 1) << 4
