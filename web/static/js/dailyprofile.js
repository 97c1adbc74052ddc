// dailyprofile.js: a player's daily puzzles (GET /api/v1/players/{name}/daily)
// as a section of its own, for the profile page and the daily page: per
// game the streak, the longest streak, the days played and solved, and
// the latest results, a past day's linked to its replay with analysis.

import { h, append, plural } from "./dom.js";
import { call } from "./api.js";
import { games, title } from "./catalog.js";

// daily are the games with a daily puzzle (docs/daily.md), in the order
// they are listed.
const daily = ["quizl", "salvo"];

// dailySection returns a section that fills itself with name's daily
// puzzles; limit bounds the results listed per game.
export function dailySection(name, limit = 10) {
  const el = h("section", { class: "card daily-profile", id: "daily-profile", "aria-labelledby": "daily-profile-h" },
    h("h2", { id: "daily-profile-h" }, "Daily puzzles"));
  // The titles come with the results; should they not, the names stand.
  Promise.all([call("GET", `/players/${encodeURIComponent(name)}/daily`), games().catch(() => {})]).then(([d]) => {
    for (const g of daily) {
      const r = d[g];
      if (!r) continue;
      const unit = g === "quizl" ? "call" : "salvo";
      // A puzzle never played has no streak to speak of.
      const never = !r.played && !r.history.length;
      append(el, h("h3", {}, "Daily " + title(g)),
        never ? null : h("p", { class: "daily-streak", "data-game": g }, `Streak ${r.streak} · longest ${r.best} · solved ${r.solved} of ${r.played}`),
        r.history.length ? h("ul", { class: "daily-history" }, r.history.slice(0, limit).map(a => h("li", {},
          a.table ? h("a", { href: "/replay?analyse&table=" + encodeURIComponent(a.table) }, a.day) : a.day, ": ",
          !a.finished ? "under way" : `${a.solved ? "solved" : "not solved"}, ${plural(a.moves, unit)}, ${a.wrong} wrong`))) :
          h("p", { class: "muted" }, "Not played yet."));
    }
  }).catch(e => append(el, h("p", { class: "error" }, "Cannot read the daily puzzles: " + e.message)));
  return el;
}

// sealedDailies returns name's finished attempts whose day is not over
// yet, as "game/day" (a listed game's daily field): until midnight UTC
// their records are kept from everyone, their player too, so nothing
// offers their replay. The server's clock says when the day ends: its
// history names an attempt's table only then. Should the history not
// come, the set is empty and the replays stay offered.
export async function sealedDailies(name) {
  const out = new Set();
  let d;
  try { d = await call("GET", `/players/${encodeURIComponent(name)}/daily`); } catch { return out; }
  for (const [g, r] of Object.entries(d || {})) {
    for (const a of r.history || []) if (a.finished && !a.table) out.add(`${g}/${a.day}`);
  }
  return out;
}

// waitWords stands for the replay of an attempt whose day is not over.
export const waitWords = "replay when the day ends (midnight UTC)";
