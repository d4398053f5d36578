"""Readability of everything a student reads (issue 10): card texts, lesson prose, messages.

Measured with the Flesch-Kincaid grade of textstat 0.7.4 (it counts syllables offline; later
releases download a word list at run time). The limits:

* card Definitions and Discuss questions: grade 7 or below, each one;
* lesson prose (each markdown cell of each lesson) and the messages a student sees (a refusal
  from "Why can't I?", the Discuss box's notes and errors, the gallery's, the prediction box's):
  grade 6 or below, each one.

A message is measured with every card name replaced by the word "card": a card's name is the
game's own (students read it on the card), and the test is about the words we choose around it.
Card texts and lesson prose are measured exactly as written.

Each test prints its worst items (run with ``-s`` to see them even when it passes), so a writer
knows which sentence to shorten. The student-facing text also must not contain a rule number
(R7...) or a word from :data:`UNDEFINED_WORDS` (jargon we never define for students).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tokens_edu import Game
from readability import CARDS, CARD_GRADE, MESSAGE_GRADE, PROSE_GRADE, UNDEFINED_WORDS, _CARD_NAMES, grade, report, without_card_names  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
SCENARIOS = LESSONS / "scenarios"


_ITEM = re.compile(r"^\s*([-*]|\d+\.)\s+")


def markdown_to_sentences(md: str) -> str:
    """Plain text of a markdown cell for measuring: each heading, list item and table row is its
    own sentence (a full stop is added when it has none); emphasis, code marks and link targets
    are dropped; lines of one paragraph are joined."""
    out: list[str] = []
    # a fenced block (a flowchart): each line with words is one sentence, arrows dropped
    for block in re.findall(r"```.*?\n(.*?)```", md, re.S):
        for line in block.splitlines():
            words = re.sub(r"[-|<>=]+", " ", line).split()
            if words:
                out.append(" ".join(words).rstrip(".") + ".")
    md = re.sub(r"```.*?```", "", md, flags=re.S)
    for para in re.split(r"\n\s*\n", md):
        units: list[str] = []
        for raw in para.splitlines():
            line = raw.strip()
            if not line or re.fullmatch(r"\|?[-:| ]+\|?", line):
                continue
            starts_unit = bool(line.startswith(("#", "|")) or _ITEM.match(line)) or not units
            if line.startswith("|"):
                line = ": ".join(c.strip() for c in line.strip("|").split("|") if c.strip())
            line = re.sub(r"^#+\s*", "", line)
            line = _ITEM.sub("", line)
            line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
            line = line.replace("**", "").replace("`", "").replace("*", "").replace("_", " ")
            if starts_unit:
                units.append(line)
            else:
                units[-1] += " " + line
        out += [u if re.search(r"[.!?]$", u) else u.rstrip(":") + "." for u in units if u]
    return " ".join(out)


def lesson_pages() -> list[Path]:
    return sorted(LESSONS.glob("*.ipynb"))


def prose_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


# -- the measuring helpers ------------------------------------------------------------------
def test_grade_tells_easy_from_hard_text():
    easy = "The cat sat on the mat. It was a big cat."
    hard = ("Notwithstanding considerable methodological heterogeneity, contemporary "
            "computational architectures demonstrate remarkable generalization capabilities.")
    assert grade(easy) < 3 < 12 < grade(hard)


def test_markdown_is_measured_as_sentences():
    md = "## A title\n\n- one item\n- **two** items\n\n| Type | Does |\n|---|---|\n| Tool | stays |"
    assert markdown_to_sentences(md) == "A title. one item. two items. Type: Does. Tool: stays."
    flow = "Before.\n\n```\nCan I?  -- yes -->  Do it.\n   | no\nStop.\n```\n"
    assert markdown_to_sentences(flow) == "Can I? yes Do it. no. Stop. Before."
    assert without_card_names("Neural Network audits Explainability.") == "card audits card."


# -- cards ----------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["definition", "discuss"])
def test_card_texts_read_at_grade_7_or_below(field):
    scored = [(grade(getattr(c, field)), f"{c.number} {c.name}", getattr(c, field)) for c in CARDS]
    over = report(f"Card {field}s", scored, CARD_GRADE)
    assert not over, f"{len(over)} card {field}s above grade {CARD_GRADE}: {over}"


# -- lessons --------------------------------------------------------------------------------
def test_lesson_prose_reads_at_grade_6_or_below():
    scored = []
    for path in lesson_pages():
        for i, cell in enumerate(prose_cells(path)):
            text = markdown_to_sentences(cell)
            if len(text.split()) >= 3:
                scored.append((grade(text), f"{path.stem} cell {i}", text))
    over = report("Lesson prose (markdown cells)", scored, PROSE_GRADE, show=10)
    assert not over, f"{len(over)} lesson cells above grade {PROSE_GRADE}: {over}"


# -- messages -------------------------------------------------------------------------------
def refusals() -> set[str]:
    """What "Why can't I?" says for every kind of move in every lesson scenario."""
    texts: set[str] = set()
    for path in sorted(SCENARIOS.glob("*.yaml")):
        game = Game.from_scenario(path)
        tables = game.tables(0)
        on_board = list(tables["board"]["Card"])
        tries = ["end turn", "keep", "go first", "choose yes", "task", "deploy Nothing Card"]
        for card in CARDS:
            tries += [f"train {card.name}", f"deploy {card.name}", f"task {card.name}",
                      f"use {card.name}"]
        for a in on_board:
            for b in on_board:
                tries += [f"audit {a} -> {b}", f"deploy Bias in Data -> {b}", f"use CUDA -> {b}"]
        texts |= {game.explain(t) for t in tries}
    return texts


def widget_messages(tmp_path: Path, monkeypatch) -> set[str]:
    """Notes and errors of the Discuss box, the gallery and the prediction box, as shown."""
    import html as html_lib

    from tokens_edu.session.journal import Journal
    from tokens_edu.store.answers import too_long_message
    from tokens_edu.widgets import CardGallery, DiscussBox, discuss, predict

    def shown(value: str) -> str:
        return html_lib.unescape(re.sub("<[^>]+>", "", value)).strip()

    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    from tokens_edu.store import database as journal_mod

    texts = {discuss.NAME_NOTE, too_long_message(6000), journal_mod.SAVE_FAILED,
             journal_mod.CANNOT_SAVE}
    # what the page itself says (discuss.js): lost contact, drafts, not saved
    js = (Path(discuss.__file__).parent / "static" / "discuss.js").read_text()
    texts |= set(re.findall(r"\"([A-Z][^\"${}\n]{20,})\"", js))
    box = DiscussBox("Chatbot", Journal(lesson="readability"))

    def save(text: str) -> str:  # what the page sends when Save is clicked
        box.answer.handle({"type": "save", "text": text, "seq": len(texts) + 1})
        return box.answer.status

    texts.add(shown(save("I think so.")))  # no name yet
    box.name_box.value = "Ana"
    texts.add(shown(save("   ")))  # no answer yet
    texts.add(shown(save("I think so.")))
    gallery = CardGallery()
    gallery.search.value = "zzzz qqqq"
    texts.add(shown(gallery.message.value))
    texts |= set(predict.MESSAGES.values())
    from tokens_edu.present.faces import HINTS  # what each move on the card table does

    texts |= set(HINTS.values())
    from tokens_edu.widgets import thinking_pane  # the computer's thinking pane and the Hint

    texts |= set(thinking_pane.MESSAGES.values())
    from tokens_edu.session import NO_NAME
    from tokens_edu.widgets import command_lab, copy_lab, drawing_lab, exit_question, fair_data, teach_lab

    # the learning lessons' labs (lessons 8 and 11) and the exit questions; "{label}" and the
    # like are filled with a one-word value, as on the page
    from tokens_edu.lab import sentences as kit_sentences
    from tokens_edu.widgets import class_sentences, language_guess, language_write

    for messages in (drawing_lab.MESSAGES, command_lab.MESSAGES, fair_data.MESSAGES, exit_question.MESSAGES,
                     teach_lab.MESSAGES, copy_lab.MESSAGES, language_guess.MESSAGES, language_write.MESSAGES,
                     class_sentences.MESSAGES, kit_sentences.WARNINGS):
        texts |= {re.sub(r"\{\w+\}", "Flag", t) for t in messages.values()}
    texts.add(NO_NAME)
    texts |= {copy_lab.NEVER_ACTED, teach_lab.SEED_WORDS.format(seed=4821)}
    from tokens_edu.widgets.deck_check import EXAMPLE_DECK, DeckCheck

    deck_box = DeckCheck()
    for text in (EXAMPLE_DECK, EXAMPLE_DECK + "3x Sensor\n", " ", EXAMPLE_DECK + "AI Isn't Magic\n"):
        deck_box.text_box.value = text
        deck_box.check()
        texts |= {shown(li) for li in re.findall(r"<li>(.*?)</li>", deck_box.result.value)}
        texts.add(shown(re.search(r"<strong>(.*?)</strong>", deck_box.result.value).group(1)))
    return {t for t in texts if t}


def test_student_messages_read_at_grade_6_or_below(tmp_path, monkeypatch):
    texts = refusals() | widget_messages(tmp_path, monkeypatch)
    scored = [(grade(without_card_names(t)), "message", t) for t in texts]
    over = report("Messages (card names counted as one word)", scored, MESSAGE_GRADE, show=10)
    assert not over, f"{len(over)} messages above grade {MESSAGE_GRADE}: {over}"


# -- words ----------------------------------------------------------------------------------
def student_texts() -> list[tuple[str, str]]:
    """(where, text) for every card's student words and every lesson's prose."""
    out = [(f"card {c.name}", t) for c in CARDS for t in (c.definition, c.discuss, c.rules_text)]
    for path in lesson_pages():
        out += [(path.stem, cell) for cell in prose_cells(path)]
    return out


def test_no_rule_numbers_or_undefined_words_for_students():
    words = re.compile(r"\b(" + "|".join(UNDEFINED_WORDS) + r")\b", re.I)
    problems = []
    for where, text in student_texts():
        if re.search(r"\bR\d{1,2}\b", text):
            problems.append((where, "a rule number", text[:80]))
        for m in words.finditer(text):
            problems.append((where, m.group(0), text[:80]))
    assert not problems, problems


#: AI words a lesson explains where it first uses them: the first time a lesson's prose uses
#: one, it is in bold (the lessons' way of saying "here is a new word", followed by its meaning).
#: The glossary's words (AI, data, model, token) are defined in Lesson 1 for every lesson.
TERMS_DEFINED_ON_FIRST_USE = (
    "perception", "pixel", "feature", "classifier", "label", "sensor", "bot", "keyword",
    "target", "training data", "ambiguous input", "adversarial",
)


def test_ai_words_are_explained_where_a_lesson_first_uses_them():
    problems = []
    for path in lesson_pages():
        prose = "\n".join(prose_cells(path))
        prose = re.sub(r"^#.*$", "", prose, flags=re.M)  # headings name a topic, they don't use it
        prose = without_card_names(prose)  # "Classifier" the card is not "classifier" the word
        for term in TERMS_DEFINED_ON_FIRST_USE:  # lower case: the AI word, not a game term
            m = re.search(rf"(\*\*)?\b{term}s?\b", prose)
            if m and not m.group(1) and not re.search(rf"\*\*[^*]*\b{term}s?\b[^*]*\*\*",
                                                       prose[:m.end() + 40]):
                problems.append((path.stem, term, prose[max(0, m.start() - 60):m.end() + 20]))
    assert not problems, problems


def test_lessons_define_ai_model_and_token_early():
    """Lesson 1 says what AI, data, a model and a token are, before any game rule, in the same
    words as the glossary (which the card gallery shows too)."""
    from tokens_edu.content.glossary import GLOSSARY, glossary_html

    assert set(GLOSSARY) >= {"AI", "model", "token"}
    first = " ".join(prose_cells(LESSONS / "01-read-a-card.ipynb")[:2])
    for word, meaning in GLOSSARY.items():
        assert grade(meaning) <= CARD_GRADE, (word, grade(meaning))
        assert re.search(rf"\*\*{re.escape(word)}\*\*: {re.escape(meaning)}", first, re.I), \
            f"lesson 1 does not define {word} as the glossary does"
        assert meaning.replace('"', "&quot;") in glossary_html()
    from tokens_edu.widgets import CardGallery

    gallery = CardGallery()
    assert gallery.children[0] is gallery.words and "AI, data, model, token" in gallery.words.get_title(0)
    assert gallery.words.children[0].value == glossary_html()


def test_messages_use_no_rule_numbers_or_undefined_words():
    """Refusals are checked for words as well as grade: at the opening-hand choice, on a word
    that is not an action, and in every lesson scenario ("mulligan" is said "new hand")."""
    from tokens_edu import Action, starter_decks

    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=1)
    texts = refusals() | {game.explain(t) for t in ("end turn", "dance", "task Chatbot")}
    game.apply("go first")
    texts |= {game.explain(t) for t in ("end turn", "dance", "train Chatbot", "go first")}
    assert Action.parse("new hand") == Action("mulligan")  # the words on screen work when typed
    from tokens_edu.lab.simulation import play_game

    for seed in range(4):  # the log lines of whole games, as each player reads them
        played = play_game("Green-Blue", "Black-Red", seed, bots=("greedy", "random"))
        texts |= {t for p in (0, 1) for t in played.tables(p)["log"]["Text"]}
    words = re.compile(r"\b(" + "|".join(UNDEFINED_WORDS) + r")\b", re.I)
    problems = [t for t in texts if words.search(t) or re.search(r"\bR\d{1,2}\b", t)]
    assert not problems, problems
