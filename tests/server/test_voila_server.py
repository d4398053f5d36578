"""The parts of ``tokens_edu/voila_server.py`` one by one, without a server (fast).

The real server is exercised in ``test_cli.py``, ``test_serve.py`` and ``test_serve_browser.py``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from pathlib import Path

import pytest

from tokens_edu.server import voila as vs

ROOT = Path(__file__).resolve().parents[2]


class _Renderer:
    notebook_path = "lesson.ipynb"

    def __init__(self, warm: bool):
        self.warm = warm
        self.requested_at = None


async def _collect(agen, limit: float = 30):
    out = []

    async def run():
        async for item in agen:
            out.append(item)

    await asyncio.wait_for(run(), limit)
    return out


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setitem(vs.STATE.settings, "page_timeout", 1.5)
    monkeypatch.setattr(vs.STATE, "km", None)


def test_a_page_that_stalls_ends_with_a_plain_message(quick):
    async def stalls():
        yield "<head>", None
        await asyncio.sleep(3600)
        yield "never", None

    t = time.monotonic()
    out = asyncio.run(_collect(vs._guarded(stalls(), _Renderer(warm=False), "k1")))
    assert [html for html, _ in out] == ["<head>", vs.PAGE_FAILED_HTML]
    assert time.monotonic() - t < 6
    assert "Reload the page" in vs.PAGE_FAILED_HTML


def test_a_page_whose_rendering_raises_ends_with_the_message(quick):
    async def breaks():
        yield "<head>", None
        raise RuntimeError("kernel died")

    out = asyncio.run(_collect(vs._guarded(breaks(), _Renderer(warm=False), "k1")))
    assert [html for html, _ in out] == ["<head>", vs.PAGE_FAILED_HTML]


def test_a_warm_kernel_waits_for_its_page_without_a_limit_then_the_limit_starts(quick):
    renderer = _Renderer(warm=True)

    async def scenario():
        async def waits():
            yield "<head>", None
            await asyncio.sleep(3600)  # waiting for its page's request
            yield "never", None

        agen = vs._guarded(waits(), renderer, "k1")
        first = await agen.__anext__()
        step = asyncio.ensure_future(agen.__anext__())
        await asyncio.sleep(3)  # twice the limit: no page has asked yet, so it keeps waiting
        assert not step.done()
        renderer.requested_at = asyncio.get_running_loop().time()  # a page takes the kernel
        second = await asyncio.wait_for(step, 5)
        return first, second

    first, second = asyncio.run(scenario())
    assert first[0] == "<head>" and second[0] == vs.PAGE_FAILED_HTML


def test_pages_ask_no_other_computer_for_anything(quick):
    head = ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/'
            'fontawesome-free@^5/css/all.min.css" type="text/css" />\n'
            '<script src="//cdn.example/x.js"></script>'
            '<link rel="stylesheet" href="/voila/static/index.css">')

    async def page():
        yield head, {"r": 1}

    out = asyncio.run(_collect(vs._guarded(page(), _Renderer(warm=False), "k1")))
    assert out == [('\n<link rel="stylesheet" href="/voila/static/index.css">', {"r": 1})]


def test_query_socket_close_removes_only_its_own_waiter():
    class FakeBase:  # Voila's RequestInfoSocketHandler: class-level tables
        _waiters: dict = {}
        _cache: dict = {}

        def open(self, kernel_id):
            FakeBase._waiters[kernel_id] = self

        def close(self, code=None):
            self.closed = code

    class KM:
        def __contains__(self, kernel_id):
            return kernel_id.startswith("real")

    state = vs.ServeState({})
    state.km = KM()
    Handler = vs.query_socket_handler(FakeBase, state)
    warm = Handler()
    warm.ws_connection = object()
    warm.open("real-1")  # a warm kernel waits for its page
    stray = [Handler(), Handler()]
    for h in stray:  # a visitor's sockets for a made-up id: refused, never in the table
        h.ws_connection = object()
        h.open("made-up")
        assert h.closed == 4404
    for h in stray:
        h.on_close()
    assert FakeBase._waiters == {"real-1": warm}  # Voila 0.5.13 deleted this one
    second = Handler()
    second.ws_connection = object()
    second.open("real-1")  # a second socket for a waiting kernel: refused
    assert second.closed == 4409 and FakeBase._waiters["real-1"] is warm
    warm.on_close()
    assert FakeBase._waiters == {}


def test_connection_folders_of_stopped_servers_are_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = tmp_path / "voila_gone"
    gone.mkdir()
    (gone / "server.pid").write_text(f"{dead.pid}\n")
    running = tmp_path / "voila_running"
    running.mkdir()
    (running / "server.pid").write_text(f"{os.getpid()}\n")
    old = tmp_path / "voila_old"
    old.mkdir()
    os.utime(old, (time.time() - 3 * 24 * 3600,) * 2)
    mine = tmp_path / "voila_mine"
    mine.mkdir()
    removed = vs.clean_stale_connection_dirs(tmp_path, keep=mine)
    assert sorted(p.name for p in removed) == ["voila_gone", "voila_old"]
    assert running.exists() and mine.exists()


class _FakePool:
    """Voila 0.5's preheating kernel manager, as far as make_room and refills use it."""

    fill_delay = 0.0
    wait_before = None

    def __init__(self, **kwargs):
        self.kernel_pools_config = {"default": {"pool_size": 2}}
        self._pools: dict = {}
        self.stopped: list[str] = []
        self.n = 0

    async def _start(self, name):
        self.n += 1
        return {"kernel_id": f"{name}-{self.n}", "task": None}

    def fill_if_needed(self, delay=None, notebook_name=None, extra_kernel_env_variables={}, **kw):
        pool = self._pools.setdefault(notebook_name, [])
        for _ in range(2 - len(pool)):
            coro = type(self).wait_before(0.0, self._start(notebook_name))
            pool.append(asyncio.get_event_loop().create_task(coro))

    async def shutdown_kernel(self, kernel_id, *a, **k):
        self.stopped.append(kernel_id)

    def __contains__(self, kernel_id):
        return True

    def get_pool_size(self, name):
        return len(self._pools.get(name, []))


def test_warm_kernels_of_other_lessons_give_way_to_students():
    async def scenario():
        schedule = vs.StartSchedule(step=0.0, lessons=3)
        _FakePool.wait_before = staticmethod(schedule.wait_before)
        state = vs.ServeState({"max_kernels": 6, "min_free_mib": 0, "kernel_mib": 1})
        km = vs.kernel_manager(_FakePool, True, schedule, state)()
        for name in ("a", "b", "c"):
            km.fill_if_needed(0, name)
        await asyncio.sleep(0.05)
        assert state.warm() == 6  # the computer is full of warm kernels
        state.pages["page-1"] = {"served": None, "opened": True}  # a student took a kernel...
        km._pools["a"].pop(0)
        km.fill_if_needed(None, "a")  # ...and lesson a's refill needs room: b or c gives way
        await asyncio.sleep(0.05)
        assert len(km._pools["a"]) == 2 and state.warm() + len(state.pages) == 6
        assert len(km.stopped) == 1 and not km.stopped[0].startswith("a")
        # a page that must start its own kernel: another warm kernel gives way
        assert state.is_full("d") is None
        await asyncio.sleep(0.05)
        assert len(km.stopped) == 2
        for task in [t for pool in km._pools.values() for t in pool]:
            task.cancel()

    asyncio.run(scenario())


def test_a_warm_kernel_keeps_a_game_from_its_first_move_not_before(monkeypatch, tmp_path):
    """Keeping a game must not read the page's query in a warm kernel before its page is asked
    for (every later cell would then run while the student waits): it starts at the first move."""
    from tokens_edu import Game
    from tokens_edu.store import identity as jmod  # where the page's query is read
    from tokens_edu.store.journal import Journal
    from tokens_edu.widgets import GameView

    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        monkeypatch.delenv(var, raising=False)
    url = f"sqlite:///{tmp_path / 'j.sqlite'}"
    asked = []
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(jmod, "_query_cache", None)
    monkeypatch.setattr(jmod, "_wait_for_voila_request",
                        lambda: (asked.append(1), os.environ.__setitem__("QUERY_STRING", "student=ana")))
    view = GameView(Game.from_scenario(str(ROOT / "lessons" / "scenarios" / "03-audit.yaml")),
                    seats=("human", "greedy"), journal=Journal(url, lesson="l3"))
    assert asked == [] and not jmod.query_known()  # built without waiting for a page
    move = view.match.game.legal_actions()[0]
    view.match.play(move)
    assert asked == [1]  # the first move: now the student's name is read, and the game kept
    from tokens_edu.store.games import GameStore

    assert len(GameStore(url).games(student="ana")) == 1


def test_page_templates_are_compiled_once_for_every_page(tmp_path):
    """Each page makes its own exporter and Jinja environment; the compiled templates are shared
    (profile: recompiling them was a quarter of the server's time when a class opened a lesson),
    and a template whose file changed is compiled again."""
    import jinja2

    class Exporter:
        def __init__(self, folder):
            self.folder = folder

        def _create_environment(self):
            return jinja2.Environment(loader=jinja2.FileSystemLoader(str(self.folder)))

    (tmp_path / "page.j2").write_text("Hello {{ name }}")
    vs.share_template_bytecode(Exporter)
    compiled = []
    real_compile = jinja2.Environment.compile

    def counting_compile(self, source, *args, **kwargs):
        compiled.append(source)
        return real_compile(self, source, *args, **kwargs)

    jinja2.Environment.compile = counting_compile
    try:
        pages = [Exporter(tmp_path)._create_environment() for _ in range(3)]
        assert len({id(env) for env in pages}) == 3  # each page keeps its own environment
        assert [env.get_template("page.j2").render(name=n) for env, n in zip(pages, "abc")] == \
            ["Hello a", "Hello b", "Hello c"]
        assert len(compiled) == 1
        (tmp_path / "page.j2").write_text("Hi {{ name }}!")
        assert Exporter(tmp_path)._create_environment().get_template("page.j2").render(name="d") == "Hi d!"
        assert len(compiled) == 2
    finally:
        jinja2.Environment.compile = real_compile


def test_kernel_clients_ask_the_kernel_manager_not_the_heartbeat():
    """HEARTBEAT_S may be long only because a client made by a kernel manager asks the manager
    whether its kernel runs (jupyter_client), never the heartbeat thread."""
    import inspect

    from jupyter_client.client import KernelClient

    source = inspect.getsource(KernelClient._async_is_alive)
    assert source.index("self.parent._async_is_alive()") < source.index("_hb_channel.is_beating()")
    assert vs.HEARTBEAT_S >= 10
