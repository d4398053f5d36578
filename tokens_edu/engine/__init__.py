"""The rules engine of Tokens TCG Quick Play: positions, moves, rules and card effects, with no
text and no pandas (those live in :mod:`tokens_edu.game` and the modules around it).

- :mod:`.state`: :class:`~.state.State`, one position, whose writes record their inverse (undo).
- :mod:`.moves`: a move is a small int (kind and card ids).
- :mod:`.rules`: one predicate per ruling; the move generator and the explanations both use them.
- :mod:`.verbs`: the ways the rules and cards change a state (draw, gain, add Flags, ask...).
- :mod:`.effects`: each card's mechanic, once, over those verbs.
- :mod:`.flow`: set-up, legal moves, playing a move, the turn.
- :mod:`.events`: what happened, as data.

Imports run one way: state <- rules <- verbs <- effects; play uses rules and verbs, and reaches
a card's effect through ``state.effect``. :mod:`.view` (what a player may see, live) and
:mod:`.core` (the part of a Game a simulation uses at every move) sit on top.

These modules are compiled with mypyc when tokens-edu is installed, from this same source;
:data:`COMPILED` says which runs (``TOKENS_EDU_PURE_PYTHON=1`` asks for the source; see
``tokens_edu/_compiled.py``). Both play the same games.
"""

from importlib.machinery import EXTENSION_SUFFIXES

from . import state as _state
from .effects import EFFECTS, Effect, effect_of
from .moves import AUDIT, CHOOSE, DEPLOY, END, TASK, TRAIN, USE, decode, encode
from .flow import deal_new, legal_moves, play, setup_new, start_turn
from .rules import keyword_bits
from .state import CardFacts, Decision, GameCards, State

#: True when the compiled engine core is running, False for the pure-Python source (which
#: ``import tokens_edu`` chose, before any engine module was loaded: tokens_edu/_compiled.py).
COMPILED: bool = str(_state.__file__).endswith(tuple(EXTENSION_SUFFIXES))

__all__ = ["COMPILED", "State", "Decision", "CardFacts", "GameCards", "card_facts", "Effect", "EFFECTS", "effect_of",
           "legal_moves", "play", "deal_new", "setup_new", "start_turn", "keyword_bits", "encode", "decode",
           "CHOOSE", "TRAIN", "DEPLOY", "TASK", "AUDIT", "USE", "END", "new_state"]


_FACTS: dict[int, CardFacts] = {}  # id(card) -> its CardFacts, made once per Card
_NAME_IDS: dict[str, int] = {}


def card_facts(card) -> CardFacts:
    """The :class:`CardFacts` of a Card (its effect, keyword bits and name number included),
    worked out once per Card and then shared by every game."""
    f = _FACTS.get(id(card))
    if f is None or f.card is not card:
        f = _FACTS[id(card)] = CardFacts(card, effect_of(card.name), keyword_bits(card),
                                        _NAME_IDS.setdefault(card.name, len(_NAME_IDS)))
    return f


_TABLES: dict[tuple, GameCards] = {}  # (card ids, owners) -> the GameCards of the latest deck pairs
_TABLES_KEPT = 256


def new_state(cards: list, owners: list, seed: int, turn_limit: int | None = None) -> State:
    """An empty :class:`State` for these card instances (Cards and their owners 0/1), with each
    card's effect, keywords and name number looked up once per Card, and the game's
    :class:`GameCards` shared with other games of the same card instances (the latest
    ``_TABLES_KEPT`` of them are kept)."""
    key = (tuple(map(id, cards)), tuple(owners))
    table = _TABLES.get(key)
    if table is None:  # (a kept table holds its Cards, so their ids can't be reused meanwhile)
        if len(_TABLES) >= _TABLES_KEPT:
            del _TABLES[next(iter(_TABLES))]
        table = _TABLES[key] = GameCards([card_facts(c) for c in cards], list(owners))
    return State(table, seed, turn_limit)
