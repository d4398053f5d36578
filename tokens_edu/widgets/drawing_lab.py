"""Lesson 8's drawing lab: the class draws and labels signs, and a classifier learns from them.

A student draws one of the game's signs (a Token, a Flag or a Data diamond; see
:mod:`tokens_edu.lab.sketches`) on a :class:`~tokens_edu.widgets.pixel_grid.PixelGrid`. While they
draw, the classifier (:class:`~tokens_edu.lab.classify.PixelClassifier`, nearest neighbours)
says what it thinks the drawing shows and shows the drawings it learned that are most like it.
The student picks what the drawing really shows and clicks **Add to the class's examples**: the
drawing is saved with its label in the store (SQLite or PostgreSQL, with the answers), so the
whole class's drawings become the training data. **Learn from the class's drawings** reads
them all again (a classmate may have added some) and the classifier learns them.

The class's drawings come back without names (``session.store.drawings.for_class``). A drawing is saved
under the page's student (:mod:`tokens_edu.widgets.who`: a login, a class-roster code, a name
typed on the page or the link's ``?student=``; a name box shows when the page has none). A
drawing that cannot be saved (no name, the store is down) is kept on this page only, and the
page says so; it still teaches this page's classifier.

Everything runs in the kernel; nothing is fetched. Stable CSS classes: ``tokens-drawing-lab``,
``tokens-drawing-guess``, ``tokens-drawing-labels``, ``tokens-drawing-add``,
``tokens-drawing-learn``, ``tokens-drawing-clear``, ``tokens-drawing-count``,
``tokens-drawing-message``, and the grid's (``tokens-pixelgrid``...).
"""

from __future__ import annotations

import html
import logging
import time
from collections import Counter
from collections.abc import Sequence

import ipywidgets as widgets

from ..lab.classify import PixelClassifier
from ..lab.sketches import LABELS, SIDE, sketch_rows
from ..present.charts import drawing_svg
from .pixel_grid import PixelGrid
from .who import ensure_student, given_session, journal_alias, name_box

__all__ = ["DrawingLab", "MESSAGES"]

log = logging.getLogger(__name__)

#: What the lab says, in a student's words (the readability test measures these).
MESSAGES = {
    "empty_model": "It knows no drawings yet. Draw a sign, pick what it is, and click Add.",
    "one_label": "It only knows {label} so far, so it will say {label} every time. Teach it another sign!",
    "draw": "Draw a sign on the grid. It will guess while you draw.",
    "pick": "Pick what your drawing shows first. Then click Add.",
    "nothing": "The grid is empty. Draw a sign first.",
    "added": "Added! Your drawing of a {label} is now one of the class's examples.",
    "local": "Kept on this page only, not shared with the class: {why}",
    "learned": "It learned from {n} drawings.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
}

_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _rows_from_bytes(data: bytes, width: int, height: int) -> list[list[int]]:
    return [list(data[r * width:(r + 1) * width]) for r in range(height)]


class DrawingLab(widgets.VBox):
    """Draw, label, share and classify drawings of the game's signs (lesson 8).

    Args:
        session: the page's :class:`~tokens_edu.session.PageSession` (drawings are saved in its
            store and the class's are read from it), or None: this page's drawings only.
            ``journal=`` is its old name (a DeprecationWarning until tokens-edu 0.4.0).
        labels: the signs a drawing may show (default: :data:`~tokens_edu.lab.sketches.LABELS`).
        k: how many of the most alike drawings vote (see :class:`PixelClassifier`): 1 (the
            lesson's) says the label of the one most alike drawing. The 3 most alike drawings
            are shown either way.
        starter: how many of the kit's own drawings of each sign it knows from the start (0 to
            8; 0: it starts knowing nothing, and only the class teaches it).

    Attributes:
        grid: the :class:`PixelGrid`. label_picker: the ``ToggleButtons`` of labels.
        add_button, learn_button, clear_button: the buttons. guess: the ``HTML`` with its guess.
        model: the :class:`PixelClassifier`. examples: the drawings it learned, as
        ``(rows, label, where)`` with ``where`` one of "kit", "class", "page".
        last_guess: the latest :class:`~tokens_edu.lab.classify.PixelGuess` or None.
        last_ms: how long the latest guess took (milliseconds).

    Raises:
        ValueError: fewer than two labels, or a bad ``k`` or ``starter`` (plain words).
    """

    journal = journal_alias()

    def __init__(self, session=None, labels: Sequence[str] = LABELS, k: int = 1, starter: int = 0, *,
                 journal=None):
        super().__init__()
        session = given_session(session, journal, "DrawingLab")
        labels = [str(x) for x in labels]
        if len(labels) < 2 or len(set(labels)) != len(labels):
            raise ValueError("Give two or more different labels.")
        if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter <= 8:
            raise ValueError("starter is a whole number from 0 to 8.")
        self.add_class("tokens-drawing-lab")
        self.session = session
        self.labels = labels
        self.model = PixelClassifier(k=k)
        self.examples: list[tuple[list, str, str]] = []
        self._page: list[tuple[list, str]] = []  # drawings kept on this page only
        self._kit: list[tuple[list, str]] = []
        if starter:
            kit = [r for r in sketch_rows()
                   if r["split"] == "train" and r["group"] == "pen" and r["label"] == r["true_label"]]
            for label in labels:
                for r in [r for r in kit if r["label"] == label][:starter]:
                    self._kit.append((r["pixels"].tolist(), label))
        self.last_guess = None
        self.last_ms = 0.0
        self._problem = ""

        self.grid = PixelGrid(size=SIDE, cell=24, label="Draw a sign here")
        self.grid.on_drawn(self._on_drawn)
        self.clear_button = widgets.Button(description="Clear", icon="eraser", layout=widgets.Layout(width="auto"))
        self.clear_button.add_class("tokens-drawing-clear")
        self.clear_button.on_click(self._guard(self._on_clear))
        self.guess = widgets.HTML()
        self.guess.add_class("tokens-drawing-guess")
        self.label_picker = widgets.ToggleButtons(options=labels, value=None, description="It really is a:",
                                                  style={"description_width": "initial", "button_width": "90px"})
        self.label_picker.add_class("tokens-drawing-labels")
        self.add_button = widgets.Button(description="Add to the class's examples", button_style="primary",
                                         icon="plus", layout=widgets.Layout(width="auto"))
        self.add_button.add_class("tokens-drawing-add")
        self.add_button.on_click(self._guard(self._on_add))
        self.learn_button = widgets.Button(description="Learn from the class's drawings", icon="refresh",
                                           layout=widgets.Layout(width="auto"))
        self.learn_button.add_class("tokens-drawing-learn")
        self.learn_button.on_click(self._guard(self._on_learn))
        self.count = widgets.HTML()
        self.count.add_class("tokens-drawing-count")
        self.message = widgets.HTML()
        self.message.add_class("tokens-drawing-message")
        self.name_box = name_box(session)  # only when the page has no name yet
        left = widgets.VBox([self.grid, self.clear_button], layout=widgets.Layout(margin="0 16px 0 0"))
        right = widgets.VBox([self.guess, self.label_picker, widgets.HBox([self.add_button, self.learn_button]),
                              *([self.name_box] if self.name_box is not None else []), self.count, self.message], layout=widgets.Layout(flex="1 1 auto", min_width="360px"))
        self.children = [widgets.HBox([left, right], layout=widgets.Layout(flex_flow="row wrap"))]
        self.learn()

    # -- helpers ----------------------------------------------------------------------------------
    def _guard(self, fn):
        def run(*args):
            try:
                fn(*args)
            except Exception:  # on Voila an error in a callback shows nowhere: say something
                log.exception("DrawingLab: a click failed")
                self._say(MESSAGES["error"], bad=True)
        return run

    def _say(self, text: str, bad: bool = False) -> None:
        color = _RED if bad else _GREEN
        self.message.value = f'<p style="color:{color};margin:4px 0;font-size:15px">{_e(text)}</p>'

    # -- learning ---------------------------------------------------------------------------------
    def class_examples(self) -> list[tuple[list, str]]:
        """The class's saved drawings of this lesson, without names: ``(rows, label)`` each.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        if self.session is None:
            return []
        table = self.session.store.drawings.for_class(self.session.lesson)
        out = []
        for label, width, height, data in zip(table["label"], table["width"], table["height"], table["pixels"]):
            if label in self.labels and (width, height) == (SIDE, SIDE):
                out.append((_rows_from_bytes(bytes(data), int(width), int(height)), label))
        return out

    def learn(self) -> int:
        """Learn again from every drawing: the kit's starters, the class's and this page's.

        Returns:
            int: how many drawings it learned. If the class's drawings can't be read now,
            it learns the others and the message says so.
        """
        try:
            shared = self.class_examples()
            problem = ""
        except ValueError as e:  # JournalUnavailable: the store is down; the page goes on
            shared, problem = [], str(e)
        self._problem = problem
        self.examples = ([(p, lab, "kit") for p, lab in self._kit] + [(p, lab, "class") for p, lab in shared]
                         + [(p, lab, "page") for p, lab in self._page])
        self.model.fit([p for p, _, _ in self.examples], [lab for _, lab, _ in self.examples])
        self._draw_count()
        self._guess()
        if problem:
            self._say(problem, bad=True)
        return len(self.examples)

    def _draw_count(self) -> None:
        n = Counter(lab for _, lab, _ in self.examples)
        where = Counter(w for _, _, w in self.examples)
        parts = ", ".join(f"{label} {n.get(label, 0)}" for label in self.labels)
        source = []
        if where.get("kit"):
            source.append(f"{where['kit']} from the kit")
        if where.get("class"):
            source.append(f"{where['class']} from your class")
        elif self.session is not None and not self._problem and not where.get("page"):
            source.append("none from your class yet")
        if where.get("page"):
            source.append(f"{where['page']} on this page only")
        self.count.value = (f'<p style="margin:6px 0;font-size:15px">It has learned from '
                            f'<strong>{len(self.examples)}</strong> drawing{"" if len(self.examples) == 1 else "s"}'
                            f'{": " + _e(", ".join(source)) if source else ""}.<br>'
                            f'<span style="color:#444">By sign: {_e(parts)}.</span></p>')

    # -- guessing ---------------------------------------------------------------------------------
    def _guess(self) -> None:
        if not self.examples:
            self.last_guess = None
            self.guess.value = f'<p style="font-size:16px">{_e(MESSAGES["empty_model"])}</p>'
            return
        if self.grid.empty:
            self.last_guess = None
            self.guess.value = f'<p style="font-size:16px">{_e(MESSAGES["draw"])}</p>'
            return
        started = time.perf_counter()
        guess = self.model.predict(self.grid.grid())
        self.last_ms = (time.perf_counter() - started) * 1000
        self.last_guess = guess
        known = sorted({lab for _, lab, _ in self.examples})
        shown = self.model.nearest(self.grid.grid(), 3)
        pics = "".join(
            f'<span class="tokens-neighbour" style="display:inline-block;text-align:center;margin:0 8px 0 0;'
            f'font-size:13px">{drawing_svg(self.examples[i][0], px=56, title=f"a drawing labelled {label}")}'
            f'<br><strong>{_e(label)}</strong><br>{d} square{"" if d == 1 else "s"} different</span>'
            for i, label, d in shown)
        k = len(guess.neighbours)
        if k == 1:
            why = (f"The drawing most like yours has the label {_e(guess.label)}. "
                   f"The {len(shown)} most alike drawing{'' if len(shown) == 1 else 's'}:")
        else:
            votes = guess.votes[guess.label]
            why = (f"{votes} of the {k} most alike drawings {'says' if votes == 1 else 'say'} "
                   f"{_e(guess.label)}. The most alike drawings:")
        note = ""
        if len(known) == 1:
            note = f'<p style="color:#555">{_e(MESSAGES["one_label"].format(label=known[0]))}</p>'
        self.guess.value = (
            f'<p style="font-size:18px;margin:4px 0">The computer says: <strong '
            f'class="tokens-drawing-answer">{_e(guess.label)}</strong></p>'
            f'<p style="margin:4px 0">{why}</p><div>{pics}</div>{note}')

    def _on_drawn(self, _grid=None) -> None:
        try:
            self._guess()
        except Exception:
            log.exception("DrawingLab: guessing failed")
            self._say(MESSAGES["error"], bad=True)

    # -- buttons ----------------------------------------------------------------------------------
    def _on_clear(self, _button=None) -> None:
        self.grid.clear()
        self.message.value = ""
        self._guess()

    def add(self) -> bool:
        """What **Add to the class's examples** does: save the drawing with the picked label,
        learn again, and clear the grid for the next drawing.

        Returns:
            bool: True when the drawing was added (shared with the class, or kept on this page
            when it could not be saved); False when the grid is empty or no label is picked
            (the message says which).
        """
        if self.grid.empty:
            self._say(MESSAGES["nothing"], bad=True)
            return False
        label = self.label_picker.value
        if not label:
            self._say(MESSAGES["pick"], bad=True)
            return False
        rows = self.grid.grid()
        shared_problem = "no journal on this page." if self.session is None else ""
        if self.session is not None:
            try:
                writer = ensure_student(self.session, self.name_box)
                self.session.store.drawings.save(writer, self.session.lesson, label,
                                                 [[255 if v else 0 for v in row] for row in rows])
            except ValueError as e:  # no name yet, saving too fast, the store is down
                shared_problem = str(e)
        if shared_problem:
            self._page.append((rows, label))
        self.grid.clear()
        self.label_picker.value = None
        self.learn()
        if shared_problem:
            self._say(MESSAGES["local"].format(why=shared_problem), bad=True)
        else:
            self._say(MESSAGES["added"].format(label=label))
        return True

    def _on_add(self, _button=None) -> None:
        self.add()

    def _on_learn(self, _button=None) -> None:
        n = self.learn()
        if not self._problem:
            self._say(MESSAGES["learned"].format(n=n))
