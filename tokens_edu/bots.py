"""Computer players. Each bot has ``choose(game) -> Action`` and picks only from
``game.legal_actions()``, judging by ``game.observation(player)`` (never hidden cards).

- :class:`RandomBot`: any legal action, uniformly, from its own seeded generator.
- :class:`GreedyBot`: a quick rule-of-thumb player (one look ahead, no search).
"""

from __future__ import annotations

import random

from .actions import Action
from .cards import Card
from .errors import IllegalAction

__all__ = ["Bot", "RandomBot", "GreedyBot", "card_value"]


class Bot:
    """Base class: a bot is anything with ``choose(game) -> Action``."""

    name = "Bot"

    def choose(self, game) -> Action:  # pragma: no cover - interface
        """Return one of ``game.legal_actions()`` for the player ``game.to_act``."""
        raise NotImplementedError

    def _legal(self, game) -> list[Action]:
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        return game.legal_actions()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Picks a legal action uniformly at random.

    Args:
        seed: int or None; the same seed makes the same choices in the same positions.
    """

    name = "Random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, game) -> Action:
        """A uniformly random legal action. Raises IllegalAction if the game is over."""
        return self._rng.choice(self._legal(game))

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


def card_value(card: Card) -> float:
    """A rough worth of a card for the bots: Systems by Tokens and stats, others small.

    Returns:
        float; higher is better to keep in hand or in play.
    """
    if card.is_system:
        return 2.0 * card.tokens + 0.5 * (card.cap + card.tru) - 0.25 * card.cost
    return 1.5 if card.is_tool else 1.0


_USEFUL_ACTIONS = {"AI Career Path", "Cognitive Offload", "Training Data", "ImageNet"}
_NO_TASK = {"Manual Override", "Ambiguous Input", "Retraining Pause", "Compliance Review", "Job Disruption"}
_TOOL_REMOVAL = {"Defunct", "Discontinued", "Outdated", "Expired", "Obsolete"}


class GreedyBot(Bot):
    """A fast rule-of-thumb player: train a low card, deploy the best affordable card, Audit
    when it Deprecates something worth it, else Run Tasks; then end the turn.

    It reads only ``game.observation(player)`` and the legal actions' texts.
    """

    name = "Greedy"

    def choose(self, game) -> Action:
        """The bot's pick among ``game.legal_actions()``. Raises IllegalAction if the game is over."""
        legal = self._legal(game)
        if len(legal) == 1:
            return legal[0]
        kinds = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        if "order" in kinds:
            return next(a for a in legal if a.choice == "first")
        obs = game.observation(game.to_act)
        if "keep" in kinds:
            hand = obs.hand
            good = any(c.trainable for c in hand) and any(c.is_system and c.cost <= 2 for c in hand)
            return kinds["keep"][0] if good else kinds["mulligan"][0]
        if "choose" in kinds:
            return self._choose_option(obs, kinds["choose"])
        mine = {b.label: b for b in obs.board if b.owner == obs.player}
        theirs = {b.label: b for b in obs.board if b.owner != obs.player}
        by_name = {c.name: c for c in obs.hand}

        if "train" in kinds and (obs.training_set[obs.player] < 6 or len(obs.hand) > 3):
            return min(kinds["train"], key=lambda a: card_value(by_name[a.card]))
        deploys = kinds.get("deploy", [])
        systems = [a for a in deploys if by_name[a.card].is_system]
        if systems:
            return max(systems, key=lambda a: card_value(by_name[a.card]))
        have_tools = {b.card.name for b in mine.values() if b.card.is_tool}
        for a in deploys:
            c = by_name[a.card]
            if c.is_tool and c.name not in have_tools:
                return a
        for a in kinds.get("use", []):
            pick = self._use_is_good(a, mine, theirs)
            if pick:
                return a
        best, best_score = None, 0.0
        for a in kinds.get("audit", []):
            me, them = mine[a.card], theirs[a.target]
            back = them.cap + (1 if them.card.has("Adversarial") and not them.abilities_lost else 0)
            if them.flags + me.cap < them.tru:
                continue
            score = card_value(them.card) - (card_value(me.card) if me.flags + back >= me.tru else 0)
            if score > best_score:
                best, best_score = a, score
        if best is not None:
            return best
        tasks = kinds.get("task", [])
        if tasks:
            return max(tasks, key=lambda a: mine[a.card].card.tokens)
        for a in deploys:
            if a.via is not None:
                continue
            c = by_name[a.card]
            if c.is_action and self._action_is_good(c, a, theirs):
                return a
        return kinds["end"][0]

    @staticmethod
    def _use_is_good(a: Action, mine: dict, theirs: dict) -> bool:
        name = mine[a.card].card.name
        if a.target is None:
            return name in ("Python", "CPU", "Feature Vector", "Tensor")
        if name == "GPU":
            return a.target in mine
        if name == "Human-in-the-Loop":
            return a.target in mine and mine[a.target].flags > 0
        if name == "Fairness Check":
            return a.target in theirs
        if name == "RAM":
            return True
        return False

    @staticmethod
    def _action_is_good(c: Card, a: Action, theirs: dict) -> bool:
        if c.name in _USEFUL_ACTIONS:
            return True
        if c.name == "Bias in Data":
            t = theirs.get(a.target)
            return t is not None and t.flags + 1 >= t.tru
        if c.name in _NO_TASK:
            t = theirs.get(a.target)
            return t is not None and t.card.tokens >= 3
        if c.name in _TOOL_REMOVAL:
            return a.target in theirs
        if c.name == "Mandatory Recall":
            return sum(1 for b in theirs.values() if b.card.is_system) >= 2
        return False

    @staticmethod
    def _choose_option(obs, options: list[Action]) -> Action:
        texts = {a.choice: a for a in options}
        if "yes" in texts:
            return texts["yes"]
        if "mode a" in texts:
            return texts["mode a"]
        if "top" in texts:
            return texts["top"]
        flags = [a for a in options if a.choice.endswith(("Flag", "Flags"))]
        if flags:
            return max(flags, key=lambda a: int(a.choice.split()[0]))
        cards = [a for a in options if a.card is not None]
        pending = (obs.pending or "").lower()
        hand = {c.name: c for c in obs.hand}
        if cards and "discard" in pending:
            return min(cards, key=lambda a: card_value(hand[a.card]) if a.card in hand else 0.0)
        if cards and "hand" in pending:
            from .cards import load_cards

            pool = load_cards()
            return max(cards, key=lambda a: card_value(pool[a.card]) if a.card in pool else 0.0)
        return options[0]
