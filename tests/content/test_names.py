"""Typed names: control, escape, NUL and bidi-override characters never survive (issue 8 item 7)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokens_edu.content.names import INVISIBLE, clean_name


@pytest.mark.parametrize("typed, stored", [
    ("Ana", "Ana"),
    ("  Ana   Li  ", "Ana Li"),
    ("A\x00na", "Ana"),                      # NUL
    ("\x1b[31mAna\x1b[0m", "[31mAna[0m"),   # escape: no colour codes reach a console
    ("\u202eboB", "boB"),                    # right-to-left override: shows as "Bob"
    ("B\u2066o\u2069b", "Bob"),              # isolates
    ("Bo\u200bb", "Bob"),                    # zero-width space
    ("\ufeffBob\u200e", "Bob"),              # byte order mark, left-to-right mark
    ("Ana\nLi\tK", "Ana Li K"),              # line breaks and tabs are spaces
    ("Jose\u0301", "Jos\u00e9"),              # one form for an accented letter (NFC)
    ("\u202e\x00\u200b", ""),                # nothing visible: empty
    ("Zo\u00eb \U0001F600", "Zo\u00eb \U0001F600"),  # letters and emoji stay
    ("\U0001F469\u200d\U0001F52C", "\U0001F469\u200d\U0001F52C"),  # joiner in an emoji stays
])
def test_clean_name(typed, stored):
    assert clean_name(typed) == stored


def test_a_name_that_is_not_text_is_refused():
    with pytest.raises(TypeError, match="must be text"):
        clean_name(None)


@given(st.text(st.characters(exclude_categories=["Cs"]), max_size=80))
def test_clean_names_hold_nothing_hidden_and_are_stable(text):
    name = clean_name(text)
    assert not any(unicodedata.category(c) == "Cc" or c in INVISIBLE for c in name)
    assert name == name.strip() and "  " not in name
    assert clean_name(name) == name


def test_a_curly_apostrophe_is_the_same_name_as_a_straight_one():
    """A tablet types O’Brien, a laptop O'Brien: one student (newcomer review: the roster took
    them as two)."""
    assert clean_name("O\u2019Brien") == clean_name("O'Brien") == "O'Brien"
