"""The rulings as predicates: each rule is written once, here, and read by both the move
generator (:mod:`~tokens_edu.engine.flow`) and the explanations (:mod:`tokens_edu.game.explain`).

A predicate returns ``None`` when the rule allows the thing, or a *reason*: a tuple whose first
item is a short code (``"sideways"``, ``"new"``, ``"cost"``...) followed by the card ids and
numbers an explanation needs. Nothing here changes a state or builds a sentence.
"""

from __future__ import annotations

from typing import Any, Final

from .state import ACTION, SYSTEM, State

__all__ = [
    "WINNING_TOKENS", "FAST_TRACKED", "HIGHLY_TRUSTED", "ADVERSARIAL", "KEYWORD_BITS",
    "keyword_bits", "has_keyword", "abilities_lost", "cap", "data_ready", "deploy_cost", "trains_allowed",
    "first_of_each_name", "copy_number", "act_problem", "task_bar_problem", "task_problem", "audit_target_problem",
    "trust_problem", "audit_problem", "train_count_problem", "trainable_problem", "train_problem",
    "big_data_problem", "pay_problem", "deploy_target_kind", "big_data_payers", "target_problem", "targets",
    "shielded", "use_problem", "TARGET_KINDS",
]

WINNING_TOKENS: Final = 15  # R25

# Keyword bits (``State.kw``): the keyword rules read the card data through these.
FAST_TRACKED: Final = 1
HIGHLY_TRUSTED: Final = 2
ADVERSARIAL: Final = 4
KEYWORD_BITS: Final = {"Fast-Tracked": FAST_TRACKED, "Highly Trusted": HIGHLY_TRUSTED, "Adversarial": ADVERSARIAL}

#: What a targeted Action (when deployed, R18) or Tool (when used, R17) may aim at.
TARGET_KINDS: Final = ("opp_system", "any_system", "any_tool", "hot_system", "own_new_system", "own_discard_action")


def keyword_bits(card: Any) -> int:
    """The keyword bits of a Card (Fast-Tracked, Highly Trusted, Adversarial)."""
    bits = 0
    for k in card.keywords:
        bits |= KEYWORD_BITS.get(k, 0)
    return bits


# -- reading the position --------------------------------------------------------------------------
def abilities_lost(s: State, x: int) -> bool:
    """AI Isn't Magic: card x has lost its abilities (keywords and triggers) for now (R14)."""
    return s.turn < s.lost_until[x]


def has_keyword(s: State, x: int, bit: int) -> bool:
    """Card x has the keyword ``bit`` and has not lost its abilities."""
    return bool(s.kw[x] & bit) and not s.turn < s.lost_until[x]


def cap(s: State, x: int) -> int:
    """System x's current Capability: printed, plus boosts this turn (R15: they end at end of turn)."""
    return s.facts[x].cap + (s.boost[x] if s.boost_turn[x] == s.turn else 0)


def data_ready(s: State, p: int) -> int:
    """Player p's ready Training Set cards: the Data they can pay now (R9)."""
    n = 0
    for exerted in s.ts_ex[p]:
        if not exerted:
            n += 1
    return n


def deploy_cost(s: State, p: int, x: int) -> int:
    """R10: the Data card x costs player p: printed Cost, plus the tax for a 3rd, 4th... System."""
    f = s.facts[x]
    n = len(s.systems[p])
    return f.cost + n - 1 if f.kind == SYSTEM and n > 1 else f.cost


def trains_allowed(s: State, p: int) -> int:
    """R7, R8: how many more cards player p may Train this turn (Regulation Debate adds one)."""
    done = s.trained[p] if s.trained_turn[p] == s.turn else 0
    extra = s.extra_trains if s.extra_trains_turn == s.turn else 0
    return 1 + extra - done


def first_of_each_name(s: State, ids: list[int]) -> list[int]:
    """The first card of each name in ``ids``, in order (a hand offers one move per name)."""
    out: list[int] = []
    name_id = s.name_id
    low = high = 0  # the names seen, as bits (name numbers 0-59, then 60 and up: small ints)
    for x in ids:
        k = name_id[x]
        if k < 60:
            bit = 1 << k
            if not low & bit:
                low |= bit
                out.append(x)
        elif k < 120:
            bit = 1 << (k - 60)
            if not high & bit:
                high |= bit
                out.append(x)
        elif x == _first_of_name(s, ids, k):  # (more names than any set has: a plain search)
            out.append(x)
    return out


def _first_of_name(s: State, ids: list[int], k: int) -> int:
    for y in ids:
        if s.name_id[y] == k:
            return y
    return -1


def copy_number(s: State, x: int, viewer: int) -> int:
    """Which copy of its name card x (in play) is, counting in board order with ``viewer``'s
    cards first: 1 for the first, 2 for the second... (the ``#2`` of action texts). 1 for a card
    not in play."""
    name = s.name_id[x]
    k = 0
    for i in range(4):  # viewer's Systems, viewer's Tools, then the other player's
        o = viewer if i < 2 else 1 - viewer
        for y in (s.systems[o] if i % 2 == 0 else s.tools[o]):
            if s.name_id[y] == name:
                k += 1
                if y == x:
                    return k
    return 1


# -- the rules as predicates (None: allowed) ---------------------------------------------------------
def act_problem(s: State, p: int, x: int) -> tuple | None:
    """R12: can player p's System x act (Task or Audit) now?

    Reasons: ``("sideways", x)``; ``("not-now",)`` (not p's main phase);
    ``("new", x)`` (deployed this turn); ``("new-lost", x)`` (deployed this turn and Fast-Tracked,
    but its abilities are lost to AI Isn't Magic).
    """
    if s.exerted[x]:
        return ("sideways", x)
    if p != s.active or s.phase != "main":
        return ("not-now",)
    if s.entered[x] == s.turn and s.gpu_turn[x] != s.turn and not has_keyword(s, x, FAST_TRACKED):
        return ("new-lost", x) if s.kw[x] & FAST_TRACKED else ("new", x)
    return None


def task_bar_problem(s: State, p: int, x: int) -> tuple | None:
    """R19: is player p's System x barred from Tasks this turn? Reasons: ``("no-task", x)`` (a
    card stopped it), ``("recall", p)`` (Mandatory Recall)."""
    if s.no_task_turn[x] == s.turn:
        return ("no-task", x)
    if s.recall_turn[p] == s.turn:
        return ("recall", p)
    return None


def task_problem(s: State, p: int, x: int) -> tuple | None:
    """R12, R13, R19: can System x of player p Run a Task now? (:func:`act_problem`, then
    :func:`task_bar_problem`)."""
    return act_problem(s, p, x) or task_bar_problem(s, p, x)


def audit_target_problem(s: State, p: int, t: int) -> tuple | None:
    """R14: may player p's Systems Audit System t now? Reasons: ``("own-target", t)``,
    ``("upright", t)`` (only sideways Systems), ``("no-audit", t)`` (Regulation Debate)."""
    if s.owner[t] == p:
        return ("own-target", t)
    if not s.exerted[t]:
        return ("upright", t)
    if s.no_audit_turn[t] == s.turn:
        return ("no-audit", t)
    return None


def trust_problem(s: State, a: int, t: int) -> tuple | None:
    """R14 Highly Trusted: a System with lower Trust than t can't Audit it.
    Reason: ``("highly-trusted", t, a)``."""
    if s.kw[t] & HIGHLY_TRUSTED and not s.turn < s.lost_until[t] and s.facts[a].tru < s.facts[t].tru:
        return ("highly-trusted", t, a)
    return None


def audit_problem(s: State, p: int, a: int, t: int) -> tuple | None:
    """R12, R14: can player p's System a Audit System t now? (:func:`act_problem` for a, then
    :func:`audit_target_problem` and :func:`trust_problem`)."""
    return act_problem(s, p, a) or audit_target_problem(s, p, t) or trust_problem(s, a, t)


def train_count_problem(s: State, p: int) -> tuple | None:
    """R7: Train is once per turn (Regulation Debate may add one). Reason: ``("trained",)``."""
    return ("trained",) if trains_allowed(s, p) <= 0 else None


def trainable_problem(s: State, x: int) -> tuple | None:
    """R8: only a card with a diamond around its cost can be trained. Reason: ``("not-trainable", x)``."""
    return None if s.facts[x].trainable else ("not-trainable", x)


def train_problem(s: State, p: int, x: int) -> tuple | None:
    """R7, R8: may player p Train card x (in their hand) now?"""
    return trainable_problem(s, x) or train_count_problem(s, p)


def big_data_problem(s: State, x: int, payer: int) -> tuple | None:
    """R11: may System ``payer`` pay for card x with Big Data (leaving aside whether it can act)?
    Reasons: ``("no-big-data", x)``, ``("payer-cost", payer, n)``."""
    n = s.facts[x].big_data
    if n < 0:
        return ("no-big-data", x)
    if s.facts[payer].cost < n:
        return ("payer-cost", payer, n)
    return None


def pay_problem(s: State, p: int, x: int, payer: int = -1, data: int | None = None) -> tuple | None:
    """R9-R11: can player p pay for card x now, in Data (``payer`` -1) or with Big Data?

    ``data``: p's ready Data if already counted (:func:`data_ready`). Reasons:
    ``("cost", cost, data)``, those of :func:`big_data_problem`, and
    ``("payer-cannot-act", payer, reason)`` (R11: the payer must be able to act, R12).
    """
    if payer < 0:
        cost = deploy_cost(s, p, x)
        if data is None:
            data = data_ready(s, p)
        return ("cost", cost, data) if cost > data else None
    why = big_data_problem(s, x, payer)
    if why is not None:
        return why
    why = act_problem(s, p, payer)
    return None if why is None else ("payer-cannot-act", payer, why)


def deploy_target_kind(s: State, x: int) -> str | None:
    """What deploying card x aims at: an Action's target kind (R18), never a Tool's (R17: its
    target is chosen when it is used), never a System's."""
    return s.effect[x].target if s.facts[x].kind == ACTION else None


def big_data_payers(s: State, p: int, x: int) -> list[int]:
    """R11: player p's Systems that may pay for card x with Big Data (empty if it has none)."""
    return [y for y in s.systems[p] if pay_problem(s, p, x, y) is None]


def shielded(s: State, p: int) -> bool:
    """R18 Privacy Shield: player p controls a Tool that keeps opponents' Actions off their Systems."""
    for t in s.tools[p]:
        if s.effect[t].shields_systems:
            return True
    return False


def target_problem(s: State, p: int, kind: str, t: int, from_action: bool) -> tuple | None:
    """R17, R18: may player p aim a card whose target kind is ``kind`` at card t?

    ``from_action``: the card is an Action being deployed (Privacy Shield applies, R18).
    Reasons: ``("not-in-play", t)``, ``("wrong-type", t)``, ``("own", t)`` (must be an
    opponent's), ``("not-new", t)``, ``("not-hot", t)``, ``("not-in-discard", t)``,
    ``("shielded", owner)``.
    """
    owner = s.owner[t]
    if kind == "own_discard_action":
        if owner != p or t not in s.discard[p] or s.facts[t].kind != ACTION:
            return ("not-in-discard", t)
        return None
    if kind == "any_tool":
        if t not in s.tools[owner]:
            return ("wrong-type", t) if t in s.systems[owner] else ("not-in-play", t)
        return None
    if t not in s.systems[owner]:
        return ("wrong-type", t) if t in s.tools[owner] else ("not-in-play", t)
    if kind == "opp_system" and owner == p:
        return ("own", t)
    if kind == "own_new_system" and (owner != p or s.entered[t] != s.turn):
        return ("not-new", t)
    if kind == "hot_system" and cap(s, t) <= s.facts[t].tru:
        return ("not-hot", t)
    if from_action and owner != p and shielded(s, owner):
        return ("shielded", owner)
    return None


def targets(s: State, p: int, kind: str, from_action: bool) -> list[int]:
    """The cards player p may aim a card of target ``kind`` at, in table order (R17, R18).

    Candidates are p's cards then the opponent's; an Action in p's discard pile is offered
    once per name.
    """
    if kind == "own_discard_action":
        return first_of_each_name(s, [t for t in s.discard[p] if s.facts[t].kind == ACTION])
    zone = s.tools if kind == "any_tool" else s.systems
    q = 1 - p
    if kind == "opp_system":
        candidates = zone[q]
    elif kind == "own_new_system":
        candidates = zone[p]
    else:
        candidates = zone[p] + zone[q]
    return [t for t in candidates if target_problem(s, p, kind, t, from_action) is None]


def use_problem(s: State, p: int, x: int) -> tuple | None:
    """R17: may player p use Tool x now? Reasons: ``("no-ability", x)``, ``("sideways", x)``."""
    eff = s.effect[x]
    if not eff.usable or eff.resolve is None:
        return ("no-ability", x)
    if s.exerted[x]:
        return ("sideways", x)
    return None
