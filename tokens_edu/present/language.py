"""What lesson 12's page shows of a next-word model, as HTML: no widgets, no JavaScript.

- :func:`token_chips`: a text's tokens, one box each, numbered.
- :func:`chance_chips`: tokens written one by one, each with the chance it had.
- :func:`chance_table`: the count table for one context with a bar for each chance (the counts
  divided by their total), a student's guess marked, new counts marked.
- :func:`pieces_html`: a sentence coloured by the learned sentences each part came from, the
  seams marked.
- :func:`writing_html`: the start of a sentence and the tokens written after it.

Every text is escaped; every bar says its numbers in words (``role="img"`` and an
``aria-label``), so a screen reader gets them too. Colours keep a contrast of 4.5:1 or more.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

__all__ = ["token_chips", "chance_chips", "chance_table", "pieces_html", "writing_html", "quote", "percent"]

_INK = "#1f2937"
_BAR = "#1f5fa8"
_MARK = "#8a4b00"
_NEW = "#1d6b3a"
#: Light backgrounds of the pieces of a sentence, in turn (text stays #1f2937 on each).
_PIECE_COLORS = ("#dbeafe", "#fde68a", "#d1fae5", "#fbcfe8", "#e5e7eb")


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def percent(share: float) -> str:
    """A chance from 0 to 1 as a percent: whole numbers ("67%"), one decimal under 10 ("4.5%"),
    "<0.1%" for a tiny one above 0."""
    value = share * 100
    if value == 0 or value >= 9.95:
        return f"{value:.0f}%"
    return "<0.1%" if value < 0.05 else f"{value:.1f}%"


def quote(words: Sequence[str] | str) -> str:
    """Tokens (or a text) in curly quotes, for a student: ``“is a”``; ``(nothing)`` for none."""
    text = words if isinstance(words, str) else " ".join(words)
    return f"“{text}”" if text else "(nothing)"


def token_chips(words: Sequence[str]) -> str:
    """``words`` as a row of boxes, each numbered under it (1, 2, 3...).

    Returns:
        str: an HTML block; a screen reader hears "N tokens: the, sun, ...".
    """
    words = list(words)
    if not words:
        return '<p class="tokens-lm-chips" style="color:#555;margin:4px 0">No tokens yet: type a sentence.</p>'
    chips = "".join(
        f'<span style="display:inline-flex;flex-direction:column;align-items:center;margin:2px">'
        f'<span style="border:1px solid #6b7a90;border-radius:4px;padding:1px 7px;background:#fff;'
        f'font-family:monospace;font-size:15px;color:{_INK}">{_e(w)}</span>'
        f'<span style="font-size:11px;color:#4b5563">{i}</span></span>'
        for i, w in enumerate(words, 1))
    said = f"{len(words)} token{'s' if len(words) != 1 else ''}: " + ", ".join(words)
    return (f'<div class="tokens-lm-chips" role="group" aria-label="{_e(said)}" '
            f'style="display:flex;flex-wrap:wrap;align-items:flex-start">{chips}</div>'
            f'<p style="margin:2px 0;font-size:14px"><strong>{len(words)}</strong> '
            f'token{"s" if len(words) != 1 else ""}</p>')


def chance_chips(steps: Sequence[tuple[str, float]], title: str) -> str:
    """Tokens written one by one, each in a box with the chance it had under it.

    Args:
        steps: ``(token, chance)`` pairs in the order written (chance 0 to 1).
        title: what the row shows (a heading over it, and the start of what a screen reader hears).

    Returns:
        str: an HTML block.
    """
    chips = "".join(
        f'<span style="display:inline-flex;flex-direction:column;align-items:center;margin:2px">'
        f'<span style="border:1px solid #6b7a90;border-radius:4px;padding:1px 7px;background:#fff;'
        f'font-family:monospace;font-size:15px;color:{_INK}">{_e(w)}</span>'
        f'<span style="font-size:12px;color:#374151">{percent(p)}</span></span>' for w, p in steps)
    said = f"{title}: " + ", ".join(f"{w} {percent(p)}" for w, p in steps)
    return (f'<p style="margin:4px 0 0;font-weight:bold">{_e(title)}</p>'
            f'<div class="tokens-lm-chances" role="group" aria-label="{_e(said)}" '
            f'style="display:flex;flex-wrap:wrap;align-items:flex-start">{chips}</div>')


def chance_table(counts: Mapping[str, int], context: Sequence[str], guess: str = "",
                 new: Mapping[str, int] | None = None, chances: Sequence[tuple[str, float]] | None = None,
                 most: int = 10, width: int = 200) -> str:
    """The count table behind one guess, with a bar for each chance.

    Args:
        counts: token -> times it came after ``context`` (the biggest first, as
            :meth:`~tokens_edu.lab.language.NextWordModel.counts` gives them).
        context: the tokens it came after (for the caption; ``()`` means "any token").
        guess: a student's guess, marked in its row (or said to be missing) ("" for none).
        new: token -> how many of its times are new (from the class's sentences), shown as "+n".
        chances: ``(token, chance)`` to draw instead of count / total (the writing step's
            "surprise"); None: each count divided by the total.
        most: rows shown at most; the others are summed in one last row.
        width: the bars' full width in CSS pixels (a chance of 1).

    Returns:
        str: an HTML ``<table>`` with columns Next token, Times, Chance.
    """
    total = sum(counts.values())
    shares = dict(chances) if chances is not None else {t: (n / total if total else 0.0) for t, n in counts.items()}
    order = list(counts) if chances is None else [t for t, _ in chances]
    new = dict(new or {})
    after = f"after {quote(context)}" if context else "in all the sentences (any token)"
    rows = []
    for token in order[:most]:
        share, times = shares.get(token, 0.0), counts.get(token, 0)
        mine = guess and token == guess
        plus = (f' <span class="tokens-lm-new" style="color:{_NEW};font-weight:bold">+{new[token]} new</span>'
                if new.get(token) else "")
        label = f"{token}: {times} of {total} times, chance {percent(share)}"
        row_class = "tokens-lm-row tokens-lm-guess" if mine else "tokens-lm-row"
        row_style = ' style="background:#fff4e0"' if mine else ""
        yours = (f' <span style="color:{_MARK};font-family:sans-serif;font-size:13px">(your guess)</span>'
                 if mine else "")
        rows.append(
            f'<tr class="{row_class}" data-token="{_e(token)}"{row_style}>'
            f'<td style="font-family:monospace;font-size:15px;padding:1px 8px">{_e(token)}{yours}</td>'
            f'<td style="text-align:right;padding:1px 8px">{times}{plus}</td>'
            f'<td style="padding:1px 8px"><span role="img" aria-label="{_e(label)}" style="display:inline-block;'
            f'vertical-align:middle;width:{width}px;height:14px;background:#eef1f5;border-radius:3px;position:relative">'
            f'<span style="position:absolute;left:0;top:0;bottom:0;width:{share * 100:.1f}%;background:{_BAR};'
            f'border-radius:3px"></span></span> <strong>{percent(share)}</strong></td></tr>')
    if len(order) > most:
        rest = order[most:]
        times = sum(counts.get(t, 0) for t in rest)
        share = sum(shares.get(t, 0.0) for t in rest)
        rows.append(f'<tr class="tokens-lm-rest"><td style="padding:1px 8px">{len(rest)} more tokens</td>'
                    f'<td style="text-align:right;padding:1px 8px">{times}</td><td style="padding:1px 8px">'
                    f'<strong>{percent(share)}</strong> together</td></tr>')
    missing = ""
    if guess and guess not in counts:
        missing = (f'<p class="tokens-lm-missing" style="margin:4px 0;color:{_MARK}">Your guess {quote(guess)} '
                   f'never came {after}: its chance is 0%.</p>')
    caption = (f'<caption style="text-align:left;font-weight:bold;padding:2px 0">What came {after}: '
               f'{total} time{"s" if total != 1 else ""} in all</caption>')
    return (f'<table class="tokens-lm-table" style="border-collapse:collapse;font-size:14px;color:{_INK};margin:4px 0">'
            f'{caption}<thead><tr><th scope="col" style="text-align:left;padding:1px 8px">Next token</th>'
            f'<th scope="col" style="text-align:right;padding:1px 8px">Times</th>'
            f'<th scope="col" style="text-align:left;padding:1px 8px">Chance</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{missing}')


def pieces_html(words: Sequence[str], pieces: Sequence) -> str:
    """A sentence coloured by where its parts came from, and the sentences they came from.

    Args:
        words: the sentence's tokens.
        pieces: :class:`~tokens_edu.lab.language.Piece` values for ``words`` (``start``, ``tokens``,
            ``sentence``), as :meth:`~tokens_edu.lab.language.NextWordModel.pieces` gives them.

    Returns:
        str: an HTML block: the tokens, each coloured by the first piece that covers it, a
        ``|`` mark before each seam (the first token a new piece adds), then one line per piece:
        its colour, its words and the learned sentence they came from.
    """
    words = list(words)
    owner = [None] * len(words)
    for n, piece in enumerate(pieces):
        for i in range(piece.start, piece.start + len(piece.tokens)):
            if owner[i] is None:
                owner[i] = n
    spans = []
    for i, w in enumerate(words):
        n = owner[i] if owner[i] is not None else 0
        seam = i > 0 and owner[i] != owner[i - 1]
        if seam:
            spans.append(f'<span class="tokens-lm-seam" aria-label="seam" style="color:{_MARK};font-weight:bold">|</span>')
        spans.append(f'<span data-piece="{n}" style="background:{_PIECE_COLORS[n % len(_PIECE_COLORS)]};'
                     f'padding:1px 3px;border-radius:3px;font-family:monospace;font-size:15px">{_e(w)}</span>')
    lines = []
    for n, piece in enumerate(pieces):
        source = (f"from: {_e(piece.sentence)}" if piece.sentence is not None
                  else "a word it never read: it comes from the start you typed")
        lines.append(f'<li><span style="background:{_PIECE_COLORS[n % len(_PIECE_COLORS)]};padding:0 4px;'
                     f'border-radius:3px">{_e(" ".join(piece.tokens))}</span> {source}</li>')
    return (f'<div class="tokens-lm-pieces" style="color:{_INK};font-size:14px">'
            f'<p style="margin:4px 0;line-height:1.9">{" ".join(spans)}</p>'
            f'<ol style="margin:2px 0 4px 18px;padding:0">{"".join(lines)}</ol></div>')


def writing_html(prompt: Sequence[str], written: Sequence[str]) -> str:
    """The start a student gave (plain) and the tokens written after it (bold and underlined)."""
    start = " ".join(_e(w) for w in prompt)
    more = " ".join(f'<strong style="text-decoration:underline">{_e(w)}</strong>' for w in written)
    return (f'<p class="tokens-lm-writing" style="font-size:17px;margin:4px 0;color:{_INK};font-family:monospace">'
            f'{start} {more}</p>')
