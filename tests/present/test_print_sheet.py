"""print_sheet (issue 3): one self-contained HTML file, 9 poker-size cards a page, one card
element per card printed, and bad input refused before anything is written."""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser

import pytest
from needs import need

from tokens_edu import Deck, DeckError, load_cards, print_sheet, starter_decks

POOL = load_cards()
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


class SheetParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cards: list[str] = []
        self.pages = 0
        self.cells = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "tk-card" in classes:
            assert a.get("aria-label"), "every printed card has an aria-label"
            self.cards.append(a["data-card"])
        if "tk-page" in classes:
            self.pages += 1
        if "tk-cell" in classes:
            self.cells += 1


def read_sheet(path) -> tuple[str, SheetParser]:
    text = path.read_text(encoding="utf-8")
    p = SheetParser()
    p.feed(text)
    return text, p


def deck_of(n: int) -> Deck:
    """A deck of n cards, at most 2 copies each (first cards of the set)."""
    names = [c.name for c in POOL.cards() for _ in range(2)][:n]
    return Deck.from_names(names)


def test_a_25_card_deck_prints_25_cards_on_3_pages(tmp_path):
    deck = deck_of(25)
    out = print_sheet(deck, tmp_path / "deck.html")
    assert out == (tmp_path / "deck.html").resolve() and out.exists()
    text, p = read_sheet(out)
    assert len(p.cards) == 25 and p.cells == 25
    assert p.pages == 3
    assert p.cards == deck.names()
    # self-contained and printable
    assert text.startswith("<!DOCTYPE html>")
    assert "@media print" in text and "@page" in text
    assert "break-after:page" in text or "page-break-after:always" in text
    assert "repeat(3,63mm)" in text and "88mm" in text
    assert "<script" not in text.lower()
    assert not re.search(r'(src|href)="https?:', text)


def test_two_copies_of_a_card_print_twice(tmp_path):
    deck = Deck.from_names(["2x Chatbot", "Sensor"])
    _, p = read_sheet(print_sheet(deck, tmp_path / "two.html"))
    assert p.cards == ["Chatbot", "Chatbot", "Sensor"]
    assert p.pages == 1


def test_starter_deck_prints(tmp_path):
    deck = starter_decks()[0]
    _, p = read_sheet(print_sheet(deck, tmp_path / "starter.html"))
    assert p.cards == deck.names()
    assert p.pages == -(-len(deck) // 9)  # 9 cards a page, rounded up (a 26-card deck: 3)


@pytest.mark.parametrize("n,pages", [(1, 1), (9, 1), (10, 2), (18, 2), (19, 3), (70, 8)])
def test_nine_cards_a_page(tmp_path, n, pages):
    cards = POOL.cards()[:n]
    _, p = read_sheet(print_sheet(cards, tmp_path / "x.html"))
    assert len(p.cards) == n and p.pages == pages


def test_lists_of_names_and_cards_and_a_whole_pool(tmp_path):
    _, p = read_sheet(print_sheet(["chatbot", POOL["Sensor"], "2x GPU"], tmp_path / "a.html"))
    assert p.cards == ["Chatbot", "Sensor", "GPU", "GPU"]
    _, p = read_sheet(print_sheet(POOL, tmp_path / "all.html"))
    assert len(p.cards) == 70 and p.pages == 8


def test_letter_paper(tmp_path):
    text, p = read_sheet(print_sheet(deck_of(12), tmp_path / "l.html", paper="letter"))
    assert "size:letter" in text and "215.9mm" in text and p.pages == 2


@pytest.mark.parametrize(
    "bad,error,words",
    [
        (42, TypeError, "needs a Deck or a list"),
        ("Chatbot", TypeError, "needs a Deck or a list"),
        ({"Chatbot": 2}, TypeError, "needs a Deck or a list"),
        (["Chatbot", 7], TypeError, "entry 2"),
        (["Chatbot", "Neural Netwrok"], DeckError, "Did you mean Neural Network"),
        ([], DeckError, "no cards to print"),
    ],
)
def test_bad_input_writes_nothing(tmp_path, bad, error, words):
    target = tmp_path / "bad.html"
    with pytest.raises(error, match=words):
        print_sheet(bad, target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_bad_path_or_paper_writes_nothing(tmp_path):
    with pytest.raises(TypeError, match="file path"):
        print_sheet(deck_of(3), 12)
    with pytest.raises(ValueError, match="A4' or 'Letter"):
        print_sheet(deck_of(3), tmp_path / "p.html", paper="A3")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        print_sheet(deck_of(3), tmp_path / "no" / "such" / "p.html")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.browser
def test_chromium_prints_3_pages_with_9_cards_each_at_real_size(tmp_path):
    """Print the 25-card sheet to PDF in a real browser: 3 pages, cards 63 x 88 mm in a 3 x 3 grid."""
    from playwright.sync_api import sync_playwright

    need(bool(shutil.which(CHROMIUM)), f"Chromium is not at {CHROMIUM} (Debian's chromium package)")

    path = print_sheet(deck_of(25), tmp_path / "deck.html")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page()
            page.goto(path.as_uri())
            page.emulate_media(media="print")
            boxes = page.evaluate("""() => [...document.querySelectorAll('.tk-page')].map(pg =>
                [...pg.querySelectorAll('.tk-card')].map(c => {
                    const r = c.getBoundingClientRect(); return [r.x, r.y, r.width, r.height];
                }))""")
            pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        finally:
            browser.close()
    assert [len(b) for b in boxes] == [9, 9, 7]
    mm = 96 / 25.4
    first = boxes[0]
    for x, y, w, h in first:
        assert w == pytest.approx(63 * mm, abs=1) and h == pytest.approx(88 * mm, abs=1)
    xs = sorted({round(b[0]) for b in first})
    ys = sorted({round(b[1]) for b in first})
    assert len(xs) == 3 and len(ys) == 3  # a 3 x 3 grid
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 3
