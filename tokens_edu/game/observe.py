"""What one player may see: the :class:`Observation` snapshot (for tables, views and students)
and the live :class:`PlayerView` (for computer players, which look thousands of times a game;
it lives in :mod:`tokens_edu.engine.view`, compiled with the engine, and is named here too).

Neither ever shows the opponent's hand or either deck's order (R22's looks are shown only to
the player looking, through their own decision).
"""

from __future__ import annotations

from typing import NamedTuple

from ..content.cards import Card
from ..engine import rules
from ..engine.state import State
from ..engine.view import PlayerView  # compiled with the engine: computer players read it every move

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
