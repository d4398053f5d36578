"""Lesson pages in a real browser: a lesson server for a test module, waiting for the card table
to settle after a click, and reading what the page was sent (for the hidden-card checks)."""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from teacher_helpers import free_port, tokens_edu_command


ROOT = Path(__file__).resolve().parents[2]
LESSON = "05-play-the-computer.ipynb"


class Server:
    """``tokens-edu serve`` in a subprocess; stopped by its own pid (SIGTERM, then SIGKILL)."""

    def __init__(self, data_dir: Path, log_path: Path, extra: list[str] | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, TOKENS_EDU_DATA=str(data_dir))
        env.pop("JUPYTERHUB_USER", None)
        env.pop("TOKENS_EDU_DB_URL", None)
        self.log = open(log_path, "w")
        cmd = tokens_edu_command() + ["serve", "--port", str(self.port), "--data-dir", str(data_dir),
                                      *(extra or [])]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.log_path = log_path

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"tokens-edu serve stopped:\n{self.log_path.read_text()[-3000:]}")
            try:  # the tree page: it starts no kernel (a render page would use one up)
                with urllib.request.urlopen(f"{self.url}/voila/tree", timeout=30) as r:
                    if r.status == 200:
                        return
            except urllib.error.HTTPError:
                return  # the server answers: up
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        raise AssertionError(f"tokens-edu serve did not answer in {timeout} s:\n"
                             f"{self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this test started
                self.proc.wait(timeout=10)
        self.log.close()


VIEWPORT = {"width": 1366, "height": 768}


def tick(page, root: str = ".tokens-game") -> str:
    return page.locator(f"{root} .tokens-tick").first.text_content() or ""


# Resolves when the table waits for the student (their turn, nothing in flight) or the game is over.
SETTLED = """(root) => new Promise((resolve, reject) => {
  // settled: the game is over, or the page waits for the student (a move to choose, the hot-seat
  // cover, or "Next computer move" when the computer's moves are stepped by hand, as in lesson 7).
  // Never waits for ever: after 60 s it fails with what the table said.
  const end = performance.now() + 60000;
  const poll = () => {
    const t = document.querySelector(root + ' .tokens-table');
    const status = t ? (t.querySelector('.tokens-status') || {}).textContent || '' : '';
    const busy = !t || t.classList.contains('tt-busy');
    const waiting = !busy && (t.querySelector('.tt-panel .tokens-action') || t.querySelector('.tokens-reveal'));
    const stepped = !busy && t.querySelector('.tokens-next');
    if (t && (t.querySelector('.tt-banner') || (waiting && !status.includes('computer')) || stepped)) { resolve(true); return; }
    if (performance.now() > end) { reject(new Error('the table did not settle within 60 s; it said: ' + status)); return; }
    setTimeout(poll, 30);
  };
  poll();
})"""


def wait_tick(page, before: str, root: str = ".tokens-game", timeout: float = 30_000) -> None:
    page.wait_for_function(
        "([root, prev]) => { const t = document.querySelector(root + ' .tokens-tick');"
        " return t && t.textContent !== prev; }", arg=[root, before], timeout=timeout)


def click_and_wait(page, locator, root: str = ".tokens-game", timeout: float = 60_000, press: str = "click") -> None:
    """Click (``press="tap"``: tap, on a touch screen) something that sends a message; wait for the
    kernel's answer, then for the table to settle."""
    before = tick(page, root)
    getattr(locator, press)()
    wait_tick(page, before, root, timeout)
    page.evaluate(SETTLED, root)


def frame_texts(payload) -> str:
    """A websocket frame as text (Jupyter's binary protocol frames hold JSON parts as UTF-8)."""
    if isinstance(payload, (bytes, bytearray)):
        return bytes(payload).decode("utf-8", errors="replace")
    return str(payload)


def table_states(text: str) -> list[dict]:
    """Every card-table ``state`` dict sent in one frame (comm messages of the CardTable)."""
    import json

    out = []
    for m in re.finditer(r'\{"state": ?\{"(?:seat|v|sides)"', text):
        start = m.start() + text[m.start():].index('{"', 1)
        try:  # the dict runs to its matching brace: let the JSON decoder find it
            obj, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            continue
        if isinstance(obj, dict) and "sides" in obj:
            out.append(obj)
    return out


@functools.lru_cache(maxsize=1)
def _shipped_widget_code() -> tuple[str, ...]:
    """The front-end files the package ships for its widgets (tokens_edu/widgets/static/*.js and
    *.css), each as the JSON string a ``comm_open`` carries it in: anywidget sends a Path ``_esm``
    or ``_css`` as the file's whole text. Both JSON spellings (non-ASCII kept or escaped)."""
    import json

    static = ROOT / "tokens_edu" / "widgets" / "static"
    texts = [p.read_text(encoding="utf-8") for p in sorted(static.glob("*.js")) + sorted(static.glob("*.css"))]
    return tuple({json.dumps(t, ensure_ascii=a) for t in texts for a in (False, True)})


def page_data(text: str) -> str:
    """A frame's text without the widgets' own code: every shipped .js or .css file it carries (a
    widget's ``comm_open`` holds its ``_esm`` and ``_css``) is cut out, whole. That code is the same
    for every game and every deck, and its comments may name a card as an example (table.js:
    "Audit Explainability"), so a hidden-card check reads the rest. Code that differs from the
    shipped file by one character is kept, so a name put into a widget's code at run time is still
    caught."""
    for code in _shipped_widget_code():
        text = text.replace(code, '""')
    return text


def check_hidden_cards(frames: list[str], hidden: set[str], public: set[str] | None = None) -> int:
    """Assert that no name in ``hidden`` (the computer's cards) reached the page before it was
    public. ``frames`` are the websocket frames the page received, in order (``frame_texts``). A
    name becomes public in the first card-table state that shows it on the board, in a discard pile
    or in the log; from that frame on it may appear anywhere. Before that, the name may be in no
    frame's data (``page_data``: everything but the shipped widget code), and never in any state's
    ``hand`` (the student's hand). Returns the number of table states read.

    Raises AssertionError naming the card, with the frame's text around it."""
    public = set(public or ())
    states = 0
    for text in frames:
        for st in table_states(text):
            states += 1
            faces = [c["face"]["name"] for c in st["board"]] + [f["name"] for s in st["sides"] for f in s["discard"]]
            public |= {n for n in hidden if n in faces or any(n in line for line in st.get("log", []))}
            assert not hidden & {f["name"] for f in st["hand"]}, "a computer card in the student's hand"
        data = page_data(text)
        for name in hidden - public:
            if name in data:
                i = data.index(name)
                raise AssertionError(f"the computer's hidden {name} reached the page: {data[:200]} ... "
                                     f"{data[max(0, i - 700):i + 200]}")
    return states


def student_and_computer_decks() -> tuple[int, int]:
    """Two starter decks with no card name in common (so a computer card name is never ours)."""
    from tokens_edu import starter_decks

    decks = starter_decks()
    names = [{c.name for c in d} for d in decks]
    for b in range(len(decks) - 1, -1, -1):
        for a in range(len(decks)):
            if a != b and not names[a] & names[b]:
                return a, b
    raise AssertionError("no two starter decks without a shared card")


#: What the simple student of the browser tests and benchmarks/browser_latency.py wants, in order:
#: (the words of the move, the kind of move on a card's buttons).
WANTS = (("Run a Task", "task"), ("Deploy", "deploy"), ("Audit", "audit"), ("Train", "train"))
#: The letter that takes the focus to the next move of a kind (table.js LETTER_KINDS, the Keys note).
LETTERS = {"task": "t", "deploy": "d", "train": "r", "audit": "a", "use": "u"}
TABLE = ".tokens-game .tokens-table"


def _css(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def student_move(page, click=None, root: str = TABLE, press: str = "click") -> tuple[str, int]:
    """One decision of a simple student who plays by clicking the moves under the cards: Task,
    Deploy, Audit, Train (the first card that has it), else a move beside the table (keep this
    hand, go first, a choice), else End turn. Returns ``(what it did, clicks used)``.

    ``click(selector)`` makes the click that reaches the kernel and waits for the answer (default:
    :func:`click_and_wait`); the clicks before it (a move that asks for its target) are plain.
    ``press``: ``"click"`` (a mouse) or ``"tap"`` (a finger on a touch screen: the page's context
    needs ``has_touch``).
    """
    if click is None:
        def click(selector: str) -> None:
            click_and_wait(page, page.locator(selector).first, root.split(" ")[0], press=press)
    page.evaluate(SETTLED, root.split(" ")[0])  # decide on a table that waits for the student, not mid-redraw
    table = page.locator(root)
    loose = table.locator(".tt-panel .tt-loose")
    if loose.count():
        texts = [t.strip() for t in loose.all_inner_texts()]
        pick = next((i for i, t in enumerate(texts) if t in ("Go first", "Keep this hand")), 0)
        click(f"{root} .tt-panel .tt-loose[data-i='{loose.nth(pick).get_attribute('data-i')}']")
        return texts[pick], 1
    for want, kind in WANTS:
        buttons = table.locator(f".tt-moves .tt-quick-{kind}")
        if not buttons.count():
            continue
        first = buttons.first
        cls = first.get_attribute("class") or ""
        if "tt-quick-aim" in cls:  # "Audit…": the targets glow, a click on one makes the move
            getattr(first, press)()
            table.locator(".tt-card.tt-target").first.wait_for(state="visible")
            click(f"{root} .tt-card.tt-target")
            return want, 2
        if "tt-quick-more" in cls:  # several ways to pay: they open beside the table
            getattr(first, press)()
            verb = table.locator(f".tt-panel .tt-verb.tokens-action-{kind}").first
            verb.wait_for(state="visible")
            click(f"{root} .tt-panel .tt-verb.tokens-action-{kind}[data-i='{verb.get_attribute('data-i')}']")
            return want, 2
        click(f"{root} .tt-moves .tt-quick-{kind}[data-i='{first.get_attribute('data-i')}']")
        return want, 1
    end = table.locator(".tt-panel .tt-end")
    assert end.count(), "no move offered and no End turn"
    click(f"{root} .tt-panel .tt-end")
    return "End turn", 1


# The index of an element in the table's move list (what the arrow keys step through, table.js's
# moveButtons), and of the focused element in it (-1: the focus is elsewhere).
_MOVE_LIST = ".tt-target, .tt-moves .tt-move, .tt-panel .tt-verb, .tt-panel .tt-end, .tt-cancel"
_WHERE = """([root, sel, list]) => { const t = document.querySelector(root);
  const all = [...t.querySelectorAll(list)]; const want = sel ? t.querySelector(sel) : null;
  return [all.indexOf(want), all.indexOf(document.activeElement), all.length,
          !!(document.activeElement && document.activeElement.closest(root))]; }"""


def _keys_to(page, selector: str, root: str) -> int:
    """Press the fewest keys that move the focus from where it is onto ``selector`` (the arrows
    step through the moves and wrap round; Home: the first move; End: End turn). Returns how
    many keys were pressed (0 when the focus is already there)."""
    want, at, n, inside = page.evaluate(_WHERE, [root, selector, _MOVE_LIST])
    assert want >= 0, (f"{selector} is not among the table's moves: "
                       + page.evaluate("r => document.querySelector(r + ' .tt-panel').innerText", root)[:400])
    assert inside, "the focus is not on the table"
    if want == at:
        return 0
    if ".tt-end" in selector:
        page.keyboard.press("End")
        return 1
    ways = []  # (presses, [keys])
    if at >= 0:
        ways.append(((want - at) % n, ["ArrowRight"] * ((want - at) % n)))
        ways.append(((at - want) % n, ["ArrowLeft"] * ((at - want) % n)))
    ways.append((1 + want, ["Home"] + ["ArrowRight"] * want))
    _, keys = min(ways, key=lambda w: w[0])
    for key in keys:
        page.keyboard.press(key)
    assert page.evaluate(_WHERE, [root, selector, _MOVE_LIST])[1] == want, f"the keys did not reach {selector}"
    return len(keys)


def keyboard_move(page, root: str = TABLE) -> tuple[str, int]:
    """The simple student of :func:`student_move`, with the keyboard only: the move's letter
    (T, D, R, A: the Keys note) to a move on a card, the arrow keys (or Home / End) to a move
    beside the table, then Enter; a move with several targets: Enter on the move, then Enter
    on the target (the focus goes to the first target). Returns ``(what it did, key presses
    used)``. The focus must be on the table (it is after Start and every move)."""
    game = root.split(" ")[0]
    table = page.locator(root)

    def enter() -> None:
        before = tick(page, game)
        page.keyboard.press("Enter")
        wait_tick(page, before, game)
        page.evaluate(SETTLED, game)

    page.evaluate(SETTLED, game)  # decide on a table that waits for the student, not mid-redraw
    loose = table.locator(".tt-panel .tt-loose")
    if loose.count():  # keep this hand, go first, a card's choice
        texts = [t.strip() for t in loose.all_inner_texts()]
        pick = next((i for i, t in enumerate(texts) if t in ("Go first", "Keep this hand")), 0)
        keys = _keys_to(page, f".tt-panel .tt-loose[data-i='{loose.nth(pick).get_attribute('data-i')}']", root)
        enter()
        return texts[pick], keys + 1
    for want, kind in WANTS:
        buttons = table.locator(f".tt-moves .tt-quick-{kind}")
        if not buttons.count():
            continue
        first = buttons.first
        cls = first.get_attribute("class") or ""
        if page.evaluate("k => !!(document.activeElement && document.activeElement.matches('.tt-moves .tt-quick-' + k))", kind):
            keys = 0  # the focus is on a move of this kind already (after a move: the first move)
            cls = page.evaluate("() => document.activeElement.className")
        else:  # its letter (the Keys note): T, D, R, A take the focus to the next move of that kind
            page.keyboard.press(LETTERS[kind])
            keys = 1
            assert page.evaluate("k => document.activeElement.matches('.tt-moves .tt-quick-' + k)", kind), \
                f"{LETTERS[kind]} did not reach a {kind} move"
            cls = page.evaluate("() => document.activeElement.className")
        if "tt-quick-aim" in cls or "tt-quick-more" in cls:  # then the first target / way to pay
            page.keyboard.press("Enter")
            sel = ".tt-target" if "tt-quick-aim" in cls else f".tt-panel .tt-verb.tokens-action-{kind}"
            table.locator(sel).first.wait_for(state="visible")
            keys += 1 + _keys_to(page, sel, root)
        enter()
        return want + ("…" if "tt-quick-aim" in cls else "+" if "tt-quick-more" in cls else ""), keys + 1
    keys = _keys_to(page, ".tt-panel .tt-end", root)
    enter()
    return "End turn", keys + 1
