"""Saved games: every lesson game kept on the server after each move, to resume or replay.

A student's game lives in the lesson page's kernel. A reload, a second tab, a sleeping laptop
or a kernel stopped by the server's culler would lose it, so each move is saved in the answers'
database (table ``games``, :data:`tokens_edu.store.schema.games`): the game's full record (``Game.to_record()``: the start and every
move), the student, the lesson, the seats and undo policy, and a short summary (turn, Tokens,
moves, whether it is over) for the teacher's dashboard.

The record holds hidden information (both hands, the deck order: it is the whole game), so it
stays on the server: it is written by the lesson's kernel, read back by the kernel that resumes
the game, and shown only on the teacher's dashboard. Nothing here sends it to a page.

One game is held by one page at a time. A page that continues a game takes it over
(:meth:`GameStore.claim`); a page that still shows it and tries to save is told, in plain
words, that the game goes on in the other tab (:class:`GameMoved`), so two tabs never
overwrite each other's moves.

Example::

    >>> from tokens_edu import Game, starter_decks
    >>> store = GameStore("sqlite:///:memory:")
    >>> d = starter_decks()
    >>> game = Game.new(d[0], d[7], seed=1, names=("Ana", "Computer"))
    >>> gid = store.start(game, student="Ana", lesson="05-play-the-computer",
    ...                   seats=("human", "greedy"), undo="turn", page="tab-1")
    >>> store.unfinished("Ana", "05-play-the-computer").id == gid
    True
"""

from __future__ import annotations

import atexit
import json
import logging
import uuid
import warnings
import weakref
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import sqlalchemy as sa

from . import schema
from .db import JournalUnavailable, StoreDamaged, damaged, damaged_message, default_url, make_engine
from .db import shown_url, utc
from .migrate import ensure_current

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GameStore", "SavedGame", "GameMoved", "GameKeeper", "SUMMARY_COLUMNS", "KINDS", "snapshot",
           "games_table", "ensure_table"]

log = logging.getLogger(__name__)

#: The columns of :meth:`GameStore.games` (a summary: no record, so no hidden cards).
SUMMARY_COLUMNS = ["id", "student", "lesson", "status", "name0", "name1", "seat", "seats", "undo",
                   "turn", "moves", "tokens0", "tokens1", "winner", "started_at", "updated_at", "kind"]

#: What a saved row is (``games.kind``): one of the class's games, or a lesson's puzzle (a
#: scenario on a card table), kept for the teacher's replay but not listed as a game.
KINDS = ("game", "puzzle")

#: The saved games' table (:data:`tokens_edu.store.schema.games`).
games_table = schema.games


class GameMoved(ValueError):
    """The game was continued in another tab or window; this page can no longer save it."""


@dataclass(frozen=True)
class SavedGame:
    """One saved game (see the module docs).

    Attributes:
        id: the game's id (a UUID string). student, lesson: whose and where.
        status: ``"playing"``, ``"over"``, or ``"stopped"`` (the student started a new game).
        names: the two players' names. seat: the student's seat (0/1). seats: the seats as
            given to the view (e.g. ``("human", "greedy")``). undo: the lesson's undo policy.
        turn, moves: the turn number and how many moves were made. tokens: (int, int).
        winner: 0, 1 or None. started_at, updated_at: UTC datetimes.
        record: the game's record (dict, :meth:`tokens_edu.Game.to_record`), or None when not
            loaded. It holds hidden cards: never send it to a student's page.
    """

    id: str
    student: str
    lesson: str
    status: str
    names: tuple
    seat: int
    seats: tuple
    undo: str
    turn: int
    moves: int
    tokens: tuple
    winner: int | None
    started_at: datetime
    updated_at: datetime
    record: dict | None = None

    def summary(self) -> str:
        """A line for a student: "Turn 7, Ana 6 - Computer 9, 42 moves"."""
        return (f"Turn {self.turn}, {self.names[0]} {self.tokens[0]} - {self.tokens[1]} "
                f"{self.names[1]}, {self.moves} move{'s' if self.moves != 1 else ''}")


def ensure_table(engine: sa.Engine, table: sa.Table, indexes=(), read_only: bool = False) -> bool:
    """Kept until tokens-edu 0.4.0 (a DeprecationWarning): tables now come from the store's
    migrations. Checks the database's revision and makes a new one (unless ``read_only``; see
    :func:`tokens_edu.store.migrate.ensure_current`) and says whether ``table`` is there;
    ``indexes`` are ignored (the migrations make them).

    Raises:
        JournalUnavailable: the database cannot be used as it is (plain words: an older one
            says to run ``tokens-edu upgrade-db``).
    """
    warnings.warn("ensure_table is replaced by the store's migrations "
                  "(tokens_edu.store.migrate.ensure_current); it will be removed in tokens-edu 0.4.0.",
                  DeprecationWarning, stacklevel=2)
    if not read_only:
        ensure_current(engine)
    with engine.connect() as conn:
        return sa.inspect(conn).has_table(table.name)


def _summary(game) -> dict:
    """The columns that describe a game's position (public facts only). A game that reached
    the move cap (:data:`tokens_edu.game.records.MAX_RECORD_MOVES`) without an end is over,
    with no winner: it stops there (:class:`tokens_edu.players.Match`)."""
    from ..game.records import MAX_RECORD_MOVES  # here: the Hub imports the store without the game

    tokens = tuple(int(t) for t in game.tokens)
    moves = len(game.history)
    over = bool(game.over) or moves >= MAX_RECORD_MOVES
    return {"turn": int(game.turn), "moves": moves, "tokens0": tokens[0],
            "tokens1": tokens[1], "winner": game.winner if game.over else None,
            "status": "over" if over else "playing"}


def snapshot(game) -> dict:
    """What :meth:`GameStore.save_position` writes for ``game`` now: its record (JSON text) and
    its summary columns. Cheap (the record is the list of moves), so it is taken at once after
    a move, and written later."""
    return dict(_summary(game), record=json.dumps(game.to_record()))


def _seats_text(seats) -> str:
    out = []
    for s in seats:
        if s is None or isinstance(s, str):
            out.append((s or "human").strip().lower())
        else:
            out.append(type(s).__name__)
    return ",".join(out)


class GameStore:
    """Where lesson games are kept (the ``games`` table of the answers' database).

    Args:
        url: a SQLAlchemy database URL; None uses :func:`tokens_edu.store.db.default_url`.
        engine: an engine to use instead of making one from ``url``.
        read_only: for the teacher's dashboard: this store never writes. A database at
            another revision is read as it is.

    Opening checks the database's revision and makes a new one
    (:func:`tokens_edu.store.migrate.ensure_current`); an older database is not changed.

    Raises:
        StoreDamaged: the SQLite file is damaged (one line: what to do).
        ValueError: the database cannot be opened (plain words).
    """

    def __init__(self, url: str | None = None, *, engine: sa.Engine | None = None,
                 read_only: bool = False):
        self.url = url or (str(engine.url) if engine is not None else default_url())
        self.read_only = read_only
        try:
            self._engine = engine if engine is not None else make_engine(self.url)
            ensure_current(self._engine)
        except StoreDamaged:
            raise
        except JournalUnavailable as e:
            if not read_only:
                raise ValueError(f"The saved games cannot be opened: {e}") from None
            log.info("Reading the saved games as they are: %s", e)
        except sa.exc.SQLAlchemyError as e:
            if damaged(e):
                raise StoreDamaged(damaged_message(self.url)) from None
            log.warning("Cannot open the saved games at %s: %s", shown_url(self.url),
                        str(e).splitlines()[0][:200])
            raise ValueError(f"The saved games cannot be opened ({type(e).__name__}). "
                             "Ask your teacher to check it.") from None
        self._exists = False

    def _ready(self) -> bool:
        """True when the table exists (a reader of a new database looks again until a lesson
        has made it)."""
        if not self._exists:
            with self._engine.connect() as conn:
                self._exists = sa.inspect(conn).has_table(games_table.name)
        return self._exists

    # -- writing -------------------------------------------------------------------------
    def start(self, game, student: str, lesson: str = "", seats=("human", "greedy"),
              undo: str = "turn", page: str | None = None, browser: str = "", kind: str = "game",
              names=None) -> str:
        """Keep a new game; returns its id.

        Args:
            game: the :class:`~tokens_edu.Game` (any position; usually its first decision).
            student: whose game (the page's student name).
            lesson: the lesson's name.
            seats: the seats as given to the view (``("human", "greedy")``; bot objects are
                stored by class name).
            undo: the lesson's undo policy (``"turn"``, ``"free"`` or ``"off"``).
            page: an id of the page holding the game (None: a new one is made).
            browser: the hash of the page's browser secret
                (:attr:`tokens_edu.session.PageSession.browser`, the writer's ``browser``; ``""`` when not known), so a page
                with a typed name continues only the games its own browser started.
            kind: ``"game"``, or ``"puzzle"`` for a lesson's scenario (:data:`KINDS`; the
                dashboard's Games and Progress pages list only games).
            names: the two names for the row (the teacher's lists), None: the game's own. A
                puzzle's players are named in its scenario ("Ada"); its row names the student.

        Raises:
            ValueError: no student name, an unknown ``kind``, or the database refused (plain
                words).
        """
        if not isinstance(student, str) or not student.strip():
            raise ValueError("A saved game needs the student's name.")
        if kind not in KINDS:
            raise ValueError(f"A saved game's kind is one of {', '.join(KINDS)}, not {str(kind)[:20]!r}.")
        names = tuple(game.names) if names is None else tuple(str(n) for n in names)
        if len(names) != 2:
            raise ValueError("A saved game has two names.")
        humans = [i for i, s in enumerate(seats) if s is None or (isinstance(s, str) and s.lower()
                  in ("human", "person", "student"))]
        now = datetime.now(timezone.utc)
        gid = str(uuid.uuid4())
        row = {"id": gid, "student": student, "lesson": lesson or "", "name0": names[0],
               "name1": names[1], "kind": kind, "seat": humans[0] if humans else 0,
               "seats": _seats_text(seats), "undo": str(undo), "record": json.dumps(game.to_record()),
               "page": page or str(uuid.uuid4()), "started_at": now, "updated_at": now,
               "browser": browser or ""}
        row.update(_summary(game))
        self._write(games_table.insert().values(**row))
        return gid

    def save(self, game_id: str, game, page: str) -> None:
        """Save the game's position now (after a move or an Undo).

        Raises:
            GameMoved: another page has taken this game over (:meth:`claim`).
            ValueError: the database refused (plain words).
        """
        self.save_position(game_id, snapshot(game), page)

    def save_position(self, game_id: str, position: dict, page: str) -> None:
        """Save a position taken with :func:`snapshot` (what :meth:`save` does, in two steps, so
        the writing can happen in another thread while the game goes on).

        Raises:
            GameMoved, ValueError: as :meth:`save`.
        """
        values = dict(position, updated_at=datetime.now(timezone.utc))
        stmt = (games_table.update()
                .where(games_table.c.id == game_id, games_table.c.page == page)
                .values(**values))
        if self._write(stmt) == 0:
            raise GameMoved("This game goes on in another tab or window, so this page stopped "
                            "saving it. Reload the page to continue it here.")

    def claim(self, game_id: str, page: str) -> SavedGame:
        """Take a game over for ``page`` (Continue your game); returns it with its record.

        Raises:
            ValueError: there is no such game (plain words).
        """
        self._write(games_table.update().where(games_table.c.id == game_id).values(page=page))
        saved = self.get(game_id)
        if saved is None:
            raise ValueError("That saved game is not there any more. Start a new game.")
        return saved

    def stop(self, game_id: str) -> None:
        """Mark a game the student left for a new one as ``"stopped"`` (kept for the teacher)."""
        self._write(games_table.update()
                    .where(games_table.c.id == game_id, games_table.c.status == "playing")
                    .values(status="stopped"))

    def _write(self, stmt) -> int:
        try:
            with self._engine.begin() as conn:
                return conn.execute(stmt).rowcount
        except sa.exc.SQLAlchemyError as e:
            log.warning("Saving a game failed: %s", str(e).splitlines()[0][:200])
            raise ValueError("Your game couldn't be saved just now. You can keep playing; it is "
                             "saved again after your next move.") from None

    # -- reading -------------------------------------------------------------------------
    @staticmethod
    def _saved(row, with_record: bool) -> SavedGame:
        return SavedGame(
            id=row.id, student=row.student, lesson=row.lesson, status=row.status,
            names=(row.name0, row.name1), seat=row.seat, seats=tuple(row.seats.split(",")),
            undo=row.undo, turn=row.turn, moves=row.moves, tokens=(row.tokens0, row.tokens1),
            winner=row.winner, started_at=utc(row.started_at), updated_at=utc(row.updated_at),
            record=json.loads(row.record) if with_record else None)

    def get(self, game_id: str, with_record: bool = True) -> SavedGame | None:
        """The saved game with id ``game_id`` (and its record), or None."""
        if not self._ready():
            return None
        with self._engine.connect() as conn:
            row = conn.execute(sa.select(games_table).where(games_table.c.id == str(game_id))).first()
        return self._saved(row, with_record) if row is not None else None

    def unfinished(self, student: str, lesson: str, browser: str | None = None) -> SavedGame | None:
        """The student's latest game of ``lesson`` still being played (with its record), or None.

        Args:
            student, lesson: whose game, of which lesson.
            browser: None for any of the student's games (their name is proven: a login or a
                class-roster code); else only a game started by the browser with this hash
                (a typed name: the writer's ``trusted`` is False). ``""``
                finds nothing.
        """
        if not self._ready() or browser == "":
            return None
        mine = [games_table.c.browser == browser] if browser is not None else []
        q = (sa.select(games_table)
             .where(games_table.c.student == student, games_table.c.lesson == (lesson or ""),
                    games_table.c.status == "playing", *mine)
             .order_by(games_table.c.updated_at.desc()).limit(1))
        with self._engine.connect() as conn:
            row = conn.execute(q).first()
        return self._saved(row, True) if row is not None else None

    def games(self, student: str | None = None, lesson: str | None = None,
              kind: str | None = None) -> pd.DataFrame:
        """Every saved game as a table (newest first), without records (no hidden cards).

        Args:
            student, lesson: only this student's or this lesson's games (None: all).
            kind: only rows of this kind (``"game"`` or ``"puzzle"``; None: both).

        Returns:
            pandas.DataFrame with the columns of :data:`SUMMARY_COLUMNS`.
        """
        import pandas as pd

        if not self._ready():
            return pd.DataFrame(columns=SUMMARY_COLUMNS)
        cols = [games_table.c[name] for name in SUMMARY_COLUMNS]
        q = sa.select(*cols).order_by(games_table.c.updated_at.desc())
        if student is not None:
            q = q.where(games_table.c.student == student)
        if lesson is not None:
            q = q.where(games_table.c.lesson == lesson)
        if kind is not None:
            q = q.where(games_table.c.kind == kind)
        with self._engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        df = pd.DataFrame([dict(r) for r in rows], columns=SUMMARY_COLUMNS)
        for col in ("started_at", "updated_at"):
            df[col] = pd.to_datetime(df[col], utc=True)
        return df

    def __repr__(self) -> str:
        return f"<GameStore {shown_url(self.url)!r}>"


_live_keepers: "weakref.WeakSet[GameKeeper]" = weakref.WeakSet()


def _flush_all_at_exit() -> None:
    """At the kernel's exit (the page closed, the server stopping it): write what is waiting."""
    for keeper in list(_live_keepers):
        try:
            keeper.flush(timeout=3)
        except Exception:  # noqa: BLE001
            pass


atexit.register(_flush_all_at_exit)


class GameKeeper:
    """Saves a live game after every move and Undo (hooked into a Match, or called directly).

    The position is taken at once (:func:`snapshot`); writing it goes to a small background
    thread, so a move never waits for the database (SQLite's write to disk took 2-30 ms here).
    Moves made while a write is going on are written together, as the latest position: under a
    busy database the game is saved less often, never out of order.

    Args:
        store: the :class:`GameStore`.
        game_id: the saved game's id (from :meth:`GameStore.start` or :meth:`GameStore.claim`).
        page: this page's id (the one that started or claimed the game).
        background: False writes in the caller's thread (tests, scripts).

    Attributes:
        problem: the plain message of the last failed save ("" when the last save worked).
        moved: True once another page took the game over (saving then stops).
        on_problem: None, or a function called with :attr:`problem` as soon as a save fails
            (from the writing thread), so a page can say so at once, not at the next move.
    """

    def __init__(self, store: GameStore, game_id: str, page: str, background: bool = True):
        import threading

        self.store, self.game_id, self.page = store, game_id, page
        self.background = background
        self.problem = ""
        self.moved = False
        self.on_problem = None
        self._pending: dict | None = None
        self._busy = False
        self._cv = threading.Condition()
        self._thread = None
        _live_keepers.add(self)

    def save(self, game) -> bool:
        """Save ``game`` now (in the background by default). Never raises.

        Returns:
            False when saving has stopped (another page took the game over) or, when writing in
            the caller's thread, when the save failed (see :attr:`problem`); else True.
        """
        if self.moved:
            return False
        try:
            position = snapshot(game)
        except Exception:  # noqa: BLE001 (saving must never break the game)
            log.exception("GameKeeper: could not take the position of %s", self.game_id)
            self.problem = "Your game couldn't be saved just now. You can keep playing."
            return False
        if not self.background:
            return self._write(position)
        import threading

        with self._cv:
            self._pending = position
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"keep-{self.game_id[:8]}",
                                                daemon=True)
                self._thread.start()
            self._cv.notify_all()
        return True

    def _write(self, position: dict) -> bool:
        try:
            self.store.save_position(self.game_id, position, self.page)
        except GameMoved as e:
            self.moved = True
            return self._failed(str(e))
        except ValueError as e:
            return self._failed(str(e))
        except Exception:  # noqa: BLE001
            log.exception("GameKeeper: saving %s failed", self.game_id)
            return self._failed("Your game couldn't be saved just now. You can keep playing.")
        self.problem = ""
        return True

    def _failed(self, problem: str) -> bool:
        self.problem = problem
        if self.on_problem is not None:
            try:
                self.on_problem(problem)
            except Exception:  # noqa: BLE001 (telling the page must not stop the saving)
                log.exception("GameKeeper: could not show a saving problem")
        return False

    def _run(self) -> None:
        while True:
            with self._cv:
                while self._pending is None:
                    self._cv.wait()
                position, self._pending = self._pending, None
                self._busy = True
            try:
                if not self.moved:
                    self._write(position)
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every position handed to :meth:`save` is written. Returns True if so."""
        import time

        deadline = time.monotonic() + timeout
        with self._cv:
            while self._pending is not None or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def attach(self, match) -> "GameKeeper":
        """Save after each move and Undo of ``match`` (its ``on_move`` and ``on_undo`` hooks)."""
        match.on_move.append(lambda m, *_: self.save(m.game))
        match.on_undo.append(lambda m, *_: self.save(m.game))
        return self
