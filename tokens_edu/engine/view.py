"""What one player may see, live: :class:`PlayerView`, the window computer players look through.

A bot reads the game thousands of times a game, so the view copies nothing and is compiled
with the engine (see ``tokens_edu/_build.py``). It answers only what its player may know:
their own hand, the board, both discard piles and every count; never the opponent's hand or
either deck's order (R22's looks are shown only to the player looking, through their own
decision). :mod:`tokens_edu.game.observe` builds the snapshot for tables and students from the
same rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import rules
from .state import CardFacts, State

if TYPE_CHECKING:
    from ..content.cards import Card

__all__ = ["PlayerView"]


class PlayerView:
    """A live, read-only view of a game for one player: cheap enough to read at every decision
    of a simulation (nothing is copied). It answers only what that player may know: their own
    hand, the board, both discard piles and every count; never the opponent's hand or either
    deck's order.

    Cards are named by card id (the numbers inside :meth:`Game.legal_moves`' moves). Get one
    from :meth:`Game.view`.
    """

    __slots__ = ("_s", "player")

    def __init__(self, state: State, player: int) -> None:
        self._s = state
        self.player = player

    def __repr__(self) -> str:
        return f"<PlayerView of player {self.player}, turn {self._s.turn}>"

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

    def facts(self, x: int) -> CardFacts:
        """The printed numbers of card id x as plain ints (:class:`~tokens_edu.engine.state.CardFacts`:
        ``kind``, ``cost``, ``cap``, ``tru``, ``tokens``...): what :meth:`card` says, quicker to
        read for a computer player."""
        return self._s.facts[x]

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
        return rules.data_ready(self._s, p)

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
    def decision(self) -> tuple[str, tuple, Any, str] | None:
        """This player's decision in progress as ``(labels, options, source card name, step)``,
        or None (see :class:`~tokens_edu.engine.state.Decision`)."""
        s = self._s
        d = s.decision
        if d is None or d.player != self.player or s.over:
            return None
        return d.labels, d.options, (s.card[d.source].name if d.source >= 0 else None), d.step
