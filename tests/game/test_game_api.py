"""The public surface of Game: setup, records, views, hidden information, log words."""

from __future__ import annotations

import json

import pytest

from tokens_edu import Action, Game, IllegalAction, RecordError, starter_decks
from tokens_edu.players import GreedyBot, RandomBot

NN_VS_EXPLAINABILITY = {
    "title": "The seed's example", "seed": 1, "active": 0, "turn": 3,
    "players": [
        {"name": "Ada", "systems": [{"card": "Neural Network"}], "hand": ["Sensor", "Chatbot"], "deck": ["Neuron", "GAN"]},
        {"name": "Bo", "systems": [{"card": "Explainability", "exerted": True}], "hand": ["Deepfake", "Python"],
         "deck": ["Predictor", "Classifier", "Sensor"]},
    ],
}


def test_new_game_waits_for_the_die_roll_winner():
    d = starter_decks()
    game = Game.new(d[0], d[1], seed=4, names=("Ada", "Bo"))
    assert game.turn == 0 and not game.over and game.phase == "order"
    assert [str(a) for a in game.legal_actions()] == ["go first", "go second"]
    assert "rolls" in game.log[0].text


def test_the_log_reads_like_commentary_and_matches_the_seed_example():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    game.apply("audit Neural Network -> Explainability")
    texts = [e.text for e in game.log]
    assert ("Ada's Neural Network audits Bo's Explainability. Neural Network puts 4 Flags on Explainability "
            "and takes 1 back.") in texts
    assert "Bo's Explainability is Deprecated." in texts
    event = game.log[-1]
    assert (event.turn, event.player, event.kind) == (3, 1, "deprecated")


def test_tables_have_the_documented_columns_and_numbers():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    game.apply("audit Neural Network -> Explainability")
    t = game.tables(0)
    assert list(t["players"].columns[:10]) == ["Player", "Name", "Tokens", "Hand", "Deck", "Discard", "Data ready",
                                               "Training Set", "Systems", "Tools"]
    assert list(t["board"].columns[:8]) == ["Owner", "Card", "Type", "CAP", "TRU", "Flags", "Sideways", "Can act"]
    assert list(t["hand"].columns[:4]) == ["Card", "Type", "Cost", "Trainable"]
    assert list(t["log"].columns) == ["Turn", "Player", "Kind", "Text"]
    board = t["board"]
    assert len(board) == 1
    row = board.iloc[0]
    assert (row["Card"], row["CAP"], row["TRU"], row["Flags"], bool(row["Sideways"])) == ("Neural Network", 4, 2, 1, True)
    assert t["players"].loc[1, "Discard"] == 1 and t["players"].loc[1, "Systems"] == 0
    assert list(t["hand"]["Card"]) == ["Sensor", "Chatbot"]


def test_hidden_information_is_never_shown():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    obs = game.observation(0)
    assert [c.name for c in obs.hand] == ["Sensor", "Chatbot"]
    assert obs.hand_sizes == (2, 2) and obs.deck_sizes == (2, 3)
    text = repr(obs)
    for secret in ("Deepfake", "Python", "Predictor", "Classifier", "Neuron", "GAN"):
        assert secret not in text, f"{secret} is hidden from player 0"
    tables = game.tables(0)
    for df in tables.values():
        assert "Deepfake" not in df.to_string() and "Predictor" not in df.to_string()
    assert "Deepfake" in tables_for(game, 1)
    assert "Deepfake" not in game._repr_html_() and "Sensor" not in game._repr_html_()


def tables_for(game, p):
    return " ".join(df.to_string() for df in game.tables(p).values())


def test_a_bot_only_gets_what_the_observation_shows():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    obs = game.observation(1)
    assert obs.legal_actions == () and obs.pending is None  # not Bo's decision
    mine = game.observation(0)
    assert set(map(str, mine.legal_actions)) == set(map(str, game.legal_actions()))


def test_record_round_trip_through_a_json_file(tmp_path):
    d = starter_decks()
    game = Game.new(d[2], d[7], seed=11, names=("Ada", "Bo"), turn_limit=30)
    bots = (GreedyBot(), RandomBot(3))
    for _ in range(60):
        if game.over:
            break
        game.apply(bots[game.to_act].choose(game))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_record()))
    again = Game.from_record(path)
    assert again.state_key() == game.state_key() and again.names == ("Ada", "Bo")
    scen = Game.from_scenario(NN_VS_EXPLAINABILITY)
    scen.apply("task Neural Network")
    assert Game.from_record(json.loads(json.dumps(scen.to_record()))).state_key() == scen.state_key()


def test_actions_round_trip_through_their_text():
    d = starter_decks()
    game = Game.new(d[0], d[5], seed=2)
    bot = RandomBot(1)
    while not game.over and game.turn < 8:
        for a in game.legal_actions():
            assert Action.parse(str(a)).kind == a.kind
        game.apply(bot.choose(game))


def test_undo_back_to_the_start_and_nothing_more():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    start = game.state_key()
    game.apply("task Neural Network").apply("end turn")
    assert game.turn == 4 and game.active == 1
    assert str(game.undo()) == "end turn"
    assert str(game.undo()) == "task Neural Network"
    assert game.state_key() == start
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def test_game_shows_itself_in_a_notebook():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    html = game._repr_html_()
    assert "Neural Network" in html and "Explainability" in html and "Tokens" in html
    assert "Ada" in repr(game)


def test_names_are_escaped_in_html():
    scen = json.loads(json.dumps(NN_VS_EXPLAINABILITY))
    scen["players"][0]["name"] = "<b>Ada</b>"
    game = Game.from_scenario(scen)
    assert "<b>Ada</b>" not in game._repr_html_() and "&lt;b&gt;Ada&lt;/b&gt;" in game._repr_html_()
    df = game.tables(0)["players"]
    assert "&lt;b&gt;" in df.to_html(escape=True)


def test_explain_names_the_rule_in_plain_words():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    game.apply("task Neural Network")
    msg = game.explain("task Neural Network")
    assert "sideways" in msg
    scen = json.loads(json.dumps(NN_VS_EXPLAINABILITY))
    scen["players"][1]["systems"][0]["exerted"] = False
    game = Game.from_scenario(scen)
    assert game.explain("audit Neural Network -> Explainability") == \
        "Explainability is upright: you can only Audit a System that is sideways."
    with pytest.raises(IllegalAction) as err:
        game.apply("audit Neural Network -> Explainability")
    assert err.value.rule == "R14"
    assert "legal" in game.explain("task Neural Network")
    assert "Did you mean" in game.explain("task Nueral Netwrok")


def test_the_log_never_names_a_card_only_its_chooser_saw():
    """R22 looks are private: the public log says a choice was made, not which card."""
    scen = json.loads(json.dumps(NN_VS_EXPLAINABILITY))
    scen["players"][0]["systems"] = [{"card": "Search Tree"}]
    scen["players"][0]["deck"] = ["Neuron", "GAN", "Agent"]
    game = Game.from_scenario(scen)
    game.apply("task Search Tree")
    assert game.to_act == 0 and game.pending.startswith("Search Tree")
    game.apply("choose GAN")
    for p, line in ((0, "You make a secret choice."), (1, "Ada makes a secret choice.")):
        text = " ".join(game.tables(p)["log"]["Text"])
        assert "GAN" not in text and line in text
    assert [c.name for c in game.observation(0).hand][-1] == "GAN"


def scenario_game(p0: dict, p1: dict) -> Game:
    return Game.from_scenario({"seed": 1, "active": 0, "turn": 5,
                               "players": [dict(name="Ada", **p0), dict(name="Bo", **p1)]})


def test_a_record_is_a_copy_the_game_does_not_share():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    rec = game.to_record()
    rec["scenario"]["players"][0]["tokens"] = 14
    rec["actions"].append("end turn")
    assert Game.from_record(game.to_record()).tokens == (0, 0)
    with pytest.raises(RecordError, match="version"):
        Game.from_record(dict(game.to_record(), version=99))


def test_shortcut_texts_and_choice_actions_round_trip():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    game.apply("END")  # read as 'end turn'
    assert game.active == 1 and game.history[-1] == "end turn"
    scen = scenario_game({"systems": ["Search Tree"], "deck": ["Sensor", "Neuron", "Sensor"]}, {})
    scen.apply("task Search Tree")
    for a in scen.legal_actions():
        assert Action.parse(str(a)) == a
    # two copies among the looked-at cards are two different picks (R22: the rest keep their order)
    assert [str(a) for a in scen.legal_actions()] == ["choose Sensor", "choose Neuron", "choose Sensor #2"]
    scen.apply("choose Sensor #2")
    scen.apply("end turn")
    scen.apply("end turn")  # Ada draws the new top card: Sensor (Neuron was under it)
    assert [c.name for c in scen.observation(0).hand] == ["Sensor", "Sensor"]


def test_hand_built_actions_with_odd_fields_are_refused_plainly():
    game = Game.from_scenario(NN_VS_EXPLAINABILITY)
    key = game.state_key()
    with pytest.raises(IllegalAction):
        game.apply(Action("audit", card="Neural Network", target=["x"]))
    assert game.state_key() == key


def test_reinforcement_learning_token_is_in_the_log():
    game = scenario_game({"systems": ["Neural Network"]},
                         {"tokens": 3, "systems": [{"card": "Reinforcement Learning", "exerted": True}]})
    game.apply("audit Neural Network -> Reinforcement Learning")
    assert game.tokens == (0, 4)
    assert game.log[-1].text == "Reinforcement Learning: Bo gains 1 Token (4)."


def test_explain_points_to_the_numbered_name_and_other_ways_to_pay():
    game = scenario_game({"systems": ["Sensor", "Neural Network"], "hand": ["Training Data", "Agent"]},
                         {"systems": [{"card": "Sensor", "exerted": True}]})
    assert "Did you mean 'audit Sensor -> Sensor #2'" in game.explain("audit Sensor -> Sensor")
    assert "Big Data" in game.explain("deploy Training Data")
    assert "only Tools are used" in game.explain("use Agent")


def test_moves_say_who_took_each_action_even_off_turn():
    game = scenario_game({"systems": ["Neural Network"]},
                         {"tools": ["Model Card"], "systems": [{"card": "Explainability", "exerted": True}]})
    game.apply("audit Neural Network -> Explainability")
    assert game.to_act == 1 and game.active == 0  # Bo decides on Model Card during Ada's turn (R16)
    game.apply("choose yes")
    game.apply("end turn")
    assert game.moves == ((0, "audit Neural Network -> Explainability"), (1, "choose yes"), (0, "end turn"))
    assert game.history == tuple(text for _, text in game.moves)


def test_player_names_are_cleaned_like_every_typed_name():
    d = starter_decks()
    game = Game.new(d[0], d[1], seed=1, names=("\u202eboB", "Ana\x00 \t Li"))
    assert game.names == ("boB", "Ana Li")
    with pytest.raises(ValueError):
        Game.new(d[0], d[1], seed=1, names=("\u200b", "Bo"))
