"""Events: what happened in a game, as data (a code and numbers), never as sentences.

The rules append one tuple per event to ``State.events``: ``(code, turn, player, *args)``,
where ``player`` is 0/1 or None and ``args`` are card ids and numbers fixed at that moment
(Tokens after a gain, Flags after an Audit...). :mod:`tokens_edu.narrate` turns them into a
student's sentences only when somebody reads the log. ``KIND`` gives each code's short word
(the ``kind`` column of the log table).
"""

from __future__ import annotations

__all__ = ["KIND"]

# setup (R2, R3)
ROLL_TIE = 0          # args: roll
ROLL = 1              # args: roll0, roll1, winner
ORDER = 2             # args: went_first (bool)
KEEP = 3
MULLIGAN = 4
SCENARIO = 5          # args: -
# the turn (R5-R7)
TURN = 6
END = 7
TURN_LIMIT = 8        # args: limit
# moves
TRAIN = 9             # args: training_set_size
DEPLOY = 10           # args: card, target or -1, cost (-1 when Big Data paid), payer or -1
TASK = 11             # args: system, tokens gained, total
AUDIT = 12            # args: auditor, audited, flags dealt, flags back
USE = 13              # args: tool, target or -1
CHOOSE = 14           # args: decision index of the option chosen, label kind, value (see notation)
CHOOSE_SECRET = 15
# effects
GAIN = 16             # args: source card, n, total
WIN = 17              # args: total
DECK_OUT_EMPTY = 18   # args: -
RESHUFFLE = 19        # args: lost (0/1)
DECK_TO_TRAINING_SET = 20
TRAINING_SET_DISCARD = 21  # args: card
DECK_TO_HAND = 22
DECK_TO_BOTTOM = 23
DISCARD = 24          # args: card
DISCARD_TO_DECK = 25  # args: card
FLAGS_ADDED = 26      # args: system, n, flags now
FLAGS_REMOVED = 27    # args: system, n, flags left
BOOST = 28            # args: system, n, cap now
ENABLED = 29          # args: system
NO_TASK = 30          # args: system
RECALL = 31           # args: -
NO_AUDIT = 32         # args: system
ABILITIES_LOST = 33   # args: system
EXTRA_TRAIN = 34
TOOL_REMOVED = 35     # args: tool
LEGACY_DRAW = 36      # args: tool
DEPRECATED = 37       # args: system
MODEL_CARD = 38       # args: system

#: code -> the short word in the log's ``kind`` column.
KIND = {
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
