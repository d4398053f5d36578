"""Lesson 12's next-word model and page (issue 27, part 5): time and memory.

Prints:
1. ``model``: a new :class:`~tokens_edu.lab.language.NextWordModel` (context 2) learns 5,000
   sentences, then answers ``next_words`` for a two-token context (its first count table):
   the CPU time of the two together (ms) and the memory Python allocated at the peak
   (tracemalloc, MiB), min/median/max of ``--repeat`` runs, with the load average. Goal: under
   50 ms and under 20 MiB. Two sets of 5,000 sentences:
   - ``kit-like``: written by a model of the kit's own sentences (temperature 1, one seed per
     sentence), so they read like the kit's;
   - ``many words``: 6 to 14 words each, drawn from 1,500 made-up words with Zipf's law (word n
     comes 1/n as often as word 1): far more different runs of words, a harder case.
   Also the time of one more guess (a table already counted, and a new one) and of writing a
   sentence of up to 20 tokens.

CPU time measures the work whatever the load; the load average is printed beside each figure
(the machine is shared while we develop).

Usage: python benchmarks/language.py [--part model] [--repeat 7]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc

from tokens_edu.lab.language import NextWordModel
from tokens_edu.lab.sentences import kit_sentences

SENTENCES = 5_000


def _load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load unknown"


def _mmm(values, fmt="{:.1f}") -> str:
    return "/".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


def kit_like(n: int = SENTENCES, seed: int = 0) -> list[str]:
    """``n`` sentences written by a model of the kit's sentences, from their first words."""
    kit = kit_sentences()
    model = NextWordModel(context=2).learn(kit)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        start = " ".join(model.tokens(rng.choice(kit))[:2])
        out.append(model.generate(start, 18, temperature=1.0, seed=seed * 100_000 + i).text)
    return out


def many_words(n: int = SENTENCES, seed: int = 0) -> list[str]:
    """``n`` sentences of 6-14 words from 1,500 made-up words, word k drawn 1/k as often."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(1500)]
    weights = [1 / (i + 1) for i in range(1500)]
    return [" ".join(rng.choices(words, weights, k=rng.randint(6, 14))) + "." for _ in range(n)]


def one_run(sentences: list[str], context: str) -> tuple[float, float]:
    """CPU ms and peak MiB (tracemalloc) of learning ``sentences`` and one ``next_words``."""
    gc.collect()
    t0 = time.process_time()
    model = NextWordModel(context=2).learn(sentences)
    guess = model.next_words(context)
    ms = (time.process_time() - t0) * 1000
    assert guess and model.sentences == len(sentences)
    gc.collect()
    tracemalloc.start()
    model = NextWordModel(context=2).learn(sentences)
    model.next_words(context)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return ms, peak


def model_part(repeat: int) -> None:
    for name, sentences in (("kit-like", kit_like()), ("many words", many_words())):
        tokens = sum(len(NextWordModel.tokens(s)) for s in sentences)
        first = NextWordModel.tokens(sentences[0])[:2]
        context = " ".join(first)
        runs = [one_run(sentences, context) for _ in range(repeat)]
        loads = _load()
        model = NextWordModel(context=2).learn(sentences)
        print(f"{name}: {len(sentences)} sentences, {tokens} tokens; learn + next_words({context!r}) "
              f"CPU ms min/median/max {_mmm([r[0] for r in runs])} (goal under 50), peak MiB "
              f"{_mmm([r[1] for r in runs], '{:.2f}')} (goal under 20); {repeat} runs, {loads}")
        again, fresh, writes = [], [], []
        for i in range(repeat):
            t0 = time.process_time()
            model.next_words(context)
            again.append((time.process_time() - t0) * 1000)
            other = " ".join(NextWordModel.tokens(sentences[i + 1])[:2])
            t0 = time.process_time()
            model.next_words(other)
            fresh.append((time.process_time() - t0) * 1000)
            t0 = time.process_time()
            model.generate(context, 20, seed=i)
            writes.append((time.process_time() - t0) * 1000)
        print(f"  one more guess, CPU ms min/median/max: a table counted before {_mmm(again, '{:.3f}')}, "
              f"a new one {_mmm(fresh, '{:.2f}')}; a sentence of up to 20 tokens {_mmm(writes)}; {_load()}")


def main() -> None:
    """Run the chosen parts and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = ["model"]
    ap.add_argument("--part", nargs="+", default=parts, choices=parts)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    print(f"benchmarks/language.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}")
    if "model" in args.part:
        model_part(args.repeat)


if __name__ == "__main__":
    main()
