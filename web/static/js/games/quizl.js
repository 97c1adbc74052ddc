// quizl.js: Quizl's setup editor and play screen, drawn from the seat's
// view (games/quizl View). The referee is the server: this file only
// checks a grid's shape for comfort and names squares as people do ("72").

import { h, gridNav, toast, fill, append, gridRows } from "../dom.js";
import { checkSetup } from "../api.js";

const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const sq = (r, c) => `${r + 5}${c}`;
const lineName = l => l < 5 ? `row ${l + 5}` : `column ${l - 5}`;
const lineSquares = l => [0, 1, 2, 3, 4].map(i => l < 5 ? [l, i] : [i, l - 5]);

// shapeProblem checks what can be checked without a dictionary: 25
// different letters, the password five different letters on one line.
export function shapeProblem(rows, pw) {
  const seen = {};
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) {
    const ch = rows[r][c];
    if (!ch || ch === ".") return `square ${sq(r, c)} holds no letter`;
    if (seen[ch]) return `the letter ${ch} appears twice, in squares ${seen[ch]} and ${sq(r, c)}`;
    seen[ch] = sq(r, c);
  }
  if (!pw) return "type the password";
  if (!/^[A-Z]{5}$/.test(pw)) return "the password is five letters A–Z";
  if (new Set(pw).size !== 5) return `${pw} repeats a letter: a password has five different letters`;
  for (let l = 0; l < 10; l++) if (lineSquares(l).map(([r, c]) => rows[r][c]).join("") === pw) return "";
  return `the password ${pw} is not written in any row (left to right) or column (top to bottom)`;
}

// Setup is the grid editor: type the password into a row or column, then
// fill the rest by hand or let the computer fill it.
export function setup(ctx) {
  const cells = [];
  const inputs = [];
  const letters = Array.from({ length: 5 }, () => Array(5).fill(""));
  const grid = h("div", { class: "grid", role: "grid", "aria-label": "Your grid: rows 5 to 9, columns 0 to 4", style: "grid-template-columns: repeat(6, auto)" });
  append(grid, h("span", { class: "hdr", "aria-hidden": "true" }), [0, 1, 2, 3, 4].map(c => h("span", { class: "hdr", "aria-hidden": "true" }, c)));
  for (let r = 0; r < 5; r++) {
    append(grid, h("span", { class: "hdr", "aria-hidden": "true" }, r + 5));
    cells.push([]);
    for (let c = 0; c < 5; c++) {
      const inp = h("input", { class: "cell", maxlength: 1, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-label": `Square ${sq(r, c)}`, "data-sq": sq(r, c) });
      inp.addEventListener("input", () => {
        letters[r][c] = (inp.value.toUpperCase().match(/[A-Z]/) || [""])[0];
        inp.value = letters[r][c];
        if (letters[r][c]) {
          const next = c < 4 ? cells[r][c + 1] : r < 4 ? cells[r + 1][0] : null;
          if (next) next.focus();
        }
        check();
      });
      inp.addEventListener("keydown", e => {
        if (e.key === "Backspace" && !inp.value && c > 0) { e.preventDefault(); cells[r][c - 1].focus(); }
      });
      cells[r].push(inp);
      inputs.push(inp);
      append(grid, inp);
    }
  }
  gridNav(cells);
  const pwInput = h("input", { id: "q-password", maxlength: 5, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-describedby": "q-pw-help" });
  const lineSel = h("select", { id: "q-line", "aria-label": "Line for the password" }, [...Array(10).keys()].map(l => h("option", { value: l }, lineName(l))));
  const note = h("p", { id: "q-note", role: "status", "aria-live": "polite" });
  const err = h("p", { class: "error", role: "alert" });
  const draw = () => { for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].value = letters[r][c]; check(); };
  const pw = () => pwInput.value.toUpperCase().replace(/[^A-Z]/g, "");
  let asked = 0; // the latest referee check, so that a late answer never wins
  function check() {
    const p = pw();
    const onLine = p.length === 5 ? [...Array(10).keys()].find(l => lineSquares(l).map(([r, c]) => letters[r][c]).join("") === p) : undefined;
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].classList.toggle("pw", onLine !== undefined && lineSquares(onLine).some(([a, b]) => a === r && b === c));
    const prob = shapeProblem(letters, p);
    note.className = prob ? "warn" : "";
    note.textContent = prob ? prob : "Asking the referee…";
    const n = ++asked;
    if (!prob) {
      refereeSays().then(msg => {
        if (n !== asked) return;
        note.className = msg ? "warn" : "ok";
        note.textContent = msg || `The referee accepts this grid (missing letter: ${[...A].filter(ch => !letters.flat().includes(ch)).join("")}).`;
      });
    }
    return prob;
  }
  // refereeSays asks the server's referee about the grid: "" when it
  // passes, else what is wrong ("row 6 reads BLIMP, a word: ...").
  async function refereeSays() {
    try { await checkSetup("quizl", ctx.rules(), ctx.lexicon(), { grid: letters.map(r => r.join("")), password: pw() }); return ""; }
    catch (e) { return e.status === 422 ? e.message : ""; }
  }
  const put = () => {
    const p = pw();
    if (p.length !== 5) { toast("Type a five-letter password first"); pwInput.focus(); return; }
    const l = Number(lineSel.value);
    // Clear the password's letters elsewhere so the grid keeps every letter once.
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) if (p.includes(letters[r][c])) letters[r][c] = "";
    lineSquares(l).forEach(([r, c], i) => { letters[r][c] = p[i]; });
    draw();
  };
  // fill puts the letters left, shuffled, in the empty squares, and tries
  // again (a few times) when the referee finds a second word.
  const fill = async () => {
    const empty = [];
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) if (!letters[r][c]) empty.push([r, c]);
    for (let tries = 0; tries < 12; tries++) {
      const used = new Set(letters.flat().filter((ch, i) => ch && !empty.some(([r, c]) => r * 5 + c === i)));
      const free = [...A].filter(ch => !used.has(ch));
      for (let i = free.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [free[i], free[j]] = [free[j], free[i]]; }
      for (const [r, c] of empty) letters[r][c] = free.pop();
      if (shapeProblem(letters, pw()) || !(await refereeSays())) break;
    }
    draw();
  };
  const clearAll = () => { letters.forEach(row => row.fill("")); draw(); };
  const submit = async () => {
    err.textContent = "";
    const prob = check();
    if (prob) { err.textContent = prob; return; }
    try {
      await ctx.sendSetup({ grid: letters.map(r => r.join("")), password: pw() });
    } catch (e) { err.textContent = e.message; }
  };
  const auto = async style => {
    err.textContent = "";
    try { await ctx.sendSetup(null, style); } catch (e) { err.textContent = e.message; }
  };
  pwInput.addEventListener("input", () => { pwInput.value = pw(); check(); });
  pwInput.addEventListener("keydown", e => { if (e.key === "Enter") { e.preventDefault(); put(); } });
  check();
  return h("section", { class: "card stack", "aria-labelledby": "q-setup-h" },
    h("h2", { id: "q-setup-h" }, "Hide your password"),
    h("p", {}, "Write a five-letter word with five different letters in one row or column, then fill the other 20 squares with 20 of the 21 letters left, each once. No other row or column may read as a word."),
    h("div", { class: "row" }, h("label", { for: "q-password" }, "Password"), pwInput, lineSel, h("button", { type: "button", onclick: put }, "Write it in")),
    h("p", { class: "help", id: "q-pw-help" }, "Or type it straight into the grid; arrow keys move between squares."),
    grid, note,
    h("div", { class: "row" },
      h("button", { type: "button", onclick: fill }, "Fill the rest for me"),
      h("button", { type: "button", onclick: clearAll }, "Clear"),
      h("button", { type: "button", onclick: () => auto(null) }, "Make me a random grid"),
      h("button", { type: "button", onclick: () => auto("deceptive") }, "Make me a deceptive grid")),
    err,
    h("button", { class: "primary", type: "button", id: "q-submit", onclick: submit }, "Use this grid"));
}

// ownGrid draws rows of letters read-only, with the password's line marked.
function letterGrid(rows, opts) {
  const pwLine = opts.password ? [...Array(10).keys()].find(l => lineSquares(l).map(([r, c]) => rows[r][c]).join("") === opts.password) : undefined;
  const g = h("div", { class: "grid" + (opts.small ? " small" : ""), role: "grid", "aria-label": opts.label, style: "grid-template-columns: repeat(6, auto)" });
  append(g, h("span", { class: "hdr", "aria-hidden": "true" }), [0, 1, 2, 3, 4].map(c => h("span", { class: "hdr", "aria-hidden": "true" }, c)));
  const cells = [];
  for (let r = 0; r < 5; r++) {
    append(g, h("span", { class: "hdr", "aria-hidden": "true" }, r + 5));
    cells.push([]);
    for (let c = 0; c < 5; c++) {
      const ch = rows[r][c];
      const known = ch && ch !== ".";
      const onPw = pwLine !== undefined && lineSquares(pwLine).some(([a, b]) => a === r && b === c);
      const called = opts.called && opts.called.has(sq(r, c));
      const label = `Square ${sq(r, c)}: ${known ? ch : called ? "called, nothing to see" : "not called"}${onPw ? ", password" : ""}`;
      const attrs = { class: "cell" + (onPw ? " pw" : "") + (called ? " called" : ""), role: "gridcell", "aria-label": label, "data-sq": sq(r, c), "data-letter": known ? ch : "" };
      let el;
      if (opts.onCall) {
        const can = opts.canCall && !called;
        el = h("button", { ...attrs, type: "button", "aria-disabled": can ? null : "true", onclick: can ? () => opts.onCall(sq(r, c)) : null }, known ? ch : "");
      } else {
        el = h("span", { ...attrs, tabindex: -1 }, known ? ch : "");
      }
      cells[r].push(el);
      append(g, el);
    }
  }
  gridNav(cells);
  return gridRows(g, 6);
}

const outcomeText = b => ({ right: `found ${b.password || "it"}: ${b.points} points`, tripped: "tripped over the password: 0 points", resigned: "resigned" }[b.outcome] || "");

// Play draws the play screen and returns an object the table updates.
export function play(ctx) {
  const root = h("div", { class: "quizl" });
  const boards = h("div", { class: "boards" });
  const callInput = h("input", { id: "q-call", inputmode: "numeric", maxlength: 2, size: 3, autocomplete: "off", placeholder: "72", "aria-describedby": "q-call-help" });
  const sayWho = h("select", { id: "q-say-who", "aria-label": "Whose password" });
  const sayInput = h("input", { id: "q-say", maxlength: 5, size: 7, autocomplete: "off", autocapitalize: "characters", spellcheck: "false" });
  const err = h("p", { class: "error", role: "alert" });
  const send = async mv => {
    err.textContent = "";
    try { await ctx.send(mv); return true; } catch (e) { err.textContent = e.message; return false; }
  };
  const callForm = h("form", { class: "row", onsubmit: async e => { e.preventDefault(); if (await send(callInput.value.trim())) callInput.value = ""; } },
    h("label", { for: "q-call" }, "Call a square"), callInput, h("button", { type: "submit" }, "Call"));
  const sayForm = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const w = sayInput.value.trim().toUpperCase();
    if (!w) return;
    const who = sayWho.value && ctx.view().players.length > 2 ? sayWho.value + " " : "";
    if (await send(`say ${who}${w}`)) sayInput.value = "";
  } }, h("label", { for: "q-say" }, "Announce a password"), sayWho, sayInput, h("button", { type: "submit" }, "Announce"));
  const controls = h("div", { class: "card stack", id: "q-controls" }, callForm,
    h("p", { class: "help", id: "q-call-help" }, "Row (5–9) then column (0–4); or click a square of a tracking grid. Arrow keys move between squares."),
    sayForm, err);
  append(root, boards, controls);

  function update(v) {
    const mine = v.seat >= 0 && v.to_move === v.seat && !v.finished;
    const called = new Set(v.called || []);
    const others = v.boards.filter(b => b.seat !== v.seat || v.solitaire);
    sayWho.hidden = v.players.length <= 2;
    if (v.players.length > 2) {
      const keep = sayWho.value;
      fill(sayWho, ...others.filter(b => !b.outcome).map(b => h("option", { value: b.name }, b.name)));
      if (keep) sayWho.value = keep;
    }
    controls.hidden = v.seat < 0 || v.finished || (v.done && v.done[v.seat]);
    for (const el of [callInput, sayInput]) el.disabled = !mine;
    const focusSq = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.sq;
    const focusBoard = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-board]");
    const fb = focusBoard && focusBoard.dataset.board;
    fill(boards);
    for (const b of (v.seat >= 0 ? others : v.boards)) {
      const label = v.solitaire ? "The computer's grid" : `${b.name}'s grid`;
      append(boards, h("section", { class: "board", "data-board": String(b.seat), "aria-label": label },
        h("h3", {}, v.finished ? label : v.seat >= 0 ? `Tracking ${v.solitaire ? "the computer's grid" : b.name}` : label),
        letterGrid(b.grid, { label: v.finished ? label : `Tracking grid of ${b.name}`, called: v.seat >= 0 ? called : null, password: b.password, canCall: mine && !b.outcome, onCall: v.seat >= 0 && !v.finished ? m => send(m) : null }),
        h("p", { class: "muted board-note" }, [outcomeText(b), b.wrong && b.wrong.length ? `wrong: ${b.wrong.join(", ")}` : ""].filter(Boolean).join(" · ") || (v.seat >= 0 && !v.finished ? "still hunting" : ""))));
    }
    if (v.grid && v.grid.length) {
      append(boards, h("section", { class: "board", "data-board": "own", "aria-label": "Your grid" },
        h("h3", {}, "Your grid"), letterGrid(v.grid, { label: `Your grid, password ${v.password}`, password: v.password, small: true, called: new Set(v.moves.filter(m => m.seat !== v.seat && /^\d\d$/.test(m.move)).map(m => m.move)) }),
        h("p", { class: "muted" }, "Password ", h("strong", {}, v.password))));
    }
    if (focusSq && fb) {
      const el = boards.querySelector(`[data-board="${fb}"] [data-sq="${focusSq}"]`);
      if (el) el.focus();
    }
  }
  return { el: root, update };
}

// toMove lists the seats to move.
export const toMove = v => v.finished || v.to_move < 0 ? [] : [v.to_move];
export const finished = v => !!v.finished;
export const winners = v => v.winners || [];
export const names = v => v.players;
export function standings(v) {
  return v.players.map((n, i) => ({ name: n, score: v.scores[i], note: v.resigned && v.resigned[i] ? "resigned" : v.done && v.done[i] ? "done" : "" }));
}
export function moveList(v) {
  return v.moves.map(m => ({ seat: m.seat, text: m.text, detail: (m.revealed || []).map(r => `${r.name}: ${r.letter} at ${r.square}`).join(", ") }));
}

// endSummary says why the game ended, from the final view's public move
// texts (table.js passes {seat, names, last}): each password announced
// rightly, each one uncovered by calls without being announced (a trip),
// each resignation. (When the events carry the end reason as fields, read
// them here instead.)
export function endSummary(v) {
  const why = [];
  for (const m of v.moves || []) {
    const parts = (m.text || "").split("; ");
    if (/^say\b/i.test(m.move) && /: right/.test(parts[0])) why.push(parts[0]);
    else if (/^resign$/i.test(m.move)) why.push(parts[0]);
    why.push(...parts.slice(1).filter(p => /uncovered every letter/.test(p)));
  }
  if (!why.length) return null;
  const cap = s => s.charAt(0).toUpperCase() + s.slice(1);
  return { reason: why.slice(-4).map(s => cap(s) + ".").join(" ") };
}
