"""Lesson 12's first steps: a sentence cut into tokens (:class:`TokenView`), and a guess of the
next token before its count table is shown (:class:`NextWordGuess`); also the helpers the other
parts of the lab share (:func:`guarded`, :func:`say`).

The parts take the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab` (``lab``): its
``model``, ``save_response``, ``name_box`` and ``on_change``.

Stable CSS classes: ``tokens-lm`` (each part), ``tokens-lm-text``, ``tokens-lm-chips``,
``tokens-lm-context``, ``tokens-lm-own-context``, ``tokens-lm-guess-box``, ``tokens-lm-reveal``,
``tokens-lm-result``, ``tokens-lm-table``, ``tokens-lm-message``.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

import ipywidgets as widgets

from ..lab.language import tokens
from ..present.language import chance_table, percent, quote, token_chips

__all__ = ["TokenView", "NextWordGuess", "MESSAGES", "CONTEXTS", "guarded", "say"]

log = logging.getLogger(__name__)

#: The contexts a student can pick in the guessing step (two tokens each, all in the kit's sentences).
CONTEXTS = ("a chatbot", "my dog", "like to", "cap of", "the computer")

#: What the lab says, in a student's words (the readability test measures these; ``{x}`` is
#: filled with a word or a number).
MESSAGES = {
    "guess_first": "Type your guess first. Then show the counts.",
    "one_word": "Guess one token: one word or one mark.",
    "pick_context": "Pick two words, or type your own.",
    "right": "You got it! {guess} is the most likely next token.",
    "close": "{guess} came {times} of {total} times: a {chance} chance. It was not the top one.",
    "never": "{guess} never came after these words. Its chance is 0.",
    "guessed": "You guessed {guess}.",
    "backed_off": "The model never saw anything after {wanted}. So it looks at fewer words: {used}.",
    "not_saved": "Your guess was not saved: {why}",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def say(box: widgets.HTML, text: str, bad: bool = False) -> None:
    box.value = f'<p style="color:{_RED if bad else _GREEN};margin:4px 0">{_e(text)}</p>'


def guarded(owner: str, message: widgets.HTML, fn: Callable) -> Callable:
    """``fn`` for a button's on_click: an error shows one plain line in ``message`` (on Voila an
    error in a callback shows nowhere) and is logged."""
    def run(*args):
        try:
            fn(*args)
        except Exception:
            log.exception("%s: a click failed", owner)
            say(message, MESSAGES["error"], bad=True)
    return run


class TokenView(widgets.VBox):
    """Type a sentence; see its tokens (step 1 of lesson 12).

    Args:
        text: the sentence shown first.

    Attributes:
        text_box (Text), chips (HTML: the tokens as boxes, numbered).
    """

    def __init__(self, text: str = "The moon isn't made of cheese!"):
        self.text_box = widgets.Text(value=text, description="Your sentence:", continuous_update=True,
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="min(100%, 560px)"))
        self.text_box.add_class("tokens-lm-text")
        self.chips = widgets.HTML()
        self.text_box.observe(lambda _change: self.redraw(), names="value")
        super().__init__([self.text_box, self.chips])
        self.add_class("tokens-lm")
        self.redraw()

    def redraw(self) -> None:
        """Show the tokens of what is in the box (at most the first 60)."""
        self.chips.value = token_chips(tokens(self.text_box.value[:600])[:60])


class NextWordGuess(widgets.VBox):
    """Pick a context, guess the next token, then see the count table (steps 2 and 3 of lesson 12).

    The table for a context stays hidden until the student has typed a guess for it and pressed
    **Show the counts**; the guess is saved then (a response of kind ``"prediction"`` under the
    key ``Next word after “...”``, ``correct`` when it is the most likely token). A context
    already revealed shows its table again when picked again, with the counts of now.

    Args:
        lab: the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab`.

    Attributes:
        context_pick (Dropdown of :data:`CONTEXTS` and "my own words"), own_context (Text),
        guess_box (Text), reveal_button, result (HTML: the verdict and the table), message
        (HTML), revealed (dict: context tokens -> the guess), saved_ids.
    """

    OWN = "my own words"

    def __init__(self, lab):
        self.lab = lab
        self.revealed: dict[tuple, str] = {}
        self.saved_ids: list[str] = []
        self.context_pick = widgets.Dropdown(options=[*(quote(c) for c in CONTEXTS), self.OWN],
                                             description="Words before:", style={"description_width": "initial"},
                                             layout=widgets.Layout(width="auto"))
        self.context_pick.add_class("tokens-lm-context")
        self.own_context = widgets.Text(placeholder="type one or two words", layout=widgets.Layout(
            width="min(100%, 220px)", display="none"))
        self.own_context.add_class("tokens-lm-own-context")
        self.guess_box = widgets.Text(placeholder="one word", description="Your guess for the next token:",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="min(100%, 360px)"))
        self.guess_box.add_class("tokens-lm-guess-box")
        self.reveal_button = widgets.Button(description="Show the counts", button_style="primary", icon="eye")
        self.reveal_button.add_class("tokens-lm-reveal")
        self.message = widgets.HTML()
        self.message.add_class("tokens-lm-message")
        self.result = widgets.HTML()
        self.result.add_class("tokens-lm-result")
        self._name = lab.name_box()
        self.reveal_button.on_click(guarded("NextWordGuess", self.message, lambda _b: self.reveal()))
        self.context_pick.observe(self._on_context, names="value")
        self.own_context.observe(self._on_context, names="value")
        row = widgets.HBox([self.context_pick, self.own_context], layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([row, *([self._name] if self._name else []), widgets.HBox(
            [self.guess_box, self.reveal_button], layout=widgets.Layout(flex_flow="row wrap")),
            self.message, self.result])
        self.add_class("tokens-lm")
        lab.on_change(self.redraw)

    # -- what is picked -----------------------------------------------------------------------------
    @property
    def context(self) -> tuple:
        """The context picked: the tokens of the dropdown's choice or of the student's own words
        (the last 2), ``()`` when there are none."""
        if self.context_pick.value == self.OWN:
            words = tokens(self.own_context.value[:200])
        else:
            words = tokens(self.context_pick.value.strip("“”"))
        return tuple(words[-self.lab.model.context:])

    def _on_context(self, _change=None) -> None:
        own = self.context_pick.value == self.OWN
        self.own_context.layout.display = "" if own else "none"
        self.guess_box.value = self.revealed.get(self.context, "")
        self.message.value = ""
        self.redraw()

    # -- the reveal ---------------------------------------------------------------------------------
    def reveal(self, guess: str | None = None) -> bool:
        """Show the count table for the picked context, if the student has guessed.

        Args:
            guess: the guess (None: what is in the guess box).

        Returns:
            bool: True when the table is shown; False when a guess or a context is missing (the
            message says which) and nothing is shown.
        """
        context = self.context
        if not context:
            say(self.message, MESSAGES["pick_context"], bad=True)
            return False
        words = tokens(self.guess_box.value if guess is None else guess)
        if not words:
            say(self.message, MESSAGES["guess_first"], bad=True)
            return False
        if len(words) > 1:
            say(self.message, MESSAGES["one_word"], bad=True)
            return False
        self.revealed[context] = words[0]
        self.message.value = ""
        self.redraw()
        self._save(context, words[0])
        return True

    def _save(self, context: tuple, guess: str) -> None:
        prediction = self.lab.model.next_words(context)
        top = prediction[0][1] if prediction else 0
        correct = any(t == guess and p == top for t, p in prediction)
        try:
            saved = self.lab.save_response(f"Next word after {quote(context)}", guess, "prediction", correct,
                                           self._name)
        except ValueError as e:  # no name yet, saving too often, the store is down: say so, go on
            self.message.value = (f'<p style="color:#555;font-size:13px;margin:2px 0">'
                                  f'{_e(MESSAGES["not_saved"].format(why=e))}</p>')
            return
        if saved:
            self.saved_ids.append(saved)

    def redraw(self) -> None:
        """Draw the table of the picked context when it was revealed (else nothing)."""
        context = self.context
        guess = self.revealed.get(context)
        if guess is None:
            self.result.value = ""
            return
        model = self.lab.model
        prediction = model.next_words(context)
        said = [MESSAGES["guessed"].format(guess=quote(guess))]
        if prediction.backed_off:
            said.append(MESSAGES["backed_off"].format(wanted=quote(context), used=quote(prediction.context)))
        top = prediction[0][1]
        chance = dict(prediction).get(guess, 0.0)
        if chance and chance == top:
            verdict, good = MESSAGES["right"].format(guess=quote(guess)), True
        elif chance:
            verdict, good = MESSAGES["close"].format(guess=quote(guess), times=prediction.counts[guess],
                                                     total=prediction.total, chance=percent(chance)), False
        else:
            verdict, good = MESSAGES["never"].format(guess=quote(guess)), False
        lines = "".join(f'<p style="margin:2px 0">{_e(s)}</p>' for s in said)
        self.result.value = (f'{lines}<p style="margin:2px 0;color:{_GREEN if good else "#8a4b00"}">'
                             f'<strong>{_e(verdict)}</strong></p>'
                             + chance_table(prediction.counts, prediction.context, guess=guess))
