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
    present | lab | session   what a page may show | simulations, training, plots, env | who is at the page
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

import importlib  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

from . import _moved  # noqa: E402
from .errors import (  # noqa: E402
    CardDataError,
    DeckError,
    IllegalAction,
    RecordError,
    ScenarioError,
    TokensError,
)

#: The package's public names and the module each comes from. ``import tokens_edu`` imports
#: none of them: each module loads the first time one of its names is read (PEP 562's module
#: ``__getattr__``), so ``import tokens_edu`` and ``tokens-edu --help`` cost only what they use
#: (no pandas, SQLAlchemy, Tornado or ipywidgets; issue 26). ``from tokens_edu import Game``
#: works as before. A name added to the package's surface goes here and in ``__all__``.
_LAZY = {
    "Card": "content.cards", "CardPool": "content.cards", "load_cards": "content.cards",
    "card_picture": "content.cards",
    "Deck": "content.decks", "starter_decks": "content.decks",
    "Action": "game.actions",
    "Game": "game.game", "Observation": "game.game", "BoardCard": "game.game", "LogEvent": "game.game",
    "render_card": "present.render", "print_sheet": "present.render",
    "simulate": "lab.simulation", "balance_matrix": "lab.simulation",
    "first_player_advantage": "lab.simulation", "matchups": "lab.simulation",
    "train": "lab.training", "train_batches": "lab.training",
    "tournament": "lab.tournaments",
    "NextWordModel": "lab.language",
}

if TYPE_CHECKING:  # what the names are, for type checkers and editors (nothing runs here)
    from .content.cards import Card, CardPool, card_picture, load_cards
    from .content.decks import Deck, starter_decks
    from .game.actions import Action
    from .game.game import BoardCard, Game, LogEvent, Observation
    from .lab.language import NextWordModel
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


def __getattr__(name: str):
    """A public name (:data:`_LAZY`) from its module, imported now and kept; or one of the old
    module names (``tokens_edu.plots``, ``tokens_edu.env``...) without importing it first:
    matplotlib and PettingZoo load only when asked for."""
    where = _LAZY.get(name)
    if where is not None:
        value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
        globals()[name] = value  # read once: later reads are plain attribute reads
        return value
    module = _moved.old_attribute(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return module


def __dir__() -> list[str]:
    """The module's names, the public names not imported yet included."""
    return sorted(set(globals()) | set(__all__))
