"""Lesson 12's class sentences: each student writes sentences, the class's model learns them,
and everyone sees the chances change (:class:`ClassSentences`).

A student writes a sentence (the box starts with "I like to", the start the bars watch) and
presses **Share with the class**. First :func:`~tokens_edu.lab.sentences.personal_details` looks
at it: a name, an address, a phone number or an email address gets a plain warning, and the
sentence is shared only after **Share it anyway** (or after the student changes it). A shared
sentence is saved with the student's name (the session's store: ``store.sentences.save``); the
class sees the sentences without names, and the teacher can hide one on the dashboard.

**Get the class's sentences** reads the class's visible sentences again, and the lab learns
again from the kit's sentences and those (:meth:`~tokens_edu.widgets.language_lab.LanguageLab.relearn`):
every part of the page redraws, and the table under the box shows what came after "like to",
each count the class added marked "+n new". Sharing does the same at once.

Without a session (a notebook), shared sentences stay in this kernel.

Stable CSS classes: ``tokens-lm`` (the part), ``tokens-lm-sentence``, ``tokens-lm-share``,
``tokens-lm-warning``, ``tokens-lm-anyway``, ``tokens-lm-get``, ``tokens-lm-watch``,
``tokens-lm-mine``, ``tokens-lm-message``.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..lab.language import tokens
from ..lab.sentences import personal_details
from ..present.language import chance_table, quote
from .language_guess import guarded, say
from .who import ensure_student

__all__ = ["ClassSentences", "MESSAGES", "WATCH", "START", "MAX_SENTENCE"]

#: The context whose table the class watches change.
WATCH = ("like", "to")
#: What the sentence box starts with.
START = "I like to "
#: Longest sentence shared (characters).
MAX_SENTENCE = 200

#: What the part says, in a student's words (the readability test measures these; ``{x}`` is
#: filled with a word or a number).
MESSAGES = {
    "empty": "Write a sentence first. Finish the start, or write your own.",
    "long": "That is too long. Keep it to one sentence of {most} letters or less.",
    "warn": "Stop and check before you share. Your class will see this sentence.",
    "shared": "Shared! The model learned your sentence. Look at the table below.",
    "new": "{n} new sentences from your class. The model learned them: look at the table.",
    "one_new": "1 new sentence from your class. The model learned it: look at the table.",
    "none_new": "No new sentences yet. Try again in a minute.",
    "count": "The model learned {kit} sentences from the kit and {class_} from your class.",
    "not_saved": "Your sentence was not shared: {why}",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


class ClassSentences(widgets.VBox):
    """The class writes sentences and the model learns them (step 4 of lesson 12; see the module).

    Args:
        lab: the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab`.

    Attributes:
        sentence_box (Text), share_button, warning (HTML), anyway_button (shown after a warning),
        get_button, watch (HTML: the table for :data:`WATCH`), mine (HTML: this page's shared
        sentences), message (HTML), pending (the sentence waiting for "Share it anyway", or
        None), shared (this page's shared sentences, in order), saved_ids.
    """

    def __init__(self, lab):
        self.lab = lab
        self.pending: str | None = None
        self.shared: list[str] = []
        self.saved_ids: list[str] = []
        self._local: list[dict] = []  # without a session: the sentences shared in this kernel
        self._kit_counts = dict(lab.model.counts(WATCH))
        self.sentence_box = widgets.Text(value=START, description="Your sentence:",
                                         style={"description_width": "initial"},
                                         layout=widgets.Layout(width="min(100%, 560px)"))
        self.sentence_box.add_class("tokens-lm-sentence")
        self.share_button = widgets.Button(description="Share with the class", button_style="primary",
                                           icon="share", layout=widgets.Layout(width="auto"))
        self.share_button.add_class("tokens-lm-share")
        self.warning = widgets.HTML()
        self.warning.add_class("tokens-lm-warning")
        self.anyway_button = widgets.Button(description="Share it anyway", button_style="warning",
                                            layout=widgets.Layout(width="auto", display="none"))
        self.anyway_button.add_class("tokens-lm-anyway")
        self.get_button = widgets.Button(description="Get the class's sentences", icon="refresh",
                                         layout=widgets.Layout(width="auto"))
        self.get_button.add_class("tokens-lm-get")
        self.message = widgets.HTML()
        self.message.add_class("tokens-lm-message")
        self.watch = widgets.HTML()
        self.watch.add_class("tokens-lm-watch")
        self.mine = widgets.HTML()
        self.mine.add_class("tokens-lm-mine")
        self._name = lab.name_box()
        self.share_button.on_click(guarded("ClassSentences", self.message, lambda _b: self.share()))
        self.anyway_button.on_click(guarded("ClassSentences", self.message, lambda _b: self.share(anyway=True)))
        self.get_button.on_click(guarded("ClassSentences", self.message, lambda _b: self.refresh()))
        self.sentence_box.observe(self._on_edit, names="value")
        super().__init__([*([self._name] if self._name else []),
                          widgets.HBox([self.sentence_box, self.share_button], layout=widgets.Layout(flex_flow="row wrap")),
                          self.warning, self.anyway_button, self.message,
                          widgets.HBox([self.get_button]), self.watch, self.mine])
        self.add_class("tokens-lm")
        lab.on_change(self.redraw)
        self.redraw()

    def _on_edit(self, _change=None) -> None:
        if self.pending is not None and " ".join(self.sentence_box.value.split()) != self.pending:
            self.pending = None
            self.warning.value = ""
            self.anyway_button.layout.display = "none"

    # -- sharing ------------------------------------------------------------------------------------
    def share(self, text: str | None = None, anyway: bool = False) -> bool:
        """Share a sentence with the class (None: what is in the box).

        A sentence that may hold private details is shared only with ``anyway=True`` (the
        **Share it anyway** button), and only the very sentence that was warned about.

        Returns:
            bool: True when shared (saved, and learned by the model); False when empty, too long,
            waiting for "Share it anyway", or the store refused (the page says why).
        """
        if anyway and text is None:
            text = self.pending
        text = " ".join(str(self.sentence_box.value if text is None else text).split())
        if not tokens(text) or tokens(text) == tokens(START):
            say(self.message, MESSAGES["empty"], bad=True)
            return False
        if len(text) > MAX_SENTENCE:
            say(self.message, MESSAGES["long"].format(most=MAX_SENTENCE), bad=True)
            return False
        warnings = personal_details(text)
        if warnings and not (anyway and text == self.pending):
            self.pending = text
            items = "".join(f"<li>{_e(w)}</li>" for w in warnings)
            self.warning.value = (f'<div role="alert" style="border-left:4px solid #8a4b00;background:#fff4e0;'
                                  f'padding:4px 10px;margin:4px 0"><strong>{_e(MESSAGES["warn"])}</strong>'
                                  f'<ul style="margin:2px 0 2px 18px;padding:0">{items}</ul></div>')
            self.anyway_button.layout.display = ""
            self.message.value = ""
            return False
        try:
            self._save(text)
        except ValueError as e:  # no name yet, saving too often, the store is down: say so, keep the text
            say(self.message, MESSAGES["not_saved"].format(why=e), bad=True)
            return False
        self.pending = None
        self.warning.value = ""
        self.anyway_button.layout.display = "none"
        self.shared.append(text)
        self.sentence_box.value = START
        self.refresh(said=MESSAGES["shared"])
        return True

    def _save(self, text: str) -> None:
        session = self.lab.session
        if session is None:
            self._local.append({"id": f"here-{len(self._local) + 1}", "text": text})
            return
        writer = ensure_student(session, self._name)
        self.saved_ids.append(session.store.sentences.save(writer, session.lesson, text))

    # -- the class's sentences ----------------------------------------------------------------------
    def class_rows(self) -> list[dict]:
        """The class's visible sentences now (dicts ``id``, ``text``), oldest first."""
        session = self.lab.session
        if session is None:
            return list(self._local)
        return [{"id": r["id"], "text": r["text"]} for r in session.store.sentences.shared(session.lesson)]

    def refresh(self, said: str | None = None) -> int:
        """Read the class's sentences and learn again from the kit's and those.

        Returns:
            int: how many sentences are new since the last time (hidden ones leave the model).
        """
        try:
            rows = self.class_rows()
        except ValueError as e:  # the store is down: say so, keep the model as it is
            say(self.message, MESSAGES["not_saved"].format(why=e), bad=True)
            return 0
        before = {r["id"] for r in self.lab.class_sentences}
        new = len([r for r in rows if r["id"] not in before])
        self.lab.relearn(rows)
        if said is None:
            said = (MESSAGES["none_new"] if new == 0 else MESSAGES["one_new"] if new == 1
                    else MESSAGES["new"].format(n=new))
        say(self.message, said)
        return new

    def redraw(self) -> None:
        """The table for :data:`WATCH` with the class's counts marked, and this page's sentences."""
        counts = self.lab.model.counts(WATCH)
        added = {t: n - self._kit_counts.get(t, 0) for t, n in counts.items() if n > self._kit_counts.get(t, 0)}
        head = MESSAGES["count"].format(kit=len(self.lab.kit), class_=len(self.lab.class_sentences))
        self.watch.value = (f'<p style="margin:4px 0">{_e(head)}</p>'
                            + chance_table(counts, WATCH, new=added, most=12))
        if self.shared:
            items = "".join(f"<li>{_e(s)}</li>" for s in self.shared)
            self.mine.value = (f'<p style="margin:4px 0 0"><strong>You shared:</strong></p>'
                               f'<ul style="margin:0 0 4px 18px;padding:0">{items}</ul>')
        else:
            self.mine.value = ""
