"""tokens_edu: a Jupyter teaching kit for Tokens TCG (Quick Play rules, Alpha Set).

Quick start::

    from tokens_edu import Game, starter_decks
    from tokens_edu.players import GreedyBot, RandomBot
    decks = starter_decks()
    game = Game.new(decks[0], decks[4], seed=1)
    bots = (GreedyBot(), RandomBot(seed=2))
    while not game.over:
        game.apply(bots[game.to_act].choose(game))
    game.tables()["players"]

The rules come from the printed Quick Play rules and the rulings R1-R25.

The package is in layers; each imports only the layers below it (the contracts are in
``pyproject.toml``, checked by import-linter in the tests)::

    cli                  the tokens-edu command, one module per command
    server | teacher     the Voila lesson server | the teacher's dashboard
    widgets              ipywidgets and anywidget views
    present | lab        what a page may show | simulations, statistics, training, plots, env
    players | store      computer players and matches | answers, saved games, class list
    game                 Game, actions, narration, explanations, scenarios, replays, tables
    engine               the rules: state, moves, rules, verbs, effects, flow, events
    content              cards, decks, glossary, names, the bundled lessons
    errors               the errors students and teachers meet
"""

# First: choose the compiled engine core or its pure-Python source (TOKENS_EDU_PURE_PYTHON=1),
# before any engine module is imported (see tokens_edu/_compiled.py).
from . import _compiled

_compiled.activate()

from . import _moved  # noqa: E402
from .content.cards import Card, CardPool, card_picture, load_cards
from .content.decks import Deck, starter_decks
from .errors import (
    CardDataError,
    DeckError,
    IllegalAction,
    RecordError,
    ScenarioError,
    TokensError,
)
from .game.actions import Action
from .game.game import BoardCard, Game, LogEvent, Observation
from .lab.simulation import balance_matrix, first_player_advantage, matchups, simulate
from .lab.tournaments import tournament
from .lab.training import train, train_batches
from .present.render import print_sheet, render_card

__all__ = [
    "Card", "CardPool", "load_cards", "card_picture",
    "Deck", "starter_decks",
    "Game", "Action", "Observation", "BoardCard", "LogEvent",
    "render_card", "print_sheet",
    "simulate", "balance_matrix", "first_player_advantage", "matchups", "train", "train_batches", "tournament",
    "TokensError", "CardDataError", "DeckError", "IllegalAction", "ScenarioError", "RecordError",
    "NextWordModel",
]

__version__ = "0.2.0"

_moved.install()


#: Public names loaded only when first used: name -> the module that holds it.
_LAZY = {"NextWordModel": "tokens_edu.lab.language"}


def __getattr__(name: str):
    """``tokens_edu.plots`` and ``tokens_edu.env`` (and the other old module names) without
    importing them first: matplotlib and PettingZoo load only when asked for; the names of
    :data:`_LAZY` (``tokens_edu.NextWordModel``) likewise."""
    if name in _LAZY:
        import importlib  # noqa: PLC0415  (loaded only when the name is asked for)

        return getattr(importlib.import_module(_LAZY[name]), name)
    module = _moved.old_attribute(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module
