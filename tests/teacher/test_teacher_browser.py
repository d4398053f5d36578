"""The teacher dashboard in a real browser, while students save answers on real lesson pages.

``tokens-edu serve`` (Voila, lesson 01 warm) and ``tokens-edu teacher`` run on free ports
with one temporary data folder. Two students open lesson 01 in their own browser windows and
save answers while the dashboard is open in a third: both answers appear on the dashboard
without a reload. Then the answer wall shows them without names, the CSV downloaded from the
page is formula-safe, and a visitor without the teacher's token sees none of it.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import expect

from teacher_helpers import Proc, clean_env, free_port, need_chromium, only_loopback

pytestmark = pytest.mark.browser

LESSON = "01-read-a-card.ipynb"
TOKEN = "browser-test-teacher-token"
STUDENTS = {"Zanzibar Quill": "=HYPERLINK(\"http://evil.example\",\"click\") is not an answer",
            "Orla Vantwest": "A chatbot guesses the next words from examples."}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    need_chromium()
    tmp = tmp_path_factory.mktemp("teacher-browser")
    data = tmp / "data"
    data.mkdir()
    env = clean_env(data, TOKENS_EDU_TEACHER_TOKEN=TOKEN)
    lessons_port, teacher_port = free_port(), free_port()
    serve = Proc(["serve", "--port", str(lessons_port), "--data-dir", str(data), "--pool-size", "2",
                  "--preheat-only", LESSON], env, tmp / "serve.log")
    teacher = Proc(["teacher", "--port", str(teacher_port), "--data-dir", str(data)], env,
                   tmp / "teacher.log")
    try:
        teacher.wait_for_url(f"http://127.0.0.1:{teacher_port}/login")
        serve.wait_for_url(f"http://127.0.0.1:{lessons_port}/voila/tree")
        yield {"lessons": f"http://127.0.0.1:{lessons_port}", "teacher": f"http://127.0.0.1:{teacher_port}",
               "data": data, "teacher_log": teacher}
    finally:
        serve.stop()
        teacher.stop()



def new_page(browser, **kwargs):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, **kwargs)
    context.route("**/*", only_loopback)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, page


def save_answer(page, url: str, name: str, text: str) -> None:
    page.goto(url + f"/voila/render/{LESSON}?student={name.replace(' ', '%20')}", wait_until="commit")
    box = page.locator(".tokens-discuss").last
    box.wait_for(state="visible")
    box.scroll_into_view_if_needed()
    assert box.locator(".tokens-discuss-name input").input_value() == name
    box.locator(".tokens-discuss-answer textarea").fill(text)
    box.locator("button.tokens-discuss-save").click()
    expect(box.locator(".tokens-discuss-status")).to_contain_text("Saved", timeout=30_000)


def test_dashboard_shows_two_students_answers_live_hides_names_on_the_wall_and_exports_safely(
        servers, browser):
    printed = servers["teacher_log"].text()
    assert f"/login?token={TOKEN}" in printed  # the command prints the teacher's link
    contexts = []
    try:
        tctx, dash = new_page(browser, accept_downloads=True)
        contexts.append(tctx)
        dash.goto(servers["teacher"] + f"/login?token={TOKEN}")
        assert "token" not in dash.url  # taken out of the address bar
        dash.locator("#live").first.wait_for()
        dash.wait_for_function("() => document.getElementById('live-status').textContent.startsWith('Live')")
        dash.evaluate("window.__sameDocument = 'yes'")  # gone if the page reloads

        pages = []
        for name in STUDENTS:
            ctx, page = new_page(browser)
            contexts.append(ctx)
            pages.append((name, page))
        for name, page in pages:  # both students at work while the dashboard is open
            save_answer(page, servers["lessons"], name, STUDENTS[name])

        for name, text in STUDENTS.items():
            dash.locator("#live td.answer", has_text=text[:30]).wait_for(timeout=30_000)
            dash.locator("#live td.student", has_text=name).first.wait_for()
        assert dash.evaluate("window.__sameDocument") == "yes"  # no reload happened
        live = dash.locator("#live-status").inner_text()  # the one 24-hour clock of every page
        assert re.fullmatch(r"Live · updated \d\d:\d\d:\d\d", live), live

        # the answer wall: both answers, large, no names anywhere on the page
        dash.goto(servers["teacher"] + "/wall")
        dash.locator(".wall .tile").nth(1).wait_for()
        content = dash.content()
        for name, text in STUDENTS.items():
            assert name not in content and name.split()[1] not in content
            assert dash.locator(".wall .tile", has_text=text[:30]).count() == 1
        size = dash.evaluate("parseFloat(getComputedStyle(document.querySelector('.tile')).fontSize)")
        assert size >= 24  # readable on a projector
        assert "GPT" in dash.locator(".wall-card").inner_text()

        # the CSV from the page's own link: every text cell is safe in a spreadsheet
        dash.goto(servers["teacher"] + "/")
        with dash.expect_download() as info:
            dash.locator("a.button", has_text="Download CSV").click()
        body = open(info.value.path(), encoding="utf-8-sig").read()
        rows = list(csv.DictReader(io.StringIO(body, newline="")))
        assert {r["student"] for r in rows} >= set(STUDENTS)
        for row in rows:
            for value in row.values():
                assert not re.match(r"[=+\-@\t\r]", value), value
        evil = next(r for r in rows if r["student"] == "Zanzibar Quill")
        assert evil["answer"] == "'" + STUDENTS["Zanzibar Quill"]

        # a visitor without the token: the login page, none of the answers
        vctx, visitor = new_page(browser)
        contexts.append(vctx)
        for path in ("/", "/wall", "/progress", "/export.csv", f"/?token={TOKEN[:-1]}x"):
            visitor.goto(servers["teacher"] + path)
            assert "/login" in visitor.url
            html = visitor.content()
            assert "Orla" not in html and "chatbot guesses" not in html
        visitor.fill("input[name=secret]", "not the token")
        visitor.click("button[type=submit]")
        assert "not right" in visitor.locator(".problem").inner_text()
    finally:
        for ctx in contexts:
            ctx.close()


def test_with_a_roster_a_page_takes_the_name_from_the_code_and_refuses_a_classmates_name(
        servers, browser):
    """On a real lesson page: the personal link names the student (no name box); a link with a
    classmate's name but no code cannot save; a wrong code is refused; the right code saves."""
    from tokens_edu.session.journal import Journal
    from tokens_edu.store.roster import Roster

    url = f"sqlite:///{servers['data']}/journal.sqlite"
    codes = {e.name: e.code for e in Roster(url).add(["Roster Ana", "Roster Bo"])}
    contexts = []
    try:
        ctx, page = new_page(browser)
        contexts.append(ctx)
        page.goto(servers["lessons"] + f"/voila/render/{LESSON}?code={codes['Roster Ana']}",
                  wait_until="commit")
        box = page.locator(".tokens-discuss").last
        box.wait_for(state="visible")
        assert box.locator(".tokens-discuss-name").count() == 0  # no name box with a roster
        assert "Saving as Roster Ana" in box.locator(".tokens-discuss-who").inner_text()
        box.locator(".tokens-discuss-answer textarea").fill("Ana's own answer")
        box.locator("button.tokens-discuss-save").click()
        expect(box.locator(".tokens-discuss-status")).to_contain_text("Saved", timeout=60_000)

        ctx, page = new_page(browser)
        contexts.append(ctx)
        page.goto(servers["lessons"] + f"/voila/render/{LESSON}?student=Roster%20Ana",
                  wait_until="commit")  # a classmate's name in the link, no code
        box = page.locator(".tokens-discuss").last
        box.wait_for(state="visible")
        assert box.locator(".tokens-discuss-name").count() == 0
        assert "Type the code" in box.locator(".tokens-discuss-who").inner_text()
        box.locator(".tokens-discuss-answer textarea").fill("pretending to be Ana")
        box.locator("button.tokens-discuss-save").click()
        expect(box.locator(".tokens-discuss-status")).to_contain_text("code", timeout=60_000)
        assert "Saved" not in box.locator(".tokens-discuss-status").inner_text()
        code = box.locator(".tokens-discuss-code input")
        code.fill("WRONG9")
        code.press("Enter")
        expect(box.locator(".tokens-discuss-status")).to_contain_text("not on the class list", timeout=60_000)
        code.fill(codes["Roster Bo"])
        code.press("Enter")
        expect(box.locator(".tokens-discuss-who")).to_contain_text("Saving as Roster Bo", timeout=60_000)
        box.locator(".tokens-discuss-answer textarea").fill("Bo's answer, with Bo's code")
        box.locator("button.tokens-discuss-save").click()
        expect(box.locator(".tokens-discuss-status")).to_contain_text("Saved", timeout=60_000)
    finally:
        for ctx in contexts:
            ctx.close()
    rows = Journal(url).answers(all_students=True)
    mine = rows[rows["student"].str.startswith("Roster")]
    assert dict(zip(mine["answer"], mine["student"])) == {
        "Ana's own answer": "Roster Ana", "Bo's answer, with Bo's code": "Roster Bo"}
    assert "pretending to be Ana" not in set(rows["answer"])
