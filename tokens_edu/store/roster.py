"""The class roster: each student's name with a short code, so names are safe without logins.

Without a roster, a lesson page asks for a name, and anyone can type any name. With a roster
(``tokens-edu roster add "Ana" "Bo" ...``), each student gets a short code such as ``KT4PXM``
and a personal link that carries it (``...?code=KT4PXM``). The name then comes from the code:
the page has no name box, and an answer can only be saved under a name by someone who has that
student's code. Under JupyterHub the login is the name, and the roster is not used.

The roster lives in the same database as the answers (table ``roster``: ``code``, ``name``,
``added_at``), so the lesson server, the teacher dashboard and the command line all see the
same list (see :func:`tokens_edu.store.db.default_url`). A lesson page signs in with a code
through its session (:meth:`tokens_edu.session.PageSession.sign_in`, which asks
:func:`roster_name`).

Codes are 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L): about 887
million codes, made with :mod:`secrets`. A student may type one in any case, with spaces or a
dash (``kt4-pxm`` is ``KT4PXM``).

Example::

    >>> r = Roster("sqlite:///:memory:")
    >>> [e.name for e in r.add(["Ana", "Bo"])]
    ['Ana', 'Bo']
    >>> r.name_for(r.code_for("Ana"))
    'Ana'
"""

from __future__ import annotations

import html
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote, urlsplit

import sqlalchemy as sa

from .. import _moved
from ..content.names import clean_name
from . import schema
from .db import JournalUnavailable, StoreDamaged, damaged, damaged_message, default_url, make_engine
from .db import shown_url, utc
from .migrate import ensure_current
from .schema import CODE_LENGTH

__all__ = ["Roster", "RosterEntry", "CODE_ALPHABET", "normalize_code", "roster_name", "slips_html",
           "roster_table", "personal_link", "check_base_url"]

log = logging.getLogger(__name__)

# ``code_from_query`` reads a page's address: it moved up to the session layer (with a
# DeprecationWarning until tokens-edu 0.4.0; imported by name, so the store never imports it).
__getattr__ = _moved.moved_names(__name__, {"code_from_query": "tokens_edu.session.address"})

#: Letters and digits a code is made of: no 0/O, 1/I/L, so a code read from paper is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Longest name on the roster (as for answers, :data:`tokens_edu.store.schema.MAX_NAME`).
MAX_NAME = 60
#: Most students on one roster (a safety limit against a pasted file by mistake).
MAX_STUDENTS = 2000

#: The class list's table (:data:`tokens_edu.store.schema.roster`).
roster_table = schema.roster

@dataclass(frozen=True)
class RosterEntry:
    """One student on the roster: ``name`` (str), ``code`` (str, 6 characters), ``added_at``
    (a UTC datetime)."""

    name: str
    code: str
    added_at: datetime


def normalize_code(text: object) -> str:
    """A class-roster code as stored: upper case, without spaces and dashes (``"kt4-pxm"`` ->
    ``"KT4PXM"``). Returns ``""`` for anything that is not text."""
    if not isinstance(text, str):
        return ""
    return "".join(ch for ch in text.upper() if ch not in " -_\t\r\n")[:32]


def roster_name(engine: sa.Engine, code: str | None = None):
    """With ``code`` (normalized): the class list's name for it (None if none); without: whether
    the class list has anyone (bool). A database without the table has an empty class list.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be read.
    """
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table(roster_table.name):
            return None if code is not None else False
        if code is None:
            return conn.execute(sa.select(roster_table.c.code).limit(1)).first() is not None
        return conn.execute(sa.select(roster_table.c.name).where(roster_table.c.code == code)).scalar()


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Roster:
    """The class list with each student's code, kept in the answers' database.

    Args:
        url: a SQLAlchemy database URL; None uses :func:`tokens_edu.store.db.default_url`
            (``TOKENS_EDU_DB_URL``, else ``journal.sqlite`` in ``TOKENS_EDU_DATA`` or the
            per-user data folder).
        engine: an engine to use instead of making one from ``url``.
        read_only: for readers (the dashboard, a lesson page): this object never writes; a
            database at another revision is read as it is.

    Opening checks the database's revision and makes a new one
    (:func:`tokens_edu.store.migrate.ensure_current`); an older database is not changed.

    Raises:
        StoreDamaged: the SQLite file is damaged (one line: what to do).
        ValueError: the database cannot be opened (plain words).
    """

    def __init__(self, url: str | None = None, *, engine: sa.Engine | None = None,
                 read_only: bool = False):
        self.url = url or (str(engine.url) if engine is not None else default_url())
        try:
            self._engine = engine if engine is not None else make_engine(self.url)
            ensure_current(self._engine)
        except StoreDamaged:
            raise
        except JournalUnavailable as e:
            if not read_only:
                raise ValueError(f"The class list cannot be opened: {e}") from None
            log.info("Reading the class list as it is: %s", e)
        except sa.exc.SQLAlchemyError as e:
            if damaged(e):
                raise StoreDamaged(damaged_message(self.url)) from None
            log.warning("Cannot open the class list at %s: %s", shown_url(self.url),
                        str(e).splitlines()[0][:200])
            raise ValueError(f"The class list cannot be opened ({type(e).__name__}). "
                             "Check the data folder or database.") from None
        self._exists = False

    def _ready(self) -> bool:
        """True when the table exists (a reader of a new database looks again until a lesson
        has made it)."""
        if not self._exists:
            with self._engine.connect() as conn:
                self._exists = sa.inspect(conn).has_table(roster_table.name)
        return self._exists

    # -- reading -------------------------------------------------------------------------
    def in_use(self) -> bool:
        """True when the roster has at least one student (then names come from codes)."""
        if not self._ready():
            return False
        with self._engine.connect() as conn:
            return conn.execute(sa.select(roster_table.c.code).limit(1)).first() is not None

    def entries(self) -> list[RosterEntry]:
        """Every student on the roster, in the order they were added (then by name)."""
        if not self._ready():
            return []
        q = sa.select(roster_table).order_by(roster_table.c.added_at, roster_table.c.name)
        with self._engine.connect() as conn:
            rows = conn.execute(q).all()
        return [RosterEntry(r.name, r.code, utc(r.added_at)) for r in rows]

    def name_for(self, code: object) -> str | None:
        """The student's name for ``code`` (any case, spaces and dashes ignored), or None."""
        code = normalize_code(code)
        if len(code) != CODE_LENGTH or not self._ready():
            return None
        with self._engine.connect() as conn:
            return conn.execute(sa.select(roster_table.c.name)
                                .where(roster_table.c.code == code)).scalar()

    def code_for(self, name: str) -> str | None:
        """The code of the student called ``name`` (exactly, after cleaning), or None."""
        name = clean_name(name) if isinstance(name, str) else ""
        if not self._ready():
            return None
        with self._engine.connect() as conn:
            return conn.execute(sa.select(roster_table.c.code)
                                .where(roster_table.c.name == name)).scalar()

    def _find(self, name_or_code: str) -> RosterEntry | None:
        """The entry whose name (case ignored) or code is ``name_or_code``."""
        text = clean_name(name_or_code) if isinstance(name_or_code, str) else ""
        code = normalize_code(text)
        for e in self.entries():
            if e.name.casefold() == text.casefold() or e.code == code:
                return e
        return None

    # -- changing ------------------------------------------------------------------------
    def add(self, names) -> list[RosterEntry]:
        """Add students, each with a new code. All or nothing: one bad name adds none.

        Args:
            names: an iterable of names (str). Names are cleaned (:func:`~tokens_edu.content.names.clean_name`).

        Returns:
            list of the new :class:`RosterEntry`, in the order given.

        Raises:
            ValueError: a name is empty, too long (over 60 characters), given twice, or
                already on the roster (names are compared without regard to case); the message
                names every such name. Nothing is added then.
        """
        if isinstance(names, str):
            names = [names]
        cleaned, problems = [], []
        existing = {e.name.casefold(): e for e in self.entries()}
        seen: set[str] = set()
        for raw in names:
            if not isinstance(raw, str):
                problems.append(f"{raw!r} is not a name (names are text).")
                continue
            name = clean_name(raw)
            if not name:
                problems.append("An empty name cannot be added.")
            elif len(name) > MAX_NAME:
                problems.append(f"'{name[:30]}...' is too long (at most {MAX_NAME} characters).")
            elif name.casefold() in existing:
                problems.append(f"{existing[name.casefold()].name} is already on the class list.")
            elif name.casefold() in seen:
                problems.append(f"{name} is given twice.")
            else:
                seen.add(name.casefold())
                cleaned.append(name)
        if len(existing) + len(cleaned) > MAX_STUDENTS:
            problems.append(f"A class list holds at most {MAX_STUDENTS} students.")
        if problems:
            raise ValueError(" ".join(problems) + " Nobody was added.")
        try:
            with self._engine.begin() as conn:
                taken = set(conn.execute(sa.select(roster_table.c.code)).scalars())
                now = datetime.now(timezone.utc)
                out = []
                for name in cleaned:
                    code = _new_code()
                    while code in taken:
                        code = _new_code()
                    taken.add(code)
                    conn.execute(roster_table.insert().values(code=code, name=name, added_at=now))
                    out.append(RosterEntry(name, code, now))
        except sa.exc.IntegrityError:  # the same name added at the same moment elsewhere
            raise ValueError("The class list changed while adding (maybe from another window). "
                             "Nobody was added: list it, then try again.") from None
        return out

    def remove(self, name_or_code: str) -> RosterEntry:
        """Take a student off the roster (their saved answers stay). Returns their entry.

        Raises:
            ValueError: nobody on the roster has that name or code.
        """
        entry = self._find(name_or_code)
        if entry is None:
            raise ValueError(f"Nobody called {name_or_code!r} is on the class list.")
        with self._engine.begin() as conn:
            conn.execute(roster_table.delete().where(roster_table.c.code == entry.code))
        return entry

    def new_code(self, name_or_code: str) -> RosterEntry:
        """Give a student a new code (the old one stops working). Returns the new entry.

        For a lost slip, or a code a classmate has seen.

        Raises:
            ValueError: nobody on the roster has that name or code.
        """
        entry = self._find(name_or_code)
        if entry is None:
            raise ValueError(f"Nobody called {name_or_code!r} is on the class list.")
        with self._engine.begin() as conn:
            taken = set(conn.execute(sa.select(roster_table.c.code)).scalars())
            code = _new_code()
            while code in taken:
                code = _new_code()
            conn.execute(roster_table.update().where(roster_table.c.code == entry.code)
                         .values(code=code))
        return RosterEntry(entry.name, code, entry.added_at)

    def clear(self) -> int:
        """Remove everyone (names then come from the name box again). Returns how many."""
        with self._engine.begin() as conn:
            return conn.execute(roster_table.delete()).rowcount or 0

    def __repr__(self) -> str:
        return f"<Roster {shown_url(self.url)!r}>"


def personal_link(base_url: str, code: str, page: str = "voila/render/00-start-here.ipynb") -> str:
    """A student's link: ``<base_url>/<page>?code=<code>``.

    Args:
        base_url: where students open the lessons, e.g. ``"http://192.168.1.20:8866/"``.
        code: the student's code.
        page: the page to open, relative to ``base_url`` (default: the start page).
    """
    return f"{base_url.rstrip('/')}/{page.lstrip('/')}?code={quote(normalize_code(code))}"


def check_base_url(url: str) -> str:
    """``url`` if it is an http(s) address with a host, else ValueError in plain words."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{url!r} is not a web address. Give one like http://192.168.1.20:8866")
    return url.strip()


_SLIP_CSS = """
body { font-family: sans-serif; margin: 0; }
h1 { font-size: 18px; margin: 12px; }
p.note { margin: 0 12px 12px; color: #333; font-size: 13px; }
.slips { display: grid; grid-template-columns: 1fr 1fr; }
.slip { border: 1px dashed #777; padding: 14px 16px; break-inside: avoid; page-break-inside: avoid;
        min-height: 45mm; box-sizing: border-box; }
.slip .name { font-size: 20px; font-weight: bold; }
.slip .code { font-family: monospace; font-size: 30px; letter-spacing: 4px; margin: 6px 0; }
.slip .link { font-family: monospace; font-size: 12px; word-break: break-all; }
.slip .how { font-size: 12px; color: #333; margin-top: 6px; }
@media print { h1, p.note { display: none; } }
"""


def slips_html(entries: list[RosterEntry], base_url: str, class_name: str = "") -> str:
    """A printable page of slips, one per student: name, code, personal link (A4, 2 across).

    Args:
        entries: the students (from :meth:`Roster.entries`).
        base_url: where students open the lessons (the address of ``tokens-edu serve`` as
            seen from the students' computers).
        class_name: an optional heading for the page (not printed).

    Returns:
        str: a whole HTML document; every name is escaped.
    """
    slips = []
    for e in entries:
        link = personal_link(base_url, e.code)
        slips.append(
            '<div class="slip">'
            f'<div class="name">{html.escape(e.name)}</div>'
            f'<div class="code">{html.escape(e.code)}</div>'
            f'<div class="link">{html.escape(link)}</div>'
            '<div class="how">Open this link to start the lessons. Keep your code secret: it is '
            "how the lessons know it is you.</div></div>")
    title = html.escape(class_name or "Class list")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{title}: slips</title><style>{_SLIP_CSS}</style></head><body>"
            f"<h1>{title}: {len(entries)} slips</h1>"
            '<p class="note">Print this page and cut along the dashed lines. Each student gets '
            "their own slip.</p>"
            f'<div class="slips">{"".join(slips)}</div></body></html>')
