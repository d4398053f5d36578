"""The widgets' front ends in a real browser (Chromium at 1366x768), without a kernel: each
``static/*.js`` is drawn on a small page with a stand-in for its widget model, which records
what the front end would send to the kernel.

- the card table sends a move by its index in the moves it was sent and the version it drew
  (issue 18 part 4);
- the Discuss box counts an answer's length as the kernel does, in characters (Unicode code
  points, Python's ``len``), so an emoji is one (issue 21 part 7), and tells the kernel at once
  when it holds unsaved words (issue 21 part 3).
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading

import pytest
from teacher_helpers import only_loopback

from tokens_edu import Game
from tokens_edu.present import Seating, present
from tokens_edu.present.render import COLOR_STYLES

STATIC = __import__("pathlib").Path(__file__).resolve().parents[2] / "tokens_edu" / "widgets" / "static"

HARNESS = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="%(css)s"></head>
<body><div id="el"></div><script type="module">
import widget from "./%(js)s";
const values = %(values)s;
const handlers = {};
window.sent = [];
window.model = {
  get(k) { return values[k]; },
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
    """A static site on this machine: the widgets' JS and CSS, and one page per test."""
    root = tmp_path_factory.mktemp("js")
    for f in STATIC.iterdir():
        shutil.copy(f, root / f.name)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a, **k: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def open_widget(site, browser):
    root, url = site
    contexts = []

    def opener(js: str, css: str, values: dict, name: str):
        (root / f"{name}.html").write_text(HARNESS % {"js": js, "css": css, "values": json.dumps(values)},
                                           encoding="utf-8")
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        contexts.append(context)
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.goto(f"{url}/{name}.html")
        page.wait_for_function("() => window.ready === true")
        return page

    yield opener
    for c in contexts:
        c.close()


def sent(page, kind: str) -> list[dict]:
    return [m for m in page.evaluate("() => window.sent") if m.get("type") == kind]


# -- the card table -------------------------------------------------------------------------------
AUDIT = __import__("pathlib").Path(__file__).resolve().parents[2] / "lessons" / "scenarios" / "03-audit.yaml"


def test_the_table_sends_a_move_by_its_index_and_the_version_it_drew(open_widget):
    page_state = present(Game.from_scenario(AUDIT), 0, Seating(computer=(False, True))).state(41, None)
    texts = [m["t"] for m in page_state["moves"]]
    page = open_widget("table.js", "table.css", {"state": page_state, "palette": COLOR_STYLES}, "table")
    page.locator(".tt-slot:has(.tt-card[data-id='Neural Network']) .tt-quick-task").click()
    assert sent(page, "move") == [{"type": "move", "i": texts.index("task Neural Network"), "v": 41}]
    page.locator(".tt-slot:has(.tt-card[data-id='Neural Network']) .tt-quick-task").click()  # a double click
    assert len(sent(page, "move")) == 1  # one move per drawing
    page.evaluate("() => window.model.set('state', Object.assign({}, window.model.get('state'), {v: 42}))")
    audit = page.locator(".tt-slot:has(.tt-card[data-id='Neural Network']) .tt-quick-audit")
    assert audit.inner_text().strip() == "Audit Explainability"  # one target: one click (issue 21 part 2)
    audit.click()
    assert sent(page, "move")[-1] == {"type": "move", "i": texts.index("audit Neural Network -> Explainability"),
                                      "v": 42}
    assert all("text" not in m for m in sent(page, "move"))  # never the move's words


# -- the Discuss box -------------------------------------------------------------------------------
DISCUSS = {"value": "", "saved_text": "", "draft_text": "", "draft_at": "", "status": "", "status_kind": "",
           "ack": 0, "max_length": 5000, "count_from": 4000, "placeholder": "Write your answer here.",
           "label": "Your answer", "draft_ms": 60000, "ping_ms": 600000, "lost_ms": 600000,
           "save_timeout_ms": 60000}


def test_an_answer_is_counted_in_characters_as_the_kernel_counts_them(open_widget):
    """Broken before: 5,000 characters with three emoji were refused as "5,003 of 5,000"."""
    from tokens_edu.store.schema import MAX_ANSWER

    answer = "a" * 4997 + "😀🎉🚀"
    assert len(answer) == MAX_ANSWER  # the kernel's count
    page = open_widget("discuss.js", "discuss.css", DISCUSS, "discuss")
    box = page.locator(".tokens-discuss-answer textarea")
    box.fill(answer)
    count = page.locator(".tokens-discuss-count")
    assert count.inner_text() == "5,000 of 5,000 characters"
    assert "tokens-discuss-too-long" not in (count.get_attribute("class") or "")
    page.locator("button.tokens-discuss-save").click()
    saves = sent(page, "save")
    assert len(saves) == 1 and saves[0]["text"] == answer  # sent as shown, not refused
    box.fill(answer + "é")
    assert count.inner_text().startswith("Too long: 5,001 of 5,000")


def test_the_box_says_at_once_when_it_holds_unsaved_words(open_widget):
    page = open_widget("discuss.js", "discuss.css", DISCUSS, "dirty")
    assert sent(page, "dirty") == []
    page.locator(".tokens-discuss-answer textarea").press_sequentially("AI")
    assert sent(page, "dirty") == [{"type": "dirty", "dirty": True}]  # no waiting for the draft
    assert sent(page, "draft") == []
    page.locator(".tokens-discuss-answer textarea").fill("")
    assert sent(page, "dirty")[-1] == {"type": "dirty", "dirty": False}


# -- the pixel grid (issue 28.4) ---------------------------------------------------------------------
def _grid_page(open_widget, name: str, pixels=None, erase=False):
    values = {"pixels": pixels or [0] * 144, "size": 12, "cell": 24, "label": "Draw a sign here",
              "disabled": False, "erase": erase, "version": 0}
    return open_widget("pixelgrid.js", "pixelgrid.css", values, name)


def _centre(page, i: int) -> tuple[float, float]:
    box = page.locator(f".tpg-cell[data-i='{i}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _stroke(page, squares: list[int], steps: int = 1) -> None:
    """Press on the first square, move to each of the others (``steps`` pointer events for
    each move: 1 is a fast hand, whose points land squares apart), let go."""
    page.mouse.move(*_centre(page, squares[0]))
    page.mouse.down()
    for i in squares[1:]:
        page.mouse.move(*_centre(page, i), steps=steps)
    page.mouse.up()


def _dark(page) -> set[int]:
    return {i for i, v in enumerate(page.evaluate("() => window.model.get('pixels')")) if v}


def test_a_stroke_that_starts_on_a_dark_square_draws_in_draw_mode(open_widget):
    """Broken before: a Flag drawn the natural way (the pole first, then the flag from the pole)
    rubbed out its own pole, because a stroke starting on a dark square erased."""
    pole = [r * 12 + 3 for r in range(1, 11)]
    page = _grid_page(open_widget, "grid-draw", [1 if i in pole else 0 for i in range(144)])
    assert page.locator(".tpg-mode-draw").get_attribute("aria-pressed") == "true"
    assert page.locator(".tpg-mode-rub").get_attribute("aria-pressed") == "false"
    flag = [1 * 12 + c for c in range(3, 9)]  # from the top of the pole, to the right
    _stroke(page, flag, steps=3)
    assert _dark(page) == set(pole) | set(flag)  # the pole stays


def test_the_points_of_a_fast_stroke_are_joined_into_a_line(open_widget):
    page = _grid_page(open_widget, "grid-fast")
    _stroke(page, [0, 143], steps=1)  # corner to corner in one jump
    assert _dark(page) == {r * 12 + r for r in range(12)}  # the whole diagonal, no gaps
    _stroke(page, [2 * 12 + 1, 2 * 12 + 10], steps=1)  # a fast stroke across a row
    assert {2 * 12 + c for c in range(1, 11)} <= _dark(page)
    page = _grid_page(open_widget, "grid-slope")
    _stroke(page, [11 * 12 + 0, 5 * 12 + 11], steps=1)  # a shallow slope in one jump
    line = _dark(page)
    assert len(line) == 12 and {i % 12 for i in line} == set(range(12))  # one square in each column
    rows = [i // 12 for i in sorted(line, key=lambda i: i % 12)]
    assert rows[0] == 11 and rows[-1] == 5 and all(0 <= a - b <= 1 for a, b in zip(rows, rows[1:]))


def test_rub_out_is_a_switch(open_widget):
    page = _grid_page(open_widget, "grid-rub", [1] * 144)
    page.locator(".tpg-mode-rub").click()
    assert page.evaluate("() => window.model.get('erase')") is True
    assert page.locator(".tpg-mode-rub").get_attribute("aria-pressed") == "true"
    _stroke(page, [0, 11], steps=1)  # starts on a dark square and rubs out, as the switch says
    assert _dark(page) == set(range(12, 144))
    _stroke(page, [12 * 5, 12 * 5], steps=1)
    assert 60 not in _dark(page)
    page.locator(".tpg-mode-draw").click()
    assert page.evaluate("() => window.model.get('erase')") is False
    _stroke(page, [0, 11], steps=1)  # a light square starts a stroke that draws
    assert set(range(12)) <= _dark(page)


# -- motion (issue 30 part 4) --------------------------------------------------------------------
ANIMATIONS = """() => document.getAnimations().map(a => {
  const t = a.effect && a.effect.target; const timing = a.effect ? a.effect.getComputedTiming() : {};
  return [t ? (t.className && t.className.baseVal === undefined ? t.className : t.tagName) : '', timing.duration, timing.iterations]; })"""


def _states_of(moves: list[str]) -> list[dict]:
    """The audit scenario's page state at the start, then after each move made from the start
    (seat 0, against a computer)."""
    game = Game.from_scenario(AUDIT)
    states = [present(game, 0, Seating(computer=(False, True))).state(1, None)]
    for i, move in enumerate(moves):
        game = Game.from_scenario(AUDIT)
        game.apply(move)
        states.append(present(game, 0, Seating(computer=(False, True))).state(i + 2, None))
    return states


def test_the_table_moves_what_changed_briefly_and_never_blocks_a_click(open_widget):
    """A deployed card moves from the hand to its place, a Task turns the card and counts the
    Tokens up with a "+", an Audit's deprecated card turns over on its way to the discard pile:
    every animation lasts 400 ms or less, and a move can be clicked while they run."""
    start, deployed, tasked, audited = _states_of(["deploy Sensor", "task Neural Network",
                                                   "audit Neural Network -> Explainability"])
    page = open_widget("table.js", "table.css", {"state": start, "palette": COLOR_STYLES}, "motion")
    seen = []
    for state in (deployed, tasked, audited):
        page.evaluate("s => window.model.set('state', s)", start)  # each move from the start
        page.wait_for_timeout(450)
        page.evaluate("s => window.model.set('state', s)", state)
        running = page.evaluate(ANIMATIONS)
        assert running, "nothing moved"
        assert all(d <= 400 and n == 1 for _, d, n in running), running
        seen += running
        if state is tasked:
            gained = tasked["sides"][1]["tokens"] - start["sides"][1]["tokens"]
            assert gained > 0 and page.locator(".tt-side-bottom .tt-gain").inner_text() == f"+{gained}"
        page.wait_for_timeout(450)
        assert page.evaluate(ANIMATIONS) == [] and page.locator(".tt-ghost, .tt-gain").count() == 0  # all gone
    classes = " ".join(c for c, _, _ in seen)
    assert "tt-card" in classes and "tk-face" in classes and "tt-ghost" in classes, classes
    # a click while the table moves is a click: the move is sent at once
    page.evaluate("s => window.model.set('state', s)", dict(start, v=50))
    page.evaluate("s => window.model.set('state', s)", dict(deployed, v=51))
    assert page.evaluate(ANIMATIONS)
    page.locator(".tt-panel .tt-end").click()
    assert sent(page, "move")[-1]["v"] == 51


def test_no_motion_when_the_system_asks_for_reduced_motion(open_widget):
    start, deployed, tasked, audited = _states_of(["deploy Sensor", "task Neural Network",
                                                   "audit Neural Network -> Explainability"])
    page = open_widget("table.js", "table.css", {"state": start, "palette": COLOR_STYLES}, "still")
    page.emulate_media(reduced_motion="reduce")
    page.locator(".tt-quick-aim, .tt-quick-audit").first.wait_for()
    for state in (deployed, tasked, audited):
        page.evaluate("s => window.model.set('state', s)", start)
        page.evaluate("s => window.model.set('state', s)", state)
        assert page.evaluate(ANIMATIONS) == []
        assert page.locator(".tt-ghost, .tt-gain").count() == 0
    assert page.locator(".tt-side-bottom .tt-tokens b").inner_text() == str(audited["sides"][1]["tokens"])
    page.evaluate("s => window.model.set('state', s)", start)
    page.evaluate("s => window.model.set('state', s)", tasked)  # Tokens are at once the new number
    assert page.locator(".tt-side-bottom .tt-tokens b").inner_text() == str(tasked["sides"][1]["tokens"])


def test_sound_is_off_until_a_student_turns_it_on(open_widget):
    start, = _states_of([])
    page = open_widget("table.js", "table.css", {"state": start, "palette": COLOR_STYLES}, "sound")
    sound = page.locator(".tt-controls .tt-sound")
    assert sound.get_attribute("aria-pressed") == "false"  # off by default
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('tokens-edu-sound')") == "on"
    assert sent(page, "move") == []  # a page-only setting: nothing sent to the kernel


def test_keys_the_note_tells(open_widget):
    """The Keys note beside the table, and what it says: C takes the focus to the cards (the
    arrows read them, Enter shows a card's moves), a letter to the next move of its kind, E to
    End turn; Enter then makes the move."""
    start, = _states_of([])
    page = open_widget("table.js", "table.css", {"state": start, "palette": COLOR_STYLES}, "keys")
    note = page.locator(".tt-panel .tt-keys")
    assert note.locator("summary").inner_text().strip() == "Keys"
    said = note.text_content()
    for key in ("Enter", "End turn", "Esc", "T D R A U", "C"):
        assert key in said, said
    page.locator(".tt-panel .tt-end").focus()
    focused = "() => { const a = document.activeElement; return [a.className, a.dataset.id || '', a.textContent.trim().slice(0, 30)]; }"
    page.keyboard.press("c")
    cls, first, _ = page.evaluate(focused)
    assert "tt-card" in cls and first, cls  # a card has the focus (a screen reader reads it)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused)[1] not in ("", first)  # the next card
    page.keyboard.press("d")
    assert "tt-quick-deploy" in page.evaluate(focused)[0]
    page.keyboard.press("t")
    assert "tt-quick-task" in page.evaluate(focused)[0]
    page.keyboard.press("e")
    assert "tt-end" in page.evaluate(focused)[0]
    page.keyboard.press("Enter")
    assert sent(page, "move")[-1]["i"] == [m["k"] for m in start["moves"]].index("end")
    page.keyboard.press("c")
    page.keyboard.press("Enter")  # a card's moves beside the table, the focus on the first
    assert page.locator(".tt-panel .tt-dock .tt-read").count() == 1
    assert page.evaluate("() => !!document.activeElement.closest('.tt-dock')")


def test_every_card_face_on_the_table_is_whole(open_widget):
    """All 70 Alpha Set cards as table faces (in a hand): text 12 px or more, the name inside its
    line, the Token pips inside the card (Recommender's were pushed off), the picture whole."""
    from tokens_edu import load_cards
    from tokens_edu.present.faces import card_face, table_pictures

    start, = _states_of([])
    state = dict(start, hand=[card_face(c) for c in load_cards().cards()], moves=[])
    page = open_widget("table.js", "table.css", {"state": state, "palette": COLOR_STYLES,
                                                  "pictures": table_pictures()}, "faces")
    page.locator(".tt-hand .tk-face >> nth=69").wait_for(state="attached")
    found = page.evaluate("""() => [...document.querySelectorAll('.tt-hand .tk-face')].map(f => {
        const r = f.getBoundingClientRect(), name = f.querySelector('.tk-name'), pips = f.querySelector('.tk-tokens');
        const art = f.querySelector('.tk-art').getBoundingClientRect(), svg = f.querySelector('.tk-art svg');
        const s = svg ? svg.getBoundingClientRect() : art;
        const p = pips ? pips.getBoundingClientRect() : r;
        let small = 99;
        const w = document.createTreeWalker(f, NodeFilter.SHOW_TEXT);
        for (let x = w.nextNode(); x; x = w.nextNode()) if (x.textContent.trim()) small = Math.min(small, parseFloat(getComputedStyle(x.parentElement).fontSize));
        return [name.textContent, small, name.scrollWidth <= name.clientWidth + 1,
                p.right <= r.right + 0.5 && p.left >= r.left - 0.5, !!svg && s.top >= art.top - 0.5 && s.bottom <= art.bottom + 0.5]; })""")
    assert len(found) == 70
    bad = [f for f in found if f[1] < 12 or not all(f[2:])]
    assert not bad, bad
