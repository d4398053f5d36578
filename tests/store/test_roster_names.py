"""Names that are safe without logins: with a class roster, saving under a classmate's name
without their code is impossible (journal, Discuss box, kept games, start page); without a
roster the name box stays; under JupyterHub the login is the name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokens_edu.session.journal import Journal
from tokens_edu.session import CODE_NEEDED
from tokens_edu.store.roster import Roster
from tokens_edu.widgets import DiscussBox, NewGamePanel

ROOT = Path(__file__).resolve().parents[2]
LESSON = "01-read-a-card"


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    for var in ("TOKENS_EDU_DB_URL", "JUPYTERHUB_USER", "QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(var, raising=False)
    import tokens_edu.session.address as address

    monkeypatch.setattr(address, "_query_cache", None)
    return monkeypatch


@pytest.fixture
def codes(env):
    return {e.name: e.code for e in Roster().add(["Ana", "Bo"])}


def page(env, query: str) -> Journal:
    """A lesson page's journal, opened with ``query`` as its address's query."""
    env.setenv("QUERY_STRING", query)
    return Journal(lesson=LESSON)


def saved_rows():
    return Journal(lesson=LESSON).answers(all_students=True)


def test_the_personal_link_names_the_student(env, codes):
    j = page(env, f"code={codes['Ana'].lower()}")
    assert j.student == "Ana" and j.code == codes["Ana"] and j.roster_in_use
    j.save("Chatbot", "mine")
    assert list(saved_rows()["student"]) == ["Ana"]


def test_a_classmates_name_cannot_be_used_without_their_code(env, codes):
    j = page(env, f"code={codes['Ana']}")
    with pytest.raises(ValueError, match="type the code from your slip"):
        j.student = "Bo"  # what a name box would do
    with pytest.raises(ValueError, match="type the code from your slip"):
        j.identify("Bo")
    assert j.student == "Ana"
    # a link with a name and no code names nobody, and saving needs a code
    k = page(env, "student=Bo")
    assert k.student is None
    with pytest.raises(ValueError) as e:
        k.save("Chatbot", "pretending to be Bo")
    assert str(e.value) == CODE_NEEDED
    with pytest.raises(ValueError, match="not on the class list"):
        k.sign_in("ZZZZZZ" if "ZZZZZZ" not in codes.values() else "YYYYYY")
    with pytest.raises(ValueError):
        k.save_draft("Chatbot", "a draft as Bo")
    assert "Bo" not in set(saved_rows()["student"])
    # with Bo's own code it works
    assert k.sign_in(codes["Bo"]) == "Bo"
    k.save("Chatbot", "Bo's real answer")
    assert set(saved_rows()["student"]) == {"Bo"}


def test_a_name_typed_before_the_roster_existed_cannot_save_after(env):
    j = page(env, "")
    j.student = "Bo"
    j.save("Chatbot", "before the roster")
    Roster().add(["Ana", "Bo"])
    with pytest.raises(ValueError) as e:
        j.save("Chatbot", "after the roster")
    assert str(e.value) == CODE_NEEDED
    assert list(saved_rows()["answer"]) == ["before the roster"]


def test_a_wrong_code_in_the_link_is_explained(env, codes):
    j = page(env, "code=NOPE12")
    assert j.student is None and "not on the class list" in j.code_problem


def test_without_a_roster_the_name_box_stays(env):
    box = DiscussBox("Chatbot", page(env, "student=Ana"))
    assert box.name_box is not None and box.code_box is None and box.name_box.value == "Ana"
    assert "not a password" in box.name_note.value


def test_under_jupyterhub_the_login_is_the_name_even_with_a_roster(env, codes):
    env.setenv("JUPYTERHUB_USER", "ana-login")
    j = page(env, f"code={codes['Bo']}")
    assert j.student == "ana-login" and not j.roster_in_use
    box = DiscussBox("Chatbot", j)
    assert box.code_box is None and box.name_box.disabled


def test_discuss_box_has_no_name_box_and_signs_in_by_code(env, codes):
    j = page(env, "student=Bo")  # a link with a name only
    box = DiscussBox("Chatbot", j)
    other = DiscussBox("Sensor", j)  # a second box on the same page
    assert box.name_box is None and box.code_box is not None
    assert "Type the code from your slip" in box.who.value
    with pytest.raises(ValueError) as e:
        box.save("an answer")
    assert str(e.value) == CODE_NEEDED
    box.code_box.value = "WRONG1"
    assert "not on the class list" in box.answer.status and box.code_box.value == ""
    box.code_box.value = codes["Bo"].lower()
    assert j.student == "Bo" and "Saving as <b>Bo</b>" in box.who.value
    assert "Saving as <b>Bo</b>" in other.who.value  # every box of the page knows
    assert box.code_box.value == ""  # the code is not left on the page
    box.save("Bo's answer")
    # a classmate at the same screen signs in with their own code
    box.code_box.value = codes["Ana"]
    box.save("Ana's answer")
    rows = saved_rows()
    assert dict(zip(rows["answer"], rows["student"])) == {"Bo's answer": "Bo", "Ana's answer": "Ana"}


def test_kept_games_follow_the_code_not_a_typed_name(env, codes):
    from tokens_edu.store.games import GameStore

    j = page(env, "student=Bo")
    panel = NewGamePanel(journal=j, lesson="t", autoplay=False)
    assert panel.keeping is None  # no code: no game kept (or offered) under the name "Bo"
    j2 = page(env, f"code={codes['Bo']}")
    panel2 = NewGamePanel(journal=j2, lesson="t", autoplay=False)
    assert panel2.keeping is not None and panel2.keeping.student == "Bo"
    panel2.start_button.click()
    assert GameStore().games()["student"].tolist() == ["Bo"]


def _start_page_code() -> str:
    nb = json.loads((ROOT / "lessons" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_start_page_links_carry_the_code(env, codes):
    from IPython.utils.capture import capture_output  # noqa: F401 (IPython is installed)

    env.setenv("QUERY_STRING", f"code={codes['Ana']}")
    ns: dict = {}
    exec(compile(_start_page_code(), "00-start-here", "exec"), ns)
    assert ns["link_end"] == f"?code={codes['Ana']}" and "Hello, Ana!" in ns["hello"]
    env.setenv("QUERY_STRING", "student=Bo")
    import tokens_edu.session.address as address

    env.setattr(address, "_query_cache", None)
    ns = {}
    exec(compile(_start_page_code(), "00-start-here", "exec"), ns)
    assert ns["link_end"] == "" and "Bo" not in ns["hello"] and "slip" in ns["hello"]


def test_the_code_is_read_when_the_student_is_first_asked_for(env, codes):
    """Not when the journal is made: a warm kernel runs the lesson's first cells before its
    page is requested, and waits for the page's address only when the name is needed."""
    import tokens_edu.session.page as page  # where the session reads the page's code

    asked = []
    real = page._code_from_query

    def spy(query=None):
        asked.append(1)
        return real(query)

    env.setattr(page, "_code_from_query", spy)
    env.setenv("QUERY_STRING", f"code={codes['Bo']}")
    j = Journal(lesson=LESSON)
    assert asked == []
    assert j.student == "Bo" and asked == [1]
    assert j.student == "Bo" and asked == [1]  # once


def test_a_code_in_the_link_without_a_class_list_is_ignored(env):
    """Newcomer review: '?student=Ana&code=XYZ' on a server with no roster said in red that the
    code was not on the class list, with no box to type one; the name box now stays as usual."""
    j = page(env, "student=Ana&code=XYZ123")
    assert j.code_problem == "" and j.student is None
    box = DiscussBox("Chatbot", j)
    assert box.name_box is not None and box.name_box.value == "Ana" and box.code_box is None
