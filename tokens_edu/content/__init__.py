"""Content: the card data, decks, the glossary, names and the lessons that ship with the kit.

Data in, no rules: :mod:`.cards` reads ``cards/alpha-set.yaml`` into frozen :class:`Card` values,
:mod:`.decks` builds and checks decks (R1), :mod:`.bundle` finds the cards and lessons inside an
installed package, :mod:`.glossary` and :mod:`.guide` hold words for students and teachers, and
:mod:`.names` cleans the names people type. Imports only :mod:`tokens_edu.errors`.
"""

from typing import TYPE_CHECKING

from .._lazy import attributes

if TYPE_CHECKING:  # what the names are, for type checkers and editors (nothing runs here)
    from .cards import COLORS, Card, CardPool, load_cards
    from .decks import MAX_COLORS, MAX_COPIES, MIN_DECK_SIZE, Deck, resolve_deck, starter_decks

#: Each public name and the module that defines it: the module loads when the name is first
#: read (``tokens_edu/_lazy.py``), so importing one module of this package loads none of its
#: siblings.
_LAZY = {
    "COLORS": "cards",
    "Card": "cards",
    "CardPool": "cards",
    "load_cards": "cards",
    "MAX_COLORS": "decks",
    "MAX_COPIES": "decks",
    "MIN_DECK_SIZE": "decks",
    "Deck": "decks",
    "resolve_deck": "decks",
    "starter_decks": "decks",
}

__all__ = ["Card", "CardPool", "load_cards", "COLORS", "Deck", "starter_decks", "resolve_deck",
           "MIN_DECK_SIZE", "MAX_COPIES", "MAX_COLORS"]

__getattr__, __dir__ = attributes(__name__, _LAZY, globals())
