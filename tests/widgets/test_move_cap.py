"""Long games (issue 29.6): the 10,000-move cap holds in every mode, hot seat included, with a
plain end; a game stopped at the cap is saved as over, continues, and opens in ``Replay`` and
``ReplayView`` with the right content (the tables show the newest log lines only).

Broken before: a scripted hot-seat game went past 10,000 moves, then "Continue" refused it (a
record holds at most 10,000) and the teacher's replay was a 500. How fast a capped game opens
is measured in ``benchmarks/long_games.py`` (no timed asserts here).
"""

from __future__ import annotations

import pytest
from crafted import page_custom

from tokens_edu import Game, starter_decks
from tokens_edu.game.records import MAX_RECORD_MOVES
from tokens_edu.players.match import CAP_MESSAGE, MOVE_CAP, Match, MatchError
from tokens_edu.widgets import GameView, ReplayView


class EndTurnBot:
    """A computer player that ends its turn whenever it may: games never end (R24 reshuffles)."""

    def choose(self, game):
        moves = game.legal_actions()
        return next((a for a in moves if a.kind == "end"), moves[0])


def endless_game(moves: int) -> Game:
    """A game of ``moves`` moves in which both players end turn after turn (nobody wins)."""
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ana", "Bo"))
    bot = EndTurnBot()
    for _ in range(moves):
        game.apply(bot.choose(game))
    assert not game.over
    return game


def test_the_cap_is_the_records_limit():
    assert MOVE_CAP == MAX_RECORD_MOVES == 10_000


def test_a_hot_seat_game_stops_at_the_cap_with_a_plain_end(wire):
    game = endless_game(MOVE_CAP - 1)
    view = GameView(Match(game, seats=("human", "human")), autoplay=False, keep=False)
    view.reveal_button.click()
    assert view.match.viewer() == game.to_act and len(view.buttons) > 0
    end = next(a for a in view.buttons if a.kind == "end")
    view.buttons[end].click()  # move 10,000
    assert len(game.move_stack) == MOVE_CAP and not game.over
    assert view.note == CAP_MESSAGE and view.status.startswith("The game stopped")
    assert view.match.capped() and view.match.finished
    # nothing more is offered or taken, by the page or by Python
    assert len(view.buttons) == 0 and view.match.legal_moves() == []
    state = view.table.state
    assert state["moves"] == [] and state["over"] is True and state["cover"] is None
    assert state["banner"]["title"] == "The game stops here" and "10,000 moves" in state["banner"]["detail"]
    assert "nobody wins" in state["banner"]["detail"]
    with pytest.raises(MatchError, match="10,000 moves"):
        view.match.play(end)
    page_custom(view.table, {"type": "move", "i": 0, "v": state["v"]})  # a page's crafted click
    assert len(game.move_stack) == MOVE_CAP
    # Undo and the cover are over too; Play again starts a new game
    assert view.match.undo_count() == 0 and not view.match.covered()
    assert view.again_button.shown
    view.again_button.click()
    assert len(view.game.move_stack) == 0 and not view.match.capped()


def test_the_computer_stops_at_the_cap():
    match = Match(endless_game(MOVE_CAP - 3), seats=(EndTurnBot(), EndTurnBot()))
    played = match.play_bot_turn(limit=50)
    assert len(played) == 3 and match.moves_made() == MOVE_CAP
    assert not match.bot_to_act() and match.step() is None and match.capped()


def test_a_student_against_the_computer_stops_at_the_cap():
    game = endless_game(MOVE_CAP - 2)
    match = Match(game, seats=("human", EndTurnBot()) if game.to_act == 0 else (EndTurnBot(), "human"))
    while match.bot_to_act():
        match.step()
    if not match.capped():
        match.play(next(a for a in match.legal_moves() if a.kind == "end"))
        while match.bot_to_act():
            match.step()
    assert match.moves_made() == MOVE_CAP and match.legal_moves() == [] and not match.viewer_to_act()


def test_a_game_at_the_cap_is_saved_as_over_continues_and_replays(tmp_path):
    from tokens_edu.game.replay import Replay
    from tokens_edu.store.games import GameStore

    game = endless_game(MOVE_CAP)
    store = GameStore(f"sqlite:///{tmp_path / 'games.sqlite'}")
    gid = store.start(Game.from_record(dict(game.to_record(), actions=[])), "Ana", "05-play",
                      ("human", "human"), page="p")
    store.save(gid, game, "p")
    saved = store.get(gid)
    assert saved.status == "over" and saved.winner is None and saved.moves == MOVE_CAP
    # "Continue" rebuilds it (a record of 10,000 moves is a record), already stopped
    again = Match.from_record(saved.record, seats=("human", "human"))
    assert again.capped() and again.game.state_key() == game.state_key()
    # the replay's positions are the record's
    replay = Replay(saved.record, at="end")
    assert replay.step == replay.length == MOVE_CAP
    assert replay.game.state_key() == game.state_key()
    replay.goto(1234)
    assert replay.game.state_key() == Game.from_record(
        dict(saved.record, actions=saved.record["actions"][:1234])).state_key()
    move = replay.move()
    assert move.number == 1234 and move.text == saved.record["actions"][1233]
    assert replay.log_size() == len(replay.game.log)


def test_replay_view_opens_a_game_at_the_cap_with_the_newest_log_lines():
    game = endless_game(MOVE_CAP)
    view = ReplayView(game.to_record(), step="end")
    assert view.step == MOVE_CAP and view.slider.max == MOVE_CAP and view.slider.value == MOVE_CAP
    assert "Move 10000 of 10000" in view.caption.value
    assert view.replay.game.state_key() == game.state_key()
    log_html = view.table_widgets["log"].value
    total = len(game.log)
    assert f"The newest 40 of {total:,} lines." in log_html
    assert log_html.count("<tr>") == 40  # 40 lines (the header row has a style)
    assert game.log[-1].text.split()[0] in log_html
    view.goto(3)
    assert view.step == 3 and "The newest" not in view.table_widgets["log"].value
    first = ReplayView(game.to_record())  # opens at the start
    assert first.step == 0 and "Start of the game (10000 moves in all)" in first.caption.value
