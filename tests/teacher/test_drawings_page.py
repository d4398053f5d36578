"""The dashboard's Drawings page (issue 28.4): lesson 8's class data by class set, with names,
pictures and typed commands, escaped, newest first; Delete and Start a new set (POSTs with the
page's XSRF token) change what the class's model learns: a new set starts knowing nothing."""

from __future__ import annotations

import re

import pytest
from test_dashboard import Client, Dash, teacher

from tokens_edu.session import PageSession
from tokens_edu.store import Stores, Writer
from tokens_edu.widgets import CommandLab, DrawingLab

LESSON = "08-how-ai-senses"
FLAG = [[255 if c == 3 or (r == 1 and c < 8) else 0 for c in range(12)] for r in range(12)]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('drawings') / 'journal.sqlite'}"


@pytest.fixture(scope="module")
def dash(db):
    Stores(db).drawings  # the tables, as the lesson server makes them before the dashboard starts
    d = Dash(db)
    yield d
    d.stop()


def xsrf(page: str) -> str:
    return re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)


def test_the_teacher_sees_the_class_data_deletes_one_and_starts_a_new_set(dash, db):
    stores = Stores(db)
    bad = stores.drawings.save(Writer("Bo", trusted=True), LESSON, "Flag", FLAG)
    stores.drawings.save(Writer("<b>Ana</b>", trusted=True), LESSON, "Token", FLAG)
    stores.drawings.save_command(Writer("Ana", trusted=True), LESSON, "score <i>now</i>", "Task")
    c = teacher(dash)
    status, _, page = c.get(dash.root + "drawings")
    assert status == 200 and "<h1>Drawings</h1>" in page and 'aria-current="page">Drawings' in page
    assert "&lt;b&gt;Ana&lt;/b&gt;" in page and "<b>Ana</b>" not in page
    assert "score &lt;i&gt;now&lt;/i&gt;" in page and "2 drawings." in page and "1 typed command." in page
    assert page.count("<svg") == 2 and page.index("Token") < page.index("Flag")  # newest first
    assert page.count(">Delete</button>") == 3 and "First set" in page
    # a student's page learns from both; after Delete, from one
    lab = DrawingLab(PageSession(LESSON, url=db, student="Di"))
    assert sorted(label for _, label, _ in lab.examples) == ["Flag", "Token"]
    status, _, page = c.post(dash.root + "drawings/delete", {"_xsrf": xsrf(page), "id": bad, "kind": "drawing",
                                                             "set": ""})
    assert status == 200 and "1 drawing." in page
    lab.learn()
    assert [label for _, label, _ in lab.examples] == ["Token"]
    # a new class: a new, empty set; the old one is still listed
    status, _, page = c.post(dash.root + "drawings/new-set", {"_xsrf": xsrf(page), "name": " 7B "})
    assert status == 200 and "<h2>7B, started" in page and "No drawings or commands in this set yet" in page
    assert "(now in use)" in page and "First set" in page
    lab.learn()
    assert lab.examples == []  # the new class's model starts knowing nothing
    assert CommandLab(session=PageSession(LESSON, url=db, student="Ana")).commands == []
    first = Stores(db).drawings.sets(LESSON)[0]["id"]
    _, _, page = c.get(dash.root + "drawings?set=" + first)
    assert "1 drawing." in page and "1 typed command." in page  # nothing lost


def test_the_forms_need_the_login_the_xsrf_token_and_real_ids(dash, db):
    did = Stores(db).drawings.save(Writer("Ana", trusted=True), LESSON, "Data", FLAG)
    status, _, _ = Client(follow=False).post(dash.root + "drawings/delete", {"id": did, "kind": "drawing"})
    assert status in (302, 403)
    c = teacher(dash)
    _, _, page = c.get(dash.root + "drawings")
    assert c.post(dash.root + "drawings/delete", {"id": did, "kind": "drawing"})[0] == 403  # no XSRF token
    token = xsrf(page)
    for fields, code in (({"id": "not-an-id", "kind": "drawing"}, 400), ({"id": did, "kind": "cat"}, 400),
                         ({"id": "00000000-0000-4000-8000-000000000000", "kind": "drawing"}, 404)):
        assert c.post(dash.root + "drawings/delete", {"_xsrf": token, **fields})[0] == code
    assert c.post(dash.root + "drawings/new-set", {"_xsrf": token, "name": "   "})[0] == 400
    assert c.get(dash.root + "drawings?set=nope")[0] == 400
