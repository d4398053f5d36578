"""The dashboard's **Sentences** page: what the class shared with lesson 12's next-word model.

``GET sentences`` lists every shared sentence with the student's name and time, newest first,
filtered by lesson, and says which are hidden. Each row has one button: **Hide** takes the
sentence out of the class's model and out of what the class sees (the next time a student's
page gets the class's sentences); **Show again** puts it back. The sentence stays in this list
either way, so nothing a student wrote is lost. ``POST sentences/hide`` does it (the form carries
the page's XSRF token, like every form of the dashboard), then goes back to the page.

Lesson 12's predictions and exit answers are on the Questions page (``questions?lesson=...``);
this page links there. Everything a student typed is escaped by the templates.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import tornado.web

from .base import BaseHandler

__all__ = ["SentencesHandler", "HideSentenceHandler", "LESSON"]

#: The lesson whose sentences the page shows first (the only one that saves sentences).
LESSON = "12-finish-my-sentence"
_ID = re.compile(r"[0-9a-f-]{36}")


class SentencesHandler(BaseHandler):
    """The class's shared sentences, with Hide and Show again (see the module)."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", LESSON)
        rows = await self.run(self.data.sentence_rows, lesson)
        lessons = await self.run(self.data.sentence_lessons)
        self.show("sentences", "Sentences", "sentences_live.html", lesson=lesson, rows=rows,
                  lessons=sorted(set(lessons) | {LESSON}), hidden=sum(r["hidden"] for r in rows))


class HideSentenceHandler(BaseHandler):
    """``POST sentences/hide``: ``id`` (the sentence), ``hidden`` (``1`` hide, ``0`` show again),
    ``lesson`` (the page to go back to)."""

    @tornado.web.authenticated
    async def post(self):
        sentence_id = self.get_body_argument("id", "")
        hidden = self.get_body_argument("hidden", "")
        if not _ID.fullmatch(sentence_id) or hidden not in ("0", "1"):
            raise tornado.web.HTTPError(400)
        try:
            found = await self.run(self.data.hide_sentence, sentence_id, hidden == "1")
        except ValueError as e:  # the store cannot take the change now (plain words in the log)
            raise tornado.web.HTTPError(503, f"a sentence could not be hidden: {e}") from None
        if not found:
            raise tornado.web.HTTPError(404)
        lesson = self.get_body_argument("lesson", LESSON)
        self.redirect(self.base + "sentences?" + urlencode({"lesson": lesson}))
