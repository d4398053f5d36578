"""render_card and card_aria_label (issue 3): the HTML of every card parses, shows its facts,
escapes its text, labels itself for screen readers, and its text colors meet WCAG AA."""

from __future__ import annotations

import os
import dataclasses
import html
import re
import shutil
from html.parser import HTMLParser

import pytest
from needs import need

from tokens_edu import card_picture, load_cards, render_card
from tokens_edu.content.cards import COLOR_THEMES, PICTURE_COLORS
from tokens_edu.present.faces import card_face, table_pictures
from tokens_edu.present.render import COLOR_STYLES, SCREEN_SCALE, card_aria_label

POOL = load_cards()
TABLE_PICTURES = table_pictures()
CARDS = POOL.cards()
IDS = [c.name for c in CARDS]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# -- WCAG 2.x contrast ------------------------------------------------------------------------


def _channel(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(hex_color: str) -> float:
    h = hex_color.lstrip("#")
    assert re.fullmatch(r"[0-9a-fA-F]{6}", h), f"not a #rrggbb color: {hex_color}"
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_known_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic AA near-miss
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


# -- a strict little parser that follows colors down the tree ---------------------------------

UNKNOWN = "unknown"  # a gradient or image background: text must not sit on it directly
VOID = {"br", "img", "meta", "hr", "input", "wbr"}


def _styles(attrs) -> dict[str, str]:
    style = dict(attrs).get("style") or ""
    out = {}
    for part in style.split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            out[k.strip().lower()] = v.strip()
    return out


class CardParser(HTMLParser):
    """Checks tags are balanced and records (text, color, background) for every text run."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, str | None]] = []
        self.runs: list[tuple[str, str | None, str | None]] = []
        self.elements: list[tuple[str, dict]] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag in VOID:
            return
        st = _styles(attrs)
        color = self.stack[-1][1] if self.stack else None
        bg = self.stack[-1][2] if self.stack else None
        if "color" in st:
            color = st["color"]
        if "background-image" in st:
            bg = UNKNOWN
        elif "background-color" in st:
            bg = st["background-color"]
        elif "background" in st:
            bg = st["background"] if st["background"].startswith("#") else UNKNOWN
        self.stack.append((tag, color, bg))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"unexpected </{tag}>")
            return
        self.stack.pop()

    def handle_data(self, data):
        if data.strip() and self.stack:
            inside_svg = any(t == "svg" for t, _, _ in self.stack)
            if not inside_svg:
                self.runs.append((data.strip(), self.stack[-1][1], self.stack[-1][2]))


def parse(fragment: str) -> CardParser:
    p = CardParser()
    p.feed(fragment)
    p.close()
    return p


# -- tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_card_html_parses_and_shows_its_facts(card):
    out = render_card(card)
    p = parse(out)
    assert not p.errors and not p.stack, p.errors or p.stack
    roots = [a for t, a in p.elements if "tk-card" in (a.get("class") or "").split()]
    assert len(roots) == 1
    assert roots[0]["data-card"] == card.name
    text = " ".join(t for t, _, _ in p.runs)
    assert card.name in text
    cost = [t for t, a in p.elements if "tk-cost" in (a.get("class") or "")]
    assert cost, "no cost element"
    assert re.search(rf'class="tk-cost[^"]*"[^>]*><span[^>]*>{card.cost}</span>', out)
    assert card.type in text and COLOR_THEMES[card.color] in html.unescape(text)
    if card.is_system:
        assert f"CAP {card.cap}" in text and f"TRU {card.tru}" in text
        assert out.count('class="tk-pip"') == card.tokens
    else:
        assert "tk-cap" not in out and "tk-tru" not in out and "tk-pip" not in out
    if card.definition:
        assert card.definition in html.unescape(text)
    assert card.discuss in html.unescape(text)


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_card_html_has_no_script_and_no_outside_files(card):
    out = render_card(card).lower()
    # the picture's namespace name is an identifier, never fetched; any other address is a fault
    assert out.count('xmlns="http://www.w3.org/2000/svg"') == 1
    out = out.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in out and "javascript:" not in out
    assert not re.search(r"\son\w+\s*=", out), "no event handler attributes"
    assert "http://" not in out and "https://" not in out and "url(" not in out


def test_trainable_cost_is_a_diamond_and_rarity_and_legacy_marks():
    nn, lab = POOL["Neural Network"], POOL["Fast-Moving Lab"]
    assert nn.trainable and "tk-trainable" in render_card(nn)
    assert not lab.trainable and "tk-trainable" not in render_card(lab)
    assert "rotate(45deg)" in render_card(nn).split('class="tk-name"')[0]
    assert ">★</span>" in render_card(POOL["Alignment"])
    assert ">U</span>" in render_card(nn)
    assert "💾" in render_card(POOL["CPU"]) and "💾" not in render_card(POOL["Python"])


def test_exert_symbol_is_drawn_not_printed_as_braces():
    out = render_card(POOL["Python"])
    assert "{E}" not in out and 'class="tk-exert"' in out


def test_all_text_is_escaped():
    evil = dataclasses.replace(
        POOL["Chatbot"], name='<script>alert("x")</script> & Co',
        definition="A <b>bold</b> claim & more.", discuss="Is 1 < 2 & 3 > 2?",
        rules_text="{E}: <img src=x onerror=alert(1)>",
    )
    out = render_card(evil)
    assert "<script>" not in out and "<b>" not in out and "<img" not in out
    assert "&lt;script&gt;" in out and "&amp; Co" in out and "1 &lt; 2 &amp; 3 &gt; 2?" in out
    p = parse(out)
    assert not p.errors and not p.stack
    label = [a for t, a in p.elements if "aria-label" in a][0]["aria-label"]
    assert label.startswith('<script>alert("x")</script> & Co.')  # unescaped by the parser: intact


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_text_contrast_meets_wcag_aa_on_the_real_html(card):
    p = parse(render_card(card))
    assert p.runs
    for text, color, bg in p.runs:
        assert color and bg and bg != UNKNOWN, f"{text!r} has no solid background color"
        ratio = contrast(color, bg)
        assert ratio >= 4.5, f"{card.name}: {text!r} {color} on {bg} is only {ratio:.2f}:1"


def test_every_palette_color_pairs_meet_aa():
    for name, pal in COLOR_STYLES.items():
        text_bg = pal.get("plate", pal["frame"])
        assert contrast(pal["band_text"], text_bg) >= 4.5, name
        assert contrast("#1a1a1a", pal["tint"]) >= 4.5, name


def test_picture_inks_have_contrast_on_their_card():
    """WCAG 2.x asks 3:1 of graphics (success criterion 1.4.11); the pictures' inks give 4.5:1."""
    for color, ink in PICTURE_COLORS.items():
        assert COLOR_STYLES[color]["art"] == ink
        assert contrast(ink, COLOR_STYLES[color]["tint"]) >= 4.5, color


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_every_face_draws_the_cards_own_picture(card):
    """The printed face and the card table's face both draw tokens_edu.card_picture (issue 21)."""
    out = render_card(card)
    assert card_picture(card, COLOR_STYLES[card.color]["art"]) in out
    assert out.count("<svg") == 1  # the one picture, not the old doodle beside it
    face = card_face(card)
    assert face["icon"] == card.icon
    assert TABLE_PICTURES[face["icon"]] == card_picture(card, "currentColor")


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_aria_label_reads_every_fact(card):
    label = card_aria_label(card)
    p = parse(render_card(card))
    root = [a for t, a in p.elements if "tk-card" in (a.get("class") or "").split()][0]
    assert root["aria-label"] == label
    assert label.startswith(card.name + ".")
    assert f"Costs {card.cost} Data" in label
    assert ("can be trained" in label) == card.trainable
    assert card.type in label and COLOR_THEMES[card.color] in label
    assert {"C": "common", "U": "uncommon", "R": "rare", "*": "special"}[card.rarity] in label
    if card.is_system:
        assert f"Capability {card.cap}, Trust {card.tru}" in label
        assert f"Scores {card.tokens} Token" in label
    else:
        assert "Capability" not in label
    if card.rules_text:
        assert "Ability:" in label and "{E}" not in label
    else:
        assert "No ability." in label
    if card.legacy:
        assert "Legacy" in label
    assert card.definition in label and card.discuss in label
    assert label.endswith(f"Card {card.number} of the Alpha Set.")
    if card.color == "any":
        assert "fits every deck" in label
    else:
        assert f"{card.color.title()} card" in label


def test_every_card_element_in_a_page_has_an_aria_label():
    page = "".join(render_card(c) for c in CARDS)
    p = parse(page)
    roots = [a for t, a in p.elements if "tk-card" in (a.get("class") or "").split()]
    assert len(roots) == 70
    assert all(a.get("aria-label") and a.get("role") == "group" for a in roots)


def test_scale_changes_the_size_only():
    card = POOL["GPT"]
    assert "font-size:3.000mm" in render_card(card)
    big = render_card(card, scale=1.5)
    assert "font-size:4.500mm" in big
    assert big.replace("4.500mm", "X") == render_card(card).replace("3.000mm", "X")


def test_bad_input_is_refused_plainly():
    with pytest.raises(TypeError, match="needs a Card"):
        render_card("Chatbot")
    with pytest.raises(TypeError, match="needs a Card"):
        card_aria_label(None)
    with pytest.raises(ValueError, match="between 0.3 and 4"):
        render_card(POOL["Chatbot"], scale=10)
    with pytest.raises(TypeError, match="number"):
        render_card(POOL["Chatbot"], scale="big")


def test_card_shows_itself_in_a_notebook():
    card = POOL["Transformer"]
    assert card._repr_html_() == render_card(card, scale=SCREEN_SCALE)  # 12 px text or more


@pytest.mark.browser
def test_no_card_text_overflows_in_a_real_browser():
    """Every card's texts fit its 63 x 88 mm frame in Chromium (nothing cut off), on paper (scale
    1) and on a screen (:data:`SCREEN_SCALE`, where no text is under 12 px); every picture is
    whole in its box and the Token pips are inside the card, even under a page rule that sets
    every svg's height to auto (JupyterLab's and Voila's, which once cropped Transformer's)."""
    from playwright.sync_api import sync_playwright

    need(bool(shutil.which(CHROMIUM)), f"Chromium is not at {CHROMIUM} (Debian's chromium package)")

    measure = """() => [...document.querySelectorAll('.tk-card')].map(c => {
        const t = c.querySelector('.tk-text'), n = c.querySelector('.tk-name');
        const r = c.getBoundingClientRect(), art = c.querySelector('.tk-art').getBoundingClientRect();
        const pic = c.querySelector('.tk-art svg').getBoundingClientRect();
        const pips = c.querySelector('.tk-tokens');
        const p = pips ? pips.getBoundingClientRect() : r;
        let small = 99;
        const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
        for (let x = walk.nextNode(); x; x = walk.nextNode()) {
            if (x.textContent.trim()) small = Math.min(small, parseFloat(getComputedStyle(x.parentElement).fontSize));
        }
        return {name: c.dataset.card, text: t.scrollHeight - t.clientHeight,
                nameW: n.scrollWidth - n.clientWidth, nameH: n.scrollHeight - n.clientHeight,
                w: r.width, h: r.height, small,
                picture: pic.top >= art.top - 0.5 && pic.bottom <= art.bottom + 0.5 && pic.left >= art.left - 0.5 && pic.right <= art.right + 0.5,
                pips: p.left >= r.left && p.right <= r.right && p.top >= r.top && p.bottom <= r.bottom};
    })"""
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            for scale in (1, SCREEN_SCALE):
                page.set_content('<!DOCTYPE html><meta charset="utf-8"><style>svg { max-width: 100%; height: auto; }'
                                 '</style><body>' + "".join(render_card(c, scale=scale) for c in CARDS))
                found[scale] = page.evaluate(measure)
        finally:
            browser.close()
    px_per_mm = 96 / 25.4
    for scale, res in found.items():
        assert len(res) == 70
        over = [r["name"] for r in res if r["text"] > 0 or r["nameW"] > 0 or r["nameH"] > 0]
        assert not over, f"text cut off at scale {scale} on: {over}"
        assert all(r["picture"] for r in res), [r["name"] for r in res if not r["picture"]]
        assert all(r["pips"] for r in res), [r["name"] for r in res if not r["pips"]]
        for r in res:
            assert r["w"] == pytest.approx(63 * px_per_mm * scale, abs=1)
            assert r["h"] == pytest.approx(88 * px_per_mm * scale, abs=1)
    smallest = min(r["small"] for r in found[SCREEN_SCALE])
    print(f"smallest card text: {min(r['small'] for r in found[1]):.1f} px on paper, {smallest:.1f} px on a screen")
    assert smallest >= 12, [(r["name"], r["small"]) for r in found[SCREEN_SCALE] if r["small"] < 12]
