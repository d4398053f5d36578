"""tokens_edu.lab.plots: each plot draws the data it is given, with words for students (issue 12)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import tokens_edu  # noqa: E402
from tokens_edu import plots  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _games(first_wins: int, second_wins: int, draws: int = 0) -> pd.DataFrame:
    winners = [0] * first_wins + [1] * second_wins + [None] * draws
    n = len(winners)
    return pd.DataFrame({"first_player": [0] * n, "winner": pd.array(winners, dtype="Int64"),
                         "turns": list(range(10, 10 + n)), "rounds": [5] * n, "actions": [50] * n})


def test_plots_is_reachable_as_an_attribute():
    assert tokens_edu.lab.plots is plots


def test_win_rate_of_a_table_ends_at_the_first_players_rate():
    ax = plots.win_rate(_games(30, 10))
    line = ax.get_lines()[0]
    assert line.get_ydata()[-1] == pytest.approx(0.75)
    assert list(line.get_xdata()[:2]) == [1, 2]
    assert ax.get_title() == "Does going first help?"
    assert ax.get_xlabel() == "Games played" and "first player" in ax.get_ylabel()
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    assert band.min() < 0.75 < band.max()  # the band is around the rate


def test_win_rate_window_is_a_learning_curve():
    results = [0] * 50 + [1] * 50
    ax = plots.win_rate(results, window=10, title="Is the agent learning?")
    y = ax.get_lines()[0].get_ydata()
    assert y[49] == 0 and y[-1] == 1 and y[54] == pytest.approx(0.5)
    assert "last 10" in ax.get_xlabel() and ax.get_title() == "Is the agent learning?"


@pytest.mark.parametrize("data, words", [([], "no games"), ([0, 2], "win \\(1\\), a loss"),
                                         ("abc", "list of wins"), (pd.DataFrame({"x": [1]}), "simulate")])
def test_win_rate_refuses_bad_data(data, words):
    with pytest.raises(ValueError, match=words):
        plots.win_rate(data)


def test_game_length_histogram_counts_every_game():
    ax = plots.game_length(_games(5, 5))
    heights = [p.get_height() for p in ax.patches]
    assert sum(heights) == 10
    assert ax.get_xlabel() == "Turns in the game" and ax.get_ylabel() == "Number of games"
    ax = plots.game_length({"Greedy": _games(3, 3), "Random": _games(2, 2)})
    assert sum(p.get_height() for p in ax.patches) == 10
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Greedy", "Random"]
    with pytest.raises(ValueError, match="column"):
        plots.game_length(_games(1, 1), column="colour")


def test_balance_heatmap_shows_each_rate_and_short_names():
    names = ["Green-Blue starter", "Black-Red starter"]
    m = pd.DataFrame([[np.nan, 0.7], [0.3, np.nan]], index=names, columns=names)
    m.attrs["n"] = 10
    ax = plots.balance_heatmap(m)
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["30%", "70%"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Green-Blue", "Black-Red"]
    assert "10 games" in ax.get_title() and ax.get_xlabel() == "Opponent's deck"
    with pytest.raises(ValueError, match="balance_matrix"):
        plots.balance_heatmap(pd.DataFrame([[1, 2, 3]]))
    with pytest.raises(ValueError, match="0 to 1"):
        plots.balance_heatmap(pd.DataFrame([[np.nan, 3], [0.2, np.nan]]))


def test_matchups_bars_one_per_opponent():
    t = pd.DataFrame({"win_rate": [0.3, 0.8], "low": [0.2, 0.7], "high": [0.4, 0.9]},
                     index=pd.Index(["Black-Red starter", "White-Red starter"], name="opponent"))
    t.attrs["deck"] = "mine"
    ax = plots.matchups(t)
    assert [round(p.get_width(), 2) for p in ax.patches] == [0.3, 0.8]
    assert [x.get_text() for x in ax.get_yticklabels()] == ["Black-Red", "White-Red"]
    assert ax.get_title() == "How does mine do?"
    with pytest.raises(ValueError, match="matchups"):
        plots.matchups(pd.DataFrame())
