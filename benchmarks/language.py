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
2. ``kernel``: the PSS of a real kernel running lesson 12 from top to bottom, then after each of
   its clicks (the widgets' own methods, as the page calls them: a guess and its table, sharing a
   sentence, the class's 90 sentences arriving, the dice, five sentences, the two
   demonstrations), with a new database. Limit: 120 MiB after every click.

CPU time measures the work whatever the load; the load average is printed beside each figure
(the machine is shared while we develop).

Usage: python benchmarks/language.py [--part model kernel] [--repeat 7]
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
KERNEL_LIMIT_MIB = 120.0

#: Lesson 12's clicks, one line each, as its page calls them (after its cells ran): (what, code).
CLICKS = (
    ("type a sentence", "lab.tokens_view.text_box.value = \"Isn't AI fun?\""),
    ("guess after 'like to', show the counts",
     "lab.guess_view.context_pick.value = '“like to”'; lab.guess_view.reveal('play')"),
    ("guess after 'a chatbot'", "lab.guess_view.context_pick.value = '“a chatbot”'; lab.guess_view.reveal('is')"),
    ("own words (it backs off)",
     "lab.guess_view.context_pick.value = lab.guess_view.OWN; lab.guess_view.own_context.value = 'purple cat'; "
     "lab.guess_view.reveal('is')"),
    ("share a sentence", "lab.class_view.share('I like to juggle with my cat.')"),
    ("the class's 90 sentences arrive (Get the class's sentences)", "lab.class_view.refresh()"),
    ("pick a token", "lab.write_view.pick(lab.write_view.chances()[0][0])"),
    ("the dice, 3 times", "[lab.write_view.dice() for _ in range(3)]"),
    ("surprise Wild, write 5 sentences", "lab.write_view.surprise.value = 'Wild'; lab.write_view.write_five()"),
    ("surprise 0, write 5 sentences",
     "lab.write_view.surprise.value = 'Always the likeliest'; lab.write_view.write_five()"),
    ("made up: write, find the seam, the card",
     "lab.made_up_view.write(); lab.made_up_view.check('gills'); lab.made_up_view.card_example()"),
    ("copied: the private sentence", "lab.copy_view.write()"),
)
#: 30 students' 3 sentences each, saved as the lesson saves them (run in the kernel once).
_CLASS = """
def _bench_class():
    from tokens_edu.store import Writer
    words = ["run", "sing", "paint", "cook", "climb", "dance", "read comics", "play chess", "swim fast", "draw cats"]
    for i in range(30):
        for j in range(3):
            session.store.sentences._saves.clear()
            session.store.sentences.save(Writer(f"Student {i}", trusted=True), session.lesson,
                                        f"I like to {words[(i + j) % len(words)]} with friend {i}.")
"""


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


def kernel_part() -> None:
    """PSS of a real kernel running lesson 12, then after each click (see the module's docs)."""
    import json
    import tempfile
    from pathlib import Path

    import psutil
    from jupyter_client import KernelManager

    root = Path(__file__).resolve().parents[1]
    print(f"kernel memory ({_load()}); limit {KERNEL_LIMIT_MIB:.0f} MiB of PSS after every click")
    data = tempfile.mkdtemp(prefix="bench-lesson12-")
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

        def run(code: str) -> float:
            t0 = time.perf_counter()
            reply = kc.execute_interactive(code, timeout=600, output_hook=lambda m: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
            return time.perf_counter() - t0

        def pss() -> float:
            return proc.memory_full_info().pss / 2**20

        empty = pss()
        nb = json.loads((root / "lessons" / "12-finish-my-sentence.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                run("".join(cell["source"]))
        loaded = pss()
        print(f"  the empty kernel {empty:.1f} MiB; the lesson loaded {loaded:.1f} MiB")
        run(_CLASS)  # 30 classmates share 3 sentences each (not a click of this page: saved first)
        run("_bench_class()")
        worst = loaded
        for what, code in CLICKS:
            seconds = run(code)
            now = pss()
            worst = max(worst, now)
            print(f"  after {what}: {now:.1f} MiB ({seconds * 1000:.0f} ms wall)")
        m = proc.memory_full_info()
        verdict = "under" if worst < KERNEL_LIMIT_MIB else "OVER"
        print(f"  the most after a click: {worst:.1f} MiB PSS ({verdict} the limit); at the end PSS "
              f"{m.pss / 2**20:.1f}, USS {m.uss / 2**20:.1f}, RSS {m.rss / 2**20:.1f} MiB; {_load()}")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main() -> None:
    """Run the chosen parts and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = ["model", "kernel"]
    ap.add_argument("--part", nargs="+", default=parts, choices=parts)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    print(f"benchmarks/language.py: {os.cpu_count()} cores, {_load()}, Python {sys.version.split()[0]}")
    if "kernel" in args.part:  # first: nothing loaded in this process yet to share pages with
        kernel_part()
    if "model" in args.part:
        model_part(args.repeat)


if __name__ == "__main__":
    main()
