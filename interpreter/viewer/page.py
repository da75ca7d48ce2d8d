"""The replay viewer's page: HTML, styles and script in one string (`__TITLE__`, `__MATCSS__`,
`__MATJS__` and `__DATA__` are filled in by interpreter/viewer/__init__.py). It loads nothing from
anywhere: the play mat's script and styles (interpreter/viewer/assets/) are inlined.

The board is the game's play mat (assets/mat.js draws each snapshot's mat). Controls: first /
previous / next / last (or the arrow keys, Home and End), autoplay at a chosen pace (space starts
and stops it), a turn list to jump to a turn's first decision, and a "seen by" list that shows the
table as the whole record or as one player could see it (that player at the bottom). Every step has
its own link (`#step=N`, the step counter is that link), so a page opens at the step its address
names. Clicking a rule number in the log or the decision shows that rule's text when the page
carries it. The engine's counters and variables are kept in a closed "engine state" section.
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
__MATCSS__
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #e9e6df; }
header { background: #1d1d1f; color: #fff; padding: 8px 16px; display: flex; gap: 12px; align-items: center;
         flex-wrap: wrap; position: sticky; top: 0; z-index: 10; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header button, header select { font: inherit; padding: 2px 10px; }
header a#pos { color: #fff; font-variant-numeric: tabular-nums; text-decoration: none; border-bottom: 1px dotted #fff8; }
main { display: grid; grid-template-columns: max-content minmax(320px, 1fr); gap: 12px; padding: 12px; align-items: start; }
section { background: #fff; border-radius: 8px; padding: 8px 12px; box-shadow: 0 1px 2px #0002; margin-bottom: 12px; }
h2 { font-size: 14px; margin: 4px 0 8px; }
#decision .opt { margin-left: 12px; }
#decision .taken { font-weight: 700; color: #0a6; }
#decision .error { color: #c00; font-weight: 700; }
#log { max-height: 62vh; overflow: auto; font-family: ui-monospace, monospace; font-size: 12px; }
#log div { white-space: pre-wrap; border-bottom: 1px solid #eee; padding: 1px 0; }
#log div.new { background: #fff7d6; }
#log .chance { color: #7a3cc2; }
a.rule { color: #0060c0; cursor: pointer; text-decoration: underline; margin-right: 4px; }
#ruletext { white-space: pre-wrap; background: #eef4ff; border-left: 3px solid #0060c0; padding: 6px;
            margin-top: 8px; display: none; }
.kv { font-family: ui-monospace, monospace; font-size: 12px; }
details summary { cursor: pointer; font-weight: 600; }
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <button id="first" title="First step (Home)">&#9198;</button>
  <button id="prev" title="Previous decision (left arrow)">&#9664; Previous</button>
  <a id="pos" href="#step=1" title="A link to this step"></a>
  <button id="next" title="Next decision (right arrow)">Next &#9654;</button>
  <button id="last" title="Last step (End)">&#9197;</button>
  <button id="play" title="Autoplay (space)">&#9654; Play</button>
  <select id="pace" title="Autoplay pace"><option value="1500">slow</option><option value="700" selected>normal</option><option value="250">fast</option></select>
  <label>Turn <select id="turn"></select></label>
  <label>Seen by <select id="seen"></select></label>
</header>
<main>
  <div id="board"></div>
  <div>
    <section id="decision"></section>
    <section><h2>Log</h2><div id="log"></div><div id="ruletext"></div></section>
    <section><details><summary>Engine state: counters, roles and variables</summary><div id="state" class="kv"></div></details></section>
  </div>
</main>
<script>
__MATJS__
</script>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
let at = 0;
let seer = -1;  // -1: the whole record; otherwise a player index
let timer = null;
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
function matOf(s) {
  // Cells are kept once in D.cells and named by their number in each snapshot's mats.
  const raw = s.mats[seer + 1];
  const cells = ks => ks.map(k => D.cells[k]);
  return Object.assign({}, raw, {
    palette: D.palette, theme: D.theme,
    players: raw.players.map(p => Object.assign({}, p, {rows: p.rows.map(r => ({id: r.id, cells: cells(r.cells)}))})),
    shared: cells(raw.shared), elsewhere: cells(raw.elsewhere)});
}
function render() {
  const s = D.snapshots[at];
  const pos = el("pos");
  pos.textContent = `step ${at + 1} / ${D.snapshots.length} - turn ${s.turn}`;
  pos.href = `#step=${at + 1}`;
  if (location.hash !== `#step=${at + 1}`) history.replaceState(null, "", `#step=${at + 1}`);
  el("turn").value = String(s.turn);
  const d = s.decision;
  renderMat(el("board"), matOf(s), {cards: D.cards, highlight: d ? d.cards : []});
  let dh = "";
  if (d) {
    dh = `<h2>P${d.player + 1} decides: ${esc(d.prompt)} (choose ${d.min === d.max ? d.min : d.min + "-" + d.max})</h2>`;
    dh += `<div>Rules: ${rulesHtml(d.rules)}</div>`;
    dh += d.options.map(o => `<div class="opt${d.answer.includes(o) ? " taken" : ""}">${d.answer.includes(o) ? "&#10004; " : ""}${esc(o)}</div>`).join("");
    if (!d.answer.length) dh += `<div class="opt taken">&#10004; (nothing chosen)</div>`;
    if (d.error) dh += `<div class="error">${esc(d.error)}</div>`;
  } else {
    const r = s.result;
    dh = `<h2>End of the recording</h2><div>${r ? (r.winner !== null && r.winner !== undefined ? "P" + (r.winner + 1) + " wins" : esc(r.outcome)) + " on turn " + r.turn + " " + rulesHtml(r.rules || []) : esc(JSON.stringify(D.end))}</div>`;
  }
  el("decision").innerHTML = dh;
  const counters = s.counters.map((c, i) => `P${i + 1}: ${esc(JSON.stringify(c))}`).join("<br>");
  el("state").innerHTML = `node: ${esc(s.node)}<br>${counters}<br>roles: ${esc(JSON.stringify(s.roles))}<br>vars: ${esc(JSON.stringify(s.vars))}`;
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
function stop() { if (timer) clearInterval(timer); timer = null; el("play").innerHTML = "&#9654; Play"; }
function play() {
  if (timer) return stop();
  if (at >= D.snapshots.length - 1) go(0);
  el("play").innerHTML = "&#10074;&#10074; Pause";
  timer = setInterval(() => { if (at >= D.snapshots.length - 1) stop(); else go(at + 1); }, Number(el("pace").value));
}
function fromHash() {
  const m = /^#step=(\\d+)$/.exec(location.hash);
  return m ? Number(m[1]) - 1 : 0;
}
el("title").textContent = D.title;
el("first").onclick = () => go(0);
el("prev").onclick = () => go(at - 1);
el("next").onclick = () => go(at + 1);
el("last").onclick = () => go(D.snapshots.length - 1);
el("play").onclick = play;
el("pace").onchange = () => { if (timer) { stop(); play(); } };
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft") go(at - 1);
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "Home") go(0);
  if (e.key === "End") go(D.snapshots.length - 1);
  if (e.key === " ") { e.preventDefault(); play(); }
});
window.addEventListener("hashchange", () => { const i = fromHash(); if (i !== at) go(i); });
const turns = [...new Set(D.snapshots.map(s => s.turn))];
el("turn").innerHTML = turns.map(t => `<option value="${t}">${t}</option>`).join("");
el("turn").onchange = e => go(D.snapshots.findIndex(s => String(s.turn) === e.target.value));
el("seen").innerHTML = `<option value="-1">everything</option>` + [...Array(D.players).keys()].map(p => `<option value="${p}">P${p + 1}</option>`).join("");
el("seen").onchange = e => { seer = Number(e.target.value); render(); };
document.addEventListener("click", e => { const r = e.target.closest("a.rule"); if (r) showRule(r.dataset.rule); });
go(fromHash());
</script>
</body>
</html>
"""
