// The writing part of the Discuss box (anywidget front end of tokens_edu/widgets/discuss.py).
//
// What it promises a student:
// * Save sends the text exactly as shown at the click, and the box says "Saved" only when the
//   kernel confirms that this very text was stored (its `ack` and `saved_text`).
// * A draft is sent a moment after typing stops; the kernel keeps it (not as an answer).
// * Leaving the page with text that is not saved asks first.
// * If the kernel or the server is gone, within a few seconds the page says "Lost contact with
//   the lesson server..." (one banner for the page, and on every box), and Save says it did not
//   save. When contact comes back, the banner goes. A kernel that is busy working (its
//   connection up) gets 30 s before its silence counts as lost.
// Everything typed is shown as text (textContent), never as HTML. No outside requests.

const LOST_TEXT = "Lost contact with the lesson server. Your text is still in the box: copy it, then reload.";
// An answer's length in characters, counted as the kernel counts them (Python's len(): one per
// Unicode code point, so an emoji is one character, not two UTF-16 units as String.length says).
const chars = (text) => { let n = 0; for (const _ of String(text)) n++; return n; };

// --- one contact watch and one "leave the page?" guard per page, shared by every box -------------
function contact() {
  if (window.__tokensEduContact) return window.__tokensEduContact;
  const c = {
    boxes: new Set(), // {model, dirty(), setLost(bool)}
    lastPong: Date.now(),
    n: 0,
    lost: false,
    banner: null,
    timer: null,
    guarded: false,
    deferred: [], // Voila's "page closed" steps, held back while we ask whether to leave
  };
  window.__tokensEduContact = c;
  const anyDirty = () => [...c.boxes].some((b) => b.dirty());

  // Voila 0.5's own beforeunload listener (registered before any widget, so it runs before ours)
  // tells the server to stop the kernel and closes the kernel's connection. When we are about
  // to ask "leave this page?" that must wait: if the student stays, the page must keep working.
  // So while a box holds unsaved text, Voila's shutdown call and the connection's dispose()
  // are held back until the page really goes (pagehide). Drop this when Voila stops the
  // kernel on pagehide itself.
  c.guard = (model) => {
    if (c.guarded) return;
    const wm = model.widget_manager;
    const kernel = wm && wm.kernel;
    if (!kernel || typeof kernel.dispose !== "function" || !navigator.sendBeacon) return;
    c.guarded = true;
    const dispose = kernel.dispose.bind(kernel);
    kernel.dispose = () => (anyDirty() ? c.deferred.push(dispose) : dispose());
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      if (String(url).includes("/voila/api/shutdown/") && anyDirty()) {
        c.deferred.push(() => beacon(url, data));
        return true;
      }
      return beacon(url, data);
    };
  };

  function settings() {
    for (const b of c.boxes) return { ping: b.model.get("ping_ms") || 1500, lost: b.model.get("lost_ms") || 6000 };
    return { ping: 1500, lost: 6000 };
  }

  function showBanner(on) {
    if (on && !c.banner) {
      const div = document.createElement("div");
      div.className = "tokens-lost-contact";
      div.setAttribute("role", "alert");
      div.textContent = LOST_TEXT;
      document.body.appendChild(div);
      c.banner = div;
    } else if (!on && c.banner) {
      c.banner.remove();
      c.banner = null;
    }
  }

  function setLost(on) {
    if (c.lost === on) return;
    c.lost = on;
    showBanner(on);
    for (const b of c.boxes) b.setLost(on);
  }

  c.pong = () => { c.lastPong = Date.now(); setLost(false); };

  // A kernel that is working (a long cell, a computer player thinking) cannot answer pings
  // until it is done: while its connection is up and it says it is busy, silence is allowed
  // for BUSY_MS before the page calls contact lost (a server that stops closes the connection;
  // a kernel that dies while idle stays "idle" and is caught after lost_ms as before).
  const BUSY_MS = 30000;
  function working() {
    for (const b of c.boxes) {
      const k = b.model.widget_manager && b.model.widget_manager.kernel;
      return !!k && k.connectionStatus === "connected" && k.status === "busy";
    }
    return false;
  }

  function tick() {
    const s = settings();
    if (document.visibilityState === "visible" && c.boxes.size) {
      if (Date.now() - c.lastPong > (working() ? Math.max(s.lost, BUSY_MS) : s.lost)) setLost(true);
      // one ping for the page: every box talks to the same kernel
      for (const b of c.boxes) {
        try { b.model.send({ type: "ping", n: ++c.n }); } catch (e) { /* the socket is gone */ }
        break;
      }
    }
    c.timer = setTimeout(tick, s.ping);
  }
  c.timer = setTimeout(tick, 500);
  document.addEventListener("visibilitychange", () => {
    // timers sleep in a hidden tab: do not count that time as silence
    if (document.visibilityState === "visible") c.lastPong = Date.now();
  });

  // Leaving with unsaved text: ask first.
  window.addEventListener("beforeunload", (e) => {
    if (!anyDirty()) return;
    e.preventDefault();
    e.returnValue = "";
    return "";
  });
  // The page really goes: what Voila wanted to do now happens (if the student stayed earlier
  // and Voila does it again on the way out, the second shutdown call is a harmless 404).
  window.addEventListener("pagehide", () => {
    for (const f of c.deferred.splice(0)) {
      try { f(); } catch (err) { /* nothing more to do on the way out */ }
    }
  });
  return c;
}

// The lesson page's parts as landmarks (Voila's page has none): the cells are the page's main
// content. The card table (table.js) does the same; whichever widget draws first does it.
function markPage() {
  const cells = document.getElementById("rendered_cells");
  if (cells && !cells.getAttribute("role") && !document.querySelector("main, [role=main]")) {
    cells.setAttribute("role", "main");
    cells.setAttribute("aria-label", document.title || "Lesson");
  }
  if (!document.documentElement.getAttribute("lang")) document.documentElement.setAttribute("lang", "en");
}

function render({ model, el }) {
  markPage();
  const c = contact();
  const root = document.createElement("div");
  root.className = "tokens-discuss-write";
  const area = document.createElement("div");
  area.className = "tokens-discuss-answer";
  const ta = document.createElement("textarea");
  ta.rows = 5;
  ta.placeholder = model.get("placeholder") || "Write your answer here.";
  ta.setAttribute("aria-label", model.get("label") || "Your answer");
  ta.value = model.get("value") || "";
  area.appendChild(ta);
  const count = document.createElement("div");
  count.className = "tokens-discuss-count";
  count.setAttribute("aria-live", "polite");
  const row = document.createElement("div");
  row.className = "tokens-discuss-row";
  const save = document.createElement("button");
  save.type = "button";
  save.className = "tokens-discuss-save";
  save.textContent = "Save";
  const status = document.createElement("span");
  status.className = "tokens-discuss-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  row.append(save, status);
  const note = document.createElement("div");
  note.className = "tokens-discuss-note";
  root.append(area, count, row, note);
  el.appendChild(root);

  const ui = { seq: 0, pending: null, draftTimer: null, saveTimer: null, lastDraft: null, lost: false, local: null,
    dirtySent: false };

  const savedText = () => model.get("saved_text") || "";
  const dirty = () => ta.value.trim() !== "" && ta.value !== savedText();

  function setStatus(text, kind) {
    status.textContent = text || "";
    status.dataset.kind = kind || "";
  }

  function showState() {
    root.classList.remove("tokens-discuss-saved", "tokens-discuss-draft", "tokens-discuss-unsaved",
      "tokens-discuss-empty", "tokens-discuss-lost");
    let state;
    if (ui.lost) state = "lost";
    else if (!ta.value.trim()) state = "empty";
    else if (!dirty()) state = "saved";
    else if (model.get("draft_text") === ta.value) state = "draft";
    else state = "unsaved";
    root.classList.add(`tokens-discuss-${state}`);
    // Tell the kernel at once when the box starts or stops holding unsaved words (no waiting for
    // the draft): the game then offers a new card's question instead of replacing this box.
    const d = dirty();
    if (d !== ui.dirtySent) {
      ui.dirtySent = d;
      try { model.send({ type: "dirty", dirty: d }); } catch (e) { /* lost: the watch says so */ }
    }
    save.textContent = state === "saved" ? "Saved \u2713" : "Save";
    if (ui.lost) note.textContent = LOST_TEXT;
    else if (state === "draft") note.textContent = `Draft kept at ${model.get("draft_at")}: it is not saved yet. Press Save when your answer is ready.`;
    else if (state === "unsaved" && savedText()) note.textContent = "You changed your answer since you saved it. Press Save to save the new words.";
    else note.textContent = "";
  }

  function count_() {
    const n = chars(ta.value);
    const max = model.get("max_length") || 5000;
    const from = model.get("count_from") || 4000;
    count.classList.toggle("tokens-discuss-too-long", n > max);
    if (n > max) count.textContent = `Too long: ${n.toLocaleString("en")} of ${max.toLocaleString("en")} characters. Make it shorter to save.`;
    else if (n > from) count.textContent = `${n.toLocaleString("en")} of ${max.toLocaleString("en")} characters`;
    else count.textContent = "";
  }

  function sendDraft() {
    ui.draftTimer = null;
    const text = ta.value;
    if (ui.lost || text === ui.lastDraft || text === savedText()) return;
    ui.lastDraft = text;
    try { model.send({ type: "draft", text, seq: ++ui.seq }); } catch (e) { /* lost: the watch says so */ }
  }

  ta.addEventListener("input", () => {
    count_();
    showState();
    clearTimeout(ui.draftTimer);
    ui.draftTimer = setTimeout(sendDraft, model.get("draft_ms") || 1200);
  });
  ta.addEventListener("blur", () => { if (ui.draftTimer) { clearTimeout(ui.draftTimer); sendDraft(); } });

  function notSaved(why) {
    ui.pending = null;
    setStatus(why, "bad");
    showState();
  }

  function doSave() {
    const text = ta.value;
    const max = model.get("max_length") || 5000;
    if (chars(text) > max) {
      notSaved(`Your answer is too long to save: ${chars(text).toLocaleString("en")} characters. The most is ${max.toLocaleString("en")}. Make it shorter, then save.`);
      return;
    }
    if (ui.lost) { notSaved("Not saved: " + LOST_TEXT); return; }
    clearTimeout(ui.draftTimer);
    ui.draftTimer = null;
    const seq = ++ui.seq;
    ui.pending = { seq, text };
    setStatus("Saving\u2026", "info");
    root.classList.add("tokens-discuss-saving");
    clearTimeout(ui.saveTimer);
    ui.saveTimer = setTimeout(() => {
      if (ui.pending && ui.pending.seq === seq) {
        root.classList.remove("tokens-discuss-saving");
        notSaved(ui.lost ? "Not saved: " + LOST_TEXT
          : "Not saved yet: the lesson server did not answer. Your text is still in the box: try Save again.");
      }
    }, model.get("save_timeout_ms") || 10000);
    try {
      model.send({ type: "save", text, seq });
    } catch (e) {
      clearTimeout(ui.saveTimer);
      root.classList.remove("tokens-discuss-saving");
      notSaved("Not saved: " + LOST_TEXT);
    }
  }
  save.addEventListener("click", doSave);
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); doSave(); }
  });

  // The kernel answers by setting traits in one update: ack (the seq it handled), status...
  function onKernel() {
    const ack = model.get("ack") || 0;
    if (ui.pending && ack >= ui.pending.seq) {
      clearTimeout(ui.saveTimer);
      root.classList.remove("tokens-discuss-saving");
      const ok = model.get("status_kind") === "ok" && savedText() === ui.pending.text;
      ui.pending = null;
      setStatus(model.get("status"), ok ? "ok" : "bad");
    } else if (!ui.pending) {
      setStatus(model.get("status"), model.get("status_kind"));
    }
    showState();
  }
  model.on("change:ack", onKernel);
  model.on("change:status", () => { if (!ui.pending) onKernel(); });
  model.on("change:draft_at", showState);
  // Text the kernel puts in the box (a saved answer found after the name was typed): only when
  // the student has not typed anything the kernel has not seen.
  let known = ta.value;
  model.on("change:value", () => {
    const v = model.get("value") || "";
    if (ta.value === known || !ta.value.trim()) {
      ta.value = v;
      count_();
    }
    known = v;
    showState();
  });
  model.on("msg:custom", (msg) => { if (msg && msg.type === "pong") c.pong(); });

  const me = {
    model,
    dirty,
    setLost(on) {
      ui.lost = on;
      if (on && ui.pending) {
        clearTimeout(ui.saveTimer);
        root.classList.remove("tokens-discuss-saving");
        notSaved("Not saved: " + LOST_TEXT);
      }
      showState();
    },
  };
  c.boxes.add(me);
  c.guard(model);
  if (c.lost) me.setLost(true);
  setStatus(model.get("status"), model.get("status_kind"));
  count_();
  showState();
  return () => { c.boxes.delete(me); clearTimeout(ui.draftTimer); clearTimeout(ui.saveTimer); };
}

export default { render };
