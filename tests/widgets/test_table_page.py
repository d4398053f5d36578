"""The card table's front end in Chromium without a server (tests/support/table_harness.py): the
page a GameView sends, drawn by the real table.js and table.css (issue 21 parts 1, 2 and 5).

- the moves sit under their card, never over its text, and fit the 1366x768 window;
- one target: one button ("Audit Explainability"), one click; two targets: "Audit…" makes them
  glow, a click on one sends that move, Escape cancels and the focus stays on the table;
- the arrow keys step through the moves, End goes to End turn;
- the focus stays on the table when the kernel answers a move, and the turn coming back is read
  out (the live region) with the focus on the first move;
- axe-core finds no serious or critical problem in the table.
"""

from __future__ import annotations

import copy

import pytest
from axe import describe, run_axe, serious
from table_harness import table_page

from tokens_edu import Action, Game

pytestmark = pytest.mark.browser

#: Ada's two Systems can each Audit one of Bo's two sideways Systems.
TWO_TARGETS = {
    "title": "Two targets", "seed": 5, "active": 0, "turn": 6,
    "players": [
        {"name": "Ada", "hand": ["Sensor", "Chatbot"], "deck": ["Neuron", "Embedding"],
         "training_set": {"ready": 3, "exerted": 0},
         "systems": [{"card": "Neural Network"}, {"card": "Transformer"}]},
        {"name": "Bo", "hand": ["Bias Audit"], "deck": ["Accountability", "Model Card"],
         "training_set": {"ready": 1, "exerted": 0},
         "systems": [{"card": "Explainability", "exerted": True}, {"card": "Chatbot", "exerted": True}]},
    ],
}


def view_of(scenario: dict):
    from tokens_edu.widgets import GameView

    return GameView(Game.from_scenario(copy.deepcopy(scenario)), seats=("human", "greedy"), autoplay=False)


@pytest.fixture()
def page(browser):
    p = browser.new_page(viewport={"width": 1366, "height": 768})
    yield p
    p.close()


def show(page, view) -> None:
    page.set_content(table_page([view.table.state], view.table.palette, view.table.pictures))
    page.locator(".tokens-table .tt-side-bottom").first.wait_for()


def sent(page) -> list:
    return page.evaluate("() => window.__sent")


def focused(page) -> str:
    return page.evaluate("() => (document.activeElement.textContent || '').trim()")


def test_moves_are_under_their_card_and_the_table_fits_the_window(page):
    view = view_of(TWO_TARGETS)
    show(page, view)
    slots = page.evaluate("""() => [...document.querySelectorAll('.tt-slot')].filter(s => s.querySelector('.tt-move')).map(s => {
        const c = s.querySelector('.tt-card').getBoundingClientRect();
        return [c.bottom, Math.min(...[...s.querySelectorAll('.tt-move')].map(b => b.getBoundingClientRect().top))]; })""")
    assert len(slots) >= 3  # two Systems in play and cards in hand
    for card_bottom, first_button in slots:
        assert first_button >= card_bottom  # never over the card's text
    height = page.evaluate("() => document.querySelector('.tokens-table').getBoundingClientRect().bottom")
    assert height <= 768


def test_two_targets_glow_a_click_on_one_sends_that_move_and_escape_cancels(page):
    view = view_of(TWO_TARGETS)
    show(page, view)
    moves = view.table.state["moves"]
    aim = page.locator(".tt-slot:has(.tt-card[data-id='Neural Network']) .tt-quick-aim")
    assert aim.inner_text().strip() == "Audit…"
    aim.click()
    targets = page.locator(".tt-card.tt-target")
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.id)")) == ["Chatbot", "Explainability"]
    assert page.evaluate("() => document.activeElement.classList.contains('tt-target')")  # keyboard: on a target
    page.keyboard.press("Escape")
    assert page.locator(".tt-card.tt-target").count() == 0 and sent(page) == []
    assert page.evaluate("() => !!document.activeElement.closest('.tokens-table')")
    aim.click()
    page.locator(".tt-card.tt-target[data-id='Chatbot']").click()
    msgs = sent(page)
    assert len(msgs) == 1 and msgs[0]["type"] == "move"
    assert moves[msgs[0]["i"]]["t"] == "audit Neural Network -> Chatbot"


def test_arrows_step_through_the_moves_and_end_goes_to_end_turn(page):
    view = view_of(TWO_TARGETS)
    show(page, view)
    buttons = page.locator(".tt-moves .tt-move, .tt-panel .tt-verb, .tt-panel .tt-end")
    texts = [t.strip() for t in buttons.all_inner_texts()]
    buttons.first.focus()
    assert focused(page) == texts[0]
    page.keyboard.press("ArrowRight")
    assert focused(page) == texts[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert focused(page) == texts[-1]  # round the end
    page.keyboard.press("End")
    assert focused(page) == "End turn"
    page.keyboard.press("Home")
    page.keyboard.press("Enter")  # the first move: Task with Neural Network
    msgs = sent(page)
    assert [m["type"] for m in msgs] == ["move"] and view.table.state["moves"][msgs[0]["i"]]["t"] == "task Neural Network"


def test_the_focus_stays_on_the_table_and_the_turn_coming_back_is_read_out(page):
    view = view_of(TWO_TARGETS)
    show(page, view)
    page.locator(".tt-panel .tt-end").click()  # End turn: the kernel answers with the computer's turn
    view.buttons[Action.parse("end turn")].click()
    assert view.table.state["bot"]
    page.evaluate("s => window.__setState(s)", view.table.state)
    assert page.evaluate("() => document.activeElement === document.querySelector('.tokens-table')")
    while view.match.bot_to_act():  # the computer's moves, drawn one by one
        view.table._on_page_msg(view.table, {"type": "step", "v": view.table.state["v"]})
        page.evaluate("s => window.__setState(s)", view.table.state)
    assert not view.table.state["bot"]
    assert page.evaluate("() => !!document.activeElement.closest('.tt-moves, .tt-panel')")  # on a move
    live = page.locator(".tt-live").text_content()
    assert live.startswith("Your turn"), live


def test_axe_finds_no_serious_problem_in_the_table(page):
    view = view_of(TWO_TARGETS)
    show(page, view)
    result = run_axe(page)
    assert not serious(result), describe(serious(result))
    page.locator(".tt-slot:has(.tt-card[data-id='Neural Network']) .tt-quick-aim").click()  # targets glowing
    result = run_axe(page)
    assert not serious(result), describe(serious(result))
