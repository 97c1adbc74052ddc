// eventwins.js: the events a player won, on their profile (players.js
// loads it there only). The server's answers name each finished event's
// winners, first place first; the profile lists those the player came
// first in, newest first, each linking to the event's page, where its
// standings are kept.
//
// The API has no list of one player's wins: this reads the finished
// events the list gives (the newest hundred) and keeps the player's.

import { h, append, fill, plural } from "./dom.js";
import { call } from "./api.js";
import { title } from "./catalog.js";

const same = (a, b) => String(a || "").toLowerCase() === String(b || "").toLowerCase();

// wonSection answers the profile's "Events won" section for name, filled
// once the events come.
export function wonSection(name) {
  const list = h("div", { id: "profile-events" });
  const sec = h("section", { class: "card", "aria-labelledby": "profile-events-h" }, h("h2", { id: "profile-events-h" }, "Events won"), list);
  call("GET", "/tournaments?status=finished").then(ans => {
    const won = (ans.tournaments || []).filter(e => e.winners && same(e.winners[0], name));
    if (!won.length) { fill(list, h("p", { class: "muted" }, "None yet.")); return; }
    fill(list, h("p", {}, `${name} won ${plural(won.length, "event")}${won.length === 100 ? " or more" : ""}:`),
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
