"""Resume in a real browser: play a few moves of lesson 5, reload, continue from the same position.

``tokens-edu serve`` runs lesson 5 on a free port. A student plays some moves by clicking cards
(the computer plays its turn by itself), reloads the page, clicks "Continue your game", and gets
the same table: the same hand, board, Tokens and whose move it is, equal to the saved record.
Every websocket frame of both page loads is checked: none holds a computer card that is not
public (its hand and deck), and none holds the saved record.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from pages import page_data
from teacher_helpers import Proc, need_chromium, clean_env, free_port, launch, only_loopback

pytestmark = pytest.mark.browser

LESSON = "05-play-the-computer.ipynb"
STUDENT = "Resuming Rita"
VIEWPORT = {"width": 1366, "height": 768}

SETTLED = """(root) => new Promise(resolve => {
  const poll = () => {
    const t = document.querySelector(root + ' .tokens-table');
    const status = t ? (t.querySelector('.tokens-status') || {}).textContent || '' : '';
    const waiting = t && !t.classList.contains('tt-busy') && t.querySelector('.tt-panel .tokens-action');
    if (t && (t.querySelector('.tt-banner') || (waiting && !status.includes('computer')))) { resolve(true); return; }
    setTimeout(poll, 30);
  };
  poll();
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()
    tmp = tmp_path_factory.mktemp("resume")
    data = tmp / "data"
    data.mkdir()
    port = free_port()
    proc = Proc(["serve", "--port", str(port), "--data-dir", str(data), "--pool-size", "2",
                 "--preheat-only", LESSON], clean_env(data), tmp / "serve.log")
    try:
        proc.wait_for_url(f"http://127.0.0.1:{port}/voila/tree")
        yield {"url": f"http://127.0.0.1:{port}", "data": data}
    finally:
        proc.stop()


def frame_text(payload) -> str:
    if isinstance(payload, (bytes, bytearray)):
        return bytes(payload).decode("utf-8", errors="replace")
    return str(payload)


def table_states(text: str) -> list[dict]:
    """Every card-table ``state`` dict in one frame."""
    out = []
    for m in re.finditer(r'\{"state": ?\{"(?:seat|v|sides)"', text):
        start = m.start() + text[m.start():].index('{"', 1)
        try:
            obj, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            continue
        if isinstance(obj, dict) and "sides" in obj:
            out.append(obj)
    return out


def disjoint_decks() -> tuple[int, int]:
    from tokens_edu import starter_decks

    decks = starter_decks()
    names = [{c.name for c in d} for d in decks]
    for b in range(len(decks) - 1, -1, -1):
        for a in range(len(decks)):
            if a != b and not names[a] & names[b]:
                return a, b
    raise AssertionError("no two starter decks without a shared card")


def tick(page) -> str:
    return page.locator(".tokens-game .tokens-tick").first.text_content() or ""


def click_and_wait(page, locator) -> None:
    before = tick(page)
    locator.click()
    page.wait_for_function("prev => { const t = document.querySelector('.tokens-game .tokens-tick');"
                           " return t && t.textContent !== prev; }", arg=before, timeout=60_000)
    page.evaluate(SETTLED, ".tokens-game")


def one_move(page) -> str:
    """Setup choices first, then a card move without a target (Deploy, Train, Task), else End turn."""
    page.evaluate(SETTLED, ".tokens-game")  # decide on a table that waits for the student, not mid-redraw
    table = page.locator(".tokens-game .tokens-table")
    loose = table.locator(".tt-panel .tt-loose")
    if loose.count():
        texts = [t.strip() for t in loose.all_inner_texts()]
        pick = next((i for i, t in enumerate(texts) if t in ("Go first", "Keep this hand")), 0)
        click_and_wait(page, loose.nth(pick))
        return texts[pick]
    ids = page.evaluate("() => [...document.querySelectorAll('.tokens-game .tt-card.tt-playable')]"
                        ".map(e => e.dataset.id)")
    for want in ("Deploy", "Run a Task", "Train"):
        for card_id in ids:
            card = table.locator(f".tt-card[data-id='{card_id}']")
            if not card.count():
                continue
            if "tt-selected" not in (card.get_attribute("class") or ""):
                card.click(position={"x": 6, "y": 6})  # its corner: the middle has one-click buttons
            verbs = table.locator(".tt-panel .tt-verb")
            texts = [t.strip() for t in verbs.all_inner_texts()]
            hit = next((j for j, t in enumerate(texts) if t.startswith(want)
                        and "tt-aim" not in (verbs.nth(j).get_attribute("class") or "")), None)
            if hit is None:
                page.keyboard.press("Escape")
                continue
            click_and_wait(page, verbs.nth(hit))
            return want
    click_and_wait(page, table.locator(".tt-panel .tt-end"))
    return "End turn"


def table_now(page) -> dict:
    """What the student sees: hand, board cards, Tokens of both sides, whose move."""
    return page.evaluate("""() => {
      const t = document.querySelector('.tokens-game .tokens-table');
      const ids = sel => [...t.querySelectorAll(sel)].map(e => e.dataset.id || e.textContent.trim());
      return {hand: ids('.tt-hand .tt-card').map(x => x.replace(/^hand:/, '').replace(/#[0-9]+$/, '')), board: ids('.tt-board .tt-card'),
              top: (t.querySelector('.tt-side-top') || {}).innerText,
              bottom: (t.querySelector('.tt-side-bottom') || {}).innerText,
              status: (t.querySelector('.tokens-status') || {}).textContent};
    }""")


def saved_record(data, student=STUDENT):
    from tokens_edu.store.games import GameStore

    store = GameStore(f"sqlite:///{data}/journal.sqlite")
    return store.unfinished(student, "05-play-the-computer")


def test_reload_continues_the_same_game_and_frames_hold_no_hidden_card(server, browser_ctx):
    from tokens_edu import Game, starter_decks

    mine, theirs = disjoint_decks()
    computer_names = {c.name for c in starter_decks()[theirs]}
    frames: list[str] = []
    page = browser_ctx.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(frame_text(p))))
    page.set_default_timeout(60_000)
    url = f"{server['url']}/voila/render/{LESSON}?student={STUDENT.replace(' ', '%20')}"
    page.goto(url, wait_until="commit")
    page.locator("button.tokens-start").first.wait_for(state="visible")
    assert "saved after every move" in page.locator(".tokens-page-note").inner_text()
    page.locator(".tokens-new-game-setup select").nth(0).select_option(index=mine)
    page.locator(".tokens-new-game-setup select").nth(1).select_option(index=theirs)
    page.locator("button.tokens-start").click()
    page.locator(".tokens-game .tokens-table .tt-side-bottom").first.wait_for(state="visible")
    page.evaluate(SETTLED, ".tokens-game")
    if page.locator(".tt-speed select").count():
        page.locator(".tt-speed select").select_option(label="fast")
    did = [one_move(page) for _ in range(8)]
    assert "End turn" in did or "Deploy" in did or "Train" in did, did
    before = table_now(page)

    # the server has the game as the page shows it
    deadline = time.monotonic() + 20
    while True:
        saved = saved_record(server["data"])
        game = Game.from_record(saved.record) if saved else None
        if game is not None and sorted(c.name for c in game.observation(0).hand) == sorted(before["hand"]):
            break
        assert time.monotonic() < deadline, ("the game was not saved as the page shows it",
                                             before, saved and saved.summary(),
                                             game and [c.name for c in game.observation(0).hand])
        time.sleep(0.3)
    moves = saved.moves

    page.reload(wait_until="commit")
    page.locator("button.tokens-continue").wait_for(state="visible")
    offer = page.locator(".tokens-resume").inner_text()
    assert f"{moves} moves" in offer and f"Turn {game.turn}" in offer
    assert not page.locator("button.tokens-start").is_visible()
    page.locator("button.tokens-continue").click()
    page.locator(".tokens-game .tokens-table .tt-side-bottom").first.wait_for(state="visible")
    page.evaluate(SETTLED, ".tokens-game")
    after = table_now(page)
    assert sorted(after["hand"]) == sorted(before["hand"])
    assert sorted(after["board"]) == sorted(before["board"])
    assert after["top"] == before["top"] and after["bottom"] == before["bottom"]
    assert f"{STUDENT} (you)" in after["bottom"] or STUDENT in after["bottom"]
    # and play goes on, still saved
    one_move(page)
    deadline = time.monotonic() + 20
    while saved_record(server["data"]).moves <= moves:
        assert time.monotonic() < deadline, "moves after continuing are not saved"
        time.sleep(0.3)

    # no frame of either page load held a computer card that was not public, nor the record
    public: set[str] = set()
    states = 0
    for text in frames:
        assert '"actions": [' not in text and '"actions":[' not in text  # never the record
        for st in table_states(text):
            states += 1
            faces = [c["face"]["name"] for c in st["board"]] + [f["name"] for s in st["sides"] for f in s["discard"]]
            public |= {n for n in computer_names if n in faces or any(n in line for line in st.get("log", []))}
            assert not computer_names & {f["name"] for f in st["hand"]}
        text = page_data(text)  # not the widgets' shipped code (table.js names a card in a comment)
        for name in computer_names - public:
            assert name not in text, f"the computer's hidden {name} reached the page: {text[:300]}"
    assert states > 5


@pytest.fixture(scope="module")
def browser_ctx(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        ctx = b.new_context(viewport=VIEWPORT)
        ctx.route("**/*", only_loopback)
        try:
            yield ctx
        finally:
            ctx.close()
            b.close()


def test_another_browser_with_the_same_link_sees_no_answer_and_no_game(server, browser_ctx):
    """Issue 20: without a class list, a name in the link is not a key. The student's own
    browser gets their answer and game back after a reload; another browser (its own
    localStorage, so its own secret) opening the very same link gets neither."""
    name = "Private Pat"
    url = f"{server['url']}/voila/render/{LESSON}?student={name.replace(' ', '%20')}"
    words = "Pat's words, for Pat's browser only."
    page = browser_ctx.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, wait_until="commit")
    page.locator("button.tokens-start").first.wait_for(state="visible")
    box = page.locator(".tokens-discuss").first
    box.locator("textarea").fill(words)
    box.locator(".tokens-discuss-save").click()
    page.wait_for_function("() => /Saved at/.test(document.querySelector('.tokens-discuss-status').textContent)")
    page.locator("button.tokens-start").click()
    page.locator(".tokens-game .tokens-table .tt-side-bottom").first.wait_for(state="visible")
    page.evaluate(SETTLED, ".tokens-game")
    one_move(page)
    deadline = time.monotonic() + 20
    while not (saved_record(server["data"], name) or None):
        assert time.monotonic() < deadline, "the game was not kept"
        time.sleep(0.3)

    page.reload(wait_until="commit")  # the same browser: its answer and its game come back
    page.locator("button.tokens-continue").wait_for(state="visible")
    page.wait_for_function("w => document.querySelector('.tokens-discuss textarea').value === w", arg=words)

    other = browser_ctx.browser.new_context(viewport=VIEWPORT)  # another browser: its own storage
    other.route("**/*", only_loopback)
    try:
        stranger = other.new_page()
        stranger.set_default_timeout(60_000)
        stranger.goto(url, wait_until="commit")
        stranger.locator("button.tokens-start").first.wait_for(state="visible")
        stranger.locator(".tokens-discuss textarea").first.wait_for()
        stranger.wait_for_timeout(3000)  # time for its browser's message and any offer
        assert stranger.locator(".tokens-discuss textarea").input_value() == ""
        assert not stranger.locator("button.tokens-continue").is_visible()
        assert words not in stranger.content()
    finally:
        other.close()
