"""The kernel trusts nothing from the page (issue 20 part 7): a change to a disabled or locked
widget, or a message the page could not have sent, changes nothing and is logged once.

Every message here is sent the way a page sends it (through the widget's comm, see
``tests/support/crafted.py``), not by calling the widget's Python methods.
"""

from __future__ import annotations

import logging

import pytest
from crafted import page_click, page_custom, page_update
from views import SECRET

from tokens_edu import Game
from tokens_edu.widgets import GameView, PredictionBox

TRUST_LOG = "tokens_edu.widgets.trust"


def warnings_of(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == TRUST_LOG and r.levelno >= logging.WARNING]


# -- disabled and locked widgets ---------------------------------------------------------------
def test_a_crafted_name_for_the_computer_is_not_stored_or_shown(wire, tmp_path, monkeypatch, caplog):
    """Broken before: an update to the disabled "Computer name" box was stored in the saved game
    (and so shown to the teacher)."""
    from tokens_edu.store.games import GameStore
    from tokens_edu.session.journal import Journal
    from tokens_edu.widgets import NewGamePanel

    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    journal = Journal(student="Ana", lesson="05-play-the-computer")
    panel = NewGamePanel(seats=("human", "greedy"), journal=journal, seed=5, autoplay=False)
    box = panel.name_boxes[1]
    assert box.disabled and box.value == "Computer"
    with caplog.at_level(logging.INFO):
        page_update(box, value="<b>Mr Hacker</b>")
        page_update(box, value="<b>Mr Hacker</b>")  # again: logged once
    assert box.value == "Computer"
    assert len(warnings_of(caplog)) == 1 and "disabled" in warnings_of(caplog)[0]
    page_click(panel.start_button)
    assert panel.view.game.names == ("Ana", "Computer")
    panel.keeping.keeper.flush()
    saved = GameStore().games(student="Ana")
    assert list(saved["name1"]) == ["Computer"]


def test_a_crafted_change_to_a_locked_prediction_changes_nothing(wire, caplog):
    """Broken before: after the check, an update to the locked choice and a click on the
    disabled button turned "Not this time" into "You got it!"."""
    box = PredictionBox("Which one?", "Because B is wrong.", choices=["A", "B"], correct="A")
    page_update(box.choice_buttons, index=1)  # the student picks B (a real page's update)
    page_click(box.check_button)
    assert box.revealed and "Not this time" in box.result.value
    shown = box.result.value
    with caplog.at_level(logging.INFO):
        page_update(box.choice_buttons, index=0)
        page_click(box.check_button)
        page_click(box.check_button)
    assert box.choice_buttons.value == "B" and box.guess == "B"
    assert box.result.value == shown and "You got it" not in box.result.value
    assert len(warnings_of(caplog)) == 2  # one for the update, one for the clicks


def test_a_locked_login_name_cannot_be_changed_by_the_page(wire, tmp_path, monkeypatch, caplog):
    from tokens_edu.session.journal import Journal
    from tokens_edu.widgets import DiscussBox

    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", lesson="t")
    box = DiscussBox("Chatbot", journal)
    assert box.name_box.disabled
    with caplog.at_level(logging.INFO):
        page_update(box.name_box, value="bo")
    assert box.name_box.value == "ana" and len(warnings_of(caplog)) == 1


def test_the_page_cannot_write_what_only_the_kernel_writes(wire, tmp_path, caplog):
    """The card table's state and the answer box's saved text are the kernel's to say."""
    from tokens_edu.session.journal import Journal
    from tokens_edu.widgets import DiscussBox

    view = GameView(Game.from_scenario(SECRET), seats=("human", "greedy"))
    before = dict(view.table.state)
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana", lesson="t")
    box = DiscussBox("Chatbot", journal)
    with caplog.at_level(logging.INFO):
        page_update(view.table, state={"sides": [], "hand": ["Mandatory Recall"]})
        page_update(box.answer, saved_text="I saved this", status="Saved", status_kind="ok")
    assert view.table.state == before
    assert box.answer.saved_text == "" and box.answer.status_kind != "ok"
    assert len(journal.answers()) == 0
    assert len(warnings_of(caplog)) == 2


def test_a_student_may_still_type_and_pick(wire):
    """What a page really sends is taken: a typed move to explain, a picked card."""
    view = GameView(Game.from_scenario(SECRET), seats=("human", "greedy"))
    page_click(view.pane_buttons["explain"])
    page_update(view.explain_text, value="train Sensor")
    assert "train Sensor" in view.explain_out.value
    page_click(view.pane_buttons["read"])
    i = list(view.card_pick.options).index("Neuron")
    page_update(view.card_pick, index=i)
    assert "Neuron" in view.card_html.value


# -- the card table's messages -------------------------------------------------------------------
def table_snapshot(view):
    return (view.game.state_key(), dict(view.table.state), view.note)


NOW = "<the version the page drew>"
CANNOT = [
    pytest.param({"type": "move", "text": "task Neural Network"}, id="a move by its text"),
    pytest.param({"type": "move", "i": 99, "v": NOW}, id="a move index not offered"),
    pytest.param({"type": "move", "i": "0", "v": NOW}, id="a move index that is not a number"),
    pytest.param({"type": "move", "i": 0, "v": 10_000}, id="a version not drawn yet"),
    pytest.param({"type": "step", "v": NOW}, id="a computer move on the student's turn"),
    pytest.param({"type": "undo", "v": NOW}, id="Undo while it is greyed out"),
    pytest.param({"type": "reveal", "v": NOW}, id="show my cards without a cover"),
    pytest.param({"type": "again", "v": NOW}, id="Play again before the end"),
    pytest.param({"type": "read", "name": "Mandatory Recall", "v": NOW}, id="read a hidden card"),
    pytest.param({"type": "speed", "ms": 1, "v": NOW}, id="a speed the menu does not offer"),
    pytest.param({"type": "pause", "paused": True, "v": NOW}, id="Pause on the student's turn"),
    pytest.param({"type": "explode", "v": NOW}, id="a message of no known kind"),
    pytest.param(["move", 0], id="not a message at all"),
]


@pytest.mark.parametrize("msg", CANNOT)
def test_a_table_message_the_page_could_not_send_changes_nothing(wire, caplog, msg):
    view = GameView(Game.from_scenario(SECRET), seats=("human", "greedy"))
    if isinstance(msg, dict) and msg.get("v") == NOW:
        msg = dict(msg, v=view.table.state["v"])
    before = table_snapshot(view)
    sent = len(wire)
    with caplog.at_level(logging.INFO):
        page_custom(view.table, msg)
        page_custom(view.table, msg)
    assert table_snapshot(view) == before
    assert len(wire) == sent  # nothing was sent to the page: no new drawing
    assert len(warnings_of(caplog)) == 1, warnings_of(caplog)
    assert "Mandatory Recall" not in " ".join(warnings_of(caplog))  # a log line names no hidden card


def test_the_page_plays_a_move_by_its_index_and_the_version_it_saw(wire):
    view = GameView(Game.from_scenario(SECRET), seats=("human", "greedy"))
    st = view.table.state
    i = [m["t"] for m in st["moves"]].index("task Neural Network")
    page_custom(view.table, {"type": "move", "i": i, "v": st["v"]})
    assert view.game.history == ("task Neural Network",)
    page_custom(view.table, {"type": "move", "i": i, "v": st["v"]})  # a double click: stale, calm
    assert view.game.history == ("task Neural Network",)
    assert "already made" in view.table.state["note"]["text"]
