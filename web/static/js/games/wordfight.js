// wordfight.js: Sightless Word Fight's play screen, drawn from the seat's
// view (games/wordfight View): the public list with lengths and strikes,
// the seat's own grid, placing the current word with a live preview, and
// the audit at the end. The live preview is the referee's own verdict
// (POST /api/v1/tools/preview); the client holds no rule of placement or
// scoring.

import { h, gridNav, gridRows, plural, fill, append, updateText } from "../dom.js";
import { previewPlacement } from "../api.js";
import { colName } from "./wordfight-shape.js";

const sqName = (r, c) => colName(c) + (r + 1);

export function play(ctx) {
  let sel = null; // [r, c]
  let down = false;
  let view = null;
  // The referee's preview of the chosen placement: pvKey is the grid, word
  // and placement it is for, pv its answer ({unasked: why} when it could
  // not be asked; null while waiting). A moment
  // passes before asking, so that arrowing across the grid sends one
  // request for where the player stops.
  let pvKey = "", pv = null, pvTimer = 0;
  function wantPreview(v) {
    const at = `${sqName(...sel)} ${down ? "down" : "across"}`;
    const key = JSON.stringify([v.grid, v.current, at]);
    if (key === pvKey) return pv;
    pvKey = key;
    pv = null;
    clearTimeout(pvTimer);
    pvTimer = setTimeout(async () => {
      let ans;
      try { ans = await previewPlacement(ctx.rules(), ctx.lexicon(), v.grid, v.current, at); }
      catch (e) { ans = { unasked: e.message }; }
      if (key !== pvKey) return;
      pv = ans;
      update(view);
    }, 120);
    return null;
  }
  const err = h("p", { class: "error", role: "alert" });
  const list = h("div", { id: "w-list" });
  const gridBox = h("div");
  const note = h("p", { id: "w-preview", role: "status", "aria-live": "polite" });
  // The status line takes the keyboard while no form is shown (see update).
  const status = h("p", { id: "w-status", "aria-live": "polite", tabindex: -1 });
  const decl = h("input", { id: "w-declare", autocomplete: "off", spellcheck: "false", maxlength: 30 });
  const sqInput = h("input", { id: "w-square", autocomplete: "off", size: 5, placeholder: "B2" });
  const dirBtn = h("button", { type: "button", id: "w-dir", onclick: () => { down = !down; update(view); } });
  const send = async mv => { err.textContent = ""; try { await ctx.send(mv); return true; } catch (e) { err.textContent = e.message; return false; } };
  const declForm = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const w = decl.value.trim();
    // The move takes one word; words with spaces between would come
    // back refused in the move's own notation.
    if (/\s/.test(w)) { err.textContent = `Declare one word, without spaces: “${w}” is more than one.`; return; }
    if (w && await send("declare " + w)) decl.value = "";
  } },
    h("label", { for: "w-declare" }, "Declare a word"), decl, h("button", { type: "submit", class: "primary" }, "Declare"));
  // A placement is written "B2 across" or "B2 down": typed whole in the
  // square's box, its direction word turns the direction button.
  const typedDir = () => {
    const m = /^(\S+)\s+(across|down)$/i.exec(sqInput.value.trim());
    if (m) down = m[2].toLowerCase() === "down";
    return m ? m[1] : sqInput.value.trim();
  };
  // Saying you cannot place the word may cost a strike and cannot be
  // taken back, and its button sits beside Place: the first press says
  // what the second does, and a square chosen or another word takes it
  // back (as the terminal's c does).
  let cannotFor = ""; // the word the first press asked about
  const cannotBtn = h("button", { type: "button", id: "w-cannot", onclick: async () => {
    const w = view && view.current;
    if (!w) return;
    if (cannotFor !== w) {
      cannotFor = w;
      cannotBtn.textContent = "Confirm: cannot";
      err.textContent = `Press again to say you cannot place ${w}: it may cost a strike (${view.strikes} of ${view.strike_limit} so far), and cannot be taken back.`;
      return;
    }
    unask();
    await send("cannot");
  } }, "Cannot");
  const unask = () => {
    if (!cannotFor) return;
    cannotFor = "";
    cannotBtn.textContent = "Cannot";
    if (err.textContent.startsWith("Press again")) err.textContent = "";
  };
  const placeForm = h("form", { class: "stack", onsubmit: async e => {
    e.preventDefault();
    const s = typedDir() || (sel ? sqName(...sel) : "");
    // Anything after the square but a direction would reach the referee
    // with the direction added to it, quoted back as nobody typed it.
    if (/\s/.test(s)) { err.textContent = `“${sqInput.value.trim()}” is not a placement: write the first letter's square, then across or down, such as B2 across.`; return; }
    if (!s) { err.textContent = "Choose a square of your grid for the word's first letter."; return; }
    if (await send(`place ${s} ${down ? "down" : "across"}`)) { sel = null; sqInput.value = ""; }
  } },
    h("div", { class: "row" }, h("label", { for: "w-square" }, "First letter at"), sqInput, dirBtn,
      h("button", { type: "submit", class: "primary", id: "w-place" }, "Place it"),
      cannotBtn),
    note);
  sqInput.addEventListener("input", () => {
    unask();
    const m = /^([A-Z]{1,2})(\d{1,2})$/i.exec(typedDir());
    if (m) {
      const l = m[1].toUpperCase();
      const c = l.length === 1 ? l.charCodeAt(0) - 65 : 26 + l.charCodeAt(1) - 65;
      sel = [Number(m[2]) - 1, c];
      update(view);
      sqInput.focus();
    } else if (sqInput.value.trim() && sel) {
      // What the box holds is no square: the square chosen before, and
      // the referee's word on it, no longer say where the word goes.
      sel = null;
      update(view);
      sqInput.focus();
    }
  });
  const controls = h("div", { class: "card stack", id: "w-controls" }, status, declForm, placeForm, err);
  const gridHead = h("h3", { id: "w-grid-h" }, "Your grid");
  const gridSection = h("section", { class: "board", id: "w-grid", "aria-labelledby": "w-grid-h" }, gridHead, gridBox);
  const root = h("div", { class: "wordfight" }, controls, h("div", { class: "boards" }, gridSection, list));

  function drawGrid(rows, label, opts) {
    const H = rows.length, W = rows[0].length;
    const prev = new Map();
    if (opts.pv && opts.pv.squares) opts.pv.squares.forEach(([y, x], i) => prev.set(y * W + x, opts.word[i]));
    const g = h("div", { class: "grid wf", role: "grid", "aria-label": label, style: `grid-template-columns: var(--hdr-w) repeat(${W}, var(--wf-cell))` });
    append(g, h("span", { class: "hdr", "aria-hidden": "true" }), [...Array(W).keys()].map(c => h("span", { class: "hdr", "aria-hidden": "true" }, colName(c))));
    const cells = [];
    for (let y = 0; y < H; y++) {
      append(g, h("span", { class: "hdr", "aria-hidden": "true" }, y + 1));
      cells.push([]);
      for (let x = 0; x < W; x++) {
        const ch = rows[y][x];
        const p = prev.get(y * W + x);
        // Only the grid being placed in shows the chosen square; the
        // grids revealed at the end show none.
        const isSel = !!opts.pick && sel && sel[0] === y && sel[1] === x;
        const cls = "cell" + (ch === "#" ? " block" : "") + (p ? " prev" + (opts.pv.legal ? "" : " badp") : "") + (isSel ? " sel" : "");
        // A refused placement is red on the grid: its squares say so too.
        const label = `${sqName(y, x)}: ${ch === "#" ? "unusable" : /[A-Z]/.test(ch) ? ch : "empty"}${p && p !== ch ? `, would get ${p}` : ""}${p && !opts.pv.legal ? ", but the placement is not allowed" : ""}`;
        const el = opts.pick
          ? h("button", { type: "button", class: cls, role: "gridcell", "aria-label": label, "aria-selected": String(!!isSel), "data-sq": sqName(y, x), onclick: () => opts.pick(y, x),
            onkeydown: e => { if (e.key === " " && e.shiftKey || e.key === "d" || e.key === "D") { e.preventDefault(); down = !down; update(view); } } }, p || (/[A-Z]/.test(ch) ? ch : ""))
          : h("span", { class: cls, role: "gridcell", "aria-label": label, "data-sq": sqName(y, x) }, /[A-Z]/.test(ch) ? ch : "");
        cells[y].push(el);
        append(g, el);
      }
    }
    if (opts.pick) gridNav(cells, sel || [0, 0]);
    gridRows(g, W + 1);
    // The board keeps its size and scrolls inside its own frame on a
    // narrow screen, so that the page never scrolls sideways.
    // A frame with nothing focusable inside takes the keyboard itself, so
    // that arrow keys can scroll it.
    return h("div", { class: "board-frame", ...(opts.pick ? {} : { tabindex: 0, role: "region", "aria-label": label }) }, g);
  }

  function update(v) {
    v = { ...v, list: v.list || [], to_move: v.to_move || [] };
    view = v;
    const me = v.seat;
    // The view is the seat's; the person at the screen may be somebody
    // else (a replay shown as a player saw it): then the grid, the score
    // and the answers go by the player's name rather than "your".
    const you = !ctx.me || ctx.me() === me;
    const your = you || me < 0 ? "Your" : `${v.players[me]}'s`;
    const over = v.status === "finished";
    // Aborted, the game is over though the view goes on as it stood: no
    // move is asked for, and there is no audit to show.
    const ended = over || !!(ctx.over && ctx.over());
    const mine = me >= 0 && (v.to_move || []).includes(me) && !ended;
    const answering = !!v.current;
    if (cannotFor && (!mine || v.current !== cannotFor)) unask();
    const focus = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.sq;
    controls.hidden = me < 0 || ended || (v.resigned && v.resigned[me]);
    declForm.hidden = !(mine && !answering);
    placeForm.hidden = !(mine && answering);
    dirBtn.textContent = `Direction: ${down ? "down" : "across"} (D)`;
    // The form that held the keyboard went (the word declared, or
    // placed), or the table put the focus back on the screen as a whole
    // meanwhile: the keyboard goes on to the form shown now, so that a
    // player who plays by the keyboard types on without finding it. With
    // no form to go on to (the word placed, the others still placing) it
    // waits on the status line: left in a hidden form, the browser would
    // soon drop it on the page's body, and the next form would not find it.
    const at = document.activeElement;
    const gone = !!at && at !== status && controls.contains(at) && at.offsetParent === null;
    const lost = !!at && at !== document.body && (at.contains(root) || at === status || gone);
    if (lost && mine && !ctx.replay) (answering ? sqInput : decl).focus({ preventScroll: true });
    else if (gone && !controls.hidden) status.focus({ preventScroll: true });
    const names = v.players;
    if (!answering) updateText(status, mine ? "Your turn to declare a word for everyone." : `Waiting for ${names[v.declarer]} to declare a word.`);
    else {
      const waiting = names.filter((_, i) => v.answered && !v.answered[i] && !(v.resigned && v.resigned[i]));
      updateText(status, mine ? `Place ${v.current} (${v.current.length} letters) in your grid, or say you cannot.`
        : `You have answered ${v.current}. Waiting for ${waiting.join(", ") || "the others"}.`);
    }
    let shown = null; // {squares, legal}: where the word would go, for the grid
    if (mine && answering && sel && v.grid) {
      const p = wantPreview(v);
      const dr = down ? 1 : 0, dc = down ? 0 : 1;
      const squares = [...v.current].map((_, i) => [sel[0] + dr * i, sel[1] + dc * i]).filter(([y, x]) => y < v.grid.length && x < v.grid[0].length);
      shown = { squares, legal: !p || p.legal || !!p.unasked };
      note.className = !p ? "" : p.legal ? "ok" : "warn";
      updateText(note, !p ? `Asking the referee about ${v.current} at ${sqName(...sel)} ${down ? "down" : "across"}…`
        : p.unasked ? `The referee could not be asked about this placement (${p.unasked}); it checks the placement when you place the word.`
        : p.legal ? `${v.current} at ${sqName(...sel)} ${down ? "down" : "across"}: legal so far, would score ${p.points} (reuses ${p.reused}).${p.crossings && p.crossings.length ? ` It also forms ${p.crossings.join(", ")}.` : ""}`
        : `Not there: ${p.problem}.`);
    } else updateText(note, mine && answering ? "Choose a square for the first letter; arrow keys move, D turns the direction." : "");
    // A spectator has no grid of their own: while the game goes on the
    // section says when the grids show; at the end the audit shows them.
    gridSection.hidden = !v.grid && over;
    gridHead.textContent = v.grid ? `${your} grid` : "The grids";
    if (v.grid) {
      const g = drawGrid(v.grid, `${your} grid, ${v.rules.width} by ${v.rules.height}`, { pv: shown, word: answering ? v.current : "", pick: mine && answering && !ctx.replay ? (y, x) => { unask(); sel = [y, x]; sqInput.value = sqName(y, x); update(view); } : null });
      const was = gridBox.querySelector(".board-frame");
      const [sx, sy] = was ? [was.scrollLeft, was.scrollTop] : [0, 0];
      fill(gridBox, g, h("p", { class: "muted" }, `${your} score: ${v.score}`));
      g.scrollLeft = sx; g.scrollTop = sy;
      if (focus) { const el = g.querySelector(`[data-sq="${focus}"]`); if (el) el.focus(); }
    } else fill(gridBox, h("p", { class: "muted" }, "Spectators see the grids at the end."));
    fill(list, h("section", { "aria-labelledby": "w-list-h" },
      h("h2", { id: "w-list-h" }, "The public list"),
      h("p", { id: "w-strikes" }, `Strikes: ${v.strikes} of ${v.strike_limit}`),
      v.list.length ? h("div", { class: "table-frame", tabindex: 0, role: "region", "aria-labelledby": "w-list-h" }, h("table", { class: "list" },
        // Your answers' column is a player's: a spectator has none.
        h("thead", {}, h("tr", {}, h("th", {}, "Word"), h("th", {}, "Length"), h("th", {}, "By"), h("th", {}, "Outcome"), me >= 0 ? h("th", {}, you ? "You" : v.players[me]) : null)),
        h("tbody", {}, v.list.map(e => h("tr", {},
          h("td", { class: "mono" }, e.word), h("td", {}, e.length), h("td", {}, names[e.by]),
          h("td", {}, e.done ? (e.cannot && e.cannot.length ? `${e.cannot.map(s => names[s]).join(", ")} could not: ${plural(e.strikes, "strike")}` : "placed by all") : "being answered"),
          me >= 0 ? h("td", {}, e.mine ? (e.mine.move === "cannot" ? "cannot" : `${e.mine.move}, ${plural(e.mine.points, "point")}`) : "—") : null))))) : h("p", { class: "muted" }, "No word yet.")),
      over ? audit(v) : null);
  }
  function audit(v) {
    return h("section", { "aria-labelledby": "w-audit-h" }, h("h2", { id: "w-audit-h" }, "Every grid and the audit"),
      h("div", { class: "boards" }, (v.grids || []).map((rows, i) => {
        const a = (v.audit || []).find(x => x.seat === i);
        return h("section", { class: "board" }, h("h3", {}, `${v.players[i]}${v.scores ? `: ${plural(v.scores[i], "point")}` : ""}`),
          drawGrid(rows, `${v.players[i]}'s grid`, {}),
          a ? h("div", {},
            h("p", { class: a.confirmed ? "ok" : "error" }, a.confirmed ? `Score confirmed: ${a.points}` : `Audit recomputes ${a.points}, the game kept ${a.recorded}`),
            a.missed ? h("p", { class: "warn" }, `${plural(a.missed, "“cannot”")} had a legal placement`) : null,
            h("ul", { class: "muted" }, (a.lines || []).map(l => h("li", {}, `${l.word}: ${l.move || "no answer"}${l.points ? `, ${plural(l.points, "point")}` : ""}${l.problem ? ` — ${l.problem}` : ""}${l.possible ? ` — could have gone at ${l.possible.replace(/^place /, "")}` : ""}`)))) : null);
      })));
  }
  return { el: root, update };
}

export const toMove = v => v.status === "finished" ? [] : v.to_move || [];
export const finished = v => v.status === "finished";
export const winners = v => v.winners || [];
export const names = v => v.players;
export function standings(v) {
  return v.players.map((n, i) => ({ name: n, score: v.scores ? v.scores[i] : i === v.seat ? v.score : null, note: v.resigned && v.resigned[i] ? "resigned" : v.current && v.answered && v.answered[i] ? "answered" : "" }));
}
export function moveList(v) {
  return (v.list || []).map(e => ({ seat: e.by, text: `declared ${e.word} (${e.length})`, detail: e.mine ? `you: ${e.mine.move}${e.mine.points ? `, ${plural(e.mine.points, "point")}` : ""}` : "" }));
}

// endSummary says why the game ended, from the final view and the last
// move (table.js passes {seat, names, last}): which word gave the last
// strike and who could not place it, or who resigned. (When the events
// carry the end reason as fields, read them here instead.)
export function endSummary(v, { last }) {
  const ordinal = n => ["first", "second", "third", "fourth", "fifth"][n - 1] || `${n}th`;
  if (v.strikes >= v.strike_limit) {
    const list = v.list || [];
    const e = [...list].reverse().find(x => x.strikes);
    if (e) {
      const who = (e.cannot || []).map(s => v.players[s]);
      // With a strike for each player who could not (strikes_per
      // player), the last word may give several: name each of them.
      const gave = [...Array(e.strikes).keys()].map(i => ordinal(v.strikes - e.strikes + 1 + i));
      const strikes = gave.length === 1 ? `the ${gave[0]} strike` : `the ${gave.slice(0, -1).join(", ")} and ${gave[gave.length - 1]} strikes`;
      return { reason: `${e.word} gave ${strikes}: ${who.join(" and ")} could not place it, and ${plural(v.strike_limit, "strike")} ${v.strike_limit === 1 ? "ends" : "end"} the game.` };
    }
    return { reason: `The game reached ${plural(v.strike_limit, "strike")}.` };
  }
  if (last && /^resign$/i.test(last.move)) return { reason: `${last.player} resigned.` };
  const gone = (v.resigned || []).map((r, i) => r ? v.players[i] : "").filter(Boolean);
  if (gone.length) return { reason: `${gone.join(" and ")} resigned.` };
  const end = last && (last.events || []).find(e => e.kind === "end");
  // A sentence begins with a capital, but not a name: names stay as
  // their players wrote them.
  const byName = end && (v.players || []).some(n => n && end.text.startsWith(n));
  return end ? { reason: (byName ? end.text : end.text.charAt(0).toUpperCase() + end.text.slice(1)) + "." } : null;
}
