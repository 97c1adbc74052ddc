// lobby.js: the open tables anybody may join.

import { h, clear, append } from "./dom.js";
import { call } from "./api.js";

export async function lobby(main) {
  document.title = "Lobby · Parlour";
  const box = h("div", { "aria-live": "polite" });
  append(main, h("h1", {}, "Open tables"), box, h("p", {}, h("a", { href: "/" }, "Open a table of your own")));
  const load = async () => {
    let tables;
    try {
      const ans = await call("GET", "/tables?status=open");
      tables = Array.isArray(ans) ? ans : (ans && ans.tables) || [];
    } catch (e) {
      append(clear(box), h("p", { class: "error" }, e.message));
      return;
    }
    clear(box);
    if (!tables.length) {
      append(box, h("p", { class: "muted" }, "No open tables right now."));
      return;
    }
    append(box, h("table", { class: "list" },
      h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Rules"), h("th", {}, h("span", { class: "sr" }, "Join")))),
      h("tbody", {}, tables.map(t => h("tr", {},
        h("td", {}, t.title || t.game),
        h("td", {}, (t.seats || []).map(s => s.kind === "open" ? "open seat" : s.kind === "computer" ? `computer (${s.level})` : s.name).join(", ")),
        h("td", { class: "muted" }, Object.entries(t.rules || {}).map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`).join("; ") || "standard"),
        h("td", {}, h("a", { class: "button", href: "/t/" + t.id, "aria-label": `Join ${t.title || t.game} table ${t.id}` }, "Join")))))));
  };
  await load();
  const timer = setInterval(load, 5000);
  return () => clearInterval(timer);
}
