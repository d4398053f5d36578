"""The teacher's guide (issue 10): one section per lesson with everything a teacher needs, in
step with the lessons and the cards, linked from the start page and shown by its own page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tokens_edu import load_cards
from tokens_edu.content.guide import GUIDE_PATH, teacher_guide, teacher_guide_text

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
GUIDE = teacher_guide_text()
LESSON_PAGES = sorted(p for p in LESSONS.glob("[0-9][0-9]-*.ipynb") if not p.name.startswith("00-"))
PARTS = ("**Objective", "**Rule and AI idea.**", "**Time:**", "**How to run it:**", "**Predictions:**",
         "**Discuss (", "**Exit ticket:**", "**Words to pre-teach:**", "**Paper-only:**")


def notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def lesson_title(path: Path) -> str:
    """The lesson's H1, e.g. "Lesson 8: How AI senses the world"."""
    first = "".join(notebook(path)["cells"][0]["source"])
    return re.match(r"#\s+(.+)", first).group(1).strip()


def section(title: str) -> str:
    """The guide's text under ``## <title>`` up to the next ``## `` heading."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", GUIDE, re.M | re.S)
    assert m, f"docs/teacher-guide.md has no section '## {title}'"
    return m.group(1)


def test_guide_is_in_docs():
    assert GUIDE_PATH == ROOT / "docs" / "teacher-guide.md" and GUIDE_PATH.is_file()


@pytest.mark.parametrize("path", LESSON_PAGES, ids=lambda p: p.stem)
def test_every_lesson_has_a_full_section(path):
    text = section(lesson_title(path))
    for part in PARTS:
        assert part in text, f"{path.stem}: the guide's section has no {part}"


def closing_discuss(path: Path):
    """(card, question) of the lesson's closing Discuss box: the card's own question, or the
    lesson's own question about the card's idea (``DiscussBox(card, journal, prompt="...")``)."""
    last = "".join(notebook(path)["cells"][-1]["source"])
    card = load_cards()[re.search(r'\["([^"]+)"\]', last).group(1)]
    own = re.search(r'prompt="([^"]+)"', last)
    return card, own.group(1) if own else card.discuss


@pytest.mark.parametrize("path", LESSON_PAGES, ids=lambda p: p.stem)
def test_guide_quotes_the_lessons_discuss_question(path):
    """The card of the lesson's closing Discuss box, with its question as the card file has it
    (or the lesson's own question)."""
    card, question = closing_discuss(path)
    text = section(lesson_title(path))
    assert f"**Discuss ({card.name}): \"{question}\"**" in " ".join(text.split()), (path.stem, question)


def test_lessons_discuss_different_cards_and_give_four_topics_a_slot():
    """Issue 19: eight of the nine closing questions once framed a risk, two lessons asked the
    same card's, and jobs, deepfakes, the environment and bias in data had no lesson. Now each
    of the twelve lessons asks about a different card, and each of those four topics has a lesson."""
    cards = [closing_discuss(path)[0].name for path in LESSON_PAGES]
    assert len(cards) == 12 and len(set(cards)) == 12, cards
    topics = {"jobs": {"Job Disruption", "AI Career Path"}, "deepfakes": {"Deepfake"},
              "the environment": {"Environmental Footprint", "Data Center", "GPU"},
              "bias in data": {"Bias in Data"}}
    for topic, names in topics.items():
        assert names & set(cards), f"no lesson's Discuss question is about {topic}: {cards}"


def test_guide_covers_setup_support_and_standards():
    for heading in ("Starting a class", "The lessons at a glance", "Support for every lesson",
                    "Standards", "Card Discuss questions that need care"):
        section(heading)
    for words in ("--pool-size", "?student=", "export_csv", "not passwords", "JupyterHub",
                  "English learners", "weaker readers", "safeguarding"):
        assert words in GUIDE, words
    for idea in ("Perception", "Representation and Reasoning", "Learning", "Natural Interaction",
                 "Societal Impact"):
        assert idea in section("Standards")
    for std in ("2-IC-20", "2-IC-21", "2-IC-22", "2-IC-23"):
        assert std in section("Standards")
    glance = section("The lessons at a glance")
    for path in LESSON_PAGES:
        assert f"| {int(path.name[:2])} " in glance, f"{path.stem} is not in the table"


def test_start_page_links_the_guide_and_the_guide_page_shows_it(monkeypatch):
    from notebooks import START_PAGE, run_notebook

    monkeypatch.setenv("QUERY_STRING", "student=Ana")
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    html = run_notebook(START_PAGE)[-1].value  # an ipywidgets HTML (links open in the same tab)
    assert 'href="teacher-guide.ipynb?student=Ana"' in html
    shown = run_notebook(LESSONS / "teacher-guide.ipynb")[-1]
    assert shown.data == GUIDE


def test_missing_guide_says_where_it_should_be(tmp_path):
    with pytest.raises(FileNotFoundError, match="teacher-guide.md"):
        teacher_guide_text(tmp_path / "nope.md")
    assert "is not at" in teacher_guide(tmp_path / "nope.md").data


def test_guide_covers_lessons_10_and_11_and_the_coding_notebooks():
    """Issue 19 part 8: lessons 10 and 11 (full sections, checked above), and each coding
    notebook with its objective, timing, answers to look for, a paper-only version and its
    AI4K12 Big Ideas; the lesson 11 figures the guide quotes are the ones students measure."""
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    text = section("The coding notebooks")
    for path in notebooks:
        title = "".join(notebook(path)["cells"][0]["source"]).splitlines()[0].lstrip("# ").strip()
        m = re.search(rf"^### Notebook {int(path.name[:2])}: {re.escape(title)}.*?(?=^### |\Z)", text, re.M | re.S)
        assert m, f"the guide has no section for notebook {path.name} ({title})"
        for part in ("**Objective:**", "**Time:**", "**Answers to look for:**", "**Paper-only:**", "**AI4K12:**"):
            assert part in m.group(0), (path.name, part)
    from tokens_edu.widgets import FairDataLab

    lab = FairDataLab()
    by = {a["group"]: a["right"] for a in lab.test()["accuracy"]}
    eleven = " ".join(section("Lesson 11: Fair data").split())
    assert (f"pen {by['Pen on a tablet']} of 30 right (100%), mouse {by['Mouse on a laptop']} of 30 (73%), "
            f"finger {by['Finger on a phone']} of 30 (67%)") in eleven
    assert "Concept checks" in GUIDE
