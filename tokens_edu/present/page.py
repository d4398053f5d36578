"""The presenter: everything one player's page may show of a game, decided in one place.

:func:`present` reads a game, the viewer (whose eyes the page is for) and a :class:`Seating`
(who sits where, the hot-seat cover, the page's controls) and returns a :class:`Page`: the board,
the viewer's hand and the moves they may make, the prompt of a choice in progress, the status
line, the end-of-game banner, the hot-seat cover, the log lines, the move list with the other
player's secret moves masked, the cards that may be read. Nothing else decides what a page shows:
:class:`~tokens_edu.widgets.GameView` and its panes, :class:`~tokens_edu.widgets.ReplayView`
and the teacher's replay all draw a Page. No widgets: a test calls it on any game.

Hidden information is decided by the observer (:class:`~tokens_edu.game.observe.Observer`),
which the page asks for everything it shows:

- a Page is built from **one** observation (the viewer's own hand, counts for everything
  else), so no other hand and no deck order is in it; under a hot-seat cover (``viewer``
  None) the observation has no hand, no move and no private prompt;
- the chooser of a look at the deck reads their own prompt; everyone else reads the engine's
  public sentence (R22);
- in the move list the other player's face-down Trains and secret choices are not named;
- the computer's last moves light up only public cards; a face-down Train lights up the
  Training Set, never a card of that name.

Example::

    from tokens_edu import Game
    from tokens_edu.present import Seating, present
    game = Game.from_scenario("lessons/scenarios/03-audit.yaml")
    page = present(game, 0, Seating(computer=(False, True)))
    page.status                     # "Your turn"
    page.moves                      # the Actions offered; the page sends one back by its index
    page.state()                    # the JSON-able dict the card table draws (a PageState)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..game.actions import Action
from .. import _moved
from ..game.observe import Observer
from ..errors import IllegalAction
from .faces import LOG_LINES, WIN_TOKENS, board_state, card_face, moves_state, plain, sides_state
from .state import PageState, TableState

__all__ = ["Seating", "Page", "present", "mask", "short_name", "REPLAY", "MAX_NAME", "UNDO_HINTS"]

# Old names of this module (PUBLIC_KINDS: in tokens_edu.game.observe), until tokens-edu 0.4.0.
__getattr__ = _moved.moved_names(__name__)

#: Names are cut to this many characters on a page (a long name breaks the layout).
MAX_NAME = 30
#: What Undo's tooltip says, per undo policy (see :class:`~tokens_edu.players.match.Match`).
UNDO_HINTS = {"turn": "Take back your own moves of this turn",
              "free": "Take back your last move and the computer's moves after it",
              "off": "Take back your own moves of this turn"}


def short_name(name: object, limit: int = MAX_NAME) -> str:
    """A name as a page shows it: spaces tidied, cut to ``limit`` characters ("…"), never empty."""
    text = " ".join(str(name if name is not None else "").split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text or "?"


def mask(action, mover: int | None, viewer: int | None) -> str:
    """A move played, as ``viewer`` may read it: the observer's words
    (:meth:`~tokens_edu.game.observe.Observer.move_text`): the other player's face-down Train
    and secret choices not named (R8, R22), a mulligan read "new hand".

    Args:
        action: the move, an :class:`~tokens_edu.Action` from ``game.move_stack`` (its text is
            accepted until 0.4.0, with a DeprecationWarning: a text does not say whether a
            choice was secret, so every choice of the other player is then hidden).
        mover: who made it (0/1). viewer: who reads (0/1), or None (nobody's eyes).

    Returns:
        str: the text as the viewer may read it.
    """
    if not isinstance(action, Action):
        warnings.warn("mask() with a move's text is deprecated and will be removed in tokens_edu 0.4.0; "
                      "pass the Action (game.move_stack) or ask Observer(viewer).move_text(action).",
                      DeprecationWarning, stacklevel=2)
        try:
            parsed = Action.parse(str(action))
        except IllegalAction:
            return str(action)
        action = replace(parsed, secret=parsed.kind == "choose")
    if mover is not None and action.player != mover:
        action = replace(action, player=mover)
    return Observer(viewer).move_text(action)


@dataclass(frozen=True)
class Seating:
    """Who sits at a table and how its page is set: what :func:`present` needs besides the game
    and the viewer. Made from a live match with :meth:`of`; :data:`REPLAY` for a replay.

    Attributes:
        computer: per seat, True when a computer plays it.
        names: the two names to show (None: the game's names, cut to :data:`MAX_NAME`).
        live: False for a replay (a past position: no moves, no status, banner or cover).
        covered: hot seat: the cover is up (the screen waits for the next player's eyes).
        seat: the side drawn at the bottom (None: the viewer's, else player 0).
        undo: how many moves Undo would take back now (0: greyed out).
        undo_policy: ``"turn"``, ``"free"`` or ``"off"`` (no Undo button).
        last_moves: the computer's moves since the viewer's last move, oldest first, as
            ``(player, Action)`` (the newest three light up).
        autoplay, paused, delay_ms: the computer plays its turn by itself, paused, its pause
            between moves (milliseconds).
        title: a lesson's short title above the table. game_no: counts the games put on this
            table (the page closes a banner once per game). scroll: bring the table into view.
        capped: the game stopped at the move cap without an end (no moves, a plain banner:
            :data:`tokens_edu.players.match.CAP_MESSAGE`).
    """

    computer: tuple = (False, False)
    names: tuple | None = None
    live: bool = True
    covered: bool = False
    seat: int | None = None
    undo: int = 0
    undo_policy: str = "off"
    last_moves: tuple = ()
    autoplay: bool = True
    paused: bool = False
    delay_ms: int = 1500
    title: str = ""
    game_no: int = 0
    scroll: bool = False
    capped: bool = False

    @classmethod
    def of(cls, match, **page) -> "Seating":
        """The seating of a live :class:`~tokens_edu.players.match.Match` (seats, cover, undo,
        the computer's last moves), with the page's own settings in ``page`` (``autoplay``,
        ``paused``, ``delay_ms``, ``title``, ``game_no``, ``scroll``)."""
        return cls(computer=tuple(b is not None for b in match.bots),
                   names=tuple(short_name(match.name(p)) for p in (0, 1)),
                   covered=match.covered(), seat=match.seat_view(), undo=match.undo_count(),
                   undo_policy=match.undo_policy, last_moves=tuple(match.last_bot_moves),
                   capped=bool(getattr(match, "capped", lambda: False)()), **page)


#: The seating of a replay: a past position seen from a seat, nothing to play.
REPLAY = Seating(live=False)


@dataclass(frozen=True, eq=False)
class Page:
    """Everything one player's page may show of one position. Built by :func:`present`.

    A Page describes the game as it was when built; read it before the game changes (its
    lazily built parts, :meth:`move_lines` and :meth:`tables`, read the game then).

    Attributes:
        viewer: whose eyes (0/1), or None (a covered hot seat, two computers, a teacher).
        seat: the side drawn at the bottom. names: the two names shown.
        obs: the one :class:`~tokens_edu.game.observe.Observation` the page is built from.
        moves: the moves offered, in order (empty when it is not the viewer's decision); the
            page sends a move by its index in this tuple.
        prompt: the choice in progress as the viewer may read it, or None.
        status: the status line ("Your turn", "The computer is playing…", "You win!").
        step: where the game is ("Turn 5: Ada's turn · 12 moves so far").
        banner: the end-of-game banner (``title, detail, won``) or None.
        cover: the hot-seat cover (``title, text, button``) or None.
        log: every log line the viewer may read, oldest first (no rule numbers).
        highlight: board labels (and ``"ts:<p>"``, a Training Set) the computer just used.
        readable: the cards the viewer may read now: their hand and the cards in play.
        computer_to_act: the game goes on and a computer must decide now.
        seating: the :class:`Seating` it was built with.
    """

    game: object = field(repr=False)
    viewer: int | None
    seat: int
    names: tuple
    obs: object = field(repr=False)
    moves: tuple
    prompt: str | None
    status: str
    step: str
    banner: dict | None
    cover: dict | None
    log: tuple
    highlight: frozenset
    readable: tuple
    computer_to_act: bool
    seating: Seating = field(repr=False)
    log_shown: tuple | None = field(default=None, repr=False)

    @property
    def observer(self) -> Observer:
        """The viewer's eyes (:class:`~tokens_edu.game.observe.Observer`): what this page may show."""
        return Observer(self.viewer)

    @property
    def covered(self) -> bool:
        """True while a hot-seat cover is up."""
        return self.seating.covered

    @property
    def over(self) -> bool:
        """True once the game is over, or stopped at the move cap."""
        return bool(self.obs.over) or self.seating.capped

    @cached_property
    def _table(self) -> TableState:
        obs = self.obs
        board = board_state(obs, self.highlight)
        labels = {b["id"] for b in board}
        hand = [card_face(c) for c in obs.hand] if self.viewer in (0, 1) else []
        lines = self.log_shown if self.log_shown is not None else self.log[-LOG_LINES:]
        return TableState(**{
            "seat": self.seat, "you": self.viewer if self.viewer in (0, 1) else None,
            "sides": sides_state(obs, self.seat, self.viewer, self.names, self.highlight),
            "board": board, "hand": hand,
            "moves": moves_state(self.moves, {f["name"] for f in hand}, labels),
            "prompt": plain(self.prompt) if self.prompt else None,
            "log": list(lines)[-LOG_LINES:], "over": self.over, "winner": obs.winner,
            "turn": int(obs.turn), "win": WIN_TOKENS,
        })

    def table_state(self) -> TableState:
        """The position as the card table draws it (a new JSON-able dict, declared as
        :class:`~tokens_edu.present.state.TableState`): ``seat``, ``you``, ``sides``, ``board``,
        ``hand``, ``moves``, ``prompt``, ``log``, ``over``, ``winner``, ``turn``, ``win`` (see
        :func:`tokens_edu.present.table.table_state`)."""
        return TableState(**self._table)

    def state(self, version: int | None = None, note: dict | None = None) -> PageState:
        """What a live page's card table is sent, declared as
        :class:`~tokens_edu.present.state.PageState` (the table's JavaScript reads only its keys,
        ``tests/present/test_state_contract.py``): :meth:`table_state` plus ``status``, ``step``,
        ``title``, ``banner``, ``cover``, the controls (``bot``, ``has_bot``, ``autoplay``,
        ``paused``, ``delay``, ``undo``, ``undo_shown``, ``undo_hint``, ``can_again``),
        ``game``, ``scroll``, and ``v`` (``version``) and ``note`` (``{text, kind}`` or None)."""
        s = self.seating
        state = PageState(**self._table)
        state.update(
            status=self.status, step=plain(self.step), title=s.title, banner=self.banner,
            cover=self.cover, bot=self.computer_to_act, has_bot=any(s.computer),
            autoplay=s.autoplay, paused=s.paused, delay=s.delay_ms, undo=s.undo,
            undo_shown=s.undo_policy != "off", undo_hint=UNDO_HINTS.get(s.undo_policy, UNDO_HINTS["turn"]),
            can_again=True, game=s.game_no, scroll=s.scroll)
        if version is not None:
            state["v"] = version
        state["note"] = note
        return state

    def mask(self, action, mover: int | None = None) -> str:
        """A move played (an Action; its text until 0.4.0) as this page's viewer may read it
        (:func:`mask`; ``mover`` defaults to the Action's player)."""
        return mask(action, action.player if mover is None and isinstance(action, Action) else mover, self.viewer)

    def move_lines(self) -> list[str]:
        """Every move so far, numbered, as the viewer may read it: ``"3. Bo: train a card
        (face-down)"`` (plain text; the names as shown; the observer's move list)."""
        return [f"{i + 1}. {self.names[mover]}: {text}"
                for i, (mover, text) in enumerate(self.observer.move_list(self.game))]

    def tables(self) -> dict:
        """The State tables (pandas) as the page may show them: ``players``, ``board``, ``hand``
        (None under a hot-seat cover) and ``log``, seen from the bottom seat."""
        # pandas loads here, not when the module does: `import tokens_edu` (which imports this
        # module through present.render) must not load pandas in every lesson's kernel (~30 MiB)
        from ..game.tables import game_tables

        obs = self.obs if self.obs.player == self.seat else None
        tables = dict(game_tables(self.game, self.seat, obs=obs))
        if self.viewer is None:
            tables["hand"] = None
        return tables


#: The status line of a game stopped at the move cap.
CAPPED_STATUS = "The game stopped: it reached the most moves one game can have."


def _capped_banner() -> dict:
    from ..players.match import CAP_MESSAGE  # here: the presenter does not load the players

    return {"title": "The game stops here", "detail": CAP_MESSAGE, "won": False}


def _status(obs, viewer, s: Seating, names) -> str:
    humans = [p for p in (0, 1) if not s.computer[p]]
    if s.capped and not obs.over:
        return CAPPED_STATUS
    if obs.over:
        if obs.winner is None:
            return "It's a draw: nobody reached 15 Tokens."
        if len(humans) == 1:
            return "You win!" if obs.winner == humans[0] else f"{names[obs.winner]} wins!"
        return f"{names[obs.winner]} wins!"
    who = obs.to_act
    if s.computer[who]:
        if s.autoplay and not s.paused:
            return "The computer is playing…"
        return "The computer's move: click Next computer move."
    if len(humans) == 1:
        return "Your turn" if who == humans[0] else f"{names[who]}'s turn"
    if viewer is None:
        return f"Pass the screen to {names[who]}."
    return f"Your turn, {names[who]}"


def _step(game, obs, moves, names) -> str:
    if obs.over:
        return f"Game over after turn {int(obs.turn)}."
    kinds = {a.kind for a in moves}
    phase = getattr(game, "phase", "main")
    who = names[obs.to_act]
    n = len(game.move_stack)
    count = f" · {n} move{'s' if n != 1 else ''} so far"
    if phase == "order" or "order" in kinds:
        return f"Getting ready: {who} won the die roll and decides who goes first." + count
    if phase == "mulligan" or kinds & {"keep", "mulligan"}:
        return f"Getting ready: {who} keeps this hand or takes a new hand, once." + count
    return f"Turn {int(obs.turn)}: {names[obs.active]}'s turn" + count


def _banner(obs, s: Seating, names) -> dict | None:
    if s.capped and not obs.over:
        return _capped_banner()
    if not obs.over:
        return None
    score = f"Final Tokens: {names[0]} {obs.tokens[0]}, {names[1]} {obs.tokens[1]}."
    if obs.winner is None:
        return {"title": "It's a draw", "detail": score, "won": False}
    humans = [p for p in (0, 1) if not s.computer[p]]
    if len(humans) == 1:
        won = obs.winner == humans[0]
        title = "You win!" if won else "The computer wins" if s.computer[obs.winner] else f"{names[obs.winner]} wins"
        return {"title": title, "detail": score, "won": won}
    return {"title": f"{names[obs.winner]} wins!", "detail": score, "won": True}


def _cover(obs, names) -> dict:
    who, other = names[obs.to_act], names[1 - obs.to_act]
    return {"title": f"Pass the screen to {who}.",
            "text": f"{other}, please look away. {who}: click the button to see your cards.",
            "button": f"I'm {who}: show my cards"}


def present(game, viewer: int | None, seating: Seating = Seating(), *, log_lines=None) -> Page:
    """Everything ``viewer``'s page may show of ``game`` now, as a :class:`Page`.

    Args:
        game: a :class:`~tokens_edu.Game` (read through the viewer's
            :class:`~tokens_edu.game.observe.Observer`, and ``move_stack`` and ``phase``; never
            changed).
        viewer: whose eyes the page is for: 0 or 1, or None (a covered hot seat, two computers
            watched, a teacher's view without a seat).
        seating: who sits where and how the page is set (:class:`Seating`; :meth:`Seating.of`
            for a live match, :data:`REPLAY` for a replay). Default: two students, live.
        log_lines: the "What happened" lines the table shows (default: the newest lines of the
            log as the viewer reads it); a replay passes the lines of the move shown, and the
            page's ``log`` is then those lines only.

    Returns:
        the :class:`Page`. Its ``moves`` are the viewer's legal moves (R7-R23, from the engine)
        only when the game goes on, the viewer is to act, no computer plays their seat and no
        cover is up; else none.

    Raises:
        ValueError: ``viewer`` is not 0, 1 or None.
    """
    if viewer not in (0, 1, None):
        raise ValueError(f"viewer must be 0, 1 or None, not {viewer!r}.")
    s = seating
    seat = s.seat if s.seat in (0, 1) else (viewer if viewer in (0, 1) else 0)
    eyes = Observer(viewer)
    obs = eyes.observation(game, seat)  # the one observation of this page
    names = tuple(s.names) if s.names else tuple(short_name(n) for n in obs.names)
    live = s.live and not s.covered
    to_act = obs.to_act
    ended = obs.over or s.capped  # over, or stopped at the move cap
    moves = ()
    if live and not ended and viewer in (0, 1) and to_act == viewer and not s.computer[viewer]:
        moves = tuple(obs.legal_actions)
    prompt = eyes.prompt(game, s.computer) if s.live else None  # a choice in progress
    # a replay passes its lines: the whole log (30,000 lines at the move cap) is not read
    lines = tuple(plain(e.text) for e in eyes.log(game)) if log_lines is None else tuple(
        plain(str(t)) for t in log_lines)
    hand_names = [c.name for c in obs.hand] if viewer in (0, 1) else []
    readable = tuple(sorted(dict.fromkeys(hand_names + [b.card.name for b in obs.board])))
    return Page(
        game=game, viewer=viewer, seat=seat, names=names, obs=obs, moves=moves, prompt=prompt,
        status=_status(obs, viewer, s, names) if s.live else "",
        step=("" if not s.live else f"Stopped after {len(game.move_stack):,} moves." if ended and not obs.over
              else _step(game, obs, moves, names)),
        banner=_banner(obs, s, names) if s.live else None,
        cover=_cover(obs, names) if s.live and s.covered and not ended else None,
        log=lines, highlight=eyes.highlight(s.last_moves), readable=readable,
        computer_to_act=not ended and to_act is not None and bool(s.computer[to_act]),
        seating=s, log_shown=tuple(log_lines) if log_lines is not None else None)
