"""The table's buttons for Python code and tests: :class:`MoveButton` (a move offered now, found
in :class:`MoveButtons` by its :class:`~tokens_edu.Action`) and :class:`Control` (Undo, Next
computer move, Pause, Show my cards, Play again). ``click()`` does what a click in the page
does, through the same handler of the :class:`~tokens_edu.widgets.GameView`; Python is
trusted, so a control the page would grey out says why in the table's note instead of being
refused.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from ..game.actions import Action
from ..present.faces import HINTS

if TYPE_CHECKING:  # pragma: no cover
    from ..present import Page
    from .game_view import GameView

__all__ = ["MoveButton", "MoveButtons", "Control"]


class MoveButton:
    """A move offered now, for Python code and tests: ``click()`` does what a click on that
    move does in the page (the same checks: a move from an older drawing gets a calm note).

    Attributes:
        description: the move's text (``"task Neural Network"``). tooltip: the text and a hint.
        action: the :class:`~tokens_edu.Action`. index: its place in the moves the page was sent.
    """

    __slots__ = ("_view", "_page", "index", "description", "tooltip", "action")

    def __init__(self, view: "GameView", page: Page, index: int):
        self._view, self._page, self.index = view, page, index
        self.action = page.moves[index]
        self.description = str(self.action)
        hint = HINTS.get(self.action.kind, "")
        self.tooltip = f"{self.description}: {hint}".strip(": ")

    def click(self) -> None:
        """Play this move, as the page's button does."""
        self._view.guard(self._view._move_from)(self._page, self.index)

    def __repr__(self) -> str:
        return f"MoveButton({self.description!r})"


class MoveButtons(Mapping):
    """The moves offered now, each an Action -> its :class:`MoveButton`, in the page's order.

    Look a move up by its Action: one of ``game.legal_actions()``, one built from its fields,
    or ``Action.parse("task Neural Network")`` (found by :meth:`Action.key`: any case). A text key is still read until 0.4.0, with a
    DeprecationWarning. Iterating gives the Actions.
    """

    __slots__ = ("_buttons", "_by_key")

    def __init__(self, buttons: dict | None = None):
        self._buttons: dict[Action, MoveButton] = dict(buttons or {})
        self._by_key = {a.key(): b for a, b in self._buttons.items()}

    def _find(self, key) -> MoveButton | None:
        if isinstance(key, str):
            warnings.warn("view.buttons[text] is deprecated and will be removed in tokens_edu 0.4.0; look a move "
                          "up by its Action (view.buttons[Action.parse(text)]).", DeprecationWarning, stacklevel=3)
            try:
                key = Action.parse(key)
            except ValueError:
                return None
        if not isinstance(key, Action):
            return None
        try:
            return self._by_key.get(key.key())
        except TypeError:  # an Action built by hand with odd fields
            return None

    def __getitem__(self, key) -> MoveButton:
        found = self._find(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key) -> bool:
        return self._find(key) is not None

    def __iter__(self) -> Iterator[Action]:
        return iter(self._buttons)

    def __len__(self) -> int:
        return len(self._buttons)

    def __repr__(self) -> str:
        return f"MoveButtons({[str(a) for a in self._buttons]})"


class Control:
    """A control of the table (Undo, Next computer move, Pause, Show my cards, Play again),
    for Python code and tests: ``click()`` does what the page's button does (and says why not
    when the page would grey it out).

    Attributes:
        description: the button's words. shown: True when the page shows it now.
        disabled: True when it would do nothing now.
    """

    def __init__(self, view: "GameView", kind: str, description: str, shown: Callable[[], bool],
                 enabled: Callable[[], bool] | None = None):
        self._view, self.kind, self.description = view, kind, description
        self._shown, self._enabled = shown, enabled or shown

    @property
    def shown(self) -> bool:
        """Whether the page shows this control now."""
        return bool(self._shown())

    @property
    def disabled(self) -> bool:
        """Whether the control is greyed out now (shown but not usable)."""
        return not self._enabled()

    def click(self) -> None:
        """Press it, as in the page."""
        view = self._view
        handler = view._controls[self.kind]
        view.guard(handler)({"paused": not view.paused} if self.kind == "pause" else {})

    def __repr__(self) -> str:
        return f"Control({self.description!r}, shown={self.shown}, disabled={self.disabled})"
