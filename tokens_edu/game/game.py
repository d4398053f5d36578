"""The game: :class:`Game`, the friendly face of the rules engine (:mod:`tokens_edu.engine`).

A ``Game`` holds a position of Tokens TCG Quick Play (printed rules plus rulings R1-R25) and
the history that led there, and changes only through :meth:`Game.apply` and :meth:`Game.undo`
(or their fast twins :meth:`Game.push` and :meth:`Game.pop`, which take the engine's int moves).
Everything a player may do is an :class:`~tokens_edu.Action` from :meth:`Game.legal_actions`,
including set-up decisions (R2, R3) and choices inside card effects (R23). Randomness (the die,
shuffles) comes only from the game's seed, so the same seed and the same actions always give
the same game, and :meth:`Game.from_record` rebuilds it exactly.

The work is split so each part can be read alone: the engine keeps the position, the moves and
the rules (no text); :mod:`~tokens_edu.game.notation` makes each int move an :class:`Action`
(the one move value: it carries the int, so :meth:`Game.apply` finds it without text);
:mod:`~tokens_edu.game.narrate` words the log and prompts; :mod:`~tokens_edu.game.explain` says
why a move is not legal; :mod:`~tokens_edu.game.observe` decides what each reader may see. Actions, labels and sentences are
made only when somebody reads them, which is what lets computer players play thousands of
games a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import engine
from ..content.cards import Card
from ..content.decks import Deck, deck_problems_text
from ..engine.core import MOVE_BITS, GameCore
from ..engine.events import CHOOSE_SECRET, KIND
from ..engine.rules import WINNING_TOKENS
from ..errors import DeckError, IllegalAction, RecordError, ScenarioError
from .actions import Action
from .explain import why_illegal
from .imagine import imagined_state
from .narrate import LogEvent, log_events, prompt, public_prompt
from .notation import action_of, actions_of, labels
from .observe import BoardCard, Observation, PlayerView, observe
from .records import make_record, read_record
from .scenario import build_scenario, check_names, check_seed, check_turn_limit

__all__ = ["Game", "LogEvent", "Observation", "BoardCard", "PlayerView", "WINNING_TOKENS"]


def _fail(message: str, action: str = "", rule: str | None = None) -> IllegalAction:
    return IllegalAction(message, action=action, rule=rule)


class Game(GameCore):
    """A game of Tokens TCG Quick Play between two players (index 0 and 1).

    Make one with :meth:`new` (two decks), :meth:`from_scenario` (any position) or
    :meth:`from_record` (a saved game). Change it only with :meth:`apply` and :meth:`undo`
    (or :meth:`push` and :meth:`pop` with int moves from :meth:`legal_moves`).

    Attributes (read-only):
        to_act: the player (0/1) whose decision it is now; may be the player whose turn it is
            not (Model Card, R16). None when the game is over.
        active: whose turn it is. turn: the turn number (1-based; 0 during setup).
        over, winner: whether the game has ended, and who won (0, 1 or None for a draw).
        tokens: (int, int). names: (str, str). pending: what the player to act must choose, or
            None in the main phase. log: tuple of :class:`LogEvent`. seed: the seed (int).
    """

    #: (the legal actions of now, {Action.key(): index}): how :meth:`legal_action` finds a
    #: value given by its fields or text, made once per position (a new list of legal actions
    #: is a new position)
    _by_key: tuple | None = None

    def __init__(self):  # use Game.new / from_scenario / from_record
        raise TypeError("Make a game with Game.new(deck0, deck1), Game.from_scenario(...) or Game.from_record(...).")

    @classmethod
    def _wrap(cls, state: engine.State, names: tuple[str, str], origin: dict, title: str | None = None) -> "Game":
        # The position, its history, the legal moves and the views are GameCore's (the part
        # compiled with the engine); a Game adds the players' names, the title and the start.
        g = cls.__new__(cls)
        GameCore.__init__(g, state)
        g._names = names
        g._title = title
        g._origin = origin
        state.trail.clear()  # nothing before the start can be undone
        return g

    # -- making games ------------------------------------------------------------------------
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
        names = check_names(names)
        seed = check_seed(seed)
        turn_limit = check_turn_limit(turn_limit)
        cards = list(decks[0]) + list(decks[1])
        owners = [0] * len(decks[0]) + [1] * len(decks[1])
        s = engine.new_state(cards, owners, seed, turn_limit)
        engine.deal_new(s)  # the decks in card order, then shuffles and the roll (R2)
        return cls._wrap(s, names, {"decks": decks})

    @classmethod
    def from_scenario(cls, scenario) -> "Game":
        """A game set up at any position, from a scenario dict or a YAML file path.

        The format is in the project's API (``title, seed, active, turn, players: [...]``); the
        game starts in the main phase of ``turn`` for ``active``.

        Raises:
            ScenarioError: the file or an entry is bad (names the entry and the problem): a card
                that does not exist, 3 copies, Flags at or over Trust, a wrong type...
        """
        start = build_scenario(scenario)
        return cls._wrap(start.state, start.names, {"scenario": start.origin}, start.title)

    @classmethod
    def from_record(cls, record) -> "Game":
        """Rebuild a game from :meth:`to_record` output (a dict, or a path to its ``.json``).

        Replays every action, so the result equals the recorded game, history and all.

        Raises:
            RecordError: (a :class:`ScenarioError`) the record is not a game record, or one of
                its actions is not legal where it stands (names the move number).
        """
        record, actions = read_record(record)
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
    def tokens(self) -> tuple[int, int]:
        """Both players' Tokens."""
        t = self._s.tokens
        return (t[0], t[1])

    @property
    def names(self) -> tuple[str, str]:
        """Both players' names."""
        return self._names

    @property
    def seed(self) -> int:
        """The seed of every die roll and shuffle of this game."""
        return self._s.seed

    @property
    def title(self) -> str | None:
        """The scenario's title (shown to students), or None for a game from ``new``."""
        return self._title

    @property
    def turn_limit(self) -> int | None:
        """The turn limit (R25), or None."""
        return self._s.turn_limit

    @property
    def first_player(self) -> int:
        """Who took (or takes) the first turn (0/1)."""
        return self._s.first

    @property
    def phase(self) -> str:
        """``"order"`` (R2), ``"mulligan"`` (R3), ``"main"`` (R7) or ``"over"``."""
        return "over" if self._s.over else self._s.phase

    @property
    def pending(self) -> str | None:
        """What the player to act must decide, as they read it (it may name cards only they may
        see, R22), or None in the main phase. For other readers use ``observation(p).pending_public``."""
        d = self._s.decision
        return None if d is None or self._s.over else prompt(self._s, self._names, d)

    @property
    def log(self) -> tuple[LogEvent, ...]:
        """The events so far, oldest first (each a :class:`LogEvent`)."""
        # The sentences are kept once made, end to end in one string with where each ends; a
        # LogEvent is rebuilt from its event (turn, player and kind are the event's own).
        events = self._s.events
        ends = self._log_ends
        done = len(ends)
        if done < len(events):
            texts = [e.text for e in log_events(self._s, self._names, events[done:], self._title)]
            end = ends[-1] if done else 0
            for text in texts:
                end += len(text)
                ends.append(end)
            self._log += "".join(texts)
        kind, log, out, start = KIND, self._log, [], 0
        for e, end in zip(events, ends):
            out.append(LogEvent(e[1], e[2], kind[e[0]], log[start:end]))
            start = end
        return tuple(out)

    def log_for(self, player: int) -> tuple[LogEvent, ...]:
        """The log as ``player`` (0/1) reads it: like :attr:`log`, but their own secret choices
        read "You make a secret choice." (what they chose is still never named).

        Raises:
            ValueError: player is not 0 or 1.
        """
        player = _check_player(player)
        events = self._s.events
        if not any(e[0] == CHOOSE_SECRET and e[2] == player for e in events):
            return self.log
        return tuple(log_events(self._s, self._names, events, self._title, player))

    @property
    def move_stack(self) -> tuple[Action, ...]:
        """Every move played so far, oldest first, as the :class:`Action` values the game made
        (each with its engine ``move``, its ``player`` and ``secret``), as python-chess's
        ``Board.move_stack``. The full record (a trained card is named): what another player
        may read of it is the observer's (:meth:`tokens_edu.game.observe.Observer.move_list`)."""
        return tuple(self._played())

    @property
    def history(self) -> tuple[str, ...]:
        """The texts of the moves played so far, in order (for showing and records; the moves
        themselves are :attr:`move_stack`)."""
        return tuple(str(a) for a in self._played())

    @property
    def moves(self) -> tuple[tuple[int, str], ...]:
        """Who took each action so far and its text: ``((player, text), ...)``, in order.

        The texts are the full record (a trained card is named): show another player's moves
        to a student only through the observer (:mod:`tokens_edu.game.observe`).
        """
        return tuple((a.player, str(a)) for a in self._played())

    def card_of(self, card_id: int) -> Card:
        """The Card of card instance ``card_id`` (the engine's numbering, used in int moves)."""
        return self._s.card[card_id]

    # -- actions --------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the player :attr:`to_act` may take now, in a stable order.

        Order: setup decisions or choices; otherwise train, deploy, task, audit, use, end turn,
        each in hand or board order. Hand cards of the same name appear once.

        Returns:
            list of :class:`Action` (empty when the game is over).
        """
        if self._actions is None:
            self._actions = actions_of(self._s, self.legal_moves())
        return list(self._actions)

    def action(self, move: int) -> Action:
        """The :class:`Action` of ``move``, one of :meth:`legal_moves` (it carries ``move``).

        Raises:
            IllegalAction: ``move`` is not a legal move now.
        """
        i = self._index_of_move(move)
        if self._actions is not None:
            return self._actions[i]
        return action_of(self._s, move)

    def legal_action(self, action: Action | str) -> Action | None:
        """The legal :class:`Action` (the game's own value, carrying its engine move) that
        ``action`` means now, or None when it means none.

        ``action`` is an Action (found by its ``move`` when that is still the same move here,
        else by :meth:`Action.key`: its fields in any case and spacing) or, at the edge where
        people type, its text (read with :meth:`Action.parse`).
        """
        if isinstance(action, str):
            if len(action) > 200:
                return None
            try:
                action = Action.parse(action)
            except IllegalAction:
                return None
        elif not isinstance(action, Action) or _odd(action):
            return None
        moves = self.legal_moves()
        m = action.move
        if m >= 0 and m in moves:  # the value names its engine move: is it still that move here?
            legal = self._actions[moves.index(m)] if self._actions is not None else action_of(self._s, m)
            if legal is action or legal == action:
                return legal
        keys = self._by_key
        if keys is None or keys[0] is not self._actions:  # made once per position
            self.legal_actions()
            actions = self._actions
            keys = self._by_key = (actions, {a.key(): i for i, a in enumerate(actions)})
        i = keys[1].get(action.key())
        return None if i is None else keys[0][i]

    def _lookup(self, action) -> int:
        """The index in :meth:`legal_moves` of ``action`` (an Action or its text), or -1."""
        legal = self.legal_action(action)
        return -1 if legal is None else self.legal_moves().index(legal.move)

    def apply(self, action: Action | str) -> "Game":
        """Take an action for the player to act: an :class:`Action` (the value
        :meth:`legal_actions` and the bots give, or one built from its fields) or, where people
        type, its text (any case).

        Returns:
            the game itself (so calls can be chained).

        Raises:
            IllegalAction: the action is not legal now; the message says why in plain words and
                ``.rule`` names the ruling ("R14"). The game is left exactly as it was.
        """
        legal = self.legal_action(action)
        if legal is None:
            if isinstance(action, Action):
                try:
                    text = str(action)
                except Exception:  # an Action built by hand with odd fields
                    raise _fail("That action is not one the game can read.", "Action") from None
            elif isinstance(action, str):
                text = action
            else:
                raise _fail(f"An action must be text like 'end turn' or an Action, not {type(action).__name__}.",
                            type(action).__name__)
            raise why_illegal(self._s, self._names, self.legal_actions(), text)
        self._push(legal.move, None)
        # the move's Action is kept by its number, where GameCore keeps what it knows of each
        # move played and forgets it when the move is taken back (pop)
        self._texts[len(self._history) - 1] = legal
        return self

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start).

        Returns:
            the Action that was taken back (with its engine ``move`` and ``player``).

        Raises:
            IllegalAction: there is nothing to undo.
        """
        played = self._texts.get(len(self._history) - 1)
        move = self.pop()
        return played if isinstance(played, Action) else self.action(move)

    def explain(self, action: Action | str) -> str:
        """Why an action is or is not legal now, in a student's words. Never raises.

        Returns:
            "'task Chatbot' is legal now." or the reason it is not (naming the rule).
        """
        try:
            legal = self.legal_action(action)
            if legal is not None:
                return f"'{legal}' is legal now."
            text = str(action) if isinstance(action, Action) else action
            return str(why_illegal(self._s, self._names, self.legal_actions(), text))
        except Exception as e:  # explain is for students: it must not crash
            return f"That can't be done now: {e}"

    def imagine(self, player: int, rng) -> "Game":
        """A copy for thinking ahead, in which everything ``player`` may not see is imagined
        anew: the opponent's hand, deck and face-down Training Set are dealt again at random
        from the same cards (same sizes, same ready/sideways Training Set), ``player``'s own
        deck is shuffled, and future shuffles get a new seed. What ``player`` sees (their hand,
        the board, discard piles, every count) is unchanged, so a computer player that thinks
        with imagined games never uses the true hidden cards' places. (What a look effect
        showed ``player`` about their own deck is not kept, except the cards of their own look
        in progress, which stay on top, in order.) Each pile is put in order by name before it
        is shuffled, so the imagined game depends only on ``rng`` and what ``player`` sees,
        never on where the true hidden cards lie.

        The copy has no history to undo and no record; use it to play forward with
        :meth:`push` (and :meth:`pop` back to where it started).

        Args:
            player: 0 or 1, whose knowledge the copy keeps.
            rng: a ``random.Random`` (the only source of the imagining, so a seeded one repeats).

        Raises:
            ValueError: player is not 0 or 1.
        """
        s = imagined_state(self._s, _check_player(player), rng)
        g = Game.__new__(Game)
        GameCore.__init__(g, s)
        g._names, g._title, g._origin = self._names, self._title, {"imagined": True}
        return g

    def copy(self) -> "Game":
        """An independent copy with the same position and history (undo works on both)."""
        g = Game.__new__(Game)
        GameCore.__init__(g, self._s.copy())
        g._names, g._title, g._origin = self._names, self._title, self._origin
        g._set_history(self._history[:])
        g._texts = dict(self._texts)
        g._log, g._log_ends = self._log, self._log_ends[:]
        return g

    def __copy__(self) -> "Game":
        return self.copy()

    def __deepcopy__(self, memo) -> "Game":
        return self.copy()

    def _played(self) -> list[Action]:
        """Every move played, as its Action: kept when it was applied (:meth:`apply`), else
        (played as an int with :meth:`push`) made by walking back on a copy to the position it
        was played in, and kept."""
        known, n = self._texts, len(self._history)
        played = [known.get(i) for i in range(n)]
        if None in played:
            first = played.index(None)
            s = self._s.copy()
            mask = (1 << MOVE_BITS) - 1
            for i in range(n - 1, first - 1, -1):
                s.undo_move()  # back to the position move i was played in
                if played[i] is None:
                    played[i] = known[i] = action_of(s, self._history[i] & mask)
        return played

    def to_record(self) -> dict:
        """The game as a JSON-able dict: start (decks or scenario), seed, names, every action.

        ``Game.from_record(game.to_record())`` rebuilds this game exactly. Save it as ``.json``.
        The record is a full replay for the teacher: its actions include moves the opponent did
        not see (``train Sensor``, a card picked from a look at the deck), so it is not a view
        to show to a player during the game. The dict is a fresh copy: changing it changes
        nothing in the game.
        """
        return make_record(self._origin, self._s.seed, self._names, self._s.turn_limit,
                           [str(a) for a in self._played()])

    def state_key(self) -> tuple:
        """A hashable summary of the whole position (hidden cards included): equal positions
        give equal keys. Used by tests to check undo and replays."""
        s = self._s
        return (tuple(tuple(lst) for lst in s.lists), s.turn, s.active, s.first, s.phase, s.decision, s.doom,
                s.over, s.winner, s.shuffles, s.extra_trains, s.extra_trains_turn, len(s.events))

    # -- views -----------------------------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        """What ``player`` (0/1) may see: their own hand, the board, counts; never the other
        hand or either deck's order. (Views ask a reader's
        :class:`~tokens_edu.game.observe.Observer`, which builds it here.)

        Raises:
            ValueError: player is not 0 or 1.
        """
        player = _check_player(player)
        s = self._s
        mine = self.to_act == player
        d = s.decision
        deciding = d is not None and not s.over
        return observe(s, player, self._names, labels(s, player),
                       prompt(s, self._names, d) if mine and deciding else None,
                       self.legal_actions() if mine else (),
                       public_prompt(s, self._names, d) if deciding else None)

    def tables(self, player: int | None = None) -> dict:
        """The position as pandas DataFrames, as ``player`` may see it (default: the player to
        act, or player 0 when the game is over).

        Returns:
            dict with ``players``, ``board``, ``hand``, ``log`` DataFrames (columns in the API).
        """
        # here, not at the top: the tables module loads pandas, only when a table is asked for
        from .tables import game_tables

        if player is None:
            player = self.to_act if self.to_act is not None else 0
        return game_tables(self, _check_player(player))

    def _repr_html_(self) -> str:
        """The board as the player to act sees it (see :func:`tokens_edu.game.tables.game_html`)."""
        # the tables module loads pandas: only when a notebook shows a game
        from .tables import game_html

        return game_html(self)

    def __repr__(self) -> str:
        s = self._s
        state = ("over: " + (f"{self._names[s.winner]} won" if s.winner is not None else "a draw")) if s.over \
            else f"turn {s.turn}, {self._names[self.to_act]} to act"
        return f"<Game {self._names[0]} {s.tokens[0]} - {s.tokens[1]} {self._names[1]}, {state}>"


# -- helpers --------------------------------------------------------------------------------------
def _odd(action: Action) -> bool:
    """An Action built by hand whose fields are not all text (it cannot be hashed or matched)."""
    return any(v is not None and not isinstance(v, str)
               for v in (action.kind, action.card, action.target, action.via, action.choice))


def _is_names(d) -> bool:
    return isinstance(d, (list, tuple)) or (isinstance(d, str))


def _check_player(player) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"A player is 0 or 1, not {player!r:.40}.")
    return int(player)
