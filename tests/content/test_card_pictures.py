"""Every card's own picture (issue 21): the `icon` of each card in cards/alpha-set.yaml, the SVG
files in cards/icons/ (Tabler Icons 3.52.0, MIT, and a few drawn for the project), and
`tokens_edu.card_picture`, the one way to get a card's picture, checked safe and in its colour.
The card faces that draw it are tested in tests/present/test_render.py.

The files are checked here by a parser of the test's own (not by card_picture's), so a file that
slipped past the package's checks would still fail."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tokens_edu import CardDataError, card_picture, load_cards
from tokens_edu.content.bundle import icons_dir
from tokens_edu.content.cards import FALLBACK_ICON, PICTURE_COLORS, Card

ROOT = Path(__file__).resolve().parents[2]
ICONS = ROOT / "cards" / "icons"
POOL = load_cards()
CARDS = POOL.cards()
IDS = [c.name for c in CARDS]
SVG = "{http://www.w3.org/2000/svg}"
FILES = sorted(ICONS.glob("*.svg"))
# what the Tabler outline set uses (measured over all 5,491 of its outline icons), and all we allow
ALLOWED = {"svg": {"xmlns", "width", "height", "viewBox", "fill", "stroke", "stroke-width",
                   "stroke-linecap", "stroke-linejoin", "class"},
           "path": {"d", "fill", "stroke", "opacity"}}
OURS = "tokens_edu original"


def test_the_pictures_folder_is_the_bundled_one_in_a_checkout():
    assert icons_dir().resolve() == ICONS.resolve()


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_every_card_names_a_picture_that_exists(card):
    assert card.icon, f"{card.name} has no icon"
    assert (ICONS / f"{card.icon}.svg").is_file(), f"{card.name}: cards/icons/{card.icon}.svg is missing"


def test_every_card_has_a_picture_of_its_own():
    by_icon: dict[str, list[str]] = {}
    for card in CARDS:
        by_icon.setdefault(card.icon, []).append(card.name)
    shared = {icon: names for icon, names in by_icon.items() if len(names) > 1}
    assert not shared, f"cards sharing a picture: {shared}"
    assert len(by_icon) == 70


def test_no_picture_file_is_left_unused():
    used = {c.icon for c in CARDS} | {FALLBACK_ICON}
    assert {p.stem for p in FILES} == used
    assert {p.name for p in ICONS.iterdir()} == {p.name for p in FILES} | {"LICENSE", "README.md"}


def _check_svg_file(text: str) -> ET.Element:
    """The test's own safety check of one picture file; returns its root element."""
    low = text.lower()
    for bad in ("<!doctype", "<!entity", "<script", "<foreignobject", "<style", "<image", "<use",
                "<a ", "href", "javascript:", "data:", "url(", "@import", "<?xml-stylesheet"):
        assert bad not in low, f"{bad!r} in a picture"
    assert not re.search(r"\son[a-z]+\s*=", low), "an event handler attribute"
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\")", low), "an outside address"
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    for el in root.iter():
        assert el.tag.startswith(SVG), f"{el.tag} is not an SVG element"
        tag = el.tag.removeprefix(SVG)
        assert tag in ALLOWED, f"<{tag}> is not an element the set uses"
        assert set(el.attrib) <= ALLOWED[tag], f"<{tag}> has {set(el.attrib) - ALLOWED[tag]}"
        for key in ("fill", "stroke"):
            assert el.attrib.get(key, "none") in ("none", "currentColor"), el.attrib
    return root


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_picture_file_is_safe_and_drawn_like_the_set(path):
    text = path.read_text(encoding="utf-8")
    root = _check_svg_file(text)
    assert root.attrib["viewBox"] == "0 0 24 24"
    assert root.attrib["stroke-width"] == "2" and root.attrib["stroke-linecap"] == "round"
    if text.startswith(f"<!-- {OURS}"):
        assert "class" not in root.attrib
    else:  # copied unchanged from Tabler: its own class names the icon the file is named after
        assert f"icon-tabler-{path.stem} " in root.attrib["class"] + " ", root.attrib["class"]


def test_the_licence_and_the_readme_are_beside_the_pictures():
    licence = (ICONS / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Paweł Kuna" in licence
    assert "Permission is hereby granted, free of charge" in licence
    readme = (ICONS / "README.md").read_text(encoding="utf-8")
    for words in ("Tabler Icons", "3.52.0", "@tabler/icons@3.52.0", "MIT", "LICENSE"):
        assert words in readme, words
    ours = [p for p in FILES if p.read_text(encoding="utf-8").startswith(f"<!-- {OURS}")]
    assert len(ours) == 7
    for p in ours:
        assert f"`{p.name}`" in readme, f"{p.name} is drawn for the project but not listed in the README"


@pytest.mark.parametrize("card", CARDS, ids=IDS)
def test_card_picture_is_in_the_cards_colour_and_hidden_from_screen_readers(card):
    out = card_picture(card)
    root = ET.fromstring(out)
    ink = PICTURE_COLORS[card.color]
    assert root.attrib["stroke"] == ink and root.attrib["aria-hidden"] == "true"
    assert root.attrib["data-icon"] == card.icon and root.attrib["class"] == "tk-picture"
    assert root.attrib["width"] == root.attrib["height"] == "100%"
    assert root.attrib["style"] == "width:100%;height:100%"  # a page's "svg { height: auto }" cannot crop it
    assert "currentColor" not in out and "class=\"icon" not in out
    source = ET.parse(ICONS / f"{card.icon}.svg").getroot()
    visible = [p.attrib["d"] for p in source if not (p.get("fill") == "none" and p.get("stroke") == "none")]
    assert [p.attrib["d"] for p in root] == visible  # the whole drawing, less the set's empty frame
    assert all(p.get("fill", ink) in (ink, "none") for p in root)
    _check_svg_file(out.replace(f'"{ink}"', '"currentColor"').replace(' class="tk-picture"', "")
                    .replace(f' data-icon="{card.icon}"', "").replace(' aria-hidden="true" focusable="false"', "")
                    .replace(' style="width:100%;height:100%"', ""))


def test_a_labelled_picture_is_an_image_with_a_name():
    chatbot = POOL["Chatbot"]
    root = ET.fromstring(card_picture(chatbot, label=True))
    assert root.attrib["role"] == "img" and root.attrib["aria-label"] == "Chatbot"
    assert root[0].tag == SVG + "title" and root[0].text == "Chatbot" and "aria-hidden" not in root.attrib
    named = card_picture(POOL["AI Isn't Magic"], label='A wand, crossed out: "no magic"')
    root = ET.fromstring(named)
    assert root.attrib["aria-label"] == 'A wand, crossed out: "no magic"' and "&quot;" in named


def test_colour_and_size_arguments():
    gpu = POOL["GPU"]
    assert 'stroke="currentColor"' in card_picture(gpu, "currentColor")
    assert 'stroke="#ff0000"' in card_picture(gpu, "#ff0000")
    assert 'width="48px" height="48px"' in card_picture(gpu, size="48px")
    for bad in ("red;background:url(x)", '#fff" onload="x', "", 12):
        with pytest.raises(ValueError, match="color must be a CSS color"):
            card_picture(gpu, bad)
    for bad in ("100%;x", "big", "", 48):
        with pytest.raises(ValueError, match="size must be a CSS length"):
            card_picture(gpu, size=bad)
    with pytest.raises(TypeError, match="needs a Card"):
        card_picture("GPU")


def _card(icon: str) -> Card:
    return Card(name="Test Card", color="blue", type="Action", rarity="C", cost=1, trainable=False, icon=icon)


UNSAFE = {
    "script": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script>alert(1)</script><path d="M1 1h2"/></svg>',
    "onload": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" onload="alert(1)"><path d="M1 1h2"/></svg>',
    "foreign": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">'
                "hi</div></foreignObject></svg>"),
    "use-href": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24">'
                 '<use xlink:href="https://example.org/x.svg#a"/></svg>'),
    "image": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><image href="https://example.org/a.png"/></svg>',
    "fill-url": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1 1h2" fill="url(https://example.org/#g)"/></svg>',
    "style-attr": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1 1h2" style="fill:url(#g)"/></svg>',
    "style-el": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>@import url(x.css);</style><path d="M1 1h2"/></svg>',
    "entity": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
               '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="&x;"/></svg>'),
    "bad-d": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="javascript:alert(1)"/></svg>',
    "no-namespace": '<svg viewBox="0 0 24 24"><path d="M1 1h2"/></svg>',
    "html": "<html><body>not a picture</body></html>",
    "not-xml": "<svg <path",
    "empty": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z" fill="none" stroke="none"/></svg>',
    "text": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">hello<path d="M1 1h2"/></svg>',
    "huge": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">' + '<path d="M1 1h2"/>' * 3000 + "</svg>",
}


@pytest.mark.parametrize("kind", list(UNSAFE))
def test_an_unsafe_picture_file_is_refused_with_its_name(kind, tmp_path, monkeypatch):
    monkeypatch.setattr("tokens_edu.content.cards.icons_dir", lambda: tmp_path)
    (tmp_path / "evil.svg").write_text(UNSAFE[kind], encoding="utf-8")
    with pytest.raises(CardDataError, match=r"The card picture evil\.svg cannot be used: "):
        card_picture(_card("evil"))


def test_an_edited_picture_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr("tokens_edu.content.cards.icons_dir", lambda: tmp_path)
    pic = tmp_path / "mine.svg"
    pic.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1 1h2"/></svg>')
    assert 'd="M1 1h2"' in card_picture(_card("mine"))
    pic.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M5 5h10"/></svg>')
    assert 'd="M5 5h10"' in card_picture(_card("mine"))
    pic.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script/></svg>')
    with pytest.raises(CardDataError, match="may hold only <path>"):
        card_picture(_card("mine"))


def test_a_missing_picture_says_which_card_and_file():
    with pytest.raises(CardDataError, match=r"The picture 'no-such-picture' of the card 'Test Card' is missing"):
        card_picture(_card("no-such-picture"))


def test_a_card_naming_no_picture_gets_the_blank_card_picture():
    out = card_picture(_card(""))
    assert f'data-icon="{FALLBACK_ICON}"' in out and 'stroke="#1565c0"' in out


@pytest.mark.parametrize("icon", ["../../etc/passwd", "Chatbot", "message chatbot", "a.svg", "-x", 7, ["x"]])
def test_load_cards_refuses_a_bad_icon_name(icon, tmp_path):
    import yaml

    path = tmp_path / "set.yaml"
    path.write_text(yaml.safe_dump([{"name": "Odd", "color": "blue", "type": "Action", "rarity": "C",
                                      "cost": 1, "trainable": False, "icon": icon}]), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"card 1 \(Odd\): icon must name a picture in cards/icons/"):
        load_cards(path)


def test_a_card_file_without_icons_still_loads(tmp_path):
    path = tmp_path / "set.yaml"
    path.write_text("- {name: Plain, color: red, type: Action, rarity: C, cost: 1, trainable: false}\n")
    card = load_cards(path)["Plain"]
    assert card.icon == "" and f'data-icon="{FALLBACK_ICON}"' in card_picture(card)
