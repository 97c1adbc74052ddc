// lobby.js: the open tables anybody may join.

import { h, clear, append } from "./dom.js";
import { call, games } from "./api.js";
import { rulesInWords } from "./rulestext.js";

export async function lobby(main) {
  document.title = "Lobby · Parlour";
  const box = h("div", { "aria-live": "polite" });
  // Who is online and challenges come from another change; they go in
  // #lobby-players, empty (and hidden) until then.
  append(main, h("h1", {}, "Open tables"), box, h("p", {}, h("a", { href: "/" }, "Open a table of your own")),
    h("section", { id: "lobby-players", hidden: true, "aria-label": "Players online" }));
  let shown = "";
  const options = {};
  try { for (const g of await games()) options[g.name] = g.options; } catch { /* name every rule from its key */ }
  // rulesText names the options a table changed from their defaults.
  const rulesText = t => rulesInWords(options[t.game], t.rules, true).join("; ") || "standard";
  const load = async () => {
    let tables;
    try {
      const ans = await call("GET", "/tables?status=open");
      tables = Array.isArray(ans) ? ans : (ans && ans.tables) || [];
    } catch (e) {
      append(clear(box), h("p", { class: "error" }, e.message));
      return;
    }
    // Redraw only when something changed, so that the list does not jump
    // under the pointer or the screen reader.
    const now = JSON.stringify(tables.map(t => [t.id, t.seats]));
    if (now === shown) return;
    shown = now;
    clear(box);
    if (!tables.length) {
      append(box, h("p", { class: "muted" }, "No open tables right now."));
      return;
    }
    append(box, h("table", { class: "list" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Rules"), h("th", {}, h("span", { class: "sr" }, "Join")))),
      h("tbody", {}, tables.map(t => h("tr", {},
        h("td", {}, t.title || t.game),
        h("td", {}, (t.seats || []).map(s => s.kind === "open" ? "open seat" : s.kind === "computer" ? `the computer, ${s.level}` : s.name).join(", ")),
        h("td", { class: "muted" }, rulesText(t)),
        h("td", {}, h("a", { class: "button", href: "/t/" + t.id, "aria-label": `Join ${t.title || t.game} table ${t.id}` }, "Join")))))));
  };
  await load();
  const timer = setInterval(load, 5000);
  return () => clearInterval(timer);
}
