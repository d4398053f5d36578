"""Events: what happened in a game, as data (a code and numbers), never as sentences.

The rules append one tuple per event to ``State.events``: ``(code, turn, player, *args)``,
where ``player`` is 0/1 or None and ``args`` are card ids and numbers fixed at that moment
(Tokens after a gain, Flags after an Audit...). :mod:`tokens_edu.game.narrate` turns them into a
student's sentences only when somebody reads the log. ``KIND`` gives each code's short word
(the ``kind`` column of the log table).
"""

from __future__ import annotations

from typing import Final

__all__ = ["KIND"]

# setup (R2, R3)
ROLL_TIE: Final = 0          # args: roll
ROLL: Final = 1              # args: roll0, roll1, winner
ORDER: Final = 2             # args: went_first (bool)
KEEP: Final = 3
MULLIGAN: Final = 4
SCENARIO: Final = 5          # args: -
# the turn (R5-R7)
TURN: Final = 6
END: Final = 7
TURN_LIMIT: Final = 8        # args: limit
# moves
TRAIN: Final = 9             # args: training_set_size
DEPLOY: Final = 10           # args: card, target or -1, cost (-1 when Big Data paid), payer or -1
TASK: Final = 11             # args: system, tokens gained, total
AUDIT: Final = 12            # args: auditor, audited, flags dealt, flags back
USE: Final = 13              # args: tool, target or -1
CHOOSE: Final = 14           # args: decision index of the option chosen, label kind, value (see notation)
CHOOSE_SECRET: Final = 15
# effects
GAIN: Final = 16             # args: source card, n, total
WIN: Final = 17              # args: total
DECK_OUT_EMPTY: Final = 18   # args: -
RESHUFFLE: Final = 19        # args: lost (0/1)
DECK_TO_TRAINING_SET: Final = 20
TRAINING_SET_DISCARD: Final = 21  # args: card
DECK_TO_HAND: Final = 22
DECK_TO_BOTTOM: Final = 23
DISCARD: Final = 24          # args: card
DISCARD_TO_DECK: Final = 25  # args: card
FLAGS_ADDED: Final = 26      # args: system, n, flags now
FLAGS_REMOVED: Final = 27    # args: system, n, flags left
BOOST: Final = 28            # args: system, n, cap now
ENABLED: Final = 29          # args: system
NO_TASK: Final = 30          # args: system
RECALL: Final = 31           # args: -
NO_AUDIT: Final = 32         # args: system
ABILITIES_LOST: Final = 33   # args: system
EXTRA_TRAIN: Final = 34
TOOL_REMOVED: Final = 35     # args: tool
LEGACY_DRAW: Final = 36      # args: tool
DEPRECATED: Final = 37       # args: system
MODEL_CARD: Final = 38       # args: system

#: code -> the short word in the log's ``kind`` column.
KIND: Final[dict[int, str]] = {
    ROLL_TIE: "roll", ROLL: "roll", ORDER: "order", KEEP: "keep", MULLIGAN: "mulligan",
    SCENARIO: "scenario", TURN: "turn", END: "end", TURN_LIMIT: "draw", TRAIN: "train",
    DEPLOY: "deploy", TASK: "task", AUDIT: "audit", USE: "use", CHOOSE: "choose",
    CHOOSE_SECRET: "choose", GAIN: "tokens", WIN: "win", DECK_OUT_EMPTY: "deck-out",
    RESHUFFLE: "deck-out", DECK_TO_TRAINING_SET: "training-set", TRAINING_SET_DISCARD: "training-set",
    DECK_TO_HAND: "look", DECK_TO_BOTTOM: "look", DISCARD: "discard", DISCARD_TO_DECK: "use",
    FLAGS_ADDED: "flag", FLAGS_REMOVED: "flag", BOOST: "boost", ENABLED: "use", NO_TASK: "bar",
    RECALL: "bar", NO_AUDIT: "bar", ABILITIES_LOST: "bar", EXTRA_TRAIN: "train",
    TOOL_REMOVED: "removed", LEGACY_DRAW: "legacy", DEPRECATED: "deprecated", MODEL_CARD: "model-card",
}
