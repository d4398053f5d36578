"""Lesson 12's lab ("Finish my sentence"): the class's next-word model and the page's steps.

:class:`LanguageLab` holds one :class:`~tokens_edu.lab.language.NextWordModel` (context 2) that
has learned the kit's sentences (:func:`~tokens_edu.lab.sentences.kit_sentences`) and the
class's shared sentences (those the teacher has not hidden). A lesson shows its parts in its own
cells, in this order:

- :attr:`LanguageLab.tokens_view` (:class:`~tokens_edu.widgets.language_guess.TokenView`): a
  sentence cut into tokens;
- :attr:`LanguageLab.guess_view` (:class:`~tokens_edu.widgets.language_guess.NextWordGuess`): pick a context, guess the next token,
  then see the count table and its chances (each guess is saved before the reveal);
- :attr:`LanguageLab.class_view` (:class:`~tokens_edu.widgets.class_sentences.ClassSentences`): the
  class writes sentences; the model learns them and the bars change;
- :attr:`LanguageLab.write_view` (:class:`~tokens_edu.widgets.language_write.WritingLab`): write
  with the model, one token at a time, the student or the dice picking, with a "surprise" control;
- :attr:`LanguageLab.made_up_view` and :attr:`LanguageLab.copy_view`
  (:mod:`tokens_edu.widgets.language_write`): a fluent sentence that is false, and a private
  sentence repeated word for word.

When the class's sentences change (:meth:`LanguageLab.refresh`), the model is learned again from
the kit's sentences and the visible class sentences, and every part redraws. Each part works
without saving too (``session=None``), as in a notebook.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import ipywidgets as widgets

from ..lab.language import NextWordModel
from ..lab.sentences import kit_sentences
from .class_sentences import ClassSentences
from .language_guess import NextWordGuess, TokenView
from .language_write import CopyDemo, MadeUpDemo, WritingLab
from .who import ensure_student, name_box

__all__ = ["LanguageLab", "LESSON"]

log = logging.getLogger(__name__)

#: The lesson's name, as its sentences are saved.
LESSON = "12-finish-my-sentence"


class LanguageLab:
    """Lesson 12's lab: the class's model and the page's parts (see the module's docs).

    Args:
        session: the page's :class:`~tokens_edu.session.PageSession` (guesses and sentences are
            saved through it), or None to save nothing.
        context: how many tokens the model looks at (lesson 12: 2).
        seed: the start of the dice's seeds (the same seed, the same rolls).

    Attributes:
        session, model (the :class:`NextWordModel`), kit (the kit's sentences), class_sentences
        (the visible class sentences learned, a list of dicts ``id``, ``text``), seed.
        tokens_view, guess_view, class_view, write_view, made_up_view, copy_view: the parts.
    """

    def __init__(self, session=None, context: int = 2, seed: int = 12):
        self.session = session
        self.seed = seed
        self.kit = kit_sentences()
        self.class_sentences: list[dict] = []
        self.model = NextWordModel(context).learn(self.kit)
        self._listeners: list[Callable[[], None]] = []
        self.tokens_view = TokenView()
        self.guess_view = NextWordGuess(self)
        self.class_view = ClassSentences(self)
        self.write_view = WritingLab(self)
        self.made_up_view = MadeUpDemo(self)
        self.copy_view = CopyDemo(self)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after the model learned again (:meth:`relearn`)."""
        self._listeners.append(callback)

    def relearn(self, sentences: list[dict]) -> None:
        """Learn again from the kit's sentences and ``sentences`` (the visible class sentences,
        dicts with ``id`` and ``text``), then redraw every part. A hidden sentence is gone from
        the counts after this."""
        model = NextWordModel(self.model.context).learn(self.kit)
        model.learn([s["text"] for s in sentences])
        self.model = model
        self.class_sentences = list(sentences)
        for callback in self._listeners:
            try:
                callback()
            except Exception:  # one part failing to redraw must not stop the others
                log.exception("LanguageLab: a part did not redraw")

    def save_response(self, key: str, answer: str, kind: str = "prediction", correct: bool | None = None,
                      box: widgets.Text | None = None) -> str | None:
        """Save one response (a guess, a pick) through the session; None without a session.

        Raises:
            ValueError: no name yet, or the store refused (plain words).
        """
        if self.session is None:
            return None
        writer = ensure_student(self.session, box)
        return self.session.store.responses.save(writer, self.session.lesson, key, answer, kind=kind,
                                                 correct=correct)

    def name_box(self) -> widgets.Text | None:
        """A hidden name box for a part that saves (see :func:`tokens_edu.widgets.who.name_box`)."""
        return name_box(self.session)
