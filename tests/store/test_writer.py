"""The store takes a small frozen Writer (name, trusted, browser) per call (issue 26 part 1), and
its save limits count per browser with a truthful wait (issue 29 part 3)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta, timezone

import pytest
import sqlalchemy as sa

from tokens_edu.store import Stores, Writer, schema
from tokens_edu.store.limits import TooFast, too_fast_message

EVE = "e" * 64  # the hash of Eve's browser secret
BO = "b" * 64


@pytest.fixture
def stores(tmp_path):
    return Stores(f"sqlite:///{tmp_path / 'journal.sqlite'}")


def test_a_writer_is_a_frozen_value_with_a_clean_name():
    w = Writer("  Ana\u202e  Li ", trusted=True, browser=BO)
    assert (w.name, w.trusted, w.browser) == ("Ana Li", True, BO)
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.name = "Bo"
    assert Writer("Ana") == Writer("Ana", False, "") and hash(Writer("Ana")) == hash(Writer(" Ana "))
    for bad in (dict(name=""), dict(name="x" * 61), dict(name=3), dict(name="Ana", trusted=1),
                dict(name="Ana", browser="not-a-hash"), dict(name="Ana", browser="B" * 64)):
        with pytest.raises(ValueError):
            Writer(**bad)


def test_each_call_takes_the_writer_and_a_typed_name_reads_only_its_browser(stores):
    bo_here = Writer("Bo", browser=BO)
    stores.answers.save(bo_here, "l1", "Chatbot", "Bo's words")
    stores.answers.save_draft(bo_here, "l1", "GPT", "half a thought")
    stores.responses.save(bo_here, "l1", "q1", "yes", correct=True)
    stores.drawings.save(bo_here, "l1", "cat", [[0, 255]])
    eve_as_bo = Writer("Bo", browser=EVE)  # typed "Bo" in another browser
    assert stores.answers.latest(eve_as_bo, "l1", "Chatbot") is None
    assert stores.answers.draft(eve_as_bo, "l1", "GPT") is None
    assert stores.responses.latest(eve_as_bo, "l1", "q1") is None
    assert stores.drawings.mine(eve_as_bo).empty and stores.answers.mine(eve_as_bo).empty
    assert stores.answers.latest(Writer("Bo"), "l1", "Chatbot") is None  # no browser: nothing
    assert stores.answers.latest(bo_here, "l1", "Chatbot").text == "Bo's words"
    proven = Writer("Bo", trusted=True, browser=EVE)  # a login or a roster code: any browser
    assert stores.answers.latest(proven, "l1", "Chatbot").text == "Bo's words"
    assert stores.answers.draft(proven, "l1", "GPT").text == "half a thought"
    assert stores.responses.latest(proven, "l1", "q1").text == "yes"
    # the teacher's reads take no writer and see everyone's rows (never drafts)
    assert list(stores.answers.table()["student"]) == ["Bo"]
    assert list(stores.responses.table()["answer"]) == ["yes"]
    assert len(stores.drawings.table()) == 1 and len(stores.drawings.for_class("l1")) == 1
    # every row remembers the browser that wrote it
    with stores.engine.connect() as conn:
        assert conn.execute(sa.select(schema.answers.c.browser)).scalars().all() == [BO]


def test_eve_saving_under_bos_name_does_not_block_bo(stores):
    """Issue 29 part 3: the save limit per name was a weapon. Eve saves under "Bo" as often as
    she may; Bo's own saves, from his own browser, go on; Eve is refused, whatever name she types."""
    eve_page, bo_page = Stores(database=stores.database), Stores(database=stores.database)
    for i in range(10):
        eve_page.answers.save(Writer("Bo", browser=EVE), "l1", "Chatbot", f"spam {i}")
    with pytest.raises(TooFast, match="saving very often"):
        eve_page.answers.save(Writer("Bo", browser=EVE), "l1", "Chatbot", "one more")
    with pytest.raises(TooFast):  # another name from the same browser, another page: still Eve
        Stores(database=stores.database).answers.save(Writer("Ana", browser=EVE), "l1", "Chatbot", "x")
    bo_page.answers.save(Writer("Bo", browser=BO), "l1", "Chatbot", "my real answer")
    assert bo_page.answers.latest(Writer("Bo", browser=BO), "l1", "Chatbot").text == "my real answer"


def test_the_journal_of_a_typed_name_is_limited_by_its_browser_not_its_name(tmp_path):
    """The same attack through the lesson's facade (the API today's main has): fails on a store
    that counts saves by name."""
    from tokens_edu.session.journal import Journal

    url = f"sqlite:///{tmp_path / 'journal.sqlite'}"
    eve = Journal(url, lesson="l1")
    eve.set_browser("eve-browser-secret-0123456789abcdef")
    eve.student = "Bo"
    for i in range(10):
        eve.save("Chatbot", f"spam {i}")
    bo = Journal(url, lesson="l1")
    bo.set_browser("bo-browser-secret-0123456789abcdef")
    bo.student = "Bo"
    bo.save("Chatbot", "my real answer")  # on a per-name limit: "You are saving very often"
    assert bo.answer_for("Chatbot") == "my real answer"


def test_the_wait_is_told_truthfully(stores):
    """The message says how long until the oldest save of a full window leaves it."""
    writer = Writer("Ana", browser=EVE)
    for i in range(10):
        stores.answers.save(writer, "l1", "Chatbot", f"answer {i}")
    with pytest.raises(TooFast) as first:
        stores.answers.save(writer, "l1", "Chatbot", "again")
    assert 55 < first.value.wait <= 60 and "Wait a minute" in str(first.value)
    a = schema.answers

    def earlier(seconds):
        with stores.engine.begin() as conn:
            for row_id, at in conn.execute(sa.select(a.c.id, a.c.saved_at)).all():
                at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
                conn.execute(a.update().where(a.c.id == row_id).values(saved_at=at - timedelta(seconds=seconds)))

    earlier(45)  # the ten saves were 45 seconds ago
    fresh = Stores(database=stores.database)  # another page of the same browser
    with pytest.raises(TooFast) as later:
        fresh.answers.save(writer, "l1", "Chatbot", "again")
    assert 10 < later.value.wait <= 15 and "Wait 15 seconds" in str(later.value)
    earlier(16)  # and 61 seconds ago: the minute's window is free
    fresh.answers.save(writer, "l1", "Chatbot", "now it is fine")


def test_the_hour_limit_says_minutes():
    assert too_fast_message(12 * 60 + 5) .startswith("You are saving very often. Wait 13 minutes,")
    assert "Wait 5 seconds" in too_fast_message(0.2) and "Wait 50 seconds" in too_fast_message(46)
    assert "Wait a minute" in too_fast_message(51)
