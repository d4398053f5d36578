"""The "State tables" pane: the position as pandas tables (Players, Board, My hand, Log).

Drawn from the presenter's page (``page.tables()``, seen from the bottom seat; no hand under a
hot-seat cover). :func:`table_html` turns a DataFrame into escaped HTML, also for
:class:`~tokens_edu.widgets.ReplayView`. CSS class: ``tokens-tables`` (the tabs).
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from . import Pane, esc
from .log import LOG_TABLE_ROWS

__all__ = ["TablesPane", "table_html"]

_EMPTY = {"players": "No players.", "board": "No Systems or Tools in play.",
          "hand": "Your hand is empty.", "log": "Nothing has happened yet."}


def _int(value, default: int = -1) -> int:
    try:
        if value is None or value != value:  # NaN
            return default
        return int(value)
    except (TypeError, ValueError):
        return default


def table_html(df, empty: str, names: Sequence[str] = ()) -> str:
    """A DataFrame as escaped HTML (``to_html(escape=True)``), or a plain sentence if empty.

    With ``names``, the player numbers in a "Player" or "Owner" column become names (the
    Players table, which has a Name column already, drops its numbers).
    """
    if df is None or len(df) == 0:
        return f"<i>{esc(empty)}</i>"
    if names:
        df = df.copy()
        if "Player" in df.columns and "Name" in df.columns:
            df = df.drop(columns=["Player"])
        for col in ("Player", "Owner"):
            if col in df.columns:
                df[col] = [names[i] if isinstance(i, int) and 0 <= i < len(names) else v
                           for i, v in ((_int(x), x) for x in df[col])]
    return df.to_html(escape=True, index=False, border=0, classes="tokens-table", justify="left")


class TablesPane(Pane):
    """"State tables": tabs of Players, Board, My hand and Log.

    Attributes:
        widgets: dict ``players``/``board``/``hand``/``log`` -> ``HTML``. tab: the ``Tab``.
    """

    key = "tables"
    title = "State tables"

    def __init__(self, view):
        super().__init__(view)
        self.widgets = {k: widgets.HTML() for k in ("players", "board", "hand", "log")}
        self.tab = widgets.Tab(children=list(self.widgets.values()), titles=["Players", "Board", "My hand", "Log"])
        self.tab.add_class("tokens-tables")
        self.box = self.tab

    def draw(self, page) -> None:
        tables = page.tables()
        empty = dict(_EMPTY, hand="Hidden: the cover is up." if page.viewer is None else _EMPTY["hand"])
        for key, w in self.widgets.items():
            df = tables.get(key)
            if key == "log" and df is not None and len(df) > LOG_TABLE_ROWS:
                df = df.tail(LOG_TABLE_ROWS)
            w.value = table_html(df, empty[key], names=page.names)

    def clear(self) -> None:
        for w in self.widgets.values():
            w.value = ""
