"""The Discuss box: a card, its Discuss question, a place to write an answer, and a Save button.

``DiscussBox(card, journal)`` shows the card, asks its Discuss question and saves what the
student writes in a :class:`~tokens_edu.journal.Journal`. Open the same card again later (same
student, same lesson) and the saved answer is back in the box.

Who is writing:

* on JupyterHub (``JUPYTERHUB_USER`` set) the name is the login; the name box shows it, locked;
* otherwise a name box comes first, prefilled from the page's ``?student=`` query; the student
  fills it in before saving. Under it a short line says that this name is not a password.

Whose saved answer comes back: only the page's own. The page's identity is the JupyterHub login,
else the name the journal was given in code, else the page's ``?student=`` query. A name typed
in the name box is used for saving, but typing a classmate's name never pulls their saved answer
into the box (anyone can type any name; for privacy, teachers use JupyterHub logins).

Answers are at most :data:`~tokens_edu.journal.MAX_ANSWER` characters (5,000): past 4,000 a
counter under the box shows how many are used, and past the limit it says, in red, to make the
answer shorter; Save then refuses with the same plain words and keeps the text.

Nothing a student writes is lost: a failed save keeps the words in the box, says so in plain
words, and a retry reuses the same answer id, so a save that did reach the database is never
stored twice. Every callback catches its own errors (on Voila an error in a callback shows
nowhere), shows a friendly line and logs the detail. Everything typed is shown escaped.

Stable CSS classes for browser tests and styling: ``tokens-discuss`` (the whole box),
``tokens-discuss-name``, ``tokens-discuss-name-note``, ``tokens-discuss-answer``,
``tokens-discuss-count``, ``tokens-discuss-save``, ``tokens-discuss-status``.
"""

from __future__ import annotations

import html
import logging
import uuid
from datetime import datetime

import ipywidgets as widgets

from ..cards import Card, load_cards
from ..journal import MAX_ANSWER, too_long_message

__all__ = ["DiscussBox"]

log = logging.getLogger(__name__)

_OK = "#1d5e20"
_BAD = "#8a1c1c"

#: The character counter under the answer box appears past this many characters.
COUNT_FROM = 4000

NAME_NOTE = ("This name is not a password: anyone can type any name. Your saved answer comes "
             "back only on your own lesson link.")


def _card_html(card: Card) -> str:
    """The card drawn as HTML (``card._repr_html_()``); a plain name + question if drawing fails."""
    try:
        return card._repr_html_()
    except Exception:  # render.py missing or broken: the question must still be asked
        log.warning("Could not draw card %r; showing its name only.", card.name, exc_info=True)
        return (f'<div class="tokens-discuss-card-plain"><strong>{html.escape(card.name)}</strong>'
                f"<br>{html.escape(card.discuss)}</div>")


def _resolve_card(card: object) -> Card:
    """A Card from a Card or a card name; ValueError (the CardPool's message) when unknown."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        pool = load_cards()
        found = pool.get_card(card)
        if found is None:
            raise ValueError(pool.unknown_message(card))
        return found
    raise ValueError("DiscussBox needs a card or a card's name.")


class DiscussBox(widgets.VBox):
    """A card's Discuss question with an answer box that saves to a :class:`Journal`.

    Args:
        card: a :class:`~tokens_edu.cards.Card` or a card's name (any case).
        journal: the :class:`~tokens_edu.journal.Journal` to save in (its ``student`` and
            ``lesson`` say whose answer and where); None opens the default ``Journal()``.
        prompt: the question to ask instead of the card's own Discuss question (a notebook's
            own question about the card's idea); saved with each answer. None: the card's.
        **kwargs: passed to ``ipywidgets.VBox``.

    Attributes:
        card: the Card asked about.
        journal: the Journal answers go to.
        name_box: the ``Text`` for the student's name, or None when the journal already knows
            it (a locked JupyterHub login is shown in a disabled box).
        name_note: the ``HTML`` line under an editable name box ("This name is not a
            password..."), or None.
        own_name: the page's identity (login, the journal's name, or the ``?student=`` query;
            ``""`` when none): the only name whose saved answer is put back in the box.
        answer_box: the ``Textarea`` the student writes in.
        counter: the ``HTML`` under it: empty up to 4,000 characters, then "N of 5,000
            characters", red and "too long" past the limit.
        save_button: the Save ``Button``.
        status: the ``HTML`` line that says what happened ("Saved at 10:42.").
        last_saved_id: the id of the last answer saved from this box, or None.

    Raises:
        ValueError: an unknown card name (the message suggests close names), or the journal
            cannot be opened.
    """

    def __init__(self, card, journal=None, prompt: str | None = None, **kwargs):
        self.card = _resolve_card(card)
        if prompt is not None and (not isinstance(prompt, str) or not prompt.strip()):
            raise ValueError("A Discuss question must be some text.")
        self.prompt = prompt if prompt is not None else self.card.discuss
        if journal is None:
            from ..journal import Journal

            journal = Journal()
        self.journal = journal
        self.last_saved_id: str | None = None
        self._attempt: tuple[tuple, str] | None = None  # ((student, lesson, text), id)

        self.card_view = widgets.HTML(_card_html(self.card))
        self.card_view.add_class("tokens-discuss-card")
        self.question = widgets.HTML(
            f'<p style="font-size:16px;margin:6px 0"><strong>Discuss:</strong> '
            f"{html.escape(self.prompt or 'What do you think about this card?')}</p>")
        self.question.add_class("tokens-discuss-question")

        self.name_box: widgets.Text | None = None
        self.name_note: widgets.HTML | None = None
        self.own_name = journal.student or ""
        if journal.student_locked:
            self.name_box = widgets.Text(value=journal.student, description="Your name:",
                                         disabled=True)
        elif not journal.student:
            self.own_name = " ".join(self._query_name().split())
            self.name_box = widgets.Text(value=self.own_name, placeholder="Type your name",
                                         description="Your name:", continuous_update=False)
            self.name_box.observe(self._on_name, names="value")
            self.name_note = widgets.HTML(
                f'<span style="font-size:13px;color:#444">{html.escape(NAME_NOTE)}</span>')
            self.name_note.add_class("tokens-discuss-name-note")
        if self.name_box is not None:
            self.name_box.add_class("tokens-discuss-name")
            self.name_box.style.description_width = "initial"

        # continuous_update: the kernel always holds what is on screen, so a click on Save
        # right after typing saves exactly what was typed (messages arrive in order). Each
        # keystroke sends the whole text, which the MAX_ANSWER limit keeps small (<= ~20 KB).
        self.answer_box = widgets.Textarea(placeholder="Write your answer here.",
                                           continuous_update=True,
                                           layout=widgets.Layout(width="100%", height="7em"))
        self.answer_box.add_class("tokens-discuss-answer")
        self.counter = widgets.HTML("")
        self.counter.add_class("tokens-discuss-count")
        self.answer_box.observe(self._on_answer, names="value")
        self.save_button = widgets.Button(description="Save", button_style="primary",
                                          icon="save", tooltip="Save your answer")
        self.save_button.add_class("tokens-discuss-save")
        self.save_button.on_click(self._on_save)
        self.status = widgets.HTML("")
        self.status.add_class("tokens-discuss-status")

        children = [self.card_view, self.question]
        if self.name_box is not None:
            children.append(self.name_box)
        if self.name_note is not None:
            children.append(self.name_note)
        children += [self.answer_box, self.counter,
                     widgets.HBox([self.save_button, self.status])]
        super().__init__(children=children, **kwargs)
        self.add_class("tokens-discuss")
        self._safely("find your saved answer", self._load_saved)

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _query_name() -> str:
        """The ``?student=`` of the page ("" when none, or when it cannot be read)."""
        try:
            from ..journal import student_from_query

            return student_from_query()
        except Exception:
            log.warning("Could not read the page's query.", exc_info=True)
            return ""

    def _say(self, text: str, ok: bool = True) -> None:
        """Show ``text`` (escaped) in the status line, green when ``ok`` else red."""
        color = _OK if ok else _BAD
        self.status.value = f'<span style="color:{color}">{html.escape(text)}</span>' if text else ""

    def _safely(self, what: str, fn, *args) -> None:
        """Run ``fn``; a ValueError's plain message or a friendly line goes to the status line."""
        try:
            fn(*args)
        except ValueError as e:
            log.info("DiscussBox: %s: %s", what, e)
            self._say(str(e), ok=False)
        except Exception:
            log.exception("DiscussBox: could not %s", what)
            self._say(f"Sorry, I could not {what} just now. Your words are still here: "
                      "try again in a moment.", ok=False)

    def _typed_name(self) -> str:
        """The name to save under: the name box's text, else the journal's name ("" if none)."""
        if self.name_box is not None and not self.journal.student_locked:
            typed = " ".join(self.name_box.value.split())
            if typed:
                return typed
        return self.journal.student or ""

    def _count(self) -> None:
        """Update the counter under the answer box (empty while the answer is short)."""
        n = len(self.answer_box.value)
        if n > MAX_ANSWER:
            text = (f'<span style="color:{_BAD}">Too long: {n:,} of {MAX_ANSWER:,} characters. '
                    "Make it shorter to save.</span>")
        elif n > COUNT_FROM:
            text = f'<span style="color:#444">{n:,} of {MAX_ANSWER:,} characters</span>'
        else:
            text = ""
        if self.counter.value != text:  # one small message only when the words change
            self.counter.value = text

    def _load_saved(self) -> None:
        """Put the page's own latest saved answer in an empty answer box.

        Only for the page's identity (:attr:`own_name`): a classmate's name typed in the name
        box never brings their answer onto this page.
        """
        name = self._typed_name()
        if not name or name != self.own_name or self.answer_box.value.strip():
            return
        saved = self.journal._latest(name, self.card.name, self.journal.lesson)
        if saved is not None:
            self.answer_box.value = saved
            self._attempt = ((name, self.journal.lesson, saved), "")
            self._say("Here is the answer you saved before. You can change it and save again.")

    # -- actions ----------------------------------------------------------------------------
    def save(self) -> str:
        """Save what is in the answer box now, under the name given (what Save does).

        Returns:
            str: the saved answer's id (a UUID string).

        Raises:
            ValueError: no name yet, an empty answer, or the journal could not save; nothing
                is lost: the words stay in the box.
        """
        text = self.answer_box.value  # read at click time: exactly what is on screen
        name = self._typed_name()
        if not name:
            raise ValueError("Type your name first, then save.")
        if not text.strip():
            raise ValueError("Your answer is empty. Write a few words, then save.")
        if len(text) > MAX_ANSWER:
            raise ValueError(too_long_message(len(text)))
        if not self.journal.student_locked and name != self.journal.student:
            self.journal.student = name  # ValueError (too long...) changes nothing
        key = (self.journal.student, self.journal.lesson, text)
        if self._attempt is not None and self._attempt[0] == key and self._attempt[1]:
            answer_id = self._attempt[1]  # same words again (or a retry): never a second row
        else:
            answer_id = str(uuid.uuid4())
        self._attempt = (key, answer_id)
        saved_id = self.journal.save(self.card, text, prompt=self.prompt, answer_id=answer_id)
        self.last_saved_id = saved_id
        self._say(f"Saved at {datetime.now().strftime('%H:%M')}. Well done, {self.journal.student}!")
        return saved_id

    # -- callbacks (they never raise) -------------------------------------------------------
    def _on_save(self, _button=None) -> None:
        self._safely("save your answer", self.save)

    def _on_answer(self, change) -> None:
        self._safely("count the letters", self._count)

    def _on_name(self, change) -> None:
        self._safely("find your saved answer", self._load_saved)

    def __repr__(self) -> str:
        return f"<DiscussBox {self.card.name!r} for {self.journal.student or 'no name yet'!r}>"
