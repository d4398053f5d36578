"""What lesson 10, notebook 07 and the teacher's guide say about the kit's bots, measured (issue 28.1, 28.2).

Each part prints the figure a sentence in the guide or a lesson rests on, with how it was measured:

1. ``train100``: notebook 07's training, ``train(LearningBot(seed=0), "greedy", games=100, seed=1)``
   (LearningBot's default lookahead, 2), wall seconds min/median/max over ``--repeat`` runs, with
   the 1-minute load; and lesson 10's batch (a LearningBot with ``lookahead=0``, 20 games against the
   random player), per batch.
2. ``random-audits``: the random player (RandomBot) against the rule player (GreedyBot): of the
   decisions where an Audit was among its legal moves, the share where it Audited.
3. ``lesson-test``: lesson 10's Part 3 over ``--seeds`` seeds: a new player (every weight 0), a
   player trained 6 batches of 20 against the random player, and one trained 6 batches against the
   rule player, each tested in 20 games (seats swapped, no learning) against each opponent, as
   ``TestBench`` plays them. Prints median/min/max of each win rate; and, for the random-trained
   player, which weight changed most in each batch (how many different ones over the seeds).
4. ``copy-habits``: lesson 10's Part 2 with scripted students: each style plays the copy lab's
   game (seed 10, decks 0 and 7, against the rule player) for 8 of its turns, the copy learns from
   its moves (``CopyLab``'s learning) and plays its 4 games; prints the style's habits beside the
   copy's (turns that start with Train, turns with a Task, turns with an Audit, turns ended while a
   Task was possible) and whether the copy acted at all (a copy whose every turn is "End turn").

The engine that runs is the installed one (compiled when built): run with the project's venv from
the project folder, ``.venv/bin/python benchmarks/lesson10_claims.py``.

Usage: python benchmarks/lesson10_claims.py [--part train100 random-audits lesson-test copy-habits]
       [--repeat 3] [--seeds 10] [--games 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter


def _mmm(values) -> str:
    values = list(values)
    return f"min {min(values):.3g} / median {statistics.median(values):.3g} / max {max(values):.3g}"


def _load() -> str:
    return f"1-minute load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"


def train100(repeat: int) -> None:
    from tokens_edu import train, train_batches
    from tokens_edu.players import LearningBot

    times, cpu = [], []
    for r in range(repeat):
        started, c0 = time.perf_counter(), time.process_time()
        train(LearningBot(seed=0), opponent="greedy", games=100, seed=1, progress=False)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - c0)
    print(f"notebook 07: 100 training games against GreedyBot (lookahead 2): wall {_mmm(times)} s, "
          f"CPU {_mmm(cpu)} s ({_load()})")
    bot = LearningBot(seed=9, lookahead=0)
    run = train_batches(bot, "random", batch_size=20, seed=900)
    batch, cpu = [], []
    for _ in range(max(3, repeat)):
        c0 = time.process_time()
        batch.append(next(run).attrs["seconds"])
        cpu.append(time.process_time() - c0)
    print(f"lesson 10: one batch of 20 games against the random player (lookahead 0): wall {_mmm(batch)} s, "
          f"CPU {_mmm(cpu)} s ({_load()})")


def random_audits(games: int) -> None:
    from tokens_edu import Game, starter_decks
    from tokens_edu.players import GreedyBot, RandomBot

    decks = starter_decks()
    chances = audits = 0
    for g in range(games):
        rnd, greedy = RandomBot(seed=g), GreedyBot()
        game = Game.new(decks[g % len(decks)], decks[(g * 3 + 1) % len(decks)], seed=g)
        seat = g % 2
        while not game.over:
            if game.to_act == seat:
                moves = game.legal_actions()
                if any(a.kind == "audit" for a in moves):
                    chances += 1
                    move = rnd.choose(game)
                    audits += move.kind == "audit"
                    game.apply(move)
                    continue
                game.apply(rnd.choose(game))
            else:
                game.apply(greedy.choose(game))
    print(f"random player against the rule player, {games} games: it could Audit {chances} times and "
          f"Audited {audits} times ({audits / max(chances, 1):.0%})")


def lesson_test(seeds: int) -> None:
    from tokens_edu.lab.habits import play_matches
    from tokens_edu.lab.training import train_batches
    from tokens_edu.players import LearningBot
    from tokens_edu.players.learning import FEATURES

    rates: dict[str, list[float]] = {}
    biggest: list[list[str]] = []
    for s in range(seeds):
        seed = 1000 + s
        new = LearningBot(seed=seed, lookahead=0)
        for opp in ("random", "greedy"):
            rates.setdefault(f"new player vs {opp}", []).append(
                play_matches(new, opp, games=20, seed=77).attrs["win_rate"])
        for trained_on in ("random", "greedy"):
            bot = LearningBot(seed=seed, lookahead=0)
            run = train_batches(bot, trained_on, batch_size=20, seed=seed * 100)
            order = []
            for b in range(6):
                before = bot.weights["weight"].copy()
                table = next(run)
                rates.setdefault(f"training on {trained_on}, batch {b + 1} win rate", []).append(
                    float(table["won"].mean()))
                change = bot.weights["weight"] - before
                order.append(max(FEATURES, key=lambda f: abs(change[f])))
            run.close()
            if trained_on == "random":
                biggest.append(order)
            for opp in ("random", "greedy"):
                rates.setdefault(f"trained on {trained_on} (120 games) vs {opp}", []).append(
                    play_matches(bot, opp, games=20, seed=77).attrs["win_rate"])
    for key, values in rates.items():
        print(f"{key}: win rate {_mmm(values)} over {seeds} seeds ({', '.join(f'{v:.0%}' for v in values)})")
    flat = Counter(f for order in biggest for f in order)
    print(f"biggest weight change per batch (random-trained, 6 batches x {seeds} seeds): {len(flat)} different "
          f"features: {dict(flat.most_common())}")
    same = sum(len(set(order)) == 1 for order in biggest)
    print(f"seeds where the same weight changed most in all 6 batches: {same} of {seeds}")


STYLES = {  # a scripted student: kinds it prefers, in order, and kinds it never plays (when it has another move)
    "train first": (["train", "deploy", "task", "audit", "use"], []),
    "never Audit": (["deploy", "task", "train", "use"], ["audit"]),
    "never run a Task": (["train", "deploy", "audit", "use"], ["task"]),
    "Task before you Train": (["task", "audit", "deploy", "train", "use"], []),
    "deploy first": (["deploy", "train", "task", "audit", "use"], []),
    "Audit whenever possible": (["audit", "task", "deploy", "train", "use"], []),
    "end turns early": (["end"], []),
    "random": ([], []),
}


def _styled(game, rng, prefer, never):
    moves = game.legal_actions()
    allowed = [a for a in moves if a.kind not in never] or moves
    for kind in prefer:
        mine = [a for a in allowed if a.kind == kind]
        if mine:
            return rng.choice(mine)
    return rng.choice([a for a in allowed if a.kind != "end"] or allowed)


def copy_habits(turns: int = 8) -> None:
    from tokens_edu import Game, starter_decks
    from tokens_edu.lab.habits import habits, play_matches
    from tokens_edu.players import GreedyBot, LearningBot
    from tokens_edu.players.imitation import examples_from_game

    decks = starter_decks()
    keys = {"start_train": "starts with Train", "task": "Task", "audit": "Audit", "missed_task": "missed Task"}
    for name, (prefer, never) in STYLES.items():
        rng = random.Random(name)
        game = Game.new(decks[0], decks[7], seed=10, names=("You", "Computer"))
        greedy = GreedyBot()
        while not game.over and game.turn <= 2 * turns:
            game.apply(_styled(game, rng, prefer, never) if game.to_act == 0 else greedy.choose(game))
        examples = examples_from_game(game, player=0)
        copy = LearningBot(seed=10, lookahead=0)
        table = copy.learn_from_examples(examples, rounds=150, seed=10)
        _, kept = play_matches(copy, "greedy", games=4, seed=10, deck=decks[0], keep=True)
        you, it = habits([(game, 0)]).set_index("habit"), habits(kept).set_index("habit")
        parts = []
        for key, words in keys.items():
            row = [h for h in you.index if h.lower().startswith(dict(_HABIT_WORDS)[key].lower())][0]
            parts.append(f"{words} {you.loc[row, 'share']:.0%}/{it.loc[row, 'share']:.0%}")
        acted = sum(1 for g, s in kept for a in _own_kinds(g, s) if a != "end")
        print(f"{name:24s} examples {len(examples):3d}, agree {table['agree'].iloc[-1]:.0%}; you/copy: "
              + "; ".join(parts) + ("" if acted else "; THE COPY NEVER ACTED"))


_HABIT_WORDS = (("start_train", "Turns that start with Train"), ("task", "Turns with a Task"),
                ("audit", "Turns with an Audit"), ("missed_task", "Turns that end while"))


def _own_kinds(game, seat):
    from tokens_edu.lab.habits import decisions

    return [d.kind for d in decisions(game, seat) if d.own_turn]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", nargs="*", default=["train100", "random-audits", "lesson-test", "copy-habits"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for part in args.part:
        started = time.perf_counter()
        {"train100": lambda: train100(args.repeat), "random-audits": lambda: random_audits(args.games),
         "lesson-test": lambda: lesson_test(args.seeds), "copy-habits": copy_habits}[part]()
        print(f"  ({part}: {time.perf_counter() - started:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
