// players.js: a player's profile (ratings per pool, a rating chart per
// pool drawn as SVG from the history, the finished games with their
// replays) and the leaderboards.

import { h, append, fill, plural } from "./dom.js";
import { call, signedIn } from "./api.js";
import { games, title, poolTitle, forfeitWords, eventWords } from "./catalog.js";
import { namesLike, offerNames } from "./names.js";
import { go } from "./nav.js";

// named waits for the games' titles, which name the pools and the games
// listed; should they not come, the names stand for them.
const named = () => games().catch(() => {});
const num = x => Math.round(x);
const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const k of kids) el.append(k);
  return el;
}

// chart draws a pool's rating after each rated game, with the starting
// 1500 as the first point when the points are every one of the pool's
// games rated; a longer career's points are its latest games only, and
// the chart starts from the first of them rather than from a 1500 long
// gone.
export function chart(pool, points, games = points.length) {
  const W = 480, H = 160, L = 40, R = 10, T = 10, B = 20;
  const whole = points.length >= games;
  const ys = [...(whole ? [1500] : []), ...points.map(p => p.rating)];
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 50) { lo -= 25; hi += 25; }
  const x = i => L + (ys.length === 1 ? 0 : i * (W - L - R) / (ys.length - 1));
  const y = v => T + (hi - v) * (H - T - B) / (hi - lo);
  const desc = whole
    ? `Rating in ${poolTitle(pool)} after ${points.length === 1 ? "the one rated game" : "each of " + plural(points.length, "rated game")}: from 1500 to ${num(ys[ys.length - 1])}`
    : `Rating in ${poolTitle(pool)} after each of the last ${plural(points.length, "rated game")} of ${games}: from ${num(ys[0])} to ${num(ys[ys.length - 1])}`;
  const el = svg("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": desc, id: "chart-" + pool },
    svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
    svg("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }),
    svg("text", { x: 2, y: T + 8 }, String(num(hi))),
    svg("text", { x: 2, y: H - B }, String(num(lo))),
    svg("text", { x: L, y: H - 4 }, whole ? "first game" : `${points.length} games ago`),
    svg("text", { x: W - R - 60, y: H - 4 }, "latest"),
    svg("polyline", { points: ys.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
    ...ys.map((v, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3 })));
  return el;
}

// away reports whether profile p's rating in pool k, provisional, is so
// for the time away since its last game, which had settled it (RD under
// 110), rather than for want of games.
function away(p, k) {
  const pts = (p.history || {})[k] || [];
  return pts.length > 0 && pts[pts.length - 1].rd < 110;
}

// provisionalNote explains the ? of profile p's provisional ratings by
// the reasons that hold ("" when none is provisional).
export function provisionalNote(p) {
  const prov = Object.keys(p.ratings || {}).filter(k => p.ratings[k].provisional);
  const why = [];
  if (prov.some(k => !away(p, k))) why.push("too few rated games to be sure of the rating yet");
  if (prov.some(k => away(p, k))) why.push("unsure again after time away; the next rated games settle it");
  return why.length ? `? provisional: ${why.join("; ")}.` : "";
}

export async function profile(main, name) {
  try { name = decodeURIComponent(name); } catch { /* a malformed escape (%E0%A4): the name as it was typed */ }
  document.title = `${name} · Parlour`;
  const titled = named();
  let p;
  try {
    p = await call("GET", "/players/" + encodeURIComponent(name));
  } catch (e) {
    append(main, h("h1", {}, e.status === 404 ? "No such player" : "Cannot show this player"), h("p", { class: "error" }, e.message));
    // A name mistyped is the usual reason: say where players are found.
    if (e.status === 404) {
      append(main, h("p", { id: "profile-missing" }, "A player's page is found by their account's name, in any case; a guest has none, nor has a deleted account. ",
        h("a", { href: "/lobby" }, "The lobby"), " lists the players online, and ", h("a", { href: "/leaderboards" }, "the leaderboards"), " the rated ones."));
      // The names that begin as this one does: a letter mistyped at
      // the end is the usual slip.
      const like = await namesLike(name.slice(0, 3)).catch(() => []);
      if (like.length) append(main, h("p", { id: "profile-like" }, `Players whose names begin with “${name.slice(0, 3)}”: `,
        ...like.flatMap((n, i) => [i ? ", " : "", h("a", { href: "/players/" + encodeURIComponent(n) }, n)]), "."));
    }
    return;
  }
  document.title = `${p.name} · Parlour`;
  await titled;
  append(main, h("h1", { id: "profile-name" }, p.name),
    h("p", { class: "muted" }, `Playing since ${new Date(p.created).toLocaleDateString()} · ${plural(p.games, "finished game")}`),
    h("div", { id: "profile-actions", class: "row" }), h("div", { id: "profile-challenge" }));
  // A closed account keeps its page, its games and its ratings, but
  // nobody plays it any more.
  if (p.closed) document.getElementById("profile-actions").before(h("p", { class: "warn", id: "profile-closed" },
    "This account was closed by a moderator. Its games stay on the record; it plays no more, and the leaderboards leave it out."));
  // Another account's profile, seen signed in: challenge them.
  const me = signedIn();
  if (me && me.toLowerCase() !== p.name.toLowerCase() && !p.closed) {
    const { challengeButton } = await import("./challenge.js");
    append(document.getElementById("profile-actions"), challengeButton(p.name, document.getElementById("profile-challenge")));
    const { reportButton } = await import("./report.js");
    append(document.getElementById("profile-actions"), reportButton([p.name], null, document.getElementById("profile-challenge"), `Report ${p.name}`));
    const { relationButtons } = await import("./follows.js");
    document.getElementById("profile-challenge").after(relationButtons(p.name));
  }
  const pools = Object.keys(p.ratings || {});
  append(main, h("h2", {}, "Ratings"));
  if (!pools.length) append(main, h("p", { class: "muted" }, "No rated games yet."));
  else {
    append(main, h("table", { class: "list", id: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Deviation"), h("th", { scope: "col" }, "Rated games"))),
      h("tbody", {}, pools.map(k => { const r = p.ratings[k]; return h("tr", { "data-pool": k },
        h("td", {}, poolTitle(k)), h("td", { class: "rating" }, String(num(r.rating)), r.provisional ? [h("abbr", { class: "muted", title: away(p, k) ? "provisional: unsure again after time away" : "provisional: too few games to be sure", "aria-hidden": "true" }, "?"), h("span", { class: "sr" }, " (provisional)")] : null),
        h("td", {}, "±" + num(r.rd)), h("td", {}, String(r.games))); }))));
    // The mark is explained once, under the table, so that the table
    // stays narrow enough for a phone.
    const note = provisionalNote(p);
    if (note) append(main, h("p", { class: "help", id: "ratings-note" }, note));
    for (const k of pools) {
      const pts = (p.history || {})[k] || [];
      if (pts.length) append(main, h("figure", { class: "card" }, h("figcaption", {}, h("h3", {}, poolTitle(k))), chart(k, pts, p.ratings[k].games)));
    }
  }
  // Daily puzzles: streaks and results (dailyprofile.js, loaded only here).
  append(main, (await import("./dailyprofile.js")).dailySection(p.name));
  // The events the player placed in (eventwins.js, loaded only here).
  append(main, (await import("./eventwins.js")).wonSection(p));
  append(main, h("h2", {}, "Games"));
  const list = h("ul", { class: "recent", id: "games" });
  const more = h("div", { class: "row" });
  append(main, list, more);
  const page = async before => {
    fill(more);
    try {
      const ans = await call("GET", `/players/${encodeURIComponent(p.name)}/games${before ? "?before=" + encodeURIComponent(before) : ""}`);
      if (!ans.games.length && !before) append(list, h("li", { class: "muted" }, "No finished games yet."));
      // Every game at once, as records a program or the Replay page reads.
      // Today's daily attempts have no replay to offer until the day ends.
      const daily = ans.games.some(g => g.daily) ? await import("./dailyprofile.js") : null;
      const sealed = daily ? await daily.sealedDailies(p.name) : new Set();
      if (ans.games.length && !before) list.before(h("p", {}, h("a", { id: "games-export", href: `/api/v1/players/${encodeURIComponent(p.name)}/games/export`, download: "" }, "Download every game"), h("span", { class: "muted" }, " (their records, one a line)")));
      for (const g of ans.games) {
        const opp = g.opponents.length ? g.opponents.map(o => o.kind === "account" ? h("a", { href: "/players/" + encodeURIComponent(o.name) }, o.name)
          : o.kind === "computer" ? `the computer (${o.level})` : o.kind === "deleted" ? "deleted player" : `${o.name} (guest)`) : [];
        const delta = g.rated ? Math.round(g.rating_after - g.rating_before) : null;
        append(list, h("li", {},
          // A rated game of a mode rated apart names its pool: "Nymphabet
          // (cyclic)"; an attempt at a daily puzzle says so: "Daily Salvo".
          h("strong", {}, { win: "Won", loss: "Lost", draw: "Drew", aborted: "Aborted" }[g.result] || g.result), ` ${g.daily ? "Daily " : ""}${g.rated && g.pool ? poolTitle(g.pool) : title(g.game)}${opp.length ? " against " : ", alone"}`,
          opp.flatMap((o, i) => i ? [", ", o] : [o]),
          " ", h("span", { class: "muted" }, new Date(g.ended).toLocaleString()),
          eventWords(g),
          forfeitWords(g, p.name).map(w => h("span", { class: "forfeit" }, " · " + w)),
          delta === null ? null : h("span", { class: delta >= 0 ? "up" : "down" }, ` · rated, ${delta >= 0 ? "+" : "−"}${Math.abs(delta)} (${num(g.rating_after)})`),
          // Points lost to a player closed for cheating come back.
          g.refund ? h("span", { class: "up refund" }, ` · +${Math.round(g.refund)} given back (the opponent's account was closed)`) : null,
          " · ", sealed.has(g.daily) ? h("span", { class: "muted" }, daily.waitWords)
            : h("a", { href: "/replay?table=" + encodeURIComponent(g.table), "aria-label": `Replay the ${title(g.game)} game of ${new Date(g.ended).toLocaleString()}` }, "Replay")));
      }
      if (ans.next) append(more, h("button", { type: "button", id: "more-games", onclick: () => page(ans.next) }, "Older games"));
    } catch (e) { append(more, h("p", { class: "error" }, e.message)); }
  };
  await page("");
}

export async function leaderboards(main) {
  document.title = "Leaderboards · Parlour";
  append(main, h("h1", {}, "Leaderboards"), findForm(),
    h("p", { class: "muted" }, "The top 50 in each game: players with at least 5 rated games whose rating is settled (deviation under 110)."));
  let pools;
  try { [pools] = await Promise.all([call("GET", "/leaderboards").then(a => a.pools), named()]); } catch (e) { append(main, h("p", { class: "error" }, e.message)); return; }
  for (const pool of pools) {
    const sec = h("section", { class: "card", "aria-labelledby": "lb-" + pool }, h("h2", { id: "lb-" + pool }, poolTitle(pool)));
    append(main, sec);
    call("GET", "/leaderboards/" + encodeURIComponent(pool)).then(b => {
      if (!b.players.length) { append(sec, h("p", { class: "muted" }, "Nobody has a settled rating here yet.")); return; }
      append(sec, h("table", { class: "list" },
        h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games"].map(c => h("th", { scope: "col" }, c)))),
        h("tbody", {}, b.players.map(r => h("tr", {}, h("td", {}, String(r.rank)),
          h("td", {}, h("a", { href: "/players/" + encodeURIComponent(r.name) }, r.name)),
          h("td", {}, `${num(r.rating)} ±${num(r.rd)}`), h("td", {}, String(r.games)))))));
    }).catch(e => append(sec, h("p", { class: "error" }, e.message)));
  }
}

// findForm finds a player by the start of their name: the names that
// begin so are offered as it is typed, and the one sent opens its page.
function findForm() {
  const input = h("input", { id: "find-name", name: "name", maxlength: 20, autocomplete: "off", required: true, placeholder: "a name, or its start" });
  const said = h("p", { class: "help", id: "find-said", "aria-live": "polite" });
  const form = h("form", { class: "row", id: "find-player", role: "search", "aria-label": "Find a player" },
    h("label", { for: input.id }, "Find a player"), input, offerNames(input),
    h("button", { type: "submit", id: "find-go" }, "Show"), said);
  form.addEventListener("submit", async e => {
    e.preventDefault();
    said.textContent = "";
    const q = input.value.trim();
    let names;
    try { names = await namesLike(q, 20); } catch (ex) { said.textContent = ex.message; return; }
    const exact = names.find(n => n.toLowerCase() === q.toLowerCase());
    if (exact || names.length === 1) { go("/players/" + encodeURIComponent(exact || names[0])); return; }
    said.textContent = !names.length ? `No player's name begins with “${q}”.`
      : `${names.length === 20 ? "Many" : names.length} players' names begin with “${q}”: ${names.join(", ")}. Type more of the name.`;
  });
  return form;
}
