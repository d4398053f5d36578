"""LearningBot worth training (issue 19, part 5): it learns from play in batches a page can
redraw between, and from examples (a person's moves in a recorded game); its knowledge stays
an 8-row table; it never reads hidden cards; it explains the move it then plays.

Its strength after five minutes of training is measured by ``benchmarks/learning.py`` (a
speed goal, never a timed test): these tests check what it does, on a few quick games."""

from __future__ import annotations

import random

import pandas as pd
import pytest

import tokens_edu
from tokens_edu import Game, starter_decks
from tokens_edu.engine import moves as mv
from tokens_edu.players import GreedyBot, LearningBot, RandomBot
from tokens_edu.players.features import LEARNING_FEATURES, LEARNING_MEANINGS, learning_features
from tokens_edu.players.imitation import Example, examples_from_game
from tokens_edu.players.learning import EXAMPLE_COLUMNS, TRAIN_COLUMNS, WIN_POINTS
from scenarios import shuffle_hidden

DECKS = starter_decks()


def played(players, seed: int, turn_limit: int = 60) -> Game:
    game = Game.new(DECKS[seed % 10], DECKS[(3 * seed + 1) % 10], seed=seed, turn_limit=turn_limit)
    while not game.over:
        game.push(players[game.to_act].choose_move(game))
    return game


class NoTasks(GreedyBot):
    """A student with a habit: GreedyBot's moves, but it ends its turn instead of Running a Task."""

    def choose_move(self, game):
        move = super().choose_move(game)
        return game.legal_moves()[-1] if move & 15 == mv.TASK else move


def test_the_knowledge_is_a_short_table_in_plain_words():
    bot = LearningBot()
    w = bot.weights
    assert list(w.index) == list(LEARNING_FEATURES) and len(w) == 8 and w.index.name == "feature"
    assert list(w.columns) == ["weight", "meaning"] and (w["weight"] == 0).all()
    assert all(m.endswith(".") and len(m) < 110 for m in w["meaning"])
    assert w["meaning"].tolist() == [LEARNING_MEANINGS[f] for f in LEARNING_FEATURES]


def test_features_are_mine_minus_theirs():
    game = played((GreedyBot(), GreedyBot()), 3, turn_limit=8)
    for p in (0, 1):
        mine, theirs = learning_features(game.view(p)), learning_features(game.view(1 - p))
        assert mine == pytest.approx([-x for x in theirs])
    f = learning_features(game.view(0))
    assert f[0] == pytest.approx((game.tokens[0] - game.tokens[1]) / 15)


def test_a_new_bot_knows_nothing_and_plays_at_random():
    game = played((GreedyBot(), GreedyBot()), 4, turn_limit=6)
    game = Game.new(DECKS[1], DECKS[2], seed=9)
    while len(game.legal_moves()) < 3 or game.legal_moves()[0] & 15 == mv.CHOOSE:
        game.push(GreedyBot().choose_move(game))
    weighed = LearningBot(seed=1).weigh(game)
    assert {p for _, p, _ in weighed["rows"] if abs(p) < WIN_POINTS} == {0.0}
    picks = {LearningBot(seed=s).choose_move(game) for s in range(30)}
    assert len(picks) >= 3  # every move is worth 0 points: a random one


def test_it_learns_to_beat_greedy_a_little_in_a_few_games():
    """Not the strength figure (that is the benchmark's): a sanity check that training against
    GreedyBot moves the weights the sensible way and wins games a new bot never wins."""
    bot = LearningBot(seed=2)
    curve = tokens_edu.train(bot, "greedy", games=60, seed=5, progress=False)
    assert list(curve.columns) == TRAIN_COLUMNS and curve["won"].iloc[:10].sum() <= 1
    w = bot.weights["weight"]
    assert w["more Task power"] > 0 and w["more Systems"] > 0 and w["more Tokens"] + w["more Task power"] > 0
    assert bot.games_trained == 60 and 0 <= bot.baseline <= 1


def test_batches_play_the_same_games_as_train():
    a, b = LearningBot(seed=4), LearningBot(seed=4)
    whole = tokens_edu.train(a, "random", games=12, seed=3, progress=False)
    parts = list(tokens_edu.train_batches(b, "random", batch_size=4, batches=3, seed=3))
    assert [p.attrs["batch"] for p in parts] == [1, 2, 3] and all(len(p) == 4 for p in parts)
    joined = pd.concat(parts, ignore_index=True)
    for col in ("game", "seat", "won", "turns"):
        assert joined[col].tolist() == whole[col].tolist()
    pd.testing.assert_frame_equal(a.weights, b.weights)
    assert parts[-1].attrs["games_trained"] == 12 and parts[-1].attrs["weights"].equals(b.weights)
    assert parts[0].attrs["win_rate"] == pytest.approx(parts[0]["won"].mean())


def test_a_page_can_redraw_between_batches():
    seen = []
    curve = tokens_edu.train(LearningBot(seed=1), "random", games=10, seed=0, progress=False, batch_size=4,
                             on_batch=lambda table: seen.append(len(table)))
    assert seen == [4, 8, 10] and len(curve) == 10
    gen = tokens_edu.train_batches(LearningBot(seed=1), "greedy", batch_size=2, seed=0)  # for ever, until stopped
    first, second = next(gen), next(gen)
    gen.close()
    assert first["game"].tolist() == [0, 1] and second["game"].tolist() == [2, 3]


def test_it_can_train_against_itself():
    bot = LearningBot(seed=6)
    curve = tokens_edu.train(bot, "self", games=6, seed=1, progress=False)
    assert set(curve["opponent"]) == {"itself"} and bot.games_trained == 6
    assert (bot.weights["weight"] != 0).any()


def test_training_bad_arguments():
    with pytest.raises(ValueError, match="LearningBot"):
        next(tokens_edu.train_batches(GreedyBot(), "random"))
    with pytest.raises(ValueError, match="batch_size"):
        next(tokens_edu.train_batches(LearningBot(), "random", batch_size=0))
    with pytest.raises(ValueError, match="batch_size"):
        tokens_edu.train(LearningBot(), "random", games=2, batch_size=0, progress=False)
    with pytest.raises(ValueError, match="lookahead"):
        LearningBot(lookahead=9)


def test_it_never_reads_the_hidden_cards():
    rng = random.Random(3)
    bot = LearningBot(weights={"more Tokens": 3, "more Task power": 4, "more Systems": 2, "more Data": 1}, seed=8)
    game = Game.new(DECKS[2], DECKS[6], seed=12, turn_limit=60)
    checked = 0
    while not game.over and checked < 12:
        if len(game.legal_moves()) > 1:
            p = game.to_act
            choice = LearningBot(weights=bot.weights, seed=8).choose_move(game)
            table = LearningBot(weights=bot.weights, seed=8).explain(game)
            for _ in range(2):
                other = shuffle_hidden(game, p, rng)
                assert LearningBot(weights=bot.weights, seed=8).choose_move(other) == choice
                pd.testing.assert_frame_equal(LearningBot(weights=bot.weights, seed=8).explain(other), table)
            checked += 1
        game.push(GreedyBot().choose_move(game))
    assert checked >= 8


def test_examples_are_the_players_own_choices():
    game = played((NoTasks(), RandomBot(1)), 5)
    before = game.state_key()
    examples = examples_from_game(game, player=0)
    assert game.state_key() == before and len(game.history) > 20  # the game is not changed
    assert examples and all(isinstance(e, Example) for e in examples)
    texts = [e.text for e in examples]
    for e in examples:
        assert e.game.to_act == 0 and len(e.game.legal_moves()) > 1 and e.move in e.game.legal_moves()
        assert str(e.game.action(e.move)) == e.text
    assert not any(t.startswith("task ") for t in texts)  # its habit
    everything = examples_from_game(game, 0) + examples_from_game(game, 1)
    assert len(everything) <= len(game.history)
    with pytest.raises(ValueError):
        examples_from_game(game, 2)


def test_it_learns_to_copy_a_students_moves():
    """Learning from examples: two games of a student who never Runs a Task. The bot picks the
    student's move more often after learning, also in games it did not learn from, and it
    learns the habit: Tokens are not what it is after."""
    student = NoTasks()
    seen = [e for s in (11, 12) for e in examples_from_game(played((student, GreedyBot()), s), 0)]
    unseen = [e for s in (21, 22, 23) for e in examples_from_game(played((student, GreedyBot()), s), 0)]
    bot = LearningBot(seed=0, lookahead=0)
    table = bot.learn_from_examples(seen)
    assert list(table.columns) == EXAMPLE_COLUMNS and len(table) == 200
    assert table["examples"].iloc[0] == len(seen) and bot.examples_learned == len(seen)
    assert table["agree"].iloc[-1] >= table.attrs["before"] + 0.3 and table["agree"].iloc[-1] >= 0.7
    fresh = LearningBot(seed=0, lookahead=0)
    after = bot.learn_from_examples(unseen, rounds=1).attrs["before"]  # agreement on unseen games
    before = fresh.learn_from_examples(unseen, rounds=1).attrs["before"]
    assert after >= before + 0.25
    # then it plays like the student: it prefers ending its turn to a Task
    tasks = 0
    for e in unseen:
        tasks += LearningBot(weights=bot.weights, seed=1, lookahead=0).choose_move(e.game) & 15 == mv.TASK
    assert tasks <= len(unseen) // 10


def test_learning_from_examples_bad_input():
    game = played((GreedyBot(), GreedyBot()), 7, turn_limit=6)
    with pytest.raises(ValueError, match="no examples"):
        LearningBot().learn_from_examples([])
    first = examples_from_game(game, 0)[0]
    with pytest.raises(ValueError, match="not a legal move"):
        LearningBot().learn_from_examples([(first.game, "audit Nothing -> Nobody")])
    with pytest.raises(ValueError, match="rounds"):
        LearningBot().learn_from_examples([first], rounds=0)
    table = LearningBot().learn_from_examples([(first.game, first.text)], rounds=3)  # text works too
    assert len(table) == 3


def test_lookahead_is_saved_and_loaded(tmp_path):
    bot = LearningBot(weights={"more Tokens": 2.5}, lookahead=0)
    path = bot.save(tmp_path / "copy.csv")
    assert pd.read_csv(path).columns.tolist() == ["feature", "weight", "meaning", "lookahead"]
    back = LearningBot.load(path)
    assert back.lookahead == 0 and back.weights.loc["more Tokens", "weight"] == 2.5
    bad = tmp_path / "bad.csv"
    bad.write_text(path.read_text().replace(",0\n", ",zero\n", 1))
    from tokens_edu.players.learning import LearningBotFileError

    with pytest.raises(LearningBotFileError, match="lookahead"):
        LearningBot.load(bad)
