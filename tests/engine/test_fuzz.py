"""Fuzzing the text and file inputs: only the documented errors come out, nothing changes."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokens_edu import Deck, DeckError, Game, IllegalAction, RecordError, ScenarioError, starter_decks

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**18, max_value=10**30),
    st.floats(allow_nan=True), st.text(max_size=30), st.binary(max_size=10),
    st.sampled_from(["Chatbot", "Neural Network", "2x Sensor", "999999x Chatbot", "", " ", "->", "#2", "None"]),
)
junk = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                    max_leaves=12)
action_texts = st.one_of(
    st.text(max_size=80),
    st.builds(lambda v, a, b: f"{v} {a} -> {b}", st.sampled_from(["deploy", "audit", "use", "task", "train", "choose", "go"]),
              st.text(max_size=20), st.text(max_size=20)),
    st.sampled_from(["audit", "deploy", "use ->", "choose", "go third", "end", "deploy X with Big Data",
                     "task Chatbot #99999999999999999999", "train " + "A" * 500]),
)

BASE = {
    "seed": 3, "active": 0, "turn": 3,
    "players": [
        {"name": "Ada", "tokens": 4, "hand": ["Bias in Data", "Chatbot"], "deck": ["Sensor"],
         "training_set": {"ready": 3, "exerted": 0},
         "systems": [{"card": "Neural Network", "flags": 1}], "tools": [{"card": "Python"}]},
        {"name": "Bo", "tokens": 2, "hand": ["Manual Override"],
         "systems": [{"card": "Explainability", "exerted": True}]},
    ],
}


def fresh_game() -> Game:
    d = starter_decks()
    return Game.new(d[0], d[1], seed=5)


@FUZZ
@given(x=st.one_of(action_texts, junk))
def test_apply_garbage_raises_illegal_action_and_changes_nothing(x):
    for game in (fresh_game(), Game.from_scenario(BASE)):
        key, log = game.state_key(), game.log
        if isinstance(x, str) and game.explain(x).endswith("is legal now."):
            continue  # the fuzzer typed a real action (e.g. "END")
        with pytest.raises(IllegalAction) as err:
            game.apply(x)
        assert str(err.value).strip()
        assert game.state_key() == key and game.log == log
        assert isinstance(game.explain(x), str)


@FUZZ
@given(x=junk)
def test_deck_from_garbage_raises_deck_error(x):
    try:
        deck = Deck.from_names(x)
    except DeckError as e:
        assert str(e).strip()
    else:  # it was a real (possibly illegal) list of cards
        assert all(c.name for c in deck)
        try:
            deck.validate()
        except DeckError as e:
            assert e.problems


@FUZZ
@given(text=st.text(max_size=200))
def test_deck_text_and_files_raise_deck_error(tmp_path_factory, text):
    d = tmp_path_factory.mktemp("decks")
    for name in ("deck.txt", "deck.yaml"):
        path = d / name
        path.write_text(text, encoding="utf-8")
        try:
            Deck.from_file(path)
        except DeckError as e:
            assert str(e).strip()


def test_deck_files_that_do_not_exist_or_are_binary():
    with pytest.raises(DeckError, match="Cannot read"):
        Deck.from_file("/no/such/deck.txt")
    with pytest.raises(DeckError):
        Deck.from_file(12345)


def _mutate(base: dict, path: list, value):
    data = copy.deepcopy(base)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


PATHS = [["seed"], ["active"], ["turn"], ["players"], ["players", 0], ["players", 0, "tokens"],
         ["players", 0, "hand"], ["players", 0, "deck"], ["players", 0, "training_set"],
         ["players", 0, "systems"], ["players", 0, "systems", 0], ["players", 0, "systems", 0, "flags"],
         ["players", 0, "systems", 0, "card"], ["players", 1, "name"], ["players", 0, "tools", 0, "exerted"],
         ["title"], ["players", 1, "trained_this_turn"]]


@FUZZ
@given(path=st.sampled_from(PATHS), value=junk)
def test_scenario_with_a_garbage_entry_raises_scenario_error(path, value):
    try:
        game = Game.from_scenario(_mutate(BASE, path, value))
    except ScenarioError as e:
        assert str(e).strip()
    else:
        assert not game.over and game.legal_actions()


@FUZZ
@given(x=junk)
def test_scenario_and_record_from_pure_garbage(x):
    for make, error in ((Game.from_scenario, ScenarioError), (Game.from_record, RecordError)):
        try:
            make(x)
        except error as e:
            assert str(e).strip()


@FUZZ
@given(i=st.integers(min_value=0, max_value=30), value=junk)
def test_record_with_a_garbage_action_raises_record_error(i, value):
    game = fresh_game()
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    rec = json.loads(json.dumps(game.to_record()))
    acts = rec["actions"]
    acts[min(i, len(acts) - 1)] = value
    try:
        Game.from_record(rec)
    except RecordError as e:
        assert str(e).strip()


@pytest.mark.parametrize("bad", [None, 0, "x", [], {}, ["Chatbot"] * 30, starter_decks()[0].names() + ["Deepfake"] * 3])
def test_game_new_with_bad_decks_raises_deck_error(bad):
    with pytest.raises(DeckError):
        Game.new(bad, starter_decks()[1])


@pytest.mark.parametrize("kw", [{"seed": "abc"}, {"seed": 1.5}, {"seed": 10**30}, {"names": "Ada"},
                                {"names": ("Ada", "Ada")}, {"names": ("", "Bo")}, {"turn_limit": -1},
                                {"turn_limit": True}, {"names": (1, 2)}])
def test_game_new_with_bad_settings_raises_a_plain_error(kw):
    with pytest.raises(ScenarioError):
        Game.new(starter_decks()[0], starter_decks()[1], **kw)
