"""Computer players (issue 7): GreedyBot on the int-move fast path picks what its scores say,
never looks at hidden cards, and weighs the Task an Audit gives up (R13, R14)."""

from __future__ import annotations

import random


import pytest  # noqa: E402

from tokens_edu import Game, starter_decks  # noqa: E402
from tokens_edu.players import GreedyBot, RandomBot  # noqa: E402
from tokens_edu.engine import moves as mv  # noqa: E402
from scenarios import player, start, sys_  # noqa: E402
from scenarios import shuffle_hidden  # noqa: F401

DECKS = starter_decks()


def positions(seed: int, limit: int = 400):
    """Main-phase positions of a seeded Greedy-vs-Random game (each a copy of the game)."""
    r = random.Random(seed)
    game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=seed, turn_limit=40)
    bots = (GreedyBot(), RandomBot(seed))
    n = 0
    while not game.over and n < limit:
        if game.legal_moves()[0] & 15 != mv.CHOOSE:
            yield game.copy()
        game.push(bots[game.to_act].choose_move(game))
        n += 1


@pytest.mark.parametrize("seed", range(12))
def test_greedy_fast_choice_is_the_best_score(seed):
    bot = GreedyBot()
    for game in positions(seed):
        view = game.view(game.to_act)
        moves = game.legal_moves()
        scores = [bot.score(view, m) for m in moves]
        best = max(range(len(moves)), key=lambda i: (scores[i], -i))
        expected = moves[best] if scores[best] > 0 else moves[-1]
        assert bot.choose_move(game) == expected, game.action(expected)


@pytest.mark.parametrize("seed", range(8))
def test_greedy_never_reads_hidden_cards(seed):
    bot = GreedyBot()
    rng = random.Random(seed)
    checked = 0
    for game in positions(seed, limit=200):
        p = game.to_act
        choice = game.action(bot.choose_move(game))
        for _ in range(3):
            other = shuffle_hidden(game, p, rng)
            assert str(other.action(bot.choose_move(other))) == str(choice)
            checked += 1
    assert checked > 20


def test_greedy_audits_when_the_kill_is_worth_more_than_the_task():
    # R14: Neural Network (CAP 4, 2 Tokens) Deprecates Large Language Model (worth far more
    # than a 2-Token Task) and survives its 5 Flags? No: TRU 2, so it falls; still worth it.
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Large Language Model", exerted=True)]))
    assert str(GreedyBot().choose(game)) == "audit Neural Network -> Large Language Model"


def test_greedy_tasks_instead_of_killing_a_cheap_system():
    # R13 vs R14: killing a 1-Token Chatbot is worth less than Neural Network's 2-Token Task.
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Chatbot", exerted=True)]))
    assert str(GreedyBot().choose(game)) == "task Neural Network"


def test_greedy_takes_a_winning_task_first():
    game = start(p0=player(tokens=13, hand=["Chatbot"], training_set={"ready": 1},
                           systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Large Language Model", exerted=True)]))
    assert str(GreedyBot().choose(game)) == "task Neural Network"  # R25: 15 wins at once


def test_imagine_keeps_what_the_player_sees_and_redeals_the_rest():
    rng = random.Random(5)
    for game in positions(3, limit=120):
        p = game.to_act
        seen = game.observation(p)
        other = game.imagine(p, rng)
        again = other.observation(p)
        assert again == seen  # hand, board, discards, counts, legal actions: all the same
        s, t = game._s, other._s
        q = 1 - p
        assert sorted(s.hand[q] + s.deck[q] + s.ts[q]) == sorted(t.hand[q] + t.deck[q] + t.ts[q])
        assert sorted(s.deck[p]) == sorted(t.deck[p]) and s.ts_ex == t.ts_ex
        assert other.history == () and other.legal_moves() == game.legal_moves()
