"""The dashboard's pages: Answers (and its CSV), Progress, the Answer wall, Games, and the
"today's lesson" control. Each reads :class:`~tokens_edu.teacher.data.ClassData` (brought up to
date first: only what is new is read) and fills in its template; the page's script fetches the
live part again (``?fragment=1``) when the data changes.
"""

from __future__ import annotations

import io
from datetime import datetime, timezone
from urllib.parse import urlencode

import tornado.web

from ..store.export import spreadsheet_safe, write_csv
from ..store.schema import COLUMNS
from . import words
from .base import BaseHandler
from .checks import panel as checks_panel

__all__ = ["AnswersHandler", "ExportHandler", "ProgressHandler", "WallHandler", "GamesHandler",
           "TodayHandler", "QuestionsHandler", "MAX_ROWS", "KINDS", "answers_csv", "safe_cell", "game_row"]

#: What each kind of response is called.
KINDS = {"prediction": "prediction", "exit": "exit question", "result": "lesson result"}

#: Rows shown on the Answers page at most (the CSV has them all).
MAX_ROWS = 1000


def safe_cell(value):
    """A value a spreadsheet shows as text, never as a formula (the store's rule: text starting
    with ``=``, ``+``, ``-``, ``@``, their full-width forms, a tab or a carriage return gets a
    leading apostrophe)."""
    return spreadsheet_safe(value)


def answers_csv(rows) -> str:
    """Answers (a DataFrame, or dicts) as CSV text a spreadsheet opens safely: the writer of
    ``tokens-edu export`` (every text cell through :func:`safe_cell`, CRLF line ends, so a line
    break inside an answer stays in its cell)."""
    out = io.StringIO(newline="")
    write_csv(rows, out)
    return out.getvalue()


def _filters(handler: BaseHandler) -> tuple[dict, bool]:
    f = {k: handler.get_query_argument(k, "") for k in ("student", "lesson", "card", "q")}
    return f, bool(handler.get_query_argument("every", ""))


def game_row(g, now: datetime) -> dict:
    """What a page shows of a saved game (a row of the games' summary), from the student's seat:
    ``id, student, lesson, me, other, mine, theirs, names, tokens, turn, moves, updated_at``,
    ``state`` (its CSS class, :func:`~tokens_edu.teacher.words.state_class`), ``state_text``
    (the kit's one word for it, from the student's side: "playing, turn 7", "over, won"...) and
    ``state_word`` (the same with each game's names: "playing", "over, Ana won"...)."""
    seat = int(g.seat)
    winner = None if g.winner is None or g.winner != g.winner else int(g.winner)
    return {"id": g.id, "student": g.student, "lesson": g.lesson, "names": (g.name0, g.name1),
            "tokens": (int(g.tokens0), int(g.tokens1)), "me": (g.name0, g.name1)[seat],
            "other": (g.name1, g.name0)[seat], "mine": int((g.tokens0, g.tokens1)[seat]),
            "theirs": int((g.tokens1, g.tokens0)[seat]), "turn": int(g.turn), "moves": int(g.moves),
            "state": words.state_class(g.status, winner, seat),
            "state_text": words.game_state(g.status, winner, seat=seat, turn=int(g.turn)),
            "state_word": words.game_state(g.status, winner, names=(g.name0, g.name1)),
            "updated_at": g.updated_at}


class AnswersHandler(BaseHandler):
    """Answers by student, lesson and card, with filters; the latest per card unless ``every``."""

    @tornado.web.authenticated
    async def get(self):
        f, every = _filters(self)
        await self.fresh()
        found = self.data.answers(f["student"], f["lesson"], f["card"], f["q"], every)
        query = {k: v for k, v in f.items() if v}
        if every:
            query["every"] = "1"
        # beside the Discuss answers: the same students' concept checks (templates/checks.html)
        checks = checks_panel(self.data.response_table(f["student"], f["lesson"]))
        self.show("answers", "Answers", "answers_live.html", f=f, every=every, checks=checks,
                  rows=[(a, self.data.saves(a)) for a in found[:MAX_ROWS]], total=len(found),
                  max_rows=MAX_ROWS, choices=self.data.choices(),
                  export=self.base + "export.csv" + ("?" + urlencode(query) if query else ""))


class ExportHandler(BaseHandler):
    """The answers the Answers page shows (same filters) as a formula-safe CSV file."""

    @tornado.web.authenticated
    async def get(self):
        f, every = _filters(self)
        await self.fresh()
        found = self.data.answers(f["student"], f["lesson"], f["card"], f["q"], every)
        rows = [{c: getattr(a, c) for c in COLUMNS} for a in reversed(found)]  # oldest first
        text = answers_csv(rows) if rows else ",".join(COLUMNS) + "\r\n"
        stamp = datetime.now().strftime("%Y-%m-%d-%H%M")
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="answers-{stamp}.csv"')
        self.finish("\ufeff" + text)  # the BOM makes spreadsheet programs read UTF-8 names right


class ProgressHandler(BaseHandler):
    """Who has answered which question, and each student's latest game."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", "")
        await self.fresh()
        choices = self.data.choices()
        done = self.data.done()
        prompts = [p for p in choices["prompts"] if not lesson or p[0] == lesson]
        now = datetime.now(timezone.utc)
        latest_game = {}
        for g in self.data.game_list(lesson=lesson).itertuples():  # newest first
            latest_game.setdefault(g.student, g)
        questions = {k: q for k, q in self.data.questions().items() if not lesson or k[0] == lesson}
        active = {s for s, lsn, _ in done if not lesson or lsn == lesson}
        active |= {s for q in questions.values() for s in q["latest"]}
        students = [s for s in choices["students"]
                    if not lesson or s in choices["roster"] or s in active or s in latest_game]
        grid = []
        for s in students:
            marks = [done.get((s, lsn, c)) for lsn, c in prompts]
            game = latest_game.get(s)
            checks = [q["latest"].get(s) for q in questions.values()]
            grid.append({"student": s, "marks": marks, "count": sum(m is not None for m in marks),
                         "checks": checks, "game": game_row(game, now) if game is not None else None})
        self.show("progress", "Progress", "progress_live.html", lesson=lesson, choices=choices,
                  prompts=prompts, questions=list(questions.items()), grid=grid)


class QuestionsHandler(BaseHandler):
    """Predictions, exit questions and lesson results: how many answered each, how many got it
    right, and each student's latest answer (concept checks, beside the Discuss answers)."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", "")
        await self.fresh()
        questions = [(k, q) for k, q in self.data.questions().items() if not lesson or k[0] == lesson]
        self.show("questions", "Questions", "questions_live.html", lesson=lesson,
                  choices=self.data.choices(), questions=questions, kinds=KINDS)


class WallHandler(BaseHandler):
    """The answers to one card, large and without names, to project for the class."""

    @tornado.web.authenticated
    async def get(self):
        lesson = self.get_query_argument("lesson", "")
        card = self.get_query_argument("card", "")
        await self.fresh()
        choices = self.data.choices()
        if not card:  # the card answered most recently
            newest = self.data.newest()
            if newest is not None:
                lesson, card = newest.lesson, newest.card
        tiles = self.data.wall(lesson, card) if card else None
        options = [(urlencode({"lesson": lsn, "card": c}), f"{c} ({lsn or 'no lesson'})",
                    (lsn, c) == (lesson, card)) for lsn, c in choices["prompts"]]
        self.show("wall", "Answer wall", "wall_live.html", card=card, tiles=tiles, options=options,
                  question=tiles[0].prompt if tiles else "")


class GamesHandler(BaseHandler):
    """Every saved game: who, which lesson, the score, its state, and a link to its replay."""

    @tornado.web.authenticated
    async def get(self):
        student = self.get_query_argument("student", "")
        lesson = self.get_query_argument("lesson", "")
        await self.fresh()
        now = datetime.now(timezone.utc)
        games = [game_row(g, now) for g in self.data.game_list(student, lesson).itertuples()]
        self.show("games", "Games", "games_live.html", student=student, lesson=lesson,
                  choices=self.data.choices(), games=games)


class TodayHandler(BaseHandler):
    """``POST today``: tell the lesson server which lesson the class opens today (when the
    dashboard was given a way to: ``make_app(today=...)``), then back to the page."""

    @tornado.web.authenticated
    def post(self):
        today = self.application.settings.get("today")
        if today is None:
            raise tornado.web.HTTPError(404)
        lesson = self.get_body_argument("lesson", "")
        known = {value for value, _ in today.options()}
        if lesson and lesson not in known:
            raise tornado.web.HTTPError(400)
        try:
            today.set(lesson or None)
        except OSError as e:
            raise tornado.web.HTTPError(503, f"today's lesson could not be written: {e}") from None
        back = self.get_body_argument("back", "")
        self.redirect(back if back.startswith(self.base) and "//" not in back else self.base)
