"""A lesson's exit question, and lesson 11's ethical matrix: short answers saved for the teacher.

:class:`ExitQuestion` asks one short question at the end of a lesson: pick one of a few choices
(with a right answer, shown after saving) or write a sentence (in the Discuss box's writing
area, :class:`~tokens_edu.widgets.discuss.AnswerBox`: Save saves what is shown, nothing typed is
lost). The answer is saved in the store as a response of kind ``"exit"`` under the question's
id, with ``correct`` when the question has a right answer, so the teacher's dashboard shows it
beside the Discuss answers. A saved answer comes back when the page is opened again.

:class:`EthicalMatrix` is a small table to fill in: who is affected by an AI (rows), what matters
to them and how the AI could help or hurt them (columns), then who should decide. It is saved as
one exit response.

Who is writing: see :mod:`tokens_edu.widgets.who` (the page session's student; when the page has no
name yet, a name box comes first, prefilled from ``?student=``; with a class roster the name
comes from the code, and saving before that says so).

Stable CSS classes: ``tokens-exit``, ``tokens-exit-question``, ``tokens-exit-choices``,
``tokens-exit-save``, ``tokens-exit-status``, ``tokens-exit-name``, ``tokens-matrix``,
``tokens-matrix-cell``, ``tokens-matrix-save``.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from datetime import datetime

import ipywidgets as widgets

from ..session import PageSession
from .browser import BrowserKey
from .discuss import AnswerBox
from .who import ensure_student, given_session, journal_alias, name_box, save_response, saved_response

__all__ = ["ExitQuestion", "EthicalMatrix", "MESSAGES"]

log = logging.getLogger(__name__)

#: What the boxes say, in a student's words (the readability test measures these).
MESSAGES = {
    "name": "Type your name first, then save.",
    "pick": "Pick an answer first. Then save.",
    "empty": "Your answer is empty. Write a few words, then save.",
    "saved": "Saved at {time}.",
    "back": "Here is the answer you saved before. You can change it and save again.",
    "right": "Saved. You got it!",
    "wrong": "Saved. Not quite: read the answer below.",
    "matrix_empty": "Fill in at least one box, then save.",
    "error": "Sorry, your answer could not be saved just now. It is still here: try again.",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


class _Named(widgets.VBox):
    """A box that knows who is writing: the session's student, or a name typed in it
    (:mod:`tokens_edu.widgets.who`)."""

    session: PageSession | None

    def _name_row(self, session) -> list:
        self.name_box = name_box(session)
        # the page says which browser it is once drawn: a typed name's saved work comes back then
        self.browser_key = BrowserKey(on_browser=self._on_browser) if session is not None else None
        return [w for w in (self.name_box, self.browser_key) if w is not None]

    def _on_browser(self, secret: str) -> None:
        """The page's front end told which browser this is: bring back the saved answer, unless
        the student has already started a new one."""
        if self.session.set_browser(secret) and not self._touched():
            self._load()

    def _touched(self) -> bool:
        """True when the student has typed or picked something on this page."""
        raise NotImplementedError

    def _check_name(self) -> None:
        ensure_student(self.session, self.name_box)

    journal = journal_alias()


class ExitQuestion(_Named):
    """One short question at the end of a lesson, saved for the teacher.

    Args:
        question: the question (plain text).
        session: the page's :class:`~tokens_edu.session.PageSession` (the answer is saved there
            as a response of its lesson); None: nothing is saved. ``journal=`` is its old name
            (a DeprecationWarning until tokens-edu 0.4.0).
        key: the question's id in the lesson (the same each time; the teacher's dashboard shows
            it); None uses the question's words (at most 200 characters).
        choices: two or more answers to pick from; None: a written answer.
        correct: the right choice (one of ``choices``), or None when any answer is fine.
        answer: what is shown after saving a choice (why the right answer is right); kept in the
            kernel until then, like a prediction's answer.

    Attributes:
        choice_buttons (RadioButtons or None), writer (the :class:`AnswerBox` or None),
        save_button (for choices), status (HTML), result (HTML, the answer after saving),
        last_saved_id.

    Raises:
        ValueError: an empty question or key, fewer than two or repeated choices, or a
            ``correct`` that is not a choice.
    """

    def __init__(self, question: str, session=None, key: str | None = None, choices: Sequence[str] | None = None,
                 correct: str | None = None, answer: str = "", *, journal=None):
        super().__init__()
        session = given_session(session, journal, "ExitQuestion")
        question = " ".join(str(question).split())
        choices = [str(c) for c in (choices or [])]
        if key is None:
            key = question[:200]
        if not question or not str(key).strip():
            raise ValueError("An exit question needs a question and an id.")
        if choices and (len(choices) < 2 or len(set(choices)) != len(choices)):
            raise ValueError("Give two or more different choices, or none for a written answer.")
        if correct is not None and correct not in choices:
            raise ValueError(f"The correct answer {correct!r} is not one of the choices.")
        self.add_class("tokens-exit")
        self.session, self.key, self.question = session, str(key), question
        self._correct, self._answer = correct, str(answer)
        self.last_saved_id: str | None = None
        head = widgets.HTML(f'<p style="font-size:16px;margin:6px 0"><strong>Exit question:</strong> '
                            f"{_e(question)}</p>")
        head.add_class("tokens-exit-question")
        self.status = widgets.HTML()
        self.status.add_class("tokens-exit-status")
        self.result = widgets.HTML()
        self.choice_buttons = self.save_button = self.writer = None
        children = [head, *self._name_row(session)]
        if choices:
            self.choice_buttons = widgets.RadioButtons(options=choices, value=None, layout=widgets.Layout(width="auto"))
            self.choice_buttons.add_class("tokens-exit-choices")
            self.save_button = widgets.Button(description="Save my answer", button_style="primary", icon="save")
            self.save_button.add_class("tokens-exit-save")
            self.save_button.on_click(self._on_save)
            children += [self.choice_buttons, widgets.HBox([self.save_button, self.status]), self.result]
        else:
            self.writer = AnswerBox(on_save=self._save_text, label=f"Your answer to: {question}",
                                    placeholder="Write one or two sentences.")
            children += [self.writer]
        self.children = children
        self._load()

    def _touched(self) -> bool:
        if self.writer is not None:
            return bool(self.writer.value.strip())
        return self.choice_buttons.value is not None

    def _load(self) -> None:
        try:
            saved = saved_response(self.session, self.key)
        except ValueError as e:  # JournalUnavailable: the page works without it
            log.info("ExitQuestion: saved answer not read: %s", e)
            return
        if saved is None:
            return
        if self.writer is not None:
            with self.writer.hold_sync():
                self.writer.value = saved.text
                self.writer.saved_text = saved.text
                self.writer.say(MESSAGES["back"], "info")
        elif saved.text in self.choice_buttons.options:
            self.choice_buttons.value = saved.text
            self.status.value = f'<span style="color:#444">{_e(MESSAGES["back"])}</span>'

    def save(self, text: str | None = None) -> str:
        """Save the answer (``text``; None: the picked choice or the written text).

        Returns:
            str: the response's id.

        Raises:
            ValueError: no name yet, no answer, or the store refused (plain words).
        """
        if text is None:
            text = (self.choice_buttons.value if self.choice_buttons is not None else self.writer.value) or ""
        if not text.strip():
            raise ValueError(MESSAGES["pick" if self.choice_buttons is not None else "empty"])
        correct = None if self._correct is None else text == self._correct
        self.last_saved_id = save_response(self.session, self.key, text, "exit", correct, self.name_box)
        return self.last_saved_id

    def _save_text(self, text: str) -> str:
        self.save(text)
        return MESSAGES["saved"].format(time=datetime.now().strftime("%H:%M:%S"))

    def _on_save(self, _button=None) -> None:
        try:
            self.save()
        except ValueError as e:
            self.status.value = f'<span style="color:{_RED}">{_e(e)}</span>'
            return
        except Exception:  # on Voila an error in a callback shows nowhere: say something
            log.exception("ExitQuestion: saving failed")
            self.status.value = f'<span style="color:{_RED}">{_e(MESSAGES["error"])}</span>'
            return
        if self._correct is None:
            line = MESSAGES["saved"].format(time=datetime.now().strftime("%H:%M:%S"))
        else:
            line = MESSAGES["right" if self.choice_buttons.value == self._correct else "wrong"]
        self.status.value = f'<span style="color:{_GREEN}">{_e(line)}</span>'
        if self._answer:
            self.result.value = (f'<div style="background:#f3f6fa;padding:6px 10px;border-radius:6px;'
                                 f'margin:4px 0">{_e(self._answer)}</div>')


class EthicalMatrix(_Named):
    """An ethical matrix to fill in: who is affected (rows) by what (columns), then who decides.

    Args:
        session: the page's :class:`~tokens_edu.session.PageSession` (``journal=``: its old
            name, with a DeprecationWarning). key: the response's id, as the teacher's dashboard shows
            it (e.g. ``"Ethical matrix: who is affected, who decides"``).
        who: the people affected, one row each. what: the column questions.
        decide: the last question (who should decide); "" for none.
        decision: a question that ends the matrix in a decision (e.g. "What should the company
            do now?"); "" for none. options: its choices (at least two), e.g. ship now, wait, or
            offer another way.

    Attributes:
        cells: dict ``(row, column)`` -> ``Text``. decide_box: the ``Text`` for the last
        question (or None). decision_buttons: the ``RadioButtons`` of the decision (or None).
        save_button, status.

    The whole table is saved as one exit response: one line per filled box ("Phone players |
    What matters to them? | ..."), the last answer, and the decision ("<decision> | <choice>").
    The decision is also saved on its own (key :attr:`decision_key`, kind ``"exit"``), so the
    teacher's Questions page counts the class's choices.
    """

    def __init__(self, session=None, key: str = "", who: Sequence[str] = (), what: Sequence[str] = (),
                 decide: str = "", *, journal=None, decision: str = "", options: Sequence[str] = ()):
        super().__init__()
        session = given_session(session, journal, "EthicalMatrix")
        self.add_class("tokens-matrix")
        self.session, self.key = session, str(key)
        self.who, self.what, self.decide = list(who), list(what), decide
        if not self.who or not self.what:
            raise ValueError("An ethical matrix needs at least one row and one column.")
        self.last_saved_id: str | None = None
        self.cells: dict[tuple[str, str], widgets.Text] = {}
        grid = widgets.GridspecLayout(len(self.who) + 1, len(self.what) + 1, width="100%")
        grid[0, 0] = widgets.HTML("<strong>Who is affected?</strong>")
        for j, col in enumerate(self.what):
            grid[0, j + 1] = widgets.HTML(f"<strong>{_e(col)}</strong>")
        for i, row in enumerate(self.who):
            grid[i + 1, 0] = widgets.HTML(f"{_e(row)}")
            for j, col in enumerate(self.what):
                box = widgets.Text(placeholder="a few words", layout=widgets.Layout(width="auto"))
                box.add_class("tokens-matrix-cell")
                self.cells[(row, col)] = box
                grid[i + 1, j + 1] = box
        self.decide_box = None
        self.decision, self.options = str(decision), [str(o) for o in options]
        if self.decision and len(self.options) < 2:
            raise ValueError("A decision needs at least two options.")
        self.decision_buttons = None
        children = [grid]
        if decide:
            self.decide_box = widgets.Textarea(placeholder="Write your answer", rows=2,
                                               layout=widgets.Layout(width="min(100%, 640px)"))
            self.decide_box.add_class("tokens-matrix-decide")
            children += [widgets.HTML(f'<p style="margin:6px 0"><strong>{_e(decide)}</strong></p>'), self.decide_box]
        if self.decision:
            self.decision_buttons = widgets.RadioButtons(options=self.options, value=None,
                                                         layout=widgets.Layout(width="auto"))
            self.decision_buttons.add_class("tokens-matrix-decision")
            children += [widgets.HTML(f'<p style="margin:6px 0"><strong>{_e(self.decision)}</strong></p>'),
                         self.decision_buttons]
        self.save_button = widgets.Button(description="Save my table", button_style="primary", icon="save")
        self.save_button.add_class("tokens-matrix-save")
        self.save_button.on_click(self._on_save)
        self.status = widgets.HTML()
        self.status.add_class("tokens-exit-status")
        self.children = [*self._name_row(session), *children, widgets.HBox([self.save_button, self.status])]
        self._load()

    @property
    def decision_key(self) -> str:
        """The key the decision is saved under on its own (at most 200 characters)."""
        return f"{self.key}: decision"[:200]

    def text(self) -> str:
        """The filled boxes as the text that is saved ("" when every box is empty and no
        decision is picked)."""
        lines = [f"{row} | {col} | {' '.join(box.value.split())}" for (row, col), box in self.cells.items()
                 if box.value.strip()]
        if self.decide_box is not None and self.decide_box.value.strip():
            lines.append(f"{self.decide} | {' '.join(self.decide_box.value.split())}")
        if self.decision_buttons is not None and self.decision_buttons.value:
            lines.append(f"{self.decision} | {self.decision_buttons.value}")
        return "\n".join(lines)

    def _touched(self) -> bool:
        return bool(self.text())

    def _load(self) -> None:
        try:
            saved = saved_response(self.session, self.key)
        except ValueError as e:  # JournalUnavailable: the page works without it
            log.info("EthicalMatrix: saved answer not read: %s", e)
            return
        if saved is None:
            return
        for line in saved.text.splitlines():
            # "row | column | words" (the words may hold " | " themselves), "decide | words"
            cell = next(((rc, line[len(f"{rc[0]} | {rc[1]} | "):]) for rc in self.cells
                         if line.startswith(f"{rc[0]} | {rc[1]} | ")), None)
            if cell is not None:
                self.cells[cell[0]].value = cell[1].strip()
            elif self.decide_box is not None and line.startswith(f"{self.decide} | "):
                self.decide_box.value = line[len(f"{self.decide} | "):].strip()
            elif (self.decision_buttons is not None and line.startswith(f"{self.decision} | ")
                  and line[len(f"{self.decision} | "):] in self.options):
                self.decision_buttons.value = line[len(f"{self.decision} | "):]
        self.status.value = f'<span style="color:#444">{_e(MESSAGES["back"])}</span>'

    def save(self) -> str:
        """Save the table. Returns the response's id.

        Raises:
            ValueError: every box empty, no name yet, or the store refused (plain words).
        """
        text = self.text()
        if not text:
            raise ValueError(MESSAGES["matrix_empty"])
        self.last_saved_id = save_response(self.session, self.key, text, "exit", box=self.name_box)
        if self.decision_buttons is not None and self.decision_buttons.value:
            save_response(self.session, self.decision_key, self.decision_buttons.value, "exit", box=self.name_box)
        return self.last_saved_id

    def _on_save(self, _button=None) -> None:
        try:
            self.save()
            self.status.value = (f'<span style="color:{_GREEN}">'
                                 f'{_e(MESSAGES["saved"].format(time=datetime.now().strftime("%H:%M:%S")))}</span>')
        except ValueError as e:
            self.status.value = f'<span style="color:{_RED}">{_e(e)}</span>'
        except Exception:  # on Voila an error in a callback shows nowhere: say something
            log.exception("EthicalMatrix: saving failed")
            self.status.value = f'<span style="color:{_RED}">{_e(MESSAGES["error"])}</span>'
