"""The Discuss journal: every answer a student saves, kept in a small database.

One row per saved answer, with the columns of :data:`COLUMNS`:

``id``        a UUID made by the writer (so a retried save is stored once, never twice),
``student``   the student's name (their JupyterHub login when there is one),
``lesson``    the lesson's name (``""`` outside a lesson),
``card``      the card's printed name,
``prompt``    the Discuss question that was asked,
``answer``    the words exactly as typed,
``saved_at``  when it was saved (UTC).

Where the rows live is a SQLAlchemy URL:

1. ``TOKENS_EDU_DB_URL`` when set (for example a PostgreSQL server for a whole school:
   ``postgresql+psycopg://ana@db.school.example/tokens``, with ``pip install tokens-edu[postgres]``);
2. else an SQLite file ``journal.sqlite`` in the folder ``TOKENS_EDU_DATA``;
3. else the same file in the per-user data folder (``platformdirs.user_data_dir("tokens-edu")``).

A database password is never part of the URL: it comes from ``TOKENS_EDU_DB_PASSWORD`` (or
PostgreSQL's own ``PGPASSWORD`` / ``~/.pgpass``), so it shows on no command line, page or log
line. Log lines and ``repr`` show the URL with any password masked.

SQLite runs in WAL mode with a busy timeout, and writes take the write lock up front
(``BEGIN IMMEDIATE``), so many Voila kernels (one per student page) can save at the same moment
without losing a row. No connection is kept open between saves (``NullPool``): a class of 30,
or a school of 1,000 kernels, holds no idle database connections; each save opens one for a
few milliseconds. Against PostgreSQL, server-side prepared statements are off
(``prepare_threshold=None``), so a pooler such as PgBouncer in transaction mode can sit in front
of the database and share a few server connections among all kernels (see ``docs/deploy.md``).

Example::

    >>> j = Journal("sqlite:///:memory:", student="Ana", lesson="lesson-1")
    >>> row_id = j.save("Neural Network", "It learns from examples.")
    >>> j.answer_for("Neural Network")
    'It learns from examples.'
"""

from __future__ import annotations

import logging
import os
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

import sqlalchemy as sa
from sqlalchemy.pool import NullPool, StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Journal", "COLUMNS", "MAX_ANSWER", "default_url", "student_from_query", "query_string"]

log = logging.getLogger(__name__)

#: The columns of the answers table and of the DataFrames this module returns, in order.
COLUMNS = ["id", "student", "lesson", "card", "prompt", "answer", "saved_at"]

#: Longest name a student may type (characters). Longer is almost surely a slip of the keyboard.
MAX_NAME = 60

#: Longest answer that is saved (characters), about two pages of writing. Longer is almost
#: surely a paste by mistake; it would also make every keystroke on the page send that much.
MAX_ANSWER = 5000

#: How long (milliseconds) a writer waits for another writer to finish before giving up.
BUSY_TIMEOUT_MS = 30_000

_metadata = sa.MetaData()
answers_table = sa.Table(
    "answers",
    _metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False, default=""),
    sa.Column("card", sa.String(200), nullable=False),
    sa.Column("prompt", sa.Text, nullable=False, default=""),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
)
_by_student = sa.Index("ix_answers_student_lesson_card", answers_table.c.student,
                       answers_table.c.lesson, answers_table.c.card, answers_table.c.saved_at)


def default_url() -> str:
    """The database URL to use when none is given.

    Returns:
        str: ``TOKENS_EDU_DB_URL`` when set; else ``sqlite:///<folder>/journal.sqlite`` where the
        folder is ``TOKENS_EDU_DATA`` when set, else ``platformdirs.user_data_dir("tokens-edu")``.
        The folder is created when missing.

    Raises:
        ValueError: the folder cannot be created (the message names it).
    """
    url = os.environ.get("TOKENS_EDU_DB_URL", "").strip()
    if url:
        return url
    folder = os.environ.get("TOKENS_EDU_DATA", "").strip()
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_dir("tokens-edu")
    path = Path(folder).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"Cannot make the folder for saved answers ({path}): {e.strerror or e}.") from None
    return f"sqlite:///{(path / 'journal.sqlite').resolve()}"


_query_cache: str | None = None


def _voila_ws_url() -> str:
    """Where a preheated kernel asks Voila for its page's request (as ``voila.utils`` does)."""
    env = os.environ.get
    server_url = env("VOILA_SERVER_URL", "/")
    base = env("VOILA_WS_BASE_URL", server_url)
    return (f"{env('VOILA_WS_PROTOCOL', 'ws')}://{env('VOILA_APP_IP', '127.0.0.1')}:"
            f"{env('VOILA_APP_PORT', '8866')}{base}voila/query/{env('VOILA_KERNEL_ID', '')}")


def _wait_for_voila_request() -> None:
    """Block until Voila sends this preheated kernel its page request; copy it to os.environ.

    The same protocol as ``voila.utils.wait_for_request`` (Voila 0.5): one JSON message on the
    ``voila/query/<kernel id>`` websocket, holding ``QUERY_STRING`` and the other request
    variables. Done here with the small ``websockets`` client (a Voila dependency) because
    importing ``voila.utils`` in every kernel costs seconds and about 50 MiB (it imports the
    whole Jupyter server). Runs in a thread: the kernel's own event loop is already running.
    """
    import asyncio
    import json
    import threading

    import websockets

    box: dict = {}

    async def receive():
        async with websockets.connect(_voila_ws_url(), open_timeout=5) as ws:
            return await ws.recv()

    def run():
        try:
            box["msg"] = asyncio.run(receive())
        except Exception as e:  # reported below, in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=run, name="voila-request-info", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    for key, value in json.loads(box["msg"]).items():
        os.environ[key] = str(value)


def query_string() -> str:
    """The query part of the Voila page's address (``"student=ana&x=1"``), or ``""``.

    Voila gives the page's query to the kernel as ``os.environ["QUERY_STRING"]``. With
    preheated kernels (``--preheat_kernel=True``, ``VOILA_PREHEAT=True`` in the kernel) the
    kernel runs the notebook *before* anyone asks for the page, so that variable is not there
    yet; Voila 0.5's helper ``voila.utils.get_query_string()`` then waits for the request. This
    does the same wait (see :func:`_wait_for_voila_request`), falling back to Voila's helper.
    A kernel is sent its request once, so the answer is remembered.

    Returns:
        str: the query string without the leading ``?`` (may be empty).
    """
    global _query_cache
    if _query_cache is not None:
        return _query_cache
    if os.environ.get("VOILA_PREHEAT", "False") == "True":
        try:
            try:
                _wait_for_voila_request()
                _query_cache = os.environ.get("QUERY_STRING") or ""
            except ImportError:
                from voila.utils import get_query_string

                _query_cache = get_query_string() or ""
        except Exception:  # the server went away: no prefill, never a crash
            log.warning("Could not read the page's query from Voila.", exc_info=True)
            _query_cache = ""
        return _query_cache.lstrip("?")
    return (os.environ.get("QUERY_STRING") or "").lstrip("?")


def student_from_query(query: str | None = None) -> str:
    """The ``student=`` value of the page's query, to prefill the name box (not a login).

    Args:
        query: a query string like ``"?student=ana"``; None reads it from the page (see
            :func:`query_string`).

    Returns:
        str: the first ``student`` value, spaces trimmed, at most :data:`MAX_NAME` characters;
        ``""`` when there is none.
    """
    if query is None:
        query = query_string()
    values = parse_qs(query.lstrip("?")).get("student", [])
    return values[0].strip()[:MAX_NAME] if values else ""


def too_long_message(length: int) -> str:
    """The plain words for an answer of ``length`` characters that is over :data:`MAX_ANSWER`."""
    return (f"Your answer is too long to save: {length:,} characters. The most is "
            f"{MAX_ANSWER:,}. Make it shorter, then save.")


def _storable(text: str) -> bool:
    """True when ``text`` can be written as UTF-8 (no lone surrogate halves of an emoji)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _clean_name(name: object) -> str:
    """A student's name with the outer spaces trimmed; ValueError in plain words if unusable."""
    if not isinstance(name, str):
        raise ValueError("Your name must be written as text.")
    name = " ".join(name.split())
    if not name:
        raise ValueError("Type your name first, then save.")
    if len(name) > MAX_NAME:
        raise ValueError(f"That name is too long. Use at most {MAX_NAME} letters.")
    if not _storable(name):
        raise ValueError("That name has a broken character. Type it again.")
    return name


def _card_name_and_prompt(card: object) -> tuple[str, str]:
    """(printed name, Discuss question) of a Card or a card name; ValueError for unknown names."""
    from .cards import Card, load_cards

    if isinstance(card, Card):
        return card.name, card.discuss
    if isinstance(card, str):
        pool = load_cards()
        found = pool.get_card(card)
        if found is None:
            raise ValueError(pool.unknown_message(card))
        return found.name, found.discuss
    raise ValueError("Say which card this answer is about: a card or its name.")


def _set_sqlite_pragmas(dbapi_connection, connection_record) -> None:
    """``connect`` listener: wait for other writers, and use the write-ahead log (WAL)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
    finally:
        cursor.close()


#: Seconds a kernel waits for the database server to accept a connection.
CONNECT_TIMEOUT_S = 10


def _shown_url(url: str) -> str:
    """``url`` with any password masked (``***``), for log lines and messages."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: show only its kind
        return url.split("://", 1)[0] + "://..." if "://" in url else "(a database URL)"


def _make_engine(url: str) -> sa.Engine:
    """An Engine for ``url``: no pooled connections; SQLite set up for many writers.

    For a server database (PostgreSQL), the password comes from ``TOKENS_EDU_DB_PASSWORD`` when
    set (never from the command line); no connection is pooled in the kernel (``NullPool``),
    connecting waits at most :data:`CONNECT_TIMEOUT_S` s, and psycopg never prepares statements
    on the server (so PgBouncer's transaction pooling works).
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        password = os.environ.get("TOKENS_EDU_DB_PASSWORD")
        if password:
            parsed = parsed.set(password=password)
        connect_args: dict = {}
        if parsed.get_backend_name() == "postgresql":
            connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
            connect_args["application_name"] = "tokens-edu"
            if parsed.get_driver_name() == "psycopg":
                connect_args["prepare_threshold"] = None
        return sa.create_engine(parsed, poolclass=NullPool, connect_args=connect_args)
    memory = parsed.database in (None, "", ":memory:")
    # isolation_level="IMMEDIATE": the sqlite3 driver starts each INSERT's transaction with
    # BEGIN IMMEDIATE, taking the write lock at once (waiting up to the busy timeout) instead of
    # failing half-way. Reads stay in autocommit.
    connect_args = {"isolation_level": "IMMEDIATE", "timeout": BUSY_TIMEOUT_MS / 1000}
    if memory:  # one shared in-memory database (tests, doctests); nothing to share between processes
        connect_args["check_same_thread"] = False
        engine = sa.create_engine(url, poolclass=StaticPool, connect_args=connect_args)
    else:
        engine = sa.create_engine(url, poolclass=NullPool, connect_args=connect_args)
    sa.event.listen(engine, "connect", _set_sqlite_pragmas)
    return engine


def _insert_or_ignore(engine: sa.Engine, row: dict):
    """An INSERT of ``row`` that does nothing when a row with the same ``id`` is already there."""
    backend = engine.dialect.name
    if backend == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    elif backend == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        return None
    return insert(answers_table).values(**row).on_conflict_do_nothing(index_elements=["id"])


def _ensure_table(engine: sa.Engine, table: sa.Table | None = None, *indexes: sa.Index) -> None:
    """Make ``table`` (default: the answers table and its index) and ``indexes`` when missing.

    Looks first, so a database role that may only read and add rows (a student's role under
    row-level security, see ``deploy/jupyterhub``) opens an existing journal without needing
    the right to create tables. Many kernels making a fresh database at once is fine: the
    statements say IF NOT EXISTS, and one lost race (PostgreSQL reports it as a duplicate) is
    tried once more.
    """
    if table is None:
        table, indexes = answers_table, (_by_student,)
    for attempt in (1, 2):
        with engine.connect() as conn:
            if sa.inspect(conn).has_table(table.name):
                return
        try:
            with engine.begin() as conn:
                conn.execute(CreateTable(table, if_not_exists=True))
                for index in indexes:
                    conn.execute(CreateIndex(index, if_not_exists=True))
            return
        except sa.exc.IntegrityError:
            if attempt == 2:
                raise


class Journal:
    """Where a student's Discuss answers are saved and read back.

    Args:
        url: a SQLAlchemy database URL, e.g. ``"sqlite:////tmp/j.sqlite"`` or
            ``"postgresql+psycopg://..."``; None uses :func:`default_url`.
        student: the student's name; None leaves it for the page to ask (a name box). When the
            environment variable ``JUPYTERHUB_USER`` is set, that login is the name and this
            argument is ignored (see :attr:`student_locked`).
        lesson: the lesson's name, stored with every answer (``""`` when not in a lesson).

    Raises:
        ValueError: the name is unusable, the data folder cannot be made, or the database
            cannot be opened (the message says which, in plain words).
    """

    def __init__(self, url: str | None = None, student: str | None = None, lesson: str = ""):
        self.url = url or default_url()
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        self.lesson = lesson
        hub_user = os.environ.get("JUPYTERHUB_USER", "").strip()
        self._locked = bool(hub_user)
        self._student: str | None = None
        if self._locked:
            self._student = _clean_name(hub_user)
            if student is not None and student != self._student:
                log.info("Ignoring student=%r: the JupyterHub login %r is used.", student, hub_user)
        elif student is not None and str(student).strip():
            self._student = _clean_name(student)
        try:
            self._engine = _make_engine(self.url)
            _ensure_table(self._engine)
        except ImportError as e:  # the URL names a database driver that is not installed
            log.error("Cannot open the journal at %s: %s", _shown_url(self.url), e)
            raise ValueError(f"The answers store cannot be opened: its database driver is "
                             f"missing ({e.name or e}). Ask your teacher to install "
                             "tokens-edu[postgres].") from None
        except sa.exc.SQLAlchemyError as e:
            log.exception("Cannot open the journal at %s", _shown_url(self.url))
            raise ValueError(f"The answers store cannot be opened ({type(e).__name__}). "
                             "Ask your teacher to check it.") from None

    # --- who is writing -----------------------------------------------------------------

    @property
    def student_locked(self) -> bool:
        """True when the name comes from the JupyterHub login and cannot be changed."""
        return self._locked

    @property
    def student(self) -> str | None:
        """The student's name (str), or None when the page has not asked for it yet."""
        return self._student

    @student.setter
    def student(self, name: str) -> None:
        """Set the name (spaces trimmed). ValueError when it is empty, too long, or locked."""
        name = _clean_name(name)
        if self._locked and name != self._student:
            raise ValueError(f"You are logged in as {self._student}, so your answers are saved "
                             "under that name.")
        self._student = name

    # --- writing ------------------------------------------------------------------------

    def save(self, card, answer: str, prompt: str | None = None, answer_id: str | None = None,
             lesson: str | None = None) -> str:
        """Save one answer, exactly as typed, and return its id.

        Saving again with the same ``answer_id`` (a retry after a hiccup) stores nothing new:
        the first row with that id stays (insert-or-ignore on the id).

        Args:
            card: a :class:`~tokens_edu.cards.Card` or a card's name (any case).
            answer: the student's words (str), at most :data:`MAX_ANSWER` characters; an
                empty or all-space answer is refused.
            prompt: the question asked; None uses the card's Discuss question.
            answer_id: a UUID string for this save; None makes a new one.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            str: the answer's id (a UUID string).

        Raises:
            ValueError: no student name yet ("Type your name first, then save."), an empty
                or too long answer, an unknown card, a bad id, or the database refused the save. Nothing is
                saved then.
        """
        if not self._student:
            raise ValueError("Type your name first, then save.")
        if not isinstance(answer, str) or not answer.strip():
            raise ValueError("Your answer is empty. Write a few words, then save.")
        if len(answer) > MAX_ANSWER:
            raise ValueError(too_long_message(len(answer)))
        if not _storable(answer):
            raise ValueError("Your answer has a broken character (maybe half of an emoji) that "
                             "cannot be saved. Delete it, then save again.")
        name, card_prompt = _card_name_and_prompt(card)
        if prompt is None:
            prompt = card_prompt
        if lesson is None:
            lesson = self.lesson
        if not isinstance(prompt, str) or not isinstance(lesson, str):
            raise ValueError("The question and the lesson's name must be text.")
        if not (_storable(prompt) and _storable(lesson)):
            raise ValueError("The question or the lesson's name has a broken character.")
        if answer_id is None:
            answer_id = str(uuid.uuid4())
        else:
            try:
                answer_id = str(uuid.UUID(str(answer_id)))
            except ValueError:
                raise ValueError(f"{answer_id!r} is not an answer id (a UUID).") from None
        row = {
            "id": answer_id, "student": self._student, "lesson": lesson, "card": name,
            "prompt": prompt, "answer": answer, "saved_at": datetime.now(timezone.utc),
        }
        try:
            stmt = _insert_or_ignore(self._engine, row)
            with self._engine.begin() as conn:
                if stmt is not None:
                    conn.execute(stmt)
                else:  # another database: look first, then insert; a lost race is a duplicate
                    seen = conn.execute(sa.select(answers_table.c.id).where(
                        answers_table.c.id == answer_id)).first()
                    if seen is None:
                        conn.execute(answers_table.insert().values(**row))
        except sa.exc.IntegrityError:
            pass  # the same id was saved at the same moment by a retry: it is stored once
        except sa.exc.SQLAlchemyError as e:
            log.exception("Saving answer %s failed", answer_id)
            raise ValueError(f"Your answer could not be saved just now ({type(e).__name__}). "
                             "Try Save again in a moment.") from None
        return answer_id

    # --- reading ------------------------------------------------------------------------

    def _frame(self, query) -> pd.DataFrame:
        import pandas as pd  # here, not at the top: a lesson kernel without tables saves ~45 MiB

        with self._engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        df = pd.DataFrame([dict(r) for r in rows], columns=COLUMNS)
        df["saved_at"] = pd.to_datetime(df["saved_at"], utc=True)
        return df

    def answers(self, all_students: bool = False) -> pd.DataFrame:
        """The saved answers as a table, oldest first.

        Args:
            all_students: False (the default) gives only this student's rows (none when there is
                no name yet); True gives everyone's (for the teacher).

        Returns:
            pandas.DataFrame with the columns of :data:`COLUMNS`; ``saved_at`` is a UTC time.
        """
        q = sa.select(answers_table).order_by(answers_table.c.saved_at, answers_table.c.id)
        if not all_students:
            if not self._student:
                return self._frame(q.where(sa.false()))
            q = q.where(answers_table.c.student == self._student)
        return self._frame(q)

    def _latest(self, student: str, card: str, lesson: str) -> str | None:
        q = (sa.select(answers_table.c.answer)
             .where(answers_table.c.student == student, answers_table.c.card == card,
                    answers_table.c.lesson == lesson)
             .order_by(answers_table.c.saved_at.desc()).limit(1))
        with self._engine.connect() as conn:
            return conn.execute(q).scalar()

    def answer_for(self, card, lesson: str | None = None) -> str | None:
        """This student's latest saved answer about ``card`` in ``lesson``.

        Args:
            card: a Card or a card's name.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            str | None: the answer as typed, or None when there is none (or no name yet).

        Raises:
            ValueError: an unknown card name.
        """
        name, _ = _card_name_and_prompt(card)
        if not self._student:
            return None
        return self._latest(self._student, name, self.lesson if lesson is None else lesson)

    def export_csv(self, path, all_students: bool = False) -> int:
        """Write the answers to a CSV file (UTF-8, a header line, one line per answer).

        Args:
            path: the file to write (str or Path); it is replaced if it exists.
            all_students: as in :meth:`answers` (False: only this student's rows).

        Returns:
            int: how many answers were written.

        Raises:
            ValueError: the file cannot be written (the message names it).
        """
        df = self.answers(all_students=all_students)
        try:
            df.to_csv(path, index=False, encoding="utf-8")
        except OSError as e:
            raise ValueError(f"Cannot write {path}: {e.strerror or e}.") from None
        return len(df)

    def __repr__(self) -> str:
        who = self._student or "no name yet"
        return f"<Journal {_shown_url(self.url)!r} student={who!r} lesson={self.lesson!r}>"
