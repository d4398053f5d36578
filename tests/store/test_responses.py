"""Predictions, exit questions, lesson results and drawings (tokens_edu.store.responses and
.drawings, through the Journal facade): saved by
student, lesson and question, read back with the same privacy as answers, shown to the teacher."""

from __future__ import annotations

import numpy as np
import pytest

from tokens_edu.session.journal import Journal
from tokens_edu.store import drawings, responses, schema
from tokens_edu.store.drawings import MAX_SIDE, as_rows

BROWSER = "this-browser-secret-0123456789abcdef"
OTHER = "other-browser-secret-0123456789abcdef"


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def test_responses_are_saved_by_student_lesson_and_question(url):
    ana = Journal(url, student="Ana", lesson="05-play-the-computer")
    first = ana.save_response("l05-bot-move", "The Task", kind="prediction", correct=False)
    ana.save_response("l05-bot-move", "The Audit", kind="prediction", correct=True)
    ana.save_response("l05-exit", "Going first is a head start.", kind="exit")
    ana.save_response("l10-accuracy", "0.82", kind="result", lesson="10-learning")
    assert ana.save_response("l05-exit", "again", kind="exit", response_id=first) == first  # a retry
    assert ana.response_for("l05-bot-move").text == "The Audit"
    assert ana.response_for("l10-accuracy") is None and ana.response_for("l10-accuracy", lesson="10-learning").text == "0.82"
    Journal(url, student="Bo", lesson="05-play-the-computer").save_response("l05-exit", "Bo's", kind="exit")
    mine = ana.responses()
    assert list(mine.columns) == schema.RESPONSE_COLUMNS and set(mine["student"]) == {"Ana"}
    assert list(mine["correct"]) == [False, True, None, None]
    everyone = Journal(url).responses(all_students=True, lessons=["05-play-the-computer"], kinds=["exit"])
    assert sorted(everyone["student"]) == ["Ana", "Bo"] and str(everyone["saved_at"].dt.tz) == "UTC"


@pytest.mark.parametrize("call,words", [
    (lambda j: j.save_response("", "x"), "question's id must be some text"),
    (lambda j: j.save_response("q", "  "), "answer must be some text"),
    (lambda j: j.save_response("q", "x", kind="guess"), "kind is one of prediction, exit, result"),
    (lambda j: j.save_response("q", "x", correct="yes"), "True, False or None"),
    (lambda j: j.save_response("q", "x" * 5001), "too long"),
    (lambda j: j.save_drawing("cat", []), "list of rows"),
    (lambda j: j.save_drawing("cat", [[0, 1], [2]]), "same number of pixels"),
    (lambda j: j.save_drawing("cat", [[300]]), "from 0 to 255"),
    (lambda j: j.save_drawing("cat", [[0] * (MAX_SIDE + 1)]), f"1 to {MAX_SIDE} pixels"),
    (lambda j: j.save_drawing("", [[0]]), "label must be some text"),
])
def test_bad_work_is_refused_in_plain_words_and_nothing_is_saved(url, call, words):
    j = Journal(url, student="Ana", lesson="l8")
    with pytest.raises(ValueError, match=words):
        call(j)
    assert j.responses(all_students=True).empty and j.drawings(all_students=True).empty


def test_without_a_name_nothing_is_saved(url):
    with pytest.raises(ValueError, match="Type your name first"):
        Journal(url).save_response("q", "x")


def test_drawings_come_back_and_the_class_gets_them_without_names(url):
    ana = Journal(url, student="Ana", lesson="08-how-ai-senses")
    picture = [[0, 255, 0], [255, 0, 255]]
    ana.save_drawing("cat", picture)
    ana.save_drawing("dog", np.array([[7]], dtype=np.uint8))
    Journal(url, student="Bo", lesson="08-how-ai-senses").save_drawing("cat", [[1, 2], [3, 4]])
    mine = ana.drawings()
    assert list(mine.columns) == schema.DRAWING_COLUMNS and list(mine["label"]) == ["cat", "dog"]
    row = mine.iloc[0]
    assert (row["width"], row["height"]) == (3, 2) and as_rows(row["pixels"], 3, 2) == picture
    shared = Journal(url, lesson="08-how-ai-senses").class_drawings()
    assert list(shared.columns) == ["label", "width", "height", "pixels"]  # no names, no times
    assert list(shared["label"]) == ["cat", "dog", "cat"]
    assert list(ana.class_drawings(labels=["cat"])["width"]) == [3, 2]
    assert ana.class_drawings(lesson="other").empty


def test_a_typed_name_reads_back_only_its_browsers_work(url):
    mine = Journal(url, lesson="l5")
    mine.set_browser(BROWSER)
    mine.student = "Bo"  # typed in a name box
    mine.save_response("q1", "mine")
    mine.save_drawing("cat", [[0]])
    elsewhere = Journal(url, lesson="l5")
    elsewhere.set_browser(OTHER)
    elsewhere.student = "Bo"
    assert elsewhere.response_for("q1") is None and elsewhere.responses().empty and elsewhere.drawings().empty
    assert mine.response_for("q1").text == "mine" and len(mine.drawings()) == 1
    assert Journal(url, student="Bo", lesson="l5").response_for("q1").text == "mine"  # a proven name


def test_responses_and_drawings_are_rate_limited(url, monkeypatch):
    j = Journal(url, student="Ana", lesson="l8")
    most = responses.RESPONSE_LIMITS[0][0]
    for i in range(most):
        j.save_response("q", str(i))
    with pytest.raises(ValueError, match="saving very often"):
        j.save_response("q", "one more")
    for i in range(drawings.DRAWING_LIMITS[0][0]):  # counted apart: a lesson draws many
        j.save_drawing("cat", [[i]])
    with pytest.raises(ValueError, match="saving very often"):
        j.save_drawing("cat", [[0]])
    assert len(j.responses()) == most and len(j.drawings()) == drawings.DRAWING_LIMITS[0][0]
