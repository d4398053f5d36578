"""The card table on every screen a school has (issue 30 part 1), in Chromium with Playwright.

A whole lesson-5 game is played by tapping on a phone (390x844) and an upright tablet
(768x1024), both touch screens (``has_touch``, ``is_mobile``: the page's own viewport tag is
used, as on a real phone). On each, and on a 1366x768 Chromebook with a mouse, the test checks:

- nothing is wider than the window (the page does not scroll sideways; only the hand and the
  rows of cards in play scroll sideways inside the table, a swipe);
- in the student's turn the hand, its move buttons and End turn are on one screen: with the
  table (else the hand) at the top of the window, the hand and End turn are whole in the
  window, End turn under the hand on a narrow screen (the panel goes under the felt), beside it
  on a wide one;
- every button, list summary and menu of the game and of its setup is at least 44x44 px on a
  touch screen (WCAG 2.5.5 target size);
- no text on the table is under 12 px, every card picture is whole in its box and every
  card's Token pips are inside the card.

Lesson 1 (the lesson about reading a card: a card, a Tool and an Action, the gallery, a Discuss
box) is read at 1366x768 and 390x844: every card's text is 12 px or more, its picture whole.

The figures (sizes, the clicks of each round) are printed (``pytest -s``). The whole games at
1366x768 by mouse and by keyboard are in ``test_browser.py``.
"""

from __future__ import annotations

import statistics

import pytest
from teacher_helpers import need_chromium, only_loopback
from pages import LESSON, SETTLED, Server, student_and_computer_decks, student_move

pytestmark = pytest.mark.browser

MAX_MOVES = 1500  # safety cap: a game against GreedyBot takes a few hundred moves at most
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
CHROMEBOOK = {"width": 1366, "height": 768}
#: WCAG 2.5.5 (target size): a control pressed by a finger is at least this wide and high (px).
TARGET = 44
#: The least size of text on the table (px).
MIN_TEXT = 12

# What is wider than the window (elements outside a row that scrolls sideways inside the
# table), controls under 44x44 px, text under 12 px, and the page's own width.
LAYOUT = """([target, minText, root]) => {
  const vw = document.documentElement.clientWidth;
  const strip = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll") return p;
    }
    return null;
  };
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  const name = (el) => `${el.tagName.toLowerCase()}.${String(el.className && el.className.baseVal === undefined ? el.className : "").trim().split(/\\s+/).slice(0, 2).join(".")} "${(el.textContent || "").trim().slice(0, 24)}"`;
  const wide = [];
  for (const el of document.querySelectorAll("#rendered_cells *, .tokens-game *")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right <= vw + 0.5 && r.left >= -0.5) continue;
    const s = strip(el);
    if (s) { const q = s.getBoundingClientRect(); if (q.right <= vw + 0.5 && q.left >= -0.5) continue; }
    wide.push(`${name(el)} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  const small = [];
  const controls = ".tokens-game button, .tokens-game summary, .tokens-game select, " +
    ".tokens-new-game button, .tokens-new-game select, .tokens-new-game input";
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el) || el.closest(".tt-sr")) continue;
    const r = el.getBoundingClientRect();
    if (r.width < target - 0.5 || r.height < target - 0.5) small.push(`${name(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  const sizes = [];
  const tiny = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest(".tt-sr, [hidden]") || !shown(el)) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    sizes.push(px);
    if (px < minText) tiny.push(`${name(el)} ${px}px`);
  }
  // every card picture whole in its box, every card's Token pips inside the card
  const cut = [];
  for (const face of document.querySelectorAll(".tk-face, .tk-card")) {
    if (!shown(face)) continue;
    const f = face.getBoundingClientRect();
    const art = face.querySelector(".tk-art"), svg = art && art.querySelector("svg"), pips = face.querySelector(".tk-tokens");
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const label = (face.querySelector(".tk-name") || face).textContent.trim();
    if (svg && !inside(svg.getBoundingClientRect(), art.getBoundingClientRect())) cut.push(`${label}: its picture`);
    if (pips && !inside(pips.getBoundingClientRect(), f)) cut.push(`${label}: its pips`);
  }
  return { page: document.documentElement.scrollWidth, window: vw, wide, small, tiny, cut,
           text: sizes.length ? [Math.min(...sizes), Math.max(...sizes), sizes.length] : null };
}"""

# With the table (else the hand) scrolled to the top of the window: where the hand, its moves, the panel with
# End turn and End turn itself are (px from the window's top), and the window's height.
ONE_SCREEN = """() => {
  const t = document.querySelector(".tokens-game .tokens-table");
  const hand = t.querySelector(".tt-hand");
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const dock = t.querySelector(".tt-dock");
  const end = t.querySelector(".tt-panel .tt-end");
  const narrow = dock.getBoundingClientRect().top >= hand.getBoundingClientRect().bottom - 1;  // the panel under the felt
  t.scrollIntoView({ block: "start" });  // the table at the top; if the hand or End turn is not whole then, the hand
  if (Math.max(hand.getBoundingClientRect().bottom, end.getBoundingClientRect().bottom) > window.innerHeight) {
    hand.scrollIntoView({ block: "start" });
  }
  return { hand: box(hand), dock: box(dock), end: box(end),
           narrow, height: window.innerHeight, width: window.innerWidth };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()  # before starting a server for nothing
    tmp_path = tmp_path_factory.mktemp("screens")
    data = tmp_path / "data"
    data.mkdir()
    srv = Server(data, tmp_path / "serve.log", ["--pool-size", "1", "--preheat-only", LESSON])
    try:
        srv.wait_ready()
        yield srv
    finally:
        srv.stop()


def open_lesson_5(browser, server, viewport: dict, touch: bool):
    """A new browser context at ``viewport`` (a touch screen when ``touch``) on lesson 5."""
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    context.route("**/*", only_loopback)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{server.url}/voila/render/{LESSON}?student=screens", wait_until="commit")
    page.locator("button.tokens-start").wait_for(state="visible")
    return context, page


def start_game(page, press: str) -> None:
    """Pick two decks with no card in common and start (a tap or a click on Start)."""
    mine, theirs = student_and_computer_decks()
    page.locator(".tokens-new-game-setup select").nth(0).select_option(index=mine)
    page.locator(".tokens-new-game-setup select").nth(1).select_option(index=theirs)
    getattr(page.locator("button.tokens-start"), press)()
    page.locator(".tokens-game .tokens-table .tt-side-bottom").wait_for(state="visible")
    page.evaluate(SETTLED, ".tokens-game")


def check_layout(page, where: str, touch: bool) -> dict:
    """Nothing wider than the window, 44 px targets (touch), text 12 px or more: the figures."""
    found = page.evaluate(LAYOUT, [TARGET, MIN_TEXT, ".tokens-game .tokens-table"])
    assert found["page"] <= found["window"], f"{where}: the page is {found['page']} px wide in a {found['window']} px window"
    assert not found["wide"], f"{where}: wider than the window: {found['wide'][:8]}"
    if touch:
        assert not found["small"], f"{where}: controls under {TARGET}x{TARGET} px: {found['small'][:8]}"
    assert not found["tiny"], f"{where}: text under {MIN_TEXT} px: {found['tiny'][:8]}"
    assert not found["cut"], f"{where}: cut off: {found['cut'][:8]}"
    return found


def check_one_screen(page, where: str) -> dict:
    """In the student's turn: the hand (with its moves) and End turn fit one screen."""
    page.locator(".tokens-game .tt-panel .tt-end").wait_for(state="attached")
    at = page.evaluate(ONE_SCREEN)
    hand, dock, end, height = at["hand"], at["dock"], at["end"], at["height"]
    assert hand[1] >= -1 and hand[3] <= height + 1, f"{where}: the hand is not whole in the window: {at}"
    assert end and 0 <= end[1] and end[3] <= height + 1, f"{where}: End turn is not in the window: {at}"
    if at["narrow"]:  # the panel under the felt: End turn under the hand
        assert end[1] >= hand[3] - 1, f"{where}: End turn is not under the hand: {at}"
    else:  # the panel beside the felt
        assert end[0] >= hand[2] - 1, f"{where}: End turn is not beside the hand: {at}"
    return at


def play_whole_game(page, where: str, touch: bool, press: str) -> dict:
    """Play lesson 5 to its end with the simple student's taps (or clicks); check the layout and
    the one-screen turn on the way. Returns the figures."""
    if page.locator(".tt-speed select").count():
        page.locator(".tt-speed select").select_option(label="fast")  # the computer plays faster
    rounds, clicks, turn, did, checked, screens, layouts = [], 0, None, [], 0, [], []
    for n in range(MAX_MOVES):
        if page.locator(".tokens-game .tt-banner").count():
            break
        now = page.locator(".tokens-game .tokens-step").inner_text().split(":")[0]
        if now != turn:  # a new turn: the student's presses of the last one make a round
            if turn is not None and turn.startswith("Turn"):
                rounds.append(clicks)
            clicks, turn = 0, now
            hand = page.locator(".tokens-game .tt-hand .tt-card").count()
            if now.startswith("Turn") and hand and checked < 3:  # a turn with cards in hand
                screens.append(check_one_screen(page, f"{where}, {now}"))
                layouts.append(check_layout(page, f"{where}, {now}", touch))
                checked += 1
        what, k = student_move(page, press=press)
        did.append(what)
        clicks += k
    if turn is not None and turn.startswith("Turn") and clicks:
        rounds.append(clicks)
    banner = page.locator(".tokens-game .tt-banner").inner_text()
    assert ("win" in banner.lower() or "draw" in banner.lower()) and "Final Tokens" in banner, banner
    assert {"Run a Task", "Deploy"} <= set(did), did  # real card play, not only End turn
    assert checked >= 2, f"{where}: only {checked} turns with a hand were checked"
    layouts.append(check_layout(page, f"{where}, the game over", touch))
    return {"rounds": rounds, "screens": screens, "layouts": layouts, "moves": len(did)}


def report(where: str, figures: dict) -> None:
    rounds = figures["rounds"]
    texts = [f["text"] for f in figures["layouts"] if f["text"]]
    one = figures["screens"][0]
    print(f"{where}: {figures['moves']} moves; {'taps' if 'tap' in where else 'clicks'} per round "
          f"median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}; text "
          f"{min(t[0] for t in texts)}-{max(t[1] for t in texts)} px; page width "
          f"{figures['layouts'][0]['page']} of {figures['layouts'][0]['window']} px; hand "
          f"{one['hand'][1]:.0f}-{one['hand'][3]:.0f} px, End turn {one['end'][1]:.0f}-{one['end'][3]:.0f} px "
          f"of {one['height']} px")


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone-390x844", "tablet-768x1024"])
def test_a_whole_lesson_5_game_by_tapping(server, browser, viewport):
    """A phone and an upright tablet: the setup and the game fit the width, every control is a
    44 px target, and a whole game is played by tapping, each turn on one screen."""
    where = f"{viewport['width']}x{viewport['height']}, tapping"
    context, page = open_lesson_5(browser, server, viewport, touch=True)
    try:
        check_setup = page.evaluate(LAYOUT, [TARGET, MIN_TEXT, ".tokens-new-game"])
        assert check_setup["page"] <= check_setup["window"] and not check_setup["wide"], check_setup
        assert not check_setup["small"], f"{where}: setup controls under {TARGET} px: {check_setup['small']}"
        start_game(page, "tap")
        figures = play_whole_game(page, where, touch=True, press="tap")
        report(where, figures)  # the taps of each round depend on the deal: printed, not a floor
    finally:
        context.close()


def test_the_table_at_1366x768_by_mouse(server, browser):
    """A Chromebook with a mouse: nothing wider than the window, text 12 px or more, the hand and
    End turn on one screen in the student's turns (the whole games by mouse and keyboard are in
    test_browser.py); the first turns are played by clicking."""
    context, page = open_lesson_5(browser, server, CHROMEBOOK, touch=False)
    try:
        start_game(page, "click")
        screens, layouts = [], []
        turn = None
        for _ in range(60):
            if page.locator(".tokens-game .tt-banner").count() or len(screens) >= 2:
                break
            now = page.locator(".tokens-game .tokens-step").inner_text().split(":")[0]
            if now != turn and now.startswith("Turn") and page.locator(".tokens-game .tt-hand .tt-card").count():
                screens.append(check_one_screen(page, f"1366x768, {now}"))
                layouts.append(check_layout(page, f"1366x768, {now}", touch=False))
            turn = now
            student_move(page)
        assert len(screens) >= 2, screens
        text = layouts[0]["text"]
        print(f"1366x768, clicking: text {text[0]}-{text[1]} px; page width {layouts[0]['page']} px; "
              f"hand {screens[0]['hand']}, End turn {screens[0]['end']}")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [CHROMEBOOK, PHONE], ids=["chromebook-1366x768", "phone-390x844"])
def test_lesson_1_cards_read_at_12_px(server, browser, viewport):
    """Every card lesson 1 shows (Transformer, Python and Bias in Data, the gallery's tiles, a
    Discuss box's card) has its text at 12 px or more and its picture whole; nothing is wider
    than the window."""
    touch = viewport is PHONE
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    try:
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.url}/voila/render/01-read-a-card.ipynb?student=screens", wait_until="commit")
        page.locator(".tokens-discuss-answer textarea >> nth=-1").wait_for(state="attached")
        page.locator(".tokens-gallery-tile .tk-card >> nth=9").wait_for(state="attached")
        found = page.evaluate(LAYOUT, [TARGET, MIN_TEXT, "#rendered_cells"])
        cards = page.evaluate("""(minText) => { const out = {n: 0, tiny: [], sizes: []};
            for (const card of document.querySelectorAll('.tk-card')) {
              out.n += 1;
              const w = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
              for (let x = w.nextNode(); x; x = w.nextNode()) {
                if (!x.textContent.trim()) continue;
                const px = parseFloat(getComputedStyle(x.parentElement).fontSize);
                out.sizes.push(px);
                if (px < minText) out.tiny.push(card.dataset.card + ': ' + x.textContent.trim().slice(0, 20) + ' ' + px);
              }
            }
            out.min = Math.min(...out.sizes); out.count = out.sizes.length; delete out.sizes; return out; }""", MIN_TEXT)
    finally:
        context.close()
    where = f"lesson 1 at {viewport['width']}x{viewport['height']}"
    print(f"{where}: {cards['n']} cards, {cards['count']} text nodes, smallest {cards['min']:.1f} px; "
          f"page {found['page']} px wide")
    assert cards["n"] >= 13, cards  # Transformer, Python, Bias in Data, 10 gallery tiles (+ Discuss)
    assert not cards["tiny"], f"{where}: card text under {MIN_TEXT} px: {cards['tiny'][:8]}"
    assert not found["cut"], f"{where}: cut off: {found['cut'][:8]}"
    assert found["page"] <= found["window"] and not found["wide"], f"{where}: wider than the window: {found['wide'][:8]}"


# The page's height in screens of the window (as tests/lessons/test_language_browser.py measures it).
PAGE_LENGTH = """() => Math.max(document.documentElement.scrollHeight,
  ...[...document.querySelectorAll('#rendered_cells, .jp-Notebook')].map(e => e.scrollHeight)) / window.innerHeight"""
FIRST_ACTION = """() => { for (const el of document.querySelectorAll('#rendered_cells button, #rendered_cells input,'
  + ' #rendered_cells select, #rendered_cells textarea')) { const r = el.getBoundingClientRect();
  if (r.width && r.height && getComputedStyle(el).visibility !== 'hidden') return r.top; } return null; }"""


@pytest.mark.parametrize("lesson", ["01-read-a-card", "05-play-the-computer"])
def test_short_pages_at_1366x768(server, browser, lesson):
    """Lessons 1 and 5 at 1366x768: at most 6 screens long (lesson 1's cards grew to be read at
    12 px; its gallery shows one row of four), the first thing to do on the first screen
    (lesson 5). Prints the figures."""
    context = browser.new_context(viewport=CHROMEBOOK)
    try:
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.url}/voila/render/{lesson}.ipynb?student=screens", wait_until="commit")
        page.locator(".tokens-discuss-answer textarea >> nth=-1").wait_for(state="attached")
        page.wait_for_timeout(1500)  # the last widgets draw
        screens = page.evaluate(PAGE_LENGTH)
        first = page.evaluate(FIRST_ACTION)
    finally:
        context.close()
    print(f"{lesson}: {screens:.2f} screens of 768 px; the first control at {first:.0f} px")
    assert screens <= 6, f"{lesson} is {screens:.2f} screens long"
    if lesson.startswith("05"):
        assert first is not None and first < CHROMEBOOK["height"], f"{lesson}: the first thing to do is at {first} px"
