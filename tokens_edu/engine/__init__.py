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
a card's effect through ``state.effect``.
"""

from .effects import EFFECTS, Effect, effect_of
from .moves import AUDIT, CHOOSE, DEPLOY, END, TASK, TRAIN, USE, decode, encode
from .flow import legal_moves, play, setup_new, start_turn
from .rules import keyword_bits
from .state import Decision, State

__all__ = ["State", "Decision", "Effect", "EFFECTS", "effect_of", "legal_moves", "play", "setup_new",
           "start_turn", "keyword_bits", "encode", "decode",
           "CHOOSE", "TRAIN", "DEPLOY", "TASK", "AUDIT", "USE", "END", "new_state"]


_FACTS: dict[int, tuple] = {}  # id(card) -> (card, Effect, keyword bits, name number), once per Card
_NAME_IDS: dict[str, int] = {}


def _add_facts(card) -> tuple:
    hit = _FACTS[id(card)] = (card, effect_of(card.name), keyword_bits(card),
                              _NAME_IDS.setdefault(card.name, len(_NAME_IDS)))
    return hit


def new_state(cards: list, owners: list, seed: int, turn_limit: int | None = None) -> State:
    """An empty :class:`State` for these card instances (Cards and their owners 0/1), with each
    card's effect, keywords and name number looked up once per Card."""
    get = _FACTS.get
    facts = [f if (f := get(id(c))) is not None and f[0] is c else _add_facts(c) for c in cards]
    return State(cards, owners, [f[1] for f in facts], [f[2] for f in facts], [f[3] for f in facts],
                 seed, turn_limit)
