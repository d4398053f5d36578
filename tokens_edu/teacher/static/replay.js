// The replay page: buttons, slider, arrow keys and the move list step through a saved game;
// each position is drawn by the lessons' own card table (table/table.js) through a small
// stand-in for the widget's model. Data from the server is shown with textContent only.
"use strict";
(function () {
  const base = document.body.dataset.base || "/";
  const replay = document.querySelector(".replay");
  const status = document.getElementById("live-status");
  if (!replay) return;
  const slider = replay.querySelector(".replay-slider");
  let step = parseInt(replay.dataset.step, 10), length = parseInt(replay.dataset.length, 10);
  let seat = parseInt(replay.dataset.seat, 10);
  const first = JSON.parse(replay.querySelector(".replay-state").textContent);
  const handlers = {};
  const model = {
    values: {state: first.state, palette: first.palette, pictures: first.pictures || {}},
    get(key) { return this.values[key]; },
    set(key, value) { this.values[key] = value; (handlers["change:" + key] || []).forEach(f => f()); },
    on(event, f) { (handlers[event] = handlers[event] || []).push(f); },
    off() {}, send() {}, save_changes() {},
  };
  const board = replay.querySelector(".replay-board");
  import(base + "table/table.js").then(m => m.default.render({model, el: board}))
    .catch(() => { board.textContent = "The table could not be drawn in this browser."; });

  const text = (sel, value) => { replay.querySelector(sel).textContent = value; };
  const show = s => {
    step = s.step; length = s.length; seat = s.seat;
    replay.dataset.step = step; replay.dataset.length = length; replay.dataset.seat = seat;
    slider.max = length; slider.value = step;
    text(".replay-caption", s.caption);
    text(".replay-status", s.status);
    const lines = replay.querySelector(".replay-lines");
    lines.replaceChildren(...s.lines.map(t => { const d = document.createElement("div"); d.textContent = t; return d; }));
    text(".other-name", s.other.name);
    text(".other-count", String(s.other.hand.length));
    const cards = replay.querySelector(".other-cards");
    if (s.other.hand.length) {
      cards.replaceChildren(...s.other.hand.flatMap(c => {
        const chip = document.createElement("span"); chip.className = "chip"; chip.textContent = c;
        return [chip, document.createTextNode(" ")];
      }));
    } else {
      const none = document.createElement("i"); none.textContent = "empty"; cards.replaceChildren(none);
    }
    replay.querySelectorAll("button[data-seat]").forEach(b =>
      b.setAttribute("aria-pressed", String(parseInt(b.dataset.seat, 10) === seat)));
    model.set("state", s.state);
  };
  let busy = Promise.resolve();
  // `want`: a step, "end", or a function giving the step when its turn comes (a live update
  // stays on the step the teacher is looking at then, even after a click queued before it)
  const showStep = (want, follow) => {
    busy = busy.then(() => fetch(window.location.pathname + "?fragment=1&seat=" + seat + "&step=" +
                                 encodeURIComponent(typeof want === "function" ? want() : want),
                                 {credentials: "same-origin"}))
      .then(r => { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(s => {
        const atEnd = step === length;
        if (follow && atEnd && s.step < s.length) { step = s.step; length = s.length; return showStep("end"); }
        show(s);
      })
      .catch(() => { if (status) status.textContent = "Could not load that move. Try again."; });
    return busy;
  };
  replay.querySelectorAll("button[data-go]").forEach(b => b.addEventListener("click", () => {
    const go = b.dataset.go;
    showStep(go === "start" ? 0 : go === "end" ? "end" : step + (go === "forward" ? 1 : -1));
  }));
  replay.querySelectorAll("button[data-seat]").forEach(b => b.addEventListener("click", () => {
    seat = parseInt(b.dataset.seat, 10); showStep(step);
  }));
  slider.addEventListener("input", () => showStep(slider.value));
  document.addEventListener("keydown", e => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") && e.target !== slider) return;
    if (e.key === "ArrowRight") { showStep(step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { showStep(step - 1); e.preventDefault(); }
  });
  replay.querySelectorAll("a[data-step]").forEach(a => a.addEventListener("click", e => {
    e.preventDefault(); showStep(a.dataset.step);
  }));
  // dashboard.js calls this when the game changed (a student still playing it)
  window.tokensReplay = {refresh: () => showStep(() => step, true)};
})();
