"""The lab: ask the game a question and answer it with data.

- :mod:`.simulation`: many games between decks (:func:`simulate`, :func:`balance_matrix`,
  :func:`matchups`, :func:`first_player_advantage`), on every core or any executor.
- :mod:`.stats`: win rates with confidence intervals; :mod:`.tournaments`: bots against bots;
  :mod:`.training`: :func:`train` a LearningBot (:func:`train_batches`: batch by batch).
- :mod:`.plots` (matplotlib) and :mod:`.env` (a PettingZoo environment, extra ``rl``) load only
  when imported, so ``import tokens_edu`` does not load matplotlib or PettingZoo.
"""

from typing import TYPE_CHECKING

from .._lazy import attributes

if TYPE_CHECKING:  # what the names are, for type checkers and editors (nothing runs here)
    from .simulation import balance_matrix, first_player_advantage, matchups, play_game, simulate
    from .stats import first_player_stats, summary, wilson_interval
    from .tournaments import head_to_head, tournament
    from .training import train, train_batches

#: Each public name and the module that defines it: the module loads when the name is first
#: read (``tokens_edu/_lazy.py``), so importing one module of this package loads none of its
#: siblings.
_LAZY = {
    "balance_matrix": "simulation",
    "first_player_advantage": "simulation",
    "matchups": "simulation",
    "play_game": "simulation",
    "simulate": "simulation",
    "first_player_stats": "stats",
    "summary": "stats",
    "wilson_interval": "stats",
    "head_to_head": "tournaments",
    "tournament": "tournaments",
    "train": "training",
    "train_batches": "training",
}

__all__ = ["simulate", "play_game", "balance_matrix", "matchups", "first_player_advantage",
           "first_player_stats", "summary", "wilson_interval", "tournament", "head_to_head", "train", "train_batches"]

__getattr__, __dir__ = attributes(__name__, _LAZY, globals())
