"""Frozen games (issue 7): 240 seeded games recorded with a digest of the whole position after
every action replay to the same digests, and undo walks back through the same positions.

The fixtures were recorded before the engine's redesign (tests/fixtures/make_frozen_games.py);
they pin every rule the games met: R2-R3 setup, R8-R11 paying, R13-R15 Tasks, Audits and
Deprecation, R16 Model Card, R17-R23 Tools, Actions and choices, R24 reshuffles, R25 the end.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest


from frozen import digest  # noqa: E402

from tokens_edu import Game  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "frozen-games.json.gz"
with gzip.open(FIXTURE, "rt", encoding="utf-8") as _f:
    GAMES = json.load(_f)["games"]


def start_of(record: dict) -> Game:
    """The recorded game's first position (its record without actions)."""
    return Game.from_record({**record, "actions": []})


def test_the_fixtures_cover_the_rules_that_matter():
    assert len(GAMES) >= 200
    kinds = Counter(g["kind"] for g in GAMES)
    assert kinds["greedy"] == 45 and kinds["random"] == 90
    seen = Counter()
    for g in GAMES:
        seen.update(set(g["record"]["actions"]))
    texts = " | ".join(seen)
    assert "choose yes" in texts and "mulligan" in texts and "choose bottom" in texts
    assert any(a.startswith("use ") for a in seen) and any(" with Big Data " in a for a in seen)


@pytest.mark.parametrize("index", range(len(GAMES)), ids=lambda i: f"{GAMES[i]['kind']}-{i}")
def test_frozen_game_replays_to_the_same_positions(index):
    entry = GAMES[index]
    game = start_of(entry["record"])
    hashes = entry["hashes"]
    assert digest(game) == hashes[0], "the starting position changed"
    for n, text in enumerate(entry["record"]["actions"], start=1):
        game.apply(text)
        assert digest(game) == hashes[n], f"position after move {n} ('{text}') changed"
    if index % 6 == 0:  # undo walks back through every recorded position
        for n in range(len(hashes) - 2, -1, -1):
            game.undo()
            assert digest(game) == hashes[n], f"undo to move {n} gave another position"
