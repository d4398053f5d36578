"""The position: :class:`State`, changed only through writes that record how to undo them.

A game's cards are numbered 0..n-1 (*card ids*; player 0's cards first). The state keeps

- facts fixed for the whole game, shared by copies (a :class:`GameCards`, ``cards``):
  ``card[x]`` (the :class:`~tokens_edu.Card`),
  ``facts[x]`` (its printed numbers as a :class:`CardFacts`, typed for the rules), ``owner[x]``,
  ``effect[x]`` (its :class:`~tokens_edu.engine.effects.Effect`), ``kw[x]`` (keyword bits),
  ``name_id[x]`` (equal for cards of the same name), ``seed``, ``turn_limit``;
- per-card values, lists indexed by card id, meaningful while the card is in play:
  ``exerted``, ``flags``, ``entered`` (turn it was deployed), ``boost``/``boost_turn`` (CAP
  until end of turn), ``gpu_turn``, ``no_task_turn``, ``no_audit_turn``, ``lost_until``;
- per-player zones, pairs of lists of card ids: ``hand``, ``deck`` (top card LAST),
  ``discard``, ``ts`` (Training Set, oldest first) with ``ts_ex`` (sideways?), ``systems``,
  ``tools``, ``resolving`` (Actions resolving, R18);
- per-player numbers, lists of two: ``tokens``, ``trained``/``trained_turn``, ``recall_turn``
  (Mandatory Recall, R19), ``model_card_used`` (R16);
- the table: ``turn``, ``active``, ``first``, ``phase``, ``decision``, ``doom``, ``over``,
  ``winner``, ``shuffles``, ``extra_trains``/``extra_trains_turn``;
- ``events`` (what happened, as data: :mod:`~tokens_edu.engine.events`) and ``trail``.

Every field is declared with its type below: this module is compiled with mypyc (see
``tokens_edu/_build.py``), which turns the declared fields into a C struct, so a read like
``s.flags[x]`` is a couple of machine loads. The same source runs as plain Python.

Every change goes through :meth:`State.set`, :meth:`~State.assign`, :meth:`~State.put`,
:meth:`~State.take`, :meth:`~State.pop`, :meth:`~State.insert`, :meth:`~State.rewrite` or
:meth:`~State.shuffle`. Each appends to ``trail`` the few numbers that take it back, so
:meth:`undo_to` rewinds any number of moves without ever copying the whole position (as
python-chess's ``push``/``pop``). The trail names lists by number, never by object, and holds
only numbers, names and tuples, so a :meth:`copy` can share its entries.
"""

from __future__ import annotations

from _random import Random  # the C generator under random.Random: the same numbers, made faster
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

if TYPE_CHECKING:
    from ..content.cards import Card
    from .effects import Effect

__all__ = ["State", "Decision", "new_decision", "CardFacts", "GameCards", "ZONES", "HAND", "DECK", "DISCARD", "TS", "TS_EX", "SYSTEMS",
           "TOOLS", "RESOLVING", "EXERTED", "FLAGS", "ENTERED", "BOOST", "BOOST_TURN", "GPU_TURN",
           "NO_TASK_TURN", "NO_AUDIT_TURN", "LOST_UNTIL", "TOKENS", "TRAINED", "TRAINED_TURN", "RECALL_TURN",
           "MODEL_CARD_USED", "SYSTEM", "TOOL", "ACTION"]

# Numbers of the lists a write may change (``State.lists[n]``).
PER_CARD: Final = ("exerted", "flags", "entered", "boost", "boost_turn", "gpu_turn", "no_task_turn",
                   "no_audit_turn", "lost_until")
EXERTED: Final = 0
FLAGS: Final = 1
ENTERED: Final = 2
BOOST: Final = 3
BOOST_TURN: Final = 4
GPU_TURN: Final = 5
NO_TASK_TURN: Final = 6
NO_AUDIT_TURN: Final = 7
LOST_UNTIL: Final = 8
PER_PLAYER: Final = ("tokens", "trained", "trained_turn", "recall_turn", "model_card_used")
TOKENS: Final = 9
TRAINED: Final = 10
TRAINED_TURN: Final = 11
RECALL_TURN: Final = 12
MODEL_CARD_USED: Final = 13
ZONES: Final = ("hand", "deck", "discard", "ts", "ts_ex", "systems", "tools", "resolving")
#: A zone's number for player p is ``ZONE + p`` (``HAND + 1`` is player 1's hand).
HAND: Final = 14
DECK: Final = 16
DISCARD: Final = 18
TS: Final = 20
TS_EX: Final = 22
SYSTEMS: Final = 24
TOOLS: Final = 26
RESOLVING: Final = 28
_DEFAULTS: Final = (False, 0, -1, 0, -1, -1, -1, -1, -1)  # per-card values of a card not in play

# Trail entry kinds (the low 3 bits of a write's last trail item).
_SET: Final = 0
_ASSIGN: Final = 1
_PUT: Final = 2
_TAKE: Final = 3
_INSERT: Final = 5
_REWRITE: Final = 6
_MOVE: Final = 7  # where a move began (the item before it: how many events there were)

#: :attr:`CardFacts.kind` of a System, a Tool and an Action.
SYSTEM: Final = 0
TOOL: Final = 1
ACTION: Final = 2


class Decision(NamedTuple):
    """A choice a player must make now (R2, R3, R16, R23).

    Attributes:
        player: who chooses (0/1).
        source: the card id whose effect asks, or :data:`ORDER`, :data:`MULLIGAN`,
            :data:`MODEL_CARD` (negative) for the rules' own questions.
        step: which question of that effect (a key of its ``answers`` and ``prompts``).
        options: the values to choose among (card ids, True/False, "top"...), in order.
        labels: how the options read: "first-second", "keep-mulligan", "yes-no", "mode",
            "hand" (a hand card), "pick" (a card seen in the deck), "in-play", "flags",
            "top-bottom", "order" (a pair of deck cards).
        data: card ids the prompt and the answer need.
        secret: the options are cards only the chooser may see (R22): never name the choice.
    """

    player: int
    source: int
    step: str
    options: tuple
    labels: str
    data: tuple = ()
    secret: bool = False


def new_decision(player: int, source: int, step: str, options: tuple, labels: str, data: tuple = (),
                 secret: bool = False) -> Decision:
    """A :class:`Decision`, made as its tuple directly (a NamedTuple's own constructor is Python
    code, which compiled code calls slowly; the result is the same)."""
    return cast(Decision, tuple.__new__(Decision, (player, source, step, options, labels, data, secret)))


#: ``Decision.source`` of the rules' own questions.
ORDER: Final = -1
MULLIGAN: Final = -2
MODEL_CARD: Final = -3

#: What ``State.doom`` holds while Systems are being Deprecated (R15, R16): the Systems
#: leaving, and those whose owner was already asked about a Model Card.
Doom = tuple[tuple[int, ...], tuple[int, ...]]


class CardFacts:
    """What the rules read of one card, once per :class:`~tokens_edu.Card`: its printed numbers
    as plain ints and bools (a Card is a Python dataclass; these are fields of a C struct when
    the engine is compiled), its effect, keyword bits and name number.

    Attributes:
        card: the Card. name: its name. kind: :data:`SYSTEM`, :data:`TOOL` or :data:`ACTION`.
        cost: its Cost.
        cap, tru, tokens: a System's Capability, Trust and Tokens (0 for other cards).
        trainable: R8's diamond. legacy: R20. big_data: N of "Big Data N" (R11), or -1.
        effect: its :class:`~tokens_edu.engine.effects.Effect`. kw: keyword bits
        (:data:`~tokens_edu.engine.rules.KEYWORD_BITS`). name_id: equal for equal names.
    """

    def __init__(self, card: Card, effect: Effect, kw: int, name_id: int) -> None:
        self.card: Final[Card] = card
        self.name: Final[str] = card.name
        kind = card.type
        self.kind: Final[int] = SYSTEM if kind == "System" else TOOL if kind == "Tool" else ACTION
        self.cost: Final[int] = card.cost
        self.cap: Final[int] = card.cap if card.cap is not None else 0
        self.tru: Final[int] = card.tru if card.tru is not None else 0
        self.tokens: Final[int] = card.tokens if card.tokens is not None else 0
        self.trainable: Final[bool] = bool(card.trainable)
        self.legacy: Final[bool] = bool(card.legacy)
        self.big_data: Final[int] = card.big_data if card.big_data is not None else -1
        self.effect: Final[Effect] = effect
        self.kw: Final[int] = kw
        self.name_id: Final[int] = name_id

    def __repr__(self) -> str:
        return f"CardFacts({self.card.name!r})"


class GameCards:
    """The card instances of one game, numbered by card id, with what never changes about them:
    ``card`` (the Cards), ``facts`` (:class:`CardFacts`), ``owner`` (0/1), ``effect``, ``kw``
    and ``name_id`` (tuples indexed by card id). Games of the same two decks share one
    (:func:`tokens_edu.engine.new_state` keeps the latest ones), so a simulation of ten
    thousand games builds it once.
    """

    __slots__ = ("card", "facts", "owner", "effect", "kw", "name_id")

    def __init__(self, facts: list[CardFacts], owners: list[int]) -> None:
        """Args: facts: one :class:`CardFacts` per card id. owners: each card's owner (0/1)."""
        self.facts: Final = tuple(facts)
        self.card: Final = tuple([f.card for f in facts])
        self.owner: Final = tuple(owners)
        self.effect: Final = tuple([f.effect for f in facts])
        self.kw: Final = tuple([f.kw for f in facts])
        self.name_id: Final = tuple([f.name_id for f in facts])


class State:
    """One position of a game of Quick Play, with the trail that undoes it (see the module)."""

    __slots__ = ("cards", "card", "facts", "owner", "effect", "kw", "name_id", "seed", "turn_limit",
                 "exerted", "flags", "entered", "boost", "boost_turn", "gpu_turn", "no_task_turn", "no_audit_turn",
                 "lost_until", "hand", "deck", "discard", "ts", "ts_ex", "systems", "tools", "resolving",
                 "tokens", "trained", "trained_turn", "recall_turn", "model_card_used",
                 "turn", "active", "first", "phase", "decision", "doom", "over", "winner", "shuffles",
                 "extra_trains", "extra_trains_turn", "events", "trail", "lists")

    # facts fixed for the game (shared by copies, and by games of the same two decks)
    cards: GameCards
    card: tuple[Card, ...]
    facts: tuple[CardFacts, ...]
    owner: tuple[int, ...]
    effect: tuple[Effect, ...]
    kw: tuple[int, ...]
    name_id: tuple[int, ...]
    seed: int
    turn_limit: int | None
    # per card
    exerted: list[bool]
    flags: list[int]
    entered: list[int]
    boost: list[int]
    boost_turn: list[int]
    gpu_turn: list[int]
    no_task_turn: list[int]
    no_audit_turn: list[int]
    lost_until: list[int]
    # per player: zones (card ids) and numbers. A pair of zones is typed ``tuple[list[int], ...]``
    # (a tuple of any length), not ``tuple[list[int], list[int]]``: mypyc keeps a fixed-size
    # tuple field unboxed, in the struct, and made a new tuple object at every ``s.hand[p]`` (a
    # third of the tuples a game made; callgrind). Both are the same pair of lists at run time.
    hand: tuple[list[int], ...]
    deck: tuple[list[int], ...]
    discard: tuple[list[int], ...]
    ts: tuple[list[int], ...]
    ts_ex: tuple[list[bool], ...]
    systems: tuple[list[int], ...]
    tools: tuple[list[int], ...]
    resolving: tuple[list[int], ...]
    tokens: list[int]
    trained: list[int]
    trained_turn: list[int]
    recall_turn: list[int]
    model_card_used: list[bool]
    # the table
    turn: int
    active: int
    first: int
    phase: str
    decision: Decision | None
    doom: Doom | None
    over: bool
    winner: int | None
    shuffles: int
    extra_trains: int
    extra_trains_turn: int
    # history
    events: list[tuple]
    trail: list[Any]
    lists: list[list[Any]]

    def __init__(self, cards: GameCards, seed: int, turn_limit: int | None = None) -> None:
        """An empty table for these card instances (all in no zone yet).

        Args:
            cards: the game's :class:`GameCards` (see :func:`tokens_edu.engine.new_state`).
            seed: the game's seed (every shuffle and die roll comes from it).
            turn_limit: end the game as a draw after this many turns (R25), or None.
        """
        n = len(cards.facts)
        self.cards = cards
        self.facts, self.card, self.owner = cards.facts, cards.card, cards.owner
        self.effect, self.kw, self.name_id = cards.effect, cards.kw, cards.name_id
        self.seed = seed
        self.turn_limit = turn_limit
        self.exerted = [False] * n
        self.flags = [0] * n
        self.entered = [-1] * n
        self.boost = [0] * n
        self.boost_turn = [-1] * n
        self.gpu_turn = [-1] * n
        self.no_task_turn = [-1] * n
        self.no_audit_turn = [-1] * n
        self.lost_until = [-1] * n
        self.hand, self.deck, self.discard, self.ts = ([], []), ([], []), ([], []), ([], [])
        self.ts_ex = ([], [])
        self.systems, self.tools, self.resolving = ([], []), ([], []), ([], [])
        self.tokens, self.trained, self.trained_turn = [0, 0], [0, 0], [-1, -1]
        self.recall_turn, self.model_card_used = [-1, -1], [False, False]
        self.turn, self.active, self.first, self.phase = 0, 0, 0, "order"
        self.decision = None
        self.doom = None
        self.winner = None
        self.over = False
        self.shuffles, self.extra_trains, self.extra_trains_turn = 0, 0, -1
        self.events = []
        self.trail = []
        self._register()

    def _register(self) -> None:
        # The lists a write may name, by number (see the constants above).
        self.lists = [self.exerted, self.flags, self.entered, self.boost, self.boost_turn, self.gpu_turn,
                      self.no_task_turn, self.no_audit_turn, self.lost_until,
                      self.tokens, self.trained, self.trained_turn, self.recall_turn, self.model_card_used,
                      self.hand[0], self.hand[1], self.deck[0], self.deck[1], self.discard[0], self.discard[1],
                      self.ts[0], self.ts[1], self.ts_ex[0], self.ts_ex[1], self.systems[0], self.systems[1],
                      self.tools[0], self.tools[1], self.resolving[0], self.resolving[1]]

    # -- writes (each records its inverse) -------------------------------------------------------
    # The trail is one flat list: each write appends its numbers, then one small int last that
    # holds both the list's number and the write's kind (``number << 3 | kind``), so undo pops
    # it first and knows how many numbers to take back. Flat and small (Python keeps one copy
    # of every int up to 256): a few bytes a write.
    def set(self, which: int, i: int, value: Any) -> None:
        """``lists[which][i] = value`` (a per-card or per-player value)."""
        lst = self.lists[which]
        trail = self.trail
        trail.append(i)
        trail.append(lst[i])
        trail.append(which << 3 | _SET)
        lst[i] = value

    def assign(self, name: str, value: Any) -> None:
        """Set one of the table's values (``turn``, ``decision``...)."""
        trail = self.trail
        trail.append(name)
        trail.append(self._field(name))
        trail.append(_ASSIGN)
        self._restore(name, value)

    def _field(self, name: str) -> Any:
        """The table's value called ``name``."""
        if name == "decision":
            return self.decision
        if name == "doom":
            return self.doom
        if name == "phase":
            return self.phase
        if name == "turn":
            return self.turn
        if name == "active":
            return self.active
        if name == "shuffles":
            return self.shuffles
        if name == "over":
            return self.over
        if name == "winner":
            return self.winner
        if name == "first":
            return self.first
        if name == "extra_trains":
            return self.extra_trains
        if name == "extra_trains_turn":
            return self.extra_trains_turn
        raise AttributeError(f"State has no table value {name!r}")

    def _restore(self, name: str, value: Any) -> None:
        """Set the table's value called ``name`` (no record: :meth:`assign` and undo use it)."""
        if name == "decision":
            self.decision = value
        elif name == "doom":
            self.doom = value
        elif name == "phase":
            self.phase = value
        elif name == "turn":
            self.turn = value
        elif name == "active":
            self.active = value
        elif name == "shuffles":
            self.shuffles = value
        elif name == "over":
            self.over = value
        elif name == "winner":
            self.winner = value
        elif name == "first":
            self.first = value
        elif name == "extra_trains":
            self.extra_trains = value
        elif name == "extra_trains_turn":
            self.extra_trains_turn = value
        else:
            raise AttributeError(f"State has no table value {name!r}")

    def put(self, zone: int, x: Any) -> None:
        """Add card ``x`` at the end of zone ``zone`` (the top, for a deck)."""
        self.lists[zone].append(x)
        self.trail.append(zone << 3 | _PUT)

    def take(self, zone: int, x: int) -> None:
        """Remove card ``x`` from zone ``zone`` (it must be there)."""
        lst = self.lists[zone]
        i = lst.index(x)
        del lst[i]
        trail = self.trail
        trail.append(i)
        trail.append(x)
        trail.append(zone << 3 | _TAKE)

    def pop(self, zone: int, i: int = -1) -> Any:
        """Remove and return the item at index ``i`` of ``zone`` (default: the last, a deck's top)."""
        lst = self.lists[zone]
        if i < 0:
            i += len(lst)
        x = lst.pop(i)
        trail = self.trail
        trail.append(i)
        trail.append(x)
        trail.append(zone << 3 | _TAKE)
        return x

    def insert(self, zone: int, i: int, x: Any) -> None:
        """Insert ``x`` at index ``i`` of ``zone`` (0 is a deck's bottom)."""
        self.lists[zone].insert(i, x)
        trail = self.trail
        trail.append(i)
        trail.append(zone << 3 | _INSERT)

    def rewrite(self, zone: int, items: Any) -> None:
        """Replace the whole content of ``zone`` with ``items``."""
        lst = self.lists[zone]
        trail = self.trail
        trail.append(tuple(lst))
        trail.append(zone << 3 | _REWRITE)
        lst[:] = items

    def shuffle(self, zone: int) -> None:
        """Shuffle ``zone`` with the game's next random generator (see :meth:`rng`)."""
        lst = self.lists[zone]
        trail = self.trail
        trail.append(tuple(lst))
        trail.append(zone << 3 | _REWRITE)
        # random.shuffle's own steps, written out so a game's set-up costs less (the same
        # generator calls in the same order give the same order of cards).
        draw = self.rng().getrandbits  # (looked up once: the generator is a Python object)
        i = len(lst) - 1
        while i > 0:
            k = (i + 1).bit_length()
            j: int = draw(k)
            while j > i:
                j = draw(k)
            lst[i], lst[j] = lst[j], lst[i]
            i -= 1

    def rng(self) -> Random:
        """A fresh generator for the next random event: only the seed and a counter decide it.

        It is ``_random.Random``, the C generator ``random.Random`` is built on (seeded from the
        same number it gives the same numbers, without random.Random's Python layer): use its
        ``getrandbits``, as :meth:`shuffle` and :func:`roll_die` do.
        """
        self.assign("shuffles", self.shuffles + 1)
        return Random(self.seed * 1_000_003 + self.shuffles)

    def begin_move(self) -> None:
        """Note on the trail that a move begins here (and how many events there were), so
        :meth:`undo_move` takes back exactly that move."""
        trail = self.trail
        trail.append(len(self.events))
        trail.append(_MOVE)

    def undo_move(self) -> None:
        """Take back the last move: every write since its :meth:`begin_move`, and its events."""
        self._undo(0, True)

    def undo_to(self, mark: int) -> None:
        """Take back every write made since ``len(trail)`` was ``mark`` (and the events of every
        move whose beginning that passes)."""
        self._undo(mark, False)

    def _undo(self, mark: int, one_move: bool) -> None:
        trail, lists = self.trail, self.lists
        while len(trail) > mark:
            op: int = trail.pop()
            kind = op & 7
            if kind == _SET:
                old = trail.pop()
                i: int = trail.pop()
                lists[op >> 3][i] = old
            elif kind == _TAKE:
                x = trail.pop()
                i = trail.pop()
                lists[op >> 3].insert(i, x)
            elif kind == _PUT:
                lists[op >> 3].pop()
            elif kind == _ASSIGN:
                old = trail.pop()
                self._restore(trail.pop(), old)
            elif kind == _INSERT:
                i = trail.pop()
                del lists[op >> 3][i]
            elif kind == _REWRITE:
                lists[op >> 3][:] = trail.pop()
            else:  # _MOVE: the start of a move
                events: int = trail.pop()
                del self.events[events:]
                if one_move:
                    return

    def clear_card(self, x: int) -> None:
        """Reset card ``x``'s per-card values as it leaves play (recorded): the values of
        ``_DEFAULTS``, list by list."""
        if self.exerted[x]:
            self.set(EXERTED, x, False)
        if self.flags[x] != 0:
            self.set(FLAGS, x, 0)
        if self.entered[x] != -1:
            self.set(ENTERED, x, -1)
        if self.boost[x] != 0:
            self.set(BOOST, x, 0)
        if self.boost_turn[x] != -1:
            self.set(BOOST_TURN, x, -1)
        if self.gpu_turn[x] != -1:
            self.set(GPU_TURN, x, -1)
        if self.no_task_turn[x] != -1:
            self.set(NO_TASK_TURN, x, -1)
        if self.no_audit_turn[x] != -1:
            self.set(NO_AUDIT_TURN, x, -1)
        if self.lost_until[x] != -1:
            self.set(LOST_UNTIL, x, -1)

    # -- copies -----------------------------------------------------------------------------------
    def copy(self, trail: bool = True) -> State:
        """An independent copy. With ``trail=False`` the copy cannot undo past this position
        (cheaper, for a search that plays games forward in its head)."""
        c = State(self.cards, self.seed, self.turn_limit)
        c.exerted = self.exerted[:]
        c.flags = self.flags[:]
        c.entered = self.entered[:]
        c.boost = self.boost[:]
        c.boost_turn = self.boost_turn[:]
        c.gpu_turn = self.gpu_turn[:]
        c.no_task_turn = self.no_task_turn[:]
        c.no_audit_turn = self.no_audit_turn[:]
        c.lost_until = self.lost_until[:]
        c.tokens = self.tokens[:]
        c.trained = self.trained[:]
        c.trained_turn = self.trained_turn[:]
        c.recall_turn = self.recall_turn[:]
        c.model_card_used = self.model_card_used[:]
        c.hand = (self.hand[0][:], self.hand[1][:])
        c.deck = (self.deck[0][:], self.deck[1][:])
        c.discard = (self.discard[0][:], self.discard[1][:])
        c.ts = (self.ts[0][:], self.ts[1][:])
        c.ts_ex = (self.ts_ex[0][:], self.ts_ex[1][:])
        c.systems = (self.systems[0][:], self.systems[1][:])
        c.tools = (self.tools[0][:], self.tools[1][:])
        c.resolving = (self.resolving[0][:], self.resolving[1][:])
        c.turn, c.active, c.first, c.phase = self.turn, self.active, self.first, self.phase
        c.decision, c.doom, c.over, c.winner = self.decision, self.doom, self.over, self.winner
        c.shuffles, c.extra_trains, c.extra_trains_turn = self.shuffles, self.extra_trains, self.extra_trains_turn
        c.events = self.events[:]
        c.trail = self.trail[:] if trail else []
        c._register()
        return c
