"""The learning lessons in a real browser at 1366x768 (issue 19): a student draws, labels, trains
and sees the result, by clicking.

- Lesson 8: draw a sign on the pixel grid with the mouse, pick its label, add it to the class's
  examples (several times), learn from the class's drawings, draw a new one and read the live
  guess with its nearest drawings; teach the word classifier and try it. The drawings are in the
  database afterwards.
- Lesson 10: make both guesses, train a batch, see the curve and the bars move, test the player;
  every websocket frame is checked for the computer's hidden cards.
- Lesson 11: test the classifier, add the finger drawings, test again, save the ethical matrix and
  the exit question; the results are in the database.

``tokens-edu serve`` on a free port with a temporary data folder; Debian's Chromium through
Playwright; every request that leaves this machine is aborted. Fails (never skips) in CI when
Chromium is missing.
"""

from __future__ import annotations

import pytest
from teacher_helpers import need_chromium, only_loopback
from pages import Server, VIEWPORT, frame_texts, page_data, table_states

from tokens_edu.session.journal import Journal

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    need_chromium()  # before starting a server for nothing
    tmp_path = tmp_path_factory.mktemp("learning-browser")
    data = tmp_path / "data"
    data.mkdir()
    srv = Server(data, tmp_path / "serve.log", ["--pool-size", "1", "--preheat-only", "08-how-ai-senses"])
    try:
        srv.wait_ready()
        srv.data_dir = data
        yield srv
    finally:
        srv.stop()


def journal(server, lesson: str) -> Journal:
    return Journal(f"sqlite:///{server.data_dir}/journal.sqlite", lesson=lesson)


def open_page(browser, server, lesson: str, student: str = "test", frames: list | None = None):
    context = browser.new_context(viewport=VIEWPORT)
    context.route("**/*", only_loopback)
    page = context.new_page()
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(frame_texts(p))))
    page.set_default_timeout(90_000)
    page.goto(f"{server.url}/voila/render/{lesson}.ipynb?student={student}", wait_until="commit")
    page.locator(".tokens-discuss-answer textarea >> nth=-1").first.wait_for(state="attached")
    assert "There was an error" not in page.content()
    return context, page


def in_window_width(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORT["width"]


# Cells of a 12 x 12 grid, row by row: a ring (Token), a pole with a flag (Flag), a diamond (Data).
SIGNS = {
    "Token": [(2, 5), (2, 6), (3, 4), (3, 7), (4, 3), (4, 8), (5, 3), (5, 8), (6, 3), (6, 8), (7, 3),
              (7, 8), (8, 4), (8, 7), (9, 5), (9, 6)],
    "Flag": [(r, 3) for r in range(2, 11)] + [(2, 4), (2, 5), (3, 6), (3, 7), (4, 6), (4, 5), (5, 4)],
    "Data": [(1, 6), (2, 5), (2, 7), (3, 4), (3, 8), (4, 3), (4, 9), (5, 4), (5, 8), (6, 5), (6, 7), (7, 6)],
}


def draw(page, cells, shift: int = 0) -> None:
    """Draw with the mouse: press on the first square, move over the others, let go."""
    grid = page.locator(".tokens-drawing-lab .tpg-grid")
    grid.scroll_into_view_if_needed()
    before = page.locator(".tokens-drawing-lab .tpg-tick").text_content()
    boxes = []
    for r, c in cells:
        b = page.locator(f".tokens-drawing-lab .tpg-cell[data-i='{r * 12 + min(11, c + shift)}']").bounding_box()
        boxes.append((b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))
    page.mouse.move(*boxes[0])
    page.mouse.down()
    for x, y in boxes[1:]:
        page.mouse.move(x, y, steps=2)
    page.mouse.up()
    page.wait_for_function(  # the kernel took the picture in (its version moves on)
        "prev => document.querySelector('.tokens-drawing-lab .tpg-tick').textContent !== prev", arg=before)


def test_lesson_08_students_draw_label_train_and_see_the_guess(server, browser):
    context, page = open_page(browser, server, "08-how-ai-senses")
    try:
        lab = page.locator(".tokens-drawing-lab")
        lab.scroll_into_view_if_needed()
        assert in_window_width(page, ".tokens-drawing-lab .tpg-grid")
        assert in_window_width(page, ".tokens-drawing-lab .tokens-drawing-add")
        assert "It knows no drawings yet" in lab.locator(".tokens-drawing-guess").inner_text()
        added = 0
        for label in ("Token", "Flag", "Data"):
            for shift in (0, 1):
                draw(page, SIGNS[label], shift)
                lab.locator(".tokens-drawing-labels button", has_text=label).click()
                lab.locator("button.tokens-drawing-add").click()
                added += 1
                page.wait_for_function(
                    "n => document.querySelector('.tokens-drawing-count').textContent.includes('learned from ' + n)",
                    arg=str(added))
        assert "Added!" in lab.locator(".tokens-drawing-message").inner_text()
        assert "6 from your class" in lab.locator(".tokens-drawing-count").inner_text()
        lab.locator("button.tokens-drawing-learn").click()
        page.wait_for_function("() => document.querySelector('.tokens-drawing-message').textContent"
                               ".includes('It learned from 6 drawings')")
        draw(page, SIGNS["Flag"][:-2], 1)  # a new Flag, a little different
        page.wait_for_function("() => document.querySelector('.tokens-drawing-guess').textContent"
                               ".includes('The computer says')")
        guess = lab.locator(".tokens-drawing-guess")
        assert guess.locator(".tokens-drawing-answer").inner_text() == "Flag"
        assert guess.locator("svg.tokens-drawing").count() == 3 and "squares different" in guess.inner_text()

        words = page.locator(".tokens-command-lab")
        words.scroll_into_view_if_needed()
        for text, move in (("score points with my chatbot", "Task"), ("check their robot", "Audit")):
            words.locator(".tokens-command-text input").fill(text)
            words.locator(".tokens-command-labels button", has_text=move).click()
            words.locator("button.tokens-command-teach").click()
            page.wait_for_function("t => document.querySelector('.tokens-command-examples').textContent.includes(t)",
                                   arg=text)
        words.locator(".tokens-command-try input").fill("score with my agent")
        words.locator("button.tokens-command-try-button").click()
        page.wait_for_function("() => document.querySelector('.tokens-command-guess').textContent.includes('means')")
        assert words.locator(".tokens-command-answer").inner_text() == "Task"
        assert "agent" in words.locator(".tokens-command-guess").inner_text()  # a word it never saw
    finally:
        context.close()
    saved = journal(server, "08-how-ai-senses").drawings(all_students=True)
    assert len(saved) == 6 and set(saved["student"]) == {"test"}
    assert sorted(saved["label"]) == ["Data", "Data", "Flag", "Flag", "Token", "Token"]
    assert set(saved["width"]) == {12} and set(saved["height"]) == {12}


def test_lesson_10_a_batch_of_training_and_a_test_by_clicking(server, browser):
    from tokens_edu import starter_decks

    frames: list[str] = []
    context, page = open_page(browser, server, "10-teach-the-computer", frames=frames)
    try:
        lab = page.locator(".tokens-training-lab")
        lab.scroll_into_view_if_needed()
        assert in_window_width(page, ".tokens-training-lab button.tokens-train-go")
        lab.locator("button.tokens-train-go").click()
        page.wait_for_function("() => document.querySelector('.tokens-training-lab .tokens-lab-message')"
                               ".textContent.includes('Make your guess first')")
        lab.locator(".tokens-train-guess-rate label", has_text="About half the time").click()
        lab.locator("button.tokens-train-go").click()
        page.wait_for_function("() => document.querySelector('.tokens-train-result').textContent.includes('Batch 1')")
        result = lab.locator(".tokens-train-result").inner_text()
        assert "of 20 games" in result and "You guessed: About half the time" in result
        lab.locator(".tokens-train-curve svg circle").wait_for()  # drawn after the result line
        assert lab.locator(".tokens-train-curve svg circle").count() == 1
        assert lab.locator(".tokens-weight").count() == 8 and "more Tokens" in lab.locator(".tokens-train-weights").inner_text()
        bench = page.locator(".tokens-test-bench")
        bench.scroll_into_view_if_needed()
        bench.locator("button.tokens-test-go").click()
        page.wait_for_function("() => document.querySelector('.tokens-test-result').textContent.includes('won')",
                               timeout=120_000)
        text = bench.locator(".tokens-test-result").inner_text()
        assert "it trained with this one (20 games)" in text and "new to it" in text
        copy = page.locator(".tokens-copy-lab")
        copy.scroll_into_view_if_needed()
        copy.locator(".tokens-table .tt-side-bottom").wait_for()
        # the student's side is called "You": not "You (you)" (issue 28.2)
        assert copy.locator(".tt-side-bottom .tt-who-name").inner_text().strip() == "You"
        copy.locator("button.tokens-copy-teach").click()
        page.wait_for_function("() => document.querySelector('.tokens-copy-lab .tokens-lab-message')"
                               ".textContent.includes('Play a bit more first')")
    finally:
        context.close()
    saved = journal(server, "10-teach-the-computer").responses(all_students=True)
    assert {"Batch guess: what will its win rate do?", "Test result: win rate against each player"} <= set(saved["question"])
    # the computer's cards in the student's game: none reached the page before it was public
    computer = {c.name for c in starter_decks()[7]} - {c.name for c in starter_decks()[0]} - {"Supervised Learning"}
    public: set[str] = set()
    for text in frames:
        for st in table_states(text):
            faces = [c["face"]["name"] for c in st["board"]] + [f["name"] for s in st["sides"] for f in s["discard"]]
            public |= {n for n in computer if n in faces or any(n in line for line in st.get("log", []))}
    for text in frames:
        text = page_data(text)  # not the widgets' shipped code (table.js names a card in a comment)
        text = text.replace("e.g. task Neural Network", "")  # the "Why can't I?" box's example
        for name in computer - public:
            assert name not in text, f"the computer's hidden {name} reached the page: ...{text[max(0, text.index(name) - 300):text.index(name) + 100]}"


def test_lesson_11_test_fix_and_test_again_by_clicking(server, browser):
    context, page = open_page(browser, server, "11-fair-data")
    try:
        counts = page.locator(".tokens-fair-counts")
        assert "The training drawings: 30" in counts.inner_text()
        page.locator("button.tokens-fair-test").scroll_into_view_if_needed()
        assert in_window_width(page, "button.tokens-fair-test")
        page.locator("button.tokens-fair-test").click()
        page.wait_for_function("() => document.querySelector('.tokens-fair-result').textContent.includes('Test 1')")
        result = page.locator(".tokens-fair-result").inner_text()
        assert "20 of 30 right" in result and "30 of 30 right" in result and "33 points" in result
        page.locator("button.tokens-fair-add-finger").scroll_into_view_if_needed()
        page.locator("button.tokens-fair-add-finger").click()
        page.wait_for_function("() => document.querySelector('.tokens-fair-counts').textContent.includes('42')")
        page.locator("button.tokens-fair-retest").click()
        page.wait_for_function("() => document.querySelector('.tokens-fair-latest').textContent.includes('Test 2')")
        assert "Finger on a phone 100%" in page.locator(".tokens-fair-latest").inner_text()
        assert page.locator(".tokens-fair-history >> nth=0").locator("tr").count() == 3  # a head and 2 tests

        matrix = page.locator(".tokens-matrix")
        matrix.scroll_into_view_if_needed()
        matrix.locator(".tokens-matrix-cell input").nth(1).fill("It reads their signs wrong")
        matrix.locator("button.tokens-matrix-save").click()
        page.wait_for_function("() => document.querySelector('.tokens-matrix .tokens-exit-status').textContent.includes('Saved')")
        exit_box = page.locator(".tokens-exit").last
        exit_box.locator("label", has_text="Add examples from the group it fails").click()
        exit_box.locator("button.tokens-exit-save").click()
        page.wait_for_function("() => [...document.querySelectorAll('.tokens-exit-status')].some(e => e.textContent.includes('You got it'))")
    finally:
        context.close()
    saved = journal(server, "11-fair-data").responses(all_students=True)
    by = {q: list(g["answer"]) for q, g in saved.groupby("question")}
    assert len(by["Test result: accuracy for each group"]) == 2
    assert "It reads their signs wrong" in by["Ethical matrix: who is affected, who decides"][0]
    exit_rows = saved[saved["kind"] == "exit"]
    assert exit_rows["correct"].tolist()[-1] is True or exit_rows["correct"].tolist()[-1] == 1
