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
