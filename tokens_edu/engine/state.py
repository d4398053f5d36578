"""The position: :class:`State`, changed only through writes that record how to undo them.

A game's cards are numbered 0..n-1 (*card ids*; player 0's cards first). The state keeps

- facts fixed for the whole game, shared by copies: ``card[x]`` (the :class:`~tokens_edu.Card`),
  ``owner[x]``, ``effect[x]`` (its :class:`~tokens_edu.engine.effects.Effect`), ``kw[x]``
  (keyword bits), ``name_id[x]`` (equal for cards of the same name), ``seed``, ``turn_limit``;
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

Every change goes through :meth:`State.set`, :meth:`~State.assign`, :meth:`~State.put`,
:meth:`~State.take`, :meth:`~State.pop`, :meth:`~State.insert`, :meth:`~State.rewrite` or
:meth:`~State.shuffle`. Each appends to ``trail`` the few numbers that take it back, so
:meth:`undo_to` rewinds any number of moves without ever copying the whole position (as
python-chess's ``push``/``pop``). The trail names lists by number, never by object, and holds
only numbers, names and tuples, so a :meth:`copy` can share its entries.
"""

from __future__ import annotations

import random
from typing import NamedTuple

__all__ = ["State", "Decision", "ZONES", "HAND", "DECK", "DISCARD", "TS", "TS_EX", "SYSTEMS", "TOOLS",
           "RESOLVING", "EXERTED", "FLAGS", "ENTERED", "BOOST", "BOOST_TURN", "GPU_TURN", "NO_TASK_TURN",
           "NO_AUDIT_TURN", "LOST_UNTIL", "TOKENS", "TRAINED", "TRAINED_TURN", "RECALL_TURN",
           "MODEL_CARD_USED"]

# Numbers of the lists a write may change (``State.lists[n]``).
PER_CARD = ("exerted", "flags", "entered", "boost", "boost_turn", "gpu_turn", "no_task_turn",
            "no_audit_turn", "lost_until")
EXERTED, FLAGS, ENTERED, BOOST, BOOST_TURN, GPU_TURN, NO_TASK_TURN, NO_AUDIT_TURN, LOST_UNTIL = range(9)
PER_PLAYER = ("tokens", "trained", "trained_turn", "recall_turn", "model_card_used")
TOKENS, TRAINED, TRAINED_TURN, RECALL_TURN, MODEL_CARD_USED = range(9, 14)
ZONES = ("hand", "deck", "discard", "ts", "ts_ex", "systems", "tools", "resolving")
#: A zone's number for player p is ``ZONE + p`` (``HAND + 1`` is player 1's hand).
HAND, DECK, DISCARD, TS, TS_EX, SYSTEMS, TOOLS, RESOLVING = range(14, 30, 2)
_DEFAULTS = (False, 0, -1, 0, -1, -1, -1, -1, -1)  # per-card values of a card not in play

# Trail entry kinds.
_SET, _ASSIGN, _PUT, _TAKE, _POP, _INSERT, _REWRITE = range(7)


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


#: ``Decision.source`` of the rules' own questions.
ORDER, MULLIGAN, MODEL_CARD = -1, -2, -3


class State:
    """One position of a game of Quick Play, with the trail that undoes it (see the module)."""

    __slots__ = ("card", "owner", "effect", "kw", "name_id", "seed", "turn_limit",
                 *PER_CARD, *ZONES, *PER_PLAYER,
                 "turn", "active", "first", "phase", "decision", "doom", "over", "winner", "shuffles",
                 "extra_trains", "extra_trains_turn", "events", "trail", "lists")

    def __init__(self, cards: list, owners: list, effects: list, keyword_bits: list, name_ids: list, seed: int,
                 turn_limit: int | None = None):
        """An empty table for these card instances (all in no zone yet).

        Args:
            cards, owners, effects, keyword_bits, name_ids: one entry per card id (Card, 0/1,
                Effect, int, int equal for equal names).
            seed: the game's seed (every shuffle and die roll comes from it).
            turn_limit: end the game as a draw after this many turns (R25), or None.
        """
        n = len(cards)
        self.card = tuple(cards)
        self.owner = tuple(owners)
        self.effect = tuple(effects)
        self.kw = tuple(keyword_bits)
        self.name_id = tuple(name_ids)
        self.seed = seed
        self.turn_limit = turn_limit
        for name, default in zip(PER_CARD, _DEFAULTS):
            setattr(self, name, [default] * n)
        for name in ZONES:
            setattr(self, name, ([], []))
        self.tokens, self.trained, self.trained_turn = [0, 0], [0, 0], [-1, -1]
        self.recall_turn, self.model_card_used = [-1, -1], [False, False]
        self.turn, self.active, self.first, self.phase = 0, 0, 0, "order"
        self.decision = self.doom = self.winner = None
        self.over = False
        self.shuffles, self.extra_trains, self.extra_trains_turn = 0, 0, -1
        self.events: list[tuple] = []
        self.trail: list[tuple] = []
        self._register()

    def _register(self) -> None:
        lists = [getattr(self, name) for name in PER_CARD] + [getattr(self, name) for name in PER_PLAYER]
        for name in ZONES:
            lists.extend(getattr(self, name))
        self.lists = lists

    # -- writes (each records its inverse) -------------------------------------------------------
    # The trail is one flat list: each write appends its numbers, then its kind last, so undo
    # pops the kind first and knows how many numbers to take back (flat: half the memory of
    # a tuple per write).
    def set(self, which: int, i: int, value) -> None:
        """``lists[which][i] = value`` (a per-card or per-player value)."""
        lst = self.lists[which]
        self.trail.extend((which, i, lst[i], _SET))
        lst[i] = value

    def assign(self, name: str, value) -> None:
        """Set one of the table's values (``turn``, ``decision``...)."""
        self.trail.extend((name, getattr(self, name), _ASSIGN))
        setattr(self, name, value)

    def put(self, zone: int, x: int) -> None:
        """Add card ``x`` at the end of zone ``zone`` (the top, for a deck)."""
        self.lists[zone].append(x)
        self.trail.extend((zone, _PUT))

    def take(self, zone: int, x: int) -> None:
        """Remove card ``x`` from zone ``zone`` (it must be there)."""
        lst = self.lists[zone]
        i = lst.index(x)
        del lst[i]
        self.trail.extend((zone, i, x, _TAKE))

    def pop(self, zone: int, i: int = -1):
        """Remove and return the item at index ``i`` of ``zone`` (default: the last, a deck's top)."""
        lst = self.lists[zone]
        if i < 0:
            i += len(lst)
        x = lst.pop(i)
        self.trail.extend((zone, i, x, _TAKE))
        return x

    def insert(self, zone: int, i: int, x) -> None:
        """Insert ``x`` at index ``i`` of ``zone`` (0 is a deck's bottom)."""
        self.lists[zone].insert(i, x)
        self.trail.extend((zone, i, _INSERT))

    def rewrite(self, zone: int, items) -> None:
        """Replace the whole content of ``zone`` with ``items``."""
        lst = self.lists[zone]
        self.trail.extend((zone, tuple(lst), _REWRITE))
        lst[:] = items

    def shuffle(self, zone: int) -> None:
        """Shuffle ``zone`` with the game's next random generator (see :meth:`rng`)."""
        lst = self.lists[zone]
        self.trail.extend((zone, tuple(lst), _REWRITE))
        # random.shuffle's own steps, written out so a game's set-up costs less (the same
        # generator calls in the same order give the same order of cards).
        getrandbits = self.rng().getrandbits
        for i in range(len(lst) - 1, 0, -1):
            k = (i + 1).bit_length()
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            lst[i], lst[j] = lst[j], lst[i]

    def rng(self) -> random.Random:
        """A fresh generator for the next random event: only the seed and a counter decide it."""
        self.assign("shuffles", self.shuffles + 1)
        return random.Random(self.seed * 1_000_003 + self.shuffles)

    def undo_to(self, mark: int) -> None:
        """Take back every write made since ``len(trail)`` was ``mark``."""
        trail, lists = self.trail, self.lists
        pop = trail.pop
        while len(trail) > mark:
            op = pop()
            if op == _SET:
                old, i = pop(), pop()
                lists[pop()][i] = old
            elif op == _TAKE:
                x, i = pop(), pop()
                lists[pop()].insert(i, x)
            elif op == _PUT:
                lists[pop()].pop()
            elif op == _ASSIGN:
                old = pop()
                setattr(self, pop(), old)
            elif op == _INSERT:
                i = pop()
                del lists[pop()][i]
            else:
                saved = pop()
                lists[pop()][:] = saved

    def clear_card(self, x: int) -> None:
        """Reset card ``x``'s per-card values as it leaves play (recorded)."""
        for which, default in enumerate(_DEFAULTS):
            if self.lists[which][x] != default:
                self.set(which, x, default)

    # -- copies -----------------------------------------------------------------------------------
    def copy(self, trail: bool = True) -> "State":
        """An independent copy. With ``trail=False`` the copy cannot undo past this position
        (cheaper, for a search that plays games forward in its head)."""
        c = State.__new__(State)
        c.card, c.owner, c.effect, c.kw, c.name_id = self.card, self.owner, self.effect, self.kw, self.name_id
        c.seed, c.turn_limit = self.seed, self.turn_limit
        for name in PER_CARD + PER_PLAYER:
            setattr(c, name, getattr(self, name)[:])
        for name in ZONES:
            a, b = getattr(self, name)
            setattr(c, name, (a[:], b[:]))
        c.turn, c.active, c.first, c.phase = self.turn, self.active, self.first, self.phase
        c.decision, c.doom, c.over, c.winner = self.decision, self.doom, self.over, self.winner
        c.shuffles, c.extra_trains, c.extra_trains_turn = self.shuffles, self.extra_trains, self.extra_trains_turn
        c.events = self.events[:]
        c.trail = self.trail[:] if trail else []
        c._register()
        return c
