// quizl.js: Quizl's play screen, drawn from the seat's view (games/quizl
// View), and the grid editor from quizl-setup.js. The referee is the
// server: this file only draws what the view holds and sends moves.

import { h, gridNav, gridMemory, fill, append, gridRows, plural, updateText } from "../dom.js";
import { sq, lineSquares } from "./quizl-setup.js";

export { setup, shapeProblem } from "./quizl-setup.js";

// letterGrid draws rows of letters read-only, with the password's line marked.
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
      // On a player's own grid a called square is one the others called
      // (opts.own names them).
      const taken = opts.own && called;
      const label = `Square ${sq(r, c)}: ${known ? ch : called ? "called, nothing to see" : "not called"}${onPw ? ", password" : ""}${taken ? `, called by ${opts.own}` : ""}`;
      const attrs = { class: "cell" + (onPw ? " pw" : "") + (called ? " called" : "") + (taken ? " taken" : ""), role: "gridcell", "aria-label": label, "data-sq": sq(r, c), "data-letter": known ? ch : "" };
      let el;
      if (opts.onCall) {
        const can = opts.canCall && !called;
        const chosen = can && opts.selected === sq(r, c);
        el = h("button", { ...attrs, class: attrs.class + (chosen ? " sel" : ""), type: "button", "aria-disabled": can ? null : "true", "aria-selected": can ? String(chosen) : null,
          // A square that cannot be called says why, rather than nothing.
          onclick: can ? () => opts.onCall(sq(r, c)) : () => opts.onRefused(sq(r, c), called),
          onfocus: can && opts.onFocus ? () => opts.onFocus(sq(r, c)) : null }, known ? ch : "");
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

const outcomeText = b => ({ right: `found ${b.password || "it"}: ${plural(b.points, "point")}`, tripped: "tripped over the password: 0 points", resigned: "resigned" }[b.outcome] || "");

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
  let mine = false; // the seat is to move
  const notYet = "Wait for your turn to call a square or announce a password.";
  const send = async mv => {
    err.textContent = "";
    try { await ctx.send(mv); return true; } catch (e) { err.textContent = e.message; return false; }
  };
  const callForm = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const sq = callInput.value.trim();
    if (!mine) { err.textContent = notYet; return; }
    if (!sq) { err.textContent = "Type the square to call, as in 72, or pick one on a tracking grid."; return; }
    // Only a square goes in this box: the referee's word for anything
    // else would speak of its notation ("write say AB").
    if (!/^\d\d$/.test(sq)) { err.textContent = `${sq} is not a square: write its row (5-9) then its column (0-4), as in 72. A password goes in the Announce box.`; return; }
    if (await send(sq)) callInput.value = "";
  } }, h("label", { for: "q-call" }, "Call a square"), callInput, h("button", { type: "submit" }, "Call"));
  const sayForm = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const w = sayInput.value.trim().toUpperCase();
    if (!mine) { err.textContent = notYet; return; }
    if (!w) { err.textContent = "Type the password to announce: a word of five different letters."; return; }
    const who = sayWho.value && ctx.view().players.length > 2 ? sayWho.value + " " : "";
    if (await send(`say ${who}${w}`)) sayInput.value = "";
  } }, h("label", { for: "q-say" }, "Announce a password"), sayWho, sayInput, h("button", { type: "submit" }, "Announce"));
  const chosenText = h("span", { id: "q-chosen-text" });
  const chosenBar = h("div", { class: "row chosen", id: "q-chosen", hidden: true, "aria-live": "polite" },
    chosenText,
    h("button", { type: "button", class: "primary", id: "q-confirm", onclick: async () => { const was = selected; if (was) { await callIt(was); backTo(was); } } }, "Call it"),
    h("button", { type: "button", id: "q-unselect", onclick: () => { const was = selected; choose(null); backTo(was); } }, "Clear"));
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
  // backTo gives the keyboard back to the square pick once the bar that
  // called or cleared it has gone with the choice: hidden, the bar would
  // drop the focus on the page's body. Focused so, the square is not
  // chosen again.
  function backTo(pick) {
    const at = document.activeElement;
    if (!pick || (at && at !== document.body && !chosenBar.contains(at) && !at.contains(root) && at.offsetParent !== null)) return;
    const el = boards.querySelector(`[data-board="${pick.board}"] [data-sq="${pick.sq}"]`);
    if (el) { pointer = true; el.focus(); pointer = false; }
  }
  // choose selects a square (or nothing) and redraws the grids.
  function choose(pick) {
    selected = pick;
    if (last) update(last);
  }
  // clicked is a click (or Enter) on a square of board.
  function clicked(board, square) {
    err.textContent = "";
    if (oneBox.checked || selected && selected.board === board && selected.sq === square) { callIt({ board, sq: square }); return; }
    choose({ board, sq: square });
  }
  // Each grid's Tab stop stays on the square last focused there (the
  // one chosen, when chosen by the keyboard or a click) across redraws.
  const keepStops = gridMemory(boards);
  boards.addEventListener("pointerdown", () => { pointer = true; setTimeout(() => { pointer = false; }, 0); });
  boards.addEventListener("keydown", e => { if (e.key === "Escape" && selected) { e.preventDefault(); choose(null); } });

  function update(v) {
    last = v;
    // The view is the seat's; the person at the screen may be somebody
    // else (a replay shown as a player saw it): then the words name the
    // player rather than say "your".
    const you = !ctx.me || ctx.me() === v.seat;
    const me = v.players[v.seat];
    const was = mine;
    // Aborted, the game is over though the view goes on as it stood.
    const ended = v.finished || !!(ctx.over && ctx.over());
    mine = v.seat >= 0 && v.to_move === v.seat && !ended;
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
    controls.hidden = v.seat < 0 || ended || (v.done && v.done[v.seat]);
    // Between turns the forms send nothing, and say so when tried. Their
    // boxes are read-only and their buttons marked, not disabled: a
    // disabled box would drop the keyboard's focus, and a player who
    // calls by typing would have to find the box again on every turn.
    for (const el of [callInput, sayInput]) { el.readOnly = !mine; el.setAttribute("aria-disabled", String(!mine)); }
    for (const el of [...callForm.querySelectorAll("button"), ...sayForm.querySelectorAll("button")]) el.setAttribute("aria-disabled", String(!mine));
    if (mine && !was && err.textContent === notYet) err.textContent = "";
    // The turn come with the keyboard on the screen as a whole (the grid
    // just sent, the game just begun), the call is typed straight in.
    const at = document.activeElement;
    if (mine && !controls.hidden && !ctx.replay && at && at !== document.body && at.contains(root)) callInput.focus({ preventScroll: true });
    chosenBar.hidden = !selected;
    if (selected) {
      const b = others.find(x => String(x.seat) === selected.board);
      updateText(chosenText, `Square ${selected.sq}${b && others.length > 1 ? ` of ${b.name}'s grid` : ""} is selected: click it again or press Enter to call it.`);
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
        h("h3", {}, v.finished || v.seat < 0 ? label : you ? `Tracking ${v.solitaire ? "the computer's grid" : b.name}` : `${me} tracking ${v.solitaire ? "the computer's grid" : b.name}`),
        v.solitaire && sol ? h("p", { class: "muted maker", id: "q-maker-note" }, sol.random
          ? `The computer (${sol.maker}) found no deceptive grid, so this one was filled at random.`
          : `Made by the computer, ${sol.maker}${sol.maker === "easy" ? " (a random filling)" : " (deceptive)"}.`) : null,
        letterGrid(b.grid, {
          label: v.finished ? label : `${you ? "Tracking" : `${me}'s tracking`} grid of ${b.name}`, called: v.seat >= 0 ? called : null, password: b.password, canCall: mine && !b.outcome,
          selected: selected && selected.board === board ? selected.sq : null,
          // A replay's squares are read, never called.
          onCall: v.seat >= 0 && !ended && !ctx.replay ? square => clicked(board, square) : null,
          // Pressed, a square that cannot be called says why and changes nothing.
          onRefused: (square, done) => {
            err.textContent = done ? `Square ${square} was already called: choose one not called yet.`
              : !mine ? "Wait for your turn to call a square."
              : `You are done with ${b.name}'s grid (${outcomeText(b)}): call a square of another.`;
          },
          onFocus: square => { if (!pointer && !oneBox.checked && !(selected && selected.board === board && selected.sq === square)) { selected = { board, sq: square }; markSelected(); } },
        }),
        h("p", { class: "muted board-note" }, [pwNote, outcomeText(b), b.wrong && b.wrong.length ? `wrong: ${b.wrong.join(", ")}` : ""].filter(Boolean).join(" · ") || (v.seat >= 0 && !ended ? "still hunting" : ""))));
    }
    if (v.grid && v.grid.length) {
      // The squares of this grid the others have called, password ones
      // included: how close they are to the password.
      const against = new Set(v.moves.filter(m => m.seat !== v.seat && /^\d\d$/.test(m.move)).map(m => m.move));
      const pwLine = [...Array(10).keys()].find(l => lineSquares(l).map(([r, c]) => v.grid[r][c]).join("") === v.password);
      const onPw = pwLine === undefined ? 0 : lineSquares(pwLine).filter(([r, c]) => against.has(sq(r, c))).length;
      // Seen by somebody else, the grid and those calling on it go by name.
      const them = (!you && v.players.filter((_, i) => i !== v.seat).join(" and ")) || "the other side";
      const grid = you ? "Your grid" : `${me}'s grid`;
      append(boards, h("section", { class: "board", "data-board": "own", "aria-label": grid },
        h("h3", {}, grid), letterGrid(v.grid, { label: `${grid}, password ${v.password}`, password: v.password, small: true, own: them, called: against }),
        h("p", { class: "muted" }, "Password ", h("strong", {}, v.password)),
        h("p", { class: "muted", id: "q-own-called" }, against.size
          ? `Called by ${them}: ${plural(against.size, "square")}, ${onPw} of ${you ? "your" : `${me}'s`} password's 5.`
          : you ? "The other side has called none of your squares yet." : `${them} ${v.players.length > 2 ? "have" : "has"} called none of ${me}'s squares yet.`)));
    }
    keepStops();
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

// endSummary says why the game ended, from the final view's public move
// texts (table.js passes {seat, names, last}): each password announced
// rightly, each one uncovered by calls without being announced (a trip),
// each resignation. (When the events carry the end reason as fields, read
// them here instead.)
export function endSummary(v, { names } = {}) {
  const why = [];
  for (const m of v.moves || []) {
    const parts = (m.text || "").split("; ");
    if (/^say\b/i.test(m.move) && /: right/.test(parts[0])) why.push(parts[0]);
    else if (/^resign$/i.test(m.move)) why.push(parts[0]);
    why.push(...parts.slice(1).filter(p => /uncovered every letter/.test(p)));
  }
  if (!why.length) return null;
  // A sentence begins with a capital, but not a name: names stay as
  // their players wrote them.
  const cap = s => (names || []).some(n => n && s.startsWith(n)) ? s : s.charAt(0).toUpperCase() + s.slice(1);
  return { reason: why.slice(-4).map(s => cap(s) + ".").join(" ") };
}
