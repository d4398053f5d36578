"""Actions: small immutable values with a text form that ``Game.apply`` reads back.

``str(action)`` is the text a student types (``"audit Neural Network -> Explainability"``) and
``Action.parse(text)`` reads it back, so ``game.apply(str(a))`` does what ``game.apply(a)``
does. The kinds and their texts are listed in the project's API (``API.md``):

=========  ==============================================================================
kind       text
=========  ==============================================================================
order      ``go first`` / ``go second`` (R2)
keep       ``keep`` (R3)
mulligan   ``mulligan``, also read from ``new hand`` (the words on screen) (R3)
train      ``train Chatbot`` (R8)
deploy     ``deploy Neural Network``, ``deploy Bias in Data -> Chatbot``,
           ``deploy Training Data with Big Data Supervised Learning`` (R9-R11, R18)
task       ``task Neural Network`` (R13)
audit      ``audit Neural Network -> Explainability`` (R14)
use        ``use Python``, ``use CUDA -> Neural Network`` (R17)
choose     ``choose Chatbot``, ``choose bottom``, ``choose order Sensor, Chatbot``,
           ``choose mode b``, ``choose 2 Flags``, ``choose yes`` / ``choose no`` (R16, R22, R23)
end        ``end turn`` (R7)
=========  ==============================================================================

When two cards of the same name could be meant, the second is written ``Chatbot #2``.

An Action is the one move value of the package (as python-chess's ``Move``): the game's
:meth:`~tokens_edu.Game.legal_actions`, the bots' ``choose``, a :class:`~tokens_edu.players.Match`,
the presenter's page and the card table's buttons all pass Actions. An Action the game made
also carries the engine's int move (``move``), who makes it (``player``) and whether it is a
secret choice (``secret``, R22); these do not take part in comparing or hashing, so
``Action.parse("task Chatbot") == game.legal_actions()[i]`` when that is the move. Its text is
made only to show a move or to keep it in a record (``str(action)``, ``Game.to_record``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..content.cards import plain_text as _plain
from ..errors import IllegalAction

__all__ = ["Action", "KINDS", "normalize"]

KINDS = ("order", "keep", "mulligan", "train", "deploy", "task", "audit", "use", "choose", "end")

_SPACES = re.compile(r"\s+")
_ARROW = re.compile(r"\s*(?:->|→|=>)\s*")
_COMMA = re.compile(r"\s*,\s*")
_FIRST = re.compile(r"\s*#\s*1\b")
_HASH = re.compile(r"\s*#\s*(\d+)")
_MAX_TEXT = 200


def normalize(text: str) -> str:
    """The canonical, case-folded form of an action text, used to match what a student typed.

    Makes typographic quotes, apostrophes and dashes plain (``AI Isn’t Magic``), collapses
    spaces, trims stray punctuation from the ends (``task Chatbot.``), writes arrows as
    `` -> ``, commas as ``, ``, ``#2`` with one space before it, and drops ``#1`` (the first
    card of a name needs no number).

    Texts up to 100 characters are remembered, the 8,192 last asked (card names repeat at
    every position: matching the moves of a 10,000-move record spent two thirds of its time
    here); longer ones (what a student typed) are not kept.
    """
    if type(text) is str and len(text) <= 100:
        return _normalize_short(text)
    return _normalize(text)


@functools.lru_cache(maxsize=8192)
def _normalize_short(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    t = _SPACES.sub(" ", _plain(text)).casefold()
    t = _ARROW.sub(" -> ", t)
    t = _COMMA.sub(", ", t)
    t = _FIRST.sub("", t)
    return _HASH.sub(r" #\1", t)


def _norm(value: str | None) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"An Action's names are text, not {type(value).__name__}.")
    return normalize(value)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a player, as a value. Compare, hash and print it; apply it to a Game.

    Attributes:
        kind: one of :data:`KINDS`.
        card: the card acted with (a name, ``#2`` added when two could be meant), or None.
        target: the card aimed at (a System, a Tool, or an Action in a discard pile), or None.
        via: for ``deploy ... with Big Data S``: the System S that pays (R11), else None.
        choice: for ``choose``: what is chosen (``"yes"``, ``"bottom"``, ``"mode b"``,
            ``"order Sensor, Chatbot"``, ``"2 Flags"`` or a card name); for ``order``:
            ``"first"`` or ``"second"``.
        move: the engine's int move (:mod:`tokens_edu.engine.moves`) when the game made this
            Action (``legal_actions``, ``action(move)``, ``move_stack``), else -1 (built by hand
            or read from text). Keyword only; not compared.
        player: who makes (or made) it, 0 or 1, when the game made it; else -1. Not compared.
        secret: True for a choice among cards only its chooser may see (a look at the deck,
            R22); the engine decides it (:class:`~tokens_edu.engine.state.Decision`). Not compared.

    The game finds an Action among its legal moves by its ``move`` when it has one and it still
    means the same move, else by :meth:`key` (its fields in any case and spacing).
    """

    kind: str
    card: str | None = None
    target: str | None = None
    via: str | None = None
    choice: str | None = None
    move: int = field(default=-1, compare=False, kw_only=True)
    player: int = field(default=-1, compare=False, kw_only=True)
    secret: bool = field(default=False, compare=False, kw_only=True)

    def key(self) -> tuple:
        """What tells this move from the others of a position, in any case and spacing: the
        kind and the fields its text shows, each :func:`normalize`-d (``#1`` dropped, quotes
        and arrows made plain). Two Actions with the same key are the same move.

        Raises:
            TypeError: a field is not text (an Action built by hand with odd fields).
        """
        k = self.kind
        if k in ("choose", "order"):
            return (k, _norm(self.choice))
        if k in ("train", "task"):
            return (k, _norm(self.card))
        if k in ("audit", "use"):
            return (k, _norm(self.card), _norm(self.target))
        if k == "deploy":
            return (k, _norm(self.card), _norm(self.target), _norm(self.via))
        return (k,)  # keep, mulligan, end

    def __str__(self) -> str:
        k = self.kind
        if k == "deploy":
            text = f"deploy {self.card}"
            if self.target is not None:
                text += f" -> {self.target}"
            if self.via is not None:
                text += f" with Big Data {self.via}"
            return text
        if k in ("task", "train"):
            return f"{k} {self.card}"
        if k in ("audit", "use"):
            return f"{k} {self.card}" if self.target is None else f"{k} {self.card} -> {self.target}"
        if k == "choose":
            return f"choose {self.choice}"
        if k == "order":
            return f"go {self.choice}"
        if k == "end":
            return "end turn"
        return k  # keep, mulligan

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read an action from its text (any case, any spacing). The inverse of ``str()``.

        This checks the *shape* of the text only; whether the action is legal is the game's
        question (:meth:`tokens_edu.Game.apply`).

        Raises:
            IllegalAction: the text is not an action at all (with ``rule`` None), in plain words.
        """
        if not isinstance(text, str):
            raise IllegalAction(
                f"An action must be text like 'end turn' or an Action, not {type(text).__name__}.",
                action=type(text).__name__,
            )
        if len(text) > _MAX_TEXT:
            raise IllegalAction("That action text is far too long to be an action.", action=text[:40] + "...")
        raw = _SPACES.sub(" ", _plain(text))
        low = raw.casefold()
        if not raw:
            raise IllegalAction("Type an action, like 'end turn' or 'task Chatbot'.", action=text)
        verb, _, rest = raw.partition(" ")
        verb = verb.casefold()
        rest = rest.strip()
        if low in ("go first", "go second"):
            return cls("order", choice=low[3:])
        if low in ("keep", "mulligan"):
            return cls(low)
        if low in ("new hand", "take a new hand"):  # the words students see for a mulligan (R3)
            return cls("mulligan")
        if low in ("end turn", "end", "pass"):
            return cls("end")
        if verb == "choose" and rest:
            low_rest = rest.casefold()
            special = low_rest in ("yes", "no", "top", "bottom") or low_rest.startswith(("mode ", "order ")) \
                or low_rest.endswith((" flag", " flags"))
            return cls("choose", card=None if special else rest, choice=rest)
        if verb in ("train", "task") and rest and "->" not in rest:
            return cls(verb, card=rest)
        if verb in ("deploy", "audit", "use") and rest:
            via = None
            if verb == "deploy":
                m = re.search(r"\s+with\s+big\s+data\s+", rest, flags=re.IGNORECASE)
                if m:
                    rest, via = rest[: m.start()].strip(), rest[m.end():].strip()
                    if not via:
                        raise IllegalAction("Say which System pays: 'deploy Training Data with Big Data Neural Network'.", action=text)
            card, arrow, target = (p.strip() for p in _ARROW.sub(" -> ", rest).partition(" -> "))
            if not card or (arrow and not target):
                raise IllegalAction(f"'{raw}' is missing a card name.", action=text)
            if verb == "audit" and not arrow:
                raise IllegalAction(
                    "An Audit needs two Systems: 'audit YourSystem -> TheirSystem' (R14).", action=text, rule="R14"
                )
            return cls(verb, card=card, target=target or None, via=via)
        words = "go first, go second, keep, new hand, train, deploy, task, audit, use, choose, end turn"
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise IllegalAction(f"'{shown}' is not an action. An action starts with one of: {words}.", action=text)
