"""How a player plays: habits counted from games, and short matches to test a computer player.

Lesson 10 lets a computer player learn to copy a student (learning from examples), then shows
that the copy plays like the student, habits and mistakes included ("you always trained first;
so does it"). This module measures that, from finished or unfinished games:

- :func:`decisions`: every main-phase decision one player made, in order, with its turn, the
  kind of move and whether a Task was still possible when the turn ended;
- :func:`habits`: a small table of habits over many games ("turns that start with Train",
  "turns that end while a System could still Run a Task"...), each as a count out of the turns;
- :func:`play_matches`: a bot plays games against an opponent, seats swapped every game, without
  learning (a test);
- :func:`public_moves`: a player's moves as anyone watching may see them (a trained card stays
  face-down, a secret choice stays secret).

Nothing here shows a hidden card: decisions keep only the kind of each move, and
:func:`public_moves` masks what the watcher may not see.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.decks import resolve_deck, starter_decks
from ..game.game import Game
from ..players.registry import recipe as bot_recipe

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["Decision", "decisions", "habits", "HABIT_COLUMNS", "HABITS", "play_matches", "MATCH_COLUMNS",
           "public_moves", "KIND_WORDS"]

#: A move's kind in a student's words.
KIND_WORDS = {"train": "Train", "deploy": "Deploy", "task": "Task", "audit": "Audit", "use": "Use a Tool",
              "end": "End turn", "choose": "Choose"}
#: The habits :func:`habits` counts, in order: (key, what it says).
HABITS = (
    ("start_train", "Turns that start with Train"),
    ("train", "Turns with a Train"),
    ("deploy", "Turns with a Deploy"),
    ("task", "Turns with a Task"),
    ("audit", "Turns with an Audit"),
    ("missed_task", "Turns that end while a System could still Run a Task"),
)
#: The columns of :func:`habits`, in order.
HABIT_COLUMNS = ["habit", "turns", "count", "share"]
#: The columns of :func:`play_matches`, in order.
MATCH_COLUMNS = ["game", "seat", "opponent", "won", "turns", "tokens", "their_tokens"]
# choices that say nothing about hidden cards (as GameView shows the other player's moves)
_PUBLIC_CHOICE = re.compile(r"^choose (yes|no|top|bottom|mode [ab]|\d+ flags?)$", re.IGNORECASE)


@dataclass(frozen=True)
class Decision:
    """One main-phase decision of a player.

    Attributes:
        turn: the game's turn number (1-based). own_turn: True when it was the player's own turn
            (False: a choice during the other player's turn). kind: the move's kind (``"train"``,
            ``"task"``, ``"end"``...). text: the move as text (it may name a hidden card: keep
            it for the player's own eyes). could_task: a Task was among the legal moves.
        options: how many legal moves there were.
    """

    turn: int
    own_turn: bool
    kind: str
    text: str
    could_task: bool
    options: int


def decisions(game: Game, player: int) -> list[Decision]:
    """Every main-phase decision ``player`` made in ``game`` (played so far), in order.

    The game is not changed (a copy is replayed from its start).

    Raises:
        ValueError: ``player`` is not 0 or 1.
    """
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player is 0 or 1, not {player!r:.40}.")
    g = game.copy()
    texts = g.history
    moves = [g.pop() for _ in texts][::-1]
    out = []
    for move, text in zip(moves, texts):
        if g.phase == "main" and g.to_act == player:
            actions = g.legal_actions()
            out.append(Decision(g.turn, g.active == player, g.action(move).kind, text,
                                any(a.kind == "task" for a in actions), len(actions)))
        g.push(move)
    return out


def _turns(ds: list[Decision]) -> list[list[Decision]]:
    """The player's own turns, each a list of its decisions (choices in the other's turn left out)."""
    turns: dict[int, list[Decision]] = {}
    for d in ds:
        if d.own_turn:
            turns.setdefault(d.turn, []).append(d)
    return list(turns.values())


def habits(games: Iterable[tuple[Game, int]]) -> "pandas.DataFrame":
    """Count a player's habits over games.

    Args:
        games: ``(game, player)`` pairs: whose habits, in which games (finished or not).

    Returns:
        pandas.DataFrame, one row per habit of :data:`HABITS`, columns :data:`HABIT_COLUMNS`:
        ``habit`` (what it says), ``turns`` (the player's turns with at least one decision),
        ``count`` (turns with the habit), ``share`` (``count / turns``, NaN with no turns).
        Only turns the player ended count for "end while a System could still Run a Task".
        ``attrs["first_moves"]``: how often each kind of move came first in a turn (a dict).
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    turns: list[list[Decision]] = []
    for game, player in games:
        turns += _turns(decisions(game, player))
    counts = {key: 0 for key, _ in HABITS}
    first: dict[str, int] = {}
    ended = 0
    for t in turns:
        kinds = {d.kind for d in t}
        first[t[0].kind] = first.get(t[0].kind, 0) + 1
        counts["start_train"] += t[0].kind == "train"
        for kind in ("train", "deploy", "task", "audit"):
            counts[kind] += kind in kinds
        last = t[-1]
        if last.kind == "end":
            ended += 1
            counts["missed_task"] += last.could_task
    rows = []
    for key, words in HABITS:
        out_of = ended if key == "missed_task" else len(turns)
        rows.append({"habit": words, "turns": out_of, "count": counts[key],
                     "share": counts[key] / out_of if out_of else float("nan")})
    table = pd.DataFrame(rows, columns=HABIT_COLUMNS)
    table.attrs["first_moves"] = dict(sorted(first.items(), key=lambda kv: -kv[1]))
    return table


def public_moves(game: Game, player: int, turns: int | None = None) -> list[tuple[int, str]]:
    """``player``'s moves in ``game`` as anyone watching may see them: ``(turn, text)`` each.

    A Train reads "train a card (face-down)"; a choice that could name a hidden card reads "make
    a secret choice"; the opening choices are left out. Deploys, Tasks, Audits and Tools are
    public (their cards are face-up on the table).

    Args:
        turns: keep only the moves of the player's first ``turns`` turns (None: all).
    """
    out = []
    seen: list[int] = []
    for d in decisions(game, player):
        if d.own_turn and d.turn not in seen:
            seen.append(d.turn)
        if turns is not None and len(seen) > turns:
            break
        if d.kind == "train":
            text = "train a card (face-down)"
        elif d.kind == "choose" and not _PUBLIC_CHOICE.match(d.text):
            text = "make a secret choice"
        else:
            text = d.text
        out.append((d.turn, text))
    return out


def _deal(seed: int, g: int, decks: Sequence):
    """Games 2k and 2k+1 use the same two decks, seats swapped."""
    r = random.Random(f"tokens-edu-matches/{seed}/{g // 2}")
    a, b = r.randrange(len(decks)), r.randrange(len(decks))
    return (decks[a], decks[b]) if g % 2 == 0 else (decks[b], decks[a])


def play_matches(bot, opponent="greedy", games: int = 20, seed: int = 0, decks=None, deck=None,
                 turn_limit: int = 100, keep: bool = False):
    """``bot`` plays ``games`` games against ``opponent``: a test, with no learning.

    Seats are swapped every game; games 2k and 2k+1 use the same two decks (drawn from
    ``decks``), so neither seat nor deck favours a side.

    Args:
        bot: a bot (``choose_move(game)``). opponent: a bot, class or name (``"random"``,
            ``"greedy"``...). games: 1 to 10,000. seed: the same seed, the same games.
        decks: decks to draw from (None: the starter decks). deck: a deck ``bot`` always plays
            (the opponent's is drawn from ``decks``); None draws both.
        keep: also return the finished games.

    Returns:
        pandas.DataFrame, one row per game, columns :data:`MATCH_COLUMNS` (``won``: 1, 0, or
        0.5 for a draw; ``tokens``/``their_tokens`` at the end); ``attrs["win_rate"]`` (points
        per game) and ``attrs["opponent"]``. With ``keep``: ``(table, [(game, seat), ...])``.

    Raises:
        ValueError: a bad number of games or an unknown opponent. DeckError: a bad deck.
    """
    import pandas as pd  # pandas loads with the first table: `import tokens_edu` stays light

    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 10_000:
        raise ValueError(f"games is a whole number from 1 to 10,000, not {games!r:.40}.")
    recipe = bot_recipe(opponent)
    deck_list = starter_decks() if decks is None else [resolve_deck(d) for d in decks]
    mine = None if deck is None else resolve_deck(deck)
    rows, kept = [], []
    for g in range(games):
        d0, d1 = _deal(seed, g, deck_list)
        seat = g % 2
        if mine is not None:
            d0, d1 = (mine, d1) if seat == 0 else (d0, mine)
        game = Game.new(d0, d1, seed=(seed * 10_007 + g) % 2**31, turn_limit=turn_limit)
        other = recipe.make((seed * 7919 + g) % 2**31)
        players = (bot, other) if seat == 0 else (other, bot)
        while not game.over:
            game.push(players[game.to_act].choose_move(game))
        won = 0.5 if game.winner is None else float(game.winner == seat)
        rows.append({"game": g, "seat": seat, "opponent": recipe.label, "won": won, "turns": game.turn,
                     "tokens": game.tokens[seat], "their_tokens": game.tokens[1 - seat]})
        if keep:
            kept.append((game, seat))
    table = pd.DataFrame(rows, columns=MATCH_COLUMNS)
    table.attrs.update({"win_rate": float(table["won"].mean()), "opponent": recipe.label, "seed": seed})
    return (table, kept) if keep else table
