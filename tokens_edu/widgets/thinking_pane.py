"""The "What was the computer thinking?" pane and the Hint button of a :class:`GameView`.

After each computer move, the pane shows the options the computer weighed before it moved
(at most five, its pick first), each with a bar: for :class:`~tokens_edu.players.SearchBot` its
estimated chance of winning after the move and its share of the thinking, for
:class:`~tokens_edu.players.GreedyBot` the points its rules gave the move, and a one-line reason
in a student's words. The tables come from ``bot.explain(game, for_player=viewer)``
(:mod:`tokens_edu.players.thinking`).

The **Hint** button asks a search bot (``SearchBot`` with a fixed number of imagined games,
so it answers in a fraction of a second and the same way every time) which move it would make
in the student's place, with the same bars. The teacher can turn hints off (see
:func:`hints_allowed`): ``GameView(..., hints=False)`` in a lesson; ``tokens-edu serve
--no-hints`` for the whole class (it sets ``TOKENS_EDU_HINTS=off`` for the lessons' kernels);
or ``?hints=off`` in the lesson link the teacher hands out (a link can only turn hints off,
never on). With hints off there is no Hint button at all.

Optionally (``predict=True``) the pane asks the student to guess the computer's next move
(Task, Audit, Deploy, Train, Use a Tool, End its turn) before pressing "Next computer move",
then says whether the guess was right and keeps count.

Hidden cards stay hidden (the promise in the project's guide):

- The computer's table is asked for the *viewer*: options that would name a card in the
  computer's hand or deck (deploy, train, a secret choice) read "deploy a card from its hand",
  "train a card (face-down)" or "a secret choice" (:func:`tokens_edu.players.thinking.mask`). Several
  such options are merged into one row, so the number of rows says nothing about its hand.
  Only the move it really made, once it is public (a deployed card lies on the table), is named.
- The tables never hold what a search bot imagined about hidden cards: only moves, shares
  and chances (the student's imagined hand is never shown, so it cannot hint at the
  computer's own cards either).
- The Hint is worked out from the student's own view (``game.imagine(student, ...)``): it
  knows nothing of the computer's hand or deck order, so it cannot leak them.
- The whole unmasked table stays in the kernel (never in a widget's state).

Stable CSS classes: ``tokens-thinking`` (the pane's HTML), ``tokens-thinking-row`` (an
option), ``tokens-thinking-chosen`` (the pick), ``tokens-bar``, ``tokens-hint`` (the "Show a
hint" button), ``tokens-hint-out``, ``tokens-guess`` (the guess buttons), ``tokens-guess-result``.
"""

from __future__ import annotations

import html
import logging
import os
import time

import ipywidgets as widgets

from ..players.learning import WIN_POINTS
from ..players.thinking import describe, mask, screen_words

from ..players.search import SearchBot
from ..session import query_known, query_string

__all__ = ["ThinkingPane", "HintPane", "hints_allowed", "GUESSES", "HINT_ITERATIONS", "MESSAGES"]

log = logging.getLogger(__name__)

#: Imagined games a Hint plays (a fixed number: the same hint every time, about 0.1-0.4 s).
HINT_ITERATIONS = 120

#: The guesses a student can make about the computer's next move (label, the moves' kinds).
GUESSES = (
    ("Run a Task", ("task",)),
    ("Audit", ("audit",)),
    ("Deploy a card", ("deploy",)),
    ("Train a card", ("train",)),
    ("Use a Tool", ("use",)),
    ("End its turn", ("end",)),
    ("Something else", ("order", "keep", "mulligan", "choose")),
)

#: Every sentence the panes say (short, for ages 11-14).
MESSAGES = {
    "waiting": "The computer has not moved yet. After each of its moves, you see here what it thought about.",
    "no_bot": "No computer plays in this game.",
    "cannot": "This computer player can't explain its moves.",
    "hint_intro": "Stuck? A search bot can look at your cards and the table, and say what it would do.",
    "hint_button": "Show a hint",
    "hint_not_yours": "Hints are for your own move. Wait for your turn.",
    "hint_over": "The game is over.",
    "hint_covered": "Show your cards first, then ask for a hint.",
    "hint_old": "That hint was for an earlier move. Click Show a hint again.",
    "hints_off": "Your teacher turned hints off for this lesson.",
    "guess_ask": "What will the computer do next? Guess, then click Next computer move.",
    "guess_none": "You did not guess this time. Try to guess before the next move!",
    "guess_right": "You guessed right!",
    "guess_wrong": "Not this time.",
    "secret": "It can see its own cards. You can't, so some of its options are hidden.",
    "search_bars": ("It played {games} pretend games before it chose. Each one stopped after {turns} turns, "
                    "unless someone won sooner: {ended} a winner. When a pretend game stopped, it guessed from "
                    "the board how likely it was to win. Each blue bar is the average for that move: "
                    "a pretend win counts 100%, a loss 0%, a stopped game what it guessed. "
                    "Each grey bar shows how many pretend games came after that move."),
    "greedy_bars": "Each bar shows how many points its rules gave the move.",
    "learning_bars": ("For each move, it imagined the rest of its turn and your next turn. Each bar shows the "
                      "points its weights give the board it imagined."),
    "other_games": "The other {games} pretend games came after moves that have no row here.",
}

_BLUE, _GREY, _GREEN = "#1565c0", "#9e9e9e", "#1d5e20"
_OFF = ("0", "off", "no", "false", "none")
_CSS = ("<style>.tokens-thinking { font-size: 14px; line-height: 1.35; max-width: 1000px; }"
        " .tokens-thinking table { border-collapse: collapse; width: 100%; }"
        " .tokens-thinking td { padding: 3px 6px; vertical-align: middle; }"
        " .tokens-thinking td.tokens-thinking-bar { white-space: nowrap; width: 1%; }"
        " .tokens-thinking tr.tokens-thinking-reason td { padding-top: 0; color: #333; font-size: 13px;"
        " border-bottom: 1px solid #ddd; }"
        " .tokens-thinking .tokens-thinking-chosen td { font-weight: bold; }"
        " .tokens-thinking .tokens-bar { display: inline-block; width: 140px; height: 12px;"
        " background: #e6e6e6; border-radius: 3px; vertical-align: middle; margin-right: 6px; }"
        " .tokens-thinking .tokens-bar > span { display: block; height: 100%; border-radius: 3px; }"
        # beside the table (a column of 320-460 px): each bar over its words, and the guesses wrap
        " .tokens-pane-thinking { container-type: inline-size; }"
        " .tokens-guess, .tokens-guess * { flex-wrap: wrap; max-width: 100%; }"
        " @container (max-width: 640px) { .tokens-thinking td.tokens-thinking-bar { white-space: normal;"
        " width: auto; } .tokens-thinking .tokens-bar { display: block; width: 100px; margin: 2px 0; }"
        " .tokens-thinking td { padding: 3px 4px; } }"
        "</style>")


def _esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def hints_allowed(hints: bool = True, query: str | None = None) -> bool:
    """Whether the Hint button is offered: the lesson's choice, then the teacher's.

    Args:
        hints: the lesson's (or notebook's) choice, e.g. ``GameView(..., hints=False)``.
        query: the page's query (``"student=Ana&hints=off"``); None reads it from the page
            when it is known (a warm kernel that has not been given its page yet counts as no
            query: it is read again when a hint is asked for).

    Returns:
        False when the lesson says no, when the server's environment has ``TOKENS_EDU_HINTS``
        set to ``off`` (also ``0``, ``no``, ``false``: the teacher's setting for the whole
        class), or when the page's query says ``hints=off``. A query never turns hints on.
    """
    if not hints:
        return False
    if os.environ.get("TOKENS_EDU_HINTS", "").strip().lower() in _OFF:
        return False
    if query is None:
        try:

            query = query_string() if query_known() else ""
        except Exception:  # noqa: BLE001 (no page: a notebook)
            query = ""
    from urllib.parse import parse_qs

    values = parse_qs(str(query).lstrip("?")).get("hints", [])
    return not any(v.strip().lower() in _OFF for v in values)


def _percent(x) -> str:
    try:
        return f"{float(x):.0%}"
    except (TypeError, ValueError):
        return ""


def _spread(value, low: float, top: float) -> float:
    """Where ``value`` lies between the lowest and the highest points shown (a short bar for the
    lowest, a full one for the highest)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return 0.0
    if v != v or top <= low:
        return 1.0 if v == v else 0.0
    return 0.05 + 0.95 * (v - low) / (top - low)


def _points(value) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    if v >= WIN_POINTS:
        return "wins its pretend game"
    if v <= -WIN_POINTS:
        return "loses its pretend game"
    return f"{v:+.1f} points"


def search_intro(attrs: dict) -> str:
    """The sentences above a search bot's bars: how many pretend games it played, how long
    each lasted, how many had a winner, and what a bar is (``attrs`` of its explain table)."""
    games = int(attrs.get("iterations") or 0)
    horizon = int(attrs.get("horizon") or 4)
    finished = int(attrs.get("finished") or 0)
    ended = "none of them had" if not finished else f"{finished} of them had" if finished > 1 else "1 of them had"
    return MESSAGES["search_bars"].format(games=games, turns=horizon, ended=ended)


def _bar(fraction, color: str) -> str:
    try:
        f = min(max(float(fraction), 0.0), 1.0)
    except (TypeError, ValueError):
        f = 0.0
    if f != f:  # NaN
        f = 0.0
    return f'<span class="tokens-bar"><span style="width:{f * 100:.0f}%;background:{color}"></span></span>'


def merge_hidden(df, hidden_texts: set[str]):
    """Rows of an explanation that hide a card (same masked option text) merged into one, so the
    number of rows says nothing about the hand: for a search bot's table, the row with the best
    chance to win (its games and chance: a real option's numbers, which the chosen row's reason
    answers for), the shares added up; for the others, the best score. The chosen row is never
    merged away. (``thinking.explain`` already merges a search bot's table this way; then
    nothing is left to merge.) Returns a new DataFrame (same columns and attrs)."""
    import pandas as pd

    rows, seen = [], {}
    for row in df.to_dict("records"):
        text = row["option"]
        if text in hidden_texts and not row["chosen"] and text in seen:
            into = rows[seen[text]]
            if "win_chance" in into:
                share = (into.get("share") or 0) + (row.get("share") or 0)
                every = (into.get("all_games") or 0) + (row.get("all_games") or 0)
                if (row.get("games") or 0) and ((row["win_chance"], row["games"]) > (into["win_chance"], into["games"])
                                                or not into.get("games")):
                    into.update(row)
                into["share"] = share
                if "all_games" in into:
                    into["all_games"] = every
            else:
                into["score"] = max(into["score"], row["score"])
                if "value" in into:
                    into["value"] = into["score"]
            continue
        if text in hidden_texts and not row["chosen"]:
            seen[text] = len(rows)
        rows.append(dict(row))
    out = pd.DataFrame(rows, columns=df.columns)
    out.attrs.update(df.attrs)
    return out


def _another(df, hidden_texts: set[str]):
    """When the chosen move is itself hidden ("train a card (face-down)"), the other rows with
    the same words read "train another card (face-down)", so the two are told apart."""
    chosen = df[df["chosen"]]
    if not len(chosen) or chosen["option"].iloc[0] not in hidden_texts:
        return df
    same = chosen["option"].iloc[0]
    other = {"train a card (face-down)": "train another card (face-down)",
             "deploy a card from its hand": "deploy another card from its hand",
             "a secret choice": "another secret choice"}.get(same, same)
    df = df.copy()
    df.loc[(~df["chosen"]) & (df["option"] == same), "option"] = other
    return df


def table_html(df, title: str, note: str = "") -> str:
    """An explanation table (:func:`tokens_edu.players.thinking.explain`) as the pane's HTML: one row
    per option with its bars and its reason; the chosen option first and in bold. Every text
    is escaped. Nothing from ``df.attrs`` but the bot's name and the size of its search."""
    measure = df.attrs.get("measure", "score")
    out = [_CSS, f'<div class="tokens-thinking"><div><b>{_esc(title)}</b></div>']
    if note:
        out.append(f'<div style="color:#555">{_esc(note)}</div>')
    if measure == "win_chance" and df.attrs.get("iterations"):
        out.append(f'<div style="color:#555">{_esc(search_intro(df.attrs))}</div>')
    elif measure == "score":
        out.append(f'<div style="color:#555">{_esc(MESSAGES["greedy_bars"])}</div>')
    elif measure == "value":
        out.append(f'<div style="color:#555">{_esc(MESSAGES["learning_bars"])}</div>')
    out.append("<table>")
    top = max([float(s) for s in df["score"] if s == s] + [1e-9]) if len(df) else 1.0
    low = min([float(s) for s in df["score"] if s == s] + [0.0]) if len(df) else 0.0
    for row in df.to_dict("records"):
        chosen = bool(row["chosen"])
        cls = "tokens-thinking-row" + (" tokens-thinking-chosen" if chosen else "")
        mark = "✔ " if chosen else ""
        if measure == "win_chance":
            games = row.get("games") or 0
            main = (_bar(row.get("win_chance"), _BLUE) + f"{_percent(row.get('win_chance'))} chance to win"
                    if games else "not tried")
            every = row.get("all_games")
            extra = _bar(row.get("share"), _GREY) + (
                f"{int(every)} pretend game{'' if int(every) == 1 else 's'}" if every == every and every is not None
                else f"{_percent(row.get('share'))} of its thinking")
        elif measure == "value":
            main = _bar(_spread(row.get("value"), low, top), _BLUE) + _points(row.get("value"))
            extra = _esc(row.get("why") or "")
        else:
            score = float(row["score"]) if row["score"] == row["score"] else 0.0
            main = _bar(score / top if top > 0 else 0, _BLUE) + f"{score:,.0f} points"
            extra = _esc(row.get("rule") or "")
        out.append(f'<tr class="{cls}"><td>{mark}{_esc(screen_words(str(row["option"])))}</td><td class="tokens-thinking-bar">{main}</td>'
                   f'<td class="tokens-thinking-bar">{extra}</td></tr>'
                   f'<tr class="tokens-thinking-reason"><td colspan="3">{_esc(row["reason"])}</td></tr>')
    out.append("</table>")
    other = int(df.attrs.get("other_games") or 0)
    if measure == "win_chance" and other:
        out.append(f'<div style="color:#555">{_esc(MESSAGES["other_games"].format(games=other))}</div>')
    out.append("</div>")
    return "".join(out)


def _kind(text: str) -> str:
    return str(text).split(" ", 1)[0].lower()


def guess_label(action_text: str) -> str:
    """The guess (:data:`GUESSES`) an action's text counts as, e.g. "Audit"."""
    kind = _kind(action_text)
    for label, kinds in GUESSES:
        if kind in kinds:
            return label
    return GUESSES[-1][0]


class ThinkingPane:
    """The "What was the computer thinking?" pane of a :class:`GameView` (made by the view
    when it is built with ``thinking=True``; see the module).

    Args:
        view: the GameView. open: show the pane at once. beside: beside the table on a wide
            screen (:meth:`GameView.add_pane`). predict: ask for a guess before
            each computer move.

    Attributes:
        html: the pane's ``HTML`` (CSS class ``tokens-thinking``).
        tables: the tables shown so far, newest last, as ``(move_text, DataFrame)`` pairs
            (the masked tables the student saw; for notebooks and tests).
        guess: the ``ToggleButtons`` of guesses (None without ``predict``).
        next: with ``predict``, a "Next computer move" button beside the guesses (CSS class
            ``tokens-guess-next``): what the table's button does.
        right, guessed: how many guesses were right, and how many were made.
        seconds: for each computer move, the time from the Next click (or the page's timer)
            to the pane's table being ready (thinking included), in seconds.
    """

    def __init__(self, view, open: bool = True, predict: bool = False, beside: bool = False):
        self.view = view
        self.html = widgets.HTML(value=_CSS + f'<div class="tokens-thinking"><i>{_esc(MESSAGES["waiting"])}</i></div>')
        self.html.add_class("tokens-thinking")
        self.tables: list = []
        self.seconds: list[float] = []
        self.right = self.guessed = 0
        self._before = None  # (player, masked table, full chosen row, started) while a move is made
        children = []
        self.guess = self.next = None
        self.guess_result = widgets.HTML()
        self.guess_result.add_class("tokens-guess-result")
        if predict:
            self.guess = widgets.ToggleButtons(options=[g for g, _ in GUESSES], value=None,
                                               description="", style={"button_width": "auto"},
                                               tooltips=[f"Guess: {g}" for g, _ in GUESSES])
            self.guess.add_class("tokens-guess")
            # "Next computer move" right beside the guesses (the table's own is far above them)
            self.next = widgets.Button(description="Next computer move ▸", button_style="primary",
                                       layout=widgets.Layout(width="auto"))
            self.next.add_class("tokens-guess-next")
            # on the student's own turn the view says so on the table ("It's your move, not the
            # computer's."), as the table's own button would; it did nothing before
            self.next.on_click(lambda _b: view.next_button.click())
            children += [widgets.HTML(f"<b>{_esc(MESSAGES['guess_ask'])}</b>"),
                         widgets.HBox([self.guess, self.next], layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                         self.guess_result]
        self.box = widgets.VBox(children + [self.html])
        view.add_pane("thinking", "What was the computer thinking?", self.box, open=open, beside=beside)
        self._pending = None  # the table's HTML, drawn once the board is drawn
        view.before_computer_move.append(self._before_move)
        view.after_computer_move.append(self._after_move)
        view.on_drawn.append(self._on_drawn)

    # -- hooks of the view -----------------------------------------------------------------
    def _reader(self, mover: int) -> int:
        viewer = self.view.viewer()
        return viewer if viewer is not None else 1 - mover

    def _before_move(self, view) -> None:
        """Ask the bot to explain the decision it is about to make (a SearchBot searches
        here; its choice then reuses this search)."""
        started = time.perf_counter()
        game, match = view.game, view.match
        mover = game.to_act
        bot = match.bots[mover]
        self._before = None
        if bot is None or not callable(getattr(bot, "explain", None)):
            self.html.value = _CSS + f'<div class="tokens-thinking"><i>{_esc(MESSAGES["cannot"])}</i></div>'
            return
        reader = self._reader(mover)
        shown = bot.explain(game, for_player=reader)
        full = bot.explain(game) if reader != mover else shown  # stays here, in the kernel
        hidden = {r for r, f in zip(shown["option"], full["option"]) if r != f}
        shown = merge_hidden(shown, hidden)
        shown = _another(shown, hidden)
        chosen_full = full[full["chosen"]].iloc[0].to_dict() if full["chosen"].any() else None
        if chosen_full is not None:  # its words once the move is public: only what describes the move
            move = next((m for m in game.legal_moves() if str(game.action(m)) == chosen_full["option"]), None)
            if move is not None:
                chosen_full["words"] = describe(game, move)
                chosen_full["masked_words"] = mask(game, move, {"option": "", "reason": chosen_full["words"]})["reason"]
        self._before = (mover, shown, chosen_full, started, reader != mover and bool(hidden))

    def _after_move(self, view, player: int, action) -> None:
        """Draw the table of the move just made (its pick named only when public)."""
        if self._before is None:
            return
        mover, shown, chosen_full, started, secret = self._before
        self._before = None
        text = str(action)
        public = view._mask(action, mover, self._reader(mover))  # the observer's words for the reader
        if chosen_full is not None and chosen_full["option"] == text and public == text:
            idx = shown.index[shown["chosen"]]
            if len(idx):  # the move is on the table now: its name and reason are no secret
                shown = shown.copy()
                shown.loc[idx[0], "option"] = text
                # the masked words of the move give way to the move's own words; the rest of the
                # reason (the search's numbers, why it chose) is the masked table's, which names
                # no hidden card (the full table's reason may name a hidden twin of the move)
                said = str(shown.loc[idx[0], "reason"])
                masked = chosen_full.get("masked_words", "")
                words = chosen_full.get("words", chosen_full["reason"])
                shown.loc[idx[0], "reason"] = words + said[len(masked):] if masked and said.startswith(masked) else words
        title = f"The computer's move: {public}"
        note = MESSAGES["secret"] if secret else ""
        if self.guess is not None:
            self._score_guess(public)  # said in the line under the guesses
        shown = shown.copy()
        shown["option"] = shown["option"].map(lambda o: screen_words(str(o)))  # "new hand", as on the table
        self.tables.append((public, shown))
        self._pending = (table_html(shown, title, note), started)

    def _on_drawn(self, view) -> None:
        """After the board is drawn: the page learns of a card from the table before the pane
        names it."""
        if self._pending is None:
            return
        value, started = self._pending
        self._pending = None
        self.html.value = value
        self.seconds.append(time.perf_counter() - started)

    def _score_guess(self, public_text: str) -> str:
        label = guess_label(public_text)
        picked = self.guess.value
        if picked is None:
            words = f"{MESSAGES['guess_none']} It chose: {label}."
        else:
            self.guessed += 1
            ok = picked == label
            self.right += ok
            words = (f"You guessed: {picked}. It chose: {label}. "
                     f"{MESSAGES['guess_right'] if ok else MESSAGES['guess_wrong']} "
                     f"Right so far: {self.right} of {self.guessed}.")
        self.guess_result.value = f'<span style="color:{_GREEN}">{_esc(words)}</span>'
        view = self.view
        view._quiet = True
        try:
            self.guess.value = None
        finally:
            view._quiet = False
        return words


class HintPane:
    """The Hint pane of a :class:`GameView`: "Show a hint" asks a search bot for the
    student's own move (see the module). Made by the view with ``hints=True`` when
    :func:`hints_allowed` says yes.

    Args:
        view: the GameView. bot: the bot that gives hints (anything with ``explain``);
            None: ``SearchBot(iterations=HINT_ITERATIONS, seed=0)``.

    Attributes:
        button: the "Show a hint" ``Button`` (CSS class ``tokens-hint``).
        out: the ``HTML`` with the hint (``tokens-hint-out``).
        table: the latest hint's table (None before the first). seconds: the time each hint
            took, from the click to the table being ready, in seconds.
    """

    def __init__(self, view, bot=None):
        if bot is None:

            bot = SearchBot(iterations=HINT_ITERATIONS, seed=0)
        self.view, self.bot = view, bot
        self.table = None
        self.seconds: list[float] = []
        self._for = None  # (game id, moves made) of the shown hint
        self._query_checked = False  # the page's ?hints= read (a warm kernel learns it late)
        self.button = widgets.Button(description=MESSAGES["hint_button"], icon="lightbulb-o",
                                     tooltip="What would a search bot do in your place?",
                                     layout=widgets.Layout(width="auto"))
        self.button.add_class("tokens-hint")
        self.button.on_click(view._guard(self._on_hint))
        self.out = widgets.HTML()
        self.out.add_class("tokens-hint-out")
        self.box = widgets.VBox([widgets.HTML(_esc(MESSAGES["hint_intro"])), widgets.HBox([self.button]), self.out])
        view.add_pane("hint", "Hint", self.box)
        view.on_drawn.append(self._on_refresh)

    def _key(self):
        return (id(self.view.game), len(self.view.game.move_stack))

    def _on_refresh(self, view) -> None:
        if not self._query_checked:

            if query_known():  # a warm kernel's page has come: its link may say hints=off
                self._query_checked = True
                if not hints_allowed(True):
                    self._off(hide_pane=True)
                    return
        if self._for is not None and self._for != self._key():
            self._for = None
            self.out.value = f"<i>{_esc(MESSAGES['hint_old'])}</i>"

    def _off(self, hide_pane: bool) -> None:
        """The teacher turned hints off (the page's link): no hint, no button."""
        self.table = None
        self.out.value = f"<i>{_esc(MESSAGES['hints_off'])}</i>"
        self.button.layout.display = "none"
        if hide_pane:  # not asked for yet: the Hint pane and its toggle go away
            self.view._set_pane("hint", False)
            self.view.pane_buttons["hint"].layout.display = "none"

    def _on_hint(self, _button=None) -> None:
        """Work out and show the hint for the student's decision now."""
        view = self.view
        started = time.perf_counter()
        try:

            query = query_string()  # the page is open (it sent this click): its query is there
        except Exception:  # noqa: BLE001 (no page: a notebook)
            query = ""
        if not hints_allowed(True, query=query):
            self._off(hide_pane=False)
            return
        if view.game.over:
            self.out.value = f"<i>{_esc(MESSAGES['hint_over'])}</i>"
            return
        if view.match.covered():
            self.out.value = f"<i>{_esc(MESSAGES['hint_covered'])}</i>"
            return
        if not view.match.viewer_to_act():
            self.out.value = f"<i>{_esc(MESSAGES['hint_not_yours'])}</i>"
            return
        me = view.game.to_act
        df = self.bot.explain(view.game, for_player=me)
        self.table = df
        pick = screen_words(str(df[df["chosen"]]["option"].iloc[0])) if df["chosen"].any() else ""
        self.out.value = table_html(df, f"A search bot would pick: {pick}",
                                    "It is only a hint: you decide!")
        self._for = self._key()
        self.seconds.append(time.perf_counter() - started)
