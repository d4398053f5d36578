"""Lesson 10's labs: the class trains a computer player and watches it learn.

Three parts, each a widget a lesson shows in its own cell:

- :class:`TrainingLab` (learning from play): a :class:`~tokens_edu.players.learning.LearningBot`
  plays batches of games against a chosen opponent (the random player or the rule player of
  lesson 5) and learns after each game (:func:`~tokens_edu.lab.training.train_batches`). Before
  each batch the student predicts what its win rate will do; after it the page shows the
  learning curve (the win rate of each batch) and the bot's eight numbers as bars that grow and
  shrink, each with its meaning in plain words. The bot looks one move ahead (``lookahead=0``):
  after each move it could make it measures the board with its eight features and adds them
  up, each times its weight, so the bars *are* all it knows (besides taking a move that wins
  the game at once). Each student's player has its own seed (:meth:`TrainingLab.choose_seed`),
  so curves differ across the class; a link's ``?seed=N`` gives everyone the teacher's demo.
- :class:`~tokens_edu.widgets.copy_lab.CopyLab` (learning from examples) lives in
  :mod:`tokens_edu.widgets.copy_lab` (``teach_lab.CopyLab`` still works until tokens-edu 0.4.0).
- :class:`TestBench` (testing): the trained player, and a new player beside it (every weight
  0), meet each opponent, the one it trained with and the one it never met, in games where it
  does not learn (seats swapped every game).

A batch, a test and the copy's games run in the background, one at a time per page
(:mod:`tokens_edu.widgets.background`): a click that arrives while one runs is ignored, so a
page that sends many clicks gets one batch, not a queue of them (issue 29 part 7).

What the page claims is measured in ``benchmarks/lesson10_claims.py`` (figures in the teacher's
guide, Lesson 10).

Predictions, the test and the copy's result are saved in the page session's store (``kind="prediction"``
or ``"result"``) for the teacher's dashboard.

Hidden cards never reach the page: the training and the tests show only win rates and the
bot's weights; the copy's page shows the student's own moves (their own cards), the copy's
habits as counts, and the copy's moves as anyone watching would see them (a trained card stays
face-down: :func:`~tokens_edu.lab.habits.public_moves`). The student's own game is a
:class:`~tokens_edu.widgets.game_view.GameView`, which shows the other player's hand as counts.

Stable CSS classes: ``tokens-training-lab``, ``tokens-train-opponent``, ``tokens-train-guess-rate``,
``tokens-train-go``, ``tokens-train-reset``, ``tokens-train-result``, ``tokens-train-curve``,
``tokens-train-weights``, ``tokens-train-seed``; ``tokens-test-bench``, ``tokens-test-go``,
``tokens-test-result``; ``tokens-lab-message`` (the copy lab's: :mod:`tokens_edu.widgets.copy_lab`).
"""

from __future__ import annotations

import html
import logging
import random
import re
import time
import zlib

import ipywidgets as widgets

from .. import _moved
from ..lab.habits import play_matches
from ..lab.training import train_batches
from ..players.features import LEARNING_MEANINGS
from ..players.learning import FEATURES, LearningBot
from ..present.charts import percent, share_bars, weight_bars, win_rate_curve
from ..session.address import query_string
from .background import OneAtATime, page_runner
from .who import given_session, journal_alias, save_response

__all__ = ["TrainingLab", "TestBench", "OPPONENTS", "MESSAGES", "RATE_CHOICES", "FIRST_CHOICES",
           "CHANGE_POINTS", "DROP_POINTS", "BATCH_GAMES", "RATE_KEY", "TEST_KEY", "guess_right", "SEED_WORDS"]

log = logging.getLogger(__name__)

# CopyLab and its names moved to copy_lab.py (a DeprecationWarning until tokens-edu 0.4.0)
__getattr__ = _moved.moved_names(__name__, {
    "CopyLab": "tokens_edu.widgets.copy_lab:CopyLab", "COPY_KEY": "tokens_edu.widgets.copy_lab:COPY_KEY",
    "MIN_EXAMPLES": "tokens_edu.widgets.copy_lab:MIN_EXAMPLES",
    "COPY_GAMES": "tokens_edu.widgets.copy_lab:COPY_GAMES",
})

#: The opponents a lesson trains and tests against: name -> what the page calls it.
OPPONENTS = {"random": "Random player (picks any move it is allowed)",
             "greedy": "Rule player (the bot from Lesson 5)"}
_SHORT = {"random": "the random player", "greedy": "the rule player"}
#: Games in one batch of training (one click).
BATCH_GAMES = 20
#: A win rate that moves less than this many points counts as "about the same" (see :func:`guess_right`).
CHANGE_POINTS = 10
#: The guesses before a batch, and before the very first batch (the bot knows nothing yet).
RATE_CHOICES = ["It will go up", "It will stay about the same", "It will go down"]
FIRST_CHOICES = ["Almost never (less than 1 game in 4)", "About half the time",
                 "Almost always (more than 3 games in 4)"]
#: The question of each saved guess and result (what the teacher's dashboard shows).
RATE_KEY = "Batch guess: what will its win rate do?"
TEST_KEY = "Test result: win rate against each player"
#: What the page says about the player's seed ({seed}: the number).
SEED_WORDS = ("Your player's games come from the number {seed} (its seed). A classmate's player has "
              "another number, so its curve is not the same as yours.")

#: What the labs say, in a student's words (the readability test measures these).
MESSAGES = {
    "guess": "Make your guess first. Then click the button.",
    "playing": "Playing {n} games. Please wait...",
    "reset": "A new player: all its numbers are 0 again.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
    "train_first": "Train the player first, in Part 1.",
    "testing": "Testing: {n} games against each player...",
    "test_drop": ("Against {who}, it won {then} of its last training games but only {now} in the test. "
                  "In training it sometimes tries other moves. In a test it always plays the move with "
                  "the most points, and here that did worse. Train one more batch, then test again."),
}
#: A test this many points below the last training batch against the same player gets a note.
DROP_POINTS = 30

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _note(box: widgets.HTML, text: str, bad: bool = False) -> None:
    box.value = f'<p style="color:{_RED if bad else _GREEN};margin:4px 0;font-size:15px">{_e(text)}</p>'


def _guarded(owner, box_name: str, where: str):
    """A click handler wrapper: an error becomes a friendly line (Voila shows callback errors nowhere)."""
    def wrap(fn):
        def run(*args):
            try:
                fn(*args)
            except Exception:
                log.exception("%s: a click failed", where)
                _note(getattr(owner, box_name), MESSAGES["error"], bad=True)
                owner._busy(False)
        return run
    return wrap


def _save(session, key: str, answer: str, kind: str, correct: bool | None = None) -> str | None:
    """Save a response if there is a session; a refusal (no name yet, the store down) is logged:
    the lesson goes on."""
    if session is None:
        return None
    try:
        return save_response(session, key, answer, kind, correct)
    except ValueError as e:
        log.info("lesson 10: %s not saved: %s", key, e)
        return None


def guess_right(guess: str, before: float | None, after: float) -> bool:
    """Whether a guess before a batch was right, by the direction the win rate took: "It will go
    up" is right when the win rate went up at all, "It will go down" when it went down at all,
    "It will stay about the same" when it moved less than :data:`CHANGE_POINTS` points (so a
    small rise makes both "up" and "about the same" right). Before the first batch
    (``before`` None) the guess is right when it names :func:`rate_word`'s band."""
    if before is None:
        return guess == rate_word(None, after)
    points = (after - before) * 100
    if guess == RATE_CHOICES[0]:
        return points > 0
    if guess == RATE_CHOICES[2]:
        return points < 0
    return abs(points) < CHANGE_POINTS


def rate_word(before: float | None, after: float) -> str:
    """Which of :data:`RATE_CHOICES` (or :data:`FIRST_CHOICES` when ``before`` is None) a change
    of win rate from ``before`` to ``after`` (0 to 1) is: up or down by :data:`CHANGE_POINTS`
    points or more, else about the same."""
    if before is None:
        return FIRST_CHOICES[0] if after < 0.25 else FIRST_CHOICES[2] if after > 0.75 else FIRST_CHOICES[1]
    points = round((after - before) * 100)
    return RATE_CHOICES[0] if points >= CHANGE_POINTS else RATE_CHOICES[2] if points <= -CHANGE_POINTS else RATE_CHOICES[1]


class TrainingLab(widgets.VBox):
    """Train a computer player in batches and watch it learn (lesson 10, part 1).

    Args:
        session: the page's PageSession (each batch's guess is saved there), or None
            (``journal=``: its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        seed: the training games' seed (the same seed, the same games), or None: each student
            gets their own, chosen at the first batch (:meth:`choose_seed`).
        batch_games: games per batch (1 to 200).
        opponents: names of :data:`OPPONENTS` offered, in order (the first is picked).
        runner: the page's :class:`~tokens_edu.widgets.background.OneAtATime` (default: the
            kernel's, :func:`~tokens_edu.widgets.background.page_runner`); a click while it runs
            a job is ignored.

    Attributes:
        bot: the :class:`LearningBot` (``lookahead=0``). trained: opponent -> games trained
        against it. points: the curve, ``(games so far, win rate of that batch)`` each.
        batches: one dict per batch (``opponent``, ``games``, ``won``, ``win_rate``,
        ``seconds``, ``changes``: feature -> change of weight, ``guess_rate``, ``right``,
        ``truth``). seed: the seed in use (None until the first batch when none was given).
        opponent_picker, rate_guess, go_button, reset_button, result, curve, bars, seed_note.

    Raises:
        ValueError: a bad ``batch_games`` or ``seed``, or an unknown opponent.
    """

    journal = journal_alias()

    def __init__(self, session=None, seed: int | None = None, batch_games: int = BATCH_GAMES,
                 opponents=("random", "greedy"), *, journal=None, runner: OneAtATime | None = None):
        super().__init__()
        session = given_session(session, journal, "TrainingLab")
        if isinstance(batch_games, bool) or not isinstance(batch_games, int) or not 1 <= batch_games <= 200:
            raise ValueError("batch_games is a whole number from 1 to 200.")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 10**6):
            raise ValueError("seed is None or a whole number from 0 to 999999.")
        unknown = [o for o in opponents if o not in OPPONENTS]
        if unknown or not opponents:
            raise ValueError(f"The opponents are some of: {', '.join(OPPONENTS)}.")
        self.add_class("tokens-training-lab")
        self.session, self.seed, self.batch_games = session, seed, batch_games
        self.runner = runner if runner is not None else page_runner()
        self.opponent_picker = widgets.ToggleButtons(options=[(OPPONENTS[o], o) for o in opponents],
                                                     value=opponents[0], description="It plays:",
                                                     style={"description_width": "initial", "button_width": "auto"})
        self.opponent_picker.add_class("tokens-train-opponent")
        self.opponent_picker.observe(lambda _c: self._draw_question(), names="value")
        self.question = widgets.HTML()
        self.rate_guess = widgets.RadioButtons(options=RATE_CHOICES, value=None, layout=widgets.Layout(width="auto"))
        self.rate_guess.add_class("tokens-train-guess-rate")
        self.go_button = widgets.Button(description=f"Play {batch_games} games and learn", button_style="primary",
                                        icon="play", layout=widgets.Layout(width="auto"))
        self.go_button.add_class("tokens-train-go")
        self.go_button.on_click(lambda _b: self.start_batch())
        self.reset_button = widgets.Button(description="Start over", icon="undo", layout=widgets.Layout(width="auto"))
        self.reset_button.add_class("tokens-train-reset")
        self.reset_button.on_click(_guarded(self, "message", "TrainingLab")(lambda _b: self._reset_click()))
        self.message = widgets.HTML()
        self.message.add_class("tokens-lab-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-train-result")
        self.seed_note = widgets.HTML()
        self.seed_note.add_class("tokens-train-seed")
        self.curve = widgets.HTML()
        self.curve.add_class("tokens-train-curve")
        self.bars = widgets.HTML()
        self.bars.add_class("tokens-train-weights")
        guesses = widgets.VBox([self.question, self.rate_guess],
                               layout=widgets.Layout(border="1px solid #9aa7b8", padding="4px 10px", margin="6px 0"))
        self.children = [self.opponent_picker, guesses, widgets.HBox([self.go_button, self.reset_button]),
                         self.message, self.result, self.seed_note,
                         widgets.HBox([self.curve, self.bars], layout=widgets.Layout(flex_flow="row wrap"))]
        self._runs: dict = {}
        self.reset(say=False)

    def _busy(self, on: bool) -> None:
        self.go_button.disabled = on
        self.reset_button.disabled = on
        self.rate_guess.disabled = on

    def choose_seed(self) -> int:
        """The seed of this student's training, fixed at the first batch: the one given to the lab;
        else the page link's ``?seed=N`` (the teacher's demo: everyone's link with the same
        number trains the same games); else a number made from the student's name (the same
        name, the same games: a teacher can repeat what a student saw); else a random one."""
        if self.seed is not None:
            return self.seed
        seed = None
        try:
            found = re.search(r"(?:^|&)seed=(\d{1,6})(?:&|$)", query_string() or "")
            seed = int(found.group(1)) if found else None
        except Exception:  # noqa: BLE001 (no page: a script, a test)
            log.debug("lesson 10: no page query for a seed", exc_info=True)
        if seed is None and self.session is not None:
            try:
                name = self.session.student
            except Exception:  # noqa: BLE001
                name = None
            if name:
                seed = zlib.crc32(name.strip().casefold().encode("utf-8")) % 10**6
        if seed is None:
            seed = random.SystemRandom().randrange(10**6)
        self.seed = seed
        self.seed_note.value = (f'<p style="margin:4px 0;color:#444;font-size:14px">'
                                f'{_e(SEED_WORDS.format(seed=seed))}</p>')
        return seed

    def _reset_click(self) -> None:
        if not self.runner.running:
            self.reset()

    def reset(self, say: bool = True) -> None:
        """A new player (every weight 0); the curve starts again (the same seed: the same games)."""
        for run in self._runs.values():
            run.close()
        self._runs = {}
        self.bot = LearningBot(seed=self.seed, lookahead=0)
        self.trained: dict[str, int] = {}
        self.points: list[tuple[int, float]] = []
        self.batches: list[dict] = []
        self.result.value = ""
        self._draw()
        self._draw_question()
        if say:
            _note(self.message, MESSAGES["reset"])
        else:
            self.message.value = ""

    @property
    def games(self) -> int:
        """Games it has trained in all."""
        return sum(self.trained.values())

    def _draw_question(self) -> None:
        opponent = _SHORT[self.opponent_picker.value]
        if not self.batches:
            text = (f"All its numbers are 0. In its first {self.batch_games} games "
                    f"against {opponent}, how often will it win?")
            options = FIRST_CHOICES
        else:
            text = (f"It will play {self.batch_games} more games against {opponent}. What will happen to "
                    f"its win rate? (About the same means less than {CHANGE_POINTS} points up or down.)")
            options = RATE_CHOICES
        self.question.value = f'<p style="margin:4px 0"><strong>Predict:</strong> {_e(text)}</p>'
        if list(self.rate_guess.options) != options:
            self.rate_guess.options = options
        self.rate_guess.value = None

    def _draw(self) -> None:
        self.curve.value = win_rate_curve(self.points, label="Win rate in each batch of games")
        last = self.batches[-1]["changes"] if self.batches else {}
        w = self.bot.weights
        rows = [(f, LEARNING_MEANINGS[f], float(w.loc[f, "weight"]), last.get(f)) for f in FEATURES]
        self.bars.value = ('<div style="font-weight:bold;margin:4px 0">Its numbers (weights): what it likes more '
                           '(green, to the right) or less (red, to the left)</div>' + weight_bars(rows))

    def start_batch(self) -> bool:
        """What the button does: check the guess, then play one batch in the background
        (:meth:`train_batch`). A click while a batch (or another job of the page) runs is
        ignored, however many the page sends.

        Returns:
            True when a batch was started.
        """
        if self.runner.running:
            self.runner.ignored += 1
            return False
        if self.rate_guess.value is None:
            _note(self.message, MESSAGES["guess"], bad=True)
            return False
        return self.runner.start(_guarded(self, "message", "TrainingLab")(self.train_batch))

    def train_batch(self) -> dict | None:
        """One batch, now, in the caller's thread (:meth:`start_batch` runs it in the
        background): check the guess, play the games while the bot learns, then show the
        curve, the bars and whether the guess was right (:func:`guess_right`).

        Returns:
            the batch's dict (see :attr:`batches`), or None when the guess is missing (the
            message asks for it).
        """
        guess = self.rate_guess.value
        if guess is None:
            _note(self.message, MESSAGES["guess"], bad=True)
            return None
        opponent = self.opponent_picker.value
        _note(self.message, MESSAGES["playing"].format(n=self.batch_games))
        self._busy(True)
        try:
            seed = self.choose_seed()
            before = self.bot.weights["weight"].copy()
            run = self._runs.get(opponent)
            if run is None:
                run = train_batches(self.bot, opponent, batch_size=self.batch_games,
                                    seed=seed * 100 + len(self._runs))
                self._runs[opponent] = run
            started = time.perf_counter()
            table = next(run)
            seconds = time.perf_counter() - started
        finally:
            self._busy(False)
        won = float(table["won"].sum())
        rate = won / len(table)
        changes = {f: float(self.bot.weights.loc[f, "weight"] - before.loc[f]) for f in FEATURES}
        prev = self.batches[-1]["win_rate"] if self.batches else None
        truth = rate_word(prev, rate)
        right = guess_right(guess, prev, rate)
        self.trained[opponent] = self.trained.get(opponent, 0) + len(table)
        batch = {"opponent": opponent, "games": len(table), "won": won, "win_rate": rate, "seconds": seconds,
                 "changes": changes, "guess_rate": guess, "right": right, "truth": truth}
        self.batches.append(batch)
        self.points.append((self.games, rate))
        _save(self.session, RATE_KEY, guess, "prediction", right)
        won_words = f"{won:g}" if won != int(won) else f"{int(won)}"
        if prev is None:
            what = truth
        else:
            points = round((rate - prev) * 100)
            what = ("it went up" if points > 0 else "it went down" if points < 0 else "no change") + (
                f" {abs(points)} points" if points else "")
        change = "" if prev is None else (f" Before, it won {percent(prev)}: that is {what}.")
        tick, cross = ('<strong style="color:#1d5e20">Right!</strong>', '<strong style="color:#8a1c1c">Not this time.</strong>')
        self.result.value = (
            f'<div style="font-size:15px;line-height:1.45;background:#f3f6fa;padding:6px 10px;border-radius:6px">'
            f'<p style="margin:4px 0"><strong>Batch {len(self.batches)}</strong> against {_e(_SHORT[opponent])}: '
            f'it won <strong>{won_words} of {len(table)}</strong> games ({percent(rate)}).{_e(change)}</p>'
            f'<p style="margin:4px 0">You guessed: <em>{_e(guess)}</em>. '
            f'{tick if right else cross}{"" if prev is not None else " (" + _e(truth) + ")"}</p></div>')
        self.message.value = ""
        self._draw()
        self._draw_question()
        return batch


class TestBench(widgets.VBox):
    """Test the trained player against each opponent, without learning, beside a new player
    (every weight 0) in the same games (lesson 10, part 3).

    Args:
        lab: the :class:`TrainingLab` whose player is tested.
        session: the page's PageSession (the result is saved there), or None (``journal=``:
            its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        games: games against each opponent (seats swapped every game; 2 to 200, even).
        seed: the test games' seed (other games than the training's).
        runner: the page's :class:`~tokens_edu.widgets.background.OneAtATime` (default: the
            lab's); a click while it runs a job is ignored.

    Attributes:
        results: opponent -> win rate of the trained player in the latest test.
        untrained: opponent -> win rate of a new player (every weight 0) in the same games.
        go_button, result, message.
    """

    __test__ = False  # a widget, not a pytest test class (its name starts with "Test")

    journal = journal_alias()

    def __init__(self, lab: TrainingLab, session=None, games: int = 20, seed: int = 77, *, journal=None,
                 runner: OneAtATime | None = None):
        session = given_session(session, journal, "TestBench")
        super().__init__()
        if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= 200 or games % 2:
            raise ValueError("games is an even whole number from 2 to 200.")
        self.add_class("tokens-test-bench")
        self.lab, self.session, self.games, self.seed = lab, session, games, seed
        self.runner = runner if runner is not None else lab.runner
        self.results: dict[str, float] = {}
        self.untrained: dict[str, float] = {}
        self.go_button = widgets.Button(description="Test it against both players", button_style="primary",
                                        icon="check", layout=widgets.Layout(width="auto"))
        self.go_button.add_class("tokens-test-go")
        self.go_button.on_click(lambda _b: self.runner.start(_guarded(self, "message", "TestBench")(self.test)))
        self.message = widgets.HTML()
        self.message.add_class("tokens-lab-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-test-result")
        self.children = [self.go_button, self.message, self.result]

    def _busy(self, on: bool) -> None:
        self.go_button.disabled = on

    def verdict(self) -> str:
        """What the latest test shows, in a student's words (:attr:`results` and which players
        it trained with): trained only against the random player and far worse against the
        rule player, an AI tested only against an easy player looks better than it is; trained
        only against the rule player and winning against the random player it never met, a
        harder training prepared it for an easier player."""
        lab, results = self.lab, self.results
        old = {o: r for o, r in results.items() if lab.trained.get(o)}
        new = {o: r for o, r in results.items() if not lab.trained.get(o)}
        if not new or not old:
            return ("It has trained against both players. Click Start over in Part 1 and train a new "
                    "player against only one of them.")
        if "random" in old and "greedy" in new:
            if (old["random"] - new["greedy"]) * 100 >= CHANGE_POINTS:
                return (f"Against the random player, the one it trained with, it won {percent(old['random'])}. "
                        f"Against the rule player, only {percent(new['greedy'])}. Tested only against an easy "
                        "player, it looks better than it is.")
            return "It did about as well, or better, against the player it never met."
        if "greedy" in old and "random" in new:
            if new["random"] >= 0.5:
                return (f"It never met the random player, and it still won {percent(new['random'])} against it. "
                        "It trained against a harder player, so an easier one did not surprise it.")
            return (f"It never met the random player, and it won only {percent(new['random'])} against it. "
                    "Train a few more batches, then test again.")
        return ""

    def test(self) -> dict | None:
        """What the button does (in the background): play :attr:`games` games against each
        opponent (no learning) with the trained player and with a new one, and show the win
        rates, marking the opponents it trained with; then :meth:`verdict`. When the test
        against a player it trained with is :data:`DROP_POINTS` or more below its last
        training batch against that player, a note says why that can happen (in training it
        draws its moves by chance; in a test it always plays its top move) and what to do.

        Returns:
            dict opponent -> win rate, or None when it has not trained yet.
        """
        lab = self.lab
        if not lab.trained:
            _note(self.message, MESSAGES["train_first"], bad=True)
            return None
        _note(self.message, MESSAGES["testing"].format(n=self.games))
        self._busy(True)
        try:
            opponents = [value for _, value in lab.opponent_picker.options]
            results = {o: play_matches(lab.bot, o, games=self.games, seed=self.seed).attrs["win_rate"]
                       for o in opponents}
            fresh = LearningBot(seed=lab.seed, lookahead=0)
            untrained = {o: play_matches(fresh, o, games=self.games, seed=self.seed).attrs["win_rate"]
                         for o in opponents}
        finally:
            self._busy(False)
        self.results, self.untrained = results, untrained
        rows = []
        for o, rate in results.items():
            met = lab.trained.get(o, 0)
            words = (f"it trained with this one ({met} games)" if met else "new to it: it never played this one")
            name = OPPONENTS[o].split(" (")[0]
            rows.append((f"Your player vs {name.lower()}", rate,
                         f"{round(rate * self.games):d} of {self.games} won; {words}"))
            fresh_rate = untrained[o]
            rows.append((f"A new player vs {name.lower()}", fresh_rate,
                         f"{round(fresh_rate * self.games):d} of {self.games} won; all its numbers are 0"))
        verdict = self.verdict()
        drops = []
        for o, rate in results.items():  # its top moves can do far worse than its training's tries
            last = next((b["win_rate"] for b in reversed(lab.batches) if b["opponent"] == o), None)
            if last is not None and (last - rate) * 100 >= DROP_POINTS:
                drops.append(MESSAGES["test_drop"].format(who=_SHORT[o], then=percent(last), now=percent(rate)))
        self.message.value = ""
        self.result.value = (share_bars(rows) + f'<p style="margin:6px 0;font-size:15px"><strong>{_e(verdict)}</strong></p>'
                             + "".join(f'<p style="margin:6px 0;font-size:15px">{_e(d)}</p>' for d in drops))
        text = "; ".join(f"{_SHORT[o]} {percent(r)} ({'trained with' if lab.trained.get(o) else 'new'}; "
                         f"a new player {percent(untrained[o])})" for o, r in results.items())
        _save(self.session, TEST_KEY, f"After {lab.games} training games: {text}.", "result")
        return results
