"""The Discuss journal: every answer a student saves, and drafts, kept in a small database.

Two tables. ``answers`` has one row per saved answer, with the columns of :data:`COLUMNS`:

``id``        a UUID made by the writer (so a retried save is stored once, never twice),
``student``   the student's name (their JupyterHub login when there is one),
``lesson``    the lesson's name (``""`` outside a lesson),
``card``      the card's printed name,
``prompt``    the Discuss question that was asked,
``answer``    the words exactly as typed,
``saved_at``  when it was saved (UTC).

``drafts`` keeps, for each student, lesson and card, the text typed but not saved yet (the
Discuss box writes it a moment after typing stops, so a reload brings it back). A draft is not
an answer: :meth:`Journal.answers`, :meth:`Journal.export_csv` and the teacher's views never
show drafts. Saving an answer removes its draft.

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

When the store cannot be used (a full or read-only data folder, a database server that is
down), a lesson still opens and plays: making a :class:`Journal` never fails for that reason.
Saving then raises :class:`JournalUnavailable` with words a student can act on (the Discuss box
shows them and keeps the text), and the journal tries again at the next save.

For other modules (the teacher's dashboard, saved games): :data:`metadata` holds the tables
(add yours to it and :meth:`Journal` makes every table of it that is missing), :attr:`Journal.engine`
is the database, :func:`write_csv` writes any table as a formula-safe CSV file, and
:meth:`Journal.identify` / :meth:`Journal.on_identify` tell a page's widgets when the page learns
who its student is (a class roster login, for example).

Example::

    >>> j = Journal("sqlite:///:memory:", student="Ana", lesson="lesson-1")
    >>> row_id = j.save("Neural Network", "It learns from examples.")
    >>> j.answer_for("Neural Network")
    'It learns from examples.'
"""

from __future__ import annotations

import csv
import logging
import os
import sys
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

import sqlalchemy as sa
from sqlalchemy.pool import NullPool, StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

from ..content.cards import Card, load_cards
from ..content.names import clean_name

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Journal", "JournalUnavailable", "Saved", "Draft", "COLUMNS", "MAX_ANSWER", "MAX_NAME",
           "SAVE_FAILED", "CANNOT_SAVE", "default_url", "data_folder", "student_from_query",
           "query_string", "query_known", "write_csv", "spreadsheet_safe", "metadata",
           "CODE_NEEDED", "CODE_LENGTH", "normalize_code", "code_from_query", "roster_table"]

log = logging.getLogger(__name__)
if not log.handlers:
    # Inside a kernel, sys.stderr is the page's output: a warning there would show on a
    # student's page. The real stderr is the teacher's console (the server's terminal).
    _console = logging.StreamHandler(sys.__stderr__ or sys.stderr)
    _console.setLevel(logging.WARNING)
    _console.setFormatter(logging.Formatter("[tokens-edu journal] %(message)s"))
    log.addHandler(_console)

#: The columns of the answers table and of the DataFrames this module returns, in order.
COLUMNS = ["id", "student", "lesson", "card", "prompt", "answer", "saved_at"]

#: Longest name a student may type (characters). Longer is almost surely a slip of the keyboard.
MAX_NAME = 60

#: Longest answer that is saved (characters), about two pages of writing. Longer is almost
#: surely a paste by mistake; it would also make every keystroke on the page send that much.
MAX_ANSWER = 5000

#: How long (milliseconds) a writer waits for another writer to finish before giving up.
BUSY_TIMEOUT_MS = 30_000

#: Characters in a class-roster code (:mod:`tokens_edu.roster` makes and manages the codes).
CODE_LENGTH = 6

#: The class roster's table (one row per student: ``code``, ``name``, ``added_at``). Kept by
#: :mod:`tokens_edu.roster`; a Journal only reads it, to sign a page in with a code. Not in
#: :data:`metadata`: a Journal never makes it.
roster_table = sa.Table(
    "roster",
    sa.MetaData(),
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
)

#: What a student reads when the class uses a roster (tokens_edu.roster) and the page has no
#: student's code yet: names then come from codes only.
CODE_NEEDED = "This class uses codes: type the code from your slip (not a name), then save."

#: What a student reads when one save failed (a busy or briefly unreachable database).
SAVE_FAILED = "Your answer couldn't be saved just now. It is still in the box: try Save again."
#: What a student reads when answers cannot be stored at all now (a full or read-only folder).
CANNOT_SAVE = ("Answers can't be saved right now: the lesson server cannot store them. Your text "
               "is still in the box: copy it somewhere safe, and tell your teacher.")

#: The tables of the journal. Other modules may add theirs; :class:`Journal` makes the missing ones.
metadata = sa.MetaData()
answers_table = sa.Table(
    "answers",
    metadata,
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
drafts_table = sa.Table(
    "drafts",
    metadata,
    sa.Column("student", sa.String(200), primary_key=True),
    sa.Column("lesson", sa.String(200), primary_key=True),
    sa.Column("card", sa.String(200), primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
)


class JournalUnavailable(ValueError):
    """The answers store cannot be used now; the message is for a student (see :data:`CANNOT_SAVE`
    and :data:`SAVE_FAILED`). A ``ValueError``, so code that shows a ValueError's words shows it."""


@dataclass(frozen=True)
class Saved:
    """A saved answer's words and time (see :meth:`Journal.latest`).

    Attributes:
        text: the words as typed.
        saved_at: when it was written (an aware UTC datetime).
    """

    text: str
    saved_at: datetime


@dataclass(frozen=True)
class Draft(Saved):
    """Text a student typed but has not saved (see :meth:`Journal.draft_for`)."""


def _utc(at):
    if at is not None and getattr(at, "tzinfo", None) is None:
        return at.replace(tzinfo=timezone.utc)  # SQLite gives back naive times; they are UTC
    return at


def data_folder() -> Path:
    """The folder of ``journal.sqlite``: ``TOKENS_EDU_DATA``, else the per-user data folder.

    Returns:
        Path: the folder (it may not exist yet).
    """
    folder = os.environ.get("TOKENS_EDU_DATA", "").strip()
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_dir("tokens-edu")
    return Path(folder).expanduser()


def default_url() -> str:
    """The database URL to use when none is given.

    Returns:
        str: ``TOKENS_EDU_DB_URL`` when set; else ``sqlite:///<folder>/journal.sqlite`` where the
        folder is :func:`data_folder`. The folder is created when missing.

    Raises:
        ValueError: the folder cannot be created (the message names it).
    """
    url = os.environ.get("TOKENS_EDU_DB_URL", "").strip()
    if url:
        return url
    path = data_folder()
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

    A warm kernel waits here, before any page asks for it, for as long as it stays in the pool:
    there is no time limit on this side. The server limits how long a page may take once it
    has taken the kernel (``tokens_edu.voila_server``); a lost connection ends the wait with an
    error (no name prefilled).
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
            log.info("Could not read the page's query from Voila.", exc_info=True)
            _query_cache = ""
        return _query_cache.lstrip("?")
    return (os.environ.get("QUERY_STRING") or "").lstrip("?")


def query_known() -> bool:
    """True when the page's query can be read at once; False in a preheated (warm) kernel whose
    page has not been asked for yet, where :func:`query_string` would wait for it.

    A warm kernel runs the lesson before any student opens the page, and stops at the first
    reading of the query until a page takes it; everything after that runs while the student
    waits. So code that only *may* need the student's name (keeping a game, say) should wait
    for a later moment when this is False, and leave the reading to the end of the lesson.
    """
    return os.environ.get("VOILA_PREHEAT", "False") != "True" or _query_cache is not None


def student_from_query(query: str | None = None) -> str:
    """The ``student=`` value of the page's query, to prefill the name box (not a login).

    Args:
        query: a query string like ``"?student=ana"``; None reads it from the page (see
            :func:`query_string`).

    Returns:
        str: the first ``student`` value cleaned as every typed name is
        (:func:`tokens_edu.names.clean_name`: no control, escape or bidi-override characters),
        at most :data:`MAX_NAME` characters; ``""`` when there is none.
    """
    if query is None:
        query = query_string()
    values = parse_qs(query.lstrip("?")).get("student", [])
    if not values:
        return ""
    return clean_name(values[0])[:MAX_NAME].strip()


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
    """A student's name cleaned (:func:`~tokens_edu.names.clean_name`); ValueError in plain
    words if unusable (empty, too long, broken)."""
    if not isinstance(name, str):
        raise ValueError("Your name must be written as text.")
    if not _storable(name):
        raise ValueError("That name has a broken character. Type it again.")
    name = clean_name(name)
    if not name:
        raise ValueError("Type your name first, then save.")
    if len(name) > MAX_NAME:
        raise ValueError(f"That name is too long. Use at most {MAX_NAME} letters.")
    return name


def _card_name_and_prompt(card: object) -> tuple[str, str]:
    """(printed name, Discuss question) of a Card or a card name; ValueError for unknown names."""

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


def _dialect_insert(engine: sa.Engine):
    backend = engine.dialect.name
    if backend == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    elif backend == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        return None
    return insert


def _insert_or_ignore(engine: sa.Engine, row: dict):
    """An INSERT of ``row`` that does nothing when a row with the same ``id`` is already there."""
    insert = _dialect_insert(engine)
    if insert is None:
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


def _ensure_tables(engine: sa.Engine) -> set[str]:
    """Make the tables of :data:`metadata` that are missing (:func:`_ensure_table` for each);
    return the names that exist.

    Only ``answers`` is required: a table that cannot be made (``drafts`` for a role that may
    not create it) is left out, and what needs it is skipped.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the answers table is missing and cannot be made.
    """
    present = set()
    for table in metadata.sorted_tables:
        indexes = (_by_student,) if table is answers_table else ()
        try:
            _ensure_table(engine, table, *indexes)
            present.add(table.name)
        except sa.exc.SQLAlchemyError:
            if table is answers_table:
                raise
            log.info("The table %s cannot be made here; going on without it.", table.name)
    return present


#: Words in a database error that mean "the store cannot take writes now" (not a one-off).
_STORAGE_WORDS = ("readonly", "read-only", "read only", "disk is full", "no space",
                  "unable to open", "permission denied", "disk i/o", "could not connect",
                  "connection refused", "no such table")


def _storage_error(e: BaseException) -> bool:
    text = str(e).lower()
    return any(w in text for w in _STORAGE_WORDS)


def spreadsheet_safe(value: object) -> object:
    """``value`` as a spreadsheet will show it as text: a str that starts with ``=``, ``+``,
    ``-``, ``@`` (or their full-width forms), a tab or a carriage return gets a leading
    apostrophe, so Excel, LibreOffice and Google Sheets never run it as a formula (OWASP's
    "CSV injection" advice). Anything else is returned unchanged.
    """
    if isinstance(value, str) and value and value[0] in "=+-@\t\r\uff1d\uff0b\uff0d\uff20":
        return "'" + value
    return value


def write_csv(rows, file, columns: list[str] | None = None) -> int:
    """Write a table as a CSV file that a spreadsheet opens safely.

    UTF-8 with a byte order mark (so Excel reads accents and emoji right), a header line, one
    line per row; every text cell goes through :func:`spreadsheet_safe`. Dates are written in
    ISO form (``2026-11-12 10:42:05+00:00``).

    Args:
        rows: a pandas DataFrame, or an iterable of dicts (one per row).
        file: a path (str or Path; replaced if it exists) or an open text file.
        columns: the columns in order; default: the DataFrame's, or the first dict's keys.

    Returns:
        int: how many rows were written.

    Raises:
        ValueError: the file cannot be written (the message names it).
    """
    if hasattr(rows, "to_dict") and hasattr(rows, "columns"):
        columns = list(columns or rows.columns)
        records = rows.to_dict("records")
    else:
        records = [dict(r) for r in rows]
        columns = list(columns or (records[0].keys() if records else []))

    def cell(v):
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, datetime):  # pandas Timestamps too
            if v.tzinfo is None:  # SQLite gives back naive times; the journal writes UTC
                v = v.replace(tzinfo=timezone.utc)
            return v.isoformat(sep=" ", timespec="seconds")
        return spreadsheet_safe(v)

    def write(out) -> None:
        w = csv.writer(out, lineterminator="\r\n")
        w.writerow([spreadsheet_safe(c) for c in columns])
        for r in records:
            w.writerow([cell(r.get(c)) for c in columns])

    if isinstance(file, (str, os.PathLike)):
        try:
            with open(file, "w", encoding="utf-8-sig", newline="") as out:
                write(out)
        except OSError as e:
            raise ValueError(f"Cannot write {file}: {e.strerror or e}.") from None
    else:
        write(file)
    return len(records)


def normalize_code(text: object) -> str:
    """A class-roster code as stored: upper case, without spaces and dashes (``"kt4-pxm"`` ->
    ``"KT4PXM"``). Returns ``""`` for anything that is not text."""
    if not isinstance(text, str):
        return ""
    return "".join(ch for ch in text.upper() if ch not in " -_\t\r\n")[:32]


def code_from_query(query: str | None = None) -> str:
    """The ``code=`` value of the page's query (``"?code=KT4PXM"``), normalized; ``""`` if none.

    Args:
        query: a query string; None reads the page's own (:func:`query_string`, which waits
            for Voila's request in a preheated kernel).
    """
    if query is None:
        query = query_string()
    values = parse_qs((query or "").lstrip("?")).get("code", [])
    return normalize_code(values[0]) if values else ""


def _roster_lookup(engine: sa.Engine, code: str | None = None):
    """With ``code``: the roster's name for it (None if none); without: whether the roster has
    anyone. A missing roster table is an empty roster."""
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table(roster_table.name):
            return None if code is not None else False
        if code is None:
            return conn.execute(sa.select(roster_table.c.code).limit(1)).first() is not None
        return conn.execute(sa.select(roster_table.c.name)
                            .where(roster_table.c.code == code)).scalar()


class Journal:
    """Where a student's Discuss answers (and drafts) are saved and read back.

    Args:
        url: a SQLAlchemy database URL, e.g. ``"sqlite:////tmp/j.sqlite"`` or
            ``"postgresql+psycopg://..."``; None uses :func:`default_url`.
        student: the student's name; None leaves it for the page to ask (a name box). When the
            environment variable ``JUPYTERHUB_USER`` is set, that login is the name and this
            argument is ignored (see :attr:`student_locked`). Names are cleaned as every typed
            name is (:func:`tokens_edu.names.clean_name`).
        lesson: the lesson's name, stored with every answer (``""`` when not in a lesson).
        read_only: True for a teacher's reading tools (export): no tables are made, and a store
            that cannot be read raises at once.

    Raises:
        ValueError: the name is unusable or the lesson is not text.
        JournalUnavailable: only with ``read_only=True``, when the store cannot be read. A
            lesson's journal never raises for a store problem: see :attr:`problem`.
    """

    def __init__(self, url: str | None = None, student: str | None = None, lesson: str = "",
                 read_only: bool = False):
        if not isinstance(lesson, str):
            raise ValueError("The lesson's name must be text.")
        self.lesson = lesson
        self.read_only = read_only
        self._listeners: list[Callable[[str], None]] = []
        hub_user = os.environ.get("JUPYTERHUB_USER", "").strip()
        self._locked = bool(hub_user)
        self._student: str | None = None
        if self._locked:
            self._student = _clean_name(hub_user)
            if student is not None and student != self._student:
                log.info("Ignoring student=%r: the JupyterHub login %r is used.", student, hub_user)
        elif student is not None and str(student).strip():
            self._student = _clean_name(student)
        # A class roster (tokens_edu.roster): the name comes from a code, never from a name box.
        self._typed = False  # the name came from the student setter (a name box)
        self._code = ""  # the roster code this page signed in with
        self._roster_seen = False
        self._code_failures = 0
        self._code_problem = ""  # why the page's ?code= did not sign in (see code_problem)
        # The page's ?code= is read when the page's student is first asked for (not here): a
        # warm kernel waits for its page's address at that moment, so the lesson's cells
        # before it are ready before a student opens the page.
        self._page_checked = bool(self._locked or self._student or read_only)
        self.problem: str | None = None
        self._engine: sa.Engine | None = None
        self._tables: set[str] = set()
        try:
            self.url = url or default_url()
        except ValueError as e:
            self.url = url or ""
            self._set_problem(str(e))
            if read_only:
                raise JournalUnavailable(str(e)) from None
            return
        self._open()
        if read_only and self.problem:
            raise JournalUnavailable(f"The saved answers cannot be read: {self.problem}.")

    def _check_page(self) -> None:
        """Once: sign in with the page's ``?code=`` when it has one (a roster's personal link)."""
        if self._page_checked:
            return
        self._page_checked = True
        if self._student is not None or self._locked:
            return
        try:
            code = code_from_query()
        except Exception:  # the page's query cannot be read: no sign-in, never a crash
            log.info("Could not read the page's code.", exc_info=True)
            return
        if code:
            if not self.roster_in_use:  # a ?code= link on a server with no class list: the name box stays
                log.info("The page's code is ignored: this class has no class list.")
                return
            try:
                self.sign_in(code)
            except ValueError as e:
                self._code_problem = str(e)

    # --- the store ----------------------------------------------------------------------

    def _set_problem(self, why: str) -> None:
        if why != self.problem:
            # Under ``tokens-edu serve`` the server watches the data folder and tells the
            # teacher once; thirty kernels saying it too would bury that line.
            level = logging.INFO if os.environ.get("TOKENS_EDU_STORAGE_WATCHED") else logging.WARNING
            log.log(level, "Answers cannot be saved: %s (store: %s)", why, self._shown_url())
        self.problem = why

    def _shown_url(self) -> str:
        return _shown_url(self.url)

    def _open(self) -> bool:
        """Make the engine and the tables; on failure set :attr:`problem` (never raises)."""
        try:
            if self._engine is None:
                self._engine = _make_engine(self.url)
            if self.read_only:
                with self._engine.connect() as conn:
                    if not sa.inspect(conn).has_table(answers_table.name):
                        raise sa.exc.OperationalError("inspect", {}, Exception("no such table: answers"))
                self._tables = {answers_table.name}
            else:
                self._tables = _ensure_tables(self._engine)
        except ImportError as e:  # the URL names a database driver that is not installed
            self._set_problem(f"the database driver for {self._shown_url()} is missing "
                              f"({e.name or e}): install tokens-edu[postgres]")
            return False
        except (sa.exc.SQLAlchemyError, OSError) as e:
            self._set_problem(f"the store at {self._shown_url()} cannot be used "
                              f"({str(e).splitlines()[0][:200]})")
            return False
        if self.problem:
            log.warning("Answers can be saved again (store: %s).", self._shown_url())
        self.problem = None
        return True

    @property
    def engine(self) -> sa.Engine:
        """The SQLAlchemy engine (for other tables of :data:`metadata`).

        Raises:
            JournalUnavailable: the store cannot be used now.
        """
        if self.problem and not self._open():
            raise JournalUnavailable(CANNOT_SAVE)
        if self._engine is None:
            raise JournalUnavailable(CANNOT_SAVE)
        return self._engine

    @property
    def available(self) -> bool:
        """True when the store can be used (tries again when it could not before)."""
        return self.problem is None or self._open()

    def _write(self, statements: list, what: str) -> None:
        """Run ``statements`` in one transaction; storage errors become JournalUnavailable."""
        engine = self.engine
        try:
            with engine.begin() as conn:
                for stmt in statements:
                    conn.execute(stmt)
        except sa.exc.IntegrityError:
            raise
        except sa.exc.SQLAlchemyError as e:
            if _storage_error(e):
                self._set_problem(f"{what} failed: {str(e).splitlines()[0][:200]}")
                raise JournalUnavailable(CANNOT_SAVE) from None
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200], exc_info=True)
            raise JournalUnavailable(SAVE_FAILED) from None

    # --- who is writing -----------------------------------------------------------------

    @property
    def student_locked(self) -> bool:
        """True when the name comes from the JupyterHub login and cannot be changed."""
        return self._locked

    @property
    def student(self) -> str | None:
        """The student's name (str), or None when the page has not asked for it yet. In a
        lesson page with a class roster, the first look signs in with the page's ``?code=``."""
        self._check_page()
        return self._student

    @student.setter
    def student(self, name: str) -> None:
        """Set the name to save under (cleaned), e.g. from a name box. ValueError when it is
        empty, too long, or locked. This does not tell :meth:`on_identify` listeners: a typed
        name is not proof of who is at the page (see :meth:`identify`)."""
        name = _clean_name(name)
        self._check_page()
        if self._locked and name != self._student:
            raise ValueError(f"You are logged in as {self._student}, so your answers are saved "
                             "under that name.")
        if name != self._student and self.roster_in_use:
            raise ValueError(CODE_NEEDED)  # with a class roster, only a code gives a name
        if name != self._student:
            self._typed = True
            self._code = ""
        self._student = name

    def identify(self, name: str) -> None:
        """The page now knows who its student is (for example a class roster login checked a
        code): set :attr:`student` and tell every :meth:`on_identify` listener, so the page's
        Discuss boxes show that student's saved work.

        Raises:
            ValueError: as the :attr:`student` setter (empty, too long, a different login).
        """
        self.student = name
        for listener in list(self._listeners):
            try:
                listener(self._student)
            except Exception:
                log.exception("A listener of the student's name failed")

    def on_identify(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(name)`` each time :meth:`identify` names the page's student."""
        self._listeners.append(callback)

    # --- a class roster (tokens_edu.roster) ---------------------------------------------

    @property
    def roster_in_use(self) -> bool:
        """True when the class has a roster (``tokens-edu roster add``) and there is no
        JupyterHub login: a student's name then comes only from their code (:meth:`sign_in`),
        never from a name box. Once seen, a roster is remembered for this page; until then it
        is looked up each time (one small query), so a roster made during a lesson counts at
        once. False when the store cannot be read."""
        if self._locked:
            return False
        if not self._roster_seen:
            try:
                self._roster_seen = bool(_roster_lookup(self.engine))
            except Exception:  # noqa: BLE001 (a store problem shows when saving)
                log.info("Could not read the class roster.", exc_info=True)
                return False
        return self._roster_seen

    @property
    def code(self) -> str:
        """The roster code this page signed in with (``""`` when none): lesson links carry it."""
        self._check_page()
        return self._code

    @property
    def code_problem(self) -> str:
        """Why the page's ``?code=`` did not sign in (plain words), or ``""``."""
        self._check_page()
        return self._code_problem

    def sign_in(self, code: object) -> str:
        """Take the student's name from their class-roster code, and tell the page
        (:meth:`identify`). Another student on the same screen signs in with their own code.

        Args:
            code: the code from the student's slip (any case; spaces and dashes ignored).

        Returns:
            str: the student's name.

        Raises:
            ValueError: under a JupyterHub login, or the code is not on the class list (plain
                words). After three wrong codes, each further one waits two seconds first.
            JournalUnavailable: the store cannot be read now.
        """
        import time

        if self._locked:
            raise ValueError(f"You are logged in as {self._student}, so your answers are saved "
                             "under that name.")
        self._page_checked = True  # a code typed now wins over the page's link
        normalized = normalize_code(code)
        try:
            name = _roster_lookup(self.engine, normalized) if len(normalized) == CODE_LENGTH else None
        except sa.exc.SQLAlchemyError:
            log.warning("Reading the class roster failed", exc_info=True)
            raise JournalUnavailable("The class list cannot be read just now. Try again in a "
                                     "moment.") from None
        if name is None:
            self._code_failures += 1
            if self._code_failures > 3:
                time.sleep(2)  # a slip's code is typed once or twice, not guessed
            raise ValueError("That code is not on the class list. Check the code on your slip "
                             "and type it again.")
        self._code_failures = 0
        self._student = _clean_name(name)
        self._code = normalized
        self._typed = False
        self.identify(self._student)
        return self._student

    def _check_roster(self) -> None:
        """With a class roster, refuse a name that was typed rather than signed in with a code."""
        if self._typed and self.roster_in_use:
            raise ValueError(CODE_NEEDED)

    # --- writing ------------------------------------------------------------------------

    def save(self, card, answer: str, prompt: str | None = None, answer_id: str | None = None,
             lesson: str | None = None) -> str:
        """Save one answer, exactly as typed, and return its id; this card's draft is removed.

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
                or too long answer, an unknown card or a bad id. Nothing is saved then.
            JournalUnavailable: the store refused the save (:data:`SAVE_FAILED` for a one-off,
                :data:`CANNOT_SAVE` when it cannot store anything now). Nothing is saved then.
        """
        if not self.student:  # (a lesson page's ?code= is read here at the latest)
            raise ValueError(CODE_NEEDED if self.roster_in_use else "Type your name first, then save.")
        self._check_roster()
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
        engine = self.engine
        stmt = _insert_or_ignore(engine, row)
        try:
            if stmt is not None:
                self._write([stmt], "Saving an answer")
            else:  # another database: look first, then insert; a lost race is a duplicate
                with engine.connect() as conn:
                    seen = conn.execute(sa.select(answers_table.c.id).where(
                        answers_table.c.id == answer_id)).first()
                if not seen:
                    self._write([answers_table.insert().values(**row)], "Saving an answer")
        except sa.exc.IntegrityError:
            pass  # the same id was saved at the same moment by a retry: it is stored once
        self._drop_draft(name, lesson)
        return answer_id

    def _drop_draft(self, card: str, lesson: str) -> None:
        """Remove this student's draft of ``card`` after its answer was saved (best effort: a
        draft left behind is older than the answer, so it is not shown again)."""
        if drafts_table.name not in self._tables:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(drafts_table.delete().where(
                    drafts_table.c.student == self._student, drafts_table.c.lesson == lesson,
                    drafts_table.c.card == card))
        except (sa.exc.SQLAlchemyError, JournalUnavailable) as e:
            log.info("A saved answer's draft was not removed: %s", str(e).splitlines()[0][:200])

    def save_draft(self, card, text: str, lesson: str | None = None) -> bool:
        """Keep ``text`` as this student's draft for ``card`` (replacing the last one).

        A draft is not an answer: no teacher's view or export shows it. An empty or all-space
        ``text`` removes the draft. Text over :data:`MAX_ANSWER` characters is kept cut to that.

        Args:
            card: a Card or a card's name.
            text: the words in the box now.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            bool: True when a draft is kept now; False when ``text`` was empty (the draft was
            removed) or this database has no drafts table (a role that may not make it).

        Raises:
            ValueError: no student name yet, an unknown card, or text that is not a str.
            JournalUnavailable: the store refused it (see :meth:`save`).
        """
        if not self.student:  # (a lesson page's ?code= is read here at the latest)
            raise ValueError(CODE_NEEDED if self.roster_in_use else "Type your name first, then save.")
        self._check_roster()
        if not isinstance(text, str):
            raise ValueError("A draft must be text.")
        name, _ = _card_name_and_prompt(card)
        lesson = self.lesson if lesson is None else lesson
        self.engine  # noqa: B018 (opens the store again after a problem, or raises)
        if drafts_table.name not in self._tables:
            return False
        key = (drafts_table.c.student == self._student, drafts_table.c.lesson == lesson,
               drafts_table.c.card == name)
        if not text.strip():
            self._write([drafts_table.delete().where(*key)], "Removing a draft")
            return False
        text = text[:MAX_ANSWER].encode("utf-8", "replace").decode("utf-8", "replace")
        row = {"student": self._student, "lesson": lesson, "card": name, "text": text,
               "saved_at": datetime.now(timezone.utc)}
        insert = _dialect_insert(self.engine)
        if insert is not None:
            stmt = insert(drafts_table).values(**row)
            stmt = stmt.on_conflict_do_update(index_elements=["student", "lesson", "card"],
                                              set_={"text": text, "saved_at": row["saved_at"]})
            self._write([stmt], "Keeping a draft")
        else:
            self._write([drafts_table.delete().where(*key), drafts_table.insert().values(**row)],
                        "Keeping a draft")
        return True

    # --- reading ------------------------------------------------------------------------

    def _read(self, query, what: str):
        """Rows of ``query`` (mappings); storage errors become JournalUnavailable."""
        engine = self.engine
        try:
            with engine.connect() as conn:
                return conn.execute(query).mappings().all()
        except sa.exc.SQLAlchemyError as e:
            log.warning("%s failed: %s", what, str(e).splitlines()[0][:200])
            raise JournalUnavailable("The saved answers cannot be read just now. Try again in "
                                     "a moment.") from None

    def _frame(self, query) -> pd.DataFrame:
        import pandas as pd  # here, not at the top: a lesson kernel without tables saves ~45 MiB

        rows = self._read(query, "Reading answers")
        df = pd.DataFrame([dict(r) for r in rows], columns=COLUMNS)
        df["saved_at"] = pd.to_datetime(df["saved_at"], utc=True)
        return df

    def _answers_query(self, all_students: bool, lessons, students, since):
        q = sa.select(answers_table).order_by(answers_table.c.saved_at, answers_table.c.id)
        if not all_students:
            q = q.where(answers_table.c.student == (self._student or ""))
            if not self._student:
                q = q.where(sa.false())
        if lessons:
            q = q.where(answers_table.c.lesson.in_(list(lessons)))
        if students:  # a teacher's filter: "ana" finds Ana
            q = q.where(sa.func.lower(answers_table.c.student).in_([clean_name(s).lower() for s in students]))
        if since is not None:
            q = q.where(answers_table.c.saved_at > since)
        return q

    def answers(self, all_students: bool = False, lessons: Iterable[str] | None = None,
                students: Iterable[str] | None = None, since: datetime | None = None) -> pd.DataFrame:
        """The saved answers as a table, oldest first (never drafts).

        Args:
            all_students: False (the default) gives only this student's rows (none when there is
                no name yet); True gives everyone's (for the teacher).
            lessons: only these lessons' rows (None: every lesson).
            students: only these students' rows, in any case ("ana" finds Ana; None: every
                student allowed above).
            since: only rows saved after this time (an aware datetime; for a live view).

        Returns:
            pandas.DataFrame with the columns of :data:`COLUMNS`; ``saved_at`` is a UTC time.

        Raises:
            JournalUnavailable: the store cannot be read now.
        """
        return self._frame(self._answers_query(all_students, lessons, students, since))

    def _latest(self, student: str, card: str, lesson: str) -> str | None:
        found = self._latest_row(student, card, lesson)
        return found.text if found else None

    def _latest_row(self, student: str, card: str, lesson: str) -> Saved | None:
        q = (sa.select(answers_table.c.answer, answers_table.c.saved_at)
             .where(answers_table.c.student == student, answers_table.c.card == card,
                    answers_table.c.lesson == lesson)
             .order_by(answers_table.c.saved_at.desc()).limit(1))
        rows = self._read(q, "Reading an answer")
        return Saved(rows[0]["answer"], _utc(rows[0]["saved_at"])) if rows else None

    def latest(self, card, lesson: str | None = None, student: str | None = None) -> Saved | None:
        """The latest saved answer about ``card`` in ``lesson``, with its time.

        Args:
            card: a Card or a card's name.
            lesson: the lesson's name; None uses this journal's ``lesson``.
            student: whose; None: this journal's student.

        Returns:
            Saved | None: the words and time, or None when there is none (or no name).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = _card_name_and_prompt(card)
        who = student if student is not None else self._student
        if not who:
            return None
        return self._latest_row(who, name, self.lesson if lesson is None else lesson)

    def answer_for(self, card, lesson: str | None = None) -> str | None:
        """This student's latest saved answer about ``card`` in ``lesson``.

        Args:
            card: a Card or a card's name.
            lesson: the lesson's name; None uses this journal's ``lesson``.

        Returns:
            str | None: the answer as typed, or None when there is none (or no name yet).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = _card_name_and_prompt(card)
        if not self._student:
            return None
        return self._latest(self._student, name, self.lesson if lesson is None else lesson)

    def draft_for(self, card, lesson: str | None = None, student: str | None = None) -> Draft | None:
        """The draft kept for ``card`` in ``lesson`` (this student's, or ``student``'s).

        Returns:
            Draft | None: the draft, or None when there is none (or no name).

        Raises:
            ValueError: an unknown card name.
            JournalUnavailable: the store cannot be read now.
        """
        name, _ = _card_name_and_prompt(card)
        who = student if student is not None else self._student
        if not who:
            return None
        self.engine  # noqa: B018 (opens the store again after a problem, or raises)
        if drafts_table.name not in self._tables:
            return None
        q = sa.select(drafts_table.c.text, drafts_table.c.saved_at).where(
            drafts_table.c.student == who, drafts_table.c.card == name,
            drafts_table.c.lesson == (self.lesson if lesson is None else lesson))
        rows = self._read(q, "Reading a draft")
        return Draft(rows[0]["text"], _utc(rows[0]["saved_at"])) if rows else None

    def export_csv(self, path, all_students: bool = False, lessons: Iterable[str] | None = None,
                   students: Iterable[str] | None = None) -> int:
        """Write the answers (never drafts) to a CSV file a spreadsheet opens safely.

        See :func:`write_csv` (UTF-8 with a byte order mark, one line per answer, formulas
        written as text).

        Args:
            path: the file to write (str or Path; replaced if it exists) or an open text file.
            all_students: as in :meth:`answers` (False: only this student's rows).
            lessons: only these lessons (None: all).
            students: only these students (None: all allowed by ``all_students``).

        Returns:
            int: how many answers were written.

        Raises:
            ValueError: the file cannot be written (the message names it).
            JournalUnavailable: the store cannot be read now.
        """
        rows = self._read(self._answers_query(all_students, lessons, students, None),
                          "Reading answers")
        return write_csv([dict(r) for r in rows], path, columns=COLUMNS)

    def __repr__(self) -> str:
        who = self._student or "no name yet"
        return f"<Journal {self._shown_url()!r} student={who!r} lesson={self.lesson!r}>"
