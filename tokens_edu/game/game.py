"""The game: :class:`Game`, the friendly face of the rules engine (:mod:`tokens_edu.engine`).

A ``Game`` holds a position of Tokens TCG Quick Play (printed rules plus rulings R1-R25) and
the history that led there, and changes only through :meth:`Game.apply` and :meth:`Game.undo`
(or their fast twins :meth:`Game.push` and :meth:`Game.pop`, which take the engine's int moves).
Everything a player may do is an :class:`~tokens_edu.Action` from :meth:`Game.legal_actions`,
including set-up decisions (R2, R3) and choices inside card effects (R23). Randomness (the die,
shuffles) comes only from the game's seed, so the same seed and the same actions always give
the same game, and :meth:`Game.from_record` rebuilds it exactly.

The work is split so each part can be read alone: the engine keeps the position, the moves and
the rules (no text); :mod:`~tokens_edu.notation` writes moves as actions; :mod:`~tokens_edu.narrate`
words the log and prompts; :mod:`~tokens_edu.explain` says why a move is not legal;
:mod:`~tokens_edu.observe` says what each player may see. Actions, labels and sentences are
made only when somebody reads them, which is what lets computer players play thousands of
games a second.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from .. import engine
from ..content.cards import Card
from ..content.decks import Deck, deck_problems_text
from ..engine.events import CHOOSE_SECRET
from ..engine.rules import WINNING_TOKENS
from ..errors import DeckError, IllegalAction, RecordError, ScenarioError
from .actions import Action, normalize
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


class Game:
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

    def __init__(self):  # use Game.new / from_scenario / from_record
        raise TypeError("Make a game with Game.new(deck0, deck1), Game.from_scenario(...) or Game.from_record(...).")

    @classmethod
    def _wrap(cls, state: engine.State, names: tuple[str, str], origin: dict, title: str | None = None) -> "Game":
        g = object.__new__(cls)
        g._s = state
        g._names = names
        g._title = title
        g._origin = origin
        g._history = array("q")  # per action applied: move, player, trail mark, events mark (flat)
        g._texts = []  # each action's text, or None until somebody asks (see _history_texts)
        g._log = []  # LogEvents made so far from state.events (a prefix, extended on demand)
        g._views = None  # the two live PlayerViews, made when first asked for
        g._forget()
        state.trail.clear()  # nothing before the start can be undone
        return g

    def _forget(self) -> None:
        """Drop what was worked out about the current position (it changed)."""
        self._moves = None
        self._actions = None
        self._by_text = None

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
        for x, p in enumerate(owners):
            s.deck[p].append(x)
        engine.setup_new(s)
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
        events = self._s.events
        done = len(self._log)
        if done < len(events):
            self._log.extend(log_events(self._s, self._names, events[done:], self._title))
        return tuple(self._log)

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
    def history(self) -> tuple[str, ...]:
        """The texts of the actions applied so far, in order."""
        return tuple(self._history_texts())

    @property
    def moves(self) -> tuple[tuple[int, str], ...]:
        """Who took each action so far and its text: ``((player, text), ...)``, in order.

        The texts are the full record (a trained card is named): show another player's moves
        to a student only through a view that hides what they may not see.
        """
        texts = self._history_texts()
        return tuple(zip(self._history[1::4], texts))

    def card_of(self, card_id: int) -> Card:
        """The Card of card instance ``card_id`` (the engine's numbering, used in int moves)."""
        return self._s.card[card_id]

    # -- actions --------------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """The legal moves as the engine's small ints, in the order of :meth:`legal_actions`.

        The fast path for computer players and simulations: :meth:`push` plays one,
        :meth:`action` makes its :class:`Action`. See :mod:`tokens_edu.engine.moves`.
        """
        if self._moves is None:
            self._moves = engine.legal_moves(self._s)
        return self._moves

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
        """The :class:`Action` of ``move``, one of :meth:`legal_moves`.

        Raises:
            IllegalAction: ``move`` is not a legal move now.
        """
        i = self._index_of_move(move)
        if self._actions is not None:
            return self._actions[i]
        return action_of(self._s, move)

    def _index_of_move(self, move) -> int:
        try:
            return self.legal_moves().index(move)
        except ValueError:
            raise _fail(f"{move!r:.40} is not one of the legal moves now (see game.legal_moves()).",
                        str(move)[:40]) from None

    def _lookup(self, action) -> int:
        """The index in :meth:`legal_moves` of the legal action ``action`` (an Action or text), or -1."""
        if isinstance(action, Action):
            if self._actions is not None:
                for i, a in enumerate(self._actions):  # usually the very object legal_actions gave
                    if a is action:
                        return i
            text = str(action)
        else:
            text = action
        if len(text) > 200:
            return -1
        if self._by_text is None:
            self.legal_actions()
            self._by_text = {normalize(str(a)): i for i, a in enumerate(self._actions)}
        i = self._by_text.get(normalize(text))
        if i is None:
            try:
                i = self._by_text.get(normalize(str(Action.parse(text))))
            except IllegalAction:
                return -1
        return -1 if i is None else i

    def apply(self, action: Action | str) -> "Game":
        """Take an action for the player to act: an :class:`Action` or its text (any case).

        Returns:
            the game itself (so calls can be chained).

        Raises:
            IllegalAction: the action is not legal now; the message says why in plain words and
                ``.rule`` names the ruling ("R14"). The game is left exactly as it was.
        """
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
        i = -1 if isinstance(action, Action) and _odd(action) else self._lookup(action)
        if i < 0:
            raise why_illegal(self._s, self._names, self.legal_actions(), text)
        self._push(self._moves[i], str(self._actions[i]))
        return self

    def push(self, move: int) -> "Game":
        """Play ``move``, one of :meth:`legal_moves` (the fast twin of :meth:`apply`).

        Raises:
            IllegalAction: ``move`` is not legal now (the game is unchanged).
        """
        moves = self._moves
        if moves is None:
            moves = self._moves = engine.legal_moves(self._s)
        if move not in moves:
            self._index_of_move(move)
        self._push(move, None)
        return self

    def _push(self, move: int, text: str | None) -> None:
        s = self._s
        d = s.decision
        mark, emark = len(s.trail), len(s.events)
        self._history.extend((move, d.player if d is not None else s.active, mark, emark))
        self._texts.append(text)
        self._moves = self._actions = self._by_text = None
        try:
            engine.play(s, move)
        except BaseException:  # a bug must never leave a half-changed game behind
            s.undo_to(mark)
            del s.events[emark:]
            del self._history[-4:]
            del self._texts[-1]
            raise

    def pop(self) -> int:
        """Take back the last move and return it (the fast twin of :meth:`undo`).

        Raises:
            IllegalAction: there is nothing to undo.
        """
        if not self._history:
            raise _fail("There is nothing to undo: this is the start of the game.", "undo")
        h = self._history
        move, mark, emark = h[-4], h[-2], h[-1]
        del h[-4:]
        self._texts.pop()
        s = self._s
        s.undo_to(mark)
        del s.events[emark:]
        if len(self._log) > emark:
            del self._log[emark:]
        self._forget()
        return move

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start).

        Returns:
            the Action that was taken back.

        Raises:
            IllegalAction: there is nothing to undo.
        """
        text = self._texts[-1] if self._texts else None
        move = self.pop()
        return Action.parse(text) if text is not None else self.action(move)

    def explain(self, action: Action | str) -> str:
        """Why an action is or is not legal now, in a student's words. Never raises.

        Returns:
            "'task Chatbot' is legal now." or the reason it is not (naming the rule).
        """
        try:
            text = str(action) if isinstance(action, Action) else action
            if isinstance(text, str):
                i = self._lookup(text)
                if i >= 0:
                    return f"'{self._actions[i]}' is legal now."
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
        g = object.__new__(Game)
        g._s = s
        g._names, g._title, g._origin = self._names, self._title, {"imagined": True}
        g._history = array("q")
        g._texts = []
        g._log = []
        g._views = None
        g._forget()
        return g

    def copy(self) -> "Game":
        """An independent copy with the same position and history (undo works on both)."""
        g = object.__new__(Game)
        g._s = self._s.copy()
        g._names, g._title, g._origin = self._names, self._title, self._origin
        g._history = self._history[:]
        g._texts = self._texts[:]
        g._log = self._log[:]
        g._views = None
        g._forget()
        return g

    def __copy__(self) -> "Game":
        return self.copy()

    def __deepcopy__(self, memo) -> "Game":
        return self.copy()

    def _history_texts(self) -> list[str]:
        """Every action's text, working out the ones played as int moves (:meth:`push`) by
        walking back on a copy to the position each was played in."""
        texts = self._texts
        if None in texts:
            first = texts.index(None)
            s = self._s.copy()
            for i in range(len(texts) - 1, first - 1, -1):
                move, mark = self._history[4 * i], self._history[4 * i + 2]
                s.undo_to(mark)
                if texts[i] is None:
                    texts[i] = str(action_of(s, move))
        return texts

    def to_record(self) -> dict:
        """The game as a JSON-able dict: start (decks or scenario), seed, names, every action.

        ``Game.from_record(game.to_record())`` rebuilds this game exactly. Save it as ``.json``.
        The record is a full replay for the teacher: its actions include moves the opponent did
        not see (``train Sensor``, a card picked from a look at the deck), so it is not a view
        to show to a player during the game. The dict is a fresh copy: changing it changes
        nothing in the game.
        """
        return make_record(self._origin, self._s.seed, self._names, self._s.turn_limit, self._history_texts())

    def state_key(self) -> tuple:
        """A hashable summary of the whole position (hidden cards included): equal positions
        give equal keys. Used by tests to check undo and replays."""
        s = self._s
        return (tuple(tuple(lst) for lst in s.lists), s.turn, s.active, s.first, s.phase, s.decision, s.doom,
                s.over, s.winner, s.shuffles, s.extra_trains, s.extra_trains_turn, len(s.events))

    # -- views -----------------------------------------------------------------------------------
    def observation(self, player: int) -> Observation:
        """What ``player`` (0/1) may see: their own hand, the board, counts; never the other
        hand or either deck's order.

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

    def view(self, player: int) -> PlayerView:
        """A live, read-only :class:`PlayerView` of what ``player`` may see: the cheap way for
        a computer player to look at the game (card ids as in :meth:`legal_moves`).

        Raises:
            ValueError: player is not 0 or 1.
        """
        views = self._views
        if views is None:
            views = self._views = (PlayerView(self._s, 0), PlayerView(self._s, 1))
        if type(player) is int and 0 <= player <= 1:  # the usual case, without the checks below
            return views[player]
        return views[_check_player(player)]

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
        """The board as the player to act sees it (see :func:`tokens_edu.tables.game_html`)."""
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
