// The card table of tokens_edu (anywidget front end). Draws the `state` the kernel sends
// (tokens_edu/present/page.py: the presenter's Page.state()) and sends back what was clicked,
// each message with `v`, the version of the state it drew. A move is sent by its index in
// `state.moves` ({type: "move", i, v}); it holds no rules: the moves it offers are those.
// Everything is drawn from this file and table.css: no outside requests.
//
// A card face here has the structure of tokens_edu.present.render.render_card (the gallery,
// print sheets and "Read a card"): the same parts with the same classes (tk-head, tk-cost,
// tk-name, tk-tokens, tk-art, tk-typebar, tk-type, tk-rules, tk-exert, tk-foot, tk-cap, tk-tru),
// the same symbols and the same colors; tests/widgets/test_face_same.py compares the two faces of
// every card in Chromium. The play face leaves out the Definition and Discuss text (one click on
// the card shows the whole card beside the table).
//
// A card's moves are buttons under the card, never over its text: one click makes a move
// ("Task", "Train", "Deploy", "Audit Explainability" when there is one target); with two
// targets or more, "Audit…" makes them glow and a click on one makes the move; more than three
// ways to pay open beside the table. Keyboard: the focus stays on the table after every
// move (on the first move offered); arrow keys step through the moves, End goes to End turn.

const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
// The word on a card's move button, per kind of move.
const QUICK_WORDS = { task: "Task", audit: "Audit", train: "Train", deploy: "Deploy", use: "Use", choose: "Choose" };
// More ways than this to make one verb with one card (ways to pay): they open beside the table.
// A verb with two targets or more ("Audit…") asks for the target card instead (one more click).
const MAX_DIRECT = 3;
// The computer's speeds (ms between its moves): tokens_edu/widgets/page_messages.py SPEEDS.
const SPEEDS = [[2500, "slow"], [1500, "normal"], [600, "fast"]];
// "{E}" on a card: the printed exert symbol, as render_card draws it.
// What a student does to a card: "tap" on a touch screen, "click" with a mouse.
const TAP = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches ? "tap" : "click";
// Below this width (px) the table is "narrow" (a phone, an upright tablet): the panel goes
// under the felt, its moves right under the hand, and the log folds (table.css).
const NARROW = 900;
// Motion that explains the game (issue 30 part 4): a played card moves from the hand (or the
// computer's hand) to its place, Tokens count up with a "+2" at the player who got them, a card
// that leaves play turns over on its way to the discard pile, a card turned sideways turns, a
// card that gets Flags (an Audit) shows them, and the computer's move lights up where it
// happens. Each lasts MOTION_MS or less, never blocks a click (nothing waits for it), and none
// runs when the system asks for reduced motion (prefers-reduced-motion).
const MOTION_MS = 350;
// Keys (the "Keys" note beside the table says them): a letter takes the focus to the next move
// of its kind, Enter makes it. C: the cards (the arrows then step through them).
const LETTER_KINDS = { t: "task", d: "deploy", r: "train", a: "audit", u: "use" };
const KEYS_NOTE = [["← →", "step through your moves"], ["Enter", "make the move that has the focus"],
  ["T D R A U", "the next Task, Deploy, tRain, Audit or Use"], ["E or End", "End turn"],
  ["C", "the cards: ← → to read them, Enter shows a card's moves"], ["Esc", "cancel"]];
// Sound is off until a student turns it on ("Sound" beside the controls; kept in this browser):
// a short note when Tokens are scored (higher for a gain, lower for a loss). No sound files.
const SOUND_KEY = "tokens-edu-sound";
const soundOn = () => { try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; } };
let AUDIO = null;
function beep(up) {
  if (!soundOn()) return;
  try {
    AUDIO = AUDIO || new (window.AudioContext || window.webkitAudioContext)();
    const osc = AUDIO.createOscillator(), gain = AUDIO.createGain(), t = AUDIO.currentTime;
    osc.frequency.value = up ? 880 : 330;
    gain.gain.setValueAtTime(0.08, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + 0.18);
    osc.connect(gain).connect(AUDIO.destination);
    osc.start(t); osc.stop(t + 0.2);
  } catch (e) { /* no sound in this browser: the game goes on */ }
}
const stillPlease = () => typeof matchMedia !== "function" || matchMedia("(prefers-reduced-motion: reduce)").matches;
const EXERT = `<span class="tk-exert" title="Turn this card sideways to use it, once per turn">E</span>`;

function faceStyle(palette, color) {
  const p = palette[color] || palette.black || {};
  const parts = [`--frame:${p.frame}`, `--band:${p.band_text}`, `--tint:${p.tint}`,
    `--edge:${p.edge || p.frame}`, `--art:${p.art}`];
  if (p.stripes) parts.push(`--stripes:${p.stripes}`, `--plate:${p.plate || "#fff"}`);
  return parts.join(";");
}

function rulesHtml(text) {
  return String(text || "").split("{E}").map(esc).join(EXERT);
}

// A long name gets a smaller (never under 12 px) font so it fits two lines whole. Beside a
// System's Token pips a long word has no room (Recommender's pips were pushed off the card):
// that name takes its own row under the Cost and the pips.
function nameFit(name, pips) {
  const text = String(name || "");
  const longest = Math.max(0, ...text.split(/\s+/).map((w) => w.length));
  return (longest > 11 || text.length > 14 ? " tk-name-long" : "") + (pips && longest > 9 ? " tk-name-row" : "");
}

// The face of a card (the parts of render_card's face that matter in play). `pictures`: each
// card picture by icon name, an <svg> the kernel checked (tokens_edu.card_picture), inked with
// currentColor, so the face's --art color draws it.
function faceHtml(palette, f, pictures) {
  const sys = f.type === "System";
  const pic = (pictures || {})[f.icon] || "";
  const rules = f.rules || "";
  const tokens = sys ? `<span class="tk-tokens" title="${esc(plural(f.tokens || 0, "Token"))}">` +
    `${'<i class="tk-pip"></i>'.repeat(Math.min(f.tokens || 0, 6))}</span>` : "";
  const legacy = f.legacy ? ` <span class="tk-legacy">Legacy</span>` : "";
  const cost = `Cost ${f.cost} Data` + (f.trainable ? " (diamond: can be trained)" : "");
  return `<span class="tk-face tk-${esc(f.color)} tk-${esc(String(f.type || "").toLowerCase())}${rules.length > 60 ? " tk-long" : ""}${rules ? "" : " tk-blank"}" style="${faceStyle(palette, f.color)}">` +
    `<span class="tk-head"><span class="tk-cost${f.trainable ? " tk-trainable" : ""}" title="${esc(cost)}"><b>${esc(f.cost)}</b></span>` +
    `<span class="tk-name${nameFit(f.name, sys && f.tokens > 0)}">${esc(f.name)}</span>${tokens}</span>` +
    `<span class="tk-art" aria-hidden="true">${pic}</span>` +
    `<span class="tk-typebar"><span class="tk-type">${esc(f.type)}</span>${legacy}</span>` +
    (rules ? `<span class="tk-text"><span class="tk-rules">${rulesHtml(rules)}</span></span>` : "") +
    `<span class="tk-foot">${sys ? `<span class="tk-stats"><span class="tk-cap" title="Capability">CAP ${esc(f.cap)}</span>` +
      `<span class="tk-tru" title="Trust">TRU ${esc(f.tru)}</span></span>` : ""}</span></span>`;
}

// What a screen reader hears about a card besides its printed text.
function boardCardNote(c, mine, owner) {
  const f = c.face;
  const bits = [mine ? "Your card in play" : `${owner}'s card in play`];
  if (f.type === "System") {
    if (c.cap !== f.cap || c.tru !== f.tru) bits.push(`now CAP ${c.cap}, TRU ${c.tru}`);
    bits.push(plural(c.flags, "Flag"));
  }
  bits.push(c.sideways ? "sideways" : "upright");
  if (c.new) bits.push("new this turn");
  if (c.no_task) bits.push("can't Run a Task");
  if (c.lost) bits.push("abilities lost");
  return bits.join(", ") + ".";
}

// One page may hold several tables (lesson 9 has five): each gets its own landmark name.
let TABLES = 0;

// The lesson page's parts as landmarks, for every lesson (Voila's page has none): the cells
// are the page's main content. Done once per page, by whichever widget draws first.
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
  TABLES += 1;
  const root = document.createElement("div");
  root.className = "tokens-table";
  root.tabIndex = -1;
  root.setAttribute("role", "region");
  const number = TABLES;
  // a live region made once (one re-made at every drawing would not be read out)
  const live = document.createElement("div");
  live.className = "tt-live tt-sr";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  const body = document.createElement("div");
  root.append(live, body);
  el.appendChild(root);
  const ui = { selected: null, targeting: null, showDiscard: null, sent: -1, timer: null,
    bannerClosed: null, scrolledFor: null, index: new Map(), hadFocus: false, lastBot: null,
    lastGame: null, said: "", logOpen: null };
  const narrow = () => (root.clientWidth || window.innerWidth) < NARROW;

  const send = (msg) => { model.send(Object.assign({ v: (model.get("state") || {}).v }, msg)); };

  function say(text) {
    if (!text || text === ui.said) return;
    ui.said = text;
    live.textContent = text;
  }

  // A move by its index in the moves of the state drawn now (the kernel knows that list).
  function sendMove(i) {
    const st = model.get("state") || {};
    if (ui.sent === st.v || !(i >= 0 && i < (st.moves || []).length)) return; // one move per drawn state: a double click sends once
    ui.sent = st.v;
    ui.selected = null; ui.targeting = null;
    ui.hadFocus = true; // the answer's drawing puts the focus back on the table
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

  // The moves that use card `id`, grouped by verb.
  function groupsFor(st, id) {
    const groups = new Map();
    (st.moves || []).forEach((m) => {
      if (m.c !== id) return;
      if (!groups.has(m.k)) groups.set(m.k, []);
      groups.get(m.k).push(m);
    });
    return groups;
  }

  function targetName(st, m) {
    if (m.x) { const c = st.board.find((b) => b.id === m.x); return c ? c.face.name : m.x; }
    return m.xname || "";
  }

  // The buttons under a playable card: one per move when there are few, else "Audit…" / "Deploy…".
  function movesHtml(st, id) {
    const out = [];
    groupsFor(st, id).forEach((list, kind) => {
      const word = QUICK_WORDS[kind] || list[0].label;
      const cls = `tt-move tt-quick-btn tt-quick-${esc(kind)}`;
      const aim = list.every((m) => m.x);
      if (list.length > (aim ? 1 : MAX_DIRECT)) { // two targets or more: "Audit…", then the card
        out.push(`<button class="${cls} ${aim ? "tt-quick-aim" : "tt-quick-more"}" data-q${aim ? "aim" : "more"}="${esc(aim ? kind : id)}" ` +
          `data-card="${esc(id)}" data-kind="${esc(kind)}" title="${esc(word)}: ${aim ? "then click the card to aim at" : "choose how"}">${esc(word)}…</button>`);
        return;
      }
      list.forEach((m) => {
        let text = word;
        if (m.x || m.xname) text = `${word} ${targetName(st, m)}`;
        else if (m.label.includes("(")) text = m.label.replace(/^Deploy \(Big Data: (.*)\)$/, "Deploy: $1");
        out.push(`<button class="${cls}" data-quick="${esc(m.t)}" data-i="${ui.index.get(m)}" title="${esc(m.screen + ": " + m.hint)}">${esc(text)}</button>`);
      });
    });
    return out.length ? `<span class="tt-moves">${out.join("")}</span>` : "";
  }

  function cardHtml(palette, st, c, opts) {
    const cls = ["tt-card"];
    if (c.sideways) cls.push("tt-sideways");
    if (opts.playable) cls.push("tt-playable");
    if (opts.target) cls.push("tt-target");
    if (c.hl) cls.push("tt-hl");
    if (ui.selected === opts.id) cls.push("tt-selected");
    const flags = c.flags ? `<span class="tt-flags" aria-hidden="true">${"<i></i>".repeat(Math.min(c.flags, 8))}</span>` : "";
    const badge = c.new && !c.can_act ? `<span class="tt-badge" aria-hidden="true">new</span>` : "";
    const boost = c.face.type === "System" && c.cap !== undefined && c.cap !== null && (c.cap !== c.face.cap || c.tru !== c.face.tru)
      ? `<span class="tt-boost" aria-hidden="true">now CAP ${esc(c.cap)} · TRU ${esc(c.tru)}</span>` : "";
    const note = `<span class="tt-sr">${esc(opts.note)}</span>`;
    const inner = `${faceHtml(palette, c.face, model.get("pictures"))}${flags}${badge}${boost}${note}`;
    // a target is a button (its name is its printed text); other cards are read, not pressed
    const card = opts.target
      ? `<button class="${cls.join(" ")}" data-id="${esc(opts.id)}" data-target="1">${inner}</button>`
      : `<span class="${cls.join(" ")}" data-id="${esc(opts.id)}" tabindex="-1">${inner}</span>`;
    const moves = opts.playable && !ui.targeting ? movesHtml(st, opts.id) : "";
    return `<span class="tt-slot${c.sideways ? " tt-slot-sideways" : ""}" role="group" aria-label="${esc(c.face.name)}">${card}${moves}</span>`;
  }

  function pileHtml(side, palette) {
    const backs = (n, cls) => `<span class="tt-back ${cls}" aria-hidden="true"></span>`.repeat(n);
    const ready = side.ts_ready, spent = Math.max(0, side.ts_total - side.ts_ready);
    const ts = `<div class="tt-pile tt-ts${side.ts_hl ? " tt-hl" : ""}" title="Training Set: ${ready} ready, ${spent} sideways">` +
      `<div class="tt-ts-cards" aria-hidden="true">${backs(Math.min(ready, 8), "tt-mini")}${backs(Math.min(spent, 8), "tt-mini tt-spent")}</div>` +
      `<div class="tt-pile-label">Data ${ready} of ${side.ts_total}<span class="tt-sr"> ready in the Training Set</span></div></div>`;
    const deck = `<div class="tt-pile tt-deck"><span class="tt-back tt-stack${side.deck ? "" : " tt-empty"}" aria-hidden="true"></span>` +
      `<div class="tt-pile-label">Deck ${side.deck}<span class="tt-sr"> cards</span></div></div>`;
    const top = side.discard.length ? side.discard[side.discard.length - 1] : null;
    const mini = top ? `<span class="tt-back tt-minicard" aria-hidden="true" style="${faceStyle(palette, top.color)}">${(model.get("pictures") || {})[top.icon] || ""}</span>`
      : `<span class="tt-back tt-empty" aria-hidden="true"></span>`;
    const disc = `<button class="tt-pile tt-discard" data-discard="${side.p}" title="Show the discard pile">${mini}` +
      `<span class="tt-pile-label">Discard ${side.discard.length}</span></button>`;
    return `<div class="tt-piles">${ts}${deck}${disc}</div>`;
  }

  function sideHtml(st, side, pos, palette, playableIds, targetIds) {
    const cards = st.board.filter((c) => c.owner === side.p);
    const owner = side.name;
    const inPlay = cards.length ? cards.map((c) => cardHtml(palette, st, c, {
      id: c.id, playable: playableIds.has(c.id), target: targetIds.has(c.id),
      note: boardCardNote(c, side.you, owner),
    })).join("") : `<span class="tt-none">No Systems or Tools in play.</span>`;
    const pct = Math.min(100, Math.round(100 * side.tokens / (st.win || 15)));
    const who = `<div class="tt-who${side.acting ? " tt-acting" : ""}"><b class="tt-who-name">${esc(owner)}${side.you && String(owner || "").trim().toLowerCase() !== "you" ? " (you)" : ""}</b>` +
      `<div class="tt-tokens"><span class="tt-coin" aria-hidden="true"></span><b>${side.tokens}</b>/${st.win}<span class="tt-sr"> Tokens</span>` +
      `<span class="tt-bar" aria-hidden="true"><span style="width:${pct}%"></span></span></div>` +
      (side.acting ? `<div class="tt-acting-label">playing now</div>` : "") + `</div>`;
    const handBacks = pos === "top" ? `<div class="tt-hand-backs"><span aria-hidden="true">` +
      `<span class="tt-back tt-mini"></span>`.repeat(Math.min(side.hand, 10)) +
      `</span><span class="tt-pile-label">Hand ${side.hand}<span class="tt-sr"> cards</span></span></div>` : "";
    return `<div class="tt-side tt-side-${pos}" role="group" aria-label="${esc(owner)}'s side">` +
      `<div class="tt-zone">${who}${handBacks}${pileHtml(side, palette)}</div>` +
      `<div class="tt-board tt-inplay" role="group" aria-label="${esc(owner)}'s cards in play">${inPlay}</div></div>`;
  }

  function moveButton(m, text, extraCls) {
    return `<button class="tokens-action tokens-action-${esc(m.k)} ${extraCls || ""}" data-move="${esc(m.t)}" data-i="${ui.index.get(m)}" ` +
      `title="${esc(m.screen + ": " + m.hint)}">${esc(text)}</button>`;
  }

  // The panel beside the felt has two parts. The dock: the choice in progress, the moves that
  // are not on a card, End turn and the card picked (on a narrow screen it is right under the
  // hand). The rest: every move as a list, a discard pile, the log
  // (folded on a narrow screen: the newest news is on the felt).
  function dockHtml(st) {
    const out = [];
    if (st.prompt) out.push(`<div class="tt-prompt"><b>${esc(st.prompt)}</b></div>`);
    const moves = st.moves || [];
    const loose = moves.filter((m) => !m.c && m.k !== "end");
    if (ui.targeting) {
      const t = ui.targeting;
      out.push(`<div class="tt-ask"><b>${esc(t.verb)} with ${esc(t.name)}:</b> ${TAP} the card to aim at (it glows). Esc cancels.</div>`);
      t.moves.filter((m) => !m.x).forEach((m) => out.push(moveButton(m, m.xname ? `${t.verb}: ${m.xname}` : m.screen, "tt-verb")));
      out.push(`<button class="tt-cancel">Cancel</button>`);
    }
    if (!ui.targeting) loose.forEach((m) => out.push(moveButton(m, m.label === "Choose" ? m.screen : m.label, "tt-verb tt-loose")));
    if (ui.selected && !ui.targeting) {
      const mine = moves.filter((m) => m.c === ui.selected);
      const face = findFace(st, ui.selected);
      const name = face ? face.name : ui.selected;
      out.push(`<div class="tt-ask"><b>${esc(name)}</b>${face && face.rules ? `<div class="tt-rules-text">${rulesHtml(face.rules)}</div>` : ""}</div>`);
      const verbs = new Map();
      mine.forEach((m) => { const key = m.label; if (!verbs.has(key)) verbs.set(key, []); verbs.get(key).push(m); });
      verbs.forEach((list, verb) => {
        if (list.length === 1 && !list[0].x) out.push(moveButton(list[0], verb, "tt-verb"));
        else out.push(`<button class="tt-verb tt-aim" data-verb="${esc(verb)}">${esc(verb)}…</button>`);
      });
      out.push(`<button class="tt-read" data-read="${esc(name)}">Read the whole card</button>`);
    } else if (!ui.targeting && moves.some((m) => m.c)) {
      out.push(`<div class="tt-hint">${TAP[0].toUpperCase() + TAP.slice(1)} a move under a glowing card. ${TAP[0].toUpperCase() + TAP.slice(1)} a card to read it here.</div>`);
    }
    const end = moves.find((m) => m.k === "end");
    if (end && !ui.targeting) out.push(moveButton(end, "End turn", "tt-end"));
    return out.join("");
  }

  function moreHtml(st) {
    const out = [];
    if (st.you !== null && st.you !== undefined && st.over !== true) {
      out.push(`<details class="tt-keys"${ui.keysOpen ? " open" : ""}><summary>Keys</summary><dl>` +
        KEYS_NOTE.map(([k, what]) => `<dt>${esc(k)}</dt><dd>${esc(what)}</dd>`).join("") + `</dl></details>`);
    }
    const moves = st.moves || [];
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
      // open on a wide table; folded into one row on a narrow one, until the student opens it
      const open = ui.logOpen === null ? !narrow() : ui.logOpen;
      out.push(`<details class="tt-log tokens-log-lines"${open ? " open" : ""}><summary><b>What happened</b></summary>` +
        st.log.map((t) => `<div>${esc(t)}</div>`).join("") + `</details>`);
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
    out.push(`<button class="tt-sound" aria-pressed="${soundOn() ? "true" : "false"}" title="A short note when Tokens are scored">Sound</button>`);
    if (st.autoplay && st.has_bot) {
      out.push(`<label class="tt-speed">Computer speed <select>` +
        SPEEDS.map(([ms, w]) => `<option value="${ms}"${ms === st.delay ? " selected" : ""}>${w}</option>`).join("") + `</select></label>`);
    }
    return out.join("");
  }

  // Where the focus goes after a drawing: the first move on a card, a move beside the table,
  // End turn; while the computer plays (or the game is over), the table itself.
  function focusTarget() {
    return root.querySelector(".tt-target") || root.querySelector(".tt-moves .tt-move") ||
      root.querySelector(".tt-panel .tt-loose, .tt-panel .tt-verb") || root.querySelector(".tt-panel .tt-end") ||
      root.querySelector(".tokens-reveal") || root.querySelector(".tokens-again");
  }

  function moveButtons() {
    return [...root.querySelectorAll(".tt-target, .tt-moves .tt-move, .tt-panel .tt-verb, .tt-panel .tt-end, .tt-cancel")];
  }

  // Focus `first`, else the first move that takes the focus, else the table itself: an element
  // that is hidden or disabled at that moment does not take it, and the focus would fall to the
  // page's body (seen right after a Deploy).
  function focusOnTable(first) {
    for (const el of [first, ...moveButtons(), root]) {
      if (!el) continue;
      el.focus({ preventScroll: true });
      if (document.activeElement === el) return;
    }
  }

  function draw() {
    const st = model.get("state") || {};
    const palette = model.get("palette") || {};
    if (!st.sides) { body.innerHTML = ""; return; }
    root.setAttribute("aria-label", (st.title ? st.title : "Card table") + (number > 1 ? ` (table ${number})` : ""));
    ui.index = new Map((st.moves || []).map((m, i) => [m, i])); // a move's index: what the page sends back
    if (ui.sent !== st.v) root.classList.remove("tt-busy");
    // keep the selection only while the card still has moves or is still there
    const moves = st.moves || [];
    if (ui.selected && !findFace(st, ui.selected)) ui.selected = null;
    if (ui.targeting && !ui.targeting.moves.every((m) => moves.some((n) => n.t === m.t))) ui.targeting = null;
    const playable = new Set(moves.filter((m) => m.c).map((m) => m.c));
    const targets = new Set(ui.targeting ? ui.targeting.moves.filter((m) => m.x).map((m) => m.x) : []);
    const active = document.activeElement;
    const focusWasHere = ui.hadFocus || (active && (active === root || root.contains(active)));
    ui.hadFocus = false;
    const focusKey = (() => {
      if (!active || !root.contains(active) || active === root) return null;
      for (const k of ["data-quick", "data-move", "data-verb", "data-discard", "data-read", "data-id"]) if (active.hasAttribute(k)) return `[${k}="${CSS.escape(active.getAttribute(k))}"]`;
      for (const c of ["tokens-undo", "tokens-next", "tokens-pause", "tokens-reveal", "tokens-again", "tt-cancel", "tt-sound"]) if (active.classList.contains(c)) return "." + c;
      if (active.tagName === "SELECT") return ".tt-speed select";
      if (active.tagName === "SUMMARY") return active.closest(".tt-log") ? ".tt-log summary" : active.closest(".tt-keys") ? ".tt-keys summary" : ".tt-movelist summary";
      return null;
    })();
    const [top, bottom] = st.sides;
    const hand = st.you === null || st.you === undefined ? "" :
      `<div class="tt-hand" role="group" aria-label="Your hand: ${plural(st.hand.length, "card")}">` +
      (st.hand.length ? st.hand.map((f, i) => {
        const id = "hand:" + f.name;
        const dup = st.hand.findIndex((g) => g.name === f.name) !== i;
        return cardHtml(palette, st, { face: f, flags: 0 }, { id: dup ? id + "#" + i : id, playable: !dup && playable.has(id), target: false,
          note: `In your hand${f.trainable ? ". Can be trained" : ""}.` });
      }).join("") : `<span class="tt-none">Your hand is empty.</span>`) + `</div>`;
    let banner = "";
    if (st.banner && ui.bannerClosed !== st.game) {
      banner = `<div class="tt-banner tt-banner-${st.banner.won ? "won" : "lost"}" role="alert"><div class="tt-banner-title">${esc(st.banner.title)}</div>` +
        `<div>${esc(st.banner.detail)}</div><div class="tt-banner-buttons">` +
        (st.can_again ? `<button class="tokens-again">Play again</button>` : "") +
        `<button class="tt-look">Look at the board</button></div></div>`;
    }
    const cover = st.cover ? `<div class="tt-cover" role="dialog" aria-label="${esc(st.cover.title)}"><div class="tt-cover-title">${esc(st.cover.title)}</div>` +
      `<div>${esc(st.cover.text)}</div><button class="tokens-reveal">${esc(st.cover.button)}</button></div>` : "";
    // the newest news between the two sides: the computer's move as it is made, or what a move did
    const news = st.note && st.note.text ? `<div class="tt-note tt-note-${esc(st.note.kind || "info")}">${esc(st.note.text)}</div>` : "";
    // the status and the controls head the panel beside the felt: the felt gets the whole height
    const before = stillPlease() || ui.lastGame !== st.game ? null : snapshot();
    body.innerHTML =
      `<div class="tt-main"><div class="tt-felt${st.cover ? " tt-covered" : ""}">` +
      sideHtml(st, top, "top", palette, playable, targets) +
      `<div class="tt-midline">${news}</div>` +
      sideHtml(st, bottom, "bottom", palette, playable, targets) + hand + banner + cover +
      `</div><div class="tt-panel"><div class="tt-dock" role="group" aria-label="Whose turn and your moves">` +
      `<div class="tt-top"><div class="tt-status-box">${st.title ? `<span class="tt-title">${esc(st.title)}</span>` : ""}` +
      `<span class="tokens-status tt-status">${esc(st.status || "")}</span><span class="tokens-step tt-step">${esc(st.step || "")}</span></div>` +
      `<div class="tt-controls">${controlsHtml(st)}</div></div>` +
      `${dockHtml(st)}</div><div class="tt-more" role="group" aria-label="All moves and what happened">${moreHtml(st)}</div></div></div>` +
      `<span class="tokens-tick" hidden>${esc(st.v)}</span>`;
    root.dataset.version = st.v;

    // read out what changed: the computer's move, what a move did, whose turn it is now
    const turnBack = ui.lastBot === true && !st.bot && !st.over && moves.length > 0;
    const newGame = ui.lastGame !== null && ui.lastGame !== st.game;
    if (st.banner) say(`${st.banner.title} ${st.banner.detail}`);
    else if (turnBack) say(`${st.status}. ${st.note && st.note.text ? st.note.text : ""}`);
    else if (st.note && st.note.text) say(st.note.text);
    ui.lastBot = !!st.bot;

    // the focus stays on the table: on what had it, else on the first move, else the table
    let put = focusKey ? root.querySelector(focusKey) : null;
    if (put && put.disabled) put = null;
    const scrollStart = st.scroll && ui.scrolledFor !== st.game;
    if (!put && (focusWasHere || turnBack && root.contains(document.activeElement) || scrollStart || newGame)) {
      put = (!st.bot || st.over) ? focusTarget() : null;
      if (!put) put = root;
    }
    if (put && (focusWasHere || scrollStart || newGame || turnBack && (document.activeElement === root || document.activeElement === document.body))) {
      focusOnTable(put);
    }
    if (before) animate(before, st);
    if (ui.tokens && ui.lastGame === st.game) {
      const me = st.sides.find((side) => side.you) || st.sides[1];
      const was = ui.tokens.get(me.p);
      if (was !== undefined && was !== me.tokens) beep(me.tokens > was);
    }
    ui.tokens = new Map(st.sides.map((side) => [side.p, side.tokens]));
    ui.lastGame = st.game;
    if (scrollStart) {
      // a game started by a click: bring the whole table into view once it is on the page
      const game = st.game;
      const tryScroll = (n) => {
        const r = root.getBoundingClientRect();
        if (r.height === 0) { if (n > 0) setTimeout(() => tryScroll(n - 1), 100); return; }
        ui.scrolledFor = game;
        if (r.top < 0 || r.bottom > window.innerHeight) root.scrollIntoView({ block: "start" });
        const f = (!st.bot ? focusTarget() : null) || root;
        f.focus({ preventScroll: true });
      };
      setTimeout(() => tryScroll(30), 0);
    }
    scheduleStep(st);
    strips();
  }

  // Where every card was before a drawing (its box, name, side, whether it was sideways, lit up,
  // its Flags) and where each side's hand and discard pile were.
  function snapshot() {
    const cards = new Map();
    root.querySelectorAll(".tt-card[data-id]").forEach((el) => {
      const side = el.closest(".tt-side-top") ? "top" : el.closest(".tt-side-bottom") ? "bottom" : "hand";
      cards.set(el.dataset.id, { box: el.getBoundingClientRect(), html: el.outerHTML, side,
        name: (el.querySelector(".tk-name") || {}).textContent || "", sideways: el.classList.contains("tt-sideways"),
        hl: el.classList.contains("tt-hl"), flags: el.querySelectorAll(".tt-flags i").length });
    });
    const backs = root.querySelector(".tt-side-top .tt-hand-backs");
    return { cards, root: root.getBoundingClientRect(), backs: backs ? backs.getBoundingClientRect() : null };
  }

  // The drawing just made, moved from `before` (see MOTION_MS). Only transforms and opacity.
  function animate(before, st) {
    const ease = "cubic-bezier(.2,.7,.3,1)";
    const now = new Map([...root.querySelectorAll(".tt-card[data-id]")].map((el) => [el.dataset.id, el]));
    const handFrom = (name) => {
      for (const [id, b] of before.cards) if (b.side === "hand" && b.name === name && !now.has(id)) return b.box;
      for (const [, b] of before.cards) if (b.side === "hand" && b.name === name) return b.box;
      return null;
    };
    now.forEach((el, id) => {
      if (id.startsWith("hand:")) return;
      const was = before.cards.get(id);
      const box = el.getBoundingClientRect();
      if (!was) { // a card played: from the hand it left (the computer's: its hand of backs)
        const name = (el.querySelector(".tk-name") || {}).textContent || "";
        const from = handFrom(name) || (el.closest(".tt-side-top") ? before.backs : null);
        const dx = from ? from.left - box.left : 0, dy = from ? from.top - box.top : 40;
        el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.9)`, opacity: from ? 0.9 : 0 },
          { transform: "none", opacity: 1 }], { duration: MOTION_MS, easing: ease });
        return;
      }
      const face = el.querySelector(".tk-face");
      if (face && was.sideways !== el.classList.contains("tt-sideways")) { // turned sideways (used) or upright
        const on = el.classList.contains("tt-sideways");
        face.animate([{ transform: on ? "none" : "rotate(90deg)" }, { transform: on ? "rotate(90deg)" : "none" }],
          { duration: 250, easing: ease });
      }
      const flags = el.querySelectorAll(".tt-flags i");
      if (flags.length > was.flags) { // Flags put on it (an Audit): the new ones drop in
        [...flags].slice(was.flags).forEach((f) => f.animate([{ transform: "scale(2.2)", opacity: 0 }, { transform: "none", opacity: 1 }],
          { duration: 300, easing: ease }));
      }
      if (el.classList.contains("tt-hl") && !was.hl) flash(el);
    });
    now.forEach((el, id) => { if (!before.cards.has(id) && el.classList.contains("tt-hl") && !id.startsWith("hand:")) flash(el); });
    const ts = root.querySelectorAll(".tt-pile.tt-ts.tt-hl");
    ts.forEach((el) => flash(el));
    // cards that left play: they turn over on their way to their side's discard pile
    before.cards.forEach((b, id) => {
      if (b.side === "hand" || now.has(id)) return;
      const pile = root.querySelector(`.tt-side-${b.side} .tt-discard`);
      const ghost = document.createElement("div");
      ghost.className = "tt-ghost";
      ghost.setAttribute("aria-hidden", "true");
      ghost.inert = true;
      ghost.innerHTML = b.html;
      const here = root.getBoundingClientRect();
      Object.assign(ghost.style, { left: `${b.box.left - here.left}px`, top: `${b.box.top - here.top}px` });
      root.appendChild(ghost);
      const to = pile ? pile.getBoundingClientRect() : null;
      const dx = to ? to.left - b.box.left : 0, dy = to ? to.top - b.box.top : 0;
      const run = ghost.animate([{ transform: "none", opacity: 1 },
        { transform: "rotateY(90deg) scale(.85)", opacity: 0.8, offset: 0.45 },
        { transform: `translate(${dx}px, ${dy}px) rotateY(90deg) scale(.2)`, opacity: 0 }], { duration: MOTION_MS, easing: "ease-in" });
      run.onfinish = run.oncancel = () => ghost.remove();
      setTimeout(() => ghost.remove(), MOTION_MS + 100);
    });
    // Tokens: the number counts up, a "+2" rises at the player who got them
    st.sides.forEach((side, i) => {
      const old = ui.tokens ? ui.tokens.get(side.p) : undefined;
      if (old === undefined || old === side.tokens) return;
      const box = root.querySelector(`.tt-side-${i === 0 ? "top" : "bottom"} .tt-tokens`);
      if (!box) return;
      const sign = document.createElement("span");
      sign.className = `tt-gain${side.tokens < old ? " tt-loss" : ""}`;
      sign.setAttribute("aria-hidden", "true");
      sign.textContent = `${side.tokens > old ? "+" : "−"}${Math.abs(side.tokens - old)}`;
      box.appendChild(sign);
      const rise = sign.animate([{ transform: "translateY(6px)", opacity: 0 }, { transform: "translateY(-4px)", opacity: 1, offset: 0.3 },
        { transform: "translateY(-18px)", opacity: 0 }], { duration: 400, easing: "ease-out" });
      rise.onfinish = rise.oncancel = () => sign.remove();
      setTimeout(() => sign.remove(), 500);
      const number = box.querySelector("b");
      const start = performance.now();
      const count = (t) => {
        const k = Math.min(1, (t - start) / MOTION_MS);
        if (!number.isConnected) return;
        number.textContent = String(Math.round(old + (side.tokens - old) * k));
        if (k < 1) requestAnimationFrame(count);
      };
      number.textContent = String(old);
      requestAnimationFrame(count);
      setTimeout(() => { if (number.isConnected) number.textContent = String(side.tokens); }, MOTION_MS + 50);
    });
  }

  // Where the computer's move happened lights up once (the glow stays while it is news).
  function flash(el) {
    el.animate([{ transform: "scale(1.06)", filter: "brightness(1.35)" }, { transform: "none", filter: "none" }],
      { duration: MOTION_MS, easing: "ease-out" });
  }

  // A row of cards wider than the table scrolls sideways (table.css). A keyboard reaches it
  // through the buttons in it; a row with none takes the focus itself, so arrow keys scroll it.
  function strips() {
    root.querySelectorAll(".tt-hand, .tt-board").forEach((row) => {
      const scrolls = row.scrollWidth > row.clientWidth + 1 && !row.querySelector("button");
      if (scrolls) row.tabIndex = 0; else row.removeAttribute("tabindex");
    });
  }

  root.addEventListener("click", (ev) => {
    const st = model.get("state") || {};
    const b = ev.target.closest("button, summary");
    if (!b || !root.contains(b)) {
      // a click on a card (not on a move): show it beside the table with all its moves
      const card = ev.target.closest(".tt-card");
      if (card && root.contains(card) && card.dataset.id && !ui.targeting) {
        ui.selected = ui.selected === card.dataset.id ? null : card.dataset.id;
        ui.showDiscard = null;
        draw();
      }
      return;
    }
    if (b.tagName === "SUMMARY") {
      if (b.parentElement.classList.contains("tt-log")) ui.logOpen = !b.parentElement.open;
      else if (b.parentElement.classList.contains("tt-keys")) ui.keysOpen = !b.parentElement.open;
      else ui.listOpen = !b.parentElement.open;
      return;
    }
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
    if (b.dataset.target && ui.targeting) {
      const m = ui.targeting.moves.find((x) => x.x === b.dataset.id);
      if (m) sendMove((st.moves || []).findIndex((n) => n.t === m.t));
      return;
    }
    if (b.dataset.discard !== undefined) { const p = Number(b.dataset.discard); ui.showDiscard = ui.showDiscard === p ? null : p; draw(); return; }
    if (b.classList.contains("tt-close-discard")) { ui.showDiscard = null; draw(); return; }
    if (b.classList.contains("tt-cancel")) { ui.targeting = null; draw(); const f = focusTarget(); if (f) f.focus({ preventScroll: true }); return; }
    if (b.dataset.read) { send({ type: "read", name: b.dataset.read }); return; }
    if (b.classList.contains("tokens-undo")) { ui.selected = null; ui.targeting = null; ui.hadFocus = true; send({ type: "undo" }); return; }
    if (b.classList.contains("tokens-next")) { if (ui.sent === st.v) return; ui.sent = st.v; ui.hadFocus = true; send({ type: "step" }); return; }
    if (b.classList.contains("tokens-pause")) { send({ type: "pause", paused: !st.paused }); if (ui.timer) { clearTimeout(ui.timer); ui.timer = null; } return; }
    if (b.classList.contains("tokens-reveal")) { ui.hadFocus = true; send({ type: "reveal" }); return; }
    if (b.classList.contains("tokens-again")) { ui.hadFocus = true; send({ type: "again" }); return; }
    if (b.classList.contains("tt-sound")) {
      const on = !soundOn();
      try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode: stays off */ }
      b.setAttribute("aria-pressed", on && soundOn() ? "true" : "false");
      return;
    }
    if (b.classList.contains("tt-look")) { ui.bannerClosed = st.game; draw(); root.focus({ preventScroll: true }); return; }
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
      const f = focusTarget();
      if (f) f.focus({ preventScroll: true });
      ev.stopPropagation();
      ev.preventDefault();
      return;
    }
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    // on a card: the arrows step through the cards, Enter (or Space) shows its moves
    const onCard = document.activeElement && document.activeElement.matches && document.activeElement.matches("span.tt-card");
    if (onCard) {
      const cards = [...root.querySelectorAll(".tt-card[data-id]")];
      const i = cards.indexOf(document.activeElement);
      let to = null;
      if (key === "ArrowRight" || key === "ArrowDown") to = cards[(i + 1) % cards.length];
      else if (key === "ArrowLeft" || key === "ArrowUp") to = cards[(i - 1 + cards.length) % cards.length];
      else if (key === "Enter" || key === " ") {
        const id = document.activeElement.dataset.id;
        ui.selected = id; ui.targeting = null; ui.showDiscard = null; draw();
        to = root.querySelector(".tt-panel .tt-dock .tt-verb, .tt-panel .tt-read");
      }
      if (to) { to.focus({ preventScroll: false }); ev.preventDefault(); ev.stopPropagation(); return; }
    }
    // a letter: the next move of its kind (after the one with the focus); C: the first card
    if ((LETTER_KINDS[key] || key === "c" || key === "e") && !(ev.target && ev.target.tagName === "SELECT")) {
      let next = null;
      if (key === "e") next = root.querySelector(".tt-panel .tt-end");
      else if (key === "c") next = root.querySelector(".tt-card[data-id]");
      else {
        const kind = LETTER_KINDS[key];
        const mine = [...root.querySelectorAll(`.tt-moves .tt-quick-${kind}, .tt-panel .tt-dock .tokens-action-${kind}`)];
        next = mine[(mine.indexOf(document.activeElement) + 1) % Math.max(1, mine.length)] || null;
      }
      if (next) { next.focus({ preventScroll: false }); ev.preventDefault(); ev.stopPropagation(); }
      return;
    }
    // arrows step through the moves (cards' moves, then those beside the table); End: End turn
    const list = moveButtons();
    const at = list.indexOf(document.activeElement);
    let next = null;
    if (ev.key === "End") next = root.querySelector(".tt-panel .tt-end");
    else if (at >= 0 && (ev.key === "ArrowRight" || ev.key === "ArrowDown")) next = list[(at + 1) % list.length];
    else if (at >= 0 && (ev.key === "ArrowLeft" || ev.key === "ArrowUp")) next = list[(at - 1 + list.length) % list.length];
    else if (ev.key === "Home" && list.length) next = list[0];
    if (next) { next.focus({ preventScroll: false }); ev.preventDefault(); ev.stopPropagation(); }
  });
  // The focus never falls to the page's body from the table: when the element that had it is
  // taken out of the page (a drawing, or anything else) and nothing else takes it, it comes back
  // to the table. A click elsewhere on the page (the student chose to leave) is left alone.
  let pointerAway = -1e9;
  const onPointer = (ev) => { if (!root.contains(ev.target)) pointerAway = performance.now(); };
  document.addEventListener("pointerdown", onPointer, true);
  root.addEventListener("focusout", (ev) => {
    if (ev.relatedTarget) return;
    setTimeout(() => {
      const now = document.activeElement;
      if (!root.isConnected || (now && now !== document.body) || performance.now() - pointerAway < 1000) return;
      const st = model.get("state") || {};
      focusOnTable((!st.bot || st.over) ? focusTarget() : root);
    }, 0);
  });
  const onResize = () => strips();
  window.addEventListener("resize", onResize);
  model.on("change:state", draw);
  model.on("change:palette", draw);
  model.on("change:pictures", draw);
  draw();
  return () => {
    if (ui.timer) clearTimeout(ui.timer);
    document.removeEventListener("pointerdown", onPointer, true);
    window.removeEventListener("resize", onResize);
  };
}

export default { render };
