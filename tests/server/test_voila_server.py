"""The parts of the Voila side of ``tokens-edu serve`` (``tokens_edu/server/``) one by one,
without a server (fast).

The real server is exercised in ``test_serve.py``, ``test_serve_demand.py``,
``test_serve_browser.py`` and ``tests/cli/test_cli.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tokens_edu.server import capacity, memory, pages, pools, state as st, today, voila as vs
from tokens_edu.server.handlers import query_socket_handler
from tokens_edu.server.watch import Watch

ROOT = Path(__file__).resolve().parents[2]


class _Renderer:
    notebook_path = "lesson.ipynb"
    base_url = "/"

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


#: A page's first piece as served: its first script tells the server a browser has the page.
HEAD = "<head>" + pages._hello("/", "k1")


@pytest.fixture
def quick():
    return st.ServeState({"page_timeout": 1.5})


def test_a_page_that_stalls_ends_with_a_plain_message(quick):
    async def stalls():
        yield "<head>", None
        await asyncio.sleep(3600)
        yield "never", None

    t = time.monotonic()
    out = asyncio.run(_collect(pages.guarded(stalls(), _Renderer(warm=False), "k1", quick)))
    assert [html for html, _ in out] == [HEAD, pages.page_failed_html()]
    assert time.monotonic() - t < 6
    assert "Reload the page" in pages.page_failed_html() and "tokens-reload" in pages.page_failed_html()


def test_a_page_whose_rendering_raises_ends_with_the_message(quick):
    async def breaks():
        yield "<head>", None
        raise RuntimeError("kernel died")

    out = asyncio.run(_collect(pages.guarded(breaks(), _Renderer(warm=False), "k1", quick)))
    assert [html for html, _ in out] == [HEAD, pages.page_failed_html()]


def test_a_warm_kernel_waits_for_its_page_without_a_limit_then_the_limit_starts(quick):
    renderer = _Renderer(warm=True)

    async def scenario():
        async def waits():
            yield "<head>", None
            await asyncio.sleep(3600)  # waiting for its page's request
            yield "never", None

        agen = pages.guarded(waits(), renderer, "k1", quick)
        first = await agen.__anext__()
        step = asyncio.ensure_future(agen.__anext__())
        await asyncio.sleep(3)  # twice the limit: no page has asked yet, so it keeps waiting
        assert not step.done()
        renderer.requested_at = asyncio.get_running_loop().time()  # a page takes the kernel
        second = await asyncio.wait_for(step, 5)
        return first, second

    first, second = asyncio.run(scenario())
    assert first[0] == HEAD and second[0] == pages.page_failed_html()


def test_pages_ask_no_other_computer_for_anything(quick):
    head = ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/'
            'fontawesome-free@^5/css/all.min.css" type="text/css" />\n'
            '<script src="//cdn.example/x.js"></script>'
            '<link rel="stylesheet" href="/voila/static/index.css">')

    async def page():
        yield head, {"r": 1}

    out = asyncio.run(_collect(pages.guarded(page(), _Renderer(warm=False), "k1", quick)))
    assert out == [('\n<link rel="stylesheet" href="/voila/static/index.css">', {"r": 1})]


def _output(data: dict) -> str:
    from jinja2.utils import htmlsafe_json_dumps

    return ('<script type="application/vnd.voila.cell-output+json">\n    '
            + str(htmlsafe_json_dumps({"output_type": "display_data", "data": data, "metadata": {}}))
            + "\n  </script>")


def test_widget_outputs_carry_no_python_text_and_every_page_its_guard():
    """A widget output's text/plain form (``GameView(children=...)``) is what a page whose kernel
    is gone showed; it is taken out. Other outputs (a card's HTML and its text) keep theirs."""
    widget = _output({"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2},
                      "text/plain": "GameView(children=(Output(), HTML(value='<b>x</b>')))"})
    card = _output({"text/html": "<div>Chatbot</div>", "text/plain": "<Card 'Chatbot'>"})
    html = pages.rewrite(f"<html><head><title>x</title></head><body>{widget}{card}</body>",
                         "/base/")
    assert "GameView(" not in html and "abc" in html
    assert "&lt;Card" not in html and "\\u003cCard \\u0027Chatbot\\u0027\\u003e" in html  # kept
    guard = html[html.index("<script>"):html.index("</head>")]
    assert '"/base/voila/api/kernel-status/"' in guard and "tokens-page-gone" in guard
    assert json.dumps(pages.GONE_TEXT) in guard and "Reload" in guard
    for chunk in (widget, card):  # each output is still one JSON object the page can read
        rewritten = pages.rewrite(chunk)
        inner = rewritten.split(">", 1)[1].rsplit("<", 1)[0]
        assert isinstance(json.loads(inner), dict)


def test_odd_and_hidden_paths():
    assert pages.odd_path("x.ipynb\x00.txt") and pages.odd_path("a\nb") and not pages.odd_path("03-x.ipynb")
    assert pages.hidden_path("scenarios/a.ipynb", ["scenarios"]) and pages.hidden_path(".git/x", [])
    assert not pages.hidden_path("03-task.ipynb", ["scenarios"])


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

    state = st.ServeState({})
    state.km = KM()
    Handler = query_socket_handler(FakeBase, state)
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


# --- warm kernels ----------------------------------------------------------------------------

PAGES = {"00-start-here.ipynb": "start", "01-a.ipynb": "lesson", "02-b.ipynb": "lesson",
         "03-c.ipynb": "lesson", "teacher-guide.ipynb": "other", "scenarios/x.ipynb": "hidden"}


def test_warm_kernels_follow_demand():
    demand = st.Demand({**st.DEFAULTS, "pages": PAGES, "class_size": 30, "start_warm": 10})
    now = 1000.0
    sizes = {name: demand.target(name, now) for name in PAGES}
    assert sizes == {"00-start-here.ipynb": 10, "01-a.ipynb": 1, "02-b.ipynb": 1, "03-c.ipynb": 1,
                     "teacher-guide.ipynb": 0, "scenarios/x.ipynb": 0}
    demand.today = "02-b.ipynb"  # the teacher names today's lesson: the others keep none
    assert demand.target("02-b.ipynb", now) == 30 and demand.rank("02-b.ipynb", now) == 0
    assert demand.target("01-a.ipynb", now) == 0
    for k in range(25):  # a class arrives at the start page within two minutes
        demand.note("00-start-here.ipynb", now + k)
    assert demand.target("00-start-here.ipynb", now + 30) == 25
    assert demand.target("00-start-here.ipynb", now + 400) == 10  # they have all arrived
    for k in range(6):  # a few students open lesson 3 (not today's)
        demand.note("03-c.ipynb", now + k)
    assert demand.target("03-c.ipynb", now + 10) == 8 and demand.rank("03-c.ipynb", now + 10) == 1
    assert demand.target("03-c.ipynb", now + 300) == 2  # still in use, nobody arriving
    assert demand.target("03-c.ipynb", now + 1000) == 0 and demand.rank("03-c.ipynb", now + 1000) == 2
    demand.today = None
    assert demand.target("03-c.ipynb", now + 1000) == 1
    fixed = st.Demand({**st.DEFAULTS, "pages": PAGES, "demand": False, "pools": {"01-a.ipynb": 6}})
    assert fixed.target("01-a.ipynb") == 6 and fixed.target("02-b.ipynb") == 0


class _FakePool:
    """Voila 0.5's preheating kernel manager, as far as the warm-kernel code uses it."""

    fill_delay = 0.0
    wait_before = None

    def __init__(self, **kwargs):
        self.kernel_pools_config = {"default": {"pool_size": 1}}
        self._pools: dict = {}
        self.stopped: list[str] = []
        self.started: list[str] = []
        self.n = 0

    async def _start(self, name):
        self.n += 1
        self.started.append(name)
        return {"kernel_id": f"{name}-{self.n}", "task": None, "renderer": None}

    def fill_if_needed(self, delay=None, notebook_name=None, extra_kernel_env_variables={}, **kw):
        pool = self._pools.setdefault(notebook_name, [])
        config = self.kernel_pools_config
        size = config.get(notebook_name, config["default"])["pool_size"]
        for _ in range(size - len(pool)):
            coro = type(self).wait_before(delay or 0.0, self._start(notebook_name))
            pool.append(asyncio.get_event_loop().create_task(coro))

    async def get_rendered_notebook(self, notebook_name, extra_kernel_env_variables={}, **kw):
        item = await self._pools[notebook_name].pop(0)
        self.fill_if_needed(None, notebook_name)
        return None, [], item["kernel_id"]

    async def shutdown_kernel(self, kernel_id, *a, **k):
        self.stopped.append(kernel_id)

    def __contains__(self, kernel_id):
        return True

    def get_pool_size(self, name):
        return len(self._pools.get(name, []))


def _manager(settings: dict, step: float = 0.0):
    state = st.ServeState({"pages": PAGES, "min_free_mib": 0, "kernel_mib": 1, **settings})
    queue = pools.StartQueue(state, step, step)
    _FakePool.wait_before = staticmethod(queue.wait_before)
    return state, queue, pools.kernel_manager(_FakePool, True, queue, state)()


async def _until(condition, what: str, limit: float = 60.0) -> None:
    """Let the event loop run until ``condition()`` holds. ``limit`` only keeps a broken build
    from hanging the suite (it is no speed goal: the fake kernels start at once)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0)


def _warm_sizes(km) -> dict[str, int]:
    """Warm kernels a page can take now, per page (what Voila's handler asks)."""
    return {name: km.get_pool_size(name) for name in sorted(PAGES)}


def test_warm_kernels_start_one_at_a_time():
    """Voila started every warm kernel of every page at once (301 kernels on 2 cores). With a
    step between starts, one starts and the others wait their turn."""
    async def scenario():
        state, queue, km = _manager({"class_size": 3, "start_warm": 2}, step=3600)
        for name in sorted(PAGES):
            km.fill_if_needed(0, name)
        assert km.started == [] and state.warm() == 5  # asked for, none started yet
        await _until(lambda: km.started, "a first warm kernel starts")
        for _ in range(100):  # the loop runs on: the next start is an hour away
            await asyncio.sleep(0)
        assert km.started == ["00-start-here.ipynb"] and queue.waiting() == 4
        assert _warm_sizes(km)["00-start-here.ipynb"] == 1

    asyncio.run(scenario())


def test_warm_kernels_todays_lesson_and_the_start_page_first_then_lessons_opened():
    async def scenario():
        state, queue, km = _manager({"class_size": 3, "start_warm": 2})
        state.demand.today = "03-c.ipynb"
        for name in sorted(PAGES):  # Voila fills every notebook at start, in name order
            km.fill_if_needed(0, name)
        state.demand.note("01-a.ipynb")  # a student opens lesson 1: it gets warm kernels too,
        km.fill_if_needed(0, "01-a.ipynb")  # after today's lesson and the start page
        assert km.get_pool_size("03-c.ipynb") == 0  # none started yet: a page starts its own
        await _until(lambda: km.warm_counts() == (8, 8), "8 warm kernels ready")
        assert km.started == ["00-start-here.ipynb"] * 2 + ["03-c.ipynb"] * 3 + ["01-a.ipynb"] * 3
        assert _warm_sizes(km) == {"00-start-here.ipynb": 2, "01-a.ipynb": 3, "02-b.ipynb": 0,
                                   "03-c.ipynb": 3, "scenarios/x.ipynb": 0,
                                   "teacher-guide.ipynb": 0}
        # a page takes a ready kernel, and counts as a student; its pool is filled again
        _, _, kernel_id = await km.get_rendered_notebook("03-c.ipynb")
        assert kernel_id in state.pages and kernel_id.startswith("03-c")
        assert state.students() == 1
        await _until(lambda: km.get_pool_size("03-c.ipynb") == 3, "lesson 3 warm again")
        assert km.started[-1] == "03-c.ipynb" and len(km.started) == 9

    asyncio.run(scenario())


def test_warm_kernels_keep_to_their_memory_budget_before_a_lesson_is_named():
    """Issue 20: the warm kernels together keep to ``warm_mib`` (30 for every lesson took 2.6 GiB
    before any student came)."""
    async def scenario():
        # fake kernels of 1 MiB: a budget of 3 MiB holds 3 warm kernels of the 5 wanted
        state, queue, km = _manager({"class_size": 4, "start_warm": 2, "warm_mib": 3})
        for name in sorted(PAGES):
            km.fill_if_needed(0, name)
        await _until(lambda: km.warm_counts()[0] == 3, "3 warm kernels ready")
        for _ in range(20):
            await asyncio.sleep(0)
        assert state.warm() == 3 and len(km.started) == 3 and km.warm_counts() == (3, 3)

    asyncio.run(scenario())


def test_warm_kernels_wait_for_the_whole_class_when_the_memory_holds_them():
    """Issue 29.9: with today's lesson named, every student of the class gets a warm kernel
    when the free memory holds them, whatever ``warm_mib`` says (at 100 MiB a kernel, 1.5 GiB
    kept 15 for a class of 30). A kernel a page took no longer counts: the pools fill again
    as students arrive, one for each student still to come (at least 2)."""
    async def scenario():
        # fake kernels of 1 MiB: warm_mib 5 would hold 5, the class needs 4 + the start page's 2
        state, queue, km = _manager({"class_size": 4, "start_warm": 2, "warm_mib": 5})
        state.demand.today = "03-c.ipynb"
        for name in sorted(PAGES):  # the start page first (Voila fills in name order)
            km.fill_if_needed(0, name)
        await _until(lambda: km.warm_counts()[0] == 6, "6 warm kernels ready")
        assert state.warm() == 6 and len(km.started) == 6
        assert _warm_sizes(km)["00-start-here.ipynb"] == 2 and _warm_sizes(km)["03-c.ipynb"] == 4
        _, _, kernel_id = await km.get_rendered_notebook("03-c.ipynb")  # a student comes
        assert kernel_id in state.pages
        await _until(lambda: km.get_pool_size("03-c.ipynb") >= 3, "lesson 3 warm again")
        assert state.demand.target("03-c.ipynb") == 3  # one per student still to come
        await km.get_rendered_notebook("03-c.ipynb")
        await km.get_rendered_notebook("03-c.ipynb")
        assert state.students() == 3 and state.demand.target("03-c.ipynb") == 2
        # a computer short of memory keeps fewer: the free memory still decides
        short, _, km2 = _manager({"class_size": 4, "start_warm": 2, "warm_mib": 5,
                                  "min_free_mib": 10 ** 9})
        short.demand.today = "03-c.ipynb"
        km2.fill_if_needed(0, "03-c.ipynb")
        for _ in range(20):
            await asyncio.sleep(0)
        assert short.warm() == 0

    asyncio.run(scenario())


def test_warm_kernels_nobody_needs_are_given_back_and_others_give_way_to_students():
    async def scenario():
        state, queue, km = _manager({"class_size": 4, "start_warm": 1, "max_kernels": 8})
        state.demand.today = "01-a.ipynb"
        for name in sorted(PAGES):
            km.fill_if_needed(0, name)
        await _until(lambda: km.warm_counts()[0] == 5, "5 warm kernels ready")
        # 1 start page + 4 today (the other lessons: none)
        assert _warm_sizes(km) == {"00-start-here.ipynb": 1, "01-a.ipynb": 4, "02-b.ipynb": 0,
                                   "03-c.ipynb": 0, "scenarios/x.ipynb": 0,
                                   "teacher-guide.ipynb": 0}
        state.demand.today = None  # the teacher clears today's lesson: 3 of lesson 1 not needed
        assert km.trim() == 1  # ready ones beyond their size by more than 2 only
        assert km.get_pool_size("01-a.ipynb") == 3 and state.counters == {"not needed": 1}
        await _until(lambda: km.stopped, "the kernel given back is stopped")
        assert len(km.stopped) == 1 and km.stopped[0].startswith("01-a")
        km.fill_all()  # lessons 2 and 3 get their one warm kernel back
        await _until(lambda: km.warm_counts()[0] == 6, "6 warm kernels ready")
        assert km.get_pool_size("02-b.ipynb") == 1 and km.get_pool_size("03-c.ipynb") == 1
        # the computer is at its kernel limit (8): a page that needs a kernel of its own makes
        # another page's warm kernel give way, the least wanted first
        state.pages["student-1"] = st.Page("02-b.ipynb", "10.0.0.1")
        state.pages["student-2"] = st.Page("02-b.ipynb", "10.0.0.2")
        assert state.students() + state.warm() == 8
        assert capacity.is_full(state, "teacher-guide.ipynb") is None
        await _until(lambda: len(km.stopped) == 2, "a warm kernel gives way")
        assert state.counters["gave way"] == 1 and state.students() + state.warm() == 7
        assert km.get_pool_size("00-start-here.ipynb") == 1  # the start page keeps its own

    asyncio.run(scenario())


def test_a_warm_kernel_keeps_a_game_from_its_first_move_not_before(monkeypatch, tmp_path):
    """Keeping a game must not read the page's query in a warm kernel before its page is asked
    for (every later cell would then run while the student waits): it starts at the first move."""
    from tokens_edu import Game
    from tokens_edu.session import address as jmod  # where the page's query is read
    from tokens_edu.session.journal import Journal
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


def test_at_the_cap_a_client_holding_unopened_pages_gives_one_back():
    """Six plain requests (no browser) filled --max-students 6 and every student was told the
    class is full for 90 s. Now, at the cap, a client holding more than 3 pages it never opened
    gives its oldest back; a class of real students (pages opened) is never touched."""
    async def scenario():
        state, queue, km = _manager({"max_students": 6, "client_pages": 3})
        loop = asyncio.get_running_loop()
        for k in range(6):
            page = st.Page("01-a.ipynb", "10.0.0.66")
            page.served = loop.time() - 10 - k
            state.pages[f"script-{k}"] = page
        assert capacity.is_full(state, "01-a.ipynb") is None  # the oldest unopened goes
        await _until(lambda: km.stopped, "the oldest unopened page's kernel is stopped")
        assert km.stopped == ["script-5"] and len(state.pages) == 5
        state.pages.clear()
        for k in range(6):  # six students, each page opened: the class is really full
            page = st.Page("01-a.ipynb", f"10.0.0.{k}")
            page.served, page.opened = loop.time() - 10, True
            state.pages[f"student-{k}"] = page
        assert capacity.is_full(state, "01-a.ipynb") == "cap"
        for k in range(6):  # a class behind one address (a proxy, a NAT): one computer
            state.pages[f"student-{k}"].client = "10.0.0.9"
            state.pages[f"student-{k}"].opened = k > 3
            state.pages[f"student-{k}"].hello = loop.time() - 9
        assert capacity.is_full(state, "01-a.ipynb", "10.0.0.9") == "cap"  # its share: all 6
        assert km.stopped == ["script-5"]

    asyncio.run(scenario())


def test_pages_that_never_open_or_went_away_give_their_kernel_back():
    async def scenario():
        state, queue, km = _manager({"unopened_timeout": 20, "gone_timeout": 120, "status_every": 0})
        km._kernel_connections = {"never": 0, "loading": 0, "left": 0, "here": 1, "crashed": 1,
                                  "slow": 0}
        km.kernel_pid = lambda kid: None
        km.get_kernel = lambda kid: type("K", (), {"is_alive": lambda self: kid != "crashed"})()
        loop = asyncio.get_running_loop()
        now = loop.time()
        for name, served, opened in (("never", now - 21, False), ("loading", now - 5, False),
                                     ("left", now - 500, True), ("here", now - 500, True),
                                     ("crashed", now - 500, True)):
            page = st.Page("01-a.ipynb", "10.0.0.1")
            page.served, page.opened = served, opened
            state.pages[name] = page
        slow = st.Page("01-a.ipynb", "10.0.0.2")  # a browser that read the page but is slow to
        slow.served, slow.hello = now - 30, now - 28  # reach its kernel (a busy laptop)
        state.pages["slow"] = slow
        watch = Watch(state)
        await watch.pages(now)
        assert sorted(state.pages) == ["here", "left", "loading", "slow"]
        assert slow.gone_since == now - 28
        assert sorted(km.stopped) == ["crashed", "never"]
        assert state.pages["left"].gone_since == now
        # issue 29.2: a hello keeps the kernel while the browser connects, not for 120 s (a
        # script's hello held it): 60 s after it (the page itself has said it could not connect)
        await watch.pages(now + 31)
        assert "slow" in state.pages
        await watch.pages(now + 33)
        assert "slow" not in state.pages and km.stopped[-1] == "slow"
        await watch.pages(now + 119)
        assert "left" in state.pages
        await watch.pages(now + 121)
        assert sorted(state.pages) == ["here", "loading"] and km.stopped[-2:] == ["slow", "left"]
        assert state.counters == {"unopened": 2, "went away": 1, "stopped by itself": 1}

    asyncio.run(scenario())


def test_a_lid_closed_page_is_noticed_within_a_minute():
    """A closed laptop answers no pings: its websocket is closed after 60 s (jupyter_server's
    default was 90), then the watch gives its kernel back after --cull-idle-timeout (120 s)."""
    from tokens_edu.server import launcher

    source = Path(vs.__file__).read_text()
    assert '"ws_ping_timeout": 60000' in source and '"ws_ping_interval": 20000' in source
    assert launcher.GONE_TIMEOUT + 60 <= 180


# --- today's lesson, memory --------------------------------------------------------------------

def test_todays_lesson_file(tmp_path):
    names = ["00-start-here.ipynb", "03-task-and-audit.ipynb", "teacher-guide.ipynb"]
    assert today.resolve_lesson("03", names) == "03-task-and-audit.ipynb"
    assert today.resolve_lesson("3", names) == "03-task-and-audit.ipynb"
    assert today.resolve_lesson("03-task-and-audit", names) == "03-task-and-audit.ipynb"
    assert today.resolve_lesson("7", names) is None and today.resolve_lesson("", names) is None
    assert today.read_today(tmp_path) == (None, None)
    path = today.write_today(tmp_path / "data", "03-task-and-audit.ipynb")
    lesson, mtime = today.read_today(tmp_path / "data")
    assert lesson == "03-task-and-audit.ipynb" and mtime == path.stat().st_mtime
    assert json.loads(path.read_text())["lesson"] == "03-task-and-audit.ipynb"
    today.write_today(tmp_path / "data", None)
    assert today.read_today(tmp_path / "data")[0] is None
    path.write_bytes(b"[" * 10_000)  # damaged or huge: ignored, never a crash
    assert today.read_today(tmp_path / "data")[0] is None


def test_watch_reads_todays_lesson_and_says_so_once(tmp_path, caplog):
    import logging

    async def scenario():
        state, queue, km = _manager({"today_folder": str(tmp_path), "class_size": 3,
                                     "status_every": 0})
        watch = Watch(state)
        today.write_today(tmp_path, "02-b.ipynb")
        with caplog.at_level(logging.INFO, logger="tokens-edu"):
            watch.today()
            watch.today()  # unchanged: nothing more
        assert state.demand.today == "02-b.ipynb"
        await _until(lambda: km.get_pool_size("02-b.ipynb") == 3, "today's lesson warm")
        today.write_today(tmp_path, "99-nope.ipynb")
        watch.today()
        assert state.demand.today == "02-b.ipynb"

    logging.getLogger("tokens-edu").propagate = True
    try:
        asyncio.run(scenario())
    finally:
        logging.getLogger("tokens-edu").propagate = False
    said = [r.getMessage() for r in caplog.records if r.name == "tokens-edu"]
    assert said[0].startswith("Today's lesson: 02-b.ipynb.") and len(said) == 2
    assert "not a lesson here" in said[1]


def test_the_kernel_size_is_measured_not_assumed(tmp_path):
    size = memory.KernelSize(estimate=75)
    assert size.mib == 75 and not size.measured
    assert size.measure([999_999_999]) == 0 and not size.measured  # no such process
    assert size.measure([os.getpid(), 999_999_999]) == 1  # this process is measurable
    mine = memory.pss_mib(os.getpid())
    assert size.measured and abs(size.mib - mine) < 5
    assert size.measure([999_999_999]) == 0 and size.measured  # the last measurement stays
    memory.remember_kernel_mib(tmp_path, 58.4)
    assert memory.remembered_kernel_mib(tmp_path) == 58.4
    (tmp_path / "kernel-size.json").write_text("nonsense")
    assert memory.remembered_kernel_mib(tmp_path) is None


# --- the rest ------------------------------------------------------------------------------

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
        envs = [Exporter(tmp_path)._create_environment() for _ in range(3)]
        assert len({id(env) for env in envs}) == 3  # each page keeps its own environment
        assert [env.get_template("page.j2").render(name=n) for env, n in zip(envs, "abc")] == \
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


def test_the_voila_process_imports_no_game_code():
    """``python -m tokens_edu.server`` imports this subpackage and the light package module
    (``tokens_edu``, whose heavy parts load on demand): not pandas, SQLAlchemy or the widgets
    (they are the kernels' business)."""
    out = subprocess.run(
        [sys.executable, "-c", "import sys, tokens_edu.server.voila as v; "
         "print(sorted(m for m in sys.modules if m.startswith(('tokens_edu', 'pandas', 'ipywidgets', 'sqlalchemy'))))"],
        capture_output=True, text=True, timeout=120, check=True).stdout
    loaded = eval(out)  # noqa: S307 (our own printed list)
    assert "tokens_edu.server.pools" in loaded
    assert not any(m.startswith(("pandas", "ipywidgets", "sqlalchemy", "tokens_edu.widgets",
                                 "tokens_edu.store")) for m in loaded), loaded


def test_no_server_module_is_over_600_lines():
    for path in Path(vs.__file__).parent.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 600, path


def test_a_warm_kernel_stopped_mid_lesson_prints_no_traceback():
    """A warm kernel given back while it pre-rendered its lesson made Voila log 'Error at server
    while executing cell' with a DeadKernelError traceback (about 20 lines each) on the
    teacher's console. That record is dropped; any other error while running a cell stays."""
    import logging

    from nbclient.exceptions import DeadKernelError

    from tokens_edu.server.console import DropKnownNoise

    def record(exc: BaseException) -> logging.LogRecord:
        try:
            raise exc
        except BaseException:
            return logging.getLogger("TokensVoila").makeRecord(
                "TokensVoila", logging.ERROR, __file__, 1,
                "Error at server while executing cell: %r", ({"source": "x"},), sys.exc_info())

    keep = DropKnownNoise()
    assert not keep.filter(record(DeadKernelError("Kernel died")))
    assert keep.filter(record(ValueError("a real bug in a lesson")))
    assert keep.filter(logging.LogRecord("x", logging.INFO, __file__, 1, "Ready.", (), None))
