// catalog.js: the games this server offers, as GET /api/v1/games lists
// them (docs/protocol.md, "Games"): each game's name, its title, its
// player counts, whether a seat hides a setup, and its rule options.
// The list is fetched once for the page and kept here, so that every
// screen names a game as the server does and no title is written twice.

import { call } from "./api.js";
import { h } from "./dom.js";

// order is the order the games are offered in: the quickest to learn
// first. A game the server adds goes last.
const order = ["quizl", "salvo", "wordfight", "nymphabet"];
const rank = name => { const i = order.indexOf(name); return i < 0 ? order.length : i; };

let list = null;    // the games, once fetched
let pending = null; // the fetch under way, if any

// games answers the games in the order they are offered, fetching them
// on first use; a fetch that fails is tried again on the next call.
export function games() {
  if (list) return Promise.resolve(list);
  if (!pending) {
    pending = call("GET", "/games")
      .then(gs => { list = gs.sort((a, b) => rank(a.name) - rank(b.name)); return list; })
      .finally(() => { pending = null; });
  }
  return pending;
}

// gameInfo answers one game's entry, or undefined for a name the server
// does not offer.
export async function gameInfo(name) {
  return (await games()).find(g => g.name === name);
}

// known says whether the games have been fetched, so that title names
// them as the server does; code that must draw at once waits for games
// when it is not.
export const known = () => list !== null;

// title names a game as its players read it ("Sightless Word Fight" for
// wordfight). Before the games are fetched, or for a game the server does
// not offer, it answers the name itself: wait for games first.
export function title(name) {
  const g = list && list.find(g => g.name === name);
  return g ? g.title : name;
}

// poolTitle names a rating pool: its game's title, and the variant rated
// apart in brackets ("Nymphabet (cyclic)" for nymphabet-cyclic; see
// docs/protocol.md, "Rated tables").
export function poolTitle(pool) {
  const i = String(pool).indexOf("-");
  return i < 0 ? title(pool) : `${title(pool.slice(0, i))} (${pool.slice(i + 1).replace(/_/g, " ")})`;
}

let lexList = null; // the word lists, once fetched

// lexicons answers the word lists a table of a word game may take, as GET
// /api/v1/lexicons lists them: { lexicons: [{name, title, words}],
// default }. A fetch that fails is tried again on the next call.
export async function lexicons() {
  if (!lexList) lexList = await call("GET", "/lexicons");
  return lexList;
}

// lexiconTitle names a word list as its players read it ("English, common
// words (en-common)"); before the lists are fetched, its name alone.
export function lexiconTitle(name) {
  const l = lexList && lexList.lexicons.find(l => l.name === name);
  return l ? `${l.title} (${l.name})` : name;
}

// forfeitWords says, of a finished game in a player's history (GET
// /api/v1/players/{name}/games), whom the server played for and why
// ("Ann ran out of time"), so that a loss on time reads as one; me is how
// the line names its own player ("you", or their name).
export function forfeitWords(g, me) {
  return [[me, g.forfeited], ...(g.opponents || []).map(o => [o.kind === "deleted" ? "a deleted player" : o.name, o.forfeited])]
    .filter(([, why]) => why)
    .map(([who, why]) => why === "claim" ? `${who} ${who === "you" ? "were" : "was"} away, and the game was claimed` : `${who} ran out of time`);
}

// eventWords names, on a line of a player's history, the event that
// paired the game, linked to its page (" · in Friday Swiss, round 2");
// nothing for any other game. An aborted game of an event still counted
// there, which its page shows.
export function eventWords(g) {
  if (!g.event) return null;
  return [" · in ", h("a", { class: "event", href: "/tournaments/" + encodeURIComponent(g.event.id) }, g.event.name),
    g.event.round ? `, round ${g.event.round}` : ""];
}
