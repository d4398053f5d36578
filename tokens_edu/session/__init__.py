"""Who is at this page: the session layer, between the widgets and the store.

A lesson page is a web page served by Voila. Who is at it is a web concern, kept here and out of
the store (which takes a small frozen :class:`~tokens_edu.store.Writer` per call):

- :mod:`.page`: :class:`PageSession`, the page's student (JupyterHub login > class-roster code >
  a name the lesson's code gave > a typed name), its browser, its lesson and its open stores;
  ``session.writer()`` is what a store call takes.
- :mod:`.address`: the page's address (``?student=``, ``?code=``, ``?hints=``), also in a warm
  (preheated) kernel, which waits for Voila's request over its websocket when first asked.
- :mod:`.browser`: the browser's secret, stored only as a hash.
- :mod:`.journal`: the old ``Journal``, a thin facade kept for notebooks until tokens-edu 0.4.0.

In a lesson::

    from tokens_edu.session import PageSession
    session = PageSession("01-read-a-card")
    DiscussBox("Chatbot", session=session)
"""

from .address import code_from_query, query_known, query_string, student_from_query
from .browser import browser_hash
from .page import CODE_NEEDED, NO_NAME, PageSession

__all__ = ["PageSession", "CODE_NEEDED", "NO_NAME", "browser_hash", "query_string", "query_known",
           "student_from_query", "code_from_query"]
