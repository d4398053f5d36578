"""Cards as data: the frozen :class:`Card` and the :class:`CardPool` read from ``cards/``.

The Alpha Set lives in ``cards/alpha-set.yaml`` at the project's root (and inside the installed
package in a wheel: see :mod:`tokens_edu.content.bundle`). This module only reads
and checks that data; what each card *does* lives in :mod:`tokens_edu.engine.effects`. A new vanilla
System (no rules text) needs only a new record in the YAML file.

Each card also names its picture (``icon``), an SVG file in ``cards/icons/``;
:func:`card_picture` is the one way to get it, checked safe and coloured by the card's color.
"""

from __future__ import annotations

import difflib
import html
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import CardDataError
from .bundle import card_file, icons_dir

__all__ = ["Card", "CardPool", "UnknownCard", "load_cards", "plain_text", "fold_name", "COLORS", "CARD_TYPES", "RARITIES", "DEFAULT_CARDS_PATH",
           "card_picture", "PICTURE_COLORS", "FALLBACK_ICON"]

#: The five colors of the Alpha Set, in print order; ``any`` fits every deck and is no color (R1).
COLORS = ("green", "blue", "black", "white", "red")
#: What each color is about, as printed on the type bar.
COLOR_THEMES = {
    "green": "Humans and AI",
    "blue": "Representation & Reasoning",
    "black": "Machine Learning",
    "white": "Ethical AI Design",
    "red": "Societal Impacts",
    "any": "Any deck",
}
#: The ink of each color's card pictures (the lines of :func:`card_picture`), a CSS hex color. Each
#: has a contrast of 3:1 or more on its card's light tint (WCAG's floor for graphics).
PICTURE_COLORS = {
    "green": "#2e7d32",
    "blue": "#1565c0",
    "black": "#424242",
    "white": "#8d6e63",
    "red": "#c62828",
    "any": "#6a1b9a",
}
#: The picture of a card whose record names none (``cards/icons/cards.svg``: two playing cards).
FALLBACK_ICON = "cards"
CARD_TYPES = ("System", "Tool", "Action")
#: Rarity letters; ``*`` is printed as a star (★).
RARITIES = ("C", "U", "R", "*")
KEYWORDS = ("Fast-Tracked", "Highly Trusted", "Adversarial", "Big Data", "Attention")

#: The Alpha Set's card file: ``cards/alpha-set.yaml`` of a checkout, or the wheel's copy.
DEFAULT_CARDS_PATH = card_file()

# What tablets, phones and word processors type instead of plain ASCII: curly quotes and
# apostrophes, dashes, no-break spaces. Card names and action texts are read through this.
_TYPOGRAPHIC = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'",
    "`": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u200b": "", "\u200c": "", "\u200d": "",
    "\u2060": "", "\ufeff": "",
})
_STRAY = " \t\r\n.,;:!?\"'()[]{}*_"


def plain_text(text: str) -> str:
    """``text`` with typographic quotes, apostrophes, dashes and odd spaces made plain ASCII,
    runs of spaces made one, and stray punctuation and quotes trimmed from both ends.

    ``plain_text("“AI Isn’t  Magic.”") == "AI Isn't Magic"``
    """
    if not text.isascii():  # full-width letters (Ｃｈａｔｂｏｔ) and other compatibility forms
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.translate(_TYPOGRAPHIC).split()).strip(_STRAY)


def fold_name(text: str) -> str:
    """A typed card name folded for matching: :func:`plain_text`, then case-folded."""
    return plain_text(text).casefold()


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set, as printed. Immutable; compare and hash by value.

    Attributes:
        name: the printed name, e.g. ``"Neural Network"``.
        color: one of :data:`COLORS` or ``"any"``.
        type: ``"System"``, ``"Tool"`` or ``"Action"``.
        rarity: ``"C"``, ``"U"``, ``"R"`` or ``"*"`` (shown as ★).
        cost: Data to deploy it (int >= 0), before the deploy tax (R10).
        trainable: True when the cost has a diamond: it may be put in the Training Set (R8).
        tokens: Tokens a System scores when it Runs a Task (int), None for Tools and Actions.
        cap, tru: Capability and Trust of a System (int), None for Tools and Actions.
        keywords: tuple of keyword names (``"Fast-Tracked"``, ``"Highly Trusted"``, ...).
        legacy: True for 💾 Legacy Tools (R20).
        big_data: N of "Big Data N" (R11), or None.
        number: the card's number in the set (1-70).
        mechanic: what the card does, restated plainly (the source of truth for the engine).
        rules_text, definition, discuss, learn_more: the card's printed-style words (our own).
        icon: the name of the card's picture, ``cards/icons/<icon>.svg`` (e.g. ``"message-chatbot"``),
            or ``""`` for none; draw it with :func:`card_picture`.

    In a notebook a Card shows itself as its card face: :mod:`tokens_edu.present.render` (imported with
    the package) gives the class its ``_repr_html_``, so this data module needs no drawing code.
    """

    name: str
    color: str
    type: str
    rarity: str
    cost: int
    trainable: bool
    tokens: int | None = None
    cap: int | None = None
    tru: int | None = None
    keywords: tuple[str, ...] = ()
    legacy: bool = False
    big_data: int | None = None
    number: int = 0
    mechanic: str = field(default="", compare=False)
    rules_text: str = field(default="", compare=False)
    definition: str = field(default="", compare=False)
    discuss: str = field(default="", compare=False)
    learn_more: str = field(default="", compare=False)
    icon: str = field(default="", compare=False)

    @property
    def is_system(self) -> bool:
        """True for Systems (cards with CAP and TRU that stay in play)."""
        return self.type == "System"

    @property
    def is_tool(self) -> bool:
        """True for Tools (stay in play; many have an ``{E}`` ability, R17)."""
        return self.type == "Tool"

    @property
    def is_action(self) -> bool:
        """True for Actions (resolve once, then go to the discard pile, R18)."""
        return self.type == "Action"

    def has(self, keyword: str) -> bool:
        """True when the card prints ``keyword`` (``"Fast-Tracked"``, ``"Highly Trusted"``...)."""
        return keyword in self.keywords

    def __repr__(self) -> str:
        if self.is_system:
            return f"<Card {self.name!r}: {self.color} System, cost {self.cost}, {self.tokens} Tokens, CAP {self.cap}, TRU {self.tru}>"
        return f"<Card {self.name!r}: {self.color} {self.type}, cost {self.cost}>"

    def __str__(self) -> str:
        return self.name


class UnknownCard(KeyError):
    """A card name that is not in the set (a ``KeyError``); the message suggests close names."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else "Unknown card."


_REQUIRED = ("name", "color", "type", "rarity", "cost", "trainable")
_ICON_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _card_from_record(rec: object, where: str) -> Card:
    if not isinstance(rec, Mapping):
        raise CardDataError(f"{where}: each card must be a mapping of fields, not {type(rec).__name__}.")
    missing = [k for k in _REQUIRED if k not in rec]
    if missing:
        raise CardDataError(f"{where}: missing field(s) {', '.join(missing)}.")
    name = rec["name"]
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(f"{where}: the name must be some text.")
    where = f"{where} ({name})"
    color, ctype, rarity = rec["color"], rec["type"], str(rec["rarity"])
    if color not in COLORS + ("any",):
        raise CardDataError(f"{where}: color {color!r} is not one of {', '.join(COLORS)}, any.")
    if ctype not in CARD_TYPES:
        raise CardDataError(f"{where}: type {ctype!r} is not System, Tool or Action.")
    if rarity not in RARITIES:
        raise CardDataError(f"{where}: rarity {rarity!r} is not C, U, R or *.")

    def intval(key: str, required: bool) -> int | None:
        v = rec.get(key)
        if v is None or v == "":
            if required:
                raise CardDataError(f"{where}: {key} is needed.")
            return None
        if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v > 99:
            raise CardDataError(f"{where}: {key} must be a whole number from 0 to 99, not {v!r}.")
        return v

    is_system = ctype == "System"
    keywords = rec.get("keywords") or []
    if isinstance(keywords, str):
        keywords = [k.strip() for k in keywords.split(";") if k.strip()]
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise CardDataError(f"{where}: keywords must be a list of words.")
    texts = {}
    for key in ("mechanic", "rules_text", "definition", "discuss", "learn_more"):
        v = rec.get(key) or ""
        if not isinstance(v, str):
            raise CardDataError(f"{where}: {key} must be text.")
        texts[key] = v.strip()
    icon = rec.get("icon") or ""
    if not isinstance(icon, str) or (icon and not _ICON_NAME.fullmatch(icon)):
        raise CardDataError(f"{where}: icon must name a picture in cards/icons/ in lower-case letters, "
                            f"digits and hyphens, like 'message-chatbot', not {icon!r}.")
    tru = intval("tru", is_system)
    if is_system and tru == 0:
        raise CardDataError(f"{where}: a System's Trust must be at least 1.")
    return Card(
        name=name.strip(),
        color=color,
        type=ctype,
        rarity=rarity,
        cost=intval("cost", True),
        trainable=bool(rec["trainable"]),
        tokens=intval("tokens", is_system),
        cap=intval("cap", is_system),
        tru=tru,
        keywords=tuple(keywords),
        legacy=bool(rec.get("legacy", False)),
        big_data=intval("big_data", False),
        number=intval("number", False) or 0,
        icon=icon,
        **texts,
    )


class CardPool(Mapping):
    """The cards of a set, by name. ``pool["neural network"]`` finds the Card (any case).

    A read-only mapping from the printed name to :class:`Card`, in set order. Looking up a name
    that is not in the set raises ``KeyError`` whose message suggests the closest real names.
    """

    def __init__(self, cards: list[Card]):
        self._cards: dict[str, Card] = {}
        self._folded: dict[str, Card] = {}
        for card in cards:
            key = card.name.casefold()
            if key in self._folded:
                raise CardDataError(f"Two cards are named {card.name!r}; names must be unique.")
            self._cards[card.name] = card
            self._folded[key] = card
            self._folded.setdefault(fold_name(card.name), card)

    def __getitem__(self, name: str) -> Card:
        card = self.get_card(name)
        if card is None:
            raise UnknownCard(self.unknown_message(name))
        return card

    def get_card(self, name: object) -> Card | None:
        """The Card called ``name``, or None. Case, extra spaces, curly quotes and apostrophes
        (``AI Isn’t Magic``, as tablets type it) and stray punctuation around it are ignored."""
        if isinstance(name, Card):
            return self._cards.get(name.name)
        if not isinstance(name, str):
            return None
        card = self._folded.get(" ".join(name.split()).casefold())
        return card if card is not None else self._folded.get(fold_name(name))

    def suggest(self, name: object, n: int = 3) -> list[str]:
        """Up to ``n`` real card names closest to ``name`` (for "did you mean" messages)."""
        text = str(name).casefold()
        names = {c.name.casefold(): c.name for c in self._cards.values()}
        close = difflib.get_close_matches(text, list(names), n=n, cutoff=0.5)
        if not close:
            close = [k for k in names if text and (text in k or k in text)][:n]
        return [names[k] for k in close]

    def unknown_message(self, name: object) -> str:
        """A plain sentence saying ``name`` is not a card, with the closest names if any."""
        shown = name if isinstance(name, str) else repr(name)
        if isinstance(shown, str) and len(shown) > 60:
            shown = shown[:57] + "..."
        close = self.suggest(name) if isinstance(name, str) else []
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        return f"There is no card called '{shown}'.{hint}"

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, name: object) -> bool:
        return self.get_card(name) is not None

    def cards(self) -> list[Card]:
        """All cards, in set order (by number)."""
        return list(self._cards.values())

    def __repr__(self) -> str:
        return f"<CardPool of {len(self)} cards>"


@lru_cache(maxsize=8)
def _load(path: str) -> CardPool:
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as e:
        raise CardDataError(f"Cannot read the card file {path}: {e.strerror or e}.") from None
    except yaml.YAMLError as e:
        raise CardDataError(f"The card file {path} is not valid YAML: {e}") from None
    if isinstance(data, Mapping) and "cards" in data:
        data = data["cards"]
    if not isinstance(data, list):
        raise CardDataError(f"The card file {path} must hold a list of cards.")
    return CardPool([_card_from_record(rec, f"card {i + 1}") for i, rec in enumerate(data)])


def load_cards(path: str | Path | None = None) -> CardPool:
    """Read a set of cards (default: the Alpha Set in the project's ``cards/alpha-set.yaml``).

    Args:
        path: a YAML file holding a list of card records (see ``cards/alpha-set.yaml``), or None.

    Returns:
        CardPool: the cards by name. Read once per path, then shared (cards are immutable).

    Raises:
        CardDataError: the file is missing, not YAML, or a record is broken (names the record).
    """
    if path is not None and not isinstance(path, (str, Path)):
        raise CardDataError(f"A card file is given as a path, not {type(path).__name__}.")
    return _load(str(Path(path).resolve()) if path is not None else str(DEFAULT_CARDS_PATH))


# -- pictures ----------------------------------------------------------------------------------
# A picture file may hold only what the icon set uses: one <svg> of <path>s, colours "none" or
# "currentColor". Everything else (scripts, links, styles, images, foreign objects, outside
# references, entities) is refused, so a picture is safe to put in any page as it is.
_SVG_NS = "{http://www.w3.org/2000/svg}"
_SVG_KEEP = ("viewBox", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin")
_SVG_DROP = ("width", "height", "class")  # the set's own size and class names: the page decides
_PATH_KEEP = ("d", "fill", "stroke", "opacity")
_NUM = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_VALUES = {
    "viewBox": re.compile(rf"{_NUM}(?:[\s,]+{_NUM}){{3}}"),
    "fill": re.compile(r"none|currentColor"),
    "stroke": re.compile(r"none|currentColor"),
    "stroke-width": re.compile(_NUM),
    "stroke-linecap": re.compile(r"round|butt|square"),
    "stroke-linejoin": re.compile(r"round|miter|bevel"),
    "d": re.compile(r"[MmZzLlHhVvCcSsQqTtAa0-9eE+\-.,\s]+"),
    "opacity": re.compile(_NUM),
}
_MAX_PICTURE_BYTES = 32_000  # the set's largest outline icon is about 6 KB
_CSS_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|currentColor|[a-zA-Z]{3,20}")
_CSS_SIZE = re.compile(r"\d+(?:\.\d+)?(?:px|em|rem|mm|%)?")


@lru_cache(maxsize=256)
def _picture_parts(path: str, stamp: tuple[int, int]) -> tuple[tuple, tuple]:
    """The checked drawing in the picture file ``path``: (the svg's attributes, each path's
    attributes), as tuples of (name, value). ``stamp`` (modification time, size) is part of the
    cache key, so an edited file is read again. Raises CardDataError naming the file and what in
    it is not allowed."""
    name = os.path.basename(path)

    def refuse(why: str) -> CardDataError:
        return CardDataError(f"The card picture {name} cannot be used: {why}. (File: {path})")

    if stamp[1] > _MAX_PICTURE_BYTES:
        raise refuse(f"it is {stamp[1]} bytes, more than a picture of the set needs ({_MAX_PICTURE_BYTES})")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise refuse(f"it cannot be read ({getattr(e, 'strerror', None) or e})") from None
    if re.search(r"<!(?:DOCTYPE|ENTITY)", text, flags=re.I):
        raise refuse("it declares a DOCTYPE or an entity")
    try:
        root = ET.fromstring(text)  # comments and processing instructions are not kept
    except ET.ParseError as e:
        raise refuse(f"it is not well-formed SVG ({e})") from None

    def attrs(el: ET.Element, keep: tuple[str, ...], drop: tuple[str, ...] = ()) -> tuple[tuple[str, str], ...]:
        tag = el.tag.removeprefix(_SVG_NS)
        out = []
        for key, value in el.attrib.items():
            if key in drop:
                continue
            if key not in keep:
                raise refuse(f"the <{tag}> has the attribute {key!r}, which a picture may not have")
            if not _VALUES[key].fullmatch(value.strip()):
                raise refuse(f"the <{tag}> has {key}={value[:40]!r}, which a picture may not have")
            out.append((key, value.strip()))
        return tuple(out)

    if root.tag != _SVG_NS + "svg":
        raise refuse(f"it is a <{root.tag}>, not an <svg> in the SVG namespace")
    svg = attrs(root, _SVG_KEEP, _SVG_DROP)
    if "viewBox" not in dict(svg):
        raise refuse("the <svg> has no viewBox")
    if (root.text or "").strip():
        raise refuse("the <svg> holds text")
    paths = []
    for el in root:
        if el.tag != _SVG_NS + "path":
            raise refuse(f"it holds a <{el.tag.removeprefix(_SVG_NS)}>; a picture may hold only <path> elements")
        if len(el) or (el.text or "").strip() or (el.tail or "").strip():
            raise refuse("a <path> holds other elements or text")
        kept = attrs(el, _PATH_KEEP)
        found = dict(kept)
        if "d" not in found:
            raise refuse("a <path> has no d")
        if found.get("fill") == "none" and found.get("stroke") == "none":
            continue  # the set's invisible 24 x 24 frame
        paths.append(kept)
    if not paths:
        raise refuse("it draws nothing")
    return svg, tuple(paths)


def card_picture(card: Card, color: str | None = None, *, label: str | bool = False,
                 size: str = "100%") -> str:
    """The card's picture of its idea: an inline ``<svg>`` element as a string, safe to put in a page.

    The picture is the file ``cards/icons/<card.icon>.svg`` (Tabler Icons, MIT, or drawn for this
    project: ``cards/icons/README.md``), checked as it is read: only ``<svg>`` and ``<path>`` with
    the few drawing attributes the set uses are kept, so no script, link, style or outside
    reference can reach a page. A card whose record names no picture gets :data:`FALLBACK_ICON`.
    The gallery, the print sheets, the card table and the replays all draw it from here.

    Args:
        card: a :class:`Card`.
        color: the ink, a CSS color such as ``"#1565c0"`` or ``"currentColor"`` (takes the color
            of the text around it). None (the default): the card's own color,
            ``PICTURE_COLORS[card.color]``.
        label: False (the default): the picture is decoration beside the card's words, hidden
            from screen readers (``aria-hidden="true"``). A string, or True for the card's name:
            the picture is an image with that name (``role="img"``, ``aria-label`` and a ``<title>``).
        size: the ``width`` and ``height`` of the element, a CSS length such as ``"100%"`` (fill
            the box it is put in, the default), ``"48px"`` or ``"2em"``. The drawing keeps its
            shape, centred.

    Returns:
        str: one ``<svg class="tk-picture" data-icon="<icon>" ...>`` element.

    Raises:
        TypeError: ``card`` is not a Card.
        ValueError: ``color`` or ``size`` is not a plain CSS color or length.
        CardDataError: the picture file is missing, or holds something a picture may not
            (the message names the file and what).
    """
    if not isinstance(card, Card):
        raise TypeError(f"card_picture needs a Card (for example load_cards()['Chatbot']), not {type(card).__name__}.")
    ink = PICTURE_COLORS.get(card.color, PICTURE_COLORS["black"]) if color is None else color
    if not isinstance(ink, str) or not _CSS_COLOR.fullmatch(ink):
        raise ValueError(f"color must be a CSS color like '#1565c0' or 'currentColor', not {color!r}.")
    if not isinstance(size, str) or not _CSS_SIZE.fullmatch(size):
        raise ValueError(f"size must be a CSS length like '100%', '48px' or '2em', not {size!r}.")
    icon = card.icon or FALLBACK_ICON
    path = icons_dir() / f"{icon}.svg"
    try:
        st = path.stat()
    except OSError:
        raise CardDataError(f"The picture {icon!r} of the card {card.name!r} is missing: there is no "
                            f"file {path}. Use the name of a file in cards/icons/.") from None
    svg, paths = _picture_parts(str(path), (st.st_mtime_ns, st.st_size))

    def paint(value: str) -> str:
        return ink if value == "currentColor" else value

    head = dict(svg)
    head.setdefault("fill", "none")
    # the size twice: as attributes, and as a style that a page's own rule for every <svg> cannot
    # override (JupyterLab's and Voila's "svg { height: auto }" made a picture as tall as it is
    # wide, so its box showed a magnified slice of it)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tk-picture" data-icon="{icon}" width="{size}" height="{size}"'
           f' style="width:{size};height:{size}"']
    out += [f' {k}="{html.escape(paint(v), quote=True)}"' for k, v in head.items()]
    if label:
        name = card.name if label is True else str(label)
        out.append(f' role="img" aria-label="{html.escape(name, quote=True)}">'
                   f"<title>{html.escape(name, quote=False)}</title>")
    else:
        out.append(' aria-hidden="true" focusable="false">')
    for attributes in paths:
        out.append("<path" + "".join(f' {k}="{html.escape(paint(v), quote=True)}"' for k, v in attributes) + "/>")
    out.append("</svg>")
    return "".join(out)
