// quizl.js: Quizl's setup editor and play screen, drawn from the seat's
// view (games/quizl View). The referee is the server: this file only
// checks a grid's shape for comfort and names squares as people do ("72").

import { h, gridNav, toast, fill, append } from "../dom.js";
import { checkSetup, fillSetup } from "../api.js";

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
// fill the rest by hand, at random, or with the computer's deceptive
// filling around that password. Nothing is sent before "Use this grid",
// except the one button that hands the whole setup to the computer.
export function setup(ctx) {
  const cells = [];
  const letters = Array.from({ length: 5 }, () => Array(5).fill(""));
  let touched = false; // no warning before the player has done anything
  const grid = h("div", { class: "grid", role: "grid", "aria-label": "Your grid: rows 5 to 9, columns 0 to 4", style: "grid-template-columns: repeat(6, auto)" });
  append(grid, h("span", { class: "hdr", "aria-hidden": "true" }), [0, 1, 2, 3, 4].map(c => h("span", { class: "hdr", "aria-hidden": "true" }, c)));
  for (let r = 0; r < 5; r++) {
    append(grid, h("span", { class: "hdr", "aria-hidden": "true" }, r + 5));
    cells.push([]);
    for (let c = 0; c < 5; c++) {
      const inp = h("input", { class: "cell", maxlength: 1, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-label": `Square ${sq(r, c)}`, "data-sq": sq(r, c) });
      inp.addEventListener("input", () => {
        touched = true;
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
      append(grid, inp);
    }
  }
  gridNav(cells);
  const pwInput = h("input", { id: "q-password", maxlength: 5, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", "aria-describedby": "q-pw-help" });
  const lineSel = h("select", { id: "q-line", "aria-label": "Line for the password" }, [...Array(10).keys()].map(l => h("option", { value: l }, lineName(l))));
  const levelSel = h("select", { id: "q-maker", "aria-label": "How deceptive" },
    h("option", { value: "medium" }, "medium"), h("option", { value: "strong", selected: true }, "strong"));
  const note = h("p", { id: "q-note", role: "status", "aria-live": "polite" }, "Type your password in the box, then write it into a row or column.");
  const err = h("p", { class: "error", role: "alert" });
  const busy = on => { for (const b of buttons.querySelectorAll("button")) b.disabled = on; };
  const draw = () => { for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].value = letters[r][c]; check(); };
  const pw = () => pwInput.value.toUpperCase().replace(/[^A-Z]/g, "");
  const lineOf = p => p.length === 5 ? [...Array(10).keys()].find(l => lineSquares(l).map(([r, c]) => letters[r][c]).join("") === p) : undefined;
  let asked = 0; // the latest referee check, so that a late answer never wins
  function check() {
    const p = pw();
    const onLine = lineOf(p);
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].classList.toggle("pw", onLine !== undefined && lineSquares(onLine).some(([a, b]) => a === r && b === c));
    const prob = shapeProblem(letters, p);
    const n = ++asked;
    if (!touched) return prob;
    note.className = prob ? "warn" : "";
    note.textContent = prob ? prob : "Asking the referee…";
    if (!prob) {
      refereeSays().then(msg => {
        if (n !== asked) return;
        note.className = msg ? "warn" : "ok";
        note.textContent = msg || `The referee accepts this grid (missing letter: ${[...A].filter(ch => !letters.flat().includes(ch)).join("")}). Press "Use this grid" to hide it.`;
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
  // placed puts the password on a line if it is not on one yet and
  // returns that line, or says what is missing.
  const placed = () => {
    const p = pw();
    if (!p) throw new Error("Write your password first: type a five-letter word in the Password box.");
    if (p.length !== 5) throw new Error(`A password has five letters; ${p} has ${p.length}.`);
    if (new Set(p).size !== 5) throw new Error(`${p} repeats a letter: a password has five different letters.`);
    let l = lineOf(p);
    if (l === undefined) { write(); l = Number(lineSel.value); }
    return l;
  };
  const write = () => {
    const p = pw();
    const l = Number(lineSel.value);
    // Clear the password's letters elsewhere so the grid keeps every letter once.
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) if (p.includes(letters[r][c])) letters[r][c] = "";
    lineSquares(l).forEach(([r, c], i) => { letters[r][c] = p[i]; });
  };
  const put = () => {
    touched = true;
    err.textContent = "";
    const p = pw();
    if (p.length !== 5) { err.textContent = p ? `A password has five letters; ${p} has ${p.length}.` : "Type a five-letter password first."; pwInput.focus(); return; }
    write();
    draw();
  };
  // show puts a grid the server made into the editor.
  const show = setup => {
    setup.grid.forEach((row, r) => [...row].forEach((ch, c) => { letters[r][c] = ch; }));
    draw();
  };
  // fillRest fills the empty squares: around a lone password the server
  // fills all 20 at once; letters the player typed elsewhere are kept and
  // the rest shuffled in, again a few times when the referee finds a word.
  const fillRest = async () => {
    touched = true;
    err.textContent = "";
    let line;
    try { line = placed(); } catch (e) { err.textContent = e.message; pwInput.focus(); return; }
    const own = new Set(lineSquares(line).map(([r, c]) => r * 5 + c));
    const empty = [];
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) if (!own.has(r * 5 + c) && !letters[r][c]) empty.push([r, c]);
    busy(true);
    try {
      if (empty.length === 20) {
        show((await fillSetup(ctx.rules(), ctx.lexicon(), pw(), line, "random")).setup);
        return;
      }
      for (let tries = 0; tries < 12; tries++) {
        const used = new Set(letters.flat().filter((ch, i) => ch && !empty.some(([r, c]) => r * 5 + c === i)));
        const free = [...A].filter(ch => !used.has(ch));
        for (let i = free.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [free[i], free[j]] = [free[j], free[i]]; }
        for (const [r, c] of empty) letters[r][c] = free.pop() || "";
        if (shapeProblem(letters, pw()) || !(await refereeSays())) break;
      }
      draw();
    } catch (e) { err.textContent = e.message; } finally { busy(false); }
  };
  // deceive asks the computer's grid maker to fill the 20 squares around
  // the player's password, on the player's line, to mislead.
  const deceive = async () => {
    touched = true;
    err.textContent = "";
    let line;
    try { line = placed(); } catch (e) { err.textContent = e.message; pwInput.focus(); return; }
    draw();
    busy(true);
    note.className = "";
    note.textContent = "The computer is filling the squares around your password…";
    try {
      const ans = await fillSetup(ctx.rules(), ctx.lexicon(), pw(), line, levelSel.value);
      show(ans.setup);
      if (ans.random) toast("The computer found no deceptive filling, so it filled the squares at random");
      else toast("The computer filled the other 20 squares: check them, then use the grid");
    } catch (e) { err.textContent = e.message; check(); } finally { busy(false); }
  };
  const clearAll = () => { touched = true; err.textContent = ""; letters.forEach(row => row.fill("")); draw(); };
  const submit = async () => {
    touched = true;
    err.textContent = "";
    const prob = check();
    if (prob) { err.textContent = prob; return; }
    try {
      await ctx.sendSetup({ grid: letters.map(r => r.join("")), password: pw() });
    } catch (e) { err.textContent = e.message; }
  };
  const auto = async () => {
    err.textContent = "";
    try { await ctx.sendSetup(null, "deceptive"); } catch (e) { err.textContent = e.message; }
  };
  pwInput.addEventListener("input", () => { touched = true; pwInput.value = pw(); check(); });
  pwInput.addEventListener("keydown", e => { if (e.key === "Enter") { e.preventDefault(); put(); } });
  check();
  const buttons = h("div", { class: "stack" },
    h("div", { class: "row" },
      h("button", { type: "button", onclick: fillRest }, "Fill the rest for me"),
      h("button", { type: "button", onclick: deceive }, "Make me a deceptive grid"),
      h("label", { for: "q-maker" }, "how deceptive:"), levelSel,
      h("button", { type: "button", onclick: clearAll }, "Clear")),
    h("p", { class: "help" }, "Both keep your password where you wrote it and fill only the other 20 squares; nothing is sent until you press \u201cUse this grid\u201d."),
    h("div", { class: "row" },
      h("button", { type: "button", id: "q-auto", onclick: auto }, "Let the computer choose everything, password too"),
      h("span", { class: "help" }, "(sends at once; you see the grid the computer chose when the game starts)")));
  return h("section", { class: "card stack", "aria-labelledby": "q-setup-h" },
    h("h2", { id: "q-setup-h" }, "Hide your password"),
    h("p", {}, "Write a five-letter word with five different letters in one row or column, then fill the other 20 squares with 20 of the 21 letters left, each once. No other row or column may read as a word."),
    h("div", { class: "row" }, h("label", { for: "q-password" }, "Password"), pwInput, lineSel, h("button", { type: "button", onclick: put }, "Write it in")),
    h("p", { class: "help", id: "q-pw-help" }, "Or type it straight into the grid; arrow keys move between squares."),
    grid, note, buttons, err,
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
        const chosen = can && opts.selected === sq(r, c);
        el = h("button", { ...attrs, class: attrs.class + (chosen ? " sel" : ""), type: "button", "aria-disabled": can ? null : "true", "aria-selected": can ? String(chosen) : null,
          onclick: can ? () => opts.onCall(sq(r, c)) : null,
          onfocus: can && opts.onFocus ? () => opts.onFocus(sq(r, c)) : null }, known ? ch : "");
      } else {
        el = h("span", { ...attrs, tabindex: -1 }, known ? ch : "");
      }
      cells[r].push(el);
      append(g, el);
    }
  }
  gridNav(cells);
  return g;
}

const outcomeText = b => ({ right: `found ${b.password || "it"}: ${b.points} points`, tripped: "tripped over the password: 0 points", resigned: "resigned" }[b.outcome] || "");

// oneClickKey remembers, per browser, whether a click on a tracking
// square calls it at once rather than selecting it first.
const oneClickKey = "parlour.quizl.oneclick";
const oneClick = () => { try { return localStorage.getItem(oneClickKey) === "1"; } catch { return false; } };

// Play draws the play screen and returns an object the table updates. A
// square of a tracking grid is called in two steps unless the player asks
// for one: a click, or moving onto it with the arrow keys, selects it; a
// second click, or Enter, calls it; Escape clears the choice.
export function play(ctx) {
  const root = h("div", { class: "quizl" });
  const boards = h("div", { class: "boards" });
  const callInput = h("input", { id: "q-call", inputmode: "numeric", maxlength: 2, size: 3, autocomplete: "off", placeholder: "72", "aria-describedby": "q-call-help" });
  const sayWho = h("select", { id: "q-say-who", "aria-label": "Whose password" });
  const sayInput = h("input", { id: "q-say", maxlength: 5, size: 7, autocomplete: "off", autocapitalize: "characters", spellcheck: "false" });
  const err = h("p", { class: "error", role: "alert" });
  let selected = null; // {board, sq} chosen and not yet called
  let pointer = false; // the focus that follows comes from a pointer, not the keyboard
  let last = null;
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
  const chosenText = h("span", { id: "q-chosen-text" });
  const chosenBar = h("div", { class: "row chosen", id: "q-chosen", hidden: true, "aria-live": "polite" },
    chosenText,
    h("button", { type: "button", class: "primary", id: "q-confirm", onclick: () => selected && callIt(selected) }, "Call it"),
    h("button", { type: "button", id: "q-unselect", onclick: () => choose(null) }, "Clear"));
  const oneBox = h("input", { type: "checkbox", id: "q-oneclick", checked: oneClick(), onchange: e => {
    try { localStorage.setItem(oneClickKey, e.target.checked ? "1" : "0"); } catch { /* private mode: this page only */ }
    choose(null);
  } });
  const controls = h("div", { class: "card stack", id: "q-controls" }, chosenBar, callForm,
    h("p", { class: "help", id: "q-call-help" }, "Row (5–9) then column (0–4); or pick a square of a tracking grid: click it (or move onto it with the arrow keys), then click it again (or press Enter) to call it. Escape clears."),
    sayForm, err,
    h("label", { for: "q-oneclick", class: "muted" }, oneBox, " Call a square with one click"));
  append(root, boards, controls);

  async function callIt(pick) {
    selected = null;
    if (await send(pick.sq)) return;
    if (last) update(last);
  }
  // choose selects a square (or nothing) and redraws the grids.
  function choose(pick) {
    selected = pick;
    if (last) update(last);
  }
  // clicked is a click (or Enter) on a square of board.
  function clicked(board, square) {
    if (oneBox.checked || selected && selected.board === board && selected.sq === square) { callIt({ board, sq: square }); return; }
    choose({ board, sq: square });
  }
  boards.addEventListener("pointerdown", () => { pointer = true; setTimeout(() => { pointer = false; }, 0); });
  boards.addEventListener("keydown", e => { if (e.key === "Escape" && selected) { e.preventDefault(); choose(null); } });

  function update(v) {
    last = v;
    const mine = v.seat >= 0 && v.to_move === v.seat && !v.finished;
    const called = new Set(v.called || []);
    const others = v.boards.filter(b => b.seat !== v.seat || v.solitaire);
    // A call, a turn passing or a grid finished with ends the choice.
    if (selected && (!mine || called.has(selected.sq) || !others.some(b => String(b.seat) === selected.board && !b.outcome))) selected = null;
    sayWho.hidden = v.players.length <= 2;
    if (v.players.length > 2) {
      const keep = sayWho.value;
      fill(sayWho, ...others.filter(b => !b.outcome).map(b => h("option", { value: b.name }, b.name)));
      if (keep) sayWho.value = keep;
    }
    controls.hidden = v.seat < 0 || v.finished || (v.done && v.done[v.seat]);
    for (const el of [callInput, sayInput]) el.disabled = !mine;
    chosenBar.hidden = !selected;
    if (selected) {
      const b = others.find(x => String(x.seat) === selected.board);
      chosenText.textContent = `Square ${selected.sq}${b && others.length > 1 ? ` of ${b.name}'s grid` : ""} is selected: click it again or press Enter to call it.`;
    }
    const focusSq = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.sq;
    const focusBoard = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-board]");
    const fb = focusBoard && focusBoard.dataset.board;
    fill(boards);
    const sol = ctx.info && ctx.info() && ctx.info().solitaire;
    for (const b of (v.seat >= 0 ? others : v.boards)) {
      const label = v.solitaire ? "The computer's grid" : `${b.name}'s grid`;
      const board = String(b.seat);
      const pwNote = v.finished && b.password ? `password ${b.password}` : "";
      append(boards, h("section", { class: "board", "data-board": board, "aria-label": label },
        h("h3", {}, v.finished ? label : v.seat >= 0 ? `Tracking ${v.solitaire ? "the computer's grid" : b.name}` : label),
        v.solitaire && sol ? h("p", { class: "muted maker", id: "q-maker-note" }, sol.random
          ? `The computer (${sol.maker}) found no deceptive grid, so this one was filled at random.`
          : `Made by the computer, ${sol.maker}${sol.maker === "easy" ? " (a random filling)" : " (deceptive)"}.`) : null,
        letterGrid(b.grid, {
          label: v.finished ? label : `Tracking grid of ${b.name}`, called: v.seat >= 0 ? called : null, password: b.password, canCall: mine && !b.outcome,
          selected: selected && selected.board === board ? selected.sq : null,
          onCall: v.seat >= 0 && !v.finished ? square => clicked(board, square) : null,
          onFocus: square => { if (!pointer && !oneBox.checked && !(selected && selected.board === board && selected.sq === square)) { selected = { board, sq: square }; markSelected(); } },
        }),
        h("p", { class: "muted board-note" }, [pwNote, outcomeText(b), b.wrong && b.wrong.length ? `wrong: ${b.wrong.join(", ")}` : ""].filter(Boolean).join(" · ") || (v.seat >= 0 && !v.finished ? "still hunting" : ""))));
    }
    if (v.grid && v.grid.length) {
      append(boards, h("section", { class: "board", "data-board": "own", "aria-label": "Your grid" },
        h("h3", {}, "Your grid"), letterGrid(v.grid, { label: `Your grid, password ${v.password}`, password: v.password, small: true, called: new Set(v.moves.filter(m => m.seat !== v.seat && /^\d\d$/.test(m.move)).map(m => m.move)) }),
        h("p", { class: "muted" }, "Password ", h("strong", {}, v.password))));
    }
    if (focusSq && fb) {
      const el = boards.querySelector(`[data-board="${fb}"] [data-sq="${focusSq}"]`);
      if (el) { pointer = true; el.focus(); pointer = false; }
    }
  }
  // markSelected shows the selection without redrawing the grids, so that
  // the keyboard focus stays where it is.
  function markSelected() {
    for (const el of boards.querySelectorAll("button.cell")) {
      const on = !!selected && el.closest("[data-board]").dataset.board === selected.board && el.dataset.sq === selected.sq;
      el.classList.toggle("sel", on);
      if (el.getAttribute("aria-disabled") !== "true") el.setAttribute("aria-selected", String(on));
    }
    chosenBar.hidden = !selected;
    if (selected) chosenText.textContent = `Square ${selected.sq} is selected: press Enter or click it again to call it.`;
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
