"""Each lesson's Discuss questions, as the dashboard finds them: from the notebooks' cell
metadata (``{"tokens_edu": {"discuss": "<card>"}}``), never from their code. Every Discuss cell
of every lesson carries it, and it names the card of the DiscussBox the cell really makes (the
lesson is run here, cell by cell)."""

from __future__ import annotations

import json

import pytest

from notebooks import LESSON_PAGES, load, run_notebook
from tokens_edu.teacher.lessons import DISCUSS_KEY, METADATA_KEY, lesson_prompts
from tokens_edu.widgets import DiscussBox


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setenv("QUERY_STRING", "student=tester")


@pytest.mark.parametrize("path", LESSON_PAGES, ids=lambda p: p.name)
def test_every_discuss_cell_names_the_card_it_asks_about(path, monkeypatch):
    made: list[str] = []
    init = DiscussBox.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self.card.name)

    monkeypatch.setattr(DiscussBox, "__init__", recording)
    seen = []

    def each(cell):
        said = cell.get("metadata", {}).get(METADATA_KEY, {}).get(DISCUSS_KEY)
        seen.append((said, list(made)))
        made.clear()

    run_notebook(path, each=each)
    asked = [cards for _, cards in seen if cards]
    assert asked, f"{path.name} makes no DiscussBox"
    for said, cards in seen:
        if cards:
            assert cards == [said], f"{path.name}: a cell makes {cards} but its metadata says {said!r}"
        else:
            assert said is None, f"{path.name}: a cell says it asks about {said!r} but makes no DiscussBox"
    # and the dashboard reads the same questions, in page order, under the lesson's name
    assert [c for lesson, c in lesson_prompts(path.parent) if lesson == path.stem] == \
        [cards[0] for _, cards in seen if cards]


def test_only_metadata_is_read(tmp_path):
    """A notebook whose code makes a DiscussBox but whose cell has no metadata adds no column;
    one with the metadata does, whatever its code says; broken files are skipped."""
    cell = {"cell_type": "code", "metadata": {}, "source": 'DiscussBox(cards["GPT"], journal)',
            "outputs": [], "execution_count": None}
    tagged = dict(cell, metadata={METADATA_KEY: {DISCUSS_KEY: "Deepfake"}}, source="x = 1")
    (tmp_path / "10-new.ipynb").write_text(json.dumps({"cells": [cell, tagged]}))
    (tmp_path / "11-broken.ipynb").write_text("{not json")
    (tmp_path / "12-odd.ipynb").write_text(json.dumps({"cells": [{"metadata": {METADATA_KEY: 3}}]}))
    assert lesson_prompts(tmp_path) == [("10-new", "Deepfake")]
    assert load(LESSON_PAGES[0])["cells"]  # the lessons themselves are plain JSON
