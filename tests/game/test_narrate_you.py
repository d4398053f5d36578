"""A player named "You" reads in the second person (issue 28.2: lesson 10's copy lab said "You rolls")."""

from __future__ import annotations

import re

from tokens_edu import Game, starter_decks
from tokens_edu.game.narrate import for_you
from tokens_edu.players import GreedyBot, RandomBot

THIRD_PERSON = re.compile(r"\bYou (rolls|ends|trains|deploys|uses|chooses|makes|reaches|gains|keeps|shuffles|"
                          r"draws|has|is|puts|discards|decides|wins|loses)\b|\bYou's\b")


def test_lines_about_you_use_you_and_your():
    assert for_you("Computer rolls 3, You rolls 5: You chooses who goes first.") == \
        "Computer rolls 3, You roll 5: You choose who goes first."
    assert for_you("Turn 3: You's turn.") == "Turn 3: Your turn."
    assert for_you("You keeps their hand.") == "You keep your hand."
    assert for_you("You reaches 15 Tokens and wins!") == "You reach 15 Tokens and win!"
    assert for_you("Computer's Chatbot audits You's Sensor.") == "Computer's Chatbot audits your Sensor."
    assert for_you("No System of You's can Run a Task during their next turn.") == \
        "No System of yours can Run a Task during your next turn."
    assert for_you("Ada keeps their hand.") == "Ada keeps their hand."  # not about You: unchanged


def test_a_whole_game_with_a_player_named_you_never_says_you_rolls():
    decks = starter_decks()
    for seed in range(6):
        game = Game.new(decks[seed % 10], decks[(seed + 7) % 10], seed=seed, names=("You", "Computer"))
        bots = (RandomBot(seed=seed), GreedyBot())
        while not game.over:
            game.apply(bots[game.to_act].choose(game))
        for viewer in (0, 1):
            for event in game.log_for(viewer):
                assert not THIRD_PERSON.search(event.text), event.text
        assert any(e.text.startswith("You ") or "Your " in e.text for e in game.log_for(0))
