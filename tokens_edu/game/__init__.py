"""The game: :class:`Game`, the friendly face of the engine, and what is said and shown about it.

- :mod:`.game`: :class:`Game` (Actions in and out, undo, records, views, tables).
- :mod:`.actions` and :mod:`.notation`: moves as :class:`Action` values (the one move value,
  carrying the engine's int move) and their texts (for showing and records).
- :mod:`.narrate`: the log and prompts in a student's words; :mod:`.explain`: why a move is
  not allowed (R-numbers); :mod:`.observe`: the :class:`Observer`, which decides what each
  reader may see (hidden cards stay hidden) for every view.
- :mod:`.scenario` and :mod:`.scenario_check`: games set up at a chosen position (YAML).
- :mod:`.replay`: step through a recorded game; :mod:`.tables`: pandas tables of a game.

Imports only :mod:`tokens_edu.engine`, :mod:`tokens_edu.content` and :mod:`tokens_edu.errors`.
"""

from typing import TYPE_CHECKING

from .._lazy import attributes

if TYPE_CHECKING:  # what the names are, for type checkers and editors (nothing runs here)
    from .actions import Action
    from .game import BoardCard, Game, LogEvent, Observation, PlayerView
    from .observe import Observer
    from .replay import Replay, ReplayMove

#: Each public name and the module that defines it: the module loads when the name is first
#: read (``tokens_edu/_lazy.py``), so importing one module of this package loads none of its
#: siblings.
_LAZY = {
    "Action": "actions",
    "BoardCard": "game",
    "Game": "game",
    "LogEvent": "game",
    "Observation": "game",
    "PlayerView": "game",
    "Observer": "observe",
    "Replay": "replay",
    "ReplayMove": "replay",
}

__all__ = ["Game", "Action", "BoardCard", "LogEvent", "Observation", "Observer", "PlayerView", "Replay",
           "ReplayMove"]

__getattr__, __dir__ = attributes(__name__, _LAZY, globals())
