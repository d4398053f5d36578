"""Computer players. A bot has ``choose(game) -> Action`` and picks only among the legal
actions, judging by what its player may see (``game.view(player)`` or
``game.observation(player)``), never the hidden cards.

- :class:`RandomBot`: any legal action, uniformly, from its own seeded generator.
- :class:`GreedyBot`: a quick rule-of-thumb player (one look ahead, no search).
- :class:`SearchBot` (:mod:`tokens_edu.search`): imagines the hidden cards and plays many
  games forward in its head before each move.
- :class:`LearningBot` (:mod:`tokens_edu.learning`): weighs a few features of each move with
  weights it learns from its games (``tokens_edu.train``); its knowledge is a pandas table.

Every bot can say why: ``bot.explain(game)`` is a table of the options it weighed
(:mod:`tokens_edu.thinking`).

Every bot also has ``choose_move(game) -> int``, the fast path simulations use: it returns one
of ``game.legal_moves()`` and ``game.push(move)`` plays it (no Action or text is made).
"""

from __future__ import annotations

import random

from ..content.cards import Card
from ..engine import moves as mv
from ..errors import IllegalAction
from ..game.actions import Action
from . import thinking

__all__ = ["Bot", "RandomBot", "GreedyBot", "card_value"]


class Bot:
    """Base class: a computer player. Subclasses give :meth:`choose_move`."""

    name = "Bot"

    def choose_move(self, game) -> int:  # pragma: no cover - interface
        """One of ``game.legal_moves()`` for the player ``game.to_act``."""
        raise NotImplementedError

    def choose(self, game) -> Action:
        """The bot's pick as an :class:`Action` (one of ``game.legal_actions()``).

        Raises:
            IllegalAction: the game is over (R25), so there is nothing to choose.
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        return game.action(self.choose_move(game))

    def explain(self, game, for_player: int | None = None):
        """The options this bot weighs for the decision of the player to act, as a pandas
        DataFrame: at most five, its pick first, with its scores and a one-line reason in a
        student's words (see :mod:`tokens_edu.thinking` for the columns).

        Args:
            game: a Game that is not over.
            for_player: who will read it (0/1); None: the player deciding. For the other
                player, options that would name the decider's hidden cards are masked.

        Raises:
            IllegalAction: the game is over (R25).
        """
        return thinking.explain(self, game, for_player)

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

    def choose_move(self, game) -> int:
        """A uniformly random legal move. Raises IllegalAction if the game is over."""
        moves = game.legal_moves()
        if not moves:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        return self._rng.choice(moves)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"

    def _explain_rows(self, game):
        return thinking._random_rows(self, game)


def card_value(card: Card) -> float:
    """A rough worth of a card for the bots: Systems by Tokens and stats, others small.

    Returns:
        float; higher is better to keep in hand or in play.
    """
    if card.type == "System":
        return 2.0 * card.tokens + 0.5 * (card.cap + card.tru) - 0.25 * card.cost
    return 1.5 if card.type == "Tool" else 1.0


_VALUES: dict[int, tuple] = {}  # id(card) -> (card, card_value(card))


def _value(card: Card) -> float:
    """:func:`card_value`, worked out once per Card."""
    hit = _VALUES.get(id(card))
    if hit is None or hit[0] is not card:
        hit = _VALUES[id(card)] = (card, card_value(card))
    return hit[1]


_USEFUL_ACTIONS = {"AI Career Path", "Cognitive Offload", "Training Data", "ImageNet"}
_NO_TASK = {"Manual Override", "Ambiguous Input", "Retraining Pause", "Compliance Review", "Job Disruption"}
_TOOL_REMOVAL = {"Defunct", "Discontinued", "Outdated", "Expired", "Obsolete"}
_DRAW_TOOLS = {"Python", "CPU", "Feature Vector", "Tensor"}
#: What one Token of a Task given up is worth in :func:`card_value` units (where a System's
#: Tokens count twice, for the Tasks it will run). Chosen by measuring Greedy self-play over the
#: starter-deck pairings: 0 (never weigh the Task) lets the second player win 67% of games;
#: 1.75 gives the first player about half (benchmarks/selfplay.py prints the figure).
TOKEN_VALUE = 1.75

# Score tiers: GreedyBot takes the best-scoring move; a tier holds one kind of move.
_WIN, _TRAIN, _DEPLOY_SYSTEM, _DEPLOY_TOOL, _USE, _AUDIT, _TASK, _ACTION = (
    10_000.0, 1_000.0, 900.0, 800.0, 700.0, 600.0, 500.0, 400.0)
_NEVER = -1.0


class GreedyBot(Bot):
    """A fast rule-of-thumb player. In order of preference: train a low-value card (while the
    Training Set is small or the hand is big), deploy its best affordable System, deploy a Tool
    it has not got, use a Tool that helps, Audit when the Deprecation is worth more than the
    Task the auditor gives up (R14), Run its best Task, play a useful Action; else end the turn.
    A Task that wins the game comes first.

    It reads only what its player may see (``game.view(player)``: its hand, the board, counts)
    and its legal moves. Deterministic: the same position gives the same choice.
    """

    name = "Greedy"

    def _explain_rows(self, game):
        return thinking._greedy_rows(self, game)

    def choose_move(self, game) -> int:
        """The bot's pick among ``game.legal_moves()``. Raises IllegalAction if the game is over."""
        moves = game.legal_moves()
        if len(moves) <= 1:
            if not moves:
                raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
            return moves[0]
        view = game.view(game.to_act)
        if moves[0] & 15 == mv.CHOOSE:
            return moves[self._choose_option(view, view.decision())]
        return self._best(view, moves)

    def _best(self, view, moves: list[int]) -> int:
        """The move with the highest :meth:`score` (the first of equals; end turn if none is
        above 0), found without scoring every move: the tiers of :meth:`score` are far apart,
        so the best tier that has a move decides (tests check both ways agree)."""
        me = view.player
        card = view.card
        n = len(moves)
        i = 0  # the moves come grouped by kind: train, deploy, task, audit, use, end
        while moves[i] & 15 == mv.TRAIN:
            i += 1
        j = i
        while moves[j] & 15 == mv.DEPLOY:
            j += 1
        k = j
        while moves[k] & 15 == mv.TASK:
            k += 1
        u = k
        while moves[u] & 15 == mv.AUDIT:
            u += 1
        trains, deploys, tasks, audits, uses = moves[:i], moves[i:j], moves[j:k], moves[k:u], moves[u:n - 1]
        need = 15 - view.tokens(me)
        for m in tasks:
            if card(((m >> 4) & 0xFFF) - 1).tokens >= need:
                return m
        if trains and (view.training_set_size(me) < 6 or view.hand_size(me) > 3):
            best, low = trains[0], None
            for m in trains:
                value = _value(card(((m >> 4) & 0xFFF) - 1))
                if low is None or value < low:
                    best, low = m, value
            return best
        best, high = -1, None
        for m in deploys:
            c = card(((m >> 4) & 0xFFF) - 1)
            if c.type == "System":
                value = _value(c)
                if high is None or value > high:
                    best, high = m, value
        if best >= 0:
            return best
        have = None
        for m in deploys:
            c = card(((m >> 4) & 0xFFF) - 1)
            if c.type == "Tool":
                if have is None:
                    have = {card(t).name for t in view.tools(me)}
                if c.name not in have:
                    return m
        for m in uses:
            _, a, b, _ = mv.decode(m)
            if self._use_is_good(view, a, b):
                return m
        best, best_gain = -1, 0.0
        if audits:  # audit_gain, with each System's numbers read once
            seen: dict[int, tuple] = {}
            task_value = TOKEN_VALUE
            for m in audits:
                a, t = ((m >> 4) & 0xFFF) - 1, ((m >> 16) & 0xFFF) - 1
                them = seen.get(t)
                if them is None:
                    ct = card(t)
                    them = seen[t] = (ct.tru - view.flags(t), view.cap(t) + (1 if view.has_keyword(t, "Adversarial") else 0),
                                      _value(ct))
                us = seen.get(a)
                if us is None:
                    ca = card(a)
                    us = seen[a] = (view.cap(a), ca.tru - view.flags(a), _value(ca),
                                    0.0 if view.task_barred(a) else task_value * ca.tokens)
                if us[0] < them[0]:
                    continue  # Deprecates nothing
                gain = them[2] - (us[2] if them[1] >= us[1] else 0.0) - us[3]
                if gain > best_gain:
                    best, best_gain = m, gain
        if best >= 0:
            return best
        if tasks:
            return max(tasks, key=lambda m: card(((m >> 4) & 0xFFF) - 1).tokens)
        for m in deploys:
            _, a, b, c = mv.decode(m)
            if c < 0 and card(a).type == "Action" and self._action_is_good(view, card(a), b):
                return m
        return moves[-1]  # end turn

    # -- decisions (R2, R3, R16, R23) -------------------------------------------------------------
    @staticmethod
    def _choose_option(view, decision) -> int:
        labels, options, _source, _step = decision
        if labels == "first-second":
            return 0  # go first
        if labels == "keep-mulligan":
            hand = [view.card(x) for x in view.hand()]
            good = any(c.trainable for c in hand) and any(c.type == "System" and c.cost <= 2 for c in hand)
            return 0 if good else 1
        if labels == "yes-no":
            return options.index(True)
        if labels == "mode":
            return options.index("a")
        if labels == "top-bottom":
            return options.index("top")
        if labels == "flags":
            return options.index(max(options))
        if labels == "hand":  # discard the least useful card
            return min(range(len(options)), key=lambda i: card_value(view.card(options[i])))
        if labels == "pick":  # keep the most useful card
            return max(range(len(options)), key=lambda i: card_value(view.card(options[i])))
        return 0

    # -- the main phase ---------------------------------------------------------------------------
    def score(self, view, move: int) -> float:
        """How much the bot likes ``move`` (higher is better; 0 or less: not worth it)."""
        kind, a, b, c = mv.decode(move)
        me = view.player
        if kind == mv.TASK:
            tokens = view.card(a).tokens
            return _WIN if view.tokens(me) + tokens >= 15 else _TASK + tokens
        if kind == mv.TRAIN:
            if view.training_set_size(me) < 6 or view.hand_size(me) > 3:
                return _TRAIN - _value(view.card(a))
            return _NEVER
        if kind == mv.DEPLOY:
            card = view.card(a)
            if card.type == "System":
                return _DEPLOY_SYSTEM + _value(card)
            if card.type == "Tool":
                have = {view.card(t).name for t in view.tools(me)}
                return _DEPLOY_TOOL if card.name not in have else _NEVER
            if c < 0 and self._action_is_good(view, card, b):
                return _ACTION
            return _NEVER
        if kind == mv.AUDIT:
            gain = self.audit_gain(view, a, b)
            return _AUDIT + gain if gain > 0 else _NEVER
        if kind == mv.USE:
            return _USE if self._use_is_good(view, a, b) else _NEVER
        return _NEVER

    @staticmethod
    def audit_gain(view, a: int, t: int) -> float:
        """What Audit a -> t is worth, in :func:`card_value` units: the System it Deprecates,
        minus the auditor if it falls too, minus the Task the auditor gives up (it turns
        sideways either way). 0 or less when the Audit Deprecates nothing."""
        mine, theirs = view.card(a), view.card(t)
        dealt = view.cap(a)
        if view.flags(t) + dealt < theirs.tru:
            return 0.0
        back = view.cap(t) + (1 if view.has_keyword(t, "Adversarial") else 0)
        gain = _value(theirs)
        if view.flags(a) + back >= mine.tru:
            gain -= _value(mine)
        if not view.task_barred(a):
            gain -= TOKEN_VALUE * mine.tokens
        return gain

    @staticmethod
    def _use_is_good(view, tool: int, target: int) -> bool:
        name = view.card(tool).name
        me = view.player
        if target < 0:
            return name in _DRAW_TOOLS
        if name == "GPU":
            return view.card(target).type == "System" and target in view.systems(me)
        if name == "Human-in-the-Loop":
            return target in view.systems(me) and view.flags(target) > 0
        if name == "Fairness Check":
            return target in view.systems(view.opponent)
        if name == "RAM":
            return True
        return False

    @staticmethod
    def _action_is_good(view, card: Card, target: int) -> bool:
        name = card.name
        if name in _USEFUL_ACTIONS:
            return True
        theirs = view.systems(view.opponent)
        if name == "Bias in Data":
            return target in theirs and view.flags(target) + 1 >= view.card(target).tru
        if name in _NO_TASK:
            return target in theirs and view.card(target).tokens >= 3
        if name in _TOOL_REMOVAL:
            return target in view.tools(view.opponent)
        if name == "Mandatory Recall":
            return len(theirs) >= 2
        return False
