"""Saved games (tokens_edu.store.games): kept after every move, continued in one tab at a time."""

from __future__ import annotations

import re

import pytest

from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.store.games import GameKeeper, GameMoved, GameStore


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path}/journal.sqlite"


# -- saved games ---------------------------------------------------------------------------------
def new_game(seed=3):
    d = starter_decks()
    return Game.new(d[0], d[7], seed=seed, names=("Ana", "Computer"))


def test_start_save_and_resume_the_same_position(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05-play-the-computer", ("human", "greedy"), "turn", page="tab-1")
    bot = GreedyBot()
    for _ in range(25):
        game.apply(bot.choose(game))
        store.save(gid, game, "tab-1")
    saved = store.unfinished("Ana", "05-play-the-computer")
    assert saved.id == gid and saved.moves == 25 and saved.status == "playing"
    assert saved.seats == ("human", "greedy") and saved.undo == "turn" and saved.seat == 0
    assert Game.from_record(saved.record).state_key() == game.state_key()
    assert saved.tokens == game.tokens and saved.turn == game.turn
    assert "Ana" in saved.summary() and "25 moves" in saved.summary()
    assert store.unfinished("Bo", "05-play-the-computer") is None
    assert store.unfinished("Ana", "06-hot-seat") is None


def test_a_second_tab_takes_the_game_over(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05", page="tab-1")
    game.apply(game.legal_actions()[0])
    store.save(gid, game, "tab-1")
    claimed = store.claim(gid, "tab-2")
    resumed = Game.from_record(claimed.record)
    resumed.apply(resumed.legal_actions()[0])
    store.save(gid, resumed, "tab-2")
    with pytest.raises(GameMoved, match="another tab"):
        store.save(gid, game, "tab-1")  # the old tab can't overwrite the newer moves
    assert store.get(gid).moves == 2
    keeper = GameKeeper(store, gid, "tab-1", background=False)
    assert keeper.save(game) is False and keeper.moved and "another tab" in keeper.problem


def test_finished_and_stopped_games_are_not_offered_again(url):
    store = GameStore(url)
    game = new_game(5)
    gid = store.start(game, "Ana", "05", page="p")
    bot = GreedyBot()
    while not game.over:
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    assert store.get(gid).status == "over" and store.get(gid).winner == game.winner
    assert store.unfinished("Ana", "05") is None
    other = store.start(new_game(), "Ana", "05", page="q")
    store.stop(other)
    assert store.unfinished("Ana", "05") is None and store.get(other).status == "stopped"
    table = store.games(student="Ana")
    assert set(table["status"]) == {"over", "stopped"} and "record" not in table.columns


def test_keeper_hooks_into_a_match_like_object(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05", page="p")

    class FakeMatch:  # the on_move / on_undo hooks of tokens_edu.players.match.Match
        def __init__(self, g):
            self.game, self.on_move, self.on_undo = g, [], []

    m = FakeMatch(game)
    keeper = GameKeeper(store, gid, "p").attach(m)
    game.apply(game.legal_actions()[0])
    for hook in m.on_move:
        hook(m, 0, None)
    assert keeper.flush()
    assert store.get(gid).moves == 1
    game.undo()
    for hook in m.on_undo:
        hook(m, [])
    assert keeper.flush()
    assert store.get(gid).moves == 0


def test_a_game_needs_a_student_name(url):
    with pytest.raises(ValueError, match="student's name"):
        GameStore(url).start(new_game(), "  ", "05")


def test_database_trouble_is_a_plain_message(url, monkeypatch):
    store = GameStore(url)
    gid = store.start(new_game(), "Ana", "05", page="p")
    import sqlalchemy as sa

    def broken(*a, **k):
        raise sa.exc.OperationalError("x", {}, Exception("disk full"))

    monkeypatch.setattr(store._engine, "begin", broken)
    with pytest.raises(ValueError) as e:
        store.save(gid, new_game(), "p")
    assert "couldn't be saved" in str(e.value) and not re.search(r"Traceback|sqlite3", str(e.value))


def test_keeper_writes_in_the_background_in_order_and_stops_when_moved(url):
    store = GameStore(url)
    game = new_game(9)
    gid = store.start(game, "Ana", "05", page="p")
    keeper = GameKeeper(store, gid, "p")
    bot = GreedyBot()
    for _ in range(30):  # many moves quickly: written together, the last one always last
        game.apply(bot.choose(game))
        assert keeper.save(game)
    assert keeper.flush()
    assert Game.from_record(store.get(gid).record).state_key() == game.state_key()
    store.claim(gid, "other tab")
    game.apply(bot.choose(game))
    keeper.save(game)
    assert keeper.flush() and keeper.moved and "another tab" in keeper.problem
    assert keeper.save(game) is False
    assert store.get(gid).moves == 30


def test_a_typed_names_game_is_found_only_by_the_browser_that_started_it(url):
    store = GameStore(url)
    gid = store.start(new_game(), "Bo", "05", page="p", browser="a" * 64)
    assert store.unfinished("Bo", "05", browser="a" * 64).id == gid
    assert store.unfinished("Bo", "05", browser="b" * 64) is None  # Bo's link in another browser
    assert store.unfinished("Bo", "05", browser="") is None  # a page that has not said which browser
    assert store.unfinished("Bo", "05").id == gid  # a proven name (login, class-roster code)
