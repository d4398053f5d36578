"""The next-word model of lesson 12 (issue 27): its counts and chances, exactly, on a small corpus
whose every number is worked out by hand below.

The corpus (27 tokens in 4 sentences)::

    the cat sat on the mat .          (7 tokens)
    the cat ate the fish .            (6)
    the dog sat on the log .          (7)
    a dog is a good friend !          (7)

After "the": cat 2, dog 1, fish 1, log 1, mat 1 (6 in all). After "the cat": ate 1, sat 1. After
"sat on": the 2. Every token: the 6, . 3, a 2, cat 2, dog 2, on 2, sat 2, and 1 each for
!, ate, fish, friend, good, is, log, mat (27 in all).
"""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import pytest

import tokens_edu
from tokens_edu.lab import language
from tokens_edu.lab.language import NextWordModel, join_tokens, tokens

CORPUS = [
    "The cat sat on the mat.",
    "The cat ate the fish.",
    "The dog sat on the log.",
    "A dog is a good friend!",
]


@pytest.fixture
def model() -> NextWordModel:
    return NextWordModel(context=2).learn(CORPUS)


def one_line(error: pytest.ExceptionInfo) -> str:
    text = str(error.value)
    assert text and "\n" not in text and "Traceback" not in text
    return text


# -- tokens -----------------------------------------------------------------------------------
def test_tokens_are_lower_case_words_and_punctuation_marks():
    assert tokens("The cat's hat, RED!") == ["the", "cat's", "hat", ",", "red", "!"]
    assert tokens("Fine-tuning isn\u2019t magic...") == ["fine-tuning", "isn't", "magic", ".", ".", "."]
    assert tokens("  ") == [] and tokens("Costs 3 Data?") == ["costs", "3", "data", "?"]
    assert NextWordModel.tokens("Hi there.") == ["hi", "there", "."]  # the same tokenizer
    assert join_tokens(["the", "sun", ",", "a", "star", "."]) == "the sun, a star."
    with pytest.raises(TypeError) as e:
        tokens(42)
    one_line(e)


# -- counts -----------------------------------------------------------------------------------
def test_counts_are_the_tables_worked_out_by_hand(model):
    assert model.sentences == 4 and model.token_count == 27
    assert model.counts("the") == {"cat": 2, "dog": 1, "fish": 1, "log": 1, "mat": 1}
    assert list(model.counts("the")) == ["cat", "dog", "fish", "log", "mat"]  # most first, ties a-z
    assert model.counts(("the", "cat")) == {"ate": 1, "sat": 1}
    assert model.counts("sat on") == {"the": 2}
    assert model.counts(["on", "the"]) == {"log": 1, "mat": 1}
    assert model.counts("is a") == {"good": 1}
    every = model.counts(())
    assert every == model.counts("")
    assert sum(every.values()) == 27
    assert list(every.items())[:2] == [("the", 6), (".", 3)]
    assert every["a"] == every["cat"] == every["on"] == 2 and every["friend"] == 1


def test_a_context_never_runs_into_the_next_sentence(model):
    assert model.counts(("mat", ".")) == {} and model.counts(".") == {}
    assert model.counts(("fish", ".")) == {}
    assert model.counts("dog") == {"is": 1, "sat": 1}  # "dog" starts sentence 4 after sentence 3's "."


def test_overlapping_places_are_all_counted():
    m = NextWordModel(context=2).learn(["a a a a ."])
    assert m.counts("a a") == {"a": 2, ".": 1}
    assert m.counts("a") == {"a": 3, ".": 1}


def test_learning_more_adds_to_the_counts(model):
    model.learn("The cat ran.")  # one string is one sentence
    assert model.counts("the cat") == {"ate": 1, "ran": 1, "sat": 1}
    assert model.counts("the")["cat"] == 3 and model.sentences == 5
    model.learn(["", "   "])  # nothing to learn
    assert model.sentences == 5


# -- next_words ------------------------------------------------------------------------------
def test_next_words_are_the_counts_over_their_total(model):
    guess = model.next_words("I saw the")
    assert guess == [("cat", 2 / 6), ("dog", 1 / 6), ("fish", 1 / 6), ("log", 1 / 6), ("mat", 1 / 6)]
    assert guess.context == ("saw", "the")[1:] and model.last_context == ("the",)
    assert guess.wanted == ("saw", "the") and guess.backed_off and "saw the" in guess.note
    assert guess.total == 6 and guess.counts["cat"] == 2
    assert math.fsum(p for _, p in guess) == 1
    # the chances are exactly count / total
    assert all(Fraction(p).limit_denominator(100) == Fraction(guess.counts[t], 6) for t, p in guess)

    both = model.next_words("the cat")
    assert both == [("ate", 0.5), ("sat", 0.5)] and both.context == ("the", "cat") and not both.backed_off
    assert both.note == ""
    assert model.next_words("They sat on") == [("the", 1.0)]
    assert model.next_words("the", k=2) == [("cat", 2 / 6), ("dog", 1 / 6)]


def test_it_backs_off_to_one_token_then_to_every_token(model):
    guess = model.next_words("my cat")  # never "my cat": back to "cat"
    assert guess.context == ("cat",) and guess == [("ate", 0.5), ("sat", 0.5)]
    assert guess.note == "It never saw anything after 'my cat', so it backs off to the last token: 'cat'."
    unknown = model.next_words("zebra stripes")
    assert unknown.context == () and model.last_context == ()
    assert unknown[0] == ("the", 6 / 27) and unknown[1] == (".", 3 / 27) and len(unknown) == 15
    assert "never saw 'zebra stripes'" in unknown.note and "backs off" in unknown.note
    end = model.next_words("on the mat.")  # nothing ever comes after a sentence's end
    assert end.context == () and "never saw anything after 'mat.'" in end.note
    assert model.next_words("").context == () and model.next_words("").note == ""


def test_a_longer_context_looks_further_back():
    m = NextWordModel(context=3).learn(["I like red apples .", "You like red cars ."])
    assert m.next_words("I like red") == [("apples", 1.0)]
    assert NextWordModel(context=1).learn(["I like red apples .", "You like red cars ."]) \
        .next_words("I like red") == [("apples", 0.5), ("cars", 0.5)]
    with pytest.raises(ValueError) as e:
        NextWordModel(context=2).learn(["a b c"]).counts("a b c")
    assert "2 tokens at most" in one_line(e)


def test_knows_the_sentences_it_learned_word_for_word(model):
    assert model.knows("the cat ate the fish.") and model.knows(["a", "dog", "is", "a", "good", "friend", "!"])
    assert not model.knows("the cat ate the fish") and not model.knows("the cat sat on the log.")
    assert not model.knows("")


# -- generate ----------------------------------------------------------------------------------
def test_temperature_zero_takes_the_likeliest_ties_alphabetical(model):
    writing = model.generate("the cat", 10, temperature=0)
    # "the cat" -> ate|sat (a tie: ate), "cat ate" -> the, "ate the" -> fish, "the fish" -> "."
    assert writing.tokens == ["ate", "the", "fish", "."] and writing.text == "the cat ate the fish."
    first = writing[0]
    assert first.token == "ate" and first.probability == 1.0 and first.counted == 0.5
    assert first.candidates == (("ate", 1.0), ("sat", 0.0)) and first.context == ("the", "cat")
    assert model.generate("the cat", 10, temperature=0, seed=1).tokens == writing.tokens


def test_the_same_seed_writes_the_same_text(model):
    texts = {seed: model.generate("the", 12, temperature=1.0, seed=seed).text for seed in range(12)}
    assert all(model.generate("the", 12, temperature=1.0, seed=s).text == t for s, t in texts.items())
    assert len(set(texts.values())) > 2  # different seeds, different writing
    for seed in range(12):
        for step in model.generate("the", 12, seed=seed):
            assert step.probability == step.counted  # temperature 1: the counted chances
            assert dict(step.candidates)[step.token] == step.probability > 0
            assert math.isclose(math.fsum(p for _, p in step.candidates), 1)


def test_temperature_reshapes_the_chances_exactly(model):
    guess = model.next_words("the")  # cat 2, and 1 each for dog fish log mat
    cold = NextWordModel.reshape(guess, 0.5)  # (c / 2) ** 2: 1 and 1/4 each, total 2
    assert cold[0] == ("cat", 1 / 2) and all(p == 1 / 8 for _, p in cold[1:])
    hot = NextWordModel.reshape(guess, 2)  # (c / 2) ** 0.5: 1 and sqrt(1/2) each
    total = 1 + 4 * math.sqrt(0.5)
    assert math.isclose(hot[0][1], 1 / total) and math.isclose(hot[1][1], math.sqrt(0.5) / total)
    wild = NextWordModel.reshape(guess, 1000)
    assert max(p for _, p in wild) - min(p for _, p in wild) < 0.001  # nearly even
    assert NextWordModel.reshape(guess, 1) == list(guess)
    assert NextWordModel.reshape([("b", 0.5), ("a", 0.5)], 0) == [("a", 1.0), ("b", 0.0)]
    assert NextWordModel.reshape(guess, 1e-9)[0] == ("cat", 1.0)  # tiny temperature: no overflow


def test_writing_stops_at_the_end_of_a_sentence_or_after_n_tokens(model):
    assert len(model.generate("the", 2, seed=3)) == 2
    assert model.generate("the", 0).tokens == []
    for seed in range(10):
        words = model.generate("a", 50, seed=seed).tokens
        assert words[-1] in language.END_MARKS and not set(words[:-1]) & language.END_MARKS
    assert len(model.generate("the", 30, seed=1, stop=False)) == 30


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("context", [0, -1, 1.5, "2", True, None])
def test_a_context_below_one_or_not_whole_is_refused(context):
    with pytest.raises(ValueError) as e:
        NextWordModel(context=context)
    assert "context" in one_line(e)


def test_an_empty_model_says_it_has_learned_nothing():
    empty = NextWordModel()
    for ask in (lambda: empty.next_words("the cat"), lambda: empty.generate("the", 3)):
        with pytest.raises(LookupError) as e:
            ask()
        assert "not learned any sentences yet" in one_line(e)
    assert empty.counts("the cat") == {}


@pytest.mark.parametrize("temperature", [-0.1, -5, float("nan"), float("inf"), "hot", None])
def test_a_negative_or_silly_temperature_is_refused(model, temperature):
    with pytest.raises(ValueError) as e:
        model.generate("the", 3, temperature=temperature)
    assert "temperature" in one_line(e)
    with pytest.raises(ValueError):
        NextWordModel.reshape(model.next_words("the"), temperature)


def test_other_bad_input_gets_one_plain_line(model):
    for bad, error in ((lambda: model.learn(["ok.", 3]), TypeError), (lambda: model.counts(3), TypeError),
                       (lambda: model.next_words("the", k=0), ValueError),
                       (lambda: model.generate("the", -1), ValueError)):
        with pytest.raises(error) as e:
            bad()
        one_line(e)
    assert model.sentences == 4  # the refused learn() learned nothing


# -- the public names ------------------------------------------------------------------------------
def test_the_model_is_a_public_name_and_its_examples_run():
    assert tokens_edu.NextWordModel is NextWordModel
    assert "NextWordModel" in dir(tokens_edu) or hasattr(tokens_edu, "NextWordModel")
    result = doctest.testmod(language)
    assert result.attempted >= 5 and result.failed == 0


def test_pieces_show_where_each_part_came_from(model):
    from tokens_edu.lab.language import Piece

    stitched = model.pieces("The cat sat on the log.")  # made up from sentences 1 and 3
    assert stitched == [Piece(0, ("the", "cat", "sat", "on", "the"), "the cat sat on the mat."),
                        Piece(3, ("on", "the", "log", "."), "the dog sat on the log.")]
    assert stitched[0].end == 5  # the seam: "log", the first token the first piece did not cover
    assert model.pieces("A dog is a good friend!") == [
        Piece(0, ("a", "dog", "is", "a", "good", "friend", "!"), "a dog is a good friend!")]
    unknown = model.pieces("my cat ate")
    assert unknown == [Piece(0, ("my",), None), Piece(1, ("cat", "ate"), "the cat ate the fish.")]
    # three pieces: "dog sat" overlaps the first by one token ("a dog" never came before "sat")
    assert model.pieces("A dog sat on the mat.") == [
        Piece(0, ("a", "dog"), "a dog is a good friend!"), Piece(1, ("dog", "sat", "on", "the"), "the dog sat on the log."),
        Piece(3, ("on", "the", "mat", "."), "the cat sat on the mat.")]
    # "fish sat" and "sat" after "fish" never seen: no overlap
    assert model.pieces("the fish sat on") == [Piece(0, ("the", "fish"), "the cat ate the fish."),
                                                Piece(2, ("sat", "on"), "the cat sat on the mat.")]
