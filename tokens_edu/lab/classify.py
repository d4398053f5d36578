"""Two small classifiers a class trains in a lesson, small enough to explain in one sentence each.

- :class:`PixelClassifier` labels a drawing on a grid (lessons 8 and 11). It is a *nearest
  neighbours* classifier: it finds the :attr:`~PixelClassifier.k` drawings it learned that are
  most like the new one (the fewest squares different) and lets them vote.
- :class:`WordClassifier` labels a typed command (lesson 8). Each word it learned votes for the
  labels it came with, split by how often (a word seen twice with "Task" and once with "Audit"
  gives Task 2/3 of a vote and Audit 1/3). Short common words ("the", "my") do not vote.

:func:`accuracy_by_group` measures a pixel classifier on a labelled table, one row per group of
people (lesson 11: "does it work as well for everyone?").

Both learn in a few milliseconds and label in well under a millisecond for a class's data
(``benchmarks/learning.py`` prints the times). No widgets here: the lesson pages are in
:mod:`tokens_edu.widgets.learning_labs`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy
    import pandas

__all__ = ["PixelClassifier", "PixelGuess", "WordClassifier", "WordGuess", "accuracy_by_group", "group_accuracy",
           "as_grid", "words_of", "STOP_WORDS", "ACCURACY_COLUMNS", "MAX_EXAMPLES"]

#: Short common words a :class:`WordClassifier` does not count (they say little about a command).
STOP_WORDS = frozenset("""a an the my your our their his her its it i me we you to of and or
    on in at with for is are be do this that these those please now then""".split())
#: The columns of :func:`accuracy_by_group`, in order.
ACCURACY_COLUMNS = ["group", "drawings", "right", "accuracy"]
#: Most examples a classifier learns from (a class of 30 drawing 50 pictures each is 1,500).
MAX_EXAMPLES = 20_000


def as_grid(picture) -> "numpy.ndarray":
    """A drawing as a 2-D array of 0 (light) and 1 (dark).

    Args:
        picture: rows of numbers (a list of lists or a 2-D numpy array), each 0 or 1, or 0 to
            255 as the journal keeps drawings (128 and above is dark).

    Returns:
        numpy uint8 array of the same shape.

    Raises:
        ValueError: not a rectangle of numbers, or numbers below 0 or above 255 (plain words).
    """
    import numpy as np  # numpy loads with pandas; `import tokens_edu` stays light

    try:
        grid = np.asarray(picture, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("A drawing is rows of numbers, every row the same length.") from None
    if grid.ndim != 2 or grid.size == 0:
        raise ValueError("A drawing is rows of numbers, every row the same length.")
    if not np.isfinite(grid).all() or grid.min() < 0 or grid.max() > 255:
        raise ValueError("Each square of a drawing is a number from 0 to 255.")
    cut = 0.5 if grid.max() <= 1 else 128
    return (grid >= cut).astype(np.uint8)


@dataclass(frozen=True)
class PixelGuess:
    """What a :class:`PixelClassifier` says about one drawing.

    Attributes:
        label: the label with the most votes (a tie: the label of the nearest drawing among
            the tied labels).
        votes: label -> how many of the nearest drawings carry it (they add up to ``k``, or
            fewer when it knows fewer drawings).
        neighbours: the nearest drawings it learned, nearest first, as ``(index, label,
            different)``: the example's position in what it learned, its label, and how many
            squares differ from the new drawing.
    """

    label: str
    votes: dict
    neighbours: list


class PixelClassifier:
    """A nearest-neighbours classifier for drawings on a grid.

    Args:
        k: how many of the most alike drawings vote (1 to 25; 3 by default).

    Attributes:
        k: as given. labels: the labels it learned, one per example. examples: how many.
        shape: the grid's (rows, columns) once it has learned, else None.

    Example::

        model = PixelClassifier(k=3).fit(table["pixels"], table["label"])
        model.predict(drawing).label          # 'Flag'

    Raises:
        ValueError: a bad ``k`` (plain words).
    """

    def __init__(self, k: int = 3):
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 25:
            raise ValueError(f"k is a whole number from 1 to 25, not {k!r:.40}.")
        self.k = k
        self.labels: list[str] = []
        self.shape: tuple[int, int] | None = None
        self._x = None

    @property
    def examples(self) -> int:
        """How many drawings it learned."""
        return len(self.labels)

    def fit(self, pictures: Iterable, labels: Iterable[str]) -> "PixelClassifier":
        """Learn these drawings and labels (replacing what it knew). Learning is remembering:
        a nearest-neighbours classifier keeps every example.

        Args:
            pictures: drawings (see :func:`as_grid`), all the same size. labels: one text label
                per drawing, in the same order.

        Returns:
            the classifier itself (so ``PixelClassifier().fit(...)`` reads well).

        Raises:
            ValueError: different numbers of drawings and labels, drawings of different sizes,
                an empty label, or more than :data:`MAX_EXAMPLES` (plain words). It keeps what it
                knew before then.
        """
        import numpy as np  # numpy loads with pandas; `import tokens_edu` stays light

        grids = [as_grid(p) for p in pictures]
        labels = [str(x).strip() for x in labels]
        if len(grids) != len(labels):
            raise ValueError(f"Give one label per drawing: {len(grids)} drawings and {len(labels)} labels.")
        if len(grids) > MAX_EXAMPLES:
            raise ValueError(f"That is too many examples: at most {MAX_EXAMPLES:,}.")
        if any(not x for x in labels):
            raise ValueError("Every drawing needs a label.")
        shapes = {g.shape for g in grids}
        if len(shapes) > 1:
            raise ValueError("All the drawings must be the same size.")
        self._x = np.stack([g.ravel() for g in grids]) if grids else None
        self.shape = shapes.pop() if shapes else None
        self.labels = labels
        return self

    def _distances(self, picture):
        if not self.labels:
            raise ValueError("It has no examples to learn from yet. Add some drawings with labels first.")
        grid = as_grid(picture)
        if grid.shape != self.shape:
            raise ValueError(f"This drawing is {grid.shape[1]} x {grid.shape[0]} squares; "
                             f"the examples are {self.shape[1]} x {self.shape[0]}.")
        if not grid.any():
            raise ValueError("The drawing is empty. Draw something first.")
        return (self._x != grid.ravel()).sum(axis=1)

    def predict(self, picture) -> PixelGuess:
        """Label one drawing: the :attr:`k` most alike drawings it learned vote.

        Args:
            picture: a drawing the size of the examples (see :func:`as_grid`).

        Returns:
            a :class:`PixelGuess` (label, votes, the nearest drawings).

        Raises:
            ValueError: it has learned nothing yet, the drawing is empty, or its size differs
                from the examples' (plain words).
        """
        near = self.nearest(picture, self.k)
        votes = Counter(label for _, label, _ in near)
        top = max(votes.values())
        tied = {label for label, n in votes.items() if n == top}
        label = next(lab for _, lab, _ in near if lab in tied)  # a tie: the nearest tied label
        return PixelGuess(label, dict(votes), near)

    def nearest(self, picture, n: int = 3) -> list[tuple[int, str, int]]:
        """The ``n`` drawings it learned that are most like ``picture``, nearest first, as
        ``(index, label, different)`` (see :class:`PixelGuess`); fewer when it knows fewer.

        Raises:
            ValueError: as :meth:`predict`.
        """
        import numpy as np  # numpy loads with pandas; `import tokens_edu` stays light

        d = self._distances(picture)
        order = np.argsort(d, kind="stable")[:max(1, int(n))]
        return [(int(i), self.labels[int(i)], int(d[i])) for i in order]

    def predict_many(self, pictures: Iterable) -> list[str]:
        """The label of each drawing (as :meth:`predict`), in order."""
        return [self.predict(p).label for p in pictures]


def group_accuracy(model: PixelClassifier, rows, names: dict | None = None) -> list[dict]:
    """How often ``model`` labels the drawings of ``rows`` right, one dict per group (no pandas).

    Args:
        model: a :class:`PixelClassifier` that has learned.
        rows: drawings as dicts (or a DataFrame's records) with ``group``, ``pixels`` and the
            right answer in ``true_label`` (or ``label`` when there is no ``true_label``).
        names: group -> the name shown; None shows the group as it is.

    Returns:
        list of dicts with the keys of :data:`ACCURACY_COLUMNS` (``accuracy`` from 0 to 1), one
        per group in the order the groups first appear.

    Raises:
        ValueError: a drawing without a group or a right answer, or a model that learned nothing.
    """
    rows = list(rows)
    hits: dict = {}
    for r in rows:
        truth = r.get("true_label", r.get("label"))
        if "group" not in r or truth is None or "pixels" not in r:
            raise ValueError("Each drawing needs a group, its pixels and its right label.")
        hits.setdefault(r["group"], []).append(model.predict(r["pixels"]).label == truth)
    return [{"group": (names or {}).get(g, g), "drawings": len(h), "right": sum(h), "accuracy": sum(h) / len(h)}
            for g, h in hits.items()]


def accuracy_by_group(model: PixelClassifier, table: "pandas.DataFrame", names: dict | None = None) -> "pandas.DataFrame":
    """How often ``model`` labels the drawings of ``table`` right, one row per group.

    Args:
        model: a :class:`PixelClassifier` that has learned.
        table: drawings with the columns ``group``, ``pixels`` and the right answer in
            ``true_label`` (or ``label`` when there is no ``true_label``).
        names: group -> the name shown (e.g. :data:`tokens_edu.lab.sketches.GROUP_NAMES`);
            None shows the group as it is.

    Returns:
        pandas.DataFrame, columns :data:`ACCURACY_COLUMNS`: ``group`` (its name), ``drawings``,
        ``right`` (labelled right) and ``accuracy`` (``right / drawings`` from 0 to 1), one row
        per group in the table's order; ``attrs["overall"]``: the accuracy over all drawings.

    Raises:
        ValueError: a column is missing, or the model has learned nothing (plain words).
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    truth = "true_label" if "true_label" in table.columns else "label"
    for column in ("group", "pixels", truth):
        if column not in table.columns:
            raise ValueError(f"The table needs a '{column}' column.")
    rows = group_accuracy(model, table[["group", "pixels", truth]].to_dict("records"), names)
    out = pd.DataFrame(rows, columns=ACCURACY_COLUMNS)
    total = int(out["drawings"].sum())
    out.attrs["overall"] = int(out["right"].sum()) / total if total else float("nan")
    return out


# -- words ----------------------------------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words_of(text: str) -> list[str]:
    """The words of ``text`` that vote: lower case, without :data:`STOP_WORDS`, in order."""
    return [w for w in _WORD.findall(str(text).lower()) if w not in STOP_WORDS]


@dataclass(frozen=True)
class WordGuess:
    """What a :class:`WordClassifier` says about one text.

    Attributes:
        label: the label with the most votes, or None when no word it knows is in the text or
            two labels tie at the top (then ``tied`` names them).
        votes: label -> its votes (each known word gives one vote, split among its labels).
        voters: word -> {label: share of its vote}, for the known words of the text, in order.
        unknown: the words of the text it never saw.
        tied: the labels tied at the top (empty unless there is a tie).
    """

    label: str | None
    votes: dict
    voters: dict
    unknown: list = field(default_factory=list)
    tied: list = field(default_factory=list)


class WordClassifier:
    """A text classifier that learns which words go with which label (word votes).

    Attributes:
        counts: word -> Counter of label -> how many examples with that label had the word.
        labels: the labels it has seen, in the order it first saw them. examples: how many.

    Example::

        model = WordClassifier().fit(["score with my chatbot", "check their robot"], ["Task", "Audit"])
        model.predict("score points").label     # 'Task'
    """

    def __init__(self):
        self.counts: dict[str, Counter] = {}
        self.labels: list[str] = []
        self.examples = 0

    def fit(self, texts: Sequence[str], labels: Sequence[str]) -> "WordClassifier":
        """Learn from these texts and labels (replacing what it knew).

        Args:
            texts: the typed commands. labels: one label per text, in the same order.

        Returns:
            the classifier itself.

        Raises:
            ValueError: different numbers of texts and labels, an empty label, or more than
                :data:`MAX_EXAMPLES` (plain words).
        """
        texts, labels = list(texts), [str(x).strip() for x in labels]
        if len(texts) != len(labels):
            raise ValueError(f"Give one label per command: {len(texts)} commands and {len(labels)} labels.")
        if len(texts) > MAX_EXAMPLES:
            raise ValueError(f"That is too many examples: at most {MAX_EXAMPLES:,}.")
        if any(not x for x in labels):
            raise ValueError("Every command needs a label.")
        counts: dict[str, Counter] = {}
        for text, label in zip(texts, labels):
            for word in dict.fromkeys(words_of(text)):  # a word counts once per example
                counts.setdefault(word, Counter())[label] += 1
        self.counts = counts
        self.labels = list(dict.fromkeys(labels))
        self.examples = len(texts)
        return self

    def predict(self, text: str) -> WordGuess:
        """Label one text by its words' votes.

        Returns:
            a :class:`WordGuess`; its ``label`` is None when no known word is in the text or
            the top labels tie.
        """
        votes: Counter = Counter()
        voters: dict[str, dict] = {}
        unknown = []
        for word in dict.fromkeys(words_of(text)):
            seen = self.counts.get(word)
            if not seen:
                unknown.append(word)
                continue
            total = sum(seen.values())
            share = {label: n / total for label, n in seen.items()}
            voters[word] = share
            votes.update(share)
        if not votes:
            return WordGuess(None, {}, {}, unknown)
        top = max(votes.values())
        tied = [label for label in self.labels if label in votes and abs(votes[label] - top) < 1e-9]
        if len(tied) > 1:
            return WordGuess(None, dict(votes), voters, unknown, tied)
        return WordGuess(tied[0], dict(votes), voters, unknown)

    def word_table(self) -> "pandas.DataFrame":
        """What it learned: one row per word, one column per label (how many examples with
        that label had the word), most used words first."""
        import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

        rows = [{"word": w, **{label: c.get(label, 0) for label in self.labels}} for w, c in self.counts.items()]
        table = pd.DataFrame(rows, columns=["word", *self.labels])
        if len(table):
            table = table.assign(_n=table[self.labels].sum(axis=1)).sort_values(
                ["_n", "word"], ascending=[False, True], kind="stable").drop(columns="_n")
        return table.reset_index(drop=True)
