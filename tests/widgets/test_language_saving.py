"""Lesson 12's saved work through the session layer (issue 27): the guesses before each reveal,
the seam pick, and the class's sentences, by student; one student's shared sentence reaches a
classmate's model; a sentence the teacher hides leaves it."""

from __future__ import annotations

import pytest

from tokens_edu.session import PageSession
from tokens_edu.store import Stores
from tokens_edu.widgets import LanguageLab
from tokens_edu.widgets.language_lab import LESSON
from tokens_edu.widgets.language_write import SEAM_KEY


@pytest.fixture
def url(tmp_path, monkeypatch):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "QUERY_STRING"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def page(url: str, student: str | None) -> LanguageLab:
    return LanguageLab(PageSession(LESSON, url=url, student=student))


def test_each_guess_is_saved_before_its_table_shows(url):
    lab = page(url, "Ana")
    guess = lab.guess_view
    guess.context_pick.value = "“a chatbot”"
    assert guess.reveal("can") and guess.reveal("is")  # a second guess: saved too
    guess.context_pick.value = "“cap of”"
    assert guess.reveal("7")
    table = Stores(url).responses.table([LESSON])
    rows = list(zip(table["question"], table["answer"], table["correct"], table["kind"]))
    assert rows == [("Next word after “a chatbot”", "can", True, "prediction"),
                    ("Next word after “a chatbot”", "is", True, "prediction"),
                    ("Next word after “cap of”", "7", False, "prediction")]
    assert set(table["student"]) == {"Ana"} and len(guess.saved_ids) == 3


def test_without_a_name_the_table_shows_and_the_page_says_it_was_not_saved(url):
    lab = page(url, None)
    guess = lab.guess_view
    assert guess.reveal("can")
    assert "not saved" in guess.message.value and "Type your name" in guess.message.value
    assert guess.result.value  # the table is shown anyway: nothing is lost but the record
    assert Stores(url).responses.table().empty


def test_the_seam_pick_is_saved_with_whether_it_was_right(url):
    demo = page(url, "Ana").made_up_view
    demo.write()
    demo.check("salty")
    demo.check("gills")
    table = Stores(url).responses.table([LESSON])
    assert list(zip(table["question"], table["answer"], table["correct"])) == [
        (SEAM_KEY, "salty", False), (SEAM_KEY, "gills", True)]


def test_a_shared_sentence_reaches_a_classmates_model_and_a_hidden_one_leaves(url):
    ana, bo = page(url, "Ana"), page(url, "Bo")
    assert ana.class_view.share("I like to juggle.")
    assert "juggle" in ana.model.counts("like to")
    assert "juggle" not in bo.model.counts("like to")  # not until Bo gets the class's sentences
    assert bo.class_view.refresh() == 1
    assert bo.model.counts("like to")["juggle"] == 1 and "+1 new" in bo.class_view.watch.value
    assert "1 new sentence from your class" in bo.class_view.message.value
    stores = Stores(url)
    table = stores.sentences.table([LESSON])
    assert list(zip(table["student"], table["text"])) == [("Ana", "I like to juggle.")]
    stores.sentences.hide(table["id"][0])  # the teacher hides it on the dashboard
    assert bo.class_view.refresh() == 0
    assert "juggle" not in bo.model.counts("like to") and "+1 new" not in bo.class_view.watch.value
    assert bo.class_view.share("I like to knit.") and ana.class_view.refresh() == 1
    assert "juggle" not in ana.model.counts("like to") and ana.model.counts("like to")["knit"] == 1


def test_a_warned_sentence_is_saved_only_after_share_it_anyway(url):
    lab = page(url, "Ana")
    assert not lab.class_view.share("I like to call 555 010 2030.")
    assert Stores(url).sentences.table().empty
    assert lab.class_view.share(anyway=True)
    assert list(Stores(url).sentences.table()["text"]) == ["I like to call 555 010 2030."]


def test_a_full_store_keeps_the_sentence_in_the_box(url, monkeypatch):
    lab = page(url, "Ana")
    box = lab.class_view

    def refuse(*_a, **_k):
        raise ValueError("Answers can't be saved right now.")

    monkeypatch.setattr(type(lab.session.store.sentences), "save", refuse)
    box.sentence_box.value = "I like to paint."
    assert not box.share()
    assert "was not shared" in box.message.value and box.sentence_box.value == "I like to paint."
    assert "paint" not in lab.model.counts("like to")
