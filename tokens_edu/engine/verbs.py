"""The verbs: every way the rules and the cards change a game, each recorded for undo.

This is the small interface card effects use (:mod:`~tokens_edu.engine.effects`); the
turn's structure (:mod:`~tokens_edu.engine.flow`) uses it too. Every verb takes the
:class:`~tokens_edu.engine.state.State` first, writes through its recorded writes, and notes
what happened as an event (:mod:`~tokens_edu.engine.events`).

Cards and decks: :func:`draw`, :func:`top_card`, :func:`look`, :func:`deck_to_hand`,
:func:`deck_to_bottom`, :func:`set_deck_top`, :func:`deck_to_training_set`,
:func:`discard_from_hand`, :func:`discard_to_deck_top`, :func:`discard_training_set_top`.
Tokens and Flags: :func:`gain`, :func:`add_flags`, :func:`remove_flags`, :func:`boost`.
Lasting marks: :func:`enable_now`, :func:`bar_task_next_turn`, :func:`bar_all_tasks_next_turn`,
:func:`bar_audits_this_turn`, :func:`lose_abilities`, :func:`allow_extra_train`,
:func:`remove_tool`. Choices (R23): :func:`ask`, :func:`ask_pick`, :func:`ask_discard`.
Deprecation (R15, R16): :func:`check_deprecation`, :func:`settle_doom`.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .rules import WINNING_TOKENS, abilities_lost, cap, first_of_each_name
from .state import (BOOST, BOOST_TURN, DECK, DISCARD, FLAGS, GPU_TURN, HAND, LOST_UNTIL,
                    MODEL_CARD, MODEL_CARD_USED, NO_AUDIT_TURN, NO_TASK_TURN, RECALL_TURN, SYSTEMS, TOKENS,
                    TOOLS, TS, TS_EX, State, new_decision)

__all__ = [
    "say", "gain", "draw", "top_card", "look", "deck_to_hand", "deck_to_bottom", "set_deck_top",
    "deck_to_training_set", "discard_from_hand", "discard_to_deck_top", "discard_training_set_top",
    "add_flags", "remove_flags", "boost", "enable_now", "bar_task_next_turn", "bar_all_tasks_next_turn",
    "bar_audits_this_turn", "lose_abilities", "allow_extra_train", "remove_tool", "pay",
    "ask", "ask_pick", "ask_discard", "check_deprecation", "settle_doom", "answer_model_card", "end_game",
]


def say(s: State, code: int, player: int | None, *args: Any) -> None:
    """Note an event (``code`` from :mod:`events`) of this turn, for ``player`` (0/1/None)."""
    s.events.append((code, s.turn, player, *args))


# -- Tokens (R25) -------------------------------------------------------------------------------------
def end_game(s: State, winner: int | None) -> None:
    """The game ends now: ``winner`` 0/1, or None for a draw (R25)."""
    s.assign("over", True)
    s.assign("winner", winner)
    s.assign("phase", "over")
    if s.decision is not None:
        s.assign("decision", None)
    if s.doom is not None:
        s.assign("doom", None)


def gain(s: State, p: int, n: int, source: int = -1) -> bool:
    """Player p gains n Tokens (``source``: the card whose ability gives them, noted in the log).

    The game ends the moment one reaches 15 (R25). Returns True if it ended.
    """
    total = s.tokens[p] + n
    s.set(TOKENS, p, total)
    if source >= 0:
        s.events.append((ev.GAIN, s.turn, p, source, n, total))
    if total >= WINNING_TOKENS and not s.over:
        end_game(s, p)
        s.events.append((ev.WIN, s.turn, p, total))
        return True
    return False


# -- cards and decks -----------------------------------------------------------------------------------
def top_card(s: State, p: int) -> int:
    """Take the top card of p's deck (R24 on an empty deck: the discard pile becomes the deck
    and p loses 1 Token). Returns its card id, or -1 if there is no card anywhere."""
    deck = s.deck[p]
    if not deck:
        if not s.discard[p]:
            s.events.append((ev.DECK_OUT_EMPTY, s.turn, p))
            return -1
        s.rewrite(DECK + p, s.discard[p])
        s.rewrite(DISCARD + p, ())
        s.shuffle(DECK + p)
        lost = 1 if s.tokens[p] > 0 else 0
        if lost:
            s.set(TOKENS, p, s.tokens[p] - 1)
        s.events.append((ev.RESHUFFLE, s.turn, p, lost))
    return s.pop(DECK + p)


def draw(s: State, p: int, n: int = 1) -> int:
    """Player p draws n cards (R24 on an empty deck). Returns how many were drawn."""
    drawn = 0
    for _ in range(n):
        x = top_card(s, p)
        if x < 0:
            break
        s.put(HAND + p, x)
        drawn += 1
    return drawn


def look(s: State, p: int, n: int) -> list[int]:
    """The top n cards of p's deck, top first (fewer if the deck is short, R22). Reads only."""
    deck = s.deck[p]
    return deck[-1:-n - 1:-1] if n else []


def deck_to_hand(s: State, p: int, x: int) -> None:
    """Card x (seen in p's deck) goes into p's hand."""
    s.take(DECK + p, x)
    s.put(HAND + p, x)
    s.events.append((ev.DECK_TO_HAND, s.turn, p))


def deck_to_bottom(s: State, p: int, x: int) -> None:
    """Card x (seen in p's deck) goes to the bottom of p's deck."""
    s.take(DECK + p, x)
    s.insert(DECK + p, 0, x)
    s.events.append((ev.DECK_TO_BOTTOM, s.turn, p))


def set_deck_top(s: State, p: int, top_first: tuple[int, ...]) -> None:
    """Put the top ``len(top_first)`` cards of p's deck back in this order (top first)."""
    deck = s.deck[p]
    n = len(top_first)
    s.rewrite(DECK + p, deck[:-n] + list(reversed(top_first)))


def deck_to_training_set(s: State, p: int) -> int:
    """The top card of p's deck goes face-down into p's Training Set, exerted (R8). Returns its
    card id, or -1 if there was none."""
    x = top_card(s, p)
    if x >= 0:
        s.put(TS + p, x)
        s.put(TS_EX + p, True)
        s.events.append((ev.DECK_TO_TRAINING_SET, s.turn, p))
    return x


def discard_from_hand(s: State, p: int, x: int) -> None:
    """Player p discards card x from their hand."""
    s.take(HAND + p, x)
    s.put(DISCARD + p, x)
    s.events.append((ev.DISCARD, s.turn, p, x))


def discard_to_deck_top(s: State, p: int, x: int) -> None:
    """Card x goes from p's discard pile to the top of p's deck (RAM)."""
    s.take(DISCARD + p, x)
    s.put(DECK + p, x)
    s.events.append((ev.DISCARD_TO_DECK, s.turn, p, x))


def discard_training_set_top(s: State, p: int) -> None:
    """R21: discard the newest ready Training Set card of p, else the newest exerted one."""
    ts, ex = s.ts[p], s.ts_ex[p]
    if not ts:
        return
    i = len(ts) - 1
    for k in range(len(ts) - 1, -1, -1):  # the newest ready card, else the newest
        if not ex[k]:
            i = k
            break
    x = s.pop(TS + p, i)
    s.pop(TS_EX + p, i)
    s.put(DISCARD + p, x)
    s.events.append((ev.TRAINING_SET_DISCARD, s.turn, p, x))


def pay(s: State, p: int, n: int) -> None:
    """R9: exert n of p's ready Training Set cards, oldest first."""
    ex = s.ts_ex[p]
    i = 0
    while n:
        if not ex[i]:
            s.set(TS_EX + p, i, True)
            n -= 1
        i += 1


# -- Flags and marks ---------------------------------------------------------------------------------
def add_flags(s: State, x: int, n: int) -> None:
    """System x gets n Flags; Deprecation follows if they reach its Trust (R15)."""
    s.set(FLAGS, x, s.flags[x] + n)
    s.events.append((ev.FLAGS_ADDED, s.turn, s.owner[x], x, n, s.flags[x]))
    check_deprecation(s)


def remove_flags(s: State, x: int, n: int) -> None:
    """Remove up to n Flags from System x."""
    k = min(n, s.flags[x])
    if k:
        s.set(FLAGS, x, s.flags[x] - k)
        s.events.append((ev.FLAGS_REMOVED, s.turn, s.owner[x], x, k, s.flags[x]))


def boost(s: State, x: int, n: int) -> None:
    """System x gets +n Capability until end of turn (R15)."""
    if s.boost_turn[x] != s.turn:
        s.set(BOOST, x, 0)
        s.set(BOOST_TURN, x, s.turn)
    s.set(BOOST, x, s.boost[x] + n)
    s.events.append((ev.BOOST, s.turn, s.owner[x], x, n, cap(s, x)))


def enable_now(s: State, x: int) -> None:
    """GPU: System x can act this turn though it is new (R12)."""
    s.set(GPU_TURN, x, s.turn)
    s.events.append((ev.ENABLED, s.turn, s.owner[x], x))


def bar_task_next_turn(s: State, x: int) -> None:
    """R19: System x can't Run a Task during its controller's next turn."""
    s.set(NO_TASK_TURN, x, s.turn + 1)
    s.events.append((ev.NO_TASK, s.turn, s.owner[x], x))


def bar_all_tasks_next_turn(s: State, p: int) -> None:
    """R19 Mandatory Recall: no System of p's can Run a Task during p's next turn."""
    s.set(RECALL_TURN, p, s.turn + 1)
    s.events.append((ev.RECALL, s.turn, p))


def bar_audits_this_turn(s: State, x: int) -> None:
    """Regulation Debate: System x can't be Audited this turn."""
    s.set(NO_AUDIT_TURN, x, s.turn)
    s.events.append((ev.NO_AUDIT, s.turn, s.owner[x], x))


def lose_abilities(s: State, x: int) -> None:
    """AI Isn't Magic: card x loses its abilities until its controller's next turn begins."""
    owner = s.owner[x]
    s.set(LOST_UNTIL, x, s.turn + (2 if owner == s.active else 1))
    s.events.append((ev.ABILITIES_LOST, s.turn, owner, x))


def allow_extra_train(s: State) -> None:
    """Regulation Debate mode a: each player may Train one extra card this turn."""
    if s.extra_trains_turn != s.turn:
        s.assign("extra_trains", 0)
        s.assign("extra_trains_turn", s.turn)
    s.assign("extra_trains", s.extra_trains + 1)
    s.events.append((ev.EXTRA_TRAIN, s.turn, s.active))


def remove_tool(s: State, x: int, caster: int) -> None:
    """R20: Tool x goes to its owner's discard pile; if it is Legacy, the caster draws 1."""
    owner = s.owner[x]
    s.take(TOOLS + owner, x)
    s.clear_card(x)
    s.put(DISCARD + owner, x)
    s.events.append((ev.TOOL_REMOVED, s.turn, owner, x))
    if s.facts[x].legacy:
        s.events.append((ev.LEGACY_DRAW, s.turn, caster, x))
        draw(s, caster, 1)


# -- choices (R23) -----------------------------------------------------------------------------------
def ask(s: State, p: int, source: int, step: str, options: Any, labels: str, data: tuple = (),
        may: bool = False, secret: bool = False) -> None:
    """Ask player p to choose among ``options`` (R23); the answer goes to
    ``s.effect[source].answers[step](s, p, value, data)``.

    With one option and no ``may``, the choice makes itself; with none, nothing happens.
    ``labels`` says how the options read (see :class:`~tokens_edu.engine.state.Decision`);
    ``secret``: they are cards only p may see, so nobody else learns the choice (R22).
    """
    if not options:
        return
    if len(options) == 1 and not may:
        s.effect[source].answers[step](s, p, options[0], data)
        return
    s.assign("decision", new_decision(p, source, step, tuple(options), labels, tuple(data), secret))


def ask_pick(s: State, p: int, cards: list[int], source: int, step: str) -> None:
    """Ask p to pick one of the looked-at ``cards`` (top first; R22). Two copies of a name are
    different picks here (they leave the others in a different order)."""
    ask(s, p, source, step, cards, "pick", tuple(cards), secret=True)


def ask_discard(s: State, p: int, source: int) -> None:
    """Ask p to discard a card from their hand (one option per name)."""
    ask(s, p, source, "discard", first_of_each_name(s, s.hand[p]), "hand")


# -- Deprecation (R15, R16) ---------------------------------------------------------------------------
def check_deprecation(s: State) -> None:
    """Systems whose Flags reached their Trust leave together (R15), active player's first."""
    doomed: list[int] = []
    for i in range(2):
        for x in s.systems[s.active if i == 0 else 1 - s.active]:
            if s.flags[x] >= s.facts[x].tru:
                doomed.append(x)
    if doomed:
        s.assign("doom", (tuple(doomed), ()))
        settle_doom(s)


def settle_doom(s: State) -> None:
    """Go on with the Deprecations in progress: first any Model Card question (R16), then the
    Systems leave together, then their triggers, active player's first (R15)."""
    doom = s.doom
    assert doom is not None
    doomed, asked = doom
    for x in doomed:
        owner = s.owner[x]
        if x not in s.systems[owner] or s.flags[x] < s.facts[x].tru or x in asked:
            continue
        if not s.model_card_used[owner] and _has_model_card(s, owner):
            s.assign("doom", (doomed, asked + (x,)))
            s.assign("decision", new_decision(owner, MODEL_CARD, "save", (True, False), "yes-no", (x,)))
            return
    s.assign("doom", None)
    leaving: list[tuple[int, bool]] = []
    for x in doomed:
        owner = s.owner[x]
        if x in s.systems[owner] and s.flags[x] >= s.facts[x].tru:
            leaving.append((x, abilities_lost(s, x)))
    for x, _ in leaving:  # they leave together
        owner = s.owner[x]
        s.take(SYSTEMS + owner, x)
        s.clear_card(x)
        s.put(DISCARD + owner, x)
        s.events.append((ev.DEPRECATED, s.turn, owner, x))
    for x, lost in leaving:  # then the triggers, active player's first
        trigger = s.effect[x].on_deprecated
        if trigger is not None and not lost:
            trigger(s, s.owner[x], x)
            if s.over:
                return


def _has_model_card(s: State, p: int) -> bool:
    """R16: player p controls a Tool that can save a System from Deprecation (Model Card)."""
    for t in s.tools[p]:
        if s.effect[t].saves_from_deprecation:
            return True
    return False


def answer_model_card(s: State, p: int, yes: bool, x: int) -> None:
    """R16: p said yes (remove all of System x's Flags instead) or no; Deprecation goes on."""
    if yes:
        s.set(FLAGS, x, 0)
        s.set(MODEL_CARD_USED, p, True)
        s.events.append((ev.MODEL_CARD, s.turn, p, x))
    settle_doom(s)
