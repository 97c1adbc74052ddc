// stream.js: the player stream (docs/protocol.md, "The player stream")
// and the challenges it carries ("Challenges"). It is loaded only while
// signed in (account.js starts it), so the home page's first load stays
// small. It holds the stream open, shows each challenge in a banner above
// every screen (Accept / Decline for one made to you, Withdraw for yours),
// says in words how a challenge ended, and opens the table when one is
// accepted. It also shows a rematch another player asked for, away from
// the end screen that offers it. The form that makes a challenge is challenge.js's.

import { h, append, fill, toast } from "./dom.js";
import { call, rememberSeat, seatFor, sessionRefused } from "./api.js";
import { games, gameInfo, known, poolTitle, title } from "./catalog.js";
import { rulesInWords, clockWords } from "./rulestext.js";
import { go } from "./nav.js";
import { challengeNotice } from "./notify.js";
import { news } from "./follows.js";
import { started, streamLine, others, forget } from "./seek.js";

const same = (a, b) => String(a || "").toLowerCase() === String(b || "").toLowerCase();

let me = "";          // the account the stream is for
let abort = null;     // stops the stream; null when stopped
const shown = new Map(); // challenge id -> its banner element
const waitingOn = new Map(); // challenge id -> the challenge, while its banner shows it open
const mine = new Set();  // ids of challenges this player made, seen open
const opened = new Set(); // tables already opened from a gameStart
let waiting = null;       // lines that came before the games' titles, in order

// start opens the player stream for the account name, once.
//
// A browser holds one player stream however many of its tabs are open:
// the tabs take turns with a Web Lock, the one holding it reads the
// stream and passes every line to the others over a BroadcastChannel,
// and when it closes the next takes over. A stream is a request that
// never ends, and a browser talks to one host over HTTP/1.1 through six
// connections at most: six tabs, each with a stream of its own, left no
// connection for anything else, so that a new tab's stream (and with it a
// challenge) waited until some other request ended, or never came, and a
// challenge sent from such a tab hung unsent.
export function start(name) {
  if (abort && same(me, name)) return;
  stop();
  me = name;
  abort = new AbortController();
  const signal = abort.signal;
  games().catch(() => { /* handle asks again */ }); // the banners' titles, fetched while the stream opens
  if (!navigator.locks || typeof BroadcastChannel !== "function") { run(signal); return; }
  const key = "parlour.stream." + name.toLowerCase();
  const ch = new BroadcastChannel(key);
  ch.onmessage = e => handle(e.data);
  signal.addEventListener("abort", () => ch.close(), { once: true });
  const lead = () => run(signal, ev => { try { ch.postMessage(ev); } catch { /* closed: signed out */ } });
  navigator.locks.request(key, { ifAvailable: true }, lock => {
    if (lock) return lead();
    // Another tab holds the stream: the open challenges come from a
    // plain request (its opening lines went to that tab), and this tab
    // waits its turn.
    openChallenges(signal);
    navigator.locks.request(key, { signal }, lead).catch(() => { /* signed out while waiting */ });
    return null;
  }).catch(() => { /* no lock to be had: nothing to lead */ });
}

// openChallenges shows the open challenges, and the player's seeks
// waiting (seek.js), read once.
async function openChallenges(signal) {
  others(me);
  try {
    const l = await call("GET", "/challenges");
    if (signal.aborted) return;
    for (const c of [...(l.in || []), ...(l.out || [])]) handle({ type: "challenge", challenge: c });
  } catch { /* the banners come with the next line passed on */ }
}

// stop closes the stream and takes the banners away (signing out).
export function stop() {
  if (abort) abort.abort();
  abort = null;
  me = "";
  waiting = null;
  for (const el of shown.values()) el.remove();
  shown.clear();
  waitingOn.clear();
  mine.clear();
  forget();
}

// box is the region above the screen that holds the banners.
function box() {
  let b = document.getElementById("challenges");
  if (!b) {
    b = h("section", { id: "challenges", class: "challenges", "aria-label": "Challenges", "aria-live": "polite" });
    document.getElementById("main").before(b);
  }
  return b;
}

const sleep = (ms, signal) => new Promise(res => {
  const t = setTimeout(res, ms);
  signal.addEventListener("abort", () => { clearTimeout(t); res(); }, { once: true });
});

// silence is how long the stream may say nothing, not even its
// keep-alive (an empty line every 7 s), before the page takes the
// connection for dead and opens it again. A connection cut without a
// word (a laptop waking from sleep, a router forgetting it, a server's
// host lost) would otherwise leave the page waiting for good, offline to
// the others and deaf to their challenges.
const silence = 30000;

// run reads the NDJSON stream line by line, reconnecting with a growing
// wait (1 s doubling to 30 s, with jitter) while signed in, and hands
// every event to pass too (the other tabs), if given.
async function run(signal, pass) {
  let wait = 1000;
  let again = false; // a connection answered before: the next is a reopening
  while (!signal.aborted) {
    // Each connection has its own abort: signing out ends it, and so
    // does silence.
    const conn = new AbortController();
    const end = () => conn.abort();
    signal.addEventListener("abort", end, { once: true });
    let quiet = setTimeout(end, silence);
    const heard = () => { clearTimeout(quiet); quiet = setTimeout(end, silence); };
    try {
      const res = await fetch("/api/v1/stream", { credentials: "same-origin", signal: conn.signal, headers: { Accept: "application/x-ndjson" } });
      if (res.status === 401 || res.status === 403) { // signed out elsewhere
        window.dispatchEvent(new Event(sessionRefused));
        return;
      }
      if (!res.ok || !res.body) throw new Error(res.statusText);
      wait = 1000; // the server answered: a break from here on is not it refusing
      if (again) recheck(signal, pass);
      again = true;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard();
        wait = 1000; // the stream answered: the next break is not the server refusing
        buf += value;
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (!line) continue; // the keep-alive
          let ev;
          try { ev = JSON.parse(line); } catch { continue; }
          handle(ev);
          if (pass) pass(ev);
        }
      }
    } catch { /* the network went away, or went silent: try again below */
    } finally {
      clearTimeout(quiet);
      signal.removeEventListener("abort", end);
    }
    if (signal.aborted) return;
    await sleep(wait * (0.75 + Math.random() / 2), signal);
    wait = Math.min(wait * 2, 30000);
  }
}

// recheck, at a reopening of the stream, asks which challenges are open
// now and puts away the banners of those that were open before and are
// not: whatever became of them (an answer from another device, a
// withdrawal, the time running out) was said while the stream was away,
// and a banner left waiting would only earn refusals. Only banners shown
// before the asking are judged: a challenge made since may be newer than
// the list. An accepted challenge of this player's stays among theirs, for
// the reopened stream's gameStart line to take the page to its table. The
// verdicts go to the other tabs as "challengeGone" lines.
async function recheck(signal, pass) {
  const before = [...waitingOn.values()];
  if (!before.length) return;
  let l;
  try { l = await call("GET", "/challenges"); } catch { return; } // the next reopening asks again
  if (signal.aborted) return;
  const open = new Set([...(l.in || []), ...(l.out || [])].map(c => c.id));
  for (const c of before) {
    if (open.has(c.id)) continue;
    const ev = { type: "challengeGone", challenge: c };
    handle(ev);
    if (pass) pass(ev);
  }
}

// handle acts on one line of the stream. Its banners name the game by
// its title, which the games list (catalog.js) holds: until that has come,
// lines wait for it, in the order they came; after, each acts at once.
export function handle(ev) {
  if (waiting) { waiting.push(ev); return; }
  if (known()) { act(ev); return; }
  waiting = [ev];
  // Should the list not come, the banners name the game as the line does.
  games().catch(() => {}).then(() => {
    const evs = waiting || [];
    waiting = null;
    for (const e of evs) act(e);
  });
}

// act does what one line of the stream says.
function act(ev) {
  const c = ev.challenge;
  switch (ev.type) {
    case "challenge":
      if (c.status === "open") banner(c);
      break;
    case "challengeDeclined":
    case "challengeCanceled":
      ended(c);
      break;
    case "challengeGone":
      // Not a line of the server's: a tab's recheck found it no longer
      // open (see recheck).
      if (waitingOn.has(c.id)) closed(c.id, same(c.to, me)
        ? `${c.from}'s ${title(c.game)} challenge is no longer open: it was answered elsewhere, withdrawn or ran out while this page was away.`
        : `Your ${title(c.game)} challenge to ${c.to} is no longer open: it was answered, withdrawn or ran out while this page was away.`);
      break;
    case "gameStart": {
      // Only a table opened by a challenge this player made moves the
      // page there; the stream also names every table under way. A table
      // without a challenge may be a waiting seek's: its banner asks.
      const t = ev.table || {};
      if (!t.challenge) { started(t.game); break; }
      if (!mine.has(t.challenge)) { drop(t.challenge); break; } // accepted in another tab
      if (opened.has(t.id)) break;
      opened.add(t.id);
      mine.delete(t.challenge);
      drop(t.challenge);
      rememberSeat(t.id, { seat: t.seat, token: null, game: t.game });
      toast(`Your ${title(t.game)} challenge was accepted`);
      go("/t/" + t.id);
      break;
    }
    case "seek":
    case "seekGone":
      // The player's seeks, made from this page or another (seek.js).
      streamLine(ev);
      break;
    case "tournamentGame":
      tournamentGame(ev.tournament || {});
      break;
    case "tournamentCancelled":
      // An event the player is in was called off before it started.
      if (ev.event) toast(`${ev.event.name} was cancelled: it will not be played.`);
      break;
    case "gameFinish": {
      // A game that ended away from its page (a clock that ran out, an
      // opponent who resigned or was claimed against) is told on the
      // page the player is on; its own page says it at the end.
      const t = ev.table || {};
      const how = { win: "you won", loss: "you lost", draw: "a draw", aborted: "aborted, without a result" }[t.result];
      if (how && location.pathname !== "/t/" + t.id) toast(`Your ${title(t.game)} game ${t.id} is over: ${how}.`);
      break;
    }
    case "rematch":
      rematchOffer(ev.rematch || {});
      break;
    case "refund": {
      // A moderator closed a player who cheated against this one.
      const r = ev.refund;
      if (r) toast(`You got back ${Math.round(r.points)} rating points in ${poolTitle(r.pool)}, lost to a player a moderator closed for cheating.`);
      break;
    }
    case "keyAdded":
      // A key added by someone else signs in as this account: say so on
      // every page the account has open.
      if (ev.key) toast(ev.key.confirmed
        ? `An SSH key was confirmed for your account over SSH: ${ev.key.fingerprint}. It signs you in. Not you? Delete it on your account page.`
        : `An SSH key was added to your account: ${ev.key.fingerprint}. Not you? Delete it on your account page.`);
      break;
    case "followOnline":
    case "followPlaying":
      news(ev); // a followed player came online or began a game
      break;
    case "error":
    default:
      break;
  }
}

// tournamentGame leads the player to the table an event seated them at:
// at once from the event's page, the events list or the home page, by a
// banner with a link from anywhere else (a game under way is not pulled
// away under the player). The event's page does the same for a player
// without a stream; a tab goes to a table once, whichever saw it first.
function tournamentGame(t) {
  if (!t.table || opened.has(t.table)) return;
  opened.add(t.table);
  rememberSeat(t.table, { seat: t.seat, token: null, game: t.game });
  const where = location.pathname.replace(/\/+$/, "") || "/";
  let once = false;
  try {
    once = !!sessionStorage.getItem("parlour.tgame." + t.table);
    sessionStorage.setItem("parlour.tgame." + t.table, "1");
  } catch { /* no storage: this page's own set keeps it once */ }
  if (once) return;
  const round = t.round ? `, round ${t.round}` : "";
  if (where === "/" || where === "/tournaments" || where === "/tournaments/" + t.event) {
    toast(`Your ${t.name}${round} game is ready`);
    go("/t/" + t.table);
    return;
  }
  const el = h("div", { class: "banner challenge your-game", "data-tournament-table": t.table, role: "group", "aria-label": "Your tournament game" },
    h("p", { class: "challenge-text" }, h("strong", {}, "Your game is ready: "), `${title(t.game)} in ${t.name}${round}.`),
    h("div", { class: "row" },
      h("a", { class: "button primary", href: "/t/" + t.table, onclick: () => el.remove() }, "Go to your table"),
      h("button", { type: "button", onclick: () => el.remove() }, "Later")));
  append(box(), el);
}

// rematchOffer shows that another player of a finished game asked for the
// next one, with a button that takes the seat waiting for this player at
// its table. The finished game's end screen offers the rematch itself,
// and the next table is where the button leads: on those pages there is
// no banner.
function rematchOffer(r) {
  const key = "rematch:" + r.table;
  if (!r.table || !r.prev || shown.has(key)) return;
  const where = location.pathname.replace(/\/+$/, "");
  if (where === "/t/" + r.prev || where === "/t/" + r.table) return;
  const err = h("p", { class: "error", role: "alert" });
  const what = `${r.rated ? "rated " : ""}${title(r.game)}`;
  const take = h("button", { type: "button", class: "primary rematch-take", "aria-label": `Play the rematch of ${title(r.game)} with ${r.from}`,
    onclick: async () => {
      err.textContent = "";
      take.disabled = true;
      try {
        const seat = seatFor(r.prev);
        const ans = await call("POST", `/tables/${encodeURIComponent(r.prev)}/rematch`, {}, (seat && seat.token) || undefined);
        drop(key);
        rememberSeat(ans.table, { seat: ans.seat, token: ans.token, game: r.game });
        go("/t/" + ans.table);
      } catch (e) { err.textContent = e.message; take.disabled = false; }
    } }, "Play the rematch");
  const el = h("div", { class: "banner challenge rematch", "data-rematch": r.table, role: "group", "aria-label": `Rematch from ${r.from}` },
    h("p", { class: "challenge-text" }, h("strong", {}, r.from), ` asks for a rematch: ${what}, at a table waiting for you.`),
    h("div", { class: "row" }, take,
      h("button", { type: "button", class: "rematch-later", "aria-label": `Later: ${r.from}'s rematch`, onclick: () => drop(key) }, "Later")),
    err);
  shown.set(key, el);
  append(box(), el);
  challengeNotice(`${r.from} asks for a rematch of ${title(r.game)}`, "A rematch");
}

function drop(id) {
  const el = shown.get(id);
  if (el) el.remove();
  shown.delete(id);
  waitingOn.delete(id);
}

// what says a challenge's game and terms in words.
function what(c) {
  const n = Object.keys(c.rules || {}).filter(k => k !== "clock").length; // a clock changes no rule of the game
  const clock = clockWords((c.rules || {}).clock);
  return `${c.rated ? "rated " : ""}${title(c.game)}${n ? " with changed rules" : ""}${clock ? `, clock ${clock}` : ""}${c.lexicon ? ` on the ${c.lexicon} word list` : ""}`;
}

// banner shows an open challenge: to this player with Accept and Decline,
// from this player with Withdraw.
function banner(c) {
  if (shown.has(c.id)) return;
  const incoming = same(c.to, me);
  if (!incoming) mine.add(c.id);
  const err = h("p", { class: "error", role: "alert" });
  const busy = b => { for (const x of el.querySelectorAll("button")) x.disabled = b; };
  const act = async (path, method, then) => {
    err.textContent = "";
    busy(true);
    try { then(await call(method, path)); } catch (e) {
      // Answered, withdrawn or run out already (the line saying so not
      // yet here): the banner says what became of it, in the server's
      // words, rather than offer again what would be refused again.
      if (e.status === 409 || e.status === 410) { closed(c.id, e.message.charAt(0).toUpperCase() + e.message.slice(1) + "."); return; }
      err.textContent = e.message;
      busy(false);
    }
  };
  // The rules that differ from the game's defaults, in words ("Clock: 1
  // minute a turn"), once the game's options are known.
  const rulesLine = h("p", { class: "muted challenge-rules", hidden: true });
  const showRules = opts => {
    const words = rulesInWords(opts, c.rules, true);
    rulesLine.textContent = words.length ? "Rules: " + words.join(", ") : "";
    rulesLine.hidden = !words.length;
  };
  if (Object.keys(c.rules || {}).length) gameInfo(c.game).then(g => showRules(g ? g.options : []), () => showRules([]));
  const el = h("div", { class: "banner challenge", "data-challenge": c.id, "data-dir": incoming ? "in" : "out", role: "group", "aria-label": incoming ? `Challenge from ${c.from}` : `Your challenge to ${c.to}` },
    h("p", { class: "challenge-text" }, incoming
      ? [h("strong", {}, c.from), ` challenges you to ${what(c)}.`]
      : [`You challenged `, h("strong", {}, c.to), ` to ${what(c)}; waiting for an answer.`]),
    rulesLine,
    h("div", { class: "row" }, incoming
      ? [h("button", { type: "button", class: "primary challenge-accept", "aria-label": `Accept ${c.from}'s ${title(c.game)} challenge`,
          onclick: () => act(`/challenges/${encodeURIComponent(c.id)}/accept`, "POST", t => {
            drop(c.id);
            rememberSeat(t.table, { seat: t.seat, token: t.token, game: c.game });
            go("/t/" + t.table);
          }) }, "Accept"),
        h("button", { type: "button", class: "challenge-decline", "aria-label": `Decline ${c.from}'s ${title(c.game)} challenge`,
          onclick: () => act(`/challenges/${encodeURIComponent(c.id)}/decline`, "POST", () => drop(c.id)) }, "Decline")]
      : h("button", { type: "button", class: "challenge-withdraw", "aria-label": `Withdraw your challenge to ${c.to}`,
          onclick: () => act(`/challenges/${encodeURIComponent(c.id)}`, "DELETE", () => {}) }, "Withdraw")),
    err);
  shown.set(c.id, el);
  waitingOn.set(c.id, c);
  append(box(), el);
  if (incoming) challengeNotice(`${c.from} challenges you to ${what(c)}`);
}

// ended replaces a challenge's banner with what became of it, in words,
// with a button to put it away.
function ended(c) {
  const incoming = same(c.to, me);
  mine.delete(c.id);
  // A decline from this page has already put its banner away.
  if (incoming && c.status === "declined" && !shown.has(c.id)) return;
  let text;
  if (c.status === "declined") text = incoming ? `You declined ${c.from}'s ${title(c.game)} challenge.` : `${c.to} declined your ${title(c.game)} challenge.`;
  else if (c.status === "expired") text = incoming ? `${c.from}'s ${title(c.game)} challenge expired: nobody answered within 10 minutes.` : `Your ${title(c.game)} challenge to ${c.to} expired: nobody answered within 10 minutes.`;
  else text = incoming ? `${c.from} withdrew their ${title(c.game)} challenge.` : `You withdrew your ${title(c.game)} challenge to ${c.to}.`;
  closed(c.id, text, c.status);
}

// closed replaces challenge id's banner (or puts up one) with text, what
// became of it, and a button to put it away; status, when known, marks it.
function closed(id, text, status) {
  waitingOn.delete(id);
  let el = shown.get(id);
  if (!el) {
    el = h("div", { class: "banner challenge end", "data-challenge": id });
    shown.set(id, el);
    append(box(), el);
  }
  el.classList.add("end");
  if (status) el.dataset.status = status;
  fill(el, h("p", { class: "challenge-text" }, text),
    h("div", { class: "row" }, h("button", { type: "button", class: "challenge-dismiss", "aria-label": "Put away: " + text, onclick: () => drop(id) }, "OK")));
}
