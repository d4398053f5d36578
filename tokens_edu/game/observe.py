"""What each reader may see of a game, decided here and nowhere else (OpenSpiel's observer).

- :class:`Observer`: one reader's eyes (player 0 or 1, ``None`` for nobody's: a covered hot
  seat, two computers watched; or the teacher's, who sees everything of a replay). Everything
  a page, a pane, a table, a bot's explanation or a replay shows of a game asks it: the
  :class:`Observation`, the log, the move list, a choice in progress, the cards the
  computer's last moves light up, and which options of an explanation name a hidden card.
- :class:`Observation`: the snapshot of one player's view (for tables, views and students);
  :class:`PlayerView`: the live one computer players read thousands of times a game (it lives
  in :mod:`tokens_edu.engine.view`, compiled with the engine, and is named here too).

The rules it follows, each in one place below: the opponent's hand and either deck's order are
never in an observation; a trained card stays face-down (R8); a choice among cards only its
chooser saw (a look at the deck, R22: the engine's ``Decision.secret``) is named to nobody
else, in the log, the move list or a prompt; before a move is made, an option that would name
a card of the chooser's hand or of a secret choice is hidden from the other player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..content.cards import Card
from ..engine import moves as mv
from ..engine import rules
from ..engine.state import State
from ..engine.view import PlayerView  # compiled with the engine: computer players read it every move
from .actions import Action
from .narrate import prompt, public_prompt

__all__ = ["BoardCard", "Observation", "PlayerView", "Observer", "TEACHER", "board_card", "observe",
           "option_hidden", "prompt_for", "PUBLIC_KINDS", "FACE_DOWN", "SECRET_CHOICE"]

#: Played moves whose cards anyone at the table sees (lit up when the computer makes them).
PUBLIC_KINDS = frozenset({"deploy", "task", "audit", "use"})
#: How another player reads a Train (R8: the card goes face-down).
FACE_DOWN = "train a card (face-down)"
#: How another player reads a secret choice (R22).
SECRET_CHOICE = "choose (a secret choice)"


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


def option_hidden(game, move) -> bool:
    """True when ``move`` (a legal move of the player to act, as an int or its :class:`Action`)
    would name a card the other player may not see: a card from the hand (Train, Deploy; a
    trained card stays face-down, R8), a card to discard from the hand (R23), or a card of a
    secret choice (a look at the deck, R22).

    Args:
        game: a :class:`~tokens_edu.Game` that is not over. move: one of its legal moves.
    """
    kind = move.kind if isinstance(move, Action) else mv.KIND_NAMES[move & 15]
    if kind in ("train", "deploy"):
        return True
    if kind == "choose":
        d = game._s.decision
        return d is not None and (d.secret or d.labels == "hand")
    return False


def prompt_for(own: str | None, public: str | None, chooser_name: str, computer: bool) -> str:
    """The words of a choice in progress for one reader (R22: a look is the chooser's alone).

    Args:
        own: the chooser's own prompt when the reader is the chooser (it may name cards only
            they see: ``observation(chooser).pending``), else None.
        public: the engine's public sentence about the choice (``observation(p).pending_public``),
            which never names a hidden card, or None.
        chooser_name: the chooser's name as the game has it. computer: a computer is choosing.

    Returns:
        str: ``own`` for the chooser; else the public sentence with the computer called "The
        computer" ("... the top card of its deck"), or "The computer is choosing." / "Bo is
        choosing." when there is no public sentence.
    """
    if own is not None:
        return own
    if not public:
        return "The computer is choosing." if computer else f"{chooser_name} is choosing."
    if computer and public.startswith(chooser_name):
        return "The computer" + public[len(chooser_name):].replace(" their ", " its ")
    return public


class Observer:
    """One reader's eyes on a game: what they may see of it, decided here for every view.

    Args:
        viewer: 0 or 1 (a player), or None (nobody's eyes: a covered hot seat, two computers
            watched; only what everyone at the table sees).
        teacher: the teacher's eyes on a replay: everything (both hands, every secret). Never
            for a player of a live game.

    Raises:
        ValueError: ``viewer`` is not 0, 1 or None.

    Example::

        seen = Observer(1)
        seen.move_list(game)        # [(0, "train a card (face-down)"), (0, "end turn"), ...]
        seen.observation(game)      # player 1's Observation (their hand only)
    """

    __slots__ = ("viewer", "teacher")

    def __init__(self, viewer: int | None = None, *, teacher: bool = False):
        if viewer not in (0, 1, None) or isinstance(viewer, bool):
            raise ValueError(f"A viewer is 0, 1 or None, not {viewer!r:.40}.")
        self.viewer = viewer
        self.teacher = bool(teacher)

    def __repr__(self) -> str:
        return "Observer(teacher=True)" if self.teacher else f"Observer({self.viewer!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Observer) and (self.viewer, self.teacher) == (other.viewer, other.teacher)

    def __hash__(self) -> int:
        return hash((Observer, self.viewer, self.teacher))

    # -- the position -------------------------------------------------------------------------
    def observation(self, game, seat: int | None = None) -> Observation:
        """The :class:`Observation` this reader may have of ``game``.

        A player's own (their hand, their moves and prompt when they are to act). For nobody's
        eyes, the position seen from ``seat`` (default 0) with no hand, no moves and no private
        prompt. The teacher gets ``seat``'s own (default: the viewer's, else 0).
        """
        if self.viewer is not None:
            return game.observation(self.viewer)
        obs = game.observation(seat if seat in (0, 1) else 0)
        if self.teacher:
            return obs
        return obs._replace(hand=(), legal_actions=(), pending=None)

    def log(self, game) -> tuple:
        """The log as this reader reads it (their own secret choices in the second person;
        nobody's secret choice named, R22)."""
        return game.log_for(self.viewer) if self.viewer is not None else game.log

    def prompt(self, game, computer=(False, False)) -> str | None:
        """The choice in progress as this reader may read it, or None when nobody is choosing
        (the main phase, or the game is over). The chooser reads their own prompt; everyone
        else the engine's public sentence (:func:`prompt_for`).

        Args:
            computer: per seat, True when a computer plays it (it is called "The computer").
        """
        s = game._s
        d = s.decision
        if d is None or s.over:
            return None
        chooser = d.player
        mine = self.teacher or (self.viewer is not None and self.viewer == chooser)
        return prompt_for(prompt(s, game.names, d) if mine else None, public_prompt(s, game.names, d),
                          game.names[chooser], bool(computer[chooser]))

    # -- the moves ------------------------------------------------------------------------------
    def move_text(self, action: Action) -> str:
        """A move played (an :class:`Action` from ``game.move_stack``) as this reader may read
        it: the other player's Train is face-down (R8: :data:`FACE_DOWN`), their secret choice
        not named (R22: :data:`SECRET_CHOICE`); a mulligan reads "new hand" for everyone."""
        kind = action.kind
        if kind == "mulligan":
            return "new hand"
        if self.teacher or (self.viewer is not None and action.player == self.viewer):
            return str(action)
        if kind == "train":
            return FACE_DOWN
        if kind == "choose" and action.secret:
            return SECRET_CHOICE
        return str(action)

    def move_list(self, game) -> list[tuple[int, str]]:
        """Every move played so far as this reader may read it: ``[(player, text), ...]``."""
        return [(a.player, self.move_text(a)) for a in game.move_stack]

    def highlight(self, moves: Iterable) -> frozenset:
        """What the newest three of ``moves`` (``(player, Action)`` pairs, oldest first: the
        computer's last moves) light up on the table: the board labels of their cards when
        anyone may see them (:data:`PUBLIC_KINDS`), ``"ts:<player>"`` for a Train (its card
        is face-down: the Training Set lights up, never a card of that name, R8)."""
        out: set[str] = set()
        for mover, action in tuple(moves)[-3:]:
            kind = getattr(action, "kind", None)
            if kind in PUBLIC_KINDS:
                out.update(x for x in (getattr(action, "card", None), getattr(action, "target", None)) if x)
            elif kind == "train":
                out.add(f"ts:{mover}")
        return frozenset(out)

    def hides_option(self, game, move) -> bool:
        """True when this reader may not read ``move``, a legal option of the player to act
        (an explanation of the choice shown to them hides it): a player's own options are
        theirs; for anyone else see :func:`option_hidden`."""
        if self.teacher or (self.viewer is not None and self.viewer == game.to_act):
            return False
        return option_hidden(game, move)


#: The teacher's eyes on a replay (both hands, every secret).
TEACHER = Observer(None, teacher=True)
