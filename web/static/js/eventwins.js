// eventwins.js: the events a player finished among the winners of, on
// their profile (players.js loads it there only). The profile's answer
// lists them (podiums: the latest twenty, newest first); each links to the
// event's page, where its standings are kept.

import { h, fill, plural } from "./dom.js";
import { title } from "./catalog.js";

const places = ["", "1st", "2nd", "3rd"];

// wonSection answers the profile's "Events" section for profile p.
export function wonSection(p) {
  const list = h("div", { id: "profile-events" });
  const sec = h("section", { class: "card", "aria-labelledby": "profile-events-h" }, h("h2", { id: "profile-events-h" }, "Events"), list);
  const podiums = p.podiums || [];
  if (!podiums.length) {
    fill(list, h("p", { class: "muted" }, "No podium yet."));
    return sec;
  }
  const won = podiums.filter(x => x.place === 1).length;
  const said = won === podiums.length ? `${p.name} won ${plural(won, "event")}:`
    : won ? `${p.name} won ${plural(won, "event")}, and finished on the podium of ${plural(podiums.length, "event")}:`
      : `${p.name} finished on the podium of ${plural(podiums.length, "event")}:`;
  fill(list,
    h("p", { id: "profile-events-said" }, said),
    h("ul", { class: "recent" }, podiums.map(x => h("li", { "data-event": x.event, "data-place": x.place },
      h("strong", {}, places[x.place] || `#${x.place}`), " ",
      h("a", { href: "/tournaments/" + encodeURIComponent(x.event) }, x.name), ` · ${title(x.game)}`,
      h("span", { class: "muted" }, ` · ${plural(x.of, "player")} · ${new Date(x.at).toLocaleDateString()}`)))));
  return sec;
}
