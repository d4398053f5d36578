// The teacher dashboard's page script: filters, the answer wall's buttons, live updates.
// The replay page adds static/replay.js. Everything the server sends is text or escaped HTML
// made by its templates; this script never builds HTML from data.
"use strict";
(function () {
  const base = document.body.dataset.base || "/";
  const live = document.getElementById("live");
  const status = document.getElementById("live-status");

  // One clock for the whole kit: 24-hour time, as the students' pages and the server's pages
  // write it (tokens_edu/teacher/words.py).
  const two = n => String(n).padStart(2, "0");
  const clock = d => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  const say = text => { if (status) status.textContent = text; };

  // Filters: a changed select submits its form at once (the Set button is for pages without script).
  document.querySelectorAll("select.auto-submit, input.auto-submit").forEach(el =>
    el.addEventListener("change", () => el.form.submit()));
  document.querySelectorAll("button.no-js").forEach(b => { b.hidden = true; });
  const wallSelect = document.querySelector("select.wall-select");
  if (wallSelect) wallSelect.addEventListener("change", () => {
    window.location.href = base + "wall?" + wallSelect.value;
  });

  // Answer wall: bigger or smaller text (kept in this browser), full screen.
  const size = () => parseFloat(localStorage.getItem("tokens-wall-size") || "1.6");
  const setSize = s => {
    s = Math.max(0.8, Math.min(4, s));
    localStorage.setItem("tokens-wall-size", String(s));
    document.documentElement.style.setProperty("--wall-size", s + "rem");
  };
  if (document.body.classList.contains("page-wall")) setSize(size());
  const click = (sel, fn) => { const b = document.querySelector(sel); if (b) b.addEventListener("click", fn); };
  click("button.bigger", () => setSize(size() * 1.2));
  click("button.smaller", () => setSize(size() / 1.2));
  click("button.fullscreen", () => {
    const el = document.querySelector("main");
    if (document.fullscreenElement) document.exitFullscreen(); else if (el.requestFullscreen) el.requestFullscreen();
  });

  // Live updates: the server says when the data changed; the page fetches its new content.
  if (!live || !live.dataset.live || !window.EventSource) return;
  let loading = false, again = false;
  const refresh = () => {
    if (window.tokensReplay) { window.tokensReplay.refresh(); return; }
    if (loading) { again = true; return; }
    loading = true;
    const url = new URL(window.location.href);
    url.searchParams.set("fragment", "1");
    fetch(url, {credentials: "same-origin"})
      .then(r => { if (r.redirected || !r.ok) throw new Error("login"); return r.text(); })
      .then(html => {
        live.innerHTML = html;  // the server's template, escaped there
        say("Live \u00b7 updated " + clock(new Date()));
      })
      .catch(() => say("Not updating: log in again."))
      .finally(() => { loading = false; if (again) { again = false; refresh(); } });
  };
  // The first message comes at once: refresh then too, in case something changed between
  // the page being made and the connection opening.
  const source = new EventSource(base + "events");
  source.onmessage = () => refresh();
  source.onerror = () => say("Reconnecting\u2026");
  source.onopen = () => say("Live");
})();
