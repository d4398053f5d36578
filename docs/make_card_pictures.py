"""Draw every card of the Alpha Set with its picture on one page: docs/img/card-pictures.png.

A contact sheet for checking the pictures by eye (does each one show its card's idea?), made
from the same card faces the gallery and the print sheets use (:func:`tokens_edu.render_card`),
in Debian's Chromium through Playwright, as the browser tests do. Run from the repository root::

    .venv/bin/python docs/make_card_pictures.py [--out docs/img/card-pictures.png] [--scale 0.62]

It prints the file written, its size in pixels and in KiB.
"""

from __future__ import annotations

import argparse
import html
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tokens_edu import load_cards, render_card  # noqa: E402

CHROMIUM = os.environ.get("TOKENS_EDU_CHROMIUM", "/usr/bin/chromium")
COLUMNS = 10


def sheet_html(scale: float) -> str:
    """One HTML page: the 70 card faces in set order, ``COLUMNS`` to a row, each named below."""
    cells = "".join(
        f'<figure>{render_card(card, scale=scale)}<figcaption>{card.number}. {html.escape(card.name)}'
        f'<br><code>{html.escape(card.icon)}</code></figcaption></figure>'
        for card in load_cards().cards()
    )
    css = (
        "body{margin:12px;background:#d9d9d9;font-family:'DejaVu Sans',Arial,sans-serif}"
        f"main{{display:grid;grid-template-columns:repeat({COLUMNS},max-content);gap:10px 8px}}"
        "figure{margin:0;text-align:center}"
        "figcaption{font-size:11px;line-height:1.25;color:#1a1a1a;margin-top:2px;max-width:150px}"
        "code{font-size:10px;color:#37474f}"
    )
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Card pictures</title>'
            f"<style>{css}</style></head><body><main>{cells}</main></body></html>")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "card-pictures.png")
    ap.add_argument("--scale", type=float, default=0.62, help="card size (1 = 63 x 88 mm)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "sheet.html"
        page_file.write_text(sheet_html(args.scale), encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page(viewport={"width": 1200, "height": 800})
                page.goto(page_file.as_uri())
                width = page.evaluate("document.querySelector('main').scrollWidth")
                page.set_viewport_size({"width": int(width) + 24, "height": 800})
                page.locator("body").screenshot(path=str(args.out))
                size = page.evaluate("[document.body.scrollWidth, document.body.scrollHeight]")
            finally:
                browser.close()
    # 128 colors, no dithering: the same to the eye, under half the bytes (Pillow comes with matplotlib)
    from PIL import Image

    with Image.open(args.out) as shot:
        small = shot.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT,
                                             dither=Image.Dither.NONE)
    small.save(args.out, optimize=True)
    print(f"{args.out}: {size[0]} x {size[1]} px, {args.out.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
