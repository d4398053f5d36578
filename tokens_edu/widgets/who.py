"""Whose work a lesson widget saves: the page's student, for the labs and exit questions.

A Discuss box asks for a name before it saves (or takes it from the login or the class-roster
code). The learning lessons save other work too: drawings, predictions, results, exit answers.
They use the same name, in the same order of strength (see :mod:`tokens_edu.store.identity`):

1. the journal's student (a JupyterHub login, a class-roster code, a name given in code, or a
   name typed in any box of the page: one journal per page, so a name typed once counts for
   every box);
2. with a class roster and no code yet: nothing is saved, and the student reads
   :data:`~tokens_edu.store.identity.CODE_NEEDED`;
3. else a name typed in the widget's own name box, or the page's ``?student=`` (the same name
   the Discuss box would prefill). It is a *typed* name: it never shows anyone's saved work.

:func:`name_box` makes the box hidden: it shows only when a save finds no name at all
(:func:`ensure_student` then raises ValueError in plain words and shows it). Making the box reads
nothing: in a warm (preheated) kernel the page's address is not known until a student opens the
page, and reading the name would hold the rest of the lesson's cells until then.
"""

from __future__ import annotations

import logging

import ipywidgets as widgets

from ..content.names import clean_name
from ..store.identity import CODE_NEEDED, student_from_query

__all__ = ["name_box", "ensure_student", "NO_NAME"]

log = logging.getLogger(__name__)

#: What a student reads when the page has no name at all.
NO_NAME = "Type your name first, then save."


def _query_name() -> str:
    try:
        return student_from_query()
    except Exception:  # the query is a convenience: never a crash
        log.debug("no ?student= on this page", exc_info=True)
        return ""


def name_box(journal) -> widgets.Text | None:
    """A hidden "Your name:" box for a widget that saves (None without a journal). It shows
    when :func:`ensure_student` finds no name anywhere."""
    if journal is None:
        return None
    box = widgets.Text(value="", placeholder="Type your name", description="Your name:",
                       style={"description_width": "initial"},
                       layout=widgets.Layout(width="min(100%, 320px)", display="none"))
    box.add_class("tokens-exit-name")
    return box


def ensure_student(journal, box: widgets.Text | None = None) -> str:
    """Make sure ``journal`` knows whose work it saves; return the name.

    Args:
        journal: the page's Journal. box: the widget's own name box (see :func:`name_box`), or None.

    Raises:
        ValueError: no journal, a class roster and no code yet, no name anywhere (the box, if
            any, is shown then), or a name the journal refuses (too long...), in plain words.
            The journal is unchanged then.
    """
    if journal is None:
        raise ValueError("This page has nowhere to save.")
    if journal.student:
        return journal.student
    if getattr(journal, "roster_in_use", False):
        raise ValueError(CODE_NEEDED)
    typed = clean_name(box.value) if box is not None else ""
    typed = typed or clean_name(_query_name())
    if not typed:
        if box is not None:
            box.layout.display = None  # now the student needs it
        raise ValueError(NO_NAME)
    journal.student = typed
    return journal.student
