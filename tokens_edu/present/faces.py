"""The card table's parts, as JSON-able dicts: card faces, the two sides, the cards in play,
the moves offered (each tied to the card it uses and the card it aims at), and the words on
move buttons. :mod:`tokens_edu.present.page` puts them together into what a page is sent; they
read only an :class:`~tokens_edu.game.observe.Observation` (what one player may see).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from ..content.cards import FALLBACK_ICON, card_picture, load_cards
from .render import RARITY_NAMES

__all__ = ["card_face", "table_pictures", "move_label", "move_text_for_screen", "plain", "board_state", "sides_state",
           "moves_state", "WIN_TOKENS", "LOG_LINES", "VERBS", "HINTS"]

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
        card: a :class:`~tokens_edu.content.cards.Card`.

    Returns:
        dict with ``name, color, type, cost, trainable, tokens, cap, tru, keywords, legacy,
        rarity, rules, icon`` (``rules``: the ability text, ``{E}`` meaning "turn sideways";
        ``icon``: the name of its picture in :func:`table_pictures`).
    """
    return {
        "name": card.name, "color": card.color, "type": card.type, "cost": int(card.cost),
        "trainable": bool(card.trainable), "tokens": int(card.tokens or 0) if card.is_system else None,
        "cap": card.cap if card.is_system else None, "tru": card.tru if card.is_system else None,
        "keywords": [str(k) for k in (card.keywords or ())], "legacy": bool(card.legacy),
        "rarity": RARITY_NAMES.get(card.rarity, card.rarity), "rules": card.rules_text or "",
        "icon": card.icon or FALLBACK_ICON,
    }


def table_pictures() -> dict[str, str]:
    """Every Alpha Set card's picture by icon name (a face's ``icon``), for the card table.

    Returns:
        dict: icon name -> an ``<svg>`` string from :func:`tokens_edu.card_picture`, inked
        ``currentColor`` so the page colors it with the face's color. 70 pictures, about 40 kB
        as JSON; the same for every game (the set is public), so it tells nothing hidden.
    """
    return dict(_alpha_pictures())


@lru_cache(maxsize=1)
def _alpha_pictures() -> tuple[tuple[str, str], ...]:
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


def board_state(obs, highlight: Iterable[str] = ()) -> list[dict]:
    """The Systems and Tools in play, player 0's first: ``id`` (the label in action texts),
    ``owner``, ``face`` (:func:`card_face`), ``cap``, ``tru``, ``flags``, ``sideways``, ``new``,
    ``can_act``, ``no_task``, ``no_audit``, ``lost`` (abilities lost) and ``hl`` (lit up: its
    label is in ``highlight``). All public: cards in play are face-up."""
    hl = set(highlight)
    return [{
        "id": b.label, "owner": b.owner, "face": card_face(b.card), "cap": b.cap, "tru": b.tru,
        "flags": int(b.flags), "sideways": bool(b.sideways), "new": bool(b.new),
        "can_act": bool(b.can_act), "no_task": bool(b.no_task), "no_audit": bool(b.no_audit),
        "lost": bool(b.abilities_lost), "hl": b.label in hl,
    } for b in obs.board]


def sides_state(obs, bottom: int, viewer: int | None, names, highlight: Iterable[str] = ()) -> list[dict]:
    """Both sides of the table, top first (``bottom`` drawn last): ``p``, ``name``, ``you``,
    ``tokens``, ``hand`` and ``deck`` (counts only), ``discard`` (faces: discard piles are
    public), ``ts_ready``, ``ts_total`` (the Training Set, face-down), ``acting`` (decides now),
    ``turn`` (whose turn) and ``ts_hl`` (its Training Set lit up: ``"ts:<p>"`` in ``highlight``)."""
    hl = set(highlight)
    return [{
        "p": p, "name": str(names[p]), "you": viewer is not None and p == viewer,
        "tokens": int(obs.tokens[p]), "hand": int(obs.hand_sizes[p]), "deck": int(obs.deck_sizes[p]),
        "discard": [card_face(c) for c in obs.discards[p]],
        "ts_ready": int(obs.data_ready[p]), "ts_total": int(obs.training_set[p]),
        "acting": (not obs.over) and obs.to_act == p, "turn": (not obs.over) and obs.active == p,
        "ts_hl": f"ts:{p}" in hl,
    } for p in (1 - bottom, bottom)]


def moves_state(moves: Iterable, hand_names: set, labels: set) -> list[dict]:
    """The moves offered, in order (the page sends a move back by its index in this list):
    ``t`` (the action text), ``k`` (kind), ``c`` (the card it uses: a board label or
    ``"hand:<name>"``, None for a move tied to no card), ``x`` (the target's board label or
    None), ``label`` (:func:`move_label`), ``screen`` (:func:`move_text_for_screen`), ``hint``
    (:data:`HINTS`) and ``xname`` (a target named but not on the board, e.g. "bottom")."""
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
    return offered
