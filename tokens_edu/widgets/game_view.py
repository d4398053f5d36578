"""GameView: an ipywidgets view of a live :class:`~tokens_edu.Game`, for notebooks and Voila lessons.

A student plays a real game in it: against the computer (a bot in one seat, one move per click of
"Next (computer's move)") or against a classmate on one screen ("hot seat", with a cover that
hides the hand while the screen is passed). The view only calls the engine's public surface
(``legal_actions``, ``apply``, ``explain``, ``undo``, ``tables``, ``to_record``,
``Game.from_record``); it holds no rules.

Hidden information never reaches the browser: the view builds its widgets only from
``game.tables(viewer)`` (the viewer's own hand, counts for everything else) and from the viewer's
own legal actions, so the opponent's hand and both decks' order are absent from every widget's
state, not merely hidden by styling. The log's "X chooses <card>" lines (a card taken from a
look at the deck, R22) are masked for the other player, and so are their Train moves in the
move list. In hot seat, a player's buttons are closed when the screen is passed.

Speed: action buttons are made once per action text and then shown or hidden by CSS class
(``tokens-action`` when offered, ``tokens-hidden`` when not), since making widget views is
what makes a click slow in the browser.

Stable CSS classes for tests and teachers' stylesheets: ``tokens-game`` (the whole view),
``tokens-status``, ``tokens-board``, ``tokens-tokens``, ``tokens-message``, ``tokens-action``
(every action button; its description and tooltip hold the action text), ``tokens-next`` (the
bot's move), ``tokens-undo``, ``tokens-reveal`` (hot seat: show my cards), ``tokens-explain``,
``tokens-log``, ``tokens-tables``, ``tokens-replay``, ``tokens-discuss-area``, ``tokens-hand``,
``tokens-card-pick`` (Read a card), ``tokens-tick`` (hidden: counts finished callbacks, so a
browser test can wait for a click's redraw), ``tokens-start`` (NewGamePanel),
``tokens-explain-box`` (Why can't I?, always shown), ``tokens-pane-toggle`` and
``tokens-toggle-tables`` / ``-read`` / ``-replay`` (the buttons that show or hide the State
tables, Read a card, and Moves and replay: buttons, so the keyboard reaches them with Tab),
``tokens-step`` with ``tokens-move-count``, ``tokens-card-facts`` (a board card's Tokens and
keywords), ``tokens-stale`` (the calm note for a click on a button no longer offered),
``tokens-page-note`` (NewGamePanel: the game lives only in this page).

Student-facing text carries no rule numbers ("(R8)"): those are for teachers and tests.

Example::

    from tokens_edu import Game
    from tokens_edu.widgets import GameView
    view = GameView(Game.from_scenario("scenarios/03-audit.yaml"), seats=("human", "greedy"))
    view                       # shows itself in a notebook
    view.buttons["task Neural Network"].click()
"""

from __future__ import annotations

import functools
import html
import logging
import re
from collections.abc import Callable, Sequence

import ipywidgets as widgets

__all__ = ["GameView", "NewGamePanel", "WIN_TOKENS"]

log = logging.getLogger(__name__)

#: Tokens needed to win (R25); the progress bars run from 0 to this.
WIN_TOKENS = 15
#: The Log tab shows this many of the newest events (a whole game has hundreds).
LOG_TABLE_ROWS = 40

#: Action kinds in the order their groups are shown, with the group's heading.
GROUPS = (
    ("order", "Get ready"),
    ("keep", "Get ready"),
    ("mulligan", "Get ready"),
    ("choose", "Choose"),
    ("train", "Train"),
    ("deploy", "Deploy"),
    ("task", "Run a Task"),
    ("audit", "Run an Audit"),
    ("use", "Use a Tool"),
    ("end", "End turn"),
)

#: A short hint per action kind, used in each button's tooltip (with the action text).
#: Students see these, so no rule numbers here (the rules R2, R3, R7-R10, R13, R14, R17, R23).
HINTS = {
    "order": "Decide who takes the first turn.",
    "keep": "Keep this opening hand.",
    "mulligan": "Shuffle this hand away and draw a new one of the same size, once.",
    "choose": "Make this choice for the card in play.",
    "train": "Put this card face-down in your Training Set. Once per turn.",
    "deploy": "Pay Data and put this card into play.",
    "task": "Turn this System sideways and score its Tokens.",
    "audit": "Both Systems put Flags on each other, equal to their CAP.",
    "use": "Use this Tool's ability.",
    "end": "Finish your turn. Your opponent goes next.",
}

# Buttons not offered now carry this class instead of tokens-action (see _draw_actions).
_CSS = ("<style>.tokens-game .tokens-hidden { display: none !important; }"
        " .tokens-game .widget-html-content { line-height: 1.35; }"
        " .tokens-game table.tokens-table { border-collapse: collapse; }"
        " .tokens-game table.tokens-table th, .tokens-game table.tokens-table td"
        " { text-align: left !important; padding: 2px 8px; vertical-align: top; }</style>")

#: Button colors per action kind (ipywidgets button styles).
_STYLES = {"task": "success", "deploy": "success", "audit": "danger", "end": "warning"}

_FRIENDLY_ERROR = (
    "Oops, something went wrong with that click. Nothing was lost: the game is as it was. "
    "Try again, or ask your teacher."
)
_MAX_NAME = 30
#: Shown near Start and under the board: the game is not saved anywhere.
PAGE_ONLY_NOTE = ("This game lives only in this page. If you reload or close the page, "
                  "the game starts over.")
# A rule number like "(R2)" or "(R9, R10)": for teachers and tests, never shown to students.
_RULE_REF = re.compile(r"\s*\((?:R\d+(?:\s*[-–,]\s*R?\d+)*)\)")
# Choices that say nothing about hidden cards; any other "choose ..." by the opponent is masked.
_PUBLIC_CHOICE = re.compile(r"^choose (yes|no|top|bottom|mode [ab]|\d+ flags?)$", re.IGNORECASE)
# The same, in a log line "Bo chooses Chatbot." (the engine's log is the same for both players).


def _esc(value: object) -> str:
    """``value`` as text, HTML-escaped (quotes too): every text that may come from a student."""
    return html.escape("" if value is None else str(value), quote=True)


def _plain(text: object) -> str:
    """``text`` without rule numbers such as "(R8)" (students read the plain words only)."""
    return _RULE_REF.sub("", "" if text is None else str(text))


def _short(name: object, limit: int = _MAX_NAME) -> str:
    """A name cut to ``limit`` characters (long names break the layout), never empty."""
    text = " ".join(str(name if name is not None else "").split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text or "?"


def _make_bot(seat: object, seat_index: int):
    """The bot object for a seat entry, or None for a human seat.

    Args:
        seat: ``"human"`` (or None), ``"greedy"``, ``"random"``, or an object with
            ``choose(game) -> Action`` (e.g. ``GreedyBot()``, ``RandomBot(seed)``).
        seat_index: 0 or 1, used for the random bot's seed and in error messages.

    Raises:
        ValueError: the entry is none of these, in plain words.
    """
    if seat is None or (isinstance(seat, str) and seat.strip().lower() in ("human", "person", "student")):
        return None
    if isinstance(seat, str):
        key = seat.strip().lower()
        from .. import bots  # the engine's bots; imported only when a seat needs one

        if key in ("greedy", "greedybot", "computer"):
            return bots.GreedyBot()
        if key in ("random", "randombot"):
            return bots.RandomBot(seed=seat_index)
        raise ValueError(
            f"Seat {seat_index + 1} is {seat!r}. A seat is 'human', 'greedy', 'random' or a bot "
            "such as GreedyBot()."
        )
    if callable(getattr(seat, "choose", None)):
        return seat
    raise ValueError(
        f"Seat {seat_index + 1} is a {type(seat).__name__}. A seat is 'human', 'greedy', 'random' "
        "or a bot with a choose(game) method."
    )


def _rows(df) -> list[dict]:
    """A DataFrame's rows as plain dicts (empty list for None or an empty table)."""
    if df is None or len(df) == 0:
        return []
    return df.to_dict("records")


def _int(value, default: int = 0) -> int:
    """``value`` as an int; ``default`` for None, NaN or text that is not a number."""
    try:
        if value is None or value != value:  # NaN
            return default
        return int(value)
    except (TypeError, ValueError):
        return default


def _truthy(value) -> bool:
    """A table cell (bool, numpy bool, None or NaN) as a plain bool; NaN and None are False."""
    try:
        if value is None or value != value:
            return False
    except (TypeError, ValueError):
        return False
    return bool(value)


def _board_from_tables(tables: dict, viewer: int | None, game) -> str:
    """The board as HTML: both players' Systems and Tools, Flags, Data, hand/deck/discard counts.

    Built only from ``tables`` (``game.tables(viewer)``: public facts and counts), so it shows
    nothing the viewer may not see; ``game`` gives only names, whose turn, and whether it is
    over. The viewer's side is drawn at the bottom, like sitting at a table; every name is
    escaped. Returns an HTML fragment (str).
    """
    players = {_int(r.get("Player")): r for r in _rows(tables.get("players"))}
    board = _rows(tables.get("board"))
    names = list(getattr(game, "names", ("Player 1", "Player 2")))
    bottom = viewer if viewer in (0, 1) else 0
    parts = ['<div class="tokens-board-inner" style="font-family:sans-serif;line-height:1.35">']
    for p in (1 - bottom, bottom):
        row = players.get(p, {})
        name = _short(row.get("Name", names[p] if p < len(names) else f"Player {p + 1}"))
        you = " (you)" if viewer is not None and p == viewer else ""
        active = " ▶ playing now" if p == getattr(game, "to_act", None) and not game.over else ""
        ready = _int(row.get("Data ready"))
        total = _int(row.get("Training Set"))
        parts.append(
            '<div class="tokens-side" style="border:1px solid #bbb;border-radius:8px;'
            'padding:6px;margin:4px 0">'
            f'<b>{_esc(name)}{_esc(you)}</b><span style="color:#a60">{_esc(active)}</span><br>'
            f'<span class="tokens-counts">Tokens {_int(row.get("Tokens"))} of {WIN_TOKENS} · '
            f"Data {ready} ready of {total} · Hand {_int(row.get('Hand'))} · "
            f"Deck {_int(row.get('Deck'))} · Discard {_int(row.get('Discard'))}</span><br>"
        )
        mine = [r for r in board if _int(r.get("Owner"), -1) == p]
        if not mine:
            parts.append('<i style="color:#777">No Systems or Tools in play.</i>')
        for r in mine:
            parts.append(_card_box(r))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def _printed(card_label: object):
    """The printed card for a board label ("Neuron #2" -> Neuron), or None if unknown.

    Only printed facts (Tokens, keywords, Legacy) are read: public, like the card itself.
    """
    try:
        from ..cards import load_cards

        return load_cards()[re.sub(r"\s*#\d+$", "", str(card_label))]
    except Exception:  # noqa: BLE001 (a missing fact must never break the board)
        log.debug("No printed card for %r", card_label, exc_info=True)
        return None


def _card_facts(r: dict, is_system: bool) -> str:
    """A System's Tokens per Task and keywords ("2 Tokens · Highly Trusted"); a Tool's Legacy."""
    card = _printed(r.get("Card"))
    if card is None:
        return ""
    facts = []
    if is_system:
        tokens = _int(getattr(card, "tokens", 0))
        facts.append(f"{tokens} Token{'s' if tokens != 1 else ''}")
    facts += [str(k) for k in (getattr(card, "keywords", ()) or ())]
    if getattr(card, "legacy", False):
        facts.append("Legacy")
    return " · ".join(facts)


def _card_box(r: dict) -> str:
    """One System or Tool on the board as a small box: upright (tall) or sideways (wide)."""
    sideways = _truthy(r.get("Sideways"))
    is_system = str(r.get("Type", "")) == "System"
    w, h = ("150px", "92px") if sideways else ("112px", "130px")
    lines = [f"<b>{_esc(r.get('Card'))}</b>", _esc(r.get("Type", ""))]
    facts = _card_facts(r, is_system)
    if facts:
        lines.append(f'<span class="tokens-card-facts">{_esc(facts)}</span>')
    if is_system:
        flags = _int(r.get("Flags"))
        lines.append(f"CAP {_int(r.get('CAP'))} · TRU {_int(r.get('TRU'))}")
        counters = "●" * min(flags, 10)
        lines.append(f'Flags {flags} <span style="color:#c00">{counters}</span>')
        if sideways:
            state = "sideways"
        elif _truthy(r.get("New")) and not _truthy(r.get("Can act")):
            state = "upright, new (waits a turn)"
        elif _truthy(r.get("Can act")):
            state = "upright, can act"
        else:
            state = "upright"
        if _truthy(r.get("Can't Task")):
            state += ", can't Run a Task"
        if _truthy(r.get("Abilities lost")):
            state += ", abilities lost"
    else:
        state = "sideways (used)" if sideways else "upright"
    lines.append(f"<i>{_esc(state)}</i>")
    return (
        f'<div class="tokens-card{" tokens-sideways" if sideways else ""}" '
        f'style="display:inline-block;vertical-align:top;width:{w};min-height:{h};margin:3px;'
        f'padding:4px;border:2px solid {"#888" if sideways else "#333"};border-radius:6px;'
        f'background:{"#eee" if sideways else "#fff"};font-size:12px">' + "<br>".join(lines) + "</div>"
    )


def _table_html(df, empty: str, names: Sequence[str] = ()) -> str:
    """A DataFrame as escaped HTML (``to_html(escape=True)``), or a plain sentence if empty.

    With ``names``, the player numbers in a "Player" or "Owner" column become names (the
    Players table, which has a Name column already, drops its numbers).
    """
    if df is None or len(df) == 0:
        return f"<i>{_esc(empty)}</i>"
    if names:
        df = df.copy()
        if "Player" in df.columns and "Name" in df.columns:
            df = df.drop(columns=["Player"])
        for col in ("Player", "Owner"):
            if col in df.columns:
                df[col] = [names[i] if isinstance(i, int) and 0 <= i < len(names) else v
                           for i, v in ((_int(x, -1), x) for x in df[col])]
    return df.to_html(escape=True, index=False, border=0, classes="tokens-table", justify="left")


class GameView(widgets.VBox):
    """An ipywidgets view of a live Game: board, Tokens, hand, the legal actions as buttons.

    Args:
        game: a :class:`~tokens_edu.Game` (from ``Game.new`` or ``Game.from_scenario``). The view
            changes it only through ``apply`` and ``undo``.
        seats: a pair, one entry per player: ``"human"``, ``"greedy"``, ``"random"`` or a bot
            object with ``choose(game) -> Action`` (``GreedyBot()``, ``RandomBot(seed)``). Two
            humans is "hot seat": one screen, the hand covered while the screen is passed.
        allow_undo: show the Undo button (teachers can turn it off).
        journal: a :class:`~tokens_edu.journal.Journal`; when given, each card deployed in the
            game offers its Discuss question in a ``DiscussBox`` saved to it.
        lesson: a short title shown above the board (escaped).

    Attributes (for tests and teachers):
        game: the Game shown.
        buttons: dict, action text -> the Button offered now for it (empty when it is not a
            human's decision).
        message: the HTML widget with the latest friendly message (``tokens-message``).
        status: the HTML widget saying whose turn it is or who won (``tokens-status``).
        next_button: "Next (computer's move)" (``tokens-next``); shown only when a bot is to act.
        undo_button: Undo (``tokens-undo``); hidden when ``allow_undo`` is False.
        reveal_button: hot seat only: "Show my cards" for the player the screen was passed to.

    Raises:
        ValueError: ``seats`` is not a pair of seat entries (plain message).
        TypeError: ``game`` does not look like a Game.

    Rules: the view offers exactly ``game.legal_actions()`` (R7-R23 live in the engine); Tokens
    run to 15 (R25); hidden cards follow ``game.tables(player)``.
    """

    def __init__(self, game, seats: Sequence = ("human", "human"), allow_undo: bool = True,
                 journal=None, lesson: str = ""):
        if not all(hasattr(game, a) for a in ("legal_actions", "apply", "tables")):
            raise TypeError("GameView needs a Game, e.g. Game.new(...) or Game.from_scenario(...).")
        if isinstance(seats, str) or len(seats) != 2:
            raise ValueError("seats must be a pair, e.g. ('human', 'greedy').")
        super().__init__()
        self.add_class("tokens-game")
        self.game = game
        self.bots = [_make_bot(s, i) for i, s in enumerate(seats)]
        self.humans = [i for i in (0, 1) if self.bots[i] is None]
        self.allow_undo = bool(allow_undo)
        self.journal = journal
        self.lesson = lesson or ""
        self.buttons: dict[str, widgets.Button] = {}
        self._button_cache: dict[str, widgets.Button] = {}
        # Who made each action in the game's record so far (player index per action text).
        self._movers: list[int] = self._replay_movers()
        self._revealed_for: int | None = None  # hot seat: whose cards are showing now
        self._deployed: list[str] = []  # card names deployed while this view was open
        self._discuss_boxes: dict[str, widgets.Widget] = {}
        self._quiet = False
        self._replay_step = 0
        self._replay_game = None
        self._shown_log = 0
        self._build()
        self._shown_log = len(self._log_texts())
        self._refresh()

    # -- seats ------------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        """True when both seats are human (one screen, the hand covered between turns)."""
        return len(self.humans) == 2

    def viewer(self) -> int | None:
        """The player whose eyes the screen is for now: 0, 1, or None (nobody's hand shown).

        With one human seat, always that human. In hot seat, the player to act once they
        have clicked "Show my cards", else None (the cover is up). With two bots, None.
        """
        if len(self.humans) == 1:
            return self.humans[0]
        if self.hot_seat:
            if self.game.over:
                return self._revealed_for
            return self._revealed_for if self._revealed_for == self.game.to_act else None
        return None

    def _name(self, player: int) -> str:
        names = getattr(self.game, "names", None) or ("Player 1", "Player 2")
        return _short(names[player])

    def _bot_to_act(self) -> bool:
        return not self.game.over and self.bots[self.game.to_act] is not None

    # -- building ---------------------------------------------------------------------------
    def _build(self) -> None:
        self.title = widgets.HTML(_CSS + (f"<h3>{_esc(self.lesson)}</h3>" if self.lesson else ""))
        self.status = widgets.HTML()
        self.status.add_class("tokens-status")
        self.step = widgets.HTML()
        self.step.add_class("tokens-step")
        self.message = widgets.HTML()
        self.message.add_class("tokens-message")
        # Counts finished callbacks: a browser test waits for it to change after a click.
        self._ticks = 0
        self.tick = widgets.HTML("0", layout=widgets.Layout(display="none"))
        self.tick.add_class("tokens-tick")

        self.token_bars = []
        for p in (0, 1):
            bar = widgets.IntProgress(value=0, min=0, max=WIN_TOKENS, description=self._name(p),
                                      layout=widgets.Layout(width="45%"),
                                      style={"description_width": "initial"})
            bar.add_class("tokens-tokens-bar")
            self.token_bars.append(bar)
        self.tokens_box = widgets.HBox(self.token_bars)
        self.tokens_box.add_class("tokens-tokens")

        self.board = widgets.HTML()
        self.board.add_class("tokens-board")
        self.hand = widgets.HTML()
        self.hand.add_class("tokens-hand")

        self.next_button = widgets.Button(
            description="Next (computer's move)", tooltip="Let the computer make its next move, one at a time.",
            button_style="info", icon="step-forward", layout=widgets.Layout(width="auto"))
        self.next_button.add_class("tokens-next")
        self.next_button.on_click(self._guard(self._on_next))
        self.undo_button = widgets.Button(
            description="Undo", tooltip="Take back your last move (and the computer's moves after it).",
            icon="undo")
        self.undo_button.add_class("tokens-undo")
        self.undo_button.on_click(self._guard(self._on_undo))
        if not self.allow_undo:
            self.undo_button.layout.display = "none"
        self.reveal_button = widgets.Button(description="Show my cards", tooltip="Show my cards",
                                            button_style="warning", layout=widgets.Layout(width="auto"))
        self.reveal_button.add_class("tokens-reveal")
        self.reveal_button.on_click(self._guard(self._on_reveal))
        self.cover = widgets.HTML()
        self.cover.add_class("tokens-cover")
        self.cover_box = widgets.VBox([self.cover, self.reveal_button])

        # One row per group, made once; a redraw only changes which buttons each row holds.
        self._button_layout = widgets.Layout(width="auto")  # shared: fewer widgets to send
        self._button_style = widgets.ButtonStyle()
        self._group_labels: dict[str, widgets.HTML] = {}
        self._group_boxes: dict[str, widgets.HBox] = {}
        self._group_rows: dict[str, widgets.HBox] = {}
        label_layout = widgets.Layout(min_width="150px")
        for heading in dict.fromkeys(h for _, h in GROUPS):
            label = widgets.HTML(f"<b>{_esc(heading)}</b>", layout=label_layout)
            inner = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
            row = widgets.HBox([label, inner], layout=widgets.Layout(display="none"))
            row.add_class(f"tokens-group-{heading.split()[-1].lower()}")
            self._group_labels[heading], self._group_boxes[heading], self._group_rows[heading] = label, inner, row
        self.actions_box = widgets.VBox(list(self._group_rows.values()))
        self.actions_box.add_class("tokens-actions")

        self.explain_text = widgets.Text(placeholder="e.g. task Neural Network",
                                         description="Move:", continuous_update=False,
                                         style={"description_width": "initial"})
        self.explain_text.add_class("tokens-explain-text")
        self.explain_button = widgets.Button(description="Explain", tooltip="Explain whether this move is allowed now")
        self.explain_button.add_class("tokens-explain")
        self.explain_button.on_click(self._guard(self._on_explain))
        # Enter in the box explains too (keyboard use); the box sends its value on Enter or blur.
        self.explain_text.observe(self._guard(lambda change: self._on_explain()), names="value")
        self.explain_out = widgets.HTML()
        self.explain_out.add_class("tokens-explain-answer")
        # Always on screen (not folded away): the box and its button are reached with Tab.
        self.explain_box = widgets.VBox([
            widgets.HTML("<b>Why can't I?</b> Type a move, then click Explain."),
            widgets.HBox([self.explain_text, self.explain_button]),
            self.explain_out,
        ])
        self.explain_box.add_class("tokens-explain-box")

        self.log_html = widgets.HTML()
        self.log_html.add_class("tokens-log")

        self.table_widgets = {k: widgets.HTML() for k in ("players", "board", "hand", "log")}
        self.tables_tab = widgets.Tab(children=list(self.table_widgets.values()),
                                      titles=["Players", "Board", "My hand", "Log"])
        self.tables_tab.add_class("tokens-tables")

        # Replay: step through a copy rebuilt with Game.from_record.
        self.moves_html = widgets.HTML()
        self.moves_html.add_class("tokens-moves")
        self.replay_start = widgets.Button(description="From the start", tooltip="Replay: go back to the start",
                                           icon="fast-backward")
        self.replay_back = widgets.Button(description="Back", tooltip="Replay: one move back", icon="step-backward")
        self.replay_fwd = widgets.Button(description="Forward", tooltip="Replay: one move forward", icon="step-forward")
        self.replay_end = widgets.Button(description="To now", tooltip="Replay: jump to the game as it is now",
                                         icon="fast-forward")
        for b, delta in ((self.replay_start, "start"), (self.replay_back, -1),
                         (self.replay_fwd, 1), (self.replay_end, "end")):
            b.add_class("tokens-replay-button")
            b.on_click(self._guard(functools.partial(self._on_replay, delta)))
        self.replay_label = widgets.HTML()
        self.replay_board = widgets.HTML()
        self.replay_board.add_class("tokens-replay-board")
        self.replay_box = widgets.VBox([
            self.moves_html,
            widgets.HBox([self.replay_start, self.replay_back, self.replay_fwd, self.replay_end]),
            self.replay_label, self.replay_board,
        ])
        self.replay_box.add_class("tokens-replay")
        # Read a card: any card the viewer may see now (their hand, the board), drawn in full.
        self.card_pick = widgets.Dropdown(description="Card", options=[], value=None,
                                          style={"description_width": "initial"})
        self.card_pick.add_class("tokens-card-pick")
        self.card_pick.observe(self._guard(self._on_card_pick), names="value")
        self.card_html = widgets.HTML()
        self.card_html.add_class("tokens-card-view")
        read_box = widgets.VBox([widgets.HTML("Pick a card from your hand or the board to read it."),
                                 self.card_pick, self.card_html])
        # Show/hide buttons instead of an Accordion: Accordion headers are not reached with Tab
        # in Voila, buttons are. Each button opens or closes its own pane.
        self.panes = {"tables": self.tables_tab, "read": read_box, "replay": self.replay_box}
        self.pane_titles = {"tables": "State tables", "read": "Read a card", "replay": "Moves and replay"}
        self.pane_buttons: dict[str, widgets.Button] = {}
        for key, pane in self.panes.items():
            pane.add_class(f"tokens-pane-{key}")
            button = widgets.Button(layout=widgets.Layout(width="auto"))
            button.add_class("tokens-pane-toggle")
            button.add_class(f"tokens-toggle-{key}")
            button.on_click(self._guard(functools.partial(self._on_toggle_pane, key)))
            self.pane_buttons[key] = button
            self._set_pane(key, key == "tables")  # the State tables start open
        self.more = widgets.VBox([widgets.HBox(list(self.pane_buttons.values())), *self.panes.values()])
        self.more.add_class("tokens-more")

        self.discuss_pick = widgets.Dropdown(description="Card", options=[], style={"description_width": "initial"})
        self.discuss_pick.observe(self._guard(self._on_discuss_pick), names="value")
        self.discuss_slot = widgets.VBox()
        discuss_intro = "<b>Discuss</b>: a card was deployed. Read its question and write what you think."
        if self.hot_seat:  # one screen, two students: each saves under their own name
            discuss_intro += (" <b>Take turns:</b> type <b>your own name</b> in the name box,"
                              " then write your answer and click Save.")
        self.discuss_area = widgets.VBox([
            widgets.HTML(discuss_intro),
            self.discuss_pick, self.discuss_slot,
        ])
        self.discuss_area.add_class("tokens-discuss-area")
        self.discuss_area.layout.display = "none"

        controls = widgets.HBox([self.next_button, self.undo_button])
        self.children = [self.title, self.status, self.step, self.tokens_box, self.board, self.cover_box,
                         self.hand, self.actions_box, controls, self.message, self.log_html,
                         self.explain_box, self.discuss_area, self.more, self.tick]

    def _set_pane(self, key: str, show: bool) -> None:
        """Open or close one pane (State tables, Read a card, Moves and replay)."""
        self.panes[key].layout.display = None if show else "none"
        title = self.pane_titles[key]
        button = self.pane_buttons[key]
        button.description = f"{'▾' if show else '▸'} {title}"  # ▾ open, ▸ closed
        button.tooltip = f"{'Hide' if show else 'Show'} {title}"
        button.button_style = "info" if show else ""

    def pane_open(self, key: str) -> bool:
        """True when the pane ``key`` ("tables", "read" or "replay") is shown."""
        return self.panes[key].layout.display != "none"

    # -- callbacks: every one catches its own errors ----------------------------------------
    def _guard(self, fn: Callable) -> Callable:
        """Wrap a callback: errors become a friendly message in the view and a log entry.

        An :class:`~tokens_edu.IllegalAction` (or other ``ValueError`` from the package)
        shows its own plain message; anything else shows a general "nothing was lost" message
        and the traceback goes to the ``logging`` log (Voila shows no tracebacks).
        """
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ValueError as exc:  # IllegalAction, ScenarioError, RecordError are ValueErrors
                log.info("GameView: refused: %s", exc)
                self._say(str(exc), kind="error")
            except Exception:  # noqa: BLE001 (a click must never fail silently)
                log.exception("GameView callback %s failed", getattr(fn, "__name__", fn))
                self._say(_FRIENDLY_ERROR, kind="error")
            finally:
                self._ticks += 1
                self.tick.value = str(self._ticks)
            return None

        return wrapped

    def _say(self, text: str, kind: str = "info") -> None:
        """Show ``text`` (escaped, rule numbers left out) in the message area; ``kind`` is
        "info" or "error"."""
        color = "#b00020" if kind == "error" else "#1a5e20"
        icon = "⚠ " if kind == "error" else ""
        self.message.value = f'<div style="color:{color};padding:4px 0">{icon}{_esc(_plain(text))}</div>'

    def _on_toggle_pane(self, key: str, _button=None) -> None:
        """A Show/Hide button: open or close its pane."""
        self._set_pane(key, not self.pane_open(key))

    def _on_action(self, text: str, _button=None) -> None:
        """A human clicked an action button: apply it (if still legal) and redraw."""
        if self.game.over:
            self._say("The game is over. Start a new game to play again.")
            return
        if text not in self.buttons:
            # A button that is no longer offered: a double click, or a click sent just before the
            # redraw. Nothing is changed, and it is not an error: a calm note under the message.
            log.info("GameView: ignored a click on %r (no longer offered)", text)
            history = list(self.game.history)
            if history and str(history[-1]) == text:
                note = "That move was already made."
            else:
                note = f"'{text}' is not offered any more. " + _plain(self.game.explain(text))
            stale = f'<div class="tokens-stale" style="color:#555">{_esc(note)}</div>'
            if stale not in self.message.value:
                self.message.value += stale
            return
        if self._bot_to_act():
            self._say("It's the computer's move: click Next.")
            return
        if self.viewer() != self.game.to_act:
            self._say("It's not your move yet.", kind="error")
            return
        legal = {str(a): a for a in self.game.legal_actions()}
        if text not in legal:
            self._say(f"You can't do '{text}' right now. " + self.game.explain(text), kind="error")
            self._refresh()
            return
        self._apply(legal[text])

    def _apply(self, action) -> None:
        """Apply one action (an Action from ``legal_actions`` or a bot), then redraw."""
        player = self.game.to_act
        self.game.apply(action)
        self._movers.append(player)
        self._refresh(announce=True)
        if getattr(action, "kind", None) == "deploy" and getattr(action, "card", None):
            try:  # the move is made and shown; a Discuss problem must not hide that
                self._note_deployed(action.card)
            except Exception:  # noqa: BLE001
                log.exception("GameView: could not offer the Discuss box for %s", action.card)
                self.message.value += ('<div style="color:#b00020">⚠ Your move was made, but the Discuss '
                                       f"question for {_esc(action.card)} can't be shown right now.</div>")

    def _on_next(self, _button=None) -> None:
        """Next (computer's move): the bot to act makes exactly one move."""
        if self.game.over:
            self._say("The game is over.")
            return
        if not self._bot_to_act():
            self._say("It's your move, not the computer's.")
            return
        bot = self.bots[self.game.to_act]
        action = bot.choose(self.game)
        self._apply(action)

    def _undo_count(self) -> int:
        """How many actions Undo takes back now; 0 when there is nothing to undo.

        The human seeing the screen takes back their own last decision and every bot move
        after it; never a move another human made (in hot seat you can't undo your
        opponent's move).
        """
        me = self.viewer()
        if me is None or not self.allow_undo:
            return 0
        count = 0
        for mover in reversed(self._movers):
            count += 1
            if mover == me:
                return count
            if self.bots[mover] is None:  # another human's move
                return 0
        return 0

    def _on_undo(self, _button=None) -> None:
        """Undo: take back the viewer's last decision and the bot moves after it."""
        if not self.allow_undo:
            self._say("Undo is turned off for this game.")
            return
        n = self._undo_count()
        if n == 0:
            self._say("There is no move of yours to take back.")
            return
        for _ in range(n):
            self.game.undo()
            self._movers.pop()
        self._replay_game = None
        self._shown_log = len(self._log_texts())
        self._refresh()
        self._say(f"Took back {n} move{'s' if n != 1 else ''}. Your turn again.")

    def _on_reveal(self, _button=None) -> None:
        """Hot seat: the player the screen was passed to shows their cards."""
        if not self.hot_seat or self.game.over:
            return
        self._revealed_for = self.game.to_act
        self._refresh()
        self._say(f"{self._name(self.game.to_act)}, these are your cards.")

    def _on_explain(self, _button=None) -> None:
        """"Why can't I?": explain the typed move for the player to act."""
        text = (self.explain_text.value or "").strip()[:200]
        if not text:
            self.explain_out.value = "<i>Type a move first, for example: task Neural Network</i>"
            return
        if self.game.over:
            answer = "The game is over, so no move can be made."
        elif self._bot_to_act():
            answer = "It's the computer's move now. Ask again on your turn."
        elif self.viewer() is None:
            answer = "Show your cards first (the button above), then ask."
        else:
            answer = self.game.explain(text)
        self.explain_out.value = f"<b>{_esc(text)}</b>: {_esc(_plain(answer))}"

    def _on_replay(self, delta, _button=None) -> None:
        """Replay controls: move the replay to the start, one step, or to now."""
        total = len(self._movers)
        if delta == "start":
            step = 0
        elif delta == "end":
            step = total
        else:
            step = min(max(self._replay_step + int(delta), 0), total)
        self._replay_to(step)

    def _replay_to(self, step: int) -> None:
        """Show the game as it was after ``step`` actions, on a copy rebuilt from its record."""
        from ..game import Game

        record = self.game.to_record()
        actions = list(record.get("actions", []))
        step = min(max(step, 0), len(actions))
        if self._replay_game is not None and step == self._replay_step + 1:
            self._replay_game.apply(actions[step - 1])  # one step forward: no rebuild needed
        else:
            self._replay_game = Game.from_record(dict(record, actions=actions[:step]))
        self._replay_step = step
        g = self._replay_game
        viewer = self.viewer()
        self.replay_board.value = _board_from_tables(g.tables(viewer if viewer is not None else 0), viewer, g)
        self.replay_label.value = (f"<b>Replay: after move {step} of {len(actions)}</b> "
                                   f"(turn {_int(getattr(g, 'turn', 0))}). The real game is not changed.")

    def _on_discuss_pick(self, change) -> None:
        """The Discuss dropdown changed: show that card's DiscussBox (answers are kept)."""
        name = change.get("new") if isinstance(change, dict) else None
        if name and not self._quiet:
            self._show_discuss(name)

    # -- Discuss ----------------------------------------------------------------------------
    def _note_deployed(self, card_name: str) -> None:
        """Remember a deployed card and, with a journal, offer its Discuss question."""
        name = re.sub(r"\s*#\d+$", "", str(card_name))
        if name in self._deployed:
            self._deployed.remove(name)
        self._deployed.append(name)
        if self.journal is None:
            return
        self.discuss_area.layout.display = None
        self._quiet = True  # setting the dropdown here must not run its observer too
        try:
            self.discuss_pick.options = list(reversed(self._deployed))
            self.discuss_pick.value = name  # the latest deployed card
        finally:
            self._quiet = False
        self._show_discuss(name)

    def _show_discuss(self, name: str) -> None:
        """Put ``name``'s DiscussBox in the Discuss area, making it once per card."""
        if self.journal is None:
            return
        box = self._discuss_boxes.get(name)
        if box is None:
            from ..cards import load_cards
            from .discuss import DiscussBox

            box = DiscussBox(load_cards()[name], self.journal)
            self._discuss_boxes[name] = box
        if tuple(self.discuss_slot.children) != (box,):
            self.discuss_slot.children = [box]

    # -- redraw -----------------------------------------------------------------------------
    def _log_texts(self, tables: dict | None = None) -> list[str]:
        """The commentary lines the viewer may read (from the ``log`` table)."""
        v = self.viewer()
        if tables is None:
            tables = self.game.tables(v if v is not None else 0)
        df = tables.get("log")  # the engine's log never names a card only one player saw
        if df is None or len(df) == 0:
            return []
        return [str(t) for t in df["Text"].tolist()]

    def _status_text(self, viewer: int | None) -> str:
        g = self.game
        if g.over:
            if g.winner is None:
                return "It's a draw: nobody reached 15 Tokens."
            return f"{self._name(g.winner)} wins!"
        who = g.to_act
        if self.bots[who] is not None:
            name = self._name(who)
            bot = "The computer" if name.lower() == "computer" else f"The computer ({name})"
            return f"{bot} is thinking: click Next to see its move."
        if len(self.humans) == 1:
            return "Your turn" if who == self.humans[0] else f"{self._name(who)}'s turn"
        if viewer is None:
            return f"Pass the screen to {self._name(who)}."
        return f"Your turn, {self._name(who)}"

    def _step_text(self, legal: list) -> str:
        g = self.game
        if g.over:
            return f"Game over after turn {_int(getattr(g, 'turn', 0))}."
        pending = getattr(g, "pending", None)
        kinds = {a.kind for a in legal}
        phase = getattr(g, "phase", "main")
        who = self._name(g.to_act)
        if phase == "order" or "order" in kinds:
            return f"Getting ready: {who} won the die roll and decides who goes first."
        if phase == "mulligan" or kinds & {"keep", "mulligan"}:
            return f"Getting ready: {who} keeps this hand or takes a new one, once."
        turn = _int(getattr(g, "turn", 0))
        step = f"Turn {turn}: {self._name(g.active)}'s main phase"
        if pending:
            step += f". {who} must choose: {pending}"
        return step

    def _refresh(self, announce: bool = False) -> None:
        """Redraw every part of the view from the game (one way: game -> widgets)."""
        g = self.game
        actions = list(g.history)
        if len(self._movers) != len(actions):
            self._movers = self._replay_movers()  # the game was changed outside the view
        viewer = self.viewer()
        legal = [] if g.over else list(g.legal_actions())
        tables = g.tables(viewer if viewer is not None else (self.humans[0] if self.humans else 0))
        tables = dict(tables)
        if viewer is None:
            tables["hand"] = None  # the cover is up (or no human): no hand on screen
        self.status.value = f"<h3 style='margin:4px 0'>{_esc(self._status_text(viewer))}</h3>"
        moves = len(actions)
        self.step.value = (f"<span>{_esc(_plain(self._step_text(legal)))}</span>"
                           f' <span class="tokens-move-count" style="color:#555">· '
                           f"{moves} move{'s' if moves != 1 else ''} so far</span>")
        tokens = tuple(g.tokens)
        for p in (0, 1):
            self.token_bars[p].value = min(max(_int(tokens[p]), 0), WIN_TOKENS)
            self.token_bars[p].description = f"{self._name(p)}: {_int(tokens[p])}/{WIN_TOKENS}"
        self.board.value = _board_from_tables(tables, viewer, g)
        self._draw_hand(tables, viewer)
        self._draw_cover(viewer)
        self._draw_actions(viewer, legal)
        self.next_button.layout.display = None if self._bot_to_act() else "none"
        self.next_button.disabled = not self._bot_to_act()
        self.undo_button.disabled = self._undo_count() == 0
        texts = self._log_texts(tables)
        self.log_html.value = ("<b>What happened</b><br>" + "<br>".join(_esc(t) for t in texts[-8:])
                               if texts else "<i>Nothing has happened yet.</i>")
        if announce:
            new = texts[self._shown_log:] if len(texts) > self._shown_log else texts[-1:]
            if new:
                self._say(" ".join(new[-3:]))
        self._shown_log = len(texts)
        empty = {"players": "No players.", "board": "No Systems or Tools in play.",
                 "hand": "Hidden: the cover is up." if viewer is None else "Your hand is empty.",
                 "log": "Nothing has happened yet."}
        for key, w in self.table_widgets.items():
            df = tables.get(key)
            if key == "log" and df is not None and len(df) > LOG_TABLE_ROWS:
                df = df.tail(LOG_TABLE_ROWS)  # the newest events; game.tables() has them all
            w.value = _table_html(df, empty[key], names=(self._name(0), self._name(1)))
        self._draw_moves(viewer, actions)
        self._draw_card_pick(tables)

    def _draw_card_pick(self, tables: dict) -> None:
        """Offer the cards the viewer may read now: their hand (if shown) and the board."""
        names = [str(r.get("Card")) for r in _rows(tables.get("hand"))]
        names += [re.sub(r"\s*#\d+$", "", str(r.get("Card"))) for r in _rows(tables.get("board"))]
        options = sorted(dict.fromkeys(names))
        if list(self.card_pick.options) != options:
            keep = self.card_pick.value if self.card_pick.value in options else None
            self._quiet = True
            try:
                self.card_pick.options = options
                self.card_pick.value = keep
            finally:
                self._quiet = False
            if keep is None:
                self.card_html.value = ""

    def _on_card_pick(self, change) -> None:
        """Read a card: draw the picked card in full (``render_card``)."""
        name = change.get("new") if isinstance(change, dict) else None
        if self._quiet:
            return
        if not name:
            self.card_html.value = ""
            return
        from ..cards import load_cards
        from ..render import render_card

        self.card_html.value = render_card(load_cards()[name], scale=0.9)

    def _draw_hand(self, tables: dict, viewer: int | None) -> None:
        rows = _rows(tables.get("hand")) if viewer is not None else []
        if viewer is None:
            self.hand.value = ""
            return
        if not rows:
            self.hand.value = "<b>Your hand</b>: empty."
            return
        cards = []
        for r in rows:
            extra = " · can train" if _truthy(r.get("Trainable")) else ""
            cards.append(
                '<span class="tokens-hand-card" style="display:inline-block;border:1px solid #555;'
                'border-radius:5px;padding:3px 6px;margin:2px;background:#fafafa">'
                f"<b>{_esc(r.get('Card'))}</b><br><small>{_esc(r.get('Type'))} · cost "
                f"{_int(r.get('Cost'))}{_esc(extra)}</small></span>"
            )
        self.hand.value = f"<b>Your hand ({len(rows)})</b><br>" + "".join(cards)

    def _draw_cover(self, viewer: int | None) -> None:
        show = self.hot_seat and viewer is None and not self.game.over
        self.cover_box.layout.display = None if show else "none"
        self.reveal_button.disabled = not show
        if show:  # what the last player typed or was told may name their cards: clear it
            self.explain_text.value = ""
            self.explain_out.value = ""
            who = self._name(self.game.to_act)
            other = self._name(1 - self.game.to_act)
            self.cover.value = (
                f'<div style="background:#333;color:#fff;padding:18px;border-radius:8px">'
                f"<b>Pass the screen to {_esc(who)}.</b><br>{_esc(other)}, please look away. "
                f"{_esc(who)}: click the button to see your cards.</div>")
            self.reveal_button.description = f"I'm {who}: show my cards"
            self.reveal_button.tooltip = f"I'm {who}: show my cards"

    def _draw_actions(self, viewer: int | None, legal: list) -> None:
        """The legal actions as grouped buttons, only for a human who may see them now."""
        g = self.game
        offered: dict[str, object] = {}
        if not g.over and viewer is not None and g.to_act == viewer and self.bots[viewer] is None:
            offered = {str(a): a for a in legal}
        # A button, once made, stays in its group's box; a redraw only shows or hides it (by CSS
        # class), because making and removing button views is what makes a click feel slow.
        self.buttons = {}
        added: dict[str, list[widgets.Button]] = {}
        for text, action in offered.items():
            kind = getattr(action, "kind", "")
            button = self._button_cache.get(text)
            if button is None:
                button = widgets.Button(description=text, layout=self._button_layout, style=self._button_style,
                                        tooltip=f"{text}: {HINTS.get(kind, '')}".strip(),
                                        button_style=_STYLES.get(kind, ""))
                button.on_click(self._guard(functools.partial(self._on_action, text)))
                button._tokens_shown = ("tokens-action", f"tokens-action-{kind}")
                button._tokens_group = dict(GROUPS).get(kind, "End turn")
                self._button_cache[text] = button
                added.setdefault(button._tokens_group, []).append(button)
            self.buttons[text] = button
        hot_seat = self.hot_seat
        for text, button in list(self._button_cache.items()):
            shown = text in self.buttons
            if not shown and hot_seat:  # another person sees the screen next: no trace of this hand
                box = self._group_boxes[button._tokens_group]
                box.children = tuple(b for b in box.children if b is not button)
                del self._button_cache[text]
                button.close()
                continue
            classes = button._tokens_shown if shown else ("tokens-hidden",)
            if tuple(button._dom_classes) != classes:
                button._dom_classes = classes
        for heading, new in added.items():
            self._group_boxes[heading].children = tuple(self._group_boxes[heading].children) + tuple(new)
        pending = getattr(g, "pending", None)
        shown_groups = {b._tokens_group for b in self.buttons.values()}
        for heading, row in self._group_rows.items():
            if heading == "Choose":
                label = f"Choose: {pending}" if pending else "Choose"
                self._group_labels[heading].value = f"<b>{_esc(label)}</b>"
            row.layout.display = None if heading in shown_groups else "none"

    def _draw_moves(self, viewer: int | None, actions: list[str]) -> None:
        """The numbered move list (``actions``: the record's action texts); the other
        player's secret moves are masked (see :meth:`_mask`)."""
        lines = []
        for i, text in enumerate(actions):
            mover = self._movers[i] if i < len(self._movers) else None
            shown = self._mask(str(text), mover, viewer)
            who = self._name(mover) if mover is not None else "?"
            lines.append(f"{i + 1}. {_esc(who)}: {_esc(shown)}")
        self.moves_html.value = ("<b>Moves so far</b><br>" + "<br>".join(lines[-60:])
                                 if lines else "<i>No moves yet.</i>")

    @staticmethod
    def _mask(text: str, mover: int | None, viewer: int | None) -> str:
        """An action text as ``viewer`` may read it: the opponent's face-down and secret picks hidden."""
        if mover is not None and mover == viewer:
            return text
        low = text.lower()
        if low.startswith("train "):
            return "train a card (face-down)"
        if low.startswith("choose ") and not _PUBLIC_CHOICE.match(low):
            return "choose (a secret choice)"
        return text

    def _replay_movers(self) -> list[int]:
        """Who made each action already in the game (from ``game.moves``)."""
        return [player for player, _ in self.game.moves]


class NewGamePanel(widgets.VBox):
    """A "start a game" panel: pick starter decks (and names), click Start, play in a GameView.

    Used by the lessons "Play the computer" (``seats=("human", "greedy")``) and "Hot seat"
    (``seats=("human", "human")``). Starting again while a game is still going asks for a
    second click first, so one stray click never throws a game away.

    Args:
        seats: passed to :class:`GameView`.
        journal: passed to :class:`GameView` (Discuss boxes for deployed cards).
        lesson: passed to :class:`GameView`.
        allow_undo: passed to :class:`GameView`.
        seed: the game's seed (None: a new shuffle each time).

    Attributes:
        deck_pickers: the two Dropdowns (value: index into ``starter_decks()``).
        name_boxes: the two Text boxes for the players' names.
        start_button: Start (CSS class ``tokens-start``).
        view: the GameView of the current game, or None before Start.
    """

    def __init__(self, seats: Sequence = ("human", "greedy"), journal=None, lesson: str = "",
                 allow_undo: bool = True, seed: int | None = None):
        super().__init__()
        self.add_class("tokens-new-game")
        from ..decks import starter_decks

        self.seats = tuple(seats)
        self.bots = [_make_bot(s, i) for i, s in enumerate(self.seats)]  # checks seats now
        self.journal, self.lesson, self.allow_undo, self.seed = journal, lesson, allow_undo, seed
        self.decks = starter_decks()
        options = [(d.name, i) for i, d in enumerate(self.decks)]
        defaults = ("Player 1", "Player 2")
        labels = []
        for i in (0, 1):
            labels.append("Computer" if self.bots[i] is not None else
                          ("Your" if sum(b is None for b in self.bots) == 1 else f"Player {i + 1}'s"))
        self.deck_pickers = [
            widgets.Dropdown(options=options, value=(0 if i == 0 else min(len(options) - 1, 7)),
                             description=f"{labels[i]} deck", style={"description_width": "initial"})
            for i in (0, 1)
        ]
        me = self._student_name()  # the page's student (journal or ?student=), for the first human seat
        first_human = next((i for i in (0, 1) if self.bots[i] is None), None)
        self.name_boxes = [
            widgets.Text(value=("Computer" if self.bots[i] is not None else (me if i == first_human else "")),
                         placeholder=defaults[i],
                         description=f"{'Computer' if self.bots[i] is not None else labels[i]} name",
                         disabled=self.bots[i] is not None, style={"description_width": "initial"})
            for i in (0, 1)
        ]
        for i, box in enumerate(self.name_boxes):
            box.add_class(f"tokens-name-{i}")
        self.start_button = widgets.Button(description="Start", tooltip="Start a new game with these decks",
                                           button_style="primary", icon="play")
        self.start_button.add_class("tokens-start")
        self.start_button.on_click(self._on_start)
        self.note = widgets.HTML()
        self.note.add_class("tokens-message")
        self.page_note = widgets.HTML(f'<span style="color:#555">{_esc(PAGE_ONLY_NOTE)}</span>')
        self.page_note.add_class("tokens-page-note")
        self.slot = widgets.VBox()
        self.view: GameView | None = None
        self._confirm = False  # Start was clicked once while a game was still going
        rows = [widgets.HBox([self.name_boxes[i], self.deck_pickers[i]]) for i in (0, 1)]
        self.children = rows + [widgets.HBox([self.start_button, self.page_note]), self.note, self.slot]

    def _student_name(self) -> str:
        """The student's name if the page knows it: the journal's, else the ``?student=`` query.

        Returns "" when unknown (or when reading it fails: a name is only a convenience).
        """
        try:
            name = getattr(self.journal, "student", None) if self.journal is not None else None
            if not name:
                from ..journal import student_from_query

                name = student_from_query()
            return _short(name) if name and str(name).strip() else ""
        except Exception:  # noqa: BLE001
            log.debug("NewGamePanel: no student name", exc_info=True)
            return ""

    def _on_start(self, _button=None) -> None:
        """Start: build a new Game from the chosen decks and names, shown in a GameView."""
        try:
            from ..game import Game

            if self.view is not None and not self.view.game.over and not self._confirm:
                self._confirm = True
                self.note.value = ('<span style="color:#b00020">⚠ A game is still going. Click Start again '
                                   "to leave it and begin a new one.</span>")
                return
            self._confirm = False
            me = self._student_name()  # read again: with a preheated kernel the query comes late
            for i, box in enumerate(self.name_boxes):
                if self.bots[i] is None and not box.value.strip() and me and \
                        i == next(j for j in (0, 1) if self.bots[j] is None):
                    box.value = me
            names = tuple(_short(box.value.strip() or box.placeholder) for box in self.name_boxes)
            if names[0] == names[1]:
                names = (names[0], names[1] + " 2")
            decks = [self.decks[p.value] for p in self.deck_pickers]
            game = Game.new(decks[0], decks[1], seed=self.seed, names=names)
            self.view = GameView(game, seats=self.seats, allow_undo=self.allow_undo,
                                 journal=self.journal, lesson=self.lesson)
            self.slot.children = [self.view]
            self.note.value = f"<span>New game: {_esc(names[0])} against {_esc(names[1])}. Have fun!</span>"
        except ValueError as exc:
            log.info("NewGamePanel: refused: %s", exc)
            self.note.value = f'<span style="color:#b00020">⚠ {_esc(exc)}</span>'
        except Exception:  # noqa: BLE001
            log.exception("NewGamePanel: Start failed")
            self.note.value = f'<span style="color:#b00020">⚠ {_esc(_FRIENDLY_ERROR)}</span>'
