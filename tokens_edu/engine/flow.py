"""The game's flow: set-up (R2, R3), the legal moves of a position, playing a move, the turn
(R5-R7). Legality comes from the predicates of :mod:`~tokens_edu.engine.rules`; changes go
through :mod:`~tokens_edu.engine.verbs`; a card's own mechanic is ``state.effect[card]``.

The path from a move to its effect: :func:`play` reads the move's kind, then

- ``TRAIN``: the card goes from hand to the Training Set, ready (R8);
- ``DEPLOY``: pay (R9-R11), then a System or Tool enters play; an Action resolves through its
  effect's ``resolve`` and then goes to the discard pile (R18);
- ``TASK``: exert, gain Tokens (R13, R25), then the System's ``on_task`` trigger;
- ``AUDIT``: both Systems deal Flags at once (R14), Deprecation follows (R15, R16);
- ``USE``: exert the Tool, then its ``resolve`` (R17);
- ``CHOOSE``: the decision in progress gets its answer (R2, R3, R16, R23);
- ``END``: the next player's turn starts: Reboot, Draw, main phase (R5-R7).
"""

from __future__ import annotations

from _random import Random
from typing import Any, Final

from . import events as ev
from . import verbs as v
from .moves import AUDIT, CHOOSE, DEPLOY, END, TASK, TRAIN, USE
from .rules import (ADVERSARIAL, act_problem, copy_number, audit_target_problem, big_data_problem, cap, data_ready,
                    deploy_cost, deploy_target_kind, first_of_each_name, has_keyword, pay_problem, targets,
                    task_bar_problem, train_count_problem, trust_problem, use_problem)
from .state import (DECK, DISCARD, ENTERED, EXERTED, FLAGS, HAND, MODEL_CARD, MULLIGAN, ORDER, RESOLVING, SYSTEM,
                    SYSTEMS, TOOL, TOOLS, TRAINED, TRAINED_TURN, TS, TS_EX, State, new_decision)

__all__ = ["FIRST_HAND", "SECOND_HAND", "deal_new", "setup_new", "legal_moves", "actors_of", "train_moves",
           "deploy_moves", "task_moves", "audit_moves", "use_moves", "play", "start_turn"]

FIRST_HAND: Final = 5  # R3
SECOND_HAND: Final = 6


# -- set-up (R2, R3) ---------------------------------------------------------------------------------
def deal_new(s: State) -> None:
    """A new game: every card into its owner's deck in card-id order (not recorded: the
    game starts here), then :func:`setup_new`."""
    deck, owner = s.deck, s.owner
    for x in range(len(owner)):
        deck[owner[x]].append(x)
    setup_new(s)


def setup_new(s: State) -> None:
    """Shuffle both decks (already filled), roll for who chooses the order (R2)."""
    s.shuffle(DECK)
    s.shuffle(DECK + 1)
    rng = s.rng()
    while True:  # R2: roll, re-roll ties
        r0 = _roll_die(rng)
        r1 = _roll_die(rng)
        if r0 != r1:
            break
        s.events.append((ev.ROLL_TIE, s.turn, None, r0))
    winner = 0 if r0 > r1 else 1
    s.events.append((ev.ROLL, s.turn, None, r0, r1, winner))
    s.assign("decision", new_decision(winner, ORDER, "order", (0, 1), "first-second"))


def _roll_die(rng: Random) -> int:
    """1 to 6, as ``random.Random.randint(1, 6)`` draws it from the same generator (3 random
    bits, again while they make 6 or 7)."""
    r: int = rng.getrandbits(3)
    while r >= 6:
        r = rng.getrandbits(3)
    return 1 + r


def _answer_order(s: State, p: int, value: Any) -> None:
    first = p if value == 0 else 1 - p
    s.assign("first", first)
    s.events.append((ev.ORDER, s.turn, p, value == 0))
    for who, n in ((first, FIRST_HAND), (1 - first, SECOND_HAND)):
        _draw_setup(s, who, n)
    s.assign("phase", "mulligan")
    _ask_mulligan(s, first)


def _draw_setup(s: State, p: int, n: int) -> None:
    for _ in range(min(n, len(s.deck[p]))):
        s.put(HAND + p, s.pop(DECK + p))


def _ask_mulligan(s: State, p: int) -> None:
    s.assign("decision", new_decision(p, MULLIGAN, "keep", (False, True), "keep-mulligan"))


def _answer_mulligan(s: State, p: int, again: Any) -> None:
    if again:
        n = len(s.hand[p])
        s.rewrite(DECK + p, s.deck[p] + s.hand[p])
        s.rewrite(HAND + p, ())
        s.shuffle(DECK + p)
        _draw_setup(s, p, n)
    s.events.append((ev.MULLIGAN if again else ev.KEEP, s.turn, p))
    if p == s.first:
        _ask_mulligan(s, 1 - p)
    else:
        s.assign("active", s.first)
        s.assign("turn", 1)
        start_turn(s)


# -- the turn (R5-R7) ----------------------------------------------------------------------------------
def start_turn(s: State) -> None:
    """R5 Reboot, R6 Draw (not on the game's very first turn), then the main phase (R7)."""
    p = s.active
    exerted = s.exerted
    for x in s.systems[p]:
        if exerted[x]:
            s.set(EXERTED, x, False)
    for x in s.tools[p]:
        if exerted[x]:
            s.set(EXERTED, x, False)
    if True in s.ts_ex[p]:
        s.rewrite(TS_EX + p, [False] * len(s.ts[p]))
    s.events.append((ev.TURN, s.turn, p))
    if s.turn > 1:
        v.draw(s, p, 1)
    s.assign("phase", "main")


def _end_turn(s: State) -> None:
    s.events.append((ev.END, s.turn, s.active))
    if s.turn_limit is not None and s.turn >= s.turn_limit:
        v.end_game(s, None)
        s.events.append((ev.TURN_LIMIT, s.turn, None, s.turn_limit))
        return
    s.assign("active", 1 - s.active)
    s.assign("turn", s.turn + 1)
    start_turn(s)


# -- legal moves ---------------------------------------------------------------------------------------
def legal_moves(s: State) -> list[int]:
    """Every move of the player to act, in the stable order of ``Game.legal_actions``.

    Order: the options of a decision in progress; else train, deploy, task, audit, use, end
    turn, each in hand or board order (hand cards of the same name once). Empty when over.
    Each candidate is kept when the rules' predicates (:mod:`~tokens_edu.engine.rules`) allow it.
    The moves of each kind come from their own function (:func:`train_moves`,
    :func:`deploy_moves`, :func:`task_moves`, :func:`audit_moves`, :func:`use_moves`), which a
    computer player may also call alone, for the kinds it wants to look at first.
    """
    out: list[int] = []
    if s.over:
        return out
    d = s.decision
    if d is not None:
        for i in range(len(d.options)):
            out.append(CHOOSE | (i + 1) << 4)
        return out
    p = s.active
    hand = first_of_each_name(s, s.hand[p])
    actors = actors_of(s, p)
    train_moves(s, p, hand, out)
    deploy_moves(s, p, hand, actors, out)
    task_moves(s, p, actors, out)
    audit_moves(s, p, actors, out)
    use_moves(s, p, out)
    out.append(END)
    return out


def actors_of(s: State, p: int) -> list[int]:
    """R12: player p's Systems that can act (Task, Audit or pay Big Data) now, in board order."""
    actors: list[int] = []
    for x in s.systems[p]:
        if act_problem(s, p, x) is None:
            actors.append(x)
    return actors


def train_moves(s: State, p: int, hand: list[int], out: list[int]) -> None:
    """R7, R8: append to ``out`` player p's Train moves (``hand``: the first card of each name
    in p's hand, :func:`~tokens_edu.engine.rules.first_of_each_name`)."""
    if hand and train_count_problem(s, p) is None:
        facts = s.facts
        for x in hand:
            if facts[x].trainable:
                out.append(TRAIN | (x + 1) << 4)


def deploy_moves(s: State, p: int, hand: list[int], actors: list[int], out: list[int]) -> None:
    """R9-R11, R17, R18: append to ``out`` player p's Deploy moves: each card of ``hand`` p can
    pay for, in Data or with Big Data (``actors``: :func:`actors_of`), at each target it may
    aim at."""
    facts = s.facts
    data = data_ready(s, p)
    for x in hand:
        ok = pay_problem(s, p, x, -1, data) is None
        base = DEPLOY | (x + 1) << 4
        kind = deploy_target_kind(s, x)
        if facts[x].big_data < 0:  # paid in Data only
            if not ok:
                continue
            if kind is None:
                out.append(base)
            else:
                for t in targets(s, p, kind, True):
                    out.append(base | (t + 1) << 16)
            continue
        pay: list[int] = [0] if ok else []
        for y in actors:
            if big_data_problem(s, x, y) is None:
                pay.append((y + 1) << 28)
        if not pay:
            continue
        if kind is None:
            for m in pay:
                out.append(base | m)
        else:
            for t in targets(s, p, kind, True):
                for m in pay:
                    out.append(base | (t + 1) << 16 | m)


def task_moves(s: State, p: int, actors: list[int], out: list[int]) -> None:
    """R12, R13, R19: append to ``out`` the Task moves of player p's Systems that can act."""
    for x in actors:
        if task_bar_problem(s, p, x) is None:
            out.append(TASK | (x + 1) << 4)


def audit_moves(s: State, p: int, actors: list[int], out: list[int]) -> None:
    """R12, R14: append to ``out`` the Audit moves of player p's Systems that can act, each
    System against each opposing System it may Audit."""
    if not actors:
        return
    opp: list[int] = []
    for t in s.systems[1 - p]:
        if audit_target_problem(s, p, t) is None:
            opp.append(t)
    if opp:
        for x in actors:
            for t in opp:
                if trust_problem(s, x, t) is None:
                    out.append(AUDIT | (x + 1) << 4 | (t + 1) << 16)


def use_moves(s: State, p: int, out: list[int]) -> None:
    """R17: append to ``out`` the Use moves of player p's Tools, at each target they may aim at."""
    for x in s.tools[p]:
        if use_problem(s, p, x) is not None:
            continue
        kind = s.effect[x].target
        if kind is None:
            out.append(USE | (x + 1) << 4)
        else:
            for t in targets(s, p, kind, False):
                out.append(USE | (x + 1) << 4 | (t + 1) << 16)


# -- playing a move ------------------------------------------------------------------------------------
def play(s: State, move: int) -> None:
    """Play ``move`` (one of :func:`legal_moves`) for the player to act. Does not check it."""
    kind = move & 15
    a = ((move >> 4) & 0xFFF) - 1
    d = s.decision
    p = d.player if d is not None else s.active
    if kind == CHOOSE:
        _choose(s, a)
    elif kind == END:
        _end_turn(s)
    elif kind == TRAIN:
        s.take(HAND + p, a)
        s.put(TS + p, a)
        s.put(TS_EX + p, False)
        if s.trained_turn[p] != s.turn:
            s.set(TRAINED, p, 0)
            s.set(TRAINED_TURN, p, s.turn)
        s.set(TRAINED, p, s.trained[p] + 1)
        s.events.append((ev.TRAIN, s.turn, p, len(s.ts[p])))
    elif kind == DEPLOY:
        _deploy(s, p, a, ((move >> 16) & 0xFFF) - 1, ((move >> 28) & 0xFFF) - 1)
    elif kind == TASK:
        s.set(EXERTED, a, True)
        tokens = s.facts[a].tokens
        s.events.append((ev.TASK, s.turn, p, a, tokens, s.tokens[p] + tokens))
        if v.gain(s, p, tokens):
            return
        trigger = s.effect[a].on_task
        if trigger is not None and not s.turn < s.lost_until[a]:
            trigger(s, p, a)
    elif kind == AUDIT:
        _audit(s, p, a, ((move >> 16) & 0xFFF) - 1)
    elif kind == USE:
        target = ((move >> 16) & 0xFFF) - 1
        s.set(EXERTED, a, True)
        s.events.append((ev.USE, s.turn, p, a, target))
        resolve = s.effect[a].resolve
        if resolve is not None:
            resolve(s, p, a, target)
    if s.decision is None and s.doom is None:  # R18: a resolved Action goes to the discard pile
        for q in range(2):
            if s.resolving[q]:
                for x in s.resolving[q][:]:
                    s.take(RESOLVING + q, x)
                    s.put(DISCARD + q, x)


def _choose(s: State, index: int) -> None:
    d = s.decision
    assert d is not None
    s.assign("decision", None)
    value = d.options[index]
    if d.source == ORDER:
        _answer_order(s, d.player, value)
    elif d.source == MULLIGAN:
        _answer_mulligan(s, d.player, value)
    elif d.source == MODEL_CARD:
        v.answer_model_card(s, d.player, value, d.data[0])
    else:
        if d.secret:
            s.events.append((ev.CHOOSE_SECRET, s.turn, d.player, d.source))
        else:
            k = copy_number(s, value, d.player) if d.labels == "in-play" else 0
            s.events.append((ev.CHOOSE, s.turn, d.player, d.labels, value, d.source, k))
        s.effect[d.source].answers[d.step](s, d.player, value, d.data)
    if s.doom is not None and s.decision is None and not s.over:
        v.settle_doom(s)


def _deploy(s: State, p: int, x: int, target: int, payer: int) -> None:
    kind = s.facts[x].kind
    if payer >= 0:
        s.set(EXERTED, payer, True)
        cost = -1
    else:
        cost = deploy_cost(s, p, x)
        v.pay(s, p, cost)
    s.take(HAND + p, x)
    s.events.append((ev.DEPLOY, s.turn, p, x, target, cost, payer))
    if kind == SYSTEM:
        s.put(SYSTEMS + p, x)
        s.set(ENTERED, x, s.turn)
    elif kind == TOOL:
        s.put(TOOLS + p, x)
        s.set(ENTERED, x, s.turn)
    else:  # R18: resolve, then to the discard pile (see play)
        s.put(RESOLVING + p, x)
        resolve = s.effect[x].resolve
        if resolve is not None:
            resolve(s, p, x, target)


def _audit(s: State, p: int, a: int, t: int) -> None:
    """R14: both deal Flags equal to their current CAP at once; Adversarial hits back +1."""
    s.set(EXERTED, a, True)
    dealt = cap(s, a)
    back = cap(s, t) + (1 if has_keyword(s, t, ADVERSARIAL) else 0)
    s.set(FLAGS, t, s.flags[t] + dealt)
    s.set(FLAGS, a, s.flags[a] + back)
    s.events.append((ev.AUDIT, s.turn, p, a, t, dealt, back))
    v.check_deprecation(s)
