"""CardGallery (issue 3), driven from Python: filters, search, counts, look-closer pane, and
that a filter change only touches the tiles that change."""

from __future__ import annotations

import html

import ipywidgets as widgets
import pytest

from tokens_edu import Deck, load_cards
from tokens_edu.widgets import CardGallery

POOL = load_cards()
CARDS = POOL.cards()


@pytest.fixture(scope="module")
def built():
    """One gallery for the read-only tests (building 70 tiles takes a moment); teacher mode."""
    return CardGallery(teacher=True)


@pytest.fixture
def gallery(built):
    built.reset()
    built.clear_selection()
    return built


def visible_tiles(g: CardGallery) -> list[str]:
    names = [c.name for c in g.cards]
    return [n for n, tile in zip(names, g.grid.children) if tile.layout.display != "none"]


def test_starts_with_every_card(gallery):
    assert len(gallery.shown) == 70 == len(CARDS)
    assert gallery.shown == CARDS
    assert gallery.count_label.value == "showing 70 of 70 cards"
    assert isinstance(gallery, widgets.VBox)
    assert len(gallery.grid.children) == 70


def test_known_absolute_counts(gallery):
    gallery.type_filter.value = "System"
    assert len(gallery.shown) == 40
    assert gallery.count_label.value == "showing 40 of 70 cards"
    gallery.reset()
    gallery.color_filter.value = "green"
    assert len(gallery.shown) == 14
    assert gallery.count_label.value == "showing 14 of 70 cards"


@pytest.mark.parametrize("color", ["green", "blue", "black", "white", "red", "any"])
def test_color_filter_counts(gallery, color):
    gallery.color_filter.value = color
    expected = [c for c in CARDS if c.color == color]
    assert gallery.shown == expected
    assert gallery.count_label.value == f"showing {len(expected)} of 70 cards"
    assert visible_tiles(gallery) == [c.name for c in expected]


@pytest.mark.parametrize("ctype", ["System", "Tool", "Action"])
@pytest.mark.parametrize("rarity", ["C", "U", "R", "*"])
def test_type_and_rarity_filters_combine(gallery, ctype, rarity):
    gallery.type_filter.value = ctype
    gallery.rarity_filter.value = rarity
    expected = [c for c in CARDS if c.type == ctype and c.rarity == rarity]
    assert gallery.shown == expected
    assert visible_tiles(gallery) == [c.name for c in expected]


def test_three_filters_together(gallery):
    gallery.color_filter.value = "black"
    gallery.type_filter.value = "System"
    gallery.rarity_filter.value = "U"
    expected = [c for c in CARDS if c.color == "black" and c.is_system and c.rarity == "U"]
    assert gallery.shown == expected and len(expected) > 3
    assert "Neural Network" in [c.name for c in gallery.shown]


def test_search_box_filters_by_name_and_text(gallery):
    gallery.search.value = "neural network"
    names = [c.name for c in gallery.shown]
    expected = [c.name for c in CARDS
                if all(w in f"{c.name} {c.rules_text} {c.definition} {c.discuss}".casefold()
                       for w in ("neural", "network"))]
    assert names == expected
    assert "Neural Network" in names and "Chatbot" not in names
    gallery.search.value = "  CHATBOT "
    assert "Chatbot" in [c.name for c in gallery.shown]
    assert len(gallery.shown) < 70
    assert gallery.count_label.value == f"showing {len(gallery.shown)} of 70 cards"


def test_search_matches_the_start_of_words(gallery):
    from tokens_edu.widgets.gallery import search_words

    assert search_words("  Bias-Audit! ") == ["bias", "audit"]
    gallery.search.value = "chat"
    assert "Chatbot" in {c.name for c in gallery.shown}
    gallery.search.value = "trust"
    assert {c.name for c in CARDS if "Highly Trusted" in c.keywords} <= {c.name for c in gallery.shown}
    gallery.search.value = "ai"
    ai = {c.name for c in gallery.shown}
    substring = {c.name for c in CARDS
                 if "ai" in f"{c.name} {c.rules_text} {c.definition} {c.discuss}".casefold()}
    assert ai < substring  # "said", "trained", "explain"... do not count: not the start of a word
    for c in gallery.shown:
        words = search_words(f"{c.name} {c.rules_text} {c.definition} {c.discuss} "
                             + " ".join(c.keywords))
        assert any(w.startswith("ai") for w in words)
    gallery.search.value = "rained"  # the middle of a word finds nothing
    assert gallery.shown == []


def test_students_see_no_teacher_notes_teachers_do():
    card = POOL["Bias Audit"]
    student = CardGallery([card])
    student.select("Bias Audit")
    assert card.learn_more not in html.unescape(student.detail.value)
    assert "For teachers" not in student.detail.value and card.discuss in html.unescape(student.detail.value)
    teacher = CardGallery([card], teacher=True)
    teacher.select("Bias Audit")
    assert card.learn_more in html.unescape(teacher.detail.value)


@pytest.mark.parametrize("word", ["red", "RED", "green", "white"])
def test_a_color_name_finds_that_color(gallery, word):
    gallery.search.value = word
    assert gallery.shown == [c for c in CARDS if c.color == word.casefold()]
    assert gallery.shown  # there are cards of that color


@pytest.mark.parametrize("word", ["tool", "Tools", "system", "action"])
def test_a_type_name_finds_that_type(gallery, word):
    gallery.search.value = word
    want = word.casefold().rstrip("s")
    assert gallery.shown == [c for c in CARDS if c.type.casefold() == want]


def test_plural_and_singular_find_each_other(gallery):
    gallery.search.value = "network"
    singular = {c.name for c in gallery.shown}
    gallery.search.value = "networks"
    assert {c.name for c in gallery.shown} == singular and "Neural Network" in singular
    gallery.search.value = "red neural"  # words combine: red cards that say "neural"
    assert all(c.color == "red" for c in gallery.shown)


def test_search_combines_with_filters(gallery):
    gallery.search.value = "Flag"
    with_flag = len(gallery.shown)
    gallery.color_filter.value = "white"
    assert 0 < len(gallery.shown) < with_flag
    assert all(c.color == "white" for c in gallery.shown)


def test_no_match_says_so_plainly(gallery):
    gallery.search.value = "zebra unicorn"
    assert gallery.shown == []
    assert gallery.count_label.value == "showing 0 of 70 cards"
    assert "No card matches" in gallery.message.value
    gallery.search.value = ""
    assert gallery.message.value == "" and len(gallery.shown) == 70


def test_reset_button_shows_all(gallery):
    gallery.color_filter.value = "red"
    gallery.search.value = "data"
    gallery.reset_button.click()
    assert len(gallery.shown) == 70
    assert (gallery.color_filter.value, gallery.search.value) == ("all", "")


def test_select_shows_the_big_card_and_learn_more(gallery):
    card = POOL["Neural Network"]
    assert gallery.detail_box.layout.display == "none" and gallery.selected is None
    got = gallery.select("neural network")
    assert got == card == gallery.selected
    text = html.unescape(gallery.detail.value)
    assert card.learn_more in text and card.definition in text and card.discuss in text
    assert 'data-card="Neural Network"' in gallery.detail.value
    assert "font-size:4.500mm" in gallery.detail.value  # drawn bigger than the tiles
    assert gallery.detail_box.layout.display is None
    assert gallery.grid.layout.display is None  # the grid stays: the page never shrinks
    gallery.close_button.click()
    assert gallery.selected is None and gallery.detail_box.layout.display == "none"
    assert gallery.grid.layout.display is None
    assert list(gallery.grid.children) == gallery.tiles  # the big card left the grid


def test_big_card_opens_right_under_the_chosen_card_even_far_down(gallery):
    names = [c.name for c in CARDS]
    last = names[-1]  # the bottom of the page
    gallery.select(last)
    kids = list(gallery.grid.children)
    assert len(kids) == len(CARDS) + 1
    at = kids.index(gallery.detail_box)
    assert kids[at - 1] is gallery.tiles[names.index(last)]  # right after the pressed card
    assert kids[:at] + kids[at + 1:] == gallery.tiles  # every tile kept, in order
    assert all(t.layout.display != "none" for t in gallery.tiles)  # nothing hidden
    assert gallery.detail_box.layout.grid_area == "auto / 1 / auto / -1"  # a full-width row
    assert "dense" in gallery.grid.layout.grid_auto_flow  # the pressed card's row stays full
    # choosing another card moves the big card there; the grid still holds it once
    gallery.select(names[3])
    kids = list(gallery.grid.children)
    assert kids.count(gallery.detail_box) == 1
    assert kids[kids.index(gallery.detail_box) - 1] is gallery.tiles[3]
    assert POOL[names[3]].learn_more in html.unescape(gallery.detail.value)


def test_a_filter_change_closes_the_big_card(gallery):
    gallery.select("GPU")
    gallery.color_filter.value = "black"
    assert gallery.selected is None and gallery.grid.layout.display is None
    assert gallery.detail_box not in gallery.grid.children
    assert gallery.shown == [c for c in CARDS if c.color == "black"]


def test_look_closer_button_under_each_card(gallery):
    index = [c.name for c in CARDS].index("Bias Audit")
    tile = gallery.grid.children[index]
    view, button = tile.children
    assert 'data-card="Bias Audit"' in view.value
    button.click()
    assert gallery.selected == POOL["Bias Audit"]
    assert POOL["Bias Audit"].learn_more in html.unescape(gallery.detail.value)


def test_select_unknown_card_changes_nothing(gallery):
    gallery.select("Chatbot")
    before = gallery.detail.value
    with pytest.raises(KeyError, match="Did you mean Chatbot"):
        gallery.select("Chatbott")
    assert gallery.selected == POOL["Chatbot"] and gallery.detail.value == before


def test_filter_change_touches_only_the_tiles_that_change(gallery):
    changes: list[str] = []
    names = [c.name for c in gallery.cards]
    handlers = []
    for name, tile in zip(names, gallery.grid.children):
        def record(change, name=name):
            changes.append(name)
        tile.layout.observe(record, names="display")
        handlers.append((tile, record))
    views_before = [tile.children[0] for tile in gallery.grid.children]
    try:
        gallery.color_filter.value = "green"
        assert len(changes) == 70 - 14
        changes.clear()
        gallery.type_filter.value = "System"
        greens = [c for c in CARDS if c.color == "green"]
        assert sorted(changes) == sorted(c.name for c in greens if not c.is_system)
        changes.clear()
        gallery.type_filter.value = "System"  # same value again: nothing to do
        assert changes == []
    finally:
        for tile, record in handlers:
            tile.layout.unobserve(record, names="display")
    # the card HTML widgets are the same objects: nothing was rebuilt
    assert [tile.children[0] for tile in gallery.grid.children] == views_before


def test_stable_css_classes_for_browser_tests(gallery):
    assert "tokens-gallery" in gallery._dom_classes
    for w, cls in [(gallery.color_filter, "color"), (gallery.type_filter, "type"),
                   (gallery.rarity_filter, "rarity"), (gallery.search, "search"),
                   (gallery.count_label, "count"), (gallery.grid, "grid"),
                   (gallery.detail, "detail"), (gallery.close_button, "close")]:
        assert f"tokens-gallery-{cls}" in w._dom_classes
    assert all("tokens-gallery-tile" in t._dom_classes for t in gallery.grid.children)


def test_shows_itself_in_a_notebook(gallery):
    bundle = gallery._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == gallery.model_id


def test_a_callback_error_becomes_a_plain_message(monkeypatch):
    g = CardGallery(POOL.cards()[:5])

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(g, "_apply_filters", broken)
    g.color_filter.value = "green"  # must not raise (on Voila it would show nowhere)
    assert "Something went wrong" in g.message.value and "boom" not in g.message.value


def test_other_pools_and_bad_pools():
    deck = Deck.from_names(["2x Chatbot", "2x Sensor", "GPU"])
    g = CardGallery(deck)
    assert [c.name for c in g.shown] == ["Chatbot", "Sensor", "GPU"]
    assert g.count_label.value == "showing 3 of 3 cards"
    # only colors that occur are offered
    assert [v for _, v in g.color_filter.options] == ["all", "green", "black"]
    with pytest.raises(KeyError):
        g.select("Neural Network")  # not in this gallery
    with pytest.raises(TypeError, match="CardPool or a list of cards"):
        CardGallery("Chatbot")
    with pytest.raises(TypeError, match="needs Cards"):
        CardGallery(["Chatbot"])


def test_a_page_of_cards_at_a_time():
    """``page_size``: the gallery draws ten cards at a time (lesson 1 was about 12 screens
    long with all 70), Next and Previous turn the pages, a filter starts again at page 1."""
    g = CardGallery(page_size=10)
    drawn = lambda: [t for t in g.tiles if t.layout.display != "none"]  # noqa: E731
    assert len(drawn()) == 10 and len(g.shown) == 70 and g.prev_button.disabled
    assert "cards 1 to 10 of 70 (page 1 of 7)" == g.count_label.value
    first = [c.name for c in g.on_page]
    g.next_button.click()
    assert len(drawn()) == 10 and [c.name for c in g.on_page] != first and "page 2 of 7" in g.count_label.value
    for _ in range(10):
        g.next_button.click()
    assert g.next_button.disabled and len(drawn()) == 70 - 60
    g.color_filter.value = "red"
    assert g.page == 0 and len(drawn()) == min(10, len(g.shown)) and all(c.color == "red" for c in g.on_page)
    with pytest.raises(ValueError, match="page_size"):
        CardGallery(page_size=0)
