// api.js: the HTTP API (docs/protocol.md) and what this browser remembers:
// the player's name, the seats it holds (table, seat, token) and recent
// games. Nothing secret to other players is ever stored here: a seat token
// only lets this browser act for its own seat.

const BASE = "/api/v1";

// ApiError carries the server's message, written for the player.
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// call sends a JSON request and returns the decoded answer; signal, if
// given, aborts it (a long wait the page no longer needs).
export async function call(method, path, body, token, signal) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin", signal });
  } catch (e) {
    if (signal && signal.aborted) throw e;
    throw new ApiError(0, "cannot reach the server: " + e.message);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || text.trim() || res.statusText);
  }
  return data;
}

// callText is call for answers that are not JSON objects (a record file).
export async function callText(path, token) {
  const res = await fetch(BASE + path, { headers: token ? { Authorization: "Bearer " + token } : {}, credentials: "same-origin" });
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error || text; } catch { /* plain text */ }
    throw new ApiError(res.status, msg.trim());
  }
  return text;
}

// firstLine reads the first line of an NDJSON stream (a table's events:
// its first line lists the moves after from=N, and a table in play goes
// on with every change) and hangs up: the answer, decoded.
export async function firstLine(path, token) {
  const stop = new AbortController();
  try {
    const res = await fetch(BASE + path, { headers: token ? { Authorization: "Bearer " + token } : {}, credentials: "same-origin", signal: stop.signal });
    if (!res.ok) {
      const text = await res.text();
      let msg = text;
      try { msg = JSON.parse(text).error || text; } catch { /* plain text */ }
      throw new ApiError(res.status, msg.trim());
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    return JSON.parse(text.split("\n")[0]);
  } finally {
    stop.abort();
  }
}

function load(key, dflt) {
  try { const v = JSON.parse(localStorage.getItem(key)); return v === null ? dflt : v; } catch { return dflt; }
}
function save(key, v) {
  try { localStorage.setItem(key, JSON.stringify(v)); } catch { /* private mode: forget */ }
}

// The player's display name.
export const myName = () => load("parlour.name", "");
export const setMyName = n => save("parlour.name", n);

// seatFor returns this browser's seat at table id: {seat, token} or null.
export function seatFor(id) {
  return load("parlour.seats", {})[id] || null;
}

// rememberSeat stores a seat and adds the table to the recent games.
export function rememberSeat(id, info) {
  const seats = load("parlour.seats", {});
  seats[id] = { seat: info.seat, token: info.token };
  const keys = Object.keys(seats);
  if (keys.length > 200) delete seats[keys[0]];
  save("parlour.seats", seats);
  touchRecent(id, info.game);
}

// forgetSeat drops this browser's seat at table id and the table from the
// recent games: its player left it before it began.
export function forgetSeat(id) {
  const seats = load("parlour.seats", {});
  delete seats[id];
  save("parlour.seats", seats);
  save("parlour.recent", load("parlour.recent", []).filter(r => r.table !== id));
}

// touchRecent records a visit to table id.
export function touchRecent(id, game, extra) {
  const recent = load("parlour.recent", []).filter(r => r.table !== id);
  const old = load("parlour.recent", []).find(r => r.table === id) || {};
  recent.unshift({ ...old, table: id, game: game || old.game, at: Date.now(), ...(extra || {}) });
  save("parlour.recent", recent.slice(0, 30));
}

// recent lists the tables this browser played at, newest first.
export const recent = () => load("parlour.recent", []);

// signedIn is the account name this browser is signed in as, or "".
// The session itself is the server's HttpOnly cookie; this only says whom
// to show in the header.
export const signedIn = () => load("parlour.account", "");
export const setSignedIn = n => save("parlour.account", n || "");

// mayBeSignedIn says whether this browser may hold a session: it remembers a
// name, or the server left its parlour_signed_in cookie beside the
// session's. Without either it has none, and asking the server who is
// signed in would only earn an error status that the console logs.
export const mayBeSignedIn = () => !!signedIn() || /(?:^|;\s*)parlour_signed_in=1/.test(document.cookie);

// sessionRefused is the event the player stream dispatches on window when
// the server refuses this browser's session, which has ended; the
// account's module, which loads the stream's, answers it.
export const sessionRefused = "parlour:session-refused";

// guestToken is the guest identity's token, or undefined: sent with a
// sign-up, it makes that guest the account.
export const guestToken = () => (load("parlour.identity", null) || {}).token;

// forgetGuest drops the guest token once it has become an account's, so
// that signing out leaves a fresh guest rather than the account.
export function forgetGuest() {
  try { localStorage.removeItem("parlour.identity"); } catch { /* nothing kept */ }
}

// identityToken returns this browser's guest identity token, making the
// identity on first use, so that every seat this browser takes belongs to
// one identity (rematches and recent games follow it).
// Signed in to an account, it answers null: the session cookie speaks
// for the browser then.
export async function identityToken(name) {
  if (signedIn()) return null;
  const id = load("parlour.identity", null);
  if (id && id.token) return id.token;
  const made = await call("POST", "/identity", name ? { name } : {});
  save("parlour.identity", { token: made.token, id: made.identity });
  return made.token;
}

// checkSetup asks the referee whether a secret setup would pass, without
// giving it to the table: it answers the canonical setup or throws the
// referee's refusal.
export async function checkSetup(game, rules, lexicon, setup) {
  return (await ask("/api/v1/tools/check-setup", { game, rules, lexicon, setup })).setup;
}

// randomSetup asks the referee for a random legal setup under rules.
export async function randomSetup(game, rules, lexicon) {
  return (await ask("/api/v1/tools/random-setup", { game, rules, lexicon })).setup;
}

// fillSetup asks for a Quizl grid around the player's password on line
// (0-4 rows 5-9, 5-9 columns 0-4): maker "random", or the level of the
// computer's grid maker for a deceptive filling. It answers {setup,
// random}, random set when the grid maker fell back to a random filling.
export function fillSetup(rules, lexicon, password, line, maker) {
  return ask("/api/v1/tools/fill-setup", { game: "quizl", rules, lexicon, password, line, maker });
}

// previewPlacement asks Word Fight's referee what placing word at
// placement ("D2 down") in the seat's own grid would do: {legal, problem,
// reused, points, crossings}.
export function previewPlacement(rules, lexicon, grid, word, placement) {
  return ask("/api/v1/tools/preview", { rules, lexicon, grid, word, placement });
}

// ask posts body to one of the editors' helpers (/api/v1/tools/...), which
// need no identity, and returns the decoded answer, or throws the refusal.
async function ask(path, body) {
  let res;
  try {
    res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, "cannot reach the server: " + e.message);
  }
  const ans = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, ans.error || res.statusText);
  return ans;
}
