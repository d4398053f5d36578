"""Nothing a page sends grows without bound (issue 29 part 1): every trait a page may set has a
type and a range checked in the kernel, and every other trait is not the page's to set.

The walk: one of each of our widget classes (and, through them, every widget they make), and one
of each of ipywidgets' classes; on each, every synced trait gets values out of range and of the
wrong type, sent the way a hostile page sends them (through the widget's comm). Broken before:
lesson 8's drawing grid took ``size = 9000`` from the page (a 40-byte message made its kernel
2.1 GB), and any class not listed in the trust table took any value for any trait.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil

import ipywidgets as widgets
import pytest
from crafted import _deliver, page_update
from views import SECRET

import tokens_edu.widgets as our_widgets
from tokens_edu import Game

#: Values no page of ours ever sends for any trait (a few are fine for some traits: a bound
#: then decides, and the result must still be sane).
HOSTILE = [9000, 10**9 + 1, -1, -(10**9) - 1, 2**70, 1e308, math.nan, math.inf, 0.5, True, None,
           "x" * 1_000_000, "", ["x"] * 50_000, [1] * 1_000_000, [0, 1, 2], {"a": 1},
           "IPY_MODEL_0000"]
#: What any value a page managed to set must stay within.
MAX_CHARS, MAX_ITEMS, MAX_NUMBER = 20_000, 10_000, 1e9


def _bounds():
    from tokens_edu.widgets import bounds

    return bounds


def _our_classes() -> set[type]:
    found = set()
    for info in pkgutil.walk_packages(our_widgets.__path__, our_widgets.__name__ + "."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if (inspect.isclass(obj) and issubclass(obj, widgets.Widget)
                    and obj.__module__.startswith("tokens_edu.")):
                found.add(obj)
    return found


def _ipywidgets_classes() -> set[type]:
    return {obj for obj in vars(widgets).values()
            if inspect.isclass(obj) and issubclass(obj, widgets.Widget)}


def _our_widgets(tmp_path) -> list:
    """One of each of our top-level widgets (each makes the widgets inside it)."""
    from tokens_edu.store.journal import Journal
    from tokens_edu.widgets import (
        CardGallery,
        CommandLab,
        DeckCheck,
        DiscussBox,
        DrawingLab,
        EthicalMatrix,
        ExitQuestion,
        GameView,
        LanguageLab,
        NewGamePanel,
        PixelGrid,
        PredictionBox,
        PuzzlePicker,
        ReplayView,
        TrainingLab,
    )
    from tokens_edu.widgets.browser import BrowserKey
    from tokens_edu.widgets.copy_lab import CopyLab
    from tokens_edu.widgets.teach_lab import TestBench

    journal = Journal(url=f"sqlite:///{tmp_path / 'j.sqlite'}", student="ana", lesson="t")
    game = Game.from_scenario(SECRET)
    lab = TrainingLab(journal=journal)
    words = LanguageLab()  # lesson 12: its six parts
    return [
        BrowserKey(), CommandLab(), DeckCheck(), DiscussBox("Chatbot", journal), DrawingLab(journal),
        EthicalMatrix(journal, "m", who=["students"], what=["fair"]),
        ExitQuestion("Why?", journal, choices=["a", "b"]), CardGallery(),
        GameView(Game.from_scenario(SECRET), seats=("human", "greedy")),
        NewGamePanel(journal=journal, autoplay=False),
        PredictionBox("Which?", "A.", choices=["A", "B"], correct="A"),
        PuzzlePicker({"one": SECRET}), ReplayView(game), PixelGrid(size=12), lab,
        CopyLab(journal=journal), TestBench(lab, journal=journal),
        words.tokens_view, words.guess_view, words.class_view, words.write_view, words.made_up_view, words.copy_view,
    ]


def _plain(cls):
    try:
        return cls()
    except Exception:  # noqa: BLE001 (needs arguments)
        return None


def _sane(value) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_CHARS
    if isinstance(value, (list, tuple)):
        return len(value) <= MAX_ITEMS and all(_sane(v) for v in value[:50])
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) <= MAX_NUMBER
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= MAX_NUMBER
    return True


@pytest.fixture
def every_widget(wire, tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    made = _our_widgets(tmp_path)
    made += [w for w in map(_plain, sorted(_ipywidgets_classes(), key=lambda c: c.__name__)) if w]
    return made


def _instances() -> dict:
    from ipywidgets.widgets.widget import _instances as every

    return every


def _all_instances() -> list:
    return [w for w in list(_instances().values()) if getattr(w, "comm", None) is not None]


def test_every_widget_class_is_walked_and_every_settable_trait_has_a_bound(every_widget):
    instances = _all_instances()
    kinds = {type(w) for w in instances}
    missing = [c.__name__ for c in _our_classes() if not any(issubclass(k, c) for k in kinds)]
    assert not missing, f"add one of each to _our_widgets(): {missing}"
    for cls in _our_classes() | _ipywidgets_classes():
        for name, bound in _bounds().page_bounds(cls).items():
            assert isinstance(bound, _bounds().Bound), (cls.__name__, name)
            assert name in cls.class_traits(sync=True), (cls.__name__, name)


def _one_of_each_class() -> list:
    """One widget of each class made (an enabled one when there is one)."""
    chosen: dict[type, object] = {}
    for widget in _all_instances():
        held = chosen.get(type(widget))
        if held is None or (getattr(held, "disabled", False) and not getattr(widget, "disabled", False)):
            chosen[type(widget)] = widget
    return list(chosen.values())


def test_no_trait_takes_a_value_out_of_range_from_the_page(every_widget):
    """Every synced trait of a widget of every class, every hostile value: a trait the page may
    not set is unchanged; one it may set holds only a value its bound takes, and a sane one."""
    tried = 0
    for widget in _one_of_each_class():
        settable = _bounds().page_bounds(widget)
        for name in sorted(widget.keys):
            for value in HOSTILE:
                before = getattr(widget, name)
                try:
                    page_update(widget, **{name: value})
                except Exception as e:  # noqa: BLE001 (a page must never raise in the kernel)
                    pytest.fail(f"{type(widget).__name__}.{name} = {str(value)[:20]!r}: {e!r}")
                after = getattr(widget, name)
                tried += 1
                if name not in settable or getattr(widget, "disabled", False) is True:
                    assert after is before or after == before, (type(widget).__name__, name, str(value)[:20])
                else:
                    assert _sane(after), (type(widget).__name__, name, str(after)[:40])
                    if after is not before and after != before:
                        assert settable[name].problem(widget, after) is None, (type(widget).__name__, name)
    assert tried > 5_000


def test_the_drawing_grid_size_is_the_lessons_not_the_pages(wire):
    """Broken before: ``size = 9000`` from the page was taken (then 81 million squares)."""
    from tokens_edu.widgets import PixelGrid

    grid = PixelGrid(size=12)
    page_update(grid, size=9000)
    page_update(grid, size=9000, pixels=[0] * 144)
    assert grid.size == 12 and len(grid.pixels) == 144
    page_update(grid, pixels=[1] * 144)  # what a real page sends: a picture of the grid's size
    assert grid.pixels == [1] * 144 and grid.version == 1
    page_update(grid, pixels=[1] * 145)  # a wrong size changes nothing (it used to clear the grid)
    page_update(grid, pixels=[2] * 144)
    assert grid.pixels == [1] * 144 and grid.version == 1
    with pytest.raises(Exception):
        grid.size = 9000  # not from Python either: the trait has a range


def test_a_page_cannot_make_widgets_in_the_kernel(wire):
    """ipywidgets builds any registered widget a page asks for (a ``comm_open`` to
    ``jupyter.widget``) with the page's state; our pages never ask, so it is refused."""
    from comm.base_comm import BaseComm

    class Closed(BaseComm):
        closed = False

        def publish_msg(self, *a, **k):
            pass

        def close(self, *a, **k):
            Closed.closed = True

    before = len(_instances())
    comm = Closed(comm_id="c-page", primary=False, target_name="jupyter.widget")
    msg = {"metadata": {"version": "2.1.0"}, "content": {"data": {"state": {
        "_model_module": "@jupyter-widgets/controls", "_model_module_version": "2.0.0",
        "_model_name": "IntSliderModel", "_view_module": "@jupyter-widgets/controls",
        "_view_module_version": "2.0.0", "_view_name": "IntSliderView"}, "buffer_paths": []}}}
    widgets.Widget.handle_comm_opened(comm, msg)
    assert len(_instances()) == before and Closed.closed


def test_a_binary_value_is_refused(wire):
    box = widgets.Text()
    _deliver(box, {"method": "update", "state": {"value": None}, "buffer_paths": [["value"]]})
    assert box.value == ""


def test_a_real_page_is_never_refused(wire):
    """What pages really send passes: a typed answer, a picked choice, a tab, a slider."""
    text, area = widgets.Text(), widgets.Textarea()
    page_update(text, value="Ana")
    page_update(area, value="I think " * 700)  # 5,600 characters: the store says it is too long
    pick = widgets.Dropdown(options=["a", "b", "c"])
    page_update(pick, index=2)
    tabs = widgets.Tab(children=[widgets.HTML(), widgets.HTML()])
    page_update(tabs, selected_index=1)
    slider = widgets.IntSlider(min=0, max=10)
    page_update(slider, value=7)
    out = widgets.Output()
    page_update(out, outputs=[{"output_type": "stream", "name": "stdout", "text": "hi\n"}])
    assert (text.value, len(area.value), pick.value, tabs.selected_index, slider.value) == (
        "Ana", 5600, "c", 1, 7)
    assert out.outputs[0]["text"] == "hi\n"
