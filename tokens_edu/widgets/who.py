"""Whose work a lesson widget saves: the page's session, for the labs and exit questions.

Every widget that saves takes the page's :class:`~tokens_edu.session.PageSession` as ``session=``
(:func:`given_session`; the old ``journal=`` still works with a DeprecationWarning until
tokens-edu 0.4.0) and saves through the session's store with the session's writer::

    writer = ensure_student(self.session, self.name_box)          # a Writer, or ValueError
    self.session.store.responses.save(writer, self.session.lesson, key, text, kind="exit")

A Discuss box asks for a name before it saves (or takes it from the login or the class-roster
code). The learning lessons save other work too: drawings, predictions, results, exit answers.
They use the same name, in the same order of strength (see :mod:`tokens_edu.session.page`):

1. the session's student (a JupyterHub login, a class-roster code, a name given in code, or a
   name typed in any box of the page: one session per page, so a name typed once counts for
   every box);
2. with a class roster and no code yet: nothing is saved, and the student reads
   :data:`~tokens_edu.session.CODE_NEEDED`;
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

from .. import _moved
from ..content.names import clean_name
from .. import _moved
from ..session import CODE_NEEDED, PageSession, student_from_query
from ..session import NO_NAME as _NO_NAME
from ..store import Writer
from ..store.db import Saved

__all__ = ["given_session", "journal_alias", "name_box", "ensure_student", "page_writer", "saved_response",
           "save_response"]

# Old names of this module (NO_NAME: in tokens_edu.session), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

log = logging.getLogger(__name__)


def given_session(session=None, journal=None, owner: str = "The widget") -> PageSession | None:
    """The page's session a widget was given: ``session``, or the old ``journal`` argument
    (a DeprecationWarning naming the release that removes it).

    Args:
        session: a :class:`~tokens_edu.session.PageSession`, or None.
        journal: the old argument's value (a ``Journal`` is a PageSession), or None.
        owner: the widget's name, for the warning.

    Raises:
        ValueError: the value is not a PageSession (plain words).
    """
    if journal is not None:
        _moved.warn_moved(f"{owner}(journal=...)", f"{owner}(session=...)", stacklevel=4)
        if session is None:
            session = journal
    if session is not None and not isinstance(session, PageSession):
        raise ValueError(f"{owner} saves through the page's session: give session=PageSession(lesson).")
    return session


def journal_alias() -> property:
    """The old ``journal`` attribute of a widget that now keeps ``session``: a read-only property
    that warns (DeprecationWarning, removed in tokens-edu 0.4.0) and gives :attr:`session`."""

    def journal(self):
        _moved.warn_moved(f"{type(self).__name__}.journal", f"{type(self).__name__}.session")
        return self.session

    return property(journal, doc="The old name of ``session`` (removed in tokens-edu 0.4.0).")


def _query_name() -> str:
    try:
        return student_from_query()
    except Exception:  # the query is a convenience: never a crash
        log.debug("no ?student= on this page", exc_info=True)
        return ""


def name_box(session: PageSession | None) -> widgets.Text | None:
    """A hidden "Your name:" box for a widget that saves (None without a session). It shows
    when :func:`ensure_student` finds no name anywhere."""
    if session is None:
        return None
    box = widgets.Text(value="", placeholder="Type your name", description="Your name:",
                       style={"description_width": "initial"},
                       layout=widgets.Layout(width="min(100%, 320px)", display="none"))
    box.add_class("tokens-exit-name")
    return box


def ensure_student(session: PageSession | None, box: widgets.Text | None = None) -> Writer:
    """Make sure ``session`` knows whose work it saves; return the writer a store call takes.

    Args:
        session: the page's session. box: the widget's own name box (see :func:`name_box`), or None.

    Returns:
        Writer: ``session.writer()`` (name, trusted, browser).

    Raises:
        ValueError: no session, a class roster and no code yet, no name anywhere (the box, if
            any, is shown then), or a name the session refuses (too long...), in plain words.
            The session is unchanged then.
    """
    if session is None:
        raise ValueError("This page has nowhere to save.")
    if session.student:
        return session.writer()
    if session.roster_in_use:
        raise ValueError(CODE_NEEDED)
    typed = clean_name(box.value) if box is not None else ""
    typed = typed or clean_name(_query_name())
    if not typed:
        if box is not None:
            box.layout.display = None  # now the student needs it
        raise ValueError(_NO_NAME)
    session.student = typed
    return session.writer()


def page_writer(session: PageSession | None) -> Writer | None:
    """The writer whose saved work the page may read back now, or None (no session, no name
    yet, or a typed name in a class that uses codes): the session's student, else the page's
    ``?student=`` name as a typed (untrusted) name, which reads only what this browser wrote."""
    if session is None:
        return None
    try:
        if session.student:
            return session.writer()
        # a ?student= name the page's Discuss box has not typed in yet: read as that typed name
        # (this browser's work only), as ensure_student would save under it
        typed = clean_name(_query_name())
        return session.writer(typed) if typed and not session.roster_in_use else None
    except ValueError:
        return None


def save_response(session: PageSession | None, key: str, answer: str, kind: str,
                  correct: bool | None = None, box: widgets.Text | None = None) -> str:
    """Save one response of the page's student (:meth:`tokens_edu.store.Responses.save`).

    Returns:
        str: the response's id.

    Raises:
        ValueError: no session, no name yet, a bad answer, saving too often, or the store refused
            (plain words).
    """
    writer = ensure_student(session, box)
    return session.store.responses.save(writer, session.lesson, key, answer, kind=kind, correct=correct)


def saved_response(session: PageSession | None, key: str) -> Saved | None:
    """The page's student's latest response to ``key`` in the session's lesson, or None (no
    session or no name yet).

    Raises:
        JournalUnavailable: the store cannot be read now.
    """
    writer = page_writer(session)
    return session.store.responses.latest(writer, session.lesson, key) if writer is not None else None
