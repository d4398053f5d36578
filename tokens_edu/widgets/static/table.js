// The card table of tokens_edu (anywidget front end). Draws the `state` the kernel sends
// (tokens_edu/present/page.py: the presenter's Page.state()) and sends back what was clicked,
// each message with `v`, the version of the state it drew. A move is sent by its index in
// `state.moves` ({type: "move", i, v}); it holds no rules: the moves it offers are those.
// Everything is drawn from this file and table.css: no outside requests.

const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
// The word on a card's one-click move button, per kind of move.
const QUICK_WORDS = { task: "Task", audit: "Audit", train: "Train", deploy: "Deploy", use: "Use" };

function faceStyle(palette, color) {
  const p = palette[color] || palette.black || {};
  const parts = [`--frame:${p.frame}`, `--band:${p.band_text}`, `--tint:${p.tint}`,
    `--edge:${p.edge || p.frame}`, `--art:${p.art}`];
  if (p.stripes) parts.push(`--stripes:${p.stripes}`, `--plate:${p.plate || "#fff"}`);
  return parts.join(";");
}

// A long word ("Abstraction") or a long name ("The Human Trainer") gets a smaller font, so the
// name fits the card's two lines whole instead of breaking inside a word or losing a word.
function nameFit(name) {
  const text = String(name || "");
  const longest = Math.max(0, ...text.split(/\s+/).map((w) => w.length));
  if (longest > 11 || text.length > 22) return " tt-name-xs";
  if (longest > 8 || text.length > 14) return " tt-name-s";
  return "";
}

// Where a long word may break, with a hyphen shown (a soft hyphen): before a common ending
// ("Abstrac-tion", "Account-ability"), else in its middle. Never inside a short word.
const ENDINGS = ["ability", "ation", "tion", "ment", "ness", "ence", "ance", "ender", "vised", "ised", "ized", "ing", "ity"];
function nameHtml(name) {
  return String(name || "").split(" ").map((word) => {
    if (word.length <= 8) return esc(word);
    const end = ENDINGS.find((e) => word.toLowerCase().endsWith(e) && word.length - e.length >= 4);
    const at = end ? word.length - end.length : Math.ceil(word.length / 2);
    return esc(word.slice(0, at)) + "&shy;" + esc(word.slice(at));
  }).join(" ");
}

// `pictures`: each card picture by icon name, an <svg> the kernel checked (tokens_edu.card_picture),
// inked with currentColor, so the face's --art color draws it.
function faceHtml(palette, f, small, pictures) {
  const pips = f.tokens ? "<i></i>".repeat(Math.min(f.tokens, 6)) : "";
  const kw = (f.keywords || []).concat(f.legacy ? ["Legacy"] : []);
  const rules = (f.rules || "").replace(/\{E\}/g, "\u21bb");
  const stats = f.type === "System" ? `<span class="tt-stat">CAP ${esc(f.cap)}</span><span class="tt-stat">TRU ${esc(f.tru)}</span>` : "";
  const pic = (pictures || {})[f.icon];
  // a long ability: the picture sits in the rules box's corner; else a band under the name
  const corner = pic && rules.length > 30 && !small;
  return `<span class="tt-face tt-c-${esc(f.color)}${small ? " tt-small" : ""}" style="${faceStyle(palette, f.color)}">` +
    `<span class="tt-head"><span class="tt-cost${f.trainable ? " tt-diamond" : ""}"><b>${esc(f.cost)}</b></span>` +
    `<span class="tt-name${nameFit(f.name)}">${nameHtml(f.name)}</span>${pips ? `<span class="tt-pips">${pips}</span>` : ""}</span>` +
    (pic && !corner ? `<span class="tt-pic" aria-hidden="true">${pic}</span>` : "") +
    `<span class="tt-typebar">${esc(f.type)}${kw.length ? " · " + esc(kw.join(" · ")) : ""}</span>` +
    `<span class="tt-rules">${corner ? `<span class="tt-pic tt-pic-corner" aria-hidden="true">${pic}</span>` : ""}${esc(rules)}</span>` +
    `<span class="tt-foot">${stats}</span></span>`;
}

function describeBoardCard(c, mine, owner) {
  const f = c.face;
  const bits = [`${f.name}, ${mine ? "your" : owner + "'s"} ${f.type}`];
  if (f.type === "System") bits.push(`CAP ${c.cap}, TRU ${c.tru}, ${plural(c.flags, "Flag")}, scores ${plural(f.tokens || 0, "Token")}`);
  if (f.keywords && f.keywords.length) bits.push(f.keywords.join(", "));
  bits.push(c.sideways ? "sideways" : "upright");
  if (c.new) bits.push("new this turn");
  if (c.no_task) bits.push("can't Run a Task");
  if (c.lost) bits.push("abilities lost");
  return bits.join(". ");
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "tokens-table";
  root.tabIndex = -1;
  el.appendChild(root);
  const ui = { selected: null, targeting: null, showDiscard: null, sent: -1, timer: null,
    bannerClosed: null, scrolledFor: null, paused: null, index: new Map() };

  const send = (msg) => { model.send(Object.assign({ v: (model.get("state") || {}).v }, msg)); };

  // A move by its index in the moves of the state drawn now (the kernel knows that list).
  function sendMove(i) {
    const st = model.get("state") || {};
    if (ui.sent === st.v || !(i >= 0 && i < (st.moves || []).length)) return; // one move per drawn state: a double click sends once
    ui.sent = st.v;
    ui.selected = null; ui.targeting = null;
    root.classList.add("tt-busy");
    send({ type: "move", i });
  }

  function scheduleStep(st) {
    if (ui.timer) { clearTimeout(ui.timer); ui.timer = null; }
    if (!st.bot || st.over || !st.autoplay || st.paused || st.cover) return;
    const v = st.v;
    ui.timer = setTimeout(() => {
      ui.timer = null;
      const now = model.get("state") || {};
      if (now.v === v && now.bot && !now.paused) send({ type: "step" });
    }, Math.max(0, st.delay || 0));
  }

  function cardButton(palette, st, c, opts) {
    const cls = ["tt-card"];
    if (c.sideways) cls.push("tt-sideways");
    if (opts.playable) cls.push("tt-playable");
    if (opts.target) cls.push("tt-target");
    if (c.hl) cls.push("tt-hl");
    if (ui.selected === opts.id) cls.push("tt-selected");
    const flags = c.flags ? `<span class="tt-flags" aria-hidden="true">${"<i></i>".repeat(Math.min(c.flags, 8))}</span>` : "";
    const badge = c.new && !c.can_act ? `<span class="tt-badge">new</span>` : "";
    const label = opts.label + (opts.playable ? ". Has moves: press Enter to see them." : "") +
      (opts.target ? ". Target: press Enter to choose it." : "");
    const button = `<button class="${cls.join(" ")}" data-id="${esc(opts.id)}" aria-label="${esc(label)}" title="${esc(c.face.rules || c.face.name)}">` +
      `${faceHtml(palette, c.face, false, model.get("pictures"))}${flags}${badge}</button>`;
    const quick = opts.playable && !ui.targeting ? quickHtml(st, opts.id) : "";
    return quick ? `<span class="tt-slot${c.sideways ? " tt-slot-sideways" : ""}">${button}${quick}</span>` : button;
  }

  // One-click moves on a playable card: a verb whose move needs no choice plays at once
  // ("Task", "Train", "Deploy"); a verb with targets asks for the target card ("Audit…").
  // Other cases (several ways to pay) open the card's moves beside the table. The same moves
  // stay on the card's own button (click, or Tab and Enter) and in "All my moves as a list";
  // these quick buttons are for the mouse and touch only (tabindex -1: one Tab stop per card).
  function quickGroups(st, id) {
    const groups = new Map();
    (st.moves || []).filter((m) => m.c === id).forEach((m) => {
      if (!groups.has(m.k)) groups.set(m.k, []);
      groups.get(m.k).push(m);
    });
    return groups;
  }

  function quickHtml(st, id) {
    const out = [];
    quickGroups(st, id).forEach((list, kind) => {
      const word = QUICK_WORDS[kind] || list[0].label;
      const cls = `tt-quick-btn tt-quick-${esc(kind)}`;
      // a move with a detail to read first ("Deploy (Big Data: turn X sideways to pay)") is not one click
      if (list.length === 1 && !list[0].x && !list[0].label.includes("(")) {
        out.push(`<button class="${cls}" tabindex="-1" data-quick="${esc(list[0].t)}" data-i="${ui.index.get(list[0])}" title="${esc(list[0].screen + ": " + list[0].hint)}">${esc(word)}</button>`);
      } else if (list.every((m) => m.x)) {
        out.push(`<button class="${cls} tt-quick-aim" tabindex="-1" data-qaim="${esc(kind)}" data-card="${esc(id)}" title="${esc(word)}: then click the target card">${esc(word)}…</button>`);
      } else {
        out.push(`<button class="${cls} tt-quick-more" tabindex="-1" data-qmore="${esc(id)}" data-kind="${esc(kind)}" title="${esc(word)}: choose how">${esc(word)}…</button>`);
      }
    });
    return out.length ? `<span class="tt-quick" aria-hidden="true">${out.join("")}</span>` : "";
  }

  function pileHtml(side, st, palette) {
    const backs = (n, cls) => `<span class="tt-back ${cls}" aria-hidden="true"></span>`.repeat(n);
    const ready = side.ts_ready, spent = Math.max(0, side.ts_total - side.ts_ready);
    const ts = `<div class="tt-pile tt-ts${side.ts_hl ? " tt-hl" : ""}" title="Training Set: ${ready} ready, ${spent} sideways" aria-label="Training Set: ${plural(side.ts_total, "card")}, ${ready} ready Data">` +
      `<div class="tt-ts-cards">${backs(Math.min(ready, 8), "tt-mini")}${backs(Math.min(spent, 8), "tt-mini tt-spent")}</div>` +
      `<div class="tt-pile-label">Data ${ready} of ${side.ts_total}</div></div>`;
    const deck = `<div class="tt-pile tt-deck" aria-label="Deck: ${plural(side.deck, "card")}">` +
      `<span class="tt-back tt-stack${side.deck ? "" : " tt-empty"}"></span><div class="tt-pile-label">Deck ${side.deck}</div></div>`;
    const top = side.discard.length ? side.discard[side.discard.length - 1] : null;
    const disc = `<button class="tt-pile tt-discard" data-discard="${side.p}" aria-label="Discard pile: ${plural(side.discard.length, "card")}. Press Enter to see them." title="Show the discard pile">` +
      (top ? faceHtml(palette, top, true, model.get("pictures")) : `<span class="tt-back tt-empty"></span>`) +
      `<div class="tt-pile-label">Discard ${side.discard.length}</div></button>`;
    return `<div class="tt-piles">${ts}${deck}${disc}</div>`;
  }

  function sideHtml(st, side, pos, palette, playableIds, targetIds) {
    const cards = st.board.filter((c) => c.owner === side.p);
    const owner = side.name;
    const inPlay = cards.length ? cards.map((c) => cardButton(palette, st, c, {
      id: c.id, playable: playableIds.has(c.id), target: targetIds.has(c.id),
      label: describeBoardCard(c, side.you, owner),
    })).join("") : `<span class="tt-none">No Systems or Tools in play.</span>`;
    const pct = Math.min(100, Math.round(100 * side.tokens / (st.win || 15)));
    const who = `<div class="tt-who${side.acting ? " tt-acting" : ""}"><b>${esc(owner)}${side.you ? " (you)" : ""}</b>` +
      `<div class="tt-tokens" aria-label="${esc(owner)}: ${side.tokens} of ${st.win} Tokens"><span class="tt-coin"></span><b>${side.tokens}</b>/${st.win}` +
      `<span class="tt-bar"><span style="width:${pct}%"></span></span></div>` +
      (side.acting ? `<div class="tt-acting-label">playing now</div>` : "") + `</div>`;
    const handBacks = pos === "top" ? `<div class="tt-hand-backs" aria-label="${esc(owner)}'s hand: ${plural(side.hand, "card")}">` +
      `<span class="tt-back tt-mini" aria-hidden="true"></span>`.repeat(Math.min(side.hand, 10)) +
      `<span class="tt-pile-label">Hand ${side.hand}</span></div>` : "";
    return `<section class="tt-side tt-side-${pos}" aria-label="${esc(owner)}'s side">` +
      `<div class="tt-zone">${who}${handBacks}${pileHtml(side, st, palette)}</div>` +
      `<div class="tt-board tt-inplay" role="group" aria-label="${esc(owner)}'s cards in play">${inPlay}</div></section>`;
  }

  function moveButton(m, text, extraCls) {
    return `<button class="tokens-action tokens-action-${esc(m.k)} ${extraCls || ""}" data-move="${esc(m.t)}" data-i="${ui.index.get(m)}" ` +
      `aria-label="${esc(m.screen + ". " + m.hint)}" title="${esc(m.screen + ": " + m.hint)}">${esc(text)}</button>`;
  }

  function panelHtml(st) {
    const out = [];
    if (st.note && st.note.text) {
      out.push(`<div class="tt-note tt-note-${esc(st.note.kind || "info")}" role="status">${esc(st.note.text)}</div>`);
    }
    if (st.prompt) out.push(`<div class="tt-prompt"><b>${esc(st.prompt)}</b></div>`);
    const moves = st.moves || [];
    const loose = moves.filter((m) => !m.c && m.k !== "end");
    if (ui.targeting) {
      const t = ui.targeting;
      out.push(`<div class="tt-ask"><b>${esc(t.verb)} with ${esc(t.name)}:</b> click the card to aim at (it glows). Esc cancels.</div>`);
      t.moves.filter((m) => !m.x).forEach((m) => out.push(moveButton(m, m.xname ? `${t.verb}: ${m.xname}` : m.screen, "tt-verb")));
      out.push(`<button class="tt-cancel">Cancel</button>`);
    } else if (ui.selected) {
      const mine = moves.filter((m) => m.c === ui.selected);
      const name = ui.selected.startsWith("hand:") ? ui.selected.slice(5) : ui.selected;
      const face = findFace(st, ui.selected);
      out.push(`<div class="tt-ask"><b>${esc(name)}</b>${face && face.rules ? `<div class="tt-rules-text">${esc(face.rules.replace(/\{E\}/g, "\u21bb"))}</div>` : ""}</div>`);
      if (!mine.length) out.push(`<div class="tt-hint">No move with this card now.</div>`);
      const verbs = new Map();
      mine.forEach((m) => { const key = m.label; if (!verbs.has(key)) verbs.set(key, []); verbs.get(key).push(m); });
      verbs.forEach((list, verb) => {
        if (list.length === 1 && !list[0].x) out.push(moveButton(list[0], verb, "tt-verb"));
        else out.push(`<button class="tt-verb tt-aim" data-verb="${esc(verb)}" aria-label="${esc(verb)}: then choose the target">${esc(verb)}…</button>`);
      });
      out.push(`<button class="tt-read" data-read="${esc(face ? face.name : name)}">Read the whole card</button>`);
    } else if (moves.some((m) => m.c)) {
      out.push(`<div class="tt-hint">Click a move on a glowing card. Click the card itself to see all its moves.</div>`);
    }
    if (!ui.targeting) loose.forEach((m) => out.push(moveButton(m, m.label === "Choose" ? m.screen : m.label, "tt-verb tt-loose")));
    const end = moves.find((m) => m.k === "end");
    if (end && !ui.targeting) out.push(moveButton(end, "End turn", "tt-end"));
    if (moves.length) {
      out.push(`<details class="tt-movelist"${ui.listOpen ? " open" : ""}><summary>All my moves as a list (${moves.length})</summary>` +
        moves.map((m) => moveButton(m, m.screen, "tt-listed")).join("") + `</details>`);
    }
    if (ui.showDiscard !== null) {
      const side = st.sides.find((s) => s.p === ui.showDiscard);
      if (side) {
        out.push(`<div class="tt-discard-list"><b>${esc(side.name)}'s discard pile (${side.discard.length})</b>` +
          (side.discard.length ? `<ol>${side.discard.map((f) => `<li>${esc(f.name)}</li>`).join("")}</ol>` : "<div>Empty.</div>") +
          `<button class="tt-close-discard">Close</button></div>`);
      }
    }
    if (st.log && st.log.length) {
      out.push(`<div class="tt-log tokens-log-lines" aria-live="polite"><b>What happened</b>` +
        st.log.map((t) => `<div>${esc(t)}</div>`).join("") + `</div>`);
    }
    return out.join("");
  }

  function findFace(st, id) {
    if (id && id.startsWith("hand:")) { const f = st.hand.find((h) => "hand:" + h.name === id); return f || null; }
    const c = st.board.find((b) => b.id === id);
    return c ? c.face : null;
  }

  function controlsHtml(st) {
    const out = [];
    if (st.undo_shown) {
      out.push(`<button class="tokens-undo"${st.undo ? "" : " disabled"} title="${esc(st.undo_hint || "Take back your last move")}">↶ Undo</button>`);
    }
    if (st.bot && !st.over) {
      if (st.autoplay) {
        out.push(`<button class="tokens-pause" aria-pressed="${st.paused ? "true" : "false"}">${st.paused ? "▶ Play" : "❚❚ Pause"}</button>`);
      }
      if (!st.autoplay || st.paused) out.push(`<button class="tokens-next">Next computer move ▸</button>`);
    }
    if (st.autoplay && st.has_bot) {
      const opts = [[1000, "slow"], [500, "normal"], [200, "fast"]];
      out.push(`<label class="tt-speed">Computer speed <select aria-label="Computer speed">` +
        opts.map(([ms, w]) => `<option value="${ms}"${ms === st.delay ? " selected" : ""}>${w}</option>`).join("") + `</select></label>`);
    }
    return out.join("");
  }

  function draw() {
    const st = model.get("state") || {};
    const palette = model.get("palette") || {};
    if (!st.sides) { root.innerHTML = ""; return; }
    ui.index = new Map((st.moves || []).map((m, i) => [m, i])); // a move's index: what the page sends back
    if (ui.sent !== st.v) root.classList.remove("tt-busy");
    // keep the selection only while the card still has moves or is still there
    const moves = st.moves || [];
    if (ui.selected && !findFace(st, ui.selected)) ui.selected = null;
    if (ui.targeting && !ui.targeting.moves.every((m) => moves.some((n) => n.t === m.t))) ui.targeting = null;
    const playable = new Set(moves.filter((m) => m.c).map((m) => m.c));
    const targets = new Set(ui.targeting ? ui.targeting.moves.filter((m) => m.x).map((m) => m.x) : []);
    const focusKey = (() => {
      const a = document.activeElement;
      if (!a || !root.contains(a)) return null;
      for (const k of ["data-id", "data-move", "data-verb", "data-discard", "data-read"]) if (a.hasAttribute(k)) return `[${k}="${CSS.escape(a.getAttribute(k))}"]`;
      for (const c of ["tokens-undo", "tokens-next", "tokens-pause", "tokens-reveal", "tokens-again", "tt-cancel"]) if (a.classList.contains(c)) return "." + c;
      return null;
    })();
    const [top, bottom] = st.sides;
    const hand = st.you === null || st.you === undefined ? "" :
      `<section class="tt-hand" aria-label="Your hand: ${plural(st.hand.length, "card")}">` +
      (st.hand.length ? st.hand.map((f, i) => {
        const id = "hand:" + f.name;
        const dup = st.hand.findIndex((g) => g.name === f.name) !== i;
        return cardButton(palette, st, { face: f, flags: 0 }, { id: dup ? id + "#" + i : id, playable: !dup && playable.has(id), target: false,
          label: `${f.name}, in your hand. ${f.type}, costs ${f.cost} Data${f.trainable ? ", can be trained" : ""}` });
      }).join("") : `<span class="tt-none">Your hand is empty.</span>`) + `</section>`;
    let banner = "";
    if (st.banner && ui.bannerClosed !== st.game) {
      banner = `<div class="tt-banner tt-banner-${st.banner.won ? "won" : "lost"}" role="alert"><div class="tt-banner-title">${esc(st.banner.title)}</div>` +
        `<div>${esc(st.banner.detail)}</div><div class="tt-banner-buttons">` +
        (st.can_again ? `<button class="tokens-again">Play again</button>` : "") +
        `<button class="tt-look">Look at the board</button></div></div>`;
    }
    const cover = st.cover ? `<div class="tt-cover" role="dialog" aria-label="${esc(st.cover.title)}"><div class="tt-cover-title">${esc(st.cover.title)}</div>` +
      `<div>${esc(st.cover.text)}</div><button class="tokens-reveal">${esc(st.cover.button)}</button></div>` : "";
    root.innerHTML =
      `<div class="tt-top"><div class="tt-status-box">${st.title ? `<span class="tt-title">${esc(st.title)}</span>` : ""}` +
      `<span class="tokens-status tt-status">${esc(st.status || "")}</span><span class="tokens-step tt-step">${esc(st.step || "")}</span></div>` +
      `<div class="tt-controls">${controlsHtml(st)}</div></div>` +
      `<div class="tt-main"><div class="tt-felt${st.cover ? " tt-covered" : ""}">` +
      sideHtml(st, top, "top", palette, playable, targets) +
      `<div class="tt-midline"></div>` +
      sideHtml(st, bottom, "bottom", palette, playable, targets) + hand + banner + cover +
      `</div><aside class="tt-panel" aria-label="Your moves">${panelHtml(st)}</aside></div>` +
      `<span class="tokens-tick" hidden>${esc(st.v)}</span>`;
    root.dataset.version = st.v;
    if (focusKey) { const f = root.querySelector(focusKey); if (f) f.focus({ preventScroll: true }); }
    if (st.scroll && ui.scrolledFor !== st.game) {
      // a game started by a click: bring the whole table into view once it is on the page
      const game = st.game;
      const tryScroll = (n) => {
        const r = root.getBoundingClientRect();
        if (r.height === 0) { if (n > 0) setTimeout(() => tryScroll(n - 1), 100); return; }
        ui.scrolledFor = game;
        if (r.top < 0 || r.bottom > window.innerHeight) root.scrollIntoView({ block: "start" });
      };
      setTimeout(() => tryScroll(30), 0);
    }
    scheduleStep(st);
  }

  root.addEventListener("click", (ev) => {
    const st = model.get("state") || {};
    const b = ev.target.closest("button, summary");
    if (!b || !root.contains(b)) return;
    if (b.tagName === "SUMMARY") { ui.listOpen = !b.parentElement.open; return; }
    if (b.dataset.move) { sendMove(Number(b.dataset.i)); return; }
    if (b.dataset.quick) { sendMove(Number(b.dataset.i)); return; }
    if (b.dataset.qaim) {
      const id = b.dataset.card;
      const list = (st.moves || []).filter((m) => m.c === id && m.k === b.dataset.qaim);
      const face = findFace(st, id);
      ui.selected = id;
      ui.targeting = { verb: QUICK_WORDS[b.dataset.qaim] || b.dataset.qaim, name: face ? face.name : id, moves: list };
      draw();
      const first = root.querySelector(".tt-target"); // keeps the focus in the table: Escape cancels
      if (first) first.focus({ preventScroll: true });
      return;
    }
    if (b.dataset.qmore) {
      ui.selected = b.dataset.qmore; ui.targeting = null; ui.showDiscard = null; draw();
      const first = root.querySelector(`.tt-panel .tt-verb.tokens-action-${CSS.escape(b.dataset.kind || "")}`) ||
        root.querySelector(".tt-panel .tt-verb");
      if (first) first.focus({ preventScroll: true });
      return;
    }
    if (b.classList.contains("tt-aim")) {
      const list = (st.moves || []).filter((m) => m.c === ui.selected && m.label === b.dataset.verb);
      const face = findFace(st, ui.selected);
      ui.targeting = { verb: b.dataset.verb, name: face ? face.name : ui.selected, moves: list };
      draw();
      const first = root.querySelector(".tt-target");
      if (first) first.focus({ preventScroll: true });
      return;
    }
    if (b.dataset.id) {
      const id = b.dataset.id;
      if (ui.targeting) {
        const m = ui.targeting.moves.find((x) => x.x === id);
        if (m) { sendMove((st.moves || []).findIndex((n) => n.t === m.t)); return; }
        ui.targeting = null;
      }
      ui.selected = ui.selected === id ? null : id;
      ui.showDiscard = null;
      draw();
      const first = root.querySelector(".tt-panel .tt-verb");
      if (first && ev.detail === 0) first.focus({ preventScroll: true }); // keyboard: go to the moves
      return;
    }
    if (b.dataset.discard !== undefined) { const p = Number(b.dataset.discard); ui.showDiscard = ui.showDiscard === p ? null : p; draw(); return; }
    if (b.classList.contains("tt-close-discard")) { ui.showDiscard = null; draw(); return; }
    if (b.classList.contains("tt-cancel")) { ui.targeting = null; draw(); return; }
    if (b.dataset.read) { send({ type: "read", name: b.dataset.read }); return; }
    if (b.classList.contains("tokens-undo")) { ui.selected = null; ui.targeting = null; send({ type: "undo" }); return; }
    if (b.classList.contains("tokens-next")) { if (ui.sent === st.v) return; ui.sent = st.v; send({ type: "step" }); return; }
    if (b.classList.contains("tokens-pause")) { send({ type: "pause", paused: !st.paused }); if (ui.timer) { clearTimeout(ui.timer); ui.timer = null; } return; }
    if (b.classList.contains("tokens-reveal")) { send({ type: "reveal" }); return; }
    if (b.classList.contains("tokens-again")) { send({ type: "again" }); return; }
    if (b.classList.contains("tt-look")) { ui.bannerClosed = st.game; draw(); return; }
  });
  root.addEventListener("change", (ev) => {
    if (ev.target.matches(".tt-speed select")) send({ type: "speed", ms: Number(ev.target.value) });
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && (ui.targeting || ui.selected || ui.showDiscard !== null)) {
      const back = ui.targeting ? ui.selected : null;
      ui.targeting = null;
      if (!back) { ui.selected = null; ui.showDiscard = null; }
      draw();
      const f = back && root.querySelector(`[data-id="${CSS.escape(back)}"]`);
      if (f) f.focus({ preventScroll: true });
      ev.stopPropagation();
      ev.preventDefault();
    }
  });
  model.on("change:state", draw);
  model.on("change:palette", draw);
  model.on("change:pictures", draw);
  draw();
  return () => { if (ui.timer) clearTimeout(ui.timer); };
}

export default { render };
