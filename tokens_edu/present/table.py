"""The card table's state for one viewer, as a JSON-able dict (:func:`table_state`). The
table's parts and words live in :mod:`.faces`.

New code asks the presenter (:func:`tokens_edu.present.present`) for a :class:`~.page.Page` and
reads ``page.table_state()`` or ``page.state()``; :func:`table_state` is the same thing for a
position seen from a seat with nothing to play (a replay), kept for the code that called it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import _moved
from . import faces as _faces
from .page import Seating, present

__all__ = ["table_state"]

# Old names of this module: the table's parts and words live in .faces (until tokens-edu 0.4.0).
__getattr__ = _moved.moved_names(__name__)


def table_state(game, viewer: int | None, *, seat: int | None = None, moves: Iterable = (),
                highlight: Iterable[str] = (), prompt: str | None = None, names: tuple | None = None,
                log_lines: Iterable[str] | None = None) -> dict:
    """One position as ``viewer`` may see it, as a JSON-able dict for the card table
    (:meth:`tokens_edu.present.Page.table_state` of a replay's page, :func:`present` with
    ``Seating(live=False)``).

    Args:
        game: a :class:`~tokens_edu.Game` (read with ``observation`` and ``log`` only).
        viewer: whose hand is shown (0/1), or None (a covered hot seat: no hand at all).
        seat: the side drawn at the bottom (default: ``viewer``, else 0).
        moves: moves to offer (Actions from ``legal_actions()``); none by default.
        highlight: board labels to mark, and ``"ts:<p>"`` to mark player p's Training Set.
        prompt: a prompt to show (never the other player's hidden prompt); none by default.
        names: the two names to show (default: the game's, cut to 30 characters).
        log_lines: the "What happened" lines (default: the newest lines of the log as the
            viewer reads it).

    Returns:
        dict: ``seat``, ``you``, ``sides`` (top first: ``p, name, you, tokens, hand, deck,
        discard`` (faces: discard piles are public), ``ts_ready, ts_total, ts_hl, acting, turn``),
        ``board`` (``id, owner, face, cap, tru, flags, sideways, new, can_act, no_task,
        no_audit, lost, hl``), ``hand`` (the viewer's faces), ``moves`` (``t`` text, ``k``
        kind, ``c`` the card it uses: a board id or ``"hand:<name>"``, ``x`` the target board
        id or None, ``label``, ``hint``...), ``prompt``, ``log``, ``over``, ``winner``,
        ``turn``, ``win`` (Tokens to win, R25).

    Raises:
        ValueError: ``viewer`` is not 0, 1 or None.
    """
    page = present(game, viewer, Seating(live=False, seat=seat, names=tuple(names) if names else None),
                   log_lines=log_lines)
    state = page.table_state()
    hl = tuple(highlight)
    if hl:
        state["board"] = _faces.board_state(page.obs, hl)
        state["sides"] = _faces.sides_state(page.obs, page.seat, page.viewer, page.names, hl)
    moves = tuple(moves)
    if moves:
        state["moves"] = _faces.moves_state(moves, {f["name"] for f in state["hand"]}, {b["id"] for b in state["board"]})
    if prompt:
        state["prompt"] = _faces.plain(prompt)
    return state
