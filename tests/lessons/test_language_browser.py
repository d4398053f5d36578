"""Lesson 12 ("Finish my sentence") in a real browser at 1366x768 (issue 27): a student goes
through every step by clicking, the page shows no error (none on the page, in the console or in
a cell's output), axe-core finds nothing serious or critical (after the clicks, so what the
clicks reveal is checked too), the page is at most 6 screens long, nothing is fetched from
outside this machine, and the student's work is in the database afterwards.

``tokens-edu serve`` on a free port with a temporary data folder; Debian's Chromium through
Playwright; every request that leaves this machine is aborted and listed (the test fails if there
is one). Fails (never skips) in CI when Chromium is missing.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe import counts, describe, run_axe, serious
from pages import Server, VIEWPORT
from playwright.sync_api import expect
from teacher_helpers import need_chromium

from tokens_edu.store import Stores

pytestmark = pytest.mark.browser

LESSON = "12-finish-my-sentence"
MAX_SCREENS = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()  # before starting a server for nothing
    tmp_path = tmp_path_factory.mktemp("language-browser")
    data = tmp_path / "data"
    data.mkdir()
    srv = Server(data, tmp_path / "serve.log", ["--pool-size", "1", "--preheat-only", LESSON])
    try:
        srv.wait_ready()
        srv.data_dir = data
        yield srv
    finally:
        srv.stop()


def page_length(page) -> float:
    """The page's height in screens of 768 px (as benchmarks/browser_latency.py measures it)."""
    return page.evaluate("() => Math.max(document.documentElement.scrollHeight, "
                         "...[...document.querySelectorAll('#rendered_cells, .jp-Notebook')].map(e => e.scrollHeight))"
                         ) / VIEWPORT["height"]


def shoot(page, path: Path) -> None:
    """The whole page in one picture, 1366 px wide (the lesson scrolls inside Voila's own box, so
    the window is made as tall as the page for a moment)."""
    page.set_viewport_size({"width": VIEWPORT["width"], "height": int(page_length(page) * VIEWPORT["height"]) + 40})
    page.screenshot(path=str(path))
    page.set_viewport_size(VIEWPORT)


def other_extension(text: str) -> bool:
    """A console error of another JupyterLab extension installed beside Voila (the venv's
    jupyter-server-proxy asks for JupyterLab's file browser, which a Voila page has not): not this
    lesson's; every other error counts."""
    return "/voila/labextensions/" in text and "tokens" not in text.split("/voila/labextensions/")[1][:40]


def test_lesson_12_by_clicking(server, browser):
    outside: list[str] = []
    problems: list[str] = []

    def route(r):
        host = urlsplit(r.request.url).hostname or ""
        if host in ("127.0.0.1", "localhost", "::1") or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context = browser.new_context(viewport=VIEWPORT)
    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" and not other_extension(m.text) else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.set_default_timeout(90_000)
    try:
        page.goto(f"{server.url}/voila/render/{LESSON}.ipynb?student=test", wait_until="commit")
        page.locator(".tokens-discuss-answer textarea >> nth=-1").first.wait_for(state="attached")
        expect(page.locator(".tokens-lm-chips").first).to_be_visible()
        screens = page_length(page)
        print(f"lesson 12: {screens:.2f} screens of 768 px")
        shots = os.environ.get("TOKENS_EDU_SCREENSHOTS")  # to look at the page (full length)
        if shots:
            shoot(page, Path(shots) / "lesson-12-start.png")
        assert screens <= MAX_SCREENS, f"lesson 12 is {screens:.1f} screens long"

        # step 1: tokens
        page.locator(".tokens-lm-text input").fill("Isn't AI fun?")
        expect(page.locator(".tokens-lm-chips").first).to_have_attribute("aria-label", "4 tokens: isn't, ai, fun, ?")

        # step 2: a guess, then the counts
        guess = page.locator(".tokens-lm-result")
        page.locator(".tokens-lm-context select").select_option(label="“like to”")
        page.locator(".tokens-lm-reveal").click()
        expect(page.locator(".tokens-lm-message").first).to_contain_text("Type your guess first")
        page.locator(".tokens-lm-guess-box input").fill("play")
        page.locator(".tokens-lm-reveal").click()
        expect(guess).to_contain_text("You got it!")
        expect(guess.locator("tr.tokens-lm-guess")).to_have_attribute("data-token", "play")

        # step 3: a sentence with a name is warned about, then shared anyway; the bars change
        share = page.locator(".tokens-lm-sentence input")
        share.fill("I like to juggle with Sam.")
        page.locator(".tokens-lm-share").click()
        expect(page.locator(".tokens-lm-warning")).to_contain_text("person's name")
        page.locator(".tokens-lm-anyway").click()
        watch = page.locator(".tokens-lm-watch")
        expect(watch.locator("tr[data-token='juggle']")).to_contain_text("+1 new")
        expect(guess.locator("tr[data-token='juggle']")).to_have_count(1)  # the guess step redrew too

        # step 4: write with the model: a pick, the dice, and five sentences with no surprise
        writer = page.locator(".tokens-lm-writing")
        before = writer.inner_text()
        page.locator(".tokens-lm-pick").first.click()
        expect(writer).not_to_have_text(before)
        page.locator(".tokens-lm-dice").click()
        expect(page.locator(".tokens-lm-message", has_text="The dice picked")).to_have_count(1)
        page.locator(".tokens-lm-surprise button", has_text="Always the likeliest").click()
        expect(page.locator(".tokens-lm-surprise button.mod-active")).to_have_text("Always the likeliest")
        page.locator(".tokens-lm-five").click()
        five = page.locator(".tokens-lm-sentences li")
        expect(five).to_have_count(5)
        assert len(set(five.all_inner_texts())) == 1

        # step 5: fluent but false; find the seam. Then the private sentence, copied
        page.locator(".tokens-lm-write").first.click()
        page.locator(".tokens-lm-seam-pick button", has_text="gills").click()
        page.locator(".tokens-lm-seam-check").click()
        expect(page.locator(".tokens-lm-message", has_text="You found it!")).to_have_count(1)
        expect(page.locator(".tokens-lm-pieces")).to_contain_text("sharks swim in salty seas")
        page.locator(".tokens-lm-write").nth(1).click()
        expect(page.locator(".tokens-lm-copy")).to_contain_text("555-0192")

        # the exit question and the Discuss answer
        exit_box = page.locator(".tokens-exit").last
        exit_box.locator("label", has_text="Check it in a place you trust").click()
        exit_box.locator("button.tokens-exit-save").click()
        expect(exit_box.locator(".tokens-exit-status")).to_contain_text("You got it")
        page.locator(".tokens-discuss-answer textarea").last.fill("Mine, if I wrote it and checked it.")
        page.locator(".tokens-discuss-save").last.click()
        expect(page.locator(".tokens-discuss-status").last).to_contain_text("Saved")

        # no error anywhere; accessible; nothing fetched from outside
        assert "There was an error" not in page.content()
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr'], .jp-OutputArea-output pre:has-text('Traceback')").count() == 0
        assert not problems, problems
        result = run_axe(page)
        print(f"axe-core, lesson 12 after the clicks: {counts(result)}")
        assert not serious(result), describe(serious(result))
        print(f"lesson 12 after the clicks: {page_length(page):.2f} screens")
        if shots:
            shoot(page, Path(shots) / "lesson-12-after.png")
        assert not outside, f"requests to other machines: {outside}"
    finally:
        context.close()
    stores = Stores(f"sqlite:///{server.data_dir}/journal.sqlite")
    sentences = stores.sentences.table([LESSON])
    assert list(zip(sentences["student"], sentences["text"])) == [("test", "I like to juggle with Sam.")]
    saved = stores.responses.table([LESSON])
    assert {"Next word after “like to”", "Made up: where does it go wrong?"} <= set(saved["question"])
    exit_rows = saved[saved["kind"] == "exit"]
    assert exit_rows["correct"].tolist() == [True]
