// tournaments.js: the events (docs/tournaments.md). events is the list of
// arenas and Swiss events, to come, under way and finished, with the form
// that makes one; event is one event's page: its terms and countdown, the
// join, leave and start buttons, the live standings, each player's games,
// the games under way (each watchable), the winners once it is over, and
// its chat. The page follows the event while it is open, each answer
// waiting for the next change (?version=N), and takes a player to their
// table when the event seats them (the player stream's tournamentGame,
// stream.js, does the same from any screen for an account; for a guest,
// who has no stream, this module asks for their tables while they are in
// an event).

import { h, append, fill, field, plural, toast, redraw } from "./dom.js";
import { call, identityToken, guestToken, signedIn, myName, rememberSeat, seatFor } from "./api.js";
import { games, title } from "./catalog.js";
import { go } from "./nav.js";
import { clockControl, clockPresets, optionControls, readOptions, holdForRated } from "./options.js";
import { clockWords } from "./rulestext.js";
import { whenWords } from "./when.js";
import { chatReportButton } from "./report.js";
import { showCount } from "./chat.js";

// POLL is how often an event's page asks for its chat, and how long it
// waits to follow the event again after a failure. The list asks every
// LIST_POLL: its lines change more slowly.
const POLL = 3000;
const LIST_POLL = 5000;

// multiSeat are the games a Swiss may seat three or four at a table:
// the two that play best with more than two players.
const multiSeat = ["quizl", "wordfight"];

// NO_SHOWS is how many games a Swiss player may miss before the event
// withdraws them for good (the server's ForfeitsToWithdraw).
const NO_SHOWS = 2;

// MAX_ARENA and MAX_SWISS are the most players an arena and a Swiss take
// (the server's MaxArenaPlayers and MaxSwissPlayers); capped says an
// event's maker chose fewer.
const MAX_ARENA = 5000, MAX_SWISS = 500;
const capped = e => e.max_players > 0 && e.max_players < (e.kind === "swiss" ? MAX_SWISS : MAX_ARENA);

const same = (a, b) => String(a || "").toLowerCase() === String(b || "").toLowerCase();

// over says whether event e is done with (finished, or cancelled before
// it started): nothing is joined, left or followed in it any more.
const over = e => e.status === "finished" || e.status === "cancelled";

// The events this browser joined as a guest: a guest's name may be
// anybody's, so the page remembers which events it joined for them.
const JOINED = "parlour.events";
function joinedHere() {
  try { return JSON.parse(localStorage.getItem(JOINED) || "{}") || {}; } catch { return {}; }
}
function markJoined(id, on) {
  const j = joinedHere();
  if (on) j[id] = Date.now(); else delete j[id];
  follow(id, on);
  const keys = Object.keys(j);
  if (keys.length > 100) delete j[keys[0]];
  try { localStorage.setItem(JOINED, JSON.stringify(j)); } catch { /* private mode: forget */ }
}

// A guest has no player stream to hear of their pairings: while they are
// in an event under way, the page asks every few seconds for the tables
// they sit at (GET /api/v1/identity/tables): a table that names one of
// their events, and that this browser holds no seat for, is a new
// pairing. From the event's page (or the
// home page or the list) it takes them there; from anywhere else a
// banner leads there, as the stream's does for an account. The asking
// also keeps the guest online, which an arena needs to pair them. It
// lasts while the page is loaded; the event's page starts it again.
const FOLLOW = 4000;
const followed = new Map(); // event id -> its page's path
let followTimer = null;

function follow(id, on) {
  if (on && !signedIn()) followed.set(id, "/tournaments/" + id);
  else followed.delete(id);
  if (followed.size && !followTimer) followTimer = setInterval(guestPairings, FOLLOW);
  if (!followed.size && followTimer) { clearInterval(followTimer); followTimer = null; }
}

async function guestPairings() {
  if (signedIn()) { for (const id of [...followed.keys()]) follow(id, false); return; }
  let tables;
  try { tables = (await call("GET", "/identity/tables", undefined, await identityToken(myName()))).tables || []; } catch { return; }
  for (const t of tables) {
    // Only an event's table, and one this browser has not taken already.
    if (!t.event || !followed.has(t.event.id) || seatFor(t.id) || t.status === "finished") continue;
    rememberSeat(t.id, { seat: t.seat, token: await identityToken(myName()), game: t.game });
    const where = location.pathname.replace(/\/+$/, "") || "/";
    if (where === "/" || where === "/tournaments" || [...followed.values()].includes(where)) {
      if (openedHere(t.id)) continue;
      toast("Your game is ready");
      go("/t/" + encodeURIComponent(t.id));
      return;
    }
    banner(t);
  }
}

// banner leads a guest to table t from another screen.
function banner(t) {
  let b = document.getElementById("event-banner");
  if (!b) {
    b = h("section", { id: "event-banner", class: "challenges", "aria-label": "Your tournament game", "aria-live": "polite" });
    document.getElementById("main").before(b);
  }
  const el = h("div", { class: "banner your-game", "data-tournament-table": t.id },
    h("p", {}, h("strong", {}, "Your game is ready: "), `${t.title || title(t.game)} in ${t.event.name}${t.event.round ? `, round ${t.event.round}` : ""}, against ${(t.seats || []).filter(x => x.seat !== t.seat).map(x => x.name).join(", ") || "another player"}.`),
    h("div", { class: "row" },
      h("a", { class: "button primary", href: "/t/" + encodeURIComponent(t.id), onclick: () => el.remove() }, "Go to your table"),
      h("button", { type: "button", onclick: () => el.remove() }, "Later")));
  append(b, el);
}

// readToken is what reads an event as this browser's player, so that
// the answer says whether they are in it: nothing for an account (its
// session cookie speaks), the guest's token if this browser has one. It
// makes no identity: a visitor who only reads is not made a guest.
const readToken = () => signedIn() ? null : guestToken();

// read GETs path as this browser's player, or as anybody should the
// server not know the guest's token (a server whose data was reset).
async function read(path, signal) {
  const tok = readToken();
  try {
    return await call("GET", path, undefined, tok, signal);
  } catch (e) {
    if (!tok || e.status !== 401) throw e;
    return call("GET", path, undefined, null, signal);
  }
}

// myToken is what acts for this browser: nothing for an account (its
// session cookie does), the guest identity's token otherwise.
const myToken = () => signedIn() ? Promise.resolve(null) : identityToken(myName());

// openedHere notes that the page took the player to table id, once for
// the tab, so that neither the event page nor the stream's line takes
// them there twice.
export function openedHere(id) {
  const k = "parlour.tgame." + id;
  try {
    if (sessionStorage.getItem(k)) return true;
    sessionStorage.setItem(k, "1");
  } catch { /* no storage: go once per page load at worst */ }
  return false;
}

// kindWords names an event's kind: "Arena", "Swiss", "Swiss, 3 a table".
export function kindWords(e) {
  if (e.kind === "arena") return "Arena";
  return e.seats > 2 ? `Swiss, ${e.seats} a table` : "Swiss";
}

// lengthWords says how long an event runs: "30 minutes", "5 rounds".
const lengthWords = e => e.kind === "arena" ? plural(e.minutes, "minute") : plural(e.rounds, "round");

// sentence begins words with a capital when they stand alone.
const sentence = (words, alone) => alone ? words.charAt(0).toUpperCase() + words.slice(1) + "." : words;

// ticking keeps every element marked data-when showing its event's time
// from now, once a second, until stop is called.
function ticking(root, byID) {
  const tick = () => {
    const now = Date.now();
    for (const el of root.querySelectorAll("[data-when]")) {
      const e = byID.get(el.dataset.when);
      if (e) el.textContent = sentence(whenWords(e, now, !!el.dataset.coarse), el.dataset.sentence);
    }
  };
  tick();
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
}

const lockMark = e => e.password ? h("span", { class: "badge lock", title: "joining takes the event's password" }, "password") : null;
const ratedMark = e => e.rated ? h("span", { class: "rated-badge" }, "rated") : null;

// events lists the events in three parts and offers the form that makes
// one.
export async function events(main) {
  document.title = "Tournaments · Parlour";
  try { await games(); } catch { /* the games are named by their keys */ }
  const parts = [["started", "Under way", "No event is under way just now."],
    ["created", "To come", "No event is planned yet: make one below."],
    ["finished", "Finished", "No event has finished yet."]];
  const boxes = {};
  const byID = new Map();
  append(main, h("h1", {}, "Tournaments"),
    h("p", {}, "An arena pairs its players again as soon as their game ends, for a set time: a win scores 2 and a draw 1, and after two wins in a row every game scores double until one is not won. A Swiss plays a set number of rounds between the players who entered, never pairing the same two twice."));
  for (const [status, head] of parts) {
    boxes[status] = h("div", { id: "t-list-" + status, "aria-live": "polite" });
    append(main, h("section", { "aria-labelledby": "t-h-" + status }, h("h2", { id: "t-h-" + status }, head), boxes[status]));
  }
  const shown = {};
  const load = async () => {
    for (const [status, , none] of parts) {
      let list;
      try { list = (await call("GET", "/tournaments?status=" + status)).tournaments || []; } catch (e) {
        fill(boxes[status], h("p", { class: "error" }, "Cannot list the events: " + e.message));
        shown[status] = "";
        continue;
      }
      for (const e of list) byID.set(e.id, e);
      const now = JSON.stringify(list.map(e => [e.id, e.players, e.status, e.version, e.winners]));
      if (now === shown[status]) continue;
      shown[status] = now;
      redraw(boxes[status], () => fill(boxes[status], list.length ? eventTable(list, status) : h("p", { class: "muted" }, none)));
    }
  };
  await load();
  const stopTick = ticking(main, byID);
  const timer = setInterval(load, LIST_POLL);
  append(main, createForm());
  return () => { clearInterval(timer); stopTick(); };
}

// eventTable lists events as the list shows them. On a phone the kind and
// length give up their columns for a line under the event's name, so that
// when it starts or ends stays on the screen (app.css).
function eventTable(list, status) {
  const wide = new Set(["Kind", "Length"]);
  return h("div", { class: "table-frame", tabindex: 0, "aria-label": "Events" }, h("table", { class: "list events" },
    h("thead", {}, h("tr", {}, ["Event", "Game", "Kind", "Clock", "Length", status === "finished" ? "Winner" : "When", "Players"].map(c => h("th", { scope: "col", class: wide.has(c) ? "wide" : null }, c)))),
    h("tbody", {}, list.map(e => h("tr", { "data-event": e.id },
      h("td", {}, h("a", { href: "/tournaments/" + encodeURIComponent(e.id) }, e.name), ratedMark(e), lockMark(e),
        h("span", { class: "narrow muted" }, `${kindWords(e)}, ${lengthWords(e)}`)),
      h("td", {}, title(e.game), e.mode ? ` (${e.mode.replace(/_/g, " ")})` : ""),
      h("td", { class: "wide" }, kindWords(e)),
      h("td", {}, e.clock_text || clockWords(e.clock)),
      h("td", { class: "wide" }, lengthWords(e)),
      status === "finished" ? winnerCell(e)
        : h("td", { "data-when": e.id, "data-coarse": "1" }, whenWords(e, Date.now(), true)),
      // A capped event says how many it takes, and when it is full.
      h("td", {}, capped(e) ? `${e.players} of ${e.max_players}${e.players >= e.max_players && !over(e) ? " (full)" : ""}` : String(e.players)))))));
}

// winnerCell names a finished event's winner.
function winnerCell(e) {
  return h("td", { class: "winner" }, (e.winners || [])[0] || "nobody");
}

// createForm is the form that makes an event: for an account (the server
// says so to anyone else, and the form says it first).
function createForm() {
  const box = h("section", { class: "card", id: "t-create", "aria-labelledby": "t-create-h" }, h("h2", { id: "t-create-h" }, "Make an event"));
  if (!signedIn()) {
    append(box, h("p", {}, h("a", { href: "/account" }, "Sign in"), " to make an event of your own; anybody may join one."));
    return box;
  }
  const err = h("p", { class: "error", role: "alert", id: "t-create-error" });
  const kind = h("select", { id: "t-kind", name: "kind" }, h("option", { value: "arena" }, "Arena: play as many games as you can in a set time"),
    h("option", { value: "swiss" }, "Swiss: a set number of rounds"));
  const name = h("input", { id: "t-name", maxlength: 60, autocomplete: "off", placeholder: "left blank, the server names it" });
  const desc = h("textarea", { id: "t-description", maxlength: 1000, rows: 2 });
  const game = h("select", { id: "t-game" });
  const clock = clockControl("t-clock", clockPresets);
  const clockSel = clock.element.querySelector("select");
  // An event's games need a clock: the form starts on 3+2, and "No
  // clock" is no choice here.
  clockSel.value = JSON.stringify({ kind: "fischer", initial: 180, increment: 2 });
  for (const o of clockSel.options) if (o.value === "none") o.remove();
  const rated = h("input", { id: "t-rated", type: "checkbox" });
  const starts = h("input", { id: "t-starts", type: "datetime-local" });
  const minutes = h("input", { id: "t-minutes", type: "number", min: 1, max: 1440, step: 1, value: 30, inputmode: "numeric" });
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, step: 1, value: 5, inputmode: "numeric" });
  const seats = h("select", { id: "t-seats" }, [2, 3, 4].map(n => h("option", { value: n }, `${n} players a table`)));
  const password = h("input", { id: "t-password", type: "password", maxlength: 200, autocomplete: "new-password" });
  const minRated = h("input", { id: "t-min-rated", type: "number", min: 0, max: 1000, step: 1, value: 0, inputmode: "numeric" });
  const most = h("input", { id: "t-max-players", type: "number", min: 2, max: 5000, step: 1, inputmode: "numeric", placeholder: "no cap" });
  const minutesField = field("Minutes it runs", minutes, "Games are paired until the last minutes, so that every game can end within the arena.");
  const roundsField = field("Rounds", rounds, "A round begins when every game of the one before has ended.");
  const seatsField = field("Players a table", seats, "Word Fight and Quizl play well with three or four: first to last place score 6, 4, 2 and 0 points at four (4, 2 and 0 at three), as a win scores 2.");
  // The game's rule options, at their defaults; Rated holds those a
  // rated game may not change (options.js, holdForRated).
  const opts = h("fieldset", { id: "t-rules" });
  let drawn = "";
  let offered = [];
  let formEl = null; // the form, once made below
  const sync = () => {
    const swiss = kind.value === "swiss";
    minutesField.hidden = swiss;
    roundsField.hidden = !swiss;
    most.max = swiss ? MAX_SWISS : MAX_ARENA;
    const g = offered.find(x => x.name === game.value);
    seatsField.hidden = !(swiss && g && multiSeat.includes(g.name) && g.max_players >= 3);
    if (seatsField.hidden) seats.value = "2";
    // The name the server gives an event left unnamed.
    name.placeholder = g ? `left blank: ${g.title} ${swiss ? "Swiss" : "Arena"}` : "left blank, the server names it";
    if (g && drawn !== g.name) {
      drawn = g.name;
      fill(opts, h("legend", {}, `${g.title} rules`), g.options.length ? optionControls(g) : h("p", { class: "muted" }, "This game has no rule options."),
        h("p", { class: "help" }, "A rated event keeps the rules a rated game may not change at their defaults: ticking Rated holds them."));
    }
    // A rated event keeps the options a rated game may not change at
    // their defaults.
    if (g && formEl) holdForRated(formEl, g, rated.checked);
  };
  kind.addEventListener("change", sync);
  game.addEventListener("change", sync);
  rated.addEventListener("change", sync);
  games().then(gs => {
    // An event is between players: the games two or more may play.
    offered = gs.filter(g => g.max_players >= 2);
    fill(game, offered.map(g => h("option", { value: g.name }, g.title)));
    sync();
  }).catch(e => { err.textContent = "Cannot list the games: " + e.message; });
  const form = h("form", { class: "stack", id: "t-create-form", onsubmit: async ev => {
    ev.preventDefault();
    err.textContent = "";
    const body = { kind: kind.value, game: game.value, rated: rated.checked };
    const g = offered.find(x => x.name === game.value);
    const rules = g ? readOptions(form, g.options) : {};
    if (Object.keys(rules).length) body.rules = rules;
    try { body.clock = clock.value(); } catch (ex) { err.textContent = ex.message; return; }
    if (body.clock === null) { err.textContent = "An event's games need a clock: pick one."; return; }
    if (name.value.trim()) body.name = name.value.trim();
    if (desc.value.trim()) body.description = desc.value.trim();
    if (starts.value) {
      const at = new Date(starts.value);
      if (isNaN(at)) { err.textContent = "The start is not a date and time."; return; }
      body.starts = at.toISOString().replace(/\.\d+Z$/, "Z");
    }
    if (body.kind === "arena") body.minutes = Number(minutes.value);
    else body.rounds = Number(rounds.value);
    if (!seatsField.hidden && seats.value !== "2") body.seats = Number(seats.value);
    if (password.value) body.password = password.value;
    if (Number(minRated.value) > 0) body.min_rated_games = Number(minRated.value);
    if (most.value !== "") body.max_players = Number(most.value);
    try {
      const e = await call("POST", "/tournaments", body);
      toast(`${e.name} is made`);
      go("/tournaments/" + encodeURIComponent(e.id));
    } catch (ex) {
      err.textContent = ex.message;
    }
  } },
    field("Kind", kind),
    field("Name", name),
    field("Description", desc, "A few lines players read on the event's page."),
    field("Game", game),
    opts,
    clock.element,
    field("Rated", rated, "Rated games change the players' ratings; only players with accounts may enter a rated event."),
    field("Start", starts, "Leave it blank to start in a minute; as its creator you may also start it early."),
    minutesField, roundsField, seatsField,
    field("Password", password, "Optional: players need it to join. It is never shown on the event's page."),
    field("Least number of rated games to enter", minRated, "Optional: 0 lets anybody in."),
    field("Most players", most, `Optional: blank takes up to ${MAX_ARENA.toLocaleString("en")} in an arena, ${MAX_SWISS} in a Swiss. A Swiss needs enough players for its rounds.`),
    err,
    h("button", { class: "primary", type: "submit" }, "Make the event"));
  formEl = form;
  append(box, form);
  return box;
}

// event is one event's page, followed live while it is open.
export async function event(main, id) {
  id = decodeURIComponent(id);
  let e;
  try {
    e = await read("/tournaments/" + encodeURIComponent(id));
  } catch (ex) {
    append(main, h("h1", {}, ex.status === 404 ? "No such event" : "Cannot show this event"), h("p", { class: "error" }, ex.message),
      h("p", {}, h("a", { href: "/tournaments" }, "All tournaments")));
    return;
  }
  try { await games(); } catch { /* the game is named by its key */ }
  const head = h("h1", { id: "t-title" });
  const terms = h("p", { id: "t-terms" });
  const about = h("p", { id: "t-description", class: "about" });
  const when = h("p", { id: "t-when", class: "countdown", role: "timer", "aria-live": "off" });
  const winners = h("div", { id: "t-winners" });
  const yours = h("div", { id: "t-your-game", "aria-live": "assertive" });
  const actions = h("div", { id: "t-actions", class: "row" });
  const err = h("p", { class: "error", role: "alert", id: "t-error" });
  const standings = h("div", { id: "t-standings", "aria-live": "polite" });
  const theirs = h("div", { id: "t-player-games", "aria-live": "polite" });
  const playing = h("div", { id: "t-playing" });
  const played = h("div", { id: "t-games" });
  const chat = new EventChat(id, () => isCreator());
  append(main, head, terms, about, when, winners, yours, actions, err,
    h("div", { class: "layout" },
      h("div", { class: "stack" },
        h("section", { "aria-labelledby": "t-standings-h" }, h("h2", { id: "t-standings-h" }, "Standings"), standings, theirs),
        h("section", { "aria-labelledby": "t-playing-h", id: "t-playing-section" }, h("h2", { id: "t-playing-h" }, "Games under way"), playing),
        h("section", { "aria-labelledby": "t-games-h" }, h("h2", { id: "t-games-h" }, "Games played"), played,
          h("p", {}, h("a", { href: `/api/v1/tournaments/${encodeURIComponent(id)}/export`, download: `${id}.ndjson`, id: "t-export" }, "Download every game's record (NDJSON)")))),
      h("aside", { class: "stack", "aria-label": "Chat" }, chat.el)));

  let shownVersion = -1, shownJSON = "", actionsKey = "", picked = "";
  let first = true;           // the first answer: a game already under way is not a new pairing
  const known = new Set();    // tables of the event seen under way
  let lastPlaying = "";       // the playing tables asked about, to ask /identity/tables once a change

  // inIt says whether this browser's player is in the event: as the
  // server says to a reader it knows (joined), or else an account by its
  // name in the standings, a guest by the join made here.
  const inIt = () => {
    if (typeof e.joined === "boolean") return e.joined && !over(e);
    const me = signedIn();
    if (me) return (e.standings || []).some(s => same(s.name, me) && !s.left);
    return !!joinedHere()[id] && !over(e);
  };
  const isCreator = () => !!signedIn() && same(e.creator, signedIn());

  const draw = () => {
    document.title = `${e.name} · Parlour`;
    fill(head, e.name, ratedMark(e), lockMark(e));
    fill(terms, [kindWords(e), title(e.game) + (e.mode ? ` (${e.mode.replace(/_/g, " ")})` : ""), `clock ${clockWords(e.clock) || e.clock_text}`,
      e.rated ? "rated" : "casual", lengthWords(e), plural(e.players, "player"),
      e.min_rated_games ? `at least ${plural(e.min_rated_games, "rated game")} to enter` : "",
      capped(e) ? `at most ${plural(e.max_players, "player")}` : "",
      e.creator ? `made by ${e.creator}` : "made by the house"].filter(Boolean).join(" · "));
    about.textContent = e.description || "";
    about.hidden = !e.description;
    when.dataset.when = e.id;
    when.dataset.sentence = "1";
    when.textContent = sentence(whenWords(e, Date.now()), true);
    drawWinners();
    drawActions();
    drawStandings();
    drawTheirs();
    drawGames();
  };

  // The winners are named as the standings name them: a guest has no
  // profile to link to, and the page cannot tell one from an account.
  const drawWinners = () => {
    if (e.status !== "finished") { fill(winners); return; }
    const w = e.winners || [];
    const places = ["First", "Second", "Third"];
    fill(winners, h("section", { class: "card winners", "aria-labelledby": "t-winners-h" },
      h("h2", { id: "t-winners-h" }, w.length ? `Won by ${w[0]}` : "Nobody won"),
      w.length ? h("ol", { class: "podium" }, w.map((n, i) => h("li", {}, `${places[i] || ""}: ${n}`))) : null,
      h("p", { class: "muted" }, "The standings below are kept for good.")));
  };

  const drawActions = () => {
    // An account writes in the chat; a guest once in the event (as the
    // server tells a reader it knows, or by a join made here).
    chat.gate(!!signedIn() || (typeof e.joined === "boolean" ? e.joined : !!joinedHere()[id]));
    // A Swiss under way takes back only its own field: a player who
    // withdrew may come back, unless it withdrew them for no-shows.
    const myLine = (e.standings || []).find(s => s.you);
    const back = e.kind === "swiss" && e.status === "started" && !!myLine && !!myLine.left;
    const full = !myLine && e.max_players && e.players >= e.max_players;
    // The server tells an account not in the event its rated games in
    // the event's pool when the event asks for some.
    const short = e.rated_games != null && e.rated_games < (e.min_rated_games || 0);
    const key = [e.status, inIt(), e.password, isCreator(), signedIn(), back, back && myLine.forfeits, full, short, e.cannot_start || ""].join();
    if (key === actionsKey) return;
    actionsKey = key;
    err.textContent = "";
    if (e.status === "cancelled") { fill(actions, h("p", { id: "t-cancelled" }, `${e.creator ? "Its creator" : "A moderator"} cancelled this event: it will not be played.`)); return; }
    if (over(e)) { fill(actions); return; }
    const buttons = [];
    if (inIt()) {
      buttons.push(h("span", { id: "t-in" }, e.status === "created" ? "You are in: the event pairs you when it starts." : "You are in."),
        h("button", { type: "button", id: "t-leave", onclick: leave }, e.kind === "swiss" && e.status === "started" ? "Withdraw" : "Leave"));
    } else if (back && (myLine.forfeits || 0) >= NO_SHOWS) {
      buttons.push(h("span", { class: "muted", id: "t-withdrawn" }, `You were withdrawn after ${plural(myLine.forfeits, "game")} you did not show up for, and play no more of this Swiss.`));
    } else if (full && !(e.kind === "swiss" && e.status === "started")) {
      // Full: nobody new may join, though one it has seen may come back.
      buttons.push(h("span", { class: "muted", id: "t-full" }, `This event is full: it takes ${plural(e.max_players, "player")}.`));
    } else if ((e.rated || e.min_rated_games) && !signedIn() && !(e.kind === "swiss" && e.status === "started")) {
      // The server refuses guests rated games, and events that ask for
      // rated games: no join to offer them.
      buttons.push(h("span", { class: "muted", id: "t-accounts-only" }, `${e.rated ? "A rated event" : "This event asks for rated games"}: only players with accounts play in it. `,
        h("a", { href: "/account" }, "Sign in or sign up"), " to join."));
    } else if (short && !back && !(e.kind === "swiss" && e.status === "started")) {
      buttons.push(h("span", { class: "muted", id: "t-short" },
        `This event asks for ${plural(e.min_rated_games, "rated game")} in its rating pool; you have played ${e.rated_games}.`));
    } else if (back || !(e.kind === "swiss" && e.status === "started")) {
      const pw = e.password ? h("input", { id: "t-join-password", type: "password", autocomplete: "off", "aria-label": "The event's password", placeholder: "password" }) : null;
      buttons.push(h("form", { class: "row", id: "t-join-form", onsubmit: ev => { ev.preventDefault(); join(pw); } },
        pw ? h("label", { for: "t-join-password" }, "Password") : null, pw,
        h("button", { type: "submit", class: "primary", id: "t-join" }, back ? "Join again" : "Join")));
    } else {
      buttons.push(h("span", { class: "muted" }, "This Swiss has started: it plays with the field it started with."));
    }
    if (isCreator() && e.status === "created") {
      // The server says why it would refuse an early start (a Swiss
      // whose field is too small for its rounds): no button, its words.
      buttons.push(e.cannot_start ? h("span", { class: "muted", id: "t-cannot-start" }, `Not yet startable: ${e.cannot_start}.`)
        : h("button", { type: "button", id: "t-start", onclick: start }, "Start now"),
      h("button", { type: "button", id: "t-cancel", onclick: cancel }, "Cancel the event"));
    }
    fill(actions, buttons);
  };

  // The standings are drawn anew at every change of the event and when a
  // player is picked: the keyboard stays on the control it was on, found
  // again by its player's row.
  const drawStandings = () => redraw(standings, standingsTable, c => {
    const row = c.closest("tr");
    return `${row ? row.dataset.player : ""} ${c.className} ${c.getAttribute("href") || ""}`;
  });
  const standingsTable = () => {
    const rows = e.standings || [];
    if (!rows.length) { fill(standings, h("p", { class: "muted" }, e.status === "created" ? "Nobody has joined yet." : "Nobody played.")); return; }
    const swiss = e.kind === "swiss";
    // The frame scrolls a wide table sideways on a phone.
    fill(standings, h("div", { class: "table-frame", tabindex: 0, "aria-label": "Standings" }, h("table", { class: "list standings" },
      h("thead", {}, h("tr", {}, ["Rank", "Player", "Score", "Games", "Won", "Drawn", "Lost", ...(swiss ? [
        h("abbr", { title: "Buchholz: the sum of the opponents' scores" }, "Buchholz"),
        h("abbr", { title: "Sonneborn-Berger: the opponents' scores, weighted by the result against each" }, "S-B")] : []), "Now"]
        .map(c => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map(s => h("tr", { "data-player": s.name, class: [s.left ? "left" : "", s.you || same(s.name, signedIn()) ? "me" : ""].join(" ").trim() },
        h("td", {}, String(s.rank)),
        h("td", {}, h("button", { type: "button", class: "linkish player-pick", "aria-pressed": String(picked === s.name), "aria-label": `Show ${s.name}'s games`,
          onclick: () => { picked = picked === s.name ? "" : s.name; drawStandings(); drawTheirs(); } }, s.name),
        // The player's own line is bold, and says so in words too.
        s.you || same(s.name, signedIn()) ? h("span", { class: "muted" }, " (you)") : null,
        s.streak ? h("span", { class: "badge streak", title: "on a streak: two wins in a row, so every game scores double until one is not won" }, "streak") : null,
        // A Swiss's byes score as wins; its forfeits are games lost by not
        // showing up.
        s.byes || s.forfeits ? h("span", { class: "muted" }, " (", [s.byes ? plural(s.byes, "bye") : "", s.forfeits ? plural(s.forfeits, "no-show") : ""].filter(Boolean).join(", "), ")") : null),
        h("td", { class: "score" }, String(s.score)),
        h("td", {}, String(s.games)),
        h("td", {}, String(s.wins)), h("td", {}, String(s.draws)), h("td", {}, String(s.losses)),
        swiss ? [h("td", {}, String(s.buchholz)), h("td", {}, String(s.sonneborn_berger))] : null,
        h("td", {}, s.left ? (swiss ? "withdrawn" : "left")
          : s.playing ? h("a", { href: `/t/${encodeURIComponent(s.playing)}?watch=1`, "aria-label": `Watch ${s.name}'s game` }, "playing")
            : e.status === "started" ? h("span", { class: "muted" }, "waiting") : ""))))))
    );
  };

  const gameLine = (g, who) => {
    const you = who ? g.players.indexOf(who) : -1;
    const vs = you >= 0 ? g.players.filter((_, i) => i !== you) : g.players;
    let result = "";
    if (g.points && you >= 0) {
      const best = Math.max(...g.points), worst = Math.min(...g.points);
      const pts = plural(g.points[you], "point");
      // At a table of three or four a place scores: the points say it.
      result = g.points.length > 2 ? pts : `${best === worst ? "drew" : g.points[you] === best ? "won" : "lost"}, ${pts}`;
    } else if (g.points) {
      result = g.players.map((p, i) => `${p} ${g.points[i]}`).join(", ");
    }
    const link = g.ended
      ? (g.table.startsWith("unplayed-") ? h("span", { class: "muted" }, "not played") : h("a", { href: "/replay?table=" + encodeURIComponent(g.table), "aria-label": `Replay ${g.players.join(" v ")}` }, "Replay"))
      : h("a", { class: "button", href: `/t/${encodeURIComponent(g.table)}?watch=1`, "aria-label": `Watch ${g.players.join(" v ")}` }, "Watch");
    return h("li", { "data-table": g.table },
      g.round ? `Round ${g.round}: ` : "",
      you >= 0 ? (vs.length ? `against ${vs.join(", ")}` : "alone") : g.players.join(" v "),
      result ? ` (${result})` : g.ended ? "" : " (under way)", " ", link);
  };

  const drawTheirs = () => {
    if (!picked) { fill(theirs); return; }
    const gs = (e.games || []).filter(g => g.players.includes(picked));
    fill(theirs, h("section", { class: "card", "aria-labelledby": "t-theirs-h" },
      h("h3", { id: "t-theirs-h" }, `${picked}'s games`),
      gs.length ? h("ul", {}, gs.map(g => gameLine(g, picked))) : h("p", { class: "muted" }, `${picked} has played no game of this event yet.`)));
  };

  const drawGames = () => {
    const now = e.playing || [];
    // Over, an event has nothing under way to list.
    playing.parentElement.hidden = over(e);
    fill(playing, now.length ? h("ul", { class: "t-live" }, now.map(g => gameLine(g, ""))) : h("p", { class: "muted" }, e.status === "started" ? "None just now." : "None."));
    const done = (e.games || []).filter(g => g.ended).slice(0, 50);
    fill(played, done.length ? h("ul", {}, done.map(g => gameLine(g, ""))) : h("p", { class: "muted" }, over(e) ? "None." : "None yet."));
  };

  // mine looks for this player's table among the event's games under way,
  // asking the server for the player's tables when those games change,
  // and leads them there: at once for a game paired while the page is
  // open, by a prominent link for one that was under way already.
  let myTable = null; // the player's table under way, as last asked
  let retried = "";   // the games under way asked about twice
  const mine = async () => {
    const now = (e.playing || []).map(g => g.table);
    const fresh = now.filter(t => !known.has(t));
    for (const t of now) known.add(t);
    const wasFirst = first;
    first = false;
    const key = now.join();
    if (!inIt() || !now.length) {
      lastPlaying = key;
      myTable = null;
    } else if (key !== lastPlaying) {
      lastPlaying = key;
      let tables;
      try { tables = (await call("GET", "/identity/tables", undefined, await myToken())).tables || []; } catch { lastPlaying = ""; return; }
      myTable = tables.find(x => now.includes(x.id)) || null;
      if (!myTable && retried !== key) {
        // Asked once more a little later, should the player's tables
        // not have caught up with the event's.
        retried = key;
        setTimeout(() => { if (!closed && lastPlaying === key) { lastPlaying = ""; mineSoon(); } }, POLL);
      }
      if (myTable) {
        const t = myTable;
        rememberSeat(t.id, { seat: t.seat, token: signedIn() ? null : await myToken(), game: e.game });
        if (!wasFirst && fresh.includes(t.id) && !openedHere(t.id)) {
          toast("Your game is ready");
          go("/t/" + encodeURIComponent(t.id));
        }
      }
    }
    drawYours();
  };

  // mineSoon runs mine for the event as it stands, one run at a time: an
  // answer that comes while one runs has it run again after.
  let mining = null, mineAgain = false;
  const mineSoon = () => {
    if (mining) { mineAgain = true; return; }
    mining = mine().catch(() => {}).finally(() => {
      mining = null;
      if (mineAgain) { mineAgain = false; mineSoon(); }
    });
  };

  // drawYours shows the player's game under way, or, in a Swiss round
  // under way without them, either that their game of it is over (the
  // next round waits for the others') or their bye (an odd field's). It
  // draws from the event as it stands, so that a round's number that
  // comes after its tables still shows.
  let yoursKey = "";
  const drawYours = () => {
    const t = myTable;
    const waiting = !t && inIt() && e.kind === "swiss" && e.status === "started" && e.round > 0 && (e.playing || []).length > 0;
    // The player's line, as the server marks the reader's, and their
    // name as the event's games name them.
    const line = (e.standings || []).find(s => s.you) || {};
    const me = line.name || signedIn();
    const ofRound = waiting ? (e.games || []).filter(g => g.round === e.round && g.players.some(p => same(p, me))) : [];
    // A game of theirs still under way, its table not yet among theirs
    // as last asked, is neither; nor is a round paired before they came
    // back to the event.
    const played = ofRound.length > 0 && ofRound.every(g => g.ended);
    const bye = waiting && !!line.bye;
    const next = e.round < e.rounds ? `round ${e.round + 1} begins` : "the event ends";
    const against = t ? ((e.playing || []).find(g => g.table === t.id) || { players: [] }).players.filter((_, i) => i !== t.seat) : [];
    const key = JSON.stringify([t && t.id, against, bye && e.round, played && e.round]);
    if (key === yoursKey) return;
    yoursKey = key;
    if (t) {
      fill(yours, h("div", { class: "banner your-game" },
        h("p", {}, h("strong", {}, "Your game is ready"), against.length ? `: against ${against.join(", ")}.` : "."),
        h("a", { class: "button primary", id: "t-go", href: "/t/" + encodeURIComponent(t.id) }, "Go to your table")));
    } else if (played) {
      fill(yours, h("p", { id: "t-round-done", class: "banner" }, `Your game of round ${e.round} is over: ${next} when every game of this one has ended.`));
    } else if (bye) {
      fill(yours, h("p", { id: "t-bye", class: "banner" }, `You sit out round ${e.round}: a bye, which scores as a win.`));
    } else {
      fill(yours);
    }
  };

  const take = ans => {
    e = ans;
    if (!signedIn()) follow(id, inIt() && !over(e));
    const j = JSON.stringify(e);
    if (e.version !== shownVersion || j !== shownJSON) {
      shownVersion = e.version;
      shownJSON = j;
      draw();
    }
    // Whether a guest is in the event is this browser's to know as well
    // as the answer's, and every answer (the page's wait's, a join's, a
    // start's) may be the newest: the buttons and the player's own game
    // are looked at every time (their keys keep them from being drawn
    // again for nothing).
    drawActions();
    mineSoon();
  };

  async function join(pw) {
    err.textContent = "";
    if (pw && !pw.value) { err.textContent = "This event has a password: type it first."; pw.focus(); return; }
    const body = pw && pw.value ? { password: pw.value } : {};
    try {
      const ans = await call("POST", `/tournaments/${encodeURIComponent(id)}/join`, body, await myToken());
      if (!signedIn()) markJoined(id, true);
      take(ans);
      toast(`You joined ${e.name}`);
    } catch (ex) {
      if (!signedIn() && ex.status === 409 && /already/.test(ex.message)) { markJoined(id, true); actionsKey = ""; drawActions(); }
      err.textContent = ex.message;
    }
  }

  async function leave() {
    err.textContent = "";
    try {
      const ans = await call("POST", `/tournaments/${encodeURIComponent(id)}/leave`, {}, await myToken());
      markJoined(id, false);
      take(ans);
      toast(e.status === "started" ? `You left ${e.name}; your points stay.` : `You left ${e.name}`);
    } catch (ex) {
      if (!signedIn() && ex.status === 409) { markJoined(id, false); actionsKey = ""; drawActions(); }
      err.textContent = ex.message;
    }
  }

  async function start() {
    err.textContent = "";
    try { take(await call("POST", `/tournaments/${encodeURIComponent(id)}/start`, {})); } catch (ex) { err.textContent = ex.message; }
  }

  // cancel calls the event off, once its creator confirms: it cannot be
  // undone, and its players are told.
  async function cancel() {
    err.textContent = "";
    if (!confirm(`Cancel ${e.name}? It will not be played, and its players are told.`)) return;
    try {
      take(await call("POST", `/tournaments/${encodeURIComponent(id)}/cancel`, {}));
      toast(`You cancelled ${e.name}`);
    } catch (ex) { err.textContent = ex.message; }
  }

  take(e);
  await chat.load();
  const byID = { get: k => (k === e.id ? e : undefined) };
  const stopTick = ticking(main, byID);
  let closed = false;
  const stop = new AbortController();
  let waitTimer = null, chatTimer = null;
  const pause = ms => new Promise(res => { waitTimer = setTimeout(res, ms); });
  // The page follows the event with one request at a time: it sends the
  // version it shows, and the server answers when the event moves on (or
  // after a while, unchanged). A quick answer is followed by a pause, so
  // that a burst of changes is read as one; a failure waits before trying
  // again. A finished or cancelled event changes no more.
  (async () => {
    while (!closed && !over(e)) {
      const asked = Date.now();
      try {
        take(await read(`/tournaments/${encodeURIComponent(id)}?version=${e.version}`, stop.signal));
      } catch (ex) {
        if (closed) return;
        // An address that holds many waits open is refused one more:
        // the page asks plainly then, every few seconds.
        if (ex.status === 429 || ex.status === 503) {
          try { take(await read("/tournaments/" + encodeURIComponent(id), stop.signal)); } catch { /* next time */ }
        }
        await pause(POLL);
        continue;
      }
      if (Date.now() - asked < 1000) await pause(1000);
    }
  })();
  // The chat has no version to wait on: it is asked every few seconds.
  const chatPoll = async () => {
    await chat.load();
    if (!closed) chatTimer = setTimeout(chatPoll, POLL);
  };
  chatTimer = setTimeout(chatPoll, POLL);
  return () => { closed = true; stop.abort(); clearTimeout(waitTimer); clearTimeout(chatTimer); stopTick(); };
}

// EventChat is an event's chat room: its lines, asked for with the event,
// and a line to write in. A server without the room's route answers 404,
// and the panel stays hidden.
class EventChat {
  // creator says whether the viewer made the event: they may mute a
  // writer in its chat.
  constructor(id, creator) {
    this.id = id;
    this.creator = creator;
    this.muted = new Set(); // names muted from this page
    this.seq = 0;
    this.gone = false;
    this.lines = new Map();
    this.log = h("ol", { class: "chat-log", id: "t-chat-log", "aria-label": "Chat messages", "aria-live": "polite", tabindex: 0 });
    // The box counts as the server does (chat.js), as a table's does:
    // a cap on the box's own length would count an accent or an emoji's
    // joiner apart, and cut a message the server takes.
    this.input = h("input", { id: "t-chat-text", type: "text", autocomplete: "off", "aria-describedby": "t-chat-count", "aria-label": "Chat message" });
    this.count = h("span", { class: "help", id: "t-chat-count" });
    showCount(this.count, this.input);
    this.input.addEventListener("input", () => showCount(this.count, this.input));
    this.err = h("p", { class: "error", role: "alert", id: "t-chat-error" });
    this.form = h("form", { class: "stack", id: "t-chat-form", onsubmit: ev => { ev.preventDefault(); this.send(); } },
      h("div", { class: "row" }, this.input, h("button", { type: "submit", id: "t-chat-send" }, "Send")), this.count, this.err);
    // The server takes lines from accounts and from the event's players:
    // anyone else reads the chat, and is told what would let them write.
    this.closed = h("p", { class: "muted", id: "t-chat-closed", hidden: true }, "Sign in, or join the event, to write in its chat.");
    // A player with an account reports a line of the chat to the
    // moderators, as at a table (report.js).
    this.reportSlot = h("div", { id: "t-chat-report" });
    this.actions = h("div", { class: "row", id: "t-chat-actions" });
    this.el = h("section", { class: "card", id: "t-chat", "aria-labelledby": "t-chat-h", hidden: true },
      h("h2", { id: "t-chat-h" }, "Chat"), this.log, this.form, this.closed, this.actions, this.reportSlot);
  }

  // gate shows the line to write in when the viewer may write (open),
  // and else what would let them.
  gate(open) {
    this.form.hidden = !open;
    this.closed.hidden = open;
  }

  // load asks for the lines after the last one seen, page by page
  // while the room says more follow (a few pages at most a time).
  async load() {
    for (let page = 0; page < 5 && !this.gone; page++) {
      let ans;
      try {
        ans = await read(`/tournaments/${encodeURIComponent(this.id)}/chat?since=${this.seq}`);
      } catch (e) {
        if (e.status === 404 || e.status === 405 || e.status === 501) { this.gone = true; this.el.hidden = true; this.el.dataset.state = "none"; }
        return;
      }
      this.el.hidden = false;
      this.el.dataset.state = "live";
      this.take(Array.isArray(ans) ? ans : (ans && (ans.chat || ans.lines)) || []);
      if (ans && typeof ans.last === "number") this.seq = Math.max(this.seq, ans.last);
      if (!ans || !ans.more) return;
    }
  }

  take(lines) {
    let changed = false;
    for (const l of lines) {
      if (!this.lines.has(l.seq)) { this.lines.set(l.seq, l); changed = true; }
      this.seq = Math.max(this.seq, l.seq);
    }
    if (!changed && this.log.firstChild) return;
    this.draw();
  }

  draw() {
    const all = [...this.lines.values()].sort((a, b) => a.seq - b.seq);
    const atEnd = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    fill(this.log, all.length ? all.map(l => h("li", { "data-seq": l.seq }, h("strong", {}, l.name || "someone"),
      l.player === "guest" ? h("span", { class: "guest-mark" }, " (guest)") : null, ": ", l.text, this.muteButton(l)))
      : h("li", { class: "muted" }, "No messages yet."));
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
    this.actions.hidden = !signedIn();
    if (signedIn() && !this.actions.firstChild) {
      this.actions.append(chatReportButton("tournament", this.id, () => ({ lines: [...this.lines.values()] }), this.reportSlot));
    }
  }

  // muteButton lets the event's creator mute the writer of line l (or
  // let them write again), but never themselves.
  muteButton(l) {
    if (!this.creator() || !l.name || same(l.name, signedIn())) return null;
    const on = this.muted.has(l.name.toLowerCase());
    return [" ", h("button", { type: "button", class: "linkish chat-mute", "aria-pressed": String(on), "aria-label": `${on ? "Unmute" : "Mute"} ${l.name} in this chat`,
      onclick: () => this.mute(l.name, !on) }, on ? "Unmute" : "Mute")];
  }

  async mute(name, muted) {
    this.err.textContent = "";
    try {
      await call("POST", `/tournaments/${encodeURIComponent(this.id)}/chat/mute`, { name, muted });
      if (muted) this.muted.add(name.toLowerCase()); else this.muted.delete(name.toLowerCase());
      toast(muted ? `${name} can no longer write here` : `${name} may write here again`);
      this.draw();
    } catch (e) { this.err.textContent = e.message; }
  }

  async send() {
    this.err.textContent = "";
    const text = this.input.value.trim();
    if (!text) { this.err.textContent = "Write a message first."; return; }
    try {
      const l = await call("POST", `/tournaments/${encodeURIComponent(this.id)}/chat`, { text }, signedIn() ? null : await identityToken(myName()));
      this.input.value = "";
      showCount(this.count, this.input);
      if (l && typeof l.seq === "number") this.take([l]);
    } catch (e) { this.err.textContent = e.message; }
  }
}
