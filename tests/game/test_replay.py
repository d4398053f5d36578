"""Replays: stepping back and forth shows exactly the positions of the record.

Every step of :class:`tokens_edu.game.replay.Replay` (and so of ``ReplayView`` and the dashboard's
replay page) must be the position ``Game.from_record`` reaches with the first *n* moves of the
record, whatever path of buttons, slider jumps and back steps led there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tokens_edu import Game, RecordError, starter_decks
from tokens_edu.players import GreedyBot, RandomBot
from tokens_edu.game.replay import Replay, replay_board_html

ROOT = Path(__file__).resolve().parents[2]


def played(seed: int, limit: int | None = None) -> Game:
    decks = starter_decks()
    game = Game.new(decks[seed % len(decks)], decks[(seed * 3 + 1) % len(decks)], seed=seed,
                    names=("Ana", "Computer"))
    bots = (GreedyBot(), RandomBot(seed=seed))
    while not game.over and (limit is None or len(game.history) < limit):
        game.apply(bots[game.to_act].choose(game))
    return game


def positions(record: dict) -> list[tuple]:
    """The state key after each prefix of the record's moves, each from a fresh from_record."""
    actions = record["actions"]
    return [Game.from_record(dict(record, actions=actions[:n])).state_key()
            for n in range(len(actions) + 1)]


@pytest.fixture(scope="module")
def games():
    scenario = Game.from_scenario(ROOT / "lessons" / "scenarios" / "03-audit.yaml")
    bot = GreedyBot()
    for _ in range(40):
        if scenario.over:
            break
        scenario.apply(bot.choose(scenario))
    return [played(1), played(4, limit=70), scenario]


def test_every_step_is_the_records_position_on_any_walk(games):
    rng = random.Random(7)
    for game in games:
        record = game.to_record()
        truth = positions(record)
        r = Replay(record)
        assert r.length == len(record["actions"]) and r.step == 0
        assert r.game.state_key() == truth[0]
        # one step at a time to the end, then back to the start
        for n in range(1, r.length + 1):
            r.forward()
            assert r.step == n and r.game.state_key() == truth[n]
        r.forward()  # nothing past the end
        assert r.step == r.length
        for n in range(r.length - 1, -1, -1):
            r.back()
            assert r.game.state_key() == truth[n]
        r.back()
        assert r.step == 0
        # random jumps (the slider) and steps, in any order
        for _ in range(60):
            move = rng.choice(["jump", "forward", "back", "start", "end"])
            if move == "jump":
                r.goto(rng.randint(-3, r.length + 3))
            else:
                getattr(r, {"start": "to_start", "end": "to_end"}.get(move, move))()
            assert 0 <= r.step <= r.length
            assert r.game.state_key() == truth[r.step]
            assert list(r.game.history) == record["actions"][:r.step]


def test_each_move_has_its_mover_text_and_log_lines(games):
    game = games[0]
    r = Replay(game)
    assert r.move(0) is None and r.move(r.length + 1) is None
    events = [e.text for e in game.log]
    rebuilt = list(r.start_lines())
    for n in range(1, r.length + 1):
        m = r.move(n)
        assert (m.player, m.text) == game.moves[n - 1]
        rebuilt += list(m.lines)
    assert rebuilt == events  # every log line belongs to exactly one move (or the start)
    r.goto(5)
    assert r.caption().startswith(f"Move 5 of {r.length}: ")


def test_replay_from_a_record_file_and_bad_records(tmp_path, games):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(games[1].to_record()))
    assert Replay(path).length == len(games[1].history)
    bad = dict(games[1].to_record())
    bad["actions"] = bad["actions"][:3] + ["task Nothing"]
    with pytest.raises(RecordError, match="Move 4"):
        Replay(bad)
    with pytest.raises(TypeError):
        Replay(42)


def test_a_replay_is_its_own_copy(games):
    game = games[1].copy()
    r = Replay(game)
    length = r.length
    game.undo()
    assert r.length == length
    r.to_end()
    assert r.game.state_key() == games[1].state_key()


def test_board_shows_both_hands_escaped():
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=2, names=("<b>Ana</b>", "Computer"))
    html = replay_board_html(game)
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>Ana</b>" not in html
    for p in (0, 1):
        for card in game.observation(p).hand:
            assert card.name.replace("'", "&#x27;") in html


# -- the widget ---------------------------------------------------------------------------------
def test_replay_view_buttons_and_slider_show_the_records_positions(games):
    from tokens_edu.widgets import ReplayView

    game = games[0]
    record = game.to_record()
    truth = positions(record)
    view = ReplayView(record)
    assert view.step == 0 and view.slider.max == len(record["actions"])
    assert view.buttons["back"].disabled and not view.buttons["forward"].disabled
    assert "both players&#x27; hands" in view.note.value
    view.buttons["forward"].click()
    view.buttons["forward"].click()
    assert view.step == 2 and view.slider.value == 2
    assert view.replay.game.state_key() == truth[2]
    assert view.caption.value.count("Move 2 of") == 1
    view.slider.value = 17  # dragging the slider
    assert view.step == 17 and view.replay.game.state_key() == truth[17]
    view.buttons["back"].click()
    assert view.replay.game.state_key() == truth[16]
    view.buttons["end"].click()
    assert view.step == view.slider.max and view.buttons["forward"].disabled
    assert view.replay.game.state_key() == truth[-1]
    view.buttons["start"].click()
    assert view.step == 0 and view.replay.game.state_key() == truth[0]
    # the tables at a step are the game's tables there, both hands included
    view.goto(9)
    at9 = Game.from_record(dict(record, actions=record["actions"][:9]))
    for p, key in ((0, "hand0"), (1, "hand1")):
        for name in at9.tables(p)["hand"]["Card"]:
            assert name.replace("'", "&#x27;") in view.table_widgets[key].value
    move = view.replay.move(9)
    for line in move.lines:
        assert line.replace("'", "&#x27;") in view.lines.value


def test_replay_view_starts_at_the_end_when_asked(games):
    from tokens_edu.widgets import ReplayView

    view = ReplayView(games[2], step="end")
    assert view.step == view.replay.length
    assert view.replay.game.state_key() == games[2].state_key()


def test_replay_view_draws_the_card_table_from_either_seat(games):
    from tokens_edu.widgets import ReplayView
    from tokens_edu.present.table import table_state

    game = games[0]
    view = ReplayView(game, step=12)
    at = Game.from_record(dict(game.to_record(), actions=list(game.history)[:12]))
    state = view.table.state
    assert state["seat"] == 0 and state["v"] == 12
    assert [f["name"] for f in state["hand"]] == [c.name for c in at.observation(0).hand]
    assert state["board"] == table_state(at, 0)["board"]
    for card in at.observation(1).hand:  # the other hand is beside the table
        assert card.name.replace("'", "&#x27;") in view.other_hand.value
    view.seat_pick.value = 1  # "Seen from" the other player
    assert view.table.state["seat"] == 1
    assert [f["name"] for f in view.table.state["hand"]] == [c.name for c in at.observation(1).hand]
    assert view.step == 12
