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
from tokens_edu.widgets import teach_lab
from tokens_edu.widgets.teach_lab import FIRST_CHOICES, RATE_CHOICES, rate_word

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


def guess(lab, rate=0, number="more Tokens"):
    lab.rate_guess.value = lab.rate_guess.options[rate]
    lab.bar_guess.value = number


def test_rate_words_follow_the_ten_point_rule():
    assert rate_word(None, 0.2) == FIRST_CHOICES[0] and rate_word(None, 0.5) == FIRST_CHOICES[1]
    assert rate_word(None, 0.8) == FIRST_CHOICES[2]
    assert rate_word(0.5, 0.6) == RATE_CHOICES[0] and rate_word(0.5, 0.55) == RATE_CHOICES[1]
    assert rate_word(0.5, 0.4) == RATE_CHOICES[2]


def test_a_batch_needs_both_guesses_then_learns_and_says_what_changed(journal):
    lab = TrainingLab(journal, seed=9)
    assert list(lab.rate_guess.options) == FIRST_CHOICES and "knows nothing yet" in lab.question.value
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
    assert first["biggest"] == max(FEATURES, key=lambda f: abs(first["changes"][f]))
    assert list(lab.rate_guess.options) == RATE_CHOICES and lab.rate_guess.value is None  # guess again
    assert lab.bar_guess.value is None
    assert f"won <strong>{int(first['won'])} of 20</strong>" in lab.result.value
    for f in FEATURES:  # every weight as a bar, with its meaning, and the value the bot holds
        value = float(lab.bot.weights.loc[f, "weight"])
        assert f'data-feature="{f}"' in lab.bars.value and f"{value:+.2f}" in lab.bars.value
    assert "Win rate in each batch of games" in lab.curve.value and "after 20 games" in lab.curve.value
    guess(lab, rate=0, number="more Systems")
    second = lab.train_batch()
    assert lab.points[-1] == (40, second["win_rate"]) and second["truth"] == rate_word(first["win_rate"],
                                                                                        second["win_rate"])
    saved = journal.responses(all_students=True)
    assert saved["question"].tolist() == [teach_lab.RATE_KEY, teach_lab.NUMBER_KEY] * 2
    assert saved["answer"].tolist() == [FIRST_CHOICES[1], "more Tokens", RATE_CHOICES[0], "more Systems"]
    assert saved["correct"].tolist() == [first["truth"] == FIRST_CHOICES[1], first["biggest"] == "more Tokens",
                                         second["truth"] == RATE_CHOICES[0], second["biggest"] == "more Systems"]
    lab.reset_button.click()
    assert lab.games == 0 and (lab.bot.weights["weight"] == 0).all() and "knows nothing" in lab.message.value


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
    lab = TrainingLab(journal, seed=9)
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
    assert "It learned to beat one player" in bench.result.value
    assert "new to it: it never played this one" in bench.result.value and "120 games" in bench.result.value
    saved = journal.responses(all_students=True)
    row = saved[saved["question"] == teach_lab.TEST_KEY].iloc[-1]
    assert row["kind"] == "result" and "After 120 training games" in row["answer"]


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
    lab = CopyLab(journal, seed=10)
    lab.teach_button.click()
    assert "Play a bit more first" in lab.message.value and lab.copy is None
    lab.watch_button.click()
    assert "Click Teach my copy first" in lab.message.value
    student_plays(lab.view)
    assert not lab.view.game.over
    table = lab.teach()
    n = len(lab.examples)
    assert n >= teach_lab.MIN_EXAMPLES and table["agree"].iloc[-1] > table.attrs["before"]
    assert f"{n}</strong> of your moves" in lab.result.value
    assert all(f"<li>{html.escape(ex.text)}</li>" in lab.moves.value for ex in lab.examples[-20:])
    habits = lab.watch()
    assert len(lab.copy_games) == teach_lab.COPY_GAMES
    you, copy = habits.set_index("habit")["you"], habits.set_index("habit")["copy"]
    share = lambda text: int(re.search(r"\((\d+)%\)", text).group(1))  # noqa: E731
    # you always trained first and never Ran a Task; so does your copy (mostly)
    assert share(you["Turns that start with Train"]) == 100 and share(copy["Turns that start with Train"]) >= 75
    assert share(you["Turns with a Task"]) == 0 and share(copy["Turns with a Task"]) <= 25
    assert "Your habits and your copy" in lab.habits_html.value
    saved = journal.responses(all_students=True)
    assert teach_lab.COPY_KEY in saved["question"].tolist()


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
