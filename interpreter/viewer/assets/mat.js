/* The play mat: renderMat(element, mat, options) draws a mat JSON (interpreter/viewer/mat.py) into
   `element`, styled by mat.css. The seat the mat was made for sits at the bottom, the other players
   above it (their mats already turned round by mat.py), the shared zones and the turn between them.
   options: onCard(oid) - called when a card is clicked (cards become clickable);
            highlight: [oid, ...] - cards drawn highlighted (the options of a decision);
            cards: {card id: {name, type}} - card names, for mats whose own `cards` were left out.
   It draws only what the mat holds: a hidden card is a card back, whatever asked for it. */
"use strict";
(function () {
  const CW = 64, CH = 90, SLOT = 96, GAP = 6;
  const esc = s => String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  function hue(name) {
    let h = 0;
    for (const ch of String(name)) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return h;
  }
  function typeColor(type) { return `hsl(${hue(type)}, 42%, 40%)`; }
  function fmt(v) {
    if (v === null || v === undefined) return "\u2013";
    if (Array.isArray(v)) return v.map(fmt).join(", ");
    if (typeof v === "object") return Object.entries(v).map(([k, n]) => `${k} ${n}`).join(", ");
    return String(v);
  }
  function cellWidth(w) { return w * SLOT + (w - 1) * GAP; }

  function renderMat(el, m, options) {
    const opts = options || {};
    const cards = Object.assign({}, opts.cards || {}, m.cards || {});
    const hl = new Set(opts.highlight || []);
    const pal = m.palette || {};
    const click = typeof opts.onCard === "function";

    function pips(v, cls) {
      const one = (k, n) => `<span class="pip" style="--c:${esc(pal[k] || `hsl(${hue(k)},45%,50%)`)}" title="${esc(k)}${n > 1 ? " \u00d7" + n : ""}">${n > 1 ? n : ""}</span>`;
      if (Array.isArray(v)) return `<div class="${cls}">${v.map(k => one(k, 1)).join("")}</div>`;
      if (v && typeof v === "object") return `<div class="${cls}">${Object.entries(v).map(([k, n]) => one(k, n)).join("")}</div>`;
      return "";
    }
    function tip(t, info) {
      const lines = [info ? info.name : "hidden card"];
      for (const f of t.fields || []) lines.push(`${f.label}: ${fmt(f.value)}${f.max !== undefined ? " / " + fmt(f.max) : ""}`);
      for (const [k, n] of Object.entries(t.counters || {})) lines.push(`${k}: ${n}`);
      for (const tag of t.tags || []) lines.push(tag);
      for (const h of t.held || []) lines.push(`${h.held_look}: ${h.hidden ? "hidden card" : (cards[h.card] || {name: h.card}).name}`);
      if ((t.looks || []).includes("face_down")) lines.push("face down");
      for (const f of t.facts || []) lines.push(f);
      return lines.join("\n");
    }
    function face(t) {
      const looks = t.looks || [];
      const cls = ["sogo-card"];
      if (click) cls.push("click");
      if (hl.has(t.oid)) cls.push("hl");
      if (looks.includes("dim")) cls.push("dim");
      if (t.hidden) {
        const facts = (t.facts || []).length ? `<div class="facts">${esc(t.facts.join(", "))}</div>` : "";
        return `<div class="${cls.join(" ")} back" data-oid="${t.oid}" title="${esc(tip(t, null))}">${facts}</div>`;
      }
      const info = cards[t.card] || {name: t.card, type: ""};
      if (looks.includes("face_down")) cls.push("facedown");
      let corner = "", badge = "", foot = "";
      const stats = [];
      for (const f of t.fields || []) {
        if (f.at === "corner") { corner = `<div class="corner" title="${esc(f.label)}">${esc(fmt(f.value))}</div>`; cls.push("has-corner"); }
        else if (f.at === "badge") {
          // A number says what it counts ("AP 3000"); a word (a level, a kind) speaks for itself.
          const text = typeof f.value === "number" && f.label.length <= 6 ? `${f.label} ${f.value}` : fmt(f.value);
          badge = `<div class="badge" title="${esc(f.label)}">${esc(text)}</div>`;
          cls.push("has-badge");
        }
        else if (f.at === "icons") foot += pips(f.value, "icons");
        else if (f.at === "meter") {
          const max = Number(f.max) || 0, val = Number(f.value) || 0;
          const pct = max > 0 ? Math.max(0, Math.min(100, 100 * val / max)) : 0;
          foot += `<div class="meter${pct <= 34 ? " low" : ""}" title="${esc(f.label)}"><i style="width:${pct}%"></i><span>${esc(f.label)} ${esc(fmt(f.value))}/${esc(fmt(f.max))}</span></div>`;
        } else if (f.value !== null && typeof f.value === "object") {
          stats.push(`<span title="${esc(f.label)}">${pips(f.value, "icons")}</span>`);
        } else stats.push(`<span>${esc(f.label)} <b>${esc(fmt(f.value))}</b></span>`);
      }
      if (stats.length) foot = `<div class="stats">${stats.join("")}</div>` + foot;
      const chips = Object.entries(t.counters || {}).map(([k, n]) => `<span class="chip" title="${esc(k)}">${esc(k)} ${esc(n)}</span>`)
        .concat((t.tags || []).map(x => `<span class="chip tag">${esc(x)}</span>`));
      const head = corner || badge ? `<div class="head">${corner}${badge}</div>` : "";
      return `<div class="${cls.join(" ")}" data-oid="${t.oid}" style="--type:${typeColor(info.type)}" title="${esc(tip(t, info))}">` +
        `<div class="band"></div>${head}<div class="name">${esc(info.name)}</div>` +
        (chips.length ? `<div class="chips">${chips.join("")}</div>` : "") + `<div class="foot">${foot}</div></div>`;
    }
    function slot(t, z) {
      const sideways = (t.looks || []).includes("sideways");
      const held = t.held || [];
      const under = held.filter(h => h.held_look !== "attached");
      const attached = held.filter(h => h.held_look === "attached");
      let html = "";
      under.slice(0, 3).forEach((h, i) => {
        html += `<div class="sogo-under${h.hidden ? " hidden" : ""}" style="top:${-(i + 1) * 5}px;z-index:${-1 - i}" title="${esc(h.hidden ? "hidden card" : (cards[h.card] || {name: h.card}).name)} (under)"></div>`;
      });
      if (attached.length) {
        html += `<div class="sogo-attached">${attached.map(h => {
          const name = h.hidden ? "hidden card" : (cards[h.card] || {name: h.card}).name;
          const c = h.color ? (pal[h.color] || `hsl(${hue(h.color)},45%,50%)`) : "";
          return `<span class="att${c ? "" : " square"}"${c ? ` style="--c:${esc(c)}"` : ""} title="${esc(name)}"></span>`;
        }).join("")}</div>`;
      }
      const count = under.length ? `<span class="sogo-count under" title="cards under it">+${under.length}</span>` : "";
      // In an overlapping row a card turned sideways lies under the next one's left, its top showing.
      const zi = z === undefined ? "" : `;z-index:${z}`;
      return `<div class="sogo-slot${sideways ? " sideways" : ""}" style="isolation:isolate${zi}">${html}${face(t)}${count}</div>`;
    }
    function cell(c) {
      const w = cellWidth(c.width);
      let body;
      if (c.show === "count") {
        body = c.count ? `<div class="sogo-pile${c.count > 1 ? " deep" : ""}"><div class="sogo-card back counted" title="${esc(c.label)}: ${c.count} cards"><span class="big">${c.count}</span></div></div>`
          : `<div class="sogo-empty"></div>`;
      } else if (c.show === "stack") {
        if (c.top) {
          // The pile's own cards: those held by its top card are drawn with it.
          const pile = c.count - (c.top.held || []).length;
          const n = pile > 1 ? `<span class="sogo-count" title="${pile} cards">${pile}</span>` : "";
          body = `<div class="sogo-pile${pile > 1 ? " deep" : ""}">${slot(c.top)}${n}</div>`;
        } else body = `<div class="sogo-empty"></div>`;
      } else {
        const list = c.cards || [];
        const widths = list.map(t => ((t.looks || []).includes("sideways") ? CH : CW));
        const total = widths.reduce((a, b) => a + b, 0);
        const avail = w - 6;
        let gap = c.show === "fan" ? -Math.round(CW * 0.3) : 4;
        if (list.length > 1 && total + gap * (list.length - 1) > avail) gap = Math.floor((avail - total) / (list.length - 1));
        if (list.length > 1 && total + gap * (list.length - 1) < avail && c.show === "fan") gap = Math.min(4, Math.floor((avail - total) / (list.length - 1)));
        body = list.length ? `<div class="sogo-cards ${c.show}" style="--overlap:${gap}px">${list.map((t, i) => slot(t, (t.looks || []).includes("sideways") ? 100 + list.length - i : 100 + i)).join("")}</div>` : "";
      }
      return `<div class="sogo-cell" style="width:${w}px" data-zone="${esc(c.zone)}"><div class="label">${esc(c.label)}<b>${c.count || ""}</b></div>${body}</div>`;
    }
    function seat(p, small) {
      const rows = p.rows.map(r => `<div class="sogo-row">${r.cells.map(cell).join("")}</div>`).join("");
      const roles = (p.you ? [`<span class="role you">you</span>`] : []).concat(p.roles.map(r => `<span class="role">${esc(r)}</span>`))
        .concat(p.left ? [`<span class="role out">left the game</span>`] : []);
      const vals = p.values.map(v => `<span>${esc(v.label)}</span><b>${esc(fmt(v.value))}</b>`).join("");
      const panel = `<div class="sogo-panel"><div class="who"><span class="dot"></span>${esc(p.name)}</div>` +
        `<div class="roles">${roles.join("")}</div><div class="vals">${vals}</div></div>`;
      const cls = ["sogo-seat"];
      if (p.turn) cls.push("turn");
      if (p.left) cls.push("out");
      if (small) cls.push("small");
      return `<div class="${cls.join(" ")}" data-seat="${p.seat}">${panel}<div class="sogo-mat">${rows}</div></div>`;
    }
    function banner() {
      const r = m.result;
      if (r) {
        const who = r.winner !== null && r.winner !== undefined ? `P${r.winner + 1} wins` : esc(r.outcome || "game over");
        const why = (r.rules || []).length ? ` (${esc(r.rules[0])})` : "";
        return `<div class="sogo-banner result">${who}${why}, turn ${esc(r.turn)}</div>`;
      }
      const tp = m.turn_player !== null && m.turn_player !== undefined ? `<b>P${m.turn_player + 1}</b>'s turn \u00b7 ` : "";
      return `<div class="sogo-banner">Turn ${esc(m.turn)} \u00b7 ${tp}${esc(m.phase)}</div>`;
    }
    const [own, ...others] = m.players;
    const theme = m.theme || {};
    const vars = ["table", "mat", "accent"].filter(k => theme[k]).map(k => `--${k}:${theme[k]}`).join(";");
    const middle = [banner()].concat((m.shared || []).filter(c => c.count).map(cell))
      .concat((m.elsewhere || []).map(cell));
    el.innerHTML = `<div class="sogo-table" style="${esc(vars)}">` +
      `<div class="sogo-seats">${others.map(p => seat(p, others.length > 1)).join("")}</div>` +
      `<div class="sogo-middle">${middle.join("")}</div>` +
      `<div class="sogo-seats">${seat(own, false)}</div></div>`;
    if (click) {
      el.querySelectorAll(".sogo-card[data-oid]").forEach(node => {
        node.addEventListener("click", () => opts.onCard(Number(node.dataset.oid)));
      });
    }
  }
  window.renderMat = renderMat;
})();
