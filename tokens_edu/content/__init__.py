"""Content: the card data, decks, the glossary, names and the lessons that ship with the kit.

Data in, no rules: :mod:`.cards` reads ``cards/alpha-set.yaml`` into frozen :class:`Card` values,
:mod:`.decks` builds and checks decks (R1), :mod:`.bundle` finds the cards and lessons inside an
installed package, :mod:`.glossary` and :mod:`.guide` hold words for students and teachers, and
:mod:`.names` cleans the names people type. Imports only :mod:`tokens_edu.errors`.
"""

from .cards import COLORS, Card, CardPool, load_cards
from .decks import (
           MAX_COLORS,
           MAX_COPIES,
           MIN_DECK_SIZE,
           Deck,
           resolve_deck,
           starter_decks,
)

__all__ = ["Card", "CardPool", "load_cards", "COLORS", "Deck", "starter_decks", "resolve_deck",
           "MIN_DECK_SIZE", "MAX_COPIES", "MAX_COLORS"]
