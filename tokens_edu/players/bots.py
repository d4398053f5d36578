"""Computer players. A bot has ``choose(game) -> Action`` and picks only among the legal
actions, judging by what its player may see (``game.view(player)`` or
``game.observation(player)``), never the hidden cards.

- :class:`RandomBot`: any legal action, uniformly, from its own seeded generator.
- :class:`GreedyBot`: a quick rule-of-thumb player (one look ahead, no search).
- :class:`SearchBot` (:mod:`tokens_edu.players.search`): imagines the hidden cards and plays many
  games forward in its head before each move.
- :class:`LearningBot` (:mod:`tokens_edu.players.learning`): weighs a few features of each move with
  weights it learns from its games (``tokens_edu.train``); its knowledge is a pandas table.

Every bot can say why: ``bot.explain(game)`` is a table of the options it weighed
(:mod:`tokens_edu.players.thinking`).

Every bot also has ``choose_move(game) -> int``, the fast path simulations use: it returns one
of ``game.legal_moves()`` and ``game.push(move)`` plays it (no Action or text is made).

This module is compiled with the engine core (``tokens_edu/_compiled.py``): GreedyBot decides
thousands of times a second, in simulations and in SearchBot's imagined games. Its classes allow
Python subclasses (a student's ``class MyBot(GreedyBot)``) and pickling (simulations send bots
to other processes).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final, cast

from mypy_extensions import mypyc_attr

from ..content.cards import Card
from ..engine import moves as mv
from ..engine.core import GameCore, moves_of, push_move, to_act_of, view_of
from ..engine.flow import actors_of, audit_moves, deploy_moves, task_moves, train_moves, use_moves
from ..engine.rules import first_of_each_name
from ..engine.state import ACTION, SYSTEM, TOOL, CardFacts
from ..engine.view import PlayerView
from ..errors import IllegalAction
from ..game.actions import Action
from . import thinking

__all__ = ["Bot", "RandomBot", "GreedyBot", "card_value", "play_out"]


@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """Base class: a computer player. Subclasses give :meth:`choose_move`."""

    name: ClassVar[str] = "Bot"

    def choose_move(self, game: Any) -> int:  # pragma: no cover - interface
        """One of ``game.legal_moves()`` for the player ``game.to_act``."""
        raise NotImplementedError

    def choose(self, game: Any) -> Action:
        """The bot's pick as an :class:`Action` (one of ``game.legal_actions()``).

        Raises:
            IllegalAction: the game is over (R25), so there is nothing to choose.
        """
        if game.over:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        return game.action(self.choose_move(game))

    def explain(self, game: Any, for_player: int | None = None) -> Any:
        """The options this bot weighs for the decision of the player to act, as a pandas
        DataFrame: at most five, its pick first, with its scores and a one-line reason in a
        student's words (see :mod:`tokens_edu.players.thinking` for the columns).

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

    # Pickling and copying (simulations send bots to other processes; the registry copies a
    # bot it is given). Compiled, a bot's own fields live in a C struct and a Python
    # subclass's in its __dict__: both are kept (the compiler's default would keep the first).
    def __getstate__(self) -> dict[str, Any]:
        """The bot's attributes, for pickle and copy."""
        state: dict[str, Any] = {}
        extra = getattr(self, "__dict__", None)
        if extra is not None:
            state.update(extra)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the attributes :meth:`__getstate__` gave."""
        for key, value in state.items():
            setattr(self, key, value)


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(Bot):
    """Picks a legal action uniformly at random.

    Args:
        seed: int or None; the same seed makes the same choices in the same positions.
    """

    name: ClassVar[str] = "Random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose_move(self, game: Any) -> int:
        """A uniformly random legal move. Raises IllegalAction if the game is over."""
        moves: list[int] = moves_of(game) if isinstance(game, GameCore) else game.legal_moves()
        if not moves:
            raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
        # random.Random.choice's own steps (the same draws, so the same pick), without its
        # Python layer: as many random bits as the number of moves needs, again while too big.
        n = len(moves)
        draw = self._rng.getrandbits
        k = n.bit_length()
        r: int = draw(k)
        while r >= n:
            r = draw(k)
        return moves[r]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"

    def __getstate__(self) -> dict[str, Any]:
        """The bot's attributes (its seed and generator too), for pickle and copy."""
        state = Bot.__getstate__(self)
        state["seed"] = self.seed
        state["_rng"] = self._rng
        return state

    def _explain_rows(self, game: Any) -> Any:
        return thinking._random_rows(self, game)


def card_value(card: Any) -> float:
    """A rough worth of a :class:`Card` for the bots: Systems by Tokens and stats, others small.

    Returns:
        float; higher is better to keep in hand or in play.
    """
    if card.type == "System":
        return 2.0 * card.tokens + 0.5 * (card.cap + card.tru) - 0.25 * card.cost
    return 1.5 if card.type == "Tool" else 1.0


def _value(f: CardFacts) -> float:
    """:func:`card_value` from a card's :class:`~tokens_edu.engine.state.CardFacts` (the same
    sums of the same printed numbers, so the same float)."""
    if f.kind == SYSTEM:
        return 2.0 * f.tokens + 0.5 * (f.cap + f.tru) - 0.25 * f.cost
    return 1.5 if f.kind == TOOL else 1.0


_USEFUL_ACTIONS: Final = frozenset({"AI Career Path", "Cognitive Offload", "Training Data", "ImageNet"})
_NO_TASK: Final = frozenset({"Manual Override", "Ambiguous Input", "Retraining Pause", "Compliance Review",
                             "Job Disruption"})
_TOOL_REMOVAL: Final = frozenset({"Defunct", "Discontinued", "Outdated", "Expired", "Obsolete"})
_DRAW_TOOLS: Final = frozenset({"Python", "CPU", "Feature Vector", "Tensor"})
#: What one Token of a Task given up is worth in :func:`card_value` units (where a System's
#: Tokens count twice, for the Tasks it will run). Chosen by measuring Greedy self-play over the
#: starter-deck pairings: 0 (never weigh the Task) lets the second player win 67% of games;
#: 1.75 gives the first player about half (benchmarks/selfplay.py prints the figure).
TOKEN_VALUE: Final = 1.75

# Score tiers: GreedyBot takes the best-scoring move; a tier holds one kind of move.
_WIN: Final = 10_000.0
_TRAIN: Final = 1_000.0
_DEPLOY_SYSTEM: Final = 900.0
_DEPLOY_TOOL: Final = 800.0
_USE: Final = 700.0
_AUDIT: Final = 600.0
_TASK: Final = 500.0
_ACTION: Final = 400.0
_NEVER: Final = -1.0


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot(Bot):
    """A fast rule-of-thumb player. In order of preference: train a low-value card (while the
    Training Set is small or the hand is big), deploy its best affordable System, deploy a Tool
    it has not got, use a Tool that helps, Audit when the Deprecation is worth more than the
    Task the auditor gives up (R14), Run its best Task, play a useful Action; else end the turn.
    A Task that wins the game comes first.

    It reads only what its player may see (``game.view(player)``: its hand, the board, counts)
    and its legal moves. Deterministic: the same position gives the same choice.
    """

    name: ClassVar[str] = "Greedy"

    def _explain_rows(self, game: Any) -> Any:
        return thinking._greedy_rows(self, game)

    def choose_move(self, game: Any) -> int:
        """The bot's pick among ``game.legal_moves()``. Raises IllegalAction if the game is over."""
        moves: list[int]
        view: PlayerView
        if isinstance(game, GameCore):  # a Game: the engine's own functions and fields, no look-ups
            s = game._s  # (read inside the isinstance test: compiled, a field read, not a getattr)
            if game._moves is None and s.decision is None and not s.over:
                return _greedy_move(game)  # (the legal moves not listed yet: list only the kinds needed)
            moves = moves_of(game)
            if len(moves) <= 1:
                if not moves:
                    raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
                return moves[0]
            player = to_act_of(game)
            assert player is not None
            view = view_of(game, player)
        else:
            moves = game.legal_moves()
            if len(moves) <= 1:
                if not moves:
                    raise IllegalAction("The game is over: there is nothing left to choose.", "choose", "R25")
                return moves[0]
            view = game.view(game.to_act)
        if moves[0] & 15 == mv.CHOOSE:
            decision = view.decision()
            assert decision is not None
            return moves[_choose_option(view, decision)]
        return _best(view, moves)

    # -- decisions (R2, R3, R16, R23) -------------------------------------------------------------
    @staticmethod
    def _choose_option(view: PlayerView, decision: tuple) -> int:
        return _choose_option(view, decision)

    # -- the main phase ---------------------------------------------------------------------------
    def score(self, view: PlayerView, move: int) -> float:
        """How much the bot likes ``move`` (higher is better; 0 or less: not worth it)."""
        kind, a, b, c = mv.decode(move)
        me = view.player
        if kind == mv.TASK:
            tokens = view.facts(a).tokens
            return _WIN if view.tokens(me) + tokens >= 15 else _TASK + tokens
        if kind == mv.TRAIN:
            if view.training_set_size(me) < 6 or view.hand_size(me) > 3:
                return _TRAIN - _value(view.facts(a))
            return _NEVER
        if kind == mv.DEPLOY:
            f = view.facts(a)
            if f.kind == SYSTEM:
                return _DEPLOY_SYSTEM + _value(f)
            if f.kind == TOOL:
                return _DEPLOY_TOOL if f.name not in _tool_names(view, me) else _NEVER
            if c < 0 and _action_is_good(view, f.name, b):
                return _ACTION
            return _NEVER
        if kind == mv.AUDIT:
            gain = self.audit_gain(view, a, b)
            return _AUDIT + gain if gain > 0 else _NEVER
        if kind == mv.USE:
            return _USE if _use_is_good(view, a, b) else _NEVER
        return _NEVER

    @staticmethod
    def audit_gain(view: PlayerView, a: int, t: int) -> float:
        """What Audit a -> t is worth, in :func:`card_value` units: the System it Deprecates,
        minus the auditor if it falls too, minus the Task the auditor gives up (it turns
        sideways either way). 0 or less when the Audit Deprecates nothing."""
        mine, theirs = view.facts(a), view.facts(t)
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
    def _use_is_good(view: PlayerView, tool: int, target: int) -> bool:
        return _use_is_good(view, tool, target)

    @staticmethod
    def _action_is_good(view: PlayerView, card: Card, target: int) -> bool:
        return _action_is_good(view, card.name, target)


def _card_of(m: int) -> int:
    """The first card id of move m (the card trained, deployed, tasked, auditing or used)."""
    return ((m >> 4) & 0xFFF) - 1


def _best(view: PlayerView, moves: list[int]) -> int:
    """GreedyBot's move with the highest :meth:`GreedyBot.score` (the first of equals; end turn
    if none is above 0), found without scoring every move: the tiers of the score are far
    apart, so the best tier that has a move decides (tests check both ways agree)."""
    me = view.player
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
    need = 15 - view.tokens(me)
    for x in range(j, k):  # a Task that wins
        m = moves[x]
        if view.facts(_card_of(m)).tokens >= need:
            return m
    if i > 0 and (view.training_set_size(me) < 6 or view.hand_size(me) > 3):
        best = moves[0]
        low = _value(view.facts(_card_of(best)))
        for x in range(1, i):
            m = moves[x]
            value = _value(view.facts(_card_of(m)))
            if value < low:
                best, low = m, value
        return best
    best = -1
    high = 0.0
    for x in range(i, j):  # the best System to deploy
        m = moves[x]
        f = view.facts(_card_of(m))
        if f.kind == SYSTEM:
            value = _value(f)
            if best < 0 or value > high:
                best, high = m, value
    if best >= 0:
        return best
    have: set[str] | None = None
    for x in range(i, j):  # a Tool it has not got
        m = moves[x]
        f = view.facts(_card_of(m))
        if f.kind == TOOL:
            if have is None:
                have = _tool_names(view, me)
            if f.name not in have:
                return m
    for x in range(u, n - 1):
        m = moves[x]
        if _use_is_good(view, _card_of(m), ((m >> 16) & 0xFFF) - 1):
            return m
    best = -1
    best_gain = 0.0
    for x in range(k, u):  # the Audit worth most (GreedyBot.audit_gain's sums)
        m = moves[x]
        a, t = _card_of(m), ((m >> 16) & 0xFFF) - 1
        ft, fa = view.facts(t), view.facts(a)
        if view.cap(a) < ft.tru - view.flags(t):
            continue  # Deprecates nothing
        back = view.cap(t) + (1 if view.has_keyword(t, "Adversarial") else 0)
        gain = _value(ft) - (_value(fa) if back >= fa.tru - view.flags(a) else 0.0) \
            - (0.0 if view.task_barred(a) else TOKEN_VALUE * fa.tokens)
        if gain > best_gain:
            best, best_gain = m, gain
    if best >= 0:
        return best
    if k > j:  # the Task that earns the most (the first of equals)
        best = moves[j]
        most = view.facts(_card_of(best)).tokens
        for x in range(j + 1, k):
            m = moves[x]
            tokens = view.facts(_card_of(m)).tokens
            if tokens > most:
                best, most = m, tokens
        return best
    for x in range(i, j):  # a useful Action
        m = moves[x]
        if ((m >> 28) & 0xFFF) - 1 < 0:
            f = view.facts(_card_of(m))
            if f.kind == ACTION and _action_is_good(view, f.name, ((m >> 16) & 0xFFF) - 1):
                return m
    return moves[n - 1]  # end turn


def _greedy_move(g: GameCore) -> int:
    """:func:`_best` of the main phase's legal moves, listing only the kinds of move it gets to.

    The same choice as ``_best(view, legal_moves)`` (tests compare them), in the same order of
    preference, but each kind of move is listed (by the engine's own
    :func:`~tokens_edu.engine.flow.train_moves`, :func:`~tokens_edu.engine.flow.deploy_moves`...)
    only when the kinds before it gave nothing: a turn's first Train lists its Tasks and Trains,
    not its Deploys, Audits and Uses (callgrind: listing the moves was a quarter of a Greedy
    game). For a game whose position has no decision in progress and is not over.
    """
    s = g._s
    me = s.active
    view = view_of(g, me)
    hand = first_of_each_name(s, s.hand[me])
    actors = actors_of(s, me)
    tasks: list[int] = []
    task_moves(s, me, actors, tasks)
    need = 15 - view.tokens(me)
    for m in tasks:  # a Task that wins
        if view.facts(_card_of(m)).tokens >= need:
            return m
    trains: list[int] = []
    train_moves(s, me, hand, trains)
    if trains and (view.training_set_size(me) < 6 or view.hand_size(me) > 3):
        best = trains[0]
        low = _value(view.facts(_card_of(best)))
        for x in range(1, len(trains)):
            m = trains[x]
            value = _value(view.facts(_card_of(m)))
            if value < low:
                best, low = m, value
        return best
    deploys: list[int] = []
    deploy_moves(s, me, hand, actors, deploys)
    best = -1
    high = 0.0
    for m in deploys:  # the best System to deploy
        f = view.facts(_card_of(m))
        if f.kind == SYSTEM:
            value = _value(f)
            if best < 0 or value > high:
                best, high = m, value
    if best >= 0:
        return best
    have: set[str] | None = None
    for m in deploys:  # a Tool it has not got
        f = view.facts(_card_of(m))
        if f.kind == TOOL:
            if have is None:
                have = _tool_names(view, me)
            if f.name not in have:
                return m
    uses: list[int] = []
    use_moves(s, me, uses)
    for m in uses:
        if _use_is_good(view, _card_of(m), ((m >> 16) & 0xFFF) - 1):
            return m
    audits: list[int] = []
    audit_moves(s, me, actors, audits)
    best = -1
    best_gain = 0.0
    for m in audits:  # the Audit worth most (GreedyBot.audit_gain's sums)
        a, t = _card_of(m), ((m >> 16) & 0xFFF) - 1
        ft, fa = view.facts(t), view.facts(a)
        if view.cap(a) < ft.tru - view.flags(t):
            continue  # Deprecates nothing
        back = view.cap(t) + (1 if view.has_keyword(t, "Adversarial") else 0)
        gain = _value(ft) - (_value(fa) if back >= fa.tru - view.flags(a) else 0.0) \
            - (0.0 if view.task_barred(a) else TOKEN_VALUE * fa.tokens)
        if gain > best_gain:
            best, best_gain = m, gain
    if best >= 0:
        return best
    if tasks:  # the Task that earns the most (the first of equals)
        best = tasks[0]
        most = view.facts(_card_of(best)).tokens
        for x in range(1, len(tasks)):
            m = tasks[x]
            tokens = view.facts(_card_of(m)).tokens
            if tokens > most:
                best, most = m, tokens
        return best
    for m in deploys:  # a useful Action
        if ((m >> 28) & 0xFFF) - 1 < 0:
            f = view.facts(_card_of(m))
            if f.kind == ACTION and _action_is_good(view, f.name, ((m >> 16) & 0xFFF) - 1):
                return m
    return mv.END  # end turn


def _tool_names(view: PlayerView, p: int) -> set[str]:
    """The names of player p's Tools in play."""
    return {view.facts(t).name for t in view.tools(p)}


def _choose_option(view: PlayerView, decision: tuple) -> int:
    """GreedyBot's answer to a decision (R2, R3, R16, R23): the index of its option."""
    labels, options = decision[0], decision[1]
    if labels == "first-second":
        return 0  # go first
    if labels == "keep-mulligan":
        trainable = cheap_system = False
        for x in view.hand():
            f = view.facts(x)
            trainable = trainable or f.trainable
            cheap_system = cheap_system or (f.kind == SYSTEM and f.cost <= 2)
        return 0 if trainable and cheap_system else 1
    if labels == "yes-no":
        return options.index(True)
    if labels == "mode":
        return options.index("a")
    if labels == "top-bottom":
        return options.index("top")
    if labels == "flags":
        return options.index(max(options))
    if labels == "hand" or labels == "pick":  # discard the least useful card; keep the most useful
        best = 0
        value = _value(view.facts(options[0]))
        for i in range(1, len(options)):
            v = _value(view.facts(options[i]))
            if (v < value) if labels == "hand" else (v > value):
                best, value = i, v
        return best
    return 0


def _use_is_good(view: PlayerView, tool: int, target: int) -> bool:
    name = view.facts(tool).name
    me = view.player
    if target < 0:
        return name in _DRAW_TOOLS
    if name == "GPU":
        return view.facts(target).kind == SYSTEM and target in view.systems(me)
    if name == "Human-in-the-Loop":
        return target in view.systems(me) and view.flags(target) > 0
    if name == "Fairness Check":
        return target in view.systems(view.opponent)
    if name == "RAM":
        return True
    return False


def _action_is_good(view: PlayerView, name: str, target: int) -> bool:
    if name in _USEFUL_ACTIONS:
        return True
    theirs = view.systems(view.opponent)
    if name == "Bias in Data":
        return target in theirs and view.flags(target) + 1 >= view.facts(target).tru
    if name in _NO_TASK:
        return target in theirs and view.facts(target).tokens >= 3
    if name in _TOOL_REMOVAL:
        return target in view.tools(view.opponent)
    if name == "Mandatory Recall":
        return len(theirs) >= 2
    return False


def play_out(game: GameCore, bots: Any, max_moves: int = -1) -> int:
    """Play ``game`` on with ``bots`` until it is over (or ``max_moves`` moves were played):
    the loop of a simulation, compiled with the engine, so a move costs no Python-level call.

    Each move is ``bots[game.to_act].choose_move(game)``, played as :meth:`Game.push` plays it.
    A :class:`GreedyBot` or :class:`RandomBot` (exactly those classes, compiled) picks among the
    legal moves the engine has just listed, so its move is played without looking it up in that
    list again; any other bot's move is checked as ``push`` checks it.

    Args:
        game: a Game (any :class:`~tokens_edu.engine.core.GameCore`).
        bots: a pair of bots with ``choose_move``: player 0's, player 1's.
        max_moves: stop after this many moves; -1 (default) plays to the end (R25: a game with
            a turn limit always ends).

    Returns:
        int: the moves played.

    Raises:
        IllegalAction: a bot chose a move that is not legal (the game is left before it).
    """
    played = 0
    s = game._s  # (read its field: the property ``over`` is looked up by name on a Game, slowly)
    while not s.over and played != max_moves:
        player = to_act_of(game)
        assert player is not None
        bot = bots[player]
        if type(bot) is GreedyBot:
            push_move(game, cast(GreedyBot, bot).choose_move(game), None)
        elif type(bot) is RandomBot:
            push_move(game, cast(RandomBot, bot).choose_move(game), None)
        else:
            game.push(bot.choose_move(game))
        played += 1
    return played
