"""What one player may see: the :class:`Observation` snapshot (for tables, views and students)
and the live :class:`PlayerView` (for computer players, which look thousands of times a game).

Neither ever shows the opponent's hand or either deck's order (R22's looks are shown only to
the player looking, through their own decision).
"""

from __future__ import annotations

from typing import NamedTuple

from ..content.cards import Card
from ..engine import rules
from ..engine.state import State

__all__ = ["BoardCard", "Observation", "PlayerView", "board_card", "observe"]


class BoardCard(NamedTuple):
    """A System or Tool in play, as anyone at the table sees it.

    Attributes:
        owner: 0 or 1. label: the name used in action texts (``"Chatbot #2"`` for a second copy).
        card: the :class:`Card`. cap: current Capability (boosts included; None for Tools).
        tru: Trust (None for Tools). flags: Flags on it. sideways: exerted (True) or upright.
        can_act: may Run a Task or an Audit right now (R12; only on its controller's turn).
        new: deployed this turn (R12). no_task: barred from Tasks this turn, or (for the player
            whose turn it is not) during their coming turn (R19).
        no_audit: can't be Audited this turn (Regulation Debate). abilities_lost: AI Isn't Magic.
    """

    owner: int
    label: str
    card: Card
    cap: int | None
    tru: int | None
    flags: int
    sideways: bool
    can_act: bool
    new: bool
    no_task: bool
    no_audit: bool
    abilities_lost: bool


class Observation(NamedTuple):
    """What one player may see of a game (no hidden cards). Built by ``Game.observation``.

    Attributes:
        player: whose view this is (0/1). to_act, active, turn, over, winner: as on Game.
        names: both players' names. tokens: both Token counts.
        hand: this player's own hand (tuple of Card). hand_sizes, deck_sizes: both players'.
        discards: both discard piles, oldest first (tuples of Card; discard piles are public).
        data_ready, training_set: both players' ready and total Training Set sizes.
        systems_count: both players' numbers of Systems (for the deploy tax, R10).
        board: tuple of :class:`BoardCard`, player 0's first.
        model_card_used: both players' R16 flags.
        pending: what this player must choose now (text, may name cards only they see), or None.
        legal_actions: this player's legal actions if they are to act, else ().
        pending_public: a sentence anyone may read about a decision in progress (who is choosing
            what), with no card only the chooser may see; None when nobody is deciding inside
            an effect or set-up step.
    """

    player: int
    to_act: int | None
    active: int
    turn: int
    over: bool
    winner: int | None
    names: tuple
    tokens: tuple
    hand: tuple
    hand_sizes: tuple
    deck_sizes: tuple
    discards: tuple
    data_ready: tuple
    training_set: tuple
    systems_count: tuple
    board: tuple
    model_card_used: tuple
    pending: str | None
    legal_actions: tuple
    pending_public: str | None = None

    def my_board(self) -> list[BoardCard]:
        """This player's Systems and Tools."""
        return [b for b in self.board if b.owner == self.player]

    def their_board(self) -> list[BoardCard]:
        """The opponent's Systems and Tools."""
        return [b for b in self.board if b.owner != self.player]


def board_card(s: State, x: int, label: str) -> BoardCard:
    """Card x in play as a :class:`BoardCard` (``label``: its name in action texts)."""
    card = s.card[x]
    owner = s.owner[x]
    t = s.turn
    new = s.entered[x] == t and owner == s.active
    lost = t < s.lost_until[x]
    if card.type != "System":
        return BoardCard(owner, label, card, None, None, s.flags[x], s.exerted[x], False, new, False,
                         s.no_audit_turn[x] == t, lost)
    when = t if owner == s.active else t + 1  # R19: the bar that applies in its controller's turn
    no_task = s.no_task_turn[x] == when or s.recall_turn[owner] == when
    return BoardCard(owner, label, card, rules.cap(s, x), card.tru, s.flags[x], s.exerted[x],
                     rules.act_problem(s, owner, x) is None, new, no_task, s.no_audit_turn[x] == t, lost)


def observe(s: State, player: int, names, labels: dict, pending, legal_actions, pending_public) -> Observation:
    """The :class:`Observation` of ``player`` (the other arguments come from the Game)."""
    card = s.card
    board = tuple(board_card(s, x, labels[x]) for o in (0, 1) for zone in (s.systems[o], s.tools[o]) for x in zone)
    to_act = None if s.over else (s.decision.player if s.decision is not None else s.active)
    return Observation(
        player=player, to_act=to_act, active=s.active, turn=s.turn, over=s.over, winner=s.winner,
        names=tuple(names), tokens=(s.tokens[0], s.tokens[1]),
        hand=tuple(card[x] for x in s.hand[player]),
        hand_sizes=(len(s.hand[0]), len(s.hand[1])), deck_sizes=(len(s.deck[0]), len(s.deck[1])),
        discards=tuple(tuple(card[x] for x in s.discard[o]) for o in (0, 1)),
        data_ready=(rules.data_ready(s, 0), rules.data_ready(s, 1)), training_set=(len(s.ts[0]), len(s.ts[1])),
        systems_count=(len(s.systems[0]), len(s.systems[1])), board=board,
        model_card_used=(s.model_card_used[0], s.model_card_used[1]),
        pending=pending, legal_actions=tuple(legal_actions), pending_public=pending_public,
    )


class PlayerView:
    """A live, read-only view of a game for one player: cheap enough to read at every decision
    of a simulation (nothing is copied). It answers only what that player may know: their own
    hand, the board, both discard piles and every count; never the opponent's hand or either
    deck's order.

    Cards are named by card id (the numbers inside :meth:`Game.legal_moves`' moves). Get one
    from :meth:`Game.view`.
    """

    __slots__ = ("_s", "player")

    def __init__(self, state: State, player: int):
        self._s = state
        self.player = player

    # whose turn, what stage
    @property
    def turn(self) -> int:
        """The turn number (0 during set-up)."""
        return self._s.turn

    @property
    def active(self) -> int:
        """Whose turn it is (0/1)."""
        return self._s.active

    @property
    def opponent(self) -> int:
        """The other player (0/1)."""
        return 1 - self.player

    def tokens(self, p: int) -> int:
        """Player p's Tokens."""
        return self._s.tokens[p]

    # cards
    def card(self, x: int) -> Card:
        """The Card of card id x (one this player may see: in their hand, in play, in a discard
        pile, or offered by their own decision)."""
        return self._s.card[x]

    def hand(self) -> list[int]:
        """This player's hand (card ids, a copy)."""
        return self._s.hand[self.player][:]

    def hand_size(self, p: int) -> int:
        """How many cards player p holds."""
        return len(self._s.hand[p])

    def deck_size(self, p: int) -> int:
        """How many cards are in player p's deck."""
        return len(self._s.deck[p])

    def data_ready(self, p: int) -> int:
        """Player p's ready Training Set cards (R9)."""
        return self._s.ts_ex[p].count(False)

    def training_set_size(self, p: int) -> int:
        """All of player p's Training Set cards."""
        return len(self._s.ts[p])

    def systems(self, p: int) -> list[int]:
        """Player p's Systems in play (card ids, board order)."""
        return self._s.systems[p][:]

    def tools(self, p: int) -> list[int]:
        """Player p's Tools in play (card ids, board order)."""
        return self._s.tools[p][:]

    def discard(self, p: int) -> list[int]:
        """Player p's discard pile (card ids, oldest first; discard piles are public)."""
        return self._s.discard[p][:]

    # cards in play
    def cap(self, x: int) -> int:
        """System x's current Capability (boosts included)."""
        return rules.cap(self._s, x)

    def flags(self, x: int) -> int:
        """Flags on System x."""
        return self._s.flags[x]

    def sideways(self, x: int) -> bool:
        """Card x in play is exerted."""
        return self._s.exerted[x]

    def can_act(self, x: int) -> bool:
        """System x may Run a Task or an Audit right now (R12)."""
        return rules.act_problem(self._s, self._s.owner[x], x) is None

    def has_keyword(self, x: int, keyword: str) -> bool:
        """Card x has ``keyword`` now (not lost to AI Isn't Magic): "Fast-Tracked",
        "Highly Trusted" or "Adversarial"."""
        return rules.has_keyword(self._s, x, rules.KEYWORD_BITS[keyword])

    def task_barred(self, x: int) -> bool:
        """System x (of the player whose turn it is) can't Run a Task this turn (R19)."""
        s = self._s
        return rules.task_bar_problem(s, s.owner[x], x) is not None

    # the decision in progress
    def decision(self):
        """This player's decision in progress as ``(labels, options, source card name, step)``,
        or None (see :class:`~tokens_edu.engine.state.Decision`)."""
        d = self._s.decision
        if d is None or d.player != self.player or self._s.over:
            return None
        return d.labels, d.options, (self._s.card[d.source].name if d.source >= 0 else None), d.step
