"""The Discuss box, driven from Python as a student would: type, click Save, reopen."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from tokens_edu import load_cards
from tokens_edu.session.journal import Journal
from tokens_edu.widgets import DiscussBox, discuss


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


_seq = iter(range(1, 10**9))


def page_save(box, text: str) -> None:
    """What the page sends when the student clicks Save: the text exactly as shown."""
    box.answer.handle({"type": "save", "text": text, "seq": next(_seq)})


def page_draft(box, text: str) -> None:
    """What the page sends a moment after the student stops typing."""
    box.answer.handle({"type": "draft", "text": text, "seq": next(_seq)})


#: Two browsers' secrets (what static/browser.js keeps in each browser's localStorage).
BO_BROWSER = "bo-laptop-secret-0123456789abcdef"
OTHER_BROWSER = "another-laptop-secret-fedcba9876543210"


def page_opens(box, browser: str) -> None:
    """What the page's front end sends when it is drawn: which browser it is in."""
    box.browser_key.handle({"type": "browser", "browser": browser})


def test_type_and_click_save_stores_a_row(url):
    journal = Journal(url, student="Ana", lesson="01-read-a-card")
    box = DiscussBox(load_cards()["Chatbot"], journal)
    assert box.name_box is None  # the journal knows the name already
    page_save(box, "It guesses the next word.\nNot magic.")
    df = journal.answers()
    assert len(df) == 1
    row = df.iloc[0]
    assert row["answer"] == "It guesses the next word.\nNot magic."
    assert (row["student"], row["lesson"], row["card"]) == ("Ana", "01-read-a-card", "Chatbot")
    assert row["prompt"] == load_cards()["Chatbot"].discuss
    assert row["id"] == box.last_saved_id
    assert re.fullmatch(r"Saved at \d\d:\d\d:\d\d\. Well done, Ana!", box.answer.status)
    assert box.answer.status_kind == "ok" and box.answer.saved_text == row["answer"]


def test_a_notebook_may_ask_its_own_question_about_a_card(url):
    journal = Journal(url, student="Ana", lesson="02-going-first")
    question = "Is 46% or 54% a real difference?"
    box = DiscussBox("Predictor", journal, prompt=question)
    assert question in box.question.value and load_cards()["Predictor"].discuss not in box.question.value
    page_save(box, "Only with many games.")
    row = journal.answers().iloc[0]
    assert (row["card"], row["prompt"], row["answer"]) == ("Predictor", question, "Only with many games.")
    with pytest.raises(ValueError, match="question"):
        DiscussBox("Predictor", journal, prompt="  ")


def test_reopen_shows_the_saved_answer(url):
    DiscussBox("chatbot", Journal(url, student="Ana", lesson="l1"))
    first = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    page_save(first, "draft one")
    page_save(first, "better answer")
    again = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    assert again.answer_box.value == "better answer"
    assert again.answer.saved_text == "better answer"  # the page shows it as saved
    assert "saved before" in again.answer.status
    # another student, another lesson or another card starts empty
    assert DiscussBox("Chatbot", Journal(url, student="Bo", lesson="l1")).answer_box.value == ""
    assert DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l2")).answer_box.value == ""
    assert DiscussBox("Neural Network", Journal(url, student="Ana", lesson="l1")).answer_box.value == ""


def test_clicking_save_twice_on_same_words_stores_one_row(url):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    page_save(box, "same words")
    page_save(box, "same words")
    assert len(journal.answers()) == 1
    page_save(box, "new words")
    assert list(journal.answers()["answer"]) == ["same words", "new words"]


def test_name_box_must_be_filled_first(url):
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    assert box.name_box is not None and not box.name_box.disabled
    assert "tokens-discuss-name" in _classes(box.name_box)
    page_save(box, "my answer")
    assert "Type your name first" in box.answer.status and box.answer.status_kind == "bad"
    assert box.answer.saved_text == ""  # never "saved"
    assert journal.answers(all_students=True).empty
    assert box.answer_box.value == "my answer"  # nothing lost
    box.name_box.value = "  Cara "
    page_save(box, "my answer")
    assert journal.student == "Cara"
    assert list(journal.answers(all_students=True)["answer"]) == ["my answer"]


def test_name_box_prefilled_from_query_and_loads_what_this_browser_saved(url, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "student=dev")
    first = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(first, BO_BROWSER)
    page_save(first, "from last week")
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))  # a reload in the same browser
    assert box.name_box.value == "dev"
    assert box.answer_box.value == ""  # not before the page has said which browser it is
    page_opens(box, BO_BROWSER)
    assert box.answer_box.value == "from last week" and "saved before" in box.answer.status


def test_a_link_with_a_classmates_name_shows_nothing_of_theirs(url, monkeypatch):
    """Issue 20: without a class list, '?student=Bo' on another computer showed Bo's saved
    answer and draft. Now a page shows only what its own browser wrote."""
    monkeypatch.setenv("QUERY_STRING", "student=Bo")
    bo = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(bo, BO_BROWSER)
    page_save(bo, "Bo's saved words")
    bo_draft = DiscussBox("Neural Network", Journal(url, lesson="l1"))
    page_opens(bo_draft, BO_BROWSER)
    page_draft(bo_draft, "Bo's half thought")
    for card in ("Chatbot", "Neural Network"):
        other = DiscussBox(card, Journal(url, lesson="l1"))  # Bo's link, another browser
        page_opens(other, OTHER_BROWSER)
        assert other.name_box.value == "Bo" and other.answer.value == "" and other.answer.saved_text == ""
        assert "Bo's" not in other.answer.status
        assert other.journal.latest(card) is None and other.journal.draft_for(card) is None
        assert other.journal.answers().empty
        never = DiscussBox(card, Journal(url, lesson="l1"))  # a page whose browser never says
        assert never.answer.value == "" and never.journal.answers().empty
    # Bo's own browser still finds both
    again = DiscussBox("Neural Network", Journal(url, lesson="l1"))
    page_opens(again, BO_BROWSER)
    assert again.answer.value == "Bo's half thought"


def test_typing_a_classmates_name_never_overwrites_their_draft(url):
    """Issue 20: typing "Bo" in the name box overwrote Bo's draft."""
    bo = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(bo, BO_BROWSER)
    bo.name_box.value = "Bo"
    page_draft(bo, "Bo's draft, keep it")
    other = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(other, OTHER_BROWSER)
    other.name_box.value = "Bo"
    page_draft(other, "someone else's words")
    back = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(back, BO_BROWSER)
    back.name_box.value = "Bo"
    assert back.answer.value == "Bo's draft, keep it"
    # saving in the other browser removes only that browser's draft
    page_save(other, "someone else's answer")
    again = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(again, BO_BROWSER)
    again.name_box.value = "Bo"
    assert again.answer.value == "Bo's draft, keep it"
    # the teacher sees the saved answer under the name typed (never the drafts)
    assert list(Journal(url).answers(all_students=True)["answer"]) == ["someone else's answer"]


def test_the_browser_secret_is_kept_only_as_a_hash(url):
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(box, BO_BROWSER)
    box.name_box.value = "Bo"
    page_draft(box, "draft")
    page_save(box, "answer")
    import sqlite3

    con = sqlite3.connect(url[len("sqlite:///"):])
    stored = {r[0] for r in con.execute("SELECT browser FROM answers UNION SELECT browser FROM drafts")}
    assert stored and BO_BROWSER not in stored and all(len(b) == 64 for b in stored)
    page_opens(box, "<script>")  # not a secret: ignored
    assert box.journal.browser in stored


def test_typing_a_classmates_name_never_shows_their_answer(url):
    Journal(url, student="Eli").save("Chatbot", "Eli's private words")
    box = DiscussBox("Chatbot", Journal(url))
    assert box.own_name == ""
    box.name_box.value = "Eli"
    assert box.answer_box.value == ""
    assert "Eli's private words" not in box.answer.status
    # saving under the typed name still works, and does not reveal the older answer
    page_save(box, "my own words")
    assert "Saved at" in box.answer.status
    assert box.answer_box.value == "my own words"
    rows = Journal(url, student="Eli").answers()
    assert list(rows["answer"]) == ["Eli's private words", "my own words"]


def test_typed_name_on_a_page_with_another_identity_shows_only_this_browsers_work(url, monkeypatch):
    Journal(url, student="Eli", lesson="l1").save("Chatbot", "Eli's words")  # from elsewhere
    monkeypatch.setenv("QUERY_STRING", "student=Ana")
    first = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(first, BO_BROWSER)
    page_save(first, "Ana's words")
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(box, BO_BROWSER)
    assert box.own_name == "Ana" and box.answer_box.value == "Ana's words"
    box.answer.value = ""
    box.name_box.value = "Eli"  # someone else's name: their answer is not this browser's
    assert box.answer_box.value == ""
    box.name_box.value = " Ana "  # back to the page's own name: its answer returns
    assert box.answer_box.value == "Ana's words"
    other = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    page_opens(other, BO_BROWSER)
    other.answer.value = "typed first"
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


def test_too_long_answer_is_refused_and_kept(url):
    from tokens_edu.store.schema import MAX_ANSWER

    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    assert box.answer.max_length == MAX_ANSWER == 5000 and box.answer.count_from == 4000
    long_text = "b" * (MAX_ANSWER + 1)
    page_save(box, long_text)
    assert "too long to save" in box.answer.status and "5,000" in box.answer.status
    assert journal.answers().empty
    assert box.answer_box.value == long_text  # nothing lost
    exact = "c" * MAX_ANSWER  # the limit itself is fine, and saved exactly as typed
    page_save(box, exact)
    assert list(journal.answers()["answer"]) == [exact]


def test_answer_saved_in_the_instant_it_arrives_is_saved_as_shown(url):
    """The Save message carries the text as shown; an older draft arriving late changes nothing."""
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    box.answer.handle({"type": "draft", "text": "I", "seq": 1})
    box.answer.handle({"type": "save", "text": "I think it guesses.", "seq": 3})
    box.answer.handle({"type": "draft", "text": "I th", "seq": 2})  # overtaken: ignored
    assert list(journal.answers()["answer"]) == ["I think it guesses."]
    assert journal.draft_for("Chatbot") is None and box.answer.value == "I think it guesses."
    assert box.answer.ack == 3 and box.answer.saved_text == "I think it guesses."


def test_draft_is_kept_comes_back_after_a_reload_and_is_never_an_answer(url):
    journal = Journal(url, student="Ana", lesson="l1")
    box = DiscussBox("Chatbot", journal)
    page_draft(box, "half a thought")
    assert box.answer.draft_text == "half a thought" and re.fullmatch(r"\d\d:\d\d:\d\d", box.answer.draft_at)
    assert journal.answers(all_students=True).empty  # the teacher sees no draft
    reloaded = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    assert reloaded.answer.value == "half a thought"
    assert reloaded.answer.saved_text == ""  # shown as not saved yet
    assert "draft" in reloaded.answer.status and "not saved yet" in reloaded.answer.status
    page_save(reloaded, "a whole thought")
    again = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    assert again.answer.value == "a whole thought" and "saved before" in again.answer.status


def test_a_draft_newer_than_the_saved_answer_comes_back(url):
    journal = Journal(url, student="Ana", lesson="l1")
    box = DiscussBox("Chatbot", journal)
    page_save(box, "first answer")
    page_draft(box, "first answer, and more")
    again = DiscussBox("Chatbot", Journal(url, student="Ana", lesson="l1"))
    assert again.answer.value == "first answer, and more"
    assert again.answer.saved_text == "first answer"


def test_a_classmates_draft_never_comes_back_under_a_typed_name(url):
    Journal(url, student="Eli", lesson="l1").save_draft("Chatbot", "Eli's draft")
    box = DiscussBox("Chatbot", Journal(url, lesson="l1"))
    box.name_box.value = "Eli"
    assert box.answer.value == ""


def test_roster_login_brings_back_the_students_work(url):
    """journal.identify (a class roster login) makes the name the page's own."""
    Journal(url, student="Ana", lesson="l1").save("Chatbot", "Ana's words")
    journal = Journal(url, lesson="l1")
    box = DiscussBox("Chatbot", journal)
    assert box.answer.value == ""
    journal.identify("Ana")
    assert box.name_box.value == "Ana" and box.answer.value == "Ana's words"


def test_ping_is_answered(url, monkeypatch):
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    sent = []
    monkeypatch.setattr(box.answer, "send", sent.append)
    box.answer.handle({"type": "ping", "n": 7})
    assert sent == [{"type": "pong", "n": 7}]
    box.answer.handle("garbage")  # never raises
    box.answer.handle({"type": "save", "text": 5})


def test_hub_login_name_box_is_locked(url, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "fay")
    monkeypatch.setenv("QUERY_STRING", "student=mallory")
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    assert box.name_box.disabled and box.name_box.value == "fay"
    box.name_box.value = "mallory"  # even if the value were changed, the login is used
    page_save(box, "hi")
    assert set(journal.answers(all_students=True)["student"]) == {"fay"}


def test_empty_answer_shows_a_plain_message(url):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    page_save(box, "   ")
    assert "Your answer is empty" in box.answer.status
    assert journal.answers().empty


def test_failing_save_shows_plain_words_and_keeps_the_words(url, monkeypatch, caplog):
    import sqlite3

    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)

    def broken(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    with monkeypatch.context() as m, caplog.at_level(logging.WARNING):
        m.setattr(journal._engine, "begin", broken)
        page_save(box, "precious words")  # must not raise
    assert box.answer.status == ("Your answer couldn't be saved just now. It is still in the "
                                 "box: try Save again.")
    assert "Error" not in box.answer.status and box.answer.saved_text == ""
    assert box.answer.value == "precious words"
    assert any("Saving an answer failed" in r.getMessage() for r in caplog.records)
    failed_id = box._attempt[1]
    page_save(box, "precious words")  # the retry works and reuses the id
    assert list(journal.answers()["id"]) == [failed_id]
    assert "Saved at" in box.answer.status


def test_unusable_store_is_told_at_once_and_the_box_still_works(tmp_path):
    (tmp_path / "adir").mkdir()
    journal = Journal(f"sqlite:///{tmp_path / 'adir'}", student="Ana")
    box = DiscussBox("Chatbot", journal)  # the lesson still builds its box
    assert "can't be saved right now" in box.answer.status
    page_draft(box, "words")
    page_save(box, "words")
    assert "can't be saved right now" in box.answer.status and box.answer.saved_text == ""
    assert box.answer.value == "words"


def test_unexpected_error_in_callback_is_caught(url, monkeypatch, caplog):
    journal = Journal(url, student="Ana")
    box = DiscussBox("Chatbot", journal)
    monkeypatch.setattr(journal.store.answers, "save", lambda *a, **k: 1 / 0)
    with caplog.at_level(logging.ERROR):
        page_save(box, "words")
    assert "Sorry, I could not save your answer" in box.answer.status
    assert any(r.exc_info and r.exc_info[0] is ZeroDivisionError for r in caplog.records)


def test_typed_text_is_sent_as_plain_text(url):
    """The status line is plain text (the page shows it with textContent, never as HTML)."""
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    box.name_box.value = "<b>Bo</b>"
    page_save(box, "ok")
    assert box.answer.status.endswith("Well done, <b>Bo</b>!")
    assert journal.answers(all_students=True).iloc[0]["student"] == "<b>Bo</b>"  # stored as typed
    js = (Path(discuss.__file__).parent / "static" / "discuss.js").read_text()
    assert "innerHTML" not in js  # every text goes in as textContent


def test_name_with_hidden_characters_is_cleaned(url):
    journal = Journal(url)
    box = DiscussBox("Chatbot", journal)
    box.name_box.value = "\u202eB\x00ob\x1b"
    page_save(box, "ok")
    assert journal.student == "Bob"


def test_css_classes_and_question(url):
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    assert "tokens-discuss" in _classes(box)
    js = (Path(discuss.__file__).parent / "static" / "discuss.js").read_text()
    for cls in ("tokens-discuss-answer", "tokens-discuss-save", "tokens-discuss-status",
                "tokens-discuss-count", "tokens-discuss-note", "tokens-lost-contact"):
        assert cls in js
    card = load_cards()["Chatbot"]
    assert card.name in box.card_view.value
    assert "Discuss:" in box.question.value


def test_card_drawing_falls_back_to_plain_name(url, monkeypatch):
    from tokens_edu.widgets import discuss

    def broken(card, *a, **k):
        raise RuntimeError("no art today")

    monkeypatch.setattr(discuss, "render_card", broken)
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    assert "<strong>Chatbot</strong>" in box.card_view.value


def test_unknown_card_name_is_a_plain_error(url):
    with pytest.raises(ValueError, match="There is no card called 'Chatbt'. Did you mean Chatbot"):
        DiscussBox("Chatbt", Journal(url, student="Ana"))


@pytest.mark.parametrize("prompt", [None, "Should an AI always have to explain its choices?"])
def test_one_discuss_question_per_box(url, prompt):
    """The card in a Discuss box is drawn without its own Discuss line: the box asks one
    question, under the card (issue 21 part 4: lesson 7 showed two questions for one box)."""
    card = load_cards()["Explainability"]
    box = DiscussBox(card, Journal(url, student="Ana", lesson="07"), prompt=prompt)
    shown = box.card_view.value + box.question.value
    asked = prompt or card.discuss
    assert shown.count("Discuss:") == 1 and asked in box.question.value
    assert prompt is None or card.discuss not in shown
    assert "tk-discuss" not in box.card_view.value and card.definition in box.card_view.value


def test_saving_too_often_says_so_and_keeps_the_words(url):
    """Issue 20: one student could flood saves. The box says, in plain words, to wait."""
    box = DiscussBox("Chatbot", Journal(url, student="Ana"))
    for i in range(10):
        page_save(box, f"answer {i}")
        assert "Saved at" in box.answer.status
    page_save(box, "answer 10")
    assert box.answer.status.startswith("You are saving very often. Wait a minute")
    assert box.answer.status_kind == "bad" and box.answer.value == "answer 10"
    assert box.answer.saved_text == "answer 9"  # the page does not say the new words were saved
    assert len(box.journal.answers()) == 10
