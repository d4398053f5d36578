"""The prediction box: predict first, then press "Check my prediction" to see the answer.

Voila shows every cell of a lesson at once, so an answer written in the lesson's prose would be
on the page before the student has guessed. A :class:`PredictionBox` keeps the answer in the
kernel only (a plain Python attribute, never a widget trait), so it is in no widget state the
browser receives until the student presses **Check my prediction**. Only then is it copied
into the box's ``result`` HTML.

The student first picks one of the choices (or types a guess when there are no choices);
pressing the button with no guess says so in plain words and shows nothing. After the answer is
shown, the guess is locked, so what the student predicted stays on the page beside the answer.

With a ``session``, the guess is saved when it is checked, under the page's student
(:mod:`tokens_edu.widgets.who`) (a response of kind ``"prediction"``,
with ``correct`` when the question has a right answer), so the teacher's dashboard shows how
the class predicted beside the Discuss answers. A guess that cannot be saved still shows the
answer, with a short grey line saying why it was not saved.

Stable CSS classes for browser tests and styling: ``tokens-predict`` (the whole box),
``tokens-predict-question``, ``tokens-predict-choices``, ``tokens-predict-guess``,
``tokens-predict-check``, ``tokens-predict-result``.

Example::

    PredictionBox("Neural Network (CAP 4) Audits Explainability (TRU 3). What happens?",
                  choices=["Explainability is knocked out", "Both survive"],
                  correct="Explainability is knocked out",
                  answer="4 Flags reach its TRU of 3, so Explainability is Deprecated.")
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence

import ipywidgets as widgets

from .who import given_session, journal_alias, save_response

__all__ = ["PredictionBox", "MESSAGES"]

log = logging.getLogger(__name__)

#: Every sentence the box itself says (the lesson gives the question and the answer).
MESSAGES = {
    "button": "Check my prediction",
    "pick": "Pick your guess first. Then check it.",
    "type": "Type your guess first. Then check it.",
    "right": "You got it!",
    "wrong": "Not this time. That's how we learn!",
    "guess": "You guessed:",
    "error": "Sorry, the answer did not load. Ask your teacher.",
    "not_saved": "Your guess was not saved:",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


class PredictionBox(widgets.VBox):
    """A question, the student's guess, and an answer that stays hidden until checked.

    Args:
        question: what to predict (plain text, shown escaped).
        answer: the explanation shown after the check (plain text; blank lines start new
            paragraphs). Kept in the kernel only until then.
        choices: the guesses to pick from (two or more distinct strings); None or empty
            gives a text box to type a guess instead.
        correct: which choice is right (one of ``choices``), or None when any guess is fine
            (an opinion, or a count the answer explains). Never sent to the page before the
            check.
        session: the page's :class:`~tokens_edu.session.PageSession`, to save the guess in when
            it is checked; None saves nothing. ``journal=`` is its old name (a DeprecationWarning
            until tokens-edu 0.4.0).
        key: the question's id in the lesson (the same each time; the teacher's dashboard shows it);
            None uses the question's words (at most 200 characters).

    Attributes:
        question_html: the ``HTML`` with the question.
        choice_buttons: the ``RadioButtons`` of choices (value None until picked), or None.
        guess_box: the ``Text`` to type a guess in (when there are no choices), or None.
        check_button: the **Check my prediction** ``Button``.
        result: the ``HTML`` that is empty until the check, then shows the answer.
        revealed: True once the answer is shown.
        saved_id: the id of the saved guess, or None.

    Raises:
        ValueError: an empty question or answer, fewer than two choices or repeated ones, or a
            ``correct`` that is not one of the choices. Nothing is shown.
    """

    journal = journal_alias()

    def __init__(self, question: str, answer: str, choices: Sequence[str] | None = None,
                 correct: str | None = None, session=None, key: str | None = None, *, journal=None,
                 **kwargs):
        session = given_session(session, journal, "PredictionBox")
        question = " ".join(str(question).split())
        answer = str(answer).strip()
        choices = [str(c) for c in (choices or [])]
        if not question:
            raise ValueError("A prediction needs a question.")
        if not answer:
            raise ValueError("A prediction needs an answer to show after the check.")
        if choices and (len(choices) < 2 or len(set(choices)) != len(choices)):
            raise ValueError("Give two or more different choices, or none for a typed guess.")
        if correct is not None and correct not in choices:
            raise ValueError(f"The correct answer {correct!r} is not one of the choices {choices}.")
        # kept in Python only: plain attributes are never synced to the browser
        self._answer = answer
        self._correct = correct
        self.revealed = False
        self.session = session
        self.key = str(key).strip() if key is not None and str(key).strip() else question[:200]
        self.saved_id: str | None = None

        self.question_html = widgets.HTML(
            f'<p style="font-size:16px;margin:4px 0"><strong>Predict:</strong> {html.escape(question)}</p>')
        self.question_html.add_class("tokens-predict-question")
        self.choice_buttons: widgets.RadioButtons | None = None
        self.guess_box: widgets.Text | None = None
        if choices:
            self.choice_buttons = widgets.RadioButtons(options=choices, value=None,
                                                       layout=widgets.Layout(width="auto"))
            self.choice_buttons.add_class("tokens-predict-choices")
            guess_widget = self.choice_buttons
        else:
            self.guess_box = widgets.Text(placeholder="Type your guess", continuous_update=True,
                                          layout=widgets.Layout(width="min(100%, 420px)"))
            self.guess_box.add_class("tokens-predict-guess")
            guess_widget = self.guess_box
        self.check_button = widgets.Button(description=MESSAGES["button"], button_style="primary",
                                           layout=widgets.Layout(width="auto"))
        self.check_button.add_class("tokens-predict-check")
        self.check_button.on_click(self._on_check)
        self.result = widgets.HTML("")
        self.result.add_class("tokens-predict-result")
        super().__init__([self.question_html, guess_widget, widgets.HBox([self.check_button]), self.result],
                         layout=kwargs.pop("layout", widgets.Layout(
                             border="1px solid #9aa7b8", padding="6px 10px", margin="8px 0")),
                         **kwargs)
        self.add_class("tokens-predict")

    @property
    def guess(self) -> str:
        """The student's guess so far ("" when none)."""
        if self.choice_buttons is not None:
            return self.choice_buttons.value or ""
        return " ".join(self.guess_box.value.split()) if self.guess_box is not None else ""

    def check(self) -> bool:
        """Show the answer if the student has guessed (what the button does).

        Returns:
            bool: True when the answer is now shown; False when there is no guess yet (the
            result line then asks for one and nothing else changes).
        """
        guess = self.guess
        if not guess:
            key = "pick" if self.choice_buttons is not None else "type"
            self.result.value = f'<p style="color:{_RED};margin:4px 0">{html.escape(MESSAGES[key])}</p>'
            return False
        verdict = ""
        if self._correct is not None:
            ok = guess == self._correct
            verdict = (f'<strong style="color:{_GREEN if ok else _RED}">'
                       f'{html.escape(MESSAGES["right" if ok else "wrong"])}</strong> ')
        paragraphs = "".join(f'<p style="margin:4px 0">{html.escape(" ".join(p.split()))}</p>'
                             for p in self._answer.split("\n\n") if p.strip())
        self.result.value = (
            '<div style="font-size:15px;line-height:1.45;background:#f3f6fa;padding:6px 10px;'
            f'border-radius:6px"><p style="margin:4px 0">{verdict}{html.escape(MESSAGES["guess"])} '
            f'<em>{html.escape(guess)}</em></p>{paragraphs}</div>')
        if self.choice_buttons is not None:
            self.choice_buttons.disabled = True
        if self.guess_box is not None:
            self.guess_box.disabled = True
        self.check_button.disabled = True
        self.revealed = True
        self._save(guess)
        return True

    def _save(self, guess: str) -> None:
        """Save the checked guess in the session's store (when there is one); never raises."""
        if self.session is None:
            return
        correct = None if self._correct is None else guess == self._correct
        try:
            self.saved_id = save_response(self.session, self.key, guess, "prediction", correct)
        except ValueError as e:  # no name yet, saving too often, the store is down: say so, go on
            log.info("PredictionBox: guess not saved: %s", e)
            self.result.value += (f'<p style="color:#555;font-size:13px;margin:2px 0">'
                                  f'{html.escape(MESSAGES["not_saved"])} {html.escape(str(e))}</p>')
        except Exception:
            log.exception("PredictionBox: saving the guess failed")

    def _on_check(self, _button=None) -> None:
        try:
            self.check()
        except Exception:  # on Voila an error in a callback shows nowhere: say something
            log.exception("PredictionBox: could not show the answer")
            self.result.value = f'<p style="color:{_RED}">{html.escape(MESSAGES["error"])}</p>'

    def __repr__(self) -> str:
        state = "answer shown" if self.revealed else "answer hidden"
        return f"<PredictionBox {self.question_html.value[:40]!r}... ({state})>"
