"""tokens_edu: a Jupyter teaching kit for Tokens TCG (Quick Play rules, Alpha Set).

Quick start::

    from tokens_edu import Game, starter_decks
    from tokens_edu.bots import GreedyBot, RandomBot
    decks = starter_decks()
    game = Game.new(decks[0], decks[4], seed=1)
    bots = (GreedyBot(), RandomBot(seed=2))
    while not game.over:
        game.apply(bots[game.to_act].choose(game))
    game.tables()["players"]

The rules come from the printed Quick Play rules and the rulings R1-R25.
"""

from .cards import Card, CardPool, load_cards
from .decks import Deck, starter_decks
from .errors import CardDataError, DeckError, IllegalAction, RecordError, ScenarioError, TokensError

__all__ = [
    "Card", "CardPool", "load_cards",
    "Deck", "starter_decks",
    "TokensError", "CardDataError", "DeckError", "IllegalAction", "ScenarioError", "RecordError",
]

try:  # the engine and views arrive module by module; keep the package importable meanwhile
    from .actions import Action  # noqa: F401
    from .game import Game  # noqa: F401

    __all__ += ["Action", "Game"]
except ImportError:  # pragma: no cover
    pass
try:
    from .render import render_card, print_sheet  # noqa: F401

    __all__ += ["render_card", "print_sheet"]
except ImportError:  # pragma: no cover
    pass

__version__ = "0.1.0"
