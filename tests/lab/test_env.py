"""tokens_edu.lab.env: the PettingZoo AEC environment (issue 12, item 4).

PettingZoo's own api_test and seed_test, the fixed action space (every legal action has
exactly one index and comes back from it), illegal actions, rewards, hidden information, text
rendering.
"""

from __future__ import annotations

import collections
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tokens_edu import DeckError, Game, IllegalAction, starter_decks
from tokens_edu.players import GreedyBot, RandomBot
from tokens_edu.lab.env import (
    ACTION_SIZE, BLOCKS, OBS_FIELDS, OBS_SIZE, action_kind, action_to_index, env, index_to_action,
    observation_vector,
)

# PettingZoo's api_test warns about every dict observation of an environment that is not one of
# its own (it keeps a list of their names); these two warnings are expected, any other fails.
_EXPECTED = ("Observation is not a NumPy array",
             "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete")


@pytest.mark.parametrize("kwargs", [dict(deck0="Green-Blue", deck1="Black-Red", turn_limit=40), dict(turn_limit=20)])
def test_pettingzoo_api_test(kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**kwargs), num_cycles=400)
    unexpected = {str(w.message) for w in caught} - set(_EXPECTED)
    assert not unexpected


def test_pettingzoo_seed_test():
    seed_test(lambda: env(turn_limit=30), num_cycles=300)
    seed_test(lambda: env(deck0="White-Red", deck1="Blue-Black", turn_limit=30), num_cycles=300)


def test_spaces_are_fixed_and_documented():
    e = env()
    e.reset(seed=1)
    assert e.action_space("player_0").n == ACTION_SIZE == sum(size for _, size in BLOCKS.values())
    assert e.observation_space("player_1")["observation"].shape == (OBS_SIZE,)
    assert OBS_SIZE == sum(size for _, size in OBS_FIELDS.values())
    offsets = [off for off, _ in BLOCKS.values()]
    assert offsets == sorted(offsets) and offsets[0] == 0
    # the documented start of the layout stays where it is
    assert BLOCKS["order"] == (0, 2) and BLOCKS["setup"] == (2, 2) and BLOCKS["end"] == (4, 1)
    assert BLOCKS["train"] == (5, 70) and BLOCKS["deploy"] == (75, 70)
    assert ACTION_SIZE == 16256


_KINDS = {"order": ("order",), "setup": ("keep", "mulligan"), "end": ("end",), "train": ("train",),
          "deploy": ("deploy",), "deploy_via": ("deploy",), "deploy_at": ("deploy",), "task": ("task",),
          "audit": ("audit",), "use": ("use",), "use_at": ("use",), "choose_word": ("choose",),
          "choose_card": ("choose",)}


def test_every_legal_action_has_exactly_one_index_and_comes_back():
    """Over 40 games of every starter deck pair kind (random and greedy players), every legal
    action of every position maps to its own index, and that index maps back to it."""
    decks = starter_decks()
    seen = collections.Counter()
    for seed in range(40):
        r = random.Random(seed)
        game = Game.new(decks[r.randrange(10)], decks[r.randrange(10)], seed=seed, turn_limit=40)
        bots = (RandomBot(seed), GreedyBot() if seed % 2 else RandomBot(seed + 100))
        while not game.over:
            obs = game.observation(game.to_act)
            indices = {}
            for a in obs.legal_actions:
                i = action_to_index(a, obs)
                assert 0 <= i < ACTION_SIZE
                assert i not in indices, f"{a} and {indices[i]} share index {i}"
                indices[i] = a
                assert index_to_action(i, obs) is a
                assert a.kind in _KINDS[action_kind(i)]
                seen[action_kind(i)] += 1
            game.apply(bots[game.to_act].choose(game))
    assert set(seen) == set(BLOCKS), f"blocks never used: {set(BLOCKS) - set(seen)}"


def _play_until(e, predicate, bot=None, limit=500):
    bot = bot or GreedyBot()
    for _ in range(limit):
        if predicate(e):
            return
        e.step(e.bot_action(bot))
    raise AssertionError("position not reached")


def test_an_illegal_index_raises_the_engines_explanation_and_changes_nothing():
    e = env(deck0="Green-Blue", deck1="Black-Red")
    e.reset(seed=3)
    _play_until(e, lambda e: e.unwrapped.game.phase == "main")
    game = e.unwrapped.game
    before = (game.state_key(), e.agent_selection, dict(e._cumulative_rewards))
    obs, *_ = e.last()
    audit = BLOCKS["audit"][0]  # my slot 0 audits their slot 0: nothing is in play yet
    assert obs["action_mask"][audit] == 0
    with pytest.raises(IllegalAction, match="no card in your board slot 0"):
        e.step(audit)
    hand = {c.name for c in game.observation(game.to_act).hand}
    not_in_hand = next(c for c in starter_decks()[0] if c.name not in hand and c.trainable)
    with pytest.raises(IllegalAction) as err:
        e.step(BLOCKS["train"][0] + not_in_hand.number - 1)
    assert err.value.rule is not None or "hand" in str(err.value)
    assert str(err.value) == game.explain(f"train {not_in_hand.name}")
    for bad in (-1, ACTION_SIZE, 2.5, "end turn"):
        with pytest.raises(IllegalAction):
            e.step(bad)
    assert (game.state_key(), e.agent_selection, dict(e._cumulative_rewards)) == before


def test_rewards_at_the_end_plus_one_minus_one():
    e = env(deck0="Green-Blue", deck1="Black-Red")
    e.reset(seed=5)
    bots = {"player_0": GreedyBot(), "player_1": GreedyBot()}
    finals = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            finals[agent] = (reward, terminated, truncated)
            e.step(None)
        else:
            assert reward == 0
            e.step(e.bot_action(bots[agent]))
    winner = e.unwrapped.game.winner
    assert winner in (0, 1)
    assert finals[f"player_{winner}"] == (1, True, False)
    assert finals[f"player_{1 - winner}"] == (-1, True, False)
    assert e.agents == []


def test_the_turn_limit_is_a_draw_by_truncation():
    e = env(deck0="Green-Blue", deck1="Black-Red", turn_limit=2)
    e.reset(seed=5)
    finals = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            finals[agent] = (reward, terminated, truncated)
            e.step(None)
        else:
            e.step(e.bot_action(GreedyBot()))
    assert finals == {"player_0": (0, False, True), "player_1": (0, False, True)}


def test_same_seed_same_game_and_other_seed_other_game():
    def history(seed):
        e = env(turn_limit=12)
        e.reset(seed=seed)
        bot = RandomBot(seed=0)
        for agent in e.agent_iter():
            _, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else e.bot_action(bot))
        return e.unwrapped.game.to_record()

    assert history(7) == history(7)
    assert history(7) != history(8)


def _scenario(their_hand):
    return Game.from_scenario({
        "seed": 1, "active": 0, "turn": 3,
        "players": [
            {"name": "Ada", "hand": ["Chatbot", "Sensor"], "training_set": {"ready": 2},
             "deck": ["Neuron", "Python", "Agent"], "systems": [{"card": "Neural Network"}]},
            {"name": "Bo", "hand": their_hand, "deck": list(reversed(their_hand)) + ["Predictor"],
             "systems": [{"card": "Explainability", "exerted": True}]},
        ]})


def test_observation_holds_only_what_the_player_may_see():
    """Two positions that differ only in the opponent's hand and deck order look the same."""
    e = env()
    e.reset(seed=0)
    raw = e.unwrapped
    seen = []
    for hand in (["Classifier", "Recommender"], ["Deepfake", "Alignment"]):
        raw.game = _scenario(hand)
        raw._index_cache = None
        raw.agent_selection = "player_0"
        seen.append(e.observe("player_0"))
    assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
    assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])
    v = seen[0]["observation"]
    assert np.array_equal(v, observation_vector(raw.game.observation(0)))
    hand = OBS_FIELDS["hand"][0]
    from tokens_edu import load_cards
    cards = load_cards()
    assert v[hand + cards["Chatbot"].number - 1] == 1 and v[hand + cards["Sensor"].number - 1] == 1
    assert v[hand: hand + 70].sum() == 2
    # the player who is not to act has no legal actions in their mask
    assert e.observe("player_1")["action_mask"].sum() == 0


def test_render_ansi_shows_the_board_not_the_hands():
    e = env(render_mode="ansi")
    e.reset(seed=0)
    raw = e.unwrapped
    raw.game = _scenario(["Deepfake", "Alignment"])
    text = e.render()
    assert "Turn 3: Ada to act" in text and "Neural Network" in text and "Explainability" in text
    assert "sideways" in text
    for hidden in ("Deepfake", "Alignment", "Chatbot", "Sensor", "Neuron", "Predictor"):
        assert hidden not in text
    with pytest.warns(UserWarning):
        quiet = env()
        quiet.reset(seed=0)
        assert quiet.render() is None


def test_helpers_describe_and_list_the_legal_actions():
    e = env("Green-Blue", "Black-Red")
    e.reset(seed=2)
    legal = e.legal_actions()
    assert [str(a) for a in legal.values()] == ["go first", "go second"]
    assert e.describe(0) == "go first" and e.describe(BLOCKS["end"][0]) == "end turn"
    obs, *_ = e.last()
    assert sorted(legal) == list(np.flatnonzero(obs["action_mask"]))


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="human")
    with pytest.raises(ValueError, match="turn_limit"):
        env(turn_limit=0)
    with pytest.raises(DeckError, match="not a starter deck"):
        env(deck0="Purple-Pink")
    e = env()
    with pytest.raises(Exception, match="reset"):
        e.step(0)
