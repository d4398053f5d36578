"""What the dashboard reads, and the only module of it that reads the store.

The class's answers are kept in memory (:class:`AnswerIndex`) and brought up to date a little at
a time: each look at the database asks only for the answers saved since the last look
(the store's :class:`~tokens_edu.store.feed.RowFeed`), so a page at 20,000 answers costs what a page at 20 does, and no page
reads the whole answers table. Games and the class list are small tables; they are read again
only when a cheap signature of them (a count and the newest time) changes.

The dashboard writes to the store only when the teacher hides a lesson 12 sentence or shows it
again (:meth:`ClassData.hide_sentence`), and for lesson 8's class data: starting a new set for a
class (:meth:`ClassData.start_set`) and deleting a drawing or a typed command
(:meth:`ClassData.delete_drawing`, :meth:`ClassData.delete_command`).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

import pandas as pd
import sqlalchemy as sa

from .. import _moved
from ..game.replay import Replay
from ..store import Database, GameStore, JournalUnavailable, Roster, default_url
from ..store.db import make_engine
from ..store.feed import RowFeed
from ..store.schema import games as games_table
from ..store.schema import roster as roster_table
from ..store.schema import sentences as sentences_table
from ..store.drawings import Drawings, as_rows
from ..store.sentences import Sentences
from .lessons import lesson_prompts

__all__ = ["Answer", "AnswerIndex", "ClassData"]

#: Replays kept ready (each holds one game and its position).
REPLAYS_KEPT = 20


@dataclass(frozen=True, slots=True)
class Answer:
    """One saved Discuss answer (a row of the store's ``answers`` table).

    Attributes:
        seq: the order it arrived in (bigger is later).
        id, student, lesson, card, prompt, answer: as stored.
        saved_at: when it was saved (aware UTC datetime).
    """

    seq: int
    id: str
    student: str
    lesson: str
    card: str
    prompt: str
    answer: str
    saved_at: datetime

    @property
    def key(self) -> tuple[str, str, str]:
        """(student, lesson, card): one student's answers to one question."""
        return (self.student, self.lesson, self.card)


@dataclass(frozen=True, slots=True)
class Response:
    """One saved answer to a prediction, an exit question or a lesson result (a row of the
    store's ``responses`` table).

    Attributes:
        seq, id, student, lesson: as for :class:`Answer`.
        question: the question's id in the lesson (e.g. ``"l05-bot-move"``).
        kind: ``"prediction"``, ``"exit"`` or ``"result"``.
        answer: what the student chose or wrote, or the result.
        correct: True or False when the question has a right answer, else None.
        saved_at: when it was saved (aware UTC datetime).
    """

    seq: int
    id: str
    student: str
    lesson: str
    question: str
    kind: str
    answer: str
    correct: bool | None
    saved_at: datetime

    @property
    def key(self) -> tuple[str, str, str]:
        """(student, lesson, question)."""
        return (self.student, self.lesson, self.question)


class AnswerIndex:
    """Every answer seen so far, with what the pages ask for kept up to date as answers arrive:
    each student's latest answer per question (and how many times they saved it), the latest
    per question for the wall, and the students, lessons and questions seen.

    Adding n answers costs O(n); the pages' questions cost at most one pass over the answers.
    Not thread-safe by itself: :class:`ClassData` adds under its lock and hands out snapshots.
    """

    def __init__(self):
        self.rows: list[Answer] = []
        self.latest: dict[tuple[str, str, str], Answer] = {}
        self.saves: Counter = Counter()
        self.by_prompt: dict[tuple[str, str], dict[str, Answer]] = {}
        self.students: set[str] = set()
        self.lessons: set[str] = set()

    def add(self, rows: Iterable[Answer]) -> int:
        """Add answers (any order; each once). Returns how many were added."""
        rows = sorted(rows, key=lambda r: r.seq)
        if rows and self.rows and rows[0].seq < self.rows[-1].seq:
            self.rows = sorted(self.rows + rows, key=lambda r: r.seq)
        else:
            self.rows.extend(rows)
        for a in rows:
            self.saves[a.key] += 1
            old = self.latest.get(a.key)
            if old is None or (a.saved_at, a.seq) >= (old.saved_at, old.seq):
                self.latest[a.key] = a
                self.by_prompt.setdefault((a.lesson, a.card), {})[a.student] = a
            self.students.add(a.student)
            self.lessons.add(a.lesson)
        return len(rows)

    def find(self, student: str = "", lesson: str = "", card: str = "", search: str = "",
             every_save: bool = False) -> list[Answer]:
        """The answers that match, newest first (every save: in the order they arrived).

        Args:
            student, lesson, card: keep only this exact value ("" keeps all).
            search: keep answers containing this text (any case).
            every_save: False: each student's latest answer per question; True: every save.
        """
        needle = search.casefold()

        def keep(a: Answer) -> bool:
            return ((not student or a.student == student) and (not lesson or a.lesson == lesson)
                    and (not card or a.card == card) and (not needle or needle in a.answer.casefold()))

        if every_save:  # in the order they arrived, newest first (no sort of every answer)
            return [a for a in reversed(self.rows) if keep(a)]
        return sorted(filter(keep, self.latest.values()), key=lambda a: (a.saved_at, a.seq), reverse=True)

    def newest(self) -> Answer | None:
        """The answer saved last (None before the first)."""
        return max(self.rows[-50:], key=lambda a: (a.saved_at, a.seq)) if self.rows else None


def _answer(seq, id_, student, lesson, card, prompt, answer, saved_at) -> Answer:
    return Answer(seq, id_, student, lesson, card, prompt or "", answer, saved_at)


def _response(seq, id_, student, lesson, question, kind, answer, correct, saved_at) -> Response:
    return Response(seq, id_, student, lesson, question, kind, answer,
                    None if correct is None else bool(correct), saved_at)


#: The columns read from the store's ``answers`` and ``responses`` tables.
ANSWER_COLUMNS = ("id", "student", "lesson", "card", "prompt", "answer", "saved_at")
RESPONSE_COLUMNS = ("id", "student", "lesson", "question", "kind", "answer", "correct", "saved_at")


class ClassData:
    """What the dashboard shows, from one database, kept up to date a little at a time.

    Call :meth:`refresh` (the dashboard does, about once a second while a page is open, and
    before each page) and read the rest: they never touch the database, except
    :meth:`replay` and :meth:`record`, which read one game.

    Args:
        url: a SQLAlchemy database URL; None uses the store's default (the data folder).
        lessons: the lessons folder, to know each lesson's Discuss questions before anyone
            answers (:func:`tokens_edu.teacher.lessons.lesson_prompts`); None: only the
            questions answered so far.

    Raises:
        ValueError: the database cannot be opened (plain words).
    """

    def __init__(self, url: str | None = None, lessons=None):
        self.url = url or default_url()
        self.database = Database(self.url)  # checks the database's revision
        try:
            self._engine = self.database.engine
        except JournalUnavailable:  # read it as it is: the watcher says, once, what is wrong
            self._engine = make_engine(self.url)
        self.roster = Roster(self.url, engine=self._engine, read_only=True)
        self.games = GameStore(self.url, engine=self._engine, read_only=True)
        self.lesson_prompts = lesson_prompts(lessons)
        self.index = AnswerIndex()
        self._new = RowFeed(self._engine, "answers", ANSWER_COLUMNS)
        self._new_responses = RowFeed(self._engine, "responses", RESPONSE_COLUMNS)
        self.responses: dict[tuple[str, str, str], Response] = {}  # the latest of each
        self.response_rows: list[Response] = []  # every one, in the order read
        self.response_saves: Counter = Counter()
        self._lock = threading.Lock()
        self._signature: tuple = ()
        self._games = None  # the games' summary table (pandas), read again when it changes
        self._roster: list[str] = []
        self._replays: OrderedDict = OrderedDict()
        self.replay_lock = threading.Lock()  # a replay's game moves to one step at a time
        self.changes = 0

    # -- keeping up ------------------------------------------------------------------------
    def refresh(self) -> int:
        """Read what is new: new answers, and games and the class list when they changed.

        Returns:
            int: a number that grows each time something changed (a new answer, a game move,
            a name on the class list).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database cannot be read now (nothing changes).
        """
        with self._lock:
            new = [_answer(*row) for row in self._new.poll_rows()]
            new_responses = [_response(*row) for row in self._new_responses.poll_rows()]
            signature = self._other_signature()
            if new:
                self.index.add(new)
            self.response_rows.extend(new_responses)
            for r in new_responses:
                self.response_saves[r.key] += 1
                old = self.responses.get(r.key)
                if old is None or (r.saved_at, r.seq) >= (old.saved_at, old.seq):
                    self.responses[r.key] = r
            new = new or new_responses
            if signature != self._signature or self._games is None:
                self._games = self.games.games(kind="game")
                self._roster = [e.name for e in self.roster.entries()]
                self._signature = signature
                self.changes += 1
            elif new:
                self.changes += 1
            return self.changes

    def version(self) -> int:
        """The old name of :meth:`refresh` (a DeprecationWarning; removed in tokens-edu 0.4.0)."""
        _moved.warn_moved("ClassData.version()", "ClassData.refresh()")
        return self.refresh()

    def _first(self) -> None:
        """Read everything once, if nothing was read yet (a reader called before refresh)."""
        if self._games is None:
            self.refresh()

    def _other_signature(self) -> tuple:
        """Counts and newest times of the games and the class list: they change when those do."""
        with self._engine.connect() as conn:
            t = games_table.c
            g = (tuple(conn.execute(sa.select(
                    sa.func.count(), sa.func.max(t.updated_at), sa.func.sum(t.moves),
                    *(sa.func.count(sa.case((t.status == s, 1))) for s in ("playing", "over")))).first())
                 if self.games._ready() else ())
            r = (tuple(conn.execute(sa.select(sa.func.count(), sa.func.max(roster_table.c.code))).first())
                 if self.roster._ready() else ())
            s = ()
            if getattr(self, "_sentences_ready", False) or sa.inspect(conn).has_table("sentences"):
                self._sentences_ready = True  # lesson 12's sentences: new, hidden or shown again
                t = sentences_table.c
                s = tuple(conn.execute(sa.select(sa.func.count(), sa.func.max(t.saved_at), sa.func.max(t.hidden_at),
                                                 sa.func.count(sa.case((t.hidden, 1))))).first())
        return (g, r, s)

    # -- what the pages show -----------------------------------------------------------------
    def answers(self, student: str = "", lesson: str = "", card: str = "", search: str = "",
                every_save: bool = False) -> list[Answer]:
        """The answers that match, newest first (see :meth:`AnswerIndex.find`)."""
        self._first()
        with self._lock:
            return self.index.find(student, lesson, card, search, every_save)

    def saves(self, answer: Answer) -> int:
        """How many times the student saved an answer to that question."""
        return self.index.saves[answer.key]

    def done(self) -> dict[tuple[str, str, str], Answer]:
        """Each student's latest answer per question, by (student, lesson, card)."""
        self._first()
        with self._lock:
            return dict(self.index.latest)

    def wall(self, lesson: str, card: str) -> list[Answer]:
        """Each student's latest answer to one question, oldest first (for the wall)."""
        self._first()
        with self._lock:
            rows = list(self.index.by_prompt.get((lesson, card), {}).values())
        return sorted(rows, key=lambda a: (a.saved_at, a.seq))

    def newest(self) -> Answer | None:
        """The answer saved last, or None."""
        self._first()
        with self._lock:
            return self.index.newest()

    def game_list(self, student: str = "", lesson: str = ""):
        """The saved games (pandas DataFrame, newest first, no records), filtered. Only games:
        a lesson's puzzles (``kind = "puzzle"``) are not the class's games (issue 28 part 7)."""
        self._first()
        with self._lock:
            df = self._games if self._games is not None else self.games.games(kind="game")
        if student:
            df = df[df["student"] == student]
        if lesson:
            df = df[df["lesson"] == lesson]
        return df

    def choices(self) -> dict:
        """The values the filters offer: ``students`` (the class list first, then others),
        ``roster``, ``lessons``, ``cards``, ``prompts`` ((lesson, card) pairs: each lesson's
        own questions in page order, then questions met in games)."""
        self._first()
        with self._lock:
            roster = list(self._roster)
            games = self._games
            answered = set(self.index.by_prompt)
            students = set(self.index.students) | {k[0] for k in self.responses}
            lessons = set(self.index.lessons) | {k[1] for k in self.responses}
        players = set(games["student"]) if games is not None and len(games) else set()
        game_lessons = set(games["lesson"]) if games is not None and len(games) else set()
        others = sorted((students | players) - set(roster), key=str.casefold)
        known = list(self.lesson_prompts)
        rank = {pair: i for i, pair in enumerate(known)}
        pairs = sorted(set(known) | answered,
                       key=lambda p: (p[0], 0 if p in rank else 1, rank.get(p, 0), p[1]))
        return {"students": roster + others, "roster": roster,
                "lessons": sorted(lessons | game_lessons | {p[0] for p in known}),
                "cards": sorted({c for _, c in answered}), "prompts": pairs}

    def questions(self) -> dict[tuple[str, str], dict]:
        """The predictions, exit questions and results answered so far, by (lesson, question):
        ``kind``, ``latest`` (each student's latest :class:`Response`, by name), ``answered``,
        ``right`` and ``wrong`` (counts of the latest; both 0 when there is no right answer)."""
        self._first()
        with self._lock:
            latest = list(self.responses.values())
        out: dict[tuple[str, str], dict] = {}
        for r in sorted(latest, key=lambda r: (r.lesson, r.question, r.student.casefold())):
            q = out.setdefault((r.lesson, r.question), {"kind": r.kind, "latest": {}, "answered": 0,
                                                        "right": 0, "wrong": 0})
            q["latest"][r.student] = r
            q["answered"] += 1
            q["right"] += r.correct is True
            q["wrong"] += r.correct is False
        return out

    def response_table(self, student: str = "", lesson: str = ""):
        """Every saved prediction, exit answer and result (each try), oldest first, as the
        table :func:`tokens_edu.teacher.checks.checks_html` reads: pandas DataFrame with
        ``student, lesson, question, kind, answer, correct, saved_at``. From memory: no
        database read.

        Args:
            student, lesson: keep only rows with exactly this value ("" keeps all).
        """
        self._first()
        with self._lock:
            rows = [r for r in self.response_rows
                    if (not student or r.student == student) and (not lesson or r.lesson == lesson)]
        rows.sort(key=lambda r: (r.saved_at, r.seq))
        return pd.DataFrame([(r.student, r.lesson, r.question, r.kind, r.answer, r.correct, r.saved_at)
                             for r in rows],
                            columns=["student", "lesson", "question", "kind", "answer", "correct", "saved_at"])

    # -- lesson 12's sentences ------------------------------------------------------------------
    @cached_property
    def sentence_store(self) -> Sentences:
        """The store's :class:`~tokens_edu.store.sentences.Sentences` on this dashboard's database."""
        return Sentences(self.database)

    def sentence_rows(self, lesson: str = "") -> list[dict]:
        """The shared sentences of ``lesson`` ("" for every lesson), newest first: dicts with
        ``id, student, lesson, text, saved_at, hidden``.

        Raises:
            JournalUnavailable: the store cannot be read now (plain words).
        """
        table = self.sentence_store.table([lesson] if lesson else None)
        rows = table.to_dict("records")
        for r in rows:
            r["hidden"] = bool(r["hidden"])
        return rows[::-1]

    def sentence_lessons(self) -> list[str]:
        """The lessons that have shared sentences."""
        with self._engine.connect() as conn:
            return list(conn.execute(sa.select(sentences_table.c.lesson).distinct()).scalars())

    def hide_sentence(self, sentence_id: str, hidden: bool = True) -> bool:
        """Hide a sentence from the class's model (``hidden=False``: show it again).

        Returns:
            bool: True when the sentence exists.

        Raises:
            JournalUnavailable: the store cannot take the change now (plain words).
        """
        done = self.sentence_store.hide(sentence_id, hidden)
        with self._lock:
            self.changes += 1
        return done

    # -- lesson 8's class data: drawings and typed commands, by class set -------------------------
    @cached_property
    def drawing_store(self) -> Drawings:
        """The store's :class:`~tokens_edu.store.drawings.Drawings` on this dashboard's database."""
        return Drawings(self.database)

    def class_data(self, lesson: str, set_id: str | None = None) -> dict:
        """Lesson ``lesson``'s class data for the teacher: ``sets`` (every set, oldest first, the
        newest one ``current``), ``set`` (the one shown: ``set_id``, or the newest), its
        ``drawings`` (dicts with ``id, student, label, saved_at, rows``, newest first) and its
        ``commands`` (``id, student, text, label, saved_at``, newest first).

        Raises:
            JournalUnavailable: the store cannot be read now (plain words).
        """
        store = self.drawing_store
        sets = store.sets(lesson)
        current = sets[-1]
        shown = next((s for s in sets if s["id"] == set_id), current) if set_id is not None else current
        drawings = store.table([lesson])
        drawings = drawings[drawings["set_id"] == shown["id"]]
        commands = store.commands_table([lesson])
        commands = commands[commands["set_id"] == shown["id"]]
        return {
            "sets": [{**s, "current": s["id"] == current["id"]} for s in sets], "set": shown,
            "drawings": [{"id": r["id"], "student": r["student"], "label": r["label"], "saved_at": r["saved_at"],
                          "rows": as_rows(bytes(r["pixels"]), int(r["width"]), int(r["height"]))}
                         for r in drawings.to_dict("records")][::-1],
            "commands": commands[["id", "student", "text", "label", "saved_at"]].to_dict("records")[::-1],
        }

    def start_set(self, lesson: str, name: str) -> str:
        """Start a new set of ``lesson``'s class data for a class (see
        :meth:`~tokens_edu.store.drawings.Drawings.start_set`). Returns its id.

        Raises:
            ValueError: an empty or too long name. JournalUnavailable: the store cannot take it now.
        """
        set_id = self.drawing_store.start_set(lesson, name)
        with self._lock:
            self.changes += 1
        return set_id

    def delete_drawing(self, drawing_id: str) -> bool:
        """Delete one drawing; True when it existed. Raises JournalUnavailable as the store does."""
        done = self.drawing_store.delete(drawing_id)
        with self._lock:
            self.changes += 1
        return done

    def delete_command(self, command_id: str) -> bool:
        """Delete one typed command; True when it existed. Raises JournalUnavailable as the store does."""
        done = self.drawing_store.delete_command(command_id)
        with self._lock:
            self.changes += 1
        return done

    def replay(self, game_id: str):
        """A :class:`~tokens_edu.game.replay.Replay` of a saved game (kept while its record does
        not change) and the saved game; (None, None) if there is no such game."""
        saved = self.games.get(game_id)
        if saved is None:
            return None, None
        key = (game_id, saved.moves, saved.updated_at)
        with self._lock:
            hit = self._replays.get(game_id)
            if hit is not None and hit[0] == key:
                self._replays.move_to_end(game_id)
                return hit[1], saved
        # built at the end, where the page opens (a game at the 10,000-move cap: about a
        # second of one core, in the dashboard's worker thread)
        replay = Replay(saved.record, at="end")
        if hit is not None:  # keep the step the teacher was looking at
            replay.goto(min(hit[1].step, replay.length))
        with self._lock:
            self._replays[game_id] = (key, replay)
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        return replay, saved

    def record(self, game_id: str):
        """A saved game (with its record), or None."""
        return self.games.get(game_id)


# Old names of this module (DashboardData: ClassData), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)
