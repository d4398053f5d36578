"""The Discuss journal: answers are saved once, never lost, and read back by their owner."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import uuid

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokens_edu import load_cards
from tokens_edu.store import answers
from tokens_edu.session.journal import Journal
from tokens_edu.store.schema import COLUMNS

N_PROCS = 30
N_EACH = 50


def _url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def _writer(url: str, student: str, n: int, start) -> None:
    """One student's kernel: wait for the start signal, then save ``n`` answers in a row."""
    journal = Journal(url, student=student, lesson="load")
    start.wait()
    for i in range(n):
        journal.save("Neural Network", f"{student} answer {i}")


@pytest.fixture
def no_rate_limit(monkeypatch):
    """Many saves by one student in a row: these tests are about many writers at once."""
    monkeypatch.setattr(answers, "SAVE_LIMITS", ((10**6, 60.0),))


@pytest.mark.slow
def test_thirty_processes_writing_at_once_lose_nothing(tmp_path, no_rate_limit):
    url = _url(tmp_path)
    Journal(url)  # the table exists; the next test covers a crowd making it
    ctx = mp.get_context("fork")  # fast start; each child opens its own Journal (no shared connection)
    start = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(url, f"student{k:02d}", N_EACH, start))
             for k in range(N_PROCS)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0] * N_PROCS

    everyone = Journal(url, student="teacher").answers(all_students=True)
    assert len(everyone) == N_PROCS * N_EACH == 1500
    assert everyone["id"].is_unique
    counts = everyone.groupby("student").size()
    assert len(counts) == N_PROCS and (counts == N_EACH).all()
    one = Journal(url, student="student07").answers()
    assert sorted(one["answer"]) == sorted(f"student07 answer {i}" for i in range(N_EACH))
    mode = sqlite3.connect(tmp_path / "journal.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_fresh_database_made_by_many_processes_at_once(tmp_path, no_rate_limit):
    """No table yet: 8 kernels open the journal at the same moment; all of them work."""
    url = _url(tmp_path)
    ctx = mp.get_context("fork")
    start = ctx.Event()
    start.set()
    procs = [ctx.Process(target=_writer, args=(url, f"s{k}", 3, start)) for k in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0] * 8
    assert len(Journal(url).answers(all_students=True)) == 24


def test_retried_save_with_same_id_is_stored_once(tmp_path):
    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    first = j.save("Neural Network", "It learns.")
    again = j.save("Neural Network", "It learns.", answer_id=first)
    assert again == first
    given = str(uuid.uuid4())
    assert j.save("Chatbot", "Talks.", answer_id=given) == given
    j.save("Chatbot", "Talks.", answer_id=given)
    df = j.answers()
    assert len(df) == 2
    assert set(df["id"]) == {first, given}


def test_row_has_every_column_and_is_stored_as_typed(tmp_path):
    j = Journal(_url(tmp_path), student="  Ana  ", lesson="lesson-2")
    typed = "  It <b>learns</b> & copies\npatterns 🙂 "
    row_id = j.save("neural network", typed)
    df = j.answers()
    assert list(df.columns) == COLUMNS
    row = df.iloc[0]
    card = load_cards()["Neural Network"]
    assert row["id"] == row_id
    assert (row["student"], row["lesson"], row["card"]) == ("Ana", "lesson-2", "Neural Network")
    assert row["prompt"] == card.discuss
    assert row["answer"] == typed
    assert str(row["saved_at"].tz) == "UTC"
    assert abs(pd.Timestamp.now(tz="UTC") - row["saved_at"]) < pd.Timedelta(minutes=5)


def test_custom_prompt_and_lesson(tmp_path):
    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    j.save("Chatbot", "yes", prompt="Would you trust it?", lesson="l9")
    row = j.answers().iloc[0]
    assert (row["prompt"], row["lesson"]) == ("Would you trust it?", "l9")
    assert j.answer_for("Chatbot") is None
    assert j.answer_for("Chatbot", lesson="l9") == "yes"


def test_answer_for_gives_the_latest(tmp_path):
    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    assert j.answer_for("Chatbot") is None
    j.save("Chatbot", "first try")
    j.save("Chatbot", "second try")
    assert j.answer_for("Chatbot") == "second try"
    assert Journal(_url(tmp_path), student="Ana", lesson="l1").answer_for("chatbot") == "second try"


def test_students_read_only_their_own_answers(tmp_path):
    url = _url(tmp_path)
    ana, bo = Journal(url, student="Ana"), Journal(url, student="Bo")
    ana.save("Chatbot", "Ana's words")
    bo.save("Chatbot", "Bo's words")
    assert list(ana.answers()["answer"]) == ["Ana's words"]
    assert list(bo.answers()["answer"]) == ["Bo's words"]
    assert bo.answer_for("Chatbot") == "Bo's words"
    assert len(ana.answers(all_students=True)) == 2
    nobody = Journal(url)
    assert nobody.answers().empty and list(nobody.answers().columns) == COLUMNS
    assert nobody.answer_for("Chatbot") is None


@pytest.mark.parametrize("answer", ["", "   ", "\n\t "])
def test_empty_answer_is_refused_and_nothing_saved(tmp_path, answer):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="Your answer is empty"):
        j.save("Chatbot", answer)
    assert j.answers(all_students=True).empty


def test_too_long_answer_is_refused_in_plain_words(tmp_path):
    from tokens_edu.store.schema import MAX_ANSWER

    j = Journal(_url(tmp_path), student="Ana")
    assert MAX_ANSWER == 5000
    with pytest.raises(ValueError, match=r"too long to save: 100,000 characters\. The most is 5,000"):
        j.save("Chatbot", "x" * 100_000)
    with pytest.raises(ValueError, match="too long"):
        j.save("Chatbot", "é" * (MAX_ANSWER + 1))
    assert j.answers(all_students=True).empty
    j.save("Chatbot", "y" * MAX_ANSWER)  # the limit itself is saved, exactly
    assert j.answer_for("Chatbot") == "y" * MAX_ANSWER


def test_no_name_is_refused_with_a_plain_message(tmp_path):
    j = Journal(_url(tmp_path))
    with pytest.raises(ValueError, match=r"^Type your name first, then save\.$"):
        j.save("Chatbot", "words")
    assert j.answers(all_students=True).empty


def test_unknown_card_and_bad_id_are_refused(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="no card called 'Nueral Netwrk'.*Neural Network"):
        j.save("Nueral Netwrk", "words")
    with pytest.raises(ValueError, match="not an answer id"):
        j.save("Chatbot", "words", answer_id="abc")
    assert j.answers(all_students=True).empty


_answers = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=300).filter(
    lambda t: t.strip() != "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answer=_answers)
def test_any_answer_comes_back_exactly_as_typed(tmp_path, no_rate_limit, answer):
    j = Journal(_url(tmp_path), student="Ana", lesson="prop")
    row_id = j.save("Chatbot", answer)
    assert j.answer_for("Chatbot") == answer
    assert j.answers().set_index("id").loc[row_id, "answer"] == answer


def test_broken_character_is_refused_in_plain_words(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="broken character"):
        j.save("Chatbot", "half an emoji \ud83d")
    with pytest.raises(ValueError, match="broken character"):
        j.student = "B\udc00o"
    assert j.answers(all_students=True).empty and j.student == "Ana"


def test_drafts_are_kept_replaced_and_removed_by_saving(tmp_path):
    url = _url(tmp_path)
    j = Journal(url, student="Ana", lesson="l1")
    assert j.draft_for("Chatbot") is None
    j.save_draft("Chatbot", "I think")
    j.save_draft("chatbot", "I think it guesses")  # one draft per card: replaced
    draft = j.draft_for("Chatbot")
    assert draft.text == "I think it guesses"
    assert abs(pd.Timestamp.now(tz="UTC") - pd.Timestamp(draft.saved_at)) < pd.Timedelta(minutes=5)
    # another student, lesson or card has no draft; a new Journal (a reload) finds it
    assert Journal(url, student="Bo", lesson="l1").draft_for("Chatbot") is None
    assert Journal(url, student="Ana", lesson="l2").draft_for("Chatbot") is None
    assert Journal(url, student="Ana", lesson="l1").draft_for("Chatbot").text == "I think it guesses"
    # a draft is not an answer: answers, the teacher's table and the export never show it
    assert j.answers(all_students=True).empty
    assert j.export_csv(tmp_path / "a.csv", all_students=True) == 0
    j.save("Chatbot", "It guesses the next word.")
    assert j.draft_for("Chatbot") is None  # saving removes the draft
    j.save_draft("Chatbot", "more")
    j.save_draft("Chatbot", "   ")  # emptied box: no draft
    assert j.draft_for("Chatbot") is None
    with pytest.raises(ValueError, match="Type your name first"):
        Journal(url).save_draft("Chatbot", "x")


def test_draft_over_the_limit_is_kept_cut(tmp_path):
    from tokens_edu.store.schema import MAX_ANSWER

    j = Journal(_url(tmp_path), student="Ana")
    j.save_draft("Chatbot", "x" * (MAX_ANSWER + 10))
    assert j.draft_for("Chatbot").text == "x" * MAX_ANSWER


def test_answers_since_for_a_live_view(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    j.save("Chatbot", "one")
    t = j.answers()["saved_at"].iloc[-1].to_pydatetime()
    j.save("Chatbot", "two")
    assert list(j.answers(all_students=True, since=t)["answer"]) == ["two"]


# --- the save rate limit (issue 20: one student saved 1,711 rows of 5,000 characters in 15 s) --

def test_one_student_cannot_flood_the_answers(tmp_path):
    url = _url(tmp_path)
    flood = Journal(url, student="Ana", lesson="l1")
    text = "x" * 5000
    stored, refused = [], 0
    for _ in range(300):  # as fast as a script can press Save
        try:
            stored.append(flood.save("Chatbot", text))
        except ValueError as e:
            assert str(e) == answers.TOO_FAST
            refused += 1
    assert len(stored) == 10 and refused == 290
    assert "Wait a minute" in answers.TOO_FAST and "still in the box" in answers.TOO_FAST
    # another page (another kernel, another tab) under the same name is counted with it
    with pytest.raises(ValueError, match="saving very often"):
        Journal(url, student="Ana", lesson="l2").save("Neural Network", "hello")
    # a retry of a save that was stored is not refused, and stores nothing new
    assert flood.save("Chatbot", text, answer_id=stored[0]) == stored[0]
    # a page that types a new name before each save is counted as one page
    hopper = Journal(url, lesson="l1")
    for i in range(10):
        hopper.student = f"name {i}"
        hopper.save("Chatbot", "hi")
    hopper.student = "name 10"
    with pytest.raises(ValueError, match="saving very often"):
        hopper.save("Chatbot", "hi")
    # other students save as usual
    Journal(url, student="Bo").save("Chatbot", "Bo's words")
    counts = Journal(url).answers(all_students=True).groupby("student").size()
    assert counts["Ana"] == 10 and counts["Bo"] == 1 and len(counts) == 12


def test_the_limit_is_per_minute_and_per_hour(tmp_path, monkeypatch):
    """Saves older than a minute count only towards the hour: 60 an hour at most."""
    import time
    from datetime import datetime, timedelta, timezone

    import sqlalchemy as sa

    from tokens_edu.store import schema

    url = _url(tmp_path)
    ana = Journal(url, student="Ana", lesson="l1")
    old = datetime.now(timezone.utc) - timedelta(minutes=30)
    with ana.engine.begin() as conn:
        conn.execute(schema.answers.insert(), [
            {"id": str(uuid.UUID(int=i)), "student": "Ana", "lesson": "l1", "card": "Chatbot", "prompt": "",
             "answer": "earlier", "saved_at": old} for i in range(55)])
    for _ in range(5):
        ana.save("Chatbot", "now")
    with pytest.raises(ValueError, match="saving very often"):
        ana.save("Chatbot", "one more")  # 60 this hour
    with ana.engine.begin() as conn:  # an hour later
        conn.execute(schema.answers.update().values(saved_at=old - timedelta(hours=1)))
    clock = time.monotonic() + 3601
    monkeypatch.setattr(answers.time, "monotonic", lambda: clock)
    ana.save("Chatbot", "an hour later")
    with ana.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.answers)).scalar() == 61


def test_drafts_are_kept_at_most_once_a_second_on_average(tmp_path):
    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    kept = sum(j.save_draft("Chatbot", f"draft {i}") for i in range(100))
    assert kept == answers.DRAFTS_PER_MINUTE == 60
    assert j.draft_for("Chatbot").text == "draft 59"  # the last one kept
    assert not j.save_draft("Chatbot", "")  # emptying the box always works
    assert j.draft_for("Chatbot") is None
