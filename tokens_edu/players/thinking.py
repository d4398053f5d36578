"""What a computer player was thinking: ``bot.explain(game)`` as a pandas table.

Every bot can say, for the decision of the player to act, which options it weighed (at most
:data:`MAX_OPTIONS`), how it scored them, which one it picks, and why, in a student's words.
The table's columns:

- every bot: ``option`` (the move's text), ``chosen`` (True for its pick; that row is first),
  ``reason`` (a few short sentences, e.g. "Audit Explainability: it would be Deprecated.
  Neural Network survives with 1 Flag."), and ``score`` (how much the bot likes it, its own way);
- :class:`~tokens_edu.players.SearchBot`: ``share`` (its share of the thinking, 0 to 1),
  ``games`` (pretend games after the move) and ``win_chance`` (0 to 1, equal to ``score``:
  the average result of those games, where a pretend game someone won counts 1 or 0 and one
  stopped after the search's horizon, most of them, counts its guessed chance from the
  board), and ``all_games`` (the pretend games after every move the row stands for: the
  move, its twins and, for the other player, the hidden moves merged into it). Moves whose
  pretend games came out exactly the same share one row (its reason names the others). The
  numbers justify the row marked ``chosen``: no other row shows a higher ``win_chance`` (in
  whole percent, as the pane shows it) unless the chosen row's reason ends with a few short
  sentences saying why (:func:`why_chosen`: "The 80% move was tried in only 8 pretend games.
  In those same games, this move did better (88%).");
- :class:`~tokens_edu.players.GreedyBot`: ``rule`` (the step of its list the score comes from);
- :class:`~tokens_edu.players.LearningBot`: ``value`` (its points for the move: its weights
  times the features of the board it imagines after the move; equal to ``score``) and
  ``why`` (the feature that gives the move more or fewer points than its other options);
- :class:`~tokens_edu.players.RandomBot`: ``score`` is each move's chance of being picked.

Rows: the chosen option first, then the others in the bot's order (the search: by share of
thinking; the others: by score), at most :data:`MAX_OPTIONS` in all. These columns, their
order and meaning are a stable API (the GameView thinking pane and Hint read them).

``df.attrs`` holds ``bot`` (its name), ``player`` (who decides), ``for_player`` (who the table
is for), ``measure`` (the column that plots best: ``win_chance``, ``score`` or ``value``),
``options`` (how many legal moves there were in all) and, for the search, ``iterations``
(pretend games), ``worlds`` (imagined deals), ``finished`` (pretend games that ended before
the horizon), ``horizon`` (turns a pretend game lasts at most), ``seconds`` and
``other_games`` (the pretend games after the moves with no row: the rows' ``all_games`` and
``other_games`` add up to ``iterations``; how many moves those were is not said, as it could
tell the other player about the thinker's hand).

Every sentence of a reason is short (Flesch-Kincaid grade 7 or below with card names counted
as one word, as tests/players/test_search_explain.py measures over seeded games) and uses only
words the lessons teach: a move is a "move" (a mulligan reads "new hand"). Plot it with
``tokens_edu.plots.thinking(df)`` (bars, the pick on top), or
``df.set_index("option")[df.attrs["measure"]].plot.barh()``.

Ask before the move is played: the table explains the decision of the player to act now. (After
a deploy, the card is on the board for all to see: a pane may then name the played move as
the game's log does.)

Hidden cards stay hidden: a table names only cards its player may see (their own hand, the
board, discard piles, the cards of their own look at their deck), never what a bot imagined
about hidden cards. Asked ``for_player`` = the other player (the "What was the computer
thinking?" pane), options that would name a card from the thinker's hand or deck read "deploy
a card from its hand", "train a card (face-down)" or "a secret choice", their reasons say
only what that player may know, and their numbers are cut so they can't tell the card
(GreedyBot's ``score``: its step, a multiple of 100; LearningBot's ``value``: whole points).
The search's table for the other player also merges its hidden options with the same words
into one row (the best of them, their shares added up), so the number of rows says nothing
about its hand.
"""

from __future__ import annotations

import math
import random

from ..engine import moves as mv
from ..errors import IllegalAction
from ..game.observe import option_hidden

__all__ = ["explain", "describe", "hidden_to_others", "mask", "why_chosen", "screen_words", "MAX_OPTIONS", "COLUMNS"]

#: At most this many options in an explanation (the chosen one and the best others).
MAX_OPTIONS = 5
#: The columns every explanation has, in order (bots add their own after ``score``).
COLUMNS = ["option", "chosen", "score", "reason"]


def _flags(n: int) -> str:
    return f"{n} Flag" if n == 1 else f"{n} Flags"


def _tokens(n: int) -> str:
    return f"{n} Token" if n == 1 else f"{n} Tokens"


def hidden_to_others(game, move: int) -> bool:
    """True when ``move`` (a legal move of the player to act) names a card the other player
    may not see: a card from the hand (train, deploy; a trained card stays face-down, R8), or
    a card of a secret choice (a look at the deck, R22; a card to discard from the hand, R23).
    The observer decides it (:func:`tokens_edu.game.observe.option_hidden`)."""
    return option_hidden(game, move)


def describe(game, move: int) -> str:
    """One line in a student's words about a legal move of the player to act: what it does and
    what it risks, read from what that player may see.

    Examples: "Run a Task with Chatbot: +2 Tokens (8 in all). It turns sideways and can be
    Audited." · "Audit Explainability: it would be Deprecated. Neural Network survives with 1 Flag."
    """
    player = game.to_act
    view = game.view(player)
    kind, a, b, c = mv.decode(move)
    text = str(game.action(move))
    if kind == mv.TASK:
        name = _name(text, "task ")
        n = view.card(a).tokens
        total = view.tokens(player) + n
        if total >= 15:
            return f"Run a Task with {name}: {total} Tokens wins the game!"
        return f"Run a Task with {name}: +{_tokens(n)} ({total} in all). It turns sideways and can be Audited."
    if kind == mv.AUDIT:
        mine, theirs = (part.strip() for part in text[len("audit "):].split("->"))
        dealt = view.cap(a)
        back = view.cap(b) + (1 if view.has_keyword(b, "Adversarial") else 0)
        on_them = view.flags(b) + dealt
        on_me = view.flags(a) + back
        tru_them, tru_me = view.card(b).tru, view.card(a).tru
        first = ("it would be Deprecated" if on_them >= tru_them
                 else f"it would have {_flags(on_them)} of {tru_them}, so it stays")
        second = (f"{mine} would be Deprecated too" if on_me >= tru_me
                  else f"{mine} survives with {_flags(on_me)}")
        return f"Audit {theirs}: {first}. {second[0].upper() + second[1:]}."
    if kind == mv.TRAIN:
        size = view.training_set_size(player) + 1
        return f"Train {view.card(a).name}: one more Data to pay for cards ({size} in the Training Set)."
    if kind == mv.DEPLOY:
        card = view.card(a)
        paid = f", paid with Big Data from {text.split(' with Big Data ', 1)[1]}" if c >= 0 else ""
        if card.type == "System":
            return f"Deploy {card.name}: a System that earns {_tokens(card.tokens)} a Task{paid}."
        if card.type == "Tool":
            return f"Deploy {card.name}: a Tool to use on later turns{paid}."
        target = f" on {text.split(' -> ', 1)[1].split(' with Big Data ')[0]}" if b >= 0 else ""
        return f"Play the Action {card.name}{target}{paid}."
    if kind == mv.USE:
        target = f" on {text.split(' -> ', 1)[1]}" if b >= 0 else ""
        return f"Use the Tool {_name(text, 'use ').split(' -> ')[0]}{target}."
    if kind == mv.END:
        return "End the turn: the other player goes next."
    d = view.decision()
    labels = d[0] if d is not None else ""
    if labels == "first-second":
        return "Go first: deploy and score first." if text.endswith("first") else "Go second: start with one more card."
    if labels == "keep-mulligan":
        return "Keep this hand." if text == "keep" else "Shuffle this hand back and draw a new one."  # "new hand"
    return f"Answer the card's question: {text.removeprefix('choose ')}."


def _name(text: str, prefix: str) -> str:
    return text[len(prefix):] if text.startswith(prefix) else text


def mask(game, move: int, row: dict) -> dict:
    """``row`` of an explanation as the other player may read it: a move that names a hidden
    card gets a text that doesn't (see :func:`hidden_to_others`), and no number that would
    tell the card: GreedyBot's score is cut to its step (a multiple of 100), LearningBot's
    points to whole numbers."""
    if not hidden_to_others(game, move):
        return row
    kind = move & 15
    row = dict(row)
    if kind == mv.TRAIN:
        row["option"], row["reason"] = "train a card (face-down)", "Train a card you can't see: one more Data."
    elif kind == mv.DEPLOY:
        row["option"], row["reason"] = "deploy a card from its hand", "A card from its hand, which you can't see."
    else:
        row["option"], row["reason"] = "a secret choice", "A choice about cards only it can see."
    # A score worked out from the card's own facts would tell which card it is (a trained card
    # stays face-down for good, R8): GreedyBot's score keeps only its step (the hundreds),
    # LearningBot's points whole numbers. (The search's chances come from imagined games.)
    if "rule" in row and isinstance(row.get("score"), (int, float)) and math.isfinite(row["score"]):
        row["score"] = float(math.floor(row["score"] / 100) * 100)
    if "value" in row and isinstance(row.get("value"), (int, float)):
        row["value"] = row["score"] = float(round(float(row["value"])))
    for key in ("why", "rule"):
        if key in row:
            row[key] = ""
    return row


# -- the bots ------------------------------------------------------------------------------
def explain(bot, game, for_player: int | None = None):
    """``bot``'s explanation of the decision of the player to act in ``game`` (see the module).

    Args:
        bot: a RandomBot, GreedyBot, SearchBot, LearningBot, or any bot with ``choose_move``.
        game: a Game that is not over.
        for_player: who will read the table (0/1); None: the player deciding. For the other
            player, options naming the decider's hidden cards are masked (:func:`mask`).

    Returns:
        pandas.DataFrame with at most :data:`MAX_OPTIONS` rows, the chosen option first.

    Raises:
        IllegalAction: the game is over (R25). ValueError: ``for_player`` is not 0, 1 or None.
    """

    if game.over:
        raise IllegalAction("The game is over: there is nothing left to explain.", "explain", "R25")
    player = game.to_act
    if for_player is None:
        for_player = player
    if for_player not in (0, 1) or isinstance(for_player, bool):
        raise ValueError(f"for_player is 0, 1 or None, not {for_player!r:.40}.")
    rows_of = getattr(bot, "_explain_rows", None)  # each bot class says which of the below is its
    masked = for_player != player
    if rows_of is not None and getattr(bot, "_explains_for_reader", False):
        rows, attrs = rows_of(game, for_player)  # already as the reader may see them
        masked = False
    else:
        rows, attrs = rows_of(game) if rows_of is not None else _other_rows(bot, game)
    attrs.update(player=player, for_player=for_player, options=len(game.legal_moves()))
    return _frame(game, rows, attrs, masked=masked)


def _frame(game, rows: list[tuple[int, dict]], attrs: dict, masked: bool):
    """The table: the chosen row first, then the others as ``rows`` ranks them; at most
    MAX_OPTIONS. ``rows``: (move, row dict) with the bot's order (best first)."""
    import pandas as pd

    rows = sorted(rows, key=lambda r: not r[1]["chosen"])[:MAX_OPTIONS]  # stable: keeps the bot's order
    out = [mask(game, m, r) if masked else r for m, r in rows]
    extra = [k for k in out[0] if k not in COLUMNS] if out else []
    df = pd.DataFrame(out, columns=COLUMNS + extra)
    df.attrs.update(attrs)
    return df


def screen_words(text: str) -> str:
    """A move's text as a student reads it: "mulligan" is "new hand" (the words on the table)."""
    return "new hand" if text == "mulligan" else text


def _games(n: int) -> str:
    return f"{n} pretend game" if n == 1 else f"{n} pretend games"


def _search_rows(bot, game, reader: int):
    """SearchBot's rows for ``reader``: one per move it thought about, twins (moves whose
    pretend games came out the same) in one row; for the other player, its hidden options
    masked and those with the same words in one row (the one with the best numbers, the
    shares and ``all_games`` added up). The chosen row says in short sentences why it was
    picked whenever another row's bar is as long as its own (:func:`why_chosen`)."""
    t = bot.think(game)
    player = t.player
    masked = reader != player
    total = max(1, sum(t.games))
    rows = []
    for i, m in enumerate(t.moves):
        if t.twin_of[i] >= 0:
            continue  # its row is its twin's
        if not t.games[i] and m != t.chosen:
            continue
        chosen = m == t.chosen
        chance = t.win_chance(i) if t.games[i] else float("nan")
        hidden = masked and hidden_to_others(game, m)
        every = sum(t.games[j] for j in [i] + t.twins(i))
        row = {"option": str(game.action(m)), "chosen": chosen, "score": chance, "reason": describe(game, m),
               "share": every / total, "games": t.games[i], "win_chance": chance, "all_games": every}
        if hidden:
            row = mask(game, m, row)
        if t.games[i]:
            row["reason"] += f" In {_games(t.games[i])}: {chance:.0%} chance to win."
        twins = [t.moves[j] for j in t.twins(i) if not (masked and hidden_to_others(game, t.moves[j]))]
        if twins and not hidden:  # a hidden twin is never named, nor counted aloud
            names = [screen_words(str(game.action(x))) for x in twins[:2]]
            if len(twins) > 2:
                names.append(f"{len(twins) - 2} more")
            row["reason"] += (f" The move{'s' if len(twins) > 1 else ''} {_and(names)} gave the very same results."
                              f" So it counted them as one move ({_games(every)} in all)."
                              + (" It picked the one its quick rules put first." if chosen else ""))
        rows.append((i, row))
    if masked:  # hidden options with the same words: one row, the best of them (the shares added up)
        merged: dict[str, int] = {}
        kept = []
        for i, row in rows:
            text = row["option"]
            if row["chosen"] or not hidden_to_others(game, t.moves[i]):
                kept.append((i, row))
                continue
            if text not in merged:
                merged[text] = len(kept)
                kept.append((i, row))
                continue
            k = merged[text]
            j, into = kept[k]
            share, every = into["share"] + row["share"], into["all_games"] + row["all_games"]
            if (row["games"] and (row["win_chance"], row["games"]) > (into["win_chance"], into["games"])) \
                    or not into["games"]:
                j, into = i, row
            into["share"], into["all_games"] = share, every
            kept[k] = (j, into)
        rows = kept
        for i, row in rows:  # the same words for one hidden move or many: the count stays secret
            if not row["chosen"] and row["games"] and hidden_to_others(game, t.moves[i]):
                row["reason"] = (f"{mask(game, t.moves[i], {'option': '', 'reason': ''})['reason']} "
                                 f"Hidden moves like this: {_games(row['all_games'])} in all. "
                                 f"The best one: {row['win_chance']:.0%} chance to win in {_games(row['games'])}.")
    rows.sort(key=lambda r: (not r[1]["chosen"], -r[1]["share"], -(r[1]["win_chance"] if r[1]["games"] else -1)))
    other_games = sum(r["all_games"] for _, r in rows[MAX_OPTIONS:])  # no count of moves: it could tell the hand
    rows = rows[:MAX_OPTIONS]
    if len(t.moves) == 1:
        rows[0][1]["reason"] = rows[0][1]["reason"].split(" In ")[0] + " It was the only move, so it did not need to think."
    else:
        note = why_chosen(t, [(i, r["games"], r["win_chance"]) for i, r in rows if not r["chosen"]])
        if note:
            rows[0][1]["reason"] += " " + note
    return ([(t.moves[i], r) for i, r in rows],
            {"bot": bot.name, "measure": "win_chance", "iterations": t.iterations, "worlds": t.worlds,
             "seconds": t.seconds, "finished": sum(t.finished), "horizon": bot.horizon,
             "other_games": other_games})


def _pct(x: float) -> int:
    """A chance as the pane shows it, in whole percent (``f"{x:.0%}"``)."""
    return int(f"{x * 100:.0f}")


def _apart(a: float, b: float) -> tuple[str, str]:
    """Two chances as percentages with just enough decimals to tell them apart (up to 4)."""
    for d in range(1, 5):
        x, y = f"{a:.{d}%}", f"{b:.{d}%}"
        if x != y:
            break
    return x, y


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def why_chosen(t, others: list[tuple[int, int, float]]) -> str:
    """A few short sentences on why the search picked its move although another row's bar is as
    long as its own (in whole percent, as shown), or "" when the bars already show it.

    Args:
        t: the search's :class:`~tokens_edu.players.search.Thinking`.
        others: the other rows shown, as ``(move index, games, win chance)``.

    Two reasons are possible, and both are true by the way the search works: a move dropped
    at a cut (not in ``t.final``) was compared with the chosen move on the very same pretend
    games, where the chosen move did at least as well (the sentences give both numbers); a
    move compared to the end did just as well or a little worse, and the quick rules' order
    broke a tie. Each sentence is short (grade 7 or below) and says "move", never "option".
    """
    c = t.moves.index(t.chosen)
    mine = t.win_chance(c)
    if not t.games[c]:
        return "It ran out of time before it could try this move. It is the first move in its quick rules."
    level = [(i, g, w) for i, g, w in others if g and _pct(w) >= _pct(mine)]
    if not level:
        return ""
    dropped = [(i, g, w) for i, g, w in level if i not in t.final]
    even = [(i, g, w) for i, g, w in level if i in t.final]
    parts = []
    if len(dropped) == 1:
        i, g, w = dropped[0]
        same = t.mean_of_first(c, g)
        # "only" when the chosen move got more games; a time budget can stop the search before
        # the chosen move played more than the dropped one (then both have g games).
        tried = (f"The {_pct(w)}% move was tried in only {_games(g)}. " if g < t.games[c] else
                 f"The {_pct(w)}% move was tried in {_games(g)}, then the search stopped trying it. ")
        if same > w + 1e-12:
            parts.append(tried + f"In those same games, this move did better ({_pct(same)}%).")
        else:
            parts.append(tried + f"In those same games, this move did just as well ({_pct(same)}%). "
                         "Its quick rules put this move first.")
    elif dropped:
        games = _and([str(g) for _, g, _ in sorted(dropped, key=lambda x: x[1])])
        fewer = "fewer " if all(g < t.games[c] for _, g, _ in dropped) else ""
        parts.append(f"{len(dropped)} moves with bars as long were tried in {fewer}pretend games ({games}). "
                     "In those same games, this move did as well or better each time.")
    if even:
        if all(abs(w - mine) < 1e-12 for _, _, w in even):
            parts.append(f"{'Another move' if len(even) == 1 else f'{len(even)} other moves'} did just as well "
                         f"({_pct(mine)}%). So it picked the move its quick rules put first.")
        else:
            w = max(w for _, _, w in even)
            a, b = _apart(mine, w)
            parts.append(f"This move did a little better than the other {_pct(w)}% "
                         f"move{'s' if len(even) > 1 else ''} ({a} against {b}).")
    return " ".join(parts)


#: GreedyBot's steps, by the lowest score of each (its list, as Lesson 5 draws it). Its scores
#: come in tiers far apart (see GreedyBot.score): 10,000 a winning Task, about 1,000 train,
#: 900 deploy a System, 800 deploy a Tool, 700 use a Tool, 600 Audit, 500 Task, 400 Action.
_GREEDY_RULES = (
    (5_000, "A Task that wins comes first."),
    (950, "Step 1: train its least useful card while the Training Set is small."),
    (850, "Step 2: deploy the best System it can pay for."),
    (750, "Step 3: deploy a Tool it does not have yet."),
    (650, "Step 3: use a Tool that helps."),
    (550, "Step 4: Audit when it knocks out more than it risks."),
    (450, "Step 5: Run the Task that scores most."),
    (350, "Step 6: play a useful Action."),
)


def _greedy_rule(score: float) -> str:
    for low, words in _GREEDY_RULES:
        if score >= low:
            return words
    return "Not on its list now."


def _greedy_rows(bot, game):
    moves = game.legal_moves()
    chosen = bot.choose_move(game)
    view = game.view(game.to_act)
    rows = []
    for m in moves:
        if m & 15 == mv.CHOOSE or m & 15 == mv.END:
            score = 1.0 if m == chosen else 0.0
            rule = "Its fixed answer to this question." if m & 15 == mv.CHOOSE else \
                "Step 7: end the turn when nothing else is worth it."
        else:
            score = bot.score(view, m)
            rule = _greedy_rule(score)
        rows.append((m, {"option": str(game.action(m)), "chosen": m == chosen, "score": float(score),
                         "reason": describe(game, m), "rule": rule}))
    rows.sort(key=lambda r: -r[1]["score"])
    return rows, {"bot": bot.name, "measure": "score"}


def _random_rows(bot, game):
    moves = game.legal_moves()
    peek = random.Random()
    peek.setstate(bot._rng.getstate())  # what its next pick will be, without using it up
    chosen = peek.choice(moves)
    rows = [(m, {"option": str(game.action(m)), "chosen": m == chosen, "score": 1 / len(moves),
                 "reason": describe(game, m) + " Picked at random: every move had the same chance."
                 if m == chosen else describe(game, m)}) for m in moves]
    return rows, {"bot": bot.name, "measure": "score"}


def _learning_rows(bot, game):
    scored = bot.weigh(game)
    rows = []
    for m, value, why in scored["rows"]:
        rows.append((m, {"option": str(game.action(m)), "chosen": m == scored["chosen"], "score": value,
                         "reason": describe(game, m), "value": value, "why": why}))
    rows.sort(key=lambda r: -r[1]["value"])
    return rows, {"bot": bot.name, "measure": "value"}


def _other_rows(bot, game):
    """A student's own bot: its pick (by ``choose_move``, or ``choose`` when that is all it
    has), score 1, the others 0."""
    try:
        chosen = bot.choose_move(game.copy())
    except (AttributeError, NotImplementedError):
        picked = str(bot.choose(game.copy()))
        chosen = next((m for m in game.legal_moves() if str(game.action(m)) == picked), None)
    rows = [(m, {"option": str(game.action(m)), "chosen": m == chosen, "score": 1.0 if m == chosen else 0.0,
                 "reason": describe(game, m)}) for m in game.legal_moves()]
    return rows, {"bot": getattr(bot, "name", type(bot).__name__), "measure": "score"}
