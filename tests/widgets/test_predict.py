"""The prediction box (issue 10): the answer is in no widget state until "Check my prediction".

Voila sends every widget's state to the page when the lesson loads; an answer that is in any
state (or any output) is on the page before the student guessed. These tests read the state of
every widget the box is made of, as the browser would get it, before and after the check, and
check the same for every prediction in every lesson.
"""

from __future__ import annotations

import html
import json

import ipywidgets as widgets
import pytest

from tokens_edu.widgets import PredictionBox
from tokens_edu.widgets.predict import MESSAGES

# every live widget by model id (ipywidgets 8 keeps them here)
_INSTANCES = widgets.widgets.widget._instances

ANSWER = "Explainability takes 4 Flags and is Deprecated; the secret word is zebrafish."


def page_state(root: widgets.Widget) -> str:
    """Every synced trait of ``root`` and the widgets inside it, as the page receives them."""
    seen, todo, states = set(), [root], []
    while todo:
        w = todo.pop()
        if w.model_id in seen:
            continue
        seen.add(w.model_id)
        state = w.get_state()
        states.append(state)
        for value in state.values():
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, str) and item.startswith("IPY_MODEL_"):
                    todo.append(_INSTANCES[item[len("IPY_MODEL_"):]])
        todo += [c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget)]
    return json.dumps(states, default=str)


def test_answer_and_correct_choice_hidden_until_checked():
    box = PredictionBox("What happens?", ANSWER, choices=["Deprecated", "Survives"],
                        correct="Deprecated")
    before = page_state(box)
    assert "zebrafish" not in before and "takes 4 Flags" not in before
    assert "You got it" not in before and "Not this time" not in before  # nothing says which is right
    assert "Check my prediction" in before and "What happens?" in before
    assert not box.revealed and box.result.value == ""

    box.choice_buttons.value = "Deprecated"
    box.check_button.click()
    after = page_state(box)
    assert "zebrafish" in after and "You got it!" in after
    assert "Deprecated" in box.result.value
    assert box.revealed and box.choice_buttons.disabled and box.check_button.disabled


def test_wrong_guess_is_told_kindly_and_kept_on_the_page():
    box = PredictionBox("What happens?", ANSWER, choices=["Deprecated", "Survives"],
                        correct="Deprecated")
    box.choice_buttons.value = "Survives"
    assert box.check()
    assert html.escape(MESSAGES["wrong"]) in box.result.value and "Survives" in box.result.value


def test_no_guess_no_answer():
    box = PredictionBox("How many Flags?", ANSWER)
    assert box.guess_box is not None and box.choice_buttons is None
    box.check_button.click()
    assert "zebrafish" not in page_state(box) and not box.revealed
    assert MESSAGES["type"] in box.result.value
    box.guess_box.value = "   "
    assert not box.check()
    box.guess_box.value = "four"
    assert box.check() and "zebrafish" in box.result.value and "four" in box.result.value
    assert box.guess_box.disabled


def test_answer_text_is_escaped():
    box = PredictionBox("<b>Q</b>?", "<script>alert(1)</script>\n\nSecond part.")
    assert "<b>Q</b>" not in box.question_html.value
    box.guess_box.value = "<i>x</i>"
    box.check()
    assert "<script>" not in box.result.value and "&lt;script&gt;" in box.result.value
    assert "<i>x</i>" not in box.result.value
    assert box.result.value.count("<p") >= 3  # guess line + two paragraphs


@pytest.mark.parametrize("kwargs,words", [
    (dict(question=" ", answer="a"), "question"),
    (dict(question="q", answer=""), "answer"),
    (dict(question="q", answer="a", choices=["one"]), "two or more"),
    (dict(question="q", answer="a", choices=["x", "x"]), "two or more"),
    (dict(question="q", answer="a", choices=["x", "y"], correct="z"), "not one of the choices"),
])
def test_bad_arguments_say_what_is_wrong(kwargs, words):
    with pytest.raises(ValueError, match=words):
        PredictionBox(**kwargs)


def test_a_failing_check_says_so_in_plain_words(monkeypatch):
    box = PredictionBox("q", "a", choices=["x", "y"])
    box.choice_buttons.value = "x"
    monkeypatch.setattr(box, "check", lambda: 1 / 0)
    box.check_button.click()
    assert MESSAGES["error"] in box.result.value


# -- the lessons' predictions ---------------------------------------------------------------
def _prediction_boxes(shown) -> list:
    """Every PredictionBox among the widgets a lesson displayed, also inside others (a box's
    children, or lesson 4's PuzzlePicker, which shows each puzzle's prediction beside it)."""
    found, seen = [], set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        if isinstance(x, PredictionBox):
            found.append(x)
            return
        beside = getattr(x, "predictions", None)
        for child in [*(getattr(x, "children", ()) or ()), *(beside.values() if isinstance(beside, dict) else ())]:
            walk(child)

    for x in shown:
        walk(x)
    return found


def lesson_boxes():
    """(lesson name, every PredictionBox the lesson shows), lessons run in this process."""
    from notebooks import LESSON_PAGES, run_notebook

    return [(p.stem, _prediction_boxes(run_notebook(p))) for p in LESSON_PAGES]


@pytest.fixture(scope="module")
def boxes(tmp_path_factory):
    import os

    old = {k: os.environ.get(k) for k in ("TOKENS_EDU_DATA", "QUERY_STRING")}
    os.environ["TOKENS_EDU_DATA"] = str(tmp_path_factory.mktemp("predict-data"))
    os.environ["QUERY_STRING"] = "student=tester"
    try:
        yield lesson_boxes()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_every_lesson_asks_for_a_prediction_before_the_answer(boxes):
    """Each lesson's "game vs real AI" moment has at least one prediction; no answer is on the
    page (prose or widget state) before its check; each check shows it."""
    import json as json_lib
    from pathlib import Path

    for lesson, found in boxes:
        assert found, f"{lesson} asks for no prediction"
        nb = json_lib.loads((Path(__file__).resolve().parents[2] / "lessons" / f"{lesson}.ipynb").read_text())
        prose = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        for box in found:
            sentences = box._answer.split(". ")
            first = sentences[0] if len(sentences[0].split()) >= 4 else ". ".join(sentences[:2])
            assert first not in prose, f"{lesson}: the answer {first!r} is in the lesson's prose"
            assert first not in page_state(box), f"{lesson}: the answer is in the page before the check"
            if box.choice_buttons is not None:
                box.choice_buttons.value = box.choice_buttons.options[0]
            else:
                box.guess_box.value = "my guess"
            box.check_button.click()
            assert box.revealed and first.replace("'", "&#x27;") in box.result.value


def test_prediction_texts_read_at_grade_6_or_below(boxes):
    from readability import PROSE_GRADE, grade, report, without_card_names

    scored = []
    for lesson, found in boxes:
        for box in found:
            question = html.unescape(box.question_html.value.split("</strong>", 1)[1].split("</p>")[0])
            for where, text in (("question", question), ("answer", box._answer)):
                scored.append((grade(without_card_names(text)), f"{lesson} {where}", text))
    over = report("Prediction questions and answers (card names counted as one word)", scored, PROSE_GRADE)
    assert not over, over


# -- the deck checker (lesson 9) --------------------------------------------------------------
def test_deck_check_says_every_problem_then_ready():
    from tokens_edu.widgets import DeckCheck
    from tokens_edu.widgets.deck_check import EXAMPLE_DECK

    box = DeckCheck()
    assert box.result.value == ""  # nothing said before the check
    assert not box.check() and "24 cards (at least 25)" in box.result.value
    box.text_box.value = EXAMPLE_DECK + "3x Sensor\n"
    assert not box.check()
    assert "3 copies of Sensor" in box.result.value and "3 colors" in box.result.value
    box.text_box.value = EXAMPLE_DECK + "Chatbt\n"
    assert not box.check() and "Did you mean Chatbot?" in box.result.value and box.deck is None
    box.text_box.value = "   "
    assert not box.check() and "empty" in box.result.value
    box.text_box.value = EXAMPLE_DECK + "AI Isn't Magic\n"  # a card of no color fits any deck
    box.check_button.click()
    assert "Ready to play!" in box.result.value and "25 cards, green and blue" in box.result.value
    assert len(box.deck) == 25
    box.text_box.value = "<b>x</b>"
    box.check()
    assert "<b>" not in box.result.value
