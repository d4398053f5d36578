"""Lesson 12's writing steps: write with the model (:class:`WritingLab`), a fluent sentence that is
false (:class:`MadeUpDemo`) and a private sentence repeated word for word (:class:`CopyDemo`).

- :class:`WritingLab`: from a start the student types, the model offers the next tokens with their
  chances. The student picks one (a button per token), or the dice picks (at random, with those
  chances). The **surprise** control is the temperature of
  :meth:`~tokens_edu.lab.language.NextWordModel.reshape`: from "Always the likeliest" (0) through
  "Normal" (1, the counted chances) to "Wild" (5: nearly even chances); the table of chances shows
  its effect at once, and **Write 5 sentences** writes five at that surprise (at 0 the five are
  the same). A finished sentence says whether it is copied word for word or made up, and from
  which sentences (:meth:`~tokens_edu.lab.language.NextWordModel.pieces`).
- :class:`MadeUpDemo`: a model of the kit's sentences only (so the class's sentences do not change
  it) writes :func:`~tokens_edu.lab.sentences.demos`' ``made_up`` sentence at the surprise 0; the
  student picks the first token that makes it false, then sees the seam and the two true
  sentences it came from. The pick is saved (kind ``"prediction"``, :data:`SEAM_KEY`). Then one
  from the game (``made_up_card``).
- :class:`CopyDemo`: the same model writes the ``private`` sentence from its first word, at the
  wildest surprise: every token had a chance of 100%.

Stable CSS classes: ``tokens-lm`` (each part), ``tokens-lm-start``, ``tokens-lm-surprise``,
``tokens-lm-writing``, ``tokens-lm-picks``, ``tokens-lm-pick``, ``tokens-lm-dice``, ``tokens-lm-back``,
``tokens-lm-restart``, ``tokens-lm-five``, ``tokens-lm-sentences``, ``tokens-lm-done``,
``tokens-lm-write``, ``tokens-lm-seam-pick``, ``tokens-lm-seam-check``, ``tokens-lm-seam-result``,
``tokens-lm-card``, ``tokens-lm-copy``, ``tokens-lm-message``.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..lab.language import END_MARKS, NextWordModel, join_tokens, tokens
from ..lab.sentences import demos
from ..present.language import chance_chips, chance_table, percent, pieces_html, quote, writing_html
from .language_guess import guarded, say

__all__ = ["WritingLab", "MadeUpDemo", "CopyDemo", "SURPRISE", "MESSAGES", "SEAM_KEY", "MOST_TOKENS"]

#: The surprise control's stops: (label, temperature).
SURPRISE = (("Always the likeliest", 0.0), ("A little", 0.5), ("Normal", 1.0), ("More", 2.0), ("Wild", 5.0))
#: The most tokens written after a start.
MOST_TOKENS = 30
#: The question id of the saved seam pick.
SEAM_KEY = "Made up: where does it go wrong?"

#: What these parts say, in a student's words (the readability test measures these; ``{x}`` is
#: filled with a word or a number).
MESSAGES = {
    "start": "Type the start of a sentence first.",
    "dice": "The dice picked {token}. It had a {chance} chance.",
    "you": "You picked {token}. It had a {chance} chance.",
    "done": "The sentence is done. Take back a token, or start again.",
    "full": "That is {n} tokens: the most it writes. Start again to write more.",
    "copied": "Copied! This whole sentence is one the model read, word for word.",
    "made_up": "Made up! No sentence the model read says this. It joined {n} pieces:",
    "five": "Five sentences from {start} with the surprise {surprise}:",
    "pick_seam": "Pick a word first. Then check.",
    "seam_right": "You found it! The model jumped to another sentence at {token}.",
    "seam_wrong": "Not quite. The model jumped to another sentence at {token}.",
    "card": "The card says: {fact} The model wrote a number that many other cards have.",
    "copy": "Every token had a 100% chance, even at the wildest surprise. It saw this sentence once, "
            "and no other sentence uses its words. So it can only copy it.",
    "not_saved": "Your pick was not saved: {why}",
    "chances": "Each token it wrote, and its chance",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _button(description: str, css: str, icon: str = "", primary: bool = False) -> widgets.Button:
    b = widgets.Button(description=description, icon=icon, button_style="primary" if primary else "",
                       layout=widgets.Layout(width="auto"))
    b.add_class(css)
    return b


class WritingLab(widgets.VBox):
    """Write with the model, one token at a time (step 5 of lesson 12; see the module's docs).

    Args:
        lab: the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab` (its model and seed).
        start: the start shown first.

    Attributes:
        start_box (Text), surprise (ToggleButtons of :data:`SURPRISE`), written (list of tokens
        written after the start), writing (HTML), choices (HTML: the table of chances now),
        picks (HBox of one Button per likely token), dice_button, back_button, restart_button,
        five_button, sentences (HTML: the five sentences), done (HTML: copied or made up),
        message (HTML), rolls (how many times the dice rolled).
    """

    def __init__(self, lab, start: str = "An AI"):
        self.lab = lab
        self.written: list[str] = []
        self.rolls = 0
        self.start_box = widgets.Text(value=start, description="Start:", style={"description_width": "initial"},
                                      layout=widgets.Layout(width="min(100%, 420px)"))
        self.start_box.add_class("tokens-lm-start")
        # buttons, not a slider: each stop says its name, and a tap or a key picks it
        self.surprise = widgets.ToggleButtons(options=[label for label, _ in SURPRISE], value="Normal",
                                              description="Surprise:", tooltips=[
                                                  f"temperature {t:g}" for _, t in SURPRISE],
                                              style={"description_width": "initial", "button_width": "auto"})
        self.surprise.add_class("tokens-lm-surprise")
        self.writing = widgets.HTML()
        self.choices = widgets.HTML()
        self.picks = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.picks.add_class("tokens-lm-picks")
        self.message = widgets.HTML()
        self.message.add_class("tokens-lm-message")
        self.dice_button = _button("Let the dice pick", "tokens-lm-dice", "random", primary=True)
        self.back_button = _button("Take back", "tokens-lm-back", "undo")
        self.restart_button = _button("Start again", "tokens-lm-restart", "refresh")
        self.five_button = _button("Write 5 sentences", "tokens-lm-five", "list")
        for b, fn in ((self.dice_button, self.dice), (self.back_button, self.take_back),
                      (self.restart_button, self.restart), (self.five_button, self.write_five)):
            b.on_click(guarded("WritingLab", self.message, lambda _b, fn=fn: fn()))
        self.sentences = widgets.HTML()
        self.sentences.add_class("tokens-lm-sentences")
        self.done = widgets.HTML()
        self.done.add_class("tokens-lm-done")
        self.start_box.observe(lambda _c: self.restart(), names="value")
        self.surprise.observe(lambda _c: self.redraw(), names="value")
        super().__init__([
            self.start_box, self.surprise,
            self.writing, self.choices,
            widgets.HTML('<p style="margin:2px 0"><strong>You pick the next token:</strong></p>'), self.picks,
            widgets.HBox([self.dice_button, self.back_button, self.restart_button, self.five_button],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.message, self.done, self.sentences])
        self.add_class("tokens-lm")
        lab.on_change(self.redraw)
        self.redraw()

    # -- state --------------------------------------------------------------------------------------
    @property
    def temperature(self) -> float:
        """The surprise's temperature (see :data:`SURPRISE`)."""
        return dict(SURPRISE)[self.surprise.value]

    @property
    def start(self) -> list[str]:
        """The tokens of the start (at most the first 30)."""
        return tokens(self.start_box.value[:300])[:MOST_TOKENS]

    @property
    def finished(self) -> bool:
        """True when the last token written ends a sentence, or it wrote the most it writes."""
        return bool(self.written) and (self.written[-1] in END_MARKS or len(self.written) >= MOST_TOKENS)

    def chances(self) -> list[tuple[str, float]]:
        """The next tokens and their chances at the surprise now (``[]`` when finished)."""
        if self.finished:
            return []
        return NextWordModel.reshape(self.lab.model.next_words([*self.start, *self.written]), self.temperature)

    # -- actions ------------------------------------------------------------------------------------
    def pick(self, token: str, by: str = "you") -> bool:
        """Add ``token`` to the sentence if it is one of the next tokens now.

        Args:
            token: the token.
            by: ``"you"`` or ``"dice"`` (for the message).

        Returns:
            bool: True when added; False when the start is empty, the sentence is done, or the
            token is not a choice now (the message says so; nothing changes).
        """
        if not self.start:
            say(self.message, MESSAGES["start"], bad=True)
            return False
        if self.finished:
            say(self.message, MESSAGES["done"], bad=True)
            return False
        chance = dict(self.chances()).get(token)
        if chance is None:
            return False
        self.written.append(token)
        say(self.message, MESSAGES[by].format(token=quote(token), chance=percent(chance)))
        self.redraw()
        return True

    def dice(self) -> str | None:
        """The dice picks the next token with the chances shown (the lab's seed and the number of
        rolls so far: the same rolls each time the page runs). Returns the token, or None."""
        if not self.start:
            say(self.message, MESSAGES["start"], bad=True)
            return None
        if self.finished:
            say(self.message, MESSAGES["done"], bad=True)
            return None
        self.rolls += 1
        step = self.lab.model.generate([*self.start, *self.written], 1, self.temperature,
                                       seed=self.lab.seed * 1000 + self.rolls)[0]
        return step.token if self.pick(step.token, by="dice") else None

    def take_back(self) -> None:
        """Remove the last token written (nothing when there is none)."""
        if self.written:
            self.written.pop()
        self.message.value = ""
        self.redraw()

    def restart(self) -> None:
        """Back to the start alone."""
        self.written = []
        self.message.value = ""
        self.sentences.value = ""
        self.redraw()

    def write_five(self) -> list[str]:
        """Write 5 sentences from the start at the surprise now (seeds 1-5 of the lab's seed) and
        show them. Returns them."""
        if not self.start:
            say(self.message, MESSAGES["start"], bad=True)
            return []
        out = [self.lab.model.generate(self.start, MOST_TOKENS, self.temperature,
                                       seed=self.lab.seed * 1000 + 500 + k).text for k in range(1, 6)]
        items = "".join(f"<li>{_e(s)}</li>" for s in out)
        head = MESSAGES["five"].format(start=quote(self.start), surprise=quote(self.surprise.value))
        self.sentences.value = f'<p style="margin:4px 0">{_e(head)}</p><ol style="margin:0 0 0 18px">{items}</ol>'
        return out

    # -- drawing ------------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Draw the sentence, the chances now, a button per likely token, and the verdict when done."""
        self.writing.value = writing_html(self.start, self.written)
        chances = self.chances() if self.start else []
        if chances:
            prediction = self.lab.model.next_words([*self.start, *self.written])
            self.choices.value = chance_table(prediction.counts, prediction.context, chances=chances, most=8)
        else:
            self.choices.value = ""
        buttons = []
        for token, chance in chances[:8]:
            b = widgets.Button(description=token, tooltip=f"{token}: {percent(chance)}",
                               layout=widgets.Layout(width="auto"))
            b.add_class("tokens-lm-pick")
            b.on_click(guarded("WritingLab", self.message, lambda _b, t=token: self.pick(t)))
            buttons.append(b)
        self.picks.children = buttons
        self.dice_button.disabled = not chances
        self.done.value = self._verdict() if self.finished else ""

    def _verdict(self) -> str:
        words = [*self.start, *self.written]
        if self.lab.model.knows(words):
            return f'<p style="margin:4px 0;color:{_GREEN}"><strong>{_e(MESSAGES["copied"])}</strong></p>'
        pieces = self.lab.model.pieces(words)
        return (f'<p style="margin:4px 0"><strong>{_e(MESSAGES["made_up"].format(n=len(pieces)))}</strong></p>'
                + pieces_html(words, pieces))


class MadeUpDemo(widgets.VBox):
    """A fluent sentence that is false, and where it went wrong (step 6 of lesson 12).

    Args:
        lab: the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab` (its kit sentences,
            and where to save).

    Attributes:
        model (a model of the kit's sentences only), demo (``demos()["made_up"]``), writing
        (the :class:`~tokens_edu.lab.language.Writing`, None until written), write_button,
        shown (HTML), seam_pick (ToggleButtons of the written tokens), check_button, result
        (HTML), card_button, card_result (HTML), message (HTML), saved_id.
    """

    def __init__(self, lab):
        self.lab = lab
        self.model = NextWordModel(lab.model.context).learn(lab.kit)
        shown = demos()
        self.demo, self.card = shown["made_up"], shown["made_up_card"]
        self.writing = None
        self.saved_id: str | None = None
        self.write_button = _button(f"Let it write from {quote(self.demo['prompt'])}", "tokens-lm-write",
                                    "pencil", primary=True)
        self.shown = widgets.HTML()
        self.seam_pick = widgets.ToggleButtons(options=[], value=None, description="It goes wrong at:",
                                               style={"description_width": "initial", "button_width": "auto"},
                                               layout=widgets.Layout(display="none"))
        self.seam_pick.add_class("tokens-lm-seam-pick")
        self.check_button = _button("Check", "tokens-lm-seam-check", "check")
        self.check_button.layout.display = "none"
        self.result = widgets.HTML()
        self.result.add_class("tokens-lm-seam-result")
        self.card_button = _button(f"One from the game: {quote(self.card['prompt'])}", "tokens-lm-card", "clone")
        self.card_result = widgets.HTML()
        self.message = widgets.HTML()
        self.message.add_class("tokens-lm-message")
        self._name = lab.name_box()
        self.write_button.on_click(guarded("MadeUpDemo", self.message, lambda _b: self.write()))
        self.check_button.on_click(guarded("MadeUpDemo", self.message, lambda _b: self.check()))
        self.card_button.on_click(guarded("MadeUpDemo", self.message, lambda _b: self.card_example()))
        super().__init__([widgets.HBox([self.write_button]), self.shown, *([self._name] if self._name else []),
                          self.seam_pick, widgets.HBox([self.check_button]), self.message, self.result,
                          widgets.HBox([self.card_button]), self.card_result])
        self.add_class("tokens-lm")

    @property
    def seam(self) -> str:
        """The first token of the second piece that the first did not cover (the demo's ``seam``)."""
        words = tokens(self.demo["writes"])
        first = self.model.pieces(words)[0]
        return words[first.end]

    def write(self) -> str:
        """Write the demo sentence (surprise 0) and ask where it goes wrong. Returns the text."""
        self.writing = self.model.generate(self.demo["prompt"], MOST_TOKENS, temperature=0)
        self.shown.value = writing_html(self.writing.prompt, self.writing.tokens)
        words = [w for w in self.writing.tokens if w not in END_MARKS]
        self.seam_pick.options = list(dict.fromkeys(words))
        self.seam_pick.value = None
        self.seam_pick.layout.display = ""
        self.check_button.layout.display = ""
        return self.writing.text

    def check(self, token: str | None = None) -> bool:
        """Check the student's pick (None: the toggle's), show the pieces, save the pick.

        Returns:
            bool: True when the pick was the seam; False when wrong or nothing picked yet (then
            the message asks for a pick and nothing is shown).
        """
        token = self.seam_pick.value if token is None else token
        if not token:
            say(self.message, MESSAGES["pick_seam"], bad=True)
            return False
        right = token == self.seam
        say(self.message, MESSAGES["seam_right" if right else "seam_wrong"].format(token=quote(self.seam)),
            bad=not right)
        words = tokens(self.demo["writes"])
        self.result.value = pieces_html(words, self.model.pieces(words))
        try:
            self.saved_id = self.lab.save_response(SEAM_KEY, token, "prediction", right, self._name)
        except ValueError as e:  # no name yet, saving too often, the store is down: say so, go on
            self.message.value += (f'<p style="color:#555;font-size:13px;margin:2px 0">'
                                   f'{_e(MESSAGES["not_saved"].format(why=e))}</p>')
        return right

    def card_example(self) -> str:
        """Write the game's example (surprise 0) and show the card's true number. Returns the text."""
        writing = self.model.generate(self.card["prompt"], MOST_TOKENS, temperature=0)
        words = [*writing.prompt, *writing.tokens]
        self.card_result.value = (writing_html(writing.prompt, writing.tokens)
                                  + f'<p style="margin:4px 0">{_e(MESSAGES["card"].format(fact=self.card["fact"]))}</p>'
                                  + pieces_html(words, self.model.pieces(words)))
        return writing.text


class CopyDemo(widgets.VBox):
    """A private sentence, seen once, repeated word for word (step 6 of lesson 12).

    Args:
        lab: the page's :class:`~tokens_edu.widgets.language_lab.LanguageLab` (its kit sentences).

    Attributes:
        model (a model of the kit's sentences only), demo (``demos()["private"]``), write_button,
        shown (HTML: the sentence, each token's chance, and why).
    """

    def __init__(self, lab):
        self.lab = lab
        self.model = NextWordModel(lab.model.context).learn(lab.kit)
        self.demo = demos()["private"]
        self.write_button = _button(f"Let it write from {quote(self.demo['prompt'])}, surprise: Wild",
                                    "tokens-lm-write", "pencil", primary=True)
        self.shown = widgets.HTML()
        self.shown.add_class("tokens-lm-copy")
        self.message = widgets.HTML()
        self.write_button.on_click(guarded("CopyDemo", self.message, lambda _b: self.write()))
        super().__init__([widgets.HBox([self.write_button]), self.shown, self.message])
        self.add_class("tokens-lm")

    def write(self) -> str:
        """Write from the demo's first word at the wildest surprise; show each token's chance.
        Returns the text."""
        writing = self.model.generate(self.demo["prompt"], MOST_TOKENS, temperature=dict(SURPRISE)["Wild"],
                                      seed=self.lab.seed)
        self.shown.value = (writing_html(writing.prompt, writing.tokens)
                            + chance_chips([(s.token, s.probability) for s in writing], MESSAGES["chances"])
                            + f'<p style="margin:4px 0"><strong>{_e(MESSAGES["copy"])}</strong></p>')
        return join_tokens([*writing.prompt, *writing.tokens])
