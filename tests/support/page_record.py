"""What a lesson page is sent, step by step, while a recorded game is played on a GameView.

The page-frozen fixtures (``tests/fixtures/page-frozen.json.gz``, made by
``tests/fixtures/make_page_frozen.py``) hold, for a few recorded games played in three seatings
(a student against the computer from either seat, and hot seat), a digest of what the page is
sent after every click: the card table's state and the panes under it. The test
``tests/widgets/test_page_frozen.py`` plays the same games again and compares, so a change of
how the view works inside cannot change what a student sees.

Each step's snapshot has two parts, digested apart so a failure says which changed:

- ``table``: the card table's state (board, hand, sides, moves, prompt, cover, banner, status,
  note, log...) without its version number ``v`` (a counter of redraws, not something shown);
- ``panes``: the open panes' contents: What happened, Moves and replay (the masked move list),
  State tables, the cards Read a card offers.

Clicks go through the same doors as the page's: ``MoveButton.click()`` for a student's move,
the page's ``step`` message (with the version it drew) for the computer's, the cover's button.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from tokens_edu import Action, Game

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "page-frozen.json.gz"
GAMES = ROOT / "tests" / "fixtures" / "frozen-games.json.gz"
#: The recorded games played (indexes into frozen-games.json.gz): Greedy games, a Random game
#: with a mulligan and choices, games from lesson scenarios with looks (R22) and Model Card (R16).
SEATINGS = ("student0", "student1", "hotseat")


class ScriptBot:
    """A computer seat that plays the record's next move."""

    def __init__(self, actions: list[str]):
        self.actions = actions

    def choose(self, game):
        return game.legal_action(self.actions[len(game.move_stack)])


def _digest(obj) -> str:
    text = json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def snapshot(view) -> dict:
    """What the page shows now: the table's state (without ``v``) and the open panes."""
    table = {k: v for k, v in view.table.state.items() if k != "v"}
    panes = {}
    if view.pane_open("log"):
        panes["log"] = view.log_html.value
    if view.pane_open("replay"):
        panes["moves"] = view.moves_html.value
    if view.pane_open("tables"):
        panes["tables"] = {k: w.value for k, w in view.table_widgets.items()}
    if view.pane_open("read"):
        panes["read"] = list(view.card_pick.options)
    return {"table": table, "panes": panes}


def play(record: dict, seating: str, tables_every: int = 1):
    """Play ``record`` on a GameView in ``seating``; yield ``(label, snapshot)`` after each click.

    Args:
        record: a game record (``Game.to_record()``).
        seating: ``"student0"`` / ``"student1"`` (a student in that seat, the computer playing
            the record's moves in the other), or ``"hotseat"`` (two students, the cover between).
        tables_every: draw the State tables pane at every n-th step only (pandas is slow).
    """
    from tokens_edu.widgets import GameView

    actions = list(record["actions"])
    game = Game.from_record({**record, "actions": []})
    if seating == "hotseat":
        seats = ("human", "human")
    else:
        me = int(seating[-1])
        seats = ["human", "human"]
        seats[1 - me] = ScriptBot(actions)
    view = GameView(game, seats=tuple(seats), autoplay=False, undo="turn")
    for key in ("log", "replay", "read"):
        view.pane_buttons[key].click()
    yield "start", snapshot(view)
    step = 0
    while len(game.history) < len(actions):
        step += 1
        want_tables = step % tables_every == 0
        if view.pane_open("tables") != want_tables:
            view.pane_buttons["tables"].click()
        if view.match.bot_to_act():
            view.table._on_page_msg(view.table, {"type": "step", "v": view.table.state["v"]})
            yield f"computer: {game.history[-1]}", snapshot(view)
            continue
        if view.match.covered():
            view.reveal_button.click()
            yield "reveal", snapshot(view)
        text = actions[len(game.history)]
        view.buttons[Action.parse(text)].click()  # the record's text, read at the edge
        assert game.history[-1] == text
        yield f"click: {text}", snapshot(view)
    # the replay pane steps through a copy: from the start, two moves forward, back to now
    view.replay_start.click()
    view.replay_fwd.click()
    view.replay_fwd.click()
    yield "replay 2", {"table": {k: v for k, v in view.replay_table.state.items() if k != "v"},
                       "panes": {"label": view.replay_label.value}}


def digests(record: dict, seating: str, tables_every: int = 1) -> list[list[str]]:
    """``[label, table digest, panes digest]`` for every step of :func:`play`."""
    return [[label, _digest(s["table"]), _digest(s["panes"])]
            for label, s in play(record, seating, tables_every)]


def recorded_games() -> list[dict]:
    with gzip.open(GAMES, "rt", encoding="utf-8") as f:
        return json.load(f)["games"]


def load_fixture() -> dict:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return json.load(f)
