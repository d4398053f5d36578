"""PuzzlePicker: several small scenarios ("puzzles") on one card table, one at a time.

A lesson with five puzzles shows one table and a row of buttons to pick the puzzle, instead of
five boards on a very long page. Each puzzle keeps its own game while the student looks at
another one, so going back finds it as it was left. The puzzle's task (the scenario file's
``description``, else its ``title``) stands above the table.

Example::

    from tokens_edu.widgets.puzzles import PuzzlePicker
    PuzzlePicker({"Fast-Tracked": "scenarios/04-fast-tracked.yaml",
                  "Highly Trusted": "scenarios/04-highly-trusted.yaml"}, session=session)
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import ipywidgets as widgets

from ..game.game import Game
from ..players.match import Match
from .game_view import GameView
from .who import given_session

__all__ = ["PuzzlePicker"]

log = logging.getLogger(__name__)


class PuzzlePicker(widgets.VBox):
    """One card table for several scenarios, with a button per puzzle.

    Args:
        puzzles: an ordered mapping, the puzzle's name (the button's words) -> a scenario file
            path or a scenario dict (see ``Game.from_scenario``).
        seats: the seats of every puzzle (default: the student against the computer).
        undo: the undo policy (default ``"free"``: a puzzle is for trying again).
        session, autoplay, delay_ms: passed to :class:`GameView` (``journal=``: the old name of
            ``session``, a DeprecationWarning until tokens-edu 0.4.0).
        predictions: optional, puzzle name -> a widget (a
            :class:`~tokens_edu.widgets.PredictionBox`) shown beside that puzzle's task, right
            above the table, while the puzzle is on the table (each keeps its answer).

    Attributes:
        picker: the ``ToggleButtons`` (value: the puzzle's name; CSS class ``tokens-puzzle-pick``).
        view: the :class:`GameView` (one table for all the puzzles).
        task: the HTML above the table with the puzzle's task (``tokens-puzzle-task``).
        aside: the box beside the task holding the puzzle's prediction (``tokens-puzzle-predict``).
        matches: puzzle name -> its :class:`~tokens_edu.players.match.Match` (made when first opened).

    Raises:
        ValueError: no puzzles, or a scenario is refused (``ScenarioError``, with the
            scenario's name in the message). Every scenario is checked when the picker is made.
    """

    def __init__(self, puzzles: Mapping[str, object], seats: Sequence = ("human", "greedy"),
                 undo: str = "free", session=None, autoplay: bool = True, delay_ms: int = 1500,
                 predictions: Mapping[str, widgets.Widget] | None = None, *, journal=None):
        session = given_session(session, journal, "PuzzlePicker")
        if not puzzles:
            raise ValueError("PuzzlePicker needs at least one puzzle: {'name': 'scenarios/file.yaml'}.")
        super().__init__()
        self.add_class("tokens-puzzles")
        self.puzzles = dict(puzzles)
        self.seats, self.undo = tuple(seats), undo
        self.matches: dict[str, Match] = {}
        self.predictions = dict(predictions or {})
        unknown = [k for k in self.predictions if k not in self.puzzles]
        if unknown:
            raise ValueError(f"predictions for puzzles that do not exist: {', '.join(map(str, unknown))}. "
                             f"The puzzles are: {', '.join(self.puzzles)}.")
        self._tasks = {name: self._task_text(name, src) for name, src in self.puzzles.items()}
        first = next(iter(self.puzzles))
        for name in self.puzzles:  # a broken scenario is found now, not in front of the class
            self._match(name)
        self.picker = widgets.ToggleButtons(options=list(self.puzzles), value=first,
                                            description="Puzzle", style={"button_width": "auto"})
        self.picker.add_class("tokens-puzzle-pick")
        self.task = widgets.HTML(layout=widgets.Layout(flex="1 1 320px"))
        self.task.add_class("tokens-puzzle-task")
        self.aside = widgets.Box(layout=widgets.Layout(flex="1 1 420px"))
        self.aside.add_class("tokens-puzzle-predict")
        self.view = GameView(self.matches[first], session=session, lesson=first, autoplay=autoplay,
                             delay_ms=delay_ms, on_play_again=self._again)
        self._show_task(first)
        self.picker.observe(self._on_pick, names="value")
        # the task and its prediction side by side, right above the table: no scrolling between them
        head = widgets.HBox([self.task, self.aside], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.children = [self.picker, head, self.view]

    def _task_text(self, name: str, src: object) -> str:
        data = src
        if not isinstance(src, Mapping):
            import yaml

            try:
                data = yaml.safe_load(Path(src).read_text(encoding="utf-8")) or {}
            except (OSError, yaml.YAMLError):
                data = {}
        text = (data.get("description") or data.get("title") or name) if isinstance(data, Mapping) else name
        return " ".join(str(text).split())

    def _match(self, name: str) -> Match:
        match = self.matches.get(name)
        if match is None:

            try:
                game = Game.from_scenario(self.puzzles[name])
            except ValueError as exc:
                raise ValueError(f"Puzzle {name!r}: {exc}") from exc
            match = self.matches[name] = Match(game, seats=self.seats, undo=self.undo)
        return match

    def _show_task(self, name: str) -> None:
        self.task.value = (f'<div style="font-size:15px;padding:4px 2px"><b>{html.escape(name)}:</b> '
                           f"{html.escape(self._tasks[name])}</div>")
        box = self.predictions.get(name)
        self.aside.children = (box,) if box is not None else ()

    def show(self, name: str) -> GameView:
        """Put the puzzle ``name`` on the table (its game as it was left). Returns the view.

        Raises:
            KeyError: no puzzle has that name.
        """
        if name not in self.puzzles:
            raise KeyError(f"No puzzle is called {name!r}. The puzzles are: {', '.join(self.puzzles)}.")
        if self.picker.value != name:
            self.picker.value = name  # runs _on_pick
        return self.view

    def _on_pick(self, change) -> None:
        name = change.get("new")
        try:
            self.view.lesson = name
            self.view.set_match(self._match(name))
            self._show_task(name)
        except Exception:  # noqa: BLE001 (a click must never fail silently)
            log.exception("PuzzlePicker: could not open %r", name)
            self.task.value = ('<div style="color:#b00020">Oops, this puzzle could not be opened. '
                               "Try another one, or ask your teacher.</div>")

    def _again(self, view: GameView) -> None:
        """Play again: this puzzle from its start."""
        name = self.picker.value
        self.matches[name] = self.matches[name].restart()
        view.set_match(self.matches[name])
