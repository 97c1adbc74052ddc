// daily.js: the daily puzzles (docs/daily.md). /daily lists them; /daily/GAME
// shows today's puzzle of one game: the button that starts your one
// attempt, or your result with its share text, your streak, today's
// leaderboard and yesterday's, whose games may be replayed and analysed.

import { h, fill, append, toast } from "./dom.js";
import { call, identityToken, rememberSeat, mayBeSignedIn } from "./api.js";
import { games, title } from "./catalog.js";
import { go } from "./nav.js";

// about says what each game's daily puzzle asks; its keys are the games
// that have one (docs/daily.md).
const about = {
  quizl: "One grid a day, made by the strong computer, the same for everyone. Find its password with as few calls as you can. One attempt.",
  salvo: "One hidden fleet a day, the same for everyone. Sink it and outline it rightly in as few salvos as you can. One attempt.",
};

// asker returns the token to act with: none when signed in (the session
// cookie speaks), else this browser's guest identity.
// The account's name is kept for the history section.
let account = null;
async function asker() {
  if (!mayBeSignedIn()) { account = null; return identityToken(); }
  try { account = await call("GET", "/account"); return undefined; } catch { account = null; return identityToken(); }
}

export async function dailyIndex(main) {
  document.title = "Daily puzzles · Parlour";
  await games().catch(() => { /* the names stand for the titles */ });
  append(main, h("h1", {}, "Daily puzzles"),
    h("p", {}, "Each day at midnight UTC a new puzzle, the same for everyone. Players with accounts are ranked; guests may play too."),
    h("div", { class: "cards" }, Object.keys(about).map(g => h("section", { class: "card" },
      h("h2", {}, "Daily " + title(g)), h("p", {}, about[g]),
      h("a", { class: "button primary", href: "/daily/" + g, id: "daily-" + g }, "Today's " + title(g))))));
}

export async function daily(main, game) {
  if (!Object.hasOwn(about, game)) { append(main, h("h1", {}, "No such daily puzzle"), h("p", {}, h("a", { href: "/daily" }, "The daily puzzles"))); return; }
  await games().catch(() => { /* the name stands for the title */ });
  const name = title(game);
  document.title = `Daily ${name} · Parlour`;
  const err = h("p", { class: "error", role: "alert" });
  const today = h("section", { class: "card", id: "daily-today", "aria-labelledby": "daily-h" });
  const board = h("section", { class: "card", id: "daily-board" });
  const past = h("section", { class: "card", id: "daily-yesterday" });
  append(main, h("h1", { id: "daily-h" }, "Daily " + name), h("p", {}, about[game]), err, today, board, past);
  // The card says what it waits for rather than stand empty, and a
  // failed read offers to try again in place instead of leaving an empty
  // card and a page that can only be reloaded.
  fill(today, h("h2", {}, "Today"), h("p", { id: "daily-loading", role: "status", class: "muted" }, "Reading today's puzzle…"));
  today.setAttribute("aria-busy", "true");
  const token = await asker();
  let d;
  for (;;) {
    try {
      d = await call("GET", "/daily/" + game, undefined, token);
      break;
    } catch (e) {
      today.removeAttribute("aria-busy");
      await new Promise(retry => fill(today, h("h2", {}, "Today"),
        h("p", { class: "error", role: "alert", id: "daily-today-error" }, "Today's puzzle could not be read: " + e.message),
        h("button", { type: "button", id: "daily-retry", onclick: retry }, "Try again")));
      today.setAttribute("aria-busy", "true");
      fill(today, h("h2", {}, "Today"), h("p", { id: "daily-loading", role: "status", class: "muted" }, "Reading today's puzzle…"));
    }
  }
  today.removeAttribute("aria-busy");
  // drawToday shows the asker's attempt at today's puzzle: the button that
  // starts it, the way back to it, or its result.
  const drawToday = d => {
    fill(today, h("h2", {}, `Today, ${d.day}`), h("p", { id: "daily-streak" }, `Your streak: ${d.streak} ${d.streak === 1 ? "day" : "days"}`));
    const a = d.attempt;
    if (!a) {
      append(today, h("button", { type: "button", class: "primary", id: "daily-play", onclick: start }, "Play today's puzzle"));
    } else if (!a.finished) {
      append(today, h("p", {}, "Your game is under way. "), h("a", { class: "button primary", id: "daily-resume", href: "/t/" + a.table }, "Back to your game"));
    } else {
      const share = h("pre", { class: "share", id: "daily-share" }, a.share);
      // Only an attempt begun signed in is ranked. A guest who signed up
      // after playing keeps the attempt, unranked, and plays no other
      // today: signing in would not rank it.
      const unranked = account && account.name ? " (begun as a guest, before you signed up: not ranked)"
        : " (as a guest: not ranked; only an attempt begun signed in is ranked)";
      append(today, h("p", { id: "daily-result" }, result(game, a) + (a.ranked ? "" : unranked)),
        share,
        h("button", { type: "button", id: "daily-copy", onclick: () => copy(a.share) }, "Copy the result"));
    }
  };
  drawToday(d);
  drawBoard(board, game, d.day, "Today's leaderboard");
  drawBoard(past, game, d.yesterday, `Yesterday (${d.yesterday}): replay any game with its analysis`);
  if (account && account.name) {
    const { dailySection } = await import("./dailyprofile.js");
    append(main, dailySection(account.name));
  }

  // start starts the attempt. The day's first attempt waits while the
  // strong computer makes the puzzle (seconds, and every other first
  // attempt waits with it), so the card says so and the button waits
  // too, rather than looking as if the press did nothing and inviting
  // another.
  async function start() {
    const play = today.querySelector("#daily-play");
    const making = h("p", { id: "daily-making", role: "status" }, "Setting up today's puzzle: the first game of the day can take a few seconds…");
    if (play) { play.disabled = true; play.after(making); }
    today.setAttribute("aria-busy", "true");
    err.textContent = "";
    try {
      const s = await call("POST", "/daily/" + game, {}, token);
      rememberSeat(s.table, { seat: s.seat, token: s.token, game });
      go("/t/" + s.table);
    } catch (e) {
      today.removeAttribute("aria-busy");
      making.remove();
      if (play) { play.disabled = false; }
      err.textContent = e.message;
      // Started meanwhile in another tab or on another device: the page
      // shows that attempt, its way back or its result, in place of a
      // button that can only be refused again, and the focus that was
      // on the button goes to what took its place.
      if (e.status !== 409) return;
      try { drawToday(await call("GET", "/daily/" + game, undefined, token)); } catch { return; }
      const next = today.querySelector("#daily-resume, #daily-copy, #daily-play");
      if (next) next.focus();
    }
  }
}

function result(game, a) {
  const unit = game === "quizl" ? "call" : "salvo", wrong = game === "quizl" ? "wrong announcement" : "wrong outline";
  const n = (k, w) => `${k} ${k === 1 ? w : w + "s"}`;
  return `${a.solved ? "Solved" : "Not solved"}: ${n(a.moves, unit)}, ${n(a.wrong, wrong)}, in ${Math.round(a.seconds)} s.`;
}

async function drawBoard(el, game, day, heading) {
  fill(el, h("h2", {}, heading));
  let b;
  try { b = await call("GET", `/daily/${game}/${day}/leaderboard`); } catch (e) { append(el, h("p", { class: "error" }, e.message)); return; }
  if (!b.entries.length) { append(el, h("p", { class: "muted" }, "Nobody with an account has finished it yet.")); return; }
  const unit = game === "quizl" ? "Calls" : "Salvos";
  // The frame scrolls sideways on a screen too narrow for the table (a
  // long name, the Game column), not the whole page; the keyboard may
  // scroll it too.
  append(el, h("div", { class: "table-frame", tabindex: 0, "aria-label": heading }, h("table", { class: "leaderboard" },
    h("thead", {}, h("tr", {}, ["#", "Player", "Solved", unit, "Wrong", "Time", b.over ? "Game" : null].filter(Boolean).map(c => h("th", { scope: "col" }, c)))),
    h("tbody", {}, b.entries.map(e => h("tr", {},
      h("td", {}, String(e.rank)), h("td", {}, h("a", { href: "/players/" + encodeURIComponent(e.name) }, e.name)), h("td", {}, e.solved ? "yes" : "no"), h("td", {}, String(e.moves)),
      h("td", {}, String(e.wrong)), h("td", {}, Math.round(e.seconds) + " s"),
      b.over ? h("td", {}, h("a", { href: "/replay?analyse&table=" + encodeURIComponent(e.table), "aria-label": `Replay ${e.name}'s game with its analysis` }, "Replay")) : null))))));
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast("Result copied"); } catch { toast("Select the result and copy it"); }
}
