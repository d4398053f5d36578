"""Nothing from a page grows without bound at the server (issue 29.1): a websocket message is at
most 1 MiB, and one kernel's memory is capped; when a page passes either, that page (only)
ends in plain words and the class goes on.

A script talks to its own page's kernel as a determined student could (``KernelChannel``: the
widget protocol's messages on the kernel websocket, no browser). The lesson here has a widget
whose value makes its kernel hold that many MiB: a stand-in for any door a page might still
find (lesson 8's grid size was one: 2.1 GB from one 40-byte message). Broken before: a 2 MiB
message was read whole and passed on (Jupyter's limit is 10 MiB a message), and a kernel could
take 3 GiB and keep it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import nbformat
import psutil
from serving import KernelChannel, Page, Serve, kernel_status, model_ids, tiny_lessons

from tokens_edu.server.limits import KERNEL_DATA_MIB, KERNEL_STOP_MIB, MEMORY_TEXT, WS_MAX_BYTES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("limits")
    lessons = tiny_lessons(tmp / "lessons")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(
        "import ipywidgets as w\n"
        "held = []\n"
        "size = w.IntText(value=0)\n"
        "size.observe(lambda change: held.append(bytearray(change['new'] * 2 ** 20)), names='value')\n"
        "size")]
    nbformat.write(nb, lessons / "hungry.ipynb")
    tmpdir = Path(tempfile.mkdtemp(prefix="tl-", dir="/tmp"))  # short: kernel sockets live here
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        env.pop(var, None)
    srv = Serve(["--lessons", str(lessons), "--pool-size", "1", "--preheat-only", "tiny",
                 "--preheat-only", "hungry", "--data-dir", str(tmp / "data")], env)
    try:
        srv.wait_warm()
        yield srv
    finally:
        srv.stop()
        shutil.rmtree(tmpdir, ignore_errors=True)


def _until(condition, what: str, limit: float = 60.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"not within {limit} s: {what}")


def _class_goes_on(server) -> None:
    """Another student's page opens and its kernel answers."""
    page = Page(server, "/voila/render/tiny.ipynb?student=next", connect=False)
    try:
        assert page.status == 200 and page.kernel_id
        channel = KernelChannel(server, page.kernel_id)
        try:
            assert channel.ask("kernel_info_request")["status"] == "ok"
        finally:
            channel.close()
    finally:
        page.close()


def test_a_message_over_the_limit_closes_only_that_connection(server):
    import json

    import websockets.exceptions

    assert WS_MAX_BYTES == 1024 * 1024
    page = Page(server, "/voila/render/tiny.ipynb?student=eve")
    channel = KernelChannel(server, page.kernel_id)
    try:
        assert channel.ask("kernel_info_request")["status"] == "ok"
        big = channel.message("comm_msg", {"comm_id": "x" * 32, "data": {
            "method": "update", "state": {"description": "x" * (2 * WS_MAX_BYTES)}}})
        channel.send_raw(json.dumps(big))
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            channel.ask("kernel_info_request", timeout=30)
        # message too big: the server closes with 1009; while the client is still sending the
        # 2 MiB, the close frame can be lost to the socket's reset (rcvd None): closed either way
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
        # the page's kernel still runs; a new connection works; the class goes on
        assert kernel_status(server, page.kernel_id)["state"] == "running"
        again = KernelChannel(server, page.kernel_id)
        try:
            assert again.ask("kernel_info_request")["status"] == "ok"
        finally:
            again.close()
        _class_goes_on(server)
    finally:
        channel.close()
        page.close()
    assert server.proc.poll() is None


def _rss_mib(server, kernel_id: str) -> float:
    return psutil.Process(server.kernels()[kernel_id]).memory_info().rss / 2 ** 20


def test_a_kernel_cannot_take_more_than_its_memory_and_is_stopped_past_it(server):
    assert KERNEL_STOP_MIB < KERNEL_DATA_MIB <= 2048
    page = Page(server, "/voila/render/hungry.ipynb?student=mal")
    assert page.status == 200
    (model,) = model_ids(page.html)
    channel = KernelChannel(server, page.kernel_id)
    try:
        # past the data limit: the allocation fails in the kernel, which goes on, small
        channel.update(model, {"value": 3 * 1024})
        assert channel.ask("kernel_info_request")["status"] == "ok"
        assert _rss_mib(server, page.kernel_id) < KERNEL_STOP_MIB
        assert kernel_status(server, page.kernel_id)["state"] == "running"
        # under the data limit but past the stop line: the server stops this kernel
        before = len(server.out)
        channel.update(model, {"value": KERNEL_STOP_MIB + 50})
        assert channel.ask("kernel_info_request")["status"] == "ok"
        status = _until(lambda: (lambda s: s if s["state"] == "gone" else None)(
            kernel_status(server, page.kernel_id)), "the kernel is stopped", 60)
        assert status == {"state": "gone", "connected": False, "why": "memory"}
        line = _until(lambda: next((x for x in server.out[before:] if "MiB of memory" in x), None),
                      "the console says so", 20)
        assert "hungry.ipynb" in line and f"more than {KERNEL_STOP_MIB} MiB" in line
        # the page's guard has the plain words for it
        assert json_text(MEMORY_TEXT) in page.html
        _class_goes_on(server)
    finally:
        channel.close()
        page.close()
    assert server.proc.poll() is None


def json_text(text: str) -> str:
    """``text`` as the page's script holds it (a JSON string, HTML-safe)."""
    from jinja2.utils import htmlsafe_json_dumps

    return str(htmlsafe_json_dumps(text))
