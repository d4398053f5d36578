"""The Discuss box: a card, its Discuss question, a place to write an answer, and a Save button.

``DiscussBox(card, session)`` shows the card, asks its Discuss question and saves what the
student writes, through the page's :class:`~tokens_edu.session.PageSession` (its store's
:class:`~tokens_edu.store.Answers`, with its writer). Open the same card again later (same
student, same lesson) and the saved answer is back in the box.

Who is writing:

* on JupyterHub (``JUPYTERHUB_USER`` set) the name is the login; the name box shows it, locked;
* with a class roster (``tokens-edu roster``; :attr:`PageSession.roster_in_use`) there is no name
  box: the name comes from the student's code (their personal link's ``?code=``, or typed in
  the "Your code" box, which also lets a second student on the same screen sign in), so nobody
  saves under a classmate's name without the classmate's code;
* when the session already knows the name (given in code, or set later by a class roster login
  through ``session.student``), there is no name box;
* otherwise a name box comes first, prefilled from the page's ``?student=`` query; the student
  fills it in before saving. Under it a short line says that this name is not a password.
  Names are cleaned as everywhere (:func:`tokens_edu.content.names.clean_name`).

Whose saved work comes back: with a JupyterHub login, a class-roster code or a name given in
code, that student's. With a typed name (the name box, or the page's ``?student=`` link), only
what **this browser** wrote under that name: the box's invisible :class:`~tokens_edu.widgets.browser.BrowserKey`
sends the browser's secret to the kernel, and the store reads back only rows stored with it
(:mod:`tokens_edu.session.page`). Typing a classmate's name (or opening their link) in another
browser never shows, or overwrites, their answer or draft; for proven names, teachers use a
class list or JupyterHub logins.

Nothing a student writes is lost (issue 9, "answers never lost"). The writing area is a small
custom widget (:class:`AnswerBox`, front end ``static/discuss.js``):

* **Save saves what is shown.** The click sends the text exactly as on screen; the box says
  "Saved at 10:42:05" only after the kernel stored that very text (its reply names the text), and
  the box turns green with the button reading "Saved ✓". Typing again turns it back.
* **Drafts.** A moment after typing stops, the text is kept as a *draft* (not an answer: the
  teacher's views and exports never show drafts). A reload brings the draft back, marked "not
  saved yet"; saving removes it.
* **Leaving asks first** when the box holds text that is not saved.
* **Lost contact.** If the kernel or the server stops answering, within about 6 seconds the page
  shows "Lost contact with the lesson server. Your text is still in the box: copy it, then
  reload." and Save says it did not save; a reload (when the server is back) restores the
  saved answer and the draft.
* **Plain words.** A failed save says "Your answer couldn't be saved just now. It is still in
  the box: try Save again." (or that answers can't be saved right now, when the store is full
  or read-only), never an exception's name; a retry reuses the same answer id, so a save that
  did reach the database is never stored twice. Every callback catches its own errors (on Voila
  an error in a callback shows nowhere), shows a friendly line and logs the detail.

Answers are at most :data:`~tokens_edu.store.schema.MAX_ANSWER` characters (5,000): past 4,000 a
counter under the box shows how many are used, and past the limit it says, in red, to make the
answer shorter; Save then refuses with the same plain words and keeps the text.

Stable CSS classes for browser tests and styling: ``tokens-discuss`` (the whole box),
``tokens-discuss-name``, ``tokens-discuss-name-note``, ``tokens-discuss-code`` and
``tokens-discuss-who`` (with a class roster), ``tokens-discuss-answer`` (holds the
``textarea``), ``tokens-discuss-count``, ``tokens-discuss-save`` (a ``button``),
``tokens-discuss-status``, ``tokens-discuss-note``; on the writing area the state classes
``tokens-discuss-saved``, ``-draft``, ``-unsaved``, ``-empty``, ``-lost``, ``-saving``; and the
page banner ``tokens-lost-contact``.
"""

from __future__ import annotations

import html
import logging
import uuid
from pathlib import Path

import anywidget
import ipywidgets as widgets
import traitlets

from ..content.cards import Card, load_cards
from ..content.names import clean_name
from ..present.render import SCREEN_SCALE, render_card
from ..present.words import clock
from ..session import CODE_NEEDED, NO_NAME, PageSession, student_from_query
from ..store import JournalUnavailable
from ..store.answers import too_long_message
from ..store.schema import MAX_ANSWER
from .browser import BrowserKey
from .who import given_session, journal_alias
from .trust import refuse

__all__ = ["DiscussBox", "AnswerBox"]

log = logging.getLogger(__name__)

_STATIC = Path(__file__).resolve().parent / "static"

#: The character counter under the answer box appears past this many characters.
COUNT_FROM = 4000

NAME_NOTE = ("This name is not a password: anyone can type any name. Your saved answers come "
             "back only in this browser, on this computer.")


class AnswerBox(anywidget.AnyWidget):
    """The writing area of a Discuss box: a text box, a counter, Save, a status line.

    The front end (``static/discuss.js``) owns the text box. It sends the kernel four kinds of
    messages, in order: ``{"type": "dirty", "dirty": bool}`` at once when the box starts or stops
    holding words that are not saved, ``{"type": "draft", "text", "seq"}`` a moment after typing
    stops, ``{"type": "save", "text", "seq"}`` on Save (the text as shown), and ``{"type":
    "ping"}`` (answered with ``{"type": "pong"}``; silence means lost contact). The kernel answers
    a draft or a save by setting the traits below in one update, ``ack`` last known ``seq``.
    Anything else is refused and logged (:func:`tokens_edu.widgets.trust.refuse`); the page sets
    no trait itself.

    Args:
        on_save: ``on_save(text) -> str``: store ``text`` as the answer; return the status line
            ("Saved at 10:42:05..."); raise ValueError with plain words when it was not stored.
        on_draft: ``on_draft(text) -> bool``: keep ``text`` as a draft; True when kept.
        **kwargs: trait values (``value``, ``label``...).

    Traits (synced): ``value`` (the text the kernel last knew, or put in the box), ``saved_text``
    (the text last stored as the answer), ``draft_text``/``draft_at`` (the draft kept, "HH:MM:SS"),
    ``status``/``status_kind`` ("ok", "bad", "info" or ""), ``ack``, ``max_length``,
    ``count_from``, ``placeholder``, ``label``, and the timings ``draft_ms``, ``ping_ms``,
    ``lost_ms``, ``save_timeout_ms``.
    """

    _esm = _STATIC / "discuss.js"
    _css = _STATIC / "discuss.css"
    #: The page sets none of the traits: it sends messages, the kernel answers (widgets/trust.py).
    _page_may_set = ()

    value = traitlets.Unicode("").tag(sync=True)
    saved_text = traitlets.Unicode("").tag(sync=True)
    draft_text = traitlets.Unicode("").tag(sync=True)
    draft_at = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    status_kind = traitlets.Unicode("").tag(sync=True)
    ack = traitlets.Int(0).tag(sync=True)
    max_length = traitlets.Int(MAX_ANSWER).tag(sync=True)
    count_from = traitlets.Int(COUNT_FROM).tag(sync=True)
    placeholder = traitlets.Unicode("Write your answer here.").tag(sync=True)
    label = traitlets.Unicode("Your answer").tag(sync=True)
    draft_ms = traitlets.Int(1200).tag(sync=True)
    ping_ms = traitlets.Int(1500).tag(sync=True)
    lost_ms = traitlets.Int(6000).tag(sync=True)
    save_timeout_ms = traitlets.Int(10000).tag(sync=True)

    def __init__(self, on_save=None, on_draft=None, **kwargs):
        super().__init__(**kwargs)
        self._on_save = on_save
        self._on_draft = on_draft
        self._seq = 0
        #: the page says the box holds words that are not saved (its "dirty" message)
        self.page_dirty = False
        self.on_msg(lambda _w, content, _buffers: self.handle(content))

    @property
    def unsaved(self) -> bool:
        """True when the box holds words that are not saved as the answer: typed on the page
        (its "dirty" message, sent at once) or known to the kernel (a draft)."""
        return self.page_dirty or (bool(self.value.strip()) and self.value != self.saved_text)

    def handle(self, content: dict) -> None:
        """Act on one message from the front end (also how tests play the student's part).

        Never raises: an error becomes the status line (the front end then shows "not saved").
        """
        try:
            kind = content.get("type") if isinstance(content, dict) else None
            if kind == "ping":
                self.send({"type": "pong", "n": content.get("n")})
                return
            if kind == "dirty" and isinstance(content.get("dirty"), bool):
                self.page_dirty = content["dirty"]
                return
            text = content.get("text") if kind in ("draft", "save") else None
            seq = content.get("seq", 0) if isinstance(content, dict) else None
            if not isinstance(text, str) or isinstance(seq, bool) or not isinstance(seq, int):
                refuse(self, "a message the Discuss box never sends", str(kind)[:20])
                return
            if seq and seq < self._seq:
                return  # an older message overtaken by a newer one: never undo newer text
            self._seq = max(self._seq, seq)
            if kind == "draft":
                self._draft(text, seq)
            else:
                self._save(text, seq)
        except Exception:
            log.exception("AnswerBox: a message from the page could not be handled")

    def _draft(self, text: str, seq: int) -> None:
        kept = False
        try:
            kept = bool(self._on_draft(text)) if self._on_draft else False
        except ValueError as e:  # no name yet, store down: a draft is a quiet safety net
            log.info("Draft not kept: %s", e)
        except Exception:
            log.exception("AnswerBox: keeping a draft failed")
        with self.hold_sync():
            self.value = text
            if kept:
                self.draft_text = text
                self.draft_at = clock()
            self.ack = max(self.ack, seq)

    def _save(self, text: str, seq: int) -> None:
        ok = False
        try:
            if self._on_save is None:
                raise ValueError("This box has nowhere to save.")
            message = self._on_save(text)
            ok = True
        except ValueError as e:
            message = str(e)
        except Exception:
            log.exception("AnswerBox: saving failed")
            message = "Sorry, I could not save your answer just now. Your words are still here: try again in a moment."
        with self.hold_sync():
            self.value = text
            if ok:
                self.saved_text = text
                self.draft_text = ""
                self.draft_at = ""
            self.status = message
            self.status_kind = "ok" if ok else "bad"
            self.ack = max(self.ack, seq)

    def say(self, text: str, kind: str = "info") -> None:
        """Show ``text`` (plain) in the status line."""
        with self.hold_sync():
            self.status = text
            self.status_kind = kind


def _card_html(card: Card) -> str:
    """The card drawn as HTML without its Discuss question (the box asks one question, under
    the card); a plain name if drawing fails."""
    try:
        return render_card(card, scale=SCREEN_SCALE, discuss=False)
    except Exception:  # a card that cannot be drawn: the question must still be asked
        log.warning("Could not draw card %r; showing its name only.", card.name, exc_info=True)
        return (f'<div class="tokens-discuss-card-plain"><strong>{html.escape(card.name)}</strong>'
                "</div>")


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
    """A card's Discuss question with an answer box that saves through the page's session.

    Args:
        card: a :class:`~tokens_edu.content.cards.Card` or a card's name (any case).
        session: the page's :class:`~tokens_edu.session.PageSession` (its ``student`` and
            ``lesson`` say whose answer and where); None opens ``PageSession()`` on the default
            store. ``journal=`` is its old name (a DeprecationWarning until tokens-edu 0.4.0).
        prompt: the question to ask instead of the card's own Discuss question (a notebook's
            own question about the card's idea); saved with each answer. None: the card's.
        **kwargs: passed to ``ipywidgets.VBox``.

    Attributes:
        card: the Card asked about.
        session: the PageSession answers go through.
        name_box: the ``Text`` for the student's name, or None when the session already knows
            it (a locked JupyterHub login is shown in a disabled box).
        name_note: the ``HTML`` line under an editable name box ("This name is not a
            password..."), or None.
        code_box: with a class roster, the ``Password`` box for a student's code; else None.
        who: with a class roster, the ``HTML`` line saying whose answers are saved ("Saving as
            Ana."), or asking for the code; else None.
        own_name: the page's identity (login, the session's name, or the ``?student=`` query;
            ``""`` when none).
        answer: the :class:`AnswerBox` (text box, counter, Save, status line).
        browser_key: the invisible :class:`~tokens_edu.widgets.browser.BrowserKey` that tells
            the session which browser the page is in.
        last_saved_id: the id of the last answer saved from this box, or None.

    Raises:
        ValueError: an unknown card name (the message suggests close names).
    """

    journal = journal_alias()

    def __init__(self, card, session=None, prompt: str | None = None, *, journal=None, **kwargs):
        session = given_session(session, journal, "DiscussBox")
        self.card = _resolve_card(card)
        if prompt is not None and (not isinstance(prompt, str) or not prompt.strip()):
            raise ValueError("A Discuss question must be some text.")
        self.prompt = prompt if prompt is not None else self.card.discuss
        if session is None:
            session = PageSession()
        self.session = session
        self.last_saved_id: str | None = None
        self._attempt: tuple[tuple, str] | None = None  # ((student, lesson, text), id)

        self.card_view = widgets.HTML(_card_html(self.card))
        self.card_view.add_class("tokens-discuss-card")
        question = self.prompt or "What do you think about this card?"
        self.question = widgets.HTML(
            f'<p style="font-size:16px;margin:6px 0"><strong>Discuss:</strong> '
            f"{html.escape(question)}</p>")
        self.question.add_class("tokens-discuss-question")

        self.name_box: widgets.Text | None = None
        self.name_note: widgets.HTML | None = None
        self.code_box: widgets.Password | None = None
        self.who: widgets.HTML | None = None
        self.own_name = session.student or ""
        if session.student_locked:
            self.name_box = widgets.Text(value=session.student, description="Your name:",
                                         disabled=True)
        elif session.roster_in_use:  # a class roster: codes, no name box
            self.code_box = widgets.Password(placeholder="the code on your slip",
                                             description="Your code:", continuous_update=False)
            self.code_box.add_class("tokens-discuss-code")
            self.code_box.style.description_width = "initial"
            self.code_box.observe(self._on_code, names="value")
            self.who = widgets.HTML(self._who_text())
            self.who.add_class("tokens-discuss-who")
        elif not session.student:
            self.own_name = clean_name(self._query_name())
            self.name_box = widgets.Text(value=self.own_name, placeholder="Type your name",
                                         description="Your name:", continuous_update=False)
            self.name_box.observe(self._on_name, names="value")
            self.name_note = widgets.HTML(
                f'<span style="font-size:13px;color:#444">{html.escape(NAME_NOTE)}</span>')
            self.name_note.add_class("tokens-discuss-name-note")
        if self.name_box is not None:
            self.name_box.add_class("tokens-discuss-name")
            self.name_box.style.description_width = "initial"

        self.answer = AnswerBox(on_save=self._save_from_page, on_draft=self._draft_from_page,
                                label=f"Your answer to: {question}")

        children = [self.card_view, self.question]
        if self.name_box is not None:
            children.append(self.name_box)
        if self.name_note is not None:
            children.append(self.name_note)
        if self.who is not None:
            children += [self.who, self.code_box]
        self.browser_key = BrowserKey(on_browser=self._on_browser)
        children += [self.answer, self.browser_key]
        super().__init__(children=children, **kwargs)
        self.add_class("tokens-discuss")
        session.on_identify(self._on_identify)
        if session.problem:
            self.answer.say("Answers can't be saved right now: the lesson server cannot store "
                            "them. You can still write and play.", "bad")
        self._safely("find your saved answer", self._load_saved)

    @property
    def unsaved(self) -> bool:
        """True when the box holds words that are not saved (see :attr:`AnswerBox.unsaved`)."""
        return self.answer.unsaved

    # -- the old names (a Textarea-like and a status-like object) ----------------------------
    @property
    def answer_box(self) -> AnswerBox:
        """The writing area (its ``value`` is the text the kernel knows); see :attr:`answer`."""
        return self.answer

    @property
    def status_text(self) -> str:
        """The status line's plain text ("Saved at 10:42:05. Well done, Ana!")."""
        return self.answer.status

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _query_name() -> str:
        """The ``?student=`` of the page ("" when none, or when it cannot be read)."""
        try:

            return student_from_query()
        except Exception:
            log.warning("Could not read the page's query.", exc_info=True)
            return ""

    def _safely(self, what: str, fn, *args):
        """Run ``fn``; a ValueError's plain message or a friendly line goes to the status line."""
        try:
            return fn(*args)
        except ValueError as e:
            log.info("DiscussBox: %s: %s", what, e)
            self.answer.say(str(e), "bad")
        except Exception:
            log.exception("DiscussBox: could not %s", what)
            self.answer.say(f"Sorry, I could not {what} just now. Your words are still here: "
                            "try again in a moment.", "bad")
        return None

    def _who_text(self) -> str:
        """With a class roster: whose answers are saved here, or a request for the code."""
        name = self.session.student
        if name:
            text = (f"Saving as <b>{html.escape(name)}</b>. Sharing a screen? Each of you types "
                    "your own code before saving.")
        else:
            text = "Type the code from your slip, then write your answer."
            problem = self.session.code_problem
            if problem:
                text = f'<span style="color:#8a1c1c">{html.escape(problem)}</span> ' + text
        return f'<span style="font-size:14px">{text}</span>'

    def _on_code(self, change) -> None:
        """A code was typed: sign in with it (every box of the page then shows that student)."""
        code = change.get("new") if isinstance(change, dict) else None
        if not code or not code.strip():
            return

        def sign_in():
            name = self.session.sign_in(code)
            self.answer.say(f"Hello, {name}! Your answers are saved under your name.", "ok")

        self._safely("check your code", sign_in)
        self.code_box.value = ""  # never left on the page

    def _typed_name(self) -> str:
        """The name to save under: the name box's text, else the session's name ("" if none)."""
        if self.name_box is not None and not self.session.student_locked:
            typed = clean_name(self.name_box.value)
            if typed:
                return typed
        return self.session.student or ""

    def _load_saved(self) -> None:
        """Put the latest saved answer, or a newer draft, of the name given in an empty answer
        box: the store reads back only what the page may see (with a typed name, only what
        this browser wrote; see :mod:`tokens_edu.session.page`)."""
        name = self._typed_name()
        if not name or self.answer.value.strip():
            return
        lesson = self.session.lesson
        try:
            reader = self.session.writer(name)
        except ValueError:  # a typed name in a class that uses codes: nothing to read back
            return
        try:
            found = self.session.store.answers.latest(reader, lesson, self.card)
            draft = self.session.store.answers.draft(reader, lesson, self.card)
        except JournalUnavailable as e:
            log.info("DiscussBox: saved work not read: %s", e)
            return
        saved = found.text if found else None
        if draft is not None and found is not None and draft.saved_at <= found.saved_at:
            draft = None  # saved since (a draft left behind): the answer is newer
        with self.answer.hold_sync():
            if saved is not None:
                self.answer.saved_text = saved
                self.answer.value = saved
                self._attempt = ((name, lesson, saved), "")
            if draft is not None and draft.text != saved:
                self.answer.value = draft.text
                self.answer.draft_text = draft.text
                self.answer.draft_at = clock(draft.saved_at)
                self.answer.say("Here is the draft you were writing. It is not saved yet: "
                                "press Save when it's ready.", "info")
            elif saved is not None:
                self.answer.say("Here is the answer you saved before. You can change it and "
                                "save again.", "info")

    # -- actions ----------------------------------------------------------------------------
    def save(self, text: str | None = None) -> str:
        """Save ``text`` (default: the text the box holds now) under the name given.

        Args:
            text: the words to save; None uses :attr:`answer`'s ``value``.

        Returns:
            str: the saved answer's id (a UUID string).

        Raises:
            ValueError: no name yet, an empty or too long answer, or the store could not save
                (:class:`~tokens_edu.store.JournalUnavailable`, plain words); nothing is lost:
                the words stay in the box.
        """
        text = self.answer.value if text is None else text
        name = self._typed_name()
        if not name:
            if self.code_box is not None:
                raise ValueError(CODE_NEEDED)
            raise ValueError(NO_NAME)
        if not text.strip():
            raise ValueError("Your answer is empty. Write a few words, then save.")
        if len(text) > MAX_ANSWER:
            raise ValueError(too_long_message(len(text)))
        if not self.session.student_locked and name != self.session.student:
            self.session.student = name  # ValueError (too long...) changes nothing
        writer = self.session.writer()
        key = (writer.name, self.session.lesson, text)
        if self._attempt is not None and self._attempt[0] == key and self._attempt[1]:
            answer_id = self._attempt[1]  # same words again (or a retry): never a second row
        else:
            answer_id = str(uuid.uuid4())
        self._attempt = (key, answer_id)
        saved_id = self.session.store.answers.save(writer, self.session.lesson, self.card, text,
                                                   prompt=self.prompt, answer_id=answer_id)
        self.last_saved_id = saved_id
        with self.answer.hold_sync():
            self.answer.value = text
            self.answer.saved_text = text
            self.answer.draft_text = ""
            self.answer.draft_at = ""
            self.answer.say(self._saved_line(), "ok")
        return saved_id

    def _saved_line(self) -> str:
        return f"Saved at {clock()}. Well done, {self.session.student}!"

    # -- from the page (they never raise past the AnswerBox) -------------------------------
    def _save_from_page(self, text: str) -> str:
        self.save(text)
        return self._saved_line()

    def _draft_from_page(self, text: str) -> bool:
        name = self._typed_name()
        if not name:
            return False
        if not self.session.student_locked and name != self.session.student:
            self.session.student = name
        self.session.store.answers.save_draft(self.session.writer(), self.session.lesson, self.card, text)
        return bool(text.strip())

    def _on_name(self, change) -> None:
        self._safely("find your saved answer", self._load_saved)

    def _on_browser(self, secret: str) -> None:
        """The page's front end told which browser this is: its saved work can come back now."""
        if self.session.set_browser(secret):
            self._safely("find your saved answer", self._load_saved)

    def _on_identify(self, name: str) -> None:
        """The page learned who its student is (``session.identify``, e.g. a roster login):
        that name becomes the page's own, fills the name box and brings back their work."""
        if self.session.student_locked:
            return
        self.own_name = name
        if self.who is not None:
            self.who.value = self._who_text()
        if self.name_box is not None and clean_name(self.name_box.value) != name:
            self.name_box.value = name  # fires _on_name, which loads their work
            return
        self._safely("find your saved answer", self._load_saved)

    def __repr__(self) -> str:
        return f"<DiscussBox {self.card.name!r} for {self.session.student or 'no name yet'!r}>"
