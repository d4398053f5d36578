"""One move value (issue 26 part 2): the 240 frozen games' moves, found and shown the same way
whichever form a move is given in, and read by each player as the observer decides.

The games are tests/fixtures/frozen-games.json.gz (tests/engine/test_frozen_games.py); what each
player read of the move list before the one-observer change is tests/fixtures/masked-moves.json.gz
(tests/fixtures/make_masked_moves.py).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from frozen import digest, hidden_zones

from tokens_edu import Action, Game
from tokens_edu.game.observe import FACE_DOWN, SECRET_CHOICE, Observer
from tokens_edu.present import Seating, present

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
with gzip.open(FIXTURES / "frozen-games.json.gz", "rt", encoding="utf-8") as _f:
    GAMES = json.load(_f)["games"]
with gzip.open(FIXTURES / "masked-moves.json.gz", "rt", encoding="utf-8") as _f:
    MASKED = json.load(_f)["masked"]
#: The games split into a few groups (a test each), so a failure names a group and -x stops early.
GROUPS = 6


def start_of(record: dict) -> Game:
    return Game.from_record({**record, "actions": []})


@pytest.mark.parametrize("group", range(GROUPS))
def test_every_legal_action_is_found_by_its_text_its_fields_and_itself(group):
    """At every position of the frozen games, each legal action is the one the game finds for
    its text (any case), for an Action built from its fields, and for itself; no two legal
    actions read alike (so a text never means two moves)."""
    for entry in GAMES[group::GROUPS]:
        game = start_of(entry["record"])
        for text in entry["record"]["actions"]:
            actions = game.legal_actions()
            assert len({str(a).casefold() for a in actions}) == len(actions)
            for a in actions:
                legal = f"'{a}' is legal now."
                assert game.explain(str(a)) == legal
                assert game.explain(str(a).upper()) == legal
                assert game.explain(Action(a.kind, a.card, a.target, a.via, a.choice)) == legal
                assert game.explain(a) == legal
                assert Action.parse(str(a)) == a
            game.apply(text)


@pytest.mark.parametrize("group", range(GROUPS))
def test_the_frozen_games_replay_through_the_one_move_value(group):
    """Issue 26.2's done-when: the 240 frozen games replayed with Action values only (the
    record's text read once, at the edge, as Action.parse) reach the recorded position after
    every move; each Action carries its engine move and player; the game keeps the values it
    was given (move_stack), text comes back only for the record; undo gives the values back;
    the engine's fast path (push of each value's move) reaches the same position."""
    for entry in GAMES[group::GROUPS]:
        record, hashes = entry["record"], entry["hashes"]
        game = start_of(record)
        assert digest(game) == hashes[0]
        for n, text in enumerate(record["actions"], start=1):
            wanted = Action.parse(text)
            move = next(a for a in game.legal_actions() if a == wanted)
            assert move.move in game.legal_moves() and move.player == game.to_act
            assert game.action(move.move) == move and game.legal_action(wanted) is move
            game.apply(move)
            assert game.move_stack[-1] is move
            assert digest(game) == hashes[n], f"position after move {n} ('{text}') changed"
        assert [str(a) for a in game.move_stack] == record["actions"] == game.to_record()["actions"]
        fast = start_of(record)
        for a in game.move_stack:
            fast.push(a.move)
        assert fast.state_key() == game.state_key() and fast.move_stack == game.move_stack
        assert [(a.move, a.player, a.secret) for a in fast.move_stack] == \
            [(a.move, a.player, a.secret) for a in game.move_stack]
        if len(record["actions"]) > 3:
            last = game.move_stack[-3:]
            assert [game.undo() for _ in range(3)][::-1] == list(last)
            assert digest(game) == hashes[-4]


def _choice_kinds(record: dict) -> dict[int, str]:
    """Move number -> the kind of options of the choice it answered (the decision's labels)."""
    game = start_of(record)
    kinds = {}
    for n, text in enumerate(record["actions"]):
        d = game.view(game.to_act).decision()
        if d is not None:
            kinds[n] = d[0]
        game.apply(text)
    return kinds


def test_the_move_list_reads_as_frozen_but_for_the_secrets_the_engine_names():
    """Each player reads the other's moves as before the observer (the fixture), with two
    differences made on purpose, both to agree with the log (which the engine words):

    - a choice of a card in play or of a card to discard from the hand is named (the card is on
      the board or goes to the discard pile, both public; the log named it already, the move
      list said "a secret choice");
    - whether a looked-at card goes to the bottom (Tensor, R22) is a secret choice (the log
      said "makes a secret choice", the move list named it).
    """
    old = {(g, n, r): shown for g, n, r, shown in MASKED}
    new = {}
    for index, entry in enumerate(GAMES):
        game = Game.from_record(entry["record"])
        for reader in (0, 1):
            for number, (a, (mover, shown)) in enumerate(zip(game.move_stack, Observer(reader).move_list(game))):
                assert mover == a.player
                if shown != str(a):
                    new[(index, number, reader)] = shown
    assert len(old) == 3488
    kinds = {g: _choice_kinds(GAMES[g]["record"]) for g in {k[0] for k in set(old) ^ set(new)}}
    shown_now = [k for k in old if k not in new]
    hidden_now = [k for k in new if k not in old]
    assert {kinds[g][n] for g, n, _ in shown_now} == {"hand", "in-play"}
    assert {kinds[g][n] for g, n, _ in hidden_now} == {"top-bottom"}
    assert {new[k] for k in hidden_now} == {SECRET_CHOICE}
    assert all(old[k] == new[k] for k in set(old) & set(new))
    assert shown_now and hidden_now


def test_the_move_list_and_the_log_name_the_same_secrets():
    """R8, R22: for each reader, the other player's secret choices in the move list are the
    log's secret choices, one for one; no trained card of the other player is named."""
    for entry in GAMES:
        game = Game.from_record(entry["record"])
        for reader in (0, 1):
            eyes = Observer(reader)
            lines = eyes.move_list(game)
            secret = sum(1 for p, t in lines if t == SECRET_CHOICE)
            said = sum(1 for e in eyes.log(game) if e.kind == "choose" and e.text.endswith("makes a secret choice."))
            assert secret == said
            for a, (p, t) in zip(game.move_stack, lines):
                if p != reader and a.kind == "train":
                    assert t == FACE_DOWN and a.card not in t


def _sent(page) -> dict:
    state = page.state()
    state.pop("step")  # "... 12 moves so far": an imagined game has no moves behind it
    return state


@pytest.mark.parametrize("group", range(GROUPS))
def test_what_each_viewer_is_sent_depends_only_on_what_they_may_see(group):
    """Non-interference: deal again everything a viewer may not see (the other hand, the
    other deck and face-down Training Set, their own deck's order: ``Game.imagine``) and the
    viewer's observation and page state stay the same, for each player and for nobody's eyes
    (a covered hot seat). So no field carries the opponent's hand or either deck's order."""
    rng = random.Random(group)
    checked = differed = 0
    for entry in GAMES[group::GROUPS]:
        game = start_of(entry["record"])
        for n, text in enumerate(entry["record"]["actions"]):
            if n % 9 == 4 and not game.over:
                # (viewer, seat drawn at the bottom, whose knowledge the imagined game keeps):
                # for nobody's eyes, the bottom seat's own hand is dealt again too
                for viewer, seat, knower in ((0, 0, 0), (1, 1, 1), (None, 0, 1), (None, 1, 0)):
                    other = game.imagine(knower, rng)
                    differed += hidden_zones(other) != hidden_zones(game)
                    eyes = Observer(viewer)
                    assert eyes.observation(other, seat) == eyes.observation(game, seat)
                    seating = Seating(covered=viewer is None, seat=seat)
                    assert _sent(present(other, viewer, seating)) == _sent(present(game, viewer, seating))
                    checked += 1
            game.apply(text)
    assert checked > 100 and differed > checked // 2


def test_the_old_forms_still_work_with_a_warning_naming_the_release_that_drops_them():
    """Text where a move value goes (not in API.md) still works until 0.4.0, with a warning;
    ``game.apply(text)`` and ``explain(text)`` are public and stay without one."""
    import warnings

    from tokens_edu.players.match import Match
    from tokens_edu.players.registry import move_of
    from tokens_edu.widgets import GameView

    record = GAMES[0]["record"]
    first, second = record["actions"][:2]
    game = start_of(record)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert game.explain(first) == f"'{first}' is legal now."
    match = Match(game, seats=("human", "human"))
    match.reveal()  # hot seat: the player to act shows their cards
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        played = match.play(first)
    assert played is game.move_stack[-1] and played.move >= 0 and str(played) == first
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        assert move_of(game, second) is game.legal_action(second)
    assert move_of(game, game.legal_action(second).move) == Action.parse(second)
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        from tokens_edu.players.match import prompt_for  # moved to tokens_edu.game.observe
    assert prompt_for(None, None, "Bo", True) == "The computer is choosing."
    view = GameView(start_of(record), seats=("human", "human"))
    view.reveal_button.click()
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        button = view.buttons[first]
    assert button is view.buttons[Action.parse(first.upper())] and button.action == Action.parse(first)
    with pytest.raises(KeyError):
        view.buttons[Action("task", "Nothing")]
