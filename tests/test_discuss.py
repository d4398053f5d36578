"""The Discuss box, driven from Python as a student would: type, click Save, reopen."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa

from tokens_edu import load_cards
from tokens_edu.journal import Journal
from tokens_edu.widgets import DiscussBox


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def _classes(w):
    return set(w._dom_classes)


def test_type_and_click_save_stores_a_row(url):
    journal = Journal(url, student="Ana", lesson="01-read-a-card")
    box = DiscussBox(load_cards()["Chatbot"], journal)
    assert box.name_box is None  # the journal knows the name already
    box.answer_box.value = "It guesses the next word.\nNot magic."
    box.save_button.click()
    df = journal.answers()
    assert len(df) == 1
    row = df.iloc[0]
    assert row["answer"] == "It guesses the next word.\nNot magic."
    assert (row["student"], row["lesson"], row["card"]) == ("Ana", "01-read-a-card", "Chatbot")
    assert row["prompt"] == load_cards()["Chatbot"].discuss
    assert row["id"] == box.last_saved_id
    assert "Saved at" in box.status.value


def test_a_notebook_may_ask_its_own_question_about_a_card(url):
    journal = Journal(url, student="Ana", lesson="02-going-first")
    question = "Is 46% or 54% a real difference?"
    box = DiscussBox("Predictor", journal, prompt=question)
    assert question in box.question.value and load_cards()["Predictor"].discuss not in box.question.value
    box.answer_box.value = "Only with many games."
    box.save_button.click()
    row = journal.answers().iloc[0]
    assert (row["card"], row["prompt"], row["answer"]) == ("Predictor", question, "Only with many games.")
    with pytest.raises(ValueError, match="question"):
        DiscussBox("Predictor", journal, prompt="  ")


def test_reopen_shows_the_saved_answer(url):
    DiscussBox("chatbot", Journal(url, student="Ana", lesson="l1"))
    first = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    first.answer_box.value = "draft one"
    first.save_button.click()
    first.answer_box.value = "better answer"
    first.save_button.click()
    again = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    assert again.answer_box.value == "better answer"
    assert "saved before" in again.status.value
    # another student, another lesson or another card starts empty
    assert DiscussBox("Chatbot", Journal(url, student="Bo", lesson="l1")).answer_box.value == ""
    assert DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l2")).answer_box.value == ""
    assert DiscussBox("Neural Network", Journal(url, student="Ana", lesson="l1")).answer_box.value == ""


def test_clicking_save_twice_on_same_words_stores_one_row(url):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    box.answer_box.value = "same words"
    box.save_button.click()
    box.save_button.click()
    assert len(journal.answers()) == 1
    box.answer_box.value = "new words"
    box.save_button.click()
    assert list(journal.answers()["answer"]) == ["same words", "new words"]


def test_name_box_must_be_filled_first(url):
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    assert box.name_box is not None and not box.name_box.disabled
    assert "tokens-discuss-name" in _classes(box.name_box)
    box.answer_box.value = "my answer"
    box.save_button.click()
    assert "Type your name first" in box.status.value
    assert journal.answers(all_students=True).empty
    assert box.answer_box.value == "my answer"  # nothing lost
    box.name_box.value = "  Cara "
    box.save_button.click()
    assert journal.student == "Cara"
    assert list(journal.answers()["answer"]) == ["my answer"]


def test_name_box_prefilled_from_query_and_loads_saved_answer(url, monkeypatch):
    Journal(url, student="dev", lesson="l1").save("Chatbot", "from last week")
    monkeypatch.setenv("QUERY_STRING", "student=dev")
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    assert box.name_box.value == "dev"
    assert box.answer_box.value == "from last week"


def test_typing_a_classmates_name_never_shows_their_answer(url):
    Journal(url, student="Eli").save("Chatbot", "Eli's private words")
    box = DiscussBox("Chatbot", Journal(url))
    assert box.own_name == ""
    box.name_box.value = "Eli"
    assert box.answer_box.value == ""
    assert "Eli's private words" not in box.status.value
    # saving under the typed name still works, and does not reveal the older answer
    box.answer_box.value = "my own words"
    box.save_button.click()
    assert "Saved at" in box.status.value
    assert box.answer_box.value == "my own words"
    rows = Journal(url, student="Eli").answers()
    assert list(rows["answer"]) == ["Eli's private words", "my own words"]


def test_typed_name_on_a_page_with_another_identity_shows_nothing(url, monkeypatch):
    Journal(url, student="Eli", lesson="l1").save("Chatbot", "Eli's words")
    Journal(url, student="Ana", lesson="l1").save("Chatbot", "Ana's words")
    monkeypatch.setenv("QUERY_STRING", "student=Ana")
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    assert box.own_name == "Ana" and box.answer_box.value == "Ana's words"
    box.answer_box.value = ""
    box.name_box.value = "Eli"  # someone else's name: the box stays empty
    assert box.answer_box.value == ""
    box.name_box.value = " Ana "  # back to the page's own name: its answer returns
    assert box.answer_box.value == "Ana's words"
    other = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    other.answer_box.value = "typed first"
    other.name_box.value = "Ana"
    assert other.answer_box.value == "typed first"  # never overwrites what was typed


def test_name_box_says_the_name_is_not_a_password(url, monkeypatch):
    box = DiscussBox("Chatbot", Journal(url))
    assert box.name_note is not None
    assert "tokens-discuss-name-note" in _classes(box.name_note)
    assert "not a password" in box.name_note.value
    kids = list(box.children)
    assert kids.index(box.name_note) == kids.index(box.name_box) + 1  # right under the name
    assert DiscussBox("Chatbot", Journal(url, student="Ana")).name_note is None
    monkeypatch.setenv("JUPYTERHUB_USER", "fay")
    assert DiscussBox("Chatbot", Journal(url)).name_note is None  # a real login


def test_too_long_answer_is_counted_refused_and_kept(url):
    from tokens_edu.journal import MAX_ANSWER

    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    assert "tokens-discuss-count" in _classes(box.counter)
    box.answer_box.value = "short answer"
    assert box.counter.value == ""
    box.answer_box.value = "a" * 4500
    assert "4,500 of 5,000 characters" in box.counter.value
    long_text = "b" * (MAX_ANSWER + 1)
    box.answer_box.value = long_text
    assert "Too long" in box.counter.value and "5,001" in box.counter.value
    box.save_button.click()
    assert "too long to save" in box.status.value and "5,000" in box.status.value
    assert journal.answers().empty
    assert box.answer_box.value == long_text  # nothing lost
    exact = "c" * MAX_ANSWER  # the limit itself is fine, and saved exactly as typed
    box.answer_box.value = exact
    assert "Too long" not in box.counter.value
    box.save_button.click()
    assert list(journal.answers()["answer"]) == [exact]


def test_answer_typed_and_saved_at_once_is_saved_as_typed(url):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    assert box.answer_box.continuous_update  # every keystroke reaches the kernel, in order
    for text in ("I", "I th", "I think it guesses."):
        box.answer_box.value = text
    box.save_button.click()
    assert list(journal.answers()["answer"]) == ["I think it guesses."]


def test_hub_login_name_box_is_locked(url, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "fay")
    monkeypatch.setenv("QUERY_STRING", "student=mallory")
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    assert box.name_box.disabled and box.name_box.value == "fay"
    box.name_box.value = "mallory"  # even if the value were changed, the login is used
    box.answer_box.value = "hi"
    box.save_button.click()
    assert set(journal.answers(all_students=True)["student"]) == {"fay"}


def test_empty_answer_shows_a_plain_message(url):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    box.answer_box.value = "   "
    box.save_button.click()
    assert "Your answer is empty" in box.status.value
    assert journal.answers().empty


def test_failing_save_shows_a_friendly_status_and_keeps_the_words(url, monkeypatch, caplog):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    box.answer_box.value = "precious words"

    def broken(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))

    with monkeypatch.context() as m, caplog.at_level(logging.ERROR):
        m.setattr(journal._engine, "begin", broken)
        box.save_button.click()  # must not raise
    assert "could not be saved" in box.status.value
    assert box.answer_box.value == "precious words"
    assert any("Saving answer" in r.getMessage() for r in caplog.records)
    failed_id = box._attempt[1]
    box.save_button.click()  # the retry works and reuses the id
    assert list(journal.answers()["id"]) == [failed_id]


def test_unexpected_error_in_callback_is_caught(url, monkeypatch, caplog):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    box.answer_box.value = "words"
    monkeypatch.setattr(journal, "save", lambda *a, **k: 1 / 0)
    with caplog.at_level(logging.ERROR):
        box.save_button.click()
    assert "Sorry, I could not save your answer" in box.status.value
    assert any(r.exc_info and r.exc_info[0] is ZeroDivisionError for r in caplog.records)


def test_typed_text_is_shown_escaped(url):
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    box.name_box.value = "<img src=x onerror=alert(1)>" + "x" * 80  # too long: an error line
    box.answer_box.value = "ok"
    box.save_button.click()
    assert "<img" not in box.status.value and "&lt;img" not in box.status.value
    assert "too long" in box.status.value
    box.name_box.value = "<b>Bo</b>"
    box.save_button.click()
    assert "&lt;b&gt;Bo&lt;/b&gt;" in box.status.value
    assert "<b>Bo</b>" not in box.status.value
    assert journal.answers().iloc[0]["student"] == "<b>Bo</b>"  # stored as typed


def test_css_classes_and_question(url):
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    assert "tokens-discuss" in _classes(box)
    assert "tokens-discuss-answer" in _classes(box.answer_box)
    assert "tokens-discuss-save" in _classes(box.save_button)
    assert "tokens-discuss-status" in _classes(box.status)
    card = load_cards()["Chatbot"]
    assert card.name in box.card_view.value
    assert "Discuss:" in box.question.value


def test_card_drawing_falls_back_to_plain_name(url, monkeypatch):
    from tokens_edu import render

    def broken(card, *a, **k):
        raise RuntimeError("no art today")

    monkeypatch.setattr(render, "render_card", broken)
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    assert "<strong>Chatbot</strong>" in box.card_view.value


def test_unknown_card_name_is_a_plain_error(url):
    with pytest.raises(ValueError, match="There is no card called 'Chatbt'. Did you mean Chatbot"):
        DiscussBox("Chatbt", Journal(url, student="Ana"))
