"""The lab: ask the game a question and answer it with data.

- :mod:`.simulation`: many games between decks (:func:`simulate`, :func:`balance_matrix`,
  :func:`matchups`, :func:`first_player_advantage`), on every core or any executor.
- :mod:`.stats`: win rates with confidence intervals; :mod:`.tournaments`: bots against bots;
  :mod:`.training`: :func:`train` a LearningBot (:func:`train_batches`: batch by batch).
- :mod:`.plots` (matplotlib) and :mod:`.env` (a PettingZoo environment, extra ``rl``) load only
  when imported, so ``import tokens_edu`` does not load matplotlib or PettingZoo.
"""

from .simulation import (
           balance_matrix,
           first_player_advantage,
           matchups,
           play_game,
           simulate,
)
from .stats import first_player_stats, summary, wilson_interval
from .tournaments import head_to_head, tournament
from .training import train, train_batches

__all__ = ["simulate", "play_game", "balance_matrix", "matchups", "first_player_advantage",
           "first_player_stats", "summary", "wilson_interval", "tournament", "head_to_head", "train", "train_batches"]
