"""The panes under the card table and the Discuss area, driven as a page drives them.

Issue 21 part 3: the Discuss box never discards or hides unsaved text (a new card to discuss is
offered, not forced, while a draft is open). Part 6: in hot seat nothing of the covered
player's hand is in the page while the cover is up, not even in a closed pane. What reached the
page is read from the ``wire`` fixture (every message the widgets sent) and from the widgets'
states (what the page holds).
"""

from __future__ import annotations

import json

import pytest
from crafted import page_click, page_custom
from views import SECRET, tree_state

from tokens_edu import Action, Game
from tokens_edu.widgets import GameView

A = Action.parse  # a move as a test writes it


# -- Discuss: offered, not forced ------------------------------------------------------------------
DISCUSS = {
    "title": "Discuss", "seed": 3, "active": 0, "turn": 3,
    "players": [
        {"name": "Ada", "hand": ["Chatbot", "Sensor"], "deck": ["Neuron", "Embedding", "Predictor"],
         "training_set": {"ready": 3}},
        {"name": "Bo", "hand": ["Classifier"], "deck": ["Agent", "Tensor", "Search Tree"],
         "training_set": {"ready": 3}},
    ],
}


@pytest.fixture
def journal(tmp_path):
    from tokens_edu.session.journal import Journal

    return Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana", lesson="t")


def shown_boxes(view) -> list:
    """The Discuss boxes the page shows now."""
    return [b for b in view.discuss_slot.children if b.layout.display != "none"]


def computer_turn(view) -> None:
    view.buttons[A("end turn")].click()
    while view.match.bot_to_act():
        view.next_button.click()
    assert "deploy Classifier" in view.game.history  # the computer deployed a card


def offer_of(view):
    return view.discuss_offer


@pytest.mark.parametrize("how", ["draft", "typing"])
def test_a_new_card_is_offered_not_forced_while_an_answer_is_unsaved(wire, journal, how):
    """Broken before: a student who typed an answer and ended the turn found the box showing the
    computer's card, empty (lesson 5). Now their box stays, the new card is offered."""
    view = GameView(Game.from_scenario(DISCUSS), seats=("human", "greedy"), journal=journal, autoplay=False)
    view.buttons[A("deploy Chatbot")].click()
    [box] = shown_boxes(view)
    assert box.card.name == "Chatbot"
    words = "A chatbot guesses the next word."
    if how == "draft":  # the page kept a draft (a moment after typing stopped)
        page_custom(box.answer, {"type": "draft", "text": words, "seq": 1})
    else:  # typed just now: the page says at once that the box holds unsaved text
        page_custom(box.answer, {"type": "dirty", "dirty": True})
    computer_turn(view)
    assert shown_boxes(view) == [box]  # still the student's own box, text and all
    if how == "draft":
        assert box.answer.value == words
    assert "Classifier" in view.discuss_pick.options  # offered in the list...
    offer = offer_of(view)
    assert offer.layout.display != "none" and "Classifier" in offer.children[0].value
    assert "Classifier" not in view.discuss_pick.value
    page_click(offer.children[1])  # ...and by a button: the student's choice
    [now] = shown_boxes(view)
    assert now.card.name == "Classifier"
    assert box in view.discuss_slot.children  # the unsaved box is hidden, never thrown away
    assert offer.layout.display == "none"
    view.discuss_pick.value = "Chatbot"
    assert shown_boxes(view) == [box]


def test_with_no_unsaved_text_the_new_card_is_shown(wire, journal):
    view = GameView(Game.from_scenario(DISCUSS), seats=("human", "greedy"), journal=journal, autoplay=False)
    view.buttons[A("deploy Chatbot")].click()
    [box] = shown_boxes(view)
    page_custom(box.answer, {"type": "save", "text": "It predicts words.", "seq": 1})
    assert box.answer.saved_text == "It predicts words."
    computer_turn(view)
    [now] = shown_boxes(view)
    assert now.card.name == "Classifier" and view.discuss_offer.layout.display == "none"


# -- hot seat: nothing of the covered hand, not even in a closed pane -------------------------------
def test_hot_seat_closed_panes_keep_nothing_of_the_covered_hand(wire):
    """Broken before: a closed "Read a card" pane kept the previous player's hand and painted it
    for a frame when the next player opened it."""
    view = GameView(Game.from_scenario(SECRET), seats=("human", "human"))
    view.reveal_button.click()
    for key in ("read", "tables", "replay", "log"):
        page_click(view.pane_buttons[key])  # Ada opens every pane: her hand is drawn in them
    assert "Neuron" in json.dumps(list(view.card_pick.options))
    view.replay_start.click()
    view.replay_end.click()
    for key in ("read", "tables", "replay", "log"):
        page_click(view.pane_buttons[key])  # ...and closes them again
    view.buttons[A("train Sensor")].click()  # face-down: Bo must not learn it
    mark = len(wire)
    view.buttons[A("end turn")].click()
    assert view.match.covered()
    ada = ("Sensor", "Neuron")
    held = tree_state(view)
    for name in ada:
        assert name not in held, f"Ada's {name} is in the page under the cover"
    view.reveal_button.click()  # Bo shows his cards and opens the panes
    for key in ("read", "tables", "replay", "log"):
        page_click(view.pane_buttons[key])
    sent = "\n".join(wire[mark:])
    for name in ada:
        assert name not in sent, f"Ada's {name} was sent to the page after her turn"
    assert "Mandatory Recall" in json.dumps(list(view.card_pick.options))  # Bo's own hand
