"""Who writes: the small frozen value that every store call saving or reading a student's work takes.

The store does not know who is at a page: that is the session layer's work
(:mod:`tokens_edu.session`, which reads the page's address, the browser's secret, the class-roster
sign-in and the JupyterHub login). It hands the store a :class:`Writer` per call, as the saved
games already take a student and a browser::

    >>> from tokens_edu.store import Writer
    >>> Writer(" Ana ", trusted=True)
    Writer(name='Ana', trusted=True, browser='')

What the three fields decide:

``name``     whose row it is (cleaned as every name is: :func:`check_name`).
``trusted``  True when the name is proven (a JupyterHub login, a class-roster code, or a name the
             lesson's own code gave): such a writer reads back every row of that name. False for
             a typed name (a name box, ``?student=Bo``): anyone can type any name, so it reads
             back only rows its own browser wrote.
``browser``  the SHA-256 hex (64 characters) of the page's browser secret, ``""`` when unknown.
             It is stored with every row, and rate limits count by it
             (:mod:`tokens_edu.store.limits`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlalchemy as sa

from ..content.names import clean_name
from . import schema

__all__ = ["Writer", "check_name", "readable_by"]

_HASH = re.compile(r"[0-9a-f]{64}")


def check_name(name: object) -> str:
    """A student's name cleaned (:func:`tokens_edu.content.names.clean_name`).

    Args:
        name: the name as typed or given (str).

    Returns:
        str: the cleaned name, 1 to :data:`~tokens_edu.store.schema.MAX_NAME` characters.

    Raises:
        ValueError: in plain words when it is not text, empty, too long (over
            :data:`~tokens_edu.store.schema.MAX_NAME` characters) or has a broken character.
    """
    if not isinstance(name, str):
        raise ValueError("Your name must be written as text.")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("That name has a broken character. Type it again.") from None
    name = clean_name(name)
    if not name:
        raise ValueError("Type your name first, then save.")
    if len(name) > schema.MAX_NAME:
        raise ValueError(f"That name is too long. Use at most {schema.MAX_NAME} letters.")
    return name


@dataclass(frozen=True)
class Writer:
    """Whose work a store call saves or reads, and how sure the page is of it.

    Args:
        name: the student's name; cleaned on making (:func:`check_name`).
        trusted: True when the name is proven (login, roster code, given by the lesson's code).
        browser: the hex SHA-256 of the page's browser secret (64 characters), or ``""``.

    Raises:
        ValueError: an unusable name (plain words), ``trusted`` not a bool, or ``browser`` not
            ``""`` nor 64 lower-case hex digits.
    """

    name: str
    trusted: bool = False
    browser: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", check_name(self.name))
        if not isinstance(self.trusted, bool):
            raise ValueError("A writer's 'trusted' is True or False.")
        if not isinstance(self.browser, str) or (self.browser and not _HASH.fullmatch(self.browser)):
            raise ValueError("A writer's browser is the hash of a browser's secret (64 hex digits) or ''.")


def readable_by(table: sa.Table, writer: Writer) -> list:
    """SQL conditions for the rows of ``table`` that ``writer`` may read back: every row of its
    name when it is trusted, else only the rows of its name its own browser wrote (none when
    the browser is unknown).

    Args:
        table: a store table with ``student`` and ``browser`` columns.
        writer: who reads.
    """
    conditions = [table.c.student == writer.name]
    if not writer.trusted:
        conditions.append(table.c.browser == writer.browser if writer.browser else sa.false())
    return conditions
