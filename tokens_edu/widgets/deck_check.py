"""The deck checker: type a deck list, press "Check my deck", read what is wrong in plain words.

``DeckCheck()`` shows a box for a deck list (one card a line, ``2x Chatbot`` allowed) and a
button. The check is the engine's own (:meth:`tokens_edu.Deck.from_text` and
:meth:`tokens_edu.Deck.problems`, the deck rule R1): at least 25 cards, 1 or 2 colors (cards of
color ``any`` fit every deck), at most 2 copies of a card. The answer lists every problem at
once, or says the deck is legal with its size and colors. It is a view only: no rule lives here.

Stable CSS classes: ``tokens-deck-check`` (the whole box), ``tokens-deck-text``,
``tokens-deck-check-button``, ``tokens-deck-result``.
"""

from __future__ import annotations

import html
import logging

import ipywidgets as widgets

from ..content.decks import Deck
from ..errors import DeckError

__all__ = ["DeckCheck", "EXAMPLE_DECK"]

log = logging.getLogger(__name__)

#: A start for students to change: 24 cards, so the first check says what is missing.
EXAMPLE_DECK = """2x Chatbot
2x Not Alive
2x The Human Trainer
2x Built-in AI
2x Human-in-the-Loop
2x Python
2x Abstraction
2x Classifier
2x Predictor
2x Recommender
2x Decision Tree
2x Feature Vector
"""

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _sentence(text: str) -> str:
    """``text`` ending with a full stop (or its own ? or !)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class DeckCheck(widgets.VBox):
    """A deck list to edit and a button that says whether the deck is legal, and why not.

    Args:
        text: the deck list to start with (default :data:`EXAMPLE_DECK`, 24 cards: one short).

    Attributes:
        text_box: the ``Textarea`` with the deck list.
        check_button: the **Check my deck** ``Button``.
        result: the ``HTML`` with the answer (empty until the first check).
        deck: the last :class:`~tokens_edu.Deck` that could be read, or None.
    """

    def __init__(self, text: str = EXAMPLE_DECK, **kwargs):
        self.deck: Deck | None = None
        self.text_box = widgets.Textarea(value=text, placeholder="One card a line, like: 2x Chatbot",
                                         continuous_update=False,
                                         layout=widgets.Layout(width="min(100%, 420px)", height="16em"))
        self.text_box.add_class("tokens-deck-text")
        self.check_button = widgets.Button(description="Check my deck", button_style="primary",
                                           layout=widgets.Layout(width="auto"))
        self.check_button.add_class("tokens-deck-check-button")
        self.check_button.on_click(self._on_check)
        self.result = widgets.HTML("")
        self.result.add_class("tokens-deck-result")
        super().__init__([self.text_box, widgets.HBox([self.check_button]), self.result], **kwargs)
        self.add_class("tokens-deck-check")

    def check(self) -> bool:
        """Check the deck in the box and show the answer (what the button does).

        Returns:
            bool: True when the deck is legal.
        """
        text = self.text_box.value
        if not text.strip():
            return self._show(False, ["The box is empty. Write one card a line, like: 2x Chatbot."])
        try:
            deck = Deck.from_text(text)
        except DeckError as e:
            self.deck = None
            return self._show(False, [f"A line I can't read: {_sentence(p)}" for p in e.problems])
        self.deck = deck
        problems = deck.problems()
        if problems:
            return self._show(False, [_sentence(p[0].upper() + p[1:]) for p in problems])
        colors = " and ".join(deck.colors) or "no color"
        return self._show(True, [f"A legal deck: {_plural(len(deck), 'card')}, {colors}."])

    def _show(self, ok: bool, lines: list[str]) -> bool:
        head = "Ready to play!" if ok else "Not legal yet:"
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        self.result.value = (f'<div style="font-size:15px;color:{_GREEN if ok else _RED}">'
                             f"<strong>{head}</strong><ul style=\"margin:4px 0\">{items}</ul></div>")
        return ok

    def _on_check(self, _button=None) -> None:
        try:
            self.check()
        except Exception:  # on Voila an error in a callback shows nowhere: say something
            log.exception("DeckCheck: the check failed")
            self.result.value = (f'<span style="color:{_RED}">Sorry, I could not check this deck. '
                                 "Try again.</span>")
