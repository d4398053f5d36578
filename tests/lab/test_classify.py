"""The lesson classifiers (tokens_edu.lab.classify) and the sketch table they learn from
(tokens_edu.lab.sketches): what they say, how they fail on bad input, and the figures the
lessons show (lesson 11's accuracy per group before and after adding drawings)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tokens_edu.lab.classify import (
    PixelClassifier,
    WordClassifier,
    accuracy_by_group,
    as_grid,
    words_of,
)
from tokens_edu.lab.sketches import (
    GROUP_NAMES,
    LABELS,
    SIDE,
    SKETCH_COLUMNS,
    SKETCH_FILE,
    load_sketches,
    make_sketches,
    pixels_to_text,
    text_to_pixels,
)


@pytest.fixture(scope="module")
def sketches():
    return load_sketches()


# -- the sketch table --------------------------------------------------------------------------
def test_the_shipped_table_is_what_the_maker_draws(sketches):
    """The CSV file is make_sketches() written out: nobody edited a drawing by hand."""
    made = make_sketches()
    assert list(sketches.columns) == SKETCH_COLUMNS == list(made.columns)
    assert len(sketches) == len(made) == 156
    for a, b in zip(sketches["pixels"], made["pixels"]):
        assert a.shape == (SIDE, SIDE) and np.array_equal(a, b)
    for column in ("id", "split", "group", "label", "true_label"):
        assert list(sketches[column]) == list(made[column])
    assert SKETCH_FILE.read_text().splitlines()[0] == ",".join(SKETCH_COLUMNS)


def test_the_training_drawings_are_skewed_as_the_lesson_says(sketches):
    train = sketches[sketches["split"] == "train"]
    assert train.groupby("group").size().to_dict() == {"pen": 24, "mouse": 6}  # no finger drawings
    assert set(train["true_label"]) == set(LABELS)
    wrong = train[train["label"] != train["true_label"]]
    assert len(wrong) == 1 and wrong.iloc[0]["group"] == "mouse"  # one wrong label, as lesson 11 says
    extra = sketches[sketches["split"] == "extra"]
    assert extra.groupby(["group", "label"]).size().eq(4).all() and len(extra) == 36
    test = sketches[sketches["split"] == "test"]
    assert test.groupby(["group", "label"]).size().eq(10).all() and len(test) == 90
    assert (extra["label"] == extra["true_label"]).all() and (test["label"] == test["true_label"]).all()


def test_groups_draw_differently(sketches):
    """Finger drawings are thick (many dark squares) and fill the box; mouse lines wobble (a
    mouse drawing is less like the nearest pen drawing of its sign than a pen drawing is)."""
    dark = sketches.assign(n=[int(p.sum()) for p in sketches["pixels"]]).groupby("group")["n"].mean()
    assert dark["finger"] > 3 * dark["pen"]
    tall = sketches.assign(h=[int(p.any(axis=1).sum()) for p in sketches["pixels"]]).groupby("group")["h"].mean()
    assert tall["finger"] == SIDE and tall["mouse"] < tall["finger"]
    train = sketches[(sketches["split"] == "train") & (sketches["group"] == "pen")]
    model = PixelClassifier(k=1).fit(train["pixels"], train["label"])
    test = sketches[sketches["split"] == "test"]
    gap = {g: np.mean([model.predict(p).neighbours[0][2] for p in test[test["group"] == g]["pixels"]])
           for g in ("pen", "mouse")}
    assert gap["mouse"] > gap["pen"]


def test_pixels_text_round_trip_and_bad_rows(tmp_path, sketches):
    p = sketches["pixels"].iloc[3]
    assert np.array_equal(text_to_pixels(pixels_to_text(p)), p)
    with pytest.raises(ValueError, match="144 digits"):
        text_to_pixels("0101")
    bad = pd.read_csv(SKETCH_FILE, dtype=str)
    bad.loc[2, "group"] = "elbow"
    path = tmp_path / "bad.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(ValueError, match="unknown split or group"):
        load_sketches(path)
    with pytest.raises(FileNotFoundError, match="Reinstall"):
        load_sketches(tmp_path / "nope.csv")


# -- the pixel classifier ----------------------------------------------------------------------
def square(on=((1, 1), (1, 2), (2, 1), (2, 2)), size=4):
    g = [[0] * size for _ in range(size)]
    for r, c in on:
        g[r][c] = 1
    return g


def test_nearest_neighbours_vote_and_show_their_distance():
    a, b = square(), square(((0, 0), (0, 3), (3, 0), (3, 3)))
    model = PixelClassifier(k=3).fit([a, a, b], ["box", "box", "corners"])
    guess = model.predict(square(((1, 1), (1, 2), (2, 1))))  # a box with a square missing
    assert guess.label == "box" and guess.votes == {"box": 2, "corners": 1}
    assert guess.neighbours[0] == (0, "box", 1) and guess.neighbours[2] == (2, "corners", 7)
    k1 = PixelClassifier(k=1).fit([a, b], ["box", "corners"])
    assert k1.predict(b).label == "corners" and k1.predict(b).neighbours == [(1, "corners", 0)]


def test_a_tie_goes_to_the_nearest_label():
    a, b = square(), square(((0, 0), (0, 1)))
    model = PixelClassifier(k=2).fit([a, b], ["A", "B"])
    assert model.predict(square(((0, 0), (0, 1), (1, 1)))).label == "B"  # 1 square from B, 3 from A


def test_journal_pixels_0_to_255_count_as_dark_from_128():
    assert as_grid([[0, 127], [128, 255]]).tolist() == [[0, 0], [1, 1]]
    model = PixelClassifier(k=1).fit([square()], ["box"])
    assert model.predict([[255 * v for v in row] for row in square()]).neighbours[0][2] == 0


@pytest.mark.parametrize("bad,words", [
    ([[0, 1], [1]], "same length"), ([[0, 300]], "0 to 255"), ("hello", "rows of numbers"),
    ([[-1, 0]], "0 to 255"), ([], "rows of numbers")])
def test_bad_drawings_are_refused_in_plain_words(bad, words):
    with pytest.raises(ValueError, match=words):
        as_grid(bad)


def test_the_classifier_refuses_what_it_cannot_do():
    model = PixelClassifier()
    with pytest.raises(ValueError, match="no examples"):
        model.predict(square())
    with pytest.raises(ValueError, match="one label per drawing"):
        model.fit([square()], ["a", "b"])
    with pytest.raises(ValueError, match="same size"):
        model.fit([square(), square(size=5)], ["a", "b"])
    with pytest.raises(ValueError, match="needs a label"):
        model.fit([square()], [" "])
    with pytest.raises(ValueError, match="k is a whole number"):
        PixelClassifier(k=0)
    model.fit([square()], ["box"])
    with pytest.raises(ValueError, match="empty"):
        model.predict(square(on=()))
    with pytest.raises(ValueError, match="5 x 5"):
        model.predict(square(size=5))
    assert model.examples == 1 and model.predict(square()).label == "box"  # unchanged by refusals


def test_lesson_11_figures_the_gap_and_what_closes_it(sketches):
    """The numbers lesson 11's students will measure (and the guide quotes): the kit's
    training drawings label every pen drawing right, far fewer finger and mouse drawings;
    adding the 12 finger drawings closes the finger gap; adding mouse drawings does not."""
    train, extra = sketches[sketches["split"] == "train"], sketches[sketches["split"] == "extra"]
    test = sketches[sketches["split"] == "test"]

    def measure(table):
        acc = accuracy_by_group(PixelClassifier(k=3).fit(table["pixels"], table["label"]), test, GROUP_NAMES)
        return dict(zip(acc["group"], acc["right"]))

    before = measure(train)
    assert before == {"Pen on a tablet": 30, "Mouse on a laptop": 22, "Finger on a phone": 20}
    finger = measure(pd.concat([train, extra[extra["group"] == "finger"]]))
    assert finger["Finger on a phone"] == 30 and finger["Pen on a tablet"] == 30
    mouse = measure(pd.concat([train, extra[extra["group"] == "mouse"]]))
    assert mouse["Finger on a phone"] == 20 and mouse["Mouse on a laptop"] == 24


def test_sketch_rows_are_the_table_without_pandas(sketches):
    from tokens_edu.lab.sketches import sketch_rows

    rows = sketch_rows()
    assert [r["id"] for r in rows] == list(sketches["id"]) and isinstance(rows[0], dict)
    assert all(np.array_equal(r["pixels"], p) for r, p in zip(rows, sketches["pixels"]))


def test_accuracy_by_group_counts_right_answers():
    a, b = square(), square(((0, 0), (0, 3), (3, 0), (3, 3)))
    model = PixelClassifier(k=1).fit([a, b], ["box", "corners"])
    table = pd.DataFrame({"group": ["x", "x", "y"], "pixels": [a, b, a], "true_label": ["box", "box", "box"]})
    acc = accuracy_by_group(model, table, names={"x": "Group X"})
    assert acc.to_dict("records") == [
        {"group": "Group X", "drawings": 2, "right": 1, "accuracy": 0.5},
        {"group": "y", "drawings": 1, "right": 1, "accuracy": 1.0}]
    assert acc.attrs["overall"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="'group' column"):
        accuracy_by_group(model, table.drop(columns="group"))


# -- the word classifier -----------------------------------------------------------------------
def test_words_vote_for_the_labels_they_came_with():
    model = WordClassifier().fit(
        ["score points with my chatbot", "score with the agent", "check their chatbot", "end my turn"],
        ["Task", "Task", "Audit", "End turn"])
    guess = model.predict("Score with my robot!")
    assert guess.label == "Task" and guess.voters == {"score": {"Task": 1.0}} and guess.unknown == ["robot"]
    mixed = model.predict("check the chatbot")
    assert mixed.label == "Audit" and mixed.votes == pytest.approx({"Audit": 1.5, "Task": 0.5})
    assert mixed.voters["chatbot"] == pytest.approx({"Task": 0.5, "Audit": 0.5})
    table = model.word_table()
    assert list(table.columns) == ["word", "Task", "Audit", "End turn"]
    assert table.iloc[0].to_dict() == {"word": "chatbot", "Task": 1, "Audit": 1, "End turn": 0}


def test_no_known_word_or_a_tie_gives_no_label():
    model = WordClassifier().fit(["score now", "check now"], ["Task", "Audit"])
    assert model.predict("hello there").label is None and model.predict("hello").unknown == ["hello"]
    tie = model.predict("score and check")
    assert tie.label is None and tie.tied == ["Task", "Audit"]
    assert words_of("The cat's on MY mat") == ["cat's", "mat"]
    with pytest.raises(ValueError, match="one label per command"):
        model.fit(["a"], [])
