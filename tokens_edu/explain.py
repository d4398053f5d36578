"""Why an action is not legal: plain-words reasons that name the ruling (R1-R25).

:func:`why_illegal` is what :meth:`Game.apply` raises and :meth:`Game.explain` returns for an
action that is not among :meth:`Game.legal_actions`. It reads the game only; it never changes it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .actions import Action, normalize
from .cards import load_cards
from .effects import TARGET_KINDS, effect_of
from .errors import IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["why_illegal"]


def _err(msg: str, text: str, rule: str | None) -> IllegalAction:
    return IllegalAction(msg, action=text, rule=rule)


def _find(g: "Game", label: str, iids: list[int], viewer: int) -> int | None:
    key = normalize(label)
    for i in iids:
        if normalize(g._label(i, viewer)) == key:
            return i
    return None


def _card_name_problem(label: str, text: str) -> IllegalAction | None:
    base = label.split("#")[0].strip()
    pool = load_cards()
    if base not in pool:
        return _err(pool.unknown_message(base), text, None)
    return None


_NUMBER = re.compile(r" #\d+")


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _same_but_number(g: "Game", text: str) -> list[str]:
    """Legal action texts that differ from ``text`` only in ``#2``-style numbers."""
    key = _NUMBER.sub("", normalize(text))
    return [str(a) for a in g.legal_actions() if _NUMBER.sub("", normalize(str(a))) == key]


def why_illegal(g: "Game", text) -> IllegalAction:
    """The :class:`IllegalAction` that explains why ``text`` cannot be played in ``g`` now.

    Args:
        g: the game (not changed). text: an action text (or anything a student passed).

    Returns:
        IllegalAction with a message for ages 11-14 and ``.rule`` ("R14") where a ruling
        forbids it (``None`` when the text is not an action at all).
    """
    if not isinstance(text, str):
        return _err(f"An action must be text like 'end turn' or an Action, not {type(text).__name__}.",
                    type(text).__name__, None)
    try:
        a = Action.parse(text)
    except IllegalAction as e:
        return e
    s = g._s
    if s.over:
        return _err("The game is over: no more actions.", text, "R25")
    who = g._names[g.to_act]
    d = s.decision
    if d is not None:
        options = ", ".join(str(x) for x in g.legal_actions())
        if d.source == "_order":
            return _err(f"First, {who} (who won the die roll) decides: {options}.", text, "R2")
        if d.source == "_mulligan":
            return _err(f"First, {who} decides to keep their hand or take a new one: {options}.", text, "R3")
        if a.kind == "choose":
            return _err(f"'{a.choice}' is not one of the options. {_sentence(d.prompt)} Options: {options}.", text, "R23")
        return _err(f"First finish the choice. {_sentence(d.prompt)} Options: {options}.", text,
                    "R16" if d.source == "_model_card" else "R23")
    if a.kind in ("order", "keep", "mulligan"):
        return _err("The game has already started: that choice is made before the first turn.", text, "R3")
    if a.kind == "choose":
        return _err("There is nothing to choose right now.", text, "R23")
    close = _same_but_number(g, text)
    if close:
        shown = " or ".join(f"'{c}'" for c in close[:3])
        return _err(f"Two cards in play have that name, so they are numbered (#2 is the second one in the "
                    f"board table). Did you mean {shown}?", text, None)
    p = s.active
    pl = s.players[p]
    cards = g._cards
    hand_named = lambda name: next((i for i in pl.hand if normalize(cards[i].name) == normalize(name.split("#")[0])), None)  # noqa: E731

    if a.kind == "train":
        iid = hand_named(a.card)
        if iid is None:
            return _card_name_problem(a.card, text) or _err(f"{a.card} is not in your hand.", text, "R8")
        card = cards[iid]
        if not card.trainable:
            return _err(f"{card.name} has no diamond around its cost, so it can't be trained.", text, "R8")
        return _err("You have already trained this turn (Train is once per turn).", text, "R7")

    if a.kind == "deploy":
        iid = hand_named(a.card)
        if iid is None:
            return _card_name_problem(a.card, text) or _err(f"{a.card} is not in your hand.", text, "R9")
        card = cards[iid]
        eff = effect_of(card.name)
        data = g._data(p)
        if a.via is not None:
            if card.big_data is None:
                return _err(f"{card.name} has no Big Data: pay its cost in Data.", text, "R11")
            payer = _find(g, a.via, [x.iid for x in pl.systems], p)
            if payer is None:
                return _err(f"You have no System called {a.via} in play to pay with Big Data.", text, "R11")
            x = g._perm(payer)
            if cards[payer].cost < card.big_data:
                return _err(f"Big Data {card.big_data} needs a System with Cost {card.big_data} or more; "
                            f"{cards[payer].name} costs {cards[payer].cost}.", text, "R11")
            if not g._can_act(p, x):
                return _err(f"{cards[payer].name} can't act right now (it is sideways or new), so it can't pay Big Data.", text, "R11")
        else:
            cost = g._cost(p, card)
            if cost > data:
                tax = cost - card.cost
                n = len(pl.systems) + 1
                nth = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
                why = f" That is {card.cost}, plus {tax} because it would be your {nth} System." if tax else ""
                payers = g._big_data_payers(p, card) if card.big_data is not None else []
                alt = (f" You could pay with Big Data instead: 'deploy {card.name} with Big Data "
                       f"{g._label(payers[0].iid, p)}'.") if payers else ""
                return _err(f"{card.name} costs {cost} Data, but you have {data} ready Data.{why}{alt}", text,
                            "R10" if tax else "R11" if payers else "R9")
        if card.is_tool:
            if a.target is not None:
                return _err(f"A Tool is deployed without a target: type 'deploy {card.name}'. "
                            f"You choose what it aims at when you use it.", text, "R17")
        elif eff.target is None:
            if a.target is not None:
                return _err(f"{card.name} does not take a target: type 'deploy {card.name}'.", text, "R18")
        else:
            legal = g._targets(p, eff.target, from_action=card.is_action)
            if a.target is None:
                if not legal:
                    return _err(f"{card.name} needs a target ({TARGET_KINDS[eff.target]}), and there is none.", text, "R18")
                return _err(f"{card.name} needs a target: 'deploy {card.name} -> ...' ({TARGET_KINDS[eff.target]}).", text, "R18")
            return _target_problem(g, p, card, eff.target, a.target, text, from_action=True)
        return _err(f"'{text}' is not legal right now.", text, None)

    if a.kind in ("task", "audit"):
        mine = _find(g, a.card, [x.iid for x in pl.systems], p)
        if mine is None:
            theirs = _find(g, a.card, g._systems(1 - p), p)
            if theirs is not None:
                return _err(f"{a.card} is not your System: you can only use your own Systems.", text, "R13" if a.kind == "task" else "R14")
            return _card_name_problem(a.card, text) or _err(f"You have no System called {a.card} in play.", text, "R12")
        x = g._perm(mine)
        name = g._label(mine, p)
        if x.exerted:
            return _err(f"{name} is sideways: it has already acted (or paid) this turn. It comes back at your next Reboot.", text, "R12")
        if not g._can_act(p, x):
            return _err(f"{name} is new: a System must wait until your next turn to act, unless it is Fast-Tracked.", text, "R12")
        if a.kind == "task":
            if g._task_barred(p, x):
                return _err(f"{name} can't Run a Task this turn (a card stopped it). It may still Audit.", text, "R19")
            return _err(f"'{text}' is not legal right now.", text, None)
        target = _find(g, a.target, g._systems(1 - p), p)
        if target is None:
            if _find(g, a.target, g._systems(p), p) is not None:
                return _err(f"{a.target} is your own System: you Audit your opponent's Systems.", text, "R14")
            return _card_name_problem(a.target, text) or _err(f"Your opponent has no System called {a.target} in play.", text, "R14")
        t = g._perm(target)
        tname = g._label(target, p)
        if not t.exerted:
            return _err(f"{tname} is upright: you can only Audit a System that is sideways.", text, "R14")
        if t.no_audit_turn == s.turn:
            return _err(f"{tname} can't be Audited this turn (Regulation Debate).", text, "R14")
        if g._kw(t, "Highly Trusted") and cards[mine].tru < cards[target].tru:
            return _err(f"{tname} is Highly Trusted, with Trust {cards[target].tru}. {name} has less Trust "
                        f"({cards[mine].tru}), so it can't Audit it.", text, "R14")
        return _err(f"'{text}' is not legal right now.", text, None)

    if a.kind == "use":
        tool = _find(g, a.card, [x.iid for x in pl.tools], p)
        if tool is None:
            in_hand = hand_named(a.card)
            system = _find(g, a.card, [x.iid for x in pl.systems], p)
            if system is not None or (in_hand is not None and not cards[in_hand].is_tool):
                name = cards[system if system is not None else in_hand].name
                kind = cards[system if system is not None else in_hand].type
                return _err(f"{name} is a{'n' if kind == 'Action' else ''} {kind}: only Tools are used. "
                            + ("Systems Run Tasks and Audits." if kind == "System" else "Actions are deployed."), text, "R17")
            if in_hand is not None:
                return _err(f"{a.card} is in your hand: deploy it first, then use it.", text, "R17")
            return _card_name_problem(a.card, text) or _err(f"You have no Tool called {a.card} in play.", text, "R17")
        card = cards[tool]
        eff = effect_of(card.name)
        if not eff.usable or eff.resolve is None:
            return _err(f"{card.name} has no {{E}} ability to use: it works by itself while in play.", text, "R17")
        if g._perm(tool).exerted:
            return _err(f"{card.name} is sideways: a Tool's {{E}} ability is once per turn.", text, "R17")
        if eff.target is None:
            if a.target is not None:
                return _err(f"{card.name} does not take a target: type 'use {card.name}'.", text, "R17")
        else:
            if a.target is None:
                if not g._targets(p, eff.target, from_action=False):
                    return _err(f"{card.name} needs a target ({TARGET_KINDS[eff.target]}), and there is none.", text, "R17")
                return _err(f"{card.name} needs a target: 'use {card.name} -> ...' ({TARGET_KINDS[eff.target]}).", text, "R17")
            return _target_problem(g, p, card, eff.target, a.target, text, from_action=False)
        return _err(f"'{text}' is not legal right now.", text, None)
    return _err(f"'{text}' is not legal right now.", text, None)


def _target_problem(g: "Game", p: int, card, kind: str, target: str, text: str, from_action: bool) -> IllegalAction:
    rule = "R18" if from_action else "R17"
    if kind == "own_discard_action":
        names = [g._cards[i].name for i in g._s.players[p].discard if g._cards[i].is_action]
        if normalize(target) not in {normalize(n) for n in names}:
            return _err(f"{card.name} needs an Action card from your discard pile, and {target} is not one there.", text, rule)
        return _err(f"'{text}' is not legal right now.", text, None)
    everything = [x.iid for o in (p, 1 - p) for x in g._s.players[o].systems + g._s.players[o].tools]
    iid = _find(g, target, everything, p)
    if iid is None:
        return _card_name_problem(target, text) or _err(f"There is no {target} in play to aim at.", text, rule)
    tcard = g._cards[iid]
    if kind == "any_tool" and not tcard.is_tool:
        return _err(f"{card.name} aims at a Tool, and {tcard.name} is a {tcard.type}.", text, rule)
    if kind != "any_tool" and not tcard.is_system:
        return _err(f"{card.name} aims at a System, and {tcard.name} is a {tcard.type}.", text, rule)
    if kind == "opp_system" and g._owner[iid] == p:
        return _err(f"{card.name} aims at a System your opponent controls, not your own.", text, rule)
    if kind == "own_new_system" and (g._owner[iid] != p or g._perm(iid).entered != g._s.turn):
        return _err(f"{card.name} aims at a System you deployed this turn.", text, rule)
    if kind == "hot_system":
        return _err(f"{card.name} aims at a System whose Capability is greater than its Trust; "
                    f"{tcard.name} has CAP {g._cap(g._perm(iid))} and TRU {tcard.tru}.", text, rule)
    if from_action and g._owner[iid] != p and g._shielded(g._owner[iid]):
        return _err(f"Privacy Shield protects {g._names[g._owner[iid]]}'s Systems from your Action cards.", text, "R18")
    return _err(f"'{text}' is not legal right now.", text, None)
