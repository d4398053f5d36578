"""A next-word model a student can read: it counts which token follows which, then guesses.

This is the model of lesson 12 ("Finish my sentence") and of notebook 09. It works like the
first language models: Claude Shannon's word-by-word approximations of English (1948, "A
Mathematical Theory of Communication", section 3) and the n-gram models of chapter 3 of
Jurafsky and Martin's *Speech and Language Processing* (3rd edition draft, "N-gram Language
Models"). A chatbot's large language model also writes one token at a time by picking a likely
next token; it just learns its chances with a neural network from far more text.

How it works, in four steps:

1. :func:`tokens` cuts a text into **tokens**: lower-case words (``"isn't"`` stays one word,
   as does ``"fine-tuning"``) and punctuation marks (``"."``, ``","``, ``"?"``...).
2. :meth:`NextWordModel.learn` reads sentences and counts, for every run of up to ``context``
   tokens inside a sentence, which token came next. ``counts(("is", "a"))`` is that table:
   ``{"star": 1, "rock": 1, ...}``.
3. :meth:`NextWordModel.next_words` looks at the last ``context`` tokens of a prompt. If it has
   seen them followed by something, the chances are exactly the counts divided by their total.
   If not, it **backs off**: it drops the first token and tries the shorter context, down to one
   token, then to no context at all (every token it knows, counted once per time it appeared).
   This "use the longest context you have seen" rule is the back-off of Brants et al. (2007,
   "Large Language Models in Machine Translation"), without their discount: the numbers are the
   plain counts, so a student can check each one by hand.
4. :meth:`NextWordModel.generate` writes by repeating step 3 and picking a token. The
   **temperature** (the lesson's "surprise" control) reshapes the chances: each count is raised
   to the power ``1 / temperature`` before dividing by the total, which is the softmax with a
   temperature used by neural language models (Goodfellow, Bengio and Courville, *Deep Learning*,
   2016, section 6.2.2.3, applied to the logarithm of the counts). Temperature 1 keeps the counted
   chances; below 1 the likely tokens get likelier; 0 always takes the likeliest (a tie: the
   first in alphabetical order); above 1 the chances even out, so rare tokens come up more.

A sentence that the model has seen once, with words it never saw anywhere else, has only one
token after each of its contexts: the model repeats it word for word. Large language models do
this too with text they saw during training, which is how private text can leak out of them
(Carlini et al., 2021, "Extracting Training Data from Large Language Models", USENIX Security).

Example::

    >>> model = NextWordModel(context=2).learn(["The sun is a star.", "The moon is a rock."])
    >>> model.counts("is a")
    {'rock': 1, 'star': 1}
    >>> model.next_words("the sun is a")
    [('rock', 0.5), ('star', 0.5)]
    >>> model.last_context
    ('is', 'a')
    >>> [step.token for step in model.generate("the sun is", 3, temperature=0)]
    ['a', 'rock', '.']

Nothing here is fetched or downloaded, and there are no model weights: the counts are the model.
``benchmarks/language.py`` measures learning 5,000 sentences and one guess.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["NextWordModel", "Prediction", "Step", "Writing", "Piece", "tokens", "join_tokens", "END_MARKS"]

#: One token: a word (letters and digits, with ' or - inside it) or one punctuation mark.
_TOKEN = re.compile(r"[^\W_]+(?:['-][^\W_]+)*|[^\w\s]")
_TOKEN_OR_LINE = re.compile(_TOKEN.pattern + r"|\n")
_EMPTY_LINES = re.compile(r"\n(?: \n)+")
#: Tokens that end a sentence: :meth:`NextWordModel.generate` stops after writing one.
END_MARKS = frozenset({".", "!", "?"})
#: Marks written with no space before them when tokens are joined back into text.
_NO_SPACE_BEFORE = frozenset(".,!?;:)'\"%")


def tokens(text: str) -> list[str]:
    """Cut ``text`` into tokens: lower-case words and punctuation marks, in order.

    Curly apostrophes count as straight ones, so ``"isn’t"`` and ``"isn't"`` are the same token.

    Args:
        text: any text (a sentence, a prompt, a paragraph).

    Returns:
        list[str]: the tokens, e.g. ``tokens("The cat's hat, red.")`` is
        ``["the", "cat's", "hat", ",", "red", "."]``.

    Raises:
        TypeError: ``text`` is not a string (one plain sentence).
    """
    if not isinstance(text, str):
        raise TypeError(f"A text to cut into tokens must be words in quotes, not {type(text).__name__}.")
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def join_tokens(words: Iterable[str]) -> str:
    """Tokens back into readable text: a space between words, none before a punctuation mark.

    Args:
        words: tokens, as :func:`tokens` makes them.

    Returns:
        str: e.g. ``join_tokens(["the", "sun", "is", "a", "star", "."])`` is
        ``"the sun is a star."``.
    """
    out = ""
    for word in words:
        out += word if (not out or word in _NO_SPACE_BEFORE) else " " + word
    return out


class Prediction(list):
    """What :meth:`NextWordModel.next_words` returns: a list of ``(token, probability)`` pairs,
    most likely first (a tie: alphabetical order), with what the model looked at.

    Attributes:
        context: the tokens whose counts gave these chances (a tuple, 0 to ``context`` tokens;
            ``()`` means every token the model knows).
        wanted: the last tokens of the prompt it looked for first (a tuple).
        counts: token -> how many times it came after ``context`` (all of them, also those cut
            off by ``k``).
        total: the sum of ``counts``: each probability is a count divided by this.
        note: ``""`` when the model used all of ``wanted``; otherwise one plain sentence saying
            it backed off and why.
    """

    def __init__(self, pairs, context: tuple, wanted: tuple, counts: dict, note: str):
        super().__init__(pairs)
        self.context = context
        self.wanted = wanted
        self.counts = counts
        self.total = sum(counts.values())
        self.note = note

    @property
    def backed_off(self) -> bool:
        """True when the model used a shorter context than the prompt's last tokens."""
        return self.context != self.wanted


@dataclass(frozen=True)
class Step:
    """One token :meth:`NextWordModel.generate` wrote.

    Attributes:
        token: the token written.
        probability: the chance it had of being picked (0 to 1), at the temperature used.
        candidates: every ``(token, chance)`` it picked from, most likely first, at that
            temperature (the chances sum to 1).
        context: the tokens it looked at (see :class:`Prediction`).
        counted: the token's chance from the counts alone (temperature 1).
    """

    token: str
    probability: float
    candidates: tuple
    context: tuple
    counted: float


@dataclass(frozen=True)
class Piece:
    """A run of a text's tokens that appears, word for word, in one sentence the model learned
    (see :meth:`NextWordModel.pieces`).

    Attributes:
        start: the index of its first token in the text's tokens.
        tokens: its tokens (a tuple).
        sentence: a learned sentence it appears in (its tokens joined), or None when its one
            token is a word the model never saw.
    """

    start: int
    tokens: tuple
    sentence: str | None

    @property
    def end(self) -> int:
        """The index just after its last token."""
        return self.start + len(self.tokens)


class Writing(list):
    """What :meth:`NextWordModel.generate` returns: a list of :class:`Step`, one per token written.

    Attributes:
        prompt: the tokens of the prompt it started from (a tuple).
    """

    def __init__(self, steps, prompt: tuple):
        super().__init__(steps)
        self.prompt = prompt

    @property
    def tokens(self) -> list[str]:
        """The tokens written (the prompt not included)."""
        return [step.token for step in self]

    @property
    def text(self) -> str:
        """The prompt and what was written, as readable text."""
        return join_tokens([*self.prompt, *self.tokens])


def _check_context(context) -> int:
    if isinstance(context, bool) or not isinstance(context, int):
        raise ValueError(f"The context is a whole number of tokens (1, 2, 3...), not {context!r}.")
    if context < 1:
        raise ValueError(f"The context must be at least 1 token, not {context}.")
    return context


class NextWordModel:
    """Counts which token follows each run of tokens, and guesses the next one (see the module).

    It keeps the sentences it learned, as tokens, and fills in a count table the moment it is
    asked for one: it finds every place the context appears in those sentences and counts the
    token right after it, just as a student does with a pencil. (A model that makes every table
    ahead of time gives the same numbers; notebook 09 builds that one.) A table, once counted,
    is kept until the model learns more.

    Args:
        context: how many tokens before the next one it looks at (1 or more; lesson 12 uses 2).

    Attributes:
        context: as given.
        sentences: how many sentences it has learned.
        token_count: how many tokens those sentences had.
        last_context: the context the last :meth:`next_words` (or generate step) used (a tuple),
            None before the first guess.

    Raises:
        ValueError: ``context`` is not a whole number of at least 1 (one plain sentence).
    """

    #: Count tables kept at most (a long writing session asks for many; then they are counted again).
    MAX_KEPT = 20_000

    def __init__(self, context: int = 2):
        self.context = _check_context(context)
        self.sentences = 0
        self.token_count = 0
        self.last_context: tuple | None = None
        # the learned sentences: every token with a space before and after it, sentences
        # separated by a line break (" the sun is a star . \n the moon ... \n ")
        self._text = " \n "
        self._tables: dict[tuple, dict[str, int]] = {}

    def __repr__(self) -> str:
        return f"NextWordModel(context={self.context})  # {self.sentences} sentences, {self.token_count} tokens"

    @staticmethod
    def tokens(text: str) -> list[str]:
        """The tokens of ``text``: see :func:`tokens` (the one tokenizer students see)."""
        return tokens(text)

    # -- learning -------------------------------------------------------------------------------
    def learn(self, sentences: Iterable[str] | str) -> "NextWordModel":
        """Learn ``sentences``: every count table now includes them (nothing is forgotten).

        Each sentence is counted on its own: a context never runs from one sentence into the next.

        Args:
            sentences: an iterable of strings, one sentence (or a few) each; a single string is
                taken as one sentence.

        Returns:
            the model itself (so ``NextWordModel().learn(text)`` works).

        Raises:
            TypeError: an item is not a string (nothing is learned from that call).
        """
        if isinstance(sentences, str):
            sentences = [sentences]
        texts = list(sentences)
        bad = next((s for s in texts if not isinstance(s, str)), None)
        if bad is not None:
            raise TypeError(f"A model learns from sentences in quotes, not {type(bad).__name__}.")
        # all at once (one pass of the tokenizer): one line per sentence, empty ones left out
        lines = "\n".join(" ".join(s.split()) for s in texts).lower().replace("\u2019", "'")
        cut = _TOKEN_OR_LINE.findall(lines)
        learned = _EMPTY_LINES.sub("\n", " ".join(cut)).strip(" \n")
        if not learned:
            return self
        self._text += learned + " \n "
        self.sentences += learned.count("\n") + 1
        self.token_count += len(cut) - cut.count("\n")
        self._tables.clear()
        return self

    # -- reading the counts ---------------------------------------------------------------------
    def _as_context(self, context) -> tuple:
        if isinstance(context, str):
            found = tokens(context)
        elif isinstance(context, (tuple, list)):
            found = [str(t).lower() for t in context]
        else:
            raise TypeError(f"A context is words in quotes or a tuple of tokens, not {type(context).__name__}.")
        if len(found) > self.context:
            raise ValueError(f"This model looks at {self.context} tokens at most; "
                             f"{join_tokens(found)!r} has {len(found)}.")
        return tuple(found)

    def counts(self, context: str | tuple = ()) -> dict[str, int]:
        """The count table for one context: each token seen right after it, and how many times.

        No back-off here: a context never seen gives ``{}``.

        Args:
            context: a string or a tuple of 0 to ``context`` tokens (``()`` or ``""``: every
                token the model knows, with how many times it appeared).

        Returns:
            dict[str, int]: token -> count, the biggest count first (a tie: alphabetical).

        Raises:
            ValueError: more tokens than the model's ``context``.
            TypeError: not a string or a tuple.
        """
        return dict(self._table(self._as_context(context)))

    def _table(self, run: tuple) -> dict[str, int]:
        table = self._tables.get(run)
        if table is None:
            if run:
                # " is(?= a (\S+))": each place the context starts, and the token after it; only
                # the first token is used up, so places that overlap are all found
                first, *rest = (re.escape(t) for t in run)
                after = re.findall(f" {first}(?={''.join(' ' + t for t in rest)} (\\S+))", self._text)
            else:
                after = self._text.split()  # every token (the line breaks are spaces to split())
            table = dict(sorted(Counter(after).items(), key=lambda item: (-item[1], item[0])))
            if len(self._tables) >= self.MAX_KEPT:
                self._tables.clear()
            self._tables[run] = table
        return table

    def next_words(self, prompt: str | tuple, k: int | None = None) -> Prediction:
        """The chances of each token coming next after ``prompt``, most likely first.

        It looks at the last ``context`` tokens of the prompt. If it never saw them followed by
        a token, it backs off to the last ``context - 1`` tokens, and so on down to the last
        token, then to every token it knows (``context == ()``), and the result's ``note`` says so.

        Args:
            prompt: the start of a sentence (a string, or a tuple/list of tokens); "" is allowed.
            k: keep only the ``k`` likeliest (None: all). The chances are still out of all the
                counts, so with ``k`` they may add up to less than 1.

        Returns:
            Prediction: a list of ``(token, probability)``; each probability is exactly that
            token's count divided by the total count for the context used; they sum to 1
            (before ``k``). Also sets :attr:`last_context`.

        Raises:
            LookupError: the model has learned nothing yet.
            ValueError: ``k`` below 1.
        """
        if not self.token_count:
            raise LookupError("The model has not learned any sentences yet: give it some with learn().")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise ValueError(f"k is how many guesses to show: a whole number of at least 1, not {k!r}.")
        words = tokens(prompt) if isinstance(prompt, str) else [str(t).lower() for t in prompt]
        wanted = tuple(words[-self.context:]) if words else ()
        run = wanted
        while run and not self._table(run):
            run = run[1:]
        counts = self._table(run)
        total = sum(counts.values())
        pairs = [(token, times / total) for token, times in counts.items()]
        self.last_context = run
        return Prediction(pairs[:k] if k else pairs, run, wanted, dict(counts), self._note(wanted, run))

    def _note(self, wanted: tuple, used: tuple) -> str:
        if used == wanted:
            return ""
        unknown = [t for t in wanted if f" {t} " not in self._text]
        if not used:
            if unknown:
                return (f"It never saw {join_tokens(unknown)!r}, so it backs off to all the words it knows, "
                        "counted over all its sentences.")
            return (f"It never saw anything after {join_tokens(wanted)!r}, so it backs off to all the "
                    "words it knows.")
        return (f"It never saw anything after {join_tokens(wanted)!r}, so it backs off to the last "
                f"{'token' if len(used) == 1 else f'{len(used)} tokens'}: {join_tokens(used)!r}.")

    def knows(self, sentence: str | Iterable[str]) -> bool:
        """True when ``sentence`` (a string or tokens) is exactly one of the sentences learned
        (the lesson's "did it copy this word for word?")."""
        words = tokens(sentence) if isinstance(sentence, str) else [str(t).lower() for t in sentence]
        return bool(words) and f"\n {' '.join(words)} \n" in self._text

    def pieces(self, text: str | Iterable[str]) -> list[Piece]:
        """Where each part of ``text`` came from: the learned sentences it can be copied from.

        From the first token, it takes the longest run that appears word for word in one learned
        sentence; the next piece starts with the tokens before the first token that run did not
        cover (up to ``context`` of them: those the model looked at when it chose that token).
        A text the model wrote from two sentences gives two pieces; the **seam** is the first
        token of the second piece that the first did not cover. A learned sentence is one piece.

        Args:
            text: a string or tokens.

        Returns:
            list[Piece]: in order; pieces may overlap by up to ``context`` tokens.
        """
        words = tokens(text) if isinstance(text, str) else [str(t).lower() for t in text]
        out: list[Piece] = []
        i = 0
        while i < len(words):
            if f" {words[i]} " not in self._text:
                out.append(Piece(i, (words[i],), None))
                i += 1
                continue
            j = i + 1
            while j < len(words) and f" {' '.join(words[i:j + 1])} " in self._text:
                j += 1
            out.append(Piece(i, tuple(words[i:j]), self._sentence_with(words[i:j])))
            if j == len(words):
                break
            # the next piece starts with the tokens the model looked at to choose words[j]: the
            # last `context` ones if it saw them before words[j], else fewer (it backed off)
            i = next((k for k in range(max(j - self.context, i + 1), j)
                      if f" {' '.join(words[k:j + 1])} " in self._text), j)
        return out

    def _sentence_with(self, run: list[str]) -> str:
        at = self._text.find(f" {' '.join(run)} ")
        start = self._text.rfind("\n", 0, at) + 1
        return join_tokens(self._text[start:self._text.find("\n", at)].split())

    # -- writing --------------------------------------------------------------------------------
    @staticmethod
    def reshape(prediction: list, temperature: float) -> list[tuple[str, float]]:
        """The chances of ``prediction`` at ``temperature`` (see the module): each count's share
        raised to ``1 / temperature``, divided by their total.

        Args:
            prediction: ``(token, probability)`` pairs, as :meth:`next_words` gives.
            temperature: 0 or more; 0 gives the likeliest token chance 1 (a tie: alphabetical).

        Returns:
            list of ``(token, chance)``, most likely first (a tie: alphabetical), summing to 1.

        Raises:
            ValueError: a negative or not-a-number temperature.
        """
        temperature = _check_temperature(temperature)
        pairs = sorted(prediction, key=lambda item: (-item[1], item[0]))
        if not pairs:
            return []
        if temperature == 0:
            return [(token, 1.0 if i == 0 else 0.0) for i, (token, _) in enumerate(pairs)]
        top = pairs[0][1]
        # shares of the largest, so a tiny temperature gives 0 for the rest instead of overflowing
        weights = [(p / top) ** (1.0 / temperature) for _, p in pairs]
        total = sum(weights)
        return [(token, w / total) for (token, _), w in zip(pairs, weights)]

    def generate(self, prompt: str | tuple, n: int, temperature: float = 1.0, seed: int | None = None,
                 stop: bool = True) -> Writing:
        """Write up to ``n`` tokens after ``prompt``, one at a time.

        At each step it takes :meth:`next_words` for the prompt and what it wrote so far, reshapes
        the chances with ``temperature`` (:meth:`reshape`) and picks one at random with those
        chances (temperature 0: always the likeliest).

        Args:
            prompt: the start (a string or tokens).
            n: the most tokens to write (0 or more).
            temperature: the "surprise": 0 always the likeliest, 1 the counted chances, above 1
                wilder.
            seed: the same seed (an int) gives the same writing; None: different each time.
            stop: stop after writing a sentence's end mark (``.``, ``!`` or ``?``).

        Returns:
            Writing: a list of :class:`Step` (``.tokens``, ``.text``). Sets :attr:`last_context`.

        Raises:
            LookupError: the model has learned nothing yet.
            ValueError: a negative ``n`` or temperature.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n is how many tokens to write: a whole number of 0 or more, not {n!r}.")
        temperature = _check_temperature(temperature)
        if not self.token_count:
            raise LookupError("The model has not learned any sentences yet: give it some with learn().")
        start = tuple(tokens(prompt) if isinstance(prompt, str) else (str(t).lower() for t in prompt))
        rng = random.Random(seed)
        written: list[str] = []
        steps = []
        for _ in range(n):
            guess = self.next_words([*start[-self.context:], *written][-self.context:])
            counted = dict(guess)
            chances = self.reshape(guess, temperature)
            token = chances[0][0] if temperature == 0 else _pick(chances, rng.random())
            steps.append(Step(token, dict(chances)[token], tuple(chances), guess.context, counted[token]))
            written.append(token)
            if stop and token in END_MARKS:
                break
        return Writing(steps, start)


def _check_temperature(temperature) -> float:
    try:
        value = float(temperature)
    except (TypeError, ValueError):
        raise ValueError(f"The temperature is a number of 0 or more, not {temperature!r}.") from None
    if not value >= 0 or value == float("inf"):  # also catches "not a number"
        raise ValueError(f"The temperature must be 0 or more (0 = always the likeliest), not {temperature!r}.")
    return value


def _pick(chances: list[tuple[str, float]], roll: float) -> str:
    """The token whose slice of 0..1 holds ``roll`` (slices in the order given)."""
    upto = 0.0
    for token, chance in chances:
        upto += chance
        if roll < upto:
            return token
    # a roll just under 1 that passed the rounding of the sums: the last token with a chance
    return next(token for token, chance in reversed(chances) if chance > 0)
