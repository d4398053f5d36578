"""The dashboard's Sentences page (issue 27): the class's lesson 12 sentences with names, escaped,
newest first; Hide and Show again (a POST with the page's XSRF token) change what the class's
model learns; lesson 12's predictions and exit answers are on the Questions page."""

from __future__ import annotations

import re
import time

import pytest
from test_dashboard import Client, Dash, teacher

from tokens_edu.session import PageSession
from tokens_edu.store import Stores, Writer
from tokens_edu.widgets import LanguageLab

LESSON = "12-finish-my-sentence"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('sentences') / 'journal.sqlite'}"


@pytest.fixture(scope="module")
def dash(db):
    Stores(db).sentences  # the tables, as the lesson server makes them before the dashboard starts
    d = Dash(db)
    yield d
    d.stop()


def xsrf(page: str) -> str:
    return re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)


def test_the_teacher_sees_the_sentences_and_hides_one(dash, db):
    stores = Stores(db)
    stores.sentences.save(Writer("Ana", trusted=True), LESSON, "I like to <b>swim</b>.")
    bad = stores.sentences.save(Writer("Bo", trusted=True), LESSON, "Cy is silly.")
    c = teacher(dash)
    status, _, page = c.get(dash.root + "sentences")
    assert status == 200 and "<h1>Sentences</h1>" in page and 'aria-current="page">Sentences' in page
    assert "I like to &lt;b&gt;swim&lt;/b&gt;." in page and "<b>swim</b>" not in page
    assert page.index("Cy is silly.") < page.index("swim")  # newest first
    assert "2 sentences." in page and page.count(">Hide</button>") == 2
    status, _, page = c.post(dash.root + "sentences/hide", {"_xsrf": xsrf(page), "id": bad, "hidden": "1",
                                                          "lesson": LESSON})
    assert status == 200 and "2 sentences, 1 hidden." in page and ">Show again</button>" in page
    assert [s["text"] for s in stores.sentences.shared(LESSON)] == ["I like to <b>swim</b>."]
    # a student's page learns again without it
    lab = LanguageLab(PageSession(LESSON, url=db, student="Di"))
    lab.class_view.refresh()
    assert "silly" not in " ".join(s["text"] for s in lab.class_sentences)
    status, _, page = c.post(dash.root + "sentences/hide", {"_xsrf": xsrf(page), "id": bad, "hidden": "0"})
    assert status == 200 and "1 hidden" not in page
    assert len(stores.sentences.shared(LESSON)) == 2


def test_hiding_needs_the_login_the_xsrf_token_and_a_real_sentence(dash, db):
    sid = Stores(db).sentences.save(Writer("Ana", trusted=True), LESSON, "I like to run.")
    status, _, _ = Client(follow=False).post(dash.root + "sentences/hide", {"id": sid, "hidden": "1"})
    assert status in (302, 403)
    c = teacher(dash)
    _, _, page = c.get(dash.root + "sentences")
    assert c.post(dash.root + "sentences/hide", {"id": sid, "hidden": "1"})[0] == 403  # no XSRF token
    token = xsrf(page)
    for fields, code in (({"id": "not-an-id", "hidden": "1"}, 400), ({"id": sid, "hidden": "maybe"}, 400),
                         ({"id": "00000000-0000-4000-8000-000000000000", "hidden": "1"}, 404)):
        assert c.post(dash.root + "sentences/hide", {"_xsrf": token, **fields})[0] == code
    assert sid in [s["id"] for s in Stores(db).sentences.shared(LESSON)]


def test_the_page_updates_by_itself_when_a_sentence_arrives(dash, db):
    c = teacher(dash)
    data = dash.app.settings["data"]
    before = data.refresh()
    Stores(db).sentences.save(Writer("Eve", trusted=True), LESSON, "I like to sing.")
    deadline = time.monotonic() + 10
    while data.refresh() == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert data.refresh() > before  # the live page is told (its events come from this number)
    _, _, fragment = c.get(dash.root + "sentences?fragment=1")
    assert "I like to sing." in fragment and "<h1>" not in fragment


def test_lesson_12s_predictions_and_exit_answers_are_on_the_questions_page(dash, db):
    lab = LanguageLab(PageSession(LESSON, url=db, student="Ana"))
    lab.guess_view.reveal("can")
    lab.made_up_view.write()
    lab.made_up_view.check("gills")
    stores = Stores(db)
    stores.responses.save(Writer("Ana", trusted=True), LESSON, "Exit: a chatbot's fact for homework",
                          "Check it in a place you trust", kind="exit", correct=True)
    _, _, page = teacher(dash).get(dash.root + f"questions?lesson={LESSON}")
    for words in ("Next word after “a chatbot”", "Made up: where does it go wrong?",
                  "Exit: a chatbot&#39;s fact for homework", "<b>Ana</b>: gills"):
        assert words in page, words
    _, _, page = teacher(dash).get(dash.root + "sentences")
    assert f'href="/questions?lesson={LESSON}"' in page
