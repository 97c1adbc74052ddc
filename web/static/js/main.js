// main.js: Parlour's browser client. It routes the page's path to a screen
// and keeps links inside the page, so that moving around never reloads it.
// The pages move the player with nav.js's go, which this module listens
// to; no page imports this one.

import { clear, h, append } from "./dom.js";
import { go, navigated } from "./nav.js";
import { menu } from "./top.js";

const routes = [
  [/^\/$/, () => import("./home.js").then(m => m.home)],
  [/^\/new\/([a-z]+)$/i, () => import("./home.js").then(m => m.newTable)],
  [/^\/account$/, () => import("./account.js").then(m => m.account)],
  [/^\/reset$/, () => import("./account.js").then(m => m.reset)],
  [/^\/moderation$/, () => import("./moderation.js").then(m => m.moderation)],
  [/^\/players\/([^/]+)$/, () => import("./players.js").then(m => m.profile)],
  [/^\/leaderboards$/, () => import("./players.js").then(m => m.leaderboards)],
  [/^\/players$/, () => import("./players.js").then(m => m.leaderboards)], // an alias: see aliases
  [/^\/events$/, () => import("./tournaments.js").then(m => m.events)], // an alias: see aliases
  [/^\/lobby$/, () => import("./lobby.js").then(m => m.lobby)],
  [/^\/daily$/, () => import("./daily.js").then(m => m.dailyIndex)],
  [/^\/daily\/([a-z]+)$/i, () => import("./daily.js").then(m => m.daily)],
  [/^\/tournaments$/, () => import("./tournaments.js").then(m => m.events)],
  [/^\/tournaments\/([A-Za-z0-9_-]+)$/, () => import("./tournaments.js").then(m => m.event)],
  [/^\/replay$/, () => import("./replay.js").then(m => m.replay)],
  [/^\/j\/([^/]+)$/, () => import("./table.js").then(m => m.byCode)],
  [/^\/(?:t|tables?)\/([A-Za-z0-9_-]+)(?:\/join)?$/, () => import("./table.js").then(m => m.table)],
];

// aliases are addresses a player may guess, each with the screen it
// means: the players' directory is the leaderboards, where Find a player
// opens anybody's profile (/players/NAME), and events, as the terminal
// calls them, are the tournaments.
const aliases = { "/players": "/leaderboards", "/events": "/tournaments" };

let leave = null; // the current screen's clean-up
// engaged says whether the visitor has pressed a key or pointed yet:
// until then every screen drawn, an invite code's redirect to its table
// included, is the page's first.
let engaged = false;
for (const kind of ["keydown", "pointerdown"]) document.addEventListener(kind, () => { engaged = true; }, { capture: true, once: true });
let drawn = ""; // the path and query of the screen drawn last

// arrive moves the keyboard's focus to the new screen's content: the link
// or button that led there is gone, or stays behind in the header, and
// the next Tab would otherwise start again at "Skip to content"; a screen
// reader starts reading the new screen. The page's first screen keeps the
// browser's own focus, and a screen that has focused something of its own
// (a form's first field) keeps that.
function arrive(main) {
  if (!engaged || main.contains(document.activeElement)) return;
  main.focus({ preventScroll: true });
}

// markCurrent marks the header's link to the screen at path as the
// current page (a screen under another, a daily puzzle under Daily,
// marks that one; Play stands for the home page and its new-table
// forms), so that a screen reader says where the player is, and the
// link shows it (app.css).
function markCurrent(path) {
  for (const a of document.querySelectorAll("#main-nav a")) {
    const to = a.getAttribute("href");
    const here = to === "/" ? path === "/" || path.startsWith("/new/") : path === to || path.startsWith(to + "/");
    if (here) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function route() {
  menu(false);
  const main = document.getElementById("main");
  drawn = location.pathname + location.search;
  if (leave) { try { leave(); } catch { /* a screen's clean-up must not stop the next */ } leave = null; }
  document.title = "Parlour";
  let path = location.pathname.replace(/\/+$/, "") || "/";
  // An address that names another screen is put right, so that it is
  // shared as that screen's.
  if (aliases[path]) {
    path = aliases[path];
    history.replaceState(history.state, "", path + location.search + location.hash);
    drawn = location.pathname + location.search;
  }
  markCurrent(path);
  for (const [re, loader] of routes) {
    const m = re.exec(path);
    if (!m) continue;
    // A game's name is read in any case (/daily/Quizl), as the API reads
    // it; the address is put right so that it is shared as the game's.
    if (re.ignoreCase && m[1] !== m[1].toLowerCase()) {
      m[1] = m[1].toLowerCase();
      history.replaceState(history.state, "", path.slice(0, -m[1].length) + m[1] + location.search + location.hash);
      drawn = location.pathname + location.search;
    }
    try {
      const screen = await loader();
      clear(main);
      arrive(main);
      leave = await screen(main, ...m.slice(1)) || null;
    } catch (e) {
      append(clear(main), h("h1", {}, "Something went wrong"), h("p", { class: "error" }, e.message));
      arrive(main);
    }
    return;
  }
  append(clear(main), h("h1", {}, "No such page"), h("p", {}, h("a", { href: "/" }, "Back to the games")));
  arrive(main);
}

document.addEventListener("click", e => {
  const a = e.target.closest && e.target.closest("a[href]");
  if (!a || a.target || a.hasAttribute("download") || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  // The rules are pages of their own, rendered by the server: load them.
  if (url.origin !== location.origin || /^\/(api|static|rules)(\/|$)/.test(url.pathname)) return;
  e.preventDefault();
  if (url.pathname + url.search === location.pathname + location.search && url.hash) { location.hash = url.hash; return; }
  go(url.pathname + url.search + url.hash);
});
// A move between places of one screen ("Skip to content", a link to a
// heading, Back from one) changes only the address's fragment: the
// screen stays as it is, with what was typed into it and its table's
// connection, and the browser moves to the place itself.
window.addEventListener("popstate", () => { if (location.pathname + location.search !== drawn) route(); });
window.addEventListener(navigated, route);
route();
import("./account.js").then(m => m.refresh()).catch(() => { /* the header keeps "Sign in" */ });
