"""ipywidgets views of cards and games: :class:`CardGallery`, :class:`GameView` (a game on a
card table), :class:`NewGamePanel` (pick decks, then play), :class:`PuzzlePicker` (several
scenarios on one table), :class:`CardTable` (the table widget alone), :class:`DiscussBox`,
:class:`PredictionBox` (predict, then "Check my prediction"), :class:`ReplayView` (step
through a whole game), and for the learning lessons :class:`PixelGrid` (draw on a grid),
:class:`DrawingLab` and :class:`CommandLab` (lesson 8: the class trains a drawing classifier; a
student trains a word classifier), :class:`FairDataLab` and :class:`EthicalMatrix` (lesson 11),
:class:`TrainingLab`, :class:`CopyLab` and :class:`TestBench` (lesson 10: a computer player
learns by playing, learns to copy a student, and is tested), :class:`LanguageLab` (lesson 12:
the class builds a next-word model and writes with it), :class:`ExitQuestion` (a lesson's
exit question, saved for the teacher).

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
    "PixelGrid": ".pixel_grid",
    "DrawingLab": ".drawing_lab",
    "CommandLab": ".command_lab",
    "FairDataLab": ".fair_data",
    "ExitQuestion": ".exit_question",
    "EthicalMatrix": ".exit_question",
    "TrainingLab": ".teach_lab",
    "CopyLab": ".copy_lab",
    "TestBench": ".teach_lab",
    "LanguageLab": ".language_lab",
}

__all__ = list(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
