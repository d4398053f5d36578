"""The Discuss journal: answers are saved once, never lost, and read back by their owner."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import uuid

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.dialects import postgresql

from tokens_edu import load_cards
from tokens_edu.journal import (
    COLUMNS,
    Journal,
    _insert_or_ignore,
    default_url,
    student_from_query,
)

N_PROCS = 30
N_EACH = 50


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    """No test sees the machine's JupyterHub login, database URL or data folder."""
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))


def _url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


def _writer(url: str, student: str, n: int, start) -> None:
    """One student's kernel: wait for the start signal, then save ``n`` answers in a row."""
    journal = Journal(url, student=student, lesson="load")
    start.wait()
    for i in range(n):
        journal.save("Neural Network", f"{student} answer {i}")


def test_thirty_processes_writing_at_once_lose_nothing(tmp_path):
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


def test_fresh_database_made_by_many_processes_at_once(tmp_path):
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


def test_jupyterhub_login_locks_the_name(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    j = Journal(_url(tmp_path), student="bo")
    assert j.student == "ana" and j.student_locked
    with pytest.raises(ValueError, match="logged in as ana"):
        j.student = "bo"
    assert j.student == "ana"
    j.save("Chatbot", "mine")
    assert set(j.answers(all_students=True)["student"]) == {"ana"}


def test_name_can_be_set_without_hub(tmp_path):
    j = Journal(_url(tmp_path))
    assert j.student is None and not j.student_locked
    j.student = " Bo "
    assert j.student == "Bo"
    for bad in ("", "   ", "x" * 200):
        with pytest.raises(ValueError):
            j.student = bad
    assert j.student == "Bo"


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


def test_export_csv_writes_the_rows(tmp_path):
    url = _url(tmp_path)
    ana = Journal(url, student="Ana", lesson="l1")
    ana.save("Chatbot", 'She said "hi", then\nleft')
    ana.save("Neural Network", "=1+1")
    Journal(url, student="Bo").save("Chatbot", "Bo")
    out = tmp_path / "answers.csv"
    assert ana.export_csv(out) == 2
    back = pd.read_csv(out, keep_default_na=False)
    assert list(back.columns) == COLUMNS
    assert list(back["answer"]) == ['She said "hi", then\nleft', "=1+1"]
    assert set(back["student"]) == {"Ana"}
    assert ana.export_csv(out, all_students=True) == 3
    assert len(pd.read_csv(out)) == 3


def test_export_to_a_missing_folder_is_a_plain_error(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="Cannot write"):
        j.export_csv(tmp_path / "no" / "such" / "dir" / "a.csv")


@pytest.mark.parametrize("answer", ["", "   ", "\n\t "])
def test_empty_answer_is_refused_and_nothing_saved(tmp_path, answer):
    j = Journal(_url(tmp_path), student="Ana")
    with pytest.raises(ValueError, match="Your answer is empty"):
        j.save("Chatbot", answer)
    assert j.answers(all_students=True).empty


def test_too_long_answer_is_refused_in_plain_words(tmp_path):
    from tokens_edu.journal import MAX_ANSWER

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


def test_default_url_uses_data_folder_then_env_url(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "d" / "e"))
    assert default_url() == f"sqlite:///{tmp_path / 'd' / 'e' / 'journal.sqlite'}"
    assert (tmp_path / "d" / "e").is_dir()
    j = Journal(student="Ana")
    j.save("Chatbot", "x")
    assert (tmp_path / "d" / "e" / "journal.sqlite").exists()
    monkeypatch.setenv("TOKENS_EDU_DB_URL", "postgresql+psycopg://u@db/x")
    assert default_url() == "postgresql+psycopg://u@db/x"


def test_default_url_falls_back_to_user_data_dir(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.delenv("TOKENS_EDU_DATA")
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "u" / app))
    assert default_url() == f"sqlite:///{tmp_path / 'u' / 'tokens-edu' / 'journal.sqlite'}"


def test_postgres_save_is_an_insert_on_conflict_do_nothing(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")

    class FakePG:
        dialect = postgresql.dialect()

    stmt = _insert_or_ignore(FakePG(), {"id": "x", "student": "Ana", "lesson": "", "card": "C",
                                        "prompt": "", "answer": "a", "saved_at": None})
    sql = str(stmt.compile(dialect=postgresql.dialect()))
    assert "ON CONFLICT (id) DO NOTHING" in sql
    assert j  # the SQLite journal still opens


def test_student_from_query():
    assert student_from_query("?student=ana") == "ana"
    assert student_from_query("lesson=2&student=Bo%20Li") == "Bo Li"
    assert student_from_query("") == ""
    assert student_from_query("student=") == ""


def test_student_from_query_reads_the_environment(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "student=cara")
    assert student_from_query() == "cara"


def test_unopenable_database_is_a_plain_error(tmp_path):
    (tmp_path / "adir").mkdir()
    with pytest.raises(ValueError, match="cannot be opened"):
        Journal(f"sqlite:///{tmp_path / 'adir'}")


def test_preheated_kernel_asks_voila_once_for_the_query(monkeypatch):
    """With --preheat_kernel the env var is not there yet: wait for Voila's request message."""
    import asyncio
    import json
    import socket
    import threading

    import websockets

    from tokens_edu import journal as jmod

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    paths = []
    ready = threading.Event()
    stop = threading.Event()

    async def handler(ws):  # what Voila's RequestInfoSocketHandler does
        paths.append(ws.request.path if hasattr(ws, "request") else ws.path)
        await ws.send(json.dumps({"QUERY_STRING": "student=zed", "SCRIPT_NAME": "/x"}))

    async def serve():
        async with websockets.serve(handler, "127.0.0.1", port):
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.05)

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        monkeypatch.setattr(jmod, "_query_cache", None)
        monkeypatch.setenv("VOILA_PREHEAT", "True")
        monkeypatch.setenv("VOILA_APP_PORT", str(port))
        monkeypatch.setenv("VOILA_KERNEL_ID", "k-123")
        monkeypatch.setenv("QUERY_STRING", "student=stale")
        assert student_from_query() == "zed"
        assert student_from_query() == "zed"
        assert paths == ["/voila/query/k-123"]  # asked once: Voila sends the request only once
    finally:
        stop.set()
        thread.join(10)
        monkeypatch.setattr(jmod, "_query_cache", None)


def test_preheated_kernel_without_server_gives_no_prefill(monkeypatch):
    import socket

    from tokens_edu import journal as jmod

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(jmod, "_query_cache", None)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    assert student_from_query() == ""
    monkeypatch.setattr(jmod, "_query_cache", None)


_answers = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=300).filter(
    lambda t: t.strip() != "")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answer=_answers)
def test_any_answer_comes_back_exactly_as_typed(tmp_path, answer):
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
