// nymphabet.js: Nymphabet's play screen, drawn from the seat's view
// (games/nymphabet View): the alphabet with deleted letters struck
// through, each word with the letters it deleted in capitals, the current
// letter and a word box.

import { h, fill, plural, updateText } from "../dom.js";

// shown writes word in lower case with the letters it deleted in capitals:
// the first letter, then each next letter of the run where it first
// occurs after the previous one.
export function shown(word, deleted) {
  const run = (deleted || "").split(/[,\s]+/).filter(Boolean);
  const w = word.toLowerCase();
  const out = [];
  let k = 0;
  for (let i = 0; i < w.length; i++) {
    if (k < run.length && w[i] === run[k].toLowerCase()) { out.push(h("span", { class: "del" }, w[i].toUpperCase())); k++; }
    else out.push(w[i]);
  }
  return out;
}

export function play(ctx) {
  let mine = false; // the seat is to write the next word
  const alpha = h("div", { class: "alphabet", role: "list", "aria-label": "The alphabet" });
  const cur = h("p", { id: "n-current", "aria-live": "polite" });
  const words = h("ol", { class: "nwords", "aria-label": "Words written" });
  const input = h("input", { id: "n-word", autocomplete: "off", autocapitalize: "none", spellcheck: "false", maxlength: 40 });
  const err = h("p", { class: "error", role: "alert" });
  const preview = h("p", { class: "help", id: "n-preview", "aria-live": "polite" });
  const form = h("form", { class: "row", onsubmit: async e => {
    e.preventDefault();
    const w = input.value.trim();
    if (!mine) { err.textContent = "Wait for your turn: the other player is writing."; return; }
    if (!w) return;
    err.textContent = "";
    // The record's resignation is the move "resign": typed here it is
    // asked about as the Resign button asks, never played as a word.
    if (w.toLowerCase() === "resign") {
      await ctx.resign("RESIGN cannot be played as a word: it resigns the game. ");
      input.value = ""; preview.textContent = "";
      return;
    }
    try { await ctx.send(w); input.value = ""; preview.textContent = ""; } catch (ex) { err.textContent = ex.message; }
  } }, h("label", { for: "n-word" }, "Your word"), input, h("button", { type: "submit" }, "Play"));
  const box = h("div", { class: "card stack", id: "n-controls" }, form, preview, err);
  input.addEventListener("input", () => {
    const v = ctx.view();
    const w = input.value.trim().toUpperCase();
    if (!w || !/^[A-Z]+$/.test(w)) { preview.textContent = w ? "Letters A–Z only." : ""; return; }
    if (v.current && w[0] !== v.current) { preview.textContent = `A word must begin with ${v.current}.`; return; }
    // A comfort preview of the run the word would delete; the server decides.
    const left = new Set(v.alphabet.filter(l => !l.deleted).map(l => l.letter));
    const wraps = v.mode !== "standard";
    let next = w[0], pos = 0, n = 0;
    while (left.has(next)) {
      const at = w.indexOf(next, pos);
      if (at < 0 || (n > 0 && at === 0 && pos === 0)) break;
      n++; pos = at + 1; left.delete(next);
      next = next === "Z" ? (wraps ? "A" : "") : String.fromCharCode(next.charCodeAt(0) + 1);
      if (!next) break;
    }
    preview.textContent = n ? `${w} would delete ${n} letter${n === 1 ? "" : "s"}, if the referee finds it in the word list.` : "";
  });
  const root = h("div", { class: "nymphabet" },
    h("section", { class: "card", "aria-labelledby": "n-alpha-h" }, h("h2", { id: "n-alpha-h" }, "Alphabet"), alpha, cur),
    box,
    h("section", { "aria-labelledby": "n-words-h" }, h("h2", { id: "n-words-h" }, "Words"), words));

  function update(v) {
    fill(alpha, ...v.alphabet.map(l => h("span", {
      role: "listitem", class: (l.deleted ? "gone" : "") + (l.letter === v.current ? " cur" : ""),
      "aria-label": `${l.letter}${l.deleted ? `, deleted by ${v.players[l.by].name}` : l.letter === v.current ? ", current letter" : ""}`,
      "data-letter": l.letter, "data-deleted": l.deleted ? "1" : "0",
    }, l.letter)));
    updateText(cur, v.status === "finished" ? (v.left ? `${plural(v.left, "letter")} left when the game ended.` : "Every letter deleted.")
      : v.current ? `Current letter: ${v.current} · ${plural(v.left, "letter")} left` : `Any letter may start the first word · ${plural(v.left, "letter")} left`);
    fill(words, ...v.words.map(w => h("li", { "aria-label": `${v.players[w.by].name}: ${w.word}, deleted ${w.deleted}` },
      h("span", { class: "muted" }, v.players[w.by].name + ": "), shown(w.word, w.deleted))));
    const was = mine;
    // Aborted, the game is over though the view goes on as it stood.
    const ended = v.status === "finished" || !!(ctx.over && ctx.over());
    mine = v.seat >= 0 && v.to_move === v.seat && !ended;
    box.hidden = v.seat < 0 || ended;
    // Read-only, not disabled, while the other player writes: a disabled
    // box would drop the keyboard's focus, and a player who plays by the
    // keyboard would have to find the box again on every turn.
    input.readOnly = !mine;
    input.setAttribute("aria-disabled", String(!mine));
    if (mine && !was && err.textContent.startsWith("Wait for your turn")) err.textContent = "";
    input.placeholder = mine ? (v.current ? `a word starting with ${v.current}` : "any word") : "wait for your turn";
    // The turn come with the keyboard on the screen as a whole (the game
    // just begun), the word goes straight in, as at each turn after.
    const at = document.activeElement;
    if (mine && !box.hidden && !ctx.replay && at && at !== document.body && at.contains(root)) input.focus({ preventScroll: true });
  }
  return { el: root, update };
}

export const toMove = v => v.to_move >= 0 ? [v.to_move] : [];
export const finished = v => v.status === "finished";
export const winners = v => v.winners || [];
export const names = v => v.players.map(p => p.name);
export function standings(v) {
  const scoring = v.mode === "scoring";
  return v.players.map(p => ({ name: p.name, score: p.score, note: scoring ? `product ${p.product}` : `${plural(p.letters, "letter")}, ${plural(p.turns, "word")}` }));
}
// scoresLabel names what the result's scores count: letters deleted, or
// in scoring mode their product over a player's turns.
export const scoresLabel = v => v.mode === "scoring" ? "Scores (the letters each turn deleted, multiplied)" : "Letters deleted";
export function moveList(v) {
  return v.words.map(w => ({ seat: w.by, text: w.word, detail: `deleted ${w.deleted}` }));
}

// endSummary says why the game ended, from the final view and the last
// move (table.js passes {seat, names, last}): who wrote the last word and
// what it deleted, or who resigned. (When the events carry the end reason
// as fields, read them here instead.)
export function endSummary(v, { last }) {
  if (last && /^resign$/i.test(last.move)) return { reason: `${last.player} resigned.` };
  // Without the last move (after a reload), a game that ended before its
  // last letter ended by a resignation.
  const z = (v.alphabet || []).find(l => l.letter === "Z");
  const done = v.mode === "standard" ? z && z.deleted : v.left === 0;
  if (!done) return { reason: "The game ended by a resignation." };
  const w = v.words && v.words[v.words.length - 1];
  if (!w) return null;
  const who = v.players[w.by].name;
  const dels = w.deleted.split(/[,\s]+/).filter(Boolean);
  const lastLetter = dels[dels.length - 1];
  const wrote = `${who} wrote the last word, ${w.word.toUpperCase()}, deleting ${dels.join(", ")}`;
  if (v.mode === "standard") return { reason: `${wrote}: whoever deletes ${lastLetter === "Z" ? "Z" : "the last letter"} loses.` };
  if (v.mode === "cyclic") return { reason: `${wrote}: whoever deletes the last letter wins.` };
  const sc = v.players.map(p => `${p.name} ${p.product}`).join(", ");
  return { reason: `${wrote}; the higher product of letters deleted per turn wins (${sc}).` };
}
