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

from .bots import Bot, GreedyBot, RandomBot, card_value
from .learning import LearningBot, LearningBotFileError
from .match import Match, MatchError
from .registry import BOTS, make_bot, register_bot
from .search import SearchBot

__all__ = ["Bot", "RandomBot", "GreedyBot", "SearchBot", "LearningBot", "LearningBotFileError", "card_value",
           "Match", "MatchError", "BOTS", "make_bot", "register_bot"]
