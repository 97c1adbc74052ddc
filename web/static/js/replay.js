// replay.js: the replay viewer. It steps through any game record, one
// from a table this browser played at or a file, as any seat saw it. The
// server re-referees the record (POST /api/v1/tools/replay); this screen
// only draws the views it answers.

import { h, clear, toast, fill, append } from "./dom.js";
import { call, callText, firstLine, seatFor } from "./api.js";
import { load } from "./games/index.js";
import { go } from "./nav.js";
import { games, title } from "./catalog.js";

// tableOf finds a table's id in what a player pasted: the address of its
// page (…/t/ID, …/t/ID/join), of its replay (…?table=ID), or the id
// alone; "" when it holds none.
export function tableOf(s) {
  s = s.trim();
  const m = s.match(/\/t\/([a-z0-9]+)/i) || s.match(/[?&]table=([a-z0-9]+)/i);
  if (m) return m[1].toLowerCase();
  return /^[a-z2-9]{16}$/i.test(s) ? s.toLowerCase() : "";
}

// whole says whether text is one JSON value, as a record is.
function whole(text) {
  try { JSON.parse(text); return true; } catch { return false; }
}

// eventName names the event a record's game was played in: "Club Swiss,
// round 2" (an arena has no rounds).
const eventName = e => `${e.name}${e.round ? `, round ${e.round}` : ""}`;

// about names one line of an archive for its list: the game and its
// players, or that it is no record.
function about(line) {
  try {
    const r = JSON.parse(line);
    if (r && r.game) return `${title(r.game)}: ${(r.players || []).join(" v ")}${r.moves ? ` (${r.moves.length} moves)` : ""}${r.event ? `, ${eventName(r.event)}` : ""}`;
  } catch { /* said below */ }
  return "not a game record";
}

export async function replay(main) {
  document.title = "Replay · Parlour";
  const err = h("p", { class: "error", role: "alert" });
  const file = h("input", { type: "file", id: "replay-file", accept: ".json,.ndjson,application/json,application/x-ndjson" });
  // An archive (a player's or an event's games, one record a line) offers
  // its games to choose from.
  const pick = h("select", { id: "replay-pick", "aria-label": "The game of the archive to replay", hidden: true });
  let archive = [];
  pick.addEventListener("change", () => show(archive[Number(pick.value)] || ""));
  const viewer = h("div", { id: "viewer" });
  const link = h("input", { id: "replay-link", autocomplete: "off", spellcheck: "false", placeholder: "https://…/t/3y2wa6utsehx3guy" });
  const byLink = h("form", { class: "row", id: "replay-link-form", onsubmit: ev => {
    ev.preventDefault();
    const id = tableOf(link.value);
    if (!id) { err.textContent = "That is neither a table's link nor its id: paste the address of the game's page (it holds /t/ and the id)."; return; }
    go("/replay?table=" + encodeURIComponent(id));
  } }, h("label", { for: "replay-link" }, "Or a finished game's link or table id"), link, h("button", { type: "submit" }, "Replay"));
  append(main, h("h1", {}, "Replay a game"),
    h("div", { class: "card stack" },
      h("label", { for: "replay-file" }, "Open a game record (a .json file downloaded from a table or written by hand, or an .ndjson archive of many)"), file, pick,
      byLink,
      h("p", { class: "help" }, "The server re-referees the record move by move; a move it refuses ends the replay with the reason.")),
    err, viewer);
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    if (f.size > 64 << 20) { err.textContent = "That file is larger than 64 MiB: neither a game record nor an archive of them."; return; }
    const text = await f.text();
    mySeat = -1;
    forced = new Map();
    // One record may span lines; an archive is one a line.
    archive = whole(text) ? [text] : text.split("\n").filter(l => l.trim() !== "");
    if (archive.length > 1) await games().catch(() => {}); // the games' titles, for the list
    fill(pick, archive.length > 1 ? archive.map((l, i) => h("option", { value: i }, `${i + 1}. ${about(l)}`)) : []);
    pick.hidden = archive.length < 2;
    show(archive.length > 1 ? archive[0] : archive.join("\n"));
  });
  const q = new URLSearchParams(location.search);
  const t = q.get("table");
  let analyse = q.has("analyse");
  // The seat of the person looking, at the table replayed: views of it
  // say "your", every other view names its player. A record from a file
  // is anybody's: every view names its player.
  let mySeat = -1;
  // The moves the server played at the table replayed, by index: a
  // record from a file does not say.
  let forced = new Map();
  if (t) {
    try {
      const mine = seatFor(t);
      // A game not over yet has only part of its record to show
      // (its hidden setups and moves masked), which the referee cannot
      // replay: its table is where to follow it until it ends.
      const state = await call("GET", `/tables/${encodeURIComponent(t)}`, undefined, mine && mine.token);
      mySeat = mine ? mine.seat : state.seat >= 0 ? state.seat : -1;
      if (state.table.status !== "finished") {
        err.textContent = "That game is not over yet: its replay opens when it ends. ";
        append(err, h("a", { href: `/t/${encodeURIComponent(t)}`, id: "replay-table" }, "Go to its table"));
      } else {
        const [text, f] = await Promise.all([callText(`/tables/${encodeURIComponent(t)}/record`, mine && mine.token), forcedMoves(t, mine && mine.token)]);
        forced = f;
        show(text);
      }
    } catch (e) { err.textContent = e.message; }
  }

  async function show(text) {
    err.textContent = "";
    let ans;
    try {
      const res = await fetch("/api/v1/tools/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      ans = await res.json();
      if (!res.ok) throw new Error(ans.error || res.statusText);
    } catch (e) { err.textContent = "Cannot replay it: " + e.message; clear(viewer); return; }
    const mod = await load(ans.game);
    let step = ans.steps.length; // after the last move
    // A player's own game opens as they saw it; anybody else's as its
    // first seat saw it.
    let seat = mySeat >= 0 && mySeat < ans.players.length ? mySeat : 0;
    const stage = h("div", { class: "replaying" });
    const counter = h("p", { id: "replay-step", "aria-live": "polite" });
    const range = h("input", { type: "range", id: "replay-range", min: 0, max: ans.steps.length, value: step, "aria-label": "Move number" });
    const seatSel = h("select", { id: "replay-seat", "aria-label": "As seen by" }, ans.players.map((p, i) => h("option", { value: i, selected: i === seat }, p)));
    const list = h("ol", { class: "moves", id: "replay-moves" });
    // A replay's boards offer no play: ctx.replay tells the game's screen.
    const ctx = { table: "replay", replay: true, seat, me: () => mySeat, view: () => current(), rules: () => ({}), lexicon: () => "", send: async () => { throw new Error("this is a replay"); }, sendSetup: async () => { throw new Error("this is a replay"); } };
    let board = null;
    // The engines' analysis, loaded (with its drawing code) on demand.
    let an = null, notes = null, forfeits = null, drawing = null;
    // Empty until the analysis is asked for, and hidden meanwhile.
    const panel = h("section", { id: "analysis", class: "card", "aria-label": "Analysis", hidden: true });
    async function loadAnalysis() {
      panel.hidden = false;
      fill(panel, h("p", { class: "muted", role: "status" }, "The engines are analysing the game…"));
      try {
        drawing = await import("./analysis.js");
        an = await drawing.fetchAnalysis(t);
        notes = drawing.notesByIndex(an);
        forfeits = drawing.forfeitsByIndex(an);
        fill(panel, h("h2", {}, "Analysis"), drawing.chart(an, i => { step = i; draw(); }), h("div", { id: "analysis-step" }));
      } catch (e) { fill(panel, h("p", { class: "error", role: "alert" }, "No analysis: " + e.message)); an = null; }
      draw();
    }
    function current() { return step === 0 ? ans.start[seat] : ans.steps[step - 1].views[seat]; }
    // seen lists the events of a step the seat shown saw.
    const seen = s => s.events.filter(e => !e.to || e.to.includes(seat));
    function draw() {
      range.value = step;
      // The counter is a live region: it says what the move did too, for
      // a player who cannot see the board change.
      const s = ans.steps[step - 1];
      const did = s ? seen(s).map(e => e.text).join("; ") : "";
      const why = forced.get(step);
      counter.textContent = step === 0 ? `Before the first move (of ${ans.steps.length})` : `Move ${step} of ${ans.steps.length}: ${s.by} — ${s.move}${why ? ` (${forcedWords[why.kind]})` : ""}${did ? `: ${did}` : ""}`;
      if (!board) { board = mod.play(ctx); fill(stage, board.el); }
      board.update(current());
      // A move chosen from the list keeps the keyboard's focus once the
      // list is drawn anew; else it would fall back to the page's top.
      const had = document.activeElement && list.contains(document.activeElement) ? [...list.querySelectorAll("li > button")].indexOf(document.activeElement) : -1;
      fill(list, ...ans.steps.map((s, i) => h("li", { class: i === step - 1 ? "to-move" : "", "aria-current": i === step - 1 ? "step" : null },
        h("button", { type: "button", class: "linkish", onclick: () => { step = i + 1; draw(); } }, `${i + 1}. ${s.by}: ${s.move}`),
        forced.has(i + 1) ? h("div", { class: "muted forced" }, forced.get(i + 1).text) : null,
        seen(s).map(e => h("div", { class: "muted" }, e.text)),
        notes ? drawing.markEl(an.game, notes.get(i + 1), forfeits.get(i + 1)) : null)));
      if (had >= 0) { const b = list.querySelectorAll("li > button")[had]; if (b) b.focus({ preventScroll: true }); }
      const at = panel.querySelector("#analysis-step");
      if (at && an.game === "salvo") {
        let n = null;
        for (let i = step; i > 0 && !n; i--) { const x = notes.get(i); if (x && x.kind === "fire") n = x; }
        fill(at, n ? drawing.heat(an, n) : h("p", { class: "muted" }, "The probability map appears from the first salvo on."));
      }
    }
    const go = d => { step = Math.max(0, Math.min(ans.steps.length, step + d)); draw(); };
    range.addEventListener("input", () => { step = Number(range.value); draw(); });
    seatSel.addEventListener("change", () => { ctx.seat = seat = Number(seatSel.value); board = null; draw(); });
    // A game an event paired says so, with a way to the event's page.
    let ev = null;
    try { ev = JSON.parse(text).event || null; } catch { /* the referee read it: no event to name */ }
    append(clear(viewer), 
      h("h2", {}, `${ans.title}: ${ans.players.join(" v ")}`),
      ev && ev.id && ev.name ? h("p", { id: "replay-event" }, "Played in ", h("a", { href: "/tournaments/" + encodeURIComponent(ev.id) }, ev.name), ev.round ? `, round ${ev.round}` : "", ".") : null,
      ans.refused ? h("p", { class: "error" }, "The referee refused the record here: " + ans.refused) : null,
      // The arrow keys step through the moves, but not from the range or
      // the choice of seat, where they choose a move or a seat themselves.
      h("div", { class: "row", onkeydown: e => { if (e.target === range || e.target === seatSel) return; if (e.key === "ArrowLeft") go(-1); if (e.key === "ArrowRight") go(1); } },
        h("button", { type: "button", id: "replay-first", class: "icon", onclick: () => { step = 0; draw(); }, "aria-label": "First move" }, icon("first"), h("span", { "aria-hidden": "true" }, "First")),
        h("button", { type: "button", id: "replay-prev", class: "icon", onclick: () => go(-1), "aria-label": "Previous move" }, icon("prev"), h("span", { "aria-hidden": "true" }, "Previous")),
        range,
        h("button", { type: "button", id: "replay-next", class: "icon", onclick: () => go(1), "aria-label": "Next move" }, h("span", { "aria-hidden": "true" }, "Next"), icon("next")),
        h("button", { type: "button", id: "replay-last", class: "icon", onclick: () => { step = ans.steps.length; draw(); }, "aria-label": "Last move" }, h("span", { "aria-hidden": "true" }, "Last"), icon("last")),
        h("label", { for: "replay-seat" }, "As seen by"), seatSel),
      counter,
      // The button goes once pressed: the focus goes on to the analysis
      // it asked for, rather than back to the top of the page.
      t && !analyse ? h("button", { type: "button", id: "analyse", onclick: e => {
        e.target.remove(); analyse = true; loadAnalysis();
        panel.tabIndex = -1; panel.focus({ preventScroll: true });
      } }, "Analyse this game") : null,
      h("div", { class: "layout" }, stage, h("aside", { class: "card" }, h("h2", {}, "Moves"), list)),
      t ? panel : null);
    draw();
    if (t && analyse) loadAnalysis();
    toast("Record loaded");
  }
}

// forcedWords says in a few words why the server played a move for a
// seat, by its event's kind.
const forcedWords = { timeout: "time ran out", claim: "the game was claimed" };

// forcedMoves reads, from finished table t's own log, the moves the server
// played for a seat whose time ran out or whose game was claimed, keyed by
// their 1-based index, each with the table's words for it: the record
// holds the moves alone. Only the stream's first line is read, which lists
// every move with its events. Without it (an older server, the network)
// the replay shows the moves alone.
async function forcedMoves(t, token) {
  const out = new Map();
  try {
    const u = await firstLine(`/tables/${encodeURIComponent(t)}/events?from=0`, token);
    (u.moves || []).forEach((m, i) => {
      const e = (m.events || []).find(e => Object.hasOwn(forcedWords, e.kind));
      if (e) out.set(i + 1, e);
    });
  } catch { /* the moves alone */ }
  return out;
}

// icon draws a step control's arrow as inline SVG, so that no control
// hangs on a glyph the system's fonts may lack.
const shapes = {
  first: "M4 3v10M13 3 6 8l7 5z",
  prev: "M12 3 5 8l7 5z",
  next: "M4 3l7 5-7 5z",
  last: "M12 3v10M3 3l7 5-7 5z",
};
function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const p = document.createElementNS(ns, "path");
  p.setAttribute("d", shapes[name]);
  p.setAttribute("fill", "currentColor");
  p.setAttribute("stroke", "currentColor");
  p.setAttribute("stroke-width", "2");
  p.setAttribute("stroke-linejoin", "round");
  svg.append(p);
  return svg;
}
