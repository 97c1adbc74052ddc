// eventwins.js: the winners of finished events, and the events a player
// won, on their profile (players.js loads it there only). A finished
// event names its winners, first place first; the profile lists those
// the player came first in, newest first, each linking to the event's
// page, where its standings are kept.
//
// The API has no list of one player's wins: the profile reads the
// finished events the list gives (the newest hundred) and keeps the
// player's. The list may leave an event's winners unnamed (empty names,
// the entrants not read with it); winnersOf then reads the event itself,
// once a page, since a finished event changes no more.

import { h, append, fill, plural } from "./dom.js";
import { call } from "./api.js";
import { title } from "./catalog.js";

const same = (a, b) => String(a || "").toLowerCase() === String(b || "").toLowerCase();

// DETAILS bounds how many finished events a page reads one by one for
// their winners when the list leaves them unnamed.
const DETAILS = 20;

const read = new Map(); // event id -> the promise of its winners

// winnersOf answers the winners of finished event e, as the list gave
// them or, when it named none, as the event's own answer does.
export function winnersOf(e) {
  if ((e.winners || []).some(Boolean)) return Promise.resolve(e.winners);
  if (!e.winners || !e.winners.length) return Promise.resolve([]);
  if (!read.has(e.id)) {
    read.set(e.id, call("GET", "/tournaments/" + encodeURIComponent(e.id)).then(x => x.winners || [], err => { read.delete(e.id); throw err; }));
  }
  return read.get(e.id);
}

// wonSection answers the profile's "Events won" section for name, filled
// once the events come.
export function wonSection(name) {
  const list = h("div", { id: "profile-events" });
  const sec = h("section", { class: "card", "aria-labelledby": "profile-events-h" }, h("h2", { id: "profile-events-h" }, "Events won"), list);
  call("GET", "/tournaments?status=finished").then(async ans => {
    const all = ans.tournaments || [];
    let unnamed = 0;
    const won = [];
    for (const e of all) {
      let w = e.winners || [];
      if (w.length && !w.some(Boolean)) {
        if (++unnamed > DETAILS) continue;
        try { w = await winnersOf(e); } catch { continue; }
      }
      if (same(w[0], name)) won.push(e);
    }
    if (!won.length) { fill(list, h("p", { class: "muted" }, "None yet.")); return; }
    fill(list, h("p", {}, `${name} won ${plural(won.length, "event")}${all.length >= 100 ? " of the latest hundred" : ""}:`),
      h("ul", { class: "recent" }, won.map(e => h("li", { "data-event": e.id },
        h("a", { href: "/tournaments/" + encodeURIComponent(e.id) }, e.name), ` · ${title(e.game)}`,
        e.ends ? h("span", { class: "muted" }, ` · ${new Date(e.ends).toLocaleDateString()}`) : null))));
  }).catch(e => {
    // A server without events has no wins to show.
    if (e.status === 501 || e.status === 404) { sec.hidden = true; return; }
    append(list, h("p", { class: "error" }, "Cannot list the events: " + e.message));
  });
  return sec;
}
