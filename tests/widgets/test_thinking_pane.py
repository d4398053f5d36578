"""GameView's "What was the computer thinking?" pane and its Hint (issue 11 item 3).

Driven from Python as the page drives it (``next_button.click()``, ``pane_buttons[...]``):
after each computer move the pane shows at most five options with bars, never a card of the
computer's hand or deck (R22: hidden cards stay hidden, even inside an explanation); the Hint
is the search bot's view of the student's own move, the same however the computer's hidden
cards lie; and the teacher can turn hints off (lesson flag, server setting, link).
"""

from __future__ import annotations

import copy
import html as htmllib
import json
import re
from pathlib import Path

import pytest

from tokens_edu import Action, Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.players.search import SearchBot
from tokens_edu.widgets import GameView
from tokens_edu.widgets.game_view import NewGamePanel
from tokens_edu.widgets.thinking_pane import GUESSES, guess_label, hints_allowed

SCENARIOS = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"


@pytest.fixture(autouse=True)
def no_page(monkeypatch):
    """No page query and no server setting unless a test sets one."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("TOKENS_EDU_HINTS", raising=False)


def rows(html: str) -> list[str]:
    """The option texts of a pane's table, in order."""
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", m)).replace("✔ ", "").strip()
            for m in re.findall(r'<tr class="tokens-thinking-row[^"]*"><td>(.*?)</td>', html)]


# Bo (the computer) holds three Systems it can pay for and two more cards in its deck: a
# deploy it considers but does not make must never be named to Ada.
SECRET = {
    "title": "Secrets",
    "seed": 11,
    "active": 1,
    "turn": 4,
    "players": [
        {"name": "Ada", "tokens": 6, "hand": ["Sensor", "Neuron"], "deck": ["Chatbot", "Embedding", "Neuron"],
         "training_set": {"ready": 2, "exerted": 0},
         "systems": [{"card": "Neural Network", "exerted": True}]},
        {"name": "Bo", "tokens": 5, "hand": ["Chatbot", "Classifier", "Decision Tree", "Sensor"],
         "deck": ["Red Teaming", "Fairness Check", "Accountability", "Predictor"],
         "training_set": {"ready": 3, "exerted": 0},
         "systems": [{"card": "Explainability"}]},
    ],
}
BO_HIDDEN = ("Chatbot", "Classifier", "Decision Tree", "Sensor", "Red Teaming", "Fairness Check",
             "Accountability", "Predictor")


def secret_game(**changes) -> Game:
    sc = copy.deepcopy(SECRET)
    for key, value in changes.items():
        sc["players"][1][key] = value
    return Game.from_scenario(sc)


def public_text(view) -> str:
    """Everything Ada may read: the log for her, the table's board, discard piles and hand."""
    g = view.game
    out = " ".join(e.text for e in g.log_for(0))
    st = view.table.state
    return out + json.dumps(st["board"]) + json.dumps([s["discard"] for s in st["sides"]]) + json.dumps(st["hand"])


@pytest.mark.parametrize("bot", [SearchBot(iterations=60, seed=3), GreedyBot()], ids=["search", "greedy"])
def test_after_each_computer_move_the_pane_shows_its_top_options_and_no_hidden_card(bot, wire):
    game = secret_game()
    view = GameView(game, seats=("human", bot), autoplay=False, thinking=True)
    assert "thinking" in view.panes and not view.pane_open("thinking")
    view.pane_buttons["thinking"].click()
    assert view.pane_open("thinking")
    made = 0
    while view.match.bot_to_act() and made < 12:
        before = len(game.history)
        view.next_button.click()
        assert len(game.history) == before + 1  # the pane never stops the move
        made += 1
        move, table = view.thinking.tables[-1]
        html = view.thinking.html.value
        shown = rows(html)
        assert 1 <= len(shown) <= 5 and len(table) <= 5
        assert shown == list(table["option"]) and table["chosen"].iloc[0]
        assert f"The computer's move: {move}" in htmllib.unescape(html)
        public = public_text(view)
        for card in BO_HIDDEN:
            if card not in public:
                assert card not in html, f"{card} from the computer's hand or deck is in the pane"
    assert made >= 2
    sent = "\n".join(wire)
    public = public_text(view)
    hidden = [c for c in BO_HIDDEN if c not in public]
    assert hidden, "the test needs cards the computer never showed"
    for card in hidden:
        assert card not in sent, f"{card} was sent to the page"
    assert "chance to win" in sent if isinstance(bot, SearchBot) else "points" in sent


def test_the_deploy_it_made_is_named_and_the_ones_it_did_not_are_merged_and_hidden():
    game = secret_game(trained_this_turn=True)
    view = GameView(game, seats=("human", GreedyBot()), autoplay=False, thinking="open")
    view.next_button.click()
    move, table = view.thinking.tables[-1]
    assert move.startswith("deploy ")  # GreedyBot deploys a System (its step 2)
    card = move.removeprefix("deploy ")
    assert table["option"].iloc[0] == move and card in table["reason"].iloc[0]
    options = list(table["option"])
    assert options.count("deploy a card from its hand") <= 1  # one row for every hidden deploy
    for other in ("Chatbot", "Classifier", "Decision Tree", "Sensor"):
        if other != card:
            assert other not in view.thinking.html.value


def test_the_pane_names_the_move_the_computer_made():
    """Lesson 3's scenario: GreedyBot Audits the sideways Classifier (R14)."""
    view = GameView(Game.from_scenario(SCENARIOS / "03-task-exposes.yaml"), seats=("human", "greedy"),
                    autoplay=False, thinking="open")
    assert view.pane_open("thinking")
    view.buttons[Action.parse("task Classifier")].click()
    view.buttons[Action.parse("end turn")].click()
    seen = []
    while view.match.bot_to_act():
        view.next_button.click()
        seen.append(view.thinking.tables[-1])
    audit = [t for m, t in seen if m == "audit Supervised Learning -> Classifier"]
    assert audit and audit[0]["option"].iloc[0] == "audit Supervised Learning -> Classifier"
    assert "Deprecated" in audit[0]["reason"].iloc[0]
    assert len(view.thinking.seconds) == len(seen)


def test_guessing_the_computers_move_keeps_count():
    view = GameView(Game.from_scenario(SCENARIOS / "03-task-exposes.yaml"), seats=("human", "greedy"),
                    autoplay=False, thinking="open", predict=True)
    pane = view.thinking
    view.buttons[Action.parse("task Classifier")].click()
    view.buttons[Action.parse("end turn")].click()
    upcoming = [str(view.match.bots[1].choose(view.game))]  # GreedyBot: the same pick every time
    assert guess_label(upcoming[0]) != "Audit"
    pane.guess.value = "Audit"  # a wrong guess
    view.next_button.click()
    assert (pane.right, pane.guessed) == (0, 1) and "Not this time" in pane.guess_result.value
    assert pane.guess.value is None  # ready for the next guess
    for _ in range(10):
        if str(view.match.bots[1].choose(view.game)).startswith("audit"):
            break
        view.next_button.click()  # no guess: it says so, the count stays
        assert pane.guessed == 1 and "did not guess" in pane.guess_result.value
    pane.guess.value = "Audit"
    view.next_button.click()
    assert (pane.right, pane.guessed) == (1, 2)
    assert "You guessed right" in pane.guess_result.value and "Right so far: 1 of 2" in pane.guess_result.value
    assert {label for label, _ in GUESSES} >= {"Run a Task", "Audit", "Deploy a card", "End its turn"}


def test_a_bot_that_cannot_explain_still_moves():
    class FirstBot:
        def choose(self, game):
            return game.legal_actions()[0]

    view = GameView(secret_game(), seats=("human", FirstBot()), autoplay=False, thinking="open")
    n = len(view.game.history)
    view.next_button.click()
    assert len(view.game.history) == n + 1
    assert "can&#x27;t explain" in view.thinking.html.value or "can't explain" in view.thinking.html.value


# -- the Hint -----------------------------------------------------------------------------------
def hint_view(game=None, **kw) -> GameView:
    game = game or Game.from_scenario(SCENARIOS / "03-audit.yaml")
    return GameView(game, seats=("human", "greedy"), autoplay=False, hints=True,
                    hint_bot=SearchBot(iterations=60, seed=5), **kw)


def test_hint_shows_the_search_bots_view_of_the_students_move():
    view = hint_view()
    assert "hint" in view.panes and view.hint.button is not None
    view.pane_buttons["hint"].click()
    view.hint.button.click()
    table = view.hint.table
    assert 1 <= len(table) <= 5 and table.attrs["player"] == 0 and table.attrs["bot"] == "Search"
    pick = table["option"].iloc[0]
    assert Action.parse(pick) in view.buttons  # a move the student can make now
    assert f"A search bot would pick: {pick}" in view.hint.out.value
    assert rows(view.hint.out.value) == list(table["option"])
    view.buttons[Action.parse("end turn")].click()  # the hint is for an earlier move now
    assert "earlier move" in view.hint.out.value
    view.hint.button.click()  # the computer's move: no hint
    assert "your own move" in view.hint.out.value or view.hint.table is not None


def test_the_hint_is_the_same_however_the_computers_hidden_cards_lie():
    """The hint bot imagines the computer's hand and deck; it never reads them."""
    sc = copy.deepcopy(SECRET)
    sc["active"] = 0
    tables = []
    for hand, deck in ((["Chatbot", "Classifier", "Decision Tree", "Sensor"],
                        ["Red Teaming", "Fairness Check", "Accountability", "Predictor"]),
                       (["Red Teaming", "Predictor", "Classifier", "Fairness Check"],
                        ["Sensor", "Accountability", "Decision Tree", "Chatbot"])):  # the same cards, dealt again
        sc["players"][1]["hand"], sc["players"][1]["deck"] = hand, deck
        view = hint_view(Game.from_scenario(sc))
        view.hint.button.click()
        tables.append(view.hint.table)
    assert tables[0].drop(columns=["reason"]).equals(tables[1].drop(columns=["reason"]))
    assert list(tables[0]["reason"]) == list(tables[1]["reason"])


def test_hints_off_hides_the_button():
    view = GameView(Game.from_scenario(SCENARIOS / "03-audit.yaml"), seats=("human", "greedy"), hints=False)
    assert view.hint is None and "hint" not in view.panes and "hint" not in view.pane_buttons
    assert not any("tokens-hint" in w._dom_classes for w in view.pane_buttons.values())


@pytest.mark.parametrize("setting", ["env", "query"])
def test_the_teacher_turns_hints_off_for_the_class(setting, monkeypatch):
    if setting == "env":  # TOKENS_EDU_HINTS=off make serve
        monkeypatch.setenv("TOKENS_EDU_HINTS", "off")
    else:  # the link the teacher hands out
        monkeypatch.setenv("QUERY_STRING", "student=Ana&hints=off")
    view = hint_view()
    assert view.hint is None and "hint" not in view.panes
    assert not hints_allowed(True)


def test_a_link_cannot_turn_hints_on(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "hints=on")
    assert hints_allowed(True) and not hints_allowed(False)
    monkeypatch.setenv("TOKENS_EDU_HINTS", "off")
    assert not hints_allowed(True)
    assert not hints_allowed(True, query="hints=on")  # the server's setting wins
    monkeypatch.delenv("TOKENS_EDU_HINTS")
    assert not hints_allowed(True, query="hints=OFF")
    assert hints_allowed(True, query="?student=Bo&hints=yes")


def test_a_hint_asked_after_the_query_arrives_says_hints_are_off(monkeypatch):
    """A warm kernel builds the view before its page's query is known."""
    view = hint_view()
    monkeypatch.setenv("QUERY_STRING", "hints=off")
    view.hint.button.click()
    assert "turned hints off" in view.hint.out.value and view.hint.table is None
    assert view.hint.button.layout.display == "none"


def test_a_warm_kernel_hides_the_hint_once_its_pages_link_says_hints_off(monkeypatch):
    """A preheated kernel builds the view before any page asks for it; when the page's query
    arrives with hints=off, the next drawing of the table hides the Hint pane and its button."""
    from tokens_edu.session import address as journal  # where the page's query is read

    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setattr(journal, "_query_cache", None)
    view = hint_view()
    assert view.hint is not None and view.pane_buttons["hint"].layout.display != "none"
    monkeypatch.setattr(journal, "_query_cache", "student=Ana&hints=off")  # the page came
    view.buttons[Action.parse("train Sensor")].click()
    assert view.pane_buttons["hint"].layout.display == "none" and not view.pane_open("hint")
    assert view.hint.button.layout.display == "none"


def test_new_game_panel_passes_the_thinking_options():
    panel = NewGamePanel(seats=("human", SearchBot(iterations=30, seed=1)), seed=4, autoplay=False,
                         thinking="open", predict=True, hints=True)
    panel.deck_pickers[0].value = 3
    panel.start_button.click()
    view = panel.view
    assert view.thinking is not None and view.thinking.guess is not None and view.hint is not None
    for _ in range(20):
        if not view.match.bot_to_act():
            break
        view.next_button.click()
    assert view.thinking.tables or view.buttons
    assert starter_decks()


def test_hidden_rows_are_merged_and_told_apart_from_a_hidden_pick():
    import pandas as pd

    from tokens_edu.widgets.thinking_pane import _another, merge_hidden

    hidden = {"train a card (face-down)", "deploy a card from its hand"}
    df = pd.DataFrame([
        {"option": "train a card (face-down)", "chosen": True, "score": 0.6, "reason": "r", "share": 0.4,
         "games": 40, "win_chance": 0.6},
        {"option": "train a card (face-down)", "chosen": False, "score": 0.5, "reason": "r", "share": 0.3,
         "games": 30, "win_chance": 0.5},
        {"option": "deploy a card from its hand", "chosen": False, "score": 0.2, "reason": "r", "share": 0.1,
         "games": 10, "win_chance": 0.2},
        {"option": "train a card (face-down)", "chosen": False, "score": 0.3, "reason": "r", "share": 0.1,
         "games": 10, "win_chance": 0.3},
        {"option": "deploy a card from its hand", "chosen": False, "score": 0.4, "reason": "r", "share": 0.1,
         "games": 10, "win_chance": 0.4},
    ])
    df.attrs["measure"] = "win_chance"
    out = _another(merge_hidden(df, hidden), hidden)
    assert list(out["option"]) == ["train a card (face-down)", "train another card (face-down)",
                                   "deploy a card from its hand"]
    # the best of the merged rows keeps its own games and chance (a real option's numbers, which
    # the chosen row's reason answers for); their shares of the thinking add up
    assert out["games"].tolist() == [40, 30, 10] and out["share"].round(3).tolist() == [0.4, 0.4, 0.2]
    assert out["win_chance"].round(3).tolist() == [0.6, 0.5, 0.4] and out.attrs["measure"] == "win_chance"


def test_serve_no_hints_turns_hints_off_for_the_whole_class(monkeypatch, tmp_path):
    """``tokens-edu serve --no-hints``: the lessons' kernels get TOKENS_EDU_HINTS=off."""
    import socket

    from tokens_edu import cli
    from tokens_edu.server import launcher

    class Started(Exception):
        pass

    seen = {}

    def fake_popen(cmd, env=None, **kw):
        seen.update(env or {})
        raise Started

    monkeypatch.setenv("TOKENS_EDU_DB_URL", f"sqlite:///{tmp_path}/j.sqlite")  # no folder to watch
    monkeypatch.setattr(launcher.subprocess, "Popen", fake_popen)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for flags, want in ((["--no-hints"], "off"), ([], None)):
        seen.clear()
        with pytest.raises(Started):
            cli.main(["serve", "--port", str(port), "--pool-size", "0", *flags])
        assert seen.get("TOKENS_EDU_HINTS") == want


def test_a_whole_game_with_the_pane_and_hints_never_sends_a_hidden_card(wire):
    """Lesson 7's set-up for a whole game (a small search budget to keep it quick): every
    card of the computer's deck that reached the page had been shown on the table first."""
    decks = starter_decks()
    names = [{c.name for c in d} for d in decks]
    mine, theirs = next((a, b) for a in range(len(decks)) for b in range(len(decks))
                        if a != b and not names[a] & names[b])
    game = Game.new(decks[mine], decks[theirs], seed=21, names=("Ada", "Computer"))
    view = GameView(game, seats=("human", SearchBot(iterations=30, seed=4)), autoplay=False,
                    thinking="open", predict=True, hints=True, hint_bot=SearchBot(iterations=20, seed=9))
    computer = names[theirs]
    # words of the page itself before any move (the "Why can't I?" box's example names a card)
    public: set[str] = {n for n in computer if any(n in m for m in wire)}
    seen = len(wire)
    for _ in range(600):
        if game.over:
            break
        if view.match.bot_to_act():
            view.next_button.click()
        else:
            view.hint.button.click()
            view.buttons[Action.parse(view.hint.table["option"].iloc[0])].click()
        st = view.table.state
        public |= {n for n in computer if n in json.dumps(st["board"]) or n in json.dumps(st["sides"])
                   or any(n in line for line in st.get("log", []))}
        sent = "\n".join(wire[seen:])
        seen = len(wire)
        for name in computer - public:
            assert name not in sent, f"{name} from the computer's hand or deck reached the page"
    assert game.over and len(view.thinking.tables) > 10 and len(view.hint.seconds) > 10
    assert computer - public, "some of the computer's cards stayed hidden all game"


def test_next_computer_move_sits_beside_the_guesses():
    """Lesson 7: the guesses and a "Next computer move" button in one row (issue 21 part 4: the
    table's own button was a screen away from the guesses); it steps like the table's button."""
    view = GameView(Game.from_scenario(SCENARIOS / "03-task-exposes.yaml"), seats=("human", "greedy"),
                    autoplay=False, thinking="open", predict=True)
    pane = view.thinking
    row = next(w for w in pane.box.children if pane.guess in getattr(w, "children", ()))
    assert pane.next in row.children and "tokens-guess-next" in pane.next._dom_classes
    n = len(view.game.history)
    pane.next.click()  # the student's turn: no move, and the table says why
    assert len(view.game.history) == n and view.game.active == 0
    assert view.note == "It's your move, not the computer's."
    view.buttons[Action.parse("end turn")].click()
    n = len(view.game.history)
    pane.guess.value = "Run a Task"
    pane.next.click()
    assert len(view.game.history) == n + 1 and pane.guessed == 1
