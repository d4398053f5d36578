"""Who the page's student is (tokens_edu.session.page): logins, names, the page's query."""

from __future__ import annotations

import pytest

from tokens_edu.session.journal import Journal
from tokens_edu.session import student_from_query


def _url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'journal.sqlite'}"


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


def test_student_from_query():
    assert student_from_query("?student=ana") == "ana"
    assert student_from_query("lesson=2&student=Bo%20Li") == "Bo Li"
    assert student_from_query("") == ""
    assert student_from_query("student=") == ""


def test_student_from_query_reads_the_environment(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "student=cara")
    assert student_from_query() == "cara"


def test_preheated_kernel_asks_voila_once_for_the_query(monkeypatch):
    """With --preheat_kernel the env var is not there yet: wait for Voila's request message."""
    import asyncio
    import json
    import socket
    import threading

    import websockets

    from tokens_edu.session import address as jmod

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

    from tokens_edu.session import address as jmod

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(jmod, "_query_cache", None)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    assert student_from_query() == ""
    monkeypatch.setattr(jmod, "_query_cache", None)


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
