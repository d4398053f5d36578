"""Names that people type (a student's name, a player's name): cleaned one way everywhere.

A name is shown to classmates and the teacher and stored with every answer, so what is stored
must be what is seen. :func:`clean_name` removes the characters that are invisible or that
change how the rest of the line looks:

* control characters (Unicode category ``Cc``): NUL, escape (``ESC``, which starts terminal
  colour codes in the teacher's console), tabs and line breaks (these become one space);
* bidirectional controls (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates,
  U+200E/U+200F/U+061C marks): "\\u202eboB" shows as "Bob" but is another name;
* invisible format characters that make two names look the same: zero-width space (U+200B),
  word joiner (U+2060), U+2061-U+2064, byte order mark (U+FEFF), soft hyphen (U+00AD),
  Mongolian vowel separator (U+180E). The zero-width joiner and non-joiner (U+200C, U+200D)
  stay: emoji sequences and several scripts (Persian, Hindi) need them.

Then the text is put in Unicode's NFC form (an "é" typed as one character or as "e" plus an
accent is the same name), runs of spaces become one space, and the ends are trimmed.

This module only cleans. Whether a cleaned name is acceptable (not empty, not too long) is the
caller's rule: the store refuses an empty or over-long name in plain words
(:func:`tokens_edu.store.writer.check_name`).

Example::

    >>> clean_name("  Ana\\u202e\\x00  Li\\n")
    'Ana Li'
    >>> clean_name("\\u202eboB")  # shows as "Bob" with the override; stored as what it is
    'boB'
"""

from __future__ import annotations

import unicodedata

__all__ = ["clean_name", "INVISIBLE"]

#: Characters removed from a name besides the control characters (category ``Cc``): the
#: bidirectional controls and invisible format characters listed in the module docstring.
INVISIBLE = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, pop, overrides
    "\u2066\u2067\u2068\u2069"  # isolates
    "\u200e\u200f\u061c"  # left-to-right, right-to-left and Arabic letter marks
    "\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e"  # zero-width and invisible
)


# Tablets and phones type a curly apostrophe where a keyboard types a straight one: "O’Brien"
# and "O'Brien" are one student.
_APOSTROPHES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201b": "'"})


def clean_name(text: str) -> str:
    """``text`` without control, bidirectional-override and invisible characters (see module).

    Args:
        text: a name as typed (any length; may be empty).

    Returns:
        str: the cleaned name in NFC form, curly apostrophes made straight (``O’Brien`` is
        ``O'Brien``), inner runs of spaces (and removed line breaks or tabs) as one space, no
        spaces at either end. May be ``""``.

    Raises:
        TypeError: ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"a name must be text (str), not {type(text).__name__}")
    kept = []
    for ch in text:
        if ch in INVISIBLE:
            continue
        if unicodedata.category(ch) == "Cc":
            if ch in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85":  # a break between words: keep a space
                kept.append(" ")
            continue
        kept.append(ch)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).translate(_APOSTROPHES).split())
