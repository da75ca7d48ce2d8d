"""The replay viewer's page: HTML, styles and script in one string (`__TITLE__` and `__DATA__` are
filled in by interpreter/viewer/__init__.py). It loads nothing from anywhere.

Controls: Previous / Next (or the arrow keys), a turn list to jump to a turn's first decision, and a
"seen by" list that shows the board as the whole record or as one player could see it. Clicking a
rule number in the log or the decision shows that rule's text when the page carries it.
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f5f5f7; }
header { background: #1d1d1f; color: #fff; padding: 8px 16px; display: flex; gap: 16px; align-items: center;
         flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header button, header select { font: inherit; padding: 2px 10px; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; padding: 12px; }
section { background: #fff; border-radius: 6px; padding: 8px 12px; box-shadow: 0 1px 2px #0002; }
h2 { font-size: 14px; margin: 4px 0 8px; }
.players { display: grid; gap: 8px; }
.zone { margin: 2px 0 6px; }
.zone b { display: inline-block; min-width: 150px; font-weight: 600; }
.card { display: inline-block; border: 1px solid #c7c7cc; border-radius: 4px; padding: 1px 6px; margin: 2px;
        background: #fafafa; }
.card.hidden { background: #d1d1d6; color: #555; }
.card .st { color: #b25000; margin-left: 4px; }
.card.under { border-style: dashed; }
#decision .opt { margin-left: 12px; }
#decision .taken { font-weight: 700; color: #0a6; }
#decision .error { color: #c00; font-weight: 700; }
#log { max-height: 70vh; overflow: auto; font-family: ui-monospace, monospace; font-size: 12px; }
#log div { white-space: pre-wrap; border-bottom: 1px solid #eee; padding: 1px 0; }
#log div.new { background: #fff7d6; }
#log .chance { color: #7a3cc2; }
a.rule { color: #0060c0; cursor: pointer; text-decoration: underline; margin-right: 4px; }
#ruletext { white-space: pre-wrap; background: #eef4ff; border-left: 3px solid #0060c0; padding: 6px;
            margin-top: 8px; display: none; }
.kv { font-family: ui-monospace, monospace; font-size: 12px; }
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <button id="prev" title="Previous decision (left arrow)">&#9664; Previous</button>
  <span id="pos"></span>
  <button id="next" title="Next decision (right arrow)">Next &#9654;</button>
  <label>Turn <select id="turn"></select></label>
  <label>Seen by <select id="seen"></select></label>
</header>
<main>
  <div>
    <section id="decision"></section>
    <section><h2 id="boardhead">Board</h2><div id="board" class="players"></div></section>
    <section><h2>Counters, roles and variables</h2><div id="state" class="kv"></div></section>
  </div>
  <div>
    <section><h2>Log</h2><div id="log"></div><div id="ruletext"></div></section>
  </div>
</main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
let at = 0;
let seer = -1;  // -1: the whole record; otherwise a player index
const el = id => document.getElementById(id);
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function rulesHtml(rules) {
  return rules.map(r => `<a class="rule" data-rule="${esc(r)}">${esc(r)}</a>`).join("");
}
function showRule(r) {
  const box = el("ruletext");
  box.style.display = "block";
  box.textContent = (r in D.rules) ? `${r}\\n${D.rules[r]}` : `${r}: no rules text in this page (sogo replay FILE --html OUT --rules RULES_FILE adds it)`;
}
function cardHtml(c) {
  const [oid, cid, states, holder, mask] = c;
  const hidden = seer >= 0 && (mask & (1 << seer));
  if (hidden) return `<span class="card hidden" title="#${oid}">hidden</span>`;
  const info = D.cards[cid] || {name: cid, summary: cid};
  const cls = "card" + (holder ? " under" : "");
  const st = states ? `<span class="st">${esc(states)}</span>` : "";
  const under = holder ? ` (under #${holder})` : "";
  return `<span class="${cls}" title="#${oid} ${esc(info.summary)}${under}">${esc(info.name)}${st}</span>`;
}
function render() {
  const s = D.snapshots[at];
  el("pos").textContent = `${at + 1} / ${D.snapshots.length} - turn ${s.turn} - ${s.node}`;
  el("turn").value = String(s.turn);
  const groups = {};
  for (const [key, cards] of Object.entries(s.zones)) {
    const [zone, owner] = key.includes("@") ? key.split("@") : [key, "shared"];
    (groups[owner] = groups[owner] || []).push([zone, cards]);
  }
  let html = "";
  for (const owner of Object.keys(groups).sort()) {
    html += `<div class="player"><h2>${esc(owner)}</h2>`;
    for (const [zone, cards] of groups[owner].sort()) {
      html += `<div class="zone"><b>${esc(zone)} (${cards.length})</b>${cards.map(cardHtml).join("")}</div>`;
    }
    html += "</div>";
  }
  el("board").innerHTML = html;
  el("boardhead").textContent = seer < 0 ? "Board (the whole record)" : `Board as P${seer + 1} could see it`;
  const d = s.decision;
  let dh = "";
  if (d) {
    dh = `<h2>Decision: P${d.player + 1} - ${esc(d.prompt)} (choose ${d.min === d.max ? d.min : d.min + "-" + d.max})</h2>`;
    dh += `<div>Rules: ${rulesHtml(d.rules)}</div>`;
    dh += d.options.map(o => `<div class="opt${d.answer.includes(o) ? " taken" : ""}">${d.answer.includes(o) ? "&#10004; " : ""}${esc(o)}</div>`).join("");
    if (!d.answer.length) dh += `<div class="opt taken">&#10004; (nothing chosen)</div>`;
    if (d.error) dh += `<div class="error">${esc(d.error)}</div>`;
  } else {
    const r = s.result;
    dh = `<h2>End of the recording</h2><div>${r ? (r.winner !== null && r.winner !== undefined ? "P" + (r.winner + 1) + " wins" : esc(r.outcome)) + " on turn " + r.turn : esc(JSON.stringify(D.end))}</div>`;
  }
  el("decision").innerHTML = dh;
  const counters = s.counters.map((c, i) => `P${i + 1}: ${esc(JSON.stringify(c))}`).join("<br>");
  el("state").innerHTML = `${counters}<br>roles: ${esc(JSON.stringify(s.roles))}<br>vars: ${esc(JSON.stringify(s.vars))}`;
  const prev = at > 0 ? D.snapshots[at - 1].log : 0;
  const rows = [];
  for (let i = 0; i < s.log; i++) {
    const [turn, node, kind, text, rules, chance, mask, redacted] = D.log[i];
    const shown = (seer >= 0 && (mask & (1 << seer))) ? redacted : text;
    rows.push(`<div class="${i >= prev ? "new" : ""}">T${turn} ${chance ? '<span class="chance">[chance]</span> ' : ""}${esc(shown)} ${rulesHtml(rules)}</div>`);
  }
  const log = el("log");
  log.innerHTML = rows.join("");
  log.scrollTop = log.scrollHeight;
}
function go(i) { at = Math.max(0, Math.min(D.snapshots.length - 1, i)); render(); }
el("title").textContent = D.title;
el("prev").onclick = () => go(at - 1);
el("next").onclick = () => go(at + 1);
document.addEventListener("keydown", e => { if (e.key === "ArrowLeft") go(at - 1); if (e.key === "ArrowRight") go(at + 1); });
const turns = [...new Set(D.snapshots.map(s => s.turn))];
el("turn").innerHTML = turns.map(t => `<option value="${t}">${t}</option>`).join("");
el("turn").onchange = e => go(D.snapshots.findIndex(s => String(s.turn) === e.target.value));
el("seen").innerHTML = `<option value="-1">everything</option>` + [...Array(D.players).keys()].map(p => `<option value="${p}">P${p + 1}</option>`).join("");
el("seen").onchange = e => { seer = Number(e.target.value); render(); };
document.addEventListener("click", e => { const r = e.target.closest("a.rule"); if (r) showRule(r.dataset.rule); });
go(0);
</script>
</body>
</html>
"""
