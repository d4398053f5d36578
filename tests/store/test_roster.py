"""The class roster (tokens_edu.store.roster): codes, slips, and the roster command."""

from __future__ import annotations

import multiprocessing

import pytest

from tokens_edu.session import code_from_query
from tokens_edu.store.roster import CODE_ALPHABET, Roster, normalize_code, personal_link, slips_html
from tokens_edu.store.schema import CODE_LENGTH


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
