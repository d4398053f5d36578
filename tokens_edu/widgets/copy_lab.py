"""Lesson 10, part 2: the computer learns to copy the student's moves (:class:`CopyLab`).

Moved here from :mod:`tokens_edu.widgets.teach_lab` (its old name there works, with a
DeprecationWarning, until tokens-edu 0.4.0).

The student plays a game on a card table; then **Teach my copy** turns the student's own moves
into training data (:func:`~tokens_edu.players.imitation.examples_from_game`) and a new
LearningBot learns to pick the same moves
(:meth:`~tokens_edu.players.learning.LearningBot.learn_from_examples`). **Watch your copy play**
lets the copy play a few games against the rule player, and a table puts the student's habits
beside the copy's (:func:`~tokens_edu.lab.habits.habits`).

What the page says is measured (``benchmarks/lesson10_claims.py --part copy-habits``): the copy
sees the board only through 8 numbers, so some students' copies never act at all (they end
every turn); the page then says why, instead of leaving an empty table to puzzle over.

Both buttons run their games in the background, one job at a time per page
(:mod:`tokens_edu.widgets.background`): a click while one runs is ignored.

Hidden cards never reach the page: the student's own game is a
:class:`~tokens_edu.widgets.game_view.GameView` (the other player's hand as counts); the copy's
moves are shown as anyone watching would see them (:func:`~tokens_edu.lab.habits.public_moves`).

Stable CSS classes: ``tokens-copy-lab``, ``tokens-copy-teach``, ``tokens-copy-result``,
``tokens-copy-moves``, ``tokens-copy-watch``, ``tokens-copy-habits``, ``tokens-lab-message``.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..content.decks import starter_decks
from ..game.game import Game
from ..lab.habits import decisions, habits, play_matches, public_moves
from ..players.features import LEARNING_MEANINGS
from ..players.imitation import examples_from_game
from ..players.learning import FEATURES, LearningBot
from ..present.charts import percent, weight_bars
from .background import OneAtATime, page_runner
from .game_view import GameView
from .teach_lab import _e, _guarded, _note, _save
from .who import given_session, journal_alias

__all__ = ["CopyLab", "MESSAGES", "COPY_KEY", "MIN_EXAMPLES", "COPY_GAMES", "NEVER_ACTED"]

#: The question of the saved result (what the teacher's dashboard shows).
COPY_KEY = "Copy result: how often it makes your move"
#: Examples needed before the copy learns (moves with a real choice).
MIN_EXAMPLES = 8
#: Games the copy plays when the student watches it.
COPY_GAMES = 4

#: What the copy lab says, in a student's words (the readability test measures these).
MESSAGES = {
    "more_moves": "Play a bit more first. Your copy has {n} of your moves to learn from. It needs at least {need}.",
    "copying": "Your copy is learning from your moves...",
    "watching": "Your copy is playing {n} games against the rule player...",
    "teach_first": "Click Teach my copy first.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
}
#: Said when the copy ended every turn of its games without a move (measured: 6 of 24 scripted
#: students' copies did, issue 28.2).
NEVER_ACTED = ("Your copy did nothing in its games: it ended every turn. Why? It does not see the "
               "cards or the rules. It sees only 8 numbers about the board, like \"more Tokens\". "
               "Training a card or ending the turn changes almost none of them. So it could not tell "
               "when you trained because you could not deploy yet. Play a few more turns, then teach "
               "it again.")


class CopyLab(widgets.VBox):
    """The computer learns to copy the student's moves (lesson 10, part 2).

    Args:
        session: the page's PageSession (the copy's result is saved there), or None
            (``journal=``: its old name, with a DeprecationWarning until tokens-edu 0.4.0).
        seed: the game's seed, the copy's and its games'.
        decks: (the student's deck, the computer's deck) as indexes into ``starter_decks()``.
        rounds: learning rounds (see ``learn_from_examples``).
        runner: the page's :class:`~tokens_edu.widgets.background.OneAtATime` (default: the
            kernel's, :func:`~tokens_edu.widgets.background.page_runner`).

    Attributes:
        view: the :class:`GameView` of the student's game (against the rule player; the
            student's side is called "You").
        copy: the copy (a :class:`LearningBot`), None before **Teach my copy**.
        learned: the learning table (``round``, ``agree``, ``examples``) or None.
        examples: the student's moves it learned from. copy_games: ``(game, seat)`` of the copy's
        games, after **Watch your copy play**. habit_table: the comparison shown (a DataFrame).
        acted: how many moves other than "End turn" the copy made in its own turns (None
        before it played). teach_button, watch_button, result, moves, habits_html, message.
    """

    journal = journal_alias()

    def __init__(self, session=None, seed: int = 10, decks: tuple[int, int] = (0, 7), rounds: int = 150, *,
                 journal=None, runner: OneAtATime | None = None):
        session = given_session(session, journal, "CopyLab")
        super().__init__()
        self.add_class("tokens-copy-lab")
        self.session, self.seed, self.rounds = session, seed, rounds
        self.runner = runner if runner is not None else page_runner()
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
        self.acted: int | None = None
        self.teach_button = widgets.Button(description="Teach my copy", button_style="primary", icon="graduation-cap",
                                           layout=widgets.Layout(width="auto"))
        self.teach_button.add_class("tokens-copy-teach")
        self.teach_button.on_click(lambda _b: self._in_background(self.teach))
        self.watch_button = widgets.Button(description="Watch your copy play", icon="eye",
                                           layout=widgets.Layout(width="auto"))
        self.watch_button.add_class("tokens-copy-watch")
        self.watch_button.on_click(lambda _b: self._in_background(self.watch))
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

    def _in_background(self, job) -> bool:
        """A button's job, in the page's runner: ignored while another job of the page runs."""
        return self.runner.start(_guarded(self, "message", "CopyLab")(job))

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
        self.acted = None
        n = len(examples)
        agree = float(table["agree"].iloc[-1])
        before = float(table.attrs.get("before", float("nan")))
        self.message.value = ""
        # a new copy starts with every number at 0: its change is its number now
        rows = [(f, LEARNING_MEANINGS[f], float(copy.weights.loc[f, "weight"]),
                 float(copy.weights.loc[f, "weight"])) for f in FEATURES]
        self.result.value = (
            f'<div style="font-size:15px;background:#f3f6fa;padding:6px 10px;border-radius:6px">'
            f'<p style="margin:4px 0">Your copy learned from <strong>{n}</strong> of your moves. Now it picks the '
            f'same move as you in about <strong>{round(agree * n)} of {n}</strong> ({percent(agree)}). '
            f'Before it learned: about {round(before * n)} of {n}.</p></div>'
            '<div style="font-weight:bold;margin:6px 0 2px 0">What it learned from you (its numbers: all were 0 '
            'before; the arrows show how much each one moved)</div>'
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
        and its first turns as anyone watching would see them. A copy that made no move but
        "End turn" in its own turns gets :data:`NEVER_ACTED` (why, and what to do).

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
        self.acted = sum(1 for g, s in kept for d in decisions(g, s) if d.own_turn and d.kind != "end")
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
        never = (f'<p class="tokens-copy-never" style="margin:6px 0;font-size:15px;background:#fff6e0;'
                 f'padding:6px 10px;border-radius:6px">{_e(NEVER_ACTED)}</p>' if not self.acted else "")
        self.habits_html.value = (
            f'<p style="margin:6px 0 2px 0"><strong>Your habits and your copy\'s</strong> (your game so far; its '
            f'{len(kept)} games against the rule player, won {won} of {len(kept)})</p>'
            f'<table class="tokens-table"><tr><th>Habit</th><th>You</th><th>Your copy</th></tr>{body}</table>'
            + never +
            f'<p style="margin:6px 0 2px 0"><strong>Your copy\'s first turns in its first game</strong> '
            f'(a card it trains stays face-down)</p><ul>{shown}</ul>')
        return table
