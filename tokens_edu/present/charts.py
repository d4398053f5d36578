"""Small pictures for the learning lessons, as HTML and inline SVG: no widgets, no JavaScript.

- :func:`drawing_svg`: a drawing on a grid as a small picture (lessons 8 and 11).
- :func:`weight_bars`: a learning bot's weights as bars that grow right (it likes more of this)
  or left (it likes less), each with its meaning in plain words and its last change (lesson 10).
- :func:`win_rate_curve`: the win rate after each batch of training games, 0 to 100% (lesson 10).
- :func:`share_bars`: a few labelled shares (win rates, accuracy per group) as bars with the
  numbers written on them.
- :func:`flowchart_svg`: a list of yes/no questions, each with what to do on "yes", as a
  flowchart; :data:`GREEDY_STEPS` is the computer player of lesson 5 (lesson 5).

Every text is escaped; every picture says in words what it shows (``role="img"`` and an
``aria-label``), so a screen reader gets the numbers too. Sizes are CSS pixels.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

__all__ = ["drawing_svg", "weight_bars", "win_rate_curve", "share_bars", "percent", "flowchart_svg",
           "GREEDY_STEPS"]

_INK = "#1f2937"
_GOOD = "#1d6b3a"
_BAD = "#a3262a"
_BLUE = "#1f5fa8"


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def percent(share: float) -> str:
    """A share from 0 to 1 as a whole percent ("67%"); "-" for a missing value."""
    if share is None or share != share:
        return "-"
    return f"{round(share * 100):d}%"


def drawing_svg(pixels, px: int = 48, title: str = "", mark: str = "") -> str:
    """A drawing as a small SVG picture.

    Args:
        pixels: rows of numbers (0 light; 1, or 128 to 255, dark), a list of lists or a 2-D
            array.
        px: the picture's width and height in CSS pixels.
        title: what the picture shows, for screen readers (e.g. "a drawing labelled Flag").
        mark: "" or a border color name: ``"good"`` (green) or ``"bad"`` (red).

    Returns:
        str: an ``<svg>`` element (one path for the dark squares).
    """
    rows = [list(r) for r in pixels]
    h = len(rows)
    w = len(rows[0]) if h else 0
    flat = [v for r in rows for v in r]
    cut = 1 if max(flat, default=0) <= 1 else 128
    path = "".join(f"M{x} {y}h1v1h-1z" for y, r in enumerate(rows) for x, v in enumerate(r) if v >= cut)
    border = {"good": _GOOD, "bad": _BAD}.get(mark, "#8a96a8")
    stroke = 0.35 if mark else 0.15
    return (f'<svg class="tokens-drawing" role="img" aria-label="{_e(title or "a drawing")}" width="{px}" '
            f'height="{px}" viewBox="-0.5 -0.5 {w + 1} {h + 1}" style="background:#fff;vertical-align:middle">'
            f'<rect x="-0.3" y="-0.3" width="{w + 0.6}" height="{h + 0.6}" fill="#fff" stroke="{border}" '
            f'stroke-width="{stroke}"/><path d="{path}" fill="{_INK}"/></svg>')


def weight_bars(rows: Sequence, scale: float | None = None) -> str:
    """Weights as bars around a middle line, with what each one means.

    Args:
        rows: ``(name, meaning, weight, change)`` for each weight: the feature's name, its
            meaning in a student's words, its weight now, and how much the last training
            changed it (None: no change to show).
        scale: the weight that fills half the width (None: the largest weight, at least 1).

    Returns:
        str: an HTML block, one row per weight: the name, a bar right of the middle (green:
        the bot likes more of this) or left (red: it likes less), the weight, ▲/▼ and the change,
        and the meaning under it.
    """
    rows = list(rows)
    big = max([abs(float(w)) for _, _, w, _ in rows] + [1.0]) if scale is None else float(scale)
    out = ['<div class="tokens-weights" style="font-size:14px;line-height:1.3;max-width:640px">']
    for name, meaning, weight, change in rows:
        w = float(weight)
        half = min(50.0, abs(w) / big * 50.0)
        left = 50.0 - half if w < 0 else 50.0
        color = _GOOD if w >= 0 else _BAD
        if change is None or abs(float(change)) < 0.005:
            moved = '<span style="color:#666">no change</span>'
        else:
            c = float(change)
            moved = (f'<span style="color:{_GOOD if c > 0 else _BAD}">{"▲" if c > 0 else "▼"} '
                     f'{abs(c):.2f}</span>')
        out.append(
            f'<div class="tokens-weight" data-feature="{_e(name)}" style="margin:5px 0">'
            f'<div style="display:flex;align-items:center;gap:8px">'
            f'<span style="width:170px;font-weight:bold">{_e(name)}</span>'
            f'<span role="img" aria-label="{_e(name)}: weight {w:+.2f}" style="position:relative;flex:1;'
            f'height:14px;background:#eef1f5;border-radius:3px">'
            f'<span style="position:absolute;left:50%;top:-2px;bottom:-2px;border-left:2px solid #8a96a8"></span>'
            f'<span class="tokens-weight-bar" style="position:absolute;left:{left:.1f}%;width:{half:.1f}%;'
            f'top:2px;bottom:2px;background:{color};border-radius:2px"></span></span>'
            f'<span class="tokens-weight-value" style="width:52px;text-align:right">{w:+.2f}</span>'
            f'<span class="tokens-weight-change" style="width:80px">{moved}</span></div>'
            f'<div style="color:#444;font-size:13px;margin-left:178px">{_e(meaning)}</div></div>')
    out.append("</div>")
    return "".join(out)


def win_rate_curve(points: Sequence, width: int = 460, height: int = 200,
                   label: str = "Win rate after each batch") -> str:
    """A learning curve: the win rate (0 to 100%) after each batch of games.

    Args:
        points: ``(games, win_rate)`` pairs in order: the games played so far and the win rate
            of that batch (0 to 1).
        width, height: the picture's size in CSS pixels.
        label: the title over the picture (and the start of what a screen reader hears).

    Returns:
        str: an HTML block with an SVG line chart (a dot per batch, its percent written over
        it when there are at most 12), or a sentence when there are no points yet.
    """
    points = [(int(g), float(r)) for g, r in points]
    head = f'<div style="font-weight:bold;margin:4px 0">{_e(label)}</div>'
    if not points:
        return f'<div class="tokens-curve">{head}<p style="color:#555">No games yet: the line starts after the first batch.</p></div>'
    left, right, top, bottom = 40, 14, 10, 34
    pw, ph = width - left - right, height - top - bottom
    most = max(g for g, _ in points)

    def xy(g, r):
        return left + (g / most if most else 0) * pw, top + (1 - r) * ph

    said = ", ".join(f"after {g} games {percent(r)}" for g, r in points[-12:])
    svg = [f'<svg role="img" aria-label="{_e(label)}: {_e(said)}" width="{width}" height="{height}" '
           f'style="background:#fff;font-family:sans-serif">']
    for share in (0, 0.25, 0.5, 0.75, 1):
        y = top + (1 - share) * ph
        svg.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#dde3ea"/>'
                   f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" fill="#444">'
                   f'{percent(share)}</text>')
    svg.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" font-size="12" text-anchor="middle" '
               f'fill="#444">games played (0 to {most})</text>')
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(g, r) for g, r in points))
    svg.append(f'<polyline points="{line}" fill="none" stroke="{_BLUE}" stroke-width="2.5"/>')
    for g, r in points:
        x, y = xy(g, r)
        svg.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{_BLUE}"/>')
        if len(points) <= 12:
            svg.append(f'<text x="{x:.1f}" y="{max(11, y - 8):.1f}" font-size="11" text-anchor="middle" '
                       f'fill="{_INK}">{percent(r)}</text>')
    svg.append("</svg>")
    return f'<div class="tokens-curve">{head}{"".join(svg)}</div>'


def share_bars(rows: Sequence, width: int = 260) -> str:
    """Labelled shares as bars: ``(label, share, words)`` each, share from 0 to 1, words what
    is written after the bar (e.g. "12 of 30 right")."""
    out = ['<div class="tokens-shares" style="font-size:14px">']
    for label, share, words in rows:
        fill = 0 if share is None or share != share else max(0.0, min(1.0, float(share)))
        color = _GOOD if fill >= 0.8 else ("#b7791f" if fill >= 0.6 else _BAD)
        out.append(
            f'<div class="tokens-share" style="display:flex;align-items:center;gap:8px;margin:4px 0">'
            f'<span style="width:150px;font-weight:bold">{_e(label)}</span>'
            f'<span role="img" aria-label="{_e(label)}: {percent(share)}" style="display:inline-block;'
            f'width:{width}px;height:16px;background:#eef1f5;border-radius:3px;position:relative">'
            f'<span style="position:absolute;left:0;top:0;bottom:0;width:{fill * 100:.1f}%;background:{color};'
            f'border-radius:3px"></span></span>'
            f'<span style="width:44px;text-align:right;font-weight:bold">{percent(share)}</span>'
            f'<span style="color:#444">{_e(words)}</span></div>')
    out.append("</div>")
    return "".join(out)


#: The questions :class:`~tokens_edu.players.GreedyBot` asks before each move, in its order of
#: preference (its docstring and ``GreedyBot.score``), each with what it does on "yes"; when
#: every answer is "no" it ends its turn. Lesson 5 draws them with :func:`flowchart_svg`.
GREEDY_STEPS = (
    ("Can I train a card?", "Train my weakest card."),
    ("Can I deploy a System?", "Deploy the best one I can pay for."),
    ("Can I deploy or use a helpful Tool?", "Do it."),
    ("Can an Audit knock out a card worth more than I might lose?", "Audit."),
    ("Can a System Run a Task?", "Task with the one that scores most."),
    ("Is there a useful Action?", "Play it."),
)


def _lines(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters, at spaces."""
    out, line = [], ""
    for word in str(text).split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return out + ([line] if line else [])


def flowchart_svg(steps: Sequence = GREEDY_STEPS, last: str = "End my turn.",
                  title: str = "How the bot decides") -> str:
    """A flowchart as an inline SVG picture: each question in a box, "yes" to the right leads
    to what is done, "no" down leads to the next question, and the last box is what is done when
    every answer is "no".

    Args:
        steps: ``(question, action)`` pairs, in the order they are asked (plain text, escaped).
        last: what is done when every answer is "no". title: the picture's name.

    Returns:
        str: a ``<div class="tokens-flowchart">`` holding one ``<svg role="img">`` whose
        ``aria-label`` reads the whole flowchart. The drawing is 620 x (86 per step + 72) px with
        15 px text; on a screen narrower than that it scrolls sideways inside its box (the box
        takes the keyboard focus then), so its text is never drawn under 15 px.

    Raises:
        ValueError: ``steps`` is empty.
    """
    steps = [(str(q), str(a)) for q, a in steps]
    if not steps:
        raise ValueError("A flowchart needs at least one question.")
    width, row, box_h = 620, 86, 52
    qx, qw, ax, aw = 10, 350, 410, 200
    height = 10 + row * len(steps) + box_h + 10
    font = 15

    def text_box(x, y, w, h, text, fill, stroke, chars):
        lines = _lines(text, chars)
        first = y + h / 2 - (len(lines) - 1) * 9 + 5
        spans = "".join(f'<tspan x="{x + w / 2:.0f}" y="{first + i * 18:.0f}">{_e(t)}</tspan>'
                        for i, t in enumerate(lines))
        return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="9" fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
                f'<text text-anchor="middle" font-size="{font}" fill="{_INK}">{spans}</text>')

    parts = []
    for i, (question, action) in enumerate(steps):
        y = 10 + i * row
        parts.append(text_box(qx, y, qw, box_h, question, "#e3f2fd", _BLUE, 44))
        mid = y + box_h / 2
        parts.append(f'<line x1="{qx + qw}" y1="{mid}" x2="{ax - 6}" y2="{mid}" stroke="{_GOOD}" stroke-width="2.5" marker-end="url(#tk-arrow-yes)"/>'
                     f'<text x="{(qx + qw + ax) / 2:.0f}" y="{mid - 7}" text-anchor="middle" font-size="{font}" font-weight="700" fill="{_GOOD}">yes</text>')
        parts.append(text_box(ax, y, aw, box_h, action, "#e8f5e9", _GOOD, 24))
        down = qx + qw / 2
        parts.append(f'<line x1="{down}" y1="{y + box_h}" x2="{down}" y2="{y + row - 6}" stroke="{_BAD}" stroke-width="2.5" marker-end="url(#tk-arrow-no)"/>'
                     f'<text x="{down + 8}" y="{y + box_h + 22}" font-size="{font}" font-weight="700" fill="{_BAD}">no</text>')
    parts.append(text_box(qx, 10 + len(steps) * row, qw, box_h, last, "#fff3e0", "#8a4b00", 44))
    said = " ".join(f"{i + 1}. {q} If yes: {a} If no:" for i, (q, a) in enumerate(steps)) + f" {last}"
    markers = "".join(
        f'<marker id="tk-arrow-{k}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
        f'<path d="M0 0L10 5L0 10z" fill="{c}"/></marker>' for k, c in (("yes", _GOOD), ("no", _BAD)))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{_e(title)}: {_e(said)}" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'style="width:{width}px;height:{height}px;max-width:none;display:block;font-family:sans-serif">'
           f'<title>{_e(title)}</title><defs>{markers}</defs>{"".join(parts)}</svg>')
    return (f'<div class="tokens-flowchart" role="region" tabindex="0" aria-label="{_e(title)} (a flowchart)" '
            f'style="overflow-x:auto;max-width:min(100%, calc(100vw - 48px));padding:4px 0">{svg}</div>')
