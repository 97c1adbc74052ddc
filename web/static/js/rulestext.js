// rulestext.js: a table's rule options in words ("Board: 20 x 20",
// "Strike limit: 3"), from the option descriptions the server lists under
// /games, for the join page and the lobby. Never a raw value like
// "shape: ;".

import { h, plural } from "./dom.js";
import { gameInfo } from "./catalog.js";

// optionLabel names an option as a player reads it: the label its game
// gives it in /api/v1/games, else its key in words.
export function optionLabel(name, o) {
  if (o && o.label) return o.label;
  const s = String(name).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function valueText(o, v) {
  if (o && o.kind === "bool" || typeof v === "boolean") return v ? "on" : "off";
  if (o && o.kind === "text") {
    const t = String(v ?? "").trim();
    if (t === "") return "none";
    if (o.name === "shape") { const n = (t.match(/#/g) || []).length; return `${n} unusable square${n === 1 ? "" : "s"}`; }
    return t;
  }
  if (v === "" || v === null || v === undefined) return "none";
  return String(v).replace(/_/g, " ");
}

// spanText says a number of seconds in words: "45 seconds", "1 minute",
// "1 minute and 30 seconds", "1 day".
export function spanText(secs) {
  const parts = [];
  let left = Math.floor(Number(secs) || 0);
  for (const [n, one] of [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]]) {
    const k = Math.floor(left / n);
    if (k > 0 && parts.length < 2) { parts.push(plural(k, one)); left -= k * n; } else if (parts.length) break;
  }
  return parts.length ? parts.join(" and ") : "0 seconds";
}

// rulesInWords lists a table's rules as "Label: value" strings. opts are
// the game's option descriptions (may be empty: then every rule is named
// from its key); with changedOnly, options at their default are left out.
export function rulesInWords(opts, rules, changedOnly) {
  const byName = Object.fromEntries((opts || []).map(o => [o.name, o]));
  const r = { ...(rules || {}) };
  const isDefault = k => byName[k] && JSON.stringify(byName[k].default) === JSON.stringify(r[k]);
  const out = [];
  if ("width" in r && "height" in r) {
    if (!(changedOnly && isDefault("width") && isDefault("height"))) out.push(`Board: ${r.width} x ${r.height}`);
    delete r.width; delete r.height;
  }
  if ("clock" in r) {
    // The table's clock, not a game's option.
    const c = clockWords(r.clock);
    if (c) out.push(`Clock: ${c}`);
    else if (!changedOnly) out.push("Clock: none");
    delete r.clock;
  }
  // In the order the game lists its options (the order of the new table
  // form), not the rules' own, which the server sends sorted by name;
  // a rule the game does not list comes last.
  const order = new Map((opts || []).map((o, i) => [o.name, i]));
  const at = k => order.has(k) ? order.get(k) : order.size;
  for (const [k, v] of Object.entries(r).sort(([a], [b]) => at(a) - at(b))) {
    if (changedOnly && isDefault(k)) continue;
    const o = byName[k];
    if (o && o.kind === "text" && String(v ?? "").trim() === "" && isDefault(k)) continue; // "no shape" says nothing
    out.push(`${optionLabel(k, o)}: ${valueText(o, v)}`);
  }
  return out;
}

// rulesList is a table's rules in words, as a list that fills in once the
// game's option descriptions are known.
export function rulesList(info) {
  const ul = h("ul", { class: "rules-words", "aria-label": "Rules" });
  const draw = opts => {
    const lines = rulesInWords(opts, info.rules);
    ul.replaceChildren(...(lines.length ? lines : ["Standard rules"]).map(x => h("li", {}, x)));
  };
  gameInfo(info.game).then(g => draw(g ? g.options : []), () => draw([]));
  return h("div", {}, h("h2", {}, "Rules"), ul);
}

// clockWords says a clock as rules write it (seconds a turn, or a clock
// object) in words: "30 seconds a turn", "5+3 (5 minutes for the game,
// 3 seconds a move)", "2 days a move"; "" for none.
export function clockWords(c) {
  if (typeof c === "number") return c > 0 ? `${spanText(c)} a turn` : "";
  if (!c || typeof c !== "object") return "";
  switch (c.kind) {
    case "turn": return `${spanText(c.seconds)} a turn`;
    case "fischer": {
      const inc = c.increment || 0;
      const min = c.initial % 60 === 0 ? String(c.initial / 60) : `${Math.floor(c.initial / 60)}:${String(c.initial % 60).padStart(2, "0")}`;
      return `${min}+${inc} (${spanText(c.initial)} for the game, ${plural(inc, "second")} a move)`;
    }
    case "correspondence": return c.days === 1 ? "1 day a move" : `${c.days} days a move`;
  }
  return "";
}
