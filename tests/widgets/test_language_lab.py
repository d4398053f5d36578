"""Lesson 12's widgets driven from Python (issue 27): tokens, the guess before each reveal, the
class's sentences changing the counts, writing with the surprise control, and the two
demonstrations. Without a session (nothing saved): the saving is tested in test_language_saving.py."""

from __future__ import annotations

import re

import pytest

from tokens_edu.lab.language import NextWordModel, tokens
from tokens_edu.lab.sentences import demos, kit_sentences
from tokens_edu.widgets import LanguageLab
from tokens_edu.widgets import class_sentences, language_guess, language_write


@pytest.fixture
def lab() -> LanguageLab:
    return LanguageLab()


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_lab_learns_the_kits_sentences(lab):
    assert lab.model.sentences == len(kit_sentences()) and lab.model.context == 2
    assert lab.class_sentences == []


def test_tokens_show_as_numbered_boxes(lab):
    view = lab.tokens_view
    view.text_box.value = "Isn't AI fun?"
    assert 'aria-label="4 tokens: isn\'t, ai, fun, ?"' in view.chips.value.replace("&#x27;", "'")
    assert "4</strong> tokens" in view.chips.value
    view.text_box.value = "<b>hi</b>"
    assert "<b>" not in view.chips.value and "&lt;" in view.chips.value
    view.text_box.value = ""
    assert "No tokens yet" in view.chips.value


def test_the_counts_stay_hidden_until_a_guess(lab):
    guess = lab.guess_view
    guess.context_pick.value = "“a chatbot”"
    assert guess.context == ("a", "chatbot") and guess.result.value == ""
    assert not guess.reveal("")  # no guess: nothing shown
    assert "Type your guess first" in guess.message.value and guess.result.value == ""
    assert not guess.reveal("can is")
    assert "one token" in guess.message.value and guess.result.value == ""
    assert guess.reveal("is")
    shown = text_of(guess.result.value)
    # after "a chatbot": can 2, is 2, answers 1, guesses 1, has 1 (7 in all); "can" and "is" tie
    assert "What came after “a chatbot”: 7 times in all" in shown
    assert "You got it!" in shown and "(your guess)" in shown
    assert 'aria-label="is: 2 of 7 times, chance 29%"' in guess.result.value
    # another context hides the table until its own guess; the first comes back when picked again
    guess.context_pick.value = "“like to”"
    assert guess.result.value == "" and guess.guess_box.value == ""
    assert guess.reveal("sleep")
    assert "never came after these words" in text_of(guess.result.value)
    guess.guess_box.value = "answers"
    guess.context_pick.value = "“a chatbot”"
    assert guess.guess_box.value == "is" and "You got it!" in text_of(guess.result.value)
    guess.guess_box.value = "answers"
    assert guess.reveal()
    assert "“answers” came 1 of 7 times: a 14% chance" in text_of(guess.result.value)


def test_words_it_never_saw_together_back_off(lab):
    guess = lab.guess_view
    guess.context_pick.value = guess.OWN
    assert guess.own_context.layout.display == ""
    guess.own_context.value = ""
    assert not guess.reveal("x") and "Pick two words" in guess.message.value
    guess.own_context.value = "purple chatbot"
    assert guess.reveal("can")
    shown = text_of(guess.result.value)
    assert "never saw anything after “purple chatbot”. So it looks at fewer words: “chatbot”" in shown
    counts = lab.model.counts("chatbot")
    assert f"What came after “chatbot”: {sum(counts.values())} times in all" in shown


def test_a_shared_sentence_changes_the_counts_and_every_part(lab):
    share = lab.class_view
    guess = lab.guess_view
    guess.context_pick.value = "“like to”"
    guess.reveal("play")
    before = lab.model.counts("like to")
    assert before["play"] == 3 and "eat" not in before
    assert not share.share("I like to ")  # only the start: nothing to share
    assert "Write a sentence first" in share.message.value
    assert share.share("I like to eat pancakes.")
    assert lab.model.counts("like to")["eat"] == 1 and len(lab.class_sentences) == 1
    assert share.sentence_box.value == class_sentences.START
    assert "+1 new" in share.watch.value and "1 from your class" in text_of(share.watch.value)
    assert "eat" in text_of(guess.result.value)  # the guess step redrew with the new counts
    assert "I like to eat pancakes." in text_of(share.mine.value)
    share.share("I like to eat cake!")
    assert lab.model.counts("like to")["eat"] == 2 and "+2 new" in share.watch.value
    assert share.refresh() == 0 and "No new sentences yet" in share.message.value


def test_private_details_are_warned_about_before_sharing(lab):
    share = lab.class_view
    share.sentence_box.value = "I like to visit Sam at 12 Oak Street."
    assert not share.share()
    assert "Stop and check" in share.warning.value and 'role="alert"' in share.warning.value
    assert "person's name" in text_of(share.warning.value).replace("&#x27;", "'")
    assert "address" in share.warning.value and share.anyway_button.layout.display == ""
    assert lab.model.counts("like to").get("visit") is None  # not learned, not shared
    share.sentence_box.value = "I like to visit my friend."  # changed it: the warning goes
    assert share.pending is None and share.warning.value == "" and share.anyway_button.layout.display == "none"
    share.sentence_box.value = "I like to play with Sam."
    assert not share.share()
    assert share.share(anyway=True)  # the very sentence warned about
    assert lab.model.counts("like to")["play"] == 4
    assert not share.share("x" * 300) and "too long" in share.message.value


def test_the_dice_and_the_student_pick_with_the_chances_shown(lab):
    write = lab.write_view
    assert write.start == ["an", "ai"] and write.written == []
    assert not write.pick("zebra")  # not a choice now: nothing changes
    first = write.chances()
    assert sum(p for _, p in first) == pytest.approx(1)
    assert [b.description for b in write.picks.children] == [t for t, _ in first][:8]
    assert write.pick(first[0][0]) and write.written == [first[0][0]]
    assert "You picked" in write.message.value
    write.take_back()
    assert write.written == []
    rolled = [write.dice() for _ in range(3)]
    again = LanguageLab().write_view
    assert [again.dice() for _ in range(3)] == rolled  # the same seed, the same rolls
    assert "The dice picked" in write.message.value
    write.restart()
    assert write.written == [] and write.rolls == 3


def test_the_surprise_control_changes_the_chances_and_the_writing(lab):
    write = lab.write_view
    write.surprise.value = "Normal"
    normal = dict(write.chances())
    counted = lab.model.next_words(write.start)
    assert normal == dict(counted)
    table_normal = write.choices.value
    write.surprise.value = "Always the likeliest"
    assert max(write.chances(), key=lambda x: x[1])[1] == 1.0 and write.choices.value != table_normal
    five = write.write_five()
    assert len(five) == 5 and len(set(five)) == 1  # no surprise: the same sentence 5 times
    assert five[0] == lab.model.generate(write.start, 30, temperature=0).text
    write.surprise.value = "Wild"
    wild = dict(write.chances())
    assert max(wild.values()) - min(wild.values()) < max(normal.values()) - min(normal.values())
    assert len(set(write.write_five())) >= 3
    assert "Five sentences from “an ai” with the surprise “Wild”" in text_of(write.sentences.value)


def test_a_finished_sentence_says_copied_or_made_up(lab):
    write = lab.write_view
    write.start_box.value = "Owls hunt"
    write.surprise.value = "Always the likeliest"
    while not write.finished:
        assert write.dice()
    assert write.written == ["at", "night", "."]
    assert "Copied!" in write.done.value
    assert not write.pick(".") and "The sentence is done" in write.message.value
    write.start_box.value = "Whales swim"
    while not write.finished:
        write.dice()
    assert "Made up!" in write.done.value and "It joined 2 pieces" in write.done.value
    assert "sharks swim in salty seas and breathe with gills." in write.done.value
    write.start_box.value = ""
    assert write.dice() is None and "Type the start" in write.message.value


def test_the_made_up_demo_asks_for_the_seam(lab):
    demo = lab.made_up_view
    shown = demos()["made_up"]
    assert demo.write() == shown["writes"]
    assert demo.seam == shown["seam"] == "gills"
    assert "gills" in demo.seam_pick.options and "." not in demo.seam_pick.options
    assert not demo.check() and "Pick a word first" in demo.message.value and demo.result.value == ""
    assert not demo.check("salty") and "Not quite" in demo.message.value
    assert demo.check("gills") and "You found it!" in demo.message.value
    assert "whales swim in salty seas and breathe with lungs." in demo.result.value
    assert demo.card_example() == demos()["made_up_card"]["writes"]
    assert "Chatbot has a CAP of 1." in demo.card_result.value


def test_the_demos_do_not_change_with_the_class(lab):
    lab.class_view.share("Whales swim in the sea.")
    lab.class_view.share("Whales swim in the sea.")
    assert lab.model.counts("swim in")["the"] == 3
    assert lab.made_up_view.write() == demos()["made_up"]["writes"]


def test_the_copy_demo_repeats_the_private_sentence(lab):
    text = lab.copy_view.write()
    assert text == demos()["private"]["writes"]
    shown = lab.copy_view.shown.value
    assert shown.count(">100%</span>") == len(tokens(text)) - 1  # every token after the name
    assert "even at the wildest surprise" in shown


def test_a_failing_click_says_so_plainly(lab, monkeypatch):
    def broken(*_a, **_k):
        raise RuntimeError("boom")

    monkeypatch.setattr(lab.model, "generate", broken)
    lab.write_view.dice_button.click()  # on Voila an error in a callback shows nowhere: a line does
    assert "Sorry, that did not work" in lab.write_view.message.value and "boom" not in lab.write_view.message.value


def test_a_hidden_sentence_leaves_the_model(lab):
    lab.relearn([{"id": "a", "text": "I like to hop."}, {"id": "b", "text": "I like to skip."}])
    assert lab.model.counts("like to")["hop"] == 1
    lab.relearn([{"id": "b", "text": "I like to skip."}])  # the teacher hid "a"
    assert "hop" not in lab.model.counts("like to") and lab.model.counts("like to")["skip"] == 1


def test_every_message_is_plain(lab):
    for messages in (language_guess.MESSAGES, language_write.MESSAGES, class_sentences.MESSAGES):
        for text in messages.values():
            assert "\n" not in text and "Error" not in text and "Traceback" not in text
    assert isinstance(lab.model, NextWordModel)
