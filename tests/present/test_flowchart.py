"""Lesson 5's flowchart of the computer player (issue 30 part 4): a picture (SVG), not text art."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tokens_edu.present.charts import GREEDY_STEPS, flowchart_svg

SVG = "{http://www.w3.org/2000/svg}"
LESSON_5 = Path(__file__).resolve().parents[2] / "lessons" / "05-play-the-computer.ipynb"


def test_the_flowchart_draws_every_question_and_answer_and_reads_them_out():
    html = flowchart_svg()
    root = ET.fromstring(html)
    svg = root.find(f"{SVG}svg")
    assert svg is not None and svg.get("role") == "img"
    said = svg.get("aria-label")
    texts = " ".join(" ".join(t.itertext()) for t in svg.iter(f"{SVG}text"))
    for question, action in GREEDY_STEPS:
        assert question in said and action in said  # a screen reader hears every step
        for word in (question + " " + action).split():
            assert word in texts  # and every word is drawn
    assert said.endswith("End my turn.") and "End my turn." in texts
    assert texts.count("yes") == len(GREEDY_STEPS) and texts.count("no") >= len(GREEDY_STEPS)
    assert all(float(t.get("font-size")) >= 15 for t in svg.iter(f"{SVG}text"))  # never shrunk: it scrolls
    assert "max-width:none" in svg.get("style") and root.get("tabindex") == "0"


def test_text_is_escaped_and_empty_steps_are_refused():
    html = flowchart_svg([("Is 1 < 2 & \"yes\"?", "<script>")], last="Stop.", title="<b>")
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>" not in html
    ET.fromstring(html)  # well-formed
    with pytest.raises(ValueError):
        flowchart_svg([])


def test_lesson_5_draws_the_bots_flowchart_as_a_picture():
    nb = json.loads(LESSON_5.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    prose = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert any("flowchart_svg(GREEDY_STEPS" in c for c in code)
    assert not any("-- yes -->" in p for p in prose)  # the old text art is gone
