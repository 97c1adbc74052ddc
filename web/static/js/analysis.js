// analysis.js: draws the engines' analysis of a finished game (GET
// /api/v1/tables/{id}/analysis, docs/analysis.md) in the replay viewer:
// marks for the move list, a chart of the game and, for Salvo, the
// shooter's probability map as a heat map. Everything is inline SVG made
// here; nothing is fetched but the analysis. The replay viewer loads this
// module only when asked to analyse, so the home page never pays for it.

import { h, plural } from "./dom.js";
import { call } from "./api.js";

const NS = "http://www.w3.org/2000/svg";

function s(tag, attrs, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) el.setAttribute(k, v);
  for (const k of kids.flat()) if (k != null) el.append(typeof k === "string" ? document.createTextNode(k) : k);
  return el;
}

// fetchAnalysis asks the server for table id's analysis.
export function fetchAnalysis(id) {
  return call("GET", `/tables/${encodeURIComponent(id)}/analysis`);
}

// notesByIndex returns the analysis's notes keyed by the move's 1-based
// index in the record.
export function notesByIndex(a) {
  const g = a && a[a.game];
  const out = new Map();
  for (const n of (g && g.moves) || []) out.set(n.index, n);
  return out;
}

// forfeitsByIndex returns why the server played each move it played for
// a seat ("timeout" or "claim"), keyed by the move's 1-based index: a
// record holds such a move as the player's own.
export function forfeitsByIndex(a) {
  return new Map(((a && a.forfeits) || []).map(f => [f.index, f.why]));
}

const pct = p => Math.round(p * 100) + "%";
const big = n => n >= 1e6 ? n.toExponential(1).replace("e+", "e") : String(n);
const count = c => c ? (c.exact ? big(c.fleets) : "about " + big(c.fleets)) : "?";
// noun is one or many as the number n wants ("1 fleet", "2 fleets").
const noun = (n, one, many) => n === 1 ? one : (many || one + "s");

// marks returns the marks of one note: [{kind, text}], kind "mistake",
// "missed" (a missed win), "wrong", "good" or "info".
export function marks(game, n) {
  const out = [];
  if (!n) return out;
  switch (game) {
    case "nymphabet":
      if (n.mistake) out.push({ kind: "mistake", text: `Mistake: ${n.before} → ${n.after}` + (n.best ? `; ${n.best} kept the ${n.before}` : "") });
      else out.push({ kind: "info", text: `Position: ${n.before}` + (n.forced ? ` (could force ${n.forced[0]} v ${n.forced[1]})` : "") });
      break;
    case "quizl":
      if (n.kind === "call") {
        // A solitaire grid has no owner: the analysis names it "the grid".
        for (const b of n.boards || []) out.push({ kind: "info", text: `${b.name === "the grid" ? "The grid" : b.name + "'s grid"}: ${big(b.before)} → ${big(b.after)} ${noun(b.after, "candidate")}, ${pct(b.on_line)} on the line` });
        if (n.strong && n.strong.toUpperCase() !== n.move.toUpperCase()) out.push({ kind: "info", text: "The strong solver: " + n.strong });
        for (const tr of n.trips || []) {
          if (tr.announceable_at > 0) out.push({ kind: "missed", text: `Missed win: ${tr.password} could have been announced at move ${tr.announceable_at}` });
          else out.push({ kind: "info", text: `Tripped on ${tr.password}; it could not have been announced earlier` });
        }
      } else if (n.kind === "say") {
        out.push({ kind: n.right ? "good" : "wrong", text: `${n.right ? "Right" : "Wrong"} announcement, ${pct(n.probability)} likely` });
      }
      break;
    case "salvo":
      if (n.kind === "fire") {
        out.push({ kind: n.share < 0.5 ? "mistake" : "info", text: `${count(n.before)} → ${count(n.after)} ${noun(n.after && n.after.fleets, "fleet")}; ${pct(n.share)} of the strong salvo's expected hits` });
      } else if (n.kind === "outline") {
        out.push({ kind: n.right ? "good" : "wrong", text: `${n.right ? "Right" : "Wrong"} outline among ${count(n.before)} possible ${noun(n.before && n.before.fleets, "fleet")}` });
      }
      break;
    case "wordfight":
      if (n.missed) out.push({ kind: "missed", text: `Missed: the word had ${plural(n.placements, "placement")}, such as ${n.best}` });
      else if (n.best_points > n.points) out.push({ kind: "mistake", text: `${plural(n.points, "point")}; ${n.best} scored ${n.best_points}` });
      else out.push({ kind: "info", text: `${plural(n.points, "point")}, the most the word could score` });
      break;
  }
  return out;
}

// markEl draws a note's marks under a move of the list; why, when the
// server played the move for its seat, says so first.
export function markEl(game, n, why) {
  const ms = marks(game, n);
  if (why) ms.unshift({ kind: "info", text: why === "claim" ? "Played by the server: the player was away on their turn and the game was claimed" : "Played by the server: the player ran out of time" });
  if (!ms.length) return null;
  return h("ul", { class: "marks" }, ms.map(m => h("li", { class: "mark " + m.kind },
    m.kind === "info" ? null : h("strong", {}, { mistake: "?! ", missed: "★ ", wrong: "✗ ", good: "✓ " }[m.kind]), m.text)));
}

// chart draws the chart of the game: a figure with an SVG, a caption and
// a text version for screen readers. pick(index) is called when a point
// is chosen.
export function chart(a, pick) {
  const g = a[a.game];
  if (!g) return null;
  switch (a.game) {
    case "nymphabet": return valueStrip(a, g, pick);
    case "quizl": return lines(a, "Candidates left after each call", "candidates",
      series(g.moves.filter(n => n.kind === "call"), n => (n.boards || []).map(b => ({ key: `${a.players[n.seat]} v ${b.name}`, y: b.after }))), pick);
    case "salvo": return lines(a, "Fleets still possible after each salvo", "fleets",
      series(g.moves.filter(n => n.kind === "fire" && n.after), n => [{ key: `${a.players[n.seat]} at ${n.target === 1 && a.players.length === 1 ? "the fleet" : a.players[n.target] || "seat " + n.target}`, y: n.after.fleets, lo: n.after.exact ? null : n.after.low, hi: n.after.exact ? null : n.after.high }]), pick);
    case "wordfight": return pointsBars(a, g);
  }
  return null;
}

// series groups points by key: [{name, pts: [{x (move index), y, lo, hi}]}].
function series(notes, each) {
  const by = new Map();
  for (const n of notes) for (const p of each(n)) {
    if (!by.has(p.key)) by.set(p.key, []);
    by.get(p.key).push({ x: n.index, y: p.y, lo: p.lo, hi: p.hi });
  }
  return [...by].map(([name, pts]) => ({ name, pts }));
}

const W = 560, H = 220, L = 56, R = 12, T = 12, B = 30;
const colours = ["#2563eb", "#c2410c", "#15803d", "#7c3aed"];

// lines draws series on a log scale against the move number.
function lines(a, title, unit, ss, pick) {
  const all = ss.flatMap(x => x.pts);
  if (!all.length) return null;
  const ys = all.flatMap(p => [p.y, p.lo ?? p.y, p.hi ?? p.y]).map(y => Math.max(1, y));
  const top = Math.ceil(Math.log10(Math.max(...ys)) || 1), x0 = 1, x1 = Math.max(a.moves, 2);
  const X = x => L + (x - x0) / (x1 - x0) * (W - L - R);
  const Y = y => T + (1 - Math.log10(Math.max(1, y)) / top) * (H - T - B);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  for (let e = 0; e <= top; e += Math.max(1, Math.ceil(top / 5))) {
    svg.append(s("line", { x1: L, x2: W - R, y1: Y(10 ** e), y2: Y(10 ** e), class: "grid" }),
      s("text", { x: L - 6, y: Y(10 ** e) + 4, "text-anchor": "end", class: "tick" }, e < 4 ? String(10 ** e) : "1e" + e));
  }
  svg.append(s("text", { x: L, y: H - 8, class: "tick" }, "move 1"), s("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "tick" }, `move ${x1}`));
  ss.forEach((ser, i) => {
    const c = colours[i % colours.length];
    const band = ser.pts.filter(p => p.lo != null);
    if (band.length > 1) {
      const d = band.map((p, j) => `${j ? "L" : "M"}${X(p.x)},${Y(p.hi)}`).join("") + band.slice().reverse().map(p => `L${X(p.x)},${Y(p.lo)}`).join("") + "Z";
      svg.append(s("path", { d, fill: c, "fill-opacity": "0.15", stroke: "none" }));
    }
    svg.append(s("polyline", { points: ser.pts.map(p => `${X(p.x)},${Y(p.y)}`).join(" "), fill: "none", stroke: c, "stroke-width": "2" }));
    for (const p of ser.pts) {
      const dot = s("circle", { cx: X(p.x), cy: Y(p.y), r: 4, fill: c, class: "point", tabindex: "-1" }, s("title", {}, `move ${p.x}: ${big(p.y)} ${unit}`));
      dot.addEventListener("click", () => pick && pick(p.x));
      svg.append(dot);
    }
  });
  const legend = h("ul", { class: "legend" }, ss.map((ser, i) => h("li", {}, h("span", { class: "swatch", style: `background:${colours[i % colours.length]}` }), ser.name)));
  const text = h("details", {}, h("summary", {}, "The chart as text"),
    h("ul", {}, ss.map(ser => h("li", {}, ser.name + ": " + ser.pts.map(p => `move ${p.x} ${big(p.y)}` + (p.lo != null ? ` (${big(p.lo)}–${big(p.hi)})` : "")).join(", ")))));
  return h("figure", { class: "analysis-chart", id: "analysis-chart" }, h("figcaption", {}, title + " (log scale; a shaded band is an estimate's 95% interval)"), svg, legend, text);
}

// valueStrip draws Nymphabet's value before each word, for the first
// player: a cell per move, mistakes marked.
function valueStrip(a, g, pick) {
  const ms = g.moves;
  if (!ms.length) return null;
  const flip = v => ({ win: "loss", loss: "win", draw: "draw" }[v] || v);
  const cw = Math.min(40, (W - 20) / ms.length), hh = 44;
  const svg = s("svg", { viewBox: `0 0 ${W} ${hh + 30}`, class: "chart", role: "img", "aria-label": `Value of the position for ${a.players[0]} before each word` });
  ms.forEach((n, i) => {
    const v = n.seat === 0 ? n.before : flip(n.before);
    const x = 10 + i * cw;
    const cell = s("rect", { x, y: 6, width: cw - 2, height: hh, class: "value " + v, tabindex: "-1" }, s("title", {}, `move ${n.index} (${n.move}): ${a.players[0]} ${v}`));
    cell.addEventListener("click", () => pick && pick(n.index));
    svg.append(cell, s("text", { x: x + (cw - 2) / 2, y: 6 + hh / 2 + 5, "text-anchor": "middle", class: "value-label" }, v[0].toUpperCase()));
    if (n.mistake) svg.append(s("text", { x: x + (cw - 2) / 2, y: hh + 24, "text-anchor": "middle", class: "mistake-mark" }, "?!"));
  });
  const legend = h("ul", { class: "legend" }, ["win", "draw", "loss"].map(v => h("li", {}, h("span", { class: "swatch value " + v }), `${v[0].toUpperCase()}: ${a.players[0]} ${v === "win" ? "wins" : v === "loss" ? "loses" : "draws"} with perfect play`)),
    h("li", {}, "?!: a mistake by the mover"));
  const text = h("details", {}, h("summary", {}, "The chart as text"),
    h("p", {}, ms.map(n => `move ${n.index} ${n.move}: ${n.seat === 0 ? n.before : flip(n.before)}${n.mistake ? " (mistake)" : ""}`).join("; ")));
  return h("figure", { class: "analysis-chart", id: "analysis-chart" }, h("figcaption", {}, `Value strip: the game's value for ${a.players[0]} before each word`), svg, legend, text);
}

// pointsBars draws Word Fight's points played against the best per player.
function pointsBars(a, g) {
  const max = Math.max(1, ...g.best, ...g.played);
  const rows = a.players.map((p, i) => h("li", {},
    h("span", { class: "bar-name" }, p),
    h("span", { class: "bar played", style: `width:${g.played[i] / max * 60}%` }), ` ${g.played[i]} played`,
    h("span", { class: "bar best", style: `width:${g.best[i] / max * 60}%` }), ` ${g.best[i]} best`,
    g.missed[i] ? ` · ${g.missed[i]} missed` : ""));
  return h("figure", { class: "analysis-chart", id: "analysis-chart" }, h("figcaption", {}, "Points played against the best placement of each word"), h("ul", { class: "bars" }, rows));
}

// heat draws Salvo's probability map after the salvo of note n: each
// square shaded by the chance a ship lies there, the salvo's squares
// outlined, with a legend and the likeliest squares in words.
export function heat(a, n) {
  if (!n || n.kind !== "fire" || !n.map) return null;
  const cols = "ABCDEFGHIJ", sz = 26, off = 22;
  // The notation is case-insensitive and takes A-1 for A1, and a record
  // keeps a move as sent.
  const fired = new Set(n.move.toUpperCase().replace(/-/g, "").split(/\s+/).slice(1));
  const svg = s("svg", { viewBox: `0 0 ${off + 10 * sz + 4} ${off + 10 * sz + 4}`, class: "heat", role: "img",
    "aria-label": `Probability map after move ${n.index}; the salvo's squares are outlined` });
  for (let c = 0; c < 10; c++) svg.append(s("text", { x: off + c * sz + sz / 2, y: 15, "text-anchor": "middle", class: "tick" }, cols[c]));
  const cells = [];
  for (let r = 0; r < 10; r++) {
    svg.append(s("text", { x: off - 4, y: off + r * sz + sz / 2 + 4, "text-anchor": "end", class: "tick" }, String(r + 1)));
    for (let c = 0; c < 10; c++) {
      const p = n.map[r][c], name = cols[c] + (r + 1);
      cells.push({ name, p });
      svg.append(s("rect", { x: off + c * sz, y: off + r * sz, width: sz - 1, height: sz - 1, fill: `rgba(220, 38, 38, ${Math.min(1, p).toFixed(3)})`, class: "heat-cell" + (fired.has(name) ? " fired" : "") },
        s("title", {}, `${name}: ${pct(p)}${fired.has(name) ? ", fired at" : ""}`)));
    }
  }
  const top = cells.filter(x => !fired.has(x.name) && x.p < 0.999).sort((x, y) => y.p - x.p).slice(0, 5);
  const legend = h("div", { class: "heat-legend" },
    h("span", {}, "0%"), h("span", { class: "ramp", "aria-hidden": "true" }), h("span", {}, "100%: a ship lies there"),
    h("span", { class: "swatch fired-swatch", "aria-hidden": "true" }), h("span", {}, "this salvo"));
  return h("figure", { class: "analysis-heat", id: "analysis-heat" },
    h("figcaption", {}, `Where the ships could be after move ${n.index}, as ${a.players[n.seat]} could know it`), svg, legend,
    h("p", { class: "muted" }, "Likeliest unfired squares: " + top.map(x => `${x.name} ${pct(x.p)}`).join(", ") + (n.strong_salvo ? `. The strong shooter would have fired ${n.strong_salvo.replace(/^fire /, "")}.` : ".")));
}
