"""Match: a live game between seats (students and computer players), without any widgets.

A :class:`Match` holds what a lesson needs around a :class:`~tokens_edu.Game` that is not
drawing: who sits in each seat (a student or a bot), whose eyes the screen is for (the viewer;
in hot seat, nobody's until the next player shows their cards), which moves the viewer may
make, how the computer plays its turn (one move per :meth:`Match.step`), what Undo may take
back (the lesson's undo policy), and what each player may read in a prompt (a look effect's
cards only for the chooser). :class:`~tokens_edu.widgets.GameView` draws a Match; tests drive
one directly.

It uses only the game's public surface (``legal_actions``, ``apply``, ``undo``, ``move_stack``,
``to_record``, ``Game.from_record``) and the observer (:class:`~tokens_edu.game.observe.Observer`:
what each player may read), and holds no rules. Moves are :class:`~tokens_edu.Action` values
throughout: the student's move, the computer's, the hooks' and :attr:`Match.last_bot_moves`.

Extension points (for saved games, hints and "what was the computer thinking?"):

- ``match.on_move``: a list of callables ``hook(match, player, action)`` run after every move
  (a student's or a bot's), e.g. to save the game's record after each move.
- ``match.on_undo``: callables ``hook(match, actions_taken_back)`` run after an Undo.
- ``match.bots[p]``: the bot object of a computer seat (``choose(game)``; bots with
  ``explain(game)`` can be asked why, before or after their move: :attr:`Match.last_bot_moves`).
- :meth:`Match.from_record` resumes a saved game in the same seats and with the same undo policy.

Example::

    from tokens_edu import Game
    from tokens_edu.players import Match
    m = Match(Game.from_scenario("lessons/scenarios/03-audit.yaml"), seats=("human", "greedy"))
    m.play(Action("end"))       # the student's move (checked against the rules)
    while m.bot_to_act():
        m.step()                 # the computer's moves, one at a time
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Sequence

from ..game.actions import Action
from ..game.game import Game
from ..game import observe as _observe
from ..game.observe import Observer
from ..game.records import MAX_RECORD_MOVES
from .registry import make_bot, move_of

__all__ = ["Match", "MatchError", "UNDO_POLICIES", "seat_bot", "MOVE_CAP", "CAP_MESSAGE"]

log = logging.getLogger(__name__)

#: Undo policies a lesson may choose (see :class:`Match`).
UNDO_POLICIES = ("turn", "free", "off")
#: The most moves one live game may have: what a game record holds
#: (:data:`tokens_edu.game.records.MAX_RECORD_MOVES`), so a game that stops there can still be
#: saved, continued and replayed. Real games have a few hundred at most; only a script (or two
#: players ending turn after turn) gets here. The game then stops with no winner.
MOVE_CAP = MAX_RECORD_MOVES
#: What the players read when a game stops at :data:`MOVE_CAP`.
CAP_MESSAGE = (f"This game has reached {MOVE_CAP:,} moves, the most one game can have. It stops "
               "here and nobody wins. Start a new game to play again.")


class MatchError(ValueError):
    """A request the match refuses (not your move, nothing to undo...), in plain words."""


def seat_bot(seat: object, seat_index: int):
    """The bot object for a seat entry, or None for a student's seat.

    Args:
        seat: ``"human"`` (or ``"student"``, ``"person"``, None), a bot's name from
            :data:`tokens_edu.players.registry.BOTS` (``"greedy"`` or ``"computer"``,
            ``"random"``, ``"search"``...), or an object with ``choose(game) -> Action``
            (e.g. ``GreedyBot()``, ``RandomBot(seed)``).
        seat_index: 0 or 1 (the seed of a bot made by name, and the seat number in messages).

    Returns:
        None for a student's seat, else the bot.

    Raises:
        ValueError: the entry is none of these, in plain words.
    """
    if seat is None or (isinstance(seat, str) and seat.strip().lower() in ("human", "person", "student")):
        return None
    if isinstance(seat, str):
        try:
            return make_bot(seat, seed=seat_index)
        except ValueError:
            raise ValueError(
                f"Seat {seat_index + 1} is {seat[:40]!r}. A seat is 'human', 'greedy', 'random' or a bot "
                "such as GreedyBot()."
            ) from None
    if callable(getattr(seat, "choose", None)):
        return seat
    raise ValueError(
        f"Seat {seat_index + 1} is a {type(seat).__name__}. A seat is 'human', 'greedy', 'random' "
        "or a bot with a choose(game) method."
    )


class Match:
    """A live game with its seats, its undo policy and what each player may see.

    Args:
        game: a :class:`~tokens_edu.Game`. The match changes it only with ``apply`` and ``undo``.
        seats: a pair, one entry per player (see :func:`seat_bot`): ``("human", "greedy")``
            is a student against the computer; ``("human", "human")`` is hot seat (one screen,
            the hand covered while the screen is passed); two bots watch a game.
        undo: the lesson's undo policy:

            - ``"turn"`` (default): a student takes back only their own moves of the turn they
              are playing, and none that showed them a new card (a draw, a look at the deck).
              So Undo can't be used to peek at the computer's turn or at a draw.
            - ``"free"`` (a teacher's choice for "try it again" lessons): take back the student's
              last decision and every computer move after it, any number of times.
            - ``"off"``: no Undo.

            In every policy Undo is off once the game is over, and never takes back another
            student's move (hot seat).

    A game stops at :data:`MOVE_CAP` moves (10,000) in every mode, hot seat included: no
    more moves are offered or taken, the computer stops, and the game counts as finished
    with no winner (:meth:`capped`, :attr:`finished`; the page says :data:`CAP_MESSAGE`).

    Attributes:
        game: the Game. bots: list of two, the bot of each seat or None for a student.
        humans: the students' seat numbers. undo_policy: one of :data:`UNDO_POLICIES`.
        on_move, on_undo: lists of hooks (see the module's docs).
        last_bot_moves: the computer's moves since the viewer's last move, oldest first, as
            ``(player, Action)`` (for highlighting them on the board).

    Raises:
        TypeError: ``game`` is not a Game. ValueError: bad seats or undo policy (plain words).
    """

    def __init__(self, game, seats: Sequence = ("human", "greedy"), undo: str = "turn"):
        if not all(hasattr(game, a) for a in ("legal_actions", "apply", "undo", "observation")):
            raise TypeError("Match needs a Game, e.g. Game.new(...) or Game.from_scenario(...).")
        if isinstance(seats, str) or len(seats) != 2:
            raise ValueError("seats must be a pair, e.g. ('human', 'greedy').")
        if undo is True or undo is None:
            undo = "turn"
        elif undo is False:
            undo = "off"
        if undo not in UNDO_POLICIES:
            raise ValueError(f"undo must be one of {', '.join(UNDO_POLICIES)}, not {undo!r}.")
        self.game = game
        self.seats = tuple(seats)
        self.bots = [seat_bot(s, i) for i, s in enumerate(self.seats)]
        self.humans = [i for i in (0, 1) if self.bots[i] is None]
        self.undo_policy = undo
        self.on_move: list[Callable] = []
        self.on_undo: list[Callable] = []
        self.last_bot_moves: list[tuple[int, object]] = []
        self._revealed_for: int | None = None
        # Moves (by index in the game's history) that showed their mover a new card: Undo in
        # the "turn" policy stops before them.
        self._revealing: set[int] = set()
        self._start_record = None  # the game as it began (for "Play again"), made when asked

    # -- building --------------------------------------------------------------------------
    @classmethod
    def from_record(cls, record: dict, seats: Sequence = ("human", "greedy"), undo: str = "turn") -> "Match":
        """Resume a saved game (``Game.to_record()``) in the same seats and undo policy.

        Moves already in the record count as made before this page opened: the "turn"
        policy does not take back a move that showed a card, and there is no way to know that
        for old moves, so Undo starts with the first move made after resuming.

        Raises:
            RecordError (a ValueError): the record is damaged (from ``Game.from_record``).
        """

        m = cls(Game.from_record(record), seats=seats, undo=undo)
        m._revealing.update(range(len(m.game.move_stack)))
        return m

    # -- the move cap ------------------------------------------------------------------------
    def moves_made(self) -> int:
        """How many moves the game has so far (without building the list of them)."""
        history = getattr(self.game, "_history", None)
        return len(history) if history is not None else len(self.game.move_stack)

    def capped(self) -> bool:
        """True when the game went on to :data:`MOVE_CAP` moves without an end: it stops there."""
        return not self.game.over and self.moves_made() >= MOVE_CAP

    @property
    def finished(self) -> bool:
        """True once the game is over or stopped at the move cap (:meth:`capped`)."""
        return bool(self.game.over) or self.capped()

    # -- seats and viewer --------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        """True when both seats are students (one screen, the hand covered between turns)."""
        return len(self.humans) == 2

    def viewer(self) -> int | None:
        """The player whose eyes the screen is for now: 0, 1, or None (no hand shown).

        One student: always that student. Hot seat: the player to act once they showed their
        cards (:meth:`reveal`), else None (the cover is up); after the game, the last one who
        showed theirs. Two bots: None.
        """
        if len(self.humans) == 1:
            return self.humans[0]
        if self.hot_seat:
            if self.finished:
                return self._revealed_for
            return self._revealed_for if self._revealed_for == self.game.to_act else None
        return None

    def seat_view(self) -> int:
        """The seat drawn at the bottom of the table: the viewer, else the first student, else 0."""
        v = self.viewer()
        if v is not None:
            return v
        if self.hot_seat and self.game.to_act is not None:
            return self.game.to_act
        return self.humans[0] if self.humans else 0

    def covered(self) -> bool:
        """Hot seat: True while the screen waits for the next player to show their cards."""
        return self.hot_seat and not self.finished and self.viewer() is None

    def reveal(self) -> int:
        """Hot seat: the player to act shows their cards. Returns that player (0/1).

        Raises:
            MatchError: not hot seat, or the game is over.
        """
        if not self.hot_seat:
            raise MatchError("Only a hot-seat game has a cover.")
        if self.finished:
            raise MatchError("The game is over.")
        self._revealed_for = self.game.to_act
        return self._revealed_for

    def bot_to_act(self) -> bool:
        """True when the game goes on and a computer seat must decide now."""
        return not self.finished and self.bots[self.game.to_act] is not None

    def viewer_to_act(self) -> bool:
        """True when the viewer is a student who must decide now."""
        return not self.finished and self.viewer() is not None and self.viewer() == self.game.to_act \
            and self.bots[self.game.to_act] is None

    def legal_moves(self) -> list[Action]:
        """The moves the viewer may make now (``game.legal_actions()``, Actions), else an empty list."""
        return list(self.game.legal_actions()) if self.viewer_to_act() else []

    def name(self, player: int) -> str:
        """A player's name (as the game has it)."""
        names = getattr(self.game, "names", None) or ("Player 1", "Player 2")
        return str(names[player])

    def prompt(self, viewer: int | None = None) -> str | None:
        """The decision in progress, as ``viewer`` may read it; None in the main phase.

        The chooser reads their own prompt (``observation(viewer).pending``, which may name
        cards they looked at). Everyone else reads the engine's public sentence about the
        choice (``observation(viewer).pending_public``, e.g. "Bo looks at the top card of their
        deck (Tensor) and may put it on the bottom."), which never names a card only the chooser
        may see (R22); the computer is called "The computer" in it ("... the top card of its deck").
        """
        if viewer is None:
            viewer = self.viewer()
        return Observer(viewer).prompt(self.game, tuple(b is not None for b in self.bots))

    # -- moves -------------------------------------------------------------------------------
    def play(self, action: Action) -> Action:
        """The viewer makes a move: an :class:`~tokens_edu.Action` (one of :meth:`legal_moves`,
        or one built from its fields). Its text is still taken until 0.4.0, with a
        DeprecationWarning (``Action.parse(text)`` reads it).

        Returns:
            the Action played (the game's own value, carrying its engine move).

        Raises:
            MatchError: the game is over or stopped at the move cap (:data:`CAP_MESSAGE`), or it
                is not the viewer's move.
            IllegalAction: the move breaks a rule (the engine's plain message); nothing changes.
        """
        g = self.game
        if g.over:
            raise MatchError("The game is over. Start a new game to play again.")
        if self.capped():
            raise MatchError(CAP_MESSAGE)
        if self.bot_to_act():
            raise MatchError("It's the computer's move now.")
        if not self.viewer_to_act():
            raise MatchError("It's not your move yet.")
        if isinstance(action, str):
            warnings.warn("Match.play() with a move's text is deprecated and will be removed in tokens_edu "
                          "0.4.0; pass an Action (match.legal_moves(), or Action.parse(text)).",
                          DeprecationWarning, stacklevel=2)
        self.last_bot_moves = []
        return self._apply(action)

    def step(self) -> Action | None:
        """The computer seat to act makes one move. Returns it (an Action), or None if no bot
        is to act."""
        if not self.bot_to_act():
            return None
        player = self.game.to_act
        applied = self._apply(move_of(self.game, self.bots[player].choose(self.game)))
        self.last_bot_moves.append((player, applied))
        return applied

    def play_bot_turn(self, limit: int = 500) -> list:
        """Computer moves until a student must decide or the game ends; the moves, in order."""
        out = []
        while self.bot_to_act() and len(out) < limit:
            out.append(self.step())
        return out

    def _apply(self, action):
        g = self.game
        player = g.to_act
        view = g.view(player)  # a live look at the counts (no Observation is built for a move)
        deck_before, deciding_before = view.deck_size(player), view.decision() is not None
        n = len(g.move_stack)
        g.apply(action)
        applied = g.move_stack[-1]  # the game's own value of the move (its engine move, its player)
        if view.deck_size(player) != deck_before or (view.decision() is not None and not deciding_before):
            self._revealing.add(n)  # it showed its mover a card (a draw or a look)
        self._run_hooks(self.on_move, player, applied)
        return applied

    def _run_hooks(self, hooks, *args) -> None:
        for hook in list(hooks):
            try:
                hook(self, *args)
            except Exception:  # noqa: BLE001 (a hook must never break the game)
                log.exception("Match hook %r failed", hook)

    # -- undo --------------------------------------------------------------------------------
    def undo_count(self) -> int:
        """How many moves Undo takes back now (0: Undo is not possible). See the undo policy."""
        me = self.viewer()
        g = self.game
        if me is None or self.finished or self.undo_policy == "off":
            return 0
        played = g.move_stack
        movers = [a.player for a in played]
        if self.undo_policy == "free":
            count = 0
            for i in range(len(movers) - 1, -1, -1):
                count += 1
                if movers[i] == me:
                    return count
                if self.bots[movers[i]] is None:  # another student's move
                    return 0
            return 0
        # "turn": only my own moves of the turn I am playing now, none that showed a card
        if g.to_act != me or getattr(g, "active", me) != me or self.bots[me] is not None:
            return 0
        count = 0
        for i in range(len(movers) - 1, -1, -1):
            if movers[i] != me or i in self._revealing or played[i].kind == "end":
                break
            count += 1
        return count

    def undo(self) -> int:
        """Take back what :meth:`undo_count` says. Returns how many moves were taken back.

        Raises:
            MatchError: Undo is off, the game is over, or there is nothing to take back.
        """
        if self.undo_policy == "off":
            raise MatchError("Undo is turned off for this game.")
        if self.finished:
            raise MatchError("The game is over, so moves can't be taken back.")
        n = self.undo_count()
        if n == 0:
            raise MatchError("There is no move of yours to take back now.")
        taken = []
        for _ in range(n):
            taken.append(self.game.undo())
        top = len(self.game.move_stack)
        self._revealing = {i for i in self._revealing if i < top}
        self.last_bot_moves = []
        self._run_hooks(self.on_undo, taken)
        return n

    # -- play again --------------------------------------------------------------------------
    def start_record(self) -> dict:
        """The record of this game as it began (no moves): the same decks, scenario and seed."""
        record = dict(self.game.to_record())
        record["actions"] = []
        return record

    def restart(self) -> "Match":
        """A new Match in the same seats and undo policy, from this game's start position.

        Returns:
            the new Match (hooks are carried over); this match is left as it is.
        """

        m = Match(Game.from_record(self.start_record()), seats=self.seats, undo=self.undo_policy)
        m.bots = self.bots  # the same bot objects (a seeded bot keeps its seed)
        m.on_move, m.on_undo = list(self.on_move), list(self.on_undo)
        return m


def __getattr__(name):
    """``prompt_for`` moved to :mod:`tokens_edu.game.observe` (the observer decides what each
    player reads); the old name works until 0.4.0 with a DeprecationWarning."""
    if name == "prompt_for":
        warnings.warn("tokens_edu.players.match.prompt_for moved to tokens_edu.game.observe.prompt_for; "
                      "the old name will be removed in tokens_edu 0.4.0.", DeprecationWarning, stacklevel=2)
        return _observe.prompt_for
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
