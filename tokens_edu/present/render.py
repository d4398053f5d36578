"""HTML views of cards: :func:`render_card` for notebooks and :func:`print_sheet` for home printing.

A card is drawn the way the printed Alpha Set lays it out (quick-play rules, step 1 "Read a
card"): Cost top left (a diamond around it when the card is trainable, R8), Tokens top right as
coin pips (Systems only), a type bar with the color's theme and the rarity letter (C, U, R, ★),
the ability, the Definition and the Discuss question, and CAP / TRU at the bottom of a System.

The HTML uses no JavaScript and no outside files: every style is inline, so a card looks the same
in JupyterLab, in Voila, in an ``ipywidgets.HTML`` and in a saved file. Sizes are in ``em`` of a
root font size given in millimetres, so ``scale=1`` is exactly the poker-card size 63 x 88 mm.
All text is escaped with :func:`html.escape`. Text colors meet WCAG AA (contrast 4.5:1 or more)
on the background they sit on; ``tests/test_render.py`` checks that on the real HTML.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..content.cards import COLOR_THEMES, PICTURE_COLORS, Card, CardPool, card_picture, load_cards
from ..content.decks import Deck
from ..errors import DeckError

__all__ = [
    "SCREEN_SCALE",
    "render_card",
    "card_aria_label",
    "print_sheet",
    "COLOR_STYLES",
    "RARITY_NAMES",
    "CARD_WIDTH_MM",
    "CARD_HEIGHT_MM",
    "CARDS_PER_PAGE",
]

#: Poker-card size, in millimetres.
CARD_WIDTH_MM = 63
#: The smallest text on a card (the type bar, the set number), in ``em`` of the card's root size.
SMALLEST_EM = 0.82
#: The ``scale`` for a card a student reads on a screen (the gallery, Discuss boxes, a card in a
#: lesson, "Read a card"): its smallest text is 12 px or more (3 mm x 1.3 x 0.82 = 12.1 px at
#: 96 px an inch), about 310 x 433 px. A print sheet keeps scale 1, the size of the printed card.
SCREEN_SCALE = 1.3
CARD_HEIGHT_MM = 88
#: A print page holds a 3 x 3 grid of cards (fits A4 and US Letter).
CARDS_PER_PAGE = 9
_PAGES = {"A4": (210.0, 297.0), "LETTER": (215.9, 279.4)}

INK = "#1a1a1a"  # the main dark text color
PAPER = "#ffffff"

#: Colors of each card color: ``frame`` (card edge and name band), ``band_text`` (text on the
#: frame), ``tint`` (background of the text box and type bar), ``art`` (lines of the picture:
#: :data:`tokens_edu.content.cards.PICTURE_COLORS`).
#: ``any`` has a rainbow ``stripes`` band; its name sits on a solid plate (``plate``).
COLOR_STYLES: dict[str, dict[str, str]] = {
    "green": {"frame": "#1b5e20", "band_text": PAPER, "tint": "#e8f5e9", "art": PICTURE_COLORS["green"]},
    "blue": {"frame": "#0d47a1", "band_text": PAPER, "tint": "#e3f2fd", "art": PICTURE_COLORS["blue"]},
    "black": {"frame": "#212121", "band_text": PAPER, "tint": "#eeeeee", "art": PICTURE_COLORS["black"]},
    "white": {"frame": "#f4f1e6", "band_text": INK, "tint": "#ffffff", "art": PICTURE_COLORS["white"],
              "edge": "#8a8577"},
    "red": {"frame": "#b71c1c", "band_text": PAPER, "tint": "#ffebee", "art": PICTURE_COLORS["red"]},
    "any": {"frame": "#4a3b63", "band_text": INK, "tint": "#f3e5f5", "art": PICTURE_COLORS["any"],
            "plate": "#ffffff",
            "stripes": "linear-gradient(90deg,#c62828,#ef6c00,#f9a825,#2e7d32,#1565c0,#6a1b9a)"},
}

#: How each rarity letter is shown and read out: (printed mark, spoken name, badge bg, badge text).
RARITY_NAMES = {"C": "common", "U": "uncommon", "R": "rare", "*": "special"}
_RARITY_BADGE = {
    "C": ("C", INK, PAPER),
    "U": ("U", "#455a64", PAPER),
    "R": ("R", "#f9a825", INK),
    "*": ("★", "#6a1b9a", PAPER),
}
_TYPE_ICON_LABEL = "Turn this card sideways to use it, once per turn"
_E_TOKEN = re.compile(r"\{E\}")


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _style(**props: object) -> str:
    """Inline CSS from keyword arguments (``font_size="1em"`` -> ``font-size:1em``)."""
    return ";".join(f"{k.replace('_', '-')}:{v}" for k, v in props.items() if v is not None)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check_card(card: object) -> Card:
    if not isinstance(card, Card):
        raise TypeError(
            f"render_card needs a Card (for example load_cards()['Chatbot']), not {type(card).__name__}."
        )
    return card


def card_aria_label(card: Card, discuss: bool = True) -> str:
    """One plain sentence-by-sentence description of every fact on the card, for screen readers.

    Args:
        card: a :class:`~tokens_edu.content.cards.Card`.
        discuss: False leaves the Discuss question out (a card drawn without it).

    Returns:
        str, e.g. ``"Neural Network. Black card, Machine Learning. System, uncommon. Costs 2 Data;
        can be trained. Scores 2 Tokens. Capability 4, Trust 2. No ability. Definition: ...
        Discuss: ... Card 29 of the Alpha Set."``. Used as the ``aria-label`` of the card element.

    Raises:
        TypeError: ``card`` is not a Card.
    """
    card = _check_card(card)
    if card.color == "any":
        color = "Any deck card: it fits every deck and has no color."
    else:
        color = f"{card.color.title()} card, {COLOR_THEMES.get(card.color, card.color)}."
    parts = [f"{card.name}.", color]
    kind = f"{'Legacy ' if card.legacy else ''}{card.type}"
    parts.append(f"{kind}, {RARITY_NAMES.get(card.rarity, card.rarity)}.")
    parts.append(f"Costs {card.cost} Data; {'can be trained' if card.trainable else 'cannot be trained'}.")
    if card.is_system:
        parts.append(f"Scores {_plural(card.tokens or 0, 'Token')}.")
        parts.append(f"Capability {card.cap}, Trust {card.tru}.")
    rules = _E_TOKEN.sub("Turn sideways", card.rules_text) if card.rules_text else ""
    parts.append(f"Ability: {rules}" if rules else "No ability.")
    if card.definition:
        parts.append(f"Definition: {card.definition}")
    if card.discuss and discuss:
        parts.append(f"Discuss: {card.discuss}")
    if card.number:
        parts.append(f"Card {card.number} of the Alpha Set.")
    return " ".join(parts)


def _rules_html(text: str) -> str:
    """Escape rules text and draw ``{E}`` as a small "turn sideways" badge."""
    badge = (
        f'<span class="tk-exert" title="{_esc(_TYPE_ICON_LABEL)}" style="'
        + _style(display="inline-block", background=INK, color=PAPER, border_radius="0.2em",
                 width="1.7em", text_align="center", font_weight="800", line_height="1.15em",
                 font_size="0.92em", vertical_align="0.05em")
        + '">E</span>'
    )  # a small landscape box: a card turned sideways
    return badge.join(_esc(part) for part in _E_TOKEN.split(text))


def render_card(card: Card, scale: float = 1.0, *, discuss: bool = True) -> str:
    """The card as a self-contained HTML fragment (inline CSS, no JavaScript).

    Args:
        card: a :class:`~tokens_edu.content.cards.Card`.
        scale: size factor (float, 0.3 to 4). ``1`` draws the card at poker-card size,
            63 x 88 mm (about 238 x 333 screen pixels); ``1.5`` is half as big again.
        discuss: False leaves the card's Discuss question out (a Discuss box that asks its
            question under the card: one question per box).

    Returns:
        str: one ``<div class="tk-card ...">`` element with an ``aria-label`` reading all the
        card's facts (:func:`card_aria_label`) and ``data-card`` holding its name.

    Raises:
        TypeError: ``card`` is not a Card, or ``scale`` is not a number.
        ValueError: ``scale`` is outside 0.3 to 4.

    The layout follows the printed card (quick-play rules, "Read a card"); trainable cards show
    the Cost in a diamond (R8), Systems show Tokens as pips and CAP / TRU (R13, R14).
    """
    card = _check_card(card)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise TypeError(f"scale must be a number like 1 or 1.5, not {type(scale).__name__}.")
    if not 0.3 <= scale <= 4:
        raise ValueError(f"scale must be between 0.3 and 4, not {scale}.")
    pal = COLOR_STYLES.get(card.color, COLOR_STYLES["black"])
    frame, band_text, tint = pal["frame"], pal["band_text"], pal["tint"]
    edge = pal.get("edge", frame)
    root_mm = 3.0 * scale  # 21em x 29.333em = 63 x 88 mm at scale 1

    # -- header: cost, name, tokens --------------------------------------------------------
    cost_box = _style(
        flex="0 0 auto", width="1.9em", height="1.9em", display="flex", align_items="center",
        justify_content="center", background=PAPER, color=INK, border=f"0.12em solid {INK}",
        font_weight="800", font_size="1em",
        transform="rotate(45deg) scale(0.86)" if card.trainable else None,
        border_radius="0.2em" if card.trainable else "50%",
    )
    cost_num = _style(display="inline-block", transform="rotate(-45deg)" if card.trainable else None)
    cost_title = f"Cost {card.cost} Data" + (" (diamond: can be trained)" if card.trainable else "")
    cost_html = (
        f'<div class="tk-cost{" tk-trainable" if card.trainable else ""}" title="{_esc(cost_title)}" '
        f'style="{cost_box}"><span style="{cost_num}">{card.cost}</span></div>'
    )
    name_size = 1.2 if len(card.name) <= 14 else (1.02 if len(card.name) <= 19 else 0.9)
    name_bg = pal.get("plate")
    name_style = _style(
        flex="1 1 auto", margin="0 0.35em", font_weight="800", font_size=f"{name_size}em",
        line_height="1.1", color=band_text, text_align="center", overflow="hidden",
        background=name_bg, border_radius="0.3em" if name_bg else None,
        padding="0.12em 0.3em" if name_bg else None,
    )
    name_html = f'<div class="tk-name" style="{name_style}">{_esc(card.name)}</div>'
    if card.is_system:
        pip = _style(display="inline-block", width="0.62em", height="0.62em", border_radius="50%",
                     background="#f9a825", border=f"0.09em solid {INK}", margin="0 0.05em")
        pips = "".join(f'<span class="tk-pip" style="{pip}"></span>' for _ in range(card.tokens or 0))
        tok_style = _style(flex="0 0 auto", display="flex", flex_wrap="wrap", justify_content="center",
                           align_items="center", max_width="3.4em", min_width="1.9em",
                           background=PAPER, border_radius="0.8em", padding="0.2em 0.25em",
                           border=f"0.08em solid {INK}")
        tokens_html = (
            f'<div class="tk-tokens" data-tokens="{card.tokens}" '
            f'title="{_esc(_plural(card.tokens or 0, "Token"))}" style="{tok_style}">{pips}</div>'
        )
    else:
        tokens_html = '<div style="flex:0 0 auto;width:1.9em"></div>'
    head_style = _style(display="flex", align_items="center", padding="0.35em 0.35em 0.3em",
                        background=frame, color=band_text, min_height="2.3em")
    stripes = pal.get("stripes")
    if stripes:  # the rainbow band of cards that fit any deck; no text sits on it directly
        head_style = _style(display="flex", align_items="center", padding="0.35em 0.35em 0.3em",
                            background_color=frame, background_image=stripes, min_height="2.3em")
    head = f'<div class="tk-head" style="{head_style}">{cost_html}{name_html}{tokens_html}</div>'

    # -- picture ---------------------------------------------------------------------------
    art_style = _style(box_sizing="border-box", height="6em", margin="0 0.45em", padding="0.5em",
                       background=tint, border=f"0.08em solid {edge}", border_radius="0.2em",
                       overflow="hidden")
    art = f'<div class="tk-art" style="{art_style}">{card_picture(card, pal["art"])}</div>'

    # -- type bar --------------------------------------------------------------------------
    mark, r_bg, r_fg = _RARITY_BADGE.get(card.rarity, (card.rarity, INK, PAPER))
    legacy = ' <span class="tk-legacy" title="Legacy Tool">💾 Legacy</span>' if card.legacy else ""
    theme = COLOR_THEMES.get(card.color, card.color)
    rarity_style = _style(flex="0 0 auto", display="inline-flex", align_items="center",
                          justify_content="center", width="1.35em", height="1.35em",
                          border_radius="50%", background=r_bg, color=r_fg, font_weight="800",
                          font_size="1em", border=f"0.06em solid {INK}")
    typebar_style = _style(display="flex", align_items="center", justify_content="space-between",
                           margin="0.3em 0.45em 0", padding="0.15em 0.4em", background=tint, color=INK,
                           border=f"0.08em solid {edge}", border_radius="0.2em", font_size=f"{SMALLEST_EM}em",
                           font_weight="700", line_height="1.25")
    typebar = (
        f'<div class="tk-typebar" style="{typebar_style}">'
        f'<span><span class="tk-type">{_esc(card.type)}</span>{legacy} · '
        f'<span class="tk-theme" style="font-weight:400">{_esc(theme)}</span></span>'
        f'<span class="tk-rarity" title="{_esc(RARITY_NAMES.get(card.rarity, card.rarity))}" '
        f'style="{rarity_style}">{_esc(mark)}</span></div>'
    )

    # -- text box --------------------------------------------------------------------------
    p_style = _style(margin="0 0 0.35em")
    blocks = []
    if card.rules_text:
        blocks.append(f'<p class="tk-rules" style="{p_style};font-weight:700">{_rules_html(card.rules_text)}</p>')
    if card.definition:
        blocks.append(
            f'<p class="tk-definition" style="{p_style}"><span style="font-weight:700">Definition:</span> '
            f'<span style="font-style:italic">{_esc(card.definition)}</span></p>'
        )
    if card.discuss and discuss:
        disc_style = _style(margin="auto 0 0", padding="0.25em 0.4em", background=PAPER, color=INK,
                            border_left=f"0.3em solid {pal['art']}", border_radius="0.15em")
        blocks.append(
            f'<p class="tk-discuss" style="{disc_style}"><span style="font-weight:700">Discuss:</span> '
            f"{_esc(card.discuss)}</p>"
        )
    text_style = _style(flex="1 1 auto", display="flex", flex_direction="column", overflow="hidden",
                        margin="0.3em 0.45em 0", padding="0.35em 0.45em", background=tint, color=INK,
                        border=f"0.08em solid {edge}", border_radius="0.2em", font_size="0.9em",
                        line_height="1.22")
    textbox = f'<div class="tk-text" style="{text_style}">{"".join(blocks)}</div>'

    # -- footer: CAP / TRU or the set number --------------------------------------------------
    foot_style = _style(display="flex", justify_content="space-between", align_items="center",
                        padding="0.25em 0.45em 0.35em", color=band_text if not stripes else INK,
                        background=frame if not stripes else PAPER, font_size=f"{SMALLEST_EM}em", min_height="1.6em")
    number = f'<span class="tk-number">#{card.number} · Alpha</span>'
    if card.is_system:
        stat = _style(background=PAPER, color=INK, border=f"0.1em solid {INK}", border_radius="0.3em",
                      padding="0.05em 0.4em", font_weight="800", font_size="1.15em")
        stats = (
            f'<span class="tk-stats"><span class="tk-cap" title="Capability" style="{stat}">CAP {card.cap}</span> '
            f'<span class="tk-tru" title="Trust" style="{stat}">TRU {card.tru}</span></span>'
        )
        footer = f'<div class="tk-foot" style="{foot_style}">{number}{stats}</div>'
    else:
        footer = f'<div class="tk-foot" style="{foot_style}">{number}<span></span></div>'

    root_style = _style(
        box_sizing="border-box", position="relative", display="inline-flex", flex_direction="column",
        width="21em", height="29.333em", font_size=f"{root_mm:.3f}mm", vertical_align="top",
        font_family="'Trebuchet MS','DejaVu Sans','Liberation Sans',Arial,sans-serif",
        background=frame, color=band_text, border=f"0.12em solid {edge}", border_radius="0.9em",
        overflow="hidden", text_align="left", margin="0",
    )
    return (
        f'<div class="tk-card tk-{_esc(card.color)} tk-{card.type.lower()}" data-card="{_esc(card.name)}" '
        f'role="group" aria-roledescription="card" aria-label="{_esc(card_aria_label(card, discuss))}" '
        f'style="{root_style}">{head}{art}{typebar}{textbox}{footer}</div>'
    )


# -- printing --------------------------------------------------------------------------------



def _card_repr_html(card: Card) -> str:
    """A Card in a notebook: its card face at :data:`SCREEN_SCALE` (see :func:`render_card`)."""
    return render_card(card, scale=SCREEN_SCALE)


Card._repr_html_ = _card_repr_html  # cards.py holds data only; the drawing is given to it here

def _cards_to_print(cards_or_deck: object, pool: CardPool | None = None) -> list[Card]:
    """Turn a Deck, a CardPool, or a list of Cards / names into a list of Cards (copies kept)."""
    if isinstance(cards_or_deck, Deck):
        cards = list(cards_or_deck)
    elif isinstance(cards_or_deck, CardPool):
        cards = cards_or_deck.cards()
    elif isinstance(cards_or_deck, Card):
        cards = [cards_or_deck]
    elif isinstance(cards_or_deck, (str, bytes)) or isinstance(cards_or_deck, Mapping) or not isinstance(
        cards_or_deck, Iterable
    ):
        raise TypeError(
            "print_sheet needs a Deck or a list of cards or card names, such as "
            f"['Chatbot', 'Sensor'], not {type(cards_or_deck).__name__}."
        )
    else:
        entries = list(cards_or_deck)
        bad = [i + 1 for i, e in enumerate(entries) if not isinstance(e, (Card, str))]
        if bad:
            raise TypeError(
                "print_sheet needs cards or card names; entry "
                + ", ".join(str(i) for i in bad[:5])
                + (" is" if len(bad) == 1 else " are")
                + " something else."
            )
        names = [e for e in entries if isinstance(e, str)]
        if names:
            pool = pool if pool is not None else load_cards()
            Deck.from_names(names, pool=pool)  # reports every unknown name at once (DeckError)
        cards = []
        for e in entries:  # keep the given order; "2x Chatbot" gives two cards
            cards.extend([e] if isinstance(e, Card) else Deck.from_names([e], pool=pool))
    if not cards:
        raise DeckError("There are no cards to print: give at least one card.")
    return cards


_SHEET_CSS = """
body{{margin:0;background:#d9d9d9;font-family:'Trebuchet MS','DejaVu Sans',Arial,sans-serif;color:#1a1a1a}}
.tk-howto{{max-width:190mm;margin:6mm auto;padding:3mm 5mm;background:#ffffff;border-radius:2mm;font-size:11pt;line-height:1.4}}
.tk-page{{width:{pw}mm;height:calc({ph}mm - 1mm);margin:6mm auto;background:#ffffff;box-shadow:0 1mm 4mm rgba(0,0,0,.25);
  box-sizing:border-box;display:flex;align-items:center;justify-content:center;
  break-after:page;page-break-after:always;overflow:hidden}}
.tk-page:last-of-type{{break-after:auto;page-break-after:auto}}
.tk-grid{{position:relative;display:grid;grid-template-columns:repeat(3,{cw}mm);grid-auto-rows:{ch}mm;gap:0;
  outline:0.25mm dashed #6b6b6b}}
.tk-mark{{position:absolute;background:#1a1a1a}}
.tk-cell{{width:{cw}mm;height:{ch}mm;outline:0.25mm dashed #6b6b6b;outline-offset:0;overflow:hidden}}
.tk-cell .tk-card{{border-radius:0 !important}}
@page{{size:{size};margin:0}}
@media print{{
  body{{background:#ffffff}}
  .tk-howto{{display:none}}
  .tk-page{{margin:0;box-shadow:none}}
  *{{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
}}
"""


def _crop_marks(rows: int) -> str:
    """Short black ticks outside the grid where the cut lines meet its edge (aria-hidden)."""
    out = []
    length, thick = 5, 0.3  # mm
    height = rows * CARD_HEIGHT_MM
    for i in range(4):  # column boundaries: ticks above and below
        x = i * CARD_WIDTH_MM - thick / 2
        out.append(f"left:{x}mm;top:-{length + 1}mm;width:{thick}mm;height:{length}mm")
        out.append(f"left:{x}mm;top:{height + 1}mm;width:{thick}mm;height:{length}mm")
    for j in range(rows + 1):  # row boundaries: ticks left and right
        y = j * CARD_HEIGHT_MM - thick / 2
        out.append(f"top:{y}mm;left:-{length + 1}mm;height:{thick}mm;width:{length}mm")
        out.append(f"top:{y}mm;left:{3 * CARD_WIDTH_MM + 1}mm;height:{thick}mm;width:{length}mm")
    return "".join(f'<div class="tk-mark" aria-hidden="true" style="{st}"></div>' for st in out)


def print_sheet(cards_or_deck: Deck | Iterable[Card | str], path: str | os.PathLike,
                paper: str = "A4", title: str | None = None) -> Path:
    """Write one self-contained HTML file that prints the cards at real size, 9 to a page.

    Each card is 63 x 88 mm (poker-card size) in a 3 x 3 grid with dashed cut lines; each
    page of 9 ends with a page break, and ``@media print`` hides the on-screen help. Print at
    100% scale ("actual size", not "fit to page"), with background graphics on.

    Args:
        cards_or_deck: a :class:`~tokens_edu.content.decks.Deck` (every copy prints: 2 copies, 2
            cards), a :class:`~tokens_edu.content.cards.CardPool`, or a list of Cards and/or card names
            (any case; ``"2x Chatbot"`` allowed).
        path: where to write the ``.html`` file (str or path-like). Its folder must exist.
        paper: ``"A4"`` or ``"Letter"`` (any case): the page size the file asks the printer for.
        title: the page title (default: the deck's name, or "Tokens TCG cards").

    Returns:
        pathlib.Path: the file written (absolute).

    Raises:
        TypeError: ``cards_or_deck`` is not a deck or list of cards/names, or ``path`` is not a
            file path. Nothing is written.
        DeckError: a name is not a card (the message suggests close names), or there are no
            cards. Nothing is written.
        ValueError: ``paper`` is not A4 or Letter. Nothing is written.
        FileNotFoundError: the folder of ``path`` does not exist. Nothing is written.
    """
    if not isinstance(path, (str, os.PathLike)) or (isinstance(path, str) and not path.strip()):
        raise TypeError(f"print_sheet needs a file path like 'deck.html', not {type(path).__name__}.")
    key = str(paper).upper() if isinstance(paper, str) else ""
    if key not in _PAGES:
        raise ValueError(f"paper must be 'A4' or 'Letter', not {paper!r}.")
    cards = _cards_to_print(cards_or_deck)
    if title is None:
        title = cards_or_deck.name if isinstance(cards_or_deck, Deck) else "Tokens TCG cards"
    pw, ph = _PAGES[key]
    css = _SHEET_CSS.format(pw=pw, ph=ph, cw=CARD_WIDTH_MM, ch=CARD_HEIGHT_MM,
                            size="A4" if key == "A4" else "letter")
    pages = []
    for start in range(0, len(cards), CARDS_PER_PAGE):
        chunk = cards[start:start + CARDS_PER_PAGE]
        cells = "".join(f'<div class="tk-cell">{render_card(c)}</div>' for c in chunk)
        n = start // CARDS_PER_PAGE + 1
        marks = _crop_marks(rows=(len(chunk) + 2) // 3)
        pages.append(
            f'<section class="tk-page" aria-label="Page {n}"><div class="tk-grid">{cells}{marks}</div></section>'
        )
    n_pages = len(pages)
    howto = (
        f'<div class="tk-howto"><strong>{_esc(title)}</strong>: {_plural(len(cards), "card")} on '
        f"{_plural(n_pages, 'page')}. Print at 100% size (\"actual size\", not \"fit to page\") on "
        f"{'A4' if key == 'A4' else 'US Letter'} paper, with background graphics turned on. "
        "Cut along the dashed lines.</div>"
    )
    doc = (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
        f"<style>{css}</style></head><body>{howto}<main>{''.join(pages)}</main></body></html>\n"
    )
    out = Path(path).expanduser().resolve()
    if not out.parent.is_dir():
        raise FileNotFoundError(f"Cannot write {out.name}: the folder {out.parent} does not exist.")
    tmp = out.with_name(f".{out.name}.tmp")  # write whole, then rename: never a half-written sheet
    try:
        tmp.write_text(doc, encoding="utf-8")
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return out
