"""tokens_edu.simulate, balance_matrix, first_player_advantage and `tokens-edu simulate` (issue 12).

Games are short here (a low turn limit or few games) to keep the suite fast; timings are
measured by benchmarks/simulate.py, never asserted here.
"""

from __future__ import annotations

import concurrent.futures as cf
import math

import pandas as pd
import pytest

from tokens_edu import DeckError, balance_matrix, first_player_advantage, simulate, starter_decks
from tokens_edu.players import GreedyBot, RandomBot
from tokens_edu.cli import main as cli_main
from tokens_edu.content.decks import resolve_deck
from tokens_edu.lab.simulation import COLUMNS, game_seed, play_game
from tokens_edu.lab.stats import wilson_interval
from tokens_edu.players.registry import BOTS, make_bot, register_bot

GB, BR = "Green-Blue", "Black-Red"


@pytest.fixture(scope="module")
def table():
    """24 Greedy games played in this process (shared by several tests)."""
    return simulate(GB, BR, 24, seed=5, processes=1, progress=False)


def test_one_row_per_game_with_the_promised_columns(table):
    assert list(table.columns) == COLUMNS
    assert list(table["game"]) == list(range(24))
    assert set(table["deck0"]) == {"Green-Blue starter"} and set(table["deck1"]) == {"Black-Red starter"}
    assert list(table["seed"]) == [game_seed(5, i) for i in range(24)]
    assert str(table["winner"].dtype) == "Int64"
    assert table.attrs["bots"] == ("greedy", "greedy") and table.attrs["seed"] == 5


def test_rows_agree_with_the_rules(table):
    """A win is 15 Tokens or more for the winner (R25); rounds are both players' turns."""
    for row in table.itertuples():
        assert row.first_player in (0, 1)
        assert row.rounds == (row.turns + 1) // 2
        assert row.actions > row.turns  # every turn ends with an action, plus setup decisions
        if row.reason == "win":
            tokens = (row.tokens0, row.tokens1)
            assert tokens[row.winner] >= 15 and tokens[1 - row.winner] < 15
        else:
            assert row.reason == "turn limit" and pd.isna(row.winner)


def test_a_row_replays_to_the_same_game(table):
    """play_game with the row's seed gives the very game simulate played."""
    for row in table.head(3).itertuples():
        game = play_game(GB, BR, row.seed)
        assert game.over
        assert game.winner == row.winner
        assert game.turn == row.turns and game.tokens == (row.tokens0, row.tokens1)
        assert len(game.history) == row.actions and game.first_player == row.first_player


def test_same_table_with_one_process_two_processes_and_an_executor():
    kwargs = dict(bots=("random", "greedy"), seed=11, turn_limit=30, progress=False)
    one = simulate(GB, BR, 16, processes=1, **kwargs)
    two = simulate(GB, BR, 16, processes=2, **kwargs)
    with cf.ThreadPoolExecutor(max_workers=3) as ex:
        threads = simulate(GB, BR, 16, executor=ex, **kwargs)
        assert not ex._shutdown  # the caller's executor is left open
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, threads)


def test_the_seed_changes_the_games_and_draws_come_from_the_turn_limit():
    a = simulate(GB, BR, 6, seed=1, turn_limit=4, processes=1, progress=False)
    b = simulate(GB, BR, 6, seed=2, turn_limit=4, processes=1, progress=False)
    assert set(a["seed"]).isdisjoint(b["seed"])
    assert (a["reason"] == "turn limit").all() and a["winner"].isna().all() and (a["turns"] == 4).all()


def test_decks_by_object_name_file_and_card_names(tmp_path):
    deck = starter_decks()[0]
    path = tmp_path / "mine.txt"
    path.write_text(deck.to_text(), encoding="utf-8")
    for spec in (deck, "green-blue", "Green-Blue starter", str(path), path, deck.names()):
        assert resolve_deck(spec).names() == deck.names()
    assert resolve_deck(path).name == "mine"
    df = simulate(str(path), "black-red", 2, turn_limit=3, processes=1, progress=False)
    assert list(df["deck0"]) == ["mine", "mine"]


def test_bad_decks_get_plain_deck_errors(tmp_path):
    with pytest.raises(DeckError, match="not a starter deck or a deck file.*Green-Blue"):
        simulate("Green-Purple", BR, 2, progress=False)
    small = tmp_path / "small.txt"
    small.write_text("2x Chatbot\n", encoding="utf-8")
    with pytest.raises(DeckError, match=r"2 cards \(at least 25\)"):
        simulate(small, BR, 2, progress=False)
    typo = tmp_path / "typo.txt"
    typo.write_text("2x Chatbott\n", encoding="utf-8")
    with pytest.raises(DeckError, match="Chatbot"):
        simulate(typo, BR, 2, progress=False)


@pytest.mark.parametrize("kwargs, words", [
    (dict(n=-1), "n must be a whole number"),
    (dict(n=2.5), "n must be a whole number"),
    (dict(n=2, processes=0), "processes"),
    (dict(n=2, turn_limit=0), "turn_limit"),
    (dict(n=2, seed="x"), "seed"),
    (dict(n=2, executor="pool"), "concurrent.futures.Executor"),
    (dict(n=2, bots=("greedy", "smart")), "no bot called 'smart'. The bots are: greedy, .*random"),
    (dict(n=2, bots=("greedy",)), "two bots"),
])
def test_bad_settings_are_refused_in_plain_words(kwargs, words):
    with pytest.raises(ValueError, match=words):
        simulate(GB, BR, progress=False, **kwargs)


def test_bots_by_name_class_and_instance():
    assert isinstance(make_bot("Greedy"), GreedyBot)
    bot = make_bot(RandomBot, seed=3)
    assert isinstance(bot, RandomBot) and bot.seed == 3
    mine = RandomBot(seed=9)
    copy = make_bot(mine)
    assert copy is not mine and copy.seed == 9
    by_class = simulate(GB, BR, 3, bots=(RandomBot, RandomBot), turn_limit=6, processes=1, progress=False)
    by_name = simulate(GB, BR, 3, bots="random", turn_limit=6, processes=1, progress=False)
    # the name "random" makes RandomBot(seed=...) exactly like the class does
    assert by_class[["winner", "turns", "actions"]].equals(by_name[["winner", "turns", "actions"]])


def test_an_instance_is_copied_fresh_for_every_game():
    """A stateful bot instance does not carry its state from one game to the next, so
    the table does not depend on which games a process played before."""
    bot = RandomBot(seed=4)
    t1 = simulate(GB, BR, 4, bots=(bot, "greedy"), turn_limit=8, processes=1, progress=False)
    t2 = simulate(GB, BR, 4, bots=(bot, "greedy"), turn_limit=8, processes=2, progress=False)
    pd.testing.assert_frame_equal(t1, t2)
    assert bot._rng.random() == RandomBot(seed=4)._rng.random()  # the caller's bot is untouched


def test_bots_play_on_the_fast_path_and_choose_only_bots_still_work():
    """A Bot's moves are played by choose_move and Game.push (no Action made or parsed); a bot
    that has only choose() (a student's own class) is asked for Actions; both play the same
    games as the Greedy bot does."""

    class FastOnly(GreedyBot):
        def choose(self, game):  # never called on the fast path
            raise AssertionError("choose() was called: the simulation is off the fast path")

    class ChooseOnly:  # not a Bot: only choose(game) -> Action
        def __init__(self):
            self.inner = GreedyBot()

        def choose(self, game):
            return self.inner.choose(game)

    greedy = simulate(GB, BR, 3, seed=2, turn_limit=10, processes=1, progress=False)
    fast = simulate(GB, BR, 3, bots=(FastOnly, FastOnly), seed=2, turn_limit=10, processes=1, progress=False)
    slow = simulate(GB, BR, 3, bots=(ChooseOnly, ChooseOnly), seed=2, turn_limit=10, processes=1, progress=False)
    cols = ["winner", "turns", "actions", "tokens0", "tokens1"]
    assert greedy[cols].equals(fast[cols]) and greedy[cols].equals(slow[cols])
    assert play_game(GB, BR, 7, bots=(FastOnly, ChooseOnly), turn_limit=6).turn >= 1


def test_register_bot_adds_a_name():
    class Lazy(GreedyBot):
        pass

    register_bot("Lazy", Lazy)
    try:
        assert isinstance(make_bot("lazy"), Lazy)
        with pytest.raises(ValueError, match="cannot be sent to other processes"):
            simulate(GB, BR, 4, bots=("lazy", "greedy"), processes=2, progress=False)
        df = simulate(GB, BR, 2, bots=("lazy", "greedy"), turn_limit=4, processes=1, progress=False)
        assert df.attrs["bots"] == ("lazy", "greedy")
    finally:
        del BOTS["lazy"]
    with pytest.raises(ValueError):
        register_bot("", GreedyBot)


def test_progress_bar_on_and_off(capsys):
    simulate(GB, BR, 2, turn_limit=3, processes=1, progress=False)
    assert capsys.readouterr().err == ""
    simulate(GB, BR, 2, turn_limit=3, processes=1, progress=True)
    assert "2/2" in capsys.readouterr().err


def test_zero_games_give_an_empty_table():
    df = simulate(GB, BR, 0, progress=False)
    assert list(df.columns) == COLUMNS and len(df) == 0


def test_wilson_interval_known_values():
    low, high = wilson_interval(54, 100)
    assert math.isclose(low, 0.4426, abs_tol=1e-3) and math.isclose(high, 0.6346, abs_tol=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(540, 1000)
    assert low > 0.5 and high < 0.58


def _fake(first_wins: int, second_wins: int, draws: int = 0) -> pd.DataFrame:
    rows = [(0, 0)] * first_wins + [(0, 1)] * second_wins + [(1, None)] * draws
    return pd.DataFrame({"first_player": [f for f, _ in rows],
                         "winner": pd.array([w for _, w in rows], dtype="Int64")})


def test_first_player_advantage_from_a_table():
    s = first_player_advantage(_fake(54, 46))
    assert s["games"] == 100 and s["first_wins"] == 54 and s["second_wins"] == 46
    assert math.isclose(s["win_rate"], 0.54)
    assert s["low"] < 0.5 < s["high"] and "cannot tell" in s["verdict"]
    s = first_player_advantage(_fake(600, 400))
    assert s["low"] > 0.5 and "first player has an advantage" in s["verdict"]
    s = first_player_advantage(_fake(30, 68, draws=2))
    assert s["draws"] == 2 and math.isclose(s["win_rate"], 0.31)
    assert s["high"] < 0.5 and "second player" in s["verdict"]
    with pytest.raises(ValueError, match="simulate"):
        first_player_advantage(pd.DataFrame({"x": [1]}))


def test_first_player_advantage_plays_games():
    s = first_player_advantage(deck0=GB, deck1=BR, n=6, turn_limit=40, processes=1, progress=False)
    assert s["games"] == 6 and s["first_wins"] + s["second_wins"] + s["draws"] == 6


def test_balance_matrix_swaps_seats_and_is_complementary():
    decks = ["Green-Blue", "Black-Red", "White-Red"]
    m, games = balance_matrix(decks, n=4, seed=3, turn_limit=40, processes=1, progress=False, games=True)
    names = ["Green-Blue starter", "Black-Red starter", "White-Red starter"]
    assert list(m.index) == names and list(m.columns) == names
    assert m.isna().values.diagonal().all()
    for a in names:
        for b in names:
            if a != b:
                assert 0 <= m.loc[a, b] <= 1 and math.isclose(m.loc[a, b] + m.loc[b, a], 1.0)
    assert len(games) == 3 * 4 and set(games["pair"]) == {0, 1, 2}
    for _, pair in games.groupby("pair"):  # each deck sits in seat 0 for half of its games
        assert pair["deck0"].value_counts().tolist() == [2, 2]
    # the matrix is what the games say (a draw is half a win)
    a, b = names[0], names[1]
    pair = games[games["pair"] == 0]
    wins_a = sum(1.0 if (w == 0 and d0 == a) or (w == 1 and d0 == b) else 0.5 if pd.isna(w) else 0.0
                 for d0, w in zip(pair["deck0"], pair["winner"]))
    assert math.isclose(m.loc[a, b], wins_a / 4)
    m2 = balance_matrix(decks, n=4, seed=3, turn_limit=40, processes=2, progress=False)
    pd.testing.assert_frame_equal(m, m2)


def test_balance_matrix_refuses_bad_input():
    with pytest.raises(ValueError, match="at least two decks"):
        balance_matrix(["Green-Blue"], n=2, progress=False)
    with pytest.raises(ValueError, match="same name"):
        balance_matrix(["Green-Blue", "green-blue"], n=2, progress=False)
    with pytest.raises(DeckError):
        balance_matrix(["Green-Blue", "Nope"], n=2, progress=False)


# -- the command --------------------------------------------------------------------------------------
def test_cli_simulate_prints_a_summary_and_saves_a_csv(tmp_path, capsys):
    out = tmp_path / "games.csv"
    code = cli_main(["simulate", "Green-Blue", "black-red", "-n", "6", "--processes", "1",
                     "--turn-limit", "40", "--csv", str(out), "--no-progress", "--seed", "2"])
    text = capsys.readouterr().out
    assert code == 0
    assert "player 1 wins (Green-Blue starter)" in text and "first player wins" in text
    saved = pd.read_csv(out)
    assert list(saved.columns) == COLUMNS and len(saved) == 6
    expected = simulate(GB, BR, 6, seed=2, turn_limit=40, processes=1, progress=False)
    assert list(saved["turns"]) == list(expected["turns"])


@pytest.mark.parametrize("argv, words", [
    (["simulate", "Green-Purple", "Black-Red", "-n", "2"], "not a starter deck or a deck file"),
    (["simulate", "Green-Blue", "Black-Red", "-n", "2", "--bots", "greedy", "clever"], "no bot called 'clever'"),
    (["simulate", "Green-Blue", "Black-Red", "-n", "-3"], "n must be a whole number"),
])
def test_cli_simulate_bad_input_exits_2_with_a_plain_message(argv, words, capsys):
    assert cli_main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_cli_simulate_unwritable_csv(tmp_path, capsys):
    code = cli_main(["simulate", GB, BR, "-n", "1", "--processes", "1", "--turn-limit", "2", "--no-progress",
                     "--csv", str(tmp_path / "no" / "such" / "dir" / "g.csv")])
    out = capsys.readouterr()
    assert code == 2 and "cannot write" in out.err and "there is no folder" in out.err
    assert out.out == ""  # said before any game is played (no summary printed)



def test_matchups_counts_each_opponent_with_seats_swapped():
    from tokens_edu import matchups

    t = matchups(GB, ["Black-Red", "White-Red"], n=4, seed=1, turn_limit=40, processes=1, progress=False)
    assert set(t.index) == {"Black-Red starter", "White-Red starter"}
    assert (t["wins"] + t["losses"] + t["draws"] == 4).all() and (t["games"] == 4).all()
    assert list(t["win_rate"]) == sorted(t["win_rate"])
    assert ((t["low"] <= t["win_rate"]) & (t["win_rate"] <= t["high"])).all()
    again = matchups(GB, ["Black-Red", "White-Red"], n=4, seed=1, turn_limit=40, processes=2, progress=False)
    pd.testing.assert_frame_equal(t, again)
    with pytest.raises(ValueError, match="at least one opponent"):
        matchups(GB, [], n=2, progress=False)


def test_a_bot_the_other_processes_cannot_find_gets_plain_advice(monkeypatch):
    """Like a bot class written in a notebook when processes start fresh ("spawn", the default
    on macOS and Windows): the workers cannot find it, and the message says what to do."""
    import functools
    import multiprocessing
    import sys

    ghost = type("GhostBot", (GreedyBot,), {"__module__": "__main__"})
    monkeypatch.setattr(sys.modules["__main__"], "GhostBot", ghost, raising=False)
    monkeypatch.setattr(cf, "ProcessPoolExecutor",  # (simulation imports it when other processes play)
                        functools.partial(cf.ProcessPoolExecutor, mp_context=multiprocessing.get_context("spawn")))
    with pytest.raises(ValueError, match="could not run in other processes.*processes=1"):
        simulate(GB, BR, 2, bots=(ghost, "greedy"), processes=2, turn_limit=3, progress=False)


def test_first_player_advantage_warns_when_the_two_bots_differ():
    """Greedy chooses to go first when it wins the roll, so greedy-vs-random games say more
    about the bots than about the seat: the verdict says so (newcomer review)."""
    mixed = simulate("Green-Blue", "Black-Red", 6, bots=("greedy", "random"), seed=1, processes=1, progress=False)
    assert "different computer players (greedy and random)" in first_player_advantage(mixed)["verdict"]
    same = simulate("Green-Blue", "Black-Red", 6, seed=1, processes=1, progress=False)
    assert "Careful" not in first_player_advantage(same)["verdict"]
