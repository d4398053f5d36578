"""Computer players that think out loud and one that learns (issue 11): SearchBot never reads
the true hidden cards and repeats itself for a seed; every bot's ``explain`` table; LearningBot
learns, saves and loads; the class tournament's standings.

Iteration budgets, never time budgets, keep these tests repeatable and quick."""

from __future__ import annotations

import random


import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import tokens_edu  # noqa: E402
from tokens_edu import Game, starter_decks  # noqa: E402
from tokens_edu.players import GreedyBot, RandomBot, SearchBot, LearningBot  # noqa: E402
from tokens_edu.engine import moves as mv  # noqa: E402
from tokens_edu.errors import IllegalAction  # noqa: E402
from tokens_edu.players.learning import LearningBotFileError, TRAIN_COLUMNS  # noqa: E402
from tokens_edu.players.thinking import COLUMNS, MAX_OPTIONS  # noqa: E402
from tokens_edu.lab.tournaments import STANDINGS_COLUMNS, head_to_head  # noqa: E402
from scenarios import shuffle_hidden  # noqa: E402

DECKS = starter_decks()


def positions(seed: int, limit: int = 200, every: int = 1):
    """Copies of main-phase positions (no decision in progress) of a seeded Greedy-vs-Random
    game with at least two legal moves."""
    r = random.Random(seed)
    game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=seed, turn_limit=40)
    bots = (GreedyBot(), RandomBot(seed))
    n = 0
    while not game.over and n < limit:
        moves = game.legal_moves()
        if moves[0] & 15 != mv.CHOOSE and len(moves) > 1 and n % every == 0:
            yield game.copy()
        game.push(bots[game.to_act].choose_move(game))
        n += 1



# -- SearchBot --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_choice_does_not_depend_on_the_true_hidden_cards(seed):
    """Issue 11: changing the opponent's hand and both decks' order (same counts) changes
    neither the choice nor the explanation of a SearchBot with a seed and an iteration budget."""
    rng = random.Random(seed)
    checked = changed = 0
    for game in positions(seed, limit=120, every=4):
        p = game.to_act
        bot = SearchBot(iterations=40, seed=11)
        table = bot.explain(game)
        choice = bot.choose_move(game)
        for _ in range(2):
            other = shuffle_hidden(game, p, rng)
            q = 1 - p
            changed += other._s.hand[q] != game._s.hand[q] or other._s.deck[p] != game._s.deck[p]
            fresh = SearchBot(iterations=40, seed=11)
            assert str(other.action(fresh.choose_move(other))) == str(game.action(choice))
            pd.testing.assert_frame_equal(fresh.explain(other), table)
            checked += 1
    assert checked >= 8 and changed >= checked - 1  # the hidden cards really moved


def test_search_is_repeatable_for_a_seed_and_an_iteration_budget():
    games = list(positions(4, limit=120, every=5))
    assert len(games) >= 5
    first = [SearchBot(iterations=50, seed=3).choose_move(g) for g in games]
    again = [SearchBot(iterations=50, seed=3).choose_move(g) for g in games]
    assert first == again
    bot = SearchBot(iterations=50, seed=3)
    t = bot.think(games[0])
    assert t.iterations <= 50 and sum(t.games) == t.iterations
    assert t.chosen in games[0].legal_moves()


def test_search_plays_a_whole_game_and_beats_random_play():
    """A small sanity match (the real strength figure is benchmarks/bots.py's)."""
    wins = 0
    for seed in range(4):
        game = Game.new(DECKS[seed], DECKS[seed + 4], seed=seed, turn_limit=60)
        bots = [SearchBot(iterations=24, seed=seed), RandomBot(seed)]
        if seed % 2:
            bots.reverse()
        while not game.over:
            game.push(bots[game.to_act].choose_move(game))
        wins += game.winner == (seed % 2)
    assert wins >= 3


def test_search_bad_arguments_say_what_is_wrong():
    for kwargs in ({"budget_ms": 0}, {"iterations": 0}, {"iterations": 2.5}, {"seed": "x"}, {"horizon": 0},
                   {"budget_ms": True}):
        with pytest.raises(ValueError, match="whole number"):
            SearchBot(**kwargs)
    game = next(positions(1))
    while not game.over:
        game.push(GreedyBot().choose_move(game))
    with pytest.raises(IllegalAction):
        SearchBot(iterations=5, seed=1).choose_move(game)
    with pytest.raises(IllegalAction):
        GreedyBot().explain(game)


def test_search_registered_for_simulations():
    from tokens_edu.players.registry import BOTS, make_bot

    assert {"search", "learning"} <= set(BOTS)
    assert isinstance(make_bot("search", seed=4), SearchBot) and make_bot("search", seed=4).seed == 4
    assert isinstance(make_bot("learning", seed=4), LearningBot)


# -- explain --------------------------------------------------------------------------------------------
def _bots():
    trained = LearningBot(weights={"more Tokens": 3.0, "more Task power": 2.0, "more Systems": 1.0}, seed=1)
    return [SearchBot(iterations=30, seed=2), GreedyBot(), RandomBot(5), trained]


@pytest.mark.parametrize("seed", [5, 6])
def test_explain_tables_have_the_columns_at_most_five_rows_and_the_pick_first(seed):
    extra = {"Search": ["share", "games", "win_chance", "all_games"], "Greedy": ["rule"], "Random": [],
             "Learning": ["value", "why"]}
    for game in positions(seed, limit=100, every=6):
        for bot in _bots():
            table = bot.explain(game)
            assert list(table.columns) == COLUMNS + extra[bot.name]
            assert 1 <= len(table) <= MAX_OPTIONS
            assert table["chosen"].tolist() == [True] + [False] * (len(table) - 1)
            # the row it marks as its pick is the move it then plays
            assert table["option"].iloc[0] == str(game.action(bot.choose_move(game)))
            assert all(isinstance(r, str) and r and "\n" not in r for r in table["reason"])
            assert table.attrs["bot"] == bot.name and table.attrs["measure"] in table.columns
            assert table.attrs["options"] == len(game.legal_moves())
            if bot.name == "Search":
                assert table["share"].between(0, 1).all() and table["win_chance"].between(0, 1).all()
                assert table["games"].iloc[0] > 0 and table.attrs["iterations"] <= 30


def test_greedy_explain_scores_are_its_scores():
    for game in positions(7, limit=80, every=3):
        bot = GreedyBot()
        table = bot.explain(game)
        view = game.view(game.to_act)
        by_text = {str(game.action(m)): m for m in game.legal_moves()}
        for option, score in zip(table["option"], table["score"]):
            m = by_text[option]
            if m & 15 not in (mv.CHOOSE, mv.END):
                assert score == bot.score(view, m)
        others = table["score"].iloc[1:]
        assert (others <= table["score"].iloc[0] + 1e-9).all() or table["option"].iloc[0] == "end turn"


def test_audit_reason_reads_like_a_student():
    from tokens_edu.players.thinking import describe

    found = 0
    for seed in range(10):
        for game in positions(seed, limit=200):
            for m in game.legal_moves():
                if m & 15 == mv.AUDIT:
                    line = describe(game, m)
                    assert line.startswith("Audit ") and ("Deprecated" in line or "stays" in line)
                    assert "survives" in line or "Deprecated too" in line
                    found += 1
            if found > 5:
                return
    assert found, "no Audit found in ten games"


def _hidden_names(game: Game, thinker: int) -> set[str]:
    """Names of cards the other player may not see: the thinker's hand, deck and Training Set,
    less any name that player can see somewhere (board, discards, their own cards)."""
    s = game._s
    reader = 1 - thinker
    hidden = {s.card[x].name for x in s.hand[thinker] + s.deck[thinker] + s.ts[thinker]}
    seen = set()
    for o in (0, 1):
        seen |= {s.card[x].name for x in s.systems[o] + s.tools[o] + s.discard[o]}
    seen |= {s.card[x].name for x in s.hand[reader] + s.deck[reader] + s.ts[reader]}
    return hidden - seen


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_explain_for_the_other_player_never_names_a_hidden_card(seed):
    checked = 0
    for game in positions(seed, limit=160, every=3):
        thinker = game.to_act
        names = _hidden_names(game, thinker)
        hand_moves = [m for m in game.legal_moves() if m & 15 in (mv.TRAIN, mv.DEPLOY)]
        for bot in _bots():
            mine = bot.explain(game)
            theirs = bot.explain(game, for_player=1 - thinker)
            if bot.name == "Search":  # its hidden options with the same words share one row
                assert 1 <= len(theirs) <= len(mine) and theirs["chosen"].tolist() == [True] + [False] * (len(theirs) - 1)
                masked = theirs["option"].iloc[1:]
                assert not masked[masked.isin(["train a card (face-down)", "deploy a card from its hand",
                                               "a secret choice"])].duplicated().any()
            else:
                assert len(theirs) == len(mine) and theirs["chosen"].tolist() == mine["chosen"].tolist()
            text = " ".join(str(v) for v in theirs.to_numpy().ravel())
            hidden_rows = theirs["option"].isin(["train a card (face-down)", "deploy a card from its hand",
                                                 "a secret choice"])
            if bot.name == "Greedy":  # a score worked out from the card would tell the card (R8)
                assert (theirs.loc[hidden_rows, "score"] % 100 == 0).all()
            if bot.name == "Learning":
                vals = theirs.loc[hidden_rows, "value"]
                assert (vals.round(1) == vals).all()
            for name in names:
                assert name not in text, (bot.name, name, text)
            if hand_moves and names:
                checked += 1
        # the thinker's own table may name its own hand cards
    assert checked > 0


def test_explain_rejects_a_bad_reader():
    game = next(positions(2))
    with pytest.raises(ValueError, match="for_player"):
        GreedyBot().explain(game, for_player=2)


def test_explain_table_plots():
    import matplotlib

    matplotlib.use("Agg")
    from tokens_edu import plots

    game = next(positions(3, every=4))
    table = SearchBot(iterations=30, seed=1).explain(game)
    ax = plots.thinking(table)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].startswith(table["option"].iloc[0][:10])  # the pick on top
    assert len(ax.patches) == len(table)
    assert "win" in ax.get_xlabel().lower()


# -- LearningBot ----------------------------------------------------------------------------------------
def _match(bot, opponent_factory, games: int, seed: int) -> float:
    """Points per game of ``bot`` (explore 0) against fresh opponents, seats swapped."""
    points = 0.0
    for g in range(games):
        r = random.Random(seed * 1000 + g)
        game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=seed * 1000 + g, turn_limit=60)
        players = [bot, opponent_factory(g)]
        if g % 2:
            players.reverse()
        while not game.over:
            game.push(players[game.to_act].choose_move(game))
        me = g % 2
        points += 0.5 if game.winner is None else float(game.winner == me)
    return points / games


def test_learning_bot_learns_to_beat_random_play():
    bot = LearningBot(seed=0)
    before = _match(bot, lambda g: RandomBot(g), 30, seed=3)
    curve = tokens_edu.train(bot, "random", games=60, seed=0, progress=False)
    after = _match(bot, lambda g: RandomBot(g), 30, seed=3)
    assert list(curve.columns) == TRAIN_COLUMNS and len(curve) == 60
    assert curve["game"].tolist() == list(range(60)) and set(curve["seat"]) == {0, 1}
    assert bot.games_trained == 60
    assert after >= before + 0.2, (before, after)
    # it learned that Systems which earn Tokens are good
    assert bot.weights.loc["more Task power", "weight"] > 0


def test_training_is_repeatable_for_a_seed():
    a, b = LearningBot(seed=1), LearningBot(seed=1)
    ta = tokens_edu.train(a, "greedy", games=6, seed=2, progress=False)
    tb = tokens_edu.train(b, "greedy", games=6, seed=2, progress=False)
    pd.testing.assert_frame_equal(ta, tb)
    pd.testing.assert_frame_equal(a.weights, b.weights)


def test_train_bad_arguments():
    with pytest.raises(ValueError, match="LearningBot"):
        tokens_edu.train(GreedyBot(), "random", games=2, progress=False)
    with pytest.raises(ValueError, match="no bot called"):
        tokens_edu.train(LearningBot(), "nobody", games=2, progress=False)
    with pytest.raises(ValueError):
        tokens_edu.train(LearningBot(), "random", games=0, progress=False)


def test_weights_table_is_readable_and_changeable():
    bot = LearningBot()
    assert bot.weights.index.name == "feature" and list(bot.weights.columns) == ["weight", "meaning"]
    assert (bot.weights["weight"] == 0).all()
    bot.weights.loc["more Tokens", "weight"] = 5.0
    game = next(positions(1, every=3))
    assert bot.weigh(game)["rows"]  # the new weight is used
    with pytest.raises(ValueError, match="not a feature"):
        LearningBot(weights={"luck": 1.0})
    with pytest.raises(ValueError, match="number"):
        LearningBot(weights={"more Tokens": "lots"})


def test_save_and_load_round_trip(tmp_path):
    bot = LearningBot(seed=2)
    tokens_edu.train(bot, "random", games=4, seed=0, progress=False)
    path = bot.save(tmp_path / "my-bot.csv")
    back = LearningBot.load(path, seed=2)
    pd.testing.assert_frame_equal(back.weights, bot.weights)
    same = LearningBot(weights=bot.weights, seed=2)  # its random numbers go the same way as back's
    for game in positions(6, limit=60, every=7):
        assert back.choose_move(game) == same.choose_move(game)
    assert pd.read_csv(path).columns.tolist() == ["feature", "weight", "meaning", "lookahead"]


def test_load_bad_files_say_what_is_wrong(tmp_path):
    good = tmp_path / "good.csv"
    LearningBot().save(good)
    rows = good.read_text().splitlines()
    cases = {
        "missing.csv": (None, "no file"),
        "binary.csv": (b"\x00\x01\xff\xfe" * 50, "not a table|needs the columns"),
        "empty.csv": ("", "not a table"),
        "columns.csv": ("name,value\nmy Tokens,1\n", "needs the columns 'feature' and 'weight'"),
        "unknown.csv": ("\n".join(rows + ["luck,1.0,"]), "'luck' is not a feature"),
        "twice.csv": ("\n".join(rows + [rows[1]]), "twice"),
        "short.csv": ("\n".join(rows[:3]), "no row for"),
        "word.csv": ("\n".join([rows[0], rows[1].replace("0.0", "lots", 1)] + rows[2:]), "must be a number"),
        "older.csv": ("feature,weight,meaning\nmy Tokens,1.0,\ntheir Tokens,-1.0,\n", "older LearningBot"),
    }
    for name, (content, words) in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            path.write_text(content)
        with pytest.raises(LearningBotFileError, match=words):
            LearningBot.load(path)
    with pytest.raises(LearningBotFileError, match="no file"):
        LearningBot.load(tmp_path)  # a folder, not a file


# -- tournament -------------------------------------------------------------------------------------------
def test_tournament_standings_shape_and_seed():
    # bots by name and as objects; the SearchBot has no seed: the tournament's seed decides
    bots = {"Greedy": "greedy", "Learner": LearningBot(weights={"more Tokens": 2.0, "more Task power": 1.0}),
            "Search": SearchBot(iterations=8)}
    a = tokens_edu.tournament(bots, games=2, seed=3, processes=1, progress=False, turn_limit=40)
    b = tokens_edu.tournament(bots, games=2, seed=3, processes=1, progress=False, turn_limit=40)
    assert list(a.columns) == STANDINGS_COLUMNS and a.index.name == "bot"
    assert sorted(a.index) == sorted(bots)
    assert (a["games"] == 2 * 2).all()
    assert (a["wins"] + a["draws"] + a["losses"] == a["games"]).all()
    assert a["points"].sum() == 3 * 2  # every game hands out one point
    assert a["rank"].iloc[0] == 1 and a["points"].is_monotonic_decreasing
    pd.testing.assert_frame_equal(a, b)
    assert (a["low"] <= a["win_rate"]).all() and (a["win_rate"] <= a["high"]).all()


def test_tournament_games_table_and_head_to_head():
    standings, games = tokens_edu.tournament({"G": "greedy", "R": "random"}, games=6, seed=1, processes=1,
                                             progress=False, return_games=True)
    assert len(games) == 6 and set(games["bot0"]) == {"G", "R"}
    h = head_to_head(games)
    assert h.loc["G", "R"] + h.loc["R", "G"] == pytest.approx(1.0)
    assert h.loc["G", "R"] == pytest.approx(standings.loc["G", "win_rate"])


def test_tournament_bad_input():
    with pytest.raises(ValueError, match="at least two"):
        tokens_edu.tournament({"G": "greedy"}, games=2, progress=False)
    with pytest.raises(ValueError, match="no bot called"):
        tokens_edu.tournament({"G": "greedy", "X": "nobody"}, games=2, progress=False)
    with pytest.raises(ValueError, match="name"):
        tokens_edu.tournament({"G": "greedy", "": "random"}, games=2, progress=False)


def test_learning_curve_plots_from_the_train_table():
    import matplotlib

    matplotlib.use("Agg")
    from tokens_edu import plots

    curve = tokens_edu.train(LearningBot(seed=3), "random", games=12, seed=1, progress=False)
    ax = plots.win_rate(curve, window=4)
    assert ax.get_title() == "Is it learning?" and "learning bot" in ax.get_ylabel()
    y = ax.get_lines()[0].get_ydata()
    assert len(y) == 12 and y[-1] == pytest.approx(curve["won"].iloc[-4:].mean())


def test_a_students_own_bot_explains_its_pick():
    from tokens_edu.players import Bot

    class Cautious(Bot):
        name = "Cautious"

        def choose(self, game):
            return game.legal_actions()[-1]  # always the last option (often: end the turn)

    game = next(positions(2, every=3))
    table = Cautious().explain(game)
    assert table["option"].iloc[0] == str(game.legal_actions()[-1]) and table["chosen"].iloc[0]
    assert table["score"].iloc[0] == 1.0 and (table["score"].iloc[1:] == 0).all()
    assert table.attrs["bot"] == "Cautious" and len(table) <= MAX_OPTIONS
