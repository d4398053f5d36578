"""Lesson 8's command lab: a student types commands, labels a few, and a text classifier learns them.

The setting: a voice helper for the game. A player says what they want to do ("score with my
chatbot") and the helper must pick the move: **Task**, **Audit**, **Train** or **End turn**. The
student types a command, picks its label and clicks **Teach it**; the
:class:`~tokens_edu.lab.classify.WordClassifier` learns which words go with which label. In the
**Try it** box the student types a new command and sees its guess, which words voted for what,
and the words it never saw. With the page's session, each taught command is saved with its label,
like the class's drawings (``session.store.drawings.save_command``, in the lesson's newest class
set): the teacher sees them on the dashboard, and a reloaded page starts from the student's own
commands of that set. A command that cannot be saved (no name, the store is down) still teaches
this page, and the page says so. Nothing is fetched.

Stable CSS classes: ``tokens-command-lab``, ``tokens-command-text``, ``tokens-command-labels``,
``tokens-command-teach``, ``tokens-command-examples``, ``tokens-command-try``,
``tokens-command-guess``, ``tokens-command-words``, ``tokens-command-message``.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence

import ipywidgets as widgets

from ..lab.classify import WordClassifier, words_of
from .who import ensure_student, name_box, page_writer

__all__ = ["CommandLab", "COMMAND_LABELS", "MESSAGES", "MAX_COMMAND", "MAX_COMMANDS"]

log = logging.getLogger(__name__)

#: The moves the helper can pick, with what each one means in the game.
COMMAND_LABELS = {"Task": "score Tokens with a System", "Audit": "check a card of the other player",
                  "Train": "put a card into your Training Set", "End turn": "finish your turn"}
#: Longest command (characters). MAX_COMMANDS: most examples on one page.
MAX_COMMAND = 120
MAX_COMMANDS = 200

#: What the lab says, in a student's words (the readability test measures these).
MESSAGES = {
    "type": "Type a command first.",
    "long": f"That command is too long. Use at most {MAX_COMMAND} letters.",
    "pick": "Pick the move your command means. Then click Teach it.",
    "full": f"That is a lot of examples! This page keeps at most {MAX_COMMANDS}.",
    "no_words": "Use some real words. Little words like 'the' and 'my' don't count.",
    "taught": "It learned: '{text}' means {label}.",
    "nothing_yet": "Teach it some commands first. Then try a new one here.",
    "unknown": "It doesn't know any of these words yet, so it can't guess.",
    "tie": "It can't decide: {labels} got the same votes.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
    "local": "It learned it, but only on this page: {why}",
    "back": "Welcome back! It learned your {n} commands again.",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


class CommandLab(widgets.VBox):
    """Teach a word classifier the game's commands, then try it on new ones (lesson 8).

    Args:
        labels: the moves (default: the keys of :data:`COMMAND_LABELS`).
        session: the page's :class:`~tokens_edu.session.PageSession` (each taught command is
            saved in its store, and the student's saved commands of the lesson's newest class
            set are learned again when the page opens), or None: this page only.

    Attributes:
        text_box, label_picker, teach_button: the teaching row. try_box, try_button: the Try it
        row. model: the :class:`WordClassifier`. commands: the examples, ``(text, label)``.
        last_guess: the latest :class:`~tokens_edu.lab.classify.WordGuess` or None.

    Raises:
        ValueError: fewer than two labels.
    """

    def __init__(self, labels: Sequence[str] = tuple(COMMAND_LABELS), session=None):
        super().__init__()
        self.session = session
        labels = [str(x) for x in labels]
        if len(labels) < 2 or len(set(labels)) != len(labels):
            raise ValueError("Give two or more different labels.")
        self.add_class("tokens-command-lab")
        self.labels = labels
        self.model = WordClassifier()
        self.commands: list[tuple[str, str]] = []
        self.last_guess = None

        self.text_box = widgets.Text(placeholder="For example: score some points with my chatbot",
                                     description="Command:", layout=widgets.Layout(width="min(100%, 520px)"))
        self.text_box.add_class("tokens-command-text")
        self.label_picker = widgets.ToggleButtons(options=labels, value=None, description="It means:",
                                                  style={"description_width": "initial", "button_width": "90px"})
        self.label_picker.add_class("tokens-command-labels")
        self.teach_button = widgets.Button(description="Teach it", button_style="primary", icon="plus")
        self.teach_button.add_class("tokens-command-teach")
        self.teach_button.on_click(self._guard(self._on_teach))
        self.message = widgets.HTML()
        self.message.add_class("tokens-command-message")
        self.examples = widgets.HTML()
        self.examples.add_class("tokens-command-examples")
        self.words = widgets.HTML()
        self.words.add_class("tokens-command-words")
        self.try_box = widgets.Text(placeholder="Type a new command to test it", description="Try it:",
                                    continuous_update=False, layout=widgets.Layout(width="min(100%, 520px)"))
        self.try_box.add_class("tokens-command-try")
        self.try_button = widgets.Button(description="What does it think?", icon="question")
        self.try_button.add_class("tokens-command-try-button")
        self.try_button.on_click(self._guard(self._on_try))
        self.try_box.observe(self._guard(lambda _c: self._on_try()), names="value")
        self.guess = widgets.HTML()
        self.guess.add_class("tokens-command-guess")
        self.name_box = name_box(session)  # only when the page has no name yet
        meanings = "".join(f"<li><strong>{_e(k)}</strong>: {_e(COMMAND_LABELS.get(k, ''))}</li>" for k in labels)
        self.children = [
            widgets.HTML(f'<p style="margin:4px 0"><strong>Teach it.</strong> The moves it can pick:</p>'
                         f'<ul style="margin:2px 0 6px 0">{meanings}</ul>'),
            self.text_box, self.label_picker, *([self.name_box] if self.name_box is not None else []),
            widgets.HBox([self.teach_button, self.message]),
            widgets.HBox([self.examples, self.words], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HTML('<p style="margin:8px 0 4px 0"><strong>Try it.</strong> Type a command it has not seen.</p>'),
            widgets.HBox([self.try_box, self.try_button]), self.guess,
        ]
        self._restore()
        self._draw()

    def _restore(self) -> None:
        """Learn again the commands the page's student saved in the lesson's newest set."""
        writer = page_writer(self.session)
        if writer is None:
            return
        try:
            saved = self.session.store.drawings.my_commands(writer, self.session.lesson)
        except ValueError:  # JournalUnavailable: the store is down; the page starts empty
            log.info("CommandLab: the saved commands could not be read")
            return
        saved = [(t, lab) for t, lab in saved if lab in self.labels][:MAX_COMMANDS]
        if saved:
            self.commands = saved
            self.model.fit([t for t, _ in saved], [lab for _, lab in saved])
            self._say(MESSAGES["back"].format(n=len(saved)))

    def _guard(self, fn):
        def run(*args):
            try:
                fn(*args)
            except Exception:  # on Voila an error in a callback shows nowhere: say something
                log.exception("CommandLab: a click failed")
                self._say(MESSAGES["error"], bad=True)
        return run

    def _say(self, text: str, bad: bool = False) -> None:
        self.message.value = f'<span style="color:{_RED if bad else _GREEN}">{_e(text)}</span>'

    def teach(self, text: str | None = None, label: str | None = None) -> bool:
        """What **Teach it** does: add the command and its label, and learn again.

        Args:
            text, label: None reads the boxes (what the page does).

        Returns:
            bool: True when learned; False with a message when the command is empty, too long,
            has no word that counts, no label is picked, or the page is full.
        """
        text = " ".join(str(self.text_box.value if text is None else text).split())
        label = self.label_picker.value if label is None else label
        problem = ("type" if not text else "long" if len(text) > MAX_COMMAND else
                   "no_words" if not words_of(text) else "pick" if label not in self.labels else
                   "full" if len(self.commands) >= MAX_COMMANDS else "")
        if problem:
            self._say(MESSAGES[problem], bad=True)
            return False
        problem = ""
        if self.session is not None:
            try:
                writer = ensure_student(self.session, self.name_box)
                self.session.store.drawings.save_command(writer, self.session.lesson, text, label)
            except ValueError as e:  # no name yet, saving too fast, the store is down
                problem = str(e)
        self.commands.append((text, label))
        self.model.fit([t for t, _ in self.commands], [lab for _, lab in self.commands])
        self.text_box.value = ""
        self.label_picker.value = None
        if problem:
            self._say(MESSAGES["local"].format(why=problem), bad=True)
        else:
            self._say(MESSAGES["taught"].format(text=text, label=label))
        self._draw()
        if self.try_box.value.strip():
            self.try_it()
        return True

    def _on_teach(self, _button=None) -> None:
        self.teach()

    def try_it(self, text: str | None = None):
        """What **What does it think?** does: its guess for the command, with the votes.

        Returns:
            the :class:`~tokens_edu.lab.classify.WordGuess`, or None when it was not asked
            (an empty box, or nothing taught yet).
        """
        text = " ".join(str(self.try_box.value if text is None else text).split())[:MAX_COMMAND]
        if not text:
            self.guess.value = ""
            self.last_guess = None
            return None
        if not self.commands:
            self.guess.value = f'<p>{_e(MESSAGES["nothing_yet"])}</p>'
            self.last_guess = None
            return None
        guess = self.model.predict(text)
        self.last_guess = guess
        if guess.label is not None:
            head = (f'<p style="font-size:17px;margin:4px 0">It thinks <em>{_e(text)}</em> means '
                    f'<strong class="tokens-command-answer">{_e(guess.label)}</strong>.</p>')
        elif guess.tied:
            head = f'<p style="font-size:17px;margin:4px 0">{_e(MESSAGES["tie"].format(labels=" and ".join(guess.tied)))}</p>'
        else:
            head = f'<p style="font-size:17px;margin:4px 0">{_e(MESSAGES["unknown"])}</p>'
        lines = []
        for word, share in guess.voters.items():
            split = ", ".join(f"{label} {value:.2f}" for label, value in sorted(share.items(), key=lambda x: -x[1]))
            lines.append(f"<li>'{_e(word)}' votes: {_e(split)}</li>")
        if guess.votes:
            total = ", ".join(f"{label} {v:.2f}" for label, v in sorted(guess.votes.items(), key=lambda x: -x[1]))
            lines.append(f"<li><strong>Votes in all:</strong> {_e(total)}</li>")
        if guess.unknown:
            lines.append(f"<li>Words it never saw (no vote): {_e(', '.join(guess.unknown))}</li>")
        self.guess.value = head + (f'<ul style="margin:2px 0">{"".join(lines)}</ul>' if lines else "")
        return guess

    def _on_try(self, _button=None) -> None:
        self.try_it()

    def _draw(self) -> None:
        if not self.commands:
            self.examples.value = '<p style="color:#555;margin:4px 16px 4px 0">No examples yet.</p>'
            self.words.value = ""
            return
        rows = "".join(f"<tr><td>{_e(t)}</td><td><strong>{_e(lab)}</strong></td></tr>"
                       for t, lab in self.commands[-12:])
        more = len(self.commands) - 12
        self.examples.value = (
            f'<div style="margin:4px 24px 4px 0"><strong>Your examples ({len(self.commands)})</strong>'
            f'<table class="tokens-table"><tr><th>Command</th><th>Move</th></tr>{rows}</table>'
            f'{f"<em>and {more} more</em>" if more > 0 else ""}</div>')
        table = self.model.word_table().head(15)
        head = "".join(f"<th>{_e(c)}</th>" for c in table.columns)
        body = "".join("<tr>" + "".join(f"<td>{_e(v) if v != 0 else ''}</td>" for v in row) + "</tr>"
                       for row in table.itertuples(index=False))
        self.words.value = (f'<div style="margin:4px 0"><strong>Words it learned</strong> (how many of your '
                            f'examples of each move had the word)<table class="tokens-table"><tr>{head}</tr>{body}'
                            f'</table></div>')
