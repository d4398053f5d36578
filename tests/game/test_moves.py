"""One move value (issue 26 part 2): the 240 frozen games' moves, found and shown the same way
whichever form a move is given in, and read by each player as the observer decides.

The games are tests/fixtures/frozen-games.json.gz (tests/engine/test_frozen_games.py); what each
player read of the move list before the one-observer change is tests/fixtures/masked-moves.json.gz
(tests/fixtures/make_masked_moves.py).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tokens_edu import Action, Game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
with gzip.open(FIXTURES / "frozen-games.json.gz", "rt", encoding="utf-8") as _f:
    GAMES = json.load(_f)["games"]
with gzip.open(FIXTURES / "masked-moves.json.gz", "rt", encoding="utf-8") as _f:
    MASKED = json.load(_f)["masked"]
#: The games split into a few groups (a test each), so a failure names a group and -x stops early.
GROUPS = 6


def start_of(record: dict) -> Game:
    return Game.from_record({**record, "actions": []})


@pytest.mark.parametrize("group", range(GROUPS))
def test_every_legal_action_is_found_by_its_text_its_fields_and_itself(group):
    """At every position of the frozen games, each legal action is the one the game finds for
    its text (any case), for an Action built from its fields, and for itself; no two legal
    actions read alike (so a text never means two moves)."""
    for entry in GAMES[group::GROUPS]:
        game = start_of(entry["record"])
        for text in entry["record"]["actions"]:
            actions = game.legal_actions()
            assert len({str(a).casefold() for a in actions}) == len(actions)
            for a in actions:
                legal = f"'{a}' is legal now."
                assert game.explain(str(a)) == legal
                assert game.explain(str(a).upper()) == legal
                assert game.explain(Action(a.kind, a.card, a.target, a.via, a.choice)) == legal
                assert game.explain(a) == legal
                assert Action.parse(str(a)) == a
            game.apply(text)


def test_the_move_list_reads_as_frozen():
    """Each player reads the other's moves as before: face-down Trains and secret picks hidden,
    a mulligan called a new hand."""
    from tokens_edu.present.page import mask

    seen = []
    for index, entry in enumerate(GAMES):
        game = Game.from_record(entry["record"])
        for number, (mover, text) in enumerate(game.moves):
            for reader in (0, 1):
                shown = mask(text, mover, reader)
                if shown != text:
                    seen.append([index, number, reader, shown])
    assert seen == MASKED
