"""One card face everywhere (issue 21 part 1): the card table's face (widgets/static/table.js,
``faceHtml``) follows render_card's face (present/render.py: the gallery, print sheets, "Read a
card", Card._repr_html_) part for part, for all 70 cards, in Chromium: the same parts in the same
order, the same cost, name, Token pips, picture and its ink, type, ability text with the same
exert symbol, CAP and TRU, and the same frame color. And the table's face is readable at 1366x768:
every text at least 12 px, the whole name and the whole ability shown (nothing cut off).
"""

from __future__ import annotations

import pytest
from table_harness import table_page

from tokens_edu import load_cards, render_card
from tokens_edu.present.faces import card_face, table_pictures
from tokens_edu.present.render import COLOR_STYLES

pytestmark = pytest.mark.browser

CARDS = load_cards().cards()
#: The parts both faces have, by class, in the order render_card lays them out.
PARTS = ["tk-head", "tk-cost", "tk-name", "tk-tokens", "tk-art", "tk-typebar", "tk-type", "tk-text",
         "tk-rules", "tk-foot", "tk-cap", "tk-tru"]

# What a face shows, read from the drawn page (root: a .tk-card or a .tk-face element).
_READ = """([root, parts]) => {
  const one = (sel) => root.querySelector(sel);
  const text = (sel) => { const e = one(sel); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : null; };
  const svg = one('.tk-art svg'); const path = svg ? svg.querySelector('path') : null;
  const first = (e) => parts.find((p) => e.classList.contains(p));
  return {
    order: [...root.querySelectorAll('*')].map(first).filter(Boolean),
    cost: text('.tk-cost'), trainable: one('.tk-cost').classList.contains('tk-trainable'),
    name: text('.tk-name'), pips: root.querySelectorAll('.tk-pip').length,
    icon: svg ? svg.dataset.icon : null, ink: path ? getComputedStyle(path).stroke : null,
    frame: getComputedStyle(root).backgroundColor, type: text('.tk-type'), legacy: !!one('.tk-legacy'),
    rules: text('.tk-rules') || '', exert: root.querySelectorAll('.tk-rules .tk-exert').length,
    cap: text('.tk-cap'), tru: text('.tk-tru'),
  };
}"""


@pytest.fixture(scope="module")
def faces(browser):
    """Both faces of every card, read in one page: ``[(name, printed, table, fit)]``."""
    palette = {k: dict(v) for k, v in COLOR_STYLES.items()}
    pictures = table_pictures()
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        page.set_content(table_page([{}], palette, pictures))
        page.wait_for_function("() => window.__table && window.__table.faceHtml")
        out = []
        for card in CARDS:
            page.evaluate("""([cardHtml, face, palette, pictures]) => {
                const host = document.getElementById('host');
                host.innerHTML = '<div id="printed">' + cardHtml + '</div><div class="tokens-table"><span class="tt-card">' +
                  window.__table.faceHtml(palette, face, pictures) + '</span></div>';
            }""", [render_card(card), card_face(card), palette, pictures])
            printed = page.evaluate(_READ, [page.locator("#printed .tk-card").element_handle(), PARTS])
            table = page.evaluate(_READ, [page.locator(".tokens-table .tk-face").element_handle(), PARTS])
            fit = page.evaluate("""(face) => {
                const r = face.getBoundingClientRect();
                const texts = [...face.querySelectorAll('*')].filter((e) =>
                  [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
                const cut = [...face.querySelectorAll('.tk-name, .tk-text, .tk-typebar')].filter((e) =>
                  e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map((e) => e.className);
                const foot = face.querySelector('.tk-foot').getBoundingClientRect();
                return {w: r.width, h: r.height, over: Math.round(foot.bottom - r.bottom), minFont: Math.min(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize))),
                        cut, footInside: foot.bottom <= r.bottom + 0.5 && foot.top >= r.top};
            }""", page.locator(".tokens-table .tk-face").element_handle())
            out.append((card.name, printed, table, fit))
        return out
    finally:
        page.close()


def test_the_faces_have_the_same_parts_in_the_same_order(faces):
    assert len(faces) == 70
    for name, printed, table, _ in faces:
        assert table["order"] == [p for p in printed["order"] if p in table["order"]], name
        assert {"tk-head", "tk-cost", "tk-name", "tk-art", "tk-typebar", "tk-type", "tk-foot"} <= set(table["order"]), name


def test_the_faces_show_the_same_facts_symbols_and_colors(faces):
    for name, printed, table, _ in faces:
        for key in ("cost", "trainable", "name", "pips", "icon", "ink", "frame", "type", "legacy", "rules", "exert",
                    "cap", "tru"):
            assert table[key] == printed[key], (name, key, table[key], printed[key])
        assert table["icon"] and table["ink"], name  # every card has its own picture, inked


def test_a_table_face_is_readable_at_1366x768(faces):
    bad = [(name, fit) for name, _, _, fit in faces if fit["minFont"] < 12 or fit["cut"] or not fit["footInside"]]
    assert not bad, bad
    for name, _, _, fit in faces:
        assert fit["minFont"] >= 12, (name, fit)
        assert not fit["cut"], (name, fit)  # the whole name, type and ability: nothing cut off
        assert fit["footInside"], (name, fit)  # CAP and TRU inside the card
        assert fit["w"] >= 140 and fit["h"] >= 190, (name, fit)
