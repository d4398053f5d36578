"""SearchBot's explanations explain its choice (issue 19, part 4).

Over seeded games against GreedyBot, every table SearchBot gives (for itself, and masked for
the other player) is checked against what its search really did (``bot.last``):

- no other row shows a higher or equal win chance (in whole percent, as the pane shows it)
  unless the chosen row's reason carries the one sentence that says why, and that sentence is
  true: a row with fewer pretend games was dropped, and on the very same pretend games the pick
  did at least as well; a row with as many games did no better, and a tie went to the move its
  quick rules put first;
- twins (moves whose pretend games came out the same) share one row, and they really had the
  same results on every pretend game both played; the masked table never names a hidden twin;
- the table's pick is the move it then plays.

Iteration budgets keep these tests repeatable.
"""

from __future__ import annotations

import random
import re

import pytest

from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot, SearchBot
from tokens_edu.players.thinking import _pct, hidden_to_others, why_chosen

DECKS = starter_decks()


def decisions(seed: int, iterations: int, turn_limit: int = 100):
    """(game, bot) at each decision of a SearchBot (with two moves or more) in a seeded game
    against GreedyBot; the search then plays its move."""
    r = random.Random(seed)
    game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=seed, turn_limit=turn_limit)
    bot = SearchBot(iterations=iterations, seed=7)
    seat = seed % 2
    greedy = GreedyBot()
    while not game.over:
        if game.to_act == seat and len(game.legal_moves()) > 1:
            yield game, bot
            game.push(bot.choose_move(game))
        else:
            game.push(greedy.choose_move(game))


def check_table(game, bot, table) -> str:
    """Assert what the module's docs say of one table; return "numbers" when the bars alone
    justify the pick, or "sentence" when the chosen row needed (and has) its sentence."""
    t = bot.last
    c = t.moves.index(t.chosen)
    chosen = table.iloc[0]
    assert chosen["chosen"] and not table["chosen"].iloc[1:].any()
    assert chosen["win_chance"] == pytest.approx(t.win_chance(c)) and chosen["games"] == t.games[c]
    by_row = []  # (move index, games, win chance) of the other rows, from the search itself
    used = {c}
    for _, row in table.iloc[1:].iterrows():
        matches = [i for i, m in enumerate(t.moves) if i not in used and t.twin_of[i] < 0
                   and t.games[i] == row["games"] and t.games[i]
                   and t.win_chance(i) == pytest.approx(row["win_chance"])
                   and (row["option"] == str(game.action(m)) or hidden_to_others(game, m))]
        assert matches, row["option"]
        named = [i for i in matches if row["option"] == str(game.action(t.moves[i]))]
        i = (named or matches)[0]
        used.add(i)
        by_row.append((i, int(row["games"]), float(row["win_chance"])))
    level = [(i, g, w) for i, g, w in by_row if _pct(w) >= _pct(chosen["win_chance"])]
    note = why_chosen(t, by_row)
    if not level:
        assert note == ""
        return "numbers"
    assert note and chosen["reason"].endswith(note)  # at the end of the chosen row
    assert note.endswith(".") and note.count(". ") <= 4  # a few short sentences (issue 28.5)
    assert c in t.final
    for i, g, w in level:  # the sentence's claims hold
        if i not in t.final:  # dropped early: on the same first g pretend games, the pick did at least as well
            # (a time budget may stop before the pick plays more games than the dropped move)
            assert g <= t.games[c] and t.mean_of_first(c, g) >= w - 1e-12
            assert t.results[c][:g] != t.results[i][:g] or t.rank[c] < t.rank[i]
        else:  # compared to the end: no better, and a tie goes to the quick rules' first
            assert t.win_chance(c) >= w - 1e-12
            if abs(t.win_chance(c) - w) < 1e-12:
                assert t.rank[c] < t.rank[i]
    if len(level) == 1 and level[0][0] not in t.final:
        i, g, w = level[0]
        if g < t.games[c]:
            assert f"The {_pct(w)}% move was tried in only {g} pretend game" in note
        else:  # as many games as the pick: "only" would not be true
            assert f"The {_pct(w)}% move was tried in {g} pretend game" in note and "only" not in note
        assert f"({_pct(t.mean_of_first(c, g))}%)" in note
    return "sentence"


@pytest.mark.parametrize("iterations", [200, 40])
def test_every_pick_is_justified_by_the_numbers_shown_or_says_why(iterations):
    """Issue 19: measured as the issue measured it (three seeded games against GreedyBot, the
    lesson's SearchBot): the chosen row's win chance was lower than another row's in 17 of 88
    decisions and tied in 44. Now: none without the sentence."""
    kinds = {"numbers": 0, "sentence": 0}
    for seed in range(3):
        for game, bot in decisions(seed, iterations):
            player = game.to_act
            for reader in (player, 1 - player):
                table = bot.explain(game, for_player=reader)
                kinds[check_table(game, bot, table)] += 1
            assert bot.explain(game)["option"].iloc[0] == str(game.action(bot.choose_move(game)))
    assert kinds["numbers"] + kinds["sentence"] >= 60
    print(kinds)


def test_twins_share_a_row_and_really_had_the_same_pretend_games():
    found = 0
    for seed in range(3):
        for game, bot in decisions(seed, 200):
            table = bot.explain(game)
            t = bot.last
            for j, rep in enumerate(t.twin_of):
                if rep < 0:
                    continue
                found += 1
                k = min(len(t.results[j]), len(t.results[rep]))
                assert k >= 1 and t.results[j][:k] == t.results[rep][:k]
                assert t.twin_of[rep] < 0  # a twin points at the move that has the row
                assert str(game.action(t.moves[j])) not in set(table["option"])  # no row of its own
            for _, row in table.iterrows():
                if "gave the very same results" in row["reason"]:
                    rep = next(i for i, m in enumerate(t.moves) if str(game.action(m)) == row["option"])
                    twins = t.twins(rep)
                    assert twins and str(game.action(t.moves[twins[0]])) in row["reason"]
            # for the other player, a hidden twin is never named
            theirs = bot.explain(game, for_player=1 - game.to_act)
            text = " ".join(theirs["reason"])
            for j, rep in enumerate(t.twin_of):
                if rep >= 0 and hidden_to_others(game, t.moves[j]):
                    assert str(game.action(t.moves[j])) not in text
    assert found >= 10  # training one card or another, two copies, moves in another order


def test_twins_are_thought_about_once():
    """Folding twins leaves more pretend games for the moves that differ: with the same budget,
    the chosen move gets more of them than when every twin keeps its own share."""
    more = 0
    for seed in range(2):
        for game, bot in decisions(seed, 120):
            t = bot.think(game)
            if any(r >= 0 for r in t.twin_of):
                distinct = sum(1 for r in t.twin_of if r < 0)
                more += t.games[t.moves.index(t.chosen)] >= 120 // max(1, distinct)
    assert more >= 5


def test_a_search_table_tells_what_its_numbers_mean():
    game, bot = next(decisions(1, 200))
    table = bot.explain(game)
    assert table.attrs["horizon"] == bot.horizon == 4
    t = bot.last
    assert table.attrs["finished"] == sum(t.finished) and 0 <= table.attrs["finished"] <= t.iterations
    assert all(sum(t.results[i]) == pytest.approx(t.value[i]) and len(t.results[i]) == t.games[i]
               for i in range(len(t.moves)))
    from tokens_edu.widgets.thinking_pane import search_intro

    words = search_intro(table.attrs)
    assert f"{t.iterations} pretend games" in words and "after 4 turns" in words and "guessed" in words


def test_with_a_time_budget_the_sentence_is_still_true():
    """A time budget may stop the last round in the middle of a deal (some moves then have one
    game more than others): whatever happened, the chosen row's sentence holds."""
    r = random.Random(4)
    game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=4, turn_limit=100)
    bot = SearchBot(budget_ms=25, seed=7)
    checked = 0
    while not game.over and checked < 25:
        if game.to_act == 0 and len(game.legal_moves()) > 1:
            for reader in (0, 1):
                check_table(game, bot, bot.explain(game, for_player=reader))
            checked += 1
            game.push(bot.choose_move(game))
        else:
            game.push(GreedyBot().choose_move(game))
    assert checked >= 10


# -- issue 28.5: the reasons read like the rest of the kit, and the rows add up ----------------
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9'\"])")


def lesson_7_tables(seeds=range(4)):
    """(game, table) for each decision of Lesson 7's search bot (``SearchBot(iterations=200,
    seed=7)``) in seeded games against a student played by GreedyBot, as the student's pane
    asks for them (``for_player`` = the student)."""
    for seed in seeds:
        r = random.Random(seed)
        game = Game.new(DECKS[r.randrange(10)], DECKS[r.randrange(10)], seed=seed, turn_limit=100)
        bot, student = SearchBot(iterations=200, seed=7), GreedyBot()
        while not game.over:
            if game.to_act == 1:
                yield game, bot.explain(game, for_player=0)
                game.push(bot.choose_move(game))
            else:
                game.push(student.choose_move(game))


@pytest.fixture(scope="module")
def tables():
    return list(lesson_7_tables())


def test_every_reason_sentence_reads_at_grade_7_or_below(tables):
    """Measured as tests/lessons/test_readability.py measures card texts (Flesch-Kincaid,
    textstat 0.7.4; card names counted as the one word "card"), each sentence of each reason
    on its own. Before issue 28.5: mean 12.1, worst 16.9 (the why-chosen and twin sentences)."""
    from readability import CARD_GRADE, UNDEFINED_WORDS, grade, report, without_card_names

    sentences = {s for _, table in tables for reason in table["reason"] for s in _SENTENCE.split(reason)}
    kinds = {k: [s for s in sentences if k in s] for k in
             ("pretend games:", "tried in", "very same results", "Hidden moves like this", "Deprecated")}
    assert all(kinds.values()), {k: len(v) for k, v in kinds.items()}  # every kind of sentence was measured
    over = report("Lesson 7's reason sentences", [(grade(without_card_names(s)), "reason", s) for s in sentences],
                  CARD_GRADE)
    assert not over, over
    for s in sentences:
        words = set(re.findall(r"[a-z]+", s.casefold()))
        assert not words & {w.casefold() for w in UNDEFINED_WORDS}, s
        assert "option" not in words and "options" not in words, s  # the lesson says "move"


def test_the_rows_add_up_to_the_pretend_games_it_says_it_played(tables):
    """The pane says "It played N pretend games"; each row says how many came after its move(s)
    (``all_games``), and a line under the rows says how many came after moves with no row."""
    from tokens_edu.widgets.thinking_pane import MESSAGES, search_intro, table_html

    checked = other = 0
    for _, table in tables:
        n = table.attrs["iterations"]
        if not n:
            continue
        assert int(table["all_games"].sum()) + table.attrs["other_games"] == n
        assert all(table["all_games"] >= table["games"])
        html = table_html(table, "The computer's move")
        assert f"It played {n} pretend games" in search_intro(table.attrs)
        shown = [int(x) for x in re.findall(r"</span></span>(\d+) pretend games?</td>", html)]
        assert sum(shown) + table.attrs["other_games"] == n
        if table.attrs["other_games"]:
            other += 1
            assert MESSAGES["other_games"].format(games=table.attrs["other_games"]) in html
        checked += 1
    assert checked >= 30 and other >= 1


def test_a_hidden_row_says_the_same_words_for_one_move_or_many(tables):
    """The count of hidden moves merged into one row is never said (it could tell the hand)."""
    for _, table in tables:
        for reason in table["reason"]:
            assert not re.search(r"\d+ (hidden )?moves like this", reason), reason


def test_a_new_hand_is_new_hand_in_the_pane():
    from tokens_edu.players.thinking import screen_words

    from tokens_edu.widgets.thinking_pane import table_html

    game = Game.new(DECKS[0], DECKS[1], seed=3)
    game.apply("go first")  # now: keep this hand, or a new hand
    table = SearchBot(iterations=40, seed=7).explain(game)
    assert "mulligan" in set(table["option"])  # the engine's word stays in the table (a stable API)
    html = table_html(table, "t")
    assert "new hand" in html and "mulligan" not in html.casefold()
    assert screen_words("mulligan") == "new hand" and screen_words("keep") == "keep"
