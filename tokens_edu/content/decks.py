"""Decks: a list of cards with a name, read from names or a file, and checked against R1.

A deck is built without checks (so a student can look at an illegal one); ``validate()`` and
``Game.new`` apply the deck rule R1 and report every problem at once.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import yaml

from ..errors import DeckError
from .cards import COLORS, Card, CardPool, load_cards
from .inputs import InputTooLarge, read_text_limited

__all__ = ["Deck", "DeckError", "starter_decks", "resolve_deck", "MIN_DECK_SIZE", "MAX_COPIES", "MAX_COLORS"]

MIN_DECK_SIZE = 25  # R1
MAX_COPIES = 2  # R1
MAX_COLORS = 2  # R1
_MAX_CARDS = 500  # a deck bigger than this is a typo, not a deck
_LINE = re.compile(r"^\s*(?:(\d+)\s*[xX×]?\s+)?(.+?)\s*$")
#: A count written after the name: "Chatbot x2", "Chatbot ×2" (no card name ends that way).
_LINE_AFTER = re.compile(r"^\s*(.+?)\s+[xX×]\s*(\d+)\s*$")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Deck(Sequence):
    """A deck: an ordered list of :class:`Card` with a name. Acts like a read-only list.

    Build one with :meth:`from_names` or :meth:`from_file`; check it with :meth:`validate`.
    ``Deck`` compares equal to another deck with the same cards in the same order.
    """

    def __init__(self, cards: Iterable[Card], name: str = "Deck"):
        self._cards = tuple(cards)
        self.name = name
        self._problems: list[str] | None = None  # worked out once: a Deck never changes

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_names(cls, names: Iterable[str] | str, pool: CardPool | None = None, name: str = "Deck") -> "Deck":
        """A deck from card names, e.g. ``["Chatbot", "Chatbot", "Sensor"]`` or ``["2x Chatbot"]``.

        Args:
            names: an iterable of card names (any case). An entry may start with a count:
                ``"2x Chatbot"``. A single string is read like a deck file's text.
            pool: the CardPool to look names up in (default: the Alpha Set).
            name: the deck's name, shown in tables and logs.

        Returns:
            Deck (not yet validated: call :meth:`validate`).

        Raises:
            DeckError: an entry is not text or not a card; lists every bad entry, with the
                closest real names.
        """
        if isinstance(names, str):
            return cls.from_text(names, pool=pool, name=name)
        if isinstance(names, Deck):
            return cls(names, name=name if name != "Deck" else names.name)
        if not isinstance(names, Iterable) or isinstance(names, (bytes, dict)):
            raise DeckError(f"A deck must be a list of card names, not {type(names).__name__}.")
        pool = pool if pool is not None else load_cards()
        cards: list[Card] = []
        problems: list[str] = []
        for i, entry in enumerate(names):
            if len(cards) > _MAX_CARDS:
                problems.append(f"more than {_MAX_CARDS} cards: that is not a deck")
                break
            if isinstance(entry, Card):
                entry = entry.name
            if not isinstance(entry, str):
                problems.append(f"entry {i + 1} is {type(entry).__name__}, not a card name")
                continue
            count, cname = _split_count(entry)
            if count is None:
                problems.append(f"entry {i + 1} ('{entry[:40]}') has a count that is too big")
                continue
            if count == 0:
                problems.append(f"entry {i + 1} ('{entry[:40]}') asks for 0 copies: leave the line out instead")
                continue
            card = pool.get_card(cname)
            if card is None:
                problems.append(pool.unknown_message(cname).rstrip("."))
                continue
            cards.extend([card] * count)
        if problems:
            text = "; ".join(problems)
            raise DeckError(f"This deck cannot be read: {text}{'' if text.endswith('?') else '.'}", problems)
        return cls(cards, name=name)

    @classmethod
    def from_text(cls, text: str, pool: CardPool | None = None, name: str = "Deck") -> "Deck":
        """A deck from text: one card a line, ``2x Neural Network`` allowed, ``#`` comments.

        Raises:
            DeckError: a line is not a card (names the line and suggests real names).
        """
        if not isinstance(text, str):
            raise DeckError(f"A deck text must be text, not {type(text).__name__}.")
        entries = []
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip().lstrip("-").strip()
            if line:
                entries.append(line)
        return cls.from_names(entries, pool=pool, name=name)

    @classmethod
    def from_file(cls, path: str | Path, pool: CardPool | None = None) -> "Deck":
        """A deck from a file: plain text (``2x Name`` lines) or YAML.

        YAML may be a list of names (``- 2x Chatbot``), a mapping ``{name: ..., cards: [...]}``,
        or a mapping from card name to count (``Chatbot: 2``). The deck is named after the
        file (or the YAML ``name``).

        Raises:
            DeckError: the file cannot be read, or holds something that is not a card.
        """
        try:
            p = Path(path)
            text = read_text_limited(p, "deck")  # a byte-order mark (Windows "UTF-8") is dropped
        except InputTooLarge as e:
            raise DeckError(str(e)) from None
        except UnicodeDecodeError:
            raise DeckError(f"Cannot read the deck file {str(path)!r}: it is not a text file in UTF-8. "
                            "Save it as plain text (UTF-8) and try again.") from None
        except (OSError, TypeError, ValueError) as e:
            raise DeckError(f"Cannot read the deck file {path!r}: {getattr(e, 'strerror', None) or e}.") from None
        name = p.stem
        if p.suffix.lower() in (".yaml", ".yml"):
            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError:
                raise DeckError(f"The deck file {p.name} is not valid YAML.") from None
            if isinstance(data, dict) and "cards" in data:
                name = str(data.get("name") or name)
                data = data["cards"]
            if isinstance(data, dict):
                entries = []
                for k, v in data.items():
                    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _MAX_CARDS:
                        raise DeckError(f"In {p.name}, the count for {k!r} must be a whole number, not {v!r}.")
                    entries.append(f"{v}x {k}")
                data = entries
            if not isinstance(data, list):
                raise DeckError(f"The deck file {p.name} must list card names.")
            return cls.from_names(data, pool=pool, name=name)
        return cls.from_text(text, pool=pool, name=name)

    # -- checking ---------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every way this deck breaks R1, as plain sentences (empty when it is legal)."""
        if self._problems is None:
            self._problems = self._find_problems()
        return list(self._problems)

    def _find_problems(self) -> list[str]:
        out = []
        n = len(self._cards)
        if n < MIN_DECK_SIZE:
            out.append(f"{_plural(n, 'card')} (at least {MIN_DECK_SIZE})")
        for card_name, k in Counter(c.name for c in self._cards).items():
            if k > MAX_COPIES:
                out.append(f"{k} copies of {card_name} (at most {MAX_COPIES})")
        colors = self.colors
        if len(colors) > MAX_COLORS:
            out.append(f"{len(colors)} colors ({', '.join(colors)}; at most {MAX_COLORS})")
        return out

    def validate(self) -> "Deck":
        """Check the deck rule R1: 25+ cards, at most 2 copies of a card, 1 or 2 colors.

        Returns:
            the deck itself, so ``Deck.from_file(p).validate()`` reads well.

        Raises:
            DeckError: with every problem in one message, e.g. "26 cards, but 3 copies of
                Chatbot (at most 2) and 3 colors (green, blue, red; at most 2)".
        """
        problems = self.problems()
        if problems:
            raise DeckError(f"{self.name} is not a legal deck: {deck_problems_text(len(self), problems)}.", problems)
        return self

    @property
    def colors(self) -> list[str]:
        """The deck's colors in print order (``any`` cards have no color, R1)."""
        used = {c.color for c in self._cards}
        return [c for c in COLORS if c in used]

    def counts(self) -> dict[str, int]:
        """Card name -> number of copies, in first-seen order."""
        return dict(Counter(c.name for c in self._cards))

    def names(self) -> list[str]:
        """The card names, one per card, in deck order."""
        return [c.name for c in self._cards]

    def to_text(self) -> str:
        """The deck as a deck file's text (``2x Name`` lines), readable by :meth:`from_text`."""
        return "\n".join(f"{k}x {n}" for n, k in self.counts().items()) + "\n"

    # -- Sequence -----------------------------------------------------------------------
    def __getitem__(self, i):
        return self._cards[i]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        return hash(self._cards)

    def __repr__(self) -> str:
        n = len(self)
        return f"<Deck {self.name!r}: {n} card{'' if n == 1 else 's'}, {'/'.join(self.colors) or 'no color'}>"


def deck_problems_text(size: int, problems: list[str]) -> str:
    """The problems of a deck of ``size`` cards as one phrase: "26 cards, but 3 copies of
    Chatbot (at most 2) and 3 colors (green, blue, red; at most 2)" (R1)."""
    head = _plural(size, "card")
    rest = [p for p in problems if not p.startswith(head)]
    if len(rest) < len(problems):  # too small: that is said first, as it is
        return _join(problems)
    return f"{head}, but " + _join(rest)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _split_count(entry: str) -> tuple[int | None, str]:
    after = _LINE_AFTER.match(entry)
    if after is not None:
        name, digits = after.group(1), after.group(2)
        if len(digits) > 3 or int(digits) > _MAX_CARDS:
            return None, name
        return int(digits), name
    m = _LINE.match(entry)
    if not m or m.group(1) is None:
        return 1, entry.strip()
    digits = m.group(1)
    if len(digits) > 3 or int(digits) > _MAX_CARDS:
        return None, m.group(2)
    return int(digits), m.group(2)


def _starter(pool: CardPool, a: str, b: str) -> Deck:
    """A 26-card deck of colors a and b: from each color, its 4 cheapest Tools and Actions and 9
    or more Systems, 13 cards in all."""
    deck: list[Card] = []
    for color in (a, b):
        cards = [c for c in pool.cards() if c.color == color]
        systems = sorted((c for c in cards if c.is_system), key=lambda c: (c.cost, -c.tokens, c.number))
        others = sorted((c for c in cards if not c.is_system), key=lambda c: (c.cost, c.number))
        tools_and_actions = others[:4]
        picked: list[Card] = []
        for c in systems:  # two of each cheap trainable System (Data to train, Systems to Task)
            picked.extend([c] * (2 if c.trainable and c.cost <= 2 else 1))
        deck.extend(picked[: 13 - len(tools_and_actions)])
        deck.extend(tools_and_actions)
    order = {c.name: k for k, c in enumerate(pool.cards())}
    deck.sort(key=lambda c: order[c.name])
    return Deck(deck, name=f"{a.title()}-{b.title()} starter")


def starter_decks(pool: CardPool | None = None) -> list[Deck]:
    """The ten two-color starter decks (one per pair of colors), each legal under R1.

    Each has 25 or 26 cards, up to 13 of each color: its Systems on a cost curve (two copies of
    each cheap trainable one, cheapest first; red has fewer Systems) and its 4 cheapest Tools
    and Actions. Order: green-blue, green-black, ... white-red.

    Returns:
        list of 10 legal :class:`Deck` (R1), named like ``"Green-Blue starter"``.
    """
    pool = pool if pool is not None else load_cards()
    out = []
    for i, a in enumerate(COLORS):
        for b in COLORS[i + 1:]:
            out.append(_starter(pool, a, b).validate())
    return out


# -- a deck from what a user gives -----------------------------------------------------------------
def _starter_names() -> dict[str, Deck]:
    out = {}
    for d in starter_decks():
        key = d.name.casefold()
        out[key] = d
        out[key.removesuffix(" starter")] = d
    return out


def resolve_deck(deck) -> Deck:
    """A legal :class:`Deck` from a Deck, a starter deck's name, a deck file or card names.

    Args:
        deck: a :class:`Deck`; a starter deck's name, any case, with or without "starter"
            (``"Green-Blue"``, ``"black-red starter"``); a path to a deck file (``.txt`` or
            ``.yaml``, see :meth:`Deck.from_file`); or a list of card names.

    Returns:
        the Deck, checked against the deck rule R1.

    Raises:
        DeckError: not a starter deck nor a readable file, or the deck breaks R1 (in plain
            words, naming every problem).
    """
    if isinstance(deck, Deck):
        return deck.validate()
    if isinstance(deck, os.PathLike) or isinstance(deck, str):
        text = os.fspath(deck)
        if isinstance(deck, str):
            hit = _starter_names().get(" ".join(text.split()).casefold().replace(" - ", "-"))
            if hit is not None:
                return hit
        path = Path(text).expanduser()
        if path.is_file():
            return Deck.from_file(path).validate()
        names = ", ".join(d.name.removesuffix(" starter") for d in starter_decks())
        raise DeckError(f"'{text[:80]}' is not a starter deck or a deck file. "
                        f"The starter decks are: {names}.")
    if isinstance(deck, (list, tuple)):
        return Deck.from_names(list(deck)).validate()
    raise DeckError(f"A deck is a Deck, a starter deck's name or a deck file, not {type(deck).__name__}.")
