"""GameView driven from Python: click buttons, read the game and the widgets back.

Every test builds a view on a real Game (a lesson scenario or a small scenario dict), clicks its
buttons with ``.click()`` (what a browser click does in the kernel) and checks the outcome the
rules say (R8-R14, R25), what the widgets now show, and what reached the page.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import ipywidgets as widgets
import pytest

from tokens_edu import Action, Game, starter_decks
from tokens_edu.players import GreedyBot, RandomBot
from tokens_edu.widgets import GameView
from tokens_edu.widgets.game_view import NewGamePanel

A = Action.parse  # a move as a test writes it
from views import SECRET, tree, tree_state

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"


def scenario(name: str) -> Game:
    return Game.from_scenario(SCENARIOS / f"{name}.yaml")


def board_row(game: Game, owner: int, card: str) -> dict | None:
    df = game.tables(0)["board"]
    hit = df[(df["Owner"] == owner) & (df["Card"].str.contains(card, regex=False))]
    return None if hit.empty else hit.iloc[0].to_dict()


def player_row(game: Game, p: int) -> dict:
    df = game.tables(0)["players"]
    return df[df["Player"] == p].iloc[0].to_dict()


class FirstBot:
    """A bot that always takes the first legal action (predictable for tests)."""

    def choose(self, game):
        return game.legal_actions()[0]


def state(view) -> dict:
    """The card table's synced state (what the page draws)."""
    return view.table.state


def card(view, label: str) -> dict | None:
    return next((c for c in state(view)["board"] if c["id"] == label), None)


def send(view, **msg) -> None:
    """A message exactly as the page sends it (with the version of the state it was drawn from)."""
    msg.setdefault("v", state(view)["v"])
    view.table._on_page_msg(view.table, msg)


def send_move(view, text: str, drawn: dict | None = None) -> None:
    """A click on the move ``text`` as the page sends it: the move's index in the moves of the
    state the page drew (default: the one now) and that state's version."""
    drawn = drawn or state(view)
    i = [m["t"] for m in drawn["moves"]].index(text)
    view.table._on_page_msg(view.table, {"type": "move", "i": i, "v": drawn["v"]})


# -- the table and its moves -------------------------------------------------------------------
def test_offers_exactly_the_legal_moves_tied_to_their_cards():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    legal = [str(a) for a in game.legal_actions()]
    assert list(view.buttons) == game.legal_actions()
    assert all(view.buttons[a].action.move == a.move for a in game.legal_actions())
    moves = {m["t"]: m for m in state(view)["moves"]}
    assert list(moves) == legal
    assert moves["train Sensor"]["c"] == "hand:Sensor" and moves["train Sensor"]["label"] == "Train"
    assert moves["task Neural Network"]["c"] == "Neural Network"
    audit = moves["audit Neural Network -> Explainability"]
    assert audit["c"] == "Neural Network" and audit["x"] == "Explainability"  # a click on the target
    assert moves["end turn"]["c"] is None
    for m in moves.values():  # the keyboard and screen-reader path reads the whole move
        assert m["t"] in m["screen"] and m["hint"]
    assert "tokens-game" in view._dom_classes and state(view)["status"] == "Your turn"
    # the table draws cards as faces: Neural Network with its printed facts
    nn = card(view, "Neural Network")
    assert nn["face"]["cap"] == 4 and nn["face"]["tokens"] == 2 and nn["face"]["color"]


def test_a_click_from_the_page_plays_the_move_and_a_stale_click_changes_nothing():
    """R14/R15: Neural Network (CAP 4, TRU 2) audits Explainability (CAP 1, TRU 3)."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    drawn = dict(state(view))
    v0 = drawn["v"]
    send_move(view, "audit Neural Network -> Explainability", drawn)
    assert board_row(game, 1, "Explainability") is None  # Deprecated
    nn = card(view, "Neural Network")
    assert nn["flags"] == 1 and nn["sideways"]
    assert card(view, "Explainability") is None
    assert "Deprecated" in state(view)["note"]["text"]
    assert state(view)["v"] > v0
    history = game.history
    send_move(view, "audit Neural Network -> Explainability", drawn)  # the double click
    assert game.history == history
    assert "already made" in state(view)["note"]["text"]
    assert state(view)["note"]["kind"] == "info"


def test_task_scores_tokens():
    """R13: Classifier (2 Tokens) Runs a Task: +2 Tokens, sideways."""
    game = scenario("03-task-exposes")
    view = GameView(game, seats=("human", "greedy"))
    before = game.tokens[0]
    view.buttons[A("task Classifier")].click()
    assert game.tokens[0] == before + 2
    bottom = state(view)["sides"][1]
    assert bottom["you"] and bottom["tokens"] == before + 2
    assert card(view, "Classifier")["sideways"]


def test_train_then_deploy_pays_the_deploy_tax():
    """R8-R10: with 2 Systems, Neural Network costs 3; train once to afford it."""
    game = scenario("02-train-and-pay")
    view = GameView(game, seats=("human", "greedy"))
    assert A("deploy Neural Network") not in view.buttons
    view.explain_text.value = "deploy Neural Network"
    view.explain_button.click()
    assert "deploy Neural Network" in view.explain_out.value and "3" in view.explain_out.value
    view.buttons[A("train Chatbot")].click()
    assert state(view)["sides"][1]["ts_ready"] == 3
    assert not any(a.kind == "train" for a in view.buttons)  # once per turn (R8)
    view.buttons[A("deploy Neural Network")].click()
    assert state(view)["sides"][1]["ts_ready"] == 0
    assert card(view, "Neural Network")["new"]


def test_a_stale_button_shows_the_rule_and_changes_nothing():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    stale = view.buttons[A("deploy Sensor")]
    view.buttons[A("train Sensor")].click()  # Sensor leaves the hand
    history = game.history
    stale.click()
    assert game.history == history
    note = state(view)["note"]
    assert "Sensor is not in your hand" in note["text"] and note["kind"] == "info"
    assert "trains a card" in note["text"]  # the first click's news stays on screen


def test_a_failing_callback_shows_a_friendly_message_and_logs(monkeypatch, caplog):
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))

    def broken(action):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(game, "apply", broken)
    with caplog.at_level(logging.ERROR, logger="tokens_edu.widgets.game_view"):
        view.buttons[A("task Neural Network")].click()
    text = state(view)["note"]["text"]
    assert "Oops" in text and "Nothing was lost" in text and "engine exploded" not in text
    assert any(r.exc_info for r in caplog.records)
    assert game.tokens == (6, 8)


def test_bad_arguments_are_refused_in_plain_words():
    with pytest.raises(ValueError, match="Seat 2"):
        GameView(scenario("03-audit"), seats=("human", "genius"))
    with pytest.raises(ValueError, match="pair"):
        GameView(scenario("03-audit"), seats=("human",))
    with pytest.raises(ValueError, match="undo"):
        GameView(scenario("03-audit"), seats=("human", "greedy"), undo="sometimes")
    with pytest.raises(ValueError, match="delay_ms"):
        GameView(scenario("03-audit"), seats=("human", "greedy"), delay_ms=-5)


# -- hidden information ---------------------------------------------------------------------
BO_SECRETS = ("Mandatory Recall", "Informed Consent", "Red Teaming", "Fairness Check")


class ScriptBot:
    """Plays the given moves first (when legal), then the first legal action."""

    def __init__(self, *script):
        self.script = list(script)

    def choose(self, game):
        legal = game.legal_actions()
        while self.script:
            want = self.script.pop(0)
            hit = next((a for a in legal if str(a) == want), None)
            if hit is not None:
                return hit
        return legal[0]


def test_the_computers_hand_deck_and_look_never_reach_the_page(wire):
    """The computer uses Tensor (looks at its top card, R22): the student reads a neutral line."""
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", ScriptBot("use Tensor")), autoplay=False)
    view.buttons[A("train Sensor")].click()
    view.buttons[A("end turn")].click()
    view.next_button.click()  # the computer uses Tensor: it must choose now
    assert game.to_act == 1 and game.pending and "Fairness Check" in game.pending
    assert state(view)["prompt"] == ("The computer looks at the top card of its deck (Tensor) "
                                     "and may put it on the bottom.")
    assert view.match.prompt(1) == game.observation(1).pending  # the chooser's own words
    for _ in range(40):
        if game.over or game.to_act == 0:
            break
        view.next_button.click()
    assert game.to_act == 0 and game.turn == 6
    view.pane_buttons["replay"].click()
    view.replay_start.click()
    view.replay_fwd.click()
    view.pane_buttons["tables"].click()
    view.explain_text.value = "audit Neural Network -> Explainability"
    view.explain_button.click()
    tree_text = tree_state(view)
    sent = "\n".join(wire)
    assert len(sent) > 1000  # the recording comm really saw the widgets
    public = " ".join(e.text for e in game.log) + json.dumps(state(view)["board"])
    public += json.dumps([s["discard"] for s in state(view)["sides"]])
    mine = {c.name for c in game.observation(0).hand}
    secrets = [c for c in BO_SECRETS if c not in mine and c not in public]
    assert "Mandatory Recall" in secrets and "Fairness Check" in secrets
    for secret in secrets:
        assert secret not in tree_text, f"{secret} is in a widget's state"
        assert secret not in sent, f"{secret} was sent to the page"
    assert "Neuron" in json.dumps(state(view)["hand"])  # Ada's own hand is there


def test_the_chooser_reads_their_own_look_prompt():
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tools"] = [{"card": "Tensor"}]
    game = Game.from_scenario(sc)
    view = GameView(game, seats=("human", "greedy"))
    view.buttons[A("use Tensor")].click()
    assert "Chatbot" in state(view)["prompt"]  # Ada looks at her own top card
    assert {m["k"] for m in state(view)["moves"]} == {"choose"}


def test_hot_seat_cover_hides_both_hands_and_prompts_until_the_right_player_reveals(wire):
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", "human"))
    assert view.viewer() is None and view.buttons == {}
    cover = state(view)["cover"]
    assert cover["title"] == "Pass the screen to Ada." and view.reveal_button.shown
    assert state(view)["hand"] == [] and state(view)["moves"] == []
    for secret in ("Sensor", "Neuron", "Mandatory Recall", "Informed Consent"):
        assert secret not in tree_state(view)
    view.reveal_button.click()
    assert view.viewer() == 0 and A("end turn") in view.buttons and state(view)["cover"] is None
    assert "Sensor" in json.dumps(state(view)["hand"])
    view.explain_text.value = "deploy Neuron"
    view.explain_button.click()
    view.buttons[A("end turn")].click()
    assert view.viewer() is None and view.buttons == {}
    assert state(view)["cover"]["title"] == "Pass the screen to Bo."
    assert state(view)["seat"] == 1  # Bo's side is drawn at the bottom, his hand not shown yet
    for secret in ("Sensor", "Neuron", "Mandatory Recall", "Informed Consent"):
        assert secret not in tree_state(view)
    view.reveal_button.click()
    assert "Mandatory Recall" in json.dumps(state(view)["hand"])
    assert "Sensor" not in tree_state(view)


def test_hot_seat_cover_answers_no_move_from_the_hidden_hand(wire, caplog):
    """Under the cover (hot seat) the page is offered no move, so any move message is one the
    page could not have sent: 'train Neuron' (Ada holds it) and 'train Chatbot' (she does not),
    by text or by any index, change nothing, say nothing and never read the hand."""
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", "human"))
    assert view.viewer() is None and state(view)["moves"] == []
    notes, sent = [], len(wire)
    with caplog.at_level(logging.INFO):
        for msg in ({"text": "train Neuron"}, {"text": "train Chatbot"}, {"i": 0}, {"i": 3}):
            view.note = ""
            view.table._on_page_msg(view.table, dict(msg, type="move", v=state(view)["v"]))
            notes.append(view.note)
    assert notes == ["", "", "", ""] and len(wire) == sent  # nothing drawn, nothing said
    assert game.history == ()
    refused = [r.getMessage() for r in caplog.records if r.name == "tokens_edu.widgets.trust"]
    assert len(refused) == 1 and "Neuron" not in refused[0] and "Chatbot" not in refused[0]
    for secret in ("Sensor", "Neuron"):
        assert secret not in tree_state(view)


def test_hot_seat_look_prompt_is_neutral_for_the_covered_seat():
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tools"] = [{"card": "Tensor"}]
    game = Game.from_scenario(sc)
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    view.buttons[A("use Tensor")].click()
    assert game.to_act == 0 and "Chatbot" in state(view)["prompt"]
    bo_reads = view.match.prompt(1)  # what Bo would read: who looks, never the card (R22)
    assert bo_reads == "Ada looks at the top card of their deck (Tensor) and may put it on the bottom."
    assert "Chatbot" not in bo_reads


# -- escaping: the page escapes, the state holds the literal text ---------------------------------
EVIL = "<img src=x onerror=alert(1)>"


def test_typed_text_is_escaped_in_every_html_widget():
    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=3, names=(EVIL, "<b>Bo</b>"))
    view = GameView(game, seats=("human", "human"), lesson="<script>x</script>")
    view.reveal_button.click() if view.viewer() is None else None
    view.explain_text.value = "deploy <script>alert(2)</script>"
    view.explain_button.click()
    for key in view.panes:
        view.pane_buttons[key].click()
    for w in tree(view):
        if isinstance(w, widgets.HTML):
            assert "<img" not in w.value and "<script" not in w.value and "<b>Bo" not in w.value, w.value
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in view.explain_out.value
    assert state(view)["sides"][0]["name"] in (EVIL, "<b>Bo</b>")  # literal: table.js escapes it
    js = (Path(__file__).resolve().parents[2] / "tokens_edu/widgets/static/table.js").read_text()
    assert "${esc(owner)}" in js and "${esc(f.name)}" in js and "${esc(st.status" in js


def test_new_game_panel_escapes_names_and_starts_a_game():
    panel = NewGamePanel(seats=("human", "greedy"), seed=5)
    panel.name_boxes[0].value = EVIL
    panel.deck_pickers[0].value = 2
    panel.start_button.click()
    assert panel.view is not None and panel.view.game.names[0].startswith("<img")
    assert "<img" not in panel.note.value and "&lt;img" in panel.note.value
    assert panel.slot.children == (panel.view,)
    assert panel.view.game.to_record()["decks"][0] == [c.name for c in starter_decks()[2]]
    assert panel.setup.layout.display == "none" and panel.new_button.layout.display != "none"
    assert state(panel.view)["scroll"]  # a game started by a click comes into view


def test_a_double_click_on_start_warns_only_until_the_game_goes_on():
    """Newcomer review: a double click on Start left 'A game is still going...' on screen for
    the whole game."""
    panel = NewGamePanel(seats=("human", "greedy"), seed=5)
    panel.start_button.click()
    panel.start_button.click()
    first = panel.view.game
    assert "still going" in panel.note.value
    match = panel.view.match
    match.step() if match.bot_to_act() else match.play(match.legal_moves()[0])
    assert "still going" not in panel.note.value
    panel.start_button.click()  # a later Start still asks first
    assert "still going" in panel.note.value and panel.view.game is first


# -- the computer's turn ---------------------------------------------------------------------------
@pytest.mark.parametrize("bot", [GreedyBot(), "greedy", "random", RandomBot(seed=4)])
def test_next_makes_exactly_one_bot_move(bot):
    game = scenario("03-audit")
    view = GameView(game, seats=("human", bot), autoplay=False)
    assert not view.next_button.shown and view.next_button.disabled
    view.buttons[A("end turn")].click()
    assert game.to_act == 1 and view.buttons == {}
    assert view.next_button.shown and not view.next_button.disabled
    n = len(game.history)
    view.next_button.click()
    assert len(game.history) == n + 1 and game.moves[-1][0] == 1


def test_autoplay_steps_one_move_per_page_timer_and_ignores_stale_steps():
    """The page's timer sends "step" with the version it drew; a stale step does nothing."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()), delay_ms=300)
    assert state(view)["autoplay"] and state(view)["delay"] == 300
    view.buttons[A("end turn")].click()
    st = state(view)
    assert st["bot"] and not st["paused"] and not view.next_button.shown  # plays by itself
    assert st["status"] == "The computer is playing…"
    n = len(game.history)
    old = st["v"]
    send(view, type="step")
    assert len(game.history) == n + 1
    send(view, type="step", v=old)  # a second view of the same widget, or a late timer
    assert len(game.history) == n + 1
    send(view, type="pause", paused=True)
    assert state(view)["paused"] and view.next_button.shown
    send(view, type="speed", ms=2500)  # "slow" in the menu
    assert state(view)["delay"] == 2500 and view.delay_ms == 2500


def test_the_computers_moves_are_highlighted_on_the_table():
    game = scenario("03-task-exposes")
    view = GameView(game, seats=("human", "greedy"))
    view.buttons[A("task Classifier")].click()
    view.buttons[A("end turn")].click()
    view.match.play_bot_turn()
    view._refresh()
    view._push()
    assert game.to_act == 0
    assert card(view, "Supervised Learning")["hl"]  # it audited the Classifier


def test_the_computers_face_down_train_lights_up_its_training_set_never_a_card():
    """The computer trains a hidden Sensor while the student has a Sensor in play: the student's
    Sensor must not light up (that would tell them the hidden card); the Training Set does."""
    import yaml

    sc = yaml.safe_load((SCENARIOS / "03-task-exposes.yaml").read_text())
    sc["players"][0]["systems"].append({"card": "Sensor", "flags": 0, "exerted": False, "new": False})
    sc["players"][1]["hand"] = ["Sensor"]
    sc["players"][1]["deck"] = ["Agent", "Agent", "Search Tree"]  # nothing it can deploy
    view = GameView(Game.from_scenario(sc), seats=("human", "greedy"))
    view.buttons[A("end turn")].click()
    moves = [str(a) for a in view.match.play_bot_turn()]
    assert "train Sensor" in moves[-3:], moves  # among the moves the table lights up
    view._refresh()
    view._push()
    st = state(view)
    assert not card(view, "Sensor")["hl"]
    assert card(view, "Supervised Learning")["hl"]  # its Task is public
    assert [s["ts_hl"] for s in st["sides"] if s["p"] == 1] == [True]
    assert [s["ts_hl"] for s in st["sides"] if s["p"] == 0] == [False]


def test_next_refuses_when_it_is_the_humans_move():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    view.next_button.click()
    assert game.history == ()
    assert "your move" in state(view)["note"]["text"]


# -- undo (issue 9 item 4) -------------------------------------------------------------------------
def test_undo_against_the_computer_takes_back_only_this_turns_own_moves():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()))
    assert view.undo_button.disabled
    view.buttons[A("train Sensor")].click()
    view.buttons[A("task Neural Network")].click()
    assert view.match.undo_count() == 2 and state(view)["undo"] == 2
    view.undo_button.click()
    assert game.history == () and game.tokens == (6, 8)
    view.buttons[A("task Neural Network")].click()
    view.buttons[A("end turn")].click()
    view.match.play_bot_turn()
    assert game.to_act == 0
    view._refresh()
    assert view.match.undo_count() == 0 and view.undo_button.disabled  # no peeking at its turn
    view.undo_button.click()
    assert "no move of yours" in state(view)["note"]["text"]
    assert game.to_act == 0 and len(game.history) > 2


def test_turn_undo_stops_at_a_move_that_showed_a_card():
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tools"] = [{"card": "Tensor"}]
    view = GameView(Game.from_scenario(sc), seats=("human", "greedy"))
    view.buttons[A("train Sensor")].click()
    view.buttons[A("use Tensor")].click()  # Ada now knows her top card
    view.buttons[A("choose top")].click() if A("choose top") in view.buttons else \
        view.buttons[next(a for a in view.buttons if a.kind == "choose")].click()
    assert view.match.undo_count() == 1  # the choice, not the look nor the train before it


def test_free_undo_goes_back_over_the_computers_turn():
    """Lesson 3 "try it again": the teacher's free undo."""
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()), undo="free")
    view.buttons[A("task Neural Network")].click()
    key_after_task = game.state_key()
    view.buttons[A("end turn")].click()
    view.match.play_bot_turn()
    view._refresh()
    view.undo_button.click()  # takes back the computer's moves and "end turn"
    assert game.history == ("task Neural Network",) and game.state_key() == key_after_task
    view.undo_button.click()
    assert game.history == () and view.undo_button.disabled


def test_undo_can_be_turned_off_and_is_off_once_the_game_is_over():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"), allow_undo=False)
    assert not view.undo_button.shown and not state(view)["undo_shown"]
    view.buttons[A("task Neural Network")].click()
    view.undo_button.click()
    assert game.history == ("task Neural Network",)
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tokens"] = 13
    over = GameView(Game.from_scenario(sc), seats=("human", "greedy"), undo="free")
    over.buttons[A("task Neural Network")].click()  # 13 + 2 = 15: Ada wins (R25)
    assert over.game.over and over.undo_button.disabled
    over.undo_button.click()
    assert over.game.over and "over" in state(over)["note"]["text"]


def test_hot_seat_undo_never_takes_back_the_opponents_move():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "human"), undo="free")
    view.reveal_button.click()
    view.buttons[A("end turn")].click()
    view.reveal_button.click()
    assert view.undo_button.disabled
    view.undo_button.click()
    assert game.history == ("end turn",)


def test_match_hooks_run_after_each_move_and_undo_and_a_broken_hook_is_harmless():
    from tokens_edu.players.match import Match

    match = Match(scenario("03-audit"), seats=("human", "greedy"))
    seen = []
    match.on_move.append(lambda m, player, action: seen.append((player, str(action))))
    match.on_move.append(lambda m, player, action: 1 / 0)
    match.on_undo.append(lambda m, taken: seen.append(("undo", len(taken))))
    view = GameView(match)
    view.buttons[A("task Neural Network")].click()
    view.undo_button.click()
    assert seen == [(0, "task Neural Network"), ("undo", 1)]
    record = match.game.to_record()
    resumed = Match.from_record(record, seats=("human", "greedy"))
    assert resumed.game.state_key() == match.game.state_key()


# -- the end of a game -------------------------------------------------------------------------------
def test_the_end_banner_and_play_again():
    sc = json.loads(json.dumps(SECRET))
    sc["players"][0]["tokens"] = 13
    game = Game.from_scenario(sc)
    view = GameView(game, seats=("human", "greedy"))
    view.buttons[A("task Neural Network")].click()
    banner = state(view)["banner"]
    assert banner["won"] and banner["title"] == "You win!" and "Ada 15" in banner["detail"]
    assert view.buttons == {} and view.again_button.shown
    view.again_button.click()
    assert not view.game.over and view.game.history == () and view.game is not game
    assert state(view)["banner"] is None and A("task Neural Network") in view.buttons


def test_a_whole_game_against_greedybot_by_clicking():
    decks = starter_decks()
    game = Game.new(decks[2], decks[6], seed=8, names=("Ada", "Bo"))
    view = GameView(game, seats=("human", "greedy"))
    for _ in range(3000):
        if game.over:
            break
        if view.match.bot_to_act():
            send(view, type="step")
            continue
        texts = [str(a) for a in view.buttons]
        pick = next((t for t in texts if t.startswith(("task ", "deploy ", "audit "))), None)
        pick = pick or next((t for t in texts if t != "end turn" and not t.startswith("train ")), None)
        pick = pick or next((t for t in texts if t.startswith("train ")), None) or "end turn"
        send_move(view, pick)
    assert game.over
    st = state(view)
    assert st["banner"] and ("wins" in st["status"] or "win" in st["status"] or "draw" in st["status"])
    assert view.buttons == {} and st["moves"] == []
    assert max(game.tokens) >= 15 or game.winner is None


# -- panes, replay, read a card ----------------------------------------------------------------------
def test_panes_open_on_demand_with_buttons():
    view = GameView(scenario("03-audit"), seats=("human", "greedy"))
    for key, title in (("explain", "Why can't I?"), ("log", "What happened"), ("replay", "Moves and replay"),
                       ("tables", "State tables"), ("read", "Read a card")):
        button = view.pane_buttons[key]
        assert isinstance(button, widgets.Button) and title in button.description
        assert not view.pane_open(key)  # on demand: the table fits the window
        button.click()
        assert view.pane_open(key)
        button.click()
        assert not view.pane_open(key)
    extra = widgets.HTML("thinking")
    view.add_pane("thinking", "What was the computer thinking?", extra)
    assert "tokens-toggle-thinking" in view.pane_buttons["thinking"]._dom_classes
    with pytest.raises(ValueError):
        view.add_pane("thinking", "again", widgets.HTML())


def test_replay_steps_through_a_copy_on_a_second_table():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", FirstBot()))
    view.buttons[A("audit Neural Network -> Explainability")].click()
    view.buttons[A("end turn")].click()
    send(view, type="step")
    key = game.state_key()
    view.pane_buttons["replay"].click()
    assert "1. Ada: audit Neural Network -&gt; Explainability" in view.moves_html.value
    assert game.history[2].startswith("train ") and game.history[2] not in view.moves_html.value
    assert "3. Computer: train a card (face-down)" in view.moves_html.value
    view.replay_start.click()
    ids = [c["id"] for c in view.replay_table.state["board"]]
    assert "Explainability" in ids and "after move 0 of 3" in view.replay_label.value
    view.replay_fwd.click()
    assert "Explainability" not in [c["id"] for c in view.replay_table.state["board"]]
    view.replay_end.click()
    assert "after move 3 of 3" in view.replay_label.value
    assert game.state_key() == key


def test_read_a_card_offers_only_cards_the_viewer_may_see():
    game = Game.from_scenario(SECRET)
    view = GameView(game, seats=("human", "greedy"))
    send(view, type="read", name="Neural Network")
    assert view.pane_open("read")
    assert set(view.card_pick.options) == {"Sensor", "Neuron", "Neural Network", "Explainability", "Tensor"}
    assert "Neural Network" in view.card_html.value and "CAP" in view.card_html.value
    send(view, type="read", name="Mandatory Recall")  # not the viewer's to read
    assert view.card_pick.value == "Neural Network"
    hot = GameView(Game.from_scenario(SECRET), seats=("human", "human"))
    hot.pane_buttons["read"].click()
    assert set(hot.card_pick.options) == {"Neural Network", "Explainability", "Tensor"}


def test_no_rule_numbers_reach_students():
    import re

    decks = starter_decks()
    for game in (Game.new(decks[0], decks[7], seed=1), scenario("02-train-and-pay")):
        view = GameView(game, seats=("human", "greedy"))
        view.match.play_bot_turn()
        view._refresh()
        for action in list(view.buttons)[:3]:
            view.explain_text.value = str(action)
            view.explain_button.click()
        text = tree_state(view)
        assert not re.search(r"\(R\d", text), re.search(r".{60}\(R\d.{20}", text).group(0)
        assert view.buttons
        for b in view.buttons.values():
            assert not re.search(r"\bR\d+\b", b.tooltip)


def test_the_mulligan_is_called_a_new_hand_on_screen():
    decks = starter_decks()
    game = Game.new(decks[0], decks[7], seed=1, names=("Ada", "Bo"))
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    view.buttons[A("go first")].click()
    view.reveal_button.click()
    labels = {m["t"]: m for m in state(view)["moves"]}
    assert labels["mulligan"]["label"] == "New hand" and "new hand" in labels["mulligan"]["screen"]
    assert labels["keep"]["label"] == "Keep this hand"
    assert "new hand" in state(view)["step"]
    view.pane_buttons["replay"].click()
    view.buttons[A("mulligan")].click()  # the move list and the move words say "new hand" only
    view.reveal_button.click()
    assert "new hand" in view.moves_html.value
    st = state(view)
    words = [st.get("step", "")] + [m.get(k) or "" for m in st["moves"] for k in ("label", "screen", "hint")]
    shown = " ".join(words) + view.moves_html.value + view.table_widgets["log"].value
    assert "mulligan" not in shown.lower(), shown


# -- Discuss ------------------------------------------------------------------------------------
def test_deploying_a_card_offers_its_discuss_box(tmp_path):
    from tokens_edu.session.journal import Journal

    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana", lesson="test")
    game = scenario("02-train-and-pay")
    view = GameView(game, seats=("human", "greedy"), journal=journal)
    assert view.discuss_area.layout.display == "none"
    view.buttons[A("deploy Chatbot")].click()
    assert view.discuss_area.layout.display != "none"
    box = view.discuss_slot.children[0]
    assert "tokens-discuss" in box._dom_classes
    # the page's Save sends the text as shown (DiscussBox's writing area, tests/test_discuss.py)
    box.answer.handle({"type": "save", "text": "A chatbot predicts words.", "seq": 1})
    assert "A chatbot predicts words." in journal.answers().to_string()


def test_moves_made_outside_the_view_are_picked_up():
    game = scenario("03-audit")
    view = GameView(game, seats=("human", "greedy"))
    game.apply("task Neural Network")
    view.buttons[A("end turn")].click()
    assert game.history == ("task Neural Network", "end turn") and game.to_act == 1


def test_a_broken_discuss_box_does_not_hide_the_move(monkeypatch, tmp_path):
    from tokens_edu.session.journal import Journal
    from tokens_edu.widgets import discuss

    def broken(*args, **kwargs):
        raise RuntimeError("no box today")

    monkeypatch.setattr(discuss, "DiscussBox", broken)
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="ana")
    view = GameView(scenario("02-train-and-pay"), seats=("human", "greedy"), journal=journal)
    view.buttons[A("deploy Chatbot")].click()
    assert card(view, "Chatbot") is not None
    assert "deploys Chatbot" in state(view)["note"]["text"]


# -- a choice on the other player's turn (R16 Model Card) -------------------------------------------
def model_card_game() -> Game:
    import yaml

    sc = yaml.safe_load((SCENARIOS / "03-audit.yaml").read_text())
    sc["players"][1]["tools"] = [{"card": "Model Card"}]
    return Game.from_scenario(sc)


def test_model_card_choice_of_the_bot_mid_turn():
    game = model_card_game()
    view = GameView(game, seats=("human", FirstBot()), autoplay=False)
    view.buttons[A("audit Neural Network -> Explainability")].click()
    assert game.to_act == 1 and game.active == 0
    assert view.buttons == {} and view.next_button.shown
    assert state(view)["sides"][0]["acting"] and not state(view)["sides"][1]["acting"]
    view.next_button.click()  # FirstBot: "choose yes"
    assert game.to_act == 0 and board_row(game, 1, "Explainability")["Flags"] == 0
    assert A("end turn") in view.buttons


def test_model_card_choice_in_hot_seat_passes_the_screen():
    game = model_card_game()
    view = GameView(game, seats=("human", "human"))
    view.reveal_button.click()
    view.buttons[A("audit Neural Network -> Explainability")].click()
    assert view.viewer() is None and state(view)["cover"]["title"] == "Pass the screen to Computer."
    view.reveal_button.click()
    assert set(view.buttons) == {A("choose yes"), A("choose no")}
    assert "Model Card" in state(view)["prompt"]
    view.buttons[A("choose no")].click()
    assert board_row(game, 1, "Explainability") is None
    assert view.viewer() is None


# -- lesson 4: one table, a puzzle picker -------------------------------------------------------------
def test_puzzle_picker_keeps_each_puzzles_game():
    from tokens_edu.widgets import PuzzlePicker

    names = ("fast-tracked", "highly-trusted", "legacy")
    picker = PuzzlePicker({n: SCENARIOS / f"04-{n}.yaml" for n in names})
    assert picker.picker.value == "fast-tracked" and "Agent" in picker.task.value
    picker.view.buttons[A("deploy Agent")].click()
    picker.show("legacy")
    assert "Outdated" in picker.task.value and A("deploy Outdated -> Tensor") in picker.view.buttons
    picker.show("fast-tracked")
    assert A("task Agent") in picker.view.buttons  # the puzzle as it was left
    with pytest.raises(KeyError, match="legacy"):
        picker.show("nope")
    with pytest.raises(ValueError, match="Puzzle 'bad'"):
        PuzzlePicker({"bad": {"players": [{"hand": ["No Such Card"]}, {}]}})


def test_the_players_name_is_the_students_name_when_known(tmp_path, monkeypatch):
    from tokens_edu.session.journal import Journal

    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    journal = Journal(url=f"sqlite:///{tmp_path}/j.sqlite", student="Ana", lesson="t")
    panel = NewGamePanel(seats=("human", "greedy"), journal=journal, seed=5)
    panel.start_button.click()
    assert panel.view.game.names == ("Ana", "Computer")
    assert state(panel.view)["sides"][1]["name"] == "Ana" and state(panel.view)["sides"][1]["you"]
    assert "reload" in panel.page_note.value
    panel.view.again_button.click()  # not over: refused, the game goes on
    assert "Finish this game" in state(panel.view)["note"]["text"]


def test_puzzle_picker_shows_each_puzzles_prediction_beside_its_task():
    """Lesson 4: a puzzle's prediction sits beside its task, right above the table (issue 21
    part 4: they were one to three screens below), and keeps its answer across puzzles."""
    import ipywidgets as widgets

    from tokens_edu.widgets import PredictionBox, PuzzlePicker

    names = ("fast-tracked", "legacy")
    boxes = {n: PredictionBox(f"About {n}?", choices=["a", "b"], correct="a", answer="a.") for n in names}
    picker = PuzzlePicker({n: SCENARIOS / f"04-{n}.yaml" for n in names}, predictions={"legacy": boxes["legacy"]})
    head = picker.children[1]
    assert isinstance(head, widgets.HBox) and head.children == (picker.task, picker.aside)
    assert picker.children[2] is picker.view  # the table right under them
    assert picker.aside.children == ()  # no prediction for this puzzle
    picker.show("legacy")
    assert picker.aside.children == (boxes["legacy"],)
    picker.show("fast-tracked")
    assert picker.aside.children == ()
    with pytest.raises(ValueError, match="do not exist"):
        PuzzlePicker({"legacy": SCENARIOS / "04-legacy.yaml"}, predictions={"nope": boxes["legacy"]})


def test_a_pane_beside_the_table_takes_room_only_while_open():
    """add_pane(..., beside=True) (for Lesson 7's thinking pane on a wide screen): the pane sits
    in the row with the table (it wraps under it on a narrow screen); that room is shown only
    while a pane there is open; its button is with the others."""
    import ipywidgets as widgets
    from tokens_edu import Game
    from tokens_edu.widgets import GameView

    view = GameView(Game.from_scenario(str(__import__("pathlib").Path(__file__).resolve().parents[2]
                                           / "lessons" / "scenarios" / "03-audit.yaml")), seats=("human", "greedy"))
    side = widgets.HTML("thinking")
    button = view.add_pane("side-note", "Side note", side, beside=True)
    row = view._table_row
    assert row.children[0] is view.table and side in row.children[1].children
    assert row.layout.flex_flow == "row wrap"  # under the table when the window is narrow
    assert row.children[1].layout.display == "none" and not view.pane_open("side-note")
    button.click()
    assert view.pane_open("side-note") and row.children[1].layout.display is None
    button.click()
    assert row.children[1].layout.display == "none"
    assert button in view._pane_row.children
    under = widgets.HTML("under")
    view.add_pane("under-note", "Under", under)
    assert under in view._pane_box.children and under not in row.children[1].children
    thinker = GameView(Game.from_scenario(str(__import__("pathlib").Path(__file__).resolve().parents[2]
                                              / "lessons" / "scenarios" / "03-audit.yaml")),
                       seats=("human", "greedy"), thinking="beside")
    assert thinker.panes["thinking"] in thinker._table_row.children[1].children and thinker.pane_open("thinking")
