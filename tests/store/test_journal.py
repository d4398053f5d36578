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
from tokens_edu.store.journal import (
    CANNOT_SAVE,
    COLUMNS,
    SAVE_FAILED,
    Journal,
    JournalUnavailable,
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


@pytest.mark.slow
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
    ana.save("Neural Network", "It learns from examples.")
    Journal(url, student="Bo").save("Chatbot", "Bo")
    out = tmp_path / "answers.csv"
    assert ana.export_csv(out) == 2
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # a BOM: Excel reads UTF-8 right
    back = pd.read_csv(out, keep_default_na=False)
    assert list(back.columns) == COLUMNS
    assert list(back["answer"]) == ['She said "hi", then\nleft', "It learns from examples."]
    assert set(back["student"]) == {"Ana"}
    assert back["saved_at"].str.endswith("+00:00").all()  # UTC, said so
    assert ana.export_csv(out, all_students=True) == 3
    assert len(pd.read_csv(out)) == 3
    assert ana.export_csv(out, all_students=True, students=["Bo"]) == 1
    assert ana.export_csv(out, all_students=True, lessons=["l1"]) == 2
    assert ana.export_csv(out, all_students=True, lessons=["l1"], students=["Bo"]) == 0


RISKY = ["=HYPERLINK(\"http://x.example\",\"click\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1",
         "\r=1", "\uff1d1+1"]


def test_export_writes_formulas_as_text(tmp_path):
    """A spreadsheet never runs a student's answer (or name) as a formula (issue 9 item 9)."""
    url = _url(tmp_path)
    j = Journal(url, student="=cmd|' /C calc'!A0", lesson="l1")
    for text in RISKY:
        j.save("Chatbot", text)
    j.save("Chatbot", "plain words; = in the middle is fine")
    out = tmp_path / "answers.csv"
    assert j.export_csv(out, all_students=True) == len(RISKY) + 1
    back = pd.read_csv(out, keep_default_na=False, dtype=str)
    assert list(back["answer"]) == ["'" + t for t in RISKY] + ["plain words; = in the middle is fine"]
    assert set(back["student"]) == {"'=cmd|' /C calc'!A0"}
    # no cell of the file starts with a formula character
    import csv as csvmod

    with open(out, encoding="utf-8-sig", newline="") as f:
        cells = [c for row in csvmod.reader(f) for c in row]
    assert not [c for c in cells if c[:1] in "=+-@\t\r\uff1d"]


def test_write_csv_takes_dicts_or_a_frame_and_names_the_file_it_cannot_write(tmp_path):
    from tokens_edu.store.journal import spreadsheet_safe, write_csv

    rows = [{"name": "-Ana", "score": 3}, {"name": "Bo", "score": -1}]
    out = tmp_path / "t.csv"
    assert write_csv(rows, out) == 2
    assert out.read_text(encoding="utf-8-sig").splitlines() == ["name,score", "'-Ana,3", "Bo,-1"]
    assert write_csv(pd.DataFrame(rows), out) == 2
    assert spreadsheet_safe(-1) == -1 and spreadsheet_safe("") == "" and spreadsheet_safe("a") == "a"
    with pytest.raises(ValueError, match="Cannot write .*no"):
        write_csv(rows, tmp_path / "no" / "t.csv")


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
    from tokens_edu.store.journal import MAX_ANSWER

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


def test_unopenable_database_never_stops_a_lesson_and_saving_says_so(tmp_path):
    (tmp_path / "adir").mkdir()
    j = Journal(f"sqlite:///{tmp_path / 'adir'}", student="Ana")  # a lesson's first cell: no error
    assert j.problem and not j.available
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "my words")
    assert str(e.value) == CANNOT_SAVE
    assert "Error" not in str(e.value)  # plain words, never an exception's name
    with pytest.raises(JournalUnavailable, match="cannot be read"):
        Journal(f"sqlite:///{tmp_path / 'adir'}", read_only=True)


def test_preheated_kernel_asks_voila_once_for_the_query(monkeypatch):
    """With --preheat_kernel the env var is not there yet: wait for Voila's request message."""
    import asyncio
    import json
    import socket
    import threading

    import websockets

    from tokens_edu.store import journal as jmod

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

    from tokens_edu.store import journal as jmod

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
    from tokens_edu.store.journal import MAX_ANSWER

    j = Journal(_url(tmp_path), student="Ana")
    j.save_draft("Chatbot", "x" * (MAX_ANSWER + 10))
    assert j.draft_for("Chatbot").text == "x" * MAX_ANSWER


def test_read_only_database_keeps_lessons_working(tmp_path):
    """SQLite opened read-only (as in a read-only folder): the journal opens, saving says so."""
    Journal(_url(tmp_path), student="Ana", lesson="l1").save("Chatbot", "from before")
    ro = f"sqlite:///file:{tmp_path / 'journal.sqlite'}?mode=ro&uri=true"
    j = Journal(ro, student="Ana", lesson="l1")  # no exception: the lesson's first cell runs
    assert j.answer_for("Chatbot") == "from before"  # reading still works
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "new words")
    assert str(e.value) == CANNOT_SAVE and "can't be saved right now" in CANNOT_SAVE
    assert "readonly" in j.problem.replace("-", "").replace(" ", "")
    with pytest.raises(JournalUnavailable):
        j.save_draft("Chatbot", "a draft")
    assert Journal(_url(tmp_path), student="Ana", lesson="l1").answer_for("Chatbot") == "from before"


def test_store_that_fails_every_write_says_cannot_save_then_recovers(tmp_path, monkeypatch):
    """A full or read-only store (as SQLite reports it): plain words, then saving works again."""
    import sqlalchemy as sa

    j = Journal(_url(tmp_path), student="Ana", lesson="l1")
    real_begin = j._engine.begin

    def full(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(j._engine, "begin", full)
    for attempt in range(2):
        with pytest.raises(JournalUnavailable) as e:
            j.save("Chatbot", "my words")
        assert str(e.value) == CANNOT_SAVE
    assert j.problem and "disk is full" in j.problem
    with pytest.raises(JournalUnavailable):
        j.save_draft("Chatbot", "a draft")
    monkeypatch.setattr(j._engine, "begin", real_begin)  # space was freed
    j.save("Chatbot", "my words")
    assert j.problem is None and j.answer_for("Chatbot") == "my words"


def test_one_off_database_error_says_try_again(tmp_path, monkeypatch):
    import sqlalchemy as sa

    j = Journal(_url(tmp_path), student="Ana")

    def locked(*a, **k):
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(j._engine, "begin", locked)
    with pytest.raises(JournalUnavailable) as e:
        j.save("Chatbot", "words")
    assert str(e.value) == SAVE_FAILED == ("Your answer couldn't be saved just now. It is still "
                                           "in the box: try Save again.")
    assert j.problem is None  # a one-off: the store is not marked broken


def test_names_are_cleaned_wherever_they_come_from(tmp_path):
    url = _url(tmp_path)
    j = Journal(url, student="\u202eboB\x00", lesson="l1")
    assert j.student == "boB"
    j.student = "  Ana\x1b[31m  Li "
    assert j.student == "Ana[31m Li"
    assert student_from_query("student=%E2%80%AEB%00ob%1B") == "Bob"
    assert student_from_query("student=" + "a" * 100) == "a" * 60
    j.save("Chatbot", "x")
    assert list(j.answers(all_students=True, students=["Ana\u200b[31m Li"])["student"]) == ["Ana[31m Li"]


def test_identify_tells_listeners_but_a_typed_name_does_not(tmp_path):
    j = Journal(_url(tmp_path))
    heard = []
    j.on_identify(heard.append)
    j.student = "Eli"  # typed in a name box: not proof of who is at the page
    assert heard == [] and j.student == "Eli"
    j.identify(" Ana\u200b ")  # a roster login
    assert heard == ["Ana"] and j.student == "Ana"


def test_answers_since_for_a_live_view(tmp_path):
    j = Journal(_url(tmp_path), student="Ana")
    j.save("Chatbot", "one")
    t = j.answers()["saved_at"].iloc[-1].to_pydatetime()
    j.save("Chatbot", "two")
    assert list(j.answers(all_students=True, since=t)["answer"]) == ["two"]


def test_other_tables_can_join_the_journal(tmp_path):
    """The teacher's tools add tables to the journal's metadata; Journal makes them."""
    import sqlalchemy as sa

    from tokens_edu.store import journal as jmod

    extra = sa.Table("test_extra_table", jmod.metadata, sa.Column("k", sa.String(10), primary_key=True))
    try:
        j = Journal(_url(tmp_path))
        with j.engine.begin() as conn:
            conn.execute(extra.insert().values(k="x"))
        with j.engine.connect() as conn:
            assert conn.execute(sa.select(extra.c.k)).scalar() == "x"
    finally:
        jmod.metadata.remove(extra)
