"""The hidden-card check of the browser tests (tests/support/pages.py ``check_hidden_cards``), on
frames made here like those a lesson page receives: a widget's own code is not a leak, a card name
anywhere else before the table shows it is.

Why: table.js names a card in a comment ("Audit Explainability"); the card table's ``comm_open``
carries that file as ``_esm``, so the old check (the name anywhere in a frame's text) failed lesson
5's game whenever the computer played the Ethics deck, though no game information was sent."""

from __future__ import annotations

import json

import pytest
from pages import ROOT, check_hidden_cards, page_data

STATIC = ROOT / "tokens_edu" / "widgets" / "static"
HIDDEN = {"Explainability", "Job Disruption"}


def frame(content: dict, msg_type: str = "comm_msg") -> str:
    """One frame as frame_texts gives it: Jupyter's binary websocket protocol (offsets, channel,
    then the message's JSON parts; the kernel's JSON keeps non-ASCII characters)."""
    header = {"msg_id": "k_1", "msg_type": msg_type, "session": "k", "username": "username",
              "date": "2026-12-01T22:59:37.112010Z", "version": "5.4"}
    parts = [json.dumps(p, ensure_ascii=False) for p in (header, {}, {"version": "2.1.0"}, content)]
    return "\x06\x00\x00\x00\x00\x00\x00\x00=\x00iopub" + "".join(parts)


def table_open() -> str:
    """The card table's comm_open: the shipped table.js and table.css, and an empty table."""
    state = {"_anywidget_id": "tokens_edu.widgets.table.CardTable",
             "_css": (STATIC / "table.css").read_text(encoding="utf-8"),
             "_esm": (STATIC / "table.js").read_text(encoding="utf-8"),
             "_dom_classes": [], "state": {}}
    return frame({"data": {"state": state, "buffer_paths": []}, "comm_id": "c1",
                  "target_name": "jupyter.widget"}, "comm_open")


def table_update(board: tuple[str, ...] = (), hand: tuple[str, ...] = (), log: tuple[str, ...] = ()) -> str:
    """A card-table update shaped like Page.state() (tokens_edu/present/page.py)."""
    side = {"discard": [], "hand": 5, "deck": 20}
    st = {"seat": 0, "you": 0, "sides": [dict(side, p=1), dict(side, p=0)],
          "board": [{"face": {"name": n}, "p": 1} for n in board],
          "hand": [{"name": n} for n in hand], "log": list(log)}
    return frame({"data": {"method": "update", "state": {"state": st}, "buffer_paths": []}, "comm_id": "c1"})


def other_widget(value: str) -> str:
    """Another widget's comm_open (an HTML pane, a Discuss box...) with this text in its state."""
    return frame({"data": {"state": {"_model_name": "HTMLModel", "value": value}, "buffer_paths": []},
                  "comm_id": "c2", "target_name": "jupyter.widget"}, "comm_open")


def test_the_shipped_widget_code_is_not_read_as_a_leak():
    opened = table_open()
    # the frame that failed lesson 5's browser test: a card name only inside the shipped code
    assert "const esc = " in opened and "const esc = " not in page_data(opened)  # the code is cut out
    assert not any(n in page_data(opened) for n in HIDDEN)
    assert '"_anywidget_id": "tokens_edu.widgets.table.CardTable"' in page_data(opened)  # the rest stays
    assert check_hidden_cards([opened, table_update()], HIDDEN) == 1


@pytest.mark.parametrize("leak", [
    other_widget("<b>Explainability</b> is the computer's next card"),  # a pane with a deck card
    table_update(log=("The computer holds Job Disruption",)) + other_widget("Explainability"),
    table_open().replace("// The card table of tokens_edu", "// next: Explainability\\n// The card table", 1),
], ids=["another-widget", "a-later-frame", "code-changed-at-run-time"])
def test_a_hidden_name_anywhere_else_fails(leak):
    with pytest.raises(AssertionError, match="the computer's hidden Explainability reached the page"):
        check_hidden_cards([table_open(), table_update(), leak], HIDDEN)


def test_a_name_is_public_from_the_state_that_shows_it():
    shown = [table_open(), table_update(board=("Explainability",)), other_widget("Discuss: Explainability")]
    assert check_hidden_cards(shown, HIDDEN) == 1
    logged = [table_open(), table_update(log=("Computer deploys Explainability.",)), other_widget("Explainability")]
    assert check_hidden_cards(logged, HIDDEN) == 1
    # shown only after the frame that named it: still a leak
    late = [table_open(), other_widget("Explainability"), table_update(board=("Explainability",))]
    with pytest.raises(AssertionError, match="hidden Explainability"):
        check_hidden_cards(late, HIDDEN)


def test_a_computer_card_in_the_students_hand_fails():
    with pytest.raises(AssertionError, match="student's hand"):
        check_hidden_cards([table_update(hand=("Job Disruption",))], HIDDEN)
