"""A game at the 10,000-move cap on the dashboard (issue 29.6): its replay page opens with one
page of the move list (200 moves, with Earlier/Later links), each step is the record's
position, the Games page calls it over, and other pages answer meanwhile.

Broken before: the replay page listed every move (10,000 list items; a 9,990-move replay took
3 minutes); a game past the cap was a 500. Speed is measured in ``benchmarks/long_games.py``.
"""

from __future__ import annotations

import json
import re

import pytest
from test_dashboard import Dash, teacher

from tokens_edu import Game, starter_decks
from tokens_edu.players.match import MOVE_CAP
from tokens_edu.store.games import GameStore
from tokens_edu.teacher.replay import MOVES_PAGE


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('long') / 'journal.sqlite'}"


@pytest.fixture(scope="module")
def dash(db):
    d = Dash(db)
    yield d
    d.stop()


def capped_game() -> Game:
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ana", "Bo"))
    while len(game.move_stack) < MOVE_CAP:
        moves = game.legal_actions()
        game.apply(next((a for a in moves if a.kind == "end"), moves[0]))
    return game


def test_a_game_at_the_cap_opens_on_the_dashboard_a_page_of_moves_at_a_time(dash, db):
    game = capped_game()
    store = GameStore(db)
    gid = store.start(Game.from_record(dict(game.to_record(), actions=[])), "Ana",
                      "05-play-the-computer", ("human", "human"), page="p")
    store.save(gid, game, "p")
    c = teacher(dash)
    status, _, page = c.get(dash.root + f"games/{gid}")
    assert status == 200
    items = re.findall(r'<li><a href="#" data-step="(\d+)">', page)
    assert [int(i) for i in items] == list(range(MOVE_CAP - MOVES_PAGE + 1, MOVE_CAP + 1))
    assert f"moves {MOVE_CAP - MOVES_PAGE + 1} to {MOVE_CAP} of {MOVE_CAP}" in page
    assert "replay-earlier" in page and "replay-later" not in page
    assert 'data-step="10000"' in page and 'data-length="10000"' in page
    # the first page of moves, with a link to the next
    _, _, first = c.get(dash.root + f"games/{gid}?step=0&moves=0")
    items = [int(i) for i in re.findall(r'<li><a href="#" data-step="(\d+)">', first)]
    assert items == list(range(1, MOVES_PAGE + 1)) and "replay-later" in first
    assert "replay-earlier" not in first
    # a step's position is the record's
    record = game.to_record()
    for step in (4321, MOVE_CAP, 17):
        _, _, body = c.get(dash.root + f"games/{gid}?fragment=1&step={step}&seat=0")
        got = json.loads(body)
        at = Game.from_record(dict(record, actions=record["actions"][:step]))
        assert got["step"] == step and got["length"] == MOVE_CAP
        assert got["other"]["hand"] == [card.name for card in at.observation(1).hand]
        assert got["state"]["turn"] == at.turn
    # the Games page calls it over, with no winner
    _, _, games = c.get(dash.root + "games")
    row = re.search(rf'<tr[^>]*>(?:(?!</tr>).)*games/{gid}(?:(?!</tr>).)*</tr>', games, re.S)
    assert row is not None and "playing" not in row.group(0)
