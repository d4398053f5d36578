"""Narration: the engine's events and decisions in a student's words.

:func:`sentence` turns one event (:mod:`tokens_edu.engine.events`) into a commentary line;
:func:`log_events` makes the :class:`LogEvent` rows of a game's log; :func:`prompt` and
:func:`public_prompt` word the decision in progress for the chooser and for everyone else
(the second never names a card only the chooser may see, R22).

A player may be called "You" (lesson 10's copy lab: "You" against "Computer"): a line about them
then reads "You roll 4", "Your Chatbot runs a Task", "You keep your hand", never "You rolls" or
"You's" (:func:`for_you`).
"""

from __future__ import annotations

import re
from collections import namedtuple

from ..engine import events as ev
from ..engine.state import MODEL_CARD, MULLIGAN, ORDER, Decision, State
from .notation import label, option_label

__all__ = ["LogEvent", "sentence", "log_events", "prompt", "public_prompt", "for_you", "YOU"]

#: The player name that is the reader: lines about a player with this name are in the second person.
YOU = "You"
# the verbs of the lines below, as "he/she/it" -> as "you"
_VERBS = {"rolls": "roll", "ends": "end", "trains": "train", "deploys": "deploy", "uses": "use",
          "chooses": "choose", "makes": "make", "reaches": "reach", "gains": "gain", "keeps": "keep",
          "shuffles": "shuffle", "draws": "draw", "has": "have", "is": "are", "puts": "put",
          "discards": "discard", "decides": "decide", "wins": "win", "loses": "lose"}
_YOU_VERB = re.compile(r"\bYou (" + "|".join(_VERBS) + r")\b")
_AND_VERB = re.compile(r"\band (wins|draws)\b")


def for_you(text: str) -> str:
    """A line about a player named :data:`YOU`, in the second person: "You rolls 4" -> "You roll 4",
    "You's Chatbot" -> "Your Chatbot" ("your" inside a sentence, "of yours"), and, in a sentence
    whose subject is You, "their" -> "your", "they" -> "you" ("You keep your hand"). A line without
    "You" comes back unchanged."""
    if "You" not in text:
        return text
    out = text.replace("of You's", "of yours")
    out = re.sub(r"(^|[.:!?] )You's\b", lambda m: m.group(1) + "Your", out)
    out = re.sub(r"\bYou's\b", "your", out)
    out, subject = _YOU_VERB.subn(lambda m: "You " + _VERBS[m.group(1)], out)
    if subject or "of yours" in out:
        out = _AND_VERB.sub(lambda m: "and " + _VERBS[m.group(1)], out)
        out = re.sub(r"\btheir\b", "your", out)
        out = re.sub(r"\bthey\b", "you", out)
    return out

LogEvent = namedtuple("LogEvent", "turn player kind text")
LogEvent.__doc__ = """One event of a game's log: ``turn`` (0 during setup), ``player`` (0/1, or None for
both), ``kind`` (a short word: "deploy", "task", "audit", "deprecated", "win"...) and ``text``
(a commentary sentence, e.g. "Ada's Neural Network audits Bo's Explainability: 4 Flags to 1.")."""


def _s(n: int) -> str:
    return "" if n == 1 else "s"


class _Words:
    """Names of players and cards for one game's sentences."""

    __slots__ = ("s", "names", "title", "viewer")

    def __init__(self, s: State, names, title, viewer=None):
        self.s, self.names, self.title, self.viewer = s, names, title, viewer

    def name(self, x: int) -> str:
        return self.s.card[x].name

    def whose(self, x: int) -> str:
        return f"{self.names[self.s.owner[x]]}'s {self.s.card[x].name}"

    def on(self, t: int, p: int) -> str:
        """A target as a log line names it: "their own Chatbot", "Bo's Chatbot", or an Action's name."""
        if t < 0:
            return ""
        if self.s.card[t].type == "Action":  # RAM's target, in the discard pile
            return f" on {self.name(t)}"
        return f" on their own {self.name(t)}" if self.s.owner[t] == p else f" on {self.whose(t)}"


def _text(w: _Words, e: tuple) -> str:
    code, turn, p = e[0], e[1], e[2]
    a = e[3:]
    names = w.names
    n = names[p] if p is not None else ""
    if code == ev.TURN:
        return f"Turn {turn}: {n}'s turn."
    if code == ev.END:
        return f"{n} ends the turn."
    if code == ev.TRAIN:
        return f"{n} trains a card (Training Set: {a[0]})."
    if code == ev.DEPLOY:
        x, t, cost, payer = a
        paid = f"with Big Data ({w.name(payer)} turns sideways)" if payer >= 0 else f"for {cost} Data"
        return f"{n} deploys {w.name(x)}{w.on(t, p)} {paid}."
    if code == ev.TASK:
        return f"{w.whose(a[0])} runs a Task: +{a[1]} Token{_s(a[1])} ({a[2]})."
    if code == ev.AUDIT:
        back = f"takes {a[3]} back" if a[3] else "takes none back"
        return (f"{w.whose(a[0])} audits {w.whose(a[1])}. {w.name(a[0])} puts {a[2]} Flag{_s(a[2])} "
                f"on {w.name(a[1])} and {back}.")
    if code == ev.USE:
        return f"{n} uses {w.name(a[0])}{w.on(a[1], p)}."
    if code == ev.DEPRECATED:
        return f"{w.whose(a[0])} is Deprecated."
    if code == ev.FLAGS_ADDED:
        return f"{w.whose(a[0])} gets {a[1]} Flag{_s(a[1])} ({a[2]} of {w.s.card[a[0]].tru})."
    if code == ev.FLAGS_REMOVED:
        return f"{a[1]} Flag{_s(a[1])} removed from {w.whose(a[0])} ({a[2]} left)."
    if code == ev.CHOOSE:
        kind, value, _source, k = a
        return f"{n} chooses {option_label(w.s, kind, value, k)}."
    if code == ev.CHOOSE_SECRET:
        return "You make a secret choice." if p == w.viewer else f"{n} makes a secret choice."
    if code == ev.WIN:
        return f"{n} reaches {a[0]} Tokens and wins!"
    if code == ev.GAIN:
        return f"{w.name(a[0])}: {n} gains {a[1]} Token{_s(a[1])} ({a[2]})."
    if code == ev.ROLL:
        r0, r1, winner = a
        return f"{names[0]} rolls {r0}, {names[1]} rolls {r1}: {names[winner]} chooses who goes first."
    if code == ev.ROLL_TIE:
        return f"Both roll {a[0]}: roll again."
    if code == ev.ORDER:
        return f"{n} chooses to go {'first' if a[0] else 'second'}."
    if code == ev.KEEP:
        return f"{n} keeps their hand."
    if code == ev.MULLIGAN:
        return f"{n} shuffles their hand back and draws a new one."
    if code == ev.SCENARIO:
        title = f": {w.title}" if w.title else ""
        return f"Scenario{title}. Turn {turn}, {n}'s turn."
    if code == ev.TURN_LIMIT:
        return f"The turn limit ({a[0]}) is reached: the game is a draw."
    if code == ev.DECK_OUT_EMPTY:
        return f"{n} has no cards left to draw, and their discard pile is empty."
    if code == ev.RESHUFFLE:
        tail = " and they lose 1 Token." if a[0] else " (no Token to lose)."
        return f"{n} is out of fresh data: the discard pile becomes a new deck{tail}"
    if code == ev.DECK_TO_TRAINING_SET:
        return f"{n} puts the top card of their deck into their Training Set."
    if code == ev.TRAINING_SET_DISCARD:
        return f"{n} discards the top card of their Training Set ({w.name(a[0])})."
    if code == ev.DECK_TO_HAND:
        return f"{n} puts a card from their deck into their hand."
    if code == ev.DECK_TO_BOTTOM:
        return f"{n} puts a card on the bottom of their deck."
    if code == ev.DISCARD:
        return f"{n} discards {w.name(a[0])}."
    if code == ev.DISCARD_TO_DECK:
        return f"{n} puts {w.name(a[0])} from their discard pile on top of their deck."
    if code == ev.BOOST:
        return f"{w.whose(a[0])} gets +{a[1]} Capability this turn (CAP {a[2]})."
    if code == ev.ENABLED:
        return f"{w.whose(a[0])} can Run a Task or an Audit this turn."
    if code == ev.NO_TASK:
        return f"{w.whose(a[0])} can't Run a Task during {n}'s next turn."
    if code == ev.RECALL:
        return f"No System of {n}'s can Run a Task during their next turn."
    if code == ev.NO_AUDIT:
        return f"{w.whose(a[0])} can't be Audited this turn."
    if code == ev.ABILITIES_LOST:
        return f"{w.whose(a[0])} loses all its abilities until {n}'s next turn."
    if code == ev.EXTRA_TRAIN:
        return "Each player may Train one extra card this turn."
    if code == ev.TOOL_REMOVED:
        return f"{w.whose(a[0])} is discarded."
    if code == ev.LEGACY_DRAW:
        return f"{w.name(a[0])} is Legacy: {n} draws a card."
    if code == ev.MODEL_CARD:
        return f"Model Card: {w.whose(a[0])} keeps going; all its Flags are removed."
    raise ValueError(f"unknown event code {code}")  # pragma: no cover - every code is above


def sentence(s: State, names, event: tuple, title: str | None = None) -> str:
    """One event of ``s.events`` as a commentary sentence (players called by ``names``; a player
    named "You" in the second person, :func:`for_you`)."""
    text = _text(_Words(s, names, title), event)
    return for_you(text) if YOU in names else text


def log_events(s: State, names, events, title: str | None = None, viewer: int | None = None) -> list[LogEvent]:
    """The :class:`LogEvent` rows of ``events`` (a slice of ``s.events``), worded for
    ``viewer`` (0/1: "You make a secret choice." for their own secret choices) or for anyone
    (None)."""
    w = _Words(s, names, title, viewer)
    kind = ev.KIND
    if YOU in names:
        return [LogEvent(e[1], e[2], kind[e[0]], for_you(_text(w, e))) for e in events]
    return [LogEvent(e[1], e[2], kind[e[0]], _text(w, e)) for e in events]


def _fields(s: State, names, d: Decision, viewer: int) -> tuple[list[str], dict]:
    data = [label(s, x, viewer) for x in d.data]
    return data, {"player": names[d.player], "card": s.card[d.source].name if d.source >= 0 else ""}


def prompt(s: State, names, d: Decision) -> str:
    """The decision as its chooser reads it (may name cards only they see)."""
    text = _prompt(s, names, d)
    return for_you(text) if YOU in names else text


def _prompt(s: State, names, d: Decision) -> str:
    who = names[d.player]
    if d.source == ORDER:
        return f"{who} won the roll: go first or go second?"
    if d.source == MULLIGAN:
        return f"{who}: keep this hand, or shuffle it back and draw a new one?"
    if d.source == MODEL_CARD:
        return (f"Model Card: {label(s, d.data[0], d.player)} would be Deprecated. "
                "Remove all its Flags instead (once per game)?")
    data, fields = _fields(s, names, d, d.player)
    return s.effect[d.source].prompts[d.step][0].format(*data, **fields)


def public_prompt(s: State, names, d: Decision) -> str:
    """The decision as everyone else reads it: who is choosing what, never a hidden card."""
    text = _public_prompt(s, names, d)
    return for_you(text) if YOU in names else text


def _public_prompt(s: State, names, d: Decision) -> str:
    who = names[d.player]
    if d.source == ORDER:
        return f"{who} won the roll and chooses who goes first."
    if d.source == MULLIGAN:
        return f"{who} decides to keep their hand or take a new one."
    if d.source == MODEL_CARD:
        return f"{who} decides whether Model Card saves {label(s, d.data[0], 1 - d.player)}."
    data, fields = _fields(s, names, d, 1 - d.player)
    if d.secret:
        data = ["a card"] * len(data)
    return s.effect[d.source].prompts[d.step][1].format(*data, **fields)
