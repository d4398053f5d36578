"""Lesson 11's fair-data lab: measure a classifier group by group, fix the data, measure again.

The setting: the Tokens app reads a sign a player draws (a Token, a Flag or a Data diamond). Its
classifier (:class:`~tokens_edu.lab.classify.PixelClassifier`) learned from the kit's skewed
training drawings (:mod:`tokens_edu.lab.sketches`: many drawn with a pen on a tablet, a few with
a mouse, none with a finger on a phone, and one with a wrong label). :class:`FairDataLab` holds
that data and three parts a lesson shows in its own cells:

- :attr:`FairDataLab.data_view`: the training drawings by group, a count table, and a row to
  fix a wrong label;
- :attr:`FairDataLab.test_view`: **Test it** measures the accuracy on the test drawings, one bar
  per group, shows drawings it got wrong in the worst group, and keeps a history of the tests;
- :attr:`FairDataLab.fix_view`: **Add 12 drawings** from one group (more players asked),
  **Start over**, and **Test it again** with the latest result and the history of tests.

Each test's result is saved in the page session's store (``kind="result"``, question :data:`RESULT_KEY`), so the
teacher sees each student's measurements. Nothing about a student is in the data: the drawings
are made up and ship with the kit.

Stable CSS classes: ``tokens-fair-data``, ``tokens-fair-counts``, ``tokens-fair-drawings``,
``tokens-fair-fix-pick``, ``tokens-fair-fix-label``, ``tokens-fair-fix``, ``tokens-fair-test``,
``tokens-fair-result``, ``tokens-fair-history``, ``tokens-fair-wrong``, ``tokens-fair-add-<group>``,
``tokens-fair-reset``, ``tokens-fair-retest``, ``tokens-fair-latest``, ``tokens-fair-message``.
"""

from __future__ import annotations

import html
import logging

import ipywidgets as widgets

from ..lab.classify import PixelClassifier, group_accuracy
from ..lab.sketches import GROUP_NAMES, GROUPS, LABELS, sketch_rows
from ..present.charts import drawing_svg, percent, share_bars
from .who import given_session, journal_alias, save_response

__all__ = ["FairDataLab", "MESSAGES", "RESULT_KEY"]

log = logging.getLogger(__name__)

#: The question id of each saved test result.
RESULT_KEY = "Test result: accuracy for each group"

#: What the lab says, in a student's words (the readability test measures these).
MESSAGES = {
    "added": "Added {n} drawings from players who use a {device}. Now test it again!",
    "fixed": "Fixed: drawing {number} is now labelled {label}. Test it again to see what changed.",
    "same": "Drawing {number} already has the label {label}.",
    "pick": "Pick a drawing and the label it should have.",
    "reset": "Back to the start: the kit's first training drawings.",
    "error": "Sorry, that did not work. Try again, or ask your teacher.",
    "no_test": "Click Test it to measure how often it is right for each group.",
    "label_no_change": ("Fixing that label changed nothing. Why? The app lets the 3 most alike drawings "
                        "vote. One wrong drawing is outvoted by the 2 others. A missing group matters "
                        "much more than one wrong label."),
    "still_low": ("{group} players are still right only {share} of the time. 12 drawings helped, but not "
                  "enough. A real team would ask more {group_lower} players to draw, then test again."),
}
#: A group whose own drawings were added and that is still below this accuracy gets "still_low".
STILL_LOW = 0.9
_DEVICE = {"pen": "pen on a tablet", "mouse": "mouse on a laptop", "finger": "finger on a phone"}
_GREEN = "#1d5e20"
_RED = "#8a1c1c"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


class FairDataLab:
    """The fair-data lab of lesson 11 (see the module's docs).

    Args:
        session: the page's :class:`~tokens_edu.session.PageSession` (test results are saved
            there), or None (``journal=``: its old name, with a DeprecationWarning until
            tokens-edu 0.4.0).
        k: how many of the most alike drawings vote (see :class:`PixelClassifier`).
        table: the sketch rows (None: the kit's, :func:`~tokens_edu.lab.sketches.sketch_rows`; a
            DataFrame like :func:`~tokens_edu.lab.sketches.load_sketches` is taken too).

    Attributes:
        training: the training drawings now, a list of dicts (``number``, ``id``, ``group``,
            ``label``, ``true_label``, ``pixels``); numbers start at 1 and stay with a drawing.
        added: the groups whose extra drawings were added. fixed: how many labels were fixed.
        tests: one dict per test so far: ``number``, ``change`` (what changed before it, in
            words), ``accuracy`` (:func:`~tokens_edu.lab.classify.group_accuracy`: a list of dicts
            ``group``, ``drawings``, ``right``, ``accuracy``), ``overall``, ``gap``
            (best group's accuracy minus the worst's, 0 to 1), ``examples``, ``notes`` (what the
            page said under the result: why fixing a label changed nothing, a group still low
            after its own drawings were added; :data:`MESSAGES`). The change is "no change" when
            nothing changed since the test before.
        model: the :class:`PixelClassifier` of the latest test.
        data_view, test_view, fix_view: the three parts to show.
        test_button, retest_button, fix_pick, fix_label, fix_button, add_buttons (group ->
        Button), reset_button: the controls.
    """

    journal = journal_alias()

    def __init__(self, session=None, k: int = 3, table=None, *, journal=None):
        self.session = given_session(session, journal, "FairDataLab")
        self.k = k
        # plain rows, not a DataFrame: this lesson's kernel never loads pandas (about 30 MiB)
        if table is None:
            table = sketch_rows()
        elif hasattr(table, "to_dict"):
            table = table.to_dict("records")
        self.rows = list(table)
        self.model = PixelClassifier(k=k)
        self._changes: list[str] = []
        self.tests: list[dict] = []

        self.counts = widgets.HTML()
        self.counts.add_class("tokens-fair-counts")
        self.drawings = widgets.HTML()
        self.drawings.add_class("tokens-fair-drawings")
        self.fix_pick = widgets.Dropdown(description="Drawing number:", style={"description_width": "initial"},
                                         layout=widgets.Layout(width="auto"))
        self.fix_pick.add_class("tokens-fair-fix-pick")
        self.fix_label = widgets.ToggleButtons(options=list(LABELS), value=None, description="really shows a:",
                                               style={"description_width": "initial", "button_width": "80px"})
        self.fix_label.add_class("tokens-fair-fix-label")
        self.fix_button = widgets.Button(description="Fix the label", icon="wrench")
        self.fix_button.add_class("tokens-fair-fix")
        self.fix_button.on_click(self._guard(lambda _b: self.fix()))
        self.data_message = widgets.HTML()
        self.data_message.add_class("tokens-fair-message")
        self.data_view = widgets.VBox([self.counts, self.drawings,
                                       widgets.HBox([self.fix_pick, self.fix_label, self.fix_button],
                                                    layout=widgets.Layout(flex_flow="row wrap")),
                                       self.data_message])
        self.data_view.add_class("tokens-fair-data")

        self.test_button = widgets.Button(description="Test it", button_style="primary", icon="check")
        self.test_button.add_class("tokens-fair-test")
        self.test_button.on_click(self._guard(lambda _b: self.test()))
        self.result = widgets.HTML(f'<p>{_e(MESSAGES["no_test"])}</p>')
        self.result.add_class("tokens-fair-result")
        self.wrong = widgets.HTML()
        self.wrong.add_class("tokens-fair-wrong")
        self.history = widgets.HTML()
        self.history.add_class("tokens-fair-history")
        self.test_view = widgets.VBox([self.test_button, self.result, self.wrong, self.history])
        self.test_view.add_class("tokens-fair-data")

        self.add_buttons = {}
        for group in GROUPS:
            b = widgets.Button(description=f"Add 12 drawings: {GROUP_NAMES[group].lower()}",
                               layout=widgets.Layout(width="auto"), icon="plus")
            b.add_class(f"tokens-fair-add-{group}")
            b.on_click(self._guard(lambda _b, g=group: self.add(g)))
            self.add_buttons[group] = b
        self.reset_button = widgets.Button(description="Start over", icon="undo", layout=widgets.Layout(width="auto"))
        self.reset_button.add_class("tokens-fair-reset")
        self.reset_button.on_click(self._guard(lambda _b: self.reset()))
        self.fix_message = widgets.HTML()
        self.fix_message.add_class("tokens-fair-message")
        self.retest_button = widgets.Button(description="Test it again", button_style="primary", icon="check")
        self.retest_button.add_class("tokens-fair-retest")
        self.retest_button.on_click(self._guard(lambda _b: self.test()))
        self.latest = widgets.HTML()
        self.latest.add_class("tokens-fair-latest")
        # the history table is the same widget as in test_view: both places show it
        self.fix_view = widgets.VBox([widgets.HBox(list(self.add_buttons.values()),
                                                   layout=widgets.Layout(flex_flow="row wrap")),
                                      widgets.HBox([self.reset_button]), self.fix_message,
                                      widgets.HBox([self.retest_button]), self.latest, self.history])
        self.fix_view.add_class("tokens-fair-data")
        self.reset(say=False)

    # -- helpers ----------------------------------------------------------------------------------
    def _guard(self, fn):
        def run(*args):
            try:
                fn(*args)
            except Exception:  # on Voila an error in a callback shows nowhere: say something
                log.exception("FairDataLab: a click failed")
                for box in (self.data_message, self.fix_message):
                    box.value = f'<span style="color:{_RED}">{_e(MESSAGES["error"])}</span>'
        return run

    @staticmethod
    def _say(box: widgets.HTML, text: str, bad: bool = False) -> None:
        box.value = f'<p style="color:{_RED if bad else _GREEN};margin:4px 0">{_e(text)}</p>'

    def _rows(self, split: str, group: str | None = None) -> list[dict]:
        return [dict(r) for r in self.rows if r["split"] == split and (group is None or r["group"] == group)]

    # -- the data ---------------------------------------------------------------------------------
    def reset(self, say: bool = True) -> None:
        """Back to the kit's training drawings (nothing added, no label fixed). Tests stay in
        the history, so a student can compare."""
        self.training = []
        for row in self._rows("train"):
            self.training.append(dict(row, number=len(self.training) + 1))
        self.added: list[str] = []
        self.fixed = 0
        self._changes = ["the kit's training drawings"]
        self._relabelled = False  # a label was fixed since the last test
        for b in self.add_buttons.values():
            b.disabled = False
        self._draw_data()
        if say:
            self._say(self.fix_message, MESSAGES["reset"])

    def add(self, group: str) -> int:
        """Add the 12 extra drawings of ``group`` (4 of each sign) to the training drawings.

        Returns:
            int: how many were added (0 if that group's were added already).

        Raises:
            ValueError: an unknown group.
        """
        if group not in GROUPS:
            raise ValueError(f"A group is one of {', '.join(GROUPS)}.")
        if group in self.added:
            return 0
        rows = self._rows("extra", group)
        for row in rows:
            self.training.append(dict(row, number=len(self.training) + 1))
        self.added.append(group)
        self.add_buttons[group].disabled = True
        self._changes.append(f"added {len(rows)} {group} drawings")
        self._draw_data()
        self._say(self.fix_message, MESSAGES["added"].format(n=len(rows), device=_DEVICE[group]))
        return len(rows)

    def fix(self, number: int | None = None, label: str | None = None) -> bool:
        """Give training drawing ``number`` the label ``label`` (None: what the page picked).

        Returns:
            bool: True when a label changed; False when nothing was picked or it had that
            label already (the message says so).
        """
        number = self.fix_pick.value if number is None else number
        label = self.fix_label.value if label is None else label
        row = next((r for r in self.training if r["number"] == number), None)
        if row is None or label not in LABELS:
            self._say(self.data_message, MESSAGES["pick"], bad=True)
            return False
        if row["label"] == label:
            self._say(self.data_message, MESSAGES["same"].format(number=number, label=label), bad=True)
            return False
        row["label"] = label
        self.fixed += 1
        self._changes.append(f"drawing {number} relabelled {label}")
        self._relabelled = True
        self.fix_label.value = None
        self._draw_data()
        self._say(self.data_message, MESSAGES["fixed"].format(number=number, label=label))
        return True

    def _draw_data(self) -> None:
        groups = list(GROUPS)
        head = "".join(f"<th>{_e(s)}</th>" for s in LABELS)
        body = ""
        for g in groups:
            mine = [r for r in self.training if r["group"] == g]
            cells = "".join(f"<td>{sum(r['label'] == s for r in mine)}</td>" for s in LABELS)
            body += f"<tr><td><strong>{_e(GROUP_NAMES[g])}</strong></td>{cells}<td><strong>{len(mine)}</strong></td></tr>"
        self.counts.value = (f'<p style="margin:4px 0"><strong>The training drawings: {len(self.training)}</strong> '
                             f'(by group and by label)</p><table class="tokens-table"><tr><th>Group</th>{head}'
                             f"<th>All</th></tr>{body}</table>")
        parts = []
        for g in groups:
            mine = [r for r in self.training if r["group"] == g]
            pics = "".join(
                '<span style="display:inline-block;text-align:center;margin:2px 5px;font-size:12px">'
                + drawing_svg(r["pixels"], px=40, title="drawing {}, labelled {}".format(r["number"], r["label"]))
                + f'<br>{r["number"]}: {_e(r["label"])}</span>' for r in mine)
            parts.append(f'<div style="margin:4px 0"><strong>{_e(GROUP_NAMES[g])}</strong> ({len(mine)})<br>'
                         f'{pics or "<em>none</em>"}</div>')
        self.drawings.value = "".join(parts)
        self.fix_pick.options = [(f"{r['number']} ({r['label']})", r["number"]) for r in self.training]
        self.fix_pick.value = None

    # -- testing ----------------------------------------------------------------------------------
    def test(self) -> dict:
        """What **Test it** does: learn from the training drawings now, label every test
        drawing, and measure the accuracy for each group. The result is shown, kept in
        :attr:`tests` and saved in the session's store.

        Returns:
            dict: the test (see :attr:`tests`).
        """
        self.model.fit([r["pixels"] for r in self.training], [r["label"] for r in self.training])
        test = self._rows("test")
        acc = group_accuracy(self.model, test, names=GROUP_NAMES)
        shares = [a["accuracy"] for a in acc]
        total = sum(a["drawings"] for a in acc)
        result = {"number": len(self.tests) + 1, "change": "; ".join(self._changes) or "no change",
                  "accuracy": acc, "overall": sum(a["right"] for a in acc) / total,
                  "gap": max(shares) - min(shares), "examples": len(self.training)}
        previous = self.tests[-1] if self.tests else None
        self.tests.append(result)
        self._changes = []
        notes = []
        if self._relabelled and previous is not None and previous["accuracy"] == acc:
            notes.append(MESSAGES["label_no_change"])  # measured: 3 voters outvote the one wrong label
        self._relabelled = False
        for group in self.added:
            mine = next(a for a in acc if a["group"] == GROUP_NAMES[group])
            if mine["accuracy"] < STILL_LOW:
                notes.append(MESSAGES["still_low"].format(group=GROUP_NAMES[group].split(" ")[0],
                                                          group_lower=GROUP_NAMES[group].split(" ")[0].lower(),
                                                          share=percent(mine["accuracy"])))
        result["notes"] = notes
        rows = [(a["group"], a["accuracy"], f"{a['right']} of {a['drawings']} right") for a in acc]
        worst = min(acc, key=lambda a: a["accuracy"])
        self.result.value = (
            f'<p style="font-size:16px;margin:4px 0"><strong>Test {result["number"]}</strong>: it learned from '
            f'{result["examples"]} drawings and labelled {total} new ones.</p>'
            + share_bars(rows)
            + f'<p style="margin:4px 0">All groups: <strong>{percent(result["overall"])}</strong> right. '
            f'The best group is <strong>{round(result["gap"] * 100)} points</strong> ahead of the worst '
            f'({_e(worst["group"])}).</p>'
            + "".join(f'<p class="tokens-fair-note" style="margin:4px 0;font-size:15px">{_e(n)}</p>' for n in notes))
        self._draw_wrong(test, worst["group"])
        by = ", ".join(f"{a['group']} {percent(a['accuracy'])}" for a in acc)
        self.latest.value = (f'<p style="margin:4px 0"><strong>Test {result["number"]}</strong>: {_e(by)}. '
                             f'Gap: {round(result["gap"] * 100)} points.</p>'
                             + "".join(f'<p class="tokens-fair-note" style="margin:4px 0">{_e(n)}</p>' for n in notes))
        self._draw_history()
        self._save(result)
        return result

    def _draw_wrong(self, test: list[dict], worst_name: str) -> None:
        group = next(g for g, name in GROUP_NAMES.items() if name == worst_name)
        pics = []
        for pixels, truth in ((r["pixels"], r["true_label"]) for r in test if r["group"] == group):
            said = self.model.predict(pixels).label
            if said != truth:
                pics.append(f'<span style="display:inline-block;text-align:center;margin:2px 6px;font-size:12px">'
                            f'{drawing_svg(pixels, px=44, title=f"a {truth} it called {said}", mark="bad")}'
                            f'<br>a {_e(truth)}<br>it said {_e(said)}</span>')
        if not pics:
            self.wrong.value = f'<p>It got every {_e(worst_name.lower())} drawing right.</p>'
            return
        self.wrong.value = (f'<p style="margin:6px 0 2px 0">Some {_e(worst_name.lower())} drawings it got wrong '
                            f'({len(pics)} in all):</p><div>{"".join(pics[:8])}</div>')

    def _draw_history(self) -> None:
        names = [GROUP_NAMES[g] for g in GROUPS]
        head = "".join(f"<th>{_e(n)}</th>" for n in names)
        body = ""
        for t in self.tests:
            by = {a["group"]: a["accuracy"] for a in t["accuracy"]}
            cells = "".join(f"<td>{percent(by.get(n))}</td>" for n in names)
            body += (f"<tr><td>{t['number']}</td><td>{_e(t['change'])}</td><td>{t['examples']}</td>{cells}"
                     f"<td>{round(t['gap'] * 100)}</td></tr>")
        self.history.value = (f'<p style="margin:8px 0 2px 0"><strong>Your tests so far</strong></p>'
                              f'<table class="tokens-table"><tr><th>Test</th><th>What changed before it</th>'
                              f'<th>Training drawings</th>{head}<th>Gap (points)</th></tr>{body}</table>')

    def _save(self, result: dict) -> None:
        if self.session is None:
            return
        by = ", ".join(f"{a['group']} {percent(a['accuracy'])}" for a in result["accuracy"])
        text = (f"Test {result['number']} ({result['change']}; {result['examples']} training drawings): {by}. "
                f"Gap {round(result['gap'] * 100)} points.")
        try:
            save_response(self.session, RESULT_KEY, text, "result")
        except ValueError as e:  # no name yet, saving too fast, the store is down: the lab goes on
            log.info("FairDataLab: result not saved: %s", e)
