"""GameView driven from Python: click buttons, read the game and the widgets back.

Every test builds a view on a real Game (a lesson scenario or a small scenario dict), clicks its
buttons with ``.click()`` (what a browser click does in the kernel) and checks the outcome the
rules say (R8-R14, R25), what the widgets now show, and what reached the page.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import comm
import ipywidgets as widgets
import pytest
from comm.base_comm import BaseComm

from tokens_edu import Game, starter_decks
from tokens_edu.bots import GreedyBot, RandomBot
from tokens_edu.widgets import GameView
from tokens_edu.widgets.game_view import NewGamePanel

SCENARIOS = Path(__file__).resolve().parent.parent / "lessons" / "scenarios"


def scenario(name: str) -> Game:
    return Game.from_scenario(SCENARIOS / f"{name}.yaml")


def board_row(game: Game, owner: int, card: str) -> dict | None:
    df = game.tables(0)["board"]
    hit = df[(df["Owner"] == owner) & (df["Card"].str.contains(card, regex=False))]
    return None if hit.empty else hit.iloc[0].to_dict()


def player_row(game: Game, p: int) -> dict:
    df = game.tables(0)["players"]
    return df[df["Player"] == p].iloc[0].to_dict()


def tree(widget) -> list:
    """The widget and every widget below it (children, Tab/Accordion pages)."""
    out, todo, seen = [], [widget], set()
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(w)
        todo.extend(getattr(w, "children", ()) or ())
    return out


def tree_state(view) -> str:
    """Every widget state in the view's tree, as one JSON text (what the page is sent)."""
    return "\n".join(json.dumps(w.get_state(), default=str) for w in tree(view))


class WireComm(BaseComm):
    """A comm that records every message a widget sends toward the page."""

    wire: list[str] = []

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        WireComm.wire.append(json.dumps(data, default=str))


@pytest.fixture
def wire(monkeypatch):
    """Record everything widgets send to the browser (comm opens and state updates)."""
    WireComm.wire = []
    monkeypatch.setattr(comm, "create_comm", lambda **kw: WireComm(**kw))
    return WireComm.wire


class FirstBot:
    """A bot that always takes the first legal action (predictable for tests)."""

    def choose(self, game):
        return game.legal_actions()[0]


# -- the board and the buttons ---------------------------------------------------------------
def test_offers_exactly_the_legal_actions_grouped_with_text_and_tooltip():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    legal = [str(a) for a in game.legal_actions()]
    assert list(view.buttons) == legal
    for text, button in view.buttons.items():
        assert button.description == text
        assert text in button.tooltip  # findable by text, also for screen readers
        assert "tokens-action" in button._dom_classes
    assert "tokens-game" in view._dom_classes
    assert "Your turn" in view.status.value


def test_audit_click_follows_the_seed_example_and_updates_tables():
    """R14/R15: Neural Network (CAP 4, TRU 2) audits Explainability (CAP 1, TRU 3)."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    discard_before = player_row(game, 1)["Discard"]
    board_html_before = view.table_widgets["board"].value
    view.buttons["audit Neural Network -> Explainability"].click()
    assert board_row(game, 1, "Explainability") is None  # Deprecated
    assert player_row(game, 1)["Discard"] == discard_before + 1
    nn = board_row(game, 0, "Neural Network")
    assert nn["Flags"] == 1 and nn["Sideways"]
    assert "Deprecated" in view.message.value
    assert "Explainability" not in view.board.value
    assert view.table_widgets["board"].value != board_html_before
    assert "Explainability" not in view.table_widgets["board"].value
    assert "audit Neural Network -&gt; Explainability" not in view.buttons  # gone: no target left
    assert "task Neural Network" not in view.buttons  # sideways now (R13)
    assert "audits" in view.table_widgets["log"].value


def test_task_scores_tokens_and_moves_the_progress_bar():
    """R13: Classifier (2 Tokens) Runs a Task: +2 Tokens, sideways."""
    game = scenario("03-task-exposes")
    view = GameView(game, seats=("human", "greedy"))
    before = game.tokens[0]
    view.buttons["task Classifier"].click()
    assert game.tokens[0] == before + 2
    assert view.token_bars[0].value == before + 2
    assert board_row(game, 0, "Classifier")["Sideways"]
    assert "sideways" in view.board.value
    assert str(before + 2) in view.table_widgets["players"].value


def test_train_then_deploy_pays_the_deploy_tax():
    """R8-R10: with 2 Systems, Neural Network costs 3; train once to afford it."""
    game = scenario("02-train-and-pay")
    view = GameView(game, seats=("human", "greedy"))
    assert "deploy Neural Network" not in view.buttons
    view.explain_text.value = "deploy Neural Network"
    view.explain_button.click()
    assert "deploy Neural Network" in view.explain_out.value
    assert "is legal now" not in view.explain_out.value
    assert "3" in view.explain_out.value  # the cost with the tax
    view.buttons["train Chatbot"].click()
    assert player_row(game, 0)["Data ready"] == 3
    assert not any(t.startswith("train ") for t in view.buttons)  # once per turn (R8)
    view.buttons["deploy Neural Network"].click()
    assert player_row(game, 0)["Data ready"] == 0
    assert board_row(game, 0, "Neural Network")["New"]
    assert "new" in view.board.value


# -- errors are shown, never silent -------------------------------------------------------------
def test_a_stale_button_shows_the_rule_and_changes_nothing():
    """A click on a button another move made stale: calmly explained, not an error."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    stale = view.buttons["deploy Sensor"]
    view.buttons["train Sensor"].click()  # Sensor leaves the hand
    history = game.history
    stale.click()
    assert game.history == history
    assert "Sensor is not in your hand" in view.message.value
    assert "⚠" not in view.message.value  # not shown as an error: nothing went wrong
    assert "trains a card" in view.message.value  # the first click's news stays on screen


@pytest.mark.parametrize("move", ["train Sensor", "task Neural Network", "end turn"])
def test_a_double_click_makes_the_move_once_and_shows_no_error(move):
    """The second click of a double click reaches the kernel after the redraw hid the button."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    button = view.buttons[move]
    button.click()
    button.click()
    assert game.history == (move,)
    assert "⚠" not in view.message.value and "can't" not in view.message.value
    assert "That move was already made." in view.message.value


def test_a_failing_callback_shows_a_friendly_message_and_logs(monkeypatch, caplog):
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))

    def broken(action):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(game, "apply", broken)
    with caplog.at_level(logging.ERROR, logger="tokens_edu.widgets.game_view"):
        view.buttons["task Neural Network"].click()
    assert "Oops" in view.message.value and "Nothing was lost" in view.message.value
    assert "engine exploded" not in view.message.value  # no traceback for students
    assert any("engine exploded" in (r.exc_text or "") or r.exc_info for r in caplog.records)
    assert game.tokens == (6, 8)


def test_bad_seats_are_refused_in_plain_words():
    with pytest.raises(ValueError, match="Seat 2"):
        GameView(scenario("03-audit"), seats=("human", "genius"))
    with pytest.raises(ValueError, match="pair"):
        GameView(scenario("03-audit"), seats=("human",))


# -- hidden information ---------------------------------------------------------------------
SECRET = {
    "title": "Secrets",
    "seed": 11,
    "active": 0,
    "turn": 4,
    "players": [
        {"name": "Ada", "hand": ["Sensor", "Neuron"], "deck": ["Chatbot", "Embedding", "Neuron"],
         "training_set": {"ready": 2, "exerted": 0},
         "systems": [{"card": "Neural Network"}]},
        {"name": "Bo", "hand": ["Mandatory Recall", "Informed Consent"],
         "deck": ["Red Teaming", "Fairness Check", "Accountability"],
         "training_set": {"ready": 1, "exerted": 0},
         "systems": [{"card": "Explainability", "exerted": True}]},
    ],
}
BO_SECRETS = ("Mandatory Recall", "Informed Consent", "Red Teaming", "Fairness Check")
ADA_SECRETS = ("Chatbot", "Embedding")  # Ada's deck (her hand is hers to see)


def test_opponent_hand_and_decks_never_reach_the_page(wire):
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", FirstBot()))
    # play: Ada trains, ends the turn; the bot plays its whole turn; Ada's turn again
    view.buttons["train Sensor"].click()
    view.buttons["end turn"].click()
    for _ in range(40):
        if game.over or game.to_act == 0:
            break
        view.next_button.click()
    assert game.to_act == 0 and game.turn == 6
    view.replay_start.click()
    view.replay_fwd.click()
    view.explain_text.value = "audit Neural Network -> Explainability"
    view.explain_button.click()
    state = tree_state(view)
    sent = "\n".join(wire)
    assert len(sent) > 1000  # the recording comm really saw the widgets
    public = " ".join(e.text for e in game.log) + view.board.value
    mine = {c.name for c in game.observation(0).hand}
    secrets = [c for c in (*BO_SECRETS, "Embedding") if c not in mine and c not in public]
    assert "Mandatory Recall" in secrets and "Informed Consent" in secrets
    for secret in secrets:
        assert secret not in state, f"{secret} is in a widget's state"
        assert secret not in sent, f"{secret} was sent to the page"
    assert "Sensor" not in mine or "Sensor" in state
    assert "Neuron" in state  # Ada's own hand is there (she can see it)


def test_hot_seat_cover_hides_both_hands_until_the_right_player_reveals(wire):
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", "human"))
    assert view.viewer() is None and view.buttons == {}
    assert view.cover_box.layout.display != "none"
    assert "Pass the screen to Ada" in view.cover.value
    state = tree_state(view)
    for secret in ("Sensor", "Neuron", "Mandatory Recall", "Informed Consent"):
        assert secret not in state
    view.reveal_button.click()
    assert view.viewer() == 0 and "end turn" in view.buttons
    assert "Sensor" in view.hand.value
    view.explain_text.value = "deploy Neuron"
    view.explain_button.click()
    assert "Neuron" in view.explain_out.value
    view.buttons["end turn"].click()
    # the screen is passed to Bo: Ada's hand is gone, Bo's not shown yet
    assert view.viewer() is None and view.buttons == {}
    assert "Pass the screen to Bo" in view.cover.value
    state = tree_state(view)
    for secret in ("Sensor", "Neuron", "Mandatory Recall", "Informed Consent"):
        assert secret not in state
    wire.clear()
    view.reveal_button.click()
    assert "Mandatory Recall" in view.hand.value
    assert "Sensor" not in tree_state(view)  # Ada's hand is still hidden from Bo


# -- escaping -------------------------------------------------------------------------------
EVIL = "<img src=x onerror=alert(1)>"


def test_typed_text_is_escaped_everywhere():
    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=3, names=(EVIL, "<b>Bo</b>"))
    view = GameView(game, seats=("human", "human"), lesson="<script>x</script>")
    view.reveal_button.click() if view.viewer() is None else None
    view.explain_text.value = "deploy <script>alert(2)</script>"
    view.explain_button.click()
    for w in tree(view):
        if isinstance(w, widgets.HTML):
            assert "<img" not in w.value and "<script" not in w.value and "<b>Bo" not in w.value, w.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in view.board.value
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in view.explain_out.value


def test_new_game_panel_escapes_names_and_starts_a_game():
    panel = NewGamePanel(seats=("human", "greedy"), seed=5)
    panel.name_boxes[0].value = EVIL
    panel.deck_pickers[0].value = 2
    panel.start_button.click()
    assert panel.view is not None and panel.view.game.names[0].startswith("<img")
    assert "<img" not in panel.note.value and "&lt;img" in panel.note.value
    assert panel.slot.children == (panel.view,)
    assert panel.view.game.to_record()["decks"][0] == [c.name for c in starter_decks()[2]]


# -- a bot seat -----------------------------------------------------------------------------
@pytest.mark.parametrize("bot", [GreedyBot(), "greedy", "random", RandomBot(seed=4)])
def test_next_makes_exactly_one_bot_move(bot):
    game = scenario("03-audit")
    view = GameView(game, seats=("human", bot))
    assert view.next_button.layout.display == "none" and view.next_button.disabled
    view.buttons["end turn"].click()
    assert game.to_act == 1
    assert view.buttons == {}  # no buttons for the human on the bot's turn
    assert view.next_button.layout.display != "none" and not view.next_button.disabled
    n = len(game.history)
    view.next_button.click()
    assert len(game.history) == n + 1
    assert view._movers[-1] == 1


def test_next_refuses_when_it_is_the_humans_move():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    view.next_button.click()
    assert game.history == ()
    assert "your move" in view.message.value


# -- undo -----------------------------------------------------------------------------------
def test_undo_goes_back_to_the_humans_last_decision():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()))
    assert view.undo_button.disabled  # nothing of mine to undo yet
    view.buttons["task Neural Network"].click()
    key_after_task = game.state_key()
    view.buttons["end turn"].click()
    view.next_button.click()
    view.next_button.click()
    assert len(game.history) == 4
    view.undo_button.click()  # takes back both bot moves and "end turn"
    assert game.history == ("task Neural Network",)
    assert game.state_key() == key_after_task
    assert "end turn" in view.buttons and game.to_act == 0
    view.undo_button.click()
    assert game.history == () and game.tokens == (6, 8)
    assert view.undo_button.disabled


def test_undo_can_be_turned_off():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"), allow_undo=False)
    assert view.undo_button.layout.display == "none"
    view.buttons["task Neural Network"].click()
    view.undo_button.click()
    assert game.history == ("task Neural Network",)


def test_hot_seat_undo_never_takes_back_the_opponents_move():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    view.buttons["end turn"].click()
    view.reveal_button.click()  # Computer's seat is a human here
    assert view.undo_button.disabled
    view.undo_button.click()
    assert game.history == ("end turn",)


# -- replay ---------------------------------------------------------------------------------
def test_replay_steps_through_a_copy_from_the_record():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()))
    view.buttons["audit Neural Network -> Explainability"].click()
    view.buttons["end turn"].click()
    view.next_button.click()
    key = game.state_key()
    assert "1. Ada: audit Neural Network -&gt; Explainability" in view.moves_html.value
    assert "3. Computer:" in view.moves_html.value
    view.replay_start.click()
    assert "after move 0 of 3" in view.replay_label.value
    assert "Explainability" in view.replay_board.value  # not yet Deprecated at the start
    view.replay_fwd.click()
    assert "after move 1 of 3" in view.replay_label.value
    assert "Explainability" not in view.replay_board.value
    view.replay_back.click()
    assert "after move 0 of 3" in view.replay_label.value
    view.replay_end.click()
    assert "after move 3 of 3" in view.replay_label.value
    assert game.state_key() == key  # the real game is untouched


def test_move_list_masks_the_opponents_training():
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", FirstBot()))
    view.buttons["end turn"].click()
    view.next_button.click()  # FirstBot: the first legal action of Bo's turn is "train ..."
    assert game.history[-1].startswith("train ")
    assert "Computer" not in view.moves_html.value  # names are Ada and Bo here
    assert "2. Bo: train a card (face-down)" in view.moves_html.value


# -- setup decisions and a whole game ------------------------------------------------------------
def test_setup_decisions_are_offered_first():
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ada", "Bo"))
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    assert set(view.buttons) == {"go first", "go second"}
    assert "die roll" in view.step.value
    view.buttons["go first"].click()
    view.reveal_button.click()
    assert set(view.buttons) == {"keep", "mulligan"}


def test_a_whole_game_against_greedybot_by_clicking():
    decks = starter_decks()
    game = Game.new(decks[2], decks[6], seed=8, names=("Ada", "Bo"))
    view = GameView(game, seats=("human", "greedy"))
    for _ in range(3000):
        if game.over:
            break
        if view.next_button.layout.display != "none":
            view.next_button.click()
            continue
        texts = list(view.buttons)
        pick = next((t for t in texts if t.startswith(("task ", "deploy ", "audit "))), None)
        pick = pick or next((t for t in texts if t != "end turn" and not t.startswith("train ")), None)
        pick = pick or next((t for t in texts if t.startswith("train ")), None) or "end turn"
        view.buttons[pick].click()
    assert game.over
    assert "wins!" in view.status.value or "draw" in view.status.value
    assert view.buttons == {} and view.next_button.layout.display == "none"
    assert max(game.tokens) >= 15 or game.winner is None


# -- Discuss ------------------------------------------------------------------------------------
def test_deploying_a_card_offers_its_discuss_box(tmp_path):
    from tokens_edu.journal import Journal

    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana", lesson="test")
    game = scenario("02-train-and-pay")
    view = GameView(game, seats=("human", "greedy"), journal=journal)
    assert view.discuss_area.layout.display == "none"
    view.buttons["deploy Chatbot"].click()
    assert view.discuss_area.layout.display != "none"
    box = view.discuss_slot.children[0]
    assert "tokens-discuss" in box._dom_classes
    assert view.discuss_pick.value == "Chatbot"
    # the page's Save sends the text as shown (DiscussBox's writing area, tests/test_discuss.py)
    box.answer.handle({"type": "save", "text": "A chatbot predicts words.", "seq": 1})
    answers = journal.answers()
    assert "A chatbot predicts words." in answers.to_string()
    # a later deploy shows the newer card; going back keeps what was typed
    view.buttons["train Classifier"].click()
    view.undo_button.click()
    assert view.discuss_slot.children[0] is box


def test_moves_made_outside_the_view_are_picked_up():
    """A notebook may also call game.apply directly; the move list and Undo stay right."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    game.apply("task Neural Network")
    view.buttons["end turn"].click()
    assert "1. Ada: task Neural Network" in view.moves_html.value
    assert "2. Ada: end turn" in view.moves_html.value
    assert game.to_act == 1


def test_a_broken_discuss_box_does_not_hide_the_move(monkeypatch, tmp_path):
    from tokens_edu.journal import Journal
    from tokens_edu.widgets import discuss

    def broken(*args, **kwargs):
        raise RuntimeError("no box today")

    monkeypatch.setattr(discuss, "DiscussBox", broken)
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana")
    game = scenario("02-train-and-pay")
    view = GameView(game, seats=("human", "greedy"), journal=journal)
    view.buttons["deploy Chatbot"].click()
    assert board_row(game, 0, "Chatbot") is not None
    assert "Chatbot" in view.board.value
    assert "deploys Chatbot" in view.message.value


# -- a choice on the other player's turn (R16 Model Card) -------------------------------------------
def model_card_game() -> Game:
    import yaml

    sc = yaml.safe_load((SCENARIOS / "03-audit.yaml").read_text())
    sc["players"][1]["tools"] = [{"card": "Model Card"}]
    return Game.from_scenario(sc)


def test_model_card_choice_of_the_bot_mid_turn_needs_next():
    game = model_card_game()
    view = GameView(game, seats=("human", FirstBot()))
    view.buttons["audit Neural Network -> Explainability"].click()
    assert game.to_act == 1 and game.active == 0  # Bo decides on Ada's turn
    assert view.buttons == {} and view.next_button.layout.display != "none"
    view.next_button.click()  # FirstBot: "choose yes"
    assert game.to_act == 0 and board_row(game, 1, "Explainability")["Flags"] == 0
    assert "end turn" in view.buttons


def test_model_card_choice_in_hot_seat_passes_the_screen_and_shows_choose_buttons():
    game = model_card_game()
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    view.buttons["audit Neural Network -> Explainability"].click()
    assert view.viewer() is None and "Pass the screen to Computer" in view.cover.value
    view.reveal_button.click()
    assert set(view.buttons) == {"choose yes", "choose no"}
    assert "Model Card" in view._group_labels["Choose"].value
    assert view._group_rows["Choose"].layout.display != "none"
    view.buttons["choose no"].click()
    assert board_row(game, 1, "Explainability") is None  # Deprecated after all
    assert view.viewer() is None and "Pass the screen to Ada" in view.cover.value


# -- every callback shows a message, never silence --------------------------------------------------
@pytest.mark.parametrize("method,click", [
    ("undo", lambda v: v.undo_button.click()),
    ("explain", lambda v: (setattr(v.explain_text, "value", "task Neural Network"))),
    ("to_record", lambda v: v.replay_start.click()),
])
def test_other_callbacks_show_the_friendly_message(monkeypatch, method, click):
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    view.buttons["task Neural Network"].click()

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(game, method, broken)
    click(view)
    assert "Oops" in view.message.value


def test_every_button_is_labelled_for_keyboard_and_screen_reader_users():
    game = model_card_game()
    view = GameView(game, seats=("human", "greedy"))
    buttons = [w for w in tree(view) if isinstance(w, widgets.Button)]
    assert len(buttons) > 8
    for b in buttons:
        assert b.description.strip() and b.tooltip and b.tooltip.strip(), b
        assert b.tabbable is not False


def test_read_a_card_offers_only_cards_the_viewer_may_see():
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", "greedy"))
    options = set(view.card_pick.options)
    assert options == {"Sensor", "Neuron", "Neural Network", "Explainability"}
    view.card_pick.value = "Neural Network"
    assert "Neural Network" in view.card_html.value and "CAP" in view.card_html.value
    view.buttons["deploy Sensor"].click()
    assert view.card_pick.value == "Neural Network"  # the pick survives a redraw
    hot = GameView(Game.from_scenario(SECRET), seats=("human", "human"))
    assert set(hot.card_pick.options) == {"Neural Network", "Explainability"}  # cover up: board only


# -- the review's findings: keyboard panes, no rule numbers, board facts, names ------------------------
def test_the_extra_panes_open_with_buttons_and_why_cant_i_is_always_shown():
    """Accordion headers are not reached with Tab in Voila; Buttons are."""
    view = GameView(scenario("03-audit"), seats=("human", "greedy"))
    assert not any(isinstance(w, (widgets.Accordion, widgets.Tab)) and w is not view.tables_tab
                   for w in tree(view))
    assert view.explain_box in view.children and view.explain_box.layout.display != "none"
    assert view.explain_text in tree(view.explain_box) and view.explain_button in tree(view.explain_box)
    for key, title in (("tables", "State tables"), ("read", "Read a card"), ("replay", "Moves and replay")):
        button = view.pane_buttons[key]
        assert isinstance(button, widgets.Button) and button.tabbable is not False
        assert title in button.description and "tokens-pane-toggle" in button._dom_classes
        was = view.pane_open(key)
        button.click()
        assert view.pane_open(key) is (not was)
        assert (view.panes[key].layout.display == "none") is was
        button.click()
        assert view.pane_open(key) is was
    assert view.pane_open("tables") and not view.pane_open("read") and not view.pane_open("replay")


def test_no_rule_numbers_reach_students():
    """(R2), (R8)... are for teachers and tests; the page shows the plain words only."""
    import re

    decks = starter_decks()
    for game in (Game.new(decks[0], decks[7], seed=1), scenario("02-train-and-pay")):
        view = GameView(game, seats=("human", "greedy"))
        for _ in range(10):  # the computer's setup moves, if it won the die roll
            if view.next_button.layout.display == "none":
                break
            view.next_button.click()
        for text in list(view.buttons)[:3]:
            view.explain_text.value = text
            view.explain_button.click()
        state = tree_state(view)
        assert not re.search(r"\(R\d", state), re.search(r".{60}\(R\d.{20}", state).group(0)
        assert view.buttons  # the hints are still there, in plain words
        for b in view.buttons.values():
            assert not re.search(r"\bR\d+\b", b.tooltip)


def test_the_board_shows_tokens_per_task_and_keywords():
    view = GameView(scenario("04-highly-trusted"), seats=("human", "greedy"))
    assert "2 Tokens · Highly Trusted" in view.board.value  # Decision Tree
    assert "2 Tokens</span>" in view.board.value  # Neural Network: no keyword
    legacy = GameView(scenario("04-legacy"), seats=("human", "greedy"))
    assert legacy.board.value.count("Legacy") == 1  # Feature Vector, not Tensor
    assert "Feature Vector</b><br>Tool<br><span class=\"tokens-card-facts\">Legacy" in legacy.board.value
    fast = GameView(scenario("04-fast-tracked"), seats=("human", "greedy"))
    fast.buttons["deploy Agent"].click()
    assert "2 Tokens · Fast-Tracked" in fast.board.value
    gan = GameView(scenario("04-adversarial"), seats=("human", "greedy"))
    assert "2 Tokens · Adversarial" in gan.board.value


def test_playing_now_follows_who_acts_and_the_move_count_is_shown():
    game = model_card_game()
    view = GameView(game, seats=("human", FirstBot()))
    assert "0 moves so far" in view.step.value
    view.buttons["audit Neural Network -> Explainability"].click()
    assert game.to_act == 1 and game.active == 0  # the computer decides on Ada's turn
    top, bottom = view.board.value.split('class="tokens-side"')[1:3]
    assert "Computer" in top and "▶ playing now" in top
    assert "Ada" in bottom and "playing now" not in bottom
    assert "1 move so far" in view.step.value


def test_the_tables_show_names_with_left_aligned_headers():
    view = GameView(scenario("03-audit"), seats=("human", "greedy"))
    players = view.table_widgets["players"].value
    assert "<th>Player</th>" not in players and "<th>Name</th>" in players
    assert "text-align: left" in players or "text-align:left" in players
    board = view.table_widgets["board"].value
    assert "<td>Ada</td>" in board and "<td>Computer</td>" in board  # the Owner column, by name


def test_the_players_name_is_the_students_name_when_known(tmp_path, monkeypatch):
    from tokens_edu.journal import Journal

    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="Ana", lesson="t")
    panel = NewGamePanel(seats=("human", "greedy"), journal=journal, seed=5)
    panel.start_button.click()
    assert panel.view.game.names == ("Ana", "Computer")
    assert "Ana" in panel.view.board.value and "Player 1" not in panel.view.board.value
    assert "reload" in panel.page_note.value  # the game lives only in this page

    monkeypatch.setenv("QUERY_STRING", "student=%3Cb%3EBo%3C%2Fb%3E")
    late = NewGamePanel(seats=("human", "human"), journal=Journal(url=f"sqlite:///{tmp_path}/j.sqlite"),
                        seed=5)
    late.name_boxes[0].value = ""  # e.g. the query came after the panel was made
    late.start_button.click()
    assert late.view.game.names[0] == "<b>Bo</b>"
    assert "<b>Bo" not in late.view.board.value and "&lt;b&gt;Bo" in late.view.board.value
    assert "your own name" in late.view.discuss_area.children[0].value  # hot seat hint
