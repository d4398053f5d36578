"""ipywidgets views of cards and games: :class:`CardGallery`, :class:`GameView` (a game on a
card table), :class:`NewGamePanel` (pick decks, then play), :class:`PuzzlePicker` (several
scenarios on one table), :class:`CardTable` (the table widget alone), :class:`DiscussBox`,
:class:`PredictionBox` (predict, then "Check my prediction"), :class:`ReplayView` (step
through a whole game).

Views only: they call the engine's public surface (``Game.apply``, ``legal_actions``,
``tables``...) and hold no rules; what a page may show is decided by the presenter
(:mod:`tokens_edu.present`). Imported lazily, so ``import tokens_edu`` stays light.

Importing this package puts the kernel's checks in front of every widget's messages from the
page (:mod:`tokens_edu.widgets.trust`: a disabled widget can't be changed from the page).
"""

from importlib import import_module

from . import trust

trust.install()

_WHERE = {
    "CardGallery": ".gallery",
    "GameView": ".game_view",
    "NewGamePanel": ".new_game",
    "PuzzlePicker": ".puzzles",
    "CardTable": ".table",
    "DiscussBox": ".discuss",
    "PredictionBox": ".predict",
    "DeckCheck": ".deck_check",
    "ReplayView": ".replay_view",
}

__all__ = list(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
