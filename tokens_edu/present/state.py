"""The page state sent to the card table, declared (issue 26 part 3): the one seam between the
presenter (Python) and the table's drawing (``tokens_edu/widgets/static/table.js``).

:meth:`~tokens_edu.present.Page.table_state` returns a :class:`TableState` (a replay draws it),
:meth:`~tokens_edu.present.Page.state` a :class:`PageState` (a live page: the table plus its
status, banner, cover and controls). They are ``TypedDict`` types: at run time plain dicts, JSON
as they are (the widget's ``state`` trait), checked by a type checker where they are built, and
``tests/present/test_state_contract.py`` checks both ways: every state the presenter makes has
exactly the declared keys with values of the declared kinds, and the table's JavaScript, drawing
many states in Chromium and clicked through, reads no key that is not declared here.

Everything in these dicts may reach the viewer's browser: it is built from one observation of
the viewer (:mod:`tokens_edu.present.page`), so no other hand and no deck order is in it.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CardFace", "SideState", "BoardCard", "MoveState", "Banner", "Cover", "Note",
           "TableState", "PageState"]


class CardFace(TypedDict):
    """The printed facts of a card (:func:`~tokens_edu.present.faces.card_face`): all public."""

    name: str
    color: str
    type: str  #: "System", "Tool", "Action", "Data", "Training Set"
    cost: int  #: Data to deploy it
    trainable: bool  #: a diamond cost: it can go to the Training Set (R8)
    tokens: int | None  #: a System's Tokens (pips); None for other types
    cap: int | None  #: a System's printed CAP
    tru: int | None  #: a System's printed TRU
    keywords: list[str]
    legacy: bool
    rarity: str
    rules: str  #: the ability text; "{E}" means "turn sideways"
    icon: str  #: the picture's name in the widget's ``pictures``


class SideState(TypedDict):
    """One side of the table (:func:`~tokens_edu.present.faces.sides_state`): counts only for
    hidden zones."""

    p: int  #: the player, 0 or 1
    name: str
    you: bool  #: the viewer's own side
    tokens: int
    hand: int  #: cards in hand (a count)
    deck: int  #: cards in the deck (a count)
    discard: list[CardFace]  #: the discard pile, oldest first (public)
    ts_ready: int  #: Training Set cards upright (Data to spend)
    ts_total: int  #: Training Set cards in all (face-down)
    acting: bool  #: this player decides now
    turn: bool  #: it is this player's turn
    ts_hl: bool  #: the Training Set lit up (the computer just trained)


class BoardCard(TypedDict):
    """A System or Tool in play (:func:`~tokens_edu.present.faces.board_state`)."""

    id: str  #: its board label (as in action texts)
    owner: int
    face: CardFace
    cap: int | None  #: CAP now (a System)
    tru: int | None  #: TRU now (a System)
    flags: int
    sideways: bool
    new: bool  #: came into play this turn
    can_act: bool
    no_task: bool
    no_audit: bool
    lost: bool  #: abilities lost
    hl: bool  #: the computer just used it


class MoveState(TypedDict):
    """A move offered (:func:`~tokens_edu.present.faces.moves_state`); the page sends one back by
    its index in :attr:`TableState.moves`."""

    t: str  #: the action's text
    k: str  #: its kind ("task", "audit", "end"...)
    c: str | None  #: the card it uses: a board label or "hand:<name>"; None: no card
    x: str | None  #: the target's board label
    label: str  #: the words on its button next to the card
    screen: str  #: the words a student reads for it
    hint: str  #: one sentence on what it does
    xname: str | None  #: a target named but not on the board ("bottom")


class Banner(TypedDict):
    """The end-of-game banner."""

    title: str
    detail: str
    won: bool


class Cover(TypedDict):
    """The hot-seat cover (the screen is passed)."""

    title: str
    text: str
    button: str


class Note(TypedDict):
    """The newest message to the student, on the felt."""

    text: str
    kind: str  #: "info" or "error"


class TableState(TypedDict):
    """A position as the card table draws it (:meth:`Page.table_state`; a replay's board)."""

    seat: int  #: the side drawn at the bottom
    you: int | None  #: the viewer's seat; None: nobody's eyes (no hand)
    sides: list[SideState]  #: top first
    board: list[BoardCard]
    hand: list[CardFace]  #: the viewer's hand (empty for nobody's eyes)
    moves: list[MoveState]
    prompt: str | None  #: the choice in progress
    log: list[str]  #: the newest "What happened" lines
    over: bool
    winner: int | None
    turn: int
    win: int  #: Tokens to win (R25)


class _Version(TypedDict, total=False):
    v: int  #: the drawing's version: the page sends it back with every message


class PageState(TableState, _Version):
    """What a live page's card table is sent (:meth:`Page.state`): the table plus the rest."""

    status: str  #: "Your turn", "The computer is playing…", "You win!"
    step: str  #: where the game is ("Turn 5: Ada's turn · 12 moves so far")
    title: str  #: the lesson's short title
    banner: Banner | None
    cover: Cover | None
    bot: bool  #: a computer must decide now
    has_bot: bool  #: a computer plays a seat (the speed menu)
    autoplay: bool
    paused: bool
    delay: int  #: the computer's pause between moves (ms)
    undo: int  #: moves Undo would take back now
    undo_shown: bool
    undo_hint: str
    can_again: bool  #: "Play again" offered at the end
    game: int  #: counts the games put on this table
    scroll: bool  #: bring the table into view (a game started by a click)
    note: Note | None
