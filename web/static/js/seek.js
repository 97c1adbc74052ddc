// seek.js: quick pairing (docs/protocol.md, "Seeks"). The home page's
// one-click buttons seek a game on its common terms; while the seek waits
// a banner above every screen says so, with Cancel, and after a while
// offers a game against the computer at the player's level meanwhile.
// The seek lasts while this page is open: the banner asks about it every
// few seconds (which keeps it alive for a guest without a player stream),
// and at once when the player stream says a game began, and withdraws it
// when the page closes. When it pairs, the banner leads
// to the table: at once from the home page, by a link from anywhere else
// (a game against the computer is not pulled away under the player).
// The lobby lists the seeks waiting, each with Accept (acceptButton).
//
// A player's other pages show the seek too, from the player stream's
// "seek" lines (or, when the server refuses a second seek for the game,
// from the list): with Cancel, and following it to its table, but their
// closing leaves it alone. Only the page that made it withdraws it on
// closing; should that page die without a word (a crash, a phone killing
// the tab), the seek lives on while another page holds the player stream,
// and that page is then the player's only way to cancel it or to learn
// that it paired.

import { h, append, fill, toast } from "./dom.js";
import { call, rememberSeat, identityToken, signedIn } from "./api.js";
import { title } from "./catalog.js";
import { go } from "./nav.js";

// QUICK_CLOCK is the clock of the one-click seeks: two minutes a turn,
// long enough to think, short enough that nobody waits on a walk-away.
export const QUICK_CLOCK = 120;

// OFFER_AFTER is how long a seek waits before the computer is offered.
const OFFER_AFTER = 20000;

// POLL is how often the banner asks about its seek; the server drops a
// seek nobody asks about for 30 s (seek.Window).
const POLL = 2500;

// shown holds the seeks this page shows, by id: its own and those the
// player's other pages made. Each is {id, game, seek, own, el, err,
// timer, offerTimer, release}.
const shown = new Map();

// waiting is this page's own seek, of those shown: the one its closing
// withdraws. A page makes one at a time.
let waiting = null;

// seeking reports the game being sought from this page, or "".
export const seeking = () => (waiting ? waiting.game : "");

// isMine reports whether seek id is one of the player's that this page
// shows: the lists of seeks show it as the player's own, a guest's too,
// whose name is no account's to compare.
export const isMine = id => shown.has(id);

// lockName is the Web Lock the page that made seek id holds while it is
// open: the player's other pages ask for it to learn whether that page
// is there to go to the table, or they must.
const lockName = id => "parlour.seek." + id;

// makerOpen reports whether the page that made seek id is still open.
async function makerOpen(id) {
  if (!navigator.locks || !navigator.locks.query) return false;
  try {
    const q = await navigator.locks.query();
    return (q.held || []).some(l => l.name === lockName(id));
  } catch { return false; }
}

// terms describes a seek in words: "a rated Salvo game, 2 minutes a turn".
export function terms(s) {
  const clock = Number(s.clock);
  const c = clock ? `, ${clock % 60 ? clock + " seconds" : clock === 60 ? "1 minute" : clock / 60 + " minutes"} a turn` : "";
  const mode = s.mode ? ` (${s.mode})` : "";
  return `${s.rated ? "a rated" : "a casual"} ${title(s.game)}${mode} game${c}`;
}

// quickButtons are the one-click seeks of game g: casual for everyone,
// rated too for a signed-in player. A game whose modes are rated apart
// (its mode_option, Nymphabet's mode) has a choice of mode beside them,
// at its default.
export function quickButtons(g) {
  const opt = g.mode_option && (g.options || []).find(o => o.name === g.mode_option);
  const id = "quick-mode-" + g.name;
  const modeSel = opt ? h("select", { id, class: "quick-mode", "data-game": g.name },
    (opt.choices || []).map(c => h("option", { value: c, selected: c === opt.default }, c))) : null;
  const mk = rated => h("button", { type: "button", class: "quick-seek", "data-game": g.name, "data-rated": String(rated),
    "aria-label": `${rated ? "Quick rated game" : "Quick game"} of ${g.title} with anyone`,
    onclick: () => start({ game: g.name, rated, clock: QUICK_CLOCK, ...(modeSel ? { mode: modeSel.value } : {}) }) }, rated ? "Quick rated game" : "Quick game");
  return [modeSel ? h("label", { for: id, class: "quick-mode-label" }, opt.label || "Mode") : null, modeSel, mk(false), signedIn() ? mk(true) : null];
}

// start posts a seek and waits for it, or opens the table it paired with.
// A seek of the game already waiting (from this page or another) is
// pointed at rather than refused in vain; so is one the server names in
// refusing a second, which the player's other page, gone, left behind.
export async function start(body) {
  const before = waiting || [...shown.values()].find(w => w.game === body.game);
  if (before) {
    toast(`You are already looking for ${terms(before.seek)}: cancel that first.`);
    before.el.querySelector(".seek-cancel")?.focus();
    return;
  }
  try {
    const a = await call("POST", "/seeks", body, await identityToken());
    if (a.table) { opened(a.table, body.game, true); return; }
    wait(a.seek, true);
  } catch (e) {
    toast(e.message);
    if (e.status === 409) adopt(body.game, e.message);
  }
}

// adopt shows the player's seek of game that the server's refusal msg
// names (by its id), so that the player may cancel it from here.
async function adopt(game, msg) {
  try {
    const l = await call("GET", "/seeks?game=" + encodeURIComponent(game), undefined, await identityToken());
    const s = (l.seeks || []).find(s => s.id && msg.includes(s.id));
    if (s && !shown.has(s.id)) poll(wait(s, false));
  } catch { /* the toast said it; nothing more to show */ }
}

// others shows the seeks of the account name waiting, read once: a page
// that does not hold the player stream missed its opening "seek" lines.
export async function others(name) {
  try {
    const l = await call("GET", "/seeks");
    for (const s of l.seeks || []) {
      if (String(s.player).toLowerCase() === String(name).toLowerCase() && !shown.has(s.id)) wait(s, false);
    }
  } catch { /* the stream's lines show them later */ }
}

// streamLine acts on the player stream's "seek" and "seekGone" lines: a
// seek of the player's waiting is shown on every page, with Cancel; one
// that paired is asked about at once (for the seat), one canceled is put
// away, and one that ended otherwise is asked about for the words.
export function streamLine(ev) {
  const s = ev.seek;
  if (!s || !s.id) return;
  const w = shown.get(s.id);
  if (ev.type === "seek") {
    if (!w) wait(s, false);
    return;
  }
  if (!w) return;
  if (s.reason === "canceled") { end(w).remove(); return; }
  poll(w);
}

// forget puts away the seeks shown that other pages made: the player
// signed out, and they are no longer this page's to ask about.
export function forget() {
  for (const w of [...shown.values()]) if (!w.own) end(w).remove();
}

// opened remembers the seat of a table a seek made and goes there.
function opened(t, game, now) {
  rememberSeat(t.table, { seat: t.seat, token: t.token || null, game });
  if (now) go("/t/" + t.table);
}

function box() {
  let b = document.getElementById("seek-banner");
  if (!b) {
    b = h("section", { id: "seek-banner", class: "challenges", "aria-label": "Your seek", "aria-live": "polite" });
    document.getElementById("main").before(b);
  }
  return b;
}

// wait shows the banner of seek s and follows it until it pairs or ends;
// own says this page made it (and withdraws it on closing).
function wait(s, own) {
  const old = shown.get(s.id);
  if (old) {
    if (!own || old.own) return old;
    end(old).remove(); // its "seek" line came before this page's answer
  }
  const w = { id: s.id, game: s.game, seek: s, own, since: Date.now() };
  const err = h("p", { class: "error", role: "alert" });
  const offer = h("div", { class: "row seek-offer", hidden: true });
  const el = h("div", { class: "banner seek", "data-seek": s.id },
    h("p", { class: "seek-text" }, `Looking for an opponent for ${terms(s)}…`),
    offer,
    h("div", { class: "row" }, h("button", { type: "button", class: "seek-cancel", "aria-label": `Cancel: stop looking for ${terms(s)}`, onclick: () => cancel(w) }, "Cancel")),
    err);
  Object.assign(w, { el, err });
  shown.set(s.id, w);
  if (own) {
    waiting = w;
    if (navigator.locks) {
      navigator.locks.request(lockName(s.id), () => new Promise(res => { w.release = res; })).catch(() => { /* no lock: the others go to the table too */ });
    }
  }
  append(box(), el);
  w.timer = setInterval(() => poll(w), POLL);
  w.offerTimer = setTimeout(() => {
    if (shown.get(s.id) !== w) return;
    fill(offer, h("p", {}, "No one yet: play the computer at your level while you wait?"),
      h("button", { type: "button", class: "seek-computer", onclick: () => computer(w) }, "Play the computer"));
    offer.hidden = false;
  }, OFFER_AFTER);
  return w;
}

// end stops following seek w and returns its banner. The page that made
// a seek that paired keeps its lock while it stays open: it went to the
// table, and the player's other pages need not.
function end(w, paired) {
  clearInterval(w.timer);
  clearTimeout(w.offerTimer);
  if (w.release && !paired) w.release();
  if (shown.get(w.id) === w) shown.delete(w.id);
  if (waiting === w) waiting = null;
  return w.el;
}

// started answers the news on the player stream that a table of game
// began without a challenge: a seek of that game shown is asked about at
// once, so that the player goes to the table now rather than at the next
// poll.
export function started(game) {
  for (const w of [...shown.values()]) if (w.game === game) poll(w);
}

// poll asks about seek w: still waiting, or the table it made. From the
// home page or the lobby it goes to the table at once, unless another
// page of the player's made the seek and is still open to go there.
async function poll(w) {
  if (shown.get(w.id) !== w) return;
  try {
    const m = await call("GET", "/seeks/" + encodeURIComponent(w.id), undefined, await identityToken());
    if (shown.get(w.id) !== w || m.status !== "paired") return;
    const el = end(w, true);
    rememberSeat(m.table.table, { seat: m.table.seat, token: null, game: w.game });
    if ((location.pathname === "/" || location.pathname === "/lobby") && (w.own || !(await makerOpen(w.id)))) {
      el.remove();
      toast(`Found an opponent for ${terms(w.seek)}`);
      go("/t/" + m.table.table);
      return;
    }
    fill(el, h("p", { class: "seek-text" }, `Found an opponent for ${terms(w.seek)}.`),
      h("div", { class: "row" },
        h("a", { class: "button primary seek-go", href: "/t/" + m.table.table, onclick: () => el.remove() }, "Go to the table"),
        h("button", { type: "button", onclick: () => el.remove() }, "Later")));
  } catch (e) {
    if (shown.get(w.id) !== w) return;
    if (e.status === 404) {
      // The player may still want the game (a crash of the server, or
      // a long stop, loses the seeks waiting): one click seeks it again.
      const el = end(w);
      fill(el, h("p", { class: "seek-text" }, `Your seek for ${terms(w.seek)} ended: ${e.message}`),
        h("div", { class: "row" },
          h("button", { type: "button", class: "seek-again", onclick: () => { el.remove(); start(again(w.seek)); } }, "Seek again"),
          h("button", { type: "button", onclick: () => el.remove() }, "OK")));
    }
    // Otherwise the network blinked: the next poll tries again.
  }
}

// again is the body that seeks a game on the terms of seek s, as the
// server listed them (a range as its bounds).
function again(s) {
  const body = { game: s.game, rated: !!s.rated };
  for (const k of ["mode", "rules", "clock", "lexicon", "rating_range"]) if (s[k] !== undefined && s[k] !== null) body[k] = s[k];
  return body;
}

// cancel withdraws seek w.
async function cancel(w) {
  if (shown.get(w.id) !== w) return;
  try {
    await call("DELETE", "/seeks/" + encodeURIComponent(w.id), undefined, await identityToken());
  } catch (e) {
    if (e.status !== 404) { w.err.textContent = e.message; return; }
  }
  if (shown.get(w.id) === w) end(w).remove();
}

// computer opens a game against the computer at the player's level,
// keeping seek w: the table's page holds it open meanwhile.
async function computer(w) {
  if (shown.get(w.id) !== w) return;
  try {
    const body = { game: w.game, opponent: "computer" };
    if (w.seek.mode) body.mode = w.seek.mode;
    if (w.seek.clock) body.clock = Number(w.seek.clock);
    const a = await call("POST", "/seeks", body, await identityToken());
    const offer = w.el.querySelector(".seek-offer");
    if (offer) { fill(offer); offer.hidden = true; }
    opened(a.table, w.game, true);
  } catch (e) {
    w.err.textContent = e.message;
  }
}

// acceptButton accepts seek s from the lobby.
export function acceptButton(s, err) {
  return h("button", { type: "button", class: "seek-accept", "data-seek": s.id, "aria-label": `Accept ${s.player}'s seek of ${terms(s)}`, onclick: async ev => {
    ev.target.disabled = true;
    try {
      const a = await call("POST", `/seeks/${encodeURIComponent(s.id)}/accept`, undefined, await identityToken());
      opened(a.table, s.game, true);
    } catch (e) {
      err.textContent = e.message;
      ev.target.disabled = false;
    }
  } }, "Accept");
}

// A seek lasts while the page that made it is open: closing it withdraws
// the seek. The player's other pages showing it leave it alone.
window.addEventListener("pagehide", () => {
  if (!waiting) return;
  const headers = {};
  const id = (() => { try { return JSON.parse(localStorage.getItem("parlour.identity") || "null"); } catch { return null; } })();
  if (!signedIn() && id && id.token) headers.Authorization = "Bearer " + id.token;
  try { fetch("/api/v1/seeks/" + encodeURIComponent(waiting.id), { method: "DELETE", keepalive: true, credentials: "same-origin", headers }); } catch { /* the server drops it within 30 s anyway */ }
});
