"""The presenter (issue 18 part 4): one function decides everything a player's page may show,
tested without widgets. Rules: R8 (a trained card is face-down), R22 (a look is the looker's),
R25 (15 Tokens win)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tokens_edu import Action, Game, starter_decks
from tokens_edu.players.match import Match
from tokens_edu.present import REPLAY, Seating, mask, present, table_state
from tokens_edu.present.words import clock, game_state, when_text

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"
SECRET = {
    "title": "Secrets", "seed": 11, "active": 0, "turn": 4,
    "players": [
        {"name": "Ada", "hand": ["Sensor", "Neuron"], "deck": ["Chatbot", "Embedding", "Neuron"],
         "training_set": {"ready": 2, "exerted": 0}, "systems": [{"card": "Neural Network"}],
         "tools": [{"card": "Tensor"}]},
        {"name": "Bo", "hand": ["Mandatory Recall", "Informed Consent"],
         "deck": ["Red Teaming", "Fairness Check", "Accountability"],
         "training_set": {"ready": 1, "exerted": 0},
         "systems": [{"card": "Explainability", "exerted": True}], "tools": [{"card": "Tensor"}]},
    ],
}
BO_HIDDEN = ("Mandatory Recall", "Informed Consent", "Red Teaming", "Fairness Check")


def test_a_student_against_the_computer_sees_their_hand_and_moves_only():
    game = Game.from_scenario(SECRET)
    page = present(game, 0, Seating(computer=(False, True)))
    assert [str(a) for a in page.moves] == [str(a) for a in game.legal_actions()]
    assert page.status == "Your turn" and page.cover is None and page.banner is None
    state = page.state(7, None)
    assert state["v"] == 7 and [m["t"] for m in state["moves"]] == [str(a) for a in page.moves]
    assert {f["name"] for f in state["hand"]} == {"Sensor", "Neuron"}
    text = json.dumps(state)
    for name in BO_HIDDEN:
        assert name not in text
    assert page.readable == ("Explainability", "Neural Network", "Neuron", "Sensor", "Tensor")


def test_on_the_computers_turn_nothing_is_offered():
    game = Game.from_scenario(SECRET)
    game.apply("end turn")
    page = present(game, 0, Seating(computer=(False, True)))
    assert page.moves == () and page.computer_to_act
    assert page.status == "The computer is playing…"
    assert present(game, 0, Seating(computer=(False, True), paused=True)).status.startswith("The computer's move")


def test_a_look_is_read_by_its_chooser_only():
    """R22: Ada uses Tensor and looks at her top card (Chatbot); Bo reads who looks, not what."""
    game = Game.from_scenario(SECRET)
    game.apply("use Tensor")
    ada = present(game, 0, Seating())
    bo = present(game, 1, Seating())
    assert "Chatbot" in ada.prompt
    assert bo.prompt == "Ada looks at the top card of their deck (Tensor) and may put it on the bottom."
    computer = present(game, 1, Seating(computer=(True, False)))
    assert computer.prompt.startswith("The computer looks at the top card of its deck")
    covered = present(game, None, Seating(covered=True, seat=0))
    assert "Chatbot" not in (covered.prompt or "") and covered.moves == () and covered.state()["hand"] == []


def test_hot_seat_cover_shows_no_hand_no_move_and_asks_for_the_next_player():
    game = Game.from_scenario(SECRET)
    page = present(game, None, Seating(covered=True, seat=0))
    assert page.cover == {"title": "Pass the screen to Ada.",
                          "text": "Bo, please look away. Ada: click the button to see your cards.",
                          "button": "I'm Ada: show my cards"}
    assert page.moves == () and page.status == "Pass the screen to Ada."
    assert "Sensor" not in json.dumps(page.state()) and "Sensor" not in page.readable
    assert page.tables()["hand"] is None


def test_the_other_players_secret_moves_are_masked():
    """R8: a Train is face-down; R22: where a looked-at card goes is the looker's secret."""
    game = Game.from_scenario(SECRET)
    game.apply(Action("train", "Sensor"))
    game.apply(Action("use", "Tensor"))
    game.apply(Action("choose", choice="bottom"))
    game.apply(Action("end"))
    assert present(game, 1, Seating()).move_lines() == [
        "1. Ada: train a card (face-down)", "2. Ada: use Tensor", "3. Ada: choose (a secret choice)",
        "4. Ada: end turn"]
    assert present(game, 0, Seating()).move_lines()[:3] == [
        "1. Ada: train Sensor", "2. Ada: use Tensor", "3. Ada: choose bottom"]
    assert present(game, None, Seating(covered=True)).move_lines()[0] == "1. Ada: train a card (face-down)"
    train, _, where, _ = game.move_stack
    assert (mask(train, 0, 1), mask(train, 0, 0), mask(where, 0, 1)) == (
        "train a card (face-down)", "train Sensor", "choose (a secret choice)")
    decks = starter_decks()
    new = Game.new(decks[0], decks[1], seed=3)
    new.apply(new.legal_actions()[0])
    new.apply(Action("mulligan"))
    assert mask(new.move_stack[-1], new.move_stack[-1].player, new.move_stack[-1].player) == "new hand"


def test_a_moves_text_is_still_masked_with_a_warning_and_every_other_choice_hidden():
    """The text form of mask() stays until 0.4.0: a text does not say whether a choice was
    secret, so every choice of the other player is hidden (nothing can leak)."""
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        assert mask("train Sensor", 1, 0) == "train a card (face-down)"
    with pytest.warns(DeprecationWarning):
        assert mask("choose yes", 1, 0) == "choose (a secret choice)"
    with pytest.warns(DeprecationWarning):
        assert mask("train Sensor", 0, 0) == "train Sensor"
    with pytest.warns(DeprecationWarning):
        assert mask("mulligan", 0, 1) == "new hand"


def test_the_computers_last_moves_light_up_public_cards_and_never_a_trained_one():
    game = Game.from_scenario(SECRET)
    match = Match(game, seats=("human", "greedy"))
    match.play(Action("end"))
    match.play_bot_turn()
    page = present(game, 0, Seating.of(match))
    kinds = {a.kind for _, a in match.last_bot_moves[-3:]}
    if "train" in kinds:
        assert "ts:1" in page.highlight
    assert not any(h in BO_HIDDEN for h in page.highlight)


def test_the_end_banner_says_who_won():
    """R25: 15 Tokens win."""
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tokens"] = 13
    game = Game.from_scenario(sc)
    game.apply("task Neural Network")
    page = present(game, 0, Seating(computer=(False, True)))
    assert page.banner == {"title": "You win!", "detail": "Final Tokens: Ada 15, Bo 0.", "won": True}
    assert page.moves == () and page.status == "You win!"
    assert present(game, 1, Seating(computer=(True, False))).banner["title"] == "The computer wins"


def test_a_replay_page_offers_nothing_and_matches_table_state():
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ada", "Bo"))
    page = present(game, 0, REPLAY)
    assert page.moves == () and page.banner is None and page.prompt is None and page.status == ""
    assert page.table_state() == table_state(game, 0)


def test_a_page_is_built_from_one_observation(monkeypatch):
    """The observation is built once per page (it was built three times per click)."""
    game = Game.from_scenario(SECRET)
    calls = []
    real = Game.observation
    monkeypatch.setattr(Game, "observation", lambda self, p: calls.append(p) or real(self, p))
    game.apply("use Tensor")  # a choice in progress: the prompt is read from the same observation
    present(game, 0, Seating(computer=(False, True)))
    assert calls == [0]


def test_a_click_on_a_game_view_builds_one_observation(monkeypatch):
    from tokens_edu.widgets import GameView

    view = GameView(Game.from_scenario(SECRET), seats=("human", "greedy"))
    calls = []
    real = Game.observation
    monkeypatch.setattr(Game, "observation", lambda self, p: calls.append(p) or real(self, p))
    view.buttons[Action.parse("train Sensor")].click()
    assert calls == [0]


def test_a_bad_viewer_is_refused():
    with pytest.raises(ValueError, match="viewer"):
        present(Game.from_scenario(SECRET), 2)


# -- one clock, one word ------------------------------------------------------------------------
def test_one_clock_and_one_word_for_a_games_state():
    """Issue 21 part 7: every page writes a time the same way (24-hour) and a game's state with
    the same word."""
    t = datetime(2026, 3, 3, 19, 5, 7).astimezone()
    assert clock(t) == "19:05:07"
    assert when_text(t, now=t) == "19:05:07"
    assert when_text(t, now=datetime(2026, 3, 9, 8, 0).astimezone()) == "3 Mar 19:05:07"
    assert clock(datetime(2026, 3, 3, 7, 5, 7, tzinfo=timezone.utc)) == \
        datetime(2026, 3, 3, 7, 5, 7, tzinfo=timezone.utc).astimezone().strftime("%H:%M:%S")
    assert game_state("playing", turn=7) == "playing, turn 7"
    assert game_state("playing") == "playing"
    assert game_state("over", 0, seat=0) == "over, won" and game_state("over", 1, seat=0) == "over, lost"
    assert game_state("over", 1, names=("Ada", "Bo")) == "over, Bo won"
    assert game_state("over", None) == "over, a draw" and game_state("stopped") == "stopped"
