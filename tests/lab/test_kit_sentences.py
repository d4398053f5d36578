"""The kit's sentences for lesson 12 (issue 27): true about the cards, easy to read, and they make
the lesson's demonstrations happen; and the private-details check on a student's sentence."""

from __future__ import annotations

import re

import pytest
from readability import grade, without_card_names

from tokens_edu import load_cards
from tokens_edu.lab.language import NextWordModel, tokens
from tokens_edu.lab.sentences import GROUPS, WARNINGS, demos, kit_sentences, personal_details

SENTENCES = kit_sentences()
#: The game's keywords are printed on cards, like card names: measured as one short word.
KEYWORDS = re.compile(r"Adversarial|Fast-Tracked|Highly Trusted|Deprecated")


@pytest.fixture(scope="module")
def model() -> NextWordModel:
    return NextWordModel(context=2).learn(SENTENCES)


def test_a_few_hundred_short_sentences_each_once():
    assert 250 <= len(SENTENCES) <= 400
    assert len(set(s.lower() for s in SENTENCES)) == len(SENTENCES), "a sentence is there twice"
    for s in SENTENCES:
        assert s[0].isupper() and s[-1] in ".!?" and len(tokens(s)) <= 16, s
    assert sum(len(kit_sentences((g,))) for g in GROUPS) == len(SENTENCES)
    assert sum(s.startswith("I like to") for s in SENTENCES) >= 8  # the class writes more of these


def test_every_number_about_a_card_is_the_cards():
    cards = load_cards()
    checked = 0
    patterns = {r"^(.+) costs (\d) Data\.$": "cost", r"^(.+) has a CAP of (\d)\.$": "cap",
                r"^(.+) has a TRU of (\d)\.$": "tru", r"^(.+) scores (\d) Tokens?\.$": "tokens"}
    for s in SENTENCES:
        for pattern, field in patterns.items():
            m = re.match(pattern, s)
            if m:
                assert getattr(cards[m.group(1)], field) == int(m.group(2)), s
                checked += 1
    assert checked >= 40
    for s in kit_sentences(("cards",)):  # "Python is a Tool." and the colors
        m = re.match(r"^(.+) is an? (System|Tool|Action|black card|blue card|green card|red card|white card)\.$", s)
        if m:
            card, what = cards[m.group(1)], m.group(2)
            assert what in (card.type, f"{card.color} card"), s
            checked += 1
    assert checked >= 50


def test_the_sentences_read_easily():
    scored = [(grade(KEYWORDS.sub("card", without_card_names(s))), s) for s in SENTENCES]
    worst = max(scored)
    assert worst[0] <= 7, worst
    assert grade(" ".join(KEYWORDS.sub("card", without_card_names(s)) for s in SENTENCES)) <= 4


def test_the_lessons_demonstrations_happen(model):
    shown = demos()
    stitched = shown["made_up"]
    writing = model.generate(stitched["prompt"], 30, temperature=0)
    assert writing.text == stitched["writes"]
    assert all(s in SENTENCES for s in stitched["from"])
    assert not model.knows(writing.text)  # made up: it is none of the sentences it read
    card = shown["made_up_card"]
    written = model.generate(card["prompt"], 30, temperature=0).text
    assert written == card["writes"] and card["fact"] in SENTENCES and written != card["fact"].lower()
    private = shown["private"]
    assert model.knows(private["writes"])
    for temperature in (0, 1, 3):  # word for word, whatever the surprise: one choice at each step
        for seed in range(5):
            copy = model.generate(private["prompt"], 30, temperature=temperature, seed=seed)
            assert copy.text == private["writes"] and all(step.probability == 1 for step in copy)


def test_unknown_groups_are_named():
    with pytest.raises(ValueError, match="the groups are game"):
        kit_sentences(("jokes",))


@pytest.mark.parametrize("text,kinds", [
    ("I like to play with Sam.", ["name"]),
    ("my name is leo", ["name"]),
    ("I live at 42 Oak Street.", ["address"]),
    ("I live at number 5 by the shop.", ["address"]),
    ("Call me on 07700 900123 tonight.", ["phone"]),
    ("Phone (555) 010-2030 now", ["phone"]),
    ("Email me at kid@example.com", ["email"]),
    ("Zara Quill lives at 12 Mossy Lane and her number is 555-0192.", ["name", "address", "phone"]),
    ("I like Neural Network and Chatbot cards.", []),
    ("On Monday we play Tokens with the Large Language Model.", []),
    ("I scored 2 goals in 2023.", []),
    ("It costs 3 Data and scores 12 Tokens.", []),
    ("My dog likes to chase the ball.", []),
])
def test_private_details_get_a_plain_warning(text, kinds):
    said = personal_details(text)
    starts = {k: WARNINGS[k].split("{")[0] for k in WARNINGS}
    assert [k for k in WARNINGS if any(w.startswith(starts[k]) for w in said)] == kinds
    assert len(said) == len(kinds)
