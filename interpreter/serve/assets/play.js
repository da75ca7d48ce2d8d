/* The play page of `sogo serve` (interpreter/serve/app.py). It knows nothing of any game: it draws what
   its socket sends (the seat's play mat with renderMat from mat.js, the log, the seat's decision) and
   sends back the ids of the options the person picks. The options of a decision are buttons that say
   what they do; the cards and areas they are about are highlighted on the mat and clickable. The log
   is the brief log (headings for the setup, turns and phases, then lines), or the engine's full log
   when the "full" switch asks the server for it; rules are shown on demand. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const token = location.pathname.split("/").filter(Boolean).pop();
  let ws = null, state = null, picked = new Set();

  function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
  function answer(ids) {
    if (!state || !state.decision) return;
    send({type: "answer", number: state.number, ids: ids});
    // Until the table comes back nothing more can be picked.
    document.querySelectorAll("#decision button").forEach(b => { b.disabled = true; });
    $("decision").classList.add("sent");
  }
  function toast(text, cls) {
    const last = $("notes").firstElementChild;
    if (last && last.dataset.text === text) {  // the same news again: counted, not repeated
      last.dataset.n = Number(last.dataset.n || 1) + 1;
      last.textContent = `${text} (×${last.dataset.n})`;
      return;
    }
    const div = document.createElement("div");
    div.dataset.text = text;
    div.className = "note " + (cls || "");
    div.textContent = text;
    $("notes").prepend(div);
    while ($("notes").children.length > 4) $("notes").lastChild.remove();
  }

  // -- the decision -------------------------------------------------------------------------------
  function single(d) { return d.min === 1 && d.max === 1; }
  function optionsOf(d, pred) { return d.options.filter(pred); }

  function choose(o) {
    const d = state.decision;
    if (single(d)) { answer([o.id]); return; }
    if (picked.has(o.id)) picked.delete(o.id); else if (picked.size < d.max) picked.add(o.id);
    drawDecision();
    drawMat();
  }

  function drawDecision() {
    const box = $("decision");
    box.classList.remove("sent");
    const d = state && state.decision;
    if (!d) {
      box.innerHTML = state && state.waiting ? `<div class="waiting">${esc(state.waiting)}…</div>` : "";
      box.dataset.number = "";
      return;
    }
    box.dataset.number = state.number;
    const span = d.min === d.max ? `choose ${d.min}` : `choose ${d.min} to ${d.max}`;
    const rules = d.rules.length ? ` title="rules ${esc(d.rules.join(", "))}"` : "";
    let html = `<h2${rules}>${esc(d.prompt)}</h2>`;
    if (d.about) html += `<div class="about">${esc(d.about)}</div>`;
    if (!single(d)) html += `<div class="span">${esc(span)} · picked ${picked.size}</div>`;
    html += `<div class="options">`;
    d.options.forEach((o, i) => {
      const on = picked.has(o.id) ? " on" : "";
      const kind = o.card !== undefined ? " card" : o.zone !== undefined ? " zone" : o.id === "pass" ? " pass" : "";
      html += `<button type="button" class="option${kind}${on}" data-i="${i}" data-option-id="${esc(o.id)}">` +
        `<span class="title">${esc(o.title)}</span>${o.detail ? `<span class="detail">${esc(o.detail)}</span>` : ""}</button>`;
    });
    html += `</div>`;
    if (!single(d)) {
      const ok = picked.size >= d.min && picked.size <= d.max;
      html += `<button type="button" id="confirm" class="confirm"${ok ? "" : " disabled"}>` +
        `${picked.size ? `Confirm ${picked.size} chosen` : "Choose none"}</button>`;
    }
    box.innerHTML = html;
    box.querySelectorAll("button.option").forEach(b => b.addEventListener("click", () => choose(d.options[Number(b.dataset.i)])));
    const c = $("confirm");
    if (c) c.addEventListener("click", () => answer([...picked]));
  }

  // -- the mat --------------------------------------------------------------------------------------
  function drawMat() {
    const d = state.decision;
    const byCard = new Map();
    if (d) for (const o of d.options) if (o.card !== undefined) {
      if (!byCard.has(o.card)) byCard.set(o.card, []);
      byCard.get(o.card).push(o);
    }
    const hl = [...byCard.keys()];
    const el = $("mat");
    renderMat(el, state.mat, {
      highlight: hl,
      onCard: oid => {
        const opts = byCard.get(oid);
        if (!opts) return;
        if (opts.length === 1) choose(opts[0]); else menu(oid, opts);
      },
    });
    fit(el);
    $("mat").querySelectorAll(".sogo-card[data-oid]").forEach(n => {
      const opts = byCard.get(Number(n.dataset.oid));
      if (!opts) n.classList.remove("click");
      else if (opts.some(o => picked.has(o.id))) n.classList.add("picked");
    });
    if (!d) return;
    // Areas offered as options: the seat's own cell of that zone (the first mat drawn) is a target.
    const own = $("mat").querySelector(`.sogo-seat[data-seat="${state.seat}"]`);
    for (const o of d.options) {
      if (o.zone === undefined || !own) continue;
      const cell = own.querySelector(`.sogo-cell[data-zone="${CSS.escape(o.zone)}"]`);
      if (!cell) continue;
      cell.classList.add("target");
      if (picked.has(o.id)) cell.classList.add("picked");
      cell.title = `${o.title}${o.detail ? " — " + o.detail : ""}`;
      cell.addEventListener("click", ev => { ev.stopPropagation(); choose(o); });
    }
  }

  // The whole table in view: shrunk to the board's width and the window's height when it is larger.
  function fit(el) {
    const t = el.querySelector(".sogo-table");
    if (!t) return;
    t.style.zoom = "";
    const board = $("board").getBoundingClientRect();
    const w = board.width - 4, h = window.innerHeight - board.top - 12;
    const r = t.getBoundingClientRect();
    const z = Math.min(1, w / r.width, h / r.height);
    if (z < 1) t.style.zoom = Math.max(0.55, z).toFixed(3);
  }
  window.addEventListener("resize", () => { if (state) drawMat(); });

  function menu(oid, opts) {
    const old = document.querySelector(".menu");
    if (old) old.remove();
    const card = $("mat").querySelector(`.sogo-card[data-oid="${oid}"]`);
    const div = document.createElement("div");
    div.className = "menu";
    div.innerHTML = opts.map((o, i) => `<button type="button" data-i="${i}">${esc(o.title)}</button>`).join("") +
      `<button type="button" class="cancel">Cancel</button>`;
    document.body.appendChild(div);
    const r = card.getBoundingClientRect();
    div.style.left = `${window.scrollX + r.left}px`;
    div.style.top = `${window.scrollY + r.bottom + 4}px`;
    div.querySelectorAll("button[data-i]").forEach(b => b.addEventListener("click", () => { div.remove(); choose(opts[Number(b.dataset.i)]); }));
    div.querySelector(".cancel").addEventListener("click", () => div.remove());
  }

  // -- the rest -------------------------------------------------------------------------------------
  function drawLog(lines, reset) {
    const ol = $("log");
    if (reset) { ol.innerHTML = ""; delete ol.dataset.turn; }
    let turn = ol.dataset.turn === undefined || ol.dataset.turn === "" ? null : Number(ol.dataset.turn);
    for (const e of lines) {
      if (e.heading) {  // the brief log's own headings: setup, a turn, a phase
        const h = document.createElement("li");
        h.className = e.heading;
        h.innerHTML = `${esc(e.text)}${e.rules.length ? ` <span class="rules">(${esc(e.rules.join(", "))})</span>` : ""}`;
        ol.appendChild(h);
        continue;
      }
      if (e.turn !== undefined && e.turn !== turn) {  // the full log: a heading where the turn changes
        const h = document.createElement("li");
        h.className = "turn";
        h.textContent = e.turn ? `Turn ${e.turn}` : "Setup";
        ol.appendChild(h);
        turn = e.turn;
      }
      const li = document.createElement("li");
      li.className = `entry${e.kind ? " k-" + e.kind : ""}${e.chance ? " chance" : ""}`;
      li.innerHTML = `${esc(e.text)}${e.rules.length ? ` <span class="rules">(${esc(e.rules.join(", "))})</span>` : ""}`;
      ol.appendChild(li);
    }
    ol.dataset.turn = turn === null ? "" : turn;
    ol.scrollTop = ol.scrollHeight;
  }

  function onState(m) {
    $("handover").hidden = true;
    const fresh = !state || state.number !== m.number || !m.decision;
    if (fresh) picked = new Set();
    state = m;
    const you = `P${m.seat + 1}`;
    $("status").textContent = m.decision ? `${you}: your decision` : m.waiting ? `${you}: ${m.waiting}` : you;
    document.body.classList.toggle("your-turn", !!m.decision);
    drawMat();
    drawDecision();
    drawLog(m.log, m.log_reset);
    for (const n of m.notes || []) toast(n, "forced");
    const res = $("result");
    if (m.result || m.error) {
      res.hidden = false;
      res.innerHTML = `<b>${esc(m.result || m.error)}</b> <button type="button" id="again">New game</button>`;
      $("again").addEventListener("click", () => send({type: "new_game"}));
    } else res.hidden = true;
  }

  function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "state") onState(m);
    else if (m.type === "refused") { toast(m.message, "refused"); if (state) drawDecision(); }
    else if (m.type === "saved") {
      const links = m.download ? ` <a href="${esc(m.download)}" download>download</a> · <a href="${esc(m.view)}" target="_blank">view</a>` : "";
      $("saved").innerHTML = `Replay saved: <code>${esc(m.path)}</code>${links}` +
        (m.final ? "" : " (the game goes on; it can be downloaded here once the game is over)");
    } else if (m.type === "handover") {
      // A hotseat table: nothing of the previous seat stays on the screen.
      state = null;
      $("mat").innerHTML = ""; $("decision").innerHTML = ""; $("log").innerHTML = ""; $("notes").innerHTML = "";
      $("handover-text").textContent = `${m.name}'s turn to decide: hand the screen to ${m.name}.`;
      $("handover").hidden = false;
      $("status").textContent = `waiting for ${m.name}`;
    }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(token)}`);
    ws.addEventListener("message", onMessage);
    ws.addEventListener("close", () => { $("status").textContent = "disconnected (reload the page to reconnect)"; });
  }

  $("save").addEventListener("click", () => send({type: "save"}));
  $("ready").addEventListener("click", () => send({type: "ready"}));
  $("full-log").addEventListener("change", e => send({type: "log", full: e.target.checked}));
  $("show-rules").addEventListener("change", e => document.body.classList.toggle("show-rules", e.target.checked));
  document.addEventListener("click", e => {
    const m = document.querySelector(".menu");
    if (m && !m.contains(e.target) && !e.target.closest(".sogo-card")) m.remove();
  });
  connect();
})();
