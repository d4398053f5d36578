"""Lesson 10's labs: the class trains a computer player and watches it learn.

Three parts, each a widget a lesson shows in its own cell:

- :class:`TrainingLab` (learning from play): a :class:`~tokens_edu.players.learning.LearningBot`
  plays batches of games against a chosen opponent (the random player or the rule player of
  lesson 5) and learns after each game (:func:`~tokens_edu.lab.training.train_batches`). Before
  each batch the student predicts what will change (the win rate; which number changes most);
  after it the page shows the learning curve (the win rate of each batch) and the bot's eight
  numbers as bars that grow and shrink, each with its meaning in plain words. The bot looks one
  move ahead (``lookahead=0``): after each move it could make it measures the board with its
  eight features and adds them up, each times its weight, so the bars *are* all it knows.
- :class:`CopyLab` (learning from examples): the student plays a game on a card table; then
  **Teach my copy** turns the student's own moves into training data
  (:func:`~tokens_edu.players.imitation.examples_from_game`) and a new LearningBot learns to
  pick the same moves (:meth:`~tokens_edu.players.learning.LearningBot.learn_from_examples`).
  **Watch your copy play** lets the copy play a few games against the rule player, and a table
  puts the student's habits beside the copy's (:func:`~tokens_edu.lab.habits.habits`): turns
  that start with Train, turns that end with a Task left unplayed...
- :class:`TestBench` (testing): the trained player meets each opponent, the one it trained
  with and the one it never met, in games where it does not learn (seats swapped every game).

Predictions, the test and the copy's result are saved in the page session's store (``kind="prediction"``
or ``"result"``) for the teacher's dashboard.

Hidden cards never reach the page: the training and the tests show only win rates and the
bot's weights; the copy's page shows the student's own moves (their own cards), the copy's
habits as counts, and the copy's moves as anyone watching would see them (a trained card stays
face-down: :func:`~tokens_edu.lab.habits.public_moves`). The student's own game is a
:class:`~tokens_edu.widgets.game_view.GameView`, which shows the other player's hand as counts.

Stable CSS classes: ``tokens-training-lab``, ``tokens-train-opponent``, ``tokens-train-guess-rate``,
``tokens-train-guess-bar``, ``tokens-train-go``, ``tokens-train-reset``, ``tokens-train-result``,
``tokens-train-curve``, ``tokens-train-weights``; ``tokens-copy-lab``, ``tokens-copy-teach``,
``tokens-copy-result``, ``tokens-copy-moves``, ``tokens-copy-watch``, ``tokens-copy-habits``;
``tokens-test-bench``, ``tokens-test-go``, ``tokens-test-result``; ``tokens-lab-message``.
"""

from __future__ import annotations

import html
import logging
import time

import ipywidgets as widgets

from ..content.decks import starter_decks
from ..game.game import Game
from ..lab.habits import habits, play_matches, public_moves
from ..lab.training import train_batches
from ..players.features import LEARNING_MEANINGS
from ..players.imitation import examples_from_game
from ..players.learning import FEATURES, LearningBot
from ..present.charts import percent, share_bars, weight_bars, win_rate_curve
from .game_view import GameView
from .who import given_session, journal_alias, save_response

__all__ = ["TrainingLab", "CopyLab", "TestBench", "OPPONENTS", "MESSAGES", "RATE_CHOICES", "FIRST_CHOICES",
           "CHANGE_POINTS", "DROP_POINTS", "BATCH_GAMES", "RATE_KEY", "NUMBER_KEY", "TEST_KEY", "COPY_KEY"]

log = logging.getLogger(__name__)

#: The opponents a lesson trains and tests against: name -> what the page calls it.
OPPONENTS = {"random": "Random player (picks any move it is allowed)",
             "greedy": "Rule player (the bot from Lesson 5)"}
_SHORT = {"random": "the random player", "greedy": "the rule player"}
#: Games in one batch of training (one click).
BATCH_GAMES = 20
#: A win rate that moves this many points or more counts as "up" or "down".
CHANGE_POINTS = 10
#: The guesses before a batch, and before the very first batch (the bot knows nothing yet).
RATE_CHOICES = ["It will go up", "It will stay about the same", "It will go down"]
FIRST_CHOICES = ["Almost never (less than 1 game in 4)", "About half the time",
                 "Almost always (more than 3 games in 4)"]
#: The question of each saved guess and result (what the teacher's dashboard shows).
RATE_KEY = "Batch guess: what will its win rate do?"
NUMBER_KEY = "Batch guess: which number will change the most?"
TEST_KEY = "Test result: win rate against each player"
COPY_KEY = "Copy result: how often it makes your move"
#: Examples needed before the copy learns (moves with a real choice).
MIN_EXAMPLES = 8
#: Games the copy plays when the student watches it.
COPY_GAMES = 4

#: What the labs say, in a student's words (the readability test measures these).
MESSAGES = {
    "guess": "Make your guess first. Then click the button.",
    "playing": "Playing {n} games. Please wait...",
    "reset": "A new player that knows nothing: all its numbers are 0.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
    "more_moves": "Play a bit more first. Your copy has {n} of your moves to learn from. It needs at least {need}.",
    "copying": "Your copy is learning from your moves...",
    "watching": "Your copy is playing {n} games against the rule player...",
    "teach_first": "Click Teach my copy first.",
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
        session: the page's PageSession (each batch's two guesses are saved there), or None
            (``journal=``: its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        seed: the new player's seed and the training games' (the same seed, the same games).
        batch_games: games per batch (1 to 200).
        opponents: names of :data:`OPPONENTS` offered, in order (the first is picked).

    Attributes:
        bot: the :class:`LearningBot` (``lookahead=0``). trained: opponent -> games trained
        against it. points: the curve, ``(games so far, win rate of that batch)`` each.
        batches: one dict per batch (``opponent``, ``games``, ``won``, ``win_rate``,
        ``seconds``, ``changes``: feature -> change of weight, ``guess_rate``, ``guess_bar``).
        opponent_picker, rate_guess, bar_guess, go_button, reset_button, result, curve, bars.

    Raises:
        ValueError: a bad ``batch_games`` or an unknown opponent.
    """

    journal = journal_alias()

    def __init__(self, session=None, seed: int = 10, batch_games: int = BATCH_GAMES,
                 opponents=("random", "greedy"), *, journal=None):
        super().__init__()
        session = given_session(session, journal, "TrainingLab")
        if isinstance(batch_games, bool) or not isinstance(batch_games, int) or not 1 <= batch_games <= 200:
            raise ValueError("batch_games is a whole number from 1 to 200.")
        unknown = [o for o in opponents if o not in OPPONENTS]
        if unknown or not opponents:
            raise ValueError(f"The opponents are some of: {', '.join(OPPONENTS)}.")
        self.add_class("tokens-training-lab")
        self.session, self.seed, self.batch_games = session, seed, batch_games
        self.opponent_picker = widgets.ToggleButtons(options=[(OPPONENTS[o], o) for o in opponents],
                                                     value=opponents[0], description="It plays:",
                                                     style={"description_width": "initial", "button_width": "auto"})
        self.opponent_picker.add_class("tokens-train-opponent")
        self.opponent_picker.observe(lambda _c: self._draw_question(), names="value")
        self.question = widgets.HTML()
        self.rate_guess = widgets.RadioButtons(options=RATE_CHOICES, value=None, layout=widgets.Layout(width="auto"))
        self.rate_guess.add_class("tokens-train-guess-rate")
        self.bar_guess = widgets.Dropdown(options=[("(pick one)", None)] + [(f, f) for f in FEATURES], value=None,
                                          description="Which number will change the most?",
                                          style={"description_width": "initial"})
        self.bar_guess.add_class("tokens-train-guess-bar")
        self.go_button = widgets.Button(description=f"Play {batch_games} games and learn", button_style="primary",
                                        icon="play", layout=widgets.Layout(width="auto"))
        self.go_button.add_class("tokens-train-go")
        self.go_button.on_click(_guarded(self, "message", "TrainingLab")(lambda _b: self.train_batch()))
        self.reset_button = widgets.Button(description="Start over", icon="undo", layout=widgets.Layout(width="auto"))
        self.reset_button.add_class("tokens-train-reset")
        self.reset_button.on_click(_guarded(self, "message", "TrainingLab")(lambda _b: self.reset()))
        self.message = widgets.HTML()
        self.message.add_class("tokens-lab-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-train-result")
        self.curve = widgets.HTML()
        self.curve.add_class("tokens-train-curve")
        self.bars = widgets.HTML()
        self.bars.add_class("tokens-train-weights")
        guesses = widgets.VBox([self.question, self.rate_guess, self.bar_guess],
                               layout=widgets.Layout(border="1px solid #9aa7b8", padding="4px 10px", margin="6px 0"))
        self.children = [self.opponent_picker, guesses, widgets.HBox([self.go_button, self.reset_button]),
                         self.message, self.result,
                         widgets.HBox([self.curve, self.bars], layout=widgets.Layout(flex_flow="row wrap"))]
        self._runs: dict = {}
        self.reset(say=False)

    def _busy(self, on: bool) -> None:
        self.go_button.disabled = on
        self.reset_button.disabled = on

    def reset(self, say: bool = True) -> None:
        """A new player that knows nothing (every weight 0); the curve starts again."""
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
            text = (f"It knows nothing yet: all its numbers are 0. In its first {self.batch_games} games "
                    f"against {opponent}, how often will it win?")
            options = FIRST_CHOICES
        else:
            text = (f"It will play {self.batch_games} more games against {opponent}. What will happen to "
                    f"its win rate? (Up or down means by {CHANGE_POINTS} points or more.)")
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

    def train_batch(self) -> dict | None:
        """What the button does: check the guesses, play one batch of games while the bot
        learns, then show the curve, the bars and whether the guesses were right.

        Returns:
            the batch's dict (see :attr:`batches`), or None when a guess is missing (the
            message asks for it).
        """
        if self.rate_guess.value is None or self.bar_guess.value is None:
            _note(self.message, MESSAGES["guess"], bad=True)
            return None
        opponent = self.opponent_picker.value
        _note(self.message, MESSAGES["playing"].format(n=self.batch_games))
        self._busy(True)
        try:
            before = self.bot.weights["weight"].copy()
            run = self._runs.get(opponent)
            if run is None:
                run = train_batches(self.bot, opponent, batch_size=self.batch_games,
                                    seed=self.seed * 100 + len(self._runs))
                self._runs[opponent] = run
            started = time.perf_counter()
            table = next(run)
            seconds = time.perf_counter() - started
        finally:
            self._busy(False)
        won = float(table["won"].sum())
        rate = won / len(table)
        changes = {f: float(self.bot.weights.loc[f, "weight"] - before.loc[f]) for f in FEATURES}
        biggest = max(FEATURES, key=lambda f: abs(changes[f]))
        prev = self.batches[-1]["win_rate"] if self.batches else None
        truth = rate_word(prev, rate)
        self.trained[opponent] = self.trained.get(opponent, 0) + len(table)
        batch = {"opponent": opponent, "games": len(table), "won": won, "win_rate": rate, "seconds": seconds,
                 "changes": changes, "guess_rate": self.rate_guess.value, "guess_bar": self.bar_guess.value,
                 "biggest": biggest, "truth": truth}
        self.batches.append(batch)
        self.points.append((self.games, rate))
        right_rate = batch["guess_rate"] == truth
        right_bar = batch["guess_bar"] == biggest
        _save(self.session, RATE_KEY, batch["guess_rate"], "prediction", right_rate)
        _save(self.session, NUMBER_KEY, batch["guess_bar"], "prediction", right_bar)
        won_words = f"{won:g}" if won != int(won) else f"{int(won)}"
        change = "" if prev is None else (f" Before, it won {percent(prev)}: that is "
                                          f"{'up' if rate > prev else 'down' if rate < prev else 'no change'}"
                                          f"{'' if rate == prev else f' {abs(round((rate - prev) * 100))} points'}.")
        tick, cross = ('<strong style="color:#1d5e20">Right!</strong>', '<strong style="color:#8a1c1c">Not this time.</strong>')
        c = changes[biggest]
        self.result.value = (
            f'<div style="font-size:15px;line-height:1.45;background:#f3f6fa;padding:6px 10px;border-radius:6px">'
            f'<p style="margin:4px 0"><strong>Batch {len(self.batches)}</strong> against {_e(_SHORT[opponent])}: '
            f'it won <strong>{won_words} of {len(table)}</strong> games ({percent(rate)}).{_e(change)}</p>'
            f'<p style="margin:4px 0">You guessed: <em>{_e(batch["guess_rate"])}</em>. '
            f'{tick if right_rate else cross} ({_e(truth)})</p>'
            f'<p style="margin:4px 0">The number that changed most: <strong>{_e(biggest)}</strong> '
            f'({"▲" if c > 0 else "▼"} {abs(c):.2f}). You guessed <em>{_e(batch["guess_bar"])}</em>. '
            f'{tick if right_bar else cross}</p></div>')
        self.message.value = ""
        self.bar_guess.value = None
        self._draw()
        self._draw_question()
        return batch


class TestBench(widgets.VBox):
    """Test the trained player against each opponent, without learning (lesson 10, part 3).

    Args:
        lab: the :class:`TrainingLab` whose player is tested.
        session: the page's PageSession (the result is saved there), or None (``journal=``:
            its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        games: games against each opponent (seats swapped every game; 2 to 200, even).
        seed: the test games' seed (other games than the training's).

    Attributes:
        results: opponent -> win rate of the latest test. go_button, result.
    """

    __test__ = False  # a widget, not a pytest test class (its name starts with "Test")

    journal = journal_alias()

    def __init__(self, lab: TrainingLab, session=None, games: int = 20, seed: int = 77, *, journal=None):
        session = given_session(session, journal, "TestBench")
        super().__init__()
        if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= 200 or games % 2:
            raise ValueError("games is an even whole number from 2 to 200.")
        self.add_class("tokens-test-bench")
        self.lab, self.session, self.games, self.seed = lab, session, games, seed
        self.results: dict[str, float] = {}
        self.go_button = widgets.Button(description="Test it against both players", button_style="primary",
                                        icon="check", layout=widgets.Layout(width="auto"))
        self.go_button.add_class("tokens-test-go")
        self.go_button.on_click(_guarded(self, "message", "TestBench")(lambda _b: self.test()))
        self.message = widgets.HTML()
        self.message.add_class("tokens-lab-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-test-result")
        self.children = [self.go_button, self.message, self.result]

    def _busy(self, on: bool) -> None:
        self.go_button.disabled = on

    def test(self) -> dict | None:
        """What the button does: play :attr:`games` games against each opponent (no learning)
        and show the win rates, marking the opponents it trained with. When the test against a
        player it trained with is :data:`DROP_POINTS` or more below its last training batch
        against that player, a note says why that can happen (in training it draws its moves
        by chance; in a test it always plays its top move) and what to do.

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
        finally:
            self._busy(False)
        self.results = results
        rows = []
        for o, rate in results.items():
            met = lab.trained.get(o, 0)
            words = (f"it trained with this one ({met} games)" if met else "new to it: it never played this one")
            rows.append((OPPONENTS[o].split(" (")[0], rate, f"{round(rate * self.games):d} of {self.games} won; {words}"))
        old = [r for o, r in results.items() if lab.trained.get(o)]
        new = [r for o, r in results.items() if not lab.trained.get(o)]
        if new and old:
            gap = round((max(old) - max(new)) * 100)
            verdict = (f"Against the player it never met, it won {gap} points less. It learned to beat one "
                       "player. That is not the same as learning the whole game." if gap >= CHANGE_POINTS else
                       "It did about as well, or better, against the player it never met.")
        else:
            verdict = ("It has trained against both players. Click Start over in Part 1 and train a new "
                       "player against only one of them.")
        drops = []
        for o, rate in results.items():  # its top moves can do far worse than its training's tries
            last = next((b["win_rate"] for b in reversed(lab.batches) if b["opponent"] == o), None)
            if last is not None and (last - rate) * 100 >= DROP_POINTS:
                drops.append(MESSAGES["test_drop"].format(who=_SHORT[o], then=percent(last), now=percent(rate)))
        self.message.value = ""
        self.result.value = (share_bars(rows) + f'<p style="margin:6px 0;font-size:15px"><strong>{_e(verdict)}</strong></p>'
                             + "".join(f'<p style="margin:6px 0;font-size:15px">{_e(d)}</p>' for d in drops))
        text = "; ".join(f"{_SHORT[o]} {percent(r)} ({'trained with' if lab.trained.get(o) else 'new'})"
                         for o, r in results.items())
        _save(self.session, TEST_KEY, f"After {lab.games} training games: {text}.", "result")
        return results


class CopyLab(widgets.VBox):
    """The computer learns to copy the student's moves (lesson 10, part 2).

    Args:
        session: the page's PageSession (the copy's result is saved there), or None
            (``journal=``: its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        seed: the game's seed, the copy's and its games'.
        decks: (the student's deck, the computer's deck) as indexes into ``starter_decks()``.
        rounds: learning rounds (see ``learn_from_examples``).

    Attributes:
        view: the :class:`GameView` of the student's game (against the rule player).
        copy: the copy (a :class:`LearningBot`), None before **Teach my copy**.
        learned: the learning table (``round``, ``agree``, ``examples``) or None.
        examples: the student's moves it learned from. copy_games: ``(game, seat)`` of the copy's
        games, after **Watch your copy play**. habit_table: the comparison shown (a DataFrame).
        teach_button, watch_button, result, moves, habits_html, message.
    """

    journal = journal_alias()

    def __init__(self, session=None, seed: int = 10, decks: tuple[int, int] = (0, 7), rounds: int = 150, *,
                 journal=None):
        session = given_session(session, journal, "CopyLab")
        super().__init__()
        self.add_class("tokens-copy-lab")
        self.session, self.seed, self.rounds = session, seed, rounds
        all_decks = starter_decks()
        self.decks = (all_decks[decks[0]], all_decks[decks[1]])
        game = Game.new(self.decks[0], self.decks[1], seed=seed, names=("You", "Computer"))
        self.view = GameView(game, seats=("human", "greedy"), lesson="Play a game: your copy watches your moves",
                             keep=False)
        self.copy = None
        self.learned = None
        self.examples: list = []
        self.copy_games: list = []
        self.habit_table = None
        self.teach_button = widgets.Button(description="Teach my copy", button_style="primary", icon="graduation-cap",
                                           layout=widgets.Layout(width="auto"))
        self.teach_button.add_class("tokens-copy-teach")
        self.teach_button.on_click(_guarded(self, "message", "CopyLab")(lambda _b: self.teach()))
        self.watch_button = widgets.Button(description="Watch your copy play", icon="eye",
                                           layout=widgets.Layout(width="auto"))
        self.watch_button.add_class("tokens-copy-watch")
        self.watch_button.on_click(_guarded(self, "message", "CopyLab")(lambda _b: self.watch()))
        self.message = widgets.HTML()
        self.message.add_class("tokens-lab-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-copy-result")
        self.moves = widgets.HTML()
        self.moves.add_class("tokens-copy-moves")
        self.habits_html = widgets.HTML()
        self.habits_html.add_class("tokens-copy-habits")
        self.children = [self.view, widgets.HBox([self.teach_button, self.watch_button]), self.message,
                         self.result, self.moves, self.habits_html]

    def _busy(self, on: bool) -> None:
        self.teach_button.disabled = on
        self.watch_button.disabled = on

    def teach(self):
        """What **Teach my copy** does: a new LearningBot learns from the student's moves so far.

        Returns:
            the learning table, or None when there are fewer than :data:`MIN_EXAMPLES` moves
            (the message says how many more to play).
        """
        examples = examples_from_game(self.view.game, player=0)
        if len(examples) < MIN_EXAMPLES:
            _note(self.message, MESSAGES["more_moves"].format(n=len(examples), need=MIN_EXAMPLES), bad=True)
            return None
        _note(self.message, MESSAGES["copying"])
        self._busy(True)
        try:
            copy = LearningBot(seed=self.seed, lookahead=0)
            table = copy.learn_from_examples(examples, rounds=self.rounds, seed=self.seed)
        finally:
            self._busy(False)
        self.copy, self.learned, self.examples = copy, table, examples
        self.copy_games = []
        n = len(examples)
        agree = float(table["agree"].iloc[-1])
        before = float(table.attrs.get("before", float("nan")))
        self.message.value = ""
        rows = [(f, LEARNING_MEANINGS[f], float(copy.weights.loc[f, "weight"]), None) for f in FEATURES]
        self.result.value = (
            f'<div style="font-size:15px;background:#f3f6fa;padding:6px 10px;border-radius:6px">'
            f'<p style="margin:4px 0">Your copy learned from <strong>{n}</strong> of your moves. Now it picks the '
            f'same move as you in about <strong>{round(agree * n)} of {n}</strong> ({percent(agree)}). '
            f'Before it learned: about {round(before * n)} of {n}.</p></div>'
            '<div style="font-weight:bold;margin:6px 0 2px 0">What it learned from you (its numbers)</div>'
            + weight_bars(rows))
        lines = "".join(f"<li>{_e(ex.text)}</li>" for ex in examples[-20:])
        more = f"<p><em>and {n - 20} earlier moves</em></p>" if n > 20 else ""
        self.moves.value = (f'<details><summary style="cursor:pointer"><strong>Your moves it learned from '
                            f'({n})</strong></summary><ol>{lines}</ol>{more}</details>')
        self.habits_html.value = ""
        _save(self.session, COPY_KEY, f"The copy learned from {n} moves and picks the same move in about "
                                        f"{percent(agree)} of them (before learning: {percent(before)}).", "result")
        return table

    def watch(self):
        """What **Watch your copy play** does: the copy plays :data:`COPY_GAMES` games against the
        rule player with the student's deck; the page shows its habits beside the student's,
        and its first turns as anyone watching would see them.

        Returns:
            the habits table (a DataFrame: ``habit``, ``you``, ``copy``), or None before
            **Teach my copy**.
        """
        if self.copy is None:
            _note(self.message, MESSAGES["teach_first"], bad=True)
            return None
        _note(self.message, MESSAGES["watching"].format(n=COPY_GAMES))
        self._busy(True)
        try:
            _, kept = play_matches(self.copy, "greedy", games=COPY_GAMES, seed=self.seed, deck=self.decks[0],
                                   keep=True)
        finally:
            self._busy(False)
        self.copy_games = kept
        import pandas as pd  # pandas is loaded by now (the habits tables); kept local like the lab's

        you = habits([(self.view.game, 0)])
        copy = habits(kept)
        table = pd.DataFrame({"habit": you["habit"],
                              "you": [f"{c} of {t} turns ({percent(s)})" for c, t, s in
                                      zip(you["count"], you["turns"], you["share"])],
                              "copy": [f"{c} of {t} turns ({percent(s)})" for c, t, s in
                                       zip(copy["count"], copy["turns"], copy["share"])]})
        self.habit_table = table
        body = "".join(f"<tr><td>{_e(h)}</td><td>{_e(a)}</td><td>{_e(b)}</td></tr>"
                       for h, a, b in table.itertuples(index=False))
        game, seat = kept[0]
        first = public_moves(game, seat, turns=3)
        turns: dict[int, list[str]] = {}
        for turn, text in first:
            turns.setdefault(turn, []).append(text)
        shown = "".join(f"<li>Turn {t}: {_e(', '.join(ms))}</li>" for t, ms in turns.items())
        self.message.value = ""
        won = sum(1 for g, s in kept if g.winner == s)
        self.habits_html.value = (
            f'<p style="margin:6px 0 2px 0"><strong>Your habits and your copy\'s</strong> (your game so far; its '
            f'{len(kept)} games against the rule player, won {won} of {len(kept)})</p>'
            f'<table class="tokens-table"><tr><th>Habit</th><th>You</th><th>Your copy</th></tr>{body}</table>'
            f'<p style="margin:6px 0 2px 0"><strong>Your copy\'s first turns in its first game</strong> '
            f'(a card it trains stays face-down)</p><ul>{shown}</ul>')
        return table

