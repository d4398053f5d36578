"""The card words (issue 3): every card has a Definition, a Discuss question, a teacher note and
rules text that agrees with its mechanic. Reads only the project's own cards/alpha-set.yaml."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tokens_edu import load_cards
from tokens_edu.content.cards import DEFAULT_CARDS_PATH

CARDS = load_cards().cards()
IDS = [c.name for c in CARDS]
# A sentence ends at . ! or ? followed by a space and a capital letter, a digit or a quote.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9'\"‘“])")


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text.strip()) if s]


def test_the_set_still_has_70_cards_and_40_systems():
    assert len(CARDS) == 70
    assert sum(c.is_system for c in CARDS) == 40


def test_yaml_keeps_its_header_comment():
    head = Path(DEFAULT_CARDS_PATH).read_text(encoding="utf-8").splitlines()[:5]
    assert head[0].startswith("# Tokens TCG Alpha Set")
    assert all(line.startswith("#") for line in head)


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_every_card_has_its_words(card):
    assert card.definition, "no definition"
    assert card.discuss, "no Discuss question"
    assert card.learn_more, "no teacher note"


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_discuss_is_one_short_question(card):
    assert len(card.discuss) <= 85, f"{len(card.discuss)} characters"
    assert card.discuss.endswith("?")
    assert card.discuss.count("?") == 1


def test_no_two_cards_share_a_discuss_question():
    folded = [" ".join(c.discuss.casefold().split()) for c in CARDS]
    dupes = {q for q in folded if folded.count(q) > 1}
    assert not dupes


def test_no_two_cards_share_a_definition():
    defs = [c.definition.casefold() for c in CARDS]
    assert len(set(defs)) == len(defs)


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_definition_is_one_or_two_short_sentences(card):
    """Issue 10: two short sentences read more easily than one long one (grade 7 at most,
    checked in test_readability.py); a card has room for about 170 characters."""
    d = card.definition
    assert d.endswith("."), d
    assert 1 <= len(sentences(d)) <= 2, sentences(d)
    assert all(len(s.split()) <= 20 for s in sentences(d)), "a sentence of more than 20 words"
    assert "?" not in d and "!" not in d
    assert 30 <= len(d) <= 170  # short enough for a card, long enough to say something


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_learn_more_is_two_or_three_sentences(card):
    s = sentences(card.learn_more)
    assert 2 <= len(s) <= 3, s
    assert card.learn_more.endswith(".")


def test_sentence_splitter_counts_sentences():
    # guards the helper the two tests above rely on
    assert len(sentences("One thing. Two things? 'Three' things.")) == 3
    assert len(sentences("It is 1,300 megawatt-hours, roughly.")) == 1


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_rules_text_follows_the_mechanic(card):
    rules, mech = card.rules_text, card.mechanic
    if not mech:
        assert rules == "", "a vanilla card has no rules text"
        return
    assert rules, "a card with a mechanic needs rules text"
    assert rules.endswith("."), rules
    if card.legacy:
        assert rules.endswith("Legacy.")
    if card.big_data:
        assert f"Big Data {card.big_data}" in rules
    for kw in card.keywords:
        assert kw in rules, f"keyword {kw} missing"
    if mech.startswith("{E}"):
        assert rules.startswith("{E}:"), "a Tool's exert ability starts with {E}:"
    if "Trigger" in mech and "Runs a Task" in mech:
        assert "Runs a Task" in rules
    if "Legal in any deck" in mech:
        assert "any deck" in rules


def test_cards_with_the_same_mechanic_share_rules_text():
    by_mech: dict[str, set[str]] = {}
    for c in CARDS:
        if c.mechanic:
            by_mech.setdefault(c.mechanic, set()).add(c.rules_text)
    assert all(len(texts) == 1 for texts in by_mech.values()), {
        m: t for m, t in by_mech.items() if len(t) > 1
    }


def test_keyword_only_cards_read_as_their_keyword():
    pool = load_cards()
    assert pool["Agent"].rules_text == "Fast-Tracked."
    assert pool["Safety Lab"].rules_text == "Highly Trusted."
    assert pool["GAN"].rules_text == "Adversarial."
    assert pool["Python"].rules_text == "{E}: Draw a card."


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_student_text_has_no_leftover_markup(card):
    for text in (card.definition, card.discuss, card.learn_more):
        assert "{" not in text and "<" not in text and "  " not in text


#: A figure: a number that is not a year (a percentage, a count, an amount), or "a third".
_FIGURE = re.compile(r"\b(?!(?:19|20)\d\d\b)\d[\d,.]*\b(?!-)|\ba (?:third|quarter|half) of\b")
#: Words that say where a figure comes from: a named study, report, count or estimate.
_SOURCE = re.compile(r"\b(study|report(?:ed|s)?|according to|estimate[sd]?|count|paper|survey|"
                     r"Administration|Union)\b", re.I)


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_a_figure_in_a_teacher_note_says_where_it_comes_from(card):
    """Issue 10: "a source in the teacher note where a number is given". Each sentence of a
    note that gives a figure (not a year) names its source in the same sentence."""
    for sentence in sentences(card.learn_more):
        text = re.sub(r"\bGPT-\d(?:\.\d)?\b|\bDALL-E \d(?: and \d)?\b|\bLocal Law \d+\b|"
                      r"\b0s and 1s\b|\bFairness 360\b", "", sentence)  # names, not figures
        if _FIGURE.search(text):
            assert _SOURCE.search(text), f"a figure without a source: {sentence}"


def test_the_figure_check_sees_figures():
    assert _FIGURE.search("about 35% of them") and _FIGURE.search("about a third of the world")
    assert not _FIGURE.search("In 2023 it opened.") and not _SOURCE.search("people say so")
