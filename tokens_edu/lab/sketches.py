"""The sketch data set of lessons 8 and 11: the game's three signs, drawn on a 12 x 12 grid.

The Tokens app of lessons 8 and 11 lets a player draw a sign instead of clicking: a **Token**
(a coin: a ring), a **Flag** (a flag on a pole) or a **Data** diamond (the diamond around a card's
cost). A classifier (:class:`~tokens_edu.lab.classify.PixelClassifier`) reads the drawing.

The kit ships a small, made-up table of such drawings, ``tokens_edu/lab/data/sketches.csv``
(one row per drawing; it opens in a spreadsheet). Every drawing was made by
:func:`make_sketches`, which draws each sign the way one of three **groups** of players draws:

``pen``     a pen on a tablet: thin, neat lines, a middle-sized sign near the middle;
``mouse``   a mouse on a laptop: thin, wobbly lines, a sign a little smaller;
``finger``  a finger on a phone: thick lines, a big sign that fills the box.

The drawings are split (the ``split`` column) into the ``train`` set the lesson's classifier
starts from (skewed on purpose, like data collected only from the people at hand: 8 pen
drawings of each sign, 2 mouse drawings, and no finger drawings; one mouse drawing carries a
wrong label, as real data sets do), the ``extra`` drawings a student may add (4 of each sign from
each group), and the ``test`` set the accuracy is measured on (10 of each sign from each group).
Lesson 11 measures the accuracy per group, finds the group it fails, adds or fixes examples and
measures again. ``benchmarks/learning.py`` prints the figures.

Columns of :func:`load_sketches` and :func:`make_sketches`: ``id`` (``"s001"``...), ``split``,
``group``, ``label`` (the label the drawing carries), ``true_label`` (what it really shows; the
same as ``label`` except for the wrong labels), ``pixels`` (a :data:`SIDE` x :data:`SIDE` numpy
array of 0 and 1, 1 dark; in the CSV file a text of 144 digits, row by row).

Rebuild the file (it must not change unless this module does; a test checks it)::

    python -m tokens_edu.lab.sketches
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy
    import pandas

__all__ = ["SIDE", "LABELS", "GROUPS", "GROUP_NAMES", "SKETCH_FILE", "SKETCH_COLUMNS", "make_sketches",
           "load_sketches", "sketch_rows", "draw_sign", "pixels_to_text", "text_to_pixels"]

#: Pixels on each side of a drawing.
SIDE = 12
#: The signs a drawing may show, in order.
LABELS = ("Token", "Flag", "Data")
#: The groups of players, in order, and how each one draws (size, lines, wobble).
GROUPS = {
    "pen": dict(size=(3.6, 4.4), shift=1.0, brush=0.55, wobble=0.0),
    "mouse": dict(size=(3.2, 4.0), shift=1.0, brush=0.55, wobble=0.35),
    "finger": dict(size=(4.8, 5.4), shift=0.6, brush=1.8, wobble=0.1),
}
#: Each group's name in a student's words.
GROUP_NAMES = {"pen": "Pen on a tablet", "mouse": "Mouse on a laptop", "finger": "Finger on a phone"}
#: The shipped table (in the package, so a wheel carries it).
SKETCH_FILE = Path(__file__).resolve().parent / "data" / "sketches.csv"
#: The columns of the table, in order.
SKETCH_COLUMNS = ["id", "split", "group", "label", "true_label", "pixels"]
#: How many drawings of each sign, per group, in each split.
_COUNTS = {
    "train": {"pen": 8, "mouse": 2, "finger": 0},
    "extra": {"pen": 4, "mouse": 4, "finger": 4},
    "test": {"pen": 10, "mouse": 10, "finger": 10},
}
#: (split, group, sign, copy number) -> the wrong label it carries in the shipped table.
_WRONG_LABELS = {("train", "mouse", "Flag", 1): "Data"}


def _points(label: str, cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """Points along the strokes of a sign of size ``s`` centred near (cx, cy)."""
    pts: list[tuple[float, float]] = []

    def line(x0, y0, x1, y1):
        n = max(2, int(math.hypot(x1 - x0, y1 - y0) * 3))
        pts.extend((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(n + 1))

    if label == "Token":  # a ring
        pts.extend((cx + s * math.cos(2 * math.pi * i / 60), cy + s * 0.95 * math.sin(2 * math.pi * i / 60))
                   for i in range(60))
    elif label == "Data":  # a diamond
        corners = [(cx, cy - s), (cx + s * 0.8, cy), (cx, cy + s), (cx - s * 0.8, cy), (cx, cy - s)]
        for a, b in zip(corners, corners[1:]):
            line(*a, *b)
    elif label == "Flag":  # a pole and a flag pointing right
        pole = cx - s * 0.6
        line(pole, cy - s, pole, cy + s)
        line(pole, cy - s, pole + s * 1.3, cy - s * 0.5)
        line(pole + s * 1.3, cy - s * 0.5, pole, cy)
    else:
        raise ValueError(f"A sign is one of {', '.join(LABELS)}, not {label!r:.40}.")
    return pts


def draw_sign(label: str, group: str, rng: random.Random) -> "numpy.ndarray":
    """One drawing of ``label`` the way ``group`` draws it.

    Args:
        label: one of :data:`LABELS`. group: one of :data:`GROUPS`.
        rng: where its small differences come from (size, place, wobble).

    Returns:
        numpy array of shape (:data:`SIDE`, :data:`SIDE`), 0 (light) and 1 (dark), uint8.

    Raises:
        ValueError: an unknown label or group.
    """
    import numpy as np  # numpy loads with pandas; this module stays light to import

    if group not in GROUPS:
        raise ValueError(f"A group is one of {', '.join(GROUPS)}, not {group!r:.40}.")
    p = GROUPS[group]
    size = rng.uniform(*p["size"])
    c = (SIDE - 1) / 2
    cx, cy = c + rng.uniform(-p["shift"], p["shift"]), c + rng.uniform(-p["shift"], p["shift"])
    pts = _points(label, cx, cy, size)
    if p["wobble"]:
        dx = dy = 0.0
        wobbly = []
        for x, y in pts:  # a hand that drifts a little and comes back
            dx = max(-1.0, min(1.0, dx + rng.gauss(0, p["wobble"])))
            dy = max(-1.0, min(1.0, dy + rng.gauss(0, p["wobble"])))
            wobbly.append((x + dx, y + dy))
        pts = wobbly
    ys, xs = np.mgrid[0:SIDE, 0:SIDE]
    grid = np.zeros((SIDE, SIDE), dtype=bool)
    r2 = p["brush"] ** 2
    for x, y in pts:
        grid |= (xs - x) ** 2 + (ys - y) ** 2 <= r2
    return grid.astype(np.uint8)


def pixels_to_text(pixels) -> str:
    """A drawing as 144 digits, row by row ("0" light, "1" dark): how the CSV file keeps it."""
    return "".join("1" if v else "0" for row in pixels for v in row)


def text_to_pixels(text: str) -> "numpy.ndarray":
    """The drawing kept as :func:`pixels_to_text` wrote it.

    Raises:
        ValueError: not :data:`SIDE` x :data:`SIDE` digits 0 and 1.
    """
    import numpy as np  # numpy loads with pandas; this module stays light to import

    text = str(text).strip()
    if len(text) != SIDE * SIDE or set(text) - {"0", "1"}:
        raise ValueError(f"A drawing in the file is {SIDE * SIDE} digits, each 0 or 1.")
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(SIDE, SIDE) - ord("0")


def make_sketches(seed: int = 11) -> "pandas.DataFrame":
    """Draw the whole data set (see the module's docs for its columns and splits).

    Args:
        seed: the same seed gives the same drawings (the shipped file uses 11).

    Returns:
        pandas.DataFrame, columns :data:`SKETCH_COLUMNS`, ``pixels`` as numpy arrays.
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    rows = []
    for split, counts in _COUNTS.items():
        for group, n in counts.items():
            rng = random.Random(f"tokens-edu-sketches/{seed}/{split}/{group}")
            for label in LABELS:
                for copy in range(n):
                    rows.append({"id": f"s{len(rows) + 1:03d}", "split": split, "group": group,
                                 "label": _WRONG_LABELS.get((split, group, label, copy), label),
                                 "true_label": label, "pixels": draw_sign(label, group, rng)})
    return pd.DataFrame(rows, columns=SKETCH_COLUMNS)


def sketch_rows(path: str | Path | None = None) -> list[dict]:
    """The shipped sketch table as plain rows, without pandas (a lesson page that only needs the
    drawings does not pay about 30 MiB of kernel memory for pandas).

    Args:
        path: None for :data:`SKETCH_FILE`, or a CSV file with the columns of :data:`SKETCH_COLUMNS`.

    Returns:
        list of dicts with the keys of :data:`SKETCH_COLUMNS` (``pixels`` a numpy array), in
        the file's order.

    Raises:
        FileNotFoundError: no such file (the message says where it looked).
        ValueError: a missing column, an unknown split, group or label, or a bad drawing
            (the message names the row).
    """
    import csv

    path = SKETCH_FILE if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"The sketch table is not at {path}. Reinstall tokens-edu.")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in SKETCH_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path.name} has no column {', '.join(missing)}.")
        rows = []
        for i, raw in enumerate(reader):
            row = {c: (raw[c] or "") for c in SKETCH_COLUMNS}
            where = f"{path.name}, drawing {row['id'] or i + 1}"
            if row["split"] not in _COUNTS or row["group"] not in GROUPS:
                raise ValueError(f"{where}: unknown split or group ({row['split']!r}, {row['group']!r}).")
            if row["label"] not in LABELS or row["true_label"] not in LABELS:
                raise ValueError(f"{where}: a label is one of {', '.join(LABELS)}.")
            try:
                row["pixels"] = text_to_pixels(row["pixels"])
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
            rows.append(row)
    return rows


def load_sketches(path: str | Path | None = None) -> "pandas.DataFrame":
    """The shipped sketch table (or another file with its columns) as a DataFrame.

    Args:
        path: None for :data:`SKETCH_FILE`, or a CSV file with the columns of :data:`SKETCH_COLUMNS`.

    Returns:
        pandas.DataFrame, columns :data:`SKETCH_COLUMNS`, ``pixels`` as numpy arrays.

    Raises:
        FileNotFoundError, ValueError: as :func:`sketch_rows`.
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    return pd.DataFrame(sketch_rows(path), columns=SKETCH_COLUMNS)


def _write(path: Path = SKETCH_FILE) -> int:
    """Write :func:`make_sketches` to ``path`` as CSV; returns the number of drawings."""
    table = make_sketches()
    table["pixels"] = [pixels_to_text(p) for p in table["pixels"]]
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, lineterminator="\n")
    return len(table)


if __name__ == "__main__":  # pragma: no cover
    print(_write(), "drawings written to", SKETCH_FILE)
