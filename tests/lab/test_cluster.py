"""Experiments that leave the laptop (issue 22): simulate, balance_matrix and tournament on a
Dask cluster, through its ``concurrent.futures`` executor (``client.get_executor()``).

The cluster here is a local one of 2 worker processes (Dask's ``LocalCluster``): the same code
path as a school's cluster (the games, the decks and the bots are pickled and sent to other
processes), on one computer. For a seed, the tables must be the same as on one process: each
game's seed comes from its number, never from where it ran. Speed is measured by
benchmarks/simulate.py, never asserted here.
"""

from __future__ import annotations

import pandas as pd
import pytest
from distributed import Client, LocalCluster

import tokens_edu.engine
from tokens_edu import balance_matrix, simulate, tournament
from tokens_edu.players import GreedyBot, RandomBot

GB, BR = "Green-Blue", "Black-Red"


@pytest.fixture(scope="module")
def client():
    """A Dask client on a local cluster of 2 worker processes, one thread each (no dashboard)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def _engine_in_worker() -> bool:
    import tokens_edu.engine

    return tokens_edu.engine.COMPILED


def test_the_workers_are_other_processes_running_the_same_engine(client):
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 2
    answers = client.run(_engine_in_worker)  # address -> what each worker process says
    assert len(answers) == 2 and set(answers.values()) == {tokens_edu.engine.COMPILED}


def test_simulate_on_the_cluster_gives_the_table_of_one_process(client):
    executor = client.get_executor()
    on_cluster = simulate(GB, BR, 120, bots=("greedy", RandomBot), seed=7, executor=executor, progress=False)
    here = simulate(GB, BR, 120, bots=("greedy", RandomBot), seed=7, processes=1, progress=False)
    pd.testing.assert_frame_equal(on_cluster, here)
    assert on_cluster["winner"].notna().sum() > 100 and list(on_cluster["game"]) == list(range(120))


def test_balance_matrix_and_tournament_on_the_cluster(client):
    executor = client.get_executor()
    decks = [GB, BR, "White-Red"]
    m1 = balance_matrix(decks, n=8, seed=3, executor=executor, progress=False, games=True)
    m2 = balance_matrix(decks, n=8, seed=3, processes=1, progress=False, games=True)
    for a, b in zip(m1, m2):
        pd.testing.assert_frame_equal(a, b)
    bots = {"Greedy": GreedyBot(), "Random": RandomBot(seed=1), "Greedy too": "greedy"}
    t1 = tournament(bots, games=4, seed=2, executor=executor, progress=False, turn_limit=60)
    t2 = tournament(bots, games=4, seed=2, processes=1, progress=False, turn_limit=60)
    pd.testing.assert_frame_equal(t1, t2)
    assert t1["games"].sum() == 3 * 4 * 2  # every pair played 4 games, each game counted for both
