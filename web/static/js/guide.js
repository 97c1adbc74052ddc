// guide.js: a first game's guide for each game, a few steps on the play
// screen that point at what to click and say what the reports mean. It
// opens by itself at a player's first table of a game in this browser,
// can be skipped, and reopens from the table's side panel. The table loads
// this module only when it is needed.

import { h } from "./dom.js";

const key = game => "parlour.guide." + game;

// seen says whether this browser has seen (or skipped) the guide of game.
export function seen(game) {
  try { return localStorage.getItem(key(game)) === "1"; } catch { return true; }
}
function markSeen(game) {
  try { localStorage.setItem(key(game), "1"); } catch { /* private mode: ask again next time */ }
}

// Each step says one thing and points at the part of the screen it is
// about (a selector; a step whose part is not on the screen points at
// nothing). steps(game, table) adds the words that depend on the table:
// its rules (Salvo's lost shots, Nymphabet's mode), and a Quizl solitaire
// or a Salvo practice, where the player hunts the computer's grid or fleet
// and has none of their own.
const fixed = {
  quizl: [
    { at: '.quizl .board:not([data-board="own"])', text: "This is your tracking grid: the grid the other side hid its password in, five letters on one row or column among 25 different letters. It starts blank." },
    { at: "#q-call", text: "On your turn, call a square: click it once to select it and again to call it (or type its name, row then column, like 72). You alone see the letter it holds." },
    { at: "#moves", text: "The move list keeps every call and, for your own calls, the letter each one showed you. Use them to work out which word lies on which line." },
    { at: "#q-say", text: "When you think you know the password, announce it here. Right: 25 points less one per square you called. Wrong: a penalty. Uncover all five of its letters by calls without announcing it and you score nothing against that grid." },
    { at: '[data-board="own"]', text: "Your own grid, with your password marked. The others call its squares on their turns to hunt your word." },
  ],
  salvo: [
    { at: ".salvo .boards > :first-child", text: "This is the ocean you aim at: ten by ten, columns A to J, rows 1 to 10. Your opponent's five ships are hidden in it." },
    { at: "#s-fire, #s-controls", text: "Click squares to aim a salvo, then fire; the squares you picked show in the box. By the keyboard, Enter on a square takes it into the salvo and F fires it. You start with five shots and lose one for each enemy ship you sink. You always keep at least one." },
    { at: "#s-reports, #moves", text: "The report says how many shots hit each kind of ship, never which shot hit. A report of one hit in the destroyer after a three-shot salvo means one of those three squares holds it: mark it and narrow it down with later salvos." },
    { at: "#players", text: "When every ship of a fleet is sunk, its hunter outlines where each ship lay; a wrong outline loses. The first to outline a fleet right wins." },
  ],
  wordfight: [
    { at: "#w-list, #w-list-h", text: "Everybody builds a crossword nobody else sees. Words come from this shared list: on your turn you add one to it." },
    { at: "#w-declare, #w-controls", text: "When it is your turn to declare, type a word here. Then every player, you too, fits that word into their own grid." },
    { at: "#w-square, #w-controls", text: "To place a word, pick a square of your grid and a direction: across or down. Reusing letters already on your grid scores; the preview shows the points before you send." },
    { at: "#w-cannot, #w-strikes", text: "If a word fits nowhere, say you cannot place it: that is a strike. Enough strikes end the game, and the best score wins." },
  ],
  nymphabet: [
    { at: ".alphabet", text: "The alphabet in a row. The highlighted letter is the current one: the first not yet crossed off." },
    { at: "#n-word", text: "Your word must begin with the current letter. It crosses off that letter and then each next letter of the alphabet it holds further on, in order: ABDICATED crosses off A, B, C and D." },
    { at: ".nwords, #moves", text: "The words played, with the letters each crossed off shown in capitals. Whoever crosses off Z loses: plan so the other player has to." },
  ],
};

// steps is game's guide at table: its rules (the options, as the table
// says them) and alone, a table of one seat.
function steps(game, { rules = {}, alone = false } = {}) {
  let list = (fixed[game] || []).map(s => ({ ...s }));
  const say = (i, text) => { if (list[i]) list[i].text = text; };
  if (game === "quizl" && alone) {
    list = list.filter(s => s.at !== '[data-board="own"]');
    say(0, "This is your tracking grid: the grid the computer hid a password in, five letters on one row or column among 25 different letters. It starts blank.");
  }
  if (game === "salvo" && alone) {
    say(0, "This is the ocean you aim at: ten by ten, columns A to J, rows 1 to 10. The computer's five ships are hidden in it, and nobody fires back.");
    say(3, "When every ship is sunk, outline where each one lay. A wrong outline loses; the right one wins.");
  }
  if (game === "salvo" && rules.shots_lost_by === "owner") {
    say(1, list[1].text.replace("You start with five shots and lose one for each enemy ship you sink. You always keep at least one.", alone
      ? "You have five shots a salvo and keep them all: nobody fires at you."
      : "You start with five shots and lose one for each of your own ships that is sunk. You always keep at least one."));
  }
  if (game === "nymphabet" && (rules.mode === "cyclic" || rules.mode === "scoring")) {
    say(0, list[0].text + " Here the alphabet goes round from Z to A, and the first word may begin with any letter.");
    say(2, "The words played, with the letters each crossed off shown in capitals. " + (rules.mode === "cyclic"
      ? "Here the game ends once every letter is crossed off, and whoever crosses off the last one wins."
      : "Here each player scores the product of the letters each of their words crossed off (3, then 2, make 6); once every letter is crossed off, the higher product wins."));
  }
  return list;
}

// open shows the guide of game at table ({rules, alone}) at the top of
// where (the play screen), replacing one that is open. onClose runs when
// it closes.
export function open(where, game, table, onClose) {
  const list = steps(game, table || {});
  if (!list.length) return null;
  close(where);
  // The keyboard goes back where it was when the guide opened (the button
  // that opened it, drawn anew since, is found by its id) once the guide
  // is closed from within: removed, the guide would drop it on the page's
  // body, and the next Tab would start at the top of the page.
  const opener = document.activeElement !== document.body ? document.activeElement : null;
  let i = 0;
  let marked = null;
  const text = h("p", { id: "guide-text" });
  const count = h("p", { class: "muted", id: "guide-step" });
  const back = h("button", { type: "button", id: "guide-back", onclick: () => go(i - 1) }, "Back");
  const next = h("button", { type: "button", class: "primary", id: "guide-next", onclick: () => (i + 1 < list.length ? go(i + 1) : done()) }, "Next");
  const skip = h("button", { type: "button", id: "guide-skip", onclick: () => done() }, "Skip the guide");
  const box = h("section", { class: "card guide", id: "guide", role: "region", "aria-labelledby": "guide-h" },
    h("h2", { id: "guide-h" }, "Your first game: a short guide"), count, text, h("div", { class: "row" }, back, next, skip));
  box.addEventListener("keydown", e => { if (e.key === "Escape") { e.preventDefault(); done(); } });
  function unmark() { if (marked) marked.classList.remove("guide-target"); marked = null; }
  function go(n) {
    i = Math.max(0, Math.min(list.length - 1, n));
    unmark();
    const step = list[i];
    marked = document.querySelector(step.at);
    if (marked) marked.classList.add("guide-target");
    count.textContent = `Step ${i + 1} of ${list.length}`;
    text.textContent = step.text;
    // Disabled under the keyboard, Back would lose it: it goes to Next.
    if (i === 0 && document.activeElement === back) next.focus();
    back.disabled = i === 0;
    next.textContent = i + 1 < list.length ? "Next" : "Got it";
  }
  function done() {
    unmark();
    markSeen(game);
    const inside = box.contains(document.activeElement);
    box.remove();
    if (inside) {
      const to = opener && (opener.isConnected ? opener : opener.id && document.getElementById(opener.id));
      (to || document.getElementById("main") || document.body).focus({ preventScroll: true });
    }
    if (onClose) onClose();
  }
  box._close = done;
  where.prepend(box);
  go(0);
  return box;
}

// close closes an open guide in where, if any.
export function close(where) {
  const old = where.querySelector("#guide");
  if (old && old._close) old._close();
}
