"""Every dashboard page in Chromium at a school laptop's size (1366x768): what a student typed
never draws outside its box, the clock is the kit's 24-hour one, the replay draws its table,
and axe-core finds no accessibility problem. Screenshots go to ``TOKENS_EDU_SCREENSHOTS`` when
that is set (to look at them), else to the test's temporary folder.

The dashboard runs in this process (``test_dashboard.Dash``) on a throwaway SQLite file.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from urllib.parse import urlencode

import pytest

from axe import axe_violations, describe
from teacher_helpers import only_loopback
from test_dashboard import TOKEN, Dash, save
from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.store.games import GameStore
from tokens_edu.store.roster import Roster

# A "Zalgo" answer: letters under towers of combining marks, which draw far above and below
# the line (Chromium does not grow the line for them).
MARKS = "".join(chr(c) for c in range(0x0300, 0x0370))
ZALGO = " ".join("".join(ch + MARKS for ch in word) for word in ("look", "at", "me"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dash-browser")
    db = f"sqlite:///{folder / 'journal.sqlite'}"
    Roster(db).add(["Quiet Quinn"])
    for i, (name, text) in enumerate([("Ana", "A chatbot guesses the next word."),
                                      ("Bo", ZALGO),
                                      ("Cy", "It learned from lots of text, so it can be wrong."),
                                      ("Di", "W" * 300)]):
        save(db, name, "GPT", text)
    save(db, "Ana", "Deepfake", "Check where a video comes from.", lesson="04-keywords")
    # concept checks beside the answers (checked by axe with the rest of the Answers page)
    from tokens_edu.session.journal import Journal

    Journal(db, student="Ana", lesson="01-read-a-card").save_response(
        "Which card earns more Tokens?", "GPT", kind="prediction", correct=True)
    Journal(db, student="Bo", lesson="01-read-a-card").save_response(
        "Which card earns more Tokens?", ZALGO, kind="prediction", correct=False)
    from tokens_edu.store import Stores, Writer  # lesson 12's sentences, one hidden

    sentences = Stores(db).sentences
    sentences.save(Writer("Ana", trusted=True), "12-finish-my-sentence", "I like to read comics.")
    sentences.hide(sentences.save(Writer("Bo", trusted=True), "12-finish-my-sentence", "W" * 200))
    store = GameStore(db)
    d = starter_decks()
    game = Game.new(d[0], d[7], seed=3, names=("Ana", "Computer"))
    gid = store.start(game, "Ana", "05-play-the-computer", ("human", "greedy"), "turn", page="p")
    bot = GreedyBot()
    for _ in range(15):
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    dash = Dash(db)
    shots = Path(os.environ.get("TOKENS_EDU_SCREENSHOTS") or folder / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    yield {"dash": dash, "db": db, "game": gid, "shots": shots}
    dash.stop()


def open_page(browser, site, path: str, **context_args):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, **context_args)
    context.route("**/*", only_loopback)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(site["dash"].root + "login?" + urlencode({"token": TOKEN, "next": "/" + path}))
    if not path.startswith("games/"):  # the first live update has replaced the page's content
        page.wait_for_function("() => document.getElementById('live-status').textContent.includes('updated')")
    return context, page


def pixels(png: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")


def outside_differs(before, after, box) -> int:
    """How many pixels differ between two screenshots outside ``box`` (a bounding box)."""
    from PIL import ImageChops, ImageDraw

    diff = ImageChops.difference(before, after)
    ImageDraw.Draw(diff).rectangle([int(box["x"]) - 1, int(box["y"]) - 1, int(box["x"] + box["width"]) + 1,
                                    int(box["y"] + box["height"]) + 1], fill=(0, 0, 0))
    return sum(1 for p in diff.get_flattened_data() if p != (0, 0, 0)) if hasattr(
        diff, "get_flattened_data") else sum(1 for p in diff.getdata() if p != (0, 0, 0))


@pytest.mark.parametrize("path,box", [("wall?lesson=01-read-a-card&card=GPT", ".tile"),
                                      ("?card=GPT", "td.answer")])
def test_an_answer_never_draws_outside_its_box(browser, site, path, box):
    """The page with the answer's text drawn and with it made invisible (the same layout) is
    the same outside the answer's own box: its ink stays in the box (before, the marks drew
    over the tiles and rows around)."""
    context, page = open_page(browser, site, path)
    try:
        target = next(i for i in range(page.locator(box).count())
                      if MARKS[:5] in page.locator(box).nth(i).inner_text())
        cell = page.locator(box).nth(target)
        cell.scroll_into_view_if_needed()
        page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
        with_marks = pixels(page.screenshot())
        where = cell.bounding_box()
        cell.evaluate("(el) => { el.style.color = 'transparent'; }")  # the same layout, no ink
        without = pixels(page.screenshot())
        assert outside_differs(with_marks, without, where) == 0
    finally:
        context.close()


def test_the_live_clock_is_24_hour(browser, site):
    """The dashboard said "updated 3:04:05 PM" where the students' pages say 15:04."""
    context, page = open_page(browser, site, "", locale="en-US", timezone_id="UTC")
    try:
        page.clock.set_fixed_time("2026-12-01T15:04:05Z")
        page.reload()
        page.wait_for_function("() => document.getElementById('live-status').textContent.includes('updated')")
        status = page.locator("#live-status").inner_text()
        assert "15:04:05" in status and "PM" not in status, status
    finally:
        context.close()


def test_the_replay_draws_the_table_and_steps(browser, site):
    context, page = open_page(browser, site, f"games/{site['game']}")
    try:
        board = page.locator(".replay-board")
        board.locator("*").first.wait_for()  # drawn by the lessons' table.js
        # every card face on the replay draws its own picture, as in the lessons (issue 30)
        faces = board.locator(".tt-card .tk-face")
        faces.first.wait_for()
        drawn = page.evaluate("""() => [...document.querySelectorAll('.replay-board .tt-card .tk-face')].map(f => {
            const svg = f.querySelector('.tk-art svg'); return svg ? svg.querySelectorAll('path').length : 0; })""")
        assert drawn and all(n >= 1 for n in drawn), drawn
        caption = page.locator(".replay-caption").inner_text()
        page.locator("button[data-go=start]").click()
        page.wait_for_function("c => document.querySelector('.replay-caption').textContent !== c", arg=caption)
        assert page.locator(".replay").get_attribute("data-step") == "0"
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('.replay').dataset.step === '1'")
        assert page.locator(".replay-lines div").count() >= 1
        page.locator("button[data-seat='1']").click()
        page.wait_for_function("() => document.querySelector('.replay').dataset.seat === '1'")
        assert page.locator(".other-name").inner_text() == "Ana"
    finally:
        context.close()


PAGES = {"answers": "", "progress": "progress", "questions": "questions", "wall": "wall?lesson=01-read-a-card&card=GPT",
         "games": "games", "replay": None, "login": "login", "logged-out": "logout", "sentences": "sentences",
         "drawings": "drawings"}


@pytest.mark.parametrize("name", list(PAGES))
def test_each_page_at_1366x768_passes_axe(browser, site, name):
    path = PAGES[name] if PAGES[name] is not None else f"games/{site['game']}"
    if name in ("login", "logged-out"):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.route("**/*", only_loopback)
        page = context.new_page()
        page.goto(site["dash"].root + path)
    else:
        context, page = open_page(browser, site, path)
    try:
        page.wait_for_load_state("networkidle") if name != "answers" else None
        if name == "replay":
            page.locator(".replay-board *").first.wait_for()
        page.screenshot(path=str(site["shots"] / f"{name}.png"))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 1366, f"{name} scrolls sideways ({width} px)"
        # the replay's card table is the lessons' own (widgets/static/table.js), checked with
        # the lessons; here, the dashboard's page around it
        found = axe_violations(page, exclude=[".replay-board"] if name == "replay" else ())
        assert not found, describe(found)
    finally:
        context.close()
