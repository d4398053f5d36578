"""Lesson 12 and notebook 09 (issue 27) as files: they run top to bottom with nothing fetched from
the network, show the lesson's parts in order, and every figure the teacher's guide and the
notebook's text state is what the model computes."""

from __future__ import annotations

import re
import socket

import pytest
from notebooks import LESSONS, ROOT, code_cells, load, run_notebook

from tokens_edu.content.guide import teacher_guide_text
from tokens_edu.lab.language import NextWordModel, tokens
from tokens_edu.lab.sentences import demos, kit_sentences

LESSON = LESSONS / "12-finish-my-sentence.ipynb"
NOTEBOOK = ROOT / "notebooks" / "09-build-a-next-word-model.ipynb"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setenv("QUERY_STRING", "student=tester")


@pytest.fixture
def offline(monkeypatch):
    """Any connection to another machine fails the test (this machine's own addresses are fine)."""
    tried: list = []
    real = socket.socket.connect

    def connect(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("/"):
            tried.append(address)
            raise OSError(f"offline test: no connection to {address}")
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)  # socket.create_connection uses it too
    return tried


def guide_section(title: str) -> str:
    text = teacher_guide_text()
    m = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert m, title
    return " ".join(m.group(1).split())


@pytest.mark.slow
def test_the_lesson_runs_offline_and_shows_its_parts_in_order(offline):
    shown = run_notebook(LESSON)
    assert [type(x).__name__ for x in shown] == [
        "TokenView", "PredictionBox", "NextWordGuess", "ClassSentences", "PredictionBox", "WritingLab",
        "MadeUpDemo", "CopyDemo", "ExitQuestion", "DiscussBox"]
    assert offline == []
    lab = shown[2].lab
    assert lab.session.lesson == "12-finish-my-sentence" and lab.model.sentences == len(kit_sentences())
    source = "\n".join(code_cells(load(LESSON)))
    assert "lab = LanguageLab(session)" in source and "import" not in source.split("lab = LanguageLab")[1]


@pytest.mark.slow
def test_notebook_09_runs_offline_and_its_claims_hold(offline):
    shown = run_notebook(NOTEBOOK)
    assert offline == []
    from tokens_edu.widgets import DiscussBox

    assert isinstance(shown[-1], DiscussBox)
    shares = shown[-2].data  # the table of made-up shares (a pandas Styler of it)
    # looking further back makes fewer made-up sentences...
    assert list(shares.mean(axis=1)) == sorted(shares.mean(axis=1), reverse=True)
    assert shares.loc[1].min() > 0.8 and shares.loc[4].max() < 0.3
    # ...and with 1 or 2 tokens of context, more text makes more of them
    for context in (1, 2):
        assert shares.loc[context].iloc[-1] > shares.loc[context].iloc[0]
    guide = guide_section("Notebook 9: Build a next-word model (after Lesson 12)")
    n = len(kit_sentences())
    contexts = {tuple(tokens(s)[i:i + 2]) for s in kit_sentences() for i in range(len(tokens(s)) - 2)}
    assert f'"{n} of {n}" and "{len(contexts)} of {len(contexts)}"' in guide


def test_the_guides_figures_are_the_models():
    model = NextWordModel(2).learn(kit_sentences())
    guide = guide_section("Lesson 12: Finish my sentence")

    def said(context: str) -> str:
        counts = model.counts(context)
        return ", ".join(f"{t} {n}" for t, n in counts.items())

    assert said("a chatbot") == "can 2, is 2, answers 1, guesses 1, has 1"
    assert 'After "a chatbot": can 2, is 2, answers 1, guesses 1, has 1 (7 in all: "can" and "is" 29% each)' in guide
    assert model.counts("my dog") == {"likes": 2} and 'After "my dog": likes 2 (100%)' in guide
    like = model.counts("like to")
    assert like["play"] == 3 and sum(like.values()) == 11 and set(like) == {
        "play", "bake", "build", "draw", "listen", "read", "ride", "swim", "watch"}
    assert 'After "like to": play 3, and bake, build, draw, listen, read, ride, swim, watch 1 each (11 in all: play 27%)' in guide
    cap = model.counts("cap of")
    assert cap == {"3": 5, "1": 4, "4": 2, "2": 1, "5": 1, "the": 1}
    assert 'After "cap of": 3 five times, 1 four times, 4 twice, 2, 5 and "the" once each (14)' in guide
    assert tokens("Isn't AI fun?") == ["isn't", "ai", "fun", "?"] and "(isn't, ai, fun, ?)" in guide
    shown = demos()
    for demo in ("made_up", "made_up_card", "private"):
        assert f'"{shown[demo]["writes"]}' in guide, demo
    assert model.counts("breathe with") == {"gills": 1, "lungs": 1}
    assert model.counts("swim in") == {"salty": 2, "the": 1} and "(salty 2, the 1)" in guide


def test_the_lessons_figures_in_its_prose_are_the_models():
    prose = " ".join("".join(c["source"]) for c in load(LESSON)["cells"] if c["cell_type"] == "markdown")
    assert "about 300 short sentences" in prose and 250 <= len(kit_sentences()) <= 350
    assert 'Say "is" came 2 times out of 7. Then its chance is 2 in 7, or 29%.' in prose
    assert round(2 / 7 * 100) == 29
