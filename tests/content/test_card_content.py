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


#: Issue 28.6: the words that made 13 Discuss prompts lean toward one answer, as the issue names
#: them ("ever", "one company's", "without asking"...), and for the four it names without a word,
#: the words that did the leaning (a verdict or a one-sided ask: "judge", "a right to", "what
#: good", "help you learn more" with no "or less").
LEADING = {
    17: ("ever",), 19: ("judge",), 35: ("one company",), 36: ("without asking",),
    39: ("nobody chose",), 42: ("only rich", "rich"), 46: ("anyone", "however they want"),
    51: ("a right to", "said no"), 57: ("didn't read", "did not read"), 63: ("fun",),
    68: ("lots of",), 37: ("what good",), 41: ("one homework task", "could help you learn more"),
}
#: Words that push any Discuss prompt one way, checked on all 70 cards ("without asking" is not
#: one of them: Agent asks, fairly, whether an agent may buy things without asking a person).
LEADING_EVERYWHERE = ("nobody chose", "only rich", "however they want",
                      "didn't read", "what good could")


def _words(text: str) -> str:
    """The words of ``text``, lower case, one space apart, with a space at each end and the
    possessive 's dropped ("one company's" reads "one company")."""
    words = re.findall(r"[a-z']+", text.casefold().replace("’", "'"))
    return " " + " ".join(re.sub(r"'s$", "", w) for w in words) + " "


@pytest.mark.parametrize("number", sorted(LEADING))
def test_the_thirteen_prompts_do_not_lead(number):
    card = next(c for c in CARDS if c.number == number)
    words = _words(card.discuss)
    for leading in LEADING[number]:
        assert f" {leading} " not in words, f"#{number} {card.name}: {leading!r} in {card.discuss!r}"


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_no_prompt_uses_a_leading_phrase(card):
    words = _words(card.discuss)
    assert not [w for w in LEADING_EVERYWHERE if f" {w} " in words], card.discuss


def test_the_leading_word_check_sees_leading_words():
    # the old prompts, in short, fail the check above
    assert " ever " in _words("Can a list ever describe a person?")
    assert " didn't read " in _words("Is clicking on terms you didn't read consent?")
    assert " one company " in _words("Should one company's chips power AI?")
    assert " fun " not in _words("Is it funny?")


#: Asking a student for their own apps, feeds or accounts (the guide's "Card Discuss questions
#: that need care": talk about apps in general, never which ones a student uses).
_PERSONAL_LIST = re.compile(
    r"\b(their|your|students'?) own (feeds?|apps?|accounts?|history)\b|"
    r"\b(apps?|feeds?|services?|accounts?) (they|you) (use|follow|have)\b|"
    r"\blist (the|their|your) (apps?|feeds?|accounts?)\b|\b(compare|share|show) (their|your) (feeds?|apps?)\b",
    re.I)


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_no_card_asks_students_to_list_their_own_apps_or_feeds(card):
    for text in (card.discuss, card.learn_more):
        assert not _PERSONAL_LIST.search(text), f"{card.name}: {text}"


def test_the_personal_list_check_sees_the_old_notes():
    assert _PERSONAL_LIST.search("Have students compare their own feeds and ask what the app thinks.")
    assert _PERSONAL_LIST.search("Students can list the apps they use and decide, for each one.")
    assert not _PERSONAL_LIST.search("Students can sort made-up offers into fair trades and unfair ones.")


def test_recommender_and_privacy_notes_use_made_up_examples():
    pool = load_cards()
    assert "make up a viewer" in pool["Recommender"].learn_more
    assert "made-up offers" in pool["Data Privacy Trade-off"].learn_more
