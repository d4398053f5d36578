"""Perft (as chess engines do): count the legal action sequences to a depth from fixed positions.

The depth-1 lists were checked by hand against the rules (comments below). The deeper counts
pin the engine's behaviour: if one changes, some rule's legal moves changed, and the ruling
tests should say which one on purpose.
"""

from __future__ import annotations

import pytest

from tokens_edu import Game

SEED_EXAMPLE = {"seed": 1, "active": 0, "turn": 3, "players": [
    {"name": "Ada", "systems": [{"card": "Neural Network"}], "hand": ["Sensor", "Chatbot"], "deck": ["Neuron", "GAN"]},
    {"name": "Bo", "systems": [{"card": "Explainability", "exerted": True}], "hand": ["Deepfake"],
     "deck": ["Predictor", "Classifier"]}]}

MIDGAME = {"seed": 2, "active": 1, "turn": 6, "players": [
    {"name": "Ada", "tokens": 9, "systems": [{"card": "Safety Lab", "exerted": True}, {"card": "GAN", "exerted": True}],
     "tools": [{"card": "Model Card"}], "hand": ["Python"], "deck": ["Neuron", "Sensor", "Chatbot"],
     "discard": ["Bias in Data"]},
    {"name": "Bo", "tokens": 11, "training_set": {"ready": 4, "exerted": 1},
     "systems": [{"card": "Neural Network"}, {"card": "Search Tree"}, {"card": "Agent", "new": True}],
     "tools": [{"card": "CUDA"}, {"card": "RAM"}],
     "hand": ["Bias in Data", "Regulation Debate", "Training Data", "GPT", "Deepfake"],
     "deck": ["Predictor", "Classifier", "Tensor", "Transformer"], "discard": ["Manual Override", "Sensor"]}]}


def perft(game: Game, depth: int) -> int:
    """Number of legal action sequences of length ``depth`` (shorter if the game ends)."""
    if depth == 0 or game.over:
        return 1
    total = 0
    for action in game.legal_actions():
        game.apply(action)
        total += perft(game, depth - 1)
        game.undo()
    return total


def test_seed_example_depth_one_by_hand():
    # No Data: nothing to deploy (R9). Both hand cards are trainable (R8). Neural Network may
    # Task (R13) or Audit the sideways Explainability (R14).
    game = Game.from_scenario(SEED_EXAMPLE)
    assert [str(a) for a in game.legal_actions()] == [
        "train Sensor", "train Chatbot", "task Neural Network", "audit Neural Network -> Explainability", "end turn"]


def test_midgame_depth_one_by_hand():
    game = Game.from_scenario(MIDGAME)
    assert [str(a) for a in game.legal_actions()] == [
        # R8: every card in hand is trainable
        "train Bias in Data", "train Regulation Debate", "train Training Data", "train GPT", "train Deepfake",
        # R18: Bias in Data aims at each of Ada's Systems
        "deploy Bias in Data -> Safety Lab", "deploy Bias in Data -> GAN",
        "deploy Regulation Debate",
        # R11: Big Data 2 can be paid by any ready System with Cost 2+ that could act (Agent is Fast-Tracked)
        "deploy Training Data", "deploy Training Data with Big Data Neural Network",
        "deploy Training Data with Big Data Search Tree", "deploy Training Data with Big Data Agent",
        # R10: a 4th System costs +2: Deepfake 2+2 = 4 fits 4 Data, GPT 3+2 = 5 does not
        "deploy Deepfake",
        "task Neural Network", "task Search Tree", "task Agent",
        # R14: Safety Lab is Highly Trusted (Trust 4): every auditor here has lower Trust
        "audit Neural Network -> GAN", "audit Search Tree -> GAN", "audit Agent -> GAN",
        # R17: CUDA aims at any System; RAM at an Action in the discard pile (Sensor is a System)
        "use CUDA -> Neural Network", "use CUDA -> Search Tree", "use CUDA -> Agent", "use CUDA -> Safety Lab",
        "use CUDA -> GAN", "use RAM -> Manual Override",
        "end turn"]


@pytest.mark.parametrize("scenario, counts", [(SEED_EXAMPLE, [5, 18, 50]), (MIDGAME, [26, 420, 5331])],
                         ids=["seed-example", "midgame"])
def test_perft_counts(scenario, counts):
    game = Game.from_scenario(scenario)
    start = game.state_key()
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts
    assert game.state_key() == start, "perft undoes every move it makes"
