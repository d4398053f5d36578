"""Cards as data: the frozen :class:`Card` and the :class:`CardPool` read from ``cards/``.

The Alpha Set lives in ``cards/alpha-set.yaml`` at the project's root (and inside the installed
package in a wheel: see :mod:`tokens_edu.bundle`). This module only reads
and checks that data; what each card *does* lives in :mod:`tokens_edu.engine.effects`. A new vanilla
System (no rules text) needs only a new record in the YAML file.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import CardDataError
from .bundle import card_file

__all__ = ["Card", "CardPool", "UnknownCard", "load_cards", "plain_text", "fold_name", "COLORS", "CARD_TYPES", "RARITIES", "DEFAULT_CARDS_PATH"]

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

    In a notebook a Card shows itself as its card face: :mod:`tokens_edu.render` (imported with
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
