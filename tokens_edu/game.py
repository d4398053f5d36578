"""The game: one mutable :class:`Game` that changes only through ``apply`` and ``undo``.

A ``Game`` holds a position of Tokens TCG Quick Play (printed rules plus rulings R1-R25) and
the history that led there. Everything a player may do is an :class:`~tokens_edu.Action` from
:meth:`Game.legal_actions`, including setup decisions (R2, R3) and choices inside card effects
(R23). Randomness (the die, shuffles) comes only from the game's seed, so the same seed and the
same actions always give the same game, and :meth:`Game.from_record` rebuilds it exactly.

Cards in a game are *instances* numbered 0..n-1 (player 0's deck first); each card's mechanic
lives in :mod:`tokens_edu.effects`, the keyword rules here.
"""

from __future__ import annotations

import copy
import os
import random
from collections import namedtuple
from typing import NamedTuple
from collections.abc import Mapping, Sequence

from .actions import Action, normalize
from .cards import Card
from .decks import Deck, deck_problems_text
from .effects import effect_of
from .errors import DeckError, IllegalAction, RecordError, ScenarioError

__all__ = ["Game", "LogEvent", "Observation", "BoardCard", "WINNING_TOKENS"]

WINNING_TOKENS = 15  # R25
FIRST_HAND, SECOND_HAND = 5, 6  # R3
RECORD_FORMAT = "tokens-edu-record"
RECORD_VERSION = 1

#: One line of the game's log: ``turn`` (0 during setup), ``player`` (0/1 or None), ``kind``
#: (``"deploy"``, ``"audit"``, ``"deprecated"``...), ``text`` (a commentary sentence).
LogEvent = namedtuple("LogEvent", "turn player kind text")
LogEvent.__doc__ = """One event of a game's log: ``turn`` (0 during setup), ``player`` (0/1, or None for
both), ``kind`` (a short word: "deploy", "task", "audit", "deprecated", "win"...) and ``text``
(a commentary sentence, e.g. "Ada's Neural Network audits Bo's Explainability: 4 Flags to 1.")."""


class _Perm:
    """A System or Tool in play (internal)."""

    __slots__ = ("iid", "exerted", "flags", "entered", "boost", "boost_turn", "gpu_turn",
                 "no_task_turn", "no_audit_turn", "lost_until")

    def __init__(self, iid: int, entered: int, exerted: bool = False, flags: int = 0):
        self.iid = iid
        self.exerted = exerted
        self.flags = flags
        self.entered = entered
        self.boost = 0
        self.boost_turn = -1
        self.gpu_turn = -1
        self.no_task_turn = -1
        self.no_audit_turn = -1
        self.lost_until = -1

    def clone(self) -> "_Perm":
        c = _Perm.__new__(_Perm)
        c.iid, c.exerted, c.flags, c.entered = self.iid, self.exerted, self.flags, self.entered
        c.boost, c.boost_turn, c.gpu_turn = self.boost, self.boost_turn, self.gpu_turn
        c.no_task_turn, c.no_audit_turn, c.lost_until = self.no_task_turn, self.no_audit_turn, self.lost_until
        return c


class _Player:
    """One player's zones and counters (internal). ``deck`` has its top card at the END."""

    __slots__ = ("tokens", "hand", "deck", "discard", "ts", "ts_ex", "systems", "tools", "resolving",
                 "trained", "trained_turn", "no_task_turn", "model_card_used")

    def __init__(self):
        self.tokens = 0
        self.hand: list[int] = []
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.ts: list[int] = []  # Training Set, in the order the cards went in
        self.ts_ex: list[bool] = []  # parallel to ts: exerted?
        self.systems: list[_Perm] = []
        self.tools: list[_Perm] = []
        self.resolving: list[int] = []  # Actions being resolved; to the discard pile after (R18)
        self.trained = 0
        self.trained_turn = -1
        self.no_task_turn = -1  # Mandatory Recall (R19)
        self.model_card_used = False  # R16

    def clone(self) -> "_Player":
        c = _Player.__new__(_Player)
        c.tokens = self.tokens
        c.hand, c.deck, c.discard = self.hand[:], self.deck[:], self.discard[:]
        c.ts, c.ts_ex = self.ts[:], self.ts_ex[:]
        c.systems = [s.clone() for s in self.systems]
        c.tools = [t.clone() for t in self.tools]
        c.resolving = self.resolving[:]
        c.trained, c.trained_turn = self.trained, self.trained_turn
        c.no_task_turn, c.model_card_used = self.no_task_turn, self.model_card_used
        return c


# A choice someone must make (R23): who, the question, the options as (label, value) pairs,
# and where the answer goes: EFFECTS[source].answers[step](game, player, value, data).
_Decision = namedtuple("_Decision", "player prompt options source step data secret", defaults=(False,))


class _State:
    """Everything that changes during a game (internal); ``clone`` is the undo snapshot."""

    __slots__ = ("players", "turn", "active", "first", "phase", "decision", "doom", "over",
                 "winner", "shuffles", "extra_trains", "extra_trains_turn", "log_len")

    def clone(self) -> "_State":
        c = _State.__new__(_State)
        c.players = [p.clone() for p in self.players]
        c.turn, c.active, c.first, c.phase = self.turn, self.active, self.first, self.phase
        c.decision, c.doom, c.over, c.winner = self.decision, self.doom, self.over, self.winner
        c.shuffles, c.extra_trains, c.extra_trains_turn = self.shuffles, self.extra_trains, self.extra_trains_turn
        c.log_len = self.log_len
        return c


class BoardCard(NamedTuple):
    """A System or Tool in play, as anyone at the table sees it.

    Attributes:
        owner: 0 or 1. label: the name used in action texts (``"Chatbot #2"`` for a second copy).
        card: the :class:`Card`. cap: current Capability (boosts included; None for Tools).
        tru: Trust (None for Tools). flags: Flags on it. sideways: exerted (True) or upright.
        can_act: may Run a Task or an Audit right now (R12; only on its controller's turn).
        new: deployed this turn (R12). no_task: barred from Tasks this turn (R19).
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
    """What one player may see of a game (no hidden cards). Built by :meth:`Game.observation`.

    Attributes:
        player: whose view this is (0/1). to_act, active, turn, over, winner: as on Game.
        names: both players' names. tokens: both Token counts.
        hand: this player's own hand (tuple of Card). hand_sizes, deck_sizes: both players'.
        discards: both discard piles, oldest first (tuples of Card; discard piles are public).
        data_ready, training_set: both players' ready and total Training Set sizes.
        systems_count: both players' numbers of Systems (for the deploy tax, R10).
        board: tuple of :class:`BoardCard`, player 0's first.
        model_card_used: both players' R16 flags.
        pending: what this player must choose now (text), or None.
        legal_actions: this player's legal actions if they are to act, else ().
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

    def my_board(self) -> list[BoardCard]:
        """This player's Systems and Tools."""
        return [b for b in self.board if b.owner == self.player]

    def their_board(self) -> list[BoardCard]:
        """The opponent's Systems and Tools."""
        return [b for b in self.board if b.owner != self.player]


def _fail(message: str, action: str = "", rule: str | None = None) -> IllegalAction:
    return IllegalAction(message, action=action, rule=rule)


class Game:
    """A game of Tokens TCG Quick Play between two players (index 0 and 1).

    Make one with :meth:`new` (two decks), :meth:`from_scenario` (any position) or
    :meth:`from_record` (a saved game). Change it only with :meth:`apply` and :meth:`undo`.

    Attributes (read-only):
        to_act: the player (0/1) whose decision it is now; may be the player whose turn it is
            not (Model Card, R16). None when the game is over.
        active: whose turn it is. turn: the turn number (1-based; 0 during setup).
        over, winner: whether the game has ended, and who won (0, 1 or None for a draw).
        tokens: (int, int). names: (str, str). pending: what the player to act must choose, or
            None in the main phase. log: tuple of :class:`LogEvent`. seed: the seed (int).
    """

    # -- making games ------------------------------------------------------------------------
    def __init__(self):  # use Game.new / from_scenario / from_record
        self._cards: list[Card] = []
        self._owner: list[int] = []
        self._names = ("Player 1", "Player 2")
        self._seed = 0
        self._turn_limit: int | None = None
        self._origin: dict = {}
        self._title: str | None = None
        self._log: list[LogEvent] = []
        self._history: list[tuple[_State, str]] = []
        self._s: _State | None = None
        self._cache: dict | None = None
        self._cache_moves: list = []
        self._label_cache: dict = {}
        self._texts: dict | None = None
        self._cache_list: list[Action] | None = None

    @classmethod
    def new(cls, deck0, deck1, seed: int | None = None, names: Sequence[str] = ("Player 1", "Player 2"),
            turn_limit: int | None = None) -> "Game":
        """Start a game: roll for first player (R2), deal hands (R3); stop at the first decision.

        Args:
            deck0, deck1: a :class:`Deck` or a list of card names for each player; each must be
                legal (R1).
            seed: any int; the same seed and actions give the same game. None picks one (kept
                in ``game.seed`` and in the record).
            names: the two players' names (text, 1-40 characters).
            turn_limit: end the game as a draw after this many turns (R25), or None.

        Returns:
            Game, waiting for the die-roll winner's ``go first`` / ``go second``.

        Raises:
            DeckError: a deck is unreadable or breaks R1 (every problem named).
            ValueError: bad seed, names or turn_limit (as a ScenarioError, in plain words).
        """
        decks = []
        for i, d in enumerate((deck0, deck1)):
            deck = d if isinstance(d, Deck) else Deck.from_names(d, name=f"Deck {i + 1}") if _is_names(d) else None
            if deck is None:
                raise DeckError(f"Deck {i + 1} must be a Deck or a list of card names, not {type(d).__name__}.")
            problems = deck.problems()
            if problems:
                raise DeckError(f"Player {i + 1}'s deck is not legal: {deck_problems_text(len(deck), problems)}.", problems)
            decks.append(deck)
        g = cls()
        g._names = _check_names(names)
        g._seed = _check_seed(seed)
        g._turn_limit = _check_turn_limit(turn_limit)
        g._origin = {"decks": [decks[0].names(), decks[1].names()]}
        g._setup_new(decks)
        return g

    def _setup_new(self, decks: list[Deck]) -> None:
        s = _State()
        s.players = [_Player(), _Player()]
        s.turn, s.active, s.first, s.phase = 0, 0, 0, "order"
        s.decision, s.doom, s.over, s.winner = None, None, False, None
        s.shuffles, s.extra_trains, s.extra_trains_turn, s.log_len = 0, 0, -1, 0
        self._s = s
        for p, deck in enumerate(decks):
            for card in deck:
                s.players[p].deck.append(len(self._cards))
                self._cards.append(card)
                self._owner.append(p)
            self._shuffle(s.players[p].deck)
        rng = self._rng()
        while True:  # R2: roll, re-roll ties
            r0, r1 = rng.randint(1, 6), rng.randint(1, 6)
            if r0 != r1:
                break
            self._event(0, None, "roll", f"Both roll {r0}: roll again.")
        winner = 0 if r0 > r1 else 1
        self._event(0, None, "roll", f"{self._names[0]} rolls {r0}, {self._names[1]} rolls {r1}: "
                    f"{self._names[winner]} chooses who goes first.")
        s.decision = _Decision(winner, f"{self._names[winner]} won the roll: go first or go second?",
                               (("first", 0), ("second", 1)), "_order", "", ())

    @classmethod
    def from_scenario(cls, scenario) -> "Game":
        """A game set up at any position, from a scenario dict or a YAML file path.

        The format is in the project's API (``title, seed, active, turn, players: [...]``); the
        game starts in the main phase of ``turn`` for ``active``.

        Raises:
            ScenarioError: the file or an entry is bad (names the entry and the problem): a card
                that does not exist, 3 copies, Flags at or over Trust, a wrong type...
        """
        from .scenario import build_scenario

        return build_scenario(cls, scenario)

    @classmethod
    def from_record(cls, record) -> "Game":
        """Rebuild a game from :meth:`to_record` output (a dict, or a path to its ``.json``).

        Replays every action, so the result equals the recorded game, history and all.

        Raises:
            RecordError: (a :class:`ScenarioError`) the record is not a game record, or one of
                its actions is not legal where it stands (names the move number).
        """
        import json

        if isinstance(record, (str, os.PathLike)):
            try:
                with open(record, encoding="utf-8") as f:
                    record = json.load(f)
            except (OSError, ValueError) as e:
                raise RecordError(f"Cannot read the game record {str(record)[:80]!r}: {e}.") from None
        if not isinstance(record, Mapping):
            raise RecordError(f"A game record is a dict from Game.to_record(), not {type(record).__name__}.")
        if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError("This is not a tokens_edu game record (its 'format' is wrong).")
        version = record.get("version", RECORD_VERSION)
        if version != RECORD_VERSION:
            raise RecordError(f"This record has version {version!r:.20}; this tokens_edu reads version {RECORD_VERSION}.")
        actions = record.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("The record's 'actions' must be a list of action texts.")
        try:
            if "scenario" in record:
                game = cls.from_scenario(record["scenario"])
            elif "decks" in record:
                decks = record["decks"]
                if not isinstance(decks, list) or len(decks) != 2:
                    raise RecordError("The record's 'decks' must be two lists of card names.")
                names = record.get("names", ("Player 1", "Player 2"))
                game = cls.new(decks[0], decks[1], seed=record.get("seed"), names=names,
                               turn_limit=record.get("turn_limit"))
            else:
                raise RecordError("The record has neither 'decks' nor 'scenario'.")
        except RecordError:
            raise
        except (DeckError, ScenarioError, TypeError) as e:
            raise RecordError(f"The record's start is bad: {e}") from None
        for i, text in enumerate(actions):
            try:
                game.apply(text)
            except IllegalAction as e:
                raise RecordError(f"Move {i + 1} of the record ('{text[:60]}') cannot be played: {e}") from None
        return game

    # -- reading the position -----------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The player (0/1) who decides now; None when the game is over."""
        s = self._s
        if s.over:
            return None
        return s.decision.player if s.decision is not None else s.active

    @property
    def active(self) -> int:
        """Whose turn it is (0/1)."""
        return self._s.active

    @property
    def turn(self) -> int:
        """The turn number: 1 for the first player's first turn, 0 during setup."""
        return self._s.turn

    @property
    def over(self) -> bool:
        """True once someone reached 15 Tokens or the turn limit ended the game (R25)."""
        return self._s.over

    @property
    def winner(self) -> int | None:
        """The winner (0/1), or None while playing and after a draw."""
        return self._s.winner

    @property
    def tokens(self) -> tuple[int, int]:
        """Both players' Tokens."""
        a, b = self._s.players
        return (a.tokens, b.tokens)

    @property
    def names(self) -> tuple[str, str]:
        """Both players' names."""
        return self._names

    @property
    def seed(self) -> int:
        """The seed of every die roll and shuffle of this game."""
        return self._seed

    @property
    def title(self) -> str | None:
        """The scenario's title (shown to students), or None for a game from ``new``."""
        return self._title

    @property
    def turn_limit(self) -> int | None:
        """The turn limit (R25), or None."""
        return self._turn_limit

    @property
    def first_player(self) -> int:
        """Who took the first turn (0/1)."""
        return self._s.first

    @property
    def phase(self) -> str:
        """``"order"`` (R2), ``"mulligan"`` (R3), ``"main"`` (R7) or ``"over"``."""
        return "over" if self._s.over else self._s.phase

    @property
    def pending(self) -> str | None:
        """What the player to act must decide (a sentence), or None in the main phase."""
        d = self._s.decision
        return None if d is None or self._s.over else d.prompt

    @property
    def log(self) -> tuple[LogEvent, ...]:
        """The events so far, oldest first (each a :class:`LogEvent`)."""
        return tuple(self._log)

    @property
    def history(self) -> tuple[str, ...]:
        """The texts of the actions applied so far, in order."""
        return tuple(t for _, t in self._history)

    @property
    def moves(self) -> tuple[tuple[int, str], ...]:
        """Who took each action so far and its text: ``((player, text), ...)``, in order.

        The texts are the full record (a trained card is named): show another player's moves
        to a student only through a view that hides what they may not see.
        """
        out = []
        for before, text in self._history:
            out.append((before.decision.player if before.decision is not None else before.active, text))
        return tuple(out)

    def card_of(self, iid: int) -> Card:
        """The Card of card instance ``iid`` (internal numbering, used by effects)."""
        return self._cards[iid]

    # -- actions --------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the player :attr:`to_act` may take now, in a stable order.

        Order: setup decisions or choices; otherwise train, deploy, task, audit, use, end turn,
        each in hand or board order. Hand cards of the same name appear once.

        Returns:
            list of :class:`Action` (empty when the game is over).
        """
        if self._cache is None:
            self._build_cache()
        return list(self._cache_list)

    def apply(self, action: Action | str) -> "Game":
        """Take an action for the player to act: an :class:`Action` or its text (any case).

        Returns:
            the game itself (so calls can be chained).

        Raises:
            IllegalAction: the action is not legal now; the message says why in plain words and
                ``.rule`` names the ruling ("R14"). The game is left exactly as it was.
        """
        if self._cache is None:
            self._build_cache()
        if isinstance(action, Action):
            hit = None
            for i, a in enumerate(self._cache_list):  # usually the very object legal_actions gave
                if a is action:
                    hit = (a, self._cache_moves[i])
                    break
            if hit is None:
                try:
                    hit = self._cache.get(action)
                except TypeError:  # an Action built by hand with odd fields: go by its text
                    hit = None
            if hit is None:
                hit = self._lookup_text(str(action))
        elif isinstance(action, str):
            hit = self._lookup_text(action)
        else:
            raise _fail(f"An action must be text like 'end turn' or an Action, not {type(action).__name__}.",
                        type(action).__name__)
        if hit is None:
            raise self._illegal(action if isinstance(action, str) else str(action))
        act, move = hit
        snapshot = self._s.clone()
        snapshot.log_len = len(self._log)
        self._history.append((snapshot, str(act)))
        self._cache = None
        try:
            self._do(move)
        except BaseException:  # a bug must never leave a half-changed game behind
            self._s = snapshot
            del self._history[-1]
            del self._log[snapshot.log_len:]
            raise
        return self

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start).

        Returns:
            the Action that was taken back.

        Raises:
            IllegalAction: there is nothing to undo.
        """
        if not self._history:
            raise _fail("There is nothing to undo: this is the start of the game.", "undo")
        snapshot, text = self._history.pop()
        del self._log[snapshot.log_len:]
        self._s = snapshot.clone()  # the stored snapshot may be shared with copies
        self._cache = None
        return Action.parse(text)

    def explain(self, action: Action | str) -> str:
        """Why an action is or is not legal now, in a student's words. Never raises.

        Returns:
            "'task Chatbot' is legal." or the reason it is not (naming the rule).
        """
        try:
            text = str(action) if isinstance(action, Action) else action
            if self._cache is None:
                self._build_cache()
            hit = self._lookup_text(text) if isinstance(text, str) else None
            if hit is not None:
                return f"'{hit[0]}' is legal now."
            return str(self._illegal(text))
        except Exception as e:  # explain is for students: it must not crash
            return f"That can't be done now: {e}"

    def copy(self) -> "Game":
        """An independent copy with the same position and history (undo works on both)."""
        g = Game.__new__(Game)
        g._cards, g._owner, g._names = self._cards, self._owner, self._names
        g._seed, g._turn_limit, g._origin, g._title = self._seed, self._turn_limit, self._origin, self._title
        g._log = self._log[:]
        g._history = self._history[:]
        g._s = self._s.clone()
        g._cache = None
        g._label_cache = {}
        g._texts = None
        g._cache_list = None
        return g

    def __copy__(self) -> "Game":
        return self.copy()

    def __deepcopy__(self, memo) -> "Game":
        return self.copy()

    def to_record(self) -> dict:
        """The game as a JSON-able dict: start (decks or scenario), seed, names, every action.

        ``Game.from_record(game.to_record())`` rebuilds this game exactly. Save it as ``.json``.
        The record is a full replay for the teacher: its actions include moves the opponent did
        not see (``train Sensor``, a card picked from a look at the deck), so it is not a view
        to show to a player during the game. The dict is a fresh copy: changing it changes
        nothing in the game.
        """
        rec = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
        rec.update(copy.deepcopy(self._origin))
        rec.update({"seed": self._seed, "names": list(self._names), "turn_limit": self._turn_limit,
                    "actions": [t for _, t in self._history]})
        return rec

    def state_key(self) -> tuple:
        """A hashable summary of the whole position (hidden cards included): equal positions
        give equal keys. Used by tests to check undo and replays."""
        s = self._s
        ps = []
        for p in s.players:
            ps.append((p.tokens, tuple(p.hand), tuple(p.deck), tuple(p.discard), tuple(p.ts), tuple(p.ts_ex),
                       tuple((x.iid, x.exerted, x.flags, x.entered, x.boost, x.boost_turn, x.gpu_turn,
                              x.no_task_turn, x.no_audit_turn, x.lost_until) for x in p.systems + p.tools),
                       tuple(p.resolving), p.trained, p.trained_turn, p.no_task_turn, p.model_card_used))
        return (tuple(ps), s.turn, s.active, s.first, s.phase, s.decision, s.doom, s.over, s.winner,
                s.shuffles, s.extra_trains, s.extra_trains_turn, len(self._log))

    # -- views -----------------------------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        """What ``player`` (0/1) may see: their own hand, the board, counts; never the other
        hand or either deck's order.

        Raises:
            ValueError: player is not 0 or 1.
        """
        player = _check_player(player)
        s = self._s
        P = s.players
        mine = self.to_act == player
        if self._cache is None:
            self._build_cache()
        labels = self._labels(player)
        board = tuple(self._board_card(o, x, labels[x.iid]) for o in (0, 1) for x in P[o].systems + P[o].tools)
        return Observation(
            player=player, to_act=self.to_act, active=s.active, turn=s.turn, over=s.over, winner=s.winner,
            names=self._names, tokens=self.tokens,
            hand=tuple(self._cards[i] for i in P[player].hand),
            hand_sizes=(len(P[0].hand), len(P[1].hand)), deck_sizes=(len(P[0].deck), len(P[1].deck)),
            discards=tuple(tuple(self._cards[i] for i in P[o].discard) for o in (0, 1)),
            data_ready=(self._data(0), self._data(1)), training_set=(len(P[0].ts), len(P[1].ts)),
            systems_count=(len(P[0].systems), len(P[1].systems)), board=board,
            model_card_used=(P[0].model_card_used, P[1].model_card_used),
            pending=self.pending if mine else None,
            legal_actions=tuple(self._cache_list) if mine else (),
        )

    def tables(self, player: int | None = None) -> dict:
        """The position as pandas DataFrames, as ``player`` may see it (default: the player to
        act, or player 0 when the game is over).

        Returns:
            dict with ``players``, ``board``, ``hand``, ``log`` DataFrames (columns in the API).
        """
        from .tables import game_tables

        if player is None:
            player = self.to_act if self.to_act is not None else 0
        return game_tables(self, _check_player(player))

    def _repr_html_(self) -> str:
        """The board as the player to act sees it (see :func:`tokens_edu.tables.game_html`)."""
        from .tables import game_html

        return game_html(self)

    def __repr__(self) -> str:
        s = self._s
        state = ("over: " + (f"{self._names[s.winner]} won" if s.winner is not None else "a draw")) if s.over \
            else f"turn {s.turn}, {self._names[self.to_act]} to act"
        return f"<Game {self._names[0]} {self.tokens[0]} - {self.tokens[1]} {self._names[1]}, {state}>"

    # ============================================================================================
    # Internals: the rules.
    # ============================================================================================
    def _rng(self) -> random.Random:
        """A fresh generator for the next random event; only the seed and a counter matter."""
        self._s.shuffles += 1
        return random.Random(self._seed * 1_000_003 + self._s.shuffles)

    def _shuffle(self, cards: list[int]) -> None:
        self._rng().shuffle(cards)

    def _event(self, turn: int, player: int | None, kind: str, text: str) -> None:
        self._log.append(LogEvent(turn, player, kind, text))

    def _say(self, player: int | None, kind: str, text: str) -> None:
        self._log.append(LogEvent(self._s.turn, player, kind, text))

    # -- small readers used by effects ----------------------------------------------------------
    def _perm(self, iid: int) -> _Perm | None:
        for p in self._s.players:
            for x in p.systems:
                if x.iid == iid:
                    return x
            for x in p.tools:
                if x.iid == iid:
                    return x
        return None

    def _systems(self, p: int) -> list[int]:
        return [x.iid for x in self._s.players[p].systems]

    def _deck(self, p: int) -> list[int]:
        return self._s.players[p].deck

    def _flags(self, iid: int) -> int:
        return self._perm(iid).flags

    def _data(self, p: int) -> int:
        return self._s.players[p].ts_ex.count(False)

    def _lost(self, x: _Perm) -> bool:
        return self._s.turn < x.lost_until

    def _kw(self, x: _Perm, keyword: str) -> bool:
        return keyword in self._cards[x.iid].keywords and not self._s.turn < x.lost_until

    def _cap(self, x: _Perm) -> int:
        return self._cards[x.iid].cap + (x.boost if x.boost_turn == self._s.turn else 0)

    def _can_act(self, owner: int, x: _Perm) -> bool:
        """R12: ready, and in play since the turn began, Fast-Tracked, or enabled by GPU."""
        s = self._s
        if x.exerted or owner != s.active or s.phase != "main":
            return False
        return x.entered != s.turn or x.gpu_turn == s.turn or self._kw(x, "Fast-Tracked")

    def _task_barred(self, owner: int, x: _Perm) -> bool:
        """R19: Manual Override and friends, or Mandatory Recall, bar Tasks this turn."""
        t = self._s.turn
        return x.no_task_turn == t or self._s.players[owner].no_task_turn == t

    def _labels(self, viewer: int) -> dict:
        """iid -> label for every card in play, seen by ``viewer`` (see :meth:`_label`).
        Cached with the legal actions (the position cannot change in between)."""
        if self._cache is not None:
            hit = self._label_cache.get(viewer)
            if hit is not None:
                return hit
        P = self._s.players
        cards = self._cards
        out = {}
        seen: dict[str, int] = {}
        for o in (viewer, 1 - viewer):
            for x in P[o].systems + P[o].tools:
                name = cards[x.iid].name
                k = seen.get(name, 0) + 1
                seen[name] = k
                out[x.iid] = name if k == 1 else f"{name} #{k}"
        if self._cache is not None:
            self._label_cache[viewer] = out
        return out

    def _label(self, iid: int, viewer: int | None = None) -> str:
        """The name of a card in play as action texts write it (``#2`` for a second copy).

        Copies are counted in board order, the viewer's cards first (default: the player to act).
        """
        if viewer is None:
            viewer = self.to_act if self.to_act is not None else self._s.active
        name = self._cards[iid].name
        k = 0
        P = self._s.players
        for o in (viewer, 1 - viewer):
            for x in P[o].systems + P[o].tools:
                if self._cards[x.iid].name == name:
                    k += 1
                    if x.iid == iid:
                        return name if k == 1 else f"{name} #{k}"
        return name

    def _on(self, iid: int, p: int) -> str:
        """A target as a log line names it: "their own Chatbot" or "Bo's Chatbot"."""
        card = self._cards[iid]
        if card.is_action:  # RAM's target, in the discard pile
            return card.name
        return f"their own {card.name}" if self._owner[iid] == p else self._whose(iid)

    def _whose(self, iid: int) -> str:
        return f"{self._names[self._owner[iid]]}'s {self._cards[iid].name}"

    # -- small writers used by effects ----------------------------------------------------------
    def _gain(self, p: int, n: int, why: str = "") -> bool:
        """Add Tokens; the game ends the moment one reaches 15 (R25). Returns True if it ended."""
        s = self._s
        s.players[p].tokens += n
        if why:
            self._say(p, "tokens", f"{why}: {self._names[p]} gains {n} Token{'s' if n != 1 else ''} ({s.players[p].tokens}).")
        if s.players[p].tokens >= WINNING_TOKENS and not s.over:
            s.over, s.winner, s.decision, s.doom = True, p, None, None
            s.phase = "over"
            self._say(p, "win", f"{self._names[p]} reaches {s.players[p].tokens} Tokens and wins!")
            return True
        return False

    def _draw(self, p: int, n: int) -> int:
        """Draw n cards (R24 on an empty deck). Returns how many were drawn."""
        pl = self._s.players[p]
        drawn = 0
        for _ in range(n):
            iid = self._top_card(p)
            if iid is None:
                break
            pl.hand.append(iid)
            drawn += 1
        return drawn

    def _top_card(self, p: int) -> int | None:
        """Take the top card of p's deck; on an empty deck apply R24 first. None if no card."""
        pl = self._s.players[p]
        if not pl.deck:
            if not pl.discard:
                self._say(p, "deck-out", f"{self._names[p]} has no cards left to draw, and their discard pile is empty.")
                return None
            pl.deck = pl.discard
            pl.discard = []
            self._shuffle(pl.deck)
            lost = 1 if pl.tokens > 0 else 0
            pl.tokens -= lost
            self._say(p, "deck-out", f"{self._names[p]} is out of fresh data: the discard pile becomes a new deck"
                      + (" and they lose 1 Token." if lost else " (no Token to lose)."))
        return pl.deck.pop()

    def _deck_to_training_set(self, p: int) -> int | None:
        iid = self._top_card(p)
        if iid is not None:
            pl = self._s.players[p]
            pl.ts.append(iid)
            pl.ts_ex.append(True)  # R8: cards put there by effects enter exerted
            self._say(p, "training-set", f"{self._names[p]} puts the top card of their deck into their Training Set.")
        return iid

    def _look(self, p: int, n: int) -> list[int]:
        """The top n cards of p's deck, top first (fewer if the deck is short; R22)."""
        deck = self._s.players[p].deck
        return deck[-1:-n - 1:-1] if n else []

    def _deck_to_hand(self, p: int, iid: int) -> None:
        pl = self._s.players[p]
        pl.deck.remove(iid)
        pl.hand.append(iid)
        self._say(p, "look", f"{self._names[p]} puts a card from their deck into their hand.")

    def _deck_to_bottom(self, p: int, iid: int) -> None:
        deck = self._s.players[p].deck
        deck.remove(iid)
        deck.insert(0, iid)
        self._say(p, "look", f"{self._names[p]} puts a card on the bottom of their deck.")

    def _set_deck_top(self, p: int, top_first: tuple) -> None:
        deck = self._s.players[p].deck
        n = len(top_first)
        deck[-n:] = list(reversed(top_first))

    def _discard_from_hand(self, p: int, iid: int) -> None:
        pl = self._s.players[p]
        pl.hand.remove(iid)
        pl.discard.append(iid)
        self._say(p, "discard", f"{self._names[p]} discards {self._cards[iid].name}.")

    def _discard_to_deck_top(self, p: int, iid: int) -> None:
        pl = self._s.players[p]
        pl.discard.remove(iid)
        pl.deck.append(iid)
        self._say(p, "use", f"{self._names[p]} puts {self._cards[iid].name} from their discard pile on top of their deck.")

    def _discard_training_set_top(self, p: int) -> None:
        """R21: discard the newest ready Training Set card, else the newest exerted one."""
        pl = self._s.players[p]
        if not pl.ts:
            return
        idx = next((i for i in range(len(pl.ts) - 1, -1, -1) if not pl.ts_ex[i]), len(pl.ts) - 1)
        iid = pl.ts.pop(idx)
        pl.ts_ex.pop(idx)
        pl.discard.append(iid)
        self._say(p, "training-set", f"{self._names[p]} discards the top card of their Training Set ({self._cards[iid].name}).")

    def _add_flags(self, iid: int, n: int) -> None:
        x = self._perm(iid)
        x.flags += n
        self._say(self._owner[iid], "flag", f"{self._whose(iid)} gets {n} Flag{'s' if n != 1 else ''} ({x.flags} of {self._cards[iid].tru}).")
        self._check_deprecation()

    def _remove_flags(self, iid: int, n: int) -> None:
        x = self._perm(iid)
        k = min(n, x.flags)
        x.flags -= k
        if k:
            self._say(self._owner[iid], "flag", f"{k} Flag{'s' if k != 1 else ''} removed from {self._whose(iid)} ({x.flags} left).")

    def _boost(self, iid: int, n: int) -> None:
        x = self._perm(iid)
        if x.boost_turn != self._s.turn:
            x.boost, x.boost_turn = 0, self._s.turn
        x.boost += n
        self._say(self._owner[iid], "boost", f"{self._whose(iid)} gets +{n} Capability this turn (CAP {self._cap(x)}).")

    def _enable_now(self, iid: int) -> None:
        self._perm(iid).gpu_turn = self._s.turn
        self._say(self._owner[iid], "use", f"{self._whose(iid)} can Run a Task or an Audit this turn.")

    def _bar_task_next_turn(self, iid: int) -> None:
        self._perm(iid).no_task_turn = self._s.turn + 1
        owner = self._owner[iid]
        self._say(owner, "bar", f"{self._whose(iid)} can't Run a Task during {self._names[owner]}'s next turn.")

    def _bar_all_tasks_next_turn(self, p: int) -> None:
        self._s.players[p].no_task_turn = self._s.turn + 1
        self._say(p, "bar", f"No System of {self._names[p]}'s can Run a Task during their next turn.")

    def _bar_audits_this_turn(self, iid: int) -> None:
        self._perm(iid).no_audit_turn = self._s.turn
        self._say(self._owner[iid], "bar", f"{self._whose(iid)} can't be Audited this turn.")

    def _lose_abilities(self, iid: int) -> None:
        owner = self._owner[iid]
        s = self._s
        self._perm(iid).lost_until = s.turn + (2 if owner == s.active else 1)
        self._say(owner, "bar", f"{self._whose(iid)} loses all its abilities until {self._names[owner]}'s next turn.")

    def _allow_extra_train(self) -> None:
        s = self._s
        if s.extra_trains_turn != s.turn:
            s.extra_trains, s.extra_trains_turn = 0, s.turn
        s.extra_trains += 1
        self._say(s.active, "train", "Each player may Train one extra card this turn.")

    def _remove_tool(self, iid: int, caster: int) -> None:
        """R20: a Tool goes to its owner's discard; Legacy: the caster draws 1."""
        owner = self._owner[iid]
        pl = self._s.players[owner]
        pl.tools = [t for t in pl.tools if t.iid != iid]
        pl.discard.append(iid)
        card = self._cards[iid]
        self._say(owner, "removed", f"{self._whose(iid)} is discarded.")
        if card.legacy:
            self._say(caster, "legacy", f"{card.name} is Legacy: {self._names[caster]} draws a card.")
            self._draw(caster, 1)

    def _targets(self, p: int, kind: str, from_action: bool) -> list[int]:
        """Instance ids that player p may aim a card of target ``kind`` at (R18, Privacy Shield)."""
        P = self._s.players
        q = 1 - p
        if kind == "opp_system":
            out = [x.iid for x in P[q].systems]
        elif kind in ("any_system", "hot_system"):
            out = [x.iid for x in P[p].systems] + [x.iid for x in P[q].systems]
            if kind == "hot_system":
                out = [i for i in out if self._cap(self._perm(i)) > self._cards[i].tru]
        elif kind == "any_tool":
            return [x.iid for x in P[p].tools] + [x.iid for x in P[q].tools]
        elif kind == "own_new_system":
            return [x.iid for x in P[p].systems if x.entered == self._s.turn]
        elif kind == "own_discard_action":
            return _first_of_each_name(self._cards, [i for i in P[p].discard if self._cards[i].is_action])
        else:
            return []
        if from_action and self._shielded(q):
            out = [i for i in out if self._owner[i] == p]
        return out

    def _shielded(self, p: int) -> bool:
        """Privacy Shield: p controls a Tool that shields their Systems from opponents' Actions."""
        return any(effect_of(self._cards[t.iid].name).shields_systems for t in self._s.players[p].tools)

    # -- choices (R23) ---------------------------------------------------------------------------
    def _ask(self, p: int, prompt: str, options: list, source: str, step: str, data: tuple = (),
             may: bool = False, secret: bool = False) -> None:
        """Ask player p to choose among (label, value) options (R23). With one option and no
        "may", the choice makes itself; with none, nothing happens. ``secret``: the options are
        cards only p may see, so the log does not name the choice."""
        if not options:
            return
        if len(options) == 1 and not may:
            effect_of(source).answers[step](self, p, options[0][1], data)
            return
        self._s.decision = _Decision(p, prompt, tuple(options), source, step, data, secret)

    def _ask_pick(self, p: int, cards: list[int], prompt: str, source: str, step: str, data: tuple) -> None:
        """Pick one of the looked-at ``cards`` (top first). Two copies of a name are different
        picks here (they leave the other cards in a different order), so the second is ``#2``."""
        seen: dict[str, int] = {}
        options = []
        for i in cards:
            name = self._cards[i].name
            seen[name] = seen.get(name, 0) + 1
            options.append((name if seen[name] == 1 else f"{name} #{seen[name]}", i))
        self._ask(p, prompt, options, source, step, data, secret=True)

    def _ask_discard(self, p: int, source: str) -> None:
        hand = self._s.players[p].hand
        options = [(self._cards[i].name, i) for i in _first_of_each_name(self._cards, hand)]
        self._ask(p, f"{source}: pick a card from your hand to discard", options, source, "discard")

    # -- Deprecation (R15, R16) -----------------------------------------------------------------
    def _check_deprecation(self) -> None:
        """Collect Systems whose Flags reached Trust; they leave together (R15)."""
        s = self._s
        doomed = []
        for o in (s.active, 1 - s.active):
            for x in s.players[o].systems:
                if x.flags >= self._cards[x.iid].tru:
                    doomed.append(x.iid)
        if doomed:
            s.doom = (tuple(doomed), ())
            self._settle_doom()

    def _settle_doom(self) -> None:
        s = self._s
        doomed, asked = s.doom
        for iid in doomed:
            owner = self._owner[iid]
            x = self._perm(iid)
            if x is None or x.flags < self._cards[iid].tru or iid in asked:
                continue
            pl = s.players[owner]
            if not pl.model_card_used and any(effect_of(self._cards[t.iid].name).saves_from_deprecation for t in pl.tools):
                s.doom = (doomed, asked + (iid,))
                s.decision = _Decision(owner, f"Model Card: {self._label(iid, owner)} would be Deprecated. "
                                       "Remove all its Flags instead (once per game)?",
                                       (("yes", True), ("no", False)), "_model_card", "", (iid,))
                return
        s.doom = None
        leaving = []
        for iid in doomed:
            x = self._perm(iid)
            if x is not None and x.flags >= self._cards[iid].tru:
                leaving.append((iid, self._lost(x)))
        for iid, _ in leaving:  # they leave together
            pl = s.players[self._owner[iid]]
            pl.systems = [x for x in pl.systems if x.iid != iid]
            pl.discard.append(iid)
            self._say(self._owner[iid], "deprecated", f"{self._whose(iid)} is Deprecated.")
        for iid, lost in leaving:  # then triggers, active player first (R15)
            trig = effect_of(self._cards[iid].name).on_deprecated
            if trig is not None and not lost:
                trig(self, self._owner[iid], iid)
                if s.over:
                    return

    def _answer_model_card(self, p: int, yes: bool, data: tuple) -> None:
        iid = data[0]
        if yes:
            x = self._perm(iid)
            x.flags = 0
            self._s.players[p].model_card_used = True
            self._say(p, "model-card", f"Model Card: {self._whose(iid)} keeps going; all its Flags are removed.")
        self._settle_doom()

    # -- the turn ---------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        """R5 Reboot, R6 Draw, then the main phase (R7)."""
        s = self._s
        pl = s.players[s.active]
        for x in pl.systems:
            x.exerted = False
        for x in pl.tools:
            x.exerted = False
        pl.ts_ex = [False] * len(pl.ts)
        self._say(s.active, "turn", f"Turn {s.turn}: {self._names[s.active]}'s turn.")
        if s.turn > 1:  # R6: the first player skips the draw on the very first turn
            self._draw(s.active, 1)
        s.phase = "main"

    def _end_turn(self) -> None:
        s = self._s
        self._say(s.active, "end", f"{self._names[s.active]} ends the turn.")
        if self._turn_limit is not None and s.turn >= self._turn_limit:
            s.over, s.winner, s.phase = True, None, "over"
            self._say(None, "draw", f"The turn limit ({self._turn_limit}) is reached: the game is a draw.")
            return
        s.active = 1 - s.active
        s.turn += 1
        self._start_turn()

    def _pay(self, p: int, n: int) -> None:
        """R9: exert n ready Training Set cards (oldest first)."""
        ex = self._s.players[p].ts_ex
        i = 0
        while n:
            if not ex[i]:
                ex[i] = True
                n -= 1
            i += 1

    def _cost(self, p: int, card: Card) -> int:
        """R10: printed cost, plus the deploy tax for a 3rd, 4th... System."""
        if card.is_system:
            return card.cost + max(0, len(self._s.players[p].systems) - 1)
        return card.cost

    def _big_data_payers(self, p: int, card: Card) -> list[_Perm]:
        """R11: own ready Systems with printed Cost >= N that could act now."""
        n = card.big_data
        return [x for x in self._s.players[p].systems
                if self._cards[x.iid].cost >= n and self._can_act(p, x)]

    # -- applying a move ------------------------------------------------------------------------
    def _do(self, move: tuple) -> None:
        self._do_move(move)
        s = self._s
        if s.decision is None and s.doom is None:  # R18: a resolved Action goes to the discard pile
            for pl in s.players:
                if pl.resolving:
                    pl.discard.extend(pl.resolving)
                    pl.resolving.clear()

    def _do_move(self, move: tuple) -> None:
        kind = move[0]
        s = self._s
        p = self.to_act
        if kind == "choose":
            d = s.decision
            s.decision = None
            value = move[1]
            if d.source == "_order":
                self._answer_order(d.player, value)
            elif d.source == "_mulligan":
                self._answer_mulligan(d.player, value)
            elif d.source == "_model_card":
                self._answer_model_card(d.player, value, d.data)
            else:
                if d.secret:
                    self._say(d.player, "choose", f"{self._names[d.player]} makes a secret choice.")
                else:
                    label = next(lbl for lbl, v in d.options if v == value)
                    self._say(d.player, "choose", f"{self._names[d.player]} chooses {label}.")
                effect_of(d.source).answers[d.step](self, d.player, value, d.data)
            if s.doom is not None and s.decision is None and not s.over:
                self._settle_doom()
            return
        if kind == "end":
            self._end_turn()
            return
        pl = s.players[p]
        if kind == "train":
            iid = move[1]
            pl.hand.remove(iid)
            pl.ts.append(iid)
            pl.ts_ex.append(False)
            if pl.trained_turn != s.turn:
                pl.trained, pl.trained_turn = 0, s.turn
            pl.trained += 1
            self._say(p, "train", f"{self._names[p]} trains a card (Training Set: {len(pl.ts)}).")
        elif kind == "deploy":
            self._deploy(p, move[1], move[2], move[3])
        elif kind == "task":
            x = self._perm(move[1])
            x.exerted = True
            card = self._cards[x.iid]
            self._say(p, "task", f"{self._whose(x.iid)} runs a Task: +{card.tokens} Tokens ({pl.tokens + card.tokens}).")
            if self._gain(p, card.tokens):
                return
            trig = effect_of(card.name).on_task
            if trig is not None and not self._lost(x):
                trig(self, p, x.iid)
        elif kind == "audit":
            self._audit(p, self._perm(move[1]), self._perm(move[2]))
        elif kind == "use":
            x = self._perm(move[1])
            x.exerted = True
            card = self._cards[x.iid]
            tail = "" if move[2] is None else f" on {self._on(move[2], p)}"
            self._say(p, "use", f"{self._names[p]} uses {card.name}{tail}.")
            effect_of(card.name).resolve(self, p, x.iid, move[2])

    def _deploy(self, p: int, iid: int, target: int | None, payer: int | None) -> None:
        s = self._s
        pl = s.players[p]
        card = self._cards[iid]
        if payer is not None:
            self._perm(payer).exerted = True
            paid = f"with Big Data ({self._cards[payer].name} turns sideways)"
        else:
            cost = self._cost(p, card)
            self._pay(p, cost)
            paid = f"for {cost} Data"
        pl.hand.remove(iid)
        tail = "" if target is None else f" on {self._on(target, p)}"
        self._say(p, "deploy", f"{self._names[p]} deploys {card.name}{tail} {paid}.")
        if card.is_system:
            pl.systems.append(_Perm(iid, s.turn))
        elif card.is_tool:
            pl.tools.append(_Perm(iid, s.turn))
        else:  # R18: resolve, then to the discard pile (see _do)
            pl.resolving.append(iid)
            resolve = effect_of(card.name).resolve
            if resolve is not None:
                resolve(self, p, iid, target)

    def _audit(self, p: int, a: _Perm, t: _Perm) -> None:
        """R14: both deal Flags equal to current CAP at once; Adversarial hits back +1."""
        a.exerted = True
        dealt, back = self._cap(a), self._cap(t) + (1 if self._kw(t, "Adversarial") else 0)
        t.flags += dealt
        a.flags += back
        self._say(p, "audit", f"{self._whose(a.iid)} audits {self._whose(t.iid)}: {dealt} Flag{'s' if dealt != 1 else ''} to {back}.")
        self._check_deprecation()

    def _answer_order(self, p: int, value: int) -> None:
        s = self._s
        s.first = p if value == 0 else 1 - p
        self._event(0, p, "order", f"{self._names[p]} chooses to go {'first' if value == 0 else 'second'}.")
        for who, n in ((s.first, FIRST_HAND), (1 - s.first, SECOND_HAND)):
            self._draw_setup(who, n)
        s.phase = "mulligan"
        self._ask_mulligan(s.first)

    def _draw_setup(self, p: int, n: int) -> None:
        pl = self._s.players[p]
        for _ in range(min(n, len(pl.deck))):
            pl.hand.append(pl.deck.pop())

    def _ask_mulligan(self, p: int) -> None:
        self._s.decision = _Decision(p, f"{self._names[p]}: keep this hand, or shuffle it back and draw a new one?",
                                     (("keep", False), ("mulligan", True)), "_mulligan", "", ())

    def _answer_mulligan(self, p: int, again: bool) -> None:
        s = self._s
        pl = s.players[p]
        if again:
            n = len(pl.hand)
            pl.deck.extend(pl.hand)
            pl.hand = []
            self._shuffle(pl.deck)
            self._draw_setup(p, n)
        self._event(0, p, "mulligan" if again else "keep",
                    f"{self._names[p]} {'shuffles their hand back and draws a new one' if again else 'keeps their hand'}.")
        if p == s.first:
            self._ask_mulligan(1 - p)
        else:
            s.active, s.turn = s.first, 1
            self._start_turn()

    # -- legal actions ---------------------------------------------------------------------------
    def _build_cache(self) -> None:
        """Compute the legal actions once per position: Action -> (Action, move)."""
        self._label_cache = {}
        self._cache = {}  # labels may be cached while the actions are built
        out: list[tuple[Action, tuple]] = []
        try:
            self._collect_actions(out)
        except BaseException:
            self._cache = None
            raise
        self._cache_list = [a for a, _ in out]
        self._cache_moves = [m for _, m in out]
        self._cache = _LazyDict(out)
        self._texts = None

    def _collect_actions(self, out: list) -> None:
        s = self._s
        if s.over:
            pass
        elif s.decision is not None:
            d = s.decision
            for label, value in d.options:
                if d.source == "_order":
                    out.append((Action("order", choice=label), ("choose", value)))
                elif d.source == "_mulligan":
                    out.append((Action(label), ("choose", value)))
                else:
                    is_card = not (label in ("yes", "no", "top", "bottom") or label.startswith(("mode ", "order "))
                                   or label.endswith((" Flag", " Flags")))
                    out.append((Action("choose", card=label if is_card else None, choice=label), ("choose", value)))
        else:
            self._main_actions(out)

    def _lookup_text(self, text: str):
        """The legal (Action, move) that ``text`` means, or None. Accepts the shortcuts that
        :meth:`Action.parse` reads (``end`` for ``end turn``)."""
        if len(text) > 200:
            return None
        texts = self._text_cache()
        hit = texts.get(normalize(text))
        if hit is None:
            try:
                hit = texts.get(normalize(str(Action.parse(text))))
            except IllegalAction:
                return None
        return hit

    def _text_cache(self) -> dict:
        """Legal actions by normalized text (built only when a text is applied or explained)."""
        if self._cache is None:
            self._build_cache()
        if self._texts is None:
            self._texts = {normalize(str(a)): hit for a, hit in self._cache.items()}
        return self._texts

    def _main_actions(self, out: list) -> None:
        s = self._s
        p = s.active
        q = 1 - p
        pl = s.players[p]
        cards = self._cards
        data = pl.ts_ex.count(False)
        hand = _first_of_each_name(cards, pl.hand)
        label = self._labels(p)
        # R8 Train
        allowed = 1 + (s.extra_trains if s.extra_trains_turn == s.turn else 0)
        if (pl.trained if pl.trained_turn == s.turn else 0) < allowed:
            for iid in hand:
                if cards[iid].trainable:
                    out.append((Action("train", card=cards[iid].name), ("train", iid)))
        # R9-R11, R18 Deploy
        nsys = len(pl.systems)
        for iid in hand:
            card = cards[iid]
            if card.is_system:
                if card.cost + (nsys - 1 if nsys > 1 else 0) <= data:
                    out.append((Action("deploy", card=card.name), ("deploy", iid, None, None)))
                continue
            payers = [None] if card.cost <= data else []
            if card.big_data is not None:
                payers += [x.iid for x in self._big_data_payers(p, card)]
            if not payers:
                continue
            eff = effect_of(card.name)
            # R17: deploying a Tool only pays its cost (its target is chosen when it is used);
            # R18: an Action that needs a target needs a legal one to be deployed.
            targets = [None] if eff.target is None or card.is_tool else self._targets(p, eff.target, from_action=True)
            for t in targets:
                tl = None if t is None else (label[t] if eff.target != "own_discard_action" else cards[t].name)
                for pay in payers:
                    out.append((Action("deploy", card=card.name, target=tl,
                                       via=None if pay is None else label[pay]), ("deploy", iid, t, pay)))
        # R13 Task, R14 Audit
        actors = [x for x in pl.systems if self._can_act(p, x)]
        for x in actors:
            if not self._task_barred(p, x):
                out.append((Action("task", card=label[x.iid]), ("task", x.iid)))
        if actors:
            targets = [t for t in s.players[q].systems if t.exerted and t.no_audit_turn != s.turn]
            for x in actors:
                for t in targets:
                    if self._kw(t, "Highly Trusted") and cards[x.iid].tru < cards[t.iid].tru:
                        continue
                    out.append((Action("audit", card=label[x.iid], target=label[t.iid]),
                                ("audit", x.iid, t.iid)))
        # R17 Use
        for x in pl.tools:
            if x.exerted:
                continue
            eff = effect_of(cards[x.iid].name)
            if not eff.usable or eff.resolve is None:
                continue
            if eff.target is None:
                out.append((Action("use", card=label[x.iid]), ("use", x.iid, None)))
            else:
                for t in self._targets(p, eff.target, from_action=False):
                    tl = cards[t].name if eff.target == "own_discard_action" else label[t]
                    out.append((Action("use", card=label[x.iid], target=tl), ("use", x.iid, t)))
        out.append((Action("end"), ("end",)))

    # -- explanations ------------------------------------------------------------------------------
    def _illegal(self, text) -> IllegalAction:
        from .explain import why_illegal

        return why_illegal(self, text)

    # -- views helpers ------------------------------------------------------------------------------
    def _board_card(self, owner: int, x: _Perm, label: str) -> BoardCard:
        card = self._cards[x.iid]
        s = self._s
        t = s.turn
        if card.type != "System":
            return BoardCard(owner, label, card, None, None, x.flags, x.exerted, False,
                             x.entered == t and owner == s.active, False, x.no_audit_turn == t, t < x.lost_until)
        if owner == s.active:
            no_task = x.no_task_turn == t or s.players[owner].no_task_turn == t
        else:  # what will bar it during its controller's coming turn
            no_task = x.no_task_turn == t + 1 or s.players[owner].no_task_turn == t + 1
        return BoardCard(owner, label, card, self._cap(x), card.tru, x.flags, x.exerted, self._can_act(owner, x),
                         x.entered == t and owner == s.active, no_task, x.no_audit_turn == t, t < x.lost_until)


# -- helpers --------------------------------------------------------------------------------------
class _LazyDict:
    """Action -> (Action, move), hashed only when first asked (most lookups go by identity)."""

    __slots__ = ("_pairs", "_dict")

    def __init__(self, pairs: list):
        self._pairs = pairs
        self._dict = None

    def _d(self) -> dict:
        if self._dict is None:
            self._dict = {a: (a, m) for a, m in self._pairs}
        return self._dict

    def get(self, key, default=None):
        return self._d().get(key, default)

    def items(self):
        return self._d().items()


def _first_of_each_name(cards: list[Card], iids: list[int]) -> list[int]:
    seen = set()
    out = []
    for i in iids:
        n = cards[i].name
        if n not in seen:
            seen.add(n)
            out.append(i)
    return out


def _is_names(d) -> bool:
    return isinstance(d, (list, tuple)) or (isinstance(d, str))


def _check_names(names) -> tuple[str, str]:
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) != 2:
        raise ScenarioError("names must be two names, like ('Ada', 'Bo').")
    out = []
    for n in names:
        if not isinstance(n, str) or not n.strip() or len(n) > 40:
            raise ScenarioError("Each player's name must be some text of 1 to 40 characters.")
        out.append(" ".join(n.split()))
    if out[0] == out[1]:
        raise ScenarioError(f"The two players need different names (both are '{out[0]}').")
    return (out[0], out[1])


def _check_seed(seed) -> int:
    if seed is None:
        return int.from_bytes(os.urandom(4), "big")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -(2 ** 63) <= seed < 2 ** 63:
        raise ScenarioError(f"The seed must be a whole number, not {seed!r:.40}.")
    return seed


def _check_turn_limit(limit) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100_000:
        raise ScenarioError(f"turn_limit must be a whole number from 1 to 100000, or None (not {limit!r:.40}).")
    return limit


def _check_player(player) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"A player is 0 or 1, not {player!r:.40}.")
    return int(player)
