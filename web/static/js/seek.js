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

let waiting = null; // {id, game, rated, timer, since, el, computer}

// seeking reports the game being sought, or "".
export const seeking = () => (waiting ? waiting.game : "");

// mySeek reports the id of this page's seek waiting, or "": the lists of
// seeks show it as the player's own, a guest's too, whose name is no
// account's to compare.
export const mySeek = () => (waiting ? waiting.id : "");

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
export async function start(body) {
  if (waiting) {
    toast(`You are already looking for ${terms(waiting.seek)}: cancel that first.`);
    return;
  }
  try {
    const a = await call("POST", "/seeks", body, await identityToken());
    if (a.table) { opened(a.table, body.game, true); return; }
    wait(a.seek);
  } catch (e) {
    toast(e.message);
  }
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

// wait shows the banner of seek s and follows it until it pairs or ends.
function wait(s) {
  const err = h("p", { class: "error", role: "alert" });
  const offer = h("div", { class: "row seek-offer", hidden: true });
  const el = h("div", { class: "banner seek", "data-seek": s.id },
    h("p", { class: "seek-text" }, `Looking for an opponent for ${terms(s)}…`),
    offer,
    h("div", { class: "row" }, h("button", { type: "button", class: "seek-cancel", "aria-label": `Cancel: stop looking for ${terms(s)}`, onclick: cancel }, "Cancel")),
    err);
  waiting = { id: s.id, game: s.game, seek: s, el, err, since: Date.now(), computer: false };
  append(box(), el);
  waiting.timer = setInterval(poll, POLL);
  waiting.offerTimer = setTimeout(() => {
    if (!waiting || waiting.id !== s.id) return;
    fill(offer, h("p", {}, "No one yet: play the computer at your level while you wait?"),
      h("button", { type: "button", class: "seek-computer", onclick: computer }, "Play the computer"));
    offer.hidden = false;
  }, OFFER_AFTER);
}

function end() {
  if (!waiting) return;
  clearInterval(waiting.timer);
  clearTimeout(waiting.offerTimer);
  const el = waiting.el;
  waiting = null;
  return el;
}

// started answers the news on the player stream that a table of game
// began without a challenge: when the seek waiting is of that game it is
// asked about at once, so that the player goes to the table now rather
// than at the next poll.
export function started(game) {
  if (waiting && waiting.game === game) poll();
}

// poll asks about the seek: still waiting, or the table it made.
async function poll() {
  const w = waiting;
  if (!w) return;
  try {
    const m = await call("GET", "/seeks/" + encodeURIComponent(w.id), undefined, await identityToken());
    if (waiting !== w || m.status !== "paired") return;
    const el = end();
    rememberSeat(m.table.table, { seat: m.table.seat, token: null, game: w.game });
    if (location.pathname === "/" || location.pathname === "/lobby") {
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
    if (waiting !== w) return;
    if (e.status === 404) {
      const el = end();
      fill(el, h("p", { class: "seek-text" }, `Your seek for ${terms(w.seek)} ended: ${e.message}`),
        h("div", { class: "row" }, h("button", { type: "button", onclick: () => el.remove() }, "OK")));
    }
    // Otherwise the network blinked: the next poll tries again.
  }
}

// cancel withdraws the seek.
async function cancel() {
  const w = waiting;
  if (!w) return;
  try {
    await call("DELETE", "/seeks/" + encodeURIComponent(w.id), undefined, await identityToken());
  } catch (e) {
    if (e.status !== 404) { w.err.textContent = e.message; return; }
  }
  if (waiting === w) end().remove();
}

// computer opens a game against the computer at the player's level,
// keeping the seek: the table's page holds it open meanwhile.
async function computer() {
  const w = waiting;
  if (!w) return;
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

// A seek lasts while the page is open: closing it withdraws the seek.
window.addEventListener("pagehide", () => {
  if (!waiting) return;
  const headers = {};
  const id = (() => { try { return JSON.parse(localStorage.getItem("parlour.identity") || "null"); } catch { return null; } })();
  if (!signedIn() && id && id.token) headers.Authorization = "Bearer " + id.token;
  try { fetch("/api/v1/seeks/" + encodeURIComponent(waiting.id), { method: "DELETE", keepalive: true, credentials: "same-origin", headers }); } catch { /* the server drops it within 30 s anyway */ }
});
