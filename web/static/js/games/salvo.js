// salvo.js: Salvo's fleet placement and play screen, drawn from the seat's
// view (games/salvo View). The placement rules live only in the referee:
// the placement note is its verdict (POST /api/v1/tools/check-setup) and
// the random fleet is its own (POST /api/v1/tools/random-setup).

import { h, gridNav, gridMemory, gridRows, plural, fill, append, updateText } from "../dom.js";
import { checkSetup, randomSetup } from "../api.js";

const COLS = "ABCDEFGHIJ";
const name = (r, c) => COLS[c] + (r + 1);
const parse = s => { const m = /^([A-J])-?(10|[1-9])$/i.exec(s.trim()); return m ? [Number(m[2]) - 1, COLS.indexOf(m[1].toUpperCase())] : null; };
const SHIPS = [["battleship", 5], ["cruiser", 4], ["destroyer", 3], ["submarine", 2], ["submarine", 2]];
const shipName = i => ["battleship", "cruiser", "destroyer", "first submarine", "second submarine"][i];
// shipLabel names a ship on a control, the submarines numbered: two
// controls both named "submarine (2)" were one to a screen reader.
const shipLabel = i => ["battleship", "cruiser", "destroyer", "submarine 1", "submarine 2"][i];
const CLASSES = ["battleship", "cruiser", "destroyer", "submarine"];
const DIRS = [[0, 1, "across"], [1, 0, "down"], [1, 1, "diagonal down-right"], [1, -1, "diagonal down-left"]];

// squaresOf lists the squares of a ship given as "B2-B6".
export function squaresOf(ship) {
  const [a, b] = ship.split("-").length === 2 ? ship.split("-") : ship.split(/-(?=[A-J])/i);
  const p = parse(a || ""), q = parse(b || "");
  if (!p || !q) return [];
  const dr = Math.sign(q[0] - p[0]), dc = Math.sign(q[1] - p[1]);
  const n = Math.max(Math.abs(q[0] - p[0]), Math.abs(q[1] - p[1])) + 1;
  return [...Array(n).keys()].map(i => [p[0] + dr * i, p[1] + dc * i]);
}
const shipText = sqs => `${name(...sqs[0])}-${name(...sqs[sqs.length - 1])}`;

function lay(r, c, len, d) { return [...Array(len).keys()].map(i => [r + DIRS[d][0] * i, c + DIRS[d][1] * i]); }

// ocean builds a 10x10 grid of buttons or cells; cell(r, c) returns
// {text, cls, label, onclick}.
function ocean(label, cell, opts) {
  const g = h("div", { class: "grid ocean" + (opts && opts.small ? " small" : ""), role: "grid", "aria-label": label, style: "grid-template-columns: repeat(11, auto)" });
  append(g, h("span", { class: "hdr", "aria-hidden": "true" }), [...COLS].map(c => h("span", { class: "hdr", "aria-hidden": "true" }, c)));
  const cells = [];
  for (let r = 0; r < 10; r++) {
    append(g, h("span", { class: "hdr", "aria-hidden": "true" }, r + 1));
    cells.push([]);
    for (let c = 0; c < 10; c++) {
      const x = cell(r, c);
      const el = h(x.onclick || x.onkey ? "button" : "span", {
        class: "cell " + (x.cls || ""), role: "gridcell", type: x.onclick ? "button" : null,
        "aria-label": `${name(r, c)}${x.label ? ": " + x.label : ""}`, "data-sq": name(r, c), "aria-selected": x.pressed === undefined ? null : String(x.pressed),
        onclick: x.onclick || null, onkeydown: x.onkey || null,
      }, x.text || "");
      cells[r].push(el);
      append(g, el);
    }
  }
  gridNav(cells);
  return gridRows(g, 11);
}

// Setup is fleet placement: choose a ship, its direction, and the square
// of its first end; or place a random fleet.
export function setup(ctx) {
  const v = ctx.rules();
  const strict = (v.placement || "strict") === "strict";
  const diagonal = !!v.diagonal_ships;
  let fleet = [null, null, null, null, null];
  let cur = 0, dir = 0, dragFrom = null;
  // The referee's verdict on the fleet as placed so far, asked for after
  // every change (a moment after it, so that quick changes send one
  // request): asked is the fleet it is for, verdict its answer ({ok},
  // {problems: [{text, ships}]} or {unasked: why not}), null while waiting.
  // Ships still to place go to the referee as "", which it checks as far
  // as the fleet goes.
  let asked = "", verdict = null, timer = 0;
  const err = h("p", { class: "error", role: "alert" });
  const note = h("div", { role: "status", "aria-live": "polite", id: "s-place-note", class: "place-note" });
  // The ocean is drawn anew at every change and at the referee's answer
  // to it: its Tab stop stays on the square last focused.
  const box = h("div", { "data-board": "fleet" });
  const keepStop = gridMemory(box);
  const shipSel = h("div", { class: "row", role: "radiogroup", "aria-label": "Ship to place" });
  // R on the ocean turns the ship with the focus left on the square: the
  // Direction button's new text is not read there, so the turn is said
  // in a live region of its own (the placement note is the referee's).
  const dirSaid = h("p", { class: "sr", role: "status", "aria-live": "polite", id: "s-dir-said" });
  const turn = focus => {
    dir = (dir + 1) % (diagonal ? 4 : 2);
    draw(focus);
    dirSaid.textContent = `Direction: ${DIRS[dir][2]}.`;
  };
  const dirBtn = h("button", { type: "button", id: "s-rotate", onclick: () => turn() });
  const place = (r, c) => {
    const next = fleet.slice();
    next[cur] = lay(r, c, SHIPS[cur][1], dir);
    if (next[cur].some(([a, b]) => a < 0 || a > 9 || b < 0 || b > 9)) { note.className = "warn"; note.textContent = `The ${SHIPS[cur][0]} would run off the ocean from ${name(r, c)} going ${DIRS[dir][2]}.`; return; }
    fleet = next;
    const nxt = fleet.findIndex(s => !s);
    if (nxt >= 0) cur = nxt;
    draw(name(r, c));
  };
  function draw(focus) {
    // Keep the keyboard where it was when the referee's answer redraws.
    const at = document.activeElement;
    if (!focus && at && box.contains(at) && at.dataset.sq) focus = at.dataset.sq;
    // A ship chosen with the keyboard keeps the focus on its button,
    // drawn anew. The ships are one stop of the Tab key, the chosen one,
    // and the arrow keys choose among them, as in any group of radio
    // buttons: five stops before the ocean would be four too many.
    const ship = at && shipSel.contains(at) ? cur : -1;
    const pick = (e, i) => {
      const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: SHIPS.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      cur = (to + SHIPS.length) % SHIPS.length;
      draw();
    };
    fill(shipSel, ...SHIPS.map(([, len], i) => h("button", {
      type: "button", role: "radio", "aria-checked": String(i === cur), class: i === cur ? "primary" : "",
      tabindex: i === cur ? 0 : -1, onclick: () => { cur = i; draw(); }, onkeydown: e => pick(e, i),
      // A placed ship's tick is for the eye; a screen reader says "placed".
      "aria-label": fleet[i] ? `${shipLabel(i)} (${len}), placed` : null,
    }, `${shipLabel(i)} (${len})${fleet[i] ? " ✓" : ""}`)));
    if (ship >= 0) shipSel.children[ship].focus();
    dirBtn.textContent = `Direction: ${DIRS[dir][2]} (R)`;
    const owner = new Map();
    fleet.forEach((s, i) => s && s.forEach(([r, c]) => owner.set(r * 10 + c, i)));
    const wrong = new Set(verdict && verdict.problems ? verdict.problems.flatMap(p => p.ships) : []);
    // The ocean's name says which way the ship goes from the square
    // chosen, for a player who comes to it without seeing the button.
    const g = ocean(`Your ocean: choose the square of the first end of the ${shipName(cur)}, laid ${DIRS[dir][2]}`, (r, c) => {
      const i = owner.get(r * 10 + c);
      return {
        text: i !== undefined ? SHIPS[i][0][0].toUpperCase() : "", cls: i !== undefined ? "ship" + (wrong.has(i) ? " wrong" : "") : "",
        label: i !== undefined ? shipName(i) + (wrong.has(i) ? ", breaks the placement rules" : "") : "water", onclick: () => place(r, c),
        onkey: e => { if (e.key === "r" || e.key === "R") { e.preventDefault(); turn(name(r, c)); } },
      };
    });
    // Dragging from one square to another lays the chosen ship from the
    // upper (or left) end along that line.
    g.addEventListener("pointerdown", e => {
      const c = e.target.closest && e.target.closest("[data-sq]");
      dragFrom = c ? parse(c.dataset.sq) : null;
    });
    g.addEventListener("pointerup", e => {
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const c = under && under.closest && under.closest("[data-sq]");
      const from = dragFrom;
      dragFrom = null;
      if (!from || !c) return;
      const to = parse(c.dataset.sq);
      const dr = to[0] - from[0], dc = to[1] - from[1];
      if (!dr && !dc) return;
      const [a, b] = dr < 0 || (dr === 0 && dc < 0) ? [to, from] : [from, to];
      let d = -1;
      if (dr === 0) d = 0;
      else if (dc === 0) d = 1;
      else if (diagonal && Math.abs(dr) === Math.abs(dc)) d = (b[1] > a[1]) ? 2 : 3;
      if (d < 0) return;
      dir = d;
      e.preventDefault();
      place(a[0], a[1]);
    });
    fill(box, g);
    keepStop();
    keepDraft();
    askReferee();
    showVerdict();
    if (focus) { const el = g.querySelector(`[data-sq="${focus}"]`); if (el) el.focus(); }
  }
  // askReferee asks the referee about the fleet placed so far unless it
  // has already been asked about this one, and shows its answer.
  function askReferee() {
    const ships = fleet.map(s => s ? shipText(s) : "");
    const key = JSON.stringify(ships);
    if (key === asked) return;
    asked = key;
    verdict = null;
    clearTimeout(timer);
    if (!fleet.some(Boolean)) { verdict = { problems: [] }; return; }
    timer = setTimeout(async () => {
      let says;
      try { await checkSetup("salvo", ctx.rules(), ctx.lexicon(), { fleet: ships }); says = { ok: true, problems: [] }; }
      catch (e) { says = e.status === 422 ? { problems: problemsOf(e.message, fleet) } : { unasked: e.message }; }
      if (key !== asked) return;
      verdict = says;
      draw();
    }, 150);
  }
  function showVerdict() {
    const placed = fleet.filter(Boolean).length;
    const still = fleet.map((s, i) => s ? "" : "the " + shipName(i)).filter(Boolean);
    const count = placed < 5 ? `${placed} of 5 ships placed. Still to place: ${still.join(", ")}.` : "";
    if (!verdict) { note.className = "place-note"; fill(note, h("p", {}, count || "Asking the referee about this fleet…")); return; }
    if (verdict.unasked) {
      note.className = "place-note warn";
      fill(note, h("p", {}, `The referee could not be asked about this fleet (${verdict.unasked}); it checks the fleet when you send it.`), count ? h("p", {}, count) : null);
      return;
    }
    const probs = verdict.problems || [];
    if (!probs.length) {
      note.className = "place-note" + (placed === 5 ? " ok" : "");
      fill(note, h("p", {}, placed === 5 ? "Every ship is placed and the fleet keeps the placement rule." : count + (placed ? " The ships placed so far keep the placement rule." : "")));
      return;
    }
    note.className = "place-note warn";
    fill(note, h("p", {}, probs.length === 1 ? "Not allowed:" : `Not allowed, ${probs.length} problems:`),
      h("ul", { class: "problems" }, probs.map(p => h("li", {}, p.text + "."))),
      count ? h("p", {}, count) : null);
  }
  // The fleet being placed is kept in this tab (sessionStorage, per table
  // and seat) until it is sent, as Quizl's grid is, so that a reload does
  // not lose it; it is the player's own secret and never leaves the
  // browser before then.
  const draftKey = `parlour.salvo.draft.${ctx.table}.${ctx.seat}`;
  function keepDraft() {
    try { sessionStorage.setItem(draftKey, JSON.stringify({ fleet: fleet.map(s => s ? shipText(s) : ""), cur, dir })); } catch { /* no storage: nothing kept */ }
  }
  function dropDraft() {
    try { sessionStorage.removeItem(draftKey); } catch { /* nothing kept */ }
  }
  try {
    const d = JSON.parse(sessionStorage.getItem(draftKey) || "null");
    if (d && Array.isArray(d.fleet) && d.fleet.length === 5) {
      // A ship that does not read back as one of its length is dropped.
      fleet = d.fleet.map((t, i) => { const sqs = typeof t === "string" ? squaresOf(t) : []; return sqs.length === SHIPS[i][1] ? sqs : null; });
      if (Number.isInteger(d.cur) && d.cur >= 0 && d.cur < 5) cur = d.cur;
      if (Number.isInteger(d.dir) && d.dir >= 0 && d.dir < (diagonal ? 4 : 2)) dir = d.dir;
    }
  } catch { /* a draft that cannot be read is no draft */ }
  const random = async () => {
    err.textContent = "";
    try {
      const setup = await randomSetup("salvo", ctx.rules(), ctx.lexicon());
      fleet = setup.fleet.map(squaresOf);
      draw();
    } catch (e) { err.textContent = e.message; }
  };
  draw();
  const submit = async () => {
    err.textContent = "";
    if (fleet.some(s => !s)) { err.textContent = `Place all five ships first: still to place ${fleet.map((s, i) => s ? "" : "the " + shipName(i)).filter(Boolean).join(", ")}.`; return; }
    try { await ctx.sendSetup({ fleet: fleet.map(shipText) }); dropDraft(); } catch (e) { err.textContent = e.message; }
  };
  return h("section", { class: "card stack", "aria-labelledby": "s-setup-h" },
    h("h2", { id: "s-setup-h" }, "Place your fleet"),
    h("p", { class: "help" }, "Choose a ship, then click the square of its first end (R turns it), or drag along the squares it should cover."),
    h("p", {}, strict ? "Strict placement: at most one square of each ship on the ocean's edge, and no ship touching more than one square of another." : "Free placement: ships only may not overlap."),
    shipSel, h("div", { class: "row" }, dirBtn,
      h("button", { type: "button", id: "s-random", onclick: random }, "Random fleet"),
      h("button", { type: "button", onclick: () => { fleet = [null, null, null, null, null]; cur = 0; draw(); } }, "Clear")),
    box, note, dirSaid,
    h("div", { class: "row" },
      h("button", { class: "primary", type: "button", id: "s-submit", onclick: submit }, "Use this fleet"),
      h("button", { type: "button", onclick: async () => { err.textContent = ""; try { await ctx.sendSetup(null, "hard"); dropDraft(); } catch (e) { err.textContent = e.message; } } }, "Let the computer hide my fleet")),
    err);
}

// problemsOf splits the referee's refusal of a fleet into its problems
// ("; " between them), leaving out the ships still to place, and finds the
// ships each one names ("the cruiser D2-G2"), so that they can be marked.
export function problemsOf(msg, fleet) {
  return msg.split("; ").filter(t => t && !t.startsWith("still to place")).map(text => ({
    text,
    ships: fleet.map((s, i) => s && named(text, i, s) ? i : -1).filter(i => i >= 0),
  }));
}
function named(text, i, sqs) {
  const a = name(...sqs[0]), b = name(...sqs[sqs.length - 1]);
  return text.includes(`the ${shipName(i)} ${a}-${b}`) || text.includes(`the ${shipName(i)} ${b}-${a}`);
}

const numberWord = n => ["no", "one", "two", "three", "four", "five"][n] || String(n);

// reportText says a report as the referee does: "one in the destroyer,
// two in submarines; sank a submarine", or "all in the ocean".
export function reportText(rep) {
  const hits = rep.hits || {}, sank = rep.sank || {};
  const parts = CLASSES.filter(c => hits[c]).map(c => c !== "submarine" ? `${numberWord(hits[c])} in the ${c}` : hits[c] === 1 ? "one in a submarine" : `${numberWord(hits[c])} in submarines`);
  if (!parts.length) return "all in the ocean";
  const s = CLASSES.filter(c => sank[c]).map(c => c !== "submarine" ? `the ${c}` : sank[c] === 1 ? "a submarine" : "both submarines");
  return parts.join(", ") + (s.length ? "; sank " + s.join(" and ") : "");
}

// publicTracking is seat t's ocean as an onlooker knows it, from the
// salvos everybody hears: the squares fired at with the number of the
// latest salvo at each, and the hits and sinkings per class the reports
// gave, never which shot hit. Undefined before any salvo at t.
function publicTracking(v, t) {
  const salvos = v.salvos.filter(s => s.at === t);
  if (!salvos.length) return undefined;
  const ocean = Array.from({ length: 10 }, () => Array(10).fill(0));
  const hits = {}, sunk = {};
  for (const s of salvos) {
    for (const q of s.squares) { const p = parse(q); if (p) ocean[p[0]][p[1]] = s.number; }
    for (const c of CLASSES) {
      hits[c] = (hits[c] || 0) + ((s.report.hits || {})[c] || 0);
      sunk[c] = (sunk[c] || 0) + ((s.report.sank || {})[c] || 0);
    }
  }
  return { target: t, ocean, hits, sunk };
}

// norm fills in the lists the server leaves out when they are empty.
const norm = v => ({ ...v, salvos: v.salvos || [], outlines: v.outlines || [], tracking: v.tracking || [], to_move: v.to_move || [] });

export function play(ctx) {
  const key = "parlour.pencil." + ctx.table;
  let pencil = {};
  try { pencil = JSON.parse(localStorage.getItem(key)) || {}; } catch { pencil = {}; }
  let aim = [];
  let mode = "aim"; // or "pencil"
  // The outline being written is of one target's fleet (outlineOf), and is
  // kept in this tab until it is sent (sessionStorage, per table, seat and
  // target), so that a reload does not lose it and a later target's
  // outline never starts from an earlier one's.
  let outlineShip = 0;
  let outline = ["", "", "", "", ""];
  let outlineStart = null;
  let outlineOf = -1;
  const outlineKey = t => `parlour.salvo.outline.${ctx.table}.${ctx.seat}.${t}`;
  function outlineFor(t) {
    if (t === outlineOf) return;
    outlineOf = t;
    outline = ["", "", "", "", ""];
    outlineShip = 0;
    outlineStart = null;
    try {
      const d = JSON.parse(sessionStorage.getItem(outlineKey(t)) || "null");
      if (Array.isArray(d) && d.length === 5) outline = d.map(x => typeof x === "string" ? x : "");
    } catch { /* a draft that cannot be read is no draft */ }
  }
  const keepOutline = () => { try { sessionStorage.setItem(outlineKey(outlineOf), JSON.stringify(outline)); } catch { /* no storage: nothing kept */ } };
  const dropOutline = () => { try { sessionStorage.removeItem(outlineKey(outlineOf)); } catch { /* nothing kept */ } };
  const err = h("p", { class: "error", role: "alert" });
  // The oceans aimed at, then your own: two parts of the boards, so that
  // on a phone the controls go between them in the page itself, where
  // they are drawn (placeControls), and Tab meets them in that order.
  const aimed = h("div", { class: "boards-part" });
  const mine = h("div", { class: "boards-part" });
  const boards = h("div", { class: "boards" }, aimed, mine);
  const info = h("div");
  // Each ocean's Tab stop stays on the square last focused there across
  // redraws.
  const keepStops = gridMemory(boards);
  const typed = h("input", { id: "s-fire", autocomplete: "off", spellcheck: "false", placeholder: "A1 C3 E5 G7 I9", size: 18 });
  const shotsNote = h("p", { id: "s-shots", "aria-live": "polite" });
  // aimNote says why a click or a typed square was refused.
  const aimNote = h("p", { id: "s-aim-note", class: "warn", role: "status", "aria-live": "polite" });
  const say = msg => { updateText(aimNote, msg || ""); };
  // ended says the game is over: by its moves, or aborted, which only the
  // table says (the view goes on as it stood).
  const ended = v => v.finished || !!(ctx.over && ctx.over());
  // Typing in the box marks the squares it names; clicking squares writes
  // them in the box: both always show the same salvo.
  typed.addEventListener("input", () => {
    const v = view;
    if (!v) return;
    const me = v.seat;
    if (!(me >= 0 && v.to_move.includes(me) && !ended(v)) || v.must_outline) { say("Wait for your turn to aim."); return; }
    const tr = (v.tracking || []).find(x => x.target === v.target);
    const next = [], notes = [];
    for (const tok of typed.value.split(/[\s,]+/).filter(Boolean)) {
      const p = parse(tok);
      if (!p) { notes.push(`${tok} is not a square (A1 to J10)`); continue; }
      const q = name(...p);
      const n = tr ? tr.ocean[p[0]][p[1]] : 0;
      if (n) notes.push(`you fired at ${q} with salvo ${n}`);
      else if (next.includes(q)) notes.push(`${q} is named twice`);
      else if (next.length >= v.shots) notes.push(`your salvo has ${plural(v.shots, "shot")}: ${q} is one too many`);
      else next.push(q);
    }
    aim = next;
    say(notes.length ? notes.join("; ") + "." : "");
    update(v, true);
  });
  // Leaving the box writes back the salvo as marked, so that the box never
  // keeps a square the ocean does not show.
  typed.addEventListener("change", () => { if (typed.value.trim()) typed.value = aim.join(" "); });
  const notYet = "Wait for your turn to fire.";
  const keysHelp = h("p", { class: "help", id: "s-keys" }, "By the keyboard: the arrow keys move about the ocean, Enter takes a square into the salvo or out of it, F fires the salvo, P switches to pencil marks.");
  const modeBtn = h("button", { type: "button", id: "s-mode", "aria-pressed": "false" });
  const fireForm = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const v = view;
    if (v && !(v.seat >= 0 && v.to_move.includes(v.seat) && !ended(v))) { err.textContent = notYet; return; }
    const list = typed.value.trim() ? typed.value.trim().split(/[\s,]+/) : aim;
    if (!list.length) { err.textContent = "Choose squares to fire at."; return; }
    if (await send("fire " + list.join(" "))) { aim = []; typed.value = ""; say(""); }
  } }, h("label", { for: "s-fire" }, "Fire at"), typed, h("button", { type: "submit", class: "primary", id: "s-fire-btn" }, "Fire"));
  const outlineBox = h("div", { class: "stack", id: "s-outline" });
  const controls = h("div", { class: "card stack", id: "s-controls" }, shotsNote, h("div", { class: "row" }, modeBtn), fireForm, aimNote, keysHelp, outlineBox, err);
  const root = h("div", { class: "salvo" }, h("div", { class: "layout-inner" }, controls, boards, info));
  // On a phone the ocean aimed at comes first, then the controls, then
  // your own ocean; elsewhere the controls come first. The page's order
  // is the one drawn, which Tab and a screen reader follow. Moving the
  // controls would blur what has the focus in them: it gets it back.
  const phone = window.matchMedia("(max-width: 30rem)");
  const placeControls = () => {
    const had = controls.contains(document.activeElement) ? document.activeElement : null;
    if (phone.matches) boards.insertBefore(controls, mine); else boards.before(controls);
    if (had && document.activeElement !== had) had.focus();
  };
  placeControls();
  // The width's listener outlives the board (nothing tells a board it is
  // left): it holds the placing only weakly, which the board itself
  // keeps, so that a board left is collected whole and its listener goes
  // at the next change of width.
  root.placeControls = placeControls;
  const placing = new WeakRef(placeControls);
  const widthChanged = () => { const place = placing.deref(); if (place) place(); else phone.removeEventListener("change", widthChanged); };
  phone.addEventListener("change", widthChanged);
  let view = null;
  async function send(mv) {
    err.textContent = "";
    try { await ctx.send(mv); return true; } catch (e) { err.textContent = e.message; return false; }
  }
  modeBtn.onclick = () => { mode = mode === "aim" ? "pencil" : "aim"; update(view); };
  const savePencil = () => { try { localStorage.setItem(key, JSON.stringify(pencil)); } catch { /* ignore */ } };
  const pm = { "": "", hit: "hit?", miss: "miss?" };

  function update(v, typing) {
    v = norm(v);
    view = v;
    const me = v.seat;
    // The view is the seat's; the person at the screen may be somebody
    // else (a replay shown as a player saw it): then the boards name the
    // player rather than say "your".
    const your = !ctx.me || ctx.me() === me ? "Your" : me >= 0 ? `${v.players[me].name}'s` : "";
    const myTurn = me >= 0 && v.to_move.includes(me) && !ended(v);
    // A replay's oceans are read, never aimed at nor marked.
    const live = me >= 0 && !ended(v) && !ctx.replay;
    const focus = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.sq;
    const focusBoard = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-board]");
    if (!myTurn && aim.length) { aim = []; typed.value = ""; say(""); }
    if (!typing && myTurn && document.activeElement !== typed) typed.value = aim.join(" ");
    const firing = fireForm.contains(document.activeElement) && !fireForm.hidden;
    // Between turns the firing box is read-only and its button marked,
    // not disabled, as Quizl's and Nymphabet's are: a disabled box would
    // drop the keyboard's focus, and a player who fires by typing would
    // have to find the box again on every turn. Fired meanwhile, a salvo
    // is refused with the reason and sends nothing.
    typed.readOnly = !myTurn;
    typed.setAttribute("aria-disabled", String(!myTurn));
    fireForm.querySelector("button").setAttribute("aria-disabled", String(!myTurn));
    if (myTurn && err.textContent === notYet) err.textContent = "";
    controls.hidden = me < 0 || ended(v) || (v.players[me] && v.players[me].out);
    modeBtn.textContent = mode === "aim" ? "Mode: aiming (P for pencil marks)" : "Mode: pencil marks (hit? / miss?)";
    modeBtn.setAttribute("aria-pressed", String(mode === "pencil"));
    fireForm.hidden = v.must_outline;
    keysHelp.hidden = v.must_outline;
    if (v.must_outline) outlineFor(v.target);
    updateText(shotsNote, v.must_outline ? `Every ship of ${v.players[v.target].name} is sunk: outline the fleet to win.`
      : myTurn ? `Your salvo: ${plural(v.shots, "shot")} at ${v.players[v.target].name}. Chosen: ${aim.length ? aim.join(" ") : "none"}.` : `Shots in your next salvo: ${v.shots}`);
    fill(aimed);
    fill(mine);
    // The tracking oceans: one per opponent fired at, and the current target's.
    const targets = [];
    if (v.target >= 0) targets.push(v.target);
    (v.tracking || []).forEach(t => { if (!targets.includes(t.target)) targets.push(t.target); });
    if (me < 0 && v.practice) targets.push(1);
    else if (me < 0) v.players.forEach((_, i) => targets.push(i));
    for (const t of targets) {
      const tr = (v.tracking || []).find(x => x.target === t) || (me < 0 ? publicTracking(v, t) : undefined);
      const revealed = v.finished && v.fleets ? new Map() : null;
      if (revealed) v.fleets[t].forEach((s, i) => squaresOf(s).forEach(([r, c]) => revealed.set(r * 10 + c, i)));
      const hitsOn = new Set();
      // A daily attempt's fleet stays hidden until the day ends: no reveal.
      if (revealed) v.salvos.filter(s => s.at === t).forEach(s => s.squares.forEach(q => { const p = parse(q); if (p && revealed.has(p[0] * 10 + p[1])) hitsOn.add(q); }));
      const canAim = live && myTurn && t === v.target;
      // The latest salvo at this ocean stands out, as a last move does.
      const latest = tr ? Math.max(...tr.ocean.flat()) : 0;
      const outlined = new Map();
      if (v.must_outline && t === v.target) outline.forEach((s, i) => s && squaresOf(s).forEach(([r, c]) => outlined.set(r * 10 + c, i)));
      const g = ocean(me >= 0 ? `${your === "Your" ? "Tracking" : `${your} tracking`} ocean of ${v.players[t].name}` : `${v.players[t].name}'s ocean`, (r, c) => {
        const sqn = name(r, c);
        const n = tr ? tr.ocean[r][c] : 0;
        const mark = pencil[`${t}:${sqn}`] || "";
        const aimed = canAim && aim.includes(sqn);
        const ship = revealed ? revealed.get(r * 10 + c) : undefined;
        const ol = outlined.get(r * 10 + c);
        let cls = (n ? "shot" + (n === latest ? " last" : "") : "") + (mark ? " pm-" + mark : "") + (aimed ? " aim" : "") + (ship !== undefined ? " ship" : "") + (ol !== undefined ? " aim" : "");
        const label = [n ? `fired with salvo ${n}${n === latest ? ", the latest" : ""}` : "not fired at", mark ? `pencil: ${pm[mark]}` : "", aimed ? "aimed" : "", ship !== undefined ? SHIPS[ship][0] : "", ol !== undefined ? `outlined as ${SHIPS[ol][0]}` : ""].filter(Boolean).join(", ");
        const click = () => {
          if (mode === "pencil" && me >= 0) {
            const next = { "": "hit", hit: "miss", miss: "" }[mark];
            if (next) pencil[`${t}:${sqn}`] = next; else delete pencil[`${t}:${sqn}`];
            savePencil(); update(view); refocus(t, sqn); return;
          }
          if (v.must_outline && t === v.target) { outlineClick(r, c); refocus(t, sqn); return; }
          if (!canAim) { say(v.must_outline ? "Every ship is sunk: outline the fleet rather than fire." : "Wait for your turn to aim."); return; }
          if (n) { say(`You fired at ${sqn} with salvo ${n}: choose a square you have not fired at.`); return; }
          if (aim.includes(sqn)) { aim = aim.filter(x => x !== sqn); say(""); }
          else if (aim.length < v.shots) { aim.push(sqn); say(""); }
          else { say(`Your salvo has ${plural(v.shots, "shot")} and all are chosen: take one back before choosing ${sqn}.`); return; }
          typed.value = aim.join(" ");
          update(view); refocus(t, sqn);
        };
        return {
          text: n ? String(n) : (ship !== undefined ? SHIPS[ship][0][0].toUpperCase() : ""), cls: cls + (v.finished && hitsOn.has(sqn) ? " bad" : ""), label,
          onclick: live ? click : null,
          pressed: canAim && !n ? aimed : undefined,
          onkey: live ? e => {
            if (e.ctrlKey || e.metaKey || e.altKey) return;
            if (e.key === "p" || e.key === "P") { e.preventDefault(); mode = mode === "aim" ? "pencil" : "aim"; update(view); refocus(t, sqn); }
            else if (e.key === "f" || e.key === "F") { e.preventDefault(); fireFromOcean(); }
          } : null,
        };
      });
      const tally = tr ? h("table", { class: "tally", "aria-label": `Hits on ${v.players[t].name}'s fleet by class` },
        h("tr", {}, h("th", {}, "Class"), h("th", {}, "Hits"), h("th", {}, "Sunk")),
        CLASSES.map(c => h("tr", {}, h("td", {}, c), h("td", {}, `${tr.hits[c] || 0} of ${c === "submarine" ? 4 : SHIPS[CLASSES.indexOf(c)][1]}`), h("td", {}, `${tr.sunk[c] || 0} of ${c === "submarine" ? 2 : 1}`)))) : null;
      append(aimed, h("section", { class: "board", "data-board": String(t) },
        // An onlooker sees the shots at each ocean, and its fleet only
        // once the game is over.
        h("h3", {}, me >= 0 && !revealed ? `${your} shots at ${v.players[t].name}` : revealed ? `${v.players[t].name}'s fleet` : `${v.players[t].name}'s ocean`), g, tally));
    }
    if (me >= 0 && v.fleet) {
      const own = new Map();
      v.fleet.forEach((s, i) => s.squares.forEach((q, j) => { const p = parse(q); own.set(p[0] * 10 + p[1], { i, hit: s.hit[j] }); }));
      const incoming = new Map();
      v.salvos.filter(s => s.at === me).forEach(s => s.squares.forEach(q => incoming.set(q, s.number)));
      append(mine, h("section", { class: "board", "data-board": "own" }, h("h3", {}, `${your} ocean`),
        ocean(`${your} ocean with incoming salvos`, (r, c) => {
          const o = own.get(r * 10 + c);
          const n = incoming.get(name(r, c));
          return { text: n ? String(n) : o ? SHIPS[o.i][0][0].toUpperCase() : "", cls: (o ? "ship" : "") + (o && o.hit ? " bad" : n ? " shot" : ""),
            label: [o ? SHIPS[o.i][0] + (o.hit ? ", hit" : "") : "water", n ? `salvo ${n} fell here` : ""].filter(Boolean).join(", ") };
        }, { small: true }),
        h("ul", { class: "muted" }, v.fleet.map(s => h("li", {}, `${s.class} ${s.ship}: ${s.sunk ? "sunk" : `${s.hit.filter(Boolean).length} of ${s.hit.length} hit`}`)))));
    }
    // Reports.
    const rows = v.salvos.slice().reverse().map(s => h("li", {}, h("span", { class: "by" }, `${v.players[s.by].name} #${s.number}`), ` at ${v.players[s.at].name}: ${s.squares.join(" ")} — `, h("em", {}, reportText(s.report))));
    fill(info, h("section", { "aria-labelledby": "s-rep-h" }, h("h2", { id: "s-rep-h" }, "Salvo reports"), rows.length ? h("ol", { class: "moves", id: "s-reports", reversed: true, tabindex: 0, "aria-labelledby": "s-rep-h" }, rows) : h("p", { class: "muted" }, "No salvo yet.")),
      (v.outlines || []).length ? h("section", {}, h("h2", {}, "Outlines"), h("ul", {}, v.outlines.map(o => h("li", {}, `${v.players[o.by].name} outlined ${v.players[o.of].name}'s fleet: ${o.right ? "right" : "wrong"} (${o.fleet.join(" ")})`)))) : null);
    drawOutline(v);
    keepStops();
    if (focus && focusBoard) refocus(focusBoard.dataset.board, focus);
    // The salvo that sank the last ship leaves the outline as the only
    // move: the keyboard that fired it goes on to the outline's first
    // box, rather than stay in the form that went.
    else if (firing && v.must_outline) { const first = outlineBox.querySelector("input"); if (first) first.focus({ preventScroll: true }); }
    // The turn come with the keyboard on the screen as a whole (the fleet
    // just sent, the game just begun), the salvo is typed straight in.
    else if (myTurn && !controls.hidden && !ctx.replay && document.activeElement && document.activeElement !== document.body && document.activeElement.contains(root)) {
      const to = v.must_outline ? outlineBox.querySelector("input") : typed;
      if (to) to.focus({ preventScroll: true });
    }
  }
  // fireFromOcean fires the salvo chosen on the ocean (the F key on any
  // of its squares), as Enter does in the firing box: the keyboard that
  // chose the squares need not leave the ocean to fire them. A salvo not
  // complete yet says how many squares are still to choose.
  function fireFromOcean() {
    const v = view;
    if (!v) return;
    if (v.must_outline) { say("Every ship is sunk: outline the fleet rather than fire."); return; }
    if (!(v.seat >= 0 && v.to_move.includes(v.seat) && !ended(v))) { err.textContent = notYet; return; }
    const tr = v.tracking.find(x => x.target === v.target);
    const left = 100 - (tr ? tr.ocean.flat().filter(Boolean).length : 0);
    const need = Math.min(v.shots, left) - aim.length;
    if (need > 0) { say(`Choose ${plural(need, "more square")} before firing: your salvo has ${plural(v.shots, "shot")}.`); return; }
    typed.value = aim.join(" ");
    fireForm.requestSubmit();
  }
  function refocus(board, sqn) {
    const el = boards.querySelector(`[data-board="${board}"] [data-sq="${sqn}"]`);
    if (el) el.focus();
  }
  function outlineClick(r, c) {
    if (!outlineStart) { outlineStart = [r, c]; outline[outlineShip] = name(r, c); }
    else { outline[outlineShip] = `${name(...outlineStart)}-${name(r, c)}`; outlineStart = null; if (outlineShip < 4) outlineShip++; }
    keepOutline();
    update(view);
  }
  // The outline's boxes are made once for the fleet outlined and then
  // only brought up to date: drawn anew on every update of the table (the
  // other player's chat line, say), the box being typed in would lose its
  // caret and selection. A box the player is in keeps what they typed.
  let outlineInputs = null, outlineLabels = null, outlineDrawn = -1;
  function drawOutline(v) {
    outlineBox.hidden = !v.must_outline;
    if (!v.must_outline) return;
    if (outlineDrawn !== outlineOf || !outlineInputs) {
      outlineDrawn = outlineOf;
      outlineLabels = [];
      outlineInputs = SHIPS.map(([, len], i) => {
        const inp = h("input", { id: "s-ol-" + i, size: 8, autocomplete: "off", placeholder: len === 5 ? "B2-B6" : "", onfocus: () => { outlineShip = i; outlineStart = null; markOutlineShip(); } });
        inp.addEventListener("input", () => { outline[i] = inp.value.trim().toUpperCase(); keepOutline(); });
        return inp;
      });
      const rows = outlineInputs.map((inp, i) => {
        const label = h("label", { for: inp.id });
        outlineLabels.push(label);
        return h("div", { class: "row" }, label, inp);
      });
      // A form, so that Enter in any ship's box sends the outline, as Enter
      // in the firing box fires.
      fill(outlineBox, h("h3", {}, "Outline the fleet"),
        h("p", { class: "help" }, "Type each ship's ends, or choose a ship and click its two ends on the tracking ocean."),
        h("form", { class: "stack", onsubmit: async e => {
          e.preventDefault();
          // Every ship's box filled first: the referee's word on a fleet
          // short of ships would speak of the notation's five ships.
          const missing = SHIPS.map((_, i) => i).filter(i => !(outline[i] || "").trim()).map(shipLabel);
          if (missing.length) { err.textContent = `Outline every ship before sending: ${missing.length === 1 ? "the " + missing[0] + " is" : missing.length + " ships are"} still to outline.`; return; }
          if (await send("outline " + outline.join(" "))) dropOutline();
        } },
          rows, h("button", { type: "submit", class: "primary", id: "s-ol-send" }, "Send the outline")));
    }
    outlineInputs.forEach((inp, i) => {
      if (inp !== document.activeElement && inp.value.trim().toUpperCase() !== outline[i]) inp.value = outline[i];
    });
    markOutlineShip();
  }
  // markOutlineShip points at the ship the ocean's clicks outline, with
  // a glyph app.css draws beside its label (label.current) and keeps out
  // of the box's name: read, it was "left-pointing triangle".
  function markOutlineShip() {
    if (outlineLabels) SHIPS.forEach(([, len], i) => {
      updateText(outlineLabels[i], `${shipLabel(i)} (${len})`);
      outlineLabels[i].classList.toggle("current", outlineShip === i);
    });
  }
  return { el: root, update };
}

export const toMove = v => v.finished ? [] : v.to_move || [];
export const finished = v => !!v.finished;
export const winners = v => v.winners || [];
export const names = v => v.players.map(p => p.name);
export function standings(v) {
  // In practice the second player is the hidden fleet, no seat of the table.
  const seats = v.practice ? v.players.slice(0, 1) : v.players;
  // Shots fall by one for each enemy ship a player sinks, or under the
  // other rule for each of their own ships sunk: the note says which.
  const owner = v.shots_lost_by === "owner";
  const why = p => owner ? (p.ships_lost ? ` (lost ${plural(p.ships_lost, "ship")})` : "") : (p.ships_sunk ? ` (sank ${p.ships_sunk})` : "");
  return seats.map(p => ({ name: p.name, score: p.ships_sunk, note: p.out ? outWords[p.out] || p.out : `shots: ${p.shots}${why(p)}${v.practice ? ", practice" : ""}` }));
}

// outWords says why a player left the game beside their name: the view's
// bare "outlined" is what befell their fleet, which beside the name would
// read as the outline they made.
const outWords = { outlined: "fleet outlined", "wrong outline": "outlined wrongly", resigned: "resigned" };

// scoresLabel names what the result's scores count.
export const scoresLabel = () => "Ships sunk";
export function moveList(v) {
  v = norm(v);
  return [...v.salvos.map(s => ({ seat: s.by, text: `salvo ${s.number}: ${s.squares.join(" ")}`, detail: reportText(s.report) })),
    ...(v.outlines || []).map(o => ({ seat: o.by, text: `outline of ${v.players[o.of].name}`, detail: o.right ? "right" : "wrong" }))];
}

// endSummary says why the game ended, from the final view and the last
// move (table.js passes {seat, names, last}): who outlined which fleet
// rightly or wrongly, or who resigned. (When the events carry the end
// reason as fields, read them here instead.)
export function endSummary(v, { seat, last }) {
  v = norm(v);
  const name = i => v.players[i].name;
  const o = v.outlines[v.outlines.length - 1];
  // The last move is known when this page saw it; after a reload only the
  // view is, and then the game ended by its last outline if there was one.
  const byOutline = o && (last ? /^outline\b/i.test(last.move) : true);
  const salvos = v.salvos.filter(s => s.by === 0).length;
  if (v.practice) {
    // A daily attempt's fleet stays hidden until the day ends (the end
    // banner says so): then the view has no fleets, and nothing is shown.
    const shown = !!(v.fleets && v.fleets.length);
    if (byOutline && o.right) return { result: "you found the hidden fleet", reason: `You sank all five ships and outlined the computer's fleet rightly, in ${plural(salvos, "salvo")}.` };
    if (byOutline) return { result: "the outline was wrong", reason: `You sank all five ships, but outlined the computer's fleet wrongly (you said ${o.fleet.join(" ")}).${shown ? " Its real fleet is shown below." : ""}` };
    return { result: "you resigned", reason: `You resigned after ${plural(salvos, "salvo")}${shown ? "; the computer's fleet is shown below" : ""}.` };
  }
  if (byOutline) {
    const who = o.by === seat ? "You" : name(o.by);
    const whose = o.of === seat ? "your" : `${name(o.of)}'s`;
    return { reason: o.right ? `${who} outlined ${whose} fleet rightly.` : `${who} outlined ${whose} fleet wrongly, and a wrong outline loses.` };
  }
  const resigned = v.players.map((p, i) => p.out === "resigned" ? i : -1).filter(i => i >= 0);
  if (last && /^resign$/i.test(last.move)) return { reason: `${last.seat === seat ? "You" : last.player} resigned.` };
  if (resigned.length) return { reason: `${resigned.map(name).join(" and ")} resigned.` };
  return null;
}
