"""Notation: the engine's int moves as :class:`~tokens_edu.Action` values (each carrying its int
move) and their texts.

A card in play is named by its card name, with ``#2``, ``#3``... for the second and third of
the same name, counted in board order with the viewing player's cards first (API.md). Choices
read as in the project's API: ``go first``, ``keep``, ``choose Chatbot``, ``choose bottom``,
``choose order Sensor, Chatbot``, ``choose mode b``, ``choose 2 Flags``, ``choose yes``.
"""

from __future__ import annotations

from ..engine import moves as mv
from ..engine.rules import copy_number
from ..engine.state import MULLIGAN, ORDER, Decision, State
from .actions import Action

__all__ = ["label", "labels", "option_label", "option_labels", "action_of", "actions_of"]


def label(s: State, x: int, viewer: int) -> str:
    """Card x's name as action texts write it for ``viewer`` (``"Chatbot #2"`` for a second copy)."""
    name = s.card[x].name
    k = copy_number(s, x, viewer)
    return name if k == 1 else f"{name} #{k}"


def labels(s: State, viewer: int) -> dict[int, str]:
    """Card id -> label (see :func:`label`) for every card in play, as ``viewer`` names them."""
    out = {}
    seen: dict[int, int] = {}
    card, name_id = s.card, s.name_id
    for o in (viewer, 1 - viewer):
        for zone in (s.systems[o], s.tools[o]):
            for x in zone:
                k = seen.get(name_id[x], 0) + 1
                seen[name_id[x]] = k
                out[x] = card[x].name if k == 1 else f"{card[x].name} #{k}"
    return out


def option_label(s: State, kind: str, value, k: int = 0) -> str:
    """How one option of a decision reads. ``kind`` is the decision's ``labels``; ``k`` is the
    copy number of an ``in-play`` option (from :func:`label`) or a ``pick`` among equal names."""
    if kind == "yes-no":
        return "yes" if value else "no"
    if kind == "first-second":
        return "first" if value == 0 else "second"
    if kind == "keep-mulligan":
        return "mulligan" if value else "keep"
    if kind == "mode":
        return f"mode {value}"
    if kind == "top-bottom":
        return value
    if kind == "flags":
        return f"{value} Flag" if value == 1 else f"{value} Flags"
    if kind == "order":
        return f"order {s.card[value[0]].name}, {s.card[value[1]].name}"
    name = s.card[value].name  # hand, pick, in-play
    return name if k <= 1 else f"{name} #{k}"


def option_labels(s: State, d: Decision) -> list[str]:
    """The labels of decision d's options, in order (two equal names seen in a deck are
    ``Name`` and ``Name #2``: different picks, R22)."""
    if d.labels == "pick":
        seen: dict[int, int] = {}
        out = []
        for x in d.options:
            k = seen.get(s.name_id[x], 0) + 1
            seen[s.name_id[x]] = k
            out.append(option_label(s, "pick", x, k))
        return out
    if d.labels == "in-play":
        return [label(s, x, d.player) for x in d.options]
    return [option_label(s, d.labels, value) for value in d.options]


def action_of(s: State, move: int, names: dict[int, str] | None = None, choices: list[str] | None = None) -> Action:
    """The :class:`Action` of a legal move of the player to act, carrying the move itself, who
    makes it and (for a choice) whether it is secret (R22).

    Args:
        s: the position. move: one of its legal moves.
        names: :func:`labels` for the player to act (computed if None).
        choices: :func:`option_labels` of the decision in progress (computed if None).
    """
    kind, a, b, c = mv.decode(move)
    if kind == mv.CHOOSE:
        d = s.decision
        text = (choices if choices is not None else option_labels(s, d))[a]
        if d.source == ORDER:
            return Action("order", choice=text, move=move, player=d.player)
        if d.source == MULLIGAN:
            return Action(text, move=move, player=d.player)
        return Action("choose", card=text if d.labels in ("hand", "pick", "in-play") else None, choice=text,
                      move=move, player=d.player, secret=d.secret)
    p = s.active
    if kind == mv.END:
        return Action("end", move=move, player=p)
    if kind == mv.TRAIN:
        return Action("train", card=s.card[a].name, move=move, player=p)
    if names is None:
        names = labels(s, p)
    if kind == mv.DEPLOY:
        return Action("deploy", card=s.card[a].name, target=None if b < 0 else names.get(b, s.card[b].name),
                      via=None if c < 0 else names[c], move=move, player=p)
    if kind == mv.TASK:
        return Action("task", card=names[a], move=move, player=p)
    if kind == mv.AUDIT:
        return Action("audit", card=names[a], target=names[b], move=move, player=p)
    return Action("use", card=names[a], target=None if b < 0 else names.get(b, s.card[b].name), move=move, player=p)


def actions_of(s: State, moves: list[int]) -> list[Action]:
    """The :class:`Action` of each of ``moves`` (legal moves of the position), in order."""
    if not moves:
        return []
    if s.decision is not None:
        choices = option_labels(s, s.decision)
        return [action_of(s, m, choices=choices) for m in moves]
    names = labels(s, s.active)
    return [action_of(s, m, names) for m in moves]
