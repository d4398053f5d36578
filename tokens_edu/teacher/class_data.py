"""The dashboard's **Drawings** page: lesson 8's class data, by class and day (issue 28.4).

``GET drawings`` shows the lesson's sets (each started for a class, on a day) and, for the set
chosen (the newest by default, the one the lesson's pages add to and learn from), every drawing
with its picture, label, student and time, and every typed command of the command lab with its
label, newest first. Each drawing and command has a **Delete** button (``POST drawings/delete``):
the class's model no longer learns from it, the next time a student's page learns. **Start a new
set** (``POST drawings/new-set``, with the class's name) makes a new, empty set: from then on the
lesson's pages add to it, and its model starts knowing nothing; the older sets stay listed here.
Every form carries the page's XSRF token, like every form of the dashboard. Everything a student
typed is escaped by the templates; the pictures are drawn here from the stored pixels.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import tornado.web

from ..present.charts import drawing_svg
from .base import BaseHandler

__all__ = ["DrawingsHandler", "DeleteDrawingHandler", "NewSetHandler", "LESSON"]

#: The lesson whose class data the page shows (the only one that saves drawings and commands).
LESSON = "08-how-ai-senses"
_ID = re.compile(r"[0-9a-f-]{36}")


class DrawingsHandler(BaseHandler):
    """Lesson 8's drawings and typed commands of one class set (see the module)."""

    @tornado.web.authenticated
    async def get(self):
        set_id = self.get_query_argument("set", None)
        if set_id is not None and set_id != "" and not _ID.fullmatch(set_id):
            raise tornado.web.HTTPError(400)
        data = await self.run(self.data.class_data, LESSON, set_id)
        for d in data["drawings"]:
            d["svg"] = drawing_svg(d["rows"], px=48, title=f"a drawing labelled {d['label']}")
        self.show("drawings", "Drawings", "drawings_live.html", lesson=LESSON, **data)


class DeleteDrawingHandler(BaseHandler):
    """``POST drawings/delete``: ``id`` (a drawing's or a command's), ``kind`` (``drawing`` or
    ``command``), ``set`` (the set to go back to)."""

    @tornado.web.authenticated
    async def post(self):
        item = self.get_body_argument("id", "")
        kind = self.get_body_argument("kind", "")
        if not _ID.fullmatch(item) or kind not in ("drawing", "command"):
            raise tornado.web.HTTPError(400)
        delete = self.data.delete_drawing if kind == "drawing" else self.data.delete_command
        try:
            found = await self.run(delete, item)
        except ValueError as e:  # the store cannot take the change now (plain words in the log)
            raise tornado.web.HTTPError(503, f"a {kind} could not be deleted: {e}") from None
        if not found:
            raise tornado.web.HTTPError(404)
        self.redirect(self.base + "drawings?" + urlencode({"set": self.get_body_argument("set", "")}))


class NewSetHandler(BaseHandler):
    """``POST drawings/new-set``: ``name`` (which class, e.g. "7B")."""

    @tornado.web.authenticated
    async def post(self):
        name = " ".join(self.get_body_argument("name", "").split())
        if not name or len(name) > 200:
            raise tornado.web.HTTPError(400)
        try:
            await self.run(self.data.start_set, LESSON, name)
        except ValueError as e:  # the store cannot take the change now
            raise tornado.web.HTTPError(503, f"a class set could not be started: {e}") from None
        self.redirect(self.base + "drawings")
