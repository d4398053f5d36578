"""The "Why can't I?" pane: type a move, click Explain, read which rule allows or forbids it.

It asks the game (``game.explain``) for the player to act, and only when the page's viewer is
that player: under a hot-seat cover, or on the computer's move, it answers without reading a
hand. Under the cover it is emptied (what the last player typed may name their cards).

CSS classes: ``tokens-pane-explain`` (the pane), ``tokens-explain-text`` (the text box),
``tokens-explain`` (the button), ``tokens-explain-answer``.
"""

from __future__ import annotations

import ipywidgets as widgets

from ...present.faces import plain
from . import Pane, esc

__all__ = ["ExplainPane"]


class ExplainPane(Pane):
    """"Why can't I?": explain a typed move for the player to act.

    Attributes:
        text: the ``Text`` box. button: Explain. out: the ``HTML`` answer.
    """

    key = "explain"
    title = "Why can't I?"

    def __init__(self, view):
        super().__init__(view)
        self._quiet = False
        self.text = widgets.Text(placeholder="e.g. task Neural Network", description="Move:",
                                 continuous_update=False, style={"description_width": "initial"})
        self.text.add_class("tokens-explain-text")
        self.button = widgets.Button(description="Explain", tooltip="Explain whether this move is allowed now")
        self.button.add_class("tokens-explain")
        self.button.on_click(view.guard(self.explain))
        self.text.observe(view.guard(self._on_text), names="value")
        self.out = widgets.HTML()
        self.out.add_class("tokens-explain-answer")
        self.box = widgets.VBox([
            widgets.HTML("<b>Why can't I?</b> Type a move, then click Explain."),
            widgets.HBox([self.text, self.button]), self.out])

    def _on_text(self, _change) -> None:
        if not self._quiet:
            self.explain()

    def explain(self, _button=None) -> None:
        """Answer for the typed move (what Explain and Enter do)."""
        text = (self.text.value or "").strip()[:200]
        match = self.view.match
        self.drawn_for = match.viewer()
        if not text:
            self.out.value = "<i>Type a move first, for example: task Neural Network</i>"
            return
        if match.game.over:
            answer = "The game is over, so no move can be made."
        elif match.bot_to_act():
            answer = "It's the computer's move now. Ask again on your turn."
        elif match.viewer() is None:
            answer = "Show your cards first (the button on the table), then ask."
        else:
            answer = match.game.explain(text)
        self.out.value = f"<b>{esc(text)}</b>: {esc(plain(answer))}"

    def draw(self, page) -> None:
        if page.covered:
            self.clear()

    def clear(self) -> None:
        self._quiet = True
        try:
            self.text.value = ""
        finally:
            self._quiet = False
        self.out.value = ""
