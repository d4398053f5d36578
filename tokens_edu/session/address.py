"""The page's address: the query of the Voila page a lesson kernel runs for (``?student=``,
``?code=``, ``?hints=``), also in a warm (preheated) kernel that ran the lesson before anyone asked
for the page.

Voila gives a kernel its page's query as ``os.environ["QUERY_STRING"]``. A warm kernel
(``VOILA_PREHEAT=True``) runs the notebook *before* its page is asked for, so the variable is not
there yet: :func:`query_string` then waits for the page's request over Voila's
``voila/query/<kernel id>`` websocket (:func:`_wait_for_voila_request`). Code that only *may*
need the query should first ask :func:`query_known`, and wait for a later moment when it is
False: everything after the first reading runs while the student waits.

This is a web concern, so it lives in the session layer (:mod:`tokens_edu.session`), not in the
store.
"""

from __future__ import annotations

import logging
import os
from urllib.parse import parse_qs

from ..content.names import clean_name
from ..store.roster import normalize_code
from ..store.schema import MAX_NAME

__all__ = ["query_string", "query_known", "student_from_query", "code_from_query",
           "client_address", "CLIENT_ENV"]

#: Where ``tokens-edu serve`` puts the page's computer (the address the page was asked from):
#: the server sets the request header ``X-Tokens-Edu-Client`` itself and Voila hands it to the
#: kernel with the page's request (``tokens_edu.server.pages``).
CLIENT_ENV = "HTTP_X_TOKENS_EDU_CLIENT"

log = logging.getLogger(__name__)

_query_cache: str | None = None


def _voila_ws_url() -> str:
    """Where a preheated kernel asks Voila for its page's request (as ``voila.utils`` does)."""
    env = os.environ.get
    server_url = env("VOILA_SERVER_URL", "/")
    base = env("VOILA_WS_BASE_URL", server_url)
    return (f"{env('VOILA_WS_PROTOCOL', 'ws')}://{env('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env('VOILA_APP_PORT', '8866')}{base}voila/query/{env('VOILA_KERNEL_ID', '')}")


def _wait_for_voila_request() -> None:
    """Block until Voila sends this preheated kernel its page request; copy it to os.environ.

    The same protocol as ``voila.utils.wait_for_request`` (Voila 0.5): one JSON message on the
    ``voila/query/<kernel id>`` websocket, holding ``QUERY_STRING`` and the other request
    variables. Done here with the small ``websockets`` client (a Voila dependency) because
    importing ``voila.utils`` in every kernel costs seconds and about 50 MiB (it imports the
    whole Jupyter server). Runs in a thread: the kernel's own event loop is already running.

    A warm kernel waits here, before any page asks for it, for as long as it stays in the pool.
    The server limits how long a page may take once it has taken the kernel; a lost connection
    ends the wait with an error (no name prefilled).
    """
    import asyncio  # only a warm kernel gets here: the others never load the websocket client
    import json
    import threading

    import websockets

    box: dict = {}

    url = _voila_ws_url()
    options = {}
    if url.startswith("wss://"):  # tokens-edu serve --certfile: this kernel's own server, on
        import ssl  # this computer (127.0.0.1), whose certificate names the school's address

        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        options["ssl"] = context

    async def receive():
        async with websockets.connect(url, open_timeout=5, **options) as ws:
            return await ws.recv()

    def run():
        try:
            box["msg"] = asyncio.run(receive())
        except Exception as e:  # reported below, in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=run, name="voila-request-info", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    for key, value in json.loads(box["msg"]).items():
        os.environ[key] = str(value)


def query_string() -> str:
    """The query part of the Voila page's address (``"student=ana&x=1"``), or ``""``.

    Voila gives the page's query to the kernel as ``os.environ["QUERY_STRING"]``. With
    preheated kernels (``VOILA_PREHEAT=True`` in the kernel) the kernel runs the notebook
    *before* anyone asks for the page, so that variable is not there yet; this waits for the
    page's request (:func:`_wait_for_voila_request`, falling back to Voila's own helper). A
    kernel is sent its request once, so the answer is remembered.

    Returns:
        str: the query string without the leading ``?`` (may be empty).
    """
    global _query_cache
    if _query_cache is not None:
        return _query_cache
    if os.environ.get("VOILA_PREHEAT", "False") == "True":
        try:
            try:
                _wait_for_voila_request()
                _query_cache = os.environ.get("QUERY_STRING") or ""
            except ImportError:
                from voila.utils import get_query_string  # only without the websockets client

                _query_cache = get_query_string() or ""
        except Exception:  # the server went away: no prefill, never a crash
            log.info("Could not read the page's query from Voila.", exc_info=True)
            _query_cache = ""
        return _query_cache.lstrip("?")
    return (os.environ.get("QUERY_STRING") or "").lstrip("?")


def query_known() -> bool:
    """True when the page's query can be read at once; False in a preheated (warm) kernel whose
    page has not been asked for yet, where :func:`query_string` would wait for it.

    Code that only *may* need the student's name (keeping a game, say) should wait for a later
    moment when this is False: everything after the first reading runs while the student waits.
    """
    return os.environ.get("VOILA_PREHEAT", "False") != "True" or _query_cache is not None


def student_from_query(query: str | None = None) -> str:
    """The ``student=`` value of the page's query, to prefill the name box (not a login).

    Args:
        query: a query string like ``"?student=ana"``; None reads it from the page
            (:func:`query_string`).

    Returns:
        str: the first ``student`` value cleaned as every typed name is, at most
        :data:`~tokens_edu.store.schema.MAX_NAME` characters; ``""`` when there is none.
    """
    if query is None:
        query = query_string()
    values = parse_qs(query.lstrip("?")).get("student", [])
    if not values:
        return ""
    return clean_name(values[0])[:MAX_NAME].strip()


def code_from_query(query: str | None = None) -> str:
    """The ``code=`` value of the page's query (``"?code=KT4PXM"``), normalized; ``""`` if none.

    Args:
        query: a query string; None reads the page's own (:func:`query_string`, which waits
            for Voila's request in a preheated kernel).
    """
    if query is None:
        query = query_string()
    values = parse_qs((query or "").lstrip("?")).get("code", [])
    return normalize_code(values[0]) if values else ""


def client_address() -> str:
    """The page's computer as ``tokens-edu serve`` saw it (its address, ``"10.0.4.17"``), or
    ``""`` when not served so (a notebook in JupyterLab, JupyterHub, plain Voila). In a warm
    kernel it is known once its page is asked for (read with the page's query,
    :func:`query_string`, which this waits for).

    Behind a proxy or a NAT every page has the proxy's address: then it tells nothing apart.
    """
    if os.environ.get("VOILA_PREHEAT", "False") == "True":
        query_string()
    value = os.environ.get(CLIENT_ENV, "").strip()
    return value if len(value) <= 64 and all(c.isalnum() or c in ".:%-_" for c in value) else ""
