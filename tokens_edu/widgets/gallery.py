"""The card gallery: browse the Alpha Set, filter it, search it, and look closer at one card.

``CardGallery()`` shows every card of the set as a grid of printed-style cards
(:func:`tokens_edu.present.render.render_card`). Students narrow it with filters for color, type and
rarity and a search box, and press "Look closer" under a card to see it big with its teacher
note (``learn_more``). It is a view only: it reads cards and holds no rules.

The big card opens inside the grid, on the row right under the card that was pressed (a
full-width grid item; the grid packs ``dense`` so the rest of that row stays filled). The grid
stays as it is, so the page never gets shorter under the reader and the big card is where they
were looking, even for a card far down the page (hiding the grid instead left the big card
above the top of the window). No JavaScript: it works the same in Voila and JupyterLab.

Search matches the start of words (any case) in the card's name, texts and keywords: "chat"
finds Chatbot, "trust" finds Highly Trusted, but "red" does not find "trained" and "ai" does
not find "said"; a plural finds the singular ("networks" finds "network"). A color name
(green, blue, black, white, red) or a type name (System, Tool, Action, or its plural) matches
the cards of that color or type.

The gallery students see shows each card's Definition and Discuss question; the teacher notes
(``learn_more``) appear only in teacher mode (``CardGallery(teacher=True)``).

Each card's HTML is built once and kept; a filter change only hides or shows tiles (their
``layout.display``), so nothing is rebuilt and only the changed tiles reach the browser.
"""

from __future__ import annotations

import functools
import html
import logging
import re
from collections.abc import Iterable

import ipywidgets as widgets

from ..content.cards import COLOR_THEMES, COLORS, Card, CardPool, load_cards
from ..content.glossary import GLOSSARY, glossary_html
from ..present.render import RARITY_NAMES, SCREEN_SCALE, render_card

__all__ = ["CardGallery"]

log = logging.getLogger(__name__)

ALL = "all"
_TILE_SCALE = SCREEN_SCALE  # card text 12 px or more
_DETAIL_SCALE = 1.5


@functools.lru_cache(maxsize=512)
def _card_html(card: Card, scale: float) -> str:
    """Cached :func:`render_card` (cards are immutable, so their HTML never changes)."""
    return render_card(card, scale=scale)


_WORD = re.compile(r"\w+")
_COLOR_WORDS = frozenset(COLORS)
_TYPE_WORDS = frozenset(("system", "tool", "action"))


def search_words(text: str) -> list[str]:
    """The words of a search (letters and digits; any case): ``"Bias-Audit!"`` -> bias, audit."""
    return _WORD.findall(text.casefold())


@functools.lru_cache(maxsize=512)
def _card_words(card: Card) -> frozenset[str]:
    """Every whole word of the card's name, rules text, definition, Discuss and keywords."""
    text = " ".join([card.name, card.rules_text, card.definition, card.discuss,
                     " ".join(card.keywords)])
    return frozenset(search_words(text))


def _word_matches(card: Card, word: str) -> bool:
    if word in _COLOR_WORDS:
        return card.color == word
    if word in _TYPE_WORDS or (word.endswith("s") and word[:-1] in _TYPE_WORDS):
        return card.type.casefold() == word.removesuffix("s")
    stems = (word, word[:-1]) if len(word) > 3 and word.endswith("s") else (word,)
    return any(w.startswith(stem) for w in _card_words(card) for stem in stems)


def _matches(card: Card, words: list[str]) -> bool:
    """True when every search word starts a word of the card (see the module docs)."""
    return all(_word_matches(card, w) for w in words)


class CardGallery(widgets.VBox):
    """A browsable grid of cards with filters, a search box and a "look closer" pane.

    Args:
        pool: the cards to show: a :class:`~tokens_edu.content.cards.CardPool` (default: the Alpha Set
            from :func:`~tokens_edu.content.cards.load_cards`), or any list of Cards (a Deck works; each
            card is shown once).
        teacher: True shows each card's teacher note under the big card (teacher mode);
            False (default, what students see) leaves it out.

    Attributes (for lessons and tests):
        color_filter, type_filter, rarity_filter: ``ipywidgets.Dropdown``; the value ``"all"``
            means no filter. Colors are ``green, blue, black, white, red, any``; types ``System,
            Tool, Action``; rarities ``C, U, R, *``.
        search: ``ipywidgets.Text``; every word typed must start a word of the card's name,
            texts or keywords (any case); a color or type name matches that color or type.
        count_label: ``ipywidgets.Label`` reading "showing N of M cards".
        grid: the ``ipywidgets.GridBox`` of card tiles (all tiles; hidden ones have
            ``layout.display == "none"``); while a card is chosen it also holds
            ``detail_box``, right after that card's tile.
        tiles: the tiles in set order (the grid's children without the big card).
        detail: ``ipywidgets.HTML`` with the chosen card drawn big and its teacher note, in
            ``detail_box``, a full-width row of the grid under the chosen card. "Close"
            (``close_button``) or any filter change closes it.
        selected: the chosen :class:`Card`, or None.
        message: ``ipywidgets.HTML`` where a problem is explained in plain words.
        words: an ``ipywidgets.Accordion`` (closed at first) with what AI, data, a model and
            a token mean (:data:`tokens_edu.content.glossary.GLOSSARY`).

    Raises:
        TypeError: ``pool`` is not a CardPool or a list of Cards.
    """

    def __init__(self, pool: CardPool | Iterable[Card] | None = None, teacher: bool = False,
                 page_size: int | None = None, **kwargs):
        cards = self._cards_from(pool)
        if page_size is not None and (isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 1):
            raise ValueError("page_size must be a whole number of cards, 1 or more (or None for all).")
        self.page_size = page_size
        self.page = 0
        self.teacher = bool(teacher)
        self._cards: list[Card] = cards
        self.selected: Card | None = None

        color_opts = [("all colors", ALL)] + [
            (f"{c}: {COLOR_THEMES[c]}", c) for c in COLORS + ("any",) if any(k.color == c for k in cards)
        ]
        type_opts = [("all types", ALL)] + [(t, t) for t in ("System", "Tool", "Action")]
        rarity_opts = [("all rarities", ALL)] + [
            (f"{'★' if r == '*' else r}: {RARITY_NAMES[r]}", r) for r in ("C", "U", "R", "*")
        ]
        self.color_filter = widgets.Dropdown(options=color_opts, value=ALL, description="Color",
                                             layout=widgets.Layout(width="auto"))
        self.type_filter = widgets.Dropdown(options=type_opts, value=ALL, description="Type",
                                            layout=widgets.Layout(width="auto"))
        self.rarity_filter = widgets.Dropdown(options=rarity_opts, value=ALL, description="Rarity",
                                              layout=widgets.Layout(width="auto"))
        self.search = widgets.Text(value="", placeholder="Search names and card text",
                                   description="Search", continuous_update=True,
                                   layout=widgets.Layout(width="auto"))
        self.reset_button = widgets.Button(description="Show all", tooltip="Clear the filters and the search",
                                           icon="undo")
        self.count_label = widgets.Label(value="")
        # with a page_size: "Previous" and "Next" pages of cards (a short page, not 70 cards)
        self.prev_button = widgets.Button(description="◂ Previous cards", layout=widgets.Layout(width="auto"))
        self.next_button = widgets.Button(description="Next cards ▸", layout=widgets.Layout(width="auto"))
        self.prev_button.add_class("tokens-gallery-prev")
        self.next_button.add_class("tokens-gallery-next")
        self.prev_button.on_click(lambda _b: self._safely("turn the page", self._turn_page, -1))
        self.next_button.on_click(lambda _b: self._safely("turn the page", self._turn_page, 1))
        self.message = widgets.HTML(value="")
        for w, cls in ((self.color_filter, "color"), (self.type_filter, "type"),
                       (self.rarity_filter, "rarity"), (self.search, "search"),
                       (self.reset_button, "reset"), (self.count_label, "count"),
                       (self.message, "message")):
            w.add_class(f"tokens-gallery-{cls}")

        # One tile per card, built once.
        self._tiles: dict[str, widgets.VBox] = {}
        for card in cards:
            view = widgets.HTML(value=_card_html(card, _TILE_SCALE))
            view.add_class("tokens-gallery-card-view")
            button = widgets.Button(description="Look closer", tooltip=f"Show {card.name} big",
                                    layout=widgets.Layout(width="auto"))
            button.add_class("tokens-gallery-look")
            button.on_click(functools.partial(self._on_look, card.name))
            tile = widgets.VBox([view, button], layout=widgets.Layout(align_items="stretch",
                                                                      width="fit-content"))
            tile.add_class("tokens-gallery-tile")
            self._tiles[card.name] = tile
        self.grid = widgets.GridBox(
            list(self._tiles.values()),
            layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(316px, 1fr))",
                                  grid_auto_flow="row dense",
                                  grid_gap="12px", justify_items="flex-start", width="100%"),
        )
        self.grid.add_class("tokens-gallery-grid")

        self.detail = widgets.HTML(value="")
        self.detail.add_class("tokens-gallery-detail")
        self.close_button = widgets.Button(description="Close", icon="times",
                                           tooltip="Close the big card",
                                           layout=widgets.Layout(width="auto"))
        self.close_button.add_class("tokens-gallery-close")
        self.close_button.on_click(self._on_close)
        # A full-width row of the grid, put after the chosen tile. grid_area "auto / 1 / auto / -1"
        # is grid-column 1 / -1: ipywidgets 8 does not pass grid_column itself to the page
        # (jupyter-widgets/ipywidgets#2334), but it does pass grid_area.
        self.detail_box = widgets.VBox([self.close_button, self.detail],
                                       layout=widgets.Layout(display="none", border="2px solid #555",
                                                             align_items="flex-start", padding="8px",
                                                             grid_area="auto / 1 / auto / -1", width="100%"))
        self.detail_box.add_class("tokens-gallery-detail-box")

        filters = widgets.HBox([self.color_filter, self.type_filter, self.rarity_filter],
                               layout=widgets.Layout(flex_flow="row wrap"))
        paging = [self.prev_button, self.next_button] if page_size else []
        search_row = widgets.HBox([self.search, self.reset_button, self.count_label] + paging,
                                  layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        # Words to know (AI, data, model, token), one click away and closed at first
        self.words = widgets.Accordion([widgets.HTML(glossary_html())], selected_index=None)
        self.words.set_title(0, "Words to know: " + ", ".join(GLOSSARY))
        self.words.add_class("tokens-gallery-words")
        super().__init__([self.words, filters, search_row, self.message, self.grid], **kwargs)
        self.add_class("tokens-gallery")

        self._visible: set[str] = set(self._tiles)
        for w in (self.color_filter, self.type_filter, self.rarity_filter, self.search):
            w.observe(self._on_filter, names="value")
        self.reset_button.on_click(self._on_reset)
        self._apply_filters()

    # -- building -----------------------------------------------------------------------------
    @staticmethod
    def _cards_from(pool: object) -> list[Card]:
        if pool is None:
            return load_cards().cards()
        if isinstance(pool, CardPool):
            return pool.cards()
        if isinstance(pool, (str, bytes)) or not isinstance(pool, Iterable):
            raise TypeError(
                f"CardGallery needs a CardPool or a list of cards (or nothing), not {type(pool).__name__}."
            )
        out: list[Card] = []
        seen: set[str] = set()
        for item in pool:
            if not isinstance(item, Card):
                raise TypeError(f"CardGallery needs Cards; one entry is {type(item).__name__}.")
            if item.name not in seen:
                seen.add(item.name)
                out.append(item)
        return out

    # -- state --------------------------------------------------------------------------------
    @property
    def cards(self) -> list[Card]:
        """Every card in the gallery, in set order (filtered or not)."""
        return list(self._cards)

    @property
    def tiles(self) -> list[widgets.VBox]:
        """The card tiles in set order (the grid's children without the big card)."""
        return list(self._tiles.values())

    @property
    def shown(self) -> list[Card]:
        """The cards the filters and the search let through, in set order."""
        return [c for c in self._cards if c.name in self._visible]

    def _wanted(self) -> set[str]:
        color, ctype, rarity = self.color_filter.value, self.type_filter.value, self.rarity_filter.value
        words = search_words(self.search.value)
        return {
            c.name for c in self._cards
            if (color == ALL or c.color == color)
            and (ctype == ALL or c.type == ctype)
            and (rarity == ALL or c.rarity == rarity)
            and _matches(c, words)
        }

    @property
    def on_page(self) -> list[Card]:
        """The cards drawn now: :attr:`shown`, or with a ``page_size`` the current page of them."""
        shown = self.shown
        if not self.page_size:
            return shown
        return shown[self.page * self.page_size:(self.page + 1) * self.page_size]

    def _turn_page(self, step: int) -> None:
        pages = max(1, -(-len(self.shown) // self.page_size)) if self.page_size else 1
        self.page = min(max(self.page + step, 0), pages - 1)
        self._apply_filters(keep_page=True)

    def _apply_filters(self, keep_page: bool = False) -> None:
        """Show the tiles that match (with a page size, this page of them) and hide the rest;
        touch only tiles that change."""
        wanted = self._wanted()
        if not keep_page:
            self.page = 0
        self._visible = wanted
        drawn = {c.name for c in self.on_page}
        for name, tile in self._tiles.items():
            want = None if name in drawn else "none"
            if tile.layout.display != want:
                tile.layout.display = want
        n, total = len(wanted), len(self._cards)
        self.count_label.value = f"showing {n} of {total} cards"
        if self.page_size:
            pages = max(1, -(-n // self.page_size))
            first = self.page * self.page_size + 1 if n else 0
            self.count_label.value = (f"cards {first} to {min(n, (self.page + 1) * self.page_size)} "
                                      f"of {n} (page {self.page + 1} of {pages})")
            self.prev_button.disabled = self.page == 0
            self.next_button.disabled = self.page >= pages - 1
        if n == 0:
            self._say("No card matches. Try fewer words, or set a filter back to “all”.")
        else:
            self._say("")

    def _say(self, text: str) -> None:
        self.message.value = f'<span style="color:#8a1c1c">{html.escape(text)}</span>' if text else ""

    # -- actions ------------------------------------------------------------------------------
    def select(self, name: str | Card) -> Card:
        """Show one card big, with its Definition, Discuss question and teacher note.

        Args:
            name: a card name (any case) or a Card of this gallery.

        Returns:
            the chosen Card (also in :attr:`selected`).

        Raises:
            KeyError: there is no such card in this gallery; the message suggests close names.
                Nothing changes.
        """
        key = name.name if isinstance(name, Card) else name
        card = next((c for c in self._cards
                     if isinstance(key, str) and c.name.casefold() == " ".join(key.split()).casefold()), None)
        if card is None:
            raise KeyError(CardPool(self._cards).unknown_message(key))
        self.selected = card
        self.detail.value = self._detail_html(card)
        # right after the chosen tile: the big card opens where the reader is looking, and the
        # page only grows below them (the grid is never hidden, so nothing scrolls away)
        tiles = self.tiles
        at = tiles.index(self._tiles[card.name]) + 1
        self.grid.children = tuple(tiles[:at] + [self.detail_box] + tiles[at:])
        self.detail_box.layout.display = None
        return card

    def clear_selection(self) -> None:
        """Close the big card."""
        self.selected = None
        self.detail.value = ""
        self.detail_box.layout.display = "none"
        if len(self.grid.children) != len(self._tiles):
            self.grid.children = tuple(self.tiles)

    def reset(self) -> None:
        """Set every filter back to "all" and empty the search box."""
        self._muted = True  # refilter once at the end, not once per widget
        try:
            for w in (self.color_filter, self.type_filter, self.rarity_filter):
                w.value = ALL
            self.search.value = ""
        finally:
            self._muted = False
        self._apply_filters()

    def _detail_html(self, card: Card) -> str:
        esc = html.escape
        theme = COLOR_THEMES.get(card.color, card.color)
        note = card.learn_more or "No teacher note for this card yet."
        teacher = (f'<p class="tokens-gallery-learn-more" style="margin:0"><strong>For teachers:</strong> {esc(note)}</p>'
                   if self.teacher else "")
        return (
            '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">'
            f"{_card_html(card, _DETAIL_SCALE)}"
            '<div style="flex:1 1 260px;max-width:560px;color:#1a1a1a;background:#ffffff;'
            'padding:8px 12px;border-radius:6px;font-size:15px;line-height:1.45">'
            f'<h3 style="margin:0 0 6px">{esc(card.name)}</h3>'
            f'<p style="margin:0 0 8px">{esc(card.type)} · {esc(theme)}</p>'
            f'<p style="margin:0 0 8px"><strong>Definition:</strong> {esc(card.definition)}</p>'
            f'<p style="margin:0 0 8px"><strong>Discuss:</strong> {esc(card.discuss)}</p>'
            f"{teacher}</div></div>"
        )

    # -- callbacks (never raise: on Voila an error would show nowhere) --------------------------
    def _safely(self, what: str, fn, *args) -> None:
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - show a plain message instead of failing silently
            log.exception("CardGallery: %s failed", what)
            self._say(f"Something went wrong while trying to {what}. Please try again.")

    def _on_filter(self, change) -> None:
        if getattr(self, "_muted", False):
            return
        if self.selected is not None:  # a new filter means: back to the grid
            self._safely("close the card", self.clear_selection)
        self._safely("filter the cards", self._apply_filters)

    def _on_look(self, name: str, _button) -> None:
        self._safely("show the card", self.select, name)

    def _on_close(self, _button) -> None:
        self._safely("close the card", self.clear_selection)

    def _on_reset(self, _button) -> None:
        self._safely("show all cards", self.reset)
