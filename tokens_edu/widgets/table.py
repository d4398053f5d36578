"""The card table: a game position drawn as cards on a table (an anywidget custom widget).

Two parts:

- :func:`table_state` turns one position, as one player may see it, into a small JSON-able
  dict: both sides (Tokens, hand size, deck and discard piles, Training Set as face-down cards),
  the Systems and Tools in play with their card faces, the viewer's own hand, and the viewer's
  legal moves tied to the cards they use and aim at. It reads only ``game.observation(viewer)``
  and the public log, so nothing the viewer may not see is in it. No widgets: a replay or a
  test can call it on any game.
- :class:`CardTable` is the widget that draws such a dict in the browser (``static/table.js``
  and ``static/table.css``, shipped inside the package; no CDN). A student clicks a card to see
  its moves, clicks a move, and for a move that needs a target clicks the target card; Escape
  cancels. Every card and move is a real button with a label that reads the move, so Tab,
  Enter and screen readers work, and "All my moves" lists every move as a button. For the
  mouse and touch, a playable card also carries its moves as one-click buttons ("Task",
  "Train", "Deploy"; "Audit…" then asks for the target card), so most moves are one click.

The browser tells the kernel what was clicked with small messages (``{"type": "move", "text":
..., "v": version}``, ``"step"``, ``"undo"``, ``"pause"``, ``"speed"``, ``"reveal"``,
``"again"``, ``"read"``); :class:`~tokens_edu.widgets.GameView` answers them. The widget's
synced state is only ``state`` (the dict above), ``palette`` (card colors) and ``pictures``
(every Alpha Set card's picture, the same for every game: it tells nothing hidden).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

import anywidget
import traitlets

from ..cards import FALLBACK_ICON, card_picture, load_cards
from ..render import COLOR_STYLES, RARITY_NAMES

__all__ = ["CardTable", "table_state", "card_face", "move_label", "WIN_TOKENS"]

log = logging.getLogger(__name__)

_STATIC = Path(__file__).resolve().parent / "static"

#: Tokens needed to win (R25).
WIN_TOKENS = 15
#: How many of the newest log lines the table shows ("What happened").
LOG_LINES = 6

_NUMBER = re.compile(r"\s*#\d+$")
_RULE_REF = re.compile(r"\s*\((?:R\d+(?:\s*[-–,]\s*R?\d+)*)\)")

#: The verb on a move's button, per action kind (the card is the one clicked).
VERBS = {
    "train": "Train", "deploy": "Deploy", "task": "Run a Task", "audit": "Audit",
    "use": "Use", "end": "End turn", "keep": "Keep this hand", "mulligan": "New hand",
    "order": "Go", "choose": "Choose",
}
#: One short sentence per kind, read by screen readers and shown as a tooltip. No rule numbers.
HINTS = {
    "order": "Decide who takes the first turn.",
    "keep": "Keep this opening hand.",
    "mulligan": "Shuffle this hand away and draw a new one of the same size, once.",
    "choose": "Make this choice for the card in play.",
    "train": "Put this card face-down in your Training Set. Once per turn.",
    "deploy": "Pay Data and put this card into play.",
    "task": "Turn this System sideways and score its Tokens.",
    "audit": "Both Systems put Flags on each other, equal to their CAP.",
    "use": "Use this Tool's ability.",
    "end": "Finish your turn. Your opponent goes next.",
}


def plain(text: object) -> str:
    """``text`` without rule numbers such as "(R8)" (students read the plain words only)."""
    return _RULE_REF.sub("", "" if text is None else str(text))


def card_face(card) -> dict:
    """The printed facts of a card that the table draws (all public: they are on the card).

    Args:
        card: a :class:`~tokens_edu.cards.Card`.

    Returns:
        dict with ``name, color, type, cost, trainable, tokens, cap, tru, keywords, legacy,
        rarity, rules, icon`` (``rules``: the ability text, ``{E}`` meaning "turn sideways";
        ``icon``: the name of its picture in :attr:`CardTable.pictures`).
    """
    return {
        "name": card.name, "color": card.color, "type": card.type, "cost": int(card.cost),
        "trainable": bool(card.trainable), "tokens": int(card.tokens or 0) if card.is_system else None,
        "cap": card.cap if card.is_system else None, "tru": card.tru if card.is_system else None,
        "keywords": [str(k) for k in (card.keywords or ())], "legacy": bool(card.legacy),
        "rarity": RARITY_NAMES.get(card.rarity, card.rarity), "rules": card.rules_text or "",
        "icon": card.icon or FALLBACK_ICON,
    }


@lru_cache(maxsize=1)
def _alpha_pictures() -> tuple[tuple[str, str], ...]:
    """Every Alpha Set card's picture by icon name, inked ``currentColor`` (the page colors it)."""
    pictures: dict[str, str] = {}
    for card in load_cards().cards():
        pictures.setdefault(card.icon or FALLBACK_ICON, card_picture(card, "currentColor"))
    return tuple(pictures.items())


def move_label(action) -> str:
    """The short words on a move's button next to its card: "Run a Task", "Audit", "Deploy
    (pay with Supervised Learning)", "Keep this hand", "New hand" (the mulligan), "Go first"."""
    kind = getattr(action, "kind", "")
    if kind == "order":
        return f"Go {action.choice}"
    if kind == "choose":
        return f"Choose {action.choice}"
    if kind == "deploy" and getattr(action, "via", None):
        return f"Deploy (Big Data: turn {action.via} sideways to pay)"
    return VERBS.get(kind, str(action))


def move_text_for_screen(action) -> str:
    """The words a student reads for a move: the action text, with "mulligan" said as "new hand"."""
    text = str(action)
    return "new hand" if text == "mulligan" else text  # Action.parse reads "new hand" too


def table_state(game, viewer: int | None, *, seat: int | None = None, moves: Iterable = (),
                highlight: Iterable[str] = (), prompt: str | None = None, names: tuple | None = None,
                log_lines: Iterable[str] | None = None) -> dict:
    """One position as ``viewer`` may see it, as a JSON-able dict for :class:`CardTable`.

    Args:
        game: a :class:`~tokens_edu.Game` (read with ``observation`` and ``log`` only).
        viewer: whose hand is shown (0/1), or None (a covered hot seat: no hand at all).
        seat: the side drawn at the bottom (default: ``viewer``, else 0).
        moves: the viewer's moves to offer (Actions from ``legal_actions()``; empty when it is
            not their decision).
        highlight: board labels to mark (the computer's last moves), and ``"ts:<p>"`` to mark
            player p's Training Set (a face-down Train: never a card's name).
        prompt: the decision in progress as the viewer may read it (see
            :meth:`tokens_edu.match.Match.prompt`); never the other player's hidden prompt.
        names: the two names to show (default: the game's).
        log_lines: the "What happened" lines (default: the newest lines of ``game.log``).

    Returns:
        dict: ``seat``, ``you``, ``sides`` (top first: ``p, name, you, tokens, hand, deck,
        discard`` (faces: discard piles are public), ``ts_ready, ts_total, ts_hl, acting, turn``),
        ``board`` (``id, owner, face, cap, tru, flags, sideways, new, can_act, no_task,
        no_audit, lost, hl``), ``hand`` (the viewer's faces), ``moves`` (``t`` text, ``k``
        kind, ``c`` the card it uses: a board id or ``"hand:<name>"``, ``x`` the target board
        id or None, ``label``, ``hint``), ``prompt``, ``log``, ``over``, ``winner``.
    """
    bottom = seat if seat in (0, 1) else (viewer if viewer in (0, 1) else 0)
    obs = game.observation(viewer if viewer in (0, 1) else bottom)
    names = tuple(names or obs.names)
    board = []
    labels = set()
    hl = set(highlight)
    for b in obs.board:
        labels.add(b.label)
        board.append({
            "id": b.label, "owner": b.owner, "face": card_face(b.card), "cap": b.cap, "tru": b.tru,
            "flags": int(b.flags), "sideways": bool(b.sideways), "new": bool(b.new),
            "can_act": bool(b.can_act), "no_task": bool(b.no_task), "no_audit": bool(b.no_audit),
            "lost": bool(b.abilities_lost), "hl": b.label in hl,
        })
    hand = [card_face(c) for c in obs.hand] if viewer in (0, 1) else []
    hand_names = {c["name"] for c in hand}
    offered = []
    for a in moves:
        kind = a.kind
        subject = None
        if kind in ("train", "deploy") and a.card:
            name = _NUMBER.sub("", a.card)
            subject = f"hand:{name}" if name in hand_names else None
        elif kind in ("task", "audit", "use") and a.card in labels:
            subject = a.card
        target = a.target if a.target in labels else None
        offered.append({"t": str(a), "k": kind, "c": subject, "x": target, "label": move_label(a),
                        "screen": move_text_for_screen(a), "hint": HINTS.get(kind, ""),
                        "xname": a.target if a.target and target is None else None})
    sides = []
    for p in (1 - bottom, bottom):
        sides.append({
            "p": p, "name": str(names[p]), "you": viewer is not None and p == viewer,
            "tokens": int(obs.tokens[p]), "hand": int(obs.hand_sizes[p]), "deck": int(obs.deck_sizes[p]),
            "discard": [card_face(c) for c in obs.discards[p]],
            "ts_ready": int(obs.data_ready[p]), "ts_total": int(obs.training_set[p]),
            "acting": (not obs.over) and obs.to_act == p, "turn": (not obs.over) and obs.active == p,
            "ts_hl": f"ts:{p}" in hl,
        })
    if log_lines is None:
        log = game.log_for(viewer) if viewer in (0, 1) else game.log
        log_lines = [plain(e.text) for e in list(log)[-LOG_LINES:]]
    return {
        "seat": bottom, "you": viewer if viewer in (0, 1) else None, "sides": sides, "board": board,
        "hand": hand, "moves": offered, "prompt": plain(prompt) if prompt else None,
        "log": list(log_lines)[-LOG_LINES:], "over": bool(obs.over), "winner": obs.winner,
        "turn": int(obs.turn), "win": WIN_TOKENS,
    }


class CardTable(anywidget.AnyWidget):
    """The card table widget: draws a :func:`table_state` dict plus the view's controls.

    Traits (synced to the browser, so they hold only what the viewer may see):
        state: the dict the page draws (see :func:`table_state`; :class:`GameView` adds
            ``v`` (a version number that grows with every answer), ``status``, ``step``,
            ``note``, ``banner``, ``cover``, ``bot``, ``autoplay``, ``paused``, ``delay``,
            ``undo``, ``title``).
        palette: card colors per card color (from :data:`tokens_edu.render.COLOR_STYLES`).
        pictures: each card picture by icon name (a face's ``icon``), an ``<svg>`` string from
            :func:`tokens_edu.card_picture` inked ``currentColor``: the Alpha Set's pictures, sent
            once (about 40 kB of JSON). A face whose icon is not in it is drawn without a picture.

    Messages from the page go to the callables in :attr:`handlers` (one per message type);
    a handler that raises is logged and never breaks the widget.

    CSS classes in the page (stable, for tests and teachers' stylesheets): ``tokens-table``
    (the whole table), ``tt-side-top`` / ``tt-side-bottom``, ``tt-board``, ``tt-hand``,
    ``tt-card`` (every card; ``data-id`` holds its board label or ``hand:<name>``), ``tt-pic``
    (a card's picture),
    ``tt-playable``, ``tt-target``, ``tt-sideways``, ``tt-hl``, ``tt-slot`` (a playable card
    with its one-click buttons), ``tt-quick-btn`` and ``tt-quick-<kind>`` (those buttons; a
    move without a choice has ``data-quick`` = the move, ``tt-quick-aim`` asks for a target,
    ``tt-quick-more`` opens the card's moves), ``tt-panel`` (the moves beside
    the table), ``tokens-action`` (every move button; its text is the move), ``tt-movelist``,
    ``tokens-next``, ``tokens-undo``, ``tokens-pause``, ``tokens-reveal``, ``tokens-again``,
    ``tt-banner``, ``tt-cover``, ``tokens-status``, ``tokens-tick`` (hidden; the state's
    version once the page has drawn it).
    """

    _esm = _STATIC / "table.js"
    _css = _STATIC / "table.css"
    state = traitlets.Dict().tag(sync=True)
    palette = traitlets.Dict().tag(sync=True)
    pictures = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_class("tokens-card-table")
        self.palette = {k: dict(v) for k, v in COLOR_STYLES.items()}
        self.pictures = dict(_alpha_pictures())
        self.handlers: dict[str, Callable[[dict], None]] = {}
        self.on_msg(self._on_page_msg)

    def _on_page_msg(self, _widget, content, _buffers=None) -> None:
        if not isinstance(content, dict):
            return
        handler = self.handlers.get(str(content.get("type", "")))
        if handler is None:
            log.info("CardTable: no handler for %r", content.get("type"))
            return
        handler(content)
