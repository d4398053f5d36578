"""LearningBot benchmark (issue 19, part 5): what a class can train in 5 minutes on one core.

Prints:
1. five-minute training: a new LearningBot (every weight 0) trains against GreedyBot with
   ``tokens_edu.train_batches`` until it has used ``--train-seconds`` (300) of CPU time on one
   core; then it plays ``--eval-games`` (200) games against GreedyBot, seats swapped every game
   (the same two decks for games 2k and 2k+1, drawn from the starter decks): its win rate with
   a 95% Wilson interval, before and after training. Floor: 50%; goal: 60%.
   Also: games trained per minute of training (CPU time, and wall time with the load).
2. lesson batch: a new LearningBot trains in ``--batches`` (10) batches of ``--batch-size``
   (25) games against GreedyBot, as a lesson page would (one batch per click or redraw): each
   batch's seconds and win rate (the live win-rate curve), and the bot's weights at the end.
``--repeat N`` runs part 1 N times from other seeds (min/median/max).

The lessons' parts (issue 19 parts 1-3; section "Lessons 8, 10 and 11" below):
3. ``lesson10``: lesson 10's own training, as its page runs it (``TrainingLab``: a LearningBot
   that looks one move ahead, batches of 20 games against the random player, seed 9): each
   click's time (the batch and the page's redraw) and the win-rate curve, then the test the page
   runs (20 games against each player, no learning). ``--lesson-seeds`` more seeds, for the spread.
4. ``pixels``: the pixel classifier's time to label one drawing (target: under 100 ms), with the
   kit's 30 training drawings and with a class's worth (600 and 3,000), and the drawing lab's
   whole guess (the label and its 3 nearest drawings drawn as the page shows them).
5. ``fair-data``: lesson 11's accuracy per group before and after each fix (adding the 12 finger
   drawings, the 12 mouse drawings, both; fixing the wrong label).
6. ``memory`` (run first): the kernel memory (PSS, USS, RSS) of lessons 10 and 11, each run in a real kernel from top to
   bottom and then clicked through (lesson 10: 6 batches, a game of 4 turns, Teach my copy,
   Watch your copy play, the test; lesson 11: a test, both fixes, tests again), with a database
   the lesson server has already set up (as in a class) and with a new one. Limit: 120 MiB.

The machine is shared while we develop: CPU time measures the training budget whatever the
load; wall times and the load average are printed beside it.

Measured 2026-12-01 (see the commit message of the latest change for the figures).

Usage: python benchmarks/learning.py [--part five-minutes batches lesson10 pixels fair-data memory]
       [--train-seconds 300] [--eval-games 200] [--batch-size 25] [--batches 10] [--repeat 1]
       [--seed 0] [--lesson-seeds 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bots import _load, _match, _mmm  # the same helpers and deals as benchmarks/bots.py

from tokens_edu import train_batches
from tokens_edu.lab.stats import wilson_interval
from tokens_edu.players import LearningBot


def against_greedy(bot, games: int, seed: int) -> float:
    """Points per game of ``bot`` against GreedyBot over ``games`` games, seats swapped every
    game on the same two decks (``benchmarks/bots.py``'s match)."""
    return _match(bot, games, seed)


def five_minutes(train_seconds: float, eval_games: int, seed: int, batch_size: int = 50) -> dict:
    """Train a new bot for ``train_seconds`` of CPU time; its win rate before and after."""
    bot = LearningBot(seed=seed)
    before = against_greedy(LearningBot(seed=seed), min(eval_games, 50), 1_000 + seed)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    curve = []
    for batch in train_batches(bot, "greedy", batch_size=batch_size, seed=seed):
        curve.append(batch.attrs["win_rate"])
        if time.process_time() - cpu0 >= train_seconds:
            break
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    load = _load()
    points = against_greedy(bot, eval_games, 1_000 + seed) * eval_games
    low, high = wilson_interval(points, eval_games)
    return {"bot": bot, "before": before, "after": points / eval_games, "low": low, "high": high,
            "games": bot.games_trained, "cpu": cpu, "wall": wall, "load": load, "curve": curve}


def lesson_batches(batch_size: int, batches: int, seed: int) -> None:
    """A lesson page's training: batch by batch, with the time and win rate of each."""
    bot = LearningBot(seed=seed)
    print(f"lesson batches ({_load()}): a new LearningBot against GreedyBot, {batches} batches of "
          f"{batch_size} games")
    secs = []
    for batch in train_batches(bot, "greedy", batch_size=batch_size, batches=batches, seed=seed):
        secs.append(batch.attrs["seconds"])
        print(f"  batch {batch.attrs['batch']:2d}: {batch.attrs['seconds']:5.2f} s, "
              f"won {batch.attrs['win_rate']:.0%} of its games ({_load()})")
    print(f"  seconds per batch min/median/max {_mmm(secs, '{:.2f}')}")
    print("  its weights at the end: " + ", ".join(f"{f} {w:+.1f}" for f, w in bot.weights["weight"].items()))


# ------------------------------------------------------------------------------------------------
# Lessons 8, 10 and 11 (issue 19 parts 1-3): what a student's click costs, and the lessons' figures
# ------------------------------------------------------------------------------------------------
LIMIT_MS = 100.0  # the target for labelling one drawing
KERNEL_LIMIT_MIB = 120.0  # the limit for the kernel of lessons 10 and 11


def lesson10(seeds: int) -> None:
    """Lesson 10's TrainingLab and TestBench as the page runs them (clicks timed end to end)."""
    from tokens_edu.widgets import TestBench, TrainingLab

    print(f"lesson 10 ({_load()}): TrainingLab(seed=9), batches of 20 games against the random player")
    clicks, batch_secs, curves, tests = [], [], [], []
    for seed in range(9, 9 + max(1, seeds)):
        lab = TrainingLab(seed=seed)
        for _ in range(8):
            lab.rate_guess.value = lab.rate_guess.options[0]
            t0 = time.perf_counter()
            batch = lab.train_batch()
            clicks.append(time.perf_counter() - t0)
            batch_secs.append(batch["seconds"])
        t0 = time.perf_counter()
        result = TestBench(lab).test()
        test_s = time.perf_counter() - t0
        curves.append([b["win_rate"] for b in lab.batches])
        tests.append(result)
        print(f"  seed {seed}: win rate per batch {' '.join(f'{r:.0%}' for r in curves[-1])}; test (no learning, "
              f"20 games each, {test_s:.1f} s): random player {result['random']:.0%}, rule player "
              f"{result['greedy']:.0%} ({_load()})")
    print(f"  one batch (20 games) min/median/max {_mmm(batch_secs, '{:.2f}')} s; the whole click (batch and "
          f"redraw) {_mmm(clicks, '{:.2f}')} s")
    worse = sum(1 for t in tests if t["random"] - t["greedy"] >= 0.10)
    print(f"  trained on the random player, it did at least 10 points worse against the rule player in "
          f"{worse} of {len(tests)} seeds; after 8 batches its training win rate was "
          f"{_mmm([c[-1] for c in curves], '{:.0%}')} (min/median/max)")


def pixels() -> None:
    """The pixel classifier's time to label one drawing, and the drawing lab's whole guess."""
    import random as _random

    from tokens_edu.lab.classify import PixelClassifier
    from tokens_edu.lab.sketches import GROUPS, LABELS, draw_sign, load_sketches
    from tokens_edu.widgets import DrawingLab

    kit = load_sketches()
    train = kit[kit["split"] == "train"]
    tests = list(kit[kit["split"] == "test"]["pixels"])
    rng = _random.Random(8)
    print(f"pixel classifier ({_load()}): time to label one 12 x 12 drawing (target under {LIMIT_MS:.0f} ms)")
    def made(size: int):
        drawn = [(draw_sign(LABELS[i % 3], list(GROUPS)[(i // 3) % 3], rng), LABELS[i % 3]) for i in range(size)]
        return [p for p, _ in drawn], [lab for _, lab in drawn]

    for n, (pics, labels) in (("30 (the kit)", (list(train["pixels"]), list(train["label"]))),
                              ("600 (30 students x 20)", made(600)), ("3,000", made(3000))):
        for k in (1, 3):
            model = PixelClassifier(k=k).fit(pics, labels)
            times = []
            for p in tests:
                t0 = time.perf_counter()
                model.predict(p)
                times.append((time.perf_counter() - t0) * 1000)
            print(f"  {n} examples, k={k}: min/median/max {_mmm(times, '{:.3f}')} ms per drawing")
    for what, lab in (("24 kit drawings", DrawingLab(None, starter=8)), ("600 drawings", DrawingLab(None))):
        if what.startswith("600"):
            pics, labels = made(600)
            lab._page = [(p.tolist(), lab_) for p, lab_ in zip(pics, labels)]  # as if the class had added them
            lab.learn()
        times = []
        for p in tests:
            lab.grid.show(p.tolist())
            t0 = time.perf_counter()
            lab._on_drawn()  # what a stroke's end runs: the guess, its 3 nearest drawings, the page's HTML
            times.append((time.perf_counter() - t0) * 1000)
        print(f"  the drawing lab's whole guess ({what} learned): min/median/max {_mmm(times, '{:.2f}')} ms")


def fair_data() -> None:
    """Lesson 11's accuracy per group before and after each fix (the lab the page uses)."""
    from tokens_edu.widgets import FairDataLab

    print("lesson 11 accuracy per group (90 test drawings, 30 per group; nearest neighbours, 3 vote):")

    def show(lab, what):
        r = lab.test()
        by = ", ".join(f"{a['group']} {a['right']}/{a['drawings']} ({a['accuracy']:.0%})" for a in r["accuracy"])
        print(f"  {what:38} {len(lab.training):2d} training drawings: {by}; overall {r['overall']:.0%}, "
              f"gap {round(r['gap'] * 100)} points")

    lab = FairDataLab()
    show(lab, "before (the kit's skewed training set)")
    lab.add("finger")
    show(lab, "+ 12 finger drawings")
    lab.reset(say=False)
    lab.add("mouse")
    show(lab, "+ 12 mouse drawings")
    lab.add("finger")
    show(lab, "+ both")
    lab.reset(say=False)
    wrong = next(r for r in lab.training if r["label"] != r["true_label"])
    lab.fix(wrong["number"], wrong["true_label"])
    show(lab, f"the wrong label fixed (drawing {wrong['number']})")


_CLICK_10 = """
for _ in range(6):
    training.rate_guess.value = training.rate_guess.options[0]
    training.train_batch()
_copy = [x for x in globals().values() if type(x).__name__ == "CopyLab"]
_lab = _copy[0] if _copy else CopyLab(journal, seed=10)
_view = _lab.view
for _ in range(300):
    if _view.game.over or _view.game.turn > 8:
        break
    if _view.match.bot_to_act():
        _view.next_button.click()
        continue
    _names = list(_view.buttons)
    _view.buttons[next((n for p in ("go first", "keep", "train", "deploy", "task", "end turn")
                        for n in _names if n.startswith(p)), _names[0])].click()
_lab.teach()
_lab.watch()
TestBench(training).test()
"""
_CLICK_11 = """
lab.test()
lab.add("finger")
lab.test()
lab.add("mouse")
lab.test()
"""


def kernel_memory() -> None:
    """PSS of a real kernel running lessons 10 and 11, then clicked through (see the module's docs)."""
    import json as _json
    import subprocess
    import tempfile
    from pathlib import Path

    import psutil
    from jupyter_client import KernelManager

    root = Path(__file__).resolve().parents[1]
    print(f"kernel memory ({_load()}); limit {KERNEL_LIMIT_MIB:.0f} MiB of PSS (a kernel's own memory plus its "
          "share of the libraries it shares with other processes; RSS counts shared pages in full, USS not at all)")
    for lesson, clicks in (("10-teach-the-computer", _CLICK_10), ("11-fair-data", _CLICK_11)):
        for ready in (True, False):
            data = tempfile.mkdtemp(prefix="bench-kernel-")
            if ready:  # the lesson server has made the tables already (as in a class)
                subprocess.run([sys.executable, "-c", "from tokens_edu.store import Journal; "
                                "Journal(lesson='x').available"], env=dict(os.environ, TOKENS_EDU_DATA=data), check=True)
            env = dict(os.environ, TOKENS_EDU_DATA=data, QUERY_STRING="student=bench")
            env.pop("JUPYTERHUB_USER", None)
            env.pop("TOKENS_EDU_DB_URL", None)
            km = KernelManager(kernel_name="python3")
            km.start_kernel(env=env, cwd=str(root / "lessons"))
            kc = km.client()
            kc.start_channels()
            try:
                kc.wait_for_ready(timeout=120)
                proc = psutil.Process(km.provisioner.process.pid)

                def run(code: str) -> None:
                    reply = kc.execute_interactive(code, timeout=900, output_hook=lambda m: None)
                    if reply["content"]["status"] != "ok":
                        raise RuntimeError(f"{lesson}: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")

                def pss() -> float:
                    return proc.memory_full_info().pss / 2**20

                def sizes() -> str:
                    m = proc.memory_full_info()
                    return f"PSS {m.pss / 2**20:.1f}, USS {m.uss / 2**20:.1f}, RSS {m.rss / 2**20:.1f} MiB"

                empty = pss()
                nb = _json.loads((root / "lessons" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
                for cell in nb["cells"]:
                    if cell["cell_type"] == "code":
                        run("".join(cell["source"]))
                loaded = pss()
                run(clicks)
                clicked = pss()
                detail = sizes()
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)
            verdict = "under" if clicked < KERNEL_LIMIT_MIB else "OVER"
            print(f"  {lesson} ({'tables made before' if ready else 'a new database'}): PSS of the empty kernel "
                  f"{empty:.1f}, the lesson loaded {loaded:.1f}, after the clicks {clicked:.1f} MiB ({verdict} the "
                  f"limit); after the clicks {detail}")


def main() -> None:
    """Run the chosen parts and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = ["five-minutes", "batches", "lesson10", "pixels", "fair-data", "memory"]
    ap.add_argument("--part", nargs="+", default=parts, choices=parts)
    ap.add_argument("--lesson-seeds", type=int, default=5, help="seeds of lesson 10's training (part lesson10)")
    ap.add_argument("--train-seconds", type=float, default=300.0, help="CPU seconds of training (one core)")
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--batch-size", type=int, default=25)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"benchmarks/learning.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}")
    if "memory" in args.part:  # first: nothing loaded in this process yet to share the libraries' pages with
        kernel_memory()
    if "five-minutes" in args.part:
        runs = []
        for r in range(args.repeat):
            res = five_minutes(args.train_seconds, args.eval_games, args.seed + r)
            runs.append(res)
            print(f"five minutes, run {r + 1} (seed {args.seed + r}; training at {res['load']}, now {_load()}): "
                  f"{res['games']} games in {res['cpu']:.0f} s of CPU ({res['wall']:.0f} s wall): "
                  f"{res['games'] / res['cpu'] * 60:.0f} games per CPU minute, "
                  f"{res['games'] / res['wall'] * 60:.0f} per wall minute")
            print(f"  against GreedyBot, {args.eval_games} seat-swapped games: {res['before']:.1%} before "
                  f"(50 games), {res['after']:.1%} after (95% interval {res['low']:.1%} to {res['high']:.1%}); "
                  f"floor 50%, goal 60%")
            print("  win rate of its training batches (50 games each): "
                  + " ".join(f"{x:.0%}" for x in res["curve"][:: max(1, len(res["curve"]) // 12)]))
            print("  weights: " + ", ".join(f"{f} {w:+.1f}" for f, w in res["bot"].weights["weight"].items()))
        if args.repeat > 1:
            print(f"  after training, min/median/max: {_mmm([x['after'] for x in runs], '{:.1%}')}; "
                  f"games per CPU minute {_mmm([x['games'] / x['cpu'] * 60 for x in runs], '{:.0f}')}")
    if "batches" in args.part:
        lesson_batches(args.batch_size, args.batches, args.seed)
    if "lesson10" in args.part:
        lesson10(args.lesson_seeds)
    if "pixels" in args.part:
        pixels()
    if "fair-data" in args.part:
        fair_data()


if __name__ == "__main__":
    main()
