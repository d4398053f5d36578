"""Why an action is not legal: plain-words reasons that name the ruling (R1-R25).

:func:`why_illegal` is what :meth:`Game.apply` raises and :meth:`Game.explain` returns for an
action that is not among the legal actions. It finds the reason by asking the same predicates
the move generator uses (:mod:`tokens_edu.engine.rules`), so a rule is written once; this
module only puts each reason into words. It reads the position; it never changes it.
"""

from __future__ import annotations

import re

from ..content.cards import fold_name, load_cards
from ..engine import rules
from ..engine.state import MODEL_CARD, MULLIGAN, ORDER, State
from ..errors import IllegalAction
from .actions import Action, normalize
from .narrate import prompt
from .notation import label

__all__ = ["why_illegal", "TARGET_WORDS"]

#: Each target kind in words (R17, R18).
TARGET_WORDS = {
    "opp_system": "a System your opponent controls",
    "any_system": "a System in play (either side)",
    "any_tool": "a Tool in play (either side)",
    "hot_system": "a System whose Capability is greater than its Trust",
    "own_new_system": "a System you deployed this turn",
    "own_discard_action": "an Action card in your discard pile",
}

_NUMBER = re.compile(r" #\d+")
_VERBS = {  # a bare verb: what it needs, and which legal actions answer it
    "train": ("the name of a card in your hand", "train"),
    "deploy": ("the name of a card in your hand", "deploy"),
    "task": ("the name of one of your Systems", "task"),
    "audit": ("two Systems: one of yours, then an arrow (->) and a sideways System of the other player", "audit"),
    "use": ("the name of one of your Tools", "use"),
    "choose": ("one of the options", "choose"),
}
_WHAT_NOW = {"train": "train a card", "deploy": "deploy a card", "task": "Run a Task",
             "audit": "Run an Audit", "use": "use a Tool", "choose": "choose anything"}


def _err(msg: str, text: str, rule: str | None) -> IllegalAction:
    return IllegalAction(msg, action=text, rule=rule)


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _listing(actions: list[Action], limit: int = 6) -> str:
    shown = [f"'{a}'" for a in actions[:limit]]
    more = f" and {len(actions) - limit} more" if len(actions) > limit else ""
    return ", ".join(shown) + more


class _Reader:
    """One explanation: the position, the players' names, the legal actions."""

    def __init__(self, s: State, names, legal: list[Action], text: str):
        self.s, self.names, self.legal, self.text = s, names, legal, text
        self.p = s.active

    def err(self, msg: str, rule: str | None) -> IllegalAction:
        return _err(msg, self.text, rule)

    def label(self, x: int) -> str:
        return label(self.s, x, self.p)

    def find(self, typed: str, ids: list[int]) -> int:
        """The card among ``ids`` whose label (as the player to act names it) is ``typed``, or -1."""
        key = normalize(typed)
        for x in ids:
            if normalize(label(self.s, x, self.p)) == key:
                return x
        return -1

    def in_hand(self, typed: str) -> int:
        key = fold_name(typed.split("#")[0])
        return next((x for x in self.s.hand[self.p] if fold_name(self.s.card[x].name) == key), -1)

    def unknown(self, typed: str) -> IllegalAction | None:
        """A message when ``typed`` is not a card name at all (with the closest names), else None."""
        base = typed.split("#")[0].strip()
        pool = load_cards()
        if base not in pool:
            return self.err(pool.unknown_message(base), None)
        return None

    # -- reasons in words ------------------------------------------------------------------------
    def act_reason(self, why: tuple, verb: str = "act") -> IllegalAction:
        code = why[0]
        if code == "sideways":
            return self.err(f"{self.label(why[1])} is sideways: it has already acted (or paid) this turn. "
                            "It comes back at your next Reboot.", "R12")
        if code == "new-lost":
            return self.err(f"{self.label(why[1])} is new, and AI Isn't Magic took away its abilities, "
                            "Fast-Tracked too: it must wait until your next turn to act.", "R12")
        if code == "new":
            return self.err(f"{self.label(why[1])} is new: a System must wait until your next turn to act, "
                            "unless it is Fast-Tracked.", "R12")
        if code == "no-task":
            return self.err(f"{self.label(why[1])} can't Run a Task this turn (a card stopped it). "
                            "It may still Audit.", "R19")
        if code == "recall":
            return self.err("Mandatory Recall: none of your Systems can Run a Task this turn. "
                            "They may still Audit.", "R19")
        return self.err(f"'{self.text}' is not legal right now.", None)

    def target_reason(self, card, kind: str, why: tuple, rule: str) -> IllegalAction:
        code, t = why[0], why[1]
        s = self.s
        if code == "not-in-discard":
            return self.err(f"{card.name} needs an Action card from your discard pile, and "
                            f"{s.card[t].name} is not one there.", rule)
        if code == "wrong-type":
            want = "a Tool" if kind == "any_tool" else "a System"
            return self.err(f"{card.name} aims at {want}, and {s.card[t].name} is a {s.card[t].type}.", rule)
        if code == "own":
            return self.err(f"{card.name} aims at a System your opponent controls, not your own.", rule)
        if code == "not-new":
            return self.err(f"{card.name} aims at a System you deployed this turn.", rule)
        if code == "not-hot":
            return self.err(f"{card.name} aims at a System whose Capability is greater than its Trust; "
                            f"{s.card[t].name} has CAP {rules.cap(s, t)} and TRU {s.card[t].tru}.", rule)
        if code == "shielded":
            return self.err(f"Privacy Shield protects {self.names[t]}'s Systems from your Action cards.", "R18")
        return self.err(f"There is no {s.card[t].name} in play to aim at.", rule)

    def no_target(self, card, kind: str, from_action: bool, verb: str) -> IllegalAction:
        """``card`` needs a target and none was typed: say whether there is any, and why not."""
        rule = "R18" if from_action else "R17"
        s, p = self.s, self.p
        if rules.targets(s, p, kind, from_action):
            return self.err(f"{card.name} needs a target: '{verb} {card.name} -> ...' ({TARGET_WORDS[kind]}).", rule)
        if kind in ("opp_system", "any_system", "hot_system") and from_action:
            q = 1 - p
            blocked = [t for t in s.systems[q] if rules.target_problem(s, p, kind, t, from_action) == ("shielded", q)]
            if blocked:
                return self.err(f"{card.name} needs {TARGET_WORDS[kind]}, and Privacy Shield protects "
                                f"{self.names[q]}'s Systems from your Action cards, so there is nothing it may "
                                "aim at now.", "R18")
        return self.err(f"{card.name} needs a target ({TARGET_WORDS[kind]}), and there is none.", rule)


def why_illegal(s: State, names, legal: list[Action], text) -> IllegalAction:
    """The :class:`IllegalAction` that explains why ``text`` cannot be played now.

    Args:
        s: the position (not changed). names: the two players' names. legal: the legal actions
            of the player to act. text: an action text (or anything a student passed).

    Returns:
        IllegalAction with a message for ages 11-14 and ``.rule`` ("R14") where a ruling
        forbids it (``None`` when the text is not an action at all).
    """
    if not isinstance(text, str):
        return _err(f"An action must be text like 'end turn' or an Action, not {type(text).__name__}.",
                    type(text).__name__, None)
    r = _Reader(s, names, legal, text)
    if s.over:
        return r.err("The game is over: no more actions.", "R25")
    d = s.decision
    bare = normalize(text)
    if d is None and bare in _VERBS:
        return _bare_verb(r, bare)
    try:
        a = Action.parse(text)
    except IllegalAction as e:
        return e
    who = names[d.player] if d is not None else names[s.active]
    if d is not None:
        options = ", ".join(str(x) for x in legal)
        if d.source == ORDER:
            return r.err(f"First, {who} (who won the die roll) decides: {options}.", "R2")
        if d.source == MULLIGAN:
            return r.err(f"First, {who} decides to keep their hand or take a new one: 'keep' or 'new hand'.", "R3")

        asked = _sentence(prompt(s, names, d))
        if a.kind == "choose":
            return r.err(f"'{a.choice}' is not one of the options. {asked} Options: {options}.", "R23")
        return r.err(f"First finish the choice. {asked} Options: {options}.", "R16" if d.source == MODEL_CARD else "R23")
    if a.kind in ("order", "keep", "mulligan"):
        return r.err("The game has already started: that choice is made before the first turn.", "R3")
    if a.kind == "choose":
        return r.err("There is nothing to choose right now.", "R23")
    if "#" not in text:  # they may not know that two cards of a name are numbered
        key = _NUMBER.sub("", normalize(text))
        close = [str(x) for x in legal if _NUMBER.sub("", normalize(str(x))) == key]
        if close:
            shown = " or ".join(f"'{c}'" for c in close[:3])
            return r.err(f"Two cards in play have that name, so they are numbered (#2 is the second one in the "
                         f"board table). Did you mean {shown}?", None)
    if a.kind == "train":
        return _train(r, a)
    if a.kind == "deploy":
        return _deploy(r, a)
    if a.kind in ("task", "audit"):
        return _task_or_audit(r, a)
    if a.kind == "use":
        return _use(r, a)
    return r.err(f"'{text}' is not legal right now.", None)


def _bare_verb(r: _Reader, verb: str) -> IllegalAction:
    need, kind = _VERBS[verb]
    can = [x for x in r.legal if x.kind == kind]
    if can:
        return r.err(f"'{verb}' needs {need}. Right now you can: {_listing(can)}.", None)
    others = [x for x in r.legal if x.kind != "end"]
    tail = f" Right now you can: {_listing(others)}, or end your turn." if others else " You can end your turn."
    return r.err(f"'{verb}' needs {need}. You can't {_WHAT_NOW[verb]} right now.{tail}", None)


def _train(r: _Reader, a: Action) -> IllegalAction:
    x = r.in_hand(a.card)
    if x < 0:
        return r.unknown(a.card) or r.err(f"{a.card} is not in your hand.", "R8")
    why = rules.train_problem(r.s, r.p, x)
    if why and why[0] == "not-trainable":
        return r.err(f"{r.s.card[x].name} has no diamond around its cost, so it can't be trained.", "R8")
    if why:
        return r.err("You have already trained this turn (Train is once per turn).", "R7")
    return r.err(f"'{r.text}' is not legal right now.", None)


def _deploy(r: _Reader, a: Action) -> IllegalAction:
    s, p = r.s, r.p
    x = r.in_hand(a.card)
    if x < 0:
        return r.unknown(a.card) or r.err(f"{a.card} is not in your hand.", "R9")
    card = s.card[x]
    if a.via is not None:
        payer = r.find(a.via, s.systems[p])
        if payer < 0:
            if card.big_data is None:
                return r.err(f"{card.name} has no Big Data: pay its cost in Data.", "R11")
            return r.err(f"You have no System called {a.via} in play to pay with Big Data.", "R11")
        why = rules.pay_problem(s, p, x, payer)
        if why is not None:
            code = why[0]
            if code == "no-big-data":
                return r.err(f"{card.name} has no Big Data: pay its cost in Data.", "R11")
            if code == "payer-cost":
                return r.err(f"Big Data {card.big_data} needs a System with Cost {card.big_data} or more; "
                             f"{s.card[payer].name} costs {s.card[payer].cost}.", "R11")
            return r.err(f"{s.card[payer].name} can't act right now (it is sideways or new), so it can't pay "
                         "Big Data.", "R11")
    else:
        why = rules.pay_problem(s, p, x)
        if why is not None:
            _, cost, data = why
            tax = cost - card.cost
            n = len(s.systems[p]) + 1
            nth = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
            more = f" That is {card.cost}, plus {tax} because it would be your {nth} System." if tax else ""
            payers = rules.big_data_payers(s, p, x)
            alt = (f" You could pay with Big Data instead: 'deploy {card.name} with Big Data "
                   f"{r.label(payers[0])}'.") if payers else ""
            return r.err(f"{card.name} costs {cost} Data, but you have {data} ready Data.{more}{alt}",
                         "R10" if tax else "R11" if payers else "R9")
    kind = rules.deploy_target_kind(s, x)
    if card.type == "Tool":
        if a.target is not None:
            return r.err(f"A Tool is deployed without a target: type 'deploy {card.name}'. "
                         "You choose what it aims at when you use it.", "R17")
    elif kind is None:
        if a.target is not None:
            return r.err(f"{card.name} does not take a target: type 'deploy {card.name}'.", "R18")
    else:
        if a.target is None:
            return r.no_target(card, kind, True, "deploy")
        return _target(r, card, kind, a.target, from_action=True)
    return r.err(f"'{r.text}' is not legal right now.", None)


def _task_or_audit(r: _Reader, a: Action) -> IllegalAction:
    s, p = r.s, r.p
    rule = "R13" if a.kind == "task" else "R14"
    mine = r.find(a.card, s.systems[p])
    if mine < 0:
        if r.find(a.card, s.systems[1 - p]) >= 0:
            return r.err(f"{a.card} is not your System: you can only use your own Systems.", rule)
        if r.find(a.card, s.tools[p]) >= 0:
            return r.err(f"{a.card} is a Tool: only Systems Run Tasks and Audits. Tools are used: "
                         f"'use {a.card}'.", rule)
        return r.unknown(a.card) or r.err(f"You have no System called {a.card} in play.", "R12")
    if a.kind == "task":
        why = rules.task_problem(s, p, mine)
        return r.act_reason(why) if why else r.err(f"'{r.text}' is not legal right now.", None)
    why = rules.act_problem(s, p, mine)
    if why:
        return r.act_reason(why)
    target = r.find(a.target, s.systems[1 - p])
    if target < 0:
        if r.find(a.target, s.systems[p]) >= 0:
            return r.err(f"{a.target} is your own System: you Audit your opponent's Systems.", "R14")
        return r.unknown(a.target) or r.err(f"Your opponent has no System called {a.target} in play.", "R14")
    tname = r.label(target)
    why = rules.audit_target_problem(s, p, target) or rules.trust_problem(s, mine, target)
    if why is None:
        return r.err(f"'{r.text}' is not legal right now.", None)
    if why[0] == "upright":
        return r.err(f"{tname} is upright: you can only Audit a System that is sideways.", "R14")
    if why[0] == "no-audit":
        return r.err(f"{tname} can't be Audited this turn (Regulation Debate).", "R14")
    return r.err(f"{tname} is Highly Trusted, with Trust {s.card[target].tru}. {r.label(mine)} has less Trust "
                 f"({s.card[mine].tru}), so it can't Audit it.", "R14")


def _use(r: _Reader, a: Action) -> IllegalAction:
    s, p = r.s, r.p
    tool = r.find(a.card, s.tools[p])
    if tool < 0:
        held = r.in_hand(a.card)
        system = r.find(a.card, s.systems[p])
        if system >= 0 or (held >= 0 and s.card[held].type != "Tool"):
            c = s.card[system if system >= 0 else held]
            return r.err(f"{c.name} is a{'n' if c.type == 'Action' else ''} {c.type}: only Tools are used. "
                         + ("Systems Run Tasks and Audits." if c.type == "System" else "Actions are deployed."), "R17")
        if held >= 0:
            return r.err(f"{a.card} is in your hand: deploy it first, then use it.", "R17")
        return r.unknown(a.card) or r.err(f"You have no Tool called {a.card} in play.", "R17")
    card = s.card[tool]
    why = rules.use_problem(s, p, tool)
    if why and why[0] == "no-ability":
        return r.err(f"{card.name} has no {{E}} ability to use: it works by itself while in play.", "R17")
    if why:
        return r.err(f"{card.name} is sideways: a Tool's {{E}} ability is once per turn.", "R17")
    kind = s.effect[tool].target
    if kind is None:
        if a.target is not None:
            return r.err(f"{card.name} does not take a target: type 'use {card.name}'.", "R17")
    else:
        if a.target is None:
            return r.no_target(card, kind, False, "use")
        return _target(r, card, kind, a.target, from_action=False)
    return r.err(f"'{r.text}' is not legal right now.", None)


def _target(r: _Reader, card, kind: str, typed: str, from_action: bool) -> IllegalAction:
    s, p = r.s, r.p
    rule = "R18" if from_action else "R17"
    if kind == "own_discard_action":
        key = fold_name(typed)
        t = next((x for x in s.discard[p] if fold_name(s.card[x].name) == key), -1)
        if t < 0 or s.card[t].type != "Action":
            return r.err(f"{card.name} needs an Action card from your discard pile, and {typed} is not one there.", rule)
        return r.err(f"'{r.text}' is not legal right now.", None)
    everything = [x for o in (p, 1 - p) for zone in (s.systems[o], s.tools[o]) for x in zone]
    t = r.find(typed, everything)
    if t < 0:
        return r.unknown(typed) or r.err(f"There is no {typed} in play to aim at.", rule)
    why = rules.target_problem(s, p, kind, t, from_action)
    if why is None:
        return r.err(f"'{r.text}' is not legal right now.", None)
    return r.target_reason(card, kind, why, rule)
