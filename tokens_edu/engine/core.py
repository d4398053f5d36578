"""The part of a game that computer players use at every move: :class:`GameCore`.

:class:`tokens_edu.Game` is a ``GameCore`` plus everything made for people (actions as text,
explanations, records, tables, views). A simulation's inner loop only asks who is to act, for
the legal moves, for a player's view, and plays or takes back a move; those live here, next to
the rules, so they are compiled with the engine (see ``tokens_edu/_build.py``) and a move costs
no Python-level call at all when a compiled bot plays it.

A ``GameCore`` keeps the :class:`~tokens_edu.engine.state.State`, the moves played (with the
marks that undo them), and what was worked out about the current position (the legal moves,
and for :class:`~tokens_edu.Game` its actions), forgotten at every change.

The module-level functions (:func:`to_act_of`, :func:`moves_of`, :func:`view_of`) are what
compiled bots call: a ``Game`` is a Python subclass, and compiled code reaches a function of
its own module faster than a method looked up on a Python class.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ..errors import IllegalAction
from .flow import legal_moves, play
from .state import State
from .view import PlayerView

__all__ = ["GameCore", "to_act_of", "moves_of", "view_of", "push_move", "MOVE_BITS"]

#: A move fits in this many bits (:mod:`~tokens_edu.engine.moves`); the history keeps each move
#: played as ``move | player << MOVE_BITS``.
MOVE_BITS: Final = 40
_MOVE_MASK: Final = (1 << MOVE_BITS) - 1


@mypyc_attr(allow_interpreted_subclasses=True)
class GameCore:
    """A position, the moves that led there, and the legal moves now: the fast path of
    :class:`~tokens_edu.Game` (``legal_moves``, ``push``, ``pop``, ``view``, ``to_act``...).

    Make games with :meth:`Game.new` and its siblings, not with this class.
    """

    def __init__(self, state: State) -> None:
        """Hold ``state`` with no history (nothing before it can be undone)."""
        self._s = state
        # per move played: the move and who played it (move | player << MOVE_BITS). A list of
        # ints, which compiled code appends to directly: an array('q') held 8 bytes a move
        # instead of 40, but each append was a Python-level call that parses its argument
        # (750 instructions, 4% of a Greedy game; callgrind). Where each move began is on the
        # state's trail (State.begin_move), for undo.
        self._history: list[int] = []
        self._texts: dict[int, str] = {}  # move number -> its action's text, when it was applied as one
        # the log's sentences made so far, one per event (a prefix), end to end in one string,
        # with where each ends: a str object per sentence would hold 49 bytes more each
        self._log = ""
        self._log_ends: Any = array("I")
        self._moves: list[int] | None = None  # the legal moves of now, once worked out
        self._actions: list[Any] | None = None  # their Actions (made by Game when asked)
        self._by_text: dict[str, int] | None = None  # an action's text -> its index (Game)
        self._views: tuple[PlayerView, ...] | None = None  # the two live views, once asked for (a tuple of
        # any length: mypyc would keep a pair unboxed and make a new tuple object at each views[player])

    # -- reading the position -----------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The player (0/1) who decides now; None when the game is over."""
        return to_act_of(self)

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

    # -- moves ---------------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """The legal moves as the engine's small ints, in the order of :meth:`legal_actions`.

        The fast path for computer players and simulations: :meth:`push` plays one,
        :meth:`action` makes its :class:`Action`. See :mod:`tokens_edu.engine.moves`.
        """
        return moves_of(self)

    def push(self, move: Any) -> GameCore:
        """Play ``move``, one of :meth:`legal_moves` (the fast twin of :meth:`apply`).

        Raises:
            IllegalAction: ``move`` is not legal now (the game is unchanged).
        """
        moves = moves_of(self)
        if move not in moves:
            raise _not_legal(move)
        push_move(self, move, None)
        return self

    def _push(self, move: int, text: str | None) -> None:
        """Play ``move`` (legal) and note its action text, if known."""
        push_move(self, move, text)

    def pop(self) -> int:
        """Take back the last move and return it (the fast twin of :meth:`undo`).

        Raises:
            IllegalAction: there is nothing to undo.
        """
        n = len(self._history)
        if not n:
            raise IllegalAction("There is nothing to undo: this is the start of the game.", action="undo")
        move: int = self._history.pop() & _MOVE_MASK
        if n - 1 in self._texts:
            del self._texts[n - 1]
        s = self._s
        s.undo_move()
        n = len(s.events)
        ends = self._log_ends
        if len(ends) > n:
            self._log = self._log[:ends[n - 1]] if n else ""
            del ends[n:]
        self._moves = None
        self._actions = None
        self._by_text = None
        return move

    def _index_of_move(self, move: Any) -> int:
        """The index of ``move`` in :meth:`legal_moves`.

        Raises:
            IllegalAction: it is not a legal move now.
        """
        moves = moves_of(self)
        if move not in moves:
            raise _not_legal(move)
        return moves.index(move)

    def _set_history(self, history: list[int]) -> None:
        """Take ``history`` (the moves played, see __init__) as this game's."""
        self._history = history

    def _forget(self) -> None:
        """Drop what was worked out about the current position (it changed)."""
        self._moves = None
        self._actions = None
        self._by_text = None

    # -- views -----------------------------------------------------------------------------------
    def view(self, player: Any) -> PlayerView:
        """A live, read-only :class:`PlayerView` of what ``player`` may see: the cheap way for
        a computer player to look at the game (card ids as in :meth:`legal_moves`).

        Raises:
            ValueError: player is not 0 or 1.
        """
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player <= 1:
            raise ValueError(f"A player is 0 or 1, not {player!r:.40}.")
        return view_of(self, player)


def to_act_of(g: GameCore) -> int | None:
    """``g.to_act``: who decides now (0/1), None when the game is over."""
    s = g._s
    if s.over:
        return None
    d = s.decision
    return d.player if d is not None else s.active


def moves_of(g: GameCore) -> list[int]:
    """``g.legal_moves()``: the legal moves of now, worked out once per position."""
    moves = g._moves
    if moves is None:
        moves = g._moves = legal_moves(g._s)
    return moves


def view_of(g: GameCore, player: int) -> PlayerView:
    """``g.view(player)`` for a player known to be 0 or 1."""
    views = g._views
    if views is None:
        views = g._views = (PlayerView(g._s, 0), PlayerView(g._s, 1))
    return views[player]


def push_move(g: GameCore, move: int, text: str | None) -> None:
    """Play ``move`` (known to be legal) in ``g``, noting its text (None: made when asked)."""
    s = g._s
    d = s.decision
    mark = len(s.trail)
    s.begin_move()
    g._history.append(move | (d.player if d is not None else s.active) << MOVE_BITS)
    if text is not None:
        g._texts[len(g._history) - 1] = text
    g._moves = None
    g._actions = None
    g._by_text = None
    try:
        play(s, move)
    except BaseException:  # a bug must never leave a half-changed game behind
        s.undo_to(mark)  # (its events too: the move's beginning is passed)
        g._history.pop()
        g._texts.pop(len(g._history), None)
        raise


def _not_legal(move: Any) -> IllegalAction:
    return IllegalAction(f"{move!r:.40} is not one of the legal moves now (see game.legal_moves()).",
                         action=str(move)[:40])
