"""Concept checks on the teacher's dashboard: predictions, exit questions and lesson results.

The Discuss answers say what students think; these say what they understood. Lessons save three
kinds of *responses* (:meth:`tokens_edu.store.Journal.save_response`): ``prediction`` (a guess
checked with **Check my prediction**, or a guess before a batch of training), ``exit`` (the
lesson's exit question) and ``result`` (a measured result, such as lesson 11's accuracy per
group). A prediction or exit question with a right answer is saved with ``correct``.

This module turns the responses table into the dashboard's panel beside the answers (no widgets,
no database: :mod:`tokens_edu.teacher.dashboard` reads the rows and calls these):

- :func:`summary`: one row per question of a lesson: how many students answered, and of the
  questions with a right answer, how many students' latest answer is right (and all tries);
- :func:`latest`: each student's latest response per question, with their tries and right tries;
- :func:`checks_html`: both as HTML, every text escaped.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["summary", "latest", "checks_html", "SUMMARY_COLUMNS", "LATEST_COLUMNS", "KIND_NAMES"]

#: What each kind is called on the dashboard.
KIND_NAMES = {"prediction": "Prediction", "exit": "Exit question", "result": "Result"}
#: The columns of :func:`summary` and :func:`latest`, in order.
SUMMARY_COLUMNS = ["lesson", "question", "kind", "students", "right", "checked", "tries", "right_tries"]
LATEST_COLUMNS = ["student", "lesson", "question", "kind", "answer", "correct", "tries", "right_tries", "saved_at"]


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _is_true(v) -> bool:
    return v is True or (v is not None and v == v and bool(v) and not isinstance(v, str))


def _is_false(v) -> bool:
    return v is False or (v is not None and v == v and not bool(v) and not isinstance(v, str))


def latest(responses: "pandas.DataFrame") -> "pandas.DataFrame":
    """Each student's latest response to each question of each lesson.

    Args:
        responses: the table of :meth:`Journal.responses` (columns ``student``, ``lesson``,
            ``question``, ``kind``, ``answer``, ``correct``, ``saved_at``), oldest first.

    Returns:
        pandas.DataFrame, columns :data:`LATEST_COLUMNS` (``tries``: saves of that question by
        that student; ``right_tries``: of those, the right ones), newest first.
    """
    import pandas as pd  # the dashboard has pandas loaded by now; kept local like the store's

    if responses is None or not len(responses):
        return pd.DataFrame(columns=LATEST_COLUMNS)
    df = responses.sort_values("saved_at", kind="stable")
    keys = ["student", "lesson", "question"]
    tries = df.groupby(keys, sort=False).size().rename("tries")
    right = df.assign(_r=[_is_true(v) for v in df["correct"]]).groupby(keys, sort=False)["_r"].sum().rename("right_tries")
    last = df.drop_duplicates(keys, keep="last").set_index(keys)
    out = last.join(tries).join(right).reset_index()
    out["right_tries"] = out["right_tries"].astype(int)
    return out[LATEST_COLUMNS].sort_values("saved_at", ascending=False, kind="stable").reset_index(drop=True)


def summary(responses: "pandas.DataFrame") -> "pandas.DataFrame":
    """One row per question: how the class did.

    Returns:
        pandas.DataFrame, columns :data:`SUMMARY_COLUMNS`, questions in the order they were first
        answered: ``students`` who answered, ``right`` students whose latest answer is right,
        ``checked`` students whose latest answer has a right or wrong (0 for a question with no
        right answer), ``tries`` all saves and ``right_tries`` the right ones.
    """
    import pandas as pd  # the dashboard has pandas loaded by now; kept local like the store's

    if responses is None or not len(responses):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    last = latest(responses)
    order = list(dict.fromkeys(zip(responses.sort_values("saved_at", kind="stable")["lesson"],
                                   responses.sort_values("saved_at", kind="stable")["question"])))
    rows = []
    for lesson, question in order:
        mine = last[(last["lesson"] == lesson) & (last["question"] == question)]
        all_rows = responses[(responses["lesson"] == lesson) & (responses["question"] == question)]
        rows.append({"lesson": lesson, "question": question, "kind": mine["kind"].iloc[-1],
                     "students": len(mine), "right": sum(_is_true(v) for v in mine["correct"]),
                     "checked": sum(_is_true(v) or _is_false(v) for v in mine["correct"]),
                     "tries": len(all_rows), "right_tries": sum(_is_true(v) for v in all_rows["correct"])})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def _mark(v) -> str:
    if _is_true(v):
        return '<span class="right" title="right">&#10003;</span>'
    if _is_false(v):
        return '<span class="wrong" title="not right">&#10007;</span>'
    return '<span class="open" title="no single right answer">&ndash;</span>'


def checks_html(responses: "pandas.DataFrame", when=str, max_rows: int = 300) -> str:
    """The concept-check panel: the class summary, then each student's latest responses.

    Args:
        responses: as for :func:`latest` (already filtered by student or lesson, if wanted).
        when: turns a time into the text shown (the dashboard's local-time formatter).
        max_rows: most student rows shown.

    Returns:
        str: an HTML block (class ``checks``); a sentence when there are no responses.
    """
    if responses is None or not len(responses):
        return ('<section class="checks"><h2>Concept checks</h2><p class="empty">No predictions, exit '
                "questions or results yet. They appear here as students check a prediction, save an "
                "exit question or run a lesson's test.</p></section>")
    s = summary(responses)
    rows = []
    for r in s.itertuples():
        score = (f"{r.right} of {r.checked} right" if r.checked else "no single right answer")
        if r.checked and r.tries > r.students:
            score += f" ({r.right_tries} of {r.tries} tries)"
        rows.append(f'<tr><td>{_e(r.lesson)}</td><td class="question">{_e(r.question)}</td>'
                    f'<td>{_e(KIND_NAMES.get(r.kind, r.kind))}</td><td class="num">{r.students}</td>'
                    f'<td class="score">{_e(score)}</td></tr>')
    last = latest(responses)
    shown = last.head(max_rows)
    lines = []
    for r in shown.itertuples():
        tries = ""
        if r.tries > 1:
            checked = _is_true(r.correct) or _is_false(r.correct)
            tries = (f' <span class="saves">({r.right_tries} of {r.tries} tries right)</span>' if checked
                     else f' <span class="saves">({r.tries} saves)</span>')
        lines.append(f'<tr class="check-row"><td class="when">{_e(when(r.saved_at))}</td>'
                     f'<td class="student">{_e(r.student)}</td><td class="question">{_e(r.question)}</td>'
                     f'<td class="answer">{_e(r.answer)}{tries}</td><td class="mark">{_mark(r.correct)}</td></tr>')
    more = (f'<p class="note">Showing the newest {max_rows} of {len(last)}.</p>' if len(last) > max_rows else "")
    return ('<section class="checks"><h2>Concept checks</h2>'
            '<p class="note">Predictions, exit questions and lesson results. &#10003; right, &#10007; not '
            'right, &ndash; no single right answer. Counts use each student\'s latest answer.</p>'
            '<table class="check-summary"><thead><tr><th>Lesson</th><th>Question</th><th>Kind</th>'
            f'<th>Students</th><th>Class</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'<h3>By student (latest)</h3>{more}<table class="check-latest"><thead><tr><th>Saved</th>'
            '<th>Student</th><th>Question</th><th>Answer</th><th></th></tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table></section>')
