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

from .cards import Card, CardPool, card_picture, load_cards
from .decks import Deck, starter_decks
from .errors import CardDataError, DeckError, IllegalAction, RecordError, ScenarioError, TokensError

from .actions import Action
from .game import BoardCard, Game, LogEvent, Observation
from .render import print_sheet, render_card
from .simulation import balance_matrix, first_player_advantage, matchups, simulate
from .learning import train
from .roundrobin import tournament

__all__ = [
    "Card", "CardPool", "load_cards", "card_picture",
    "Deck", "starter_decks",
    "Game", "Action", "Observation", "BoardCard", "LogEvent",
    "render_card", "print_sheet",
    "simulate", "balance_matrix", "first_player_advantage", "matchups", "train", "tournament",
    "TokensError", "CardDataError", "DeckError", "IllegalAction", "ScenarioError", "RecordError",
]

__version__ = "0.1.0"

_LAZY_MODULES = ("plots", "env")  # matplotlib and PettingZoo load only when asked for


def __getattr__(name: str):
    """``tokens_edu.plots`` and ``tokens_edu.env`` without importing them first."""
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
