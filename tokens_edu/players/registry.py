"""The one bot registry: computer players by name, and how to make one for a game or a seat.

Every place that takes a bot by name uses it: :func:`tokens_edu.simulate`, ``tournament``,
``train``, the ``tokens-edu simulate`` command and the seats of a live
:class:`~tokens_edu.players.match.Match` (``"greedy"``, ``"computer"``, ``"random"``...).

A bot is given as a name (see :data:`BOTS`, any case), as a class (made fresh, with ``seed=``
when its constructor takes one), as a function ``seed -> bot``, or as an instance (copied fresh
for every game). Classes are named as ``"module:Class"`` and imported only when first asked for,
so naming ``"search"`` does not load SearchBot until a game needs one.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game.actions import Action

__all__ = ["BOTS", "ALIASES", "BotRecipe", "recipe", "recipes", "make_bot", "register_bot", "move_of"]

#: Bots by name: name -> ``"module:Class"`` (or a callable). The class is made with
#: ``seed=<a seed for this game and seat>`` when its constructor takes a ``seed``, else with no
#: arguments.
BOTS: dict[str, str | Callable] = {
    "random": "tokens_edu.players.bots:RandomBot",
    "greedy": "tokens_edu.players.bots:GreedyBot",
    "search": "tokens_edu.players.search:SearchBot",
    "learning": "tokens_edu.players.learning:LearningBot",
}

#: Other names a lesson or a student may use for the same bots.
ALIASES = {"computer": "greedy", "greedybot": "greedy", "randombot": "random",
           "searchbot": "search", "learningbot": "learning"}


def register_bot(name: str, factory: str | Callable) -> None:
    """Make a bot usable by name everywhere a bot name is taken.

    Args:
        name: a short name, any case (``"mybot"``).
        factory: a bot class, a function ``seed -> bot``, or ``"module:Class"``. For other
            processes to use it, it must be importable (defined in a ``.py`` file).

    Raises:
        ValueError: the name is empty or the factory is not callable or a ``"module:Class"`` text.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError("A bot's name must be some text, like 'mybot'.")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError("A bot factory is a class, a function seed -> bot, or 'module:Class'.")
    BOTS[name.strip().casefold()] = factory


def _takes_seed(factory: Callable) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


@dataclass(frozen=True)
class BotRecipe:
    """How to make one seat's bot for each game: a factory (called with ``seed=`` if it takes
    one) or an instance (deep-copied). Picklable when its parts are, so worker processes can
    make their own bots.

    Attributes:
        factory: a class or function, or None when ``instance`` is given.
        instance: a bot to copy for every game, or None.
        label: the bot's name in tables (``"greedy"``, ``"SearchBot"``...).
        seeded: True when the factory takes ``seed=`` (worked out once: inspect is slow).
    """

    factory: Callable | None = None
    instance: object = None
    label: str = ""
    seeded: bool = False

    def __post_init__(self):
        if self.factory is not None:
            object.__setattr__(self, "seeded", _takes_seed(self.factory))

    def make(self, seed: int | None):
        """A fresh bot: the instance copied, or the factory called (with ``seed=`` if it takes one)."""
        if self.instance is not None:
            return copy.deepcopy(self.instance)
        if self.seeded:
            return self.factory(seed=seed)
        return self.factory()


def _load(ref: str) -> Callable:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def recipe(spec) -> BotRecipe:
    """A :class:`BotRecipe` from a bot name, class, factory function or instance.

    Raises:
        ValueError: an unknown name (the message lists the known ones) or not a bot.
    """
    if isinstance(spec, str):
        key = spec.strip().casefold()
        key = ALIASES.get(key, key)
        factory = BOTS.get(key)
        if factory is None:
            raise ValueError(f"There is no bot called '{spec[:40]}'. "
                             f"The bots are: {', '.join(sorted(BOTS))}.")
        return BotRecipe(factory=_load(factory) if isinstance(factory, str) else factory, label=key)
    if isinstance(spec, type) or (callable(spec) and not hasattr(spec, "choose")):
        return BotRecipe(factory=spec, label=getattr(spec, "__name__", "bot"))
    if hasattr(spec, "choose"):
        return BotRecipe(instance=spec, label=type(spec).__name__)
    raise ValueError(f"A bot is a name like 'greedy', a bot class or a bot, not {type(spec).__name__}.")


def recipes(bots) -> tuple[BotRecipe, BotRecipe]:
    """Two recipes, one per player, from one bot (both seats) or a pair.

    Raises:
        ValueError: not one bot or two.
    """
    if isinstance(bots, (str, type)) or hasattr(bots, "choose"):
        bots = (bots, bots)
    if not isinstance(bots, Sequence) or len(bots) != 2:
        raise ValueError("bots must be two bots, one per player, like ('greedy', 'random').")
    return recipe(bots[0]), recipe(bots[1])


def make_bot(spec, seed: int | None = None):
    """One bot from a name (``"greedy"``), a class, a function ``seed -> bot`` or an instance
    (copied). ``seed`` goes to bots that take one.

    Raises:
        ValueError: an unknown name (the message lists the known ones) or not a bot.
    """
    return recipe(spec).make(seed)


def move_of(game, choice) -> Action:
    """A bot's pick as the one move value, an :class:`~tokens_edu.Action` (what every seat
    passes to the game): an Action as it is; the engine's int move (``choose_move``) as
    ``game.action(move)``. A text (a bot of one's own that answers with words) is still read
    until 0.4.0, with a DeprecationWarning.

    Args:
        game: the :class:`~tokens_edu.Game` the bot chose in. choice: what ``choose(game)`` gave.

    Returns:
        the Action (anything else is returned as it is: ``game.apply`` then says why it is
        not a move).

    Raises:
        IllegalAction: an int that is not one of ``game.legal_moves()``.
    """
    if isinstance(choice, Action):
        return choice
    if isinstance(choice, int) and not isinstance(choice, bool):
        return game.action(choice)
    if isinstance(choice, str):
        warnings.warn("A bot's choose() that gives text is deprecated and will not be read from tokens_edu "
                      "0.4.0; give an Action (game.legal_actions() or game.action(move)).",
                      DeprecationWarning, stacklevel=2)
        legal = game.legal_action(choice)
        return choice if legal is None else legal
    return choice
