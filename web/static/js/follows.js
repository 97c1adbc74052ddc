// follows.js: following and blocking players (docs/protocol.md, "Follows
// and blocks"). The profile page's Follow and Block buttons, the home
// page's "Following" list with each player's status, and what the player
// stream's news of a followed player does (stream.js hands it here): the
// list changes at once, and a game begun raises a toast and, with the
// tab hidden, the notification the player turned on for their turns.

import { h, fill, append, toast } from "./dom.js";
import { call } from "./api.js";
import { title } from "./catalog.js";
import { followNotice } from "./notify.js";

const same = (a, b) => String(a || "").toLowerCase() === String(b || "").toLowerCase();

// relationButtons returns the Follow/Unfollow and Block/Unblock buttons
// for the player called name, drawn once their state is read.
export function relationButtons(name) {
  const box = h("div", { class: "row", id: "relation-actions" });
  const msg = h("p", { class: "help", id: "relation-help", "aria-live": "polite" });
  const err = h("p", { class: "error", role: "alert", id: "relation-error" });
  const out = h("div", { id: "relations" }, box, msg, err);
  let following = false, blocking = false;
  const draw = () => {
    fill(box,
      h("button", { type: "button", id: "follow-toggle", "aria-pressed": String(following),
        onclick: () => toggle("follows", following, v => { following = v; msg.textContent = v ? `You follow ${name}: you see when they are online and hear when they start a game.` : `You no longer follow ${name}.`; }) },
        following ? "Unfollow" : "Follow"),
      h("button", { type: "button", id: "block-toggle", "aria-pressed": String(blocking),
        onclick: () => toggle("blocks", blocking, v => { blocking = v; msg.textContent = v ? `You block ${name}: they cannot challenge you, be paired with you, sit at your tables, reach you in any table's chat or see when you are online. They are not told.` : `You no longer block ${name}.`; }) },
        blocking ? "Unblock" : "Block"));
  };
  const toggle = async (kind, on, then) => {
    err.textContent = "";
    // The button pressed keeps the keyboard's focus once drawn anew; the
    // buttons, disabled meanwhile, drop it.
    const had = box.contains(document.activeElement) ? document.activeElement.id : "";
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    try {
      if (on) await call("DELETE", `/${kind}/${encodeURIComponent(name)}`);
      else await call("POST", `/${kind}`, { name });
      then(!on);
    } catch (e) { err.textContent = e.message; }
    draw();
    const again = had && document.getElementById(had);
    if (again && (document.activeElement === document.body || !document.activeElement)) again.focus();
  };
  Promise.all([call("GET", "/follows"), call("GET", "/blocks")]).then(([f, b]) => {
    following = f.follows.some(x => same(x.name, name));
    blocking = b.blocks.some(x => same(x.name, name));
    draw();
  }).catch(e => { err.textContent = e.message; });
  return out;
}

let list = null; // the "Following" list on the page, if any

// statusOf says a followed player's status, as the list shows it.
function statusOf(f) {
  if (!f.online) return [h("span", { class: "muted follow-status", "data-status": "offline" }, "offline")];
  if (!f.playing.length) return [h("span", { class: "follow-status", "data-status": "online" }, "online")];
  return [h("span", { class: "follow-status", "data-status": "playing" }, "playing "),
    f.playing.flatMap((t, i) => [i ? ", " : "", t.id ? h("a", { href: "/t/" + t.id, "aria-label": `Watch ${f.name}'s ${title(t.game)} game` }, title(t.game)) : title(t.game)])];
}

// following returns the home page's "Following" section: whom the player
// follows, each online, playing (with a link to watch a public game) or
// offline, kept up to date by the player stream's news.
export function following() {
  const ul = h("ul", { class: "recent", id: "following" });
  const sec = h("section", { id: "home-following", "aria-labelledby": "following-h" }, h("h2", { id: "following-h" }, "Following"), ul);
  list = ul;
  draw();
  return sec;
}

// draw fills the "Following" list from the server.
async function draw() {
  const ul = list;
  if (!ul) return;
  try {
    const { follows } = await call("GET", "/follows");
    if (ul !== list) return; // the page changed meanwhile
    if (!follows.length) { fill(ul, h("li", { class: "muted" }, "Nobody yet: follow a player from their profile to see when they are online.")); return; }
    fill(ul, follows.map(f => h("li", { "data-name": f.name },
      h("a", { href: "/players/" + encodeURIComponent(f.name) }, f.name), " · ", statusOf(f))));
  } catch (e) { fill(ul, h("li", { class: "error" }, e.message)); }
}

// news acts on a followed player's news from the player stream: a
// "followOnline" or a "followPlaying".
export function news(ev) {
  const f = ev.follow;
  if (!f) return;
  if (list && list.isConnected) draw();
  if (ev.type === "followPlaying" && f.table) {
    const what = `${f.name} started a game of ${title(f.table.game)}`;
    toast(what + (f.table.id ? ": watch it from the Following list" : ""));
    followNotice(what);
  }
}

// blockedList returns the account page's card of the players the account
// blocks, each with an Unblock button.
export function blockedList() {
  const ul = h("ul", { class: "stack", id: "blocked", "aria-live": "polite" });
  const msg = h("p", { class: "error", role: "alert" });
  const show = async () => {
    try {
      const { blocks } = await call("GET", "/blocks");
      fill(ul, blocks.length ? blocks.map(b => h("li", { "data-name": b.name },
        h("a", { href: "/players/" + encodeURIComponent(b.name) }, b.name), " ",
        h("span", { class: "muted" }, "since ", new Date(b.since).toLocaleDateString()), " ",
        h("button", { type: "button", class: "unblock", "aria-label": `Unblock ${b.name}`, onclick: async () => {
          msg.textContent = "";
          try { await call("DELETE", "/blocks/" + encodeURIComponent(b.name)); toast(`${b.name} is no longer blocked`); show(); } catch (e) { msg.textContent = e.message; }
        } }, "Unblock")))
        : h("li", { class: "help" }, "Nobody. Block a player from their profile to keep them away; they are not told."));
    } catch (e) { msg.textContent = e.message; }
  };
  show();
  return h("section", { class: "card", id: "blocked-card", "aria-labelledby": "blocked-title" },
    h("h2", { id: "blocked-title" }, "Blocked players"), ul, msg);
}
