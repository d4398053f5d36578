"""Tokens TCG as a standard reinforcement-learning environment (PettingZoo AEC).

Needs the ``rl`` extra: ``pip install "tokens-edu[rl]"`` (PettingZoo and Gymnasium).

::

    from tokens_edu.env import env
    from tokens_edu.players import RandomBot

    e = env(deck0="Green-Blue", deck1="Black-Red", render_mode="ansi")
    e.reset(seed=42)
    opponent = RandomBot(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        elif agent == "player_0":
            legal = obs["action_mask"].nonzero()[0]      # the indices of the legal actions
            action = int(legal[0])
        else:
            action = e.bot_action(opponent)              # a tokens_edu bot plays player_1
        e.step(action)

Agents are ``"player_0"`` and ``"player_1"`` (the game's players 0 and 1). Whoever must decide
acts next (usually the active player; Model Card asks the other one, R16). Rewards come at the
end: +1 for the winner, -1 for the loser, 0 each for a draw. A win (15 Tokens, R25) ends the
episode with ``terminations``; the turn limit (a draw) with ``truncations``.

Observations
------------
``{"observation": float32 vector of length OBS_SIZE, "action_mask": int8 vector of length
ACTION_SIZE}``, built only from ``game.observation(player)`` (the player's own hand, never the
opponent's hand or either deck's order). The vector, "me" being the observing player and every
number clipped to 0..255 (see :data:`OBS_FIELDS` for each part's name and length):

- ``globals`` (16): my Tokens, their Tokens, turn, I am the active player, I must choose (a
  pending choice), my/their hand size, deck size, discard size, ready Data, Training Set size.
- ``hand`` (70): how many of each card (by set number) are in my hand.
- ``my_discard``, ``their_discard`` (70 each): cards in each discard pile (public).
- ``my_board``, ``their_board`` (70 each): copies of each card in play on each side.
- ``my_slots``, ``their_slots`` (30 slots x 12): each card in play, in board order (Systems,
  then Tools): present, set number, is a System, CAP, TRU, Flags, sideways, can act, new, can't
  Run a Task, can't be Audited, lost its abilities.

Actions (a fixed ``Discrete(ACTION_SIZE)``; the mapping is stable)
-----------------------------------------------------------------
Cards are numbered by their set number (``card.number - 1``, 0..69). Board slots are positions
in a side's board as ``observation.board`` lists it (Systems, then Tools; 0..29). A *target* is
one of 2 x 30 + 70: my slot ``s`` (``s``), their slot ``s`` (``30 + s``), or an Action card in
my discard pile (``60 + card``). The blocks, in order (:data:`BLOCKS` gives their offsets):

==============  ==========  ============================================================
block           size        index within the block
==============  ==========  ============================================================
order           2           go first, go second (R2)
setup           2           keep, mulligan (R3)
end             1           end turn (R7)
train           70          card (R8)
deploy          70          card, paid with Data (R9-R10)
deploy_via      70 x 30     card x my slot of the System that pays with Big Data (R11)
deploy_at       70 x 130    card x target (an Action's target, R18)
task            30          my slot (R13)
audit           30 x 30     my slot x their slot (R14)
use             30          my Tool's slot (R17)
use_at          30 x 130    my Tool's slot x target (R17)
choose_word     11          yes, no, top, bottom, mode a, mode b, 0 Flags, 1 Flag, 2 Flags,
                            the first "order ..." offered, the second (R16, R22, R23)
choose_card     40          the k-th card offered in a choice (in the order legal_actions
                            lists them: a card to pick from a look at the deck, to discard,
                            a System to aim at)
==============  ==========  ============================================================

:func:`action_to_index` and :func:`index_to_action` turn one into the other for a player's
observation; every legal action has exactly one index (tested on many games). Stepping an
index that is not legal raises :class:`~tokens_edu.IllegalAction` with the engine's
explanation, and changes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("tokens_edu.env needs PettingZoo and Gymnasium: pip install 'tokens-edu[rl]' "
                      f"(missing: {e.name}).") from None

from ..content.cards import load_cards
from ..content.decks import resolve_deck, starter_decks
from ..errors import DeckError, IllegalAction
from ..game.actions import Action
from ..game.game import Game

__all__ = ["env", "raw_env", "action_to_index", "index_to_action", "action_kind", "observation_vector",
           "ACTION_SIZE", "OBS_SIZE", "BLOCKS", "OBS_FIELDS", "CARDS", "BOARD_SLOTS", "TARGETS",
           "CHOICE_WORDS", "MAX_CARD_CHOICES"]

#: Cards in the Alpha Set, numbered 1..70; a card's index is ``number - 1``.
CARDS = 70
#: Board slots per side. A deck with more Systems and Tools than this cannot be used here.
BOARD_SLOTS = 30
#: Targets: my slots, their slots, then an Action card in my discard pile.
TARGETS = 2 * BOARD_SLOTS + CARDS
#: The fixed words a ``choose`` can have (the last two: the first and second order offered).
CHOICE_WORDS = ("yes", "no", "top", "bottom", "mode a", "mode b", "0 Flags", "1 Flag", "2 Flags",
                "order #1", "order #2")
#: Most card options a single choice can offer here.
MAX_CARD_CHOICES = 40

_SIZES = [("order", 2), ("setup", 2), ("end", 1), ("train", CARDS), ("deploy", CARDS),
          ("deploy_via", CARDS * BOARD_SLOTS), ("deploy_at", CARDS * TARGETS), ("task", BOARD_SLOTS),
          ("audit", BOARD_SLOTS * BOARD_SLOTS), ("use", BOARD_SLOTS), ("use_at", BOARD_SLOTS * TARGETS),
          ("choose_word", len(CHOICE_WORDS)), ("choose_card", MAX_CARD_CHOICES)]
#: Block name -> (offset, size) in the action space.
BLOCKS: dict[str, tuple[int, int]] = {}
_o = 0
for _name, _size in _SIZES:
    BLOCKS[_name] = (_o, _size)
    _o += _size
#: Number of actions: the size of the Discrete action space.
ACTION_SIZE = _o

_SLOT_FEATURES = 12
#: Part of the observation vector -> (offset, length).
OBS_FIELDS: dict[str, tuple[int, int]] = {}
_o = 0
for _name, _size in [("globals", 16), ("hand", CARDS), ("my_discard", CARDS), ("their_discard", CARDS),
                     ("my_board", CARDS), ("their_board", CARDS), ("my_slots", BOARD_SLOTS * _SLOT_FEATURES),
                     ("their_slots", BOARD_SLOTS * _SLOT_FEATURES)]:
    OBS_FIELDS[_name] = (_o, _size)
    _o += _size
#: Length of the observation vector.
OBS_SIZE = _o
_HIGH = 255.0


@functools.lru_cache(maxsize=1)
def _card_index() -> dict[str, int]:
    return {c.name: c.number - 1 for c in load_cards().cards()}


@functools.lru_cache(maxsize=1)
def _card_names() -> dict[int, str]:
    return {i: n for n, i in _card_index().items()}


def _flags_word(n: int) -> str:
    return "1 Flag" if n == 1 else f"{n} Flags"


class _Slots:
    """Board labels of one observation, as (side, slot): side 0 mine, 1 theirs."""

    def __init__(self, obs):
        self.mine = [b for b in obs.board if b.owner == obs.player]
        self.theirs = [b for b in obs.board if b.owner != obs.player]
        self.where = {b.label: (0, i) for i, b in enumerate(self.mine)}
        self.where.update({b.label: (1, i) for i, b in enumerate(self.theirs)})

    def slot(self, label: str, side: int | None = None) -> int:
        hit = self.where.get(label)
        if hit is None or (side is not None and hit[0] != side) or hit[1] >= BOARD_SLOTS:
            raise ValueError(f"'{label}' is not in a board slot this environment can name.")
        return hit[1]

    def target(self, label: str) -> int:
        hit = self.where.get(label)
        if hit is not None:
            if hit[1] >= BOARD_SLOTS:
                raise ValueError(f"'{label}' is past the last board slot ({BOARD_SLOTS}).")
            return hit[0] * BOARD_SLOTS + hit[1]
        card = _card_index().get(label)
        if card is None:
            raise ValueError(f"'{label}' is not a card in play nor a card name.")
        return 2 * BOARD_SLOTS + card

    def label(self, side: int, slot: int) -> str:
        cards = self.mine if side == 0 else self.theirs
        if slot >= len(cards):
            whose = "your" if side == 0 else "your opponent's"
            raise IllegalAction(f"There is no card in {whose} board slot {slot}: that side has "
                                f"{len(cards)} card{'' if len(cards) == 1 else 's'} in play.", f"slot {slot}")
        return cards[slot].label

    def target_label(self, t: int) -> str:
        if t < 2 * BOARD_SLOTS:
            return self.label(t // BOARD_SLOTS, t % BOARD_SLOTS)
        return _card_names()[t - 2 * BOARD_SLOTS]


def action_to_index(action: Action, obs) -> int:
    """The index of ``action`` in the action space, for the player whose observation ``obs``
    is (the player to act; see the module docs for the layout).

    Args:
        action: an :class:`~tokens_edu.Action` (from ``obs.legal_actions``).
        obs: ``game.observation(player)`` of the player to act.

    Returns:
        int, from 0 to ``ACTION_SIZE - 1``.

    Raises:
        ValueError: the action cannot be named in this layout (a board past slot 29, a card
            outside the Alpha Set, or a choice this layout does not know).
    """
    k = action.kind
    cards = _card_index()
    slots = _Slots(obs)

    def at(block: str, i: int) -> int:
        off, size = BLOCKS[block]
        if not 0 <= i < size:
            raise ValueError(f"{action} is outside the {block} block.")
        return off + i

    def card(name: str) -> int:
        base = name.split(" #")[0]
        if base not in cards:
            raise ValueError(f"{base!r} is not an Alpha Set card.")
        return cards[base]

    if k == "order":
        return at("order", 0 if action.choice == "first" else 1)
    if k in ("keep", "mulligan"):
        return at("setup", 0 if k == "keep" else 1)
    if k == "end":
        return at("end", 0)
    if k == "train":
        return at("train", card(action.card))
    if k == "deploy":
        c = card(action.card)
        if action.via is not None and action.target is not None:
            raise ValueError(f"{action}: a deploy with both a target and Big Data has no index here.")
        if action.via is not None:
            return at("deploy_via", c * BOARD_SLOTS + slots.slot(action.via, side=0))
        if action.target is not None:
            return at("deploy_at", c * TARGETS + slots.target(action.target))
        return at("deploy", c)
    if k == "task":
        return at("task", slots.slot(action.card, side=0))
    if k == "audit":
        return at("audit", slots.slot(action.card, side=0) * BOARD_SLOTS + slots.slot(action.target, side=1))
    if k == "use":
        s = slots.slot(action.card, side=0)
        if action.target is None:
            return at("use", s)
        return at("use_at", s * TARGETS + slots.target(action.target))
    if k == "choose":
        choice = action.choice or ""
        if action.card is None:
            if choice.startswith("order "):
                orders = [a for a in obs.legal_actions if a.kind == "choose" and (a.choice or "").startswith("order ")]
                if action not in orders:
                    raise ValueError(f"{action} is not one of the orders offered now.")
                return at("choose_word", CHOICE_WORDS.index("order #1") + orders.index(action))
            if choice.endswith((" Flag", " Flags")):
                choice = _flags_word(int(choice.split()[0]))
            if choice not in CHOICE_WORDS:
                raise ValueError(f"{action}: this layout has no index for that choice.")
            return at("choose_word", CHOICE_WORDS.index(choice))
        picks = [a for a in obs.legal_actions if a.kind == "choose" and a.card is not None]
        if action not in picks:
            raise ValueError(f"{action} is not one of the cards offered now.")
        return at("choose_card", picks.index(action))
    raise ValueError(f"Unknown kind of action: {k!r}.")


def action_kind(index: int) -> str:
    """The block an index falls in: ``"order"``, ``"train"``, ``"audit"``, ``"choose_card"``...

    Raises:
        ValueError: the index is outside the action space.
    """
    for name, (off, size) in BLOCKS.items():
        if off <= index < off + size:
            return name
    raise ValueError(f"An action index is a whole number from 0 to {ACTION_SIZE - 1}, not {index!r:.20}.")


def index_to_action(index: int, obs) -> Action:
    """The :class:`~tokens_edu.Action` that ``index`` names for the player of ``obs``.

    The action may be illegal (``game.apply`` then explains why); for a legal index it is the
    very action of ``obs.legal_actions``.

    Raises:
        IllegalAction: the index names nothing now (an empty board slot, a choice that is not
            offered), or is not a whole number in the action space; in plain words.
    """
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)) \
            or not 0 <= int(index) < ACTION_SIZE:
        raise IllegalAction(f"An action is a whole number from 0 to {ACTION_SIZE - 1}, not {index!r:.20}.",
                            repr(index)[:20])
    index = int(index)
    block = action_kind(index)
    i = index - BLOCKS[block][0]
    slots = _Slots(obs)
    names = _card_names()
    for a in obs.legal_actions:  # a legal index gives back the very legal Action
        try:
            if action_to_index(a, obs) == index:
                return a
        except ValueError:
            continue
    if block == "order":
        return Action("order", choice=("first", "second")[i])
    if block == "setup":
        return Action(("keep", "mulligan")[i])
    if block == "end":
        return Action("end")
    if block == "train":
        return Action("train", card=names[i])
    if block == "deploy":
        return Action("deploy", card=names[i])
    if block == "deploy_via":
        return Action("deploy", card=names[i // BOARD_SLOTS], via=slots.label(0, i % BOARD_SLOTS))
    if block == "deploy_at":
        return Action("deploy", card=names[i // TARGETS], target=slots.target_label(i % TARGETS))
    if block == "task":
        return Action("task", card=slots.label(0, i))
    if block == "audit":
        return Action("audit", card=slots.label(0, i // BOARD_SLOTS), target=slots.label(1, i % BOARD_SLOTS))
    if block == "use":
        return Action("use", card=slots.label(0, i))
    if block == "use_at":
        return Action("use", card=slots.label(0, i // TARGETS), target=slots.target_label(i % TARGETS))
    if block == "choose_word":
        word = CHOICE_WORDS[i]
        if word.startswith("order #"):
            raise IllegalAction(f"There is no {'first' if word.endswith('1') else 'second'} order to "
                                "choose now.", f"choose {word}")
        return Action("choose", choice=word)
    raise IllegalAction(f"There is no card choice number {i + 1} now.", f"choose card {i + 1}")


def observation_vector(obs) -> np.ndarray:
    """The observation vector (float32, length :data:`OBS_SIZE`) of ``game.observation(p)``;
    the parts are listed in :data:`OBS_FIELDS` and the module docs."""
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    me, them = obs.player, 1 - obs.player
    cards = _card_index()
    g = OBS_FIELDS["globals"][0]
    v[g:g + 16] = (
        obs.tokens[me], obs.tokens[them], obs.turn, obs.active == me, obs.pending is not None,
        obs.hand_sizes[me], obs.hand_sizes[them], obs.deck_sizes[me], obs.deck_sizes[them],
        len(obs.discards[me]), len(obs.discards[them]), obs.data_ready[me], obs.data_ready[them],
        obs.training_set[me], obs.training_set[them], obs.model_card_used[me],
    )
    for field, seq in (("hand", obs.hand), ("my_discard", obs.discards[me]), ("their_discard", obs.discards[them])):
        off = OBS_FIELDS[field][0]
        for c in seq:
            v[off + cards[c.name]] += 1
    for side, field, slot_field in ((me, "my_board", "my_slots"), (them, "their_board", "their_slots")):
        off = OBS_FIELDS[field][0]
        soff = OBS_FIELDS[slot_field][0]
        k = 0
        for b in obs.board:
            if b.owner != side:
                continue
            v[off + cards[b.card.name]] += 1
            if k < BOARD_SLOTS:
                v[soff + k * _SLOT_FEATURES: soff + (k + 1) * _SLOT_FEATURES] = (
                    1, b.card.number, b.card.is_system, b.cap or 0, b.tru or 0, b.flags, b.sideways,
                    b.can_act, b.new, b.no_task, b.no_audit, b.abilities_lost)
            k += 1
    np.clip(v, 0.0, _HIGH, out=v)
    return v


class raw_env(AECEnv):
    """Tokens TCG Quick Play for two agents, ``player_0`` and ``player_1`` (PettingZoo AEC).

    Use :func:`env` (which adds PettingZoo's order checks). The module docs describe the
    observations and the fixed action space.

    Args:
        deck0, deck1: each player's deck, as :func:`tokens_edu.content.decks.resolve_deck` takes it
            (a Deck, a starter deck's name, a deck file); None: a starter deck picked at each
            reset by the environment's seeded generator.
        turn_limit: a game reaching this many turns ends as a draw (truncation), R25.
        render_mode: None or ``"ansi"`` (``render()`` returns the board as text).
        names: the players' names in the game and its log.

    Attributes:
        game: the :class:`~tokens_edu.Game` being played. It holds hidden cards: give it to a
            tokens_edu bot (:meth:`bot_action`), never to a learning agent.

    Raises:
        DeckError: a deck is unknown or illegal, or has more Systems and Tools than
            :data:`BOARD_SLOTS`. ValueError: a bad render mode or turn limit.
    """

    metadata = {"render_modes": ["ansi"], "name": "tokens_v0", "is_parallelizable": False}

    def __init__(self, deck0=None, deck1=None, turn_limit: int | None = 100, render_mode: str | None = None,
                 names: Sequence[str] = ("Player 1", "Player 2")):
        super().__init__()

        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r:.30}.")
        if turn_limit is not None and (isinstance(turn_limit, bool) or not isinstance(turn_limit, int)
                                       or not 1 <= turn_limit <= 100_000):
            raise ValueError(f"turn_limit must be a whole number from 1 to 100000, or None (not {turn_limit!r:.30}).")
        self._decks = [None if d is None else resolve_deck(d) for d in (deck0, deck1)]
        for d in self._decks:
            if d is not None and sum(1 for c in d if not c.is_action) > BOARD_SLOTS:
                raise DeckError(f"{d.name} has more than {BOARD_SLOTS} Systems and Tools: the RL environment "
                                f"has {BOARD_SLOTS} board slots per player.")
        self._starters = starter_decks()
        self.turn_limit = turn_limit
        self.render_mode = render_mode
        self.names = tuple(names)
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(ACTION_SIZE) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SIZE,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.game = None
        self._index_cache: tuple | None = None
        self.np_random = None
        self._reset_state()

    def _reset_state(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent):
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``: ``Discrete(ACTION_SIZE)`` (the same object every time)."""
        return self.action_spaces[agent]

    # -- the episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` (an int) makes the game, and the decks picked when none
        were given, the same every time; None continues the environment's own generator."""
        from gymnasium.utils import seeding


        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, 2 ** 62))
        decks = [d if d is not None else self._starters[int(self.np_random.integers(len(self._starters)))]
                 for d in self._decks]
        self.game = Game.new(decks[0], decks[1], seed=game_seed, turn_limit=self.turn_limit, names=self.names)
        self._index_cache = None
        self._reset_state()
        self.agent_selection = f"player_{self.game.to_act}"

    def _legal_indices(self) -> dict[int, Action]:
        """Index -> legal Action for the player to act (cached per position)."""
        key = len(self.game.history)
        if self._index_cache is None or self._index_cache[0] != key:
            obs = self.game.observation(self.game.to_act)
            self._index_cache = (key, {action_to_index(a, obs): a for a in obs.legal_actions})
        return self._index_cache[1]

    def observe(self, agent: str) -> dict:
        """``{"observation": vector, "action_mask": mask}`` for ``agent`` (what it may see)."""
        p = self.possible_agents.index(agent)
        obs = self.game.observation(p)
        mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        if not self.game.over and self.game.to_act == p:
            mask[list(self._legal_indices())] = 1
        return {"observation": observation_vector(obs), "action_mask": mask}

    def step(self, action) -> None:
        """Take ``action`` (an index) for the agent to act; None for an agent that is done.

        Raises:
            IllegalAction: the index is not a legal action now (the engine's explanation, in
                plain words); nothing changes.
        """
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction("The game is not over for this player: choose an action (an index).", "None")
        agent = self.agent_selection
        p = self.possible_agents.index(agent)
        legal = self._legal_indices()
        hit = legal.get(int(action)) if isinstance(action, (int, np.integer)) and not isinstance(action, bool) else None
        if hit is None:
            self.game.apply(index_to_action(action, self.game.observation(p)))  # raises: explains why
            raise AssertionError("unreachable: an index not in the mask was legal")  # pragma: no cover
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.game.apply(hit)
        if self.game.over:
            w = self.game.winner
            if w is None:
                self.truncations = {a: True for a in self.agents}
            else:
                self.rewards[self.possible_agents[w]] = 1
                self.rewards[self.possible_agents[1 - w]] = -1
                self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = f"player_{self.game.to_act}"
        self._accumulate_rewards()

    # -- helpers for students ----------------------------------------------------------------------
    def legal_actions(self) -> dict[int, Action]:
        """Index -> Action for the agent to act now (empty when the game is over)."""
        if self.game is None or self.game.over:
            return {}
        return dict(self._legal_indices())

    def describe(self, index: int) -> str:
        """The action text an index means now for the agent to act (``"task Chatbot"``).

        Raises:
            IllegalAction: the index names nothing now.
        """
        return str(index_to_action(index, self.game.observation(self.game.to_act)))

    def bot_action(self, bot) -> int:
        """The index of the action a tokens_edu bot (``RandomBot``, ``GreedyBot``...) picks
        for the agent to act. Bots read only what that player may see."""
        action = bot.choose(self.game)
        return action_to_index(action, self.game.observation(self.game.to_act))

    # -- showing ----------------------------------------------------------------------------------
    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the game as text (Tokens, Training Sets, the board;
        no hands and no decks, which are hidden). Otherwise warns and returns None."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render without a render mode: use env(render_mode='ansi').")
            return None
        g = self.game
        if g is None:
            return "No game yet: call reset() first."
        obs = g.observation(0)
        lines = []
        state = (f"{g.names[g.winner]} won" if g.winner is not None else "a draw") if g.over \
            else f"{g.names[g.to_act]} to act"
        lines.append(f"Turn {g.turn}: {state}")
        for p in (0, 1):
            lines.append(f"{g.names[p]} (player_{p}): {obs.tokens[p]} Tokens, hand {obs.hand_sizes[p]}, "
                         f"deck {obs.deck_sizes[p]}, Data ready {obs.data_ready[p]} of {obs.training_set[p]}")
            board = [b for b in obs.board if b.owner == p]
            if not board:
                lines.append("  (nothing in play)")
            for b in board:
                if b.card.is_system:
                    lines.append(f"  {b.label:<24} CAP {b.cap} TRU {b.tru} Flags {b.flags}"
                                 f"{'  sideways' if b.sideways else ''}")
                else:
                    lines.append(f"  {b.label:<24} Tool{'  sideways' if b.sideways else ''}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to free (no window)."""


def env(deck0=None, deck1=None, turn_limit: int | None = 100, render_mode: str | None = None,
        names: Sequence[str] = ("Player 1", "Player 2")):
    """A Tokens TCG AEC environment with PettingZoo's order checks (reset before step...).

    Args:
        deck0, deck1, turn_limit, render_mode, names: as in :class:`raw_env` (decks by name,
            file or Deck; None picks a starter deck at each reset).

    Returns:
        the environment (``env.unwrapped`` is the :class:`raw_env`).

    Raises:
        DeckError, ValueError: as :class:`raw_env`.
    """
    e = raw_env(deck0=deck0, deck1=deck1, turn_limit=turn_limit, render_mode=render_mode, names=names)
    return wrappers.OrderEnforcingWrapper(e)
