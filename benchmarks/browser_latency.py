"""Click-to-settled-table latency of the card table in a real browser, and clicks per round.

Starts ``tokens-edu serve`` on a free port with a temporary data folder, opens lesson 05 in
Debian's Chromium (Playwright's Python package, no ``playwright install``) at 1366x768, starts
a game and plays it by clicking cards, moves and target cards, as a student does. For every click
that reaches the kernel it measures, in the page's own clock (``performance.now()``), the time
from the click to the moment the table has been redrawn with the kernel's answer (the hidden
``.tokens-tick`` holds the version of the state the page drew). The computer plays its own turn
(no clicks). It also counts the student's clicks per round (one turn each; a card click, a move
click and a target click each count).

Usage::

    .venv/bin/python benchmarks/browser_latency.py [--games 1] [--screenshot table.png]

Prints min, median, p95 and max in milliseconds and clicks per round (median, max). Targets: p95 <=
150 ms; clicks per round <= 5. Exits 1 when a target is missed. Timings on a shared machine are
noisy: run it a few times on a quiet one.

``--keyboard`` also plays a game of lesson 05 with the keyboard only (the arrow keys, Home or End
to a move, then Enter; tests/support/pages.py ``keyboard_move``) and prints the key presses per
turn (target: a median of 6 or fewer). ``--axe`` opens every lesson page at 1366x768, starts its
first game when it has a Start button (hot seat: past the cover), runs axe-core 4 (from
``npm ci --prefix tests``) and prints the violating elements by impact (target: 0 serious and
0 critical on every page).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "support"), str(ROOT / "tests" / "widgets")]

from pages import LESSON, SETTLED, VIEWPORT, Server, keyboard_move  # noqa: E402
from teacher_helpers import launch, only_loopback  # noqa: E402
from test_browser import WANTS  # noqa: E402

TARGET_MS = 150.0
TARGET_CLICKS = 5
TARGET_KEYS = 6
CORNER = {"x": 6, "y": 6}

# Clicks the element matched by selector and resolves with the ms until the tick changes.
_MEASURE = """
(selector) => new Promise((resolve, reject) => {
  const tick = document.querySelector('.tokens-game .tokens-tick');
  const before = tick.textContent;
  const el = document.querySelector(selector);
  if (!el) { reject(new Error('nothing at ' + selector)); return; }
  const root = document.querySelector('.tokens-game .tokens-table');
  const t0 = performance.now();
  const obs = new MutationObserver(() => {
    const now = root.querySelector('.tokens-tick');
    if (now && now.textContent !== before) { obs.disconnect(); resolve(performance.now() - t0); }
  });
  obs.observe(root, {subtree: true, childList: true, characterData: true});
  setTimeout(() => { obs.disconnect(); reject(new Error('no update in 30 s')); }, 30000);
  el.click();
})
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def summary(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:>12}: no clicks"
    return (f"{name:>12}: {len(values):4d} clicks, min {min(values):6.1f} ms, median "
            f"{statistics.median(values):6.1f} ms, p95 {percentile(values, 0.95):6.1f} ms, max {max(values):6.1f} ms")


def css(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def student_turn(page, times: list[float], quick: bool = True) -> int:
    """Play one decision the way the browser test's student does; returns the clicks used.

    With ``quick``, the one-click buttons on the cards; without, a click on the card and then
    on its move beside the table (the way before those buttons)."""
    table = ".tokens-game .tokens-table"
    measure = lambda sel: times.append(page.evaluate(_MEASURE, sel))  # noqa: E731
    loose = page.locator(f"{table} .tt-panel .tt-loose")
    if loose.count():
        texts = [t.strip() for t in loose.all_inner_texts()]
        pick = next((i for i, t in enumerate(texts) if t in ("Go first", "Keep this hand")), 0)
        move = loose.nth(pick).get_attribute("data-move")
        measure(f"{table} .tt-panel .tt-loose[data-move='{css(move)}']")
        return 1
    ids = page.evaluate("() => [...document.querySelectorAll('.tokens-game .tt-card.tt-playable')].map(e => e.dataset.id)")
    for want, kind in WANTS:
        for card_id in ids:
            chip = page.locator(f"{table} .tt-slot:has(.tt-card[data-id='{css(card_id)}']) .tt-quick-{kind}")
            if quick and chip.count():
                cls = chip.get_attribute("class") or ""
                if "tt-quick-aim" in cls:  # "Audit…": then the target card
                    chip.click()
                    measure(f"{table} .tt-card.tt-target")
                    return 2
                if "tt-quick-more" not in cls:  # one click on the card's own button
                    measure(f"{table} .tt-slot:has(.tt-card[data-id='{css(card_id)}']) .tt-quick-{kind}")
                    return 1
            # the card's corner (its middle may hold the one-click buttons)
            page.locator(f"{table} .tt-card[data-id='{css(card_id)}']").click(position=CORNER)
            verbs = page.locator(f"{table} .tt-panel .tt-verb")
            texts = [t.strip() for t in verbs.all_inner_texts()]
            hit = next((j for j, t in enumerate(texts) if t.startswith(want)), None)
            if hit is None:
                page.keyboard.press("Escape")
                continue
            verb = verbs.nth(hit)
            if "tt-aim" in (verb.get_attribute("class") or ""):
                verb.click()
                measure(f"{table} .tt-card.tt-target")
                return 3
            move = verb.get_attribute("data-move")
            measure(f"{table} .tt-panel .tt-verb[data-move='{css(move)}']")
            return 2
    measure(f"{table} .tt-panel .tt-end")
    return 1


def keyboard_game(page) -> list[int]:
    """One game of lesson 05 by keyboard only, from its Start; the key presses of each of the
    student's turns (the last, unfinished one left out)."""
    turns, keys, turn = [], 0, None
    for _ in range(2000):
        page.evaluate(SETTLED, ".tokens-game")
        if page.locator(".tokens-game .tt-banner").count():
            break
        now = page.locator(".tokens-game .tokens-step").inner_text().split(":")[0]
        if now != turn:
            if turn is not None and turn.startswith("Turn"):
                turns.append(keys)
            keys, turn = 0, now
        keys += keyboard_move(page)[1]
    return turns


def axe_pages(browser, server, shots: Path | None = None) -> dict[str, dict[str, int]]:
    """axe-core's violating elements by impact on every lesson page, with its first game started;
    with ``shots``, a 1366x768 screenshot of lessons 01, 05 and 07 there (docs/img)."""
    from axe import counts, run_axe  # noqa: PLC0415

    out = {}
    for nb in sorted((ROOT / "lessons").glob("[0-9][0-9]-*.ipynb")):
        context = browser.new_context(viewport=VIEWPORT)
        try:
            context.route("**/*", only_loopback)
            page = context.new_page()
            page.set_default_timeout(90_000)
            page.goto(f"{server.url}/voila/render/{nb.name}?student=bench", wait_until="commit")
            page.wait_for_selector(".jupyter-widgets >> nth=0", state="attached")
            # the cells run top to bottom: wait until no new widget has been drawn for 3 s
            page.wait_for_function("""() => { const n = document.querySelectorAll('.jupyter-widgets').length;
                const w = window.__tk_seen || (window.__tk_seen = {n: -1, t: 0}); const now = performance.now();
                if (n !== w.n) { w.n = n; w.t = now; } return now - w.t > 3000; }""", polling=500, timeout=120_000)
            for i in range(2):  # hot seat: the two names
                name = page.locator(f".tokens-name-{i} input")
                if name.count() and name.first.is_visible() and name.first.is_enabled():
                    name.first.fill("Ana" if i == 0 else "Ben")
            start = page.locator("button.tokens-start")
            if start.count() and start.first.is_visible():
                start.first.click()
                page.wait_for_selector(".tokens-table .tt-side-bottom, button.tokens-reveal", state="visible")
                reveal = page.locator("button.tokens-reveal")
                if reveal.count() and reveal.first.is_visible():
                    reveal.first.click()
                    page.wait_for_selector(".tokens-table .tt-panel .tokens-action", state="attached")
            if page.locator(".tokens-game").count():
                page.evaluate(SETTLED, ".tokens-game")
            if shots and nb.name[:2] in ("01", "05", "07"):
                if nb.name[:2] != "01":  # the table in view (lesson 1: its top, a card and the gallery)
                    page.locator(".tokens-table").first.scroll_into_view_if_needed()
                page.screenshot(path=str(shots / f"lesson-{nb.name[:2]}-1366x768.png"))
            out[nb.name] = counts(run_axe(page))
            screens = page.evaluate("() => Math.max(document.documentElement.scrollHeight, "
                                    "...[...document.querySelectorAll('#rendered_cells, .jp-Notebook')].map(e => e.scrollHeight))") / VIEWPORT["height"]
        finally:
            context.close()
        print(f"axe-core {nb.name}: {out[nb.name]}; page {screens:.1f} screens of 768 px", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    ap.add_argument("--screenshot", type=Path, default=None, help="save a 1366x768 screenshot after a few turns")
    ap.add_argument("--no-quick", action="store_true",
                    help="play without the one-click buttons on the cards (card, then its move beside the table)")
    ap.add_argument("--keyboard", action="store_true", help="also play a game by keyboard: key presses per turn")
    ap.add_argument("--axe", action="store_true", help="also run axe-core on every lesson page, a game started")
    ap.add_argument("--lesson-screenshots", type=Path, default=None,
                    help="with --axe: save 1366x768 screenshots of lessons 01, 05 and 07 in this folder")
    args = ap.parse_args(argv)

    times: list[float] = []
    rounds: list[int] = []
    errors: list[str] = []
    key_turns: list[int] = []
    axe: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "data").mkdir()
        server = Server(tmp / "data", tmp / "serve.log", ["--pool-size", "1", "--preheat-only", LESSON])
        try:
            server.wait_ready()
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_context(viewport=VIEWPORT).new_page()
                page.context.route("**/*", only_loopback)
                page.set_default_timeout(60_000)
                t0 = time.monotonic()
                page.goto(f"{server.url}/voila/render/{LESSON}?student=bench", wait_until="commit")
                page.locator("button.tokens-start").click()
                page.wait_for_selector(".tokens-game .tokens-table .tt-side-bottom", state="visible")
                print(f"page and first game ready in {time.monotonic() - t0:.1f} s")
                if page.locator(".tt-speed select").count():  # the computer's turn costs no click: fast
                    page.locator(".tt-speed select").select_option(label="fast")
                shot_taken = False
                for game in range(args.games):
                    clicks, turn = 0, None
                    for _ in range(2000):
                        page.evaluate(SETTLED, ".tokens-game")
                        if page.locator(".tokens-game .tt-banner").count():
                            break
                        now = page.locator(".tokens-game .tokens-step").inner_text()
                        t = now.split(":")[0]
                        if t != turn:
                            if turn is not None and turn.startswith("Turn"):
                                rounds.append(clicks)
                                clicks = 0
                            turn = t
                        if args.screenshot and not shot_taken and turn.startswith("Turn 7"):
                            page.screenshot(path=str(args.screenshot))
                            shot_taken = True
                        try:
                            clicks += student_turn(page, times, quick=not args.no_quick)
                        except Exception as exc:  # noqa: BLE001 (one lost click must not lose the run)
                            errors.append(str(exc).splitlines()[0][:200])
                            print(f"a click went wrong ({len(errors)}): {errors[-1]}", flush=True)
                            if len(errors) >= 3:
                                raise
                    if game + 1 < args.games:
                        page.locator(".tokens-game button.tokens-again").click()
                        page.wait_for_selector(".tokens-game .tt-banner", state="detached")
                if args.keyboard:  # Play again by keyboard: Enter on the banner's button
                    page.locator(".tokens-game button.tokens-again").focus()
                    page.keyboard.press("Enter")
                    page.wait_for_selector(".tokens-game .tt-banner", state="detached")
                    page.evaluate(SETTLED, ".tokens-game")
                    key_turns = keyboard_game(page)
                page.context.close()
                if args.axe:
                    axe = axe_pages(browser, server, args.lesson_screenshots)
                browser.close()
        finally:
            server.stop()

    # A turn of the student's is one round here (the computer's turn between costs no click).
    import tokens_edu  # noqa: PLC0415 (only to say which code the server ran)

    print(f"code: {Path(tokens_edu.__file__).parent}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (shared machines are noisy)")
    print(summary("click->table", times))
    if errors:
        print(f"{len(errors)} click(s) went wrong and were not timed: {errors}")
    if rounds:
        print(f"clicks per round: median {statistics.median(rounds):.0f}, max {max(rounds)}, "
              f"over {len(rounds)} rounds (the computer's turn needs none)")
    ok = bool(times) and percentile(times, 0.95) <= TARGET_MS and rounds and statistics.median(rounds) <= TARGET_CLICKS
    print(f"targets: p95 <= {TARGET_MS:.0f} ms, clicks per round <= {TARGET_CLICKS}: {'met' if ok else 'NOT met'}")
    if args.keyboard:
        good = bool(key_turns) and statistics.median(key_turns) <= TARGET_KEYS
        print(f"key presses per turn (keyboard only): {key_turns}; "
              + (f"min {min(key_turns)}, median {statistics.median(key_turns):.0f}, max {max(key_turns)}; " if key_turns else "")
              + f"target median <= {TARGET_KEYS}: {'met' if good else 'NOT met'}")
        ok = ok and good
    if args.axe:
        bad = {k: v["serious"] + v["critical"] for k, v in axe.items() if v["serious"] + v["critical"]}
        print(f"axe-core: serious + critical on {len(axe)} lesson pages: "
              + (", ".join(f"{k} {n}" for k, n in bad.items()) if bad else "0 on every page"))
        ok = ok and not bad
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
