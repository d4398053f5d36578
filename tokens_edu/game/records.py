"""Game records: a whole game as a JSON-able dict (its start, seed, names and every action).

:meth:`Game.to_record <tokens_edu.game.game.Game.to_record>` writes one with :func:`make_record`;
:meth:`Game.from_record <tokens_edu.game.game.Game.from_record>` checks one with
:func:`read_record` and replays its actions. A record is a full replay for the teacher: it names
cards the opponent did not see, so it is never a view to show a player during a game.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence

from ..content.inputs import MAX_JSON_DEPTH, InputTooLarge, data_depth, loads_json, read_text_limited
from ..errors import RecordError

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "MAX_RECORD_MOVES", "MAX_ACTION_CHARS", "make_record",
           "read_record"]

#: The ``format`` field of every record.
RECORD_FORMAT = "tokens-edu-record"
#: The record version this package writes and reads.
RECORD_VERSION = 1
#: The most moves a game record may hold. The longest of 300 games between random players had
#: 168; a record of a million moves took 190 s and 486 MB to replay before this limit.
MAX_RECORD_MOVES = 10_000
#: The longest text one recorded move may have (the longest real one is under 100 characters).
MAX_ACTION_CHARS = 500


def make_record(origin: Mapping, seed: int, names: Sequence[str], turn_limit: int | None,
                actions: Sequence[str]) -> dict:
    """A fresh JSON-able record.

    Args:
        origin: how the game started: ``{"decks": [Deck, Deck]}`` or ``{"scenario": {...}}``.
        seed: the game's seed. names: the two players' names. turn_limit: turns before a draw
            (R25) or None. actions: every action's text, in order.

    Returns:
        dict with ``format``, ``version``, ``decks`` (two lists of card names) or ``scenario``,
        ``seed``, ``names``, ``turn_limit`` and ``actions``. Changing it changes no game.
    """
    rec = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
    if "decks" in origin:
        rec["decks"] = [deck.names() for deck in origin["decks"]]
    else:
        rec.update(copy.deepcopy(dict(origin)))
    rec.update({"seed": seed, "names": list(names), "turn_limit": turn_limit, "actions": list(actions)})
    return rec


def read_record(record) -> tuple[Mapping, list[str]]:
    """Check a record (a dict, or a path to its ``.json`` file) before it is replayed.

    Returns:
        (the record as a mapping, its action texts).

    A record file is read up to 4 MB and its JSON nested at most 32 deep; a record holds at most
    :data:`MAX_RECORD_MOVES` moves of at most :data:`MAX_ACTION_CHARS` characters (all checked
    before anything is replayed).

    Raises:
        RecordError: the file cannot be read, is too big or nested too deep, or it is not a
            tokens_edu game record of this version, or its actions are not a list of texts, or
            too many or too long (in plain words).
    """
    if isinstance(record, (str, os.PathLike)):
        name = os.path.basename(os.fspath(record))[:80]
        try:
            record = loads_json(read_text_limited(record, "game record", encoding="utf-8"),
                                "game record")
        except InputTooLarge as e:
            raise RecordError(str(e)) from None
        except (OSError, ValueError) as e:
            why = getattr(e, "strerror", None) or ("it is not JSON" if isinstance(e, ValueError) else e)
            raise RecordError(f"Cannot read the game record {name!r}: {why}.") from None
    if not isinstance(record, Mapping):
        raise RecordError(f"A game record is a dict from Game.to_record(), not {type(record).__name__}.")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError("This is not a tokens_edu game record (its 'format' is wrong).")
    version = record.get("version", RECORD_VERSION)
    if version != RECORD_VERSION:
        raise RecordError(f"This record has version {version!r:.20}; this tokens_edu reads version {RECORD_VERSION}.")
    actions = record.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("The record's 'actions' must be a list of action texts.")
    if len(actions) > MAX_RECORD_MOVES:
        raise RecordError(f"The record has {len(actions):,} moves; a game record holds at most "
                          f"{MAX_RECORD_MOVES:,}.")
    if any(len(a) > MAX_ACTION_CHARS for a in actions):
        raise RecordError(f"A move of the record is longer than {MAX_ACTION_CHARS} characters: "
                          "no move's text is that long.")
    if data_depth({k: v for k, v in record.items() if k != "actions"}, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise RecordError(f"This game record is nested too deep to be one (more than "
                          f"{MAX_JSON_DEPTH} levels of lists and dicts).")
    return record, actions
