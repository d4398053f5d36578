"""The card table's front end (widgets/static/table.js and table.css) in a plain page, without a
kernel: a stand-in for anywidget's model holds the state the presenter made, and what the page
sends is kept in ``window.__sent``. For quick browser tests of the drawing (faces, moves under
the cards, focus, keys) and for screenshots while designing.

    html = table_page([view.table.state], palette, pictures)
    page.set_content(html); page.locator(".tokens-table .tt-side-bottom").first.wait_for()
    page.evaluate("s => window.__setState(s)", new_state)   # the kernel's next drawing
"""

from __future__ import annotations

import json
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "tokens_edu" / "widgets" / "static"

_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Card table</title>
<style>body {{ margin: 8px; font-family: sans-serif; }} {css}</style></head>
<body><main><div id="host"></div></main>
<script type="module">
{js}
const data = {data};
const handlers = {{}};
window.__sent = [];
const model = {{
  values: {{ state: data.states[0], palette: data.palette, pictures: data.pictures }},
  get(k) {{ return this.values[k]; }},
  set(k, v) {{ this.values[k] = v; (handlers["change:" + k] || []).forEach((f) => f()); }},
  on(ev, f) {{ (handlers[ev] = handlers[ev] || []).push(f); }},
  send(msg) {{ window.__sent.push(msg); }},
}};
window.__setState = (s) => model.set("state", s);
window.__table.render({{ model, el: document.getElementById("host") }});
</script></body></html>"""


def table_page(states: list[dict], palette: dict, pictures: dict) -> str:
    """A whole HTML page drawing ``states[0]`` with the real table.js and table.css."""
    js = (STATIC / "table.js").read_text(encoding="utf-8").replace("export default { render };",
                                                                  "window.__table = { render, faceHtml };")
    data = json.dumps({"states": states, "palette": palette, "pictures": pictures}).replace("</", "<\\/")
    return _PAGE.format(css=(STATIC / "table.css").read_text(encoding="utf-8"), js=js, data=data)
