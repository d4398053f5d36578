"""Concept checks on the teacher's dashboard: predictions, exit questions and lesson results.

The Discuss answers say what students think; these say what they understood. Lessons save three
kinds of *responses* (:meth:`tokens_edu.store.responses.Responses.save`): ``prediction`` (a guess
checked with **Check my prediction**, or a guess before a batch of training), ``exit`` (the
lesson's exit question) and ``result`` (a measured result, such as lesson 11's accuracy per
group). A prediction or exit question with a right answer is saved with ``correct``.

This module turns the responses table into the dashboard's panel beside the answers (no widgets,
no database: :mod:`tokens_edu.teacher.dashboard` reads the rows and calls these):

- :func:`summary`: one row per question of a lesson: how many students answered, and of the
  questions with a right answer, how many students' latest answer is right (and all tries);
- :func:`latest`: each student's latest response per question, with their tries and right tries;
- :func:`panel`: both as the rows the dashboard's template ``checks.html`` draws (autoescaped);
  :func:`checks_html` renders it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _moved
from .base import template_env

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["summary", "latest", "panel", "checks_html", "SUMMARY_COLUMNS", "LATEST_COLUMNS", "KIND_NAMES"]

#: What each kind is called on the dashboard.
KIND_NAMES = {"prediction": "Prediction", "exit": "Exit question", "result": "Result"}
#: The columns of :func:`summary` and :func:`latest`, in order.
SUMMARY_COLUMNS = ["lesson", "question", "kind", "students", "right", "checked", "tries", "right_tries"]
LATEST_COLUMNS = ["student", "lesson", "question", "kind", "answer", "correct", "tries", "right_tries", "saved_at"]


def _is_true(v) -> bool:
    return v is True or (v is not None and v == v and bool(v) and not isinstance(v, str))


def _is_false(v) -> bool:
    return v is False or (v is not None and v == v and not bool(v) and not isinstance(v, str))


def latest(responses: "pandas.DataFrame") -> "pandas.DataFrame":
    """Each student's latest response to each question of each lesson.

    Args:
        responses: the table of :meth:`tokens_edu.store.responses.Responses.table` (columns
            ``student``, ``lesson``, ``question``, ``kind``, ``answer``, ``correct``,
            ``saved_at``), oldest first.

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


def _correct(v):
    """True, False, or None (no single right answer) for a stored ``correct`` value."""
    return True if _is_true(v) else False if _is_false(v) else None


def panel(responses: "pandas.DataFrame", max_rows: int = 300) -> dict:
    """What the concept-check panel shows (``templates/checks.html`` draws it, every text
    escaped by the template): the class summary, then each student's latest responses.

    Args:
        responses: as for :func:`latest` (already filtered by student or lesson, if wanted).
        max_rows: most student rows shown.

    Returns:
        dict with ``summary`` (one dict per question: ``lesson``, ``question``, ``kind`` (its
        name on the dashboard), ``students``, ``score`` (words: "3 of 4 right")), ``latest``
        (one dict per student and question, newest first, at most ``max_rows``: ``saved_at``,
        ``student``, ``question``, ``answer``, ``tries`` (words, or "" for one save),
        ``correct`` (True, False or None)) and ``total`` (rows before the cut).
    """
    if responses is None or not len(responses):
        return {"summary": [], "latest": [], "total": 0}
    rows = []
    for r in summary(responses).itertuples():
        score = f"{r.right} of {r.checked} right" if r.checked else "no single right answer"
        if r.checked and r.tries > r.students:
            score += f" ({r.right_tries} of {r.tries} tries)"
        rows.append({"lesson": r.lesson, "question": r.question, "kind": KIND_NAMES.get(r.kind, r.kind),
                     "students": r.students, "score": score})
    last = latest(responses)
    lines = []
    for r in last.head(max_rows).itertuples():
        correct = _correct(r.correct)
        tries = ""
        if r.tries > 1:
            tries = f"{r.right_tries} of {r.tries} tries right" if correct is not None else f"{r.tries} saves"
        lines.append({"saved_at": r.saved_at, "student": r.student, "question": r.question,
                      "answer": r.answer, "tries": tries, "correct": correct})
    return {"summary": rows, "latest": lines, "total": len(last)}


def checks_html(responses: "pandas.DataFrame", when=None, max_rows: int = 300) -> str:
    """The concept-check panel as an HTML block (class ``checks``), drawn by the dashboard's
    autoescaped template ``checks.html`` from :func:`panel`; a sentence when there are no
    responses.

    Args:
        responses: as for :func:`latest`.
        when: unused (times are shown by the dashboard's ``when`` filter, its one clock); an
            old argument: giving it warns (DeprecationWarning) until tokens-edu 0.4.0.
        max_rows: most student rows shown.
    """
    if when is not None:
        _moved.warn_moved("checks_html(when=...)", "checks_html() without 'when'")
    return template_env().get_template("checks.html").render(panel=panel(responses, max_rows))
