"""The page state sent to the card table is a declared type (issue 26 part 3,
``tokens_edu/present/state.py``), checked both ways:

- every state the presenter makes (live pages from each seat, a hot-seat cover, a game over, a
  replay) has exactly the declared keys, with values of the declared kinds;
- the table's JavaScript (``tokens_edu/widgets/static/table.js``), drawing those states in
  Chromium and clicked through (a card, a move that asks for its target, a discard pile, the
  lists), reads no key that is not declared: the state it is given records every key read.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
import types
import typing
from pathlib import Path

import pytest
from teacher_helpers import only_loopback

from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.present import REPLAY, Seating, present
from tokens_edu.present.render import COLOR_STYLES
from tokens_edu.present.state import PageState, TableState

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tokens_edu" / "widgets" / "static"
AUDIT = ROOT / "lessons" / "scenarios" / "03-audit.yaml"


def _is_typeddict(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__annotations__") and hasattr(tp, "__total__")


def _hints(td) -> dict:
    return typing.get_type_hints(td)


def declared_paths(td, prefix: str = "") -> set[str]:
    """Every key path a TypedDict declares: ``"sides.*.name"`` (a list's items are ``*``)."""
    out = set()
    for key, tp in _hints(td).items():
        path = f"{prefix}{key}"
        out.add(path)
        out |= _inner_paths(tp, path)
    return out


def _inner_paths(tp, path: str) -> set[str]:
    if _is_typeddict(tp):
        return declared_paths(tp, path + ".")
    origin = typing.get_origin(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        return {path + ".*"} | _inner_paths(item, path + ".*")
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_inner_paths(a, path) for a in typing.get_args(tp)))
    return set()


def check_value(value, tp, where: str) -> None:
    """``value`` is of the declared type ``tp`` (a TypedDict: exactly its keys, optional ones
    may be missing)."""
    if _is_typeddict(tp):
        assert isinstance(value, dict), f"{where}: not a dict: {value!r}"
        hints = _hints(tp)
        required = set(getattr(tp, "__required_keys__", hints))
        assert required <= set(value), f"{where}: missing keys {sorted(required - set(value))}"
        assert set(value) <= set(hints), f"{where}: keys not declared: {sorted(set(value) - set(hints))}"
        for key, item in value.items():
            check_value(item, hints[key], f"{where}.{key}")
        return
    origin = typing.get_origin(tp)
    if origin is list:
        (item_tp,) = typing.get_args(tp)
        assert isinstance(value, list), f"{where}: not a list: {value!r}"
        for i, item in enumerate(value):
            check_value(item, item_tp, f"{where}[{i}]")
        return
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(tp):
            try:
                check_value(value, option, where)
                return
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {tp}: {errors}")
    if tp is type(None):
        assert value is None, f"{where}: {value!r} is not None"
        return
    if tp is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r} is not an int"
        return
    assert isinstance(value, tp), f"{where}: {value!r} is not a {tp.__name__}"


def sample_states() -> list[tuple[str, dict]]:
    """Page states of many kinds: a scenario with targets, a whole Greedy game from both seats
    (the start, the middle, the end), a hot-seat cover, a replay, a note and a banner."""
    states = []
    audit = Game.from_scenario(AUDIT)
    states.append(("audit", present(audit, 0, Seating(computer=(False, True))).state(1, {"text": "Hi", "kind": "info"})))
    decks = starter_decks()
    game = Game.new(decks[0], decks[4], seed=3, names=("Ana", "Bo"))
    bot = GreedyBot()
    n = 0
    while not game.over:
        if n % 9 == 0:
            for viewer in (0, 1):
                page = present(game, viewer, Seating(computer=(False, True), undo=1, undo_policy="turn",
                                                    last_moves=tuple((a.player, a) for a in game.move_stack[-3:])))
                states.append((f"move {n}, seat {viewer}", page.state(n + 2, None)))
            states.append((f"move {n}, cover", present(game, None, Seating(covered=True)).state(n + 3, None)))
            states.append((f"move {n}, replay", present(game, 0, REPLAY).table_state()))
        game.apply(bot.choose(game))
        n += 1
    for viewer in (0, 1, None):
        states.append((f"over, seat {viewer}", present(game, viewer, Seating(computer=(False, True))).state(n + 9, None)))
    return states


@functools.lru_cache(maxsize=1)
def _samples():
    return sample_states()


def test_every_state_has_exactly_the_declared_keys():
    states = _samples()
    assert len(states) > 20
    assert any(s.get("banner") for _, s in states) and any(s.get("cover") for _, s in states)
    assert any(s["moves"] and any(m["x"] for m in s["moves"]) for _, s in states)  # a move with a target
    for where, state in states:
        check_value(state, TableState if where.endswith("replay") else PageState, where)
        json.dumps(state)  # JSON as it is


HARNESS = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="table.css"></head>
<body><div id="el"></div><script type="module">
import widget from "./table.js";
// The state the table is given records every key read: "sides.*.name" (a list's items: *).
window.seen = new Set();
const cache = new WeakMap();
function wrap(obj, path) {
  if (obj === null || typeof obj !== "object") return obj;
  if (cache.has(obj)) return cache.get(obj);
  const proxy = new Proxy(obj, { get(target, key, receiver) {
    const value = Reflect.get(target, key, receiver);
    if (typeof key === "symbol") return value;
    if (Array.isArray(target)) return /^[0-9]+$/.test(key) ? wrap(value, path + ".*") : value;
    const at = path ? path + "." + key : key;
    window.seen.add(at);
    return wrap(value, at);
  } });
  cache.set(obj, proxy);
  return proxy;
}
const values = { state: {}, palette: %(palette)s, pictures: {} };
const handlers = {};
window.sent = [];
window.model = {
  get(k) { return k === "state" ? wrap(values.state, "") : values[k]; },
  set(k, v) { values[k] = v; (handlers["change:" + k] || []).forEach((f) => f()); },
  on(e, f) { (handlers[e] = handlers[e] || []).push(f); },
  off() {}, save_changes() {}, widget_manager: null,
  send(m) { window.sent.push(m); },
};
widget.render({ model: window.model, el: document.getElementById("el") });
window.ready = true;
</script></body></html>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("contract")
    for f in STATIC.iterdir():
        shutil.copy(f, root / f.name)
    (root / "contract.html").write_text(HARNESS % {"palette": json.dumps(COLOR_STYLES)}, encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _click_all(page, selector: str) -> int:
    """Click each element matching ``selector`` now (a drawing may remove it: then it is left)."""
    n = page.locator(selector).count()
    for i in range(n):
        el = page.locator(selector).nth(i)
        if el.count() and el.is_visible():
            el.click(timeout=2_000)
            page.keyboard.press("Escape")
    return n


def test_the_table_reads_only_declared_keys(site, browser):
    """table.js draws every sample state and is clicked through; each key it reads is declared."""
    declared = declared_paths(PageState)
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.goto(f"{site}/contract.html")
        page.wait_for_function("() => window.ready === true")
        clicked = 0
        for where, state in _samples():
            page.evaluate("s => window.model.set('state', s)", state)
            page.locator(".tokens-table .tt-side-bottom").first.wait_for(state="attached")
            if where in ("audit", "move 18, seat 0", "move 27, seat 0"):
                for selector in (".tt-card", ".tt-quick-aim", ".tt-discard", ".tt-movelist summary", ".tt-log summary"):
                    clicked += _click_all(page, selector)
                if page.locator(".tt-quick-aim").count():  # a target glows: it is clicked
                    page.locator(".tt-quick-aim").first.click()
                    page.locator(".tt-card.tt-target").first.click()
        seen = set(page.evaluate("() => [...window.seen]"))
    finally:
        context.close()
    assert clicked > 3, "nothing was clicked"
    assert {"sides.*.name", "board.*.face.name", "moves.*.t", "hand.*.rules", "banner.title", "cover.button",
            "note.text", "v"} <= seen, sorted(seen)
    assert seen <= declared, f"table.js reads keys the page state does not declare: {sorted(seen - declared)}"
