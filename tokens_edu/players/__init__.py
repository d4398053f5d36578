"""Computer players, their one registry, and matches between students and computer players.

- :mod:`.bots`: :class:`Bot`, :class:`RandomBot`, :class:`GreedyBot` (one move ahead).
- :mod:`.search`: :class:`SearchBot` (plays imagined games forward; never sees hidden cards).
- :mod:`.learning` and :mod:`.features`: :class:`LearningBot`, whose knowledge is a table.
- :mod:`.thinking`: the explain tables every bot gives ("what was the computer thinking?").
- :mod:`.registry`: bots by name (``"greedy"``, ``"search"``...), used by every part that takes one.
- :mod:`.match`: :class:`Match`, a live game with its seats and undo policy (no widgets).

Every bot sees a game only through what its player may see (``game.view(player)``,
``game.observation(player)``, ``legal_moves``).
"""

from typing import TYPE_CHECKING

from .._lazy import attributes

if TYPE_CHECKING:  # what the names are, for type checkers and editors (nothing runs here)
    from .bots import Bot, GreedyBot, RandomBot, card_value
    from .learning import LearningBot, LearningBotFileError
    from .match import Match, MatchError
    from .registry import BOTS, make_bot, register_bot
    from .search import SearchBot

#: Each public name and the module that defines it: the module loads when the name is first
#: read (``tokens_edu/_lazy.py``), so importing one module of this package loads none of its
#: siblings.
_LAZY = {
    "Bot": "bots",
    "GreedyBot": "bots",
    "RandomBot": "bots",
    "card_value": "bots",
    "LearningBot": "learning",
    "LearningBotFileError": "learning",
    "Match": "match",
    "MatchError": "match",
    "BOTS": "registry",
    "make_bot": "registry",
    "register_bot": "registry",
    "SearchBot": "search",
}

__all__ = ["Bot", "RandomBot", "GreedyBot", "SearchBot", "LearningBot", "LearningBotFileError", "card_value",
           "Match", "MatchError", "BOTS", "make_bot", "register_bot"]

__getattr__, __dir__ = attributes(__name__, _LAZY, globals())
