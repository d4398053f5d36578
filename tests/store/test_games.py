"""The class roster (codes) and saved games, in the answers' database."""

from __future__ import annotations

import multiprocessing
import re

import pytest

from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.store.roster import (CODE_ALPHABET, CODE_LENGTH, Roster, code_from_query,
                               normalize_code, personal_link, slips_html)
from tokens_edu.store.games import GameKeeper, GameMoved, GameStore


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path}/journal.sqlite"


# -- roster --------------------------------------------------------------------------------------
def test_add_gives_each_student_a_distinct_short_code(url):
    r = Roster(url)
    assert not r.in_use()
    added = r.add(["Ana", "Bo", "  Cy   Li "])
    assert [e.name for e in added] == ["Ana", "Bo", "Cy Li"]
    codes = [e.code for e in added]
    assert len(set(codes)) == 3
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert r.in_use()
    assert [e.name for e in Roster(url).entries()] == ["Ana", "Bo", "Cy Li"]  # stored


def test_codes_are_read_in_any_case_with_spaces_or_dashes(url):
    r = Roster(url)
    (ana,) = r.add(["Ana"])
    messy = ana.code[:3].lower() + "-" + " " + ana.code[3:].lower()
    assert normalize_code(messy) == ana.code
    assert r.name_for(messy) == "Ana"
    assert r.name_for("ZZZZZZ" if ana.code != "ZZZZZZ" else "YYYYYY") is None
    assert r.name_for("") is None and r.name_for(None) is None and r.name_for("A" * 40) is None
    assert code_from_query(f"?student=x&code={messy.replace(' ', '+')}") == ana.code
    assert code_from_query("student=x") == ""


def test_bad_names_add_nobody_and_say_why(url):
    r = Roster(url)
    r.add(["Ana"])
    with pytest.raises(ValueError) as e:
        r.add(["Bo", "ana", "", "x" * 61, "Cy", "Cy"])
    text = str(e.value)
    assert "Ana is already on the class list" in text and "An empty name" in text
    assert "too long" in text and "Cy is given twice" in text and "Nobody was added" in text
    assert [x.name for x in r.entries()] == ["Ana"]


def test_remove_and_new_code(url):
    r = Roster(url)
    ana, bo = r.add(["Ana", "Bo"])
    fresh = r.new_code("ana")
    assert fresh.code != ana.code and r.name_for(ana.code) is None and r.name_for(fresh.code) == "Ana"
    assert r.remove(bo.code).name == "Bo"
    assert [e.name for e in r.entries()] == ["Ana"]
    with pytest.raises(ValueError, match="Nobody called"):
        r.remove("Zed")
    assert r.clear() == 1 and not r.in_use()


def test_slips_are_escaped_and_carry_the_personal_link(url):
    r = Roster(url)
    r.add(["<b>Ana</b>", "Bo"])
    page = slips_html(r.entries(), "http://192.168.1.20:8866/", "7B")
    assert "&lt;b&gt;Ana&lt;/b&gt;" in page and "<b>Ana</b>" not in page
    for e in r.entries():
        assert e.code in page
        link = personal_link("http://192.168.1.20:8866/", e.code)
        assert link == f"http://192.168.1.20:8866/voila/render/00-start-here.ipynb?code={e.code}"
        assert link in page
    assert page.count('class="slip"') == 2


def _add_many(args):
    url, names = args
    try:
        Roster(url).add(names)
        return "ok"
    except ValueError as e:
        return str(e)


def test_two_windows_adding_at_once_never_give_a_name_twice(url):
    Roster(url)  # the table exists
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_add_many, [(url, ["Ana", "Bo"]), (url, ["Bo", "Cy"])])
    names = [e.name for e in Roster(url).entries()]
    assert len(names) == len(set(names))
    assert "ok" in results


# -- saved games ---------------------------------------------------------------------------------
def new_game(seed=3):
    d = starter_decks()
    return Game.new(d[0], d[7], seed=seed, names=("Ana", "Computer"))


def test_start_save_and_resume_the_same_position(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05-play-the-computer", ("human", "greedy"), "turn", page="tab-1")
    bot = GreedyBot()
    for _ in range(25):
        game.apply(bot.choose(game))
        store.save(gid, game, "tab-1")
    saved = store.unfinished("Ana", "05-play-the-computer")
    assert saved.id == gid and saved.moves == 25 and saved.status == "playing"
    assert saved.seats == ("human", "greedy") and saved.undo == "turn" and saved.seat == 0
    assert Game.from_record(saved.record).state_key() == game.state_key()
    assert saved.tokens == game.tokens and saved.turn == game.turn
    assert "Ana" in saved.summary() and "25 moves" in saved.summary()
    assert store.unfinished("Bo", "05-play-the-computer") is None
    assert store.unfinished("Ana", "06-hot-seat") is None


def test_a_second_tab_takes_the_game_over(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05", page="tab-1")
    game.apply(game.legal_actions()[0])
    store.save(gid, game, "tab-1")
    claimed = store.claim(gid, "tab-2")
    resumed = Game.from_record(claimed.record)
    resumed.apply(resumed.legal_actions()[0])
    store.save(gid, resumed, "tab-2")
    with pytest.raises(GameMoved, match="another tab"):
        store.save(gid, game, "tab-1")  # the old tab can't overwrite the newer moves
    assert store.get(gid).moves == 2
    keeper = GameKeeper(store, gid, "tab-1", background=False)
    assert keeper.save(game) is False and keeper.moved and "another tab" in keeper.problem


def test_finished_and_stopped_games_are_not_offered_again(url):
    store = GameStore(url)
    game = new_game(5)
    gid = store.start(game, "Ana", "05", page="p")
    bot = GreedyBot()
    while not game.over:
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    assert store.get(gid).status == "over" and store.get(gid).winner == game.winner
    assert store.unfinished("Ana", "05") is None
    other = store.start(new_game(), "Ana", "05", page="q")
    store.stop(other)
    assert store.unfinished("Ana", "05") is None and store.get(other).status == "stopped"
    table = store.games(student="Ana")
    assert set(table["status"]) == {"over", "stopped"} and "record" not in table.columns


def test_keeper_hooks_into_a_match_like_object(url):
    store = GameStore(url)
    game = new_game()
    gid = store.start(game, "Ana", "05", page="p")

    class FakeMatch:  # the on_move / on_undo hooks of tokens_edu.players.match.Match
        def __init__(self, g):
            self.game, self.on_move, self.on_undo = g, [], []

    m = FakeMatch(game)
    keeper = GameKeeper(store, gid, "p").attach(m)
    game.apply(game.legal_actions()[0])
    for hook in m.on_move:
        hook(m, 0, None)
    assert keeper.flush()
    assert store.get(gid).moves == 1
    game.undo()
    for hook in m.on_undo:
        hook(m, [])
    assert keeper.flush()
    assert store.get(gid).moves == 0


def test_a_game_needs_a_student_name(url):
    with pytest.raises(ValueError, match="student's name"):
        GameStore(url).start(new_game(), "  ", "05")


def test_database_trouble_is_a_plain_message(url, monkeypatch):
    store = GameStore(url)
    gid = store.start(new_game(), "Ana", "05", page="p")
    import sqlalchemy as sa

    def broken(*a, **k):
        raise sa.exc.OperationalError("x", {}, Exception("disk full"))

    monkeypatch.setattr(store._engine, "begin", broken)
    with pytest.raises(ValueError) as e:
        store.save(gid, new_game(), "p")
    assert "couldn't be saved" in str(e.value) and not re.search(r"Traceback|sqlite3", str(e.value))


# -- the roster command -------------------------------------------------------------------------
def test_roster_command_add_list_slips_new_code_remove_clear(tmp_path, capsys):
    from tokens_edu import cli

    data = ["--data-dir", str(tmp_path)]
    assert cli.main(["roster", "add", "Ana", "Bo Li", *data]) == 0
    out = capsys.readouterr().out
    codes = dict(line.split("  ", 1)[::-1] for line in out.splitlines()[:2])
    assert set(codes) == {"Ana", "Bo Li"} and "Added 2 students" in out
    names = tmp_path / "names.txt"
    names.write_text("Cy\n\n  Dee  \n", encoding="utf-8")
    assert cli.main(["roster", *data, "add", "--file", str(names)]) == 0  # --data-dir before too
    capsys.readouterr()
    assert cli.main(["roster", "list", *data]) == 0
    out = capsys.readouterr().out
    assert "4 students on the class list" in out and f"{codes['Ana']}  Ana" in out
    slips = tmp_path / "slips.html"
    assert cli.main(["roster", "slips", "--url", "http://10.0.0.5:8866", "--out", str(slips), *data]) == 0
    page = slips.read_text(encoding="utf-8")
    assert f"http://10.0.0.5:8866/voila/render/00-start-here.ipynb?code={codes['Bo Li']}" in page
    assert cli.main(["roster", "slips", "--url", "ftp:/x", "--out", str(slips), *data]) == 2
    assert "not a web address" in capsys.readouterr().err
    assert cli.main(["roster", "add", "ana", *data]) == 2
    assert "already on the class list" in capsys.readouterr().err
    assert cli.main(["roster", "new-code", "Ana", *data]) == 0
    assert codes["Ana"] not in capsys.readouterr().out
    assert Roster(f"sqlite:///{tmp_path}/journal.sqlite").name_for(codes["Ana"]) is None
    assert cli.main(["roster", "remove", codes["Bo Li"], *data]) == 0
    assert "Removed Bo Li" in capsys.readouterr().out
    assert cli.main(["roster", "clear", *data]) == 2
    assert "--yes" in capsys.readouterr().err
    assert cli.main(["roster", "clear", "--yes", *data]) == 0
    assert "Removed 3 students" in capsys.readouterr().out
    assert cli.main(["roster", "slips", *data]) == 2
    assert "class list is empty" in capsys.readouterr().err
    assert cli.main(["roster", *data]) == 2  # no action: the help


def test_keeper_writes_in_the_background_in_order_and_stops_when_moved(url):
    store = GameStore(url)
    game = new_game(9)
    gid = store.start(game, "Ana", "05", page="p")
    keeper = GameKeeper(store, gid, "p")
    bot = GreedyBot()
    for _ in range(30):  # many moves quickly: written together, the last one always last
        game.apply(bot.choose(game))
        assert keeper.save(game)
    assert keeper.flush()
    assert Game.from_record(store.get(gid).record).state_key() == game.state_key()
    store.claim(gid, "other tab")
    game.apply(bot.choose(game))
    keeper.save(game)
    assert keeper.flush() and keeper.moved and "another tab" in keeper.problem
    assert keeper.save(game) is False
    assert store.get(gid).moves == 30
