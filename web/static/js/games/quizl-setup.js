// quizl-setup.js: Quizl's grid editor, where a player hides their
// password. The referee is the server: the editor checks a grid's shape
// for comfort, asks /api/v1/tools/check-setup for the rest, and asks
// /api/v1/tools/fill-setup to fill the squares around the player's
// password.

import { h, gridNav, toast, append, plural } from "../dom.js";
import { checkSetup, fillSetup } from "../api.js";

export const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// sq names a square as people do: row 5-9, then column 0-4 ("72").
export const sq = (r, c) => `${r + 5}${c}`;
export const lineName = l => l < 5 ? `row ${l + 5}` : `column ${l - 5}`;
// lineSquares lists the [row, column] indexes of line l: 0-4 rows, 5-9 columns.
export const lineSquares = l => [0, 1, 2, 3, 4].map(i => l < 5 ? [l, i] : [i, l - 5]);

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
  // A group of 25 text boxes, each named by its square, rather than an
  // ARIA grid: a grid's cells must be gridcells in rows, and a text box
  // cannot be a gridcell.
  const grid = h("div", { class: "grid", role: "group", "aria-label": "Your grid: rows 5 to 9, columns 0 to 4", style: "grid-template-columns: repeat(6, auto)" });
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
  // While the server fills the grid its buttons are disabled, so that a
  // second press asks nothing twice; the browser then drops the focus of
  // the one pressed on the page's body, and the keyboard gets it back
  // once they are enabled again, rather than start over at the page's top.
  let pressed = null;
  const busy = on => {
    if (on) pressed = buttons.contains(document.activeElement) ? document.activeElement : null;
    for (const b of buttons.querySelectorAll("button")) b.disabled = on;
    if (!on && pressed && pressed.isConnected && (!document.activeElement || document.activeElement === document.body)) pressed.focus({ preventScroll: true });
  };
  const draw = () => { for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].value = letters[r][c]; check(); };
  const pw = () => pwInput.value.toUpperCase().replace(/[^A-Z]/g, "");
  const lineOf = p => p.length === 5 ? [...Array(10).keys()].find(l => lineSquares(l).map(([r, c]) => letters[r][c]).join("") === p) : undefined;
  let asked = 0; // the latest referee check, so that a late answer never wins
  function check() {
    if (touched) keepDraft();
    const p = pw();
    const onLine = lineOf(p);
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].classList.toggle("pw", onLine !== undefined && lineSquares(onLine).some(([a, b]) => a === r && b === c));
    const prob = shapeProblem(letters, p);
    const n = ++asked;
    if (!touched) return prob;
    // Empty squares are work still to do, not a mistake: say how many,
    // without the warning's colour, until a letter is wrong.
    const empty = letters.flat().filter(ch => !ch || ch === ".").length;
    const todo = empty && / holds no letter$/.test(prob);
    note.className = prob && !todo ? "warn" : "";
    note.textContent = todo ? `${plural(empty, "square")} still to fill: type letters into ${empty === 1 ? "it" : "them"}, or press "Fill the rest for me".` : prob ? prob : "Asking the referee…";
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
      dropDraft();
    } catch (e) { err.textContent = e.message; }
  };
  const auto = async () => {
    err.textContent = "";
    try { await ctx.sendSetup(null, "deceptive"); dropDraft(); } catch (e) { err.textContent = e.message; }
  };
  // The grid being typed is kept in this tab (sessionStorage, per table
  // and seat) until it is sent, so that a reload does not lose it; it is
  // the player's own secret and never leaves the browser before then.
  const draftKey = `parlour.quizl.draft.${ctx.table}.${ctx.seat}`;
  function keepDraft() {
    try { sessionStorage.setItem(draftKey, JSON.stringify({ letters, password: pwInput.value, line: lineSel.value })); } catch { /* no storage: nothing kept */ }
  }
  function dropDraft() {
    try { sessionStorage.removeItem(draftKey); } catch { /* nothing kept */ }
  }
  try {
    const d = JSON.parse(sessionStorage.getItem(draftKey) || "null");
    if (d && Array.isArray(d.letters) && d.letters.length === 5) {
      d.letters.forEach((row, r) => row.slice(0, 5).forEach((ch, c) => { letters[r][c] = /^[A-Z]$/.test(ch) ? ch : ""; }));
      pwInput.value = String(d.password || "").toUpperCase().replace(/[^A-Z]/g, "").slice(0, 5);
      if (/^[0-9]$/.test(d.line || "")) lineSel.value = d.line;
      for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) cells[r][c].value = letters[r][c];
      touched = letters.flat().some(Boolean) || !!pwInput.value;
    }
  } catch { /* a draft that cannot be read is no draft */ }
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
