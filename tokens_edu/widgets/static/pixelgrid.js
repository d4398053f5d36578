// The pixel grid of tokens_edu (anywidget front end of tokens_edu/widgets/pixel_grid.py).
//
// A grid of squares a student draws on: press and drag (mouse, pen or finger) to paint squares.
// The Draw / Rub out switch above the grid says what a stroke does (the `erase` trait): Draw
// makes squares dark, wherever the stroke starts (a Flag's pole drawn across its flag stays);
// Rub out makes them light. A fast stroke's points are joined into a line (Bresenham's line
// between each point and the one before), so no square is skipped. The keyboard works too: Tab
// into the grid, move with the arrow keys, Space or Enter draws (or rubs out) the square.
// When a stroke ends (or a key turns a square), the whole picture goes to the kernel in the
// `pixels` trait (size*size numbers, 0 light and 1 dark, row by row). The kernel may set
// `pixels` too (Clear, or a drawing to show). No outside requests.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tokens-pixelgrid-inner";
  const modes = document.createElement("div");
  modes.className = "tpg-modes";
  modes.setAttribute("role", "group");
  modes.setAttribute("aria-label", "What a stroke does");
  const drawButton = document.createElement("button");
  drawButton.type = "button";
  drawButton.className = "tpg-mode tpg-mode-draw";
  drawButton.textContent = "✏️ Draw";
  const rubButton = document.createElement("button");
  rubButton.type = "button";
  rubButton.className = "tpg-mode tpg-mode-rub";
  rubButton.textContent = "🧽 Rub out";
  modes.append(drawButton, rubButton);
  const grid = document.createElement("div");
  grid.className = "tpg-grid";
  grid.setAttribute("role", "grid");
  grid.tabIndex = 0;
  const tick = document.createElement("span");
  tick.className = "tpg-tick";
  tick.hidden = true;
  root.append(modes, grid, tick);
  el.appendChild(root);

  let size = 0;
  let cells = [];
  let pixels = [];
  let painting = null; // 1 (draw) or 0 (rub out) while a stroke goes on
  let last = -1; // the square the stroke was on at the last point (-1: off the grid)
  let changed = false;
  let cursor = 0;

  function label() {
    grid.setAttribute("aria-label", model.get("label") || "Drawing grid");
  }

  function build() {
    size = model.get("size");
    grid.style.setProperty("--tpg-size", size);
    grid.style.setProperty("--tpg-cell", `${model.get("cell")}px`);
    grid.replaceChildren();
    cells = [];
    for (let i = 0; i < size * size; i++) {
      const c = document.createElement("div");
      c.className = "tpg-cell";
      c.dataset.i = String(i);
      grid.appendChild(c);
      cells.push(c);
    }
    label();
  }

  function draw() {
    const from = model.get("pixels") || [];
    if (model.get("size") !== size) build();
    pixels = cells.map((_, i) => (from[i] ? 1 : 0));
    cells.forEach((c, i) => c.classList.toggle("tpg-on", pixels[i] === 1));
    cells.forEach((c, i) => c.classList.toggle("tpg-cursor", i === cursor && grid.matches(":focus-visible")));
    grid.classList.toggle("tpg-disabled", !!model.get("disabled"));
    const erase = !!model.get("erase");
    drawButton.setAttribute("aria-pressed", String(!erase));
    rubButton.setAttribute("aria-pressed", String(erase));
    drawButton.disabled = rubButton.disabled = !!model.get("disabled");
    grid.classList.toggle("tpg-erasing", erase);
    tick.textContent = String(model.get("version") || 0) + ":" + pixels.reduce((a, b) => a + b, 0);
  }

  function send() {
    if (!changed) return;
    changed = false;
    model.set("pixels", pixels.slice());
    model.save_changes();
  }

  function paint(i) {
    if (i < 0 || i >= cells.length || pixels[i] === painting) return;
    pixels[i] = painting;
    cells[i].classList.toggle("tpg-on", painting === 1);
    changed = true;
  }

  // Every square on the line from square a to square b (Bresenham's line algorithm), both ends
  // included: a fast stroke sends points far apart, and the squares between are drawn too.
  function line(a, b) {
    let x0 = a % size, y0 = Math.floor(a / size);
    const x1 = b % size, y1 = Math.floor(b / size);
    const dx = Math.abs(x1 - x0), dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    const out = [];
    for (;;) {
      out.push(y0 * size + x0);
      if (x0 === x1 && y0 === y1) return out;
      const e2 = 2 * err;
      if (e2 >= dy) { err += dy; x0 += sx; }
      if (e2 <= dx) { err += dx; y0 += sy; }
    }
  }

  function strokeTo(i) {
    if (i < 0) { last = -1; return; } // off the grid: the next point starts a new line
    if (last < 0 || last === i) paint(i);
    else line(last, i).forEach(paint);
    last = i;
  }

  function setMode(erase) {
    if (model.get("disabled")) return;
    model.set("erase", erase);
    model.save_changes();
    draw();
  }
  drawButton.addEventListener("click", () => setMode(false));
  rubButton.addEventListener("click", () => setMode(true));

  function cellAt(ev) {
    const hit = document.elementFromPoint(ev.clientX, ev.clientY);
    return hit && hit.classList && hit.classList.contains("tpg-cell") && grid.contains(hit) ? Number(hit.dataset.i) : -1;
  }

  grid.addEventListener("pointerdown", (ev) => {
    if (model.get("disabled")) return;
    const i = cellAt(ev);
    if (i < 0) return;
    ev.preventDefault();
    painting = model.get("erase") ? 0 : 1; // the switch decides, not the square the stroke starts on
    cursor = i;
    last = -1;
    strokeTo(i);
  });
  grid.addEventListener("pointermove", (ev) => {
    if (painting === null) return;
    ev.preventDefault();
    const points = typeof ev.getCoalescedEvents === "function" ? ev.getCoalescedEvents() : [];
    (points.length ? points : [ev]).forEach((p) => strokeTo(cellAt(p)));
  });
  const end = () => {
    if (painting === null) return;
    painting = null;
    last = -1;
    send();
  };
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
  grid.addEventListener("keydown", (ev) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -size, ArrowDown: size };
    if (ev.key in moves) {
      const next = cursor + moves[ev.key];
      const sameRow = Math.abs(moves[ev.key]) !== 1 || Math.floor(next / size) === Math.floor(cursor / size);
      if (next >= 0 && next < size * size && sameRow) cursor = next;
      ev.preventDefault();
      draw();
    } else if ((ev.key === " " || ev.key === "Enter") && !model.get("disabled")) {
      painting = model.get("erase") ? 0 : 1;
      paint(cursor);
      painting = null;
      send();
      ev.preventDefault();
    }
  });
  grid.addEventListener("focus", draw);
  grid.addEventListener("blur", draw);

  build();
  draw();
  model.on("change:pixels", draw);
  model.on("change:size", () => { build(); draw(); });
  model.on("change:cell", () => { build(); draw(); });
  model.on("change:disabled", draw);
  model.on("change:erase", draw);
  model.on("change:version", draw);
  model.on("change:label", label);
  return () => {
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
  };
}

export default { render };
