"""Lesson 10's labs driven from Python as a student would: guess, train a batch, teach a copy,
watch it, test the trained player; and what reaches the page (no hidden card, ever)."""

from __future__ import annotations

import html
import re

import pytest

from tokens_edu import Action, load_cards
from tokens_edu.lab.habits import decisions
from tokens_edu.players.learning import FEATURES
from tokens_edu.session import address as identity
from tokens_edu.session.journal import Journal
from tokens_edu.widgets import CopyLab, TestBench, TrainingLab
from tokens_edu.widgets import copy_lab, teach_lab
from tokens_edu.widgets.background import OneAtATime
from tokens_edu.widgets.teach_lab import FIRST_CHOICES, RATE_CHOICES, guess_right, rate_word

CARD_NAMES = sorted((c.name for c in load_cards().cards()), key=len, reverse=True)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path):
    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL", "QUERY_STRING", "VOILA_PREHEAT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(identity, "_query_cache", None)


@pytest.fixture
def journal(tmp_path):
    return Journal(f"sqlite:///{tmp_path / 'j.sqlite'}", student="Ana", lesson="10-teach-the-computer")


def guess(lab, rate=0):
    lab.rate_guess.value = lab.rate_guess.options[rate]


def test_rate_words_follow_the_ten_point_rule():
    assert rate_word(None, 0.2) == FIRST_CHOICES[0] and rate_word(None, 0.5) == FIRST_CHOICES[1]
    assert rate_word(None, 0.8) == FIRST_CHOICES[2]
    assert rate_word(0.5, 0.6) == RATE_CHOICES[0] and rate_word(0.5, 0.55) == RATE_CHOICES[1]
    assert rate_word(0.5, 0.4) == RATE_CHOICES[2]


def test_a_guess_is_marked_by_the_direction_the_win_rate_took():
    """Issue 28.2: "It will go up" is right when it went up at all (5 points too), not only at 10."""
    up, same, down = RATE_CHOICES
    assert guess_right(up, 0.50, 0.55) and guess_right(same, 0.50, 0.55) and not guess_right(down, 0.50, 0.55)
    assert guess_right(down, 0.50, 0.45) and guess_right(same, 0.50, 0.45) and not guess_right(up, 0.50, 0.45)
    assert guess_right(up, 0.30, 0.60) and not guess_right(same, 0.30, 0.60)
    assert not guess_right(up, 0.5, 0.5) and not guess_right(down, 0.5, 0.5) and guess_right(same, 0.5, 0.5)
    assert guess_right(FIRST_CHOICES[1], None, 0.5) and not guess_right(FIRST_CHOICES[0], None, 0.5)


def test_a_batch_needs_a_guess_then_learns_and_says_what_changed(journal):
    lab = TrainingLab(journal, seed=9, runner=OneAtATime(background=False))
    assert list(lab.rate_guess.options) == FIRST_CHOICES and "All its numbers are 0" in lab.question.value
    assert not hasattr(lab, "bar_guess")  # "which number will change the most?" is not asked (28.2)
    assert (lab.bot.weights["weight"] == 0).all() and lab.bot.lookahead == 0
    lab.go_button.click()
    assert "Make your guess first" in lab.message.value and lab.games == 0
    guess(lab, rate=1)
    lab.go_button.click()
    first = lab.batches[-1]
    assert lab.games == 20 and lab.points == [(20, first["win_rate"])]
    assert first["won"] == pytest.approx(first["win_rate"] * 20)
    assert first["truth"] == rate_word(None, first["win_rate"])
    assert max(abs(c) for c in first["changes"].values()) > 0  # it learned something
    assert list(lab.rate_guess.options) == RATE_CHOICES and lab.rate_guess.value is None  # guess again
    assert f"won <strong>{int(first['won'])} of 20</strong>" in lab.result.value
    for f in FEATURES:  # every weight as a bar, with its meaning, and the value the bot holds
        value = float(lab.bot.weights.loc[f, "weight"])
        assert f'data-feature="{f}"' in lab.bars.value and f"{value:+.2f}" in lab.bars.value
    assert "Win rate in each batch of games" in lab.curve.value and "after 20 games" in lab.curve.value
    guess(lab, rate=0)
    second = lab.train_batch()
    assert lab.points[-1] == (40, second["win_rate"]) and second["truth"] == rate_word(first["win_rate"],
                                                                                        second["win_rate"])
    assert second["right"] == (second["win_rate"] > first["win_rate"])
    saved = journal.responses(all_students=True)
    assert saved["question"].tolist() == [teach_lab.RATE_KEY] * 2
    assert saved["answer"].tolist() == [FIRST_CHOICES[1], RATE_CHOICES[0]]
    assert saved["correct"].tolist() == [first["truth"] == FIRST_CHOICES[1], second["win_rate"] > first["win_rate"]]
    lab.reset_button.click()
    assert lab.games == 0 and (lab.bot.weights["weight"] == 0).all() and "all its numbers are 0" in lab.message.value


def test_extra_clicks_while_a_batch_plays_are_ignored():
    """Issue 29.7: a page (or a script) that sends the button many times gets one batch at a
    time: the batch runs in the background and clicks that arrive meanwhile do nothing (today's
    main ran every queued click's batch in turn)."""
    lab = TrainingLab(seed=9)
    bench = TestBench(lab)
    for _ in range(5):
        guess(lab, rate=1)  # a script sends the guess with every click
        lab.go_button.click()
    bench.go_button.click()  # the test too waits for its turn: ignored while the batch plays
    assert lab.runner.wait(timeout=300)
    assert len(lab.batches) == 1 and lab.games == 20 and bench.results == {}
    assert lab.runner.ignored >= 5
    guess(lab, rate=1)  # once it is done, the next click plays the next batch
    lab.go_button.click()
    assert lab.runner.wait(timeout=300) and len(lab.batches) == 2


def test_each_student_gets_their_own_seed_and_the_teacher_can_fix_one(tmp_path, monkeypatch):
    """Issue 28.2: the seed comes from the lab, else the link's ?seed=, else the student's name."""
    from tokens_edu.session import PageSession

    url = f"sqlite:///{tmp_path / 's.sqlite'}"
    labs = {name: TrainingLab(PageSession("10-teach-the-computer", url, student=name),
                              runner=OneAtATime(background=False)) for name in ("Ana", "Bo", "Cy")}
    for lab in labs.values():
        guess(lab, rate=1)
        lab.train_batch()
    seeds = {name: lab.seed for name, lab in labs.items()}
    assert len(set(seeds.values())) == 3
    assert len({tuple(lab.bot.weights["weight"].round(6)) for lab in labs.values()}) == 3  # other curves
    assert f"the number {seeds['Ana']} (its seed)" in labs["Ana"].seed_note.value
    again = TrainingLab(PageSession("10-teach-the-computer", url, student="Ana"), runner=OneAtATime(background=False))
    assert again.choose_seed() == seeds["Ana"]  # the same name: the same games
    monkeypatch.setattr(identity, "_query_cache", None)
    monkeypatch.setenv("QUERY_STRING", "student=Bo&seed=9")
    demo = TrainingLab(PageSession("10-teach-the-computer", url, student="Bo"), runner=OneAtATime(background=False))
    assert demo.choose_seed() == 9
    assert TrainingLab(seed=12).choose_seed() == 12
    with pytest.raises(ValueError, match="seed"):
        TrainingLab(seed=-1)


def test_the_same_seed_trains_the_same_player():
    a, b = TrainingLab(seed=3), TrainingLab(seed=3)
    for lab in (a, b):
        for _ in range(2):
            guess(lab)
            lab.train_batch()
    assert a.bot.weights["weight"].tolist() == b.bot.weights["weight"].tolist()
    assert [x["won"] for x in a.batches] == [x["won"] for x in b.batches]


def test_the_trained_player_does_worse_against_the_player_it_never_met(journal):
    """The lesson's promise, with the lesson's seed and 6 batches against the random player."""
    lab = TrainingLab(journal, seed=9, runner=OneAtATime(background=False))
    bench = TestBench(lab, journal)
    bench.go_button.click()
    assert "Train the player first" in bench.message.value and bench.results == {}
    for _ in range(6):
        guess(lab)
        lab.train_batch()
    assert lab.trained == {"random": 120}
    results = bench.test()
    assert set(results) == {"random", "greedy"}
    assert results["random"] - results["greedy"] >= teach_lab.CHANGE_POINTS / 100
    assert "Tested only against an easy player, it looks better than it is." in bench.result.value
    assert "new to it: it never played this one" in bench.result.value and "120 games" in bench.result.value
    # beside it, a new player in the same games: it wins none against the rule player
    assert bench.untrained["greedy"] == 0 and "A new player vs rule player" in bench.result.value
    assert results["random"] > bench.untrained["random"]
    saved = journal.responses(all_students=True)
    row = saved[saved["question"] == teach_lab.TEST_KEY].iloc[-1]
    assert row["kind"] == "result" and "After 120 training games" in row["answer"] and "a new player 0%" in row["answer"]


def test_trained_only_against_the_rule_player_it_beats_the_random_player(journal):
    """Issue 28.2, the reverse experiment the page asks for: 6 batches against the rule player
    only, then the test: it wins most games against the random player it never met (seed 1000
    of benchmarks/lesson10_claims.py --part lesson-test: 9 of its 10 seeds do; seed 9 does not)."""
    lab = TrainingLab(journal, seed=1000)
    lab.opponent_picker.value = "greedy"
    for _ in range(6):
        guess(lab)
        lab.train_batch()
    assert lab.trained == {"greedy": 120}
    results = TestBench(lab, journal).test()
    assert results["random"] >= 0.75, results
    bench = TestBench(lab, journal)
    bench.test()
    assert "It never met the random player, and it still won" in bench.result.value


def test_a_test_far_below_its_training_says_why(journal):
    """Its top moves can lose where its training's chance moves won (seen with seed 12 after 8
    batches: 75% in training, 0 of 20 in the test). Made certain here: after a batch against the
    random player, weights that dislike scoring; the test against the random player drops."""
    lab = TrainingLab(journal, seed=9)
    bench = TestBench(lab, journal)
    guess(lab)
    lab.train_batch()
    lab.batches[-1]["win_rate"] = 0.9  # as if its last training batch had gone well
    lab.bot.weights = {f: (-5.0 if f == "more Tokens" else 0.0) for f in teach_lab.FEATURES}
    results = bench.test()
    assert results["random"] <= 0.6
    assert "won 90% of its last training games but only" in bench.result.value
    assert f"only {teach_lab.percent(results['random'])} in the test" in bench.result.value
    assert "Train one more batch, then test again." in bench.result.value
    # the rule player was never trained with: no note about it
    assert bench.result.value.count("of its last training games") == 1


def student_plays(view, turns: int = 5, habit=("go first", "keep", "train", "deploy", "end turn")):
    """A student with habits: train first every turn, deploy, never Task or Audit."""
    for _ in range(200):
        if view.game.over or view.game.turn > 2 * turns:
            return
        if view.match.bot_to_act():
            view.next_button.click()
            continue
        names = list(view.buttons)
        pick = next((n for pref in habit for n in names if str(n).startswith(pref)), names[0])
        view.buttons[pick].click()


def test_the_copy_learns_the_students_habits_mistakes_included(journal):
    lab = CopyLab(journal, seed=10, runner=OneAtATime(background=False))
    lab.teach_button.click()
    assert "Play a bit more first" in lab.message.value and lab.copy is None
    lab.watch_button.click()
    assert "Click Teach my copy first" in lab.message.value
    student_plays(lab.view)
    assert not lab.view.game.over
    table = lab.teach()
    n = len(lab.examples)
    assert n >= copy_lab.MIN_EXAMPLES and table["agree"].iloc[-1] > table.attrs["before"]
    assert f"{n}</strong> of your moves" in lab.result.value
    # every number was 0 before it learned: each row shows how far it moved, not "no change"
    moved = [f for f in FEATURES if abs(float(lab.copy.weights.loc[f, "weight"])) >= 0.005]
    assert moved and lab.result.value.count("no change") == len(FEATURES) - len(moved)
    assert all(f"<li>{html.escape(ex.text)}</li>" in lab.moves.value for ex in lab.examples[-20:])
    habits = lab.watch()
    assert len(lab.copy_games) == copy_lab.COPY_GAMES
    you, copy = habits.set_index("habit")["you"], habits.set_index("habit")["copy"]
    share = lambda text: int(re.search(r"\((\d+)%\)", text).group(1))  # noqa: E731
    # you always trained first and never Ran a Task; so does your copy (mostly)
    assert share(you["Turns that start with Train"]) == 100 and share(copy["Turns that start with Train"]) >= 75
    assert share(you["Turns with a Task"]) == 0 and share(copy["Turns with a Task"]) <= 25
    assert "Your habits and your copy" in lab.habits_html.value
    assert lab.acted and copy_lab.NEVER_ACTED not in lab.habits_html.value
    saved = journal.responses(all_students=True)
    assert copy_lab.COPY_KEY in saved["question"].tolist()


# -- nothing hidden reaches the page ---------------------------------------------------------------
def names_in(text: str) -> set[str]:
    found = set()
    for name in CARD_NAMES:
        if name in text:
            found.add(name)
            text = text.replace(name, " ")
    return found


def test_training_and_testing_send_no_card_at_all(wire):
    lab = TrainingLab(seed=9)
    for _ in range(2):
        guess(lab)
        lab.train_batch()
    TestBench(lab).test()
    sent = "\n".join(wire)
    assert sent and "more Tokens" in sent and names_in(sent) == set()


def test_the_copy_page_shows_no_hidden_card(wire):
    """The student's game, the copy's lesson and its games: the computer's trained cards and
    the cards it never showed never reach the page; the copy's own Train moves read "train a
    card (face-down)" (its cards come from the student's deck, but which one it trained is hidden)."""
    lab = CopyLab(seed=10)
    view = lab.view
    student_plays(view)
    game = view.game
    public = set()  # what the student has read: the game's log as they see it
    for event in game.log_for(0):
        public |= names_in(event.text)
    mine = {c.name for c in lab.decks[0]}
    # the computer's face-down Training Set cards: never public in the student's game
    secret = {t[len("train "):] for p, t in game.moves if p == 1 and t.startswith("train ")}
    secret -= public | mine  # a name in both decks may show as the student's own card
    assert secret
    lab.teach()
    lab.watch()
    sent = "\n".join(wire)
    assert "Your copy" in sent and "train a card (face-down)" in sent
    assert not names_in(sent) & secret, names_in(sent) & secret
    assert not re.search(r"train (?!a card)[A-Z]", sent.split("first turns")[-1])


def test_a_copy_that_never_acts_is_explained(journal):
    """Issue 28.2: some students teach a copy that ends every turn (6 of 24 scripted styles did);
    the page then says why (it sees only 8 numbers about the board) and what to do. Here the
    copy is replaced by a player that always ends its turn, as such a copy plays."""
    from tokens_edu.players.bots import Bot

    class EndsEveryTurn(Bot):
        name = "Ends every turn"

        def choose_move(self, game):
            moves = game.legal_actions()
            end = [a for a in moves if a.kind == "end"]
            return (end or moves)[0].move

    lab = CopyLab(journal, seed=10, runner=OneAtATime(background=False))
    student_plays(lab.view)
    lab.teach()
    lab.watch()
    assert lab.acted > 0 and "did nothing" not in lab.habits_html.value
    lab.copy = EndsEveryTurn()
    lab.watch()
    assert lab.acted == 0
    assert html.escape(copy_lab.NEVER_ACTED) in lab.habits_html.value


def test_the_copy_game_speaks_to_you():
    """Issue 28.2: the student's side is "You": the log says "You roll", never "You rolls"."""
    lab = CopyLab(seed=10)
    student_plays(lab.view, turns=3)
    lines = [e.text for e in lab.view.game.log_for(0)]
    text = "\n".join(lines)
    assert "You roll" in text or "Computer rolls" in text
    assert not re.search(r"\bYou (rolls|ends|trains|deploys|keeps|chooses|has|is)\b|You's", text), text
    assert any(line.startswith("You ") or line.startswith("Turn") for line in lines)


def test_copylab_moved_and_its_old_home_warns():
    with pytest.warns(DeprecationWarning, match="0.4.0"):
        old = teach_lab.CopyLab
    assert old is CopyLab and CopyLab.__module__ == "tokens_edu.widgets.copy_lab"
