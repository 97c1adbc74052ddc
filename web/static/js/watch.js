// watch.js: the games in play that anybody may watch (GET
// /api/v1/tables?status=playing), each with how many watch it, a choice of
// game, and the featured game (GET /api/v1/tv) on top. Each opens its
// table as a spectator, who sees what every spectator sees.

import { h, clear, append, fill, guestName, redraw } from "./dom.js";
import { call } from "./api.js";
import { games, title } from "./catalog.js";

// watching says how many watch a game, in words.
export function watching(n) {
  if (!n) return "nobody watching yet";
  return `${n} watching`;
}

// players names a game's seats as the lobby shows them.
const players = t => (t.seats || []).map(s => s.kind === "computer" ? `the computer (${s.level})` : guestName(s)).join(" v ");

// watchLink opens table t as a spectator.
const watchLink = (t, id) => h("a", { class: "button", id, href: `/t/${t.id}?watch=1`, "aria-label": `Watch ${t.title || title(t.game)}: ${players(t)}` }, "Watch");

// watchList fills section with the games to watch and answers the
// function that refreshes it.
export async function watchList(section) {
  let gs = [];
  try { gs = await games(); } catch { /* the choice offers every game alone */ }
  const gameSel = h("select", { id: "watch-game" }, h("option", { value: "" }, "Every game"), gs.map(g => h("option", { value: g.name }, g.title)));
  const featured = h("div", { id: "watch-featured" });
  const box = h("div", { id: "watch-list", "aria-live": "polite" });
  append(section, h("h2", { id: "watch-title" }, "Games to watch"), featured,
    h("div", { class: "row" }, h("label", { for: "watch-game" }, "Show:"), gameSel), box);
  let shown = "";
  const load = async () => {
    const q = gameSel.value ? "&game=" + encodeURIComponent(gameSel.value) : "";
    let live, tv = null;
    try {
      const ans = await call("GET", "/tables?status=playing" + q);
      live = (ans && ans.tables) || [];
      // A featured game is one in play: with none listed there is none
      // to ask for (the answer would be a 404 in the browser's console).
      if (live.length) try { tv = await call("GET", "/tv"); } catch (e) { if (e.status !== 404) throw e; }
    } catch (e) {
      fill(box, h("p", { class: "error" }, e.message));
      shown = "";
      return;
    }
    // Redraw only when something changed, so that the list does not jump
    // under the pointer or the screen reader.
    const now = JSON.stringify([live.map(t => [t.id, t.spectators, t.rating]), tv && [tv.table.id, tv.spectators, tv.rating]]);
    if (now === shown) return;
    shown = now;
    redraw(section, () => drawList(live, tv));
  };
  const drawList = (live, tv) => {
    const f = tv && tv.table;
    fill(featured, f ? h("div", { class: "card" },
      h("h3", {}, "Featured: ", f.title || title(f.game), f.rated ? h("span", { class: "rated-badge" }, "rated") : null),
      h("p", {}, players(f)),
      h("p", { class: "muted" }, tv.rating ? `Rated game, players rated ${Math.round(tv.rating)} on average; ` : "", watching(tv.spectators), "."),
      watchLink(f, "watch-featured-link")) : null);
    clear(box);
    if (!live.length) {
      append(box, h("p", { class: "muted" }, gameSel.value ? `No ${title(gameSel.value)} game is being played just now.` : "No game is being played just now."));
      return;
    }
    append(box, h("div", { class: "table-frame", tabindex: 0, "aria-label": "Games to watch" }, h("table", { class: "list" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Spectators"), h("th", {}, h("span", { class: "sr" }, "Watch")))),
      h("tbody", {}, live.map(t => h("tr", { "data-table": t.id },
        h("td", {}, t.title || title(t.game), t.rated ? h("span", { class: "rated-badge" }, "rated") : null),
        h("td", {}, players(t)),
        h("td", { class: "spectators" }, watching(t.spectators)),
        h("td", {}, watchLink(t))))))));
  };
  gameSel.addEventListener("change", () => { shown = ""; load(); });
  await load();
  return load;
}
