// The pixel grid of tokens_edu (anywidget front end of tokens_edu/widgets/pixel_grid.py).
//
// A grid of squares a student draws on: press and drag (mouse, pen or finger) to paint squares
// dark; start on a dark square to rub squares out instead. The keyboard works too: Tab into the
// grid, move with the arrow keys, Space or Enter turns the square dark or light.
// When a stroke ends (or a key turns a square), the whole picture goes to the kernel in the
// `pixels` trait (size*size numbers, 0 light and 1 dark, row by row). The kernel may set
// `pixels` too (Clear, or a drawing to show). No outside requests.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tokens-pixelgrid-inner";
  const grid = document.createElement("div");
  grid.className = "tpg-grid";
  grid.setAttribute("role", "grid");
  grid.tabIndex = 0;
  const tick = document.createElement("span");
  tick.className = "tpg-tick";
  tick.hidden = true;
  root.append(grid, tick);
  el.appendChild(root);

  let size = 0;
  let cells = [];
  let pixels = [];
  let painting = null; // 1 (draw) or 0 (rub out) while a stroke goes on
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

  function cellAt(ev) {
    const hit = document.elementFromPoint(ev.clientX, ev.clientY);
    return hit && hit.classList && hit.classList.contains("tpg-cell") && grid.contains(hit) ? Number(hit.dataset.i) : -1;
  }

  grid.addEventListener("pointerdown", (ev) => {
    if (model.get("disabled")) return;
    const i = cellAt(ev);
    if (i < 0) return;
    ev.preventDefault();
    painting = pixels[i] ? 0 : 1;
    cursor = i;
    paint(i);
  });
  grid.addEventListener("pointermove", (ev) => {
    if (painting === null) return;
    ev.preventDefault();
    paint(cellAt(ev));
  });
  const end = () => {
    if (painting === null) return;
    painting = null;
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
      painting = pixels[cursor] ? 0 : 1;
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
  model.on("change:version", draw);
  model.on("change:label", label);
  return () => {
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
  };
}

export default { render };
